/* test_gen.c — variant generation: NVRTC through dlopen, resources read from
 * the cubin ELF against those ptxas -v reports, and the ELF reader on
 * truncated and corrupted cubins.
 *
 * Tests that need NVRTC pass with a printed note where it cannot be loaded.
 * GS_TEST_VERBOSE=1 prints each matmul variant's resources and compile time. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/validate.h"
#include "dev/emu/model/model.h"
#include "gen/gen.h"
#include "harness.h"
#include "nvrtc.h"
#include "util/util.h"

static const char *const MATMUL = "kernels/matmul.cu";

static char *read_text(const char *path)
{
	char *text = NULL;
	size_t len = 0;

	ck_assert_msg(gs_read_file(path, &text, &len) == 0, "cannot read %s", path);
	return text;
}

static int verbose(void)
{
	const char *v = getenv("GS_TEST_VERBOSE");

	return v && *v && strcmp(v, "0") != 0;
}

/* Compile source for `arch` with -D defines (NULL-terminated) and extra
 * options; ptxas -v always on.  Asserts that NVRTC ran and the source
 * compiled. */
static void compile_ok(struct gs_nvrtc *n, const char *name, const char *source, int arch,
		       const char *const *defines, const char *extra, const char *const *names,
		       size_t nnames, struct gs_compile_out *out)
{
	const char *opts[32];
	char archopt[32];
	size_t nopts = 0;
	struct gs_compile_in in = { 0 };
	int rc;

	snprintf(archopt, sizeof archopt, "-arch=sm_%d", arch);
	for (; defines && *defines; defines++)
		opts[nopts++] = *defines;
	opts[nopts++] = "--ptxas-options=-v";
	opts[nopts++] = archopt;
	if (extra)
		opts[nopts++] = extra;
	in.name = name;
	in.source = source;
	in.opts = opts;
	in.nopts = nopts;
	in.name_exprs = names;
	in.nnames = nnames;
	in.want_ptx = 1;
	in.want_cubin = 1;
	rc = gs_nvrtc_compile(n, &in, out);
	ck_assert_msg(rc == 0, "nvrtc failed: %s", out->log);
	ck_assert_msg(out->ok, "%s does not compile for sm_%d:\n%s", name, arch, out->log);
	ck_assert_ptr_nonnull(out->cubin);
	ck_assert_uint_gt(out->cubin_len, 0);
	ck_assert_int_eq(gs_cubin_arch(out->cubin, out->cubin_len), arch);
}

/* Resources of `entry` from the cubin and from the log must agree on every
 * figure both carry; returns the cubin's. */
static struct gs_resources agree(const struct gs_compile_out *out, const char *entry, const char *what)
{
	struct gs_resources c, l;
	char err[256];

	ck_assert_msg(gs_cubin_resources(out->cubin, out->cubin_len, entry, &c, err, sizeof err) == 0,
		      "%s: %s", what, err);
	memset(&l, 0x55, sizeof l);
	ck_assert_msg(gs_ptxas_log_resources(out->log, entry, &l) == 0, "%s: no ptxas lines for %s in\n%s",
		      what, entry, out->log);
	ck_assert_msg(c.registers == l.registers, "%s %s: registers cubin %d, ptxas %d", what, entry,
		      c.registers, l.registers);
	ck_assert_msg(c.static_smem == l.static_smem, "%s %s: smem cubin %d, ptxas %d", what, entry,
		      c.static_smem, l.static_smem);
	ck_assert_msg(c.local_bytes == l.local_bytes, "%s %s: frame cubin %d, ptxas %d", what, entry,
		      c.local_bytes, l.local_bytes);
	ck_assert_msg(c.stack_bytes == l.stack_bytes, "%s %s: stack cubin %d, ptxas %d", what, entry,
		      c.stack_bytes, l.stack_bytes);
	ck_assert_msg(c.barriers == l.barriers, "%s %s: barriers cubin %d, ptxas %d", what, entry,
		      c.barriers, l.barriers);
	ck_assert_int_gt(c.registers, 0);
	ck_assert_int_ge(l.spill_stores, 0);
	ck_assert_int_ge(l.spill_loads, 0);
	ck_assert_int_eq(c.spill_stores, -1);
	return c;
}

/* --- loading ----------------------------------------------------------------- */

START_TEST(test_load_missing_names_where_it_looked)
{
	const char *dirs[] = { "/nonexistent/gs-cuda-a/lib64", NULL, "/nonexistent/gs-cuda-b/lib64" };
	struct gs_nvrtc *n = (struct gs_nvrtc *)1;
	char err[1024];

	ck_assert_int_eq(gs_nvrtc_load_from(&n, dirs, 3, 0, err, sizeof err), -1);
	ck_assert_ptr_null(n);
	ck_assert_msg(strstr(err, "cannot load NVRTC") && strstr(err, "libnvrtc.so.13") &&
			      strstr(err, "libnvrtc.so.12") && strstr(err, "/nonexistent/gs-cuda-a/lib64") &&
			      strstr(err, "/nonexistent/gs-cuda-b/lib64") && !strstr(err, "loader"),
		      "%s", err);
	ck_assert_ptr_null(strchr(err, '\n'));
}
END_TEST

