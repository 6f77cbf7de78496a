/* jsonrow.c — one pass over a JSON document for the values at a few paths,
 * each the value SQLite 3.40's json_extract gives (query/jsonrow.h).
 *
 * The grammar is SQLite's, not RFC 8259's in every corner, because a
 * document SQLite rejects must be rejected here too: whitespace is space,
 * tab, newline and carriage return only; a literal may not run into a
 * letter or digit ("truex"); containers nest 2000 deep at most. */
#include "query/jsonrow.h"
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* SQLite's JSON_MAX_DEPTH */
#define MAX_DEPTH 2000

struct jnode {
	char *key; /* as written between the quotes */
	size_t klen;
	int slot;       /* out[slot] gets the value; -1: only a way to deeper keys */
	size_t *kids;   /* indexes into gs_jrow.nodes */
	size_t nkids, capkids;
	unsigned seen;  /* the scan in which the key was last matched */
};

struct gs_jrow {
	struct jnode *nodes; /* [0] is the document itself */
	size_t n, cap;
	int *slots;
	size_t nslots, capslots;
	unsigned scan;
	gs_jrow_str_fn str;
	void *ctx;
	struct gs_buf tmp;
};

struct scan {
	struct gs_jrow *j;
	const char *p;
	struct gs_value *out;
	int depth;
};

struct gs_jrow *gs_jrow_new(gs_jrow_str_fn str, void *ctx)
{
	struct gs_jrow *j = gs_xcalloc(1, sizeof(*j));
	j->str = str;
	j->ctx = ctx;
	gs_grow(&j->nodes, &j->cap, 1, sizeof(*j->nodes));
	memset(&j->nodes[0], 0, sizeof(j->nodes[0]));
	j->nodes[0].slot = -1;
	j->n = 1;
	return j;
}

void gs_jrow_free(struct gs_jrow *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->n; i++) {
		free(j->nodes[i].key);
		free(j->nodes[i].kids);
	}
	free(j->nodes);
	free(j->slots);
	gs_buf_release(&j->tmp);
	free(j);
}

size_t gs_jrow_count(const struct gs_jrow *j)
{
	return j->nslots;
}

static size_t child(struct gs_jrow *j, size_t parent, const char *key, size_t klen)
{
	for (size_t i = 0; i < j->nodes[parent].nkids; i++) {
		size_t k = j->nodes[parent].kids[i];
		if (j->nodes[k].klen == klen && !memcmp(j->nodes[k].key, key, klen))
			return k;
	}
	gs_grow(&j->nodes, &j->cap, j->n + 1, sizeof(*j->nodes));
	size_t k = j->n++;
	memset(&j->nodes[k], 0, sizeof(j->nodes[k]));
	j->nodes[k].key = gs_xstrndup(key, klen);
	j->nodes[k].klen = klen;
	j->nodes[k].slot = -1;
	struct jnode *p = &j->nodes[parent];
	gs_grow(&p->kids, &p->capkids, p->nkids + 1, sizeof(*p->kids));
	p->kids[p->nkids++] = k;
	return k;
}

/* A quoted key of a path ends at the next quote, escaped or not: SQLite
 * reads $."a\"b" as the key a\ followed by junk, an error it reports; such
 * a path stays with json_extract. */
