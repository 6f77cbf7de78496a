/* geometry.c — what one configuration launches, as `check` shows it: grid,
 * block and dynamic shared memory of every launch and reference, and where
 * the two grids of a T1 file part ways. */
#include "cmd/cmd.h"
#include "space/enum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct geo {
	int64_t grid[3], block[3], shared;
};

/* The failure of the last evaluation as "file:line:col: message". */
static void vm_error(const struct gs_vm *vm, struct gs_buf *err)
{
	unsigned line = 0, col = 0;
	gs_loc_linecol(vm->err_loc, &line, &col);
	gs_buf_printf(err, "%s:%u:%u: %s", vm->err_loc.src ? vm->err_loc.src->name : "?", line, col,
		      vm->err);
}

static int eval_int(struct gs_vm *vm, const struct gs_code *c, struct gs_value *env, int64_t *out,
		    struct gs_buf *err)
{
	struct gs_value v;
	gs_vm_reset(vm);
	if (gs_vm_eval(vm, c, env, &v) < 0) {
		vm_error(vm, err);
		return -1;
	}
	/* as the devices take it: 4.0 is 4 */
	if (v.t == GS_V_FLOAT && v.f == floor(v.f) && fabs(v.f) < 9.2e18)
		v = gs_int((int64_t)v.f);
	if (v.t != GS_V_INT && v.t != GS_V_BOOL) {
		gs_buf_printf(err, "expected an integer, got a %s", gs_vtype_name(v.t));
		return -1;
	}
	*out = v.i;
	return 0;
}

/* g, or dflt where g gives nothing; dimensions not given are 1. */
static int eval_dims(struct gs_vm *vm, const struct gs_geom *g, const struct gs_geom *dflt,
		     struct gs_value *env, int64_t out[3], struct gs_buf *err)
{
	const struct gs_geom *use = g && g->n ? g : dflt;
	for (int i = 0; i < 3; i++) {
		out[i] = 1;
		if (use && i < use->n && (!use->c[i] || eval_int(vm, use->c[i], env, &out[i], err) < 0))
			return -1;
	}
	return 0;
}

static int eval_launch(struct gs_vm *vm, const struct gs_space *sp, const struct gs_launch *l,
		       struct gs_value *env, struct geo *g, struct gs_buf *err)
{
	const struct gs_code *sh = l->shared_c ? l->shared_c : sp->shared_c;
	g->shared = 0;
	if (eval_dims(vm, &l->grid, &sp->grid, env, g->grid, err) < 0 ||
	    eval_dims(vm, &l->block, &sp->block, env, g->block, err) < 0 ||
	    (sh && eval_int(vm, sh, env, &g->shared, err) < 0))
		return -1;
	return 0;
}

static void put_dims(struct gs_buf *b, const int64_t v[3])
{
	gs_buf_printf(b, "%lld,%lld,%lld", (long long)v[0], (long long)v[1], (long long)v[2]);
}

static int same_geo(const struct geo *a, const struct geo *b)
{
	return !memcmp(a->grid, b->grid, sizeof a->grid) && !memcmp(a->block, b->block, sizeof a->block) &&
	       a->shared == b->shared;
}

static void print_geo(const char *what, const char *name, const struct geo *g, int64_t times)
{
	struct gs_buf b = GS_BUF_INIT;
	gs_buf_printf(&b, "%s %s grid ", what, name);
	put_dims(&b, g->grid);
	gs_buf_puts(&b, " block ");
	put_dims(&b, g->block);
	gs_buf_printf(&b, " shared %lld", (long long)g->shared);
	if (times > 1)
		gs_buf_printf(&b, " (%lld launches)", (long long)times);
	printf("%s\n", gs_buf_str(&b));
	gs_buf_release(&b);
}

/* One line per launch statement, or per run of launches of a `for` that
 * look the same; a warning where an expression cannot be evaluated. */
static void print_launches(struct gs_vm *vm, const struct gs_space *sp, const struct gs_launch *ls,
			   size_t n, const char *what, struct gs_value *env, struct gs_diag *d)
{
	for (size_t li = 0; li < n; li++) {
		const struct gs_launch *l = &ls[li];
		struct gs_buf err = GS_BUF_INIT;
		struct gs_value seq = gs_none();
		/* the sequence outlives the evaluations of each step, which
		 * rewind the VM's scratch memory */
		struct gs_arena loop = GS_ARENA_INIT;
		int64_t count = 1;
		if (l->loop_c) {
			gs_vm_reset(vm);
			if (gs_vm_eval(vm, l->loop_c, env, &seq) < 0) {
				vm_error(vm, &err);
				count = 0;
			} else {
				seq = gs_value_persist(&loop, seq);
				count = gs_seq_len(seq);
			}
		}
		struct geo run, g;
		int64_t times = 0;
		for (int64_t it = 0; it < count && !err.len; it++) {
			if (l->loop_c)
				env[l->loop_slot] = gs_seq_at(seq, it);
			if (eval_launch(vm, sp, l, env, &g, &err) < 0)
				break;
			if (times && !same_geo(&g, &run)) {
				print_geo(what, l->kernel, &run, times);
				times = 0;
			}
			run = g;
			times++;
		}
		if (times)
			print_geo(what, l->kernel, &run, times);
		if (err.len)
			gs_diag_warning(d, l->loc, "the %s of '%s' cannot be evaluated: %s",
					l->reference ? "reference launch" : "launch", l->kernel,
					gs_buf_str(&err));
		gs_buf_release(&err);
		gs_arena_release(&loop);
	}
}

