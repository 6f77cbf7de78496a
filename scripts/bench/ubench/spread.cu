// How DRAM latency spreads, and what the spread costs a warp that waits for
// the slowest of several accesses: a warp load touching k lines, a barrier
// waiting for W warps.  For the interval model's latency draws
// (driver/dev/emu/model/probe.c, dram_spread in profiles/sm_90.profile).
//
// Every chase goes through 1 GiB in 2 KiB hops, in a random cycle (no
// prefetcher follows it), and each repetition starts where the last one
// ended, so that no hop is in the L2 from before.  Beside it, N blocks of
// 256 threads stream another 1 GiB as fast as they can (DRAM's load).
//
//   dist   one lane chases; each load's latency from clock64 read after a
//          shared store of the loaded value (a warp issues in order, and
//          the store waits for the value).  Quantiles of latency / mean.
//   lines  W warps, each lane on its own chase, the 32 lanes of a warp in
//          k groups (k lines per warp load: 128 / k bytes of each), a
//          barrier after every step when W > 1.  Cycles per step over the
//          one-line, one-warp chase's.
//
//   nvcc -O3 -arch=sm_90 -o spread spread.cu && ./spread
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

static const size_t CHASE_BYTES = 1ull << 30, STREAM_BYTES = 1ull << 30;
static const unsigned HOP = 2048 / sizeof(unsigned);
static const int DIST_STEPS = 4096, LINE_STEPS = 256;

// Block 0 measures; the others stream until it is done.
__global__ void spread(const unsigned *chase, const unsigned *pos, int k, int steps, long long *lat,
		       long long *cyc, const float4 *s, size_t n4, volatile int *done,
		       unsigned *sink)
{
	__shared__ unsigned keep[1024];
	if (blockIdx.x == 0) {
		const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, per = 32 / k;
		// lane group g of warp w follows its own chase from its own start
		unsigned j = pos[w * k + lane / per];
		long long t0 = clock64(), tl = t0;
		for (int i = 0; i < steps; i++) {
			j = chase[j + lane % per];
			keep[threadIdx.x] = j;
			if (blockDim.x > 32)
				__syncthreads();
			if (lat && threadIdx.x == 0) {
				long long t = clock64();
				lat[i] = t - tl;
				tl = t;
			}
		}
		long long t1 = clock64();
		if (threadIdx.x == 0)
			*cyc = t1 - t0;
		if (j == 0xffffffffu)
			sink[0] = j;
		__threadfence();
		__syncthreads();
		if (threadIdx.x == 0)
			*done = 1;
		return;
	}
	size_t stride = (size_t)(gridDim.x - 1) * blockDim.x;
	size_t i = (size_t)(blockIdx.x - 1) * blockDim.x + threadIdx.x;
	float acc = 0;
	while (!*done) {
		float4 a = s[i % n4], b = s[(i + stride) % n4], c = s[(i + 2 * stride) % n4],
		       d = s[(i + 3 * stride) % n4];
		acc += a.x + b.y + c.z + d.w;
		i += 4 * stride;
	}
	if (acc == 12345.f)
		sink[1] = keep[0];
}

