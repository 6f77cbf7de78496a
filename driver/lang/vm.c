/* vm.c — the expression evaluator: one switch over pre-compiled ops.
 *
 * Semantics follow Python 3 for the subset: floor division and modulo take the
 * divisor's sign, `/` is true division, bool is numeric.  Integers are 64-bit
 * and overflow is an error rather than a silent wrap: a constraint that
 * overflows is a bug in the space, and the user must hear of it. */
#define _GNU_SOURCE
#include "lang/builtins.h"
#include "lang/expr.h"
#include "lang/lex.h"
#include "lang/opcodes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STEPS 100000000ull  /* per evaluation: loop iterations and list items */
#define MAX_LIST (1u << 24)     /* elements in one list */
/* Bytes in one string.  s = s + s doubles, so a few lines of a space file
 * could otherwise ask for gigabytes. */
#define MAX_STR ((size_t)1 << 20)
#define MAX_STR_TEXT "1 MiB"
/* Bytes of temporaries alive at once in one evaluator, that is between two
 * resets (one configuration's lets and conditions): many strings or lists,
 * each under its own limit, must not add up to an exhausted host either.  The
 * evaluation that runs past it fails and frees what it made, so the next one
 * is not blamed for it. */
#define MAX_MEM ((size_t)512 << 20)
#define MAX_MEM_TEXT "512 MiB"

void gs_vm_init(struct gs_vm *vm)
{
	memset(vm, 0, sizeof(*vm));
	vm->base = gs_arena_mark(&vm->scratch);
}

void gs_vm_release(struct gs_vm *vm)
{
	free(vm->stack);
	free(vm->locals);
	gs_arena_release(&vm->scratch);
}

void gs_vm_reset(struct gs_vm *vm)
{
	gs_arena_reset(&vm->scratch, vm->base);
}

/* Errors jump out of the dispatch loop through this flag-setting helper. */
static int fail(struct gs_vm *vm, struct gs_loc loc, const char *fmt, ...) GS_PRINTF(3, 4);
static int fail(struct gs_vm *vm, struct gs_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(vm->err, sizeof vm->err, fmt, ap);
	va_end(ap);
	vm->err_loc = loc;
	return -1;
}

/* memcpy with a NULL pointer is undefined even for 0 bytes; empty lists have one */
static void copy_vals(struct gs_value *dst, const struct gs_value *src, size_t n)
{
	if (n)
		memcpy(dst, src, n * sizeof(*dst));
}

static int is_int(struct gs_value v)
{
	return v.t == GS_V_INT || v.t == GS_V_BOOL;
}

static int is_num(struct gs_value v)
{
	return is_int(v) || v.t == GS_V_FLOAT;
}

static double num(struct gs_value v)
{
	return v.t == GS_V_FLOAT ? v.f : (double)v.i;
}

static const char *tname(struct gs_value v)
{
	return gs_vtype_name(v.t);
}

/* ---- sequences ---------------------------------------------------------- */

static int64_t seq_len(struct gs_value v)
{
	switch (v.t) {
	case GS_V_LIST: return (int64_t)v.l->n;
	case GS_V_RANGE: return gs_range_len(v.r);
	case GS_V_STR: return (int64_t)v.s->len;
	default: return -1;
	}
}

/* Materialise any iterable as a list (strings by UTF-8 character). */
static int to_list(struct gs_vm *vm, struct gs_loc loc, struct gs_value v, struct gs_value *out)
{
	if (v.t == GS_V_LIST) {
		*out = v;
		return 0;
	}
	if (v.t == GS_V_RANGE) {
		int64_t n = gs_range_len(v.r);
		if (n > (int64_t)MAX_LIST)
			return fail(vm, loc, "range too large to materialise (%lld items)",
				    (long long)n);
		*out = gs_list_new(&vm->scratch, (size_t)n);
		for (int64_t i = 0; i < n; i++)
			out->l->v[i] = gs_int(v.r->start + i * v.r->step);
		out->l->n = (size_t)n;
		return 0;
	}
	if (v.t == GS_V_STR) {
		*out = gs_list_new(&vm->scratch, v.s->len);
		for (size_t i = 0; i < v.s->len;) {
			size_t k = 1;
			while (i + k < v.s->len && ((unsigned char)v.s->s[i + k] & 0xC0) == 0x80)
				k++;
			out->l->v[out->l->n++] = gs_str_new(&vm->scratch, v.s->s + i, k);
			i += k;
		}
		return 0;
	}
	return fail(vm, loc, "'%s' object is not iterable", tname(v));
}

