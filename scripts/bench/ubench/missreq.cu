// Microbenchmark for how many L1-missing warp loads an SM keeps in flight to
// DRAM: whether the bandwidth a grid draws depends on the sectors each warp
// load asks for, beyond the bytes (bgemm's SMEM=0 tiles of
// scripts/bench/heldout2/, which read A one word a warp, draw 40% of DRAM's
// peak on the H200 with 43 warps an SM resident: results/heldout2/ncu-bgemm-h200.txt).
//
// Each thread streams once through its own part of a 2 GiB array (far beyond
// the L2, every sector read once): each iteration issues U independent warp
// loads, each of S sectors (lanes l read word (l % (8 S)) of the request's
// S consecutive sectors, a different 32 * S-byte piece each load), and sums
// them into a register kept live.  A warp's loads move 32 * S bytes each;
// grids of 8 blocks of 256 threads an SM.  Reported per (S, U): the bytes the
// loads asked for per second (event time, median of 5), and by Little's law
// the warp loads each SM had in flight at the mean latency of a lone load
// (the chase at the end, in ns): bandwidth x latency / (32 S x SMs).  If an
// SM holds at most R missing warp loads, the bandwidth of S-sector loads
// stops at R x 32 S x SMs / latency whatever U; if it is bytes that bind,
// every S reaches the same bandwidth.
//
//   nvcc -O3 -arch=sm_90 -o missreq scripts/bench/ubench/missreq.cu && ./missreq
//   (scripts/bench/ubench/run.sh missreq OUT from the repository root)
#include <cstdio>
#include <cuda_runtime.h>

#include "terms.h"

enum { TPB = 256, BPS = 8 };
static const size_t BYTES = (size_t)2 << 30;

template <int S, int U> __global__ void stream(const float *a, float *out, size_t per_warp)
{
	unsigned lane = threadIdx.x & 31;
	size_t warp = ((size_t)blockIdx.x * TPB + threadIdx.x) >> 5;
	const float *p = a + warp * per_warp + lane % (8 * S);
	float acc = 0;
	size_t steps = per_warp / (8 * S * U);
	for (size_t i = 0; i < steps; i++) {
		float t = 0;
#pragma unroll
		for (int k = 0; k < U; k++)
			t += __ldcg(p + (i * U + k) * 8 * S);
		acc += t;
	}
	if (acc != 0)
		out[warp * 32 + lane] = acc;
}

/* one lane chasing a chain through the array: a lone load's latency */
__global__ void chase(const unsigned *a, unsigned *out, int n)
{
	unsigned j = 0;
	long long t0 = clock64();
	for (int i = 0; i < n; i++)
		j = __ldcg(a + j);
	long long t1 = clock64();
	out[0] = j;
	out[1] = (unsigned)((t1 - t0) / n);
}

template <int S, int U> static void run(const float *a, float *out, double lat_ns)
{
	int blocks = g_sms * BPS;
	size_t warps = (size_t)blocks * TPB / 32;
	size_t per_warp = BYTES / 4 / warps;
	per_warp -= per_warp % (8 * S * U);
	float ms = time_ms([&] { stream<S, U><<<blocks, TPB>>>(a, out, per_warp); }, 5);
	double bytes = (double)warps * per_warp * 4;
	double gbs = bytes / (ms * 1e-3) / 1e9;
	double inflight = gbs * lat_ns / (32.0 * S * g_sms);
	printf("S=%d U=%2d: %7.1f GB/s, %6.1f warp loads in flight an SM at the lone latency (%.3f ms)\n",
	       S, U, gbs, inflight, ms);
}

template <int S> static void cases(const float *a, float *out, double lat)
{
	run<S, 1>(a, out, lat);
	run<S, 2>(a, out, lat);
	run<S, 4>(a, out, lat);
	run<S, 8>(a, out, lat);
	run<S, 16>(a, out, lat);
}

int main()
{
	device_init();
	float *a, *out;
	CK(cudaMalloc(&a, BYTES));
	CK(cudaMemset(a, 0, BYTES));
	CK(cudaMalloc(&out, (size_t)g_sms * BPS * TPB * 4));
	/* a chase of 2 KiB strides over the first GiB, for the lone latency */
	unsigned *h = (unsigned *)malloc(BYTES / 2);
	size_t n = BYTES / 2 / 4, stride = 512;
	for (size_t i = 0; i < n; i++)
		h[i] = 0;
	for (size_t i = 0; i + stride < n; i += stride)
		h[i] = (unsigned)(i + stride);
	CK(cudaMemcpy(a, h, BYTES / 2, cudaMemcpyHostToDevice));
	free(h);
	unsigned hc[2];
	chase<<<1, 1>>>((const unsigned *)a, (unsigned *)out, 4096);
	CK(cudaMemcpy(hc, out, 8, cudaMemcpyDeviceToHost));
	double lat = hc[1] / g_clock_ghz;
	printf("lone load latency %u SM cycles, %.0f ns at the reported clock\n", hc[1], lat);
	CK(cudaMemset(a, 0, BYTES));
	printf("grid %d blocks of %d threads (%d a SM), 2 GiB streamed once\n", g_sms * BPS, TPB, BPS);
	cases<1>(a, out, lat);
	cases<2>(a, out, lat);
	cases<4>(a, out, lat);
	CK(cudaFree(a));
	CK(cudaFree(out));
	return 0;
}
