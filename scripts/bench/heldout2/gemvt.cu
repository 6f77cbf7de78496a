/* gemvt.cu: y = A^T x for a row-major float matrix, column dot products
 * split over row slices and met by atomics (held-out space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef SPLIT
#define SPLIT 16
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef SLICE
#define SLICE 512
#endif
#if VEC == 4
typedef float4 vec;
#elif VEC == 2
typedef float2 vec;
#else
typedef float vec;
#endif

/* Adds a * xi to VEC partial sums; scalar float has no .x. */
static __device__ __forceinline__ void axpy(float *acc, vec a, float xi)
{
#if VEC == 1
	acc[0] += a * xi;
#else
	acc[0] += a.x * xi;
	acc[1] += a.y * xi;
#if VEC == 4
	acc[2] += a.z * xi;
	acc[3] += a.w * xi;
#endif
#endif
}

extern "C" __global__ void gemvt(const float *A, const float *x, float *y, int n)
{
	int col = (blockIdx.x * TPB + threadIdx.x) * VEC;
	int row0 = blockIdx.y * SLICE;
	const vec *p = (const vec *)(A + (size_t)row0 * n + col);
	size_t stride = (size_t)n / VEC;
	float acc[VEC];
#pragma unroll
	for (int k = 0; k < VEC; k++)
		acc[k] = 0.0f;
	for (int i = 0; i < SLICE; i += UNROLL) {
		vec a[UNROLL];
		float xi[UNROLL];
#pragma unroll
		for (int u = 0; u < UNROLL; u++) {
			a[u] = p[(size_t)(i + u) * stride];
			xi[u] = x[row0 + i + u];
		}
#pragma unroll
		for (int u = 0; u < UNROLL; u++)
			axpy(acc, a[u], xi[u]);
	}
#pragma unroll
	for (int k = 0; k < VEC; k++) {
#if SPLIT == 1
		y[col + k] = acc[k];
#else
		atomicAdd(&y[col + k], acc[k]);
#endif
	}
}

extern "C" __global__ void gemvt_naive(const float *A, const float *x, float *y, int m, int n)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	if (j >= n)
		return;
	float s = 0.0f;
	for (int i = 0; i < m; i++)
		s += A[(size_t)i * n + j] * x[i];
	y[j] = s;
}
