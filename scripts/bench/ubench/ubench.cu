// Microbenchmarks for the sm_90 profile's timing constants: DRAM and L2 load
// latency (pointer chase), shared-memory latency, dependent FFMA latency,
// bar.sync cost, empty-kernel time.  One thread chases unless said otherwise.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <random>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

__global__ void chase(const unsigned *__restrict__ p, unsigned start, int n, unsigned *out, long long *cyc)
{
	unsigned j = start;
	// warm the TLB/L2 path on a first pass is done by the host calling twice
	unsigned long long g0, g1;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
	long long t0 = clock64();
	for (int i = 0; i < n; i++)
		j = __ldcg(&p[j]);
	long long t1 = clock64();
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
	*out = j;
	cyc[0] = t1 - t0;
	cyc[1] = (long long)(g1 - g0);
}

__global__ void smem_lat(int n, unsigned *out, long long *cyc)
{
	__shared__ unsigned s[1024];
	for (int i = 0; i < 1024; i++)
		s[i] = (i * 33 + 1) % 1024;
	__syncthreads();
	unsigned j = 0;
	long long t0 = clock64();
	for (int i = 0; i < n; i++)
		j = s[j];
	long long t1 = clock64();
	*out = j;
	*cyc = t1 - t0;
}

__global__ void ffma_lat(int n, float *out, long long *cyc, float a, float b)
{
	float x = a;
	long long t0 = clock64();
	for (int i = 0; i < n; i++)
		x = fmaf(x, b, a);
	long long t1 = clock64();
	*out = x;
	*cyc = t1 - t0;
}

__global__ void bar_cost(int n, long long *cyc)
{
	long long t0 = clock64();
	for (int i = 0; i < n; i++)
		__syncthreads();
	long long t1 = clock64();
	if (threadIdx.x == 0)
		*cyc = t1 - t0;
}

__global__ void empty(void) {}

static double chase_cycles(size_t bytes, size_t stride, int n)
{
	size_t cnt = bytes / stride;
	std::vector<unsigned> order(cnt);
	for (size_t i = 0; i < cnt; i++) order[i] = (unsigned)i;
	std::mt19937 rng(1);
	std::shuffle(order.begin(), order.end(), rng);
	size_t words = bytes / 4;
	std::vector<unsigned> h(words, 0);
	size_t sw = stride / 4;
	for (size_t i = 0; i < cnt; i++)
		h[order[i] * sw] = (unsigned)(order[(i + 1) % cnt] * sw);
	unsigned *d, *o; long long *c;
	CK(cudaMalloc(&d, bytes)); CK(cudaMalloc(&o, 4)); CK(cudaMalloc(&c, 16));
	CK(cudaMemcpy(d, h.data(), bytes, cudaMemcpyHostToDevice));
	long long cy[2] = {0, 0};
	chase<<<1, 1>>>(d, order[0] * sw, n, o, c); // warm
	CK(cudaDeviceSynchronize());
	chase<<<1, 1>>>(d, order[cnt / 2] * sw, n, o, c);
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(cy, c, 16, cudaMemcpyDeviceToHost));
	cudaFree(d); cudaFree(o); cudaFree(c);
	printf("  (%.1f ns per load, SM clock %.0f MHz during the chase) ", (double)cy[1] / n,
	       (double)cy[0] / cy[1] * 1000.0);
	return (double)cy[0] / n;
}

int main()
{
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	int clk = 0, memclk = 0;
	cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
	cudaDeviceGetAttribute(&memclk, cudaDevAttrMemoryClockRate, 0);
	printf("device %s cc %d.%d sms %d clock %d kHz memclock %d kHz bus %d bits l2 %d\n", p.name,
	       p.major, p.minor, p.multiProcessorCount, clk, memclk, p.memoryBusWidth, p.l2CacheSize);
	printf("smem/SM %zu smem/block optin %zu reserved/block %zu regs/SM %d\n",
	       p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin, p.reservedSharedMemPerBlock,
	       p.regsPerMultiprocessor);
	// DRAM: 1 GiB random lines at 2 KiB stride (beyond the 50 MB L2); also 32 B stride in 512 MB
	printf("dram chase 1GiB/2KiB: %.1f cycles\n", chase_cycles((size_t)1 << 30, 2048, 20000));
	printf("dram chase 512MiB/256B: %.1f cycles\n", chase_cycles((size_t)512 << 20, 256, 20000));
	printf("l2 chase 4MiB/256B: %.1f cycles\n", chase_cycles((size_t)4 << 20, 256, 20000));
	unsigned *o; long long *c; float *of; long long cy;
	CK(cudaMalloc(&o, 4)); CK(cudaMalloc(&c, 8)); CK(cudaMalloc(&of, 4));
	smem_lat<<<1, 1>>>(100000, o, c); CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(&cy, c, 8, cudaMemcpyDeviceToHost));
	printf("smem chase: %.2f cycles\n", cy / 100000.0);
	ffma_lat<<<1, 1>>>(100000, of, c, 1.0f, 0.999f); CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(&cy, c, 8, cudaMemcpyDeviceToHost));
	printf("ffma dependent: %.2f cycles\n", cy / 100000.0);
	for (int t = 32; t <= 1024; t *= 2) {
		bar_cost<<<1, t>>>(10000, c); CK(cudaDeviceSynchronize());
		CK(cudaMemcpy(&cy, c, 8, cudaMemcpyDeviceToHost));
		printf("bar.sync %4d threads: %.2f cycles\n", t, cy / 10000.0);
	}
	cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
	for (int i = 0; i < 100; i++) empty<<<1, 32>>>();
	CK(cudaDeviceSynchronize());
	float best = 1e9;
	for (int r = 0; r < 200; r++) {
		cudaEventRecord(a); empty<<<1, 32>>>(); cudaEventRecord(b); cudaEventSynchronize(b);
		float ms; cudaEventElapsedTime(&ms, a, b); if (ms < best) best = ms;
	}
	printf("empty kernel, events around one launch: min %.2f us\n", best * 1000);
	cudaEventRecord(a);
	for (int i = 0; i < 1000; i++) empty<<<1, 32>>>();
	cudaEventRecord(b); cudaEventSynchronize(b);
	float ms; cudaEventElapsedTime(&ms, a, b);
	printf("empty kernel, back to back: %.2f us each\n", ms);
	return 0;
}
