/* exec_loops.c — loop sampling: a sampled launch (one the model times at
 * the real size, whose outputs nobody reads) skips most iterations of a
 * long counted loop once they have settled, as block sampling skips most
 * blocks.  An n-body step's threads each loop over every body: sampling
 * blocks alone leaves each sampled block as long as the problem.
 *
 * A warp's loop is a backward branch taken again and again.  From its
 * LOOP_WARM-th iteration on, a snapshot is taken at the branch of each of
 * LOOP_HIST iterations: the registers that decide the loop's control and
 * its addresses (the backward slice, within the body, of the branch's
 * predicate and of every load's and store's address), what the warp
 * issued, and the probe's state (model/probe.c).  The loop is skipped
 * ahead when the iterations repeat: the same instructions issued each
 * time, every slice register moving by the same step each time in every
 * active lane, and the exit test a comparison of such registers, so that
 * how many iterations are left is known (per lane: the first that fails).
 * All but the last two or three are then skipped, an even number: the
 * slice registers move on by as many steps, and the probe's chain and
 * counts grow at their rate over the snapshots' eight iterations (a
 * miss's DRAM latency is a draw, and two iterations' draws are few), the
 * footprint by as many two-iteration units like the last (a load of 16
 * bytes a lane takes a new sector every other iteration).  The rest runs
 * as it would have.  A loop whose body has barriers is skipped by the
 * whole block at once, at a barrier where every warp has found the same
 * count (gs_x_loops_release).
 *
 * Registers outside the slice (an accumulator) are not moved: the values
 * a skipped loop leaves are wrong, which a sampled launch may be.  Loops
 * that call, make atomics or barrier reductions, read the clock, leave
 * the body by a branch, or whose slice reads memory or predicates are
 * never skipped: their iterations are not known to repeat.
 * tests/unit/test_emu_exec.c (test_loop_sampling) holds the observations
 * of skipped blocks to within 1% of the whole runs'. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dev/emu/interp/exec_int.h"

#define LOOP_WARM 8  /* iterations before a loop is watched */
#define LOOP_HIST 9  /* snapshots compared: eight iterations */
#define LOOP_MIN 16  /* iterations a skip must save (and launch->loops instructions) */
#define LOOP_TRK 4   /* loops watched per warp (nested ones) */
#define LOOP_STEADY 0.02 /* the chain's spread over the watched units (decide) */

/* What a backward branch's loop is, decided once per launch and host thread. */
struct loopinfo {
	int ok;
	int bar;                 /* the body synchronises the block (bar.sync) */
	int32_t lo, hi;          /* the body: [target, branch] */
	uint32_t *sreg;          /* slice registers the body writes */
	uint8_t *swide;
	size_t *soff;            /* where each is in a snapshot; soff[ns]: the probe's part */
	unsigned ns;
	uint32_t *dreg;          /* every register the body writes */
	unsigned nd;
	const struct gs_ins *setp; /* the exit test */
	int ia, ib;              /* its operands' index in sreg, -1: loop-invariant */
	size_t bytes;            /* a snapshot */
};

struct snaphdr {
	uint64_t turn, issued;
	int sp;
	uint32_t mask;
	struct gs_emu_counters c;
};

struct trk {
	int32_t pc;              /* the branch, -1: free */
	uint64_t seen, next, back, used;
	uint64_t gap;            /* iterations between two snapshots */
	uint64_t pend;           /* a synchronising loop: iterations to skip at the next
				  * release where every warp has found as many, 0: none */
	unsigned nh;
	unsigned char *h[LOOP_HIST];
	size_t cap;
};

struct gs_xloops {
	struct loopinfo **info;  /* per pc, NULL: not yet looked at */
	size_t ncode;
	struct trk *t;           /* nwarps x LOOP_TRK */
	unsigned nwarps;
	uint64_t turn, tick;
	uint64_t skipped;        /* the block's iterations skipped */
};

int gs_x_loops_new(struct gs_xctx *x)
{
	struct gs_xloops *L = calloc(1, sizeof(*L));
	if (!L)
		return -1;
	L->ncode = x->m->ncode;
	L->nwarps = x->nwarps;
	L->info = calloc(L->ncode ? L->ncode : 1, sizeof(*L->info));
	L->t = calloc((size_t)L->nwarps * LOOP_TRK, sizeof(*L->t));
	x->loops = L;
	if (!L->info || !L->t)
		return -1;
	for (size_t i = 0; i < (size_t)L->nwarps * LOOP_TRK; i++)
		L->t[i].pc = -1;
	return 0;
}

