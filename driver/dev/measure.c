/* measure.c — a worker's setup and per-configuration measurement.
 *
 * Per configuration: load the cubin, read the function's attributes, refuse
 * before launching what the device cannot run (outcome `invalid`), compute
 * blocks per SM and the limiting resource, reset the outputs, run the launch
 * sequence once and validate it against the reference, then time it: warm
 * up until three runs agree, then add timed runs (device events) until the
 * median is stable or the time cap is reached.  The median, minimum and IQR
 * are reported — never a mean that includes a cold run. */
#include "dev/measure.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev/launch.h"
#include "dev/validate.h"
#include "gen/variant.h"
#include "space/enum.h"
#include "util/util.h"

/* Timed work under which energy, power, clock and temperature are not
 * sampled (see time_config). */
#define GS_SAMPLE_MIN_MS 100.0

struct devbuf {
	uint64_t ptr;      /* the buffer the kernels see */
	/* its initial contents: outputs and inouts are reset from it before
	 * each configuration, inputs restored and checked against it */
	uint64_t pristine;
	size_t bytes;
	int has_ref;       /* an output or inout with reference values, or a
			    * checked input (its initial contents) */
	int is_input;
	void *ref;         /* reference outputs on the host (host validation) */
	void *host;        /* scratch for downloads (host validation) */
	uint64_t refdev;   /* reference outputs on the device (device validation) */
};

struct gs_measure {
	const struct gs_space *sp;
	const struct gs_dev_ops *ops;
	struct gs_dev *dev;
	struct gs_devinfo info;
	struct gs_measure_opts o;
	struct devbuf *bufs;
	struct gs_vm vm;
	int have_ref, ref_cached;
	int check_inputs; /* some input has a pristine copy to check against */
	struct gs_cmpdev *cmp; /* device validation; NULL: on the host */
	uint64_t flush[2];
	size_t flush_bytes;
	/* the real size's buffers (o.real): allocated and filled once
	 * (fill_real), or the space's own (real_only) */
	uint64_t *real_ptr;
	int real_only;
	/* GSEARCH_PROFILE: where a worker's time goes, printed when it ends */
	int profile;
	int no_gate;
	double prof[8];
	unsigned long nprof;
};

enum { P_LOAD, P_PREP, P_VALIDATE, P_TIME, P_SAMPLE, P_UNLOAD, P_COUNT };
static const char *const prof_names[P_COUNT] = { "load", "prepare", "validate", "time",
						 "energy", "unload" };

static void prof(struct gs_measure *m, int phase, double *t)
{
	if (!m->profile)
		return;
	double now = gs_now();
	m->prof[phase] += now - *t;
	*t = now;
}

/* One launch (or const copy) of a configuration's sequence, evaluated once. */
struct step {
	int is_copy;
	struct gs_func *f;
	unsigned grid[3], block[3];
	size_t smem;
	void **args;
	uint64_t *argbuf;
	const char *symbol;
	uint64_t src;
	size_t n;
};

struct plan {
	struct step *steps;
	size_t n, cap;
};

static void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->steps[i].args);
		free(p->steps[i].argbuf);
	}
	free(p->steps);
	memset(p, 0, sizeof(*p));
}

static int eval(struct gs_measure *m, const struct gs_code *c, struct gs_value *env,
		struct gs_value *v, char *err, size_t errlen)
{
	if (gs_vm_eval(&m->vm, c, env, v) < 0) {
		unsigned line, col;
		gs_loc_linecol(m->vm.err_loc, &line, &col);
		snprintf(err, errlen, "%s:%u:%u: %s", m->vm.err_loc.src ? m->vm.err_loc.src->name : "?",
			 line, col, m->vm.err);
		return -1;
	}
	return 0;
}

static int eval_int(struct gs_measure *m, const struct gs_code *c, struct gs_value *env,
		    int64_t *out, char *err, size_t errlen)
{
	struct gs_value v;
	if (eval(m, c, env, &v, err, errlen) < 0)
		return -1;
	if (v.t == GS_V_FLOAT && v.f == floor(v.f))
		v = gs_int((int64_t)v.f);
	if (v.t != GS_V_INT && v.t != GS_V_BOOL) {
		snprintf(err, errlen, "expected an integer, got a %s", gs_vtype_name(v.t));
		return -1;
	}
	*out = v.i;
	return 0;
}

static int geometry(struct gs_measure *m, const struct gs_geom *g, const struct gs_geom *dflt,
		    struct gs_value *env, unsigned out[3], char *err, size_t errlen)
{
	const struct gs_geom *use = g->n ? g : dflt;
	for (int i = 0; i < 3; i++) {
		out[i] = 1;
		if (i >= use->n)
			continue;
		int64_t v;
		if (eval_int(m, use->c[i], env, &v, err, errlen) < 0)
			return -1;
		if (v < 1 || v > 0x7fffffff) {
			snprintf(err, errlen, "a launch dimension of %lld", (long long)v);
			return -1;
		}
		out[i] = (unsigned)v;
	}
	return 0;
}

static int scalar_arg(struct gs_measure *m, const struct gs_arg *a, struct gs_value *env,
		      uint64_t *slot, char *err, size_t errlen)
{
	struct gs_value v;
	if (eval(m, a->code, env, &v, err, errlen) < 0)
		return -1;
	double f = v.t == GS_V_FLOAT ? v.f : (double)v.i;
	int64_t i = v.t == GS_V_FLOAT ? (int64_t)v.f : v.i;
	*slot = 0;
	switch (a->type) {
	case GS_BT_FLOAT: { float x = (float)f; memcpy(slot, &x, sizeof x); break; }
	case GS_BT_DOUBLE: memcpy(slot, &f, sizeof f); break;
	case GS_BT_INT8: case GS_BT_UINT8: { uint8_t x = (uint8_t)i; memcpy(slot, &x, 1); break; }
	case GS_BT_INT16: case GS_BT_UINT16: { uint16_t x = (uint16_t)i; memcpy(slot, &x, 2); break; }
	case GS_BT_INT32: case GS_BT_UINT32:
		if (i > 0xffffffffLL || i < -0x80000000LL) {
			snprintf(err, errlen, "argument value %lld does not fit in 32 bits", (long long)i);
			return -1;
		}
		{ uint32_t x = (uint32_t)i; memcpy(slot, &x, 4); }
		break;
	default: memcpy(slot, &i, 8); break;
	}
	return 0;
}

/* Building the plan of a list of launches for the configuration in env. */
struct plan_walk {
	struct gs_measure *m;
	const struct gs_space *sp;
	const uint64_t *ptrs;
	struct gs_func **funcs;
	const char *const *kernels;
	size_t nk;
	size_t k; /* the kernel of the launch being walked */
	struct gs_value *env;
	struct plan *p;
	char *err;
	size_t errlen;
};

static struct step *plan_step(struct plan *p)
{
	gs_grow(&p->steps, &p->cap, p->n + 1, sizeof(*p->steps));
	struct step *st = &p->steps[p->n++];
	memset(st, 0, sizeof(*st));
	return st;
}

static int plan_launch(void *ctx, const struct gs_launch *l)
{
	struct plan_walk *w = ctx;
	for (w->k = 0; w->k < w->nk; w->k++)
		if (!strcmp(w->kernels[w->k], l->kernel))
			return 0;
	snprintf(w->err, w->errlen, "no entry for kernel '%s'", l->kernel);
	return -1;
}

static int plan_loop(void *ctx, const struct gs_launch *l, struct gs_value *seq)
{
	struct plan_walk *w = ctx;
	if (eval(w->m, l->loop_c, w->env, seq, w->err, w->errlen) < 0)
		return -1;
	*seq = gs_value_persist(&w->m->vm.scratch, *seq);
	return 0;
}

