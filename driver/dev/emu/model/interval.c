/* interval.c — the emulated device's time at the real problem size: an
 * interval model in the spirit of Eyerman et al. (TOCS 2009) and of its GPU
 * forms (Huang et al., GPUMech, MICRO 2014; Hong & Kim, ISCA 2009 for the
 * bandwidth bound), fed by the blocks a sampled launch executed (probe.c).
 *
 * The sample's figures are averaged per block of the grid (each sampled
 * block weighted by the blocks it stands for).  Then, in SM cycles:
 *
 *   issue   one block's instructions on the SM's pipes, the busiest pipe
 *           (pipes.c: warp instructions x issue.CLASS [PG], integer work
 *           shared with the FMA pipe where the profile says so), and
 *           all of them over subpartitions x issue_per_sub schedulers;
 *   smem    shared-memory wavefronts, one per clock: warp accesses plus
 *           bank-conflict replays [PG];
 *   l1      the wavefronts of global and local loads in the L1's 32 data
 *           banks, counted as shared memory's and at most l1_wave_lines
 *           lines each, l1_wave_cycles each (l1lines.cu [L1]: a warp load of
 *           a tile of 8-wide rows 16 KiB apart takes 4 cycles, 32 sectors on
 *           32 banks in 8 lines 2), or the sectors the misses bring in at
 *           l1_bw bytes a clock when that is more (without l1_wave_lines,
 *           every sector);
 *   const   the constant cache's port: warp loads whose lanes read several
 *           words serialize (probe.c, const.wN [H100]); a load of one word
 *           a warp takes an issue slot but not the LSU's pipe;
 *   shfl    warp shuffles on their own port, shfl_cycles each [H100],
 *           taken off the pipe of their class ("other");
 *   chain   the block's longest warp, issued in order (probe.c), with the
 *           DRAM latency (mem_latency - lat.l2) added to the L1 misses on
 *           that path in the proportion L2 misses;
 *   launch  the block scheduler's: block_launch_cycles a block and
 *           warp_launch_cycles a warp of it, when that is longer than the
 *           rest [H100];
 *   fetch   added to the largest of the first three: the cycles a
 *           scheduler waits for its instructions when the loops' code
 *           outgrows the instruction caches, at the resident warps per
 *           scheduler (icache.c); the bound is "fetch" when it adds half
 *           of what it is added to or more.
 *
 * A wave of b blocks resident on an SM takes b x max(issue, smem, l1), the
 * throughput of the resident blocks, plus the latency they leave exposed:
 * probe.c splits each block at its barriers and, for every interval, adds
 * what of its longest warp's path (the interval model's "latency"
 * interval) b blocks' issue in that interval does not cover, the blocks
 * running in step.  A barrier drains the block, so with few blocks per
 * SM the load latency before each barrier shows; without barriers this is
 * max(b x issue, chain).  Never less than the chain itself (DRAM latency
 * added).  The bound is "latency" when the exposure adds half the issue
 * or more.  The busiest SM runs ceil(blocks / SMs)
 * blocks, in full waves of blocks_per_sm and a last partial one (waves and
 * tail).  Blocks of unequal chains (a sparse matrix's long rows) do not
 * hold their wave back: the block scheduler gives a slot its next block
 * as soon as one retires, so every wave but the last is paced by the
 * sample's mean chain (weighted as everything else), and the last by its
 * longest, a slot's last block starting just before the rest ran out
 * (scripts/bench/ubench/imbalance.cu, results/ubench-imbalance-h100.txt:
 * grids of every other or every eighth block ten times longer run within
 * 10 and 6% of that, where pacing every wave by its longest block is 49
 * and 203% too long).  The whole grid's traffic bounds the time too: L2 sectors (L1
 * load misses and every stored sector) at l2_bw_gbs, and DRAM bytes at
 * dram_bw_gbs, where DRAM bytes are the L2 traffic up to the grid's
 * footprint (distinct sectors of each sampled block, weighted by the blocks
 * it stands for as everything else is, scaled to the grid, at most the
 * allocations it touched): data reused through a 50 MB L2 is read from DRAM
 * once, and a written sector is written back once besides (probe.c lists it
 * apart).  Global atomics bound it too: the L2 serves the warp requests on
 * one 32-byte sector one after another, atom_sector_ns each (atom_cycles).
 * The time is the largest of the SM time, the L2 and atomics time and the DRAM
 * time, but where the SM time is DRAM latency on the chain, that latency
 * grows with DRAM's load (a queue, below), plus the launch overhead; the
 * bound is the term that set it ("dram latency": the queue), and what of
 * that term the model approximates is out->approx (confidence.c).
 *
 * Pure arithmetic on its inputs, in a fixed order. */
