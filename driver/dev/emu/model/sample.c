/* sample.c — which blocks of a grid a sampled launch executes, and how many
 * blocks of the grid each one stands for.
 *
 * Blocks at a grid's edges may do different work (partial tiles, guards
 * that turn threads off), so every dimension is split into its first
 * block, its interior and its last block, and the grid into the up to 27
 * products of those.  Each edge stratum gets one block (its middle one),
 * the largest first where the sample cannot hold them all.
 * The interior stratum — the bulk of the grid — gets the rest of the sample
 * as runs of consecutive blocks (the ones the hardware runs at the same
 * time), one from the middle of each quarter of it, as work may vary over
 * the grid. A stratum's
 * blocks are shared equally by its samples.  A grid no larger than the
 * sample runs whole. */
#include "dev/emu/model/model.h"

#include <math.h>

/* the [lo, hi) of part k (0 first, 1 interior, 2 last) of a dimension of n */
static int part(unsigned n, int k, unsigned *lo, unsigned *hi)
{
	switch (k) {
	case 0:
		*lo = 0, *hi = 1;
		return 1;
	case 1:
		*lo = 1, *hi = n > 2 ? n - 1 : 1;
		return n > 2;
	default:
		*lo = n - 1, *hi = n;
		return n > 1;
	}
}

/* The interior's runs of consecutive blocks, where the sample has 4 blocks
 * for each or more (results/heldout7/README.md: one run from the middle of
 * a ray caster's image saw a fifth of its work). */
#define RUNS 4

