/* merge.cu: merge path merge of two sorted int arrays with a source-index
 * permutation, the split searched per thread or per block, the inputs and
 * outputs in global or shared memory (held-out space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef IPT
#define IPT 8
#endif
#ifndef SRC
#define SRC 1
#endif
#ifndef OUT
#define OUT 0
#endif

#define ITEMS (TPB * IPT)	/* outputs a block */

/* How many of the first d outputs come from x (nx keys) rather than y
 * (ny keys), x's keys first among equals: the smallest i such that x[i]
 * is not among them, that is x[i] > y[d - 1 - i]. */
__device__ static int split(const int *x, int nx, const int *y, int ny, int d)
{
	int lo = d > ny ? d - ny : 0, hi = d < nx ? d : nx;
	while (lo < hi) {
		int mid = (lo + hi) >> 1;
		if (x[mid] <= y[d - 1 - mid])
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

extern "C" __global__ void merge(const int *__restrict__ a, const int *__restrict__ b, int *__restrict__ c,
				 int *__restrict__ src, int na, int nb)
{
	int tid = threadIdx.x;
	int d0 = blockIdx.x * ITEMS;		/* the block's first output */
	const int *x, *y;			/* the ranges this thread merges */
	int nx, ny, ox, oy;			/* their lengths and source offsets */
	int i;
#if SRC == 0
	int d = d0 + tid * IPT;
	x = a;
	y = b;
	nx = na;
	ny = nb;
	ox = 0;
	oy = na;
	i = split(a, na, b, nb, d);
#else
	__shared__ int ends[2];
	if (tid < 2)
		ends[tid] = split(a, na, b, nb, d0 + tid * ITEMS);
	__syncthreads();
	int a0 = ends[0], a1 = ends[1];
	int b0 = d0 - a0, b1 = d0 + ITEMS - a1;
	nx = a1 - a0;
	ny = b1 - b0;
	ox = a0;
	oy = na + b0;
#if SRC == 1
	x = a + a0;
	y = b + b0;
#else
	__shared__ int keys[ITEMS];
	for (int e = tid; e < ITEMS; e += TPB)
		keys[e] = e < nx ? a[a0 + e] : b[b0 + e - nx];
	__syncthreads();
	x = keys;
	y = keys + nx;
#endif
	i = split(x, nx, y, ny, tid * IPT);
#endif
	int j = tid * IPT - i;
#if SRC == 0
	j += d0;
#endif
	int xv = i < nx ? x[i] : 0, yv = j < ny ? y[j] : 0;
	int v[IPT], s[IPT];
#pragma unroll
	for (int k = 0; k < IPT; k++) {
		if (j >= ny || (i < nx && xv <= yv)) {
			v[k] = xv;
			s[k] = ox + i;
			i++;
			xv = i < nx ? x[i] : 0;
		} else {
			v[k] = yv;
			s[k] = oy + j;
			j++;
			yv = j < ny ? y[j] : 0;
		}
	}
#if OUT == 0
	int *cp = c + d0 + tid * IPT, *sp = src + d0 + tid * IPT;
#pragma unroll
	for (int k = 0; k < IPT; k++) {
		cp[k] = v[k];
		sp[k] = s[k];
	}
#else
#if SRC == 2
	/* The staged keys' room takes the values once every thread has
	 * merged: 48 KiB of static shared memory would not hold three
	 * arrays of 4096 ints. */
	__syncthreads();
	int *ov = keys;
#else
	__shared__ int ov[ITEMS];
#endif
	__shared__ int os[ITEMS];
#pragma unroll
	for (int k = 0; k < IPT; k++) {
		ov[tid * IPT + k] = v[k];
		os[tid * IPT + k] = s[k];
	}
	__syncthreads();
	for (int e = tid; e < ITEMS; e += TPB) {
		c[d0 + e] = ov[e];
		src[d0 + e] = os[e];
	}
#endif
}

/* One thread a key: its place in c is its index plus the number of the
 * other array's keys before it (b's keys equal to an a key come after it,
 * a's equal to a b key before it). */
extern "C" __global__ void merge_naive(const int *a, const int *b, int *c, int *src, int na, int nb)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= na + nb)
		return;
	if (t < na) {
		int key = a[t], lo = 0, hi = nb;
		while (lo < hi) {		/* b's keys < key */
			int mid = (lo + hi) / 2;
			if (b[mid] < key)
				lo = mid + 1;
			else
				hi = mid;
		}
		c[t + lo] = key;
		src[t + lo] = t;
	} else {
		int k = t - na, key = b[k], lo = 0, hi = na;
		while (lo < hi) {		/* a's keys <= key */
			int mid = (lo + hi) / 2;
			if (a[mid] <= key)
				lo = mid + 1;
			else
				hi = mid;
		}
		c[k + lo] = key;
		src[k + lo] = t;
	}
}