#include "dev/emu/model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const pipe_names[GS_EMU_NCLASS] = { "int", "fp32", "fp64", "sfu", "lsu",
						       "ctrl", "barrier", "other" };

/* The busiest SM's waves: `full` of bps blocks and one of `rest`, each as
 * long as its blocks' issue and exposed latency (busy) or its longest
 * chain, whichever is longer, the chain's DRAM wait grown by q, DRAM's
 * queueing (below). */
struct waves {
	double thr, exposed, chain, mem_wait;  /* chain: the mean block's */
	uint64_t full, rest, bps;
	double chain_max, wait_max;            /* the longest block's */
};

/* a wave of `blocks`: its issue and exposed latency, and its chain grown by q */
static double wave_busy(const struct waves *w, uint64_t blocks)
{
	return (double)blocks * w->thr + w->exposed;
}

static double wave_chain(const struct waves *w, double q, int last)
{
	return last ? w->chain_max + q * w->wait_max : w->chain + q * w->mem_wait;
}

static double wave_time(const struct waves *w, uint64_t blocks, double q, int last, int *latency)
{
	double busy = wave_busy(w, blocks), chain = wave_chain(w, q, last);
	if (latency)
		*latency = (chain > busy ? chain : busy) > (double)blocks * w->thr * 1.5;
	return chain > busy ? chain : busy;
}

static double sm_time(const struct waves *w, double q, int *latency)
{
	int lf = 0, lr = 0;
	double t = 0;
	/* the last wave is the partial one if there is one, else the last full one */
	uint64_t paced = w->rest || !w->full ? w->full : w->full - 1;
	if (paced)
		t += (double)paced * wave_time(w, w->bps, q, 0, &lf);
	if (w->rest)
		t += wave_time(w, w->rest, q, 1, &lr);
	else if (w->full)
		t += wave_time(w, w->bps, q, 1, &lf);
	if (latency)
		*latency = w->full ? lf : lr;
	return t;
}

/* DRAM's queueing at utilization rho, relative to the idle wait: an M/M/c
 * queue of c servers by Sakasegawa's approximation (below). */
static double queueing(double rho, int servers)
{
	double c = servers > 1 ? servers : 1;
	if (rho >= 1)
		return INFINITY;
	return pow(rho, sqrt(2 * (c + 1)) - 1) / (c * (1 - rho));
}

/* The time t at or above `lo` where t = max(floor, SM time with the queue
 * at DRAM's utilization d / t): the right side falls as t grows, so its
 * one root is found by bisection. */
static double loaded_time(const struct waves *w, double lo, double floor, double d, int servers)
{
	if (!(d > 0) || !(w->mem_wait > 0))
		return lo;
	double hi = 2 * lo + 1;
	for (int i = 0; i < 200; i++, hi *= 2) {
		double r = sm_time(w, queueing(d / hi, servers), NULL);
		if ((r > floor ? r : floor) <= hi)
			break;
	}
	for (int i = 0; i < 200 && hi - lo > 1e-9 * hi; i++) {
		double t = (lo + hi) / 2, r = sm_time(w, queueing(d / t, servers), NULL);
		if ((r > floor ? r : floor) > t)
			lo = t;
		else
			hi = t;
	}
	return hi;
}

/* The sample's sums, each block weighted by the blocks it stands for, and
 * the longest chain with its misses. */
