/* validate.c — the comparison kernels and their host side (validate.h). */
#include "dev/validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space/space.h"

/* Each thread folds a grid-stride slice; warps reduce with shuffles and
 * one lane per warp folds into the slot with 64-bit atomics.  Errors are
 * never negative or NaN (a NaN or inf mismatch counts as infinite), so
 * their bit patterns order as the numbers do and atomicMax on them is a
 * max of doubles.  The first bad index is kept as its complement, so that
 * a slot of zeros means "none" and atomicMax finds the smallest. */
static const char cmp_source[] =
	"typedef unsigned long long u64;\n"
	"struct gs_slot { u64 bad, first_not, max_abs, max_rel; };\n"
	"__device__ __forceinline__ double gs_inf() { return __longlong_as_double(0x7ff0000000000000LL); }\n"
	"__device__ __forceinline__ void gs_fold(gs_slot *s, u64 bad, u64 fnot, double ae, double re)\n"
	"{\n"
	"  for (int o = 16; o; o >>= 1) {\n"
	"    bad += __shfl_down_sync(0xffffffffu, bad, o);\n"
	"    u64 f = __shfl_down_sync(0xffffffffu, fnot, o); fnot = f > fnot ? f : fnot;\n"
	"    double a = __shfl_down_sync(0xffffffffu, ae, o); ae = a > ae ? a : ae;\n"
	"    double r = __shfl_down_sync(0xffffffffu, re, o); re = r > re ? r : re;\n"
	"  }\n"
	"  if ((threadIdx.x & 31) == 0) {\n"
	"    if (bad) { atomicAdd(&s->bad, bad); atomicMax(&s->first_not, fnot); }\n"
	"    if (ae > 0) atomicMax(&s->max_abs, (u64)__double_as_longlong(ae));\n"
	"    if (re > 0) atomicMax(&s->max_rel, (u64)__double_as_longlong(re));\n"
	"  }\n"
	"}\n"
	"template <typename T> __device__ void gs_cmp_f(const T *out, const T *ref, u64 n, double tol,\n"
	"                                            double tiny, gs_slot *s)\n"
	"{\n"
	"  u64 bad = 0, fnot = 0; double mae = 0, mre = 0;\n"
	"  if (!(tol > 0)) tol = 0;\n"
	"  for (u64 k = blockIdx.x * (u64)blockDim.x + threadIdx.x; k < n; k += (u64)gridDim.x * blockDim.x) {\n"
	"    double o = out[k], r = ref[k], ae, re; bool ok;\n"
	"    if (isnan(r) || isnan(o) || isinf(r) || isinf(o)) {\n"
	"      ok = (isnan(r) && isnan(o)) || (!isnan(r) && !isnan(o) && o == r);\n"
	"      ae = re = ok ? 0 : gs_inf();\n"
	"    } else {\n"
	"      double ar = fabs(r);\n"
	"      ae = fabs(o - r); re = ae / (ar > tiny ? ar : tiny); ok = ae <= tol * (ar > 1 ? ar : 1);\n"
	"    }\n"
	"    mae = ae > mae ? ae : mae; mre = re > mre ? re : mre;\n"
	"    if (!ok) { if (!bad) fnot = ~k; bad++; }\n"
	"  }\n"
	"  gs_fold(s, bad, fnot, mae, mre);\n"
	"}\n"
	"template <typename T, typename W> __device__ void gs_cmp_i(const T *out, const T *ref, u64 n,\n"
	"                                                         gs_slot *s)\n"
	"{\n"
	"  u64 bad = 0, fnot = 0; double mae = 0, mre = 0;\n"
	"  for (u64 k = blockIdx.x * (u64)blockDim.x + threadIdx.x; k < n; k += (u64)gridDim.x * blockDim.x) {\n"
	"    W o = out[k], r = ref[k];\n"
	"    if (o == r) continue;\n"
	"    u64 diff = o > r ? (u64)o - (u64)r : (u64)r - (u64)o;\n"
	"    u64 mag = r < 0 ? (u64)0 - (u64)r : (u64)r;\n"
	"    double ae = (double)diff, re = ae / (mag > 1 ? (double)mag : 1.0);\n"
	"    mae = ae > mae ? ae : mae; mre = re > mre ? re : mre;\n"
	"    if (!bad) fnot = ~k; bad++;\n"
	"  }\n"
	"  gs_fold(s, bad, fnot, mae, mre);\n"
	"}\n"
	"#define GS_F(name, T, tiny) extern \"C\" __global__ void name(const T *o, const T *r, u64 n, \\\n"
	"  double tol, gs_slot *s) { gs_cmp_f<T>(o, r, n, tol, tiny, s); }\n"
	"#define GS_I(name, T, W) extern \"C\" __global__ void name(const T *o, const T *r, u64 n, \\\n"
	"  double tol, gs_slot *s) { gs_cmp_i<T, W>(o, r, n, s); }\n";

