/* progress.h — the line `gsearch run` shows while a sweep runs.
 *
 * Kept apart from the supervisor's loop as a pure function of the counts,
 * the elapsed time and the width, so that what a user reads at any terminal
 * width can be tested without running a sweep. */
#ifndef GS_SCHED_PROGRESS_H
#define GS_SCHED_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

/* The outcomes a configuration can have (gs_outcomes, sched/sweep.h). */
#define GS_NOUTCOMES 9

struct gs_progress {
	uint64_t total;          /* configurations of the sweep (of this shard) */
	uint64_t before;         /* already final in the store when the run began */
	uint64_t by_status[GS_NOUTCOMES]; /* this run's outcomes, in gs_outcomes order */
	double elapsed_s;
	double best_ms;          /* the fastest ok configuration so far; <= 0: none */
	int compile_only;        /* no device: the counts below, not the outcomes */
	uint64_t visited, compiled, cached, compile_errors;
};

/* Formats the line into buf (size bytes, NUL-terminated): no newline, no
 * escape codes, ASCII only, at most `width` characters (0: no limit).  When
 * the width is short the least useful parts go first: configurations done
 * before, the outcome names (folded into "failed N"), the best time, the
 * rate, the outcome counts, the ETA, the percentage.  Returns its length. */
size_t gs_progress_format(const struct gs_progress *p, size_t width, char *buf, size_t size);

#endif