static int plan_copy(void *ctx, const struct gs_launch *l, const struct gs_copy *c)
{
	struct plan_walk *w = ctx;
	const struct gs_buffer *b = &w->sp->buffers[c->buffer];
	size_t es = gs_btype_size(b->type);
	int64_t s0 = 0, s1 = b->n;
	(void)l;
	if (c->start_c && eval_int(w->m, c->start_c, w->env, &s0, w->err, w->errlen) < 0)
		return -1;
	if (c->end_c && eval_int(w->m, c->end_c, w->env, &s1, w->err, w->errlen) < 0)
		return -1;
	if (s0 < 0 || s1 > b->n || s0 > s1) {
		snprintf(w->err, w->errlen, "copy of %s[%lld:%lld] is outside its %lld elements",
			 b->name, (long long)s0, (long long)s1, (long long)b->n);
		return -1;
	}
	struct step *st = plan_step(w->p);
	st->is_copy = 1;
	st->symbol = c->symbol;
	st->src = w->ptrs[c->buffer] + (uint64_t)s0 * es;
	st->n = (size_t)(s1 - s0) * es;
	return 0;
}

static int plan_run(void *ctx, const struct gs_launch *l)
{
	struct plan_walk *w = ctx;
	struct gs_measure *m = w->m;
	const struct gs_space *sp = w->sp;
	struct gs_value *env = w->env;
	char *err = w->err;
	size_t errlen = w->errlen;
	struct step *st = plan_step(w->p);
	st->f = w->funcs[w->k];
	if (geometry(m, &l->block, &sp->block, env, st->block, err, errlen) < 0 ||
	    geometry(m, &l->grid, &sp->grid, env, st->grid, err, errlen) < 0)
		return -1;
	const struct gs_code *sh = l->shared_c ? l->shared_c : sp->shared_c;
	int64_t smem = 0;
	if (sh && eval_int(m, sh, env, &smem, err, errlen) < 0)
		return -1;
	st->smem = smem > 0 ? (size_t)smem : 0;
	st->args = gs_xcalloc(l->nargs + 1, sizeof(*st->args));
	st->argbuf = gs_xcalloc(l->nargs + 1, sizeof(*st->argbuf));
	for (size_t ai = 0; ai < l->nargs; ai++) {
		const struct gs_arg *a = &l->args[ai];
		if (a->buffer >= 0)
			st->argbuf[ai] = w->ptrs[a->buffer];
		else if (scalar_arg(m, a, env, &st->argbuf[ai], err, errlen) < 0)
			return -1;
		st->args[ai] = &st->argbuf[ai];
	}
	return 0;
}

static int build_plan_in(struct gs_measure *m, const struct gs_space *sp, const uint64_t *ptrs,
			 const struct gs_launch *ls, size_t nl, struct gs_func **funcs,
			 const char *const *kernels, size_t nk, struct gs_value *env, struct plan *p,
			 char *err, size_t errlen)
{
	static const struct gs_launch_visit visit = { plan_launch, plan_loop, plan_copy, plan_run };
	struct plan_walk w = { .m = m, .sp = sp, .ptrs = ptrs, .funcs = funcs, .kernels = kernels,
			       .nk = nk, .env = env, .p = p, .err = err, .errlen = errlen };
	return gs_launch_walk(ls, nl, env, &visit, &w);
}

static int build_plan(struct gs_measure *m, const struct gs_launch *ls, size_t nl,
		      struct gs_func **funcs, const char *const *kernels, size_t nk,
		      struct gs_value *env, struct plan *p, char *err, size_t errlen)
{
	uint64_t *ptrs = gs_xmalloc((m->sp->nbuffers + 1) * sizeof(*ptrs));
	for (size_t i = 0; i < m->sp->nbuffers; i++)
		ptrs[i] = m->bufs[i].ptr;
	int rc = build_plan_in(m, m->sp, ptrs, ls, nl, funcs, kernels, nk, env, p, err, errlen);
	free(ptrs);
	return rc;
}

static int replay(struct gs_measure *m, struct gs_module *mod, const struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct step *s = &p->steps[i];
		int rc = s->is_copy ? m->ops->const_copy(m->dev, mod, s->symbol, s->src, s->n)
				    : m->ops->launch(m->dev, s->f, s->grid, s->block, s->smem, s->args);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int is_output(const struct gs_buffer *b)
{
	return b->kind == GS_BUF_OUTPUT || b->kind == GS_BUF_INOUT;
}

/* Whether a buffer goes back to its fill before each configuration:
 * outputs and inouts, and scratch buffers with a fill (a visited bitmap
 * cleared, a counter zeroed: what the last configuration left there would
 * change what the next one computes). */
static int is_reset(const struct gs_buffer *b)
{
	return is_output(b) || (b->kind == GS_BUF_SCRATCH && b->fill.kind != GS_FILL_NONE);
}

/* Every buffer with a pristine copy back to it: outputs, inouts and filled
 * scratch to their fill, inputs undoing whatever the last configuration
 * wrote into them. */
static int reset_buffers(struct gs_measure *m)
{
	for (size_t i = 0; i < m->sp->nbuffers; i++)
		if (m->bufs[i].pristine && m->bufs[i].bytes) {
			int rc = m->ops->copy(m->dev, m->bufs[i].ptr, m->bufs[i].pristine, m->bufs[i].bytes);
			if (rc < 0)
				return rc;
		}
	return 0;
}

/* A buffer at the real size gets its declared fill, once per worker, so
 * that kernels whose work depends on the data (indices, bounds, counts)
 * do the work they would do on the GPU.  It is never restored between
 * configurations: only a sample of blocks writes it and nothing reads
 * back what they wrote.  A fill that cannot be made at the real size (a
 * file shorter than the real buffer, say) leaves the buffer zero: the
 * real size times, it does not validate. */
static void fill_real(struct gs_measure *m, const struct gs_space *rs, const struct gs_buffer *b,
		      uint64_t ptr, size_t bytes)
{
	if (!bytes || b->fill.kind == GS_FILL_NONE || b->fill.kind == GS_FILL_ZERO)
		return;
	struct gs_value *env = gs_xmalloc(rs->nslots * sizeof(*env));
	memcpy(env, rs->env0, rs->nslots * sizeof(*env));
	void *host = malloc(bytes);
	char err[256];
	if (host && gs_fill_buffer(rs, b, host, env, &m->vm, err, sizeof err) == 0)
		m->ops->upload(m->dev, ptr, host, bytes);
	else
		gs_trace("worker: a buffer stays zero at the real size");
	free(host);
	free(env);
}

/* Compile and load the kernels of `ls`; entries are the launches' kernel
 * names in order of first use. */
static size_t distinct_kernels(const struct gs_launch *ls, size_t n, const char **out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j;
		for (j = 0; j < k; j++)
			if (!strcmp(out[j], ls[i].kernel))
				break;
		if (j == k)
			out[k++] = ls[i].kernel;
	}
	return k;
}

/* ---- the reference, and what a later worker can reuse of it ------------------------- */

/* What is compiled while the device opens and the inputs fill: NVRTC
 * takes tens of milliseconds, a context a few hundred. */
struct refprep {
	struct gs_measure *m;
	struct gs_nvrtc **nvrtc;
	const struct gs_value *ref_env;
	int want_ref, want_cmp;
	unsigned types; /* of the comparison kernels (gs_cmp_types) */
	const char *names[64];
	size_t nn;
	struct gs_compile_out out;
	int compiled;
	void *cmp;
	size_t cmp_len;
	int rc;
	char err[2048];
};