static void info_free(struct loopinfo *in)
{
	if (!in)
		return;
	free(in->sreg);
	free(in->swide);
	free(in->soff);
	free(in->dreg);
	free(in);
}

void gs_x_loops_free(struct gs_xctx *x)
{
	struct gs_xloops *L = x->loops;
	if (!L)
		return;
	for (size_t i = 0; L->info && i < L->ncode; i++)
		info_free(L->info[i]);
	for (size_t i = 0; L->t && i < (size_t)L->nwarps * LOOP_TRK; i++)
		for (int k = 0; k < LOOP_HIST; k++)
			free(L->t[i].h[k]);
	free(L->info);
	free(L->t);
	free(L);
	x->loops = NULL;
}

void gs_x_loops_begin(struct gs_xctx *x)
{
	struct gs_xloops *L = x->loops;
	for (size_t i = 0; i < (size_t)L->nwarps * LOOP_TRK; i++)
		L->t[i].pc = -1;
	L->skipped = 0;
}

uint64_t gs_x_loops_skipped(const struct gs_xctx *x)
{
	return x->loops ? x->loops->skipped : 0;
}

void gs_x_loops_turn(struct gs_xctx *x)
{
	x->loops->turn++;
}

/* ---- what a loop is ------------------------------------------------------------------- */

/* 1 when the instruction writes predicate g */
static int writes_pred(const struct gs_ins *in, uint32_t g)
{
	switch ((enum gs_op)in->op) {
	case GS_OP_SETP:
		return in->o[0] == g || in->o[1] == g;
	case GS_OP_MOVP: case GS_OP_ANDP: case GS_OP_ORP: case GS_OP_XORP: case GS_OP_NOTP:
	case GS_OP_TESTP: case GS_OP_VOTE:
		return in->o[0] == g;
	case GS_OP_SHFL:
		return in->o[1] == g;
	default:
		return 0;
	}
}

/* Integer arithmetic whose result a register's steps can follow: a slice
 * register written by anything else (a load, a float conversion, a
 * predicate's select, a carry chain) is not followed. */
static int followed(const struct gs_ins *in)
{
	switch ((enum gs_op)in->op) {
	case GS_OP_MOV32: case GS_OP_MOV64: case GS_OP_PACK64: case GS_OP_UNPACK64:
	case GS_OP_ADD32: case GS_OP_SUB32: case GS_OP_MUL32: case GS_OP_ADD64: case GS_OP_SUB64:
	case GS_OP_MUL64: case GS_OP_MAD32: case GS_OP_MAD64:
	case GS_OP_AND32: case GS_OP_OR32: case GS_OP_XOR32: case GS_OP_NOT32:
	case GS_OP_AND64: case GS_OP_OR64: case GS_OP_XOR64: case GS_OP_NOT64:
	case GS_OP_NEG32: case GS_OP_NEG64:
	case GS_OP_SHL32: case GS_OP_SHRU32: case GS_OP_SHRS32: case GS_OP_SHL64:
	case GS_OP_SHRU64: case GS_OP_SHRS64:
	case GS_OP_MINU32: case GS_OP_MINS32: case GS_OP_MAXU32: case GS_OP_MAXS32:
	case GS_OP_MINU64: case GS_OP_MINS64: case GS_OP_MAXU64: case GS_OP_MAXS64:
	case GS_OP_DIVU32: case GS_OP_DIVS32: case GS_OP_REMU32: case GS_OP_REMS32:
	case GS_OP_DIVU64: case GS_OP_DIVS64: case GS_OP_REMU64: case GS_OP_REMS64:
	case GS_OP_MULHIU32: case GS_OP_MULHIS32: case GS_OP_MULHIU64: case GS_OP_MULHIS64:
	case GS_OP_MULWU32: case GS_OP_MULWS32: case GS_OP_MADWU32: case GS_OP_MADWS32:
	case GS_OP_MUL24LOU: case GS_OP_MUL24LOS: case GS_OP_MAD24LOU: case GS_OP_MAD24LOS:
	case GS_OP_BFEU32: case GS_OP_BFES32: case GS_OP_BFEU64: case GS_OP_BFES64:
	case GS_OP_SHF: case GS_OP_PRMT: case GS_OP_CVTA: case GS_OP_LDKP:
		return 1;
	case GS_OP_CVT:
		return in->sub != GS_TY_F16 && in->sub != GS_TY_BF16 && in->sub != GS_TY_F32 &&
		       in->sub != GS_TY_F64 && in->sub2 != GS_TY_F16 && in->sub2 != GS_TY_BF16 &&
		       in->sub2 != GS_TY_F32 && in->sub2 != GS_TY_F64;
	default:
		return 0;
	}
}

