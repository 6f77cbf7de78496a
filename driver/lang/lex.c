/* lex.c — the streaming lexer of the space language. */
#include "lang/lex.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *tok_names[] = {
#define X(n, s) s,
	GS_TOKENS(X)
#undef X
};

const char *gs_tok_name(int t)
{
	return t >= 0 && t < (int)GS_ARRAY_SIZE(tok_names) ? tok_names[t] : "?";
}

static const struct {
	const char *word;
	int kind;
} keywords[] = {
	{ "and", GS_TOK_AND },   { "or", GS_TOK_OR },     { "not", GS_TOK_NOT },
	{ "in", GS_TOK_IN },     { "is", GS_TOK_IS },     { "if", GS_TOK_IF },
	{ "else", GS_TOK_ELSE }, { "for", GS_TOK_FOR },   { "lambda", GS_TOK_LAMBDA },
	{ "True", GS_TOK_TRUE }, { "False", GS_TOK_FALSE }, { "None", GS_TOK_NONE },
};

void gs_lex_init(struct gs_lexer *lx, const struct gs_source *src, struct gs_diag *d)
{
	memset(lx, 0, sizeof(*lx));
	lx->src = src;
	lx->d = d;
	lx->end = src->len;
	lx->last_kind = GS_TOK_NEWLINE;
}

void gs_lex_init_range(struct gs_lexer *lx, const struct gs_source *src, struct gs_diag *d,
		       size_t start, size_t end)
{
	gs_lex_init(lx, src, d);
	lx->pos = start;
	lx->end = end < src->len ? end : src->len;
}

void gs_lex_release(struct gs_lexer *lx)
{
	for (int i = 0; i < lx->nla; i++)
		free(lx->la[i].s);
	lx->nla = 0;
}

static struct gs_loc loc_at(struct gs_lexer *lx, size_t off, size_t len)
{
	struct gs_loc l = { lx->src, (uint32_t)off, (uint32_t)len };
	return l;
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 if invalid. */
static int utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned c = p[0];
	int n;
	unsigned min;
	if (c < 0x80)
		return 1;
	if ((c & 0xE0) == 0xC0) {
		n = 2;
		min = 0x80;
		c &= 0x1F;
	} else if ((c & 0xF0) == 0xE0) {
		n = 3;
		min = 0x800;
		c &= 0x0F;
	} else if ((c & 0xF8) == 0xF0) {
		n = 4;
		min = 0x10000;
		c &= 0x07;
	} else {
		return 0;
	}
	if (end - p < n)
		return 0;
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	return n;
}

/* Check a byte that is not ASCII; report it and return how far to skip. */
static size_t bad_byte(struct gs_lexer *lx, size_t i, int in_text)
{
	const unsigned char *t = (const unsigned char *)lx->src->text;
	const unsigned char *end = t + lx->end;
	if (t[i] == 0) {
		gs_diag_error(lx->d, loc_at(lx, i, 1), "unexpected NUL byte");
		return 1;
	}
	int n = utf8_len(t + i, end);
	if (n == 0) {
		gs_diag_error(lx->d, loc_at(lx, i, 1), "invalid UTF-8 byte 0x%02x", t[i]);
		return 1;
	}
	if (!in_text)
		gs_diag_error(lx->d, loc_at(lx, i, (size_t)n), "unexpected character '%.*s'", n,
			      (const char *)t + i);
	return (size_t)n;
}

static int is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* above any base: a non-digit ends a number whatever its base */
static int digit_value(int c)
{
	int v = gs_hex_digit(c);
	return v < 0 ? 99 : v;
}

