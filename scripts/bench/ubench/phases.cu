// phases.cu: whether an SM overlaps one program phase's L1 wavefronts with
// another phase's instruction issue.  Each thread repeats `reps` times: a
// load phase of g loads from an L1-resident table, then a compute phase of
// F FFMAs a loaded word (independent chains).  The next load phase's
// addresses depend on the compute phase's results (through a mask that is
// 0 at run time), so no compiler moves loads across phases.  Rows: lanes
// 32 words apart (every lane on one bank: 32 wavefronts a warp load) or
// consecutive (one wavefront).  Total loads and FFMAs a thread are the same
// for every g, so the phases alternate finer as g shrinks (and one row
// has a single phase of each, as kmeans has: 64 loads, then their FFMAs).  Prints, per g,
// the time of loads alone (F 0), of compute alone (consecutive lanes),
// of both, and where both lies between the larger of the two (0: the
// phases overlap fully) and their sum (1: none).  kmeans's row-major
// configurations, one load phase then one compute phase a thread, ran at
// the sum on the H100 (results/heldout4/ncu-kmeans-h100.txt).
#include "terms.h"

static const int TOTAL = 512; // loads a thread
static const int TAB = 32 * 64; // words: 64 rows of 32, 8 KiB

template <int G>
__global__ void phases(const float *__restrict__ tab, float *out, int reps, int f, int stride,
		       int mask)
{
	int lane = threadIdx.x & 31;
	float acc[G];
#pragma unroll
	for (int i = 0; i < G; i++)
		acc[i] = 0.0f;
	int off = 0;
	for (int r = 0; r < reps; r++) {
		float x[G];
#pragma unroll
		for (int i = 0; i < G; i++)
			x[i] = tab[(lane * stride + ((r * G + i + off) & 31) + 32 * (threadIdx.x >> 5 & 63)) &
				   (TAB - 1)];
#pragma unroll
		for (int i = 0; i < G; i++) // every load is used, even with F 0
			acc[i] += x[i];
		for (int k = 0; k < f; k++) {
#pragma unroll
			for (int i = 0; i < G; i++)
				acc[i] = fmaf(acc[i], x[i], 0.5f);
		}
		// the next loads wait for this phase's results (mask is 0)
		off = __float_as_int(acc[0]) & mask;
	}
	float s = 0;
#pragma unroll
	for (int i = 0; i < G; i++)
		s += acc[i];
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int G> static void row(const float *tab, float *out, int f, int blocks, int threads,
				 int reps = TOTAL / G)
{
	float lo = time_ms([&] { phases<G><<<blocks, threads>>>(tab, out, reps, 0, 32, 0); });
	float co = time_ms([&] { phases<G><<<blocks, threads>>>(tab, out, reps, f, 1, 0); });
	float both = time_ms([&] { phases<G><<<blocks, threads>>>(tab, out, reps, f, 32, 0); });
	float mx = lo > co ? lo : co, sum = lo + co;
	printf("PHASE g=%d reps=%d f=%d block=%d blocks=%d loads_ms=%.4f compute_ms=%.4f both_ms=%.4f "
	       "overlap_left=%.2f\n",
	       G, reps, f, threads, blocks, lo, co, both, (both - mx) / (sum - mx));
}

int main()
{
	device_init();
	float *tab, *out;
	CK(cudaMalloc(&tab, TAB * 4));
	CK(cudaMemset(tab, 0, TAB * 4));
	for (int threads : { 128, 512 }) {
		int blocks = g_sms * 16 * 256 / threads; // several waves
		CK(cudaMalloc(&out, (size_t)blocks * threads * 4));
		for (int f : { 64, 128, 256 }) {
			row<64>(tab, out, f, blocks, threads, 1); // one phase of each, as kmeans
			row<64>(tab, out, f, blocks, threads, 2);
			row<64>(tab, out, f, blocks, threads, 4);
			row<64>(tab, out, f, blocks, threads);
			row<32>(tab, out, f, blocks, threads);
			row<16>(tab, out, f, blocks, threads);
			row<8>(tab, out, f, blocks, threads);
			row<4>(tab, out, f, blocks, threads);
			row<1>(tab, out, f, blocks, threads);
		}
		CK(cudaFree(out));
	}
	return 0;
}
