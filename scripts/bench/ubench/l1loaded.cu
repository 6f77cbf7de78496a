// l1loaded.cu: an L1 hit's latency while other warps of its SM keep the L1
// busy.  One block per SM; its warp 0 chases dependent pointers through 8 KiB
// (one word every 128 bytes, every load an L1 hit after a warm-up pass),
// while K other warps load 128-byte lines of another 32 KiB, L1 hits too,
// eight independent loads in flight per warp, as fast as they can, until the
// chase is done.  Prints, per K, the streamers' warp loads per SM cycle (one
// L1 wavefront each: l1lines.cu) and the chase's cycles per load: how a
// load's wait grows with the L1's utilization.  The emulated device's chain
// takes lat.l1 per hit (profiles/sm_90.profile) whatever the load.
#include "terms.h"

static const int CHASE_WORDS = 8192 / 4, STEPS = 4096;
// a power of two (the wrap is a mask); the allocation has 8 lines more, which
// a warp's 8 loads may reach past it
static const int STREAM_WORDS = 32768 / 4;

__global__ void l1loaded(const unsigned *chase, const float *stream, int streamers,
			 long long *cyc, unsigned long long *loads, float *sink)
{
	__shared__ volatile int done;
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	if (threadIdx.x == 0)
		done = 0;
	__syncthreads();
	if (warp == 0) {
		if (lane == 0) {
			unsigned j = 0;
			for (int i = 0; i < CHASE_WORDS / 32; i++) // every line once
				j = chase[j];
			long long t0 = clock64();
			for (int i = 0; i < STEPS; i++)
				j = chase[j];
			long long t1 = clock64();
			done = 1;
			atomicAdd((unsigned long long *)cyc, (unsigned long long)(t1 - t0));
			sink[blockIdx.x] = (float)j;
		}
		return;
	}
	if (warp > streamers)
		return;
	float acc = 0;
	unsigned long long n = 0;
	// constant offsets from one pointer: a load costs little else to issue
	int base = warp * 8 * 32;
	while (!done) {
		const float *p = stream + base + lane;
		float a[8];
		for (int k = 0; k < 8; k++)
			a[k] = p[k * 32];
		for (int k = 0; k < 8; k++)
			acc += a[k];
		base = (base + 8 * 32 * 7) & (STREAM_WORDS - 1);
		n += 8;
	}
	if (lane == 0)
		atomicAdd(loads, n);
	if (acc == 12345.f)
		sink[gridDim.x] = acc;
}

int main()
{
	device_init();
	std::vector<unsigned> h(CHASE_WORDS, 0);
	// a cycle through the 64 lines in a scrambled order: no prefetch helps
	int lines = CHASE_WORDS / 32;
	std::vector<int> ord(lines);
	for (int i = 0; i < lines; i++)
		ord[i] = (i * 37) % lines;
	for (int i = 0; i < lines; i++)
		h[ord[i] * 32] = ord[(i + 1) % lines] * 32;
	unsigned *chase;
	float *stream, *sink;
	long long *cyc;
	unsigned long long *loads;
	CK(cudaMalloc(&chase, CHASE_WORDS * 4));
	CK(cudaMalloc(&stream, (STREAM_WORDS + 8 * 32) * 4));
	CK(cudaMalloc(&sink, (g_sms + 1) * 4));
	CK(cudaMalloc(&cyc, 8));
	CK(cudaMalloc(&loads, 8));
	CK(cudaMemcpy(chase, h.data(), CHASE_WORDS * 4, cudaMemcpyHostToDevice));
	CK(cudaMemset(stream, 0, (STREAM_WORDS + 8 * 32) * 4));
	for (int k : { 0, 1, 2, 4, 8, 12, 16, 24, 31 }) {
		std::vector<double> lat, util;
		for (int r = 0; r < 5; r++) {
			CK(cudaMemset(cyc, 0, 8));
			CK(cudaMemset(loads, 0, 8));
			l1loaded<<<g_sms, 32 * (1 + k)>>>(chase, stream, k, cyc, loads, sink);
			CK(cudaDeviceSynchronize());
			long long c;
			unsigned long long n;
			CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
			CK(cudaMemcpy(&n, loads, 8, cudaMemcpyDeviceToHost));
			lat.push_back((double)c / g_sms / STEPS);
			util.push_back((double)n / g_sms / ((double)c / g_sms));
		}
		std::sort(lat.begin(), lat.end());
		std::sort(util.begin(), util.end());
		printf("L1LOADED streamers=%d warp_loads_per_cycle=%.3f chase_cycles=%.1f\n", k, util[2], lat[2]);
	}
	return 0;
}
