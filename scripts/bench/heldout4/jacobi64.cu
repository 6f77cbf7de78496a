/* jacobi64.cu: one double-precision Jacobi sweep for the 2-D Poisson
 * problem, OY outputs a thread down a column, from registers or from a
 * shared tile (held-out space).  u is (n + 2)^2 with a boundary ring; f and
 * the output are the n x n interior. */
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif
#ifndef OY
#define OY 1
#endif
#ifndef SMEM
#define SMEM 1
#endif

#define ROWS (BY * OY)

/* Interior point (x, y), 0-based, is u[(y + 1) * (n + 2) + x + 1].  The
 * sum is written in one order everywhere so that every variant rounds
 * alike: ((w + e) + (n + s)) - h2 f, then the quarter. */
static __device__ __forceinline__ double jacobi_point(double w, double e, double no, double so,
						       double fv, double h2)
{
	double s = (w + e) + (no + so);
	return 0.25 * (s - h2 * fv);
}

extern "C" __global__ void jacobi64(const double *u, const double *f, double *unew, int n, double h2)
{
	size_t w = (size_t)n + 2;
	int x = blockIdx.x * BX + threadIdx.x;
	int ytile = blockIdx.y * ROWS;
	int y0 = ytile + threadIdx.y * OY;
#if SMEM
	/* The tile's row r, column c is u's row ytile + r, column
	 * blockIdx.x * BX + c: the block's interior plus a ring of one. */
	extern __shared__ double tile[];
	const int tw = BX + 2;
	const double *src = u + (size_t)ytile * w + (size_t)blockIdx.x * BX;
	int tid = threadIdx.y * BX + threadIdx.x;
	for (int i = tid; i < tw * (ROWS + 2); i += BX * BY) {
		int r = i / tw, c = i - r * tw;
		tile[i] = src[(size_t)r * w + c];
	}
	__syncthreads();
	const double *t = tile + (threadIdx.y * OY + 1) * tw + threadIdx.x + 1;
	double no = t[-tw], c = t[0];
#pragma unroll
	for (int oy = 0; oy < OY; oy++) {
		double so = t[(oy + 1) * tw];
		double v = jacobi_point(t[oy * tw - 1], t[oy * tw + 1], no, so,
					f[(size_t)(y0 + oy) * n + x], h2);
		unew[(size_t)(y0 + oy) * n + x] = v;
		no = c;
		c = so;
	}
#else
	const double *col = u + (size_t)(y0 + 1) * w + x + 1;
	double no = *(col - w), c = col[0];
#pragma unroll
	for (int oy = 0; oy < OY; oy++) {
		const double *p = col + (size_t)oy * w;
		double so = p[w];
		double v = jacobi_point(p[-1], p[1], no, so, f[(size_t)(y0 + oy) * n + x], h2);
		unew[(size_t)(y0 + oy) * n + x] = v;
		no = c;
		c = so;
	}
#endif
}

extern "C" __global__ void jacobi64_naive(const double *u, const double *f, double *unew, int n, double h2)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= n || y >= n)
		return;
	size_t w = (size_t)n + 2;
	size_t i = (size_t)(y + 1) * w + x + 1;
	double s = (u[i - 1] + u[i + 1]) + (u[i - w] + u[i + w]);
	unew[(size_t)y * n + x] = 0.25 * (s - h2 * f[(size_t)y * n + x]);
}
