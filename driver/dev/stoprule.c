/* stoprule.c — the stopping rule of stoprule.h.
 *
 * The interval of the median comes from order statistics (the sign test's
 * interval): the number of samples below the true median is
 * Binomial(n, 1/2) whatever the distribution, so [x(k), x(n+1-k)] covers it
 * with probability 1 - 2 P(B <= k-1).  That holds for the skewed, heavy-
 * tailed and occasionally bimodal times a GPU gives, where a t-interval of
 * the mean would not. */
#include "dev/stoprule.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

const struct gs_stop_policy gs_stop_default = {
	.precision = 0.01,
	.focus = 1.25,
	.max_time_s = 2.0,
	.min_samples = 3,
	.max_samples = 4096,
	.max_warmup = 20,
};

/* Walks P(Binomial(n, 1/2) <= j) for j = 0, 1, ...: the pmf by its
 * recurrence in logs (2^-n underflows past n = 1074), one term a step, so
 * that finding a rank costs O(rank), not O(rank^2). */
struct cdf_walk {
	size_t n, j;
	double lp, cdf;
};

static void walk_start(struct cdf_walk *w, size_t n)
{
	w->n = n;
	w->j = 0;
	w->lp = -(double)n * log(2.0);
	w->cdf = exp(w->lp);
}

static void walk_step(struct cdf_walk *w)
{
	w->j++;
	w->lp += log((double)(w->n - w->j + 1) / (double)w->j);
	w->cdf += exp(w->lp);
	if (w->cdf > 1)
		w->cdf = 1;
}

size_t gs_median_lower_k(size_t n, double conf)
{
	struct cdf_walk w;
	size_t k = 0;
	if (!n)
		return 0;
	/* k is allowed while P(B <= k-1) <= 1 - conf */
	for (walk_start(&w, n); w.cdf <= 1 - conf && k < n; walk_step(&w))
		k++;
	return k;
}

/* The largest k, at most n/2, whose two tails hold at most 1 - conf (1 when
 * none does: n < 6 at 95%), and the coverage of [x(k), x(n+1-k)]. */
static size_t two_sided_k(size_t n, double conf, double *coverage)
{
	struct cdf_walk w;
	size_t k = 1;
	walk_start(&w, n);
	double tail = w.cdf; /* P(B <= k-1) */
	while (k + 1 <= n / 2) {
		walk_step(&w);
		if (2 * w.cdf > 1 - conf)
			break;
		tail = w.cdf;
		k++;
	}
	if (coverage)
		*coverage = n ? 1 - 2 * tail : 0;
	return k;
}

