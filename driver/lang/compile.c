/* compile.c — expression trees to bytecode, with static type checking.
 *
 * Types are sets of possible runtime types (masks).  An operation is a type
 * error at compile time only when no combination of its operands' possible
 * types is valid, so the checker never rejects what Python would accept; the
 * evaluator still checks every operation at run time. */
#include "lang/builtins.h"
#include "lang/expr.h"
#include "lang/lex.h"
#include "lang/opcodes.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LOCALS 64

struct local {
	const char *name;
	int slot;
	unsigned type;
};

struct cstate {
	struct gs_code *c;
	const struct gs_scope *sc;
	struct gs_diag *d;
	int errors;
	size_t ops_cap, consts_cap, globals_cap;
	int sp, maxsp;
	struct local locals[MAX_LOCALS];
	int nlocals;   /* in scope now */
	int nslots;    /* local slots used so far */
};

static size_t emit(struct cstate *s, enum gs_op op, uint32_t arg, struct gs_loc loc, int delta)
{
	struct gs_code *c = s->c;
	size_t cap = s->ops_cap;
	gs_grow(&c->ops, &s->ops_cap, c->nops + 1, sizeof(*c->ops));
	gs_grow(&c->locs, &cap, c->nops + 1, sizeof(*c->locs));
	c->ops[c->nops] = (uint32_t)op | (arg << 8);
	c->locs[c->nops] = loc;
	s->sp += delta;
	if (s->sp > s->maxsp)
		s->maxsp = s->sp;
	return c->nops++;
}

static void patch(struct cstate *s, size_t at, size_t target)
{
	s->c->ops[at] = GS_OP(s->c->ops[at]) | ((uint32_t)target << 8);
}

static size_t here(struct cstate *s)
{
	return s->c->nops;
}

static void emit_const(struct cstate *s, struct gs_value v, struct gs_loc loc)
{
	struct gs_code *c = s->c;
	gs_grow(&c->consts, &s->consts_cap, c->nconsts + 1, sizeof(*c->consts));
	c->consts[c->nconsts] = gs_value_persist(&c->arena, v);
	emit(s, GS_OP_CONST, (uint32_t)c->nconsts++, loc, 1);
}

static void add_global(struct cstate *s, int g)
{
	struct gs_code *c = s->c;
	for (size_t i = 0; i < c->nglobals; i++)
		if (c->globals[i] == g)
			return;
	gs_grow(&c->globals, &s->globals_cap, c->nglobals + 1, sizeof(*c->globals));
	size_t i = c->nglobals++;
	while (i > 0 && c->globals[i - 1] > g) {
		c->globals[i] = c->globals[i - 1];
		i--;
	}
	c->globals[i] = g;
}

static void error(struct cstate *s, struct gs_loc loc, const char *fmt, ...) GS_PRINTF(3, 4);
static void error(struct cstate *s, struct gs_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gs_diag_vadd(s->d, GS_ERROR, loc, fmt, ap);
	va_end(ap);
	s->errors++;
}

/* Result type of a binary operator on single runtime types, or 0 if Python
 * would raise TypeError. */
