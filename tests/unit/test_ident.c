/* test_ident.c — the identity of a result (sched/ident.h): every ingredient
 * that determines an outcome changes it, and no edit that changes nothing
 * measured does.
 *
 * Each case edits one line of a base space (or its kernel, or the sweep's
 * options) and compares the identity of one configuration, TILE=16
 * UNROLL=2, with the base's.  Identities are computed as the sweep does:
 * the variant from gen/variant.c, then gs_ident_config. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/variant.h"
#include "harness.h"
#include "sched/ident.h"
#include "space/enum.h"
#include "space/load.h"
#include "util/util.h"

static const char BASE[] =
	"# a space for identities\n"
	"kernel k from \"k.cu\"\n"
	"problem N = 1024\n"
	"problem M = 4\n"
	"param TILE   in [8, 16, 32]\n"
	"param UNROLL in [1, 2, 4]\n"
	"param SPARE  in [0, 1]  nodefine\n"
	"let THREADS = TILE * 2\n"
	"let PAD = TILE + 1\n"
	"require N % TILE == 0\n"
	"block THREADS\n"
	"grid N // TILE\n"
	"input  A float[N] random(seed=1)\n"
	"input  B int32[N] index(i % 7)\n"
	"output C float[N] tolerance 1e-3\n"
	"launch k(A, B, C, N, M) shared PAD * 4 for j in range(M) copy A[j * 4:(j + 1) * 4] to cA\n"
	"reference kref(A, B, C, N) block 32 grid N // 32\n"
	"baseline TILE=8, UNROLL=1, SPARE=0\n"
	"metric gflops = 2.0 * N / (time_ms * 1e6) higher\n";

static const char KERNEL[] = "__constant__ float cA[4];\n"
			     "extern \"C\" __global__ void k(const float *a, const int *b, float *c,"
			     " int n, int m) {}\n"
			     "extern \"C\" __global__ void kref(const float *a, const int *b, float *c,"
			     " int n) {}\n";

struct setup {
	const char *space, *kernel;
	const char *device;
	struct gs_stop_policy stop;
	int flush_l2;
	int emu_sample;
	const char *nvrtc; /* version */
	const char *const *sets;
	size_t nsets;
	int spare;         /* the SPARE value of the configuration compared */
};

static struct setup base(void)
{
	return (struct setup){ .space = BASE, .kernel = KERNEL, .device = "emu:sm_90",
			       .stop = gs_stop_default, .nvrtc = "13.0", .spare = 0 };
}

/* The identity of TILE=16 UNROLL=2 SPARE=s.spare under s, into out. */
static void ident_of(const struct setup *s, char out[33])
{
	struct gs_diag d = GS_DIAG_INIT;
	struct gs_file_text f = { "k.cu", s->kernel, strlen(s->kernel) };
	struct gs_space_opts o = { .sets = s->sets, .nsets = s->nsets, .files = &f, .nfiles = 1 };
	struct gs_source *src = gs_source_new("t.space", s->space, strlen(s->space));
	struct gs_space *sp = gs_space_parse(src, &o, &d);
	ck_assert_msg(sp && d.errors == 0, "space has errors: %s", d.n ? d.msgs[0].text : "?");
	gs_diag_release(&d);

	struct gs_ident_opts io = { .device = s->device, .stop = s->stop, .flush_l2 = s->flush_l2,
				    .nvrtc_version = s->nvrtc, .emu_sample = s->emu_sample };
	struct gs_ident *id = gs_ident_new(sp, &io);
	struct gs_enum e;
	struct gs_vm vm;
	int found = 0;
	gs_vm_init(&vm);
	ck_assert_int_eq(gs_enum_init(&e, sp, 0, 1), 0);
	while (!found && gs_enum_next(&e) > 0) {
		struct gs_buf b = GS_BUF_INIT;
		char want[64];
		gs_config_describe(sp, e.env, sp->nparams, " ", &b);
		snprintf(want, sizeof want, "TILE=16 UNROLL=2 SPARE=%d", s->spare);
		if (!strcmp(gs_buf_str(&b), want)) {
			struct gs_variant v;
			char err[256];
			ck_assert_msg(gs_variant_build(sp, e.env, "sm_90", s->nvrtc, &vm, &v, err,
						       sizeof err) == 0, "%s", err);
			gs_ident_config(id, e.env, &v, out);
			gs_variant_release(&v);
			found = 1;
		}
		gs_buf_release(&b);
	}
	ck_assert_msg(found, "no configuration TILE=16 UNROLL=2 SPARE=%d", s->spare);
	gs_enum_release(&e);
	gs_vm_release(&vm);
	gs_ident_free(id);
	gs_space_free(sp);
	ck_assert_int_eq((int)strlen(out), 32);
}

/* The base space with the first occurrence of `from` replaced by `to`
 * (malloc'd; the caller frees). */
