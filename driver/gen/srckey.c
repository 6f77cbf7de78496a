/* srckey.c — the part of a kernel source that a compile depends on.
 *
 * A comment or a change of blanks must not make a configuration measured
 * again, so the variant's key holds the source with comments out and blanks
 * collapsed: a comment becomes one blank, and a run of blanks (line breaks
 * included) one space.  String and character literals are kept byte for
 * byte; a line break stays where the preprocessor needs one, before and
 * after a directive.
 *
 * Line numbers can reach the code: __LINE__, assert, and the macros of an
 * included header.  A source that names __LINE__ or assert, or includes
 * anything, keeps every line break (comments' and blank lines' too), so that
 * every token stays on its line.  A raw string literal (R"...") keeps the
 * whole source as it is: its backslash-newlines are not splices. */
#include "gen/variant.h"

#include <stdlib.h>
#include <string.h>

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || (unsigned char)c >= 0x80;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

struct norm {
	struct gs_buf *out;
	int keep_lines;  /* every line break stays */
	int line_bound;  /* saw __LINE__, assert or #include */
	size_t pending;  /* line breaks taken out by splices, owed */
	int ws;          /* a blank is owed before the next token */
	int nl;          /* line breaks owed */
	int at_line;     /* nothing but blanks since the last line break */
	int directive;   /* this line is a preprocessor directive */
	int after_dir;   /* the owed line break ends a directive */
};

/* What is owed before a token; dir: the token starts a directive. */
static void flush_space(struct norm *n, int dir)
{
	if (n->nl && (n->keep_lines || n->after_dir || dir)) {
		int k = n->keep_lines ? n->nl : 1;
		for (int i = 0; i < k; i++)
			gs_buf_putc(n->out, '\n');
	} else if ((n->ws || n->nl) && n->out->len) {
		gs_buf_putc(n->out, ' ');
	}
	n->nl = 0;
	n->ws = 0;
	n->after_dir = 0;
}

static void line_break(struct norm *n)
{
	n->nl += 1 + (int)n->pending;
	n->pending = 0;
	n->ws = 0;
	n->at_line = 1;
	n->after_dir |= n->directive;
	n->directive = 0;
}

/* One pass over s (splices already out).  splice_at[i]: splices removed
 * right before s[i], counted into the next line break. */
static void pass(struct norm *n, const char *s, size_t len, const unsigned char *splices)
{
	size_t i = 0;
	int ppnum = 0; /* inside a preprocessing number (1'000 has no char literal) */
	while (i < len) {
		if (splices)
			n->pending += splices[i];
		char c = s[i];
		if (c == '\n') {
			line_break(n);
			ppnum = 0;
			i++;
			continue;
		}
		if (is_blank(c)) {
			n->ws = 1;
			ppnum = 0;
			i++;
			continue;
		}
		if (c == '/' && i + 1 < len && s[i + 1] == '/') {
			while (i < len && s[i] != '\n')
				i++;
			n->ws = 1;
			continue;
		}
		if (c == '/' && i + 1 < len && s[i + 1] == '*') {
			i += 2;
			while (i < len && !(s[i] == '*' && i + 1 < len && s[i + 1] == '/')) {
				if (splices)
					n->pending += splices[i];
				if (s[i] == '\n') {
					/* a line break inside a comment is the same blank as any */
					n->nl += 1 + (int)n->pending;
					n->pending = 0;
				}
				i++;
			}
			i = i + 2 <= len ? i + 2 : len;
			n->ws = 1;
			continue;
		}
		/* a token starts here */
		int new_token = n->ws || n->nl || !n->out->len;
		int dir = n->at_line && c == '#';
		if (dir)
			n->directive = 1;
		n->at_line = 0;
		flush_space(n, dir);
		if (c == '"' || (c == '\'' && !ppnum)) {
			size_t j = i + 1;
			while (j < len && s[j] != c && s[j] != '\n')
				j += s[j] == '\\' && j + 1 < len ? 2 : 1;
			if (j < len && s[j] == c)
				j++;
			gs_buf_put(n->out, s + i, j - i);
			i = j;
			ppnum = 0;
			continue;
		}
		if (ident_char(c)) {
			size_t j = i;
			int starts_number =
				(c >= '0' && c <= '9') && (new_token || i == 0 || !ident_char(s[i - 1]));
			if (starts_number)
				ppnum = 1;
			while (j < len && (ident_char(s[j]) || (ppnum && (s[j] == '.' || s[j] == '\''))))
				j++;
			size_t w = j - i;
			if ((w == 8 && !memcmp(s + i, "__LINE__", 8)) || (w == 6 && !memcmp(s + i, "assert", 6)) ||
			    (w == 7 && !memcmp(s + i, "include", 7) && n->directive))
				n->line_bound = 1;
			gs_buf_put(n->out, s + i, w);
			i = j;
			continue;
		}
		if (c == '.' && i + 1 < len && s[i + 1] >= '0' && s[i + 1] <= '9')
			ppnum = 1;
		else if (!(ppnum && (c == '+' || c == '-') && i > 0 && strchr("eEpP", s[i - 1])))
			ppnum = ppnum && c == '.';
		gs_buf_putc(n->out, c);
		i++;
	}
}

void gs_source_key(const char *text, size_t len, struct gs_buf *out)
{
	/* a raw string literal's text is not lexed as the rest: keep it all */
	for (size_t i = 0; i + 1 < len; i++)
		if (text[i] == 'R' && text[i + 1] == '"') {
			gs_buf_put(out, text, len);
			return;
		}
	/* splices (backslash, line break) out first, as the compiler does */
	char *s = gs_xmalloc(len + 1);
	unsigned char *sp = gs_xcalloc(len + 1, 1);
	size_t n = 0;
	for (size_t i = 0; i < len;) {
		size_t k = 0;
		if (text[i] == '\\' && i + 1 < len && text[i + 1] == '\n')
			k = 2;
		else if (text[i] == '\\' && i + 2 < len && text[i + 1] == '\r' && text[i + 2] == '\n')
			k = 3;
		if (k) {
			if (sp[n] < 255)
				sp[n]++;
			i += k;
			continue;
		}
		s[n++] = text[i++];
	}
	size_t start = out->len;
	struct norm nm = { .out = out, .at_line = 1 };
	pass(&nm, s, n, sp);
	if (nm.line_bound) {
		out->len = start;
		if (out->p)
			out->p[start] = 0;
		nm = (struct norm){ .out = out, .keep_lines = 1, .at_line = 1 };
		pass(&nm, s, n, sp);
	}
	/* the end: a directive's line break, every line in keep_lines */
	nm.nl += (int)nm.pending;
	if (nm.nl && (nm.keep_lines || nm.after_dir))
		flush_space(&nm, 0);
	free(s);
	free(sp);
}

void gs_source_key_hash(const char *text, size_t len, char hex[33])
{
	struct gs_buf b = GS_BUF_INIT;
	gs_source_key(text, len, &b);
	gs_hash_hex(b.p ? b.p : "", b.len, hex);
	gs_buf_release(&b);
}