static unsigned binop_type(int op, int a, int b)
{
	int an = a == GS_V_BOOL || a == GS_V_INT || a == GS_V_FLOAT;
	int bn = b == GS_V_BOOL || b == GS_V_INT || b == GS_V_FLOAT;
	int ai = a == GS_V_BOOL || a == GS_V_INT;
	int bi = b == GS_V_BOOL || b == GS_V_INT;
	int seqa = a == GS_V_STR || a == GS_V_LIST;
	switch (op) {
	case GS_TOK_PLUS:
		if (an && bn)
			return (a == GS_V_FLOAT || b == GS_V_FLOAT) ? GS_T(FLOAT) : GS_T(INT);
		if (seqa && a == b)
			return 1u << a;
		return 0;
	case GS_TOK_STAR:
		if (an && bn)
			return (a == GS_V_FLOAT || b == GS_V_FLOAT) ? GS_T(FLOAT) : GS_T(INT);
		if (seqa && bi)
			return 1u << a;
		if (ai && (b == GS_V_STR || b == GS_V_LIST))
			return 1u << b;
		return 0;
	case GS_TOK_MINUS:
	case GS_TOK_DSLASH:
	case GS_TOK_PERCENT:
		if (an && bn)
			return (a == GS_V_FLOAT || b == GS_V_FLOAT) ? GS_T(FLOAT) : GS_T(INT);
		return 0;
	case GS_TOK_POW:
		if (an && bn)
			return (a == GS_V_FLOAT || b == GS_V_FLOAT) ? GS_T(FLOAT)
								     : GS_T(INT) | GS_T(FLOAT);
		return 0;
	case GS_TOK_SLASH:
		return an && bn ? GS_T(FLOAT) : 0;
	case GS_TOK_AMP:
	case GS_TOK_PIPE:
	case GS_TOK_CARET:
		if (a == GS_V_BOOL && b == GS_V_BOOL)
			return GS_T(BOOL);
		return ai && bi ? GS_T(INT) : 0;
	case GS_TOK_LSHIFT:
	case GS_TOK_RSHIFT:
		return ai && bi ? GS_T(INT) : 0;
	}
	return 0;
}

static int cmp_ok(int op, int a, int b)
{
	int an = a == GS_V_BOOL || a == GS_V_INT || a == GS_V_FLOAT;
	int bn = b == GS_V_BOOL || b == GS_V_INT || b == GS_V_FLOAT;
	switch (op) {
	case GS_TOK_EQ:
	case GS_TOK_NE:
	case GS_TOK_IS:
		return 1;
	case GS_TOK_IN:
		if (b == GS_V_STR)
			return a == GS_V_STR;
		return b == GS_V_LIST || b == GS_V_RANGE;
	default: /* ordering */
		if (an && bn)
			return 1;
		return (a == GS_V_STR || a == GS_V_LIST) && a == b;
	}
}

static const char *op_text(int tok)
{
	switch (tok) {
	case GS_TOK_IN: return "in";
	case GS_TOK_IS: return "is";
	default: {
		const char *n = gs_tok_name(tok);
		static char buf[8];
		size_t l = strlen(n);
		if (l >= 2 && n[0] == '\'' && l - 2 < sizeof buf) {
			memcpy(buf, n + 1, l - 2);
			buf[l - 2] = 0;
			return buf;
		}
		return n;
	}
	}
}

static const char *type_word(unsigned m)
{
	return gs_tmask_name(m);
}

static unsigned expr(struct cstate *s, const struct gs_expr *e);

static unsigned check_binop(struct cstate *s, const struct gs_expr *e, int op, unsigned ta,
			    unsigned tb)
{
	unsigned res = 0;
	for (int a = 0; a < 8; a++)
		for (int b = 0; b < 8; b++)
			if ((ta & (1u << a)) && (tb & (1u << b)))
				res |= binop_type(op, a, b);
	if (!res && ta && tb)
		error(s, e->loc, "unsupported operand types for %s: '%s' and '%s'", op_text(op),
		      type_word(ta), type_word(tb));
	return res ? res : GS_T_ANY;
}

static int find_local(struct cstate *s, const char *name)
{
	for (int i = s->nlocals - 1; i >= 0; i--)
		if (!strcmp(s->locals[i].name, name))
			return i;
	return -1;
}

