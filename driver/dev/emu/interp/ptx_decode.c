/* ptx_decode.c — one PTX instruction (opcode text and operands) into one
 * gs_ins of ptx_int.h.
 *
 * The opcode is split at its dots into a base ("ld") and modifiers
 * ("global", "nc", "v4", "f32").  Each base's decoder names the kinds of
 * modifier it accepts; any other modifier makes the whole instruction
 * unsupported, so that nothing is executed with a qualifier ignored by
 * accident.  Modifiers that only steer caches or memory ordering (.nc,
 * .volatile, .relaxed.gpu, .L2::...) are accepted and dropped: the
 * emulator's memory is coherent and its warps run one at a time.
 *
 * Register operands get offsets relative to their function's registers;
 * immediates, symbol addresses and special registers become constant slots
 * (GS_PL_CONST | slot).  ptx.c relocates both once every function is
 * decoded, using the mask of which o[] hold such offsets. */
#include "dev/emu/interp/ptx_load.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- modifiers ------------------------------------------------------------------- */

enum mkind {
	K_TYPE, K_SPACE, K_RND, K_FTZ, K_SAT, K_APPROX, K_FULL, K_VEC, K_CMP, K_BOOL, K_ATOM,
	K_SHFL, K_VOTE, K_HINT, K_CHINT, K_LOHI, K_CC, K_UNI, K_SYNC, K_ALIGNED, K_TESTP, K_PRMT,
	K_SHFDIR, K_SHFMODE, K_SHIFTAMT, K_TO, K_RED, K_BAROP, K_WARP, K_CTA, K_NAN, K_NKINDS
};
#define B(k) (1u << (k))

enum { LH_LO, LH_HI, LH_WIDE };
/* space value of .param until the symbol says which */
#define SP_PARAM_ANY 100

static const struct {
	const char *s;
	uint8_t kind;
	uint8_t val;
} mtab[] = {
	{ "u8", K_TYPE, GS_TY_U8 }, { "u16", K_TYPE, GS_TY_U16 }, { "u32", K_TYPE, GS_TY_U32 },
	{ "u64", K_TYPE, GS_TY_U64 }, { "s8", K_TYPE, GS_TY_S8 }, { "s16", K_TYPE, GS_TY_S16 },
	{ "s32", K_TYPE, GS_TY_S32 }, { "s64", K_TYPE, GS_TY_S64 }, { "b8", K_TYPE, GS_TY_B8 },
	{ "b16", K_TYPE, GS_TY_B16 }, { "b32", K_TYPE, GS_TY_B32 }, { "b64", K_TYPE, GS_TY_B64 },
	{ "f16", K_TYPE, GS_TY_F16 }, { "bf16", K_TYPE, GS_TY_BF16 }, { "f16x2", K_TYPE, GS_TY_F16X2 },
	{ "bf16x2", K_TYPE, GS_TY_BF16X2 },
	{ "f32", K_TYPE, GS_TY_F32 }, { "f64", K_TYPE, GS_TY_F64 }, { "pred", K_TYPE, GS_TY_PRED },
	{ "global", K_SPACE, GS_SP_GLOBAL }, { "shared", K_SPACE, GS_SP_SHARED },
	{ "shared::cta", K_SPACE, GS_SP_SHARED }, { "local", K_SPACE, GS_SP_LOCAL },
	{ "const", K_SPACE, GS_SP_CONST }, { "param", K_SPACE, SP_PARAM_ANY },
	{ "param::entry", K_SPACE, GS_SP_KPARAM }, { "param::func", K_SPACE, GS_SP_PARAM },
	{ "rn", K_RND, GS_RND_RN }, { "rz", K_RND, GS_RND_RZ }, { "rm", K_RND, GS_RND_RM },
	{ "rp", K_RND, GS_RND_RP }, { "rni", K_RND, GS_RND_RNI }, { "rzi", K_RND, GS_RND_RZI },
	{ "rmi", K_RND, GS_RND_RMI }, { "rpi", K_RND, GS_RND_RPI },
	{ "ftz", K_FTZ, 1 }, { "sat", K_SAT, 1 }, { "approx", K_APPROX, 1 }, { "full", K_FULL, 1 },
	{ "v2", K_VEC, 2 }, { "v4", K_VEC, 4 },
	{ "eq", K_CMP, GS_CMP_EQ }, { "ne", K_CMP, GS_CMP_NE }, { "lt", K_CMP, GS_CMP_LT },
	{ "le", K_CMP, GS_CMP_LE }, { "gt", K_CMP, GS_CMP_GT }, { "ge", K_CMP, GS_CMP_GE },
	{ "lo", K_CMP, GS_CMP_LO }, { "ls", K_CMP, GS_CMP_LS }, { "hi", K_CMP, GS_CMP_HI },
	{ "hs", K_CMP, GS_CMP_HS }, { "equ", K_CMP, GS_CMP_EQU }, { "neu", K_CMP, GS_CMP_NEU },
	{ "ltu", K_CMP, GS_CMP_LTU }, { "leu", K_CMP, GS_CMP_LEU }, { "gtu", K_CMP, GS_CMP_GTU },
	{ "geu", K_CMP, GS_CMP_GEU }, { "num", K_CMP, GS_CMP_NUM }, { "nan", K_CMP, GS_CMP_NAN },
	{ "lo", K_LOHI, LH_LO }, { "hi", K_LOHI, LH_HI }, { "wide", K_LOHI, LH_WIDE },
	{ "and", K_BOOL, 0 }, { "or", K_BOOL, 1 }, { "xor", K_BOOL, 2 },
	{ "add", K_ATOM, GS_AT_ADD }, { "min", K_ATOM, GS_AT_MIN }, { "max", K_ATOM, GS_AT_MAX },
	{ "inc", K_ATOM, GS_AT_INC }, { "dec", K_ATOM, GS_AT_DEC }, { "and", K_ATOM, GS_AT_AND },
	{ "or", K_ATOM, GS_AT_OR }, { "xor", K_ATOM, GS_AT_XOR }, { "exch", K_ATOM, GS_AT_EXCH },
	{ "cas", K_ATOM, GS_AT_CAS },
	{ "up", K_SHFL, GS_SHFL_UP }, { "down", K_SHFL, GS_SHFL_DOWN },
	{ "bfly", K_SHFL, GS_SHFL_BFLY }, { "idx", K_SHFL, GS_SHFL_IDX },
	{ "all", K_VOTE, GS_VOTE_ALL }, { "any", K_VOTE, GS_VOTE_ANY },
	{ "uni", K_VOTE, GS_VOTE_UNI }, { "ballot", K_VOTE, GS_VOTE_BALLOT },
	{ "uni", K_UNI, 1 }, { "cc", K_CC, 1 }, { "sync", K_SYNC, 1 }, { "aligned", K_ALIGNED, 1 },
	{ "finite", K_TESTP, 0 }, { "infinite", K_TESTP, 1 }, { "number", K_TESTP, 2 },
	{ "notanumber", K_TESTP, 3 }, { "normal", K_TESTP, 4 }, { "subnormal", K_TESTP, 5 },
	{ "f4e", K_PRMT, 1 }, { "b4e", K_PRMT, 2 }, { "rc8", K_PRMT, 3 }, { "ecl", K_PRMT, 4 },
	{ "ecr", K_PRMT, 5 }, { "rc16", K_PRMT, 6 },
	{ "l", K_SHFDIR, 0 }, { "r", K_SHFDIR, 1 }, { "wrap", K_SHFMODE, 0 },
	{ "clamp", K_SHFMODE, 1 }, { "shiftamt", K_SHIFTAMT, 1 }, { "to", K_TO, 1 },
	{ "red", K_RED, 1 }, { "popc", K_BAROP, 1 }, { "and", K_BAROP, 2 }, { "or", K_BAROP, 3 },
	{ "warp", K_WARP, 1 }, { "cta", K_CTA, 1 }, { "NaN", K_NAN, 1 },
	/* cache, eviction and memory-ordering qualifiers: no effect here */
	{ "ca", K_HINT, 0 }, { "cg", K_HINT, 0 }, { "cs", K_HINT, 0 }, { "lu", K_HINT, 0 },
	{ "cv", K_HINT, 0 }, { "wb", K_HINT, 0 }, { "wt", K_HINT, 0 }, { "nc", K_HINT, 0 },
	{ "volatile", K_HINT, 0 }, { "weak", K_HINT, 0 }, { "relaxed", K_HINT, 0 },
	{ "acquire", K_HINT, 0 }, { "release", K_HINT, 0 }, { "acq_rel", K_HINT, 0 },
	{ "cta", K_HINT, 0 }, { "gpu", K_HINT, 0 }, { "sys", K_HINT, 0 },
	{ "cluster", K_HINT, 0 },
	{ "L1::evict_normal", K_HINT, 0 }, { "L1::evict_unchanged", K_HINT, 0 },
	{ "L1::evict_first", K_HINT, 0 }, { "L1::evict_last", K_HINT, 0 },
	{ "L1::no_allocate", K_HINT, 0 }, { "L2::evict_normal", K_HINT, 0 },
	{ "L2::evict_first", K_HINT, 0 }, { "L2::evict_last", K_HINT, 0 },
	{ "L2::64B", K_HINT, 0 }, { "L2::128B", K_HINT, 0 }, { "L2::256B", K_HINT, 0 },
	{ "L2::cache_hint", K_CHINT, 1 },
};

struct mods {
	int ty[3], nty;
	unsigned has; /* B(kind) of every kind seen */
	int space, rnd, vec, cmp, boolop, atom, shfl, vote, lohi, testp, prmt, shfdir, shfmode;
	int barop;
};

struct dc {
	struct gs_ptxl *L;
	int f;
	struct gs_ptxl_fn *F;
	const struct gs_ptxl_stmt *s;
	struct gs_ins *in;
	uint8_t *mask;
	const char *base;
	struct mods m;
	struct gs_ptxl_map *labels;
};

static GS_NORETURN void unsupported(struct dc *d)
{
	gs_ptxl_fail(d->L, "unsupported instruction '%s' at line %u", d->s->text, d->s->line);
}

static GS_NORETURN void bad(struct dc *d, const char *why)
{
	gs_ptxl_fail(d->L, "cannot parse '%s' at line %u: %s", d->s->text, d->s->line, why);
}

/* The modifiers of d's opcode into d->m, accepting the kinds in `allowed`
 * (K_HINT is always accepted). */
