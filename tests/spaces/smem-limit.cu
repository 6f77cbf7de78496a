// smem-limit.cu - a block's tile in static shared memory, SMEM_FLOATS floats:
// 50 KB of it is more than ptxas lets a kernel declare statically (48 KB).
extern "C" __global__ void rotate(float *x, int n)
{
	__shared__ float tile[SMEM_FLOATS];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	tile[threadIdx.x] = i < n ? x[i] : 0.0f;
	tile[SMEM_FLOATS - 1 - threadIdx.x] = 1.0f;
	__syncthreads();
	if (i < n)
		x[i] = tile[(threadIdx.x + 1) % blockDim.x] + tile[SMEM_FLOATS - 1 - threadIdx.x];
}
