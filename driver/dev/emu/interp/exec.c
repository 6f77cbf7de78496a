/* exec.c — the executor of the PTX interpreter: runs one grid of a
 * pre-decoded module (ptx_int.h) over the emulated device's memory.
 *
 * Blocks are handed out in index order to launch->threads host threads
 * through an atomic counter; each thread has its own counters, summed at
 * the end, so the totals do not depend on which thread ran what.  Within a
 * block the warps run in index order, each until it reaches a barrier,
 * exits, or has used its time slice; when no warp can run, the barrier
 * releases.  A warp executes one instruction for all its active lanes at a
 * time (SIMT), with a reconvergence stack (struct gs_xent) driven by the
 * immediate post-dominators the loader put in gs_ins.rpc.
 *
 * Determinism: registers, shared, local and parameter memory start zeroed
 * in every block; %clock is the warp's own instruction count; a kernel with
 * global atomics (gs_ptx_func.seq) runs its blocks in order on one thread;
 * a fault is reported for the lowest block that faults. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/emu/interp/exec_int.h"
#include "util/util.h"

/* Instruction classes, indexed by enum gs_emu_class.  The loader gives each
 * instruction its class (gs_ins.cls; ptx_int.h lists what falls in which). */
const char *const gs_emu_class_names[GS_EMU_NCLASS] = { "int", "fp32", "fp64", "sfu", "mem",
							"ctrl", "barrier", "other" };

/* Instructions a warp runs before it lets the next warp of its block run
 * (a warp spinning on shared memory another warp writes then still ends),
 * and between two looks at launch->cancel. */
#define GS_X_SLICE 65536

struct gs_xrun {
	const struct gs_emu_launch *l;
	uint64_t nblocks;
	uint64_t next;            /* next block to hand out (atomic) */
	pthread_mutex_t lock;
	uint64_t fault_block;     /* lowest faulting block (under lock), UINT64_MAX: none */
	int rc;                   /* its code */
	char msg[512];
	int stop;                 /* canceled (atomic) */
	int expired;              /* past launch->deadline (atomic) */
	int hang;                 /* a block found looping for ever (under lock) */
	char hang_msg[512];
	unsigned char *kparam;
	uint32_t *special;        /* slots the executor fills per warp */
	size_t nspecial;
};

const char *gs_x_optext(const struct gs_xctx *x, const struct gs_ins *in)
{
	if (x->m->strings && in->text < x->m->nstrings)
		return x->m->strings + in->text;
	return "instruction";
}

/* The thread of lane `lane` of warp w, as (x,y,z) of the block. */
static void thread_xyz(const struct gs_xctx *x, const struct gs_xwarp *w, int lane, unsigned t[3])
{
	unsigned id = w->id * GS_WARP + (unsigned)lane;
	t[0] = id % x->bdim[0];
	t[1] = id / x->bdim[0] % x->bdim[1];
	t[2] = id / (x->bdim[0] * x->bdim[1]);
}

int gs_x_fault(struct gs_xctx *x, const struct gs_xwarp *w, const struct gs_ins *in, int lane,
	       const char *what, uint64_t addr, int has_addr)
{
	unsigned t[3];
	thread_xyz(x, w, lane, t);
	char where[160];
	snprintf(where, sizeof where, "(block (%u,%u,%u) thread (%u,%u,%u))", x->ctaid[0],
		 x->ctaid[1], x->ctaid[2], t[0], t[1], t[2]);
	if (has_addr)
		snprintf(x->msg, sizeof x->msg,
			 "emulator: %s %s at line %u: address 0x%" PRIx64 " %s", what,
			 gs_x_optext(x, in), in->line, addr, where);
	else
		snprintf(x->msg, sizeof x->msg, "emulator: %s at line %u %s", what, in->line,
			 where);
	x->rc = GS_EMU_FAULT;
	return GS_EMU_FAULT;
}

int gs_x_unsupported(struct gs_xctx *x, const struct gs_ins *in, const char *why)
{
	snprintf(x->msg, sizeof x->msg, "emulator: unsupported instruction '%s' at line %u%s%s",
		 gs_x_optext(x, in), in->line, why ? ": " : "", why ? why : "");
	x->rc = GS_EMU_UNSUPPORTED;
	return GS_EMU_UNSUPPORTED;
}

/* ---- warps and blocks ------------------------------------------------------ */

static uint64_t special_value(const struct gs_xctx *x, const struct gs_xwarp *w, unsigned sr,
			      int lane)
{
	const struct gs_emu_launch *l = x->l;
	unsigned t[3];
	uint64_t one = 1;
	switch (sr) {
	case GS_SR_TID_X: case GS_SR_TID_Y: case GS_SR_TID_Z:
		thread_xyz(x, w, lane, t);
		return t[sr - GS_SR_TID_X];
	case GS_SR_NTID_X: case GS_SR_NTID_Y: case GS_SR_NTID_Z:
		return x->bdim[sr - GS_SR_NTID_X];
	case GS_SR_CTAID_X: case GS_SR_CTAID_Y: case GS_SR_CTAID_Z:
		return x->ctaid[sr - GS_SR_CTAID_X];
	case GS_SR_NCTAID_X: case GS_SR_NCTAID_Y: case GS_SR_NCTAID_Z:
		return l->grid[sr - GS_SR_NCTAID_X];
	case GS_SR_LANEID:
		return (unsigned)lane;
	case GS_SR_WARPID:
		return w->id;
	case GS_SR_NWARPID:
		return l->prof ? (unsigned)l->prof->max_warps_sm : 64;
	case GS_SR_SMID:
		return 0;
	case GS_SR_NSMID:
		return l->prof ? (unsigned)l->prof->sms : 1;
	case GS_SR_GRIDID:
		return 1;
	case GS_SR_LANEMASK_EQ:
		return (uint32_t)(one << lane);
	case GS_SR_LANEMASK_LT:
		return (uint32_t)((one << lane) - 1);
	case GS_SR_LANEMASK_LE:
		return (uint32_t)((one << (lane + 1)) - 1);
	case GS_SR_LANEMASK_GT:
		return (uint32_t)~((one << (lane + 1)) - 1);
	case GS_SR_LANEMASK_GE:
		return (uint32_t)~((one << lane) - 1);
	case GS_SR_DYN_SMEM:
		return l->dyn_smem;
	case GS_SR_TOTAL_SMEM:
		return x->smem_bytes;
	default:
		return 0;
	}
}

/* The value of slot s when the loader left no template. */
static uint64_t slot_value(const struct gs_xctx *x, const struct gs_slot *s)
{
	if (s->kind == GS_SLOT_IMM)
		return s->val;
	const struct gs_ptx_var *v = &x->m->vars[s->val];
	switch (v->space) {
	case GS_VS_SHARED: case GS_VS_LOCAL:
		return x->f->var_off[s->val] + (uint64_t)s->add;
	default:
		return v->addr + (uint64_t)s->add;
	}
}

static void fill_slot(unsigned char *rf, const struct gs_slot *s, int lane, uint64_t v)
{
	if (s->wide)
		GS_LU64(rf, s->off, lane) = v;
	else
		GS_LU32(rf, s->off, lane) = (uint32_t)v;
}

/* Set up warp i of the current block: zeroed registers, the constant
 * template, the special registers, one stack entry at the entry's start. */
static void warp_start(struct gs_xctx *x, struct gs_xwarp *w, unsigned i)
{
	const struct gs_ptx_module *m = x->m;
	const struct gs_xrun *r = x->run;
	w->id = i;
	memset(w->rf, 0, m->rf_bytes);
	if (x->f->consts && m->const_hi > m->const_lo)
		memcpy(w->rf + m->const_lo, x->f->consts, m->const_hi - m->const_lo);
	for (size_t k = 0; k < r->nspecial; k++) {
		const struct gs_slot *s = &m->slots[r->special[k]];
		if (s->kind == GS_SLOT_SPECIAL) {
			for (int l = 0; l < GS_WARP; l++)
				fill_slot(w->rf, s, l, special_value(x, w, (unsigned)s->val, l));
		} else {
			uint64_t v = slot_value(x, s);
			for (int l = 0; l < GS_WARP; l++)
				fill_slot(w->rf, s, l, v);
		}
	}
	memset(w->pred, 0, m->npred * sizeof(*w->pred));
	if (m->npred > GS_PRED_TRUE)
		w->pred[GS_PRED_TRUE] = GS_ALL;
	unsigned n = x->nthreads - i * GS_WARP;
	w->live = n >= GS_WARP ? GS_ALL : (1u << n) - 1;
	w->carry = 0;
	w->sp = 0;
	w->stk[0] = (struct gs_xent){ x->f->pc0, -1, w->live, 0 };
	w->state = GS_XW_RUN;
	w->issued = 0;
	w->barpc = -1;
	w->barmask = 0;
}

