/* pils.c — prior-guided iterated local search: the prior's GS_PILS_TOP
 * favourites are measured, then the ILS engine (ils.h) descends from the
 * best of them through its Hamming neighbours in the order of the prior
 * corrected by what is measured (surrogate.c's model, refit after each
 * result: fastest predicted first; those it predicts within 1% of the
 * current point, a knob that device did not care about, last); at the
 * first local optimum the prior has said what it can, and the search goes
 * on as two `ils` chains that share every result: the prior's, from the
 * best it found, and a hedge, `ils` as it would run without a prior.
 *
 * Why: a prior from a similar device ranks the space well but not exactly
 * -- the optimum of one GPU is rarely the other's, but it is usually a few
 * knob changes away (on Kernel Tuner's GEMM caches, 2 to 4 from the other
 * GPU's best).  Measuring in the prior's order wastes evaluations on the
 * prior's near-ties far from the true optimum; one descent from the prior's
 * best through the neighbours it likes most reaches the optimum's basin at
 * once.  Past that descent, trusting the prior longer was measured to cost
 * more than it gains whenever the prior misleads in the details (another
 * vendor; or the same vendor with another memory system).
 *
 * Why the hedge: a prior from another vendor often leads to a good basin
 * that is not the optimum's (on dedispersion, within 5% of the W7800's
 * optimum after 8 evaluations from the A100's cache, and no nearer after
 * 100); `ils` from the best point measured stays in that basin, perturbing
 * its best, for as long as `ils` without a prior needs to find the right
 * one from random draws.  The hedge is that search, with its own state from
 * its own random start -- not from the prior's basin -- so once the prior's
 * descent is over the prior can cost no more than what the hedge cedes to
 * the prior's chain: each proposal goes to the chain that has gone fewer of
 * its own evaluations without improving its own best (ties alternate), so
 * a chain that is stuck yields to one that is making progress, and a result
 * either finds is free to the other.
 *
 * A prior that is plainly wrong must cost little: the contrast test of
 * strat.h (GS_PCHECK_PROBES probes from the prior's slower half against the
 * first picks) drops it even before the first descent ends, and the search
 * goes on as a single `ils` from the best point measured. */
#include "search/ils.h"
#include "search/strategy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The prior's favourites measured before the descent starts from the best
 * of them: a prior's first choice is often one of a few near-ties, and
 * on a small space or a close device one of them is the optimum. */
#define GS_PILS_TOP 3

/* The two chains after the descent: the prior's (the engine e) and the
 * hedge (u). */
enum { PILS_PRIOR, PILS_HEDGE };

struct pils {
	struct gs_ils e;       /* the prior's chain; records every result */
	struct gs_ils u;       /* the hedge: told only of what it proposed */
	uint8_t *owner;        /* per configuration: the chain that proposed it */
	double best[2];        /* per chain: the best of its own results */
	size_t stale[2];       /* per chain: its results since that improved */
	size_t turn;           /* alternates ties */
	struct gs_pcheck check;
	size_t top;
	struct gs_model *m;    /* the prior corrected by what is measured */
	struct gs_prior guide; /* its predictions, what the descent follows */
};


static void *pils_new(const struct gs_sspace *sp, const struct gs_prior *prior, uint64_t seed)
{
	struct pils *p = gs_xcalloc(1, sizeof *p);
	gs_prior_init(&p->guide, prior->name, sp->n);
	memcpy(p->guide.time_ms, prior->time_ms, sp->n * sizeof *p->guide.time_ms);
	p->guide.known = prior->known;
	p->m = gs_model_new(sp, prior);
	gs_ils_init(&p->e, sp, &p->guide, seed);
	p->e.unguide_at_optimum = 1;
	gs_pcheck_init(&p->check, prior, &p->e.rng);
	/* the hedge is the `ils` strategy, its own seed drawn from the
	 * search's */
	gs_ils_init_balanced(&p->u, sp, seed ^ 0x9e3779b97f4a7c15ull);
	p->owner = gs_xcalloc(sp->n ? sp->n : 1, 1);
	p->best[PILS_PRIOR] = p->best[PILS_HEDGE] = INFINITY;
	return p;
}

/* Whether the next proposal is the hedge's: only once the prior's descent
 * is over (and the prior still trusted: a prior dropped by the contrast
 * test leaves one `ils`), and then when the prior's chain has gone longer
 * without improving than the hedge. */
