/* sweep.c — the supervisor's loop: ask the source for configurations,
 * route each to the store, the compiles or the devices, end when the
 * source is exhausted and nothing is in flight (pipeline.h). */
#define _GNU_SOURCE
#include "sched/pipeline.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "space/enum.h"

/* Anything proposed that has no outcome yet. */
static int in_flight(const struct pipeline *pl)
{
	int busy = pl->cc.nwindow || pl->cc.inflight || pl->rq.n;
	for (size_t i = 0; i < pl->nworkers && !busy; i++)
		busy = pl->workers[i].state == W_BUSY;
	return busy;
}

/* One candidate to where it goes: taken from another sweep's result, to
 * the devices when its variant is cached, else to the compiles.  0, or -1
 * after an error that stops the sweep. */
static int route(struct pipeline *pl, const struct gs_candidate *c, int *in_tx, unsigned *ops)
{
	int64_t idx = c->idx;
	pl->stats->configs++;
	if (gs_pipe_is_done(pl, idx)) {
		gs_pipe_skipped(pl, idx);
		return 0;
	}
	struct gs_variant v;
	char err[512];
	if (gs_variant_build(pl->sp, c->env, pl->o->arch, gs_nvrtc_version(pl->nvrtc), &pl->vm, &v,
			     err, sizeof err) < 0) {
		fprintf(stderr, "gsearch: error: configuration %lld: %s\n", (long long)idx, err);
		pl->failed = 1;
		pl->stop = 1;
		return -1;
	}
	char ident[33];
	gs_ident_config(pl->ident, c->env, &v, ident);
	if (!pl->o->remeasure) {
		struct gs_reused ru;
		if (!*in_tx && gs_pipe_tx(pl, 1) == 0)
			*in_tx = 1;
		if (gs_store_result_reuse(pl->st, pl->sweep, idx, ident, gs_pipe_limit(pl), &ru) < 0) {
			gs_pipe_store_err(pl, "cannot reuse a result");
			gs_variant_release(&v);
			return -1;
		}
		if (ru.found) {
			gs_pipe_reused(pl, idx, &ru);
			gs_variant_release(&v);
			gs_pipe_tx_count(pl, in_tx, ops);
			return 0;
		}
	}
	struct gs_buf pj = GS_BUF_INIT;
	gs_config_json(pl->sp, c->env, &pj);
	char *params = gs_params_new(gs_buf_detach(&pj), c->pos, pl->sp->nparams);
	int found;
	char status[16];
	if (gs_store_variant_find(pl->st, v.hash, &found, status) < 0) {
		gs_pipe_store_err(pl, "cannot read the compile cache");
		gs_variant_release(&v);
		free(params);
		return -1;
	}
	if (found) {
		pl->stats->cached++;
		if (!*in_tx && gs_pipe_tx(pl, 1) == 0)
			*in_tx = 1;
		gs_pipe_variant_known(pl, idx, v.hash, ident, status, NULL, params);
		gs_variant_release(&v);
		gs_pipe_tx_count(pl, in_tx, ops);
		return 0;
	}
	/* the baseline is compiled and measured first: the sweep's best so
	 * far starts from a human's pick, not from the first index */
	int is_base = pl->baseline_json && !strcmp(params, pl->baseline_json);
	gs_compiles_add(pl, &v, idx, ident, params, c->pos, is_base);
	return 0;
}

/* Take candidates from the source while the compiles' window and the ready
 * queue have room, then start what the threads and the workers can take. */
void gs_pipe_pump(struct pipeline *pl)
{
	int in_tx = 0;
	unsigned ops = 0;
	size_t wmax = 64 * pl->cc.threads > 4096 ? 64 * pl->cc.threads : 4096;
	while (!pl->stop && !pl->src_done && pl->cc.nwindow < wmax &&
	       (!pl->nworkers || pl->rq.n < pl->rq.max)) {
		struct gs_candidate c;
		int r = pl->src->next(pl->src, &c, 1);
		if (r == GS_SOURCE_WAIT && in_flight(pl))
			break;
		if (r == GS_SOURCE_FAILED) {
			pl->failed = 1;
			pl->stop = 1;
		}
		if (r <= 0) { /* exhausted, or waiting for nothing */
			pl->src_done = 1;
			break;
		}
		if (route(pl, &c, &in_tx, &ops) < 0)
			break;
	}
	if (in_tx)
		gs_pipe_tx(pl, 0);
	gs_compiles_start(pl);
	gs_workers_dispatch(pl);
}

void gs_pipe_finish_if_done(struct pipeline *pl)
{
	if (pl->closing || pl->cc.inflight > 0)
		return;
	int busy = 0;
	for (size_t i = 0; i < pl->nworkers; i++)
		busy |= pl->workers[i].state == W_BUSY;
	if (busy)
		return;
	if (!pl->stop && !(pl->src_done && pl->cc.nwindow == 0 && pl->rq.n == 0))
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
				gs_worker_kill(w);
			gs_worker_close(w);
		}
	}
	gs_watch_close(pl);
	gs_readyq_drop(&pl->rq);
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

