/* test_emu_ptx.c — the PTX loader of the emulated device: hand-written PTX
 * for errors, layout and reconvergence points, and the PTX NVRTC makes of
 * the test kernels and of a sample of every bundled space's variants (sm_90
 * and sm_75, with and without -use_fast_math), each of which must load with
 * every instruction decoded.
 *
 * Tests that need NVRTC pass with a printed note where it cannot be loaded.
 * GS_TEST_VERBOSE=1 prints what was loaded; GS_PTX_DUMP=1 also dumps each
 * module. */
#define _GNU_SOURCE
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/emu/interp/ptx_int.h"
#include "gen/gen.h"
#include "gen/variant.h"
#include "harness.h"
#include "nvrtc.h"
#include "lang/expr.h"
#include "space/enum.h"
#include "space/load.h"
#include "util/util.h"

static int env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

/* ---- hand-written PTX ------------------------------------------------------------ */

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

struct loaded {
	struct gs_emu_mem mem;
	struct gs_ptx_module *m;
	char err[512];
};

static void load(struct loaded *l, const char *text)
{
	memset(l, 0, sizeof(*l));
	l->m = gs_ptx_load(text, strlen(text), &l->mem, l->err, sizeof l->err);
	if (l->m && env_on("GS_PTX_DUMP"))
		gs_ptx_dump(stdout, l->m);
}

/* Every instruction of m has an operand layout, and writes (by it) only
 * registers, never a constant slot: a layout that names the wrong operands
 * gives the model's dependency chains wrong registers.  VOTE is the one
 * exception ptx_int.h states: its predicate result is followed as a
 * register. */
static void check_layouts(const char *what, const struct gs_ptx_module *m)
{
	for (size_t pc = 0; pc < m->ncode; pc++) {
		const struct gs_ins *in = &m->code[pc];
		uint32_t r[6];
		int n;

		ck_assert_msg(in->op < GS_OP_COUNT && gs_op_lay[in->op] >= GS_LAY_NONE &&
			      gs_op_lay[in->op] < GS_LAY_COUNT, "%s: pc %zu: %s has no layout", what,
			      pc, gs_ptx_op_name(in->op));
		n = gs_ins_regs(in, 1, r);
		for (int i = 0; i < n && in->op != GS_OP_VOTE; i++)
			ck_assert_msg(r[i] == GS_NONE || (r[i] >= m->const_hi && r[i] < m->rf_bytes),
				      "%s: pc %zu (line %u): %s writes %u, not a register", what, pc,
				      in->line, gs_ptx_op_name(in->op), r[i]);
		n = gs_ins_regs(in, 0, r);
		for (int i = 0; i < n; i++)
			ck_assert_msg(r[i] == GS_NONE || r[i] < m->rf_bytes,
				      "%s: pc %zu (line %u): %s reads %u, outside the registers", what,
				      pc, in->line, gs_ptx_op_name(in->op), r[i]);
	}
}

static void load_ok(struct loaded *l, const char *text)
{
	load(l, text);
	ck_assert_msg(l->m != NULL, "load failed: %s", l->err);
	check_layouts("handwritten", l->m);
}

static void unload(struct loaded *l)
{
	gs_ptx_free(l->m, &l->mem);
	/* every module variable went back to the memory */
	ck_assert_uint_eq(l->mem.n, 0);
	gs_emu_mem_release(&l->mem);
}

/* loading text fails with exactly `msg` */
static void load_fails(const char *text, const char *msg)
{
	struct loaded l;

	load(&l, text);
	ck_assert_msg(l.m == NULL, "loaded, expected: %s", msg);
	ck_assert_str_eq(l.err, msg);
	ck_assert_uint_eq(l.mem.n, 0);
	gs_emu_mem_release(&l.mem);
}

START_TEST(test_errors_positioned)
{
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tfma.rn.relu.f16x2 %r1, %r1, %r2, %r2;\n"
		   "\tret;\n}\n",
		   "emulator: unsupported instruction 'fma.rn.relu.f16x2' at line 7");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, ;\n}\n",
		   "emulator: cannot parse ';' (expected an operand) at line 7");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\n\ttex.1d.v4.f32.s32 %r1, "
		   "[t, {%r2}];\n}\n",
		   "emulator: unsupported instruction 'tex.1d.v4.f32.s32' at line 8");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r9, 1;\n}\n",
		   "emulator: register '%r9' at line 7 is beyond its declaration '%r<3>'");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %q1, 1;\n}\n",
		   "emulator: unknown or unsupported register '%q1' at line 7");
	load_fails(HEAD ".visible .entry k()\n{\n\tbar.sync 1;\n}\n",
		   "emulator: named barriers ('bar.sync' at line 6) are not supported");
	load_fails(HEAD ".visible .entry k()\n{\n\tbra $L_nowhere;\n}\n",
		   "emulator: unknown label '$L_nowhere' at line 6");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tadd.s32 %r1, %r2;\n}\n",
		   "emulator: cannot parse 'add.s32' at line 7: too few operands");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b64 %rd<3>;\n\tadd.s32 %rd1, %rd2, "
		   "1;\n}\n",
		   "emulator: cannot parse 'add.s32' at line 7: '%rd1' is a 64-bit register, the "
		   "instruction needs 32 bits");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, "
		   "0f3F800000;\n}\n",
		   "emulator: cannot parse 'mov.u32' at line 7: a floating-point constant for an "
		   "integer operand");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 1 2;\n}\n",
		   "emulator: cannot parse '2' (expected ',' or ';') at line 7");
	load_fails(HEAD ".global .align 4 .u32 g = 1;\n.global .u32 g;\n",
		   "emulator: cannot parse: 'g' redefined at line 5");
	load_fails(HEAD ".visible .entry k()\n{\n\tmov.u32 %r1, 1;\n",
		   "emulator: unknown or unsupported register '%r1' at line 6");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 1;\n",
		   "emulator: cannot parse 'end of file' (expected '}') at line 8");
	load_fails(".version 8.0\n.target sm_90\n.address_size 32\n",
		   "emulator: .address_size 32 at line 3 is not supported (only 64)");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tvabsdiff4.u32.u32.u32 "
		   "%r1, %r1, %r2, %r2;\n}\n",
		   "emulator: unsupported instruction 'vabsdiff4.u32.u32.u32' at line 7");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tadd.s16x2 %r1, %r1, "
		   "%r2;\n}\n",
		   "emulator: unsupported instruction 'add.s16x2' at line 7");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .f32 %f<3>;\n\tmin.xorsign.abs.f32 "
		   "%f1, %f1, %f2;\n}\n",
		   "emulator: unsupported instruction 'min.xorsign.abs.f32' at line 7");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tld.global.nc.L2::hint.u32 "
		   "%r1, [%r2];\n}\n",
		   "emulator: unsupported instruction 'ld.global.nc.L2::hint.u32' at line 7");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b128 %q<3>;\n}\n",
		   "emulator: unsupported register type '.b128' at line 6");
	load_fails(HEAD "@ .visible",
		   "emulator: cannot parse '@' (expected a directive) at line 4");
}
END_TEST