START_TEST(test_load_version_and_archs)
{
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, "test_load_version_and_archs");
	int archs[256], major = 0, minor = -1, have75 = 0, have90 = 0;
	size_t k, count;

	if (!n)
		return;
	ck_assert_int_eq(sscanf(gs_nvrtc_version(n), "%d.%d", &major, &minor), 2);
	ck_assert_int_ge(major, 12);
	ck_assert_int_ge(minor, 0);
	ck_assert_ptr_nonnull(strstr(gs_nvrtc_path(n), "libnvrtc"));
	count = gs_nvrtc_archs(n, archs, GS_ARRAY_SIZE(archs));
	ck_assert_uint_gt(count, 0);
	ck_assert_uint_le(count, GS_ARRAY_SIZE(archs));
	for (k = 0; k < count; k++) {
		have75 |= archs[k] == 75;
		have90 |= archs[k] == 90;
		if (k)
			ck_assert_int_gt(archs[k], archs[k - 1]);
	}
	ck_assert(have90);
	ck_assert(major > 12 || have75);
	/* Only the count when there is no room. */
	ck_assert_uint_eq(gs_nvrtc_archs(n, archs, 0), count);
	gs_nvrtc_unload(n);
}
END_TEST

/* --- compiling ---------------------------------------------------------------- */

START_TEST(test_one_compile_gives_ptx_and_cubin)
{
	static const char *const defs[] = { "-DTILE=16", "-DRECT=1", "-DUNROLL=16", "-DPREFETCH=1", NULL };
	static const char *const names[] = { "matmul", "matmul_naive" };
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, "test_one_compile_gives_ptx_and_cubin");
	struct gs_compile_out out;
	struct gs_resources r;
	char *src;

	if (!n)
		return;
	src = read_text(MATMUL);
	compile_ok(n, "matmul.cu", src, 90, defs, NULL, names, 2, &out);
	ck_assert_ptr_nonnull(out.ptx);
	ck_assert_uint_eq(out.ptx_len, strlen(out.ptx));
	ck_assert_ptr_nonnull(strstr(out.ptx, ".target sm_90"));
	ck_assert_ptr_nonnull(strstr(out.ptx, ".entry matmul("));
	ck_assert_str_eq(out.lowered[0], "matmul");
	ck_assert_str_eq(out.lowered[1], "matmul_naive");
	ck_assert(out.seconds > 0 && out.seconds < 120);
	r = agree(&out, "matmul", "baseline");
	/* As[16][16] + Bs[16][16] floats, one __syncthreads pair: one barrier. */
	ck_assert_int_eq(r.static_smem, 2 * 16 * 16 * 4);
	ck_assert_int_eq(r.barriers, 1);
	ck_assert_int_eq(r.max_threads, 0);
	ck_assert_int_eq(r.const_bytes, 0);
	r = agree(&out, "matmul_naive", "baseline");
	ck_assert_int_eq(r.static_smem, 0);
	ck_assert_int_eq(r.barriers, 0);
	printf("test_gen: matmul baseline for sm_90: one compile, %zu bytes PTX + %zu bytes cubin, %.3f s\n",
	       out.ptx_len, out.cubin_len, out.seconds);
	gs_compile_out_release(&out, 2);
	ck_assert_ptr_null(out.log);
	free(src);
	gs_nvrtc_unload(n);
}
END_TEST

