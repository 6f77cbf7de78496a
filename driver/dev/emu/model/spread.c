/* spread.c — how DRAM latency varies from one access to the next, for the
 * interval model's dependency chains (probe.c).
 *
 * A chain that waits for the slowest of several accesses pays more than
 * the mean latency: a warp load whose lanes touch k lines completes with
 * the last of them, a barrier releases with the last of its warps.  With
 * the mean alone the model cannot tell a warp load of two 64-byte runs from
 * one of a 128-byte line, nor a block of 16 warps from one of one.  On the
 * H100 (scripts/bench/ubench/spread.cu, results/ubench-spread-h100.txt) a
 * lone chase's latency runs from 0.78 to 1.61 times its mean (5th to 99th
 * percentile), and the maximum of k independent draws from that
 * distribution predicts the measured cost of k lines per warp load, or of a
 * barrier over W warps, within 3 to 5% at light load (1.10 predicted
 * against 1.07 measured for two lines, 1.41 against 1.38 for 16 warps).
 *
 * The profile gives the distribution as quantiles of latency / mean
 * (dram_spread.p5 ... dram_spread.p99).  Between them it is linear; below
 * the 5th percentile flat; above the 99th an exponential tail whose scale
 * makes the 95th and 99th percentiles fit.  The table holds, for 1024
 * equally likely draws, the weight of the DRAM part of a miss: the probe
 * counts a miss's latency as lat.l2 plus a weight times
 * (mem_latency - lat.l2), so a draw of latency X * mem_latency has weight
 * (X * mem_latency - lat.l2) / (mem_latency - lat.l2), and the weights
 * average 1 (the mean latency, as without the spread).
 *
 * Draws are a hash of the block, a counter of its draws and nothing else,
 * so that a block's chain does not depend on the host thread that ran it. */
#include "dev/emu/model/model.h"

#include <math.h>

static const double qu[GS_EMU_SPREAD_Q] = { .05, .10, .25, .50, .75, .90, .95, .99 };

static double quantile(const double *q, double u)
{
	if (u <= qu[0])
		return q[0];
	for (int i = 1; i < GS_EMU_SPREAD_Q; i++)
		if (u <= qu[i])
			return q[i - 1] + (q[i] - q[i - 1]) * (u - qu[i - 1]) / (qu[i] - qu[i - 1]);
	const int t = GS_EMU_SPREAD_Q - 1;
	double scale = (q[t] - q[t - 1]) / log((1 - qu[t - 1]) / (1 - qu[t]));
	return q[t] + scale * log((1 - qu[t]) / (1 - u));
}

int gs_emu_spread_table(const struct gs_emu_profile *p, double *tab)
{
	const double *q = p->dram_spread;
	double dram = gs_emu_dram_beyond_l2(p), mean = 0;
	if (!(q[0] > 0) || !(dram > 0))
		return 0;
	for (int i = 0; i < GS_EMU_SPREAD_N; i++) {
		tab[i] = quantile(q, (i + 0.5) / GS_EMU_SPREAD_N);
		mean += tab[i];
	}
	mean /= GS_EMU_SPREAD_N;
	for (int i = 0; i < GS_EMU_SPREAD_N; i++) {
		double w = (tab[i] / mean * p->mem_latency - p->lat_l2) / dram;
		tab[i] = w > 0 ? w : 0;
	}
	/* the clamp above can only raise the mean; take it back to 1 */
	mean = 0;
	for (int i = 0; i < GS_EMU_SPREAD_N; i++)
		mean += tab[i];
	mean /= GS_EMU_SPREAD_N;
	for (int i = 0; i < GS_EMU_SPREAD_N; i++)
		tab[i] /= mean;
	return 1;
}

double gs_emu_spread_draw(const double *tab, uint64_t key)
{
	/* splitmix64's finalizer: consecutive keys give independent draws */
	key += 0x9e3779b97f4a7c15ull;
	key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9ull;
	key = (key ^ (key >> 27)) * 0x94d049bb133111ebull;
	key ^= key >> 31;
	return tab[key >> (64 - GS_EMU_SPREAD_BITS)];
}
