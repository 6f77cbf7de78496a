#include <cstdio>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>
__global__ void saxpy(int n, float a, const float *x, float *y)
{
	extern __shared__ float pad[];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
	if (n < 0) pad[threadIdx.x] = 0; /* keeps the dynamic shared memory */
}
int main()
{
	int n = 1 << 24;
	float *x, *y;
	cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4);
	cudaMemset(x, 0, n * 4); cudaMemset(y, 0, n * 4);
	cudaFuncSetAttribute(saxpy, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
	int smems[] = { 0, 100 * 1024, 200 * 1024 };
	for (int s : smems) {
		int nb = 0;
		cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, saxpy, 256, s);
		cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
		std::vector<float> t;
		for (int r = 0; r < 30; r++) {
			cudaEventRecord(a);
			saxpy<<<n / 256, 256, s>>>(n, 2.0f, x, y);
			cudaEventRecord(b); cudaEventSynchronize(b);
			float ms; cudaEventElapsedTime(&ms, a, b); if (r >= 5) t.push_back(ms);
		}
		std::sort(t.begin(), t.end());
		printf("saxpy n=2^24 256 threads, %d KB dyn smem: %d blocks/SM, median %.1f us, min %.1f us (%s)\n",
		       s / 1024, nb, t[t.size() / 2] * 1000, t[0] * 1000, cudaGetErrorString(cudaGetLastError()));
	}
	cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, saxpy); printf("regs %d\n", fa.numRegs);
	return 0;
}
