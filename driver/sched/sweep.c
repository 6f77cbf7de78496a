/* sweep.c — the supervisor's loop: enumerate, compile, dispatch to device
 * workers, store. */
#define _GNU_SOURCE
#include "sched/sweep.h"
#include "space/load.h"

#include <dirent.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <jansson.h>
#include <sqlite3.h>
#include <signal.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uv.h>

#include "dev/data.h"
#include "dev/dev.h"
#include "gen/gen.h"
#include "gen/variant.h"
#include "sched/compile.h"
#include "sched/ident.h"
#include "sched/order.h"
#include "sched/prespawn.h"
#include "sched/progress.h"
#include "sched/proto.h"
#include "space/enum.h"
#include "util/frame.h"
#include "util/util.h"

const char *const gs_outcomes[8] = { "ok",    "invalid", "compile_error", "launch_error",
				     "crash", "timeout", "wrong",         "skipped" };

static int outcome_index(const char *s)
{
	for (int i = 0; i < 8; i++)
		if (!strcmp(gs_outcomes[i], s))
			return i;
	return 3;
}

/* A variant to compile: waiting in the window, or on a compile thread. */
struct job {
	uv_work_t req;
	struct pipeline *pl;
	int active;
	struct gs_variant v;
	struct gs_built b;
	int64_t *idx; /* configurations waiting for this variant */
	char **params;
	char (*idents)[33]; /* their identities (sched/ident.h) */
	size_t nidx, capidx, capparams, capidents;
	size_t *pos;  /* the first configuration's value indices, for the predictor */
	double cost;  /* predicted, when it entered the window */
};

/* A configuration whose variant is compiled, waiting for a device.  params
 * is its JSON, followed in the same allocation by its value indices
 * (params_new, params_pos): one pointer to pass and free wherever a
 * configuration goes, and the run-order predictor still finds them. */
struct ready {
	int64_t idx;
	char hash[33];
	char ident[33];
	char *params;
};

/* where the value indices start: after the JSON's NUL, aligned */
static size_t params_tail(const char *json)
{
	return (strlen(json) + sizeof(size_t)) / sizeof(size_t) * sizeof(size_t);
}

static char *params_new(char *json, const size_t *pos, size_t n)
{
	size_t at = params_tail(json);
	char *p = gs_xmalloc(at + n * sizeof(size_t) + 1);
	memcpy(p, json, strlen(json) + 1);
	memcpy(p + at, pos, n * sizeof(size_t));
	free(json);
	return p;
}

static const size_t *params_pos(const char *params)
{
	return (const size_t *)(const void *)(params + params_tail(params));
}

enum wstate { W_STARTING, W_IDLE, W_BUSY, W_CLOSING, W_DEAD };

struct worker {
	struct pipeline *pl;
	int ordinal;
	char label[48]; /* "cuda:1", "emu:g80": in messages and results */
	enum wstate state;
	uv_process_t proc;
	uv_pipe_t in, out;
	uv_timer_t timer;
	int open_handles;
	struct gs_buf rbuf;
	struct ready cur;    /* being measured */
	struct ready next;   /* sent ahead, so the worker never waits for it */
	int has_next;
	double t_dispatch;   /* when cur began */
	double t_spawn;      /* when a replacement was started; 0 for the first */
	int adopted_pid;     /* started before the sweep (prespawn.h): no uv_process */
	int timed_out, killed, setup_failures, generation;
	int handles_closing; /* uv_close called on its handles */
	double limit_s;      /* of the configuration in flight */
	int exited, eof;     /* the process ended; its stdout reached the end */
	int64_t exit_status;
	int exit_signal;
};

struct pipeline {
	uv_loop_t loop;
	const struct gs_space *sp;
	struct gs_nvrtc *nvrtc;
	struct gs_store *st;
	int64_t sweep;
	const struct gs_sweep_opts *o;
	struct gs_sweep_stats *stats;
	struct gs_enum e;
	int enum_done;
	struct gs_vm vm;
	struct gs_ident *ident;
	uint8_t *done_bits;
	uint64_t nbits;
	struct job *jobs;
	size_t njobs, inflight, threads;
	struct job *window;   /* variants waiting for a compile thread */
	size_t nwindow, capwindow;
	struct gs_corder *order;  /* compiles: longest first */
	struct gs_corder *rorder; /* measurements: fastest first */
	char *baseline_json;      /* the baseline's params, measured first; NULL: none */
	struct ready *rq;
	size_t rq_head, rq_n, rq_cap, rq_max;
	struct worker *workers;
	size_t nworkers;
	int stop, failed, closing, second_int;
	int compiles_released; /* the compile servers were told to exit */
	uv_signal_t sig, sigterm, sighup;
	uv_timer_t progress;
	uv_timer_t times;               /* adds the times spent so far to the store */
	struct gs_sweep_times flushed;  /* what it has added */
	double t0;
	uint64_t total;
	double best_ms;
	char ref_params[4096];
	char cache_dir[4096]; /* reference outputs for replacement workers; "" none */
};

static void finish_if_done(struct pipeline *pl);

/* GSEARCH_PROFILE: where the supervisor's own time goes (util.h gs_trace) */
static struct {
	double compiled_s, result_s;
	unsigned long compiled, results;
} sprof;
static void pump(struct pipeline *pl);
static void start_compiles(struct pipeline *pl);
static void dispatch(struct pipeline *pl);
static void begin(struct worker *w);

static int store_err(struct pipeline *pl, const char *what)
{
	fprintf(stderr, "gsearch: error: %s: %s\n", what, gs_store_errmsg(pl->st));
	pl->failed = 1;
	pl->stop = 1;
	return -1;
}

/* One short transaction per finished piece of work: nothing finished is
 * ever more than one commit away from the disk. */
static int tx(struct pipeline *pl, int begin)
{
	if (begin ? gs_store_begin(pl->st) < 0 : gs_store_commit(pl->st) < 0)
		return store_err(pl, begin ? "cannot begin a transaction" : "cannot commit");
	return 0;
}

/* One more write in the open transaction: commit every 2000, so that a long
 * pass over cached or reused configurations neither holds one huge
 * transaction nor pays a commit per row. */
static void tx_count(struct pipeline *pl, int *in_tx, unsigned *ops)
{
	if (++*ops >= 2000 && *in_tx) {
		tx(pl, 0);
		*in_tx = 0;
		*ops = 0;
	}
}

static int is_done(struct pipeline *pl, int64_t idx)
{
	return idx >= 0 && (uint64_t)idx < pl->nbits && (pl->done_bits[idx / 8] >> (idx % 8)) & 1;
}

static void mark_done(struct pipeline *pl, int64_t idx)
{
	if (idx >= 0 && (uint64_t)idx < pl->nbits)
		pl->done_bits[idx / 8] |= (uint8_t)(1u << (idx % 8));
}

static void rq_room(struct pipeline *pl)
{
	if (pl->rq_n == pl->rq_cap) {
		size_t cap = pl->rq_cap ? 2 * pl->rq_cap : 16;
		struct ready *n = gs_xmalloc(cap * sizeof(*n));
		for (size_t i = 0; i < pl->rq_n; i++)
			n[i] = pl->rq[(pl->rq_head + i) % pl->rq_cap];
		free(pl->rq);
		pl->rq = n;
		pl->rq_cap = cap;
		pl->rq_head = 0;
	}
}