/* TILE x RECT x UNROLL x PREFETCH, with or without -maxrregcount=32. */
static void matmul_grid(int maxrreg)
{
	static const int tiles[] = { 8, 16, 32 }, rects[] = { 1, 2, 4 }, unrolls[] = { 1, 4 },
			 prefetches[] = { 0, 1 };
	const char *test = maxrreg ? "test_matmul_grid_maxrreg32" : "test_matmul_grid";
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, test);
	double sum = 0, lo = 1e9, hi = 0;
	int count = 0;
	char *src;

	if (!n)
		return;
	src = read_text(MATMUL);
	for (size_t t = 0; t < 3; t++)
		for (size_t q = 0; q < 3; q++)
			for (size_t u = 0; u < 2; u++)
				for (size_t p = 0; p < 2; p++) {
					char d[4][32], what[96];
					const char *defs[5] = { d[0], d[1], d[2], d[3], NULL };
					struct gs_compile_out out;
					struct gs_resources r;

					snprintf(d[0], 32, "-DTILE=%d", tiles[t]);
					snprintf(d[1], 32, "-DRECT=%d", rects[q]);
					snprintf(d[2], 32, "-DUNROLL=%d", unrolls[u]);
					snprintf(d[3], 32, "-DPREFETCH=%d", prefetches[p]);
					snprintf(what, sizeof what, "TILE=%d RECT=%d UNROLL=%d PREFETCH=%d%s",
						 tiles[t], rects[q], unrolls[u], prefetches[p],
						 maxrreg ? " maxrreg=32" : "");
					compile_ok(n, "matmul.cu", src, 90, defs,
						   maxrreg ? "-maxrregcount=32" : NULL, NULL, 0, &out);
					r = agree(&out, "matmul", what);
					ck_assert_int_eq(r.static_smem,
							 4 * (tiles[t] * tiles[t] + tiles[t] * tiles[t] * rects[q]));
					if (maxrreg)
						ck_assert_int_le(r.registers, 32);
					if (verbose())
						printf("test_gen: %-46s regs %3d smem %6d frame %4d  %.3f s\n",
						       what, r.registers, r.static_smem, r.local_bytes,
						       out.seconds);
					sum += out.seconds;
					lo = out.seconds < lo ? out.seconds : lo;
					hi = out.seconds > hi ? out.seconds : hi;
					count++;
					gs_compile_out_release(&out, 0);
				}
	printf("test_gen: matmul grid%s for sm_90: %d variants agree; compile %.3f s mean,"
	       " %.3f min, %.3f max\n",
	       maxrreg ? " with -maxrregcount=32" : "", count, sum / count, lo, hi);
	free(src);
	gs_nvrtc_unload(n);
}

START_TEST(test_matmul_grid)
{
	matmul_grid(0);
}
END_TEST

START_TEST(test_matmul_grid_maxrreg32)
{
	matmul_grid(1);
}
END_TEST

/* A template kernel found by its name expression, with launch bounds,
 * __constant__ data and a non-inlined callee with a local array. */
static const char *const TEMPLATE_SRC =
	"__constant__ float coef[33];\n"
	"__device__ __noinline__ float pick(const float *p, int i)\n"
	"{\n"
	"\tfloat a[32];\n"
	"\tfor (int j = 0; j < 32; j++)\n"
	"\t\ta[j] = p[j * i];\n"
	"\treturn a[i & 31] + a[(i * 7) & 31];\n"
	"}\n"
	"template <int N>\n"
	"__global__ void __launch_bounds__(128) k(float *o, int n)\n"
	"{\n"
	"\t__shared__ float s[N * 32];\n"
	"\ts[threadIdx.x % (N * 32)] = o[threadIdx.x] * coef[threadIdx.x % 33];\n"
	"\t__syncthreads();\n"
	"\to[threadIdx.x] = s[(threadIdx.x + N) % (N * 32)] + pick(o, n);\n"
	"}\n"
	"template __global__ void k<4>(float *, int);\n"
	"template __global__ void k<2>(float *, int);\n";

START_TEST(test_template_kernel_by_name_expression)
{
	static const char *const names[] = { "k<4>", "k<2>" };
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, "test_template_kernel_by_name_expression");
	struct gs_compile_out out;
	struct gs_resources r;

	if (!n)
		return;
	compile_ok(n, "tmpl.cu", TEMPLATE_SRC, 90, NULL, NULL, names, 2, &out);
	ck_assert_str_eq(out.lowered[0], "_Z1kILi4EEvPfi");
	ck_assert_str_eq(out.lowered[1], "_Z1kILi2EEvPfi");
	r = agree(&out, out.lowered[0], "k<4>");
	ck_assert_int_eq(r.static_smem, 4 * 32 * 4);
	ck_assert_int_eq(r.max_threads, 128);
	ck_assert_int_eq(r.const_bytes, 33 * 4);
	ck_assert_int_eq(r.barriers, 1);
	/* The callee's frame is on the kernel's stack, not in its frame. */
	ck_assert_int_ge(r.stack_bytes, 32 * 4);
	ck_assert_int_ge(r.stack_bytes, r.local_bytes);
	r = agree(&out, out.lowered[1], "k<2>");
	ck_assert_int_eq(r.static_smem, 2 * 32 * 4);
	/* Unmangled, the name is no kernel of the cubin. */
	{
		char err[256];

		ck_assert_int_eq(gs_cubin_resources(out.cubin, out.cubin_len, "k", &r, err, sizeof err), -1);
		ck_assert_msg(strstr(err, "no kernel 'k'"), "%s", err);
	}
	gs_compile_out_release(&out, 2);
	gs_nvrtc_unload(n);
}
END_TEST

