/* intrinsics.cu — single instructions whose exact results the host can
 * compute: byte permutes, funnel shifts, bit fields, 24-bit and high
 * multiplies, shuffles with widths, rounding modes of float arithmetic and
 * conversions, saturation, half precision.  Each thread writes its results
 * in a row of the output arrays. */
#define NI 26
#define NF 24
#define NK 12

extern "C" __global__ void ints(const unsigned *a, const unsigned *b, unsigned *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned x = a[i], y = b[i], r;
	unsigned *o = out + NI * i;
	o[0] = __byte_perm(x, y, y & 0x7777);
	o[1] = __funnelshift_l(x, y, y);
	o[2] = __funnelshift_rc(x, y, y & 63);
	o[3] = __brev(x);
	o[4] = __clz((int)x);
	o[5] = __popc(x);
	o[6] = __ffs((int)x);
	o[7] = (unsigned)__mul24((int)x, (int)y);
	o[8] = __umul24(x, y);
	o[9] = (unsigned)__mulhi((int)x, (int)y);
	o[10] = __umulhi(x, y);
	o[11] = (unsigned)__umul64hi(((unsigned long long)x << 32) | y,
				     ((unsigned long long)y << 32) | x);
	o[12] = __sad((int)x, (int)y, 7u);
	o[13] = __usad(x, y, 7u);
	asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y & 31), "r"((y >> 5) & 31));
	o[14] = r;
	asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y & 31), "r"((y >> 5) & 31));
	o[15] = r;
	asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(y), "r"((y >> 10) & 31),
	    "r"((y >> 15) & 31));
	o[16] = r;
	o[17] = x / (y | 1);
	o[18] = (unsigned)((int)x % (int)(y | 1));
	o[19] = (unsigned)min((int)x, (int)y);
	o[20] = max(x, y);
	o[21] = __shfl_sync(0xffffffffu, x, y & 31);
	o[22] = __shfl_xor_sync(0xffffffffu, x, 5, 8);
	o[23] = __shfl_down_sync(0xffffffffu, x, 3, 16);
	o[24] = (unsigned)__dp4a((int)x, (int)y, 5);
	o[25] = __dp4a(x, y, 5u);
}

extern "C" __global__ void floats(const float *a, const float *b, float *f, int *k,
				  unsigned short *h, double *d)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float x = a[i], y = b[i];
	float *o = f + NF * i;
	o[0] = __fadd_rz(x, y);
	o[1] = __fadd_rd(x, y);
	o[2] = __fadd_ru(x, y);
	o[3] = __fmul_rz(x, y);
	o[4] = __fmul_ru(x, y);
	o[5] = __fdiv_rn(x, y);
	o[6] = __fdiv_rz(x, y);
	o[7] = __frcp_rd(x);
	o[8] = __fsqrt_ru(fabsf(x));
	o[9] = __fmaf_rz(x, y, 1.0f);
	o[10] = __saturatef(x);
	o[11] = fminf(x, y);
	o[12] = fmaxf(x, y);
	o[13] = copysignf(x, y);
	o[14] = __int2float_rz(__float_as_int(x));
	o[15] = __uint2float_rd(__float_as_uint(y));
	o[16] = __double2float_ru((double)x * (double)y * 1.1);
	o[17] = __ll2float_rn(((long long)__float_as_int(x) << 20) + i);
	o[18] = truncf(x * 100.0f);
	o[19] = floorf(x * 100.0f);
	o[20] = ceilf(x * 100.0f);
	o[21] = rintf(x * 100.0f);
	o[22] = sqrtf(fabsf(y));
	o[23] = x / y;
	int *q = k + NK * i;
	q[0] = __float2int_rn(x * 1e3f);
	q[1] = __float2int_rz(x * 1e3f);
	q[2] = __float2int_rd(x * 1e3f);
	q[3] = __float2int_ru(x * 1e3f);
	q[4] = (int)__float2uint_rn(x * 1e3f);
	q[5] = __float2int_rn(x * 1e10f); /* saturates */
	q[6] = (int)__float2uint_rz(x * 1e10f);
	q[7] = (int)(__float2ll_rz(x * 1e12f) >> 8);
	q[8] = __float2int_rz(__int_as_float(0x7fc00000 | (i & 1))); /* NaN: 0 */
	q[9] = (int)(short)__float2int_rn(y);
	q[10] = (int)(unsigned char)(__float_as_int(x) >> 3);
	q[11] = (int)(signed char)(__float_as_int(y) >> 5);
	unsigned short hs;
	asm("cvt.rn.f16.f32 %0, %1;" : "=h"(hs) : "f"(x));
	h[3 * i] = hs;
	asm("cvt.rz.f16.f32 %0, %1;" : "=h"(hs) : "f"(y * 1000.0f));
	h[3 * i + 1] = hs;
	float back;
	asm("cvt.f32.f16 %0, %1;" : "=f"(back) : "h"(hs));
	h[3 * i + 2] = (unsigned short)(int)(back * 0.25f);
	d[4 * i] = __dadd_rz((double)x, (double)y * 1e-9);
	d[4 * i + 1] = __dmul_ru((double)x, 1.0 / 3.0);
	d[4 * i + 2] = __ddiv_rd((double)x, (double)y);
	d[4 * i + 3] = __dsqrt_rz(fabs((double)x));
}

/* bar.red (the __syncthreads_ variants), redux.sync, activemask; each
 * block's and each warp's results in a row */
extern "C" __global__ void warpmisc(const int *in, int *blk, int *wrp)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = in[i];
	int c = __syncthreads_count(v > 0);
	int a = __syncthreads_and(v > -90);
	int o = __syncthreads_or(v > 95);
	if (threadIdx.x == 0) {
		blk[3 * blockIdx.x] = c;
		blk[3 * blockIdx.x + 1] = a;
		blk[3 * blockIdx.x + 2] = o;
	}
	int s = __reduce_add_sync(0xffffffffu, v);
	int mn = __reduce_min_sync(0xffffffffu, v);
	unsigned mx = __reduce_max_sync(0xffffffffu, (unsigned)v);
	unsigned x = __reduce_xor_sync(0xffffffffu, (unsigned)v);
	unsigned am = 0;
	if (v & 1)
		am = __activemask();
	am = __reduce_or_sync(0xffffffffu, am);
	if ((threadIdx.x & 31) == 0) {
		int w = i / 32;
		wrp[5 * w] = s;
		wrp[5 * w + 1] = mn;
		wrp[5 * w + 2] = (int)mx;
		wrp[5 * w + 3] = (int)x;
		wrp[5 * w + 4] = (int)am;
	}
}