/* registers of inline assembly live in their block; names without % */
START_TEST(test_scopes)
{
	struct loaded l;
	const struct gs_ins *c;

	load_ok(&l, HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n"
		"\t{\n\t.reg .b32 t;\n\tmov.b32 t, 5;\n\tmov.b32 %r1, t;\n\t}\n"
		"\t{\n\t.reg .b64 t;\n\t.reg .pred p;\n\tmov.b64 t, 6;\n"
		"\tsetp.ne.s64 p, t, 0;\n\t@p mov.b32 %r1, 7;\n\t}\n\tret;\n}\n");
	c = l.m->code;
	ck_assert_uint_eq(l.m->ncode, 6);
	ck_assert_int_eq(c[0].op, GS_OP_MOV32);
	ck_assert_uint_eq(c[0].o[0], c[1].o[1]);
	ck_assert_int_eq(c[2].op, GS_OP_MOV64);
	ck_assert_uint_ne(c[2].o[0], c[0].o[0]);
	ck_assert_uint_eq(c[3].o[2], c[2].o[0]);
	ck_assert_int_eq(c[4].guard, (int)c[3].o[0]);
	unload(&l);
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n"
		   "\t{\n\t.reg .b32 t;\n\tmov.b32 t, 5;\n\t}\n\tmov.b32 %r1, t;\n}\n",
		   "emulator: unknown symbol 't' at line 11");
}
END_TEST

START_TEST(test_errors_calls)
{
	/* printf: a call of an external function */
	load_fails(HEAD ".extern .func (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 "
		   "vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;\n"
		   ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
		   "\tmov.u64 %rd1, 0;\n\t{ // callseq 0, 0\n"
		   "\t.param .b64 param0;\n\tst.param.b64 [param0], %rd1;\n"
		   "\t.param .b64 param1;\n\tst.param.b64 [param1], %rd1;\n"
		   "\t.param .b32 retval0;\n\tcall.uni (retval0), vprintf, (param0, param1);\n"
		   "\tld.param.b32 %r1, [retval0];\n\t}\n\tret;\n}\n",
		   "emulator: call of external function 'vprintf' at line 21 is not supported");
	/* recursion, through a second function */
	load_fails(HEAD ".func f();\n.func g()\n{\n\tcall.uni f;\n\tret;\n}\n"
		   ".func f()\n{\n\tcall.uni g;\n\tret;\n}\n"
		   ".visible .entry k()\n{\n\tcall.uni f;\n\tret;\n}\n",
		   "emulator: recursion is not supported: 'g' calls 'f' at line 7, which is "
		   "already being called");
	load_fails(HEAD ".func f()\n{\n\tcall.uni f;\n\tret;\n}\n",
		   "emulator: recursion is not supported: 'f' calls 'f' at line 6, which is "
		   "already being called");
	load_fails(HEAD ".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\tcall.uni %rd1;\n}\n",
		   "emulator: indirect calls (line 7) are not supported");
	load_fails(HEAD ".func (.param .b32 r) f(.param .b32 a)\n{\n\tret;\n}\n"
		   ".visible .entry k()\n{\n\t{\n\t.param .b32 p0;\n\t.param .b32 p1;\n"
		   "\tcall.uni f, (p0, p1);\n\t}\n\tret;\n}\n",
		   "emulator: call of 'f' at line 13 does not match its parameters");
}
END_TEST

/* the first instruction of function f whose opcode text is `text` */
static const struct gs_ins *find_ins(const struct gs_ptx_module *m, int f, const char *text)
{
	for (int32_t pc = m->funcs[f].pc0; pc < m->funcs[f].pc1; pc++)
		if (strcmp(m->strings + m->code[pc].text, text) == 0)
			return &m->code[pc];
	ck_abort_msg("no '%s' in %s", text, m->funcs[f].name);
	return NULL;
}

static const struct gs_slot *slot_at(const struct gs_ptx_module *m, uint32_t off)
{
	for (size_t i = 0; i < m->nslots; i++)
		if (m->slots[i].off == off)
			return &m->slots[i];
	return NULL;
}

/* lane l of the template of entry e at register offset off */
static uint64_t tmpl(const struct gs_ptx_module *m, int e, uint32_t off, int wide, int l)
{
	const unsigned char *p = m->funcs[e].consts + (off - m->const_lo);

	if (wide) {
		uint64_t v;

		memcpy(&v, p + 8 * l, 8);
		return v;
	}
	uint32_t v;

	memcpy(&v, p + 4 * l, 4);
	return v;
}

static const char LAYOUT[] = HEAD
	".shared .align 4 .b8 sa[100];\n"
	".shared .align 16 .b8 sb[16];\n"
	".extern .shared .align 16 .b8 dyn[];\n"
	".global .align 4 .u32 counter;\n"
	".func (.param .b32 r) bump(.param .b64 p, .param .b32 v)\n"
	"{\n"
	"\t.reg .b32 %r<3>;\n"
	"\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [p];\n"
	"\tld.param.u32 %r1, [v];\n"
	"\tatom.global.add.u32 %r2, [%rd1], %r1;\n"
	"\tst.param.b32 [r], %r2;\n"
	"\tret;\n"
	"}\n"
	".visible .entry one(.param .u64 one_param_0, .param .align 8 .b8 one_param_1[12], "
	".param .u8 one_param_2, .param .f64 one_param_3)\n"
	".maxntid 128, 1, 1\n"
	"{\n"
	"\t.local .align 8 .b8 __local_depot0[24];\n"
	"\t.reg .b32 %r<4>;\n"
	"\t.reg .b64 %rd<4>;\n"
	"\tmov.u64 %rd1, __local_depot0;\n"
	"\tmov.u32 %r1, 7;\n"
	"\tst.shared.u32 [sa+8], %r1;\n"
	"\tmov.u64 %rd2, sb;\n"
	"\tst.shared.u32 [dyn], %r1;\n"
	"\tld.param.u64 %rd3, [one_param_0];\n"
	"\t{\n"
	"\t.param .b64 param0;\n"
	"\tst.param.b64 [param0+0], %rd3;\n"
	"\t.param .b32 param1;\n"
	"\tst.param.b32 [param1+0], %r1;\n"
	"\t.param .b32 retval0;\n"
	"\tcall.uni (retval0), bump, (param0, param1);\n"
	"\tld.param.b32 %r2, [retval0+0];\n"
	"\t}\n"
	"\tret;\n"
	"}\n"
	".visible .entry two()\n"
	"{\n"
	"\t.reg .b32 %r<2>;\n"
	"\t.reg .b64 %rd<2>;\n"
	"\tmov.u32 %r1, 7;\n"
	"\tmov.u64 %rd1, sb;\n"
	"\tld.global.u32 %r1, [counter];\n"
	"}\n";

