/* ptx.c — the PTX loader's driver and its public functions.
 *
 * gs_ptx_load parses the text (ptx_lex.c) and decodes every function
 * (ptx_decode.c), then lays the module out for the executor:
 *   - parameter offsets: kernel parameters in the launch's buffer, those of
 *     .func functions (and return values) at fixed places of a per-thread
 *     area, which is why recursion is refused;
 *   - register offsets: the constant slots first, then the registers of
 *     every .func, then those of the entries, which share one range since
 *     a launch runs one entry;
 *   - the call graph, and per entry its shared and local memory, whether it
 *     uses global atomics, and the template of its constant slots;
 *   - where each divergent branch reconverges: the immediate
 *     post-dominator of the branch's basic block;
 *   - module variables (.global, .const) in the device memory, initialized.
 *
 * Ownership: the module owns everything it points to; gs_ptx_free releases
 * it and gives the variables' allocations back to the memory. */
#include "dev/emu/interp/ptx_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

/* ---- parameters ------------------------------------------------------------------ */

static void layout_params(struct gs_ptxl *L)
{
	struct gs_ptx_module *m = L->m;
	uint64_t area = 0, amax = 1;

	for (size_t f = 0; f < m->nfuncs; f++) {
		struct gs_ptx_func *fn = &m->funcs[f];
		uint64_t off = 0, *cur = fn->entry ? &off : &area;

		for (size_t i = 0; i < fn->nparams + (size_t)fn->nret; i++) {
			int v = i < fn->nparams ? fn->pvar[i] : L->fn[f].rvar;
			struct gs_ptx_var *var = &m->vars[v];

			*cur = align_up(*cur, var->align);
			var->addr = *cur;
			if (i < fn->nparams)
				fn->poff[i] = *cur;
			else
				fn->roff = *cur;
			*cur += var->size;
			if (!fn->entry && var->align > amax)
				amax = var->align;
		}
		if (fn->entry)
			fn->kparam_bytes = off;
	}
	m->lparam_bytes = align_up(area, amax);
}

/* ---- registers and constant slots ------------------------------------------------ */

static void relocate(struct gs_ptxl *L)
{
	struct gs_ptx_module *m = L->m;
	uint64_t off = 0, base, emax = 0;
	uint64_t *fbase = gs_arena_alloc(&L->arena, (m->nfuncs + 1) * sizeof(*fbase));

	for (size_t i = 0; i < m->nslots; i++) {
		m->slots[i].off = (uint32_t)off;
		off += (uint64_t)GS_WARP * (m->slots[i].wide ? 8 : 4);
	}
	m->const_lo = 0;
	base = off;
	for (size_t f = 0; f < m->nfuncs; f++) {
		if (!m->funcs[f].entry && m->funcs[f].defined) {
			fbase[f] = base;
			base += L->fn[f].rf_used;
		}
	}
	for (size_t f = 0; f < m->nfuncs; f++) {
		if (m->funcs[f].entry) {
			fbase[f] = base;
			if (L->fn[f].rf_used > emax)
				emax = L->fn[f].rf_used;
		}
	}
	if (base + emax > UINT32_MAX / 2)
		gs_ptxl_fail(L, "the module needs too many registers (%llu bytes per warp)",
			     (unsigned long long)(base + emax));
	m->const_hi = (uint32_t)off;
	m->rf_bytes = (uint32_t)(base + emax);
	/* which registers are 64-bit, for what reads a register's lanes
	 * without an instruction to say (loop sampling, exec_loops.c): per
	 * entry, since entries share the registers above base */
	for (size_t e = 0; e < m->nfuncs; e++) {
		if (!m->funcs[e].entry || !m->funcs[e].defined)
			continue;
		uint8_t *wide = gs_xcalloc(m->rf_bytes / 128 + 1, 1);
		for (size_t i = 0; i < m->nslots; i++)
			wide[m->slots[i].off >> 7] = m->slots[i].wide;
		for (size_t f = 0; f < m->nfuncs; f++) {
			if (!m->funcs[f].defined || (m->funcs[f].entry && f != e))
				continue;
			for (size_t r = 0; r < L->fn[f].nreg; r++) {
				const struct gs_ptxl_reg *g = &L->fn[f].reg[r];
				if (g->width == 8 && g->off >= 0)
					wide[(fbase[f] + (uint64_t)g->off) >> 7] = 1;
			}
		}
		m->funcs[e].rwide = wide;
	}
	for (size_t f = 0; f < m->nfuncs; f++) {
		const struct gs_ptx_func *fn = &m->funcs[f];

		if (!fn->defined)
			continue;
		for (int32_t pc = fn->pc0; pc < fn->pc1; pc++) {
			struct gs_ins *in = &m->code[pc];

			for (int i = 0; i < 6; i++) {
				if (!(L->rfmask[pc] & (1u << i)))
					continue;
				if (in->o[i] & GS_PL_CONST)
					in->o[i] = m->slots[in->o[i] & ~GS_PL_CONST].off;
				else
					in->o[i] = (uint32_t)(fbase[f] + in->o[i]);
			}
		}
	}
}