static int push(struct gs_xwarp *w, int32_t pc, int32_t rpc, uint32_t mask, uint32_t call)
{
	if (w->sp + 1 == w->cap) {
		int cap = w->cap * 2;
		struct gs_xent *s = realloc(w->stk, (size_t)cap * sizeof(*s));
		if (!s)
			return -1;
		w->stk = s;
		w->cap = cap;
	}
	w->stk[++w->sp] = (struct gs_xent){ pc, rpc, mask, call };
	return 0;
}

/* Pop finished entries: empty ones and those at their reconvergence
 * point.  0, or 1 when the warp has nothing left to run. */
static int settle(struct gs_xwarp *w)
{
	while (w->sp >= 0 && (!w->stk[w->sp].mask || w->stk[w->sp].pc == w->stk[w->sp].rpc))
		w->sp--;
	return w->sp < 0;
}

/* ---- instructions that look across lanes ------------------------------------ */

static void shfl(unsigned char *rf, uint32_t *pred, const struct gs_ins *in, uint32_t m)
{
	uint32_t src[GS_WARP], ok = 0;
	memcpy(src, rf + in->o[2], sizeof src);
	gs_vu32 r;
	for (int l = 0; l < GS_WARP; l++) {
		uint32_t b = GS_LU32(rf, in->o[3], l) & 31, c = GS_LU32(rf, in->o[4], l);
		int seg = (int)(c >> 8 & 31), cv = (int)(c & 31);
		int maxl = (l & seg) | (cv & ~seg), minl = l & seg, j, p;
		switch (in->sub) {
		case GS_SHFL_UP:
			j = l - (int)b;
			p = j >= maxl;
			break;
		case GS_SHFL_DOWN:
			j = l + (int)b;
			p = j <= maxl;
			break;
		case GS_SHFL_BFLY:
			j = l ^ (int)b;
			p = j <= maxl;
			break;
		default:
			j = minl | ((int)b & ~seg);
			p = j <= maxl;
			break;
		}
		if (!p)
			j = l;
		r[l] = src[j & 31];
		ok |= (uint32_t)p << l;
	}
	gs_x_put32(rf, in->o[0], r, m);
	if (in->o[1] != GS_NONE)
		pred[in->o[1]] = (pred[in->o[1]] & ~m) | (ok & m);
}

static void vote(unsigned char *rf, uint32_t *pred, const struct gs_ins *in, uint32_t m)
{
	uint32_t a = pred[in->o[1]];
	if (in->f & 1)
		a = ~a;
	a &= m;
	uint32_t v;
	switch (in->sub) {
	case GS_VOTE_ALL:
		v = a == m ? GS_ALL : 0;
		break;
	case GS_VOTE_ANY:
		v = a ? GS_ALL : 0;
		break;
	case GS_VOTE_UNI:
		v = (a == m || !a) ? GS_ALL : 0;
		break;
	default: /* ballot: the same b32 in every lane */
		gs_x_put32(rf, in->o[0], (gs_vu32){ 0 } + a, m);
		return;
	}
	pred[in->o[0]] = (pred[in->o[0]] & ~m) | (v & m);
}

static int redux(struct gs_xctx *x, unsigned char *rf, const struct gs_ins *in, uint32_t m)
{
	int sgn = in->sub2 != 0;
	uint32_t acc = 0;
	int first = 1;
	for (uint32_t mm = m; mm; mm &= mm - 1) {
		uint32_t v = GS_LU32(rf, in->o[1], __builtin_ctz(mm));
		if (first) {
			acc = v;
			first = 0;
			continue;
		}
		switch (in->sub) {
		case GS_AT_ADD: acc += v; break;
		case GS_AT_MIN:
			acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc);
			break;
		case GS_AT_MAX:
			acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc);
			break;
		case GS_AT_AND: acc &= v; break;
		case GS_AT_OR: acc |= v; break;
		case GS_AT_XOR: acc ^= v; break;
		default: return gs_x_unsupported(x, in, "reduction operation");
		}
	}
	gs_x_put32(rf, in->o[0], (gs_vu32){ 0 } + acc, m);
	return 0;
}

/* ---- bit-field and byte instructions, lane by lane ------------------------ */

static uint64_t bfe(uint64_t a, unsigned pos, unsigned len, int sgn, unsigned bits)
{
	unsigned msb = bits - 1;
	if (!len)
		return 0;
	unsigned top = pos + len - 1 > msb ? msb : pos + len - 1;
	uint64_t sbit = sgn ? (a >> top & 1) : 0;
	uint64_t d = 0;
	for (unsigned i = 0; i < bits; i++) {
		uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i) & 1) : sbit;
		d |= bit << i;
	}
	return d;
}

static uint64_t bfi(uint64_t a, uint64_t b, unsigned pos, unsigned len, unsigned bits)
{
	for (unsigned i = 0; i < len && pos + i < bits; i++)
		b = (b & ~(1ull << (pos + i))) | ((a >> i & 1) << (pos + i));
	return b;
}

static uint32_t bfind(uint64_t a, int sgn, int shiftamt, unsigned bits)
{
	if (sgn && (a >> (bits - 1) & 1))
		a = ~a;
	if (bits == 32)
		a &= 0xffffffffu;
	if (!a)
		return GS_ALL;
	unsigned p = 63 - (unsigned)__builtin_clzll(a);
	return shiftamt ? bits - 1 - p : p;
}

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, unsigned mode)
{
	/* byte selectors of the fixed modes, d.b0 first */
	static const uint8_t fixed[6][4][4] = {
		{ { 0, 1, 2, 3 }, { 1, 2, 3, 4 }, { 2, 3, 4, 5 }, { 3, 4, 5, 6 } }, /* f4e */
		{ { 0, 7, 6, 5 }, { 1, 0, 7, 6 }, { 2, 1, 0, 7 }, { 3, 2, 1, 0 } }, /* b4e */
		{ { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 3, 3, 3, 3 } }, /* rc8 */
		{ { 0, 1, 2, 3 }, { 1, 1, 2, 3 }, { 2, 2, 2, 3 }, { 3, 3, 3, 3 } }, /* ecl */
		{ { 0, 0, 0, 0 }, { 0, 1, 1, 1 }, { 0, 1, 2, 2 }, { 0, 1, 2, 3 } }, /* ecr */
		{ { 0, 1, 0, 1 }, { 2, 3, 2, 3 }, { 0, 1, 0, 1 }, { 2, 3, 2, 3 } }, /* rc16 */
	};
	uint64_t src = a | (uint64_t)b << 32;
	uint32_t d = 0;
	for (int i = 0; i < 4; i++) {
		uint32_t byte;
		if (mode == 0 || mode > 6) {
			unsigned sel = c >> (4 * i) & 15;
			byte = (uint32_t)(src >> (8 * (sel & 7))) & 0xff;
			if (sel & 8)
				byte = (byte & 0x80) ? 0xff : 0;
		} else {
			byte = (uint32_t)(src >> (8 * fixed[mode - 1][c & 3][i])) & 0xff;
		}
		d |= byte << (8 * i);
	}
	return d;
}

static uint32_t shf(uint32_t lo, uint32_t hi, uint32_t n, unsigned sub)
{
	n = (sub & 2) ? (n > 32 ? 32 : n) : (n & 31);
	uint64_t v = lo | (uint64_t)hi << 32;
	return (sub & 1) ? (uint32_t)(v >> n) : (uint32_t)((v << n) >> 32);
}

static uint64_t brev64(uint64_t v)
{
	uint64_t r = 0;
	for (int i = 0; i < 64; i++)
		r |= (v >> i & 1) << (63 - i);
	return r;
}

/* ---- the dispatch loop ------------------------------------------------------- */

