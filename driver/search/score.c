/* score.c — the autotuning-methodology score (see score.h).  Written from
 * the package's definitions; the comments name the package function each
 * step mirrors, and scripts/bench/score-check.py compares the result with
 * the package's own. */
#include "search/score.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define RESOLUTION 1000
#define CUTOFF 0.95
#define CUTOFF_START 0.01
#define MARGIN 0.1

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* numpy's median of a sorted array */
static double median_sorted(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* Python's round(): half to even (the default rounding mode) */
static double round_even(double x)
{
	return nearbyint(x);
}

/* SearchspaceStatistics.cutoff_point: the evaluations random search needs
 * to reach fraction p; -1 where the package raises an error. */
static double cutoff_fevals(const struct gs_score_space *s, double p, double median)
{
	size_t N = s->ndist;
	double opt = s->dist[0], target = opt + (median - opt) * (1 - p);
	/* the first position, in descending order, at or below the target */
	size_t i = 0;
	while (i < N && s->dist[N - 1 - i] > target)
		i++;
	if (i == N)
		return -1;
	if (p != 1.0 && s->dist[N - 1 - i] == opt) {
		if (i == 0)
			return -1;
		i--;
	}
	return ceil((double)i / (double)(N + 1 - i));
}

int gs_score_prepare(struct gs_score_space *s)
{
	s->ok = 0;
	s->dist = gs_xmalloc((s->n ? s->n : 1) * sizeof *s->dist);
	s->ndist = 0;
	double *times = gs_xmalloc((s->n ? s->n : 1) * sizeof *times);
	size_t nt = 0, ninv = 0;
	double sum_valid = 0, sum_inv = 0;
	size_t nvalid_t = 0, ninv_t = 0;
	for (size_t i = 0; i < s->n; i++) {
		int valid = isfinite(s->perf[i]);
		if (valid)
			s->dist[s->ndist++] = s->perf[i];
		else
			ninv++;
		if (!isnan(s->cost[i])) {
			times[nt++] = s->cost[i];
			if (valid) {
				sum_valid += s->cost[i];
				nvalid_t++;
			} else {
				sum_inv += s->cost[i];
				ninv_t++;
			}
		}
	}
	if (s->ndist < 2 || !nt) {
		free(times);
		return -1;
	}
	qsort(s->dist, s->ndist, sizeof *s->dist, cmp_double);
	qsort(times, nt, sizeof *times, cmp_double);
	double median = median_sorted(s->dist, s->ndist);
	double tmed = median_sorted(times, nt);
	free(times);
	/* total_time_mean_per_feval */
	if (!ninv)
		s->time_per_feval = (sum_valid + sum_inv) / (double)(nvalid_t + ninv_t);
	else
		s->time_per_feval = (nvalid_t ? sum_valid / (double)nvalid_t : NAN) +
				    (double)ninv / (double)s->n * (ninv_t ? sum_inv / (double)ninv_t : NAN);
	/* cutoff_point_fevals_time_start_end */
	double fs = cutoff_fevals(s, CUTOFF_START, median), fe = cutoff_fevals(s, CUTOFF, median);
	if (fs < 0 || fe < 0)
		return -1;
	if (fe - fs < 2) {
		/* the package bounds the end by cutoff_point(1.0)[0], which is
		 * the optimum's time, not a number of evaluations: kept as is */
		double bound = s->dist[0];
		if (fs == 0)
			fe = fmin(bound, fe + 2);
		else {
			fe = fmin(bound, fe + 1);
			fs -= 1;
		}
	}
	if (fe - fs == 0)
		return -1;
	s->t_start = fs * tmed;
	s->t_end = fe * tmed;
	s->budget_s = s->t_end * (1 + MARGIN);
	s->ok = isfinite(s->time_per_feval) && s->time_per_feval > 0 && s->t_end > s->t_start;
	return s->ok ? 0 : -1;
}

void gs_score_release(struct gs_score_space *s)
{
	free(s->dist);
	s->dist = NULL;
}

/* ---- isotonic regression (sklearn's IsotonicRegression, decreasing) ---- */

struct pt {
	double x, y;
};

static int cmp_pt(const void *a, const void *b)
{
	const struct pt *p = a, *q = b;
	return p->x < q->x ? -1 : p->x > q->x;
}

/* Fit y non-increasing in x (ties in x averaged, as sklearn does), clip to
 * [lo, hi], and predict at xs by linear interpolation, clipped at the ends. */
static void isotonic(struct pt *p, size_t n, double lo, double hi, const double *xs, size_t nx,
		     double *out)
{
	qsort(p, n, sizeof *p, cmp_pt);
	/* unique x, mean y, weight = count */
	double *ux = gs_xmalloc(n * sizeof *ux), *uy = gs_xmalloc(n * sizeof *uy), *w = gs_xmalloc(n * sizeof *w);
	size_t m = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double sum = 0;
		while (j < n && p[j].x == p[i].x)
			sum += p[j++].y;
		ux[m] = p[i].x;
		uy[m] = sum / (double)(j - i);
		w[m] = (double)(j - i);
		m++;
		i = j;
	}
	/* pool adjacent violators on -y (non-decreasing) */
	double *by = gs_xmalloc(m * sizeof *by), *bw = gs_xmalloc(m * sizeof *bw);
	size_t *bend = gs_xmalloc(m * sizeof *bend), nb = 0;
	for (size_t i = 0; i < m; i++) {
		by[nb] = -uy[i];
		bw[nb] = w[i];
		bend[nb] = i;
		nb++;
		while (nb > 1 && by[nb - 2] > by[nb - 1]) {
			double tw = bw[nb - 2] + bw[nb - 1];
			by[nb - 2] = (by[nb - 2] * bw[nb - 2] + by[nb - 1] * bw[nb - 1]) / tw;
			bw[nb - 2] = tw;
			bend[nb - 2] = bend[nb - 1];
			nb--;
		}
	}
	double *fy = gs_xmalloc(m * sizeof *fy);
	for (size_t b = 0, i = 0; b < nb; b++)
		for (; i <= bend[b]; i++)
			fy[i] = fmin(hi, fmax(lo, -by[b]));
	for (size_t k = 0; k < nx; k++) {
		double x = xs[k];
		if (m == 1 || x <= ux[0])
			out[k] = fy[0];
		else if (x >= ux[m - 1])
			out[k] = fy[m - 1];
		else {
			size_t a = 0, b = m - 1;
			while (b - a > 1) {
				size_t c = (a + b) / 2;
				if (ux[c] <= x)
					a = c;
				else
					b = c;
			}
			double f = (x - ux[a]) / (ux[b] - ux[a]);
			out[k] = fy[a] + f * (fy[b] - fy[a]);
		}
	}
	free(ux);
	free(uy);
	free(w);
	free(by);
	free(bw);
	free(bend);
	free(fy);
}

