/* check.c — names, scopes, constants, domains and the enumeration plan.
 *
 * Every expression is compiled here, once, against the scope its statement
 * allows (a domain may read problems only; a constraint problems, parameters
 * and lets; a metric also the measured figures).  Each compiled constraint
 * and let gets a level: the index of the last parameter it depends on, so
 * that enumeration checks it as soon as that parameter is bound. */
#include "lang/expr.h"
#include "space/load.h"
#include "space/parse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	SC_PROBLEMS = 1,
	SC_PARAMS = 2,
	SC_LETS = 4,   /* lets that depend on parameters; constant lets follow SC_PROBLEMS */
	SC_FILL = 8,
	SC_FIGURES = 16,
	SC_LOOP = 32,
};

enum slot_kind { SL_PROBLEM, SL_PARAM, SL_LET, SL_FILL, SL_FIGURE, SL_LOOP };

struct checker {
	struct gs_space *sp;
	struct gs_diag *d;
	struct gs_vm vm;
	int *slot_level;
	unsigned char *slot_kind;
	int *slot_index;
	const char **names;
	size_t nnames;
	int *let_stack;
	size_t let_depth;
	int *let_order; /* lets in the order they were checked: inputs first */
	size_t nlet_order;
	size_t *dep_start; /* lets let i mentions: deps[dep_start[i] .. dep_start[i + 1]) */
	int *deps;
	size_t *dfs_stack, *dfs_next;
	int *dfs_mark, dfs_gen;
	unsigned char *dfs_on; /* on the search's stack now */
	int *prob_state;
	unsigned errors_before;
	/* problem, parameter and let names -> index * 4 + slot_kind, the first
	 * definition of each: every lookup is one probe, not a scan of the space */
	struct gs_strmap by_name;
};

struct rctx {
	struct checker *ck;
	unsigned allow;
	const char *what; /* "a parameter's values", for scope errors */
	const char *loop_var;
	int loop_slot;
};

static int ensure_let(struct checker *ck, size_t k);
static int ensure_let_deps(struct checker *ck, size_t k);
static int ensure_problem(struct checker *ck, size_t k);

/* Problems first, then parameters, then lets: the order in which a name
 * defined twice (an error reported elsewhere) is resolved. */
static void index_names(struct checker *ck)
{
	struct gs_space *sp = ck->sp;
	for (size_t i = 0; i < sp->nproblems; i++)
		gs_strmap_add(&ck->by_name, sp->problems[i].name, (int)i * 4 + SL_PROBLEM);
	for (size_t i = 0; i < sp->nparams; i++)
		gs_strmap_add(&ck->by_name, sp->params[i].name, (int)i * 4 + SL_PARAM);
	for (size_t i = 0; i < sp->nlets; i++)
		gs_strmap_add(&ck->by_name, sp->lets[i].name, (int)i * 4 + SL_LET);
}

static int find_name(struct checker *ck, const char *name, enum slot_kind *kind, int *index)
{
	int v = gs_strmap_get(&ck->by_name, name);
	if (v < 0)
		return -1;
	*kind = (enum slot_kind)(v % 4);
	*index = v / 4;
	return 0;
}

static int resolve(void *ctx, const char *name, struct gs_loc loc, unsigned *type)
{
	struct rctx *r = ctx;
	struct checker *ck = r->ck;
	struct gs_space *sp = ck->sp;
	if (r->loop_var && (r->allow & SC_LOOP) && !strcmp(name, r->loop_var)) {
		*type = GS_T(INT);
		return r->loop_slot;
	}
	if ((r->allow & SC_FILL) && !strcmp(name, "i")) {
		*type = GS_T(INT);
		return sp->fill_slot;
	}
	enum slot_kind kind;
	int idx;
	if (find_name(ck, name, &kind, &idx) == 0) {
		switch (kind) {
		case SL_PROBLEM:
			if (!(r->allow & SC_PROBLEMS))
				break;
			if (ensure_problem(ck, (size_t)idx) < 0)
				return -2;
			*type = 1u << sp->problems[idx].value.t;
			return sp->problems[idx].slot;
		case SL_PARAM:
			if (!(r->allow & SC_PARAMS)) {
				gs_diag_error(ck->d, loc, "'%s' is a parameter: %s cannot depend on parameters",
					      name, r->what);
				return -2;
			}
			*type = sp->params[idx].type;
			return sp->params[idx].slot;
		case SL_LET:
			if (!(r->allow & (SC_LETS | SC_PROBLEMS)))
				break;
			if (ensure_let_deps(ck, (size_t)idx) < 0)
				return -2;
			if (!(r->allow & SC_LETS) && sp->lets[idx].level >= 0) {
				gs_diag_error(ck->d, loc,
					      "'%s' depends on parameters: %s cannot depend on parameters",
					      name, r->what);
				return -2;
			}
			*type = sp->lets[idx].type;
			return sp->lets[idx].slot;
		default:
			break;
		}
		gs_diag_error(ck->d, loc, "'%s' cannot be used in %s", name, r->what);
		return -2;
	}
	if (r->allow & SC_FIGURES) {
		static const char *figs[] = {
#define X(id, n) n,
			GS_FIGURES(X)
#undef X
		};
		for (int i = 0; i < GS_FIG_COUNT; i++)
			if (!strcmp(name, figs[i])) {
				*type = GS_T(FLOAT);
				return sp->figure_slot + i;
			}
	}
	for (size_t i = 0; i < sp->nbuffers; i++)
		if (!strcmp(sp->buffers[i].name, name)) {
			gs_diag_error(ck->d, loc,
				      "'%s' is a buffer: buffers can only be kernel arguments", name);
			return -2;
		}
	return -1;
}

static struct gs_code *compile(struct checker *ck, struct gs_expr *e, unsigned allow,
			       const char *what)
{
	if (!e)
		return NULL;
	struct rctx r = { ck, allow, what, NULL, -1 };
	struct gs_scope sc = { resolve, &r, ck->names, ck->nnames };
	return gs_expr_compile(e, &sc, ck->d);
}

static struct gs_code *compile_loop(struct checker *ck, struct gs_expr *e, unsigned allow,
				    const char *what, const struct gs_launch *l)
{
	if (!e)
		return NULL;
	struct rctx r = { ck, allow | SC_LOOP, what, l->loop_var, l->loop_slot };
	struct gs_scope sc = { resolve, &r, ck->names, ck->nnames };
	return gs_expr_compile(e, &sc, ck->d);
}