static void *ref_compile(void *arg)
{
	struct refprep *p = arg;
	struct gs_measure *m = p->m;
	const struct gs_space *sp = m->sp;
	if (!*p->nvrtc && gs_nvrtc_load(p->nvrtc, p->err, sizeof p->err) < 0) {
		p->rc = -1;
		return NULL;
	}
	if (p->want_cmp && gs_cmp_compile(*p->nvrtc, m->o.arch, p->types, &p->cmp, &p->cmp_len,
					  p->err, sizeof p->err) < 0) {
		p->rc = -1;
		return NULL;
	}
	if (!p->want_ref)
		return NULL;
	const struct gs_kfile *f = &sp->files[sp->refs[0].file >= 0 ? sp->refs[0].file : 0];
	if (!f->text) {
		snprintf(p->err, sizeof p->err, "cannot read the reference's kernel file '%s'", f->path);
		p->rc = -1;
		return NULL;
	}
	struct gs_buf src = GS_BUF_INIT, b = GS_BUF_INIT;
	gs_buf_printf(&src, "#line 1 \"%s\"\n", f->path);
	gs_buf_put(&src, f->text, f->len);
	const char **opts = gs_xcalloc(sp->nparams + sp->nlets + 6, sizeof(*opts));
	size_t no = 0;
	opts[no++] = gs_xasprintf("-arch=%s", m->o.arch);
	/* where the variants find their headers, so does the reference */
	char *inc[2];
	for (size_t i = 0, n = gs_include_opts(f->path, inc); i < n; i++)
		opts[no++] = inc[i];
	/* the reference sees the same macros as a configuration, so that the
	 * file compiles; its launches depend on problems only */
	for (size_t i = 0; i < sp->nparams; i++)
		if (sp->params[i].define) {
			gs_buf_reset(&b);
			gs_define_value_to(&b, sp->params[i].name, p->ref_env[sp->params[i].slot]);
			opts[no++] = gs_xstrdup(gs_buf_str(&b));
		}
	for (size_t i = 0; i < sp->nlets; i++)
		if (sp->lets[i].define) {
			gs_buf_reset(&b);
			gs_define_value_to(&b, sp->lets[i].name, p->ref_env[sp->lets[i].slot]);
			opts[no++] = gs_xstrdup(gs_buf_str(&b));
		}
	opts[no++] = gs_xstrdup("-DGSEARCH_REFERENCE=1");
	p->nn = distinct_kernels(sp->refs, sp->nrefs < 64 ? sp->nrefs : 64, p->names);
	struct gs_compile_in in = { f->path, gs_buf_str(&src), opts,    no,
				    p->names, p->nn,           m->ops->modeled, 1 };
	int rc = gs_nvrtc_compile(*p->nvrtc, &in, &p->out);
	p->compiled = 1;
	for (size_t i = 0; i < no; i++)
		free((void *)opts[i]);
	free(opts);
	gs_buf_release(&src);
	gs_buf_release(&b);
	if (rc < 0 || !p->out.ok) {
		snprintf(p->err, sizeof p->err, "the reference does not compile:\n%s",
			 p->out.log ? p->out.log : "");
		p->rc = -1;
	}
	return NULL;
}

/* Run the compiled reference and keep its outputs on the host. */
static int run_reference(struct gs_measure *m, struct refprep *p, char *err, size_t errlen)
{
	const struct gs_space *sp = m->sp;
	struct gs_module *mod = NULL;
	struct gs_func *funcs[64];
	struct gs_funcattr attr;
	int rc;
	if (m->ops->modeled) {
		/* the emulated device runs the PTX and reads resources from the cubin */
		void *img;
		size_t n = gs_emu_image_pack(p->out.cubin, p->out.cubin_len, p->out.ptx,
					     p->out.ptx_len, &img);
		rc = m->ops->module_load(m->dev, img, n, &mod);
		free(img);
	} else {
		rc = m->ops->module_load(m->dev, p->out.cubin, p->out.cubin_len, &mod);
	}
	for (size_t i = 0; rc == 0 && i < p->nn; i++)
		rc = m->ops->function(m->dev, mod, p->out.lowered[i], &funcs[i], &attr);
	if (rc < 0) {
		snprintf(err, errlen, "cannot load the reference: %s", m->ops->errmsg(m->dev));
		if (mod)
			m->ops->module_unload(m->dev, mod);
		return -1;
	}
	struct gs_value *env = gs_xmalloc(sp->nslots * sizeof(*env));
	memcpy(env, sp->env0, sp->nslots * sizeof(*env));
	struct plan pl = { 0 };
	rc = build_plan(m, sp->refs, sp->nrefs, funcs, p->names, p->nn, env, &pl, err, errlen);
	if (rc == 0 && (rc = replay(m, mod, &pl)) == 0)
		rc = m->ops->sync(m->dev);
	if (rc < 0 && !err[0])
		snprintf(err, errlen, "the reference failed: %s", m->ops->errmsg(m->dev));
	for (size_t i = 0; rc == 0 && i < sp->nbuffers; i++) {
		if (!is_output(&sp->buffers[i]))
			continue;
		m->bufs[i].ref = gs_xmalloc(m->bufs[i].bytes ? m->bufs[i].bytes : 1);
		if (m->ops->download(m->dev, m->bufs[i].ref, m->bufs[i].ptr, m->bufs[i].bytes) < 0) {
			snprintf(err, errlen, "cannot read the reference outputs: %s", m->ops->errmsg(m->dev));
			rc = -1;
		}
	}
	plan_free(&pl);
	free(env);
	m->ops->module_unload(m->dev, mod);
	return rc < 0 ? -1 : 0;
}

static char *cache_path(const struct gs_measure *m, const char *name, size_t i)
{
	return gs_xasprintf("%s/%s-%zu.bin", m->o.cache_dir, name, i);
}

/* The file's content when it is exactly `bytes` long (any length when
 * bytes is 0, into *len); NULL otherwise. */
static void *cache_get(const struct gs_measure *m, const char *name, size_t i, size_t bytes,
		       size_t *len)
{
	char *path = cache_path(m, name, i);
	char *data = NULL;
	size_t n = 0;
	if (gs_read_file_max(path, bytes ? bytes : GS_READ_MAX, &data, &n) < 0 || (bytes && n != bytes) ||
	    !n) {
		free(data);
		data = NULL;
	}
	if (len)
		*len = n;
	free(path);
	return data;
}

/* Written under a temporary name and renamed: a reader never sees half a
 * file, and a failure only costs the next worker a recomputation. */
static void cache_put(const struct gs_measure *m, const char *name, size_t i, const void *p,
		      size_t bytes)
{
	char *path = cache_path(m, name, i);
	char *tmp = gs_xasprintf("%s.%ld.tmp", path, (long)getpid());
	FILE *f = fopen(tmp, "wb");
	int ok = f && fwrite(p, 1, bytes, f) == bytes;
	if (f && fclose(f) != 0)
		ok = 0;
	if (!ok || rename(tmp, path) < 0)
		unlink(tmp);
	free(tmp);
	free(path);
}

/* The reference outputs from the cache, all or none. */
static int refs_from_cache(struct gs_measure *m)
{
	const struct gs_space *sp = m->sp;
	if (!m->o.cache_dir)
		return 0;
	for (size_t i = 0; i < sp->nbuffers; i++)
		if (is_output(&sp->buffers[i]) &&
		    !(m->bufs[i].ref = cache_get(m, "ref", i, m->bufs[i].bytes ? m->bufs[i].bytes : 1,
						     NULL))) {
			for (size_t j = 0; j < i; j++) {
				free(m->bufs[j].ref);
				m->bufs[j].ref = NULL;
			}
			return 0;
		}
	return 1;
}

/* Buffer b's contents on the host, malloc'd (*rc < 0 with a message when its
 * fill fails). */
static void *host_fill(const struct gs_space *sp, const struct gs_buffer *b, struct gs_value *env,
		       struct gs_vm *vm, int *rc, char *err, size_t errlen)
{
	size_t bytes = (size_t)b->n * gs_btype_size(b->type);
	void *host = gs_xcalloc(bytes ? bytes : 1, 1);
	*rc = gs_fill_buffer(sp, b, host, env, vm, err, errlen);
	return host;
}