START_TEST(test_syntax_error_names_the_line)
{
	static const char *const src = "extern \"C\" __global__ void bad(float *o)\n"
				       "{\n"
				       "\to[0] = 1.0f +;\n"
				       "}\n";
	const char *opts[] = { "-arch=sm_90", "--ptxas-options=-v" };
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, "test_syntax_error_names_the_line");
	struct gs_compile_in in = { .name = "bad.cu", .source = src, .opts = opts, .nopts = 2,
				    .want_ptx = 1, .want_cubin = 1 };
	struct gs_compile_out out;

	if (!n)
		return;
	ck_assert_int_eq(gs_nvrtc_compile(n, &in, &out), 0);
	ck_assert_int_eq(out.ok, 0);
	ck_assert_ptr_null(out.cubin);
	ck_assert_ptr_null(out.ptx);
	ck_assert_msg(strstr(out.log, "bad.cu(3)") && strstr(out.log, "error"), "%s", out.log);
	ck_assert(out.seconds > 0);
	gs_compile_out_release(&out, 0);
	gs_nvrtc_unload(n);
}
END_TEST

START_TEST(test_bad_option_and_virtual_arch)
{
	static const char *const src = "extern \"C\" __global__ void k(float *o) { o[0] = 1.0f; }\n";
	const char *opts[] = { "-arch=sm_9999" };
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, "test_bad_option_and_virtual_arch");
	struct gs_compile_in in = { .name = "k.cu", .source = src, .opts = opts, .nopts = 1,
				    .want_ptx = 1, .want_cubin = 1 };
	struct gs_compile_out out;

	if (!n)
		return;
	/* An option NVRTC rejects is the variant's compile error. */
	ck_assert_int_eq(gs_nvrtc_compile(n, &in, &out), 0);
	ck_assert_int_eq(out.ok, 0);
	ck_assert_msg(out.log[0] != '\0', "empty log for a rejected option");
	gs_compile_out_release(&out, 0);

	/* A virtual architecture has PTX but no cubin. */
	opts[0] = "-arch=compute_90";
	in.want_cubin = 0;
	ck_assert_int_eq(gs_nvrtc_compile(n, &in, &out), 0);
	ck_assert_int_eq(out.ok, 1);
	ck_assert_ptr_nonnull(strstr(out.ptx, ".target sm_90"));
	ck_assert_ptr_null(out.cubin);
	gs_compile_out_release(&out, 0);
	in.want_cubin = 1;
	ck_assert_int_eq(gs_nvrtc_compile(n, &in, &out), -1);
	ck_assert_int_eq(out.ok, 0);
	ck_assert_msg(strstr(out.log, "virtual architecture"), "%s", out.log);
	gs_compile_out_release(&out, 0);
	gs_nvrtc_unload(n);
}
END_TEST

/* The ELF reader on every architecture this NVRTC has among a few of
 * different generations (sm_75 and sm_80 keep registers in .text's sh_info
 * and no reserved shared memory; sm_90 on have both the other way). */
START_TEST(test_other_architectures)
{
	static const int want[] = { 75, 80, 86, 89, 90, 100, 120 };
	static const char *const defs[][5] = {
		{ "-DTILE=16", "-DRECT=1", "-DUNROLL=16", "-DPREFETCH=1", NULL },
		{ "-DTILE=8", "-DRECT=4", "-DUNROLL=1", "-DPREFETCH=0", NULL },
		{ "-DTILE=32", "-DRECT=2", "-DUNROLL=4", "-DPREFETCH=1", NULL },
	};
	static const char *const names[] = { "k<4>" };
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, "test_other_architectures");
	int archs[256], done75 = 0, done80 = 0;
	size_t count, a, k;
	char *src;

	if (!n)
		return;
	count = gs_nvrtc_archs(n, archs, GS_ARRAY_SIZE(archs));
	src = read_text(MATMUL);
	for (a = 0; a < GS_ARRAY_SIZE(want); a++) {
		int have = 0;

		for (k = 0; k < count && k < GS_ARRAY_SIZE(archs); k++)
			have |= archs[k] == want[a];
		if (!have) {
			ck_assert_msg(want[a] != 75 && want[a] != 80, "NVRTC %s cannot target sm_%d",
				      gs_nvrtc_version(n), want[a]);
			continue;
		}
		for (k = 0; k < GS_ARRAY_SIZE(defs); k++) {
			struct gs_compile_out out;
			char what[64];

			snprintf(what, sizeof what, "sm_%d matmul %s", want[a], defs[k][0]);
			compile_ok(n, "matmul.cu", src, want[a], defs[k], NULL, NULL, 0, &out);
			agree(&out, "matmul", what);
			agree(&out, "matmul_naive", what);
			gs_compile_out_release(&out, 0);
		}
		{
			struct gs_compile_out out;
			struct gs_resources r;
			char what[64];

			snprintf(what, sizeof what, "sm_%d k<4>", want[a]);
			compile_ok(n, "tmpl.cu", TEMPLATE_SRC, want[a], NULL, NULL, names, 1, &out);
			r = agree(&out, out.lowered[0], what);
			ck_assert_int_eq(r.static_smem, 4 * 32 * 4);
			ck_assert_int_eq(r.max_threads, 128);
			ck_assert_int_eq(r.const_bytes, 33 * 4);
			gs_compile_out_release(&out, 1);
		}
		done75 |= want[a] == 75;
		done80 |= want[a] == 80;
	}
	ck_assert(done75 && done80);
	free(src);
	gs_nvrtc_unload(n);
}
END_TEST

