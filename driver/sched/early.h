/* early.h — compiling before the sweep knows its devices.
 *
 * A CUDA run spends its first fifth of a second initializing the driver and
 * asking for the devices, and only then opens the store and starts the
 * sweep.  Where the architecture can be known without CUDA (`--arch`, or
 * NVML), `gsearch run` starts compiling at once, on threads of its own, the
 * variants the sweep will ask for first: the enumeration's, the one predicted
 * to compile longest first, as the sweep's own compiles (compiles.c) pick.
 * The results are held in memory by variant hash.  The hash covers the
 * architecture and NVRTC's version, so a wrong guess only wastes work: no
 * variant of the sweep matches it.
 *
 * When the sweep starts, the pool takes no new work (gs_early_stop), and the
 * sweep's compiles adopt each variant the pool compiled or is compiling
 * (gs_early_take, waiting for it on a compile thread) instead of compiling
 * it again; what it adopts is stored exactly as a compile of its own.  The
 * compile servers the pool's threads started (gen/isolate.c) go on to the
 * sweep's compiles, so the threads, whose servers die with them, stay until
 * gs_early_join.
 *
 * Threads: gs_early_run on one thread; gs_early_stop from any; gs_early_has
 * and gs_early_take from any once gs_early_run has returned (before, they
 * find nothing); gs_early_join and gs_early_free after it has returned. */
#ifndef GS_SCHED_EARLY_H
#define GS_SCHED_EARLY_H

#include <stddef.h>
#include <stdint.h>

#include "gen/gen.h"
#include "sched/compile.h"
#include "space/space.h"
#include "store/store.h"

struct gs_early;

struct gs_early_opts {
	const char *arch;         /* "sm_90" */
	unsigned jobs;            /* threads */
	double compile_timeout_s; /* as the sweep's (gs_sweep_opts) */
	uint64_t shard_i, shard_n;
	int baseline_first;       /* the space's baseline first, as a measuring sweep does */
	struct gs_store *cached;  /* variants found here are not compiled; may be NULL */
};

/* An idle pool, so that another thread can stop it while gs_early_run
 * enumerates. */
struct gs_early *gs_early_new(void);
/* Takes sp (freed by gs_early_free); nvrtc must outlive the pool.  Enumerates
 * on the calling thread as many configurations as the sweep's window holds,
 * until done or stopped, starting the threads once the first are queued;
 * returns the number of variants queued. */
size_t gs_early_run(struct gs_early *e, struct gs_space *sp, struct gs_nvrtc *nvrtc,
		    const struct gs_early_opts *o);
/* No new compile starts; those running go on.  Idempotent. */
void gs_early_stop(struct gs_early *e);
/* Whether variant hash is compiled or compiling here (after gs_early_stop). */
int gs_early_has(struct gs_early *e, const char *hash);
/* Its compile, waited for and moved into *b (the caller releases it): 1,
 * or 0 when there is none. */
int gs_early_take(struct gs_early *e, const char *hash, struct gs_built *b);
/* Stops and waits for the threads (the compile servers they started end
 * with them): after it no compile runs here. */
void gs_early_join(struct gs_early *e);
/* How many were compiled; how many taken. */
void gs_early_counts(struct gs_early *e, size_t *started, size_t *taken);
/* Joins and frees what was never taken; NULL is fine. */
void gs_early_free(struct gs_early *e);

#endif