static unsigned name(struct cstate *s, const struct gs_expr *e)
{
	int li = find_local(s, e->name);
	if (li >= 0) {
		emit(s, GS_OP_LOCAL, (uint32_t)s->locals[li].slot, e->loc, 1);
		return s->locals[li].type;
	}
	unsigned type = GS_T_ANY;
	int g = s->sc && s->sc->resolve ? s->sc->resolve(s->sc->ctx, e->name, e->loc, &type) : -1;
	if (g >= 0) {
		add_global(s, g);
		emit(s, GS_OP_GLOBAL, (uint32_t)g, e->loc, 1);
		return type;
	}
	if (g == -2) {
		/* the resolver reported the error itself */
		s->errors++;
		emit(s, GS_OP_CONST, 0, e->loc, 1);
		return GS_T_ANY;
	}
	struct gs_value v;
	if (gs_builtin_const(e->name, &v) == 0) {
		emit_const(s, v, e->loc);
		return 1u << v.t;
	}
	if (gs_builtin_lookup(e->name) >= 0) {
		error(s, e->loc, "builtin '%s' must be called", e->name);
	} else {
		error(s, e->loc, "unknown name '%s'", e->name);
		const char *cands[256];
		size_t n = 0;
		for (int i = 0; i < s->nlocals && n < 64; i++)
			cands[n++] = s->locals[i].name;
		if (s->sc)
			for (size_t i = 0; i < s->sc->nnames && n < 192; i++)
				cands[n++] = s->sc->names[i];
		n += gs_builtin_names(cands + n, GS_ARRAY_SIZE(cands) - n);
		gs_diag_suggest(s->d, e->loc, e->name, cands, n);
	}
	emit_const(s, gs_none(), e->loc);
	return GS_T_ANY;
}

static unsigned call(struct cstate *s, const struct gs_expr *e)
{
	int b = gs_builtin_lookup(e->name);
	static const struct {
		int lo, hi;
	} arity[] = {
#define X(id, name, lo, hi) { lo, hi },
		GS_BUILTINS(X)
#undef X
	};
	if (b < 0) {
		error(s, e->loc, "unknown function '%s'", e->name);
		const char *cands[64];
		size_t n = gs_builtin_names(cands, GS_ARRAY_SIZE(cands));
		gs_diag_suggest(s->d, e->loc, e->name, cands, n);
	}
	unsigned targ[4] = { 0, 0, 0, 0 };
	for (size_t i = 0; i < e->n; i++) {
		if (e->kwnames && e->kwnames[i])
			error(s, e->items[i]->loc, "keyword arguments are not supported here");
		unsigned t = expr(s, e->items[i]);
		if (i < 4)
			targ[i] = t;
	}
	if (b < 0) {
		emit(s, GS_OP_CALL, 0, e->loc, 1 - (int)e->n);
		return GS_T_ANY;
	}
	if ((int)e->n < arity[b].lo || (int)e->n > arity[b].hi) {
		if (arity[b].lo == arity[b].hi)
			error(s, e->loc, "%s() takes %d argument%s (%zu given)", e->name, arity[b].lo,
			      arity[b].lo == 1 ? "" : "s", e->n);
		else
			error(s, e->loc, "%s() takes %d to %d arguments (%zu given)", e->name,
			      arity[b].lo, arity[b].hi, e->n);
	}
	emit(s, GS_OP_CALL, ((uint32_t)b << 8) | (uint32_t)e->n, e->loc, 1 - (int)e->n);
	switch (b) {
	case GS_B_RANGE:
		for (size_t i = 0; i < e->n && i < 3; i++)
			if (!(targ[i] & (GS_T(INT) | GS_T(BOOL))))
				error(s, e->items[i]->loc, "range() needs integers, not '%s'",
				      type_word(targ[i]));
		return GS_T(RANGE);
	case GS_B_LEN:
	case GS_B_INT:
	GS_ROUNDING_BUILTINS(GS_BUILTIN_CASE)
	case GS_B_ISQRT:
	case GS_B_GCD:
	case GS_B_LCM:
		return GS_T(INT);
	case GS_B_FLOAT:
	GS_MATH_BUILTINS(GS_BUILTIN_CASE)
		if (b != GS_B_FLOAT && e->n >= 1 && !(targ[0] & GS_T_NUM))
			error(s, e->items[0]->loc, "%s() needs a number, not '%s'", e->name,
			      type_word(targ[0]));
		return GS_T(FLOAT);
	case GS_B_BOOL:
	case GS_B_ANY:
	case GS_B_ALL:
	case GS_B_ISPOW2:
		return GS_T(BOOL);
	case GS_B_STR:
		return GS_T(STR);
	case GS_B_LIST:
	case GS_B_SORTED:
	case GS_B_DIVMOD:
		return GS_T(LIST);
	case GS_B_ABS:
		return targ[0] & (GS_T(INT) | GS_T(FLOAT) | GS_T(BOOL)) ? (targ[0] & GS_T(FLOAT)) |
									   (targ[0] & (GS_T(INT) | GS_T(BOOL)) ? GS_T(INT) : 0)
								 : GS_T_ANY;
	case GS_B_ROUND:
		return e->n == 1 ? GS_T(INT) : GS_T(INT) | GS_T(FLOAT);
	case GS_B_MIN:
	case GS_B_MAX:
		if (e->n >= 2) {
			unsigned t = 0;
			for (size_t i = 0; i < e->n && i < 4; i++)
				t |= targ[i];
			return e->n > 4 ? GS_T_ANY : t;
		}
		return GS_T_ANY;
	default:
		return GS_T(INT) | GS_T(FLOAT);
	}
}

