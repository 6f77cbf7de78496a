/* test_emu_model.c — the analytical timing model against hand-computed cases:
 * Hong & Kim's three regimes (memory bound, compute bound, not enough warps)
 * on the G80 profile, a partial last wave, a register cliff, bank conflicts,
 * and Ryoo et al.'s efficiency and utilization.
 *
 * G80 constants used by hand: Mem_LD 420, Departure_del_coal 4,
 * Departure_del_uncoal 10, 4 issue cycles per warp instruction, 16 SMs at
 * 1350 MHz, 86.4 GB/s, barrier release 20 cycles, launch 5 us. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "dev/emu.h"
#include "dev/emu/model/model.h"
#include "emucopy.h"

static const struct gs_emu_profile *g80(void)
{
	const struct gs_emu_profile *p = gs_emu_profile_find("g80");

	ck_assert_ptr_nonnull(p);
	return p;
}

static struct gs_emu_occ occ(int threads, int regs, int smem)
{
	struct gs_emu_occ o;
	char why[256];

	ck_assert_msg(gs_emu_occupancy(g80(), threads, regs, smem, &o, why, sizeof why) == 0, "%s",
		      why);
	return o;
}

static struct gs_emu_geom geom(unsigned blocks, unsigned threads)
{
	struct gs_emu_geom g = { { blocks, 1, 1 }, { threads, 1, 1 }, 0, 0 };
	return g;
}

/* Per-warp instruction mix times the number of warps; loads of `trans`
 * transactions of `tbytes` bytes each. */
static struct gs_emu_counters counters(uint64_t warps, uint64_t fp32, uint64_t loads,
				       uint64_t trans, uint64_t tbytes, uint64_t bars)
{
	struct gs_emu_counters c;

	memset(&c, 0, sizeof c);
	c.warps = warps;
	c.warp_inst[GS_EMU_FP32] = fp32 * warps;
	c.warp_inst[GS_EMU_MEM] = loads * warps;
	c.warp_inst[GS_EMU_BARRIER] = bars * warps;
	c.thread_inst[GS_EMU_FP32] = fp32 * warps * 32;
	c.thread_inst[GS_EMU_MEM] = loads * warps * 32;
	c.thread_inst[GS_EMU_BARRIER] = bars * warps * 32;
	c.gld_inst = loads * warps;
	c.gld_trans = loads * trans * warps;
	c.gld_bytes = loads * trans * tbytes * warps;
	c.barriers = bars * warps;
	return c;
}

static struct gs_emu_model_out model(const struct gs_emu_counters *c, struct gs_emu_geom g,
				     struct gs_emu_occ o)
{
	struct gs_emu_model_out m;

	ck_assert_int_eq(gs_emu_model(g80(), c, &g, &o, &m), 0);
	return m;
}

/* The shape of the paper's worked example: 80 blocks of 128 threads, 5
 * blocks per SM (N = 20), per thread 27 computation instructions, 6
 * uncoalesced loads (32 transactions of 32 bytes a warp) and 6 barriers.
 *   Comp_cycles = 4 x (27 + 6 + 6) = 156
 *   Mem_L = 420 + 31 x 10 = 730; Departure_delay = 32 x 10 = 320
 *   MWP_Without_BW = 730 / 320 = 2.28125
 *   BW_per_warp = 1.35 x 1024 / 730 = 1.8937 GB/s;
 *   MWP_peak_BW = 86.4 / (1.8937 x 16) = 2.8516
 *   MWP = 2.28125; Mem_cycles = 6 x 730 = 4380
 *   CWP = min(4536 / 156 = 29.08, 20) = 20 >= MWP: memory bound
 *   cycles = 4380 x 20 / 2.28125 + 156 / 6 x 1.28125 = 38400 + 33.3125
 *   Synch = (320 x 1.28125 + 20) x 6 x 5 = 12900
 *   total 51333.3125 cycles, one wave. */
START_TEST(test_memory_bound)
{
	struct gs_emu_occ o = occ(128, 12, 0);
	struct gs_emu_counters c = counters(80 * 4, 27, 6, 32, 32, 6);
	struct gs_emu_model_out m;

	ck_assert_int_eq(o.blocks_per_sm, 5);
	m = model(&c, geom(80, 128), o);
	ck_assert_str_eq(m.bound, "memory");
	ck_assert_int_eq(m.rep, 1);
	ck_assert_int_eq(m.active_warps, 20);
	ck_assert_double_eq_tol(m.comp_cycles, 156, 1e-9);
	ck_assert_double_eq_tol(m.mem_l, 730, 1e-9);
	ck_assert_double_eq_tol(m.dep_delay, 320, 1e-9);
	ck_assert_double_eq_tol(m.mwp, 2.28125, 1e-12);
	ck_assert_double_eq_tol(m.cwp, 20, 1e-12);
	ck_assert_double_eq_tol(m.mem_cycles, 4380, 1e-9);
	ck_assert_double_eq_tol(m.sync_cycles, 12900, 1e-9);
	ck_assert_double_eq_tol(m.cycles, 51333.3125, 1e-6);
	ck_assert_double_eq_tol(m.ms, 51333.3125 / 1350e3 + 0.005, 1e-12);
}
END_TEST

/* Coalesced loads and much computation: per thread 200 fp32 and 2 loads
 * (two 64-byte half-warp transactions each), N = 20.
 *   Comp_cycles = 4 x 202 = 808; Mem_L = 420; Departure_delay = 4
 *   MWP_Without_BW = 105; BW_per_warp = 1.35 x 128 / 420 = 0.41143;
 *   MWP_peak_BW = 86.4 / (0.41143 x 16) = 13.125; MWP = 13.125
 *   Mem_cycles = 840; CWP = 1648 / 808 = 2.0396 < MWP, Comp < Mem
 *   cycles = Mem_L + Comp_cycles x N = 420 + 808 x 20 = 16580 */
START_TEST(test_compute_bound)
{
	struct gs_emu_counters c = counters(80 * 4, 200, 2, 2, 64, 0);
	struct gs_emu_model_out m = model(&c, geom(80, 128), occ(128, 12, 0));

	ck_assert_str_eq(m.bound, "compute");
	ck_assert_double_eq_tol(m.mwp, 13.125, 1e-9);
	ck_assert_double_eq_tol(m.cwp, 1648.0 / 808, 1e-12);
	ck_assert_double_eq_tol(m.cycles, 16580, 1e-6);
	ck_assert_double_eq(m.sync_cycles, 0);
}
END_TEST

