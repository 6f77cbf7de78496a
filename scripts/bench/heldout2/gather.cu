/* gather.cu: out[i] = in[idx[i]] with vector index loads and stores (held-out space). */
#ifndef VEC
#define VEC 1
#endif
#ifndef ITEMS
#define ITEMS 4
#endif
#ifndef TPB
#define TPB 256
#endif
#ifndef LDG
#define LDG 1
#endif

#if LDG
#define LD(p) __ldg(p)
#else
#define LD(p) (*(p))
#endif

#if VEC == 1
typedef int ivec;
typedef float fvec;
#define GATHER(r, j) ((r) = LD(in + (j)))
#elif VEC == 2
typedef int2 ivec;
typedef float2 fvec;
#define GATHER(r, j) ((r).x = LD(in + (j).x), (r).y = LD(in + (j).y))
#else
typedef int4 ivec;
typedef float4 fvec;
#define GATHER(r, j) ((r).x = LD(in + (j).x), (r).y = LD(in + (j).y), \
		(r).z = LD(in + (j).z), (r).w = LD(in + (j).w))
#endif

/* All index loads are issued before any gather, and all gathers before any
 * store, so a thread has ITEMS * VEC independent loads in flight. */
extern "C" __global__ void gather(const float *in, const int *idx, float *out)
{
	size_t base = (size_t)blockIdx.x * TPB * ITEMS + threadIdx.x;
	const ivec *iv = (const ivec *)idx;
	fvec *ov = (fvec *)out;
	ivec j[ITEMS];
	fvec r[ITEMS];
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		j[k] = iv[base + k * TPB];
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		GATHER(r[k], j[k]);
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		ov[base + k * TPB] = r[k];
}

extern "C" __global__ void gather_naive(const float *in, const int *idx, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[idx[i]];
}
