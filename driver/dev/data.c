/* data.c — deterministic input fills, output comparison and the statistics
 * that decide when a timing is done (see data.h).  Nothing here touches a
 * device: a worker fills host memory, uploads it, downloads outputs and hands
 * them back here.
 *
 * The generator behind random() — other tools reproduce inputs from this:
 *
 *   gs_random_u64(seed, k) is the k-th output (k = 0, 1, ...) of Vigna's
 *   SplitMix64 seeded with `seed`:
 *       z = seed + (k + 1) * 0x9e3779b97f4a7c15          (mod 2^64)
 *       z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
 *       z = (z ^ (z >> 27)) * 0x94d049bb133111eb
 *       return z ^ (z >> 31)
 *   A negative seed is taken modulo 2^64; no seed means seed 0.
 *   Element k of a buffer uses x = gs_random_u64(seed, k), one value per
 *   element whatever the type, so element k never depends on the others,
 *   on threads or on the platform.
 *
 *   float:   u = (x >> 40) * 2^-24,  double: u = (x >> 11) * 2^-53  (u in [0, 1));
 *            d = hi - lo;  t = d * u;  r = lo + t   (IEEE double, two roundings,
 *            no fused multiply-add), then rounded to the element type; a
 *            result that rounds up to hi becomes the largest value below hi.
 *   integer: span = hi - lo + 1 (mod 2^64; 0 stands for 2^64),
 *            value = lo + high 64 bits of the 128-bit product x * span
 *            (for span = 2^64: lo + x).  The bias is below span / 2^64.
 */
