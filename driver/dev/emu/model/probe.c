/* probe.c — what a sampled launch observes of each block it executes, for
 * the interval model (interval.c):
 *
 *   - a dependency chain per warp: within a basic block, instructions
 *     issue one every gap cycles at most (the mean stall count ptxas wrote
 *     into the machine code's loops, sass.c: a warp alone keeps to them,
 *     results/ubench-issuegap-h200.txt), each as soon as its source
 *     registers are ready, not after the stalls of earlier ones (ptxas
 *     schedules a block's independent loads ahead of the uses of earlier
 *     ones); a branch or a
 *     barrier issues after its whole block, and the next block starts
 *     there.  Predicates and memory add no dependency.  A result is
 *     ready after its class's latency (lat.CLASS), a shared load after
 *     lat.smem, a global load after lat.l1 when all its sectors hit the L1,
 *     else after lat.l2, and the path remembers how many such L1 misses it
 *     went through, so that the model can add DRAM latency to the share of
 *     them L2 does not serve.  bar.sync lifts every warp of the block to the
 *     latest one plus the barrier's release (barrier_cycles).  This is the
 *     in-order scoreboard of interval analysis (Eyerman et al., "A
 *     mechanistic performance model for superscalar out-of-order
 *     processors", TOCS 2009) reduced to a GPU warp, as in the GPU interval
 *     models of Huang et al. (GPUMech, MICRO 2014);
 *   - a private L1 per block: 32-byte sectors, set-associative with LRU
 *     replacement, l1_assoc ways, the block's share of the SM's L1 (what
 *     the resident blocks' shared memory leaves, divided among them); stores
 *     write through and do not allocate (NVIDIA's L1 on Volta and later);
 *   - the distinct sectors the block touched, so that the model can bound
 *     DRAM traffic by the grid's footprint, and the stored sectors a warp
 *     wrote only in part, which the model approximates (confidence.c);
 *   - the code its loops span: from the first to the last static
 *     instruction its warps issued more often than it has warps (that some
 *     warp ran again), cold paths between them included, since the fetch
 *     brings in what lies between (results/ubench-icache-h100.txt), and the
 *     share of the issued instructions that were in loops, for the
 *     instruction-fetch term (icache.c);
 *   - the loads ptxas keeps in flight: where the kernel's machine code
 *     lets a global load overlap only w-1 others (sass.c: its window w, the
 *     loads of a tile written to one register under a register cap), it
 *     issues no earlier than the warp's w-th previous global load's value
 *     is ready, the consumer of that value having to read it before the
 *     register is written again.
 *
 * Registers are PTX's virtual ones, so the dependencies are the program's
 * own; ptxas's register reuse (but for the load windows) and its
 * scheduling across basic blocks (unrolling that PTX does not show) are
 * not seen.  Everything is per block
 * and in the block's own deterministic order, so the observations do not
 * depend on host threads. */
#include "dev/emu/interp/exec_int.h"
#include "dev/emu/model/model.h"
#include "dev/emu/model/reuse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct gs_xprobe {
	const struct gs_emu_profile *p;
	unsigned nwarps, nreg;
	struct rdy *ready;   /* nwarps x nreg: each register's value */
	struct pwarp *pw;    /* each warp's chain */
	double gap;          /* the cycles between two of its issues (sass.c, at least 1) */
	/* A path's length is its cycles t plus its misses nm times dram, the
	 * DRAM latency beyond L2's: paths are compared by t + nm * dram, as
	 * if every miss went to DRAM (how many do is known only when the
	 * grid's footprint is, interval.c). */
	double dram;
	/* the DRAM latency's spread (spread.c), NULL: none; the block's draws */
	double *spread;
	uint64_t seed, ndraw;
	/* the loads' DRAM weights drawn, and what they are worth on average
	 * (emax[k]: the mean of the largest of k draws, 0 until needed), for
	 * loop sampling, which takes the weights at their mean */
	double mw_sum, mw_exp;
	double emax[2 * GS_WARP + 1];
	/* the instruction being executed */
	unsigned cw;
	double pt;
	double pnm;
	const struct gs_ins *pin;
	/* L1 */
	struct l1way *way;   /* sets x assoc, a set's ways together */
	uint64_t tick;
	unsigned sets, assoc;
	uint64_t l1_hit, l1_miss, st, st_partial;
	uint64_t st_partial_w; /* the partial sectors weighed by their lines, in hundredths */
	unsigned line_w[5];    /* a partial sector's weight by the partial sectors of its line */
	struct gs_reuse *reuse; /* a warp's loads again of its sectors (reuse.c) */
	uint64_t refetch;    /* sectors read again from DRAM (reuse.c) */
	uint64_t l1_waves;   /* the loads' L1 wavefronts (l1_wave_cycles) */
	uint64_t l1_split;   /* of those, over two adjacent lines (l1_split_cycles) */
	uint64_t *sect;
	size_t ns, cap;
	uint64_t merges;     /* times the list was merged (footprint_add) */
	/* the barrier interval under way: when it began, what it issued */
	double iv_start, exposed;
	double iv_inst[GS_EMU_NCLASS], iv_smem, iv_sectors, iv_waves;
	/* per PTX instruction: the runs the interpreter made of it (issues[]
	 * counts skipped iterations too) and its shared-memory accesses, L1
	 * sectors and wavefronts over them, for the phases (phase_excess) */
	uint32_t *ran;
	double *pc_smem, *pc_sectors, *pc_waves;
	double *pc_merged;   /* the memory instructions merged runs saved (ldsvec.c) */
	struct gs_ldsvec *vec; /* runs of shared loads ptxas merges; NULL: none */
	double smem_merged;  /* the wavefronts they saved */
	int *inloop;         /* ncode + 1: phase_excess's scratch */
	unsigned bps;
	/* issues of each static instruction (saturating), for the loop code */
	const struct gs_ins *code;
	uint32_t *issues;
	size_t ncode;
	/* load windows (pair_windows), and per warp the ready times of its
	 * last RING global loads */
	uint8_t *win;
	double *lready;
	double *lnm;
	unsigned *lcount;
	double win_sum;
	uint64_t win_loads;
	double xinst[GS_EMU_NCLASS]; /* expansions (idiv) */
	double ccyc;         /* constant-cache serialization (const_load) */
	uint64_t cuni;       /* constant loads of one word a warp (const_load) */
	uint64_t shfl;       /* warp shuffles issued */
	struct gs_emu_atomsec *asect; /* global atomics' sectors (atom_request) */
	size_t nas, acap;
	/* per static instruction, what issuing it needs, decoded once */
	struct pins *pi;
	struct wmemo *wm;    /* per load instruction (pins.wm) */
};

/* When a register's value is ready, and the L1 misses on the path to it,
 * each weighted by its draw: together, as every issue reads both; l is
 * the path's length len(t, nm), computed once where the value is written
 * rather than at each of its reads. */
struct rdy {
	double t, nm, l;
};

/* A way of the L1: the sector it holds (UINT64_MAX: none), when it was
 * last used, and the fill that brought it: when its data arrives (fill_t,
 * on the path of fill_nm misses, fill_w of them its own). */
struct l1way {
	uint64_t tag, age;
	double fill_t, fill_nm, fill_w;
};

/* A warp's chain, read and written together at each of its issues. */
struct pwarp {
	double clk;          /* its latest issue */
	double wnm;          /* the misses on the path to it */
	double bbs;          /* when its basic block began */
	double bnm;          /* the misses on the path to the block's start */
	double clen;         /* len(clk, wnm) */
	unsigned slot;       /* instructions it issued in that block */
};

/* What the probe reads of an instruction each time it issues: the
 * registers it reads and writes (as indices of ready[], those the probe
 * does not track left out), the latency of its result, its division's
 * expansion and whether it ends a basic block. */
struct pins {
	uint8_t ns, nd, ends, xd, shfl, bits;
	uint16_t wm;         /* a load: 1 + its index in p->wm[]; else 0 (none past 65535) */
	uint32_t s[6], d[6];
	double lat;
};                           /* 64 bytes, one host line each (decode_all) */

/* The L1 wavefronts of the last warp load whose count a load instruction
 * computed (m 0: none yet).  The count depends only on the active lanes,
 * the size and, per lane, the word's bank and which lanes ask for the same
 * word, none of which moves when every lane's address moves by one
 * multiple of 128 bytes (32 words, the banks' cycle): the next warp's rows
 * of a tile, the next tile down a matrix.  Such a load takes the count. */
struct wmemo {
	uint64_t addr[GS_WARP];
	uint32_t m;
	unsigned size, nw, split;
};

/* Load windows are kept up to RING - 1; a window of RING or more does not
 * bind (the PTX's own overlap). */
#define RING 16

