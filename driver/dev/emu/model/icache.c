/* icache.c — what instruction fetch adds to a scheduler's issue when a
 * loop's code outgrows the instruction caches.
 *
 * scripts/bench/ubench/icache.cu measured it on the H100
 * (results/ubench-icache-h100.txt): a loop of independent FFMAs issues one
 * a clock per scheduler up to about 32 KiB of code; past that a warp waits
 * for its instructions from the next level, past about 128 KiB from
 * further still.  Each wait is per instruction, so it adds to whatever
 * else bounds the issue (the same excess showed over FFMAs alone and over
 * FFMAs twice as slow with a constant operand), and more warps per
 * scheduler hide it: a lone warp pays 1.4 cycles more per instruction
 * between the two sizes and 4.8 beyond, 16 warps a scheduler 0.27 and 0.42.
 *
 * The loop's size is read off the cubin where there is one (sass.c: the
 * longest loop of the machine code, or all of it where ptxas unrolled
 * every loop).  Without one, it is what the warps ran again (probe.c:
 * static PTX instructions issued more often than the block has warps) at
 * fetch.bytes_per_ins bytes each: 16, one SASS instruction per PTX
 * instruction, exact for the benchmark's own loop, where ptxas gave 0.8
 * for mri-q's and mri-fhd's unrolled loops and up to 2 where divisions and
 * transcendentals expand.
 *
 * The excess per instruction is, with S the loop's bytes, C0 and C1 the
 * two capacities and E1(w), E2(w) the measured excesses at w warps per
 * scheduler (interpolated in log2 w between 1, 4, 8 and 16; outside,
 * the nearest),
 *
 *   E1(w) x min(1, (S - C0) / C0)               for S > C0,
 *   + (E2(w) - E1(w)) x min(1, (S - C1) / C1)   for S > C1:
 *
 * the measured excess grows over about one capacity past each knee (at
 * 16 warps a scheduler, 15% of it 10 KiB past the first, 80% 34 KiB past;
 * a lone warp's within 10 KiB).  Only the loop's share of the issued
 * instructions pays it.  Profiles without the fetch.* keys (the H100's are
 * the only ones measured) have no such term. */
#include "dev/emu/model/model.h"

#include <math.h>

static const double fetch_warps[GS_EMU_FETCH_W] = { 1, 4, 8, 16 };

static double at_warps(const double e[GS_EMU_FETCH_W], double w)
{
	if (w <= fetch_warps[0])
		return e[0];
	for (int i = 1; i < GS_EMU_FETCH_W; i++)
		if (w <= fetch_warps[i]) {
			double a = log2(fetch_warps[i - 1]), b = log2(fetch_warps[i]);
			double f = (log2(w) - a) / (b - a);
			return e[i - 1] + f * (e[i] - e[i - 1]);
		}
	return e[GS_EMU_FETCH_W - 1];
}

double gs_emu_fetch_excess(const struct gs_emu_profile *p, double loop_bytes,
			   double warps_per_sched)
{
	double c0 = p->fetch_l0_bytes, c1 = p->fetch_l1_bytes, e = 0;
	if (c0 <= 0 || loop_bytes <= c0)
		return 0;
	double e1 = at_warps(p->fetch_l1, warps_per_sched);
	double r = (loop_bytes - c0) / c0;
	e += e1 * (r < 1 ? r : 1);
	if (c1 > c0 && loop_bytes > c1) {
		double e2 = at_warps(p->fetch_l2, warps_per_sched);
		r = (loop_bytes - c1) / c1;
		e += (e2 - e1) * (r < 1 ? r : 1);
	}
	return e > 0 ? e : 0;
}
