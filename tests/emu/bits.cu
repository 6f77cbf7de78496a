/* bits.cu — a chain of n population counts a thread, each of the last:
 * PTX popc, which the SM issues on the SFU's pipe. */
extern "C" __global__ void popchain(unsigned *out, int n)
{
	unsigned r = threadIdx.x * 2654435761u + 1;
	for (int i = 0; i < n; i++)
		r = __popc(r) + r;
	out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}