/* ---- calls -------------------------------------------------------------------------- */

/* the line of a call from f to g */
static uint32_t call_line(const struct gs_ptx_module *m, int f, int g)
{
	for (int32_t pc = m->funcs[f].pc0; pc < m->funcs[f].pc1; pc++)
		if (m->code[pc].op == GS_OP_CALL && m->code[pc].o[0] == (uint32_t)g)
			return m->code[pc].line;
	return m->funcs[f].line;
}

/* depth-first: 0 unvisited, 1 on the path, 2 done */
static void no_cycle(struct gs_ptxl *L, int f, char *state)
{
	struct gs_ptx_func *fn = &L->m->funcs[f];

	state[f] = 1;
	for (size_t i = 0; i < fn->ncallees; i++) {
		int g = fn->callees[i];

		if (state[g] == 1)
			gs_ptxl_fail(L, "recursion is not supported: '%s' calls '%s' at line %u, "
				     "which is already being called", fn->name, L->m->funcs[g].name,
				     call_line(L->m, f, g));
		if (state[g] == 0)
			no_cycle(L, g, state);
	}
	state[f] = 2;
}

static void link_calls(struct gs_ptxl *L)
{
	struct gs_ptx_module *m = L->m;
	char *state = gs_arena_alloc(&L->arena, m->nfuncs + 1);

	memset(state, 0, m->nfuncs + 1);
	for (size_t f = 0; f < m->nfuncs; f++)
		if (!state[f])
			no_cycle(L, (int)f, state);
	for (size_t pc = 0; pc < m->ncode; pc++)
		if (m->code[pc].op == GS_OP_CALL)
			m->code[pc].tgt = m->funcs[m->code[pc].o[0]].pc0;
}

/* ---- reconvergence ------------------------------------------------------------------- */

struct cfg {
	int nb;           /* blocks; node nb is the exit */
	int32_t *start;   /* first pc of each block */
	int *bof;         /* block of each pc (relative to pc0) */
	int *succ;        /* three per block (the third: an added edge to the exit), -1: none */
	int *po;          /* postorder number on the reverse graph, -1: unreached */
	int *ipdom;
};

static int ends_block(const struct gs_ins *in)
{
	return in->op == GS_OP_BRA || in->op == GS_OP_RET || in->op == GS_OP_EXIT ||
	       in->op == GS_OP_TRAP;
}

/* postorder of the reverse graph from the exit: a node's reverse successors
 * are its predecessors in the CFG (iterative, the stack holds nodes and the
 * next predecessor to look at) */
static void reverse_postorder(struct cfg *g, int n, int *order)
{
	int *stack = malloc(2 * (size_t)(n + 1) * sizeof(*stack));
	int sp = 0, num = 0;

	if (!stack)
		gs_oom();
	for (int i = 0; i <= n; i++)
		g->po[i] = -1;
	g->po[n] = -2; /* being visited */
	stack[sp++] = n;
	stack[sp++] = 0;
	while (sp) {
		int v = stack[sp - 2], k = stack[sp - 1];

		/* the next CFG predecessor of v: a block u with v among its successors */
		while (k < g->nb && !((g->succ[3 * k] == v || g->succ[3 * k + 1] == v ||
				       g->succ[3 * k + 2] == v) && g->po[k] == -1))
			k++;
		if (k < g->nb) {
			stack[sp - 1] = k + 1;
			g->po[k] = -2;
			stack[sp++] = k;
			stack[sp++] = 0;
		} else {
			g->po[v] = num;
			order[num++] = v;
			sp -= 2;
		}
	}
	free(stack);
}

