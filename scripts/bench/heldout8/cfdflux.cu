/* cfdflux.cu: the flux step of a finite-volume Euler solver on a mesh
 * given by a neighbour list: each cell gathers its four neighbours' five
 * conserved variables and sums Rusanov fluxes over its faces; the cell
 * state in three layouts, read with plain loads or __ldg, CPT cells a
 * thread (held-out space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef CPT
#define CPT 1
#endif
#ifndef LAYOUT
#define LAYOUT 1
#endif
#ifndef LDG
#define LDG 1
#endif

#define GAMMA 1.4f

#if LDG
#define LD(p) __ldg(p)
#else
#define LD(p) (*(p))
#endif

/* The five variables of cell c (density, three momenta, total energy).
 * LAYOUT 0: five planes of n floats; 1: a float4 of the first four and the
 * energy from the fifth plane; 2: eight floats a cell (three of padding),
 * so that one 32-byte sector holds the whole cell. */
static __device__ __forceinline__ void load_cell(int c, const float *qs, const float4 *q4,
						 const float4 *q8, int n, float *s)
{
#if LAYOUT == 0
	s[0] = LD(&qs[c]);
	s[1] = LD(&qs[(size_t)n + c]);
	s[2] = LD(&qs[2 * (size_t)n + c]);
	s[3] = LD(&qs[3 * (size_t)n + c]);
	s[4] = LD(&qs[4 * (size_t)n + c]);
#elif LAYOUT == 1
	float4 a = LD(&q4[c]);
	s[0] = a.x;
	s[1] = a.y;
	s[2] = a.z;
	s[3] = a.w;
	s[4] = LD(&qs[4 * (size_t)n + c]);
#else
	float4 a = LD(&q8[2 * (size_t)c]);
	s[0] = a.x;
	s[1] = a.y;
	s[2] = a.z;
	s[3] = a.w;
	/* Only the energy of the second half is needed: a scalar load of the
	 * same sector spares three registers. */
	s[4] = LD((const float *)&q8[2 * (size_t)c + 1]);
#endif
}

/* Pressure from the ideal-gas law, and the reciprocal density that the
 * velocities reuse. */
static __device__ __forceinline__ float pressure(const float *s, float ir)
{
	return (GAMMA - 1.0f) * (s[4] - 0.5f * (s[1] * s[1] + s[2] * s[2] + s[3] * s[3]) * ir);
}

/* Subtract the Rusanov flux through the face whose outward normal is sgn
 * times axis DIM (0 x, 1 y) from acc.  L is the cell with its pressure,
 * sound speed and reciprocal density, R the neighbour. */
template <int DIM>
static __device__ __forceinline__ void face(const float *L, float pL, float cL, float iL,
					    const float *R, float sgn, float *acc)
{
	float iR = 1.0f / R[0];
	float pR = pressure(R, iR);
	float cR = sqrtf(GAMMA * pR * iR);
	float uL = sgn * L[1 + DIM] * iL;
	float uR = sgn * R[1 + DIM] * iR;
	float a = fmaxf(fabsf(uL) + cL, fabsf(uR) + cR);
	float f[5];
	f[0] = L[0] * uL + R[0] * uR;
	f[1] = L[1] * uL + R[1] * uR;
	f[2] = L[2] * uL + R[2] * uR;
	f[3] = L[3] * uL + R[3] * uR;
	f[4] = (L[4] + pL) * uL + (R[4] + pR) * uR;
	f[1 + DIM] += sgn * (pL + pR);
#pragma unroll
	for (int v = 0; v < 5; v++)
		acc[v] -= 0.5f * (f[v] - a * (R[v] - L[v]));
}

/* Thread t of block b takes cells b * TPB * CPT + t + j * TPB (j < CPT):
 * its own cells' loads and stores are a warp's adjacent words, and all CPT
 * neighbours of one face are gathered before any of their fluxes, so that
 * the gathers of different cells overlap.  res holds five planes of n. */