int gs_measure_prefill(const struct gs_space *sp, struct gs_prefill *pf, char *err, size_t errlen)
{
	pf->n = sp->nbuffers;
	pf->host = gs_xcalloc(sp->nbuffers + 1, sizeof *pf->host);
	struct gs_value *env = gs_xmalloc((sp->nslots + 1) * sizeof *env);
	memcpy(env, sp->env0, sp->nslots * sizeof *env);
	struct gs_vm vm;
	gs_vm_init(&vm);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < sp->nbuffers; i++)
		pf->host[i] = host_fill(sp, &sp->buffers[i], env, &vm, &rc, err, errlen);
	gs_vm_release(&vm);
	free(env);
	if (rc < 0)
		gs_prefill_release(pf);
	return rc < 0 ? -1 : 0;
}

void gs_prefill_release(struct gs_prefill *pf)
{
	for (size_t i = 0; pf->host && i < pf->n; i++)
		free(pf->host[i]);
	free(pf->host);
	pf->host = NULL;
	pf->n = 0;
}

/* Every buffer of the space on the device, filled on the host or taken from
 * o.prefill; the buffers reset before each configuration (is_reset) and
 * the inputs keep a pristine copy there. */
static int upload_buffers(struct gs_measure *m, char *err, size_t errlen)
{
	const struct gs_space *sp = m->sp;
	const struct gs_dev_ops *ops = m->ops;
	const struct gs_measure_opts *o = &m->o;
	int rc = 0;
	struct gs_value *env = gs_xmalloc(sp->nslots * sizeof(*env));
	memcpy(env, sp->env0, sp->nslots * sizeof(*env));
	for (size_t i = 0; rc == 0 && i < sp->nbuffers; i++) {
		const struct gs_buffer *b = &sp->buffers[i];
		struct devbuf *d = &m->bufs[i];
		d->bytes = (size_t)b->n * gs_btype_size(b->type);
		void *host = NULL;
		if (o->prefill && i < o->prefill->n && o->prefill->host[i]) {
			host = o->prefill->host[i];
			o->prefill->host[i] = NULL;
		}
		/* the device first: a buffer it has no room for is not filled
		 * on the host either */
		if (ops->alloc(m->dev, d->bytes ? d->bytes : 1, &d->ptr) < 0)
			rc = -1, snprintf(err, errlen, "cannot allocate %s (%zu bytes): %s", b->name, d->bytes,
					  ops->errmsg(m->dev));
		if (rc == 0 && !host)
			host = host_fill(sp, b, env, &m->vm, &rc, err, errlen);
		if (rc == 0 && d->bytes && ops->upload(m->dev, d->ptr, host, d->bytes) < 0)
			rc = -1, snprintf(err, errlen, "cannot upload %s: %s", b->name, ops->errmsg(m->dev));
		if (rc == 0 && is_reset(b) && d->bytes) {
			if (ops->alloc(m->dev, d->bytes, &d->pristine) < 0 ||
			    ops->copy(m->dev, d->pristine, d->ptr, d->bytes) < 0)
				rc = -1, snprintf(err, errlen, "cannot keep a copy of %s: %s", b->name,
						  ops->errmsg(m->dev));
		} else if (rc == 0 && b->kind == GS_BUF_INPUT && d->bytes) {
			/* a kernel that writes its input must not change what the
			 * next configurations compute: inputs are checked after the
			 * validation run and restored before each configuration.
			 * Where the device has no room for the copy, the input goes
			 * unchecked rather than the sweep failing */
			if (ops->alloc(m->dev, d->bytes, &d->pristine) == 0 &&
			    ops->copy(m->dev, d->pristine, d->ptr, d->bytes) == 0) {
				d->is_input = 1;
				d->ref = host;
				host = NULL;
				m->check_inputs = 1;
			} else if (d->pristine && ops->free_mem) {
				ops->free_mem(m->dev, d->pristine);
				d->pristine = 0;
			}
		}
		free(host);
	}
	free(env);
	return rc;
}

/* 1 when the two spaces' buffers have the same types and sizes. */
static int same_buffers(const struct gs_space *a, const struct gs_space *b)
{
	if (a->nbuffers != b->nbuffers)
		return 0;
	for (size_t i = 0; i < a->nbuffers; i++)
		if (a->buffers[i].n != b->buffers[i].n || a->buffers[i].type != b->buffers[i].type)
			return 0;
	return 1;
}

/* The real problem's buffers, where the device times at the real size, and
 * the two that flush L2 between runs. */
static int alloc_extra(struct gs_measure *m, char *err, size_t errlen)
{
	const struct gs_dev_ops *ops = m->ops;
	const struct gs_measure_opts *o = &m->o;
	int rc = 0;
	if (o->real && ops->sample) {
		m->real_ptr = gs_xcalloc(o->real->nbuffers + 1, sizeof(*m->real_ptr));
		m->real_only = o->real_only && !m->sp->nrefs && same_buffers(m->sp, o->real);
		for (size_t i = 0; m->real_only && i < o->real->nbuffers; i++)
			m->real_ptr[i] = m->bufs[i].ptr;
		for (size_t i = 0; rc == 0 && !m->real_only && i < o->real->nbuffers; i++) {
			const struct gs_buffer *b = &o->real->buffers[i];
			size_t bytes = (size_t)b->n * gs_btype_size(b->type);
			if (ops->alloc(m->dev, bytes ? bytes : 1, &m->real_ptr[i]) < 0)
				rc = -1, snprintf(err, errlen, "cannot allocate %s at the real size (%zu "
						  "bytes): %s", b->name, bytes, ops->errmsg(m->dev));
			else
				fill_real(m, o->real, b, m->real_ptr[i], bytes);
		}
	}
	if (rc == 0 && o->flush_l2 && m->info.l2_bytes > 0) {
		m->flush_bytes = (size_t)m->info.l2_bytes * 2;
		if (ops->alloc(m->dev, m->flush_bytes, &m->flush[0]) < 0 ||
		    ops->alloc(m->dev, m->flush_bytes, &m->flush[1]) < 0)
			m->flush_bytes = 0;
	}
	return rc;
}

/* The reference run, where no cache held its outputs; they go to the cache. */
static int reference(struct gs_measure *m, struct refprep *prep, char *err, size_t errlen)
{
	const struct gs_space *sp = m->sp;
	const struct gs_measure_opts *o = &m->o;
	int rc = run_reference(m, prep, err, errlen);
	if (rc == 0) {
		m->have_ref = 1;
		for (size_t i = 0; o->cache_dir && i < sp->nbuffers; i++)
			if (m->bufs[i].ref && !m->bufs[i].is_input)
				cache_put(m, "ref", i, m->bufs[i].ref, m->bufs[i].bytes);
	}
	return rc;
}

/* The reference outputs where the comparison reads them: a GPU compares on
 * the device, so they move there; else they stay on the host, beside a
 * buffer to read the outputs into.  rc: the setup's so far. */
