/* value.c — construction, comparison and printing of expression values. */
#include "core/value.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *vtype_names[] = {
#define X(n, s) s,
	GS_VTYPES(X)
#undef X
};

const char *gs_vtype_name(int t)
{
	return t >= 0 && t < (int)GS_ARRAY_SIZE(vtype_names) ? vtype_names[t] : "?";
}

const char *gs_tmask_name(unsigned mask)
{
	/* rotating buffers: a message may name two types */
	static char bufs[4][128];
	static unsigned next;
	char *buf = bufs[next++ % 4];
	buf[0] = 0;
	if ((mask & GS_T_ANY) == GS_T_ANY || mask == 0)
		return "any";
	for (int t = 0; t < (int)GS_ARRAY_SIZE(vtype_names); t++) {
		if (!(mask & (1u << t)))
			continue;
		if (buf[0])
			strcat(buf, " or ");
		strcat(buf, vtype_names[t]);
	}
	return buf;
}

struct gs_value gs_str_new(struct gs_arena *a, const char *s, size_t n)
{
	struct gs_str *p = gs_arena_alloc(a, sizeof(*p) + n + 1);
	p->len = n;
	memcpy(p->s, s, n);
	p->s[n] = 0;
	struct gs_value v = { .t = GS_V_STR, .s = p };
	return v;
}

struct gs_value gs_list_new(struct gs_arena *a, size_t cap)
{
	struct gs_list *l = gs_arena_alloc(a, sizeof(*l));
	l->n = 0;
	l->cap = cap;
	l->v = cap ? gs_arena_alloc(a, cap * sizeof(struct gs_value)) : NULL;
	struct gs_value v = { .t = GS_V_LIST, .l = l };
	return v;
}

void gs_list_push(struct gs_arena *a, struct gs_list *l, struct gs_value v)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		struct gs_value *nv = gs_arena_alloc(a, cap * sizeof(*nv));
		if (l->n)
			memcpy(nv, l->v, l->n * sizeof(*nv));
		l->v = nv;
		l->cap = cap;
	}
	l->v[l->n++] = v;
}

int64_t gs_range_len(const struct gs_range *r)
{
	if (r->step > 0 && r->start < r->stop)
		return (int64_t)(((__int128)r->stop - r->start - 1) / r->step + 1);
	if (r->step < 0 && r->start > r->stop)
		return (int64_t)(((__int128)r->start - r->stop - 1) / -(__int128)r->step + 1);
	return 0;
}

struct gs_value gs_value_persist(struct gs_arena *a, struct gs_value v)
{
	switch (v.t) {
	case GS_V_STR:
		return gs_str_new(a, v.s->s, v.s->len);
	case GS_V_LIST: {
		struct gs_value nl = gs_list_new(a, v.l->n);
		for (size_t i = 0; i < v.l->n; i++)
			nl.l->v[i] = gs_value_persist(a, v.l->v[i]);
		nl.l->n = v.l->n;
		return nl;
	}
	case GS_V_RANGE: {
		struct gs_range *r = gs_arena_alloc(a, sizeof(*r));
		*r = *v.r;
		struct gs_value nv = { .t = GS_V_RANGE, .r = r };
		return nv;
	}
	case GS_V_ITER:
		return gs_none();
	default:
		return v;
	}
}

int gs_value_truthy(struct gs_value v)
{
	switch (v.t) {
	case GS_V_NONE: return 0;
	case GS_V_BOOL:
	case GS_V_INT: return v.i != 0;
	case GS_V_FLOAT: return v.f != 0.0;
	case GS_V_STR: return v.s->len != 0;
	case GS_V_LIST: return v.l->n != 0;
	case GS_V_RANGE: return gs_range_len(v.r) != 0;
	default: return 1;
	}
}

static int is_intlike(struct gs_value v)
{
	return v.t == GS_V_INT || v.t == GS_V_BOOL;
}

int64_t gs_seq_len(struct gs_value v)
{
	return v.t == GS_V_LIST ? (int64_t)v.l->n : v.t == GS_V_RANGE ? gs_range_len(v.r) : 0;
}

struct gs_value gs_seq_at(struct gs_value v, int64_t i)
{
	if (v.t == GS_V_LIST)
		return v.l->v[i];
	return gs_int(v.r->start + i * v.r->step);
}

