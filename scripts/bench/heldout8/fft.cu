/* fft.cu: batched forward complex FFTs of NPTS = 1024 points in shared
 * memory, radix-2 or radix-4 decimation in frequency, PPT points a thread,
 * SPB signals a block, twiddles computed with __sincosf or read from a
 * table in global or shared memory (held-out space). */
#ifndef NPTS
#define NPTS 1024
#endif
#ifndef LOGN
#define LOGN 10
#endif
#ifndef RADIX
#define RADIX 4
#endif
#ifndef PPT
#define PPT 8
#endif
#ifndef SPB
#define SPB 1
#endif
#ifndef TW
#define TW 1
#endif

#define LOGR (RADIX == 4 ? 2 : 1)
#define STAGES (LOGN / LOGR)
#define TPS (NPTS / PPT)		/* threads a signal */
#define TPB (TPS * SPB)
#define BPT (PPT / RADIX)		/* butterflies a thread a stage */
/* The largest twiddle exponent a stage asks for, plus one. */
#define TWN (RADIX == 4 ? 3 * NPTS / 4 : NPTS / 2)
/* The low bit of every base-4 digit of a LOGN-bit index (0x155). */
#define DMASK (((1 << LOGN) - 1) / 3)

static __device__ __forceinline__ float2 cadd(float2 a, float2 b)
{
	return make_float2(a.x + b.x, a.y + b.y);
}

static __device__ __forceinline__ float2 csub(float2 a, float2 b)
{
	return make_float2(a.x - b.x, a.y - b.y);
}

static __device__ __forceinline__ float2 cmul(float2 a, float2 b)
{
	return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

/* exp(-2 pi i e / NPTS) for 0 <= e < TWN. */
#if TW == 0
#define TWID(e) twid_sincos(e)
static __device__ __forceinline__ float2 twid_sincos(int e)
{
	/* Into (-pi, pi], where __sincosf is accurate to about 2^-21. */
	int r = e > NPTS / 2 ? e - NPTS : e;
	float s, c;
	__sincosf((float)r * (-6.2831853071795865f / NPTS), &s, &c);
	return make_float2(c, s);
}
#elif TW == 1
#define TWID(e) __ldg(&tw[e])
#else
#define TWID(e) stw[e]
#endif

/* Signal sig of block b is NPTS float2 at (b * SPB + sig) * NPTS; its TPS
 * threads load it in order into shared memory, run the STAGES stages in
 * place (each thread's BPT butterflies loaded into registers, combined,
 * twiddled and stored back; the stages separated by barriers), and store
 * the result in order, reading the shared array at the bit- or
 * digit-reversed index where decimation in frequency has left it. */
extern "C" __global__ void __launch_bounds__(TPB)
fft(const float2 *__restrict__ x, const float2 *__restrict__ tw, float2 *__restrict__ y)
{
	__shared__ float2 sbuf[SPB * NPTS];
#if TW == 2
	__shared__ float2 stw[TWN];
	for (int e = threadIdx.x; e < TWN; e += TPB)
		stw[e] = tw[e];
#endif
	int t = threadIdx.x % TPS, sig = threadIdx.x / TPS;
	float2 *sx = sbuf + sig * NPTS;
	size_t base = ((size_t)blockIdx.x * SPB + sig) * NPTS;
#pragma unroll
	for (int k = 0; k < PPT; k++)
		sx[t + k * TPS] = x[base + t + k * TPS];
	__syncthreads();

#pragma unroll
	for (int s = 0; s < STAGES; s++) {
		/* Butterflies of this stage span RADIX * q points, q apart;
		 * the twiddle of output m of butterfly j is exp(-2 pi i m j /
		 * (RADIX q)), table entry m j (NPTS / (RADIX q)). */
		const int q = NPTS >> (LOGR * (s + 1));
		const int step = NPTS / (RADIX * q);
		float2 a[BPT][RADIX];
		int i0[BPT], j[BPT];
#pragma unroll
		for (int b = 0; b < BPT; b++) {
			int u = t + b * TPS;
			j[b] = u & (q - 1);
			i0[b] = (u - j[b]) * RADIX + j[b];
#pragma unroll
			for (int m = 0; m < RADIX; m++)
				a[b][m] = sx[i0[b] + m * q];
		}
#pragma unroll
		for (int b = 0; b < BPT; b++) {
#if RADIX == 2
			float2 y0 = cadd(a[b][0], a[b][1]);
			float2 y1 = csub(a[b][0], a[b][1]);
			if (q > 1)
				y1 = cmul(y1, TWID(j[b] * step));
			sx[i0[b]] = y0;
			sx[i0[b] + q] = y1;
#else
			float2 b0 = cadd(a[b][0], a[b][2]);
			float2 b1 = csub(a[b][0], a[b][2]);
			float2 b2 = cadd(a[b][1], a[b][3]);
			float2 d = csub(a[b][1], a[b][3]);
			float2 b3 = make_float2(d.y, -d.x);	/* d times -i */
			float2 y0 = cadd(b0, b2);
			float2 y1 = cadd(b1, b3);
			float2 y2 = csub(b0, b2);
			float2 y3 = csub(b1, b3);
			if (q > 1) {
				y1 = cmul(y1, TWID(j[b] * step));
				y2 = cmul(y2, TWID(2 * j[b] * step));
				y3 = cmul(y3, TWID(3 * j[b] * step));
			}
			sx[i0[b]] = y0;
			sx[i0[b] + q] = y1;
			sx[i0[b] + 2 * q] = y2;
			sx[i0[b] + 3 * q] = y3;
#endif
		}
		__syncthreads();
	}

#pragma unroll
	for (int k = 0; k < PPT; k++) {
		int o = t + k * TPS;
		int r = __brev(o) >> (32 - LOGN);
#if RADIX == 4
		/* Base-4 digits reversed: bit reversal, then each digit's two
		 * bits swapped back. */
		r = ((r & DMASK) << 1) | ((r >> 1) & DMASK);
#endif
		y[base + o] = sx[r];
	}
}

/* One thread a signal, in its output: the input copied to bit-reversed
 * places, then the textbook radix-2 decimation in time, each twiddle from
 * sincospi in double and each butterfly in double. */
extern "C" __global__ void fft_naive(const float2 *x, float2 *y, int nsig)
{
	int s = blockIdx.x * blockDim.x + threadIdx.x;
	if (s >= nsig)
		return;
	const float2 *in = x + (size_t)s * NPTS;
	float2 *out = y + (size_t)s * NPTS;
	for (int i = 0; i < NPTS; i++) {
		int r = 0;
		for (int b = 0; b < LOGN; b++)
			r |= ((i >> b) & 1) << (LOGN - 1 - b);
		out[r] = in[i];
	}
	for (int len = 2; len <= NPTS; len *= 2) {
		int h = len / 2;
		for (int j = 0; j < h; j++) {
			double c, sn;
			sincospi(-2.0 * j / len, &sn, &c);
			for (int g = 0; g < NPTS; g += len) {
				float2 p = out[g + j], v = out[g + j + h];
				double tr = v.x * c - v.y * sn, ti = v.x * sn + v.y * c;
				out[g + j] = make_float2((float)(p.x + tr), (float)(p.y + ti));
				out[g + j + h] = make_float2((float)(p.x - tr), (float)(p.y - ti));
			}
		}
	}
}