START_TEST(test_layout)
{
	struct loaded l;
	const struct gs_ptx_module *m;
	const size_t *sizes;
	int one, two, bump;

	load_ok(&l, LAYOUT);
	m = l.m;
	ck_assert_int_eq(m->sm, 90);
	one = gs_ptx_entry(m, "one");
	two = gs_ptx_entry(m, "two");
	bump = 0;
	ck_assert_int_ge(one, 0);
	ck_assert_int_ge(two, 0);
	ck_assert_int_eq(gs_ptx_entry(m, "bump"), -1); /* a .func is no entry */
	ck_assert_int_eq(gs_ptx_entry(m, "three"), -1);
	ck_assert_str_eq(m->funcs[bump].name, "bump");

	/* kernel parameters: sizes, and offsets aligned as the ABI wants */
	ck_assert_uint_eq(gs_ptx_params(m, one, &sizes), 4);
	ck_assert_uint_eq(sizes[0], 8);
	ck_assert_uint_eq(sizes[1], 12);
	ck_assert_uint_eq(sizes[2], 1);
	ck_assert_uint_eq(sizes[3], 8);
	ck_assert_uint_eq(m->funcs[one].poff[1], 8);
	ck_assert_uint_eq(m->funcs[one].poff[2], 20);
	ck_assert_uint_eq(m->funcs[one].poff[3], 24);
	ck_assert_uint_eq(m->funcs[one].kparam_bytes, 32);
	ck_assert_uint_eq(gs_ptx_params(m, two, &sizes), 0);
	ck_assert_uint_eq(gs_ptx_params(m, 99, &sizes), 0);
	ck_assert_ptr_null(sizes);
	ck_assert_uint_eq(m->funcs[one].maxntid[0], 128);

	/* the function's parameters and return value in the per-thread area */
	ck_assert_uint_eq(m->funcs[bump].poff[0], 0);
	ck_assert_uint_eq(m->funcs[bump].poff[1], 8);
	ck_assert_uint_eq(m->funcs[bump].roff, 12);
	ck_assert_uint_eq(m->lparam_bytes, 16);

	/* shared memory: what each entry uses, in declaration order, aligned */
	ck_assert_uint_eq(gs_ptx_static_smem(m, one), 128);
	ck_assert_uint_eq(gs_ptx_static_smem(m, two), 16);
	ck_assert_uint_eq(m->funcs[one].dyn_align, 16);
	ck_assert_uint_eq(m->funcs[one].local_bytes, 24);
	ck_assert_uint_eq(m->funcs[two].local_bytes, 0);

	/* global atomics in a callee make the caller run its blocks in order */
	ck_assert_int_eq(m->funcs[bump].global_atomics, 1);
	ck_assert_int_eq(m->funcs[one].seq, 1);
	ck_assert_int_eq(m->funcs[two].seq, 0);
	ck_assert_uint_eq(m->funcs[one].ncallees, 1);
	ck_assert_int_eq(m->funcs[one].callees[0], bump);

	/* the template: immediates and per-entry addresses in every lane */
	const struct gs_ins *mv1 = find_ins(m, one, "mov.u32");
	const struct gs_ins *mv2 = find_ins(m, two, "mov.u32");
	const struct gs_slot *s7 = slot_at(m, mv1->o[1]);

	ck_assert_ptr_nonnull(s7);
	ck_assert_int_eq(s7->kind, GS_SLOT_IMM);
	ck_assert_uint_eq(mv2->o[1], mv1->o[1]); /* one slot per distinct constant */
	for (int l = 0; l < GS_WARP; l++) {
		ck_assert_uint_eq(tmpl(m, one, s7->off, 0, l), 7);
		ck_assert_uint_eq(tmpl(m, two, s7->off, 0, l), 7);
	}
	/* entries share their register range (their first registers coincide),
	 * functions have their own */
	ck_assert_uint_eq(m->code[m->funcs[one].pc0].o[0], m->code[m->funcs[two].pc0].o[0]);
	ck_assert_uint_ne(mv1->o[0], mv2->o[0]);
	ck_assert_uint_ge(m->code[m->funcs[bump].pc0].o[0], m->const_hi);
	ck_assert_uint_lt(m->code[m->funcs[bump].pc0].o[0], m->code[m->funcs[one].pc0].o[0]);
	const struct gs_ins *sb1 = find_ins(m, one, "mov.u64");
	const struct gs_ins *sb2 = &m->code[m->funcs[two].pc0 + 1];
	const struct gs_slot *ssb = slot_at(m, sb2->o[1]);

	ck_assert_ptr_nonnull(ssb);
	ck_assert_int_eq(ssb->kind, GS_SLOT_SYM);
	ck_assert_str_eq(m->vars[ssb->val].name, "sb");
	ck_assert_uint_eq(tmpl(m, one, ssb->off, 1, 31), 112);
	ck_assert_uint_eq(tmpl(m, two, ssb->off, 1, 0), 0);
	const struct gs_slot *sdepot = slot_at(m, sb1->o[1]);

	ck_assert_str_eq(m->vars[sdepot->val].name, "__local_depot0");
	ck_assert_uint_eq(tmpl(m, one, sdepot->off, 1, 5), 0);
	/* dynamic shared memory starts after the static, aligned */
	const struct gs_ins *st = find_ins(m, one, "st.shared.u32");

	ck_assert_int_eq(st->sub, GS_SP_SHARED);
	ck_assert_int_eq(st->imm, 8);
	ck_assert_uint_eq(tmpl(m, one, st->o[4], 1, 0), 0); /* sa */
	st = &m->code[st - m->code + 2];
	ck_assert_uint_eq(tmpl(m, one, st->o[4], 1, 0), 128); /* dyn */

	/* a kernel parameter by name: LDKP at its offset; call-sequence
	 * parameters are the callee's own */
	const struct gs_ins *kp = find_ins(m, one, "ld.param.u64");

	ck_assert_int_eq(kp->op, GS_OP_LDKP);
	ck_assert_uint_eq(tmpl(m, one, kp->o[4], 1, 0), 0);
	const struct gs_ins *a0 = find_ins(m, one, "st.param.b64");
	const struct gs_ins *a1 = find_ins(m, one, "st.param.b32");
	const struct gs_ins *r0 = find_ins(m, one, "ld.param.b32");
	const struct gs_ins *p0 = find_ins(m, bump, "ld.param.u64");

	ck_assert_int_eq(a0->op, GS_OP_ST);
	ck_assert_int_eq(a0->sub, GS_SP_PARAM);
	ck_assert_int_eq(r0->sub, GS_SP_PARAM);
	ck_assert_uint_eq(a0->o[4], p0->o[4]);
	ck_assert_uint_eq(tmpl(m, one, a1->o[4], 1, 0), 8);
	ck_assert_uint_eq(tmpl(m, one, r0->o[4], 1, 0), 12);
	const struct gs_ins *call = find_ins(m, one, "call.uni");

	ck_assert_int_eq(call->op, GS_OP_CALL);
	ck_assert_int_eq(call->tgt, m->funcs[bump].pc0);
	ck_assert_uint_eq(call->o[0], (uint32_t)bump);
	/* ret ends a kernel's threads, returns from a function; a body without
	 * a final ret gets one */
	ck_assert_int_eq(m->code[m->funcs[one].pc1 - 1].op, GS_OP_EXIT);
	ck_assert_int_eq(m->code[m->funcs[bump].pc1 - 1].op, GS_OP_RET);
	ck_assert_int_eq(m->code[m->funcs[two].pc1 - 1].op, GS_OP_EXIT);
	ck_assert_uint_eq(m->code[m->funcs[two].pc1 - 1].line, 48);

	/* the global variable: allocated, found by name, addressed by the template */
	uint64_t addr, size;

	ck_assert_int_eq(gs_ptx_symbol(m, "counter", &addr, &size), 0);
	ck_assert_uint_eq(size, 4);
	ck_assert_ptr_nonnull(gs_emu_mem_ptr(&l.mem, addr, 4));
	ck_assert_int_eq(gs_ptx_symbol(m, "sa", &addr, &size), -1);
	ck_assert_int_eq(gs_ptx_symbol(m, "nothing", &addr, &size), -1);
	const struct gs_ins *lg = find_ins(m, two, "ld.global.u32");

	ck_assert_uint_eq(tmpl(m, two, lg->o[4], 1, 17), addr);
	unload(&l);
}
END_TEST