/* Python ordering: returns <0, 0, >0; -2 with an error when unorderable. */
static int order(struct gs_vm *vm, struct gs_loc loc, struct gs_value a, struct gs_value b,
		 int *res)
{
	if (is_int(a) && is_int(b)) {
		*res = (a.i > b.i) - (a.i < b.i);
		return 0;
	}
	if (is_num(a) && is_num(b)) {
		double x = num(a), y = num(b);
		if (x != x || y != y) {
			*res = 2; /* NaN: every ordering is false */
			return 0;
		}
		if (is_int(a) != is_int(b)) {
			/* exactly, as Python: doubles above 2**53 do not round the int */
			int64_t i = is_int(a) ? a.i : b.i;
			double f = is_int(a) ? b.f : a.f;
			int c; /* the int against the float */
			if (f >= 9223372036854775808.0)
				c = -1;
			else if (f < -9223372036854775808.0)
				c = 1;
			else {
				double fl = floor(f);
				int64_t fi = (int64_t)fl;
				c = i < fi ? -1 : i > fi ? 1 : (f > fl ? -1 : 0);
			}
			*res = is_int(a) ? c : -c;
			return 0;
		}
		*res = (x > y) - (x < y);
		return 0;
	}
	if (a.t == GS_V_STR && b.t == GS_V_STR) {
		size_t n = a.s->len < b.s->len ? a.s->len : b.s->len;
		int c = memcmp(a.s->s, b.s->s, n);
		*res = c ? (c > 0) - (c < 0) : (a.s->len > b.s->len) - (a.s->len < b.s->len);
		return 0;
	}
	if ((a.t == GS_V_LIST || a.t == GS_V_RANGE) && (b.t == GS_V_LIST || b.t == GS_V_RANGE)) {
		struct gs_value la, lb;
		if (to_list(vm, loc, a, &la) || to_list(vm, loc, b, &lb))
			return -1;
		size_t n = la.l->n < lb.l->n ? la.l->n : lb.l->n;
		for (size_t i = 0; i < n; i++) {
			if (gs_value_eq(la.l->v[i], lb.l->v[i]))
				continue;
			return order(vm, loc, la.l->v[i], lb.l->v[i], res);
		}
		*res = (la.l->n > lb.l->n) - (la.l->n < lb.l->n);
		return 0;
	}
	return fail(vm, loc, "ordering not supported between '%s' and '%s'", tname(a), tname(b));
}

static int contains(struct gs_vm *vm, struct gs_loc loc, struct gs_value item, struct gs_value seq,
		    int *res)
{
	switch (seq.t) {
	case GS_V_LIST:
		for (size_t i = 0; i < seq.l->n; i++)
			if (gs_value_eq(item, seq.l->v[i])) {
				*res = 1;
				return 0;
			}
		*res = 0;
		return 0;
	case GS_V_RANGE: {
		int64_t x;
		if (is_int(item)) {
			x = item.i;
		} else if (item.t == GS_V_FLOAT && item.f == floor(item.f) && fabs(item.f) < 9e18) {
			x = (int64_t)item.f;
		} else {
			*res = 0;
			return 0;
		}
		const struct gs_range *r = seq.r;
		if (r->step > 0)
			*res = x >= r->start && x < r->stop && (x - r->start) % r->step == 0;
		else
			*res = x <= r->start && x > r->stop && (r->start - x) % -r->step == 0;
		return 0;
	}
	case GS_V_STR:
		if (item.t != GS_V_STR)
			return fail(vm, loc, "'in <str>' requires a string as left operand, not '%s'",
				    tname(item));
		*res = memmem(seq.s->s, seq.s->len, item.s->s, item.s->len) != NULL;
		return 0;
	default:
		return fail(vm, loc, "argument of type '%s' is not a container", tname(seq));
	}
}

/* ---- arithmetic ----------------------------------------------------------- */

static int ipow(struct gs_vm *vm, struct gs_loc loc, int64_t a, int64_t b, int64_t *out)
{
	int64_t r = 1;
	while (b > 0) {
		if (b & 1) {
			if (__builtin_mul_overflow(r, a, &r))
				return fail(vm, loc, "integer overflow in '**'");
		}
		b >>= 1;
		if (b && __builtin_mul_overflow(a, a, &a))
			return fail(vm, loc, "integer overflow in '**'");
	}
	*out = r;
	return 0;
}

static double float_floordiv(double x, double y, double *modp)
{
	double mod = fmod(x, y);
	double div = (x - mod) / y;
	if (mod != 0.0) {
		if ((y < 0) != (mod < 0)) {
			mod += y;
			div -= 1.0;
		}
	} else {
		mod = copysign(0.0, y);
	}
	double fd;
	if (div != 0.0) {
		fd = floor(div);
		if (div - fd > 0.5)
			fd += 1.0;
	} else {
		fd = copysign(0.0, x / y);
	}
	if (modp)
		*modp = mod;
	return fd;
}

static int str_too_long(struct gs_vm *vm, struct gs_loc loc)
{
	return fail(vm, loc, "string longer than %s (%zu bytes)", MAX_STR_TEXT, MAX_STR);
}

static int repeat(struct gs_vm *vm, struct gs_loc loc, struct gs_value seq, int64_t n,
		  struct gs_value *out)
{
	if (n < 0)
		n = 0;
	if (seq.t == GS_V_STR) {
		if (n && seq.s->len && (uint64_t)n > (uint64_t)MAX_STR / seq.s->len)
			return str_too_long(vm, loc);
		size_t len = seq.s->len * (size_t)n;
		char *p = gs_arena_alloc(&vm->scratch, len + 1);
		for (int64_t i = 0; i < n; i++)
			memcpy(p + (size_t)i * seq.s->len, seq.s->s, seq.s->len);
		*out = gs_str_new(&vm->scratch, p, len);
		return 0;
	}
	if (n && seq.l->n && (uint64_t)n > (uint64_t)MAX_LIST / seq.l->n)
		return fail(vm, loc, "list too large");
	size_t len = seq.l->n * (size_t)n;
	*out = gs_list_new(&vm->scratch, len);
	for (int64_t i = 0; i < n; i++)
		copy_vals(out->l->v + (size_t)i * seq.l->n, seq.l->v, seq.l->n);
	out->l->n = len;
	return 0;
}