static int new_local(struct cstate *s, struct gs_loc loc)
{
	if (s->nslots >= 1 << 20) {
		error(s, loc, "expression too complex");
		return 0;
	}
	return s->nslots++;
}

/* Not inlined in expr(): its loop arrays would enlarge every level's frame. */
__attribute__((noinline)) static unsigned comp(struct cstate *s, const struct gs_expr *e)
{
	int res = new_local(s, e->loc);
	emit(s, GS_OP_LIST, 0, e->loc, 1);
	emit(s, GS_OP_SETLOCAL, (uint32_t)res, e->loc, -1);
	int saved = s->nlocals;
	size_t loops[64], exits[64];
	size_t nf = e->nfors < 64 ? e->nfors : 64;
	if (e->nfors > 64)
		error(s, e->loc, "too many 'for' clauses");
	for (size_t i = 0; i < nf; i++) {
		const struct gs_compfor *f = &e->fors[i];
		unsigned it = expr(s, f->iter);
		if (!(it & (GS_T_SEQ)))
			error(s, f->iter->loc, "'%s' is not iterable", type_word(it));
		emit(s, GS_OP_ITER, 0, f->iter->loc, 0);
		loops[i] = here(s);
		exits[i] = emit(s, GS_OP_NEXT, 0, f->iter->loc, 1);
		if (s->nlocals >= MAX_LOCALS) {
			error(s, f->var_loc, "too many nested comprehension variables");
		} else {
			int slot = new_local(s, f->var_loc);
			unsigned et = it == GS_T(RANGE) ? GS_T(INT) : it == GS_T(STR) ? GS_T(STR) : GS_T_ANY;
			s->locals[s->nlocals++] = (struct local){ f->var, slot, et };
			emit(s, GS_OP_SETLOCAL, (uint32_t)slot, f->var_loc, -1);
		}
		for (size_t k = 0; k < f->nconds; k++) {
			expr(s, f->conds[k]);
			size_t j = emit(s, GS_OP_JMPF, 0, f->conds[k]->loc, -1);
			patch(s, j, loops[i]);
		}
	}
	expr(s, e->a);
	emit(s, GS_OP_APPEND, (uint32_t)res, e->loc, -1);
	for (size_t i = nf; i-- > 0;) {
		emit(s, GS_OP_JMP, (uint32_t)loops[i], e->loc, 0);
		patch(s, exits[i], here(s));
		s->sp -= 1; /* the iterator popped at exhaustion */
	}
	s->nlocals = saved;
	emit(s, GS_OP_LOCAL, (uint32_t)res, e->loc, 1);
	return GS_T(LIST);
}

/* Nodes whose left operand is compiled first and may be the same kind of
 * node again: a+b+c+..., a and b and ..., x[0][0]...  Such a chain is as deep
 * as it is long, so expr() walks it with a loop and calls chain_tail() on
 * each link from the innermost out. */
