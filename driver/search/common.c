/* common.c — what the strategies share (see strat.h) and the checked
 * wrapper every caller goes through (see strategy.h). */
#define _GNU_SOURCE /* qsort_r */
#include "search/strat.h"
#include "search/strategy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void gs_rng_seed(struct gs_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t gs_rng_next(struct gs_rng *r)
{
	uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

size_t gs_rng_below(struct gs_rng *r, size_t n)
{
	/* rejection keeps it unbiased */
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;
	do
		x = gs_rng_next(r);
	while (x >= lim);
	return (size_t)(x % n);
}

double gs_rng_unit(struct gs_rng *r)
{
	return (double)(gs_rng_next(r) >> 11) * 0x1.0p-53;
}

void gs_rng_shuffle(struct gs_rng *r, size_t *a, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = gs_rng_below(r, i), t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}

void gs_track_init(struct gs_track *t, const struct gs_sspace *sp)
{
	memset(t, 0, sizeof *t);
	t->sp = sp;
	t->state = gs_xcalloc(sp->n ? sp->n : 1, 1);
	t->time = gs_xmalloc((sp->n ? sp->n : 1) * sizeof *t->time);
	for (size_t i = 0; i < sp->n; i++)
		t->time[i] = NAN;
	t->best = -1;
}

void gs_track_release(struct gs_track *t)
{
	free(t->state);
	free(t->time);
	memset(t, 0, sizeof *t);
}

void gs_track_propose(struct gs_track *t, size_t cfg)
{
	if (t->state[cfg] == GS_T_NEW) {
		t->state[cfg] = GS_T_PENDING;
		t->npending++;
	}
}

int gs_track_observe(struct gs_track *t, size_t cfg, double time_ms)
{
	if (t->state[cfg] == GS_T_DONE)
		return 0;
	if (t->state[cfg] == GS_T_PENDING)
		t->npending--;
	t->state[cfg] = GS_T_DONE;
	t->time[cfg] = isnan(time_ms) ? INFINITY : time_ms;
	t->ndone++;
	if (t->best < 0 || t->time[cfg] < t->time[t->best]) {
		t->best = (long)cfg;
		return 1;
	}
	return 0;
}

void gs_track_observe_op(void *st, size_t cfg, double time_ms)
{
	gs_track_observe(st, cfg, time_ms);
}

struct gs_fixed *gs_fixed_new(const struct gs_sspace *sp)
{
	struct gs_fixed *f = gs_xcalloc(1, sizeof *f);
	gs_track_init(&f->t, sp);
	return f;
}

long gs_fixed_propose_op(void *st, size_t *out, size_t max)
{
	struct gs_fixed *f = st;
	struct gs_track *t = &f->t;
	size_t k = 0;
	while (k < max && f->next < t->sp->n) {
		size_t c = f->order ? f->order[f->next] : f->next;
		f->next++;
		if (t->state[c] != GS_T_NEW)
			continue;
		gs_track_propose(t, c);
		out[k++] = c;
	}
	return k ? (long)k : t->npending ? 0 : GS_SEARCH_EXHAUSTED;
}

void gs_fixed_free_op(void *st)
{
	struct gs_fixed *f = st;
	gs_track_release(&f->t);
	free(f->order);
	free(f);
}

size_t gs_fixed_planned_op(void *st)
{
	return ((struct gs_fixed *)st)->plan;
}

void gs_pool_init(struct gs_pool *p, size_t n)
{
	p->n = n;
	p->next = 0;
	p->perm = gs_xmalloc((n ? n : 1) * sizeof *p->perm);
	for (size_t i = 0; i < n; i++)
		p->perm[i] = i;
}

void gs_pool_release(struct gs_pool *p)
{
	free(p->perm);
	memset(p, 0, sizeof *p);
}

long gs_pool_draw(struct gs_pool *p, struct gs_rng *r, const struct gs_track *t)
{
	while (p->next < p->n) {
		size_t j = p->next + gs_rng_below(r, p->n - p->next), c = p->perm[j];
		p->perm[j] = p->perm[p->next];
		p->perm[p->next++] = c;
		if (t->state[c] == GS_T_NEW)
			return (long)c;
	}
	return -1;
}

static int by_key(const void *a, const void *b, void *arg)
{
	const double *key = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	double u = key[x], v = key[y];
	int nu = isnan(u), nv = isnan(v);
	if (nu != nv)
		return nu - nv;
	if (!nu && u != v)
		return u < v ? -1 : 1;
	return x < y ? -1 : x > y;
}

void gs_sort_by(size_t *idx, size_t n, const double *key)
{
	qsort_r(idx, n, sizeof *idx, by_key, (void *)key);
}

void gs_pcheck_init(struct gs_pcheck *c, const struct gs_prior *p, struct gs_rng *r)
{
	memset(c, 0, sizeof *c);
	c->p = p;
	c->verdict = -1;
	size_t *o = gs_prior_order(p), nk = 0;
	while (nk < p->n && !isnan(p->time_ms[o[nk]]))
		nk++;
	/* the slower half of the finite predictions */
	size_t nf = 0;
	while (nf < nk && isfinite(p->time_ms[o[nf]]))
		nf++;
	c->nslow = nf - nf / 2;
	c->slow = gs_xmalloc((c->nslow + 1) * sizeof *c->slow);
	memcpy(c->slow, o + nf / 2, c->nslow * sizeof *c->slow);
	gs_rng_shuffle(r, c->slow, c->nslow);
	free(o);
	c->pick = gs_xmalloc((GS_PCHECK_PICKS + 1) * sizeof *c->pick);
	if (c->nslow < GS_PCHECK_PROBES)
		c->verdict = 1; /* too small a space to test: trust it */
}

void gs_pcheck_release(struct gs_pcheck *c)
{
	free(c->slow);
	free(c->pick);
	memset(c, 0, sizeof *c);
}

long gs_pcheck_probe(struct gs_pcheck *c, struct gs_track *t)
{
	if (c->verdict >= 0 || c->nprobe >= GS_PCHECK_PROBES || c->asked++ % 3 != 2)
		return -1;
	while (c->next < c->nslow) {
		size_t s = c->slow[c->next++];
		if (t->state[s] == GS_T_NEW) {
			gs_track_propose(t, s);
			c->probe[c->nprobe++] = s;
			return (long)s;
		}
	}
	return -1;
}

void gs_pcheck_picked(struct gs_pcheck *c, size_t cfg)
{
	if (c->verdict < 0 && c->npick < GS_PCHECK_PICKS)
		c->pick[c->npick++] = cfg;
}

int gs_pcheck_update(struct gs_pcheck *c, const struct gs_track *t)
{
	if (c->verdict >= 0 || c->nprobe < GS_PCHECK_PROBES || c->npick < GS_PCHECK_PICKS)
		return 0;
	double wins = 0;
	for (size_t i = 0; i < c->nprobe; i++) {
		if (t->state[c->probe[i]] != GS_T_DONE)
			return 0;
		for (size_t j = 0; j < c->npick; j++) {
			if (t->state[c->pick[j]] != GS_T_DONE)
				return 0;
			double a = t->time[c->probe[i]], b = t->time[c->pick[j]];
			wins += a > b ? 1.0 : a == b ? 0.5 : 0.0;
		}
	}
	c->verdict = wins >= GS_PCHECK_AGREE * (double)(c->nprobe * c->npick);
	return !c->verdict;
}

/* ---- the table and the checked wrapper ---------------------------------- */

static const struct gs_strategy_ops *const table[] = {
#define X(n) &gs_strategy_##n,
	GS_STRATEGIES(X)
#undef X
};

const struct gs_strategy_ops *const *gs_strategy_table(size_t *n)
{
	*n = GS_ARRAY_SIZE(table);
	return table;
}

const struct gs_strategy_ops *gs_strategy_find(const char *name)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(table); i++)
		if (!strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

struct gs_strategy *gs_strategy_new(const struct gs_strategy_ops *ops, const struct gs_sspace *sp,
				    const struct gs_prior *prior, uint64_t seed)
{
	if (ops->prior == GS_PRIOR_NEEDED && !prior)
		return NULL;
	struct gs_strategy *s = gs_xcalloc(1, sizeof *s);
	s->ops = ops;
	s->sp = sp;
	s->seen = gs_xcalloc(sp->n ? sp->n : 1, 1);
	s->st = ops->new(sp, ops->prior == GS_PRIOR_IGNORED ? NULL : prior, seed);
	return s;
}

long gs_strategy_propose(struct gs_strategy *s, size_t *out, size_t max)
{
	if (s->nseen >= s->sp->n)
		return GS_SEARCH_EXHAUSTED;
	for (int round = 0; round < 64; round++) {
		long k = s->ops->propose(s->st, out, max);
		if (k <= 0)
			return k;
		/* keep only what is new: a strategy's slip never costs a
		 * measurement */
		size_t m = 0;
		for (long i = 0; i < k; i++)
			if (out[i] < s->sp->n && !s->seen[out[i]]) {
				s->seen[out[i]] = 1;
				s->nseen++;
				out[m++] = out[i];
			}
		if (m)
			return (long)m;
	}
	return 0;
}

void gs_strategy_observe(struct gs_strategy *s, size_t cfg, double time_ms)
{
	if (cfg >= s->sp->n)
		return;
	if (!s->seen[cfg]) {
		s->seen[cfg] = 1;
		s->nseen++;
	}
	s->ops->observe(s->st, cfg, time_ms);
}

size_t gs_strategy_planned(const struct gs_strategy *s)
{
	return s->ops->planned ? s->ops->planned(s->st) : 0;
}

void gs_strategy_free(struct gs_strategy *s)
{
	if (!s)
		return;
	s->ops->free(s->st);
	free(s->seen);
	free(s);
}
