// Microbenchmark for the L1's cost of one warp load by the 128-byte lines
// and 32-byte sectors its 32 addresses touch (the sm_90 model counts
// sectors only; narrow blocks reading 2-D tiles, conv11 and dedisp in
// scripts/bench/heldout/, run 1.4-1.8x slower on the H100 than modeled).
//
// Every thread walks a pointer through zero-filled memory: each iteration
// issues U = 8 independent 4-byte loads at p + idx + k * 32 words (k < 8,
// one 128-byte line apart), sums them (0, but the compiler cannot know) and
// folds the sum into the next idx, so no load can be hoisted or dropped,
// while the 8 loads of an iteration are independent and 64 warps a SM keep
// far more requests in flight than the L1 serves: the time is the SM's
// throughput, not a latency.  Which words a warp's lanes read is a per-thread
// offset table in constant memory, set per case:
//   lines  G groups of 32/G lanes, group g in line g (pitch 32 words) or in
//          row g (pitch 4096 words); S sectors touched in each line, so one
//          load spans G lines and G*S sectors (4, 8, 16, 32 sectors over 1
//          to 32 lines: a cost per line apart from one per sector);
//   tile   a 256-thread block as BX x (256/BX) threads over a row-major
//          array of pitch 4096 (or 4128) floats, a warp covering 32/BX rows
//          (BX = 8, 16, 32); L1: every block re-reads the same tile; L2: each
//          block walks 16 steps of 8 lines along its own rows, 16 MiB in all
//          (> L1, < L2); plain loads (LDG.E) and __ldg (LDG.E.CONSTANT);
//   skew   G lines, lane l reading word l of its line: 32 banks, one
//          wavefront, G sectors (a cost per sector apart from the banks');
//          spread: the same 32 banks over G lines, 32 sectors (a cost per
//          line apart from one per sector); table: a random gather of 32
//          words from 4 KiB (a lookup table);
//   shift  32 consecutive words shifted 0 to 31 words from a line's start
//          (2 lines unless aligned, a convolution's taps), and L1 tiles of
//          pitch 4106 words (conv11's rows, no multiple of a line): these
//          tell a cost per line from one per conflict in the L1's data
//          banks, which take a warp's words as shared memory's banks do.
// Reported per case: SM cycles per warp load from clock64 (each SM's span
// from its first block's start to its last block's end, over the warp loads
// its blocks issued; median over SMs) and from cudaEvent time at the clock
// the device reports, the implied SM clock, and the kernel time over the
// launch overhead of an empty kernel of the same grid (must be >= 50).
// Each case's iteration count is scaled so that it runs about 2 ms; times
// are the median of 7.  The whole run takes a few seconds.
//
//   nvcc -O3 -arch=sm_90 -o l1lines scripts/bench/ubench/l1lines.cu && ./l1lines
//   (scripts/bench/ubench/run-l1.sh OUT from the repository root)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "terms.h"

enum { TPB = 256, U = 8, D = 32, BPS = 8 }; /* threads a block, loads an iteration, their spacing in words, blocks a SM */

__constant__ int c_off[TPB]; /* word offset of each thread's first address */

__device__ __forceinline__ unsigned smid()
{
	unsigned r;
	asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
	return r;
}

/* RO: __ldg (the read-only path); else a plain load through a pointer that
 * is not __restrict__, so the compiler keeps LDG.E.  nb blocks of rows, blk
 * words apart; idx walks (idx + step) & mask. */