/* ops a skipped body must not contain */
static int unrepeatable(const struct gs_ins *in, int32_t lo, int32_t hi, int32_t pc)
{
	switch ((enum gs_op)in->op) {
	case GS_OP_BAR:
		return in->sub != 0; /* a reduction's result is data */
	case GS_OP_CALL: case GS_OP_RET: case GS_OP_EXIT: case GS_OP_TRAP:
	case GS_OP_ATOM: case GS_OP_CLOCK32: case GS_OP_CLOCK64: case GS_OP_GTIMER:
		return 1;
	case GS_OP_BRA:
		/* the loop's own branch, or one within the body */
		return pc != hi && (in->tgt < lo || in->tgt > hi + 1);
	default:
		return 0;
	}
}

/* The registers of the body's loads' and stores' addresses, and of the
 * exit test: the slice's seeds. */
static unsigned seeds(const struct gs_ins *code, int32_t lo, int32_t hi,
		      const struct gs_ins *setp, uint32_t *v, unsigned cap)
{
	unsigned n = 0;
	v[n++] = setp->o[2];
	v[n++] = setp->o[3];
	for (int32_t pc = lo; pc <= hi; pc++)
		if ((code[pc].op == GS_OP_LD || code[pc].op == GS_OP_ST) && code[pc].o[4] != GS_NONE) {
			if (n == cap)
				return 0; /* more addresses than followed: not a loop to skip */
			v[n++] = code[pc].o[4];
		}
	return n;
}

