/* records.cu — threads that each walk R records of their own (64 bytes, 16
 * words; record r of a thread R * blockDim.x ... apart as in a block's
 * tile), for the reuse term (model/reuse.c): `chained` reads a word of
 * every record a step, the next step after this one's words are used, so
 * a sector's eight words are eight steps apart; `burst` reads each
 * record's 16 words at once. */
extern "C" __global__ void chained(const unsigned *rec, unsigned *out, int R)
{
	size_t base = (size_t)blockIdx.x * blockDim.x * R + threadIdx.x;
	unsigned h[8] = { 0 };
#pragma unroll 1
	for (int w = 0; w < 16; w++) {
#pragma unroll
		for (int r = 0; r < 8; r++)
			if (r < R)
				h[r] = h[r] * 0x9e3779b1u + rec[(base + (size_t)r * blockDim.x) * 16 + w];
	}
	unsigned x = 0;
	for (int r = 0; r < 8; r++)
		x ^= h[r];
	out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

extern "C" __global__ void burst(const unsigned *rec, unsigned *out, int R)
{
	size_t base = (size_t)blockIdx.x * blockDim.x * R + threadIdx.x;
	unsigned x = 0;
#pragma unroll
	for (int r = 0; r < 8; r++)
		if (r < R) {
			const uint4 *p = (const uint4 *)(rec + (base + (size_t)r * blockDim.x) * 16);
			uint4 a = p[0], b = p[1], c = p[2], d = p[3];
			x ^= a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w + c.x + c.y + c.z + c.w + d.x + d.y +
			     d.z + d.w;
		}
	out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