static void mods(struct dc *d, unsigned allowed)
{
	const char *p = strchr(d->s->text, '.');
	struct mods *m = &d->m;

	allowed |= B(K_HINT);
	while (p) {
		const char *q = strchr(p + 1, '.');
		size_t n = q ? (size_t)(q - p - 1) : strlen(p + 1);
		size_t i;

		for (i = 0; i < GS_ARRAY_SIZE(mtab); i++)
			if ((allowed & B(mtab[i].kind)) && strlen(mtab[i].s) == n &&
			    memcmp(mtab[i].s, p + 1, n) == 0)
				break;
		if (i == GS_ARRAY_SIZE(mtab))
			unsupported(d);
		int k = mtab[i].kind, v = mtab[i].val;

		if (k == K_TYPE) {
			if (m->nty == 3)
				unsupported(d);
			m->ty[m->nty++] = v;
		} else if (k != K_HINT && (m->has & B(k))) {
			unsupported(d); /* the same kind twice: .rn.rz, .v2.v4 */
		}
		m->has |= B(k);
		switch (k) {
		case K_SPACE: m->space = v; break;
		case K_RND: m->rnd = v; break;
		case K_VEC: m->vec = v; break;
		case K_CMP: m->cmp = v; break;
		case K_BOOL: m->boolop = v; break;
		case K_ATOM: m->atom = v; break;
		case K_SHFL: m->shfl = v; break;
		case K_VOTE: m->vote = v; break;
		case K_LOHI: m->lohi = v; break;
		case K_TESTP: m->testp = v; break;
		case K_PRMT: m->prmt = v; break;
		case K_SHFDIR: m->shfdir = v; break;
		case K_SHFMODE: m->shfmode = v; break;
		case K_BAROP: m->barop = v; break;
		default: break;
		}
		p = q;
	}
}

static int has(const struct dc *d, int k)
{
	return (d->m.has & B(k)) != 0;
}

/* exactly one type modifier, one of the allowed (NULL-free list ended by -1) */
static int one_type(struct dc *d, const int *ok)
{
	if (d->m.nty != 1)
		unsupported(d);
	for (; *ok >= 0; ok++)
		if (*ok == d->m.ty[0])
			return *ok;
	unsupported(d);
}

static int tysigned(int ty)
{
	return ty == GS_TY_S8 || ty == GS_TY_S16 || ty == GS_TY_S32 || ty == GS_TY_S64;
}

static int tyfloat(int ty)
{
	return ty == GS_TY_F16 || ty == GS_TY_BF16 || ty == GS_TY_F32 || ty == GS_TY_F64 ||
	       ty == GS_TY_F16X2 || ty == GS_TY_BF16X2;
}

/* f16 or bf16, one or two halves: FOP16 */
static int tyhalf(int ty)
{
	return ty == GS_TY_F16 || ty == GS_TY_BF16 || ty == GS_TY_F16X2 || ty == GS_TY_BF16X2;
}

static int slotw(int w)
{
	return w == 8 ? 8 : 4;
}

/* ---- operands ------------------------------------------------------------------------ */

static const struct gs_ptxl_opnd *opnd(struct dc *d, int i)
{
	if (i >= d->s->nop)
		bad(d, "too few operands");
	return &d->s->op[i];
}

static void nops(struct dc *d, int lo, int hi)
{
	if (d->s->nop < lo)
		bad(d, "too few operands");
	if (d->s->nop > hi)
		bad(d, "too many operands");
}

static void set_rf(struct dc *d, int i, uint32_t v)
{
	d->in->o[i] = v;
	*d->mask |= (uint8_t)(1u << i);
}

/* a constant slot (deduplicated), as a provisional offset */
static uint32_t slot(struct dc *d, int kind, int wide, uint64_t val, int64_t add)
{
	struct gs_ptxl *L = d->L;
	struct gs_ptx_module *m = L->m;
	char key[80];
	int i;

	snprintf(key, sizeof key, "%d:%d:%llx:%lld", kind, wide, (unsigned long long)val,
		 (long long)add);
	i = gs_ptxl_map_get(&L->slotmap, key);
	if (i < 0) {
		gs_grow(&m->slots, &L->capslots, m->nslots + 1, sizeof(*m->slots));
		i = (int)m->nslots++;
		memset(&m->slots[i], 0, sizeof(m->slots[i]));
		m->slots[i].wide = (uint8_t)wide;
		m->slots[i].kind = (uint8_t)kind;
		m->slots[i].val = val;
		m->slots[i].add = add;
		gs_ptxl_map_put(&L->slotmap, gs_ptxl_strdup(L, key, strlen(key)), i);
	}
	return GS_PL_CONST | (uint32_t)i;
}

static struct gs_ptxl_reg *regof(struct dc *d, const struct gs_ptxl_opnd *o)
{
	return &d->F->reg[o->reg];
}

/* the provisional offset of register o, allocated on first use */
static uint32_t reg_alloc(struct dc *d, const struct gs_ptxl_opnd *o)
{
	struct gs_ptxl_reg *r = regof(d, o);

	if (r->off < 0) {
		r->off = (int32_t)d->F->rf_used;
		d->F->rf_used += (uint32_t)(GS_WARP * slotw(r->width));
		if (d->F->rf_used >= GS_PL_CONST / 2)
			gs_ptxl_fail(d->L, "too many registers in '%s' at line %u",
				     d->L->m->funcs[d->f].name, d->s->line);
	}
	return (uint32_t)r->off;
}

/* the register of operand o, which must be a plain register (no '!', no '|');
 * its width is the caller's to check */
static struct gs_ptxl_reg *value_reg(struct dc *d, const struct gs_ptxl_opnd *o)
{
	if (o->kind != GS_PO_REG)
		bad(d, "a register is expected");
	if (o->neg || o->reg2 >= 0)
		bad(d, "'!' or '|' is not allowed here");
	return regof(d, o);
}

/* a value register for an instruction type of w bytes */
static uint32_t reg_w(struct dc *d, const struct gs_ptxl_opnd *o, int w)
{
	char why[128];
	struct gs_ptxl_reg *r = value_reg(d, o);

	if (r->width == 0) {
		snprintf(why, sizeof why, "predicate '%s' where a value is expected", o->name);
		bad(d, why);
	}
	if (slotw(r->width) != slotw(w)) {
		snprintf(why, sizeof why,
			 "'%s' is a %d-bit register, the instruction needs %d bits", o->name,
			 8 * r->width, 8 * w);
		bad(d, why);
	}
	return reg_alloc(d, o);
}

/* o[i] = destination register of type ty */
static void dst(struct dc *d, int i, const struct gs_ptxl_opnd *o, int ty)
{
	set_rf(d, i, reg_w(d, o, gs_ptxl_tysize(ty)));
}

/* the bits of an immediate operand as a value of type ty */
static uint64_t imm_bits(struct dc *d, const struct gs_ptxl_opnd *o, int ty)
{
	int w = gs_ptxl_tysize(ty);
	uint64_t wmask = w == 8 ? UINT64_MAX : (1ull << (8 * w)) - 1;

	if (ty == GS_TY_F16 || ty == GS_TY_BF16)
		unsupported(d);
	if (o->kind == GS_PO_INT) {
		if (ty == GS_TY_F32) {
			float f = (float)(int64_t)o->u;
			uint32_t b;

			memcpy(&b, &f, 4);
			return b;
		}
		if (ty == GS_TY_F64) {
			double f = (double)(int64_t)o->u;
			uint64_t b;

			memcpy(&b, &f, 8);
			return b;
		}
		return o->u & wmask;
	}
	/* GS_PO_FLT */
	if (ty == GS_TY_F32 || (ty == GS_TY_B32 && o->fw == 4)) {
		float f;
		uint32_t b;

		if (o->fw == 4)
			return o->u & 0xffffffffu;
		if (o->fw == 8) {
			double x;

			memcpy(&x, &o->u, 8);
			f = (float)x;
		} else {
			f = (float)o->d;
		}
		memcpy(&b, &f, 4);
		return b;
	}
	if (ty == GS_TY_F64 || (ty == GS_TY_B64 && o->fw == 8)) {
		double x;
		uint64_t b;

		if (o->fw == 8)
			return o->u;
		if (o->fw == 4) {
			float f;
			uint32_t fb = (uint32_t)o->u;

			memcpy(&f, &fb, 4);
			x = f;
		} else {
			x = o->d;
		}
		memcpy(&b, &x, 8);
		return b;
	}
	bad(d, "a floating-point constant for an integer operand");
}

/* the variable a call-sequence .param (statement ci) stands for */
static int cparam_var(struct dc *d, int32_t ci)
{
	const struct gs_ptxl_stmt *c = &d->F->st[ci], *call;
	char why[160];
	int g;

	if (c->call < 0) {
		snprintf(why, sizeof why, "call-sequence parameter '%s' is passed to no call",
			 c->text);
		bad(d, why);
	}
	call = &d->F->st[c->call];
	g = -1;
	for (int i = 0; i < call->nop; i++)
		if (call->op[i].kind == GS_PO_SYM) {
			g = gs_ptxl_map_get(&d->L->fnmap, call->op[i].name);
			break;
		}
	if (g < 0)
		gs_ptxl_fail(d->L, "call of an unknown function at line %u", call->line);
	const struct gs_ptx_func *fn = &d->L->m->funcs[g];
	int v;

	if (c->arg < 0) {
		if (!fn->nret)
			gs_ptxl_fail(d->L, "call at line %u takes a return value from '%s', which "
				     "returns none", call->line, fn->name);
		v = d->L->fn[g].rvar;
	} else {
		if ((size_t)c->arg >= fn->nparams)
			gs_ptxl_fail(d->L, "call at line %u passes %d or more arguments to '%s', "
				     "which takes %zu", call->line, c->arg + 1, fn->name,
				     fn->nparams);
		v = fn->pvar[c->arg];
	}
	if (d->L->m->vars[v].size != c->size) {
		snprintf(why, sizeof why, "'%s' has %llu bytes, the parameter of '%s' %llu",
			 c->text, (unsigned long long)c->size, fn->name,
			 (unsigned long long)d->L->m->vars[v].size);
		bad(d, why);
	}
	return v;
}

/* the variable a symbol operand names (remembered as referenced by f) */
static int sym_var(struct dc *d, const struct gs_ptxl_opnd *o)
{
	struct gs_ptxl_fn *F = d->F;
	int v;

	if (o->reg >= 0) {
		v = cparam_var(d, o->reg);
	} else {
		v = gs_ptxl_lookup_var(d->L, d->f, o->name);
		if (v < 0) {
			if (gs_ptxl_map_get(&d->L->fnmap, o->name) >= 0)
				gs_ptxl_fail(d->L, "function addresses ('%s' at line %u) are not "
					     "supported", o->name, d->s->line);
			gs_ptxl_fail(d->L, "unknown symbol '%s' at line %u", o->name, d->s->line);
		}
	}
	size_t i;

	for (i = 0; i < F->nrefs && F->refs[i] != v; i++)
		;
	if (i == F->nrefs) {
		gs_grow(&F->refs, &F->caprefs, F->nrefs + 1, sizeof(*F->refs));
		F->refs[F->nrefs++] = v;
	}
	return v;
}

/* o[i] = a source value of type ty: register, immediate, symbol address or
 * special register */
static void src(struct dc *d, int i, const struct gs_ptxl_opnd *o, int ty)
{
	int w = gs_ptxl_tysize(ty);

	switch (o->kind) {
	case GS_PO_REG:
		set_rf(d, i, reg_w(d, o, w));
		return;
	case GS_PO_INT:
	case GS_PO_FLT:
		set_rf(d, i, slot(d, GS_SLOT_IMM, w == 8, imm_bits(d, o, ty), 0));
		return;
	case GS_PO_SYM:
		if (tyfloat(ty) || w < 4)
			bad(d, "an address where a number is expected");
		set_rf(d, i, slot(d, GS_SLOT_SYM, w == 8, (uint64_t)sym_var(d, o), o->off));
		return;
	case GS_PO_SREG:
		if (o->reg >= GS_PL_SR_CLOCK)
			bad(d, "clock registers can only be read by mov");
		if ((o->reg == GS_SR_GRIDID) != (w == 8))
			bad(d, "special register of another width");
		set_rf(d, i, slot(d, GS_SLOT_SPECIAL, w == 8, (uint64_t)o->reg, 0));
		return;
	default:
		bad(d, "a value is expected");
	}
}

