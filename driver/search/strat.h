/* strat.h — what the strategies of this folder share: a seeded random
 * generator, a per-configuration record of what was proposed and measured,
 * draws without replacement, and the test that tells whether a prior agrees
 * with the measurements.  Internal to driver/search/. */
#ifndef GS_SEARCH_STRAT_H
#define GS_SEARCH_STRAT_H

#include <stddef.h>
#include <stdint.h>

#include "search/prior.h"
#include "search/space.h"

/* xoshiro256** seeded through splitmix64: the same seed gives the same
 * search on every machine. */
struct gs_rng {
	uint64_t s[4];
};
void gs_rng_seed(struct gs_rng *r, uint64_t seed);
uint64_t gs_rng_next(struct gs_rng *r);
size_t gs_rng_below(struct gs_rng *r, size_t n); /* 0..n-1, n > 0 */
double gs_rng_unit(struct gs_rng *r);            /* [0, 1) */
void gs_rng_shuffle(struct gs_rng *r, size_t *a, size_t n);

/* Per configuration: NEW, PENDING (proposed, no result yet) or DONE. */
enum { GS_T_NEW, GS_T_PENDING, GS_T_DONE };
struct gs_track {
	const struct gs_sspace *sp;
	uint8_t *state;
	double *time;      /* DONE: ms or INFINITY */
	size_t ndone, npending;
	long best;         /* the best DONE configuration, -1 none */
};
void gs_track_init(struct gs_track *t, const struct gs_sspace *sp);
void gs_track_release(struct gs_track *t);
/* Mark cfg proposed (must be NEW). */
void gs_track_propose(struct gs_track *t, size_t cfg);
/* Record a result; returns 1 when it is the new best. */
int gs_track_observe(struct gs_track *t, size_t cfg, double time_ms);

/* observe() of a strategy whose state begins with its gs_track and that
 * needs nothing more than the record. */
void gs_track_observe_op(void *st, size_t cfg, double time_ms);

/* The state of a strategy that follows a fixed order (exhaustive, ro, po):
 * its record, the order (NULL: enumeration order; freed with the state),
 * how far it has got, and its own plan (planned(); 0: none). */
struct gs_fixed {
	struct gs_track t; /* first: gs_track_observe_op reads it */
	size_t *order, next, plan;
};
struct gs_fixed *gs_fixed_new(const struct gs_sspace *sp);
/* propose(): up to max NEW configurations in the order, from next on. */
long gs_fixed_propose_op(void *st, size_t *out, size_t max);
void gs_fixed_free_op(void *st);
size_t gs_fixed_planned_op(void *st);

/* Uniform draws without replacement among the NEW configurations: a
 * permutation consumed lazily (Fisher-Yates one step per draw). */
struct gs_pool {
	size_t *perm, n, next;
};
void gs_pool_init(struct gs_pool *p, size_t n);
void gs_pool_release(struct gs_pool *p);
/* A NEW configuration of t, or -1 when none is left. */
long gs_pool_draw(struct gs_pool *p, struct gs_rng *r, const struct gs_track *t);

/* Does the prior agree with the device?  A contrast test that costs
 * GS_PCHECK_PROBES evaluations: early in the search, probes are measured
 * that the prior predicts slow (drawn at random from its slower half); once
 * they and GS_PCHECK_PICKS of the strategy's own picks are measured, the
 * prior agrees when a probe is slower than a pick in at least
 * GS_PCHECK_AGREE of the (probe, pick) pairs (a failure is slowest; ties
 * count half).  A prior that knows the device ranks its slow half far
 * behind its favourites; one that knows nothing puts them level (0.5).
 * Picks are the strategy's proposals that are not probes. */
#define GS_PCHECK_PROBES 3
#define GS_PCHECK_PICKS 6
#define GS_PCHECK_AGREE 0.75
struct gs_pcheck {
	const struct gs_prior *p;
	size_t *slow, nslow, next;
	size_t probe[GS_PCHECK_PROBES], nprobe;
	size_t *pick, npick;
	size_t asked;
	int verdict; /* -1 undecided, 0 disagrees, 1 agrees */
};
void gs_pcheck_init(struct gs_pcheck *c, const struct gs_prior *p, struct gs_rng *r);
void gs_pcheck_release(struct gs_pcheck *c);
/* Before each proposal: a probe to propose now (already marked proposed in
 * t), or -1 for the strategy's own pick. */
long gs_pcheck_probe(struct gs_pcheck *c, struct gs_track *t);
/* The strategy proposed its own pick cfg. */
void gs_pcheck_picked(struct gs_pcheck *c, size_t cfg);
/* After each observation: decide when the evidence is in.  Returns 1
 * exactly once, when the prior has just been found to disagree. */
int gs_pcheck_update(struct gs_pcheck *c, const struct gs_track *t);

/* The model of surrogate.c (see there): log time = c + a log(prior) + an
 * offset per parameter value, refit by gs_model_fit as results come. */
struct gs_model;
struct gs_model *gs_model_new(const struct gs_sspace *sp, const struct gs_prior *prior);
void gs_model_fit(struct gs_model *m, const struct gs_track *t);
const double *gs_model_pred(const struct gs_model *m); /* log ms per configuration */
void gs_model_free(struct gs_model *m);

/* Sort idx[0..n) by key[idx] ascending, NAN last, ties by index. */
void gs_sort_by(size_t *idx, size_t n, const double *key);

#endif
