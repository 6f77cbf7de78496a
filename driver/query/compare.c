/* compare.c — `query compare`: the hand-picked baseline against the searched
 * optimum, as Ryoo et al. reported it ("74% faster", "43% less time"), with
 * the resources that explain the difference; and, with --sweeps A,B, how an
 * optimum found on one device fares on another. */
#include "query/query.h"
#include "store/store.h"

#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rows of the comparison, after the parameters: field and label. */
static const char *const figures[][2] = {
	{ "status", "outcome" },         { "time_ms", "time ms" },
	{ "min_ms", "min ms" },          { "iqr_ms", "iqr ms" },
	{ "registers", "registers" },    { "static_smem", "static smem" },
	{ "local_bytes", "local bytes" }, { "spill_stores", "spill stores" },
	{ "blocks_per_sm", "blocks/SM" }, { "occupancy", "occupancy" },
	{ "limiter", "limiter" },        { "energy_j", "energy J" },
	{ "power_w", "power W" },        { "error", "error" },
};

/* One configuration, every field read (values live in rows->strs until
 * gs_qrows_close, so a snapshot copies them). */
struct conf {
	int64_t idx;
	char *status, *params;
	struct gs_value *env;
	struct gs_arena arena;
	int found;
};

static void conf_release(struct conf *c)
{
	free(c->status);
	free(c->params);
	free(c->env);
	gs_arena_release(&c->arena);
	memset(c, 0, sizeof(*c));
}

static int *all_fields(const struct gs_qsweep *sw, size_t *n)
{
	int *w = gs_xcalloc(sw->nfields + 1, sizeof(*w));
	*n = 0;
	for (size_t i = 0; i < sw->nfields; i++)
		if (sw->fields[i].kind != GS_QK_COUNTER)
			w[(*n)++] = (int)i;
	return w;
}

static void snapshot(struct conf *c, const struct gs_qsweep *sw, struct gs_qrows *r)
{
	c->found = 1;
	c->idx = gs_qrows_idx(r);
	c->status = gs_qrows_status(r) ? gs_xstrdup(gs_qrows_status(r)) : NULL;
	c->params = gs_xstrdup(gs_qrows_params(r) ? gs_qrows_params(r) : "{}");
	c->env = gs_xcalloc(sw->nfields + 1, sizeof(*c->env));
	for (size_t i = 0; i < sw->nfields; i++)
		c->env[i] = gs_value_persist(&c->arena, gs_qrows_env(r)[i]);
}

/* The optimum (idx < 0: the best ok row by time that passes f) or the
 * configuration idx.  0 when found or not, -1 on errors. */
static int read_conf(struct gs_query *q, struct gs_qsweep *sw, struct gs_qfilter *f, int64_t idx,
		     struct conf *c)
{
	memset(c, 0, sizeof(*c));
	size_t nw;
	int *want = all_fields(sw, &nw);
	struct gs_qspec spec = { .ok_only = idx < 0, .order = idx < 0 ? gs_qsweep_field(sw, "time_ms")
								      : -1,
				 .want = want, .nwant = nw, .idx = idx, .params = 1 };
	struct gs_qrows *r;
	int rc = gs_qrows_open(&r, q, sw, idx < 0 ? f : NULL, &spec);
	if (rc == 0 && (rc = gs_qrows_next(r)) > 0) {
		snapshot(c, sw, r);
		rc = 0;
	}
	gs_qrows_close(r);
	free(want);
	return rc < 0 ? -1 : 0;
}

static double time_of(const struct gs_qsweep *sw, const struct conf *c, int *ok)
{
	*ok = 0;
	if (!c->found || !c->status || strcmp(c->status, "ok"))
		return 0;
	return gs_qnum(c->env[gs_qsweep_field(sw, "time_ms")], ok);
}

static void cell(struct gs_qtable *t, const struct gs_qsweep *sw, const struct conf *c,
		 const char *field, int csv)
{
	int f = gs_qsweep_field(sw, field);
	struct gs_value v = c->env[f];
	if (!strcmp(field, "occupancy") && v.t == GS_V_FLOAT && !csv)
		gs_qtable_cellf(t, "%.2f", v.f);
	else
		gs_qtable_value(t, v);
}

