/* faults.cu — kernels that fault on a GPU: a store past the end of its
 * buffer, a misaligned word access, __trap(). */
extern "C" __global__ void oob_store(int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i + n] = i; /* every thread writes n elements further on */
}

extern "C" __global__ void misaligned(char *buf, int *out)
{
	int i = threadIdx.x;
	out[i] = *(int *)(buf + 4 * i + 1);
}

extern "C" __global__ void trap_if(const int *in)
{
	if (in[threadIdx.x] < 0)
		__trap();
}
