/* replay.c — strategies against a recorded sweep (see replay.h). */
#include "search/replay.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

const double gs_replay_targets[GS_REPLAY_NTARGETS] = { 0.90, 0.95, 0.98, 1.00 };

struct gs_strategy *gs_replay_start(const struct gs_record *rec, const struct gs_strategy_ops *ops,
				    const struct gs_prior *prior, uint64_t seed, size_t budget_n,
				    struct gs_replay_run *out, size_t *cap)
{
	size_t n = rec->sp.n;
	*cap = budget_n && budget_n < n ? budget_n : n;
	memset(out, 0, sizeof *out);
	out->cfg = gs_xmalloc((n ? n : 1) * sizeof *out->cfg);
	out->cum_s = gs_xmalloc((n ? n : 1) * sizeof *out->cum_s);
	struct gs_strategy *s = gs_strategy_new(ops, &rec->sp, prior, seed);
	if (s && budget_n == GS_REPLAY_OWN && gs_strategy_planned(s))
		*cap = gs_strategy_planned(s);
	return s;
}

/* The loop of both: past set, the run goes on after budget_s until the
 * optimum has been seen (the budget spent) and records where it ran out. */
static void run(const struct gs_record *rec, const struct gs_strategy_ops *ops,
		const struct gs_prior *prior, uint64_t seed, size_t budget_n, double budget_s,
		int past, struct gs_replay_run *out)
{
	size_t cap;
	struct gs_strategy *s = gs_replay_start(rec, ops, prior, seed, budget_n, out, &cap);
	if (!s)
		return;
	double clock = 0, opt = past ? gs_record_optimum(rec) : 0;
	int spent = 0, found = 0;
	while (out->n < cap) {
		/* the budget is checked before each evaluation, as a tuner
		 * checks its time limit: the one that crosses it counts whole */
		if (!spent && budget_s > 0 && !(clock < budget_s)) {
			spent = 1;
			out->within = out->n;
		}
		if (spent && (!past || found))
			break;
		size_t c;
		if (gs_strategy_propose(s, &c, 1) <= 0)
			break; /* exhausted; or waiting with nothing in flight */
		clock += isnan(rec->cost_s[c]) ? 0 : rec->cost_s[c];
		out->cfg[out->n] = c;
		out->cum_s[out->n] = clock;
		out->n++;
		if (past && rec->time_ms[c] <= opt)
			found = 1;
		gs_strategy_observe(s, c, rec->time_ms[c]);
	}
	if (!spent)
		out->within = out->n;
	gs_strategy_free(s);
}

void gs_replay_run(const struct gs_record *rec, const struct gs_strategy_ops *ops,
		   const struct gs_prior *prior, uint64_t seed, size_t budget_n, double budget_s,
		   struct gs_replay_run *out)
{
	run(rec, ops, prior, seed, budget_n, budget_s, 0, out);
}

void gs_replay_run_past(const struct gs_record *rec, const struct gs_strategy_ops *ops,
			const struct gs_prior *prior, uint64_t seed, double budget_s,
			struct gs_replay_run *out)
{
	run(rec, ops, prior, seed, 0, budget_s, 1, out);
}

void gs_replay_run_release(struct gs_replay_run *r)
{
	free(r->cfg);
	free(r->cum_s);
	memset(r, 0, sizeof *r);
}

double gs_record_optimum(const struct gs_record *rec)
{
	double best = INFINITY;
	for (size_t i = 0; i < rec->sp.n; i++)
		if (isfinite(rec->time_ms[i]) && rec->time_ms[i] < best)
			best = rec->time_ms[i];
	return best;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	if (!n)
		return INFINITY;
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

void gs_replay_stats(const struct gs_record *rec, const struct gs_replay_run *runs, size_t nruns,
		     struct gs_replay_stats *st)
{
	double opt = gs_record_optimum(rec);
	double *v = gs_xmalloc((nruns ? nruns : 1) * sizeof *v), *t = gs_xmalloc((nruns ? nruns : 1) * sizeof *t);
	for (int k = 0; k < GS_REPLAY_NTARGETS; k++) {
		/* the target as a time; 100% is the optimum itself */
		double lim = k == GS_REPLAY_NTARGETS - 1 ? opt : opt / gs_replay_targets[k];
		for (size_t r = 0; r < nruns; r++) {
			v[r] = t[r] = INFINITY;
			for (size_t e = 0; e < runs[r].n; e++)
				if (rec->time_ms[runs[r].cfg[e]] <= lim) {
					v[r] = (double)(e + 1);
					t[r] = runs[r].cum_s[e];
					break;
				}
		}
		st->f[k] = isfinite(opt) ? median(v, nruns) : INFINITY;
		if (k == 1)
			st->t95_s = isfinite(opt) ? median(t, nruns) : INFINITY;
	}
	free(v);
	free(t);
}

int gs_replay_parse_budget(const char *s, size_t nconfigs, size_t *n, double *secs)
{
	*n = 0;
	*secs = 0;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || !(v > 0) || !isfinite(v))
		return -1;
	if (!*end) {
		if (v != floor(v))
			return -1;
		*n = v > (double)nconfigs ? nconfigs : (size_t)v;
		return 0;
	}
	if (end[1])
		return -1;
	switch (*end) {
	case '%':
		if (v > 100)
			return -1;
		*n = (size_t)ceil(v / 100.0 * (double)nconfigs);
		if (!*n)
			*n = 1;
		return 0;
	case 's': *secs = v; return 0;
	case 'm': *secs = v * 60; return 0;
	case 'h': *secs = v * 3600; return 0;
	default: return -1;
	}
}
