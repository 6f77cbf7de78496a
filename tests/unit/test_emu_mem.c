/* test_emu_mem.c — the emulated device's memory (addresses, bounds, gaps,
 * freeing) and its module image, without running any kernel. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dev/dev.h"
#include "dev/emu.h"
#include "dev/emu/interp/interp.h"
#include "harness.h"

START_TEST(test_mem_bounds)
{
	struct gs_emu_mem m = { 0 };
	uint64_t a, b;
	ck_assert_int_eq(gs_emu_mem_alloc(&m, 100, &a), 0);
	ck_assert_int_eq(gs_emu_mem_alloc(&m, 4096, &b), 0);
	ck_assert(b > a + 100);
	ck_assert_uint_eq(a % 256, 0);
	ck_assert_uint_eq(b % 256, 0);
	/* inside, at both ends */
	ck_assert_ptr_nonnull(gs_emu_mem_ptr(&m, a, 100));
	ck_assert_ptr_nonnull(gs_emu_mem_ptr(&m, a + 96, 4));
	ck_assert_ptr_nonnull(gs_emu_mem_ptr(&m, b + 4092, 4));
	/* running off the end, or before the start, or between two buffers */
	ck_assert_ptr_null(gs_emu_mem_ptr(&m, a + 97, 4));
	ck_assert_ptr_null(gs_emu_mem_ptr(&m, a - 4, 4));
	ck_assert_ptr_null(gs_emu_mem_ptr(&m, a + 200, 4));
	ck_assert_ptr_null(gs_emu_mem_ptr(&m, b + 4096, 1));
	ck_assert_ptr_null(gs_emu_mem_ptr(&m, 0, 4));
	ck_assert_ptr_null(gs_emu_mem_ptr(&m, UINT64_MAX - 2, 4));
	/* fresh memory reads as zeros */
	const unsigned char *p = gs_emu_mem_ptr(&m, b, 4096);
	for (int i = 0; i < 4096; i++)
		ck_assert_uint_eq(p[i], 0);
	/* freed memory faults, and its address is not handed out again */
	ck_assert_int_eq(gs_emu_mem_free(&m, a), 0);
	ck_assert_ptr_null(gs_emu_mem_ptr(&m, a, 4));
	ck_assert_int_eq(gs_emu_mem_free(&m, a), -1);
	ck_assert_int_eq(gs_emu_mem_free(&m, b + 4), -1);
	uint64_t c;
	ck_assert_int_eq(gs_emu_mem_alloc(&m, 100, &c), 0);
	ck_assert(c > b);
	ck_assert_ptr_nonnull(gs_emu_mem_ptr(&m, b, 4096));
	gs_emu_mem_release(&m);
}
END_TEST

START_TEST(test_counters_json)
{
	struct gs_emu_counters a = { 0 }, b = { 0 };
	a.warp_inst[GS_EMU_FP32] = 3;
	a.gld_trans = 7;
	b.warp_inst[GS_EMU_FP32] = 4;
	b.blocks = 2;
	gs_emu_counters_add(&a, &b);
	ck_assert_uint_eq(a.warp_inst[GS_EMU_FP32], 7);
	ck_assert_uint_eq(a.blocks, 2);
	char *j = gs_emu_counters_json(&a);
	ck_assert_ptr_nonnull(strstr(j, "\"fp32\":7"));
	ck_assert_ptr_nonnull(strstr(j, "\"gld_trans\":7"));
	ck_assert_ptr_nonnull(strstr(j, "\"blocks\":2"));
	free(j);
}
END_TEST

/* an image that is not one, or is cut short, is refused with a reason */
START_TEST(test_image_refused)
{
	struct gs_dev *d;
	struct gs_devinfo info;
	char err[256];
	if (gs_dev_emu.count(NULL, 0) < 1)
		return; /* no profiles in this build */
	ck_assert_int_eq(gs_dev_emu.open(0, &d, &info, err, sizeof err), 0);
	struct gs_module *m = NULL;
	ck_assert_int_eq(gs_dev_emu.module_load(d, "\x7f" "ELF....", 8, &m), GS_DEV_LAUNCH);
	ck_assert_ptr_nonnull(strstr(gs_dev_emu.errmsg(d), "not an emulator image"));
	void *img;
	size_t n = gs_emu_image_pack("cubin", 5, ".version 8.0", 12, &img);
	ck_assert_int_eq(gs_dev_emu.module_load(d, img, n - 15, &m), GS_DEV_LAUNCH);
	ck_assert_ptr_nonnull(strstr(gs_dev_emu.errmsg(d), "truncated"));
	free(img);
	gs_dev_emu.close(d);
}
END_TEST

/* The budget is checked before any host memory is asked for: an
 * allocation past it is refused (-2) whatever its size, and freeing gives
 * its bytes back. */
START_TEST(test_mem_limit)
{
	struct gs_emu_mem m = { 0 };
	m.limit = 1 << 20;
	uint64_t a, b;
	ck_assert_int_eq(gs_emu_mem_alloc(&m, 600 << 10, &a), 0);
	ck_assert_int_eq(gs_emu_mem_alloc(&m, 600 << 10, &b), -2);
	ck_assert_int_eq(gs_emu_mem_alloc(&m, UINT64_MAX - 8, &b), -2);
	ck_assert_uint_eq(m.used, 600 << 10);
	ck_assert_int_eq(gs_emu_mem_free(&m, a), 0);
	ck_assert_uint_eq(m.used, 0);
	ck_assert_int_eq(gs_emu_mem_alloc(&m, 1 << 20, &b), 0);
	gs_emu_mem_release(&m);
}
END_TEST

/* GSEARCH_EMU_MEM caps the emulated device's memory below its profile's,
 * and the refusal names the cap. */
START_TEST(test_dev_host_cap)
{
	setenv("GSEARCH_EMU_MEM", "64K", 1);
	struct gs_dev *d;
	struct gs_devinfo info;
	char err[256];
	int sm90 = 0;
	while (gs_emu_profiles[sm90] && strcmp(gs_emu_profiles[sm90]->name, "sm_90"))
		sm90++;
	ck_assert_int_eq(gs_dev_emu.open(sm90, &d, &info, err, sizeof err), 0);
	ck_assert_uint_eq(info.mem_bytes, 64 << 10);
	uint64_t a;
	ck_assert_int_eq(gs_dev_emu.alloc(d, 60 << 10, &a), 0);
	ck_assert_int_lt(gs_dev_emu.alloc(d, 8 << 10, &a), 0);
	ck_assert_ptr_nonnull(strstr(gs_dev_emu.errmsg(d), "GSEARCH_EMU_MEM"));
	gs_dev_emu.close(d);
	unsetenv("GSEARCH_EMU_MEM");
	ck_assert_int_eq(gs_dev_emu.open(sm90, &d, &info, err, sizeof err), 0);
	ck_assert(info.mem_bytes > 64 << 10);
	gs_dev_emu.close(d);
}
END_TEST

GS_TEST_MAIN(test_mem_bounds, test_counters_json, test_image_refused, test_mem_limit, test_dev_host_cap)
