/* po.c — Liang et al.'s Performance-and-Occupancy search (POS), with their
 * filter (POSF).
 *
 * Liang's observation: a performance estimate alone misranks
 * configurations that differ in occupancy, and occupancy alone says nothing
 * about work per thread; a configuration worth measuring is one that no
 * other beats on both.  So the candidates are the Pareto-optimal set on
 * (predicted time, lower better; occupancy, higher better), and only those
 * are measured.  POSF prunes that set further: of the Pareto set ordered by
 * predicted time, the first GS_PO_FILTER share (their range is 0.3 to 0.5)
 * is measured first.
 *
 * Here the search does not stop there: after the filtered set come the rest
 * of the Pareto set, then the next Pareto layer (the set that is optimal
 * once the first is removed), and so on, each in predicted-time order, so
 * that a budget larger than Liang's set keeps measuring what is most likely
 * next.  Without occupancy (a prior that has none) the layers are the
 * predicted-time order itself, and `po` is `prior` without its fallback.
 * Configurations the prior cannot predict come last, at random. */
#include "search/strat.h"
#include "search/strategy.h"

#include <math.h>
#include <stdlib.h>

#include "util/util.h"

#define GS_PO_FILTER 0.4

static void *po_new(const struct gs_sspace *sp, const struct gs_prior *prior, uint64_t seed)
{
	struct gs_fixed *p = gs_fixed_new(sp);
	size_t n = sp->n;
	/* by predicted time; a failure predicted is last among the known */
	size_t *byt = gs_prior_order(prior);
	size_t nk = 0;
	while (nk < n && !isnan(prior->time_ms[byt[nk]]))
		nk++;
	/* Pareto layers in one pass over increasing time: a point is
	 * dominated by a layer when that layer holds an earlier point of at
	 * least its occupancy; its layer is the first that does not dominate
	 * it (each layer's best occupancy falls from layer to layer) */
	size_t *layer = gs_xmalloc((n ? n : 1) * sizeof *layer);
	double *top = gs_xmalloc((nk + 1) * sizeof *top);
	size_t nl = 0;
	for (size_t i = 0; i < nk; i++) {
		size_t c = byt[i];
		double o = prior->occupancy[c];
		if (isnan(o))
			o = 0.0;
		size_t l = 0;
		while (l < nl && top[l] >= o)
			l++;
		if (l == nl)
			top[nl++] = o;
		else if (o > top[l])
			top[l] = o;
		layer[c] = l;
	}
	/* order: the filtered share of layer 0, the rest of layer 0, layer 1,
	 * ... each by predicted time (byt is that order already) */
	size_t n0 = 0;
	for (size_t i = 0; i < nk; i++)
		n0 += layer[byt[i]] == 0;
	/* planned(): Liang's POS set, the first layer; POSF is its first
	 * GS_PO_FILTER share in this same order */
	p->plan = n0;
	size_t keep = (size_t)ceil(GS_PO_FILTER * (double)n0);
	double *key = gs_xmalloc((n ? n : 1) * sizeof *key);
	size_t seen0 = 0;
	for (size_t i = 0; i < n; i++)
		key[i] = NAN;
	for (size_t i = 0; i < nk; i++) {
		size_t c = byt[i];
		size_t l = layer[c] + 1;
		if (layer[c] == 0 && seen0++ < keep)
			l = 0;
		key[c] = (double)l * (double)(n + 1) + (double)i;
	}
	p->order = byt;
	gs_sort_by(p->order, n, key);
	/* the unknown, at random */
	struct gs_rng r;
	gs_rng_seed(&r, seed);
	gs_rng_shuffle(&r, p->order + nk, n - nk);
	free(key);
	free(layer);
	free(top);
	return p;
}

const struct gs_strategy_ops gs_strategy_po = {
	"po", "Liang's Pareto set on (predicted time, occupancy), filtered (POSF 0.4)", GS_PRIOR_NEEDED,
	po_new, gs_fixed_propose_op, gs_track_observe_op, gs_fixed_free_op, gs_fixed_planned_op,
};
