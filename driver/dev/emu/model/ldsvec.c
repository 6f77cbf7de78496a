/* ldsvec.c — shared loads that ptxas merges into one wider load.
 *
 * The PTX reads a row of a shared tile one scalar at a time: a register
 * tile's k loop, unrolled, loads a[r][k], a[r][k+1], ... from one base
 * register at offsets 4 bytes apart.  Where ptxas can prove the row
 * aligned it issues them as one LDS.64 or LDS.128 (bgemm's register tiles
 * of scripts/bench/heldout2/: 544 ld.shared.f32 a thread in the PTX, 160
 * LDS in the cubin, 128 of them LDS.128; matmul, matvec, kmeans, polyeval
 * and softmax show the same).  Counted as the PTX says, such a kernel
 * issues up to four times the memory instructions it does, and a load of
 * one word a warp (a broadcast) costs four wavefronts where the wide load
 * takes one.
 *
 * Which loads can merge is read off the PTX: in one basic block, scalar
 * ld.shared of one size from one base register (not rewritten in
 * between, with the same guard, no shared store or atomic in between),
 * their offsets forming a run of 8 or 16 bytes.  Whether ptxas did merge is
 * read off its machine code: the widest LDS it issued (sass.c).  Whether a
 * run is aligned, which ptxas must have proven to merge it, is checked on
 * the addresses each time the run's last load executes; an unaligned run
 * counts as the PTX says.  The machine code is not paired with the PTX
 * load by load: where ptxas merged some runs, every run found aligned is
 * taken as merged, though ptxas may have failed to prove one of them
 * aligned (a cubin that has no wide LDS merges nothing).
 *
 * What a merged run costs: one instruction, and the wavefronts shared
 * memory takes for the wide load (gs_x_banks_load, measured: a 16-byte
 * broadcast two where its four scalar loads took four, a warp of
 * consecutive 16-byte rows four where they took sixteen, four lanes a
 * bank each). */
#include "dev/emu/interp/exec_int.h"
#include "dev/emu/model/model.h"

#include <stdlib.h>
#include <string.h>

enum { PENDING = 256 };

struct cand {
	uint32_t pc, base;
	int32_t guard;
	uint8_t gneg, sz;
	int64_t imm;
};

static int by_key(const void *a_, const void *b_)
{
	const struct cand *a = a_, *b = b_;
	if (a->base != b->base)
		return a->base < b->base ? -1 : 1;
	if (a->sz != b->sz)
		return a->sz < b->sz ? -1 : 1;
	if (a->guard != b->guard)
		return a->guard < b->guard ? -1 : 1;
	if (a->gneg != b->gneg)
		return a->gneg < b->gneg ? -1 : 1;
	if (a->imm != b->imm)
		return a->imm < b->imm ? -1 : 1;
	return a->pc < b->pc ? -1 : a->pc > b->pc;
}

static int same_key(const struct cand *a, const struct cand *b)
{
	return a->base == b->base && a->sz == b->sz && a->guard == b->guard && a->gneg == b->gneg;
}

/* Is there a load of key c at offset imm among c[0..n) (sorted, one key)? */
static const struct cand *find(const struct cand *c, size_t n, int64_t imm)
{
	for (size_t i = 0; i < n; i++)
		if (c[i].imm == imm)
			return &c[i];
	return NULL;
}

/* Groups the pending loads c[0..n) into runs and marks each run's last
 * load in code order. */
static void close_runs(struct gs_ldsvec *g, struct cand *c, size_t n, unsigned vmax)
{
	qsort(c, n, sizeof(*c), by_key);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && same_key(&c[i], &c[j]))
			j++;
		/* one key: offsets ascending, a repeated offset's first load kept */
		for (size_t k = i; k < j;) {
			unsigned sz = c[k].sz, run = 0;
			for (unsigned v = vmax; v >= 2 * sz && !run; v /= 2) {
				unsigned need = v / sz, have = 1;
				while (have < need && find(c + i, j - i, c[k].imm + (int64_t)have * sz))
					have++;
				if (have == need)
					run = v;
			}
			if (!run) {
				k++;
				continue;
			}
			const struct cand *lm = &c[k];
			for (unsigned e = 1; e < run / sz; e++) {
				const struct cand *m = find(c + i, j - i, c[k].imm + (int64_t)e * sz);
				if (m->pc > lm->pc)
					lm = m;
			}
			struct gs_ldsvec *at = &g[lm->pc];
			at->k = (uint8_t)(run / sz);
			at->sz = (uint8_t)sz;
			at->bytes = (uint8_t)run;
			at->rel = (uint32_t)(lm->imm - c[k].imm);
			int64_t end = c[k].imm + run;
			while (k < j && c[k].imm < end)
				k++;
		}
		i = j;
	}
}

