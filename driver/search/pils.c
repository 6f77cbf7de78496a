/* pils.c — prior-guided iterated local search: the ILS engine (ils.h)
 * started from the prior's best configuration, trying neighbours in the
 * prior's order and restarting from the prior's next best.
 *
 * Why: a prior from a similar device ranks the space well but not exactly
 * (the optimum of one GPU is rarely the optimum of another, but it is
 * usually a few knob changes away).  Measuring in the prior's order alone
 * wastes evaluations on the prior's near-ties far from the true optimum;
 * descending from the prior's best through the neighbours the prior likes
 * most reaches the optimum's basin at once and refines it.
 *
 * A prior that disagrees with the device (another vendor) must cost little:
 * among its first evaluations, every third is a uniform random probe, and
 * as soon as GS_PRIOR_CHECK_MIN measured configurations have a prediction,
 * Spearman's rank correlation between predicted and measured times is
 * taken; below GS_PRIOR_CHECK_RHO the prior is dropped and the search goes
 * on as plain `ils`, keeping everything measured.  The probes give the test
 * a spread of good and bad configurations, without which a good prior's
 * near-ties would look uncorrelated. */
#include "search/ils.h"
#include "search/strategy.h"

#include <stdlib.h>

#include "util/util.h"

struct pils {
	struct gs_ils e;
	const struct gs_prior *prior;
	int decided; /* the prior was tested */
	size_t asked;
};

static void *pils_new(const struct gs_sspace *sp, const struct gs_prior *prior, uint64_t seed)
{
	struct pils *p = gs_xcalloc(1, sizeof *p);
	gs_ils_init(&p->e, sp, prior, seed);
	p->prior = prior;
	return p;
}

/* The random probes that make the prior's test fair (see above). */
static long probe(struct gs_ils *e, struct gs_rng *r, size_t *out)
{
	long c = gs_pool_draw(&e->pool, r, &e->t);
	if (c < 0)
		return 0;
	gs_track_propose(&e->t, (size_t)c);
	out[0] = (size_t)c;
	return 1;
}

static long pils_propose(void *st, size_t *out, size_t max)
{
	struct pils *p = st;
	size_t k = 0;
	while (k < max) {
		long got;
		if (!p->decided && p->asked % 3 == 2)
			got = probe(&p->e, &p->e.rng, out + k);
		else
			got = gs_ils_propose(&p->e, out + k, 1);
		if (got <= 0)
			return k ? (long)k : got;
		p->asked++;
		k++;
	}
	return (long)k;
}

static void pils_observe(void *st, size_t cfg, double time_ms)
{
	struct pils *p = st;
	gs_ils_observe(&p->e, cfg, time_ms);
	if (!p->decided) {
		int a = gs_prior_agrees(p->prior, &p->e.t);
		if (a >= 0)
			p->decided = 1;
		if (a == 0)
			gs_ils_unguide(&p->e);
	}
}

static void pils_free(void *st)
{
	struct pils *p = st;
	gs_ils_release(&p->e);
	free(p);
}

const struct gs_strategy_ops gs_strategy_pils = {
	"pils", "local search from the prior's best, neighbours in the prior's order", GS_PRIOR_NEEDED,
	pils_new, pils_propose, pils_observe, pils_free,
};
