/* hottable.cu — each thread streams its own words (a warp's load: 4 new
 * sectors) and at every step gathers a word of a 2 KiB table (a warp's
 * load: about 25 of the table's 64 sectors), as a lookup-table kernel
 * does: the table's sectors come back every few steps, between them the
 * warp brings in only its few streamed sectors. */
extern "C" __global__ void hot(const unsigned *tab, const unsigned *rec, unsigned *out, int steps)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x, x = t * 2654435761u, a = 0;
	for (int s = 0; s < steps; s++) {
		a += rec[(size_t)s * gridDim.x * blockDim.x + t];
		x = x * 1103515245u + 12345u + a;
		a ^= tab[(x >> 8) & 511];
	}
	out[t] = a;
}
