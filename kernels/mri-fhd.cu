/* mri-fhd.cu — the vector F^H d of non-Cartesian MRI reconstruction, with the
 * tuning knobs of the MRI-FHD study of Ryoo et al.: "Program Optimization
 * Study on a 128-Core GPU" (Sec. IV-B, Fig. 4: loop unrolling factor, threads
 * per block, scan points per grid) and "Optimization Principles and
 * Application Performance Evaluation of a Multithreaded GPU Using CUDA"
 * (PPoPP 2008, Sec. 5: scan points in constant memory, every thread of a warp
 * reading the same point at once).  The kernel follows the Parboil MRI-FHD
 * benchmark that grew out of that work.
 *
 * For every voxel x (numX of them, coordinates x, y, z) and every k-space
 * scan point k (kx, ky, kz and the complex product mu = rMu + i iMu of the
 * sample with the trajectory's density weight):
 *
 *   F^H d[x] = sum_k mu_k exp(i 2 pi (kx_k x + ky_k y + kz_k z))
 *
 * that is, with a = 2 pi (kx x + ky y + kz z),
 *
 *   rFH[x] = sum_k rMu_k cos a - iMu_k sin a
 *   iFH[x] = sum_k iMu_k cos a + rMu_k sin a
 *
 * The scan points are processed PPG at a time: before each launch the host
 * copies the next PPG points into the constant array ck, and the launch adds
 * their terms to rFH and iFH, which start at zero.  One thread per voxel.
 *
 * Knobs (-D NAME=value; the defaults are the authors' original kernel):
 *
 *   UNROLL  unroll factor of the loop over the PPG points of one launch;
 *           must divide PPG.  1 keeps the loop rolled.          default 1
 *   PPG     scan points per grid (per launch): the size of ck.  default 512
 *
 * Threads per block are the launch's block size (no define needed).
 *
 * computeFH_naive is the reference: one thread per voxel, every scan point
 * straight from global memory in one launch, any block shape, guarded against
 * the edge.  Both kernels add the terms of one voxel in increasing k into one
 * accumulator per output with the same expressions, so they round alike;
 * sinf and cosf are the accurate library functions in both. */

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

#define MF_STR(x) #x
#define MF_PRAGMA(x) _Pragma(MF_STR(x))
#define MF_UNROLL(n) MF_PRAGMA(unroll n)

#define MF_2PI 6.2831853071795864769f  /* as Parboil: 2 pi rounded to float */

struct kpoint {
	float kx, ky, kz, rmu, imu;
};

/* one launch's scan points: PPG * 20 bytes, at most 64 KB */
__constant__ struct kpoint ck[PPG];

extern "C" __global__ void computeFH(const float *x, const float *y, const float *z, float *rFH,
				     float *iFH, int numX)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= numX)
		return;
	const float sx = x[t], sy = y[t], sz = z[t];
	float fr = rFH[t], fi = iFH[t];

	MF_UNROLL(UNROLL)
	for (int k = 0; k < PPG; k++) {
		const float arg = MF_2PI * (ck[k].kx * sx + ck[k].ky * sy + ck[k].kz * sz);
		const float c = cosf(arg), s = sinf(arg);
		fr += ck[k].rmu * c - ck[k].imu * s;
		fi += ck[k].imu * c + ck[k].rmu * s;
	}
	rFH[t] = fr;
	iFH[t] = fi;
}

/* kvals holds numK points of five floats each: kx, ky, kz, rMu, iMu */
extern "C" __global__ void computeFH_naive(const float *kvals, const float *x, const float *y,
					   const float *z, float *rFH, float *iFH, int numK,
					   int numX)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= numX)
		return;
	const float sx = x[t], sy = y[t], sz = z[t];
	float fr = 0.0f, fi = 0.0f;
	for (int k = 0; k < numK; k++) {
		const float *p = kvals + 5 * k;
		const float arg = MF_2PI * (p[0] * sx + p[1] * sy + p[2] * sz);
		const float c = cosf(arg), s = sinf(arg);
		fr += p[3] * c - p[4] * s;
		fi += p[4] * c + p[3] * s;
	}
	rFH[t] = fr;
	iFH[t] = fi;
}