static int code_level(struct checker *ck, const struct gs_code *c)
{
	int lv = -1;
	for (size_t i = 0; c && i < c->nglobals; i++)
		if (ck->slot_level[c->globals[i]] > lv)
			lv = ck->slot_level[c->globals[i]];
	return lv;
}

/* Evaluate a compiled constant against env0; reports and returns -1 on error. */
static int eval_const(struct checker *ck, const struct gs_code *c, struct gs_value *out)
{
	gs_vm_reset(&ck->vm);
	if (gs_vm_eval(&ck->vm, c, ck->sp->env0, out) < 0) {
		gs_diag_error(ck->d, ck->vm.err_loc, "%s", ck->vm.err);
		return -1;
	}
	return 0;
}

static int ensure_problem(struct checker *ck, size_t k)
{
	struct gs_space *sp = ck->sp;
	struct gs_problem *pr = &sp->problems[k];
	if (ck->prob_state[k] == 2)
		return 0;
	if (ck->prob_state[k] == 1) {
		gs_diag_error(ck->d, pr->loc, "problem '%s' depends on itself", pr->name);
		ck->prob_state[k] = 3;
		return -1;
	}
	if (ck->prob_state[k] == 3)
		return -1;
	ck->prob_state[k] = 1;
	struct gs_expr *e = (sp->emu && pr->emu_expr && !pr->overridden) ? pr->emu_expr : pr->expr;
	struct gs_code *c = compile(ck, e, SC_PROBLEMS, "a problem constant");
	struct gs_value v;
	if (!c || eval_const(ck, c, &v) < 0) {
		gs_code_free(c);
		ck->prob_state[k] = 3;
		return -1;
	}
	pr->value = gs_value_persist(&sp->arena, v);
	sp->env0[pr->slot] = pr->value;
	gs_code_free(c);
	ck->prob_state[k] = 2;
	return 0;
}

static int ensure_let(struct checker *ck, size_t k)
{
	struct gs_space *sp = ck->sp;
	struct gs_let *l = &sp->lets[k];
	if (l->state == 2)
		return 0;
	if (l->state == 3)
		return -1;
	if (l->state == 1) {
		struct gs_buf b = GS_BUF_INIT;
		size_t from = 0;
		for (size_t i = 0; i < ck->let_depth; i++)
			if (ck->let_stack[i] == (int)k)
				from = i;
		for (size_t i = from; i < ck->let_depth; i++)
			gs_buf_printf(&b, "%s -> ", sp->lets[ck->let_stack[i]].name);
		gs_buf_puts(&b, l->name);
		gs_diag_error(ck->d, l->loc, "cycle among lets: %s", gs_buf_str(&b));
		gs_buf_release(&b);
		for (size_t i = from; i < ck->let_depth; i++)
			sp->lets[ck->let_stack[i]].state = 3;
		return -1;
	}
	if (ck->let_depth >= GS_MAX_NESTING) {
		/* lets are checked inputs first (ensure_let_deps), so only a cycle or a
		 * comprehension variable named like a later let gets this deep */
		gs_diag_error(ck->d, l->loc, "'%s' is reached through more than %d lets in a row",
			      l->name, GS_MAX_NESTING);
		l->state = 3;
		return -1;
	}
	l->state = 1;
	ck->let_stack[ck->let_depth++] = (int)k;
	l->code = compile(ck, l->expr, SC_PROBLEMS | SC_PARAMS | SC_LETS, "a let");
	ck->let_depth--;
	if (l->state == 3 || !l->code) {
		l->state = 3;
		return -1;
	}
	l->type = l->code->type;
	l->level = code_level(ck, l->code);
	ck->slot_level[l->slot] = l->level;
	l->state = 2;
	ck->let_order[ck->nlet_order++] = (int)k;
	return 0;
}

/* The lets each let's expression mentions, for ensure_let_deps. */
static void index_let_deps(struct checker *ck)
{
	struct gs_space *sp = ck->sp;
	size_t n = sp->nlets;
	/* deps[start[i] .. start[i+1]): the lets that let i mentions */
	size_t *start = gs_xcalloc(n + 1, sizeof(*start));
	int *deps = NULL;
	size_t ndeps = 0, depcap = 0;
	const struct gs_expr **todo = NULL;
	size_t ntodo = 0, todocap = 0;
	for (size_t i = 0; i < n; i++) {
		start[i] = ndeps;
		if (sp->lets[i].expr) {
			gs_grow(&todo, &todocap, 1, sizeof(*todo));
			todo[ntodo++] = sp->lets[i].expr;
		}
		while (ntodo) {
			const struct gs_expr *e = todo[--ntodo];
			if (!e)
				continue;
			enum slot_kind kind;
			int idx;
			if (e->kind == GS_E_NAME && find_name(ck, e->name, &kind, &idx) == 0 &&
			    kind == SL_LET) {
				gs_grow(&deps, &depcap, ndeps + 1, sizeof(*deps));
				deps[ndeps++] = idx;
			}
			size_t more = 4 + (e->items ? e->n : 0);
			for (size_t f = 0; f < e->nfors; f++)
				more += 1 + e->fors[f].nconds;
			gs_grow(&todo, &todocap, ntodo + more, sizeof(*todo));
			todo[ntodo++] = e->a;
			todo[ntodo++] = e->b;
			todo[ntodo++] = e->c;
			todo[ntodo++] = e->d;
			for (size_t k = 0; e->items && k < e->n; k++)
				todo[ntodo++] = e->items[k];
			for (size_t f = 0; f < e->nfors; f++) {
				todo[ntodo++] = e->fors[f].iter;
				for (size_t k = 0; k < e->fors[f].nconds; k++)
					todo[ntodo++] = e->fors[f].conds[k];
			}
		}
	}
	start[n] = ndeps;
	free(todo);
	ck->dep_start = start;
	ck->deps = deps;
	ck->dfs_stack = gs_xmalloc((n + 1) * sizeof(*ck->dfs_stack));
	ck->dfs_next = gs_xmalloc((n + 1) * sizeof(*ck->dfs_next));
	ck->dfs_mark = gs_xcalloc(n + 1, sizeof(*ck->dfs_mark));
	ck->dfs_on = gs_xcalloc(n + 1, 1);
}