static void ready_push(struct pipeline *pl, int64_t idx, const char *hash, const char *ident,
		       char *params)
{
	rq_room(pl);
	struct ready *r = &pl->rq[(pl->rq_head + pl->rq_n++) % pl->rq_cap];
	r->idx = idx;
	snprintf(r->hash, sizeof r->hash, "%s", hash);
	snprintf(r->ident, sizeof r->ident, "%s", ident);
	r->params = params;
}

/* Back to the head of the queue: a configuration sent ahead to a worker
 * that died before starting it. */
static void ready_push_front(struct pipeline *pl, struct ready *r)
{
	rq_room(pl);
	pl->rq_head = (pl->rq_head + pl->rq_cap - 1) % pl->rq_cap;
	pl->rq[pl->rq_head] = *r;
	pl->rq_n++;
	r->params = NULL;
}

static void requeue_next(struct pipeline *pl, struct worker *w)
{
	if (w->has_next) {
		ready_push_front(pl, &w->next);
		w->has_next = 0;
	}
}

/* The limit a configuration's outcome is judged by when another sweep
 * would reuse it. */
static double limit_of(const struct pipeline *pl)
{
	return pl->o->timeout_s;
}

static void store_outcome(struct pipeline *pl, int64_t idx, const char *hash, const char *ident,
			  const char *status, const char *error)
{
	if (tx(pl, 1) < 0)
		return;
	if (gs_store_result_outcome(pl->st, pl->sweep, idx, hash, status, error, ident,
				    limit_of(pl)) < 0)
		store_err(pl, "cannot store an outcome");
	tx(pl, 0);
	mark_done(pl, idx);
	pl->stats->by_status[outcome_index(status)]++;
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
	if (!log)
		log = own = cached_log(pl, hash);
	if (log && gs_complog_limit(log, pl->o->arch, why, sizeof why)) {
		char *error = gs_xasprintf("%s\n%s", why, log);
		pl->stats->by_status[1]++;
		if (gs_store_result_outcome(pl->st, pl->sweep, idx, hash, "invalid", error, ident,
					    limit_of(pl)) < 0)
			store_err(pl, "cannot store an outcome");
		free(error);
	} else {
		pl->stats->compile_errors++;
		pl->stats->by_status[2]++;
		if (gs_store_result_outcome(pl->st, pl->sweep, idx, hash, "compile_error",
					    own ? NULL : log, ident, limit_of(pl)) < 0)
			store_err(pl, "cannot store a compile error");
	}
	free(own);
	mark_done(pl, idx);
}

/* A configuration's variant is known: link it; measure it if it compiled. */
static void variant_known(struct pipeline *pl, int64_t idx, const char *hash, const char *ident,
			  const char *status, const char *log, char *params)
{
	if (gs_store_config_set_variant(pl->st, pl->sweep, idx, hash) < 0)
		store_err(pl, "cannot link a configuration to its variant");
	if (!strcmp(status, "compile_error")) {
		not_compiled(pl, idx, hash, ident, log);
		free(params);
	} else if (pl->nworkers) {
		ready_push(pl, idx, hash, ident, params);
	} else {
		free(params);
	}
}

/* ---- compiling ------------------------------------------------------------- */

static void work_cb(uv_work_t *req)
{
	struct job *j = req->data;
	/* a time limit needs a process to stop, even for one job */
	const struct gs_sweep_opts *o = j->pl->o;
	gs_compile_variant(j->pl->nvrtc, &j->v, 1, o->jobs > 1 || o->compile_timeout_s > 0,
			   o->compile_timeout_s, &j->b);
}

static char *entries_json(const struct gs_built *b, const struct gs_variant *v)
{
	json_t *a = json_array();
	for (size_t i = 0; i < v->nnames; i++)
		json_array_append_new(a, json_string(b->out.lowered && b->out.lowered[i]
						     ? b->out.lowered[i] : v->names[i]));
	char *s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return s;
}

static void after_cb_body(uv_work_t *req);

static void after_cb(uv_work_t *req, int status)
{
	(void)status;
	double t = gs_now();
	after_cb_body(req);
	sprof.compiled_s += gs_now() - t;
	sprof.compiled++;
}

static void after_cb_body(uv_work_t *req)
{
	struct job *j = req->data;
	struct pipeline *pl = j->pl;
	pl->inflight--;
	pl->stats->compile_busy_s += j->b.out.seconds;
	if (!j->b.nvrtc_failed && j->b.out.seconds > 0)
		gs_corder_learn(pl->order, j->pos, j->b.out.seconds);
	/* the thread is free: give it the next variant before storing this one */
	start_compiles(pl);
	if (j->b.nvrtc_failed) {
		fprintf(stderr, "gsearch: error: %s\n", j->b.err);
		pl->failed = 1;
		pl->stop = 1;
	} else if (!pl->failed && j->b.out.timed_out) {
		/* an outcome of this limit, not of the variant: nothing goes into
		 * the compile cache, so another sweep with more time tries again */
		pl->stats->compiled++;
		for (size_t i = 0; i < j->nidx && !pl->failed; i++) {
			pl->stats->compile_errors++;
			store_outcome(pl, j->idx[i], NULL, j->idents[i], "compile_error", j->b.out.log);
		}
	} else if (!pl->failed) {
		pl->stats->compiled++;
		char *opts = gs_variant_options_text(&j->v);
		char *entries = entries_json(&j->b, &j->v);
		int ok = j->b.out.ok && !j->b.err[0];
		/* a cubin whose resources cannot be read is not usable: an error
		 * outcome with the reason, never silently missing figures */
		const char *log = ok ? j->b.out.log : j->b.err[0] ? j->b.err : j->b.out.log;
		struct gs_variant_row row = {
			.hash = j->v.hash,
			.status = ok ? "ok" : "compile_error",
			.log = log,
			.ptx = ok ? j->b.out.ptx : NULL,
			.cubin = ok ? j->b.out.cubin : NULL,
			.cubin_len = ok ? j->b.out.cubin_len : 0,
			.arch = j->v.arch,
			.nvrtc_version = gs_nvrtc_version(pl->nvrtc),
			.options = opts,
			.registers = ok ? j->b.res.registers : -1,
			.static_smem = ok ? j->b.res.static_smem : -1,
			.local_bytes = ok ? j->b.res.local_bytes : -1,
			.spill_stores = ok ? j->b.res.spill_stores : -1,
			.spill_loads = ok ? j->b.res.spill_loads : -1,
			.max_threads = ok ? j->b.res.max_threads : -1,
			.compile_s = j->b.out.seconds,
			.entries = entries,
		};
		if (tx(pl, 1) == 0) {
			if (gs_store_variant_put(pl->st, &row) < 0) {
				store_err(pl, "cannot store a variant");
			} else {
				for (size_t i = 0; i < j->nidx && !pl->failed; i++) {
					variant_known(pl, j->idx[i], j->v.hash, j->idents[i], row.status, log,
						      j->params[i]);
					j->params[i] = NULL;
				}
				pl->stats->shared += j->nidx - 1;
			}
			tx(pl, 0);
		}
		free(opts);
		free(entries);
	}
	for (size_t i = 0; i < j->nidx; i++)
		free(j->params[i]);
	gs_built_release(&j->b, j->v.nnames);
	gs_variant_release(&j->v);
	free(j->idx);
	free(j->params);
	free(j->idents);
	free(j->pos);
	j->idx = NULL;
	j->params = NULL;
	j->idents = NULL;
	j->pos = NULL;
	j->nidx = j->capidx = j->capparams = j->capidents = 0;
	j->active = 0;
	dispatch(pl);
	pump(pl);
	if (pl->enum_done && !pl->nwindow && !pl->inflight && !pl->compiles_released) {
		gs_trace("sweep: compiles done");
		gs_isolate_release();
		pl->compiles_released = 1;
	}
	finish_if_done(pl);
}