/* The first configuration where the two grids of a T1 file differ, as a
 * warning at the GlobalSize key: one, however many differ. */
static void compare_t1_grids(const struct gs_space *sp, struct gs_diag *d)
{
	struct gs_enum e;
	struct gs_vm vm;
	if (!sp->t1_other_grid.n || gs_enum_init(&e, sp, 0, 1) < 0)
		return;
	gs_vm_init(&vm);
	const struct gs_geom *used = sp->nlaunches && sp->launches[0].grid.n ? &sp->launches[0].grid
									    : &sp->grid;
	while (gs_enum_next(&e) > 0) {
		struct gs_buf err = GS_BUF_INIT;
		int64_t a[3], b[3];
		int ok = eval_dims(&vm, used, NULL, e.env, a, &err) == 0 &&
			 eval_dims(&vm, &sp->t1_other_grid, NULL, e.env, b, &err) == 0;
		gs_buf_release(&err);
		if (!ok || !memcmp(a, b, sizeof a))
			continue; /* one that cannot be evaluated fails when run, and says why */
		int global = sp->t1_grid_used == 1; /* GS_T1_GRID_GLOBAL */
		const int64_t *gv = global ? a : b, *pv = global ? b : a;
		struct gs_buf cfg = GS_BUF_INIT, gt = GS_BUF_INIT, pt = GS_BUF_INIT;
		gs_config_describe(sp, e.env, sp->nparams, " ", &cfg);
		put_dims(&gt, gv);
		put_dims(&pt, pv);
		gs_diag_warning(d, sp->t1_global_loc,
				"t1: GlobalSize and ProblemSize / GridDiv disagree: for %s (configuration "
				"%llu) GlobalSize gives grid %s, ProblemSize / GridDiv grid %s; gsearch "
				"launches %s",
				gs_buf_str(&cfg), (unsigned long long)e.index, gs_buf_str(&gt),
				gs_buf_str(&pt),
				global ? "GlobalSize's (--t1-grid global)"
				       : "ProblemSize / GridDiv's, as Kernel Tuner does "
					 "(--t1-grid global launches GlobalSize's)");
		if (sp->t1_problem_loc.src)
			gs_diag_note(d, sp->t1_problem_loc,
				     "Kernel Tuner's grid: ceil(ProblemSize / the product of GridDiv's values)");
		gs_buf_release(&cfg);
		gs_buf_release(&gt);
		gs_buf_release(&pt);
		break;
	}
	gs_vm_release(&vm);
	gs_enum_release(&e);
}

void gs_check_geometry(const struct gs_space *sp, int baseline_valid, struct gs_diag *d)
{
	struct gs_vm vm, lets;
	struct gs_enum e;
	struct gs_value *env = NULL;
	int enumerating = 0;
	gs_vm_init(&vm);
	/* the baseline's lets live in this VM's scratch, which the launches'
	 * evaluations (in vm's) do not rewind */
	gs_vm_init(&lets);
	if (sp->baseline && baseline_valid) {
		struct gs_diag quiet = GS_DIAG_INIT;
		int failed;
		env = gs_xmalloc(sp->nslots * sizeof(*env));
		memcpy(env, sp->baseline, sp->nslots * sizeof(*env));
		if (gs_config_check(sp, env, &lets, &failed, &quiet) <= 0) {
			free(env);
			env = NULL;
		}
		gs_diag_release(&quiet);
	}
	if (!env && sp->nlaunches + sp->nrefs && gs_enum_init(&e, sp, 0, 1) == 0) {
		enumerating = 1;
		if (gs_enum_next(&e) > 0) {
			struct gs_buf b = GS_BUF_INIT;
			gs_config_describe(sp, e.env, sp->nparams, " ", &b);
			printf("geometry    of configuration %llu%s%s\n", (unsigned long long)e.index,
			       b.len ? ": " : "", gs_buf_str(&b));
			gs_buf_release(&b);
			env = e.env;
		}
	}
	if (env) {
		print_launches(&vm, sp, sp->launches, sp->nlaunches, "launch", env, d);
		print_launches(&vm, sp, sp->refs, sp->nrefs, "reference", env, d);
	}
	if (enumerating)
		gs_enum_release(&e);
	else
		free(env);
	gs_vm_release(&vm);
	gs_vm_release(&lets);
	compare_t1_grids(sp, d);
}