static int chain_link(const struct gs_expr *e)
{
	return e->kind == GS_E_BINARY || e->kind == GS_E_AND || e->kind == GS_E_OR ||
	       e->kind == GS_E_INDEX || e->kind == GS_E_SLICE;
}

/* The rest of a chain link once its left operand (of type ta) is compiled. */
static unsigned chain_tail(struct cstate *s, const struct gs_expr *e, unsigned ta)
{
	switch (e->kind) {
	case GS_E_BINARY: {
		unsigned tb = expr(s, e->b);
		emit(s, GS_OP_BINOP, e->op, e->loc, -1);
		return check_binop(s, e, e->op, ta, tb);
	}
	case GS_E_AND:
	case GS_E_OR: {
		size_t j = emit(s, e->kind == GS_E_AND ? GS_OP_JAND : GS_OP_JOR, 0, e->loc, -1);
		unsigned tb = expr(s, e->b);
		patch(s, j, here(s));
		return ta | tb;
	}
	case GS_E_INDEX: {
		unsigned ti = expr(s, e->b);
		if (!(ta & GS_T_SEQ))
			error(s, e->loc, "'%s' is not subscriptable", type_word(ta));
		else if (!(ti & (GS_T(INT) | GS_T(BOOL))))
			error(s, e->b->loc, "indices must be integers, not '%s'", type_word(ti));
		emit(s, GS_OP_INDEX, 0, e->loc, -1);
		if (ta == GS_T(STR))
			return GS_T(STR);
		if (ta == GS_T(RANGE))
			return GS_T(INT);
		return GS_T_ANY;
	}
	case GS_E_SLICE: {
		const struct gs_expr *parts[3] = { e->b, e->c, e->d };
		for (int i = 0; i < 3; i++) {
			if (parts[i]) {
				unsigned t = expr(s, parts[i]);
				if (!(t & (GS_T(INT) | GS_T(BOOL) | GS_T(NONE))))
					error(s, parts[i]->loc,
					      "slice indices must be integers, not '%s'",
					      type_word(t));
			} else {
				emit_const(s, gs_none(), e->loc);
			}
		}
		if (!(ta & GS_T_SEQ))
			error(s, e->loc, "'%s' is not subscriptable", type_word(ta));
		emit(s, GS_OP_SLICE, 0, e->loc, -3);
		return ta == GS_T(STR) ? GS_T(STR) : GS_T(LIST);
	}
	}
	return GS_T_ANY;
}

/* a < b < c: evaluate b once, keep it in a local for the next link.  Not
 * inlined in expr(), whose frame every level of nesting pays for. */
__attribute__((noinline)) static unsigned cmp_chain(struct cstate *s, const struct gs_expr *e)
{
	size_t jumps[256];
	size_t nj = 0;
	unsigned tl = expr(s, e->items[0]);
	for (size_t i = 0; i + 1 < e->n; i++) {
		unsigned tr = expr(s, e->items[i + 1]);
		int last = i + 2 == e->n;
		int tmp = 0;
		if (!last) {
			tmp = new_local(s, e->loc);
			emit(s, GS_OP_SETLOCAL, (uint32_t)tmp, e->loc, -1);
			emit(s, GS_OP_LOCAL, (uint32_t)tmp, e->loc, 1);
		}
		/* the tree keeps negation (not in, is not) in bit 7 */
		int base = e->cmpops[i] & 0x7f;
		unsigned op = (unsigned)base | (e->cmpops[i] & 0x80 ? GS_CMP_NEGATE : 0);
		int ok = 0;
		for (int a = 0; a < 8; a++)
			for (int b = 0; b < 8; b++)
				if ((tl & (1u << a)) && (tr & (1u << b)) && cmp_ok(base, a, b))
					ok = 1;
		if (!ok && tl && tr) {
			if (base == GS_TOK_IN)
				error(s, e->items[i + 1]->loc,
				      "argument of type '%s' is not a container",
				      type_word(tr));
			else
				error(s, e->loc, "'%s' not supported between '%s' and '%s'",
				      op_text(base), type_word(tl), type_word(tr));
		}
		emit(s, GS_OP_CMP, op, e->loc, -1);
		if (!last) {
			if (nj < GS_ARRAY_SIZE(jumps))
				jumps[nj++] = emit(s, GS_OP_JAND, 0, e->loc, -1);
			else
				error(s, e->loc, "comparison chain too long");
			emit(s, GS_OP_LOCAL, (uint32_t)tmp, e->loc, 1);
		}
		tl = tr;
	}
	for (size_t i = 0; i < nj; i++)
		patch(s, jumps[i], here(s));
	return GS_T(BOOL);
}

