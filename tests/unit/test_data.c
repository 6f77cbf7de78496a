/* test_data.c — buffers and samples without a device: the generator's pinned
 * stream, every fill kind and its errors, output comparison for every element
 * type and order statistics against numpy's definitions (the stopping rule
 * has test_stoprule.c).
 *
 * The golden numbers below were computed once with an independent Python
 * transcription of the algorithm in data.c's header comment; if one changes,
 * inputs of every stored sweep change with it. */
#define _GNU_SOURCE
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev/data.h"
#include "harness.h"
#include "space/load.h"
#include "util/util.h"

/* --- helpers ----------------------------------------------------------------- */

/* A checked space from text; fails the test on any diagnostic. */
static struct gs_space *load(const char *text)
{
	struct gs_diag d = GS_DIAG_INIT;
	struct gs_source *src = gs_source_new("t.space", text, strlen(text));
	struct gs_space *sp = gs_space_parse(src, NULL, &d);

	if (d.errors)
		gs_diag_print(&d, stderr);
	ck_assert_uint_eq(d.errors, 0);
	gs_diag_release(&d);
	return sp;
}

static const struct gs_buffer *buffer(const struct gs_space *sp, const char *name)
{
	for (size_t i = 0; i < sp->nbuffers; i++)
		if (!strcmp(sp->buffers[i].name, name))
			return &sp->buffers[i];
	ck_abort_msg("no buffer '%s'", name);
	return NULL;
}

/* Fill buffer `name` into a new host array (caller frees; NULL after an
 * error, with the message in err).  The array starts as 0xa5 bytes so that a
 * fill that skips an element shows. */
static void *fill(const struct gs_space *sp, const char *name, char *err, size_t errlen)
{
	const struct gs_buffer *b = buffer(sp, name);
	size_t bytes = (size_t)b->n * gs_btype_size(b->type);
	void *host = gs_xmalloc(bytes ? bytes : 1);
	struct gs_value *env = gs_xmalloc((sp->nslots ? sp->nslots : 1) * sizeof *env);
	struct gs_vm vm;
	int rc;

	memset(host, 0xa5, bytes ? bytes : 1);
	memcpy(env, sp->env0, sp->nslots * sizeof *env);
	gs_vm_init(&vm);
	rc = gs_fill_buffer(sp, b, host, env, &vm, err, errlen);
	gs_vm_release(&vm);
	free(env);
	if (rc < 0) {
		ck_assert_int_eq(rc, -1);
		ck_assert_msg(err[0], "an error without a message");
		free(host);
		return NULL;
	}
	return host;
}

static void *fill_ok(const struct gs_space *sp, const char *name)
{
	char err[512];
	void *p = fill(sp, name, err, sizeof err);

	ck_assert_msg(p, "fill of '%s' failed: %s", name, err);
	return p;
}

/* The fill must fail with a message containing every one of the strings. */
static void fill_fails(const char *text, const char *name, const char *const *want, size_t nwant)
{
	struct gs_space *sp = load(text);
	char err[512];
	void *p = fill(sp, name, err, sizeof err);

	ck_assert_msg(!p, "fill of '%s' succeeded, expected an error", name);
	for (size_t i = 0; i < nwant; i++)
		ck_assert_msg(strstr(err, want[i]), "message \"%s\" lacks \"%s\"", err, want[i]);
	gs_space_free(sp);
}
#define FILL_FAILS(text, name, ...)                                                               \
	do {                                                                                       \
		const char *const w_[] = { __VA_ARGS__ };                                           \
		fill_fails(text, name, w_, GS_ARRAY_SIZE(w_));                                      \
	} while (0)

static uint32_t float_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof u);
	return u;
}

/* --- the generator ------------------------------------------------------------ */

