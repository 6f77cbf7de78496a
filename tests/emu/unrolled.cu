/* unrolled.cu — a loop of independent loads summed into one chain: each
 * iteration's load waits at the loop's branch for the previous sum where
 * the machine code keeps the loop, and does not where ptxas unrolled it. */
extern "C" __global__ void sum(const float *tab, float *out, int n)
{
	unsigned lane = threadIdx.x & 31;
	float a = 0;
	for (int i = 0; i < n; i++)
		a += tab[i * 32 + lane];
	out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