/* Pairs the launch's load windows with the entry's ld.global instructions
 * in code order: p->win[pc] is the window of the load at pc, capped at
 * RING, 0 for any other instruction.  No windows (p->win NULL) when the
 * counts differ: ptxas merged, split or unrolled loads.  -1: out of memory. */
static int pair_windows(struct gs_xprobe *p, const struct gs_xctx *x)
{
	const uint8_t *lw = x->l->load_window;
	size_t k = 0, n = x->l->nload_window;
	p->win = calloc(p->ncode ? p->ncode : 1, 1);
	if (!p->win)
		return -1;
	for (int32_t pc = x->f->pc0; pc < x->f->pc1; pc++)
		if (p->code[pc].op == GS_OP_LD && p->code[pc].sub == GS_SP_GLOBAL) {
			if (k < n)
				p->win[pc] = lw[k] < RING ? lw[k] : RING;
			k++;
		}
	if (k != n) {
		free(p->win);
		p->win = NULL;
		return 0;
	}
	p->lready = calloc((size_t)p->nwarps * RING, sizeof(*p->lready));
	p->lnm = calloc((size_t)p->nwarps * RING, sizeof(*p->lnm));
	p->lcount = calloc(p->nwarps, sizeof(*p->lcount));
	return p->lready && p->lnm && p->lcount ? 0 : -1;
}

static unsigned reg(const struct gs_xprobe *p, uint32_t off);

/* The entry's PTX branches that its machine code does not keep end no
 * basic block: a warp has no branch to wait at there, and ptxas's list
 * scheduling hoists the loads after them above the uses before them.
 * Only the entry's own code, [pc0, pc1): a called function's is its own.
 *   - Where the machine code has no loop, ptxas unrolled every loop: the
 *     PTX's backward branches are gone (conv11's 11 filter rows).
 *   - Where it keeps fewer forward transfers (sass.c's
 *     gs_emu_sass_forward) than the PTX has forward branches, ptxas
 *     predicated the difference, taking the shortest skips (a guard over
 *     a load, a conditional assignment): so many of the PTX's shortest
 *     forward branches are gone (life's guarded loads).
 * -1: out of memory. */
static int cmp_skip(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return *x < *y ? -1 : *x > *y;
}

static int dropped_branches(struct gs_xprobe *p, const struct gs_xctx *x)
{
	if (!x->l->text_bytes)
		return 0;
	size_t pc0 = (size_t)x->f->pc0, pc1 = (size_t)x->f->pc1 < p->ncode ? (size_t)x->f->pc1 : p->ncode;
	size_t n = 0;
	for (size_t pc = pc0; pc < pc1; pc++) {
		const struct gs_ins *in = &p->code[pc];
		if (in->op != GS_OP_BRA || in->tgt < 0)
			continue;
		if ((size_t)in->tgt > pc)
			n++;
		else if (!x->l->sass_loop_bytes)
			p->pi[pc].ends = 0;
	}
	if (n <= x->l->sass_fwd)
		return 0;
	/* (skip << 32 | pc): the shortest first, ties in code order */
	uint64_t *k = malloc(n * sizeof(*k));
	if (!k)
		return -1;
	size_t m = 0;
	for (size_t pc = pc0; pc < pc1; pc++)
		if (p->code[pc].op == GS_OP_BRA && p->code[pc].tgt > (int32_t)pc)
			k[m++] = (uint64_t)(p->code[pc].tgt - (int32_t)pc) << 32 | pc;
	qsort(k, m, sizeof(*k), cmp_skip);
	for (size_t i = 0; i < n - x->l->sass_fwd; i++)
		p->pi[(uint32_t)k[i]].ends = 0;
	free(k);
	return 0;
}

static int idiv(const struct gs_ins *in);
static int bit_count(const struct gs_ins *in);

/* p->pi[] for every instruction of the module: the latencies as
 * gs_x_probe_issue used to find them at each issue.  -1: out of memory. */
static int decode_all(struct gs_xprobe *p)
{
	const struct gs_emu_profile *pf = p->p;
	uint32_t nld = 0;
	size_t npi = p->ncode ? p->ncode : 1;
	if (posix_memalign((void **)&p->pi, 64, npi * sizeof(*p->pi)))
		return -1;
	memset(p->pi, 0, npi * sizeof(*p->pi));
	for (size_t pc = 0; pc < p->ncode && nld < UINT16_MAX; pc++)
		if (p->code[pc].op == GS_OP_LD)
			p->pi[pc].wm = (uint16_t)++nld;
	p->wm = calloc(nld ? nld : 1, sizeof(*p->wm));
	if (!p->wm)
		return -1;
	for (size_t pc = 0; pc < p->ncode; pc++) {
		const struct gs_ins *in = &p->code[pc];
		struct pins *q = &p->pi[pc];
		uint32_t r[6];
		int n = gs_ins_regs(in, 0, r);
		for (int i = 0; i < n; i++)
			if (reg(p, r[i]) != UINT32_MAX)
				q->s[q->ns++] = reg(p, r[i]);
		n = gs_ins_regs(in, 1, r);
		for (int i = 0; i < n; i++)
			if (reg(p, r[i]) != UINT32_MAX)
				q->d[q->nd++] = reg(p, r[i]);
		q->ends = in->cls == GS_EMU_CTRL || in->cls == GS_EMU_BARRIER;
		q->xd = (uint8_t)idiv(in);
		if (!pf)
			continue;
		/* a warp shuffle waits lat.shfl for its result, not an ALU's
		 * latency (scripts/bench/ubench/terms.cu on the H100: a dependent
		 * shfl.xor and fadd take 30.32 cycles a step,
		 * results/ubench-terms-h100.txt) */
		q->shfl = in->op == GS_OP_SHFL && pf->lat_shfl > 0;
		q->bits = bit_count(in) && pf->lat_bits > 0;
		switch (q->shfl ? GS_EMU_NCLASS : in->cls) {
		case GS_EMU_NCLASS:
			q->lat = pf->lat_shfl;
			break;
		case GS_EMU_INT: case GS_EMU_FP32: case GS_EMU_FP64: case GS_EMU_SFU:
			q->lat = pf->lat[in->cls];
			if (q->xd == 1 && pf->lat_idiv32 > 0)
				q->lat = pf->lat_idiv32;
			if (q->xd == 2 && pf->lat_idiv64 > 0)
				q->lat = pf->lat_idiv64;
			break;
		case GS_EMU_MEM: /* a constant or parameter load unless probe_mem says otherwise */
			q->lat = pf->lat_l1;
			break;
		default:
			q->lat = pf->lat[GS_EMU_INT];
			break;
		}
		/* popc, clz, brev, bfind: 17 cycles on the H200
		 * (scripts/bench/ubench/bitops.cu) */
		if (q->bits)
			q->lat = pf->lat_bits;
	}
	return 0;
}

/* What reuse.c weighs for this launch: the SM's L1 (the blocks' shares)
 * against the loads of its resident warps; half the L2 against the loads
 * of every warp the GPU holds at once. */
static struct gs_reuse *new_reuse(const struct gs_xprobe *p, const struct gs_xctx *x)
{
	const struct gs_emu_launch *l = x->l;
	double warps = p->nwarps ? p->nwarps : 1;
	double blocks = (double)l->grid[0] * l->grid[1] * l->grid[2];
	double resident = p->p ? (double)p->p->sms * p->bps : blocks;
	if (resident > blocks)
		resident = blocks;
	double cap_l1 = l->l1_bytes > 0 ? (double)l->l1_bytes * p->bps / 32 : INFINITY;
	double cap_l2 = p->p && p->p->l2_bytes > 0 ? p->p->l2_bytes / 2 / 32 : INFINITY;
	/* the global allocations, each live at most once (reuse.c) */
	uint64_t base[GS_REUSE_ALLOCS], size[GS_REUSE_ALLOCS];
	size_t n = 0;
	for (size_t i = 0; l->mem && i < l->mem->n && n < GS_REUSE_ALLOCS; i++) {
		base[n] = l->mem->a[i].base;
		size[n++] = l->mem->a[i].size;
	}
	return gs_reuse_new(p->nwarps, warps * p->bps, cap_l1, warps * resident, cap_l2, base, size, n);
}

/* What a partial sector costs the L2, in hundredths of one that shares its
 * 128-byte line with three others partial in the same warp store
 * (partial_write_ns's pattern), by how many of the line's sectors the
 * store writes in part: scripts/bench/ubench/strided.cu on the H100
 * (results/ubench-strided-h100.txt), 8 floats a thread 4 bytes a store,
 * lanes 32 bytes apart (four a line) 88.1 SM cycles a warp store, 64 bytes
 * (two) 105.0, 128 (one) 176.7: the profile's partial_line2 and
 * partial_line1 (1.19, 2.01).  Three a line, not measured, lies between two
 * and four.  A profile without them weighs every sector alike. */
