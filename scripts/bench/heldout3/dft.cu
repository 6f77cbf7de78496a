/* dft.cu: a direct complex DFT, X[k] = sum_n x[n] e^{-2 pi i k n / N}, OPT
 * outputs a thread, twiddles by sincosf, __sincosf, a recurrence or a
 * quarter-wave table in shared memory (held-out space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef OPT
#define OPT 2
#endif
#ifndef TRIG
#define TRIG 1
#endif
#ifndef UNROLL
#define UNROLL 4
#endif

#define DFT_STR(x) #x
#define DFT_PRAGMA(x) _Pragma(DFT_STR(x))
#define DFT_UNROLL(u) DFT_PRAGMA(unroll u)

/* e^{-2 pi i idx / n} for 0 <= idx < n, n a power of two.  The angle is
 * taken in [-pi, pi), where __sincosf is accurate. */
static __device__ __forceinline__ float2 twiddle(unsigned idx, int n, const float *tab)
{
	float c, s;
#if TRIG == 3
	/* tab[j] = cos(2 pi j / n), j <= n/4: the quadrant picks the sign and
	 * whether cos and sin swap. */
	unsigned q = (unsigned)n >> 2;
	unsigned quad = idx >> (__ffs(n) - 3), r = idx & (q - 1);
	float a = tab[r], b = tab[q - r];
	c = (quad & 1) ? -b : a;
	s = (quad & 1) ? a : b;
	if (quad & 2) {
		c = -c;
		s = -s;
	}
	return make_float2(c, -s);
#else
	int sidx = (int)idx - (int)((idx & ((unsigned)n >> 1)) << 1);
	float ang = (-6.283185307f / (float)n) * (float)sidx;
#if TRIG == 1
	__sincosf(ang, &s, &c);
#else
	sincosf(ang, &s, &c);
#endif
	return make_float2(c, s);
#endif
}

/* Thread t of block b owns outputs b * TPB * OPT + t + o * TPB (o < OPT).
 * The block stages TPB inputs at a time in shared memory; with TRIG 3 the
 * quarter-wave table follows them there. */
extern "C" __global__ void dft(const float2 *x, const float *qtab, float2 *X, int n)
{
	extern __shared__ float smem[];
	float2 *xs = (float2 *)smem;
	const float *tab = 0;
	unsigned mask = (unsigned)n - 1;
	unsigned k[OPT];
	float re[OPT], im[OPT];
#pragma unroll
	for (int o = 0; o < OPT; o++) {
		k[o] = blockIdx.x * (TPB * OPT) + threadIdx.x + o * TPB;
		re[o] = 0.0f;
		im[o] = 0.0f;
	}
#if TRIG == 3
	{
		float *t = smem + 2 * TPB;
		for (int j = threadIdx.x; j <= n / 4; j += TPB)
			t[j] = qtab[j];
		tab = t;
	}
#elif TRIG == 2
	/* The recurrence w <- w * e^{-2 pi i k / n} restarts from an exact
	 * sincospif at every tile, so its rounding drifts over TPB steps only. */
	float2 step[OPT];
#pragma unroll
	for (int o = 0; o < OPT; o++) {
		float s, c;
		sincospif(-2.0f * (float)k[o] / (float)n, &s, &c);
		step[o] = make_float2(c, s);
	}
#endif
	for (int n0 = 0; n0 < n; n0 += TPB) {
		__syncthreads();
		xs[threadIdx.x] = x[n0 + threadIdx.x];
		__syncthreads();
#if TRIG == 2
		float2 w[OPT];
#pragma unroll
		for (int o = 0; o < OPT; o++) {
			float s, c;
			unsigned idx = (k[o] * (unsigned)n0) & mask;
			sincospif(-2.0f * (float)idx / (float)n, &s, &c);
			w[o] = make_float2(c, s);
		}
		DFT_UNROLL(UNROLL)
		for (int j = 0; j < TPB; j++) {
			float2 v = xs[j];
#pragma unroll
			for (int o = 0; o < OPT; o++) {
				re[o] += v.x * w[o].x - v.y * w[o].y;
				im[o] += v.x * w[o].y + v.y * w[o].x;
				float wx = w[o].x * step[o].x - w[o].y * step[o].y;
				w[o].y = w[o].x * step[o].y + w[o].y * step[o].x;
				w[o].x = wx;
			}
		}
#else
		unsigned idx[OPT];
#pragma unroll
		for (int o = 0; o < OPT; o++)
			idx[o] = (k[o] * (unsigned)n0) & mask;
		DFT_UNROLL(UNROLL)
		for (int j = 0; j < TPB; j++) {
			float2 v = xs[j];
#pragma unroll
			for (int o = 0; o < OPT; o++) {
				float2 w = twiddle(idx[o], n, tab);
				re[o] += v.x * w.x - v.y * w.y;
				im[o] += v.x * w.y + v.y * w.x;
				idx[o] = (idx[o] + k[o]) & mask;
			}
		}
#endif
	}
#pragma unroll
	for (int o = 0; o < OPT; o++)
		X[k[o]] = make_float2(re[o], im[o]);
}

extern "C" __global__ void dft_naive(const float *x, float *X, int n)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;
	if (k >= n)
		return;
	float re = 0.0f, im = 0.0f;
	for (int j = 0; j < n; j++) {
		unsigned idx = ((unsigned)k * (unsigned)j) % (unsigned)n;
		float s, c;
		sincospif(-2.0f * (float)idx / (float)n, &s, &c);
		re += x[2 * j] * c - x[2 * j + 1] * s;
		im += x[2 * j] * s + x[2 * j + 1] * c;
	}
	X[2 * k] = re;
	X[2 * k + 1] = im;
}