static void lex_number(struct gs_lexer *lx, struct gs_token *t)
{
	const char *s = lx->src->text;
	size_t start = lx->pos, i = lx->pos, n = lx->end;
	int base = 10;
	if (s[i] == '0' && i + 1 < n && strchr("xXoObB", s[i + 1]) && s[i + 1]) {
		int c = s[i + 1] | 0x20;
		base = c == 'x' ? 16 : c == 'o' ? 8 : 2;
		i += 2;
	}
	int isfloat = 0;
	size_t j = i;
	while (j < n && (digit_value((unsigned char)s[j]) < (base == 10 ? 10 : base) ||
			 s[j] == '_'))
		j++;
	if (base == 10) {
		if (j < n && s[j] == '.' && !(j + 1 < n && s[j + 1] == '.')) {
			isfloat = 1;
			j++;
			while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == '_'))
				j++;
		}
		if (j < n && (s[j] == 'e' || s[j] == 'E')) {
			size_t k = j + 1;
			if (k < n && (s[k] == '+' || s[k] == '-'))
				k++;
			if (k < n && s[k] >= '0' && s[k] <= '9') {
				isfloat = 1;
				j = k;
				while (j < n && s[j] >= '0' && s[j] <= '9')
					j++;
			}
		}
	}
	/* a name glued to a number (12abc) is an error, as in Python */
	size_t end = j;
	while (end < n && is_ident((unsigned char)s[end]))
		end++;
	t->loc = loc_at(lx, start, end - start);
	lx->pos = end;
	if (end != j) {
		gs_diag_error(lx->d, t->loc, "invalid number literal '%.*s'", (int)(end - start),
			      s + start);
		t->kind = GS_TOK_INT;
		t->i = 0;
		return;
	}
	char buf[512];
	size_t bl = 0;
	for (size_t k = (base == 10 ? start : i); k < j && bl + 1 < sizeof buf; k++)
		if (s[k] != '_')
			buf[bl++] = s[k];
	buf[bl] = 0;
	if (isfloat) {
		t->kind = GS_TOK_FLOAT;
		t->f = strtod(buf, NULL);
		if (isinf(t->f))
			gs_diag_error(lx->d, t->loc, "number literal too large");
		return;
	}
	t->kind = GS_TOK_INT;
	if (bl == 0) {
		gs_diag_error(lx->d, t->loc, "invalid number literal '%.*s'", (int)(j - start),
			      s + start);
		t->i = 0;
		return;
	}
	if (base == 10 && bl > 1 && buf[0] == '0' && strspn(buf, "0") != bl) {
		gs_diag_error(lx->d, t->loc,
			      "leading zeros in decimal integer literals are not permitted");
		t->i = 0;
		return;
	}
	errno = 0;
	unsigned long long v = strtoull(buf, NULL, base);
	if (errno == ERANGE || v > (unsigned long long)INT64_MAX || j - start > sizeof buf - 2) {
		gs_diag_error(lx->d, t->loc,
			      "integer literal too large (integers are 64-bit, at most %lld)",
			      (long long)INT64_MAX);
		t->i = 0;
		return;
	}
	t->i = (int64_t)v;
}

static void lex_string(struct gs_lexer *lx, struct gs_token *t)
{
	const char *s = lx->src->text;
	size_t start = lx->pos, n = lx->end, i = start + 1;
	char q = s[start];
	struct gs_buf b = GS_BUF_INIT;
	/* strings are ASCII: the evaluator indexes and measures them by byte,
	 * and results are JSON, which has no room for bytes that are not
	 * UTF-8.  One error per literal is enough. */
	int non_ascii = 0;
	for (;;) {
		if (i >= n || s[i] == '\n') {
			gs_diag_error(lx->d, loc_at(lx, start, 1), "unterminated string");
			break;
		}
		unsigned char c = (unsigned char)s[i];
		if (c == (unsigned char)q) {
			i++;
			break;
		}
		if (c == '\\' && i + 1 < n) {
			char e = s[i + 1];
			i += 2;
			switch (e) {
			case 'n': gs_buf_putc(&b, '\n'); break;
			case 't': gs_buf_putc(&b, '\t'); break;
			case 'r': gs_buf_putc(&b, '\r'); break;
			case '0': gs_buf_putc(&b, 0); break;
			case '\\': case '\'': case '"': gs_buf_putc(&b, e); break;
			case '\n': break;
			case 'x':
				if (i + 1 < n && digit_value((unsigned char)s[i]) < 16 &&
				    digit_value((unsigned char)s[i + 1]) < 16) {
					int v = digit_value((unsigned char)s[i]) * 16 +
						digit_value((unsigned char)s[i + 1]);
					if (v >= 0x80 && !non_ascii++)
						gs_diag_error(lx->d, loc_at(lx, i - 2, 4),
							      "escape '%.4s' is not ASCII: strings are ASCII",
							      s + i - 2);
					gs_buf_putc(&b, v);
					i += 2;
					break;
				}
				/* fall through */
			default:
				gs_diag_error(lx->d, loc_at(lx, i - 2, 2), "invalid escape sequence");
			}
			continue;
		}
		if (c >= 0x80 || c == 0) {
			int u = c ? utf8_len((const unsigned char *)s + i, (const unsigned char *)s + n) : 0;
			if (u && !non_ascii++)
				gs_diag_error(lx->d, loc_at(lx, i, (size_t)u),
					      "non-ASCII character '%.*s' in a string: strings are ASCII", u,
					      s + i);
			size_t k = bad_byte(lx, i, 1);
			gs_buf_put(&b, s + i, k);
			i += k;
			continue;
		}
		gs_buf_putc(&b, c);
		i++;
	}
	t->kind = GS_TOK_STRING;
	t->loc = loc_at(lx, start, i - start);
	t->slen = b.len;
	t->s = gs_buf_detach(&b);
	lx->pos = i;
}

