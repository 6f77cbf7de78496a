/* ils.c — greedy iterated local search over Hamming neighbours.
 *
 * Why this one: on the published Kernel Tuner caches, Schoonhoven et al.
 * (2022) and the autotuning-methodology comparisons rank greedy iterated
 * local search and dual annealing best among black-box strategies.  Tuning
 * spaces are products of a few discrete knobs with mostly separable
 * effects: changing one knob at a time finds most of the gain, and the
 * occasional interaction (tile size with vector width) is what the
 * perturbation steps over.  The engine (see ils.h) is written here from the
 * idea, not from any tool's code. */
#include "search/ils.h"
#include "search/strategy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void gs_ils_init(struct gs_ils *s, const struct gs_sspace *sp, const struct gs_prior *guide,
		 uint64_t seed)
{
	memset(s, 0, sizeof *s);
	gs_track_init(&s->t, sp);
	gs_rng_seed(&s->rng, seed);
	gs_pool_init(&s->pool, sp->n);
	s->guide = guide;
	if (guide) {
		s->order = gs_prior_order(guide);
		s->key = gs_xmalloc((sp->n ? sp->n : 1) * sizeof *s->key);
	}
	s->cur = s->start = s->best_seen = -1;
	s->nb = gs_xmalloc((gs_sspace_max_neighbours(sp) + 1) * sizeof *s->nb);
}

void gs_ils_release(struct gs_ils *s)
{
	gs_track_release(&s->t);
	gs_pool_release(&s->pool);
	free(s->order);
	free(s->key);
	free(s->nb);
	free(s->warmed);
	memset(s, 0, sizeof *s);
}

static void set_current(struct gs_ils *s, size_t c);

void gs_ils_unguide(struct gs_ils *s)
{
	s->guide = NULL;
	struct gs_track *t = &s->t;
	if (s->cur >= 0 && t->best >= 0 && t->best != s->cur && isfinite(t->time[t->best])) {
		/* the descent the prior led goes nowhere better: go on from
		 * the best measured instead, as a fresh descent would */
		set_current(s, (size_t)t->best);
	} else if (s->cur >= 0) {
		/* the remaining neighbours in random order */
		gs_rng_shuffle(&s->rng, s->nb + s->nbpos, s->nnb - s->nbpos);
	}
}

void gs_ils_resort(struct gs_ils *s)
{
	if (s->guide && s->cur >= 0) {
		size_t c = (size_t)s->cur;
		/* by predicted gain; a neighbour the prior predicts within
		 * GS_ILS_TIE of the current point changes a knob that device
		 * did not care about, and is tried last */
		const double *p = s->guide->time_ms;
		double here = p[c];
		for (size_t i = s->nbpos; i < s->nnb; i++) {
			size_t n = s->nb[i];
			double r = isfinite(here) && here > 0 && p[n] > 0 ? log(p[n] / here) : p[n];
			if (isfinite(here) && fabs(r) < GS_ILS_TIE)
				r += 1e6;
			s->key[n] = r;
		}
		gs_sort_by(s->nb + s->nbpos, s->nnb - s->nbpos, s->key);
	}
}

/* Unguided, the neighbours in rounds: one per parameter (the parameters in
 * a random order), then a second one per parameter, and so on.  A uniform
 * shuffle would spend its tries in proportion to each parameter's number of
 * values, and the knob with many values is often one the kernel hardly
 * cares about (a block size among 31, next to a tile size that halves the
 * time): the descent would walk that knob's flat ridge first.
 *
 * For the same reason a point's neighbours keep at most GS_ILS_NBCAP
 * values of a knob not yet measured (a random choice; measured ones cost
 * nothing and all stay): to call a point a local optimum the descent
 * would otherwise measure every value of its widest knob, 30 evaluations
 * of a flat block size at each optimum, where the values left out are met
 * again from the next points and perturbations. */
static void interleave(struct gs_ils *s, size_t c)
{
	const struct gs_sspace *sp = s->t.sp;
	size_t np = sp->nparams, kept = 0;
	size_t *rank = gs_xcalloc(np ? np : 1, sizeof *rank);
	size_t *fresh = gs_xcalloc(np ? np : 1, sizeof *fresh);
	double *pos = gs_xmalloc((np ? np : 1) * sizeof *pos);
	for (size_t i = 0; i < np; i++)
		pos[i] = gs_rng_unit(&s->rng);
	const uint16_t *here = gs_sspace_tuple(sp, c);
	for (size_t i = 0; i < s->nnb; i++) {
		size_t n = s->nb[i], p = 0;
		const uint16_t *there = gs_sspace_tuple(sp, n);
		while (p + 1 < np && there[p] == here[p])
			p++;
		if (s->t.state[n] == GS_T_NEW && fresh[p]++ >= GS_ILS_NBCAP)
			continue;
		s->key[n] = (double)rank[p]++ + pos[p];
		s->nb[kept++] = n;
	}
	s->nnb = kept;
	gs_sort_by(s->nb, s->nnb, s->key);
	free(rank);
	free(fresh);
	free(pos);
}

