/* output.c — how reports print: aligned tables that fit 100 columns, CSV,
 * JSON, and the formatting of figures. */
#include "query/query.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 100

struct qcol {
	char *header, *csv_name;
	int right;
};

struct gs_qtable {
	struct qcol *cols;
	size_t ncols, colcap;
	char **cells; /* display text, row-major */
	char **csv;   /* CSV text, NULL: the display text */
	size_t ncells, cellcap;
	size_t pfirst, pn; /* parameter columns */
};

struct gs_qtable *gs_qtable_new(void)
{
	return gs_xcalloc(1, sizeof(struct gs_qtable));
}

void gs_qtable_col(struct gs_qtable *t, const char *header, const char *csv_name, int right)
{
	gs_grow(&t->cols, &t->colcap, t->ncols + 1, sizeof(*t->cols));
	struct qcol *c = &t->cols[t->ncols++];
	c->header = gs_xstrdup(header);
	c->csv_name = gs_xstrdup(csv_name ? csv_name : header);
	c->right = right;
}

void gs_qtable_params(struct gs_qtable *t, size_t first, size_t n)
{
	t->pfirst = first;
	t->pn = n;
}

void gs_qtable_cell(struct gs_qtable *t, const char *text, const char *csv)
{
	size_t cap = t->cellcap;
	gs_grow(&t->cells, &t->cellcap, t->ncells + 1, sizeof(*t->cells));
	gs_grow(&t->csv, &cap, t->ncells + 1, sizeof(*t->csv));
	t->cells[t->ncells] = gs_xstrdup(text);
	t->csv[t->ncells] = csv ? gs_xstrdup(csv) : NULL;
	t->ncells++;
}

void gs_qtable_cellf(struct gs_qtable *t, const char *fmt, ...)
{
	struct gs_buf b = GS_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	gs_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	gs_qtable_cell(t, gs_buf_str(&b), NULL);
	gs_buf_release(&b);
}

void gs_qtable_value(struct gs_qtable *t, struct gs_value v)
{
	struct gs_buf a = GS_BUF_INIT, b = GS_BUF_INIT;
	gs_qfmt(&a, v);
	gs_qfmt_exact(&b, v);
	gs_qtable_cell(t, gs_buf_str(&a), gs_buf_str(&b));
	gs_buf_release(&a);
	gs_buf_release(&b);
}

void gs_qtable_free(struct gs_qtable *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ncols; i++) {
		free(t->cols[i].header);
		free(t->cols[i].csv_name);
	}
	for (size_t i = 0; i < t->ncells; i++) {
		free(t->cells[i]);
		free(t->csv[i]);
	}
	free(t->cols);
	free(t->cells);
	free(t->csv);
	free(t);
}

/* Display width: UTF-8 code points. */
static size_t width(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

void gs_qcsv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void print_csv(struct gs_qtable *t, FILE *f)
{
	for (size_t c = 0; c < t->ncols; c++) {
		if (c)
			fputc(',', f);
		gs_qcsv_field(f, t->cols[c].csv_name);
	}
	fputc('\n', f);
	size_t nrows = t->ncols ? t->ncells / t->ncols : 0;
	for (size_t r = 0; r < nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			size_t i = r * t->ncols + c;
			if (c)
				fputc(',', f);
			gs_qcsv_field(f, t->csv[i] ? t->csv[i] : t->cells[i]);
		}
		fputc('\n', f);
	}
}

/* Put `s` padded to `w`, left or right; no trailing blanks on the last. */
static void put_cell(struct gs_buf *line, const char *s, size_t w, int right, int last)
{
	size_t n = width(s);
	if (right)
		for (size_t k = n; k < w; k++)
			gs_buf_putc(line, ' ');
	gs_buf_puts(line, s);
	if (!right && !last)
		for (size_t k = n; k < w; k++)
			gs_buf_putc(line, ' ');
}

/* Wrap `s` at blanks into lines of at most w characters (a longer word
 * stands alone on its line). */
static size_t wrap(const char *s, size_t w, char ***lines)
{
	size_t n = 0, cap = 0;
	*lines = NULL;
	while (*s) {
		const char *end = s, *cut = NULL;
		size_t k = 0;
		while (*end && k <= w) {
			if (*end == ' ')
				cut = end;
			end++;
			k++;
		}
		if (!*end && k <= w)
			cut = end;
		else if (!cut)
			for (cut = s; *cut && *cut != ' '; cut++)
				;
		gs_grow(lines, &cap, n + 1, sizeof(**lines));
		(*lines)[n++] = gs_xstrndup(s, (size_t)(cut - s));
		s = cut;
		while (*s == ' ')
			s++;
	}
	if (!n) {
		gs_grow(lines, &cap, 1, sizeof(**lines));
		(*lines)[n++] = gs_xstrdup("");
	}
	return n;
}

