/* argcheck.c — `check` compiles one configuration and compares the
 * arguments of every launch and reference launch with the parameters the
 * kernels' PTX declares, so that a missing or mistyped argument is an error
 * at the launch before a sweep, not a launch_error (or a crash, or garbage
 * read as a pointer) for every configuration of it.
 *
 * The PTX is read by the emulated device's loader: one reader of PTX.  What
 * PTX tells: the count, each parameter's size, float or integer, and `.ptr`
 * where NVRTC marks a pointer.  An unmarked 8-byte integer parameter may be
 * a pointer or a 64-bit integer, so a buffer and an int64 both fit it. */
#include "cmd/argcheck.h"
#include "cmd/cmd.h"
#include "dev/emu.h"
#include "gen/gen.h"
#include "gen/variant.h"
#include "space/enum.h"

#include <stdlib.h>
#include <string.h>

#define ARCH "sm_90"

int gs_space_validates(const struct gs_space *sp)
{
	return sp->nrefs > 0;
}

/* The distinct kernel names of ls, in order of first use: what the variant
 * (and the reference's compile) lists as name expressions. */
static size_t kernel_names(const struct gs_launch *ls, size_t n, const char **out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < k && strcmp(out[j], ls[i].kernel))
			j++;
		if (j == k && k < max)
			out[k++] = ls[i].kernel;
	}
	return k;
}

/* A scalar type that fits parameter p, as the space language spells it. */
static const char *fitting(const struct gs_ptx_param *p)
{
	if (p->is_float)
		return p->size == 8 ? "double(...)" : p->size == 4 ? "float(...)" : NULL;
	switch (p->size) {
	case 1: return "int8(...)";
	case 2: return "int16(...)";
	case 4: return "int32(...)";
	case 8: return "int64(...)";
	}
	return NULL;
}

static void signature(const struct gs_ptx_module *m, int entry, size_t n, struct gs_buf *b)
{
	for (size_t i = 0; i < n; i++) {
		struct gs_ptx_param p;
		if (gs_ptx_param(m, entry, i, &p) < 0)
			break;
		gs_buf_printf(b, "%s%s%s", i ? ", " : "", p.type, p.is_ptr ? " .ptr" : "");
		if (p.is_array)
			gs_buf_printf(b, " [%zu bytes]", p.size);
	}
}

/* One launch against its entry; the number of errors recorded. */
static int check_launch(const struct gs_space *sp, const struct gs_launch *l,
			const struct gs_ptx_module *m, int entry, struct gs_diag *d)
{
	const size_t *sizes;
	size_t n = gs_ptx_params(m, entry, &sizes);
	int errors = 0;
	if (n != l->nargs) {
		struct gs_buf sig = GS_BUF_INIT;
		signature(m, entry, n, &sig);
		gs_diag_error(d, l->loc, "'%s' takes %zu argument%s (%s in its PTX); this %slaunch passes %zu",
			      l->kernel, n, n == 1 ? "" : "s", n ? gs_buf_str(&sig) : "none",
			      l->reference ? "reference " : "", l->nargs);
		gs_buf_release(&sig);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct gs_arg *a = &l->args[i];
		struct gs_ptx_param p;
		if (gs_ptx_param(m, entry, i, &p) < 0 || p.is_array)
			continue; /* an aggregate by value: nothing the language passes */
		const char *hint = fitting(&p);
		if (a->buffer >= 0) {
			if (p.size != 8 || p.is_float) {
				gs_diag_error(d, a->loc, "argument %zu of '%s' is a %zu-byte %s in its PTX, not a "
					      "pointer; '%s' is a buffer", i + 1, l->kernel, p.size, p.type,
					      sp->buffers[a->buffer].name);
				if (hint)
					gs_diag_note(d, a->loc, "a number of that type is written %s", hint);
				errors++;
			}
			continue;
		}
		if (a->type < 0)
			continue;
		unsigned size = gs_btype_size(a->type);
		int isint = gs_btype_is_int(a->type);
		if (!p.is_ptr && size == p.size && !(p.is_float && isint) && !(p.is_int && !isint))
			continue;
		gs_diag_error(d, a->loc, "argument %zu of '%s' is %s%s (%zu bytes%s) in its PTX; this one is "
			      "%s %s (%u bytes)", i + 1, l->kernel, p.type, p.is_ptr ? " .ptr" : "", p.size,
			      p.is_ptr ? ", a pointer" : "", isint ? "an" : "a", gs_btype_name(a->type), size);
		if (p.is_ptr || (p.size == 8 && !p.is_float))
			gs_diag_note(d, a->loc, "pass a buffer if it is a pointer%s%s",
				     hint && !p.is_ptr ? ", or write " : "", hint && !p.is_ptr ? hint : "");
		else if (hint)
			gs_diag_note(d, a->loc, "write %s", hint);
		errors++;
	}
	return errors;
}

