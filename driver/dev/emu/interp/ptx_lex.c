/* ptx_lex.c — PTX text to statements: the tokenizer and the parser of
 * module directives, variables, function headers and bodies.
 *
 * Registers are resolved while parsing, against the scopes of nested
 * `{ }` blocks (inline assembly declares its own), and so are the .param
 * variables of call sequences, which belong to one block each.  Labels,
 * variables and functions are names looked up when decoding. */
#include "dev/emu/interp/ptx_load.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the name map ------------------------------------------------------------ */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

int gs_ptxl_map_get(const struct gs_ptxl_map *m, const char *key)
{
	if (!m->cap)
		return -1;
	for (size_t i = hash_str(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (!m->key[i])
			return -1;
		if (strcmp(m->key[i], key) == 0)
			return m->val[i];
	}
}

void gs_ptxl_map_put(struct gs_ptxl_map *m, const char *key, int val)
{
	if (2 * (m->n + 1) > m->cap) {
		struct gs_ptxl_map g = { NULL, NULL, m->cap ? 2 * m->cap : 64, 0 };

		g.key = gs_xcalloc(g.cap, sizeof(*g.key));
		g.val = gs_xcalloc(g.cap, sizeof(*g.val));
		for (size_t i = 0; i < m->cap; i++)
			if (m->key[i])
				gs_ptxl_map_put(&g, m->key[i], m->val[i]);
		gs_ptxl_map_release(m);
		*m = g;
	}
	size_t i = hash_str(key) & (m->cap - 1);
	while (m->key[i] && strcmp(m->key[i], key) != 0)
		i = (i + 1) & (m->cap - 1);
	if (!m->key[i])
		m->n++;
	m->key[i] = key;
	m->val[i] = val;
}

void gs_ptxl_map_release(struct gs_ptxl_map *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

/* ---- errors ------------------------------------------------------------------ */

void gs_ptxl_fail(struct gs_ptxl *L, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(L->err, L->errlen, "emulator: ");

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < L->errlen)
		vsnprintf(L->err + n, L->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	longjmp(L->jb, 1);
}

char *gs_ptxl_strdup(struct gs_ptxl *L, const char *s, size_t n)
{
	return gs_arena_strndup(&L->arena, s, n);
}

/* the token as text, for messages (at most 40 bytes) */
static const char *tok_text(struct gs_ptxl *L, const struct gs_ptxl_tok *t)
{
	if (t->k == GS_TK_EOF)
		return "end of file";
	return gs_ptxl_strdup(L, t->s, t->n > 40 ? 40 : t->n);
}

static GS_NORETURN void unexpected(struct gs_ptxl *L, const char *what)
{
	gs_ptxl_fail(L, "cannot parse '%s' (expected %s) at line %u", tok_text(L, &L->tk), what,
		     L->tk.line);
}

/* ---- the tokenizer ------------------------------------------------------------- */

static int id_start(int c)
{
	return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

static int id_char(int c)
{
	return isalnum(c) || c == '_' || c == '$' || c == '.';
}

static void skip_space(struct gs_ptxl *L)
{
	const char *p = L->p;

	for (;;) {
		while (p < L->end && isspace((unsigned char)*p)) {
			if (*p == '\n')
				L->line++;
			p++;
		}
		if (p + 1 < L->end && p[0] == '/' && p[1] == '/') {
			while (p < L->end && *p != '\n')
				p++;
		} else if (p + 1 < L->end && p[0] == '/' && p[1] == '*') {
			uint32_t line = L->line;

			for (p += 2; p + 1 < L->end && !(p[0] == '*' && p[1] == '/'); p++)
				if (*p == '\n')
					L->line++;
			if (p + 1 >= L->end)
				gs_ptxl_fail(L, "cannot parse: comment not closed (opened at "
					     "line %u)", line);
			p += 2;
		} else {
			break;
		}
	}
	L->p = p;
}

/* A number: 0f/0d hexadecimal floats, 0x/0b/octal/decimal integers with an
 * optional U suffix, decimal floats (values in double precision). */
static void lex_number(struct gs_ptxl *L, struct gs_ptxl_tok *t)
{
	const char *p = L->p, *e = L->end;

	if (p + 1 < e && p[0] == '0' && p[1] && strchr("fFdD", p[1])) {
		int digits = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
		uint64_t v = 0;
		int i;

		for (i = 0; i < digits && p + 2 + i < e && gs_hex_digit(p[2 + i]) >= 0; i++)
			v = v << 4 | (uint64_t)gs_hex_digit(p[2 + i]);
		if (i != digits || (p + 2 + i < e && id_char((unsigned char)p[2 + i])))
			gs_ptxl_fail(L, "cannot parse number '%s' at line %u",
				     gs_ptxl_strdup(L, p, (size_t)(i + 2)), L->line);
		t->k = GS_TK_FLT;
		t->fw = (uint8_t)(digits / 2);
		t->u = v;
		L->p = p + 2 + digits;
		return;
	}
	const char *q = p;
	int base = 10;

	if (q + 1 < e && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		base = 16;
		q += 2;
	} else if (q + 1 < e && q[0] == '0' && (q[1] == 'b' || q[1] == 'B')) {
		base = 2;
		q += 2;
	} else {
		const char *r = q;

		while (r < e && isdigit((unsigned char)*r))
			r++;
		if (r < e && (*r == '.' || *r == 'e' || *r == 'E')) {
			char buf[64];
			char *end;
			size_t n = 0;

			while (q < e && n + 1 < sizeof buf &&
			       (isdigit((unsigned char)*q) || *q == '.' || *q == 'e' || *q == 'E' ||
				((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E'))))
				buf[n++] = *q++;
			buf[n] = 0;
			t->k = GS_TK_FLT;
			t->fw = 0;
			t->d = strtod(buf, &end);
			if (*end)
				gs_ptxl_fail(L, "cannot parse number '%s' at line %u", buf,
					     L->line);
			L->p = q;
			return;
		}
		if (q[0] == '0' && r - q > 1)
			base = 8;
	}
	uint64_t v = 0;
	const char *s = q;

	for (; q < e; q++) {
		int d = gs_hex_digit(*q);

		if (d < 0 || d >= base)
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			gs_ptxl_fail(L, "cannot parse number: '%s' is too large at line %u",
				     gs_ptxl_strdup(L, p, (size_t)(q - p + 1)), L->line);
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (q == s)
		gs_ptxl_fail(L, "cannot parse number '%s' at line %u",
			     gs_ptxl_strdup(L, p, (size_t)(q - p + 1)), L->line);
	if (q < e && (*q == 'U' || *q == 'u'))
		q++;
	if (q < e && id_char((unsigned char)*q))
		gs_ptxl_fail(L, "cannot parse number '%s' at line %u",
			     gs_ptxl_strdup(L, p, (size_t)(q - p + 1)), L->line);
	t->k = GS_TK_INT;
	t->u = v;
	L->p = q;
}

/* the next token into L->tk */
static void next(struct gs_ptxl *L)
{
	struct gs_ptxl_tok *t = &L->tk;

	skip_space(L);
	memset(t, 0, sizeof(*t));
	t->line = L->line;
	t->s = L->p;
	if (L->p >= L->end) {
		t->k = GS_TK_EOF;
		return;
	}
	unsigned char c = (unsigned char)*L->p;

	if (id_start(c)) {
		const char *p = L->p + 1;

		for (;;) {
			if (p < L->end && id_char((unsigned char)*p))
				p++;
			else if (p + 1 < L->end && p[0] == ':' && p[1] == ':')
				p += 2;
			else
				break;
		}
		t->k = GS_TK_ID;
		L->p = p;
	} else if (isdigit(c)) {
		lex_number(L, t);
	} else if (c == '"') {
		const char *p = L->p + 1;

		while (p < L->end && *p != '"' && *p != '\n')
			p += (*p == '\\' && p + 1 < L->end) ? 2 : 1;
		if (p >= L->end || *p != '"')
			gs_ptxl_fail(L, "cannot parse: string not closed at line %u", L->line);
		t->k = GS_TK_STR;
		L->p = p + 1;
	} else if (c && strchr("{}()[],;:+-!|<>=@", c)) {
		t->k = GS_TK_P;
		t->c = (char)c;
		L->p++;
	} else {
		gs_ptxl_fail(L, "cannot parse: unexpected character '%c' (0x%02x) at line %u",
			     isprint(c) ? c : '?', c, L->line);
	}
	t->n = (size_t)(L->p - t->s);
}

/* the token after the current one, without consuming anything */
static struct gs_ptxl_tok peek(struct gs_ptxl *L)
{
	const char *p = L->p;
	uint32_t line = L->line;
	struct gs_ptxl_tok cur = L->tk, t;

	next(L);
	t = L->tk;
	L->tk = cur;
	L->p = p;
	L->line = line;
	return t;
}

/* ---- parser helpers ------------------------------------------------------------ */

static int is_id(const struct gs_ptxl_tok *t, const char *s)
{
	return t->k == GS_TK_ID && strlen(s) == t->n && memcmp(t->s, s, t->n) == 0;
}

static int is_p(const struct gs_ptxl_tok *t, char c)
{
	return t->k == GS_TK_P && t->c == c;
}

static int accept_p(struct gs_ptxl *L, char c)
{
	if (!is_p(&L->tk, c))
		return 0;
	next(L);
	return 1;
}

static void expect_p(struct gs_ptxl *L, char c)
{
	char what[8];

	if (accept_p(L, c))
		return;
	snprintf(what, sizeof what, "'%c'", c);
	unexpected(L, what);
}

/* an identifier, copied into the arena */
static const char *expect_id(struct gs_ptxl *L, const char *what)
{
	const char *s;

	if (L->tk.k != GS_TK_ID)
		unexpected(L, what);
	s = gs_ptxl_strdup(L, L->tk.s, L->tk.n);
	next(L);
	return s;
}

static uint64_t expect_uint(struct gs_ptxl *L, const char *what)
{
	uint64_t v;

	if (L->tk.k != GS_TK_INT)
		unexpected(L, what);
	v = L->tk.u;
	next(L);
	return v;
}

/* skip the rest of the current token's line (.loc, .file: no semicolon) */
static void skip_line(struct gs_ptxl *L)
{
	uint32_t line = L->tk.line;

	while (L->tk.k != GS_TK_EOF && L->tk.line == line)
		next(L);
}

/* skip to the ';' ending a statement, and past it */
static void skip_stmt(struct gs_ptxl *L)
{
	while (L->tk.k != GS_TK_EOF && !is_p(&L->tk, ';'))
		next(L);
	expect_p(L, ';');
}

/* .section NAME { ... }: debugging information, skipped with its braces */
static void skip_section(struct gs_ptxl *L)
{
	int depth = 0;

	next(L);
	while (L->tk.k != GS_TK_EOF && !is_p(&L->tk, '{'))
		next(L);
	do {
		if (is_p(&L->tk, '{'))
			depth++;
		else if (is_p(&L->tk, '}'))
			depth--;
		else if (L->tk.k == GS_TK_EOF)
			unexpected(L, "'}'");
		next(L);
	} while (depth > 0);
}

/* .u32 -> GS_TY_U32; GS_TY_NONE when the token is no scalar type */
static int type_of(const struct gs_ptxl_tok *t)
{
	static const struct {
		const char *s;
		int ty;
	} tys[] = {
		{ ".u8", GS_TY_U8 },   { ".u16", GS_TY_U16 }, { ".u32", GS_TY_U32 },
		{ ".u64", GS_TY_U64 }, { ".s8", GS_TY_S8 },   { ".s16", GS_TY_S16 },
		{ ".s32", GS_TY_S32 }, { ".s64", GS_TY_S64 }, { ".b8", GS_TY_B8 },
		{ ".b16", GS_TY_B16 }, { ".b32", GS_TY_B32 }, { ".b64", GS_TY_B64 },
		{ ".f16", GS_TY_F16 }, { ".bf16", GS_TY_BF16 }, { ".f32", GS_TY_F32 },
		{ ".f64", GS_TY_F64 }, { ".pred", GS_TY_PRED }, { ".f16x2", GS_TY_F16X2 },
		{ ".bf16x2", GS_TY_BF16X2 },
	};
	for (size_t i = 0; i < GS_ARRAY_SIZE(tys); i++)
		if (is_id(t, tys[i].s))
			return tys[i].ty;
	return GS_TY_NONE;
}

int gs_ptxl_tysize(int ty)
{
	switch (ty) {
	case GS_TY_U8: case GS_TY_S8: case GS_TY_B8:
		return 1;
	case GS_TY_U16: case GS_TY_S16: case GS_TY_B16: case GS_TY_F16: case GS_TY_BF16:
		return 2;
	case GS_TY_U64: case GS_TY_S64: case GS_TY_B64: case GS_TY_F64:
		return 8;
	case GS_TY_PRED:
		return 0;
	default:
		return 4;
	}
}

static int is_space_dir(const struct gs_ptxl_tok *t)
{
	return is_id(t, ".global") || is_id(t, ".const") || is_id(t, ".shared") ||
	       is_id(t, ".local");
}

static int space_of(const struct gs_ptxl_tok *t)
{
	if (is_id(t, ".global"))
		return GS_VS_GLOBAL;
	if (is_id(t, ".const"))
		return GS_VS_CONST;
	if (is_id(t, ".shared"))
		return GS_VS_SHARED;
	return GS_VS_LOCAL;
}

/* ---- variables --------------------------------------------------------------------- */

int gs_ptxl_add_var(struct gs_ptxl *L, const char *name, int space, int func, uint32_t line)
{
	struct gs_ptx_module *m = L->m;
	size_t cap = L->capvars;

	gs_grow(&m->vars, &L->capvars, m->nvars + 1, sizeof(*m->vars));
	gs_grow(&L->vi, &cap, m->nvars + 1, sizeof(*L->vi));
	memset(&m->vars[m->nvars], 0, sizeof(*m->vars));
	memset(&L->vi[m->nvars], 0, sizeof(*L->vi));
	m->vars[m->nvars].name = gs_xstrdup(name);
	m->vars[m->nvars].space = space;
	m->vars[m->nvars].func = func;
	m->vars[m->nvars].line = line;
	return (int)m->nvars++;
}

static void add_init(struct gs_ptxl_vinfo *vi, const struct gs_ptxl_init *it)
{
	gs_grow(&vi->init, &vi->capinit, vi->ninit + 1, sizeof(*vi->init));
	vi->init[vi->ninit++] = *it;
}

/* one initializer element: [-]number, name[+off], generic(name)[+off] */
static void parse_init_item(struct gs_ptxl *L, struct gs_ptxl_vinfo *vi)
{
	struct gs_ptxl_init it = { 0 };
	int neg = 0;

	it.line = L->tk.line;
	if (accept_p(L, '-'))
		neg = 1;
	if (L->tk.k == GS_TK_INT) {
		it.kind = GS_PI_INT;
		it.u = neg ? (uint64_t)0 - L->tk.u : L->tk.u;
		next(L);
	} else if (L->tk.k == GS_TK_FLT) {
		it.kind = GS_PI_FLT;
		it.fw = L->tk.fw;
		it.u = L->tk.u;
		it.d = L->tk.d;
		if (neg) {
			if (it.fw == 4)
				it.u ^= 0x80000000u;
			else if (it.fw == 8)
				it.u ^= 0x8000000000000000ull;
			else
				it.d = -it.d;
		}
		next(L);
	} else if (!neg && L->tk.k == GS_TK_ID) {
		if (is_id(&L->tk, "generic")) {
			next(L);
			expect_p(L, '(');
			it.kind = GS_PI_GENERIC;
			it.name = expect_id(L, "a variable name");
			expect_p(L, ')');
		} else {
			it.kind = GS_PI_SYM;
			it.name = expect_id(L, "a variable name");
		}
		if (accept_p(L, '+'))
			it.off = (int64_t)expect_uint(L, "an offset");
	} else {
		unexpected(L, "an initializer value");
	}
	add_init(vi, &it);
}

static void parse_init(struct gs_ptxl *L, struct gs_ptxl_vinfo *vi)
{
	if (accept_p(L, '{')) {
		do {
			if (is_p(&L->tk, '{'))
				parse_init(L, vi);
			else
				parse_init_item(L, vi);
		} while (accept_p(L, ','));
		expect_p(L, '}');
	} else {
		parse_init_item(L, vi);
	}
}

/* the names a variable can be found by: module scope, or a function's */
static void declare(struct gs_ptxl *L, int func, const char *name, int v, uint32_t line)
{
	struct gs_ptxl_map *map = func < 0 ? &L->varmap : &L->fn[func].syms;

	if (gs_ptxl_map_get(map, name) >= 0)
		gs_ptxl_fail(L, "cannot parse: '%s' redefined at line %u", name, line);
	gs_ptxl_map_put(map, name, v);
}

/* After the state space (.global ...):
 *   [.align N] [.v2|.v4] .type name[N]... [= init] {, name ...} ; */
static void parse_vars(struct gs_ptxl *L, int space, int func, int ext)
{
	uint64_t align = 0;
	int vec = 1, ty = GS_TY_NONE;

	for (;;) {
		int t;

		if (is_id(&L->tk, ".align")) {
			next(L);
			align = expect_uint(L, "an alignment");
			if (!align || (align & (align - 1)))
				gs_ptxl_fail(L, "cannot parse: alignment %llu at line %u",
					     (unsigned long long)align, L->tk.line);
		} else if (is_id(&L->tk, ".v2") || is_id(&L->tk, ".v4")) {
			vec = L->tk.s[2] - '0';
			next(L);
		} else if ((t = type_of(&L->tk)) != GS_TY_NONE) {
			ty = t;
			next(L);
		} else {
			break;
		}
	}
	if (ty == GS_TY_NONE || ty == GS_TY_PRED)
		unexpected(L, "a variable type");
	uint32_t esz = gs_ptxl_tysize(ty) * (uint32_t)vec;

	do {
		uint32_t line = L->tk.line;
		const char *name = expect_id(L, "a variable name");
		uint64_t count = 1;
		int unsized = 0;

		while (accept_p(L, '[')) {
			if (accept_p(L, ']')) {
				unsized = 1;
				continue;
			}
			uint64_t n = expect_uint(L, "an array size");

			if (n && count > UINT64_MAX / 4 / n)
				gs_ptxl_fail(L, "cannot parse: '%s' is too large at line %u",
					     name, line);
			count *= n;
			expect_p(L, ']');
		}
		int v = gs_ptxl_add_var(L, name, space, func, line);
		struct gs_ptx_var *var = &L->m->vars[v];
		struct gs_ptxl_vinfo *vi = &L->vi[v];

		declare(L, func, name, v, line);
		vi->ety = ty;
		vi->esz = esz;
		vi->ext = ext;
		var->align = align ? align : esz;
		var->size = count * esz;
		if (accept_p(L, '=')) {
			if (space != GS_VS_GLOBAL && space != GS_VS_CONST)
				gs_ptxl_fail(L, "cannot parse: initializer of '%s' at line %u",
					     name, line);
			vi->has_init = 1;
			parse_init(L, vi);
			uint64_t need = vi->ninit * gs_ptxl_tysize(ty);

			if (unsized)
				var->size = (need + esz - 1) / esz * esz;
			else if (need > var->size)
				gs_ptxl_fail(L, "cannot parse: initializer of '%s' larger than the "
					     "variable at line %u", name, line);
		} else if (unsized) {
			if (space != GS_VS_SHARED || !ext)
				gs_ptxl_fail(L, "cannot parse: '%s' has no size at line %u", name,
					     line);
			var->dyn = 1;
			var->size = 0;
		}
		if (ext && !var->dyn)
			gs_ptxl_fail(L, "external variable '%s' at line %u is not supported", name,
				     line);
	} while (accept_p(L, ','));
	expect_p(L, ';');
}

/* ---- functions ------------------------------------------------------------------------- */

static int add_fn(struct gs_ptxl *L, const char *name, int entry, uint32_t line)
{
	struct gs_ptx_module *m = L->m;
	size_t cap = L->capfn;

	gs_grow(&m->funcs, &L->capfn, m->nfuncs + 1, sizeof(*m->funcs));
	gs_grow(&L->fn, &cap, m->nfuncs + 1, sizeof(*L->fn));
	memset(&m->funcs[m->nfuncs], 0, sizeof(*m->funcs));
	memset(&L->fn[m->nfuncs], 0, sizeof(*L->fn));
	m->funcs[m->nfuncs].name = gs_xstrdup(name);
	m->funcs[m->nfuncs].entry = entry;
	m->funcs[m->nfuncs].line = line;
	L->fn[m->nfuncs].rvar = -1;
	gs_ptxl_map_put(&L->fnmap, gs_ptxl_strdup(L, name, strlen(name)), (int)m->nfuncs);
	return (int)m->nfuncs++;
}

struct pdecl {
	const char *name;
	uint64_t size, align;
	uint32_t line;
	int ty, ptr, array; /* as declared: enum gs_ty, `.ptr`, `[N]` */
};

/* .param [.align N] .type [.ptr [.space] [.align N]] name [[N]] */
static struct pdecl parse_param(struct gs_ptxl *L)
{
	struct pdecl p = { 0 };
	int ty = GS_TY_NONE, ptr = 0;
	uint64_t count = 1;

	p.line = L->tk.line;
	if (is_id(&L->tk, ".reg"))
		gs_ptxl_fail(L, ".reg parameters at line %u are not supported", p.line);
	if (!is_id(&L->tk, ".param"))
		unexpected(L, "'.param'");
	next(L);
	for (;;) {
		int t;

		if (is_id(&L->tk, ".align")) {
			next(L);
			uint64_t a = expect_uint(L, "an alignment");

			if (!ptr) /* after .ptr it is the pointee's alignment */
				p.align = a;
		} else if (is_id(&L->tk, ".ptr")) {
			ptr = 1;
			next(L);
		} else if (ptr && is_space_dir(&L->tk)) {
			next(L);
		} else if ((t = type_of(&L->tk)) != GS_TY_NONE && ty == GS_TY_NONE) {
			ty = t;
			next(L);
		} else {
			break;
		}
	}
	if (ty == GS_TY_NONE || ty == GS_TY_PRED)
		unexpected(L, "a parameter type");
	p.name = expect_id(L, "a parameter name");
	if (accept_p(L, '[')) {
		count = expect_uint(L, "an array size");
		expect_p(L, ']');
		p.array = 1;
	}
	p.size = gs_ptxl_tysize(ty) * count;
	p.ty = ty;
	p.ptr = ptr;
	if (!p.align)
		p.align = gs_ptxl_tysize(ty);
	if (!p.size)
		gs_ptxl_fail(L, "cannot parse: parameter '%s' has no size at line %u", p.name,
			     p.line);
	return p;
}

static size_t parse_params(struct gs_ptxl *L, struct pdecl **out)
{
	size_t n = 0, cap = 0;

	*out = NULL;
	expect_p(L, '(');
	if (accept_p(L, ')'))
		return 0;
	do {
		if (n == cap) {
			struct pdecl *g;

			cap = cap ? 2 * cap : 8;
			g = gs_arena_alloc(&L->arena, cap * sizeof(*g));
			if (n)
				memcpy(g, *out, n * sizeof(*g));
			*out = g;
		}
		(*out)[n++] = parse_param(L);
	} while (accept_p(L, ','));
	expect_p(L, ')');
	return n;
}

/* the parameters (and return value) of f, from its first declaration; a
 * later one (the definition after a prototype) renames them */
static void set_params(struct gs_ptxl *L, int f, struct pdecl *ps, size_t n, struct pdecl *ret,
		       size_t nret)
{
	struct gs_ptx_func *fn = &L->m->funcs[f];
	int space = fn->entry ? GS_VS_KPARAM : GS_VS_PARAM;
	int first = fn->psize == NULL && L->fn[f].rvar < 0 && !fn->nparams;

	if (!first && (n != fn->nparams || (size_t)fn->nret != nret))
		gs_ptxl_fail(L, "cannot parse: '%s' redeclared with other parameters at line %u",
			     fn->name, L->tk.line);
	if (first) {
		fn->nparams = n;
		fn->nret = (int)nret;
		fn->psize = gs_xcalloc(n ? n : 1, sizeof(*fn->psize));
		fn->poff = gs_xcalloc(n ? n : 1, sizeof(*fn->poff));
		fn->pvar = gs_xcalloc(n ? n : 1, sizeof(*fn->pvar));
		fn->pdecl = gs_xcalloc(n ? n : 1, sizeof(*fn->pdecl));
	}
	for (size_t i = 0; i < n + nret; i++) {
		struct pdecl *p = i < n ? &ps[i] : ret;
		int v;

		if (first) {
			v = gs_ptxl_add_var(L, p->name, space, f, p->line);
			L->m->vars[v].size = p->size;
			L->m->vars[v].align = p->align;
			if (i < n) {
				fn->psize[i] = p->size;
				fn->pvar[i] = v;
				fn->pdecl[i] = (unsigned)p->ty | (p->ptr ? GS_PDECL_PTR : 0) |
					       (p->array ? GS_PDECL_ARRAY : 0);
			} else {
				fn->rsize = p->size;
				L->fn[f].rvar = v;
			}
		} else {
			v = i < n ? fn->pvar[i] : L->fn[f].rvar;
			if (L->m->vars[v].size != p->size)
				gs_ptxl_fail(L, "cannot parse: '%s' redeclared with other "
					     "parameters at line %u", fn->name, p->line);
			free(L->m->vars[v].name);
			L->m->vars[v].name = gs_xstrdup(p->name);
		}
		gs_ptxl_map_put(&L->fn[f].syms, p->name, v);
	}
}

/* ---- function bodies --------------------------------------------------------------------- */

/* names declared inside nested blocks, to forget when the block closes */
struct scope_ent {
	struct gs_ptxl_map *map;
	const char *key;
	int old;
};
struct scopes {
	struct scope_ent *e;
	size_t n, cap;
};

static void scoped_put(struct scopes *sc, struct gs_ptxl_map *map, const char *key, int val)
{
	gs_grow(&sc->e, &sc->cap, sc->n + 1, sizeof(*sc->e));
	sc->e[sc->n++] = (struct scope_ent){ map, key, gs_ptxl_map_get(map, key) };
	gs_ptxl_map_put(map, key, val);
}

static void scope_pop(struct scopes *sc, size_t mark)
{
	while (sc->n > mark) {
		struct scope_ent *e = &sc->e[--sc->n];

		gs_ptxl_map_put(e->map, e->key, e->old);
	}
}

/* per-body parsing state */
struct gs_ptxl_body {
	int f;
	struct gs_ptxl_fn *F;
	struct gs_ptxl_map regs;   /* "%r<" (ranges) or "%SP" -> declaration */
	struct gs_ptxl_map cparams; /* call-sequence .param names -> statement */
	struct scopes sc;
	size_t *marks, nmarks, capmarks; /* sc.n where each open block began */
};

/* also called by gs_ptx_load when an error left a body half parsed */
void gs_ptxl_body_release(struct gs_ptxl_body *b)
{
	free(b->marks);
	free(b->sc.e);
	gs_ptxl_map_release(&b->regs);
	gs_ptxl_map_release(&b->cparams);
	free(b);
}

static struct gs_ptxl_stmt *add_stmt(struct gs_ptxl_fn *F, int kind, uint32_t line)
{
	gs_grow(&F->st, &F->capst, F->nst + 1, sizeof(*F->st));
	struct gs_ptxl_stmt *s = &F->st[F->nst++];

	memset(s, 0, sizeof(*s));
	s->kind = (uint8_t)kind;
	s->line = line;
	s->guard = -1;
	s->call = -1;
	return s;
}

/* .reg .type %a<N>, %b, ... ; */
static void parse_reg(struct gs_ptxl *L, struct gs_ptxl_body *b)
{
	uint32_t line = L->tk.line;
	int ty;
	uint8_t width;

	next(L);
	if (is_id(&L->tk, ".v2") || is_id(&L->tk, ".v4"))
		gs_ptxl_fail(L, "vector registers at line %u are not supported", line);
	ty = type_of(&L->tk);
	if (ty == GS_TY_NONE && L->tk.k == GS_TK_ID && L->tk.s[0] == '.')
		gs_ptxl_fail(L, "unsupported register type '%s' at line %u", tok_text(L, &L->tk),
			     line);
	if (ty == GS_TY_NONE)
		unexpected(L, "a register type");
	width = (uint8_t)gs_ptxl_tysize(ty);
	if (width == 1)
		gs_ptxl_fail(L, "8-bit registers at line %u are not supported", line);
	next(L);
	do {
		const char *name = expect_id(L, "a register name");
		struct gs_ptxl_fn *F = b->F;
		int32_t count = 0;
		const char *key = name;

		if (accept_p(L, '<')) {
			uint64_t n = expect_uint(L, "a register count");

			if (n > 1000000)
				gs_ptxl_fail(L, "cannot parse: %llu registers at line %u",
					     (unsigned long long)n, line);
			count = (int32_t)n;
			expect_p(L, '>');
			key = gs_arena_alloc(&L->arena, strlen(name) + 2);
			strcpy((char *)key, name);
			strcat((char *)key, "<");
		}
		gs_grow(&F->rdecl, &F->caprdecl, F->nrdecl + 1, sizeof(*F->rdecl));
		F->rdecl[F->nrdecl] = (struct gs_ptxl_rdecl){ name, count, (int32_t)F->nreg };
		gs_grow(&F->reg, &F->capreg, F->nreg + (size_t)(count ? count : 1),
			sizeof(*F->reg));
		for (int32_t i = 0; i < (count ? count : 1); i++)
			F->reg[F->nreg++] = (struct gs_ptxl_reg){ width, (int32_t)F->nrdecl,
								  count ? i : -1, -1 };
		scoped_put(&b->sc, &b->regs, key, (int)F->nrdecl);
		F->nrdecl++;
	} while (accept_p(L, ','));
	expect_p(L, ';');
}

static const struct {
	const char *name;
	int code;
} sregs[] = {
	{ "%tid.x", GS_SR_TID_X },	   { "%tid.y", GS_SR_TID_Y },
	{ "%tid.z", GS_SR_TID_Z },	   { "%ntid.x", GS_SR_NTID_X },
	{ "%ntid.y", GS_SR_NTID_Y },	   { "%ntid.z", GS_SR_NTID_Z },
	{ "%ctaid.x", GS_SR_CTAID_X },	   { "%ctaid.y", GS_SR_CTAID_Y },
	{ "%ctaid.z", GS_SR_CTAID_Z },	   { "%nctaid.x", GS_SR_NCTAID_X },
	{ "%nctaid.y", GS_SR_NCTAID_Y },   { "%nctaid.z", GS_SR_NCTAID_Z },
	{ "%laneid", GS_SR_LANEID },	   { "%warpid", GS_SR_WARPID },
	{ "%nwarpid", GS_SR_NWARPID },	   { "%smid", GS_SR_SMID },
	{ "%nsmid", GS_SR_NSMID },	   { "%gridid", GS_SR_GRIDID },
	{ "%lanemask_eq", GS_SR_LANEMASK_EQ }, { "%lanemask_lt", GS_SR_LANEMASK_LT },
	{ "%lanemask_le", GS_SR_LANEMASK_LE }, { "%lanemask_gt", GS_SR_LANEMASK_GT },
	{ "%lanemask_ge", GS_SR_LANEMASK_GE }, { "%dynamic_smem_size", GS_SR_DYN_SMEM },
	{ "%total_smem_size", GS_SR_TOTAL_SMEM }, { "%clock", GS_PL_SR_CLOCK },
	{ "%clock64", GS_PL_SR_CLOCK64 },  { "%globaltimer", GS_PL_SR_GTIMER },
};

/* A declared register or a special one into o: 1, or 0 when name is
 * neither (an error for a name starting with %; inline assembly declares
 * registers without it) */
static int resolve_reg(struct gs_ptxl *L, struct gs_ptxl_body *b, const char *name, uint32_t line,
		       struct gs_ptxl_opnd *o)
{
	int d = gs_ptxl_map_get(&b->regs, name);

	if (d >= 0 && b->F->rdecl[d].count == 0) {
		o->name = name;
		o->kind = GS_PO_REG;
		o->reg = b->F->rdecl[d].first;
		return 1;
	}
	size_t n = strlen(name), k = n;

	while (k > 1 && isdigit((unsigned char)name[k - 1]))
		k--;
	if (k < n && k > 1) {
		char *key = gs_arena_alloc(&L->arena, k + 2);

		memcpy(key, name, k);
		strcpy(key + k, "<");
		d = gs_ptxl_map_get(&b->regs, key);
		if (d >= 0) {
			long idx = strtol(name + k, NULL, 10);

			if (idx < b->F->rdecl[d].count) {
				o->name = name;
				o->kind = GS_PO_REG;
				o->reg = b->F->rdecl[d].first + (int32_t)idx;
				return 1;
			}
			gs_ptxl_fail(L, "register '%s' at line %u is beyond its declaration "
				     "'%s<%d>'", name, line, b->F->rdecl[d].name,
				     (int)b->F->rdecl[d].count);
		}
	}
	for (size_t i = 0; i < GS_ARRAY_SIZE(sregs); i++) {
		if (strcmp(name, sregs[i].name) == 0) {
			o->name = name;
			o->kind = GS_PO_SREG;
			o->reg = sregs[i].code;
			return 1;
		}
	}
	if (name[0] == '%')
		gs_ptxl_fail(L, "unknown or unsupported register '%s' at line %u", name, line);
	return 0;
}

static void parse_operand(struct gs_ptxl *L, struct gs_ptxl_body *b, struct gs_ptxl_opnd *o);

/* a, b, ... up to the closing character */
static void parse_list(struct gs_ptxl *L, struct gs_ptxl_body *b, struct gs_ptxl_opnd *o,
		       char close)
{
	size_t cap = 0;

	o->el = NULL;
	o->nel = 0;
	if (accept_p(L, close))
		return;
	do {
		struct gs_ptxl_opnd *el;

		if (o->nel == (int)cap) {
			struct gs_ptxl_opnd *n;

			cap = cap ? 2 * cap : 4;
			n = gs_arena_alloc(&L->arena, cap * sizeof(*n));
			if (o->nel)
				memcpy(n, o->el, (size_t)o->nel * sizeof(*n));
			o->el = n;
		}
		el = &o->el[o->nel++];
		parse_operand(L, b, el);
	} while (accept_p(L, ','));
	expect_p(L, close);
}

/* a number with its sign into o (INT or FLT) */
static void parse_number(struct gs_ptxl *L, struct gs_ptxl_opnd *o, int neg)
{
	if (L->tk.k == GS_TK_INT) {
		o->kind = GS_PO_INT;
		o->u = neg ? (uint64_t)0 - L->tk.u : L->tk.u;
	} else if (L->tk.k == GS_TK_FLT) {
		o->kind = GS_PO_FLT;
		o->fw = L->tk.fw;
		o->u = L->tk.u;
		o->d = neg ? -L->tk.d : L->tk.d;
		if (neg && o->fw)
			o->u ^= 1ull << (o->fw * 8 - 1);
	} else {
		unexpected(L, "a number");
	}
	next(L);
}

/* an identifier operand: register, sink, call-sequence parameter or symbol */
static void parse_name(struct gs_ptxl *L, struct gs_ptxl_body *b, struct gs_ptxl_opnd *o)
{
	uint32_t line = L->tk.line;
	const char *name = expect_id(L, "an operand");

	if (resolve_reg(L, b, name, line, o)) {
		return;
	} else if (strcmp(name, "_") == 0) {
		o->kind = GS_PO_SINK;
	} else {
		o->kind = GS_PO_SYM;
		o->name = name;
		o->reg = gs_ptxl_map_get(&b->cparams, name);
	}
}

/* [base], [base+off], [base+-off], [base-off], [off] */
static void parse_addr(struct gs_ptxl *L, struct gs_ptxl_body *b, struct gs_ptxl_opnd *o)
{
	struct gs_ptxl_opnd *base = gs_arena_alloc(&L->arena, sizeof(*base));

	memset(base, 0, sizeof(*base));
	base->reg2 = -1;
	o->kind = GS_PO_ADDR;
	o->el = base;
	o->nel = 1;
	if (L->tk.k == GS_TK_ID)
		parse_name(L, b, base);
	else
		parse_number(L, base, 0);
	if (base->kind != GS_PO_REG && base->kind != GS_PO_SYM && base->kind != GS_PO_INT)
		gs_ptxl_fail(L, "cannot parse address at line %u", L->tk.line);
	if (is_p(&L->tk, '+') || is_p(&L->tk, '-')) {
		int neg = L->tk.c == '-';

		next(L);
		if (accept_p(L, '-'))
			neg = !neg;
		uint64_t v = expect_uint(L, "an address offset");

		o->off = neg ? -(int64_t)v : (int64_t)v;
	}
	if (is_p(&L->tk, ',')) {
		/* [tex, {coordinates}]: texture and surface instructions, which
		 * decoding refuses by name */
		struct gs_ptxl_opnd rest;

		next(L);
		parse_list(L, b, &rest, ']');
		return;
	}
	expect_p(L, ']');
}

static void parse_operand(struct gs_ptxl *L, struct gs_ptxl_body *b, struct gs_ptxl_opnd *o)
{
	memset(o, 0, sizeof(*o));
	o->reg = -1;
	o->reg2 = -1;
	if (accept_p(L, '!')) {
		o->neg = 1;
		parse_name(L, b, o);
		if (o->kind != GS_PO_REG)
			gs_ptxl_fail(L, "cannot parse: '!' before '%s' at line %u", o->name,
				     L->tk.line);
		return;
	}
	if (accept_p(L, '-')) {
		parse_number(L, o, 1);
	} else if (L->tk.k == GS_TK_INT || L->tk.k == GS_TK_FLT) {
		parse_number(L, o, 0);
	} else if (L->tk.k == GS_TK_ID) {
		parse_name(L, b, o);
		if (o->kind == GS_PO_SYM && accept_p(L, '+'))
			o->off = (int64_t)expect_uint(L, "an offset");
	} else if (accept_p(L, '[')) {
		parse_addr(L, b, o);
	} else if (accept_p(L, '{')) {
		o->kind = GS_PO_VEC;
		parse_list(L, b, o, '}');
	} else if (accept_p(L, '(')) {
		o->kind = GS_PO_LIST;
		parse_list(L, b, o, ')');
	} else {
		unexpected(L, "an operand");
	}
	if (o->kind == GS_PO_REG && accept_p(L, '|')) {
		struct gs_ptxl_opnd q;

		memset(&q, 0, sizeof(q));
		parse_name(L, b, &q);
		if (q.kind != GS_PO_REG)
			unexpected(L, "a predicate register");
		o->reg2 = q.reg;
	}
}

/* The call sequence's .param variables are the callee's own parameters
 * (ptx_int.h): mark which argument (or the return value) each one is. */
static void mark_list(struct gs_ptxl *L, struct gs_ptxl_fn *F, int32_t si,
		      const struct gs_ptxl_opnd *o, int ret)
{
	for (int i = 0; i < o->nel; i++) {
		const struct gs_ptxl_opnd *a = &o->el[i];

		if (a->kind != GS_PO_SYM || a->reg < 0)
			gs_ptxl_fail(L, "call arguments other than call-sequence .param "
				     "variables at line %u are not supported", F->st[si].line);
		F->st[a->reg].call = si;
		F->st[a->reg].arg = ret ? -1 : i;
	}
}

/* call[.uni] [(ret),] callee [, (args)] */
static void link_call(struct gs_ptxl *L, struct gs_ptxl_fn *F, int32_t si)
{
	const struct gs_ptxl_stmt *s = &F->st[si];
	int k = 0;

	if (k < s->nop && s->op[k].kind == GS_PO_LIST)
		mark_list(L, F, si, &s->op[k++], 1);
	if (k >= s->nop || s->op[k].kind != GS_PO_SYM)
		return; /* an indirect call: refused when decoding */
	k++;
	if (k < s->nop && s->op[k].kind == GS_PO_LIST)
		mark_list(L, F, si, &s->op[k], 0);
}

/* [@[!]%p] opcode operands ; */
static void parse_ins(struct gs_ptxl *L, struct gs_ptxl_body *b)
{
	struct gs_ptxl_fn *F = b->F;
	uint32_t line = L->tk.line;
	int32_t guard = -1;
	uint8_t gneg = 0;

	if (accept_p(L, '@')) {
		struct gs_ptxl_opnd g;

		memset(&g, 0, sizeof(g));
		if (accept_p(L, '!'))
			gneg = 1;
		parse_name(L, b, &g);
		if (g.kind != GS_PO_REG || F->reg[g.reg].width != 0)
			gs_ptxl_fail(L, "cannot parse: guard '%s' is no predicate at line %u",
				     g.name ? g.name : "?", line);
		guard = g.reg;
	}
	line = L->tk.line;
	const char *opc = expect_id(L, "an instruction");
	struct gs_ptxl_opnd *ops = NULL;
	int n = 0, cap = 0;

	if (!is_p(&L->tk, ';')) {
		do {
			if (n == cap) {
				struct gs_ptxl_opnd *g;

				cap = cap ? 2 * cap : 4;
				g = gs_arena_alloc(&L->arena, (size_t)cap * sizeof(*g));
				if (n)
					memcpy(g, ops, (size_t)n * sizeof(*g));
				ops = g;
			}
			parse_operand(L, b, &ops[n++]);
		} while (accept_p(L, ','));
	}
	if (!is_p(&L->tk, ';'))
		unexpected(L, "',' or ';'");
	next(L);
	struct gs_ptxl_stmt *s = add_stmt(F, GS_PS_INS, line);

	s->guard = guard;
	s->gneg = gneg;
	s->text = opc;
	s->op = ops;
	s->nop = n;
	if (strncmp(opc, "call", 4) == 0 && (opc[4] == 0 || opc[4] == '.'))
		link_call(L, F, (int32_t)(F->nst - 1));
}

/* .param [.align N] .type name[[N]] ; inside a body: a call-sequence parameter */
static void parse_cparam(struct gs_ptxl *L, struct gs_ptxl_body *b)
{
	struct pdecl p = parse_param(L);
	struct gs_ptxl_stmt *s;

	expect_p(L, ';');
	s = add_stmt(b->F, GS_PS_CPARAM, p.line);
	s->text = p.name;
	s->size = p.size;
	s->align = p.align;
	scoped_put(&b->sc, &b->cparams, p.name, (int)(b->F->nst - 1));
}

static void parse_body(struct gs_ptxl *L, int f)
{
	/* on the heap: an error longjmps past this frame, gs_ptx_load frees it */
	struct gs_ptxl_body *b = gs_xcalloc(1, sizeof(*b));

	b->f = f;
	b->F = &L->fn[f];
	L->body = b;
	expect_p(L, '{');
	for (;;) {
		struct gs_ptxl_tok *t = &L->tk;

		if (t->k == GS_TK_EOF) {
			unexpected(L, "'}'");
		} else if (is_p(t, '}')) {
			uint32_t line = t->line;

			next(L);
			if (!b->nmarks) {
				b->F->close_line = line;
				break;
			}
			scope_pop(&b->sc, b->marks[--b->nmarks]);
		} else if (is_p(t, '{')) {
			gs_grow(&b->marks, &b->capmarks, b->nmarks + 1, sizeof(*b->marks));
			b->marks[b->nmarks++] = b->sc.n;
			next(L);
		} else if (is_id(t, ".reg")) {
			parse_reg(L, b);
		} else if (is_id(t, ".local") || is_id(t, ".shared")) {
			int space = space_of(t);

			next(L);
			parse_vars(L, space, f, 0);
		} else if (is_id(t, ".param")) {
			parse_cparam(L, b);
		} else if (is_id(t, ".pragma")) {
			skip_stmt(L);
		} else if (is_id(t, ".loc") || is_id(t, ".file")) {
			skip_line(L);
		} else if (t->k == GS_TK_ID && t->s[0] == '.') {
			gs_ptxl_fail(L, "unsupported directive '%s' at line %u", tok_text(L, t),
				     t->line);
		} else if (t->k == GS_TK_ID && is_p((struct gs_ptxl_tok[]){ peek(L) }, ':')) {
			uint32_t line = t->line;
			const char *name = expect_id(L, "a label");

			next(L); /* ':' */
			if (is_id(&L->tk, ".callprototype"))
				gs_ptxl_fail(L, "indirect calls (.callprototype at line %u) "
					     "are not supported", line);
			add_stmt(b->F, GS_PS_LABEL, line)->text = name;
		} else {
			parse_ins(L, b);
		}
	}
	L->body = NULL;
	gs_ptxl_body_release(b);
}

/* .entry name (params) [directives] { body }
 * .func [(ret)] name [(params)] [directives] ({ body } | ;) */
static void parse_function(struct gs_ptxl *L, int entry, int ext)
{
	uint32_t line = L->tk.line;
	struct pdecl *ret = NULL, *ps = NULL;
	size_t nret = 0, np = 0;
	const char *name;
	int f;

	next(L);
	if (!entry && is_p(&L->tk, '(')) {
		nret = parse_params(L, &ret);
		if (nret > 1)
			gs_ptxl_fail(L, "functions with %zu return values at line %u are not "
				     "supported", nret, line);
	}
	if (is_id(&L->tk, ".attribute") || is_id(&L->tk, ".noreturn"))
		gs_ptxl_fail(L, "unsupported function attribute '%s' at line %u",
			     tok_text(L, &L->tk), L->tk.line);
	line = L->tk.line;
	name = expect_id(L, "a function name");
	if (is_p(&L->tk, '('))
		np = parse_params(L, &ps);
	f = gs_ptxl_map_get(&L->fnmap, name);
	if (f < 0)
		f = add_fn(L, name, entry, line);
	else if (L->m->funcs[f].entry != entry)
		gs_ptxl_fail(L, "cannot parse: '%s' redeclared at line %u", name, line);
	set_params(L, f, ps, np, ret, nret);
	for (;;) {
		struct gs_ptxl_tok *t = &L->tk;
		struct gs_ptx_func *fn = &L->m->funcs[f];

		if (is_id(t, ".maxntid") || is_id(t, ".reqntid")) {
			next(L);
			for (int i = 0; i < 3; i++) {
				uint64_t v = expect_uint(L, "a thread count");

				fn->maxntid[i] = v > 0xffffffffu ? 0xffffffffu : (unsigned)v;
				if (!accept_p(L, ','))
					break;
			}
			for (int i = 0; i < 3; i++)
				if (!fn->maxntid[i])
					fn->maxntid[i] = 1;
		} else if (is_id(t, ".minnctapersm") || is_id(t, ".maxnreg") ||
			   is_id(t, ".maxclusterrank")) {
			next(L);
			expect_uint(L, "a number");
		} else if (is_id(t, ".reqnctapercluster")) {
			next(L);
			do
				expect_uint(L, "a number");
			while (accept_p(L, ','));
		} else if (is_id(t, ".explicitcluster") || is_id(t, ".noreturn")) {
			next(L);
		} else if (is_id(t, ".pragma")) {
			skip_stmt(L);
		} else {
			break;
		}
	}
	if (accept_p(L, ';'))
		return;
	if (ext)
		gs_ptxl_fail(L, "cannot parse: .extern function '%s' with a body at line %u", name,
			     line);
	if (L->m->funcs[f].defined)
		gs_ptxl_fail(L, "cannot parse: '%s' redefined at line %u", name, line);
	L->m->funcs[f].defined = 1;
	L->m->funcs[f].line = line;
	parse_body(L, f);
}

void gs_ptxl_parse(struct gs_ptxl *L)
{
	int ext = 0;

	L->p = L->text;
	L->line = 1;
	next(L);
	while (L->tk.k != GS_TK_EOF) {
		struct gs_ptxl_tok *t = &L->tk;

		if (is_id(t, ".version")) {
			next(L);
			if (L->tk.k != GS_TK_FLT && L->tk.k != GS_TK_INT)
				unexpected(L, "a version");
			next(L);
		} else if (is_id(t, ".target")) {
			next(L);
			do {
				const char *s = expect_id(L, "a target");

				if (strncmp(s, "sm_", 3) == 0)
					L->m->sm = atoi(s + 3);
			} while (accept_p(L, ','));
		} else if (is_id(t, ".address_size")) {
			uint32_t line = t->line;

			next(L);
			L->address_size = (int)expect_uint(L, "an address size");
			if (L->address_size != 64)
				gs_ptxl_fail(L, ".address_size %d at line %u is not supported "
					     "(only 64)", L->address_size, line);
		} else if (is_id(t, ".file") || is_id(t, ".loc")) {
			skip_line(L);
		} else if (is_id(t, ".section")) {
			skip_section(L);
		} else if (is_id(t, ".pragma")) {
			skip_stmt(L);
		} else if (is_id(t, ".visible") || is_id(t, ".weak") || is_id(t, ".common")) {
			next(L);
			continue;
		} else if (is_id(t, ".extern")) {
			ext = 1;
			next(L);
			continue;
		} else if (is_space_dir(t)) {
			int space = space_of(t);

			next(L);
			parse_vars(L, space, -1, ext);
		} else if (is_id(t, ".entry") || is_id(t, ".func")) {
			parse_function(L, is_id(t, ".entry"), ext);
		} else if (t->k == GS_TK_ID && t->s[0] == '.') {
			gs_ptxl_fail(L, "unsupported directive '%s' at line %u", tok_text(L, t),
				     t->line);
		} else {
			unexpected(L, "a directive");
		}
		ext = 0;
	}
}
