/* blackscholes.cu: European call and put prices of N options, OPT options a
 * thread (TPB apart or consecutive), with the accurate library functions or
 * the fast intrinsics (held-out space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef OPT
#define OPT 1
#endif
#ifndef CONTIG
#define CONTIG 0
#endif
#ifndef MATH
#define MATH 0
#endif

/* MATH 0: logf, expf, sqrtf and the CDF by erfcf; 1: __logf, __expf,
 * __fdividef and rsqrtf, the CDF still by erfcf; 2: the intrinsics and a
 * rational approximation of the CDF (Zelen and Severo, 26.2.17 in
 * Abramowitz and Stegun) around one __expf. */
#if MATH == 0
#define LOG(x) logf(x)
#define EXP(x) expf(x)
#define DIV(a, b) ((a) / (b))
#define SQRT(x) sqrtf(x)
#else
#define LOG(x) __logf(x)
#define EXP(x) __expf(x)
#define DIV(a, b) __fdividef(a, b)
#define SQRT(x) __fdividef(1.0f, rsqrtf(x))
#endif

/* Phi(x), the standard normal distribution function. */
static __device__ __forceinline__ float phi(float x)
{
#if MATH == 2
	float t = DIV(1.0f, 1.0f + 0.2316419f * fabsf(x));
	float p = t * (0.319381530f + t * (-0.356563782f + t * (1.781477937f +
		  t * (-1.821255978f + t * 1.330274429f))));
	float q = 0.398942280f * EXP(-0.5f * x * x) * p;	/* 1 - Phi(|x|) */
	return x > 0.0f ? 1.0f - q : q;
#else
	return 0.5f * erfcf(-0.70710678f * x);
#endif
}

static __device__ __forceinline__ void price(float s, float k, float t, float r, float v,
					     float *call, float *put)
{
	float sq = SQRT(t);
	float vs = v * sq;
	float d1 = DIV(LOG(DIV(s, k)) + (r + 0.5f * v * v) * t, vs);
	float d2 = d1 - vs;
	float kd = k * EXP(-r * t);
	/* Phi(-d) = 1 - Phi(d) by symmetry; both legs use the same two calls. */
	float n1 = phi(d1), n2 = phi(d2);
	*call = s * n1 - kd * n2;
	*put = kd * (1.0f - n2) - s * (1.0f - n1);
}

/* Block b owns options [b * TPB * OPT, (b + 1) * TPB * OPT): thread t takes
 * t + j * TPB (CONTIG 0, each load coalesced across the warp) or
 * t * OPT + j (CONTIG 1, a lane's options adjacent, a warp's loads OPT
 * floats apart).  All loads come before any arithmetic. */
extern "C" __global__ void bs(const float *__restrict__ S, const float *__restrict__ K,
			      const float *__restrict__ T, float *__restrict__ call,
			      float *__restrict__ put, float r, float v)
{
	size_t base = (size_t)blockIdx.x * (TPB * OPT);
	float s[OPT], k[OPT], t[OPT];
#pragma unroll
	for (int j = 0; j < OPT; j++) {
#if CONTIG
		size_t i = base + threadIdx.x * OPT + j;
#else
		size_t i = base + threadIdx.x + j * TPB;
#endif
		s[j] = S[i];
		k[j] = K[i];
		t[j] = T[i];
	}
#pragma unroll
	for (int j = 0; j < OPT; j++) {
#if CONTIG
		size_t i = base + threadIdx.x * OPT + j;
#else
		size_t i = base + threadIdx.x + j * TPB;
#endif
		float c, p;
		price(s[j], k[j], t[j], r, v, &c, &p);
		call[i] = c;
		put[i] = p;
	}
}

/* One thread an option, in double. */
extern "C" __global__ void bs_naive(const float *S, const float *K, const float *T, float *call,
				    float *put, float r, float v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double s = S[i], k = K[i], t = T[i], rr = r, vv = v;
	double d1 = (log(s / k) + (rr + 0.5 * vv * vv) * t) / (vv * sqrt(t));
	double d2 = d1 - vv * sqrt(t);
	double kd = k * exp(-rr * t);
	call[i] = (float)(s * 0.5 * erfc(-d1 / sqrt(2.0)) - kd * 0.5 * erfc(-d2 / sqrt(2.0)));
	put[i] = (float)(kd * 0.5 * erfc(d2 / sqrt(2.0)) - s * 0.5 * erfc(d1 / sqrt(2.0)));
}
