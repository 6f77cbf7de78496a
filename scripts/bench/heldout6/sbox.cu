/* sbox.cu: a T-table style substitution-permutation transform of 16-byte
 * blocks, its four lookup tables in global, constant or (replicated)
 * shared memory (held-out space). */
#ifndef NR
#define NR 8
#endif
#ifndef TPB
#define TPB 256
#endif
#ifndef BPT
#define BPT 1
#endif
#ifndef MEM
#define MEM 2
#endif
#ifndef REP
#define REP 1
#endif

/* Filled by the launch's copy whatever MEM is; read only where MEM is 1. */
__constant__ unsigned ctab[1024];

#if MEM == 0
#define LOOK(t, x) __ldg(&tab[(t) * 256 + (x)])
#elif MEM == 1
#define LOOK(t, x) ctab[(t) * 256 + (x)]
#else
#define LOOK(t, x) st[((t) * 256 + (x)) * REP + rc]
#endif

/* One round's word j: the byte selection every variant and the reference
 * share, so that all compute the same bits. */
#define WORD(a, b, c, d, k) \
	(LOOK(0, (a) & 255) ^ LOOK(1, ((b) >> 8) & 255) ^ LOOK(2, ((d) >> 16) & 255) ^ LOOK(3, (c) >> 24) ^ (k))

extern "C" __global__ void sbox(const uint4 *__restrict__ src, const unsigned *__restrict__ rk,
				const unsigned *__restrict__ tab, uint4 *__restrict__ dst)
{
	size_t b0 = (size_t)blockIdx.x * (TPB * BPT) + threadIdx.x;
#if MEM == 2
	/* Copy c of entry e at e * REP + c: lanes reading different copies
	 * fall in different banks whatever their indices. */
	__shared__ unsigned st[1024 * REP];
	for (int e = threadIdx.x; e < 1024 * REP; e += TPB)
		st[e] = tab[e / REP];
	__syncthreads();
	int rc = threadIdx.x % REP;
#endif
	unsigned s[BPT][4];
#pragma unroll
	for (int j = 0; j < BPT; j++) {
		uint4 v = src[b0 + j * TPB];
		s[j][0] = v.x ^ rk[0];
		s[j][1] = v.y ^ rk[1];
		s[j][2] = v.z ^ rk[2];
		s[j][3] = v.w ^ rk[3];
	}
#pragma unroll
	for (int r = 1; r <= NR; r++) {
		unsigned k0 = rk[4 * r], k1 = rk[4 * r + 1], k2 = rk[4 * r + 2], k3 = rk[4 * r + 3];
#pragma unroll
		for (int j = 0; j < BPT; j++) {
			unsigned a = s[j][0], b = s[j][1], c = s[j][2], d = s[j][3];
			s[j][0] = WORD(a, b, c, d, k0);
			s[j][1] = WORD(b, c, d, a, k1);
			s[j][2] = WORD(c, d, a, b, k2);
			s[j][3] = WORD(d, a, b, c, k3);
		}
	}
#pragma unroll
	for (int j = 0; j < BPT; j++)
		dst[b0 + j * TPB] = make_uint4(s[j][0], s[j][1], s[j][2], s[j][3]);
}

/* One thread a block, word by word, tables read plainly from global
 * memory. */
extern "C" __global__ void sbox_naive(const unsigned *src, const unsigned *rk, const unsigned *tab,
				      unsigned *dst, int n)
{
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= (size_t)n)
		return;
	unsigned s[4], u[4];
	for (int w = 0; w < 4; w++)
		s[w] = src[4 * t + w] ^ rk[w];
	for (int r = 1; r <= NR; r++) {
		for (int w = 0; w < 4; w++) {
			unsigned b0 = s[w] & 255;
			unsigned b1 = (s[(w + 1) % 4] >> 8) & 255;
			unsigned b2 = (s[(w + 3) % 4] >> 16) & 255;
			unsigned b3 = s[(w + 2) % 4] >> 24;
			u[w] = tab[b0] ^ tab[256 + b1] ^ tab[512 + b2] ^ tab[768 + b3] ^ rk[4 * r + w];
		}
		for (int w = 0; w < 4; w++)
			s[w] = u[w];
	}
	for (int w = 0; w < 4; w++)
		dst[4 * t + w] = s[w];
}