/* a predicate index: %p (GS_PRED_FALSE / TRUE for 0 and 1); `!%p` where
 * the instruction negates it itself (neg_ok) */
static uint32_t pred_x(struct dc *d, const struct gs_ptxl_opnd *o, int neg_ok)
{
	if ((o->neg && !neg_ok) || o->reg2 >= 0)
		bad(d, "'!' or '|' is not allowed here");
	if (o->kind == GS_PO_INT) /* NVRTC writes true as -1 */
		return o->u ? GS_PRED_TRUE : GS_PRED_FALSE;
	if (o->kind != GS_PO_REG || regof(d, o)->width != 0)
		bad(d, "a predicate is expected");
	struct gs_ptxl_reg *r = regof(d, o);

	if (r->off < 0)
		r->off = (int32_t)d->L->m->npred++;
	return (uint32_t)r->off;
}

static uint32_t pred(struct dc *d, const struct gs_ptxl_opnd *o)
{
	return pred_x(d, o, 0);
}

static uint32_t pred_id(struct dc *d, int32_t id)
{
	struct gs_ptxl_opnd o;

	memset(&o, 0, sizeof(o));
	o.kind = GS_PO_REG;
	o.reg = id;
	o.reg2 = -1;
	o.name = d->F->rdecl[d->F->reg[id].decl].name;
	return pred(d, &o);
}


/* ---- the decoders, by base opcode --------------------------------------------------- */

#define T_END (-1)
static const int T_INT[] = { GS_TY_U16, GS_TY_U32, GS_TY_U64, GS_TY_S16, GS_TY_S32, GS_TY_S64,
			     T_END };
static const int T_INTF[] = { GS_TY_U16, GS_TY_U32, GS_TY_U64, GS_TY_S16, GS_TY_S32, GS_TY_S64,
			      GS_TY_F32, GS_TY_F64, GS_TY_F16, GS_TY_BF16, GS_TY_F16X2,
			      GS_TY_BF16X2, T_END };
static const int T_SINTF[] = { GS_TY_S16, GS_TY_S32, GS_TY_S64, GS_TY_F32, GS_TY_F64,
			       GS_TY_F16, GS_TY_BF16, GS_TY_F16X2, GS_TY_BF16X2, T_END };
static const int T_BITS[] = { GS_TY_B16, GS_TY_B32, GS_TY_B64, T_END };
static const int T_BITSP[] = { GS_TY_PRED, GS_TY_B16, GS_TY_B32, GS_TY_B64, T_END };
static const int T_ANY[] = { GS_TY_B16, GS_TY_B32, GS_TY_B64, GS_TY_U16, GS_TY_U32, GS_TY_U64,
			     GS_TY_S16, GS_TY_S32, GS_TY_S64, GS_TY_F32, GS_TY_F64, T_END };
static const int T_F[] = { GS_TY_F32, GS_TY_F64, GS_TY_F16, GS_TY_BF16, GS_TY_F16X2,
			   GS_TY_BF16X2, T_END };
static const int T_B3264[] = { GS_TY_B32, GS_TY_B64, T_END };
static const int T_US3264[] = { GS_TY_U32, GS_TY_S32, GS_TY_U64, GS_TY_S64, T_END };
static const int T_US32[] = { GS_TY_U32, GS_TY_S32, T_END };

static void op(struct dc *d, int opc, int cls)
{
	d->in->op = (uint16_t)opc;
	d->in->cls = (uint8_t)cls;
}

/* the opcode of a 16-, 32- or 64-bit operation (-1: none of that width) */
static int by_w(struct dc *d, int w, int op16, int op32, int op64)
{
	int o = w == 2 ? op16 : w == 4 ? op32 : op64;

	if (o < 0)
		unsupported(d);
	return o;
}

static int wider(int ty)
{
	switch (ty) {
	case GS_TY_U16: return GS_TY_U32;
	case GS_TY_S16: return GS_TY_S32;
	case GS_TY_U32: return GS_TY_U64;
	default: return GS_TY_S64;
	}
}

/* d, a, b[, c] of one type */
static void operands(struct dc *d, int n, int ty)
{
	nops(d, n, n);
	dst(d, 0, opnd(d, 0), ty);
	for (int i = 1; i < n; i++)
		src(d, i, opnd(d, i), ty);
}

/* f32/f64 arithmetic with n operands: the fast opcodes for round-to-nearest
 * without .sat, FOP32/FOP64 for the rest */
static void farith(struct dc *d, int n, int fop, int op32, int op32z, int op64)
{
	int ty = d->m.ty[0], rnd = d->m.rnd;

	if (rnd >= GS_RND_RNI || has(d, K_APPROX) || has(d, K_FULL))
		unsupported(d);
	if (tyhalf(ty)) {
		/* on the FMA pipe, as the GPU's HADD2/HMUL2/HFMA2 */
		op(d, GS_OP_FOP16, GS_EMU_FP32);
		d->in->sub = (uint8_t)fop;
		d->in->sub2 = (uint8_t)(rnd ? rnd : GS_RND_RN);
		d->in->f = (uint8_t)(has(d, K_FTZ) | has(d, K_SAT) << 1);
		d->in->sz = (uint8_t)ty;
	} else if (ty == GS_TY_F32) {
		if (!has(d, K_SAT) && rnd <= GS_RND_RN) {
			op(d, has(d, K_FTZ) ? op32z : op32, GS_EMU_FP32);
		} else {
			op(d, GS_OP_FOP32, GS_EMU_FP32);
			d->in->sub = (uint8_t)fop;
			d->in->sub2 = (uint8_t)(rnd ? rnd : GS_RND_RN);
			d->in->f = (uint8_t)(has(d, K_FTZ) | has(d, K_SAT) << 1);
		}
	} else {
		if (has(d, K_SAT) || has(d, K_FTZ))
			unsupported(d);
		if (rnd <= GS_RND_RN) {
			op(d, op64, GS_EMU_FP64);
		} else {
			op(d, GS_OP_FOP64, GS_EMU_FP64);
			d->in->sub = (uint8_t)fop;
			d->in->sub2 = (uint8_t)rnd;
		}
	}
	operands(d, n, ty);
}

/* a float operation that always goes through FOP32/FOP64 */
static void fop(struct dc *d, int n, int fop, int rnd, int cls32, int cls64)
{
	int ty = d->m.ty[0];

	if (ty == GS_TY_F64 && (has(d, K_SAT) || (has(d, K_FTZ) && !has(d, K_APPROX))))
		unsupported(d);
	if (tyhalf(ty)) {
		op(d, GS_OP_FOP16, cls32);
		d->in->sz = (uint8_t)ty;
	} else {
		op(d, ty == GS_TY_F32 ? GS_OP_FOP32 : GS_OP_FOP64, ty == GS_TY_F32 ? cls32 : cls64);
	}
	d->in->sub = (uint8_t)fop;
	d->in->sub2 = (uint8_t)rnd;
	d->in->f = (uint8_t)(has(d, K_FTZ) | has(d, K_SAT) << 1);
	operands(d, n, ty);
}

static void dec_mov(struct dc *d)
{
	static const int ok[] = { GS_TY_PRED, GS_TY_B16, GS_TY_B32, GS_TY_B64, GS_TY_U16,
				  GS_TY_U32, GS_TY_U64, GS_TY_S16, GS_TY_S32, GS_TY_S64,
				  GS_TY_F32, GS_TY_F64, T_END };
	mods(d, B(K_TYPE));
	int ty = one_type(d, ok), w = gs_ptxl_tysize(ty);
	const struct gs_ptxl_opnd *a, *b;

	nops(d, 2, 2);
	a = opnd(d, 0);
	b = opnd(d, 1);
	if (ty == GS_TY_PRED) {
		op(d, GS_OP_MOVP, GS_EMU_INT);
		d->in->o[0] = pred(d, a);
		d->in->o[1] = pred(d, b);
		return;
	}
	if (a->kind == GS_PO_VEC || b->kind == GS_PO_VEC) {
		const struct gs_ptxl_opnd *v = a->kind == GS_PO_VEC ? a : b;
		int half = w == 8 ? GS_TY_U32 : GS_TY_U16;

		if (v->nel != 2 || w < 4 || (a->kind == GS_PO_VEC && b->kind == GS_PO_VEC))
			unsupported(d);
		if (v == a) { /* {lo, hi} = b */
			op(d, w == 8 ? GS_OP_UNPACK64 : GS_OP_UNPACK32, GS_EMU_INT);
			for (int k = 0; k < 2; k++) {
				if (a->el[k].kind == GS_PO_SINK)
					d->in->o[k] = GS_NONE;
				else
					dst(d, k, &a->el[k], half);
			}
			src(d, 2, b, ty);
		} else { /* a = {lo, hi} */
			op(d, w == 8 ? GS_OP_PACK64 : GS_OP_PACK32, GS_EMU_INT);
			dst(d, 0, a, ty);
			src(d, 1, &b->el[0], half);
			src(d, 2, &b->el[1], half);
		}
		return;
	}
	if (b->kind == GS_PO_SREG && b->reg >= GS_PL_SR_CLOCK) {
		int o = b->reg == GS_PL_SR_CLOCK ? GS_OP_CLOCK32 :
			b->reg == GS_PL_SR_CLOCK64 ? GS_OP_CLOCK64 : GS_OP_GTIMER;

		if ((o == GS_OP_CLOCK32) != (w == 4))
			bad(d, "clock register of another width");
		op(d, o, GS_EMU_OTHER);
		dst(d, 0, a, ty);
		return;
	}
	op(d, w == 8 ? GS_OP_MOV64 : GS_OP_MOV32, GS_EMU_INT);
	operands(d, 2, ty);
}

/* add, sub, addc, subc */
static void dec_addsub(struct dc *d)
{
	int isub = d->base[0] == 's', carry_in = d->base[3] == 'c';
	int ty, w;

	mods(d, B(K_TYPE) | B(K_CC) | B(K_SAT) | B(K_RND) | B(K_FTZ));
	ty = one_type(d, T_INTF);
	w = gs_ptxl_tysize(ty);
	if (tyfloat(ty)) {
		if (carry_in || has(d, K_CC))
			unsupported(d);
		if (isub)
			farith(d, 3, GS_FOP_SUB, GS_OP_SUBF32, GS_OP_SUBF32Z, GS_OP_SUBF64);
		else
			farith(d, 3, GS_FOP_ADD, GS_OP_ADDF32, GS_OP_ADDF32Z, GS_OP_ADDF64);
		return;
	}
	if (has(d, K_SAT) || has(d, K_RND) || has(d, K_FTZ))
		unsupported(d);
	if (carry_in || has(d, K_CC)) {
		if (w == 2)
			unsupported(d);
		op(d, GS_OP_ADDCC, GS_EMU_INT);
		d->in->sub = (uint8_t)isub;
		d->in->f = (uint8_t)(carry_in | has(d, K_CC) << 1);
		d->in->sz = (uint8_t)w;
	} else if (isub) {
		op(d, by_w(d, w, GS_OP_SUB16, GS_OP_SUB32, GS_OP_SUB64), GS_EMU_INT);
	} else {
		op(d, by_w(d, w, GS_OP_ADD16, GS_OP_ADD32, GS_OP_ADD64), GS_EMU_INT);
	}
	operands(d, 3, ty);
}