static const char CONTROL[] = HEAD
	".visible .entry k(.param .u32 k_param_0)\n"
	"{\n"
	"\t.reg .pred %p<5>;\n"
	"\t.reg .b32 %r<6>;\n"
	"\tld.param.u32 %r1, [k_param_0];\n"       /* 0 */
	"\tmov.u32 %r2, %tid.x;\n"                 /* 1 */
	"\tsetp.lt.u32 %p1, %r2, %r1;\n"           /* 2 */
	"\t@%p1 bra $L_else;\n"                    /* 3: if/else, meets at $L_join */
	"\tadd.s32 %r3, %r2, 1;\n"                 /* 4 */
	"\tbra.uni $L_join;\n"                     /* 5 */
	"$L_else:\n"
	"\tadd.s32 %r3, %r2, 2;\n"                 /* 6 */
	"$L_join:\n"
	"\tmov.u32 %r4, 0;\n"                      /* 7 */
	"$L_loop:\n"
	"\tadd.s32 %r4, %r4, 1;\n"                 /* 8 */
	"\tsetp.eq.s32 %p2, %r4, %r2;\n"           /* 9 */
	"\t@%p2 bra $L_after;\n"                   /* 10: break */
	"\tsetp.lt.s32 %p3, %r4, 10;\n"            /* 11 */
	"\t@%p3 bra $L_loop;\n"                    /* 12: back edge */
	"$L_after:\n"
	"\tsetp.eq.s32 %p1, %r3, 5;\n"             /* 13 */
	"\t@!%p1 bra $L_skip;\n"                   /* 14: an early return inside */
	"\tmov.u32 %r5, 1;\n"                      /* 15 */
	"\tret;\n"                                 /* 16 */
	"$L_skip:\n"
	"\tsetp.gt.s32 %p4, %r3, 3;\n"             /* 17 */
	"\t@%p4 ret;\n"                            /* 18 */
	"\tmov.u32 %r5, 2;\n"                      /* 19 */
	"$L_spin:\n"
	"\tsetp.ne.s32 %p4, %r5, 0;\n"             /* 20: a loop that never ends */
	"\t@%p4 bra $L_spin2;\n"                   /* 21 */
	"\tadd.s32 %r5, %r5, 1;\n"                 /* 22 */
	"$L_spin2:\n"
	"\tbra.uni $L_spin;\n"                     /* 23 */
	"}\n";

START_TEST(test_reconvergence)
{
	struct loaded l;
	const struct gs_ins *c;

	load_ok(&l, CONTROL);
	c = l.m->code;
	ck_assert_uint_eq(l.m->ncode, 24);
	ck_assert_int_eq(c[3].op, GS_OP_BRA);
	ck_assert_int_eq(c[3].guard, 2);
	ck_assert_int_eq(c[3].gneg, 0);
	ck_assert_int_eq(c[3].tgt, 6);
	ck_assert_int_eq(c[3].rpc, 7);
	ck_assert_int_eq(c[5].tgt, 7);
	ck_assert_int_eq(c[5].guard, -1);
	ck_assert_int_eq(c[10].tgt, 13);
	ck_assert_int_eq(c[10].rpc, 13);
	ck_assert_int_eq(c[12].tgt, 8);
	ck_assert_int_eq(c[12].rpc, 13);
	ck_assert_int_eq(c[14].gneg, 1);
	ck_assert_int_eq(c[14].tgt, 17);
	ck_assert_int_eq(c[14].rpc, -1); /* one path returns: they meet at the end */
	ck_assert_int_eq(c[18].op, GS_OP_EXIT);
	ck_assert_int_eq(c[18].guard, 5);
	ck_assert_int_eq(c[16].op, GS_OP_EXIT);
	ck_assert_int_eq(c[21].tgt, 23);
	ck_assert_int_eq(c[21].rpc, 23);
	ck_assert_int_eq(c[23].tgt, 20);
	/* the special register and the predicate file */
	ck_assert_int_eq(slot_at(l.m, c[1].o[1])->kind, GS_SLOT_SPECIAL);
	ck_assert_uint_eq(slot_at(l.m, c[1].o[1])->val, GS_SR_TID_X);
	ck_assert_uint_eq(l.m->npred, 6);
	unload(&l);
}
END_TEST

static const char VARS[] = HEAD
	".const .align 4 .b8 ctab[32] = {3, 0, 0, 0, 1, 0, 0, 0, 4};\n"
	".const .align 4 .f32 cscale = 0f3F000000;\n"
	".global .align 8 .f64 dd[2] = {0d4000000000000000, 1.5};\n"
	".global .align 4 .u32 words[] = {1, 2, 3};\n"
	".global .align 8 .u64 ptrs[2] = {ctab, generic(words)+4};\n"
	".global .align 2 .s16 neg = -2;\n"
	".global .align 1 .b8 str[4] = {104, 105};\n";

START_TEST(test_variables)
{
	struct loaded l;
	uint64_t a, n, ctab, words;
	unsigned char *p;

	load_ok(&l, VARS);
	ck_assert_int_eq(gs_ptx_symbol(l.m, "ctab", &ctab, &n), 0);
	ck_assert_uint_eq(n, 32);
	p = gs_emu_mem_ptr(&l.mem, ctab, 32);
	ck_assert_int_eq(p[0], 3);
	ck_assert_int_eq(p[4], 1);
	ck_assert_int_eq(p[8], 4);
	ck_assert_int_eq(p[12], 0); /* the rest is zero */
	ck_assert_int_eq(p[31], 0);
	ck_assert_int_eq(gs_ptx_symbol(l.m, "cscale", &a, &n), 0);
	float f;

	memcpy(&f, gs_emu_mem_ptr(&l.mem, a, 4), 4);
	ck_assert(f == 0.5f);
	ck_assert_int_eq(gs_ptx_symbol(l.m, "dd", &a, &n), 0);
	double d[2];

	memcpy(d, gs_emu_mem_ptr(&l.mem, a, 16), 16);
	ck_assert(d[0] == 2.0 && d[1] == 1.5);
	ck_assert_int_eq(gs_ptx_symbol(l.m, "words", &words, &n), 0);
	ck_assert_uint_eq(n, 12);
	ck_assert_int_eq(gs_ptx_symbol(l.m, "ptrs", &a, &n), 0);
	uint64_t ptrs[2];

	memcpy(ptrs, gs_emu_mem_ptr(&l.mem, a, 16), 16);
	ck_assert_uint_eq(ptrs[0], ctab);
	ck_assert_uint_eq(ptrs[1], words + 4);
	ck_assert_int_eq(gs_ptx_symbol(l.m, "neg", &a, &n), 0);
	p = gs_emu_mem_ptr(&l.mem, a, 2);
	ck_assert_int_eq(p[0], 0xfe);
	ck_assert_int_eq(p[1], 0xff);
	ck_assert_int_eq(gs_ptx_symbol(l.m, "str", &a, &n), 0);
	p = gs_emu_mem_ptr(&l.mem, a, 4);
	ck_assert_int_eq(p[1], 105);
	/* variables lie apart: running off one faults */
	ck_assert_ptr_null(gs_emu_mem_ptr(&l.mem, ctab, 33));
	unload(&l);

	load_fails(HEAD ".global .align 4 .u32 w[2] = {1, 2, 3};\n",
		   "emulator: cannot parse: initializer of 'w' larger than the variable at line 4");
	load_fails(HEAD ".global .align 8 .u64 q = nothing;\n",
		   "emulator: unsupported initializer 'nothing' of 'q' at line 4");
	load_fails(HEAD ".extern .global .align 4 .u32 ext;\n",
		   "emulator: external variable 'ext' at line 4 is not supported");
}
END_TEST