/* Not enough warps: 32 blocks of one warp, 2 per SM (8000 bytes of shared
 * memory each take half the SM), so N = 2; per thread 10 fp32, 4 coalesced
 * loads.  Comp_cycles = 56, Mem_cycles = 1680, MWP = min(105, 13.125, 2) = 2
 * = N, CWP = min(1736 / 56 = 31, 2) = 2 = N:
 *   cycles = 1680 + 56 + 56 / 4 x (2 - 1) = 1750 */
START_TEST(test_not_enough_warps)
{
	struct gs_emu_occ o = occ(32, 8, 8000);
	struct gs_emu_counters c = counters(32, 10, 4, 2, 64, 0);
	struct gs_emu_model_out m;

	ck_assert_int_eq(o.blocks_per_sm, 2);
	m = model(&c, geom(32, 32), o);
	ck_assert_str_eq(m.bound, "latency");
	ck_assert_double_eq_tol(m.mwp, 2, 1e-12);
	ck_assert_double_eq_tol(m.cwp, 2, 1e-12);
	ck_assert_double_eq_tol(m.cycles, 1750, 1e-9);
}
END_TEST

/* The memory-bound example with one block more: a second wave of one
 * block on one SM (N = 4, the bandwidth of one SM):
 *   MWP = 2.28125, CWP = min(29.08, 4) = 4
 *   4380 x 4 / 2.28125 + 33.3125 = 7713.3125; Synch 430 x 6 x 1 = 2580
 *   total 51333.3125 + 10293.3125 = 61626.625 */
START_TEST(test_partial_wave)
{
	struct gs_emu_counters c = counters(81 * 4, 27, 6, 32, 32, 6);
	struct gs_emu_model_out m = model(&c, geom(81, 128), occ(128, 12, 0));

	ck_assert_int_eq(m.rep, 2);
	ck_assert_double_eq_tol(m.cycles, 61626.625, 1e-6);
	ck_assert_int_eq(m.active_warps, 20);
}
END_TEST

/* A grid smaller than a wave: the partial wave is all there is.  16 blocks
 * of 128 threads, one per SM: N = 4, 16 active SMs. */
START_TEST(test_grid_under_one_wave)
{
	struct gs_emu_counters c = counters(16 * 4, 27, 6, 32, 32, 6);
	struct gs_emu_model_out m = model(&c, geom(16, 128), occ(128, 12, 0));

	ck_assert_int_eq(m.rep, 1);
	ck_assert_int_eq(m.active_warps, 4);
	ck_assert_double_eq_tol(m.cycles, 10293.3125, 1e-6);
}
END_TEST

/* The register cliff of Ryoo et al.: 96 blocks of 256 threads, per thread 4
 * fp32 and 2 coalesced loads (Comp_cycles 24, Mem_cycles 840, MWP at most
 * 13.125).  10 registers: 3 blocks, N = 24, memory bound,
 *   840 x 24 / 13.125 + 24 / 2 x 12.125 = 1681.5 a wave, 2 waves = 3363;
 * 11 registers: 2 blocks, N = 16: 1024 + 145.5 = 1169.5, 3 waves = 3508.5;
 * 24 registers: 1 block, N = 8 = MWP = CWP: 840 + 24 + 12 x 7 = 948, 6 waves
 * = 5688. */
START_TEST(test_register_cliff)
{
	struct gs_emu_counters c = counters(96 * 8, 4, 2, 2, 64, 0);
	struct gs_emu_model_out m10 = model(&c, geom(96, 256), occ(256, 10, 0));
	struct gs_emu_model_out m11 = model(&c, geom(96, 256), occ(256, 11, 0));
	struct gs_emu_model_out m24 = model(&c, geom(96, 256), occ(256, 24, 0));

	ck_assert_double_eq_tol(m10.cycles, 3363, 1e-6);
	ck_assert_double_eq_tol(m11.cycles, 3508.5, 1e-6);
	ck_assert_double_eq_tol(m24.cycles, 5688, 1e-6);
	ck_assert_str_eq(m10.bound, "memory");
	ck_assert_str_eq(m24.bound, "latency");
	ck_assert_int_eq(m10.rep, 2);
	ck_assert_int_eq(m11.rep, 3);
	ck_assert_int_eq(m24.rep, 6);
	ck_assert(m10.ms < m11.ms && m11.ms < m24.ms);
}
END_TEST

/* Coalescing: the same loads uncoalesced cost more; bank conflicts add a
 * half-warp pass (2 cycles on 16 banks) per replay: 10 replays a warp on the
 * compute-bound case make Comp_cycles 828 and the time 420 + 828 x 20. */
START_TEST(test_conflicts_and_coalescing)
{
	struct gs_emu_counters coal = counters(80 * 4, 27, 6, 2, 64, 6);
	struct gs_emu_counters uncoal = counters(80 * 4, 27, 6, 32, 32, 6);
	struct gs_emu_counters conf = counters(80 * 4, 200, 2, 2, 64, 0);
	struct gs_emu_model_out a = model(&coal, geom(80, 128), occ(128, 12, 0));
	struct gs_emu_model_out b = model(&uncoal, geom(80, 128), occ(128, 12, 0));
	struct gs_emu_model_out m;

	ck_assert(b.cycles > 2 * a.cycles);
	conf.bank_conflicts = 10 * conf.warps;
	m = model(&conf, geom(80, 128), occ(128, 12, 0));
	ck_assert_double_eq_tol(m.comp_cycles, 828, 1e-9);
	ck_assert_double_eq_tol(m.cycles, 420 + 828 * 20, 1e-6);
}
END_TEST

/* Ryoo et al.: 16 blocks of 256 threads, 100 instructions a thread, 4
 * global loads and 3 barriers a thread, 3 blocks per SM:
 *   efficiency = 1 / (100 x 4096)
 *   Regions = 1 + 4 + 3 = 8; W_TB = 8; B_SM = 3
 *   utilization = 100 / 8 x ((8 - 1) / 2 + 2 x 8) = 12.5 x 19.5 = 243.75 */