/* Forty-eight live values under a 24-register cap spill: the cubin's frame
 * must be ptxas' stack frame. */
static const char *const HUNGRY_SRC =
	"extern \"C\" __global__ void hungry(const float *a, float *o)\n"
	"{\n"
	"\tfloat acc[48];\n"
	"#pragma unroll\n"
	"\tfor (int i = 0; i < 48; i++)\n"
	"\t\tacc[i] = a[threadIdx.x + i * 128];\n"
	"#pragma unroll\n"
	"\tfor (int k = 1; k < 4; k++)\n"
	"#pragma unroll\n"
	"\t\tfor (int i = 0; i < 48; i++)\n"
	"\t\t\tacc[i] = acc[i] * acc[(i + k) % 48] + 1.0f;\n"
	"\tfloat s = 0.0f;\n"
	"#pragma unroll\n"
	"\tfor (int i = 0; i < 48; i++)\n"
	"\t\ts += acc[i] * (float)i;\n"
	"\to[threadIdx.x] = s;\n"
	"}\n";

START_TEST(test_spilling_kernel_frame_agrees)
{
	static const int archs[] = { 75, 80, 90 };
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, "test_spilling_kernel_frame_agrees");

	if (!n)
		return;
	for (size_t a = 0; a < GS_ARRAY_SIZE(archs); a++) {
		struct gs_compile_out out;
		struct gs_resources c, l;
		char what[32];

		snprintf(what, sizeof what, "sm_%d", archs[a]);
		compile_ok(n, "hungry.cu", HUNGRY_SRC, archs[a], NULL, "-maxrregcount=24", NULL, 0, &out);
		c = agree(&out, "hungry", what);
		ck_assert_int_le(c.registers, 24);
		ck_assert_int_gt(c.local_bytes, 0);
		ck_assert_int_eq(gs_ptxas_log_resources(out.log, "hungry", &l), 0);
		ck_assert_int_gt(l.spill_stores, 0);
		ck_assert_int_gt(l.spill_loads, 0);
		gs_compile_out_release(&out, 0);
	}
	gs_nvrtc_unload(n);
}
END_TEST

struct job {
	struct gs_nvrtc *n;
	const char *src;
	const char *tile;
	pthread_barrier_t *start;
	struct gs_compile_out out;
	int rc;
	double begin, end;
};

static void *compile_job(void *arg)
{
	struct job *j = arg;
	const char *opts[] = { j->tile, "-DRECT=2", "-DUNROLL=4", "--ptxas-options=-v", "-arch=sm_90" };
	struct gs_compile_in in = { .name = "matmul.cu", .source = j->src, .opts = opts, .nopts = 5,
				    .want_ptx = 1, .want_cubin = 1 };

	pthread_barrier_wait(j->start);
	j->begin = gs_now();
	j->rc = gs_nvrtc_compile(j->n, &in, &j->out);
	j->end = gs_now();
	return NULL;
}

START_TEST(test_two_threads_compile_at_once)
{
	static const char *const tiles[] = { "-DTILE=16", "-DTILE=32" };
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, "test_two_threads_compile_at_once");
	pthread_barrier_t start;
	pthread_t th[2];
	struct job jobs[2];
	char *src;
	int i;

	if (!n)
		return;
	src = read_text(MATMUL);
	pthread_barrier_init(&start, NULL, 2);
	for (i = 0; i < 2; i++) {
		jobs[i] = (struct job){ .n = n, .src = src, .tile = tiles[i], .start = &start };
		ck_assert_int_eq(pthread_create(&th[i], NULL, compile_job, &jobs[i]), 0);
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
	/* The two compiles overlapped in time. */
	ck_assert(jobs[0].begin < jobs[1].end && jobs[1].begin < jobs[0].end);
	for (i = 0; i < 2; i++) {
		const char *defs[] = { tiles[i], "-DRECT=2", "-DUNROLL=4", NULL };
		struct gs_compile_out seq;
		struct gs_resources a, b;

		ck_assert_msg(jobs[i].rc == 0 && jobs[i].out.ok, "thread %d: %s", i, jobs[i].out.log);
		a = agree(&jobs[i].out, "matmul", tiles[i]);
		/* The same variant compiled alone gives the same cubin figures. */
		compile_ok(n, "matmul.cu", src, 90, defs, NULL, NULL, 0, &seq);
		b = agree(&seq, "matmul", tiles[i]);
		ck_assert_int_eq(a.registers, b.registers);
		ck_assert_int_eq(a.static_smem, b.static_smem);
		ck_assert_uint_eq(jobs[i].out.cubin_len, seq.cubin_len);
		ck_assert_uint_eq(jobs[i].out.ptx_len, seq.ptx_len);
		ck_assert_int_eq(memcmp(jobs[i].out.ptx, seq.ptx, seq.ptx_len), 0);
		gs_compile_out_release(&seq, 0);
		gs_compile_out_release(&jobs[i].out, 0);
	}
	free(src);
	gs_nvrtc_unload(n);
}
END_TEST

