/* histogram.cu: a 256-bin histogram of bytes (held-out space). */
#ifndef PRIV
#define PRIV 1
#endif
#ifndef ITEMS
#define ITEMS 16
#endif
#ifndef TPB
#define TPB 256
#endif
#define COPIES (PRIV == 2 ? TPB / 32 : 1)
extern "C" __global__ void histogram(const unsigned char *data, unsigned *hist)
{
	size_t base = (size_t)blockIdx.x * TPB * ITEMS + threadIdx.x;
#if PRIV
	__shared__ unsigned sh[COPIES * 256];
	for (int i = threadIdx.x; i < COPIES * 256; i += TPB)
		sh[i] = 0;
	__syncthreads();
	unsigned *mine = sh + (PRIV == 2 ? (threadIdx.x / 32) * 256 : 0);
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		atomicAdd(&mine[data[base + (size_t)k * TPB]], 1u);
	__syncthreads();
	for (int b = threadIdx.x; b < 256; b += TPB) {
		unsigned s = 0;
		for (int c = 0; c < COPIES; c++)
			s += sh[c * 256 + b];
		if (s)
			atomicAdd(&hist[b], s);
	}
#else
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		atomicAdd(&hist[data[base + (size_t)k * TPB]], 1u);
#endif
}
extern "C" __global__ void histogram_naive(const unsigned char *data, unsigned *hist, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&hist[data[i]], 1u);
}