static int cmp_ms(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

void gs_median_ci(const double *samples, size_t n, double conf, struct gs_median_ci *ci)
{
	memset(ci, 0, sizeof *ci);
	ci->n = n;
	if (!n) {
		ci->median = ci->lo = ci->hi = ci->half_pct = NAN;
		return;
	}
	double *x = gs_xmalloc(n * sizeof *x);
	memcpy(x, samples, n * sizeof *x);
	qsort(x, n, sizeof *x, cmp_ms);
	ci->median = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
	size_t k = two_sided_k(n, conf, &ci->coverage);
	if (ci->coverage < 0)
		ci->coverage = 0;
	ci->lo = x[k - 1];
	ci->hi = x[n - k];
	double d = ci->median - ci->lo > ci->hi - ci->median ? ci->median - ci->lo
							     : ci->hi - ci->median;
	ci->half_pct = ci->median > 0 ? 100 * d / ci->median : d > 0 ? INFINITY : 0;
	free(x);
}

void gs_timing_init(struct gs_timing *t, unsigned batch)
{
	memset(t, 0, sizeof *t);
	t->batch = batch ? batch : 1;
}

void gs_timing_release(struct gs_timing *t)
{
	free(t->runs);
	memset(t, 0, sizeof *t);
}

static void push(struct gs_timing *t, double ms)
{
	gs_grow(&t->runs, &t->cap, t->n + 1, sizeof *t->runs);
	t->runs[t->n++] = ms;
}

void gs_timing_first(struct gs_timing *t, double run_ms)
{
	push(t, run_ms);
	t->warm = 1;
}

void gs_timing_add(struct gs_timing *t, double run_ms)
{
	push(t, run_ms);
	t->work_ms += run_ms * t->batch;
}

const double *gs_timing_samples(const struct gs_timing *t, size_t *n)
{
	*n = t->n > t->warm ? t->n - t->warm : 0;
	return t->runs + t->warm;
}

/* The fewest samples whose median has a two-sided 95% interval (6). */
static size_t n_for_95(void)
{
	static size_t n;
	if (!n) {
		double cov = 0;
		for (n = 2; two_sided_k(n, 0.95, &cov), cov < 0.95; n++)
			;
	}
	return n;
}

/* more samples of sample_ms each, cut to the timed work and the samples
 * the caps leave (at least one: the cap itself then ends it) */
static size_t within_caps(const struct gs_timing *t, const struct gs_stop_policy *p,
			  double sample_ms, size_t ns, size_t more)
{
	if (sample_ms > 0) {
		double left = (p->max_time_s * 1e3 - t->work_ms) / sample_ms;
		if (left < (double)more)
			more = left >= 1 ? (size_t)left : 1;
	}
	return more > p->max_samples - ns ? p->max_samples - ns : more;
}

/* Warm-up ends at the first run that the next one does not undercut by
 * more than the precision asked: a fall smaller than that is noise. */
static void settle_warmup(struct gs_timing *t, const struct gs_stop_policy *p)
{
	while (!t->warm_done && t->warm + 1 < t->n) {
		if (t->warm >= p->max_warmup ||
		    !(t->runs[t->warm + 1] < t->runs[t->warm] * (1 - p->precision)))
			t->warm_done = 1;
		else
			t->warm++;
	}
}

size_t gs_timing_next(struct gs_timing *t, const struct gs_stop_policy *p, double best_ms)
{
	t->reason = GS_STOP_MORE;
	settle_warmup(t, p);
	size_t ns;
	const double *s = gs_timing_samples(t, &ns);
	if (ns >= 1 && (t->work_ms >= p->max_time_s * 1e3 || ns >= p->max_samples)) {
		t->warm_done = 1; /* what is left counts: the cap ends warm-up too */
		t->reason = GS_STOP_CAP;
		return 0;
	}
	/* a first round of min_samples is enough only where focus may end it;
	 * elsewhere the fewest samples that can give a 95% interval are due */
	size_t floor_n = p->focus > 0 && best_ms > 0 ? p->min_samples : n_for_95();
	if (floor_n < p->min_samples)
		floor_n = p->min_samples;
	if (!t->warm_done || ns < floor_n) {
		/* the last run's fate needs one more after it */
		size_t more = ns < floor_n ? floor_n - ns : 1;
		more += !t->warm_done && ns + more < 2;
		/* a run of seconds: the cap comes before the minimum */
		return within_caps(t, p, t->runs[t->n - 1] * t->batch, ns, more);
	}
	struct gs_median_ci ci;
	gs_median_ci(s, ns, 0.95, &ci);
	if (ci.coverage >= 0.95 && ci.half_pct <= p->precision * 100) {
		t->reason = GS_STOP_PRECISE;
		return 0;
	}
	if (p->focus > 0 && best_ms > 0) {
		/* from 5 samples the one-sided 95% bound; below, the fastest
		 * sample, which the median exceeds with probability 1 - 2^-n
		 * (87.5% at 3): a loser needs no more to be set aside, and its
		 * interval says how sure it is (ci_pct) */
		size_t k = gs_median_lower_k(ns, 0.95);
		double *x = gs_xmalloc(ns * sizeof *x);
		memcpy(x, s, ns * sizeof *x);
		qsort(x, ns, sizeof *x, cmp_ms);
		double lower = x[k ? k - 1 : 0];
		free(x);
		if (lower > p->focus * best_ms) {
			t->reason = GS_STOP_FOCUS;
			return 0;
		}
	}
	if (ci.coverage < 0.95) {
		/* no 95% interval yet: straight to the fewest samples that have one */
		return within_caps(t, p, ci.median * t->batch, ns, n_for_95() > ns ? n_for_95() - ns : 1);
	}
	/* the interval narrows as 1/sqrt(n): ask for what that predicts, but
	 * no further than the next sample count whose interval moves inward
	 * by one rank (an outlier at an end is dropped then), within the time
	 * left */
	double r = ci.half_pct / (p->precision * 100);
	double want = ceil((double)ns * r * r);
	size_t more = want > (double)(2 * ns) ? ns : (size_t)want > ns ? (size_t)want - ns : 1;
	/* ...but rounds grow by a quarter at least: each costs a wait for the
	 * device and a sort */
	size_t k = two_sided_k(ns, 0.95, NULL), gap = 1;
	while (gap < more && gap < ns / 4 && two_sided_k(ns + gap, 0.95, NULL) == k)
		gap++;
	size_t step = gap > ns / 4 ? gap : ns / 4;
	if (step < more)
		more = step;
	return within_caps(t, p, ci.median * t->batch, ns, more);
}

unsigned gs_timing_batch(double run_ms, double precision, double tick_ms)
{
	if (!(run_ms > 0) || !(precision > 0))
		return 1;
	double need = 2 * tick_ms / precision;
	if (run_ms >= need)
		return 1;
	double b = ceil(need / run_ms);
	return b > 100000 ? 100000 : (unsigned)b;
}
