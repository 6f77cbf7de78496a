/* deposit.cu: cloud-in-cell charge deposition of particles sorted by
 * S x S tile onto a periodic G x G grid, by float atomics straight to
 * global memory or into a block's shared copy of its tile first; PPT
 * particles a thread, positions read from two float arrays or one float2
 * array (held-out space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef PPT
#define PPT 4
#endif
#ifndef PRIV
#define PRIV 1
#endif
#ifndef POS
#define POS 1
#endif
#ifndef S
#define S 32			/* the sort tile's side, in cells */
#endif

#define CHUNK (TPB * PPT)	/* particles a block */
#define TW (S + 1)		/* a shared tile's side: the tile and the next row and column */

/* A particle at (px, py) in cell (ix, iy), at (fx, fy) within it, gives
 * q (1 - fx)(1 - fy), q fx (1 - fy), q (1 - fx) fy and q fx fy to the
 * nodes (ix, iy), (ix + 1, iy), (ix, iy + 1) and (ix + 1, iy + 1).  The
 * weights are products only, as in the reference, so that no contraction
 * into a multiply-add makes them differ from its. */
struct cic {
	int ix, iy;
	float w00, w10, w01, w11;
};

static __device__ __forceinline__ struct cic weigh(float px, float py, float q)
{
	struct cic c;
	c.ix = (int)px;
	c.iy = (int)py;
	float fx = px - (float)c.ix, fy = py - (float)c.iy;
	float gx = 1.0f - fx, gy = 1.0f - fy;
	c.w00 = q * gx * gy;
	c.w10 = q * fx * gy;
	c.w01 = q * gx * fy;
	c.w11 = q * fx * fy;
	return c;
}

/* Block b deposits particles b * CHUNK ... b * CHUNK + CHUNK - 1; thread t
 * takes those t, t + TPB, ... of them, so that each of a warp's loads
 * reads adjacent particles.  All PPT positions are loaded before the
 * first atomic. */
extern "C" __global__ void deposit(const float *__restrict__ xs, const float *__restrict__ ys,
				   const float2 *__restrict__ xy, float *__restrict__ rho, float q,
				   int g, int per_tile)
{
	size_t p0 = (size_t)blockIdx.x * CHUNK + threadIdx.x;
	float px[PPT], py[PPT];
#pragma unroll
	for (int j = 0; j < PPT; j++) {
#if POS
		float2 v = xy[p0 + j * TPB];
		px[j] = v.x;
		py[j] = v.y;
#else
		px[j] = xs[p0 + j * TPB];
		py[j] = ys[p0 + j * TPB];
#endif
	}
#if PRIV
	/* The particles are sorted by tile, per_tile of them a tile, and a
	 * block's chunk lies in one tile, whose nodes and the next column's
	 * and row's are all it touches: summed here, they reach global
	 * memory in one atomic a node that was touched, instead of four a
	 * particle. */
	__shared__ float tile[TW * TW];
	int t = (int)((size_t)blockIdx.x * CHUNK / per_tile), tx = g / S;
	int ox = t % tx * S, oy = t / tx * S;
	for (int e = threadIdx.x; e < TW * TW; e += TPB)
		tile[e] = 0.0f;
	__syncthreads();
#pragma unroll
	for (int j = 0; j < PPT; j++) {
		struct cic c = weigh(px[j], py[j], q);
		float *n = &tile[(c.iy - oy) * TW + c.ix - ox];
		atomicAdd(n, c.w00);
		atomicAdd(n + 1, c.w10);
		atomicAdd(n + TW, c.w01);
		atomicAdd(n + TW + 1, c.w11);
	}
	__syncthreads();
	for (int e = threadIdx.x; e < TW * TW; e += TPB) {
		float v = tile[e];
		if (v != 0.0f) {
			int gx = ox + e % TW, gy = oy + e / TW;
			gx -= gx >= g ? g : 0;	/* the last column and row wrap */
			gy -= gy >= g ? g : 0;
			atomicAdd(&rho[(size_t)gy * g + gx], v);
		}
	}
#else
#pragma unroll
	for (int j = 0; j < PPT; j++) {
		struct cic c = weigh(px[j], py[j], q);
		int jx = c.ix + 1 == g ? 0 : c.ix + 1;
		int jy = c.iy + 1 == g ? 0 : c.iy + 1;
		atomicAdd(&rho[(size_t)c.iy * g + c.ix], c.w00);
		atomicAdd(&rho[(size_t)c.iy * g + jx], c.w10);
		atomicAdd(&rho[(size_t)jy * g + c.ix], c.w01);
		atomicAdd(&rho[(size_t)jy * g + jx], c.w11);
	}
#endif
}

/* One thread a particle, read from the two arrays, four global atomics. */
extern "C" __global__ void deposit_naive(const float *xs, const float *ys, float *rho, float q,
					 int g, int n)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= n)
		return;
	int ix = (int)floorf(xs[p]), iy = (int)floorf(ys[p]);
	float fx = xs[p] - (float)ix, fy = ys[p] - (float)iy;
	int jx = (ix + 1) % g, jy = (iy + 1) % g;
	atomicAdd(&rho[iy * g + ix], q * (1.0f - fx) * (1.0f - fy));
	atomicAdd(&rho[iy * g + jx], q * fx * (1.0f - fy));
	atomicAdd(&rho[jy * g + ix], q * (1.0f - fx) * fy);
	atomicAdd(&rho[jy * g + jx], q * fx * fy);
}
