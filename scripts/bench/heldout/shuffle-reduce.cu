/* shuffle-reduce.cu: sum of floats, shared-memory tree or warp shuffles
 * (held-out space). */
#ifndef MODE
#define MODE 2
#endif
#ifndef TPB
#define TPB 256
#endif
#ifndef ITEMS
#define ITEMS 4
#endif
__device__ float warp_sum(float v)
{
	for (int d = 16; d >= 1; d /= 2)
		v += __shfl_down_sync(0xffffffffu, v, d);
	return v;
}
extern "C" __global__ void reduce(const float *x, float *partial)
{
	__shared__ float sh[TPB];
	int t = threadIdx.x;
	size_t base = (size_t)blockIdx.x * TPB * ITEMS + t;
	float v = 0;
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		v += x[base + k * TPB];
#if MODE == 0
	sh[t] = v;
	__syncthreads();
	for (int d = TPB / 2; d >= 1; d /= 2) {
		if (t < d)
			sh[t] += sh[t + d];
		__syncthreads();
	}
	if (t == 0)
		partial[blockIdx.x] = sh[0];
#elif MODE == 1
	sh[t] = v;
	__syncthreads();
	for (int d = TPB / 2; d >= 32; d /= 2) {
		if (t < d)
			sh[t] += sh[t + d];
		__syncthreads();
	}
	if (t < 32) {
		v = warp_sum(TPB >= 64 ? sh[t] : v);
		if (t == 0)
			partial[blockIdx.x] = v;
	}
#else
	v = warp_sum(v);
	if ((t & 31) == 0)
		sh[t >> 5] = v;
	__syncthreads();
	if (t < 32) {
		v = warp_sum(t < TPB / 32 ? sh[t] : 0.0f);
		if (t == 0)
			partial[blockIdx.x] = v;
	}
#endif
}
extern "C" __global__ void reduce_final(const float *partial, float *total, int n)
{
	__shared__ float sh[1024];
	float v = 0;
	for (int i = threadIdx.x; i < n; i += 1024)
		v += partial[i];
	sh[threadIdx.x] = v;
	__syncthreads();
	for (int d = 512; d >= 1; d /= 2) {
		if (threadIdx.x < d)
			sh[threadIdx.x] += sh[threadIdx.x + d];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		*total = sh[0];
}
extern "C" __global__ void reduce_naive(const float *x, float *total, int n)
{
	__shared__ double sh[1024];
	double v = 0;
	for (int i = threadIdx.x; i < n; i += 1024)
		v += x[i];
	sh[threadIdx.x] = v;
	__syncthreads();
	for (int d = 512; d >= 1; d /= 2) {
		if (threadIdx.x < d)
			sh[threadIdx.x] += sh[threadIdx.x + d];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		*total = (float)sh[0];
}