START_TEST(test_efficiency_utilization)
{
	struct gs_emu_counters c = counters(16 * 8, 93, 4, 2, 64, 3);
	struct gs_emu_model_out m = model(&c, geom(16, 256), occ(256, 10, 0));

	ck_assert_double_eq_tol(m.efficiency, 1.0 / 409600, 1e-18);
	ck_assert_double_eq_tol(m.utilization, 243.75, 1e-9);
}
END_TEST

START_TEST(test_deterministic_and_refusals)
{
	struct gs_emu_counters c = counters(96 * 8, 4, 2, 2, 64, 1);
	struct gs_emu_occ o = occ(256, 10, 0);
	struct gs_emu_geom g = geom(96, 256);
	struct gs_emu_model_out a, b;

	ck_assert_int_eq(gs_emu_model(g80(), &c, &g, &o, &a), 0);
	ck_assert_int_eq(gs_emu_model(g80(), &c, &g, &o, &b), 0);
	ck_assert_int_eq(memcmp(&a, &b, sizeof a), 0);
	o.blocks_per_sm = 0;
	ck_assert_int_eq(gs_emu_model(g80(), &c, &g, &o, &a), -1);
}
END_TEST

/* Without memory instructions the warps only issue: Comp_cycles x N. */
START_TEST(test_no_memory)
{
	struct gs_emu_counters c = counters(80 * 4, 50, 0, 0, 0, 0);
	struct gs_emu_model_out m = model(&c, geom(80, 128), occ(128, 12, 0));

	ck_assert_str_eq(m.bound, "compute");
	ck_assert_double_eq_tol(m.cycles, 200 * 20, 1e-9);
}
END_TEST

/* The interval model's loaded latency: one block per SM whose chain is
 * DRAM latency in part.  Without misses on the chain the time is the larger
 * of the SM and DRAM bounds; with them, DRAM's queue stretches the waiting
 * part of the chain.  With one server that is the M/M/1 queue, the larger
 * root of t^2 - (S + D) t + (S - W) D; with the H100's eight (fitted to
 * scripts/bench/ubench/loaded.cu) Sakasegawa's M/M/c approximation. */
START_TEST(test_interval_loaded_latency)
{
	const struct gs_emu_profile *h100 = gs_emu_profile_find("sm_90");
	ck_assert_ptr_nonnull(h100);
	ck_assert_int_eq(h100->dram_servers, 8);
	/* the same device with one server: the M/M/1 queue, in closed form */
	struct gs_emu_profile one = *h100;
	one.dram_servers = 0;
	const struct gs_emu_profile *ps[2] = { &one, h100 };
	unsigned grid[3] = { (unsigned)h100->sms, 1, 1 }, block[3] = { 32, 1, 1 };
	struct gs_emu_occ occ = { .blocks_per_sm = 1 };
	double hz = h100->clock_mhz * 1e6, w = 1, t[2];
	for (int k = 0; k < 2; k++) {
		const struct gs_emu_profile *p = ps[k];
		for (int with_misses = 0; with_misses < 2; with_misses++) {
			struct gs_emu_blockstat st = { 0 };
			st.chain = 10000;
			st.chain_misses = with_misses ? 10 : 0;
			/* every sector read once: all of the L2 traffic goes to DRAM */
			st.l1_miss = st.nsectors = 2000;
			struct gs_emu_interval iv;
			ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, &st, &w, 1, 0, &iv), 0);
			double d = (double)p->sms * 2000 * 32 / (p->dram_bw_gbs * 1e9) * hz;
			double s = 10000 + st.chain_misses * (p->mem_latency - p->lat_l2);
			double wait = st.chain_misses * p->mem_latency;
			ck_assert_double_eq_tol(iv.t_dram, d, 1e-6);
			if (!with_misses) {
				ck_assert_double_eq_tol(iv.cycles, s > d ? s : d, 1e-6);
				continue;
			}
			double c = k ? 8 : 1, rho = d / iv.cycles;
			double q = pow(rho, sqrt(2 * (c + 1)) - 1) / (c * (1 - rho));
			/* the time is the root of t = (s - W) + W (1 + Q(d / t)) */
			ck_assert_double_eq_tol(iv.cycles, (s - wait) + wait * (1 + q), 1e-6 * iv.cycles);
			if (!k) {
				double want = (s + d + sqrt((s + d) * (s + d) - 4 * (s - wait) * d)) / 2;
				ck_assert_double_eq_tol(iv.cycles, want, 1e-6 * want);
			}
			ck_assert(iv.cycles > s && iv.cycles > d);
			t[k] = iv.cycles;
		}
	}
	/* eight servers wait less than one at the same load */
	ck_assert(t[1] < t[0]);
	/* A wave whose issue hides the chain at idle (16000 cycles of FFMAs
	 * against a chain of 14120) does not hide it at 80% of DRAM's
	 * bandwidth: the queue grows the chain past the issue, and the time
	 * is the root of t = max(issue, chain + W Q(d / t)). */
	{
		struct gs_emu_blockstat st = { 0 };
		st.chain = 10000;
		st.chain_misses = 10;
		st.c.warp_inst[GS_EMU_FP32] = 64000;
		st.l1_miss = st.nsectors = 5000;
		struct gs_emu_interval iv;
		ck_assert_int_eq(gs_emu_interval_model(h100, grid, block, &occ, &st, &w, 1, 0, &iv), 0);
		double s = 10000 + 10 * (h100->mem_latency - h100->lat_l2), wait = 10 * h100->mem_latency;
		ck_assert_double_eq_tol(iv.per_block_issue, 16000, 1e-9);
		ck_assert(s < 16000 && iv.t_dram < 16000);
		double rho = iv.t_dram / iv.cycles, q = pow(rho, sqrt(18) - 1) / (8 * (1 - rho));
		ck_assert(iv.cycles > 16000);
		ck_assert_double_eq_tol(iv.cycles, s + wait * q, 1e-6 * iv.cycles);
		ck_assert_str_eq(iv.bound, "dram latency");
	}
	/* the queue against the H100's loaded latencies (loaded.cu): at 71, 86
	 * and 91% of the bandwidth, 1.14, 1.53 and 2.04 times the idle wait */
	const double rho[3] = { 2336.0 / 3286, 2814.0 / 3286, 2994.0 / 3286 }, want[3] = { 1.14, 1.53, 2.04 };
	for (int i = 0; i < 3; i++)
		ck_assert_double_eq_tol(1 + pow(rho[i], sqrt(18) - 1) / (8 * (1 - rho[i])), want[i], 0.01);
}
END_TEST