/* Merge the parameter columns into one "parameters" column at the end. */
static void merge_params(struct gs_qtable *t)
{
	size_t nrows = t->ncells / t->ncols;
	size_t nc = t->ncols - t->pn + 1;
	char **cells = gs_xcalloc(nrows * nc + 1, sizeof(*cells));
	for (size_t r = 0; r < nrows; r++) {
		size_t o = 0;
		struct gs_buf b = GS_BUF_INIT;
		for (size_t c = 0; c < t->ncols; c++) {
			char *s = t->cells[r * t->ncols + c];
			if (c >= t->pfirst && c < t->pfirst + t->pn) {
				gs_buf_printf(&b, "%s%s=%s", b.len ? " " : "", t->cols[c].header, s);
				free(s);
			} else {
				cells[r * nc + o++] = s;
			}
		}
		cells[r * nc + o] = gs_buf_detach(&b);
	}
	struct qcol *cols = gs_xcalloc(nc, sizeof(*cols));
	size_t o = 0;
	for (size_t c = 0; c < t->ncols; c++) {
		if (c >= t->pfirst && c < t->pfirst + t->pn) {
			free(t->cols[c].header);
			free(t->cols[c].csv_name);
		} else {
			cols[o++] = t->cols[c];
		}
	}
	cols[o].header = gs_xstrdup("parameters");
	cols[o].csv_name = gs_xstrdup("parameters");
	cols[o].right = 0;
	for (size_t i = 0; i < t->ncells; i++)
		free(t->csv[i]);
	free(t->csv);
	t->csv = gs_xcalloc(nrows * nc + 1, sizeof(*t->csv));
	free(t->cells);
	free(t->cols);
	t->cells = cells;
	t->cols = cols;
	t->ncols = t->colcap = nc;
	t->ncells = t->cellcap = nrows * nc;
	t->pn = 0;
}

static size_t total_width(struct gs_qtable *t, size_t *w, size_t sep)
{
	size_t nrows = t->ncells / t->ncols, total = 0;
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = width(t->cols[c].header);
		for (size_t r = 0; r < nrows; r++) {
			size_t k = width(t->cells[r * t->ncols + c]);
			if (k > w[c])
				w[c] = k;
		}
		total += w[c] + (c ? sep : 0);
	}
	return total;
}

void gs_qtable_print(struct gs_qtable *t, FILE *f, int csv)
{
	if (!t->ncols)
		return;
	if (csv) {
		print_csv(t, f);
		return;
	}
	size_t *w = gs_xcalloc(t->ncols + 1, sizeof(*w));
	size_t sep = 2;
	if (total_width(t, w, sep) > WIDTH) {
		sep = 1;
		if (total_width(t, w, sep) > WIDTH && t->pn > 1) {
			merge_params(t);
			free(w);
			w = gs_xcalloc(t->ncols + 1, sizeof(*w));
			sep = 2;
			if (total_width(t, w, sep) > WIDTH)
				sep = 1;
			total_width(t, w, sep);
		}
	}
	/* the last column wraps into what is left of the line */
	size_t start = 0;
	for (size_t c = 0; c + 1 < t->ncols; c++)
		start += w[c] + sep;
	size_t lastw = start + 20 < WIDTH ? WIDTH - start : 20;
	if (w[t->ncols - 1] > lastw)
		w[t->ncols - 1] = lastw;
	size_t nrows = t->ncells / t->ncols;
	struct gs_buf line = GS_BUF_INIT;
	for (size_t r = 0; r <= nrows; r++) {
		char **wrapped = NULL;
		size_t nw = 0;
		gs_buf_reset(&line);
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = r ? t->cells[(r - 1) * t->ncols + c] : t->cols[c].header;
			int last = c + 1 == t->ncols;
			if (c)
				for (size_t k = 0; k < sep; k++)
					gs_buf_putc(&line, ' ');
			if (last && width(s) > w[c] && !t->cols[c].right) {
				nw = wrap(s, w[c], &wrapped);
				s = wrapped[0];
			}
			put_cell(&line, s, w[c], t->cols[c].right, last);
		}
		while (line.len && line.p[line.len - 1] == ' ')
			line.p[--line.len] = '\0';
		fprintf(f, "%s\n", gs_buf_str(&line));
		for (size_t k = 1; k < nw; k++)
			fprintf(f, "%*s%s\n", (int)start, "", wrapped[k]);
		for (size_t k = 0; k < nw; k++)
			free(wrapped[k]);
		free(wrapped);
	}
	gs_buf_release(&line);
	free(w);
}

void gs_qprint_line(FILE *f, const char *label, const char *text)
{
	/* labels are short words; a longer one pushes its first line right */
	enum { INDENT = 16 };
	char **lines;
	size_t lw = width(label);
	size_t first = lw + 4 > INDENT ? lw + 4 : INDENT;
	size_t n = wrap(text, WIDTH - first, &lines);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fprintf(f, "%*s%s\n", INDENT, "", lines[i]);
		else if (*lines[i])
			fprintf(f, "  %s%*s%s\n", label, (int)(first - lw - 2), "", lines[i]);
		else
			fprintf(f, "  %s\n", label);
		free(lines[i]);
	}
	free(lines);
}