struct sums {
	double wsum, inst[GS_EMU_NCLASS], smem, l1, waves, split, hit, miss, stores, exposed, ccyc, cuni,
		shfl;
	double distinct_r, distinct_w, loop_ins, loop_share, code_bytes, phase, win_sum, win_loads;
	double chain, misses;           /* the longest block's */
	double chain_sum, misses_sum;   /* weighted, for the mean block's */
	double atom, mem, partial, partial_w, refetch;
	double lld, lst, frame;         /* local loads and stores; the largest frame */
};

static void sum_sample(const struct gs_emu_blockstat *st, const double *weight, size_t n,
		       double dram, struct sums *s)
{
	for (size_t i = 0; i < n; i++) {
		const struct gs_emu_blockstat *b = &st[i];
		double w = weight[i];
		s->wsum += w;
		for (int c = 0; c < GS_EMU_NCLASS; c++)
			s->inst[c] += w * ((double)b->c.warp_inst[c] + b->xinst[c]);
		s->smem += w * ((double)(b->c.sld_inst + b->c.sst_inst + b->c.bank_conflicts) -
				b->smem_merged);
		s->ccyc += w * b->const_cycles;
		s->cuni += w * (double)b->const_uniform;
		s->shfl += w * (double)b->shuffles;
		s->l1 += w * (double)(b->l1_hit + b->l1_miss);
		s->waves += w * (double)b->l1_waves;
		s->split += w * (double)b->l1_split;
		s->hit += w * (double)b->l1_hit;
		s->miss += w * (double)b->l1_miss;
		s->stores += w * (double)b->st_sectors;
		s->atom += w * (double)b->c.atom_inst;
		s->mem += w * (double)(b->c.gld_inst + b->c.gst_inst + b->c.sld_inst + b->c.sst_inst +
				       b->c.lld_inst + b->c.lst_inst + b->c.atom_inst);
		s->partial += w * (double)b->st_partial;
		s->partial_w += w * (double)b->st_partial_w / 100;
		s->lld += w * (double)b->c.lld_inst;
		s->lst += w * (double)b->c.lst_inst;
		if ((double)b->local_frame > s->frame)
			s->frame = (double)b->local_frame;
		s->refetch += w * (double)b->refetch;
		/* the written sectors, flagged, sort last */
		size_t lo = 0, hi = b->nsectors;
		if (!b->sectors) /* counted, not listed: taken as read */
			lo = hi;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (b->sectors[mid] & GS_EMU_SECTOR_WRITTEN)
				hi = mid;
			else
				lo = mid + 1;
		}
		s->distinct_r += w * (double)lo;
		s->distinct_w += w * (double)(b->nsectors - lo);
		s->exposed += w * b->exposed;
		s->loop_ins += w * (double)b->loop_ins;
		s->loop_share += w * b->loop_share;
		s->code_bytes += w * b->code_bytes;
		s->phase += w * b->phase_excess;
		s->win_sum += w * b->win_sum;
		s->win_loads += w * (double)b->win_loads;
		s->chain_sum += w * b->chain;
		s->misses_sum += w * b->chain_misses;
		if (b->chain + b->chain_misses * dram > s->chain + s->misses * dram) {
			s->chain = b->chain;
			s->misses = b->chain_misses;
		}
	}
}

/* One block's throughput cycles on an SM, per block of the grid (s->inst,
 * s->smem and s->exposed are taken per block in place), and the term that
 * sets them in *sm_bound; the fetch term and the loops' bytes go to out. */