/* The block scheduler: 1000 blocks of one warp per SM, each a few
 * instructions, run no faster than one per block_launch_cycles +
 * warp_launch_cycles (157 + 2.5 on the H100, blocks.cu), and the bound
 * says so; a block of 8 warps costs 8 warp launches. */
START_TEST(test_interval_block_launch)
{
	const struct gs_emu_profile *p = gs_emu_profile_find("sm_90");
	ck_assert_double_eq_tol(p->block_launch_cycles, 157, 1e-12);
	ck_assert_double_eq_tol(p->warp_launch_cycles, 2.5, 1e-12);
	unsigned grid[3] = { (unsigned)p->sms * 1000, 1, 1 }, block[3] = { 32, 1, 1 };
	struct gs_emu_occ occ = { .blocks_per_sm = 32 };
	struct gs_emu_blockstat st = { 0 };
	st.c.warp_inst[GS_EMU_INT] = 10;
	st.chain = 100;
	double w = 1;
	struct gs_emu_interval iv;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, &st, &w, 1, 0, &iv), 0);
	ck_assert_str_eq(iv.bound, "launch");
	ck_assert_double_eq_tol(iv.per_block_issue, 157 + 2.5, 1e-9);
	ck_assert_double_eq_tol(iv.cycles, 1000 * (157 + 2.5), 1e-6);
	block[0] = 256;
	occ.blocks_per_sm = 8;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, &st, &w, 1, 0, &iv), 0);
	ck_assert_double_eq_tol(iv.cycles, 1000 * (157 + 8 * 2.5), 1e-6);
	/* a block with more work than that is bound by its work */
	st.c.warp_inst[GS_EMU_FP32] = 4000;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, &st, &w, 1, 0, &iv), 0);
	ck_assert_str_ne(iv.bound, "launch");
	ck_assert(iv.per_block_issue > 157 + 8 * 2.5);
}
END_TEST

/* DRAM traffic, reads and writes apart: a block that reads 1000 sectors
 * and writes 1000 others (a copy, emucopy.h) moves both, each up to the
 * allocations it touched; the loads' DRAM share is the reads'. */
START_TEST(test_interval_dram_rw)
{
	struct gs_test_copy c;
	gs_test_copy_init(&c);
	const struct gs_emu_profile *p = c.p;
	double hz = p->clock_mhz * 1e6, bytes = 4.0 * p->sms * 1000 * 32;
	struct gs_emu_interval iv;
	ck_assert_int_eq(gs_test_copy_model(&c, NULL, &iv), 0);
	ck_assert_double_eq_tol(iv.dram_bytes, 2 * bytes, 1e-6);
	ck_assert_double_eq_tol(iv.t_dram, 2 * bytes / p->dram_bw_gbs / 1e9 * hz, 1e-6 * iv.t_dram);
	ck_assert_double_eq_tol(iv.l2_hit, 0, 1e-12);
	/* the allocations touched cap each: 8 KB to read, 16 KB to write */
	double cap[2] = { 8192, 16384 };
	ck_assert_int_eq(gs_test_copy_model(&c, cap, &iv), 0);
	ck_assert_double_eq_tol(iv.dram_bytes, 8192 + 16384, 1e-6);
	/* the loads' misses: DRAM serves 8 KB of the reads, L2 the rest */
	ck_assert_double_eq_tol(iv.l2_hit, 1 - 8192 / bytes, 1e-12);
}
END_TEST

/* The fetch term (icache.c) against the H100's measured figures
 * (results/ubench-icache-h100.txt): nothing up to the scheduler's 32 KiB,
 * the measured excess a full capacity past it, half of it half way, the
 * second level's past 128 KiB; interpolation in log2 of the warps. */
START_TEST(test_fetch_excess)
{
	const struct gs_emu_profile *p = gs_emu_profile_find("sm_90");
	ck_assert_ptr_nonnull(p);
	ck_assert_double_eq_tol(p->fetch_l0_bytes, 32768, 1e-12);
	ck_assert_double_eq_tol(p->fetch_l1_bytes, 131072, 1e-12);
	ck_assert_double_eq_tol(gs_emu_fetch_excess(p, 16384, 1), 0, 1e-12);
	ck_assert_double_eq_tol(gs_emu_fetch_excess(p, 32768, 1), 0, 1e-12);
	ck_assert_double_eq_tol(gs_emu_fetch_excess(p, 65536, 1), 1.4, 1e-12);
	ck_assert_double_eq_tol(gs_emu_fetch_excess(p, 65536, 0.25), 1.4, 1e-12);
	ck_assert_double_eq_tol(gs_emu_fetch_excess(p, 65536, 16), 0.27, 1e-12);
	ck_assert_double_eq_tol(gs_emu_fetch_excess(p, 65536, 64), 0.27, 1e-12);
	ck_assert_double_eq_tol(gs_emu_fetch_excess(p, 49152, 16), 0.135, 1e-12);
	/* 2 warps: half way from 1 to 4 in log2 */
	ck_assert_double_eq_tol(gs_emu_fetch_excess(p, 65536, 2), (1.4 + 1.13) / 2, 1e-12);
	/* past the SM's 128 KiB: the second level's excess a capacity on */
	ck_assert_double_eq_tol(gs_emu_fetch_excess(p, 131072, 8), 0.39, 1e-12);
	ck_assert_double_eq_tol(gs_emu_fetch_excess(p, 262144, 8), 0.66, 1e-12);
	ck_assert_double_eq_tol(gs_emu_fetch_excess(p, 196608, 1), 1.4 + (4.85 - 1.4) / 2, 1e-12);
	/* a profile without the keys has no such term */
	const struct gs_emu_profile *a = gs_emu_profile_find("sm_80");
	ck_assert_ptr_nonnull(a);
	ck_assert_double_eq_tol(gs_emu_fetch_excess(a, 1 << 20, 1), 0, 1e-12);
}
END_TEST

