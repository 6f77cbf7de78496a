// Each thread owning ITEMS consecutive floats: what the lanes' stride costs
// loads and stores.  A warp instruction then touches ITEMS * 4 bytes a lane
// apart (ITEMS sectors' worth of lanes in one 128-byte line at ITEMS 1,
// one sector a lane from ITEMS 8).  Every element is read or written once,
// so every variant moves the same bytes.
//
//   load   sum += x[t * ITEMS + j], one coalesced store of the sum per thread
//   store  y[t * ITEMS + j] = j
//   both   y[t * ITEMS + j] = a * x[t * ITEMS + j] + y[...] (saxpy)
//   copy   y[t * ITEMS + j] = x[t * ITEMS + j]
//
// Milliseconds (median of 20) and GB/s of the elements moved, per ITEMS.
//
// Then the cost of one warp instruction apart from the bytes: 2^22 threads,
// thread t storing (or loading) R floats at t * S + j, j < R, for lane
// strides S of 1 to 32 floats: SM cycles per warp instruction (the busiest
// SM's share of the grid's instructions over the kernel's time).
//
//   nvcc -O3 -arch=sm_90 -o strided strided.cu && ./strided
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

template <int ITEMS, int KIND>
__global__ void strided(int n, float a, const float *x, float *y,
			float *out)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t * ITEMS >= n)
		return;
	float s = 0;
#pragma unroll
	for (int j = 0; j < ITEMS; j++) {
		int i = t * ITEMS + j;
		if (KIND == 0)
			s += x[i];
		else if (KIND == 1)
			y[i] = (float)j;
		else if (KIND == 2)
			y[i] = a * x[i] + y[i];
		else
			y[i] = x[i];
	}
	if (KIND == 0)
		out[t] = s;
}

// the median of 20 launches' milliseconds, after 5 to warm up
template <class F>
static float median_ms(F launch)
{
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	std::vector<float> ms;
	for (int r = 0; r < 25; r++) {
		CK(cudaEventRecord(a));
		launch();
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		float t;
		CK(cudaEventElapsedTime(&t, a, b));
		if (r >= 5)
			ms.push_back(t);
	}
	CK(cudaGetLastError());
	std::sort(ms.begin(), ms.end());
	return ms[ms.size() / 2];
}

template <int ITEMS, int KIND>
static float run(int n, const float *x, float *y, float *out)
{
	int threads = n / ITEMS, bs = 256;
	return median_ms(
		[&] { strided<ITEMS, KIND><<<(threads + bs - 1) / bs, bs>>>(n, 2.0f, x, y, out); });
}

template <int KIND>
static void row(const char *name, int n, const float *x, float *y, float *out, double bytes)
{
	float t[5] = { run<1, KIND>(n, x, y, out), run<2, KIND>(n, x, y, out),
		       run<4, KIND>(n, x, y, out), run<8, KIND>(n, x, y, out),
		       run<16, KIND>(n, x, y, out) };
	printf("%-6s %9d", name, n);
	for (float v : t)
		printf(" %8.4f %6.0f", v, bytes / v / 1e6);
	printf("\n");
}

template <int S, int R, int LOAD>
__global__ void lanes(float *y, float *out)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	float s = 0;
#pragma unroll
	for (int j = 0; j < R; j++) {
		if (LOAD)
			s += y[(size_t)t * S + j];
		else
			y[(size_t)t * S + j] = (float)j;
	}
	if (LOAD)
		out[t] = s;
}

template <int S, int R, int LOAD>
static void lanes_row(float *y, float *out, int clk_khz, int sms)
{
	const int threads = 1 << 22, bs = 256;
	double t = median_ms([&] { lanes<S, R, LOAD><<<threads / bs, bs>>>(y, out); });
	double inst = (double)threads / 32 * R / sms;
	printf("%-5s %3d %3d %8d %9.4f %10.1f\n", LOAD ? "load" : "store", S, R,
	       S * 4 >= 32 ? 32 : 4 * S, t, t * 1e-3 * clk_khz * 1e3 / inst);
}

int main()
{
	printf("strided: ITEMS consecutive floats per thread, 256 threads a block; ms (median of 20) "
	       "and GB/s\n%-6s %9s", "kind", "n");
	for (int it : { 1, 2, 4, 8, 16 })
		printf("   ITEMS %-2d     ", it);
	printf("\n");
	for (int n : { 1 << 24, 1 << 26 }) {
		float *x, *y, *out;
		CK(cudaMalloc(&x, (size_t)n * 4));
		CK(cudaMalloc(&y, (size_t)n * 4));
		CK(cudaMalloc(&out, (size_t)n * 4));
		CK(cudaMemset(x, 0, (size_t)n * 4));
		CK(cudaMemset(y, 0, (size_t)n * 4));
		double b = (double)n * 4;
		row<0>("load", n, x, y, out, b);
		row<1>("store", n, x, y, out, b);
		row<2>("saxpy", n, x, y, out, 3 * b);
		row<3>("copy", n, x, y, out, 2 * b);
		CK(cudaFree(x));
		CK(cudaFree(y));
		CK(cudaFree(out));
	}
	int clk, sms;
	CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	float *y, *out;
	CK(cudaMalloc(&y, ((size_t)1 << 22) * 32 * 4));
	CK(cudaMalloc(&out, ((size_t)1 << 22) * 4));
	CK(cudaMemset(y, 0, ((size_t)1 << 22) * 32 * 4));
	printf("\nlanes: 2^22 threads, R floats each at t * S + j; sectors per warp instruction, ms "
	       "(median of 20),\nSM cycles per warp instruction\n%-5s %3s %3s %8s %9s %10s\n", "kind",
	       "S", "R", "sectors", "ms", "cyc/inst");
	lanes_row<1, 1, 0>(y, out, clk, sms);
	lanes_row<2, 1, 0>(y, out, clk, sms);
	lanes_row<4, 1, 0>(y, out, clk, sms);
	lanes_row<8, 1, 0>(y, out, clk, sms);
	lanes_row<16, 1, 0>(y, out, clk, sms);
	lanes_row<32, 1, 0>(y, out, clk, sms);
	lanes_row<2, 2, 0>(y, out, clk, sms);
	lanes_row<4, 4, 0>(y, out, clk, sms);
	lanes_row<8, 2, 0>(y, out, clk, sms);
	lanes_row<8, 4, 0>(y, out, clk, sms);
	lanes_row<8, 8, 0>(y, out, clk, sms);
	lanes_row<16, 8, 0>(y, out, clk, sms);
	lanes_row<32, 8, 0>(y, out, clk, sms);
	lanes_row<1, 1, 1>(y, out, clk, sms);
	lanes_row<4, 1, 1>(y, out, clk, sms);
	lanes_row<8, 1, 1>(y, out, clk, sms);
	lanes_row<32, 1, 1>(y, out, clk, sms);
	lanes_row<8, 8, 1>(y, out, clk, sms);
	return 0;
}
