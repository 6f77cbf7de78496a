// hitfill.cu: what a load that hits a sector still on its way from the L2
// waits for.  One thread walks lines 4 KiB apart of a 16 MiB buffer that a
// first pass left in the L2 and that the L1 (256 KiB) cannot keep, so each
// line's first load misses the L1.  Per line, timed by clock64 around a
// load and its use (the use stalls in order until the value is there):
//   miss   the line's first load alone: L1 miss, L2 hit;
//   under  the first load, then at once a second one of the next word of
//          the same sector, of which only the second is used: a plain L1 hit
//          would take the L1's latency, one merged with the miss in flight
//          the miss's;
//   delay  the same, the second load issued D cycles after the first: it
//          should wait what is left of the miss, max(L1, miss - D);
//   hit    the second load after the first one's value arrived: the L1's.
// Prints the median cycles of each over the lines.
#include "terms.h"

__device__ __forceinline__ float ld_ca(const float *p)
{
	float v;
	asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
	return v;
}

__global__ void walk(const float *buf, int lines, int mode, int delay, long long *out, float *sink)
{
	float s = 0;
	for (int i = 0; i < lines; i++) {
		const float *p = buf + (size_t)i * 1024;
		long long t0, t1;
		if (mode == 0) {
			t0 = clock64();
			float v = ld_ca(p);
			s += v;
			asm volatile("" ::"f"(s));
			t1 = clock64();
		} else if (mode == 1) {
			t0 = clock64();
			float v1 = ld_ca(p);
			float v2 = ld_ca(p + 1);
			s += v2;
			asm volatile("" ::"f"(s));
			t1 = clock64();
			s += v1;
		} else if (mode == 2) {
			long long a = clock64();
			float v1 = ld_ca(p);
			while (clock64() - a < delay)
				;
			t0 = clock64();
			float v2 = ld_ca(p + 1);
			s += v2;
			asm volatile("" ::"f"(s));
			t1 = clock64();
			s += v1;
		} else {
			float v1 = ld_ca(p);
			s += v1;
			asm volatile("" ::"f"(s));
			t0 = clock64();
			float v2 = ld_ca(p + 1);
			s += v2;
			asm volatile("" ::"f"(s));
			t1 = clock64();
		}
		out[i] = t1 - t0;
	}
	*sink = s;
}

int main()
{
	device_init();
	const int lines = 4096; // 4096 lines 4 KiB apart: 16 MiB
	float *buf, *sink;
	long long *out;
	CK(cudaMalloc(&buf, (size_t)lines * 4096));
	CK(cudaMemset(buf, 0, (size_t)lines * 4096));
	CK(cudaMalloc(&sink, sizeof(float)));
	CK(cudaMalloc(&out, lines * sizeof(long long)));
	std::vector<long long> h(lines);
	const char *names[] = { "miss", "under", "delay", "hit" };
	struct { int mode, delay; } runs[] = { { 0, 0 }, { 1, 0 }, { 2, 50 }, { 2, 100 }, { 2, 200 },
					      { 2, 400 }, { 3, 0 } };
	for (auto r : runs) {
		walk<<<1, 1>>>(buf, lines, 0, 0, out, sink); // the lines into the L2, out of the L1
		walk<<<1, 1>>>(buf + 512, lines, 0, 0, out, sink);
		walk<<<1, 1>>>(buf, lines, r.mode, r.delay, out, sink);
		CK(cudaDeviceSynchronize());
		CK(cudaMemcpy(h.data(), out, lines * sizeof(long long), cudaMemcpyDeviceToHost));
		std::sort(h.begin(), h.end());
		printf("HITFILL mode=%s delay=%d median_cycles=%lld p10=%lld p90=%lld\n", names[r.mode], r.delay,
		       h[lines / 2], h[lines / 10], h[lines * 9 / 10]);
	}
	return 0;
}