static unsigned partial_weight(const struct gs_emu_profile *pf, unsigned k)
{
	double w = 1;
	if (pf && k == 1 && pf->partial_line1 > 0)
		w = pf->partial_line1;
	else if (pf && k == 2 && pf->partial_line2 > 0)
		w = pf->partial_line2;
	else if (pf && k == 3 && pf->partial_line2 > 0)
		w = (pf->partial_line2 + 1) / 2;
	return (unsigned)(w * 100 + 0.5);
}

struct gs_xprobe *gs_x_probe_new(const struct gs_xctx *x)
{
	struct gs_xprobe *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->p = x->l->prof;
	for (unsigned k = 1; k <= 4; k++)
		p->line_w[k] = partial_weight(p->p, k);
	p->nwarps = x->nwarps;
	p->nreg = x->m->rf_bytes / 128 + 1;
	if (p->p)
		p->dram = gs_emu_dram_beyond_l2(p->p);
	if (p->p && (p->spread = malloc(GS_EMU_SPREAD_N * sizeof(*p->spread))) &&
	    !gs_emu_spread_table(p->p, p->spread)) {
		free(p->spread);
		p->spread = NULL;
	}
	p->gap = x->l->sass_gap > 1 ? x->l->sass_gap : 1;
	p->bps = x->l->blocks_per_sm > 0 ? (unsigned)x->l->blocks_per_sm : 1;
	p->ready = calloc((size_t)p->nwarps * p->nreg, sizeof(*p->ready));
	p->pw = calloc(p->nwarps, sizeof(*p->pw));
	p->assoc = p->p && p->p->l1_assoc ? (unsigned)p->p->l1_assoc : 4;
	int bytes = x->l->l1_bytes > 0 ? x->l->l1_bytes : 32 * 1024;
	p->sets = (unsigned)(bytes / 32) / p->assoc;
	if (!p->sets)
		p->sets = 1;
	if (posix_memalign((void **)&p->way, 64, (size_t)p->sets * p->assoc * sizeof(*p->way)))
		p->way = NULL;
	p->reuse = new_reuse(p, x);
	p->code = x->code;
	p->ncode = x->m->ncode;
	p->issues = calloc(p->ncode ? p->ncode : 1, sizeof(*p->issues));
	p->ran = calloc(p->ncode ? p->ncode : 1, sizeof(*p->ran));
	p->inloop = calloc(p->ncode + 1, sizeof(*p->inloop));
	p->pc_smem = calloc(4 * (p->ncode ? p->ncode : 1), sizeof(*p->pc_smem));
	p->pc_sectors = p->pc_smem ? p->pc_smem + p->ncode : NULL;
	p->pc_waves = p->pc_smem ? p->pc_smem + 2 * p->ncode : NULL;
	p->pc_merged = p->pc_smem ? p->pc_smem + 3 * p->ncode : NULL;
	if (!p->issues || !p->ran || !p->pc_smem || !p->inloop || !p->ready || !p->pw || !p->way ||
	    !p->reuse) {
		gs_x_probe_free(p);
		return NULL;
	}
	if (decode_all(p) < 0 || dropped_branches(p, x) < 0) {
		gs_x_probe_free(p);
		return NULL;
	}
	if (x->l->load_window && pair_windows(p, x) < 0) {
		gs_x_probe_free(p);
		return NULL;
	}
	/* without the runs (out of memory) loads count as the PTX says */
	if (p->p && x->l->lds_bytes >= 8)
		p->vec = gs_emu_ldsvec_runs(p->code, p->ncode, x->l->lds_bytes);
	return p;
}

void gs_x_probe_free(struct gs_xprobe *p)
{
	if (!p)
		return;
	free(p->ready);
	free(p->pw);
	free(p->way);
	gs_reuse_free(p->reuse);
	free(p->sect);
	free(p->asect);
	free(p->issues);
	free(p->ran);
	free(p->pc_smem);
	free(p->inloop);
	free(p->win);
	free(p->lready);
	free(p->lnm);
	free(p->lcount);
	free(p->spread);
	free(p->pi);
	free(p->wm);
	free(p->vec);
	free(p);
}

void gs_x_probe_begin(struct gs_xctx *x)
{
	struct gs_xprobe *p = x->pr;
	memset(p->ready, 0, (size_t)p->nwarps * p->nreg * sizeof(*p->ready));
	memset(p->pw, 0, p->nwarps * sizeof(*p->pw));
	for (size_t i = 0; i < (size_t)p->sets * p->assoc; i++)
		p->way[i] = (struct l1way){ UINT64_MAX, 0, 0, 0, 0 };
	p->tick = 0;
	gs_reuse_begin(p->reuse);
	p->seed = x->block;
	p->ndraw = 0;
	p->mw_sum = p->mw_exp = 0;
	p->l1_hit = p->l1_miss = p->st = p->st_partial = p->st_partial_w = 0;
	p->refetch = 0;
	p->l1_waves = 0;
	p->l1_split = 0;
	p->sect = NULL;
	p->ns = p->cap = 0;
	p->merges = 0;
	p->pin = NULL;
	p->iv_start = p->exposed = 0;
	memset(p->iv_inst, 0, sizeof p->iv_inst);
	p->iv_smem = p->iv_sectors = p->iv_waves = 0;
	memset(p->issues, 0, p->ncode * sizeof(*p->issues));
	memset(p->ran, 0, p->ncode * sizeof(*p->ran));
	memset(p->pc_smem, 0, 4 * p->ncode * sizeof(*p->pc_smem));
	p->smem_merged = 0;
	if (p->lcount)
		memset(p->lcount, 0, p->nwarps * sizeof(*p->lcount));
	p->win_sum = 0;
	p->win_loads = 0;
	memset(p->xinst, 0, sizeof p->xinst);
	p->ccyc = 0;
	p->cuni = 0;
	p->shfl = 0;
	free(p->asect);
	p->asect = NULL;
	p->nas = p->acap = 0;
}

/* The SM cycles of the busiest of an SM's ports for some work: the pipes,
 * the schedulers, shared memory's wavefronts and the L1 (the sectors at
 * l1_bw -- with l1_wave_lines, only those misses bring in -- or its
 * wavefronts where the profile gives l1_wave_cycles), as in interval.c. */
static double port_cycles(const struct gs_emu_profile *pf, const double inst[GS_EMU_NCLASS],
			  double smem, double sectors, double waves)
{
	double all = 0, thr = gs_emu_pipe_cycles(pf, inst, NULL);
	for (int c = 0; c < GS_EMU_NCLASS; c++)
		all += inst[c];
	double sched = all / (pf->subpartitions * pf->issue_per_sub);
	double l1 = sectors * 32 / pf->l1_bw;
	if (waves * pf->l1_wave_cycles > l1)
		l1 = waves * pf->l1_wave_cycles;
	thr = thr > sched ? thr : sched;
	thr = thr > smem ? thr : smem;
	return thr > l1 ? thr : l1;
}

/* Ends the barrier interval at `t`: what of its latency (t - iv_start)
 * the issue of bps such intervals, one per resident block, leaves
 * uncovered.  The resident blocks are taken to run in step, each with
 * this block's work; the interval's issue is its busiest port. */
static void interval_end(struct gs_xprobe *p, double t)
{
	double thr = port_cycles(p->p, p->iv_inst, p->iv_smem, p->iv_sectors, p->iv_waves);
	double gap = (t - p->iv_start) - (double)p->bps * thr;
	if (gap > 0)
		p->exposed += gap;
	p->iv_start = t;
	memset(p->iv_inst, 0, sizeof p->iv_inst);
	p->iv_smem = p->iv_sectors = p->iv_waves = 0;
}

static unsigned reg(const struct gs_xprobe *p, uint32_t off)
{
	return off == GS_NONE ? UINT32_MAX : (off >> 7) < p->nreg ? off >> 7 : UINT32_MAX;
}

/* A path's length for comparing paths: its cycles and its misses at DRAM
 * latency (see struct gs_xprobe). */
static double len(const struct gs_xprobe *p, double t, double nm)
{
	return t + nm * p->dram;
}

/* the registers instruction q writes, for the warp being issued: ready at t */
static void set_dests(struct gs_xprobe *p, const struct pins *q, double t, double nm)
{
	struct rdy *ready = p->ready + (size_t)p->cw * p->nreg;
	double l = len(p, t, nm);
	for (unsigned i = 0; i < q->nd; i++)
		ready[q->d[i]] = (struct rdy){ t, nm, l };
}

