/* score.h — the autotuning-methodology score (Willemsen et al., the
 * AutoTuningAssociation's autotuning_methodology package, 1.1), computed as
 * that package defines it, for one search space.
 *
 * From the complete space: the optimum and the median of the valid times;
 * the "cutoff point" of a fraction p -- a time target opt + (median - opt) *
 * (1 - p), and the evaluations random search needs to reach it,
 * ceil(i / (N + 1 - i)) with i the number of valid configurations slower
 * than the target; the time range from the cutoff point of 0.01 to that of
 * 0.95, each its evaluations times the median evaluation cost; and the
 * budget, 1.1 times the end of that range (the package's default margin).
 *
 * A strategy's curve over that range: every repeat's (cumulative cost,
 * best time so far) points, as positions in the sorted valid times, fitted
 * by isotonic regression (the package averages bagged isotonic fits; the
 * single fit on all points is their expectation, and what this computes),
 * held flat after the point where more than half the repeats have stopped.
 * Random search's curve is computed, not simulated: after M evaluations the
 * expected position round(M (N + 1) / (M + 1)) in the sorted times, the
 * evaluations from time by the mean cost per evaluation, smoothed by a
 * monotone cubic (PCHIP).  The score is the mean over 1000 points of
 * (strategy - random) / (optimum - random): 0 is random search, 1 the
 * optimum from the start. */
#ifndef GS_SEARCH_SCORE_H
#define GS_SEARCH_SCORE_H

#include <stddef.h>

struct gs_score_space {
	size_t n;
	const double *perf;  /* time per configuration; not finite: a failure */
	const double *cost;  /* evaluation cost, s */
	/* computed by gs_score_prepare */
	double *dist;        /* the valid times, ascending (owned) */
	size_t ndist;
	double t_start, t_end, budget_s, time_per_feval;
	int ok;              /* 0: the package would refuse this space */
};

int gs_score_prepare(struct gs_score_space *s);
void gs_score_release(struct gs_score_space *s);

/* One repeat's sequence: configuration numbers and cumulative cost. */
struct gs_score_run {
	const size_t *cfg;
	const double *cum_s;
	size_t n;
};
/* The score of these repeats, NAN where the package raises an error (too
 * few evaluations inside the time range, random search at the optimum). */
double gs_score(const struct gs_score_space *s, const struct gs_score_run *runs, size_t nruns);

#endif