/* A loop of known size in the interval model: 4,096 fp32 instructions a
 * block, all in a loop spanning 4,096 PTX instructions (64 KiB).  At 16
 * warps a scheduler (16 blocks of 4 warps) each scheduler's 1,024 take
 * 0.27 cycles more each: 276.48 on the 1,024 cycles of issue, which is
 * still "fp32"-bound; one block of one warp pays 1.4 each and is "fetch".
 * A 16 KiB loop pays nothing. */
START_TEST(test_interval_fetch)
{
	const struct gs_emu_profile *p = gs_emu_profile_find("sm_90");
	ck_assert_ptr_nonnull(p);
	double w = 1;
	for (int c = 0; c < 3; c++) {
		unsigned block[3] = { c == 1 ? 32u : 128u, 1, 1 };
		unsigned grid[3] = { (unsigned)p->sms * (c == 1 ? 1u : 16u), 1, 1 };
		struct gs_emu_occ occ = { .blocks_per_sm = c == 1 ? 1 : 16 };
		struct gs_emu_blockstat st = { 0 };
		st.c.warp_inst[GS_EMU_FP32] = 4096;
		st.loop_ins = c == 2 ? 1024 : 4096;
		st.loop_share = 1;
		struct gs_emu_interval iv;
		ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, &st, &w, 1, 0, &iv), 0);
		double want = c == 0 ? 0.27 * 1024 : c == 1 ? 1.4 * 1024 : 0;
		ck_assert_double_eq_tol(iv.loop_bytes, st.loop_ins * 16.0, 1e-9);
		ck_assert_double_eq_tol(iv.per_block_fetch, want, 1e-9);
		ck_assert_double_eq_tol(iv.per_block_issue, 1024 + want, 1e-9);
		ck_assert_str_eq(iv.bound, c == 1 ? "fetch" : "fp32");
		/* the machine code's bytes, where the cubin gave them, stand for the
		 * PTX's: 1,024 PTX instructions that ptxas unrolled into 64 KiB */
		st.loop_ins = 1024;
		st.code_bytes = 65536;
		ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, &st, &w, 1, 0, &iv), 0);
		ck_assert_double_eq_tol(iv.loop_bytes, 65536, 1e-9);
		ck_assert_double_eq_tol(iv.per_block_fetch, c == 1 ? 1.4 * 1024 : 0.27 * 1024, 1e-9);
	}
}
END_TEST

/* Integer work on two pipes (pipes.c), with a profile's own figures so that
 * the cycles are known by hand: 64 integer ALU lanes (issue.int 0.5), 128
 * fp32 lanes (issue.fp32 0.25), 64 integer lanes lent by the FMA pipe. */
START_TEST(test_pipes_int_on_fma)
{
	struct gs_emu_profile p = { 0 };
	p.issue_cycles[GS_EMU_INT] = 0.5;
	p.issue_cycles[GS_EMU_FP32] = 0.25;
	p.issue_cycles[GS_EMU_SFU] = 2;
	double inst[GS_EMU_NCLASS] = { 0 };
	int pipe = -1;
	/* 1,000 integer instructions alone: 500 cycles on the ALU, 250 on both */
	inst[GS_EMU_INT] = 1000;
	ck_assert_double_eq_tol(gs_emu_pipe_cycles(&p, inst, &pipe), 500, 1e-9);
	ck_assert_int_eq(pipe, GS_EMU_INT);
	p.int_fma_lanes = 64;
	ck_assert_double_eq_tol(gs_emu_pipe_cycles(&p, inst, &pipe), 250, 1e-9);
	ck_assert_int_eq(pipe, GS_EMU_INT);
	/* with 1,000 fp32 besides, all 192 lanes share 2,000 instructions:
	 * 32 x 2000 / 192 cycles, more than either alone (250) */
	inst[GS_EMU_FP32] = 1000;
	ck_assert_double_eq_tol(gs_emu_pipe_cycles(&p, inst, &pipe), 32.0 * 2000 / 192, 1e-9);
	/* fp32 alone keeps its own bound: 4,000 of them take 1,000 cycles, and
	 * 100 integer ones fit on the ALU beside them */
	inst[GS_EMU_INT] = 100;
	inst[GS_EMU_FP32] = 4000;
	ck_assert_double_eq_tol(gs_emu_pipe_cycles(&p, inst, &pipe), 1000, 1e-9);
	ck_assert_int_eq(pipe, GS_EMU_FP32);
	/* another class's pipe still binds on its own */
	inst[GS_EMU_SFU] = 1000;
	ck_assert_double_eq_tol(gs_emu_pipe_cycles(&p, inst, &pipe), 2000, 1e-9);
	ck_assert_int_eq(pipe, GS_EMU_SFU);
}
END_TEST

/* ---- sass.c: load windows from the machine code ---------------------------------- */

/* One 128-bit instruction: opcode, the scoreboard it releases (7: none) and
 * the scoreboards it waits for. */
static void sass_put(unsigned char *code, size_t i, unsigned op, unsigned wb, unsigned wait)
{
	unsigned char *p = code + 16 * i;
	memset(p, 0, 16);
	p[0] = (unsigned char)op;
	p[1] = (unsigned char)(op >> 8 & 0xf);
	for (unsigned b = 0; b < 3; b++)
		p[(110 + b) >> 3] |= (unsigned char)((wb >> b & 1) << ((110 + b) & 7));
	for (unsigned b = 0; b < 6; b++)
		p[(116 + b) >> 3] |= (unsigned char)((wait >> b & 1) << ((116 + b) & 7));
}

#define LDG 0x981
#define STS 0x388
#define FFMA 0x223

