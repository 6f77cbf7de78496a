// dedisp-ncu.cu: one dedisp configuration (scripts/bench/heldout/dedisp.cu,
// its knobs given as -D options) timed and run once more for Nsight Compute
// (dedisp-ncu.sh): its one-warp blocks run twice the model's larger bound.
#include "../ubench/terms.h"
#include "dedisp.cu"

int main()
{
	device_init();
	const int nt = 32768, ndm = 128, maxd = 4096, stride = nt + maxd;
	float *in, *out;
	CK(cudaMalloc(&in, (size_t)NCH * stride * sizeof(float)));
	CK(cudaMalloc(&out, (size_t)ndm * nt * sizeof(float)));
	CK(cudaMemset(in, 0, (size_t)NCH * stride * sizeof(float)));
	dim3 grid(nt / (BX * TT), ndm / DMT), block(BX);
	float ms = time_ms([&] { dedisp<<<grid, block>>>(in, out, stride, nt); });
	printf("DEDISP BX=%d TT=%d DMT=%d ms=%.4f\n", BX, TT, DMT, ms);
	return 0;
}
