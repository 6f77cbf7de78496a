/* enum.c — depth-first enumeration with early constraint checks. */
#include "space/enum.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An expression failed at level k.  Python evaluates conditions in order and
 * stops at the first false one; enumeration evaluates each as soon as it can.
 * If a condition declared before the failing one is not evaluable yet (its
 * level is deeper), Python might never have reached the failure: the error
 * is deferred to the full configurations below, where full_check decides in
 * Python's order.  A let's error is deferred while any condition is pending. */
/* e->defer: DEFER_NONE, a level, or DEFER_ALL when a constant deferred */
#define DEFER_NONE (-1)
#define DEFER_ALL (-2)

static int deferrable(const struct gs_space *sp, int k, int failed_req)
{
	size_t n = failed_req >= 0 ? (size_t)failed_req : sp->nrequires;
	for (size_t q = 0; q < n; q++)
		if (sp->requires[q].level > k)
			return 1;
	return 0;
}

/* Evaluate the lets and requires of one level.  1: pass, 0: rejected,
 * -1: error, 2: an error that only the full configurations can judge. */
static int run_level(const struct gs_space *sp, struct gs_vm *vm, struct gs_value *env,
		     const int *lets, size_t nlets, const int *reqs, size_t nreqs, uint64_t *rejected,
		     struct gs_loc *err_loc, char *err, int k)
{
	gs_vm_reset(vm);
	for (size_t i = 0; i < nlets; i++) {
		const struct gs_let *l = &sp->lets[lets[i]];
		if (gs_vm_eval(vm, l->code, env, &env[l->slot]) < 0) {
			if (deferrable(sp, k, -1))
				return 2;
			goto fail;
		}
	}
	for (size_t i = 0; i < nreqs; i++) {
		struct gs_value v;
		if (gs_vm_eval(vm, sp->requires[reqs[i]].code, env, &v) < 0) {
			if (deferrable(sp, k, reqs[i]))
				return 2;
			goto fail;
		}
		if (!gs_value_truthy(v)) {
			if (rejected)
				rejected[reqs[i]]++;
			return 0;
		}
	}
	return 1;
fail:
	*err_loc = vm->err_loc;
	snprintf(err, 256, "%s", vm->err);
	return -1;
}

/* Judge a full configuration in Python's order: every let, then the
 * conditions in declaration order; the first false condition rejects, the
 * first error (of a condition, or of a let a condition reads) is the error;
 * a let's error matters only if every condition passes. */
static int full_check(const struct gs_space *sp, struct gs_vm *vm, struct gs_value *env,
		      uint64_t *rejected, struct gs_loc *err_loc, char *err)
{
	char *bad = gs_xcalloc(sp->nslots ? sp->nslots : 1, 1);
	int first_bad = -1, rc = 1;
	struct gs_loc let_loc = GS_NOLOC;
	char let_err[256] = "";
	for (int k = -1; k < (int)sp->nparams; k++) {
		const int *lets = k < 0 ? sp->const_lets : sp->level_lets[k];
		size_t nlets = k < 0 ? sp->nconst_lets : sp->level_nlets[k];
		for (size_t i = 0; i < nlets; i++) {
			const struct gs_let *l = &sp->lets[lets[i]];
			int reads_bad = 0;
			for (size_t g = 0; g < l->code->nglobals; g++)
				reads_bad |= bad[l->code->globals[g]];
			if (reads_bad || gs_vm_eval(vm, l->code, env, &env[l->slot]) < 0) {
				bad[l->slot] = 1;
				if (first_bad < 0) {
					first_bad = l->slot;
					let_loc = vm->err_loc;
					snprintf(let_err, sizeof let_err, "%s", vm->err);
				}
			}
		}
	}
	for (size_t r = 0; r < sp->nrequires && rc == 1; r++) {
		const struct gs_code *c = sp->requires[r].code;
		int reads_bad = 0;
		for (size_t g = 0; g < c->nglobals; g++)
			reads_bad |= bad[c->globals[g]];
		struct gs_value v;
		if (reads_bad) {
			*err_loc = let_loc;
			snprintf(err, 256, "%s", let_err);
			rc = -1;
		} else if (gs_vm_eval(vm, c, env, &v) < 0) {
			*err_loc = vm->err_loc;
			snprintf(err, 256, "%s", vm->err);
			rc = -1;
		} else if (!gs_value_truthy(v)) {
			if (rejected)
				rejected[r]++;
			rc = 0;
		}
	}
	if (rc == 1 && first_bad >= 0) {
		*err_loc = let_loc;
		snprintf(err, 256, "%s", let_err);
		rc = -1;
	}
	free(bad);
	return rc;
}

