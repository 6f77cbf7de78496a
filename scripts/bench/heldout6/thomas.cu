/* thomas.cu: a batch of independent tridiagonal systems solved by the
 * Thomas algorithm, SPT systems a thread, read system-contiguous or
 * interleaved, the forward sweep's coefficients kept in local memory,
 * registers or a global scratch buffer (held-out space). */
#ifndef TPB
#define TPB 128
#endif
#ifndef SPT
#define SPT 1
#endif
#ifndef LAYOUT
#define LAYOUT 1
#endif
#ifndef KEEP
#define KEEP 1
#endif
#ifndef NR
#define NR 64
#endif

/* The row loops carry TH_LOOP: fully unrolled under KEEP 1, so that the
 * arrays of c' and d' are indexed by constants and live in registers;
 * kept as loops otherwise. */
#if KEEP == 1
#define TH_LOOP _Pragma("unroll")
#else
#define TH_LOOP _Pragma("unroll 1")
#endif

#if LAYOUT
#define TH_LD(arr, sy, r) i##arr[(size_t)(r) * ns + (sy)]
#else
#define TH_LD(arr, sy, r) s##arr[(size_t)(sy) * NR + (r)]
#endif

/* Where c'_r and d'_r of the thread's system j go: the scratch holds c'
 * of row r at r * ns + s and d' at (NR + r) * ns + s. */
#if KEEP == 2
#define TH_PUT(j, r, cv, dv) do { \
		cs[(size_t)(r) * ns + sys[j]] = (cv); \
		cs[(size_t)(NR + (r)) * ns + sys[j]] = (dv); \
	} while (0)
#define TH_CP(j, r) cs[(size_t)(r) * ns + sys[j]]
#define TH_DP(j, r) cs[(size_t)(NR + (r)) * ns + sys[j]]
#else
#define TH_PUT(j, r, cv, dv) do { cp[j][r] = (cv); dp[j][r] = (dv); } while (0)
#define TH_CP(j, r) cp[j][r]
#define TH_DP(j, r) dp[j][r]
#endif

/* Thread t of block b solves systems b * TPB * SPT + t + j * TPB (j < SPT).
 * The bound caps registers so that every block size launches. */
extern "C" __global__ void __launch_bounds__(TPB) thomas(const float *__restrict__ sa,
							const float *__restrict__ sb,
							const float *__restrict__ sc,
							const float *__restrict__ sd,
							const float *__restrict__ ia,
							const float *__restrict__ ib,
							const float *__restrict__ ic,
							const float *__restrict__ id,
							float *__restrict__ cs, float *__restrict__ x,
							int ns)
{
	size_t sys[SPT];
	float cl[SPT], dl[SPT];
#if KEEP != 2
	float cp[SPT][NR], dp[SPT][NR];
#endif
#pragma unroll
	for (int j = 0; j < SPT; j++) {
		sys[j] = (size_t)blockIdx.x * (TPB * SPT) + j * TPB + threadIdx.x;
		float m = 1.0f / TH_LD(b, sys[j], 0);
		cl[j] = TH_LD(c, sys[j], 0) * m;
		dl[j] = TH_LD(d, sys[j], 0) * m;
		TH_PUT(j, 0, cl[j], dl[j]);
	}
	TH_LOOP
	for (int r = 1; r < NR; r++) {
#pragma unroll
		for (int j = 0; j < SPT; j++) {
			float av = TH_LD(a, sys[j], r);
			float m = 1.0f / (TH_LD(b, sys[j], r) - av * cl[j]);
			cl[j] = TH_LD(c, sys[j], r) * m;
			dl[j] = (TH_LD(d, sys[j], r) - av * dl[j]) * m;
			TH_PUT(j, r, cl[j], dl[j]);
		}
	}
	/* dl now holds d'_{NR-1} = x_{NR-1}; x_r = d'_r - c'_r x_{r+1}. */
#pragma unroll
	for (int j = 0; j < SPT; j++)
		x[sys[j] * NR + NR - 1] = dl[j];
	TH_LOOP
	for (int r = NR - 2; r >= 0; r--) {
#pragma unroll
		for (int j = 0; j < SPT; j++) {
			dl[j] = TH_DP(j, r) - TH_CP(j, r) * dl[j];
			x[sys[j] * NR + r] = dl[j];
		}
	}
}

/* One system a thread, in double, from the system-contiguous copy. */
extern "C" __global__ void thomas_naive(const float *a, const float *b, const float *c,
					const float *d, float *x, int ns)
{
	int s = blockIdx.x * blockDim.x + threadIdx.x;
	if (s >= ns)
		return;
	const float *as = a + (size_t)s * NR, *bs = b + (size_t)s * NR;
	const float *cs = c + (size_t)s * NR, *ds = d + (size_t)s * NR;
	double cp[NR], dp[NR];
	cp[0] = cs[0] / (double)bs[0];
	dp[0] = ds[0] / (double)bs[0];
	for (int r = 1; r < NR; r++) {
		double m = bs[r] - as[r] * cp[r - 1];
		cp[r] = cs[r] / m;
		dp[r] = (ds[r] - as[r] * dp[r - 1]) / m;
	}
	double xr = dp[NR - 1];
	x[(size_t)s * NR + NR - 1] = (float)xr;
	for (int r = NR - 2; r >= 0; r--) {
		xr = dp[r] - cp[r] * xr;
		x[(size_t)s * NR + r] = (float)xr;
	}
}
