/* test_ptx_params.c — what the PTX reader keeps of an entry's parameters,
 * for `check`'s comparison with a launch's arguments. */
#include "harness.h"
#include "dev/emu.h"

static const char ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(\n"
	"\t.param .u64 .ptr .global .align 4 k_param_0,\n"
	"\t.param .u64 k_param_1,\n"
	"\t.param .f32 k_param_2,\n"
	"\t.param .u32 k_param_3,\n"
	"\t.param .align 8 .b8 k_param_4[16]\n"
	")\n{\n\tret;\n}\n";

START_TEST(test_param_types)
{
	struct gs_emu_mem mem;
	char err[256];
	memset(&mem, 0, sizeof mem);
	struct gs_ptx_module *m = gs_ptx_load(ptx, sizeof ptx - 1, &mem, err, sizeof err);
	ck_assert_msg(m != NULL, "%s", err);
	int e = gs_ptx_entry(m, "k");
	ck_assert_int_ge(e, 0);
	const size_t *sizes;
	ck_assert_uint_eq(gs_ptx_params(m, e, &sizes), 5);
	struct gs_ptx_param p;
	ck_assert_int_eq(gs_ptx_param(m, e, 0, &p), 0);
	ck_assert_str_eq(p.type, ".u64");
	ck_assert(p.is_ptr && p.is_int && !p.is_float && !p.is_array && p.size == 8);
	ck_assert_int_eq(gs_ptx_param(m, e, 1, &p), 0);
	ck_assert(!p.is_ptr && p.is_int && p.size == 8);
	ck_assert_int_eq(gs_ptx_param(m, e, 2, &p), 0);
	ck_assert_str_eq(p.type, ".f32");
	ck_assert(p.is_float && !p.is_int && p.size == 4);
	ck_assert_int_eq(gs_ptx_param(m, e, 3, &p), 0);
	ck_assert(p.is_int && !p.is_float && p.size == 4);
	ck_assert_int_eq(gs_ptx_param(m, e, 4, &p), 0);
	ck_assert_str_eq(p.type, ".b8");
	ck_assert(p.is_array && !p.is_int && !p.is_float && p.size == 16);
	ck_assert_int_eq(gs_ptx_param(m, e, 5, &p), -1);
	ck_assert_int_eq(gs_ptx_param(m, -1, 0, &p), -1);
	gs_ptx_free(m, &mem);
	gs_emu_mem_release(&mem);
}
END_TEST

GS_TEST_MAIN(test_param_types)
