/* early.c — see early.h: a pool of threads compiling, before the sweep
 * starts, the variants it will ask for first. */
#define _GNU_SOURCE
#include "sched/early.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/variant.h"
#include "sched/order.h"
#include "space/enum.h"
#include "space/load.h"
#include "util/util.h"

enum { QUEUED, RUNNING, DONE, TAKEN, DROPPED };

struct item {
	struct gs_variant v;
	size_t *pos;
	double cost;
	int state;
	struct gs_built b;
};

struct gs_early {
	pthread_mutex_t mu;
	pthread_cond_t cv;   /* an item changed state, or the pool stopped */
	struct gs_space *sp;
	struct gs_nvrtc *nvrtc;
	struct gs_early_opts o;
	struct item *it;     /* never reallocated: the threads point into it */
	size_t n, cap;
	struct item **by_hash; /* the items sorted by hash, once enumerated */
	pthread_t *th;
	unsigned nth;
	int stopped, enumerated;
	int joining;         /* the threads may end (gs_early_join) */
	struct gs_corder *order;
	size_t started, taken;
};

struct gs_early *gs_early_new(void)
{
	struct gs_early *e = gs_xcalloc(1, sizeof(*e));
	pthread_mutex_init(&e->mu, NULL);
	pthread_cond_init(&e->cv, NULL);
	return e;
}

/* The queued item predicted to compile longest, as compiles.c picks from
 * its window; NULL: none. */
static struct item *pick(struct gs_early *e)
{
	struct item *best = NULL;
	for (size_t i = 0; i < e->n; i++)
		if (e->it[i].state == QUEUED && (!best || e->it[i].cost > best->cost))
			best = &e->it[i];
	return best;
}

static void *compile_thread(void *arg)
{
	struct gs_early *e = arg;
	pthread_mutex_lock(&e->mu);
	for (;;) {
		struct item *x = e->stopped ? NULL : pick(e);
		/* done, but kept until the join: the compile servers this
		 * thread started die with it, and the sweep compiles on them */
		if (!x && (e->stopped || e->enumerated) && e->joining)
			break;
		if (!x) {
			pthread_cond_wait(&e->cv, &e->mu);
			continue;
		}
		x->state = RUNNING;
		e->started++;
		pthread_mutex_unlock(&e->mu);
		/* as compiles.c's work_cb: the same variant compiles the same */
		gs_compile_variant(e->nvrtc, &x->v, 1, e->o.jobs > 1 || e->o.compile_timeout_s > 0,
				   e->o.compile_timeout_s, &x->b);
		pthread_mutex_lock(&e->mu);
		if (!x->b.nvrtc_failed && x->b.out.seconds > 0)
			gs_corder_learn(e->order, x->pos, x->b.out.seconds);
		x->state = DONE;
		pthread_cond_broadcast(&e->cv);
	}
	pthread_mutex_unlock(&e->mu);
	return NULL;
}

static int has_hash(const struct gs_early *e, const char *hash)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->it[i].v.hash, hash))
			return 1;
	return 0;
}

static void start_threads(struct gs_early *e)
{
	e->th = gs_xcalloc(e->o.jobs, sizeof(*e->th));
	for (unsigned i = 0; i < e->o.jobs; i++)
		if (pthread_create(&e->th[e->nth], NULL, compile_thread, e) == 0)
			e->nth++;
}

size_t gs_early_run(struct gs_early *e, struct gs_space *sp, struct gs_nvrtc *nvrtc,
		    const struct gs_early_opts *o)
{
	e->sp = sp;
	e->nvrtc = nvrtc;
	e->o = *o;
	e->o.jobs = o->jobs ? o->jobs : 1;
	/* as many as the sweep's window holds (sweep.c's gs_pipe_pump) */
	e->cap = 64 * (size_t)e->o.jobs > 4096 ? 64 * (size_t)e->o.jobs : 4096;
	e->it = gs_xcalloc(e->cap, sizeof(*e->it));
	e->order = gs_corder_new(sp);
	struct gs_buf base = GS_BUF_INIT;
	if (o->baseline_first && sp->baseline)
		gs_config_json(sp, sp->baseline, &base);
	struct gs_vm vm;
	gs_vm_init(&vm);
	struct gs_enum en;
	int ok = gs_enum_init(&en, sp, o->shard_i, o->shard_n) == 0;
	double t0 = gs_now();
	const char *nv = gs_nvrtc_version(nvrtc);
	/* the threads start once the first few are known, or all: the pick
	 * among more of them is closer to the sweep's */
	while (ok && e->n < e->cap && gs_enum_next(&en) > 0) {
		struct gs_variant v;
		char err[512];
		if (gs_variant_build(sp, en.env, o->arch, nv, &vm, &v, err, sizeof err) < 0)
			break; /* the sweep will say why */
		int found = 0, dup;
		char status[16];
		if (o->cached && gs_store_variant_find(o->cached, v.hash, &found, status) < 0)
			found = 0;
		pthread_mutex_lock(&e->mu);
		dup = found || has_hash(e, v.hash);
		if (!dup && !e->stopped) {
			struct item *x = &e->it[e->n];
			x->v = v;
			x->pos = gs_xmalloc((sp->nparams + 1) * sizeof(*x->pos));
			memcpy(x->pos, en.pos, sp->nparams * sizeof(*x->pos));
			int is_base = 0;
			if (base.len) {
				struct gs_buf pj = GS_BUF_INIT;
				gs_config_json(sp, en.env, &pj);
				is_base = !strcmp(gs_buf_str(&pj), gs_buf_str(&base));
				gs_buf_release(&pj);
			}
			x->cost = is_base ? INFINITY : gs_corder_predict(e->order, x->pos);
			x->state = QUEUED;
			e->n++;
			pthread_cond_broadcast(&e->cv);
		}
		int stopped = e->stopped;
		pthread_mutex_unlock(&e->mu);
		if (dup || stopped)
			gs_variant_release(&v);
		if (stopped)
			break;
		if (!e->th && (e->n >= e->o.jobs * 4 || gs_now() - t0 > 0.005))
			start_threads(e);
	}
	gs_enum_release(&en);
	gs_vm_release(&vm);
	gs_buf_release(&base);
	pthread_mutex_lock(&e->mu);
	e->enumerated = 1;
	pthread_cond_broadcast(&e->cv);
	size_t n = e->n;
	pthread_mutex_unlock(&e->mu);
	if (!e->th && n)
		start_threads(e);
	return n;
}

