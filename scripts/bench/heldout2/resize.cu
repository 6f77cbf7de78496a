/* resize.cu: bilinear resize of a float image, pixel centres mapped and
 * edges clamped (held-out space). */
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif
#ifndef OY
#define OY 1
#endif
#ifndef LDG
#define LDG 1
#endif
#if LDG
#define LOAD(p) __ldg(p)
#else
#define LOAD(p) (*(p))
#endif

/* Source coordinate of output pixel d: its lower neighbour, the next one
 * (clamped) and the weight of the next one. */
static __device__ __forceinline__ void tap(int d, int s, float scale, int *i0, int *i1, float *w)
{
	float c = ((float)d + 0.5f) * scale - 0.5f;
	c = fminf(fmaxf(c, 0.0f), (float)(s - 1));
	int i = (int)c;
	*i0 = i;
	*i1 = min(i + 1, s - 1);
	*w = c - (float)i;
}

extern "C" __global__ void resize(const float *src, float *dst, int s, int d, float scale)
{
	int x = blockIdx.x * BX + threadIdx.x;
	int y0 = blockIdx.y * (BY * OY) + threadIdx.y;
	if (x >= d)
		return;
	int x0, x1;
	float wx;
	tap(x, s, scale, &x0, &x1, &wx);
#pragma unroll
	for (int k = 0; k < OY; k++) {
		int y = y0 + k * BY;
		if (y >= d)
			break;
		int r0, r1;
		float wy;
		tap(y, s, scale, &r0, &r1, &wy);
		const float *p0 = src + (size_t)r0 * s, *p1 = src + (size_t)r1 * s;
		float top = LOAD(p0 + x0) + wx * (LOAD(p0 + x1) - LOAD(p0 + x0));
		float bot = LOAD(p1 + x0) + wx * (LOAD(p1 + x1) - LOAD(p1 + x0));
		dst[(size_t)y * d + x] = top + wy * (bot - top);
	}
}

extern "C" __global__ void resize_naive(const float *src, float *dst, int s, int d, float scale)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= d || y >= d)
		return;
	float cx = ((float)x + 0.5f) * scale - 0.5f, cy = ((float)y + 0.5f) * scale - 0.5f;
	cx = fminf(fmaxf(cx, 0.0f), (float)(s - 1));
	cy = fminf(fmaxf(cy, 0.0f), (float)(s - 1));
	int ix = (int)cx, iy = (int)cy;
	int jx = ix + 1 < s ? ix + 1 : s - 1, jy = iy + 1 < s ? iy + 1 : s - 1;
	float fx = cx - ix, fy = cy - iy;
	float a = src[(size_t)iy * s + ix], b = src[(size_t)iy * s + jx];
	float c = src[(size_t)jy * s + ix], e = src[(size_t)jy * s + jx];
	dst[(size_t)y * d + x] = (1.0f - fy) * ((1.0f - fx) * a + fx * b) + fy * ((1.0f - fx) * c + fx * e);
}
