/* fir1d.cu: a 33-tap FIR filter of a padded float signal, its window of
 * inputs from global loads, a shared tile or warp shuffles (held-out
 * space). */
#ifndef NT
#define NT 33
#endif
#ifndef TPB
#define TPB 256
#endif
#ifndef OPT
#define OPT 4
#endif
#ifndef SRC
#define SRC 1
#endif
#ifndef CONST
#define CONST 1
#endif

__constant__ float ch[NT];

#if CONST
#define TAP(k) ch[k]
#else
#define TAP(k) h[k]
#endif

extern "C" __global__ void fir(const float *__restrict__ x, const float *__restrict__ h,
			       float *__restrict__ y)
{
	size_t b0 = (size_t)blockIdx.x * (TPB * OPT);
	float acc[OPT];
#pragma unroll
	for (int j = 0; j < OPT; j++)
		acc[j] = 0.0f;
#if SRC == 0
	const float *xs = x + b0 + threadIdx.x;
#pragma unroll
	for (int k = 0; k < NT; k++) {
		float t = TAP(k);
#pragma unroll
		for (int j = 0; j < OPT; j++)
			acc[j] = fmaf(t, xs[j * TPB + k], acc[j]);
	}
#pragma unroll
	for (int j = 0; j < OPT; j++)
		y[b0 + threadIdx.x + j * TPB] = acc[j];
#elif SRC == 1
	__shared__ float tile[TPB * OPT + NT - 1];
	for (int i = threadIdx.x; i < TPB * OPT + NT - 1; i += TPB)
		tile[i] = x[b0 + i];
	__syncthreads();
#pragma unroll
	for (int k = 0; k < NT; k++) {
		float t = TAP(k);
#pragma unroll
		for (int j = 0; j < OPT; j++)
			acc[j] = fmaf(t, tile[threadIdx.x + j * TPB + k], acc[j]);
	}
#pragma unroll
	for (int j = 0; j < OPT; j++)
		y[b0 + threadIdx.x + j * TPB] = acc[j];
#else
	/* Lane l holds a[j] = x[w0 + 32 j + l]; the input k on from output
	 * w0 + 32 j + l sits in lane (l + k) & 31, in a[j] when that lane is
	 * at or past k, else in a[j + 1].  NT - 1 <= 32, so one extra word a
	 * lane covers the halo. */
	int lane = threadIdx.x & 31;
	size_t w0 = b0 + (size_t)(threadIdx.x >> 5) * (32 * OPT);
	float a[OPT + 1];
#pragma unroll
	for (int j = 0; j <= OPT; j++)
		a[j] = x[w0 + 32 * j + lane];
#pragma unroll
	for (int k = 0; k < NT; k++) {
		float t = TAP(k);
		int src = (lane + k) & 31;
#pragma unroll
		for (int j = 0; j < OPT; j++) {
			float v = __shfl_sync(0xffffffffu, lane >= k ? a[j] : a[j + 1], src);
			acc[j] = fmaf(t, v, acc[j]);
		}
	}
#pragma unroll
	for (int j = 0; j < OPT; j++)
		y[w0 + 32 * j + lane] = acc[j];
#endif
}

extern "C" __global__ void fir_naive(const float *x, const float *h, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float acc = 0.0f;
	for (int k = 0; k < NT; k++)
		acc = fmaf(h[k], x[i + k], acc);
	y[i] = acc;
}
