/* stencil3d.cu: a 7-point stencil over an n^3 grid, ZT planes per thread (held-out space). */
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 4
#endif
#ifndef ZT
#define ZT 4
#endif
extern "C" __global__ void stencil3d(const float *in, float *out, int n)
{
	int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
	if (x < 1 || x >= n - 1 || y < 1 || y >= n - 1)
		return;
	size_t p = (size_t)n * n;
	for (int z = blockIdx.z * ZT; z < blockIdx.z * ZT + ZT; z++) {
		if (z < 1 || z >= n - 1)
			continue;
		size_t c = (size_t)z * p + (size_t)y * n + x;
		out[c] = 0.4f * in[c] + 0.1f * (in[c - 1] + in[c + 1] + in[c - n] + in[c + n] +
						 in[c - p] + in[c + p]);
	}
}
extern "C" __global__ void stencil3d_naive(const float *in, float *out, int n)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	int z = blockIdx.z;
	if (x < 1 || x >= n - 1 || y < 1 || y >= n - 1 || z < 1 || z >= n - 1)
		return;
	size_t p = (size_t)n * n, c = (size_t)z * p + (size_t)y * n + x;
	out[c] = 0.4f * in[c] + 0.1f * (in[c - 1] + in[c + 1] + in[c - n] + in[c + n] + in[c - p] +
					 in[c + p]);
}