/* One kernel per element type, in GS_BTYPES order: only the types of the
 * space's buffers are compiled, since all ten take NVRTC four times as long
 * as one, and the worker waits for them before its first configuration.
 * Each is cmp_source's GS_F (arg: the type's smallest normal) or GS_I (arg:
 * the wider type its differences are taken in). */
static const struct cmp_kernel {
	char kind;
	const char *entry, *type, *arg;
} cmp_kernels[GS_BT_COUNT] = {
	{ 'F', "gs_cmp_float", "float", "1.17549435082228750797e-38" },
	{ 'F', "gs_cmp_double", "double", "2.22507385850720138309e-308" },
	{ 'I', "gs_cmp_int8", "signed char", "long long" },
	{ 'I', "gs_cmp_uint8", "unsigned char", "unsigned long long" },
	{ 'I', "gs_cmp_int16", "short", "long long" },
	{ 'I', "gs_cmp_uint16", "unsigned short", "unsigned long long" },
	{ 'I', "gs_cmp_int32", "int", "long long" },
	{ 'I', "gs_cmp_uint32", "unsigned int", "unsigned long long" },
	{ 'I', "gs_cmp_int64", "long long", "long long" },
	{ 'I', "gs_cmp_uint64", "unsigned long long", "unsigned long long" },
};

struct slot {
	uint64_t bad, first_not, max_abs, max_rel;
};

unsigned gs_cmp_types(const struct gs_space *sp)
{
	unsigned types = 0;
	for (size_t i = 0; i < sp->nbuffers; i++)
		if (sp->buffers[i].type >= 0 && sp->buffers[i].type < GS_BT_COUNT)
			types |= 1u << sp->buffers[i].type;
	return types;
}

int gs_cmp_compile(struct gs_nvrtc *n, const char *arch, unsigned types, void **cubin,
		   size_t *len, char *err, size_t errlen)
{
	char archopt[32];
	snprintf(archopt, sizeof archopt, "-arch=%s", arch);
	/* no contraction: the same arithmetic as gs_compare on the host */
	const char *opts[] = { archopt, "-fmad=false" };
	const char *names[GS_BT_COUNT];
	size_t nn = 0;
	struct gs_buf src = GS_BUF_INIT;
	gs_buf_puts(&src, cmp_source);
	for (int t = 0; t < GS_BT_COUNT; t++)
		if (types & (1u << t)) {
			const struct cmp_kernel *k = &cmp_kernels[t];
			gs_buf_printf(&src, "GS_%c(%s, %s, %s)\n", k->kind, k->entry, k->type, k->arg);
			names[nn++] = k->entry;
		}
	struct gs_compile_in in = { "gsearch-compare.cu", gs_buf_str(&src), opts, 2, names,
				    nn, 0, 1 };
	struct gs_compile_out out;
	*cubin = NULL;
	*len = 0;
	int rc = gs_nvrtc_compile(n, &in, &out);
	gs_buf_release(&src);
	if (rc < 0 || !out.ok || !out.cubin) {
		snprintf(err, errlen, "the comparison kernels do not compile for %s: %s", arch,
			 out.log ? out.log : "");
		gs_compile_out_release(&out, nn);
		return -1;
	}
	*cubin = out.cubin;
	*len = out.cubin_len;
	out.cubin = NULL;
	gs_compile_out_release(&out, nn);
	return 0;
}

struct gs_cmpdev {
	const struct gs_dev_ops *ops;
	struct gs_dev *dev;
	struct gs_module *mod;
	struct gs_func *f[GS_BT_COUNT];
	uint64_t slots;
	size_t nslots;
	int sms;
};

