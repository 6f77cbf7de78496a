/* test_search.c — the search strategies and what they stand on: the space's
 * lookup and neighbourhoods, priors matched by parameter values, replay's
 * budget, and every strategy's contract (never a configuration twice, never
 * one outside the space, the same search for the same seed, exhaustive
 * visits everything), with results arriving out of order. */
#include "harness.h"
#include "search/ils.h"
#include "search/prior.h"
#include "search/record.h"
#include "search/replay.h"
#include "search/score.h"
#include "search/strat.h"
#include "search/strategy.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "util/util.h"

/* A small space with a constraint (A * B <= 64), a text parameter, and a
 * region that fails (A = 1 with C = 1). */
static void make_record(struct gs_record *r)
{
	memset(r, 0, sizeof *r);
	struct gs_buf err = GS_BUF_INIT;
	json_t *params = json_loads("[{\"name\":\"A\",\"values\":[1,2,4,8,16]},"
				    "{\"name\":\"B\",\"values\":[1,2,4,8]},"
				    "{\"name\":\"C\",\"values\":[0,1]},"
				    "{\"name\":\"D\",\"values\":[\"x\",\"y\",\"z\"]}]",
				    0, NULL);
	ck_assert_int_eq(gs_sspace_init(&r->sp, params, &err), 0);
	json_decref(params);
	static const int av[] = { 1, 2, 4, 8, 16 }, bv[] = { 1, 2, 4, 8 };
	static const char *dv[] = { "x", "y", "z" };
	size_t cap = 5 * 4 * 2 * 3;
	r->time_ms = malloc(cap * sizeof *r->time_ms);
	r->cost_s = malloc(cap * sizeof *r->cost_s);
	r->occupancy = malloc(cap * sizeof *r->occupancy);
	r->registers = malloc(cap * sizeof *r->registers);
	for (int a = 0; a < 5; a++)
		for (int b = 0; b < 4; b++)
			for (int c = 0; c < 2; c++)
				for (int d = 0; d < 3; d++) {
					if (av[a] * bv[b] > 64)
						continue;
					json_t *o = json_pack("{s:i,s:i,s:i,s:s}", "A", av[a], "B", bv[b], "C", c, "D", dv[d]);
					long k = gs_sspace_add(&r->sp, o, (int64_t)r->sp.n, &err);
					json_decref(o);
					ck_assert_int_ge(k, 0);
					double t = 1 + (a - 3) * (a - 3) + (b - 1) * (b - 1) + 0.5 * c + 0.3 * (d == 1) +
						   0.1 * a * b;
					r->time_ms[k] = a == 0 && c == 1 ? INFINITY : t;
					r->cost_s[k] = 0.5 + 0.01 * t;
					r->occupancy[k] = 1.0 / (1 + b);
					r->registers[k] = 32;
				}
	gs_buf_release(&err);
}

/* The prior: the record's times, stretched and bent, with a hole. */
static void make_prior(struct gs_prior *p, const struct gs_record *r)
{
	gs_prior_init(p, "test", r->sp.n);
	for (size_t i = 0; i < r->sp.n; i++) {
		p->time_ms[i] = i % 7 == 3 ? NAN : isinf(r->time_ms[i]) ? INFINITY : 2 * pow(r->time_ms[i], 1.1);
		p->occupancy[i] = r->occupancy[i];
		if (!isnan(p->time_ms[i]))
			p->known++;
	}
}