/* --- the ELF reader on bad input --------------------------------------------- */

/* A real cubin of the baseline (NULL when NVRTC is missing). */
static void *baseline_cubin(size_t *len, const char *test)
{
	static const char *const defs[] = { "-DTILE=16", "-DRECT=1", "-DUNROLL=16", "-DPREFETCH=1", NULL };
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, test);
	struct gs_compile_out out;
	void *cubin;
	char *src;

	if (!n)
		return NULL;
	src = read_text(MATMUL);
	compile_ok(n, "matmul.cu", src, 90, defs, NULL, NULL, 0, &out);
	cubin = out.cubin;
	*len = out.cubin_len;
	out.cubin = NULL;
	gs_compile_out_release(&out, 0);
	free(src);
	gs_nvrtc_unload(n);
	return cubin;
}

static int same(const struct gs_resources *a, const struct gs_resources *b)
{
	return a->registers == b->registers && a->local_bytes == b->local_bytes &&
	       a->stack_bytes == b->stack_bytes && a->static_smem == b->static_smem &&
	       a->max_threads == b->max_threads && a->barriers == b->barriers &&
	       a->const_bytes == b->const_bytes;
}

/* The kernel's code, when found, lies inside the file, and its load
 * windows (dev/emu/model/sass.c) can be read from it whatever it holds. */
static void code_inside(const unsigned char *p, size_t len)
{
	const unsigned char *code;
	size_t n, nwin;
	uint8_t *win;
	int arch;
	char err[256];

	if (gs_cubin_code(p, len, "matmul", &code, &n, &arch, err, sizeof err) < 0) {
		ck_assert_msg(strncmp(err, "cubin: ", 7) == 0, "%s", err);
		return;
	}
	ck_assert(code >= p && n <= len && (size_t)(code - p) <= len - n);
	if (gs_emu_sass_windows(code, n, 90, &win, &nwin) == 0) {
		for (size_t i = 0; i < nwin; i++)
			ck_assert_uint_ge(win[i], 1);
		free(win);
	}
}

START_TEST(test_every_truncation_fails_cleanly)
{
	size_t len = 0, cut, failed = 0, headers_end;
	unsigned char *cubin = baseline_cubin(&len, "test_every_truncation_fails_cleanly");
	struct gs_resources full, r;
	char err[256];

	if (!cubin)
		return;
	ck_assert_int_eq(gs_cubin_resources(cubin, len, "matmul", &full, err, sizeof err), 0);
	/* Section headers: e_shoff (8 bytes at 40) + e_shnum (2 at 60) x 64. */
	{
		uint64_t shoff = 0;
		uint16_t shnum = 0;

		memcpy(&shoff, cubin + 40, 8);
		memcpy(&shnum, cubin + 60, 2);
		headers_end = (size_t)shoff + (size_t)shnum * 64;
		ck_assert_uint_le(headers_end, len);
	}
	for (cut = 0; cut < len; cut++) {
		/* An allocation of exactly `cut` bytes, so that ASan sees any read
		 * past the end. */
		unsigned char *p = gs_xmalloc(cut);
		int rc;

		memcpy(p, cubin, cut);
		rc = gs_cubin_resources(cut ? p : NULL, cut, "matmul", &r, err, sizeof err);
		ck_assert_msg(rc == 0 || rc == -1, "cut %zu: rc %d", cut, rc);
		if (rc < 0) {
			ck_assert_msg(strncmp(err, "cubin: ", 7) == 0, "cut %zu: %s", cut, err);
			failed++;
		} else {
			/* Only what the reader never needs (program headers) was cut. */
			ck_assert_msg(cut >= headers_end && same(&r, &full), "cut %zu parsed", cut);
		}
		if (cut < headers_end)
			ck_assert_msg(rc == -1, "cut %zu of %zu parsed", cut, len);
		code_inside(cut ? p : NULL, cut);
		free(p);
	}
	ck_assert_uint_ge(failed, headers_end);
	free(cubin);
}
END_TEST