static int place_refs(struct gs_measure *m, const void *cmp, size_t cmp_len, unsigned types,
		      int rc, char *err, size_t errlen)
{
	const struct gs_space *sp = m->sp;
	const struct gs_dev_ops *ops = m->ops;
	if (rc == 0 && m->have_ref && !ops->modeled && cmp) {
		m->cmp = gs_cmpdev_open(ops, m->dev, cmp, cmp_len, types, sp->nbuffers, err,
					 errlen);
		if (!m->cmp)
			rc = -1;
		for (size_t i = 0; rc == 0 && i < sp->nbuffers; i++) {
			struct devbuf *d = &m->bufs[i];
			if (!d->ref)
				continue;
			if (d->is_input) /* its initial contents are on the device */
				d->refdev = d->pristine;
			else if (ops->alloc(m->dev, d->bytes ? d->bytes : 1, &d->refdev) < 0 ||
			    (d->bytes && ops->upload(m->dev, d->refdev, d->ref, d->bytes) < 0))
				rc = -1, snprintf(err, errlen, "cannot keep the reference of %s: %s",
						  sp->buffers[i].name, ops->errmsg(m->dev));
			free(d->ref);
			d->ref = NULL;
			d->has_ref = 1;
		}
	} else {
		for (size_t i = 0; i < sp->nbuffers; i++)
			if (m->bufs[i].ref) {
				m->bufs[i].has_ref = 1;
				m->bufs[i].host = gs_xmalloc(m->bufs[i].bytes ? m->bufs[i].bytes : 1);
			}
	}
	return rc;
}

struct gs_measure *gs_measure_setup(const struct gs_space *sp, const struct gs_dev_ops *ops,
				    int ordinal, struct gs_nvrtc **nvrtc,
				    const struct gs_value *ref_env, const struct gs_measure_opts *o,
				    char *err, size_t errlen)
{
	struct gs_measure *m = gs_xcalloc(1, sizeof(*m));
	m->sp = sp;
	m->ops = ops;
	m->o = *o;
	m->profile = getenv("GSEARCH_PROFILE") != NULL;
	/* for benchmarks of the gate itself (docs/benchmarks.md) */
	m->no_gate = getenv("GSEARCH_NO_GATE") != NULL;
	err[0] = 0;
	gs_vm_init(&m->vm);
	m->bufs = gs_xcalloc(sp->nbuffers + 1, sizeof(*m->bufs));
	/* what must be compiled: nothing when an earlier worker left it all */
	struct refprep prep;
	memset(&prep, 0, sizeof prep);
	prep.m = m;
	prep.nvrtc = nvrtc;
	prep.ref_env = ref_env;
	prep.types = gs_cmp_types(sp);
	void *cmp = NULL;
	size_t cmp_len = 0;
	if (sp->nrefs && !ops->modeled && o->cache_dir)
		cmp = cache_get(m, "compare", 0, 0, &cmp_len);
	if (sp->nrefs) {
		for (size_t i = 0; i < sp->nbuffers; i++)
			m->bufs[i].bytes = (size_t)sp->buffers[i].n * gs_btype_size(sp->buffers[i].type);
		m->have_ref = refs_from_cache(m);
		m->ref_cached = m->have_ref;
		prep.want_ref = !m->have_ref;
		prep.want_cmp = !ops->modeled && !cmp;
	}
	pthread_t th;
	int threaded = 0;
	if (prep.want_ref || prep.want_cmp)
		threaded = pthread_create(&th, NULL, ref_compile, &prep) == 0;
	if (!threaded && (prep.want_ref || prep.want_cmp))
		ref_compile(&prep);
	if (o->before_open)
		o->before_open(o->before_open_arg);
	int rc = ops->open(ordinal, &m->dev, &m->info, err, errlen);
	gs_trace("worker: device open");
	if (rc == 0)
		rc = upload_buffers(m, err, errlen);
	gs_trace("worker: inputs uploaded");
	if (threaded)
		pthread_join(th, NULL);
	gs_trace("worker: compiles joined");
	if (rc == 0 && prep.rc < 0) {
		snprintf(err, errlen, "%s", prep.err);
		rc = -1;
	}
	if (rc == 0)
		rc = alloc_extra(m, err, errlen);
	if (rc == 0 && prep.want_ref)
		rc = reference(m, &prep, err, errlen);
	if (prep.compiled)
		gs_compile_out_release(&prep.out, prep.nn);
	if (prep.cmp) {
		cmp = prep.cmp;
		cmp_len = prep.cmp_len;
		if (o->cache_dir)
			cache_put(m, "compare", 0, cmp, cmp_len);
	}
	rc = place_refs(m, cmp, cmp_len, prep.types, rc, err, errlen);
	free(cmp);
	if (rc == 0 && (rc = reset_buffers(m)) < 0)
		snprintf(err, errlen, "cannot reset the outputs: %s", ops->errmsg(m->dev));
	if (rc < 0) {
		if (!err[0])
			snprintf(err, errlen, "setup failed");
		gs_measure_release(m);
		return NULL;
	}
	return m;
}

int gs_measure_ref_cached(const struct gs_measure *m)
{
	return m->ref_cached;
}

const struct gs_devinfo *gs_measure_devinfo(const struct gs_measure *m)
{
	return &m->info;
}

void gs_measure_release(struct gs_measure *m)
{
	if (!m)
		return;
	for (size_t i = 0; m->bufs && i < m->sp->nbuffers; i++) {
		free(m->bufs[i].ref);
		free(m->bufs[i].host);
	}
	if (m->cmp)
		gs_cmpdev_close(m->cmp);
	if (m->profile && m->nprof) {
		fprintf(stderr, "gsearch: worker profile, %lu configurations, ms each:", m->nprof);
		for (int i = 0; i < P_COUNT; i++)
			fprintf(stderr, " %s %.3f", prof_names[i], 1e3 * m->prof[i] / m->nprof);
		fprintf(stderr, "\n");
	}
	free(m->bufs);
	free(m->real_ptr);
	if (m->dev)
		m->ops->close(m->dev);
	gs_vm_release(&m->vm);
	free(m);
}

void gs_result_release(struct gs_result *r)
{
	free(r->metrics_json);
	r->metrics_json = NULL;
	free(r->counters_json);
	r->counters_json = NULL;
}

static void outcome(struct gs_result *r, const char *status, int rc, const char *fmt, ...)
	GS_PRINTF(4, 5);
static void outcome(struct gs_result *r, const char *status, int rc, const char *fmt, ...)
{
	if (rc == GS_DEV_STICKY) {
		status = "crash";
		r->sticky = 1;
	} else if (rc == GS_DEV_INVALID) {
		status = "invalid";
	} else if (rc == GS_DEV_LAUNCH) {
		status = "launch_error";
	} else if (rc == GS_DEV_HOSTLIMIT) {
		status = "emu_limit";
	} else if (rc == GS_DEV_HANG) {
		status = "timeout";
	}
	snprintf(r->status, sizeof r->status, "%s", status);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->error, sizeof r->error, fmt, ap);
	va_end(ap);
}

/* The resource that bounds blocks per SM, by the device's allocation rules
 * in their simple form: warps, blocks, registers (256 per warp granule) and
 * shared memory (1 KB reserved per block on sm_80 and later).  When several
 * bind, the first of threads, blocks, registers, smem is named, as the
 * emulated device's calculator does: at full occupancy fewer registers
 * would not help, so "registers" would mislead. */
static void limiter(const struct gs_devinfo *di, const struct gs_funcattr *a, int threads,
		    size_t dyn, char out[16])
{
	int warps = (threads + di->warp_size - 1) / di->warp_size;
	long by_threads = di->max_threads_sm / (warps * di->warp_size);
	long by_blocks = di->max_blocks_sm;
	long regs_warp = ((long)a->registers * di->warp_size + 255) / 256 * 256;
	long by_regs = regs_warp ? di->regs_sm / (regs_warp * warps) : by_blocks;
	long smem = (long)a->static_smem + (long)dyn + (di->cc_major >= 8 ? 1024 : 0);
	long by_smem = smem ? di->smem_sm / smem : by_blocks;
	long best = by_threads;
	const char *name = "threads";
	if (by_blocks < best) {
		best = by_blocks;
		name = "blocks";
	}
	if (by_regs < best) {
		best = by_regs;
		name = "registers";
	}
	if (by_smem < best)
		name = "smem";
	snprintf(out, 16, "%s", name);
}

