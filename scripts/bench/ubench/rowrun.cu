// Row-segment reads: does the length of the run a block reads from each
// row per step change what DRAM delivers?  A block of BS threads walks BS
// rows of an M x N float matrix (N = 2048: rows 8 KiB apart) TW columns at
// a time, consecutive threads reading consecutive columns of a row, as a
// tiled matrix-vector product does.  Each step reads TW * 4 bytes of each
// of its rows: 32 bytes at TW 8, 64 at TW 16, 256 at TW 64.  Every byte is read once in
// every variant, so any difference in time is the access order's.
//
//   smem  the tile goes through shared memory with a barrier after it, as
//         spaces/matvec.space's kernel does (the loads only, no product);
//   reg   the same loads summed in registers: no barrier, no shared memory.
//
//   nvcc -O3 -arch=sm_90 -o rowrun rowrun.cu && ./rowrun
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

static const int M = 65536, N = 2048;

// SMEM: through shared memory with barriers, else summed in registers
template <int TW, bool SMEM>
__global__ void tile(const float *A, float *y, int bs)
{
	extern __shared__ float tile_[];
	const int t = threadIdx.x;
	const float *a = A + (size_t)blockIdx.x * bs * N;
	float sum = 0;
	for (int k = 0; k < N / TW; k++) {
#pragma unroll 4
		for (int e = t; e < bs * TW; e += bs) {
			float v = a[(size_t)(e / TW) * N + k * TW + e % TW];
			if (SMEM)
				tile_[(e / TW) * (TW + 1) + e % TW] = v;
			else
				sum += v;
		}
		if (SMEM) {
			__syncthreads();
			sum += tile_[t * (TW + 1) + (k & (TW - 1))];
			__syncthreads();
		}
	}
	y[blockIdx.x * bs + t] = sum;
}

template <int TW>
static float run(bool smem, int bs, const float *A, float *y)
{
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	size_t sh = (size_t)bs * (TW + 1) * sizeof(float);
	CK(cudaFuncSetAttribute(tile<TW, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
	std::vector<float> ms;
	for (int r = 0; r < 7; r++) {
		CK(cudaEventRecord(a));
		if (smem)
			tile<TW, true><<<M / bs, bs, sh>>>(A, y, bs);
		else
			tile<TW, false><<<M / bs, bs>>>(A, y, bs);
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		float t;
		CK(cudaEventElapsedTime(&t, a, b));
		ms.push_back(t);
	}
	CK(cudaGetLastError());
	std::sort(ms.begin(), ms.end());
	return ms[ms.size() / 2];
}

int main()
{
	float *A, *y;
	CK(cudaMalloc(&A, (size_t)M * N * sizeof(float)));
	CK(cudaMalloc(&y, (size_t)M * sizeof(float)));
	CK(cudaMemset(A, 0, (size_t)M * N * sizeof(float)));
	const double bytes = (double)M * N * sizeof(float);
	printf("rowrun: %d x %d floats (%.0f MiB), each read once; median of 7 launches\n", M, N,
	       bytes / (1 << 20));
	printf("%-5s %4s %3s %9s %8s\n", "kind", "BS", "TW", "ms", "GB/s");
	for (int s = 0; s < 2; s++)
		for (int bs = 32; bs <= 512; bs *= 2) {
			float t8 = run<8>(s, bs, A, y), t16 = run<16>(s, bs, A, y);
			float t32 = run<32>(s, bs, A, y), t64 = run<64>(s, bs, A, y);
			const char *k = s ? "smem" : "reg";
			printf("%-5s %4d %3d %9.4f %8.0f\n", k, bs, 8, t8, bytes / t8 / 1e6);
			printf("%-5s %4d %3d %9.4f %8.0f\n", k, bs, 16, t16, bytes / t16 / 1e6);
			printf("%-5s %4d %3d %9.4f %8.0f\n", k, bs, 32, t32, bytes / t32 / 1e6);
			printf("%-5s %4d %3d %9.4f %8.0f\n", k, bs, 64, t64, bytes / t64 / 1e6);
		}
	return 0;
}