int gs_value_eq(struct gs_value a, struct gs_value b)
{
	if (is_intlike(a) && is_intlike(b))
		return a.i == b.i;
	if ((is_intlike(a) || a.t == GS_V_FLOAT) && (is_intlike(b) || b.t == GS_V_FLOAT)) {
		/* compare exactly, as Python does, without rounding the integer */
		if (a.t == GS_V_FLOAT && b.t == GS_V_FLOAT)
			return a.f == b.f;
		double f = a.t == GS_V_FLOAT ? a.f : b.f;
		int64_t i = a.t == GS_V_FLOAT ? b.i : a.i;
		if (f != f || f != floor(f) || f < -9.3e18 || f > 9.3e18)
			return 0;
		return (double)i == f && (int64_t)f == i;
	}
	if (a.t == GS_V_STR && b.t == GS_V_STR)
		return a.s->len == b.s->len && !memcmp(a.s->s, b.s->s, a.s->len);
	if (a.t == GS_V_NONE || b.t == GS_V_NONE)
		return a.t == b.t;
	if ((a.t == GS_V_LIST || a.t == GS_V_RANGE) && a.t == b.t) {
		int64_t n = gs_seq_len(a);
		if (n != gs_seq_len(b))
			return 0;
		for (int64_t i = 0; i < n; i++)
			if (!gs_value_eq(gs_seq_at(a, i), gs_seq_at(b, i)))
				return 0;
		return 1;
	}
	return 0;
}

/* floor(log10(a)) or one less, for a normal positive a: that of the power
 * of two below a, which log10 would take many times longer to give. */
static int dec_exp(double a)
{
	uint64_t bits;
	memcpy(&bits, &a, sizeof bits);
	int e = (int)(bits >> 52 & 0x7ff) - 1023;
	return (int)floor(e * 0.30102999566398120);
}

/* u's digits without its trailing zeros; *exp: the decimal exponent of the
 * first digit of u * 10^-k. */
static int put_digits(uint64_t u, int k, char *digits, int *exp)
{
	char tmp[24], *e = tmp + sizeof tmp, *q = e;
	do
		*--q = (char)('0' + u % 10);
	while (u /= 10);
	int n = (int)(e - q);
	*exp = n - 1 - k;
	while (n > 1 && q[n - 1] == '0')
		n--;
	memcpy(digits, q, (size_t)n);
	digits[n] = 0;
	return n;
}

/* The digits of the shortest decimal of at most 15 significant digits that
 * reads back as a (finite, normal, positive), found without printf: for the
 * fewest fraction digits k, the integer m nearest a * 10^k with m / 10^k ==
 * a.  m and 10^k (k <= 22) are exact doubles, so the division rounds the
 * exact decimal m * 10^-k once, as strtod would; while a * 10^k < 1e15 its
 * rounding error is under a quarter, so m is the right candidate.  Returns
 * the number of digits (trailing zeros dropped) and sets *exp, the decimal
 * exponent of the first digit; 0 when no such decimal exists (16 digits or
 * more are needed); -1 when undecided (very large or very small). */
static int short_digits(double a, char *digits, int *exp)
{
	static const double p10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	/* If any k works, so does the one that makes 15 digits (its m is the
	 * shorter one padded with zeros, which are dropped), so that k alone
	 * decides where it exists; at the ends of the range, the search below. */
	int k15 = 14 - dec_exp(a);
	if (k15 >= 0 && k15 <= 22) {
		double prod = a * p10[k15];
		if (prod >= 1e15 && k15 > 0)
			prod = a * p10[--k15];
		else if (prod < 1e14 && k15 < 22)
			prod = a * p10[++k15];
		if (prod >= 1e14 && prod < 1e15) {
			double m = nearbyint(prod);
			if (m / p10[k15] != a)
				return 0;
			return put_digits((uint64_t)m, k15, digits, exp);
		}
	}
	for (int k = 0; k < (int)(sizeof p10 / sizeof p10[0]); k++) {
		double prod = a * p10[k];
		if (prod >= 1e15)
			return k ? 0 : -1;
		double m = nearbyint(prod);
		if (m == 0 || m / p10[k] != a)
			continue;
		return put_digits((uint64_t)m, k, digits, exp);
	}
	return -1;
}

/* The digits of a (finite, normal, positive) when short_digits found that
 * 15 are not enough: the 16 correctly rounded ones if they read back as a,
 * else the 17, as printf and strtod would decide, without them.  With
 * a = m * 2^e, X = a * 10^k = m * 5^k / 2^s is exact in 128 bits for
 * 10^16 <= X < 10^17 and k <= 27; a decimal reads back as a when it lies
 * within half an ulp of a (5^k / 2 in units of 2^-s), a tie going to the
 * even m.  Returns the number of digits and sets *exp as short_digits
 * does; -1 outside that range, at a power of two (whose interval is
 * lopsided) and where rounding carries into another digit. */
