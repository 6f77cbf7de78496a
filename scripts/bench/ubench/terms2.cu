// Microbenchmarks for two terms the sm_90 model lacks (results/README.md,
// "Held out"): global atomics contending for few addresses, and the L1's
// cost of a warp load by the 128-byte lines it spans rather than its
// sectors.  One line per measurement, with its unit; times are the median
// of 11.
//
// Contended global atomics (histogram.cu with PRIV=0 measured 34.6 ms for
// 2^27 atomics into 256 bins, 3.9 G atomics/s, where terms.cu's one-address
// and distinct-address cases give 43 and 446 G/s): atomicAdd(1) to K bins,
//   random   the bin a hash of the thread's item (lanes of a warp collide),
//   lanes    bin (lane + 32 * warp) % K (no two lanes of a warp alike when
//            K >= 32; the per-block epilogue of histogram's PRIV=1),
// for K = 1 to 65536, as G atomics/s and ns per atomic per bin.
//
// L1 lines: 256 threads a block re-read a 16 KiB block-private window
// (L1-resident after the first pass); a warp's 32 lanes read 4-byte words in
// G groups of 32/G consecutive lanes, each group in its own 128-byte line
// (G = 1, 2, 4, 8, 16, 32), so that a load spans G lines and max(G, 4)
// sectors: 1 to 4 lines of 4 sectors tell a cost per line from one per
// sector (conv11.cu's BX=16 blocks, two rows a warp, measured 1.6 times
// the BX=32 ones).  SM cycles per warp load.
//
//   nvcc -O3 -arch=sm_90 -o terms2 terms2.cu && ./terms2
// (terms.h, beside it: the harness shared with terms.cu)
#include <cstdio>
#include <cuda_runtime.h>

#include "terms.h"

/* ---- contended global atomics: ITER atomics per thread into K bins
 * (K a power of two).  MODE 0: a hash of (thread, i); 1: lane-distinct. */
template <int MODE> __global__ void gbins(unsigned *hist, unsigned kmask, int iter)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned lane = threadIdx.x & 31, warp = t >> 5;
	for (int i = 0; i < iter; i++) {
		unsigned b;
		if (MODE == 0)
			b = ((t * 2654435761u) ^ ((unsigned)i * 40503u)) * 2246822519u >> 8;
		else
			b = lane + 32 * (warp + (unsigned)i);
		atomicAdd(&hist[b & kmask], 1u);
	}
}

/* ---- L1 lines: lane l of group g = l / (32 / G) reads word
 * g * 32 + l % (32 / G) of a 4 KiB step of the block's 16 KiB window (line
 * g of the step), the step moving each iteration. */
template <int G> __global__ void lines(const float *x, int iter, float *out)
{
	const float *w = x + (size_t)blockIdx.x * 4096; /* 16 KiB per block */
	unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	unsigned per = 32 / G, g = lane / per;
	unsigned off = g * 32 + lane % per;
	float s = 0;
	for (int i = 0; i < iter; i++) {
		unsigned base = ((warp + (unsigned)i) % 4) * 1024; /* 4 KiB steps */
		float v;
		/* volatile: the four addresses repeat, and a plain load would be
		 * hoisted out of the loop (the first H100 run: 0.39 cycles a load) */
		asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(w + base + off));
		s += v;
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main()
{
	device_init();

	unsigned *hist;
	float *x, *out;
	CK(cudaMalloc(&hist, 65536 * 4));
	CK(cudaMalloc(&x, (size_t)g_sms * 8 * 4096 * 4));
	CK(cudaMalloc(&out, (size_t)g_sms * 8 * 256 * 4));
	CK(cudaMemset(hist, 0, 65536 * 4));
	CK(cudaMemset(x, 0, (size_t)g_sms * 8 * 4096 * 4));

	{
		int blocks = g_sms * 8, tpb = 256, iter = 64;
		double n = (double)blocks * tpb * iter;
		unsigned ks[] = { 1, 8, 32, 256, 4096, 65536 };
		for (unsigned k : ks) {
			float r = time_ms([&] { gbins<0><<<blocks, tpb>>>(hist, k - 1, iter); });
			float l = time_ms([&] { gbins<1><<<blocks, tpb>>>(hist, k - 1, iter); });
			printf("global atomicAdd into %5u bins: random %8.3f ms, %8.2f G atomics/s, %8.3f ns per atomic a bin;"
			       " lane-distinct %8.3f ms, %8.2f G atomics/s, %8.3f ns per atomic a bin\n",
			       k, r, n / (r * 1e6), r * 1e6 / (n / k), l, n / (l * 1e6), l * 1e6 / (n / k));
		}
	}
	{
		int blocks = g_sms * 8, tpb = 256, iter = 4096;
		double wi = (double)blocks * tpb / 32 * iter / g_sms; /* warp loads a SM */
		float ms[6];
		ms[0] = time_ms([&] { lines<1><<<blocks, tpb>>>(x, iter, out); });
		ms[1] = time_ms([&] { lines<2><<<blocks, tpb>>>(x, iter, out); });
		ms[2] = time_ms([&] { lines<4><<<blocks, tpb>>>(x, iter, out); });
		ms[3] = time_ms([&] { lines<8><<<blocks, tpb>>>(x, iter, out); });
		ms[4] = time_ms([&] { lines<16><<<blocks, tpb>>>(x, iter, out); });
		ms[5] = time_ms([&] { lines<32><<<blocks, tpb>>>(x, iter, out); });
		for (int k = 0; k < 6; k++) {
			int g = 1 << k, per = 32 / g;
			int sectors = g * ((per * 4 + 31) / 32);
			printf("L1 warp load over %2d lines (%2d sectors): %.3f ms, %.2f SM cycles per warp load\n",
			       g, sectors, ms[k], ms[k] * 1e6 * g_clock_ghz / wi);
		}
	}
	return 0;
}
