/* load.c — from a file name to a checked space. */
#include "space/load.h"

#include <stdlib.h>
#include <string.h>

#include "core/qcols.h"
#include "lang/expr.h"
#include "space/parse.h"

static int looks_like_json(const struct gs_source *src)
{
	size_t n = strlen(src->name);
	if (n >= 5 && !strcmp(src->name + n - 5, ".json"))
		return 1;
	const char *p = src->text;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return *p == '{';
}

static void set_names(struct gs_space *sp, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	sp->dir = gs_arena_strndup(&sp->arena, path, slash ? (size_t)(slash - path) : 0);
	const char *dot = strrchr(base, '.');
	sp->name = gs_arena_strndup(&sp->arena, base, dot && dot != base ? (size_t)(dot - base)
									 : strlen(base));
}

/* Parameters and metrics live in one namespace with the result's fields
 * when a sweep is queried and exported: a parameter called time_ms would
 * make `--where time_ms < 1` mean one of two things. */
static void check_reserved(const struct gs_space *sp, struct gs_diag *d)
{
	for (size_t i = 0; i < sp->nparams; i++)
		if (gs_qfield_reserved(sp->params[i].name))
			gs_diag_error(d, sp->params[i].loc,
				      "parameter name '%s' is reserved: results have a field of that name",
				      sp->params[i].name);
	for (size_t i = 0; i < sp->nmetrics; i++)
		if (gs_qfield_reserved(sp->metrics[i].name))
			gs_diag_error(d, sp->metrics[i].loc,
				      "metric name '%s' is reserved: results have a field of that name",
				      sp->metrics[i].name);
}

static void add_extra(struct gs_space *sp, struct gs_source *s)
{
	gs_grow(&sp->extra, &(size_t){ sp->nextra }, sp->nextra + 1, sizeof(*sp->extra));
	sp->extra[sp->nextra++] = s;
}

/* The grid a T1 file gives besides the one launched, parsed into
 * sp->t1_other_grid (the checker compiles it).  Its text comes from the
 * same fields as a grid statement would, so it parses; should it not, there
 * is nothing to compare and nothing to report. */
static void other_grid(struct gs_space *sp, const struct gs_source *json,
		       const struct gs_t1_grid_info *gi)
{
	sp->t1_grid_used = gi->used;
	sp->t1_global_loc = gi->global_loc;
	sp->t1_problem_loc = gi->problem_loc;
	if (!gi->nother)
		return;
	struct gs_buf b = GS_BUF_INIT;
	size_t start[3], end[3];
	for (int i = 0; i < gi->nother; i++) {
		start[i] = b.len;
		gs_buf_puts(&b, gi->other[i]);
		end[i] = b.len;
		gs_buf_putc(&b, '\n');
	}
	char *name = gs_xasprintf("%s (%s)", json->name,
				  gi->used == GS_T1_GRID_GLOBAL ? "ProblemSize / GridDiv" : "GlobalSize");
	struct gs_source *s = gs_source_new(name, gs_buf_str(&b), b.len);
	free(name);
	gs_buf_release(&b);
	add_extra(sp, s);
	struct gs_diag quiet = GS_DIAG_INIT;
	struct gs_geom *g = &sp->t1_other_grid;
	for (int i = 0; i < gi->nother; i++)
		g->e[i] = gs_parse_expr_range(&sp->arena, s, start[i], end[i], &quiet);
	g->n = quiet.errors ? 0 : gi->nother;
	gs_diag_release(&quiet);
}