static int long_digits(double a, char *digits, int *exp)
{
	static const uint64_t p5[] = {
		1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull, 390625ull,
		1953125ull, 9765625ull, 48828125ull, 244140625ull, 1220703125ull, 6103515625ull,
		30517578125ull, 152587890625ull, 762939453125ull, 3814697265625ull,
		19073486328125ull, 95367431640625ull, 476837158203125ull, 2384185791015625ull,
		11920928955078125ull, 59604644775390625ull, 298023223876953125ull,
		1490116119384765625ull, 7450580596923828125ull,
	};
	const uint64_t e16 = 10000000000000000ull, e17 = 10 * e16;
	int e2;
	uint64_t m = (uint64_t)ldexp(frexp(a, &e2), 53);
	int e = e2 - 53;
	if (m == (uint64_t)1 << 52)
		return -1;
	int k = 16 - dec_exp(a);
	typedef unsigned __int128 u128;
	u128 n, q;
	int s;
	for (int tries = 0;; tries++) {
		s = -(e + k);
		if (tries == 3 || k < 0 || k >= (int)(sizeof p5 / sizeof p5[0]) || s <= 0 || s > 64)
			return -1;
		n = (u128)m * p5[k];
		q = n >> s;
		if (q < e16)
			k++;
		else if (q >= e17)
			k--;
		else
			break;
	}
	u128 five = p5[k];
	/* 16 digits: X / 10 rounded, half to even */
	uint64_t c = (uint64_t)(q / 10);
	u128 rem = n - ((u128)c * 10 << s), half = (u128)5 << s;
	c += rem > half || (rem == half && (c & 1));
	uint64_t d;
	int nd;
	u128 cn = (u128)c * 10 << s, dist = cn > n ? cn - n : n - cn;
	if (c < e16 && (2 * dist < five || (2 * dist == five && !(m & 1)))) {
		d = c;
		nd = 16;
	} else {
		rem = n - (q << s);
		half = (u128)1 << (s - 1);
		d = (uint64_t)q + (rem > half || (rem == half && (q & 1)));
		if (d >= e17)
			return -1;
		nd = 17;
	}
	*exp = 16 - k;
	for (int i = nd - 1; i >= 0; i--, d /= 10)
		digits[i] = (char)('0' + d % 10);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = 0;
	return nd;
}

void gs_float_repr(struct gs_buf *b, double f)
{
	if (isnan(f)) {
		gs_buf_puts(b, "nan");
		return;
	}
	if (isinf(f)) {
		gs_buf_puts(b, f < 0 ? "-inf" : "inf");
		return;
	}
	char digits[24];
	int nd = 0, exp = 0, neg = signbit(f) != 0;
	double a = fabs(f);
	int found = a >= DBL_MIN ? short_digits(a, digits, &exp) : -1;
	int found_long = found == 0 ? long_digits(a, digits, &exp) : -1;
	if (found > 0 || found_long > 0) {
		nd = found > 0 ? found : found_long;
	} else {
		/* Shortest digit string that reads back as the same double.  Any
		 * decimal of at most 15 significant digits survives a trip
		 * through a normal double (DBL_DIG), so when some string of p <=
		 * 15 digits reads back as f, f rounded to 15 digits is that
		 * string padded with zeros, which are stripped below: 15, 16 and
		 * 17 digits are the only tries needed (16 and 17 when
		 * short_digits ruled 15 out).  Subnormals carry fewer digits and
		 * take the long way. */
		char tmp[40];
		int prec = found == 0 ? 16 : a < DBL_MIN && a != 0 ? 1 : 15;
		for (; prec <= 17; prec++) {
			snprintf(tmp, sizeof tmp, "%.*e", prec - 1, a);
			if (prec == 17 || strtod(tmp, NULL) == a)
				break;
		}
		/* tmp is d.ddde[+-]XX: split into digits and exponent */
		const char *p = tmp;
		for (; *p && *p != 'e'; p++)
			if (*p != '.')
				digits[nd++] = *p;
		while (nd > 1 && digits[nd - 1] == '0')
			nd--;
		digits[nd] = 0;
		exp = atoi(p + 1);
	}
	char out[48];
	int o = 0;
	if (neg)
		out[o++] = '-';
	if (exp >= -4 && exp < 16) {
		/* Python switches to exponent form below 1e-4 */
		if (exp < 0) {
			out[o++] = '0';
			out[o++] = '.';
			for (int i = 0; i < -exp - 1; i++)
				out[o++] = '0';
			memcpy(out + o, digits, (size_t)nd);
			o += nd;
		} else {
			for (int i = 0; i <= exp; i++)
				out[o++] = i < nd ? digits[i] : '0';
			out[o++] = '.';
			if (nd > exp + 1) {
				memcpy(out + o, digits + exp + 1, (size_t)(nd - exp - 1));
				o += nd - exp - 1;
			} else {
				out[o++] = '0';
			}
		}
		gs_buf_put(b, out, (size_t)o);
		return;
	}
	out[o++] = digits[0];
	if (nd > 1) {
		out[o++] = '.';
		memcpy(out + o, digits + 1, (size_t)(nd - 1));
		o += nd - 1;
	}
	int ae = exp < 0 ? -exp : exp;
	out[o++] = 'e';
	out[o++] = exp < 0 ? '-' : '+';
	if (ae >= 100)
		out[o++] = (char)('0' + ae / 100);
	out[o++] = (char)('0' + ae / 10 % 10);
	out[o++] = (char)('0' + ae % 10);
	gs_buf_put(b, out, (size_t)o);
}