static int any_value(const struct gs_qsweep *sw, const struct conf *a, const struct conf *b,
		     const char *field)
{
	int f = gs_qsweep_field(sw, field);
	return a->env[f].t != GS_V_NONE || b->env[f].t != GS_V_NONE;
}

static json_t *conf_json(const struct gs_qsweep *sw, const struct conf *c)
{
	json_t *o = json_object(), *m = json_object();
	json_object_set_new(o, "idx", json_integer(c->idx));
	json_object_set_new(o, "params", gs_qjson_params(c->params));
	for (size_t i = 0; i < GS_ARRAY_SIZE(figures); i++)
		json_object_set_new(o, figures[i][0],
				    gs_qjson_value(c->env[gs_qsweep_field(sw, figures[i][0])]));
	for (size_t i = 0; i < sw->nfields; i++)
		if (sw->fields[i].kind == GS_QK_METRIC)
			json_object_set_new(m, sw->fields[i].name, gs_qjson_value(c->env[i]));
	json_object_set_new(o, "metrics", m);
	return o;
}

/* The parameters whose values differ, as "TILE 16 -> 32, ..." and a list. */
static void differing(const struct gs_qsweep *sw, const struct conf *a, const struct conf *b,
		      struct gs_buf *text, json_t *names)
{
	for (size_t i = 0; i < sw->nparams; i++) {
		int f = gs_qsweep_field(sw, sw->params[i]);
		if (gs_value_eq(a->env[f], b->env[f]) && a->env[f].t == b->env[f].t)
			continue;
		if (text) {
			gs_buf_printf(text, "%s%s ", text->len ? ", " : "", sw->params[i]);
			gs_qfmt(text, a->env[f]);
			gs_buf_puts(text, " -> ");
			gs_qfmt(text, b->env[f]);
		}
		if (names)
			json_array_append_new(names, json_string(sw->params[i]));
	}
}

/* Whether the sweep's space was a T1 file, read as gsearch reads one: a name
 * ending in .json, or text starting with '{'.  Such a file has no `baseline`
 * statement: its parameters' Default values are the baseline. */
static int from_t1(const struct gs_qsweep *sw)
{
	const char *p = sw->space_path;
	if (!p)
		return 0;
	size_t n = strlen(p);
	if (n >= 5 && !strcmp(p + n - 5, ".json"))
		return 1;
	FILE *f = fopen(p, "rb");
	int c = EOF;
	if (f) {
		while ((c = fgetc(f)) == ' ' || c == '\t' || c == '\n' || c == '\r')
			;
		fclose(f);
	}
	return c == '{';
}

