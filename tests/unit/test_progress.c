/* test_progress.c — the progress line of `gsearch run` at the widths people
 * use, with every outcome kind. */
#include "harness.h"
#include "sched/progress.h"
#include "sched/sweep.h"

#include <stdio.h>
#include <string.h>

/* A sweep a third done with one configuration of every outcome kind, 4
 * done by an earlier run, 10 s in. */
static struct gs_progress every_kind(void)
{
	struct gs_progress p = { .total = 1000, .before = 4, .elapsed_s = 10, .best_ms = 0.2031 };
	p.by_status[0] = 300;
	for (int i = 1; i < 8; i++)
		p.by_status[i] = (uint64_t)i;
	return p;
}

START_TEST(test_wide_shows_every_kind)
{
	struct gs_progress p = every_kind();
	char buf[512];
	size_t n = gs_progress_format(&p, 200, buf, sizeof buf);
	ck_assert_uint_le(n, 200);
	ck_assert_uint_eq(n, strlen(buf));
	ck_assert_str_eq(buf, "332/1000 (33%), 32.8/s, eta 20s, best 0.2031 ms, ok 300, invalid 1, "
			      "compile_error 2, launch_error 3, crash 4, timeout 5, wrong 6, skipped 7, "
			      "4 done before");
	for (int i = 0; i < 8; i++)
		ck_assert_ptr_nonnull(strstr(buf, gs_outcomes[i]));
}
END_TEST

START_TEST(test_no_limit_is_complete)
{
	struct gs_progress p = every_kind();
	char wide[512], unlimited[512];
	gs_progress_format(&p, 200, wide, sizeof wide);
	gs_progress_format(&p, 0, unlimited, sizeof unlimited);
	ck_assert_str_eq(unlimited, wide);
}
END_TEST

START_TEST(test_80_folds_the_failures)
{
	struct gs_progress p = every_kind();
	char buf[512];
	size_t n = gs_progress_format(&p, 80, buf, sizeof buf);
	ck_assert_uint_le(n, 80);
	ck_assert_str_eq(buf, "332/1000 (33%), 32.8/s, eta 20s, best 0.2031 ms, ok 300, failed 28");
}
END_TEST

START_TEST(test_40_keeps_done_and_eta)
{
	struct gs_progress p = every_kind();
	char buf[512];
	size_t n = gs_progress_format(&p, 40, buf, sizeof buf);
	ck_assert_uint_le(n, 40);
	ck_assert_str_eq(buf, "332/1000 (33%), eta 20s");
}
END_TEST

START_TEST(test_each_kind_alone)
{
	/* one kind at a time: named when wide, counted as failed when not */
	for (int k = 0; k < GS_NOUTCOMES; k++) {
		struct gs_progress p = { .total = 10, .elapsed_s = 2 };
		p.by_status[k] = 2;
		char buf[512], want[128];
		gs_progress_format(&p, 200, buf, sizeof buf);
		if (k == 0)
			snprintf(want, sizeof want, "2/10 (20%%), 1.0/s, eta 8s, ok 2");
		else
			snprintf(want, sizeof want, "2/10 (20%%), 1.0/s, eta 8s, ok 0, %s 2",
				 gs_outcomes[k]);
		ck_assert_str_eq(buf, want);
		gs_progress_format(&p, 40, buf, sizeof buf);
		ck_assert_uint_le(strlen(buf), 40);
		ck_assert_ptr_nonnull(strstr(buf, "2/10"));
	}
}
END_TEST

START_TEST(test_width_never_exceeded)
{
	struct gs_progress p = every_kind();
	p.total = 123456789012ULL;
	p.by_status[0] = 98765432101ULL;
	char buf[512];
	for (size_t w = 1; w <= 200; w++) {
		size_t n = gs_progress_format(&p, w, buf, sizeof buf);
		ck_assert_uint_le(n, w);
		ck_assert_uint_eq(n, strlen(buf));
	}
}
END_TEST

START_TEST(test_eta_units)
{
	struct gs_progress p = { .total = 100000, .elapsed_s = 100 };
	p.by_status[0] = 10; /* 0.1/s: 99990 left */
	char buf[512];
	gs_progress_format(&p, 200, buf, sizeof buf);
	ck_assert_str_eq(buf, "10/100000 (0%), 0.1/s, eta 11d13h, ok 10");
	p.by_status[0] = 99000;
	gs_progress_format(&p, 200, buf, sizeof buf);
	ck_assert_str_eq(buf, "99000/100000 (99%), 990/s, eta 1s, ok 99000");
	p.by_status[0] = 100000;
	gs_progress_format(&p, 200, buf, sizeof buf);
	ck_assert_str_eq(buf, "100000/100000 (100%), 1000/s, ok 100000");
}
END_TEST

START_TEST(test_compile_only)
{
	struct gs_progress p = { .total = 400, .elapsed_s = 4, .compile_only = 1, .visited = 100,
				 .compiled = 60, .cached = 30, .compile_errors = 10 };
	char buf[512];
	gs_progress_format(&p, 200, buf, sizeof buf);
	ck_assert_str_eq(buf, "100/400 (25%), 25.0/s, eta 12s, compiled 60, cached 30, compile_error 10");
	gs_progress_format(&p, 40, buf, sizeof buf);
	ck_assert_str_eq(buf, "100/400 (25%), eta 12s, compile_error 10");
}
END_TEST

GS_TEST_MAIN(test_wide_shows_every_kind, test_no_limit_is_complete, test_80_folds_the_failures,
	     test_40_keeps_done_and_eta, test_each_kind_alone, test_width_never_exceeded,
	     test_eta_units, test_compile_only)
