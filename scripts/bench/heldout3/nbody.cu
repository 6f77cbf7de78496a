/* nbody.cu: one softened all-pairs gravity step, each thread summing the pull
 * of every body on BPT bodies (held-out space). */
#ifndef TPB
#define TPB 256
#endif
#ifndef BPT
#define BPT 1
#endif
#ifndef MEM
#define MEM 2
#endif
#ifndef UNROLL
#define UNROLL 4
#endif

/* The unroll factor goes through _Pragma after expansion: a define inside
 * `#pragma unroll` is not expanded by every compiler. */
#define NB_STR(x) #x
#define NB_PRAGMA(x) _Pragma(NB_STR(x))
#define NB_UNROLL(n) NB_PRAGMA(unroll n)

#if MEM == 1
#define NB_LOAD(p) __ldg(p)
#else
#define NB_LOAD(p) (*(p))
#endif

/* Adds body o's pull on body me to a; o == me adds nothing (dx = 0). */
static __device__ __forceinline__ void pull(float4 me, float4 o, float eps2, float3 *a)
{
	float dx = o.x - me.x;
	float dy = o.y - me.y;
	float dz = o.z - me.z;
	float r2 = dx * dx + dy * dy + dz * dz + eps2;
	float inv = rsqrtf(r2);
	float s = o.w * inv * inv * inv;
	a->x += dx * s;
	a->y += dy * s;
	a->z += dz * s;
}

/* Thread t of block b owns bodies b * TPB * BPT + t + k * TPB (k < BPT), so
 * each of its loads and stores is coalesced across the block. */
extern "C" __global__ void nbody(const float4 *pos, float4 *acc, int n, float eps2, float g)
{
	int i0 = blockIdx.x * (TPB * BPT) + threadIdx.x;
	float4 me[BPT];
	float3 a[BPT];
#pragma unroll
	for (int k = 0; k < BPT; k++) {
		me[k] = pos[i0 + k * TPB];
		a[k] = make_float3(0.0f, 0.0f, 0.0f);
	}
#if MEM == 2
	__shared__ float4 tile[TPB];
	for (int j0 = 0; j0 < n; j0 += TPB) {
		tile[threadIdx.x] = pos[j0 + threadIdx.x];
		__syncthreads();
		NB_UNROLL(UNROLL)
		for (int j = 0; j < TPB; j++) {
			float4 o = tile[j];
#pragma unroll
			for (int k = 0; k < BPT; k++)
				pull(me[k], o, eps2, &a[k]);
		}
		__syncthreads();
	}
#else
	NB_UNROLL(UNROLL)
	for (int j = 0; j < n; j++) {
		float4 o = NB_LOAD(pos + j);
#pragma unroll
		for (int k = 0; k < BPT; k++)
			pull(me[k], o, eps2, &a[k]);
	}
#endif
#pragma unroll
	for (int k = 0; k < BPT; k++)
		acc[i0 + k * TPB] = make_float4(a[k].x * g, a[k].y * g, a[k].z * g, 0.0f);
}

extern "C" __global__ void nbody_naive(const float *pos, float *acc, int n, float eps2, float g)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float ax = 0.0f, ay = 0.0f, az = 0.0f;
	for (int j = 0; j < n; j++) {
		float dx = pos[4 * j] - pos[4 * i];
		float dy = pos[4 * j + 1] - pos[4 * i + 1];
		float dz = pos[4 * j + 2] - pos[4 * i + 2];
		float r2 = dx * dx + dy * dy + dz * dz + eps2;
		float s = pos[4 * j + 3] / (r2 * sqrtf(r2));
		ax += dx * s;
		ay += dy * s;
		az += dz * s;
	}
	acc[4 * i] = ax * g;
	acc[4 * i + 1] = ay * g;
	acc[4 * i + 2] = az * g;
	acc[4 * i + 3] = 0.0f;
}
