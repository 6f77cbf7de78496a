/* pipeline.h — the supervisor's units and the state they share (internal
 * to sched/).  One libuv loop drives them all, on one thread:
 *
 *   sweep.c    the loop: asks the source (source.h) for configurations,
 *              routes each to the store, the compiles or the ready queue,
 *              and ends the sweep
 *   compiles.c variants waiting for a compile thread (the window) and on
 *              one (the jobs), on libuv's thread pool; those compiled
 *              before the sweep (early.c) are adopted there
 *   readyq.c   configurations compiled and waiting for a device
 *   workers.c  the device worker processes: start, adopt, replace, time
 *              out; the protocol's frames (proto.h) both ways
 *   outcome.c  the store's transactions and each configuration's outcome
 *   watch.c    the progress line, the times flushed to the store, signals
 *
 * struct pipeline holds what more than one unit reads; each unit's own
 * state is its member struct.  Every callback runs on the loop's thread,
 * but for compiles' work_cb, which touches its job only. */
#ifndef GS_SCHED_PIPELINE_H
#define GS_SCHED_PIPELINE_H

#include <stdint.h>

#include <uv.h>

#include "gen/gen.h"
#include "gen/variant.h"
#include "space/load.h"
#include "sched/compile.h"
#include "sched/early.h"
#include "sched/ident.h"
#include "sched/order.h"
#include "sched/source.h"
#include "sched/sweep.h"
#include "store/store.h"
#include "util/util.h"

struct pipeline;

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
	int early;    /* compiled or compiling before the sweep (early.h) */
};

struct compiles {
	struct job *jobs;     /* on a thread, or stored while the next runs */
	size_t njobs, inflight, threads;
	struct job *window;   /* variants waiting for a compile thread */
	size_t nwindow, capwindow;
	struct gs_corder *order; /* longest first */
	int released;         /* the compile servers were told to exit */
};

/* A configuration whose variant is compiled, waiting for a device.  params
 * is its JSON, followed in the same allocation by its value indices
 * (gs_params_new, gs_params_pos): one pointer to pass and free wherever a
 * configuration goes, and the run-order predictor still finds them. */
struct ready {
	int64_t idx;
	char hash[33];
	char ident[33];
	char *params;
};

/* A ring of struct ready; the one measured next is picked (readyq.c). */
struct readyq {
	struct ready *r;
	size_t head, n, cap;
	size_t max;               /* compiles stop running ahead beyond this */
	struct gs_corder *order;  /* measurements: fastest first */
	const char *baseline;     /* the baseline's params, measured first; NULL: none */
};

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

/* The progress line, the periodic times and the signals (watch.c). */
struct watch {
	uv_signal_t sig, sigterm, sighup;
	uv_timer_t progress;
	uv_timer_t times;               /* adds the times spent so far to the store */
	uv_timer_t budget;              /* fires at the deadline (gs_sweep_opts) */
	struct gs_sweep_times flushed;  /* what it has added */
	int second_int;                 /* a second signal: workers killed */
};

struct pipeline {
	uv_loop_t loop;
	/* given */
	const struct gs_space *sp;
	struct gs_nvrtc *nvrtc;
	struct gs_store *st;
	int64_t sweep;
	const struct gs_sweep_opts *o;
	struct gs_sweep_stats *stats;
	/* the loop's */
	struct gs_sched_source *src;
	int src_done;
	struct gs_vm vm;
	struct gs_ident *ident;
	uint8_t *done_bits;   /* configurations final in the store */
	uint64_t nbits;
	char *baseline_json;  /* the baseline's params; NULL: none */
	/* the units' */
	struct compiles cc;
	struct readyq rq;
	struct worker *workers;
	size_t nworkers;
	struct watch w;
	/* every unit's: stop taking work; the sweep failed; it is ending */
	int stop, failed, closing;
	double t0;
	uint64_t total;
	double best_ms;       /* the sweep's best ok time so far */
	char ref_params[4096];
	char cache_dir[4096]; /* reference outputs for replacement workers; "" none */
	struct {              /* GSEARCH_PROFILE: where the supervisor's own time goes */
		double compiled_s, result_s;
		unsigned long compiled, results;
	} prof;
};

/* sweep.c */
void gs_pipe_pump(struct pipeline *pl);
void gs_pipe_finish_if_done(struct pipeline *pl);

/* compiles.c */
void gs_compiles_init(struct compiles *cc, struct pipeline *pl, unsigned jobs);
void gs_compiles_release(struct compiles *cc);
void gs_compiles_start(struct pipeline *pl);
/* A configuration whose variant v is not cached: it waits for that
 * variant's compile, started or not (v is taken or released). */
void gs_compiles_add(struct pipeline *pl, struct gs_variant *v, int64_t idx, const char *ident,
		     char *params, const size_t *pos, int is_base);

/* readyq.c */
char *gs_params_new(char *json, const size_t *pos, size_t n);
const size_t *gs_params_pos(const char *params);
void gs_readyq_push(struct readyq *q, int64_t idx, const char *hash, const char *ident,
		    char *params);
void gs_readyq_push_front(struct readyq *q, struct ready *r);
struct ready gs_readyq_take(struct readyq *q);
void gs_readyq_drop(struct readyq *q);
void gs_readyq_release(struct readyq *q);

/* workers.c */
void gs_workers_start(struct pipeline *pl);
void gs_workers_dispatch(struct pipeline *pl);
void gs_worker_kill(struct worker *w);
void gs_worker_close(struct worker *w);

/* outcome.c */
int gs_pipe_store_err(struct pipeline *pl, const char *what);
int gs_pipe_tx(struct pipeline *pl, int begin);
void gs_pipe_tx_count(struct pipeline *pl, int *in_tx, unsigned *ops);
int gs_pipe_is_done(const struct pipeline *pl, int64_t idx);
void gs_pipe_skipped(struct pipeline *pl, int64_t idx);
void gs_pipe_no_outcome(struct pipeline *pl, int64_t idx);
double gs_pipe_limit(const struct pipeline *pl);
void gs_pipe_outcome(struct pipeline *pl, int64_t idx, const char *hash, const char *ident,
		     const char *status, const char *error);
void gs_pipe_variant_known(struct pipeline *pl, int64_t idx, const char *hash, const char *ident,
			   const char *status, const char *log, char *params);
void gs_pipe_reused(struct pipeline *pl, int64_t idx, const struct gs_reused *ru);
void gs_pipe_result(struct pipeline *pl, const struct gs_result_row *r, const char *params);

/* watch.c */
void gs_watch_start(struct pipeline *pl);
void gs_watch_close(struct pipeline *pl);
void gs_watch_times_flush(struct pipeline *pl, double wall_s);

#endif
