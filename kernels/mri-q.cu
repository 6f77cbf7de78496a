/* mri-q.cu — the Q matrix of non-Cartesian MRI reconstruction, with the
 * tuning knobs of the MRI study of Ryoo et al.: "Program Optimization Study on
 * a 128-Core GPU" (Sec. IV-B: loop unrolling factor, threads per block, scan
 * points per grid) and "Optimization Principles and Application Performance
 * Evaluation of a Multithreaded GPU Using CUDA" (PPoPP 2008, Sec. 5: scan
 * points in constant memory, a loop interchange so that every thread of a
 * warp reads the same point at once).  The kernel follows the Parboil MRI-Q
 * benchmark that grew out of that work.
 *
 * For every voxel x (numX of them, coordinates x, y, z) and every k-space
 * scan point k (kx, ky, kz and the squared magnitude phi of its phase):
 *
 *   Qr[x] = sum_k phi_k cos(2 pi (kx_k x + ky_k y + kz_k z))
 *   Qi[x] = sum_k phi_k sin(2 pi (kx_k x + ky_k y + kz_k z))
 *
 * The scan points are processed PPG at a time: before each launch the host
 * copies the next PPG points into the constant array ck, and the launch adds
 * their terms to Qr and Qi, which start at zero.  One thread per voxel.
 *
 * Knobs (-D NAME=value; the defaults are the authors' original kernel):
 *
 *   UNROLL  unroll factor of the loop over the PPG points of one launch;
 *           must divide PPG.  1 keeps the loop rolled.          default 1
 *   PPG     scan points per grid (per launch): the size of ck.  default 512
 *
 * Threads per block are the launch's block size (no define needed).
 *
 * computeQ_naive is the reference: one thread per voxel, every scan point
 * straight from global memory in one launch, any block shape, guarded against
 * the edge.  Both kernels add the terms of one voxel in increasing k into one
 * accumulator with the same expression, so they round alike; sinf and cosf are
 * the accurate library functions in both. */

#ifndef UNROLL
#define UNROLL 1
#endif
#ifndef PPG
#define PPG 512
#endif

#if UNROLL < 1 || PPG < 1
#error "UNROLL and PPG must be positive"
#endif
#if PPG % UNROLL != 0
#error "UNROLL must divide PPG"
#endif

#define MQ_STR(x) #x
#define MQ_PRAGMA(x) _Pragma(MQ_STR(x))
#define MQ_UNROLL(n) MQ_PRAGMA(unroll n)

#define MQ_2PI 6.2831853071795864769f  /* as Parboil: 2 pi rounded to float */

struct kpoint {
	float kx, ky, kz, phi;
};

/* one launch's scan points: PPG * 16 bytes, at most 64 KB */
__constant__ struct kpoint ck[PPG];

extern "C" __global__ void computeQ(const float *x, const float *y, const float *z, float *Qr,
				    float *Qi, int numX)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= numX)
		return;
	const float sx = x[t], sy = y[t], sz = z[t];
	float qr = Qr[t], qi = Qi[t];

	/* every thread of a warp reads the same ck[k] at once: a broadcast
	 * from the constant cache */
	MQ_UNROLL(UNROLL)
	for (int k = 0; k < PPG; k++) {
		const float arg = MQ_2PI * (ck[k].kx * sx + ck[k].ky * sy + ck[k].kz * sz);
		qr += ck[k].phi * cosf(arg);
		qi += ck[k].phi * sinf(arg);
	}
	Qr[t] = qr;
	Qi[t] = qi;
}

/* kvals holds numK points of four floats each: kx, ky, kz, phi */
extern "C" __global__ void computeQ_naive(const float *kvals, const float *x, const float *y,
					  const float *z, float *Qr, float *Qi, int numK, int numX)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= numX)
		return;
	const float sx = x[t], sy = y[t], sz = z[t];
	float qr = 0.0f, qi = 0.0f;
	for (int k = 0; k < numK; k++) {
		const float *p = kvals + 4 * k;
		const float arg = MQ_2PI * (p[0] * sx + p[1] * sy + p[2] * sz);
		qr += p[3] * cosf(arg);
		qi += p[3] * sinf(arg);
	}
	Qr[t] = qr;
	Qi[t] = qi;
}
