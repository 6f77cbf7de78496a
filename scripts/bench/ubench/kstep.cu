// kstep.cu: what one k step of a register-tiled GEMM costs a warp when its
// operands come straight from global memory, as in BAT's gemm_fast with SA 0
// and SB 0 (results/bat/ncu-h200.txt: latency-bound, 2.2 to 4 times slower
// than the model).  A block of 8 x 8 threads each keeps 8 x 8 sums; per k
// step each thread loads 8 floats of a row of A (stride 8 floats between
// lanes, as STRM 0) and 8 of a row of B, through __ldg (ldg 1, the read-only
// path gemm_fast's const __restrict__ takes) or plain loads (ldg 0), then
// makes 64 FMAs.  The rows come
// from R distinct k rows, reused every R steps: R 8 keeps them in the L1,
// R 4096 makes every step's rows new (from the L2, where a first pass left
// them; 16 groups of columns shared by the blocks keep 32 MiB in the L2).
// One wave of B blocks an SM (dynamic shared memory holds the count).
// Prints SM cycles a k step, per block: the step's latency as the warps see
// it, against the issue of its 80 instructions.
#include "terms.h"

template <int NC> __global__ void kstep(const float *A, const float *B, float *C, int steps, int rows, int M)
{
	float c[8][8];
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			c[i][j] = 0;
	int tx = threadIdx.x, ty = threadIdx.y;
	// 16 column groups shared by the blocks, as a GEMM's blocks share rows
	// of A and B: after the first block's miss the L2 has them
	const float *a0 = A + (blockIdx.x % 16) * 64 + tx * 8;
	const float *b0 = B + (blockIdx.x / 16 % 16) * 64 + ty * 8;
	for (int k = 0; k < steps; k++) {
		int r = k % rows;
		float a[8], b[8];
#pragma unroll
		for (int i = 0; i < 8; i++)
			a[i] = NC ? __ldg(a0 + (size_t)r * M + i) : a0[(size_t)r * M + i];
#pragma unroll
		for (int j = 0; j < 8; j++)
			b[j] = NC ? __ldg(b0 + (size_t)r * M + j) : b0[(size_t)r * M + j];
#pragma unroll
		for (int i = 0; i < 8; i++)
#pragma unroll
			for (int j = 0; j < 8; j++)
				c[i][j] += a[i] * b[j];
	}
	float s = 0;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			s += c[i][j];
	C[(blockIdx.x % 16) * 64 + ty * 8 + tx] = s;
}

int main()
{
	device_init();
	const int steps = 4096, maxrows = 4096;
	const int M = 16 * 64;
	for (int per_sm : { 1, 2, 4, 8 }) {
		int blocks = g_sms * per_sm;
		float *A, *B, *C;
		CK(cudaMalloc(&A, (size_t)maxrows * M * 4));
		CK(cudaMalloc(&B, (size_t)maxrows * M * 4));
		CK(cudaMalloc(&C, (size_t)M * 4));
		CK(cudaMemset(A, 0, (size_t)maxrows * M * 4));
		CK(cudaMemset(B, 0, (size_t)maxrows * M * 4));
		// shared memory that lets per_sm blocks, and no more, share an SM
		size_t smem = (size_t)(220 * 1024) / per_sm;
		if (smem > 227 * 1024)
			smem = 227 * 1024;
		CK(cudaFuncSetAttribute(kstep<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
		CK(cudaFuncSetAttribute(kstep<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
		for (int nc = 0; nc < 2; nc++)
			for (int rows : { 8, 64, 4096 }) {
				float ms = time_ms([&] {
					if (nc)
						kstep<1><<<blocks, dim3(8, 8), smem>>>(A, B, C, steps, rows, M);
					else
						kstep<0><<<blocks, dim3(8, 8), smem>>>(A, B, C, steps, rows, M);
				});
				double cyc = ms * 1e-3 * g_clock_ghz * 1e9 / steps;
				printf("KSTEP ldg=%d blocks_per_sm=%d warps_per_sm=%d rows=%d ms=%.4f cycles_per_step=%.1f\n",
				       nc, per_sm, 2 * per_sm, rows, ms, cyc);
			}
		CK(cudaFree(A));
		CK(cudaFree(B));
		CK(cudaFree(C));
	}
	return 0;
}
