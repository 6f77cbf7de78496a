/* test_stoprule.c — the stopping rule, driven by synthetic sample streams:
 * steady, drifting down, bimodal, heavy-tailed, one huge outlier, a
 * loser under focus, and the caps.  Each stream is a function of the run's
 * index (run 0 is the validation run), so every case is deterministic. */
#include "harness.h"

#include <math.h>
#include <stdlib.h>

#include "dev/stoprule.h"
#include "dev/data.h"

/* A deterministic uniform in [0, 1) per index. */
static double unif(unsigned long k, unsigned long seed)
{
	return (double)(gs_random_u64(seed, k) >> 11) / 9007199254740992.0;
}

typedef double (*stream_fn)(size_t k);

struct outcome {
	enum gs_stop_reason reason;
	size_t runs, samples, warm;
	struct gs_median_ci ci;
};

/* Feed the rule as a worker does: the validation run, then as many samples
 * as it asks for, until it says stop. */
static void drive(stream_fn f, const struct gs_stop_policy *p, double best, struct outcome *o)
{
	struct gs_timing t;
	gs_timing_init(&t, 1);
	size_t k = 0;
	gs_timing_first(&t, f(k++));
	size_t more;
	while ((more = gs_timing_next(&t, p, best)) > 0) {
		ck_assert_msg(k < 100000, "the rule never stops");
		while (more--)
			gs_timing_add(&t, f(k++));
	}
	const double *s = gs_timing_samples(&t, &o->samples);
	gs_median_ci(s, o->samples, 0.95, &o->ci);
	o->reason = t.reason;
	o->runs = k;
	o->warm = t.warm;
	gs_timing_release(&t);
}

static double steady(size_t k) { return 1.0 + 0.002 * (unif(k, 1) - 0.5); }

static double drifting(size_t k)
{
	static const double head[] = { 3.0, 2.0, 1.5, 1.2, 1.08 };
	return k < 5 ? head[k] : 1.0 + 0.002 * (unif(k, 2) - 0.5);
}

static double bimodal(size_t k) { return unif(k, 3) < 0.5 ? 1.0 : 1.2; }

static double mostly_fast(size_t k) { return unif(k, 4) < 0.85 ? 1.0 + 0.001 * unif(k, 5) : 1.3; }

static double cauchy(size_t k)
{
	return 1.0 + 0.0005 * fabs(tan(3.14159265358979 * (unif(k, 6) - 0.5)));
}

static double outlier(size_t k) { return k == 3 ? 100.0 : 1.0 + 0.001 * unif(k, 7); }

static double slow(size_t k) { return 2.0 + 0.5 * unif(k, 8); }

static double seconds(size_t k) { (void)k; return 900.0; }

START_TEST(test_ci_order_statistics)
{
	double x[10];
	struct gs_median_ci ci;
	for (int i = 0; i < 10; i++)
		x[i] = 10 - i; /* 10..1, unsorted on purpose */
	/* 5 samples: no 95% interval exists; the range, at 93.75% */
	gs_median_ci(x, 5, 0.95, &ci);
	ck_assert(ci.median == 8 && ci.lo == 6 && ci.hi == 10);
	ck_assert(fabs(ci.coverage - 0.9375) < 1e-12);
	/* 6: the range, at 1 - 2/64 */
	gs_median_ci(x, 6, 0.95, &ci);
	ck_assert(ci.lo == 5 && ci.hi == 10 && fabs(ci.coverage - (1 - 2.0 / 64)) < 1e-12);
	/* 9: [x(2), x(8)], at 1 - 2 * 10/512 */
	gs_median_ci(x, 9, 0.95, &ci);
	ck_assert(ci.median == 6 && ci.lo == 3 && ci.hi == 9);
	ck_assert(fabs(ci.coverage - (1 - 20.0 / 512)) < 1e-12);
	ck_assert(fabs(ci.half_pct - 50) < 1e-9);
	/* the one-sided bound: 5 samples give x(1) at 96.9%, 4 give nothing */
	ck_assert_uint_eq(gs_median_lower_k(4, 0.95), 0);
	ck_assert_uint_eq(gs_median_lower_k(5, 0.95), 1);
	ck_assert_uint_eq(gs_median_lower_k(8, 0.95), 2);
	/* large n: the interval's ranks approach n/2 -+ 0.98 sqrt(n) */
	double *big = malloc(10000 * sizeof *big);
	for (int i = 0; i < 10000; i++)
		big[i] = i;
	gs_median_ci(big, 10000, 0.95, &ci);
	ck_assert(ci.lo >= 4895 && ci.lo <= 4903 && ci.hi >= 5096 && ci.hi <= 5104);
	ck_assert(ci.coverage >= 0.95 && ci.coverage < 0.96);
	free(big);
}
END_TEST

