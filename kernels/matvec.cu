/* matvec.cu — dense matrix-vector product y = A x, after the case study of Yang
 * and Zhou, "Code Optimizations for High Performance GPU Computing": one
 * thread per row, the matrix read through shared memory so that global loads
 * are coalesced, and different thread blocks starting at different columns so
 * that they do not all queue on the same memory partition ("partition
 * camping") when the row length is a multiple of the partition interleave.
 *
 * A is M x N, row-major; x has N elements, y has M.
 *
 * Knobs (-D NAME=value; the defaults are the slides' optimized kernel):
 *
 *   BS   threads per block = rows per block.                      default 32
 *   TW   columns per tile.  The block walks its rows' columns TW at a time:
 *        it copies the BS x TW tile of A into shared memory, each warp
 *        reading runs of TW consecutive floats, then each thread adds its
 *        row of the tile.  Must divide N.                         default 16
 *   SX   1: the tile's TW elements of x are staged in shared memory beside
 *        it; 0: every thread reads them from global memory (the same
 *        address across a warp).                                  default 1
 *   PC   1: block b starts at tile b (mod N / TW) and wraps around, as the
 *        slides' start = blockIdx.x * 16; 0: every block starts at column
 *        0.                                                       default 1
 *
 * Launch: block BS, grid M / BS.
 *
 * matvec_naive is the reference: one thread per row, the row read straight
 * from global memory in column order, guarded against the end.  PC changes
 * the order in which a row's products are added, so the outputs differ from
 * the reference's by rounding; see matvec.space for the tolerance. */

#ifndef BS
#define BS 32
#endif
#ifndef TW
#define TW 16
#endif
#ifndef SX
#define SX 1
#endif
#ifndef PC
#define PC 1
#endif

#if BS < 1 || TW < 1
#error "BS and TW must be positive"
#endif
#if (SX != 0 && SX != 1) || (PC != 0 && PC != 1)
#error "SX and PC must be 0 or 1"
#endif

extern "C" __global__ void matvec(const float *A, const float *x, float *y, int N)
{
	/* one float of padding per row: thread t reads row t, so that the
	 * threads of a warp read different banks */
	__shared__ float tile[BS][TW + 1];
#if SX
	__shared__ float xs[TW];
#endif
	const int t = threadIdx.x;
	const int row0 = blockIdx.x * BS;
	const float *a = A + (size_t)row0 * N;
	const int ntiles = N / TW;
#if PC
	const int first = blockIdx.x % ntiles;
#else
	const int first = 0;
#endif

	float sum = 0.0f;
	for (int k = 0; k < ntiles; k++) {
		int kt = first + k;
		if (kt >= ntiles)
			kt -= ntiles;
		const int col0 = kt * TW;
		/* element e of the tile is row e / TW, column e % TW */
#pragma unroll 4
		for (int e = t; e < BS * TW; e += BS)
			tile[e / TW][e % TW] = a[(size_t)(e / TW) * N + col0 + e % TW];
#if SX
		for (int c = t; c < TW; c += BS)
			xs[c] = x[col0 + c];
#endif
		__syncthreads();
#pragma unroll
		for (int c = 0; c < TW; c++) {
#if SX
			sum += tile[t][c] * xs[c];
#else
			sum += tile[t][c] * x[col0 + c];
#endif
		}
		__syncthreads();
	}
	y[row0 + t] = sum;
}

extern "C" __global__ void matvec_naive(const float *A, const float *x, float *y, int M, int N)
{
	const int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= M)
		return;
	const float *a = A + (size_t)r * N;
	float sum = 0.0f;
	for (int c = 0; c < N; c++)
		sum += a[c] * x[c];
	y[r] = sum;
}