struct gs_space *gs_space_parse(struct gs_source *src, const struct gs_space_opts *o,
				struct gs_diag *d)
{
	/* a byte order mark, as some editors on Windows write: not text.  Gone
	 * from the source, so that columns on the first line stay right */
	if (src->len >= 3 && !memcmp(src->text, "\xEF\xBB\xBF", 3)) {
		memmove(src->text, src->text + 3, src->len - 3 + 1);
		src->len -= 3;
	}
	struct gs_space *sp = gs_xcalloc(1, sizeof(*sp));
	sp->src = src;
	sp->emu = o ? o->emu : 0;
	sp->given = o ? o->files : NULL;
	sp->ngiven = o ? o->nfiles : 0;
	set_names(sp, src->name);
	if (looks_like_json(src)) {
		/* T1: translate to the space language and parse that, so both
		 * formats share one checker and one evaluator */
		struct gs_buf text = GS_BUF_INIT;
		struct gs_t1_grid_info gi;
		sp->is_t1 = 1;
		if (gs_t1_to_space(src, o ? o->t1_grid : GS_T1_GRID_PROBLEM, &text, &gi, d) < 0) {
			gs_t1_grid_info_release(&gi);
			gs_buf_release(&text);
			return sp;
		}
		char *name = gs_xasprintf("%s (as space)", src->name);
		struct gs_source *t = gs_source_new(name, gs_buf_str(&text), text.len);
		free(name);
		gs_buf_release(&text);
		add_extra(sp, t);
		sp->src = t;
		other_grid(sp, src, &gi);
		gs_t1_grid_info_release(&gi);
	}
	unsigned before = d->errors;
	gs_parse_space(sp, d);
	if (d->errors == before && !sp->nparams && !sp->kernel && !sp->nproblems)
		gs_diag_error(d, (struct gs_loc){ sp->src, 0, 0 },
			      "empty space: no kernel, no problem and no parameter");
	/* the translation stays alive in sp->extra for the diagnostics */
	sp->src = src;
	if (d->errors == before) {
		check_reserved(sp, d);
		gs_check_space(sp, o ? o->sets : NULL, o ? o->nsets : 0, d);
	}
	sp->given = NULL; /* the caller's, needed by the checker only */
	sp->ngiven = 0;
	return sp;
}

struct gs_space *gs_space_load(const char *path, const struct gs_space_opts *o, struct gs_diag *d)
{
	struct gs_source *src = gs_source_load(path, d);
	if (!src)
		return NULL;
	return gs_space_parse(src, o, d);
}

static void free_code(struct gs_code *c)
{
	gs_code_free(c);
}

static void free_tmpl(struct gs_tmpl *t)
{
	for (size_t i = 0; t && i < t->n; i++)
		free_code(t->parts[i].code);
}

static void free_launch(struct gs_launch *l)
{
	for (size_t i = 0; i < l->nargs; i++)
		free_code(l->args[i].code);
	free(l->args);
	for (size_t i = 0; i < l->ncopies; i++) {
		free_code(l->copies[i].start_c);
		free_code(l->copies[i].end_c);
	}
	free(l->copies);
	free_code(l->loop_c);
	for (int i = 0; i < 3; i++) {
		free_code(l->block.c[i]);
		free_code(l->grid.c[i]);
	}
	free_code(l->shared_c);
}

void gs_space_free(struct gs_space *sp)
{
	if (!sp)
		return;
	for (size_t i = 0; i < sp->nfiles; i++)
		free(sp->files[i].text);
	free(sp->files);
	free(sp->problems);
	for (size_t i = 0; i < sp->nparams; i++) {
		free_tmpl(sp->params[i].option);
		free_code(sp->params[i].option_if_code);
	}
	free(sp->params);
	for (size_t i = 0; i < sp->nlets; i++)
		free_code(sp->lets[i].code);
	free(sp->lets);
	for (size_t i = 0; i < sp->nrequires; i++)
		free_code(sp->requires[i].code);
	free(sp->requires);
	for (size_t i = 0; i < sp->noptions; i++) {
		free_tmpl(sp->options[i].text);
		free_code(sp->options[i].cond_code);
	}
	free(sp->options);
	for (size_t i = 0; i < sp->nbuffers; i++) {
		struct gs_buffer *b = &sp->buffers[i];
		free_code(b->count_c);
		free_code(b->tol_c);
		free_code(b->fill.seed_c);
		free_code(b->fill.lo_c);
		free_code(b->fill.hi_c);
		free_code(b->fill.value_c);
	}
	free(sp->buffers);
	for (size_t i = 0; i < sp->nlaunches; i++)
		free_launch(&sp->launches[i]);
	free(sp->launches);
	for (size_t i = 0; i < sp->nrefs; i++)
		free_launch(&sp->refs[i]);
	free(sp->refs);
	for (size_t i = 0; i < sp->nmetrics; i++)
		free_code(sp->metrics[i].code);
	free(sp->metrics);
	for (int i = 0; i < 3; i++) {
		free_code(sp->block.c[i]);
		free_code(sp->grid.c[i]);
		free_code(sp->t1_other_grid.c[i]);
	}
	free_code(sp->shared_c);
	free_tmpl(sp->kernel_tmpl);
	for (size_t i = 0; i < sp->nextra; i++)
		gs_source_free(sp->extra[i]);
	free(sp->extra);
	gs_source_free(sp->src);
	gs_arena_release(&sp->arena);
	free(sp);
}