struct gs_cmpdev *gs_cmpdev_open(const struct gs_dev_ops *ops, struct gs_dev *dev,
				 const void *cubin, size_t len, unsigned types, size_t nbufs,
				 char *err, size_t errlen)
{
	struct gs_cmpdev *c = gs_xcalloc(1, sizeof *c);
	c->ops = ops;
	c->dev = dev;
	c->nslots = nbufs ? nbufs : 1;
	int rc = ops->module_load(dev, cubin, len, &c->mod);
	for (int t = 0; rc == 0 && t < GS_BT_COUNT; t++)
		if (types & (1u << t))
			rc = ops->function(dev, c->mod, cmp_kernels[t].entry, &c->f[t], NULL);
	if (rc == 0)
		rc = ops->alloc(dev, c->nslots * sizeof(struct slot), &c->slots);
	if (rc < 0) {
		snprintf(err, errlen, "cannot load the comparison kernels: %s", ops->errmsg(dev));
		if (c->mod)
			ops->module_unload(dev, c->mod);
		free(c);
		return NULL;
	}
	return c;
}

void gs_cmpdev_close(struct gs_cmpdev *c)
{
	/* the device frees the module and the slots when it closes */
	free(c);
}

int gs_cmpdev_reset(struct gs_cmpdev *c)
{
	return c->ops->fill(c->dev, c->slots, 0, c->nslots * sizeof(struct slot));
}

int gs_cmpdev_launch(struct gs_cmpdev *c, size_t i, int btype, uint64_t out, uint64_t ref,
		     uint64_t n, double tol)
{
	if (btype < 0 || btype >= GS_BT_COUNT || i >= c->nslots || !c->f[btype])
		return GS_DEV_FAIL;
	uint64_t slot = c->slots + i * sizeof(struct slot);
	void *args[] = { &out, &ref, &n, &tol, &slot };
	/* a few blocks per SM keep HBM busy; the grid-stride loop does the rest */
	uint64_t blocks = (n + 255) / 256;
	if (blocks > 1056)
		blocks = 1056;
	unsigned grid[3] = { blocks ? (unsigned)blocks : 1, 1, 1 }, block[3] = { 256, 1, 1 };
	return c->ops->launch(c->dev, c->f[btype], grid, block, 0, args);
}

static double elem(int btype, const void *p)
{
	switch (btype) {
	case GS_BT_FLOAT: return *(const float *)p;
	case GS_BT_DOUBLE: return *(const double *)p;
	case GS_BT_INT8: return *(const int8_t *)p;
	case GS_BT_UINT8: return *(const uint8_t *)p;
	case GS_BT_INT16: return *(const int16_t *)p;
	case GS_BT_UINT16: return *(const uint16_t *)p;
	case GS_BT_INT32: return *(const int32_t *)p;
	case GS_BT_UINT32: return *(const uint32_t *)p;
	case GS_BT_INT64: return (double)*(const int64_t *)p;
	default: return (double)*(const uint64_t *)p;
	}
}

int gs_cmpdev_read(struct gs_cmpdev *c, size_t i, int btype, uint64_t out, uint64_t ref,
		   struct gs_cmp *r)
{
	struct slot s;
	memset(r, 0, sizeof *r);
	int rc = c->ops->download(c->dev, &s, c->slots + i * sizeof s, sizeof s);
	if (rc < 0)
		return rc;
	memcpy(&r->max_abs, &s.max_abs, sizeof r->max_abs);
	memcpy(&r->max_rel, &s.max_rel, sizeof r->max_rel);
	r->bad = s.bad;
	if (s.bad) {
		unsigned es = gs_btype_size(btype);
		uint64_t k = ~s.first_not;
		unsigned char got[8], want[8];
		r->first_bad = k;
		if ((rc = c->ops->download(c->dev, got, out + k * es, es)) < 0 ||
		    (rc = c->ops->download(c->dev, want, ref + k * es, es)) < 0)
			return rc;
		r->got = elem(btype, got);
		r->want = elem(btype, want);
	}
	return 0;
}

void gs_cmp_message(struct gs_buf *b, const char *name, const struct gs_cmp *c, double tol,
		    int64_t n)
{
	gs_buf_printf(b, "%s[%llu] = %g, expected %g (tolerance %g); %llu of %lld elements differ",
		      name, (unsigned long long)c->first_bad, c->got, c->want, tol,
		      (unsigned long long)c->bad, (long long)n);
}
