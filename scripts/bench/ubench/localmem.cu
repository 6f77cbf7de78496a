// localmem.cu: what a thread's local-memory array costs once the SM's
// resident threads' arrays no longer fit its L1, and once the GPU's no
// longer fit the L2.  Each thread owns an array of S floats, indexed at run
// time so that it lives in local memory (ptxas reports the stack frame),
// and sweeps it `passes` times: reading every word (rmw 0) or reading and
// rewriting it (rmw 1).  A pass touches the whole array before it comes
// back to a word, so a word is found again only where every resident
// thread's array fits.  One wave of B 128-thread blocks an SM, so the
// footprint an SM holds is S * 4 * 128 * B bytes and the GPU's that times
// its SMs.  Prints, per S and B, the local bytes moved a second (a warp's
// access of one word a lane is 128 bytes, as the interleaved local layout
// makes it) and the SM cycles per warp access an SM.  batchinv's loops
// over an 8 x 8 matrix a thread (UNROLL 0, 256 to 1,024 bytes a thread at
// up to 2,048 threads an SM) ran 5.6 to 13.5 times slower on the H100 than
// the model, which serves local loads from the L1 and L2 as global ones.
#include "terms.h"

template <int S> __global__ void lsweep(float *out, int passes, int rmw, float c)
{
	float a[S];
#pragma unroll 1
	for (int i = 0; i < S; i++)
		a[i] = (float)(threadIdx.x + i);
	float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	for (int p = 0; p < passes; p++) {
		// four independent loads an iteration: the sweep is bound by
		// where the words come from, not by one load's latency
#pragma unroll 1
		for (int i = 0; i < S; i += 4) {
			float v0 = a[i], v1 = a[i + 1], v2 = a[i + 2], v3 = a[i + 3];
			s0 += v0;
			s1 += v1;
			s2 += v2;
			s3 += v3;
			if (rmw) {
				a[i] = v0 * c;
				a[i + 1] = v1 * c;
				a[i + 2] = v2 * c;
				a[i + 3] = v3 * c;
			}
		}
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = s0 + s1 + s2 + s3 + a[(threadIdx.x * 7) & (S - 1)];
}

// The shape of an elimination's inner loop, one word at a time: each step
// reads a word of the array and one of a pivot row of 8 that moves every
// pass, and writes the first back, so the next pass reads what this one
// wrote.  The steps are chained only through the loop; ptxas issues each
// step's loads after the last step's store.
template <int S> __global__ void lchain(float *out, int passes, float f)
{
	float a[S];
#pragma unroll 1
	for (int i = 0; i < S; i++)
		a[i] = (float)(threadIdx.x + i);
	for (int p = 0; p < passes; p++) {
		int piv = (p * 8) & (S - 1);
#pragma unroll 1
		for (int i = 0; i < S; i++)
			a[i] = fmaf(-f, a[piv + (i & 7)], a[i]);
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = a[(threadIdx.x * 7) & (S - 1)];
}

template <int S> static void chainrow(float *out, int b)
{
	const int threads = 128;
	int blocks = g_sms * b;
	int passes = 4 * 1024 / (S * b);
	if (passes < 2)
		passes = 2;
	float ms = time_ms([&] { lchain<S><<<blocks, threads>>>(out, passes, 0.001f); }, 7);
	double steps = (double)passes * S; // a thread's
	double acc = (double)blocks * (threads / 32) * steps * 3;
	double fp_sm = (double)S * 4 * threads * b;
	printf("CHAIN S=%d blocks_per_sm=%d threads_per_sm=%d footprint_sm_kib=%.0f footprint_gpu_mib=%.1f "
	       "passes=%d ms=%.4f gbs=%.0f cycles_per_warp_access_sm=%.3f cycles_per_step=%.1f\n",
	       S, b, threads * b, fp_sm / 1024, fp_sm * g_sms / 1048576, passes, ms, acc * 128 / ms / 1e6,
	       ms * 1e-3 * g_clock_ghz * 1e9 / (acc / g_sms), ms * 1e-3 * g_clock_ghz * 1e9 / steps);
}

// Reading back a word written a few steps before, as a spilled register's
// reload does and as an elimination's zeroed entry and scaled pivot row
// are: step i reads the word step i - d wrote (d 1: the last step's) and
// rewrites its own.  d = S is lchain's distance, a whole pass.
template <int S> __global__ void lraw(float *out, int passes, int d, float f)
{
	float a[S];
#pragma unroll 1
	for (int i = 0; i < S; i++)
		a[i] = (float)(threadIdx.x + i);
	for (int p = 0; p < passes; p++) {
#pragma unroll 1
		for (int i = 0; i < S; i++)
			a[i] = fmaf(-f, a[(i - d) & (S - 1)], a[i]);
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = a[(threadIdx.x * 7) & (S - 1)];
}

template <int S> static void rawrow(float *out, int b, int d)
{
	const int threads = 128;
	int blocks = g_sms * b;
	int passes = 4 * 1024 / (S * b);
	if (passes < 2)
		passes = 2;
	float ms = time_ms([&] { lraw<S><<<blocks, threads>>>(out, passes, d, 0.001f); }, 7);
	double steps = (double)passes * S;
	double fp_sm = (double)S * 4 * threads * b;
	printf("RAW S=%d d=%d blocks_per_sm=%d threads_per_sm=%d footprint_sm_kib=%.0f footprint_gpu_mib=%.1f "
	       "passes=%d ms=%.4f cycles_per_step=%.1f cycles_per_warp_step_sm=%.2f\n",
	       S, d, b, threads * b, fp_sm / 1024, fp_sm * g_sms / 1048576, passes, ms,
	       ms * 1e-3 * g_clock_ghz * 1e9 / steps, ms * 1e-3 * g_clock_ghz * 1e9 / steps / (b * threads / 32));
}

template <int S> static void row(float *out, int b, int rmw)
{
	const int threads = 128;
	int blocks = g_sms * b;
	// about the same bytes whatever S and B: 2 GiB-ish at rmw 1
	int passes = 16 * 1024 / (S * b);
	if (passes < 2)
		passes = 2;
	float ms = time_ms([&] { lsweep<S><<<blocks, threads>>>(out, passes, rmw, 0.999f); }, 7);
	double acc = (double)blocks * (threads / 32) * passes * S * (rmw ? 2 : 1); // warp accesses
	double bytes = acc * 128;
	double fp_sm = (double)S * 4 * threads * b;
	printf("LOCAL S=%d rmw=%d blocks_per_sm=%d threads_per_sm=%d footprint_sm_kib=%.0f footprint_gpu_mib=%.1f "
	       "passes=%d ms=%.4f gbs=%.0f cycles_per_warp_access_sm=%.3f\n",
	       S, rmw, b, threads * b, fp_sm / 1024, fp_sm * g_sms / 1048576, passes, ms, bytes / ms / 1e6,
	       ms * 1e-3 * g_clock_ghz * 1e9 / (acc / g_sms));
}

template <int S> static void rows(float *out)
{
	for (int rmw : { 0, 1 })
		for (int b : { 1, 2, 4, 8, 16 })
			row<S>(out, b, rmw);
	for (int b : { 1, 2, 4, 8, 16 })
		chainrow<S>(out, b);
}

int main()
{
	device_init();
	float *out;
	CK(cudaMalloc(&out, (size_t)g_sms * 16 * 128 * 4));
	rows<16>(out);
	rows<32>(out);
	rows<64>(out);
	rows<128>(out);
	rows<256>(out);
	for (int b : { 1, 4, 16 })
		for (int d : { 1, 2, 4, 8, 16, 64 }) {
			rawrow<16>(out, b, d & 15);
			rawrow<64>(out, b, d);
		}
	return 0;
}
