/* lbm.cu: one D2Q9 lattice-Boltzmann step, pull streaming then BGK
 * collision, periodic boundaries, structure-of-arrays distributions
 * (held-out space). */
#ifndef BX
#define BX 128
#endif
#ifndef BY
#define BY 2
#endif
#ifndef CY
#define CY 1
#endif
#ifndef REG
#define REG 1
#endif

/* Direction q moves by (CX(q), CY_(q)): 0 rest, 1-4 the axes, 5-8 the
 * diagonals; weights 4/9, 1/9 and 1/36. */
#define CX(q) ((q) == 1 || (q) == 5 || (q) == 8 ? 1 : (q) == 3 || (q) == 6 || (q) == 7 ? -1 : 0)
#define CY_(q) ((q) == 2 || (q) == 5 || (q) == 6 ? 1 : (q) == 4 || (q) == 7 || (q) == 8 ? -1 : 0)
#define WQ(q) ((q) == 0 ? 4.0f / 9.0f : (q) < 5 ? 1.0f / 9.0f : 1.0f / 36.0f)

/* The equilibrium of direction q at density rho and velocity (ux, uy),
 * usq = ux^2 + uy^2, written once for the kernel and the reference. */
static __device__ __forceinline__ float feq(int q, float rho, float ux, float uy, float usq)
{
	float cu = (float)CX(q) * ux + (float)CY_(q) * uy;
	return WQ(q) * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - 1.5f * usq);
}

/* Index, in one direction's plane, of the cell upstream of (x, y) along q:
 * xs[] and ys[] hold x - 1, x, x + 1 (and the same in y) wrapped. */
#define SRC(q, xs, ys) ((size_t)(ys)[1 - CY_(q)] * nx + (xs)[1 - CX(q)])

extern "C" __global__ void lbm(const float *fin, float *fout, int nx, int ny, float omega)
{
	int x = blockIdx.x * BX + threadIdx.x;
	int y0 = (blockIdx.y * BY + threadIdx.y) * CY;
	size_t plane = (size_t)nx * ny;
	int xs[3] = {x == 0 ? nx - 1 : x - 1, x, x == nx - 1 ? 0 : x + 1};
#if REG
	float f[CY][9];
#pragma unroll
	for (int c = 0; c < CY; c++) {
		int y = y0 + c;
		int ys[3] = {y == 0 ? ny - 1 : y - 1, y, y == ny - 1 ? 0 : y + 1};
#pragma unroll
		for (int q = 0; q < 9; q++)
			f[c][q] = fin[q * plane + SRC(q, xs, ys)];
	}
#pragma unroll
	for (int c = 0; c < CY; c++) {
		float rho = 0.0f, mx = 0.0f, my = 0.0f;
#pragma unroll
		for (int q = 0; q < 9; q++) {
			rho += f[c][q];
			mx += (float)CX(q) * f[c][q];
			my += (float)CY_(q) * f[c][q];
		}
		float ux = mx / rho, uy = my / rho, usq = ux * ux + uy * uy;
		size_t o = (size_t)(y0 + c) * nx + x;
#pragma unroll
		for (int q = 0; q < 9; q++)
			fout[q * plane + o] = f[c][q] - omega * (f[c][q] - feq(q, rho, ux, uy, usq));
	}
#else
#pragma unroll
	for (int c = 0; c < CY; c++) {
		int y = y0 + c;
		int ys[3] = {y == 0 ? ny - 1 : y - 1, y, y == ny - 1 ? 0 : y + 1};
		float rho = 0.0f, mx = 0.0f, my = 0.0f;
#pragma unroll
		for (int q = 0; q < 9; q++) {
			float v = fin[q * plane + SRC(q, xs, ys)];
			rho += v;
			mx += (float)CX(q) * v;
			my += (float)CY_(q) * v;
		}
		float ux = mx / rho, uy = my / rho, usq = ux * ux + uy * uy;
		size_t o = (size_t)y * nx + x;
		/* fin and fout may alias as far as the compiler knows, so each
		 * value is read again after the previous store. */
#pragma unroll
		for (int q = 0; q < 9; q++) {
			float v = fin[q * plane + SRC(q, xs, ys)];
			fout[q * plane + o] = v - omega * (v - feq(q, rho, ux, uy, usq));
		}
	}
#endif
}

extern "C" __global__ void lbm_naive(const float *fin, float *fout, int nx, int ny, float omega)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= nx || y >= ny)
		return;
	size_t plane = (size_t)nx * ny;
	float f[9], rho = 0.0f, mx = 0.0f, my = 0.0f;
	for (int q = 0; q < 9; q++) {
		int sx = (x - CX(q) + nx) % nx, sy = (y - CY_(q) + ny) % ny;
		f[q] = fin[q * plane + (size_t)sy * nx + sx];
		rho += f[q];
		mx += (float)CX(q) * f[q];
		my += (float)CY_(q) * f[q];
	}
	float ux = mx / rho, uy = my / rho, usq = ux * ux + uy * uy;
	for (int q = 0; q < 9; q++)
		fout[q * plane + (size_t)y * nx + x] = f[q] - omega * (f[q] - feq(q, rho, ux, uy, usq));
}