START_TEST(test_sass_windows)
{
	unsigned char code[16 * 16];
	uint8_t *w;
	size_t n;
	/* a tile's loads written to one register: each store waits for the load
	 * before it, and the next load comes after the store */
	for (int i = 0; i < 4; i++) {
		sass_put(code, 2 * i, LDG, 2, 0);
		sass_put(code, 2 * i + 1, STS, 7, 1u << 2);
	}
	ck_assert_int_eq(gs_emu_sass_windows(code, 8 * 16, 90, &w, &n), 0);
	ck_assert_uint_eq(n, 4);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(w[i], 1);
	free(w);
	/* four loads on four scoreboards before the first store: four in flight */
	for (int i = 0; i < 4; i++) {
		sass_put(code, i, LDG, 2 + i, 0);
		sass_put(code, 4 + i, STS, 7, 1u << (2 + i));
	}
	ck_assert_int_eq(gs_emu_sass_windows(code, 8 * 16, 90, &w, &n), 0);
	ck_assert_uint_eq(n, 4);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(w[i], 4);
	free(w);
	/* three in flight, the fourth after the first one's store: 3, 3, 3 and
	 * the fourth overlaps the second and third only */
	sass_put(code, 0, LDG, 2, 0);
	sass_put(code, 1, LDG, 3, 0);
	sass_put(code, 2, LDG, 4, 0);
	sass_put(code, 3, STS, 7, 1u << 2);
	sass_put(code, 4, LDG, 2, 0);
	sass_put(code, 5, STS, 7, 1u << 3);
	sass_put(code, 6, STS, 7, 1u << 4);
	sass_put(code, 7, STS, 7, 1u << 2);
	ck_assert_int_eq(gs_emu_sass_windows(code, 8 * 16, 90, &w, &n), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(w[0], 3);
	ck_assert_uint_eq(w[1], 3);
	ck_assert_uint_eq(w[2], 3);
	ck_assert_uint_eq(w[3], 3);
	free(w);
	/* loads sharing a scoreboard, released by one wait: all of them */
	for (int i = 0; i < 6; i++)
		sass_put(code, i, LDG, 5, 0);
	sass_put(code, 6, FFMA, 7, 1u << 5);
	ck_assert_int_eq(gs_emu_sass_windows(code, 7 * 16, 90, &w, &n), 0);
	ck_assert_uint_eq(n, 6);
	for (int i = 0; i < 6; i++)
		ck_assert_uint_eq(w[i], 6);
	free(w);
	/* sm_75 spells LDG 0x381; 0x981 is something else there */
	ck_assert_int_eq(gs_emu_sass_windows(code, 7 * 16, 75, &w, &n), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(w);
	/* an architecture whose encoding is not known: nothing */
	ck_assert_int_eq(gs_emu_sass_windows(code, 7 * 16, 100, &w, &n), -1);
	ck_assert_ptr_null(w);
	/* a truncated instruction at the end is not read */
	ck_assert_int_eq(gs_emu_sass_windows(code, 15, 90, &w, &n), 0);
	ck_assert_uint_eq(n, 0);
}
END_TEST

/* One 128-bit instruction from cuobjdump's two 64-bit words. */
static void sass_word(unsigned char *code, size_t i, uint64_t lo, uint64_t hi)
{
	for (int b = 0; b < 8; b++) {
		code[16 * i + b] = (unsigned char)(lo >> 8 * b);
		code[16 * i + 8 + b] = (unsigned char)(hi >> 8 * b);
	}
}

/* Loops read off the machine code: the longest backward BRA's span.  The
 * branches are NVRTC's for sm_90 (cuobjdump -sass): "@P0 BRA 0x7e0" at
 * 0x50, "@P1 BRA 0x310" at 0x9b0, and the trap "BRA 0xa80" at 0xa80. */
START_TEST(test_sass_loops)
{
	unsigned char code[16 * 200];
	size_t loop;
	memset(code, 0, sizeof code);
	for (size_t i = 0; i < 200; i++)
		sass_put(code, i, FFMA, 7, 0);
	/* straight code: no loop */
	ck_assert_int_eq(gs_emu_sass_loops(code, sizeof code, 90, &loop), 0);
	ck_assert_uint_eq(loop, 0);
	/* a forward branch and a branch to itself are no loop */
	sass_word(code, 0x50 / 16, 0x0000000400e00947ull, 0x000fea0003800000ull);
	sass_word(code, 0xa80 / 16, 0xfffffffc00fc7947ull, 0x000fc0000383ffffull);
	ck_assert_int_eq(gs_emu_sass_loops(code, sizeof code, 90, &loop), 0);
	ck_assert_uint_eq(loop, 0);
	/* 0x310 to 0x9b0, the branch included */
	sass_word(code, 0x9b0 / 16, 0xfffffff800541947ull, 0x000fea000383ffffull);
	ck_assert_int_eq(gs_emu_sass_loops(code, sizeof code, 90, &loop), 0);
	ck_assert_uint_eq(loop, 0x9c0 - 0x310);
	/* the same branch at 0xc00 closes a loop from 0x560 of the same span;
	 * at 0x100 it would reach before the code: not a loop */
	sass_word(code, 0xc00 / 16, 0xfffffff800541947ull, 0x000fea000383ffffull);
	sass_word(code, 0x100 / 16, 0xfffffff800541947ull, 0x000fea000383ffffull);
	ck_assert_int_eq(gs_emu_sass_loops(code, sizeof code, 90, &loop), 0);
	ck_assert_uint_eq(loop, 0x6b0);
	/* an architecture whose encoding is not known */
	ck_assert_int_eq(gs_emu_sass_loops(code, sizeof code, 100, &loop), -1);
	ck_assert_uint_eq(loop, 0);
}
END_TEST

/* Forward transfers read off the machine code: forward BRAs and
 * predicated EXITs, not backward BRAs, the trap, or the last EXIT.  The
 * words are NVRTC's for sm_90 (nvdisasm -hex): "@P0 EXIT" at 0xc0, "@P0
 * BRA" forward at 0x1b0 and backward at 0xbf0, "EXIT" at 0xc70, the trap
 * "BRA" to itself at 0xc80. */
START_TEST(test_sass_forward)
{
	unsigned char code[16 * 220];
	size_t n;
	memset(code, 0, sizeof code);
	for (size_t i = 0; i < 220; i++)
		sass_put(code, i, FFMA, 7, 0);
	ck_assert_int_eq(gs_emu_sass_forward(code, sizeof code, 90, &n), 0);
	ck_assert_uint_eq(n, 0);
	sass_word(code, 0xc0 / 16, 0x000000000000094dull, 0x000fea0003800000ull);
	sass_word(code, 0x1b0 / 16, 0x0000000800800947ull, 0x000fea0003800000ull);
	sass_word(code, 0xbf0 / 16, 0xfffffff400540947ull, 0x000fea000383ffffull);
	sass_word(code, 0xc70 / 16, 0x000000000000794dull, 0x000fea0003800000ull);
	sass_word(code, 0xc80 / 16, 0xfffffffc00fc7947ull, 0x000fc0000383ffffull);
	ck_assert_int_eq(gs_emu_sass_forward(code, sizeof code, 90, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(gs_emu_sass_forward(code, sizeof code, 100, &n), -1);
}
END_TEST

/* An instruction's stall count, bits 105..108 of its control bits. */
static void sass_stall(unsigned char *code, size_t i, unsigned stall)
{
	for (unsigned b = 0; b < 4; b++) {
		unsigned bit = 105 + b;
		code[16 * i + (bit >> 3)] &= (unsigned char)~(1u << (bit & 7));
		code[16 * i + (bit >> 3)] |= (unsigned char)((stall >> b & 1) << (bit & 7));
	}
}

/* A warp's issue gap: the mean stall count over its loops' code, or over
 * all of it where there is no loop; NOPs and the trap left out, a stall
 * count of 0 taken as 1. */
START_TEST(test_sass_gap)
{
	unsigned char code[16 * 200];
	double gap;
	memset(code, 0, sizeof code);
	for (size_t i = 0; i < 200; i++) {
		sass_put(code, i, FFMA, 7, 0);
		sass_stall(code, i, 4);
	}
	sass_stall(code, 0, 0);
	sass_put(code, 199, 0x918, 7, 0); /* a NOP */
	sass_stall(code, 199, 15);
	/* no loop: the whole code but the NOP, the first instruction at 1 */
	ck_assert_int_eq(gs_emu_sass_gap(code, sizeof code, 90, &gap), 0);
	ck_assert_double_eq_tol(gap, (198 * 4 + 1) / 199.0, 1e-12);
	/* the loop from 0x310 to its branch at 0x9b0 (stall 5, NVRTC's word):
	 * 106 instructions at 2 and the branch; the rest at 4 is not counted */
	for (size_t i = 0x310 / 16; i < 0x9b0 / 16; i++)
		sass_stall(code, i, 2);
	sass_word(code, 0x9b0 / 16, 0xfffffff800541947ull, 0x000fea000383ffffull);
	ck_assert_int_eq(gs_emu_sass_gap(code, sizeof code, 90, &gap), 0);
	ck_assert_double_eq_tol(gap, (106 * 2 + 5) / 107.0, 1e-12);
	/* empty code: not known; an unknown architecture: an error */
	ck_assert_int_eq(gs_emu_sass_gap(code, 0, 90, &gap), 0);
	ck_assert_double_eq(gap, 0);
	ck_assert_int_eq(gs_emu_sass_gap(code, sizeof code, 100, &gap), -1);
}
END_TEST

/* The measured terms of interval-9 and after (profiles/sm_90.profile): global atomics
 * bound the grid by the busiest sector's warp requests, 9.46 ns each, when
 * two sampled blocks share the sector (one block's own sector counts once);
 * one-word constant loads leave the LSU's pipe but not the issue; shuffles
 * take their own port at 1.01 cycles; sectors stored in part are the L2's
 * one after another (interval-17); local memory at its measured rates
 * (interval-18). */
START_TEST(test_interval_measured_terms)
{
	const struct gs_emu_profile *p = gs_emu_profile_find("sm_90");
	ck_assert_double_eq_tol(p->atom_sector_ns, 9.46, 1e-12);
	ck_assert_double_eq_tol(p->shfl_cycles, 1.01, 1e-12);
	ck_assert_double_eq_tol(p->const_cycles[1], 4.10, 1e-12);
	unsigned grid[3] = { 1000, 1, 1 }, block[3] = { 256, 1, 1 };
	struct gs_emu_occ occ = { .blocks_per_sm = 8 };
	struct gs_emu_atomsec a0[2] = { { 7, 100 }, { 9, 1 } }, a1[1] = { { 7, 100 } };
	struct gs_emu_blockstat st[2];
	memset(st, 0, sizeof st);
	st[0].c.warp_inst[GS_EMU_INT] = st[1].c.warp_inst[GS_EMU_INT] = 10;
	st[0].atom = a0;
	st[0].natom = 2;
	st[1].atom = a1;
	st[1].natom = 1;
	double w[2] = { 500, 500 }, hz = p->clock_mhz * 1e6;
	struct gs_emu_interval iv;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, st, w, 2, 0, &iv), 0);
	ck_assert_str_eq(iv.bound, "atomics");
	ck_assert_double_eq_tol(iv.cycles, 1000 * 100 * 9.46e-9 * hz, 1e-6 * iv.cycles);
	/* a sector only one sampled block touched is that block's alone: its
	 * 100 requests, not the grid's */
	st[1].natom = 0;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, st, w, 2, 0, &iv), 0);
	ck_assert_str_eq(iv.bound, "atomics");
	ck_assert_double_eq_tol(iv.cycles, 100 * 9.46e-9 * hz, 1e-6 * iv.cycles);
	/* 4000 loads of which 3500 one-word constant loads: the LSU's pipe sees
	 * 500, the schedulers all 4000 (1000 cycles on 4) */
	struct gs_emu_blockstat c = { 0 };
	c.c.warp_inst[GS_EMU_MEM] = 4000;
	c.const_uniform = 3500;
	double one = 1;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, &c, &one, 1, 0, &iv), 0);
	ck_assert_str_eq(iv.bound, "issue");
	ck_assert_double_eq_tol(iv.per_block_issue, 4000 / (p->subpartitions * p->issue_per_sub), 1e-9);
	/* 4000 shuffles: their port, 1.01 cycles each */
	struct gs_emu_blockstat f = { 0 };
	f.c.warp_inst[GS_EMU_OTHER] = 4000;
	f.shuffles = 4000;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, &f, &one, 1, 0, &iv), 0);
	ck_assert_str_eq(iv.bound, "shfl");
	ck_assert_double_eq_tol(iv.per_block_issue, 4000 * 1.01, 1e-9);
	/* interval-17: 1000 blocks storing 32,000 sectors each (1 GB), all of
	 * them in part: the L2 takes the grid's 32 M partial sectors one after
	 * another, 0.01054 ns each, where the 1 GB would take DRAM 0.3 ms */
	ck_assert_double_eq_tol(p->partial_write_ns, 0.01054, 1e-12);
	struct gs_emu_blockstat ps = { 0 };
	ps.c.warp_inst[GS_EMU_MEM] = 1000;
	ps.c.gst_inst = 1000;
	ps.st_sectors = ps.st_partial = 32000;
	ps.st_partial_w = 32000 * 100; /* four a line, interval-19 */
	double wps = 1000;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, &ps, &wps, 1, 0, &iv), 0);
	ck_assert_str_eq(iv.bound, "partial stores");
	ck_assert_double_eq_tol(iv.cycles, 32e6 * 0.01054e-9 * hz, 1e-6 * iv.cycles);
	/* the same sectors written whole: DRAM's write-back bounds it */
	ps.st_partial = ps.st_partial_w = 0;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, &ps, &wps, 1, 0, &iv), 0);
	ck_assert_str_ne(iv.bound, "partial stores");
	ck_assert(iv.cycles < 32e6 * 0.01054e-9 * hz);
	/* interval-18: a block of 1000 warp accesses of local memory a block,
	 * 400 of them stores, 1000 blocks, 256-byte frames.  2048 threads an
	 * SM hold 66 MiB of frames, more than the L2's 50 MiB: each SM takes
	 * its share of every access at 6.44 ns */
	ck_assert_double_eq_tol(p->local_st_ns, 4.04, 1e-12);
	ck_assert_double_eq_tol(p->local_far_ns, 6.44, 1e-12);
	struct gs_emu_blockstat lm = { 0 };
	lm.c.warp_inst[GS_EMU_MEM] = 1000;
	lm.c.lld_inst = 600;
	lm.c.lst_inst = 400;
	lm.local_frame = 256;
	struct gs_emu_occ full = { .blocks_per_sm = 8, .active_threads = 2048 };
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &full, &lm, &wps, 1, 0, &iv), 0);
	ck_assert_str_eq(iv.bound, "local memory");
	ck_assert_double_eq_tol(iv.cycles, 1000.0 * 1000 / p->sms * 6.44e-9 * hz, 1e-6 * iv.cycles);
	/* 512 threads an SM: 16.5 MiB fit the L2, the stores alone cost */
	full.active_threads = 512;
	full.blocks_per_sm = 2;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &full, &lm, &wps, 1, 0, &iv), 0);
	ck_assert_str_eq(iv.bound, "local memory");
	ck_assert_double_eq_tol(iv.cycles, 400.0 * 1000 / p->sms * 4.04e-9 * hz, 1e-6 * iv.cycles);
	/* no local access: no term */
	lm.c.lld_inst = lm.c.lst_inst = 0;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &full, &lm, &wps, 1, 0, &iv), 0);
	ck_assert_str_ne(iv.bound, "local memory");
}
END_TEST

