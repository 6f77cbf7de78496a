/* mwp.c — the emulated device's time at the emulator size: Hong & Kim's
 * MWP-CWP analytical model (ISCA 2009) fed with the interpreter's counters,
 * and Ryoo et al.'s efficiency and utilization metrics (CGO 2008).  It is
 * the model of the profiles older than the interval model covers (g80,
 * gf100: `model = mwp-cwp`) and of every launch timed at the emulator size
 * (--emu, --emu-sample 0); interval.c times the real sizes.
 *
 * Per warp (the counters of the whole grid divided by the warps launched):
 *   Comp_cycles = sum over classes of issue_cycles[class] x instructions
 *                 + shared-memory replays x the cycles of one pass
 *   #Mem_insts  = global loads and stores, local loads and stores
 *   T           = transactions per memory instruction (local accesses are
 *                 per-thread interleaved, so coalesced)
 * A memory instruction is coalesced with t_c transactions (two 64-byte
 * half-warp transactions on cc 1.x, four 32-byte sectors after) and fully
 * uncoalesced with U = 32, one per thread; the counters give only the mean
 * T, so the weight of uncoalesced instructions is w = (T - t_c) / (U - t_c),
 * clamped to [0, 1] (exact when every instruction is one or the other).
 * Then, as in the paper:
 *   Mem_L_Uncoal = Mem_LD + (U - 1) x Departure_del_uncoal
 *   Mem_L        = w x Mem_L_Uncoal + (1 - w) x Mem_LD
 *   Departure_delay = w x U x Departure_del_uncoal + (1 - w) x Departure_del_coal
 *   Mem_cycles   = #Mem_insts x Mem_L
 *   MWP_Without_BW = Mem_L / Departure_delay
 *   BW_per_warp  = Freq x Load_bytes_per_warp / Mem_L
 *   MWP_peak_BW  = Mem_Bandwidth / (BW_per_warp x #Active_SMs)
 *   MWP          = min(MWP_Without_BW, MWP_peak_BW, N)       (at least 1)
 *   CWP          = min((Mem_cycles + Comp_cycles) / Comp_cycles, N)
 * with N the active warps per SM, and the cycles of one wave of blocks:
 *   MWP = N = CWP (not enough warps; bound "latency"):
 *       Mem_cycles + Comp_cycles + Comp_cycles / #Mem_insts x (MWP - 1)
 *   CWP >= MWP, or Comp_cycles > Mem_cycles (bound "memory", or "compute"
 *   when CWP < MWP):
 *       Mem_cycles x N / MWP + Comp_cycles / #Mem_insts x (MWP - 1)
 *   otherwise (bound "compute"):
 *       Mem_L + Comp_cycles x N
 *   without memory instructions: Comp_cycles x N
 * plus the cost of barriers, the paper's with a fixed release latency:
 *   Synch_cost = (Departure_delay x (MWP - 1) + barrier_cycles)
 *                x #Synch_insts x #Active_blocks_per_SM
 * Waves: the paper's #Rep = #Blocks / (#Active_blocks_per_SM x #Active_SMs)
 * taken as whole waves of resident blocks plus a last, partial wave whose
 * busiest SM runs ceil(rest / SMs) blocks (a smaller N, fewer active SMs),
 * so that a grid one block longer than a wave costs a second, short wave.
 *
 * Fewer resident blocks mean a smaller N: latency is hidden by fewer warps
 * (MWP and CWP shrink with N) and more waves are needed, which is where the
 * register cliffs of the 8800 GTX studies come from.
 *
 * Ryoo et al.: efficiency = 1 / (Instr x Threads), with Instr the dynamic
 * instructions per thread and Threads those of the grid; utilization =
 * Instr / Regions x ((W_TB - 1) / 2 + (B_SM - 1) x W_TB), with Regions = 1 +
 * the global loads and barriers per thread (the instructions that end a
 * region a warp can run without blocking), W_TB warps per block and B_SM
 * blocks per SM.
 *
 * Pure arithmetic on the inputs, in a fixed order: the same inputs give the
 * same figures bit for bit. */
#include "dev/emu/model/model.h"

#include <stdio.h>
#include <string.h>

/* What one wave of blocks costs on its busiest SM. */
struct wave {
	double cycles;
	double mwp, cwp;
	double comp, mem, mem_l, dep, sync;
	const char *bound;
};

/* Per-warp figures of the kernel, independent of N. */
struct kernel {
	double comp;       /* Comp_cycles */
	double mem_insts;  /* #Mem_insts */
	double mem_l;      /* Mem_L */
	double dep;        /* Departure_delay */
	double load_bytes; /* bytes per memory warp */
	double synch;      /* #Synch_insts */
};

static double min3(double a, double b, double c)
{
	double m = a < b ? a : b;
	return m < c ? m : c;
}