static int intersect(const struct cfg *g, int a, int b)
{
	while (a != b) {
		while (g->po[a] < g->po[b])
			a = g->ipdom[a];
		while (g->po[b] < g->po[a])
			b = g->ipdom[b];
	}
	return a;
}

/* Immediate post-dominators (Cooper, Harvey, Kennedy: "A Simple, Fast
 * Dominance Algorithm", on the reverse CFG).  Where blocks never reach the
 * exit (endless loops), the last of them in program order gets an edge to
 * it, until all do: branches inside such a loop still meet inside it. */
static void post_dominators(struct cfg *g)
{
	int n = g->nb, *order = malloc((size_t)(n + 1) * sizeof(*order));

	if (!order)
		gs_oom();
	for (;;) {
		int last = -1;

		reverse_postorder(g, n, order);
		for (int b = 0; b < n; b++)
			if (g->po[b] < 0)
				last = b;
		if (last < 0)
			break;
		/* the last block of an endless loop is usually its latch */
		g->succ[3 * last + 2] = n;
	}
	for (int i = 0; i <= n; i++)
		g->ipdom[i] = -1;
	g->ipdom[n] = n;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int i = n - 1; i >= 0; i--) { /* reverse postorder, the exit (last) skipped */
			int b = order[i], nd = -1;

			if (b == n)
				continue;
			for (int k = 0; k < 3; k++) {
				int s = g->succ[3 * b + k];

				if (s < 0 || g->ipdom[s] < 0)
					continue;
				nd = nd < 0 ? s : intersect(g, s, nd);
			}
			if (nd >= 0 && g->ipdom[b] != nd) {
				g->ipdom[b] = nd;
				changed = 1;
			}
		}
	}
	free(order);
}

static void reconverge(struct gs_ptxl *L, int f)
{
	struct gs_ptx_module *m = L->m;
	struct gs_ptx_func *fn = &m->funcs[f];
	int32_t pc0 = fn->pc0, n = fn->pc1 - fn->pc0;
	struct gs_arena_mark mark = gs_arena_mark(&L->arena);
	struct cfg g = { 0 };
	char *lead = gs_arena_alloc(&L->arena, (size_t)n + 1);

	memset(lead, 0, (size_t)n + 1);
	lead[0] = 1;
	for (int32_t i = 0; i < n; i++) {
		const struct gs_ins *in = &m->code[pc0 + i];

		if (in->op == GS_OP_BRA)
			lead[in->tgt - pc0] = 1;
		if (ends_block(in))
			lead[i + 1] = 1;
	}
	g.bof = gs_arena_alloc(&L->arena, (size_t)n * sizeof(*g.bof));
	g.start = gs_arena_alloc(&L->arena, ((size_t)n + 1) * sizeof(*g.start));
	for (int32_t i = 0; i < n; i++) {
		if (lead[i])
			g.start[g.nb++] = pc0 + i;
		g.bof[i] = g.nb - 1;
	}
	g.succ = gs_arena_alloc(&L->arena, 3 * ((size_t)g.nb + 1) * sizeof(*g.succ));
	g.po = gs_arena_alloc(&L->arena, ((size_t)g.nb + 1) * sizeof(*g.po));
	g.ipdom = gs_arena_alloc(&L->arena, ((size_t)g.nb + 1) * sizeof(*g.ipdom));
	for (int b = 0; b < g.nb; b++) {
		int32_t last = (b + 1 < g.nb ? g.start[b + 1] : pc0 + n) - 1;
		const struct gs_ins *in = &m->code[last];
		int next = b + 1 < g.nb ? b + 1 : g.nb;

		g.succ[3 * b] = g.succ[3 * b + 1] = g.succ[3 * b + 2] = -1;
		if (in->op == GS_OP_BRA)
			g.succ[3 * b] = g.bof[in->tgt - pc0];
		else if (ends_block(in))
			g.succ[3 * b] = g.nb;
		else
			g.succ[3 * b] = next;
		if (ends_block(in) && in->guard >= 0)
			g.succ[3 * b + 1] = next;
	}
	post_dominators(&g);
	for (int b = 0; b < g.nb; b++) {
		int32_t last = (b + 1 < g.nb ? g.start[b + 1] : pc0 + n) - 1;
		struct gs_ins *in = &m->code[last];
		int p = g.ipdom[b];

		if (in->op == GS_OP_BRA && in->guard >= 0)
			in->rpc = (p >= 0 && p < g.nb) ? g.start[p] : -1;
	}
	gs_arena_reset(&L->arena, mark);
}