/* The L1 term of interval-11 (l1lines.cu): 1000 warp loads of 4 sectors
 * each take 1000 cycles at 128 bytes a clock when each is one wavefront, and
 * 4000 when each is 4 (a tile of 8-wide rows 16 KiB apart), one a cycle. */
START_TEST(test_interval_l1_waves)
{
	const struct gs_emu_profile *p = gs_emu_profile_find("sm_90");
	ck_assert_double_eq_tol(p->l1_wave_cycles, 1.0, 1e-12);
	unsigned grid[3] = { 1000, 1, 1 }, block[3] = { 256, 1, 1 };
	struct gs_emu_occ occ = { .blocks_per_sm = 8 };
	struct gs_emu_blockstat b = { 0 };
	b.c.warp_inst[GS_EMU_MEM] = 1000;
	b.l1_hit = 4000;
	b.l1_waves = 1000;
	double one = 1;
	struct gs_emu_interval iv;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, &b, &one, 1, 0, &iv), 0);
	ck_assert_double_eq_tol(iv.per_block_issue, 4000 * 32 / p->l1_bw, 1e-9);
	b.l1_waves = 4000;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, &b, &one, 1, 0, &iv), 0);
	ck_assert_str_eq(iv.bound, "l1");
	ck_assert_double_eq_tol(iv.per_block_issue, 4000 * p->l1_wave_cycles, 1e-9);
}
END_TEST

