/* loop.cu — loops of a known size for the instruction-fetch observation
 * (probe.c): HOT fused multiply-adds per iteration, and with COLD > 0 as many
 * more under a branch never taken in the middle of the body, which the
 * loop's span includes. */
#define FMA4                                                                                       \
	asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x) : "f"(b));                             \
	asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x) : "f"(b));                             \
	asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x) : "f"(b));                             \
	asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x) : "f"(b));
#define FMA64 FMA4 FMA4 FMA4 FMA4 FMA4 FMA4 FMA4 FMA4 FMA4 FMA4 FMA4 FMA4 FMA4 FMA4 FMA4 FMA4

extern "C" __global__ void hot(float *out, float b, int n, int flag)
{
	float x = threadIdx.x;
	for (int i = 0; i < n; i++) {
		FMA64 FMA64
		if (flag == 12345) {
		}
		FMA64 FMA64
	}
	out[threadIdx.x] = x;
}

extern "C" __global__ void cold(float *out, float b, int n, int flag)
{
	float x = threadIdx.x;
	for (int i = 0; i < n; i++) {
		FMA64 FMA64
		if (flag == 12345) {
			FMA64 FMA64 FMA64 FMA64 FMA64 FMA64 FMA64 FMA64
		}
		FMA64 FMA64
	}
	out[threadIdx.x] = x;
}