static int hedge_turn(struct pils *p)
{
	if (p->e.guide || p->check.verdict == 0)
		return 0;
	size_t a = p->stale[PILS_PRIOR], b = p->stale[PILS_HEDGE];
	return b < a || (b == a && p->turn++ % 2);
}

/* The hedge's next proposal, marked proposed in the shared record; what is
 * measured already is told to it for free.  -1: none now (it waits, or
 * has nothing left). */
static long hedge_propose(struct pils *p)
{
	struct gs_track *t = &p->e.t;
	for (size_t guard = 0; guard < 4 * t->sp->n + 64; guard++) {
		size_t c;
		if (gs_ils_propose(&p->u, &c, 1) <= 0)
			return -1;
		if (t->state[c] == GS_T_DONE) {
			gs_ils_observe(&p->u, c, t->time[c]);
			continue;
		}
		if (t->state[c] == GS_T_PENDING)
			continue; /* the prior's chain measures it: told on arrival */
		gs_track_propose(t, c);
		p->owner[c] = PILS_HEDGE;
		return (long)c;
	}
	return -1;
}

static long pils_propose(void *st, size_t *out, size_t max)
{
	struct pils *p = st;
	size_t k = 0;
	while (k < max) {
		long c = gs_pcheck_probe(&p->check, &p->e.t);
		if (c >= 0) {
			out[k++] = (size_t)c;
			continue;
		}
		long got;
		if (hedge_turn(p)) {
			long h = hedge_propose(p);
			if (h >= 0) {
				out[k++] = (size_t)h;
				continue;
			}
		}
		/* without its guide the engine is `ils`, the best search
		 * without a prior, seeded with everything measured */
		if (!p->e.guide)
			p->e.balanced = 1;
		if (p->top < GS_PILS_TOP && p->e.next_order < p->e.t.sp->n &&
		    !isnan(p->e.guide ? p->e.guide->time_ms[p->e.order[p->e.next_order]] : NAN)) {
			size_t c = p->e.order[p->e.next_order++];
			p->top++;
			if (p->e.t.state[c] != GS_T_NEW)
				continue;
			gs_track_propose(&p->e.t, c);
			out[k] = c;
			got = 1;
		} else {
			/* the descent starts from the best measured */
			if (p->top < GS_PILS_TOP)
				p->top = GS_PILS_TOP;
			if (p->e.t.npending && p->e.cur < 0 && !p->e.started)
				return k ? (long)k : 0;
			got = gs_ils_propose(&p->e, out + k, 1);
		}
		if (got <= 0)
			return k ? (long)k : got;
		gs_pcheck_picked(&p->check, out[k]);
		k++;
	}
	return (long)k;
}

static void pils_observe(void *st, size_t cfg, double time_ms)
{
	struct pils *p = st;
	gs_ils_observe(&p->e, cfg, time_ms);
	if (p->u.t.state[cfg] == GS_T_PENDING)
		gs_ils_observe(&p->u, cfg, time_ms);
	int w = p->owner[cfg];
	if (time_ms < p->best[w]) {
		p->best[w] = time_ms;
		p->stale[w] = 0;
	} else {
		p->stale[w]++;
	}
	if (gs_pcheck_update(&p->check, &p->e.t)) {
		p->e.balanced = 1;
		gs_ils_unguide(&p->e);
	}
	if (p->m && p->e.guide) {
		gs_model_fit(p->m, &p->e.t);
		const double *pred = gs_model_pred(p->m);
		for (size_t i = 0; i < p->guide.n; i++)
			if (!isnan(p->guide.time_ms[i]))
				p->guide.time_ms[i] = exp(pred[i]);
		gs_ils_resort(&p->e);
	}
}

static void pils_free(void *st)
{
	struct pils *p = st;
	gs_ils_release(&p->e);
	gs_ils_release(&p->u);
	free(p->owner);
	gs_pcheck_release(&p->check);
	gs_model_free(p->m);
	gs_prior_release(&p->guide);
	free(p);
}

const struct gs_strategy_ops gs_strategy_pils = {
	"pils", "the prior's favourites, one descent in the corrected prior's order, then ils with a hedge", GS_PRIOR_NEEDED,
	pils_new, pils_propose, pils_observe, pils_free, NULL,
};
