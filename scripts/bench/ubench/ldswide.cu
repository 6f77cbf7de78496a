// Microbenchmark for the cost of a wide shared-memory load against the
// scalar ones it replaces (driver/dev/emu/model/ldsvec.c: ptxas merges runs
// of scalar ld.shared into LDS.64 and LDS.128, and the model charges a
// merged run one instruction and the wavefronts of all its lanes' words
// together, by the banks' rule).
//
// Every thread walks an index through a zero-filled shared array: each
// iteration issues U = 8 independent loads, of 4, 8 or 16 bytes a lane, at
// idx + its lane's offset + k * 64 words (k < 8), ORs every word loaded (0,
// but the compiler cannot know; a word left unused lets ptxas narrow the
// load) and folds that into the next idx, so nothing is
// hoisted or dropped while 8 blocks of 256 threads an SM keep far more loads
// in flight than shared memory serves: the time is its throughput.  Which
// words a lane reads is a per-thread offset table in constant memory:
//   bcast   every lane the same address (one word, or one 8- or 16-byte
//           run: a broadcast);
//   row     lane l at l * W bytes, W the load's width (a warp's 128, 256
//           or 512 consecutive bytes);
//   stride  lane l at l * 64 bytes (16 words apart: 16-way on the scalar
//           bank rule, 4 lanes a 16-byte load's quarter-warp);
//   half    lanes l and l + 16 at the same address, l * W bytes (two lanes
//           a run, a warp's 64, 128 or 256 distinct bytes).
// Reported: SM cycles per warp load (event time at the reported clock over
// the warp loads each SM issued) and the model's rule for that load: one
// wavefront per distinct word a bank is asked for at most, the most any
// bank is asked.  Median of 7 runs; the whole run takes a few seconds.
//
//   nvcc -O3 -arch=sm_90 -o ldswide scripts/bench/ubench/ldswide.cu && ./ldswide
//   (scripts/bench/ubench/run.sh ldswide OUT from the repository root)
#include <cstdio>
#include <cstring>
#include <set>
#include <cuda_runtime.h>

#include "terms.h"

enum { TPB = 256, U = 8, STEP = 64, BPS = 8, WORDS = 8192 };

__constant__ int c_off[TPB]; /* word offset of each thread's address */

/* One load of W words at shared address a + K bytes, their OR: every word
 * used, so ptxas keeps the width, at about one LOP3 for two words. */
template <int W, int K> __device__ __forceinline__ unsigned lds(unsigned a)
{
	unsigned x, y, z, w;
	if constexpr (W == 1) {
		asm volatile("ld.shared.u32 %0, [%1+%2];" : "=r"(x) : "r"(a), "n"(K));
		return x;
	} else if constexpr (W == 2) {
		asm volatile("ld.shared.v2.u32 {%0, %1}, [%2+%3];" : "=r"(x), "=r"(y) : "r"(a), "n"(K));
		return x | y;
	} else {
		asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4+%5];"
			     : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a), "n"(K));
		return x | y | z | w;
	}
}

template <int W> __global__ void walk(unsigned *out, int iters)
{
	__shared__ __align__(16) unsigned s[WORDS];
	for (int i = threadIdx.x; i < WORDS; i += TPB)
		s[i] = 0;
	__syncthreads();
	unsigned base = (unsigned)__cvta_generic_to_shared(s) + 4u * c_off[threadIdx.x];
	unsigned idx = 0, acc = 0;
	for (int it = 0; it < iters; it++) {
		unsigned a = base + 16u * idx;
		unsigned t = lds<W, 0>(a) | lds<W, 256>(a) | lds<W, 512>(a) | lds<W, 768>(a) |
			     lds<W, 1024>(a) | lds<W, 1280>(a) | lds<W, 1536>(a) | lds<W, 1792>(a);
		acc |= t;
		idx = (idx + t) & 63; /* t is 0: idx stays 0 */
	}
	if (acc)
		out[blockIdx.x * TPB + threadIdx.x] = acc;
}

/* the model's wavefronts for a warp's load of width w words at offsets[] */
static int rule(const int *offs, int w)
{
	std::set<int> words;
	for (int l = 0; l < 32; l++)
		for (int e = 0; e < w; e++)
			words.insert(offs[l] + e);
	int per[32] = { 0 }, most = 0;
	for (int wd : words)
		most = ++per[wd & 31] > most ? per[wd & 31] : most;
	return most;
}

template <int W> static double run(const char *name, const int *lane, unsigned *out)
{
	int offs[TPB];
	for (int t = 0; t < TPB; t++)
		offs[t] = lane[t % 32];
	CK(cudaMemcpyToSymbol(c_off, offs, sizeof offs));
	int blocks = g_sms * BPS, iters = 1 << 12;
	float ms = time_ms([&] { walk<W><<<blocks, TPB>>>(out, iters); }, 7);
	/* scale to about 2 ms, then time again */
	iters = (int)(iters * 2.0 / (ms > 0.01 ? ms : 0.01));
	ms = time_ms([&] { walk<W><<<blocks, TPB>>>(out, iters); }, 7);
	double loads = (double)BPS * (TPB / 32) * iters * U; /* warp loads an SM */
	double cyc = ms * 1e-3 * g_clock_ghz * 1e9 / loads;
	printf("%-8s %2d bytes a lane: %7.3f SM cycles per warp load (rule %2d), %.3f ms, iter %d\n",
	       name, 4 * W, cyc, rule(lane, W), ms, iters);
	return cyc;
}

template <int W> static void cases(unsigned *out)
{
	int lane[32];
	for (int l = 0; l < 32; l++)
		lane[l] = 0;
	run<W>("bcast", lane, out);
	for (int l = 0; l < 32; l++)
		lane[l] = l * W;
	run<W>("row", lane, out);
	for (int l = 0; l < 32; l++)
		lane[l] = l * 16;
	run<W>("stride", lane, out);
	for (int l = 0; l < 32; l++)
		lane[l] = (l % 16) * W;
	run<W>("half", lane, out);
}

int main()
{
	device_init();
	unsigned *out;
	CK(cudaMalloc(&out, (size_t)g_sms * BPS * TPB * sizeof(unsigned)));
	printf("grid %d blocks of %d threads (%d resident a SM), %d independent loads an iteration\n",
	       g_sms * BPS, TPB, BPS, U);
	cases<1>(out);
	cases<2>(out);
	cases<4>(out);
	CK(cudaFree(out));
	return 0;
}