static struct wave wave(const struct gs_emu_profile *p, const struct kernel *k, double n,
			double active_sms, double blocks)
{
	struct wave w = { 0 };

	w.comp = k->comp;
	w.mem_l = k->mem_l;
	w.dep = k->dep;
	if (k->mem_insts <= 0) {
		w.mwp = n;
		w.cwp = 1;
		w.cycles = k->comp * n;
		w.bound = "compute";
	} else {
		double mwp_without_bw = k->mem_l / k->dep;
		double bw_per_warp = p->clock_mhz / 1000.0 * k->load_bytes / k->mem_l;
		double mwp_peak_bw = p->mem_bw_gbs / (bw_per_warp * active_sms);
		double cwp_full;

		w.mem = k->mem_insts * k->mem_l;
		w.mwp = min3(mwp_without_bw, mwp_peak_bw, n);
		if (w.mwp < 1)
			w.mwp = 1;
		cwp_full = k->comp > 0 ? (w.mem + k->comp) / k->comp : n;
		w.cwp = cwp_full < n ? cwp_full : n;
		if (w.mwp >= n && w.cwp >= n) {
			w.cycles = w.mem + k->comp + k->comp / k->mem_insts * (w.mwp - 1);
			w.bound = "latency";
		} else if (w.cwp >= w.mwp || k->comp > w.mem) {
			w.cycles = w.mem * n / w.mwp + k->comp / k->mem_insts * (w.mwp - 1);
			w.bound = w.cwp >= w.mwp ? "memory" : "compute";
		} else {
			w.cycles = k->mem_l + k->comp * n;
			w.bound = "compute";
		}
	}
	if (k->synch > 0) {
		double drain = k->mem_insts > 0 ? k->dep * (w.mwp - 1) : 0;
		w.sync = (drain + p->barrier_cycles) * k->synch * blocks;
		w.cycles += w.sync;
	}
	return w;
}

int gs_emu_model(const struct gs_emu_profile *p, const struct gs_emu_counters *c,
		 const struct gs_emu_geom *g, const struct gs_emu_occ *occ,
		 struct gs_emu_model_out *out)
{
	const double u = p->warp_size; /* transactions of a fully uncoalesced access */
	const double t_c = p->coalesce == GS_EMU_COALESCE_CC10 ? 2 : 4;
	const double trans_bytes = p->coalesce == GS_EMU_COALESCE_CC10 ? 64 : 32;
	uint64_t threads_block = (uint64_t)g->block[0] * g->block[1] * g->block[2];
	uint64_t nblocks = (uint64_t)g->grid[0] * g->grid[1] * g->grid[2];
	uint64_t ws = (uint64_t)p->warp_size, sms = (uint64_t)p->sms;
	int block_warps = (int)((threads_block + ws - 1) / ws);
	double warps, mem_insts, trans, bytes, local, weight, thread_inst = 0, threads;
	uint64_t per_wave, full, rest, tail_blocks;
	struct kernel k = { 0 };
	struct wave w, tail = { 0 };

	memset(out, 0, sizeof(*out));
	if (!occ || occ->blocks_per_sm <= 0 || !threads_block || !nblocks)
		return -1;
	warps = c->warps ? (double)c->warps : (double)nblocks * block_warps;

	for (int i = 0; i < GS_EMU_NCLASS; i++)
		k.comp += p->issue_cycles[i] * (double)c->warp_inst[i];
	/* a replay is one more pass of the shared-memory pipeline: the whole
	 * instruction where banks serve a warp, half of it per half-warp */
	k.comp += (double)c->bank_conflicts * p->issue_cycles[GS_EMU_MEM] * p->banks / p->warp_size;
	k.comp /= warps;

	local = (double)(c->lld_inst + c->lst_inst);
	mem_insts = (double)(c->gld_inst + c->gst_inst) + local;
	trans = (double)(c->gld_trans + c->gst_trans) + local * t_c;
	bytes = (double)(c->gld_bytes + c->gst_bytes) + local * t_c * trans_bytes;
	k.mem_insts = mem_insts / warps;
	if (mem_insts > 0) {
		weight = (trans / mem_insts - t_c) / (u - t_c);
		weight = weight < 0 ? 0 : weight > 1 ? 1 : weight;
		k.mem_l = weight * (p->mem_latency + (u - 1) * p->departure_delay_uncoal) +
			  (1 - weight) * p->mem_latency;
		k.dep = weight * u * p->departure_delay_uncoal + (1 - weight) * p->departure_delay;
		k.load_bytes = bytes / mem_insts;
	}
	k.synch = (double)c->barriers / warps;

	/* whole waves, then the last partial one on its busiest SM */
	per_wave = (uint64_t)occ->blocks_per_sm * sms;
	full = nblocks / per_wave;
	rest = nblocks % per_wave;
	tail_blocks = (rest + sms - 1) / sms; /* on the busiest SM */
	w = wave(p, &k, (double)occ->blocks_per_sm * block_warps, p->sms, occ->blocks_per_sm);
	out->cycles = (double)full * w.cycles;
	if (rest) {
		tail = wave(p, &k, (double)tail_blocks * block_warps,
			    (double)(rest < sms ? rest : sms), (double)tail_blocks);
		out->cycles += tail.cycles;
	}
	out->rep = (int)(full + (rest ? 1 : 0));
	/* report the wave that sets the pace: a full one when there is one */
	if (!full)
		w = tail;
	out->mwp = w.mwp;
	out->cwp = w.cwp;
	snprintf(out->bound, sizeof out->bound, "%s", w.bound);
	out->active_warps = (full ? occ->blocks_per_sm : (int)tail_blocks) * block_warps;
	out->comp_cycles = w.comp;
	out->mem_cycles = w.mem;
	out->mem_l = w.mem_l;
	out->dep_delay = w.dep;
	out->sync_cycles = w.sync;
	out->ms = out->cycles / (p->clock_mhz * 1000.0) + p->launch_overhead_us / 1000.0;

	for (int i = 0; i < GS_EMU_NCLASS; i++)
		thread_inst += (double)c->thread_inst[i];
	threads = (double)nblocks * (double)threads_block;
	if (thread_inst > 0) {
		double instr = thread_inst / threads;
		double regions = 1 + (double)(c->gld_inst + c->barriers) / warps;

		out->efficiency = 1 / (instr * threads);
		out->utilization = instr / regions *
				   ((block_warps - 1) / 2.0 +
				    (double)(occ->blocks_per_sm - 1) * block_warps);
	}
	return 0;
}
