/* sad.cu — sums of absolute differences for motion estimation, the SAD kernel
 * of Ryoo et al., "Program Optimization Study on a 128-Core GPU" (Sec. IV-C)
 * and "Optimization Principles and Application Performance Evaluation of a
 * Multithreaded GPU Using CUDA" (PPoPP 2008), as in the Parboil SAD benchmark:
 * for every 4x4-pixel block of the current frame and every displacement
 * (dx, dy) of a search window of +-R pixels, the sum over the 16 pixels of
 * |cur - ref| against the reference frame displaced by (dx, dy).
 *
 * Frames are 8-bit, W x H pixels (QCIF: 176 x 144), NF pairs of them; R is
 * the search range, given as SEARCH_R (default 16, a 32-pixel window).  The
 * reference frame of each pair is stored padded by R pixels on every side,
 * (W + 2R) x (H + 2R), so that no displacement needs a bounds check (the
 * original kernel read it through a clamping texture).  The output holds,
 * for each frame, 4x4 block (row-major) and displacement, one 16-bit SAD:
 *
 *   sads[((f * (H/4) + by) * (W/4) + bx) * NPOS + p],   p = (dy + R) * SD + (dx + R)
 *
 * with SD = 2R + 1 displacements per axis and NPOS = SD * SD.
 *
 * The six knobs of the paper (-D NAME=value; the defaults are the authors'
 * hand-picked kernel):
 *
 *   SPT     SADs (displacements) computed by one thread.  A 4x4 block needs
 *           TPM = ceil(NPOS / SPT) threads; the last one's surplus
 *           displacements are computed on a clamped position and not
 *           stored.                                               default 27
 *   TILE_W  4x4 blocks per thread block in x                      default 2
 *   TILE_H  4x4 blocks per thread block in y                      default 3
 *           A thread block has TPM * TILE_W * TILE_H threads and stages its
 *           (4 TILE_W) x (4 TILE_H) pixels of the current frame in shared
 *           memory.
 *   U_POS   unroll-and-jam factor of the outer loop, over a thread's SPT
 *           displacements: U_POS SADs accumulate side by side, sharing each
 *           current-frame pixel; must divide SPT.                 default 3
 *   U_Y     unroll factor of the middle loop, over the 4 rows    default 1
 *   U_X     unroll factor of the inner loop, over the 4 columns  default 4
 *
 * Launch: block TPM * TILE_W * TILE_H, grid (W/4/TILE_W, H/4/TILE_H, NF).
 *
 * sad_naive is the reference: one thread per (frame, block, displacement),
 * any 1-D block shape, guarded against the end.  SADs are integers, so every
 * variant must match it exactly. */

#ifndef SEARCH_R
#define SEARCH_R 16
#endif
#ifndef SPT
#define SPT 27
#endif
#ifndef TILE_W
#define TILE_W 2
#endif
#ifndef TILE_H
#define TILE_H 3
#endif
#ifndef U_POS
#define U_POS 3
#endif
#ifndef U_Y
#define U_Y 1
#endif
#ifndef U_X
#define U_X 4
#endif

#define R SEARCH_R
#define SD (2 * R + 1)
#define NPOS (SD * SD)
#define TPM ((NPOS + SPT - 1) / SPT)

#if SPT < 1 || TILE_W < 1 || TILE_H < 1 || U_POS < 1 || U_Y < 1 || U_X < 1
#error "SPT, TILE_W, TILE_H and the unroll factors must be positive"
#endif
#if SPT % U_POS != 0
#error "U_POS must divide SPT"
#endif
#if 4 % U_Y != 0 || 4 % U_X != 0
#error "U_Y and U_X must divide 4"
#endif

#define SAD_STR(x) #x
#define SAD_PRAGMA(x) _Pragma(SAD_STR(x))
#define SAD_UNROLL(n) SAD_PRAGMA(unroll n)

extern "C" __global__ void sad(const unsigned char *__restrict__ cur,
			       const unsigned char *__restrict__ ref, unsigned short *sads, int W,
			       int H)
{
	__shared__ unsigned char tile[4 * TILE_H][4 * TILE_W];

	const int RW = W + 2 * R;
	const int f = blockIdx.z;
	const int tid = threadIdx.x;

	/* the thread block's pixels of the current frame, once */
	const unsigned char *c0 = cur + ((size_t)f * H + blockIdx.y * 4 * TILE_H) * W +
				  blockIdx.x * 4 * TILE_W;
	for (int i = tid; i < 16 * TILE_W * TILE_H; i += blockDim.x) {
		const int r = i / (4 * TILE_W), c = i % (4 * TILE_W);
		tile[r][c] = c0[r * W + c];
	}
	__syncthreads();

	const int blk = tid / TPM;        /* this thread's 4x4 block within the tile */
	const int lx = blk % TILE_W, ly = blk / TILE_W;
	const int bx = blockIdx.x * TILE_W + lx, by = blockIdx.y * TILE_H + ly;
	const int p0 = (tid % TPM) * SPT; /* its first displacement */

	/* displacement (0, 0) of the padded reference is (R, R): ref pixel of
	 * block row y, column x at displacement index p is at
	 * rb + (p / SD + y) * RW + p % SD + x */
	const unsigned char *rb =
		ref + ((size_t)f * (H + 2 * R) + 4 * by) * RW + 4 * bx;
	unsigned short *out = sads + ((size_t)(f * (H / 4) + by) * (W / 4) + bx) * NPOS;

#pragma unroll 1
	for (int q = 0; q < SPT; q += U_POS) {
		const unsigned char *rp[U_POS];
		unsigned int s[U_POS];
#pragma unroll
		for (int j = 0; j < U_POS; j++) {
			const int p = min(p0 + q + j, NPOS - 1);
			rp[j] = rb + (p / SD) * RW + p % SD;
			s[j] = 0;
		}
		SAD_UNROLL(U_Y)
		for (int y = 0; y < 4; y++) {
			SAD_UNROLL(U_X)
			for (int x = 0; x < 4; x++) {
				const int c = tile[4 * ly + y][4 * lx + x];
#pragma unroll
				for (int j = 0; j < U_POS; j++)
					s[j] += abs(c - (int)rp[j][y * RW + x]);
			}
		}
#pragma unroll
		for (int j = 0; j < U_POS; j++)
			if (p0 + q + j < NPOS)
				out[p0 + q + j] = (unsigned short)s[j];
	}
}

extern "C" __global__ void sad_naive(const unsigned char *cur, const unsigned char *ref,
				     unsigned short *sads, int W, int H, int NF)
{
	const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	const int bw = W / 4, bh = H / 4;
	if (i >= (long long)NF * bw * bh * NPOS)
		return;
	const int p = (int)(i % NPOS);
	const int blk = (int)(i / NPOS);
	const int bx = blk % bw, by = (blk / bw) % bh, f = blk / (bw * bh);
	const int RW = W + 2 * R;
	const int dy = p / SD - R, dx = p % SD - R;
	unsigned int s = 0;
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 4; x++) {
			const int cy = 4 * by + y, cx = 4 * bx + x;
			const int c = cur[((size_t)f * H + cy) * W + cx];
			const int r =
				ref[((size_t)f * (H + 2 * R) + cy + dy + R) * RW + cx + dx + R];
			s += abs(c - r);
		}
	sads[i] = (unsigned short)s;
}
