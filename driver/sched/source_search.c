/* source_search.c — a search strategy as the sweep's source (source.h):
 * the shard's valid configurations become a search space, the strategy
 * proposes what to measure, the budget says how much.
 *
 * A strategy is a deterministic function of its seed and of its calls
 * (search/strategy.h), but results arrive out of order and as fast as the
 * devices go.  So under a count budget (or none) the calls never depend on
 * timing: proposals fill slots 0, 1, 2 ...; observations are delivered
 * strictly in slot order (early ones wait); and a proposal is asked for
 * only while fewer than `window` slots are undelivered and the strategy
 * did not answer "wait" since the last delivery.  A result arriving late
 * only pauses that sequence -- and a variant that compiles for twenty
 * seconds pauses the whole search that long.
 *
 * Under a time budget, what a run measures depends on the timing anyway
 * (how many results fit in the time), so there results are delivered in
 * the order they arrive, with the same window: on a compile-heavy space
 * (results/search/live-h200/) that measured three to five times the
 * configurations in the same time, and `replay --jobs` shows it on any
 * recorded sweep.
 * Such a search is not repeatable, but what it measured stays measured: a
 * rerun observes the stored results as the strategy proposes them.
 *
 * A proposal whose result is already final in the store (a resumed or
 * extended search) is observed with the stored time and counts against
 * the budget as an evaluation: a search killed and run again replays the
 * same calls and measures only what the first run did not.
 *
 * `--prior static` is read here from the sweep's own compiled variants
 * (`run` compiles them all first): registers and shared memory, and the
 * occupancy of the first launch's block by the device's rules. */
#include "sched/source_search.h"

#include <jansson.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/emu.h"
#include "sched/sweepid.h"
#include "search/prior.h"
#include "search/replay.h"
#include "search/strategy.h"
#include "space/enum.h"
#include "util/util.h"

struct source_search {
	struct gs_sched_source src;
	const struct gs_space *sp;
	struct gs_store *st;
	int64_t sweep;
	struct gs_sspace ss;
	struct gs_prior prior;
	int have_prior;
	struct gs_strategy *strat;
	uint32_t *pos;        /* ss.n x nparams: the space's value positions */
	size_t *cand_pos;     /* the candidate's, as gs_candidate wants them */
	struct gs_value *env; /* the candidate's environment */
	struct gs_vm vm;
	size_t *slot_cfg;     /* proposal order */
	double *slot_ms;      /* observed time per slot, NAN not yet */
	long *cfg_slot;       /* per configuration: its slot, or -1 */
	size_t nslots, ndelivered, budget_n, window;
	int arrival;          /* deliver in arrival order (a time budget) */
	size_t *arrived;      /* slots in the order their results came */
	size_t narrived;
	double budget_s;      /* a time: the sweep's deadline ends the search */
	int waiting;          /* the strategy said "wait" since the last delivery */
	int done;
};

static void search_release(struct gs_sched_source *src)
{
	struct source_search *s = (struct source_search *)src;
	gs_strategy_free(s->strat);
	if (s->have_prior)
		gs_prior_release(&s->prior);
	gs_sspace_release(&s->ss);
	gs_vm_release(&s->vm);
	free(s->pos);
	free(s->cand_pos);
	free(s->env);
	free(s->slot_cfg);
	free(s->slot_ms);
	free(s->cfg_slot);
	free(s->arrived);
	free(s);
}

/* The stored time of a final configuration: its time when ok, INFINITY
 * for any other outcome (or none). */
static double stored_ms(struct source_search *s, int64_t idx)
{
	sqlite3_stmt *q;
	double ms = INFINITY;
	if (sqlite3_prepare_v2(gs_store_sqlite(s->st), "SELECT status, time_ms FROM result WHERE "
				   "sweep_id = ?1 AND idx = ?2", -1, &q, NULL) != SQLITE_OK)
		return ms;
	sqlite3_bind_int64(q, 1, s->sweep);
	sqlite3_bind_int64(q, 2, idx);
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0) &&
	    !strcmp((const char *)sqlite3_column_text(q, 0), "ok") &&
	    sqlite3_column_type(q, 1) != SQLITE_NULL)
		ms = sqlite3_column_double(q, 1);
	sqlite3_finalize(q);
	return ms;
}

