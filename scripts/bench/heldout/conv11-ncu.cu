// conv11-ncu.cu: one conv11 configuration (scripts/bench/heldout/conv11.cu,
// its knobs given as -D options) timed and run once more for Nsight Compute,
// to see where its global-memory tiles at 1 or 2 blocks an SM lose time
// (conv11-ncu.sh).
#include "../ubench/terms.h"
#include "conv11.cu"

int main()
{
	device_init();
	const int n = 4096, w = n + 2 * R;
	float *img, *out;
	CK(cudaMalloc(&img, (size_t)w * w * sizeof(float)));
	CK(cudaMalloc(&out, (size_t)n * n * sizeof(float)));
	CK(cudaMemset(img, 0, (size_t)w * w * sizeof(float)));
	float f[K * K];
	for (int i = 0; i < K * K; i++)
		f[i] = 1.0f / (i + 1);
	CK(cudaMemcpyToSymbol(cfilt, f, sizeof f));
	dim3 grid(n / BX, n / (BY * OY)), block(BX, BY);
	float ms = time_ms([&] { conv<<<grid, block>>>(img, out, n); });
	printf("CONV11 BX=%d BY=%d OY=%d SMEM=%d ms=%.4f\n", BX, BY, OY, SMEM, ms);
	return 0;
}
