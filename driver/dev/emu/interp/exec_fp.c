/* exec_fp.c — floating point for the executor: comparisons (setp, set),
 * testp, the f32/f64 operations beyond plain add/sub/mul/fma (FOP32,
 * FOP64), and cvt between every integer and floating-point type.
 *
 * Rounding modes other than to-nearest are exact: arithmetic runs with the
 * host's rounding mode switched (fesetround) around a lane loop that the
 * compiler cannot move across the switch; conversions round in long double
 * (whose 64-bit significand holds any 64-bit integer and any float or
 * double exactly) with an explicit rounding step.
 *
 * Approximate instructions are computed in double precision (rsqrt.f64 in
 * long double) and rounded once, which is deterministic and inside the
 * maximum errors the PTX ISA states for them: sin/cos.approx.f32 2^-20.5
 * absolute in [-100 pi, 100 pi], lg2.approx.f32 2^-22 absolute,
 * ex2.approx.f32 2 ulp, rsqrt.approx.f32 2^-22.9 relative, rcp.approx.f32
 * 1 ulp, div.approx.f32 and div.full.f32 2 ulp, tanh.approx.f32 2^-11
 * relative, rcp/rsqrt.approx.f64 about 2^-50 relative: a result rounded
 * once from a more precise one is within each of them. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "dev/emu/interp/exec_int.h"

#if defined(__clang__)
#define GS_OPAQUE __attribute__((noinline))
#else
#define GS_OPAQUE __attribute__((noinline, noipa))
#endif

static int fe_mode(int rnd)
{
	switch (rnd) {
	case GS_RND_RZ: case GS_RND_RZI: return FE_TOWARDZERO;
	case GS_RND_RM: case GS_RND_RMI: return FE_DOWNWARD;
	case GS_RND_RP: case GS_RND_RPI: return FE_UPWARD;
	default: return FE_TONEAREST;
	}
}

/* ---- testp ----------------------------------------------------------------------- */

int gs_x_testp(struct gs_xctx *x, unsigned char *rf, uint32_t *pred, const struct gs_ins *in,
	       uint32_t m)
{
	uint32_t bits = 0;
	for (int l = 0; l < GS_WARP; l++) {
		double v = in->sub2 ? ((const double *)(rf + in->o[1]))[l]
				    : ((const float *)(rf + in->o[1]))[l];
		int cls = in->sub2 ? fpclassify(v) : fpclassify((float)v);
		int r;
		switch (in->sub) {
		case 0: r = cls != FP_INFINITE && cls != FP_NAN; break;
		case 1: r = cls == FP_INFINITE; break;
		case 2: r = cls != FP_NAN; break;
		case 3: r = cls == FP_NAN; break;
		case 4: r = cls == FP_NORMAL; break;
		case 5: r = cls == FP_SUBNORMAL; break;
		default: return gs_x_unsupported(x, in, "testp class");
		}
		bits |= (uint32_t)r << l;
	}
	pred[in->o[0]] = (pred[in->o[0]] & ~m) | (bits & m);
	return 0;
}

/* ---- f32 and f64 operations ---------------------------------------------------- */

