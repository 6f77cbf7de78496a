/* test_complog.c — compile logs: ptxas' errors first, device limits named. */
#include "harness.h"
#include "gen/gen.h"

#include <stdlib.h>

static const char smem_log[] =
	"ptxas info    : 0 bytes gmem\n"
	"ptxas info    : Compiling entry function 'big' for 'sm_90'\n"
	"ptxas error   : Entry function 'big' uses too much shared data (0xc800 bytes, 0xc000 max)\n"
	"ptxas info    : Used 11 registers, used 1 barriers, 51200 bytes smem\n";

START_TEST(test_errors_first)
{
	char *s = gs_complog_errors_first(smem_log);
	ck_assert_str_eq(s, "ptxas error   : Entry function 'big' uses too much shared data (0xc800 "
			    "bytes, 0xc000 max)\n"
			    "ptxas info    : 0 bytes gmem\n"
			    "ptxas info    : Compiling entry function 'big' for 'sm_90'\n"
			    "ptxas info    : Used 11 registers, used 1 barriers, 51200 bytes smem\n");
	free(s);
	/* NVRTC's own errors keep their source line and caret after them */
	const char *front = "k.cu(3): error: identifier \"q\" is undefined\n  q = 1;\n  ^\n";
	s = gs_complog_errors_first(front);
	ck_assert_str_eq(s, front);
	free(s);
	s = gs_complog_errors_first("no newline");
	ck_assert_str_eq(s, "no newline");
	free(s);
}
END_TEST

START_TEST(test_has_error)
{
	ck_assert_int_eq(gs_complog_has_error(smem_log), 1);
	ck_assert_int_eq(gs_complog_has_error("ptxas info    : Compiling entry function 'error_k'\n"),
			 0);
	ck_assert_int_eq(gs_complog_has_error("k.cu(3): error: x\n"), 1);
	ck_assert_int_eq(gs_complog_has_error(""), 0);
}
END_TEST

START_TEST(test_limit_named)
{
	char why[512];
	ck_assert_int_eq(gs_complog_limit(smem_log, "sm_90", why, sizeof why), 1);
	ck_assert_str_eq(why, "51200 bytes of static shared memory; sm_90 allows 49152, more only as "
			      "dynamic shared memory (ptxas: too much shared data)");
	ck_assert_int_eq(gs_complog_limit("ptxas error   : Entry function 'k' uses too much local data"
					  " (0x80000 bytes, 0x7ffff max)\n", "sm_80", why, sizeof why), 1);
	ck_assert_str_eq(why, "524288 bytes of local memory; sm_80 allows 524287 (ptxas: too much local "
			      "data)");
	/* a source error is no device limit */
	ck_assert_int_eq(gs_complog_limit("k.cu(3): error: too much\n", "sm_90", why, sizeof why), 0);
	ck_assert_int_eq(gs_complog_limit("ptxas fatal   : Unresolved extern function 'f'\n", "sm_90",
					  why, sizeof why), 0);
}
END_TEST

/* A knob named T: its -DT=1 replaces the T of the header's templates, and
 * every error lies in NVRTC's built-in header (NVRTC 13.0's log) */
START_TEST(test_define_clash)
{
	static const char log[] =
		"__nv_nvrtc_builtin_header.h(3379): error: expected an identifier\n"
		"    template<typename T>\n"
		"                      ^\n"
		"\n"
		"__nv_nvrtc_builtin_header.h(3380): error: expected an identifier\n"
		"    struct remove_ref { typedef T type; };\n";
	const char *opts[] = { "-arch=sm_90", "-DTILE=16", "-DT=1" };
	char why[512];
	ck_assert_int_eq(gs_complog_define_clash(log, opts, 3, why, sizeof why), 1);
	ck_assert_str_eq(why, "the define T (-DT=1) is a name NVRTC's built-in header uses (line 3379: "
			      "\"template<typename T>\"): the preprocessor replaces it there too, so no "
			      "variant compiles; give the knob or its define another name");
	/* a define that is only part of a word there (TILE in "TILE_X", T in
	 * "typename"), an error in the user's own source, or no define: none */
	const char *other[] = { "-DTILE=16", "-Dtype" };
	ck_assert_int_eq(gs_complog_define_clash(log, other, 1, why, sizeof why), 0);
	ck_assert_int_eq(gs_complog_define_clash("k.cu(3): error: expected an identifier\n"
						 "    int T = 3;\n", opts, 3, why, sizeof why), 0);
	ck_assert_int_eq(gs_complog_define_clash(log, opts, 2, why, sizeof why), 0);
	/* the long form names the same macro */
	const char *longform[] = { "--define-macro=T" };
	ck_assert_int_eq(gs_complog_define_clash(log, longform, 1, why, sizeof why), 1);
}
END_TEST

GS_TEST_MAIN(test_errors_first, test_has_error, test_limit_named, test_define_clash)
