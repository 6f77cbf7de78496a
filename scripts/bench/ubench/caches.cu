// Microbenchmarks for the interval model's constants (profiles/*.profile):
// L1 hit latency, dependent integer / SFU / fp64 latencies, and the
// bandwidths of L1, L2 and DRAM as many warps see them.  Complements
// ubench.cu (DRAM and L2 latency, shared memory, FFMA, bar.sync, launches).
//
//   nvcc -O3 -arch=sm_90 -o caches caches.cu && ./caches
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

// one thread chases through a small array: every load after the first pass hits L1
__global__ void chase_l1(const unsigned *p, int n, unsigned *out, long long *cyc)
{
	unsigned j = 0;
	for (int i = 0; i < 4096; i++) // warm
		j = __ldca(&p[j]);
	long long t0 = clock64();
	for (int i = 0; i < n; i++)
		j = __ldca(&p[j]);
	long long t1 = clock64();
	*out = j;
	*cyc = t1 - t0;
}

__global__ void imad_lat(int n, unsigned *out, long long *cyc, unsigned a, unsigned b)
{
	unsigned x = a;
	long long t0 = clock64();
	for (int i = 0; i < n; i++)
		x = x * b + a;
	long long t1 = clock64();
	*out = x;
	*cyc = t1 - t0;
}

__global__ void sfu_lat(int n, float *out, long long *cyc, float a)
{
	float x = a;
	long long t0 = clock64();
	for (int i = 0; i < n; i++)
		x = __sinf(x);
	long long t1 = clock64();
	*out = x;
	*cyc = t1 - t0;
}

__global__ void dfma_lat(int n, double *out, long long *cyc, double a, double b)
{
	double x = a;
	long long t0 = clock64();
	for (int i = 0; i < n; i++)
		x = fma(x, b, a);
	long long t1 = clock64();
	*out = x;
	*cyc = t1 - t0;
}

// every block streams the whole buffer `reps` times (4 floats a thread per
// step): with a buffer under L2's size, after the first pass this is L2's
// bandwidth; with one block per SM on its own 16 KiB, L1's
__global__ void stream(const float4 *p, size_t n4, int reps, size_t per_block, float *out)
{
	float4 acc = make_float4(0, 0, 0, 0);
	size_t base = per_block ? (size_t)blockIdx.x * per_block : 0;
	size_t len = per_block ? per_block : n4;
	for (int r = 0; r < reps; r++)
		for (size_t i = threadIdx.x + (per_block ? 0 : (size_t)blockIdx.x * blockDim.x); i < len;
		     i += per_block ? blockDim.x : (size_t)gridDim.x * blockDim.x) {
			float4 v = p[base + i];
			acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
		}
	if (acc.x + acc.y + acc.z + acc.w == 12345.0f)
		*out = acc.x;
}

static double lat(void (*run)(long long *), int n)
{
	long long *c, cy;
	CK(cudaMalloc(&c, 8));
	run(c);
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(&cy, c, 8, cudaMemcpyDeviceToHost));
	cudaFree(c);
	return (double)cy / n;
}

static unsigned *g_u;
static float *g_f;
static double *g_d;
static const unsigned *g_chase;
static void run_l1(long long *c) { chase_l1<<<1, 1>>>(g_chase, 100000, g_u, c); }
static void run_imad(long long *c) { imad_lat<<<1, 1>>>(100000, g_u, c, 3, 5); }
static void run_sfu(long long *c) { sfu_lat<<<1, 1>>>(100000, g_f, c, 0.5f); }
static void run_dfma(long long *c) { dfma_lat<<<1, 1>>>(100000, g_d, c, 1.0, 0.999); }

static double gbs(size_t bytes, int blocks, int threads, int reps, size_t per_block_f4)
{
	float4 *p; float *o;
	CK(cudaMalloc(&p, bytes)); CK(cudaMalloc(&o, 4));
	CK(cudaMemset(p, 0, bytes));
	size_t n4 = bytes / 16;
	stream<<<blocks, threads>>>(p, n4, 1, per_block_f4, o);
	CK(cudaDeviceSynchronize());
	cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
	float best = 1e30f;
	for (int k = 0; k < 5; k++) {
		cudaEventRecord(a);
		stream<<<blocks, threads>>>(p, n4, reps, per_block_f4, o);
		cudaEventRecord(b); CK(cudaEventSynchronize(b));
		float ms; cudaEventElapsedTime(&ms, a, b); if (ms < best) best = ms;
	}
	double moved = per_block_f4 ? (double)blocks * per_block_f4 * 16 * reps : (double)bytes * reps;
	cudaFree(p); cudaFree(o);
	return moved / (best * 1e6);
}

int main()
{
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	int sms = p.multiProcessorCount, clk = 0;
	cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
	printf("device %s sms %d clock %d kHz l2 %d bytes\n", p.name, sms, clk, p.l2CacheSize);
	CK(cudaMalloc(&g_u, 4)); CK(cudaMalloc(&g_f, 4)); CK(cudaMalloc(&g_d, 8));
	// 16 KiB, 128-byte stride: one line per load, all resident in L1
	std::vector<unsigned> h(4096);
	for (int i = 0; i < 128; i++)
		h[i * 32] = ((i * 37 + 1) % 128) * 32;
	unsigned *d;
	CK(cudaMalloc(&d, h.size() * 4));
	CK(cudaMemcpy(d, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
	g_chase = d;
	printf("l1 chase 16KiB/128B: %.2f cycles\n", lat(run_l1, 100000));
	printf("imad dependent: %.2f cycles\n", lat(run_imad, 100000));
	printf("sfu (__sinf) dependent: %.2f cycles\n", lat(run_sfu, 100000));
	printf("dfma dependent: %.2f cycles\n", lat(run_dfma, 100000));
	printf("dram read 2 GiB, %d x 4 blocks of 256: %.0f GB/s\n", sms,
	       gbs((size_t)2 << 30, sms * 4, 256, 1, 0));
	printf("l2 read 16 MiB x 20, %d x 4 blocks of 256: %.0f GB/s\n", sms,
	       gbs((size_t)16 << 20, sms * 4, 256, 20, 0));
	printf("l1 read 16 KiB per block x 2000, %d blocks of 512: %.0f GB/s (%.1f B/clk/SM)\n", sms,
	       gbs((size_t)sms * 16384, sms, 512, 2000, 1024),
	       gbs((size_t)sms * 16384, sms, 512, 2000, 1024) * 1e9 / ((double)clk * 1e3) / sms);
	return 0;
}