void gs_qprint_para(FILE *f, const char *text)
{
	char **lines;
	size_t n = wrap(text, WIDTH, &lines);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\n", lines[i]);
		free(lines[i]);
	}
	free(lines);
}

void gs_qprint_sweep(FILE *f, const struct gs_qsweep *sw)
{
	const char *when = sw->started_at ? sw->started_at : sw->created_at;
	fprintf(f, "sweep %lld: %s on %s%s%s%s", (long long)sw->id, sw->space,
		sw->device ? sw->device : "?", when ? ", " : "", when ? when : "",
		sw->modeled ? " (times are modeled)" : "");
	if (sw->source_path)
		fprintf(f, " (imported from %s)", sw->source_path);
	fputc('\n', f);
}

/* ---- values ------------------------------------------------------------------ */

void gs_qfmt_num(struct gs_buf *b, double x)
{
	if (isnan(x) || isinf(x)) {
		gs_float_repr(b, x);
		return;
	}
	double a = fabs(x);
	if (a == 0)
		gs_buf_puts(b, "0");
	else if (a >= 1e6 || a < 1e-3)
		gs_buf_printf(b, "%.3e", x);
	else if (a >= 1000)
		gs_buf_printf(b, "%.0f", x);
	else
		/* 4 significant digits, keeping the trailing zeros so that a column
		 * of times lines up on its digits */
		gs_buf_printf(b, "%.*f", a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4, x);
}

void gs_qfmt(struct gs_buf *b, struct gs_value v)
{
	switch (v.t) {
	case GS_V_NONE:
		gs_buf_puts(b, "-");
		break;
	case GS_V_BOOL:
	case GS_V_INT:
		gs_buf_printf(b, "%lld", (long long)v.i);
		break;
	case GS_V_FLOAT:
		gs_qfmt_num(b, v.f);
		break;
	default:
		gs_value_str(b, v);
		break;
	}
}

void gs_qfmt_exact(struct gs_buf *b, struct gs_value v)
{
	switch (v.t) {
	case GS_V_NONE:
		break;
	case GS_V_BOOL:
	case GS_V_INT:
		gs_buf_put_int(b, v.i);
		break;
	default:
		gs_value_str(b, v);
		break;
	}
}

void gs_qfmt_params(struct gs_buf *b, const char *params_json)
{
	json_t *o = params_json ? json_loads(params_json, JSON_DECODE_ANY, NULL) : NULL;
	const char *k;
	json_t *v;
	int first = 1;
	json_object_foreach(o, k, v) {
		gs_buf_printf(b, "%s%s=", first ? "" : " ", k);
		if (json_is_string(v)) {
			gs_buf_puts(b, json_string_value(v));
		} else {
			char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
			gs_buf_puts(b, s ? s : "?");
			free(s);
		}
		first = 0;
	}
	json_decref(o);
}

/* ---- JSON -------------------------------------------------------------------- */

void gs_qjson_print(FILE *f, void *json)
{
	json_dumpf(json, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	fputc('\n', f);
	json_decref(json);
}

void gs_qjson_row_fields(void *obj, const struct gs_qsweep *sw, const struct gs_value *env)
{
	json_t *m = json_object(), *c = json_object();
	for (size_t i = 0; i < sw->nfields; i++) {
		const struct gs_qfield *f = &sw->fields[i];
		if (f->kind == GS_QK_COL && strcmp(f->name, "idx") && strcmp(f->name, "baseline") &&
		    strcmp(f->name, "status"))
			json_object_set_new(obj, f->name, gs_qjson_value(env[i]));
		else if (f->kind == GS_QK_METRIC)
			json_object_set_new(m, f->name, gs_qjson_value(env[i]));
		else if (f->kind == GS_QK_COUNTER)
			json_object_set_new(c, f->name, gs_qjson_value(env[i]));
	}
	json_object_set_new(obj, "metrics", m);
	json_object_set_new(obj, "counters", c);
}

void *gs_qjson_value(struct gs_value v)
{
	switch (v.t) {
	case GS_V_BOOL:
		return json_boolean(v.i);
	case GS_V_INT:
		return json_integer(v.i);
	case GS_V_FLOAT:
		return isfinite(v.f) ? json_real(v.f) : json_null();
	case GS_V_STR:
		return json_stringn(v.s->s, v.s->len);
	default:
		return json_null();
	}
}

void *gs_qjson_params(const char *params_json)
{
	json_t *o = params_json ? json_loads(params_json, 0, NULL) : NULL;
	if (!json_is_object(o)) {
		json_decref(o);
		o = json_object();
	}
	return o;
}
