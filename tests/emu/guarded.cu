/* guarded.cu — eight loads, each under a bounds guard and used at once:
 * NVVM writes each guard as a forward branch over its load, and the use
 * (a shift) right after the load, so the next guard's branch follows a
 * use of the load before it.  ptxas turns the guards into predicated
 * loads issued back to back. */
static __device__ __forceinline__ unsigned fetch(const unsigned *__restrict__ in, int x, int n)
{
	if (x < 0 || x >= n)
		return 0;
	return __ldg(&in[x]);
}

extern "C" __global__ void guarded(const unsigned *__restrict__ in, unsigned *out, int n, int stride)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned a[8];
#pragma unroll
	for (int r = 0; r < 8; r++)
		a[r] = fetch(in, x + r * stride, n) << 1;
	unsigned s = 0;
#pragma unroll
	for (int r = 0; r < 8; r++)
		s ^= a[r];
	out[x] = s;
}
