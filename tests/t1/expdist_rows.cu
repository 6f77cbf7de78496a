/* expdist_rows.cu — n_y_blocks rows of blocks each sum a strided share of a
 * vector, the grid given by an expression of the parameters in ProblemSize
 * and a block from Kernel Tuner's block_size_x convention.  The kernel
 * checks the geometry it was launched with and its inputs: a thread that
 * finds them otherwise writes its read-only `status` input, which gsearch
 * reports as a wrong configuration. */
extern "C" __global__ void expdist(double *cost, const float *a, const int *ones, int *status, int n)
{
	int x = (blockIdx.x * blockDim.x + threadIdx.x) * tile_size_x;
	if (threadIdx.x == 0 && (blockDim.x != block_size_x || blockDim.y != 1 || gridDim.y != n_y_blocks ||
				 gridDim.x != (n + block_size_x * tile_size_x - 1) / (block_size_x * tile_size_x)))
		status[0] = 1;
	for (int t = 0; t < tile_size_x; t++) {
		int i = x + t;
		if (i >= n)
			return;
		if (ones[i] != 1 || !(a[i] >= 0.0f && a[i] < 1.0f))
			status[0] = 2;
		cost[blockIdx.y * n + i] = (double)a[i] * (blockIdx.y + 1);
	}
}