int gs_enum_init(struct gs_enum *e, const struct gs_space *sp, uint64_t shard_i, uint64_t shard_n)
{
	memset(e, 0, sizeof(*e));
	e->sp = sp;
	gs_vm_init(&e->vm);
	e->env = gs_xmalloc((sp->nslots ? sp->nslots : 1) * sizeof(*e->env));
	memcpy(e->env, sp->env0, sp->nslots * sizeof(*e->env));
	e->pos = gs_xcalloc(sp->nparams + 1, sizeof(*e->pos));
	e->rejected = gs_xcalloc(sp->nrequires + 1, sizeof(*e->rejected));
	e->shard_i = shard_i;
	e->shard_n = shard_n ? shard_n : 1;
	e->err_level = -1;
	e->defer = DEFER_NONE;
	int r = run_level(sp, &e->vm, e->env, sp->const_lets, sp->nconst_lets, sp->const_reqs,
			  sp->nconst_reqs, e->rejected, &e->err_loc, e->err, -1);
	if (r == 2)
		e->defer = DEFER_ALL;
	if (r < 0)
		return -1;
	/* constant lets may be strings or lists: keep them past the resets */
	for (size_t i = 0; i < sp->nconst_lets; i++) {
		int s = sp->lets[sp->const_lets[i]].slot;
		e->env[s] = gs_value_persist(&e->vm.scratch, e->env[s]);
	}
	e->marks = gs_xmalloc((sp->nparams + 1) * sizeof(*e->marks));
	e->marks[0] = gs_arena_mark(&e->vm.scratch);
	if (r == 0)
		e->state = 2;
	return 0;
}

/* Advance parameter k to its next value that passes its level's checks. */
static int advance(struct gs_enum *e, int k)
{
	const struct gs_space *sp = e->sp;
	const struct gs_param *pa = &sp->params[k];
	int last = k == (int)sp->nparams - 1;
	if (e->defer >= k)
		e->defer = DEFER_NONE; /* rebinding the level that deferred: judge afresh */
	while (++e->pos[k] < pa->nvals) {
		e->env[pa->slot] = pa->vals[e->pos[k]];
		e->visited++;
		/* values of shallower lets live below marks[k]: keep them */
		e->vm.base = e->marks[k];
		int r;
		if (e->defer != DEFER_NONE && k > e->defer) {
			gs_vm_reset(&e->vm);
			r = 2; /* inside a deferred subtree: bind only */
		} else {
			r = run_level(sp, &e->vm, e->env, sp->level_lets[k], sp->level_nlets[k],
				      sp->level_reqs[k], sp->level_nreqs[k], e->rejected, &e->err_loc,
				      e->err, k);
			if (r == 2)
				e->defer = k;
		}
		if (r == 2 && last)
			r = full_check(sp, &e->vm, e->env, e->rejected, &e->err_loc, e->err);
		if (r < 0) {
			e->err_level = k;
			return -1;
		}
		if (r) {
			e->marks[k + 1] = gs_arena_mark(&e->vm.scratch);
			return 1;
		}
	}
	return 0;
}

int gs_enum_next(struct gs_enum *e)
{
	const struct gs_space *sp = e->sp;
	int n = (int)sp->nparams;
	if (e->state == 2)
		return 0;
	if (n == 0) {
		/* a space without parameters has one configuration */
		e->state = 2;
		e->index = e->nvalid++;
		return e->index % e->shard_n == e->shard_i;
	}
	int k;
	if (e->state == 0) {
		e->state = 1;
		k = 0;
		e->pos[0] = (size_t)-1;
	} else {
		k = n - 1;
	}
	while (k >= 0) {
		int r = advance(e, k);
		if (r < 0)
			return -1;
		if (!r) {
			k--;
			continue;
		}
		if (k < n - 1) {
			k++;
			e->pos[k] = (size_t)-1;
			continue;
		}
		uint64_t idx = e->nvalid++;
		if (idx % e->shard_n == e->shard_i) {
			e->index = idx;
			return 1;
		}
	}
	e->state = 2;
	return 0;
}