/* ---- entries: memory layout and constant template ------------------------------------- */

static void mark_tree(const struct gs_ptx_module *m, int f, char *in)
{
	in[f] = 1;
	for (size_t i = 0; i < m->funcs[f].ncallees; i++)
		if (!in[m->funcs[f].callees[i]])
			mark_tree(m, m->funcs[f].callees[i], in);
}

/* Shared and local variables get offsets in the order they were declared,
 * each aligned; only those the entry's call tree uses take room. */
static void layout_entry(struct gs_ptxl *L, int e)
{
	struct gs_ptx_module *m = L->m;
	struct gs_ptx_func *fn = &m->funcs[e];
	struct gs_arena_mark mark = gs_arena_mark(&L->arena);
	char *tree = gs_arena_alloc(&L->arena, m->nfuncs + 1);
	char *used = gs_arena_alloc(&L->arena, m->nvars + 1);
	uint64_t smem = 0, local = 0, lalign = 1, dalign = 16;

	memset(tree, 0, m->nfuncs + 1);
	memset(used, 0, m->nvars + 1);
	mark_tree(m, e, tree);
	for (size_t f = 0; f < m->nfuncs; f++) {
		if (!tree[f])
			continue;
		fn->seq |= m->funcs[f].global_atomics;
		for (size_t i = 0; i < L->fn[f].nrefs; i++)
			used[L->fn[f].refs[i]] = 1;
	}
	fn->var_off = gs_xcalloc(m->nvars ? m->nvars : 1, sizeof(*fn->var_off));
	for (size_t v = 0; v < m->nvars; v++) {
		const struct gs_ptx_var *var = &m->vars[v];

		fn->var_off[v] = UINT64_MAX;
		if (var->space == GS_VS_SHARED && used[v] && !var->dyn) {
			smem = align_up(smem, var->align);
			fn->var_off[v] = smem;
			smem += var->size;
		} else if (var->space == GS_VS_SHARED && used[v]) {
			if (var->align > dalign)
				dalign = var->align;
		} else if (var->space == GS_VS_LOCAL && used[v]) {
			local = align_up(local, var->align);
			fn->var_off[v] = local;
			local += var->size;
			if (var->align > lalign)
				lalign = var->align;
		} else if (var->space != GS_VS_SHARED && var->space != GS_VS_LOCAL) {
			fn->var_off[v] = var->addr;
		}
	}
	for (size_t v = 0; v < m->nvars; v++)
		if (m->vars[v].space == GS_VS_SHARED && used[v] && m->vars[v].dyn)
			fn->var_off[v] = align_up(smem, dalign);
	fn->smem_static = smem;
	fn->dyn_align = dalign;
	fn->local_bytes = align_up(local, lalign);

	/* the template: immediates and addresses for all 32 lanes */
	size_t n = m->const_hi - m->const_lo;

	fn->consts = gs_xcalloc(n ? n : 1, 1);
	for (size_t i = 0; i < m->nslots; i++) {
		const struct gs_slot *s = &m->slots[i];
		unsigned char *p = fn->consts + (s->off - m->const_lo);
		uint64_t v;

		if (s->kind == GS_SLOT_SPECIAL)
			continue;
		if (s->kind == GS_SLOT_IMM)
			v = s->val;
		else if (fn->var_off[s->val] == UINT64_MAX)
			v = 0; /* a variable of another entry's functions */
		else
			v = fn->var_off[s->val] + (uint64_t)s->add;
		for (int l = 0; l < GS_WARP; l++) {
			if (s->wide) {
				memcpy(p + 8 * l, &v, 8);
			} else {
				uint32_t w = (uint32_t)v;

				memcpy(p + 4 * l, &w, 4);
			}
		}
	}
	gs_arena_reset(&L->arena, mark);
}