START_TEST(test_space_lookup_and_neighbours)
{
	struct gs_record r;
	make_record(&r);
	ck_assert_uint_eq(r.sp.n, 5 * 4 * 2 * 3 - 6); /* A=16, B=8 violates */
	for (size_t c = 0; c < r.sp.n; c++)
		ck_assert_int_eq(gs_sspace_find(&r.sp, gs_sspace_tuple(&r.sp, c)), (long)c);
	ck_assert_str_eq(r.sp.key[0], "1,1,0,x");
	ck_assert_str_eq(r.sp.params[3].text[1], "y");
	ck_assert(isnan(r.sp.params[3].num[1]));
	ck_assert(r.sp.params[0].num[4] == 16);
	size_t nb[64];
	/* (A=16, B=4, C=0, D=x): A has 4 others, B 2 (8 is out), C 1, D 2 */
	uint16_t t[4] = { 4, 2, 0, 0 };
	long c = gs_sspace_find(&r.sp, t);
	ck_assert_int_ge(c, 0);
	size_t n = gs_sspace_neighbours(&r.sp, (size_t)c, GS_NB_HAMMING, nb, 64);
	ck_assert_uint_eq(n, 4 + 2 + 1 + 2);
	for (size_t i = 0; i < n; i++) {
		const uint16_t *u = gs_sspace_tuple(&r.sp, nb[i]);
		int diff = 0;
		for (int p = 0; p < 4; p++)
			diff += u[p] != t[p];
		ck_assert_int_eq(diff, 1);
	}
	/* adjacent: A 8 (one step down), B 2 (one step down), C 1, D y */
	ck_assert_uint_eq(gs_sspace_neighbours(&r.sp, (size_t)c, GS_NB_ADJACENT, nb, 64), 4);
	gs_record_release(&r);
}
END_TEST

START_TEST(test_prior_matches_by_value)
{
	struct gs_record r, o;
	make_record(&r);
	make_record(&o);
	/* the other sweep lacks one configuration and knows D by another
	 * order of declaration: matching is by value, not position */
	o.time_ms[5] = NAN;
	struct gs_prior p;
	gs_prior_init(&p, "o", r.sp.n);
	gs_prior_from_record(&p, &r.sp, &o);
	ck_assert_uint_eq(p.known, r.sp.n - 1);
	ck_assert(isnan(p.time_ms[5]));
	for (size_t i = 0; i < r.sp.n; i++)
		if (i != 5)
			ck_assert(p.time_ms[i] == r.time_ms[i] || (isinf(p.time_ms[i]) && isinf(r.time_ms[i])));
	size_t *ord = gs_prior_order(&p);
	ck_assert_uint_eq(ord[r.sp.n - 1], 5); /* the unknown comes last */
	free(ord);
	gs_prior_release(&p);
	gs_record_release(&o);
	gs_record_release(&r);
}
END_TEST

/* Drive a strategy with batches of up to `batch`, results given back in
 * reverse order of proposal; returns the evaluation order (n of them). */
static size_t drive(const struct gs_strategy_ops *ops, const struct gs_record *r,
		    const struct gs_prior *p, uint64_t seed, size_t batch, size_t budget, size_t *seq)
{
	struct gs_strategy *s = gs_strategy_new(ops, &r->sp, p, seed);
	ck_assert_ptr_nonnull(s);
	size_t n = 0, q[8], nq = 0;
	char *seen = calloc(r->sp.n, 1);
	for (;;) {
		size_t out[8];
		size_t room = budget - n - nq < batch ? budget - n - nq : batch;
		long k = room ? gs_strategy_propose(s, out, room) : 0;
		for (long i = 0; i < k; i++) {
			ck_assert_uint_lt(out[i], r->sp.n);
			ck_assert_msg(!seen[out[i]], "%s proposed %zu twice", ops->name, out[i]);
			seen[out[i]] = 1;
			q[nq++] = out[i];
		}
		if (k == GS_SEARCH_EXHAUSTED || (k <= 0 && !nq))
			break;
		if (k <= 0 || nq >= batch) {
			while (nq) {
				size_t c = q[--nq];
				seq[n++] = c;
				gs_strategy_observe(s, c, r->time_ms[c]);
			}
		}
	}
	free(seen);
	gs_strategy_free(s);
	return n;
}

START_TEST(test_strategies_keep_the_contract)
{
	struct gs_record r;
	struct gs_prior p;
	make_record(&r);
	make_prior(&p, &r);
	size_t nops;
	const struct gs_strategy_ops *const *ops = gs_strategy_table(&nops);
	size_t *a = malloc(r.sp.n * sizeof *a), *b = malloc(r.sp.n * sizeof *b);
	for (size_t i = 0; i < nops; i++)
		for (size_t batch = 1; batch <= 3; batch += 2) {
			/* the whole space: everything, once */
			size_t n = drive(ops[i], &r, &p, 7, batch, r.sp.n, a);
			ck_assert_msg(n == r.sp.n, "%s batch %zu visited %zu of %zu", ops[i]->name, batch,
				      n, r.sp.n);
			/* deterministic per seed */
			size_t m = drive(ops[i], &r, &p, 7, batch, 20, b);
			ck_assert_uint_eq(m, 20);
			size_t m2 = drive(ops[i], &r, &p, 7, batch, 20, a);
			ck_assert_uint_eq(m2, 20);
			for (size_t j = 0; j < m; j++)
				ck_assert_uint_eq(a[j], b[j]);
		}
	free(a);
	free(b);
	gs_prior_release(&p);
	gs_record_release(&r);
}
END_TEST