static char *edit(const char *from, const char *to)
{
	const char *at = strstr(BASE, from);
	ck_assert_msg(at != NULL, "the base space has no '%s'", from);
	return gs_xasprintf("%.*s%s%s", (int)(at - BASE), BASE, to, at + strlen(from));
}

static void expect(const struct setup *s, int same, const char *what)
{
	char a[33], b[33];
	struct setup b0 = base();
	ident_of(&b0, a);
	ident_of(s, b);
	if (same)
		ck_assert_msg(!strcmp(a, b), "%s changed the identity", what);
	else
		ck_assert_msg(strcmp(a, b) != 0, "%s left the identity as it was", what);
}

static void expect_edit(const char *from, const char *to, int same)
{
	struct setup s = base();
	char *text = edit(from, to);
	char *what = gs_xasprintf("'%s' -> '%s'", from, to);
	s.space = text;
	expect(&s, same, what);
	free(what);
	free(text);
}

START_TEST(test_deterministic)
{
	char a[33], b[33];
	struct setup s = base();
	ident_of(&s, a);
	ident_of(&s, b);
	ck_assert_str_eq(a, b);
}
END_TEST

/* Edits that change nothing a measurement depends on. */
START_TEST(test_irrelevant_edits_keep_it)
{
	expect_edit("# a space for identities\n", "# another comment, longer\n\n", 1);
	expect_edit("block THREADS\n", "block   THREADS    # the block\n", 1);
	expect_edit("param TILE   in [8, 16, 32]", "param TILE in [8, 16, 32, 64]", 1);
	expect_edit("param UNROLL in [1, 2, 4]", "param UNROLL in [4, 2, 1, 8]", 1);
	expect_edit("require N % TILE == 0\n", "require N % TILE == 0\nrequire UNROLL <= TILE\n", 1);
	expect_edit("let THREADS = TILE * 2\nlet PAD = TILE + 1\n",
		    "let PAD = TILE + 1\nlet THREADS = TILE * 2\n", 1);
	expect_edit("problem N = 1024\nproblem M = 4\n", "problem M = 4\nproblem N = 1024\n", 1);
	expect_edit("baseline TILE=8, UNROLL=1, SPARE=0", "baseline TILE=32, UNROLL=4, SPARE=1", 1);
	expect_edit("grid N // TILE", "grid (N // TILE)", 1);
	/* a parameter that reaches neither the compiler nor a launch */
	struct setup s = base();
	s.spare = 1;
	expect(&s, 1, "another value of a nodefine parameter nothing reads");
	/* comments and blanks of the kernel */
	char *k = gs_xasprintf("/* a comment,\n   two lines */\n%s// edited\n\n\n", KERNEL);
	s = base();
	s.kernel = k;
	expect(&s, 1, "comments added to the kernel");
	free(k);
	s.kernel = "__constant__   float cA[4];   // the constants\n"
		   "extern \"C\"\n__global__ void k(const float *a, const int *b, float *c,"
		   " int n,\tint m) {}\n"
		   "extern \"C\" __global__ void kref(const float *a, const int *b, float *c,"
		   " int n) {}/**/";
	expect(&s, 1, "the kernel's blanks and line breaks");
}
END_TEST

static int same_key(const char *a, const char *b)
{
	char x[33], y[33];
	gs_source_key_hash(a, strlen(a), x);
	gs_source_key_hash(b, strlen(b), y);
	return !strcmp(x, y);
}

/* What a compile depends on stays in the key. */
START_TEST(test_source_key)
{
	ck_assert(same_key("int a; // x\nint b;", "int a;\n\n  int b; /* y */"));
	ck_assert(same_key("#define A 1 // one\nint x = A;", "#define A   1\n\nint x=A;") == 0);
	ck_assert(same_key("#define A 1 // one\nint x = A;", "#define A 1 /* one */\n  int x = A;"));
	/* blanks that separate tokens, literals and directives */
	ck_assert(!same_key("int a b;", "int ab;"));
	ck_assert(!same_key("#define F (x) x\n", "#define F(x) x\n"));
	ck_assert(!same_key("const char *s = \"a  b\";", "const char *s = \"a b\";"));
	ck_assert(!same_key("const char *s = \"a // b\";", "const char *s = \"a \";"));
	ck_assert(!same_key("char c = ' ';", "char c = '\t';"));
	ck_assert(!same_key("#define A 1\nint x;", "#define A 1 int x;"));
	ck_assert(!same_key("int x;\n#define A 1", "int x; #define A 1"));
	ck_assert(same_key("int x = 1'000; // a\n", "int x = 1'000;"));
	ck_assert(!same_key("int x = 1'000; char c = ' ';", "int x = 1'000; char c = '  ';"));
	/* a splice inside a line comment continues it */
	ck_assert(same_key("int a; // x \\\nint b;\nint c;", "int a;\nint c;"));
	/* line numbers reach the code through __LINE__, assert and headers */
	ck_assert(!same_key("int l = __LINE__;", "\nint l = __LINE__;"));
	ck_assert(!same_key("// one\nint l = __LINE__;", "/* one */ int l = __LINE__;"));
	ck_assert(same_key("int l = __LINE__; // one", "int l = __LINE__;   /* two */"));
	ck_assert(!same_key("#include \"h.h\"\nint a;", "#include \"h.h\"\n\nint a;"));
	ck_assert(!same_key("void f() { assert(0); }", "\nvoid f() { assert(0); }"));
	/* a raw string keeps everything */
	ck_assert(!same_key("auto s = R\"(a)\"; // x", "auto s = R\"(a)\";"));
}
END_TEST

