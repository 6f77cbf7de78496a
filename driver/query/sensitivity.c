/* sensitivity.c — `query sensitivity PARAM`: how one parameter moves a
 * figure (time by default).
 *
 * Two views.  The distribution: for each value of PARAM, the best, median
 * and worst figure over every ok configuration with that value.  The
 * one-at-a-time view of Ryoo et al.'s Fig. 4: PARAM varied while every other
 * parameter keeps the optimum's value.  The plot draws, like that figure,
 * one line per setting of the other parameters, with the optimum's and the
 * baseline's lines drawn out. */
#define _GNU_SOURCE /* qsort_r */
#include "query/query.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Above this many settings of the other parameters the plot draws the band
 * and the two lines only: thousands of lines are ink, not information. */
#define MAX_LINES 400

struct dist {
	double *v;
	size_t n, cap;
};

/* What the one-at-a-time view found for a value. */
struct oat {
	int found;
	int64_t idx;
	char status[16];
	double y;
	int have_y;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Python's statistics.median: the mean of the two middle values of an even
 * count. */
static double median(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static size_t value_index(const struct gs_list *dom, struct gs_value v)
{
	for (size_t i = 0; i < dom->n; i++)
		if (gs_value_eq(dom->v[i], v))
			return i;
	return dom->n;
}

/* The other parameters equal those of `ref`? */
static int same_others(const struct gs_qsweep *sw, const int *pf, size_t skip,
		       const struct gs_value *env, const struct gs_value *ref)
{
	for (size_t i = 0; i < sw->nparams; i++)
		if (i != skip && !gs_value_eq(env[pf[i]], ref[i]))
			return 0;
	return 1;
}

/* Plot lines: one per setting of the other parameters. */
struct lines {
	char **keys; /* open addressing over key strings */
	size_t *ids;
	size_t cap, n;
	size_t *row_group, *row_vi;
	double *row_y;
	size_t nrows, cap_g, cap_v, cap_y;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static size_t line_id(struct lines *l, const char *key)
{
	if (2 * (l->n + 1) > l->cap) {
		size_t ncap = l->cap ? 2 * l->cap : 256;
		char **nk = gs_xcalloc(ncap, sizeof(*nk));
		size_t *ni = gs_xcalloc(ncap, sizeof(*ni));
		for (size_t i = 0; i < l->cap; i++) {
			if (!l->keys[i])
				continue;
			size_t k = hash_str(l->keys[i]) & (ncap - 1);
			while (nk[k])
				k = (k + 1) & (ncap - 1);
			nk[k] = l->keys[i];
			ni[k] = l->ids[i];
		}
		free(l->keys);
		free(l->ids);
		l->keys = nk;
		l->ids = ni;
		l->cap = ncap;
	}
	size_t k = hash_str(key) & (l->cap - 1);
	while (l->keys[k]) {
		if (!strcmp(l->keys[k], key))
			return l->ids[k];
		k = (k + 1) & (l->cap - 1);
	}
	l->keys[k] = gs_xstrdup(key);
	l->ids[k] = l->n;
	return l->n++;
}

static void lines_release(struct lines *l)
{
	for (size_t i = 0; i < l->cap; i++)
		free(l->keys[i]);
	free(l->keys);
	free(l->ids);
	free(l->row_group);
	free(l->row_vi);
	free(l->row_y);
}

struct sens {
	struct gs_query *q;
	struct gs_qsweep *sw;
	int param, by, desc;
	size_t pi;           /* the parameter's index among parameters */
	const struct gs_list *dom;
	struct dist *d;      /* per value, dom->n of them */
	struct oat *at_opt, *at_base;
	int64_t opt_idx;
	double opt_y;
	struct gs_value opt_value; /* the parameter's value in the optimum */
	char *opt_params;
	struct lines lines;
	int *pf;                     /* the parameters' fields */
	struct gs_value *opt, *base; /* the optimum's and the baseline's parameters */
	int have_base;               /* a baseline off the optimum's line */
	int64_t ranked;              /* rows with a figure */
};

static int cmp_line(const void *a, const void *b, void *ctx)
{
	const struct lines *l = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (l->row_group[x] != l->row_group[y])
		return l->row_group[x] < l->row_group[y] ? -1 : 1;
	return l->row_vi[x] < l->row_vi[y] ? -1 : l->row_vi[x] > l->row_vi[y];
}

static void put_x(struct gs_buf *s, const struct sens *p, size_t vi, int numeric)
{
	if (numeric) {
		int ok;
		gs_buf_printf(s, "%.17g", gs_qnum(p->dom->v[vi], &ok));
	} else {
		gs_buf_printf(s, "%zu", vi);
	}
}

/* A line of the one-at-a-time kind as a datablock. */
static void put_oat(struct gs_buf *s, const char *name, const struct sens *p, const struct oat *o,
		    int numeric)
{
	gs_buf_printf(s, "%s << EOD\n", name);
	for (size_t i = 0; i < p->dom->n; i++) {
		if (!o[i].have_y) {
			gs_buf_puts(s, "\n");
			continue;
		}
		put_x(s, p, i, numeric);
		gs_buf_printf(s, " %.17g\n", o[i].y);
	}
	gs_buf_puts(s, "EOD\n");
}

static int plot(struct sens *p, int have_base)
{
	struct gs_qsweep *sw = p->sw;
	struct gs_qfield *fy = &sw->fields[p->by];
	const struct gs_list *dom = p->dom;
	struct gs_buf s = GS_BUF_INIT, t = GS_BUF_INIT;
	if (gs_plot_terminal(&s, p->q->plot, 1000, 700) < 0)
		return -1;
	/* numbers on a log2 axis when they are positive and spread, as in
	 * Fig. 4; anything else as categories in declaration order */
	int numeric = 1, logx = 1;
	double xmin = INFINITY, xmax = -INFINITY;
	for (size_t i = 0; i < dom->n; i++) {
		int ok;
		double x = gs_qnum(dom->v[i], &ok);
		numeric &= ok && dom->v[i].t != GS_V_BOOL;
		if (ok) {
			xmin = x < xmin ? x : xmin;
			xmax = x > xmax ? x : xmax;
		}
	}
	logx = numeric && xmin > 0 && xmax / xmin >= 4;
	numeric = logx;
	double ymin = INFINITY, ymax = -INFINITY;
	for (size_t i = 0; i < dom->n; i++)
		if (p->d[i].n) {
			ymin = p->d[i].v[0] < ymin ? p->d[i].v[0] : ymin;
			ymax = p->d[i].v[p->d[i].n - 1] > ymax ? p->d[i].v[p->d[i].n - 1] : ymax;
		}
	int draw_lines = p->lines.n <= MAX_LINES;
	if (draw_lines) {
		struct lines *l = &p->lines;
		size_t *ord = gs_xcalloc(l->nrows + 1, sizeof(*ord));
		for (size_t i = 0; i < l->nrows; i++)
			ord[i] = i;
		qsort_r(ord, l->nrows, sizeof(*ord), cmp_line, l);
		gs_buf_puts(&s, "$lines << EOD\n");
		for (size_t i = 0; i < l->nrows; i++) {
			size_t r = ord[i];
			/* a blank line starts a new line; so does a gap in the values */
			if (i && (l->row_group[r] != l->row_group[ord[i - 1]] ||
				  l->row_vi[r] != l->row_vi[ord[i - 1]] + 1))
				gs_buf_puts(&s, "\n");
			put_x(&s, p, l->row_vi[r], numeric);
			gs_buf_printf(&s, " %.17g\n", l->row_y[r]);
		}
		gs_buf_puts(&s, "EOD\n");
		free(ord);
	}
	gs_buf_puts(&s, "$band << EOD\n");
	for (size_t i = 0; i < dom->n; i++) {
		if (!p->d[i].n)
			continue;
		put_x(&s, p, i, numeric);
		gs_buf_printf(&s, " %.17g %.17g %.17g\n", p->d[i].v[0], p->d[i].v[p->d[i].n - 1],
			      median(p->d[i].v, p->d[i].n));
	}
	gs_buf_puts(&s, "EOD\n");
	put_oat(&s, "$opt", p, p->at_opt, numeric);
	size_t ov = value_index(dom, p->opt_value);
	gs_buf_puts(&s, "$optpt << EOD\n");
	if (ov < dom->n) {
		put_x(&s, p, ov, numeric);
		gs_buf_printf(&s, " %.17g\n", p->opt_y);
	}
	gs_buf_puts(&s, "EOD\n");
	if (have_base)
		put_oat(&s, "$base", p, p->at_base, numeric);
	gs_buf_printf(&t, "%s on %s: %s against %s%s", sw->space, sw->device ? sw->device : "?",
		      fy->name, sw->params[p->pi], sw->modeled ? " (modeled)" : "");
	gs_buf_puts(&s, "set title ");
	gs_plot_str(&s, gs_buf_str(&t));
	gs_buf_reset(&t);
	gs_buf_printf(&t, "%s%s%s%s", fy->name, *fy->unit ? " (" : "", fy->unit, *fy->unit ? ")" : "");
	gs_buf_puts(&s, "\nset ylabel ");
	gs_plot_str(&s, gs_buf_str(&t));
	gs_buf_puts(&s, "\nset xlabel ");
	gs_plot_str(&s, sw->params[p->pi]);
	gs_buf_puts(&s, "\nset grid lc rgb '#e6e6e6'\nset border 3\nset ytics nomirror\n"
			"set key below horizontal box lc rgb '#cccccc' spacing 1.2 width 1\nset bmargin 8\n");
	if (ymin > 0 && ymax / ymin > 4)
		gs_buf_puts(&s, "set logscale y\n");
	if (numeric) {
		gs_buf_puts(&s, "set logscale x 2\nset xtics nomirror (");
		for (size_t i = 0; i < dom->n; i++) {
			struct gs_buf v = GS_BUF_INIT;
			gs_qfmt(&v, dom->v[i]);
			gs_buf_printf(&s, "%s", i ? ", " : "");
			gs_plot_str(&s, gs_buf_str(&v));
			gs_buf_putc(&s, ' ');
			put_x(&s, p, i, 1);
			gs_buf_release(&v);
		}
		gs_buf_printf(&s, ")\nset xrange [%.17g:%.17g]\n", xmin / 1.25, xmax * 1.25);
	} else {
		gs_buf_puts(&s, "set xtics nomirror (");
		for (size_t i = 0; i < dom->n; i++) {
			struct gs_buf v = GS_BUF_INIT;
			gs_qfmt(&v, dom->v[i]);
			gs_buf_printf(&s, "%s", i ? ", " : "");
			gs_plot_str(&s, gs_buf_str(&v));
			gs_buf_printf(&s, " %zu", i);
			gs_buf_release(&v);
		}
		gs_buf_printf(&s, ")\nset xrange [-0.3:%.1f]\n", (double)dom->n - 0.7);
	}
	gs_buf_puts(&s, "plot $band using 1:2:3 with filledcurves lc rgb '#dbe9f6'"
			" title 'best to worst', \\\n"
			"  $band using 1:4 with lines dt 2 lw 1.5 lc rgb '#6a8fb5' title 'median'");
	if (draw_lines) {
		gs_buf_puts(&s, ", \\\n  $lines using 1:2 with linespoints pt 7 ps 0.35 lw 0.7"
				" lc rgb '#9a9a9a' title ");
		gs_buf_reset(&t);
		gs_buf_printf(&t, "other parameters fixed (%zu lines)", p->lines.n);
		gs_plot_str(&s, gs_buf_str(&t));
	}
	if (have_base)
		gs_buf_puts(&s, ", \\\n  $base using 1:2 with linespoints pt 9 ps 1.6 lw 2.5"
				" lc rgb '#1f77b4' title 'others as in the baseline'");
	gs_buf_puts(&s, ", \\\n  $opt using 1:2 with linespoints pt 7 ps 1.4 lw 3"
			" lc rgb '#d62728' title 'others as in the optimum', \\\n"
			"  $optpt using 1:2 with points pt 3 ps 3.5 lw 2 lc rgb '#000000' title"
			" 'the optimum'\n");
	int rc = gs_plot_run(p->q->plot, gs_buf_str(&s));
	gs_buf_release(&s);
	gs_buf_release(&t);
	return rc;
}

static void put_oat_cell(struct gs_qtable *t, const struct oat *o, int csv)
{
	if (!o->found) {
		gs_qtable_cell(t, csv ? "" : "not valid", "");
		gs_qtable_cell(t, "-", "");
	} else {
		if (o->have_y)
			gs_qtable_value(t, gs_float(o->y));
		else
			gs_qtable_cell(t, o->status, NULL);
		gs_qtable_cellf(t, "%lld", (long long)o->idx);
	}
}

static json_t *oat_json(const struct oat *o)
{
	if (!o->found)
		return json_null();
	return json_pack("{s:I, s:s, s:o}", "idx", (json_int_t)o->idx, "status", o->status, "value",
			 o->have_y ? json_real(o->y) : json_null());
}

/* The snapshot of a configuration's parameters (in a's arena). */
static int read_params(struct gs_query *q, struct gs_qsweep *sw, struct gs_qfilter *f, int by,
		       int desc, int64_t idx, const int *pf, struct gs_value *out, int64_t *got_idx,
		       double *y, char **params_json, struct gs_arena *a)
{
	int *want = gs_xcalloc(sw->nparams + 2, sizeof(*want));
	for (size_t i = 0; i < sw->nparams; i++)
		want[i] = pf[i];
	want[sw->nparams] = by;
	struct gs_qspec spec = { .ok_only = idx < 0, .order = idx < 0 ? by : -1, .desc = desc,
				 .want = want, .nwant = sw->nparams + 1, .idx = idx, .params = 1 };
	struct gs_qrows *r;
	int rc = gs_qrows_open(&r, q, sw, idx < 0 ? f : NULL, &spec);
	int found = 0;
	while (rc == 0 && (rc = gs_qrows_next(r)) > 0) {
		rc = 0;
		int ok;
		*y = gs_qnum(gs_qrows_env(r)[by], &ok);
		if (idx < 0 && !ok)
			continue;
		for (size_t i = 0; i < sw->nparams; i++)
			out[i] = gs_value_persist(a, gs_qrows_env(r)[pf[i]]);
		*got_idx = gs_qrows_idx(r);
		if (params_json)
			*params_json = gs_xstrdup(gs_qrows_params(r) ? gs_qrows_params(r) : "{}");
		found = 1;
		break;
	}
	gs_qrows_close(r);
	free(want);
	return rc < 0 ? -1 : found;
}

/* The error for PARAM, not one of the sweep's parameters. */
static void unknown_param(const struct gs_qsweep *sw, const char *param)
{
	struct gs_diag d = GS_DIAG_INIT;
	gs_diag_error(&d, GS_NOLOC, "sensitivity: '%s' is not a parameter of sweep %lld", param,
		      (long long)sw->id);
	gs_diag_suggest(&d, GS_NOLOC, param, (const char *const *)sw->params, sw->nparams);
	struct gs_buf b = GS_BUF_INIT;
	for (size_t i = 0; i < sw->nparams; i++)
		gs_buf_printf(&b, "%s%s", i ? ", " : "", sw->params[i]);
	gs_diag_note(&d, GS_NOLOC, "its parameters: %s", gs_buf_str(&b));
	gs_diag_print(&d, stderr);
	gs_diag_release(&d);
	gs_buf_release(&b);
}

/* p->opt and p->base, the parameters of the optimum and of the baseline;
 * -1 on error or after a message. */
static int optimum_and_baseline(struct sens *p, struct gs_qfilter *f, struct gs_arena *a)
{
	struct gs_query *q = p->q;
	struct gs_qsweep *sw = p->sw;
	int got = read_params(q, sw, f, p->by, p->desc, -1, p->pf, p->opt, &p->opt_idx, &p->opt_y,
			      &p->opt_params, a);
	if (got < 0)
		return -1;
	if (!got) {
		fprintf(stderr, "gsearch: error: sweep %lld has no ok configuration%s%s%s\n",
			(long long)sw->id, sw->fields[p->by].kind == GS_QK_COL ? "" : " with ",
			sw->fields[p->by].kind == GS_QK_COL ? "" : sw->fields[p->by].name,
			q->where ? " that passes --where" : "");
		return -1;
	}
	if (sw->baseline >= 0) {
		int64_t bi;
		double by;
		p->have_base = read_params(q, sw, NULL, p->by, 0, sw->baseline, p->pf, p->base, &bi,
					   &by, NULL, a);
		if (p->have_base < 0)
			return -1;
		/* a baseline on the optimum's line would draw the same line twice */
		if (p->have_base && same_others(sw, p->pf, p->pi, p->base, p->opt))
			p->have_base = 0;
	}
	return 0;
}

/* The row's point on the line of its setting of the other parameters. */
static void add_line_row(struct sens *p, const struct gs_value *env, size_t vi, double y,
			 struct gs_buf *key)
{
	struct lines *l = &p->lines;
	gs_buf_reset(key);
	for (size_t i = 0; i < p->sw->nparams; i++)
		if (i != p->pi) {
			gs_value_repr(key, env[p->pf[i]]);
			gs_buf_putc(key, '\x1f');
		}
	gs_grow(&l->row_group, &l->cap_g, l->nrows + 1, sizeof(*l->row_group));
	gs_grow(&l->row_vi, &l->cap_v, l->nrows + 1, sizeof(*l->row_vi));
	gs_grow(&l->row_y, &l->cap_y, l->nrows + 1, sizeof(*l->row_y));
	l->row_group[l->nrows] = line_id(l, gs_buf_str(key));
	l->row_vi[l->nrows] = vi;
	l->row_y[l->nrows++] = y;
}

/* Every row that passes f into its value's distribution, the
 * one-at-a-time views and the plot's lines; the distributions sorted best
 * first.  -1 on error. */
static int collect(struct sens *p, struct gs_qfilter *f)
{
	struct gs_qsweep *sw = p->sw;
	size_t nv = p->dom->n;
	p->d = gs_xcalloc(nv + 1, sizeof(*p->d));
	p->at_opt = gs_xcalloc(nv + 1, sizeof(*p->at_opt));
	p->at_base = gs_xcalloc(nv + 1, sizeof(*p->at_base));
	int *want = gs_xcalloc(sw->nparams + 2, sizeof(*want));
	memcpy(want, p->pf, sw->nparams * sizeof(*p->pf));
	want[sw->nparams] = p->by;
	struct gs_qspec spec = { .order = -1, .want = want, .nwant = sw->nparams + 1, .idx = -1 };
	struct gs_qrows *r;
	int e = gs_qrows_open(&r, p->q, sw, f, &spec);
	struct gs_buf key = GS_BUF_INIT;
	while (e == 0 && (e = gs_qrows_next(r)) > 0) {
		e = 0;
		const struct gs_value *env = gs_qrows_env(r);
		size_t vi = value_index(p->dom, env[p->param]);
		if (vi >= nv)
			continue;
		const char *st = gs_qrows_status(r);
		int ok;
		double y = gs_qnum(env[p->by], &ok);
		ok = ok && st && !strcmp(st, "ok") && !isnan(y);
		for (int which = 0; which < 2; which++) {
			struct oat *o = which ? &p->at_base[vi] : &p->at_opt[vi];
			if (which && !p->have_base)
				continue;
			if (!same_others(sw, p->pf, p->pi, env, which ? p->base : p->opt))
				continue;
			o->found = 1;
			o->idx = gs_qrows_idx(r);
			snprintf(o->status, sizeof o->status, "%s", st ? st : "not run");
			o->y = y;
			o->have_y = ok;
		}
		if (!ok)
			continue;
		p->ranked++;
		struct dist *d = &p->d[vi];
		gs_grow(&d->v, &d->cap, d->n + 1, sizeof(*d->v));
		d->v[d->n++] = y;
		if (p->q->plot)
			add_line_row(p, env, vi, y, &key);
	}
	gs_buf_release(&key);
	gs_qrows_close(r);
	free(want);
	if (e < 0)
		return -1;
	for (size_t i = 0; i < nv; i++) {
		qsort(p->d[i].v, p->d[i].n, sizeof(double), cmp_double);
		if (p->desc) /* best first */
			for (size_t k = 0; k < p->d[i].n / 2; k++) {
				double x = p->d[i].v[k];
				p->d[i].v[k] = p->d[i].v[p->d[i].n - 1 - k];
				p->d[i].v[p->d[i].n - 1 - k] = x;
			}
	}
	return 0;
}

static void print_json(const struct sens *p)
{
	const struct gs_qsweep *sw = p->sw;
	json_t *j = json_object(), *vals = json_array();
	json_object_set_new(j, "sweep", json_integer(sw->id));
	json_object_set_new(j, "modeled", json_boolean(sw->modeled));
	json_object_set_new(j, "param", json_string(sw->params[p->pi]));
	json_object_set_new(j, "by", json_string(sw->fields[p->by].name));
	json_object_set_new(j, "order", json_string(p->desc ? "desc" : "asc"));
	json_object_set_new(j, "ranked", json_integer(p->ranked));
	json_object_set_new(j, "optimum", json_pack("{s:I, s:o}", "idx", (json_int_t)p->opt_idx,
						     "params", gs_qjson_params(p->opt_params)));
	for (size_t i = 0; i < p->dom->n; i++) {
		json_t *o = json_object();
		size_t n = p->d[i].n;
		json_object_set_new(o, "value", gs_qjson_value(p->dom->v[i]));
		json_object_set_new(o, "configs", json_integer((json_int_t)n));
		json_object_set_new(o, "best", n ? json_real(p->d[i].v[0]) : json_null());
		json_object_set_new(o, "median", n ? json_real(median(p->d[i].v, n)) : json_null());
		json_object_set_new(o, "worst", n ? json_real(p->d[i].v[n - 1]) : json_null());
		json_object_set_new(o, "at_optimum", oat_json(&p->at_opt[i]));
		json_array_append_new(vals, o);
	}
	json_object_set_new(j, "values", vals);
	gs_qjson_print(p->q->out, j);
}

/* The table, with its heading and the optimum's line unless csv. */
static void print_table(const struct sens *p, int csv)
{
	struct gs_query *q = p->q;
	const struct gs_qsweep *sw = p->sw;
	const struct gs_qfield *fy = &sw->fields[p->by];
	size_t opt_vi = value_index(p->dom, p->opt[p->pi]);
	struct gs_qtable *t = gs_qtable_new();
	struct gs_buf h = GS_BUF_INIT;
	const char *u = *fy->unit ? fy->unit : "";
	gs_qtable_col(t, sw->params[p->pi], "value", 1);
	gs_qtable_col(t, "ok", "configs", 1);
	gs_buf_printf(&h, "best %s", u);
	gs_qtable_col(t, *u ? gs_buf_str(&h) : "best", "best", 1);
	gs_buf_reset(&h);
	gs_buf_printf(&h, "median %s", u);
	gs_qtable_col(t, *u ? gs_buf_str(&h) : "median", "median", 1);
	gs_buf_reset(&h);
	gs_buf_printf(&h, "worst %s", u);
	gs_qtable_col(t, *u ? gs_buf_str(&h) : "worst", "worst", 1);
	gs_qtable_col(t, "worst/best", "worst_over_best", 1);
	gs_buf_reset(&h);
	gs_buf_printf(&h, "at optimum%s%s", *u ? " " : "", u);
	gs_qtable_col(t, gs_buf_str(&h), "at_optimum", 1);
	gs_qtable_col(t, "idx", "at_optimum_idx", 1);
	for (size_t i = 0; i < p->dom->n; i++) {
		struct gs_buf v = GS_BUF_INIT, x = GS_BUF_INIT;
		size_t n = p->d[i].n;
		gs_qfmt(&v, p->dom->v[i]);
		gs_qfmt_exact(&x, p->dom->v[i]);
		if (!csv) /* the digits stay aligned with or without the mark */
			gs_buf_putc(&v, i == opt_vi ? '*' : ' ');
		gs_qtable_cell(t, gs_buf_str(&v), gs_buf_str(&x));
		gs_buf_release(&v);
		gs_buf_release(&x);
		gs_qtable_cellf(t, "%zu", n);
		if (n) {
			gs_qtable_value(t, gs_float(p->d[i].v[0]));
			gs_qtable_value(t, gs_float(median(p->d[i].v, n)));
			gs_qtable_value(t, gs_float(p->d[i].v[n - 1]));
			if (p->d[i].v[0] != 0)
				gs_qtable_value(t, gs_float(p->d[i].v[n - 1] / p->d[i].v[0]));
			else
				gs_qtable_cell(t, "-", "");
		} else {
			for (int k = 0; k < 4; k++)
				gs_qtable_cell(t, "-", "");
		}
		put_oat_cell(t, &p->at_opt[i], csv);
	}
	if (!csv) {
		struct gs_buf o = GS_BUF_INIT;
		gs_qprint_sweep(q->out, sw);
		fprintf(q->out, "Sensitivity of %s to %s, sweep %lld: %lld ok configurations%s%s\n\n",
			fy->name, sw->params[p->pi], (long long)sw->id, (long long)p->ranked,
			q->where ? " that pass --where" : "",
			sw->modeled ? " (times are modeled)" : "");
		gs_qtable_print(t, q->out, 0);
		gs_buf_printf(&o, "%s varied, the others as in the optimum (index %lld):",
			      sw->params[p->pi], (long long)p->opt_idx);
		for (size_t i = 0; i < sw->nparams; i++)
			if (i != p->pi) {
				gs_buf_printf(&o, " %s=", sw->params[i]);
				gs_qfmt(&o, p->opt[i]);
			}
		gs_buf_puts(&o, "; * marks the optimum's value");
		fputc('\n', q->out);
		gs_qprint_line(q->out, "at optimum", gs_buf_str(&o));
		gs_buf_release(&o);
	} else {
		gs_qtable_print(t, q->out, 1);
	}
	gs_qtable_free(t);
	gs_buf_release(&h);
}

int gs_query_sensitivity(struct gs_query *q, const char *param, const char *by_name)
{
	struct gs_qsweep sw;
	struct gs_qfilter f;
	memset(&f, 0, sizeof(f));
	if (gs_qsweep_load(q, q->sweep, &sw) < 0)
		return 1;
	struct sens p = { .q = q, .sw = &sw };
	struct gs_arena a = GS_ARENA_INIT;
	int rc = 1;
	int pi = gs_qsweep_param(&sw, param);
	if (pi < 0) {
		unknown_param(&sw, param);
		goto out;
	}
	p.pi = (size_t)pi;
	p.param = gs_qsweep_field(&sw, param);
	p.by = gs_qsweep_field_or_report(&sw, by_name ? by_name : "time_ms", "--by");
	if (p.by < 0)
		goto out;
	if (!(sw.fields[p.by].type & (GS_T(INT) | GS_T(FLOAT)))) {
		fprintf(stderr, "gsearch: error: --by %s: not a number\n", by_name);
		goto out;
	}
	p.desc = sw.fields[p.by].higher;
	p.dom = sw.domains[pi].l;
	if (gs_qfilter_init(&f, &sw, q->where) < 0)
		goto out;
	p.pf = gs_xcalloc(sw.nparams + 1, sizeof(*p.pf));
	for (size_t i = 0; i < sw.nparams; i++)
		p.pf[i] = gs_qsweep_field(&sw, sw.params[i]);
	p.opt = gs_xcalloc(sw.nparams + 1, sizeof(*p.opt));
	p.base = gs_xcalloc(sw.nparams + 1, sizeof(*p.base));
	if (optimum_and_baseline(&p, &f, &a) < 0)
		goto out;
	if (collect(&p, &f) < 0)
		goto out;
	p.opt_value = p.opt[p.pi];
	if (q->fmt == GS_QF_JSON)
		print_json(&p);
	else
		print_table(&p, q->fmt == GS_QF_CSV);
	rc = 0;
	if (q->plot)
		rc = plot(&p, p.have_base) < 0;
out:
	if (p.d)
		for (size_t i = 0; i < p.dom->n; i++)
			free(p.d[i].v);
	free(p.d);
	free(p.at_opt);
	free(p.at_base);
	free(p.opt_params);
	lines_release(&p.lines);
	free(p.pf);
	free(p.opt);
	free(p.base);
	gs_arena_release(&a);
	gs_qfilter_release(&f);
	gs_qsweep_release(&sw);
	return rc;
}
