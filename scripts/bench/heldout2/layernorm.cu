/* layernorm.cu: LayerNorm forward, a row shared by TPR threads, two-pass or
 * Welford statistics (held-out space, second suite). */
#ifndef ALG
#define ALG 0
#endif
#ifndef TPR
#define TPR 32
#endif
#ifndef TPB
#define TPB 256
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef COLS
#define COLS 768
#endif
#define NV (COLS / VEC)			/* vectors in a row */
#define PER ((NV + TPR - 1) / TPR)	/* vectors a thread holds */
#define LANES (TPR < 32 ? TPR : 32)	/* a row's threads within one warp */
#define RWARPS (TPR / 32)		/* a row's warps, when TPR > 32 */
#define ALL 0xffffffffu

__device__ void load_vec(const float *p, float *r)
{
#if VEC == 4
	float4 q = *(const float4 *)p;
	r[0] = q.x; r[1] = q.y; r[2] = q.z; r[3] = q.w;
#elif VEC == 2
	float2 q = *(const float2 *)p;
	r[0] = q.x; r[1] = q.y;
#else
	r[0] = *p;
#endif
}

__device__ void store_vec(float *p, const float *r)
{
#if VEC == 4
	*(float4 *)p = make_float4(r[0], r[1], r[2], r[3]);
#elif VEC == 2
	*(float2 *)p = make_float2(r[0], r[1]);
#else
	*p = r[0];
#endif
}

/* The sum of s over the row's TPR threads, the same in each of them.  sh
 * holds a float per warp of the block; the barrier after reading it lets
 * the next call reuse it. */
__device__ float row_sum(float s, float *sh)
{
	for (int o = LANES / 2; o > 0; o >>= 1)
		s += __shfl_xor_sync(ALL, s, o);
#if TPR > 32
	int w = threadIdx.x >> 5, first = w / RWARPS * RWARPS;
	if ((threadIdx.x & 31) == 0)
		sh[w] = s;
	__syncthreads();
	s = 0;
	for (int i = 0; i < RWARPS; i++)
		s += sh[first + i];
	__syncthreads();
#endif
	return s;
}

/* Merges Welford's (n, mean, m2) of another part of the row into ours. */
__device__ void merge(float *n, float *mean, float *m2, float nb, float mb,
		float m2b)
{
	float na = *n, tot = na + nb;
	if (nb == 0)
		return;
	float d = mb - *mean, f = nb / tot;
	*mean += d * f;
	*m2 += m2b + d * d * na * f;
	*n = tot;
}

extern "C" __global__ void layernorm(const float *x, const float *gamma,
		const float *beta, float *y)
{
#if TPR > 32
	__shared__ float sh[3 * (TPB / 32)];
#else
	__shared__ float sh[1];
#endif
	int lane = threadIdx.x % TPR;
	size_t row = (size_t)blockIdx.x * (TPB / TPR) + threadIdx.x / TPR;
	const float *in = x + row * COLS;
	float v[PER][VEC];
#pragma unroll
	for (int i = 0; i < PER; i++) {
		int j = i * TPR + lane;
		if (NV % TPR == 0 || j < NV)
			load_vec(in + j * VEC, v[i]);
	}
	float mean, rstd;
#if ALG == 0
	float s = 0;
#pragma unroll
	for (int i = 0; i < PER; i++)
		if (NV % TPR == 0 || i * TPR + lane < NV)
#pragma unroll
			for (int e = 0; e < VEC; e++)
				s += v[i][e];
	mean = row_sum(s, sh) * (1.0f / COLS);
	float q = 0;
#pragma unroll
	for (int i = 0; i < PER; i++)
		if (NV % TPR == 0 || i * TPR + lane < NV)
#pragma unroll
			for (int e = 0; e < VEC; e++) {
				float d = v[i][e] - mean;
				q += d * d;
			}
	rstd = rsqrtf(row_sum(q, sh) * (1.0f / COLS) + 1e-5f);
#else
	float n = 0, m = 0, m2 = 0;
#pragma unroll
	for (int i = 0; i < PER; i++)
		if (NV % TPR == 0 || i * TPR + lane < NV)
#pragma unroll
			for (int e = 0; e < VEC; e++) {
				n += 1;
				float d = v[i][e] - m;
				m += d / n;
				m2 += d * (v[i][e] - m);
			}
	for (int o = LANES / 2; o > 0; o >>= 1) {
		float nb = __shfl_xor_sync(ALL, n, o);
		float mb = __shfl_xor_sync(ALL, m, o);
		float m2b = __shfl_xor_sync(ALL, m2, o);
		merge(&n, &m, &m2, nb, mb, m2b);
	}
#if TPR > 32
	{
		int w = threadIdx.x >> 5, first = w / RWARPS * RWARPS;
		const int nw = TPB / 32;
		if ((threadIdx.x & 31) == 0) {
			sh[w] = n;
			sh[nw + w] = m;
			sh[2 * nw + w] = m2;
		}
		__syncthreads();
		n = sh[first];
		m = sh[nw + first];
		m2 = sh[2 * nw + first];
		for (int i = 1; i < RWARPS; i++)
			merge(&n, &m, &m2, sh[first + i], sh[nw + first + i],
					sh[2 * nw + first + i]);
	}
#endif
	mean = m;
	rstd = rsqrtf(m2 * (1.0f / COLS) + 1e-5f);
#endif
	float *out = y + row * COLS;
#pragma unroll
	for (int i = 0; i < PER; i++) {
		int j = i * TPR + lane;
		if (NV % TPR == 0 || j < NV) {
			float g[VEC], b[VEC], r[VEC];
			load_vec(gamma + j * VEC, g);
			load_vec(beta + j * VEC, b);
#pragma unroll
			for (int e = 0; e < VEC; e++)
				r[e] = (v[i][e] - mean) * rstd * g[e] + b[e];
			store_vec(out + j * VEC, r);
		}
	}
}

extern "C" __global__ void layernorm_naive(const float *x, const float *gamma,
		const float *beta, float *y, int rows, int cols)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	const float *in = x + (size_t)r * cols;
	float s = 0;
	for (int c = 0; c < cols; c++)
		s += in[c];
	float mean = s / cols, q = 0;
	for (int c = 0; c < cols; c++)
		q += (in[c] - mean) * (in[c] - mean);
	float inv = 1.0f / sqrtf(q / cols + 1e-5f);
	for (int c = 0; c < cols; c++)
		y[(size_t)r * cols + c] = (in[c] - mean) * inv * gamma[c] + beta[c];
}
