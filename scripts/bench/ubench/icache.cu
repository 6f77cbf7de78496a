// Instruction-fetch microbenchmark: how fast warps issue a loop whose body is
// S bytes of straight-line SASS, as S grows past the instruction caches, with
// 1..32 blocks per SM and 1..16 warps per scheduler, warps in lockstep or
// spread over the body (blocks or single warps started at different points of
// it, as blocks that begin at different times run in a real kernel).
//
// The body is independent FFMAs on 8 registers (16 bytes of SASS each): one
// warp alone can issue one a clock, so any rate above 1 cycle per warp
// instruction and scheduler is the front end's.  Each warp stamps clock64()
// at the start of every pass (each SM's clock is its own); the rate is taken
// per SM over the window in which every warp of that SM is inside the loop.
//
//   nvcc -O3 -arch=sm_90 -o icache icache.cu && ./icache
//   (the text size of each body: nvcc -cubin -arch=sm_90 icache.cu; readelf -SW)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

#define FMA(r) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(r) : "f"(b), "f"(c));
#define F8 FMA(x0) FMA(x1) FMA(x2) FMA(x3) FMA(x4) FMA(x5) FMA(x6) FMA(x7)
#define F64 F8 F8 F8 F8 F8 F8 F8 F8 // 1 KiB of SASS

// The same with a constant-memory operand, as loops over a table in
// __constant__ memory have (LDC.128 with a register index): the index walks
// the table (cmask 2047: 32 KiB) or stays within 256 bytes (cmask 15); with
// MUFU, also a sine per 8 FFMAs (a transcendental in the loop).
__constant__ float4 kc[2048];
#define FMAV(r, v) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(r) : "f"(v), "f"(c));
#define SINE(r) asm volatile("sin.approx.f32 %0, %0;" : "+f"(r));
#define C8                                                                                   \
	{                                                                                    \
		float4 v = kc[ci & cmask];                                                   \
		ci++;                                                                        \
		FMAV(x0, v.x) FMAV(x1, v.y) FMAV(x2, v.z) FMAV(x3, v.w)                      \
		FMAV(x4, v.x) FMAV(x5, v.y) FMAV(x6, v.z) FMAV(x7, v.w)                      \
		if (CM == 2)                                                                 \
			SINE(x0)                                                             \
	}
#define C64 C8 C8 C8 C8 C8 C8 C8 C8

enum { MAXREC = 64 };

__device__ static unsigned smid(void)
{
	unsigned s;
	asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
	return s;
}

// mode 0: no delay (lockstep); 1: each block of an SM starts `unit` cycles
// after the previous one; 2: each warp of an SM `unit` after the previous.
// rec[warp][k]: clock at the start of pass k*rstride, the end last.
// CM 0: FFMAs only; 1: with constant operands; 2: and a sine; 3 + N: FFMAs,
// each 1 KiB followed by N KiB of FFMAs under a branch never taken (cold
// code inside the loop's span, as the slow paths of sinf or a division).
// KIB chunks of 64 FFMAs (1 KiB of SASS for CM 0, more with the loads and
// sines).
template <int KIB, int CM>
__global__ void __launch_bounds__(1024) body(int iters, int rstride, int mode, long long unit,
					     int cmask, unsigned *ticket, long long *rec, int *where,
					     float *out, float b, float c)
{
	__shared__ unsigned slot;
	unsigned sm = smid();
	if (threadIdx.x == 0)
		slot = atomicAdd(&ticket[sm], 1);
	__syncthreads();
	int wpb = blockDim.x / 32, w = threadIdx.x / 32, lane = threadIdx.x % 32;
	long long gw = (long long)blockIdx.x * wpb + w;
	long long *r = rec + gw * (MAXREC + 1);
	long long delay = mode == 1 ? slot * unit : mode == 2 ? (slot * wpb + w) * unit : 0;
	float x0 = threadIdx.x, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5,
	      x6 = x0 + 6, x7 = x0 + 7;
	long long t0 = clock64();
	while (clock64() - t0 < delay)
		;
	int k = 0;
	unsigned ci = 0;
#pragma unroll 1
	for (int it = 0; it < iters; it++) {
		if (it % rstride == 0) {
			long long t = clock64();
			if (lane == 0)
				r[k] = t;
			k++;
		}
#pragma unroll
		for (int j = 0; j < KIB; j++) {
			if (CM == 0) {
				F64
			} else if (CM >= 3) {
				F64
				if (cmask == 12345) {
#pragma unroll
					for (int q = 0; q < CM - 3; q++) {
						F64
					}
				}
			} else {
				C64
			}
		}
	}
	long long t = clock64();
	if (lane == 0) {
		r[MAXREC] = t;
		where[gw * 2] = sm;
		where[gw * 2 + 1] = k;
	}
	if (x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 == 12345.f)
		*out = x0;
}

