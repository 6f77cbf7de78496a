/* top.c — `query top`: the fastest configurations, or the best by any field.
 *
 * Only `ok` outcomes rank.  Rows are read in the order of the field, so the
 * report stops reading after the n-th row that passes the filter. */
#include "query/query.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The columns of the table, besides rank, the metrics and the parameters. */
static const char *const shown[] = { "time_ms", "iqr_ms", "registers", "static_smem",
				     "blocks_per_sm", "occupancy" };
/* What the JSON rows hold besides those. */
static const char *const extra[] = { "min_ms",	 "local_bytes", "limiter", "ci_lo_ms",
				     "ci_hi_ms", "ci_pct",	"runs",	   "warmups" };

struct top {
	struct gs_query *q;
	struct gs_qsweep *sw;
	int by, desc;
	int *want;
	size_t nwant;
	struct gs_qtable *t;
	json_t *rows;
	struct gs_buf data; /* the plot's datablock */
	double xmax;
	int base_seen;
	double lo1, hi1; /* #1's interval */
	long tied;       /* ranks from the top whose intervals meet #1's */
};

/* The interval of the row's median, from env; 0 when it has none. */
static int interval(const struct top *p, const struct gs_value *env, double *lo, double *hi)
{
	int ok1, ok2;
	*lo = gs_qnum(env[gs_qsweep_field(p->sw, "ci_lo_ms")], &ok1);
	*hi = gs_qnum(env[gs_qsweep_field(p->sw, "ci_hi_ms")], &ok2);
	return ok1 && ok2 && *lo <= *hi;
}

/* "±0.4%": the larger distance from the median to an end of its interval,
 * in percent of the median, as the stopping rule's precision is stated. */
static void half_width(struct gs_qtable *t, const struct top *p, const struct gs_value *env,
		       int csv)
{
	int ok;
	double lo, hi, tm = gs_qnum(env[gs_qsweep_field(p->sw, "time_ms")], &ok);
	if (!ok || tm <= 0 || !interval(p, env, &lo, &hi)) {
		gs_qtable_cell(t, "-", "");
		return;
	}
	double h = 100 * (hi - tm > tm - lo ? hi - tm : tm - lo) / tm;
	if (!csv) {
		gs_qtable_cellf(t, h >= 10 ? "±%.0f%%" : h >= 0.1 ? "±%.1f%%" : "±%.2f%%", h);
		return;
	}
	struct gs_buf b = GS_BUF_INIT;
	gs_float_repr(&b, h);
	gs_qtable_cell(t, gs_buf_str(&b), NULL);
	gs_buf_release(&b);
}

/* Is the ranking field one of the columns shown anyway? */
static int by_shown(const struct top *p)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(shown); i++)
		if (!strcmp(p->sw->fields[p->by].name, shown[i]))
			return 1;
	return p->sw->fields[p->by].kind == GS_QK_METRIC;
}

static void add_want(struct top *p, int f)
{
	if (f < 0)
		return;
	for (size_t i = 0; i < p->nwant; i++)
		if (p->want[i] == f)
			return;
	p->want[p->nwant++] = f;
}

static void header(struct top *p)
{
	struct gs_qsweep *sw = p->sw;
	struct gs_qtable *t = p->t;
	int csv = p->q->fmt == GS_QF_CSV;
	gs_qtable_col(t, "rank", NULL, 1);
	gs_qtable_col(t, "idx", NULL, 1);
	if (!by_shown(p))
		gs_qtable_col(t, sw->fields[p->by].label, sw->fields[p->by].name, 1);
	for (size_t i = 0; i < GS_ARRAY_SIZE(shown); i++) {
		int f = gs_qsweep_field(sw, shown[i]);
		if (!strcmp(shown[i], "iqr_ms"))
			gs_qtable_col(t, csv ? "iqr_ms" : "iqr %", NULL, 1);
		else
			gs_qtable_col(t, sw->fields[f].label, sw->fields[f].name, 1);
		if (!strcmp(shown[i], "time_ms"))
			gs_qtable_col(t, csv ? "ci_half_pct" : "95% ci", NULL, 1);
	}
	for (size_t i = 0; i < sw->nfields; i++)
		if (sw->fields[i].kind == GS_QK_METRIC)
			gs_qtable_col(t, sw->fields[i].name, NULL, 1);
}