/* Integer division and remainder by a register: PTX has one instruction,
 * ptxas a sequence (NVRTC 13, sm_90, results/intdiv-sass-h100.txt): for 32
 * bits a reciprocal on the SFU (MUFU.RCP) between two conversions (I2F,
 * F2I), which issue at the SFU's rate, and 14 integer instructions
 * (IMAD, IMAD.HI, IADD3, ISETP, LOP3); for 64 bits a subroutine, counted
 * as the integer instructions that make its measured cost (31 cycles a
 * warp on the H100's SM, scripts/bench/ubench/intdiv.cu, at 0.5 a warp
 * instruction).  Their latency is the profile's lat.idiv32 and lat.idiv64.
 * The tables are the instructions beyond the PTX one, per class. */
static const double idiv32[GS_EMU_NCLASS] = { [GS_EMU_INT] = 13, [GS_EMU_SFU] = 3 };
static const double idiv64[GS_EMU_NCLASS] = { [GS_EMU_INT] = 61, [GS_EMU_SFU] = 3 };

/* 1: a bit count, reversal or find (PTX popc, clz, brev, bfind; SASS POPC,
 * FLO, BREV), which the SM issues on the SFU's pipe at its 16 lanes a clock,
 * interleaved MUFU instructions taking as long again
 * (scripts/bench/ubench/bitops.cu, results/ubench-bitops-h200.txt); the
 * PTX's class, the counters', stays integer */
static int bit_count(const struct gs_ins *in)
{
	switch ((enum gs_op)in->op) {
	case GS_OP_POPC32: case GS_OP_POPC64: case GS_OP_CLZ32: case GS_OP_CLZ64:
	case GS_OP_BREV32: case GS_OP_BREV64: case GS_OP_BFIND:
		return 1;
	default:
		return 0;
	}
}

/* 1: a 32- or 16-bit integer division or remainder, 2: a 64-bit one, else 0 */
static int idiv(const struct gs_ins *in)
{
	switch ((enum gs_op)in->op) {
	case GS_OP_DIVU32: case GS_OP_DIVS32: case GS_OP_REMU32: case GS_OP_REMS32:
	case GS_OP_DIVU16: case GS_OP_DIVS16: case GS_OP_REMU16: case GS_OP_REMS16:
		return 1;
	case GS_OP_DIVU64: case GS_OP_DIVS64: case GS_OP_REMU64: case GS_OP_REMS64:
		return 2;
	default:
		return 0;
	}
}

void gs_x_probe_issue(struct gs_xctx *x, const struct gs_xwarp *w, const struct gs_ins *in)
{
	struct gs_xprobe *p = x->pr;
	unsigned wi = w->id;
	size_t pc = (size_t)(in - p->code);
	if (pc >= p->ncode)
		return; /* not this module's code: nothing the executor runs */
	const struct pins *q = &p->pi[pc];
	if (p->issues[pc] != UINT32_MAX)
		p->issues[pc]++;
	if (p->ran[pc] != UINT32_MAX)
		p->ran[pc]++;
	/* within a basic block, in the order its operands allow (ptxas's list
	 * scheduling hoists independent loads above the uses of earlier ones),
	 * one instruction every gap cycles, the stall counts of the machine
	 * code; a branch or barrier waits for the whole block to have issued */
	int ends = q->ends;
	struct pwarp *pw = &p->pw[wi];
	double t = pw->bbs + ++pw->slot * p->gap;
	double nm = pw->bnm;
	double at = len(p, t, nm), v; /* the path to t, kept with it */
	if (ends && (v = len(p, pw->clk + p->gap, pw->wnm)) > at) {
		t = pw->clk + p->gap;
		nm = pw->wnm;
		at = v;
	}
	const struct rdy *ready = p->ready + (size_t)wi * p->nreg;
	for (unsigned i = 0; i < q->ns; i++) {
		const struct rdy *r = &ready[q->s[i]];
		if (r->l > at) {
			t = r->t;
			nm = r->nm;
			at = r->l;
		}
	}
	unsigned lw = p->win ? p->win[pc] : 0;
	if (lw) {
		p->win_sum += lw;
		p->win_loads++;
		if (lw < RING && p->lcount[wi] >= lw) {
			size_t k = (size_t)wi * RING + (p->lcount[wi] - lw) % RING;
			if ((v = len(p, p->lready[k], p->lnm[k])) > at) {
				t = p->lready[k];
				nm = p->lnm[k];
				at = v;
			}
		}
	}
	/* at is len(t, nm) throughout */
	if (at >= pw->clen) {
		pw->clk = t;
		pw->wnm = nm;
		pw->clen = at;
	}
	if (ends) {
		pw->bbs = t;
		pw->slot = 0;
		pw->bnm = nm;
	}
	if (in->cls < GS_EMU_NCLASS)
		p->iv_inst[in->cls]++;
	p->cw = wi;
	p->pt = t;
	p->pnm = nm;
	p->pin = in;
	if (q->xd) {
		/* a division's sequence, beyond the one instruction counted */
		const double *xs = q->xd == 2 ? idiv64 : idiv32;
		for (int c = 0; c < GS_EMU_NCLASS; c++) {
			p->xinst[c] += xs[c];
			p->iv_inst[c] += xs[c];
		}
	}
	/* a warp shuffle is counted for its port (interval.c) */
	if (q->shfl)
		p->shfl++;
	if (q->bits) {
		/* on the SFU's pipe (bit_count) */
		p->xinst[GS_EMU_INT]--, p->iv_inst[GS_EMU_INT]--;
		p->xinst[GS_EMU_SFU]++, p->iv_inst[GS_EMU_SFU]++;
	}
	set_dests(p, q, t + q->lat, nm);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Sorts a warp's values v[0..n) ascending in place (gs_x_sort_warp) and
 * keeps each value once; returns how many are left. */
static unsigned warp_distinct(uint64_t *v, unsigned n)
{
	unsigned u = 0;
	gs_x_sort_warp(v, n);
	for (unsigned i = 0; i < n; i++)
		if (!i || v[i] != v[i - 1])
			v[u++] = v[i];
	return u;
}

/* Sorts v[0..n) ascending: a radix sort by bytes, skipping the bytes that
 * every value shares (the high ones of sector numbers), qsort without the
 * memory for it.  Footprints run to millions of sectors, where qsort's
 * comparisons are most of a block's probe. */
static void sort_u64(uint64_t *v, size_t n)
{
	if (n < 64) {
		qsort(v, n, sizeof *v, cmp_u64);
		return;
	}
	uint64_t *tmp = malloc(n * sizeof *tmp);
	if (!tmp) {
		qsort(v, n, sizeof *v, cmp_u64);
		return;
	}
	uint64_t *a = v, *b = tmp;
	uint64_t same = ~0ull, first = v[0];
	for (size_t i = 1; i < n; i++)
		same &= ~(v[i] ^ first);
	for (int sh = 0; sh < 64; sh += 8) {
		if ((same >> sh & 0xff) == 0xff)
			continue;
		size_t cnt[256] = { 0 };
		for (size_t i = 0; i < n; i++)
			cnt[a[i] >> sh & 0xff]++;
		size_t at = 0;
		for (int k = 0; k < 256; k++) {
			size_t c = cnt[k];
			cnt[k] = at;
			at += c;
		}
		for (size_t i = 0; i < n; i++)
			b[cnt[a[i] >> sh & 0xff]++] = a[i];
		uint64_t *t = a;
		a = b;
		b = t;
	}
	if (a != v)
		memcpy(v, a, n * sizeof *v);
	free(tmp);
}

/* 1 when the sector is in the L1 (and now most recently used), else 0
 * after allocating it there. */
static int l1_access(struct gs_xprobe *p, uint64_t sector, int allocate, struct l1way **at)
{
	unsigned set = (unsigned)((sector ^ (sector >> 11)) % p->sets);
	struct l1way *way = p->way + (size_t)set * p->assoc;
	unsigned lru = 0;
	p->tick++;
	*at = NULL;
	for (unsigned i = 0; i < p->assoc; i++) {
		if (way[i].tag == sector) {
			way[i].age = p->tick;
			*at = &way[i];
			return 1;
		}
		if (way[i].age < way[lru].age)
			lru = i;
	}
	if (allocate) {
		way[lru].tag = sector;
		way[lru].age = p->tick;
		*at = &way[lru];
	}
	return 0;
}

/* Lists sectors of the global footprint, merging the list when it grows
 * long. */
static void footprint_add(struct gs_xprobe *p, const uint64_t *sec, unsigned u)
{
	if (p->ns + u > p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 4096;
		while (cap < p->ns + u)
			cap *= 2;
		uint64_t *ns = realloc(p->sect, cap * sizeof(*ns));
		if (ns) {
			p->sect = ns;
			p->cap = cap;
		}
	}
	for (unsigned i = 0; i < u && p->ns < p->cap; i++)
		p->sect[p->ns++] = sec[i];
	if (p->ns > (1u << 20) && p->ns == p->cap) {
		sort_u64(p->sect, p->ns);
		size_t k = 0;
		for (size_t i = 0; i < p->ns; i++)
			if (!i || p->sect[i] != p->sect[i - 1])
				p->sect[k++] = p->sect[i];
		p->ns = k;
		p->merges++;
	}
}

/* The DRAM weight of a warp load whose L1 misses are the sorted sectors
 * sec[0..n): it completes with the last of the lines they lie in, so the
 * largest of a draw per line (spread.c); 1 without a spread, 0 for no
 * miss. */
static double miss_weight(struct gs_xprobe *p, const uint64_t *sec, unsigned n)
{
	if (!n)
		return 0;
	if (!p->spread)
		return 1;
	double w = 0;
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++) {
		if (i && sec[i] >> 2 == sec[i - 1] >> 2) /* 4 sectors a 128-byte line */
			continue;
		double d = gs_emu_spread_draw(p->spread, p->seed << 32 ^ p->ndraw++);
		if (d > w)
			w = d;
		k++;
	}
	if (k > 2 * GS_WARP)
		k = 2 * GS_WARP;
	if (!(p->emax[k] > 0)) {
		/* the table's draws are equally likely and ascending: the largest
		 * of k is draw i with probability ((i+1)/N)^k - (i/N)^k */
		double e = 0, lo = 0;
		for (int i = 0; i < GS_EMU_SPREAD_N; i++) {
			double hi = pow((double)(i + 1) / GS_EMU_SPREAD_N, k);
			e += p->spread[i] * (hi - lo);
			lo = hi;
		}
		p->emax[k] = e;
	}
	p->mw_sum += w;
	p->mw_exp += p->emax[k];
	return w;
}

