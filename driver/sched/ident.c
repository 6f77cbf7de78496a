/* ident.c — the identity of a result (see ident.h).
 *
 * Everything goes through one text, fed to the hasher as fields: values in
 * their repr (1, 1.0 and True differ, which at worst measures again what
 * needed not be), expressions as a canonical rendering of their tree, which
 * no comment, blank or line break can change.  The version tag changes
 * whenever what goes in changes, so that no old identity is ever taken for
 * a new one. */
#include "sched/ident.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev/emu.h"
#include "dev/launch.h"
#include "gen/variant.h"
#include "lang/lex.h"
#include "space/enum.h"
#include "util/util.h"

#define IDENT_VERSION "gsearch result identity 2"

struct gs_ident {
	const struct gs_space *sp;
	struct gs_vm vm;
	struct gs_value *env; /* a scratch copy: launches bind their loop variables */
	char sweep[33];
};

static void field(struct gs_hasher *h, struct gs_buf *b)
{
	gs_hasher_field(h, b->p ? b->p : "", b->len);
	gs_buf_reset(b);
}

/* ---- expressions ---------------------------------------------------------------- */

/* The tree, canonically: kinds, operators, constants and names, nested in
 * brackets.  The parser bounds the depth (GS_MAX_NESTING). */
static void put_expr(struct gs_buf *b, const struct gs_expr *e)
{
	if (!e) {
		gs_buf_puts(b, "_");
		return;
	}
	gs_buf_printf(b, "(%u", (unsigned)e->kind);
	if (e->kind == GS_E_UNARY || e->kind == GS_E_BINARY)
		gs_buf_printf(b, " %s", gs_tok_name(e->op));
	if (e->kind == GS_E_CONST) {
		gs_buf_putc(b, ' ');
		gs_value_repr(b, e->k);
	}
	if (e->name)
		gs_buf_printf(b, " %s", e->name);
	const struct gs_expr *sub[] = { e->a, e->b, e->c, e->d };
	for (size_t i = 0; i < 4; i++)
		if (sub[i]) {
			gs_buf_printf(b, " %c:", (int)('a' + i));
			put_expr(b, sub[i]);
		}
	for (size_t i = 0; e->items && i < e->n; i++) {
		gs_buf_puts(b, " [");
		if (e->kwnames && e->kwnames[i])
			gs_buf_printf(b, "%s=", e->kwnames[i]);
		put_expr(b, e->items[i]);
		gs_buf_putc(b, ']');
	}
	if (e->kind == GS_E_CMP)
		for (size_t i = 0; e->cmpops && i + 1 < e->n; i++)
			gs_buf_printf(b, " %s", gs_tok_name(e->cmpops[i]));
	for (size_t i = 0; i < e->nfors; i++) {
		gs_buf_printf(b, " for %s in ", e->fors[i].var);
		put_expr(b, e->fors[i].iter);
		for (size_t k = 0; k < e->fors[i].nconds; k++) {
			gs_buf_puts(b, " if ");
			put_expr(b, e->fors[i].conds[k]);
		}
	}
	gs_buf_putc(b, ')');
}

static int is_figure(const struct gs_space *sp, int slot)
{
	return slot >= sp->figure_slot && slot < sp->figure_slot + GS_FIG_COUNT;
}

/* An expression that cannot be evaluated ahead (a metric reads figures yet
 * to be measured, an index() fill the element index): its tree and the
 * values of the names it reads, but those. */
static void put_deferred(struct gs_buf *b, const struct gs_space *sp, const struct gs_expr *e,
			 const struct gs_code *c, const struct gs_value *env)
{
	put_expr(b, e);
	for (size_t i = 0; c && i < c->nglobals; i++) {
		int s = c->globals[i];
		if (is_figure(sp, s) || s == sp->fill_slot)
			continue;
		gs_buf_printf(b, " %s=", sp->slot_names[s]);
		gs_value_repr(b, env[s]);
	}
}

/* The value of an expression for this configuration, or why there is none
 * (the worker would stop at the same error). */
static int put_value(struct gs_buf *b, struct gs_ident *id, const struct gs_code *c,
		     struct gs_value *env, struct gs_value *out)
{
	struct gs_value v;
	if (!c) {
		gs_buf_puts(b, "_");
		if (out)
			*out = gs_none();
		return 0;
	}
	if (gs_vm_eval(&id->vm, c, env, &v) < 0) {
		gs_buf_printf(b, "error: %s", id->vm.err);
		return -1;
	}
	gs_value_repr(b, v);
	if (out)
		*out = v;
	return 0;
}

