/* polyeval.cu: Horner evaluation of a degree-DEG polynomial at many float
 * points, coefficients in constant, shared or global memory, chains
 * interleaved or one after another (held-out space). */
#ifndef DEG
#define DEG 96
#endif
#ifndef TPB
#define TPB 256
#endif
#ifndef PPT
#define PPT 1
#endif
#ifndef ILV
#define ILV 0
#endif
#ifndef COEF
#define COEF 0
#endif

__constant__ float cc[DEG + 1];

#if COEF == 0
#define COEFF(i) cc[i]
#elif COEF == 1
#define COEFF(i) sc[i]
#else
#define COEFF(i) __ldg(&c[i])
#endif

extern "C" __global__ void poly(const float *__restrict__ x, const float *__restrict__ c,
				float *__restrict__ y)
{
#if COEF == 1
	__shared__ float sc[DEG + 1];
	for (int i = threadIdx.x; i <= DEG; i += TPB)
		sc[i] = c[i];
	__syncthreads();
#endif
	size_t b0 = (size_t)blockIdx.x * (TPB * PPT) + threadIdx.x;
#if ILV
	float v[PPT], r[PPT];
#pragma unroll
	for (int j = 0; j < PPT; j++) {
		v[j] = x[b0 + j * TPB];
		r[j] = COEFF(DEG);
	}
#pragma unroll
	for (int i = DEG - 1; i >= 0; i--) {
		float ci = COEFF(i);
#pragma unroll
		for (int j = 0; j < PPT; j++)
			r[j] = fmaf(r[j], v[j], ci);
	}
#pragma unroll
	for (int j = 0; j < PPT; j++)
		y[b0 + j * TPB] = r[j];
#else
#pragma unroll 1
	for (int j = 0; j < PPT; j++) {
		float v = x[b0 + j * TPB];
		float r = COEFF(DEG);
#pragma unroll
		for (int i = DEG - 1; i >= 0; i--)
			r = fmaf(r, v, COEFF(i));
		y[b0 + j * TPB] = r;
	}
#endif
}

extern "C" __global__ void poly_naive(const float *x, const float *c, float *y, int n)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= n)
		return;
	double v = x[p], r = c[DEG];
	for (int i = DEG - 1; i >= 0; i--)
		r = r * v + c[i];
	y[p] = (float)r;
}