extern "C" __global__ void cfdflux(const float *qs, const float4 *q4, const float4 *q8,
				   const int4 *nb, float *res, int n)
{
	int c0 = blockIdx.x * (TPB * CPT) + threadIdx.x;
	float L[CPT][5], pL[CPT], cL[CPT], iL[CPT], acc[CPT][5];
	int4 nbr[CPT];
#pragma unroll
	for (int j = 0; j < CPT; j++) {
		int c = c0 + j * TPB;
		nbr[j] = LD(&nb[c]);
		load_cell(c, qs, q4, q8, n, L[j]);
	}
#pragma unroll
	for (int j = 0; j < CPT; j++) {
		iL[j] = 1.0f / L[j][0];
		pL[j] = pressure(L[j], iL[j]);
		cL[j] = sqrtf(GAMMA * pL[j] * iL[j]);
#pragma unroll
		for (int v = 0; v < 5; v++)
			acc[j][v] = 0.0f;
	}
#pragma unroll
	for (int k = 0; k < 4; k++) {
		float R[CPT][5];
#pragma unroll
		for (int j = 0; j < CPT; j++) {
			int m = k == 0 ? nbr[j].x : k == 1 ? nbr[j].y : k == 2 ? nbr[j].z : nbr[j].w;
			load_cell(m, qs, q4, q8, n, R[j]);
		}
#pragma unroll
		for (int j = 0; j < CPT; j++) {
			if (k < 2)
				face<0>(L[j], pL[j], cL[j], iL[j], R[j], k == 0 ? 1.0f : -1.0f, acc[j]);
			else
				face<1>(L[j], pL[j], cL[j], iL[j], R[j], k == 2 ? 1.0f : -1.0f, acc[j]);
		}
	}
#pragma unroll
	for (int j = 0; j < CPT; j++) {
		int c = c0 + j * TPB;
#pragma unroll
		for (int v = 0; v < 5; v++)
			res[(size_t)v * n + c] = acc[j][v];
	}
}

/* One thread a cell, in double: the state from the five planes, the faces
 * in a loop with their normals from a table. */
extern "C" __global__ void cfdflux_naive(const float *qs, const int *nb, float *res, int n)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c >= n)
		return;
	const double nx[4] = {1.0, -1.0, 0.0, 0.0};
	const double ny[4] = {0.0, 0.0, 1.0, -1.0};
	double sum[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
	double L[5], R[5];
	for (int v = 0; v < 5; v++)
		L[v] = qs[(size_t)v * n + c];
	double pL = 0.4 * (L[4] - 0.5 * (L[1] * L[1] + L[2] * L[2] + L[3] * L[3]) / L[0]);
	double cL = sqrt(1.4 * pL / L[0]);
	for (int k = 0; k < 4; k++) {
		int m = nb[4 * c + k];
		for (int v = 0; v < 5; v++)
			R[v] = qs[(size_t)v * n + m];
		double pR = 0.4 * (R[4] - 0.5 * (R[1] * R[1] + R[2] * R[2] + R[3] * R[3]) / R[0]);
		double cR = sqrt(1.4 * pR / R[0]);
		double uL = (L[1] * nx[k] + L[2] * ny[k]) / L[0];
		double uR = (R[1] * nx[k] + R[2] * ny[k]) / R[0];
		double a = fmax(fabs(uL) + cL, fabs(uR) + cR);
		double fL[5] = {L[0] * uL, L[1] * uL + pL * nx[k], L[2] * uL + pL * ny[k], L[3] * uL,
				(L[4] + pL) * uL};
		double fR[5] = {R[0] * uR, R[1] * uR + pR * nx[k], R[2] * uR + pR * ny[k], R[3] * uR,
				(R[4] + pR) * uR};
		for (int v = 0; v < 5; v++)
			sum[v] -= 0.5 * (fL[v] + fR[v]) - 0.5 * a * (R[v] - L[v]);
	}
	for (int v = 0; v < 5; v++)
		res[(size_t)v * n + c] = (float)sum[v];
}
