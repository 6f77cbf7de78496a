/* sharedtab.cu — every warp reads the whole of a 16 KiB table at each
 * step, a sector's loads 512 of the warp's sectors apart (an HMM's
 * transitions through __ldg): one table for all warps, live once. */
extern "C" __global__ void sweep(const float *__restrict__ tab, float *out, int steps)
{
	unsigned lane = threadIdx.x & 31;
	float a = 0;
#pragma unroll 1
	for (int s = 0; s < steps; s++)
		for (int i = 0; i < 4096; i += 32)
			a += __ldg(&tab[i + lane]) * (float)(s + 1);
	out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
