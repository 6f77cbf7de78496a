// constcache.cu: what a warp's uniform load from __constant__ costs as the
// constant data a kernel walks grows.  Each warp chases dependent indices
// through S bytes of a 64 KiB __constant__ array (`lines`: one word every
// 64 bytes, in a scrambled cycle; `words`: every word in turn), every lane
// at the same address, W warps a block, a
// block an SM.  Prints per S and W the SM cycles per dependent load of one
// warp (clock64 around the chase, after one warm-up pass): the latency of
// the constant caches and where their capacity ends.  kmeans's centroids
// (8 KiB in __constant__) stall on constant-cache misses on the H100
// (results/heldout4/ncu-kmeans-h100.txt).
#include "terms.h"

static const int WORDS = 16384; // 64 KiB
__constant__ unsigned cbuf[WORDS];

__global__ void chase(int lines, int steps, long long *cyc, unsigned *sink)
{
	unsigned j = 0;
	for (int i = 0; i < lines; i++) // warm: every line once
		j = cbuf[j];
	long long t0 = clock64();
	for (int i = 0; i < steps; i++)
		j = cbuf[j];
	long long t1 = clock64();
	if (threadIdx.x % 32 == 0)
		atomicAdd((unsigned long long *)cyc, (unsigned long long)(t1 - t0));
	sink[blockIdx.x * blockDim.x + threadIdx.x] = j;
}

int main()
{
	device_init();
	long long *cyc;
	unsigned *sink;
	CK(cudaMalloc(&cyc, 8));
	CK(cudaMalloc(&sink, (size_t)g_sms * 1024 * 4));
	const int steps = 4096;
	for (int seq = 0; seq < 2; seq++)
	for (int kib : { 1, 2, 4, 8, 16, 32, 64 }) {
		int lines = kib * 1024 / 64;
		std::vector<unsigned> h(WORDS, 0);
		if (seq) {
			// every word in turn: what a line's other words cost
			for (int i = 0; i < kib * 256; i++)
				h[i] = (unsigned)((i + 1) % (kib * 256));
		} else {
			std::vector<int> ord(lines);
			for (int i = 0; i < lines; i++)
				ord[i] = (int)(((long long)i * 7919) % lines);
			for (int i = 0; i < lines; i++)
				h[ord[i] * 16] = ord[(i + 1) % lines] * 16;
		}
		CK(cudaMemcpyToSymbol(cbuf, h.data(), WORDS * 4));
		for (int w : { 1, 8, 32 }) {
			std::vector<double> v;
			for (int r = 0; r < 5; r++) {
				CK(cudaMemset(cyc, 0, 8));
				chase<<<g_sms, 32 * w>>>(seq ? kib * 256 : lines, steps, cyc, sink);
				CK(cudaDeviceSynchronize());
				long long c;
				CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
				v.push_back((double)c / ((double)g_sms * w) / steps);
			}
			std::sort(v.begin(), v.end());
			printf("CONST walk=%s kib=%d warps_per_sm=%d cycles_per_load=%.1f\n",
			       seq ? "words" : "lines", kib, w, v[2]);
		}
	}
	return 0;
}
