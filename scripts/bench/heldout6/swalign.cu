/* swalign.cu: Smith-Waterman local-alignment scores (linear gap) of many
 * pairs of 32-letter DNA sequences, one pair a thread, the dynamic
 * programme's row in registers, local memory or shared memory, the letters
 * a byte or two bits each, stored pair after pair or interleaved across
 * pairs (held-out space). */
#ifndef TPB
#define TPB 128
#endif
#ifndef LAYOUT
#define LAYOUT 0
#endif
#ifndef PACK
#define PACK 0
#endif
#ifndef ROW
#define ROW 0
#endif

#define LEN 32			/* letters a sequence: the space's L */
#define GAP 2			/* penalty a gap letter */
/* Substitution scores plus 8, four bits each, entry 4a + b (A C G T):
 *    A  C  G  T
 * A  3 -3 -1 -3
 * C -3  4 -3 -1
 * G -1 -3  4 -3
 * T -3 -1 -3  3 */
#define SUBST 0xB5755C5775C5575BULL

#if PACK
#define BITS 2			/* a letter's bits */
#else
#define BITS 8
#endif
#define LPW (32 / BITS)		/* letters a word */
#define WPS (LEN / LPW)		/* words a sequence */
#define MASK ((1u << BITS) - 1)

#define SW_STR(x) #x
#define SW_PRAGMA(x) _Pragma(SW_STR(x))
#if ROW == 0
#define INNER_UNROLL SW_PRAGMA(unroll)
#else
#define INNER_UNROLL SW_PRAGMA(unroll 1)
#endif

/* The space fills four formats of the same letters and a configuration
 * reads one: c8 and c2 pair after pair (a pair's WPS words of A, then WPS
 * of B), i8 and i2 interleaved (word w of pair p at w * np + p, so a warp's
 * loads of one word are adjacent).  Letter k of a word is its bits
 * [BITS k, BITS (k + 1)).
 *
 * H[i][j] = max(0, H[i-1][j-1] + S(a_i, b_j), H[i-1][j] - GAP,
 * H[i][j-1] - GAP), row by row; the row H[i-1][1..LEN] lives in h (ROW 0:
 * registers, the column loop unrolled; ROW 1: the same array indexed by a
 * loop counter, so local memory) or in the block's shared memory (ROW 2,
 * column j of thread t at hs[j][t], a warp's accesses in 32 banks).  The
 * loops over a word's letters shift the word rather than index an array
 * of words, so only the row leaves registers. */
extern "C" __global__ void swalign(const unsigned *__restrict__ c8, const unsigned *__restrict__ i8,
				   const unsigned *__restrict__ c2, const unsigned *__restrict__ i2,
				   int *__restrict__ best, int np)
{
	int p = blockIdx.x * TPB + threadIdx.x;
	unsigned w[2 * WPS];	/* A's words, then B's */
#if LAYOUT == 0
	const uint4 *src = (const uint4 *)((PACK ? c2 : c8) + (size_t)p * 2 * WPS);
#pragma unroll
	for (int v = 0; v < WPS / 2; v++) {
		uint4 x = src[v];
		w[4 * v] = x.x;
		w[4 * v + 1] = x.y;
		w[4 * v + 2] = x.z;
		w[4 * v + 3] = x.w;
	}
#else
	const unsigned *src = (PACK ? i2 : i8) + p;
#pragma unroll
	for (int v = 0; v < 2 * WPS; v++)
		w[v] = src[(size_t)v * np];
#endif
#if ROW == 2
	__shared__ int hs[LEN][TPB];
#define H(j) hs[j][threadIdx.x]
#else
	int h[LEN];
#define H(j) h[j]
#endif
#pragma unroll
	for (int j = 0; j < LEN; j++)
		H(j) = 0;
	int top = 0;
#pragma unroll
	for (int wa = 0; wa < WPS; wa++) {
		unsigned xa = w[wa];
#pragma unroll 1
		for (int ka = 0; ka < LPW; ka++, xa >>= BITS) {
			/* a_i's scores against A, C, G, T, four bits each */
			unsigned row = (unsigned)(SUBST >> (16 * (xa & MASK)));
			int diag = 0, left = 0;
#pragma unroll
			for (int wb = 0; wb < WPS; wb++) {
				unsigned xb = w[WPS + wb];
				INNER_UNROLL
				for (int kb = 0; kb < LPW; kb++, xb >>= BITS) {
					int j = wb * LPW + kb;
					int s = (int)((row >> (4 * (xb & MASK))) & 15) - 8;
					int up = H(j);
					int v = max(max(diag + s, 0), max(up, left) - GAP);
					diag = up;
					H(j) = v;
					left = v;
					top = max(top, v);
				}
			}
		}
	}
	best[p] = top;
}

/* One thread a pair, the whole (LEN + 1)^2 matrix in local memory, the
 * letters byte by byte from the pair-after-pair byte format. */
extern "C" __global__ void swalign_naive(const unsigned char *c8, int *best, int np)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= np)
		return;
	const int S[4][4] = { { 3, -3, -1, -3 }, { -3, 4, -3, -1 }, { -1, -3, 4, -3 }, { -3, -1, -3, 3 } };
	const unsigned char *a = c8 + (size_t)p * 2 * LEN, *b = a + LEN;
	int H[LEN + 1][LEN + 1];
	int top = 0;
	for (int j = 0; j <= LEN; j++)
		H[0][j] = 0;
	for (int i = 1; i <= LEN; i++) {
		H[i][0] = 0;
		for (int j = 1; j <= LEN; j++) {
			int v = H[i - 1][j - 1] + S[a[i - 1]][b[j - 1]];
			if (H[i - 1][j] - GAP > v)
				v = H[i - 1][j] - GAP;
			if (H[i][j - 1] - GAP > v)
				v = H[i][j - 1] - GAP;
			if (v < 0)
				v = 0;
			H[i][j] = v;
			if (v > top)
				top = v;
		}
	}
	best[p] = top;
}