/* ---- module variables ---------------------------------------------------------------- */

static void alloc_vars(struct gs_ptxl *L)
{
	struct gs_ptx_module *m = L->m;
	size_t cap = 0;

	for (size_t v = 0; v < m->nvars; v++) {
		struct gs_ptx_var *var = &m->vars[v];
		uint64_t addr;

		if (var->space != GS_VS_GLOBAL && var->space != GS_VS_CONST)
			continue;
		if (!L->mem)
			gs_ptxl_fail(L, "no device memory for variable '%s' (line %u)", var->name,
				     var->line);
		if (gs_emu_mem_alloc(L->mem, var->size ? var->size : 1, &addr) < 0)
			gs_ptxl_fail(L, "out of device memory for variable '%s' (line %u)",
				     var->name, var->line);
		gs_grow(&m->allocs, &cap, m->nallocs + 1, sizeof(*m->allocs));
		m->allocs[m->nallocs++] = addr;
		var->addr = addr;
	}
}

/* write the initializer of v: elements of its scalar type, little-endian */
static void init_var(struct gs_ptxl *L, int v)
{
	struct gs_ptx_module *m = L->m;
	const struct gs_ptx_var *var = &m->vars[v];
	const struct gs_ptxl_vinfo *vi = &L->vi[v];
	uint32_t es = vi->esz;
	unsigned char *p;
	int ty = vi->ety;

	/* the element of an initializer is one scalar, also in .v2/.v4 variables */
	switch (ty) {
	case GS_TY_U8: case GS_TY_S8: case GS_TY_B8: es = 1; break;
	case GS_TY_U16: case GS_TY_S16: case GS_TY_B16: case GS_TY_F16: case GS_TY_BF16:
		es = 2; break;
	case GS_TY_U64: case GS_TY_S64: case GS_TY_B64: case GS_TY_F64: es = 8; break;
	default: es = 4; break;
	}
	p = gs_emu_mem_ptr(L->mem, var->addr, var->size);
	if (!p)
		gs_ptxl_fail(L, "variable '%s' (line %u) lies outside the device memory",
			     var->name, var->line);
	for (size_t i = 0; i < vi->ninit; i++) {
		const struct gs_ptxl_init *it = &vi->init[i];
		uint64_t bits = 0;

		if (it->kind == GS_PI_INT) {
			if (ty == GS_TY_F32 || ty == GS_TY_F64 || ty == GS_TY_F16 ||
			    ty == GS_TY_BF16)
				gs_ptxl_fail(L, "cannot parse: integer initializer of "
					     "floating-point variable '%s' at line %u", var->name,
					     it->line);
			bits = it->u;
		} else if (it->kind == GS_PI_FLT) {
			double d = it->d;

			if (it->fw == 4 || it->fw == 8) {
				/* the bits as written: a float of that width, or bits */
				if ((ty == GS_TY_F32 && it->fw == 4) ||
				    (ty == GS_TY_F64 && it->fw == 8) ||
				    (es == it->fw && ty != GS_TY_F32 && ty != GS_TY_F64)) {
					bits = it->u;
					goto store;
				}
				if (it->fw == 4) {
					float f;
					uint32_t b = (uint32_t)it->u;

					memcpy(&f, &b, 4);
					d = f;
				} else {
					memcpy(&d, &it->u, 8);
				}
			}
			if (ty == GS_TY_F32) {
				float f = (float)d;
				uint32_t b;

				memcpy(&b, &f, 4);
				bits = b;
			} else if (ty == GS_TY_F64) {
				memcpy(&bits, &d, 8);
			} else {
				gs_ptxl_fail(L, "cannot parse: floating-point initializer of "
					     "'%s' at line %u", var->name, it->line);
			}
		} else {
			int w = gs_ptxl_lookup_var(L, -1, it->name);

			if (w < 0 || (m->vars[w].space != GS_VS_GLOBAL &&
				      m->vars[w].space != GS_VS_CONST))
				gs_ptxl_fail(L, "unsupported initializer '%s' of '%s' at line %u",
					     it->name, var->name, it->line);
			if (es != 8)
				gs_ptxl_fail(L, "cannot parse: address in a %u-byte element of "
					     "'%s' at line %u", es, var->name, it->line);
			bits = m->vars[w].addr + (uint64_t)it->off;
		}
store:
		if ((i + 1) * es > var->size)
			gs_ptxl_fail(L, "cannot parse: initializer of '%s' larger than the "
				     "variable at line %u", var->name, it->line);
		for (uint32_t k = 0; k < es; k++)
			p[i * es + k] = (unsigned char)(bits >> (8 * k));
	}
}

