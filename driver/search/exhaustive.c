/* exhaustive.c — every configuration in enumeration order: the default,
 * and what every other strategy is measured against. */
#include "search/strat.h"
#include "search/strategy.h"

static void *ex_new(const struct gs_sspace *sp, const struct gs_prior *prior, uint64_t seed)
{
	(void)prior;
	(void)seed;
	return gs_fixed_new(sp);
}

const struct gs_strategy_ops gs_strategy_exhaustive = {
	"exhaustive", "every configuration in enumeration order", GS_PRIOR_IGNORED,
	ex_new, gs_fixed_propose_op, gs_track_observe_op, gs_fixed_free_op, NULL,
};
