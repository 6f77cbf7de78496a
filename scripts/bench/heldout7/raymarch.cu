/* raymarch.cu: front-to-back emission-absorption ray marching through an
 * N^3 float volume, trilinear samples, one ray a pixel of an IMG x IMG
 * image, each ray ending where it leaves the volume, after MAXSTEPS
 * steps or once it is nearly opaque; BX x BY thread tiles, RPT rays a
 * thread marched side by side, samples through __ldg or plain loads
 * (held-out space). */
#ifndef BX
#define BX 16
#endif
#ifndef BY
#define BY 8
#endif
#ifndef RPT
#define RPT 1
#endif
#ifndef LDG
#define LDG 1
#endif

/* The camera, fixed by the problem: the eye sits off a corner of the unit
 * cube, the centre ray along (CX, CY, 1), FOV the tangent of half the
 * field of view, so that the image holds rays that miss the cube, graze
 * an edge or cross its full depth. */
#define EX 1.6f
#define EY 1.3f
#define EZ -1.2f
#define CX -0.647f
#define CY -0.47f
#define FOV 0.45f
#define OPAQUE 0.95f		/* a ray this opaque stops */

/* Every float operation below is a _rn intrinsic: none can be fused or
 * reordered, so the tuned kernel and the reference, which spell out the
 * same operations in the same order, agree bit for bit, and a ray stops
 * at the same step in both. */
#if LDG
#define VOLPTR const float *__restrict__
#define OUTPTR float *__restrict__
#define LD(i) __ldg(vol + (i))
#else
/* Plain pointers that may alias: the compiler cannot prove the volume
 * read-only, so its loads are ordinary cached global loads. */
#define VOLPTR const float *
#define OUTPTR float *
#define LD(i) vol[i]
#endif

static __device__ __forceinline__ float lerp(float a, float b, float f)
{
	return __fmaf_rn(f, __fsub_rn(b, a), a);
}

/* The trilinear sample at p (unit-cube coordinates), voxel centres at
 * multiples of 1 / (n - 1). */
static __device__ __forceinline__ float sample(VOLPTR vol, int n, float sc, float px, float py,
					       float pz)
{
	float gx = fminf(fmaxf(__fmul_rn(px, sc), 0.0f), sc);
	float gy = fminf(fmaxf(__fmul_rn(py, sc), 0.0f), sc);
	float gz = fminf(fmaxf(__fmul_rn(pz, sc), 0.0f), sc);
	int ix = min((int)gx, n - 2), iy = min((int)gy, n - 2), iz = min((int)gz, n - 2);
	float fx = __fsub_rn(gx, (float)ix);
	float fy = __fsub_rn(gy, (float)iy);
	float fz = __fsub_rn(gz, (float)iz);
	int i = (iz * n + iy) * n + ix, nn = n * n;
	float a0 = lerp(LD(i), LD(i + 1), fx);
	float a1 = lerp(LD(i + n), LD(i + n + 1), fx);
	float a2 = lerp(LD(i + nn), LD(i + nn + 1), fx);
	float a3 = lerp(LD(i + nn + n), LD(i + nn + n + 1), fx);
	return lerp(lerp(a0, a1, fy), lerp(a2, a3, fy), fz);
}

/* Ray of pixel (x, y): its unit direction and the stretch [t0, t1] of it
 * inside the cube; a ray that misses gets t1 < t0, so it takes no step. */
static __device__ __forceinline__ void setup(int x, int y, float inv2w, float *dx, float *dy,
					     float *dz, float *t0, float *t1)
{
	float u = __fmul_rn(__fsub_rn(__fmul_rn(__fadd_rn((float)x, 0.5f), inv2w), 1.0f), FOV);
	float v = __fmul_rn(__fsub_rn(__fmul_rn(__fadd_rn((float)y, 0.5f), inv2w), 1.0f), FOV);
	float ux = __fadd_rn(u, CX), uy = __fadd_rn(v, CY);
	float len = __fsqrt_rn(__fadd_rn(__fadd_rn(__fmul_rn(ux, ux), __fmul_rn(uy, uy)), 1.0f));
	float il = __fdiv_rn(1.0f, len);
	*dx = __fmul_rn(ux, il);
	*dy = __fmul_rn(uy, il);
	*dz = il;
	float ia = __fdiv_rn(1.0f, *dx), ib = __fdiv_rn(1.0f, *dy), ic = __fdiv_rn(1.0f, *dz);
	float ax = __fmul_rn(__fsub_rn(0.0f, EX), ia), bx = __fmul_rn(__fsub_rn(1.0f, EX), ia);
	float ay = __fmul_rn(__fsub_rn(0.0f, EY), ib), by = __fmul_rn(__fsub_rn(1.0f, EY), ib);
	float az = __fmul_rn(__fsub_rn(0.0f, EZ), ic), bz = __fmul_rn(__fsub_rn(1.0f, EZ), ic);
	float tn = fmaxf(fmaxf(fminf(ax, bx), fminf(ay, by)), fmaxf(fminf(az, bz), 0.0f));
	float tf = fminf(fminf(fmaxf(ax, bx), fmaxf(ay, by)), fmaxf(az, bz));
	*t0 = tn;
	*t1 = tn < tf ? tf : -1.0f;
}

/* Thread (tx, ty) of block (bx, by) marches the rays of pixels (bx * BX +
 * tx, by * BY * RPT + ty + r * BY), r < RPT: a block covers BX x (BY *
 * RPT) pixels.  Its rays take step k together, each while it is live,
 * until none is, so their loads overlap; a ray that stops early idles
 * until its thread's last one does. */
