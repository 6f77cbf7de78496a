/* hamming.cu: all-pairs Hamming distances between two sets of 256-bit
 * binary codes, a register tile of QPT queries by DPT database codes a
 * thread, the codes read from global memory or staged in shared memory
 * (held-out space). */
#ifndef BY
#define BY 8
#endif
#ifndef QPT
#define QPT 1
#endif
#ifndef DPT
#define DPT 1
#endif
#ifndef SMEM
#define SMEM 0
#endif

#define WORDS 8			/* 32-bit words a code */
#define BQ (BY * QPT)		/* queries a block */
#define BD (32 * DPT)		/* database codes a block */

/* Thread (x, y) of block (bx, by) owns queries by * BQ + y + i * BY
 * (i < QPT) and database codes bx * BD + x + j * 32 (j < DPT).  Every
 * variant sums the same eight popcounts, and integer sums do not depend
 * on order. */
extern "C" __global__ void hamming(const unsigned *__restrict__ qc, const unsigned *__restrict__ dc,
				   unsigned short *__restrict__ dist, int nd)
{
	int x = threadIdx.x, y = threadIdx.y;
	size_t q0 = (size_t)blockIdx.y * BQ;
	size_t d0 = (size_t)blockIdx.x * BD;
	unsigned qw[QPT][WORDS], dw[DPT][WORDS];
#if SMEM
	/* Database words word-major: word w of the block's code c at
	 * sd[w][c], so lane x's reads of one word hit bank x. */
	__shared__ unsigned sd[WORDS][BD];
	__shared__ unsigned sq[BQ][WORDS];
	for (int e = y * 32 + x; e < BD * WORDS; e += 32 * BY) {
		int c = e / WORDS, w = e % WORDS;
		sd[w][c] = dc[d0 * WORDS + e];
	}
	for (int e = y * 32 + x; e < BQ * WORDS; e += 32 * BY)
		sq[e / WORDS][e % WORDS] = qc[q0 * WORDS + e];
	__syncthreads();
#pragma unroll
	for (int i = 0; i < QPT; i++)
#pragma unroll
		for (int w = 0; w < WORDS; w++)
			qw[i][w] = sq[y + i * BY][w];
#pragma unroll
	for (int j = 0; j < DPT; j++)
#pragma unroll
		for (int w = 0; w < WORDS; w++)
			dw[j][w] = sd[w][x + j * 32];
#else
#pragma unroll
	for (int i = 0; i < QPT; i++) {
		const uint4 *p = (const uint4 *)(qc + (q0 + y + i * BY) * WORDS);
		uint4 a = p[0], b = p[1];
		qw[i][0] = a.x; qw[i][1] = a.y; qw[i][2] = a.z; qw[i][3] = a.w;
		qw[i][4] = b.x; qw[i][5] = b.y; qw[i][6] = b.z; qw[i][7] = b.w;
	}
#pragma unroll
	for (int j = 0; j < DPT; j++) {
		const uint4 *p = (const uint4 *)(dc + (d0 + x + j * 32) * WORDS);
		uint4 a = p[0], b = p[1];
		dw[j][0] = a.x; dw[j][1] = a.y; dw[j][2] = a.z; dw[j][3] = a.w;
		dw[j][4] = b.x; dw[j][5] = b.y; dw[j][6] = b.z; dw[j][7] = b.w;
	}
#endif
#pragma unroll
	for (int i = 0; i < QPT; i++) {
		size_t row = (q0 + y + i * BY) * (size_t)nd + d0 + x;
#pragma unroll
		for (int j = 0; j < DPT; j++) {
			int s = 0;
#pragma unroll
			for (int w = 0; w < WORDS; w++)
				s += __popc(qw[i][w] ^ dw[j][w]);
			dist[row + j * 32] = (unsigned short)s;
		}
	}
}

/* One thread a distance, word by word from global memory. */
extern "C" __global__ void hamming_naive(const unsigned *qc, const unsigned *dc, unsigned short *dist,
					 int nq, int nd)
{
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= (size_t)nq * nd)
		return;
	size_t q = t / nd, d = t % nd;
	int s = 0;
	for (int w = 0; w < WORDS; w++)
		s += __popc(qc[q * WORDS + w] ^ dc[d * WORDS + w]);
	dist[t] = (unsigned short)s;
}
