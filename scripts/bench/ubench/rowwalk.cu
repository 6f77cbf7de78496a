// rowwalk.cu: a load's latency when each thread walks its own column down
// rows of an interleaved layout, as a batched solver that keeps a system a
// thread does (the sixth held-out suite's thomas: 64 rows, 4 arrays, a row
// of every system 1 MiB long).  Thread t of T reads element (r, t) of each
// of `narr` arrays at r * stride + t, row after row; row r + 1's loads wait
// for row r's values (through an index mask that is 0 at run time), so
// each row costs the thread one load latency.  One wave of B 64-thread
// blocks an SM (T = 64 B SMs threads); stride is T words (rows end to end)
// or more (rows spaced out, the same lines read).  Prints the time a row
// and the bandwidth: the idle DRAM latency is 690 SM cycles (the profile's
// mem_latency, from a chase over 1 GiB at 2 KiB strides); thomas's
// register variant took about 2,600 a row on the H100 with DRAM at 22%.
#include "terms.h"

__global__ void rowwalk(const float *__restrict__ a, float *out, int rows, long long stride, int narr,
			long long arr, int mask)
{
	long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	float s = 0;
	int off = 0;
	for (int r = 0; r < rows; r++) {
		long long i = (long long)(r + off) * stride + t;
		float v = 0;
		for (int k = 0; k < narr; k++) // the row's loads go out together
			v += a[k * arr + i];
		s = s * 0.5f + v;
		off = __float_as_int(s) & mask; // 0: the next row waits for this one
	}
	out[t] = s;
}

// The same walk with the loop over arrays unrolled (N a template
// argument): a row's N loads always go out together.
template <int N>
__global__ void rowwalk_n(const float *__restrict__ a, float *out, int rows, long long stride, long long arr,
			  int mask)
{
	long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	float s = 0;
	int off = 0;
	for (int r = 0; r < rows; r++) {
		long long i = (long long)(r + off) * stride + t;
		float v = 0;
#pragma unroll
		for (int k = 0; k < N; k++)
			v += a[k * arr + i];
		s = s * 0.5f + v;
		off = __float_as_int(s) & mask;
	}
	out[t] = s;
}

template <int N> static void rown(const float *a, float *out, int b)
{
	const int threads = 64, rows = 64;
	int blocks = g_sms * b;
	long long T = (long long)blocks * threads, arr = T * rows;
	float ms = time_ms([&] { rowwalk_n<N><<<blocks, threads>>>(a, out, rows, T, arr, 0); }, 7);
	double bytes = (double)T * rows * N * 4;
	printf("ROWWALK_N warps_per_sm=%d narr=%d lines_per_sm=%d cycles_per_row=%.0f gbs=%.0f\n", b * 2, N,
	       b * 2 * N, ms * 1e-3 * g_clock_ghz * 1e9 / rows, bytes / ms / 1e6);
}

static void row(const float *a, float *out, int b, long long stride_mult, int narr, int rows,
		size_t words)
{
	const int threads = 64;
	int blocks = g_sms * b;
	long long T = (long long)blocks * threads;
	long long stride = T * stride_mult;
	long long arr = stride * rows;
	if ((size_t)(arr * narr) > words) {
		printf("ROWWALK skipped: %lld words\n", arr * narr);
		return;
	}
	float ms = time_ms([&] { rowwalk<<<blocks, threads>>>(a, out, rows, stride, narr, arr, 0); }, 7);
	double bytes = (double)T * rows * narr * 4;
	printf("ROWWALK blocks_per_sm=%d warps_per_sm=%d narr=%d rows=%d row_bytes=%lld stride_bytes=%lld ms=%.4f "
	       "cycles_per_row=%.0f gbs=%.0f\n",
	       b, b * threads / 32, narr, rows, T * 4, stride * 4, ms, ms * 1e-3 * g_clock_ghz * 1e9 / rows,
	       bytes / ms / 1e6);
}

int main()
{
	device_init();
	size_t words = (size_t)1 << 30; // 4 GiB
	float *a, *out;
	CK(cudaMalloc(&a, words * 4));
	CK(cudaMemset(a, 0, words * 4));
	CK(cudaMalloc(&out, (size_t)g_sms * 32 * 64 * 4));
	// rows spaced out: the same lines, more pages
	for (int narr : { 1, 4 })
		for (int b : { 6, 16, 32 })
			for (long long m : { 1, 2, 4, 8, 16 })
				row(a, out, b, m, narr, 64, words);
	// loads a row, rows end to end, from two warps an SM up
	for (int b : { 1, 2, 6, 16 })
		for (int narr : { 1, 2, 3, 4, 6, 8 })
			row(a, out, b, 1, narr, 64, words);
	// unrolled: lines a warp in flight against warps an SM
	for (int b : { 1, 2, 4, 6, 8, 12, 16, 24, 32 }) {
		rown<1>(a, out, b);
		rown<2>(a, out, b);
		rown<4>(a, out, b);
		rown<8>(a, out, b);
	}
	return 0;
}
