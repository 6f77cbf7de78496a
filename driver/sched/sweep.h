/* sweep.h — the supervisor: one libuv loop that takes configurations from
 * a source (sched/source.h; by default the enumeration), compiles their
 * variants on the thread pool (sched/compile.h), hands them to one worker
 * process per device (sched/proto.h), enforces timeouts, replaces workers
 * that crash or hang, and is the only writer of the store.  Each finished
 * configuration is committed at once; configurations with a final outcome
 * in the store are not measured again.  How the work is divided among
 * sched/'s files: sched/pipeline.h. */
#ifndef GS_SCHED_SWEEP_H
#define GS_SCHED_SWEEP_H

#include <stdint.h>
#include <stdio.h>

#include "dev/stoprule.h"
#include "gen/gen.h"
#include "space/space.h"
#include "sched/early.h"
#include "sched/prespawn.h"
#include "sched/progress.h"
#include "sched/source.h"
#include "store/store.h"

struct gs_sweep_opts {
	const char *space_path;   /* as given: workers load it themselves */
	const char *const *sets;
	size_t nsets;
	int emu;
	int t1_grid;              /* enum gs_t1_grid: a T1 file's grid, where it gives two */
	const char *arch;         /* "sm_90" */
	unsigned jobs;            /* compile threads */
	uint64_t shard_i, shard_n;
	const int *gpus;          /* CUDA ordinals of the workers; none: compile only */
	size_t ngpus;
	const char *emu_profile;  /* set: the workers run this emulated device, and gpus[]
				   * hold its index in gs_emu_profiles[] */
	int emu_threads;          /* host threads per emulated device (<= 0: all cores) */
	int emu_sample;           /* > 0: blocks per launch the emulated device executes to
				   * time it at the real size */
	double timeout_s;         /* per configuration on a device */
	double setup_timeout_s;   /* a worker's setup, at most (<= 0: no limit) */
	double compile_timeout_s; /* one variant's compile, at most (<= 0: no limit, and
				   * with one job and no deadline the compile runs in this
				   * process) */
	double deadline;          /* a time budget's end, gs_now()'s clock (0: none): the
				   * sweep then stops taking work, cancels its compiles
				   * and ends as soon as the measurements running end */
	struct gs_stop_policy stop; /* how long each configuration is timed */
	int flush_l2;
	int progress;             /* 0 quiet, 1 plain lines, 2 one updating line (a terminal) */
	const char *device_ident; /* the device part of a result's identity (sched/ident.h) */
	int remeasure;            /* take no result of another sweep (sched/ident.h) */
	const char *worker_cmd;   /* test hook: program run as the worker (default: this binary) */
	struct gs_prespawned *pre; /* a worker already started for one GPU (prespawn.h), or NULL */
	struct gs_early *early;   /* compiles started before the sweep, stopped (early.h), or
				   * NULL; the caller frees it after the sweep */
	struct gs_sched_source *source;  /* where the configurations come from (source.h); NULL: the
				   * enumeration of shard_i of shard_n.  The sweep releases it. */
};

/* Results a run took from one other sweep. */
struct gs_sweep_reused {
	int64_t sweep;
	uint64_t n;
};

struct gs_sweep_stats {
	uint64_t configs, skipped_done; /* visited; already final in the store */
	uint64_t reused;          /* outcomes taken from other sweeps of the store */
	struct gs_sweep_reused *reused_by; /* by sweep, in order of first use; the caller
				   * frees it (gs_sweep_stats_release) */
	size_t nreused_by;
	uint64_t compiled, cached, shared, compile_errors;
	uint64_t measured, by_status[GS_NOUTCOMES];
	uint64_t no_outcome;      /* left without one this run: their compile server died */
	uint64_t worker_restarts;
	double restart_s;         /* from a replacement's start to its ready */
	double compile_busy_s, device_busy_s, wall_s;
	double timed_s;           /* timed kernel work the results report */
	double work_s;            /* time_ms x (runs + warm-ups) of measured ok results */
	int interrupted;          /* the signal that stopped it (SIGINT, SIGTERM, SIGHUP), or 0 */
	int budget_ended;         /* the deadline stopped it */
	uint64_t abandoned;       /* then: compiles in flight cancelled */
	uint64_t not_run;         /* then: configurations taken from the source and left
				   * without an outcome (compiling, waiting for a compile
				   * or compiled and waiting for a device) */
	int failed;
};

/* 0, or -1 after printing why (a store failure, a worker that cannot even
 * start); the stats say how far it got. */
int gs_sweep_run(const struct gs_space *sp, struct gs_nvrtc *nvrtc, struct gs_store *st,
		 int64_t sweep_id, const struct gs_sweep_opts *o, struct gs_sweep_stats *stats);

void gs_sweep_stats_release(struct gs_sweep_stats *stats);
/* "reused 268 results of sweep 3\n" (or "...: 200 of sweep 3, 68 of sweep
 * 4"), nothing when the run reused nothing. */
void gs_sweep_reused_print(const struct gs_sweep_stats *stats, FILE *f);

/* Outcome names in store order. */
extern const char *const gs_outcomes[GS_NOUTCOMES];

#endif