/* ensure_let(k), but first every unchecked let k reads, directly or not, in
 * an order where each comes after the lets it reads: so checking one never
 * recurses into another, and a chain of a million lets, each reading the
 * next one down the file, costs no stack.  An iterative depth-first search;
 * on a cycle it gives up and leaves ensure_let's recursion to report it. */
static int ensure_let_deps(struct checker *ck, size_t k)
{
	struct gs_space *sp = ck->sp;
	if (sp->lets[k].state != 0 || !ck->dep_start)
		return ensure_let(ck, k);
	const size_t *start = ck->dep_start;
	size_t *stack = ck->dfs_stack, *next = ck->dfs_next;
	int gen = ++ck->dfs_gen;
	size_t *order = NULL, norder = 0, cap = 0, top = 0;
	stack[top] = k;
	next[top++] = start[k];
	ck->dfs_mark[k] = gen;
	ck->dfs_on[k] = 1;
	while (top) {
		size_t i = stack[top - 1];
		if (next[top - 1] < start[i + 1]) {
			size_t j = (size_t)ck->deps[next[top - 1]++];
			/* on this search's stack, or on ensure_let's: a cycle */
			if ((ck->dfs_mark[j] == gen && ck->dfs_on[j]) || sp->lets[j].state == 1) {
				while (top)
					ck->dfs_on[stack[--top]] = 0;
				free(order);
				return ensure_let(ck, k);
			}
			if (ck->dfs_mark[j] != gen && sp->lets[j].state == 0) {
				ck->dfs_mark[j] = gen;
				ck->dfs_on[j] = 1;
				stack[top] = j;
				next[top++] = start[j];
			}
		} else {
			gs_grow(&order, &cap, norder + 1, sizeof(*order));
			order[norder++] = i;
			ck->dfs_on[i] = 0;
			top--;
		}
	}
	/* the search is over before any check starts: a check that comes back
	 * here (a cycle) may reuse stack and next */
	for (size_t o = 0; o + 1 < norder; o++)
		ensure_let(ck, order[o]);
	free(order);
	return ensure_let(ck, k);
}
	
static void check_duplicates(struct checker *ck)
{
	struct gs_space *sp = ck->sp;
	struct item {
		const char *name;
		struct gs_loc loc;
	};
	size_t n = sp->nproblems + sp->nparams + sp->nlets + sp->nbuffers + sp->nmetrics, k = 0;
	struct item *it = gs_xmalloc((n ? n : 1) * sizeof(*it));
	for (size_t i = 0; i < sp->nproblems; i++)
		it[k++] = (struct item){ sp->problems[i].name, sp->problems[i].loc };
	for (size_t i = 0; i < sp->nparams; i++)
		it[k++] = (struct item){ sp->params[i].name, sp->params[i].loc };
	for (size_t i = 0; i < sp->nlets; i++)
		it[k++] = (struct item){ sp->lets[i].name, sp->lets[i].loc };
	for (size_t i = 0; i < sp->nbuffers; i++)
		it[k++] = (struct item){ sp->buffers[i].name, sp->buffers[i].loc };
	for (size_t i = 0; i < sp->nmetrics; i++)
		it[k++] = (struct item){ sp->metrics[i].name, sp->metrics[i].loc };
	struct gs_strmap first = GS_STRMAP_INIT;
	for (size_t i = 0; i < n; i++) {
		int j = gs_strmap_add(&first, it[i].name, (int)i);
		if (j >= 0) {
			gs_diag_error(ck->d, it[i].loc, "'%s' is defined twice", it[i].name);
			gs_diag_note(ck->d, it[j].loc, "first defined here");
		}
	}
	gs_strmap_release(&first);
	free(it);
}

static void apply_sets(struct checker *ck, const char *const *sets, size_t nsets)
{
	struct gs_space *sp = ck->sp;
	for (size_t i = 0; i < nsets; i++) {
		const char *eq = strchr(sets[i], '=');
		struct gs_source *src = gs_source_new("--set", sets[i], strlen(sets[i]));
		gs_grow(&sp->extra, &(size_t){ sp->nextra }, sp->nextra + 1, sizeof(*sp->extra));
		sp->extra[sp->nextra++] = src;
		if (!eq || eq == sets[i]) {
			gs_diag_error(ck->d, (struct gs_loc){ src, 0, (uint32_t)src->len },
				      "expected NAME=VALUE");
			continue;
		}
		char *name = gs_xstrndup(sets[i], (size_t)(eq - sets[i]));
		size_t nl = strlen(name);
		while (nl && name[nl - 1] == ' ')
			name[--nl] = 0;
		struct gs_loc nloc = { src, 0, (uint32_t)nl };
		size_t k;
		for (k = 0; k < sp->nproblems; k++)
			if (!strcmp(sp->problems[k].name, name))
				break;
		if (k == sp->nproblems) {
			enum slot_kind kind;
			int idx;
			if (find_name(ck, name, &kind, &idx) == 0)
				gs_diag_error(ck->d, nloc, "--set can only change problem constants; '%s' is a %s",
					      name, kind == SL_PARAM ? "parameter" : "let");
			else
				gs_diag_error(ck->d, nloc, "unknown problem constant '%s'", name);
			const char **c = gs_xmalloc((sp->nproblems + 1) * sizeof(*c));
			for (size_t j = 0; j < sp->nproblems; j++)
				c[j] = sp->problems[j].name;
			gs_diag_suggest(ck->d, nloc, name, c, sp->nproblems);
			free(c);
			free(name);
			continue;
		}
		free(name);
		size_t start = (size_t)(eq - sets[i]) + 1;
		struct gs_expr *e = gs_parse_expr_range(&sp->arena, src, start, src->len, ck->d);
		if (!e)
			continue;
		sp->problems[k].expr = e;
		sp->problems[k].overridden = 1;
	}
}