static double block_cycles(const struct gs_emu_profile *p, const unsigned block[3],
			   const struct gs_emu_occ *occ, struct sums *s, const char **sm_bound,
			   struct gs_emu_interval *out)
{
	double all = 0;
	int pipe = 0;
	for (int c = 0; c < GS_EMU_NCLASS; c++) {
		s->inst[c] /= s->wsum;
		all += s->inst[c];
	}
	/* the pipes without the constant cache's one-word loads (probe.c) */
	double pin[GS_EMU_NCLASS];
	memcpy(pin, s->inst, sizeof pin);
	pin[GS_EMU_MEM] -= s->cuni / s->wsum;
	/* and without the shuffles, which have their own port (below) */
	pin[GS_EMU_OTHER] -= s->shfl / s->wsum;
	double issue = gs_emu_pipe_cycles(p, pin, &pipe);
	double dispatch = all / (p->subpartitions * p->issue_per_sub);
	s->smem /= s->wsum;
	s->exposed /= s->wsum;
	/* with lines a wavefront (probe.c's waves), the sectors at l1_bw
	 * bound only the misses' fills: an L1 hit's bytes are the
	 * wavefronts' (results/ubench-l1skew-h200.txt) */
	double l1c = (p->l1_wave_lines >= 1 ? s->miss : s->l1) / s->wsum * 32 / p->l1_bw;
	double wc = (s->waves * p->l1_wave_cycles + s->split * p->l1_split_cycles) / s->wsum;
	if (wc > l1c)
		l1c = wc;
	double thr = issue;
	*sm_bound = pipe_names[pipe];
	if (dispatch > thr)
		thr = dispatch, *sm_bound = "issue";
	if (s->smem > thr)
		thr = s->smem, *sm_bound = "smem";
	if (l1c > thr)
		thr = l1c, *sm_bound = "l1";
	if (s->ccyc / s->wsum > thr)
		thr = s->ccyc / s->wsum, *sm_bound = "const";
	/* shuffles: 1.01 SM cycles each when nothing else is issued
	 * (scripts/bench/ubench/terms.cu, results/ubench-terms-h100.txt) */
	double shc = s->shfl / s->wsum * p->shfl_cycles;
	if (shc > thr)
		thr = shc, *sm_bound = "shfl";
	/* phases: a block whose warps run in step through a part of its code
	 * busy on one port and then a part busy on another leaves some of the
	 * shorter exposed (scripts/bench/ubench/phases.cu on the H100's SM,
	 * results/ubench-phases-h200.txt: half of it with four blocks an SM,
	 * two thirds with one, where the parts come once a thread) */
	if (p->phase_exposed > 0 && s->phase > 0) {
		double ph = p->phase_exposed * s->phase / s->wsum;
		if (ph >= 0.5 * thr)
			*sm_bound = "phases";
		thr += ph;
	}
	/* instruction fetch, at the warps each scheduler holds */
	double bpi = p->fetch_bytes_per_ins > 0 ? p->fetch_bytes_per_ins : 16;
	double loop_bytes = s->code_bytes > 0 ? s->code_bytes / s->wsum : s->loop_ins / s->wsum * bpi;
	double threads = (double)block[0] * block[1] * block[2];
	double wps = (double)occ->blocks_per_sm * ceil(threads / 32) / p->subpartitions;
	double fetch = gs_emu_fetch_excess(p, loop_bytes, wps) * s->loop_share / s->wsum * all /
		       p->subpartitions;
	if (fetch >= 0.5 * thr && fetch > 0)
		*sm_bound = "fetch";
	thr += fetch;
	/* An SM takes in a block no faster than the block scheduler gives it
	 * one, whatever the block does (scripts/bench/ubench/blocks.cu: 159
	 * to 238 cycles per block on the H100 for 1 to 32 warps, empty or
	 * not).  Grids of many small blocks with little work each run at
	 * that rate. */
	double launch = p->block_launch_cycles + ceil(threads / 32) * p->warp_launch_cycles;
	if (launch > thr) {
		thr = launch;
		*sm_bound = "launch";
	}
	out->per_block_fetch = fetch;
	out->loop_bytes = loop_bytes;
	return thr;
}

/* The grid's time in out->cycles and its bound in out->bound, from the
 * busiest SM's waves and the L2 and DRAM times; returns the SM time at
 * idle DRAM. */
