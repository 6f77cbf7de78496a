/* rng.cu: normally distributed floats from a counter-based generator, a
 * two-word integer mixing of (counter, key) in ROUNDS rounds of multiply,
 * exclusive-or and rotate, then Box-Muller; PPT pairs a thread, stored as
 * floats, float2 or float4, the round loop unrolled UNROLL times
 * (held-out space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef PPT
#define PPT 4
#endif
#ifndef VEC
#define VEC 2
#endif
#ifndef UNROLL
#define UNROLL 16
#endif

#define ROUNDS 16		/* fixed by the problem: the output depends on it */
#define M0 0x75ffc53du		/* odd multipliers, made up */
#define M1 0xbbe9c675u
#define KSTEP 0xe2a214e9u	/* added to the round key after each round */
#define B0 0xc7bb69f7u		/* the second word's start, under the key */

/* VEC 1 and 2 take one pair a group, VEC 4 two adjacent pairs. */
#define G (VEC == 4 ? 2 : 1)
#define GROUPS (PPT / G)	/* groups a thread */

/* `#pragma unroll UNROLL` needs the macro expanded inside the pragma;
 * _Pragma after expansion always sees the number. */
#define RNG_STR(x) #x
#define RNG_PRAGMA(x) _Pragma(RNG_STR(x))
#define RNG_UNROLL(n) RNG_PRAGMA(unroll n)

static __device__ __forceinline__ unsigned rotl(unsigned x, int r)
{
	return (x << r) | (x >> (32 - r));
}

/* The two words of counter p under key: every round folds the round key
 * into a, multiplies, and feeds each word into the other. */
static __device__ __forceinline__ void mix(unsigned p, unsigned key, unsigned *ra, unsigned *rb)
{
	unsigned a = p, b = B0 ^ key, k = key;
	RNG_UNROLL(UNROLL)
	for (int r = 0; r < ROUNDS; r++) {
		a = (a ^ k) * M0;
		b = rotl(b + a, 11) * M1;
		a ^= rotl(b, 19);
		k += KSTEP;
	}
	*ra = a;
	*rb = b;
}

/* Box-Muller on the top 24 bits of each word: u1 in (0, 1], u2 in [0, 1),
 * both exact in float. */
static __device__ __forceinline__ float2 normals(unsigned a, unsigned b)
{
	float u1 = (float)((a >> 8) + 1) * 0x1p-24f;
	float u2 = (float)(b >> 8) * 0x1p-24f;
	float r = sqrtf(-2.0f * logf(u1));
	float s, c;
	sincosf(6.28318531f * u2, &s, &c);
	return make_float2(r * c, r * s);
}

/* Block b owns TPB * GROUPS groups of G pairs; thread t takes groups
 * t + j * TPB (j < GROUPS), so at every j a warp's lanes store adjacent
 * groups.  Pair p's normals are out[2p] and out[2p + 1] whatever the
 * knobs. */
extern "C" __global__ void rng(float *__restrict__ out, unsigned key)
{
	size_t g0 = (size_t)blockIdx.x * (TPB * GROUPS) + threadIdx.x;
#pragma unroll
	for (int j = 0; j < GROUPS; j++) {
		size_t g = g0 + (size_t)j * TPB;
		unsigned a, b;
		mix((unsigned)(g * G), key, &a, &b);
		float2 z = normals(a, b);
#if VEC == 1
		out[2 * g] = z.x;
		out[2 * g + 1] = z.y;
#elif VEC == 2
		((float2 *)out)[g] = z;
#else
		unsigned a1, b1;
		mix((unsigned)(g * G + 1), key, &a1, &b1);
		float2 w = normals(a1, b1);
		((float4 *)out)[g] = make_float4(z.x, z.y, w.x, w.y);
#endif
	}
}

/* One thread a pair, the rounds in a plain loop, Box-Muller in double. */
extern "C" __global__ void rng_naive(float *out, unsigned key, int npairs)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= npairs)
		return;
	unsigned a = p, b = B0 ^ key, k = key;
	for (int r = 0; r < ROUNDS; r++) {
		a = (a ^ k) * M0;
		b = b + a;
		b = (b << 11) | (b >> 21);
		b = b * M1;
		a = a ^ ((b << 19) | (b >> 13));
		k = k + KSTEP;
	}
	double u1 = ((a >> 8) + 1) / 16777216.0;
	double u2 = (b >> 8) / 16777216.0;
	double r = sqrt(-2.0 * log(u1));
	out[2 * p] = (float)(r * cos(2.0 * 3.14159265358979323846 * u2));
	out[2 * p + 1] = (float)(r * sin(2.0 * 3.14159265358979323846 * u2));
}