/* Of a warp store's distinct sorted sectors sec[0..u), those its lanes
 * (mask m, `size` bytes at addr[]) write only in part; *weighed: their
 * cost, each by how many of its line's sectors are partial (line_w[],
 * partial_weight). */
static unsigned partial_sectors(const unsigned line_w[5], const uint64_t *sec, unsigned u,
				const uint64_t *addr, uint32_t m, unsigned size, uint64_t *weighed)
{
	unsigned cov[2 * GS_WARP] = { 0 };
	for (uint32_t mm = m; mm; mm &= mm - 1) {
		uint64_t a = addr[__builtin_ctz(mm)], end = a + size;
		for (uint64_t sc = a >> 5; sc <= (end - 1) >> 5; sc++) {
			unsigned lo = 0, hi = u;
			while (lo < hi) {
				unsigned mid = (lo + hi) / 2;
				if (sec[mid] < sc)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo == u || sec[lo] != sc)
				continue;
			uint64_t b0 = sc << 5 > a ? sc << 5 : a;
			uint64_t b1 = (sc + 1) << 5 < end ? (sc + 1) << 5 : end;
			cov[lo] += (unsigned)(b1 - b0);
		}
	}
	/* the sorted sectors of a line are neighbours; lanes writing one
	 * byte twice count it twice */
	unsigned n = 0;
	for (unsigned i = 0, j; i < u; i = j) {
		unsigned k = 0;
		for (j = i; j < u && sec[j] >> 2 == sec[i] >> 2; j++)
			k += cov[j] < 32;
		n += k;
		*weighed += (uint64_t)k * line_w[k];
	}
	return n;
}

/* A warp's load of the constant bank, where the profile knows the
 * constant cache (const.wN).  The cache serves one word a warp per
 * request: lanes reading w distinct words serialize, at const.wN cycles
 * of the SM a warp load for N = 1, 2, ..., 32 distinct words
 * (scripts/bench/ubench/terms.cu on the H100, results/ubench-terms-h100.txt:
 * 1.45, 4.10, 8.07, 16.08, 36.10 and 86.95), interpolated between them and
 * charged to the constant cache's own port (interval.c).  A load of one
 * word a warp does not serialize, and it does not take the LSU's pipe
 * either: ptxas folds it into the consuming instruction's constant operand
 * where the address is known after unrolling (conv11.cu at BX=32, BY=4,
 * OY=2, SMEM=1 executes 242 ld.const a thread in PTX and 38 LDC in SASS,
 * its 242 FFMAs reading c[] directly), and where it keeps an LDC (mri-q.cu's
 * loop over the points) the constant cache serves it; the H100 ran
 * conv11's shared-memory variants at 1200 cycles a block for 968 LDS,
 * where LDS and LDC on one pipe would take 2000.  It still takes an issue
 * slot: it is counted apart (interval.c takes it off the LSU's pipe only). */
static void const_load(struct gs_xprobe *p, const uint64_t *addr, uint32_t m)
{
	const double *cc = p->p->const_cycles;
	uint64_t w[GS_WARP];
	unsigned n = 0;
	if (!(cc[1] > 0))
		return;
	for (uint32_t mm = m; mm; mm &= mm - 1)
		w[n++] = addr[__builtin_ctz(mm)] >> 2;
	unsigned u = warp_distinct(w, n);
	if (u <= 1) {
		p->cuni++;
		return;
	}
	unsigned k = 0; /* const.w(2^k) <= u < const.w(2^(k+1)) */
	while (k + 1 < GS_EMU_CONST_W && (2u << k) <= u)
		k++;
	double lo = (double)(1u << k), c = cc[k];
	if (k + 1 < GS_EMU_CONST_W)
		c += (cc[k + 1] - cc[k]) * ((double)u - lo) / lo;
	p->ccyc += c;
}

static int cmp_atomsec(const void *a, const void *b)
{
	uint64_t x = ((const struct gs_emu_atomsec *)a)->sector;
	uint64_t y = ((const struct gs_emu_atomsec *)b)->sector;
	return x < y ? -1 : x > y;
}

/* Sorts the list of atomics' sectors and merges each sector's entries. */
static void atom_merge(struct gs_xprobe *p)
{
	size_t k = 0;
	qsort(p->asect, p->nas, sizeof *p->asect, cmp_atomsec);
	for (size_t i = 0; i < p->nas; i++)
		if (k && p->asect[k - 1].sector == p->asect[i].sector)
			p->asect[k - 1].requests += p->asect[i].requests;
		else
			p->asect[k++] = p->asect[i];
	p->nas = k;
}

/* A warp's global atomic: the L2 serves it as one request per 32-byte
 * sector it touches (interval.c bounds the time by the busiest sector's
 * requests); the list is merged when it grows long, so that a loop of
 * atomics on few sectors keeps it short. */
static void atom_request(struct gs_xprobe *p, const uint64_t *addr, uint32_t m, unsigned size)
{
	uint64_t sec[GS_WARP];
	unsigned n = 0;
	if (!(p->p->atom_sector_ns > 0))
		return;
	for (uint32_t mm = m; mm; mm &= mm - 1)
		sec[n++] = addr[__builtin_ctz(mm)] >> 5;
	(void)size; /* 4 or 8 bytes, aligned: one sector */
	unsigned u = warp_distinct(sec, n);
	int grow = p->nas + u > p->acap;
	if (grow && p->acap >= 65536) {
		atom_merge(p);
		grow = p->nas + u > p->acap / 2; /* merging freed too little */
	}
	if (grow) {
		size_t cap = p->acap ? 2 * p->acap : 1024;
		while (cap < p->nas + u)
			cap *= 2;
		struct gs_emu_atomsec *ns = realloc(p->asect, cap * sizeof(*ns));
		if (!ns)
			return;
		p->asect = ns;
		p->acap = cap;
	}
	for (unsigned i = 0; i < u; i++)
		p->asect[p->nas++] = (struct gs_emu_atomsec){ sec[i], 1 };
}

/* The L1's wavefronts for one warp load where a wavefront also serves at
 * most `lines` distinct 128-byte lines (0: any number, shared memory's
 * rule, a wavefront per distinct word the busiest bank is asked for):
 * lanes grouped as shared memory's
 * (a warp of 4-byte words, a half-warp of 8, a quarter of 16), each
 * group's distinct words packed first-fit in lane order into wavefronts
 * of one word a bank (the same word shared) and at most `lines` lines.
 * scripts/bench/ubench/l1lines.cu on the H200 (results/ubench-l1skew-h200.txt):
 * 32 sectors in 8 lines on 32 banks take 2.00 cycles, in 16 lines 4.00, in
 * 32 lines 8.0; a random gather of 32 words from 4 KiB 6.49, which this
 * packing puts at 5.75 (the banks alone 3.4, the sectors at 128 bytes a
 * clock 7.06). */
