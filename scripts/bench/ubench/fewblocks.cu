// fewblocks.cu: how fast an SM's L1 serves independent warp loads when few
// warps are resident, and what a block's start and end cost.  conv11's
// global-memory tiles (scripts/bench/heldout/) are ptxas-unrolled runs of 242
// independent L1-hit loads a thread, each feeding one FFMA chain; at 96
// registers a thread only 1 or 2 blocks of 16 warps fit an SM, and the H100
// ran them up to 2.1 times the L1's wavefront time, where 8 blocks of 8 warps
// ran at 1.18.
//
// Each thread makes 242 loads, once or 8 times (unrolled, compile-time offsets, 32 consecutive
// words a warp load, SHIFT words off a line boundary) from a table
// that stays in the L1 (32 KiB), into one FFMA chain (CHAINS = 1) or four.  Blocks per
// SM are set by dynamic shared memory; the grid is 40 waves.  Prints, per
// case, the SM cycles per warp load (mode 1: each load a line apart, so on one
// line or over two by the shift alone) (the L1 serves one wavefront a cycle;
// 1.145 for loads over two lines, results/ubench-l1skew-h200.txt) and a
// block's life in SM cycles (a wave's time, the SM running blocks_per_sm at
// once).  Median of 7 runs.
#include "terms.h"

enum { TAB = 8192 };

enum { L = 242 };

/* the word a thread's i-th load reads past its own: MODE 0 as conv11's taps
 * (11 consecutive words, rows 64 words apart); MODE 1 a line apart each, so
 * that every load of a warp is on one line (shift 0) or straddles two */
template <int MODE> __device__ __forceinline__ int off(int i)
{
	return MODE ? 32 * i : (i % 11) + 64 * (i / 11) % (TAB / 2);
}

template <int REP, int CHAINS, int MODE = 0>
__global__ void few(const float *__restrict__ tab, float *out, int shift)
{
	extern __shared__ float pad[];
	const float *p = tab + ((threadIdx.x & 31) + shift + 32 * (threadIdx.x >> 5)) % (TAB / 2);
	float s[CHAINS];
#pragma unroll
	for (int c = 0; c < CHAINS; c++)
		s[c] = 0.0f;
#pragma unroll 1
	for (int r = 0; r < REP; r++) {
#pragma unroll
		for (int i = 0; i < L; i++)
			s[i % CHAINS] = fmaf(p[off<MODE>(i)], 1.0001f, s[i % CHAINS]);
		p += 64 * (r & 1 ? -1 : 1);
	}
	float r = 0.0f;
#pragma unroll
	for (int c = 0; c < CHAINS; c++)
		r += s[c];
	if (r == 1234.5f)
		out[blockIdx.x] = r + pad[0];
}

template <int REP, int CHAINS, int MODE = 0>
static void run(const float *tab, float *out, int warps, int bps, int shift)
{
	auto k = few<REP, CHAINS, MODE>;
	int smem_sm = 0;
	CK(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
	/* dynamic shared memory that lets only bps blocks reside (each block
	 * also reserves 1 KiB of the SM's); bps 0: none, as many as fit */
	int smem = bps ? smem_sm / bps - 1024 - 64 : 0;
	if (smem > 227 * 1024)
		smem = 227 * 1024;
	CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
	int got = 0;
	CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&got, k, 32 * warps, smem));
	int blocks = g_sms * got * 40;
	float ms = time_ms([&] { k<<<blocks, 32 * warps, smem>>>(tab, out, shift); }, 7);
	double cyc = ms * 1e-3 * g_clock_ghz * 1e9;
	double wl = (double)blocks * warps * L * REP / g_sms;
	printf("FEWB mode=%d warps=%d blocks_per_sm=%d resident_warps=%d loads=%d chains=%d shift=%d "
	       "ms=%.4f cycles_per_warp_load=%.3f block_cycles=%.0f\n",
	       MODE, warps, got, warps * got, L * REP, CHAINS, shift, ms, cyc / wl, cyc / 40);
}

int main()
{
	device_init();
	float *tab, *out;
	CK(cudaMalloc(&tab, TAB * sizeof(float)));
	CK(cudaMemset(tab, 0, TAB * sizeof(float)));
	CK(cudaMalloc(&out, 1 << 20));
	/* a load's own cost, on one line or over two (mode 1 takes 70
	 * registers: as many blocks as fit, no shared memory) */
	for (int shift : { 0, 1, 5, 16, 31 }) {
		run<8, 1, 1>(tab, out, 4, 0, shift);
		run<8, 4, 1>(tab, out, 4, 0, shift);
		run<8, 1, 0>(tab, out, 4, 0, shift);
	}
	int shapes[][2] = { { 16, 1 }, { 16, 2 }, { 8, 2 }, { 8, 4 }, { 8, 8 }, { 4, 4 }, { 4, 8 },
			    { 4, 16 }, { 32, 1 }, { 32, 2 } };
	for (int shift : { 0, 5 })
		for (auto &s : shapes) {
			run<1, 1>(tab, out, s[0], s[1], shift);
			run<1, 4>(tab, out, s[0], s[1], shift);
			run<8, 1>(tab, out, s[0], s[1], shift);
		}
	CK(cudaFree(tab));
	CK(cudaFree(out));
	return 0;
}
