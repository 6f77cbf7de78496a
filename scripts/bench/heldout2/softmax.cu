/* softmax.cu: row-wise softmax, warp or block per row, three-pass or online (held-out space). */
#ifndef COLS
#define COLS 1024
#endif
#ifndef TPR
#define TPR 32
#endif
#ifndef RPB
#define RPB 4
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef ONLINE
#define ONLINE 1
#endif

#define NV (COLS / (TPR * VEC))		/* vectors per thread */
#define WARPS (TPR / 32)		/* warps per row */

#if VEC == 1
typedef float fvec;
#define NTH(v, e) (v)
#define SETNTH(v, e, a) ((v) = (a))
#elif VEC == 2
typedef float2 fvec;
#define NTH(v, e) ((e) == 0 ? (v).x : (v).y)
#define SETNTH(v, e, a) ((e) == 0 ? ((v).x = (a)) : ((v).y = (a)))
#else
typedef float4 fvec;
#define NTH(v, e) ((e) == 0 ? (v).x : (e) == 1 ? (v).y : (e) == 2 ? (v).z : (v).w)
#define SETNTH(v, e, a) ((e) == 0 ? ((v).x = (a)) : (e) == 1 ? ((v).y = (a)) : \
		(e) == 2 ? ((v).z = (a)) : ((v).w = (a)))
#endif

/* Combines two (max, sum of exp(x - max)) pairs. */
__device__ static void merge(float *m, float *s, float m2, float s2)
{
	float mm = fmaxf(*m, m2);
	*s = *s * expf(*m - mm) + s2 * expf(m2 - mm);
	*m = mm;
}

#if WARPS > 1
__shared__ float red_m[RPB][WARPS];
__shared__ float red_s[RPB][WARPS];
#endif

/* The row's max (OP 0) or sum (OP 1) of the threads' values, known to
 * every thread of the row. */
__device__ static float row_reduce(float v, int op)
{
#pragma unroll
	for (int d = 16; d > 0; d >>= 1) {
		float o = __shfl_xor_sync(0xffffffffu, v, d);
		v = op ? v + o : fmaxf(v, o);
	}
#if WARPS > 1
	__syncthreads();	/* the previous reduction's readers are done */
	if ((threadIdx.x & 31) == 0)
		red_m[threadIdx.y][threadIdx.x >> 5] = v;
	__syncthreads();
	v = red_m[threadIdx.y][0];
#pragma unroll
	for (int w = 1; w < WARPS; w++)
		v = op ? v + red_m[threadIdx.y][w] : fmaxf(v, red_m[threadIdx.y][w]);
#endif
	return v;
}

extern "C" __global__ void softmax(const float *x, float *y)
{
	size_t row = (size_t)blockIdx.x * RPB + threadIdx.y;
	const fvec *xv = (const fvec *)(x + row * COLS);
	fvec *yv = (fvec *)(y + row * COLS);
	float m, s;
#if ONLINE
	m = __int_as_float(0xff800000);	/* -infinity */
	s = 0;
	for (int k = 0; k < NV; k++) {
		fvec v = xv[k * TPR + threadIdx.x];
#pragma unroll
		for (int e = 0; e < VEC; e++) {
			float a = NTH(v, e);
			if (a > m) {
				s = s * expf(m - a) + 1;
				m = a;
			} else {
				s += expf(a - m);
			}
		}
	}
#pragma unroll
	for (int d = 16; d > 0; d >>= 1) {
		float m2 = __shfl_xor_sync(0xffffffffu, m, d);
		float s2 = __shfl_xor_sync(0xffffffffu, s, d);
		merge(&m, &s, m2, s2);
	}
#if WARPS > 1
	if ((threadIdx.x & 31) == 0) {
		red_m[threadIdx.y][threadIdx.x >> 5] = m;
		red_s[threadIdx.y][threadIdx.x >> 5] = s;
	}
	__syncthreads();
	m = red_m[threadIdx.y][0];
	s = red_s[threadIdx.y][0];
#pragma unroll
	for (int w = 1; w < WARPS; w++)
		merge(&m, &s, red_m[threadIdx.y][w], red_s[threadIdx.y][w]);
#endif
#else
	m = __int_as_float(0xff800000);	/* -infinity */
	for (int k = 0; k < NV; k++) {
		fvec v = xv[k * TPR + threadIdx.x];
#pragma unroll
		for (int e = 0; e < VEC; e++)
			m = fmaxf(m, NTH(v, e));
	}
	m = row_reduce(m, 0);
	s = 0;
	for (int k = 0; k < NV; k++) {
		fvec v = xv[k * TPR + threadIdx.x];
#pragma unroll
		for (int e = 0; e < VEC; e++)
			s += expf(NTH(v, e) - m);
	}
	s = row_reduce(s, 1);
#endif
	float inv = 1.0f / s;
	for (int k = 0; k < NV; k++) {
		fvec v = xv[k * TPR + threadIdx.x], o;
#pragma unroll
		for (int e = 0; e < VEC; e++)
			SETNTH(o, e, expf(NTH(v, e) - m) * inv);
		yv[k * TPR + threadIdx.x] = o;
	}
}

/* One thread a row, in double. */
extern "C" __global__ void softmax_naive(const float *x, float *y, int rows)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	const float *xr = x + (size_t)r * COLS;
	double m = xr[0], s = 0;
	for (int c = 1; c < COLS; c++)
		m = xr[c] > m ? xr[c] : m;
	for (int c = 0; c < COLS; c++)
		s += exp((double)xr[c] - m);
	for (int c = 0; c < COLS; c++)
		y[(size_t)r * COLS + c] = (float)(exp((double)xr[c] - m) / s);
}