START_TEST(test_exhaustive_is_enumeration_order)
{
	struct gs_record r;
	make_record(&r);
	size_t *a = malloc(r.sp.n * sizeof *a);
	size_t n = drive(gs_strategy_find("exhaustive"), &r, NULL, 1, 1, r.sp.n, a);
	ck_assert_uint_eq(n, r.sp.n);
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(a[i], i);
	free(a);
	gs_record_release(&r);
}
END_TEST

START_TEST(test_prior_strategies_need_one)
{
	struct gs_record r;
	make_record(&r);
	ck_assert_ptr_null(gs_strategy_new(gs_strategy_find("po"), &r.sp, NULL, 1));
	ck_assert_ptr_null(gs_strategy_new(gs_strategy_find("prior"), &r.sp, NULL, 1));
	ck_assert_ptr_null(gs_strategy_new(gs_strategy_find("ro"), &r.sp, NULL, 1));
	struct gs_strategy *s = gs_strategy_new(gs_strategy_find("surrogate"), &r.sp, NULL, 1);
	ck_assert_ptr_nonnull(s);
	gs_strategy_free(s);
	gs_record_release(&r);
}
END_TEST

START_TEST(test_prior_order_follows_a_good_prior)
{
	/* a prior that ranks the space right puts the optimum first */
	struct gs_record r;
	struct gs_prior p;
	make_record(&r);
	make_prior(&p, &r);
	size_t seq[4];
	drive(gs_strategy_find("prior"), &r, &p, 1, 1, 1, seq);
	double opt = gs_record_optimum(&r);
	ck_assert(r.time_ms[seq[0]] == opt);
	gs_prior_release(&p);
	gs_record_release(&r);
}
END_TEST

/* Evaluations until the optimum is measured (n + 1: never). */
static size_t to_optimum(const struct gs_strategy_ops *ops, const struct gs_record *r,
			 const struct gs_prior *p, uint64_t seed)
{
	size_t *seq = malloc(r->sp.n * sizeof *seq);
	size_t n = drive(ops, r, p, seed, 1, r->sp.n, seq), i = 0;
	double opt = gs_record_optimum(r);
	while (i < n && r->time_ms[seq[i]] != opt)
		i++;
	free(seq);
	return i + 1;
}

static int by_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

START_TEST(test_pils_drops_a_wrong_prior_for_ils)
{
	/* a prior that ranks the space backwards is caught and the search
	 * goes on as ils with what it measured: over 21 seeds, its median
	 * cost to the optimum is ils's plus at most the evaluations the test
	 * waits for (probes and picks); a good prior is followed */
	struct gs_record r;
	struct gs_prior good, bad;
	make_record(&r);
	make_prior(&good, &r);
	gs_prior_init(&bad, "backwards", r.sp.n);
	for (size_t i = 0; i < r.sp.n; i++) {
		bad.time_ms[i] = isinf(r.time_ms[i]) ? 0.5 : 100 / r.time_ms[i];
		bad.known++;
	}
	enum { N = 21 };
	size_t a[N], b[N], g[N];
	for (size_t k = 0; k < N; k++) {
		a[k] = to_optimum(gs_strategy_find("ils"), &r, NULL, 1 + k);
		b[k] = to_optimum(gs_strategy_find("pils"), &r, &bad, 1 + k);
		g[k] = to_optimum(gs_strategy_find("pils"), &r, &good, 1 + k);
	}
	qsort(a, N, sizeof *a, by_size);
	qsort(b, N, sizeof *b, by_size);
	qsort(g, N, sizeof *g, by_size);
	ck_assert_msg(b[N / 2] <= a[N / 2] + GS_PCHECK_PROBES + GS_PCHECK_PICKS, "pils with a wrong prior %zu, ils %zu", b[N / 2], a[N / 2]);
	ck_assert_msg(g[N / 2] <= 3, "pils with a good prior %zu", g[N / 2]);
	gs_prior_release(&good);
	gs_prior_release(&bad);
	gs_record_release(&r);
}
END_TEST

