/* ro.c — Liang et al.'s RO search (ROS): rank the configurations by
 * register ratio x occupancy, facts known after compiling and before
 * measuring, and measure the best-ranked ones.
 *
 * Liang's metric: occupancy alone favours configurations that cap the
 * registers until the kernel spills, and registers alone say nothing about
 * how many threads are active; the register ratio is their linear estimate
 * of one thread's latency (more of the registers the kernel wants, fewer
 * spills), and the product estimates the kernel's throughput.  Both lie in
 * (0, 1].  ROS measures every configuration of the highest RO value (its
 * ties are broken by measurement), which is the strategy's plan.
 *
 * The ratio here is a configuration's registers over the most any
 * configuration of the space uses: the kernel without a cap, when the cap is
 * a knob (Liang's spaces, spaces/regthread.space).  Where other knobs change
 * the code, more registers usually mean more work per thread, which the
 * ratio then rewards; that is the metric's assumption, not a measured fact.
 *
 * After the plan the search goes on in decreasing RO order, so that a
 * larger budget measures what the metric ranks next.  Within a value, the
 * prior's predicted time orders the ties when it has one, else the
 * enumeration order.  Configurations without registers or occupancy come
 * last, at random. */
#include "search/strat.h"
#include "search/strategy.h"

#include <math.h>
#include <stdlib.h>

#include "util/util.h"

static void *ro_new(const struct gs_sspace *sp, const struct gs_prior *prior, uint64_t seed)
{
	struct gs_fixed *r = gs_fixed_new(sp);
	size_t n = sp->n;
	int rmax = 0;
	for (size_t c = 0; c < n; c++)
		if (prior->registers[c] > rmax)
			rmax = prior->registers[c];
	double *ro = gs_xmalloc((n ? n : 1) * sizeof *ro);
	double top = -1;
	for (size_t c = 0; c < n; c++) {
		double o = prior->occupancy[c];
		int g = prior->registers[c];
		ro[c] = g > 0 && !isnan(o) ? (double)g / rmax * o : NAN;
		if (ro[c] > top)
			top = ro[c];
	}
	/* the key: the rank of the RO value (highest first), then the
	 * position in the prior's time order (its unknown times last, in
	 * enumeration order) */
	double *neg = gs_xmalloc((n ? n : 1) * sizeof *neg);
	for (size_t c = 0; c < n; c++)
		neg[c] = -ro[c];
	size_t *byro = gs_xmalloc((n ? n : 1) * sizeof *byro);
	for (size_t i = 0; i < n; i++)
		byro[i] = i;
	gs_sort_by(byro, n, neg);
	double *key = gs_xmalloc((n ? n : 1) * sizeof *key);
	size_t nk = 0, rank = 0;
	for (size_t i = 0; i < n && !isnan(ro[byro[i]]); i++) {
		size_t c = byro[i];
		if (i && ro[c] != ro[byro[i - 1]])
			rank++;
		key[c] = (double)rank * (double)(n + 1);
		nk++;
		r->plan += ro[c] == top;
	}
	for (size_t i = nk; i < n; i++)
		key[byro[i]] = NAN;
	size_t *byt = gs_prior_order(prior);
	for (size_t i = 0; i < n; i++)
		if (!isnan(key[byt[i]]))
			key[byt[i]] += (double)i;
	free(byt);
	free(neg);
	r->order = byro;
	gs_sort_by(r->order, n, key);
	struct gs_rng g;
	gs_rng_seed(&g, seed);
	gs_rng_shuffle(&g, r->order + nk, n - nk);
	free(key);
	free(ro);
	return r;
}

const struct gs_strategy_ops gs_strategy_ro = {
	"ro", "Liang's RO search: register ratio x occupancy, highest first", GS_PRIOR_NEEDED,
	ro_new, gs_fixed_propose_op, gs_track_observe_op, gs_fixed_free_op, gs_fixed_planned_op,
};
