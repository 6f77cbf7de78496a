// terms.h: the harness terms.cu and terms2.cu share: CK, which ends the
// program on a failed CUDA call; the device's SM count and SM clock, which
// device_init reads and prints as the output's first line; and time_ms, the
// median of 11 timed runs (or as many as asked).  Each benchmark is one file
// that includes this: terms.cu, terms2.cu, l1lines.cu.
#ifndef TERMS_H
#define TERMS_H

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

static int g_sms;
static double g_clock_ghz;

/* Reads device 0's SM count and clock into g_sms and g_clock_ghz and prints
 * them: "device NAME sms N clock K kHz". */
static inline void device_init()
{
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	g_sms = p.multiProcessorCount;
	int clk;
	CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
	g_clock_ghz = clk / 1e6;
	printf("device %s sms %d clock %d kHz\n", p.name, g_sms, clk);
}

/* Median milliseconds of runs runs of f (after one warm-up). */
template <class F> static float time_ms(F f, int runs = 11)
{
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	f();
	CK(cudaDeviceSynchronize());
	std::vector<float> v;
	for (int i = 0; i < runs; i++) {
		CK(cudaEventRecord(a));
		f();
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		float ms;
		CK(cudaEventElapsedTime(&ms, a, b));
		v.push_back(ms);
	}
	CK(cudaGetLastError());
	std::sort(v.begin(), v.end());
	cudaEventDestroy(a);
	cudaEventDestroy(b);
	return v[v.size() / 2];
}

#endif