static void eval_domain(struct checker *ck, struct gs_param *pa)
{
	struct gs_space *sp = ck->sp;
	struct gs_code *c = compile(ck, pa->dom_expr, SC_PROBLEMS, "a parameter's values");
	struct gs_value v;
	pa->type = GS_T(INT);
	if (!c || eval_const(ck, c, &v) < 0) {
		gs_code_free(c);
		pa->type = GS_T_ANY;
		return;
	}
	/* v may point at the code's constants: persist before freeing it */
	v = gs_value_persist(&sp->arena, v);
	gs_code_free(c);
	if (v.t != GS_V_LIST && v.t != GS_V_RANGE) {
		gs_diag_error(ck->d, pa->dom_expr->loc,
			      "the values of '%s' must be a list or a range, not '%s'", pa->name,
			      gs_vtype_name(v.t));
		pa->type = GS_T_ANY;
		return;
	}
	int64_t n = v.t == GS_V_LIST ? (int64_t)v.l->n : gs_range_len(v.r);
	if (n == 0) {
		gs_diag_error(ck->d, pa->dom_expr->loc, "parameter '%s' has no values", pa->name);
		pa->type = GS_T_ANY;
		return;
	}
	if (n > (1 << 24)) {
		gs_diag_error(ck->d, pa->dom_expr->loc, "parameter '%s' has too many values (%lld)",
			      pa->name, (long long)n);
		pa->type = GS_T_ANY;
		return;
	}
	pa->vals = gs_arena_alloc(&sp->arena, (size_t)n * sizeof(*pa->vals));
	pa->nvals = (size_t)n;
	pa->type = 0;
	for (int64_t i = 0; i < n; i++) {
		struct gs_value x = gs_seq_at(v, i);
		if (x.t != GS_V_INT && x.t != GS_V_FLOAT && x.t != GS_V_BOOL && x.t != GS_V_STR &&
		    x.t != GS_V_NONE) {
			gs_diag_error(ck->d, pa->dom_expr->loc,
				      "values of '%s' must be numbers, booleans or strings; value %lld "
				      "is a %s", pa->name, (long long)i, gs_vtype_name(x.t));
			pa->nvals = 0;
			pa->type = GS_T_ANY;
			return;
		}
		if (x.t == GS_V_FLOAT && !isfinite(x.f)) {
			/* no define, JSON or comparison could carry it faithfully */
			const struct gs_expr *de = pa->dom_expr;
			struct gs_loc at = de->kind == GS_E_LIST && (size_t)i < de->n
						   ? gs_expr_span(de->items[i])
						   : de->loc;
			gs_diag_error(ck->d, at, "value %lld of '%s' is %s: a parameter's values must "
				      "be finite", (long long)i, pa->name,
				      isnan(x.f) ? "nan" : x.f < 0 ? "-inf" : "inf");
			pa->nvals = 0;
			pa->type = GS_T_ANY;
			return;
		}
		pa->vals[i] = x; /* persisted with the list above */
		pa->type |= 1u << x.t;
	}
	/* duplicates would enumerate the same configuration twice */
	if (v.t == GS_V_LIST && n <= 4096) {
		for (int64_t i = 1; i < n; i++)
			for (int64_t j = 0; j < i; j++)
				if (gs_value_eq(pa->vals[i], pa->vals[j]) &&
				    pa->vals[i].t == pa->vals[j].t) {
					struct gs_buf b = GS_BUF_INIT;
					gs_value_repr(&b, pa->vals[i]);
					gs_diag_error(ck->d, pa->dom_expr->loc,
						      "value %s appears twice in the values of '%s'",
						      gs_buf_str(&b), pa->name);
					gs_buf_release(&b);
					return;
				}
	}
}

static void compile_tmpl(struct checker *ck, struct gs_tmpl *t, unsigned allow, const char *what)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		if (t->parts[i].expr)
			t->parts[i].code = compile(ck, t->parts[i].expr, allow, what);
}

static void compile_geom(struct checker *ck, struct gs_geom *g, unsigned allow, const char *what,
			 const struct gs_launch *l)
{
	for (int i = 0; i < g->n; i++) {
		g->c[i] = l ? compile_loop(ck, g->e[i], allow, what, l)
			    : compile(ck, g->e[i], allow, what);
		if (g->c[i] && !(g->c[i]->type & (GS_T(INT) | GS_T(BOOL))))
			gs_diag_error(ck->d, g->e[i]->loc, "%s must be an integer, not '%s'", what,
				      gs_tmask_name(g->c[i]->type));
	}
}

static int is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Names of __global__ functions in a CUDA source (a cheap scan: enough to
 * catch a misspelt kernel name before anything is compiled). */
static size_t global_functions(const char *text, const char **out, size_t max, struct gs_arena *a)
{
	size_t n = 0;
	for (const char *p = strstr(text, "__global__"); p && n < max; p = strstr(p + 10, "__global__")) {
		const char *q = p + 10;
		const char *paren = strchr(q, '(');
		if (!paren)
			break;
		const char *e = paren;
		while (e > q && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
			e--;
		const char *b = e;
		while (b > q && is_word(b[-1]))
			b--;
		if (e > b)
			out[n++] = gs_arena_strndup(a, b, (size_t)(e - b));
	}
	return n;
}

static int has_word(const char *text, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = strstr(text, w); p; p = strstr(p + 1, w))
		if ((p == text || !is_word(p[-1])) && !is_word(p[n]))
			return 1;
	return 0;
}

/* A copy of the caller's text for path (gs_space_free frees it); -ENOENT
 * when the caller gave none. */
static int given_file(const struct gs_space *sp, const char *path, struct gs_kfile *f)
{
	for (size_t i = 0; i < sp->ngiven; i++) {
		if (strcmp(sp->given[i].path, path))
			continue;
		f->len = sp->given[i].len;
		f->text = gs_xmalloc(f->len + 1);
		memcpy(f->text, sp->given[i].text, f->len);
		f->text[f->len] = 0;
		return 0;
	}
	return -ENOENT;
}

static void load_files(struct checker *ck)
{
	struct gs_space *sp = ck->sp;
	for (size_t i = 0; i < sp->nfiles; i++) {
		struct gs_kfile *f = &sp->files[i];
		char *path = f->path[0] == '/' || !sp->dir[0]
				     ? gs_xstrdup(f->path)
				     : gs_xasprintf("%s/%s", sp->dir, f->path);
		int rc = sp->given ? given_file(sp, path, f) : gs_read_file(path, &f->text, &f->len);
		if (rc < 0 && sp->given) {
			gs_diag_error(ck->d, f->loc, "kernel file '%s' was not given with the space",
				      path);
			f->text = NULL;
		} else if (rc < 0 && sp->is_t1) {
			/* T1 files travel without their kernels: still worth checking */
			gs_diag_warning(ck->d, f->loc,
					"cannot read kernel file '%s': %s; the space can be checked and "
					"listed, not run", path, gs_read_strerror(rc));
			f->text = NULL;
		} else if (rc < 0) {
			gs_diag_error(ck->d, f->loc, "cannot read kernel file '%s': %s", path,
				      gs_read_strerror(rc));
			f->text = NULL;
		}
		f->path = gs_arena_strdup(&sp->arena, path);
		free(path);
	}
}

