/* source_search.h — a search strategy (search/strategy.h) as a sweep's
 * source (sched/source.h): `gsearch run --strategy S --budget B`. */
#ifndef GS_SCHED_SOURCE_SEARCH_H
#define GS_SCHED_SOURCE_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "sched/source.h"
#include "search/strategy.h"
#include "space/space.h"
#include "store/store.h"

struct gs_emu_profile;

struct gs_search_opts {
	const struct gs_strategy_ops *strategy;
	const char *budget;  /* N, P% or a time (30s, 90m, 2h); NULL: every configuration.
			      * A time is not enforced here: the caller makes the
			      * sweep's deadline of gs_search_info.budget_s */
	const char *prior;   /* gs_prior_load's spec, "static", or NULL */
	/* static: the rules the occupancy follows (an emulated device's
	 * profile, the one of the device's architecture) */
	const struct gs_emu_profile *occ_profile;
	uint64_t seed;
	size_t window;       /* proposals awaiting their results, at most: fixed, so
			      * that the search does not depend on timing */
	uint64_t shard_i, shard_n;
};

/* What the search covers, for the run's report. */
struct gs_search_info {
	size_t valid;        /* the shard's valid configurations */
	size_t budget_n;     /* evaluations, at most */
	double budget_s;     /* seconds of wall time, or 0 */
};

/* The strategy over shard shard_i of shard_n of sp; the results already in
 * sweep `sweep` of st are read from there, not measured again.  NULL after
 * printing why (a prior that does not load, a strategy without the prior
 * it needs).  st and sp must outlive the source. */
struct gs_sched_source *gs_sched_source_search(const struct gs_space *sp, struct gs_store *st,
					       int64_t sweep, const struct gs_search_opts *o,
					       struct gs_search_info *info);

/* Is budget one that --budget takes?  0, or -1. */
int gs_search_budget_ok(const char *budget);

#endif