/* Check launches ls (their kernels compiled into PTX whose entries are
 * lowered[k] for the k-th distinct kernel name); 0 or errors recorded.  The
 * kernels' names and parameter counts are added to `line`. */
static int check_launches(const struct gs_space *sp, const struct gs_launch *ls, size_t nl,
			  const char *ptx, size_t ptx_len, char **lowered, struct gs_buf *line,
			  struct gs_diag *d, char *err, size_t errlen)
{
	struct gs_emu_mem mem;
	memset(&mem, 0, sizeof mem);
	struct gs_ptx_module *m = gs_ptx_load(ptx, ptx_len, &mem, err, errlen);
	if (!m) {
		gs_emu_mem_release(&mem);
		return -1;
	}
	const char *names[64];
	size_t nk = kernel_names(ls, nl, names, 64);
	int errors = 0;
	for (size_t k = 0; k < nk; k++) {
		int entry = gs_ptx_entry(m, lowered[k]);
		const size_t *sizes;
		if (entry < 0) {
			snprintf(err, errlen, "no entry '%s' in the PTX", lowered[k]);
			errors = -1;
			break;
		}
		gs_buf_printf(line, "%s%s (%zu)", line->len ? ", " : "", names[k],
			      gs_ptx_params(m, entry, &sizes));
		for (size_t i = 0; i < nl; i++)
			if (!strcmp(ls[i].kernel, names[k]))
				errors += check_launch(sp, &ls[i], m, entry, d);
	}
	gs_ptx_free(m, &mem);
	gs_emu_mem_release(&mem);
	return errors;
}

/* The reference's program, as the worker compiles it (dev/measure.c): the
 * file of the first reference launch, the configuration's macros and
 * GSEARCH_REFERENCE. */
static int compile_reference(const struct gs_space *sp, const struct gs_value *env,
			     struct gs_nvrtc *nvrtc, const char **names, size_t nn,
			     struct gs_compile_out *out)
{
	const struct gs_kfile *f = &sp->files[sp->refs[0].file >= 0 ? sp->refs[0].file : 0];
	struct gs_buf src = GS_BUF_INIT, b = GS_BUF_INIT;
	gs_buf_printf(&src, "#line 1 \"%s\"\n", f->path);
	gs_buf_put(&src, f->text ? f->text : "", f->len);
	const char **opts = gs_xcalloc(sp->nparams + sp->nlets + 2, sizeof(*opts));
	size_t no = 0;
	opts[no++] = gs_xstrdup("-arch=" ARCH);
	for (size_t i = 0; i < sp->nparams; i++)
		if (sp->params[i].define) {
			gs_buf_reset(&b);
			gs_define_value_to(&b, sp->params[i].name, env[sp->params[i].slot]);
			opts[no++] = gs_xstrdup(gs_buf_str(&b));
		}
	for (size_t i = 0; i < sp->nlets; i++)
		if (sp->lets[i].define) {
			gs_buf_reset(&b);
			gs_define_value_to(&b, sp->lets[i].name, env[sp->lets[i].slot]);
			opts[no++] = gs_xstrdup(gs_buf_str(&b));
		}
	opts[no++] = gs_xstrdup("-DGSEARCH_REFERENCE=1");
	struct gs_compile_in in = { f->path, gs_buf_str(&src), opts, no, names, nn, 1, 0 };
	int rc = gs_nvrtc_compile(nvrtc, &in, out);
	for (size_t i = 0; i < no; i++)
		free((void *)opts[i]);
	free(opts);
	gs_buf_release(&src);
	gs_buf_release(&b);
	return rc < 0 || !out->ok ? -1 : 0;
}