static void row(struct top *p, long rank, struct gs_qrows *r)
{
	struct gs_qsweep *sw = p->sw;
	struct gs_qtable *t = p->t;
	const struct gs_value *env = gs_qrows_env(r);
	int64_t idx = gs_qrows_idx(r);
	int base = idx == sw->baseline;
	int csv = p->q->fmt == GS_QF_CSV;
	p->base_seen |= base;
	gs_qtable_cellf(t, "%ld", rank);
	if (csv)
		gs_qtable_cellf(t, "%lld", (long long)idx);
	else
		gs_qtable_cellf(t, "%lld%s", (long long)idx, base ? "*" : "");
	if (!by_shown(p))
		gs_qtable_value(t, env[p->by]);
	for (size_t i = 0; i < GS_ARRAY_SIZE(shown); i++) {
		struct gs_value v = env[gs_qsweep_field(sw, shown[i])];
		if (!strcmp(shown[i], "iqr_ms") && !csv) {
			int ok1, ok2;
			double iqr = gs_qnum(v, &ok1);
			double tm = gs_qnum(env[gs_qsweep_field(sw, "time_ms")], &ok2);
			if (ok1 && ok2 && tm > 0)
				gs_qtable_cellf(t, "%.2f", 100 * iqr / tm);
			else
				gs_qtable_cell(t, "-", "");
		} else if (!strcmp(shown[i], "occupancy") && v.t == GS_V_FLOAT && !csv) {
			gs_qtable_cellf(t, "%.2f", v.f);
		} else {
			gs_qtable_value(t, v);
		}
		if (!strcmp(shown[i], "time_ms"))
			half_width(t, p, env, csv);
	}
	double lo, hi;
	int have = interval(p, env, &lo, &hi);
	if (rank == 1) {
		p->lo1 = lo;
		p->hi1 = hi;
		p->tied = have;
	} else if (p->tied == rank - 1 && have && lo <= p->hi1 && hi >= p->lo1) {
		p->tied = rank;
	}
	for (size_t i = 0; i < sw->nfields; i++)
		if (sw->fields[i].kind == GS_QK_METRIC)
			gs_qtable_value(t, env[i]);
	for (size_t i = 0; i < sw->nparams; i++)
		gs_qtable_value(t, env[gs_qsweep_field(sw, sw->params[i])]);

	if (p->rows) {
		json_t *o = json_object(), *m = json_object();
		json_object_set_new(o, "rank", json_integer(rank));
		json_object_set_new(o, "idx", json_integer(idx));
		json_object_set_new(o, "baseline", json_boolean(base));
		if (!by_shown(p))
			json_object_set_new(o, sw->fields[p->by].name, gs_qjson_value(env[p->by]));
		for (size_t i = 0; i < GS_ARRAY_SIZE(shown); i++)
			json_object_set_new(o, shown[i],
					    gs_qjson_value(env[gs_qsweep_field(sw, shown[i])]));
		for (size_t i = 0; i < GS_ARRAY_SIZE(extra); i++)
			json_object_set_new(o, extra[i],
					    gs_qjson_value(env[gs_qsweep_field(sw, extra[i])]));
		for (size_t i = 0; i < sw->nfields; i++)
			if (sw->fields[i].kind == GS_QK_METRIC)
				json_object_set_new(m, sw->fields[i].name, gs_qjson_value(env[i]));
		json_object_set_new(o, "metrics", m);
		json_object_set_new(o, "params", gs_qjson_params(gs_qrows_params(r)));
		json_array_append_new(p->rows, o);
	}
	if (p->q->plot) {
		struct gs_buf lab = GS_BUF_INIT;
		gs_qfmt_params(&lab, gs_qrows_params(r));
		int ok;
		double x = gs_qnum(env[p->by], &ok);
		gs_buf_printf(&p->data, "%ld %.17g %d ", rank, x, base);
		if (ok && x > p->xmax)
			p->xmax = x;
		gs_buf_put_json_str(&p->data, gs_buf_str(&lab));
		gs_buf_reset(&lab);
		gs_buf_putc(&lab, ' ');
		gs_qfmt(&lab, env[p->by]);
		gs_buf_putc(&p->data, ' ');
		gs_buf_put_json_str(&p->data, gs_buf_str(&lab));
		gs_buf_putc(&p->data, '\n');
		gs_buf_release(&lab);
	}
}

/* Horizontal bars, the best at the top, each labeled with its parameters;
 * the baseline's value as a dashed line when it is not among them. */