static int carry_ops(unsigned char *rf, struct gs_xwarp *w, const struct gs_ins *in, uint32_t m)
{
	int cin = in->f & 1, cout = in->f & 2, sub = in->sub & 1;
	int sgn = in->sub2 == GS_TY_S32 || in->sub2 == GS_TY_S64;
	for (uint32_t mm = m; mm; mm &= mm - 1) {
		int l = __builtin_ctz(mm);
		uint64_t ci = cin ? (w->carry >> l & 1) : 0, co;
		if (in->sz == 8) {
			uint64_t a = GS_LU64(rf, in->o[1], l), b = GS_LU64(rf, in->o[2], l), d;
			unsigned __int128 t;
			if (in->op == GS_OP_MADCC) {
				uint64_t c = GS_LU64(rf, in->o[3], l);
				if (sub) {
					__int128 p = sgn ? (__int128)(int64_t)a * (int64_t)b
							 : (__int128)((unsigned __int128)a * b);
					a = (uint64_t)((unsigned __int128)p >> 64);
				} else {
					a = a * b;
				}
				b = c;
				t = (unsigned __int128)a + b + ci;
			} else if (sub) {
				t = (unsigned __int128)a - b - ci;
			} else {
				t = (unsigned __int128)a + b + ci;
			}
			d = (uint64_t)t;
			co = (uint64_t)(t >> 64) & 1;
			GS_LU64(rf, in->o[0], l) = d;
		} else {
			uint64_t a = GS_LU32(rf, in->o[1], l), b = GS_LU32(rf, in->o[2], l), t;
			if (in->op == GS_OP_MADCC) {
				uint64_t c = GS_LU32(rf, in->o[3], l);
				if (sub)
					a = sgn ? (uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32
						: (a * b) >> 32;
				else
					a = (uint32_t)(a * b);
				t = a + c + ci;
			} else if (sub) {
				t = a - b - ci;
			} else {
				t = a + b + ci;
			}
			co = t >> 32 & 1;
			GS_LU32(rf, in->o[0], l) = (uint32_t)t;
		}
		if (cout)
			w->carry = (w->carry & ~(1u << l)) | (uint32_t)co << l;
	}
	return 0;
}

/* Integer division lane by lane: x86 traps on a zero divisor and on
 * INT_MIN / -1, a GPU does not (the results here are the hardware's:
 * all ones for a zero divisor, the dividend for its remainder). */
#define GS_DIVLOOP(T, UT, GET, EXPR)                                                           \
	for (uint32_t mm = m; mm; mm &= mm - 1) {                                               \
		int l = __builtin_ctz(mm);                                                      \
		T a = (T)GET(rf, in->o[1], l), b = (T)GET(rf, in->o[2], l), d;                 \
		EXPR;                                                                           \
		GET(rf, in->o[0], l) = (UT)d;                                                  \
	}

static void divide(unsigned char *rf, const struct gs_ins *in, uint32_t m)
{
	switch (in->op) {
	case GS_OP_DIVU32: GS_DIVLOOP(uint32_t, uint32_t, GS_LU32, d = b ? a / b : GS_ALL); break;
	case GS_OP_REMU32: GS_DIVLOOP(uint32_t, uint32_t, GS_LU32, d = b ? a % b : a); break;
	case GS_OP_DIVS32:
		GS_DIVLOOP(int32_t, uint32_t, GS_LU32,
			   d = !b ? -1 : (b == -1 ? (int32_t)(0u - (uint32_t)a) : a / b));
		break;
	case GS_OP_REMS32:
		GS_DIVLOOP(int32_t, uint32_t, GS_LU32, d = !b ? a : (b == -1 ? 0 : a % b));
		break;
	case GS_OP_DIVU64: GS_DIVLOOP(uint64_t, uint64_t, GS_LU64, d = b ? a / b : ~0ull); break;
	case GS_OP_REMU64: GS_DIVLOOP(uint64_t, uint64_t, GS_LU64, d = b ? a % b : a); break;
	case GS_OP_DIVS64:
		GS_DIVLOOP(int64_t, uint64_t, GS_LU64,
			   d = !b ? -1 : (b == -1 ? (int64_t)(0ull - (uint64_t)a) : a / b));
		break;
	case GS_OP_REMS64:
		GS_DIVLOOP(int64_t, uint64_t, GS_LU64, d = !b ? a : (b == -1 ? 0 : a % b));
		break;
	/* 16-bit values in 32-bit slots; int promotion keeps INT16_MIN / -1 finite */
	case GS_OP_DIVU16: GS_DIVLOOP(uint16_t, uint32_t, GS_LU32, d = b ? a / b : 0xffff); break;
	case GS_OP_REMU16: GS_DIVLOOP(uint16_t, uint32_t, GS_LU32, d = b ? a % b : a); break;
	case GS_OP_DIVS16:
		GS_DIVLOOP(int16_t, uint16_t, GS_LU32, d = !b ? -1 : (int16_t)(a / b));
		break;
	default: GS_DIVLOOP(int16_t, uint16_t, GS_LU32, d = !b ? a : (int16_t)(a % b)); break;
	}
}

/* Bit counts, bit fields and 64-bit high products, lane by lane. */
static void lane_ops(unsigned char *rf, const struct gs_ins *in, uint32_t m)
{
#define U32(i) GS_LU32(rf, in->o[i], l)
#define U64(i) GS_LU64(rf, in->o[i], l)
	for (uint32_t mm = m; mm; mm &= mm - 1) {
		int l = __builtin_ctz(mm);
		switch (in->op) {
		case GS_OP_POPC32: U32(0) = (uint32_t)__builtin_popcount(U32(1)); break;
		case GS_OP_CLZ32: U32(0) = U32(1) ? (uint32_t)__builtin_clz(U32(1)) : 32; break;
		case GS_OP_BREV32: U32(0) = (uint32_t)(brev64(U32(1)) >> 32); break;
		case GS_OP_POPC64: U32(0) = (uint32_t)__builtin_popcountll(U64(1)); break;
		case GS_OP_CLZ64: U32(0) = U64(1) ? (uint32_t)__builtin_clzll(U64(1)) : 64; break;
		case GS_OP_BREV64: U64(0) = brev64(U64(1)); break;
		case GS_OP_BFIND:
			U32(0) = bfind(in->sz == 8 ? U64(1) : U32(1), in->sub & 1, in->sub & 2,
				       in->sz * 8u);
			break;
		case GS_OP_BFEU32: case GS_OP_BFES32:
			U32(0) = (uint32_t)bfe(U32(1), U32(2) & 0xff, U32(3) & 0xff,
					       in->op == GS_OP_BFES32, 32);
			break;
		case GS_OP_BFEU64: case GS_OP_BFES64:
			U64(0) = bfe(U64(1), U32(2) & 0xff, U32(3) & 0xff, in->op == GS_OP_BFES64,
				     64);
			break;
		case GS_OP_BFI32:
			U32(0) = (uint32_t)bfi(U32(1), U32(2), U32(3) & 0xff, U32(4) & 0xff, 32);
			break;
		case GS_OP_BFI64:
			U64(0) = bfi(U64(1), U64(2), U32(3) & 0xff, U32(4) & 0xff, 64);
			break;
		default: { /* MULHI/MADHI 64 */
			uint64_t a = U64(1), b = U64(2);
			int sgn = in->op == GS_OP_MULHIS64 || in->op == GS_OP_MADHIS64;
			uint64_t h = sgn ? (uint64_t)((__int128)(int64_t)a * (int64_t)b >> 64)
					 : (uint64_t)((unsigned __int128)a * b >> 64);
			if (in->op == GS_OP_MADHIU64 || in->op == GS_OP_MADHIS64)
				h += U64(3);
			U64(0) = h;
			break;
		}
		}
	}
#undef U32
#undef U64
}

/* The dispatch loop is compiled twice (GS_X_CLONES, exec_int.h). */
/* Run warp w until it waits at a barrier, finishes or has used its slice.
 * 0, or a negative code with x->msg set. */
GS_X_CLONES static int run_warp(struct gs_xctx *x, struct gs_xwarp *w)
{
	const struct gs_ins *code = x->code;
	const uint32_t ncode = (uint32_t)x->m->ncode;
	unsigned char *rf = w->rf;
	uint32_t *pred = w->pred;
	struct gs_emu_counters *cnt = &x->c;
	uint64_t issued = w->issued;
	int slice = x->slice, rc = 0, nact;
	int32_t pc, rpc;
	uint32_t act;

#define A32 GS_VU32(rf, in->o[1])
#define B32 GS_VU32(rf, in->o[2])
#define C32 GS_VU32(rf, in->o[3])
#define SA32 GS_VS32(rf, in->o[1])
#define SB32 GS_VS32(rf, in->o[2])
#define SC32 GS_VS32(rf, in->o[3])
#define A64 GS_VU64(rf, in->o[1])
#define B64 GS_VU64(rf, in->o[2])
#define C64 GS_VU64(rf, in->o[3])
#define SA64 GS_VS64(rf, in->o[1])
#define SB64 GS_VS64(rf, in->o[2])
#define SC64 GS_VS64(rf, in->o[3])
#define FA32 GS_VF32(rf, in->o[1])
#define FB32 GS_VF32(rf, in->o[2])
#define FC32 GS_VF32(rf, in->o[3])
#define FA64 GS_VF64(rf, in->o[1])
#define FB64 GS_VF64(rf, in->o[2])
#define FC64 GS_VF64(rf, in->o[3])
#define PUT32(v) gs_x_put32(rf, in->o[0], (gs_vu32)(v), m)
#define PUT64(v) gs_x_put64(rf, in->o[0], (gs_vu64)(v), m)
#define PUT16(v) PUT32((gs_vu32)(v) & 0xffffu)
#define SX16(v) (((gs_vs32)((v) << 16)) >> 16)
#define TO64(v) __builtin_convertvector((v), gs_vu64)
#define STO64(v) __builtin_convertvector((v), gs_vs64)
#define NARROW(v) __builtin_convertvector((v), gs_vu32)
#define SEL(c, a, b) (((a) & (c)) | ((b) & ~(c)))
#define PSET(i, bits) (pred[i] = (pred[i] & ~m) | ((bits) & m))

reload:
	if (settle(w)) {
		w->state = GS_XW_DONE;
		goto out;
	}
	pc = w->stk[w->sp].pc;
	act = w->stk[w->sp].mask;
	rpc = w->stk[w->sp].rpc;
	nact = __builtin_popcount(act);
	for (;;) {
		if (pc == rpc) {
			w->stk[w->sp].pc = pc;
			goto reload;
		}
		if ((uint32_t)pc >= ncode) {
			snprintf(x->msg, sizeof x->msg,
				 "emulator: execution ran off the code at instruction %d", (int)pc);
			rc = x->rc = GS_EMU_FAULT;
			goto out;
		}
		const struct gs_ins *in = &code[pc];
		if (__builtin_expect(x->pr != NULL, 0))
			gs_x_probe_issue(x, w, in);
		cnt->warp_inst[in->cls]++;
		cnt->thread_inst[in->cls] += (unsigned)nact;
		issued++;
		uint32_t m = act;
		if (in->guard >= 0) {
			uint32_t p = pred[in->guard];
			m &= in->gneg ? ~p : p;
			if (!m) {
				if (in->op == GS_OP_BRA) {
					cnt->branches++;
					if (__builtin_expect(x->loops != NULL, 0) && in->tgt <= pc)
						gs_x_loop_exit(x, w, pc);
				}
				pc++;
				continue;
			}
		}
		switch ((enum gs_op)in->op) {
		case GS_OP_NOP:
			break;
		case GS_OP_MOV32: PUT32(A32); break;
		case GS_OP_MOV64: PUT64(A64); break;
		case GS_OP_MOVP: PSET(in->o[0], pred[in->o[1]]); break;
		case GS_OP_PACK64: PUT64(TO64(A32) | TO64(B32) << 32); break;
		case GS_OP_UNPACK64: {
			gs_vu64 a = GS_VU64(rf, in->o[2]);
			if (in->o[0] != GS_NONE)
				gs_x_put32(rf, in->o[0], NARROW(a), m);
			if (in->o[1] != GS_NONE)
				gs_x_put32(rf, in->o[1], NARROW(a >> 32), m);
			break;
		}
		case GS_OP_PACK32: PUT32((A32 & 0xffffu) | B32 << 16); break;
		case GS_OP_UNPACK32: {
			gs_vu32 a = GS_VU32(rf, in->o[2]);
			if (in->o[0] != GS_NONE)
				gs_x_put32(rf, in->o[0], a & 0xffffu, m);
			if (in->o[1] != GS_NONE)
				gs_x_put32(rf, in->o[1], a >> 16, m);
			break;
		}
		case GS_OP_ADD32: PUT32(A32 + B32); break;
		case GS_OP_SUB32: PUT32(A32 - B32); break;
		case GS_OP_MUL32: PUT32(A32 * B32); break;
		case GS_OP_ADD64: PUT64(A64 + B64); break;
		case GS_OP_SUB64: PUT64(A64 - B64); break;
		case GS_OP_MUL64: PUT64(A64 * B64); break;
		case GS_OP_ADD16: PUT16(A32 + B32); break;
		case GS_OP_SUB16: PUT16(A32 - B32); break;
		case GS_OP_MUL16: PUT16(A32 * B32); break;
		case GS_OP_MAD32: PUT32(A32 * B32 + C32); break;
		case GS_OP_MAD64: PUT64(A64 * B64 + C64); break;
		case GS_OP_MAD16: PUT16(A32 * B32 + C32); break;
		case GS_OP_AND32: case GS_OP_AND16: PUT32(A32 & B32); break;
		case GS_OP_OR32: case GS_OP_OR16: PUT32(A32 | B32); break;
		case GS_OP_XOR32: case GS_OP_XOR16: PUT32(A32 ^ B32); break;
		case GS_OP_NOT32: PUT32(~A32); break;
		case GS_OP_NOT16: PUT16(~A32); break;
		case GS_OP_AND64: PUT64(A64 & B64); break;
		case GS_OP_OR64: PUT64(A64 | B64); break;
		case GS_OP_XOR64: PUT64(A64 ^ B64); break;
		case GS_OP_NOT64: PUT64(~A64); break;
		case GS_OP_ANDP: PSET(in->o[0], pred[in->o[1]] & pred[in->o[2]]); break;
		case GS_OP_ORP: PSET(in->o[0], pred[in->o[1]] | pred[in->o[2]]); break;
		case GS_OP_XORP: PSET(in->o[0], pred[in->o[1]] ^ pred[in->o[2]]); break;
		case GS_OP_NOTP: PSET(in->o[0], ~pred[in->o[1]]); break;
		case GS_OP_CNOT32: PUT32(~gs_x_nz32(A32) & 1u); break;
		case GS_OP_CNOT16: PUT32(~gs_x_nz32(A32 & 0xffffu) & 1u); break;
		case GS_OP_CNOT64: PUT64(~gs_x_nz64(A64) & 1u); break;
		case GS_OP_NEG32: PUT32(-A32); break;
		case GS_OP_NEG64: PUT64(-A64); break;
		case GS_OP_NEG16: PUT16(-A32); break;
		case GS_OP_ABS32: {
			gs_vs32 a = SA32, s = a >> 31;
			PUT32((a ^ s) - s);
			break;
		}
		case GS_OP_ABS64: {
			gs_vs64 a = SA64, s = a >> 63;
			PUT64((a ^ s) - s);
			break;
		}
		case GS_OP_ABS16: {
			gs_vs32 a = SX16(A32), s = a >> 31;
			PUT16((a ^ s) - s);
			break;
		}
		case GS_OP_SHL32: {
			gs_vu32 b = B32;
			PUT32((A32 << (b & 31)) & ~gs_x_nz32(b >> 5));
			break;
		}
		case GS_OP_SHRU32: {
			gs_vu32 b = B32;
			PUT32((A32 >> (b & 31)) & ~gs_x_nz32(b >> 5));
			break;
		}
		case GS_OP_SHRS32: {
			gs_vu32 b = B32;
			PUT32(SA32 >> (gs_vs32)((b | gs_x_nz32(b >> 5)) & 31));
			break;
		}
		case GS_OP_SHL64: {
			gs_vu64 b = TO64(B32);
			PUT64((A64 << (b & 63)) & ~gs_x_nz64(b >> 6));
			break;
		}
		case GS_OP_SHRU64: {
			gs_vu64 b = TO64(B32);
			PUT64((A64 >> (b & 63)) & ~gs_x_nz64(b >> 6));
			break;
		}
		case GS_OP_SHRS64: {
			gs_vu64 b = TO64(B32);
			PUT64(SA64 >> (gs_vs64)((b | gs_x_nz64(b >> 6)) & 63));
			break;
		}
		case GS_OP_SHL16: {
			gs_vu32 b = B32;
			PUT16((A32 << (b & 15)) & ~gs_x_nz32(b >> 4));
			break;
		}
		case GS_OP_SHRU16: {
			gs_vu32 b = B32;
			PUT16(((A32 & 0xffffu) >> (b & 15)) & ~gs_x_nz32(b >> 4));
			break;
		}
		case GS_OP_SHRS16: {
			gs_vu32 b = B32;
			PUT16(SX16(A32) >> (gs_vs32)((b | gs_x_nz32(b >> 4)) & 15));
			break;
		}
		case GS_OP_MINU32: PUT32(SEL(gs_x_ltu32(A32, B32), A32, B32)); break;
		case GS_OP_MAXU32: PUT32(SEL(gs_x_ltu32(B32, A32), A32, B32)); break;
		case GS_OP_MINS32: PUT32(SEL(gs_x_lts32(A32, B32), A32, B32)); break;
		case GS_OP_MAXS32: PUT32(SEL(gs_x_lts32(B32, A32), A32, B32)); break;
		case GS_OP_MINU64: PUT64(SEL(gs_x_ltu64(A64, B64), A64, B64)); break;
		case GS_OP_MAXU64: PUT64(SEL(gs_x_ltu64(B64, A64), A64, B64)); break;
		case GS_OP_MINS64: PUT64(SEL(gs_x_lts64(A64, B64), A64, B64)); break;
		case GS_OP_MAXS64: PUT64(SEL(gs_x_lts64(B64, A64), A64, B64)); break;
		case GS_OP_MINU16: {
			gs_vu32 a = A32 & 0xffffu, b = B32 & 0xffffu;
			PUT32(SEL(gs_x_ltu32(a, b), a, b));
			break;
		}
		case GS_OP_MAXU16: {
			gs_vu32 a = A32 & 0xffffu, b = B32 & 0xffffu;
			PUT32(SEL(gs_x_ltu32(b, a), a, b));
			break;
		}
		case GS_OP_MINS16: {
			gs_vu32 a = (gs_vu32)SX16(A32), b = (gs_vu32)SX16(B32);
			PUT16(SEL(gs_x_lts32(a, b), a, b));
			break;
		}
		case GS_OP_MAXS16: {
			gs_vu32 a = (gs_vu32)SX16(A32), b = (gs_vu32)SX16(B32);
			PUT16(SEL(gs_x_lts32(b, a), a, b));
			break;
		}
		case GS_OP_DIVU32: case GS_OP_DIVS32: case GS_OP_REMU32: case GS_OP_REMS32:
		case GS_OP_DIVU64: case GS_OP_DIVS64: case GS_OP_REMU64: case GS_OP_REMS64:
		case GS_OP_DIVU16: case GS_OP_DIVS16: case GS_OP_REMU16: case GS_OP_REMS16:
			divide(rf, in, m);
			break;
		case GS_OP_MULHIU32: PUT32(NARROW(TO64(A32) * TO64(B32) >> 32)); break;
		case GS_OP_MULHIS32:
			PUT32(__builtin_convertvector(STO64(SA32) * STO64(SB32) >> 32, gs_vu32));
			break;
		case GS_OP_MULHIU16: PUT16(((A32 & 0xffffu) * (B32 & 0xffffu)) >> 16); break;
		case GS_OP_MULHIS16: PUT16((SX16(A32) * SX16(B32)) >> 16); break;
		case GS_OP_MULHIU64: case GS_OP_MULHIS64: case GS_OP_MADHIU64: case GS_OP_MADHIS64:
			lane_ops(rf, in, m);
			break;
		case GS_OP_MULWU32: PUT64(TO64(A32) * TO64(B32)); break;
		case GS_OP_MULWS32: PUT64(STO64(SA32) * STO64(SB32)); break;
		case GS_OP_MULWU16: PUT32((A32 & 0xffffu) * (B32 & 0xffffu)); break;
		case GS_OP_MULWS16: PUT32(SX16(A32) * SX16(B32)); break;
		case GS_OP_MADHIU32:
			PUT32(__builtin_convertvector(TO64(A32) * TO64(B32) >> 32, gs_vu32) + C32);
			break;
		case GS_OP_MADHIS32:
			PUT32(NARROW(STO64(SA32) * STO64(SB32) >> 32) + C32);
			break;
		case GS_OP_MADWU32: PUT64(TO64(A32) * TO64(B32) + C64); break;
		case GS_OP_MADWS32: PUT64(STO64(SA32) * STO64(SB32) + C64); break;
		case GS_OP_MUL24LOU: case GS_OP_MAD24LOU:
			PUT32((A32 & 0xffffffu) * (B32 & 0xffffffu) +
			      (in->op == GS_OP_MAD24LOU ? C32 : (gs_vu32){ 0 }));
			break;
		case GS_OP_MUL24LOS: case GS_OP_MAD24LOS:
			PUT32((gs_vu32)(((gs_vs32)(A32 << 8) >> 8) * ((gs_vs32)(B32 << 8) >> 8)) +
			      (in->op == GS_OP_MAD24LOS ? C32 : (gs_vu32){ 0 }));
			break;
		case GS_OP_MUL24HIU:
			PUT32(NARROW(TO64(A32 & 0xffffffu) * TO64(B32 & 0xffffffu) >> 16));
			break;
		case GS_OP_MUL24HIS: {
			gs_vs64 a = STO64((gs_vs32)(A32 << 8) >> 8);
			gs_vs64 b = STO64((gs_vs32)(B32 << 8) >> 8);
			PUT32(NARROW(a * b >> 16));
			break;
		}
		case GS_OP_ADDCC: case GS_OP_MADCC:
			carry_ops(rf, w, in, m);
			break;
		case GS_OP_POPC32: case GS_OP_CLZ32: case GS_OP_BREV32: case GS_OP_POPC64:
		case GS_OP_CLZ64: case GS_OP_BREV64: case GS_OP_BFIND: case GS_OP_BFEU32:
		case GS_OP_BFES32: case GS_OP_BFEU64: case GS_OP_BFES64: case GS_OP_BFI32:
		case GS_OP_BFI64:
			lane_ops(rf, in, m);
			break;
		case GS_OP_PRMT: {
			gs_vu32 r;
			for (int l = 0; l < GS_WARP; l++)
				r[l] = prmt(GS_LU32(rf, in->o[1], l), GS_LU32(rf, in->o[2], l),
					    GS_LU32(rf, in->o[3], l), in->sub);
			PUT32(r);
			break;
		}
		case GS_OP_SHF: {
			gs_vu32 r;
			for (int l = 0; l < GS_WARP; l++)
				r[l] = shf(GS_LU32(rf, in->o[1], l), GS_LU32(rf, in->o[2], l),
					   GS_LU32(rf, in->o[3], l), in->sub);
			PUT32(r);
			break;
		}
		case GS_OP_SELP32: PUT32(SEL(gs_x_mask32(pred[in->o[3]]), A32, B32)); break;
		case GS_OP_SELP64: PUT64(SEL(gs_x_mask64(pred[in->o[3]]), A64, B64)); break;
		case GS_OP_SLCT32: case GS_OP_SLCT64: {
			gs_vu32 ge, c = C32;
			if (in->sub == 1) {
				/* c >= 0.0f: sign clear or -0, and not NaN */
				if (in->f & 1)
					c = (gs_vu32)gs_x_ftz32((gs_vf32)c);
				gs_vu32 inf = (gs_vu32){ 0 } + 0x7f800000u;
				gs_vu32 nan = gs_x_ltu32(inf, c & 0x7fffffffu);
				ge = (~gs_x_nz32(c >> 31) | ~gs_x_nz32(c ^ 0x80000000u)) & ~nan;
			} else {
				ge = ~gs_x_nz32(c >> 31);
			}
			if (in->op == GS_OP_SLCT32)
				PUT32(SEL(ge, A32, B32));
			else
				PUT64(SEL((gs_vu64)STO64((gs_vs32)ge), A64, B64));
			break;
		}
		case GS_OP_SETP: case GS_OP_SET: {
			uint32_t bits, c = 0, p, q;
			if (gs_x_cmp(rf, in, &bits) < 0) {
				rc = gs_x_unsupported(x, in, "comparison type");
				goto out;
			}
			if (in->o[4] != GS_NONE)
				c = pred[in->o[4]];
			if (in->f & 4)
				c = ~c;
			switch (in->o[4] == GS_NONE ? 0 : in->f & 3) {
			case 0: p = bits; q = ~bits; break;
			case 1: p = bits & c; q = ~bits & c; break;
			case 2: p = bits | c; q = ~bits | c; break;
			default: p = bits ^ c; q = ~bits ^ c; break;
			}
			if (in->op == GS_OP_SET) {
				gs_vu32 t = (gs_vu32){ 0 } + ((in->f & 8) ? 0x3f800000u : GS_ALL);
				PUT32(t & gs_x_mask32(p));
			} else {
				PSET(in->o[0], p);
				if (in->o[1] != GS_NONE)
					PSET(in->o[1], q);
			}
			break;
		}
		case GS_OP_TESTP:
			if ((rc = gs_x_testp(x, rf, pred, in, m)) < 0)
				goto out;
			break;
		case GS_OP_ADDF32: PUT32(FA32 + FB32); break;
		case GS_OP_SUBF32: PUT32(FA32 - FB32); break;
		case GS_OP_MULF32: PUT32(FA32 * FB32); break;
		case GS_OP_FMAF32: {
			if (m == GS_ALL) {
				/* eight lanes at a time straight into the register
				 * (a whole vector result goes through the stack) */
				gs_v8f *d = (gs_v8f *)(rf + in->o[0]);
				const gs_v8f *va = (const gs_v8f *)(rf + in->o[1]);
				const gs_v8f *vb = (const gs_v8f *)(rf + in->o[2]);
				const gs_v8f *vc = (const gs_v8f *)(rf + in->o[3]);
				for (int k = 0; k < GS_WARP / 8; k++) {
					gs_v8f a = va[k], b = vb[k], c = vc[k], r;
					for (int l = 0; l < 8; l++)
						r[l] = __builtin_fmaf(a[l], b[l], c[l]);
					d[k] = r;
				}
				break;
			}
			gs_vf32 a = FA32, b = FB32, c = FC32, r;
			for (int l = 0; l < GS_WARP; l++)
				r[l] = __builtin_fmaf(a[l], b[l], c[l]);
			PUT32(r);
			break;
		}
		case GS_OP_ADDF32Z: PUT32(gs_x_ftz32(gs_x_ftz32(FA32) + gs_x_ftz32(FB32))); break;
		case GS_OP_SUBF32Z: PUT32(gs_x_ftz32(gs_x_ftz32(FA32) - gs_x_ftz32(FB32))); break;
		case GS_OP_MULF32Z: PUT32(gs_x_ftz32(gs_x_ftz32(FA32) * gs_x_ftz32(FB32))); break;
		case GS_OP_FMAF32Z: {
			gs_vf32 a = gs_x_ftz32(FA32), b = gs_x_ftz32(FB32), c = gs_x_ftz32(FC32), r;
			for (int l = 0; l < GS_WARP; l++)
				r[l] = __builtin_fmaf(a[l], b[l], c[l]);
			PUT32(gs_x_ftz32(r));
			break;
		}
		case GS_OP_ADDF64: PUT64(FA64 + FB64); break;
		case GS_OP_SUBF64: PUT64(FA64 - FB64); break;
		case GS_OP_MULF64: PUT64(FA64 * FB64); break;
		case GS_OP_FMAF64: {
			gs_vf64 a = FA64, b = FB64, c = FC64, r;
			for (int l = 0; l < GS_WARP; l++)
				r[l] = __builtin_fma(a[l], b[l], c[l]);
			PUT64(r);
			break;
		}
		case GS_OP_FOP32:
			if ((rc = gs_x_fop32(x, rf, in, m)) < 0)
				goto out;
			break;
		case GS_OP_FOP64:
			if ((rc = gs_x_fop64(x, rf, in, m)) < 0)
				goto out;
			break;
		case GS_OP_FOP16:
			if ((rc = gs_x_fop16(x, rf, in, m)) < 0)
				goto out;
			break;
		case GS_OP_CVT:
			if ((rc = gs_x_cvt(x, rf, in, m)) < 0)
				goto out;
			break;
		case GS_OP_CVTA:
			if ((rc = gs_x_cvta(x, w, in, m)) < 0)
				goto out;
			break;
		case GS_OP_LD:
			if ((rc = gs_x_ld(x, w, in, m)) < 0)
				goto out;
			break;
		case GS_OP_ST:
			if ((rc = gs_x_st(x, w, in, m)) < 0)
				goto out;
			break;
		case GS_OP_LDKP:
			if ((rc = gs_x_ldkp(x, w, in, m)) < 0)
				goto out;
			break;
		case GS_OP_ATOM:
			if ((rc = gs_x_atom(x, w, in, m)) < 0)
				goto out;
			break;
		case GS_OP_BRA: {
			int32_t tgt = in->tgt;
			if (in->guard >= 0) {
				uint32_t nt = act & ~m;
				cnt->branches++;
				if (nt) {
					/* the paths split: this entry waits where they meet */
					cnt->divergent++;
					if (__builtin_expect(x->loops != NULL, 0) && tgt <= pc)
						gs_x_loop_exit(x, w, pc);
					w->stk[w->sp].pc = in->rpc;
					if (push(w, pc + 1, in->rpc, nt, 0) < 0 ||
					    push(w, tgt, in->rpc, m, 0) < 0)
						goto oom;
					goto reload;
				}
			}
			if (tgt <= pc && __builtin_expect(x->loops != NULL, 0))
				issued += gs_x_loop_back(x, w, pc, issued);
			if (tgt <= pc && --slice == 0) {
				w->stk[w->sp].pc = tgt;
				goto out;
			}
			pc = tgt;
			continue;
		}
		case GS_OP_CALL:
			w->stk[w->sp].pc = pc + 1;
			if (push(w, in->tgt, -1, m, 1) < 0)
				goto oom;
			goto reload;
		case GS_OP_RET: {
			int j = w->sp;
			while (j >= 0 && !w->stk[j].call)
				j--;
			if (j < 0)
				goto exit_lanes;
			for (int i = j; i <= w->sp; i++)
				w->stk[i].mask &= ~m;
			act &= ~m;
			if (!act)
				goto reload;
			nact = __builtin_popcount(act);
			break;
		}
		case GS_OP_EXIT:
		exit_lanes:
			w->live &= ~m;
			for (int i = 0; i <= w->sp; i++)
				w->stk[i].mask &= ~m;
			act &= ~m;
			if (!act)
				goto reload;
			nact = __builtin_popcount(act);
			break;
		case GS_OP_TRAP:
			rc = gs_x_fault(x, w, in, __builtin_ctz(m), "trap", 0, 0);
			goto out;
		case GS_OP_BAR:
			cnt->barriers++;
			w->stk[w->sp].pc = pc + 1;
			w->barpc = pc;
			w->barmask = m;
			w->state = GS_XW_BAR;
			goto out;
		case GS_OP_SHFL: shfl(rf, pred, in, m); break;
		case GS_OP_VOTE: vote(rf, pred, in, m); break;
		case GS_OP_ACTIVEMASK: PUT32((gs_vu32){ 0 } + m); break;
		case GS_OP_REDUX:
			if ((rc = redux(x, rf, in, m)) < 0)
				goto out;
			break;
		case GS_OP_SAD32: {
			gs_vu32 a = A32, b = B32;
			gs_vu32 gt = gs_x_ltu32(b, a);
			if (in->sub == 1)
				gt = gs_x_lts32(b, a);
			PUT32(SEL(gt, a - b, b - a) + C32);
			break;
		}
		case GS_OP_DP4A: {
			gs_vu32 a = A32, b = B32, sum = C32;
			for (int k = 0; k < 4; k++) {
				gs_vu32 ak = (a >> (8 * k)) & 0xffu, bk = (b >> (8 * k)) & 0xffu;
				if (in->sub & 1)
					ak = (gs_vu32)((gs_vs32)(a << (24 - 8 * k)) >> 24);
				if (in->sub & 2)
					bk = (gs_vu32)((gs_vs32)(b << (24 - 8 * k)) >> 24);
				sum += ak * bk;
			}
			PUT32(sum);
			break;
		}
		case GS_OP_CLOCK32: PUT32((gs_vu32){ 0 } + (uint32_t)issued); break;
		case GS_OP_CLOCK64: case GS_OP_GTIMER: PUT64((gs_vu64){ 0 } + issued); break;
		default:
			rc = gs_x_unsupported(x, in, "no executor for this operation");
			goto out;
		}
		pc++;
	}
oom:
	snprintf(x->msg, sizeof x->msg, "emulator: out of memory");
	rc = x->rc = GS_EMU_FAULT;
out:
	w->issued = issued;
	return rc;
#undef A32
#undef B32
#undef C32
#undef SA32
#undef SB32
#undef SC32
#undef A64
#undef B64
#undef C64
#undef SA64
#undef SB64
#undef SC64
#undef FA32
#undef FB32
#undef FC32
#undef FA64
#undef FB64
#undef FC64
#undef PUT32
#undef PUT64
#undef PUT16
#undef SX16
#undef TO64
#undef STO64
#undef NARROW
#undef SEL
#undef PSET
}

/* ---- blocks ------------------------------------------------------------------- */

/* Every warp of the block waits at a barrier or has finished: let them go,
 * with the block-wide result of bar.red. */
static void bar_release(struct gs_xctx *x)
{
	uint32_t popc = 0;
	int all = 1, any = 0;
	if (x->pr)
		gs_x_probe_barrier(x);
	for (unsigned i = 0; i < x->nwarps; i++) {
		struct gs_xwarp *w = &x->w[i];
		if (w->state != GS_XW_BAR)
			continue;
		const struct gs_ins *in = &x->code[w->barpc];
		if (!in->sub)
			continue;
		uint32_t p = w->pred[in->o[1]];
		if (in->f & 1)
			p = ~p;
		p &= w->barmask;
		popc += (uint32_t)__builtin_popcount(p);
		all &= p == w->barmask;
		any |= p != 0;
	}
	for (unsigned i = 0; i < x->nwarps; i++) {
		struct gs_xwarp *w = &x->w[i];
		if (w->state != GS_XW_BAR)
			continue;
		const struct gs_ins *in = &x->code[w->barpc];
		uint32_t m = w->barmask;
		if (in->sub == 1) {
			gs_x_put32(w->rf, in->o[0], (gs_vu32){ 0 } + popc, m);
		} else if (in->sub) {
			uint32_t v = (in->sub == 2 ? all : any) ? GS_ALL : 0;
			w->pred[in->o[0]] = (w->pred[in->o[0]] & ~m) | (v & m);
		}
		w->state = GS_XW_RUN;
	}
}

/* 1 when the run should stop early: canceled, past its deadline, or a
 * lower block faulted. */
static int abandon(struct gs_xctx *x)
{
	struct gs_xrun *r = x->run;
	if (x->l->cancel && *x->l->cancel)
		__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
	if (x->l->deadline > 0 && !__atomic_load_n(&r->expired, __ATOMIC_RELAXED) &&
	    gs_now() > x->l->deadline)
		__atomic_store_n(&r->expired, 1, __ATOMIC_RELAXED);
	return __atomic_load_n(&r->stop, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&r->expired, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&r->fault_block, __ATOMIC_RELAXED) < x->block;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* Everything of the current block that decides what it does next: the
 * warps' registers, predicates, reconvergence stacks and local memory,
 * shared memory, and how much it has written to global memory.  Not the
 * issued count (%clock reads it: a loop that waits on the clock moves). */
static uint64_t block_state(const struct gs_xctx *x)
{
	uint64_t h = fnv(0xcbf29ce484222325ull, x->smem, x->smem_bytes);
	uint64_t wrote = x->c.gst_inst + x->c.atom_inst;
	h = fnv(h, &wrote, sizeof wrote);
	for (unsigned i = 0; i < x->nwarps; i++) {
		const struct gs_xwarp *w = &x->w[i];
		h = fnv(h, &w->state, sizeof w->state);
		h = fnv(h, &w->sp, sizeof w->sp);
		if (w->state == GS_XW_DONE)
			continue;
		h = fnv(h, &w->live, sizeof w->live);
		h = fnv(h, &w->carry, sizeof w->carry);
		h = fnv(h, &w->barpc, sizeof w->barpc);
		h = fnv(h, &w->barmask, sizeof w->barmask);
		if (w->sp >= 0)
			h = fnv(h, w->stk, (size_t)(w->sp + 1) * sizeof(*w->stk));
		h = fnv(h, w->rf, x->m->rf_bytes);
		h = fnv(h, w->pred, x->m->npred * sizeof(*w->pred));
		h = fnv(h, w->local, GS_WARP * x->local_bytes);
		h = fnv(h, w->lparam, GS_WARP * x->lparam_bytes);
	}
	return h;
}

/* Past the deadline, a block whose warps still run goes on a little to
 * tell a kernel that never ends from one that is only long: at the end of
 * each round (every running warp has used its slice, at a loop's head)
 * its state is compared with the rounds before.  The same state again,
 * with nothing written to global memory in between, repeats for ever
 * unless another block changes what it reads.  1: stop now (a verdict, or
 * no time left for one), 0: run another round. */
#define GS_X_VERDICT_ROUNDS 64
#define GS_X_VERDICT_SLICE 256 /* short rounds, so that 64 take little time */
#define GS_X_VERDICT_S 1.0
static int verdict(struct gs_xctx *x)
{
	struct gs_xrun *r = x->run;
	if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&r->fault_block, __ATOMIC_RELAXED) < x->block ||
	    __atomic_load_n(&r->hang, __ATOMIC_RELAXED) || x->nseen >= GS_X_VERDICT_ROUNDS ||
	    gs_now() > x->l->deadline + GS_X_VERDICT_S)
		return 1;
	x->slice = GS_X_VERDICT_SLICE;
	uint64_t h = block_state(x);
	for (unsigned i = 0; i < x->nseen; i++) {
		if (x->seen[i] != h)
			continue;
		const struct gs_xwarp *w = x->w;
		while (w < x->w + x->nwarps - 1 && w->state != GS_XW_RUN)
			w++;
		uint32_t line = w->sp >= 0 && (size_t)w->stk[w->sp].pc < x->m->ncode
					? x->code[w->stk[w->sp].pc].line
					: 0;
		pthread_mutex_lock(&r->lock);
		if (!r->hang) {
			snprintf(r->hang_msg, sizeof r->hang_msg,
				 "emulator: the kernel never ends: block (%u,%u,%u) warp %u loops at "
				 "line %u, its state repeating with nothing written in between",
				 x->ctaid[0], x->ctaid[1], x->ctaid[2], w->id, line);
			__atomic_store_n(&r->hang, 1, __ATOMIC_RELAXED);
		}
		pthread_mutex_unlock(&r->lock);
		return 1;
	}
	x->seen[x->nseen++] = h;
	return 0;
}