static unsigned l1_waves(const uint64_t *addr, uint32_t m, unsigned size, unsigned lines,
			 unsigned *split)
{
	enum { MAXW = 4 * GS_WARP };
	unsigned words = size < 4 ? 1 : size / 4;
	unsigned group = size <= 4 ? GS_WARP : 128 / size;
	uint32_t gmask = group >= 32 ? GS_ALL : (1u << group) - 1;
	unsigned total = 0;
	for (unsigned g0 = 0; g0 < GS_WARP; g0 += group) {
		uint32_t gm = m & (gmask << g0);
		if (!gm)
			continue;
		/* the common case: words within 32 of each other in few lines */
		uint64_t lo = UINT64_MAX, hi = 0;
		for (uint32_t mm = gm; mm; mm &= mm - 1) {
			uint64_t wd = addr[__builtin_ctz(mm)] >> 2;
			lo = wd < lo ? wd : lo;
			hi = wd > hi ? wd : hi;
		}
		hi += words - 1;
		if (hi - lo < 32 && (!lines || (hi >> 5) - (lo >> 5) < lines)) {
			total++;
			/* a warp of 4-byte words straddling a line boundary
			 * costs l1_split_cycles more (fewblocks.cu: 1.077
			 * cycles against 1.008; wider words were not measured) */
			*split += size <= 4 && hi >> 5 != lo >> 5;
			continue;
		}
		static _Thread_local uint64_t bank[MAXW][32], line[MAXW][8];
		unsigned nl[MAXW], nw = 0;
		for (uint32_t mm = gm; mm; mm &= mm - 1) {
			uint64_t w0 = addr[__builtin_ctz(mm)] >> 2;
			for (unsigned k = 0; k < words; k++) {
				uint64_t w = w0 + k, ln = w >> 5;
				unsigned b = (unsigned)(w & 31), f = 0;
				for (; f < nw; f++) {
					if (bank[f][b] != UINT64_MAX && bank[f][b] != w)
						continue;
					unsigned j = 0;
					while (j < nl[f] && line[f][j] != ln)
						j++;
					if (!lines || j < nl[f] || nl[f] < lines)
						break;
				}
				if (f == nw) {
					if (nw == MAXW)
						break;
					for (unsigned i = 0; i < 32; i++)
						bank[f][i] = UINT64_MAX;
					nl[f] = 0;
					nw++;
				}
				bank[f][b] = w;
				unsigned j = 0;
				while (j < nl[f] && line[f][j] != ln)
					j++;
				if (j == nl[f] && lines)
					line[f][nl[f]++] = ln;
			}
		}
		total += nw;
	}
	return total;
}

/* 1 with the memo's count in *nw when the warp's active lanes are the
 * memo's, each moved by the same multiple of 128 bytes (struct wmemo). */
static int same_waves(const struct wmemo *wm, const uint64_t *addr, uint32_t m, unsigned size,
		      unsigned *nw, unsigned *split)
{
	if (wm->m != m || wm->size != size || !m)
		return 0;
	int l0 = __builtin_ctz(m);
	uint64_t d = addr[l0] - wm->addr[l0], diff = d & 127;
	if (m == GS_ALL) {
		for (int l = 0; l < GS_WARP; l++)
			diff |= (addr[l] - wm->addr[l]) ^ d;
	} else {
		for (uint32_t mm = m; mm; mm &= mm - 1) {
			int l = __builtin_ctz(mm);
			diff |= (addr[l] - wm->addr[l]) ^ d;
		}
	}
	if (diff)
		return 0;
	*nw = wm->nw;
	*split = wm->split;
	return 1;
}

/* The last load of a run ptxas merged (ldsvec.c): one instruction for the
 * run's k, taken off the memory pipe's count; the wide load's wavefronts
 * rather than the k loads', taken off the counters' (the block's smem
 * term), and off the probe's own count of one a load (the barrier
 * intervals' and the phases') where the wide load takes fewer than k. */
static void merged_run(struct gs_xprobe *p, int banks, size_t pc, const uint64_t *addr, uint32_t m)
{
	unsigned apart, together;
	int saved = gs_emu_ldsvec_saving(&p->vec[pc], banks, addr, m, &apart, &together);
	if (!saved)
		return;
	p->xinst[GS_EMU_MEM] -= saved;
	p->iv_inst[GS_EMU_MEM] -= saved;
	p->pc_merged[pc] += saved;
	p->smem_merged += (double)apart - together;
	double one = (double)p->vec[pc].k - together;
	if (one > 0) {
		p->iv_smem -= one;
		p->pc_smem[pc] -= one;
	}
}

unsigned gs_x_probe_mem(struct gs_xctx *x, int space, int store, const uint64_t *addr, uint32_t m,
			unsigned size)
{
	struct gs_xprobe *p = x->pr;
	const struct gs_emu_profile *pf = p->p;
	const struct gs_ins *in = p->pin;
	if (space == 3) {
		const_load(p, addr, m);
		return 0;
	}
	if (space == 4) {
		atom_request(p, addr, m, size);
		return 0;
	}
	size_t pc = in ? (size_t)(in - p->code) : SIZE_MAX;
	if (space == 0) { /* shared */
		p->iv_smem++;
		if (pc < p->ncode)
			p->pc_smem[pc]++;
		if (!store && p->vec && pc < p->ncode && p->vec[pc].k)
			merged_run(p, x->banks, pc, addr, m);
		if (!store && in)
			set_dests(p, &p->pi[in - p->code], p->pt + pf->lat_smem, p->pnm);
		return 0;
	}
	/* neighbouring lanes mostly share a sector: each is listed once per
	 * run of lanes, leaving the sort little to do */
	uint64_t sec[2 * GS_WARP], prev = UINT64_MAX; /* no sector is UINT64_MAX */
	unsigned n = 0;
	for (uint32_t mm = m; mm; mm &= mm - 1) {
		uint64_t a = addr[__builtin_ctz(mm)], s0 = a >> 5, s1 = (a + size - 1) >> 5;
		sec[n] = s0; /* kept where it differs from the last one listed */
		n += s0 != prev;
		sec[n] = s1;
		n += s1 != s0;
		prev = s1;
	}
	unsigned u = warp_distinct(sec, n);
	/* the footprint needs each sector once: a load that hits the L1 found
	 * one already listed, so only misses and stores are listed */
	unsigned miss = 0;
	uint64_t *fresh = sec;
	unsigned nf = u;
	/* the latest of the hits on sectors still being filled, and the ways
	 * this load's misses fill */
	double wait_t = 0, wait_nm = 0;
	struct l1way *fill[2 * GS_WARP];
	unsigned nfill = 0;
	if (!store) {
		/* The L1's data banks serve a warp load as shared memory's serve
		 * an access: a wavefront per group of lanes that fills 128 bytes,
		 * and one more for each further distinct word a bank is asked
		 * for, whatever the lines (scripts/bench/ubench/l1lines.cu on the
		 * H100, results/ubench-l1banks-h100.txt: 1.00 SM cycle each; a
		 * tile of 8-wide rows 16 KiB apart takes 4, the same rows 40
		 * bytes apart in their lines 2, and 32 consecutive words over 2
		 * lines 1.145).  Loads only: stores were not measured. */
		if (pf->l1_wave_cycles > 0) {
			struct wmemo *wm = in && p->pi[in - p->code].wm ? &p->wm[p->pi[in - p->code].wm - 1]
								       : NULL;
			unsigned nw = 0, split = 0;
			if (!wm || !same_waves(wm, addr, m, size, &nw, &split)) {
				unsigned ln = pf->l1_wave_lines < 1 ? 0 : pf->l1_wave_lines < 8 ? (unsigned)pf->l1_wave_lines : 8;
				nw = l1_waves(addr, m, size, ln, &split);
				if (wm) {
					memcpy(wm->addr, addr, sizeof wm->addr);
					wm->m = m;
					wm->size = size;
					wm->nw = nw;
					wm->split = split;
				}
			}
			/* the phases count wavefronts at l1_wave_cycles each */
			double eff = nw + split * pf->l1_split_cycles / pf->l1_wave_cycles;
			p->iv_waves += eff;
			p->l1_waves += nw;
			p->l1_split += split;
			if (pc < p->ncode)
				p->pc_waves[pc] += eff;
		}
		nf = 0;
		unsigned lost = 0; /* hits the warps' in-step order would have missed */
		for (unsigned i = 0; i < u; i++) {
			uint64_t sc = sec[i];
			struct l1way *w;
			int hit = l1_access(p, sc, 1, &w);
			if (hit && w->fill_t > p->pt + pf->lat_l1) {
				/* a hit on a sector still on its way waits for its
				 * fill, unless its own miss would have come sooner
				 * (the fill was asked for later on the block's clock) */
				double ta = w->fill_t, na = w->fill_nm;
				double tb = p->pt + pf->lat_l2, nb = p->pnm + w->fill_w;
				if (len(p, tb, nb) < len(p, ta, na))
					ta = tb, na = nb;
				if (len(p, ta, na) > len(p, wait_t, wait_nm))
					wait_t = ta, wait_nm = na;
			}
			if (!hit && w && nfill < 2 * GS_WARP)
				fill[nfill++] = w;
			int r = gs_reuse_touch(p->reuse, p->cw, sc, i, u, hit, p->pt,
					       p->pt + (hit ? pf->lat_l1 : pf->lat_l2));
			lost += (r & GS_REUSE_L1) != 0;
			p->refetch += (r & GS_REUSE_DRAM) != 0;
			if (!hit)
				sec[nf++] = sc;
		}
		miss = nf;
		/* with lines a wavefront, the sectors' bytes bound only what
		 * comes in from the L2 */
		p->iv_sectors += pf->l1_wave_lines >= 1 ? miss + lost : u;
		if (pc < p->ncode)
			p->pc_sectors[pc] += u;
		p->l1_hit += u - miss - lost;
		p->l1_miss += miss + lost;
	}
	if (store && space == 1)
		p->st_partial += partial_sectors(p->line_w, sec, u, addr, m, size, &p->st_partial_w);
	if (space == 1) {
		/* a written sector costs DRAM a write-back besides any read */
		if (store)
			for (unsigned i = 0; i < nf; i++)
				fresh[i] |= GS_EMU_SECTOR_WRITTEN;
		footprint_add(p, fresh, nf);
	}
	if (store) {
		if (space == 1)
			p->st += u;
		return u;
	}
	if (in) {
		double lat = miss ? pf->lat_l2 : pf->lat_l1, e0 = p->mw_exp;
		double nm = p->pnm + miss_weight(p, sec, miss), t = p->pt + lat;
		/* a load that waits for this fill takes its DRAM latency's mean,
		 * not this load's draw: the draw's noise stays with one warp, and
		 * loop sampling (exec_loops.c) finds the waiting warps' rates
		 * steady, as their mean is */
		double ew = p->spread ? p->mw_exp - e0 : nm - p->pnm;
		for (unsigned i = 0; i < nfill; i++) {
			fill[i]->fill_t = t;
			fill[i]->fill_nm = p->pnm + ew;
			fill[i]->fill_w = ew;
		}
		if (len(p, wait_t, wait_nm) > len(p, t, nm))
			t = wait_t, nm = wait_nm;
		set_dests(p, &p->pi[in - p->code], t, nm);
		if (p->lcount && space == 1) {
			size_t k = (size_t)p->cw * RING + p->lcount[p->cw]++ % RING;
			p->lready[k] = t;
			p->lnm[k] = nm;
		}
	}
	return u;
}