static void search_result(struct gs_sched_source *src, int64_t idx, const char *outcome,
			  double time_ms)
{
	struct source_search *s = (struct source_search *)src;
	/* configurations are numbered in enumeration order: idx -> number */
	size_t lo = 0, hi = s->ss.n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->ss.idx[mid] < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->ss.n || s->ss.idx[lo] != idx || s->cfg_slot[lo] < 0)
		return;
	double ms = !outcome ? stored_ms(s, idx)
		    : !strcmp(outcome, "ok") && time_ms > 0 ? time_ms : INFINITY;
	size_t slot = (size_t)s->cfg_slot[lo];
	if (isnan(s->slot_ms[slot]))
		s->arrived[s->narrived++] = slot;
	s->slot_ms[slot] = ms;
}

/* The configuration's environment and positions, for the loop. */
static int candidate(struct source_search *s, size_t cfg, struct gs_candidate *out)
{
	const struct gs_space *sp = s->sp;
	memcpy(s->env, sp->env0, sp->nslots * sizeof(*s->env));
	for (size_t k = 0; k < sp->nparams; k++) {
		s->cand_pos[k] = s->pos[cfg * sp->nparams + k];
		s->env[sp->params[k].slot] = sp->params[k].vals[s->cand_pos[k]];
	}
	struct gs_diag d = GS_DIAG_INIT;
	int failed;
	gs_vm_reset(&s->vm);
	int r = gs_config_check(sp, s->env, &s->vm, &failed, &d); /* its lets */
	gs_diag_print(&d, stderr);
	gs_diag_release(&d);
	if (r != 1)
		return -1;
	out->idx = s->ss.idx[cfg];
	out->env = s->env;
	out->pos = s->cand_pos;
	return 0;
}

/* An integer expression of the configuration in s->env; -1 when it has
 * none or it is not one. */
static int64_t eval_int(struct source_search *s, const struct gs_code *c)
{
	struct gs_value v;
	gs_vm_reset(&s->vm);
	if (!c || gs_vm_eval(&s->vm, c, s->env, &v) < 0)
		return -1;
	if (v.t == GS_V_FLOAT && v.f == floor(v.f) && fabs(v.f) < 9.2e18)
		return (int64_t)v.f;
	return v.t == GS_V_INT ? v.i : -1;
}

/* Threads per block and dynamic shared memory of the configuration's first
 * measured launch (the launch whose occupancy a result reports); -1 when
 * they cannot be told before running (a loop variable in them). */
static int first_block(struct source_search *s, size_t cfg, int64_t *threads, int64_t *dyn)
{
	struct gs_candidate cand;
	if (candidate(s, cfg, &cand) < 0)
		return -1;
	const struct gs_space *sp = s->sp;
	const struct gs_launch *l = sp->nlaunches ? &sp->launches[0] : NULL;
	const struct gs_geom *g = l && l->block.n ? &l->block : &sp->block;
	const struct gs_code *sh = l && l->shared_c ? l->shared_c : sp->shared_c;
	*threads = 1;
	for (int i = 0; i < g->n; i++) {
		int64_t d = eval_int(s, g->c[i]);
		if (d <= 0)
			return -1;
		*threads *= d;
	}
	*dyn = sh ? eval_int(s, sh) : 0;
	return *dyn < 0 || !g->n ? -1 : 0;
}

/* The static prior of every configuration: no predicted time but for a
 * variant that failed to compile (a failure foretold); registers, and the
 * occupancy prof's rules give them. */
