/* ils.h — the iterated local search engine that `ils`, `pils` and the
 * fallback of `prior` share.  Internal to driver/search/.
 *
 * A first-improvement descent over Hamming neighbours (configurations that
 * differ in one parameter): the neighbours of the current point are tried
 * one by one; the first that is faster becomes the current point.  At a
 * local optimum (every neighbour measured, none faster) the search perturbs
 * the best point found with a random walk of a few Hamming steps and
 * descends again; after GS_ILS_RESTART local optima in a row that did not
 * improve on the best, it restarts from a fresh point.  Results already
 * known cost nothing: the descent moves through them for free.
 *
 * Guided by a prior, neighbours are tried in the prior's order and fresh
 * points are taken in the prior's order; unguided, both are uniform
 * random.  With unguide_at_optimum, the guide is dropped at the first local
 * optimum.  Balanced (the `ils` strategy), the unguided neighbours are
 * tried round-robin over the parameters (at most GS_ILS_NBCAP untried
 * values of a knob at each point), the descent moves only for a gain
 * above GS_ILS_TIE, and the first descent starts from the best of nwarm
 * random draws, spread over the space (each the farthest of GS_ILS_SPREAD
 * candidates from those before it). */
#ifndef GS_SEARCH_ILS_H
#define GS_SEARCH_ILS_H

#include "search/strat.h"

#define GS_ILS_RESTART 5
#define GS_ILS_TIE 0.01
#define GS_ILS_SPREAD 8
#define GS_ILS_NBCAP 8

struct gs_ils {
	struct gs_track t;
	struct gs_rng rng;
	struct gs_pool pool;
	const struct gs_prior *guide; /* NULL: unguided */
	size_t *order, next_order;    /* guided: configurations by prediction */
	double *key;                  /* guided: scratch, the neighbours' sort keys */
	long cur, start;              /* current point; a start waiting for its result */
	size_t *nb, nnb, nbpos;       /* the current point's neighbours, in try order */
	size_t stale;                 /* local optima since the best improved */
	long best_seen;               /* the best at the last local optimum */
	int started;
	int unguide_at_optimum;       /* guided: only the first descent */
	int balanced;                 /* unguided: neighbours round-robin over parameters */
	size_t nwarm, warm;           /* random draws before the first descent; drawn */
	size_t *warmed;               /* those drawn, nwarm of them (owned) */
};

void gs_ils_init(struct gs_ils *s, const struct gs_sspace *sp, const struct gs_prior *guide,
		 uint64_t seed);
/* Unguided and balanced, with one warm draw per parameter that has a
 * choice: the engine as the `ils` strategy runs it. */
void gs_ils_init_balanced(struct gs_ils *s, const struct gs_sspace *sp, uint64_t seed);
void gs_ils_release(struct gs_ils *s);
long gs_ils_propose(struct gs_ils *s, size_t *out, size_t max);
void gs_ils_observe(struct gs_ils *s, size_t cfg, double time_ms);
/* The guide's predictions changed: order the neighbours not yet tried
 * again. */
void gs_ils_resort(struct gs_ils *s);
/* The prior disagrees with the measurements: go on unguided. */
void gs_ils_unguide(struct gs_ils *s);

#endif
