/* hgemv_ref.cu: the reference of hgemv.space, one thread a row, in a file
 * of its own: gsearch compiles a reference without the include path it
 * gives the variants, where <cuda_fp16.h> is found, so the halves are
 * widened here by the PTX conversion itself. */

static __device__ float half_to_float(unsigned short h)
{
	float f;
	asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
	return f;
}

/* Row r's products in column order, summed in float. */
extern "C" __global__ void hgemv_naive(const unsigned short *A, const unsigned short *x, float *y,
				       int m, int k)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= m)
		return;
	float s = 0.0f;
	for (int c = 0; c < k; c++)
		s = fmaf(half_to_float(A[(size_t)r * k + c]), half_to_float(x[c]), s);
	y[r] = s;
}
