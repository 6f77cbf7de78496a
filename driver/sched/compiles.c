/* compiles.c — compiling variants on libuv's thread pool: a window of
 * variants waiting for a thread, the one predicted to compile longest
 * first (order.h), and jobs on the threads; each finished compile is
 * stored and its configurations go to the ready queue or get their
 * outcome. */
#define _GNU_SOURCE
#include "sched/pipeline.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void work_cb(uv_work_t *req)
{
	struct job *j = req->data;
	/* compiled before the sweep (early.h), or being compiled: waited for
	 * here, on this thread, while the loop goes on */
	const struct gs_sweep_opts *o = j->pl->o;
	if (j->early && gs_early_take(o->early, j->v.hash, &j->b))
		return;
	/* a time limit or a deadline needs a process to stop, even for one job */
	gs_compile_variant(j->pl->nvrtc, &j->v, 1,
			   o->jobs > 1 || o->compile_timeout_s > 0 || o->deadline > 0,
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
	struct job *j = req->data;
	double t = gs_now();
	after_cb_body(req);
	j->pl->prof.compiled_s += gs_now() - t;
	j->pl->prof.compiled++;
}

static void after_cb_body(uv_work_t *req)
{
	struct job *j = req->data;
	struct pipeline *pl = j->pl;
	pl->cc.inflight--;
	pl->stats->compile_busy_s += j->b.out.seconds;
	if (!j->b.nvrtc_failed && !j->b.out.cancelled && j->b.out.seconds > 0)
		gs_corder_learn(pl->cc.order, j->pos, j->b.out.seconds);
	/* the thread is free: give it the next variant before storing this one */
	gs_compiles_start(pl);
	if (pl->stats->budget_ended) {
		/* cancelled, or done too late (watch.c's budget_over): nothing
		 * is stored, neither the variant nor an outcome, as for a
		 * configuration never proposed */
	} else if (j->b.nvrtc_failed) {
		fprintf(stderr, "gsearch: error: %s\n", j->b.err);
		pl->failed = 1;
		pl->stop = 1;
	} else if (!pl->failed && j->b.out.timed_out) {
		/* an outcome of this limit, not of the variant: nothing goes into
		 * the compile cache, so another sweep with more time tries again */
		pl->stats->compiled++;
		for (size_t i = 0; i < j->nidx && !pl->failed; i++) {
			pl->stats->compile_errors++;
			gs_pipe_outcome(pl, j->idx[i], NULL, j->idents[i], "compile_error", j->b.out.log);
		}
	} else if (!pl->failed && j->b.out.server_died) {
		/* the environment's fault, not the variant's (gen.h): nothing
		 * is stored for it, so a resume compiles it again and no other
		 * sweep reuses it */
		fprintf(stderr, "gsearch: warning: %s; %zu configuration%s (index %lld%s) left without "
			"an outcome, the next run tries again\n", j->b.out.log, j->nidx,
			j->nidx == 1 ? "" : "s", (long long)j->idx[0], j->nidx > 1 ? ", ..." : "");
		for (size_t i = 0; i < j->nidx; i++)
			gs_pipe_no_outcome(pl, j->idx[i]);
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
		if (gs_pipe_tx(pl, 1) == 0) {
			if (gs_store_variant_put(pl->st, &row) < 0) {
				gs_pipe_store_err(pl, "cannot store a variant");
			} else {
				for (size_t i = 0; i < j->nidx && !pl->failed; i++) {
					gs_pipe_variant_known(pl, j->idx[i], j->v.hash, j->idents[i], row.status, log,
						      j->params[i]);
					j->params[i] = NULL;
				}
				pl->stats->shared += j->nidx - 1;
			}
			gs_pipe_tx(pl, 0);
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
	gs_workers_dispatch(pl);
	gs_pipe_pump(pl);
	if (pl->src_done && !pl->cc.nwindow && !pl->cc.inflight && !pl->cc.released) {
		gs_trace("sweep: compiles done");
		/* an early compile the sweep did not need may still be running
		 * in a compile server about to be released */
		gs_early_join(pl->o->early);
		gs_isolate_release();
		pl->cc.released = 1;
	}
	gs_pipe_finish_if_done(pl);
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

/* Whether window entry a goes before b: a variant compiled early (early.h)
 * first, its thread only waits for it; then the longest predicted. */
static int before(const struct job *a, const struct job *b)
{
	if (a->early != b->early)
		return a->early;
	return a->cost > b->cost;
}

/* Start compiles while threads are free and the devices want more: the
 * variant of the window predicted to compile longest first. */
void gs_compiles_start(struct pipeline *pl)
{
	while (!pl->stop && pl->cc.nwindow && pl->cc.inflight < pl->cc.threads &&
	       (!pl->nworkers || pl->rq.n < pl->rq.max)) {
		size_t best = 0;
		for (size_t i = 1; i < pl->cc.nwindow; i++)
			if (before(&pl->cc.window[i], &pl->cc.window[best]))
				best = i;
		struct job *j = NULL;
		for (size_t i = 0; i < pl->cc.njobs && !j; i++)
			if (!pl->cc.jobs[i].active)
				j = &pl->cc.jobs[i];
		if (!j)
			return;
		*j = pl->cc.window[best];
		pl->cc.window[best] = pl->cc.window[--pl->cc.nwindow];
		j->active = 1;
		j->pl = pl;
		j->req.data = j;
		pl->cc.inflight++;
		uv_queue_work(&pl->loop, &j->req, work_cb, after_cb);
	}
}

/* The job compiling or waiting for this variant, if any. */
static struct job *find_job(struct pipeline *pl, const char *hash)
{
	for (size_t i = 0; i < pl->cc.njobs; i++)
		if (pl->cc.jobs[i].active && !strcmp(pl->cc.jobs[i].v.hash, hash))
			return &pl->cc.jobs[i];
	for (size_t i = 0; i < pl->cc.nwindow; i++)
		if (!strcmp(pl->cc.window[i].v.hash, hash))
			return &pl->cc.window[i];
	return NULL;
}

void gs_compiles_add(struct pipeline *pl, struct gs_variant *v, int64_t idx, const char *ident,
		     char *params, const size_t *pos, int is_base)
{
	struct compiles *cc = &pl->cc;
	struct job *j = find_job(pl, v->hash);
	if (j) {
		if (is_base)
			j->cost = INFINITY;
		add_waiter(j, idx, ident, params);
		gs_variant_release(v);
		return;
	}
	gs_grow(&cc->window, &cc->capwindow, cc->nwindow + 1, sizeof(*cc->window));
	j = &cc->window[cc->nwindow++];
	memset(j, 0, sizeof(*j));
	j->v = *v;
	j->pos = gs_xmalloc((pl->sp->nparams + 1) * sizeof(*j->pos));
	memcpy(j->pos, pos, pl->sp->nparams * sizeof(*j->pos));
	j->cost = is_base ? INFINITY : gs_corder_predict(cc->order, j->pos);
	j->early = gs_early_has(pl->o->early, j->v.hash);
	add_waiter(j, idx, ident, params);
}

void gs_compiles_init(struct compiles *cc, struct pipeline *pl, unsigned jobs)
{
	cc->threads = jobs;
	cc->njobs = 2 * (size_t)jobs; /* a finished compile is stored while the next runs */
	cc->jobs = gs_xcalloc(cc->njobs, sizeof(*cc->jobs));
	cc->order = gs_corder_new(pl->sp);
}

/* The window's variants never compiled (the sweep stopped): dropped. */
void gs_compiles_release(struct compiles *cc)
{
	free(cc->jobs);
	for (size_t i = 0; i < cc->nwindow; i++) {
		for (size_t k = 0; k < cc->window[i].nidx; k++)
			free(cc->window[i].params[k]);
		free(cc->window[i].idx);
		free(cc->window[i].params);
		free(cc->window[i].idents);
		free(cc->window[i].pos);
		gs_variant_release(&cc->window[i].v);
	}
	free(cc->window);
	gs_corder_free(cc->order);
}