/* ---- the layout, executed ------------------------------------------------------------ */

/* What the loader laid out, checked by running it: call sequences (nested),
 * a struct parameter, a kernel parameter through its generic address, a
 * constant table, 32-bit shared addresses with dynamic shared memory after
 * the static, the local depot through %SP, setp with two results. */
static const char RUN[] = HEAD
	".const .align 4 .b8 tab[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4};\n"
	".shared .align 4 .b8 sh[256];\n"
	".extern .shared .align 16 .b8 dyn[];\n"
	".func (.param .b32 r) twice(.param .b32 x)\n"
	"{\n"
	"\t.reg .b32 %r<3>;\n"
	"\tld.param.u32 %r1, [x];\n"
	"\tshl.b32 %r2, %r1, 1;\n"
	"\tst.param.b32 [r], %r2;\n"
	"\tret;\n"
	"}\n"
	".func (.param .b32 r) addtw(.param .b32 a, .param .b32 b)\n"
	"{\n"
	"\t.reg .b32 %r<5>;\n"
	"\tld.param.u32 %r1, [a];\n"
	"\tld.param.u32 %r2, [b];\n"
	"\t{\n"
	"\t.param .b32 p0;\n"
	"\tst.param.b32 [p0], %r2;\n"
	"\t.param .b32 r0;\n"
	"\tcall.uni (r0), twice, (p0);\n"
	"\tld.param.b32 %r3, [r0];\n"
	"\t}\n"
	"\tadd.s32 %r4, %r1, %r3;\n"
	"\tst.param.b32 [r], %r4;\n"
	"\tret;\n"
	"}\n"
	".visible .entry k(.param .u64 k_out, .param .align 8 .b8 k_s[16], .param .u32 k_n)\n"
	"{\n"
	"\t.local .align 8 .b8 __local_depot0[16];\n"
	"\t.reg .pred %p<4>;\n"
	"\t.reg .b32 %r<20>;\n"
	"\t.reg .b64 %rd<12>;\n"
	"\t.reg .b64 %SP;\n"
	"\t.reg .b64 %SPL;\n"
	"\tmov.u64 %SPL, __local_depot0;\n"
	"\tcvta.local.u64 %SP, %SPL;\n"
	"\tld.param.u64 %rd1, [k_out];\n"
	"\tcvta.to.global.u64 %rd1, %rd1;\n"
	"\tld.param.u32 %r1, [k_s+4];\n"
	"\tmov.u32 %r2, %tid.x;\n"
	"\tmov.u64 %rd2, k_n;\n"
	"\tcvta.param.u64 %rd3, %rd2;\n"
	"\tld.u32 %r3, [%rd3];\n"
	"\t{\n"
	"\t.param .b32 p0;\n"
	"\tst.param.b32 [p0+0], %r2;\n"
	"\t.param .b32 p1;\n"
	"\tst.param.b32 [p1+0], %r1;\n"
	"\t.param .b32 r0;\n"
	"\tcall.uni (r0), addtw, (p0, p1);\n"
	"\tld.param.b32 %r4, [r0+0];\n"
	"\t}\n"
	"\tand.b32 %r5, %r2, 3;\n"
	"\tmul.wide.u32 %rd4, %r5, 4;\n"
	"\tmov.u64 %rd5, tab;\n"
	"\tadd.s64 %rd6, %rd5, %rd4;\n"
	"\tld.const.u32 %r6, [%rd6];\n"
	"\tld.const.u32 %r7, [tab+8];\n"
	"\tmov.u32 %r8, sh;\n"
	"\tshl.b32 %r9, %r2, 2;\n"
	"\tadd.s32 %r10, %r8, %r9;\n"
	"\tst.shared.u32 [%r10], %r2;\n"
	"\tmov.u64 %rd7, dyn;\n"
	"\tst.shared.u32 [%rd7], 77;\n"
	"\tbar.sync 0;\n"
	"\txor.b32 %r11, %r2, 1;\n"
	"\tshl.b32 %r12, %r11, 2;\n"
	"\tadd.s32 %r13, %r8, %r12;\n"
	"\tld.shared.u32 %r14, [%r13];\n"
	"\tld.shared.u32 %r15, [dyn];\n"
	"\tst.local.u32 [%SPL+4], %r2;\n"
	"\tld.u32 %r16, [%SP+4];\n"
	"\tand.b32 %r17, %r2, 1;\n"
	"\tsetp.eq.u32 %p1, %r17, 1;\n"
	"\tsetp.lt.and.u32 %p2|%p3, %r2, %r3, %p1;\n"
	"\tselp.u32 %r18, 10, 20, %p2;\n"
	"\tselp.u32 %r19, 1, 0, %p3;\n"
	"\tadd.s32 %r18, %r18, %r19;\n"
	"\tmul.wide.u32 %rd8, %r2, 32;\n"
	"\tadd.s64 %rd9, %rd1, %rd8;\n"
	"\tst.global.v4.u32 [%rd9], {%r4, %r6, %r7, %r14};\n"
	"\tst.global.v4.u32 [%rd9+16], {%r15, %r16, %r18, %r3};\n"
	"\tret;\n"
	"}\n";

START_TEST(test_run_layout)
{
	struct loaded l;
	struct gs_emu_counters c;
	const struct gs_emu_profile *prof = gs_emu_profile_find("sm_90");
	struct { int32_t a, b; double d; } s = { 5, 9, 0.25 };
	uint32_t n = 40;
	uint64_t out;
	char err[512];
	int rc;

	ck_assert_ptr_nonnull(prof);
	load_ok(&l, RUN);
	ck_assert_int_eq(gs_emu_mem_alloc(&l.mem, 64 * 32, &out), 0);
	void *args[] = { &out, &s, &n };
	struct gs_emu_launch la = { .mod = l.m, .entry = gs_ptx_entry(l.m, "k"),
				    .grid = { 1, 1, 1 }, .block = { 64, 1, 1 }, .dyn_smem = 16,
				    .args = args, .prof = prof, .mem = &l.mem, .threads = 1 };
	rc = gs_emu_run(&la, &c, err, sizeof err);
	ck_assert_msg(rc == GS_EMU_OK, "run: %d %s", rc, err);
	const uint32_t *o = (const uint32_t *)gs_emu_mem_ptr(&l.mem, out, 64 * 32);

	for (uint32_t t = 0; t < 64; t++) {
		const uint32_t *r = o + 8 * t;
		uint32_t odd = t & 1, lt = t < n;
		uint32_t want[8] = { t + 18, (t & 3) + 1, 3, t ^ 1, 77, t,
				     (lt && odd ? 10 : 20) + (!lt && odd), n };

		for (int k = 0; k < 8; k++)
			ck_assert_msg(r[k] == want[k], "thread %u value %d: %u, expected %u", t,
				      k, r[k], want[k]);
	}
	gs_emu_mem_free(&l.mem, out);
	unload(&l);
}
END_TEST