/* Compare every output with the reference, and every checked input with
 * its initial contents: 0 when all pass, 1 when one does not (the outcome
 * is set), or a GS_DEV_* code. */
static int validate(struct gs_measure *m, struct gs_result *r)
{
	const struct gs_space *sp = m->sp;
	struct gs_buf why = GS_BUF_INIT, scribbled = GS_BUF_INIT;
	int rc = 0;
	r->max_abs_err = r->max_rel_err = 0;
	if (m->cmp) {
		rc = gs_cmpdev_reset(m->cmp);
		for (size_t i = 0; rc == 0 && i < sp->nbuffers; i++)
			if (m->bufs[i].has_ref)
				rc = gs_cmpdev_launch(m->cmp, i, sp->buffers[i].type, m->bufs[i].ptr,
						      m->bufs[i].refdev, (uint64_t)sp->buffers[i].n,
						      m->bufs[i].is_input ? 0 : sp->buffers[i].tolerance);
	}
	for (size_t i = 0; rc == 0 && i < sp->nbuffers; i++) {
		const struct gs_buffer *b = &sp->buffers[i];
		struct devbuf *db = &m->bufs[i];
		double tol = db->is_input ? 0 : b->tolerance;
		struct gs_cmp c;
		if (!db->has_ref)
			continue;
		if (m->cmp) {
			rc = gs_cmpdev_read(m->cmp, i, b->type, db->ptr, db->refdev, &c);
		} else if ((rc = m->ops->download(m->dev, db->host, db->ptr, db->bytes)) == 0) {
			gs_compare(b->type, db->host, db->ref, (uint64_t)b->n, tol, &c);
		}
		if (rc < 0)
			break;
		if (db->is_input) {
			if (c.bad && !scribbled.len) {
				gs_buf_printf(&scribbled, "the kernel wrote its input %s (declare it "
					      "inout if it may): ", b->name);
				gs_cmp_message(&scribbled, b->name, &c, tol, b->n);
			}
			continue;
		}
		if (c.max_abs > r->max_abs_err)
			r->max_abs_err = c.max_abs;
		if (c.max_rel > r->max_rel_err)
			r->max_rel_err = c.max_rel;
		if (c.bad && !why.len)
			gs_cmp_message(&why, b->name, &c, b->tolerance, b->n);
	}
	/* a scribbled input comes first: it may explain the wrong outputs */
	if (rc == 0 && (scribbled.len || why.len)) {
		outcome(r, "wrong", 0, "%s", gs_buf_str(scribbled.len ? &scribbled : &why));
		rc = 1;
	}
	gs_buf_release(&scribbled);
	gs_buf_release(&why);
	return rc;
}

/* Launches queued behind the gate before it opens: enough for the device to
 * run on while the host queues the rest.  A sample of more than
 * GATE_MAX_LAUNCHES is not gated: the driver's queue might fill before the
 * gate opened, and so long a sample barely feels the first launch's delay. */
#define GATE_LAUNCHES 16
#define GATE_MAX_LAUNCHES 256

static int gate(struct gs_measure *m, int hold)
{
	return m->ops->gate && !m->no_gate ? m->ops->gate(m->dev, hold) : 0;
}

/* One round of `n` timed samples of `batch` runs each, back to back: the
 * device is never left waiting for the host between samples, nor before
 * the first (the gate).  With flush (--flush-l2, not for the validation
 * run) a flush precedes each sample, outside its marks. */
static int sample_round(struct gs_measure *m, struct gs_module *mod, const struct plan *p,
			size_t n, unsigned batch, int flush, double *ms)
{
	const struct gs_dev_ops *ops = m->ops;
	size_t queued = 0, per_sample = (size_t)batch * p->n;
	double *all = flush ? gs_xmalloc(2 * n * sizeof *all) : ms;
	int rc = per_sample <= GATE_MAX_LAUNCHES ? gate(m, 1) : 0;
	if (rc == 0 && !flush)
		rc = ops->mark(m->dev, 0);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (flush && ((rc = ops->copy(m->dev, m->flush[1], m->flush[0], m->flush_bytes)) < 0 ||
			      (rc = ops->mark(m->dev, 2 * (unsigned)i)) < 0))
			break;
		for (unsigned b = 0; b < batch && rc == 0; b++)
			rc = replay(m, mod, p);
		if (rc == 0)
			rc = ops->mark(m->dev, flush ? 2 * (unsigned)i + 1 : (unsigned)i + 1);
		queued += per_sample;
		if (queued >= GATE_LAUNCHES)
			gate(m, 0);
	}
	gate(m, 0); /* before any wait, and on every failure */
	if (rc == 0)
		rc = ops->marks_read(m->dev, flush ? 2 * (unsigned)n : (unsigned)n + 1, all);
	if (flush) {
		for (size_t i = 0; rc == 0 && i < n; i++)
			ms[i] = all[2 * i];
		free(all);
	}
	return rc;
}

/* Time a validated configuration under the stopping rule: 0, or a
 * GS_DEV_* code. */
static int time_config(struct gs_measure *m, struct gs_module *mod, const struct plan *p,
		       double first_ms, double best_ms, struct gs_result *r)
{
	const struct gs_stop_policy *pol = &m->o.stop;
	unsigned batch = gs_timing_batch(first_ms, pol->precision, GS_DEV_TICK_MS);
	size_t round_max = m->flush_bytes ? (GS_DEV_MARKS - 1) / 2 : GS_DEV_MARKS - 1;
	double ms[GS_DEV_MARKS];
	struct gs_timing t;
	int rc = 0;
	size_t more;
	gs_timing_init(&t, batch);
	gs_timing_first(&t, first_ms);
	double tp = gs_now();
	/* NVML's energy counter moves every few tens of milliseconds and its
	 * reads cost milliseconds: around less work than that, they would
	 * cost more than the kernel and measure nothing */
	int sample = m->ops->sample_begin && m->ops->sample_end &&
		     first_ms * batch * pol->min_samples >= GS_SAMPLE_MIN_MS;
	if (sample)
		m->ops->sample_begin(m->dev);
	prof(m, P_SAMPLE, &tp);
	while ((more = gs_timing_next(&t, pol, best_ms)) > 0) {
		if (more > round_max)
			more = round_max;
		if ((rc = sample_round(m, mod, p, more, batch, m->flush_bytes > 0, ms)) < 0)
			break;
		for (size_t i = 0; i < more; i++)
			gs_timing_add(&t, ms[i] / batch);
	}
	prof(m, P_TIME, &tp);
	struct gs_devsample ds = { -1, -1, -1, -1 };
	int sampled = sample && m->ops->sample_end(m->dev, &ds) == 0;
	prof(m, P_SAMPLE, &tp);
	if (sampled && rc == 0) {
		size_t all = t.n > 1 ? (t.n - 1) * batch : 1;
		if (ds.energy_j >= 0)
			r->energy_j = ds.energy_j / (double)all; /* per run */
		r->power_w = ds.power_w;
		r->sm_clock_mhz = ds.sm_clock_mhz;
		r->temp_c = ds.temp_c;
	}
	if (rc == 0) {
		size_t ns;
		const double *smp = gs_timing_samples(&t, &ns);
		struct gs_median_ci ci;
		struct gs_stats st;
		double *tmp = gs_xmalloc((ns ? ns : 1) * sizeof *tmp);
		memcpy(tmp, smp, ns * sizeof *tmp);
		gs_stats(tmp, ns, &st);
		free(tmp);
		gs_median_ci(smp, ns, 0.95, &ci);
		r->time_ms = st.median;
		r->min_ms = st.min;
		r->iqr_ms = st.iqr;
		r->reps = (unsigned)ns;
		r->runs = (unsigned)(ns * batch);
		r->warmups = (unsigned)t.warm;
		r->ci_lo_ms = ci.lo;
		r->ci_hi_ms = ci.hi;
		/* the width follows from ci_lo_ms and ci_hi_ms; the coverage does
		 * not (below 6 samples it is under 95%) */
		r->ci_pct = 100 * ci.coverage;
		r->timed_ms = t.work_ms;
		if (t.reason == GS_STOP_CAP && !(ci.coverage >= 0.95 && ci.half_pct <= pol->precision * 100))
			snprintf(r->error, sizeof r->error,
				 "the median's interval is ±%.2g%% after %zu samples: the cap (%g s of timed "
				 "work, %u samples) came before the precision asked (±%g%%)",
				 ci.half_pct, ns, pol->max_time_s, pol->max_samples, pol->precision * 100);
	}
	gs_timing_release(&t);
	return rc;
}