static struct loopinfo *analyse(const struct gs_xctx *x, int32_t pc)
{
	const struct gs_ins *code = x->code, *br = &code[pc];
	struct loopinfo *li = calloc(1, sizeof(*li));
	if (!li)
		return NULL;
	int32_t lo = br->tgt, hi = pc;
	li->lo = lo, li->hi = hi;
	if (br->guard < 0 || lo < 0 || lo > hi)
		return li;
	for (int32_t i = lo; i <= hi; i++) {
		if (unrepeatable(&code[i], lo, hi, i))
			return li;
		li->bar |= code[i].op == GS_OP_BAR;
	}
	/* the exit test: the last writer of the branch's predicate, a plain
	 * unguarded integer setp after the body's last branch */
	const struct gs_ins *setp = NULL;
	for (int32_t i = pc - 1; i >= lo && !setp; i--) {
		if (code[i].op == GS_OP_BRA)
			return li;
		if (writes_pred(&code[i], (uint32_t)br->guard))
			setp = &code[i];
	}
	if (!setp || setp->op != GS_OP_SETP || setp->guard >= 0 || setp->o[0] != (uint32_t)br->guard ||
	    setp->o[4] != GS_NONE || setp->sub > GS_CMP_HS)
		return li;
	switch (setp->sub2) {
	case GS_TY_U32: case GS_TY_S32: case GS_TY_B32:
	case GS_TY_U64: case GS_TY_S64: case GS_TY_B64:
		break;
	default:
		return li;
	}
	/* per register (its first 128 bytes' index): WRITTEN by the body,
	 * in the SLICE; one pass over the body per link of the slice's
	 * longest dependency, instead of a search per register */
	enum { WRITTEN = 1, SLICE = 2 };
	size_t nb = (size_t)(hi - lo + 1), nreg = x->m->rf_bytes / 128 + 1;
	uint8_t *m = calloc(nreg, 1);
	uint32_t *w = malloc(nb * 6 * sizeof(*w)), r[6];
	unsigned nw = 0;
	if (!m || !w)
		goto out;
#define IDX(o) ((size_t)(o) >> 7)
	for (int32_t i = lo; i <= hi; i++) {
		int n = gs_ins_regs(&code[i], 1, r);
		for (int k = 0; k < n; k++)
			if (r[k] != GS_NONE && IDX(r[k]) < nreg && !(m[IDX(r[k])] & WRITTEN)) {
				m[IDX(r[k])] |= WRITTEN;
				w[nw++] = r[k];
			}
	}
	/* the operands must not move between the test and the branch */
	for (const struct gs_ins *in = setp + 1; in < br; in++) {
		int n = gs_ins_regs(in, 1, r);
		for (int k = 0; k < n; k++)
			if (r[k] == setp->o[2] || r[k] == setp->o[3])
				goto out;
	}
	uint32_t seed[2 + 6 * 64];
	unsigned nseed = seeds(code, lo, hi, setp, seed, sizeof seed / sizeof seed[0]);
	if (!nseed)
		goto out;
	for (unsigned k = 0; k < nseed; k++)
		if (IDX(seed[k]) < nreg)
			m[IDX(seed[k])] |= SLICE;
	for (int grew = 1; grew;) {
		grew = 0;
		for (int32_t i = lo; i <= hi; i++) {
			int n = gs_ins_regs(&code[i], 1, r), feeds = 0;
			for (int j = 0; j < n; j++)
				feeds |= r[j] != GS_NONE && IDX(r[j]) < nreg && (m[IDX(r[j])] & SLICE);
			if (!feeds)
				continue;
			if (!followed(&code[i]))
				goto out;
			n = gs_ins_regs(&code[i], 0, r);
			for (int j = 0; j < n; j++)
				if (r[j] != GS_NONE && IDX(r[j]) < nreg && !(m[IDX(r[j])] & SLICE)) {
					m[IDX(r[j])] |= SLICE;
					grew = 1;
				}
		}
	}
	/* keep the slice registers the body writes */
	li->sreg = malloc((nw + 1) * sizeof(*li->sreg));
	li->swide = malloc(nw + 1);
	li->soff = malloc((nw + 1) * sizeof(*li->soff));
	if (!li->sreg || !li->swide || !li->soff)
		goto out;
	size_t bytes = sizeof(struct snaphdr);
	li->ia = li->ib = -1;
	for (unsigned k = 0; k < nw; k++) {
		if (!(m[IDX(w[k])] & SLICE))
			continue;
		if (w[k] == setp->o[2])
			li->ia = (int)li->ns;
		if (w[k] == setp->o[3])
			li->ib = (int)li->ns;
		li->swide[li->ns] = x->f->rwide[IDX(w[k])];
		li->soff[li->ns] = bytes;
		bytes += li->swide[li->ns] ? 8 * GS_WARP : 4 * GS_WARP;
		li->sreg[li->ns++] = w[k];
	}
#undef IDX
	li->dreg = w;
	li->nd = nw;
	w = NULL;
	li->soff[li->ns] = bytes;
	li->setp = setp;
	li->bytes = bytes + gs_x_probe_snap_bytes((size_t)lo, (size_t)hi);
	li->ok = 1;
out:
	free(w);
	free(m);
	return li;
}

/* ---- when it repeats ---------------------------------------------------------------- */

static uint64_t lane(const unsigned char *v, int wide, int l)
{
	return wide ? ((const uint64_t *)v)[l] : ((const uint32_t *)v)[l];
}

/* the register values of snapshot h: after the header, in sreg order */
static const unsigned char *sval(const struct loopinfo *li, const unsigned char *h, unsigned k)
{
	return h + li->soff[k];
}

static const void *probe_part(const struct loopinfo *li, const unsigned char *h)
{
	return sval(li, h, li->ns);
}

static void snapshot(struct gs_xctx *x, const struct gs_xwarp *w, const struct loopinfo *li,
		     uint64_t issued, unsigned char *h)
{
	struct snaphdr *s = (struct snaphdr *)h;
	s->turn = x->loops->turn;
	s->issued = issued;
	s->sp = w->sp;
	s->mask = w->stk[w->sp].mask;
	s->c = x->c;
	for (unsigned k = 0; k < li->ns; k++)
		memcpy(h + li->soff[k], w->rf + li->sreg[k], li->soff[k + 1] - li->soff[k]);
	gs_x_probe_snap(x, w->id, (size_t)li->lo, (size_t)li->hi, h + li->soff[li->ns]);
}

