/* stencil2d.cu: 9-point star stencil, register-tiled in x and y (held-out
 * space).  The input is (n + 4)^2 with a halo of 2. */
#ifndef BX
#define BX 64
#endif
#ifndef BY
#define BY 4
#endif
#ifndef OX
#define OX 1
#endif
#ifndef OY
#define OY 4
#endif
#define C0 0.5f
#define C1 0.1f
#define C2 0.025f
extern "C" __global__ void stencil2d(const float *a, float *b, int n)
{
	int w = n + 4;
	int x0 = blockIdx.x * BX * OX + threadIdx.x + 2;
	int y0 = (blockIdx.y * BY + threadIdx.y) * OY + 2;
#pragma unroll
	for (int ox = 0; ox < OX; ox++) {
		int x = x0 + ox * BX;
		const float *col = a + x;
		float m2 = col[(size_t)(y0 - 2) * w], m1 = col[(size_t)(y0 - 1) * w];
		float c = col[(size_t)y0 * w], p1 = col[(size_t)(y0 + 1) * w];
#pragma unroll
		for (int oy = 0; oy < OY; oy++) {
			int y = y0 + oy;
			float p2 = col[(size_t)(y + 2) * w];
			const float *r = a + (size_t)y * w + x;
			float v = C0 * c + C1 * (m1 + p1 + r[-1] + r[1]) +
				  C2 * (m2 + p2 + r[-2] + r[2]);
			b[(size_t)(y - 2) * n + x - 2] = v;
			m2 = m1;
			m1 = c;
			c = p1;
			p1 = p2;
		}
	}
}
extern "C" __global__ void stencil2d_naive(const float *a, float *b, int n)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x + 2, y = blockIdx.y * blockDim.y + threadIdx.y + 2;
	int w = n + 4;
	const float *r = a + (size_t)y * w + x;
	b[(size_t)(y - 2) * n + x - 2] = C0 * r[0] + C1 * (r[-w] + r[w] + r[-1] + r[1]) +
					 C2 * (r[-2 * w] + r[2 * w] + r[-2] + r[2]);
}