/* ---- launches --------------------------------------------------------------------- */

static int put_geom(struct gs_buf *b, struct gs_ident *id, const char *what,
		    const struct gs_geom *g, const struct gs_geom *dflt, struct gs_value *env)
{
	const struct gs_geom *use = g->n ? g : dflt;
	gs_buf_printf(b, " %s", what);
	for (int i = 0; i < use->n; i++) {
		gs_buf_putc(b, ' ');
		if (put_value(b, id, use->c[i], env, NULL) < 0)
			return -1;
	}
	return 0;
}

/* A launch sequence as the worker's plan would be built (dev/measure.c):
 * every iteration of every launch, with its copies, geometry, shared
 * memory and arguments. */
struct launch_text {
	struct gs_buf *b;
	struct gs_ident *id;
	struct gs_value *env;
};

static int text_launch(void *ctx, const struct gs_launch *l)
{
	struct launch_text *t = ctx;
	gs_buf_printf(t->b, "\nlaunch %s", l->kernel);
	return 0;
}

static int text_loop(void *ctx, const struct gs_launch *l, struct gs_value *seq)
{
	struct launch_text *t = ctx;
	gs_buf_printf(t->b, " for %s in ", l->loop_var ? l->loop_var : "");
	return put_value(t->b, t->id, l->loop_c, t->env, seq);
}

static int text_copy(void *ctx, const struct gs_launch *l, const struct gs_copy *c)
{
	struct launch_text *t = ctx;
	(void)l;
	gs_buf_printf(t->b, "\n copy %s <- %s[", c->symbol, c->bufname);
	if (put_value(t->b, t->id, c->start_c, t->env, NULL) < 0)
		return -1;
	gs_buf_putc(t->b, ':');
	if (put_value(t->b, t->id, c->end_c, t->env, NULL) < 0)
		return -1;
	gs_buf_putc(t->b, ']');
	return 0;
}

static int text_run(void *ctx, const struct gs_launch *l)
{
	struct launch_text *t = ctx;
	struct gs_buf *b = t->b;
	const struct gs_space *sp = t->id->sp;
	gs_buf_puts(b, "\n run");
	if (put_geom(b, t->id, "block", &l->block, &sp->block, t->env) < 0 ||
	    put_geom(b, t->id, "grid", &l->grid, &sp->grid, t->env) < 0)
		return -1;
	gs_buf_puts(b, " shared ");
	if (put_value(b, t->id, l->shared_c ? l->shared_c : sp->shared_c, t->env, NULL) < 0)
		return -1;
	for (size_t ai = 0; ai < l->nargs; ai++) {
		const struct gs_arg *a = &l->args[ai];
		if (a->buffer >= 0) {
			gs_buf_printf(b, " %s", sp->buffers[a->buffer].name);
			continue;
		}
		gs_buf_printf(b, " %s:", gs_btype_name(a->type));
		if (put_value(b, t->id, a->code, t->env, NULL) < 0)
			return -1;
	}
	return 0;
}

static void put_launches(struct gs_buf *b, struct gs_ident *id, const struct gs_launch *ls,
			 size_t nl, struct gs_value *env)
{
	static const struct gs_launch_visit visit = { text_launch, text_loop, text_copy, text_run };
	struct launch_text t = { b, id, env };
	gs_launch_walk(ls, nl, env, &visit, &t);
}

/* ---- the sweep-wide part ---------------------------------------------------------- */

/* A file's content, hashed as it is read. */
static void put_file(struct gs_buf *b, const char *path)
{
	/* a device or a FIFO would be read without end, or never */
	int fd = path ? gs_open_regular(path, GS_DATA_READ_MAX, NULL) : -1;
	if (fd < 0) {
		gs_buf_printf(b, "file %s unreadable", path ? path : "");
		return;
	}
	struct gs_hasher *h = gs_hasher_new();
	char chunk[1 << 16];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof chunk)) > 0)
		gs_hasher_update(h, chunk, (size_t)n);
	close(fd);
	char hex[33];
	gs_hasher_hex(h, hex);
	gs_buf_printf(b, "file %s%s", hex, n < 0 ? " (read error)" : "");
}

