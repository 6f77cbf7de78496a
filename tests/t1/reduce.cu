/* reduce.cu — the kernel of expressions.json: each block of 2**LOG_BLOCK
 * threads sums WPT elements a thread of x into partial[blockIdx.x].  The
 * other parameters (SPLIT, SCALE, MODE, FLAG) are there for the file's
 * expressions and change nothing here.  The kernel checks the geometry it
 * was launched with and its input: a thread that finds them otherwise
 * writes its read-only input x, which gsearch reports as a wrong
 * configuration. */
#define BLOCK (1 << LOG_BLOCK)

extern "C" __global__ void reduce_split(float *x, float *partial, unsigned int n)
{
	__shared__ float sum[BLOCK];
	unsigned int t = threadIdx.x, first = blockIdx.x * BLOCK * WPT;
	if (t == 0 && (blockDim.x != BLOCK || gridDim.x != n / WPT / BLOCK))
		x[0] = -1.0f;
	float acc = 0.0f;
	for (unsigned int k = 0; k < WPT; k++) {
		unsigned int i = first + k * BLOCK + t;
		if (i < n) {
			if (x[i] != (float)(i % 17))
				x[0] = -2.0f;
			acc += x[i];
		}
	}
	sum[t] = acc;
	__syncthreads();
	for (unsigned int w = BLOCK / 2; w > 0; w /= 2) {
		if (t < w)
			sum[t] += sum[t + w];
		__syncthreads();
	}
	if (t == 0)
		partial[blockIdx.x] = sum[0];
}