void gs_x_probe_barrier(struct gs_xctx *x)
{
	struct gs_xprobe *p = x->pr;
	double t = 0;
	double nm = 0;
	for (unsigned i = 0; i < p->nwarps; i++)
		if (x->w[i].state == GS_XW_BAR && len(p, p->pw[i].clk, p->pw[i].wnm) > len(p, t, nm)) {
			t = p->pw[i].clk;
			nm = p->pw[i].wnm;
		}
	t += p->p->barrier_cycles;
	interval_end(p, t);
	for (unsigned i = 0; i < p->nwarps; i++)
		if (x->w[i].state == GS_XW_BAR) {
			p->pw[i].clk = p->pw[i].bbs = t;
			p->pw[i].slot = 0;
			p->pw[i].wnm = p->pw[i].bnm = nm;
			p->pw[i].clen = len(p, t, nm);
		}
}

/* What the SM's ports take for a block beyond the busiest port's total,
 * were the block's warps in step through its phases: the code in PTX
 * order, cut where it goes from straight code into a loop (the span of a
 * backward branch some warp took, issued more often than the block has
 * warps) and out, each part taking its own busiest port.  A thread that
 * loads its rows through 32 L1 wavefronts each and then computes on them
 * in a loop is the case (scripts/bench/ubench/phases.cu; kmeans's
 * row-major points); a loop's own rarely taken paths stay in its part.
 * Shared memory's bank-conflict replays are not counted per instruction,
 * so a part busy on them shows less than it is. */
static double phase_excess(const struct gs_xprobe *p)
{
	int *inloop = p->inloop;
	const struct gs_emu_profile *pf = p->p;
	double tot[GS_EMU_NCLASS] = { 0 }, part[GS_EMU_NCLASS] = { 0 };
	double ts = 0, tsec = 0, tw = 0, s = 0, sec = 0, w = 0, sum = 0;
	int cur = -1;
	memset(inloop, 0, (p->ncode + 1) * sizeof(*inloop));
	for (size_t pc = 0; pc < p->ncode; pc++) {
		int32_t t = p->code[pc].tgt;
		if (p->code[pc].op == GS_OP_BRA && t >= 0 && (size_t)t <= pc &&
		    p->issues[pc] > p->nwarps) {
			inloop[t]++;
			inloop[pc + 1]--;
		}
	}
	for (size_t pc = 1; pc <= p->ncode; pc++)
		inloop[pc] += inloop[pc - 1];
	for (size_t pc = 0; pc < p->ncode; pc++) {
		if (!p->issues[pc] || !p->ran[pc])
			continue;
		int loop = inloop[pc] > 0;
		if (cur >= 0 && loop != cur) {
			sum += port_cycles(pf, part, s, sec, w);
			memset(part, 0, sizeof part);
			s = sec = w = 0;
		}
		cur = loop;
		double k = (double)p->issues[pc], f = k / (double)p->ran[pc];
		unsigned cls = p->code[pc].cls;
		const double *xs = p->pi[pc].xd == 2 ? idiv64 : p->pi[pc].xd == 1 ? idiv32 : NULL;
		for (int c = 0; c < GS_EMU_NCLASS; c++) {
			double v = (c == (int)cls ? k : 0) + (xs ? k * xs[c] : 0);
			if (p->pi[pc].bits)
				v += c == GS_EMU_SFU ? k : c == GS_EMU_INT ? -k : 0;
			if (c == GS_EMU_MEM)
				v -= p->pc_merged[pc] * f;
			part[c] += v;
			tot[c] += v;
		}
		s += p->pc_smem[pc] * f, sec += p->pc_sectors[pc] * f, w += p->pc_waves[pc] * f;
		ts += p->pc_smem[pc] * f, tsec += p->pc_sectors[pc] * f, tw += p->pc_waves[pc] * f;
	}
	if (cur < 0)
		return 0;
	sum += port_cycles(pf, part, s, sec, w);
	double all = port_cycles(pf, tot, ts, tsec, tw);
	return sum > all ? sum - all : 0;
}

void gs_x_probe_end(struct gs_xctx *x, size_t blk)
{
	struct gs_emu_blockstat *out = &x->l->stats[blk];
	struct gs_xprobe *p = x->pr;
	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < p->nwarps; i++)
		if (len(p, p->pw[i].clk, p->pw[i].wnm) > len(p, out->chain, out->chain_misses)) {
			out->chain = p->pw[i].clk;
			out->chain_misses = p->pw[i].wnm;
		}
	interval_end(p, out->chain);
	out->exposed = p->exposed;
	out->l1_hit = p->l1_hit;
	out->l1_miss = p->l1_miss;
	out->refetch = p->refetch;
	out->l1_waves = p->l1_waves;
	out->l1_split = p->l1_split;
	out->st_sectors = p->st;
	out->st_partial = p->st_partial;
	out->st_partial_w = p->st_partial_w;
	uint64_t all = 0, loop = 0;
	size_t lo = SIZE_MAX, hi = 0;
	for (size_t i = 0; i < p->ncode; i++) {
		all += p->issues[i];
		if (p->issues[i] > p->nwarps) {
			if (lo == SIZE_MAX)
				lo = i;
			hi = i;
			loop += p->issues[i];
		}
	}
	out->loop_ins = lo == SIZE_MAX ? 0 : (uint32_t)(hi - lo + 1);
	out->loop_share = all ? (double)loop / (double)all : 0;
	out->phase_excess = phase_excess(p);
	/* the machine code, where known, says what the warps stream through:
	 * its loop, or, where ptxas unrolled every loop, all of it, each
	 * instruction fetched as a loop's would be (sass.c, icache.c) */
	if (x->l->text_bytes) {
		out->code_bytes = (double)(x->l->sass_loop_bytes ? x->l->sass_loop_bytes
								 : x->l->text_bytes);
		if (!x->l->sass_loop_bytes)
			out->loop_share = 1;
	}
	out->local_frame = x->local_bytes;
	out->win_sum = p->win_sum;
	out->win_loads = p->win_loads;
	out->loop_skipped = gs_x_loops_skipped(x);
	memcpy(out->xinst, p->xinst, sizeof out->xinst);
	out->const_cycles = p->ccyc;
	out->const_uniform = p->cuni;
	out->shuffles = p->shfl;
	out->smem_merged = p->smem_merged;
	if (p->nas)
		atom_merge(p);
	out->atom = p->asect;
	out->natom = p->nas;
	p->asect = NULL;
	p->nas = p->acap = 0;
	if (p->ns)
		sort_u64(p->sect, p->ns);
	size_t k = 0;
	for (size_t i = 0; i < p->ns; i++)
		if (!i || p->sect[i] != p->sect[i - 1])
			p->sect[k++] = p->sect[i];
	out->sectors = p->sect;
	out->nsectors = k;
	p->sect = NULL;
	p->ns = p->cap = 0;
	out->c = x->c;
}