static void put_buffer(struct gs_buf *b, const struct gs_space *sp, const struct gs_buffer *buf)
{
	static const char *const kinds[] = {
#define X(id, name) name,
		GS_BUFKINDS(X)
#undef X
	};
	const struct gs_fill *f = &buf->fill;
	gs_buf_printf(b, "\nbuffer %s %s %s[%lld] tolerance ", buf->name, kinds[buf->kind],
		      gs_btype_name(buf->type), (long long)buf->n);
	gs_float_repr(b, buf->tolerance);
	gs_buf_printf(b, " fill %d", (int)f->kind);
	const struct gs_expr *e[] = { f->seed, f->lo, f->hi, f->value };
	const struct gs_code *c[] = { f->seed_c, f->lo_c, f->hi_c, f->value_c };
	for (size_t i = 0; i < 4; i++) {
		gs_buf_putc(b, ' ');
		put_deferred(b, sp, e[i], c[i], sp->env0);
	}
	if (f->kind == GS_FILL_FILE) {
		gs_buf_putc(b, ' ');
		put_file(b, f->path);
	}
}

/* The reference launches, evaluated where the workers run them (the
 * sweep's ref_params): at the baseline, else at the first valid
 * configuration. */
static void put_reference(struct gs_buf *b, struct gs_ident *id)
{
	const struct gs_space *sp = id->sp;
	gs_vm_reset(&id->vm);
	if (sp->baseline) {
		struct gs_diag d = GS_DIAG_INIT;
		int failed;
		memcpy(id->env, sp->baseline, sp->nslots * sizeof(*id->env));
		/* its lets; a baseline that fails a require was refused before */
		gs_config_check(sp, id->env, &id->vm, &failed, &d);
		gs_diag_release(&d);
		put_launches(b, id, sp->refs, sp->nrefs, id->env);
		return;
	}
	struct gs_enum e;
	if (gs_enum_init(&e, sp, 0, 1) == 0 && gs_enum_next(&e) > 0) {
		memcpy(id->env, e.env, sp->nslots * sizeof(*id->env));
		put_launches(b, id, sp->refs, sp->nrefs, id->env);
	} else {
		gs_buf_puts(b, "\nno valid configuration");
	}
	gs_enum_release(&e);
}

/* Problems by name: their order in the file changes nothing. */
static int problem_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct gs_problem *const *)a)->name,
		      (*(const struct gs_problem *const *)b)->name);
}

static void sweep_part(struct gs_ident *id, const struct gs_ident_opts *o)
{
	const struct gs_space *sp = id->sp;
	struct gs_hasher *h = gs_hasher_new();
	struct gs_buf b = GS_BUF_INIT;

	gs_buf_puts(&b, IDENT_VERSION);
	field(h, &b);
	gs_buf_printf(&b, "device %s", o->device ? o->device : "");
	field(h, &b);
	gs_buf_puts(&b, "precision ");
	gs_float_repr(&b, o->stop.precision);
	gs_buf_puts(&b, " focus ");
	gs_float_repr(&b, o->stop.focus);
	gs_buf_puts(&b, " max_time ");
	gs_float_repr(&b, o->stop.max_time_s);
	gs_buf_printf(&b, " flush_l2 %d", o->flush_l2 != 0);
	field(h, &b);
	/* a modeled time depends on the model as much as on the kernel */
	if (o->device && !strncmp(o->device, "emu", 3)) {
		gs_buf_printf(&b, "model %s sample %d", GS_EMU_MODEL_REV, o->emu_sample);
		field(h, &b);
		/* ... and on the profile's figures (an edited copy under
		 * $GSEARCH_PROFILES is another device), not on its comments */
		const struct gs_emu_profile *p =
			!strncmp(o->device, "emu:", 4) ? gs_emu_profile_find(o->device + 4) : NULL;
		gs_buf_printf(&b, "profile %s", p ? p->hash : "");
		field(h, &b);
	}
	gs_buf_printf(&b, "nvrtc %s", o->nvrtc_version ? o->nvrtc_version : "");
	field(h, &b);

	const struct gs_problem **pr = gs_xcalloc(sp->nproblems + 1, sizeof(*pr));
	for (size_t i = 0; i < sp->nproblems; i++)
		pr[i] = &sp->problems[i];
	qsort(pr, sp->nproblems, sizeof(*pr), problem_cmp);
	for (size_t i = 0; i < sp->nproblems; i++) {
		gs_buf_printf(&b, "problem %s=", pr[i]->name);
		gs_value_repr(&b, pr[i]->value);
		field(h, &b);
	}
	free(pr);

	for (size_t i = 0; i < sp->nbuffers; i++) {
		put_buffer(&b, sp, &sp->buffers[i]);
		field(h, &b);
	}

	/* the reference: its kernel files by content, its launches as they
	 * run; no reference means no validation, another outcome */
	gs_buf_printf(&b, "references %zu", sp->nrefs);
	for (size_t i = 0; i < sp->nrefs; i++) {
		int f = sp->refs[i].file;
		gs_buf_printf(&b, "\nreference file %d ", f);
		if (f >= 0 && (size_t)f < sp->nfiles && sp->files[f].text) {
			char hex[33];
			gs_source_key_hash(sp->files[f].text, sp->files[f].len, hex);
			gs_buf_puts(&b, hex);
		}
	}
	if (sp->nrefs)
		put_reference(&b, id);
	field(h, &b);

	for (size_t i = 0; i < sp->nmetrics; i++) {
		gs_buf_printf(&b, "metric %s %s ", sp->metrics[i].name,
			      sp->metrics[i].higher ? "higher" : "lower");
		put_expr(&b, sp->metrics[i].expr);
		field(h, &b);
	}
	gs_buf_release(&b);
	gs_hasher_hex(h, id->sweep);
}