/* ---- PCHIP (scipy's PchipInterpolator) ------------------------------------ */

static double sgn(double v)
{
	return (v > 0) - (v < 0);
}

static double pchip_edge(double h0, double h1, double m0, double m1)
{
	double d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1);
	if (sgn(d) != sgn(m0))
		d = 0;
	else if (sgn(m0) != sgn(m1) && fabs(d) > 3 * fabs(m0))
		d = 3 * m0;
	return d;
}

static void pchip(const double *x, const double *y, size_t n, const double *xs, size_t nx, double *out)
{
	double *h = gs_xmalloc(n * sizeof *h), *m = gs_xmalloc(n * sizeof *m), *d = gs_xmalloc(n * sizeof *d);
	for (size_t k = 0; k + 1 < n; k++) {
		h[k] = x[k + 1] - x[k];
		m[k] = (y[k + 1] - y[k]) / h[k];
	}
	if (n == 2)
		d[0] = d[1] = m[0];
	else {
		for (size_t k = 1; k + 1 < n; k++) {
			if (sgn(m[k - 1]) != sgn(m[k]) || m[k - 1] == 0 || m[k] == 0)
				d[k] = 0;
			else {
				double w1 = 2 * h[k] + h[k - 1], w2 = h[k] + 2 * h[k - 1];
				d[k] = (w1 + w2) / (w1 / m[k - 1] + w2 / m[k]);
			}
		}
		d[0] = pchip_edge(h[0], h[1], m[0], m[1]);
		d[n - 1] = pchip_edge(h[n - 2], h[n - 3], m[n - 2], m[n - 3]);
	}
	for (size_t i = 0; i < nx; i++) {
		double v = xs[i];
		size_t k = 0;
		while (k + 2 < n && v > x[k + 1])
			k++;
		double t = (v - x[k]) / h[k], t2 = t * t, t3 = t2 * t;
		out[i] = (2 * t3 - 3 * t2 + 1) * y[k] + (t3 - 2 * t2 + t) * h[k] * d[k] +
			 (-2 * t3 + 3 * t2) * y[k + 1] + (t3 - t2) * h[k] * d[k + 1];
	}
	free(h);
	free(m);
	free(d);
}

