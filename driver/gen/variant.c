/* variant.c — source, defines and options of one configuration. */
#include "gen/variant.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void gs_define_value(struct gs_buf *b, struct gs_value v)
{
	switch (v.t) {
	case GS_V_BOOL: gs_buf_putc(b, v.i ? '1' : '0'); break;
	case GS_V_STR: gs_buf_put(b, v.s->s, v.s->len); break;
	case GS_V_FLOAT: {
		gs_float_repr(b, v.f);
		break;
	}
	default: gs_value_repr(b, v); break;
	}
}

void gs_define_value_to(struct gs_buf *b, const char *name, struct gs_value v)
{
	gs_buf_printf(b, "-D%s=", name);
	gs_define_value(b, v);
}

/* A file name inside the string literal of a #line directive: a quote or a
 * backslash escaped, a control character (a line break would end the
 * directive) as an octal escape. */
static void line_name(struct gs_buf *b, const char *path)
{
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (*p == '"' || *p == '\\')
			gs_buf_putc(b, '\\');
		if (*p < 0x20 || *p == 0x7f)
			gs_buf_printf(b, "\\%03o", *p);
		else
			gs_buf_putc(b, (char)*p);
	}
}

struct optv {
	char **v;
	size_t n, cap;
};

static void push(struct optv *o, char *s)
{
	gs_grow(&o->v, &o->cap, o->n + 1, sizeof(*o->v));
	o->v[o->n++] = s;
}

/* Render a template; 0 or -1 with a message. */
static int render(const struct gs_tmpl *t, const struct gs_value *env, struct gs_vm *vm,
		  struct gs_buf *out, char *err, size_t errlen)
{
	for (size_t i = 0; i < t->n; i++) {
		gs_buf_puts(out, t->parts[i].lit);
		if (!t->parts[i].code)
			continue;
		struct gs_value v;
		if (gs_vm_eval(vm, t->parts[i].code, env, &v) < 0) {
			unsigned line, col;
			gs_loc_linecol(vm->err_loc, &line, &col);
			snprintf(err, errlen, "%s:%u:%u: %s", vm->err_loc.src ? vm->err_loc.src->name : "?",
				 line, col, vm->err);
			return -1;
		}
		gs_define_value(out, v);
	}
	return 0;
}

static int cond_true(const struct gs_code *c, const struct gs_value *env, struct gs_vm *vm,
		     int *yes, char *err, size_t errlen)
{
	*yes = 1;
	if (!c)
		return 0;
	struct gs_value v;
	if (gs_vm_eval(vm, c, env, &v) < 0) {
		unsigned line, col;
		gs_loc_linecol(vm->err_loc, &line, &col);
		snprintf(err, errlen, "%s:%u:%u: %s", vm->err_loc.src ? vm->err_loc.src->name : "?", line,
			 col, vm->err);
		return -1;
	}
	*yes = gs_value_truthy(v);
	return 0;
}

/* The options of a variant's key into o: the architecture, the -D defines
 * of every parameter and let, the parameters' and the space's options.  0,
 * or -1 with a message (what was rendered stays in o). */
static int key_options(const struct gs_space *sp, const struct gs_value *env, const char *arch,
		       struct gs_vm *vm, struct optv *o, char *err, size_t errlen)
{
	struct gs_buf b = GS_BUF_INIT;
	gs_vm_reset(vm);
	push(o, gs_xasprintf("-arch=%s", arch));
	for (size_t i = 0; i < sp->nparams; i++) {
		const struct gs_param *pa = &sp->params[i];
		if (!pa->define)
			continue;
		gs_buf_reset(&b);
		gs_define_value_to(&b, pa->name, env[pa->slot]);
		push(o, gs_xstrdup(gs_buf_str(&b)));
	}
	for (size_t i = 0; i < sp->nlets; i++) {
		const struct gs_let *l = &sp->lets[i];
		if (!l->define)
			continue;
		gs_buf_reset(&b);
		gs_define_value_to(&b, l->name, env[l->slot]);
		push(o, gs_xstrdup(gs_buf_str(&b)));
	}
	int rc = 0;
	for (size_t i = 0; i < sp->nparams && rc == 0; i++) {
		const struct gs_param *pa = &sp->params[i];
		int yes;
		if (!pa->option)
			continue;
		if ((rc = cond_true(pa->option_if_code, env, vm, &yes, err, errlen)) < 0 || !yes)
			continue;
		gs_buf_reset(&b);
		if ((rc = render(pa->option, env, vm, &b, err, errlen)) == 0 && b.len)
			push(o, gs_xstrdup(gs_buf_str(&b)));
	}
	for (size_t i = 0; i < sp->noptions && rc == 0; i++) {
		int yes;
		if ((rc = cond_true(sp->options[i].cond_code, env, vm, &yes, err, errlen)) < 0 || !yes)
			continue;
		gs_buf_reset(&b);
		if ((rc = render(sp->options[i].text, env, vm, &b, err, errlen)) == 0 && b.len)
			push(o, gs_xstrdup(gs_buf_str(&b)));
	}
	gs_buf_release(&b);
	return rc;
}