int gs_query_compare(struct gs_query *q)
{
	struct gs_qsweep sw;
	struct gs_qfilter f;
	struct conf b, o;
	memset(&b, 0, sizeof(b));
	memset(&o, 0, sizeof(o));
	if (gs_qsweep_load(q, q->sweep, &sw) < 0)
		return 1;
	if (gs_qfilter_init(&f, &sw, q->where) < 0) {
		gs_qsweep_release(&sw);
		return 1;
	}
	int rc = 1;
	if (sw.baseline < 0) {
		struct gs_buf why = GS_BUF_INIT;
		if (!strcmp(gs_qsweep_no_baseline(q, &sw, &why), "none"))
			gs_buf_puts(&why, from_t1(&sw) ? " (give every tuning parameter of the T1 file a "
							 "`Default`: the defaults are the baseline)"
						       : " (add `baseline ...` to the space)");
		fprintf(stderr, "gsearch: error: cannot compare sweep %lld with its baseline: %s\n",
			(long long)sw.id, gs_buf_str(&why));
		gs_buf_release(&why);
		goto out;
	}
	if (read_conf(q, &sw, &f, -1, &o) < 0 || read_conf(q, &sw, &f, sw.baseline, &b) < 0)
		goto out;
	if (!o.found) {
		fprintf(stderr, "gsearch: error: sweep %lld has no ok configuration%s\n",
			(long long)sw.id, q->where ? " that passes --where" : "");
		goto out;
	}
	int bok, ook;
	double tb = time_of(&sw, &b, &bok), to = time_of(&sw, &o, &ook);
	int64_t better = 0, total = 0;
	if (bok && gs_qcount_better(q, &sw, &f, gs_qsweep_field(&sw, "time_ms"), 0, tb, &better,
				    &total) < 0)
		goto out;
	int cmp = bok && ook && to > 0 && tb > 0;
	double speedup = cmp ? 100 * (tb / to - 1) : 0, less = cmp ? 100 * (1 - to / tb) : 0;
	double faster = total ? 100.0 * (double)better / (double)total : 0;

	if (q->fmt == GS_QF_JSON) {
		json_t *j = json_object(), *names = json_array();
		json_object_set_new(j, "sweep", json_integer(sw.id));
		json_object_set_new(j, "modeled", json_boolean(sw.modeled));
		json_object_set_new(j, "baseline", conf_json(&sw, &b));
		json_object_set_new(j, "optimum", conf_json(&sw, &o));
		differing(&sw, &b, &o, NULL, names);
		json_object_set_new(j, "differs", names);
		json_object_set_new(j, "speedup_pct", cmp ? json_real(speedup) : json_null());
		json_object_set_new(j, "less_time_pct", cmp ? json_real(less) : json_null());
		json_object_set_new(j, "baseline_rank", bok ? json_integer(better + 1) : json_null());
		json_object_set_new(j, "ranked", json_integer(total));
		json_object_set_new(j, "faster_pct", bok ? json_real(faster) : json_null());
		gs_qjson_print(q->out, j);
		rc = 0;
		goto out;
	}
	struct gs_qtable *t = gs_qtable_new();
	int csv = q->fmt == GS_QF_CSV;
	if (!csv)
		gs_qprint_sweep(q->out, &sw);
	gs_qtable_col(t, "", "field", 0);
	gs_qtable_col(t, "baseline (hand-picked)", "baseline", 0);
	gs_qtable_col(t, "optimum (searched)", "optimum", 0);
	if (!csv)
		gs_qtable_col(t, "", NULL, 0);
	gs_qtable_cell(t, "index", "idx");
	gs_qtable_cellf(t, "%lld", (long long)b.idx);
	gs_qtable_cellf(t, "%lld", (long long)o.idx);
	if (!csv)
		gs_qtable_cell(t, "", NULL);
	for (size_t i = 0; i < sw.nparams; i++) {
		int fi = gs_qsweep_field(&sw, sw.params[i]);
		gs_qtable_cell(t, sw.params[i], NULL);
		gs_qtable_value(t, b.env[fi]);
		gs_qtable_value(t, o.env[fi]);
		if (!csv)
			gs_qtable_cell(t, gs_value_eq(b.env[fi], o.env[fi]) ? "" : "differs", NULL);
	}
	for (size_t i = 0; i < GS_ARRAY_SIZE(figures); i++) {
		const char *fn = figures[i][0];
		/* the rows that say something: no empty energy, no error of an ok pair */
		if (!any_value(&sw, &b, &o, fn) && strcmp(fn, "status"))
			continue;
		if (!csv && !strcmp(fn, "status") && bok && ook)
			continue;
		if (!csv && !strcmp(fn, "error"))
			continue; /* too long for a column: said under the table */
		gs_qtable_cell(t, csv ? fn : figures[i][1], NULL);
		cell(t, &sw, &b, fn, csv);
		cell(t, &sw, &o, fn, csv);
		if (!csv)
			gs_qtable_cell(t, "", NULL);
	}
	for (size_t i = 0; i < sw.nfields; i++)
		if (sw.fields[i].kind == GS_QK_METRIC) {
			gs_qtable_cell(t, sw.fields[i].name, NULL);
			gs_qtable_value(t, b.env[i]);
			gs_qtable_value(t, o.env[i]);
			if (!csv)
				gs_qtable_cell(t, "", NULL);
		}
	gs_qtable_print(t, q->out, csv);
	gs_qtable_free(t);
	if (!csv) {
		struct gs_buf s = GS_BUF_INIT;
		fputc('\n', q->out);
		const struct conf *side[2] = { &b, &o };
		int fe = gs_qsweep_field(&sw, "error");
		for (int k = 0; k < 2; k++)
			if (side[k]->env[fe].t == GS_V_STR && (k == 0 || o.idx != b.idx))
				fprintf(q->out, "The %s's error: %s\n", k ? "optimum" : "baseline",
					side[k]->env[fe].s->s);
		if (sw.modeled)
			fprintf(q->out, "Times are modeled by the emulated device (%s).\n", sw.device);
		if (cmp && b.idx != o.idx)
			fprintf(q->out, "The optimum is %.1f%% faster than the baseline (%.1f%% less "
					"time).\n", speedup, less);
		else if (cmp)
			fprintf(q->out, "The baseline is the optimum.\n");
		else
			fprintf(q->out, "The baseline did not run ok (%s), so it has no time.\n",
				b.status ? b.status : "not run yet");
		if (bok)
			fprintf(q->out, "The baseline ranks %lld of %lld ok configurations%s: %.0f%% of "
					"them are faster.\n", (long long)(better + 1),
				(long long)total, q->where ? " that pass --where" : "", faster);
		differing(&sw, &b, &o, &s, NULL);
		if (s.len)
			fprintf(q->out, "Parameters that differ: %s.\n", gs_buf_str(&s));
		gs_buf_release(&s);
	}
	rc = 0;
out:
	conf_release(&b);
	conf_release(&o);
	gs_qfilter_release(&f);
	gs_qsweep_release(&sw);
	return rc;
}