static int binop(struct gs_vm *vm, struct gs_loc loc, int op, struct gs_value a, struct gs_value b,
		 struct gs_value *out)
{
	if (is_int(a) && is_int(b)) {
		int64_t x = a.i, y = b.i, r = 0;
		switch (op) {
		case GS_TOK_PLUS:
			if (__builtin_add_overflow(x, y, &r))
				return fail(vm, loc, "integer overflow in '+'");
			break;
		case GS_TOK_MINUS:
			if (__builtin_sub_overflow(x, y, &r))
				return fail(vm, loc, "integer overflow in '-'");
			break;
		case GS_TOK_STAR:
			if (__builtin_mul_overflow(x, y, &r))
				return fail(vm, loc, "integer overflow in '*'");
			break;
		case GS_TOK_DSLASH:
		case GS_TOK_PERCENT:
			if (y == 0)
				return fail(vm, loc, "integer division or modulo by zero");
			if (x == INT64_MIN && y == -1) {
				if (op == GS_TOK_PERCENT) {
					r = 0;
					break;
				}
				return fail(vm, loc, "integer overflow in '//'");
			}
			if (op == GS_TOK_DSLASH) {
				r = x / y;
				if ((x % y != 0) && ((x < 0) != (y < 0)))
					r--;
			} else {
				r = x % y;
				if (r != 0 && ((r < 0) != (y < 0)))
					r += y;
			}
			break;
		case GS_TOK_SLASH:
			if (y == 0)
				return fail(vm, loc, "division by zero");
			*out = gs_float((double)x / (double)y);
			return 0;
		case GS_TOK_POW:
			if (y < 0) {
				if (x == 0)
					return fail(vm, loc,
						    "0 cannot be raised to a negative power");
				*out = gs_float(pow((double)x, (double)y));
				return 0;
			}
			if (ipow(vm, loc, x, y, &r))
				return -1;
			break;
		case GS_TOK_AMP:
		case GS_TOK_PIPE:
		case GS_TOK_CARET:
			r = op == GS_TOK_AMP ? (x & y) : op == GS_TOK_PIPE ? (x | y) : (x ^ y);
			if (a.t == GS_V_BOOL && b.t == GS_V_BOOL) {
				*out = gs_bool((int)r);
				return 0;
			}
			break;
		case GS_TOK_LSHIFT:
			if (y < 0)
				return fail(vm, loc, "negative shift count");
			if (x == 0) {
				r = 0;
				break;
			}
			/* shifting a negative value left is undefined in C: multiply */
			if (y >= 63 || x > (INT64_MAX >> y) || x < (INT64_MIN >> y))
				return fail(vm, loc, "integer overflow in '<<'");
			r = (int64_t)((uint64_t)x << y);
			break;
		case GS_TOK_RSHIFT:
			if (y < 0)
				return fail(vm, loc, "negative shift count");
			r = y >= 63 ? (x < 0 ? -1 : 0) : x >> y;
			break;
		default:
			return fail(vm, loc, "bad operator");
		}
		*out = gs_int(r);
		return 0;
	}
	if (is_num(a) && is_num(b)) {
		double x = num(a), y = num(b);
		switch (op) {
		case GS_TOK_PLUS: *out = gs_float(x + y); return 0;
		case GS_TOK_MINUS: *out = gs_float(x - y); return 0;
		case GS_TOK_STAR: *out = gs_float(x * y); return 0;
		case GS_TOK_SLASH:
			if (y == 0)
				return fail(vm, loc, "float division by zero");
			*out = gs_float(x / y);
			return 0;
		case GS_TOK_DSLASH:
		case GS_TOK_PERCENT: {
			if (y == 0)
				return fail(vm, loc, "float floor division or modulo by zero");
			double mod, q = float_floordiv(x, y, &mod);
			*out = gs_float(op == GS_TOK_DSLASH ? q : mod);
			return 0;
		}
		case GS_TOK_POW:
			if (x == 0 && y < 0)
				return fail(vm, loc, "0.0 cannot be raised to a negative power");
			if (x < 0 && y != floor(y))
				return fail(vm, loc, "negative number raised to a fractional power");
			*out = gs_float(pow(x, y));
			if (isinf(out->f) && !isinf(x))
				return fail(vm, loc, "float overflow in '**'");
			return 0;
		default:
			break;
		}
	}
	if (op == GS_TOK_PLUS && a.t == b.t && a.t == GS_V_STR) {
		size_t n = a.s->len + b.s->len;
		if (n > MAX_STR)
			return str_too_long(vm, loc);
		char *p = gs_arena_alloc(&vm->scratch, n + 1);
		memcpy(p, a.s->s, a.s->len);
		memcpy(p + a.s->len, b.s->s, b.s->len);
		*out = gs_str_new(&vm->scratch, p, n);
		return 0;
	}
	if (op == GS_TOK_PLUS && a.t == b.t && a.t == GS_V_LIST) {
		if (a.l->n + b.l->n > MAX_LIST)
			return fail(vm, loc, "list too large");
		*out = gs_list_new(&vm->scratch, a.l->n + b.l->n);
		copy_vals(out->l->v, a.l->v, a.l->n);
		copy_vals(out->l->v + a.l->n, b.l->v, b.l->n);
		out->l->n = a.l->n + b.l->n;
		return 0;
	}
	if (op == GS_TOK_STAR && (a.t == GS_V_STR || a.t == GS_V_LIST) && is_int(b))
		return repeat(vm, loc, a, b.i, out);
	if (op == GS_TOK_STAR && (b.t == GS_V_STR || b.t == GS_V_LIST) && is_int(a))
		return repeat(vm, loc, b, a.i, out);
	const char *n = gs_tok_name(op);
	return fail(vm, loc, "unsupported operand types for %.*s: '%s' and '%s'",
		    (int)strlen(n) - 2, n + 1, tname(a), tname(b));
}