int main()
{
	size_t nw = CHASE_BYTES / sizeof(unsigned), hops = nw / HOP;
	std::vector<size_t> order(hops);
	for (size_t h = 0; h < hops; h++)
		order[h] = h;
	srand(11);
	for (size_t h = hops - 1; h > 0; h--)
		std::swap(order[h], order[((size_t)rand() * RAND_MAX + rand()) % (h + 1)]);
	// every word of a hop's first 128 bytes leads to the next hop
	std::vector<unsigned> c(nw, 0);
	for (size_t h = 0; h < hops; h++)
		for (unsigned l = 0; l < 32; l++)
			c[order[h] * HOP + l] = (unsigned)(order[(h + 1) % hops] * HOP);
	unsigned *chase, *pos, *sink;
	long long *lat, *cyc;
	float4 *s;
	int *done;
	CK(cudaMalloc(&chase, CHASE_BYTES));
	CK(cudaMalloc(&s, STREAM_BYTES));
	CK(cudaMalloc(&pos, 32 * 32 * sizeof(unsigned)));
	CK(cudaMalloc(&lat, DIST_STEPS * sizeof(long long)));
	CK(cudaMalloc(&cyc, sizeof(long long)));
	CK(cudaMalloc(&done, sizeof(int)));
	CK(cudaMalloc(&sink, 2 * sizeof(unsigned)));
	CK(cudaMemcpy(chase, c.data(), CHASE_BYTES, cudaMemcpyHostToDevice));
	CK(cudaMemset(s, 0, STREAM_BYTES));

	// N blocks of 256 streaming threads, whatever block 0's size: the
	// streamers take the measuring block's size, so there are more of them
	// Each launch's chases start on hops no launch has read lately, steps
	// apart in the cycle, so that they never meet.
	size_t next = 0;
	auto go = [&](int n, int warps, int k, bool dist) {
		int t = 32 * warps, steps = dist ? DIST_STEPS : LINE_STEPS;
		std::vector<unsigned> p((size_t)warps * k);
		for (size_t q = 0; q < p.size(); q++, next += steps)
			p[q] = (unsigned)(order[next % hops] * HOP);
		CK(cudaMemcpy(pos, p.data(), p.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
		CK(cudaMemset(done, 0, sizeof(int)));
		spread<<<1 + n * 256 / t, t, 0>>>(chase, pos, k, steps, dist ? lat : nullptr, cyc, s,
						 STREAM_BYTES / sizeof(float4), done, sink);
		CK(cudaDeviceSynchronize());
		CK(cudaGetLastError());
		long long cy;
		CK(cudaMemcpy(&cy, cyc, sizeof cy, cudaMemcpyDeviceToHost));
		return (double)cy / steps;
	};
	printf("spread: dependent chases over 1 GiB in 2 KiB hops, beside N streaming blocks\n");
	int ns[] = { 8, 132, 264, 528 };
	printf("\ndist: one lane, latency / mean (median of 3 runs of each quantile)\n");
	printf("%5s %7s %6s %6s %6s %6s %6s %6s %6s %6s\n", "N", "mean", "p5", "p10", "p25", "p50",
	       "p75", "p90", "p95", "p99");
	const double qs[] = { .05, .10, .25, .50, .75, .90, .95, .99 };
	for (int n : ns) {
		std::vector<std::vector<double>> qv(8);
		std::vector<double> means;
		for (int r = 0; r < 3; r++) {
			go(n, 1, 1, true);
			std::vector<long long> l(DIST_STEPS);
			CK(cudaMemcpy(l.data(), lat, DIST_STEPS * sizeof(long long), cudaMemcpyDeviceToHost));
			std::vector<double> v(l.begin() + 64, l.end()); // past the TLB's warm-up
			std::sort(v.begin(), v.end());
			double m = 0;
			for (double x : v)
				m += x;
			m /= v.size();
			means.push_back(m);
			for (int q = 0; q < 8; q++)
				qv[q].push_back(v[(size_t)(qs[q] * (v.size() - 1))] / m);
		}
		std::sort(means.begin(), means.end());
		printf("%5d %7.0f", n, means[1]);
		for (int q = 0; q < 8; q++) {
			std::sort(qv[q].begin(), qv[q].end());
			printf(" %6.3f", qv[q][1]);
		}
		printf("\n");
	}
	printf("\nlines: cycles per step of W warps (a barrier each step when W > 1), k lines per warp "
	       "load,\nover W = 1, k = 1 at the same N (median of 3)\n");
	printf("%5s %3s %9s", "N", "W", "k=1 cyc");
	int ks[] = { 1, 2, 4, 8, 32 };
	for (int k : ks)
		printf(" %6s%-2d", "k=", k);
	printf("\n");
	int ws[] = { 1, 4, 16 };
	for (int n : ns) {
		double base = 0;
		for (int w : ws) {
			std::vector<double> row;
			for (int k : ks) {
				std::vector<double> v;
				for (int r = 0; r < 3; r++) {
					v.push_back(go(n, w, k, false));
				}
				std::sort(v.begin(), v.end());
				row.push_back(v[1]);
			}
			if (w == 1)
				base = row[0];
			printf("%5d %3d %9.0f", n, w, row[0]);
			for (double x : row)
				printf(" %8.3f", x / base);
			printf("\n");
		}
	}
	return 0;
}