START_TEST(test_random_byte_flips_never_crash)
{
	size_t len = 0, i, ok = 0, bad = 0;
	unsigned char *cubin = baseline_cubin(&len, "test_random_byte_flips_never_crash");
	uint64_t state = 0x9e3779b97f4a7c15u;
	size_t shoff;
	char err[256];

	if (!cubin)
		return;
	{
		uint64_t v = 0;

		memcpy(&v, cubin + 40, 8);
		shoff = (size_t)v;
	}
	for (i = 0; i < 20000; i++) {
		unsigned char *p = gs_xmalloc(len);
		struct gs_resources r;
		int flips, f, rc;

		memcpy(p, cubin, len);
		state = state * 6364136223846793005u + 1442695040888963407u;
		flips = 1 + (int)(state >> 60) % 8;
		for (f = 0; f < flips; f++) {
			size_t at;

			state = state * 6364136223846793005u + 1442695040888963407u;
			/* Half the flips where the reader looks first: the ELF
			 * header and the section headers. */
			if (state >> 63)
				at = (state >> 33) % 64;
			else if (state >> 62 & 1)
				at = shoff + (state >> 33) % (len - shoff);
			else
				at = (state >> 33) % len;
			p[at] ^= (unsigned char)(1u << (state >> 20) % 8 | (state >> 40 & 0xff));
		}
		rc = gs_cubin_resources(p, len, "matmul", &r, err, sizeof err);
		ck_assert_msg(rc == 0 || rc == -1, "rc %d", rc);
		if (rc == 0) {
			ck_assert_int_ge(r.registers, 0);
			ck_assert_int_ge(r.static_smem, 0);
			ok++;
		} else {
			ck_assert_msg(strncmp(err, "cubin: ", 7) == 0, "%s", err);
			bad++;
		}
		gs_cubin_arch(p, len);
		code_inside(p, len);
		free(p);
	}
	ck_assert_uint_gt(bad, 0);
	ck_assert_uint_gt(ok, 0);
	free(cubin);
}
END_TEST

START_TEST(test_not_a_cubin)
{
	static const unsigned char zeros[128];
	unsigned char elf[128];
	struct gs_resources r;
	char err[256];

	ck_assert_int_eq(gs_cubin_resources(NULL, 0, "matmul", &r, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "not an ELF file"), "%s", err);
	ck_assert_int_eq(gs_cubin_resources(zeros, sizeof zeros, "matmul", &r, err, sizeof err), -1);
	ck_assert_int_eq(gs_cubin_arch(zeros, sizeof zeros), -1);
	/* An x86-64 ELF header is no CUDA ELF. */
	memset(elf, 0, sizeof elf);
	memcpy(elf, "\177ELF\2\1\1", 7);
	elf[18] = 62;
	ck_assert_int_eq(gs_cubin_resources(elf, sizeof elf, "matmul", &r, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "not a CUDA ELF"), "%s", err);
	/* A CUDA ELF header that promises sections it does not have. */
	elf[18] = 190;
	elf[40] = 64;   /* e_shoff */
	elf[58] = 64;   /* e_shentsize */
	elf[60] = 0xff; /* e_shnum */
	ck_assert_int_eq(gs_cubin_resources(elf, sizeof elf, "matmul", &r, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "truncated"), "%s", err);
	/* No room for the message is fine. */
	ck_assert_int_eq(gs_cubin_resources(zeros, sizeof zeros, "matmul", &r, err, 0), -1);
}
END_TEST

/* --- the ptxas log ----------------------------------------------------------- */

static const char *const LOG =
	"ptxas info    : Overriding maximum register limit 256 for 'matmul' with  32 of maxrregcount option\n"
	"ptxas info    : 0 bytes gmem\n"
	"ptxas info    : Compiling entry function 'matmul_naive' for 'sm_80'\n"
	"ptxas info    : Function properties for matmul_naive\n"
	"ptxas         .     8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
	"ptxas info    : Used 32 registers, used 0 barriers, 380 bytes cmem[0]\n"
	"ptxas info    : Compile time = 10.219 ms\n"
	"ptxas info    : Compiling entry function 'matmul' for 'sm_80'\n"
	"ptxas info    : Function properties for matmul\n"
	"ptxas         .     528 bytes stack frame, 12 bytes spill stores, 16 bytes spill loads\n"
	"ptxas info    : Used 31 registers, used 1 barriers, 2048 bytes smem, 600 bytes cumulative stack"
	" size, 380 bytes cmem[0], 8 bytes cmem[2]\n"
	"ptxas info    : Compile time = 5.878 ms\n"
	"ptxas info    : Function properties for _Z4pickPKfi\n"
	"ptxas         .     128 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";