static void dec_mul(struct dc *d)
{
	int ty, w, s;

	mods(d, B(K_TYPE) | B(K_LOHI) | B(K_RND) | B(K_FTZ) | B(K_SAT));
	ty = one_type(d, T_INTF);
	w = gs_ptxl_tysize(ty);
	s = tysigned(ty);
	if (tyfloat(ty)) {
		if (has(d, K_LOHI))
			unsupported(d);
		farith(d, 3, GS_FOP_MUL, GS_OP_MULF32, GS_OP_MULF32Z, GS_OP_MULF64);
		return;
	}
	if (has(d, K_RND) || has(d, K_FTZ) || has(d, K_SAT) || !has(d, K_LOHI))
		unsupported(d);
	switch (d->m.lohi) {
	case LH_LO:
		op(d, by_w(d, w, GS_OP_MUL16, GS_OP_MUL32, GS_OP_MUL64), GS_EMU_INT);
		break;
	case LH_HI:
		op(d, s ? by_w(d, w, GS_OP_MULHIS16, GS_OP_MULHIS32, GS_OP_MULHIS64) :
			  by_w(d, w, GS_OP_MULHIU16, GS_OP_MULHIU32, GS_OP_MULHIU64), GS_EMU_INT);
		break;
	default:
		op(d, s ? by_w(d, w, GS_OP_MULWS16, GS_OP_MULWS32, -1) :
			  by_w(d, w, GS_OP_MULWU16, GS_OP_MULWU32, -1), GS_EMU_INT);
		nops(d, 3, 3);
		dst(d, 0, opnd(d, 0), wider(ty));
		src(d, 1, opnd(d, 1), ty);
		src(d, 2, opnd(d, 2), ty);
		return;
	}
	operands(d, 3, ty);
}

static void dec_fma(struct dc *d)
{
	mods(d, B(K_TYPE) | B(K_RND) | B(K_FTZ) | B(K_SAT));
	one_type(d, T_F);
	if (!has(d, K_RND) && strcmp(d->base, "fma") == 0)
		unsupported(d);
	farith(d, 4, GS_FOP_FMA, GS_OP_FMAF32, GS_OP_FMAF32Z, GS_OP_FMAF64);
}

/* mad, madc */
static void dec_mad(struct dc *d)
{
	int carry_in = d->base[3] == 'c';
	int ty, w, s;

	mods(d, B(K_TYPE) | B(K_LOHI) | B(K_CC) | B(K_RND) | B(K_FTZ) | B(K_SAT));
	ty = one_type(d, T_INTF);
	w = gs_ptxl_tysize(ty);
	s = tysigned(ty);
	if (tyfloat(ty)) { /* mad.rn.f32 is fma.rn.f32 */
		if (has(d, K_LOHI) || has(d, K_CC) || carry_in)
			unsupported(d);
		farith(d, 4, GS_FOP_FMA, GS_OP_FMAF32, GS_OP_FMAF32Z, GS_OP_FMAF64);
		return;
	}
	if (has(d, K_RND) || has(d, K_FTZ) || has(d, K_SAT) || !has(d, K_LOHI))
		unsupported(d);
	if (carry_in || has(d, K_CC)) {
		if (w == 2 || d->m.lohi == LH_WIDE)
			unsupported(d);
		op(d, GS_OP_MADCC, GS_EMU_INT);
		d->in->sub = (uint8_t)(d->m.lohi == LH_HI);
		d->in->sub2 = (uint8_t)ty;
		d->in->f = (uint8_t)(carry_in | has(d, K_CC) << 1);
		d->in->sz = (uint8_t)w;
		operands(d, 4, ty);
		return;
	}
	switch (d->m.lohi) {
	case LH_LO:
		op(d, by_w(d, w, GS_OP_MAD16, GS_OP_MAD32, GS_OP_MAD64), GS_EMU_INT);
		break;
	case LH_HI:
		op(d, s ? by_w(d, w, -1, GS_OP_MADHIS32, GS_OP_MADHIS64) :
			  by_w(d, w, -1, GS_OP_MADHIU32, GS_OP_MADHIU64), GS_EMU_INT);
		break;
	default:
		op(d, by_w(d, w, -1, s ? GS_OP_MADWS32 : GS_OP_MADWU32, -1), GS_EMU_INT);
		nops(d, 4, 4);
		dst(d, 0, opnd(d, 0), wider(ty));
		src(d, 1, opnd(d, 1), ty);
		src(d, 2, opnd(d, 2), ty);
		src(d, 3, opnd(d, 3), wider(ty));
		return;
	}
	operands(d, 4, ty);
}

/* mul24, mad24 */
static void dec_24(struct dc *d)
{
	int mad = d->base[1] == 'a';
	int ty, s;

	mods(d, B(K_TYPE) | B(K_LOHI));
	ty = one_type(d, T_US32);
	s = tysigned(ty);
	if (!has(d, K_LOHI) || d->m.lohi == LH_WIDE || (mad && d->m.lohi == LH_HI))
		unsupported(d);
	if (mad)
		op(d, s ? GS_OP_MAD24LOS : GS_OP_MAD24LOU, GS_EMU_INT);
	else if (d->m.lohi == LH_LO)
		op(d, s ? GS_OP_MUL24LOS : GS_OP_MUL24LOU, GS_EMU_INT);
	else
		op(d, s ? GS_OP_MUL24HIS : GS_OP_MUL24HIU, GS_EMU_INT);
	operands(d, mad ? 4 : 3, ty);
}

static void dec_div(struct dc *d)
{
	int ty, w, s;

	mods(d, B(K_TYPE) | B(K_RND) | B(K_FTZ) | B(K_APPROX) | B(K_FULL));
	ty = one_type(d, T_INTF);
	w = gs_ptxl_tysize(ty);
	s = tysigned(ty);
	if (ty == GS_TY_F32) {
		int n = has(d, K_APPROX) + has(d, K_FULL) + has(d, K_RND);

		if (n != 1 || d->m.rnd >= GS_RND_RNI)
			unsupported(d);
		fop(d, 3, has(d, K_APPROX) ? GS_FOP_DIV_APPROX : has(d, K_FULL) ? GS_FOP_DIV_FULL :
			  GS_FOP_DIV, d->m.rnd, GS_EMU_SFU, GS_EMU_FP64);
		return;
	}
	if (ty == GS_TY_F64) {
		if (!has(d, K_RND) || d->m.rnd >= GS_RND_RNI || has(d, K_APPROX) || has(d, K_FULL))
			unsupported(d);
		fop(d, 3, GS_FOP_DIV, d->m.rnd, GS_EMU_SFU, GS_EMU_FP64);
		return;
	}
	if (d->m.has & ~(B(K_TYPE) | B(K_HINT)))
		unsupported(d);
	op(d, s ? by_w(d, w, GS_OP_DIVS16, GS_OP_DIVS32, GS_OP_DIVS64) :
		  by_w(d, w, GS_OP_DIVU16, GS_OP_DIVU32, GS_OP_DIVU64), GS_EMU_INT);
	operands(d, 3, ty);
}

static void dec_rem(struct dc *d)
{
	int ty, w;

	mods(d, B(K_TYPE));
	ty = one_type(d, T_INT);
	w = gs_ptxl_tysize(ty);
	op(d, tysigned(ty) ? by_w(d, w, GS_OP_REMS16, GS_OP_REMS32, GS_OP_REMS64) :
			     by_w(d, w, GS_OP_REMU16, GS_OP_REMU32, GS_OP_REMU64), GS_EMU_INT);
	operands(d, 3, ty);
}

/* abs, neg */
static void dec_absneg(struct dc *d)
{
	int neg = d->base[0] == 'n';
	int ty;

	mods(d, B(K_TYPE) | B(K_FTZ));
	ty = one_type(d, T_SINTF);
	if (tyfloat(ty)) {
		fop(d, 2, neg ? GS_FOP_NEG : GS_FOP_ABS, GS_RND_NONE, GS_EMU_FP32, GS_EMU_FP64);
		return;
	}
	if (has(d, K_FTZ))
		unsupported(d);
	op(d, neg ? by_w(d, gs_ptxl_tysize(ty), GS_OP_NEG16, GS_OP_NEG32, GS_OP_NEG64) :
		    by_w(d, gs_ptxl_tysize(ty), GS_OP_ABS16, GS_OP_ABS32, GS_OP_ABS64), GS_EMU_INT);
	operands(d, 2, ty);
}

/* min, max */
static void dec_minmax(struct dc *d)
{
	int max = d->base[1] == 'a';
	int ty, w, s;

	mods(d, B(K_TYPE) | B(K_FTZ) | B(K_NAN));
	ty = one_type(d, T_INTF);
	w = gs_ptxl_tysize(ty);
	s = tysigned(ty);
	if (tyfloat(ty)) {
		fop(d, 3, max ? GS_FOP_MAX : GS_FOP_MIN, GS_RND_NONE, GS_EMU_FP32, GS_EMU_FP64);
		d->in->f |= (uint8_t)(has(d, K_NAN) << 2);
		return;
	}
	if (has(d, K_FTZ) || has(d, K_NAN))
		unsupported(d);
	if (max)
		op(d, s ? by_w(d, w, GS_OP_MAXS16, GS_OP_MAXS32, GS_OP_MAXS64) :
			  by_w(d, w, GS_OP_MAXU16, GS_OP_MAXU32, GS_OP_MAXU64), GS_EMU_INT);
	else
		op(d, s ? by_w(d, w, GS_OP_MINS16, GS_OP_MINS32, GS_OP_MINS64) :
			  by_w(d, w, GS_OP_MINU16, GS_OP_MINU32, GS_OP_MINU64), GS_EMU_INT);
	operands(d, 3, ty);
}

/* and, or, xor, not, cnot */
static void dec_logic(struct dc *d)
{
	static const struct {
		const char *base;
		int n, p, o16, o32, o64;
	} t[] = {
		{ "and", 3, GS_OP_ANDP, GS_OP_AND16, GS_OP_AND32, GS_OP_AND64 },
		{ "or", 3, GS_OP_ORP, GS_OP_OR16, GS_OP_OR32, GS_OP_OR64 },
		{ "xor", 3, GS_OP_XORP, GS_OP_XOR16, GS_OP_XOR32, GS_OP_XOR64 },
		{ "not", 2, GS_OP_NOTP, GS_OP_NOT16, GS_OP_NOT32, GS_OP_NOT64 },
		{ "cnot", 2, -1, GS_OP_CNOT16, GS_OP_CNOT32, GS_OP_CNOT64 },
	};
	size_t i;
	int ty;

	for (i = 0; strcmp(t[i].base, d->base) != 0; i++)
		;
	mods(d, B(K_TYPE));
	ty = one_type(d, T_BITSP);
	if (ty == GS_TY_PRED) {
		if (t[i].p < 0)
			unsupported(d);
		op(d, t[i].p, GS_EMU_INT);
		nops(d, t[i].n, t[i].n);
		for (int k = 0; k < t[i].n; k++)
			d->in->o[k] = pred(d, opnd(d, k));
		return;
	}
	op(d, by_w(d, gs_ptxl_tysize(ty), t[i].o16, t[i].o32, t[i].o64), GS_EMU_INT);
	operands(d, t[i].n, ty);
}

