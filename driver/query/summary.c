/* summary.c — `query summary`: how each sweep went, in a few lines.
 *
 * Per sweep: the space and problem, the device, when it ran, the counts by
 * outcome, the best configuration, the baseline's time and rank, and the
 * time the sweep took with its overhead factor; for a sweep the emulated
 * device timed at the real size, what bounds its modeled times and how sure
 * the model is of them.  Without --where every count but the last is an
 * SQL aggregate over the index on (sweep, status, time). */
#include "query/query.h"
#include "query/overhead.h"

#include "dev/emu.h"

#include <jansson.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

static const char *const outcomes[] = { "ok",    "invalid", "compile_error", "launch_error",
					"crash", "timeout", "wrong",         "skipped",
					"emu_limit" };
#define NOUT GS_ARRAY_SIZE(outcomes)

struct summary {
	int64_t configs, counts[NOUT + 1]; /* the last: no outcome yet */
	int64_t best_idx;                   /* -1: no ok configuration */
	double best_ms;
	char *best_params;
	char *base_status; /* NULL: no outcome yet */
	double base_ms;
	int64_t base_rank, ranked;
	int devices;
	double work_s; /* time_ms x (runs + warm-ups) of the measured ok results */
	char *filter_note;
	int64_t reused;    /* outcomes taken from other sweeps */
	char *reused_text; /* "268 results of sweep 3", NULL when none */
	struct model_tally *model; /* NULL: no modeled bound in the sweep */
};

/* An emulated sweep's ok results by the bound of their modeled time
 * (model_bound) and by their confidence's level (model_confidence,
 * dev/emu.h), each in order of count, then of name. */
struct model_tally {
	struct {
		char *name;
		int64_t n;
	} *bound;
	size_t nbound, cap;
	int64_t level[3]; /* high, medium, low */
};
static const char *const levels[] = { "high", "medium", "low" };

static int outcome_index(const char *s)
{
	if (!s)
		return NOUT;
	for (size_t i = 0; i < NOUT; i++)
		if (!strcmp(outcomes[i], s))
			return (int)i;
	return NOUT;
}

