// l2flight.cu: an L2 hit's latency against the misses an SM keeps in
// flight.  dedisp's one-warp blocks (scripts/bench/heldout/) wait ~940
// cycles a channel for loads the L2 serves in 278 idle, at half the L2's
// bandwidth; does an SM's L1 hold only so many misses in flight?
//
// Each warp walks a 16 MiB buffer (beyond the L1, within the L2) in steps of
// U independent warp loads, the next step's addresses depending on the
// loaded values (zero), so that a warp has exactly U loads in flight.  A
// warp load reads one 32-byte sector (four lanes a word) or four (32
// consecutive words, a whole line).  W warps an SM (one
// block of W warps on each SM).  Prints the cycles a step takes (the loaded
// latency), the sectors in flight an SM (W x U x sectors) and the sectors a
// cycle an SM; last, the same on one SM alone (a grid of one block).  Median
// of 7 runs.
#include "terms.h"

template <int U>
__global__ void walk(const unsigned *__restrict__ buf, unsigned *out, unsigned mask, int steps,
		     int sect)
{
	unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
	/* each warp its own region; a step U lines 64 KiB apart, so that no
	 * two loads share a line and the walk leaves each line behind */
	unsigned idx = (blockIdx.x * 997u + w * 131u) * 32u * 64u;
	unsigned word = sect == 1 ? (lane & 7) : lane;
	unsigned z = 0;
	for (int s = 0; s < steps; s++) {
		unsigned v[U];
#pragma unroll
		for (int k = 0; k < U; k++)
			v[k] = buf[(idx + k * 16384u + word) & mask];
		z = 0;
#pragma unroll
		for (int k = 0; k < U; k++)
			z += v[k];
		idx += 32u * 7u + z;
	}
	if (z == 0xdeadbeefu)
		out[threadIdx.x] = z;
}

template <int U> static void run(const unsigned *buf, unsigned *out, int warps, int sect,
				  int sms = 0)
{
	int nb = sms ? sms : g_sms;
	const unsigned mask = (16u << 20) / 4 - 1;
	int steps = 4096;
	float ms = time_ms([&] { walk<U><<<nb, 32 * warps>>>(buf, out, mask, steps, sect); }, 7);
	double cyc = ms * 1e-3 * g_clock_ghz * 1e9;
	double flight = (double)warps * U * sect;
	printf("L2FLIGHT sms=%d warps=%d loads=%d sectors_a_load=%d in_flight_sectors=%.0f cycles_a_step=%.1f "
	       "sectors_a_cycle_sm=%.3f\n",
	       nb, warps, U, sect, flight, cyc / steps, flight * steps / cyc);
}

int main()
{
	device_init();
	unsigned *buf, *out;
	CK(cudaMalloc(&buf, (16u << 20) + 4096));
	CK(cudaMemset(buf, 0, (16u << 20) + 4096));
	CK(cudaMalloc(&out, 4096));
	for (int sect : { 1, 4 })
		for (int w : { 1, 4, 8, 16, 32 }) {
			run<1>(buf, out, w, sect);
			run<4>(buf, out, w, sect);
			run<16>(buf, out, w, sect);
		}
	/* one SM alone: whether the limit is the SM's or the L2's */
	for (int sect : { 1, 4 }) {
		run<16>(buf, out, 32, sect, 1);
		run<16>(buf, out, 16, sect, 1);
	}
	CK(cudaFree(buf));
	CK(cudaFree(out));
	return 0;
}