static void add_waiter(struct job *j, int64_t idx, const char *ident, char *params)
{
	gs_grow(&j->idx, &j->capidx, j->nidx + 1, sizeof(*j->idx));
	gs_grow(&j->params, &j->capparams, j->nidx + 1, sizeof(*j->params));
	gs_grow(&j->idents, &j->capidents, j->nidx + 1, sizeof(*j->idents));
	j->params[j->nidx] = params;
	snprintf(j->idents[j->nidx], sizeof j->idents[j->nidx], "%s", ident);
	j->idx[j->nidx++] = idx;
}

/* Start compiles while threads are free and the devices want more: the
 * variant of the window predicted to compile longest first. */
static void start_compiles(struct pipeline *pl)
{
	while (!pl->stop && pl->nwindow && pl->inflight < pl->threads &&
	       (!pl->nworkers || pl->rq_n < pl->rq_max)) {
		size_t best = 0;
		for (size_t i = 1; i < pl->nwindow; i++)
			if (pl->window[i].cost > pl->window[best].cost)
				best = i;
		struct job *j = NULL;
		for (size_t i = 0; i < pl->njobs && !j; i++)
			if (!pl->jobs[i].active)
				j = &pl->jobs[i];
		if (!j)
			return;
		*j = pl->window[best];
		pl->window[best] = pl->window[--pl->nwindow];
		j->active = 1;
		j->pl = pl;
		j->req.data = j;
		pl->inflight++;
		uv_queue_work(&pl->loop, &j->req, work_cb, after_cb);
	}
}

/* The job compiling or waiting for this variant, if any. */
static struct job *find_job(struct pipeline *pl, const char *hash)
{
	for (size_t i = 0; i < pl->njobs; i++)
		if (pl->jobs[i].active && !strcmp(pl->jobs[i].v.hash, hash))
			return &pl->jobs[i];
	for (size_t i = 0; i < pl->nwindow; i++)
		if (!strcmp(pl->window[i].v.hash, hash))
			return &pl->window[i];
	return NULL;
}

/* A configuration whose outcome another sweep had: counted like one
 * measured, and by the sweep it came from. */
static void reused(struct pipeline *pl, int64_t idx, const struct gs_reused *ru)
{
	struct gs_sweep_stats *s = pl->stats;
	size_t i;
	mark_done(pl, idx);
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
}

/* Enumerate into the window (configurations whose variant is cached go
 * straight to the devices, those whose result another sweep has are taken
 * from it), then start what the threads can take. */
static void pump(struct pipeline *pl)
{
	int in_tx = 0;
	unsigned ops = 0;
	size_t wmax = 64 * pl->threads > 4096 ? 64 * pl->threads : 4096;
	while (!pl->stop && !pl->enum_done && pl->nwindow < wmax &&
	       (!pl->nworkers || pl->rq_n < pl->rq_max)) {
		int r = gs_enum_next(&pl->e);
		if (r == 0) {
			pl->enum_done = 1;
			break;
		}
		if (r < 0) {
			struct gs_diag d = GS_DIAG_INIT;
			gs_enum_report(&pl->e, &d);
			gs_diag_print(&d, stderr);
			gs_diag_release(&d);
			pl->failed = 1;
			pl->stop = 1;
			break;
		}
		pl->stats->configs++;
		int64_t idx = (int64_t)pl->e.index;
		if (is_done(pl, idx)) {
			pl->stats->skipped_done++;
			continue;
		}
		struct gs_variant v;
		char err[512];
		if (gs_variant_build(pl->sp, pl->e.env, pl->o->arch, gs_nvrtc_version(pl->nvrtc), &pl->vm,
				     &v, err, sizeof err) < 0) {
			fprintf(stderr, "gsearch: error: configuration %lld: %s\n", (long long)idx, err);
			pl->failed = 1;
			pl->stop = 1;
			break;
		}
		char ident[33];
		gs_ident_config(pl->ident, pl->e.env, &v, ident);
		if (!pl->o->remeasure) {
			struct gs_reused ru;
			if (!in_tx && tx(pl, 1) == 0)
				in_tx = 1;
			if (gs_store_result_reuse(pl->st, pl->sweep, idx, ident, limit_of(pl), &ru) < 0) {
				store_err(pl, "cannot reuse a result");
				gs_variant_release(&v);
				break;
			}
			if (ru.found) {
				reused(pl, idx, &ru);
				gs_variant_release(&v);
				tx_count(pl, &in_tx, &ops);
				continue;
			}
		}
		struct gs_buf pj = GS_BUF_INIT;
		gs_config_json(pl->sp, pl->e.env, &pj);
		char *params = params_new(gs_buf_detach(&pj), pl->e.pos, pl->sp->nparams);
		int found;
		char status[16];
		if (gs_store_variant_find(pl->st, v.hash, &found, status) < 0) {
			store_err(pl, "cannot read the compile cache");
			gs_variant_release(&v);
			free(params);
			break;
		}
		if (found) {
			pl->stats->cached++;
			if (!in_tx && tx(pl, 1) == 0)
				in_tx = 1;
			variant_known(pl, idx, v.hash, ident, status, NULL, params);
			gs_variant_release(&v);
			tx_count(pl, &in_tx, &ops);
			continue;
		}
		/* the baseline is compiled and measured first: the sweep's best
		 * so far starts from a human's pick, not from the first index */
		int is_base = pl->baseline_json && !strcmp(params, pl->baseline_json);
		struct job *j = find_job(pl, v.hash);
		if (j) {
			if (is_base)
				j->cost = INFINITY;
			add_waiter(j, idx, ident, params);
			gs_variant_release(&v);
			continue;
		}
		gs_grow(&pl->window, &pl->capwindow, pl->nwindow + 1, sizeof(*pl->window));
		j = &pl->window[pl->nwindow++];
		memset(j, 0, sizeof(*j));
		j->v = v;
		j->pos = gs_xmalloc((pl->sp->nparams + 1) * sizeof(*j->pos));
		memcpy(j->pos, pl->e.pos, pl->sp->nparams * sizeof(*j->pos));
		j->cost = is_base ? INFINITY : gs_corder_predict(pl->order, j->pos);
		add_waiter(j, idx, ident, params);
	}
	if (in_tx)
		tx(pl, 0);
	start_compiles(pl);
	dispatch(pl);
}

/* ---- device workers ---------------------------------------------------------- */

struct wreq {
	uv_write_t req;
	struct gs_buf buf;
};