int gs_jrow_add(struct gs_jrow *j, const char *path, int slot)
{
	const char *p = path;
	if (*p++ != '$' || *p != '.')
		return -1;
	const char *keys[16];
	size_t lens[16], n = 0;
	while (*p) {
		if (p[0] != '.' || p[1] != '"' || n == GS_ARRAY_SIZE(keys))
			return -1;
		const char *k = p + 2, *e = strchr(k, '"');
		if (!e)
			return -1;
		keys[n] = k;
		lens[n++] = (size_t)(e - k);
		p = e + 1;
	}
	size_t at = 0;
	for (size_t i = 0; i < n; i++)
		at = child(j, at, keys[i], lens[i]);
	if (j->nodes[at].slot >= 0)
		return -1;
	j->nodes[at].slot = slot;
	gs_grow(&j->slots, &j->capslots, j->nslots + 1, sizeof(*j->slots));
	j->slots[j->nslots++] = slot;
	return 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static unsigned hex4(const char *p)
{
	return (unsigned)(gs_hex_digit(p[0]) << 12 | gs_hex_digit(p[1]) << 8 |
			  gs_hex_digit(p[2]) << 4 | gs_hex_digit(p[3]));
}

static void skip_space(struct scan *s)
{
	while (is_space(*s->p))
		s->p++;
}

/* The string whose opening quote s->p is on; s->p ends past the closing
 * quote.  *esc: whether it has a backslash.  -1: malformed. */
static int string(struct scan *s, int *esc)
{
	const char *p = s->p + 1;
	*esc = 0;
	for (;;) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20)
			return -1; /* a control character, or the end of the text */
		if (c == '"')
			break;
		if (c == '\\') {
			c = (unsigned char)*++p;
			if (c == 'u') {
				if (gs_hex_digit(p[1]) < 0 || gs_hex_digit(p[2]) < 0 ||
				    gs_hex_digit(p[3]) < 0 || gs_hex_digit(p[4]) < 0)
					return -1;
				p += 4;
			} else if (!strchr("\"\\/bfnrt", c) || !c) {
				return -1;
			}
			*esc = 1;
		}
		p++;
	}
	s->p = p + 1;
	return 0;
}

