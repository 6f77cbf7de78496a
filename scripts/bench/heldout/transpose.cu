/* transpose.cu: out = in^T for an n x n float matrix (held-out space). */
#ifndef TILE
#define TILE 32
#endif
#ifndef ROWS
#define ROWS 8
#endif
#ifndef SMEM
#define SMEM 1
#endif
#ifndef PAD
#define PAD 1
#endif
extern "C" __global__ void transpose(const float *in, float *out, int n)
{
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;
#if SMEM
	__shared__ float tile[TILE][TILE + PAD];
	for (int j = 0; j < TILE; j += ROWS)
		tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += ROWS)
		out[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
#else
	for (int j = 0; j < TILE; j += ROWS)
		out[(size_t)x * n + y + j] = in[(size_t)(y + j) * n + x];
#endif
}
extern "C" __global__ void transpose_naive(const float *in, float *out, int n)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < n && y < n)
		out[(size_t)x * n + y] = in[(size_t)y * n + x];
}
