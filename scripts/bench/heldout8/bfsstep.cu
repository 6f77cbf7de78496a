/* bfsstep.cu: one level of top-down breadth-first search on a graph in
 * CSR form: every neighbour of a frontier vertex that had no level at the
 * start of the step gets the next one.  TPV threads share a frontier
 * vertex's edges; the visited test reads the level array or a bitmap, and
 * the new level is stored plainly or claimed with atomicCAS (held-out
 * space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef TPV
#define TPV 1
#endif
#ifndef VIS
#define VIS 0
#endif

/* The levels as they were when the step began (level, and the same set as
 * a bitmap in vis) are read-only; the updated levels go to out, which
 * starts as a copy of level.  Double-buffered so, every run of the kernel
 * does the same work: updated in place, a second run would find the
 * step's vertices visited already. */
extern "C" __global__ void bfsstep(const int *__restrict__ frontier, const int *__restrict__ rowptr,
				   const int *__restrict__ col, const int *__restrict__ level,
				   const unsigned *__restrict__ vis, int *out, int lev)
{
	/* A group of TPV adjacent lanes (a power of two, so the division is a
	 * shift) takes one frontier vertex and strides through its edges, so
	 * that a group's column loads are adjacent words. */
	int t = blockIdx.x * TPB + threadIdx.x;
	int g = t / TPV;
	int lane = t % TPV;
	int v = __ldg(&frontier[g]);
	int e1 = __ldg(&rowptr[v + 1]);
	for (int e = __ldg(&rowptr[v]) + lane; e < e1; e += TPV) {
		int w = __ldg(&col[e]);
#if VIS == 0
		/* Several edges to one vertex may all store it: the same
		 * value, so the race is benign. */
		if (__ldg(&level[w]) < 0)
			out[w] = lev + 1;
#elif VIS == 1
		/* The compare-and-swap lets exactly one edge claim w, as a
		 * search that also queues the next frontier needs. */
		if (__ldg(&level[w]) < 0)
			atomicCAS(&out[w], -1, lev + 1);
#else
		/* A bit a vertex: 512 KiB for 4 Mi vertices where the level
		 * array is 16 MiB, so the tests stay in cache. */
		if (!(__ldg(&vis[w >> 5]) & (1u << (w & 31))))
			out[w] = lev + 1;
#endif
	}
}

/* One thread a frontier vertex, its edges in a plain loop. */
extern "C" __global__ void bfsstep_naive(const int *frontier, const int *rowptr, const int *col,
					 const int *level, int *out, int nf, int lev)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= nf)
		return;
	int v = frontier[i];
	for (int e = rowptr[v]; e < rowptr[v + 1]; e++) {
		int w = col[e];
		if (level[w] == -1)
			out[w] = lev + 1;
	}
}
