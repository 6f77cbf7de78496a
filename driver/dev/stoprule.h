/* stoprule.h — how long a configuration is timed: the stopping rule.
 *
 * A configuration's runs arrive in order: the validation run first, then
 * timed samples (each the mean of `batch` back-to-back runs of the launch
 * sequence).  The rule decides, after each batch of samples, whether to
 * stop and how many more samples to take:
 *
 *   warm-up   the validation run is always warm-up; a later run is warm-up
 *             too while the runs are still falling (the next one is more
 *             than `precision` faster), at most max_warmup runs;
 *   precise   the distribution-free 95% confidence interval of the median
 *             (order statistics of the samples, no assumption about their
 *             distribution) is within ±precision of the median;
 *   focus     a lower bound of the median is above focus × the sweep's
 *             best so far: the configuration cannot be a leader, and more
 *             samples would only sharpen a loser.  From 5 samples the bound
 *             is one-sided at 95%; from 3 to 4 it is the fastest sample,
 *             which the median exceeds with probability 1 - 2^-n (87.5%,
 *             93.75%): a loser is set aside after 3 samples, and its
 *             interval's coverage says how sure it is;
 *   cap       max_time_s of timed work, or max_samples samples.
 *
 * No decision is taken on fewer than min_samples samples; where focus
 * cannot apply (no best yet, or focus off) the first round goes straight to
 * the 6 samples that can give a 95% interval.  Pure functions
 * of their arguments: tests/unit/test_stoprule.c drives them with
 * synthetic sample streams. */
#ifndef GS_STOPRULE_H
#define GS_STOPRULE_H

#include <stddef.h>

struct gs_stop_policy {
	double precision;     /* relative half-width of the median's interval, 0.01 */
	double focus;         /* F > 1, or 0: off */
	double max_time_s;    /* timed work per configuration, at most */
	unsigned min_samples; /* before any decision */
	unsigned max_samples;
	unsigned max_warmup;  /* runs discarded as warm-up, at most */
};
extern const struct gs_stop_policy gs_stop_default; /* 1%, focus 1.25, 2 s, 3..4096 samples */

enum gs_stop_reason {
	GS_STOP_MORE,    /* not yet */
	GS_STOP_PRECISE, /* the interval is as narrow as asked */
	GS_STOP_FOCUS,   /* surely slower than focus × the best so far */
	GS_STOP_CAP,     /* max_time_s or max_samples reached first */
};

/* A distribution-free confidence interval of the median of n samples:
 * [x(k), x(n+1-k)] of the sorted samples with the largest k whose coverage
 * 1 - 2 P(Binomial(n, 1/2) <= k-1) is at least conf.  Fewer than 6 samples
 * cannot give 95%: then the interval is the samples' range and coverage
 * says what it is (93.75% for 5).  half_pct is the larger distance from the
 * median to an end, in percent of the median. */
struct gs_median_ci {
	double median, lo, hi;
	double half_pct;
	double coverage;
	size_t n;
};
void gs_median_ci(const double *samples, size_t n, double conf, struct gs_median_ci *ci);

/* The largest order statistic x(k) (1-based k, 0 if none) such that the
 * median is above x(k) with confidence conf: P(Binomial(n, 1/2) <= k-1)
 * <= 1 - conf. */
size_t gs_median_lower_k(size_t n, double conf);

struct gs_timing {
	double *runs;     /* per-run ms: the validation run, then one per sample */
	size_t n, cap;
	size_t warm;      /* runs[0..warm) were warm-up */
	int warm_done;    /* the rest are samples */
	unsigned batch;   /* runs per sample */
	double work_ms;   /* timed work of the samples so far (warm-up included) */
	enum gs_stop_reason reason;
};

/* batch: runs of the launch sequence per timed sample (gs_timing_batch). */
void gs_timing_init(struct gs_timing *t, unsigned batch);
void gs_timing_release(struct gs_timing *t);
/* The validation run (untimed work, always warm-up). */
void gs_timing_first(struct gs_timing *t, double run_ms);
/* One timed sample: the time of `batch` runs, divided by batch. */
void gs_timing_add(struct gs_timing *t, double run_ms);
/* How many more samples to take now; 0 to stop, with t->reason saying why.
 * best_ms <= 0: no best yet (focus cannot apply). */
size_t gs_timing_next(struct gs_timing *t, const struct gs_stop_policy *p, double best_ms);
/* The samples (the runs after warm-up), and their interval. */
const double *gs_timing_samples(const struct gs_timing *t, size_t *n);

/* Runs per sample, so that the event timer's tick (tick_ms) is at most half
 * the precision asked of a sample: 1 for every run longer than
 * 2 tick / precision. */
unsigned gs_timing_batch(double run_ms, double precision, double tick_ms);

#endif