int gs_check_arguments(const struct gs_space *sp, int64_t base_index, struct gs_diag *d)
{
	struct gs_vm vm;
	gs_vm_init(&vm);
	struct gs_arena arena = GS_ARENA_INIT;
	struct gs_value *env = gs_xmalloc((sp->nslots + 1) * sizeof(*env));
	struct gs_nvrtc *nvrtc = NULL;
	struct gs_variant v;
	struct gs_compile_out out, rout;
	struct gs_buf line = GS_BUF_INIT;
	char err[1024] = "";
	const char *why = NULL;
	int64_t index = base_index;
	size_t rnn = 0;
	int errors = 0;
	memset(&v, 0, sizeof v);
	memset(&out, 0, sizeof out);
	memset(&rout, 0, sizeof rout);

	/* the baseline, else the first valid configuration */
	int found = 0;
	if (base_index >= 0 && sp->baseline) {
		struct gs_diag ignored = GS_DIAG_INIT;
		int failed;
		memcpy(env, sp->baseline, sp->nslots * sizeof(*env));
		found = gs_config_check(sp, env, &vm, &failed, &ignored) == 1;
		gs_diag_release(&ignored);
	}
	if (!found) {
		struct gs_enum e;
		if (gs_enum_init(&e, sp, 0, 1) >= 0 && gs_enum_next(&e) > 0) {
			for (size_t i = 0; i < sp->nslots; i++)
				env[i] = gs_value_persist(&arena, e.env[i]);
			index = (int64_t)e.index;
			found = 1;
		}
		gs_enum_release(&e);
	}
	if (!found) {
		why = "no valid configuration to compile";
		goto out;
	}
	if (gs_nvrtc_load(&nvrtc, err, sizeof err) < 0) {
		why = err;
		goto out;
	}
	if (gs_variant_build(sp, env, ARCH, gs_nvrtc_version(nvrtc), &vm, &v, err, sizeof err) < 0) {
		why = err;
		goto out;
	}
	struct gs_compile_in in = { v.name, v.source, (const char *const *)v.opts, v.nopts,
				    (const char *const *)v.names, v.nnames, 1, 0 };
	if (gs_nvrtc_compile(nvrtc, &in, &out) < 0 || !out.ok) {
		/* a cause gsearch found says more than the pointer to the log */
		int ownlen;
		const char *own = gs_complog_own(out.log, &ownlen);
		snprintf(err, sizeof err, "index %lld does not compile%s%.*s (`gsearch compile --index %lld "
			 "--log` shows why)", (long long)index, own ? ": " : "", ownlen, own ? own : "",
			 (long long)index);
		why = err;
		goto out;
	}
	int r = check_launches(sp, sp->launches, sp->nlaunches, out.ptx, out.ptx_len, out.lowered,
			       &line, d, err, sizeof err);
	if (r < 0) {
		why = err;
		goto out;
	}
	errors += r;
	if (sp->nrefs) {
		const char *names[64];
		rnn = kernel_names(sp->refs, sp->nrefs, names, 64);
		if (compile_reference(sp, env, nvrtc, names, rnn, &rout) < 0) {
			why = "the reference does not compile";
			goto out;
		}
		r = check_launches(sp, sp->refs, sp->nrefs, rout.ptx, rout.ptx_len, rout.lowered, &line,
				   d, err, sizeof err);
		if (r < 0) {
			why = err;
			goto out;
		}
		errors += r;
	}
out:
	if (why)
		printf("arguments   not checked: %s\n", why);
	else if (!errors && !line.len)
		printf("arguments   not checked: nothing is launched\n");
	else if (errors)
		printf("arguments   %d mismatch%s with the kernels' parameters in the PTX of index %lld\n",
		       errors, errors == 1 ? "" : "es", (long long)index);
	else
		printf("arguments   match the kernels' parameters in the PTX of index %lld: %s\n",
		       (long long)index, gs_buf_str(&line));
	gs_buf_release(&line);
	gs_compile_out_release(&rout, rnn);
	gs_compile_out_release(&out, v.nnames);
	gs_variant_release(&v);
	gs_nvrtc_unload(nvrtc);
	gs_arena_release(&arena);
	free(env);
	gs_vm_release(&vm);
	return errors ? -1 : 0;
}
