/* outcome.c — the store's transactions and each configuration's outcome:
 * the supervisor is the store's only writer, and every unit records
 * through here, which also counts the outcomes and tells the source. */
#define _GNU_SOURCE
#include "sched/pipeline.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const gs_outcomes[GS_NOUTCOMES] = { "ok",    "invalid", "compile_error",
						"launch_error", "crash", "timeout",
						"wrong", "skipped", "emu_limit" };

static int outcome_index(const char *s)
{
	for (int i = 0; i < GS_NOUTCOMES; i++)
		if (!strcmp(gs_outcomes[i], s))
			return i;
	return 3;
}

int gs_pipe_store_err(struct pipeline *pl, const char *what)
{
	/* the store's message says what failed (store.h) */
	const char *m = gs_store_errmsg(pl->st);
	fprintf(stderr, "gsearch: error: %s\n", *m ? m : what);
	pl->failed = 1;
	pl->stop = 1;
	return -1;
}

/* One short transaction per finished piece of work: nothing finished is
 * ever more than one commit away from the disk. */
int gs_pipe_tx(struct pipeline *pl, int begin)
{
	if (begin ? gs_store_begin(pl->st) < 0 : gs_store_commit(pl->st) < 0)
		return gs_pipe_store_err(pl, begin ? "cannot begin a transaction" : "cannot commit");
	return 0;
}

/* One more write in the open transaction: commit every 2000, so that a long
 * pass over cached or reused configurations neither holds one huge
 * transaction nor pays a commit per row. */
void gs_pipe_tx_count(struct pipeline *pl, int *in_tx, unsigned *ops)
{
	if (++*ops >= 2000 && *in_tx) {
		gs_pipe_tx(pl, 0);
		*in_tx = 0;
		*ops = 0;
	}
}

int gs_pipe_is_done(const struct pipeline *pl, int64_t idx)
{
	return idx >= 0 && (uint64_t)idx < pl->nbits && (pl->done_bits[idx / 8] >> (idx % 8)) & 1;
}

/* What the source learns of a configuration (source.h). */
static void tell(struct pipeline *pl, int64_t idx, const char *status, double time_ms)
{
	if (pl->src)
		pl->src->result(pl->src, idx, status, time_ms);
}

/* Configuration idx has its final outcome in the store now. */
static void final(struct pipeline *pl, int64_t idx, const char *status, double time_ms)
{
	if (idx >= 0 && (uint64_t)idx < pl->nbits)
		pl->done_bits[idx / 8] |= (uint8_t)(1u << (idx % 8));
	tell(pl, idx, status, time_ms);
}

/* A configuration final in the store before this run. */
void gs_pipe_skipped(struct pipeline *pl, int64_t idx)
{
	pl->stats->skipped_done++;
	tell(pl, idx, NULL, -1);
}

/* A configuration this run could not give an outcome (its compile server
 * died on it twice): it stays without one, as if not run. */
void gs_pipe_no_outcome(struct pipeline *pl, int64_t idx)
{
	pl->stats->no_outcome++;
	tell(pl, idx, NULL, -1);
}

/* The limit a configuration's outcome is judged by when another sweep
 * would reuse it. */
double gs_pipe_limit(const struct pipeline *pl)
{
	return pl->o->timeout_s;
}

void gs_pipe_outcome(struct pipeline *pl, int64_t idx, const char *hash, const char *ident,
			  const char *status, const char *error)
{
	if (gs_pipe_tx(pl, 1) < 0)
		return;
	if (gs_store_result_outcome(pl->st, pl->sweep, idx, hash, status, error, ident,
				    gs_pipe_limit(pl)) < 0)
		gs_pipe_store_err(pl, "cannot store an outcome");
	gs_pipe_tx(pl, 0);
	pl->stats->by_status[outcome_index(status)]++;
	final(pl, idx, status, -1);
}