static int plot(struct top *p, long n, int base_have, double base_x)
{
	struct gs_qsweep *sw = p->sw;
	struct gs_qfield *by = &sw->fields[p->by];
	struct gs_buf s = GS_BUF_INIT;
	int h = 140 + 34 * (int)n;
	if (gs_plot_terminal(&s, p->q->plot, 1000, h < 360 ? 360 : h) < 0) {
		gs_buf_release(&s);
		return -1;
	}
	gs_buf_puts(&s, "$d << EOD\n");
	gs_buf_puts(&s, gs_buf_str(&p->data));
	gs_buf_puts(&s, "EOD\n");
	struct gs_buf title = GS_BUF_INIT;
	gs_buf_printf(&title, "%s on %s: the %ld best configurations by %s%s", sw->space,
		      sw->device ? sw->device : "?", n, by->name, sw->modeled ? " (modeled)" : "");
	/* centred on the image: the labels' margin would push a title off it */
	gs_buf_puts(&s, "set label 1 ");
	gs_plot_str(&s, gs_buf_str(&title));
	gs_buf_puts(&s, " at screen 0.5, screen 0.965 center\nset tmargin 3.5\nset xlabel ");
	gs_buf_reset(&title);
	gs_buf_printf(&title, "%s%s%s%s", by->name, *by->unit ? " (" : "", by->unit,
		      *by->unit ? ")" : "");
	gs_plot_str(&s, gs_buf_str(&title));
	gs_buf_release(&title);
	gs_buf_printf(&s, "\nset yrange [%ld.6:0.4]\n", n);
	/* room for the value labels and the baseline's line */
	gs_buf_printf(&s, "set xrange [0:%.17g]\n", 1.15 * (base_have && base_x > p->xmax ? base_x
										       : p->xmax));
	gs_buf_puts(&s, "set grid xtics lc rgb '#dddddd'\nset border 3\n"
			"set xtics nomirror\nset ytics nomirror scale 0 font ',9'\n"
			"set style fill solid 0.85 border lc rgb '#ffffff'\n"
			"set lmargin 48\nset key below right box lc rgb '#cccccc'\n");
	if (base_have)
		gs_buf_printf(&s, "set arrow from %.17g, graph 0 to %.17g, graph 1 nohead dt 2 lw 2"
				  " lc rgb '#d62728'\n", base_x, base_x);
	gs_buf_puts(&s, "plot $d using 2:1:(0):2:($1-0.38):($1+0.38):($3 > 0 ? 0xd62728 : 0x1f77b4):"
			"yticlabels(sprintf('%d. %s', $1, stringcolumn(4))) with boxxyerror"
			" lc rgb variable notitle, \\\n"
			"  $d using 2:1:5 with labels left font ',9' notitle");
	if (base_have) {
		struct gs_buf k = GS_BUF_INIT;
		gs_buf_puts(&k, "baseline, ");
		gs_qfmt_num(&k, base_x);
		gs_buf_puts(&s, ", NaN with lines dt 2 lw 2 lc rgb '#d62728' title ");
		gs_plot_str(&s, gs_buf_str(&k));
		gs_buf_release(&k);
	}
	gs_buf_puts(&s, "\n");
	int rc = gs_plot_run(p->q->plot, gs_buf_str(&s));
	gs_buf_release(&s);
	return rc;
}

