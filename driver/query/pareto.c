/* pareto.c — `query pareto`: the configurations no other one beats on every
 * objective at once.
 *
 * The candidates are the ok configurations that pass the filter and have a
 * number for every objective.  a dominates b when a is no worse on every
 * objective and better on one; equal points do not dominate each other, so
 * both stay on the front.  Sorted lexicographically, a point can only be
 * dominated by one before it, and then by a member of the front: two
 * objectives take one sweep keeping the best second objective so far
 * (O(n log n)); more compare each point with the front found so far. */
#define _GNU_SOURCE /* qsort_r */
#include "query/query.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cand {
	size_t n, k;
	int64_t *idx;
	double *v;   /* n * k, as read */
	double *key; /* n * k, negated for --max: lower is better */
};

static int cmp_keys(const void *pa, const void *pb, void *ctx)
{
	const struct cand *c = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	for (size_t j = 0; j < c->k; j++) {
		double x = c->key[a * c->k + j], y = c->key[b * c->k + j];
		if (x != y)
			return x < y ? -1 : 1;
	}
	return c->idx[a] < c->idx[b] ? -1 : c->idx[a] > c->idx[b];
}

static int dominates(const struct cand *c, size_t a, size_t b)
{
	int strict = 0;
	for (size_t j = 0; j < c->k; j++) {
		double x = c->key[a * c->k + j], y = c->key[b * c->k + j];
		if (x > y)
			return 0;
		strict |= x < y;
	}
	return strict;
}

/* Two objectives: the points themselves are sorted (not indices into
 * them), which keeps the sort in cache for a million candidates. */
struct pt2 {
	double a, b;
	int64_t idx;
	size_t i;
};

static int cmp_pt2(const void *pa, const void *pb)
{
	const struct pt2 *x = pa, *y = pb;
	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* A double as an unsigned key in the same order (no NaN; -0 is made +0). */
static uint64_t order_key(double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof(u));
	return u >> 63 ? ~u : u | (1ull << 63);
}

/* Stable LSD radix sort by .a, 16 bits a pass: four passes over a million
 * points cost less than one qsort with its comparison calls. */
static void radix_sort(struct pt2 *p, size_t n)
{
	struct pt2 *tmp = gs_xcalloc(n + 1, sizeof(*tmp));
	size_t *count = gs_xcalloc(1 << 16, sizeof(*count));
	for (int shift = 0; shift < 64; shift += 16) {
		memset(count, 0, (1 << 16) * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(order_key(p[i].a) >> shift) & 0xffff]++;
		size_t sum = 0;
		for (size_t d = 0; d < (1 << 16); d++) {
			size_t k = count[d];
			count[d] = sum;
			sum += k;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(order_key(p[i].a) >> shift) & 0xffff]++] = p[i];
		memcpy(p, tmp, n * sizeof(*p));
	}
	free(count);
	free(tmp);
}

static size_t front2(const struct cand *c, size_t *f)
{
	struct pt2 *p = gs_xcalloc(c->n + 1, sizeof(*p));
	size_t nf = 0;
	for (size_t i = 0; i < c->n; i++)
		p[i] = (struct pt2){ c->key[i * 2] + 0.0, c->key[i * 2 + 1], c->idx[i], i };
	radix_sort(p, c->n);
	/* the radix sort orders by the first objective; a run of equal values
	 * takes the second, then the index */
	for (size_t i = 0, j; i < c->n; i = j) {
		for (j = i + 1; j < c->n && p[j].a == p[i].a; j++)
			;
		if (j - i > 1)
			qsort(p + i, j - i, sizeof(*p), cmp_pt2);
	}
	/* `before`: the best second objective of every point with a smaller
	 * first one; within a group of equal first objectives, only the points
	 * at the group's minimum of the second can be on the front */
	double before = INFINITY, group_min = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (i == 0 || p[i].a != p[i - 1].a) {
			if (i && group_min < before)
				before = group_min;
			group_min = p[i].b;
		}
		if (p[i].b == group_min && p[i].b < before)
			f[nf++] = p[i].i;
	}
	free(p);
	return nf;
}