/* Warp instructions between two reads of the clock within a block's
 * rounds: well under a millisecond of emulation. */
#define GS_X_CLOCK_INS 4096

/* Run block b.  0, 1 when abandoned, or a negative code. */
static int run_block(struct gs_xctx *x, uint64_t b)
{
	const struct gs_emu_launch *l = x->l;
	x->block = b;
	x->ctaid[0] = (unsigned)(b % l->grid[0]);
	x->ctaid[1] = (unsigned)(b / l->grid[0] % l->grid[1]);
	x->ctaid[2] = (unsigned)(b / ((uint64_t)l->grid[0] * l->grid[1]));
	memset(x->smem, 0, x->smem_bytes);
	x->nseen = 0;
	if (x->pr)
		gs_x_probe_begin(x);
	if (x->loops)
		gs_x_loops_begin(x);
	for (unsigned i = 0; i < x->nwarps; i++) {
		struct gs_xwarp *w = &x->w[i];
		memset(w->local, 0, GS_WARP * x->local_bytes);
		memset(w->lparam, 0, GS_WARP * x->lparam_bytes);
		warp_start(x, w, i);
	}
	uint64_t since = 0; /* warp instructions issued since the clock was read */
	int past = 0;       /* the deadline has passed: the clock is read after every slice */
	for (;;) {
		int running = 0, waiting = 0;
		for (unsigned i = 0; i < x->nwarps; i++) {
			struct gs_xwarp *w = &x->w[i];
			if (w->state != GS_XW_RUN)
				continue;
			uint64_t before = w->issued;
			if (x->loops)
				gs_x_loops_turn(x);
			int rc = run_warp(x, w);
			if (rc < 0)
				return rc;
			/* a round of many long slices would pass the deadline by
			 * far; the clock is read once GS_X_CLOCK_INS instructions
			 * have issued, not after each of many short slices (a
			 * warp's run to its next barrier), and past the deadline
			 * after every slice, so that the rounds the verdict
			 * compares end where they always did */
			since += w->issued - before;
			if (x->l->deadline > 0 && (past || since >= GS_X_CLOCK_INS)) {
				since = 0;
				if (gs_now() > x->l->deadline) {
					past = 1;
					break;
				}
			}
		}
		for (unsigned i = 0; i < x->nwarps; i++) {
			running += x->w[i].state == GS_XW_RUN;
			waiting += x->w[i].state == GS_XW_BAR;
		}
		if (abandon(x) && (!running || !__atomic_load_n(&x->run->expired, __ATOMIC_RELAXED) ||
				   verdict(x)))
			return 1;
		if (running)
			continue;
		if (!waiting)
			break;
		if (x->loops)
			gs_x_loops_release(x);
		bar_release(x);
	}
	x->c.blocks++;
	x->c.warps += x->nwarps;
	return 0;
}