static double grid_cycles(const struct gs_emu_profile *p, const struct waves *wv,
			  const char *sm_bound, double t_l2, double t_dram,
			  struct gs_emu_interval *out)
{
	int latency = 0;
	double t_sm = sm_time(wv, 0, &latency);
	out->cycles = t_sm;
	snprintf(out->bound, sizeof out->bound, "%s", latency ? "latency" : sm_bound);
	if (t_l2 > out->cycles) {
		out->cycles = t_l2;
		snprintf(out->bound, sizeof out->bound, "l2");
	}
	/* Loaded latency: a load waits in DRAM's queue longer the busier DRAM
	 * is.  With the time t, DRAM is busy rho = t_dram / t of it, and the
	 * chain's DRAM wait W at idle becomes W (1 + Q(rho)), Q the queueing
	 * of an M/M/c queue with c = dram_servers servers relative to the
	 * service time, by Sakasegawa's approximation (Operations Research
	 * 1977; exact for c = 1, where it is the M/M/1 queue's W / (1 - rho)):
	 *
	 *   Q = rho^(sqrt(2 (c + 1)) - 1) / (c (1 - rho))
	 *
	 * Several servers keep the wait short until DRAM is nearly busy: on the
	 * H100, scripts/bench/ubench/loaded.cu measures a DRAM load's latency
	 * 1.20, 1.50 and 1.94 times the idle one at 71, 86 and 91% of the
	 * bandwidth, which c = 8 follows (1.14, 1.53, 2.04) and M/M/1 does not
	 * (3.5, 7.0, 11.3).
	 * The queue grows the chain whichever term sets a wave now: a wave
	 * whose issue hides the idle latency may not hide the loaded one.  The
	 * time is the root of t = max(t_l2, SM time with Q(t_dram / t)) at or
	 * above max(t_sm, t_l2, t_dram); with no DRAM wait on the chain it is
	 * that maximum, the bounds alone. */
	double sm = out->cycles, lo = sm > t_dram ? sm : t_dram;
	double t = loaded_time(wv, lo, t_l2, t_dram, p->dram_servers);
	if (t > sm) {
		/* the bound is what set the time: DRAM's bandwidth, or the loaded
		 * chain where it outgrew the issue; else the queue only grew a
		 * wave the issue still sets, and the bound stays */
		uint64_t blocks = wv->full ? wv->bps : wv->rest;
		double q = queueing(t_dram / t, p->dram_servers);
		out->cycles = t;
		if (t_dram >= sm)
			snprintf(out->bound, sizeof out->bound, "dram");
		else if (wave_chain(wv, q, 0) >= wave_busy(wv, blocks))
			snprintf(out->bound, sizeof out->bound, "dram latency");
	}
	return t_sm;
}

/* Global atomics contending for a sector: every warp request touching a
 * sector is served there after the previous one, atom_sector_ns apart.
 * scripts/bench/ubench/terms2.cu on the H100 (results/ubench-terms2-h100.txt):
 * atomicAdd into 256 bins, each warp's lanes on 32 consecutive bins (4
 * sectors a request), 9.463 ns per atomic a bin, so a request every 9.46 ns
 * on each sector.  The same rule gives 72% of the time terms2.cu measured
 * with lanes on random bins of 256 (66.9 ns per atomic a bin), 65 to 210%
 * from 8 to 4096 bins, and 76% of histogram.cu's global-atomics variant
 * (34.6 ms); a single bin, where requests aggregate, it does not fit (40%).
 * A sector that two or more sampled blocks hit is taken as hit alike by
 * every block they stand for (a histogram's bins, a global total); one only
 * a single block hit is its own (its requests count once).  The busiest
 * sector's requests over the grid, in cycles. */