static void put_utf8(struct gs_buf *b, unsigned v)
{
	char u[4];
	size_t n;
	if (v <= 0x7f) {
		u[0] = (char)v;
		n = 1;
	} else if (v <= 0x7ff) {
		u[0] = (char)(0xc0 | v >> 6);
		u[1] = (char)(0x80 | (v & 0x3f));
		n = 2;
	} else if (v <= 0xffff) {
		u[0] = (char)(0xe0 | v >> 12);
		u[1] = (char)(0x80 | (v >> 6 & 0x3f));
		u[2] = (char)(0x80 | (v & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | v >> 18);
		u[1] = (char)(0x80 | (v >> 12 & 0x3f));
		u[2] = (char)(0x80 | (v >> 6 & 0x3f));
		u[3] = (char)(0x80 | (v & 0x3f));
		n = 4;
	}
	gs_buf_put(b, u, n);
}

/* The text of the well-formed string body [p, e) as SQLite returns it: a
 * lone surrogate is encoded as if it were a character, and \u0000 ends the
 * text. */
static void unescape(struct gs_buf *b, const char *p, const char *e)
{
	while (p < e) {
		const char *q = p;
		while (q < e && *q != '\\')
			q++;
		gs_buf_put(b, p, (size_t)(q - p));
		if (q == e)
			return;
		char c = q[1];
		p = q + 2;
		switch (c) {
		case 'b': gs_buf_putc(b, '\b'); break;
		case 'f': gs_buf_putc(b, '\f'); break;
		case 'n': gs_buf_putc(b, '\n'); break;
		case 'r': gs_buf_putc(b, '\r'); break;
		case 't': gs_buf_putc(b, '\t'); break;
		case 'u': {
			unsigned v = hex4(p);
			p += 4;
			if (!v)
				return;
			if ((v & 0xfc00) == 0xd800 && p + 6 <= e && p[0] == '\\' && p[1] == 'u' &&
			    (hex4(p + 2) & 0xfc00) == 0xdc00) {
				v = ((v & 0x3ff) << 10) + (hex4(p + 2) & 0x3ff) + 0x10000;
				p += 6;
			}
			put_utf8(b, v);
			break;
		}
		default: gs_buf_putc(b, c); break;
		}
	}
}

/* The well-formed number [z, e) as strtod reads it, when one operation on
 * exact doubles gives it (a significand below 2^53 and a power of ten up to
 * 1e22, each exact, so that the product or quotient is rounded once, as
 * strtod rounds): 1, or 0 to leave it to strtod. */
static int exact_float(const char *z, const char *e, double *f)
{
	static const double p10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	const char *p = z;
	int neg = *p == '-', digits = 0, scale = 0;
	uint64_t m = 0;
	p += neg;
	for (; p < e && *p != 'e' && *p != 'E'; p++) {
		if (*p == '.') {
			scale = 1;
			continue;
		}
		if ((m || *p != '0') && ++digits > 16)
			return 0;
		m = m * 10 + (uint64_t)(*p - '0');
		if (scale)
			scale++;
	}
	int exp = scale ? -(scale - 1) : 0;
	if (p < e) {
		p++;
		int eneg = *p == '-', x = 0;
		p += *p == '-' || *p == '+';
		for (; p < e; p++) {
			if (x > 1000)
				return 0;
			x = x * 10 + (*p - '0');
		}
		exp += eneg ? -x : x;
	}
	if (m >= (uint64_t)1 << 53 || exp < -22 || exp > 22)
		return 0;
	double r = (double)m;
	r = exp < 0 ? r / p10[-exp] : r * p10[exp];
	*f = neg ? -r : r;
	return 1;
}

/* The number s->p is on, by SQLite's rules: no leading zero, digits on
 * both sides of a decimal point, a digit after an exponent's sign. */
static int number(struct scan *s, int slot)
{
	const char *z = s->p, *j = z + 1;
	int dp = 0, e = 0;
	const char *d = *z == '-' ? z + 1 : z;
	if (*d == '0' && is_digit(d[1]))
		return -1;
	for (;; j++) {
		char c = *j;
		if (is_digit(c))
			continue;
		if (c == '.') {
			if (j[-1] == '-' || dp)
				return -1;
			dp = 1;
			continue;
		}
		if (c == 'e' || c == 'E') {
			if (j[-1] < '0' || e)
				return -1;
			dp = e = 1;
			if (j[1] == '+' || j[1] == '-')
				j++;
			if (!is_digit(j[1]))
				return -1;
			continue;
		}
		break;
	}
	if (j[-1] < '0')
		return -1;
	s->p = j;
	if (slot < 0)
		return 0;
	if (!dp) {
		/* an integer beyond int64 becomes a float, as in SQLite */
		int neg = *z == '-';
		uint64_t v = 0, lim = neg ? (uint64_t)1 << 63 : ((uint64_t)1 << 63) - 1;
		const char *q = neg ? z + 1 : z;
		for (; q < j; q++) {
			unsigned dg = (unsigned)(*q - '0');
			if (v > (lim - dg) / 10)
				break;
			v = v * 10 + dg;
		}
		if (q == j) {
			s->out[slot] = gs_int(neg ? (int64_t)(0 - v) : (int64_t)v);
			return 0;
		}
	}
	double f;
	if (exact_float(z, j, &f)) {
		s->out[slot] = gs_float(f);
		return 0;
	}
	char small[64], *t = small;
	size_t n = (size_t)(j - z);
	if (n >= sizeof(small))
		t = gs_xmalloc(n + 1);
	memcpy(t, z, n);
	t[n] = 0;
	s->out[slot] = gs_float(strtod(t, NULL));
	if (t != small)
		free(t);
	return 0;
}

static int literal(struct scan *s, const char *word, size_t n)
{
	if (strncmp(s->p, word, n) || is_alnum(s->p[n]))
		return -1;
	s->p += n;
	return 0;
}

/* The node of key [k, k + n) under node at; (size_t)-1 when no wanted path
 * goes that way, or an earlier key of the same text did. */
static size_t match(struct gs_jrow *j, size_t at, const char *k, size_t n)
{
	const struct jnode *p = &j->nodes[at];
	for (size_t i = 0; i < p->nkids; i++) {
		struct jnode *c = &j->nodes[p->kids[i]];
		if (c->klen == n && !memcmp(c->key, k, n)) {
			if (c->seen == j->scan)
				return (size_t)-1;
			c->seen = j->scan;
			return p->kids[i];
		}
	}
	return (size_t)-1;
}

/* [p, e) without the whitespace between tokens: the text SQLite gives for
 * an array or object. */
static void minify(struct gs_buf *b, const char *p, const char *e)
{
	int in = 0;
	for (; p < e; p++) {
		if (in) {
			if (*p == '\\') {
				gs_buf_put(b, p, 2);
				p++;
				continue;
			}
			in = *p != '"';
		} else if (is_space(*p)) {
			continue;
		} else {
			in = *p == '"';
		}
		gs_buf_putc(b, *p);
	}
}

/* The value s->p is on, which is that of node at ((size_t)-1: wanted by no
 * path).  Leaves s->p past it. */
static int value(struct scan *s, size_t at)
{
	struct gs_jrow *j = s->j;
	int slot = at == (size_t)-1 ? -1 : j->nodes[at].slot;
	const char *start = s->p;
	int esc;
	switch (*s->p) {
	case '{':
	case '[': {
		char close = *s->p == '{' ? '}' : ']';
		int obj = close == '}';
		if (++s->depth > MAX_DEPTH)
			return -1;
		s->p++;
		skip_space(s);
		if (*s->p == close) {
			s->p++;
		} else {
			for (;;) {
				size_t kid = (size_t)-1;
				if (obj) {
					if (*s->p != '"')
						return -1;
					const char *k = s->p + 1;
					if (string(s, &esc) < 0)
						return -1;
					if (at != (size_t)-1 && j->nodes[at].nkids)
						kid = match(j, at, k, (size_t)(s->p - 1 - k));
					skip_space(s);
					if (*s->p++ != ':')
						return -1;
					skip_space(s);
				}
				if (value(s, kid) < 0)
					return -1;
				skip_space(s);
				if (*s->p == ',') {
					s->p++;
					skip_space(s);
					continue;
				}
				if (*s->p++ != close)
					return -1;
				break;
			}
		}
		s->depth--;
		if (slot >= 0) {
			gs_buf_reset(&j->tmp);
			minify(&j->tmp, start, s->p);
			s->out[slot] = j->str(j->ctx, j->tmp.p, j->tmp.len);
		}
		return 0;
	}
	case '"':
		if (string(s, &esc) < 0)
			return -1;
		if (slot >= 0) {
			if (!esc) {
				s->out[slot] = j->str(j->ctx, start + 1, (size_t)(s->p - start - 2));
			} else {
				gs_buf_reset(&j->tmp);
				unescape(&j->tmp, start + 1, s->p - 1);
				s->out[slot] = j->str(j->ctx, j->tmp.p ? j->tmp.p : "", j->tmp.len);
			}
		}
		return 0;
	case 't':
		if (literal(s, "true", 4) < 0)
			return -1;
		if (slot >= 0)
			s->out[slot] = gs_int(1);
		return 0;
	case 'f':
		if (literal(s, "false", 5) < 0)
			return -1;
		if (slot >= 0)
			s->out[slot] = gs_int(0);
		return 0;
	case 'n':
		return literal(s, "null", 4);
	default:
		if (*s->p == '-' || is_digit(*s->p))
			return number(s, slot);
		return -1;
	}
}

int gs_jrow_scan(struct gs_jrow *j, const char *doc, struct gs_value *out)
{
	for (size_t i = 0; i < j->nslots; i++)
		out[j->slots[i]] = gs_none();
	if (!doc)
		return 0;
	if (++j->scan == 0) {
		for (size_t i = 0; i < j->n; i++)
			j->nodes[i].seen = 0;
		j->scan = 1;
	}
	struct scan s = { j, doc, out, 0 };
	skip_space(&s);
	if (value(&s, 0) == 0) {
		skip_space(&s);
		if (!*s.p)
			return 0;
	}
	for (size_t i = 0; i < j->nslots; i++)
		out[j->slots[i]] = gs_none();
	return -1;
}