extern "C" __global__ void raymarch(VOLPTR vol, OUTPTR color, OUTPTR opacity, int n, int img,
				    int maxsteps, float dt, float kap)
{
	int x = blockIdx.x * BX + threadIdx.x;
	int y0 = blockIdx.y * (BY * RPT) + threadIdx.y;
	float sc = (float)(n - 1), inv2w = __fdiv_rn(2.0f, (float)img);
	float dx[RPT], dy[RPT], dz[RPT], t0[RPT], t1[RPT], col[RPT], acc[RPT];
	bool live[RPT];

#pragma unroll
	for (int r = 0; r < RPT; r++) {
		setup(x, y0 + r * BY, inv2w, &dx[r], &dy[r], &dz[r], &t0[r], &t1[r]);
		col[r] = 0.0f;
		acc[r] = 0.0f;
		live[r] = true;
	}
	for (int k = 0; k < maxsteps; k++) {
		bool any = false;
#pragma unroll
		for (int r = 0; r < RPT; r++) {
			if (live[r]) {
				float t = __fmaf_rn((float)k, dt, t0[r]);
				if (t > t1[r]) {
					live[r] = false;
				} else {
					float s = sample(vol, n, sc, __fmaf_rn(t, dx[r], EX),
							 __fmaf_rn(t, dy[r], EY),
							 __fmaf_rn(t, dz[r], EZ));
					float w = __fmul_rn(__fsub_rn(1.0f, acc[r]), __fmul_rn(s, kap));
					col[r] = __fmaf_rn(w, s, col[r]);
					acc[r] = __fadd_rn(acc[r], w);
					live[r] = acc[r] < OPAQUE;
				}
			}
			any |= live[r];
		}
		if (!any)
			break;
	}
#pragma unroll
	for (int r = 0; r < RPT; r++) {
		size_t p = (size_t)(y0 + r * BY) * img + x;
		color[p] = col[r];
		opacity[p] = acc[r];
	}
}

/* One ray a thread, one step after another, the same operations written
 * out in place. */
extern "C" __global__ void raymarch_naive(const float *vol, float *color, float *opacity, int n,
					  int img, int maxsteps, float dt, float kap)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= img || y >= img)
		return;
	float two_w = __fdiv_rn(2.0f, (float)img), sc = (float)(n - 1);
	float u = __fmul_rn(__fsub_rn(__fmul_rn(__fadd_rn((float)x, 0.5f), two_w), 1.0f), FOV);
	float v = __fmul_rn(__fsub_rn(__fmul_rn(__fadd_rn((float)y, 0.5f), two_w), 1.0f), FOV);
	float ux = __fadd_rn(u, CX), uy = __fadd_rn(v, CY);
	float len = __fsqrt_rn(__fadd_rn(__fadd_rn(__fmul_rn(ux, ux), __fmul_rn(uy, uy)), 1.0f));
	float d[3] = {__fmul_rn(ux, __fdiv_rn(1.0f, len)), __fmul_rn(uy, __fdiv_rn(1.0f, len)),
		      __fdiv_rn(1.0f, len)};
	float e[3] = {EX, EY, EZ};
	float tn = 0.0f, tf = 1e30f;
	for (int a = 0; a < 3; a++) {
		float ta = __fmul_rn(__fsub_rn(0.0f, e[a]), __fdiv_rn(1.0f, d[a]));
		float tb = __fmul_rn(__fsub_rn(1.0f, e[a]), __fdiv_rn(1.0f, d[a]));
		tn = fmaxf(tn, fminf(ta, tb));
		tf = fminf(tf, fmaxf(ta, tb));
	}
	float col = 0.0f, acc = 0.0f;
	if (tn < tf) {
		for (int k = 0; k < maxsteps; k++) {
			float t = __fmaf_rn((float)k, dt, tn);
			if (t > tf)
				break;
			float g[3], f[3];
			int c[3];
			for (int a = 0; a < 3; a++) {
				g[a] = fminf(fmaxf(__fmul_rn(__fmaf_rn(t, d[a], e[a]), sc), 0.0f), sc);
				c[a] = min((int)g[a], n - 2);
				f[a] = __fsub_rn(g[a], (float)c[a]);
			}
			float s[2][2][2];
			for (int zz = 0; zz < 2; zz++)
				for (int yy = 0; yy < 2; yy++)
					for (int xx = 0; xx < 2; xx++)
						s[zz][yy][xx] = vol[((c[2] + zz) * n + c[1] + yy) * n +
								    c[0] + xx];
			float q[2][2];
			for (int zz = 0; zz < 2; zz++)
				for (int yy = 0; yy < 2; yy++)
					q[zz][yy] = __fmaf_rn(
						f[0], __fsub_rn(s[zz][yy][1], s[zz][yy][0]),
						s[zz][yy][0]);
			float h0 = __fmaf_rn(f[1], __fsub_rn(q[0][1], q[0][0]), q[0][0]);
			float h1 = __fmaf_rn(f[1], __fsub_rn(q[1][1], q[1][0]), q[1][0]);
			float smp = __fmaf_rn(f[2], __fsub_rn(h1, h0), h0);
			float w = __fmul_rn(__fsub_rn(1.0f, acc), __fmul_rn(smp, kap));
			col = __fmaf_rn(w, smp, col);
			acc = __fadd_rn(acc, w);
			if (!(acc < OPAQUE))
				break;
		}
	}
	color[y * img + x] = col;
	opacity[y * img + x] = acc;
}
