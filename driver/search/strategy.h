/* strategy.h — search strategies behind one small interface.
 *
 * A strategy chooses which configurations of a space to measure.  The
 * caller (the live sweep, or replay) asks it for a batch of candidates with
 * propose() and tells it each outcome with observe(), in any order and
 * whenever it arrives: compiles and devices finish out of order, so a
 * strategy never assumes that the last configuration it proposed is the
 * next one observed.  A strategy proposes each configuration at most once
 * and only configurations of the space; the caller enforces the budget
 * (a strategy never needs to know it).
 *
 * propose() returns how many configurations it wrote to out (at most max):
 * 0 when it waits for results of configurations still being measured, and
 * GS_SEARCH_EXHAUSTED when it will never propose another one.  A caller
 * with free workers asks with max = their number; one that keeps compiles
 * running ahead asks for more.  Strategies that walk a neighbourhood return
 * the best few candidates they would try next, so a larger max feeds more
 * workers at the price of some speculation.
 *
 * observe() takes the measured time in ms, or INFINITY for any failure
 * (a compile error, a crash, a wrong result: the strategy treats them
 * alike).  Observing a configuration that was not proposed is allowed (a
 * result reused from an earlier sweep); it is then never proposed.
 *
 * A strategy is a deterministic function of its seed and of the sequence
 * of calls it receives.  To resume a killed search so that it measures
 * exactly what one uninterrupted run would, drive it again from the start:
 * whenever it proposes a configuration whose result is already stored,
 * observe that result at once instead of measuring it.  (Observing stored
 * results up front instead is allowed, and cheaper, but it is another
 * search.)
 *
 * Adding a strategy: one file with a `const struct gs_strategy_ops`, and one
 * line in GS_STRATEGIES below.  gs_strategy_new/free own the strategy's
 * state; the space and the prior are borrowed and must outlive it. */
#ifndef GS_SEARCH_STRATEGY_H
#define GS_SEARCH_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#include "search/prior.h"
#include "search/space.h"

#define GS_SEARCH_EXHAUSTED (-1L)

enum { GS_PRIOR_IGNORED, GS_PRIOR_USED, GS_PRIOR_NEEDED };

struct gs_strategy_ops {
	const char *name;
	const char *doc;   /* one line, for help */
	int prior;         /* GS_PRIOR_IGNORED, _USED (when given) or _NEEDED */
	void *(*new)(const struct gs_sspace *sp, const struct gs_prior *prior, uint64_t seed);
	long (*propose)(void *st, size_t *out, size_t max);
	void (*observe)(void *st, size_t cfg, double time_ms);
	void (*free)(void *st);
	/* Optional (NULL: none): how many configurations the strategy's own
	 * method measures before it only extends it for a larger budget, when
	 * that is fixed before measuring (Liang's sets: ro's highest RO value,
	 * po's Pareto set); 0 for none.  `replay --budget own` stops there. */
	size_t (*planned)(void *st);
};

/* The strategies, best first within each kind (X(name)). */
#define GS_STRATEGIES(X)                                                                     \
	X(exhaustive)                                                                        \
	X(random)                                                                            \
	X(ils)                                                                               \
	X(anneal)                                                                            \
	X(po)                                                                                \
	X(ro)                                                                                \
	X(prior)                                                                             \
	X(pils)                                                                              \
	X(surrogate)

#define X(n) extern const struct gs_strategy_ops gs_strategy_##n;
GS_STRATEGIES(X)
#undef X

/* The table, in GS_STRATEGIES order, and lookup by name (NULL). */
const struct gs_strategy_ops *const *gs_strategy_table(size_t *n);
const struct gs_strategy_ops *gs_strategy_find(const char *name);

/* A running strategy: its ops and state, plus the bookkeeping every
 * strategy shares, so that a faulty one can never make the caller measure a
 * configuration twice or outside the space. */
struct gs_strategy {
	const struct gs_strategy_ops *ops;
	void *st;
	const struct gs_sspace *sp;
	uint8_t *seen; /* proposed or observed, per configuration */
	size_t nseen;
};
/* NULL when the strategy needs a prior and got none. */
struct gs_strategy *gs_strategy_new(const struct gs_strategy_ops *ops, const struct gs_sspace *sp,
				    const struct gs_prior *prior, uint64_t seed);
long gs_strategy_propose(struct gs_strategy *s, size_t *out, size_t max);
void gs_strategy_observe(struct gs_strategy *s, size_t cfg, double time_ms);
void gs_strategy_free(struct gs_strategy *s);
/* The strategy's own plan (see planned above); 0: none. */
size_t gs_strategy_planned(const struct gs_strategy *s);

#endif