static double atom_cycles(const struct gs_emu_profile *p, const struct gs_emu_blockstat *st,
			  const double *weight, size_t n, double scale)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += st[i].natom;
	if (!total || !(p->atom_sector_ns > 0))
		return 0;
	/* a walk over the blocks' sorted lists: per sector, the weighted
	 * requests and how many blocks had it */
	size_t *at = calloc(n, sizeof(*at));
	if (!at)
		return 0;
	double best = 0;
	for (;;) {
		uint64_t s = UINT64_MAX;
		for (size_t i = 0; i < n; i++)
			if (at[i] < st[i].natom && st[i].atom[at[i]].sector < s)
				s = st[i].atom[at[i]].sector;
		if (s == UINT64_MAX)
			break;
		double req = 0, own = 0;
		int blocks = 0;
		for (size_t i = 0; i < n; i++)
			if (at[i] < st[i].natom && st[i].atom[at[i]].sector == s) {
				double r = (double)st[i].atom[at[i]++].requests;
				blocks++;
				req += weight[i] * r;
				own = r;
			}
		double r = blocks > 1 ? req * scale : own;
		if (r > best)
			best = r;
	}
	free(at);
	return best * p->atom_sector_ns * 1e-9 * p->clock_mhz * 1e6;
}

/* A thread's local memory (an array indexed at run time, a large struct)
 * is interleaved so that a warp's access of one word is one line; the L1
 * writes its stores through to the L2, and once the frames of the threads
 * resident on every SM outgrow the L2 every access goes on to DRAM
 * (scripts/bench/ubench/localmem.cu on the H100,
 * results/ubench-localmem-h100.txt).  Each SM takes its share of the
 * grid's warp accesses at the measured time: the stores' only where the
 * frames fit the L2 (the loads are the L1 and L2 terms'), all of them
 * beyond.  The times are a word a lane's; an access counts once whatever
 * its width, so a vector one is undercharged.  In SM cycles; 0 without
 * local accesses or the profile's times. */
static double local_cycles(const struct gs_emu_profile *p, const struct gs_emu_occ *occ,
			   const struct sums *s, double scale)
{
	if (!(p->local_st_ns > 0) || !(s->lld + s->lst > 0) || !(s->frame > 0))
		return 0;
	double frames = s->frame * (double)occ->active_threads * p->sms;
	int far = p->local_far_ns > 0 && p->l2_bytes > 0 && frames > p->l2_bytes;
	double ns = far ? (s->lld + s->lst) * p->local_far_ns : s->lst * p->local_st_ns;
	return ns * scale / p->sms * 1e-9 * p->clock_mhz * 1e6;
}