#include "dev/data.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t gs_random_u64(uint64_t seed, uint64_t k)
{
	uint64_t z = seed + (k + 1) * UINT64_C(0x9e3779b97f4a7c15);

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* --- element types ---------------------------------------------------------- */

static const struct {
	unsigned size;
	int isint, issigned;
} btypes[] = {
#define X(id, name, alias, size, isint, issigned) { size, isint, issigned },
	GS_BTYPES(X)
#undef X
};

/* The range of an integer type as the expression language can reach it
 * (int64 values): uint64's top half is out of reach. */
static void int_range(int t, int64_t *lo, int64_t *hi)
{
	unsigned bits = 8 * btypes[t].size;

	if (btypes[t].issigned) {
		*hi = (int64_t)((UINT64_C(1) << (bits - 1)) - 1);
		*lo = -*hi - 1;
	} else {
		*lo = 0;
		*hi = bits == 64 ? INT64_MAX : (int64_t)((UINT64_C(1) << bits) - 1);
	}
}

/* "[-128, 127]", the type's true range, for messages. */
static const char *range_text(int t, char *buf, size_t size)
{
	int64_t lo, hi;

	int_range(t, &lo, &hi);
	if (t == GS_BT_UINT64)
		snprintf(buf, size, "[0, %llu]", (unsigned long long)UINT64_MAX);
	else
		snprintf(buf, size, "[%lld, %lld]", (long long)lo, (long long)hi);
	return buf;
}

static void put_int(int t, void *host, uint64_t k, int64_t v)
{
	switch (t) {
	case GS_BT_INT8: ((int8_t *)host)[k] = (int8_t)v; break;
	case GS_BT_UINT8: ((uint8_t *)host)[k] = (uint8_t)v; break;
	case GS_BT_INT16: ((int16_t *)host)[k] = (int16_t)v; break;
	case GS_BT_UINT16: ((uint16_t *)host)[k] = (uint16_t)v; break;
	case GS_BT_INT32: ((int32_t *)host)[k] = (int32_t)v; break;
	case GS_BT_UINT32: ((uint32_t *)host)[k] = (uint32_t)v; break;
	case GS_BT_INT64: ((int64_t *)host)[k] = v; break;
	case GS_BT_UINT64: ((uint64_t *)host)[k] = (uint64_t)v; break;
	}
}

/* --- fills ------------------------------------------------------------------ */

/* What a fill reports errors against. */
struct fillctx {
	const struct gs_buffer *b;
	struct gs_vm *vm;
	char *err;
	size_t errlen;
};

static int fail(struct fillctx *fc, struct gs_loc loc, const char *fmt, ...) GS_PRINTF(3, 4);
static int fail(struct fillctx *fc, struct gs_loc loc, const char *fmt, ...)
{
	size_t off = 0;
	va_list ap;
	int n;

	if (!fc->errlen)
		return -1;
	if (loc.src) {
		unsigned line, col;

		gs_loc_linecol(loc, &line, &col);
		n = snprintf(fc->err, fc->errlen, "%s:%u:%u: ", loc.src->name, line, col);
		off = n < 0 ? 0 : (size_t)n < fc->errlen ? (size_t)n : fc->errlen - 1;
	}
	va_start(ap, fmt);
	vsnprintf(fc->err + off, fc->errlen - off, fmt, ap);
	va_end(ap);
	return -1;
}

static struct gs_loc expr_loc(const struct gs_expr *e, struct gs_loc dflt)
{
	return e ? gs_expr_span(e) : dflt;
}

/* Evaluate a once-per-buffer expression (seed, lo, hi, value). */
static int eval_once(struct fillctx *fc, const struct gs_code *c, const struct gs_value *env,
		     const char *what, struct gs_value *v)
{
	gs_vm_reset(fc->vm);
	if (gs_vm_eval(fc->vm, c, env, v) < 0)
		return fail(fc, fc->vm->err_loc, "buffer '%s', %s: %s", fc->b->name, what,
			    fc->vm->err);
	return 0;
}

/* A number as an int64: ints, bools and integral floats. */
static int as_int(struct gs_value v, int64_t *out)
{
	if (v.t == GS_V_INT || v.t == GS_V_BOOL) {
		*out = v.i;
		return 0;
	}
	/* 2^63 itself is out of range: the bound is exclusive */
	if (v.t == GS_V_FLOAT && v.f == floor(v.f) && v.f >= -0x1p63 && v.f < 0x1p63) {
		*out = (int64_t)v.f;
		return 0;
	}
	return -1;
}

static int as_double(struct gs_value v, double *out)
{
	if (v.t == GS_V_INT || v.t == GS_V_BOOL)
		*out = (double)v.i;
	else if (v.t == GS_V_FLOAT)
		*out = v.f;
	else
		return -1;
	return 0;
}

/* `what` ("value()") or else "element 17": formatted only on the way to an
 * error, since store() runs per element. */
static const char *where_text(const char *what, uint64_t k, char *buf, size_t size)
{
	if (what)
		return what;
	snprintf(buf, size, "element %llu", (unsigned long long)k);
	return buf;
}

/* Store one computed value into element k; errors name `what`, or the
 * element when it is NULL. */
static int store(struct fillctx *fc, struct gs_loc loc, struct gs_value v, void *host, uint64_t k,
		 const char *what)
{
	int t = fc->b->type;
	char rb[64], wb[48];

	if (!btypes[t].isint) {
		double d;

		if (as_double(v, &d) < 0)
			return fail(fc, loc, "buffer '%s', %s: got a %s, not a number", fc->b->name,
				    where_text(what, k, wb, sizeof wb), gs_vtype_name(v.t));
		if (t == GS_BT_DOUBLE) {
			((double *)host)[k] = d;
		} else {
			float f = (float)d;

			if (isinf(f) && isfinite(d))
				return fail(fc, loc, "buffer '%s', %s: %g is outside float's range",
					    fc->b->name, where_text(what, k, wb, sizeof wb), d);
			((float *)host)[k] = f;
		}
		return 0;
	}
	int64_t i, lo, hi;

	if (as_int(v, &i) < 0) {
		if (v.t == GS_V_FLOAT)
			return fail(fc, loc, "buffer '%s', %s: %.17g is not an integer (%s buffer)",
				    fc->b->name, where_text(what, k, wb, sizeof wb), v.f,
				    gs_btype_name(t));
		return fail(fc, loc, "buffer '%s', %s: got a %s, not a number", fc->b->name,
			    where_text(what, k, wb, sizeof wb), gs_vtype_name(v.t));
	}
	int_range(t, &lo, &hi);
	if (i < lo || i > hi)
		return fail(fc, loc, "buffer '%s', %s: %lld is outside %s's range %s", fc->b->name,
			    where_text(what, k, wb, sizeof wb), (long long)i, gs_btype_name(t),
			    range_text(t, rb, sizeof rb));
	put_int(t, host, k, i);
	return 0;
}

/* r = lo + (hi - lo) * u in two roundings on every compiler: GCC would
 * otherwise fuse them where the target has FMA (-ffp-contract=fast is its
 * GNU C default); clang fuses only within one expression. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("fp-contract=off")))
#endif
static double scale(double lo, double d, double u)
{
	double t = d * u;

	return lo + t;
}

static int fill_random(struct fillctx *fc, const struct gs_value *env, void *host)
{
	const struct gs_buffer *b = fc->b;
	const struct gs_fill *f = &b->fill;
	int t = b->type;
	uint64_t n = (uint64_t)b->n, seed = 0;
	struct gs_value v;
	int64_t iv;
	char rb[64];

	if (f->seed_c) {
		if (eval_once(fc, f->seed_c, env, "random() seed", &v) < 0)
			return -1;
		if (as_int(v, &iv) < 0)
			return fail(fc, expr_loc(f->seed, f->loc),
				    "buffer '%s': random() seed must be an integer, not %s", b->name,
				    v.t == GS_V_FLOAT ? "a non-integral float" : gs_vtype_name(v.t));
		seed = (uint64_t)iv;
	}
	if (!btypes[t].isint) {
		double lo = 0, hi = 1;

		if (f->lo_c) {
			if (eval_once(fc, f->lo_c, env, "random() lo", &v) < 0)
				return -1;
			if (as_double(v, &lo) < 0)
				return fail(fc, expr_loc(f->lo, f->loc),
					    "buffer '%s': random() lo must be a number, not %s", b->name,
					    gs_vtype_name(v.t));
		}
		if (f->hi_c) {
			if (eval_once(fc, f->hi_c, env, "random() hi", &v) < 0)
				return -1;
			if (as_double(v, &hi) < 0)
				return fail(fc, expr_loc(f->hi, f->loc),
					    "buffer '%s': random() hi must be a number, not %s", b->name,
					    gs_vtype_name(v.t));
		}
		double d = hi - lo;

		if (!isfinite(lo) || !isfinite(hi) || !(lo < hi) || !isfinite(d))
			return fail(fc, f->loc,
				    "buffer '%s': random() needs finite lo < hi (and hi - lo finite), "
				    "got lo = %g, hi = %g",
				    b->name, lo, hi);
		if (t == GS_BT_DOUBLE) {
			double *p = host;
			double below = nextafter(hi, -INFINITY);

			for (uint64_t k = 0; k < n; k++) {
				double r = scale(lo, d, (double)(gs_random_u64(seed, k) >> 11) * 0x1p-53);
				p[k] = r < hi ? r : below;
			}
		} else {
			float *p = host;
			float flo = (float)lo, fhi = (float)hi;

			if (!isfinite(flo) || !isfinite(fhi) || !(flo < fhi))
				return fail(fc, f->loc,
					    "buffer '%s': random() range [%g, %g) holds no float value "
					    "or exceeds float's range",
					    b->name, lo, hi);
			float below = nextafterf(fhi, -INFINITY);

			for (uint64_t k = 0; k < n; k++) {
				float r = (float)scale(lo, d,
						       (double)(gs_random_u64(seed, k) >> 40) * 0x1p-24);
				p[k] = r < fhi ? r : below;
			}
		}
		return 0;
	}

	int64_t tlo, thi, lo, hi;

	int_range(t, &tlo, &thi);
	lo = 0;
	hi = thi < 255 ? thi : 255;
	if (f->lo_c) {
		if (eval_once(fc, f->lo_c, env, "random() lo", &v) < 0)
			return -1;
		if (as_int(v, &lo) < 0)
			return fail(fc, expr_loc(f->lo, f->loc),
				    "buffer '%s': random() lo must be an integer for a %s buffer",
				    b->name, gs_btype_name(t));
	}
	if (f->hi_c) {
		if (eval_once(fc, f->hi_c, env, "random() hi", &v) < 0)
			return -1;
		if (as_int(v, &hi) < 0)
			return fail(fc, expr_loc(f->hi, f->loc),
				    "buffer '%s': random() hi must be an integer for a %s buffer",
				    b->name, gs_btype_name(t));
	}
	if (lo < tlo || lo > thi)
		return fail(fc, expr_loc(f->lo, f->loc),
			    "buffer '%s': random() lo = %lld is outside %s's range %s", b->name,
			    (long long)lo, gs_btype_name(t), range_text(t, rb, sizeof rb));
	if (hi < tlo || hi > thi)
		return fail(fc, expr_loc(f->hi, f->loc),
			    "buffer '%s': random() hi = %lld is outside %s's range %s", b->name,
			    (long long)hi, gs_btype_name(t), range_text(t, rb, sizeof rb));
	if (lo > hi)
		return fail(fc, f->loc, "buffer '%s': random() needs lo <= hi, got lo = %lld, hi = %lld",
			    b->name, (long long)lo, (long long)hi);
	uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;

	for (uint64_t k = 0; k < n; k++) {
		uint64_t x = gs_random_u64(seed, k);
		uint64_t off = span ? (uint64_t)(((unsigned __int128)x * span) >> 64) : x;

		put_int(t, host, k, (int64_t)((uint64_t)lo + off));
	}
	return 0;
}

/* Does the code read the environment slot? */
static int reads_slot(const struct gs_code *c, int slot)
{
	for (size_t i = 0; i < c->nglobals; i++)
		if (c->globals[i] == slot)
			return 1;
	return 0;
}

/* Copy element 0 to the others, doubling the copied prefix. */
static void splat(void *host, uint64_t n, size_t size)
{
	size_t have = 1, total = (size_t)n;

	while (have < total) {
		size_t m = have < total - have ? have : total - have;

		memcpy((char *)host + have * size, host, m * size);
		have += m;
	}
}

static int fill_value(struct fillctx *fc, const struct gs_space *sp, struct gs_value *env,
		      void *host)
{
	const struct gs_buffer *b = fc->b;
	const struct gs_fill *f = &b->fill;
	struct gs_loc loc = expr_loc(f->value, f->loc);
	uint64_t n = (uint64_t)b->n;
	struct gs_value v;

	if (!f->value_c)
		return fail(fc, f->loc, "buffer '%s': the fill has no compiled expression", b->name);
	if (f->kind == GS_FILL_VALUE || !reads_slot(f->value_c, sp->fill_slot)) {
		/* one value for all: evaluated once, even for index() without `i` */
		if (n == 0)
			return 0;
		if (f->kind == GS_FILL_INDEX)
			env[sp->fill_slot] = gs_int(0);
		const char *what = f->kind == GS_FILL_VALUE ? "value()" : "index()";

		if (eval_once(fc, f->value_c, env, what, &v) < 0)
			return -1;
		if (store(fc, loc, v, host, 0, what) < 0)
			return -1;
		splat(host, n, btypes[b->type].size);
		return 0;
	}
	for (uint64_t k = 0; k < n; k++) {
		env[sp->fill_slot] = gs_int((int64_t)k);
		gs_vm_reset(fc->vm);
		if (gs_vm_eval(fc->vm, f->value_c, env, &v) < 0)
			return fail(fc, fc->vm->err_loc, "buffer '%s', element %llu: %s", b->name,
				    (unsigned long long)k, fc->vm->err);
		/* the common cases inline; store() has the errors and the rest */
		if (b->type == GS_BT_FLOAT && v.t == GS_V_FLOAT &&
		    !(fabs(v.f) > FLT_MAX && isfinite(v.f))) {
			((float *)host)[k] = (float)v.f;
			continue;
		}
		if (store(fc, loc, v, host, k, NULL) < 0)
			return -1;
	}
	return 0;
}

static int fill_file(struct fillctx *fc, void *host, size_t bytes)
{
	const struct gs_buffer *b = fc->b;
	const char *path = b->fill.path ? b->fill.path : "";
	uint64_t size = 0;
	/* regular files only, as every file gsearch reads: /dev/zero would
	 * fill any buffer, a FIFO could hang the worker */
	int fd = gs_open_regular(path, GS_DATA_READ_MAX, &size);

	if (fd == GS_ENOTREG)
		return fail(fc, b->fill.loc, "buffer '%s': '%s' is not a regular file", b->name, path);
	if (fd == -EFBIG)
		return fail(fc, b->fill.loc, "buffer '%s': '%s' is larger than the "
			    GS_DATA_READ_MAX_TEXT " limit", b->name, path);
	if (fd < 0)
		return fail(fc, b->fill.loc, "buffer '%s': cannot open '%s': %s", b->name, path,
			    strerror(-fd));
	if (size != (uint64_t)bytes) {
		close(fd);
		return fail(fc, b->fill.loc,
			    "buffer '%s': '%s' holds %llu bytes, but %lld %s elements take %llu",
			    b->name, path, (unsigned long long)size, (long long)b->n,
			    gs_btype_name(b->type), (unsigned long long)bytes);
	}
	size_t got = 0;

	while (got < bytes) {
		ssize_t r = read(fd, (char *)host + got, bytes - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int e = r < 0 ? errno : 0;

			close(fd);
			return fail(fc, b->fill.loc, "buffer '%s': cannot read '%s': %s", b->name,
				    path, e ? strerror(e) : "file shrank while reading");
		}
		got += (size_t)r;
	}
	close(fd);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	/* the file is little-endian */
	size_t es = btypes[b->type].size;

	for (size_t k = 0; es > 1 && k < bytes; k += es)
		for (size_t i = 0; i < es / 2; i++) {
			char *p = (char *)host + k, c = p[i];

			p[i] = p[es - 1 - i];
			p[es - 1 - i] = c;
		}
#endif
	return 0;
}

int gs_fill_buffer(const struct gs_space *sp, const struct gs_buffer *b, void *host,
		   struct gs_value *env, struct gs_vm *vm, char *err, size_t errlen)
{
	struct fillctx fc = { b, vm, err, errlen };

	if (errlen)
		err[0] = '\0';
	if (b->type < 0 || b->type >= GS_BT_COUNT)
		return fail(&fc, b->loc, "buffer '%s': unknown element type %d", b->name, b->type);
	if (b->n < 0)
		return fail(&fc, b->loc, "buffer '%s': negative element count %lld", b->name,
			    (long long)b->n);
	size_t es = btypes[b->type].size;

	if ((uint64_t)b->n > SIZE_MAX / es)
		return fail(&fc, b->loc, "buffer '%s': %lld elements do not fit in memory", b->name,
			    (long long)b->n);
	size_t bytes = (size_t)b->n * es;

	switch (b->fill.kind) {
	case GS_FILL_NONE:
	case GS_FILL_ZERO:
		if (bytes)
			memset(host, 0, bytes);
		return 0;
	case GS_FILL_RANDOM:
		return fill_random(&fc, env, host);
	case GS_FILL_VALUE:
	case GS_FILL_INDEX:
		return fill_value(&fc, sp, env, host);
	case GS_FILL_FILE:
		return fill_file(&fc, host, bytes);
	}
	return fail(&fc, b->fill.loc, "buffer '%s': unknown fill kind %d", b->name,
		    (int)b->fill.kind);
}

/* --- comparison ------------------------------------------------------------- */

static double get_f(int t, const void *p, uint64_t k)
{
	return t == GS_BT_FLOAT ? (double)((const float *)p)[k] : ((const double *)p)[k];
}

/* Integers as (negative?, magnitude) would be exact; a signed int64 and a
 * uint64 cover every type: signed types widen to int64, unsigned to uint64. */
static int64_t get_s(int t, const void *p, uint64_t k)
{
	switch (t) {
	case GS_BT_INT8: return ((const int8_t *)p)[k];
	case GS_BT_INT16: return ((const int16_t *)p)[k];
	case GS_BT_INT32: return ((const int32_t *)p)[k];
	default: return ((const int64_t *)p)[k];
	}
}

static uint64_t get_u(int t, const void *p, uint64_t k)
{
	switch (t) {
	case GS_BT_UINT8: return ((const uint8_t *)p)[k];
	case GS_BT_UINT16: return ((const uint16_t *)p)[k];
	case GS_BT_UINT32: return ((const uint32_t *)p)[k];
	default: return ((const uint64_t *)p)[k];
	}
}

static void note_bad(struct gs_cmp *c, uint64_t k, double got, double want)
{
	if (c->bad++ == 0) {
		c->first_bad = k;
		c->got = got;
		c->want = want;
	}
}

/* Relative errors divide by max(|ref|, tiny): tiny is the type's smallest
 * positive normal for floats and 1 for integers, so an error against an exact
 * zero is large but finite where it can be. */
void gs_compare(int btype, const void *out, const void *ref, uint64_t n, double tol,
		struct gs_cmp *c)
{
	memset(c, 0, sizeof *c);
	if (btype < 0 || btype >= GS_BT_COUNT)
		return;
	if (!btypes[btype].isint) {
		double tiny = btype == GS_BT_FLOAT ? FLT_MIN : DBL_MIN;

		if (!(tol > 0))
			tol = 0; /* negative or NaN: exact */
		for (uint64_t k = 0; k < n; k++) {
			double o = get_f(btype, out, k), r = get_f(btype, ref, k), ae, re;
			int ok;

			if (isnan(r) || isnan(o) || isinf(r) || isinf(o)) {
				/* NaN only against NaN, inf only against the same inf */
				ok = (isnan(r) && isnan(o)) || (!isnan(r) && !isnan(o) && o == r);
				ae = re = ok ? 0 : INFINITY;
			} else {
				double ar = fabs(r);

				ae = fabs(o - r);
				re = ae / (ar > tiny ? ar : tiny);
				ok = ae <= tol * (ar > 1 ? ar : 1);
			}
			if (ae > c->max_abs)
				c->max_abs = ae;
			if (re > c->max_rel)
				c->max_rel = re;
			if (!ok)
				note_bad(c, k, o, r);
		}
		return;
	}
	int sgn = btypes[btype].issigned;

	for (uint64_t k = 0; k < n; k++) {
		uint64_t diff, mag; /* |out - ref| and |ref|, exact */
		double got, want;

		if (sgn) {
			int64_t o = get_s(btype, out, k), r = get_s(btype, ref, k);

			if (o == r)
				continue;
			diff = o > r ? (uint64_t)o - (uint64_t)r : (uint64_t)r - (uint64_t)o;
			mag = r < 0 ? -(uint64_t)r : (uint64_t)r;
			got = (double)o;
			want = (double)r;
		} else {
			uint64_t o = get_u(btype, out, k), r = get_u(btype, ref, k);

			if (o == r)
				continue;
			diff = o > r ? o - r : r - o;
			mag = r;
			got = (double)o;
			want = (double)r;
		}
		double ae = (double)diff, re = ae / (mag > 1 ? (double)mag : 1.0);

		if (ae > c->max_abs)
			c->max_abs = ae;
		if (re > c->max_rel)
			c->max_rel = re;
		note_bad(c, k, got, want);
	}
}

/* --- statistics ------------------------------------------------------------- */

/* NaNs sort last, so that they never land between two numbers. */
static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

/* numpy.quantile(a, q) with method='linear' on sorted a, including numpy's
 * way of interpolating (from the upper neighbour when the weight is >= 0.5),
 * so that results match it to the bit. */
static double quantile(const double *a, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t lo = (size_t)floor(pos);
	double t = pos - (double)lo;

	if (lo + 1 >= n)
		return a[n - 1];
	double x = a[lo], y = a[lo + 1], d = y - x;

	return t >= 0.5 ? y - d * (1 - t) : x + d * t;
}

/* numpy.median: the middle one, or the mean of the two middle ones. */
static double median_sorted(const double *a, size_t n)
{
	return n % 2 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
}

void gs_stats(double *samples, size_t n, struct gs_stats *s)
{
	s->n = n;
	if (n == 0) {
		s->median = s->min = s->max = s->q1 = s->q3 = s->iqr = NAN;
		return;
	}
	qsort(samples, n, sizeof *samples, cmp_double);
	s->min = samples[0];
	s->max = samples[n - 1];
	s->median = median_sorted(samples, n);
	s->q1 = quantile(samples, n, 0.25);
	s->q3 = quantile(samples, n, 0.75);
	s->iqr = s->q3 - s->q1;
}