static unsigned expr(struct cstate *s, const struct gs_expr *e)
{
	if (chain_link(e)) {
		const struct gs_expr **links = NULL;
		size_t n = 0, cap = 0;
		for (; chain_link(e); e = e->a) {
			gs_grow(&links, &cap, n + 1, sizeof(*links));
			links[n++] = e;
		}
		unsigned t = expr(s, e);
		while (n > 0)
			t = chain_tail(s, links[--n], t);
		free(links);
		return t;
	}
	switch (e->kind) {
	case GS_E_CONST:
		emit_const(s, e->k, e->loc);
		return 1u << e->k.t;
	case GS_E_NAME:
		return name(s, e);
	case GS_E_LIST:
		for (size_t i = 0; i < e->n; i++)
			expr(s, e->items[i]);
		if (e->n >= 1 << 24)
			error(s, e->loc, "list literal too long");
		emit(s, GS_OP_LIST, (uint32_t)e->n, e->loc, 1 - (int)e->n);
		return GS_T(LIST);
	case GS_E_COMP:
		return comp(s, e);
	case GS_E_UNARY: {
		unsigned t = expr(s, e->a);
		unsigned r = 0;
		if (e->op == GS_TOK_TILDE) {
			if (t & (GS_T(INT) | GS_T(BOOL)))
				r = GS_T(INT);
		} else {
			if (t & (GS_T(INT) | GS_T(BOOL)))
				r |= GS_T(INT);
			if (t & GS_T(FLOAT))
				r |= GS_T(FLOAT);
		}
		if (!r)
			error(s, e->loc, "bad operand type for unary %s: '%s'", op_text(e->op),
			      type_word(t));
		emit(s, GS_OP_UNARY, e->op, e->loc, 0);
		return r ? r : GS_T_ANY;
	}
	case GS_E_NOT:
		expr(s, e->a);
		emit(s, GS_OP_NOT, 0, e->loc, 0);
		return GS_T(BOOL);
	case GS_E_CMP:
		return cmp_chain(s, e);
	case GS_E_IFELSE: {
		expr(s, e->a);
		size_t jf = emit(s, GS_OP_JMPF, 0, e->loc, -1);
		unsigned tb = expr(s, e->b);
		size_t je = emit(s, GS_OP_JMP, 0, e->loc, 0);
		s->sp -= 1;
		patch(s, jf, here(s));
		unsigned tc = expr(s, e->c);
		patch(s, je, here(s));
		return tb | tc;
	}
	case GS_E_CALL:
		return call(s, e);
	}
	return GS_T_ANY;
}

struct gs_code *gs_expr_compile(const struct gs_expr *e, const struct gs_scope *sc,
				struct gs_diag *d)
{
	struct gs_code *c = gs_xcalloc(1, sizeof(*c));
	struct cstate s;
	memset(&s, 0, sizeof s);
	s.c = c;
	s.sc = sc;
	s.d = d;
	c->type = expr(&s, e);
	emit(&s, GS_OP_RET, 0, e->loc, -1);
	c->nlocals = (uint32_t)s.nslots;
	c->maxstack = (uint32_t)s.maxsp + 4;
	if (s.errors) {
		gs_code_free(c);
		return NULL;
	}
	return c;
}

void gs_code_free(struct gs_code *c)
{
	if (!c)
		return;
	free(c->ops);
	free(c->locs);
	free(c->consts);
	free(c->globals);
	gs_arena_release(&c->arena);
	free(c);
}
