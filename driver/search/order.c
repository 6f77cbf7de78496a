/* order.c — the `prior` strategy: measure in the prior's order (fastest
 * predicted first; configurations it cannot predict last), and fall back to
 * `ils` when the prior disagrees with the device.
 *
 * The rule (the same as pils.c's): the contrast test of strat.h
 * (gs_pcheck: three probes from the prior's slower half against the first
 * six picks, taken once); when the prior disagrees the search continues as
 * greedy iterated local search from the best point measured so far,
 * nothing measured again.  The test catches a prior wrong about the space
 * as a whole, not one that ranks the space right but misplaces its
 * optimum: `prior` is the literal order, and pils.c the safer use. */
#include "search/ils.h"
#include "search/strategy.h"

#include <math.h>
#include <stdlib.h>

#include "util/util.h"

struct ord {
	struct gs_ils e; /* tracks everything; proposes only after a fallback */
	const struct gs_prior *prior;
	size_t *order, next;
	struct gs_pcheck check;
	int fallback;
};

static void *ord_new(const struct gs_sspace *sp, const struct gs_prior *prior, uint64_t seed)
{
	struct ord *o = gs_xcalloc(1, sizeof *o);
	gs_ils_init(&o->e, sp, NULL, seed);
	o->prior = prior;
	o->order = gs_prior_order(prior);
	gs_pcheck_init(&o->check, prior, &o->e.rng);
	return o;
}

static long ord_propose(void *st, size_t *out, size_t max)
{
	struct ord *o = st;
	if (o->fallback)
		return gs_ils_propose(&o->e, out, max);
	struct gs_track *t = &o->e.t;
	size_t k = 0;
	while (k < max) {
		long c = gs_pcheck_probe(&o->check, t);
		if (c >= 0) {
			out[k++] = (size_t)c;
			continue;
		}
		while (c < 0 && o->next < t->sp->n) {
			size_t n = o->order[o->next++];
			if (t->state[n] == GS_T_NEW)
				c = (long)n;
		}
		if (c < 0)
			break;
		gs_track_propose(t, (size_t)c);
		gs_pcheck_picked(&o->check, (size_t)c);
		out[k++] = (size_t)c;
	}
	return k ? (long)k : t->npending ? 0 : GS_SEARCH_EXHAUSTED;
}

static void ord_observe(void *st, size_t cfg, double time_ms)
{
	struct ord *o = st;
	gs_ils_observe(&o->e, cfg, time_ms);
	if (gs_pcheck_update(&o->check, &o->e.t))
		o->fallback = 1;
}

static void ord_free(void *st)
{
	struct ord *o = st;
	gs_ils_release(&o->e);
	free(o->order);
	gs_pcheck_release(&o->check);
	free(o);
}

const struct gs_strategy_ops gs_strategy_prior = {
	"prior", "in the prior's order; plain ils when the prior disagrees", GS_PRIOR_NEEDED,
	ord_new, ord_propose, ord_observe, ord_free, NULL,
};
