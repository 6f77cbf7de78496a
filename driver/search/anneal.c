/* anneal.c — simulated annealing over Hamming neighbours, re-annealed from
 * the best point (the restarts of dual annealing, on a discrete space).
 *
 * A random neighbour of the current point is measured and accepted when
 * faster, or when slower with probability exp(-d / T), d the difference of
 * the log times: a move 10% slower costs the same on a fast kernel as on a
 * slow one, so no constant depends on the kernel's time scale.  T falls
 * geometrically with each measurement, from GS_SA_T0 (a move twice as slow
 * accepted one time in ten) by GS_SA_DECAY; when it is cold, or when every
 * neighbour is known, the search re-anneals from the best point found.
 * Known results are walked through for free.  Kept beside `ils` because it
 * crosses ridges a first-improvement descent cannot, at the price of a
 * slower start. */
#include "search/strat.h"
#include "search/strategy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define GS_SA_T0 0.3
#define GS_SA_DECAY 0.98
#define GS_SA_COLD 0.01

struct sa {
	struct gs_track t;
	struct gs_rng rng;
	struct gs_pool pool;
	long cur, wait; /* current point; the neighbour being measured */
	double temp;
	size_t *nb;
};

static void *sa_new(const struct gs_sspace *sp, const struct gs_prior *prior, uint64_t seed)
{
	(void)prior;
	struct sa *s = gs_xcalloc(1, sizeof *s);
	gs_track_init(&s->t, sp);
	gs_rng_seed(&s->rng, seed);
	gs_pool_init(&s->pool, sp->n);
	s->cur = s->wait = -1;
	s->temp = GS_SA_T0;
	s->nb = gs_xmalloc((gs_sspace_max_neighbours(sp) + 1) * sizeof *s->nb);
	return s;
}

static int accept(struct sa *s, size_t to)
{
	double a = s->t.time[s->cur], b = s->t.time[to];
	if (!isfinite(b))
		return 0;
	if (b <= a)
		return 1;
	return gs_rng_unit(&s->rng) < exp(-(log(b) - log(a)) / s->temp);
}

static long sa_propose(void *st, size_t *out, size_t max)
{
	struct sa *s = st;
	struct gs_track *t = &s->t;
	(void)max; /* one at a time: each step depends on the last */
	if (s->wait >= 0)
		return 0;
	for (size_t guard = 0; guard < 4 * t->sp->n + 64; guard++) {
		if (s->cur < 0) {
			long c = t->best >= 0 && isfinite(t->time[t->best]) && t->ndone > 1
					 ? t->best
					 : gs_pool_draw(&s->pool, &s->rng, t);
			if (c < 0)
				break;
			if (t->state[c] == GS_T_DONE) {
				s->cur = c;
				continue;
			}
			gs_track_propose(t, (size_t)c);
			s->wait = c;
			out[0] = (size_t)c;
			return 1;
		}
		size_t nn = gs_sspace_neighbours(t->sp, (size_t)s->cur, GS_NB_HAMMING, s->nb,
						 gs_sspace_max_neighbours(t->sp));
		size_t nnew = 0;
		for (size_t i = 0; i < nn; i++)
			if (t->state[s->nb[i]] == GS_T_NEW)
				s->nb[nnew++] = s->nb[i];
		if (!nnew || s->temp < GS_SA_COLD) {
			/* re-anneal from the best; from a fresh point when the
			 * best has nothing new around it */
			s->temp = GS_SA_T0;
			if (!nnew && s->cur == t->best) {
				long c = gs_pool_draw(&s->pool, &s->rng, t);
				if (c < 0)
					break;
				gs_track_propose(t, (size_t)c);
				s->wait = c;
				s->cur = -1;
				out[0] = (size_t)c;
				return 1;
			}
			s->cur = t->best;
			continue;
		}
		size_t c = s->nb[gs_rng_below(&s->rng, nnew)];
		gs_track_propose(t, c);
		s->wait = (long)c;
		out[0] = c;
		return 1;
	}
	return t->npending ? 0 : GS_SEARCH_EXHAUSTED;
}

static void sa_observe(void *st, size_t cfg, double time_ms)
{
	struct sa *s = st;
	gs_track_observe(&s->t, cfg, time_ms);
	if ((long)cfg != s->wait)
		return;
	s->wait = -1;
	if (s->cur < 0) {
		if (isfinite(s->t.time[cfg]))
			s->cur = (long)cfg;
		return;
	}
	if (accept(s, cfg))
		s->cur = (long)cfg;
	s->temp *= GS_SA_DECAY;
}

static void sa_free(void *st)
{
	struct sa *s = st;
	gs_track_release(&s->t);
	gs_pool_release(&s->pool);
	free(s->nb);
	free(s);
}

const struct gs_strategy_ops gs_strategy_anneal = {
	"anneal", "simulated annealing over Hamming neighbours, re-annealed from the best", GS_PRIOR_IGNORED,
	sa_new, sa_propose, sa_observe, sa_free, NULL,
};
