/* misc.cu — double precision, float4 vector loads, unsigned char SAD,
 * __constant__ and __device__ arrays with initializers, dynamic shared memory,
 * integer division by variables, fast-math functions, a template. */
__constant__ int ctab[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
__constant__ float cscale = 0.5f;
__device__ int gcount[4] = { 10, 20, 30, 40 };

extern "C" __global__ void dmath(const double *x, double *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		double v = x[i];
		y[i] = sqrt(v * v + 1.0) / (v + 3.0) + fma(v, 0.25, -1.0) + (double)(i % 7) * 1e-3;
	}
}

extern "C" __global__ void vec4(const float4 *a, float4 *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float4 v = a[i];
		b[i] = make_float4(v.w * 2.0f, v.z + 1.0f, v.y - v.x, v.x * v.y);
	}
}

extern "C" __global__ void sad(const unsigned char *a, const unsigned char *b, int *out, int w)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int s = 0;
	for (int k = 0; k < 16; k++) {
		int d = (int)a[i * 16 + k] - (int)b[(i * 16 + k + w) % (16 * w)];
		s += d < 0 ? -d : d;
	}
	out[i] = s;
}

extern "C" __global__ void consts(const int *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = (float)(ctab[in[i] & 7] + gcount[i & 3]) * cscale;
	if (i < 4)
		gcount[i] += 1;
}

extern "C" __global__ void dynsmem(const int *in, int *out)
{
	extern __shared__ int buf[];
	int t = threadIdx.x;
	buf[t] = in[blockIdx.x * blockDim.x + t];
	__syncthreads();
	out[blockIdx.x * blockDim.x + t] = buf[blockDim.x - 1 - t] + buf[(t + 1) % blockDim.x];
}

extern "C" __global__ void intdiv(const int *a, const int *b, int *q, int *r, unsigned *uq,
				  unsigned *ur, long long *lq, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		q[i] = a[i] / b[i];
		r[i] = a[i] % b[i];
		uq[i] = (unsigned)a[i] / (unsigned)b[i];
		ur[i] = (unsigned)a[i] % (unsigned)b[i];
		lq[i] = ((long long)a[i] * 100003LL) / (long long)b[i];
	}
}

extern "C" __global__ void fastmath(const float *x, float *s, float *e, float *d, float *r, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = x[i];
		s[i] = sinf(v);
		e[i] = expf(v);
		d[i] = __fdividef(v, v + 4.0f);
		r[i] = rsqrtf(v + 4.0f);
	}
}

template <typename T, int K> __global__ void scale(const T *in, T *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i] * (T)K + (T)1;
}
template __global__ void scale<int, 3>(const int *, int *, int);
template __global__ void scale<float, 5>(const float *, float *, int);