static void str_repr(struct gs_buf *b, const struct gs_str *s)
{
	/* Python prefers single quotes unless the text has one and no double */
	int q = (memchr(s->s, '\'', s->len) && !memchr(s->s, '"', s->len)) ? '"' : '\'';
	gs_buf_putc(b, q);
	for (size_t i = 0; i < s->len; i++) {
		unsigned char c = (unsigned char)s->s[i];
		if (c == '\\' || c == q)
			gs_buf_printf(b, "\\%c", c);
		else if (c == '\n')
			gs_buf_puts(b, "\\n");
		else if (c == '\t')
			gs_buf_puts(b, "\\t");
		else if (c == '\r')
			gs_buf_puts(b, "\\r");
		else if (c < 0x20 || c == 0x7f)
			gs_buf_printf(b, "\\x%02x", c);
		else
			gs_buf_putc(b, c);
	}
	gs_buf_putc(b, q);
}

/* Stops adding list items once b holds more than max bytes: a list of a
 * million references to one long string would otherwise print terabytes. */
static void repr_max(struct gs_buf *b, struct gs_value v, size_t max)
{
	switch (v.t) {
	case GS_V_NONE: gs_buf_puts(b, "None"); break;
	case GS_V_BOOL: gs_buf_puts(b, v.i ? "True" : "False"); break;
	case GS_V_INT: gs_buf_put_int(b, v.i); break;
	case GS_V_FLOAT: gs_float_repr(b, v.f); break;
	case GS_V_STR: str_repr(b, v.s); break;
	case GS_V_LIST:
		gs_buf_putc(b, '[');
		for (size_t i = 0; i < v.l->n && b->len <= max; i++) {
			if (i)
				gs_buf_puts(b, ", ");
			repr_max(b, v.l->v[i], max);
		}
		gs_buf_putc(b, ']');
		break;
	case GS_V_RANGE:
		if (v.r->step == 1)
			gs_buf_printf(b, "range(%lld, %lld)", (long long)v.r->start,
				      (long long)v.r->stop);
		else
			gs_buf_printf(b, "range(%lld, %lld, %lld)", (long long)v.r->start,
				      (long long)v.r->stop, (long long)v.r->step);
		break;
	default: gs_buf_puts(b, "<iterator>"); break;
	}
}

void gs_value_repr(struct gs_buf *b, struct gs_value v)
{
	repr_max(b, v, SIZE_MAX);
}

void gs_value_str(struct gs_buf *b, struct gs_value v)
{
	gs_value_str_max(b, v, SIZE_MAX);
}

void gs_value_str_max(struct gs_buf *b, struct gs_value v, size_t max)
{
	if (v.t == GS_V_STR)
		gs_buf_put(b, v.s->s, v.s->len);
	else
		repr_max(b, v, max);
}

void gs_value_json(struct gs_buf *b, struct gs_value v)
{
	switch (v.t) {
	case GS_V_NONE: gs_buf_puts(b, "null"); break;
	case GS_V_BOOL: gs_buf_puts(b, v.i ? "true" : "false"); break;
	case GS_V_FLOAT:
		if (isnan(v.f) || isinf(v.f))
			gs_buf_puts(b, "null");
		else
			gs_float_repr(b, v.f);
		break;
	case GS_V_STR: gs_buf_put_json_str(b, v.s->s); break;
	case GS_V_LIST:
	case GS_V_RANGE: {
		gs_buf_putc(b, '[');
		int64_t n = gs_seq_len(v);
		for (int64_t i = 0; i < n; i++) {
			if (i)
				gs_buf_putc(b, ',');
			gs_value_json(b, gs_seq_at(v, i));
		}
		gs_buf_putc(b, ']');
		break;
	}
	default: gs_value_repr(b, v); break;
	}
}