START_TEST(test_steady_stops_at_six)
{
	struct outcome o;
	drive(steady, &gs_stop_default, 0, &o);
	/* six samples are the fewest with a 95% interval; the validation run
	 * is the only warm-up */
	ck_assert_int_eq(o.reason, GS_STOP_PRECISE);
	ck_assert_uint_eq(o.samples, 6);
	ck_assert_uint_eq(o.warm, 1);
	ck_assert_uint_eq(o.runs, 7);
	ck_assert(o.ci.half_pct <= 1 && o.ci.coverage >= 0.95);
	ck_assert(fabs(o.ci.median - 1) < 0.002);
}
END_TEST

START_TEST(test_drift_is_warmup)
{
	struct outcome o;
	drive(drifting, &gs_stop_default, 0, &o);
	/* 3.0 2.0 1.5 1.2 1.08 fall by more than 1% each: warm-up; 1.0 stays */
	ck_assert_uint_eq(o.warm, 5);
	ck_assert_int_eq(o.reason, GS_STOP_PRECISE);
	ck_assert_uint_eq(o.samples, 6);
	ck_assert(fabs(o.ci.median - 1) < 0.002);
}
END_TEST

START_TEST(test_bimodal_hits_the_cap)
{
	struct gs_stop_policy p = gs_stop_default;
	p.max_time_s = 0.3; /* 300 samples of about 1.1 ms */
	struct outcome o;
	drive(bimodal, &p, 0, &o);
	/* half the runs at 1.0, half at 1.2: the median's interval spans the
	 * gap, so the precision is never reached and the cap ends it */
	ck_assert_int_eq(o.reason, GS_STOP_CAP);
	ck_assert(o.samples > 200 && o.samples <= 310);
	ck_assert(o.ci.half_pct > 1);
	ck_assert(o.ci.lo >= 1.0 && o.ci.hi <= 1.2);
	/* a minority mode does not move the median: precise, and fast */
	drive(mostly_fast, &gs_stop_default, 0, &o);
	ck_assert_int_eq(o.reason, GS_STOP_PRECISE);
	ck_assert(o.samples <= 20);
	ck_assert(o.ci.median < 1.001);
}
END_TEST

START_TEST(test_heavy_tail)
{
	struct outcome o;
	drive(cauchy, &gs_stop_default, 0, &o);
	/* a Cauchy tail has no mean; the median's interval still closes */
	ck_assert_int_eq(o.reason, GS_STOP_PRECISE);
	ck_assert(o.samples <= 12);
	ck_assert(o.ci.median < 1.002 && o.ci.half_pct <= 1);
}
END_TEST

START_TEST(test_one_outlier)
{
	struct outcome o;
	drive(outlier, &gs_stop_default, 0, &o);
	/* run 3 takes 100x: while the interval is the range it holds the
	 * outlier; from 9 samples on the interval is [x(2), x(n-1)] and drops
	 * it (rounds grow by a quarter, so 10 may be asked for at once) */
	ck_assert_int_eq(o.reason, GS_STOP_PRECISE);
	ck_assert(o.samples >= 9 && o.samples <= 10);
	ck_assert(o.ci.hi < 1.01 && o.ci.median < 1.001);
}
END_TEST