void gs_config_describe(const struct gs_space *sp, const struct gs_value *env, size_t n,
			const char *sep, struct gs_buf *b)
{
	for (size_t i = 0; i < n && i < sp->nparams; i++) {
		if (i)
			gs_buf_puts(b, sep);
		gs_buf_puts(b, sp->params[i].name);
		gs_buf_putc(b, '=');
		gs_value_repr(b, env[sp->params[i].slot]);
	}
}

void gs_config_json(const struct gs_space *sp, const struct gs_value *env, struct gs_buf *b)
{
	gs_buf_putc(b, '{');
	for (size_t i = 0; i < sp->nparams; i++) {
		if (i)
			gs_buf_putc(b, ',');
		gs_buf_put_json_str(b, sp->params[i].name);
		gs_buf_putc(b, ':');
		gs_value_json(b, env[sp->params[i].slot]);
	}
	gs_buf_putc(b, '}');
}

static void report(const struct gs_space *sp, const struct gs_value *env, int level,
		   struct gs_loc loc, const char *err, struct gs_diag *d)
{
	gs_diag_error(d, loc, "%s", err);
	if (level >= 0) {
		struct gs_buf b = GS_BUF_INIT;
		gs_config_describe(sp, env, (size_t)level + 1, ", ", &b);
		gs_diag_note(d, GS_NOLOC, "while enumerating: %s", gs_buf_str(&b));
		gs_buf_release(&b);
	}
}

void gs_enum_report(const struct gs_enum *e, struct gs_diag *d)
{
	report(e->sp, e->env, e->err_level, e->err_loc, e->err, d);
}

void gs_enum_release(struct gs_enum *e)
{
	gs_vm_release(&e->vm);
	free(e->env);
	free(e->pos);
	free(e->rejected);
	free(e->marks);
}

/* ---- counting ------------------------------------------------------------- */

struct counter {
	const struct gs_space *sp;
	struct gs_vm vm;
	struct gs_value *env;
	const size_t *limit;
	size_t free_from;  /* levels >= free_from have no constraint */
	uint64_t *suffix;  /* suffix[k] = product of domain sizes k..n-1 (saturating) */
	struct gs_count *c;
	struct gs_loc err_loc;
	char err[256];
	int err_level;
};

static int count_rec(struct counter *ct, size_t k, int tight, int deferred, uint64_t *total)
{
	const struct gs_space *sp = ct->sp;
	size_t n = sp->nparams;
	if (k == n) {
		if (deferred) {
			int r = full_check(sp, &ct->vm, ct->env, ct->c->rejected, &ct->err_loc, ct->err);
			if (r < 0) {
				ct->err_level = (int)n - 1;
				return -1;
			}
			if (!r)
				return 0;
		}
		if (tight)
			ct->c->limit_valid = 1;
		else
			*total += 1;
		return 0;
	}
	if (!tight && !deferred && k >= ct->free_from) {
		*total += ct->suffix[k];
		return 0;
	}
	const struct gs_param *pa = &sp->params[k];
	size_t hi = tight ? ct->limit[k] + 1 : pa->nvals;
	for (size_t v = 0; v < hi; v++) {
		ct->env[pa->slot] = pa->vals[v];
		ct->c->visited++;
		struct gs_arena_mark m = gs_arena_mark(&ct->vm.scratch);
		int r = 2;
		if (!deferred)
			r = run_level(sp, &ct->vm, ct->env, sp->level_lets[k], sp->level_nlets[k],
				      sp->level_reqs[k], sp->level_nreqs[k], ct->c->rejected,
				      &ct->err_loc, ct->err, (int)k);
		if (r < 0) {
			ct->err_level = (int)k;
			return -1;
		}
		/* the lets just computed must survive the deeper levels' resets */
		ct->vm.base = gs_arena_mark(&ct->vm.scratch);
		if (r && count_rec(ct, k + 1, tight && v == ct->limit[k], r == 2, total) < 0)
			return -1;
		ct->vm.base = m;
		gs_arena_reset(&ct->vm.scratch, m);
	}
	return 0;
}

