/* saxpy.cu — a scaled vector sum with its scale and coefficients in
 * constant memory, `items` elements per thread, for a T1 file that gives
 * its global size in threads (OpenCL style) and passes scalars.  Every
 * input is checked against what its T1 file fills it with; a thread that
 * finds another value writes its read-only `status` input, which gsearch
 * reports as a wrong configuration. */
__constant__ float scale;
__constant__ double coef[4];

extern "C" __global__ void saxpy(float *out, const float *x, const int *idx, const double *coef_arg,
				 int *status, int n, float a, float scale_arg)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;
	if (tid == 0 && (a != 2.5f || scale != 3.0f || scale_arg != 3.0f))
		status[0] = 1;
	if (tid < 4 && (coef[tid] != 0.5 || coef_arg[tid] != 0.5))
		status[0] = 2;
	for (int k = 0; k < items; k++) {
		int i = tid * items + k;
		if (i >= n)
			return;
		if (!(x[i] >= 0.0f && x[i] < 4.0f))
			status[0] = 3;
		if (idx[i] != i % 7)
			status[0] = 4;
		out[i] = a * scale * x[i] + (float)(coef[i % 4] * idx[i]);
	}
}