template <bool RO>
__global__ void __launch_bounds__(TPB, BPS)
walk(const int *a, int iter, unsigned mask, unsigned step, int nb, int blk, int *out, long long *t, unsigned *sm)
{
	long long t0 = clock64();
	const int *p = a + (size_t)(blockIdx.x % nb) * blk + c_off[threadIdx.x];
	unsigned idx = 0;
	int z = 0;
	for (int i = 0; i < iter; i++) {
		const int *q = p + idx;
		int v[U];
#pragma unroll
		for (int k = 0; k < U; k++)
			v[k] = RO ? __ldg(q + k * D) : q[k * D];
		z = 0;
#pragma unroll
		for (int k = 0; k < U; k++)
			z += v[k];
		idx = (idx + step + (unsigned)z) & mask;
	}
	if (idx == 0xdeadbeefu || z == 0x7fffffff) /* never: memory is zero */
		out[blockIdx.x * blockDim.x + threadIdx.x] = z + (int)idx;
	__syncthreads();
	if (threadIdx.x == 0) {
		t[2 * blockIdx.x] = t0;
		t[2 * blockIdx.x + 1] = clock64();
		sm[blockIdx.x] = smid();
	}
}

__global__ void empty(int *out)
{
	if (out && threadIdx.x == 1023)
		out[0] = 1;
}

struct Dev {
	int *a, *out;
	long long *t;
	unsigned *sm;
	int blocks;
	float launch_ms;
};

struct Case {
	const char *what;
	int off[TPB];
	unsigned mask, step;
	int nb, blk;
	bool ro;
	/* results */
	double lines, sectors; /* per warp load (the first, idx = 0) */
	double cyc_clk, cyc_evt, ms, ghz;
};

/* distinct lines and sectors of each warp's first load, averaged over warps */
static void count(Case &c)
{
	double l = 0, s = 0;
	for (int w = 0; w < TPB / 32; w++) {
		std::vector<long> ln, sc;
		for (int i = 0; i < 32; i++) {
			long b = 4L * c.off[32 * w + i];
			ln.push_back(b / 128);
			sc.push_back(b / 32);
		}
		std::sort(ln.begin(), ln.end());
		std::sort(sc.begin(), sc.end());
		l += std::unique(ln.begin(), ln.end()) - ln.begin();
		s += std::unique(sc.begin(), sc.end()) - sc.begin();
	}
	c.lines = l / (TPB / 32);
	c.sectors = s / (TPB / 32);
}

static void launch(Dev &d, const Case &c, int iter)
{
	if (c.ro)
		walk<true><<<d.blocks, TPB>>>(d.a, iter, c.mask, c.step, c.nb, c.blk, d.out, d.t, d.sm);
	else
		walk<false><<<d.blocks, TPB>>>(d.a, iter, c.mask, c.step, c.nb, c.blk, d.out, d.t, d.sm);
}

