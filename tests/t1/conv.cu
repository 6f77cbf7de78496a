/* conv.cu — a 2-D convolution whose filter lives in constant memory, tiled
 * tile_size_x by tile_size_y outputs per thread: the shape of the T1 files
 * written for Kernel Tuner.  The filter is also checked against the value
 * its T1 file fills it with, and the grid against Kernel Tuner's: a thread
 * that finds another value writes its read-only `status` input, which
 * gsearch reports as a wrong configuration. */
#define FW 5
#define FH 5

__constant__ float d_filter[FW * FH];

extern "C" __global__ void convolution(float *output, const float *input, const float *filter,
				       int *status, int width, int height, float expect)
{
	int tid = threadIdx.y * blockDim.x + threadIdx.x;
	if (blockIdx.x == 0 && blockIdx.y == 0 && tid < FW * FH &&
	    (d_filter[tid] != expect || filter[tid] != expect))
		status[0] = 1 + tid;
	if (tid == 0 && (gridDim.x != (width + block_size_x * tile_size_x - 1) / (block_size_x * tile_size_x) ||
			 gridDim.y != (height + block_size_y * tile_size_y - 1) / (block_size_y * tile_size_y)))
		status[0] = 100;
	int x0 = (blockIdx.x * block_size_x + threadIdx.x) * tile_size_x;
	int y0 = (blockIdx.y * block_size_y + threadIdx.y) * tile_size_y;
	for (int ty = 0; ty < tile_size_y; ty++)
		for (int tx = 0; tx < tile_size_x; tx++) {
			int x = x0 + tx, y = y0 + ty;
			if (x >= width || y >= height)
				continue;
			float sum = 0.0f;
			for (int j = 0; j < FH; j++)
				for (int i = 0; i < FW; i++)
					sum += d_filter[j * FW + i] * input[(y + j) * (width + FW - 1) + x + i];
			output[y * width + x] = sum;
		}
}
