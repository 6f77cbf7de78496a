/* source.h — where a sweep's next configurations come from.
 *
 * The sweep's loop (sched/sweep.c) asks its source for candidates, builds
 * and compiles their variants on the thread pool, measures them on the
 * workers and tells the source each one's outcome.  Today's source is the
 * enumeration (source_enum.c): every valid configuration of the space (of
 * one shard), in enumeration order.  A search strategy is another source:
 * it proposes some configurations, in any order, and may wait for their
 * results before proposing more.
 *
 * To add a source: write a struct whose first member is a struct
 * gs_source, fill the three functions, and hand it to gs_sweep_run
 * (gs_sweep_opts.source).  The loop's promises to a source:
 *
 *   - next() is called whenever the loop has room: after the start, after
 *     each compile and after each result.  It is not called again after it
 *     returned a negative number.
 *   - every candidate next() gave gets exactly one result(), in the order
 *     the outcomes become known (not the order proposed), unless the sweep
 *     is stopped first (Ctrl-C, an error, a time budget's deadline).
 *   - the sweep ends when the source is exhausted and nothing is in flight.
 *     A source that returns 0 ("wait") while none of its candidates is
 *     still in flight is taken as exhausted: no result will come to wake
 *     it.
 *
 * The loop keeps compiles running ahead of the devices on every candidate
 * it holds, so a source that can propose many at once keeps every thread
 * and worker busy; one that proposes a few at a time bounds what runs
 * ahead to what it proposed. */
#ifndef GS_SCHED_SOURCE_H
#define GS_SCHED_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "space/space.h"

/* One configuration proposed.  env and pos belong to the source and stay
 * valid until its next call of next(). */
struct gs_candidate {
	int64_t idx;                /* its enumeration index: the store's config.idx */
	const struct gs_value *env; /* parameters and lets bound, as gs_enum_next
				     * leaves them */
	const size_t *pos;          /* value index per parameter (as gs_enum's pos) */
};

enum {
	GS_SOURCE_WAIT = 0,       /* nothing to propose until a result arrives */
	GS_SOURCE_DONE = -1,      /* exhausted */
	GS_SOURCE_FAILED = -2,    /* it printed why; the sweep fails */
};

struct gs_sched_source {
	/* Fills out[0 .. max-1]; returns how many (> 0), or GS_SOURCE_*. */
	int (*next)(struct gs_sched_source *src, struct gs_candidate *out, size_t max);
	/* Candidate idx's outcome: "ok", "compile_error" ... (gs_outcomes), with
	 * time_ms for "ok" (else < 0); outcome NULL: none from this run (final
	 * in the store before it, or compiled only, without devices). */
	void (*result)(struct gs_sched_source *src, int64_t idx, const char *outcome, double time_ms);
	/* Frees the source. */
	void (*release)(struct gs_sched_source *src);
};

/* The enumeration: every valid configuration of shard shard_i of shard_n,
 * in order; NULL after printing why it cannot start. */
struct gs_sched_source *gs_sched_source_enum(const struct gs_space *sp, uint64_t shard_i,
					     uint64_t shard_n);

#endif