static void set_current(struct gs_ils *s, size_t c)
{
	const struct gs_sspace *sp = s->t.sp;
	s->cur = (long)c;
	s->nnb = gs_sspace_neighbours(sp, c, GS_NB_HAMMING, s->nb, gs_sspace_max_neighbours(sp));
	s->nbpos = 0;
	gs_rng_shuffle(&s->rng, s->nb, s->nnb);
	if (s->balanced && !s->guide)
		interleave(s, c);
	gs_ils_resort(s);
}

/* Whether the descent moves from b to a.  Balanced, only for a gain of more
 * than GS_ILS_TIE: a smaller one is within a measurement's noise, and on a
 * knob the kernel hardly cares about each such move would cost a new round
 * over every other knob.  The best point is kept whatever the descent does. */
static int better(const struct gs_ils *s, size_t a, size_t b)
{
	double ta = s->t.time[a], tb = s->t.time[b];
	return s->balanced ? ta < tb * (1 - GS_ILS_TIE) : ta < tb;
}

/* A fresh point to descend from: the best known one first (results given
 * before the search began), then by the prior or at random.  -1: none. */
static long fresh(struct gs_ils *s)
{
	if (!s->started) {
		s->started = 1;
		if (s->t.best >= 0 && isfinite(s->t.time[s->t.best]))
			return s->t.best;
	}
	if (s->guide)
		while (s->next_order < s->t.sp->n) {
			size_t c = s->order[s->next_order++];
			if (isnan(s->guide->time_ms[c]))
				break; /* the prior knows no more: go on at random */
			if (s->t.state[c] == GS_T_NEW)
				return (long)c;
		}
	return gs_pool_draw(&s->pool, &s->rng, &s->t);
}

/* A random walk of a few Hamming steps from c over the parameters that
 * have a choice. */
static long perturb(struct gs_ils *s, size_t c)
{
	const struct gs_sspace *sp = s->t.sp;
	size_t np = sp->nparams, nvar = 0;
	for (size_t i = 0; i < np; i++)
		nvar += sp->params[i].nvalues > 1;
	if (!nvar)
		return -1;
	size_t steps = nvar / 3 > 2 ? nvar / 3 : 2;
	uint16_t *t = gs_xmalloc(np * sizeof *t);
	memcpy(t, gs_sspace_tuple(sp, c), np * sizeof *t);
	long at = (long)c;
	for (size_t k = 0; k < steps; k++)
		for (int tries = 0; tries < 32; tries++) {
			size_t i = gs_rng_below(&s->rng, np), nv = sp->params[i].nvalues;
			if (nv < 2)
				continue;
			uint16_t old = t[i];
			t[i] = (uint16_t)((old + 1 + gs_rng_below(&s->rng, nv - 1)) % nv);
			long n = gs_sspace_find(sp, t);
			if (n >= 0) {
				at = n;
				break;
			}
			t[i] = old;
		}
	free(t);
	return at == (long)c ? -1 : at;
}

/* A warm draw: of GS_ILS_SPREAD uniform candidates not measured, the one
 * farthest in Hamming distance from the warm draws before it (the nearest
 * of them), first found on ties.  Why: the first descent starts from the
 * best of the warm draws, and uniform draws often repeat each other's knob
 * values, a wasted look at the space where a budget is a few hundred
 * evaluations; a maximin design spreads them, as Bayesian optimisers seed
 * their models.  Measured on 18 published caches (results/search/README.md):
 * the methodology's mean score 0.455 -> 0.521, 0.491 with 4 candidates and
 * 0.552 with 16. */
static long spread_draw(struct gs_ils *s)
{
	struct gs_track *t = &s->t;
	const struct gs_sspace *sp = t->sp;
	if (!s->warm || !sp->n)
		return gs_pool_draw(&s->pool, &s->rng, t);
	long best = -1;
	size_t bestd = 0;
	for (int k = 0; k < GS_ILS_SPREAD; k++) {
		size_t c = gs_rng_below(&s->rng, sp->n);
		if (t->state[c] != GS_T_NEW)
			continue;
		const uint16_t *a = gs_sspace_tuple(sp, c);
		size_t dmin = SIZE_MAX;
		for (size_t i = 0; i < s->warm; i++) {
			const uint16_t *b = gs_sspace_tuple(sp, s->warmed[i]);
			size_t d = 0;
			for (size_t p = 0; p < sp->nparams; p++)
				d += a[p] != b[p];
			if (d < dmin)
				dmin = d;
		}
		if (best < 0 || dmin > bestd)
			best = (long)c, bestd = dmin;
	}
	return best >= 0 ? best : gs_pool_draw(&s->pool, &s->rng, t);
}

