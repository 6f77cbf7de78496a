// l2sum.cu: whether an SM's L1 serves the wavefronts of warp loads and the
// fills of their L1 misses one after the other or side by side.  The
// interval model bounds an SM's loads by the larger of the L1's wavefronts
// and the L2's sectors; dedisp's small blocks (scripts/bench/heldout/) ran
// near the sum of the two.
//
// 64 warps an SM stream 32 consecutive floats a warp load, SHIFT words off a
// line's start (one line, 4 sectors; or two lines, 5 sectors), 8 independent
// loads an iteration, grid-stride over a buffer of BYTES: 16 KiB (every load
// an L1 hit after the first pass) or 16 MiB (beyond the L1, within the 50 MB
// L2: every sector an L1 miss and an L2 hit).  Prints SM cycles per warp
// load and the L2's sectors a cycle over the GPU.  Median of 7 runs.
#include "terms.h"

enum { U = 8, TPB = 256 };

__global__ void __launch_bounds__(TPB, 8)
stream(const float *__restrict__ buf, float *out, unsigned mask, int shift, int iters)
{
	unsigned lane = threadIdx.x & 31;
	unsigned w = (blockIdx.x * TPB + threadIdx.x) >> 5, nw = gridDim.x * TPB / 32;
	unsigned idx = w * 32 * U;
	float s = 0;
	for (int it = 0; it < iters; it++) {
		float v[U];
#pragma unroll
		for (int k = 0; k < U; k++)
			v[k] = buf[(idx + 32 * k + lane + shift) & mask];
#pragma unroll
		for (int k = 0; k < U; k++)
			s += v[k];
		idx += nw * 32 * U;
	}
	if (s == 1234.5f)
		out[threadIdx.x] = s;
}

int main()
{
	device_init();
	const size_t big = 16u << 20;
	float *buf, *out;
	CK(cudaMalloc(&buf, big + 4096));
	CK(cudaMemset(buf, 0, big + 4096));
	CK(cudaMalloc(&out, 4096));
	int blocks = g_sms * 8, iters = 512;
	for (size_t bytes : { (size_t)16 << 10, big })
		for (int shift : { 0, 5 }) {
			unsigned mask = (unsigned)(bytes / 4 - 1);
			float ms = time_ms([&] { stream<<<blocks, TPB>>>(buf, out, mask, shift, iters); }, 7);
			double cyc = ms * 1e-3 * g_clock_ghz * 1e9;
			double wl = (double)blocks * (TPB / 32) * U * iters / g_sms;
			double sectors = (double)blocks * (TPB / 32) * U * iters * (shift ? 5 : 4);
			printf("L2SUM bytes=%zu shift=%d ms=%.4f cycles_per_warp_load=%.3f "
			       "sectors_per_cycle_gpu=%.2f gbs=%.0f\n",
			       bytes, shift, ms, cyc / wl, sectors / cyc, sectors * 32 / (ms * 1e6));
		}
	CK(cudaFree(buf));
	CK(cudaFree(out));
	return 0;
}
