/* coulomb.cu: direct Coulomb summation of the electrostatic potential of
 * float4 atoms (x, y, z, q) on a 2-D slice of a lattice, the atoms read
 * from __constant__ chunks, shared-memory tiles or __ldg, PPT points a
 * thread along x, 1 / sqrtf or rsqrtf (held-out space). */
#ifndef MEM
#define MEM 0			/* 0 constant chunks, 1 shared tiles, 2 __ldg */
#endif
#ifndef PPT
#define PPT 1
#endif
#ifndef BY
#define BY 4
#endif
#ifndef RSQ
#define RSQ 1
#endif
#ifndef CHUNK
#define CHUNK 1000		/* atoms a launch when MEM is 0 */
#endif

#define BX 32			/* a warp spans a block row */
#define TPB (BX * BY)

#if RSQ
#define RINV(r2) rsqrtf(r2)
#else
#define RINV(r2) (1.0f / sqrtf(r2))
#endif

__constant__ float4 catoms[CHUNK];

/* Adds atom a's q / r to the PPT points of a thread, which share y and z:
 * dy^2 + dz^2 is worked out once for all of them. */
static __device__ __forceinline__ void add_atom(float4 a, const float *xs, float y, float z, float *acc)
{
	float dy = y - a.y, dz = z - a.z;
	float dyz = fmaf(dy, dy, dz * dz);
#pragma unroll
	for (int k = 0; k < PPT; k++) {
		float dx = xs[k] - a.x;
		acc[k] = fmaf(a.w, RINV(fmaf(dx, dx, dyz)), acc[k]);
	}
}

/* Thread (tx, ty) of block (bx, by) owns points x = bx * BX * PPT + tx +
 * k * BX (k < PPT) of row by * BY + ty, so that at every k a warp stores
 * 32 adjacent floats.  Each launch adds its atoms' potential to pot: with
 * MEM 0 the launch of chunk c sees atoms c * CHUNK ... in catoms and count
 * is CHUNK; otherwise one launch reads all count atoms from atoms. */
extern "C" __global__ void __launch_bounds__(TPB) coulomb(const float4 *__restrict__ atoms,
							 float *__restrict__ pot, int count, int nx,
							 float h, float z)
{
	int iy = blockIdx.y * BY + threadIdx.y;
	int ix0 = blockIdx.x * (BX * PPT) + threadIdx.x;
	float y = iy * h;
	float xs[PPT], acc[PPT];
#pragma unroll
	for (int k = 0; k < PPT; k++) {
		xs[k] = (ix0 + k * BX) * h;
		acc[k] = 0.0f;
	}
#if MEM == 0
#pragma unroll 4
	for (int a = 0; a < CHUNK; a++)
		add_atom(catoms[a], xs, y, z, acc);
#elif MEM == 1
	__shared__ float4 tile[TPB];
	int tid = threadIdx.y * BX + threadIdx.x;
	for (int base = 0; base < count; base += TPB) {
		__syncthreads();
		if (base + tid < count)
			tile[tid] = atoms[base + tid];
		__syncthreads();
		int n = min(TPB, count - base);
#pragma unroll 4
		for (int a = 0; a < n; a++)
			add_atom(tile[a], xs, y, z, acc);
	}
#else
#pragma unroll 4
	for (int a = 0; a < count; a++)
		add_atom(__ldg(&atoms[a]), xs, y, z, acc);
#endif
	float *row = pot + (size_t)iy * nx;
#pragma unroll
	for (int k = 0; k < PPT; k++)
		row[ix0 + k * BX] += acc[k];
}

/* One thread a point, every atom from global memory, summed in double. */
extern "C" __global__ void coulomb_naive(const float4 *atoms, float *pot, int natoms, int nx, int ny,
					 float h, float z)
{
	int ix = blockIdx.x * blockDim.x + threadIdx.x;
	int iy = blockIdx.y * blockDim.y + threadIdx.y;
	if (ix >= nx || iy >= ny)
		return;
	double x = (double)ix * h, y = (double)iy * h, s = 0.0;
	for (int a = 0; a < natoms; a++) {
		float4 at = atoms[a];
		double dx = x - at.x, dy = y - at.y, dz = (double)z - at.z;
		s += at.w / sqrt(dx * dx + dy * dy + dz * dz);
	}
	pot[(size_t)iy * nx + ix] = (float)s;
}