static float fmin_ptx(float a, float b, int nan)
{
	if (a != a || b != b) {
		if (nan || (a != a && b != b))
			return __builtin_nanf("");
		return a != a ? b : a;
	}
	if (a == b) /* -0 is the smaller zero */
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static float fmax_ptx(float a, float b, int nan)
{
	if (a != a || b != b) {
		if (nan || (a != a && b != b))
			return __builtin_nanf("");
		return a != a ? b : a;
	}
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

static double dmin_ptx(double a, double b, int nan)
{
	if (a != a || b != b) {
		if (nan || (a != a && b != b))
			return __builtin_nan("");
		return a != a ? b : a;
	}
	if (a == b)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static double dmax_ptx(double a, double b, int nan)
{
	if (a != a || b != b) {
		if (nan || (a != a && b != b))
			return __builtin_nan("");
		return a != a ? b : a;
	}
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

/* The lanes of one f32 operation, in whatever rounding mode the caller set:
 * opaque, so that no operation moves across the mode switches. */
static GS_OPAQUE int fop32_lanes(int op, int nan, const float *a, const float *b, const float *c,
				 float *d)
{
	for (int l = 0; l < GS_WARP; l++) {
		float x = a[l], y = b[l], z = c[l];
		switch (op) {
		case GS_FOP_ADD: d[l] = x + y; break;
		case GS_FOP_SUB: d[l] = x - y; break;
		case GS_FOP_MUL: d[l] = x * y; break;
		case GS_FOP_FMA: d[l] = fmaf(x, y, z); break;
		case GS_FOP_DIV: case GS_FOP_DIV_APPROX: case GS_FOP_DIV_FULL: d[l] = x / y; break;
		case GS_FOP_RCP: case GS_FOP_RCP_APPROX: d[l] = 1.0f / x; break;
		case GS_FOP_SQRT: case GS_FOP_SQRT_APPROX: d[l] = sqrtf(x); break;
		case GS_FOP_RSQRT_APPROX: d[l] = (float)(1.0 / sqrt((double)x)); break;
		case GS_FOP_SIN: d[l] = (float)sin((double)x); break;
		case GS_FOP_COS: d[l] = (float)cos((double)x); break;
		case GS_FOP_LG2: d[l] = (float)log2((double)x); break;
		case GS_FOP_EX2: d[l] = (float)exp2((double)x); break;
		case GS_FOP_TANH: d[l] = (float)tanh((double)x); break;
		case GS_FOP_ABS: d[l] = fabsf(x); break;
		case GS_FOP_NEG: d[l] = -x; break;
		case GS_FOP_MIN: d[l] = fmin_ptx(x, y, nan); break;
		case GS_FOP_MAX: d[l] = fmax_ptx(x, y, nan); break;
		case GS_FOP_COPYSIGN: d[l] = copysignf(y, x); break; /* |b| with a's sign */
		case GS_FOP_MOV: d[l] = x; break;
		default: return -1;
		}
	}
	return 0;
}

static GS_OPAQUE int fop64_lanes(int op, int nan, const double *a, const double *b,
				 const double *c, double *d)
{
	for (int l = 0; l < GS_WARP; l++) {
		double x = a[l], y = b[l], z = c[l];
		switch (op) {
		case GS_FOP_ADD: d[l] = x + y; break;
		case GS_FOP_SUB: d[l] = x - y; break;
		case GS_FOP_MUL: d[l] = x * y; break;
		case GS_FOP_FMA: d[l] = fma(x, y, z); break;
		case GS_FOP_DIV: case GS_FOP_DIV_APPROX: case GS_FOP_DIV_FULL: d[l] = x / y; break;
		case GS_FOP_RCP: case GS_FOP_RCP_APPROX: d[l] = 1.0 / x; break;
		case GS_FOP_SQRT: case GS_FOP_SQRT_APPROX: d[l] = sqrt(x); break;
		case GS_FOP_RSQRT_APPROX: d[l] = (double)(1.0L / sqrtl((long double)x)); break;
		case GS_FOP_ABS: d[l] = fabs(x); break;
		case GS_FOP_NEG: d[l] = -x; break;
		case GS_FOP_MIN: d[l] = dmin_ptx(x, y, nan); break;
		case GS_FOP_MAX: d[l] = dmax_ptx(x, y, nan); break;
		case GS_FOP_COPYSIGN: d[l] = copysign(y, x); break;
		case GS_FOP_MOV: d[l] = x; break;
		default: return -1;
		}
	}
	return 0;
}

static double ftz64(double v)
{
	return (v != 0.0 && fabs(v) < 0x1p-1022) ? copysign(0.0, v) : v;
}

/* the operands an operation reads: 1 (a), 2 (a, b) or 3 */
static int nsrc(int op)
{
	switch (op) {
	case GS_FOP_FMA: return 3;
	case GS_FOP_ADD: case GS_FOP_SUB: case GS_FOP_MUL: case GS_FOP_DIV: case GS_FOP_DIV_APPROX:
	case GS_FOP_DIV_FULL: case GS_FOP_MIN: case GS_FOP_MAX: case GS_FOP_COPYSIGN:
		return 2;
	default:
		return 1;
	}
}

int gs_x_fop32(struct gs_xctx *x, unsigned char *rf, const struct gs_ins *in, uint32_t m)
{
	gs_vf32 a = { 0 }, b = { 0 }, c = { 0 }, d;
	int n = nsrc(in->sub), ftz = in->f & 1;
	a = GS_VF32(rf, in->o[1]);
	if (n > 1)
		b = GS_VF32(rf, in->o[2]);
	if (n > 2)
		c = GS_VF32(rf, in->o[3]);
	if (ftz) {
		a = gs_x_ftz32(a);
		b = gs_x_ftz32(b);
		c = gs_x_ftz32(c);
	}
	int mode = fe_mode(in->sub2);
	if (mode != FE_TONEAREST)
		fesetround(mode);
	int rc = fop32_lanes(in->sub, in->f & 4, (float *)&a, (float *)&b, (float *)&c,
			     (float *)&d);
	if (mode != FE_TONEAREST)
		fesetround(FE_TONEAREST);
	if (rc < 0)
		return gs_x_unsupported(x, in, "f32 operation");
	if (ftz)
		d = gs_x_ftz32(d);
	if (in->f & 2) /* .sat: [0, 1], NaN to 0 */
		for (int l = 0; l < GS_WARP; l++)
			d[l] = d[l] > 0.0f ? (d[l] > 1.0f ? 1.0f : d[l]) : 0.0f;
	gs_x_put32(rf, in->o[0], (gs_vu32)d, m);
	return 0;
}

int gs_x_fop64(struct gs_xctx *x, unsigned char *rf, const struct gs_ins *in, uint32_t m)
{
	gs_vf64 a = { 0 }, b = { 0 }, c = { 0 }, d;
	int n = nsrc(in->sub), ftz = in->f & 1;
	if (in->sub >= GS_FOP_SIN && in->sub <= GS_FOP_TANH)
		return gs_x_unsupported(x, in, "f64 operation");
	a = GS_VF64(rf, in->o[1]);
	if (n > 1)
		b = GS_VF64(rf, in->o[2]);
	if (n > 2)
		c = GS_VF64(rf, in->o[3]);
	if (ftz)
		for (int l = 0; l < GS_WARP; l++)
			a[l] = ftz64(a[l]), b[l] = ftz64(b[l]), c[l] = ftz64(c[l]);
	int mode = fe_mode(in->sub2);
	if (mode != FE_TONEAREST)
		fesetround(mode);
	int rc = fop64_lanes(in->sub, in->f & 4, (double *)&a, (double *)&b, (double *)&c,
			     (double *)&d);
	if (mode != FE_TONEAREST)
		fesetround(FE_TONEAREST);
	if (rc < 0)
		return gs_x_unsupported(x, in, "f64 operation");
	for (int l = 0; l < GS_WARP; l++) {
		if (ftz)
			d[l] = ftz64(d[l]);
		if (in->f & 2)
			d[l] = d[l] > 0.0 ? (d[l] > 1.0 ? 1.0 : d[l]) : 0.0;
	}
	gs_x_put64(rf, in->o[0], (gs_vu64)d, m);
	return 0;
}

/* ---- f16 and bf16 ------------------------------------------------------------------ */

static uint64_t encode(long double v, int rnd, int man, int eb);
static long double decode(uint64_t bits, int man, int eb);

/* One half's operation, exactly in long double and rounded once to the
 * half's format: a product of halves is exact there, and so is a sum of
 * f16 values (their exponents span 40 bits); bf16's wider range can make a
 * sum inexact, where the 64-bit rounding before the 8-bit one changes
 * nothing (64 >= 2 x 8 + 2).  ftz flushes subnormal operands and results;
 * .sat clamps to [0, 1], NaN to 0. */
static int half_op(const struct gs_ins *in, int man, int eb, uint32_t ra, uint32_t rb,
		   uint32_t rc, uint32_t *out)
{
	long double a = decode(ra, man, eb), b = decode(rb, man, eb), c = decode(rc, man, eb), v;
	long double tiny = ldexpl(1.0L, 2 - (1 << (eb - 1)));
	int ftz = in->f & 1;
	if (ftz) {
		if (fabsl(a) < tiny) a = copysignl(0.0L, a);
		if (fabsl(b) < tiny) b = copysignl(0.0L, b);
		if (fabsl(c) < tiny) c = copysignl(0.0L, c);
	}
	switch (in->sub) {
	case GS_FOP_ADD: v = a + b; break;
	case GS_FOP_SUB: v = a - b; break;
	case GS_FOP_MUL: v = a * b; break;
	case GS_FOP_FMA: v = fmal(a, b, c); break;
	case GS_FOP_NEG: *out = ra ^ (1u << (man + eb)); return 0; /* the sign bit, NaN too */
	case GS_FOP_ABS: *out = ra & ~(1u << (man + eb)); return 0;
	case GS_FOP_MIN: case GS_FOP_MAX: {
		int nan = in->f & 4;
		if (isnan(a) || isnan(b)) {
			if (nan || (isnan(a) && isnan(b))) {
				*out = (uint32_t)encode(NAN, GS_RND_RN, man, eb);
				return 0;
			}
			v = isnan(a) ? b : a;
		} else if (a == b) {
			v = (in->sub == GS_FOP_MIN) == (signbit(a) != 0) ? a : b; /* -0 < +0 */
		} else {
			v = (in->sub == GS_FOP_MIN) == (a < b) ? a : b;
		}
		break;
	}
	case GS_FOP_EX2: v = exp2l(a); break;
	default: return -1;
	}
	if (in->f & 2)
		v = v > 0 ? (v > 1 ? 1 : v) : 0;
	if (ftz && fabsl(v) < tiny && v != 0)
		v = copysignl(0.0L, v);
	*out = (uint32_t)encode(v, in->sub2, man, eb);
	return 0;
}

int gs_x_fop16(struct gs_xctx *x, unsigned char *rf, const struct gs_ins *in, uint32_t m)
{
	int two = in->sz == GS_TY_F16X2 || in->sz == GS_TY_BF16X2;
	int bf = in->sz == GS_TY_BF16 || in->sz == GS_TY_BF16X2;
	int man = bf ? 7 : 10, eb = bf ? 8 : 5, n = nsrc(in->sub);
	/* a 16-bit register is the low half of a 32-bit one */
	gs_vu32 d = { 0 }, a = GS_VU32(rf, in->o[1]), b = { 0 }, c = { 0 };
	if (n > 1)
		b = GS_VU32(rf, in->o[2]);
	if (n > 2)
		c = GS_VU32(rf, in->o[3]);
	for (int l = 0; l < GS_WARP; l++) {
		if (!(m >> l & 1))
			continue;
		uint32_t lo, hi = 0;
		if (half_op(in, man, eb, a[l] & 0xffff, b[l] & 0xffff, c[l] & 0xffff, &lo) < 0 ||
		    (two && half_op(in, man, eb, a[l] >> 16, b[l] >> 16, c[l] >> 16, &hi) < 0))
			return gs_x_unsupported(x, in, "f16 operation");
		d[l] = (lo & 0xffff) | hi << 16;
	}
	gs_x_put32(rf, in->o[0], d, m);
	return 0;
}

/* ---- conversions ------------------------------------------------------------------- */

enum { K_INT, K_F16, K_BF16, K_F32, K_F64 };

static int tinfo(int ty, int *bits, int *sgn)
{
	*sgn = 0;
	switch (ty) {
	case GS_TY_S8: *sgn = 1; /* fall through */
	case GS_TY_U8: case GS_TY_B8: *bits = 8; return K_INT;
	case GS_TY_S16: *sgn = 1; /* fall through */
	case GS_TY_U16: case GS_TY_B16: *bits = 16; return K_INT;
	case GS_TY_S32: *sgn = 1; /* fall through */
	case GS_TY_U32: case GS_TY_B32: *bits = 32; return K_INT;
	case GS_TY_S64: *sgn = 1; /* fall through */
	case GS_TY_U64: case GS_TY_B64: *bits = 64; return K_INT;
	case GS_TY_F16: *bits = 16; return K_F16;
	case GS_TY_BF16: *bits = 16; return K_BF16;
	case GS_TY_F32: *bits = 32; return K_F32;
	case GS_TY_F64: *bits = 64; return K_F64;
	default: return -1;
	}
}

/* v rounded to an integral value by mode */
static long double round_int(long double v, int rnd)
{
	switch (rnd) {
	case GS_RND_RNI: case GS_RND_RN: return nearbyintl(v);
	case GS_RND_RMI: case GS_RND_RM: return floorl(v);
	case GS_RND_RPI: case GS_RND_RP: return ceill(v);
	default: return truncl(v);
	}
}

/* The encoding of v in a binary format with `man` fraction bits and `eb`
 * exponent bits, rounded by rnd (to nearest even when none); NaN becomes
 * the canonical NaN with every fraction bit set, as the GPU's. */
static uint64_t encode(long double v, int rnd, int man, int eb)
{
	int bias = (1 << (eb - 1)) - 1, emin = 1 - bias, emax = bias;
	int neg = signbit(v) != 0;
	uint64_t sign = neg ? 1ull << (man + eb) : 0;
	uint64_t inf = ((1ull << eb) - 1) << man;
	if (isnan(v))
		return inf | ((1ull << man) - 1);
	long double a = fabsl(v);
	if (isinf(a))
		return sign | inf;
	if (a == 0)
		return sign;
	int e;
	frexpl(a, &e); /* a in [2^(e-1), 2^e) */
	int ue = e - 1 - man;
	if (ue < emin - man)
		ue = emin - man;
	long double q = ldexpl(a, -ue), r;
	switch (rnd) {
	case GS_RND_RZ: case GS_RND_RZI: r = truncl(q); break;
	case GS_RND_RM: case GS_RND_RMI: r = neg ? ceill(q) : floorl(q); break;
	case GS_RND_RP: case GS_RND_RPI: r = neg ? floorl(q) : ceill(q); break;
	default: r = nearbyintl(q); break;
	}
	long double res = ldexpl(r, ue);
	long double maxv = ldexpl(2.0L - ldexpl(1.0L, -man), emax);
	if (res > maxv) {
		int to_max = rnd == GS_RND_RZ || rnd == GS_RND_RZI ||
			     ((rnd == GS_RND_RM || rnd == GS_RND_RMI) && !neg) ||
			     ((rnd == GS_RND_RP || rnd == GS_RND_RPI) && neg);
		return sign | (to_max ? inf - 1 : inf);
	}
	if (res == 0)
		return sign;
	frexpl(res, &e);
	int E = e - 1;
	if (E < emin)
		return sign | (uint64_t)ldexpl(res, man - emin);
	uint64_t frac = (uint64_t)(ldexpl(res, man - E) - ldexpl(1.0L, man));
	return sign | (uint64_t)(E + bias) << man | frac;
}

static long double decode(uint64_t bits, int man, int eb)
{
	int bias = (1 << (eb - 1)) - 1;
	int neg = (int)(bits >> (man + eb) & 1);
	uint64_t ex = bits >> man & ((1ull << eb) - 1), frac = bits & ((1ull << man) - 1);
	long double v;
	if (ex == (1ull << eb) - 1)
		v = frac ? (long double)NAN : (long double)INFINITY;
	else if (!ex)
		v = ldexpl((long double)frac, 1 - bias - man);
	else
		v = ldexpl((long double)(frac | 1ull << man), (int)ex - bias - man);
	return neg ? -v : v;
}

/* v rounded to an integral value by mode, in double: exact, as in long
 * double (the host's rounding mode is to nearest here) */
static double round_dbl(double v, int rnd)
{
	switch (rnd) {
	case GS_RND_RNI: case GS_RND_RN: return nearbyint(v);
	case GS_RND_RMI: case GS_RND_RM: return floor(v);
	case GS_RND_RPI: case GS_RND_RP: return ceil(v);
	default: return trunc(v);
	}
}

/* A conversion's f32 source from its register bits; .ftz flushes a
 * subnormal to zero, keeping its sign. */
static double f32_source(uint64_t raw, int ftz)
{
	float f;
	uint32_t u = (uint32_t)raw;
	memcpy(&f, &u, 4);
	if (ftz && fpclassify(f) == FP_SUBNORMAL)
		f = copysignf(0.0f, f);
	return f;
}

/* The conversions the kernels run most, in the host's float and double
 * arithmetic, which gives the general path's bits: float or double to
 * integers of up to 32 bits (every bound is a double), integers to float
 * or double rounded to nearest, float and double into each other rounded
 * to nearest, and float or double rounded to an integral value.  NaN
 * becomes the canonical NaN, as encode() makes it.  1 when done. */
static int cvt_fast(const struct gs_ins *in, int dk, int dbits, int dsgn, int sk, int sbits,
		    int ssgn, uint64_t raw, uint64_t *out)
{
	int rnd = in->f & 15, ftz = in->f >> 4 & 1, sat = in->f >> 5 & 1;
	if (sat)
		return 0;
	double v;
	if (sk == K_F32) {
		v = f32_source(raw, ftz);
	} else if (sk == K_F64) {
		memcpy(&v, &raw, 8);
	} else if (sk == K_INT && (dk == K_F32 || dk == K_F64) &&
		   (rnd == GS_RND_NONE || rnd == GS_RND_RN)) {
		uint64_t ui = sbits == 64 ? raw : raw & ((1ull << sbits) - 1);
		if (ssgn && sbits < 64 && (ui >> (sbits - 1) & 1))
			ui |= ~0ull << sbits;
		if (dk == K_F64) {
			double d = ssgn ? (double)(int64_t)ui : (double)ui;
			memcpy(out, &d, 8);
		} else {
			float f = ssgn ? (float)(int64_t)ui : (float)ui;
			uint32_t u;
			memcpy(&u, &f, 4);
			*out = u; /* never a subnormal: ftz has nothing to flush */
		}
		return 1;
	} else {
		return 0;
	}
	if (dk == K_INT) {
		if (dbits > 32)
			return 0;
		double lo = dsgn ? -ldexp(1.0, dbits - 1) : 0;
		double hi = dsgn ? ldexp(1.0, dbits - 1) - 1 : ldexp(1.0, dbits) - 1;
		v = isnan(v) ? 0 : round_dbl(v, rnd);
		v = v < lo ? lo : v > hi ? hi : v;
		uint64_t r = dsgn ? (uint64_t)(int64_t)v : (uint64_t)v;
		if (dbits < 64) {
			r &= (1ull << dbits) - 1;
			if (dsgn && (r >> (dbits - 1) & 1))
				r |= ~0ull << dbits;
		}
		*out = r;
		return 1;
	}
	if (dk != K_F32 && dk != K_F64)
		return 0;
	if (rnd >= GS_RND_RNI)
		v = round_dbl(v, rnd);
	else if (rnd != GS_RND_NONE && rnd != GS_RND_RN)
		return 0;
	if (dk == K_F64) {
		if (isnan(v))
			*out = 0x7fffffffffffffffull;
		else
			memcpy(out, &v, 8);
		return 1;
	}
	if (isnan(v)) {
		*out = 0x7fffffffu;
		return 1;
	}
	float f = (float)v;
	uint32_t u;
	memcpy(&u, &f, 4);
	if (ftz && !(u & 0x7f800000u))
		u &= 0x80000000u;
	*out = u;
	return 1;
}

/* One lane: the source register's bits -> the destination's. */
static int cvt_lane(const struct gs_ins *in, uint64_t raw, uint64_t *out)
{
	int dbits, dsgn, sbits, ssgn;
	int dk = tinfo(in->sub, &dbits, &dsgn), sk = tinfo(in->sub2, &sbits, &ssgn);
	int rnd = in->f & 15, ftz = in->f >> 4 & 1, sat = in->f >> 5 & 1;
	if (dk < 0 || sk < 0)
		return -1;
	if (cvt_fast(in, dk, dbits, dsgn, sk, sbits, ssgn, raw, out))
		return 0;
	int64_t si = 0;
	uint64_t ui = 0;
	long double fv = 0;
	if (sk == K_INT) {
		ui = sbits == 64 ? raw : raw & ((1ull << sbits) - 1);
		if (ssgn && sbits < 64 && (ui >> (sbits - 1) & 1))
			ui |= ~0ull << sbits;
		si = (int64_t)ui;
		fv = ssgn ? (long double)si : (long double)ui;
	} else if (sk == K_F16) {
		fv = decode(raw & 0xffff, 10, 5);
	} else if (sk == K_BF16) {
		fv = decode(raw & 0xffff, 7, 8);
	} else if (sk == K_F32) {
		fv = f32_source(raw, ftz);
	} else {
		double f;
		memcpy(&f, &raw, 8);
		fv = f;
	}
	uint64_t r;
	if (dk == K_INT) {
		long double lo = dsgn ? -ldexpl(1.0L, dbits - 1) : 0;
		long double hi = dsgn ? ldexpl(1.0L, dbits - 1) - 1 : ldexpl(1.0L, dbits) - 1;
		if (sk == K_INT && !sat) {
			r = ui;
		} else {
			long double v = fv;
			if (sk != K_INT) /* float to integer saturates always; NaN is 0 */
				v = isnan(v) ? 0 : round_int(v, rnd);
			v = v < lo ? lo : v > hi ? hi : v;
			r = dsgn ? (uint64_t)(int64_t)v : (uint64_t)v;
		}
		if (dbits < 64) {
			r &= (1ull << dbits) - 1;
			if (dsgn && (r >> (dbits - 1) & 1))
				r |= ~0ull << dbits; /* a wider register holds it sign-extended */
		}
	} else {
		if (sk != K_INT && rnd >= GS_RND_RNI)
			fv = round_int(fv, rnd);
		if (sat) /* [0, 1], NaN to 0 */
			fv = !(fv > 0) ? 0 : fv > 1 ? 1 : fv;
		int er = rnd >= GS_RND_RNI ? GS_RND_RN : rnd;
		switch (dk) {
		case K_F16: r = encode(fv, er, 10, 5); break;
		case K_BF16: r = encode(fv, er, 7, 8); break;
		case K_F32:
			r = encode(fv, er, 23, 8);
			if (ftz && !(r & 0x7f800000u))
				r &= 0x80000000u;
			break;
		default: r = encode(fv, er, 52, 11); break;
		}
	}
	*out = r;
	return 0;
}

/* v's low `bits` bits, sign- or zero-extended to 64 */
static inline gs_vu64 ext64(gs_vu64 v, int bits, int sgn)
{
	if (bits >= 64)
		return v;
	int sh = 64 - bits;
	if (sgn)
		return (gs_vu64)((gs_vs64)(v << sh) >> sh);
	return v & (((uint64_t)1 << bits) - 1);
}

int gs_x_cvt(struct gs_xctx *x, unsigned char *rf, const struct gs_ins *in, uint32_t m)
{
	int rnd = in->f & 15, plain = !(in->f >> 4);
	int dbits, dsgn, sbits, ssgn;
	int dk = tinfo(in->sub, &dbits, &dsgn), sk = tinfo(in->sub2, &sbits, &ssgn);
	/* integer to integer without .sat: 32 lanes at once */
	if (plain && dk == K_INT && sk == K_INT) {
		gs_vu64 v = in->sz == 8 ? GS_VU64(rf, in->o[1])
					: __builtin_convertvector(GS_VU32(rf, in->o[1]), gs_vu64);
		v = ext64(ext64(v, sbits, ssgn), dbits, dsgn);
		if (in->nv == 2)
			v &= 0xffff;
		if (in->nv == 8)
			gs_x_put64(rf, in->o[0], v, m);
		else
			gs_x_put32(rf, in->o[0], __builtin_convertvector(v, gs_vu32), m);
		return 0;
	}
	if (plain && in->sz == 4 && in->nv == 4 && in->sub == GS_TY_F32 &&
	    (rnd == GS_RND_RN || rnd == GS_RND_NONE) &&
	    (in->sub2 == GS_TY_S32 || in->sub2 == GS_TY_U32)) {
		gs_vf32 d = in->sub2 == GS_TY_S32
				    ? __builtin_convertvector(GS_VS32(rf, in->o[1]), gs_vf32)
				    : __builtin_convertvector(GS_VU32(rf, in->o[1]), gs_vf32);
		gs_x_put32(rf, in->o[0], (gs_vu32)d, m);
		return 0;
	}
	for (uint32_t mm = m; mm; mm &= mm - 1) {
		int l = __builtin_ctz(mm);
		uint64_t raw = in->sz == 8 ? GS_LU64(rf, in->o[1], l) : GS_LU32(rf, in->o[1], l), r;
		if (cvt_lane(in, raw, &r) < 0)
			return gs_x_unsupported(x, in, "conversion types");
		if (in->nv == 8)
			GS_LU64(rf, in->o[0], l) = r;
		else
			GS_LU32(rf, in->o[0], l) = (uint32_t)(in->nv == 2 ? r & 0xffff : r);
	}
	return 0;
}