static int compare(struct gs_vm *vm, struct gs_loc loc, unsigned op, struct gs_value a,
		   struct gs_value b, struct gs_value *out)
{
	int neg = (op & GS_CMP_NEGATE) != 0, r = 0, c;
	switch (op & 0xff) {
	case GS_TOK_EQ: r = gs_value_eq(a, b); break;
	case GS_TOK_NE: r = !gs_value_eq(a, b); break;
	case GS_TOK_IS: r = a.t == b.t && gs_value_eq(a, b); break;
	case GS_TOK_IN:
		if (contains(vm, loc, a, b, &r))
			return -1;
		break;
	default:
		if (is_int(a) && is_int(b)) {
			c = (a.i > b.i) - (a.i < b.i);
		} else if (order(vm, loc, a, b, &c)) {
			return -1;
		}
		if (c == 2) { /* NaN */
			r = 0;
			break;
		}
		switch (op & 0xff) {
		case GS_TOK_LT: r = c < 0; break;
		case GS_TOK_LE: r = c <= 0; break;
		case GS_TOK_GT: r = c > 0; break;
		case GS_TOK_GE: r = c >= 0; break;
		}
	}
	*out = gs_bool(neg ? !r : r);
	return 0;
}

static int64_t norm_index(int64_t i, int64_t n)
{
	return i < 0 ? i + n : i;
}

static int index_value(struct gs_vm *vm, struct gs_loc loc, struct gs_value a, struct gs_value i,
		       struct gs_value *out)
{
	if (!is_int(i))
		return fail(vm, loc, "indices must be integers, not '%s'", tname(i));
	int64_t n = seq_len(a);
	if (n < 0)
		return fail(vm, loc, "'%s' object is not subscriptable", tname(a));
	int64_t k = norm_index(i.i, n);
	if (k < 0 || k >= n)
		return fail(vm, loc, "index %lld out of range (length %lld)", (long long)i.i,
			    (long long)n);
	if (a.t == GS_V_LIST)
		*out = a.l->v[k];
	else if (a.t == GS_V_RANGE)
		*out = gs_int(a.r->start + k * a.r->step);
	else
		*out = gs_str_new(&vm->scratch, a.s->s + k, 1);
	return 0;
}

static int slice_value(struct gs_vm *vm, struct gs_loc loc, struct gs_value a, struct gs_value lo,
		       struct gs_value hi, struct gs_value st, struct gs_value *out)
{
	int64_t n = seq_len(a);
	if (n < 0)
		return fail(vm, loc, "'%s' object is not subscriptable", tname(a));
	int64_t step = st.t == GS_V_NONE ? 1 : st.i;
	if (step == 0)
		return fail(vm, loc, "slice step cannot be zero");
	int64_t start, stop;
	if (lo.t == GS_V_NONE) {
		start = step > 0 ? 0 : n - 1;
	} else {
		start = norm_index(lo.i, n);
		if (start < 0)
			start = step > 0 ? 0 : -1;
		if (start >= n)
			start = step > 0 ? n : n - 1;
	}
	if (hi.t == GS_V_NONE) {
		stop = step > 0 ? n : -1;
	} else {
		stop = norm_index(hi.i, n);
		if (stop < 0)
			stop = step > 0 ? 0 : -1;
		if (stop >= n)
			stop = step > 0 ? n : n - 1;
	}
	struct gs_value src;
	if (a.t == GS_V_STR) {
		struct gs_buf b = GS_BUF_INIT;
		for (int64_t k = start; step > 0 ? k < stop : k > stop; k += step)
			gs_buf_putc(&b, a.s->s[k]);
		*out = gs_str_new(&vm->scratch, gs_buf_str(&b), b.len);
		gs_buf_release(&b);
		return 0;
	}
	if (to_list(vm, loc, a, &src))
		return -1;
	*out = gs_list_new(&vm->scratch, 0);
	for (int64_t k = start; step > 0 ? k < stop : k > stop; k += step)
		gs_list_push(&vm->scratch, out->l, src.l->v[k]);
	return 0;
}

/* ---- builtins ------------------------------------------------------------- */

static int to_int(struct gs_vm *vm, struct gs_loc loc, double f, int64_t *out)
{
	if (f != f)
		return fail(vm, loc, "cannot convert float NaN to integer");
	if (f >= 9223372036854775808.0 || f < -9223372036854775808.0)
		return fail(vm, loc, "float %g too large for a 64-bit integer", f);
	*out = (int64_t)f;
	return 0;
}

static int need_num(struct gs_vm *vm, struct gs_loc loc, const char *fn, struct gs_value v)
{
	if (!is_num(v))
		return fail(vm, loc, "%s() needs a number, not '%s'", fn, tname(v));
	return 0;
}

static int gcd64(int64_t a, int64_t b, int64_t *out)
{
	uint64_t x = a < 0 ? -(uint64_t)a : (uint64_t)a, y = b < 0 ? -(uint64_t)b : (uint64_t)b;
	while (y) {
		uint64_t t = x % y;
		x = y;
		y = t;
	}
	if (x > INT64_MAX)
		return -1;
	*out = (int64_t)x;
	return 0;
}

