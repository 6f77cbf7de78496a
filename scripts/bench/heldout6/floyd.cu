/* floyd.cu: one k-step of Floyd-Warshall on a float distance matrix, row k
 * and column k read through the cache or staged in shared memory, VEC
 * entries a thread (held-out space). */
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef STAGE
#define STAGE 2
#endif
#ifndef RT
#define RT 8
#endif

#if VEC == 4
typedef float4 vec_t;
static __device__ __forceinline__ float4 relax(float4 a, float dik, float4 b)
{
	return make_float4(fminf(a.x, dik + b.x), fminf(a.y, dik + b.y),
			   fminf(a.z, dik + b.z), fminf(a.w, dik + b.w));
}
#elif VEC == 2
typedef float2 vec_t;
static __device__ __forceinline__ float2 relax(float2 a, float dik, float2 b)
{
	return make_float2(fminf(a.x, dik + b.x), fminf(a.y, dik + b.y));
}
#else
typedef float vec_t;
static __device__ __forceinline__ float relax(float a, float dik, float b)
{
	return fminf(a, dik + b);
}
#endif

extern "C" __global__ void floyd(const float *__restrict__ d, float *__restrict__ out, int n, int k)
{
	const vec_t *dv = (const vec_t *)d;
	vec_t *ov = (vec_t *)out;
	int nv = n / VEC;
	int cx = blockIdx.x * BX + threadIdx.x;
	int i0 = blockIdx.y * (BY * RT);
#if STAGE >= 1
	__shared__ vec_t rowk[BX];
	if (threadIdx.y == 0)
		rowk[threadIdx.x] = dv[(size_t)k * nv + cx];
#endif
#if STAGE == 2
	__shared__ float colk[BY * RT];
	for (int t = threadIdx.y * BX + threadIdx.x; t < BY * RT; t += BX * BY)
		colk[t] = d[(size_t)(i0 + t) * n + k];
#endif
#if STAGE >= 1
	__syncthreads();
	vec_t rk = rowk[threadIdx.x];
#else
	vec_t rk = dv[(size_t)k * nv + cx];
#endif
#pragma unroll
	for (int r = 0; r < RT; r++) {
		int i = i0 + r * BY + threadIdx.y;
#if STAGE == 2
		float dik = colk[r * BY + threadIdx.y];
#else
		float dik = d[(size_t)i * n + k];
#endif
		size_t e = (size_t)i * nv + cx;
		ov[e] = relax(dv[e], dik, rk);
	}
}

extern "C" __global__ void floyd_naive(const float *d, float *out, int n, int k)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i >= n || j >= n)
		return;
	float via = d[(size_t)i * n + k] + d[(size_t)k * n + j];
	float old = d[(size_t)i * n + j];
	out[(size_t)i * n + j] = via < old ? via : old;
}