static void check_launch(struct checker *ck, struct gs_launch *l, size_t idx)
{
	struct gs_space *sp = ck->sp;
	unsigned allow = l->reference ? SC_PROBLEMS : SC_PROBLEMS | SC_PARAMS | SC_LETS;
	const char *what = l->reference ? "a reference launch" : "a launch";
	if (l->file < 0)
		l->file = sp->nfiles ? 0 : -1;
	if (l->file < 0) {
		gs_diag_error(ck->d, l->loc, "no kernel file: add `kernel NAME from \"FILE\"`");
	} else if (sp->files[l->file].text && !has_word(sp->files[l->file].text, l->kernel)) {
		gs_diag_error(ck->d, l->loc, "kernel '%s' not found in '%s'", l->kernel,
			      sp->files[l->file].path);
		const char *c[64];
		size_t n = global_functions(sp->files[l->file].text, c, 64, &sp->arena);
		gs_diag_suggest(ck->d, l->loc, l->kernel, c, n);
	}
	(void)idx;
	if (l->loop) {
		l->loop_c = compile(ck, l->loop, allow, what);
		if (l->loop_c && !(l->loop_c->type & (GS_T_SEQ)))
			gs_diag_error(ck->d, l->loop->loc, "a launch's 'for' needs a range or list, not '%s'",
				      gs_tmask_name(l->loop_c->type));
	}
	for (size_t i = 0; i < l->nargs; i++) {
		struct gs_arg *a = &l->args[i];
		struct gs_expr *e = a->expr;
		a->buffer = -1;
		a->type = -1;
		if (e->kind == GS_E_NAME && !(l->loop_var && !strcmp(e->name, l->loop_var))) {
			for (size_t b = 0; b < sp->nbuffers; b++)
				if (!strcmp(sp->buffers[b].name, e->name))
					a->buffer = (int)b;
			if (a->buffer >= 0)
				continue;
		}
		if (e->kind == GS_E_CALL && e->n == 1 && !e->kwnames) {
			int t = gs_btype_lookup(e->name);
			if (t >= 0) {
				a->type = t;
				e = e->items[0];
			}
		}
		a->code = compile_loop(ck, e, allow, what, l);
		if (!a->code)
			continue;
		if (a->type < 0) {
			unsigned ty = a->code->type;
			if (ty & GS_T(FLOAT))
				a->type = (ty & ~GS_T(FLOAT) & GS_T_ANY) ? -1 : GS_BT_FLOAT;
			else if (!(ty & ~(GS_T(INT) | GS_T(BOOL))))
				a->type = GS_BT_INT32;
			if (a->type < 0) {
				gs_diag_error(ck->d, a->loc,
					      "kernel argument must be a buffer or a number, not '%s'",
					      gs_tmask_name(ty));
				gs_diag_note(ck->d, a->loc,
					      "give the type explicitly, e.g. int64(...) or float(...)");
			}
		} else if (!(a->code->type & GS_T_NUM)) {
			gs_diag_error(ck->d, a->loc, "kernel argument must be a number, not '%s'",
				      gs_tmask_name(a->code->type));
		}
	}
	for (size_t i = 0; i < l->ncopies; i++) {
		struct gs_copy *c = &l->copies[i];
		c->buffer = -1;
		for (size_t b = 0; c->bufname && b < sp->nbuffers; b++)
			if (!strcmp(sp->buffers[b].name, c->bufname))
				c->buffer = (int)b;
		if (c->bufname && c->buffer < 0) {
			gs_diag_error(ck->d, c->loc, "unknown buffer '%s'", c->bufname);
			const char **n = gs_xmalloc((sp->nbuffers + 1) * sizeof(*n));
			for (size_t b = 0; b < sp->nbuffers; b++)
				n[b] = sp->buffers[b].name;
			gs_diag_suggest(ck->d, c->loc, c->bufname, n, sp->nbuffers);
			free(n);
		}
		c->start_c = compile_loop(ck, c->start, allow, what, l);
		c->end_c = compile_loop(ck, c->end, allow, what, l);
		if (c->symbol && sp->nfiles && l->file >= 0 && sp->files[l->file].text &&
		    !has_word(sp->files[l->file].text, c->symbol))
			gs_diag_error(ck->d, c->loc, "symbol '%s' not found in '%s'", c->symbol,
				      sp->files[l->file].path);
	}
	compile_geom(ck, &l->block, allow, "a block size", l);
	compile_geom(ck, &l->grid, allow, "a grid size", l);
	if (l->shared)
		l->shared_c = compile_loop(ck, l->shared, allow, what, l);
	/* a reference without its own geometry takes the space's, which runs
	 * once per sweep too, so it may not depend on parameters either */
	if (l->reference && !l->block.n && sp->block.n) {
		struct gs_geom g = sp->block;
		compile_geom(ck, &g, allow, "a reference launch's block size (the space's, for want of "
			     "its own `block` clause)", l);
	}
	if (l->reference && !l->grid.n && sp->grid.n) {
		struct gs_geom g = sp->grid;
		compile_geom(ck, &g, allow, "a reference launch's grid size (the space's, for want of "
			     "its own `grid` clause)", l);
	}
	if (!l->block.n && !sp->block.n)
		gs_diag_error(ck->d, l->loc, "no block size: add a `block` statement or clause");
	if (!l->grid.n && !sp->grid.n)
		gs_diag_error(ck->d, l->loc, "no grid size: add a `grid` statement or clause");
}

