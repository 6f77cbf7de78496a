/* bitonic.cu: segments of SEG float keys sorted ascending by a bitonic
 * network in shared memory (held-out space, second suite).  Knobs: KPT keys
 * per thread, SPB segments per block, SHFL warp-shuffle stages for strides
 * below 32, PAD the shared array's layout (0 plain, 1 padded, 2 swizzled). */
#ifndef SEG
#define SEG 2048
#endif
#ifndef KPT
#define KPT 4
#endif
#ifndef SPB
#define SPB 1
#endif
#ifndef SHFL
#define SHFL 1
#endif
#ifndef PAD
#define PAD 1
#endif
#define KEYS (SPB * SEG)		/* a block's keys */
#define NT (KEYS / KPT)			/* threads per block */
#if PAD == 1
#define P(i) ((i) + ((i) >> 5))		/* a padding word after every 32 */
#elif PAD == 2
#define P(i) ((i) ^ (-(((i) >> 5) & 1) & 31))	/* odd rows of 32 reversed */
#else
#define P(i) (i)
#endif
#define SH_WORDS (PAD == 1 ? KEYS + KEYS / 32 : KEYS)

/* Whether the run of merge size k that holds key i is sorted ascending (its
 * pair's smaller key at the lower index).  At k == SEG every segment is,
 * whichever segment of the block it is. */
__device__ __forceinline__ bool bt_up(int i, int k)
{
	return (i & k & (SEG - 1)) == 0;
}

#if SHFL
/* The stages of merge size k from stride jmax down to 1, on registers: the
 * warp owns 32 * KPT consecutive keys, lane l holding base + q * 32 + l. */
__device__ __forceinline__ void bt_warp(float *v, int base, int lane, int k, int jmax)
{
	for (int j = jmax; j >= 1; j >>= 1) {
#pragma unroll
		for (int q = 0; q < KPT; q++) {
			int i = base + q * 32 + lane;
			float o = __shfl_xor_sync(0xffffffffu, v[q], j);
			bool lo = (lane & j) == 0;
			v[q] = lo == bt_up(i, k) ? fminf(v[q], o) : fmaxf(v[q], o);
		}
	}
}
#endif

extern "C" __global__ void bitonic(const float *__restrict__ keys, float *__restrict__ out)
{
	__shared__ float sh[SH_WORDS];
	size_t g = (size_t)blockIdx.x * KEYS;
	int t = threadIdx.x;
#pragma unroll
	for (int q = 0; q < KPT; q++)
		sh[P(t + q * NT)] = keys[g + t + q * NT];
#if SHFL
	int lane = t & 31;
	int base = (t >> 5) * 32 * KPT;
	float v[KPT];
	__syncthreads();
#pragma unroll
	for (int q = 0; q < KPT; q++)
		v[q] = sh[P(base + q * 32 + lane)];
	for (int k = 2; k <= 32; k <<= 1)
		bt_warp(v, base, lane, k, k >> 1);
#pragma unroll
	for (int q = 0; q < KPT; q++)
		sh[P(base + q * 32 + lane)] = v[q];
	const int kfirst = 64, jlast = 32;
#else
	const int kfirst = 2, jlast = 1;
#endif
	for (int k = kfirst; k <= SEG; k <<= 1) {
		for (int j = k >> 1; j >= jlast; j >>= 1) {
			__syncthreads();
#pragma unroll
			for (int q = 0; q < KPT / 2; q++) {
				int p = t + q * NT;
				int i = ((p & ~(j - 1)) << 1) | (p & (j - 1));
				float a = sh[P(i)], b = sh[P(i + j)];
				if ((a > b) == bt_up(i, k)) {
					sh[P(i)] = b;
					sh[P(i + j)] = a;
				}
			}
		}
#if SHFL
		__syncthreads();
#pragma unroll
		for (int q = 0; q < KPT; q++)
			v[q] = sh[P(base + q * 32 + lane)];
		bt_warp(v, base, lane, k, 16);
#pragma unroll
		for (int q = 0; q < KPT; q++)
			sh[P(base + q * 32 + lane)] = v[q];
#endif
	}
	__syncthreads();
#pragma unroll
	for (int q = 0; q < KPT; q++)
		out[g + t + q * NT] = sh[P(t + q * NT)];
}

/* One thread per key: its rank among its segment's keys (ties by index) is
 * where it goes. */
extern "C" __global__ void bitonic_naive(const float *keys, float *out, int seg)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t s = i / seg * seg;
	float x = keys[i];
	int rank = 0;
	for (int j = 0; j < seg; j++) {
		float y = keys[s + j];
		rank += y < x || (y == x && s + j < i);
	}
	out[s + rank] = x;
}