int gs_emu_interval_model(const struct gs_emu_profile *p, const unsigned grid[3],
			  const unsigned block[3], const struct gs_emu_occ *occ,
			  const struct gs_emu_blockstat *st, const double *weight, size_t n,
			  const double *cap, struct gs_emu_interval *out)
{
	uint64_t nblocks = (uint64_t)grid[0] * grid[1] * grid[2];
	struct sums s = { 0 };
	/* chains are compared with every miss at DRAM's latency, as probe.c does */
	double dram = gs_emu_dram_beyond_l2(p);
	memset(out, 0, sizeof(*out));
	if (!occ || occ->blocks_per_sm <= 0 || !nblocks || !n)
		return -1;
	sum_sample(st, weight, n, dram, &s);
	out->load_window = s.win_loads > 0 ? s.win_sum / s.win_loads : 0;
	/* per block of the grid */
	const char *sm_bound;
	double thr = block_cycles(p, block, occ, &s, &sm_bound, out);

	/* the grid's traffic: L2 sectors, DRAM bytes up to the footprint */
	double scale = (double)nblocks / s.wsum;
	double l2_sectors = (s.miss + s.stores) * scale;
	double l2_bytes = l2_sectors * 32;
	double fp_r = s.distinct_r * scale * 32, fp_w = s.distinct_w * scale * 32;
	if (cap && cap[0] > 0 && fp_r > cap[0])
		fp_r = cap[0];
	if (cap && cap[1] > 0 && fp_w > cap[1])
		fp_w = cap[1];
	double rd = s.miss * scale * 32, wr = s.stores * scale * 32;
	double dram_r = rd < fp_r ? rd : fp_r, dram_w = wr < fp_w ? wr : fp_w;
	/* beyond the footprint: sectors the L2 lost between a warp's loads of
	 * them, read again from DRAM 64 bytes at a time (reuse.c) */
	double again = s.refetch * scale;
	double served = dram_r + again * 32;
	dram_r += again * 64;
	double dram_bytes = dram_r + dram_w;
	/* the share of the loads' L2 misses that DRAM serves */
	double dram_share = rd > 0 ? (served < rd ? served : rd) / rd : 0;
	double chain = s.chain + s.misses * dram_share * dram;
	double mean = (s.chain_sum + s.misses_sum * dram_share * dram) / s.wsum;

	/* waves on the busiest SM */
	uint64_t sms = (uint64_t)p->sms, bps = (uint64_t)occ->blocks_per_sm;
	uint64_t busiest = (nblocks + sms - 1) / sms;
	struct waves wv = { thr, s.exposed, mean, 0, busiest / bps, busiest % bps, bps, chain, 0 };
	/* the DRAM latency on the chains, which DRAM's queue grows */
	wv.mem_wait = s.misses_sum / s.wsum * dram_share * p->mem_latency;
	if (wv.mem_wait > mean)
		wv.mem_wait = mean;
	wv.wait_max = s.misses * dram_share * p->mem_latency;
	if (wv.wait_max > chain)
		wv.wait_max = chain;
	double hz = p->clock_mhz * 1e6;
	double t_l2 = l2_bytes / (p->l2_bw_gbs * 1e9) * hz;
	double t_dram = dram_bytes / (p->dram_bw_gbs * 1e9) * hz;
	double t_atom = atom_cycles(p, st, weight, n, scale);
	/* Sectors a warp's store writes only in part (a lane's 4 bytes where
	 * its neighbours write other sectors, as a transpose's or a thread's
	 * own run of outputs) reach the L2 one request each, and the L2 takes
	 * them at its own rate whatever DRAM could do
	 * (scripts/bench/ubench/strided.cu, results/ubench-strided-h100.txt:
	 * 95 G a second storing 8 floats a thread, 4 bytes a store, 4 sectors
	 * of a line a store; 47 G with one sector of a line, 68 to 101 G over
	 * the other patterns and widths seen). */
	double t_part = s.partial_w * scale * p->partial_write_ns * 1e-9 * hz;
	double t_local = local_cycles(p, occ, &s, scale);
	double t_l2x = t_l2;
	const char *l2_bound = "l2";
	if (t_atom > t_l2x)
		t_l2x = t_atom, l2_bound = "atomics";
	if (t_part > t_l2x)
		t_l2x = t_part, l2_bound = "partial stores";
	if (t_local > t_l2x)
		t_l2x = t_local, l2_bound = "local memory";
	double t_sm = grid_cycles(p, &wv, sm_bound, t_l2x, t_dram, out);
	if (!strcmp(out->bound, "l2"))
		snprintf(out->bound, sizeof out->bound, "%s", l2_bound);
	out->ms = out->cycles / hz * 1e3 + p->launch_overhead_us / 1000.0;
	out->t_sm = t_sm;
	out->t_l2 = t_l2;
	out->t_dram = t_dram;
	out->per_block_issue = thr;
	out->per_block_chain = chain;
	out->per_block_exposed = s.exposed;
	out->l1_hit = s.hit + s.miss > 0 ? s.hit / (s.hit + s.miss) : 0;
	out->l2_hit = rd > 0 ? 1 - dram_share : 0;
	out->l2_bytes = l2_bytes;
	out->dram_bytes = dram_bytes;
	out->waves = (int)(wv.full + (wv.rest ? 1 : 0));
	out->blocks_per_sm = occ->blocks_per_sm;
	struct gs_emu_approx ap = {
		.atom = s.atom / s.wsum,
		.mem = s.mem / s.wsum,
		.smem = s.smem,
		.l2_sectors = (s.miss + s.stores) / s.wsum,
		.st_sectors = s.stores / s.wsum,
		.st_partial = s.partial / s.wsum,
		.dram_bytes = dram_bytes,
		.dram_w = dram_w,
		.dram_again = again * 64,
		.local = (s.lld + s.lst) / s.wsum,
	};
	memcpy(ap.inst, s.inst, sizeof ap.inst);
	out->approx = gs_emu_approx_share(out->bound, &ap);
	return 0;
}