START_TEST(test_replay_respects_the_budget)
{
	struct gs_record r;
	make_record(&r);
	struct gs_replay_run run;
	gs_replay_run(&r, gs_strategy_find("random"), NULL, 3, 10, 0, &run);
	ck_assert_uint_eq(run.n, 10);
	double sum = 0;
	for (size_t i = 0; i < run.n; i++) {
		sum += r.cost_s[run.cfg[i]];
		ck_assert(fabs(run.cum_s[i] - sum) < 1e-12);
	}
	gs_replay_run_release(&run);
	/* a time budget: the evaluation that crosses it is the last */
	gs_replay_run(&r, gs_strategy_find("ils"), NULL, 3, 0, 3.0, &run);
	ck_assert_uint_ge(run.n, 1);
	ck_assert(run.cum_s[run.n - 1] >= 3.0);
	ck_assert(run.n == 1 || run.cum_s[run.n - 2] < 3.0);
	gs_replay_run_release(&run);
	gs_record_release(&r);
}
END_TEST

/* `replay --jobs`: compile threads, one device, the live sweep's window.
 * Every configuration compiles for 1 s and is measured in no time, but the
 * first takes 10 s: four threads, exhaustive order, eight evaluations. */
START_TEST(test_replay_jobs_pipeline)
{
	struct gs_record r;
	make_record(&r);
	r.compile_s = malloc(r.sp.n * sizeof *r.compile_s);
	for (size_t i = 0; i < r.sp.n; i++)
		r.cost_s[i] = r.compile_s[i] = i == 0 ? 10.0 : 1.0;
	const struct gs_strategy_ops *ex = gs_strategy_find("exhaustive");
	struct gs_replay_run run;
	/* a count budget: results reach the strategy in proposal order, so
	 * the window (5) fills behind the slow one and the threads wait; the
	 * last three are proposed only once it arrives at 10 s */
	gs_replay_run_jobs(&r, ex, NULL, 1, 8, 0, 0, 4, &run);
	ck_assert_uint_eq(run.n, 8);
	ck_assert_uint_eq(run.within, 8);
	static const double inorder[] = { 1, 1, 1, 2, 10, 11, 11, 11 };
	for (size_t i = 0; i < run.n; i++)
		ck_assert_msg(fabs(run.cum_s[i] - inorder[i]) < 1e-9, "%zu: %g", i, run.cum_s[i]);
	ck_assert_uint_eq(run.cfg[4], 0);
	gs_replay_run_release(&run);
	/* a time budget: delivered as they arrive, the others go on around
	 * the slow one; those arriving after the budget are not counted */
	gs_replay_run_jobs(&r, ex, NULL, 1, 8, 100, 0, 4, &run);
	ck_assert_uint_eq(run.n, 8);
	static const double arrival[] = { 1, 1, 1, 2, 2, 2, 3, 10 };
	for (size_t i = 0; i < run.n; i++)
		ck_assert_msg(fabs(run.cum_s[i] - arrival[i]) < 1e-9, "%zu: %g", i, run.cum_s[i]);
	gs_replay_run_release(&run);
	gs_replay_run_jobs(&r, ex, NULL, 1, 0, 1.5, 0, 4, &run);
	ck_assert_uint_eq(run.within, 3);
	gs_replay_run_release(&run);
	gs_record_release(&r);
}
END_TEST