static void push_bracket(struct gs_lexer *lx, size_t off)
{
	if (lx->depth < GS_LEX_DEPTH)
		lx->open_at[lx->depth] = (uint32_t)off;
	lx->depth++;
}

static void scan(struct gs_lexer *lx, struct gs_token *t)
{
	const char *s = lx->src->text;
	size_t n = lx->end;
	memset(t, 0, sizeof(*t));
again:
	while (lx->pos < n) {
		unsigned char c = (unsigned char)s[lx->pos];
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
			lx->pos++;
		} else if (c == '#') {
			while (lx->pos < n && s[lx->pos] != '\n') {
				unsigned char k = (unsigned char)s[lx->pos];
				lx->pos += (k >= 0x80 || k == 0) ? bad_byte(lx, lx->pos, 1) : 1;
			}
		} else if (c == '\\' && lx->pos + 1 < n &&
			   (s[lx->pos + 1] == '\n' ||
			    (s[lx->pos + 1] == '\r' && lx->pos + 2 < n && s[lx->pos + 2] == '\n'))) {
			lx->pos += s[lx->pos + 1] == '\n' ? 2 : 3;
		} else if (c == '\n') {
			if (lx->depth == 0 && lx->last_kind != GS_TOK_NEWLINE) {
				t->kind = GS_TOK_NEWLINE;
				t->loc = loc_at(lx, lx->pos, 1);
				lx->pos++;
				return;
			}
			lx->pos++;
		} else {
			break;
		}
	}
	if (lx->pos >= n) {
		if (lx->depth > 0) {
			int k = lx->depth <= GS_LEX_DEPTH ? lx->depth - 1 : GS_LEX_DEPTH - 1;
			struct gs_loc open = loc_at(lx, lx->open_at[k], 1);
			gs_diag_error(lx->d, loc_at(lx, n, 0), "unexpected end of file: '%c' is not closed",
				      s[lx->open_at[k]]);
			gs_diag_note(lx->d, open, "opened here");
			lx->depth = 0;
		}
		t->kind = lx->last_kind == GS_TOK_NEWLINE ? GS_TOK_EOF : GS_TOK_NEWLINE;
		t->loc = loc_at(lx, n, 0);
		return;
	}
	size_t start = lx->pos;
	unsigned char c = (unsigned char)s[start];
	unsigned char c1 = start + 1 < n ? (unsigned char)s[start + 1] : 0;
	if (is_ident_start(c)) {
		size_t e = start;
		while (e < n && is_ident((unsigned char)s[e]))
			e++;
		lx->pos = e;
		t->loc = loc_at(lx, start, e - start);
		for (size_t k = 0; k < GS_ARRAY_SIZE(keywords); k++) {
			if (strlen(keywords[k].word) == e - start &&
			    !memcmp(keywords[k].word, s + start, e - start)) {
				t->kind = keywords[k].kind;
				return;
			}
		}
		t->kind = GS_TOK_NAME;
		t->s = gs_xstrndup(s + start, e - start);
		t->slen = e - start;
		return;
	}
	if ((c >= '0' && c <= '9') || (c == '.' && c1 >= '0' && c1 <= '9')) {
		lex_number(lx, t);
		return;
	}
	if (c == '"' || c == '\'') {
		lex_string(lx, t);
		return;
	}
	int kind = -1, len = 1;
	switch (c) {
	case '(': kind = GS_TOK_LPAREN; break;
	case ')': kind = GS_TOK_RPAREN; break;
	case '[': kind = GS_TOK_LBRACKET; break;
	case ']': kind = GS_TOK_RBRACKET; break;
	case '{': kind = GS_TOK_LBRACE; break;
	case '}': kind = GS_TOK_RBRACE; break;
	case ',': kind = GS_TOK_COMMA; break;
	case ':': kind = GS_TOK_COLON; break;
	case '.': kind = GS_TOK_DOT; break;
	case '+': kind = GS_TOK_PLUS; break;
	case '-': kind = GS_TOK_MINUS; break;
	case '%': kind = GS_TOK_PERCENT; break;
	case '&': kind = GS_TOK_AMP; break;
	case '|': kind = GS_TOK_PIPE; break;
	case '^': kind = GS_TOK_CARET; break;
	case '~': kind = GS_TOK_TILDE; break;
	case '*':
		kind = c1 == '*' ? GS_TOK_POW : GS_TOK_STAR;
		len = c1 == '*' ? 2 : 1;
		break;
	case '/':
		kind = c1 == '/' ? GS_TOK_DSLASH : GS_TOK_SLASH;
		len = c1 == '/' ? 2 : 1;
		break;
	case '<':
		kind = c1 == '=' ? GS_TOK_LE : c1 == '<' ? GS_TOK_LSHIFT : GS_TOK_LT;
		len = (c1 == '=' || c1 == '<') ? 2 : 1;
		break;
	case '>':
		kind = c1 == '=' ? GS_TOK_GE : c1 == '>' ? GS_TOK_RSHIFT : GS_TOK_GT;
		len = (c1 == '=' || c1 == '>') ? 2 : 1;
		break;
	case '=':
		kind = c1 == '=' ? GS_TOK_EQ : GS_TOK_ASSIGN;
		len = c1 == '=' ? 2 : 1;
		break;
	case '!':
		if (c1 == '=') {
			kind = GS_TOK_NE;
			len = 2;
		}
		break;
	}
	if (kind < 0) {
		if (c >= 0x80 || c == 0) {
			lx->pos += bad_byte(lx, start, 0);
		} else {
			gs_diag_error(lx->d, loc_at(lx, start, 1), "unexpected character '%c'", c);
			lx->pos++;
		}
		goto again;
	}
	lx->pos += (size_t)len;
	t->kind = kind;
	t->loc = loc_at(lx, start, (size_t)len);
	if (kind == GS_TOK_LPAREN || kind == GS_TOK_LBRACKET || kind == GS_TOK_LBRACE) {
		push_bracket(lx, start);
	} else if (kind == GS_TOK_RPAREN || kind == GS_TOK_RBRACKET || kind == GS_TOK_RBRACE) {
		if (lx->depth == 0) {
			gs_diag_error(lx->d, t->loc, "unmatched '%c'", c);
			goto again;
		}
		lx->depth--;
	}
}

const struct gs_token *gs_lex_peek(struct gs_lexer *lx, int k)
{
	while (lx->nla <= k) {
		struct gs_token *t = &lx->la[lx->nla];
		if (lx->nla > 0 && lx->la[lx->nla - 1].kind == GS_TOK_EOF) {
			*t = lx->la[lx->nla - 1];
			t->s = NULL;
		} else {
			scan(lx, t);
			lx->last_kind = t->kind;
		}
		lx->nla++;
	}
	return &lx->la[k];
}

void gs_lex_next(struct gs_lexer *lx, struct gs_token *out)
{
	gs_lex_peek(lx, 0);
	if (out)
		*out = lx->la[0];
	else
		free(lx->la[0].s);
	lx->la[0] = lx->la[1];
	lx->nla--;
}