START_TEST(test_random_is_splitmix64)
{
	/* SplitMix64 seeded with 0: the reference implementation's first outputs */
	ck_assert_uint_eq(gs_random_u64(0, 0), UINT64_C(0xe220a8397b1dcdaf));
	ck_assert_uint_eq(gs_random_u64(0, 1), UINT64_C(0x6e789e6aa1b965f4));
	ck_assert_uint_eq(gs_random_u64(0, 2), UINT64_C(0x06c45d188009454f));
	/* pinned */
	ck_assert_uint_eq(gs_random_u64(42, 0), UINT64_C(0xbdd732262feb6e95));
	ck_assert_uint_eq(gs_random_u64(42, 1), UINT64_C(0x28efe333b266f103));
	ck_assert_uint_eq(gs_random_u64(42, 1000000), UINT64_C(0xb053c53312ac3ffb));
	ck_assert_uint_eq(gs_random_u64(UINT64_MAX, 7), UINT64_C(0x405da438a39e8064));
}
END_TEST

START_TEST(test_random_is_counter_based)
{
	/* the k-th value does not depend on what was drawn before, in any order */
	uint64_t fwd[64];

	for (uint64_t k = 0; k < 64; k++)
		fwd[k] = gs_random_u64(9, k);
	for (uint64_t k = 64; k-- > 0;)
		ck_assert_uint_eq(gs_random_u64(9, k), fwd[k]);
	ck_assert_uint_ne(gs_random_u64(9, 0), gs_random_u64(10, 0));
}
END_TEST

/* --- random() fills: pinned streams -------------------------------------------- */

START_TEST(test_fill_random_float_golden)
{
	struct gs_space *sp = load("problem N = 6\n"
				   "input A float[N] random(seed=1)\n"
				   "input B float[4] random(seed=2, lo=-1, hi=1)\n");
	static const uint32_t want_a[] = { 0x3f110a2d, 0x3f3eeb8d, 0x3f7893a2,
					   0x3ee3830c, 0x3ee376a8, 0x3f434d0b };
	static const float want_b[] = { 0x1.75835p-3f, 0x1.fe423p-2f, 0x1.87bbcp-3f, 0x1.0fca08p-1f };
	float *a = fill_ok(sp, "A"), *b = fill_ok(sp, "B");

	for (int k = 0; k < 6; k++)
		ck_assert_msg(float_bits(a[k]) == want_a[k], "A[%d] = %a, bits %08x, want %08x", k,
			      a[k], float_bits(a[k]), want_a[k]);
	for (int k = 0; k < 4; k++)
		ck_assert_msg(b[k] == want_b[k], "B[%d] = %a, want %a", k, b[k], want_b[k]);
	free(a);
	free(b);
	gs_space_free(sp);
}
END_TEST

START_TEST(test_fill_random_double_golden)
{
	struct gs_space *sp = load("problem N = 4\n"
				   "input D double[N] random(seed=3, lo=-2.5, hi=10)\n");
	static const double want[] = { -0x1.14f57ad34e6cep+0, 0x1.903c1c90c1f52p+2,
				       0x1.4a6137094afcap+2, -0x1.96d391b97c9ccp+0 };
	double *d = fill_ok(sp, "D");

	for (int k = 0; k < 4; k++)
		ck_assert_msg(d[k] == want[k], "D[%d] = %a, want %a", k, d[k], want[k]);
	free(d);
	gs_space_free(sp);
}
END_TEST

