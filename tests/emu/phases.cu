/* phases.cu — a thread reads 32 words of a table, 32 words apart from its
 * neighbour's (every lane on one L1 bank: 32 wavefronts a warp load), and
 * then computes on them in a loop of FFMAs (the phase term, model/probe.c):
 * `once` loads them all before the loop, `mixed` loads one a step inside
 * the same loop, so its parts do not change their mix. */
extern "C" __global__ void once(const float *tab, float *out, int steps)
{
	float x[32];
#pragma unroll
	for (int i = 0; i < 32; i++)
		x[i] = tab[(threadIdx.x & 31) * 32 + i];
	float a = 0;
#pragma unroll 1
	for (int s = 0; s < steps; s++) {
#pragma unroll
		for (int i = 0; i < 32; i++)
			a = fmaf(a, x[i], 0.5f);
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}

extern "C" __global__ void mixed(const float *tab, float *out, int steps)
{
	float a = 0;
#pragma unroll 1
	for (int s = 0; s < steps; s++) {
		float x = tab[(threadIdx.x & 31) * 32 + (s & 31)];
#pragma unroll
		for (int i = 0; i < 32; i++)
			a = fmaf(a, x, 0.5f);
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
