/* median.cu: a 3x3 median filter over an 8-bit image with replicated
 * edges, by a min/max network over sorted columns (held-out space). */
#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif
#ifndef PX
#define PX 4
#endif
#ifndef SMEM
#define SMEM 1
#endif
#define TW (BX * PX + 2)
#define TH (BY + 2)

/* Sorts a <= b <= c with three compare-exchanges. */
static __device__ __forceinline__ void sort3(int *a, int *b, int *c)
{
	int t;
	t = min(*a, *b); *b = max(*a, *b); *a = t;
	t = min(*b, *c); *c = max(*b, *c); *b = t;
	t = min(*a, *b); *b = max(*a, *b); *a = t;
}

static __device__ __forceinline__ int med3(int a, int b, int c)
{
	return max(min(a, b), min(max(a, b), c));
}

extern "C" __global__ void median(const unsigned char *img, unsigned char *out, int w, int h)
{
	int x0 = (blockIdx.x * BX + threadIdx.x) * PX;
	int y = blockIdx.y * BY + threadIdx.y;
	/* lo, mi and hi of the thread's PX + 2 columns, x0 - 1 to x0 + PX. */
	int lo[PX + 2], mi[PX + 2], hi[PX + 2];
#if SMEM
	__shared__ unsigned char tile[TH][TW];
	int bx0 = blockIdx.x * BX * PX - 1, by0 = blockIdx.y * BY - 1;
	for (int i = threadIdx.y * BX + threadIdx.x; i < TW * TH; i += BX * BY) {
		int r = i / TW, c = i % TW;
		int gx = min(max(bx0 + c, 0), w - 1), gy = min(max(by0 + r, 0), h - 1);
		tile[r][c] = img[(size_t)gy * w + gx];
	}
	__syncthreads();
	int tx = threadIdx.x * PX, ty = threadIdx.y;
#pragma unroll
	for (int j = 0; j < PX + 2; j++) {
		lo[j] = tile[ty][tx + j];
		mi[j] = tile[ty + 1][tx + j];
		hi[j] = tile[ty + 2][tx + j];
		sort3(&lo[j], &mi[j], &hi[j]);
	}
#else
	const unsigned char *up = img + (size_t)max(y - 1, 0) * w;
	const unsigned char *row = img + (size_t)y * w;
	const unsigned char *dn = img + (size_t)min(y + 1, h - 1) * w;
#pragma unroll
	for (int j = 0; j < PX + 2; j++) {
		int gx = min(max(x0 - 1 + j, 0), w - 1);
		lo[j] = up[gx];
		mi[j] = row[gx];
		hi[j] = dn[gx];
		sort3(&lo[j], &mi[j], &hi[j]);
	}
#endif
	unsigned m[PX];
#pragma unroll
	for (int p = 0; p < PX; p++) {
		int a = max(max(lo[p], lo[p + 1]), lo[p + 2]);
		int b = med3(mi[p], mi[p + 1], mi[p + 2]);
		int c = min(min(hi[p], hi[p + 1]), hi[p + 2]);
		m[p] = (unsigned)med3(a, b, c);
	}
	unsigned char *o = out + (size_t)y * w + x0;
#if PX == 1
	*o = (unsigned char)m[0];
#elif PX == 2
	*(unsigned short *)o = (unsigned short)(m[0] | m[1] << 8);
#elif PX == 4
	*(unsigned *)o = m[0] | m[1] << 8 | m[2] << 16 | m[3] << 24;
#else
	*(uint2 *)o = make_uint2(m[0] | m[1] << 8 | m[2] << 16 | m[3] << 24,
				 m[4] | m[5] << 8 | m[6] << 16 | m[7] << 24);
#endif
}

extern "C" __global__ void median_naive(const unsigned char *img, unsigned char *out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	int v[9], n = 0;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			int sx = min(max(x + dx, 0), w - 1), sy = min(max(y + dy, 0), h - 1);
			v[n++] = img[(size_t)sy * w + sx];
		}
	/* A full bubble sort, every pass to the end: the same steps for any data. */
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8 - i; j++) {
			int a = min(v[j], v[j + 1]), b = max(v[j], v[j + 1]);
			v[j] = a;
			v[j + 1] = b;
		}
	out[(size_t)y * w + x] = (unsigned char)v[4];
}
