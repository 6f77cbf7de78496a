/* spmv.cu: CSR sparse matrix times vector (held-out space). */
#ifndef TPR
#define TPR 8
#endif
#ifndef TPB
#define TPB 256
#endif
#ifndef LDG
#define LDG 1
#endif
#if LDG
#define LOADX(p) __ldg(p)
#else
#define LOADX(p) (*(p))
#endif
extern "C" __global__ void spmv(const int *rowptr, const int *col, const float *val,
				const float *x, float *y, int rows)
{
	int g = blockIdx.x * TPB + threadIdx.x;
	int row = g / TPR, lane = g % TPR;
	float s = 0;
	if (row < rows) {
		int end = rowptr[row + 1];
		for (int k = rowptr[row] + lane; k < end; k += TPR)
			s += val[k] * LOADX(&x[col[k]]);
	}
#if TPR > 1
	for (int d = TPR / 2; d >= 1; d /= 2)
		s += __shfl_down_sync(0xffffffffu, s, d, TPR);
#endif
	if (row < rows && lane == 0)
		y[row] = s;
}
extern "C" __global__ void spmv_naive(const int *rowptr, const int *col, const float *val,
				      const float *x, float *y, int rows)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r < rows) {
		float s = 0;
		for (int k = rowptr[r]; k < rowptr[r + 1]; k++)
			s += val[k] * x[col[k]];
		y[r] = s;
	}
}