/* The front, in lexicographic order of the objectives: *nf indices. */
static size_t *front(const struct cand *c, size_t *nf)
{
	size_t *f = gs_xcalloc(c->n + 1, sizeof(*f));
	if (c->k == 2) {
		*nf = front2(c, f);
		return f;
	}
	size_t *ord = gs_xcalloc(c->n + 1, sizeof(*ord));
	for (size_t i = 0; i < c->n; i++)
		ord[i] = i;
	qsort_r(ord, c->n, sizeof(*ord), cmp_keys, (void *)c);
	*nf = 0;
	for (size_t i = 0; i < c->n; i++) {
		size_t p = ord[i];
		int dom = 0;
		for (size_t j = 0; j < *nf && !dom; j++)
			dom = dominates(c, f[j], p);
		if (!dom)
			f[(*nf)++] = p;
	}
	free(ord);
	return f;
}

struct xsort {
	const struct cand *c;
	size_t stride;
};

static int cmp_x(const void *pa, const void *pb, void *ctx)
{
	const struct xsort *x = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	double xa = x->c->v[a * x->stride + 1], xb = x->c->v[b * x->stride + 1];
	double ya = x->c->v[a * x->stride], yb = x->c->v[b * x->stride];
	if (xa != xb)
		return xa < xb ? -1 : 1;
	return ya < yb ? -1 : ya > yb;
}

static void plot_point(struct gs_buf *b, double x, double y)
{
	if (!isnan(x) && !isnan(y))
		gs_buf_printf(b, "%.17g %.17g\n", x, y);
}

/* c->v holds `stride` values a row: the first objective (y), then the second
 * objective or field xf (x). */
static int plot(struct gs_query *q, struct gs_qsweep *sw, const struct cand *c, size_t stride,
		const int *obj, const int *maximize, const size_t *f, size_t nf, int xf,
		const double *base, int64_t base_idx)
{
	int two = c->k >= 2;
	struct gs_qfield *fy = &sw->fields[obj[0]], *fx = &sw->fields[two ? obj[1] : xf];
	struct gs_buf s = GS_BUF_INIT, t = GS_BUF_INIT;
	if (gs_plot_terminal(&s, q->plot, 1000, 700) < 0)
		return -1;
	double ymin = INFINITY, ymax = -INFINITY;
	gs_buf_puts(&s, "$all << EOD\n");
	for (size_t i = 0; i < c->n; i++) {
		double y = c->v[i * stride];
		plot_point(&s, c->v[i * stride + 1], y);
		ymin = y < ymin ? y : ymin;
		ymax = y > ymax ? y : ymax;
	}
	/* the front by x, for its staircase */
	size_t *byx = gs_xcalloc(nf + 1, sizeof(*byx));
	memcpy(byx, f, nf * sizeof(*f));
	struct xsort xs = { c, stride };
	qsort_r(byx, nf, sizeof(*byx), cmp_x, &xs);
	gs_buf_puts(&s, "EOD\n$front << EOD\n");
	for (size_t i = 0; i < nf; i++)
		plot_point(&s, c->v[byx[i] * stride + 1], c->v[byx[i] * stride]);
	free(byx);
	gs_buf_puts(&s, "EOD\n$best << EOD\n");
	plot_point(&s, c->v[f[0] * stride + 1], c->v[f[0] * stride]);
	gs_buf_puts(&s, "EOD\n");
	if (base) {
		gs_buf_puts(&s, "$base << EOD\n");
		plot_point(&s, base[1], base[0]);
		gs_buf_puts(&s, "EOD\n");
	}
	gs_buf_printf(&t, "%s on %s: Pareto front, %zu of %zu configurations%s", sw->space,
		      sw->device ? sw->device : "?", nf, c->n, sw->modeled ? " (modeled times)" : "");
	if (c->k > 2)
		gs_buf_printf(&t, "; front over %zu objectives", c->k);
	gs_buf_puts(&s, "set title ");
	gs_plot_str(&s, gs_buf_str(&t));
	for (int axis = 0; axis < 2; axis++) {
		struct gs_qfield *fl = axis ? fy : fx;
		int mx = axis ? maximize[0] : two && maximize[1];
		gs_buf_reset(&t);
		gs_buf_printf(&t, "%s%s%s%s", fl->name, *fl->unit ? " (" : "", fl->unit,
			      *fl->unit ? ")" : "");
		if (axis || two)
			gs_buf_puts(&t, mx ? ", higher is better" : ", lower is better");
		gs_buf_printf(&s, "\nset %s ", axis ? "ylabel" : "xlabel");
		gs_plot_str(&s, gs_buf_str(&t));
	}
	gs_buf_puts(&s, "\nset grid lc rgb '#e0e0e0'\n"
			"set key inside top right opaque box lc rgb '#cccccc'\n"
			"set border 3\nset xtics nomirror\nset ytics nomirror\nset offsets graph 0.03,"
			" graph 0.03, graph 0.05, graph 0.05\n");
	if (ymin > 0 && ymax / ymin > 30)
		gs_buf_puts(&s, "set logscale y\n");
	/* the front as the staircase that bounds the region it dominates, taken
	 * in increasing x: level first, then up or down, when x is minimized;
	 * the other way round when it is maximized */
	gs_buf_printf(&s, "plot $all using 1:2 with points pt 7 ps 0.5 lc rgb '#a0a0a0' title"
			  " 'configurations', \\\n"
			  "  $front using 1:2 with %s lw 1.5 lc rgb '#d62728' notitle, \\\n",
		      two && maximize[1] ? "fsteps" : "steps");
	gs_buf_puts(&s, "  $front using 1:2 with points pt 7 ps 1.1 lc rgb '#d62728' title"
			" 'Pareto front', \\\n  $best using 1:2 with points pt 3 ps 3 lw 2"
			" lc rgb '#000000' title ");
	gs_buf_reset(&t);
	gs_buf_printf(&t, "best %s (index %lld)", fy->name, (long long)c->idx[f[0]]);
	gs_plot_str(&s, gs_buf_str(&t));
	if (base) {
		gs_buf_puts(&s, ", \\\n  $base using 1:2 with points pt 9 ps 2.5 lc rgb '#1f77b4' title ");
		gs_buf_reset(&t);
		gs_buf_printf(&t, "baseline (index %lld)", (long long)base_idx);
		gs_plot_str(&s, gs_buf_str(&t));
	}
	gs_buf_puts(&s, "\n");
	int rc = gs_plot_run(q->plot, gs_buf_str(&s));
	gs_buf_release(&s);
	gs_buf_release(&t);
	return rc;
}