START_TEST(test_fill_random_int_golden)
{
	struct gs_space *sp = load("problem N = 8\n"
				   "input I int32[N] random(seed=4, lo=-100, hi=100)\n"
				   "input U uint8[N] random(seed=5)\n"
				   "input C int8[N] random(seed=6)\n"
				   "input L int64[4] random(seed=7, lo=-2**62 * 2, hi=2**62 - 1 + 2**62)\n"
				   "input S uint16[5] random(seed=N * 3 + 6, lo=1000, hi=2000)\n");
	static const int32_t want_i[] = { -14, 79, 72, -2, -21, 17, 85, -10 };
	static const uint8_t want_u[] = { 99, 192, 59, 25, 48, 97, 252, 130 };
	static const int8_t want_c[] = { 94, 57, 7, 13, 70, 105, 24, 25 }; /* default [0, 127] */
	static const int64_t want_l[] = { -2032282435962401321, -8913682664259820004,
					  7392729709960833538, 1529793891446696395 };
	static const uint16_t want_s[] = { 1660, 1721, 1718, 1317, 1895 };
	int32_t *i = fill_ok(sp, "I");
	uint8_t *u = fill_ok(sp, "U");
	int8_t *c = fill_ok(sp, "C");
	int64_t *l = fill_ok(sp, "L");
	uint16_t *s = fill_ok(sp, "S");

	for (int k = 0; k < 8; k++) {
		ck_assert_int_eq(i[k], want_i[k]);
		ck_assert_uint_eq(u[k], want_u[k]);
		ck_assert_int_eq(c[k], want_c[k]);
	}
	for (int k = 0; k < 4; k++)
		ck_assert_int_eq(l[k], want_l[k]);
	for (int k = 0; k < 5; k++)
		ck_assert_uint_eq(s[k], want_s[k]);
	free(i);
	free(u);
	free(c);
	free(l);
	free(s);
	gs_space_free(sp);
}
END_TEST

/* --- random() fills: ranges ------------------------------------------------------ */

START_TEST(test_fill_random_ranges)
{
	struct gs_space *sp = load("problem N = 100000\n"
				   "input F float[N] random(seed=11, lo=-3, hi=5)\n"
				   "input D double[N] random(seed=12)\n"
				   "input I int16[N] random(seed=13, lo=-3, hi=3)\n"
				   "input U uint64[N] random(seed=14, lo=7, hi=7)\n");
	float *f = fill_ok(sp, "F");
	double *d = fill_ok(sp, "D");
	int16_t *i = fill_ok(sp, "I");
	uint64_t *u = fill_ok(sp, "U");
	double fmin = INFINITY, fmax = -INFINITY, dsum = 0;
	unsigned seen[7] = { 0 };

	for (int k = 0; k < 100000; k++) {
		ck_assert(f[k] >= -3.0f && f[k] < 5.0f);
		fmin = f[k] < fmin ? f[k] : fmin;
		fmax = f[k] > fmax ? f[k] : fmax;
		ck_assert(d[k] >= 0.0 && d[k] < 1.0);
		dsum += d[k];
		ck_assert(i[k] >= -3 && i[k] <= 3);
		seen[i[k] + 3]++;
		ck_assert_uint_eq(u[k], 7);
	}
	/* both ends of the inclusive integer range are reached, evenly */
	for (int v = 0; v < 7; v++)
		ck_assert_msg(seen[v] > 13000 && seen[v] < 15600, "value %d seen %u times", v - 3,
			      seen[v]);
	ck_assert(fmin < -2.99 && fmax > 4.99);
	ck_assert_double_eq_tol(dsum / 100000, 0.5, 0.01);
	free(f);
	free(d);
	free(i);
	free(u);
	gs_space_free(sp);
}
END_TEST

START_TEST(test_fill_random_never_hi)
{
	/* [1, 1 + one ulp): every draw that rounds up to hi must come back to 1 */
	struct gs_space *sp = load("problem N = 1000\n"
				   "input D double[N] random(seed=1, lo=1, hi=1 + 2.0**-52)\n"
				   "input F float[N] random(seed=1, lo=1, hi=1 + 2.0**-23)\n");
	double *d = fill_ok(sp, "D");
	float *f = fill_ok(sp, "F");

	for (int k = 0; k < 1000; k++) {
		ck_assert_msg(d[k] == 1.0, "D[%d] = %a", k, d[k]);
		ck_assert_msg(f[k] == 1.0f, "F[%d] = %a", k, f[k]);
	}
	free(d);
	free(f);
	gs_space_free(sp);
}
END_TEST

