/* watch.c — what runs beside the work: the progress line, the times
 * flushed to the store every second, the signals and the time budget's
 * deadline that stop a sweep. */
#define _GNU_SOURCE
#include "sched/pipeline.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sched/progress.h"

/* The store learns what the run has spent every GS_TIMES_EVERY_MS and at
 * the end, as increments: a sweep killed with SIGKILL loses at most the
 * last interval of its accounting, and its resumption adds to the rest. */
#define GS_TIMES_EVERY_MS 1000

void gs_watch_times_flush(struct pipeline *pl, double wall_s)
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
	const struct gs_sweep_times *f = &pl->w.flushed;
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
		pl->w.flushed = now;
}

static void on_times(uv_timer_t *t)
{
	struct pipeline *pl = t->data;
	gs_watch_times_flush(pl, gs_now() - pl->t0);
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
		pl->w.second_int = 1;
		for (size_t i = 0; i < pl->nworkers; i++)
			if (pl->workers[i].state == W_BUSY || pl->workers[i].state == W_STARTING) {
				pl->workers[i].killed = 1;
				gs_worker_kill(&pl->workers[i]);
			}
		if (pl->cc.inflight) /* compiles cannot be cancelled; all finished work is committed */
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
		pl->cc.inflight, pl->cc.inflight == 1 ? "" : "s", busy, busy == 1 ? "" : "s");
	gs_pipe_finish_if_done(pl);
}

/* The time budget is over.  What was taken from the source and has no
 * outcome yet is left without one, exactly like a configuration the
 * source never proposed: nothing is stored for it, and a run with a larger
 * budget proposes and measures it.  The compiles in flight are cancelled
 * (their servers killed; a large variant's compile can take longer than a
 * whole short budget), those waiting are never started, and the compiled
 * configurations waiting for a device are not measured (the queue can hold
 * hundreds; their variants are in the compile cache for the next run).  A
 * measurement already sent to a device finishes: it is bounded by the
 * run's --timeout, and stopping a worker mid-kernel costs a new worker. */
static void budget_over(struct pipeline *pl)
{
	if (pl->stop)
		return; /* stopping already: a signal, an error or the end */
	pl->stop = 1;
	pl->stats->budget_ended = 1;
	uint64_t n = pl->rq.n;
	for (size_t i = 0; i < pl->cc.njobs; i++)
		if (pl->cc.jobs[i].active) {
			pl->stats->abandoned++;
			n += pl->cc.jobs[i].nidx;
		}
	for (size_t i = 0; i < pl->cc.nwindow; i++)
		n += pl->cc.window[i].nidx;
	pl->stats->not_run = n;
	if (pl->cc.inflight)
		gs_isolate_cancel();
	gs_trace("sweep: time budget over");
	gs_pipe_finish_if_done(pl);
}

static void on_budget(uv_timer_t *t)
{
	budget_over(t->data);
}

static void on_close_quiet(uv_handle_t *h)
{
	(void)h;
}

static void signal_on(struct pipeline *pl, uv_signal_t *h, int signum)
{
	uv_signal_init(&pl->loop, h);
	h->data = pl;
	uv_signal_start(h, on_sigint, signum);
}

void gs_watch_start(struct pipeline *pl)
{
	struct watch *w = &pl->w;
	signal_on(pl, &w->sig, SIGINT);
	signal_on(pl, &w->sigterm, SIGTERM);
	signal_on(pl, &w->sighup, SIGHUP);
	uv_timer_init(&pl->loop, &w->progress);
	w->progress.data = pl;
	if (pl->o->progress)
		uv_timer_start(&w->progress, on_progress, pl->o->progress == 2 ? 1000 : 10000,
			       pl->o->progress == 2 ? 1000 : 10000);
	pl->t0 = gs_now();
	uv_timer_init(&pl->loop, &w->times);
	w->times.data = pl;
	uv_timer_start(&w->times, on_times, GS_TIMES_EVERY_MS, GS_TIMES_EVERY_MS);
	uv_timer_init(&pl->loop, &w->budget);
	w->budget.data = pl;
	if (pl->o->deadline > 0) {
		double left = pl->o->deadline - pl->t0;
		if (left <= 0) { /* spent before the sweep began: it takes nothing */
			pl->stop = 1;
			pl->stats->budget_ended = 1;
		} else {
			uv_timer_start(&w->budget, on_budget, (uint64_t)(left * 1000) + 1, 0);
		}
	}
}

void gs_watch_close(struct pipeline *pl)
{
	struct watch *w = &pl->w;
	uv_close((uv_handle_t *)&w->sig, on_close_quiet);
	uv_close((uv_handle_t *)&w->sigterm, on_close_quiet);
	uv_close((uv_handle_t *)&w->sighup, on_close_quiet);
	uv_close((uv_handle_t *)&w->progress, on_close_quiet);
	uv_close((uv_handle_t *)&w->times, on_close_quiet);
	uv_close((uv_handle_t *)&w->budget, on_close_quiet);
}
