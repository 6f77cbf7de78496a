/* hgemv.cu: y = A x for a half-precision row-major matrix A and a half
 * vector x, float results; one warp RPW rows, loads of VEC halves (a
 * half2, a uint2 or a uint4), products and sums in float, x read as halves
 * through __ldg or staged once a block in shared memory as floats
 * (held-out space).  The reference is in hgemv_ref.cu. */
#include <cuda_fp16.h>

#ifndef TPB
#define TPB 256
#endif
#ifndef VEC
#define VEC 8
#endif
#ifndef RPW
#define RPW 2
#endif
#ifndef XS
#define XS 0
#endif

#define WARPS (TPB / 32)
#define H2 (VEC / 2)		/* half2 pairs a load */

/* The load type of VEC halves: one instruction of 4, 8 or 16 bytes. */
#if VEC == 2
typedef unsigned hv_t;
#elif VEC == 4
typedef uint2 hv_t;
#else
typedef uint4 hv_t;
#endif

/* The VEC halves of a load as floats, pair j in f[j].  Every half is
 * exact in float, and so is the product of two of them (22 significant
 * bits), so a variant's only roundings are its additions. */
static __device__ __forceinline__ void widen(hv_t v, float2 f[H2])
{
	const __half2 *h = reinterpret_cast<const __half2 *>(&v);
#pragma unroll
	for (int j = 0; j < H2; j++)
		f[j] = __half22float2(h[j]);
}

/* Warp w of the grid owns rows w * RPW ... w * RPW + RPW - 1.  Lane l
 * reads loads l, l + 32, ... of each of them, so that a warp's loads of
 * one step are 32 * VEC adjacent halves of a row, and the x values of a
 * step, loaded or read from shared memory once, serve all RPW rows. */
extern "C" __global__ void hgemv(const __half *__restrict__ A, const __half *__restrict__ x,
				 float *__restrict__ y, int k)
{
	int nv = k / VEC;
#if XS
	/* All of x, widened once a block: 4 k bytes of shared memory, which
	 * bound the blocks an SM holds, for no conversion of x in the loop. */
	extern __shared__ float4 xs4[];
	for (int e = threadIdx.x; e < k / 8; e += TPB) {
		float2 f[4];
		uint4 u = __ldg(reinterpret_cast<const uint4 *>(x) + e);
		const __half2 *h = reinterpret_cast<const __half2 *>(&u);
#pragma unroll
		for (int j = 0; j < 4; j++)
			f[j] = __half22float2(h[j]);
		xs4[2 * e] = make_float4(f[0].x, f[0].y, f[1].x, f[1].y);
		xs4[2 * e + 1] = make_float4(f[2].x, f[2].y, f[3].x, f[3].y);
	}
	__syncthreads();
	const float2 *xs2 = reinterpret_cast<const float2 *>(xs4);
#else
	const hv_t *xv = reinterpret_cast<const hv_t *>(x);
#endif
	int lane = threadIdx.x % 32;
	size_t r0 = ((size_t)blockIdx.x * WARPS + threadIdx.x / 32) * RPW;
	const hv_t *av = reinterpret_cast<const hv_t *>(A + r0 * k);
	float acc[RPW];
#pragma unroll
	for (int r = 0; r < RPW; r++)
		acc[r] = 0.0f;
#pragma unroll 2
	for (int e = lane; e < nv; e += 32) {
		float2 xf[H2];
#if XS
#pragma unroll
		for (int j = 0; j < H2; j++)
			xf[j] = xs2[e * H2 + j];
#else
		widen(__ldg(xv + e), xf);
#endif
#pragma unroll
		for (int r = 0; r < RPW; r++) {
			float2 af[H2];
			widen(av[(size_t)r * nv + e], af);
#pragma unroll
			for (int j = 0; j < H2; j++) {
				acc[r] = fmaf(af[j].x, xf[j].x, acc[r]);
				acc[r] = fmaf(af[j].y, xf[j].y, acc[r]);
			}
		}
	}
#pragma unroll
	for (int r = 0; r < RPW; r++) {
#pragma unroll
		for (int s = 16; s > 0; s >>= 1)
			acc[r] += __shfl_xor_sync(0xffffffffu, acc[r], s);
	}
	/* Lane r stores row r0 + r: RPW lanes store at once. */
#pragma unroll
	for (int r = 0; r < RPW; r++)
		if (lane == r)
			y[r0 + r] = acc[r];
}