START_TEST(test_fill_random_errors)
{
	FILL_FAILS("problem N = 4\ninput A uint8[N] random(seed=1, lo=0, hi=256)\n", "A",
		   "t.space:2:", "hi = 256", "outside uint8's range [0, 255]");
	FILL_FAILS("problem N = 4\ninput A int8[N] random(seed=1, lo=-129)\n", "A",
		   "lo = -129", "outside int8's range [-128, 127]");
	FILL_FAILS("problem N = 4\ninput A uint64[N] random(seed=1, lo=-1)\n", "A",
		   "outside uint64's range [0, 18446744073709551615]");
	FILL_FAILS("problem N = 4\ninput A int32[N] random(seed=1, lo=10, hi=9)\n", "A",
		   "lo <= hi", "lo = 10, hi = 9");
	FILL_FAILS("problem N = 4\ninput A int32[N] random(seed=1, lo=0.5)\n", "A",
		   "lo must be an integer");
	FILL_FAILS("problem N = 4\ninput A float[N] random(seed=1, lo=2, hi=2)\n", "A",
		   "lo < hi");
	FILL_FAILS("problem N = 4\ninput A float[N] random(seed=1, hi=1e300)\n", "A",
		   "float's range");
	FILL_FAILS("problem N = 4\ninput A float[N] random(seed=0.5)\n", "A",
		   "seed must be an integer");
	FILL_FAILS("problem N = 4\ninput A float[N] random(seed=1 // (N - 4))\n", "A",
		   "t.space:2:", "buffer 'A'", "random() seed");
}
END_TEST

/* --- value(), index(), zero, file() ----------------------------------------------- */

START_TEST(test_fill_value_and_zero)
{
	struct gs_space *sp = load("problem N = 5\n"
				   "input V double[N] value(N / 2)\n"
				   "input W uint32[N] value(2**32 - 1)\n"
				   "input X int16[N] value(4.0)\n"
				   "input Z float[N] zero\n"
				   "output O int64[N]\n"
				   "input E float[0] value(1)\n");
	double *v = fill_ok(sp, "V");
	uint32_t *w = fill_ok(sp, "W");
	int16_t *x = fill_ok(sp, "X");
	float *z = fill_ok(sp, "Z");
	int64_t *o = fill_ok(sp, "O");
	void *e = fill_ok(sp, "E");

	for (int k = 0; k < 5; k++) {
		ck_assert(v[k] == 2.5);
		ck_assert_uint_eq(w[k], UINT32_MAX);
		ck_assert_int_eq(x[k], 4);
		ck_assert(float_bits(z[k]) == 0);
		ck_assert_int_eq(o[k], 0);
	}
	free(v);
	free(w);
	free(x);
	free(z);
	free(o);
	free(e);
	gs_space_free(sp);
}
END_TEST

START_TEST(test_fill_index)
{
	struct gs_space *sp = load("problem N = 1000\n"
				   "input A int32[N] index(i * 2 - N)\n"
				   "input B float[N] index(i / 4)\n"
				   "input C uint8[N] index(i % 256)\n"
				   "input D double[N] index(N + 1)\n"
				   "input E int8[N] index(-1 if i % 2 else 1)\n"
				   "input F float[N] index(i % 3 == 0)\n");
	int32_t *a = fill_ok(sp, "A");
	float *b = fill_ok(sp, "B");
	uint8_t *c = fill_ok(sp, "C");
	double *d = fill_ok(sp, "D");
	int8_t *e = fill_ok(sp, "E");
	float *f = fill_ok(sp, "F");

	for (int k = 0; k < 1000; k++) {
		ck_assert_int_eq(a[k], k * 2 - 1000);
		ck_assert(b[k] == (float)k / 4);
		ck_assert_uint_eq(c[k], k % 256);
		ck_assert(d[k] == 1001.0);
		ck_assert_int_eq(e[k], k % 2 ? -1 : 1);
		ck_assert(f[k] == (k % 3 == 0 ? 1.0f : 0.0f));
	}
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
	free(f);
	gs_space_free(sp);
}
END_TEST

