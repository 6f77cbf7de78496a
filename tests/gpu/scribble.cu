// scribble.cu — kernels that write their input buffer, for the check that a
// configuration cannot change what the next ones compute:
//   0 correct, 1 correct outputs but writes its input y afterwards,
//   2 correct (after 1 it sees the restored input only if inputs are restored)
#ifndef KIND
#define KIND 0
#endif

extern "C" __global__ void scribble(float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = y[i];
	x[i] = 2.0f * v;
#if KIND == 1
	if (i % 64 == 5)
		y[i] = v + 1.0f;
#endif
}

extern "C" __global__ void scribble_ref(float *x, const float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = 2.0f * y[i];
}
