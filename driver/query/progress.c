/* progress.c — `gsearch query progress`: how the best configuration evolved
 * as a sweep (or a search under a budget) went on.
 *
 * The results' rowid order is the order in which their outcomes were
 * stored: the order of evaluation, results a run took from the store or
 * from another sweep included.  Elapsed time comes from measured_at, which
 * has one-second resolution; it is made monotone, since a result reused
 * from another sweep keeps the time it was measured at. */
#include "query/query.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

struct eval {
	int64_t idx;
	char *status, *params;
	double time_ms; /* NAN: not ok */
	double best_ms; /* NAN: none ok yet */
	int64_t elapsed_s;
};

static void evals_free(struct eval *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].status);
		free(e[i].params);
	}
	free(e);
}

/* The sweep's results in evaluation order; -1 after printing why. */
static int read_evals(struct gs_query *q, int64_t sweep, struct eval **out, size_t *n)
{
	sqlite3_stmt *s;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(q->db, "SELECT r.idx, r.status, r.time_ms, c.params,"
				      " CAST(strftime('%s', r.measured_at) AS INTEGER)"
				      " FROM result r JOIN config c USING (sweep_id, idx)"
				      " WHERE r.sweep_id = ?1 ORDER BY r.rowid", -1, &s, NULL) != SQLITE_OK) {
		fprintf(stderr, "gsearch: error: %s: %s\n", q->path, sqlite3_errmsg(q->db));
		return -1;
	}
	sqlite3_bind_int64(s, 1, sweep);
	size_t cap = 0;
	double best = NAN;
	int64_t t0 = 0, last = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			*out = gs_xrealloc(*out, cap * sizeof(**out));
		}
		struct eval *e = &(*out)[(*n)++];
		const char *st = (const char *)sqlite3_column_text(s, 1);
		const char *pj = (const char *)sqlite3_column_text(s, 3);
		e->idx = sqlite3_column_int64(s, 0);
		e->status = gs_xstrdup(st ? st : "");
		e->params = gs_xstrdup(pj ? pj : "{}");
		e->time_ms = st && !strcmp(st, "ok") && sqlite3_column_type(s, 2) != SQLITE_NULL
				     ? sqlite3_column_double(s, 2)
				     : NAN;
		if (!isnan(e->time_ms) && (isnan(best) || e->time_ms < best))
			best = e->time_ms;
		e->best_ms = best;
		int64_t t = sqlite3_column_int64(s, 4);
		if (*n == 1)
			t0 = t;
		if (t - t0 > last)
			last = t - t0;
		e->elapsed_s = last;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		fprintf(stderr, "gsearch: error: %s: %s\n", q->path, sqlite3_errmsg(q->db));
		evals_free(*out, *n);
		*out = NULL;
		return -1;
	}
	return 0;
}

