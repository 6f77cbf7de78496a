/* conv11.cu: 2-D convolution with a (2R+1)^2 filter (held-out space). */
#ifndef R
#define R 5
#endif
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif
#ifndef OY
#define OY 2
#endif
#ifndef SMEM
#define SMEM 1
#endif
#define K (2 * R + 1)
__constant__ float cfilt[K * K];
extern "C" __global__ void conv(const float *img, float *out, int n)
{
	int w = n + 2 * R;
	int x0 = blockIdx.x * BX, y0 = blockIdx.y * BY * OY;
	int tx = threadIdx.x, ty = threadIdx.y;
#if SMEM
	__shared__ float tile[BY * OY + 2 * R][BX + 2 * R];
	for (int y = ty; y < BY * OY + 2 * R; y += BY)
		for (int x = tx; x < BX + 2 * R; x += BX)
			tile[y][x] = img[(size_t)(y0 + y) * w + x0 + x];
	__syncthreads();
#endif
#pragma unroll
	for (int o = 0; o < OY; o++) {
		int ly = ty + o * BY;
		float s = 0;
		for (int i = 0; i < K; i++)
#pragma unroll
			for (int j = 0; j < K; j++)
#if SMEM
				s += cfilt[i * K + j] * tile[ly + i][tx + j];
#else
				s += cfilt[i * K + j] * img[(size_t)(y0 + ly + i) * w + x0 + tx + j];
#endif
		out[(size_t)(y0 + ly) * n + x0 + tx] = s;
	}
}
extern "C" __global__ void conv_naive(const float *img, const float *filt, float *out, int n)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	int w = n + 2 * R;
	float s = 0;
	for (int i = 0; i < K; i++)
		for (int j = 0; j < K; j++)
			s += filt[i * K + j] * img[(size_t)(y + i) * w + x + j];
	out[(size_t)y * n + x] = s;
}
