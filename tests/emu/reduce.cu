/* reduce.cu — block reductions: shared memory with __syncthreads, warp
 * shuffles and votes. */
#ifndef BLOCK
#define BLOCK 256
#endif

/* out[blockIdx.x] = sum of in[] over the block's slice (tree in shared memory) */
extern "C" __global__ void reduce_smem(const int *in, int *out, int n)
{
	__shared__ int s[BLOCK];
	int i = blockIdx.x * BLOCK + threadIdx.x;
	s[threadIdx.x] = i < n ? in[i] : 0;
	__syncthreads();
	for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
		if (threadIdx.x < stride)
			s[threadIdx.x] += s[threadIdx.x + stride];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		out[blockIdx.x] = s[0];
}

/* Per warp: sum by __shfl_down_sync, max by __shfl_xor_sync, and votes. */
extern "C" __global__ void warp_ops(const int *in, int *sum, int *mx, unsigned *ballot, int *any,
				    int *all, int *bcast, int *up)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = in[i];
	int s = v;
	for (int o = 16; o > 0; o >>= 1)
		s += __shfl_down_sync(0xffffffffu, s, o);
	int m = v;
	for (int o = 1; o < 32; o <<= 1)
		m = max(m, __shfl_xor_sync(0xffffffffu, m, o));
	unsigned b = __ballot_sync(0xffffffffu, v > 0);
	int a = __any_sync(0xffffffffu, v > 1000);
	int l = __all_sync(0xffffffffu, v > -1000);
	bcast[i] = __shfl_sync(0xffffffffu, v, 7);
	up[i] = __shfl_up_sync(0xffffffffu, v, 3, 16);
	if ((threadIdx.x & 31) == 0) {
		int w = i / 32;
		sum[w] = s;
		mx[w] = m;
		ballot[w] = b;
		any[w] = a;
		all[w] = l;
	}
}