/* Whether the variant compiled at the emulator sizes (env) is the one the
 * real size (renv) would compile: a define or option computed from a
 * problem with an `emu` size differs, and the emulator would time other
 * code than the real kernel's.  0 the same (or not known); 1 with why in
 * err. */
static int real_defines_differ(const struct gs_measure *m, const struct gs_value *env,
			       const struct gs_value *renv, char *err, size_t errlen)
{
	struct gs_vm vm;
	char **a, **b, e[256];
	size_t na, nb;
	int differ = 0;
	gs_vm_init(&vm);
	/* the architecture is the same on both sides: any will do */
	int ra = gs_variant_key_options(m->sp, env, "", &vm, &a, &na, e, sizeof e);
	int rb = gs_variant_key_options(m->o.real, renv, "", &vm, &b, &nb, e, sizeof e);
	for (size_t i = 0; ra == 0 && rb == 0 && !differ && (i < na || i < nb); i++)
		if (i >= na || i >= nb || strcmp(a[i], b[i])) {
			differ = 1;
			snprintf(err, errlen, "compiled with %s from the emulator sizes, where the real "
				 "size gives %s: a real-size time would be another kernel's; give the "
				 "problems it depends on no `emu` size, or time at the emulator size "
				 "(--emu)", i < na ? a[i] : "nothing", i < nb ? b[i] : "nothing");
		}
	gs_variant_key_options_free(b, nb);
	gs_variant_key_options_free(a, na);
	gs_vm_release(&vm);
	return differ;
}

/* The configuration's modeled time at the real size: its launches with the
 * real problem's geometry, arguments and buffers, each executing a sample
 * of its blocks.  0; 1 with a message in err (the configuration has no
 * real-size form); or a GS_DEV_* code. */
static int real_time(struct gs_measure *m, struct gs_module *mod, const struct gs_value *env,
		     struct gs_func **funcs,
		     const char *const *kernels, size_t nk, double *ms, char **metrics,
		     char **counters_out, struct gs_value **renv_out, char *err, size_t errlen)
{
	const struct gs_space *rs = m->o.real;
	struct gs_value *renv = gs_xmalloc(rs->nslots * sizeof(*renv));
	struct gs_diag d = GS_DIAG_INIT;
	struct plan p = { 0 };
	char *counters = NULL;
	int failed, rc;
	memcpy(renv, rs->env0, rs->nslots * sizeof(*renv));
	for (size_t k = 0; k < rs->nparams && k < m->sp->nparams; k++)
		renv[rs->params[k].slot] = env[m->sp->params[k].slot];
	if (gs_config_check(rs, renv, &m->vm, &failed, &d) != 1) {
		snprintf(err, errlen, "the configuration does not pass its constraints at the real size");
		rc = 1;
		goto out;
	}
	if (real_defines_differ(m, env, renv, err, errlen)) {
		rc = 1;
		goto out;
	}
	if (build_plan_in(m, rs, m->real_ptr, rs->launches, rs->nlaunches, funcs, kernels, nk, renv,
			  &p, err, errlen) < 0) {
		rc = 1;
		goto out;
	}
	if ((rc = m->ops->sample(m->dev, m->o.sample)) < 0 || (rc = m->ops->timer_start(m->dev)) < 0 ||
	    (rc = replay(m, mod, &p)) < 0 || (rc = m->ops->sync(m->dev)) < 0 ||
	    (rc = m->ops->timer_stop(m->dev, ms)) < 0)
		goto out;
	if (m->ops->report && m->ops->report(m->dev, &counters, metrics) < 0)
		*metrics = NULL;
	if (counters_out) {
		*counters_out = counters;
		counters = NULL;
	}
out:
	m->ops->sample(m->dev, 0);
	free(counters);
	plan_free(&p);
	gs_diag_release(&d);
	if (rc == 0)
		*renv_out = renv;
	else
		free(renv);
	return rc;
}

/* Refuses, before launching, what the device cannot run: it would refuse
 * too, with less to say.  -1 with the outcome in r. */
static int check_limits(const struct gs_measure *m, const struct plan *p,
			struct gs_func *const *funcs, const struct gs_funcattr *attrs, size_t nk,
			const char *const *entries, struct gs_result *r)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct step *s = &p->steps[i];
		if (s->is_copy)
			continue;
		size_t k = 0;
		while (k + 1 < nk && funcs[k] != s->f)
			k++;
		const struct gs_funcattr *a = &attrs[k];
		unsigned long threads = (unsigned long)s->block[0] * s->block[1] * s->block[2];
		if (threads > (unsigned long)a->max_threads) {
			outcome(r, "invalid", 0, "a block of %lu threads; %s can take at most %d "
				"(%d registers per thread)", threads, entries[k], a->max_threads,
				a->registers);
			return -1;
		}
		size_t smem = (size_t)a->static_smem + s->smem;
		if (m->info.smem_block_optin > 0 && smem > (size_t)m->info.smem_block_optin) {
			outcome(r, "invalid", 0, "%zu bytes of shared memory per block; the device allows %d",
				smem, m->info.smem_block_optin);
			return -1;
		}
	}
	return 0;
}

/* r's occupancy and limiter: the first kernel launch's */
static void first_occupancy(struct gs_measure *m, const struct plan *p, struct gs_result *r)
{
	for (size_t i = 0; i < p->n; i++)
		if (!p->steps[i].is_copy) {
			const struct step *s = &p->steps[i];
			int threads = (int)(s->block[0] * s->block[1] * s->block[2]);
			if (m->ops->occupancy(m->dev, s->f, threads, s->smem, &r->blocks_per_sm,
					      r->limiter) == 0) {
				int warps = (threads + m->info.warp_size - 1) / m->info.warp_size;
				r->occupancy = (double)(r->blocks_per_sm * warps * m->info.warp_size) /
					       m->info.max_threads_sm;
				if (!r->limiter[0])
					limiter(&m->info, &r->attr, threads, s->smem, r->limiter);
			}
			break;
		}
}

/* The model's breakdown goes with the counters: figures of the device, not
 * of the kernel, that `show` lists and the tables leave out; the metrics
 * stay the validation run's.  Frees real_metrics. */
static void add_model(struct gs_result *r, char *real_metrics)
{
	const char *c = r->counters_json;
	size_t n = c ? strlen(c) : 0;
	char *both = n > 2 ? gs_xasprintf("%.*s,\"model\":{%s}}", (int)(n - 1), c, real_metrics)
			   : gs_xasprintf("{\"model\":{%s}}", real_metrics);
	free(r->counters_json);
	r->counters_json = both;
	free(real_metrics);
}

/* r->metrics_json: user metrics, with the figures bound, then the device's
 * own; a time at the real size (renv) goes with the real problem's
 * constants */
