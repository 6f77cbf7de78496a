/* harness.h — what a unit test file includes: Check, plus GS_TEST_MAIN.
 *
 * A test file writes its tests with Check's START_TEST/END_TEST and ends with
 *
 *     GS_TEST_MAIN(test_buf_grows, test_arena_resets, ...)
 *
 * which makes a suite named after the file with one test case holding those
 * tests, runs it, prints Check's report and then one line
 *
 *     test_util: 7 passed, 1 failed
 *
 * that tests/run-unit.sh adds up.  A file that needs fixtures or its own
 * timeouts writes functions returning a TCase * and ends with
 * GS_TEST_MAIN_TCASES(tc_lexer, tc_parser, ...) instead.
 *
 * A test that cannot run on this host (no NVRTC, say) calls
 *
 *     gs_test_skip(__FILE__, "test_name", "why");
 *
 * once and returns: Check counts it as passed, tests/run-unit.sh moves it
 * from passed to skipped by the line this prints.
 *
 * Tests run the way the environment says (tests/run-unit.sh sets CK_FORK=yes
 * and CK_DEFAULT_TIMEOUT=30): each test in its own process, so a crash or a
 * hang fails that test only.  The exit status is 0 only when every test
 * passed. */
#ifndef GS_TEST_HARNESS_H
#define GS_TEST_HARNESS_H

#include <check.h>
#include <stdio.h>
#include <string.h>

/* "tests/unit/test_util.c" -> "test_util" (in buf). */
static inline const char *gs_test_name(const char *file, char *buf, size_t size)
{
	const char *base = strrchr(file, '/');
	size_t n;

	base = base ? base + 1 : file;
	n = strcspn(base, ".");
	if (n >= size)
		n = size - 1;
	memcpy(buf, base, n);
	buf[n] = '\0';
	return buf;
}

/* Says that the running test is skipped, in the line tests/run-unit.sh
 * counts: "<file's name>: skipped: <test>: <why>". */
static inline void gs_test_skip(const char *file, const char *test, const char *why)
{
	char name[64];

	printf("%s: skipped: %s: %s\n", gs_test_name(file, name, sizeof name), test, why);
	fflush(stdout);
}

/* Runs the suite (and frees it), prints the summary line; returns the exit
 * status for main. */
static inline int gs_test_run(Suite *s, const char *name)
{
	SRunner *sr = srunner_create(s);
	int run, failed;

	srunner_run_all(sr, CK_ENV);
	run = srunner_ntests_run(sr);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	printf("%s: %d passed, %d failed\n", name, run - failed, failed);
	fflush(stdout);
	return failed ? 1 : 0;
}

#define GS_TEST_MAIN(...)                                                     \
	int main(void)                                                        \
	{                                                                     \
		const TTest *gs_tests_[] = { __VA_ARGS__ };                   \
		char gs_name_[64];                                            \
		const char *gs_n_ = gs_test_name(__FILE__, gs_name_, sizeof gs_name_); \
		Suite *gs_s_ = suite_create(gs_n_);                           \
		TCase *gs_tc_ = tcase_create(gs_n_);                          \
		for (size_t gs_i_ = 0; gs_i_ < sizeof gs_tests_ / sizeof gs_tests_[0]; gs_i_++) \
			tcase_add_test(gs_tc_, gs_tests_[gs_i_]);             \
		suite_add_tcase(gs_s_, gs_tc_);                               \
		return gs_test_run(gs_s_, gs_n_);                             \
	}

#define GS_TEST_MAIN_TCASES(...)                                              \
	int main(void)                                                        \
	{                                                                     \
		TCase *(*gs_tcs_[])(void) = { __VA_ARGS__ };                  \
		char gs_name_[64];                                            \
		const char *gs_n_ = gs_test_name(__FILE__, gs_name_, sizeof gs_name_); \
		Suite *gs_s_ = suite_create(gs_n_);                           \
		for (size_t gs_i_ = 0; gs_i_ < sizeof gs_tcs_ / sizeof gs_tcs_[0]; gs_i_++) \
			suite_add_tcase(gs_s_, gs_tcs_[gs_i_]());             \
		return gs_test_run(gs_s_, gs_n_);                             \
	}

#endif
