/* exhaustive.c — every configuration in enumeration order: the default,
 * and what every other strategy is measured against. */
#include "search/strat.h"
#include "search/strategy.h"

#include <stdlib.h>

#include "util/util.h"

struct ex {
	struct gs_track t; /* first: gs_track_observe_op reads it */
	size_t next;
};

static void *ex_new(const struct gs_sspace *sp, const struct gs_prior *prior, uint64_t seed)
{
	(void)prior;
	(void)seed;
	struct ex *e = gs_xcalloc(1, sizeof *e);
	gs_track_init(&e->t, sp);
	return e;
}

static long ex_propose(void *st, size_t *out, size_t max)
{
	struct ex *e = st;
	return gs_track_take(&e->t, NULL, &e->next, out, max);
}

static void ex_free(void *st)
{
	struct ex *e = st;
	gs_track_release(&e->t);
	free(e);
}

const struct gs_strategy_ops gs_strategy_exhaustive = {
	"exhaustive", "every configuration in enumeration order", GS_PRIOR_IGNORED,
	ex_new, ex_propose, gs_track_observe_op, ex_free, NULL,
};
