/* q8gemv.cu: y = diag(scale) (W x) for an int8 matrix W and an int8 vector
 * x, int32 accumulation, TPR lanes a row, RPT rows a lane group, loads of
 * 1, 4 or 16 bytes (the wider ones summed by __dp4a), x staged in shared
 * memory or read through __ldg (held-out space). */
#ifndef TPR
#define TPR 32
#endif
#ifndef VEC
#define VEC 16
#endif
#ifndef RPT
#define RPT 1
#endif
#ifndef XS
#define XS 0
#endif

#define TPB 256			/* threads a block */
#define ROWS (TPB / TPR * RPT)	/* rows a block */

/* One load of VEC bytes, as the type __dp4a wants it. */
#if VEC == 1
typedef signed char vec_t;
#elif VEC == 4
typedef int vec_t;
#else
typedef int4 vec_t;
#endif

/* acc plus the dot product of two VEC-byte vectors.  Integer sums do not
 * depend on order, so every variant gives the reference's bits. */
static __device__ __forceinline__ int dot(vec_t w, vec_t v, int acc)
{
#if VEC == 1
	return acc + (int)w * (int)v;
#elif VEC == 4
	return __dp4a(w, v, acc);
#else
	acc = __dp4a(w.x, v.x, acc);
	acc = __dp4a(w.y, v.y, acc);
	acc = __dp4a(w.z, v.z, acc);
	return __dp4a(w.w, v.w, acc);
#endif
}

/* Lane l of a TPR-lane group reads vectors l, l + TPR, ... of its RPT
 * adjacent rows, so that the group's loads of one step are TPR * VEC
 * adjacent bytes of each row; the x vector of a step serves all RPT rows. */
extern "C" __global__ void q8gemv(const signed char *__restrict__ W, const signed char *__restrict__ x,
				  const float *__restrict__ scale, float *__restrict__ y, int k)
{
	int nv = k / VEC;
#if XS
	/* Staged with 16-byte loads whatever VEC is: k bytes a block. */
	extern __shared__ int4 xs4[];
	for (int e = threadIdx.x; e < k / 16; e += TPB)
		xs4[e] = __ldg((const int4 *)x + e);
	__syncthreads();
	const vec_t *xv = (const vec_t *)xs4;
#define XLOAD(e) xv[e]
#else
	const vec_t *xv = (const vec_t *)x;
#define XLOAD(e) __ldg(xv + (e))
#endif
	int lane = threadIdx.x % TPR;
	size_t r0 = (size_t)blockIdx.x * ROWS + threadIdx.x / TPR * RPT;
	const vec_t *wv = (const vec_t *)(W + r0 * k);
	int acc[RPT];
#pragma unroll
	for (int j = 0; j < RPT; j++)
		acc[j] = 0;
#pragma unroll 4
	for (int e = lane; e < nv; e += TPR) {
		vec_t v = XLOAD(e);
#pragma unroll
		for (int j = 0; j < RPT; j++)
			acc[j] = dot(wv[(size_t)j * nv + e], v, acc[j]);
	}
	/* A TPR-aligned group's lanes differ only in their low bits, so
	 * exchanges by xor below TPR stay inside the group. */
#pragma unroll
	for (int o = TPR / 2; o > 0; o >>= 1)
#pragma unroll
		for (int j = 0; j < RPT; j++)
			acc[j] += __shfl_xor_sync(0xffffffffu, acc[j], o);
	/* Every lane now holds the RPT sums; lane j stores row j. */
#pragma unroll
	for (int j = 0; j < RPT; j++)
		if (lane == j)
			y[r0 + j] = (float)acc[j] * scale[r0 + j];
}

/* One thread a row, byte by byte. */
extern "C" __global__ void q8gemv_naive(const signed char *W, const signed char *x, const float *scale,
					float *y, int m, int k)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= m)
		return;
	int acc = 0;
	for (int c = 0; c < k; c++)
		acc += (int)W[(size_t)r * k + c] * (int)x[c];
	y[r] = (float)acc * scale[r];
}