static int64_t count1(struct gs_query *q, const char *sql, int64_t id)
{
	sqlite3_stmt *s;
	int64_t n = 0;
	if (sqlite3_prepare_v2(q->db, sql, -1, &s, NULL))
		return 0;
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* Which of the sweep's outcomes other sweeps measured: work it did not do,
 * which its times do not include. */
static int reused(struct gs_query *q, const struct gs_qsweep *sw, struct summary *m)
{
	sqlite3_stmt *s;
	struct gs_buf by = GS_BUF_INIT;
	int64_t first = 0;
	size_t groups = 0;
	if (q->schema < 9)
		return 0;
	if (sqlite3_prepare_v2(q->db, "SELECT reused_from, count(*) FROM result WHERE sweep_id = ?1"
				      " AND reused_from IS NOT NULL GROUP BY 1 ORDER BY 1", -1, &s,
			       NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(s, 1, sw->id);
	while (sqlite3_step(s) == SQLITE_ROW) {
		int64_t n = sqlite3_column_int64(s, 1);
		if (!groups)
			first = sqlite3_column_int64(s, 0);
		gs_buf_printf(&by, "%s%lld of sweep %lld", groups++ ? ", " : "", (long long)n,
			      (long long)sqlite3_column_int64(s, 0));
		m->reused += n;
	}
	sqlite3_finalize(s);
	if (groups == 1)
		m->reused_text = gs_xasprintf("%lld result%s of sweep %lld", (long long)m->reused,
					      m->reused == 1 ? "" : "s", (long long)first);
	else if (groups > 1)
		m->reused_text = gs_xasprintf("%lld results: %s", (long long)m->reused,
					      gs_buf_str(&by));
	gs_buf_release(&by);
	return 0;
}

static int cmp_bound(const void *a, const void *b)
{
	const struct model_tally *t = NULL;
	const __typeof__(*t->bound) *x = a, *y = b;
	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* m->model from the ok rows that pass f; left NULL when the sweep's results
 * carry no model_bound (measured, or timed at the emulator size). */
static int model_tally(struct gs_query *q, struct gs_qsweep *sw, struct gs_qfilter *f,
		       struct summary *m)
{
	int want[2] = { gs_qsweep_field(sw, "model_bound"), gs_qsweep_field(sw, "model_confidence") };
	if (want[0] < 0)
		return 0;
	struct model_tally *t = gs_xcalloc(1, sizeof(*t));
	struct gs_qspec spec = { .ok_only = 1, .order = -1, .want = want,
				 .nwant = want[1] >= 0 ? 2 : 1, .idx = -1 };
	struct gs_qrows *r;
	int rc = gs_qrows_open(&r, q, sw, f, &spec);
	while (rc == 0 && (rc = gs_qrows_next(r)) > 0) {
		rc = 0;
		const struct gs_value *env = gs_qrows_env(r);
		if (env[want[0]].t != GS_V_STR)
			continue;
		const char *b = env[want[0]].s->s;
		size_t i = 0;
		while (i < t->nbound && strcmp(t->bound[i].name, b))
			i++;
		if (i == t->nbound) {
			gs_grow(&t->bound, &t->cap, t->nbound + 1, sizeof(*t->bound));
			t->bound[t->nbound].name = gs_xstrdup(b);
			t->bound[t->nbound++].n = 0;
		}
		t->bound[i].n++;
		int ok;
		double c = want[1] >= 0 ? gs_qnum(env[want[1]], &ok) : 0;
		if (want[1] >= 0 && ok) {
			const char *l = gs_emu_confidence_level(c);
			for (int k = 0; k < 3; k++)
				t->level[k] += !strcmp(levels[k], l);
		}
	}
	gs_qrows_close(r);
	if (t->nbound)
		qsort(t->bound, t->nbound, sizeof(*t->bound), cmp_bound);
	m->model = t;
	return rc < 0 ? -1 : 0;
}

static int gather(struct gs_query *q, struct gs_qsweep *sw, struct gs_qfilter *f,
		  struct summary *m)
{
	memset(m, 0, sizeof(*m));
	m->best_idx = -1;
	int time = gs_qsweep_field(sw, "time_ms");
	if (!f->code) {
		m->configs = count1(q, "SELECT count(*) FROM config WHERE sweep_id = ?1", sw->id);
		sqlite3_stmt *s;
		if (sqlite3_prepare_v2(q->db, "SELECT status, count(*) FROM result WHERE sweep_id = ?1"
					      " GROUP BY status", -1, &s, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(s, 1, sw->id);
			int64_t done = 0;
			while (sqlite3_step(s) == SQLITE_ROW) {
				int64_t k = sqlite3_column_int64(s, 1);
				m->counts[outcome_index((const char *)sqlite3_column_text(s, 0))] += k;
				done += k;
			}
			sqlite3_finalize(s);
			m->counts[NOUT] += m->configs - done;
		}
	} else {
		struct gs_qspec spec = { .order = -1, .idx = -1 };
		struct gs_qrows *r;
		int rc = gs_qrows_open(&r, q, sw, f, &spec);
		while (rc == 0 && (rc = gs_qrows_next(r)) > 0) {
			m->configs++;
			m->counts[outcome_index(gs_qrows_status(r))]++;
			rc = 0;
		}
		gs_qrows_close(r);
		if (rc < 0)
			return -1;
		m->filter_note = gs_xasprintf("%lld of %lld configurations", (long long)m->configs,
					      (long long)count1(q, "SELECT count(*) FROM config WHERE"
								   " sweep_id = ?1", sw->id));
	}
	/* the best: the first ok row in time order that passes the filter */
	struct gs_qspec spec = { .ok_only = 1, .order = time, .want = &time, .nwant = 1,
				 .idx = -1, .params = 1 };
	struct gs_qrows *r;
	int rc = gs_qrows_open(&r, q, sw, f, &spec);
	if (rc == 0 && (rc = gs_qrows_next(r)) > 0) {
		int ok;
		m->best_ms = gs_qnum(gs_qrows_env(r)[time], &ok);
		m->best_idx = gs_qrows_idx(r);
		m->best_params = gs_xstrdup(gs_qrows_params(r) ? gs_qrows_params(r) : "{}");
		rc = 0;
	}
	gs_qrows_close(r);
	if (rc < 0)
		return -1;
	if (sw->baseline >= 0) {
		spec = (struct gs_qspec){ .order = -1, .want = &time, .nwant = 1, .idx = sw->baseline };
		rc = gs_qrows_open(&r, q, sw, NULL, &spec);
		if (rc == 0 && (rc = gs_qrows_next(r)) > 0) {
			int ok;
			m->base_ms = gs_qnum(gs_qrows_env(r)[time], &ok);
			if (gs_qrows_status(r))
				m->base_status = gs_xstrdup(gs_qrows_status(r));
			rc = 0;
		}
		gs_qrows_close(r);
		if (rc < 0)
			return -1;
		if (m->base_status && !strcmp(m->base_status, "ok") &&
		    gs_qcount_better(q, sw, f, time, 0, m->base_ms, &m->base_rank, &m->ranked) < 0)
			return -1;
		m->base_rank++;
	}
	/* the devices that measured, for the overhead factor: configurations
	 * go to the devices in index order, so the first few thousand results
	 * name them all, without a scan of a million rows */
	m->devices = (int)count1(q, "SELECT count(DISTINCT device) FROM (SELECT device FROM result"
				    " WHERE sweep_id = ?1 AND status = 'ok' ORDER BY idx LIMIT 4096)",
				 sw->id);
	/* the kernel work the measurements needed, for the overhead factor;
	 * one pass over the sweep's ok rows, as `run` sums it result by result */
	if (q->schema >= 6) {
		sqlite3_stmt *s;
		/* reused results' work was done by another sweep (schema 9 on) */
		const char *sql = q->schema >= 9
			? "SELECT total(time_ms * (runs + coalesce(warmups, 0))) FROM result"
			  " WHERE sweep_id = ?1 AND status = 'ok' AND NOT modeled AND runs > 0"
			  " AND time_ms > 0 AND reused_from IS NULL"
			: "SELECT total(time_ms * (runs + coalesce(warmups, 0))) FROM result"
			  " WHERE sweep_id = ?1 AND status = 'ok' AND NOT modeled AND runs > 0"
			  " AND time_ms > 0";
		if (sqlite3_prepare_v2(q->db, sql, -1, &s, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(s, 1, sw->id);
			if (sqlite3_step(s) == SQLITE_ROW)
				m->work_s = sqlite3_column_double(s, 0) / 1e3;
			sqlite3_finalize(s);
		}
	}
	if (model_tally(q, sw, f, m) < 0)
		return -1;
	return reused(q, sw, m);
}

static void release(struct summary *m)
{
	if (m->model) {
		for (size_t i = 0; i < m->model->nbound; i++)
			free(m->model->bound[i].name);
		free(m->model->bound);
		free(m->model);
	}
	free(m->best_params);
	free(m->base_status);
	free(m->filter_note);
	free(m->reused_text);
}

static struct gs_overhead_in overhead_in(const struct gs_qsweep *sw, const struct summary *m)
{
	return (struct gs_overhead_in){
		.wall_s = sw->wall_s,
		.compile_busy_s = sw->compile_s,
		.compile_threads = sw->compile_threads,
		.work_s = m->work_s,
		.timed_s = sw->timed_s,
		.device_busy_s = sw->device_s,
		.devices = m->devices,
		.worker_restarts = sw->worker_restarts > 0 ? (uint64_t)sw->worker_restarts : 0,
		.restart_s = sw->restart_s,
	};
}

/* The overhead factor (see overhead.h); 0 when there is no bound */
static double overhead(const struct gs_qsweep *sw, const struct summary *m)
{
	struct gs_overhead_in in = overhead_in(sw, m);
	struct gs_overhead ov;
	gs_overhead(&in, &ov);
	return ov.factor;
}

/* A labelled line of ", "-separated clauses, wrapped between clauses, so
 * that no figure is parted from its name. */
static void print_clauses(FILE *o, const char *label, const char *text)
{
	enum { ROOM = 100 - 16 }; /* gs_qprint_line's width less its indent */
	struct gs_buf line = GS_BUF_INIT;
	const char *p = text;
	while (*p) {
		const char *e = strstr(p, ", ");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (line.len && line.len + 2 + n > ROOM) {
			gs_buf_putc(&line, ',');
			gs_qprint_line(o, label, gs_buf_str(&line));
			label = "";
			gs_buf_reset(&line);
		} else if (line.len) {
			gs_buf_puts(&line, ", ");
		}
		gs_buf_put(&line, p, n);
		p += n + (e ? 2 : 0);
	}
	gs_qprint_line(o, label, gs_buf_str(&line));
	gs_buf_release(&line);
}

static void print_text(struct gs_query *q, const struct gs_qsweep *sw, const struct summary *m)
{
	FILE *o = q->out;
	struct gs_buf b = GS_BUF_INIT;
	gs_qprint_sweep(o, sw);
	gs_buf_printf(&b, "%s", sw->space_path ? sw->space_path : sw->space);
	int two_sizes = sw->modeled_at && sw->problem && strcmp(sw->problem, sw->modeled_at);
	if (sw->problem && strcmp(sw->problem, "{}") && !two_sizes) {
		gs_buf_puts(&b, "  ");
		gs_qfmt_params(&b, sw->problem);
	}
	gs_qprint_line(o, "space", gs_buf_str(&b));
	if (two_sizes) {
		/* the emulator ran (and validated) at the first, modeled the
		 * times at the second */
		gs_buf_reset(&b);
		gs_qfmt_params(&b, sw->problem);
		gs_buf_puts(&b, " (emulator), times modeled at ");
		gs_qfmt_params(&b, sw->modeled_at);
		gs_qprint_line(o, "sizes", gs_buf_str(&b));
	}
	gs_buf_reset(&b);
	gs_buf_printf(&b, "%s, %s", sw->status, sw->started_at ? sw->started_at : sw->created_at);
	if (sw->finished_at)
		gs_buf_printf(&b, " to %s", sw->finished_at);
	if (sw->host)
		gs_buf_printf(&b, ", on %s", sw->host);
	gs_qprint_line(o, "run", gs_buf_str(&b));
	if (m->filter_note) {
		gs_buf_reset(&b);
		gs_buf_printf(&b, "%s: %s", q->where, m->filter_note);
		gs_qprint_line(o, "where", gs_buf_str(&b));
	}
	gs_buf_reset(&b);
	gs_buf_printf(&b, "%lld configurations:", (long long)m->configs);
	for (size_t i = 0; i <= NOUT; i++)
		if (m->counts[i])
			gs_buf_printf(&b, " %s %lld", i < NOUT ? outcomes[i] : "not run",
				      (long long)m->counts[i]);
	gs_qprint_line(o, "outcomes", gs_buf_str(&b));
	if (sw->unvalidated)
		gs_qprint_line(o, "validation", "none: the space has no reference; ok means only that "
				   "a configuration ran");
	if (m->reused_text)
		gs_qprint_line(o, "reused", m->reused_text);
	const char *mod = sw->modeled ? " (modeled)" : "";
	if (m->best_idx >= 0) {
		gs_buf_reset(&b);
		gs_qfmt_num(&b, m->best_ms);
		gs_buf_printf(&b, " ms%s, index %lld: ", mod, (long long)m->best_idx);
		gs_qfmt_params(&b, m->best_params);
		gs_qprint_line(o, "best", gs_buf_str(&b));
	} else {
		gs_qprint_line(o, "best", "no ok configuration");
	}
	gs_buf_reset(&b);
	if (sw->baseline < 0) {
		gs_qsweep_no_baseline(q, sw, &b);
	} else if (!m->base_status) {
		gs_buf_printf(&b, "index %lld, not run yet", (long long)sw->baseline);
	} else if (strcmp(m->base_status, "ok")) {
		gs_buf_printf(&b, "index %lld, %s", (long long)sw->baseline, m->base_status);
	} else {
		gs_qfmt_num(&b, m->base_ms);
		gs_buf_printf(&b, " ms%s, index %lld, rank %lld of %lld ok", mod,
			      (long long)sw->baseline, (long long)m->base_rank, (long long)m->ranked);
		if (m->best_idx >= 0 && m->best_ms > 0)
			gs_buf_printf(&b, "; the best is %.1f%% faster", 100 * (m->base_ms / m->best_ms - 1));
	}
	gs_qprint_line(o, "baseline", gs_buf_str(&b));
	if (m->model && m->model->nbound) {
		/* "40 dram-bound, 8 issue-bound", then "36 high, 12 low" */
		const struct model_tally *t = m->model;
		gs_buf_reset(&b);
		for (size_t i = 0; i < t->nbound; i++)
			gs_buf_printf(&b, "%s%lld %s-bound", i ? ", " : "", (long long)t->bound[i].n,
				      t->bound[i].name);
		print_clauses(o, "modeled", gs_buf_str(&b));
		gs_buf_reset(&b);
		for (int k = 0; k < 3; k++)
			if (t->level[k])
				gs_buf_printf(&b, "%s%lld %s", b.len ? ", " : "", (long long)t->level[k],
					      levels[k]);
		if (b.len)
			gs_qprint_line(o, "confidence", gs_buf_str(&b));
	}
	if (sw->wall_s >= 0) {
		struct gs_overhead_in in = overhead_in(sw, m);
		struct gs_overhead ov;
		gs_overhead(&in, &ov);
		gs_buf_reset(&b);
		gs_overhead_text(&b, &in, &ov);
		print_clauses(o, "time", gs_buf_str(&b));
		if (sw->worker_restarts > 0) {
			gs_buf_reset(&b);
			gs_buf_printf(&b, "workers replaced %lld (%.2f s)", (long long)sw->worker_restarts,
				      sw->restart_s > 0 ? sw->restart_s : 0);
			gs_qprint_line(o, "", gs_buf_str(&b));
		}
	}
	gs_buf_release(&b);
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *jreal(double x)
{
	return x >= 0 ? json_real(x) : json_null();
}

static json_t *to_json(struct gs_query *q, const struct gs_qsweep *sw, const struct summary *m)
{
	json_t *o = json_object(), *c = json_object();
	json_object_set_new(o, "sweep", json_integer(sw->id));
	json_object_set_new(o, "space", jstr(sw->space));
	json_object_set_new(o, "space_path", jstr(sw->space_path));
	json_object_set_new(o, "device", jstr(sw->device));
	json_object_set_new(o, "modeled", json_boolean(sw->modeled));
	json_object_set_new(o, "status", jstr(sw->status));
	json_object_set_new(o, "created_at", jstr(sw->created_at));
	json_object_set_new(o, "started_at", jstr(sw->started_at));
	json_object_set_new(o, "finished_at", jstr(sw->finished_at));
	json_object_set_new(o, "configurations", json_integer(m->configs));
	for (size_t i = 0; i <= NOUT; i++)
		json_object_set_new(c, i < NOUT ? outcomes[i] : "not_run", json_integer(m->counts[i]));
	json_object_set_new(o, "outcomes", c);
	json_object_set_new(o, "validated", json_boolean(!sw->unvalidated));
	json_object_set_new(o, "reused", json_integer(m->reused));
	if (m->best_idx >= 0) {
		json_t *b = json_object();
		json_object_set_new(b, "idx", json_integer(m->best_idx));
		json_object_set_new(b, "time_ms", json_real(m->best_ms));
		json_object_set_new(b, "params", gs_qjson_params(m->best_params));
		json_object_set_new(o, "best", b);
	} else {
		json_object_set_new(o, "best", json_null());
	}
	if (sw->baseline >= 0) {
		json_t *b = json_object();
		int ok = m->base_status && !strcmp(m->base_status, "ok");
		json_object_set_new(b, "idx", json_integer(sw->baseline));
		json_object_set_new(b, "status", jstr(m->base_status));
		json_object_set_new(b, "time_ms", ok ? json_real(m->base_ms) : json_null());
		json_object_set_new(b, "rank", ok ? json_integer(m->base_rank) : json_null());
		json_object_set_new(b, "ranked", ok ? json_integer(m->ranked) : json_null());
		json_object_set_new(o, "baseline", b);
	} else {
		struct gs_buf why = GS_BUF_INIT;
		json_object_set_new(o, "baseline", json_null());
		json_object_set_new(o, "baseline_missing",
				    json_string(gs_qsweep_no_baseline(q, sw, &why)));
		gs_buf_release(&why);
	}
	json_object_set_new(o, "wall_s", jreal(sw->wall_s));
	json_object_set_new(o, "compile_busy_s", jreal(sw->compile_s));
	json_object_set_new(o, "device_busy_s", jreal(sw->device_s));
	json_object_set_new(o, "devices", json_integer(m->devices));
	json_object_set_new(o, "compile_threads",
			    sw->compile_threads >= 0 ? json_integer(sw->compile_threads) : json_null());
	json_object_set_new(o, "worker_restarts",
			    sw->worker_restarts >= 0 ? json_integer(sw->worker_restarts) : json_null());
	json_object_set_new(o, "restart_s", jreal(sw->restart_s));
	json_object_set_new(o, "timed_s", jreal(sw->timed_s));
	json_object_set_new(o, "work_s", m->work_s > 0 ? json_real(m->work_s) : json_null());
	double ov = overhead(sw, m);
	json_object_set_new(o, "overhead", ov > 0 ? json_real(ov) : json_null());
	if (m->model && m->model->nbound) {
		json_t *md = json_object(), *bd = json_object(), *cf = json_object();
		for (size_t i = 0; i < m->model->nbound; i++)
			json_object_set_new(bd, m->model->bound[i].name,
					    json_integer(m->model->bound[i].n));
		for (int k = 0; k < 3; k++)
			json_object_set_new(cf, levels[k], json_integer(m->model->level[k]));
		json_object_set_new(md, "bounds", bd);
		json_object_set_new(md, "confidence", cf);
		json_object_set_new(o, "model", md);
	}
	return o;
}

static void csv_header(struct gs_qtable *t)
{
	static const char *const cols[] = {
		"sweep", "space", "device", "modeled", "status", "started_at", "finished_at",
		"configurations", "ok", "invalid", "compile_error", "launch_error", "crash",
		"timeout", "wrong", "skipped", "emu_limit", "not_run", "best_idx", "best_ms",
		"baseline_idx", "baseline_status", "baseline_ms", "baseline_rank", "ranked", "wall_s",
		"compile_busy_s", "device_busy_s", "devices", "compile_threads", "worker_restarts",
		"restart_s", "timed_s", "work_s", "overhead",
	};
	for (size_t i = 0; i < GS_ARRAY_SIZE(cols); i++)
		gs_qtable_col(t, cols[i], NULL, 0);
}

static void cell_real(struct gs_qtable *t, double x, int have)
{
	struct gs_buf b = GS_BUF_INIT;
	if (have)
		gs_float_repr(&b, x);
	gs_qtable_cell(t, gs_buf_str(&b), NULL);
	gs_buf_release(&b);
}

static void csv_row(struct gs_qtable *t, const struct gs_qsweep *sw, const struct summary *m)
{
	int bok = m->base_status && !strcmp(m->base_status, "ok");
	gs_qtable_cellf(t, "%lld", (long long)sw->id);
	gs_qtable_cell(t, sw->space, NULL);
	gs_qtable_cell(t, sw->device ? sw->device : "", NULL);
	gs_qtable_cellf(t, "%d", sw->modeled);
	gs_qtable_cell(t, sw->status, NULL);
	gs_qtable_cell(t, sw->started_at ? sw->started_at : "", NULL);
	gs_qtable_cell(t, sw->finished_at ? sw->finished_at : "", NULL);
	gs_qtable_cellf(t, "%lld", (long long)m->configs);
	for (size_t i = 0; i <= NOUT; i++)
		gs_qtable_cellf(t, "%lld", (long long)m->counts[i]);
	if (m->best_idx >= 0)
		gs_qtable_cellf(t, "%lld", (long long)m->best_idx);
	else
		gs_qtable_cell(t, "", NULL);
	cell_real(t, m->best_ms, m->best_idx >= 0);
	if (sw->baseline >= 0)
		gs_qtable_cellf(t, "%lld", (long long)sw->baseline);
	else
		gs_qtable_cell(t, "", NULL);
	gs_qtable_cell(t, m->base_status ? m->base_status : "", NULL);
	cell_real(t, m->base_ms, bok);
	if (bok) {
		gs_qtable_cellf(t, "%lld", (long long)m->base_rank);
		gs_qtable_cellf(t, "%lld", (long long)m->ranked);
	} else {
		gs_qtable_cell(t, "", NULL);
		gs_qtable_cell(t, "", NULL);
	}
	cell_real(t, sw->wall_s, sw->wall_s >= 0);
	cell_real(t, sw->compile_s, sw->compile_s >= 0);
	cell_real(t, sw->device_s, sw->device_s >= 0);
	gs_qtable_cellf(t, "%d", m->devices);
	if (sw->compile_threads >= 0)
		gs_qtable_cellf(t, "%d", sw->compile_threads);
	else
		gs_qtable_cell(t, "", NULL);
	if (sw->worker_restarts >= 0)
		gs_qtable_cellf(t, "%lld", (long long)sw->worker_restarts);
	else
		gs_qtable_cell(t, "", NULL);
	cell_real(t, sw->restart_s, sw->restart_s >= 0);
	cell_real(t, sw->timed_s, sw->timed_s >= 0);
	cell_real(t, m->work_s, m->work_s > 0);
	double ov = overhead(sw, m);
	cell_real(t, ov, ov > 0);
}

int gs_query_summary(struct gs_query *q)
{
	size_t n = 0;
	int64_t *ids;
	if (q->sweep) {
		ids = gs_xcalloc(1, sizeof(*ids));
		ids[n++] = q->sweep;
	} else {
		ids = gs_query_sweep_ids(q, &n);
		if (!n) {
			fprintf(stderr, "gsearch: error: %s holds no sweep yet (`gsearch run` makes one)\n",
				q->path);
			free(ids);
			return 1;
		}
	}
	json_t *arr = json_array();
	struct gs_qtable *t = gs_qtable_new();
	csv_header(t);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		struct gs_qsweep sw;
		struct gs_qfilter f;
		struct summary m;
		if (gs_qsweep_load(q, ids[i], &sw) < 0) {
			rc = 1;
			break;
		}
		if (gs_qfilter_init(&f, &sw, q->where) < 0) {
			gs_qsweep_release(&sw);
			rc = 1;
			break;
		}
		if (gather(q, &sw, &f, &m) < 0) {
			rc = 1;
		} else if (q->fmt == GS_QF_JSON) {
			json_array_append_new(arr, to_json(q, &sw, &m));
		} else if (q->fmt == GS_QF_CSV) {
			csv_row(t, &sw, &m);
		} else {
			if (i)
				fputc('\n', q->out);
			print_text(q, &sw, &m);
		}
		release(&m);
		gs_qfilter_release(&f);
		gs_qsweep_release(&sw);
	}
	if (!rc && q->fmt == GS_QF_JSON) {
		json_t *o = json_object();
		json_object_set_new(o, "sweeps", arr);
		gs_qjson_print(q->out, o);
	} else {
		json_decref(arr);
	}
	if (!rc && q->fmt == GS_QF_CSV)
		gs_qtable_print(t, q->out, 1);
	gs_qtable_free(t);
	free(ids);
	return rc;
}
