/* dedisp.cu: brute-force incoherent dedispersion (held-out space). */
#ifndef NCH
#define NCH 128
#endif
#ifndef BX
#define BX 128
#endif
#ifndef TT
#define TT 2
#endif
#ifndef DMT
#define DMT 2
#endif
extern "C" __global__ void dedisp(const float *in, float *out, int stride, int nt)
{
	int t0 = blockIdx.x * BX * TT + threadIdx.x;
	int dm0 = blockIdx.y * DMT;
	float s[DMT][TT];
#pragma unroll
	for (int d = 0; d < DMT; d++)
#pragma unroll
		for (int k = 0; k < TT; k++)
			s[d][k] = 0;
	for (int c = 0; c < NCH; c++) {
		const float *row = in + (size_t)c * stride + t0;
		int step = (c * c) >> 9;
#pragma unroll
		for (int d = 0; d < DMT; d++)
#pragma unroll
			for (int k = 0; k < TT; k++)
				s[d][k] += row[(dm0 + d) * step + k * BX];
	}
#pragma unroll
	for (int d = 0; d < DMT; d++)
#pragma unroll
		for (int k = 0; k < TT; k++)
			out[(size_t)(dm0 + d) * nt + t0 + k * BX] = s[d][k];
}
extern "C" __global__ void dedisp_naive(const float *in, float *out, int stride, int nt)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x, dm = blockIdx.y;
	float s = 0;
	for (int c = 0; c < NCH; c++)
		s += in[(size_t)c * stride + t + dm * ((c * c) >> 9)];
	out[(size_t)dm * nt + t] = s;
}
