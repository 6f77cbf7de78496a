/* longloop.cu — long loops for loop sampling (exec_loops.c): an all-pairs
 * sum whose counted loop streams float4s, the same over tiles the block
 * shares (a loop with barriers), a strided loop whose lanes stop at
 * different iterations, a loop nest, and a loop whose end a value read
 * from memory decides, which must run whole. */
extern "C" __global__ void pairs(const float4 *p, float4 *a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float4 me = p[i];
	float ax = 0, ay = 0, az = 0;
	for (int j = 0; j < n; j++) {
		float4 o = p[j];
		float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
		float s = o.w * rsqrtf(dx * dx + dy * dy + dz * dz + 1e-3f);
		ax += dx * s;
		ay += dy * s;
		az += dz * s;
	}
	a[i] = make_float4(ax, ay, az, 0);
}

/* blocks of 64 threads */
extern "C" __global__ void tiles(const float4 *p, float4 *a, int n)
{
	__shared__ float4 t[64];
	int i = blockIdx.x * 64 + threadIdx.x;
	float4 me = p[i];
	float ax = 0, ay = 0, az = 0;
	for (int base = 0; base < n; base += 64) {
		t[threadIdx.x] = p[base + threadIdx.x];
		__syncthreads();
		for (int j = 0; j < 64; j++) {
			float4 o = t[j];
			float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
			float s = o.w * rsqrtf(dx * dx + dy * dy + dz * dz + 1e-3f);
			ax += dx * s;
			ay += dy * s;
			az += dz * s;
		}
		__syncthreads();
	}
	a[i] = make_float4(ax, ay, az, 0);
}

/* lane l sums x[l], x[l + 32], ... below n - 7 l: the lanes leave one by one */
extern "C" __global__ void strided(const float *x, float *out, int n)
{
	int l = threadIdx.x;
	float s = 0;
	for (int k = l; k < n - 7 * l; k += 32)
		s += x[k];
	out[blockIdx.x * blockDim.x + l] = s;
}

extern "C" __global__ void nest(const float *x, float *out, int rows, int cols)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	float s = 0;
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			s += x[(size_t)r * cols + c] * (float)t;
	out[t] = s;
}

/* follows next[] from 0 until it reads a negative index */
extern "C" __global__ void chase(const int *next, int *out)
{
	int k = 0, steps = 0;
	while (k >= 0) {
		k = next[k];
		steps++;
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = steps;
}
