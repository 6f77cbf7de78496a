/* l1spread.cu — lane l of each warp loads word l of line l % g of a table
 * whose lines are 4096 words apart: every lane on its own bank, so one
 * wavefront by the banks, but 32 sectors over g lines (g >= 8); steps
 * loads a thread, each from another row of lines. */
extern "C" __global__ void spread(const float *tab, float *out, int g, int steps)
{
	unsigned lane = threadIdx.x & 31;
	float a = 0;
	for (int s = 0; s < steps; s++)
		a += tab[(lane % g) * 4096 + lane + (s & 7) * 32];
	out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}

/* lane l loads word l + shift of a row of lines: a wavefront by the banks
 * either way, over two adjacent lines unless shift is a multiple of 32 */
extern "C" __global__ void shifted(const float *tab, float *out, int shift, int steps)
{
	unsigned lane = threadIdx.x & 31;
	float a = 0;
	for (int s = 0; s < steps; s++)
		a += tab[lane + shift + (s & 7) * 64];
	out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