START_TEST(test_replay_past_the_budget_keeps_its_prefix)
{
	/* running on past a time budget to the optimum: the part within the
	 * budget is exactly the budgeted run (so its score is the same, bit
	 * for bit), and targets the budget does not reach get their number */
	struct gs_record r;
	make_record(&r);
	struct gs_score_space ss = { .n = r.sp.n, .perf = r.time_ms, .cost = r.cost_s };
	ck_assert_int_eq(gs_score_prepare(&ss), 0);
	double budget = ss.budget_s, opt = gs_record_optimum(&r);
	enum { N = 25 };
	struct gs_replay_run lim[N], past[N];
	struct gs_score_run a[N], b[N];
	for (size_t k = 0; k < N; k++) {
		gs_replay_run(&r, gs_strategy_find("random"), NULL, 1 + k, 0, budget, &lim[k]);
		gs_replay_run_past(&r, gs_strategy_find("random"), NULL, 1 + k, budget, &past[k]);
		ck_assert_uint_eq(lim[k].within, lim[k].n);
		ck_assert_uint_eq(past[k].within, lim[k].n);
		ck_assert_uint_ge(past[k].n, past[k].within);
		ck_assert(memcmp(past[k].cfg, lim[k].cfg, lim[k].n * sizeof *lim[k].cfg) == 0);
		ck_assert(memcmp(past[k].cum_s, lim[k].cum_s, lim[k].n * sizeof *lim[k].cum_s) == 0);
		/* it stops at the optimum (once past the budget) */
		size_t last = past[k].n - 1;
		ck_assert(r.time_ms[past[k].cfg[last]] == opt || past[k].n == past[k].within);
		for (size_t e = past[k].within; e < last; e++)
			ck_assert(r.time_ms[past[k].cfg[e]] > opt);
		a[k] = (struct gs_score_run){ lim[k].cfg, lim[k].cum_s, lim[k].n };
		b[k] = (struct gs_score_run){ past[k].cfg, past[k].cum_s, past[k].within };
	}
	double sa = gs_score(&ss, a, N), sb = gs_score(&ss, b, N);
	ck_assert(!isnan(sa));
	ck_assert(memcmp(&sa, &sb, sizeof sa) == 0);
	struct gs_replay_stats st_lim, st_past;
	gs_replay_stats(&r, lim, N, &st_lim);
	gs_replay_stats(&r, past, N, &st_past);
	ck_assert_msg(isinf(st_lim.f[GS_REPLAY_NTARGETS - 1]), "the budget reaches the optimum (%g)",
		      st_lim.f[GS_REPLAY_NTARGETS - 1]);
	for (int t = 0; t < GS_REPLAY_NTARGETS; t++) {
		ck_assert(isfinite(st_past.f[t]));
		/* repeats that reach it within the budget are unchanged, the
		 * others go from never to a number: the median can only drop */
		ck_assert(st_past.f[t] <= st_lim.f[t]);
	}
	for (size_t k = 0; k < N; k++) {
		gs_replay_run_release(&lim[k]);
		gs_replay_run_release(&past[k]);
	}
	gs_score_release(&ss);
	gs_record_release(&r);
}
END_TEST

START_TEST(test_ro_ranks_by_register_ratio_times_occupancy)
{
	/* registers 16..40 by A, occupancy 1/(1+B): RO = regs/40 / (1+B) is
	 * highest (0.5) for A = 16 (40 registers) with B = 1 */
	struct gs_record r;
	make_record(&r);
	for (size_t c = 0; c < r.sp.n; c++)
		r.registers[c] = 16 + 6 * gs_sspace_tuple(&r.sp, c)[0];
	struct gs_prior p;
	gs_prior_static(&p, "static", &r);
	ck_assert_uint_eq(p.known, 0);
	struct gs_strategy *s = gs_strategy_new(gs_strategy_find("ro"), &r.sp, &p, 1);
	ck_assert_ptr_nonnull(s);
	/* A = 16 allows B of 1, 2, 4 (A * B <= 64): B = 1 with 2 C x 3 D */
	ck_assert_uint_eq(gs_strategy_planned(s), 6);
	double last = INFINITY;
	for (size_t i = 0; i < r.sp.n; i++) {
		size_t c;
		ck_assert_int_eq(gs_strategy_propose(s, &c, 1), 1);
		const uint16_t *t = gs_sspace_tuple(&r.sp, c);
		double ro = r.registers[c] / 40.0 * r.occupancy[c];
		ck_assert(ro <= last + 1e-12); /* never a higher RO after a lower one */
		last = ro;
		if (i < 6)
			ck_assert(t[0] == 4 && t[1] == 0);
		gs_strategy_observe(s, c, r.time_ms[c]);
	}
	gs_strategy_free(s);
	/* replay with the strategy's own plan stops there; without one, runs
	 * everything; po's plan is its Pareto set */
	struct gs_replay_run run;
	gs_replay_run(&r, gs_strategy_find("ro"), &p, 1, GS_REPLAY_OWN, 0, &run);
	ck_assert_uint_eq(run.n, 6);
	gs_replay_run_release(&run);
	gs_replay_run(&r, gs_strategy_find("random"), NULL, 1, GS_REPLAY_OWN, 0, &run);
	ck_assert_uint_eq(run.n, r.sp.n);
	gs_replay_run_release(&run);
	gs_prior_release(&p);
	/* ties follow the prior's predicted time when it has one */
	make_prior(&p, &r);
	for (size_t c = 0; c < r.sp.n; c++)
		p.registers[c] = r.registers[c];
	size_t seq[6];
	drive(gs_strategy_find("ro"), &r, &p, 1, 1, 6, seq);
	for (size_t i = 1; i < 6; i++) {
		double a = p.time_ms[seq[i - 1]], b = p.time_ms[seq[i]];
		ck_assert(isnan(b) || a <= b);
	}
	s = gs_strategy_new(gs_strategy_find("po"), &r.sp, &p, 1);
	ck_assert_uint_ge(gs_strategy_planned(s), 1);
	gs_strategy_free(s);
	gs_prior_release(&p);
	gs_record_release(&r);
}
END_TEST

