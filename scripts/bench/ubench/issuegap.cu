// issuegap.cu: how long a warp alone takes through a loop, against the
// stall counts ptxas writes into each instruction's control bits (bits
// 105..108 of the 128-bit word on sm_70..sm_90: the cycles before the same
// warp may issue again).  kstep.cu found a GEMM k step of 108 instructions
// taking 290 cycles with every load an L1 hit and few long-scoreboard
// stalls; its code's stall counts add up to 228.  Here one warp an SMSP (one
// block of 128 threads an SM) runs loops of different instruction mixes:
//   kmod   kstep's k step, its row r = k % rows (an integer remainder)
//   kmask  the same with r = k & (rows - 1) (no remainder)
//   ffma   64 independent FMAs an iteration, operands in registers
//   lds    kstep's step with its rows from shared memory
//   chain  one dependent integer hash chain (IMAD, LOP3, SHF)
// and prints SM cycles an iteration.  stallsum.py reads the same binary's
// cubin and prints each loop's instructions and stall sum, so that the
// two can be set side by side (run.sh's issuegap target).
#include "terms.h"

#define ITERS 4096

template <int V> __global__ void gap(const float *A, const float *B, float *C, int rows, int M)
{
	__shared__ float sa[8 * 64], sb[8 * 64];
	float c[8][8];
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			c[i][j] = 0;
	int tx = threadIdx.x & 7, ty = threadIdx.x >> 3 & 7;
	const float *a0 = A + tx * 8;
	const float *b0 = B + ty * 8;
	for (int i = threadIdx.x; i < 8 * 64; i += blockDim.x)
		sa[i] = A[i], sb[i] = B[i];
	__syncthreads();
	unsigned h = threadIdx.x;
	// one iteration a trip of the loop, as the stall sums count it
#pragma unroll 1
	for (int k = 0; k < ITERS; k++) {
		if (V == 4) {
			h = h * 0x9e3779b1u + (unsigned)k;
			h ^= h >> 13;
			h = h * 0x85ebca6bu ^ (h << 7);
			continue;
		}
		float a[8], b[8];
		if (V == 0 || V == 1) {
			int r = V == 0 ? k % rows : k & (rows - 1);
#pragma unroll
			for (int i = 0; i < 8; i++)
				a[i] = a0[(size_t)r * M + i];
#pragma unroll
			for (int j = 0; j < 8; j++)
				b[j] = b0[(size_t)r * M + j];
		} else if (V == 2) {
#pragma unroll
			for (int i = 0; i < 8; i++)
				a[i] = (float)(k + i), b[i] = (float)(k - i);
		} else {
			int r = k & 7;
#pragma unroll
			for (int i = 0; i < 8; i++)
				a[i] = sa[r * 64 + tx * 8 + i];
#pragma unroll
			for (int j = 0; j < 8; j++)
				b[j] = sb[r * 64 + ty * 8 + j];
		}
#pragma unroll
		for (int i = 0; i < 8; i++)
#pragma unroll
			for (int j = 0; j < 8; j++)
				c[i][j] += a[i] * b[j];
	}
	float s = (float)h;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			s += c[i][j];
	C[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main()
{
	device_init();
	const int rows = 8, M = 1024;
	float *A, *B, *C;
	CK(cudaMalloc(&A, (size_t)rows * M * 4));
	CK(cudaMalloc(&B, (size_t)rows * M * 4));
	CK(cudaMalloc(&C, (size_t)g_sms * 128 * 4));
	CK(cudaMemset(A, 0, (size_t)rows * M * 4));
	CK(cudaMemset(B, 0, (size_t)rows * M * 4));
	// one block an SM: the shared memory keeps a second one off
	size_t smem = 200 * 1024;
	const char *names[] = { "kmod", "kmask", "ffma", "lds", "chain" };
	void (*fn[])(const float *, const float *, float *, int, int) = { gap<0>, gap<1>, gap<2>, gap<3>, gap<4> };
	for (int v = 0; v < 5; v++) {
		CK(cudaFuncSetAttribute(fn[v], cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
		float ms = time_ms([&] { fn[v]<<<g_sms, 128, smem>>>(A, B, C, rows, M); });
		double cyc = ms * 1e-3 * g_clock_ghz * 1e9 / ITERS;
		printf("GAP loop=%s warps_per_sm=4 ms=%.4f cycles_per_iter=%.1f\n", names[v], ms, cyc);
	}
	return 0;
}