START_TEST(test_fill_value_errors)
{
	/* the failing element is named, with the expression's own message */
	FILL_FAILS("problem N = 10\ninput A float[N] index(1 / (i - 7))\n", "A", "t.space:2:",
		   "buffer 'A', element 7", "zero");
	/* out of the type's range: an error, never a wrapped value */
	FILL_FAILS("problem N = 300\ninput A uint8[N] index(i)\n", "A", "t.space:2:24:",
		   "element 256", "256 is outside uint8's range [0, 255]");
	FILL_FAILS("problem N = 3\ninput A int16[N] index(-32768 - i)\n", "A", "element 1",
		   "-32769 is outside int16's range [-32768, 32767]");
	FILL_FAILS("problem N = 3\ninput A uint32[N] value(-1)\n", "A", "buffer 'A', value()",
		   "-1 is outside uint32's range");
	FILL_FAILS("problem N = 3\ninput A int32[N] index(i + 0.5)\n", "A", "element 0",
		   "0.5 is not an integer");
	FILL_FAILS("problem N = 3\ninput A float[N] value(1e39)\n", "A", "outside float's range");
	FILL_FAILS("problem N = 3\ninput A double[N] index('x' if i == 2 else 1)\n", "A",
		   "element 2", "str");
}
END_TEST

START_TEST(test_fill_index_16m)
{
	/* 16M per-element evaluations in a few seconds at most: the space's
	 * bytecode with one reused evaluator (the test timeout bounds it) */
	struct gs_space *sp = load("problem N = 4096\n"
				   "input A float[N * N] index((i % 1000) * 0.25 - 7)\n"
				   "input B int32[N * N] index(i // 3 - i % 5)\n");
	double t0 = gs_now();
	float *a = fill_ok(sp, "A");
	double t1 = gs_now();
	int32_t *b = fill_ok(sp, "B");
	double t2 = gs_now();

	printf("test_data: note: 16M-element index() fills took %.2f s (float), %.2f s (int32)\n",
	       t1 - t0, t2 - t1);
	for (int64_t k = 0; k < 4096 * 4096; k += 4093) {
		ck_assert(a[k] == (float)((k % 1000) * 0.25 - 7));
		ck_assert_int_eq(b[k], k / 3 - k % 5);
	}
	ck_assert_int_eq(b[4096 * 4096 - 1], (4096 * 4096 - 1) / 3 - (4096 * 4096 - 1) % 5);
	free(a);
	free(b);
	gs_space_free(sp);
}
END_TEST

static char *write_tmp(const void *p, size_t n)
{
	const char *base = getenv("TMPDIR");
	char *path = gs_xasprintf("%s/gs_data_XXXXXX", base && *base ? base : "/tmp");
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, p, n), (ssize_t)n);
	close(fd);
	return path;
}

START_TEST(test_fill_file)
{
	const uint8_t bytes[16] = { 1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 0x80, 4, 3, 2, 1 };
	char *path = write_tmp(bytes, sizeof bytes);
	char *text = gs_xasprintf("problem N = 4\n"
				  "input A int32[N] file(\"%s\")\n"
				  "input B int32[N + 1] file(\"%s\")\n"
				  "input C uint16[N * 2] file(\"%s\")\n"
				  "input D int32[N] file(\"%s.missing\")\n",
				  path, path, path, path);
	struct gs_space *sp = load(text);
	int32_t *a = fill_ok(sp, "A");
	uint16_t *c = fill_ok(sp, "C");
	char err[512];

	ck_assert_int_eq(a[0], 1);
	ck_assert_int_eq(a[1], -2);
	ck_assert_int_eq(a[2], INT32_MIN);
	ck_assert_int_eq(a[3], 0x01020304);
	ck_assert_uint_eq(c[7], 0x0102);
	/* one element more than the file holds: both sizes named */
	ck_assert_ptr_null(fill(sp, "B", err, sizeof err));
	ck_assert_msg(strstr(err, "holds 16 bytes") && strstr(err, "5 int32 elements take 20"),
		      "%s", err);
	ck_assert_ptr_null(fill(sp, "D", err, sizeof err));
	ck_assert_msg(strstr(err, "cannot open") && strstr(err, ".missing"), "%s", err);
	free(a);
	free(c);
	gs_space_free(sp);
	unlink(path);
	free(path);
	free(text);
}
END_TEST