/* Each ingredient of a result changes it. */
START_TEST(test_each_ingredient_changes_it)
{
	/* the variant: kernel source, defines, options, entries */
	struct setup s = base();
	char *k = gs_xasprintf("%s__device__ int edited;\n", KERNEL);
	s.kernel = k;
	expect(&s, 0, "a changed kernel file");
	free(k);
	expect_edit("param SPARE  in [0, 1]  nodefine", "param SPARE  in [0, 1]", 0);
	expect_edit("let PAD = TILE + 1\n", "let PAD = TILE + 1\noption \"-use_fast_math\"\n", 0);
	s = base();
	s.nvrtc = "12.4";
	expect(&s, 0, "another NVRTC");
	/* the launch sequence */
	expect_edit("block THREADS", "block THREADS, 2", 0);
	expect_edit("grid N // TILE", "grid N // TILE + 1", 0);
	expect_edit("shared PAD * 4", "shared PAD * 8", 0);
	expect_edit("launch k(A, B, C, N, M)", "launch k(A, B, C, N, 3)", 0);
	expect_edit("launch k(A, B, C, N, M)", "launch k(A, A, C, N, M)", 0);
	expect_edit("for j in range(M)", "for j in range(M - 1)", 0);
	expect_edit("copy A[j * 4:(j + 1) * 4]", "copy A[j:j + 4]", 0);
	expect_edit("let THREADS = TILE * 2", "let THREADS = TILE * 4", 0);
	/* the buffers and problem values */
	expect_edit("random(seed=1)", "random(seed=2)", 0);
	expect_edit("index(i % 7)", "index(i % 5)", 0);
	expect_edit("input  A float[N]", "input  A float[N + 8]", 0);
	expect_edit("tolerance 1e-3", "tolerance 1e-4", 0);
	expect_edit("problem M = 4", "problem M = 4\nproblem Q = 1", 0);
	s = base();
	const char *sets[] = { "M=4" };
	s.sets = sets;
	s.nsets = 1;
	expect(&s, 1, "--set to the value the space has");
	const char *sets2[] = { "M=2" };
	s.sets = sets2;
	expect(&s, 0, "--set M=2");
	/* the reference and the validation */
	expect_edit("reference kref(A, B, C, N) block 32", "reference kref(A, B, C, N) block 64", 0);
	expect_edit("reference kref(A, B, C, N) block 32 grid N // 32\n", "", 0);
	/* the reference runs with the defaults a launch does not override,
	 * evaluated at the baseline: here the shared memory, by TILE */
	char *t = edit("reference kref(A, B, C, N) block 32 grid N // 32\n",
		       "reference kref(A, B, C, N) block 32 grid N // 32\nshared TILE * 4\n");
	s = base();
	s.space = t;
	char a[33], b[33];
	ident_of(&s, a);
	char *t2 = gs_xasprintf("%.*sbaseline TILE=32%s", (int)(strstr(t, "baseline TILE=8") - t), t,
				strstr(t, "baseline TILE=8") + strlen("baseline TILE=8"));
	s.space = t2;
	ident_of(&s, b);
	ck_assert_msg(strcmp(a, b) != 0, "a baseline the reference depends on left the identity");
	free(t);
	free(t2);
	/* the metrics */
	expect_edit("2.0 * N", "4.0 * N", 0);
	/* the device and the measurement options */
	s = base();
	s.device = "emu:g80";
	expect(&s, 0, "another device");
	s = base();
	s.stop.precision /= 2;
	expect(&s, 0, "another precision");
	s = base();
	s.stop.focus = 0;
	expect(&s, 0, "focus off");
	s = base();
	s.stop.max_time_s *= 2;
	expect(&s, 0, "another max time");
	s = base();
	s.flush_l2 = 1;
	expect(&s, 0, "--flush-l2");
	s = base();
	s.emu_sample = 4;
	expect(&s, 0, "another --emu-sample on an emulated device");
}
END_TEST

GS_TEST_MAIN(test_deterministic, test_irrelevant_edits_keep_it, test_each_ingredient_changes_it,
	     test_source_key)
