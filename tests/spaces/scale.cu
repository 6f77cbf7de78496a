// scale.cu - x[i] *= a, with a naive twin for a reference; the spaces
// beside it call it with arguments right and wrong.
extern "C" __global__ void scale(float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= a;
}

extern "C" __global__ void scale_naive(float *x, float a, int n)
{
	for (int i = 0; i < n; i++)
		x[i] *= a;
}