int gs_enum_count(const struct gs_space *sp, const size_t *limit, struct gs_count *c,
		  struct gs_diag *d)
{
	struct counter ct;
	memset(&ct, 0, sizeof ct);
	ct.sp = sp;
	ct.c = c;
	ct.limit = limit;
	ct.err_level = -1;
	c->valid = c->visited = c->before = 0;
	c->limit_valid = 0;
	size_t n = sp->nparams;
	ct.suffix = gs_xmalloc((n + 1) * sizeof(*ct.suffix));
	ct.suffix[n] = 1;
	c->cartesian_overflow = 0;
	for (size_t k = n; k-- > 0;) {
		if (__builtin_mul_overflow(ct.suffix[k + 1], (uint64_t)sp->params[k].nvals,
					   &ct.suffix[k])) {
			ct.suffix[k] = UINT64_MAX;
			c->cartesian_overflow = 1;
		}
	}
	c->cartesian = ct.suffix[0];
	ct.free_from = n;
	while (ct.free_from > 0 && sp->level_nreqs[ct.free_from - 1] == 0)
		ct.free_from--;
	gs_vm_init(&ct.vm);
	ct.env = gs_xmalloc((sp->nslots ? sp->nslots : 1) * sizeof(*ct.env));
	memcpy(ct.env, sp->env0, sp->nslots * sizeof(*ct.env));
	int rc = 0;
	int r = run_level(sp, &ct.vm, ct.env, sp->const_lets, sp->nconst_lets, sp->const_reqs,
			  sp->nconst_reqs, c->rejected, &ct.err_loc, ct.err, -1);
	ct.vm.base = gs_arena_mark(&ct.vm.scratch);
	if (r < 0) {
		report(sp, ct.env, -1, ct.err_loc, ct.err, d);
		rc = -1;
	} else if (r > 0) {
		uint64_t total = 0;
		if (count_rec(&ct, 0, 0, r == 2, &total) < 0) {
			report(sp, ct.env, ct.err_level, ct.err_loc, ct.err, d);
			rc = -1;
		}
		c->valid = total;
		if (rc == 0 && limit) {
			/* the search for the limit's index visits and cuts again
			 * what the enumeration did: those counts stay the
			 * enumeration's */
			uint64_t before = 0, visited = c->visited;
			size_t nrej = c->rejected ? sp->nrequires : 0;
			uint64_t *rejected = gs_xmalloc((nrej + 1) * sizeof(*rejected));
			if (nrej)
				memcpy(rejected, c->rejected, nrej * sizeof(*rejected));
			if (count_rec(&ct, 0, 1, r == 2, &before) < 0) {
				report(sp, ct.env, ct.err_level, ct.err_loc, ct.err, d);
				rc = -1;
			}
			c->before = before;
			c->visited = visited;
			if (nrej)
				memcpy(c->rejected, rejected, nrej * sizeof(*rejected));
			free(rejected);
		}
	}
	gs_vm_release(&ct.vm);
	free(ct.env);
	free(ct.suffix);
	return rc;
}

int gs_config_check(const struct gs_space *sp, struct gs_value *env, struct gs_vm *vm, int *failed,
		    struct gs_diag *d)
{
	struct gs_loc loc;
	char err[256];
	uint64_t *rej = gs_xcalloc(sp->nrequires + 1, sizeof(*rej));
	*failed = -1;
	int r = full_check(sp, vm, env, rej, &loc, err);
	if (r < 0)
		report(sp, env, (int)sp->nparams - 1, loc, err, d);
	for (size_t i = 0; r == 0 && i < sp->nrequires; i++)
		if (rej[i]) {
			*failed = (int)i;
			break;
		}
	free(rej);
	return r;
}

int gs_baseline_check(const struct gs_space *sp, int *failed, struct gs_diag *d)
{
	*failed = -1;
	if (!sp->baseline)
		return 1;
	struct gs_vm vm;
	struct gs_value *env = gs_xmalloc((sp->nslots + 1) * sizeof(*env));
	memcpy(env, sp->baseline, sp->nslots * sizeof(*env));
	gs_vm_init(&vm);
	int r = gs_config_check(sp, env, &vm, failed, d);
	if (r == 0) {
		unsigned line, col;
		gs_loc_linecol(sp->requires[*failed].loc, &line, &col);
		gs_diag_error(d, sp->baseline_loc,
			      "the baseline is not a valid configuration: the constraint on "
			      "line %u rejects it", line);
		gs_diag_note(d, sp->requires[*failed].loc, "the constraint that rejects it");
	}
	gs_vm_release(&vm);
	free(env);
	return r;
}
