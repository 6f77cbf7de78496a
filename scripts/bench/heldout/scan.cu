/* scan.cu: segmented inclusive prefix sums of int (held-out space). */
#ifndef ALG
#define ALG 2
#endif
#ifndef TPB
#define TPB 256
#endif
#ifndef ITEMS
#define ITEMS 4
#endif
#ifndef SEG
#define SEG 8192
#endif
#define CHUNK (TPB * ITEMS)

/* Inclusive scan of one value per thread across the block; returns it and
 * leaves the block total in *total. */
__device__ int block_scan(int v, int *tmp, int *total)
{
	int t = threadIdx.x;
#if ALG == 0
	tmp[t] = v;
	__syncthreads();
	for (int d = 1; d < TPB; d *= 2) {
		int a = t >= d ? tmp[t - d] : 0;
		__syncthreads();
		tmp[t] += a;
		__syncthreads();
	}
	v = tmp[t];
	*total = tmp[TPB - 1];
	__syncthreads();
	return v;
#elif ALG == 1
	tmp[t] = v;
	__syncthreads();
	for (int d = 1; d < TPB; d *= 2) {
		int i = (t + 1) * 2 * d - 1;
		if (i < TPB)
			tmp[i] += tmp[i - d];
		__syncthreads();
	}
	if (t == 0) {
		tmp[TPB] = tmp[TPB - 1];
		tmp[TPB - 1] = 0;
	}
	__syncthreads();
	for (int d = TPB / 2; d >= 1; d /= 2) {
		int i = (t + 1) * 2 * d - 1;
		if (i < TPB) {
			int a = tmp[i - d];
			tmp[i - d] = tmp[i];
			tmp[i] += a;
		}
		__syncthreads();
	}
	v += tmp[t];
	*total = tmp[TPB];
	__syncthreads();
	return v;
#else
	int lane = t & 31, w = t >> 5;
	for (int d = 1; d < 32; d *= 2) {
		int a = __shfl_up_sync(0xffffffffu, v, d);
		if (lane >= d)
			v += a;
	}
	if (lane == 31)
		tmp[w] = v;
	__syncthreads();
	if (w == 0) {
		int s = lane < TPB / 32 ? tmp[lane] : 0;
		for (int d = 1; d < 32; d *= 2) {
			int a = __shfl_up_sync(0xffffffffu, s, d);
			if (lane >= d)
				s += a;
		}
		if (lane < TPB / 32)
			tmp[lane] = s;
	}
	__syncthreads();
	if (w > 0)
		v += tmp[w - 1];
	*total = tmp[TPB / 32 - 1];
	__syncthreads();
	return v;
#endif
}

extern "C" __global__ void scan(const int *x, int *y)
{
	__shared__ int buf[CHUNK];
	__shared__ int tmp[TPB + 1];
	const int *in = x + (size_t)blockIdx.x * SEG;
	int *out = y + (size_t)blockIdx.x * SEG;
	int carry = 0;
	for (int c = 0; c < SEG; c += CHUNK) {
		for (int k = 0; k < ITEMS; k++)
			buf[k * TPB + threadIdx.x] = in[c + k * TPB + threadIdx.x];
		__syncthreads();
		int r[ITEMS], s = 0;
#pragma unroll
		for (int k = 0; k < ITEMS; k++) {
			s += buf[threadIdx.x * ITEMS + k];
			r[k] = s;
		}
		int total;
		int incl = block_scan(s, tmp, &total);
		int excl = carry + incl - s;
#pragma unroll
		for (int k = 0; k < ITEMS; k++)
			buf[threadIdx.x * ITEMS + k] = r[k] + excl;
		__syncthreads();
		for (int k = 0; k < ITEMS; k++)
			out[c + k * TPB + threadIdx.x] = buf[k * TPB + threadIdx.x];
		carry += total;
		__syncthreads();
	}
}

extern "C" __global__ void scan_naive(const int *x, int *y, int seg)
{
	size_t b = (size_t)(blockIdx.x * blockDim.x + threadIdx.x) * seg;
	int s = 0;
	for (int i = 0; i < seg; i++) {
		s += x[b + i];
		y[b + i] = s;
	}
}