/* a lane's value as the test compares it, and its step, as integers */
static __int128 value(uint64_t v, int sgn, int wide)
{
	if (!wide)
		return sgn ? (__int128)(int32_t)(uint32_t)v : (__int128)(uint32_t)v;
	return sgn ? (__int128)(int64_t)v : (__int128)v;
}

static __int128 step(uint64_t d, int wide)
{
	return wide ? (__int128)(int64_t)d : (__int128)(int32_t)(uint32_t)d;
}

static int holds(int cmp, __int128 a, __int128 b)
{
	switch (cmp) {
	case GS_CMP_LT: case GS_CMP_LO: return a < b;
	case GS_CMP_LE: case GS_CMP_LS: return a <= b;
	case GS_CMP_GT: case GS_CMP_HI: return a > b;
	case GS_CMP_GE: case GS_CMP_HS: return a >= b;
	case GS_CMP_EQ: return a == b;
	default: return a != b;
	}
}

#define LOOP_FAR ((__int128)1 << 40) /* trips beyond this: not counted */

/* How many more times the branch is taken in a lane whose test compares
 * a + k da with b + k db at iteration k (the one just taken: k = 0); -1
 * when not known (it never ends, or the values would wrap first). */
static int64_t trips(int cmp, int gneg, int sgn, int wide, __int128 a, __int128 da, __int128 b,
		     __int128 db)
{
	__int128 lo = sgn ? (wide ? -((__int128)1 << 63) : -((__int128)1 << 31)) : 0;
	__int128 hi = ((__int128)1 << (wide ? 64 - sgn : 32 - sgn)) - 1;
	if (cmp == GS_CMP_EQ || cmp == GS_CMP_NE) {
		/* taken while a != b (or while equal): the first k they meet */
		__int128 gap = b - a, rate = da - db;
		int taken_ne = (cmp == GS_CMP_NE) != gneg;
		if (!taken_ne)
			return rate ? 0 : -1;
		if (!rate || gap % rate || gap / rate <= 0 || gap / rate > LOOP_FAR)
			return -1;
		__int128 k = gap / rate;
		if (a + k * da < lo || a + k * da > hi || b + k * db < lo || b + k * db > hi)
			return -1;
		return (int64_t)(k - 1);
	}
	/* monotone in k: the first k it fails, where neither side wraps */
	__int128 kmax = LOOP_FAR;
	if (da > 0) kmax = (hi - a) / da < kmax ? (hi - a) / da : kmax;
	if (da < 0) kmax = (a - lo) / -da < kmax ? (a - lo) / -da : kmax;
	if (db > 0) kmax = (hi - b) / db < kmax ? (hi - b) / db : kmax;
	if (db < 0) kmax = (b - lo) / -db < kmax ? (b - lo) / -db : kmax;
#define TAKEN(k) (holds(cmp, a + (k) * da, b + (k) * db) != gneg)
	if (kmax < 1 || !TAKEN(1))
		return 0;
	if (TAKEN(kmax))
		return -1;
	__int128 ok = 1, bad = kmax; /* TAKEN(ok), !TAKEN(bad) */
	while (bad - ok > 1) {
		__int128 mid = ok + (bad - ok) / 2;
		if (TAKEN(mid))
			ok = mid;
		else
			bad = mid;
	}
#undef TAKEN
	return (int64_t)ok;
}

/* slice register k's step in each lane of act over one iteration, from
 * snapshots h a gap apart (decide checks they are constant and whole) */
static void steps(const struct loopinfo *li, unsigned char *const *h, uint32_t act, uint64_t gap,
		  uint64_t *d)
{
	for (unsigned k = 0; k < li->ns; k++)
		for (uint32_t mm = act; mm; mm &= mm - 1) {
			int l = __builtin_ctz(mm);
			uint64_t dd = lane(sval(li, h[1], k), li->swide[k], l) -
				      lane(sval(li, h[0], k), li->swide[k], l);
			int64_t sd = li->swide[k] ? (int64_t)dd : (int64_t)(int32_t)(uint32_t)dd;
			d[k * GS_WARP + l] = (uint64_t)(sd / (int64_t)gap);
		}
}