/* assert(): the call of __assertfail, which nothing defines, traps */
START_TEST(test_assert_traps)
{
	struct loaded l;
	struct gs_emu_counters c;
	char err[512];
	const struct gs_ins *t;

	load_ok(&l, HEAD ".global .align 1 .b8 $str[3] = {111, 104, 0};\n"
		".extern .func __assertfail\n(\n\t.param .b64 __assertfail_param_0,\n"
		"\t.param .b32 __assertfail_param_1\n)\n;\n"
		".visible .entry k()\n{\n\t.reg .b64 %rd<3>;\n\t.reg .b32 %r<2>;\n"
		"\tmov.u64 %rd1, $str;\n\tcvta.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, 7;\n"
		"\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0], %rd2;\n"
		"\t.param .b32 param1;\n\tst.param.b32 [param1], %r1;\n"
		"\tcall.uni\n\t__assertfail,\n\t(\n\tparam0,\n\tparam1\n\t);\n\t}\n"
		"\tret;\n}\n");
	t = find_ins(l.m, gs_ptx_entry(l.m, "k"), "call.uni");
	ck_assert_int_eq(t->op, GS_OP_TRAP);
	ck_assert_uint_eq(t->line, 23);
	struct gs_emu_launch la = { .mod = l.m, .entry = gs_ptx_entry(l.m, "k"),
				    .grid = { 1, 1, 1 }, .block = { 32, 1, 1 },
				    .prof = gs_emu_profile_find("sm_90"), .mem = &l.mem, .threads = 1 };
	ck_assert_int_eq(gs_emu_run(&la, &c, err, sizeof err), GS_EMU_FAULT);
	ck_assert_msg(strstr(err, "line 23"), "%s", err);
	unload(&l);
}
END_TEST

/* ---- NVRTC's PTX ---------------------------------------------------------------------- */

/* compile for sm_<arch> with the given options (and -use_fast_math), PTX
 * and cubin; asserts that NVRTC ran, and that the source compiled unless
 * may_fail (then returns whether it did) */
static int try_compile(struct gs_nvrtc *n, const char *what, const char *name, const char *source,
		       const char *const *opts, size_t nopts, const char *const *names,
		       size_t nnames, int arch, int fast, int may_fail, struct gs_compile_out *out)
{
	const char *all[64];
	char archopt[32], inc[512];
	size_t k = 0;
	struct gs_compile_in in = { 0 };
	const char *cuda = getenv("CUDA_HOME");

	ck_assert_uint_lt(nopts, 60);
	snprintf(archopt, sizeof archopt, "-arch=sm_%d", arch);
	for (size_t i = 0; i < nopts; i++)
		if (strncmp(opts[i], "-arch=", 6) != 0)
			all[k++] = opts[i];
	all[k++] = archopt;
	/* cuda_fp16.h and friends, as variants get them */
	snprintf(inc, sizeof inc, "--include-path=%s/include",
		 cuda && *cuda ? cuda : "/usr/local/cuda");
	if (!nopts)
		all[k++] = inc;
	if (fast)
		all[k++] = "-use_fast_math";
	in.name = name;
	in.source = source;
	in.opts = all;
	in.nopts = k;
	in.name_exprs = names;
	in.nnames = nnames;
	in.want_ptx = 1;
	in.want_cubin = 1;
	memset(out, 0, sizeof(*out));
	ck_assert_msg(gs_nvrtc_compile(n, &in, out) == 0, "%s: nvrtc failed: %s", what, out->log);
	if (!out->ok && may_fail)
		return 0;
	ck_assert_msg(out->ok, "%s does not compile:\n%s", what, out->log);
	ck_assert_ptr_nonnull(out->ptx);
	return 1;
}

static void compile(struct gs_nvrtc *n, const char *what, const char *name, const char *source,
		    const char *const *opts, size_t nopts, const char *const *names, size_t nnames,
		    int arch, int fast, struct gs_compile_out *out)
{
	try_compile(n, what, name, source, opts, nopts, names, nnames, arch, fast, 0, out);
}

/* Load the PTX of a compile: every instruction decoded, and each entry's
 * static shared memory as ptxas counted it in the cubin. */
static struct gs_ptx_module *load_compiled(const char *what, const struct gs_compile_out *out,
					   struct gs_emu_mem *mem)
{
	char err[512];
	struct gs_ptx_module *m = gs_ptx_load(out->ptx, out->ptx_len, mem, err, sizeof err);
	size_t entries = 0;

	ck_assert_msg(m != NULL, "%s: %s", what, err);
	if (env_on("GS_PTX_DUMP"))
		gs_ptx_dump(stdout, m);
	check_layouts(what, m);
	for (size_t f = 0; f < m->nfuncs; f++) {
		struct gs_resources r;

		if (!m->funcs[f].entry)
			continue;
		entries++;
		ck_assert_int_eq(gs_ptx_entry(m, m->funcs[f].name), (int)f);
		ck_assert_msg(gs_cubin_resources(out->cubin, out->cubin_len, m->funcs[f].name, &r,
						 err, sizeof err) == 0, "%s: %s", what, err);
		ck_assert_msg((size_t)r.static_smem == gs_ptx_static_smem(m, (int)f),
			      "%s %s: static shared memory %zu, ptxas says %d", what,
			      m->funcs[f].name, gs_ptx_static_smem(m, (int)f), r.static_smem);
	}
	ck_assert_uint_gt(entries, 0);
	if (env_on("GS_TEST_VERBOSE"))
		printf("%s: %zu instructions, %zu entries, %u register bytes per warp\n", what,
		       m->ncode, entries, m->rf_bytes);
	return m;
}

static char *read_text(const char *path)
{
	char *text = NULL;
	size_t len = 0;

	ck_assert_msg(gs_read_file(path, &text, &len) == 0, "cannot read %s", path);
	return text;
}

/* Every kernel file of the repository, sm_90 and sm_75, with and without
 * fast math: loads.  A file may use what sm_75 lacks (redux.sync): it must
 * compile for sm_90 only. */
