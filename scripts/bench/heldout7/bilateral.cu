/* bilateral.cu: a bilateral filter of radius R on a float image, edges
 * clamped, spatial weights from a constant table, computed, or folded into
 * the range exponent, accurate or fast exponentials, pixels read from
 * global memory or a shared tile (held-out space). */
#ifndef R
#define R 3
#endif
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif
#ifndef PPT
#define PPT 1
#endif
#ifndef SPW
#define SPW 0
#endif
#ifndef SMEM
#define SMEM 0
#endif
#ifndef FAST
#define FAST 0
#endif

#define D (2 * R + 1)		/* taps a row */
#define ROWS (BY * PPT)		/* image rows a block writes */

#if FAST
#define EXP(x) __expf(x)
#else
#define EXP(x) expf(x)
#endif

/* exp(-(dx^2 + dy^2) / 2 s^2) for tap (dy + R) * D + dx + R; filled by the
 * launch's copy whatever SPW is, read only where SPW is 0. */
__constant__ float csw[D * D];

static __device__ __forceinline__ int clampi(int v, int lo, int hi)
{
	return min(max(v, lo), hi);
}

/* Each thread writes PPT consecutive rows of one column; nss = -1 / 2 s^2
 * and nrr = -1 / 2 r^2 for the spatial and range sigmas s and r. */
extern "C" __global__ void bilateral(const float *__restrict__ in, float *__restrict__ out, int w,
				     int h, float nss, float nrr)
{
	int x = blockIdx.x * BX + threadIdx.x;
	int y0 = blockIdx.y * ROWS + threadIdx.y * PPT;
#if SMEM
	/* The block's pixels and an R-pixel halo, edge-clamped as loaded:
	 * each pixel read from global memory once, not by up to D * D
	 * threads. */
	__shared__ float tile[ROWS + 2 * R][BX + 2 * R];
	int gx = blockIdx.x * BX - R, gy = blockIdx.y * ROWS - R;
	for (int r = threadIdx.y; r < ROWS + 2 * R; r += BY) {
		int sy = clampi(gy + r, 0, h - 1);
		for (int c = threadIdx.x; c < BX + 2 * R; c += BX)
			tile[r][c] = in[(size_t)sy * w + clampi(gx + c, 0, w - 1)];
	}
	__syncthreads();
#define PIX(yy, xx) tile[(yy) - blockIdx.y * ROWS + R][(xx) - blockIdx.x * BX + R]
#else
	int cx[D];
#pragma unroll
	for (int i = 0; i < D; i++)
		cx[i] = clampi(x - R + i, 0, w - 1);
#define PIX(yy, xx) __ldg(&in[(size_t)clampi(yy, 0, h - 1) * w + cx[(xx) - x + R]])
#endif
	if (x >= w)
		return;
#pragma unroll
	for (int j = 0; j < PPT; j++) {
		int y = y0 + j;
		if (y >= h)
			break;
		float ip = PIX(y, x);
		float sum = 0.0f, norm = 0.0f;
#pragma unroll
		for (int dy = -R; dy <= R; dy++) {
#pragma unroll
			for (int dx = -R; dx <= R; dx++) {
				float iq = PIX(y + dy, x + dx);
				float d = iq - ip;
#if SPW == 0
				float wt = csw[(dy + R) * D + dx + R] * EXP(d * d * nrr);
#elif SPW == 1
				float wt = EXP((float)(dx * dx + dy * dy) * nss) * EXP(d * d * nrr);
#else
				float wt = EXP(fmaf((float)(dx * dx + dy * dy), nss, d * d * nrr));
#endif
				norm += wt;
				sum = fmaf(wt, iq, sum);
			}
		}
		out[(size_t)y * w + x] = sum / norm;
	}
}

/* One thread a pixel, weights and sums in double. */
extern "C" __global__ void bilateral_naive(const float *in, float *out, int w, int h, double ss,
					   double sr)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	double ip = in[(size_t)y * w + x], sum = 0.0, norm = 0.0;
	for (int dy = -R; dy <= R; dy++)
		for (int dx = -R; dx <= R; dx++) {
			int qx = min(max(x + dx, 0), w - 1), qy = min(max(y + dy, 0), h - 1);
			double iq = in[(size_t)qy * w + qx], d = iq - ip;
			double wt = exp(-(dx * dx + dy * dy) / (2.0 * ss * ss)) * exp(-d * d / (2.0 * sr * sr));
			norm += wt;
			sum += wt * iq;
		}
	out[(size_t)y * w + x] = (float)(sum / norm);
}
