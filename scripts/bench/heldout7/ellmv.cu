/* ellmv.cu: y = A x for a sparse matrix in column-major ELLPACK form (W
 * stored entries a row; entry w of row r at w * rows + r, so a warp's
 * lanes read adjacent rows), RPT rows a thread, the entry loop unrolled
 * UNROLL times, column indices as 32- or 16-bit integers, x read with
 * plain loads, through __ldg, or from a shared copy (held-out space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef W
#define W 32
#endif
#ifndef NCOL
#define NCOL 8192
#endif
#ifndef RPT
#define RPT 1
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef IDX
#define IDX 32
#endif
#ifndef XLD
#define XLD 1
#endif

/* `#pragma unroll UNROLL` needs the macro expanded inside the pragma. */
#define ELL_STR(a) #a
#define ELL_PRAGMA(a) _Pragma(ELL_STR(a))
#define ELL_UNROLL(n) ELL_PRAGMA(unroll n)

#if IDX == 32
#define COL(e) __ldg(&col32[e])
#else
#define COL(e) ((int)__ldg(&col16[e]))
#endif

#if XLD == 0
#define XV(c) x[c]
#elif XLD == 1
#define XV(c) __ldg(&x[c])
#else
#define XV(c) xs[c]
#endif

/* x and y carry no __restrict__: without it the compiler cannot prove x
 * read-only, so XLD 0 stays a plain load and only XLD 1 takes the
 * read-only path.  Both index arrays are passed; IDX picks the one read. */
extern "C" __global__ void ellmv(const float *__restrict__ val, const int *__restrict__ col32,
				 const unsigned short *__restrict__ col16, const float *x,
				 float *y, int rows)
{
#if XLD == 2
	/* All of x, once a block, with 16-byte loads. */
	__shared__ float4 xs4[NCOL / 4];
	for (int i = threadIdx.x; i < NCOL / 4; i += TPB)
		xs4[i] = __ldg((const float4 *)x + i);
	__syncthreads();
	const float *xs = (const float *)xs4;
#endif
	/* Rows TPB apart, so that each of the RPT loads of an entry is a
	 * warp's adjacent words. */
	int r0 = blockIdx.x * (TPB * RPT) + threadIdx.x;
	float acc[RPT];
#pragma unroll
	for (int j = 0; j < RPT; j++)
		acc[j] = 0.0f;
	ELL_UNROLL(UNROLL)
	for (int w = 0; w < W; w++) {
#pragma unroll
		for (int j = 0; j < RPT; j++) {
			size_t e = (size_t)w * rows + r0 + j * TPB;
			int c = COL(e);
			acc[j] = fmaf(__ldg(&val[e]), XV(c), acc[j]);
		}
	}
#pragma unroll
	for (int j = 0; j < RPT; j++)
		y[r0 + j * TPB] = acc[j];
}

/* One thread a row, the sum in double, 32-bit indices. */
extern "C" __global__ void ellmv_naive(const float *val, const int *col, const float *x, float *y,
				       int rows)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	double s = 0.0;
	for (int w = 0; w < W; w++) {
		size_t e = (size_t)w * rows + r;
		s += (double)val[e] * (double)x[col[e]];
	}
	y[r] = (float)s;
}