/* RandomSearchCalculatedBaseline.get_curve_over_time */
static void random_curve(const struct gs_score_space *s, const double *tr, size_t nr, double *out)
{
	size_t N = s->ndist;
	double *fe = gs_xmalloc(nr * sizeof *fe), *draw = gs_xmalloc(nr * sizeof *draw);
	for (size_t i = 0; i < nr; i++) {
		double f = fmax(tr[i] / s->time_per_feval, 1);
		fe[i] = round_even(f);
		double M = fe[i], idx = round_even(M * (double)(N + 1) / (M + 1));
		if (idx > (double)(N - 1))
			idx = (double)(N - 1);
		draw[i] = s->dist[N - 1 - (size_t)idx]; /* descending */
	}
	/* first occurrences of each number of evaluations */
	double *ux = gs_xmalloc(nr * sizeof *ux), *uy = gs_xmalloc(nr * sizeof *uy);
	size_t nu = 0;
	for (size_t i = 0; i < nr; i++)
		if (!i || fe[i] > fe[i - 1]) {
			ux[nu] = fe[i];
			uy[nu++] = draw[i];
		}
	if (nr <= 2 || nu < 2)
		memcpy(out, draw, nr * sizeof *out);
	else {
		double *xs = gs_xmalloc(nr * sizeof *xs);
		for (size_t i = 0; i < nr; i++)
			xs[i] = fe[0] + (fe[nr - 1] - fe[0]) * (double)i / (double)(nr - 1);
		pchip(ux, uy, nu, xs, nr, out);
		free(xs);
	}
	free(fe);
	free(draw);
	free(ux);
	free(uy);
}

/* numpy's searchsorted(dist, v, 'left') */
static size_t position(const struct gs_score_space *s, double v)
{
	size_t a = 0, b = s->ndist;
	while (a < b) {
		size_t c = (a + b) / 2;
		if (s->dist[c] < v)
			a = c + 1;
		else
			b = c;
	}
	return a;
}

