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

/* Average ranks (1-based) of v[0..n), ties sharing their mean rank. */
static void ranks(const double *v, size_t n, double *rank)
{
	size_t *o = gs_xmalloc(n * sizeof *o);
	for (size_t i = 0; i < n; i++)
		o[i] = i;
	gs_sort_by(o, n, v);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && v[o[j + 1]] == v[o[i]])
			j++;
		for (size_t k = i; k <= j; k++)
			rank[o[k]] = (double)(i + j) / 2.0 + 1.0;
		i = j + 1;
	}
	free(o);
}

int gs_prior_agrees(const struct gs_prior *p, const struct gs_track *t)
{
	size_t n = 0;
	double *a = gs_xmalloc((t->ndone + 1) * sizeof *a), *b = gs_xmalloc((t->ndone + 1) * sizeof *b);
	for (size_t c = 0; c < t->sp->n; c++)
		if (t->state[c] == GS_T_DONE && !isnan(p->time_ms[c])) {
			/* failures rank last: a large finite stand-in keeps ties */
			a[n] = isinf(p->time_ms[c]) ? HUGE_VAL : p->time_ms[c];
			b[n] = isinf(t->time[c]) ? HUGE_VAL : t->time[c];
			n++;
		}
	int rc = -1;
	if (n >= GS_PRIOR_CHECK_MIN) {
		double *ra = gs_xmalloc(n * sizeof *ra), *rb = gs_xmalloc(n * sizeof *rb);
		ranks(a, n, ra);
		ranks(b, n, rb);
		double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
		for (size_t i = 0; i < n; i++) {
			ma += ra[i];
			mb += rb[i];
		}
		ma /= (double)n;
		mb /= (double)n;
		for (size_t i = 0; i < n; i++) {
			sab += (ra[i] - ma) * (rb[i] - mb);
			saa += (ra[i] - ma) * (ra[i] - ma);
			sbb += (rb[i] - mb) * (rb[i] - mb);
		}
		double rho = saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0.0;
		rc = rho >= GS_PRIOR_CHECK_RHO;
		free(ra);
		free(rb);
	}
	free(a);
	free(b);
	return rc;
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

void gs_strategy_free(struct gs_strategy *s)
{
	if (!s)
		return;
	s->ops->free(s->st);
	free(s->seen);
	free(s);
}
