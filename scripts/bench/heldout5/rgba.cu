/* rgba.cu: 8-bit RGBA pixels to planar float R, G, B and luminance, with
 * loads of 1, 2 or 4 pixels and stores of 1, 2 or 4 floats (held-out
 * space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef PPT
#define PPT 4
#endif
#ifndef LW
#define LW 4
#endif
#ifndef SV
#define SV 4
#endif

#define SCALE (1.0f / 255.0f)

static __device__ __forceinline__ void unpack(unsigned v, float *r, float *g, float *b, float *l)
{
	*r = (float)(v & 0xffu) * SCALE;
	*g = (float)((v >> 8) & 0xffu) * SCALE;
	*b = (float)((v >> 16) & 0xffu) * SCALE;
	*l = 0.299f * *r + 0.587f * *g + 0.114f * *b;
}

static __device__ __forceinline__ void put(float *p, const float *v)
{
#if SV == 1
	p[0] = v[0];
#elif SV == 2
	*(float2 *)p = make_float2(v[0], v[1]);
#else
	*(float4 *)p = make_float4(v[0], v[1], v[2], v[3]);
#endif
}

extern "C" __global__ void rgba(const unsigned char *__restrict__ img, float *__restrict__ r,
				float *__restrict__ g, float *__restrict__ b,
				float *__restrict__ lum)
{
	size_t p0 = ((size_t)blockIdx.x * TPB + threadIdx.x) * PPT;
	const unsigned *src = (const unsigned *)img + p0;
	unsigned w[PPT];
#pragma unroll
	for (int i = 0; i < PPT; i += LW) {
#if LW == 1
		w[i] = src[i];
#elif LW == 2
		uint2 v = *(const uint2 *)(src + i);
		w[i] = v.x; w[i + 1] = v.y;
#else
		uint4 v = *(const uint4 *)(src + i);
		w[i] = v.x; w[i + 1] = v.y; w[i + 2] = v.z; w[i + 3] = v.w;
#endif
	}
	float fr[PPT], fg[PPT], fb[PPT], fl[PPT];
#pragma unroll
	for (int i = 0; i < PPT; i++)
		unpack(w[i], &fr[i], &fg[i], &fb[i], &fl[i]);
#pragma unroll
	for (int i = 0; i < PPT; i += SV) {
		put(r + p0 + i, fr + i);
		put(g + p0 + i, fg + i);
		put(b + p0 + i, fb + i);
		put(lum + p0 + i, fl + i);
	}
}

extern "C" __global__ void rgba_naive(const unsigned char *img, float *r, float *g, float *b,
				      float *lum, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	const unsigned char *p = img + 4 * (size_t)i;
	float fr = p[0] * SCALE, fg = p[1] * SCALE, fb = p[2] * SCALE;
	r[i] = fr;
	g[i] = fg;
	b[i] = fb;
	lum[i] = 0.299f * fr + 0.587f * fg + 0.114f * fb;
}
