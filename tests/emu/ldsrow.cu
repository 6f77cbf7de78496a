/* ldsrow.cu — each thread reads rows of four floats from a shared tile,
 * one scalar load a float (steps rows, 8 floats apart).  bcast: a warp's
 * lanes all read its warp's row (a broadcast); rows: lane l reads row l
 * (a warp's 512 consecutive bytes).  shift moves every row by that many
 * floats: 1 leaves no row 16-byte aligned.  The tile's index is a run-time
 * value, so the PTX keeps four ld.shared.f32 from one base register and
 * so does ptxas.  rows128: the rows of `rows`, each at a multiple of 16
 * bytes that ptxas can see (it places the tile) but NVVM cannot (the
 * tile's PTX alignment is 4): four ld.shared.f32 in the PTX, one LDS.128 in
 * the machine code. */
extern "C" __global__ void ldsrow(float *out, int steps, int shift, int bcast)
{
	__shared__ float s[2048];
	for (int i = threadIdx.x; i < 2048; i += blockDim.x)
		s[i] = (float)i;
	__syncthreads();
	unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	int row = bcast ? (int)warp * 4 : (int)lane * 4;
	float a = 0;
#pragma unroll 1
	for (int k = 0; k < steps; k++) {
		const float *r = s + ((row + shift + 8 * k) & 1023);
		a += r[0] + r[1] + r[2] + r[3];
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}

extern "C" __global__ void rows128(float *out, int steps)
{
	__shared__ float s[2048];
	for (int i = threadIdx.x; i < 2048; i += blockDim.x)
		s[i] = (float)i;
	__syncthreads();
	float a = 0;
#pragma unroll 1
	for (int k = 0; k < steps; k++) {
		const float *r = s + 4 * ((threadIdx.x + 8 * k) & 255);
		a += r[0] + r[1] + r[2] + r[3];
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
