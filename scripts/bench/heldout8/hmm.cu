/* hmm.cu: the forward algorithm of an NS-state hidden Markov model with NSYM
 * observation symbols over many independent sequences, scaled each step;
 * TPS = NS / SPT lanes a sequence, alphas exchanged by warp shuffles or
 * shared memory, the transition and emission tables in shared memory or
 * read through __ldg (held-out space). */
#ifndef NS
#define NS 64			/* states */
#endif
#ifndef NSYM
#define NSYM 32			/* observation symbols */
#endif
#ifndef SPT
#define SPT 4			/* states a thread */
#endif
#ifndef TPB
#define TPB 128
#endif
#ifndef XCH
#define XCH 0			/* 0 warp shuffles, 1 shared memory */
#endif
#ifndef TMEM
#define TMEM 0			/* 0 global through __ldg, 1 shared memory */
#endif

#define TPS (NS / SPT)		/* lanes a sequence, at most a warp */
#define SPB (TPB / TPS)		/* sequences a block */
#define FULL 0xffffffffu

#if TPS > 32 || SPT % 2
#error "a sequence must fit in a warp, and SPT must be even"
#endif

/* SPT adjacent floats of a table row, in the widest loads they allow:
 * every thread's run starts at a multiple of SPT floats. */
static __device__ __forceinline__ void load_run(const float *p, float *v)
{
#if SPT % 4 == 0
#pragma unroll
	for (int k = 0; k < SPT; k += 4) {
#if TMEM
		float4 w = *(const float4 *)(p + k);
#else
		float4 w = __ldg((const float4 *)(p + k));
#endif
		v[k] = w.x;
		v[k + 1] = w.y;
		v[k + 2] = w.z;
		v[k + 3] = w.w;
	}
#else
#pragma unroll
	for (int k = 0; k < SPT; k += 2) {
#if TMEM
		float2 w = *(const float2 *)(p + k);
#else
		float2 w = __ldg((const float2 *)(p + k));
#endif
		v[k] = w.x;
		v[k + 1] = w.y;
	}
#endif
}

/* Lane g of a sequence's TPS-lane group owns states g * SPT ... g * SPT +
 * SPT - 1.  Before step t the group's alphas sum to c_{t-1} (not yet
 * divided out); step t makes alpha'[j] = E[o_t][j] sum_i alpha[i] T[i][j]
 * / c_{t-1} and adds log c_{t-1} to the log-likelihood.  Every lane gets
 * every alpha[i] for the sum, so it adds them up on the way for c, in the
 * same order in every lane.  T is row-major T[i][j], E symbol-major
 * E[o][j], so a lane's SPT entries of a row are adjacent. */
extern "C" __global__ void __launch_bounds__(TPB) hmm(const unsigned char *__restrict__ obs,
						     const float *__restrict__ T,
						     const float *__restrict__ E,
						     const float *__restrict__ pi,
						     float *__restrict__ loglik, int len)
{
#if TMEM
	__shared__ __align__(16) float sT[NS * NS];
	__shared__ __align__(16) float sE[NSYM * NS];
	for (int k = threadIdx.x; k < NS * NS / 4; k += TPB)
		((float4 *)sT)[k] = __ldg((const float4 *)T + k);
	for (int k = threadIdx.x; k < NSYM * NS / 4; k += TPB)
		((float4 *)sE)[k] = __ldg((const float4 *)E + k);
	__syncthreads();
	const float *tT = sT, *tE = sE;
#else
	const float *tT = T, *tE = E;
#endif
	int g = threadIdx.x % TPS, sl = threadIdx.x / TPS;
	int j0 = g * SPT;
	const unsigned char *o = obs + (size_t)(blockIdx.x * SPB + sl) * len;
#if XCH
	/* Padded by 4 floats: the groups of one warp read their rows' float4
	 * at once, and rows 272 bytes apart start in different banks. */
	__shared__ __align__(16) float sa[SPB][NS + 4];
	float *my = sa[sl];
#endif
	float a[SPT], e[SPT], p[SPT];
	load_run(tE + o[0] * NS + j0, e);
#pragma unroll
	for (int k = 0; k < SPT; k++)
		a[k] = __ldg(&pi[j0 + k]) * e[k];
	float ll = 0.0f;
	for (int t = 1; t < len; t++) {
		int ot = o[t];
		float acc[SPT];
#pragma unroll
		for (int k = 0; k < SPT; k++)
			acc[k] = 0.0f;
		float c = 0.0f;
#if XCH
		__syncwarp();	/* every lane done reading the last step's */
#pragma unroll
		for (int k = 0; k < SPT; k += 2)
			*(float2 *)&my[j0 + k] = make_float2(a[k], a[k + 1]);
		__syncwarp();
#pragma unroll
		for (int i = 0; i < NS; i += 4) {
			float4 v = *(const float4 *)&my[i];
			float ai[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
			for (int u = 0; u < 4; u++) {
				c += ai[u];
				load_run(tT + (i + u) * NS + j0, p);
#pragma unroll
				for (int k = 0; k < SPT; k++)
					acc[k] = fmaf(ai[u], p[k], acc[k]);
			}
		}
#else
#pragma unroll
		for (int i = 0; i < NS; i++) {
			float ai = __shfl_sync(FULL, a[i % SPT], i / SPT, TPS);
			c += ai;
			load_run(tT + i * NS + j0, p);
#pragma unroll
			for (int k = 0; k < SPT; k++)
				acc[k] = fmaf(ai, p[k], acc[k]);
		}
#endif
		float inv = 1.0f / c;
		ll += logf(c);
		load_run(tE + ot * NS + j0, e);
#pragma unroll
		for (int k = 0; k < SPT; k++)
			a[k] = acc[k] * inv * e[k];
	}
	/* log P = sum of the logs of the step sums and of the last alphas. */
	float c = 0.0f;
#pragma unroll
	for (int k = 0; k < SPT; k++)
		c += a[k];
#pragma unroll
	for (int off = TPS / 2; off > 0; off /= 2)
		c += __shfl_xor_sync(FULL, c, off, TPS);
	if (g == 0)
		loglik[blockIdx.x * SPB + sl] = ll + logf(c);
}

/* One thread a sequence, plain loops over global memory, in double. */
extern "C" __global__ void hmm_naive(const unsigned char *obs, const float *T, const float *E,
				     const float *pi, float *loglik, int nseq, int len)
{
	int s = blockIdx.x * blockDim.x + threadIdx.x;
	if (s >= nseq)
		return;
	const unsigned char *o = obs + (size_t)s * len;
	double a[NS], b[NS], ll = 0.0;
	for (int j = 0; j < NS; j++)
		a[j] = (double)pi[j] * E[o[0] * NS + j];
	for (int t = 1; t < len; t++) {
		double c = 0.0;
		for (int i = 0; i < NS; i++)
			c += a[i];
		for (int j = 0; j < NS; j++) {
			double sum = 0.0;
			for (int i = 0; i < NS; i++)
				sum += a[i] * T[i * NS + j];
			b[j] = sum * E[o[t] * NS + j] / c;
		}
		for (int j = 0; j < NS; j++)
			a[j] = b[j];
		ll += log(c);
	}
	double c = 0.0;
	for (int j = 0; j < NS; j++)
		c += a[j];
	loglik[s] = (float)(ll + log(c));
}