/* The reference is compiled with a configuration's defines: the
 * baseline's, else the first valid one's. */
static void reference_params(struct pipeline *pl)
{
	const struct gs_space *sp = pl->sp;
	snprintf(pl->ref_params, sizeof pl->ref_params, "{}");
	if (!pl->o->ngpus)
		return;
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
		snprintf(pl->ref_params, sizeof pl->ref_params, "%s", gs_buf_str(&b));
	if (b.len && sp->baseline)
		pl->baseline_json = gs_xstrdup(gs_buf_str(&b));
	gs_buf_release(&b);
}

/* What the loop needs before it runs; 0, or -1 after a store failure. */
static int pipe_init(struct pipeline *pl)
{
	const struct gs_sweep_opts *o = pl->o;
	unsigned jobs = o->jobs ? o->jobs : 1;
	char buf[16];
	snprintf(buf, sizeof buf, "%u", jobs);
	setenv("UV_THREADPOOL_SIZE", buf, 1); /* read by libuv when its pool starts */
	gs_compiles_init(&pl->cc, pl, jobs);
	pl->rq.order = gs_corder_new(pl->sp);
	/* compiles run ahead of the devices (while a worker's context starts,
	 * say) as far as this; a queued configuration is a few hundred bytes */
	pl->rq.max = 256 * o->ngpus + 256;
	gs_vm_init(&pl->vm);
	int64_t nconfigs = 0;
	gs_store_config_count(pl->st, pl->sweep, &nconfigs);
	pl->total = (uint64_t)nconfigs;
	pl->nbits = (uint64_t)nconfigs + 1;
	if (gs_store_done_bitmap(pl->st, pl->sweep, pl->nbits, &pl->done_bits) < 0)
		return gs_pipe_store_err(pl, "cannot read the finished configurations");
	reference_params(pl);
	pl->rq.baseline = pl->baseline_json;
	struct gs_ident_opts io = { .device = o->device_ident, .stop = o->stop,
				    .flush_l2 = o->flush_l2, .nvrtc_version = gs_nvrtc_version(pl->nvrtc),
				    .emu_sample = o->emu_sample };
	pl->ident = gs_ident_new(pl->sp, &io);
	if (o->ngpus && pl->sp->nrefs) {
		const char *tmp = getenv("TMPDIR");
		snprintf(pl->cache_dir, sizeof pl->cache_dir, "%s/gsearch-ref.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(pl->cache_dir))
			pl->cache_dir[0] = 0; /* replacements recompute the reference */
	}
	return 0;
}

static void pipe_release(struct pipeline *pl)
{
	gs_ident_free(pl->ident);
	if (pl->cache_dir[0])
		remove_tree(pl->cache_dir);
	if (pl->src)
		pl->src->release(pl->src);
	gs_vm_release(&pl->vm);
	gs_compiles_release(&pl->cc);
	gs_readyq_release(&pl->rq);
	free(pl->baseline_json);
	free(pl->workers);
	free(pl->done_bits);
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
	if (pipe_init(&pl) < 0) {
		pipe_release(&pl);
		return -1;
	}
	uv_loop_init(&pl.loop);
	gs_watch_start(&pl);
	gs_workers_start(&pl);
	pl.src = o->source ? o->source : gs_sched_source_enum(sp, o->shard_i, o->shard_n);
	if (!pl.src) {
		pl.failed = 1;
		pl.stop = 1;
	} else {
		gs_pipe_pump(&pl);
	}
	gs_pipe_finish_if_done(&pl);
	uv_run(&pl.loop, UV_RUN_DEFAULT);
	gs_trace("sweep: loop over");
	uv_loop_close(&pl.loop);
	gs_early_join(o->early); /* its threads' compile servers go too */
	gs_isolate_shutdown();
	char *ts = gs_xasprintf("sweep: %zu compile servers started", gs_isolate_started());
	gs_trace(ts);
	free(ts);
	if (o->early) {
		size_t started, taken;
		gs_early_counts(o->early, &started, &taken);
		char *t = gs_xasprintf("sweep: %zu early compiles adopted (of %zu)", taken, started);
		gs_trace(t);
		free(t);
	}
	if (getenv("GSEARCH_PROFILE"))
		fprintf(stderr, "gsearch: supervisor profile: %lu compiles stored, %.3f ms each; "
			"%lu results handled, %.3f ms each\n", pl.prof.compiled,
			pl.prof.compiled ? 1e3 * pl.prof.compiled_s / pl.prof.compiled : 0, pl.prof.results,
			pl.prof.results ? 1e3 * pl.prof.result_s / pl.prof.results : 0);
	if (o->progress == 2)
		fputc('\n', stderr);
	stats->wall_s = gs_now() - pl.t0;
	stats->failed = pl.failed;
	gs_watch_times_flush(&pl, stats->wall_s);
	pipe_release(&pl);
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
