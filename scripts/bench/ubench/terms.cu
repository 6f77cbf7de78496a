// Microbenchmarks for terms the sm_90 model approximates: global atomics
// (one address, one per warp, distinct), shared-memory atomics, warp
// shuffles (dependent latency and throughput), local-memory traffic,
// constant-cache serialization (a warp reading K distinct constant words),
// loads through __ldg / const __restrict__ against plain loads, and stores of
// 4 bytes a lane at lane strides of 1 to 32 floats (partial sectors).
// One line per measurement, with its unit; times are the median of 11.
//
//   nvcc -O3 -arch=sm_90 -o terms terms.cu && ./terms
// (terms.h, beside it: the harness shared with terms2.cu)
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#include "terms.h"

/* ---- global atomics: MODE 0 one address, 1 one address a warp, 2 distinct
 * (thread's own word), ITER atomics per thread. */
template <int MODE> __global__ void gatomic(unsigned *p, int iter)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned a = MODE == 0 ? 0 : MODE == 1 ? t / 32 : t;
	for (int i = 0; i < iter; i++)
		atomicAdd(&p[a], 1u);
}

/* ---- shared atomics: MODE 0 one word per block, 1 one word a warp, 2
 * distinct words (lane's own bank), 3 random-ish words over 256 bins. */
template <int MODE> __global__ void satomic(unsigned *out, int iter)
{
	__shared__ unsigned s[1024];
	for (int i = threadIdx.x; i < 1024; i += blockDim.x)
		s[i] = 0;
	__syncthreads();
	unsigned t = threadIdx.x;
	unsigned a = MODE == 0 ? 0 : MODE == 1 ? t / 32 : MODE == 2 ? t : (t * 2654435761u >> 24);
	for (int i = 0; i < iter; i++) {
		atomicAdd(&s[a], 1u);
		if (MODE == 3)
			a = (a * 1103515245u + 12345u) & 255;
	}
	__syncthreads();
	if (t == 0)
		out[blockIdx.x] = s[0];
}

/* ---- shuffles: dependent chain in one warp (cycles each), and the
 * throughput of independent chains over the whole GPU. */