struct gs_ident *gs_ident_new(const struct gs_space *sp, const struct gs_ident_opts *o)
{
	struct gs_ident *id = gs_xcalloc(1, sizeof(*id));
	id->sp = sp;
	gs_vm_init(&id->vm);
	id->env = gs_xcalloc(sp->nslots + 1, sizeof(*id->env));
	sweep_part(id, o);
	return id;
}

void gs_ident_free(struct gs_ident *id)
{
	if (!id)
		return;
	gs_vm_release(&id->vm);
	free(id->env);
	free(id);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* What NVRTC is given (gen/variant.h), the defines in name order. */
static void put_variant(struct gs_hasher *h, const struct gs_variant *v)
{
	const char **defs = gs_xcalloc(v->nkey_opts + 1, sizeof(*defs));
	size_t ndefs = 0;
	/* the source as compiled: a comment or a blank changes no result */
	gs_hasher_field(h, v->src_hash, strlen(v->src_hash));
	for (size_t i = 0; i < v->nkey_opts; i++)
		if (!strncmp(v->opts[i], "-D", 2))
			defs[ndefs++] = v->opts[i];
		else
			gs_hasher_field(h, v->opts[i], strlen(v->opts[i]));
	qsort(defs, ndefs, sizeof(*defs), str_cmp);
	gs_hasher_field(h, "defines", 7);
	for (size_t i = 0; i < ndefs; i++)
		gs_hasher_field(h, defs[i], strlen(defs[i]));
	free(defs);
	gs_hasher_field(h, "entries", 7);
	for (size_t i = 0; i < v->nnames; i++)
		gs_hasher_field(h, v->names[i], strlen(v->names[i]));
	gs_hasher_field(h, v->arch, strlen(v->arch));
}

void gs_ident_config(struct gs_ident *id, const struct gs_value *env, const struct gs_variant *v,
		     char out[33])
{
	const struct gs_space *sp = id->sp;
	struct gs_hasher *h = gs_hasher_new();
	struct gs_buf b = GS_BUF_INIT;

	gs_hasher_field(h, id->sweep, strlen(id->sweep));
	put_variant(h, v);
	memcpy(id->env, env, sp->nslots * sizeof(*id->env));
	gs_vm_reset(&id->vm);
	put_launches(&b, id, sp->launches, sp->nlaunches, id->env);
	field(h, &b);
	/* what the metrics read besides the figures */
	for (size_t i = 0; i < sp->nmetrics; i++) {
		const struct gs_code *c = sp->metrics[i].code;
		for (size_t k = 0; c && k < c->nglobals; k++) {
			int s = c->globals[k];
			if (is_figure(sp, s))
				continue;
			gs_buf_printf(&b, "%s=", sp->slot_names[s]);
			gs_value_repr(&b, env[s]);
			gs_buf_putc(&b, ' ');
		}
		field(h, &b);
	}
	gs_buf_release(&b);
	gs_hasher_hex(h, out);
}