/* shl, shr: the shift amount is 32-bit */
static void dec_shift(struct dc *d)
{
	static const int shr_ok[] = { GS_TY_B16, GS_TY_B32, GS_TY_B64, GS_TY_U16, GS_TY_U32,
				      GS_TY_U64, GS_TY_S16, GS_TY_S32, GS_TY_S64, T_END };
	int shl = d->base[2] == 'l';
	int ty, w;

	mods(d, B(K_TYPE));
	ty = one_type(d, shl ? T_BITS : shr_ok);
	w = gs_ptxl_tysize(ty);
	if (shl)
		op(d, by_w(d, w, GS_OP_SHL16, GS_OP_SHL32, GS_OP_SHL64), GS_EMU_INT);
	else if (tysigned(ty))
		op(d, by_w(d, w, GS_OP_SHRS16, GS_OP_SHRS32, GS_OP_SHRS64), GS_EMU_INT);
	else
		op(d, by_w(d, w, GS_OP_SHRU16, GS_OP_SHRU32, GS_OP_SHRU64), GS_EMU_INT);
	nops(d, 3, 3);
	dst(d, 0, opnd(d, 0), ty);
	src(d, 1, opnd(d, 1), ty);
	src(d, 2, opnd(d, 2), GS_TY_U32);
}

static void dec_shf(struct dc *d)
{
	static const int ok[] = { GS_TY_B32, T_END };

	mods(d, B(K_TYPE) | B(K_SHFDIR) | B(K_SHFMODE));
	one_type(d, ok);
	if (!has(d, K_SHFDIR) || !has(d, K_SHFMODE))
		unsupported(d);
	op(d, GS_OP_SHF, GS_EMU_INT);
	d->in->sub = (uint8_t)(d->m.shfdir | d->m.shfmode << 1);
	operands(d, 4, GS_TY_B32);
}

/* bfe, bfi, brev, popc, clz, bfind, prmt */
static void dec_bits(struct dc *d)
{
	const char *b = d->base;
	int ty, w;

	if (strcmp(b, "bfe") == 0 || strcmp(b, "bfind") == 0) {
		int bfe = b[2] == 'e';

		mods(d, B(K_TYPE) | (bfe ? 0 : B(K_SHIFTAMT)));
		ty = one_type(d, T_US3264);
		w = gs_ptxl_tysize(ty);
		if (bfe) {
			op(d, tysigned(ty) ? (w == 8 ? GS_OP_BFES64 : GS_OP_BFES32) :
					     (w == 8 ? GS_OP_BFEU64 : GS_OP_BFEU32), GS_EMU_INT);
			nops(d, 4, 4);
			dst(d, 0, opnd(d, 0), ty);
			src(d, 1, opnd(d, 1), ty);
			src(d, 2, opnd(d, 2), GS_TY_U32);
			src(d, 3, opnd(d, 3), GS_TY_U32);
		} else {
			op(d, GS_OP_BFIND, GS_EMU_INT);
			d->in->sub = (uint8_t)(tysigned(ty) | has(d, K_SHIFTAMT) << 1);
			d->in->sz = (uint8_t)w;
			nops(d, 2, 2);
			dst(d, 0, opnd(d, 0), GS_TY_U32);
			src(d, 1, opnd(d, 1), ty);
		}
		return;
	}
	if (strcmp(b, "prmt") == 0) {
		static const int ok[] = { GS_TY_B32, T_END };

		mods(d, B(K_TYPE) | B(K_PRMT));
		one_type(d, ok);
		op(d, GS_OP_PRMT, GS_EMU_INT);
		d->in->sub = (uint8_t)d->m.prmt;
		operands(d, 4, GS_TY_B32);
		return;
	}
	mods(d, B(K_TYPE));
	ty = one_type(d, T_B3264);
	w = gs_ptxl_tysize(ty);
	if (strcmp(b, "bfi") == 0) {
		op(d, w == 8 ? GS_OP_BFI64 : GS_OP_BFI32, GS_EMU_INT);
		nops(d, 5, 5);
		dst(d, 0, opnd(d, 0), ty);
		src(d, 1, opnd(d, 1), ty);
		src(d, 2, opnd(d, 2), ty);
		src(d, 3, opnd(d, 3), GS_TY_U32);
		src(d, 4, opnd(d, 4), GS_TY_U32);
		return;
	}
	if (strcmp(b, "brev") == 0) {
		op(d, w == 8 ? GS_OP_BREV64 : GS_OP_BREV32, GS_EMU_INT);
		operands(d, 2, ty);
		return;
	}
	if (b[0] == 'p')
		op(d, w == 8 ? GS_OP_POPC64 : GS_OP_POPC32, GS_EMU_INT);
	else
		op(d, w == 8 ? GS_OP_CLZ64 : GS_OP_CLZ32, GS_EMU_INT);
	nops(d, 2, 2);
	dst(d, 0, opnd(d, 0), GS_TY_U32);
	src(d, 1, opnd(d, 1), ty);
}

static int cmp_cls(int ty)
{
	return ty == GS_TY_F32 ? GS_EMU_FP32 : ty == GS_TY_F64 ? GS_EMU_FP64 : GS_EMU_INT;
}

/* setp.cmp[.bool][.ftz].type p[|q], a, b[, [!]c];
 * set.cmp[.bool][.ftz].dtype.stype d, a, b[, [!]c] */
static void dec_setp(struct dc *d)
{
	static const int dty_ok[] = { GS_TY_U32, GS_TY_S32, GS_TY_F32, T_END };
	int set = d->base[3] == 0;
	int ty, dty = 0;
	const struct gs_ptxl_opnd *p;

	mods(d, B(K_TYPE) | B(K_CMP) | B(K_BOOL) | B(K_FTZ));
	if (set) {
		if (d->m.nty != 2)
			unsupported(d);
		dty = d->m.ty[0];
		d->m.ty[0] = d->m.ty[1];
		d->m.nty = 1;
		for (int i = 0; dty_ok[i] != dty; i++)
			if (dty_ok[i] == T_END)
				unsupported(d);
	}
	ty = one_type(d, T_ANY);
	if (!has(d, K_CMP) || (has(d, K_FTZ) && ty != GS_TY_F32))
		unsupported(d);
	nops(d, has(d, K_BOOL) ? 4 : 3, has(d, K_BOOL) ? 4 : 3);
	op(d, set ? GS_OP_SET : GS_OP_SETP, cmp_cls(ty));
	p = opnd(d, 0);
	if (set) {
		dst(d, 0, p, dty);
		d->in->o[1] = GS_NONE;
	} else {
		struct gs_ptxl_opnd pp = *p;

		pp.reg2 = -1;
		d->in->o[0] = pred(d, &pp);
		d->in->o[1] = p->reg2 >= 0 ? pred_id(d, p->reg2) : GS_NONE;
	}
	src(d, 2, opnd(d, 1), ty);
	src(d, 3, opnd(d, 2), ty);
	d->in->o[4] = GS_NONE;
	d->in->sub = (uint8_t)d->m.cmp;
	d->in->sub2 = (uint8_t)ty;
	d->in->f = (uint8_t)(has(d, K_FTZ) << 4 | (dty == GS_TY_F32) << 3);
	if (has(d, K_BOOL)) {
		const struct gs_ptxl_opnd *c = opnd(d, 3);

		d->in->o[4] = pred_x(d, c, 1);
		d->in->f |= (uint8_t)((1 + d->m.boolop) | c->neg << 2);
	}
}

static void dec_selp(struct dc *d)
{
	int ty;

	mods(d, B(K_TYPE));
	ty = one_type(d, T_ANY);
	op(d, gs_ptxl_tysize(ty) == 8 ? GS_OP_SELP64 : GS_OP_SELP32, GS_EMU_INT);
	nops(d, 4, 4);
	dst(d, 0, opnd(d, 0), ty);
	src(d, 1, opnd(d, 1), ty);
	src(d, 2, opnd(d, 2), ty);
	d->in->o[3] = pred(d, opnd(d, 3));
}

/* slct[.ftz].dtype.ctype d, a, b, c */
static void dec_slct(struct dc *d)
{
	int ty, cty;

	mods(d, B(K_TYPE) | B(K_FTZ));
	if (d->m.nty != 2)
		unsupported(d);
	cty = d->m.ty[1];
	if (cty != GS_TY_S32 && cty != GS_TY_F32)
		unsupported(d);
	if (has(d, K_FTZ) && cty != GS_TY_F32)
		unsupported(d);
	d->m.nty = 1;
	ty = one_type(d, T_ANY);
	op(d, gs_ptxl_tysize(ty) == 8 ? GS_OP_SLCT64 : GS_OP_SLCT32, GS_EMU_INT);
	d->in->sub = (uint8_t)(cty == GS_TY_F32);
	d->in->f = (uint8_t)has(d, K_FTZ);
	nops(d, 4, 4);
	dst(d, 0, opnd(d, 0), ty);
	src(d, 1, opnd(d, 1), ty);
	src(d, 2, opnd(d, 2), ty);
	src(d, 3, opnd(d, 3), cty);
}

static void dec_testp(struct dc *d)
{
	int ty;

	mods(d, B(K_TYPE) | B(K_TESTP));
	ty = one_type(d, T_F);
	if (!has(d, K_TESTP))
		unsupported(d);
	op(d, GS_OP_TESTP, cmp_cls(ty));
	d->in->sub = (uint8_t)d->m.testp;
	d->in->sub2 = (uint8_t)(ty == GS_TY_F64);
	nops(d, 2, 2);
	d->in->o[0] = pred(d, opnd(d, 0));
	src(d, 1, opnd(d, 1), ty);
}

static void dec_copysign(struct dc *d)
{
	mods(d, B(K_TYPE));
	one_type(d, T_F);
	fop(d, 3, GS_FOP_COPYSIGN, GS_RND_NONE, GS_EMU_FP32, GS_EMU_FP64);
}

/* rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh */
static void dec_funary(struct dc *d)
{
	static const struct {
		const char *base;
		int exact, approx; /* FOPs, -1: no such form */
		int f64approx;     /* 0: no .approx.f64, 1: only with .ftz, 2: with or without */
	} t[] = {
		{ "rcp", GS_FOP_RCP, GS_FOP_RCP_APPROX, 1 },
		{ "sqrt", GS_FOP_SQRT, GS_FOP_SQRT_APPROX, 0 },
		{ "rsqrt", -1, GS_FOP_RSQRT_APPROX, 2 },
		{ "sin", -1, GS_FOP_SIN, 0 },
		{ "cos", -1, GS_FOP_COS, 0 },
		{ "lg2", -1, GS_FOP_LG2, 0 },
		{ "ex2", -1, GS_FOP_EX2, 0 },
		{ "tanh", -1, GS_FOP_TANH, 0 },
	};
	size_t i;
	int ty;

	for (i = 0; strcmp(t[i].base, d->base) != 0; i++)
		;
	mods(d, B(K_TYPE) | B(K_RND) | B(K_FTZ) | B(K_APPROX));
	ty = one_type(d, T_F);
	if (has(d, K_APPROX) == has(d, K_RND) || d->m.rnd >= GS_RND_RNI)
		unsupported(d);
	if (has(d, K_APPROX)) {
		if (ty == GS_TY_F64 && (!t[i].f64approx || (t[i].f64approx == 1 && !has(d, K_FTZ))))
			unsupported(d);
		fop(d, 2, t[i].approx, GS_RND_NONE, GS_EMU_SFU, GS_EMU_SFU);
	} else {
		if (t[i].exact < 0)
			unsupported(d);
		fop(d, 2, t[i].exact, d->m.rnd, GS_EMU_SFU, GS_EMU_FP64);
	}
}

/* the nominal width of a register operand (2, 4, 8); for other operands the
 * width of type ty */
static int nominal(struct dc *d, const struct gs_ptxl_opnd *o, int ty)
{
	if (o->kind == GS_PO_REG)
		return regof(d, o)->width;
	return gs_ptxl_tysize(ty) == 8 ? 8 : 4;
}

/* a register at least as wide as type ty (ld, st, cvt may use wider ones) */
static uint32_t wide_reg(struct dc *d, const struct gs_ptxl_opnd *o, int ty)
{
	char why[128];
	struct gs_ptxl_reg *r = value_reg(d, o);

	if (r->width == 0 || r->width < gs_ptxl_tysize(ty)) {
		snprintf(why, sizeof why, "register '%s' is narrower than the type", o->name);
		bad(d, why);
	}
	return reg_alloc(d, o);
}

/* cvt[.rnd][.ftz][.sat].dtype.stype d, a */
static void dec_cvt(struct dc *d)
{
	static const int ok[] = { GS_TY_U8, GS_TY_U16, GS_TY_U32, GS_TY_U64, GS_TY_S8, GS_TY_S16,
				  GS_TY_S32, GS_TY_S64, GS_TY_F16, GS_TY_BF16, GS_TY_F32,
				  GS_TY_F64, T_END };
	int dty, sty, r;
	const struct gs_ptxl_opnd *a;

	mods(d, B(K_TYPE) | B(K_RND) | B(K_FTZ) | B(K_SAT));
	if (d->m.nty != 2)
		unsupported(d);
	dty = d->m.ty[0];
	sty = d->m.ty[1];
	for (int k = 0; k < 2; k++) {
		int i;

		for (i = 0; ok[i] != T_END && ok[i] != d->m.ty[k]; i++)
			;
		if (ok[i] == T_END)
			unsupported(d);
	}
	r = d->m.rnd;
	/* the rounding PTX requires: integer rounding from a float to an
	 * integer (or to an integral float), float rounding where precision is
	 * lost into a float */
	if (tyfloat(sty) && !tyfloat(dty)) {
		if (r < GS_RND_RNI)
			unsupported(d);
	} else if (tyfloat(dty) && (!tyfloat(sty) || gs_ptxl_tysize(dty) < gs_ptxl_tysize(sty))) {
		if (r == GS_RND_NONE || r >= GS_RND_RNI)
			unsupported(d);
	} else if (tyfloat(dty)) {
		if (r != GS_RND_NONE &&
		    (r < GS_RND_RNI || gs_ptxl_tysize(dty) != gs_ptxl_tysize(sty)))
			unsupported(d);
	} else if (r != GS_RND_NONE) {
		unsupported(d);
	}
	if (has(d, K_FTZ) && sty != GS_TY_F32 && dty != GS_TY_F32)
		unsupported(d);
	op(d, GS_OP_CVT, (sty == GS_TY_F64 || dty == GS_TY_F64) ? GS_EMU_FP64 :
			 (tyfloat(sty) || tyfloat(dty)) ? GS_EMU_FP32 : GS_EMU_INT);
	nops(d, 2, 2);
	set_rf(d, 0, wide_reg(d, opnd(d, 0), dty));
	a = opnd(d, 1);
	if (a->kind == GS_PO_REG)
		set_rf(d, 1, wide_reg(d, a, sty));
	else
		src(d, 1, a, sty);
	d->in->sub = (uint8_t)dty;
	d->in->sub2 = (uint8_t)sty;
	d->in->f = (uint8_t)(r | has(d, K_FTZ) << 4 | has(d, K_SAT) << 5);
	d->in->sz = (uint8_t)nominal(d, a, sty);
	d->in->nv = (uint8_t)nominal(d, opnd(d, 0), dty);
}

/* cvta[.to].space.size d, a */
static void dec_cvta(struct dc *d)
{
	static const int ok[] = { GS_TY_U32, GS_TY_U64, T_END };
	int ty, sp;

	mods(d, B(K_TYPE) | B(K_TO) | B(K_SPACE));
	ty = one_type(d, ok);
	if (!has(d, K_SPACE))
		unsupported(d);
	sp = d->m.space;
	if (sp == SP_PARAM_ANY || sp == GS_SP_KPARAM) {
		/* generic addresses of parameters exist for kernel parameters only */
		if (!d->L->m->funcs[d->f].entry)
			unsupported(d);
		sp = GS_SP_KPARAM;
	} else if (sp == GS_SP_PARAM) {
		unsupported(d);
	}
	op(d, GS_OP_CVTA, GS_EMU_INT);
	d->in->sub = (uint8_t)sp;
	d->in->f = (uint8_t)has(d, K_TO);
	d->in->sz = d->in->nv = (uint8_t)gs_ptxl_tysize(ty);
	operands(d, 2, ty);
}

/* does variable space vs fit an instruction's memory space sp? */
static int space_fits(int sp, int vs)
{
	switch (sp) {
	case GS_SP_GLOBAL: return vs == GS_VS_GLOBAL;
	case GS_SP_SHARED: return vs == GS_VS_SHARED;
	case GS_SP_LOCAL: return vs == GS_VS_LOCAL;
	case GS_SP_CONST: return vs == GS_VS_CONST;
	default: return vs != GS_VS_KPARAM && vs != GS_VS_PARAM;
	}
}

/* The address [base+off] of a memory instruction of space sp into o[4] and
 * imm; returns the space, made precise: a generic access to a shared or
 * local variable by name is an access to that space, a .param access the
 * kernel's parameters or the per-thread parameter area. */
static int address(struct dc *d, const struct gs_ptxl_opnd *a, int sp)
{
	const struct gs_ptxl_opnd *base;
	int entry = d->L->m->funcs[d->f].entry;

	if (a->kind != GS_PO_ADDR)
		bad(d, "an address [...] is expected");
	base = a->el;
	d->in->imm = a->off;
	if (base->kind == GS_PO_REG) {
		struct gs_ptxl_reg *r = regof(d, base);

		if (r->width != 4 && r->width != 8)
			bad(d, "address registers are 32- or 64-bit");
		if (sp == SP_PARAM_ANY)
			sp = entry ? GS_SP_KPARAM : GS_SP_PARAM;
		if (r->width == 4) {
			if (sp != GS_SP_SHARED && sp != GS_SP_LOCAL)
				bad(d, "32-bit addresses are for shared and local memory only");
			d->in->f |= GS_MF_A32;
		}
		set_rf(d, 4, reg_alloc(d, base));
		return sp;
	}
	if (base->kind == GS_PO_INT) {
		if (sp == SP_PARAM_ANY)
			bad(d, "a parameter address must name a parameter");
		set_rf(d, 4, slot(d, GS_SLOT_IMM, 1, base->u, 0));
		return sp;
	}
	int v = sym_var(d, base);
	const struct gs_ptx_var *var = &d->L->m->vars[v];

	if (sp == SP_PARAM_ANY || sp == GS_SP_KPARAM || sp == GS_SP_PARAM) {
		if (var->space == GS_VS_KPARAM && sp != GS_SP_PARAM) {
			set_rf(d, 4, slot(d, GS_SLOT_SYM, 1, (uint64_t)v, 0));
			return GS_SP_KPARAM;
		}
		if (var->space != GS_VS_PARAM || sp == GS_SP_KPARAM)
			bad(d, "a .param access to a variable of another space");
		sp = GS_SP_PARAM;
	} else if (!space_fits(sp, var->space)) {
		bad(d, "the variable is in another state space");
	} else if (sp == GS_SP_GENERIC && (var->space == GS_VS_SHARED ||
					   var->space == GS_VS_LOCAL)) {
		sp = var->space == GS_VS_SHARED ? GS_SP_SHARED : GS_SP_LOCAL;
	}
	set_rf(d, 4, slot(d, GS_SLOT_SYM, 1, (uint64_t)v, 0));
	return sp;
}

/* ld, ldu, st */
static void dec_ldst(struct dc *d)
{
	static const int ok[] = { GS_TY_B8, GS_TY_B16, GS_TY_B32, GS_TY_B64, GS_TY_U8, GS_TY_U16,
				  GS_TY_U32, GS_TY_U64, GS_TY_S8, GS_TY_S16, GS_TY_S32, GS_TY_S64,
				  GS_TY_F16, GS_TY_BF16, GS_TY_F32, GS_TY_F64, T_END };
	int st = d->base[0] == 's';
	int ty, w, nv, n, sw = 0, sp;
	const struct gs_ptxl_opnd *val, *el;

	mods(d, B(K_TYPE) | B(K_SPACE) | B(K_VEC) | B(K_CHINT));
	ty = one_type(d, ok);
	w = gs_ptxl_tysize(ty);
	nv = has(d, K_VEC) ? d->m.vec : 1;
	nops(d, 2, 2 + has(d, K_CHINT)); /* the cache policy operand is not used */
	val = opnd(d, st ? 1 : 0);
	op(d, st ? GS_OP_ST : GS_OP_LD, GS_EMU_MEM);
	d->in->sz = (uint8_t)w;
	d->in->nv = (uint8_t)nv;
	el = val;
	n = 1;
	if (val->kind == GS_PO_VEC) {
		el = val->el;
		n = val->nel;
	}
	if (n != nv)
		bad(d, "the number of values does not match the vector size");
	for (int k = 0; k < n; k++) {
		const struct gs_ptxl_opnd *e = &el[k];

		if (e->kind == GS_PO_SINK && !st) {
			d->in->o[k] = GS_NONE;
		} else if (e->kind == GS_PO_REG) {
			struct gs_ptxl_reg *r = regof(d, e);

			set_rf(d, k, wide_reg(d, e, ty));
			if (sw && sw != slotw(r->width))
				bad(d, "vector elements of different widths");
			sw = slotw(r->width);
		} else if (st && e->kind != GS_PO_SINK) {
			src(d, k, e, ty);
			if (sw && sw != slotw(w))
				bad(d, "vector elements of different widths");
			sw = slotw(w);
		} else {
			bad(d, "a register is expected");
		}
	}
	if (sw == 8)
		d->in->f |= GS_MF_WIDE;
	if (!st && tysigned(ty))
		d->in->f |= GS_MF_SIGNED;
	sp = has(d, K_SPACE) ? d->m.space : GS_SP_GENERIC;
	if (st && sp == GS_SP_CONST)
		unsupported(d);
	if (d->base[2] == 'u' && sp != GS_SP_GLOBAL) /* ldu */
		unsupported(d);
	sp = address(d, opnd(d, st ? 0 : 1), sp);
	if (sp == GS_SP_KPARAM) {
		if (st)
			bad(d, "kernel parameters are read-only");
		/* by name: one address for the whole warp */
		if (opnd(d, 1)->el->kind == GS_PO_SYM)
			op(d, GS_OP_LDKP, GS_EMU_MEM);
	}
	d->in->sub = (uint8_t)sp;
}

