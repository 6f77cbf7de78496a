/* test_emu_confidence.c — the share of a launch's modeled time in what the
 * model approximates (dev/emu/model/confidence.c), per bound by hand, and
 * through the interval model on a copy whose stores write sectors in part. */
#include <string.h>

#include "harness.h"
#include "dev/emu.h"
#include "dev/emu/model/model.h"
#include "emucopy.h"

/* A block of 100 fp32, 20 memory (10 of them atomics, 30 data accesses in
 * all with the loads and stores they count), 10 "other" warp instructions,
 * 40 shared wavefronts; 90 L2 sectors of which 50 stored, 20 of those in
 * part; 1000 DRAM bytes of which 400 written back. */
static struct gs_emu_approx sample(void)
{
	struct gs_emu_approx a;
	memset(&a, 0, sizeof a);
	a.inst[GS_EMU_FP32] = 100;
	a.inst[GS_EMU_MEM] = 20;
	a.inst[GS_EMU_OTHER] = 10;
	a.atom = 10;
	a.mem = 30;
	a.smem = 40;
	a.l2_sectors = 90;
	a.st_sectors = 50;
	a.st_partial = 20;
	a.dram_bytes = 1000;
	a.dram_w = 400;
	return a;
}

START_TEST(test_share_per_bound)
{
	struct gs_emu_approx a = sample();
	/* without atomics, the bounding term alone */
	a.atom = 0;
	ck_assert_double_eq_tol(gs_emu_approx_share("fp32", &a), 0, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("lsu", &a), 0, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("other", &a), 1, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("issue", &a), 10.0 / 130, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("latency", &a), 10.0 / 130, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("dram latency", &a), 10.0 / 130, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("fetch", &a), 10.0 / 130, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("smem", &a), 0, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("l2", &a), 20.0 / 90, 1e-12);
	/* 400 bytes written back, 20 of 50 stored sectors partial */
	ck_assert_double_eq_tol(gs_emu_approx_share("dram", &a), 400 * 0.4 / 1000, 1e-12);
	/* bytes read again where the L2 lost a sector (reuse.c) count besides */
	a.dram_again = 300;
	ck_assert_double_eq_tol(gs_emu_approx_share("dram", &a), (400 * 0.4 + 300) / 1000, 1e-12);
	a.dram_again = 0;
	ck_assert_double_eq_tol(gs_emu_approx_share("l1", &a), 0, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("launch", &a), 0, 1e-12);
	/* local memory's rates are one benchmark's: all of it */
	ck_assert_double_eq_tol(gs_emu_approx_share("local memory", &a), 0, 1e-12);
	a.local = 12;
	ck_assert_double_eq_tol(gs_emu_approx_share("local memory", &a), 1, 1e-12);
	a.local = 0;
	/* with atomics: in the bound where they are its work, else their share
	 * of the data accesses (10 of 30), whichever is larger */
	a = sample();
	ck_assert_double_eq_tol(gs_emu_approx_share("lsu", &a), 10.0 / 20, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("fp32", &a), 10.0 / 30, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("launch", &a), 10.0 / 30, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("issue", &a), 10.0 / 30, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("smem", &a), 10.0 / 30, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("l2", &a), 10.0 / 30, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("other", &a), 1, 1e-12);
	a.mem = 100;
	ck_assert_double_eq_tol(gs_emu_approx_share("smem", &a), 10.0 / 50, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("l2", &a), 30.0 / 100, 1e-12);
	/* nothing to share: 0, never NaN */
	memset(&a, 0, sizeof a);
	ck_assert_double_eq_tol(gs_emu_approx_share("dram", &a), 0, 1e-12);
	ck_assert_double_eq_tol(gs_emu_approx_share("issue", &a), 0, 1e-12);
}
END_TEST

/* The words a confidence is told in. */
START_TEST(test_levels)
{
	ck_assert_str_eq(gs_emu_confidence_level(1), "high");
	ck_assert_str_eq(gs_emu_confidence_level(0.9), "high");
	ck_assert_str_eq(gs_emu_confidence_level(0.89), "medium");
	ck_assert_str_eq(gs_emu_confidence_level(0.5), "medium");
	ck_assert_str_eq(gs_emu_confidence_level(0.49), "low");
	ck_assert_str_eq(gs_emu_confidence_level(0), "low");
}
END_TEST

/* A DRAM-bound copy on the H100 profile (emucopy.h, as test_emu_model's
 * dram_rw): 1000 sectors read, 1000 written.  Whole sectors: nothing
 * approximated.  Every stored sector written in part: half the DRAM bytes
 * are the approximated write-backs.  Atomics as many as the loads: a third of the accesses. */
START_TEST(test_interval_partial_stores)
{
	struct gs_test_copy c;
	gs_test_copy_init(&c);
	c.st.c.gld_inst = c.st.c.gst_inst = 125;
	c.st.c.warp_inst[GS_EMU_MEM] = 250;
	struct gs_emu_interval iv;
	ck_assert_int_eq(gs_test_copy_model(&c, NULL, &iv), 0);
	ck_assert_str_eq(iv.bound, "dram");
	ck_assert_double_eq_tol(iv.approx, 0, 1e-12);
	c.st.st_partial = 1000;
	ck_assert_int_eq(gs_test_copy_model(&c, NULL, &iv), 0);
	ck_assert_str_eq(iv.bound, "dram");
	ck_assert_double_eq_tol(iv.approx, 0.5, 1e-12);
	c.st.st_partial = 250;
	ck_assert_int_eq(gs_test_copy_model(&c, NULL, &iv), 0);
	ck_assert_double_eq_tol(iv.approx, 0.125, 1e-12);
	c.st.c.atom_inst = 125;
	c.st.c.warp_inst[GS_EMU_MEM] = 375;
	ck_assert_int_eq(gs_test_copy_model(&c, NULL, &iv), 0);
	ck_assert_str_eq(iv.bound, "dram");
	ck_assert_double_eq_tol(iv.approx, 125.0 / 375, 1e-12);
}
END_TEST

GS_TEST_MAIN(test_share_per_bound, test_levels, test_interval_partial_stores)