/* Iterations to skip, 0: none.  d[k * GS_WARP + l]: slice register k's step in lane l. */
static uint64_t decide(const struct gs_xctx *x, const struct gs_xwarp *w, const struct loopinfo *li,
		       unsigned char *const *h, uint32_t act, uint64_t gap, uint64_t *d, int *unsteady)
{
	/* *unsteady: 1 the chain's rate is not steady yet, -1 too few
	 * iterations are left to skip, 0 neither */
	*unsteady = 0;
	const struct snaphdr *s[LOOP_HIST];
	for (int i = 0; i < LOOP_HIST; i++)
		s[i] = (const struct snaphdr *)h[i];
	uint64_t n0 = gs_emu_counters_warp_inst(&s[1]->c) - gs_emu_counters_warp_inst(&s[0]->c);
	for (int i = 1; i < LOOP_HIST; i++)
		if ((!li->bar && s[i]->turn != s[0]->turn) || s[i]->sp != s[0]->sp || s[i]->mask != act ||
		    s[i]->issued - s[i - 1]->issued != s[1]->issued - s[0]->issued ||
		    gs_emu_counters_warp_inst(&s[i]->c) -
			    gs_emu_counters_warp_inst(&s[i - 1]->c) != n0)
			return 0;
	for (unsigned k = 0; k < li->ns; k++) {
		int wide = li->swide[k];
		for (uint32_t mm = act; mm; mm &= mm - 1) {
			int l = __builtin_ctz(mm);
			uint64_t v0 = lane(sval(li, h[0], k), wide, l), v1 = lane(sval(li, h[1], k), wide, l);
			uint64_t dd = v1 - v0;
			for (int i = 2; i < LOOP_HIST; i++) {
				uint64_t a = lane(sval(li, h[i - 1], k), wide, l);
				uint64_t b = lane(sval(li, h[i], k), wide, l);
				if (((b - a) ^ dd) & (wide ? ~0ull : 0xffffffffull))
					return 0;
			}
			/* a gap's step must be whole iterations' */
			int64_t sd = wide ? (int64_t)dd : (int64_t)(int32_t)(uint32_t)dd;
			if (sd % (int64_t)gap)
				return 0;
		}
	}
	steps(li, h, act, gap, d);
	const struct gs_ins *t = li->setp, *br = &x->code[li->hi];
	int sgn = t->sub2 == GS_TY_S32 || t->sub2 == GS_TY_S64;
	int wide = t->sub2 == GS_TY_U64 || t->sub2 == GS_TY_S64 || t->sub2 == GS_TY_B64;
	int64_t left = INT64_MAX;
	for (uint32_t mm = act; mm; mm &= mm - 1) {
		int l = __builtin_ctz(mm);
		__int128 a = value(lane(w->rf + t->o[2], wide, l), sgn, wide);
		__int128 b = value(lane(w->rf + t->o[3], wide, l), sgn, wide);
		__int128 da = li->ia >= 0 ? step(d[li->ia * GS_WARP + l], wide) : 0;
		__int128 db = li->ib >= 0 ? step(d[li->ib * GS_WARP + l], wide) : 0;
		int64_t k = trips(t->sub, br->gneg, sgn, wide, a, da, b, db);
		if (k < 0)
			return 0;
		if (k < left)
			left = k;
	}
	/* the last iterations run, so that the loop ends as it does */
	/* The chain must grow steadily: by as much, within LOOP_STEADY, in each
	 * of the four units of two iterations.  Where DRAM latency's draws
	 * (model/spread.c) make it jump from one unit to the next, eight
	 * iterations tell its rate too roughly: a block's time would carry the
	 * noise, and the longest sampled block (the last wave's pace,
	 * model/interval.c) turn it into a bias -- regthread.space's streaming
	 * loop at GRID=120 came out 11% slower.  Such a loop runs whole. */
	double lo = HUGE_VAL, hi = 0;
	for (int i = 2; i < LOOP_HIST; i += 2) {
		double u = gs_x_probe_snap_len(probe_part(li, h[i])) -
			   gs_x_probe_snap_len(probe_part(li, h[i - 2]));
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	if (!(hi - lo <= LOOP_STEADY * hi)) {
		*unsteady = 1;
		return 0;
	}
	/* whole units of two gaps (the footprint's, gs_x_probe_skip_block) */
	uint64_t skip = left > 2 ? (uint64_t)(left - 2) / (2 * gap) * (2 * gap) : 0;
	uint64_t per = (s[LOOP_HIST - 1]->issued - s[0]->issued) / ((LOOP_HIST - 1) * gap);
	if (skip >= LOOP_MIN && skip * per >= x->l->loops)
		return skip;
	*unsteady = -1; /* too little left: this run of the loop runs whole */
	return 0;
}

/* ---- the hooks ------------------------------------------------------------------------ */

static struct trk *find(struct gs_xloops *L, unsigned wi, int32_t pc)
{
	struct trk *t = L->t + (size_t)wi * LOOP_TRK, *old = t;
	for (int k = 0; k < LOOP_TRK; k++) {
		if (t[k].pc == pc)
			return &t[k];
		if (t[k].pc < 0 || t[k].used < old->used)
			old = &t[k];
	}
	old->pc = pc;
	old->seen = old->nh = 0;
	old->pend = 0;
	old->next = old->back = LOOP_WARM;
	old->gap = 1;
	return old;
}

/* Skips `skip` iterations of warp w: its slice registers and its chain;
 * the instructions they would have issued */
static uint64_t skip_warp(struct gs_xctx *x, struct gs_xwarp *w, const struct loopinfo *li,
			  unsigned char *const *h, uint64_t gap, uint64_t skip)
{
	uint32_t act = w->stk[w->sp].mask;
	uint64_t d[GS_WARP * 8], *dd = li->ns <= 8 ? d : malloc(li->ns * GS_WARP * sizeof(*dd));
	if (!dd)
		return 0;
	steps(li, h, act, gap, dd);
	for (unsigned k = 0; k < li->ns; k++) {
		unsigned char *v = w->rf + li->sreg[k];
		for (uint32_t mm = act; mm; mm &= mm - 1) {
			int l = __builtin_ctz(mm);
			if (li->swide[k])
				((uint64_t *)v)[l] += skip * dd[k * GS_WARP + l];
			else
				((uint32_t *)v)[l] += (uint32_t)(skip * dd[k * GS_WARP + l]);
		}
	}
	if (dd != d)
		free(dd);
	const struct snaphdr *s0 = (const void *)h[0], *b = (const void *)h[LOOP_HIST - 1];
	uint64_t span = (LOOP_HIST - 1) * gap;
	gs_x_probe_skip_warp(x, w->id, li->dreg, li->nd, probe_part(li, h[0]),
			     probe_part(li, h[LOOP_HIST - 1]), span, skip);
	x->loops->skipped += skip;
	return skip * (b->issued - s0->issued) / span;
}

/* What the block observes of `skip` iterations, at the rates of the
 * snapshots h (one warp's, which span whole iterations of the block). */
static int skip_block(struct gs_xctx *x, const struct loopinfo *li, unsigned char *const *h,
		      uint64_t gap, uint64_t skip)
{
	uint64_t span = (LOOP_HIST - 1) * gap;
	if (gs_x_probe_skip_block(x, (size_t)li->lo, (size_t)li->hi, probe_part(li, h[0]),
				  probe_part(li, h[LOOP_HIST - 5]), probe_part(li, h[LOOP_HIST - 3]),
				  probe_part(li, h[LOOP_HIST - 1]), span, skip, skip / (2 * gap),
				  li->bar) < 0)
		return -1;
	const struct snaphdr *s0 = (const void *)h[0], *b = (const void *)h[LOOP_HIST - 1];
	gs_emu_counters_grow(&x->c, &s0->c, &b->c, skip, span);
	return 0;
}

uint64_t gs_x_loop_back(struct gs_xctx *x, struct gs_xwarp *w, int32_t pc, uint64_t issued)
{
	struct gs_xloops *L = x->loops;
	struct trk *t = find(L, w->id, pc);
	t->used = ++L->tick;
	if (++t->seen < t->next || t->pend)
		return 0;
	if (!x->f->rwide) /* a module not loaded from PTX: its registers' widths are unknown */
		return t->next = UINT64_MAX, 0;
	if (!L->info[pc] && !(L->info[pc] = analyse(x, pc)))
		return t->next = UINT64_MAX, 0;
	const struct loopinfo *li = L->info[pc];
	if (!li->ok)
		return t->next = UINT64_MAX, 0;
	if (t->cap < li->bytes) {
		for (int k = 0; k < LOOP_HIST; k++) {
			free(t->h[k]);
			if (!(t->h[k] = malloc(li->bytes))) {
				t->cap = 0;
				return t->next = UINT64_MAX, 0;
			}
		}
		t->cap = li->bytes;
	}
	if (t->nh == LOOP_HIST) { /* the oldest buffer takes the newest */
		unsigned char *first = t->h[0];
		memmove(t->h, t->h + 1, (LOOP_HIST - 1) * sizeof(*t->h));
		t->h[LOOP_HIST - 1] = first;
		t->nh--;
	}
	snapshot(x, w, li, issued, t->h[t->nh++]);
	t->next = t->seen + t->gap;
	if (t->nh < LOOP_HIST)
		return 0;
	uint32_t act = w->stk[w->sp].mask;
	uint64_t *d = malloc((li->ns + 1) * GS_WARP * sizeof(*d));
	int unsteady = 0;
	uint64_t skip = d ? decide(x, w, li, t->h, act, t->gap, d, &unsteady) : 0;
	free(d);
	if (skip && li->bar) {
		/* the whole block skips together, at a barrier (gs_x_loops_release) */
		t->pend = skip;
		return 0;
	}
	t->nh = 0;
	if (unsteady < 0) {
		t->next = UINT64_MAX;
		return 0;
	}
	if (unsteady) {
		/* a rate that the gaps' draws blur: watch gaps twice as long,
		 * whose rates are steadier (execute enough to converge) */
		t->gap *= 2;
		t->next = t->seen + t->gap;
		return 0;
	}
	if (!skip || skip_block(x, li, t->h, t->gap, skip) < 0) {
		/* not yet, or not this loop: look again later, less often */
		t->back *= 2;
		t->next = t->seen + t->back;
		return 0;
	}
	t->next = UINT64_MAX; /* the rest of this run of the loop runs */
	return skip_warp(x, w, li, t->h, t->gap, skip);
}

void gs_x_loops_release(struct gs_xctx *x)
{
	struct gs_xloops *L = x->loops;
	struct trk *first = NULL;
	for (unsigned i = 0; i < L->nwarps; i++) {
		if (x->w[i].state == GS_XW_DONE)
			continue;
		struct trk *t = L->t + (size_t)i * LOOP_TRK, *p = NULL;
		for (int k = 0; k < LOOP_TRK && !p; k++)
			if (t[k].pend)
				p = &t[k];
		if (!p || (first && (p->pc != first->pc || p->pend != first->pend ||
				     p->gap != first->gap)))
			return;
		if (!first)
			first = p;
	}
	if (!first)
		return;
	const struct loopinfo *li = L->info[first->pc];
	uint64_t skip = first->pend;
	int ok = skip_block(x, li, first->h, first->gap, skip) == 0;
	for (unsigned i = 0; i < L->nwarps; i++) {
		struct trk *t = L->t + (size_t)i * LOOP_TRK;
		for (int k = 0; k < LOOP_TRK; k++) {
			if (t[k].pc != first->pc || !t[k].pend)
				continue;
			if (ok && x->w[i].state != GS_XW_DONE)
				x->w[i].issued += skip_warp(x, &x->w[i], li, t[k].h, t[k].gap, skip);
			t[k].pend = 0;
			t[k].nh = 0;
			t[k].next = UINT64_MAX;
		}
	}
}

void gs_x_loop_exit(struct gs_xctx *x, struct gs_xwarp *w, int32_t pc)
{
	struct trk *t = x->loops->t + (size_t)w->id * LOOP_TRK;
	for (int k = 0; k < LOOP_TRK; k++)
		if (t[k].pc == pc) {
			/* a run too short to skip: the next is watched once it
			 * is longer, so that an inner loop of a few iterations,
			 * run again and again, is not snapshotted for nothing */
			uint64_t warm = LOOP_WARM, least = LOOP_WARM + LOOP_HIST + LOOP_MIN + 2;
			if (t[k].seen > warm && t[k].seen < least)
				warm = t[k].seen;
			t[k].seen = t[k].nh = 0;
			t[k].pend = 0;
			t[k].next = t[k].back = warm;
			t[k].gap = 1;
		}
}
