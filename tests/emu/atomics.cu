/* atomics.cu — atomicAdd (int, float), an atomicCAS loop, atomicMax, on
 * global and shared memory. */
extern "C" __global__ void atomics(const int *in, const float *fin, int *isum, float *fsum, int *imax,
				   double *dsum, unsigned *bins, int n)
{
	__shared__ unsigned sbins[16];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (threadIdx.x < 16)
		sbins[threadIdx.x] = 0;
	__syncthreads();
	if (i < n) {
		atomicAdd(isum, in[i]);
		atomicAdd(fsum, fin[i]);
		atomicMax(imax, in[i]);
		/* double add through a CAS loop, as before sm_60 */
		unsigned long long *p = (unsigned long long *)dsum;
		unsigned long long old = *p, assumed;
		do {
			assumed = old;
			old = atomicCAS(p, assumed,
					__double_as_longlong((double)fin[i] + __longlong_as_double(assumed)));
		} while (assumed != old);
		atomicAdd(&sbins[in[i] & 15], 1u);
	}
	__syncthreads();
	if (threadIdx.x < 16)
		atomicAdd(&bins[threadIdx.x], sbins[threadIdx.x]);
}