/* What the query's parts share. */
struct pareto {
	struct gs_query *q;
	struct gs_qsweep sw;
	const int *maximize;
	size_t k, kk;   /* objectives; values kept per row */
	int *obj;       /* the objectives' fields, then the plot's x axis */
	struct cand c;
	size_t *fr, nf; /* the front */
	int64_t unusable;
};

/* p->obj from the names: numbers, each once; -1 after a message. */
static int objectives(struct pareto *p, const char *const *names)
{
	for (size_t j = 0; j < p->k; j++) {
		const char *what = p->maximize[j] ? "--max" : "--min";
		p->obj[j] = gs_qsweep_field_or_report(&p->sw, names[j], what);
		if (p->obj[j] < 0)
			return -1;
		if (!(p->sw.fields[p->obj[j]].type & (GS_T(INT) | GS_T(FLOAT)))) {
			fprintf(stderr, "gsearch: error: %s %s: not a number\n", what, names[j]);
			return -1;
		}
		for (size_t i = 0; i < j; i++)
			if (p->obj[i] == p->obj[j]) {
				fprintf(stderr, "gsearch: error: %s is an objective twice\n", names[j]);
				return -1;
			}
	}
	return 0;
}

/* p->c's values and indices: the ok rows that pass f with a number for
 * every objective, counting those without in p->unusable; -1 on error. */
static int read_candidates(struct pareto *p, struct gs_qfilter *f)
{
	struct cand *c = &p->c;
	size_t k = p->k, kk = p->kk, cap = 0;
	struct gs_qspec spec = { .ok_only = 1, .order = -1, .want = p->obj, .nwant = kk, .idx = -1 };
	struct gs_qrows *r;
	int got = gs_qrows_open(&r, p->q, &p->sw, f, &spec);
	while (got == 0 && (got = gs_qrows_next(r)) > 0) {
		const struct gs_value *env = gs_qrows_env(r);
		got = 0;
		gs_grow(&c->idx, &cap, c->n + 1, sizeof(*c->idx));
		c->v = gs_xrealloc(c->v, cap * kk * sizeof(*c->v));
		int ok = 1;
		for (size_t j = 0; j < kk && ok; j++) {
			c->v[c->n * kk + j] = gs_qnum(env[p->obj[j]], &ok);
			ok = ok && !isnan(c->v[c->n * kk + j]);
			if (j >= k && !ok) {
				/* the plot's x axis only: the point is left out of the plot */
				c->v[c->n * kk + j] = NAN;
				ok = 1;
			}
		}
		if (!ok) {
			p->unusable++;
			continue;
		}
		c->idx[c->n++] = gs_qrows_idx(r);
	}
	gs_qrows_close(r);
	return got < 0 ? -1 : 0;
}