static void static_prior(struct source_search *s, const struct gs_emu_profile *prof)
{
	gs_prior_init(&s->prior, "static", s->ss.n);
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(gs_store_sqlite(s->st), "SELECT v.status, v.registers, "
			       "coalesce(v.static_smem, 0) FROM config c JOIN variant v ON v.hash = "
			       "c.variant_hash WHERE c.sweep_id = ?1 AND c.idx = ?2", -1, &q, NULL) != SQLITE_OK)
		return;
	for (size_t c = 0; c < s->ss.n; c++) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, s->sweep);
		sqlite3_bind_int64(q, 2, s->ss.idx[c]);
		if (sqlite3_step(q) != SQLITE_ROW)
			continue;
		const char *st = (const char *)sqlite3_column_text(q, 0);
		if (st && strcmp(st, "ok")) {
			s->prior.time_ms[c] = INFINITY;
			s->prior.known++;
			continue;
		}
		if (sqlite3_column_type(q, 1) == SQLITE_NULL)
			continue;
		int regs = sqlite3_column_int(q, 1);
		s->prior.registers[c] = regs;
		int64_t threads, dyn;
		struct gs_emu_occ o;
		char why[128];
		if (prof && first_block(s, c, &threads, &dyn) == 0 && threads <= INT32_MAX &&
		    dyn + sqlite3_column_int64(q, 2) <= INT32_MAX &&
		    gs_emu_occupancy(prof, (int)threads, regs, (int)(dyn + sqlite3_column_int64(q, 2)), &o,
				     why, sizeof why) == 0 &&
		    o.blocks_per_sm > 0)
			s->prior.occupancy[c] = o.occupancy;
	}
	sqlite3_finalize(q);
}

/* A count only: a time budget is the sweep's to end (gs_sweep_opts'
 * deadline), which also stops what is in flight. */
static int budget_left(const struct source_search *s)
{
	return s->nslots < s->budget_n;
}

static int search_next(struct gs_sched_source *src, struct gs_candidate *out, size_t max)
{
	struct source_search *s = (struct source_search *)src;
	if (!max)
		return GS_SOURCE_WAIT;
	for (;;) {
		if (!s->done && !s->waiting && s->nslots - s->ndelivered < s->window) {
			if (!budget_left(s)) {
				s->done = 1;
				continue;
			}
			size_t c;
			long r = gs_strategy_propose(s->strat, &c, 1);
			if (r == GS_SEARCH_EXHAUSTED) {
				s->done = 1;
				continue;
			}
			if (r == 0) {
				s->waiting = 1;
				continue;
			}
			s->cfg_slot[c] = (long)s->nslots;
			s->slot_cfg[s->nslots] = c;
			s->slot_ms[s->nslots++] = NAN;
			return candidate(s, c, out) < 0 ? GS_SOURCE_FAILED : 1;
		}
		size_t j = SIZE_MAX;
		if (s->arrival && s->ndelivered < s->narrived)
			j = s->arrived[s->ndelivered];
		else if (!s->arrival && s->ndelivered < s->nslots && !isnan(s->slot_ms[s->ndelivered]))
			j = s->ndelivered;
		if (j != SIZE_MAX) {
			s->ndelivered++;
			gs_strategy_observe(s->strat, s->slot_cfg[j], s->slot_ms[j]);
			s->waiting = 0;
			continue;
		}
		/* waiting for a result in flight; nothing in flight: no more */
		return s->ndelivered < s->nslots ? GS_SOURCE_WAIT : GS_SOURCE_DONE;
	}
}

static void enum_report(const struct gs_enum *e)
{
	struct gs_diag d = GS_DIAG_INIT;
	gs_enum_report(e, &d);
	gs_diag_print(&d, stderr);
	gs_diag_release(&d);
}

/* The shard's valid configurations as a search space, each with its value
 * positions in s->pos; -1 after printing why. */
