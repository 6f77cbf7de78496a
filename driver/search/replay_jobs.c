/* replay_jobs.c — a strategy against a recorded sweep, run as a live sweep
 * runs it: compiles on several threads, one device, and results reaching
 * the strategy as the live sweep hands them over (see replay.h).
 *
 * Why a replay of its own: one configuration at a time (replay.c) is how a
 * single device measures when compiling is free, and how the field's
 * tools are compared; but in a compile-bound space the live sweep is
 * another machine.  There the strategy is asked for a proposal while fewer
 * than jobs + 1 of its proposals are waiting to be handed back
 * (sched/source_search.c), and under a count budget results are handed
 * back in proposal order, so that one variant that compiles for twenty
 * seconds holds back every result proposed after it.  How many
 * configurations a time budget buys, and which, depends on that; this
 * replay shows it without a GPU. */
#include "search/replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

enum { J_QUEUED, J_COMPILING, J_COMPILED, J_MEASURING, J_DONE };

struct jslot {
	size_t cfg;
	int state;
	double end; /* the end of its compile, then of its measurement */
};

static double part(double v)
{
	return isfinite(v) && v > 0 ? v : 0;
}

static double compile_part(const struct gs_record *rec, size_t c)
{
	return rec->compile_s ? part(rec->compile_s[c]) : part(rec->cost_s[c]);
}

void gs_replay_run_jobs(const struct gs_record *rec, const struct gs_strategy_ops *ops,
			const struct gs_prior *prior, uint64_t seed, size_t budget_n, double budget_s,
			int past, unsigned jobs, struct gs_replay_run *out)
{
	size_t n = rec->sp.n, cap;
	struct gs_strategy *s = gs_replay_start(rec, ops, prior, seed, budget_n, out, &cap);
	if (!s)
		return;
	if (!jobs)
		jobs = 1;
	/* slots in proposal order; out->cfg doubles as the arrival order */
	struct jslot *sl = gs_xmalloc((n ? n : 1) * sizeof *sl);
	size_t nslots = 0, ndelivered = 0, next_compile = 0, compiling = 0, lo = 0;
	size_t window = (size_t)jobs + 1; /* the live sweep's: jobs + devices */
	int arrival = budget_s > 0;       /* as the live sweep under a time budget */
	long device = -1;                 /* the slot being measured */
	int waiting = 0, exhausted = 0, spent = 0, found = 0;
	double now = 0, opt = past ? gs_record_optimum(rec) : 0;
	for (;;) {
		/* ask as the live sweep asks */
		while (!exhausted && !waiting && nslots - ndelivered < window && nslots < cap) {
			size_t c;
			long r = gs_strategy_propose(s, &c, 1);
			if (r == GS_SEARCH_EXHAUSTED)
				exhausted = 1;
			else if (r == 0)
				waiting = 1;
			else
				sl[nslots++] = (struct jslot){ c, J_QUEUED, 0 };
		}
		/* compiles start in proposal order on free threads */
		while (compiling < jobs && next_compile < nslots) {
			struct jslot *j = &sl[next_compile++];
			j->state = J_COMPILING;
			j->end = now + compile_part(rec, j->cfg);
			compiling++;
		}
		/* the device measures what finished compiling first */
		while (lo < nslots && sl[lo].state == J_DONE)
			lo++;
		if (device < 0) {
			for (size_t i = lo; i < nslots; i++)
				if (sl[i].state == J_COMPILED && (device < 0 || sl[i].end < sl[device].end))
					device = (long)i;
			if (device >= 0) {
				struct jslot *j = &sl[device];
				j->state = J_MEASURING;
				j->end = now + fmax(part(rec->cost_s[j->cfg]) - compile_part(rec, j->cfg), 0);
			}
		}
		/* results reach the strategy one at a time, the window refilled
		 * after each, as the live sweep hands them over: in the order
		 * they arrived under a time budget, else in proposal order (the
		 * calls then never depend on the timing) */
		size_t c = SIZE_MAX;
		if (arrival && ndelivered < out->n)
			c = out->cfg[ndelivered];
		else if (!arrival && ndelivered < nslots && sl[ndelivered].state == J_DONE)
			c = sl[ndelivered].cfg;
		if (c != SIZE_MAX) {
			gs_strategy_observe(s, c, rec->time_ms[c]);
			ndelivered++;
			waiting = 0;
			continue;
		}
		/* the next event */
		double t = INFINITY;
		for (size_t i = lo; i < nslots; i++)
			if (sl[i].state == J_COMPILING || sl[i].state == J_MEASURING)
				t = fmin(t, sl[i].end);
		if (!isfinite(t))
			break; /* nothing in flight and nothing more to ask */
		if (!spent && budget_s > 0 && t > budget_s) {
			/* the budget's end: what is in flight is cancelled */
			spent = 1;
			out->within = out->n;
		}
		if (spent && (!past || found))
			break;
		now = t;
		for (size_t i = lo; i < nslots; i++) {
			struct jslot *j = &sl[i];
			if (j->state == J_COMPILING && j->end <= now) {
				j->state = J_COMPILED;
				compiling--;
			} else if (j->state == J_MEASURING && j->end <= now) {
				j->state = J_DONE;
				device = -1;
				out->cfg[out->n] = j->cfg;
				out->cum_s[out->n++] = now;
				if (past && rec->time_ms[j->cfg] <= opt)
					found = 1;
			}
		}
	}
	if (!spent)
		out->within = out->n;
	free(sl);
	gs_strategy_free(s);
}
