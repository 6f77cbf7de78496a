/* bsearch.cu: lower bounds of randomly ordered float queries in a sorted
 * float array by a branch-free search of its implicit tree, the top levels
 * optionally cached in shared memory, several queries a thread (held-out
 * space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef QPT
#define QPT 1
#endif
#ifndef L
#define L 0
#endif
#ifndef LDG
#define LDG 1
#endif

/* LDG 0 leaves the pointers without __restrict__: with the store to lb the
 * compiler cannot prove the array read-only, so its loads stay ordinary
 * global loads. */
#if LDG
#define BS_PTR const float *__restrict__
#define BS_LOAD(p) __ldg(p)
#else
#define BS_PTR const float *
#define BS_LOAD(p) (*(p))
#endif

/* n is a power of two.  The search keeps pos, the count of entries below
 * the query known so far; at the step of width s (n/2, n/4, ..., 1) entry
 * pos + s - 1 is the pivot, and pos grows by s where it is below the
 * query.  After the last step the count is pos or pos + 1, which one more
 * comparison settles.  The pivot of step d (width n >> (d + 1)) is node
 * 2^d - 1 + pos / (2 s) of the breadth-first tree, whose children are
 * 2 node + 1 and 2 node + 2: the shared copy holds nodes 0 to 2^L - 2. */
extern "C" __global__ void __launch_bounds__(TPB) bsearch(BS_PTR a, BS_PTR q, int *lb, int n)
{
	size_t q0 = (size_t)blockIdx.x * (TPB * QPT) + threadIdx.x;
	float v[QPT];
	int pos[QPT];
#pragma unroll
	for (int j = 0; j < QPT; j++) {
		v[j] = BS_LOAD(q + q0 + j * TPB);
		pos[j] = 0;
	}
	int s = n >> 1;
#if L > 0
	__shared__ float tree[(1 << L) - 1];
	for (int k = threadIdx.x; k < (1 << L) - 1; k += TPB) {
		int d = 31 - __clz(k + 1);
		int w = k + 1 - (1 << d);
		tree[k] = BS_LOAD(a + (size_t)(2 * w + 1) * (n >> (d + 1)) - 1);
	}
	__syncthreads();
	int node[QPT];
#pragma unroll
	for (int j = 0; j < QPT; j++)
		node[j] = 0;
#pragma unroll
	for (int d = 0; d < L; d++) {
#pragma unroll
		for (int j = 0; j < QPT; j++) {
			int below = tree[node[j]] < v[j];
			pos[j] += below ? s : 0;
			node[j] = 2 * node[j] + 1 + below;
		}
		s >>= 1;
	}
#endif
	for (; s > 0; s >>= 1) {
#pragma unroll
		for (int j = 0; j < QPT; j++)
			pos[j] += BS_LOAD(a + pos[j] + s - 1) < v[j] ? s : 0;
	}
#pragma unroll
	for (int j = 0; j < QPT; j++)
		lb[q0 + j * TPB] = pos[j] + (BS_LOAD(a + pos[j]) < v[j]);
}

/* One query a thread: the textbook lower bound over [lo, hi). */
extern "C" __global__ void bsearch_naive(const float *a, const float *q, int *lb, int n, int nq)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= nq)
		return;
	float x = q[i];
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (a[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	lb[i] = lo;
}