int gs_query_top(struct gs_query *q, long n, const char *by_name, int desc_given, int desc)
{
	struct gs_qsweep sw;
	struct gs_qfilter f;
	if (gs_qsweep_load(q, q->sweep, &sw) < 0)
		return 1;
	int rc = 1;
	struct top p = { .q = q, .sw = &sw };
	p.by = gs_qsweep_field_or_report(&sw, by_name ? by_name : "time_ms", "--by");
	if (p.by < 0) {
		gs_qsweep_release(&sw);
		return 1;
	}
	if (!(sw.fields[p.by].type & (GS_T(INT) | GS_T(FLOAT)))) {
		fprintf(stderr, "gsearch: error: --by %s: not a number to rank by\n", by_name);
		gs_qsweep_release(&sw);
		return 1;
	}
	p.desc = desc_given ? desc : sw.fields[p.by].higher;
	/* intervals are of the time: a tie means something only in its order */
	int by_time = !strcmp(sw.fields[p.by].name, "time_ms") && !p.desc;
	if (gs_qfilter_init(&f, &sw, q->where) < 0) {
		gs_qsweep_release(&sw);
		return 1;
	}
	p.want = gs_xcalloc(sw.nfields + 1, sizeof(*p.want));
	add_want(&p, p.by);
	for (size_t i = 0; i < GS_ARRAY_SIZE(shown); i++)
		add_want(&p, gs_qsweep_field(&sw, shown[i]));
	for (size_t i = 0; i < GS_ARRAY_SIZE(extra); i++)
		add_want(&p, gs_qsweep_field(&sw, extra[i]));
	for (size_t i = 0; i < sw.nfields; i++)
		if (sw.fields[i].kind == GS_QK_METRIC || sw.fields[i].kind == GS_QK_PARAM)
			add_want(&p, (int)i);
	p.t = gs_qtable_new();
	if (q->fmt == GS_QF_JSON)
		p.rows = json_array();
	header(&p);
	size_t pfirst = 3 + !by_shown(&p) + GS_ARRAY_SIZE(shown);
	for (size_t i = 0; i < sw.nfields; i++)
		if (sw.fields[i].kind == GS_QK_METRIC)
			pfirst++;
	for (size_t i = 0; i < sw.nparams; i++)
		gs_qtable_col(p.t, sw.params[i], NULL, 1);
	gs_qtable_params(p.t, pfirst, sw.nparams);

	struct gs_qspec spec = { .ok_only = 1, .order = p.by, .desc = p.desc, .want = p.want,
				 .nwant = p.nwant, .idx = -1, .params = 1 };
	struct gs_qrows *r;
	long k = 0;
	int err = gs_qrows_open(&r, q, &sw, &f, &spec);
	while (!err && k < n) {
		int got = gs_qrows_next(r);
		if (got < 0)
			err = 1;
		if (got <= 0)
			break;
		row(&p, ++k, r);
	}
	gs_qrows_close(r);
	if (err)
		goto out;
	if (!k) {
		fprintf(stderr, "gsearch: error: sweep %lld has no ok configuration%s%s%s\n",
			(long long)sw.id, sw.fields[p.by].kind == GS_QK_COL ? "" : " with ",
			sw.fields[p.by].kind == GS_QK_COL ? "" : sw.fields[p.by].name,
			q->where ? " that passes --where" : "");
		goto out;
	}
	if (q->fmt == GS_QF_JSON) {
		json_t *o = json_object();
		json_object_set_new(o, "sweep", json_integer(sw.id));
		json_object_set_new(o, "modeled", json_boolean(sw.modeled));
		json_object_set_new(o, "by", json_string(sw.fields[p.by].name));
		json_object_set_new(o, "order", json_string(p.desc ? "desc" : "asc"));
		/* the ranks from the top whose time intervals meet #1's */
		json_object_set_new(o, "tied", p.tied > 1 && by_time ? json_integer(p.tied)
								     : json_null());
		json_object_set_new(o, "rows", p.rows);
		p.rows = NULL;
		gs_qjson_print(q->out, o);
	} else {
		if (q->fmt == GS_QF_TABLE)
			gs_qprint_sweep(q->out, &sw);
		gs_qtable_print(p.t, q->out, q->fmt == GS_QF_CSV);
		int tie = q->fmt == GS_QF_TABLE && by_time && p.tied > 1;
		if (tie || (q->fmt == GS_QF_TABLE && (p.base_seen || sw.modeled)))
			fputc('\n', q->out);
		if (tie && p.tied == 2)
			fprintf(q->out, "note: #1 and #2 overlap (a statistical tie at 95%%)\n");
		else if (tie)
			fprintf(q->out, "note: #2 to #%ld each overlap #1 (a statistical tie at 95%%)\n",
				p.tied);
		if (q->fmt == GS_QF_TABLE && (p.base_seen || sw.modeled))
			fprintf(q->out, "%s%s%s\n", p.base_seen ? "* the baseline" : "",
				p.base_seen && sw.modeled ? "; " : "",
				sw.modeled ? "times are modeled by the emulated device" : "");
	}
	rc = 0;
	if (q->plot) {
		/* the baseline's figure, for the reference line */
		int have = 0;
		double bx = 0;
		if (sw.baseline >= 0 && !p.base_seen) {
			struct gs_qspec bs = { .ok_only = 1, .order = -1, .want = &p.by, .nwant = 1,
					       .idx = sw.baseline };
			if (gs_qrows_open(&r, q, &sw, NULL, &bs) == 0 && gs_qrows_next(r) > 0)
				bx = gs_qnum(gs_qrows_env(r)[p.by], &have);
			gs_qrows_close(r);
		}
		rc = plot(&p, k, have, bx) < 0;
	}
out:
	json_decref(p.rows);
	gs_qtable_free(p.t);
	gs_buf_release(&p.data);
	free(p.want);
	gs_qfilter_release(&f);
	gs_qsweep_release(&sw);
	return rc;
}
