// dphases.cu: whether an SM's blocks overlap one block's DRAM phase with
// another's compute phase, as phases.cu asks of the L1 (softmax's small
// blocks of scripts/bench/heldout2/ read their row from DRAM, then compute on
// it from the L1 and store it: the H100 ran them about at the sum of the
// model's DRAM and SM times, not at the larger).  Each thread reads G = 8
// float4 of its own from a 1 GiB array (every byte once, beyond the L2),
// then runs F FFMAs a loaded word on independent chains, once (reps 1) or in
// R alternations of G / R loads and their FFMAs.  Prints, per block shape
// and F: the time of the loads alone (F 0), of the compute alone (the same
// FFMAs on words read from a 16 KiB L1-resident table), of both, and where
// both lies between the larger of the two (0: full overlap) and their sum
// (1: none).  Median of 7 runs.
#include "terms.h"

static const size_t BYTES = (size_t)1 << 30;
enum { G = 8 };

template <int R>
__global__ void dphase(const float4 *__restrict__ a, float *out, int f, int hot)
{
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t n = (size_t)gridDim.x * blockDim.x;
	float acc[4 * G / R];
#pragma unroll
	for (int i = 0; i < 4 * G / R; i++)
		acc[i] = 0.0f;
	float s = 0.0f;
#pragma unroll 1
	for (int r = 0; r < R; r++) {
		float4 x[G / R];
#pragma unroll
		for (int i = 0; i < G / R; i++) {
			size_t k = (size_t)(r * (G / R) + i) * n + t; /* coalesced across the warp */
			x[i] = __ldcg(hot ? a + (k & 1023) : a + k);
		}
#pragma unroll
		for (int i = 0; i < G / R; i++) {
			acc[4 * i] += x[i].x;
			acc[4 * i + 1] += x[i].y;
			acc[4 * i + 2] += x[i].z;
			acc[4 * i + 3] += x[i].w;
		}
		for (int k = 0; k < f; k++) {
#pragma unroll
			for (int i = 0; i < 4 * G / R; i++)
				acc[i] = fmaf(acc[i], 1.0001f, 0.5f);
		}
#pragma unroll
		for (int i = 0; i < 4 * G / R; i++)
			s += acc[i];
	}
	if (s == 1234.5f)
		out[t] = s;
}

template <int R> static void run(const float4 *a, float *out, int threads, int f)
{
	size_t total = BYTES / 16 / G; /* threads to read the array once */
	int blocks = (int)(total / threads);
	float loads = time_ms([&] { dphase<R><<<blocks, threads>>>(a, out, 0, 0); }, 7);
	float comp = time_ms([&] { dphase<R><<<blocks, threads>>>(a, out, f, 1); }, 7);
	float both = time_ms([&] { dphase<R><<<blocks, threads>>>(a, out, f, 0); }, 7);
	float mx = loads > comp ? loads : comp, mn = loads > comp ? comp : loads;
	printf("DPHASE block=%d reps=%d f=%d blocks=%d loads_ms=%.4f compute_ms=%.4f both_ms=%.4f "
	       "overlap_left=%.2f\n",
	       threads, R, f, blocks, loads, comp, both, mn > 0 ? (both - mx) / mn : 0.0);
}

int main()
{
	device_init();
	float4 *a;
	float *out;
	CK(cudaMalloc(&a, BYTES));
	CK(cudaMemset(a, 0, BYTES));
	CK(cudaMalloc(&out, BYTES / G));
	int shapes[] = { 32, 128, 512 };
	for (int th : shapes) {
		for (int f : { 8, 16, 32 }) {
			run<1>(a, out, th, f);
			run<8>(a, out, th, f);
		}
	}
	CK(cudaFree(a));
	CK(cudaFree(out));
	return 0;
}