double gs_score(const struct gs_score_space *s, const struct gs_score_run *runs, size_t nruns)
{
	if (!s->ok || !nruns)
		return NAN;
	double tr[RESOLUTION];
	for (size_t i = 0; i < RESOLUTION; i++)
		tr[i] = s->t_start + (s->t_end - s->t_start) * (double)i / (RESOLUTION - 1);
	/* StochasticOptimizationAlgorithm._get_curve_over_time_values_in_range:
	 * rows are evaluations; a row where no repeat has a best yet is
	 * dropped before sizes are taken */
	size_t rows = 0;
	for (size_t r = 0; r < nruns; r++)
		if (runs[r].n > rows)
			rows = runs[r].n;
	size_t *first = gs_xmalloc(nruns * sizeof *first); /* first valid evaluation */
	size_t firstall = rows;
	double *hi = gs_xmalloc(nruns * sizeof *hi);
	for (size_t r = 0; r < nruns; r++) {
		first[r] = runs[r].n;
		for (size_t e = 0; e < runs[r].n; e++)
			if (isfinite(s->perf[runs[r].cfg[e]])) {
				first[r] = e;
				break;
			}
		if (first[r] < firstall)
			firstall = first[r];
		hi[r] = first[r] < runs[r].n ? runs[r].cum_s[runs[r].n - 1] : NAN;
	}
	size_t kept_rows = rows - firstall;
	/* the stopping point: the first repeat's end beyond the median end */
	double stop = tr[RESOLUTION - 1];
	{
		double *v = gs_xmalloc(nruns * sizeof *v);
		size_t nv = 0;
		for (size_t r = 0; r < nruns; r++)
			if (!isnan(hi[r]))
				v[nv++] = hi[r];
		qsort(v, nv, sizeof *v, cmp_double);
		if (nv) {
			double med = median_sorted(v, nv);
			for (size_t i = 0; i < nv; i++)
				if (v[i] > med) {
					stop = v[i];
					break;
				}
		}
		free(v);
	}
	double mg = 0.1 + 0.25 * ((double)nruns / ((double)kept_rows * (double)nruns));
	double lo_t = tr[0] * (1 - mg), hi_t = tr[RESOLUTION - 1] * (1 + mg);
	size_t cap = 0;
	for (size_t r = 0; r < nruns; r++)
		cap += runs[r].n;
	struct pt *p = gs_xmalloc((cap ? cap : 1) * sizeof *p);
	size_t np = 0;
	int enough = 1;
	for (size_t r = 0; r < nruns; r++) {
		size_t inrange = 0;
		double best = INFINITY;
		for (size_t e = 0; e < runs[r].n; e++) {
			double v = s->perf[runs[r].cfg[e]], t = runs[r].cum_s[e];
			if (isfinite(v) && v < best)
				best = v;
			if (e < firstall)
				continue;
			/* a time counts where the package has one: the
			 * repeat has a best, or an earlier row had one */
			if (t >= lo_t && t <= hi_t)
				inrange++;
			if (isfinite(best) && t >= lo_t && t <= hi_t) {
				p[np].x = t;
				p[np].y = (double)position(s, best);
				np++;
			}
		}
		if (inrange <= 1)
			enough = 0;
	}
	double score = NAN;
	if (enough && np) {
		double ymin = INFINITY, ymax = -INFINITY;
		for (size_t i = 0; i < np; i++) {
			ymin = fmin(ymin, p[i].y);
			ymax = fmax(ymax, p[i].y);
		}
		double fit[RESOLUTION], curve[RESOLUTION], rnd[RESOLUTION];
		isotonic(p, np, ymin, ymax, tr, RESOLUTION, fit);
		for (size_t i = 0; i < RESOLUTION; i++) {
			double k = round_even(fit[i]);
			if (k < 0)
				k = 0;
			if (k > (double)(s->ndist - 1))
				k = (double)(s->ndist - 1);
			curve[i] = s->dist[(size_t)k];
		}
		if (stop < tr[RESOLUTION - 1] && stop > tr[0]) {
			size_t at = 0;
			while (at < RESOLUTION && !(tr[at] > stop))
				at++;
			for (size_t i = at; i < RESOLUTION; i++)
				curve[i] = curve[at];
		}
		random_curve(s, tr, RESOLUTION, rnd);
		double opt = s->dist[0], sum = 0;
		int zero = 0;
		for (size_t i = 0; i < RESOLUTION; i++) {
			double div = opt - rnd[i];
			if (div == 0) {
				zero = 1;
				break;
			}
			sum += (curve[i] - rnd[i]) / div;
		}
		if (!zero)
			score = sum / RESOLUTION;
	}
	free(p);
	free(first);
	free(hi);
	return score;
}