/* atom, red */
static void dec_atom(struct dc *d)
{
	static const int ok[] = { GS_TY_U32, GS_TY_S32, GS_TY_U64, GS_TY_S64, GS_TY_B32,
				  GS_TY_B64, GS_TY_F32, GS_TY_F64, T_END };
	int red = d->base[0] == 'r';
	int ty, a, sp, cas, fits;

	mods(d, B(K_TYPE) | B(K_SPACE) | B(K_ATOM) | B(K_CHINT));
	ty = one_type(d, ok);
	if (!has(d, K_ATOM))
		unsupported(d);
	a = d->m.atom;
	switch (a) {
	case GS_AT_ADD:
		fits = ty == GS_TY_U32 || ty == GS_TY_S32 || ty == GS_TY_U64 || ty == GS_TY_F32 ||
		       ty == GS_TY_F64;
		break;
	case GS_AT_MIN:
	case GS_AT_MAX:
		fits = !tyfloat(ty) && ty != GS_TY_B32 && ty != GS_TY_B64;
		break;
	case GS_AT_INC:
	case GS_AT_DEC:
		fits = ty == GS_TY_U32;
		break;
	default:
		fits = ty == GS_TY_B32 || ty == GS_TY_B64;
		break;
	}
	if (!fits)
		unsupported(d);
	cas = a == GS_AT_CAS;
	if (red && cas)
		unsupported(d);
	sp = has(d, K_SPACE) ? d->m.space : GS_SP_GENERIC;
	if (sp != GS_SP_GLOBAL && sp != GS_SP_SHARED && sp != GS_SP_GENERIC)
		unsupported(d);
	int n = (red ? 2 : 3) + cas;

	nops(d, n, n + has(d, K_CHINT));
	op(d, GS_OP_ATOM, GS_EMU_MEM);
	if (red) {
		d->in->o[0] = GS_NONE;
	} else {
		dst(d, 0, opnd(d, 0), ty);
	}
	sp = address(d, opnd(d, red ? 0 : 1), sp);
	/* address() put the address in o[4]; ATOM has it in o[1] */
	d->in->o[1] = d->in->o[4];
	d->in->o[4] = GS_NONE;
	*d->mask = (uint8_t)((*d->mask & ~(1u << 4)) | 1u << 1);
	src(d, 2, opnd(d, red ? 1 : 2), ty);
	d->in->o[3] = GS_NONE;
	if (cas)
		src(d, 3, opnd(d, 3), ty);
	d->in->sub = (uint8_t)a;
	d->in->sub2 = (uint8_t)ty;
	d->in->sz = (uint8_t)gs_ptxl_tysize(ty);
	/* f bit 1 (GS_MF_A32, from address()) would collide with the space */
	if (d->in->f & GS_MF_A32)
		d->in->f = 0x20; /* ptx_int.h: ATOM f bit 5 */
	d->in->f |= (uint8_t)(sp | red << 4);
	if (sp != GS_SP_SHARED)
		d->L->m->funcs[d->f].global_atomics = 1;
}

/* ---- control, barriers, warp-level ------------------------------------------------- */

static void dec_bra(struct dc *d)
{
	const struct gs_ptxl_opnd *t;
	int pc;

	mods(d, B(K_UNI));
	nops(d, 1, 1);
	t = opnd(d, 0);
	if (t->kind != GS_PO_SYM)
		unsupported(d);
	pc = gs_ptxl_map_get(d->labels, t->name);
	if (pc < 0)
		gs_ptxl_fail(d->L, "unknown label '%s' at line %u", t->name, d->s->line);
	op(d, GS_OP_BRA, GS_EMU_CTRL);
	d->in->tgt = pc;
	d->in->f = (uint8_t)has(d, K_UNI);
}

/* call[.uni] [(ret),] f [, (args)]: tgt is set once every function has its pc */
static void dec_call(struct dc *d)
{
	const struct gs_ptxl_stmt *s = d->s;
	const struct gs_ptxl_opnd *ret = NULL, *args = NULL, *callee;
	struct gs_ptx_func *caller = &d->L->m->funcs[d->f];
	int k = 0, g;

	mods(d, B(K_UNI));
	if (k < s->nop && s->op[k].kind == GS_PO_LIST)
		ret = &s->op[k++];
	if (k >= s->nop || s->op[k].kind != GS_PO_SYM)
		gs_ptxl_fail(d->L, "indirect calls (line %u) are not supported", s->line);
	callee = &s->op[k++];
	if (k < s->nop && s->op[k].kind == GS_PO_LIST)
		args = &s->op[k++];
	if (k != s->nop)
		gs_ptxl_fail(d->L, "indirect calls (line %u) are not supported", s->line);
	g = gs_ptxl_map_get(&d->L->fnmap, callee->name);
	if (g < 0)
		gs_ptxl_fail(d->L, "call of unknown function '%s' at line %u", callee->name,
			     s->line);
	const struct gs_ptx_func *fn = &d->L->m->funcs[g];

	if (fn->entry)
		gs_ptxl_fail(d->L, "call of kernel '%s' at line %u", fn->name, s->line);
	if (!fn->defined && strcmp(fn->name, "__assertfail") == 0) {
		/* a failed assert() stops the kernel, as on the device */
		op(d, GS_OP_TRAP, GS_EMU_CTRL);
		return;
	}
	if (!fn->defined)
		gs_ptxl_fail(d->L, "call of external function '%s' at line %u is not supported",
			     fn->name, s->line);
	if ((ret ? ret->nel : 0) != fn->nret || (size_t)(args ? args->nel : 0) != fn->nparams)
		gs_ptxl_fail(d->L, "call of '%s' at line %u does not match its parameters",
			     fn->name, s->line);
	op(d, GS_OP_CALL, GS_EMU_CTRL);
	d->in->o[0] = (uint32_t)g;
	d->in->tgt = -1;
	size_t i;

	for (i = 0; i < caller->ncallees && caller->callees[i] != g; i++)
		;
	if (i == caller->ncallees) {
		gs_grow(&caller->callees, &caller->capcallees, caller->ncallees + 1,
			sizeof(*caller->callees));
		caller->callees[caller->ncallees++] = g;
	}
}

/* ret, exit, trap, brkpt: a kernel's ret ends its threads like exit */
static void dec_end(struct dc *d)
{
	mods(d, B(K_UNI));
	nops(d, 0, 0);
	if (strcmp(d->base, "ret") == 0)
		op(d, d->L->m->funcs[d->f].entry ? GS_OP_EXIT : GS_OP_RET, GS_EMU_CTRL);
	else if (strcmp(d->base, "exit") == 0)
		op(d, GS_OP_EXIT, GS_EMU_CTRL);
	else
		op(d, GS_OP_TRAP, GS_EMU_CTRL);
}

/* barrier id 0 of the whole block; named barriers and thread counts are refused */
static void bar_id(struct dc *d, const struct gs_ptxl_opnd *o)
{
	if (o->kind != GS_PO_INT || o->u != 0)
		gs_ptxl_fail(d->L, "named barriers ('%s' at line %u) are not supported",
			     d->s->text, d->s->line);
}

/* bar.sync, barrier.sync[.aligned], bar.red.*, barrier.red.*, bar.warp.sync */
static void dec_bar(struct dc *d)
{
	const struct gs_ptxl_opnd *c;

	mods(d, B(K_TYPE) | B(K_SYNC) | B(K_ALIGNED) | B(K_RED) | B(K_BAROP) | B(K_WARP) |
		B(K_CTA));
	if (has(d, K_WARP)) { /* __syncwarp: warps run in lockstep here */
		if (!has(d, K_SYNC) || d->m.nty || has(d, K_RED))
			unsupported(d);
		nops(d, 1, 1);
		op(d, GS_OP_NOP, GS_EMU_OTHER);
		return;
	}
	op(d, GS_OP_BAR, GS_EMU_BARRIER);
	if (!has(d, K_RED)) {
		if (!has(d, K_SYNC) || d->m.nty || has(d, K_BAROP))
			unsupported(d);
		nops(d, 1, 2);
		bar_id(d, opnd(d, 0));
		if (d->s->nop > 1)
			gs_ptxl_fail(d->L, "barriers with a thread count ('%s' at line %u) are not "
				     "supported", d->s->text, d->s->line);
		return;
	}
	if (!has(d, K_BAROP) || has(d, K_SYNC) || d->m.nty != 1 ||
	    d->m.ty[0] != (d->m.barop == 1 ? GS_TY_U32 : GS_TY_PRED))
		unsupported(d);
	nops(d, 3, 4);
	bar_id(d, opnd(d, 1));
	if (d->s->nop > 3)
		gs_ptxl_fail(d->L, "barriers with a thread count ('%s' at line %u) are not "
			     "supported", d->s->text, d->s->line);
	d->in->sub = (uint8_t)d->m.barop;
	if (d->m.barop == 1)
		dst(d, 0, opnd(d, 0), GS_TY_U32);
	else
		d->in->o[0] = pred(d, opnd(d, 0));
	c = opnd(d, 2);
	d->in->o[1] = pred_x(d, c, 1);
	d->in->f = c->neg;
}

/* membar, fence, nanosleep, prefetch, ...: nothing to do in a sequential,
 * coherent memory */
static void dec_nop(struct dc *d)
{
	op(d, GS_OP_NOP, GS_EMU_OTHER);
}

/* the member mask of a .sync warp instruction, or all lanes */
static void member_mask(struct dc *d, int i, int k)
{
	if (has(d, K_SYNC))
		src(d, i, opnd(d, k), GS_TY_B32);
	else
		set_rf(d, i, slot(d, GS_SLOT_IMM, 0, 0xffffffffu, 0));
}

/* shfl[.sync].mode.b32 d[|p], a, b, c[, mask] */
static void dec_shfl(struct dc *d)
{
	static const int ok[] = { GS_TY_B32, T_END };
	const struct gs_ptxl_opnd *o;

	mods(d, B(K_TYPE) | B(K_SYNC) | B(K_SHFL));
	one_type(d, ok);
	if (!has(d, K_SHFL))
		unsupported(d);
	nops(d, 4 + has(d, K_SYNC), 4 + has(d, K_SYNC));
	op(d, GS_OP_SHFL, GS_EMU_OTHER);
	d->in->sub = (uint8_t)d->m.shfl;
	o = opnd(d, 0);
	struct gs_ptxl_opnd dd = *o;

	dd.reg2 = -1;
	dst(d, 0, &dd, GS_TY_B32);
	d->in->o[1] = o->reg2 >= 0 ? pred_id(d, o->reg2) : GS_NONE;
	src(d, 2, opnd(d, 1), GS_TY_B32);
	src(d, 3, opnd(d, 2), GS_TY_U32);
	src(d, 4, opnd(d, 3), GS_TY_U32);
	member_mask(d, 5, 4);
}

