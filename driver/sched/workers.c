/* workers.c — the device workers: one process per device, started (or
 * adopted: prespawn.h), fed a configuration to measure and one ahead,
 * timed out, killed and replaced; the protocol's frames (proto.h) both
 * ways. */
#define _GNU_SOURCE
#include "sched/pipeline.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "dev/dev.h"
#include "sched/prespawn.h"
#include "sched/proto.h"
#include "util/frame.h"

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
static void begin(struct worker *w);

static void requeue_next(struct pipeline *pl, struct worker *w)
{
	if (w->has_next) {
		gs_readyq_push_front(&pl->rq, &w->next);
		w->has_next = 0;
	}
}

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
	gs_pipe_finish_if_done(pl);
}

void gs_worker_close(struct worker *w)
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

void gs_worker_kill(struct worker *w)
{
	if (w->adopted_pid)
		kill(w->adopted_pid, SIGKILL);
	else
		uv_process_kill(&w->proc, SIGKILL);
}

/* Store a worker's result; 1 if the worker said its device is broken. */
static int record(struct pipeline *pl, struct worker *w, const char *json)
{
	struct gs_proto_result d;
	pl->stats->device_busy_s += gs_now() - w->t_dispatch;
	pl->stats->measured++;
	if (gs_proto_result_decode(json, &d) < 0) {
		gs_pipe_outcome(pl, w->cur.idx, w->cur.hash, w->cur.ident, "launch_error",
				"the worker sent a result that is not JSON");
		return 0;
	}
	struct gs_result_row r = {
		.sweep_id = pl->sweep,
		.idx = w->cur.idx,
		.variant_hash = w->cur.hash,
		.status = d.status ? d.status : "launch_error",
		.limiter = d.limiter,
		.error = d.error,
		.metrics = d.metrics,
		.counters = d.counters,
		.modeled = d.modeled,
		.device = w->label,
		.time_ms = d.time_ms,
		.min_ms = d.min_ms,
		.iqr_ms = d.iqr_ms,
		.reps = d.reps,
		.blocks_per_sm = d.blocks_per_sm,
		.occupancy = d.occupancy,
		.energy_j = d.energy_j,
		.power_w = d.power_w,
		.sm_clock_mhz = d.sm_clock_mhz,
		.temp_c = d.temp_c,
		.max_abs_err = d.max_abs_err,
		.max_rel_err = d.max_rel_err,
		.ci_lo_ms = d.ci_lo_ms,
		.ci_hi_ms = d.ci_hi_ms,
		.ci_pct = d.ci_pct,
		.timed_ms = d.timed_ms,
		.runs = d.runs,
		.warmups = d.warmups,
		.ident = w->cur.ident,
		.timeout_s = gs_pipe_limit(pl),
	};
	gs_pipe_result(pl, &r, w->cur.params);
	int sticky = d.sticky;
	gs_proto_result_release(&d);
	return sticky;
}

static void on_frame_body(struct worker *w, struct gs_frame *f);

static void on_frame(struct worker *w, struct gs_frame *f)
{
	double t = gs_now();
	on_frame_body(w, f);
	w->pl->prof.result_s += gs_now() - t;
	w->pl->prof.results++;
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
			gs_pipe_outcome(pl, w->cur.idx, w->cur.hash, w->cur.ident, "crash",
				      "the worker broke the protocol while measuring this");
			free(w->cur.params);
			w->cur.params = NULL;
			requeue_next(pl, w);
		}
		w->state = W_CLOSING; /* not busy: its exit records nothing more */
		w->killed = 1;
		gs_worker_kill(w);
	}
	gs_workers_dispatch(pl);
	gs_pipe_pump(pl);
	gs_pipe_finish_if_done(pl);
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
		if (!(w->killed && pl->w.second_int))
			gs_pipe_outcome(pl, w->cur.idx, w->cur.hash, w->cur.ident, outcome, why);
		free(w->cur.params);
		w->cur.params = NULL;
		requeue_next(pl, w);
	} else if (w->state == W_STARTING && !pl->stop) {
		w->setup_failures++;
	}
	gs_worker_close(w);
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
	gs_worker_kill(w);
}

static void on_timeout(uv_timer_t *t)
{
	struct worker *w = t->data;
	w->timed_out = 1;
	gs_worker_kill(w);
}

/* The setup message (proto.h): the device, the options, the space and its
 * kernels as the supervisor read them. */
static void send_setup(struct worker *w)
{
	struct pipeline *pl = w->pl;
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
	/* an emulated device's host time per configuration: what a GPU's
	 * configuration may take, its timed work included, short of the
	 * margin after which the worker is killed (w->limit_s) */
	if (pl->o->timeout_s > 0)
		json_object_set_new(tj, "emu_host_s",
				    json_real(pl->o->timeout_s + 2 * pl->o->stop.max_time_s));
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
	send_setup(w);
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
		gs_pipe_store_err(pl, "cannot read a variant's cubin");
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

void gs_workers_dispatch(struct pipeline *pl)
{
	for (size_t i = 0; i < pl->nworkers && !pl->stop; i++) {
		struct worker *w = &pl->workers[i];
		while (pl->rq.n && !pl->stop &&
		       (w->state == W_IDLE || (w->state == W_BUSY && !w->has_next))) {
			struct ready r = gs_readyq_take(&pl->rq);
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

/* One worker per device, each started now (or adopted: prespawn.h). */
void gs_workers_start(struct pipeline *pl)
{
	const struct gs_sweep_opts *o = pl->o;
	pl->nworkers = o->ngpus;
	pl->workers = gs_xcalloc(pl->nworkers + 1, sizeof(*pl->workers));
	for (size_t i = 0; i < pl->nworkers; i++) {
		struct worker *w = &pl->workers[i];
		w->pl = pl;
		w->ordinal = o->gpus[i];
		if (o->emu_profile)
			snprintf(w->label, sizeof w->label, "emu:%s", o->emu_profile);
		else
			snprintf(w->label, sizeof w->label, "cuda:%d", o->gpus[i]);
		worker_start(w);
	}
}