static void check_baseline(struct checker *ck)
{
	struct gs_space *sp = ck->sp;
	if (!sp->baseline_exprs)
		return;
	struct gs_expr *b = sp->baseline_exprs[0];
	/* shaped like an environment, so it can be evaluated and printed as is */
	struct gs_value *vals = gs_arena_alloc(&sp->arena, sp->nslots * sizeof(*vals));
	memcpy(vals, sp->env0, sp->nslots * sizeof(*vals));
	char *set = gs_xcalloc(sp->nparams + 1, 1);
	int ok = 1;
	for (size_t i = 0; i < b->n; i++) {
		const char *name = b->kwnames ? b->kwnames[i] : NULL;
		struct gs_loc nloc = sp->baseline_locs[i];
		if (!name)
			continue;
		size_t k;
		for (k = 0; k < sp->nparams; k++)
			if (!strcmp(sp->params[k].name, name))
				break;
		if (k == sp->nparams) {
			gs_diag_error(ck->d, nloc, "baseline sets '%s', which is not a parameter", name);
			const char **n = gs_xmalloc((sp->nparams + 1) * sizeof(*n));
			for (size_t j = 0; j < sp->nparams; j++)
				n[j] = sp->params[j].name;
			gs_diag_suggest(ck->d, nloc, name, n, sp->nparams);
			free(n);
			ok = 0;
			continue;
		}
		if (set[k]) {
			gs_diag_error(ck->d, nloc, "baseline sets '%s' twice", name);
			ok = 0;
			continue;
		}
		set[k] = 1;
		struct gs_code *c = compile(ck, b->items[i], SC_PROBLEMS, "a baseline value");
		struct gs_value v;
		if (!c || eval_const(ck, c, &v) < 0) {
			gs_code_free(c);
			ok = 0;
			continue;
		}
		v = gs_value_persist(&sp->arena, v);
		gs_code_free(c);
		struct gs_param *pa = &sp->params[k];
		size_t j;
		for (j = 0; j < pa->nvals; j++)
			if (gs_value_eq(pa->vals[j], v))
				break;
		if (pa->nvals && j == pa->nvals) {
			struct gs_buf s = GS_BUF_INIT, d = GS_BUF_INIT;
			gs_value_repr(&s, v);
			for (size_t q = 0; q < pa->nvals && q < 20; q++) {
				if (q)
					gs_buf_puts(&d, ", ");
				gs_value_repr(&d, pa->vals[q]);
			}
			if (pa->nvals > 20)
				gs_buf_puts(&d, ", ...");
			/* T1 Defaults in the wild are often outside their Values: the
			 * space stays usable, only without a baseline */
			gs_diag_add(ck->d, sp->is_t1 ? GS_WARNING : GS_ERROR, b->items[i]->loc,
				    "baseline value %s is not a value of '%s'%s", gs_buf_str(&s), name,
				    sp->is_t1 ? "; the space has no baseline" : "");
			gs_diag_note(ck->d, pa->loc, "'%s' takes [%s]", name, gs_buf_str(&d));
			gs_buf_release(&s);
			gs_buf_release(&d);
			ok = 0;
			continue;
		}
		vals[pa->slot] = pa->nvals ? pa->vals[j] : v;
	}
	for (size_t k = 0; k < sp->nparams; k++) {
		int dup = 0; /* a duplicate parameter was reported already */
		for (size_t j = 0; j < k; j++)
			dup |= !strcmp(sp->params[j].name, sp->params[k].name);
		if (!set[k] && !dup) {
			gs_diag_error(ck->d, sp->baseline_loc, "baseline does not set '%s'",
				      sp->params[k].name);
			ok = 0;
		}
	}
	free(set);
	if (ok)
		sp->baseline = vals;
}

static void plan(struct checker *ck)
{
	struct gs_space *sp = ck->sp;
	size_t np = sp->nparams;
	sp->level_lets = gs_arena_alloc(&sp->arena, (np + 1) * sizeof(int *));
	sp->level_nlets = gs_arena_alloc(&sp->arena, (np + 1) * sizeof(size_t));
	sp->level_reqs = gs_arena_alloc(&sp->arena, (np + 1) * sizeof(int *));
	sp->level_nreqs = gs_arena_alloc(&sp->arena, (np + 1) * sizeof(size_t));
	sp->const_lets = gs_arena_alloc(&sp->arena, (sp->nlets + 1) * sizeof(int));
	sp->const_reqs = gs_arena_alloc(&sp->arena, (sp->nrequires + 1) * sizeof(int));
	/* sized exactly: a space with as many parameters as lets would
	 * otherwise ask for their product */
	for (size_t k = 0; k < np; k++)
		sp->level_nlets[k] = sp->level_nreqs[k] = 0;
	for (size_t o = 0; o < ck->nlet_order; o++) {
		int lv = sp->lets[ck->let_order[o]].level;
		if (lv >= 0)
			sp->level_nlets[lv]++;
	}
	for (size_t i = 0; i < sp->nrequires; i++)
		if (sp->requires[i].code && sp->requires[i].level >= 0)
			sp->level_nreqs[sp->requires[i].level]++;
	for (size_t k = 0; k < np; k++) {
		sp->level_lets[k] = gs_arena_alloc(&sp->arena, (sp->level_nlets[k] + 1) * sizeof(int));
		sp->level_reqs[k] = gs_arena_alloc(&sp->arena, (sp->level_nreqs[k] + 1) * sizeof(int));
		sp->level_nlets[k] = sp->level_nreqs[k] = 0;
	}
	/* lets in dependency order: a let's inputs have lower or equal level and
	 * were checked before it (ensure_let records that order); a let whose
	 * check failed has no code and is not in it */
	for (size_t o = 0; o < ck->nlet_order; o++) {
		int i = ck->let_order[o];
		struct gs_let *l = &sp->lets[i];
		if (l->level < 0)
			sp->const_lets[sp->nconst_lets++] = i;
		else
			sp->level_lets[l->level][sp->level_nlets[l->level]++] = i;
	}
	for (size_t i = 0; i < sp->nrequires; i++) {
		struct gs_require *r = &sp->requires[i];
		if (!r->code)
			continue;
		if (r->level < 0)
			sp->const_reqs[sp->nconst_reqs++] = (int)i;
		else
			sp->level_reqs[r->level][sp->level_nreqs[r->level]++] = (int)i;
	}
}

/* One slot of the environment per problem size, parameter, let, the fill
 * index, each figure and each launch loop, in that order. */