/* ---- loading and freeing -------------------------------------------------------------- */

static void release_loader(struct gs_ptxl *L)
{
	struct gs_ptx_module *m = L->m;

	if (L->body)
		gs_ptxl_body_release(L->body);
	gs_ptxl_map_release(&L->labels);
	for (size_t f = 0; m && f < m->nfuncs; f++) {
		free(L->fn[f].st);
		free(L->fn[f].reg);
		free(L->fn[f].rdecl);
		free(L->fn[f].refs);
		gs_ptxl_map_release(&L->fn[f].syms);
	}
	for (size_t v = 0; m && v < m->nvars; v++)
		free(L->vi[v].init);
	free(L->fn);
	free(L->vi);
	free(L->rfmask);
	gs_ptxl_map_release(&L->fnmap);
	gs_ptxl_map_release(&L->varmap);
	gs_ptxl_map_release(&L->slotmap);
	gs_ptxl_map_release(&L->strmap);
	gs_buf_release(&L->strings);
	gs_arena_release(&L->arena);
	free(L);
}

struct gs_ptx_module *gs_ptx_load(const char *text, size_t len, struct gs_emu_mem *mem, char *err,
				  size_t errlen)
{
	struct gs_ptxl *L = gs_xcalloc(1, sizeof(*L));
	struct gs_ptx_module *m;

	L->text = text;
	L->end = text + len;
	L->err = err && errlen ? err : L->noerr;
	L->errlen = err && errlen ? errlen : sizeof L->noerr;
	L->err[0] = 0;
	L->mem = mem;
	L->m = m = gs_xcalloc(1, sizeof(*m));
	m->npred = 2; /* GS_PRED_FALSE, GS_PRED_TRUE */
	if (setjmp(L->jb)) {
		release_loader(L);
		gs_ptx_free(m, mem);
		return NULL;
	}
	gs_ptxl_parse(L);
	layout_params(L);
	for (size_t f = 0; f < m->nfuncs; f++) {
		if (m->funcs[f].defined) {
			gs_ptxl_decode(L, (int)f);
		} else {
			m->funcs[f].pc0 = m->funcs[f].pc1 = -1;
		}
	}
	relocate(L);
	link_calls(L);
	for (size_t f = 0; f < m->nfuncs; f++)
		if (m->funcs[f].defined)
			reconverge(L, (int)f);
	alloc_vars(L);
	for (size_t f = 0; f < m->nfuncs; f++)
		if (m->funcs[f].entry && m->funcs[f].defined)
			layout_entry(L, (int)f);
	for (size_t v = 0; v < m->nvars; v++)
		if (L->vi[v].has_init)
			init_var(L, (int)v);
	m->nstrings = L->strings.len;
	m->strings = gs_buf_detach(&L->strings);
	release_loader(L);
	return m;
}

void gs_ptx_free(struct gs_ptx_module *m, struct gs_emu_mem *mem)
{
	if (!m)
		return;
	for (size_t i = 0; mem && i < m->nallocs; i++)
		gs_emu_mem_free(mem, m->allocs[i]);
	for (size_t f = 0; f < m->nfuncs; f++) {
		struct gs_ptx_func *fn = &m->funcs[f];

		free(fn->name);
		free(fn->psize);
		free(fn->poff);
		free(fn->pvar);
		free(fn->pdecl);
		free(fn->callees);
		free(fn->consts);
		free(fn->var_off);
		free(fn->rwide);
	}
	for (size_t v = 0; v < m->nvars; v++)
		free(m->vars[v].name);
	free(m->funcs);
	free(m->vars);
	free(m->code);
	free(m->slots);
	free(m->strings);
	free(m->allocs);
	free(m);
}

/* ---- queries ------------------------------------------------------------------------ */

