// DRAM latency under load: one warp chases dependent pointers through 1 GiB
// (2 KiB apart, every load a DRAM access) while N other blocks stream
// another 1 GiB as fast as they can.  Prints, per N, the bandwidth the
// streamers reach and the chase's cycles per load: how a load's wait grows
// with DRAM's utilization, for the interval model's loaded-latency queue
// (driver/dev/emu/model/interval.c, dram_channels in profiles/*.profile).
//
//   nvcc -O3 -arch=sm_90 -o loaded loaded.cu && ./loaded
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

static const size_t CHASE_BYTES = 1ull << 30, STREAM_BYTES = 1ull << 30;
static const unsigned STRIDE = 2048 / sizeof(unsigned); // 2 KiB between chased words

__global__ void loaded(const unsigned *chase, int steps, const float4 *s, size_t n4,
		       volatile int *done, unsigned long long *bytes, long long *cyc, unsigned *sink)
{
	if (blockIdx.x == 0) {
		if (threadIdx.x == 0) {
			unsigned j = 0;
			for (int i = 0; i < 64; i++) // into the TLB's reach
				j = chase[j];
			long long t0 = clock64();
			for (int i = 0; i < steps; i++)
				j = chase[j];
			long long t1 = clock64();
			*cyc = t1 - t0;
			*sink = j;
			__threadfence();
			*done = 1;
		}
		return;
	}
	size_t stride = (size_t)(gridDim.x - 1) * blockDim.x;
	size_t i = (size_t)(blockIdx.x - 1) * blockDim.x + threadIdx.x;
	float acc = 0;
	unsigned long long got = 0;
	while (!*done) {
		float4 a = s[i % n4], b = s[(i + stride) % n4], c = s[(i + 2 * stride) % n4],
		       d = s[(i + 3 * stride) % n4];
		acc += a.x + b.y + c.z + d.w;
		got += 4 * sizeof(float4);
		i += 4 * stride;
	}
	if (acc == 12345.f)
		sink[1] = 1;
	atomicAdd(bytes, got);
}

int main()
{
	size_t nw = CHASE_BYTES / sizeof(unsigned), hops = nw / STRIDE;
	std::vector<unsigned> h(nw, 0);
	// a random cycle through the hops, so that no prefetcher follows it
	std::vector<size_t> order(hops);
	for (size_t k = 0; k < hops; k++)
		order[k] = k;
	srand(7);
	for (size_t k = hops - 1; k > 0; k--) {
		size_t r = ((size_t)rand() * RAND_MAX + rand()) % (k + 1);
		std::swap(order[k], order[r]);
	}
	for (size_t k = 0; k < hops; k++)
		h[order[k] * STRIDE] = (unsigned)(order[(k + 1) % hops] * STRIDE);
	unsigned *chase, *sink;
	float4 *s;
	int *done;
	unsigned long long *bytes;
	long long *cyc;
	CK(cudaMalloc(&chase, CHASE_BYTES));
	CK(cudaMalloc(&s, STREAM_BYTES));
	CK(cudaMalloc(&done, sizeof(int)));
	CK(cudaMalloc(&bytes, sizeof(*bytes)));
	CK(cudaMalloc(&cyc, sizeof(*cyc)));
	CK(cudaMalloc(&sink, 2 * sizeof(unsigned)));
	CK(cudaMemcpy(chase, h.data(), CHASE_BYTES, cudaMemcpyHostToDevice));
	CK(cudaMemset(s, 0, STREAM_BYTES));
	int clk;
	CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
	const int steps = 20000;
	printf("loaded: a dependent chase over 1 GiB at 2 KiB strides (%d loads) beside N streaming\n"
	       "blocks of 256 threads (4 float4 loads in flight each); median of 5\n", steps);
	printf("%5s %9s %12s\n", "N", "GB/s", "cycles/load");
	int ns[] = { 0, 4, 8, 16, 33, 66, 132, 198, 264, 396, 528 };
	for (int n : ns) {
		std::vector<double> gbs, lat;
		for (int r = 0; r < 5; r++) {
			CK(cudaMemset(done, 0, sizeof(int)));
			CK(cudaMemset(bytes, 0, sizeof(*bytes)));
			cudaEvent_t a, b;
			CK(cudaEventCreate(&a));
			CK(cudaEventCreate(&b));
			CK(cudaEventRecord(a));
			loaded<<<1 + n, 256>>>(chase, steps, s, STREAM_BYTES / sizeof(float4), done, bytes, cyc, sink);
			CK(cudaEventRecord(b));
			CK(cudaEventSynchronize(b));
			CK(cudaGetLastError());
			float ms;
			CK(cudaEventElapsedTime(&ms, a, b));
			unsigned long long by;
			long long c;
			CK(cudaMemcpy(&by, bytes, sizeof by, cudaMemcpyDeviceToHost));
			CK(cudaMemcpy(&c, cyc, sizeof c, cudaMemcpyDeviceToHost));
			gbs.push_back(by / (ms * 1e6));
			lat.push_back((double)c / steps);
		}
		std::sort(gbs.begin(), gbs.end());
		std::sort(lat.begin(), lat.end());
		printf("%5d %9.0f %12.1f\n", n, gbs[2], lat[2]);
	}
	return 0;
}