static void assign_slots(struct checker *ck)
{
	struct gs_space *sp = ck->sp;
	size_t nloops = 0;
	for (size_t i = 0; i < sp->nlaunches; i++)
		nloops += sp->launches[i].loop != NULL;
	for (size_t i = 0; i < sp->nrefs; i++)
		nloops += sp->refs[i].loop != NULL;
	sp->nslots = sp->nproblems + sp->nparams + sp->nlets + 1 + GS_FIG_COUNT + nloops;
	sp->env0 = gs_arena_alloc(&sp->arena, sp->nslots * sizeof(*sp->env0));
	sp->slot_names = gs_arena_alloc(&sp->arena, sp->nslots * sizeof(char *));
	ck->slot_level = gs_xcalloc(sp->nslots, sizeof(int));
	ck->slot_kind = gs_xcalloc(sp->nslots, 1);
	ck->slot_index = gs_xcalloc(sp->nslots, sizeof(int));
	size_t s = 0;
	for (size_t i = 0; i < sp->nslots; i++) {
		sp->env0[i] = gs_none();
		ck->slot_level[i] = -1;
	}
#define SLOT(kind_, idx_, name_)                                                                  \
	do {                                                                                       \
		ck->slot_kind[s] = (kind_);                                                        \
		ck->slot_index[s] = (int)(idx_);                                                   \
		sp->slot_names[s] = (name_);                                                       \
	} while (0)
	for (size_t i = 0; i < sp->nproblems; i++, s++) {
		sp->problems[i].slot = (int)s;
		SLOT(SL_PROBLEM, i, sp->problems[i].name);
	}
	for (size_t i = 0; i < sp->nparams; i++, s++) {
		sp->params[i].slot = (int)s;
		ck->slot_level[s] = (int)i;
		SLOT(SL_PARAM, i, sp->params[i].name);
	}
	for (size_t i = 0; i < sp->nlets; i++, s++) {
		sp->lets[i].slot = (int)s;
		SLOT(SL_LET, i, sp->lets[i].name);
	}
	sp->fill_slot = (int)s;
	SLOT(SL_FILL, 0, "i");
	s++;
	sp->figure_slot = (int)s;
	static const char *figs[] = {
#define X(id, n) n,
		GS_FIGURES(X)
#undef X
	};
	for (int i = 0; i < GS_FIG_COUNT; i++, s++)
		SLOT(SL_FIGURE, i, (char *)figs[i]);
	for (size_t i = 0; i < sp->nlaunches + sp->nrefs; i++) {
		struct gs_launch *l = i < sp->nlaunches ? &sp->launches[i] : &sp->refs[i - sp->nlaunches];
		if (!l->loop)
			continue;
		l->loop_slot = (int)s;
		SLOT(SL_LOOP, i, l->loop_var ? l->loop_var : "?");
		s++;
	}
#undef SLOT
}

/* The candidates for "did you mean": every user name. */
static void collect_names(struct checker *ck)
{
	struct gs_space *sp = ck->sp;
	ck->nnames = sp->nproblems + sp->nparams + sp->nlets + sp->nbuffers;
	ck->names = gs_xmalloc((ck->nnames + 1) * sizeof(*ck->names));
	size_t k = 0;
	for (size_t i = 0; i < sp->nproblems; i++)
		ck->names[k++] = sp->problems[i].name;
	for (size_t i = 0; i < sp->nparams; i++)
		ck->names[k++] = sp->params[i].name;
	for (size_t i = 0; i < sp->nlets; i++)
		ck->names[k++] = sp->lets[i].name;
	for (size_t i = 0; i < sp->nbuffers; i++)
		ck->names[k++] = sp->buffers[i].name;
}

/* Constraints, compiler options, the kernel name, the geometry and the
 * shared memory size: what every configuration evaluates. */
static void compile_config_code(struct checker *ck)
{
	struct gs_space *sp = ck->sp;
	struct gs_diag *d = ck->d;
	for (size_t i = 0; i < sp->nrequires; i++) {
		struct gs_require *r = &sp->requires[i];
		r->code = compile(ck, r->expr, SC_PROBLEMS | SC_PARAMS | SC_LETS, "a constraint");
		r->loc = gs_expr_span(r->expr);
		r->level = code_level(ck, r->code);
	}
	const unsigned all = SC_PROBLEMS | SC_PARAMS | SC_LETS;
	for (size_t i = 0; i < sp->nparams; i++) {
		struct gs_param *pa = &sp->params[i];
		compile_tmpl(ck, pa->option, all, "a compiler option");
		if (pa->option_if)
			pa->option_if_code = compile(ck, pa->option_if, all, "a compiler option");
	}
	for (size_t i = 0; i < sp->noptions; i++) {
		compile_tmpl(ck, sp->options[i].text, all, "a compiler option");
		if (sp->options[i].cond)
			sp->options[i].cond_code = compile(ck, sp->options[i].cond, all,
							   "a compiler option");
	}
	compile_tmpl(ck, sp->kernel_tmpl, all, "a kernel name");
	compile_geom(ck, &sp->block, all, "a block size", NULL);
	compile_geom(ck, &sp->grid, all, "a grid size", NULL);
	if (sp->t1_other_grid.n) {
		/* only compared, never launched: its errors are no errors of
		 * the space, and without it there is nothing to compare */
		struct gs_diag quiet = GS_DIAG_INIT;
		ck->d = &quiet;
		compile_geom(ck, &sp->t1_other_grid, all, "a grid size", NULL);
		ck->d = d;
		for (int i = 0; quiet.n && i < sp->t1_other_grid.n; i++) {
			gs_code_free(sp->t1_other_grid.c[i]);
			sp->t1_other_grid.c[i] = NULL;
		}
		if (quiet.n)
			sp->t1_other_grid.n = 0;
		gs_diag_release(&quiet);
	}
	if (sp->shared)
		sp->shared_c = compile(ck, sp->shared, all, "a shared memory size");
}

