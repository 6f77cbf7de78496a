/* random.c — uniform random sampling without replacement: the baseline of
 * the autotuning-methodology score, and a fair strategy for spaces with no
 * structure to exploit. */
#include "search/strat.h"
#include "search/strategy.h"

#include <stdlib.h>

#include "util/util.h"

struct rnd {
	struct gs_track t; /* first: gs_track_observe_op reads it */
	struct gs_pool pool;
	struct gs_rng rng;
};

static void *rnd_new(const struct gs_sspace *sp, const struct gs_prior *prior, uint64_t seed)
{
	(void)prior;
	struct rnd *r = gs_xcalloc(1, sizeof *r);
	gs_track_init(&r->t, sp);
	gs_pool_init(&r->pool, sp->n);
	gs_rng_seed(&r->rng, seed);
	return r;
}

static long rnd_propose(void *st, size_t *out, size_t max)
{
	struct rnd *r = st;
	size_t k = 0;
	long c;
	while (k < max && (c = gs_pool_draw(&r->pool, &r->rng, &r->t)) >= 0) {
		gs_track_propose(&r->t, (size_t)c);
		out[k++] = (size_t)c;
	}
	return k ? (long)k : r->t.npending ? 0 : GS_SEARCH_EXHAUSTED;
}

static void rnd_free(void *st)
{
	struct rnd *r = st;
	gs_track_release(&r->t);
	gs_pool_release(&r->pool);
	free(r);
}

const struct gs_strategy_ops gs_strategy_random = {
	"random", "uniform random sampling without replacement", GS_PRIOR_IGNORED,
	rnd_new, rnd_propose, gs_track_observe_op, rnd_free, NULL,
};