size_t gs_emu_sample_split(const unsigned grid[3], size_t n, uint64_t *idx, double *weight,
			   size_t *inner)
{
	uint64_t total = (uint64_t)grid[0] * grid[1] * grid[2];
	size_t k = 0;
	*inner = 0;
	if (!total || !n)
		return 0;
	if (total <= n) {
		*inner = (size_t)total;
		for (uint64_t b = 0; b < total; b++) {
			idx[b] = b;
			weight[b] = 1;
		}
		return (size_t)total;
	}
	/* the edge strata: one block each, the largest first, so that a
	 * sample too small for every edge leaves out the smallest (a grid
	 * two blocks wide has no interior, and its bulk is edge strata) */
	struct stratum {
		uint64_t b, cnt;
	} e[27];
	size_t ne = 0;
	size_t interior_at = SIZE_MAX;
	uint64_t interior_n = 0;
	unsigned ilo[3] = { 0 }, ihi[3] = { 0 };
	for (int z = 0; z < 3; z++)
		for (int y = 0; y < 3; y++)
			for (int x = 0; x < 3; x++) {
				unsigned lo[3], hi[3];
				int kk[3] = { x, y, z };
				int ok = 1;
				for (int d = 0; d < 3 && ok; d++)
					ok = part(grid[d], grid[d] == 1 ? (kk[d] == 0 ? 0 : 3) : kk[d], &lo[d],
						  &hi[d]) && !(grid[d] == 1 && kk[d]);
				if (!ok)
					continue;
				uint64_t cnt = (uint64_t)(hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
				/* a dimension of one block is all "first": interior of the
				 * rest means interior in every dimension longer than 2 */
				int interior = 1;
				for (int d = 0; d < 3; d++)
					interior &= grid[d] == 1 ? 1 : kk[d] == 1;
				if (interior) {
					interior_n = cnt;
					for (int d = 0; d < 3; d++)
						ilo[d] = lo[d], ihi[d] = hi[d];
					interior_at = 0;
					continue;
				}
				e[ne].b = (uint64_t)(lo[0] + (hi[0] - lo[0]) / 2) +
					  (uint64_t)grid[0] * ((lo[1] + (hi[1] - lo[1]) / 2) +
							       (uint64_t)grid[1] * (lo[2] + (hi[2] - lo[2]) / 2));
				e[ne].cnt = cnt;
				ne++;
			}
	/* stable: equal strata keep the grid's order */
	for (size_t i = 1; i < ne; i++)
		for (size_t j = i; j && e[j - 1].cnt < e[j].cnt; j--) {
			struct stratum tmp = e[j];
			e[j] = e[j - 1];
			e[j - 1] = tmp;
		}
	size_t room = interior_n && n > 1 ? n - 1 : n;
	for (size_t i = 0; i < ne && k < room; i++) {
		idx[k] = e[i].b;
		weight[k] = (double)e[i].cnt;
		k++;
	}
	if (interior_at != SIZE_MAX && interior_n) {
		size_t m = n > k ? n - k : 1;
		if (m > interior_n)
			m = (size_t)interior_n;
		/* RUNS runs of consecutive interior blocks in x-major order,
		 * centred in equal parts of the interior: blocks the hardware
		 * runs together, from across the grid, since work may vary
		 * over it (a ray caster's rays that miss the volume) */
		unsigned w[3] = { ihi[0] - ilo[0], ihi[1] - ilo[1], ihi[2] - ilo[2] };
		size_t runs = m >= 4 * RUNS ? RUNS : 1;
		if (k + m > n) /* every slot went to edges: the last stands for the interior */
			k = n - 1;
		*inner = k;
		for (size_t i = 0; i < m && k < n; i++) {
			size_t r = i * runs / m, r0 = r * m / runs, len = (r + 1) * m / runs - r0;
			uint64_t mid = (uint64_t)((2 * r + 1) * (double)interior_n / (double)(2 * runs));
			uint64_t start = mid > len / 2 ? mid - len / 2 : 0;
			if (start + len > interior_n)
				start = interior_n - len;
			uint64_t j = start + (i - r0);
			unsigned c[3] = { (unsigned)(j % w[0]), (unsigned)(j / w[0] % w[1]),
					  (unsigned)(j / ((uint64_t)w[0] * w[1])) };
			idx[k] = (uint64_t)(ilo[0] + c[0]) +
				 (uint64_t)grid[0] * ((ilo[1] + c[1]) + (uint64_t)grid[1] * (ilo[2] + c[2]));
			weight[k] = (double)interior_n / (double)m;
			k++;
		}
	}
	if (interior_at == SIZE_MAX || !interior_n)
		*inner = k;
	return k;
}

size_t gs_emu_sample(const unsigned grid[3], size_t n, uint64_t *idx, double *weight)
{
	size_t interior;
	return gs_emu_sample_split(grid, n, idx, weight, &interior);
}

/* Where the interior's blocks do unequal work (a ray caster's rays that
 * miss the volume and rays that go deep, a Mandelbrot set's edge), its
 * first sample times the launch by a draw: raymarch's 24 interior blocks
 * of a 1024^2 image put its time anywhere from 0.24 to 1.29 of the
 * measured (results/heldout7/README.md), more than the +-20% between its
 * configurations.  The blocks' issued warp instructions say how unequal
 * they are: with a coefficient of variation v over m blocks, the mean is
 * known within v / sqrt(m) of itself (a sample of blocks drawn across the
 * grid), so the interior needs (v / GS_EMU_SAMPLE_SE)^2 blocks.  Interiors
 * of equal blocks need no more than they have. */
size_t gs_emu_sample_need(const struct gs_emu_blockstat *st, size_t n, size_t inner)
{
	size_t m = n > inner ? n - inner : 0;
	if (m < 2)
		return m;
	double sum = 0, sq = 0;
	for (size_t i = inner; i < n; i++) {
		double x = (double)gs_emu_counters_warp_inst(&st[i].c);
		sum += x;
		sq += x * x;
	}
	double mean = sum / (double)m;
	if (mean <= 0)
		return m;
	double var = (sq - sum * mean) / (double)(m - 1);
	double v2 = var > 0 ? var / (mean * mean) : 0;
	double need = ceil(v2 / (GS_EMU_SAMPLE_SE * GS_EMU_SAMPLE_SE));
	return need > (double)m ? (need > 1e9 ? (size_t)1e9 : (size_t)need) : m;
}

/* Blocks of one grid do the same work, but for its edges, so a sample is
 * for telling edges from interior, not for statistics: past a few blocks,
 * more of them only cost time, and large blocks cost most.  Hence a cap in
 * warps: 32 blocks of 64 threads, 8 of 1,024 at 256 warps. */
size_t gs_emu_sample_size(const struct gs_emu_profile *p, int blocks, unsigned block_threads)
{
	size_t n = blocks > 0 ? (size_t)blocks : 0;
	unsigned warps = (block_threads + 31) / 32;
	if (p->sample_warps > 0 && warps) {
		size_t cap = ((size_t)p->sample_warps + warps - 1) / warps;
		if (cap < GS_EMU_SAMPLE_MIN)
			cap = GS_EMU_SAMPLE_MIN;
		if (n > cap)
			n = cap;
	}
	return n;
}
