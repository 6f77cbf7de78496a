/* mandel.cu: a Mandelbrot escape-time image, PPT pixels a thread, adjacent
 * or BX apart (held-out space). */
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 4
#endif
#ifndef PPT
#define PPT 1
#endif
#ifndef STRIDED
#define STRIDED 0
#endif

#define MAXIT 128

/* The iteration count of pixel (px, py).  Every product and sum is one
 * round-to-nearest operation in a fixed order, so that no variant and not
 * the reference gets a fused multiply-add that would change a count. */
static __device__ __forceinline__ int escape(int px, int py, int w, int h)
{
	float cx = __fadd_rn(-2.0f, __fmul_rn((float)px, __fdiv_rn(2.5f, (float)w)));
	float cy = __fadd_rn(-1.25f, __fmul_rn((float)py, __fdiv_rn(2.5f, (float)h)));
	float zx = 0.0f, zy = 0.0f;
	int n = 0;
	while (n < MAXIT) {
		float x2 = __fmul_rn(zx, zx), y2 = __fmul_rn(zy, zy);
		if (__fadd_rn(x2, y2) > 4.0f)
			break;
		zy = __fadd_rn(__fmul_rn(__fmul_rn(2.0f, zx), zy), cy);
		zx = __fadd_rn(__fsub_rn(x2, y2), cx);
		n++;
	}
	return n;
}

/* Thread (x, y) of block (bx, by) computes row by * BY + y, columns
 * bx * BX * PPT + x * PPT + k (STRIDED 0) or bx * BX * PPT + x + k * BX
 * (STRIDED 1), k < PPT. */
extern "C" __global__ void mandel(int *__restrict__ it, int w, int h)
{
	int py = blockIdx.y * BY + threadIdx.y;
	int col0 = blockIdx.x * (BX * PPT);
	for (int k = 0; k < PPT; k++) {
#if STRIDED
		int px = col0 + threadIdx.x + k * BX;
#else
		int px = col0 + threadIdx.x * PPT + k;
#endif
		it[(size_t)py * w + px] = escape(px, py, w, h);
	}
}

/* One thread a pixel, written out without the shared helper. */
extern "C" __global__ void mandel_naive(int *it, int w, int h)
{
	int px = blockIdx.x * blockDim.x + threadIdx.x;
	int py = blockIdx.y * blockDim.y + threadIdx.y;
	if (px >= w || py >= h)
		return;
	float cx = __fadd_rn(-2.0f, __fmul_rn((float)px, __fdiv_rn(2.5f, (float)w)));
	float cy = __fadd_rn(-1.25f, __fmul_rn((float)py, __fdiv_rn(2.5f, (float)h)));
	float zx = 0.0f, zy = 0.0f;
	int n;
	for (n = 0; n < MAXIT; n++) {
		float x2 = __fmul_rn(zx, zx), y2 = __fmul_rn(zy, zy);
		if (__fadd_rn(x2, y2) > 4.0f)
			break;
		float t = __fmul_rn(2.0f, zx);
		zy = __fadd_rn(__fmul_rn(t, zy), cy);
		zx = __fadd_rn(__fsub_rn(x2, y2), cx);
	}
	it[(size_t)py * w + px] = n;
}
