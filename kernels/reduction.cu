/* reduction.cu — parallel sum reduction with the two stride schemes of Kirk
 * and Hwu, "Programming Massively Parallel Processors", Sec. 5.3 (Figs. 5.13
 * and 5.15): each thread block reduces a section of the input in shared
 * memory, in place, one round per stride.
 *
 *   divergent  stride 1, 2, 4, ...: thread t adds partialSum[t + stride]
 *              when t is a multiple of 2 stride.  The active threads are
 *              spread over every warp, so every round diverges.
 *   compact    stride BS/2, BS/4, ...: thread t adds partialSum[t + stride]
 *              when t < stride.  The active threads are packed into the
 *              first warps; only the last five rounds diverge.
 *
 * Knobs (-D NAME=value; the defaults are the book's improved kernel):
 *
 *   SCHEME  divergent or compact                              default compact
 *   BS      threads per block, a power of 2                   default 512
 *   EPT     elements each thread adds from global memory before the tree,
 *           BS apart so that every load is coalesced: a block reduces a
 *           section of BS * EPT elements.                      default 1
 *
 * reduce writes one partial sum per block.  So that every configuration
 * produces the same, checkable output whatever its section size, a second
 * launch, reduce_segments, adds the partial sums of each segment of SEG
 * elements (SEG a multiple of every section size), one thread per segment,
 * in order.
 *
 * reduce_naive is the reference: one thread per segment adds its SEG elements
 * in order with compensated (Kahan) summation, so that its result is the
 * segment's sum to within a couple of roundings, whatever SEG. */

#define divergent 1
#define compact 2

#ifndef SCHEME
#define SCHEME compact
#endif
#ifndef BS
#define BS 512
#endif
#ifndef EPT
#define EPT 1
#endif

#if SCHEME != divergent && SCHEME != compact
#error "SCHEME must be divergent or compact"
#endif
#if BS < 1 || (BS & (BS - 1)) != 0
#error "BS must be a power of 2"
#endif
#if EPT < 1
#error "EPT must be positive"
#endif

extern "C" __global__ void reduce(const float *X, float *partial)
{
	__shared__ float partialSum[BS];
	const unsigned int t = threadIdx.x;
	const float *x = X + (size_t)blockIdx.x * BS * EPT + t;

	float s = 0.0f;
#pragma unroll
	for (int k = 0; k < EPT; k++)
		s += x[k * BS];
	partialSum[t] = s;

	/* the book's loops, as written: bounds from blockDim.x */
#if SCHEME == divergent
	for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
		__syncthreads();
		if (t % (2 * stride) == 0)
			partialSum[t] += partialSum[t + stride];
	}
#else
	for (unsigned int stride = blockDim.x / 2; stride >= 1; stride = stride >> 1) {
		__syncthreads();
		if (t < stride)
			partialSum[t] += partialSum[t + stride];
	}
#endif
	/* thread 0 made the last addition itself */
	if (t == 0)
		partial[blockIdx.x] = partialSum[0];
}

extern "C" __global__ void reduce_segments(const float *partial, float *seg, int per_seg, int nseg)
{
	const int s = blockIdx.x * blockDim.x + threadIdx.x;
	if (s >= nseg)
		return;
	const float *p = partial + (size_t)s * per_seg;
	float sum = 0.0f;
	for (int k = 0; k < per_seg; k++)
		sum += p[k];
	seg[s] = sum;
}

extern "C" __global__ void reduce_naive(const float *X, float *seg, int seglen, int nseg)
{
	const int s = blockIdx.x * blockDim.x + threadIdx.x;
	if (s >= nseg)
		return;
	const float *x = X + (size_t)s * seglen;
	float sum = 0.0f, c = 0.0f;
	for (int k = 0; k < seglen; k++) {
		const float v = x[k] - c;
		const float u = sum + v;
		c = (u - sum) - v;
		sum = u;
	}
	seg[s] = sum;
}