/* The compile log of a cached variant (malloc'd), or NULL. */
static char *cached_log(struct pipeline *pl, const char *hash)
{
	sqlite3_stmt *q;
	char *log = NULL;
	if (sqlite3_prepare_v2(gs_store_sqlite(pl->st), "SELECT log FROM variant WHERE hash = ?1", -1,
			       &q, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(q, 1, hash, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0))
		log = gs_xstrdup((const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	return log;
}

/* A variant that did not compile: `invalid` with the limit named when ptxas
 * refused it for a resource the target lacks, as a launch over a limit is;
 * else a compile error.  log is NULL for a cached variant. */
static void not_compiled(struct pipeline *pl, int64_t idx, const char *hash, const char *ident,
			 const char *log)
{
	char *own = NULL, why[512];
	const char *status = "compile_error";
	if (!log)
		log = own = cached_log(pl, hash);
	if (log && gs_complog_limit(log, pl->o->arch, why, sizeof why)) {
		char *error = gs_xasprintf("%s\n%s", why, log);
		status = "invalid";
		pl->stats->by_status[1]++;
		if (gs_store_result_outcome(pl->st, pl->sweep, idx, hash, "invalid", error, ident,
					    gs_pipe_limit(pl)) < 0)
			gs_pipe_store_err(pl, "cannot store an outcome");
		free(error);
	} else {
		pl->stats->compile_errors++;
		pl->stats->by_status[2]++;
		if (gs_store_result_outcome(pl->st, pl->sweep, idx, hash, "compile_error",
					    own ? NULL : log, ident, gs_pipe_limit(pl)) < 0)
			gs_pipe_store_err(pl, "cannot store a compile error");
	}
	free(own);
	final(pl, idx, status, -1);
}

/* A configuration's variant is known: link it; measure it if it compiled. */
void gs_pipe_variant_known(struct pipeline *pl, int64_t idx, const char *hash, const char *ident,
			  const char *status, const char *log, char *params)
{
	if (gs_store_config_set_variant(pl->st, pl->sweep, idx, hash) < 0)
		gs_pipe_store_err(pl, "cannot link a configuration to its variant");
	if (!strcmp(status, "compile_error")) {
		not_compiled(pl, idx, hash, ident, log);
		free(params);
	} else if (pl->nworkers) {
		gs_readyq_push(&pl->rq, idx, hash, ident, params);
	} else { /* compiled only */
		free(params);
		tell(pl, idx, NULL, -1);
	}
}

/* A configuration whose outcome another sweep had: counted like one
 * measured, and by the sweep it came from. */
void gs_pipe_reused(struct pipeline *pl, int64_t idx, const struct gs_reused *ru)
{
	struct gs_sweep_stats *s = pl->stats;
	size_t i;
	s->reused++;
	s->by_status[outcome_index(ru->status)]++;
	if (!strcmp(ru->status, "ok") && ru->time_ms > 0 && (pl->best_ms <= 0 || ru->time_ms < pl->best_ms))
		pl->best_ms = ru->time_ms;
	for (i = 0; i < s->nreused_by && s->reused_by[i].sweep != ru->from; i++)
		;
	if (i == s->nreused_by) {
		s->reused_by = gs_xrealloc(s->reused_by, (i + 1) * sizeof(*s->reused_by));
		s->reused_by[s->nreused_by++] = (struct gs_sweep_reused){ ru->from, 0 };
	}
	s->reused_by[i].n++;
	final(pl, idx, ru->status, ru->time_ms);
}

/* A worker's result (record's, in workers.c): stored, counted, learned from. */
void gs_pipe_result(struct pipeline *pl, const struct gs_result_row *r, const char *params)
{
	if (r->timed_ms > 0)
		pl->stats->timed_s += r->timed_ms / 1e3;
	/* what `query summary` sums over the stored results, for one overhead
	 * factor whichever computes it */
	if (!strcmp(r->status, "ok") && !r->modeled && r->runs > 0 && r->time_ms > 0)
		pl->stats->work_s += r->time_ms * (r->runs + (r->warmups > 0 ? r->warmups : 0)) / 1e3;
	if (pl->stats->measured == 1)
		gs_trace("sweep: first result");
	if (!strcmp(r->status, "ok") && r->time_ms > 0 && (pl->best_ms <= 0 || r->time_ms < pl->best_ms))
		pl->best_ms = r->time_ms;
	if (!strcmp(r->status, "ok") && r->time_ms > 0 && params)
		gs_corder_learn(pl->rq.order, gs_params_pos(params), r->time_ms);
	if (gs_pipe_tx(pl, 1) == 0) {
		if (gs_store_result_put(pl->st, r) < 0)
			gs_pipe_store_err(pl, "cannot store a result");
		gs_pipe_tx(pl, 0);
	}
	pl->stats->by_status[outcome_index(r->status)]++;
	final(pl, r->idx, r->status, r->time_ms);
}