struct gs_ldsvec *gs_emu_ldsvec_runs(const struct gs_ins *code, size_t ncode, unsigned vmax)
{
	if (vmax < 8 || !ncode)
		return NULL;
	struct gs_ldsvec *g = calloc(ncode, sizeof(*g));
	uint8_t *starts = calloc(ncode + 1, 1);
	struct cand *c = malloc(PENDING * sizeof(*c));
	if (!g || !starts || !c) {
		free(g);
		free(starts);
		free(c);
		return NULL;
	}
	for (size_t pc = 0; pc < ncode; pc++)
		if ((code[pc].op == GS_OP_BRA || code[pc].op == GS_OP_CALL) && code[pc].tgt >= 0 &&
		    (size_t)code[pc].tgt < ncode)
			starts[code[pc].tgt] = 1;
	size_t n = 0;
	for (size_t pc = 0; pc < ncode; pc++) {
		const struct gs_ins *in = &code[pc];
		if (starts[pc] && n) {
			close_runs(g, c, n, vmax);
			n = 0;
		}
		int shared = in->sub == GS_SP_SHARED || in->sub == GS_SP_GENERIC;
		if (in->op == GS_OP_LD && in->sub == GS_SP_SHARED && in->nv == 1 &&
		    (in->sz == 4 || in->sz == 8) && in->o[0] != GS_NONE) {
			if (n == PENDING) {
				close_runs(g, c, n, vmax);
				n = 0;
			}
			c[n++] = (struct cand){ (uint32_t)pc, in->o[4], in->guard, in->gneg, in->sz, in->imm };
		} else if ((in->op == GS_OP_ST && shared) ||
			   (in->op == GS_OP_ATOM && ((in->f & 0x0f) == GS_SP_SHARED ||
						     (in->f & 0x0f) == GS_SP_GENERIC))) {
			if (n)
				close_runs(g, c, n, vmax);
			n = 0;
		}
		/* a rewritten base register ends its loads' runs; a written
		 * destination that is a base too (a pointer chase) as well */
		uint32_t r[6];
		int nw = gs_ins_regs(in, 1, r);
		for (int w = 0; w < nw && n; w++) {
			int hit = 0;
			for (size_t q = 0; q < n; q++)
				hit |= c[q].base == r[w] && c[q].pc != pc;
			if (hit) {
				close_runs(g, c, n, vmax);
				n = 0;
			}
		}
		if (n && (in->cls == GS_EMU_CTRL || in->cls == GS_EMU_BARRIER || in->op == GS_OP_BRA ||
			  in->op == GS_OP_CALL || in->op == GS_OP_RET || in->op == GS_OP_EXIT)) {
			close_runs(g, c, n, vmax);
			n = 0;
		}
	}
	if (n)
		close_runs(g, c, n, vmax);
	free(starts);
	free(c);
	return g;
}

int gs_emu_ldsvec_saving(const struct gs_ldsvec *g, int banks, const uint64_t *addr, uint32_t m,
			 unsigned *apart, unsigned *together)
{
	uint64_t base[GS_WARP], at[GS_WARP];
	*apart = *together = 0;
	if (!m)
		return 0;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint32_t mm = m; mm; mm &= mm - 1) {
		int l = __builtin_ctz(mm);
		base[l] = addr[l] - g->rel;
		if (base[l] % g->bytes)
			return 0; /* not aligned: ptxas cannot have merged it */
		lo = base[l] < lo ? base[l] : lo;
		hi = base[l] > hi ? base[l] : hi;
	}
	*together = 1 + gs_x_banks_load(banks, base, m, g->bytes);
	/* each load's words within 32 of each other: one wavefront each */
	if (banks == 32 && ((hi - lo) >> 2) + g->sz / 4 <= 32) {
		*apart = g->k;
		return g->k - 1;
	}
	unsigned n = 0;
	for (unsigned e = 0; e < g->k; e++) {
		for (uint32_t mm = m; mm; mm &= mm - 1) {
			int l = __builtin_ctz(mm);
			at[l] = base[l] + (uint64_t)e * g->sz;
		}
		n += 1 + gs_x_banks_load(banks, at, m, g->sz);
	}
	*apart = n;
	return g->k - 1;
}
