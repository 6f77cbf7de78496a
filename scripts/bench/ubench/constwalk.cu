// constwalk.cu: the throughput of warp-uniform loads from __constant__
// whose index the compiler knows is uniform (a loop counter and blockIdx,
// so ptxas may use the uniform datapath), as kmeans's constant-memory
// centroids are read: each warp walks S bytes of constant data 32 words at
// a time, with F FFMAs a word, from its own starting line (`spread`) or
// all from line 0 (`same`).  One warp a block, W blocks an SM, several
// waves.  Prints per S, W and F the SM cycles per warp load (kernel time x
// clock / loads of one SM) and the same for a walk of 1 KiB, which stays in
// the first level (results/ubench-constcache-h100.txt: 2 KiB of 64-byte
// lines, a new line past it 106 cycles to a dependent chase).
#include "terms.h"

static const int WORDS = 16384; // 64 KiB
__constant__ float cbuf[WORDS];

template <int F>
__global__ void walk(int mask, int iters, int spread, float *out)
{
	float a[F + 1];
#pragma unroll
	for (int j = 0; j <= F; j++)
		a[j] = (float)threadIdx.x;
	int base = spread ? (blockIdx.x * 1040) & mask : 0; // 65 lines apart
	for (int i = 0; i < iters; i++) {
		int o = (base + i * 32) & mask;
#pragma unroll
		for (int d = 0; d < 32; d++) {
			float c = cbuf[o + d];
			a[0] += c;
#pragma unroll
			for (int j = 1; j <= F; j++)
				a[j] = fmaf(a[j], c, 0.25f);
		}
	}
	float s = 0;
#pragma unroll
	for (int j = 0; j <= F; j++)
		s += a[j];
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int F> static void rows(float *out)
{
	const int iters = 256;
	for (int spread = 0; spread < 2; spread++)
	for (int w : { 1, 8, 16, 32 }) {
		int blocks = g_sms * w * 4; // four waves
		for (int kib : { 1, 2, 4, 8, 16, 64 }) {
			int mask = kib * 256 - 1;
			float ms = time_ms([&] { walk<F><<<blocks, 32>>>(mask, iters, spread, out); });
			double loads = (double)blocks / g_sms * iters * 32;
			printf("CWALK f=%d walk=%s kib=%d warps_per_sm=%d ms=%.4f cycles_per_load=%.2f\n", F,
			       spread ? "spread" : "same", kib, w, ms, ms * 1e6 * g_clock_ghz / loads);
		}
	}
}

int main()
{
	device_init();
	float *out;
	CK(cudaMalloc(&out, (size_t)g_sms * 32 * 4 * 32 * 4));
	std::vector<float> h(WORDS);
	for (int i = 0; i < WORDS; i++)
		h[i] = (float)(i % 7) * 0.125f;
	CK(cudaMemcpyToSymbol(cbuf, h.data(), WORDS * 4));
	rows<0>(out);
	rows<1>(out);
	rows<4>(out);
	return 0;
}