static void user_metrics(struct gs_measure *m, struct gs_value *env, struct gs_value *renv,
			 const char *dev_metrics, struct gs_result *r)
{
	const struct gs_space *sp = m->sp;
	if (!sp->nmetrics && !dev_metrics)
		return;
	struct gs_buf mj = GS_BUF_INIT;
	const struct gs_space *msp = renv ? m->o.real : sp;
	struct gs_value *menv = renv ? renv : env;
	menv[msp->figure_slot + GS_FIG_TIME_MS] = gs_float(r->time_ms);
	menv[msp->figure_slot + GS_FIG_MIN_MS] = gs_float(r->min_ms);
	menv[msp->figure_slot + GS_FIG_ENERGY_J] = r->energy_j >= 0 ? gs_float(r->energy_j) : gs_none();
	menv[msp->figure_slot + GS_FIG_POWER_W] = r->power_w >= 0 ? gs_float(r->power_w) : gs_none();
	gs_buf_putc(&mj, '{');
	for (size_t i = 0; i < msp->nmetrics; i++) {
		struct gs_value v;
		if (i)
			gs_buf_putc(&mj, ',');
		gs_buf_put_json_str(&mj, msp->metrics[i].name);
		gs_buf_putc(&mj, ':');
		if (gs_vm_eval(&m->vm, msp->metrics[i].code, menv, &v) == 0)
			gs_value_json(&mj, v);
		else
			gs_buf_puts(&mj, "null");
	}
	if (dev_metrics && dev_metrics[0]) {
		if (msp->nmetrics)
			gs_buf_putc(&mj, ',');
		gs_buf_puts(&mj, dev_metrics);
	}
	gs_buf_putc(&mj, '}');
	r->metrics_json = gs_buf_detach(&mj);
}

void gs_measure_config(struct gs_measure *m, struct gs_value *env, const void *cubin,
		       size_t cubin_len, const char *const *entries, size_t nentries,
		       double best_ms, struct gs_result *r)
{
	const struct gs_space *sp = m->sp;
	memset(r, 0, sizeof(*r));
	r->energy_j = r->power_w = r->sm_clock_mhz = r->temp_c = -1;
	r->ci_lo_ms = r->ci_hi_ms = r->ci_pct = r->timed_ms = -1;
	r->max_abs_err = r->max_rel_err = -1;
	char err[512] = "";
	struct gs_diag d = GS_DIAG_INIT;
	int failed;
	gs_vm_reset(&m->vm);
	m->vm.base = gs_arena_mark(&m->vm.scratch);
	if (gs_config_check(sp, env, &m->vm, &failed, &d) != 1) {
		outcome(r, "skipped", 0, "the configuration does not pass its constraints here");
		gs_diag_release(&d);
		return;
	}
	gs_diag_release(&d);
	const char *kernels[64];
	size_t nk = distinct_kernels(sp->launches, sp->nlaunches < 64 ? sp->nlaunches : 64, kernels);
	if (nk != nentries) {
		outcome(r, "launch_error", 0, "%zu entries for %zu kernels", nentries, nk);
		return;
	}
	struct gs_module *mod = NULL;
	char *dev_metrics = NULL;
	struct gs_value *renv = NULL; /* the real size's environment, when timed there */
	struct gs_func *funcs[64];
	struct gs_funcattr attrs[64];
	struct plan p = { 0 };
	double tp = gs_now();
	m->nprof++;
	if (m->ops->host_limit)
		m->ops->host_limit(m->dev, m->o.host_limit_s);
	int rc = m->ops->module_load(m->dev, cubin, cubin_len, &mod);
	prof(m, P_LOAD, &tp);
	if (rc < 0) {
		outcome(r, "launch_error", rc, "cannot load the module: %s", m->ops->errmsg(m->dev));
		return;
	}
	for (size_t i = 0; i < nk; i++) {
		if ((rc = m->ops->function(m->dev, mod, entries[i], &funcs[i], &attrs[i])) < 0) {
			outcome(r, "launch_error", rc, "no function '%s': %s", entries[i],
				m->ops->errmsg(m->dev));
			goto out;
		}
	}
	r->attr = attrs[0];
	if (build_plan(m, sp->launches, sp->nlaunches, funcs, kernels, nk, env, &p, err,
		       sizeof err) < 0) {
		outcome(r, "launch_error", 0, "%s", err);
		goto out;
	}
	if (check_limits(m, &p, funcs, attrs, nk, entries, r) < 0)
		goto out;
	first_occupancy(m, &p, r);
	prof(m, P_PREP, &tp);
	/* the validation run, also the first warm-up run; a modeled device
	 * times it, and that is all it needs.  Where the sampled real-size
	 * launch is the only run (real_only), it stands for it: its blocks'
	 * faults are the configuration's, and the inputs are checked after it */
	double first_ms = 0;
	int marks = m->ops->mark && m->ops->marks_read && !m->ops->modeled;
	int real_only = m->ops->modeled && m->real_only;
	if ((rc = reset_buffers(m)) < 0)
		goto launch_fail;
	if (!real_only) {
		if (marks) {
			if ((rc = sample_round(m, mod, &p, 1, 1, 0, &first_ms)) < 0)
				goto launch_fail;
		} else if ((rc = m->ops->timer_start(m->dev)) < 0 || (rc = replay(m, mod, &p)) < 0 ||
			   (rc = m->ops->sync(m->dev)) < 0 ||
			   (rc = m->ops->timer_stop(m->dev, &first_ms)) < 0) {
			goto launch_fail;
		}
		if (m->ops->modeled && m->ops->report &&
		    m->ops->report(m->dev, &r->counters_json, &dev_metrics) < 0)
			dev_metrics = NULL;
		if ((m->have_ref || m->check_inputs) && (rc = validate(m, r)) != 0) {
			if (rc < 0)
				goto launch_fail;
			goto out;
		}
	}
	if (m->ops->modeled && m->real_ptr) {
		/* validated at the emulator size (or not at all); timed at the real one */
		char *real_metrics = NULL;
		if ((rc = real_time(m, mod, env, funcs, kernels, nk, &first_ms, &real_metrics,
				    real_only ? &r->counters_json : NULL, &renv, err, sizeof err)) != 0) {
			if (rc > 0)
				outcome(r, "launch_error", 0, "%s", err);
			else if (real_only) /* the configuration's own run failed */
				goto launch_fail;
			else
				outcome(r, "launch_error", rc, "at the real size: %s",
					m->ops->errmsg(m->dev));
			goto out;
		}
		if (real_metrics)
			add_model(r, real_metrics);
	}
	if (real_only && m->check_inputs && (rc = validate(m, r)) != 0) {
		if (rc < 0)
			goto launch_fail;
		goto out;
	}
	if (m->ops->modeled) {
		/* deterministic: the one run is the time */
		r->time_ms = r->min_ms = first_ms;
		r->iqr_ms = 0;
		r->reps = r->runs = 1;
		r->modeled = 1;
		snprintf(r->status, sizeof r->status, "ok");
		goto metrics;
	}
	prof(m, P_VALIDATE, &tp);
	if ((rc = time_config(m, mod, &p, first_ms, best_ms, r)) < 0)
		goto launch_fail;
	snprintf(r->status, sizeof r->status, "ok");
metrics:
	user_metrics(m, env, renv, dev_metrics, r);
	goto out;
launch_fail:
	outcome(r, "launch_error", rc, "%s", m->ops->errmsg(m->dev));
	/* a failed launch leaves its error pending in the device's queue, where
	 * the next configuration's first call would meet it and be blamed for
	 * it, with no message of its own: collect it here, where it belongs */
	if (rc != GS_DEV_STICKY)
		m->ops->sync(m->dev);
out:
	if (m->ops->host_limit) /* what runs between configurations has none */
		m->ops->host_limit(m->dev, 0);
	free(renv);
	free(dev_metrics);
	plan_free(&p);
	tp = gs_now();
	if (mod && !r->sticky)
		m->ops->module_unload(m->dev, mod);
	prof(m, P_UNLOAD, &tp);
}