typedef void (*kern_t)(int, int, int, long long, int, unsigned *, long long *, int *, float *,
		       float, float);
struct size_t_ { int kib; kern_t k; };
static const size_t_ sizes[] = {
	{1, body<1, 0>},     {2, body<2, 0>},	  {4, body<4, 0>},     {8, body<8, 0>},
	{12, body<12, 0>},   {16, body<16, 0>},	  {20, body<20, 0>},   {24, body<24, 0>},
	{28, body<28, 0>},   {32, body<32, 0>},	  {40, body<40, 0>},   {48, body<48, 0>},
	{64, body<64, 0>},   {96, body<96, 0>},	  {128, body<128, 0>}, {160, body<160, 0>},
	{192, body<192, 0>}, {256, body<256, 0>},
};
// chunk counts for the constant-operand bodies (their text sizes: see the output)
#define CSIZES(cm)                                                                           \
	{ {8, body<8, cm>},   {16, body<16, cm>}, {20, body<20, cm>}, {24, body<24, cm>},   \
	  {28, body<28, cm>}, {32, body<32, cm>}, {48, body<48, cm>}, {64, body<64, cm>},   \
	  {96, body<96, cm>} }
static const size_t_ csizes[2][9] = { CSIZES(1), CSIZES(2) };
// hot KiB x (1 + cold KiB per hot KiB): the span
static const size_t_ cold[] = {
	{16, body<16, 3>}, {16, body<16, 4>}, {16, body<16, 5>}, {16, body<16, 6>},
	{8, body<8, 10>},  {32, body<32, 3>}, {48, body<48, 3>}, {64, body<64, 3>},
};

struct shape { int bps, threads; };
static const shape shapes[] = {
	{1, 32}, {1, 128}, {4, 32}, {1, 512}, {4, 128}, {16, 32},
	{2, 512}, {8, 128}, {4, 512}, {16, 128}, {32, 64}, {2, 1024},
};

static int nsm;
static unsigned *d_ticket;
static long long *d_rec;
static int *d_where;
static float *d_out;