int gs_variant_key_options(const struct gs_space *sp, const struct gs_value *env, const char *arch,
			   struct gs_vm *vm, char ***opts, size_t *n, char *err, size_t errlen)
{
	struct optv o = { 0 };
	int rc = key_options(sp, env, arch, vm, &o, err, errlen);
	*opts = o.v;
	*n = o.n;
	return rc;
}

void gs_variant_key_options_free(char **opts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(opts[i]);
	free(opts);
}

int gs_variant_build(const struct gs_space *sp, const struct gs_value *env, const char *arch,
		     const char *nvrtc_version, struct gs_vm *vm, struct gs_variant *v, char *err,
		     size_t errlen)
{
	memset(v, 0, sizeof(*v));
	if (!sp->nfiles || !sp->files[0].text) {
		snprintf(err, errlen, "the space has no kernel source");
		return -1;
	}
	const struct gs_kfile *f = &sp->files[0];
	snprintf(v->arch, sizeof v->arch, "%s", arch);
	v->name = gs_xstrdup(f->path);
	struct gs_buf src = GS_BUF_INIT;
	/* NVRTC names the program after `name`; #line keeps line numbers right
	 * even if a prologue is ever added */
	gs_buf_puts(&src, "#line 1 \"");
	line_name(&src, f->path);
	gs_buf_puts(&src, "\"\n");
	gs_buf_put(&src, f->text, f->len);
	v->source = gs_buf_detach(&src);
	{
		char k[33];
		gs_source_key_hash(f->text, f->len, k);
		struct gs_hasher *h = gs_hasher_new();
		gs_hasher_field(h, f->path, strlen(f->path));
		gs_hasher_field(h, k, 32);
		gs_hasher_hex(h, v->src_hash);
	}

	struct optv o = { 0 };
	struct gs_buf b = GS_BUF_INIT;
	int rc = key_options(sp, env, arch, vm, &o, err, errlen);
	v->nkey_opts = o.n;
	/* not in the key: where things are on this host, and asking for the
	 * resource report, which does not change the code */
	push(&o, gs_xstrdup("--ptxas-options=-v"));
	char *inc[2];
	for (size_t i = 0, n = gs_include_opts(f->path, inc); i < n; i++)
		push(&o, inc[i]);
	v->opts = o.v;
	v->nopts = o.n;

	/* entries: the launches' kernels, once each */
	for (size_t i = 0; i < sp->nlaunches && rc == 0; i++) {
		const char *k = sp->launches[i].kernel;
		gs_buf_reset(&b);
		if (sp->kernel_tmpl && sp->kernel && !strcmp(k, sp->kernel))
			rc = render(sp->kernel_tmpl, env, vm, &b, err, errlen);
		else
			gs_buf_puts(&b, k);
		int seen = 0;
		for (size_t j = 0; j < v->nnames; j++)
			seen |= !strcmp(v->names[j], gs_buf_str(&b));
		if (!seen) {
			v->names = gs_xrealloc(v->names, (v->nnames + 1) * sizeof(*v->names));
			v->names[v->nnames++] = gs_xstrdup(gs_buf_str(&b));
		}
	}
	gs_buf_release(&b);
	if (rc < 0) {
		gs_variant_release(v);
		return -1;
	}
	struct gs_hasher *h = gs_hasher_new();
	gs_hasher_field(h, "source key 1", 12);
	gs_hasher_field(h, v->src_hash, 32);
	for (size_t i = 0; i < v->nkey_opts; i++)
		gs_hasher_field(h, v->opts[i], strlen(v->opts[i]));
	for (size_t i = 0; i < v->nnames; i++)
		gs_hasher_field(h, v->names[i], strlen(v->names[i]));
	gs_hasher_field(h, arch, strlen(arch));
	gs_hasher_field(h, nvrtc_version, strlen(nvrtc_version));
	gs_hasher_hex(h, v->hash);
	return 0;
}

char *gs_variant_options_text(const struct gs_variant *v)
{
	struct gs_buf b = GS_BUF_INIT;
	for (size_t i = 0; i < v->nkey_opts; i++) {
		if (i)
			gs_buf_putc(&b, ' ');
		gs_buf_puts(&b, v->opts[i]);
	}
	return gs_buf_detach(&b);
}

void gs_variant_release(struct gs_variant *v)
{
	free(v->name);
	free(v->source);
	for (size_t i = 0; i < v->nopts; i++)
		free(v->opts[i]);
	free(v->opts);
	for (size_t i = 0; i < v->nnames; i++)
		free(v->names[i]);
	free(v->names);
	memset(v, 0, sizeof(*v));
}

size_t gs_include_opts(const char *kernel_path, char *out[2])
{
	size_t n = 0;
	char *dir = gs_xstrdup(kernel_path);
	char *slash = strrchr(dir, '/');
	if (slash) {
		*slash = 0;
		out[n++] = gs_xasprintf("--include-path=%s", dir);
	}
	free(dir);
	const char *cuda = getenv("CUDA_HOME");
	char *inc = gs_xasprintf("%s/include", cuda && *cuda ? cuda : "/usr/local/cuda");
	struct stat st;
	if (stat(inc, &st) == 0)
		out[n++] = gs_xasprintf("--include-path=%s", inc);
	free(inc);
	return n;
}