static int64_t config_count(struct gs_query *q, int64_t sweep)
{
	sqlite3_stmt *s;
	int64_t n = 0;
	if (sqlite3_prepare_v2(q->db, "SELECT count(*) FROM config WHERE sweep_id = ?1", -1, &s,
			       NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(s, 1, sweep);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

static void print_csv(FILE *f, const struct eval *e, size_t n)
{
	fputs("eval,idx,status,time_ms,best_ms,elapsed_s\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%zu,%lld,%s,", i + 1, (long long)e[i].idx, e[i].status);
		if (!isnan(e[i].time_ms))
			fprintf(f, "%.17g", e[i].time_ms);
		fputc(',', f);
		if (!isnan(e[i].best_ms))
			fprintf(f, "%.17g", e[i].best_ms);
		fprintf(f, ",%lld\n", (long long)e[i].elapsed_s);
	}
}

/* Each evaluation that improved the best, and the last one. */
static void print_table(FILE *f, const struct gs_qsweep *sw, const struct eval *e, size_t n,
			int64_t valid)
{
	struct gs_buf b = GS_BUF_INIT;
	gs_qprint_sweep(f, sw);
	gs_buf_printf(&b, "%zu of %lld configurations (%.1f%%)", n, (long long)valid,
		      valid ? 100.0 * (double)n / (double)valid : 0.0);
	gs_qprint_line(f, "evaluated", gs_buf_str(&b));
	if (!n) {
		gs_buf_release(&b);
		return;
	}
	struct gs_qtable *t = gs_qtable_new();
	gs_qtable_col(t, "eval", NULL, 1);
	gs_qtable_col(t, "elapsed", NULL, 1);
	gs_qtable_col(t, "best ms", NULL, 1);
	gs_qtable_col(t, "idx", NULL, 1);
	gs_qtable_col(t, "parameters", NULL, 0);
	for (size_t i = 0; i < n; i++) {
		int better = !isnan(e[i].time_ms) && e[i].time_ms == e[i].best_ms &&
			     (i == 0 || isnan(e[i - 1].best_ms) || e[i].best_ms < e[i - 1].best_ms);
		if (!better && i != n - 1)
			continue;
		gs_qtable_cellf(t, "%zu", i + 1);
		gs_qtable_cellf(t, "%lld s", (long long)e[i].elapsed_s);
		gs_buf_reset(&b);
		if (isnan(e[i].best_ms))
			gs_buf_puts(&b, "-");
		else
			gs_qfmt_num(&b, e[i].best_ms);
		gs_qtable_cell(t, gs_buf_str(&b), NULL);
		gs_qtable_cellf(t, "%lld", (long long)e[i].idx);
		gs_buf_reset(&b);
		if (better)
			gs_qfmt_params(&b, e[i].params);
		else
			gs_buf_puts(&b, "(the last evaluation)");
		gs_qtable_cell(t, gs_buf_str(&b), NULL);
	}
	fputc('\n', f);
	gs_qtable_print(t, f, 0);
	gs_qtable_free(t);
	gs_buf_release(&b);
}

/* The best so far against evaluations, with each ok evaluation's time. */
static int plot(struct gs_query *q, const struct gs_qsweep *sw, const struct eval *e, size_t n)
{
	struct gs_buf s = GS_BUF_INIT;
	if (gs_plot_terminal(&s, q->plot, 900, 540) < 0) {
		gs_buf_release(&s);
		return -1;
	}
	gs_buf_puts(&s, "$d << EOD\n");
	for (size_t i = 0; i < n; i++) {
		gs_buf_printf(&s, "%zu ", i + 1);
		if (isnan(e[i].time_ms))
			gs_buf_puts(&s, "NaN ");
		else
			gs_buf_printf(&s, "%.17g ", e[i].time_ms);
		if (isnan(e[i].best_ms))
			gs_buf_puts(&s, "NaN\n");
		else
			gs_buf_printf(&s, "%.17g\n", e[i].best_ms);
	}
	gs_buf_puts(&s, "EOD\nset title ");
	struct gs_buf title = GS_BUF_INIT;
	gs_buf_printf(&title, "%s on %s: the best so far%s", sw->space, sw->device ? sw->device : "?",
		      sw->modeled ? " (modeled)" : "");
	gs_plot_str(&s, gs_buf_str(&title));
	gs_buf_release(&title);
	gs_buf_puts(&s, "\nset xlabel 'evaluations'\nset ylabel 'time (ms)'\n"
			"set grid lc rgb '#dddddd'\nset border 3\nset xtics nomirror\n"
			"set ytics nomirror\nset key top right box lc rgb '#cccccc'\n"
			"plot $d using 1:2 with points pt 7 ps 0.5 lc rgb '#9ecae1' title 'evaluation',"
			" $d using 1:3 with steps lw 2 lc rgb '#1f77b4' title 'best so far'\n");
	int rc = gs_plot_run(q->plot, gs_buf_str(&s));
	gs_buf_release(&s);
	return rc;
}

int gs_query_progress(struct gs_query *q)
{
	struct gs_qsweep sw;
	if (gs_qsweep_load(q, q->sweep, &sw) < 0)
		return 1;
	struct eval *e;
	size_t n;
	int rc = 1;
	if (read_evals(q, sw.id, &e, &n) == 0) {
		if (q->fmt == GS_QF_CSV)
			print_csv(q->out, e, n);
		else
			print_table(q->out, &sw, e, n, config_count(q, sw.id));
		rc = q->plot && plot(q, &sw, e, n) < 0 ? 1 : 0;
		evals_free(e, n);
	}
	gs_qsweep_release(&sw);
	return rc;
}