int gs_ptx_entry(const struct gs_ptx_module *m, const char *name)
{
	for (size_t f = 0; m && f < m->nfuncs; f++)
		if (m->funcs[f].entry && m->funcs[f].defined && strcmp(m->funcs[f].name, name) == 0)
			return (int)f;
	return -1;
}

static int is_entry(const struct gs_ptx_module *m, int entry)
{
	return m && entry >= 0 && (size_t)entry < m->nfuncs && m->funcs[entry].entry &&
	       m->funcs[entry].defined;
}

_Static_assert(sizeof(size_t) == sizeof(uint64_t), "psize is handed out as size_t");

size_t gs_ptx_params(const struct gs_ptx_module *m, int entry, const size_t **sizes)
{
	if (!is_entry(m, entry)) {
		*sizes = NULL;
		return 0;
	}
	*sizes = (const size_t *)m->funcs[entry].psize;
	return m->funcs[entry].nparams;
}

int gs_ptx_param(const struct gs_ptx_module *m, int entry, size_t i, struct gs_ptx_param *out)
{
	static const char *const names[] = {
		[GS_TY_U8] = ".u8",   [GS_TY_U16] = ".u16", [GS_TY_U32] = ".u32", [GS_TY_U64] = ".u64",
		[GS_TY_S8] = ".s8",   [GS_TY_S16] = ".s16", [GS_TY_S32] = ".s32", [GS_TY_S64] = ".s64",
		[GS_TY_B8] = ".b8",   [GS_TY_B16] = ".b16", [GS_TY_B32] = ".b32", [GS_TY_B64] = ".b64",
		[GS_TY_F16] = ".f16", [GS_TY_BF16] = ".bf16", [GS_TY_F32] = ".f32", [GS_TY_F64] = ".f64",
	};
	if (!is_entry(m, entry) || i >= m->funcs[entry].nparams || !m->funcs[entry].pdecl)
		return -1;
	unsigned d = m->funcs[entry].pdecl[i], ty = d & 0xff;
	out->size = m->funcs[entry].psize[i];
	out->type = ty < GS_ARRAY_SIZE(names) && names[ty] ? names[ty] : "?";
	out->is_float = ty == GS_TY_F16 || ty == GS_TY_BF16 || ty == GS_TY_F32 || ty == GS_TY_F64;
	out->is_int = ty >= GS_TY_U8 && ty <= GS_TY_S64;
	out->is_ptr = !!(d & GS_PDECL_PTR);
	out->is_array = !!(d & GS_PDECL_ARRAY);
	return 0;
}

size_t gs_ptx_static_smem(const struct gs_ptx_module *m, int entry)
{
	return is_entry(m, entry) ? m->funcs[entry].smem_static : 0;
}

size_t gs_ptx_local_bytes(const struct gs_ptx_module *m, int entry)
{
	return is_entry(m, entry) ? m->funcs[entry].local_bytes : 0;
}

int gs_ptx_symbol(const struct gs_ptx_module *m, const char *name, uint64_t *addr, uint64_t *size)
{
	for (size_t v = 0; m && v < m->nvars; v++) {
		const struct gs_ptx_var *var = &m->vars[v];

		if ((var->space == GS_VS_GLOBAL || var->space == GS_VS_CONST) && var->func < 0 &&
		    strcmp(var->name, name) == 0) {
			*addr = var->addr;
			*size = var->size;
			return 0;
		}
	}
	return -1;
}

/* ---- debugging ---------------------------------------------------------------------- */

static const char *const op_names[] = {
#define GS_OP_NAME(n, lay) #n,
	GS_OPS(GS_OP_NAME)
#undef GS_OP_NAME
};

const uint8_t gs_op_lay[GS_OP_COUNT] = {
#define GS_OP_LAY(n, lay) GS_LAY_##lay,
	GS_OPS(GS_OP_LAY)
#undef GS_OP_LAY
};

const char *gs_ptx_op_name(int op)
{
	return op >= 0 && op < GS_OP_COUNT ? op_names[op] : "?";
}

static const char *space_name(int s)
{
	static const char *const n[] = { "global", "const", "shared", "local", "kparam", "param" };

	return s >= 0 && s < 6 ? n[s] : "?";
}

