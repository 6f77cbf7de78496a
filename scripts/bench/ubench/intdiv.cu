// Integer division and remainder by a value known only at run time: PTX
// has one instruction for each, ptxas expands it into a sequence (the
// reciprocal on the SFU, conversions, multiply-adds; `cuobjdump -sass`).
// Measures, on one SM, the cycles of a dependent chain of x = x % y + t
// (latency; less the add's 4.4 for the division) and the cycles per warp
// instruction of 32 warps doing
// independent ones (throughput), against a plain IMAD chain: what one
// rem.u32 / div.u32 costs in the interval model's terms (pipes.c, the
// issue counts of expanded PTX instructions).
//
//   nvcc -O3 -arch=sm_90 -o intdiv intdiv.cu && ./intdiv
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

static const int N = 4096;

// KIND 0: x = x * y + t (IMAD), 1: x = x % y + t, 2: x = x / y + t, 3: signed %,
// 4: t * 7919 % (x | 1), a divisor that changes every step (nothing of the
// division hoisted out of the loop), 5: the same in 64 bits
template <int KIND>
__global__ void chain(unsigned *out, unsigned y, long long *cyc)
{
	unsigned x = threadIdx.x + 12345u, t = threadIdx.x | 1;
	int xs = (int)x - 7000;
	__syncthreads();
	long long t0 = clock64();
#pragma unroll 16
	for (int i = 0; i < N; i++) {
		if (KIND == 0)
			x = x * y + t;
		else if (KIND == 1)
			x = x % y + t + 0x10000u;
		else if (KIND == 2)
			x = x / y + t + 0x10000u;
		else if (KIND == 3)
			xs = xs % (int)y - (int)t;
		else if (KIND == 4)
			x = (t * 7919u) % (x | 1u) + 0x10000u;
		else
			x = (unsigned)(((unsigned long long)t * 0x9e3779b97f4aull) % (x | 1u)) + 0x10000u;
	}
	__syncthreads();
	long long t1 = clock64();
	out[blockIdx.x * blockDim.x + threadIdx.x] = x + (unsigned)xs;
	if (threadIdx.x == 0)
		cyc[blockIdx.x] = t1 - t0;
}

template <int KIND>
static void row(const char *name, unsigned *out, long long *cyc)
{
	double r[2];
	int warps[2] = { 1, 32 };
	for (int k = 0; k < 2; k++) {
		chain<KIND><<<1, 32 * warps[k]>>>(out, 977u, cyc);
		CK(cudaDeviceSynchronize());
		chain<KIND><<<1, 32 * warps[k]>>>(out, 977u, cyc);
		CK(cudaDeviceSynchronize());
		long long c;
		CK(cudaMemcpy(&c, cyc, sizeof c, cudaMemcpyDeviceToHost));
		r[k] = (double)c / N / (k ? warps[k] : 1);
	}
	printf("%-8s %10.1f %10.2f\n", name, r[0], r[1]);
}

int main()
{
	unsigned *out;
	long long *cyc;
	CK(cudaMalloc(&out, 1024 * sizeof(unsigned)));
	CK(cudaMalloc(&cyc, sizeof(long long)));
	printf("intdiv: one block on one SM; cycles per dependent step of one warp (latency), and\n"
	       "per warp instruction with 32 warps (throughput); y = 977 at run time\n");
	printf("%-8s %10s %10s\n", "op", "latency", "per warp");
	row<0>("imad", out, cyc);
	row<1>("rem.u32", out, cyc);
	row<2>("div.u32", out, cyc);
	row<3>("rem.s32", out, cyc);
	row<4>("rem.var", out, cyc);
	row<5>("rem.u64", out, cyc);
	return 0;
}