/* The pacing of interval-12 (imbalance.cu): a grid whose sampled blocks
 * have chains of 100000 and 10000 cycles, half each, and no other work, on
 * 8 waves of the busiest SM: every wave but the last at the mean chain, the
 * last at the longest -- not 8 waves of the longest; equal chains as
 * before. */
START_TEST(test_interval_uneven_chains)
{
	const struct gs_emu_profile *p = gs_emu_profile_find("sm_90");
	unsigned bps = 8, grid[3] = { (unsigned)p->sms * bps * 8, 1, 1 }, block[3] = { 256, 1, 1 };
	struct gs_emu_occ occ = { .blocks_per_sm = (int)bps };
	struct gs_emu_blockstat st[2];
	memset(st, 0, sizeof st);
	st[0].c.warp_inst[GS_EMU_INT] = st[1].c.warp_inst[GS_EMU_INT] = 10;
	st[0].chain = 100000;
	st[1].chain = 10000;
	double w[2] = { grid[0] / 2.0, grid[0] / 2.0 };
	struct gs_emu_interval iv;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, st, w, 2, 0, &iv), 0);
	ck_assert_int_eq(iv.waves, 8);
	ck_assert_str_eq(iv.bound, "latency");
	ck_assert_double_eq_tol(iv.cycles, 7 * 55000.0 + 100000, 1e-6 * iv.cycles);
	ck_assert_double_eq_tol(iv.per_block_chain, 100000, 1e-9);
	st[1].chain = 100000;
	ck_assert_int_eq(gs_emu_interval_model(p, grid, block, &occ, st, w, 2, 0, &iv), 0);
	ck_assert_double_eq_tol(iv.cycles, 8 * 100000.0, 1e-6 * iv.cycles);
}
END_TEST

GS_TEST_MAIN(test_sass_windows, test_interval_block_launch, test_interval_dram_rw,
	     test_interval_uneven_chains, test_interval_measured_terms, test_interval_l1_waves, test_fetch_excess, test_interval_fetch, test_sass_loops, test_sass_forward, test_sass_gap, test_pipes_int_on_fma, test_interval_loaded_latency, test_memory_bound, test_compute_bound, test_not_enough_warps, test_partial_wave,
	     test_grid_under_one_wave, test_register_cliff, test_conflicts_and_coalescing,
	     test_efficiency_utilization, test_deterministic_and_refusals, test_no_memory)
