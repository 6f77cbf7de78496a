/* coverage.cu — one kernel per family of CUDA intrinsics, so that the PTX
 * NVRTC makes of them (sm_75 and sm_90, with and without -use_fast_math)
 * covers what the emulator must decode: integer bit operations, 64-bit and
 * 16-bit arithmetic, conversions with every rounding, float and double
 * math, half-precision conversions, warp functions, atomics of every kind,
 * clocks and fences (redux.sync from sm_80 on), calls passing and returning
 * structures.  Each thread writes its results to out[] at a stride of n. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define OUT(k) out[(k) * n + i]

extern "C" __global__ void bits(const unsigned *in, unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned a = in[i], b = in[(i + 1) % n];
	unsigned long long w = ((unsigned long long)a << 32) | b;
	OUT(0) = __popc(a);
	OUT(1) = __clz(a);
	OUT(2) = __brev(a);
	OUT(3) = __ffs(a);
	OUT(4) = __byte_perm(a, b, 0x5140);
	OUT(5) = __funnelshift_l(a, b, b & 63);
	OUT(6) = __funnelshift_rc(a, b, b & 63);
	OUT(7) = __umulhi(a, b);
	OUT(8) = (unsigned)__mulhi((int)a, (int)b);
	OUT(9) = __umul24(a, b);
	OUT(10) = (unsigned)__mul24((int)a, (int)b);
	OUT(11) = __usad(a, b, 7u);
	OUT(12) = (unsigned)__sad((int)a, (int)b, 3u);
	OUT(13) = __popcll(w);
	OUT(14) = __clzll(w);
	OUT(15) = (unsigned)(__brevll(w) >> 7);
	OUT(16) = __ffsll((long long)w);
	OUT(17) = (unsigned)(__umul64hi(w, w + 12345));
	OUT(18) = (unsigned)(__mul64hi((long long)w, -(long long)w));
	OUT(19) = (a >> (b & 31)) ^ ((int)a >> (b & 31)) ^ (a << (b & 7));
	OUT(20) = (unsigned)((w >> (b & 63)) ^ ((long long)w >> (a & 63)));
	OUT(21) = (a & 0x00ff00ffu) | (~b & 0xff00ff00u);
	OUT(22) = (unsigned)(w / (b | 1)) + (unsigned)(w % (a | 1));
	OUT(23) = (unsigned)((long long)w / -(long long)(b | 1));
	OUT(24) = __hadd((int)a, (int)b) + __rhadd((int)a, (int)b) + __uhadd(a, b);
	OUT(25) = __vadd4(a, b) + __vhaddu4(a, b);
	OUT(26) = (unsigned)__dp4a((int)a, (int)b, 5);
	OUT(27) = min(a, b) + (unsigned)max((int)a, (int)b) + (unsigned)abs((int)a);
	OUT(28) = (unsigned)llmin((long long)w, -(long long)a) + (unsigned)llabs((long long)w);
	OUT(29) = (unsigned)(short)a * (unsigned short)b + (unsigned char)(a >> 3);
	OUT(30) = (unsigned)((signed char)a / ((signed char)b | 1)) +
		  (unsigned)((unsigned short)a % ((unsigned short)b | 1));
}

extern "C" __global__ void fmath(const float *x, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float a = x[i], b = x[(i + 1) % n];
	OUT(0) = sqrtf(fabsf(a));
	OUT(1) = rsqrtf(fabsf(a) + 1.0f);
	OUT(2) = expf(a) + exp2f(a) + exp10f(a * 0.1f);
	OUT(3) = logf(fabsf(a) + 1.0f) + log2f(fabsf(b) + 1.0f) + log10f(fabsf(a) + 2.0f);
	OUT(4) = sinf(a) + cosf(b) + tanf(a * 0.25f);
	OUT(5) = powf(fabsf(a) + 0.5f, b);
	OUT(6) = a / b + __fdividef(a, b + 3.0f);
	OUT(7) = fminf(a, b) + fmaxf(a, b) + copysignf(a, b);
	OUT(8) = floorf(a) + ceilf(b) + truncf(a) + rintf(b) + roundf(a);
	OUT(9) = __fadd_rz(a, b) + __fmul_ru(a, b) + __fmaf_rd(a, b, 1.0f) + __fsub_rn(a, b);
	OUT(10) = __frcp_rn(b) + __fsqrt_rd(fabsf(a)) + __fdiv_ru(a, b);
	OUT(11) = __saturatef(a) + __expf(a) + __logf(fabsf(b) + 1.0f) + __sinf(a) + __cosf(b);
	OUT(12) = tanhf(a) + erff(b) + atan2f(a, b) + asinf(a * 0.01f);
	OUT(13) = (float)(isnan(a) + isinf(b) + isfinite(a) + signbit(b));
	OUT(14) = frexpf(a, (int *)&out[14 * n + i]) + ldexpf(b, 3);
	OUT(15) = fmodf(a, b) + remainderf(a, b);
	OUT(16) = __int_as_float(__float_as_int(a) ^ 0x80000000) + (float)__float2int_rn(b);
	OUT(17) = (float)__float2uint_rz(fabsf(a)) + (float)__float2ll_rd(b) +
		  __int2float_rz(__float2int_ru(a)) + __ll2float_rn(__float2ll_rn(b)) +
		  __uint2float_rd((unsigned)i);
	OUT(18) = cbrtf(a) + hypotf(a, b) + expm1f(a * 0.01f) + log1pf(fabsf(b));
	OUT(19) = __half2float(__float2half(a)) + __half2float(__float2half_rz(b)) +
		  __bfloat162float(__float2bfloat16(a));
	OUT(20) = normf(2, &x[i & ~1]) + fdimf(a, b) + nextafterf(a, b);
}

extern "C" __global__ void dmath(const double *x, double *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double a = x[i], b = x[(i + 1) % n];
	OUT(0) = sqrt(fabs(a)) + rsqrt(fabs(b) + 1.0) + 1.0 / b;
	OUT(1) = exp(a) + log(fabs(b) + 1.0) + pow(fabs(a) + 0.5, b);
	OUT(2) = sin(a) + cos(b) + tan(a * 0.25);
	OUT(3) = a / b + fma(a, b, 1.0) + fmin(a, b) + fmax(a, b) + copysign(a, b);
	OUT(4) = floor(a) + ceil(b) + trunc(a) + rint(b) + round(a);
	OUT(5) = __dadd_rz(a, b) + __dmul_ru(a, b) + __fma_rd(a, b, 1.0) + __ddiv_rn(a, b) +
		 __drcp_rn(b) + __dsqrt_ru(fabs(a));
	OUT(6) = (double)__double2int_rn(a) + (double)__double2uint_rz(fabs(b)) +
		 (double)__double2ll_rd(a) + __int2double_rn(i) + __ll2double_rz((long long)i << 40) +
		 (double)__double2float_rd(b) + __longlong_as_double(__double_as_longlong(a) ^ 1) +
		 __hiloint2double(__double2hiint(a), __double2loint(b));
	OUT(7) = (double)(isnan(a) + isinf(b)) + erf(a) + atan2(a, b) + tanh(b) + cbrt(a);
	OUT(8) = fmod(a, b) + (double)(float)a + (double)(long long)b + (double)(unsigned)fabs(a);
}

extern "C" __global__ void warp(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = i < n ? in[i] : 0;
	unsigned lane = threadIdx.x & 31;
	unsigned m = __activemask();
	int r = __shfl_sync(m, v, (lane * 7) & 31) + __shfl_up_sync(m, v, 5, 8) +
		__shfl_down_sync(m, v, 3, 16) + __shfl_xor_sync(m, v, 9);
	r += __popc(__ballot_sync(m, v & 1)) + __any_sync(m, v > 10) + __all_sync(m, v != 3);
#if __CUDA_ARCH__ >= 800
	r += __reduce_add_sync(m, v) + (int)__reduce_max_sync(m, (unsigned)v) +
	     __reduce_min_sync(m, v) + (int)__reduce_or_sync(m, (unsigned)v);
#endif
	r += __syncthreads_count(v & 2) + __syncthreads_and(v > -5) + __syncthreads_or(v == 7);
	__syncwarp(m);
	unsigned lt, le;
	asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
	asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
	r += __popc(lt) + __popc(le) + (int)(clock() & 1) + (int)(clock64() & 1);
	__threadfence();
	__threadfence_block();
	if (i < n)
		out[i] = r;
}

extern "C" __global__ void atoms(const int *in, int *ip, unsigned *up, unsigned long long *lp,
				 long long *sp, float *fp, double *dp, int n)
{
	__shared__ int sh[8];
	__shared__ float shf[2];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (threadIdx.x < 8)
		sh[threadIdx.x] = 0;
	if (threadIdx.x < 2)
		shf[threadIdx.x] = 0.0f;
	__syncthreads();
	if (i < n) {
		int v = in[i];
		atomicAdd(&ip[0], v);
		atomicSub(&ip[1], v);
		atomicMin(&ip[2], v);
		atomicMax(&ip[3], v);
		atomicAnd(&ip[4], v | 0xff);
		atomicOr(&ip[5], v & 0x0f0);
		atomicXor(&ip[6], v);
		atomicExch(&ip[7], v);
		atomicCAS(&ip[8], 0, v);
		atomicInc(&up[0], 100u);
		atomicDec(&up[1], 100u);
		atomicMin(&up[2], (unsigned)v);
		atomicAdd(&lp[0], (unsigned long long)v);
		atomicMax(&lp[1], (unsigned long long)v);
		atomicCAS(&lp[2], 0ull, (unsigned long long)v);
		atomicExch(&lp[3], (unsigned long long)v);
		atomicMin(&sp[0], (long long)v);
		atomicMax(&sp[1], (long long)v);
		atomicAdd(&fp[0], (float)v);
		atomicExch(&fp[1], (float)v);
		atomicAdd(&dp[0], (double)v);
		atomicAdd(&sh[v & 7], 1);
		atomicMax(&sh[(v >> 3) & 7], v);
		atomicAdd(&shf[v & 1], 0.5f);
		atomicCAS(&sh[7], 0, v);
	}
	__syncthreads();
	if (threadIdx.x < 8)
		atomicAdd(&ip[9 + threadIdx.x], sh[threadIdx.x]);
	if (threadIdx.x < 2)
		atomicAdd(&fp[2 + threadIdx.x], shf[threadIdx.x]);
}

struct pair {
	int a;
	float b;
	double c;
};

__device__ __noinline__ struct pair mkpair(int x, float y)
{
	struct pair p = { x * 3, y * 0.5f, (double)x + y };
	return p;
}

__device__ __noinline__ float dot3(const float *v, const float *w)
{
	return v[0] * w[0] + v[1] * w[1] + v[2] * w[2];
}

/* a structure by value, one returned by a call, an array through a pointer */
extern "C" __global__ void calls(struct pair in, const float *v, double *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	struct pair p = mkpair(in.a + i, in.b);
	float w[3] = { (float)i, p.b, (float)p.a };
	out[i] = p.c + dot3(&v[3 * (i % 4)], w) + in.c;
}

extern "C" __global__ void halves(const __half *h, __half *o, const unsigned short *u, float *f,
				  int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = __half2float(h[i]);
	o[i] = __float2half_rn(x * 2.0f + (float)u[i]);
	f[i] = __half2float(__ushort_as_half(u[i])) + (float)(short)u[i];
}