static int builtin(struct gs_vm *vm, struct gs_loc loc, int b, struct gs_value *args, int n,
		   struct gs_value *out)
{
	const char *fn = gs_builtin_name(b);
	struct gs_value l;
	switch (b) {
	case GS_B_RANGE: {
		int64_t v[3] = { 0, 0, 1 };
		for (int i = 0; i < n; i++)
			if (!is_int(args[i]))
				return fail(vm, loc, "range() needs integers, not '%s'",
					    tname(args[i]));
		if (n == 1) {
			v[1] = args[0].i;
		} else {
			v[0] = args[0].i;
			v[1] = args[1].i;
			if (n == 3)
				v[2] = args[2].i;
		}
		if (v[2] == 0)
			return fail(vm, loc, "range() step must not be zero");
		struct gs_range *r = gs_arena_alloc(&vm->scratch, sizeof(*r));
		r->start = v[0];
		r->stop = v[1];
		r->step = v[2];
		out->t = GS_V_RANGE;
		out->r = r;
		return 0;
	}
	case GS_B_LEN: {
		int64_t k = seq_len(args[0]);
		if (k < 0)
			return fail(vm, loc, "object of type '%s' has no len()", tname(args[0]));
		if (args[0].t == GS_V_STR) {
			k = 0;
			for (size_t i = 0; i < args[0].s->len; i++)
				k += ((unsigned char)args[0].s->s[i] & 0xC0) != 0x80;
		}
		*out = gs_int(k);
		return 0;
	}
	case GS_B_MIN:
	case GS_B_MAX: {
		struct gs_value *v = args;
		size_t cnt = (size_t)n;
		if (n == 1) {
			if (to_list(vm, loc, args[0], &l))
				return -1;
			v = l.l->v;
			cnt = l.l->n;
			if (!cnt)
				return fail(vm, loc, "%s() arg is an empty sequence", fn);
		}
		struct gs_value best = v[0];
		for (size_t i = 1; i < cnt; i++) {
			int c;
			if (order(vm, loc, v[i], best, &c))
				return -1;
			if (c != 2 && (b == GS_B_MIN ? c < 0 : c > 0))
				best = v[i];
		}
		*out = best;
		return 0;
	}
	case GS_B_ABS:
		if (need_num(vm, loc, fn, args[0]))
			return -1;
		if (args[0].t == GS_V_FLOAT) {
			*out = gs_float(fabs(args[0].f));
		} else {
			if (args[0].i == INT64_MIN)
				return fail(vm, loc, "integer overflow in abs()");
			*out = gs_int(args[0].i < 0 ? -args[0].i : args[0].i);
		}
		return 0;
	case GS_B_SUM: {
		if (to_list(vm, loc, args[0], &l))
			return -1;
		struct gs_value acc = n == 2 ? args[1] : gs_int(0);
		for (size_t i = 0; i < l.l->n; i++)
			if (binop(vm, loc, GS_TOK_PLUS, acc, l.l->v[i], &acc))
				return -1;
		*out = acc;
		return 0;
	}
	case GS_B_ANY:
	case GS_B_ALL: {
		if (to_list(vm, loc, args[0], &l))
			return -1;
		int r = b == GS_B_ALL;
		for (size_t i = 0; i < l.l->n; i++)
			if (gs_value_truthy(l.l->v[i]) != (b == GS_B_ALL)) {
				r = !r;
				break;
			}
		*out = gs_bool(r);
		return 0;
	}
	case GS_B_INT:
		if (n == 0) {
			*out = gs_int(0);
			return 0;
		}
		if (is_int(args[0])) {
			*out = gs_int(args[0].i);
			return 0;
		}
		if (args[0].t == GS_V_FLOAT) {
			out->t = GS_V_INT;
			return to_int(vm, loc, trunc(args[0].f), &out->i);
		}
		if (args[0].t == GS_V_STR) {
			char *end;
			errno = 0;
			long long v = strtoll(args[0].s->s, &end, 10);
			while (*end == ' ')
				end++;
			if (end == args[0].s->s || *end || errno)
				return fail(vm, loc, "invalid literal for int(): '%s'", args[0].s->s);
			*out = gs_int(v);
			return 0;
		}
		return fail(vm, loc, "int() argument must be a string or a number, not '%s'",
			    tname(args[0]));
	case GS_B_FLOAT:
		if (n == 0) {
			*out = gs_float(0);
			return 0;
		}
		if (is_num(args[0])) {
			*out = gs_float(num(args[0]));
			return 0;
		}
		if (args[0].t == GS_V_STR) {
			char *end;
			double v = strtod(args[0].s->s, &end);
			if (end == args[0].s->s || *end)
				return fail(vm, loc, "could not convert string to float: '%s'",
					    args[0].s->s);
			*out = gs_float(v);
			return 0;
		}
		return fail(vm, loc, "float() argument must be a string or a number, not '%s'",
			    tname(args[0]));
	case GS_B_BOOL:
		*out = gs_bool(n ? gs_value_truthy(args[0]) : 0);
		return 0;
	case GS_B_STR: {
		struct gs_buf s = GS_BUF_INIT;
		if (n)
			gs_value_str_max(&s, args[0], MAX_STR);
		if (s.len > MAX_STR) {
			gs_buf_release(&s);
			return str_too_long(vm, loc);
		}
		*out = gs_str_new(&vm->scratch, gs_buf_str(&s), s.len);
		gs_buf_release(&s);
		return 0;
	}
	case GS_B_ROUND: {
		if (need_num(vm, loc, fn, args[0]))
			return -1;
		if (n == 1 || args[1].t == GS_V_NONE) {
			if (is_int(args[0])) {
				*out = gs_int(args[0].i);
				return 0;
			}
			out->t = GS_V_INT;
			return to_int(vm, loc, nearbyint(args[0].f), &out->i); /* half to even */
		}
		if (!is_int(args[1]))
			return fail(vm, loc, "round() digits must be an integer");
		int64_t nd = args[1].i;
		if (is_int(args[0])) {
			/* to a multiple of 10**-nd, ties to even, exactly in integers */
			if (nd >= 0 || nd < -18) {
				*out = gs_int(nd < -18 ? 0 : args[0].i);
				return 0;
			}
			int64_t p = 1;
			for (int64_t k = 0; k < -nd; k++)
				p *= 10;
			int64_t x = args[0].i, q = x / p, rem = x % p;
			if (rem < 0) {
				rem += p;
				q--;
			}
			if (2 * (uint64_t)rem > (uint64_t)p || (2 * (uint64_t)rem == (uint64_t)p && (q & 1)))
				q++;
			if (__builtin_mul_overflow(q, p, &x))
				return fail(vm, loc, "integer overflow in round()");
			*out = gs_int(x);
			return 0;
		}
		double x = args[0].f;
		if (!isfinite(x) || nd > 300) {
			*out = gs_float(x);
			return 0;
		}
		if (nd >= 0) {
			/* printf rounds the exact binary value, as Python's round() does */
			char buf[512];
			snprintf(buf, sizeof buf, "%.*f", (int)nd, x);
			*out = gs_float(strtod(buf, NULL));
		} else {
			double p = pow(10.0, (double)-nd);
			*out = gs_float(nearbyint(x / p) * p);
		}
		return 0;
	}
	case GS_B_LIST:
		if (n == 0) {
			*out = gs_list_new(&vm->scratch, 0);
			return 0;
		}
		if (to_list(vm, loc, args[0], &l))
			return -1;
		*out = gs_list_new(&vm->scratch, l.l->n);
		copy_vals(out->l->v, l.l->v, l.l->n);
		out->l->n = l.l->n;
		return 0;
	case GS_B_SORTED: {
		if (to_list(vm, loc, args[0], &l))
			return -1;
		*out = gs_list_new(&vm->scratch, l.l->n);
		/* insertion sort: stable, and domains are short */
		for (size_t i = 0; i < l.l->n; i++) {
			size_t j = i;
			while (j > 0) {
				int c;
				if (order(vm, loc, out->l->v[j - 1], l.l->v[i], &c))
					return -1;
				if (c <= 0 || c == 2)
					break;
				out->l->v[j] = out->l->v[j - 1];
				j--;
			}
			out->l->v[j] = l.l->v[i];
		}
		out->l->n = l.l->n;
		return 0;
	}
	case GS_B_POW:
		if (n == 3) {
			/* pow(a, b, m): modular, integers only, as Python */
			if (!is_int(args[0]) || !is_int(args[1]) || !is_int(args[2]))
				return fail(vm, loc, "pow() 3rd argument not allowed unless all arguments "
						     "are integers");
			int64_t b = args[1].i, m = args[2].i;
			if (m == 0)
				return fail(vm, loc, "pow() 3rd argument cannot be 0");
			if (b < 0)
				return fail(vm, loc, "pow() with a negative exponent and a modulus is not "
						     "supported");
			__int128 r = 1, a = args[0].i % m;
			if (a < 0)
				a += m < 0 ? -m : m;
			while (b) {
				if (b & 1)
					r = r * a % m;
				a = a * a % m;
				b >>= 1;
			}
			int64_t res = (int64_t)(r % m);
			if (res != 0 && ((res < 0) != (m < 0)))
				res += m;
			*out = gs_int(res);
			return 0;
		}
		return binop(vm, loc, GS_TOK_POW, args[0], args[1], out);
	case GS_B_DIVMOD: {
		struct gs_value q, r;
		if (binop(vm, loc, GS_TOK_DSLASH, args[0], args[1], &q) ||
		    binop(vm, loc, GS_TOK_PERCENT, args[0], args[1], &r))
			return -1;
		*out = gs_list_new(&vm->scratch, 2);
		out->l->v[0] = q;
		out->l->v[1] = r;
		out->l->n = 2;
		return 0;
	}
	GS_MATH_BUILTINS(GS_BUILTIN_CASE) {
		if (need_num(vm, loc, fn, args[0]))
			return -1;
		double x = num(args[0]), r;
		switch (b) {
		case GS_B_SQRT:
			if (x < 0)
				return fail(vm, loc, "math domain error in sqrt()");
			r = sqrt(x);
			break;
		case GS_B_EXP:
			r = exp(x);
			if (isinf(r) && !isinf(x))
				return fail(vm, loc, "math range error in exp()");
			break;
		case GS_B_LOG:
		case GS_B_LOG2:
		case GS_B_LOG10:
			if (x <= 0)
				return fail(vm, loc, "math domain error in %s()", fn);
			r = b == GS_B_LOG2 ? log2(x) : b == GS_B_LOG10 ? log10(x) : log(x);
			if (b == GS_B_LOG && n == 2) {
				if (need_num(vm, loc, fn, args[1]))
					return -1;
				double base = num(args[1]);
				if (base <= 0 || base == 1)
					return fail(vm, loc, "math domain error in log()");
				r = log(x) / log(base);
			}
			break;
		case GS_B_SIN: r = sin(x); break;
		case GS_B_COS: r = cos(x); break;
		default: r = tan(x); break;
		}
		*out = gs_float(r);
		return 0;
	}
	GS_ROUNDING_BUILTINS(GS_BUILTIN_CASE)
		if (need_num(vm, loc, fn, args[0]))
			return -1;
		if (is_int(args[0])) {
			*out = gs_int(args[0].i);
			return 0;
		}
		if (isinf(args[0].f))
			return fail(vm, loc, "cannot convert float infinity to integer");
		out->t = GS_V_INT;
		return to_int(vm, loc,
			      b == GS_B_CEIL ? ceil(args[0].f)
			      : b == GS_B_FLOOR ? floor(args[0].f) : trunc(args[0].f),
			      &out->i);
	case GS_B_ISQRT: {
		if (!is_int(args[0]))
			return fail(vm, loc, "isqrt() needs an integer, not '%s'", tname(args[0]));
		if (args[0].i < 0)
			return fail(vm, loc, "isqrt() argument must be nonnegative");
		int64_t r = (int64_t)sqrt((double)args[0].i);
		while (r > 0 && (__int128)r * r > args[0].i)
			r--;
		while ((__int128)(r + 1) * (r + 1) <= args[0].i)
			r++;
		*out = gs_int(r);
		return 0;
	}
	case GS_B_GCD: {
		/* in unsigned arithmetic: |INT64_MIN| exists there */
		uint64_t acc = 0;
		for (int i = 0; i < n; i++) {
			if (!is_int(args[i]))
				return fail(vm, loc, "%s() needs integers, not '%s'", fn, tname(args[i]));
			uint64_t x = args[i].i < 0 ? -(uint64_t)args[i].i : (uint64_t)args[i].i;
			while (x) {
				uint64_t t = acc % x;
				acc = x;
				x = t;
			}
		}
		if (acc > INT64_MAX)
			return fail(vm, loc, "integer overflow in gcd()");
		*out = gs_int((int64_t)acc);
		return 0;
	}
	case GS_B_LCM: {
		int64_t acc = 1;
		for (int i = 0; i < n; i++) {
			if (!is_int(args[i]))
				return fail(vm, loc, "%s() needs integers, not '%s'", fn, tname(args[i]));
			if (args[i].i == 0 || acc == 0) {
				acc = 0;
				continue;
			}
			if (args[i].i == INT64_MIN)
				return fail(vm, loc, "integer overflow in lcm()");
			int64_t x = args[i].i < 0 ? -args[i].i : args[i].i, g;
			gcd64(acc, x, &g);
			if (__builtin_mul_overflow(acc / g, x, &acc))
				return fail(vm, loc, "integer overflow in lcm()");
		}
		*out = gs_int(acc);
		return 0;
	}
	case GS_B_ISPOW2:
		if (!is_int(args[0]))
			return fail(vm, loc, "is_pow2() needs an integer, not '%s'", tname(args[0]));
		*out = gs_bool(args[0].i > 0 && (args[0].i & (args[0].i - 1)) == 0);
		return 0;
	}
	return fail(vm, loc, "unknown function");
}