START_TEST(test_focus)
{
	struct outcome o;
	/* at least 2.0 against a best of 1.0: all of three samples above
	 * 1.25x, so the median is too with probability 1 - 1/8; the interval
	 * is their range, and says so */
	drive(slow, &gs_stop_default, 1.0, &o);
	ck_assert_int_eq(o.reason, GS_STOP_FOCUS);
	ck_assert_uint_eq(o.samples, 3);
	ck_assert(fabs(o.ci.coverage - 0.75) < 1e-12);
	ck_assert(o.ci.lo >= 2.0 && o.ci.hi <= 2.5);
	/* the same stream with focus off is measured to the precision (or cap) */
	struct gs_stop_policy p = gs_stop_default;
	p.focus = 0;
	drive(slow, &p, 1.0, &o);
	ck_assert_int_ne(o.reason, GS_STOP_FOCUS);
	ck_assert(o.samples > 5);
	/* a contender is never cut short: 1.0 < 1.25 x 0.9; it gets its 95%
	 * interval after 3 + 3 samples */
	drive(steady, &gs_stop_default, 0.9, &o);
	ck_assert_int_eq(o.reason, GS_STOP_PRECISE);
	ck_assert_uint_eq(o.samples, 6);
	/* one fast sample among three keeps a loser in: it is timed on until
	 * a bound clears the line (5 samples, one-sided 95%) or the precision
	 * is reached */
	drive(mostly_fast, &gs_stop_default, 0.85, &o);
	ck_assert_int_ne(o.reason, GS_STOP_FOCUS);
	/* no best yet: no focus, and no round shorter than six */
	drive(slow, &gs_stop_default, 0, &o);
	ck_assert_int_ne(o.reason, GS_STOP_FOCUS);
	ck_assert(o.samples >= 6);
}
END_TEST

START_TEST(test_time_cap)
{
	struct outcome o;
	/* 900 ms runs under a 2 s cap: three samples, not the six of an interval */
	drive(seconds, &gs_stop_default, 0, &o);
	ck_assert_int_eq(o.reason, GS_STOP_CAP);
	ck_assert_uint_eq(o.samples, 3);
	struct gs_stop_policy p = gs_stop_default;
	p.max_samples = 7;
	p.precision = 1e-9;
	drive(steady, &p, 0, &o);
	ck_assert_int_eq(o.reason, GS_STOP_CAP);
	ck_assert_uint_eq(o.samples, 7);
}
END_TEST

START_TEST(test_precision_trades_time)
{
	struct outcome lo, hi;
	struct gs_stop_policy p = gs_stop_default;
	p.precision = 0.001; /* ±0.1%: more samples of the same stream */
	drive(cauchy, &p, 0, &hi);
	drive(cauchy, &gs_stop_default, 0, &lo);
	ck_assert(hi.samples > lo.samples);
	ck_assert(hi.ci.half_pct <= 0.1 || hi.reason == GS_STOP_CAP);
}
END_TEST

START_TEST(test_many_samples_are_cheap)
{
	/* a stream that never settles runs into max_samples in a few dozen
	 * rounds; a decision quadratic in the samples (as a first version
	 * was) would not finish within the test's timeout */
	struct gs_stop_policy p = gs_stop_default;
	p.max_time_s = 1e9;
	struct outcome o;
	drive(bimodal, &p, 0, &o);
	ck_assert_int_eq(o.reason, GS_STOP_CAP);
	ck_assert_uint_eq(o.samples, 4096);
}
END_TEST

START_TEST(test_batch)
{
	/* a tick of 0.5 us at 1%: runs from 0.1 ms on are timed one by one */
	ck_assert_uint_eq(gs_timing_batch(0.1, 0.01, 0.0005), 1);
	ck_assert_uint_eq(gs_timing_batch(0.05, 0.01, 0.0005), 2);
	ck_assert_uint_eq(gs_timing_batch(0.003, 0.01, 0.0005), 34);
	ck_assert_uint_eq(gs_timing_batch(0, 0.01, 0.0005), 1);
}
END_TEST

GS_TEST_MAIN(test_ci_order_statistics, test_steady_stops_at_six, test_drift_is_warmup,
	     test_bimodal_hits_the_cap, test_heavy_tail, test_one_outlier, test_focus,
	     test_time_cap, test_precision_trades_time, test_many_samples_are_cheap, test_batch)
