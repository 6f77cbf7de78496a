/* hash.cu: a multiply-rotate-xor hash of 64-byte records, RPT records a
 * thread, read as uint32 or uint4 (held-out space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef RPT
#define RPT 1
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef UNROLL
#define UNROLL 4
#endif

#define HASH_STR(x) #x
#define HASH_PRAGMA(x) _Pragma(HASH_STR(x))
#define HASH_UNROLL(u) HASH_PRAGMA(unroll u)

#define REC_WORDS 16
#define HASH_SEED 0x9e3779b9u

static __device__ __forceinline__ unsigned rotl32(unsigned v, int r)
{
	return (v << r) | (v >> (32 - r));
}

/* One word into the state: the word is spread by two odd multipliers around
 * a rotation before it touches the state, so that a flipped bit reaches
 * the high bits; the state is rotated and stepped affinely after each. */
static __device__ __forceinline__ unsigned absorb(unsigned h, unsigned k)
{
	k *= 0x85ebca77u;
	k = rotl32(k, 13);
	k *= 0xc2b2ae3du;
	h ^= k;
	h = rotl32(h, 17);
	return h * 9u + 0x165667b1u;
}

/* The avalanche: each shift folds high bits into low ones before the next
 * multiply carries them back up. */
static __device__ __forceinline__ unsigned finish(unsigned h)
{
	h ^= REC_WORDS * 4u;
	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	h *= 0x846ca68bu;
	h ^= h >> 16;
	return h;
}

/* Thread t of block b hashes records b * TPB * RPT + t + r * TPB, r < RPT. */
extern "C" __global__ void hash(const unsigned *rec, unsigned *out)
{
	size_t base = (size_t)blockIdx.x * TPB * RPT + threadIdx.x;
	unsigned h[RPT];
#pragma unroll
	for (int r = 0; r < RPT; r++)
		h[r] = HASH_SEED;
#if VEC == 4
	const uint4 *p = (const uint4 *)rec;
	HASH_UNROLL(UNROLL)
	for (int j = 0; j < REC_WORDS / 4; j++) {
		uint4 v[RPT];
#pragma unroll
		for (int r = 0; r < RPT; r++)
			v[r] = p[(base + r * TPB) * (REC_WORDS / 4) + j];
#pragma unroll
		for (int r = 0; r < RPT; r++) {
			h[r] = absorb(h[r], v[r].x);
			h[r] = absorb(h[r], v[r].y);
			h[r] = absorb(h[r], v[r].z);
			h[r] = absorb(h[r], v[r].w);
		}
	}
#else
	HASH_UNROLL(UNROLL)
	for (int j = 0; j < REC_WORDS; j++) {
		unsigned v[RPT];
#pragma unroll
		for (int r = 0; r < RPT; r++)
			v[r] = rec[(base + r * TPB) * REC_WORDS + j];
#pragma unroll
		for (int r = 0; r < RPT; r++)
			h[r] = absorb(h[r], v[r]);
	}
#endif
#pragma unroll
	for (int r = 0; r < RPT; r++)
		out[base + r * TPB] = finish(h[r]);
}

extern "C" __global__ void hash_naive(const unsigned *rec, unsigned *out, int nrec)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= nrec)
		return;
	unsigned h = HASH_SEED;
	for (int j = 0; j < REC_WORDS; j++)
		h = absorb(h, rec[(size_t)i * REC_WORDS + j]);
	out[i] = finish(h);
}