/* A sampled block: its own counters and observations into stats[i]. */
static int run_probed(struct gs_xctx *x, uint64_t i)
{
	struct gs_emu_counters keep = x->c;
	memset(&x->c, 0, sizeof x->c);
	int rc = run_block(x, x->l->only[i]);
	if (rc == 0)
		gs_x_probe_end(x, i);
	gs_emu_counters_add(&keep, &x->c);
	x->c = keep;
	return rc;
}

static void *worker(void *arg)
{
	struct gs_xctx *x = arg;
	struct gs_xrun *r = x->run;
	for (;;) {
		uint64_t b = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
		if (b >= r->nblocks)
			break;
		x->block = x->l->only ? x->l->only[b] : b;
		if (abandon(x))
			break;
		int rc = x->l->only ? run_probed(x, b) : run_block(x, b);
		if (rc > 0)
			break;
		if (rc < 0) {
			pthread_mutex_lock(&r->lock);
			if (x->block < r->fault_block) {
				__atomic_store_n(&r->fault_block, x->block, __ATOMIC_RELAXED);
				r->rc = rc;
				memcpy(r->msg, x->msg, sizeof r->msg);
			}
			pthread_mutex_unlock(&r->lock);
			break;
		}
	}
	return NULL;
}

static void ctx_release(struct gs_xctx *x)
{
	gs_x_probe_free(x->pr);
	x->pr = NULL;
	gs_x_loops_free(x);
	if (x->w) {
		for (unsigned i = 0; i < x->nwarps; i++) {
			free(x->w[i].rf);
			free(x->w[i].pred);
			free(x->w[i].stk);
			free(x->w[i].local);
			free(x->w[i].lparam);
		}
	}
	free(x->w);
	free(x->smem);
}

