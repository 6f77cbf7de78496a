// How fast an SM takes in thread blocks: grids of many small blocks whose
// threads each store one float (coalesced), for blocks of 32 to 1024
// threads.  Prints SM cycles per block and per warp (the busiest SM's share
// of the grid over the kernel's time, launch overhead included): where
// they stay flat as the blocks grow, that is the block scheduler's rate;
// where per warp stays flat, the warps'.  For the interval model's block
// launch term (driver/dev/emu/model/interval.c, block_launch_cycles and
// warp_launch_cycles in profiles/sm_90.profile).
//
//   nvcc -O3 -arch=sm_90 -o blocks blocks.cu && ./blocks
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

__global__ void one(float *y)
{
	y[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

__global__ void none(float *y)
{
	if (y == nullptr)
		y[threadIdx.x] = 0;
}

int main()
{
	int clk, sms;
	CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	const size_t threads = (size_t)1 << 25;
	float *y;
	CK(cudaMalloc(&y, threads * 4));
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	printf("blocks: 2^25 threads in blocks of B, one coalesced store each (one) or nothing "
	       "(none);\nms (median of 10), and the busiest SM's cycles per block and per warp\n");
	printf("%-5s %5s %9s %9s %10s %9s\n", "kind", "B", "blocks", "ms", "cyc/block", "cyc/warp");
	for (int k = 0; k < 2; k++)
		for (int bs = 32; bs <= 1024; bs *= 2) {
			size_t nb = threads / bs;
			std::vector<float> ms;
			for (int r = 0; r < 13; r++) {
				CK(cudaEventRecord(a));
				if (k)
					none<<<(unsigned)nb, bs>>>(y);
				else
					one<<<(unsigned)nb, bs>>>(y);
				CK(cudaEventRecord(b));
				CK(cudaEventSynchronize(b));
				float t;
				CK(cudaEventElapsedTime(&t, a, b));
				if (r >= 3)
					ms.push_back(t);
			}
			CK(cudaGetLastError());
			std::sort(ms.begin(), ms.end());
			double t = ms[ms.size() / 2], per = (double)((nb + sms - 1) / sms);
			double cyc = t * 1e-3 * clk * 1e3;
			printf("%-5s %5d %9zu %9.4f %10.1f %9.1f\n", k ? "none" : "one", bs, nb, t, cyc / per,
			       cyc / per / (bs / 32));
		}
	return 0;
}
