// bitops.cu: the SM's throughput for PTX's bit-counting instructions
// (popc, clz, brev, bfind: SASS POPC, FLO, BREV), which the model issued at
// the integer pipe's rate, 64 lanes a clock; the seventh suite's strmatch
// (scripts/bench/heldout7/), whose word compares find the first mismatch with
// __ffs (brev, bfind), ran at twice its modeled time.  Each thread runs 16
// independent chains of one instruction (inline PTX, each result its own
// next operand), 32 warps an SM, so the time is the pipe's, not a latency;
// and the same chains interleaved with as many ex2.approx (MUFU), to tell
// whether the two share the SFU's pipe: their sum if so, the larger if not.
// Prints warp instructions a clock an SM (32 lanes each), median of 7 runs;
// then each one's latency, one warp's chain of it timed by clock64 (the
// chain's loop overhead included, 1 in 16).  The xor case (an ALU
// instruction for scale) is void: ptxas folds a register xor'ed twice with
// one constant, whatever the PTX says.
#include "terms.h"

enum { C = 16, ITERS = 2048, TPB = 256 };

#define CHAIN(OP)                                                                      \
	_Pragma("unroll") for (int c = 0; c < C; c++) asm volatile(OP : "+r"(r[c]));

template <int OP, int MUFU>
__global__ void __launch_bounds__(TPB, 4) bits(unsigned *out, unsigned seed)
{
	unsigned r[C];
	float f[C];
#pragma unroll
	for (int c = 0; c < C; c++) {
		r[c] = seed * (threadIdx.x + c + 1);
		f[c] = (float)r[c] * 1e-9f;
	}
	for (int i = 0; i < ITERS; i++) {
		if (OP == 0)
			CHAIN("popc.b32 %0, %0;")
		if (OP == 1)
			CHAIN("clz.b32 %0, %0;")
		if (OP == 2)
			CHAIN("brev.b32 %0, %0;")
		if (OP == 3)
			CHAIN("bfind.u32 %0, %0;")
		if (OP == 4)
			CHAIN("xor.b32 %0, %0, 0x5bd1e995;")
		if (MUFU) {
#pragma unroll
			for (int c = 0; c < C; c++)
				asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(f[c]));
		}
	}
	unsigned s = 0;
#pragma unroll
	for (int c = 0; c < C; c++)
		s += r[c] + __float_as_uint(f[c]);
	if (s == 0x12345678u)
		out[threadIdx.x] = s;
}

/* one chain of one warp: the instruction's latency, by clock64 */
template <int OP> __global__ void lat(unsigned *out, long long *cyc, unsigned seed)
{
	unsigned r = seed * (threadIdx.x + 1);
	long long t0 = clock64();
	for (int i = 0; i < ITERS; i++) {
#pragma unroll
		for (int k = 0; k < 16; k++) {
			if (OP == 0)
				asm volatile("popc.b32 %0, %0;" : "+r"(r));
			if (OP == 2)
				asm volatile("brev.b32 %0, %0;" : "+r"(r));
			if (OP == 3)
				asm volatile("bfind.u32 %0, %0;" : "+r"(r));
		}
	}
	long long t1 = clock64();
	if (threadIdx.x == 0)
		*cyc = t1 - t0;
	if (r == 0x12345678u)
		out[threadIdx.x] = r;
}

template <int OP> static void latency(unsigned *out, long long *dc, const char *name)
{
	lat<OP><<<1, 32>>>(out, dc, 12345u);
	CK(cudaDeviceSynchronize());
	long long c;
	CK(cudaMemcpy(&c, dc, sizeof c, cudaMemcpyDeviceToHost));
	printf("BITLAT %-6s cycles_a_dependent_instruction=%.2f\n", name, (double)c / (ITERS * 16));
}

template <int OP, int MUFU> static double run(unsigned *out, const char *name)
{
	int blocks = g_sms * 4 * 4;
	float ms = time_ms([&] { bits<OP, MUFU><<<blocks, TPB>>>(out, 12345u); }, 7);
	double cyc = ms * 1e-3 * g_clock_ghz * 1e9;
	double wi = (double)blocks * (TPB / 32) * ITERS * C * ((OP <= 4) + MUFU) / g_sms;
	printf("BITOPS %-6s mufu=%d ms=%.4f warp_inst_a_clock_sm=%.2f lanes_a_clock_sm=%.1f\n", name, MUFU,
	       ms, wi / cyc, 32 * wi / cyc);
	return ms;
}

int main()
{
	device_init();
	unsigned *out;
	CK(cudaMalloc(&out, 4096));
	run<0, 0>(out, "popc");
	run<1, 0>(out, "clz");
	run<2, 0>(out, "brev");
	run<3, 0>(out, "bfind");
	run<4, 0>(out, "xor");
	run<0, 1>(out, "popc");
	run<2, 1>(out, "brev");
	run<4, 1>(out, "xor");
	/* MUFU alone: OP 5 runs no integer chain */
	run<5, 1>(out, "none");
	long long *dc;
	CK(cudaMalloc(&dc, sizeof *dc));
	latency<0>(out, dc, "popc");
	latency<2>(out, dc, "brev");
	latency<3>(out, dc, "bfind");
	CK(cudaFree(dc));
	CK(cudaFree(out));
	return 0;
}