static void on_written(uv_write_t *req, int status)
{
	struct wreq *w = (struct wreq *)req;
	(void)status; /* a dead worker is noticed by its exit */
	gs_buf_release(&w->buf);
	free(w);
}

static void wsend(struct worker *w, const char *const *s, const size_t *len, uint32_t n)
{
	struct wreq *r = gs_xcalloc(1, sizeof(*r));
	gs_frame_encode(&r->buf, s, len, n);
	uv_buf_t b = uv_buf_init(r->buf.p, (unsigned)r->buf.len);
	if (uv_write(&r->req, (uv_stream_t *)&w->in, &b, 1, on_written) < 0) {
		gs_buf_release(&r->buf);
		free(r);
	}
}

static void worker_start(struct worker *w);
static void worker_gone(struct worker *w);

static void on_handle_closed(uv_handle_t *h)
{
	struct worker *w = h->data;
	if (--w->open_handles > 0)
		return;
	gs_buf_release(&w->rbuf);
	struct pipeline *pl = w->pl;
	w->state = W_DEAD;
	if (!pl->stop && w->setup_failures < 2) {
		pl->stats->worker_restarts++;
		w->t_spawn = gs_now();
		worker_start(w);
	} else if (!pl->stop && w->setup_failures >= 2) {
		fprintf(stderr, "gsearch: error: the worker for %s cannot start; stopping\n",
			w->label);
		pl->failed = 1;
		pl->stop = 1;
	}
	finish_if_done(pl);
}

static void worker_close(struct worker *w)
{
	if (w->handles_closing)
		return;
	w->handles_closing = 1;
	w->state = W_CLOSING;
	uv_close((uv_handle_t *)&w->in, on_handle_closed);
	uv_close((uv_handle_t *)&w->out, on_handle_closed);
	uv_close((uv_handle_t *)&w->timer, on_handle_closed);
	if (!w->adopted_pid)
		uv_close((uv_handle_t *)&w->proc, on_handle_closed);
}

static void wkill(struct worker *w)
{
	if (w->adopted_pid)
		kill(w->adopted_pid, SIGKILL);
	else
		uv_process_kill(&w->proc, SIGKILL);
}

/* Store a worker's result; 1 if the worker said its device is broken. */
static int record(struct pipeline *pl, struct worker *w, const char *json)
{
	json_error_t je;
	json_t *o = json_loads(json, 0, &je);
	pl->stats->device_busy_s += gs_now() - w->t_dispatch;
	pl->stats->measured++;
	if (!o) {
		store_outcome(pl, w->cur.idx, w->cur.hash, w->cur.ident, "launch_error",
			      "the worker sent a result that is not JSON");
		return 0;
	}
#define STR(k) (json_is_string(json_object_get(o, k)) ? json_string_value(json_object_get(o, k)) : NULL)
#define NUM(k) (json_is_number(json_object_get(o, k)) ? json_number_value(json_object_get(o, k)) : -1)
	const char *status = STR("status") ? STR("status") : "launch_error";
	const char *dev = w->label;
	struct gs_result_row r = {
		.sweep_id = pl->sweep,
		.idx = w->cur.idx,
		.variant_hash = w->cur.hash,
		.status = status,
		.limiter = STR("limiter"),
		.error = STR("error"),
		.metrics = STR("metrics"),
		.counters = STR("counters"),
		.modeled = json_is_true(json_object_get(o, "modeled")),
		.device = dev,
		.time_ms = NUM("time_ms"),
		.min_ms = NUM("min_ms"),
		.iqr_ms = NUM("iqr_ms"),
		.reps = (int)NUM("reps"),
		.blocks_per_sm = (int)NUM("blocks_per_sm"),
		.occupancy = NUM("occupancy"),
		.energy_j = NUM("energy_j"),
		.power_w = NUM("power_w"),
		.sm_clock_mhz = NUM("sm_clock_mhz"),
		.temp_c = NUM("temp_c"),
		.max_abs_err = NUM("max_abs_err"),
		.max_rel_err = NUM("max_rel_err"),
		.ci_lo_ms = NUM("ci_lo_ms"),
		.ci_hi_ms = NUM("ci_hi_ms"),
		.ci_pct = NUM("ci_pct"),
		.timed_ms = NUM("timed_ms"),
		.runs = (int)NUM("runs"),
		.warmups = (int)NUM("warmups"),
		.ident = w->cur.ident,
		.timeout_s = limit_of(pl),
	};
	if (r.timed_ms > 0)
		pl->stats->timed_s += r.timed_ms / 1e3;
	/* what `query summary` sums over the stored results, for one overhead
	 * factor whichever computes it */
	if (!strcmp(status, "ok") && !r.modeled && r.runs > 0 && r.time_ms > 0)
		pl->stats->work_s += r.time_ms * (r.runs + (r.warmups > 0 ? r.warmups : 0)) / 1e3;
	if (pl->stats->measured == 1)
		gs_trace("sweep: first result");
	if (!strcmp(status, "ok") && r.time_ms > 0 && (pl->best_ms <= 0 || r.time_ms < pl->best_ms))
		pl->best_ms = r.time_ms;
	if (!strcmp(status, "ok") && r.time_ms > 0 && w->cur.params)
		gs_corder_learn(pl->rorder, params_pos(w->cur.params), r.time_ms);
	if (tx(pl, 1) == 0) {
		if (gs_store_result_put(pl->st, &r) < 0)
			store_err(pl, "cannot store a result");
		tx(pl, 0);
	}
	mark_done(pl, w->cur.idx);
	pl->stats->by_status[outcome_index(status)]++;
#undef STR
#undef NUM
	int sticky = json_is_true(json_object_get(o, "sticky"));
	json_decref(o);
	return sticky;
}

static void on_frame_body(struct worker *w, struct gs_frame *f);

static void on_frame(struct worker *w, struct gs_frame *f)
{
	double t = gs_now();
	on_frame_body(w, f);
	sprof.result_s += gs_now() - t;
	sprof.results++;
}

