/* strmatch.cu: at every position of a byte text, the length of the longest
 * prefix of a fixed 16-byte pattern that starts there (16: the pattern
 * matches).  Each thread takes PPT adjacent positions, reads their text
 * from global memory or from a shared copy of its block's span, byte by
 * byte or as a window of 4- or 16-byte words held in registers, and
 * compares bytes with an early exit, all bytes branch-free, or whole words
 * (held-out space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef PPT
#define PPT 8
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef CMP
#define CMP 0
#endif
#ifndef SMEM
#define SMEM 1
#endif

#define P 16			/* pattern bytes, fixed by the problem */
#define WIN (PPT + P)		/* bytes a thread's positions read, padded to a word */
#define NW (WIN / 4)		/* its words */

/* The pattern, little-endian: byte k is bits 8 (k & 3) of word k >> 2. */
__constant__ unsigned cpat[P / 4];

#define PBYTE(k) ((cpat[(k) >> 2] >> (8 * ((k) & 3))) & 255u)

#if VEC == 1
/* Every comparison loads its own byte, so an early exit also saves loads. */
#if SMEM
#define TBYTE(j) ((unsigned)src[j])
#else
#define TBYTE(j) ((unsigned)__ldg(&src[j]))
#endif
#else
/* The window is in registers; the byte offsets are constants once the
 * loops are unrolled, so each byte is one extract. */
#define TBYTE(j) ((w[(j) >> 2] >> (8 * ((j) & 3))) & 255u)
#endif

/* The 4 window bytes from offset j, as a word (VEC > 1 only). */
static __device__ __forceinline__ unsigned tword(const unsigned *w, int j)
{
	return (j & 3) ? __funnelshift_r(w[j >> 2], w[(j >> 2) + 1], 8 * (j & 3)) : w[j >> 2];
}

extern "C" __global__ void strmatch(const unsigned char *__restrict__ text,
				    unsigned char *__restrict__ out)
{
	size_t first = ((size_t)blockIdx.x * TPB + threadIdx.x) * PPT;
#if SMEM
	/* The block's TPB * PPT positions and the 16 bytes after them, copied
	 * with 16-byte loads that a warp issues for 512 adjacent bytes. */
	__shared__ uint4 stage[(TPB * PPT + P) / 16];
	const uint4 *g = (const uint4 *)(text + (size_t)blockIdx.x * TPB * PPT);
	for (int e = threadIdx.x; e < (TPB * PPT + P) / 16; e += TPB)
		stage[e] = __ldg(&g[e]);
	__syncthreads();
	const unsigned char *src = (const unsigned char *)stage + threadIdx.x * PPT;
#else
	const unsigned char *src = text + first;
#endif

#if VEC == 4
	unsigned w[NW];
#pragma unroll
	for (int i = 0; i < NW; i++)
#if SMEM
		w[i] = ((const unsigned *)src)[i];
#else
		w[i] = __ldg((const unsigned *)src + i);
#endif
#elif VEC == 16
	unsigned w[NW];
#pragma unroll
	for (int i = 0; i < NW / 4; i++) {
#if SMEM
		uint4 v = ((const uint4 *)src)[i];
#else
		uint4 v = __ldg((const uint4 *)src + i);
#endif
		w[4 * i] = v.x;
		w[4 * i + 1] = v.y;
		w[4 * i + 2] = v.z;
		w[4 * i + 3] = v.w;
	}
#endif

	/* Four lengths a word, stored as words or 16-byte vectors. */
	unsigned o[PPT / 4];
#pragma unroll
	for (int i = 0; i < PPT / 4; i++)
		o[i] = 0;

#pragma unroll
	for (int i = 0; i < PPT; i++) {
		unsigned len = P;
#if CMP == 0
#pragma unroll
		for (int k = 0; k < P; k++)
			if (TBYTE(i + k) != PBYTE(k)) {
				len = k;
				break;
			}
#elif CMP == 1
		unsigned eq = 0;
#pragma unroll
		for (int k = 0; k < P; k++)
			eq |= (unsigned)(TBYTE(i + k) == PBYTE(k)) << k;
		len = __ffs(~eq) - 1;	/* bit 16 of ~eq is set: at most 16 */
#else
		/* From the last word down, so that the first differing word
		 * decides; its lowest nonzero byte is the first mismatch. */
#pragma unroll
		for (int m = P / 4 - 1; m >= 0; m--) {
			unsigned d = tword(w, i + 4 * m) ^ cpat[m];
			if (d)
				len = 4 * m + ((__ffs(d) - 1) >> 3);
		}
#endif
		o[i >> 2] |= len << (8 * (i & 3));
	}

#if PPT % 16 == 0
#pragma unroll
	for (int i = 0; i < PPT / 16; i++)
		((uint4 *)(out + first))[i] = make_uint4(o[4 * i], o[4 * i + 1], o[4 * i + 2], o[4 * i + 3]);
#else
#pragma unroll
	for (int i = 0; i < PPT / 4; i++)
		((unsigned *)(out + first))[i] = o[i];
#endif
}

/* One thread a position, bytes compared until the first mismatch, the
 * pattern read from global memory. */
extern "C" __global__ void strmatch_naive(const unsigned char *text, const unsigned char *pat,
					  unsigned char *out, int n)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= n)
		return;
	int k = 0;
	while (k < P && text[p + k] == pat[k])
		k++;
	out[p] = (unsigned char)k;
}