/* vote[.sync].mode.pred d, [!]a[, mask]; vote[.sync].ballot.b32 d, [!]a[, mask] */
static void dec_vote(struct dc *d)
{
	const struct gs_ptxl_opnd *a;
	int ballot;

	mods(d, B(K_TYPE) | B(K_SYNC) | B(K_VOTE));
	if (!has(d, K_VOTE) || d->m.nty != 1)
		unsupported(d);
	ballot = d->m.vote == GS_VOTE_BALLOT;
	if (d->m.ty[0] != (ballot ? GS_TY_B32 : GS_TY_PRED))
		unsupported(d);
	nops(d, 2 + has(d, K_SYNC), 2 + has(d, K_SYNC));
	op(d, GS_OP_VOTE, GS_EMU_OTHER);
	d->in->sub = (uint8_t)d->m.vote;
	if (ballot)
		dst(d, 0, opnd(d, 0), GS_TY_B32);
	else
		d->in->o[0] = pred(d, opnd(d, 0));
	a = opnd(d, 1);
	d->in->o[1] = pred_x(d, a, 1);
	d->in->f = a->neg;
	member_mask(d, 2, 2);
}

static void dec_activemask(struct dc *d)
{
	static const int ok[] = { GS_TY_B32, T_END };

	mods(d, B(K_TYPE));
	one_type(d, ok);
	nops(d, 1, 1);
	op(d, GS_OP_ACTIVEMASK, GS_EMU_OTHER);
	dst(d, 0, opnd(d, 0), GS_TY_B32);
}

/* redux.sync.op.type d, a, mask */
static void dec_redux(struct dc *d)
{
	int ty, a;

	mods(d, B(K_TYPE) | B(K_SYNC) | B(K_ATOM));
	if (!has(d, K_SYNC) || !has(d, K_ATOM) || d->m.nty != 1)
		unsupported(d);
	ty = d->m.ty[0];
	a = d->m.atom;
	if (a == GS_AT_ADD || a == GS_AT_MIN || a == GS_AT_MAX) {
		if (ty != GS_TY_U32 && ty != GS_TY_S32)
			unsupported(d);
	} else if (a == GS_AT_AND || a == GS_AT_OR || a == GS_AT_XOR) {
		if (ty != GS_TY_B32)
			unsupported(d);
	} else {
		unsupported(d);
	}
	nops(d, 3, 3);
	op(d, GS_OP_REDUX, GS_EMU_OTHER);
	d->in->sub = (uint8_t)a;
	d->in->sub2 = (uint8_t)(ty == GS_TY_S32);
	dst(d, 0, opnd(d, 0), ty);
	src(d, 1, opnd(d, 1), ty);
	src(d, 2, opnd(d, 2), GS_TY_B32);
}

/* sad.u32, sad.s32 d, a, b, c */
static void dec_sad(struct dc *d)
{
	int ty;

	mods(d, B(K_TYPE));
	ty = one_type(d, T_US32);
	op(d, GS_OP_SAD32, GS_EMU_INT);
	d->in->sub = (uint8_t)tysigned(ty);
	operands(d, 4, ty);
}

/* dp4a.atype.btype d, a, b, c */
static void dec_dp4a(struct dc *d)
{
	mods(d, B(K_TYPE));
	if (d->m.nty != 2)
		unsupported(d);
	for (int k = 0; k < 2; k++)
		if (d->m.ty[k] != GS_TY_U32 && d->m.ty[k] != GS_TY_S32)
			unsupported(d);
	op(d, GS_OP_DP4A, GS_EMU_INT);
	d->in->sub = (uint8_t)(tysigned(d->m.ty[0]) | tysigned(d->m.ty[1]) << 1);
	operands(d, 4, GS_TY_B32);
}

/* ---- the instruction table and the function loop ----------------------------------- */

static const struct {
	const char *base;
	void (*dec)(struct dc *d);
} dtab[] = {
	{ "mov", dec_mov },	  { "add", dec_addsub },    { "sub", dec_addsub },
	{ "addc", dec_addsub },	  { "subc", dec_addsub },   { "mul", dec_mul },
	{ "mad", dec_mad },	  { "madc", dec_mad },	    { "fma", dec_fma },
	{ "mul24", dec_24 },	  { "mad24", dec_24 },	    { "div", dec_div },
	{ "rem", dec_rem },	  { "abs", dec_absneg },    { "neg", dec_absneg },
	{ "min", dec_minmax },	  { "max", dec_minmax },    { "and", dec_logic },
	{ "or", dec_logic },	  { "xor", dec_logic },	    { "not", dec_logic },
	{ "cnot", dec_logic },	  { "shl", dec_shift },	    { "shr", dec_shift },
	{ "shf", dec_shf },	  { "bfe", dec_bits },	    { "bfi", dec_bits },
	{ "brev", dec_bits },	  { "popc", dec_bits },	    { "clz", dec_bits },
	{ "bfind", dec_bits },	  { "prmt", dec_bits },	    { "setp", dec_setp },
	{ "set", dec_setp },	  { "selp", dec_selp },	    { "slct", dec_slct },
	{ "testp", dec_testp },	  { "copysign", dec_copysign }, { "rcp", dec_funary },
	{ "sqrt", dec_funary },	  { "rsqrt", dec_funary },  { "sin", dec_funary },
	{ "cos", dec_funary },	  { "lg2", dec_funary },    { "ex2", dec_funary },
	{ "tanh", dec_funary },	  { "cvt", dec_cvt },	    { "cvta", dec_cvta },
	{ "ld", dec_ldst },	  { "ldu", dec_ldst },	    { "st", dec_ldst },
	{ "atom", dec_atom },	  { "red", dec_atom },	    { "bra", dec_bra },
	{ "call", dec_call },	  { "ret", dec_end },	    { "exit", dec_end },
	{ "trap", dec_end },	  { "brkpt", dec_end },	    { "bar", dec_bar },
	{ "barrier", dec_bar },	  { "membar", dec_nop },    { "fence", dec_nop },
	{ "nanosleep", dec_nop }, { "prefetch", dec_nop },  { "prefetchu", dec_nop },
	{ "griddepcontrol", dec_nop }, { "pmevent", dec_nop }, { "shfl", dec_shfl },
	{ "vote", dec_vote },	  { "activemask", dec_activemask }, { "redux", dec_redux },
	{ "sad", dec_sad },	  { "dp4a", dec_dp4a },
};

int gs_ptxl_lookup_var(const struct gs_ptxl *L, int f, const char *name)
{
	int v = f >= 0 ? gs_ptxl_map_get(&L->fn[f].syms, name) : -1;

	return v >= 0 ? v : gs_ptxl_map_get(&L->varmap, name);
}

/* the offset of an opcode's text in the string pool (each text once) */
static uint32_t intern(struct gs_ptxl *L, const char *text)
{
	int off = gs_ptxl_map_get(&L->strmap, text);

	if (off < 0) {
		off = (int)L->strings.len;
		gs_buf_put(&L->strings, text, strlen(text) + 1);
		gs_ptxl_map_put(&L->strmap, text, off);
	}
	return (uint32_t)off;
}

/* a new instruction at the end of the code, its rf mask cleared */
static struct gs_ins *new_ins(struct gs_ptxl *L, uint32_t line, const char *text)
{
	struct gs_ptx_module *m = L->m;
	size_t cap = L->capcode;
	struct gs_ins *in;

	gs_grow(&m->code, &L->capcode, m->ncode + 1, sizeof(*m->code));
	gs_grow(&L->rfmask, &cap, m->ncode + 1, sizeof(*L->rfmask));
	in = &m->code[m->ncode];
	memset(in, 0, sizeof(*in));
	L->rfmask[m->ncode] = 0;
	m->ncode++;
	in->guard = -1;
	in->tgt = -1;
	in->rpc = -1;
	in->line = line;
	in->text = intern(L, text);
	for (int i = 0; i < 6; i++)
		in->o[i] = GS_NONE;
	return in;
}

static int falls_through(const struct gs_ins *in)
{
	if (in->guard >= 0)
		return 1;
	return in->op != GS_OP_BRA && in->op != GS_OP_RET && in->op != GS_OP_EXIT &&
	       in->op != GS_OP_TRAP;
}

void gs_ptxl_decode(struct gs_ptxl *L, int f)
{
	struct gs_ptx_module *m = L->m;
	struct gs_ptxl_fn *F = &L->fn[f];
	struct gs_ptxl_map *labels = &L->labels; /* in L: errors longjmp past this frame */
	int32_t pc = (int32_t)m->ncode;
	int end_label = 0;
	char base[32];

	m->funcs[f].pc0 = pc;
	for (size_t i = 0; i < F->nst; i++) {
		const struct gs_ptxl_stmt *s = &F->st[i];

		if (s->kind == GS_PS_INS) {
			pc++;
		} else if (s->kind == GS_PS_LABEL) {
			if (gs_ptxl_map_get(labels, s->text) >= 0)
				gs_ptxl_fail(L, "cannot parse: label '%s' redefined at line %u",
					     s->text, s->line);
			gs_ptxl_map_put(labels, s->text, pc);
		}
	}
	/* a label may stand after the last instruction: it needs one there */
	for (size_t i = F->nst; i-- > 0;) {
		if (F->st[i].kind == GS_PS_INS)
			break;
		if (F->st[i].kind == GS_PS_LABEL)
			end_label = 1;
	}
	for (size_t i = 0; i < F->nst; i++) {
		const struct gs_ptxl_stmt *s = &F->st[i];
		struct dc d;
		size_t n, k;

		if (s->kind != GS_PS_INS)
			continue;
		memset(&d, 0, sizeof(d));
		d.L = L;
		d.f = f;
		d.F = F;
		d.s = s;
		d.labels = labels;
		d.in = new_ins(L, s->line, s->text);
		d.mask = &L->rfmask[m->ncode - 1];
		n = strcspn(s->text, ".");
		if (n >= sizeof base)
			unsupported(&d);
		memcpy(base, s->text, n);
		base[n] = 0;
		d.base = base;
		if (s->guard >= 0) {
			d.in->guard = (int32_t)pred_id(&d, s->guard);
			d.in->gneg = s->gneg;
		}
		for (k = 0; k < GS_ARRAY_SIZE(dtab) && strcmp(dtab[k].base, base) != 0; k++)
			;
		if (k == GS_ARRAY_SIZE(dtab))
			unsupported(&d);
		dtab[k].dec(&d);
	}
	if (m->ncode == (size_t)m->funcs[f].pc0 || end_label ||
	    falls_through(&m->code[m->ncode - 1])) {
		int entry = m->funcs[f].entry;
		struct gs_ins *in = new_ins(L, F->close_line, entry ? "exit" : "ret");

		in->op = entry ? GS_OP_EXIT : GS_OP_RET;
		in->cls = GS_EMU_CTRL;
	}
	m->funcs[f].pc1 = (int32_t)m->ncode;
	gs_ptxl_map_release(labels);
}
