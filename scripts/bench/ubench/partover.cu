// partover.cu: whether a grid's partial-sector stores overlap the SMs'
// own work.  Each thread first computes (a chain of f dependent FFMAs on
// each of 8 independent values: SM time that grows with f), then stores its
// 8 results: run 1 (partial) as its own 8 consecutive floats, so each warp
// store writes 32 sectors 4 bytes at a time, the L2's partial-sector rate
// bounding the grid (strided.cu's S 8 R 8 pattern, partial_write_ns); run 0
// (whole) interleaved, value i of thread t at i * T + t, whole sectors.
// 2^22 threads in 256-thread blocks, as strided.cu.  Prints per f the time
// with whole stores (the compute and DRAM's write), with partial stores,
// partial stores alone (f 0), and where the partial run lies between the
// larger of its two parts (0: they overlap) and their sum (1: one after
// the other).  batchinv and thomas (held-out suites 4 and 6) compute a
// thread's matrix or system and then store it a thread at a time, and run
// slower than either part alone.
#include "terms.h"

__global__ void partover(float *out, int f, int partial, float a)
{
	long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	long long T = (long long)gridDim.x * blockDim.x;
	float v[8];
#pragma unroll
	for (int i = 0; i < 8; i++)
		v[i] = (float)(t + i);
	for (int k = 0; k < f; k++) {
#pragma unroll
		for (int i = 0; i < 8; i++)
			v[i] = fmaf(v[i], a, 0.5f);
	}
#pragma unroll
	for (int i = 0; i < 8; i++)
		out[partial ? t * 8 + i : i * T + t] = v[i];
}

int main()
{
	device_init();
	const int threads = 256, blocks = (1 << 22) / threads;
	float *out;
	CK(cudaMalloc(&out, (size_t)(1 << 22) * 8 * 4));
	float alone = time_ms([&] { partover<<<blocks, threads>>>(out, 0, 1, 0.999f); });
	float whole0 = time_ms([&] { partover<<<blocks, threads>>>(out, 0, 0, 0.999f); });
	printf("PARTOVER partial stores alone (f 0): %.4f ms; whole stores alone: %.4f ms\n", alone, whole0);
	for (int f : { 16, 32, 64, 96, 128, 192, 256, 384, 512 }) {
		float whole = time_ms([&] { partover<<<blocks, threads>>>(out, f, 0, 0.999f); });
		float part = time_ms([&] { partover<<<blocks, threads>>>(out, f, 1, 0.999f); });
		float mx = whole > alone ? whole : alone, mn = whole > alone ? alone : whole;
		printf("PARTOVER f=%d compute_ms=%.4f partial_ms=%.4f stores_alone_ms=%.4f overlap_left=%.2f\n", f,
		       whole, part, alone, (part - mx) / mn);
	}
	return 0;
}