/* The front's members in full, as table rows of t and JSON objects of
 * rows, with the fields want[0..nw) (the first nshown shown, the rest
 * parameters); *base_in when the baseline is one.  -1 on error. */
static int member_rows(struct pareto *p, const int *want, size_t nw, size_t nshown,
		       struct gs_qtable *t, json_t *rows, int *base_in)
{
	struct gs_qsweep *sw = &p->sw;
	int csv = p->q->fmt == GS_QF_CSV;
	for (size_t i = 0; i < p->nf; i++) {
		int64_t idx = p->c.idx[p->fr[i]];
		struct gs_qrows *r;
		struct gs_qspec one = { .ok_only = 1, .order = -1, .want = want, .nwant = nw,
					.idx = idx, .params = 1 };
		if (gs_qrows_open(&r, p->q, sw, NULL, &one) < 0 || gs_qrows_next(r) <= 0) {
			gs_qrows_close(r);
			return -1;
		}
		const struct gs_value *env = gs_qrows_env(r);
		int base = idx == sw->baseline;
		*base_in |= base;
		gs_qtable_cellf(t, "%zu", i + 1);
		if (csv)
			gs_qtable_cellf(t, "%lld", (long long)idx);
		else
			gs_qtable_cellf(t, "%lld%s", (long long)idx, base ? "*" : "");
		for (size_t j = 0; j < nw; j++) {
			struct gs_value v = env[want[j]];
			if (!csv && v.t == GS_V_FLOAT && !strcmp(sw->fields[want[j]].name, "occupancy"))
				gs_qtable_cellf(t, "%.2f", v.f);
			else
				gs_qtable_value(t, v);
		}
		json_t *o = json_object();
		json_object_set_new(o, "idx", json_integer(idx));
		json_object_set_new(o, "baseline", json_boolean(base));
		for (size_t j = 0; j < nshown; j++)
			json_object_set_new(o, sw->fields[want[j]].name, gs_qjson_value(env[want[j]]));
		json_object_set_new(o, "params", gs_qjson_params(gs_qrows_params(r)));
		json_array_append_new(rows, o);
		gs_qrows_close(r);
	}
	return 0;
}