void gs_emu_blockstat_release(struct gs_emu_blockstat *b)
{
	free(b->sectors);
	b->sectors = NULL;
	b->nsectors = 0;
	free(b->atom);
	b->atom = NULL;
	b->natom = 0;
}

/* ---- loop sampling (interp/exec_loops.c) ------------------------------------------ */

/* What of the probe one warp's iterations of a loop add to: its chain,
 * the block's counts, the footprint's length, the issues of the loop's
 * instructions [lo, hi] (after the fixed part). */
struct snap {
	double clk, wnm, bbs, bnm, clen;
	double win_sum, ccyc, iv_smem, iv_sectors, iv_waves, exposed, iv_start, smem_merged;
	double mw_sum, mw_exp;
	double xinst[GS_EMU_NCLASS], iv_inst[GS_EMU_NCLASS];
	uint64_t l1_hit, l1_miss, st, st_partial, st_partial_w, l1_waves, l1_split, win_loads, cuni, shfl, refetch;
	uint64_t ns, merges, nas;
	unsigned lcount;
	uint32_t issues[];
};

size_t gs_x_probe_snap_bytes(size_t lo, size_t hi)
{
	return sizeof(struct snap) + (hi - lo + 1) * sizeof(uint32_t);
}

void gs_x_probe_snap(const struct gs_xctx *x, unsigned wi, size_t lo, size_t hi, void *buf)
{
	const struct gs_xprobe *p = x->pr;
	const struct pwarp *pw = &p->pw[wi];
	struct snap *s = buf;
	memset(s, 0, sizeof(*s));
	s->clk = pw->clk, s->wnm = pw->wnm, s->bbs = pw->bbs, s->bnm = pw->bnm;
	s->clen = pw->clen;
	s->win_sum = p->win_sum, s->ccyc = p->ccyc, s->iv_smem = p->iv_smem;
	s->smem_merged = p->smem_merged;
	s->iv_sectors = p->iv_sectors, s->iv_waves = p->iv_waves;
	s->exposed = p->exposed, s->iv_start = p->iv_start;
	s->mw_sum = p->mw_sum, s->mw_exp = p->mw_exp;
	memcpy(s->xinst, p->xinst, sizeof s->xinst);
	memcpy(s->iv_inst, p->iv_inst, sizeof s->iv_inst);
	s->l1_hit = p->l1_hit, s->l1_miss = p->l1_miss, s->st = p->st;
	s->st_partial = p->st_partial, s->l1_waves = p->l1_waves, s->l1_split = p->l1_split, s->win_loads = p->win_loads;
	s->st_partial_w = p->st_partial_w;
	s->cuni = p->cuni, s->shfl = p->shfl, s->refetch = p->refetch;
	s->ns = p->ns, s->merges = p->merges, s->nas = p->nas;
	s->lcount = p->lcount ? p->lcount[wi] : 0;
	memcpy(s->issues, p->issues + lo, (hi - lo + 1) * sizeof(uint32_t));
}

double gs_x_probe_snap_len(const void *snap)
{
	return ((const struct snap *)snap)->clen;
}

/* The footprint of u more units like the last, b's sectors since a, each
 * moved by its distance from the same sector of the unit before (c to a),
 * a unit being two iterations (a load of 16 bytes a lane takes a new
 * sector every other one):
 * 0, or -1 where the units differ in length (their sectors do not pair). */
static int footprint_extend(struct gs_xprobe *p, const struct snap *c, const struct snap *a,
			    const struct snap *b, uint64_t u)
{
	size_t n = b->ns - a->ns;
	if (!n)
		return 0;
	if (a->ns - c->ns != n)
		return -1;
	uint64_t d[2 * GS_WARP], sec[2 * GS_WARP];
	for (size_t at = 0; at < n; at += 2 * GS_WARP) {
		unsigned k = n - at < 2 * GS_WARP ? (unsigned)(n - at) : 2 * GS_WARP;
		for (unsigned i = 0; i < k; i++)
			d[i] = p->sect[a->ns + at + i] - p->sect[c->ns + at + i];
		for (uint64_t j = 1; j <= u; j++) {
			for (unsigned i = 0; i < k; i++)
				sec[i] = p->sect[a->ns + at + i] + j * d[i];
			footprint_add(p, sec, k);
		}
	}
	return 0;
}

int gs_x_probe_skip_block(struct gs_xctx *x, size_t lo, size_t hi, const void *s0_,
			  const void *c_, const void *a_, const void *b_, uint64_t span,
			  uint64_t skip, uint64_t units, int barriers)
{
	struct gs_xprobe *p = x->pr;
	const struct snap *s0 = s0_, *c = c_, *a = a_, *b = b_;
	/* iterations that merged the footprint or made atomics, or waited at a
	 * barrier in a loop said to have none, are not ones whose repeats are
	 * known (a loop with barriers skips at one, the block having gone on
	 * since the snapshots) */
	if (b->merges != s0->merges || p->merges != b->merges || b->nas != s0->nas ||
	    (!barriers && (p->ns != b->ns || b->exposed != s0->exposed ||
			   b->iv_start != s0->iv_start)))
		return -1;
	/* rates over the whole span: a miss's DRAM latency is a draw (spread.c),
	 * and one unit's draws are few */
	double f = (double)skip / (double)span;
	if (footprint_extend(p, c, a, b, units) < 0)
		return -1;
#define GROW(fl) (p->fl += (b->fl - s0->fl) * skip / span)
	GROW(l1_hit), GROW(l1_miss), GROW(st), GROW(st_partial), GROW(st_partial_w), GROW(l1_waves),
		GROW(l1_split);
	GROW(win_loads), GROW(cuni), GROW(shfl), GROW(refetch);
#undef GROW
#define GROW(fl) (p->fl += (b->fl - s0->fl) * f)
	GROW(win_sum), GROW(ccyc), GROW(smem_merged);
	for (int k = 0; k < GS_EMU_NCLASS; k++)
		GROW(xinst[k]);
	if (barriers) {
		/* the barrier intervals' own sums start again at each barrier:
		 * the skipped ones add their exposed latency, and time moves on */
		GROW(exposed), GROW(iv_start);
	} else {
		GROW(iv_smem), GROW(iv_sectors), GROW(iv_waves);
		for (int k = 0; k < GS_EMU_NCLASS; k++)
			GROW(iv_inst[k]);
	}
#undef GROW
	for (size_t i = lo; i <= hi; i++) {
		uint64_t v = p->issues[i] + skip * (uint64_t)(b->issues[i - lo] - s0->issues[i - lo]) / span;
		p->issues[i] = v < UINT32_MAX ? (uint32_t)v : UINT32_MAX;
	}
	return 0;
}

void gs_x_probe_skip_warp(struct gs_xctx *x, unsigned wi, const uint32_t *dregs, unsigned nd,
			  const void *s0_, const void *b_, uint64_t span, uint64_t skip)
{
	struct gs_xprobe *p = x->pr;
	const struct snap *s0 = s0_, *b = b_;
	double f = (double)skip / (double)span;
	double dt = (b->clk - s0->clk) * f, dm = (b->wnm - s0->wnm) * f;
	/* The span's DRAM weights are a few draws: what they add to the
	 * chain in the skipped iterations is taken at their mean, so that a
	 * lucky span does not make a long block (the model paces the last
	 * wave by the longest sampled block: a spread of estimates would
	 * raise it).  The time the chain gained with them moves as much. */
	double got = b->mw_sum - s0->mw_sum, mean = b->mw_exp - s0->mw_exp;
	if (got > 0 && mean > 0) {
		double fix = dm * (mean / got - 1);
		dm += fix;
	}
	struct pwarp *pw = &p->pw[wi];
	pw->clk += dt, pw->bbs += dt;
	pw->wnm += dm, pw->bnm += dm;
	pw->clen = len(p, pw->clk, pw->wnm);
	struct rdy *ready = p->ready + (size_t)wi * p->nreg;
	for (unsigned i = 0; i < nd; i++) {
		unsigned r = reg(p, dregs[i]);
		if (r == UINT32_MAX)
			continue;
		ready[r].t += dt;
		ready[r].nm += dm;
		ready[r].l = len(p, ready[r].t, ready[r].nm);
	}
	if (p->lcount) {
		for (unsigned k = 0; k < RING; k++) {
			p->lready[(size_t)wi * RING + k] += dt;
			p->lnm[(size_t)wi * RING + k] += dm;
		}
		p->lcount[wi] += (unsigned)(skip * (b->lcount - s0->lcount) / span);
	}
}
