/* bgemm.cu: a batch of 32x32 float matrix products C = A x B (held-out space,
 * second suite).  Knobs: MPB matrices per block, OPT outputs per thread (rows
 * of one column), SMEM staging (0 none, 1 A and B, 2 B only), KU unroll of
 * the k loop. */
#ifndef MPB
#define MPB 2
#endif
#ifndef OPT
#define OPT 4
#endif
#ifndef SMEM
#define SMEM 1
#endif
#ifndef KU
#define KU 32
#endif
#define DIM 32
#define TPM (DIM * DIM / OPT)		/* threads per matrix */
#define NT (MPB * TPM)			/* threads per block */
#define BG_PRAGMA(x) _Pragma(#x)
#define BG_UNROLL(n) BG_PRAGMA(unroll n)

extern "C" __global__ void bgemm(const float *__restrict__ A, const float *__restrict__ B,
				 float *__restrict__ C)
{
	size_t blk = (size_t)blockIdx.x * MPB * DIM * DIM;
	int t = threadIdx.x;
	int m = t / TPM;		/* the block's matrix of this thread */
	int loc = t % TPM;
	int col = loc % DIM;
	int row0 = (loc / DIM) * OPT;
	size_t mat = blk + (size_t)m * DIM * DIM;
#if SMEM == 1 || SMEM == 2
	__shared__ float sB[MPB * DIM * DIM];
	for (int i = t; i < MPB * DIM * DIM; i += NT)
		sB[i] = B[blk + i];
	const float *b = sB + m * DIM * DIM;
#else
	const float *b = B + mat;
#endif
#if SMEM == 1
	__shared__ float sA[MPB * DIM * DIM];
	for (int i = t; i < MPB * DIM * DIM; i += NT)
		sA[i] = A[blk + i];
	const float *a = sA + m * DIM * DIM;
#else
	const float *a = A + mat;
#endif
#if SMEM
	__syncthreads();
#endif
	float acc[OPT];
#pragma unroll
	for (int r = 0; r < OPT; r++)
		acc[r] = 0.0f;
	BG_UNROLL(KU)
	for (int k = 0; k < DIM; k++) {
		float bk = b[k * DIM + col];
#pragma unroll
		for (int r = 0; r < OPT; r++)
			acc[r] += a[(row0 + r) * DIM + k] * bk;
	}
#pragma unroll
	for (int r = 0; r < OPT; r++)
		C[mat + (row0 + r) * DIM + col] = acc[r];
}

/* One thread per output, everything from global memory. */
extern "C" __global__ void bgemm_naive(const float *A, const float *B, float *C, int nb)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= (size_t)nb * DIM * DIM)
		return;
	size_t mat = i / (DIM * DIM) * (DIM * DIM);
	int row = (int)(i % (DIM * DIM)) / DIM, col = (int)(i % DIM);
	float s = 0.0f;
	for (int k = 0; k < DIM; k++)
		s += A[mat + row * DIM + k] * B[mat + k * DIM + col];
	C[i] = s;
}