/* A buffer's element count, fill and tolerance. */
static void check_buffer(struct checker *ck, struct gs_buffer *b)
{
	struct gs_space *sp = ck->sp;
	struct gs_diag *d = ck->d;
	const char *what = "a buffer's size or fill";
	b->count_c = compile(ck, b->count, SC_PROBLEMS, what);
	struct gs_value v;
	if (b->count_c && eval_const(ck, b->count_c, &v) == 0) {
		if (v.t != GS_V_INT && v.t != GS_V_BOOL)
			gs_diag_error(d, b->count->loc, "element count must be an integer, not '%s'",
				      gs_vtype_name(v.t));
		else if (v.i < 0)
			gs_diag_error(d, b->count->loc, "element count is negative (%lld)",
				      (long long)v.i);
		else
			b->n = v.i;
	}
	struct gs_fill *f = &b->fill;
	f->seed_c = compile(ck, f->seed, SC_PROBLEMS, what);
	f->lo_c = compile(ck, f->lo, SC_PROBLEMS, what);
	f->hi_c = compile(ck, f->hi, SC_PROBLEMS, what);
	f->value_c = compile(ck, f->value,
			     SC_PROBLEMS | (f->kind == GS_FILL_INDEX ? SC_FILL : 0), what);
	if (f->kind == GS_FILL_FILE && f->path && f->path[0] != '/' && sp->dir[0]) {
		char *q = gs_xasprintf("%s/%s", sp->dir, f->path);
		f->path = gs_arena_strdup(&sp->arena, q);
		free(q);
	}
	if (f->kind == GS_FILL_FILE && f->path) {
		/* a device or a FIFO is no data, as run would find out later */
		int fd = gs_open_regular(f->path, GS_DATA_READ_MAX, NULL);
		if (fd >= 0)
			close(fd);
		else if (fd == GS_ENOTREG || fd == -EISDIR || fd == -EFBIG)
			gs_diag_error(d, f->loc, "cannot read '%s': %s", f->path,
				      fd == -EFBIG ? "larger than the " GS_DATA_READ_MAX_TEXT " limit"
						   : gs_read_strerror(fd));
	}
	if (b->tol && gs_btype_is_int(b->type)) {
		gs_diag_error(d, b->tol->loc,
			      "'%s' holds integers, which are compared exactly: remove the tolerance",
			      b->name);
		b->tolerance = 0;
	} else if (b->tol) {
		b->tol_c = compile(ck, b->tol, SC_PROBLEMS, "a tolerance");
		if (b->tol_c && eval_const(ck, b->tol_c, &v) == 0) {
			if (!(v.t == GS_V_INT || v.t == GS_V_FLOAT) ||
			    (v.t == GS_V_INT ? v.i < 0 : !(v.f >= 0)))
				gs_diag_error(d, b->tol->loc,
					      "tolerance must be a number >= 0");
			else
				b->tolerance = v.t == GS_V_INT ? (double)v.i : v.f;
		}
	} else if (b->kind == GS_BUF_OUTPUT || b->kind == GS_BUF_INOUT) {
		b->tolerance = gs_btype_is_int(b->type) ? 0 : 1e-5;
	}
}

/* The kernel's files, its launches and that the kernel is in them. */
static void check_kernel(struct checker *ck)
{
	struct gs_space *sp = ck->sp;
	struct gs_diag *d = ck->d;
	load_files(ck);
	if ((sp->nlaunches || sp->nrefs) && !sp->kernel)
		gs_diag_error(d, sp->nlaunches ? sp->launches[0].loc : sp->refs[0].loc,
			      "a launch needs a `kernel NAME from \"FILE\"` statement");
	for (size_t i = 0; i < sp->nlaunches; i++)
		check_launch(ck, &sp->launches[i], i);
	for (size_t i = 0; i < sp->nrefs; i++)
		check_launch(ck, &sp->refs[i], i);
	if (sp->kernel && !sp->nlaunches && sp->nfiles && sp->files[0].text &&
	    !strchr(sp->kernel, '<') && !has_word(sp->files[0].text, sp->kernel)) {
		gs_diag_error(d, sp->kernel_loc, "kernel '%s' not found in '%s'", sp->kernel,
			      sp->files[0].path);
	}
}

/* The timeout of one configuration, 10 s unless the space says. */
static void check_timeout(struct checker *ck)
{
	struct gs_space *sp = ck->sp;
	sp->timeout = 10;
	if (!sp->timeout_e)
		return;
	struct gs_code *c = compile(ck, sp->timeout_e, SC_PROBLEMS, "a timeout");
	struct gs_value v;
	if (c && eval_const(ck, c, &v) == 0) {
		if ((v.t != GS_V_INT && v.t != GS_V_FLOAT) ||
		    !((v.t == GS_V_INT ? (double)v.i : v.f) > 0))
			gs_diag_error(ck->d, sp->timeout_e->loc, "timeout must be a number of seconds > 0");
		else
			sp->timeout = v.t == GS_V_INT ? (double)v.i : v.f;
	}
	gs_code_free(c);
}

static void checker_release(struct checker *ck)
{
	gs_vm_release(&ck->vm);
	free(ck->slot_level);
	free(ck->slot_kind);
	free(ck->slot_index);
	free(ck->names);
	free(ck->let_stack);
	free(ck->let_order);
	free(ck->dep_start);
	free(ck->deps);
	free(ck->dfs_stack);
	free(ck->dfs_next);
	free(ck->dfs_mark);
	free(ck->dfs_on);
	free(ck->prob_state);
	gs_strmap_release(&ck->by_name);
}

int gs_check_space(struct gs_space *sp, const char *const *sets, size_t nsets, struct gs_diag *d)
{
	struct checker ck;
	memset(&ck, 0, sizeof ck);
	ck.sp = sp;
	ck.d = d;
	ck.errors_before = d->errors;
	gs_vm_init(&ck.vm);

	check_duplicates(&ck);
	index_names(&ck);
	index_let_deps(&ck);
	assign_slots(&ck);
	collect_names(&ck);
	ck.let_stack = gs_xmalloc((sp->nlets + 1) * sizeof(int));
	ck.let_order = gs_xmalloc((sp->nlets + 1) * sizeof(int));
	ck.prob_state = gs_xcalloc(sp->nproblems + 1, sizeof(int));

	apply_sets(&ck, sets, nsets);
	for (size_t i = 0; i < sp->nproblems; i++)
		ensure_problem(&ck, i);
	for (size_t i = 0; i < sp->nparams; i++)
		eval_domain(&ck, &sp->params[i]);
	for (size_t i = 0; i < sp->nlets; i++)
		ensure_let_deps(&ck, i);
	compile_config_code(&ck);
	for (size_t i = 0; i < sp->nbuffers; i++)
		check_buffer(&ck, &sp->buffers[i]);
	check_kernel(&ck);
	check_baseline(&ck);
	const unsigned all = SC_PROBLEMS | SC_PARAMS | SC_LETS;
	for (size_t i = 0; i < sp->nmetrics; i++)
		sp->metrics[i].code = compile(&ck, sp->metrics[i].expr, all | SC_FIGURES, "a metric");
	check_timeout(&ck);
	plan(&ck);

	int errors = (int)(d->errors - ck.errors_before);
	checker_release(&ck);
	return errors;
}