START_TEST(test_budget_forms)
{
	size_t n;
	double s;
	ck_assert_int_eq(gs_replay_parse_budget("500", 1000, &n, &s), 0);
	ck_assert_uint_eq(n, 500);
	ck_assert_int_eq(gs_replay_parse_budget("5000", 1000, &n, &s), 0);
	ck_assert_uint_eq(n, 1000);
	ck_assert_int_eq(gs_replay_parse_budget("2%", 1000, &n, &s), 0);
	ck_assert_uint_eq(n, 20);
	ck_assert_int_eq(gs_replay_parse_budget("0.01%", 1000, &n, &s), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(gs_replay_parse_budget("90m", 1000, &n, &s), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert(s == 5400);
	ck_assert_int_eq(gs_replay_parse_budget("1.5h", 1000, &n, &s), 0);
	ck_assert(s == 5400);
	ck_assert_int_eq(gs_replay_parse_budget("30s", 1000, &n, &s), 0);
	ck_assert(s == 30);
	ck_assert_int_eq(gs_replay_parse_budget("1.5", 1000, &n, &s), -1);
	ck_assert_int_eq(gs_replay_parse_budget("0", 1000, &n, &s), -1);
	ck_assert_int_eq(gs_replay_parse_budget("-3", 1000, &n, &s), -1);
	ck_assert_int_eq(gs_replay_parse_budget("3x", 1000, &n, &s), -1);
	ck_assert_int_eq(gs_replay_parse_budget("101%", 1000, &n, &s), -1);
	ck_assert_int_eq(gs_replay_parse_budget("", 1000, &n, &s), -1);
}
END_TEST

START_TEST(test_stats_and_score_bounds)
{
	struct gs_record r;
	make_record(&r);
	/* the exhaustive order, best first: every target at evaluation 1, and
	 * a score no random search can beat by much */
	size_t n = r.sp.n;
	size_t *order = malloc(n * sizeof *order);
	double *cum = malloc(n * sizeof *cum);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (r.time_ms[order[j]] < r.time_ms[order[i]]) {
				size_t t = order[i];
				order[i] = order[j];
				order[j] = t;
			}
	double c = 0;
	for (size_t i = 0; i < n; i++)
		cum[i] = c += r.cost_s[order[i]];
	struct gs_replay_run run = { n, order, cum, n };
	struct gs_replay_stats st;
	gs_replay_stats(&r, &run, 1, &st);
	for (int k = 0; k < GS_REPLAY_NTARGETS; k++)
		ck_assert(st.f[k] == 1);
	struct gs_score_space ss = { .n = n, .perf = r.time_ms, .cost = r.cost_s };
	ck_assert_int_eq(gs_score_prepare(&ss), 0);
	struct gs_score_run sr = { order, cum, n };
	double score = gs_score(&ss, &sr, 1);
	ck_assert(score > 0.5 && score <= 1.0);
	gs_score_release(&ss);
	free(order);
	free(cum);
	gs_record_release(&r);
}
END_TEST

/* ils's warm draws spread over the space: each is the farthest of a few
 * candidates from the draws before it, so over many seeds its first four
 * draws lie farther apart (Hamming distance to the nearest earlier draw)
 * than random search's first four. */
START_TEST(test_ils_warm_draws_spread)
{
	struct gs_record r;
	make_record(&r);
	const struct gs_strategy_ops *ops[2] = { gs_strategy_find("ils"), gs_strategy_find("random") };
	double mean[2] = { 0, 0 };
	size_t seq[4];
	for (int o = 0; o < 2; o++)
		for (uint64_t seed = 1; seed <= 200; seed++) {
			ck_assert_uint_eq(drive(ops[o], &r, NULL, seed, 4, 4, seq), 4);
			for (size_t i = 1; i < 4; i++) {
				size_t dmin = SIZE_MAX;
				for (size_t j = 0; j < i; j++) {
					const uint16_t *a = gs_sspace_tuple(&r.sp, seq[i]), *b = gs_sspace_tuple(&r.sp, seq[j]);
					size_t d = 0;
					for (size_t p = 0; p < r.sp.nparams; p++)
						d += a[p] != b[p];
					dmin = d < dmin ? d : dmin;
				}
				mean[o] += (double)dmin / (200 * 3);
			}
		}
	ck_assert_msg(mean[0] > mean[1] + 0.3, "ils %.3f, random %.3f", mean[0], mean[1]);
	gs_record_release(&r);
}
END_TEST

/* A knob of 31 values next to one of 3: at a point the descent measures at
 * most GS_ILS_NBCAP of the wide knob's values, not all 30. */
START_TEST(test_ils_caps_a_wide_knob)
{
	struct gs_sspace sp;
	struct gs_buf err = GS_BUF_INIT;
	json_t *vals = json_array();
	for (int w = 1; w <= 31; w++)
		json_array_append_new(vals, json_integer(32 * w));
	json_t *params = json_pack("[{s:s,s:[i,i,i]},{s:s,s:o}]", "name", "A", "values", 1, 2, 3, "name", "W",
				   "values", vals);
	ck_assert_int_eq(gs_sspace_init(&sp, params, &err), 0);
	json_decref(params);
	for (int a = 1; a <= 3; a++)
		for (int w = 1; w <= 31; w++) {
			json_t *o = json_pack("{s:i,s:i}", "A", a, "W", 32 * w);
			ck_assert_int_ge(gs_sspace_add(&sp, o, (int64_t)sp.n, &err), 0);
			json_decref(o);
		}
	size_t *out = malloc(sp.n * sizeof *out);
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct gs_ils s;
		gs_ils_init_balanced(&s, &sp, seed);
		long k = gs_ils_propose(&s, out, sp.n);
		ck_assert_int_eq(k, 2); /* the warm draws, one per knob */
		for (long i = 0; i < k; i++)
			gs_ils_observe(&s, out[i], 1.0 + gs_sspace_tuple(&sp, out[i])[0]);
		k = gs_ils_propose(&s, out, sp.n);
		size_t wide = 0;
		for (long i = 0; i < k; i++)
			wide += gs_sspace_tuple(&sp, out[i])[0] == gs_sspace_tuple(&sp, (size_t)s.cur)[0];
		ck_assert_uint_le(wide, GS_ILS_NBCAP);
		ck_assert_uint_ge(wide, GS_ILS_NBCAP - 1); /* a warm draw may be one of them */
		gs_ils_release(&s);
	}
	free(out);
	gs_sspace_release(&sp);
	gs_buf_release(&err);
}
END_TEST

GS_TEST_MAIN(test_space_lookup_and_neighbours, test_prior_matches_by_value, test_strategies_keep_the_contract,
	     test_exhaustive_is_enumeration_order, test_prior_strategies_need_one,
	     test_prior_order_follows_a_good_prior, test_pils_drops_a_wrong_prior_for_ils, test_replay_respects_the_budget,
	     test_replay_jobs_pipeline, test_replay_past_the_budget_keeps_its_prefix, test_budget_forms,
	     test_stats_and_score_bounds, test_ro_ranks_by_register_ratio_times_occupancy,
	     test_ils_warm_draws_spread, test_ils_caps_a_wide_knob)
