/* conv2d.cu — 2-D convolution with an FS x FS filter, in the style of Yang and
 * Zhou, "Code Optimizations for High Performance GPU Computing" (the
 * convolution case study: the filter in constant memory, shared-memory staging
 * for coalesced loads, thread block merge, thread merge):
 *
 *   C[y][x] = sum_{j < FS} sum_{i < FS} A[y + j][x + i] * F[j][i]
 *
 * for the W x H outputs; A is the input padded to (H + FS - 1) rows of AW
 * floats (AW >= W + FS - 1), so that no output needs a bounds check.  The
 * filter F lives in the constant array cF, copied there before the launch:
 * all threads of a warp read the same coefficient at once, a broadcast.
 *
 * Knobs (-D NAME=value; the defaults are the configuration the slides
 * describe):
 *
 *   BX     threads per block in x: block merge.  The threads of a block
 *          share the FS - 1 overlapping input columns of their neighbours
 *          when the input is staged.                              default 128
 *   BY     threads per block in y.                                default 1
 *   TY     outputs per thread in y: thread merge.  One input value, once
 *          loaded, serves the TY outputs of a column that need it.
 *                                                                  default 16
 *   SMEM   1: the block first copies its (BY TY + FS - 1) x (BX + FS - 1)
 *          input window into shared memory with coalesced loads, then
 *          computes from there; 0: every thread reads A from global memory
 *          (cached) where it needs it.                             default 1
 *
 * Launch: block (BX, BY), grid (W / BX, H / (BY * TY)).
 *
 * conv2d_naive is the reference: one thread per output, input and filter
 * straight from global memory, guarded against the edges.  Both kernels add
 * the FS * FS products of an output in the same order (j, then i), so they
 * round alike. */

#ifndef FS
#define FS 8
#endif
#ifndef BX
#define BX 128
#endif
#ifndef BY
#define BY 1
#endif
#ifndef TY
#define TY 16
#endif
#ifndef SMEM
#define SMEM 1
#endif

#if FS < 1 || BX < 1 || BY < 1 || TY < 1
#error "FS, BX, BY and TY must be positive"
#endif
#if SMEM != 0 && SMEM != 1
#error "SMEM must be 0 or 1"
#endif

/* input rows and columns one block needs */
#define WIN_H (BY * TY + FS - 1)
#define WIN_W (BX + FS - 1)

__constant__ float cF[FS * FS];

extern "C" __global__ void conv2d(const float *A, float *C, int W, int AW)
{
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int x = blockIdx.x * BX + tx;
	const int y0 = (blockIdx.y * BY + ty) * TY; /* this thread's first output row */

#if SMEM
	__shared__ float win[WIN_H][WIN_W];
	/* the block's window, row by row; consecutive threads read consecutive
	 * columns */
	const float *a0 = A + (size_t)blockIdx.y * BY * TY * AW + blockIdx.x * BX;
	for (int r = ty; r < WIN_H; r += BY)
		for (int c = tx; c < WIN_W; c += BX)
			win[r][c] = a0[(size_t)r * AW + c];
	__syncthreads();
#define IN(r, i) win[ty * TY + (r)][tx + (i)]
#else
	const float *a0 = A + (size_t)y0 * AW + x;
#define IN(r, i) a0[(size_t)(r) * AW + (i)]
#endif

	float acc[TY];
#pragma unroll
	for (int t = 0; t < TY; t++)
		acc[t] = 0.0f;

	/* output t needs input row t + j for filter row j.  All three loops
	 * unroll completely into straight-line code, where the compiler loads
	 * each input value once for the TY outputs that use it (thread merge);
	 * each output still adds its products in order of j, then i. */
#pragma unroll
	for (int j = 0; j < FS; j++) {
#pragma unroll
		for (int i = 0; i < FS; i++) {
			const float f = cF[j * FS + i];
#pragma unroll
			for (int t = 0; t < TY; t++)
				acc[t] += IN(t + j, i) * f;
		}
	}
#undef IN

	float *c = C + (size_t)y0 * W + x;
#pragma unroll
	for (int t = 0; t < TY; t++)
		c[(size_t)t * W] = acc[t];
}

extern "C" __global__ void conv2d_naive(const float *A, const float *F, float *C, int W, int H,
					int AW)
{
	const int x = blockIdx.x * blockDim.x + threadIdx.x;
	const int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= W || y >= H)
		return;
	float sum = 0.0f;
	for (int j = 0; j < FS; j++)
		for (int i = 0; i < FS; i++)
			sum += A[(size_t)(y + j) * AW + x + i] * F[j * FS + i];
	C[(size_t)y * W + x] = sum;
}