long gs_ils_propose(struct gs_ils *s, size_t *out, size_t max)
{
	struct gs_track *t = &s->t;
	size_t k = 0;
	if (s->nwarm) {
		/* the random start: a few uniform draws, then descend from
		 * the best of them */
		while (k < max && s->warm < s->nwarm) {
			long c = spread_draw(s);
			if (c < 0) {
				s->warm = s->nwarm;
				break;
			}
			if (!s->warmed)
				s->warmed = gs_xmalloc(s->nwarm * sizeof *s->warmed);
			s->warmed[s->warm++] = (size_t)c;
			if (t->state[c] != GS_T_NEW)
				continue;
			gs_track_propose(t, (size_t)c);
			out[k++] = (size_t)c;
		}
		if (k)
			return (long)k;
		if (t->npending)
			return 0;
		s->nwarm = 0;
		s->started = 1;
		if (t->best >= 0 && isfinite(t->time[t->best]))
			set_current(s, (size_t)t->best);
	}
	/* each pass either proposes, waits, or moves to a known point; moves
	 * through known points are bounded by the space */
	for (size_t guard = 0; k < max && guard < 4 * t->sp->n + 64; guard++) {
		if (s->cur < 0) {
			if (s->start >= 0)
				break;
			long c = fresh(s);
			if (c < 0)
				break;
			if (t->state[c] == GS_T_DONE) {
				if (isfinite(t->time[c]))
					set_current(s, (size_t)c);
				continue;
			}
			gs_track_propose(t, (size_t)c);
			s->start = c;
			out[k++] = (size_t)c;
			break;
		}
		int moved = 0;
		while (s->nbpos < s->nnb && k < max) {
			size_t n = s->nb[s->nbpos++];
			if (t->state[n] == GS_T_DONE) {
				if (better(s, n, (size_t)s->cur)) {
					set_current(s, n);
					moved = 1;
					break;
				}
				continue;
			}
			if (t->state[n] == GS_T_PENDING)
				continue;
			gs_track_propose(t, n);
			out[k++] = n;
		}
		if (moved)
			continue;
		if (s->nbpos < s->nnb || k >= max || t->npending)
			break;
		/* a local optimum: perturb the best, or restart */
		if (s->unguide_at_optimum)
			s->guide = NULL;
		if (s->best_seen >= 0 && t->best == s->best_seen)
			s->stale++;
		else
			s->stale = 0;
		s->best_seen = t->best;
		long c = s->stale < GS_ILS_RESTART && t->best >= 0 ? perturb(s, (size_t)t->best) : -1;
		if (c < 0) {
			s->stale = 0;
			s->cur = -1;
			continue;
		}
		if (t->state[c] == GS_T_DONE) {
			if (isfinite(t->time[c]))
				set_current(s, (size_t)c);
			else
				s->cur = -1;
			continue;
		}
		gs_track_propose(t, (size_t)c);
		s->start = c;
		s->cur = -1;
		out[k++] = (size_t)c;
		break;
	}
	if (k)
		return (long)k;
	return t->npending ? 0 : t->ndone >= t->sp->n ? GS_SEARCH_EXHAUSTED : 0;
}

void gs_ils_observe(struct gs_ils *s, size_t cfg, double time_ms)
{
	struct gs_track *t = &s->t;
	gs_track_observe(t, cfg, time_ms);
	if ((long)cfg == s->start) {
		s->start = -1;
		if (isfinite(t->time[cfg]))
			set_current(s, cfg);
		return;
	}
	if (s->cur >= 0 && better(s, cfg, (size_t)s->cur))
		set_current(s, cfg);
}

/* ---- the `ils` strategy -------------------------------------------------- */

void gs_ils_init_balanced(struct gs_ils *s, const struct gs_sspace *sp, uint64_t seed)
{
	gs_ils_init(s, sp, NULL, seed);
	s->balanced = 1;
	for (size_t i = 0; i < sp->nparams; i++)
		s->nwarm += sp->params[i].nvalues > 1;
	s->key = gs_xmalloc((sp->n ? sp->n : 1) * sizeof *s->key);
}

static void *ils_new(const struct gs_sspace *sp, const struct gs_prior *prior, uint64_t seed)
{
	(void)prior;
	struct gs_ils *s = gs_xmalloc(sizeof *s);
	gs_ils_init_balanced(s, sp, seed);
	return s;
}

static long ils_propose(void *st, size_t *out, size_t max)
{
	return gs_ils_propose(st, out, max);
}

static void ils_observe(void *st, size_t cfg, double time_ms)
{
	gs_ils_observe(st, cfg, time_ms);
}

static void ils_free(void *st)
{
	gs_ils_release(st);
	free(st);
}

const struct gs_strategy_ops gs_strategy_ils = {
	"ils", "greedy iterated local search over Hamming neighbours (no prior)", GS_PRIOR_IGNORED,
	ils_new, ils_propose, ils_observe, ils_free, NULL,
};