START_TEST(test_ptxas_log_parsing)
{
	struct gs_resources r;

	memset(&r, 0, sizeof r);
	r.max_threads = 77;
	ck_assert_int_eq(gs_ptxas_log_resources(LOG, "matmul", &r), 0);
	ck_assert_int_eq(r.registers, 31);
	ck_assert_int_eq(r.barriers, 1);
	ck_assert_int_eq(r.static_smem, 2048);
	ck_assert_int_eq(r.local_bytes, 528);
	ck_assert_int_eq(r.stack_bytes, 600);
	ck_assert_int_eq(r.spill_stores, 12);
	ck_assert_int_eq(r.spill_loads, 16);
	ck_assert_int_eq(r.max_threads, 77); /* not the log's to say */

	memset(&r, 0, sizeof r);
	ck_assert_int_eq(gs_ptxas_log_resources(LOG, "matmul_naive", &r), 0);
	ck_assert_int_eq(r.registers, 32);
	ck_assert_int_eq(r.barriers, 0);
	ck_assert_int_eq(r.static_smem, 0);
	ck_assert_int_eq(r.local_bytes, 8);
	ck_assert_int_eq(r.stack_bytes, 8);
	ck_assert_int_eq(r.spill_stores, 4);

	/* A device function has properties but no "Used" line; a prefix of a
	 * name is another name. */
	ck_assert_int_eq(gs_ptxas_log_resources(LOG, "_Z4pickPKfi", &r), -1);
	ck_assert_int_eq(gs_ptxas_log_resources(LOG, "matmu", &r), -1);
	ck_assert_int_eq(gs_ptxas_log_resources("", "matmul", &r), -1);

	/* Every prefix of the log is parsed without reading past its end. */
	for (size_t cut = 0; cut <= strlen(LOG); cut++) {
		char *p = gs_xstrndup(LOG, cut);
		int rc = gs_ptxas_log_resources(p, "matmul", &r);

		ck_assert(rc == 0 || rc == -1);
		free(p);
	}
}
END_TEST

static int has_bytes(const void *hay, size_t n, const char *needle)
{
	return memmem(hay, n, needle, strlen(needle)) != NULL;
}

/* The comparison kernels are compiled for the space's element types only:
 * all ten would cost the worker NVRTC time before its first configuration. */
START_TEST(test_compare_kernels_per_type)
{
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, "test_compare_kernels_per_type");
	if (!n)
		return;
	void *cubin = NULL;
	size_t len = 0;
	char err[1024];
	unsigned types = 1u << GS_BT_FLOAT | 1u << GS_BT_INT32;
	ck_assert_msg(gs_cmp_compile(n, "sm_80", types, &cubin, &len, err, sizeof err) == 0, "%s",
		      err);
	ck_assert(has_bytes(cubin, len, "gs_cmp_float"));
	ck_assert(has_bytes(cubin, len, "gs_cmp_int32"));
	ck_assert(!has_bytes(cubin, len, "gs_cmp_double"));
	ck_assert(!has_bytes(cubin, len, "gs_cmp_uint64"));
	free(cubin);
	ck_assert_msg(gs_cmp_compile(n, "sm_80", (1u << GS_BT_COUNT) - 1, &cubin, &len, err,
				     sizeof err) == 0,
		      "%s", err);
	ck_assert(has_bytes(cubin, len, "gs_cmp_double"));
	ck_assert(has_bytes(cubin, len, "gs_cmp_uint64"));
	free(cubin);
	gs_nvrtc_unload(n);
}
END_TEST

static TCase *tc_fast(void)
{
	TCase *tc = tcase_create("fast");

	tcase_add_test(tc, test_load_missing_names_where_it_looked);
	tcase_add_test(tc, test_not_a_cubin);
	tcase_add_test(tc, test_ptxas_log_parsing);
	tcase_add_test(tc, test_load_version_and_archs);
	tcase_add_test(tc, test_one_compile_gives_ptx_and_cubin);
	tcase_add_test(tc, test_template_kernel_by_name_expression);
	tcase_add_test(tc, test_syntax_error_names_the_line);
	tcase_add_test(tc, test_bad_option_and_virtual_arch);
	tcase_add_test(tc, test_two_threads_compile_at_once);
	tcase_add_test(tc, test_compare_kernels_per_type);
	tcase_add_test(tc, test_spilling_kernel_frame_agrees);
	return tc;
}

/* Dozens of NVRTC compiles each: minutes on a small host, more under ASan
 * (CK_TIMEOUT_MULTIPLIER scales this too). */
static TCase *tc_slow(void)
{
	TCase *tc = tcase_create("slow");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_matmul_grid);
	tcase_add_test(tc, test_matmul_grid_maxrreg32);
	tcase_add_test(tc, test_other_architectures);
	tcase_add_test(tc, test_every_truncation_fails_cleanly);
	tcase_add_test(tc, test_random_byte_flips_never_crash);
	return tc;
}

GS_TEST_MAIN_TCASES(tc_fast, tc_slow)
