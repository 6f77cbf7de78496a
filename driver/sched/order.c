/* order.c — the compile-time predictor of order.h. */
#include "sched/order.h"

#include <math.h>
#include <stdlib.h>

#include "util/util.h"

struct effect {
	double sum; /* of log seconds */
	unsigned n;
};

struct gs_corder {
	const struct gs_space *sp;
	struct effect **by;  /* per parameter, per value index */
	double *prior;       /* per parameter, per value index */
	double sum;          /* of log seconds, all compiles */
	unsigned n;
};

static double magnitude(struct gs_value v)
{
	switch (v.t) {
	case GS_V_INT: return log1p(fabs((double)v.i));
	case GS_V_FLOAT: return isfinite(v.f) ? log1p(fabs(v.f)) : 0;
	case GS_V_BOOL: return v.i ? log(2.0) : 0;
	default: return 0;
	}
}

struct gs_corder *gs_corder_new(const struct gs_space *sp)
{
	struct gs_corder *o = gs_xcalloc(1, sizeof *o);
	o->sp = sp;
	o->by = gs_xcalloc(sp->nparams + 1, sizeof *o->by);
	size_t total = 0;
	for (size_t p = 0; p < sp->nparams; p++)
		total += sp->params[p].nvals;
	o->prior = gs_xcalloc(total + 1, sizeof *o->prior);
	total = 0;
	for (size_t p = 0; p < sp->nparams; p++) {
		o->by[p] = gs_xcalloc(sp->params[p].nvals + 1, sizeof **o->by);
		for (size_t j = 0; j < sp->params[p].nvals; j++)
			o->prior[total + j] = magnitude(sp->params[p].vals[j]);
		total += sp->params[p].nvals;
	}
	return o;
}

void gs_corder_free(struct gs_corder *o)
{
	if (!o)
		return;
	for (size_t p = 0; p < o->sp->nparams; p++)
		free(o->by[p]);
	free(o->by);
	free(o->prior);
	free(o);
}

double gs_corder_predict(const struct gs_corder *o, const size_t *pos)
{
	double prior = 0, learned = 0;
	size_t base = 0;
	for (size_t p = 0; p < o->sp->nparams; p++) {
		size_t j = pos[p];
		if (j < o->sp->params[p].nvals) {
			prior += o->prior[base + j];
			const struct effect *e = &o->by[p][j];
			if (o->n >= 2 && e->n)
				learned += e->sum / e->n - o->sum / o->n;
		}
		base += o->sp->params[p].nvals;
	}
	/* the prior only breaks ties between learned predictions */
	return learned + 1e-6 * prior;
}

void gs_corder_learn(struct gs_corder *o, const size_t *pos, double seconds)
{
	double l = log(seconds > 1e-6 ? seconds : 1e-6);
	o->sum += l;
	o->n++;
	for (size_t p = 0; p < o->sp->nparams; p++)
		if (pos[p] < o->sp->params[p].nvals) {
			o->by[p][pos[p]].sum += l;
			o->by[p][pos[p]].n++;
		}
}

unsigned gs_corder_learned(const struct gs_corder *o)
{
	return o->n;
}