static int materialise(struct source_search *s, uint64_t shard_i, uint64_t shard_n)
{
	const struct gs_space *sp = s->sp;
	struct gs_sweepid sid;
	struct gs_buf err = GS_BUF_INIT, cj = GS_BUF_INIT;
	gs_sweepid_init(&sid, sp, NULL);
	json_t *params = json_loads(gs_buf_str(&sid.params), 0, NULL);
	int rc = gs_sspace_init(&s->ss, params, &err);
	json_decref(params);
	gs_sweepid_release(&sid);
	if (rc < 0) {
		fprintf(stderr, "gsearch: error: the search space: %s\n", gs_buf_str(&err));
		gs_buf_release(&err);
		return -1;
	}
	struct gs_enum e;
	size_t cap = 0, n = 0;
	int r = gs_enum_init(&e, sp, shard_i, shard_n);
	while (r >= 0 && (r = gs_enum_next(&e)) > 0) {
		gs_buf_reset(&cj);
		gs_config_json(sp, e.env, &cj);
		json_t *obj = json_loads(gs_buf_str(&cj), 0, NULL);
		long c = obj ? gs_sspace_add(&s->ss, obj, (int64_t)e.index, &err) : -1;
		json_decref(obj);
		if (c == -2)
			continue; /* the same values twice: one configuration to a strategy */
		if (c < 0) {
			fprintf(stderr, "gsearch: error: the search space: configuration %llu: %s\n",
				(unsigned long long)e.index, gs_buf_str(&err));
			rc = -1;
			break;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			s->pos = gs_xrealloc(s->pos, cap * sp->nparams * sizeof(*s->pos));
		}
		for (size_t k = 0; k < sp->nparams; k++)
			s->pos[n * sp->nparams + k] = (uint32_t)e.pos[k];
		n++;
	}
	if (r < 0) {
		enum_report(&e);
		rc = -1;
	}
	gs_enum_release(&e);
	gs_buf_release(&err);
	gs_buf_release(&cj);
	return rc;
}

struct gs_sched_source *gs_sched_source_search(const struct gs_space *sp, struct gs_store *st,
					       int64_t sweep, const struct gs_search_opts *o,
					       struct gs_search_info *info)
{
	struct source_search *s = gs_xcalloc(1, sizeof(*s));
	s->src = (struct gs_sched_source){ search_next, search_result, search_release };
	s->sp = sp;
	s->st = st;
	s->sweep = sweep;
	gs_vm_init(&s->vm);
	s->env = gs_xmalloc((sp->nslots + 1) * sizeof(*s->env));
	s->cand_pos = gs_xcalloc(sp->nparams + 1, sizeof(*s->cand_pos));
	if (materialise(s, o->shard_i, o->shard_n) < 0)
		goto fail;
	size_t n = s->ss.n;
	s->slot_cfg = gs_xmalloc((n + 1) * sizeof(*s->slot_cfg));
	s->slot_ms = gs_xmalloc((n + 1) * sizeof(*s->slot_ms));
	s->cfg_slot = gs_xmalloc((n + 1) * sizeof(*s->cfg_slot));
	s->arrived = gs_xmalloc((n + 1) * sizeof(*s->arrived));
	for (size_t i = 0; i < n; i++)
		s->cfg_slot[i] = -1;
	if (o->prior && !strcmp(o->prior, "static")) {
		s->have_prior = 1;
		static_prior(s, o->occ_profile);
	} else if (o->prior) {
		struct gs_buf err = GS_BUF_INIT;
		s->have_prior = 1;
		if (gs_prior_load(&s->prior, o->prior, &s->ss, &err) < 0) {
			fprintf(stderr, "gsearch: error: --prior %s: %s\n", o->prior, gs_buf_str(&err));
			gs_buf_release(&err);
			goto fail;
		}
		gs_buf_release(&err);
	}
	s->strat = gs_strategy_new(o->strategy, &s->ss, s->have_prior ? &s->prior : NULL, o->seed);
	if (!s->strat) {
		fprintf(stderr, "gsearch: error: strategy '%s' needs --prior\n", o->strategy->name);
		goto fail;
	}
	/* the budget: evaluations of this shard's configurations */
	s->budget_n = n;
	if (o->budget) {
		size_t bn = 0;
		/* a count is shared among the shards; a share and a time are each one's */
		int count = !strpbrk(o->budget, "%smh");
		gs_replay_parse_budget(o->budget, count ? (size_t)-1 / 2 : n, &bn, &s->budget_s);
		if (count && o->shard_n > 1)
			bn = bn / o->shard_n + (o->shard_i < bn % o->shard_n);
		if (!s->budget_s && bn < n)
			s->budget_n = bn;
	}
	s->window = o->window ? o->window : 1;
	s->arrival = s->budget_s > 0;
	if (info) {
		info->valid = n;
		info->budget_n = s->budget_n;
		info->budget_s = s->budget_s;
	}
	return &s->src;
fail:
	search_release(&s->src);
	return NULL;
}

int gs_search_budget_ok(const char *budget)
{
	size_t n;
	double secs;
	return gs_replay_parse_budget(budget, (size_t)-1 / 2, &n, &secs);
}
