/* life.cu: one generation of Conway's Game of Life on a bit-packed grid
 * with a dead border, cell by cell with a population count or 32 cells at
 * once with bit-sliced adders, neighbour words from global memory or a
 * shared-memory tile (held-out space). */
#ifndef ALG
#define ALG 1
#endif
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif
#ifndef WPT
#define WPT 4
#endif
#ifndef SMEM
#define SMEM 0
#endif

#define ROWS (BY * WPT)		/* rows of words a block writes */

/* Word x of row y, dead outside the grid: only border cells, whose next
 * state is dead whatever their neighbours, look past the edge. */
static __device__ __forceinline__ unsigned fetch(const unsigned *__restrict__ in, int x, int y,
						 int nw, int h)
{
	if (x < 0 || x >= nw || y < 0 || y >= h)
		return 0;
	return __ldg(&in[(size_t)y * nw + x]);
}

extern "C" __global__ void life(const unsigned *__restrict__ in, unsigned *__restrict__ out, int nw,
				int h)
{
	int x = blockIdx.x * BX + threadIdx.x;
	int y0 = blockIdx.y * ROWS + threadIdx.y * WPT;
	/* Row r of the thread's window is grid row y0 - 1 + r; column 0, 1, 2
	 * are words x - 1, x, x + 1. */
	unsigned wl[WPT + 2], wc[WPT + 2], wr[WPT + 2];
#if SMEM
	/* The block's words and a one-word halo all round, each read from
	 * global memory once instead of by up to nine threads. */
	__shared__ unsigned tile[ROWS + 2][BX + 2];
	int gx = blockIdx.x * BX - 1, gy = blockIdx.y * ROWS - 1;
	for (int r = threadIdx.y; r < ROWS + 2; r += BY)
		for (int c = threadIdx.x; c < BX + 2; c += BX)
			tile[r][c] = fetch(in, gx + c, gy + r, nw, h);
	__syncthreads();
	if (x >= nw || y0 >= h)
		return;
#pragma unroll
	for (int r = 0; r < WPT + 2; r++) {
		wl[r] = tile[threadIdx.y * WPT + r][threadIdx.x];
		wc[r] = tile[threadIdx.y * WPT + r][threadIdx.x + 1];
		wr[r] = tile[threadIdx.y * WPT + r][threadIdx.x + 2];
	}
#else
	if (x >= nw || y0 >= h)
		return;
	/* Each row read once for the WPT rows that need it; the side words
	 * are the neighbours' centre words, found in L1. */
#pragma unroll
	for (int r = 0; r < WPT + 2; r++) {
		wl[r] = fetch(in, x - 1, y0 - 1 + r, nw, h);
		wc[r] = fetch(in, x, y0 - 1 + r, nw, h);
		wr[r] = fetch(in, x + 1, y0 - 1 + r, nw, h);
	}
#endif

#if ALG == 0
	/* Bit j of win[r] is cell j - 1 of the centre word, so the three
	 * cells around cell b are (win >> b) & 7: nine bits a cell, one
	 * population count. */
	unsigned long long win[WPT + 2];
#pragma unroll
	for (int r = 0; r < WPT + 2; r++)
		win[r] = ((unsigned long long)wr[r] << 33) | ((unsigned long long)wc[r] << 1) | (wl[r] >> 31);
#else
	/* Per row, the 2-bit sum of each cell's west, own and east bits
	 * (lo, hi), computed once and shared by the up to three output rows
	 * that use it. */
	unsigned lo[WPT + 2], hi[WPT + 2];
#pragma unroll
	for (int r = 0; r < WPT + 2; r++) {
		unsigned w = (wc[r] << 1) | (wl[r] >> 31);
		unsigned e = (wc[r] >> 1) | (wr[r] << 31);
		lo[r] = w ^ wc[r] ^ e;
		hi[r] = (w & wc[r]) | (e & (w | wc[r]));
	}
#endif

#pragma unroll
	for (int j = 0; j < WPT; j++) {
		int y = y0 + j;
		if (y >= h)
			break;
		unsigned alive = wc[j + 1], next = 0;
#if ALG == 0
#pragma unroll
		for (int b = 0; b < 32; b++) {
			unsigned n = __popc(((unsigned)(win[j] >> b) & 7u) |
					    (((unsigned)(win[j + 1] >> b) & 5u) << 3) |
					    (((unsigned)(win[j + 2] >> b) & 7u) << 6));
			unsigned a = (alive >> b) & 1u;
			next |= (unsigned)(n == 3 || (n == 2 && a)) << b;
		}
#else
		/* T, the nine cells' total (the cell itself included), is 3 for a
		 * birth or survival and 4 for survival only.  Its low bit is t0;
		 * q, the number of twos, must be 1 (T = 3) or 2 (T = 4). */
		unsigned a0 = lo[j], b0 = lo[j + 1], c0 = lo[j + 2];
		unsigned t0 = a0 ^ b0 ^ c0;
		unsigned k = (a0 & b0) | (c0 & (a0 | b0));
		unsigned p = hi[j] ^ hi[j + 1], pp = hi[j] & hi[j + 1];
		unsigned s = hi[j + 2] ^ k, ss = hi[j + 2] & k;
		unsigned q1 = (p ^ s) & ~(pp | ss);
		unsigned q2 = (p & s) | (~(p | s) & (pp ^ ss));
		next = (t0 & q1) | (~t0 & q2 & alive);
#endif
		if (x == 0)
			next &= ~1u;
		if (x == nw - 1)
			next &= ~0x80000000u;
		if (y == 0 || y == h - 1)
			next = 0;
		out[(size_t)y * nw + x] = next;
	}
}

static __device__ int cell(const unsigned *in, int cx, int cy, int nw, int h)
{
	if (cx < 0 || cx >= 32 * nw || cy < 0 || cy >= h)
		return 0;
	return (in[(size_t)cy * nw + cx / 32] >> (cx % 32)) & 1;
}

/* One thread a word, each cell's eight neighbours read one at a time. */
extern "C" __global__ void life_naive(const unsigned *in, unsigned *out, int nw, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= nw || y >= h)
		return;
	unsigned next = 0;
	for (int b = 0; b < 32; b++) {
		int cx = 32 * x + b;
		if (cx == 0 || cx == 32 * nw - 1 || y == 0 || y == h - 1)
			continue;
		int n = 0;
		for (int dy = -1; dy <= 1; dy++)
			for (int dx = -1; dx <= 1; dx++)
				if (dx || dy)
					n += cell(in, cx + dx, y + dy, nw, h);
		int a = cell(in, cx, y, nw, h);
		if (n == 3 || (n == 2 && a))
			next |= 1u << b;
	}
	out[(size_t)y * nw + x] = next;
}