static int ctx_init(struct gs_xctx *x, const struct gs_xctx *proto)
{
	*x = *proto;
	x->smem = malloc(x->smem_bytes ? x->smem_bytes : 1);
	x->w = calloc(x->nwarps, sizeof(*x->w));
	if (!x->smem || !x->w)
		return -1;
	size_t rfb = (x->m->rf_bytes + 63) & ~(size_t)63;
	for (unsigned i = 0; i < x->nwarps; i++) {
		struct gs_xwarp *w = &x->w[i];
		w->rf = aligned_alloc(64, rfb ? rfb : 64);
		w->pred = calloc(x->m->npred ? x->m->npred : 1, sizeof(*w->pred));
		w->cap = 16;
		w->stk = malloc((size_t)w->cap * sizeof(*w->stk));
		w->local = malloc(GS_WARP * x->local_bytes + 1);
		w->lparam = malloc(GS_WARP * x->lparam_bytes + 1);
		if (!w->rf || !w->pred || !w->stk || !w->local || !w->lparam)
			return -1;
	}
	return 0;
}

static int badlaunch(char *err, size_t errlen, const char *why)
{
	snprintf(err, errlen, "emulator: bad launch: %s", why);
	return GS_EMU_BADLAUNCH;
}

int gs_emu_run(const struct gs_emu_launch *l, struct gs_emu_counters *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	const struct gs_ptx_module *m = l->mod;
	if (!m || l->entry < 0 || (size_t)l->entry >= m->nfuncs || !m->funcs[l->entry].entry)
		return badlaunch(err, errlen, "no such kernel");
	const struct gs_ptx_func *f = &m->funcs[l->entry];
	uint64_t nthreads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
	uint64_t nblocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
	if (!nthreads || nthreads > 1024)
		return badlaunch(err, errlen, "a block must have 1 to 1024 threads");
	if (!nblocks)
		return badlaunch(err, errlen, "an empty grid");
	if (f->nparams && !l->args)
		return badlaunch(err, errlen, "no arguments");
	for (size_t i = 0; i < f->nparams; i++)
		if (!l->args[i])
			return badlaunch(err, errlen, "an argument is missing");

	for (size_t i = 0; l->only && i < l->nonly; i++)
		if (l->only[i] >= nblocks)
			return badlaunch(err, errlen, "a sampled block outside the grid");
	struct gs_xrun r = { .l = l, .nblocks = l->only ? l->nonly : nblocks,
			     .fault_block = UINT64_MAX };
	struct gs_xctx proto = { .l = l, .m = m, .f = f, .code = m->code, .run = &r };
	proto.nthreads = (unsigned)nthreads;
	proto.nwarps = (unsigned)((nthreads + GS_WARP - 1) / GS_WARP);
	for (int k = 0; k < 3; k++)
		proto.bdim[k] = l->block[k];
	proto.banks = l->prof ? l->prof->banks : 32;
	proto.cc10 = l->prof && l->prof->coalesce == GS_EMU_COALESCE_CC10;
	uint64_t align = f->dyn_align ? f->dyn_align : 16;
	proto.dyn_off = (f->smem_static + align - 1) / align * align;
	proto.smem_bytes = l->dyn_smem ? proto.dyn_off + l->dyn_smem : f->smem_static;
	proto.local_bytes = f->local_bytes;
	proto.lparam_bytes = m->lparam_bytes;
	proto.kparam_bytes = f->kparam_bytes;
	proto.slice = GS_X_SLICE;

	int rc = GS_EMU_OK;
	int nthr = l->threads > 1 ? l->threads : 1;
	if (f->seq)
		nthr = 1;
	if (l->host_bytes) {
		/* what ctx_init takes per host thread, roughly: the memory a
		 * kernel can make large is shared and local memory */
		uint64_t per = proto.smem_bytes +
			       (uint64_t)proto.nwarps * (GS_WARP * (proto.local_bytes + proto.lparam_bytes) +
							 m->rf_bytes + m->npred + 64);
		if (per > l->host_bytes) {
			snprintf(err, errlen, "emulator: a block's state takes %llu bytes of host memory, "
				 "more than the %llu left to the launch",
				 (unsigned long long)per, (unsigned long long)l->host_bytes);
			return GS_EMU_NOMEM;
		}
		if ((uint64_t)nthr > l->host_bytes / per)
			nthr = (int)(l->host_bytes / per);
	}
	if ((uint64_t)nthr > r.nblocks)
		nthr = (int)r.nblocks;
	if (!r.nblocks)
		return badlaunch(err, errlen, "an empty sample");
	struct gs_xctx *xs = calloc((size_t)nthr, sizeof(*xs));
	pthread_t *tid = calloc((size_t)nthr, sizeof(*tid));
	r.kparam = calloc(1, f->kparam_bytes + 8);
	r.special = calloc(m->nslots + 1, sizeof(*r.special));
	if (!xs || !tid || !r.kparam || !r.special) {
		rc = badlaunch(err, errlen, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < f->nparams; i++) {
		if (f->poff[i] + f->psize[i] > f->kparam_bytes) {
			rc = badlaunch(err, errlen, "a parameter outside the parameter buffer");
			goto done;
		}
		memcpy(r.kparam + f->poff[i], l->args[i], f->psize[i]);
	}
	proto.kparam = r.kparam;
	for (size_t i = 0; i < m->nslots; i++)
		if (!f->consts || m->slots[i].kind == GS_SLOT_SPECIAL)
			r.special[r.nspecial++] = (uint32_t)i;
	pthread_mutex_init(&r.lock, NULL);

	int started = 0;
	for (int i = 0; i < nthr; i++) {
		/* a sampled launch's contexts carry a probe each */
		if (ctx_init(&xs[i], &proto) < 0 ||
		    (l->only && !(xs[i].pr = gs_x_probe_new(&xs[i]))) ||
		    (l->only && l->loops && gs_x_loops_new(&xs[i]) < 0)) {
			ctx_release(&xs[i]);
			memset(&xs[i], 0, sizeof(xs[i]));
			if (i == 0) {
				rc = badlaunch(err, errlen, "out of memory for the blocks' state");
				goto joined;
			}
			break;
		}
		started = i + 1;
	}
	/* the calling thread is worker 0; a thread that cannot be created
	 * leaves its share to the others */
	int created = 1;
	for (int i = 1; i < started; i++, created++)
		if (pthread_create(&tid[i], NULL, worker, &xs[i]) != 0)
			break;
	worker(&xs[0]);
	for (int i = 1; i < created; i++)
		pthread_join(tid[i], NULL);
	for (int i = 0; i < started; i++)
		gs_emu_counters_add(c, &xs[i].c);
	if (r.fault_block != UINT64_MAX) {
		rc = r.rc;
		snprintf(err, errlen, "%s", r.msg);
	} else if (r.hang) {
		rc = GS_EMU_HANG;
		snprintf(err, errlen, "%s", r.hang_msg);
	} else if (r.stop) {
		rc = GS_EMU_CANCELED;
		snprintf(err, errlen, "emulator: canceled");
	} else if (r.expired) {
		rc = GS_EMU_EXPIRED;
		snprintf(err, errlen, "emulator: past its host time limit");
	}
joined:
	for (int i = 0; i < started; i++)
		ctx_release(&xs[i]);
	pthread_mutex_destroy(&r.lock);
done:
	free(r.kparam);
	free(r.special);
	free(xs);
	free(tid);
	return rc;
}
