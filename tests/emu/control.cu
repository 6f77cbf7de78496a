/* control.cu — divergence: nested if/else, loops with break and continue,
 * early return, a __noinline__ device function, a dynamically indexed local
 * array. */
__device__ __noinline__ int collatz_steps(int x, int limit)
{
	int steps = 0;
	while (x != 1) {
		if (steps >= limit)
			return -1;
		x = (x & 1) ? 3 * x + 1 : x / 2;
		steps++;
	}
	return steps;
}

extern "C" __global__ void divergent(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = in[i];
	int r = 0;
	if (v % 3 == 0) {
		if (v % 2 == 0)
			r = v * 7;
		else
			r = v - 11;
	} else if (v % 3 == 1) {
		for (int k = 0; k < 64; k++) {
			if (k == (v & 31))
				break;
			if (k % 5 == 2)
				continue;
			r += k ^ v;
		}
	} else {
		r = collatz_steps(v & 1023 | 1, 200);
		if (r < 0) {
			out[i] = -12345;
			return;
		}
	}
	out[i] = r;
}

extern "C" __global__ void stack_array(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int a[24];
	for (int k = 0; k < 24; k++)
		a[k] = in[(i + k) % n] * (k + 1);
	int idx = in[i] & 15;
	int s = 0;
	for (int k = 0; k < 8; k++)
		s += a[(idx + k * 3) % 24];
	out[i] = s;
}