/* The front's table, or its JSON, after its heading; -1 on error. */
static int print_front(struct pareto *p)
{
	struct gs_query *q = p->q;
	struct gs_qsweep *sw = &p->sw;
	const int *maximize = p->maximize;
	size_t k = p->k;
	/* the objectives, then the usual figures, then the parameters */
	int *want = gs_xcalloc(sw->nfields + 1, sizeof(*want));
	size_t nw = 0;
	static const char *const extra[] = { "time_ms", "registers", "blocks_per_sm", "occupancy" };
	for (size_t j = 0; j < k; j++)
		want[nw++] = p->obj[j];
	for (size_t i = 0; i < GS_ARRAY_SIZE(extra); i++) {
		int e = gs_qsweep_field(sw, extra[i]), dup = 0;
		for (size_t j = 0; j < nw; j++)
			dup |= want[j] == e;
		if (!dup)
			want[nw++] = e;
	}
	size_t nshown = nw;
	for (size_t i = 0; i < sw->nparams; i++)
		want[nw++] = gs_qsweep_field(sw, sw->params[i]);
	struct gs_qtable *t = gs_qtable_new();
	int csv = q->fmt == GS_QF_CSV;
	gs_qtable_col(t, "#", "n", 1);
	gs_qtable_col(t, "idx", NULL, 1);
	for (size_t j = 0; j < nw; j++) {
		struct gs_qfield *fl = &sw->fields[want[j]];
		gs_qtable_col(t, j < nshown ? fl->label : fl->name, fl->name, 1);
	}
	gs_qtable_params(t, 2 + nshown, sw->nparams);
	json_t *rows = json_array();
	int base_in = 0;
	int rc = member_rows(p, want, nw, nshown, t, rows, &base_in);
	free(want);
	if (rc < 0) {
		gs_qtable_free(t);
		json_decref(rows);
		return -1;
	}
	if (q->fmt == GS_QF_JSON) {
		json_t *j = json_object(), *ob = json_array();
		json_object_set_new(j, "sweep", json_integer(sw->id));
		json_object_set_new(j, "modeled", json_boolean(sw->modeled));
		for (size_t i = 0; i < k; i++)
			json_array_append_new(ob, json_pack("{s:s, s:s}", "field", sw->fields[p->obj[i]].name,
							    "sense", maximize[i] ? "max" : "min"));
		json_object_set_new(j, "objectives", ob);
		json_object_set_new(j, "candidates", json_integer((json_int_t)p->c.n));
		json_object_set_new(j, "front", rows);
		gs_qjson_print(q->out, j);
	} else {
		json_decref(rows);
		if (!csv) {
			struct gs_buf h = GS_BUF_INIT;
			gs_qprint_sweep(q->out, sw);
			for (size_t j = 0; j < k; j++)
				gs_buf_printf(&h, "%s%s %s", j ? ", " : "", maximize[j] ? "max" : "min",
					      sw->fields[p->obj[j]].name);
			struct gs_buf l = GS_BUF_INIT;
			gs_buf_printf(&l, "Pareto front of sweep %lld (%s): %zu of %zu candidates",
				      (long long)sw->id, gs_buf_str(&h), p->nf, p->c.n);
			gs_qprint_para(q->out, gs_buf_str(&l));
			fprintf(q->out, "(candidates: ok configurations%s with every objective%s)\n\n",
				q->where ? " that pass --where" : "",
				p->unusable ? ", which some lack" : "");
			gs_buf_release(&h);
			gs_buf_release(&l);
		}
		gs_qtable_print(t, q->out, csv);
		if (!csv && (base_in || sw->modeled))
			fprintf(q->out, "\n%s%s%s\n", base_in ? "* the baseline" : "",
				base_in && sw->modeled ? "; " : "",
				sw->modeled ? "times are modeled by the emulated device" : "");
	}
	gs_qtable_free(t);
	return 0;
}

int gs_query_pareto(struct gs_query *q, const char *const *names, const int *maximize, size_t k)
{
	struct pareto p = { .q = q, .maximize = maximize, .k = k };
	struct gs_qfilter f;
	if (gs_qsweep_load(q, q->sweep, &p.sw) < 0)
		return 1;
	struct gs_qsweep *sw = &p.sw;
	struct cand *c = &p.c;
	int rc = 1;
	p.obj = gs_xcalloc(k + 2, sizeof(*p.obj));
	c->k = k;
	memset(&f, 0, sizeof(f));
	if (objectives(&p, names) < 0)
		goto out;
	/* with one objective the plot needs an x axis: registers */
	int xf = gs_qsweep_field(sw, "registers");
	p.kk = k == 1 && q->plot ? 2 : k;
	p.obj[k] = xf;
	if (gs_qfilter_init(&f, sw, q->where) < 0)
		goto out;
	if (read_candidates(&p, &f) < 0)
		goto out;
	if (!c->n) {
		fprintf(stderr, "gsearch: error: sweep %lld has no ok configuration%s with a value for"
				" every objective\n", (long long)sw->id,
			q->where ? " that passes --where" : "");
		goto out;
	}
	/* keys: the objectives only, oriented so that lower is better */
	c->key = gs_xcalloc(c->n * k + 1, sizeof(*c->key));
	for (size_t i = 0; i < c->n; i++)
		for (size_t j = 0; j < k; j++)
			c->key[i * k + j] = maximize[j] ? -c->v[i * p.kk + j] : c->v[i * p.kk + j];
	p.fr = front(c, &p.nf);
	if (print_front(&p) < 0)
		goto out;
	rc = 0;
	if (q->plot) {
		double bv[2], *base = NULL;
		for (size_t i = 0; i < c->n && sw->baseline >= 0; i++)
			if (c->idx[i] == sw->baseline) {
				bv[0] = c->v[i * p.kk];
				bv[1] = c->v[i * p.kk + 1];
				base = bv;
			}
		rc = plot(q, sw, c, p.kk, p.obj, maximize, p.fr, p.nf, xf, base, sw->baseline) < 0;
	}
out:
	free(p.obj);
	free(p.fr);
	free(c->idx);
	free(c->v);
	free(c->key);
	gs_qfilter_release(&f);
	gs_qsweep_release(sw);
	return rc;
}
