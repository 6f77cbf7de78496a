/* convbig.cu — 2-D convolution with a compile-time FS x FS filter (15 x 15 in
 * convbig.space) in constant memory, written so that nearly every
 * configuration of its space is a variant of its own and every variant costs
 * NVRTC seconds: the loops over the filter taps and over a thread's outputs
 * are unrolled (completely, or the outer one by UNR), so a variant is up to
 * FS * FS * OX * OY multiply-adds of straight-line code.
 *
 *   C[y][x] = sum_{j < FS} sum_{i < FS} A[y + j][x + i] * F[j][i]
 *
 * for W x H outputs; A is the input padded to H + FS - 1 rows of AW floats
 * (AW >= W + FS - 1), so no output needs a bounds check.
 *
 * Knobs (-D NAME=value):
 *
 *   FS      filter width and height                                  15
 *   BX, BY  threads per block in x and y                          32, 4
 *   OX, OY  outputs per thread in x and y                          2, 2
 *   SMEM    1: the block stages its input window in shared memory;
 *           0: every tap is read from global memory (read-only path)  1
 *   PAD     extra columns of the shared window (bank conflicts)       0
 *   ROWREG  0: a thread's outputs are BX (BY) apart, every tap read
 *           where it lies; 1: its outputs are adjacent and each window
 *           row is read into registers once, shared by every output
 *           and tap that needs it                                     0
 *   UNR     unroll factor of the outer loop (filter rows, or window
 *           rows with ROWREG); 0 unrolls it completely                0
 *
 * Launch: block (BX, BY), grid (W / (BX*OX), H / (BY*OY)).
 *
 * Every variant adds an output's products filter row by filter row, each
 * row's columns in order, as the reference convbig_naive does, so results
 * differ only by contraction into fused multiply-adds. */

#ifndef FS
#define FS 15
#endif
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 4
#endif
#ifndef OX
#define OX 2
#endif
#ifndef OY
#define OY 2
#endif
#ifndef SMEM
#define SMEM 1
#endif
#ifndef PAD
#define PAD 0
#endif
#ifndef ROWREG
#define ROWREG 0
#endif
#ifndef UNR
#define UNR 0
#endif

#define CB_STR(x) #x
#define CB_PRAGMA(x) _Pragma(CB_STR(x))
#if UNR == 0
#define CB_OUTER_UNROLL CB_PRAGMA(unroll)
#else
#define CB_OUTER_UNROLL CB_PRAGMA(unroll UNR)
#endif

/* the block's input window: tile rows and columns plus the filter's halo */
#define CB_WIN_H (BY * OY + FS - 1)
#define CB_WIN_W (BX * OX + FS - 1)

__constant__ float cF[FS * FS];

#if SMEM
/* (r, c) relative to the block's window */
#define CB_IN(r, c) win[r][c]
#else
#define CB_IN(r, c) __ldg(a0 + (size_t)(r) * AW + (c))
#endif

extern "C" __global__ void convbig(const float *__restrict__ A, float *__restrict__ C, int W, int AW)
{
	const int tx = threadIdx.x, ty = threadIdx.y;
	const float *a0 = A + (size_t)blockIdx.y * (BY * OY) * AW + (size_t)blockIdx.x * (BX * OX);
#if SMEM
	__shared__ float win[CB_WIN_H][CB_WIN_W + PAD];
	for (int r = ty; r < CB_WIN_H; r += BY)
		for (int c = tx; c < CB_WIN_W; c += BX)
			win[r][c] = a0[(size_t)r * AW + c];
	__syncthreads();
#endif

	float acc[OY][OX];
#pragma unroll
	for (int j = 0; j < OY; j++)
#pragma unroll
		for (int i = 0; i < OX; i++)
			acc[j][i] = 0.0f;

#if ROWREG
	/* outputs (ty*OY + j, tx*OX + i); window row r feeds output row j
	 * through filter row r - j, and r increasing keeps the reference's
	 * order of additions */
	const int y0 = ty * OY, x0 = tx * OX;
	CB_OUTER_UNROLL
	for (int r = 0; r < OY + FS - 1; r++) {
		float row[OX + FS - 1];
#pragma unroll
		for (int c = 0; c < OX + FS - 1; c++)
			row[c] = CB_IN(y0 + r, x0 + c);
#pragma unroll
		for (int j = 0; j < OY; j++) {
			const int fj = r - j;
			if (fj >= 0 && fj < FS) {
#pragma unroll
				for (int fi = 0; fi < FS; fi++) {
					const float f = cF[fj * FS + fi];
#pragma unroll
					for (int i = 0; i < OX; i++)
						acc[j][i] += row[i + fi] * f;
				}
			}
		}
	}
#else
	/* outputs (ty + j*BY, tx + i*BX): neighbouring threads read
	 * neighbouring words, and the block's stores are coalesced */
	CB_OUTER_UNROLL
	for (int fj = 0; fj < FS; fj++) {
#pragma unroll
		for (int fi = 0; fi < FS; fi++) {
			const float f = cF[fj * FS + fi];
#pragma unroll
			for (int j = 0; j < OY; j++)
#pragma unroll
				for (int i = 0; i < OX; i++)
					acc[j][i] += CB_IN(ty + j * BY + fj, tx + i * BX + fi) * f;
		}
	}
#endif

	float *c0 = C + (size_t)blockIdx.y * (BY * OY) * W + (size_t)blockIdx.x * (BX * OX);
#pragma unroll
	for (int j = 0; j < OY; j++)
#pragma unroll
		for (int i = 0; i < OX; i++) {
#if ROWREG
			c0[(size_t)(ty * OY + j) * W + tx * OX + i] = acc[j][i];
#else
			c0[(size_t)(ty + j * BY) * W + tx + i * BX] = acc[j][i];
#endif
		}
}

/* The reference: one thread per output, input and filter from global
 * memory, guarded at the edges. */
extern "C" __global__ void convbig_naive(const float *A, const float *F, float *C, int W, int H, int AW)
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
