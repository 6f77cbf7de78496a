/* kmeans.cu: the assignment step of k-means, each point's nearest centroid
 * and its squared distance, PPT points a thread, the centroids read from
 * global, shared or constant memory, points stored by rows or by columns
 * (held-out space). */
#ifndef TPB
#define TPB 128
#endif
#ifndef PPT
#define PPT 1
#endif
#ifndef CMEM
#define CMEM 0
#endif
#ifndef COLMAJOR
#define COLMAJOR 0
#endif
#ifndef DIM
#define DIM 32
#endif
#ifndef NC
#define NC 64
#endif

/* Filled by the launch before every run, whatever CMEM says, so that every
 * variant declares it. */
__constant__ float ccent[NC * DIM];

/* Thread t of block b owns points b * TPB * PPT + t + j * TPB (j < PPT), so
 * a warp's points are consecutive for each j.  Each thread keeps its points
 * in registers and walks the centroids in order, dimensions in order, so
 * every variant sums the same terms in the same order.  The points come
 * from rows (COLMAJOR 0: point p's DIM floats adjacent, a warp's load of
 * one dimension 4 bytes out of each of 32 lines) or from columns
 * (COLMAJOR 1: dimension d of all points adjacent, each load one line). */
extern "C" __global__ void assign(const float *__restrict__ rows, const float *__restrict__ cols,
				  const float *__restrict__ cent, int *__restrict__ label,
				  float *__restrict__ dist, int n)
{
#if CMEM == 1
	__shared__ float scent[NC * DIM];
	for (int e = threadIdx.x; e < NC * DIM; e += TPB)
		scent[e] = cent[e];
	__syncthreads();
#define CENT(i) scent[i]
#elif CMEM == 2
#define CENT(i) ccent[i]
#else
#define CENT(i) cent[i]
#endif
	size_t base = (size_t)blockIdx.x * (TPB * PPT) + threadIdx.x;
	float x[PPT][DIM];
#pragma unroll
	for (int j = 0; j < PPT; j++) {
		size_t p = base + j * TPB;
#pragma unroll
		for (int d = 0; d < DIM; d++) {
#if COLMAJOR
			x[j][d] = cols[(size_t)d * n + p];
#else
			x[j][d] = rows[p * DIM + d];
#endif
		}
	}
	float best[PPT];
	int arg[PPT];
#pragma unroll
	for (int j = 0; j < PPT; j++) {
		best[j] = 3.0e38f;
		arg[j] = 0;
	}
	for (int k = 0; k < NC; k++) {
		float acc[PPT];
#pragma unroll
		for (int j = 0; j < PPT; j++)
			acc[j] = 0.0f;
#pragma unroll
		for (int d = 0; d < DIM; d++) {
			float ck = CENT(k * DIM + d);
#pragma unroll
			for (int j = 0; j < PPT; j++) {
				float e = x[j][d] - ck;
				acc[j] = fmaf(e, e, acc[j]);
			}
		}
#pragma unroll
		for (int j = 0; j < PPT; j++) {
			if (acc[j] < best[j]) {
				best[j] = acc[j];
				arg[j] = k;
			}
		}
	}
#pragma unroll
	for (int j = 0; j < PPT; j++) {
		label[base + j * TPB] = arg[j];
		dist[base + j * TPB] = best[j];
	}
}

/* One thread a point, from the rows, centroids from global memory. */
extern "C" __global__ void assign_naive(const float *rows, const float *cent, int *label,
					float *dist, int n)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= n)
		return;
	float best = 0.0f;
	int arg = -1;
	for (int k = 0; k < NC; k++) {
		float acc = 0.0f;
		for (int d = 0; d < DIM; d++) {
			float e = rows[(size_t)p * DIM + d] - cent[k * DIM + d];
			acc += e * e;
		}
		if (arg < 0 || acc < best) {
			best = acc;
			arg = k;
		}
	}
	label[p] = arg;
	dist[p] = best;
}