void gs_ptx_dump(FILE *out, const struct gs_ptx_module *m)
{
	fprintf(out, "module sm_%d: %zu instructions, %zu functions, %zu variables, %zu slots "
		"[%u, %u), registers %u bytes per warp, %u predicates, parameter area %llu bytes\n",
		m->sm, m->ncode, m->nfuncs, m->nvars, m->nslots, m->const_lo, m->const_hi,
		m->rf_bytes, m->npred, (unsigned long long)m->lparam_bytes);
	for (size_t v = 0; v < m->nvars; v++) {
		const struct gs_ptx_var *var = &m->vars[v];

		fprintf(out, "var %zu %s: %s%s, %llu bytes, align %llu, address 0x%llx, "
			"function %d, line %u\n", v, var->name, space_name(var->space),
			var->dyn ? " dynamic" : "", (unsigned long long)var->size,
			(unsigned long long)var->align,
			(unsigned long long)var->addr, var->func, var->line);
	}
	for (size_t f = 0; f < m->nfuncs; f++) {
		const struct gs_ptx_func *fn = &m->funcs[f];

		fprintf(out, "%s %zu %s: line %u, pc [%d, %d), %zu params (", fn->entry ? "entry" :
			"func", f, fn->name, fn->line, fn->pc0, fn->pc1, fn->nparams);
		for (size_t i = 0; i < fn->nparams; i++)
			fprintf(out, "%s%llu@%llu", i ? " " : "", (unsigned long long)fn->psize[i],
				(unsigned long long)fn->poff[i]);
		fprintf(out, ")");
		if (fn->nret)
			fprintf(out, ", returns %llu@%llu", (unsigned long long)fn->rsize,
				(unsigned long long)fn->roff);
		if (fn->ncallees) {
			fprintf(out, ", calls");
			for (size_t i = 0; i < fn->ncallees; i++)
				fprintf(out, " %d", fn->callees[i]);
		}
		if (fn->entry)
			fprintf(out, ", kparam %llu, smem %llu (dynamic aligned %llu), local %llu, "
				"seq %d", (unsigned long long)fn->kparam_bytes,
				(unsigned long long)fn->smem_static,
				(unsigned long long)fn->dyn_align,
				(unsigned long long)fn->local_bytes, fn->seq);
		if (fn->maxntid[0])
			fprintf(out, ", maxntid %u,%u,%u", fn->maxntid[0], fn->maxntid[1],
				fn->maxntid[2]);
		fprintf(out, "%s\n", fn->global_atomics ? ", global atomics" : "");
	}
	for (size_t i = 0; i < m->nslots; i++) {
		const struct gs_slot *s = &m->slots[i];
		static const char *const kind[] = { "imm", "sym", "special" };

		fprintf(out, "slot %zu @%u: %s%d 0x%llx", i, s->off, kind[s->kind],
			s->wide ? 64 : 32, (unsigned long long)s->val);
		if (s->kind == GS_SLOT_SYM)
			fprintf(out, " (%s%+lld)", m->vars[s->val].name, (long long)s->add);
		fprintf(out, "\n");
	}
	for (size_t pc = 0; pc < m->ncode; pc++) {
		const struct gs_ins *in = &m->code[pc];

		fprintf(out, "%5zu %5u %-10s %-26s", pc, in->line, gs_ptx_op_name(in->op),
			m->strings ? m->strings + in->text : "?");
		if (in->guard >= 0)
			fprintf(out, " @%sp%d", in->gneg ? "!" : "", in->guard);
		fprintf(out, " o=");
		for (int i = 0; i < 6; i++) {
			if (in->o[i] == GS_NONE)
				fprintf(out, "%s-", i ? "," : "");
			else
				fprintf(out, "%s%u", i ? "," : "", in->o[i]);
		}
		fprintf(out, " sz%u nv%u f%#x sub%u/%u cls%u", in->sz, in->nv, in->f, in->sub,
			in->sub2, in->cls);
		if (in->imm)
			fprintf(out, " imm%+lld", (long long)in->imm);
		if (in->tgt >= 0)
			fprintf(out, " tgt%d", in->tgt);
		if (in->rpc >= 0)
			fprintf(out, " rpc%d", in->rpc);
		fprintf(out, "\n");
	}
}