__global__ void shfl_lat(int iter, float *out, long long *cyc)
{
	float v = threadIdx.x;
	long long t0 = clock64();
	for (int i = 0; i < iter; i++)
		v = __shfl_xor_sync(0xffffffffu, v, 1) + 1.0f;
	long long t1 = clock64();
	out[threadIdx.x] = v;
	if (threadIdx.x == 0)
		*cyc = t1 - t0;
}
__global__ void shfl_tput(int iter, float *out)
{
	float a = threadIdx.x, b = a + 1, c = a + 2, d = a + 3;
	for (int i = 0; i < iter; i++) {
		a = __shfl_xor_sync(0xffffffffu, a, 1);
		b = __shfl_xor_sync(0xffffffffu, b, 2);
		c = __shfl_xor_sync(0xffffffffu, c, 4);
		d = __shfl_xor_sync(0xffffffffu, d, 8);
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}

/* ---- local memory: a per-thread array indexed at run time (so it lives in
 * local memory), WORDS words written then read ITER times. */
template <int WORDS> __global__ void localmem(int iter, int seed, float *out)
{
	float a[WORDS];
	for (int i = 0; i < WORDS; i++)
		a[i] = i + seed;
	float s = 0;
	unsigned j = threadIdx.x;
	for (int i = 0; i < iter; i++) {
		j = (j * 1103515245u + 12345u);
		unsigned k = (j >> 16) % WORDS;
		s += a[k];
		a[(k + 1) % WORDS] = s;
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* ---- constant cache: lane reads c[(lane % K) * 33 + i % 8]: K distinct
 * words per warp load. */
__constant__ float cdata[4096];
template <int K> __global__ void constk(int iter, float *out)
{
	int lane = threadIdx.x & 31;
	float s = 0;
	int base = (lane % K) * 33;
	for (int i = 0; i < iter; i++)
		s += cdata[(base + (i & 63)) & 4095];
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* ---- read-only path: each thread sums ITER words of x at (t + i * 4099)
 * modulo n, plain, __ldg or through const __restrict__. */
template <int KIND> __global__ void roload(const float *x, unsigned n, int iter, float *out)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	float s = 0;
	for (int i = 0; i < iter; i++) {
		unsigned k = (t + (unsigned)i * 4099u) & (n - 1);
		s += KIND == 1 ? __ldg(&x[k]) : x[k];
	}
	out[t] = s;
}
__global__ void roload_restrict(const float *__restrict__ x, unsigned n, int iter,
				float *__restrict__ out)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	float s = 0;
	for (int i = 0; i < iter; i++)
		s += x[(t + (unsigned)i * 4099u) & (n - 1)];
	out[t] = s;
}

/* ---- strided stores: thread t writes one float at t * S. */
__global__ void sstore(float *y, int s)
{
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	y[t * s] = (float)t;
}

int main()
{
	device_init();

	unsigned *ua;
	float *f, *g;
	long long *cyc;
	size_t big = (size_t)1 << 28; /* floats: 1 GiB */
	CK(cudaMalloc(&ua, 64 << 20));
	CK(cudaMalloc(&f, big * 4));
	CK(cudaMalloc(&g, 64 << 20));
	CK(cudaMalloc(&cyc, 64));
	CK(cudaMemset(ua, 0, 64 << 20));
	CK(cudaMemset(f, 0, big * 4));

	/* global atomics */
	{
		int blocks = g_sms * 8, tpb = 256, iter = 64;
		double n = (double)blocks * tpb * iter;
		const char *what[3] = { "one address", "one address a warp", "distinct addresses" };
		float ms[3];
		ms[0] = time_ms([&] { gatomic<0><<<blocks, tpb>>>(ua, iter); });
		ms[1] = time_ms([&] { gatomic<1><<<blocks, tpb>>>(ua, iter); });
		ms[2] = time_ms([&] { gatomic<2><<<blocks, tpb>>>(ua, iter); });
		for (int m = 0; m < 3; m++)
			printf("global atomicAdd %-20s: %8.3f ms, %8.2f G atomics/s, %7.3f ns per warp instruction a SM\n",
			       what[m], ms[m], n / (ms[m] * 1e6), ms[m] * 1e6 / (n / 32 / g_sms));
	}
	/* shared atomics */
	{
		int blocks = g_sms * 8, tpb = 256, iter = 1024;
		double n = (double)blocks * tpb * iter;
		const char *what[4] = { "one word a block", "one word a warp", "distinct words", "256 bins, random" };
		float ms[4];
		ms[0] = time_ms([&] { satomic<0><<<blocks, tpb>>>(ua, iter); });
		ms[1] = time_ms([&] { satomic<1><<<blocks, tpb>>>(ua, iter); });
		ms[2] = time_ms([&] { satomic<2><<<blocks, tpb>>>(ua, iter); });
		ms[3] = time_ms([&] { satomic<3><<<blocks, tpb>>>(ua, iter); });
		for (int m = 0; m < 4; m++)
			printf("shared atomicAdd %-20s: %8.3f ms, %8.2f G atomics/s, %7.2f SM cycles per warp instruction\n",
			       what[m], ms[m], n / (ms[m] * 1e6),
			       ms[m] * 1e6 * g_clock_ghz / (n / 32 / g_sms));
	}
	/* shuffles */
	{
		int iter = 1 << 16;
		long long c;
		shfl_lat<<<1, 32>>>(iter, g, cyc);
		shfl_lat<<<1, 32>>>(iter, g, cyc);
		CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
		printf("shfl.xor dependent (+ fadd): %.2f cycles per step\n", (double)c / iter);
		int blocks = g_sms * 8, tpb = 256;
		iter = 4096;
		float ms = time_ms([&] { shfl_tput<<<blocks, tpb>>>(iter, g); });
		double n = (double)blocks * tpb / 32 * iter * 4;
		printf("shfl.xor throughput: %.3f ms, %.2f SM cycles per warp shuffle\n", ms,
		       ms * 1e6 * g_clock_ghz / (n / g_sms));
	}
	/* local memory */
	{
		int blocks = g_sms * 8, tpb = 256, iter = 1024;
		double n = (double)blocks * tpb * iter * 2; /* a load and a store per step */
		float ms16 = time_ms([&] { localmem<16><<<blocks, tpb>>>(iter, 1, g); });
		float ms64 = time_ms([&] { localmem<64><<<blocks, tpb>>>(iter, 1, g); });
		float ms256 = time_ms([&] { localmem<256><<<blocks, tpb>>>(iter, 1, g); });
		printf("local memory  16 words a thread: %.3f ms, %.1f GB/s of 4-byte accesses\n", ms16, n * 4 / (ms16 * 1e6));
		printf("local memory  64 words a thread: %.3f ms, %.1f GB/s of 4-byte accesses\n", ms64, n * 4 / (ms64 * 1e6));
		printf("local memory 256 words a thread: %.3f ms, %.1f GB/s of 4-byte accesses\n", ms256, n * 4 / (ms256 * 1e6));
	}
	/* constant cache */
	{
		std::vector<float> h(4096, 1.0f);
		CK(cudaMemcpyToSymbol(cdata, h.data(), 4096 * 4));
		int blocks = g_sms * 8, tpb = 256, iter = 4096;
		double wi = (double)blocks * tpb / 32 * iter / g_sms; /* warp loads a SM */
		float ms[6];
		ms[0] = time_ms([&] { constk<1><<<blocks, tpb>>>(iter, g); });
		ms[1] = time_ms([&] { constk<2><<<blocks, tpb>>>(iter, g); });
		ms[2] = time_ms([&] { constk<4><<<blocks, tpb>>>(iter, g); });
		ms[3] = time_ms([&] { constk<8><<<blocks, tpb>>>(iter, g); });
		ms[4] = time_ms([&] { constk<16><<<blocks, tpb>>>(iter, g); });
		ms[5] = time_ms([&] { constk<32><<<blocks, tpb>>>(iter, g); });
		for (int k = 0; k < 6; k++)
			printf("constant load, %2d distinct words a warp: %.3f ms, %.2f SM cycles per warp load\n",
			       1 << k, ms[k], ms[k] * 1e6 * g_clock_ghz / wi);
	}
	/* read-only path, working sets from L1-sized to DRAM-sized */
	{
		int blocks = g_sms * 8, tpb = 256, iter = 256;
		double bytes = (double)blocks * tpb * iter * 4;
		unsigned sets[4] = { 1u << 12, 1u << 16, 1u << 22, 1u << 28 }; /* 16 KiB .. 1 GiB */
		for (int s = 0; s < 4; s++) {
			unsigned n = sets[s];
			float m0 = time_ms([&] { roload<0><<<blocks, tpb>>>(f, n, iter, g); });
			float m1 = time_ms([&] { roload<1><<<blocks, tpb>>>(f, n, iter, g); });
			float m2 = time_ms([&] { roload_restrict<<<blocks, tpb>>>(f, n, iter, g); });
			printf("loads over %8u KiB: plain %.1f GB/s, __ldg %.1f GB/s, const __restrict__ %.1f GB/s\n",
			       n / 256, bytes / (m0 * 1e6), bytes / (m1 * 1e6), bytes / (m2 * 1e6));
		}
	}
	/* strided 4-byte stores */
	{
		int threads = 1 << 22;
		for (int s = 1; s <= 32; s *= 2) {
			float ms = time_ms([&] { sstore<<<threads / 256, 256>>>(f, s); });
			double sectors = (double)threads * (s >= 8 ? 1 : s / 8.0);
			printf("store 4 bytes a lane, lane stride %2d floats: %.4f ms, %.1f GB/s useful, %.1f GB/s of 32-byte sectors\n",
			       s, ms, threads * 4.0 / (ms * 1e6), sectors * 32 / (ms * 1e6));
		}
	}
	return 0;
}