static void run(Dev &d, Case &c)
{
	count(c);
	CK(cudaMemcpyToSymbol(c_off, c.off, sizeof c.off));
	/* scale the iterations so that the kernel runs about 2 ms */
	int iter = 256;
	float ms = time_ms([&] { launch(d, c, iter); }, 7);
	for (int k = 0; k < 3 && ms < 1.5f; k++) {
		double f = 2.0 / std::max(ms - d.launch_ms, 0.001f);
		iter = (int)std::min(1 << 22, (int)(iter * std::min(f, 64.0)) + 1);
		ms = time_ms([&] { launch(d, c, iter); }, 7);
	}
	c.ms = ms;
	/* one more run for the per-SM clock64 spans */
	launch(d, c, iter);
	CK(cudaDeviceSynchronize());
	std::vector<long long> t(2 * d.blocks);
	std::vector<unsigned> sm(d.blocks);
	CK(cudaMemcpy(t.data(), d.t, t.size() * sizeof t[0], cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(sm.data(), d.sm, sm.size() * sizeof sm[0], cudaMemcpyDeviceToHost));
	unsigned nsm = 0;
	for (unsigned s : sm)
		nsm = std::max(nsm, s + 1);
	std::vector<long long> lo(nsm, -1), hi(nsm, 0);
	std::vector<long> nblk(nsm, 0);
	for (int b = 0; b < d.blocks; b++) {
		unsigned s = sm[b];
		if (lo[s] < 0 || t[2 * b] < lo[s])
			lo[s] = t[2 * b];
		hi[s] = std::max(hi[s], t[2 * b + 1]);
		nblk[s]++;
	}
	double per_block = (double)TPB / 32 * iter * U; /* warp loads */
	std::vector<double> cyc;
	for (unsigned s = 0; s < nsm; s++)
		if (nblk[s])
			cyc.push_back((hi[s] - lo[s]) / (nblk[s] * per_block));
	std::sort(cyc.begin(), cyc.end());
	c.cyc_clk = cyc[cyc.size() / 2];
	double per_sm = per_block * d.blocks / g_sms;
	c.cyc_evt = (ms - d.launch_ms) * 1e6 * g_clock_ghz / per_sm;
	/* the SM clock the two imply: clock64 cycles over event time */
	c.ghz = c.cyc_clk * per_sm / ((ms - d.launch_ms) * 1e6);
	printf("%-44s %5.2f lines %5.2f sectors a warp load: %7.3f SM cycles per warp load per SM (clock64), "
	       "%7.3f (event at %.0f MHz); %8.3f ms, iter %d, implied clock %.0f MHz, %6.0fx the launch overhead%s\n",
	       c.what, c.lines, c.sectors, c.cyc_clk, c.cyc_evt, g_clock_ghz * 1e3, ms, iter, c.ghz * 1e3,
	       ms / d.launch_ms, ms / d.launch_ms >= 50 ? "" : " (TOO SHORT: not a measurement)");
}

/* the lines cases: G groups, S sectors a line, group pitch in words */
static Case lines_case(int g, int s, int pitch, char *name, size_t namelen)
{
	Case c = {};
	int per = 32 / g;
	for (int t = 0; t < TPB; t++) {
		int lane = t % 32, grp = lane / per, w = lane % per;
		c.off[t] = grp * pitch + (w % s) * 8 + w / s;
	}
	c.mask = 0;
	c.step = 0;
	c.nb = 1;
	c.blk = 0;
	snprintf(name, namelen, "lines G=%d S=%d pitch=%d", g, s, pitch);
	c.what = name;
	return c;
}

/* G lines (pitch words apart), 32/G lanes in each, lane l reading word l
 * of its line: the 32 lanes on 32 different banks, so one wavefront by
 * the banks whatever G, over G lines and G sectors (32/G <= 8 lanes a
 * line fall in one sector) -- a cost per sector apart from the banks'.
 * table: each lane a word drawn at random (fixed seed, per thread) from
 * 1024 (4 KiB), a lookup table's gather: about 28 sectors over 32 lines,
 * a few lanes a bank. */
static Case skew_case(int g, int pitch, char *name, size_t namelen)
{
	Case c = {};
	int per = 32 / g;
	for (int t = 0; t < TPB; t++) {
		int lane = t % 32;
		c.off[t] = (lane / per) * pitch + lane;
	}
	c.nb = 1;
	snprintf(name, namelen, "skew G=%d pitch=%d", g, pitch);
	c.what = name;
	return c;
}

/* G lines, lane l reading word l of line l % G: still 32 banks and one
 * wavefront, but 32 sectors over G lines (32/G sectors in each): a cost
 * per sector apart from one per line. */
static Case spread_case(int g, int pitch, char *name, size_t namelen)
{
	Case c = {};
	for (int t = 0; t < TPB; t++) {
		int lane = t % 32;
		c.off[t] = (lane % g) * pitch + lane;
	}
	c.nb = 1;
	snprintf(name, namelen, "spread G=%d pitch=%d", g, pitch);
	c.what = name;
	return c;
}

static Case table_case(char *name, size_t namelen)
{
	Case c = {};
	unsigned x = 12345;
	for (int t = 0; t < TPB; t++) {
		x = x * 1103515245u + 12345u;
		c.off[t] = (int)((x >> 8) % 1024);
	}
	c.nb = 1;
	snprintf(name, namelen, "table 1024 words, random");
	c.what = name;
	return c;
}

/* a warp's 32 lanes on consecutive words, shifted by `shift` words from a
 * line's start: 1 line (4 sectors) aligned, else 2 lines (5 sectors) */
static Case shift_case(int shift, char *name, size_t namelen)
{
	Case c = {};
	for (int t = 0; t < TPB; t++)
		c.off[t] = t % 32 + shift;
	c.nb = 1;
	snprintf(name, namelen, "shift %d words", shift);
	c.what = name;
	return c;
}

/* the tile cases: BX columns, row pitch in words; l2: walk 16 MiB */
static Case tile_case(int bx, int pitch, bool l2, bool ro, char *name, size_t namelen)
{
	Case c = {};
	int rows = TPB / bx;
	for (int t = 0; t < TPB; t++)
		c.off[t] = (t / bx) * pitch + t % bx;
	c.ro = ro;
	if (l2) {
		c.mask = 4095; /* along the row: 16 steps of 8 lines */
		c.step = U * D;
		c.nb = 1024 / rows; /* 1024 rows, 16 MiB */
		c.blk = rows * pitch;
	} else {
		c.mask = 0;
		c.step = 0;
		c.nb = 1;
		c.blk = 0;
	}
	snprintf(name, namelen, "tile BX=%d rows/warp=%d pitch=%d %s %s", bx, 32 / bx, pitch, l2 ? "L2" : "L1",
		 ro ? "ldg" : "plain");
	c.what = name;
	return c;
}

/* least squares of y = a + b * lines + c * sectors */
static void fit(const std::vector<Case> &v, const char *what)
{
	double m[3][4] = {};
	for (const Case &c : v) {
		double x[3] = { 1, c.lines, c.sectors };
		for (int i = 0; i < 3; i++) {
			for (int j = 0; j < 3; j++)
				m[i][j] += x[i] * x[j];
			m[i][3] += x[i] * c.cyc_clk;
		}
	}
	for (int i = 0; i < 3; i++) {
		int p = i;
		for (int r = i + 1; r < 3; r++)
			if (fabs(m[r][i]) > fabs(m[p][i]))
				p = r;
		for (int j = 0; j < 4; j++)
			std::swap(m[i][j], m[p][j]);
		for (int r = 0; r < 3; r++)
			if (r != i) {
				double f = m[r][i] / m[i][i];
				for (int j = 0; j < 4; j++)
					m[r][j] -= f * m[i][j];
			}
	}
	printf("fit %s: SM cycles per warp load = %.3f + %.3f per line + %.3f per sector\n", what,
	       m[0][3] / m[0][0], m[1][3] / m[1][1], m[2][3] / m[2][2]);
}

int main()
{
	device_init();
	printf("cycles from clock64 per SM and from cudaEvent time at that clock (cudaDevAttrClockRate)\n");

	Dev d;
	d.blocks = g_sms * BPS;
	size_t words = (size_t)1024 * 4128 + 2 * U * D + 4096;
	CK(cudaMalloc(&d.a, words * 4));
	CK(cudaMemset(d.a, 0, words * 4));
	CK(cudaMalloc(&d.out, (size_t)d.blocks * TPB * 4));
	CK(cudaMalloc(&d.t, (size_t)d.blocks * 2 * 8));
	CK(cudaMalloc(&d.sm, (size_t)d.blocks * 4));
	/* as much L1 as the carveout allows */
	CK(cudaFuncSetAttribute(walk<true>, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
	CK(cudaFuncSetAttribute(walk<false>, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
	int occ;
	CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, walk<false>, TPB, 0));
	cudaFuncAttributes fa;
	CK(cudaFuncGetAttributes(&fa, walk<false>));
	d.launch_ms = time_ms([&] { empty<<<d.blocks, TPB>>>(nullptr); }, 7);
	printf("grid %d blocks of %d threads, %d resident a SM (%d registers a thread); launch overhead "
	       "(empty kernel, same grid) %.4f ms\n", d.blocks, TPB, occ, fa.numRegs, d.launch_ms);

	static char names[64][96];
	int nn = 0;
	std::vector<Case> lv;
	/* 4, 8, 16, 32 sectors over 1 to 32 lines */
	int gs[][2] = { { 1, 4 }, { 2, 2 }, { 4, 1 }, { 2, 4 }, { 4, 2 }, { 8, 1 },
			{ 4, 4 }, { 8, 2 }, { 16, 1 }, { 8, 4 }, { 16, 2 }, { 32, 1 } };
	for (auto &x : gs) {
		Case c = lines_case(x[0], x[1], 32, names[nn], sizeof names[0]);
		nn++;
		run(d, c);
		lv.push_back(c);
	}
	fit(lv, "lines (pitch 32 words), L1 hits");
	/* the same over rows 16 KiB apart: 1 to 32 lines, max(4, G) sectors */
	std::vector<Case> rv;
	int gr[][2] = { { 1, 4 }, { 2, 2 }, { 4, 1 }, { 8, 1 }, { 16, 1 }, { 32, 1 } };
	for (auto &x : gr) {
		Case c = lines_case(x[0], x[1], 4096, names[nn], sizeof names[0]);
		nn++;
		run(d, c);
		rv.push_back(c);
	}
	fit(rv, "lines (pitch 4096 words), L1 hits");
	for (size_t k = 1; k < lv.size(); k++)
		if (lv[k].sectors == lv[k - 1].sectors)
			printf("marginal: %2.0f sectors, %2.0f -> %2.0f lines: %+.3f SM cycles per extra line\n",
			       lv[k].sectors, lv[k - 1].lines, lv[k].lines,
			       (lv[k].cyc_clk - lv[k - 1].cyc_clk) / (lv[k].lines - lv[k - 1].lines));
	for (size_t k = 1; k < rv.size(); k++)
		printf("marginal (rows): %2.0f -> %2.0f lines (%2.0f -> %2.0f sectors): %+.3f SM cycles per extra line\n",
		       rv[k - 1].lines, rv[k].lines, rv[k - 1].sectors, rv[k].sectors,
		       (rv[k].cyc_clk - rv[k - 1].cyc_clk) / (rv[k].lines - rv[k - 1].lines));

	/* one wavefront over 4 to 32 lines and sectors; a table's gather */
	for (int pitch : { 32, 4096 })
		for (int g : { 4, 8, 16, 32 }) {
			Case c = skew_case(g, pitch, names[nn], sizeof names[0]);
			nn++;
			run(d, c);
		}
	for (int g : { 1, 2, 4, 8, 16 }) {
		Case c = spread_case(g, 4096, names[nn], sizeof names[0]);
		nn++;
		run(d, c);
	}
	{
		Case c = table_case(names[nn], sizeof names[0]);
		nn++;
		run(d, c);
	}
	/* unaligned contiguous warps (a convolution's taps): 2 lines, 5 sectors */
	for (int sh : { 0, 1, 4, 8, 16, 31 }) {
		Case c = shift_case(sh, names[nn], sizeof names[0]);
		nn++;
		run(d, c);
	}
	/* tiles of a pitch that is no multiple of a line (conv11's 4106 words) */
	for (int bx : { 8, 16, 32 }) {
		Case c = tile_case(bx, 4106, false, false, names[nn], sizeof names[0]);
		nn++;
		run(d, c);
	}
	/* 2-D tiles of narrow blocks */
	int bxs[] = { 8, 16, 32 };
	for (int l2 = 0; l2 < 2; l2++)
		for (int ro = 0; ro < 2; ro++)
			for (int pitch : { 4096, 4128 }) {
				if (l2 && pitch != 4096)
					continue;
				for (int bx : bxs) {
					Case c = tile_case(bx, pitch, l2, ro, names[nn], sizeof names[0]);
					nn++;
					run(d, c);
				}
			}
	return 0;
}