START_TEST(test_fill_file_not_regular)
{
	/* a FIFO with no writer must not hang the fill (the test timeout
	 * would catch it), and a device is not data.  check refuses both, so
	 * they replace regular files once the space is loaded: the fill
	 * refuses them again */
	char *fifo = write_tmp("", 0), *dev = write_tmp("", 0);
	char *text = gs_xasprintf("problem N = 4\n"
				  "input A int32[N] file(\"%s\")\n"
				  "input B int32[N] file(\"%s\")\n",
				  fifo, dev);
	struct gs_space *sp = load(text);
	char err[512];
	unlink(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	unlink(dev);
	ck_assert_int_eq(symlink("/dev/zero", dev), 0);

	ck_assert_ptr_null(fill(sp, "A", err, sizeof err));
	ck_assert_msg(strstr(err, "is not a regular file") && !strstr(err, ": No such"), "%s", err);
	ck_assert_ptr_null(fill(sp, "B", err, sizeof err));
	ck_assert_msg(strstr(err, "is not a regular file"), "%s", err);
	gs_space_free(sp);
	unlink(fifo);
	unlink(dev);
	free(fifo);
	free(dev);
	free(text);
}
END_TEST

START_TEST(test_fill_err_truncated)
{
	/* a short error buffer is cut, never overrun */
	struct gs_space *sp = load("problem N = 300\ninput A uint8[N] index(i)\n");
	char err[16];

	memset(err, 'x', sizeof err);
	ck_assert_ptr_null(fill(sp, "A", err, 10));
	ck_assert_uint_eq(strlen(err), 9);
	ck_assert_int_eq(err[10], 'x');
	gs_space_free(sp);
}
END_TEST

/* --- comparison --------------------------------------------------------------------- */

START_TEST(test_compare_floats)
{
	const float ref[] = { 1, -2, 0, 1000, 0.5f };
	float out[] = { 1, -2, 0, 1000, 0.5f };
	struct gs_cmp c;

	gs_compare(GS_BT_FLOAT, out, ref, 5, 0, &c);
	ck_assert_uint_eq(c.bad, 0);
	ck_assert(c.max_abs == 0 && c.max_rel == 0 && c.first_bad == 0);
	/* within tol * max(1, |ref|): absolute below 1, relative above */
	out[0] = 1.0009765625f;  /* 2^-10 off */
	out[3] = 1000.9765625f;  /* 0.9765625 off: rel 9.77e-4 */
	gs_compare(GS_BT_FLOAT, out, ref, 5, 1e-3, &c);
	ck_assert_uint_eq(c.bad, 0);
	ck_assert(c.max_abs == 0.9765625);
	ck_assert(c.max_rel == 0x1p-10);
	/* tighter: both fail; the first is reported */
	gs_compare(GS_BT_FLOAT, out, ref, 5, 5e-4, &c);
	ck_assert_uint_eq(c.bad, 2);
	ck_assert_uint_eq(c.first_bad, 0);
	ck_assert(c.got == 1.0009765625 && c.want == 1.0);
	/* against an exact zero the relative error divides by FLT_MIN */
	out[0] = 1;
	out[3] = 1000;
	out[2] = 0x1p-100f;
	gs_compare(GS_BT_FLOAT, out, ref, 5, 1e-6, &c);
	ck_assert_uint_eq(c.bad, 0);
	ck_assert(c.max_abs == 0x1p-100);
	ck_assert(c.max_rel == 0x1p-100 / FLT_MIN);
	/* negative tolerance: exact; -0 equals 0 */
	out[2] = -0.0f;
	gs_compare(GS_BT_FLOAT, out, ref, 5, -1, &c);
	ck_assert_uint_eq(c.bad, 0);
	out[4] = nextafterf(0.5f, 1);
	gs_compare(GS_BT_FLOAT, out, ref, 5, -1, &c);
	ck_assert_uint_eq(c.bad, 1);
	ck_assert_uint_eq(c.first_bad, 4);
}
END_TEST

START_TEST(test_compare_nan_inf)
{
	const double ref[] = { NAN, INFINITY, -INFINITY, 1, NAN, INFINITY, 1, 3 };
	const double out[] = { NAN, INFINITY, -INFINITY, 1, 2, -INFINITY, NAN, INFINITY };
	struct gs_cmp c;

	gs_compare(GS_BT_DOUBLE, out, ref, 4, 1e-3, &c);
	ck_assert_uint_eq(c.bad, 0);
	ck_assert(c.max_abs == 0 && c.max_rel == 0);
	/* a number against NaN, inf against -inf, NaN against a number, inf against a number */
	gs_compare(GS_BT_DOUBLE, out, ref, 8, 1e9, &c);
	ck_assert_uint_eq(c.bad, 4);
	ck_assert_uint_eq(c.first_bad, 4);
	ck_assert(c.got == 2 && isnan(c.want));
	ck_assert(isinf(c.max_abs) && isinf(c.max_rel));
	/* a huge tolerance passes any finite pair */
	const double big_r[] = { -1e300, 0 }, big_o[] = { 1e300, 1e-300 };
	gs_compare(GS_BT_DOUBLE, big_o, big_r, 2, 1e9, &c);
	ck_assert_uint_eq(c.bad, 0);
	ck_assert(c.max_rel == 1e-300 / DBL_MIN);
}
END_TEST

START_TEST(test_compare_ints)
{
	struct gs_cmp c;
	const int8_t r8[] = { -128, 5, 0 }, o8[] = { 127, 5, 0 };
	const uint8_t ru8[] = { 0, 200 }, ou8[] = { 0, 201 };
	const int16_t r16[] = { 1, 2, 3 }, o16[] = { 1, 2, 3 };
	const uint16_t ru16[] = { 65535 }, ou16[] = { 0 };
	const int32_t r32[] = { 7, -100 }, o32[] = { 7, 100 };
	const uint32_t ru32[] = { 4000000000u, 0 }, ou32[] = { 4000000000u, 3 };
	const int64_t r64[] = { INT64_MIN }, o64[] = { INT64_MAX };
	const uint64_t ru64[] = { 5, UINT64_MAX }, ou64[] = { 5, 0 };

	gs_compare(GS_BT_INT8, o8, r8, 3, 1e9, &c); /* tol ignored */
	ck_assert_uint_eq(c.bad, 1);
	ck_assert(c.max_abs == 255 && c.max_rel == 255.0 / 128 && c.got == 127 && c.want == -128);
	gs_compare(GS_BT_UINT8, ou8, ru8, 2, 0, &c);
	ck_assert(c.bad == 1 && c.first_bad == 1 && c.max_abs == 1 && c.max_rel == 1.0 / 200);
	gs_compare(GS_BT_INT16, o16, r16, 3, 0, &c);
	ck_assert(c.bad == 0 && c.max_abs == 0);
	gs_compare(GS_BT_UINT16, ou16, ru16, 1, 0, &c);
	ck_assert(c.bad == 1 && c.max_abs == 65535 && c.got == 0 && c.want == 65535);
	gs_compare(GS_BT_INT32, o32, r32, 2, 0, &c);
	ck_assert(c.bad == 1 && c.first_bad == 1 && c.max_abs == 200 && c.max_rel == 2);
	gs_compare(GS_BT_UINT32, ou32, ru32, 2, 0, &c);
	/* ref 0: relative error divides by 1 */
	ck_assert(c.bad == 1 && c.first_bad == 1 && c.max_abs == 3 && c.max_rel == 3);
	gs_compare(GS_BT_INT64, o64, r64, 1, 0, &c);
	ck_assert(c.bad == 1 && c.max_abs == 0x1p64 && c.max_rel == 0x1p64 / 0x1p63);
	gs_compare(GS_BT_UINT64, ou64, ru64, 2, 0, &c);
	ck_assert(c.bad == 1 && c.first_bad == 1 && c.max_abs == 0x1p64 && c.want == 0x1p64);
	gs_compare(GS_BT_UINT64, ou64, ru64, 0, 0, &c);
	ck_assert(c.bad == 0 && c.max_abs == 0);
}
END_TEST

/* --- statistics ---------------------------------------------------------------------- */

/* The expected values are numpy's: np.median(a), np.percentile(a, [25, 75])
 * (method 'linear': position q * (n - 1), interpolated), worked out by hand. */
START_TEST(test_stats)
{
	struct gs_stats s;
	double one[] = { 4.5 };
	double odd[] = { 5, 1, 4, 2, 3 };
	double even[] = { 4, 3, 2, 1 };
	double six[] = { 60, 10, 50, 20, 40, 30 };
	double two[] = { 3, 1 };
	double seven[] = { 7, 1, 2, 9, 3, 8, 100 };

	gs_stats(one, 1, &s);
	ck_assert(s.n == 1 && s.median == 4.5 && s.min == 4.5 && s.max == 4.5 && s.q1 == 4.5 &&
		  s.q3 == 4.5 && s.iqr == 0);
	gs_stats(odd, 5, &s); /* positions 1 and 3: exact elements */
	ck_assert(s.median == 3 && s.min == 1 && s.max == 5 && s.q1 == 2 && s.q3 == 4 && s.iqr == 2);
	for (int k = 0; k < 5; k++) /* sorted in place */
		ck_assert(odd[k] == k + 1);
	gs_stats(even, 4, &s); /* positions 0.75 and 2.25 */
	ck_assert(s.median == 2.5 && s.q1 == 1.75 && s.q3 == 3.25 && s.iqr == 1.5);
	gs_stats(six, 6, &s); /* positions 1.25 and 3.75 */
	ck_assert(s.median == 35 && s.q1 == 22.5 && s.q3 == 47.5 && s.iqr == 25);
	ck_assert(s.min == 10 && s.max == 60 && s.n == 6);
	gs_stats(two, 2, &s); /* positions 0.25 and 0.75 */
	ck_assert(s.median == 2 && s.q1 == 1.5 && s.q3 == 2.5);
	gs_stats(seven, 7, &s); /* 1 2 3 7 8 9 100: positions 1.5 and 4.5 */
	ck_assert(s.median == 7 && s.q1 == 2.5 && s.q3 == 8.5 && s.iqr == 6 && s.max == 100);
	gs_stats(NULL, 0, &s);
	ck_assert(s.n == 0 && isnan(s.median) && isnan(s.q1) && isnan(s.iqr));
}
END_TEST

GS_TEST_MAIN(test_random_is_splitmix64, test_random_is_counter_based,
	     test_fill_random_float_golden, test_fill_random_double_golden,
	     test_fill_random_int_golden, test_fill_random_ranges, test_fill_random_never_hi,
	     test_fill_random_errors, test_fill_value_and_zero, test_fill_index,
	     test_fill_value_errors, test_fill_index_16m, test_fill_file, test_fill_file_not_regular,
	     test_fill_err_truncated,
	     test_compare_floats, test_compare_nan_inf, test_compare_ints, test_stats)