START_TEST(test_all_kernel_files)
{
	static const char *const pats[] = { "tests/emu/*.cu", "tests/gpu/*.cu", "kernels/*.cu" };
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, "test_all_kernel_files");
	size_t files = 0;

	if (!n)
		return;
	for (size_t p = 0; p < GS_ARRAY_SIZE(pats); p++) {
		glob_t g;

		ck_assert_int_eq(glob(pats[p], 0, NULL, &g), 0);
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char *src = read_text(g.gl_pathv[i]);

			files++;
			for (int k = 0; k < 4; k++) {
				struct gs_compile_out out;
				struct gs_emu_mem mem = { 0 };
				char what[300];
				int arch = k & 1 ? 75 : 90, fast = k >> 1;

				snprintf(what, sizeof what, "%s (sm_%d%s)", g.gl_pathv[i], arch,
					 fast ? ", fast math" : "");
				if (!try_compile(n, what, g.gl_pathv[i], src, NULL, 0, NULL, 0, arch,
						 fast, arch != 90, &out)) {
					printf("test_emu_ptx: note: %s does not compile\n", what);
					gs_compile_out_release(&out, 0);
					continue;
				}
				gs_ptx_free(load_compiled(what, &out, &mem), &mem);
				ck_assert_uint_eq(mem.n, 0);
				gs_emu_mem_release(&mem);
				gs_compile_out_release(&out, 0);
			}
			free(src);
		}
		globfree(&g);
	}
	ck_assert_uint_ge(files, 10);
	gs_nvrtc_unload(n);
}
END_TEST

/* compile and load one file of tests/emu for sm_90 */
static struct gs_ptx_module *emu_kernel(struct gs_nvrtc *n, const char *file, const char *define,
					struct gs_emu_mem *mem)
{
	struct gs_compile_out out;
	char *src = read_text(file);
	struct gs_ptx_module *m;

	compile(n, file, file, src, &define, define ? 1 : 0, NULL, 0, 90, 0, &out);
	m = load_compiled(file, &out, mem);
	gs_compile_out_release(&out, 0);
	free(src);
	return m;
}

static void params_are(const struct gs_ptx_module *m, const char *entry, size_t n, ...)
{
	const size_t *sizes;
	int e = gs_ptx_entry(m, entry);
	va_list ap;

	ck_assert_msg(e >= 0, "no entry %s", entry);
	ck_assert_uint_eq(gs_ptx_params(m, e, &sizes), n);
	va_start(ap, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(sizes[i], va_arg(ap, int));
	va_end(ap);
}

/* What the test kernels' PTX holds, as their sources say. */
START_TEST(test_emu_kernel_facts)
{
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, "test_emu_kernel_facts");
	struct gs_emu_mem mem = { 0 };
	struct gs_ptx_module *m;
	uint64_t a, sz;
	int e, f;

	if (!n)
		return;
	m = emu_kernel(n, "tests/emu/reduce.cu", "-DBLOCK=128", &mem);
	e = gs_ptx_entry(m, "reduce_smem");
	ck_assert_uint_eq(gs_ptx_static_smem(m, e), 128 * 4);
	ck_assert_int_eq(m->funcs[e].seq, 0);
	params_are(m, "reduce_smem", 3, 8, 8, 4);
	params_are(m, "warp_ops", 8, 8, 8, 8, 8, 8, 8, 8, 8);
	ck_assert_uint_eq(gs_ptx_static_smem(m, gs_ptx_entry(m, "warp_ops")), 0);
	gs_ptx_free(m, &mem);

	m = emu_kernel(n, "tests/emu/atomics.cu", NULL, &mem);
	e = gs_ptx_entry(m, "atomics");
	ck_assert_uint_eq(gs_ptx_static_smem(m, e), 64);
	ck_assert_int_eq(m->funcs[e].seq, 1);
	gs_ptx_free(m, &mem);

	m = emu_kernel(n, "tests/emu/control.cu", NULL, &mem);
	e = gs_ptx_entry(m, "divergent");
	ck_assert_int_eq(m->funcs[e].ncallees, 1);
	f = m->funcs[e].callees[0];
	ck_assert_str_eq(m->funcs[f].name, "_Z13collatz_stepsii");
	ck_assert_int_eq(m->funcs[f].entry, 0);
	ck_assert_uint_eq(m->funcs[f].nparams, 1);
	ck_assert_int_eq(m->funcs[f].nret, 1);
	ck_assert_int_eq(gs_ptx_entry(m, "_Z13collatz_stepsii"), -1);
	ck_assert_uint_eq(m->funcs[gs_ptx_entry(m, "stack_array")].local_bytes, 24 * 4);
	ck_assert_uint_eq(m->funcs[e].local_bytes, 0);
	gs_ptx_free(m, &mem);

	m = emu_kernel(n, "tests/emu/misc.cu", NULL, &mem);
	params_are(m, "dmath", 3, 8, 8, 4);
	params_are(m, "intdiv", 8, 8, 8, 8, 8, 8, 8, 8, 4);
	params_are(m, "fastmath", 6, 8, 8, 8, 8, 8, 4);
	e = gs_ptx_entry(m, "dynsmem");
	ck_assert_uint_eq(gs_ptx_static_smem(m, e), 0);
	ck_assert_uint_ge(m->funcs[e].dyn_align, 16);
	ck_assert_int_eq(gs_ptx_symbol(m, "ctab", &a, &sz), 0);
	ck_assert_uint_eq(sz, 32);
	int ctab[8];

	memcpy(ctab, gs_emu_mem_ptr(&mem, a, 32), 32);
	ck_assert_int_eq(ctab[0], 3);
	ck_assert_int_eq(ctab[5], 9);
	ck_assert_int_eq(ctab[7], 6);
	ck_assert_int_eq(gs_ptx_symbol(m, "gcount", &a, &sz), 0);
	int gcount[4];

	memcpy(gcount, gs_emu_mem_ptr(&mem, a, 16), 16);
	ck_assert_int_eq(gcount[3], 40);
	ck_assert_int_eq(gs_ptx_symbol(m, "cscale", &a, &sz), 0);
	ck_assert_uint_eq(sz, 4);
	gs_ptx_free(m, &mem);
	ck_assert_uint_eq(mem.n, 0);
	gs_emu_mem_release(&mem);
	gs_nvrtc_unload(n);
}
END_TEST

/* A sample of one space's variants (its configurations at an even stride,
 * at the emulator's problem sizes): sm_90 and sm_75, with and without fast
 * math, each loads. */
#define SPACE_SAMPLE 5

