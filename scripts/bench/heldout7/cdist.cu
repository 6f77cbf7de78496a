/* cdist.cu: the squared Euclidean distance of every row of A to every row
 * of B, a register tile of TM x TN distances a thread, the rows read from
 * global memory through __ldg or staged in shared memory (held-out
 * space). */
#ifndef K
#define K 64
#endif
#ifndef BY
#define BY 8
#endif
#ifndef TM
#define TM 1
#endif
#ifndef TN
#define TN 1
#endif
#ifndef SMEM
#define SMEM 0
#endif

#define BX 16			/* threads a block in x */
#define BM (BY * TM)		/* rows of A a block */
#define BN (BX * TN)		/* rows of B a block */
#define KC 32			/* columns a shared-memory stage */

/* Thread (x, y) of block (bx, by) owns D[i][j] for i = by * BM + y + u * BY
 * (u < TM) and j = bx * BN + x + v * BX (v < TN), so a half-warp's stores
 * of one entry of the tile are 16 adjacent floats.  Every variant adds the
 * K squares in the order k = 0, 1, ..., so only the fused multiply-adds'
 * rounding, the same in all, separates them from the reference. */
extern "C" __global__ void cdist(const float *__restrict__ A, const float *__restrict__ B,
				 float *__restrict__ D, int n)
{
	int x = threadIdx.x, y = threadIdx.y;
	size_t i0 = (size_t)blockIdx.y * BM, j0 = (size_t)blockIdx.x * BN;
	float acc[TM][TN];
#pragma unroll
	for (int u = 0; u < TM; u++)
#pragma unroll
		for (int v = 0; v < TN; v++)
			acc[u][v] = 0.0f;
#if SMEM
	/* Column-major tiles (k, then row): a warp's reads of one k are 16
	 * adjacent words of sb and at most two words of sa.  The odd row
	 * pitch spreads the transposing stores, 8 float4 a row, over all
	 * 32 banks. */
	__shared__ float sa[KC][BM + 1];
	__shared__ float sb[KC][BN + 1];
	int t = y * BX + x;
#pragma unroll 1
	for (int kc = 0; kc < K; kc += KC) {
		for (int e = t; e < BM * KC / 4; e += BX * BY) {
			int r = e / (KC / 4), c = e % (KC / 4) * 4;
			float4 a = __ldg((const float4 *)(A + (i0 + r) * K + kc + c));
			sa[c][r] = a.x; sa[c + 1][r] = a.y; sa[c + 2][r] = a.z; sa[c + 3][r] = a.w;
		}
		for (int e = t; e < BN * KC / 4; e += BX * BY) {
			int r = e / (KC / 4), c = e % (KC / 4) * 4;
			float4 b = __ldg((const float4 *)(B + (j0 + r) * K + kc + c));
			sb[c][r] = b.x; sb[c + 1][r] = b.y; sb[c + 2][r] = b.z; sb[c + 3][r] = b.w;
		}
		__syncthreads();
#pragma unroll
		for (int k = 0; k < KC; k++) {
			float a[TM], b[TN];
#pragma unroll
			for (int u = 0; u < TM; u++)
				a[u] = sa[k][y + u * BY];
#pragma unroll
			for (int v = 0; v < TN; v++)
				b[v] = sb[k][x + v * BX];
#pragma unroll
			for (int u = 0; u < TM; u++)
#pragma unroll
				for (int v = 0; v < TN; v++) {
					float d = a[u] - b[v];
					acc[u][v] = fmaf(d, d, acc[u][v]);
				}
		}
		__syncthreads();
	}
#else
	/* Four columns a load from each of the thread's rows; the block's
	 * threads read the same rows of A (across x) and of B (across y),
	 * which L1 serves after the first. */
#pragma unroll
	for (int k = 0; k < K; k += 4) {
		float4 a[TM], b[TN];
#pragma unroll
		for (int u = 0; u < TM; u++)
			a[u] = __ldg((const float4 *)(A + (i0 + y + u * BY) * K + k));
#pragma unroll
		for (int v = 0; v < TN; v++)
			b[v] = __ldg((const float4 *)(B + (j0 + x + v * BX) * K + k));
#pragma unroll
		for (int u = 0; u < TM; u++)
#pragma unroll
			for (int v = 0; v < TN; v++) {
				float d;
				d = a[u].x - b[v].x; acc[u][v] = fmaf(d, d, acc[u][v]);
				d = a[u].y - b[v].y; acc[u][v] = fmaf(d, d, acc[u][v]);
				d = a[u].z - b[v].z; acc[u][v] = fmaf(d, d, acc[u][v]);
				d = a[u].w - b[v].w; acc[u][v] = fmaf(d, d, acc[u][v]);
			}
	}
#endif
#pragma unroll
	for (int u = 0; u < TM; u++) {
		size_t row = (i0 + y + u * BY) * (size_t)n + j0 + x;
#pragma unroll
		for (int v = 0; v < TN; v++)
			D[row + v * BX] = acc[u][v];
	}
}

/* One thread a distance, summed in double. */
extern "C" __global__ void cdist_naive(const float *A, const float *B, float *D, int m, int n)
{
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= (size_t)m * n)
		return;
	size_t i = t / n, j = t % n;
	double s = 0.0;
	for (int k = 0; k < K; k++) {
		double d = (double)A[i * K + k] - (double)B[j * K + k];
		s += d * d;
	}
	D[t] = (float)s;
}
