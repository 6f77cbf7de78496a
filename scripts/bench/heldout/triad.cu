/* triad.cu: a = b + s * c with float, float2 or float4 accesses (held-out
 * space). */
#ifndef VEC
#define VEC 4
#endif
#ifndef TPB
#define TPB 256
#endif
#ifndef ITEMS
#define ITEMS 1
#endif
#if VEC == 4
typedef float4 vec;
#define OP(b, c, s) make_float4(b.x + s * c.x, b.y + s * c.y, b.z + s * c.z, b.w + s * c.w)
#elif VEC == 2
typedef float2 vec;
#define OP(b, c, s) make_float2(b.x + s * c.x, b.y + s * c.y)
#else
typedef float vec;
#define OP(b, c, s) (b + s * c)
#endif
extern "C" __global__ void triad(float *a, const float *b, const float *c, float s)
{
	vec *va = (vec *)a;
	const vec *vb = (const vec *)b, *vc = (const vec *)c;
	size_t base = (size_t)blockIdx.x * TPB * ITEMS + threadIdx.x;
	vec rb[ITEMS], rc[ITEMS];
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		rb[k] = vb[base + k * TPB];
		rc[k] = vc[base + k * TPB];
	}
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		va[base + k * TPB] = OP(rb[k], rc[k], s);
}
extern "C" __global__ void triad_naive(float *a, const float *b, const float *c, float s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		a[i] = b[i] + s * c[i];
}