static void sample_space(struct gs_nvrtc *n, const char *path)
{
	struct gs_space_opts o = { .emu = 1 };
	struct gs_diag d = GS_DIAG_INIT;
	struct gs_space *sp = gs_space_load(path, &o, &d);
	struct gs_count c;
	struct gs_enum e;
	struct gs_vm vm;
	uint64_t stride;
	int r, compiled = 0;

	ck_assert_ptr_nonnull(sp);
	if (d.errors)
		gs_diag_print(&d, stderr);
	ck_assert_uint_eq(d.errors, 0);
	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(gs_enum_count(sp, NULL, &c, &d), 0);
	ck_assert_uint_gt(c.valid, 0);
	stride = c.valid / SPACE_SAMPLE ? c.valid / SPACE_SAMPLE : 1;
	gs_vm_init(&vm);
	ck_assert_int_eq(gs_enum_init(&e, sp, 0, 1), 0);
	while ((r = gs_enum_next(&e)) > 0) {
		if (e.index % stride != 0 && e.index + 1 != c.valid)
			continue;
		for (int k = 0; k < 4; k++) {
			struct gs_variant v;
			struct gs_compile_out out;
			struct gs_emu_mem mem = { 0 };
			char err[512], what[512];
			struct gs_buf cfg = GS_BUF_INIT;
			int arch = k & 1 ? 75 : 90, fast = k >> 1;
			char archname[16];

			snprintf(archname, sizeof archname, "sm_%d", arch);
			memset(&v, 0, sizeof(v));
			ck_assert_msg(gs_variant_build(sp, e.env, archname, gs_nvrtc_version(n),
						       &vm, &v, err, sizeof err) == 0,
				      "%s: %s", path, err);
			gs_config_describe(sp, e.env, sp->nparams, " ", &cfg);
			snprintf(what, sizeof what, "%s %s (%s%s)", path, gs_buf_str(&cfg),
				 archname, fast ? ", fast math" : "");
			compile(n, what, v.name, v.source, (const char *const *)v.opts, v.nopts,
				(const char *const *)v.names, v.nnames, arch, fast, &out);
			struct gs_ptx_module *m = load_compiled(what, &out, &mem);

			for (size_t i = 0; i < v.nnames; i++)
				ck_assert_msg(gs_ptx_entry(m, out.lowered[i]) >= 0,
					      "%s: no entry %s", what, out.lowered[i]);
			gs_ptx_free(m, &mem);
			gs_emu_mem_release(&mem);
			gs_compile_out_release(&out, v.nnames);
			gs_variant_release(&v);
			gs_buf_release(&cfg);
			compiled++;
		}
	}
	ck_assert_int_eq(r, 0);
	ck_assert_int_ge(compiled, 4);
	gs_enum_release(&e);
	gs_vm_release(&vm);
	gs_diag_release(&d);
	gs_space_free(sp);
}

START_TEST(test_space_samples)
{
	struct gs_nvrtc *n = gs_test_nvrtc(__FILE__, "test_space_samples");
	glob_t g;

	if (!n)
		return;
	ck_assert_int_eq(glob("spaces/*.space", 0, NULL, &g), 0);
	ck_assert_uint_gt(g.gl_pathc, (size_t)_i);
	sample_space(n, g.gl_pathv[_i]);
	globfree(&g);
	gs_nvrtc_unload(n);
}
END_TEST

/* Every opcode names an operand layout (GS_OPS), and the registers an
 * instruction writes and reads follow from it: the vector forms of ld and
 * st by their length, unpacking's two results, setp's two sources. */
#define LAYOUTS HEAD \
	".visible .entry k(.param .u64 k_p)\n{\n" \
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<3>;\n\n" \
	"\tld.param.u64 %rd1, [k_p];\n"                 /* 0 LDKP */ \
	"\tld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\n" /* 1 LD */ \
	"\tst.global.v2.u32 [%rd1+16], {%r1, %r2};\n"   /* 2 ST */ \
	"\tmov.b64 {%r5, %r6}, %rd1;\n"                 /* 3 UNPACK64 */ \
	"\tsetp.lt.u32 %p1, %r5, %r6;\n"                /* 4 SETP */ \
	"\tadd.s32 %r7, %r5, %r6;\n"                    /* 5 ADD32 */ \
	"\tbfi.b32 %r8, %r1, %r2, %r3, %r4;\n"          /* 6 BFI32 */ \
	"\tret;\n}\n"

START_TEST(test_op_layouts)
{
	struct loaded l;
	const struct gs_ins *c;
	uint32_t r[6];

	for (int op = 0; op < GS_OP_COUNT; op++)
		ck_assert_msg(gs_op_lay[op] >= GS_LAY_NONE && gs_op_lay[op] < GS_LAY_COUNT,
			      "%s has no operand layout", gs_ptx_op_name(op));
	load_ok(&l, LAYOUTS);
	c = l.m->code;
	ck_assert_int_eq(c[0].op, GS_OP_LDKP);
	ck_assert_int_eq(gs_ins_regs(&c[0], 1, r), 1);
	ck_assert_uint_eq(r[0], c[0].o[0]);
	ck_assert_int_eq(gs_ins_regs(&c[0], 0, r), 0);
	ck_assert_int_eq(c[1].op, GS_OP_LD);
	ck_assert_int_eq(gs_ins_regs(&c[1], 1, r), 4);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(r[i], c[1].o[i]);
	ck_assert_int_eq(gs_ins_regs(&c[1], 0, r), 1);
	ck_assert_uint_eq(r[0], c[0].o[0]); /* the address, %rd1 */
	ck_assert_int_eq(c[2].op, GS_OP_ST);
	ck_assert_int_eq(gs_ins_regs(&c[2], 1, r), 0);
	ck_assert_int_eq(gs_ins_regs(&c[2], 0, r), 3);
	ck_assert_uint_eq(r[0], c[1].o[0]);
	ck_assert_uint_eq(r[1], c[1].o[1]);
	ck_assert_uint_eq(r[2], c[0].o[0]);
	ck_assert_int_eq(c[3].op, GS_OP_UNPACK64);
	ck_assert_int_eq(gs_ins_regs(&c[3], 1, r), 2);
	ck_assert_int_eq(gs_ins_regs(&c[3], 0, r), 1);
	ck_assert_uint_eq(r[0], c[0].o[0]);
	ck_assert_int_eq(c[4].op, GS_OP_SETP);
	ck_assert_int_eq(gs_ins_regs(&c[4], 1, r), 0);
	ck_assert_int_eq(gs_ins_regs(&c[4], 0, r), 2);
	ck_assert_uint_eq(r[0], c[3].o[0]);
	ck_assert_uint_eq(r[1], c[3].o[1]);
	ck_assert_int_eq(c[5].op, GS_OP_ADD32);
	ck_assert_int_eq(gs_ins_regs(&c[5], 1, r), 1);
	ck_assert_int_eq(gs_ins_regs(&c[5], 0, r), 3);
	ck_assert_uint_eq(r[2], GS_NONE); /* no c */
	ck_assert_int_eq(c[6].op, GS_OP_BFI32);
	ck_assert_int_eq(gs_ins_regs(&c[6], 0, r), 4);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(r[i], c[1].o[i]);
	unload(&l);
}
END_TEST

static TCase *tc_handwritten(void)
{
	TCase *tc = tcase_create("handwritten");

	tcase_add_test(tc, test_errors_positioned);
	tcase_add_test(tc, test_errors_calls);
	tcase_add_test(tc, test_scopes);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_reconvergence);
	tcase_add_test(tc, test_variables);
	tcase_add_test(tc, test_run_layout);
	tcase_add_test(tc, test_assert_traps);
	tcase_add_test(tc, test_op_layouts);
	return tc;
}

static TCase *tc_nvrtc(void)
{
	TCase *tc = tcase_create("nvrtc");
	glob_t g;
	int n = 0;

	/* one test per space, so that each has its own time limit */
	if (glob("spaces/*.space", 0, NULL, &g) == 0) {
		n = (int)g.gl_pathc;
		globfree(&g);
	}
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_emu_kernel_facts);
	tcase_add_test(tc, test_all_kernel_files);
	tcase_add_loop_test(tc, test_space_samples, 0, n);
	return tc;
}

GS_TEST_MAIN_TCASES(tc_handwritten, tc_nvrtc)