static int by_hash(const void *a, const void *b)
{
	return strcmp((*(struct item *const *)a)->v.hash, (*(struct item *const *)b)->v.hash);
}

void gs_early_stop(struct gs_early *e)
{
	if (!e)
		return;
	pthread_mutex_lock(&e->mu);
	if (!e->stopped) {
		e->stopped = 1;
		for (size_t i = 0; i < e->n; i++)
			if (e->it[i].state == QUEUED)
				e->it[i].state = DROPPED;
		pthread_cond_broadcast(&e->cv);
	}
	pthread_mutex_unlock(&e->mu);
}

/* The item of hash, or NULL; e->mu held, after the enumeration (no item
 * is added any more). */
static struct item *find(struct gs_early *e, const char *hash)
{
	if (!e->by_hash) {
		/* the sweep asks once per variant: a sorted index, not a scan */
		e->by_hash = gs_xmalloc((e->n + 1) * sizeof(*e->by_hash));
		for (size_t i = 0; i < e->n; i++)
			e->by_hash[i] = &e->it[i];
		qsort(e->by_hash, e->n, sizeof(*e->by_hash), by_hash);
	}
	size_t lo = 0, hi = e->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(e->by_hash[mid]->v.hash, hash);
		if (!c)
			return e->by_hash[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int gs_early_has(struct gs_early *e, const char *hash)
{
	if (!e)
		return 0;
	pthread_mutex_lock(&e->mu);
	struct item *x = e->enumerated ? find(e, hash) : NULL;
	int r = x && (x->state == RUNNING || x->state == DONE);
	pthread_mutex_unlock(&e->mu);
	return r;
}

int gs_early_take(struct gs_early *e, const char *hash, struct gs_built *b)
{
	if (!e)
		return 0;
	pthread_mutex_lock(&e->mu);
	struct item *x = e->enumerated ? find(e, hash) : NULL;
	while (x && x->state == RUNNING)
		pthread_cond_wait(&e->cv, &e->mu);
	int r = x && x->state == DONE;
	if (r) {
		*b = x->b;
		memset(&x->b, 0, sizeof x->b);
		x->state = TAKEN;
		e->taken++;
	}
	pthread_mutex_unlock(&e->mu);
	return r;
}

void gs_early_join(struct gs_early *e)
{
	if (!e)
		return;
	gs_early_stop(e);
	pthread_mutex_lock(&e->mu);
	e->joining = 1;
	pthread_cond_broadcast(&e->cv);
	pthread_mutex_unlock(&e->mu);
	for (unsigned i = 0; i < e->nth; i++)
		pthread_join(e->th[i], NULL);
	e->nth = 0;
}

void gs_early_counts(struct gs_early *e, size_t *started, size_t *taken)
{
	pthread_mutex_lock(&e->mu);
	*started = e->started;
	*taken = e->taken;
	pthread_mutex_unlock(&e->mu);
}

void gs_early_free(struct gs_early *e)
{
	if (!e)
		return;
	gs_early_join(e);
	for (size_t i = 0; i < e->n; i++) {
		if (e->it[i].state == DONE)
			gs_built_release(&e->it[i].b, e->it[i].v.nnames);
		gs_variant_release(&e->it[i].v);
		free(e->it[i].pos);
	}
	free(e->it);
	free(e->by_hash);
	free(e->th);
	if (e->order)
		gs_corder_free(e->order);
	gs_space_free(e->sp);
	pthread_cond_destroy(&e->cv);
	pthread_mutex_destroy(&e->mu);
	free(e);
}
