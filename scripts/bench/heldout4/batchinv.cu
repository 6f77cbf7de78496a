/* batchinv.cu: the inverses of a batch of small dense matrices by
 * Gauss-Jordan elimination without pivoting, MPT matrices a thread, read
 * from an array of matrices or an interleaved copy, the elimination unrolled
 * into registers or kept in loops over a local-memory array (held-out
 * space). */
#ifndef TPB
#define TPB 128
#endif
#ifndef MPT
#define MPT 1
#endif
#ifndef LAYOUT
#define LAYOUT 0
#endif
#ifndef UNROLL
#define UNROLL 1
#endif
#ifndef MN
#define MN 8
#endif
#define NE (MN * MN)

/* Every loop of the kernel carries BI_LOOP: fully unrolled, each index is a
 * constant and the matrices live in registers; with "unroll 1" the indices
 * are computed at run time and the array goes to local memory. */
#if UNROLL
#define BI_LOOP _Pragma("unroll")
#else
#define BI_LOOP _Pragma("unroll 1")
#endif

/* Thread t of block b owns matrices b * TPB * MPT + t + j * TPB (j < MPT).
 * aos holds matrix m's entries at m * NE + e (row-major), il the same
 * matrices with entry e of matrix m at e * nb + m, so that a warp's load of
 * one entry is one line.  The inverses are written as an array of
 * matrices, in place of the input's entries, whatever the input layout.
 * The bound caps registers so that every block size launches; the larger
 * MPT spill under it. */
extern "C" __global__ void __launch_bounds__(TPB) batchinv(const float *__restrict__ aos,
							  const float *__restrict__ il,
							  float *__restrict__ out, int nb)
{
	size_t base = (size_t)blockIdx.x * (TPB * MPT) + threadIdx.x;
	float a[MPT][NE];
	BI_LOOP
	for (int j = 0; j < MPT; j++) {
		size_t m = base + (size_t)j * TPB;
		BI_LOOP
		for (int e = 0; e < NE; e++) {
#if LAYOUT
			a[j][e] = il[(size_t)e * nb + m];
#else
			a[j][e] = aos[m * NE + e];
#endif
		}
	}
	/* In-place Gauss-Jordan: scale pivot row k by 1 / a_kk (the pivot
	 * entry becomes that reciprocal), then clear column k of every other
	 * row, whose entry becomes -a_rk / a_kk.  After MN steps a holds
	 * the inverse. */
	BI_LOOP
	for (int k = 0; k < MN; k++) {
		BI_LOOP
		for (int j = 0; j < MPT; j++) {
			float p = 1.0f / a[j][k * MN + k];
			a[j][k * MN + k] = 1.0f;
			BI_LOOP
			for (int c = 0; c < MN; c++)
				a[j][k * MN + c] *= p;
			BI_LOOP
			for (int r = 0; r < MN; r++) {
				if (r == k)
					continue;
				float f = a[j][r * MN + k];
				a[j][r * MN + k] = 0.0f;
				BI_LOOP
				for (int c = 0; c < MN; c++)
					a[j][r * MN + c] -= f * a[j][k * MN + c];
			}
		}
	}
	BI_LOOP
	for (int j = 0; j < MPT; j++) {
		size_t m = base + (size_t)j * TPB;
		BI_LOOP
		for (int e = 0; e < NE; e++)
			out[m * NE + e] = a[j][e];
	}
}

/* One thread a matrix, in double: Gauss-Jordan on the augmented matrix
 * [A | I], reading the array of matrices. */
extern "C" __global__ void batchinv_naive(const float *aos, float *out, int nb)
{
	int m = blockIdx.x * blockDim.x + threadIdx.x;
	if (m >= nb)
		return;
	double w[MN][2 * MN];
	for (int r = 0; r < MN; r++)
		for (int c = 0; c < MN; c++) {
			w[r][c] = aos[(size_t)m * NE + r * MN + c];
			w[r][MN + c] = r == c ? 1.0 : 0.0;
		}
	for (int k = 0; k < MN; k++) {
		double p = w[k][k];
		for (int c = 0; c < 2 * MN; c++)
			w[k][c] /= p;
		for (int r = 0; r < MN; r++) {
			if (r == k)
				continue;
			double f = w[r][k];
			for (int c = 0; c < 2 * MN; c++)
				w[r][c] -= f * w[k][c];
		}
	}
	for (int r = 0; r < MN; r++)
		for (int c = 0; c < MN; c++)
			out[(size_t)m * NE + r * MN + c] = (float)w[r][MN + c];
}
