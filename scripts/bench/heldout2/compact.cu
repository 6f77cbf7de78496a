/* compact.cu: order-keeping stream compaction of floats above a threshold,
 * one output segment per block (held-out space, second suite). */
#ifndef ALG
#define ALG 1
#endif
#ifndef LAYOUT
#define LAYOUT 0
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
#define NWARP (TPB / 32)
#define ALL 0xffffffffu

/* Exclusive prefix of v over the block's threads, by a Hillis-Steele scan
 * that reads one half of buf and writes the other (one barrier a step);
 * *total gets the block's sum.  buf holds 2 * TPB ints. */
__device__ int block_offset(int v, int *buf, int *total)
{
	int t = threadIdx.x, src = 0;
	buf[t] = v;
	__syncthreads();
	for (int d = 1; d < TPB; d <<= 1) {
		int s = buf[src * TPB + t];
		if (t >= d)
			s += buf[src * TPB + t - d];
		src ^= 1;
		buf[src * TPB + t] = s;
		__syncthreads();
	}
	int incl = buf[src * TPB + t];
	*total = buf[src * TPB + TPB - 1];
	__syncthreads();
	return incl - v;
}

/* Warp 0 replaces the n counts of a[] by their exclusive prefixes and puts
 * their sum in a[n]; every thread calls it (it ends with a barrier). */
__device__ void warp0_offsets(int *a, int n)
{
	if (threadIdx.x < 32) {
		int lane = threadIdx.x, run = 0;
		for (int b = 0; b < n; b += 32) {
			int c = b + lane < n ? a[b + lane] : 0, s = c;
			for (int d = 1; d < 32; d <<= 1) {
				int u = __shfl_up_sync(ALL, s, d);
				if (lane >= d)
					s += u;
			}
			if (b + lane < n)
				a[b + lane] = run + s - c;
			run += __shfl_sync(ALL, s, 31);
		}
		if (lane == 0)
			a[n] = run;
	}
	__syncthreads();
}

extern "C" __global__ void compact(const float *x, float *y, int *counts,
		float thresh)
{
#if ALG == 0
	__shared__ int buf[2 * TPB];
#elif LAYOUT == 0
	__shared__ int wc[ITEMS * NWARP + 1];
#else
	__shared__ int wc[NWARP + 1];
#endif
	const float *in = x + (size_t)blockIdx.x * SEG;
	float *out = y + (size_t)blockIdx.x * SEG;
	int t = threadIdx.x;
#if ALG == 1
	int lane = t & 31, w = t >> 5;
	unsigned below = (1u << lane) - 1;
#endif
	int carry = 0;
	for (int c = 0; c < SEG; c += CHUNK) {
		float v[ITEMS];
#if LAYOUT == 0
#pragma unroll
		for (int k = 0; k < ITEMS; k++)
			v[k] = in[c + k * TPB + t];
#if ALG == 0
#pragma unroll
		for (int k = 0; k < ITEMS; k++) {
			int keep = v[k] > thresh, total;
			int off = block_offset(keep, buf, &total);
			if (keep)
				out[carry + off] = v[k];
			carry += total;
		}
#else
		int pre[ITEMS];
#pragma unroll
		for (int k = 0; k < ITEMS; k++) {
			unsigned b = __ballot_sync(ALL, v[k] > thresh);
			pre[k] = __popc(b & below);
			if (lane == 0)
				wc[k * NWARP + w] = __popc(b);
		}
		__syncthreads();
		warp0_offsets(wc, ITEMS * NWARP);
#pragma unroll
		for (int k = 0; k < ITEMS; k++)
			if (v[k] > thresh)
				out[carry + wc[k * NWARP + w] + pre[k]] = v[k];
		carry += wc[ITEMS * NWARP];
		__syncthreads();
#endif
#else /* LAYOUT 1: ITEMS consecutive elements per thread */
		const float *p = in + c + t * ITEMS;
#if ITEMS == 2
		float2 q = *(const float2 *)p;
		v[0] = q.x;
		v[1] = q.y;
#else
#pragma unroll
		for (int k = 0; k < ITEMS; k += 4) {
			float4 q = *(const float4 *)(p + k);
			v[k] = q.x;
			v[k + 1] = q.y;
			v[k + 2] = q.z;
			v[k + 3] = q.w;
		}
#endif
		int off, total;
#if ALG == 0
		int n = 0;
#pragma unroll
		for (int k = 0; k < ITEMS; k++)
			n += v[k] > thresh;
		off = block_offset(n, buf, &total);
#else
		int wn = 0;
		off = 0;
#pragma unroll
		for (int k = 0; k < ITEMS; k++) {
			unsigned b = __ballot_sync(ALL, v[k] > thresh);
			off += __popc(b & below);
			wn += __popc(b);
		}
		if (lane == 0)
			wc[w] = wn;
		__syncthreads();
		warp0_offsets(wc, NWARP);
		off += wc[w];
		total = wc[NWARP];
		__syncthreads();
#endif
		int o = carry + off;
#pragma unroll
		for (int k = 0; k < ITEMS; k++)
			if (v[k] > thresh)
				out[o++] = v[k];
		carry += total;
#endif
	}
	if (t == 0)
		counts[blockIdx.x] = carry;
}

extern "C" __global__ void compact_naive(const float *x, float *y,
		int *counts, float thresh, int seg)
{
	size_t b = (size_t)blockIdx.x * seg;
	int n = 0;
	for (int i = 0; i < seg; i++)
		if (x[b + i] > thresh)
			y[b + n++] = x[b + i];
	counts[blockIdx.x] = n;
}
