/* convheavy.cu — 2-D convolution with a large FS x FS filter (15 x 15 in
 * scripts/bench/spaces/convheavy.space), written to be expensive to compile:
 * every thread computes a TY x TX tile of outputs, and all loops over the
 * filter and the tile are unrolled completely, so one variant is
 * FS * FS * TX * TY multiply-adds of straight-line code (14,400 for an 8 x 8
 * tile).  Its space is a benchmark of the compile pipeline as much as of the
 * GPU.
 *
 *   C[y][x] = sum_{j < FS} sum_{i < FS} A[y + j][x + i] * F[j][i]
 *
 * for the W x H outputs; A is the input padded to (H + FS - 1) rows of AW
 * floats (AW >= W + FS - 1), so that no output needs a bounds check.  The
 * filter lives in the constant array cF, copied there before each launch.
 *
 * Knobs (-D NAME=value):
 *
 *   FS     filter width and height.                             default 15
 *   BX     threads per block in x.                               default 16
 *   BY     threads per block in y.                               default 8
 *   TX     outputs per thread in x, adjacent columns.            default 4
 *   TY     outputs per thread in y, adjacent rows.               default 4
 *
 * A block first copies its (BY*TY + FS - 1) x (BX*TX + FS - 1) window of
 * the input into shared memory with coalesced loads.  Then each thread walks
 * the TY + FS - 1 window rows its tile needs: it reads the TX + FS - 1 values
 * of a row into registers once and uses each for every output of its tile and
 * every filter tap that needs it (register blocking: TX and TY trade loads
 * from shared memory for registers).  Columns of a thread's tile are adjacent,
 * so shared-memory reads of a warp are TX words apart, with bank conflicts
 * for even TX: one of the trade-offs the space measures.
 *
 * Launch: block (BX, BY), grid (W / (BX*TX), H / (BY*TY)); W and H must be
 * multiples of the block's footprint (the space requires it).
 *
 * convheavy_naive is the reference: one thread per output, input and filter
 * straight from global memory, guarded against the edges.  Both kernels add
 * the FS * FS products of an output in the same order (filter row, then
 * column), so they round alike. */

#ifndef FS
#define FS 15
#endif
#ifndef BX
#define BX 16
#endif
#ifndef BY
#define BY 8
#endif
#ifndef TX
#define TX 4
#endif
#ifndef TY
#define TY 4
#endif

#if FS < 1 || BX < 1 || BY < 1 || TX < 1 || TY < 1
#error "FS, BX, BY, TX and TY must be positive"
#endif
#if TY + FS - 1 > 24
#error "TY + FS - 1 must be at most 24: CH_REP24 writes out 24 window rows"
#endif

/* the block's input window, and the part of a window row one thread reads */
#define CH_WIN_H (BY * TY + FS - 1)
#define CH_WIN_W (BX * TX + FS - 1)
#define CH_ROW (TX + FS - 1)

__constant__ float cF[FS * FS];

/* One window row R: its TX + FS - 1 values of this thread's columns are read
 * into registers once and used by every output and filter tap that needs
 * them.  R is a constant, so every index below is one after unrolling. */
#define CH_WINDOW_ROW(R)                                                          \
	if ((R) < TY + FS - 1) {                                                  \
		float row[CH_ROW];                                                \
		_Pragma("unroll") for (int c = 0; c < CH_ROW; c++)                \
			row[c] = win[ty * TY + (R)][tx * TX + c];                 \
		_Pragma("unroll") for (int j = 0; j < TY; j++) {                  \
			const int fj = (R) - j;                                   \
			if (fj >= 0 && fj < FS) {                                 \
				_Pragma("unroll") for (int fi = 0; fi < FS; fi++) { \
					const float f = cF[fj * FS + fi];         \
					_Pragma("unroll") for (int i = 0; i < TX; i++) \
						acc[j][i] += row[i + fi] * f;     \
				}                                                 \
			}                                                         \
		}                                                                 \
	}
#define CH_REP8(M, o) M(o + 0) M(o + 1) M(o + 2) M(o + 3) M(o + 4) M(o + 5) M(o + 6) M(o + 7)
#define CH_REP24(M) CH_REP8(M, 0) CH_REP8(M, 8) CH_REP8(M, 16)

extern "C" __global__ void convheavy(const float *A, float *C, int W, int AW)
{
	__shared__ float win[CH_WIN_H][CH_WIN_W];
	const int tx = threadIdx.x, ty = threadIdx.y;

	const float *a0 = A + (size_t)blockIdx.y * (BY * TY) * AW + (size_t)blockIdx.x * (BX * TX);
	for (int r = ty; r < CH_WIN_H; r += BY)
		for (int c = tx; c < CH_WIN_W; c += BX)
			win[r][c] = a0[(size_t)r * AW + c];
	__syncthreads();

	float acc[TY][TX];
#pragma unroll
	for (int j = 0; j < TY; j++)
#pragma unroll
		for (int i = 0; i < TX; i++)
			acc[j][i] = 0.0f;

	/* Window row R of this thread's tile feeds output row j through filter
	 * row R - j.  Taking R in increasing order adds each output's products
	 * filter row by filter row, each row's columns in order: the order of
	 * the reference.  The loop over R is written out by the preprocessor:
	 * NVRTC stops unrolling a `#pragma unroll` loop whose body exceeds its
	 * size threshold, and that would leave the biggest tiles partly rolled. */
	CH_REP24(CH_WINDOW_ROW)

	float *c = C + (size_t)(blockIdx.y * (BY * TY) + ty * TY) * W + blockIdx.x * (BX * TX) + tx * TX;
#pragma unroll
	for (int j = 0; j < TY; j++)
#pragma unroll
		for (int i = 0; i < TX; i++)
			c[(size_t)j * W + i] = acc[j][i];
}

extern "C" __global__ void convheavy_naive(const float *A, const float *F, float *C, int W, int H,
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