static void on_frame_body(struct worker *w, struct gs_frame *f)
{
	struct pipeline *pl = w->pl;
	if (f->n >= 2 && !strcmp(f->s[0], "ready") && w->state == W_STARTING) {
		uv_timer_stop(&w->timer);
		w->state = W_IDLE;
		w->setup_failures = 0;
		gs_trace("sweep: a worker is ready");
		if (w->t_spawn > 0) /* what replacing a worker cost the sweep */
			pl->stats->restart_s += gs_now() - w->t_spawn;
	} else if (f->n >= 2 && !strcmp(f->s[0], "fatal")) {
		fprintf(stderr, "gsearch: error: worker %s: %s\n", w->label, f->s[1]);
		w->setup_failures++;
		/* a setup that fails the same way each time will not get better */
		if (w->setup_failures >= 2 || pl->stats->measured == 0) {
			pl->failed = 1;
			pl->stop = 1;
		}
	} else if (f->n >= 3 && !strcmp(f->s[0], "result") && w->state == W_BUSY &&
		   strtoll(f->s[1], NULL, 10) == w->cur.idx) {
		uv_timer_stop(&w->timer);
		int sticky = record(pl, w, f->s[2]);
		free(w->cur.params);
		w->cur.params = NULL;
		/* a worker whose context broke exits after this result: wait for
		 * its exit (and its replacement) rather than send it more work */
		if (sticky) {
			requeue_next(pl, w);
			w->state = W_CLOSING;
		} else if (w->has_next) {
			w->cur = w->next;
			w->has_next = 0;
			begin(w);
		} else {
			w->state = W_IDLE;
		}
	} else {
		/* a worker that says what it should not is not trusted again */
		fprintf(stderr, "gsearch: error: worker %s sent garbage; replacing it\n", w->label);
		if (w->state == W_BUSY) {
			uv_timer_stop(&w->timer);
			store_outcome(pl, w->cur.idx, w->cur.hash, w->cur.ident, "crash",
				      "the worker broke the protocol while measuring this");
			free(w->cur.params);
			w->cur.params = NULL;
			requeue_next(pl, w);
		}
		w->state = W_CLOSING; /* not busy: its exit records nothing more */
		w->killed = 1;
		wkill(w);
	}
	dispatch(pl);
	pump(pl);
	finish_if_done(pl);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
	(void)h;
	b->base = gs_xmalloc(suggested);
	b->len = suggested;
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct worker *w = s->data;
	if (n > 0) {
		gs_buf_put(&w->rbuf, b->base, (size_t)n);
		struct gs_frame f;
		int r;
		while (w->rbuf.len && (r = gs_frame_take(&w->rbuf, &f)) != 0) {
			if (r < 0) {
				struct gs_frame bad = { 0 };
				on_frame(w, &bad);
				gs_buf_reset(&w->rbuf);
				break;
			}
			on_frame(w, &f);
			gs_frame_free(&f);
		}
	} else if (n < 0) {
		uv_read_stop(s);
		free(b->base);
		w->eof = 1;
		if (w->adopted_pid && !w->exited) {
			/* libuv does not watch a process it did not start: its
			 * stdout closed, so it is exiting; reap it here */
			int st = 0;
			while (waitpid(w->adopted_pid, &st, 0) < 0 && errno == EINTR)
				;
			w->exited = 1;
			w->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
			w->exit_signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
		}
		worker_gone(w);
		return;
	}
	free(b->base);
}

/* The worker is gone once it has exited and everything it wrote has been
 * read: a result sent just before exiting still counts. */
static void worker_gone(struct worker *w)
{
	struct pipeline *pl = w->pl;
	if (!w->exited || !w->eof)
		return;
	uv_timer_stop(&w->timer);
	if (w->state == W_BUSY) {
		char why[160];
		const char *outcome = w->timed_out ? "timeout" : "crash";
		if (w->timed_out)
			snprintf(why, sizeof why, "no result within %.0f s (the space's timeout, %.0f s, "
				 "plus the timing cap): the worker was killed", w->limit_s, pl->o->timeout_s);
		else if (w->exit_signal)
			snprintf(why, sizeof why, "the worker died of signal %d while measuring this",
				 w->exit_signal);
		else
			snprintf(why, sizeof why, "the worker exited (status %lld) while measuring this",
				 (long long)w->exit_status);
		pl->stats->device_busy_s += gs_now() - w->t_dispatch;
		pl->stats->measured++;
		if (!(w->killed && pl->second_int))
			store_outcome(pl, w->cur.idx, w->cur.hash, w->cur.ident, outcome, why);
		free(w->cur.params);
		w->cur.params = NULL;
		requeue_next(pl, w);
	} else if (w->state == W_STARTING && !pl->stop) {
		w->setup_failures++;
	}
	worker_close(w);
}

static void on_exit_cb(uv_process_t *p, int64_t status, int signo)
{
	struct worker *w = p->data;
	w->exited = 1;
	w->exit_status = status;
	w->exit_signal = signo;
	worker_gone(w);
}

/* A setup that hangs (a reference kernel that never ends, a fill that runs
 * forever) would stall the sweep: it is killed, and the sweep stops, since
 * the next worker's setup would hang the same way. */
static void on_setup_timeout(uv_timer_t *t)
{
	struct worker *w = t->data;
	struct pipeline *pl = w->pl;
	if (w->state != W_STARTING)
		return;
	fprintf(stderr, "gsearch: error: worker %s: no ready within %.0f s (--setup-timeout): "
			"filling the inputs or running the reference takes too long\n",
		w->label, pl->o->setup_timeout_s);
	w->setup_failures = 2;
	pl->failed = 1;
	pl->stop = 1;
	w->killed = 1;
	wkill(w);
}

static void on_timeout(uv_timer_t *t)
{
	struct worker *w = t->data;
	w->timed_out = 1;
	wkill(w);
}

