/* partial.cu — each thread stores one float, lanes `stride` floats apart,
 * so each lane's sector is written in part: four sectors a 128-byte line at
 * stride 8, two at 16, one at 32 (the probe's partial-sector weights,
 * model/probe.c). */
extern "C" __global__ void spread(float *out, int stride)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	out[(size_t)t * stride] = (float)t;
}
