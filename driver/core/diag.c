/* diag.c — collecting and printing positioned diagnostics. */
#include "core/diag.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct gs_source *gs_source_new(const char *name, const char *text, size_t len)
{
	struct gs_source *s = gs_xmalloc(sizeof(*s));
	s->name = gs_xstrdup(name);
	s->text = gs_xstrndup(text, len);
	s->len = len;
	return s;
}

struct gs_source *gs_source_load(const char *path, struct gs_diag *d)
{
	char *text;
	size_t len;
	int rc = gs_read_file(path, &text, &len);
	if (rc < 0) {
		gs_diag_error(d, GS_NOLOC, "cannot read '%s': %s", path, gs_read_strerror(rc));
		return NULL;
	}
	struct gs_source *s = gs_xmalloc(sizeof(*s));
	s->name = gs_xstrdup(path);
	s->text = text;
	s->len = len;
	return s;
}

void gs_source_free(struct gs_source *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->text);
	free(s);
}

/* Continuation bytes of UTF-8 do not start a character. */
static int is_cont(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

void gs_loc_linecol(struct gs_loc loc, unsigned *line, unsigned *col)
{
	unsigned l = 1, c = 1;
	if (loc.src) {
		const char *t = loc.src->text;
		size_t off = loc.off <= loc.src->len ? loc.off : loc.src->len;
		for (size_t i = 0; i < off; i++) {
			if (t[i] == '\n') {
				l++;
				c = 1;
			} else if (!is_cont((unsigned char)t[i])) {
				c++;
			}
		}
	}
	*line = l;
	*col = c;
}

static void add(struct gs_diag *d, enum gs_severity sev, struct gs_loc loc, char *text)
{
	unsigned max = d->max_errors ? d->max_errors : 100;
	if (sev == GS_ERROR) {
		d->errors++;
		if (d->errors > max) {
			free(text);
			return;
		}
	} else if (sev == GS_WARNING) {
		d->warnings++;
	} else if (d->errors > max) {
		free(text); /* a note of a suppressed error */
		return;
	}
	gs_grow(&d->msgs, &d->cap, d->n + 1, sizeof(*d->msgs));
	d->msgs[d->n].sev = sev;
	d->msgs[d->n].loc = loc;
	d->msgs[d->n].text = text;
	d->n++;
}

void gs_diag_vadd(struct gs_diag *d, enum gs_severity sev, struct gs_loc loc, const char *fmt,
		  va_list ap)
{
	struct gs_buf b = GS_BUF_INIT;
	gs_buf_vprintf(&b, fmt, ap);
	add(d, sev, loc, gs_buf_detach(&b));
}

void gs_diag_add(struct gs_diag *d, enum gs_severity sev, struct gs_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gs_diag_vadd(d, sev, loc, fmt, ap);
	va_end(ap);
}

#define DEFINE_ADD(fn, sev)                                                                       \
	void fn(struct gs_diag *d, struct gs_loc loc, const char *fmt, ...)                        \
	{                                                                                          \
		va_list ap;                                                                        \
		va_start(ap, fmt);                                                                 \
		gs_diag_vadd(d, sev, loc, fmt, ap);                                                \
		va_end(ap);                                                                        \
	}
DEFINE_ADD(gs_diag_error, GS_ERROR)
DEFINE_ADD(gs_diag_warning, GS_WARNING)
DEFINE_ADD(gs_diag_note, GS_NOTE)

void gs_diag_suggest(struct gs_diag *d, struct gs_loc loc, const char *name,
		     const char *const *cands, size_t ncands)
{
	size_t len = strlen(name);
	size_t cap = len <= 2 ? 1 : len <= 5 ? 2 : 3;
	const char *best = NULL;
	size_t bestd = cap + 1;
	for (size_t i = 0; i < ncands; i++) {
		if (!cands[i] || !strcmp(cands[i], name))
			continue;
		size_t dist = gs_edit_distance(name, cands[i], cap);
		/* a case-only difference is the likeliest typo of all */
		if (strlen(cands[i]) == len && !strcasecmp(cands[i], name))
			dist = 0;
		if (dist < bestd) {
			bestd = dist;
			best = cands[i];
		}
	}
	if (best)
		gs_diag_note(d, loc, "did you mean '%s'?", best);
}

static const char *sev_name[] = { "error", "warning", "note" };

/* Print the source line with a caret under loc.  Lines longer than the window
 * are cut around the caret so a 10 MB line prints as one terminal line. */
static void print_excerpt(const struct gs_loc loc, FILE *f, unsigned line)
{
	const struct gs_source *s = loc.src;
	size_t off = loc.off <= s->len ? loc.off : s->len;
	size_t bol = off, eol = off;
	while (bol > 0 && s->text[bol - 1] != '\n')
		bol--;
	while (eol < s->len && s->text[eol] != '\n')
		eol++;
	if (eol > bol && s->text[eol - 1] == '\r')
		eol--;
	enum { WINDOW = 100, BEFORE = 60 };
	size_t start = bol, end = eol;
	/* window in bytes, moved to character boundaries */
	if (off - bol > BEFORE) {
		start = off - BEFORE;
		while (start > bol && is_cont((unsigned char)s->text[start]))
			start--;
	}
	if (end - start > WINDOW) {
		end = start + WINDOW;
		while (end > start && end < eol && is_cont((unsigned char)s->text[end]))
			end--;
	}
	if (off > end)
		off = end;
	char num[16];
	int w = snprintf(num, sizeof num, "%u", line);
	if (w < 4)
		w = 4;
	fprintf(f, "%*u | %s", w, line, start > bol ? "..." : "");
	for (size_t i = start; i < end; i++) {
		unsigned char c = (unsigned char)s->text[i];
		/* control bytes would corrupt the terminal: show them as '?' */
		fputc(c == '\t' ? ' ' : (c < 0x20 || c == 0x7f) ? '?' : c, f);
	}
	fprintf(f, "%s\n", end < eol ? "..." : "");
	fprintf(f, "%*s | %s", w, "", start > bol ? "   " : "");
	size_t col = 0;
	for (size_t i = start; i < off; i++)
		if (!is_cont((unsigned char)s->text[i]))
			col++;
	fprintf(f, "%*s^", (int)col, "");
	size_t ulen = loc.len;
	if (off + ulen > end)
		ulen = end > off ? end - off : 0;
	size_t chars = 0;
	for (size_t i = off; i < off + ulen; i++)
		if (!is_cont((unsigned char)s->text[i]))
			chars++;
	for (size_t i = 1; i < chars; i++)
		fputc('~', f);
	fputc('\n', f);
}

void gs_diag_print(const struct gs_diag *d, FILE *f)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct gs_diag_msg *m = &d->msgs[i];
		if (m->loc.src) {
			unsigned line, col;
			gs_loc_linecol(m->loc, &line, &col);
			fprintf(f, "%s:%u:%u: %s: %s\n", m->loc.src->name, line, col,
				sev_name[m->sev], m->text);
			print_excerpt(m->loc, f, line);
		} else {
			fprintf(f, "gsearch: %s: %s\n", sev_name[m->sev], m->text);
		}
	}
	unsigned max = d->max_errors ? d->max_errors : 100;
	if (d->errors > max)
		fprintf(f, "gsearch: note: %u more errors not shown\n", d->errors - max);
}

void gs_diag_clear(struct gs_diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->msgs[i].text);
	d->n = 0;
	d->errors = d->warnings = 0;
}

void gs_diag_release(struct gs_diag *d)
{
	gs_diag_clear(d);
	free(d->msgs);
	d->msgs = NULL;
	d->cap = 0;
}
