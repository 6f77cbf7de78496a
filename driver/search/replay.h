/* replay.h — running a strategy against a recorded sweep instead of a
 * device: each proposed configuration's recorded outcome is observed at
 * once, and its recorded cost is added to a simulated clock.  One
 * configuration at a time, as a single device measures them.
 *
 * The budget is a number of evaluations, a simulated time, or both (the
 * first reached stops); an evaluation that starts before the time runs out
 * is counted whole, as a tuner checks its time limit before each one.
 * A run owns its arrays; gs_replay_run_release frees them. */
#ifndef GS_SEARCH_REPLAY_H
#define GS_SEARCH_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "search/prior.h"
#include "search/record.h"
#include "search/strategy.h"

#define GS_REPLAY_OWN ((size_t)-1)

struct gs_replay_run {
	size_t n;
	size_t *cfg;   /* configurations in the order evaluated */
	double *cum_s; /* simulated time after each */
	size_t within; /* the first this many are inside the budget (n but
			* for gs_replay_run_past) */
};

/* budget_n 0: no limit on evaluations, GS_REPLAY_OWN: the strategy's own
 * plan (gs_strategy_planned; everything for one without); budget_s <= 0:
 * no limit on time.
 * NULL ... never: gs_strategy_new refuses only a missing prior, which the
 * caller checks first. */
void gs_replay_run(const struct gs_record *rec, const struct gs_strategy_ops *ops,
		   const struct gs_prior *prior, uint64_t seed, size_t budget_n, double budget_s,
		   struct gs_replay_run *out);
/* As gs_replay_run with the time budget budget_s (> 0), but running on
 * past it until the optimum has been evaluated or the strategy has nothing
 * left to propose (the whole space): out->within is the number of
 * evaluations the budget admits, so that the first within of out are
 * exactly what gs_replay_run(rec, ops, prior, seed, 0, budget_s) gives. */
void gs_replay_run_past(const struct gs_record *rec, const struct gs_strategy_ops *ops,
			const struct gs_prior *prior, uint64_t seed, double budget_s,
			struct gs_replay_run *out);
/* As gs_replay_run (past: gs_replay_run_past), but as a live sweep with
 * `jobs` compile threads and one device runs the strategy
 * (replay_jobs.c): a proposal is asked for while fewer than jobs + 1
 * results are undelivered; each configuration compiles for its compile_s
 * on a free thread, in proposal order, and is then measured for the rest
 * of its cost on the device, in the order the compiles finished; results
 * reach the strategy in the order they arrive under a time budget, else
 * in proposal order (sched/source_search.c).  out->cfg is in the order
 * results arrived, out->cum_s the simulated time each did; what has not
 * arrived when a time budget ends is not counted (the live sweep cancels
 * it). */
void gs_replay_run_jobs(const struct gs_record *rec, const struct gs_strategy_ops *ops,
			const struct gs_prior *prior, uint64_t seed, size_t budget_n, double budget_s,
			int past, unsigned jobs, struct gs_replay_run *out);
void gs_replay_run_release(struct gs_replay_run *r);
/* For the replays' loops: out's arrays allocated for the record, the
 * strategy made (NULL: it needs a prior), and *cap the evaluations
 * budget_n admits (the strategy's own plan for GS_REPLAY_OWN). */
struct gs_strategy *gs_replay_start(const struct gs_record *rec, const struct gs_strategy_ops *ops,
				    const struct gs_prior *prior, uint64_t seed, size_t budget_n,
				    struct gs_replay_run *out, size_t *cap);

/* Fractions of the optimum's performance the report gives. */
#define GS_REPLAY_NTARGETS 4
extern const double gs_replay_targets[GS_REPLAY_NTARGETS]; /* 0.90 0.95 0.98 1.00 */

/* Over the repeats: the median number of evaluations to a time within
 * optimum / target (INFINITY: more than half never got there) and the
 * median simulated time to the second target (95%). */
struct gs_replay_stats {
	double f[GS_REPLAY_NTARGETS];
	double t95_s;
};
void gs_replay_stats(const struct gs_record *rec, const struct gs_replay_run *runs, size_t nruns,
		     struct gs_replay_stats *st);

/* The record's optimum (smallest finite time), INFINITY when none. */
double gs_record_optimum(const struct gs_record *rec);

/* Parse a budget: N evaluations, P% of the space, or a time (90s, 90m,
 * 1.5h).  0, or -1 when it is none of these. */
int gs_replay_parse_budget(const char *s, size_t nconfigs, size_t *n, double *secs);

#endif
