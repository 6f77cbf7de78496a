// slow-compile.cu — a kernel whose compile time grows with DEPTH: each level
// of the template inlines the two below it, so the compiler sees about
// fib(DEPTH) copies of the body.
template <int N> struct Fib {
	static __device__ __forceinline__ float f(float x)
	{
		return Fib<N - 1>::f(x * 1.5f + 1.0f) - Fib<N - 2>::f(x * 0.5f);
	}
};
template <> struct Fib<1> {
	static __device__ __forceinline__ float f(float x) { return x; }
};
template <> struct Fib<0> {
	static __device__ __forceinline__ float f(float x) { return 1.0f - x; }
};

extern "C" __global__ void slow(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = Fib<DEPTH>::f(x[i]);
}