static void worker_start(struct worker *w)
{
	struct pipeline *pl = w->pl;
	w->state = W_STARTING;
	w->timed_out = w->killed = w->handles_closing = 0;
	w->exited = w->eof = 0;
	w->generation++;
	memset(&w->rbuf, 0, sizeof w->rbuf);
	uv_pipe_init(&pl->loop, &w->in, 0);
	uv_pipe_init(&pl->loop, &w->out, 0);
	uv_timer_init(&pl->loop, &w->timer);
	w->in.data = w->out.data = w->timer.data = w->proc.data = w;
	w->open_handles = 4;
	w->adopted_pid = 0;
	struct gs_prespawned *pre = pl->o->pre;
	if (pre && pre->pid > 0 && pre->ordinal == w->ordinal && !pl->o->emu_profile) {
		/* the worker started before the sweep: its pipes become ours */
		w->adopted_pid = pre->pid;
		w->open_handles = 3;
		uv_pipe_open(&w->in, pre->in_fd);
		uv_pipe_open(&w->out, pre->out_fd);
		pre->pid = 0;
		gs_trace("sweep: adopted the worker started early");
		goto started;
	}
	uv_stdio_container_t io[3];
	io[0].flags = UV_CREATE_PIPE | UV_READABLE_PIPE;
	io[0].data.stream = (uv_stream_t *)&w->in;
	io[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	io[1].data.stream = (uv_stream_t *)&w->out;
	io[2].flags = UV_INHERIT_FD;
	io[2].data.fd = 2;
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	self[n > 0 ? n : 0] = 0;
	const char *prog = pl->o->worker_cmd ? pl->o->worker_cmd : self;
	char *args[] = { (char *)prog, "worker", NULL };
	uv_process_options_t po;
	memset(&po, 0, sizeof po);
	po.file = prog;
	po.args = args;
	po.exit_cb = on_exit_cb;
	po.stdio = io;
	po.stdio_count = 3;
	/* its own session: the terminal's ^C reaches the supervisor only,
	 * which decides whether a worker dies */
	po.flags = UV_PROCESS_DETACHED;
	int rc = uv_spawn(&pl->loop, &w->proc, &po);
	if (rc < 0) {
		fprintf(stderr, "gsearch: error: cannot start a worker: %s\n", uv_strerror(rc));
		pl->failed = 1;
		pl->stop = 1;
		w->open_handles = 3;
		w->state = W_CLOSING;
		uv_close((uv_handle_t *)&w->in, on_handle_closed);
		uv_close((uv_handle_t *)&w->out, on_handle_closed);
		uv_close((uv_handle_t *)&w->timer, on_handle_closed);
		return;
	}
started:
	uv_read_start((uv_stream_t *)&w->out, on_alloc, on_read);
	if (pl->o->setup_timeout_s > 0)
		uv_timer_start(&w->timer, on_setup_timeout, (uint64_t)(pl->o->setup_timeout_s * 1000), 0);
	/* setup */
	/* a GPU's ordinal, or "emu:PROFILE-INDEX:THREADS" for the emulated device */
	char ord[64];
	if (pl->o->emu_profile)
		snprintf(ord, sizeof ord, "emu:%d:%d", w->ordinal, pl->o->emu_threads);
	else
		snprintf(ord, sizeof ord, "%d", w->ordinal);
	char nsets[16];
	snprintf(nsets, sizeof nsets, "%zu", pl->o->nsets);
	json_t *tj = json_object();
	json_object_set_new(tj, "precision", json_real(pl->o->stop.precision));
	json_object_set_new(tj, "focus", json_real(pl->o->stop.focus));
	json_object_set_new(tj, "max_time", json_real(pl->o->stop.max_time_s));
	if (pl->cache_dir[0])
		json_object_set_new(tj, "cache", json_string(pl->cache_dir));
	if (pl->o->t1_grid == GS_T1_GRID_GLOBAL) /* the worker loads the space as we did */
		json_object_set_new(tj, "t1_grid", json_string("global"));
	if (pl->o->emu_sample > 0)
		json_object_set_new(tj, "emu_sample", json_integer(pl->o->emu_sample));
	char *timing = json_dumps(tj, JSON_COMPACT);
	json_decref(tj);
	/* the space and its kernels as the supervisor read them (proto.h) */
	const struct gs_space *sp = pl->sp;
	size_t given = 0;
	for (size_t i = 0; i < sp->nfiles; i++)
		given += sp->files[i].text != NULL;
	char nfiles[16];
	snprintf(nfiles, sizeof nfiles, "%zu", given);
	size_t nf = 12 + pl->o->nsets + 2 * given;
	const char **s = gs_xcalloc(nf, sizeof(*s));
	size_t *len = gs_xcalloc(nf, sizeof(*len));
	s[0] = "setup";
	s[1] = GS_PROTO_VERSION;
	s[2] = pl->o->space_path;
	s[3] = pl->o->emu ? "1" : "0";
	s[4] = pl->o->arch;
	s[5] = pl->o->flush_l2 ? "1" : "0";
	s[6] = ord;
	s[7] = pl->ref_params;
	s[8] = timing;
	s[9] = nsets;
	for (size_t i = 0; i < pl->o->nsets; i++)
		s[10 + i] = pl->o->sets[i];
	for (size_t i = 0; i < 10 + pl->o->nsets; i++)
		len[i] = strlen(s[i]);
	size_t k = 10 + pl->o->nsets;
	s[k] = sp->src->text;
	len[k++] = sp->src->len;
	s[k] = nfiles;
	len[k++] = strlen(nfiles);
	for (size_t i = 0; i < sp->nfiles; i++) {
		if (!sp->files[i].text) /* a T1 kernel that could not be read */
			continue;
		s[k] = sp->files[i].path;
		len[k++] = strlen(sp->files[i].path);
		s[k] = sp->files[i].text;
		len[k++] = sp->files[i].len;
	}
	wsend(w, s, len, (uint32_t)nf);
	free(timing);
	free(s);
	free(len);
}

/* Send a measure of r to w; 0, or -1 after a store failure (r is freed). */
static int send_measure(struct pipeline *pl, struct worker *w, struct ready *r)
{
	void *cubin;
	size_t clen;
	char *entries;
	char *ptx = NULL;
	if (gs_store_variant_image(pl->st, r->hash, &cubin, &clen, &entries,
				   pl->o->emu_profile ? &ptx : NULL) < 0) {
		store_err(pl, "cannot read a variant's cubin");
		free(r->params);
		r->params = NULL;
		return -1;
	}
	if (ptx) {
		void *img;
		clen = gs_emu_image_pack(cubin, clen, ptx, strlen(ptx), &img);
		free(cubin);
		free(ptx);
		cubin = img;
	}
	json_error_t je;
	json_t *ea = json_loads(entries, 0, &je);
	size_t ne = json_is_array(ea) ? json_array_size(ea) : 0;
	size_t nf = 6 + ne;
	const char **s = gs_xcalloc(nf, sizeof(*s));
	size_t *len = gs_xcalloc(nf, sizeof(*len));
	char idx[32], nes[16], best[32];
	snprintf(idx, sizeof idx, "%lld", (long long)r->idx);
	snprintf(nes, sizeof nes, "%zu", ne);
	snprintf(best, sizeof best, "%.17g", pl->best_ms > 0 ? pl->best_ms : 0.0);
	s[0] = "measure";
	s[1] = idx;
	s[2] = r->params;
	s[3] = best;
	s[4] = nes;
	for (size_t k = 0; k < ne; k++)
		s[5 + k] = json_string_value(json_array_get(ea, k));
	s[5 + ne] = cubin ? cubin : "";
	for (size_t k = 0; k < nf; k++)
		len[k] = strlen(s[k]);
	len[5 + ne] = clen;
	wsend(w, s, len, (uint32_t)nf);
	free(s);
	free(len);
	json_decref(ea);
	free(entries);
	free(cubin);
	return 0;
}

/* w starts measuring its cur now: its clock and its time limit. */
static void begin(struct worker *w)
{
	struct pipeline *pl = w->pl;
	w->state = W_BUSY;
	w->t_dispatch = gs_now();
	/* the limit covers validation and the timing cap too */
	w->limit_s = pl->o->timeout_s + 2 * pl->o->stop.max_time_s + 5;
	uv_timer_start(&w->timer, on_timeout, (uint64_t)(w->limit_s * 1000), 0);
}

/* Each worker gets a configuration to measure and one more to read when it
 * is done: the supervisor's store writes and cubin reads then happen while
 * the device works. */
static size_t rq_pick(const struct pipeline *pl)
{
	size_t pick = 0;
	double lowest = 0;
	int learned = gs_corder_learned(pl->rorder) >= 2;
	for (size_t i = 0; i < pl->rq_n; i++) {
		const struct ready *r = &pl->rq[(pl->rq_head + i) % pl->rq_cap];
		if (pl->baseline_json && !strcmp(r->params, pl->baseline_json))
			return i;
		if (!learned)
			continue;
		double t = gs_corder_predict(pl->rorder, params_pos(r->params));
		if (i == 0 || t < lowest)
			pick = i, lowest = t;
	}
	return pick;
}

/* The ready configuration to measure next (rq_pick), out of the queue. */
static struct ready rq_take(struct pipeline *pl)
{
	size_t i = rq_pick(pl);
	struct ready *head = &pl->rq[pl->rq_head], *at = &pl->rq[(pl->rq_head + i) % pl->rq_cap];
	struct ready r = *at;
	*at = *head;
	pl->rq_head = (pl->rq_head + 1) % pl->rq_cap;
	pl->rq_n--;
	return r;
}

static void dispatch(struct pipeline *pl)
{
	for (size_t i = 0; i < pl->nworkers && !pl->stop; i++) {
		struct worker *w = &pl->workers[i];
		while (pl->rq_n && !pl->stop &&
		       (w->state == W_IDLE || (w->state == W_BUSY && !w->has_next))) {
			struct ready r = rq_take(pl);
			if (send_measure(pl, w, &r) < 0)
				return;
			if (w->state == W_IDLE) {
				w->cur = r;
				begin(w);
			} else {
				w->next = r;
				w->has_next = 1;
			}
		}
	}
}

/* ---- progress, signals, the end ----------------------------------------------- */

/* The store learns what the run has spent every GS_TIMES_EVERY_MS and at
 * the end, as increments: a sweep killed with SIGKILL loses at most the
 * last interval of its accounting, and its resumption adds to the rest. */
#define GS_TIMES_EVERY_MS 1000

static void times_flush(struct pipeline *pl, double wall_s)
{
	const struct gs_sweep_stats *s = pl->stats;
	struct gs_sweep_times now = {
		.wall_s = wall_s,
		.compile_busy_s = s->compile_busy_s,
		.device_busy_s = s->device_busy_s,
		.compile_threads = (int)pl->o->jobs,
		.worker_restarts = s->worker_restarts,
		.restart_s = s->restart_s,
		.timed_s = s->timed_s,
	};
	const struct gs_sweep_times *f = &pl->flushed;
	struct gs_sweep_times d = {
		.wall_s = now.wall_s - f->wall_s,
		.compile_busy_s = now.compile_busy_s - f->compile_busy_s,
		.device_busy_s = now.device_busy_s - f->device_busy_s,
		.compile_threads = now.compile_threads,
		.worker_restarts = now.worker_restarts - f->worker_restarts,
		.restart_s = now.restart_s - f->restart_s,
		.timed_s = now.timed_s - f->timed_s,
	};
	if (gs_store_sweep_add_times(pl->st, pl->sweep, &d) == 0)
		pl->flushed = now;
}

static void on_times(uv_timer_t *t)
{
	struct pipeline *pl = t->data;
	times_flush(pl, gs_now() - pl->t0);
}

/* The columns of the terminal on stderr: the kernel's idea first, then
 * COLUMNS (set by shells, not always exported), then the classic 80. */
static size_t term_width(void)
{
	struct winsize ws;
	if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	const char *c = getenv("COLUMNS");
	long n = c ? strtol(c, NULL, 10) : 0;
	return n > 0 && n < 100000 ? (size_t)n : 80;
}

static void on_progress(uv_timer_t *t)
{
	struct pipeline *pl = t->data;
	const struct gs_sweep_stats *s = pl->stats;
	struct gs_progress p = {
		.total = pl->total,
		.before = s->skipped_done + s->reused,
		.elapsed_s = gs_now() - pl->t0,
		.best_ms = pl->best_ms,
		.compile_only = !pl->nworkers,
		.visited = s->configs,
		.compiled = s->compiled,
		.cached = s->cached,
		.compile_errors = s->compile_errors,
	};
	memcpy(p.by_status, s->by_status, sizeof p.by_status);
	char line[512];
	if (pl->o->progress == 2) {
		/* one column short of the width: a line that fills the last
		 * column wraps on many terminals, and \r then rewrites only
		 * the wrapped part */
		size_t w = term_width();
		gs_progress_format(&p, w > 1 ? w - 1 : 1, line, sizeof line);
		fprintf(stderr, "\r\033[K%s", line);
	} else {
		gs_progress_format(&p, 0, line, sizeof line);
		fprintf(stderr, "%s\n", line);
	}
}

static void on_sigint(uv_signal_t *h, int signum)
{
	struct pipeline *pl = h->data;
	if (pl->stop && pl->stats->interrupted) {
		fprintf(stderr, "\ngsearch: interrupted again: stopping the workers now\n");
		pl->second_int = 1;
		for (size_t i = 0; i < pl->nworkers; i++)
			if (pl->workers[i].state == W_BUSY || pl->workers[i].state == W_STARTING) {
				pl->workers[i].killed = 1;
				wkill(&pl->workers[i]);
			}
		if (pl->inflight) /* compiles cannot be cancelled; all finished work is committed */
			_exit(128 + pl->stats->interrupted);
		return;
	}
	pl->stop = 1;
	pl->stats->interrupted = signum;
	size_t busy = 0;
	for (size_t i = 0; i < pl->nworkers; i++)
		busy += pl->workers[i].state == W_BUSY;
	/* SIGTERM (a batch system's end, kill) and SIGHUP (a closed terminal)
	 * stop a sweep as Ctrl-C does: nothing finished is lost */
	fprintf(stderr, "\ngsearch: %s: finishing %zu compile%s and %zu measurement%s in "
			"flight (again to stop them)\n",
		signum == SIGTERM ? "terminated" : signum == SIGHUP ? "hung up" : "interrupted",
		pl->inflight, pl->inflight == 1 ? "" : "s", busy, busy == 1 ? "" : "s");
	finish_if_done(pl);
}

static void on_close_quiet(uv_handle_t *h)
{
	(void)h;
}

static void finish_if_done(struct pipeline *pl)
{
	if (pl->closing || pl->inflight > 0)
		return;
	int busy = 0;
	for (size_t i = 0; i < pl->nworkers; i++)
		busy |= pl->workers[i].state == W_BUSY;
	if (busy)
		return;
	if (!pl->stop && !(pl->enum_done && pl->nwindow == 0 && pl->rq_n == 0))
		return;
	int starting = 0;
	for (size_t i = 0; i < pl->nworkers; i++)
		starting |= pl->workers[i].state == W_STARTING && !pl->stop;
	if (starting)
		return;
	pl->closing = 1;
	pl->stop = 1;
	for (size_t i = 0; i < pl->nworkers; i++) {
		struct worker *w = &pl->workers[i];
		if (w->state == W_IDLE || w->state == W_STARTING) {
			/* closing its stdin ends an idle worker; a starting one is killed */
			if (w->state == W_STARTING)
				wkill(w);
			worker_close(w);
		}
	}
	uv_close((uv_handle_t *)&pl->sig, on_close_quiet);
	uv_close((uv_handle_t *)&pl->sigterm, on_close_quiet);
	uv_close((uv_handle_t *)&pl->sighup, on_close_quiet);
	uv_close((uv_handle_t *)&pl->progress, on_close_quiet);
	uv_close((uv_handle_t *)&pl->times, on_close_quiet);
	for (size_t i = 0; i < pl->rq_n; i++)
		free(pl->rq[(pl->rq_head + i) % pl->rq_cap].params);
	pl->rq_n = 0;
}

/* The cache directory holds files only. */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *p = gs_xasprintf("%s/%s", dir, e->d_name);
		unlink(p);
		free(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

int gs_sweep_run(const struct gs_space *sp, struct gs_nvrtc *nvrtc, struct gs_store *st,
		 int64_t sweep_id, const struct gs_sweep_opts *o, struct gs_sweep_stats *stats)
{
	struct pipeline pl;
	memset(&pl, 0, sizeof pl);
	memset(stats, 0, sizeof(*stats));
	pl.sp = sp;
	pl.nvrtc = nvrtc;
	pl.st = st;
	pl.sweep = sweep_id;
	pl.o = o;
	pl.stats = stats;
	unsigned jobs = o->jobs ? o->jobs : 1;
	char buf[16];
	snprintf(buf, sizeof buf, "%u", jobs);
	setenv("UV_THREADPOOL_SIZE", buf, 1); /* read by libuv when its pool starts */
	pl.threads = jobs;
	pl.njobs = 2 * (size_t)jobs; /* a finished compile is stored while the next runs */
	pl.jobs = gs_xcalloc(pl.njobs, sizeof(*pl.jobs));
	pl.order = gs_corder_new(sp);
	pl.rorder = gs_corder_new(sp);
	/* compiles run ahead of the devices (while a worker's context starts,
	 * say) as far as this; a queued configuration is a few hundred bytes */
	pl.rq_max = 256 * o->ngpus + 256;
	gs_vm_init(&pl.vm);
	int64_t nconfigs = 0;
	gs_store_config_count(st, sweep_id, &nconfigs);
	pl.total = (uint64_t)nconfigs;
	pl.nbits = (uint64_t)nconfigs + 1;
	if (gs_store_done_bitmap(st, sweep_id, pl.nbits, &pl.done_bits) < 0) {
		store_err(&pl, "cannot read the finished configurations");
		free(pl.jobs);
		gs_vm_release(&pl.vm);
		return -1;
	}
	/* the reference is compiled with a configuration's defines: the
	 * baseline's, else the first valid one's */
	snprintf(pl.ref_params, sizeof pl.ref_params, "{}");
	if (o->ngpus) {
		struct gs_buf b = GS_BUF_INIT;
		if (sp->baseline) {
			gs_config_json(sp, sp->baseline, &b);
		} else {
			struct gs_enum e;
			if (gs_enum_init(&e, sp, 0, 1) == 0 && gs_enum_next(&e) > 0)
				gs_config_json(sp, e.env, &b);
			gs_enum_release(&e);
		}
		if (b.len)
			snprintf(pl.ref_params, sizeof pl.ref_params, "%s", gs_buf_str(&b));
		if (b.len && sp->baseline)
			pl.baseline_json = gs_xstrdup(gs_buf_str(&b));
		gs_buf_release(&b);
	}
	struct gs_ident_opts io = { .device = o->device_ident, .stop = o->stop,
				    .flush_l2 = o->flush_l2, .nvrtc_version = gs_nvrtc_version(nvrtc),
				    .emu_sample = o->emu_sample };
	pl.ident = gs_ident_new(sp, &io);
	if (o->ngpus && sp->nrefs) {
		const char *tmp = getenv("TMPDIR");
		snprintf(pl.cache_dir, sizeof pl.cache_dir, "%s/gsearch-ref.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(pl.cache_dir))
			pl.cache_dir[0] = 0; /* replacements recompute the reference */
	}
	uv_loop_init(&pl.loop);
	uv_signal_init(&pl.loop, &pl.sig);
	pl.sig.data = &pl;
	uv_signal_start(&pl.sig, on_sigint, SIGINT);
	uv_signal_init(&pl.loop, &pl.sigterm);
	pl.sigterm.data = &pl;
	uv_signal_start(&pl.sigterm, on_sigint, SIGTERM);
	uv_signal_init(&pl.loop, &pl.sighup);
	pl.sighup.data = &pl;
	uv_signal_start(&pl.sighup, on_sigint, SIGHUP);
	uv_timer_init(&pl.loop, &pl.progress);
	pl.progress.data = &pl;
	if (o->progress)
		uv_timer_start(&pl.progress, on_progress, o->progress == 2 ? 1000 : 10000,
			       o->progress == 2 ? 1000 : 10000);
	pl.t0 = gs_now();
	uv_timer_init(&pl.loop, &pl.times);
	pl.times.data = &pl;
	uv_timer_start(&pl.times, on_times, GS_TIMES_EVERY_MS, GS_TIMES_EVERY_MS);
	pl.nworkers = o->ngpus;
	pl.workers = gs_xcalloc(pl.nworkers + 1, sizeof(*pl.workers));
	for (size_t i = 0; i < pl.nworkers; i++) {
		pl.workers[i].pl = &pl;
		pl.workers[i].ordinal = o->gpus[i];
		if (o->emu_profile)
			snprintf(pl.workers[i].label, sizeof pl.workers[i].label, "emu:%s", o->emu_profile);
		else
			snprintf(pl.workers[i].label, sizeof pl.workers[i].label, "cuda:%d", o->gpus[i]);
		worker_start(&pl.workers[i]);
	}
	if (gs_enum_init(&pl.e, sp, o->shard_i, o->shard_n) < 0) {
		struct gs_diag d = GS_DIAG_INIT;
		gs_enum_report(&pl.e, &d);
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		pl.failed = 1;
		pl.stop = 1;
	} else {
		pump(&pl);
	}
	finish_if_done(&pl);
	uv_run(&pl.loop, UV_RUN_DEFAULT);
	gs_trace("sweep: loop over");
	uv_loop_close(&pl.loop);
	gs_isolate_shutdown();
	if (getenv("GSEARCH_PROFILE"))
		fprintf(stderr, "gsearch: supervisor profile: %lu compiles stored, %.3f ms each; "
			"%lu results handled, %.3f ms each\n", sprof.compiled,
			sprof.compiled ? 1e3 * sprof.compiled_s / sprof.compiled : 0, sprof.results,
			sprof.results ? 1e3 * sprof.result_s / sprof.results : 0);
	gs_ident_free(pl.ident);
	if (o->progress == 2)
		fputc('\n', stderr);
	stats->wall_s = gs_now() - pl.t0;
	stats->failed = pl.failed;
	times_flush(&pl, stats->wall_s);
	if (pl.cache_dir[0])
		remove_tree(pl.cache_dir);
	gs_enum_release(&pl.e);
	gs_vm_release(&pl.vm);
	free(pl.jobs);
	for (size_t i = 0; i < pl.nwindow; i++) {
		for (size_t k = 0; k < pl.window[i].nidx; k++)
			free(pl.window[i].params[k]);
		free(pl.window[i].idx);
		free(pl.window[i].params);
		free(pl.window[i].idents);
		free(pl.window[i].pos);
		gs_variant_release(&pl.window[i].v);
	}
	free(pl.window);
	gs_corder_free(pl.order);
	gs_corder_free(pl.rorder);
	free(pl.baseline_json);
	free(pl.rq);
	free(pl.workers);
	free(pl.done_bits);
	return pl.failed ? -1 : 0;
}

void gs_sweep_stats_release(struct gs_sweep_stats *stats)
{
	free(stats->reused_by);
	stats->reused_by = NULL;
	stats->nreused_by = 0;
}

void gs_sweep_reused_print(const struct gs_sweep_stats *stats, FILE *f)
{
	if (!stats->reused)
		return;
	fprintf(f, "reused %llu result%s", (unsigned long long)stats->reused,
		stats->reused == 1 ? "" : "s");
	if (stats->nreused_by == 1) {
		fprintf(f, " of sweep %lld\n", (long long)stats->reused_by[0].sweep);
		return;
	}
	for (size_t i = 0; i < stats->nreused_by; i++)
		fprintf(f, "%s%llu of sweep %lld", i ? ", " : ": ",
			(unsigned long long)stats->reused_by[i].n, (long long)stats->reused_by[i].sweep);
	fputc('\n', f);
}
