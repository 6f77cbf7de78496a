/* argmax.cu: the maximum of each row of a float matrix and the first
 * column holding it; TPR threads a row (a group of lanes within a warp, a
 * warp, or several warps meeting in shared memory), RPB rows a block,
 * loads of VEC floats (held-out space). */
#ifndef COLS
#define COLS 2048
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

#define STEPS (COLS / (TPR * VEC))	/* loads a thread */
#define WPR (TPR / 32)			/* warps a row, when a row has more than one */

#if VEC == 1
typedef float vec_t;
#elif VEC == 2
typedef float2 vec_t;
#else
typedef float4 vec_t;
#endif

/* Take (ov, oi) over (v, i) when it is larger, or equal at a lower
 * column: the order of the merges then cannot change the answer. */
static __device__ __forceinline__ void better(float *v, int *i, float ov, int oi)
{
	if (ov > *v || (ov == *v && oi < *i)) {
		*v = ov;
		*i = oi;
	}
}

/* Within one thread the columns only grow, so a strict > keeps the
 * first of equal values without comparing indices. */
static __device__ __forceinline__ void step(float *v, int *i, float x, int c)
{
	if (x > *v) {
		*v = x;
		*i = c;
	}
}

/* Butterfly over aligned groups of n lanes (n a power of two up to 32):
 * every lane of a group ends with the group's answer. */
static __device__ __forceinline__ void group_merge(float *v, int *i, int n)
{
#pragma unroll
	for (int off = 16; off >= 1; off >>= 1) {
		if (off < n) {
			float ov = __shfl_xor_sync(0xffffffffu, *v, off);
			int oi = __shfl_xor_sync(0xffffffffu, *i, off);
			better(v, i, ov, oi);
		}
	}
}

/* Thread t of a row reads VEC floats at column (k * TPR + t) * VEC for
 * k < STEPS: at each k the row's threads read TPR * VEC adjacent floats. */
extern "C" __global__ void argmax(const float *__restrict__ a, float *__restrict__ vmax,
				  int *__restrict__ imax)
{
	int r = threadIdx.x / TPR, t = threadIdx.x % TPR;
	size_t row = (size_t)blockIdx.x * RPB + r;
	const vec_t *p = (const vec_t *)(a + row * COLS) + t;
	float v = a[row * COLS + t * VEC];
	int i = t * VEC;

#pragma unroll 8
	for (int k = 0; k < STEPS; k++) {
		vec_t x = p[k * TPR];
		int c = (k * TPR + t) * VEC;
#if VEC == 1
		step(&v, &i, x, c);
#elif VEC == 2
		step(&v, &i, x.x, c);
		step(&v, &i, x.y, c + 1);
#else
		step(&v, &i, x.x, c);
		step(&v, &i, x.y, c + 1);
		step(&v, &i, x.z, c + 2);
		step(&v, &i, x.w, c + 3);
#endif
	}
	group_merge(&v, &i, TPR < 32 ? TPR : 32);
#if TPR > 32
	/* One (value, column) a warp; the row's first warp merges them. */
	__shared__ float sv[RPB * WPR];
	__shared__ int si[RPB * WPR];
	int lane = t % 32, w = t / 32;
	if (lane == 0) {
		sv[r * WPR + w] = v;
		si[r * WPR + w] = i;
	}
	__syncthreads();
	if (w == 0) {
		/* Lanes past WPR repeat warp 0's answer, which changes nothing. */
		int j = lane < WPR ? lane : 0;
		v = sv[r * WPR + j];
		i = si[r * WPR + j];
		group_merge(&v, &i, WPR);
	}
#endif
	if (t == 0) {
		vmax[row] = v;
		imax[row] = i;
	}
}

/* One thread a row, left to right. */
extern "C" __global__ void argmax_naive(const float *a, float *vmax, int *imax, int rows)
{
	int row = blockIdx.x * blockDim.x + threadIdx.x;
	if (row >= rows)
		return;
	const float *p = a + (size_t)row * COLS;
	float v = p[0];
	int i = 0;
	for (int c = 1; c < COLS; c++) {
		if (p[c] > v) {
			v = p[c];
			i = c;
		}
	}
	vmax[row] = v;
	imax[row] = i;
}