/* ---- portability ---------------------------------------------------------------- */

/* Where configuration `c` of one sweep (its parameters) stands on sweep `on`. */
struct port {
	int found;      /* on has a configuration with those parameters */
	struct conf at; /* that configuration on `on` */
	int ok;
	double t;
	int64_t rank, ranked;
	double slower; /* % slower than on's own optimum */
};

static int port_of(struct gs_query *q, struct gs_qsweep *on, struct gs_qfilter *f,
		   const struct conf *c, const struct conf *on_opt, struct port *p)
{
	memset(p, 0, sizeof(*p));
	sqlite3_stmt *s;
	int64_t idx = -1;
	if (sqlite3_prepare_v2(q->db, "SELECT idx FROM config WHERE sweep_id = ?1 AND params = ?2",
			       -1, &s, NULL)) {
		fprintf(stderr, "gsearch: error: cannot read %s: %s%s\n", q->path, sqlite3_errmsg(q->db),
			gs_store_damage_hint(sqlite3_extended_errcode(q->db), q->path));
		return -1;
	}
	sqlite3_bind_int64(s, 1, on->id);
	sqlite3_bind_text(s, 2, c->params, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		idx = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (idx < 0)
		return 0;
	p->found = 1;
	if (read_conf(q, on, NULL, idx, &p->at) < 0)
		return -1;
	p->t = time_of(on, &p->at, &p->ok);
	if (!p->ok)
		return 0;
	if (gs_qcount_better(q, on, f, gs_qsweep_field(on, "time_ms"), 0, p->t, &p->rank,
			     &p->ranked) < 0)
		return -1;
	p->rank++;
	int ok;
	double best = time_of(on, on_opt, &ok);
	p->slower = ok && best > 0 ? 100 * (p->t / best - 1) : 0;
	return 0;
}

static void port_text(FILE *out, const struct gs_qsweep *from, const struct gs_qsweep *on,
		      const struct conf *c, const struct port *p)
{
	struct gs_buf b = GS_BUF_INIT;
	gs_buf_printf(&b, "Sweep %lld's optimum (index %lld) ", (long long)from->id,
		      (long long)c->idx);
	if (!p->found) {
		gs_buf_printf(&b, "is not a configuration of sweep %lld.", (long long)on->id);
	} else if (!p->ok) {
		gs_buf_printf(&b, "on sweep %lld (index %lld): %s.", (long long)on->id,
			      (long long)p->at.idx, p->at.status ? p->at.status : "not run yet");
	} else {
		gs_buf_printf(&b, "on sweep %lld: ", (long long)on->id);
		gs_qfmt_num(&b, p->t);
		gs_buf_printf(&b, " ms%s, rank %lld of %lld ok configurations, %.1f%% slower than "
				  "sweep %lld's own optimum.", on->modeled ? " (modeled)" : "",
			      (long long)p->rank, (long long)p->ranked, p->slower, (long long)on->id);
	}
	gs_qprint_para(out, gs_buf_str(&b));
	gs_buf_release(&b);
}

static json_t *port_json(const struct gs_qsweep *from, const struct gs_qsweep *on,
			 const struct conf *c, const struct port *p)
{
	json_t *o = json_object();
	int ok;
	double t = time_of(from, c, &ok);
	json_object_set_new(o, "from", json_integer(from->id));
	json_object_set_new(o, "on", json_integer(on->id));
	json_object_set_new(o, "idx", json_integer(c->idx));
	json_object_set_new(o, "params", gs_qjson_params(c->params));
	json_object_set_new(o, "time_ms", json_real(t));
	json_object_set_new(o, "found", json_boolean(p->found));
	json_object_set_new(o, "idx_on", p->found ? json_integer(p->at.idx) : json_null());
	json_object_set_new(o, "status_on", p->found && p->at.status ? json_string(p->at.status)
								      : json_null());
	json_object_set_new(o, "time_ms_on", p->ok ? json_real(p->t) : json_null());
	json_object_set_new(o, "rank_on", p->ok ? json_integer(p->rank) : json_null());
	json_object_set_new(o, "ranked_on", p->ok ? json_integer(p->ranked) : json_null());
	json_object_set_new(o, "slower_pct", p->ok ? json_real(p->slower) : json_null());
	return o;
}

int gs_query_compare_sweeps(struct gs_query *q, int64_t ia, int64_t ib)
{
	struct gs_qsweep a, b;
	struct gs_qfilter fa, fb;
	struct conf oa, ob;
	struct port pa, pb;
	memset(&oa, 0, sizeof(oa));
	memset(&ob, 0, sizeof(ob));
	memset(&pa, 0, sizeof(pa));
	memset(&pb, 0, sizeof(pb));
	memset(&fa, 0, sizeof(fa));
	memset(&fb, 0, sizeof(fb));
	if (gs_qsweep_load(q, ia, &a) < 0)
		return 1;
	if (gs_qsweep_load(q, ib, &b) < 0) {
		gs_qsweep_release(&a);
		return 1;
	}
	int rc = 1;
	if (gs_qfilter_init(&fa, &a, q->where) < 0 || gs_qfilter_init(&fb, &b, q->where) < 0)
		goto out;
	if (read_conf(q, &a, &fa, -1, &oa) < 0 || read_conf(q, &b, &fb, -1, &ob) < 0)
		goto out;
	if (!oa.found || !ob.found) {
		fprintf(stderr, "gsearch: error: sweep %lld has no ok configuration%s\n",
			(long long)(oa.found ? b.id : a.id), q->where ? " that passes --where" : "");
		goto out;
	}
	if (port_of(q, &b, &fb, &oa, &ob, &pa) < 0 || port_of(q, &a, &fa, &ob, &oa, &pb) < 0)
		goto out;
	if (q->fmt == GS_QF_JSON) {
		json_t *j = json_object(), *arr = json_array();
		json_array_append_new(arr, port_json(&a, &b, &oa, &pa));
		json_array_append_new(arr, port_json(&b, &a, &ob, &pb));
		json_object_set_new(j, "sweeps", json_pack("[I, I]", (json_int_t)a.id,
							    (json_int_t)b.id));
		json_object_set_new(j, "optima", arr);
		gs_qjson_print(q->out, j);
	} else if (q->fmt == GS_QF_CSV) {
		struct gs_qtable *t = gs_qtable_new();
		static const char *const cols[] = { "from", "on", "idx", "params", "time_ms", "idx_on",
						    "status_on", "time_ms_on", "rank_on", "ranked_on",
						    "slower_pct" };
		for (size_t i = 0; i < GS_ARRAY_SIZE(cols); i++)
			gs_qtable_col(t, cols[i], NULL, 0);
		for (int k = 0; k < 2; k++) {
			struct gs_qsweep *from = k ? &b : &a, *on = k ? &a : &b;
			struct conf *c = k ? &ob : &oa;
			struct port *p = k ? &pb : &pa;
			struct gs_buf s = GS_BUF_INIT;
			int ok;
			gs_qtable_cellf(t, "%lld", (long long)from->id);
			gs_qtable_cellf(t, "%lld", (long long)on->id);
			gs_qtable_cellf(t, "%lld", (long long)c->idx);
			gs_qfmt_params(&s, c->params);
			gs_qtable_cell(t, gs_buf_str(&s), NULL);
			gs_buf_reset(&s);
			gs_float_repr(&s, time_of(from, c, &ok));
			gs_qtable_cell(t, gs_buf_str(&s), NULL);
			gs_buf_reset(&s);
			if (p->found)
				gs_buf_printf(&s, "%lld", (long long)p->at.idx);
			gs_qtable_cell(t, gs_buf_str(&s), NULL);
			gs_qtable_cell(t, p->found && p->at.status ? p->at.status : "", NULL);
			gs_buf_reset(&s);
			if (p->ok)
				gs_float_repr(&s, p->t);
			gs_qtable_cell(t, gs_buf_str(&s), NULL);
			gs_buf_reset(&s);
			if (p->ok)
				gs_buf_printf(&s, "%lld", (long long)p->rank);
			gs_qtable_cell(t, gs_buf_str(&s), NULL);
			gs_buf_reset(&s);
			if (p->ok)
				gs_buf_printf(&s, "%lld", (long long)p->ranked);
			gs_qtable_cell(t, gs_buf_str(&s), NULL);
			gs_buf_reset(&s);
			if (p->ok)
				gs_float_repr(&s, p->slower);
			gs_qtable_cell(t, gs_buf_str(&s), NULL);
			gs_buf_release(&s);
		}
		gs_qtable_print(t, q->out, 1);
		gs_qtable_free(t);
	} else {
		gs_qprint_sweep(q->out, &a);
		gs_qprint_sweep(q->out, &b);
		fputc('\n', q->out);
		for (int k = 0; k < 2; k++) {
			struct gs_qsweep *s = k ? &b : &a;
			struct conf *c = k ? &ob : &oa;
			struct gs_buf l = GS_BUF_INIT, v = GS_BUF_INIT;
			int ok;
			gs_buf_printf(&l, "sweep %lld", (long long)s->id);
			gs_buf_puts(&v, "optimum ");
			gs_qfmt_num(&v, time_of(s, c, &ok));
			gs_buf_printf(&v, " ms, index %lld: ", (long long)c->idx);
			gs_qfmt_params(&v, c->params);
			gs_qprint_line(q->out, gs_buf_str(&l), gs_buf_str(&v));
			gs_buf_release(&l);
			gs_buf_release(&v);
		}
		fputc('\n', q->out);
		port_text(q->out, &a, &b, &oa, &pa);
		port_text(q->out, &b, &a, &ob, &pb);
		int same = a.nparams == b.nparams;
		for (size_t i = 0; same && i < a.nparams; i++)
			same = !strcmp(a.params[i], b.params[i]);
		if (same) {
			struct gs_buf s = GS_BUF_INIT, t = GS_BUF_INIT;
			differing(&a, &oa, &ob, &s, NULL);
			if (s.len) {
				gs_buf_printf(&t, "Parameters that differ between the optima: %s.",
					      gs_buf_str(&s));
				gs_qprint_para(q->out, gs_buf_str(&t));
				gs_buf_release(&t);
			} else {
				fprintf(q->out, "The two optima are the same configuration.\n");
			}
			gs_buf_release(&s);
		}
	}
	rc = 0;
out:
	conf_release(&oa);
	conf_release(&ob);
	conf_release(&pa.at);
	conf_release(&pb.at);
	gs_qfilter_release(&fa);
	gs_qfilter_release(&fb);
	gs_qsweep_release(&a);
	gs_qsweep_release(&b);
	return rc;
}