/* ---- dispatch ----------------------------------------------------------- */

int gs_vm_eval(struct gs_vm *vm, const struct gs_code *c, const struct gs_value *env,
	       struct gs_value *out)
{
	if (vm->stack_cap < c->maxstack) {
		free(vm->stack);
		vm->stack_cap = c->maxstack;
		vm->stack = gs_xmalloc(vm->stack_cap * sizeof(*vm->stack));
	}
	if (vm->locals_cap < c->nlocals) {
		free(vm->locals);
		vm->locals_cap = c->nlocals;
		vm->locals = gs_xcalloc(vm->locals_cap, sizeof(*vm->locals));
	}
	struct gs_value *sp = vm->stack; /* next free */
	struct gs_value *loc = vm->locals;
	const uint32_t *ops = c->ops;
	uint64_t steps = 0;
	size_t pc = 0;
	struct gs_arena_mark mem0 = gs_arena_mark(&vm->scratch);
	for (;;) {
		uint32_t w = ops[pc];
		uint32_t arg = GS_ARG(w);
		switch ((enum gs_op)GS_OP(w)) {
		case GS_OP_CONST: /* push a constant */
			*sp++ = c->consts[arg];
			break;
		case GS_OP_GLOBAL: /* push a parameter, problem or let */
			*sp++ = env[arg];
			break;
		case GS_OP_LOCAL: /* push a comprehension variable or temporary */
			*sp++ = loc[arg];
			break;
		case GS_OP_SETLOCAL:
			loc[arg] = *--sp;
			break;
		case GS_OP_POP:
			sp--;
			break;
		case GS_OP_UNARY: {
			struct gs_value *v = sp - 1;
			if (arg == GS_TOK_TILDE) {
				if (!is_int(*v))
					return fail(vm, c->locs[pc], "bad operand type for unary ~: '%s'",
						    tname(*v));
				*v = gs_int(~v->i);
			} else if (is_int(*v)) {
				if (arg == GS_TOK_MINUS && v->i == INT64_MIN)
					return fail(vm, c->locs[pc], "integer overflow in unary '-'");
				*v = gs_int(arg == GS_TOK_MINUS ? -v->i : v->i);
			} else if (v->t == GS_V_FLOAT) {
				if (arg == GS_TOK_MINUS)
					v->f = -v->f;
			} else {
				return fail(vm, c->locs[pc], "bad operand type for unary %c: '%s'",
					    arg == GS_TOK_MINUS ? '-' : '+', tname(*v));
			}
			break;
		}
		case GS_OP_NOT:
			sp[-1] = gs_bool(!gs_value_truthy(sp[-1]));
			break;
		case GS_OP_BINOP: /* fast path: int op int without overflow */
			sp--;
			if (sp[-1].t == GS_V_INT && sp[0].t == GS_V_INT) {
				int64_t r;
				if (arg == GS_TOK_STAR && !__builtin_mul_overflow(sp[-1].i, sp[0].i, &r)) {
					sp[-1].i = r;
					break;
				}
				if (arg == GS_TOK_PLUS && !__builtin_add_overflow(sp[-1].i, sp[0].i, &r)) {
					sp[-1].i = r;
					break;
				}
				if (arg == GS_TOK_PERCENT && sp[0].i > 0 && sp[-1].i >= 0) {
					sp[-1].i %= sp[0].i;
					break;
				}
			}
			if (binop(vm, c->locs[pc], (int)arg, sp[-1], sp[0], &sp[-1]))
				return -1;
			break;
		case GS_OP_CMP:
			sp--;
			if (sp[-1].t == GS_V_INT && sp[0].t == GS_V_INT && !(arg & GS_CMP_NEGATE)) {
				int64_t x = sp[-1].i, y = sp[0].i;
				int r;
				switch (arg) {
				case GS_TOK_LT: r = x < y; break;
				case GS_TOK_LE: r = x <= y; break;
				case GS_TOK_GT: r = x > y; break;
				case GS_TOK_GE: r = x >= y; break;
				case GS_TOK_EQ: r = x == y; break;
				case GS_TOK_NE: r = x != y; break;
				default: goto slow_cmp;
				}
				sp[-1] = gs_bool(r);
				break;
			}
		slow_cmp:
			if (compare(vm, c->locs[pc], arg, sp[-1], sp[0], &sp[-1]))
				return -1;
			break;
		case GS_OP_JMP:
			pc = arg;
			continue;
		case GS_OP_JMPF:
			if (!gs_value_truthy(*--sp)) {
				pc = arg;
				continue;
			}
			break;
		case GS_OP_JAND:
			if (!gs_value_truthy(sp[-1])) {
				pc = arg;
				continue;
			}
			sp--;
			break;
		case GS_OP_JOR:
			if (gs_value_truthy(sp[-1])) {
				pc = arg;
				continue;
			}
			sp--;
			break;
		case GS_OP_CALL: {
			int n = (int)(arg & 0xff);
			sp -= n;
			struct gs_value r;
			if (builtin(vm, c->locs[pc], (int)(arg >> 8), sp, n, &r))
				return -1;
			*sp++ = r;
			break;
		}
		case GS_OP_LIST: {
			struct gs_value l = gs_list_new(&vm->scratch, arg);
			sp -= arg;
			copy_vals(l.l->v, sp, arg);
			l.l->n = arg;
			*sp++ = l;
			break;
		}
		case GS_OP_APPEND:
			if (loc[arg].l->n >= MAX_LIST)
				return fail(vm, c->locs[pc], "list too large (more than %u items)",
					    MAX_LIST);
			gs_list_push(&vm->scratch, loc[arg].l, *--sp);
			break;
		case GS_OP_ITER: {
			struct gs_value v = sp[-1];
			if (v.t != GS_V_LIST && v.t != GS_V_RANGE && v.t != GS_V_STR)
				return fail(vm, c->locs[pc], "'%s' object is not iterable", tname(v));
			if (v.t == GS_V_STR && to_list(vm, c->locs[pc], v, &v))
				return -1;
			struct gs_iter *it = gs_arena_alloc(&vm->scratch, sizeof(*it));
			it->seq = v;
			it->pos = 0;
			sp[-1].t = GS_V_ITER;
			sp[-1].it = it;
			break;
		}
		case GS_OP_NEXT: {
			struct gs_iter *it = sp[-1].it;
			if (++steps > MAX_STEPS)
				return fail(vm, c->locs[pc], "evaluation takes more than %llu steps",
					    MAX_STEPS);
			if (it->pos >= seq_len(it->seq)) {
				sp--;
				pc = arg;
				continue;
			}
			if (it->seq.t == GS_V_LIST)
				*sp++ = it->seq.l->v[it->pos];
			else
				*sp++ = gs_int(it->seq.r->start + it->pos * it->seq.r->step);
			it->pos++;
			break;
		}
		case GS_OP_INDEX:
			sp--;
			if (index_value(vm, c->locs[pc], sp[-1], sp[0], &sp[-1]))
				return -1;
			break;
		case GS_OP_SLICE:
			sp -= 3;
			if (slice_value(vm, c->locs[pc], sp[-1], sp[0], sp[1], sp[2], &sp[-1]))
				return -1;
			break;
		case GS_OP_RET:
			*out = sp[-1];
			return 0;
		}
		if (vm->scratch.total > MAX_MEM) {
			/* nothing made since mem0 is referenced once this fails */
			gs_arena_reset(&vm->scratch, mem0);
			return fail(vm, c->locs[pc],
				    "expressions need more than %s of memory for one configuration",
				    MAX_MEM_TEXT);
		}
		pc++;
	}
}