// Returns cycles per warp instruction per busy scheduler, the median over SMs
// holding the expected number of blocks; *ok = how many SMs did.
static double measure(const size_t_ &s, const shape &sh, int mode, int cmask, int *ok)
{
	int nins = s.kib * 64; // FFMAs per pass per warp
	int wsm = sh.bps * sh.threads / 32;
	int wsched = (wsm + 3) / 4;
	int sched = wsm < 4 ? wsm : 4;
	long long pass = (long long)nins * wsched; // cycles per pass at one per clock
	long long unit = mode == 1 ? pass / sh.bps : mode == 2 ? pass / wsm : 0;
	// enough passes that every warp runs 4 together after the last one started
	long long want = std::max(6LL * nins, 400000LL);
	int iters = (int)std::max(8LL, (want + nins - 1) / nins);
	int rstride = (iters + MAXREC - 1) / MAXREC;
	int grid = nsm * sh.bps;
	long long nw = (long long)grid * sh.threads / 32;
	CK(cudaMemset(d_ticket, 0, nsm * 4 * 2));
	s.k<<<grid, sh.threads>>>(iters, rstride, mode, unit, cmask, d_ticket, d_rec, d_where, d_out,
				  1.0f, 0.5f);
	CK(cudaGetLastError());
	CK(cudaDeviceSynchronize());
	std::vector<long long> rec(nw * (MAXREC + 1));
	std::vector<int> where(nw * 2);
	std::vector<unsigned> ticket(nsm * 2);
	CK(cudaMemcpy(rec.data(), d_rec, rec.size() * 8, cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(where.data(), d_where, where.size() * 4, cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(ticket.data(), d_ticket, nsm * 4, cudaMemcpyDeviceToHost));
	std::vector<std::vector<long long>> bysm(nsm);
	for (long long w = 0; w < nw; w++)
		bysm[where[w * 2]].push_back(w);
	std::vector<double> rates;
	*ok = 0;
	for (int m = 0; m < nsm; m++) {
		if ((int)ticket[m] != sh.bps)
			continue;
		long long ta = 0, tb = -1;
		for (long long w : bysm[m]) {
			const long long *r = &rec[w * (MAXREC + 1)];
			ta = std::max(ta, r[0]);
			tb = tb < 0 ? r[MAXREC] : std::min(tb, r[MAXREC]);
		}
		if (tb <= ta)
			continue;
		// instructions each warp issued inside [ta, tb], by linear interpolation
		// between its stamps
		double ins = 0;
		for (long long w : bysm[m]) {
			const long long *r = &rec[w * (MAXREC + 1)];
			int k = where[w * 2 + 1];
			std::vector<std::pair<long long, double>> pts;
			for (int i = 0; i < k; i++)
				pts.push_back({r[i], (double)i * rstride * nins});
			pts.push_back({r[MAXREC], (double)iters * nins});
			auto at = [&](long long t) {
				for (size_t i = 1; i < pts.size(); i++)
					if (t <= pts[i].first) {
						double f = (double)(t - pts[i - 1].first) /
							   (double)std::max(1LL, pts[i].first - pts[i - 1].first);
						return pts[i - 1].second + f * (pts[i].second - pts[i - 1].second);
					}
				return pts.back().second;
			};
			ins += at(tb) - at(ta);
		}
		rates.push_back((double)(tb - ta) * sched / ins);
		++*ok;
	}
	if (rates.empty())
		return -1;
	std::sort(rates.begin(), rates.end());
	return rates[rates.size() / 2];
}

static void row(const size_t_ *sz, int nsz, const shape &sh, int mode, int cmask)
{
	static const char *mname[] = {"lockstep", "blocks spread", "warps spread"};
	int wsm = sh.bps * sh.threads / 32, ok, minok = nsm;
	printf("%2d x %4d %-13s %4.2g", sh.bps, sh.threads, mname[mode], wsm / 4.0);
	for (int i = 0; i < nsz; i++) {
		double r = measure(sz[i], sh, mode, cmask, &ok);
		minok = std::min(minok, ok);
		printf(" %6.2f", r);
	}
	printf("  (%d SMs)\n", minok);
	fflush(stdout);
}

static void header(const size_t_ *sz, int nsz, const char *unit)
{
	printf("%-23s %4s", "blocks x threads", "w/s");
	for (int i = 0; i < nsz; i++)
		printf(" %5d%s", sz[i].kib, unit);
	printf("\n");
}

// ./icache: FFMA bodies of 1 to 256 KiB, every shape and mode;
// ./icache const: bodies with constant operands (and sines), 16 warps per
// scheduler in 4 to 32 blocks, lockstep or blocks spread.
int main(int argc, char **argv)
{
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	nsm = p.multiProcessorCount;
	printf("device %s cc %d.%d sms %d\n", p.name, p.major, p.minor, nsm);
	size_t maxw = (size_t)nsm * 64;
	CK(cudaMalloc(&d_ticket, nsm * 4 * 2));
	CK(cudaMalloc(&d_rec, maxw * (MAXREC + 1) * 8));
	CK(cudaMalloc(&d_where, maxw * 2 * 4));
	CK(cudaMalloc(&d_out, 4));
	std::vector<float4> h(2048);
	for (int i = 0; i < 2048; i++)
		h[i] = make_float4(1.0f + i * 1e-6f, 0.5f, 0.25f, 0.125f);
	CK(cudaMemcpyToSymbol(kc, h.data(), h.size() * sizeof(float4)));
	int ok;
	measure(sizes[0], shapes[0], 0, 0, &ok); // warm up
	printf("cycles per warp instruction per busy scheduler (1.00 = one FFMA a clock)\n");
	int nsz = sizeof sizes / sizeof *sizes;
	if (argc < 2) {
		printf("FFMA bodies, size in KiB of SASS\n");
		header(sizes, nsz, "K");
		for (int mode = 0; mode < 3; mode++)
			for (const shape &sh : shapes)
				if (mode != 1 || sh.bps > 1)
					row(sizes, nsz, sh, mode, 0);
		return 0;
	}
	if (!strcmp(argv[1], "cold")) {
		static const shape sh[] = {{1, 128}, {16, 32}, {2, 512}, {8, 128}, {4, 512}, {16, 128}};
		printf("hot KiB + cold KiB under a branch never taken, per hot KiB: 16+0 16+16 16+32 "
		       "16+48 8+56, then 32 48 64 hot\n");
		header(cold, 8, "K");
		for (int mode = 0; mode < 2; mode++)
			for (const shape &s : sh)
				if (mode == 0 || s.bps > 1)
					row(cold, 8, s, mode, 0);
		return 0;
	}
	static const shape cshapes[] = {
		{1, 128}, {16, 32}, {32, 32}, {4, 512}, {8, 256}, {16, 128}, {32, 64},
	};
	static const char *what[] = {
		"FFMA with a constant operand (LDC.128 a register-indexed table of 32 KiB)",
		"FFMA with a constant operand, the index within 256 bytes",
		"FFMA with a constant operand from 32 KiB and a MUFU.SIN per 8 FFMAs",
	};
	for (int v = 0; v < 3; v++) {
		printf("%s; size in chunks of 64 FFMAs\n", what[v]);
		header(csizes[v == 2], 9, "c");
		for (int mode = 0; mode < 2; mode++)
			for (const shape &sh : cshapes)
				if (mode == 0 || sh.bps > 1)
					row(csizes[v == 2], 9, sh, mode, v == 1 ? 15 : 2047);
	}
	return 0;
}
