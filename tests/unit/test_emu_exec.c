/* test_emu_exec.c — the PTX interpreter's executor.
 *
 * The first tests run instruction arrays built by hand (struct tb below), so
 * that the counters are checked against answers known on paper: sectors and
 * half-warp transactions of global accesses, bank conflicts of shared ones,
 * one divergent branch.  The later tests compile CUDA C with NVRTC, load the
 * PTX and compare every result with the same computation on the host
 * (exactly for integers); they are skipped where NVRTC cannot be loaded. */
#include <fenv.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dev/emu.h"
#include "dev/emu/interp/exec_int.h"
#include "dev/emu/interp/ptx_int.h"
#include "dev/emu/model/model.h"
#include "gen/gen.h"
#include "harness.h"
#include "nvrtc.h"
#include "util/util.h"
#include "../emu/control_host.h"

/* ---- hand-built modules -------------------------------------------------------- */

#define TB_CONST 4096 /* constant slots below, registers above */

struct tb {
	struct gs_ptx_module m;
	struct gs_ptx_func f;
	struct gs_ins code[192];
	struct gs_slot slots[32];
	uint64_t psize[4], poff[4];
	uint32_t cnext, rnext;
	unsigned char consts[TB_CONST];
};

static void tb_init(struct tb *t, uint64_t smem)
{
	memset(t, 0, sizeof(*t));
	t->m.code = t->code;
	t->m.funcs = &t->f;
	t->m.nfuncs = 1;
	t->m.slots = t->slots;
	t->m.npred = 8;
	t->m.strings = "op";
	t->m.nstrings = 3;
	t->f.name = "k";
	t->f.entry = 1;
	t->f.defined = 1;
	t->f.psize = t->psize;
	t->f.poff = t->poff;
	t->f.smem_static = smem;
	t->f.consts = t->consts;
	t->rnext = TB_CONST;
}

/* a constant slot: an immediate replicated over the lanes, or a special */
static uint32_t tb_slot(struct tb *t, int kind, uint64_t v, int wide)
{
	uint32_t off = t->cnext;
	struct gs_slot *s = &t->slots[t->m.nslots++];
	*s = (struct gs_slot){ .off = off, .wide = (uint8_t)wide, .kind = (uint8_t)kind, .val = v };
	for (int l = 0; l < GS_WARP && kind == GS_SLOT_IMM; l++) {
		if (wide)
			memcpy(t->consts + off + 8 * l, &v, 8);
		else
			memcpy(t->consts + off + 4 * l, &(uint32_t){ (uint32_t)v }, 4);
	}
	t->cnext += wide ? 256 : 128;
	t->m.const_hi = t->cnext;
	return off;
}

static uint32_t tb_imm(struct tb *t, uint64_t v, int wide)
{
	return tb_slot(t, GS_SLOT_IMM, v, wide);
}

static uint32_t tb_reg(struct tb *t, int wide)
{
	uint32_t off = t->rnext;
	t->rnext += wide ? 256 : 128;
	t->m.rf_bytes = t->rnext;
	return off;
}

/* a kernel parameter of `size` bytes at the next offset */
static void tb_param(struct tb *t, uint64_t size)
{
	size_t i = t->f.nparams++;
	t->poff[i] = t->f.kparam_bytes;
	t->psize[i] = size;
	t->f.kparam_bytes += size;
}

static struct gs_ins *tb_ins(struct tb *t, int op, int cls, uint32_t o0, uint32_t o1, uint32_t o2)
{
	struct gs_ins *in = &t->code[t->m.ncode++];
	*in = (struct gs_ins){ .op = (uint16_t)op, .cls = (uint8_t)cls, .guard = -1, .rpc = -1,
			       .o = { o0, o1, o2, GS_NONE, GS_NONE, GS_NONE } };
	in->line = (uint32_t)t->m.ncode;
	t->f.pc1 = (int32_t)t->m.ncode;
	return in;
}

static struct gs_ins *tb_mem(struct tb *t, int op, int space, uint32_t val, uint32_t addr, int a32)
{
	struct gs_ins *in = tb_ins(t, op, GS_EMU_MEM, val, GS_NONE, GS_NONE);
	in->o[4] = addr;
	in->sz = 4;
	in->nv = 1;
	in->sub = (uint8_t)space;
	in->f = a32 ? GS_MF_A32 : 0;
	return in;
}

/* d64 = param 0 (a pointer) */
static uint32_t tb_ldptr(struct tb *t, uint64_t poff)
{
	uint32_t d = tb_reg(t, 1);
	struct gs_ins *in = tb_ins(t, GS_OP_LDKP, GS_EMU_MEM, d, GS_NONE, GS_NONE);
	in->o[4] = tb_imm(t, 0, 1);
	in->imm = (int64_t)poff;
	in->sz = 8;
	in->nv = 1;
	in->sub = GS_SP_KPARAM;
	in->f = GS_MF_WIDE;
	return d;
}

static int tb_run(struct tb *t, struct gs_emu_mem *mem, const char *prof, unsigned threads,
		  void **args, struct gs_emu_counters *c, char *err)
{
	struct gs_emu_launch l = {
		.mod = &t->m,
		.entry = 0,
		.grid = { 1, 1, 1 },
		.block = { threads, 1, 1 },
		.args = args,
		.prof = gs_emu_profile_find(prof),
		.mem = mem,
		.threads = 1,
	};
	ck_assert_ptr_nonnull(l.prof);
	return gs_emu_run(&l, c, err, 256);
}

/* One global load per thread of the float at base + (tid ^ perm) * stride * 4. */
static void global_load(const char *prof, unsigned stride, unsigned perm,
			struct gs_emu_counters *c)
{
	struct tb t;
	struct gs_emu_mem mem = { 0 };
	uint64_t buf;
	char err[256];
	ck_assert_int_eq(gs_emu_mem_alloc(&mem, 32 * 16 * 4, &buf), 0);
	tb_init(&t, 0);
	tb_param(&t, 8);
	uint32_t tid = tb_slot(&t, GS_SLOT_SPECIAL, GS_SR_TID_X, 0);
	uint32_t base = tb_ldptr(&t, 0), i = tb_reg(&t, 0), off = tb_reg(&t, 1);
	uint32_t a = tb_reg(&t, 1), v = tb_reg(&t, 0);
	tb_ins(&t, GS_OP_XOR32, GS_EMU_INT, i, tid, tb_imm(&t, perm, 0));
	tb_ins(&t, GS_OP_MULWU32, GS_EMU_INT, off, i, tb_imm(&t, 4 * stride, 0));
	tb_ins(&t, GS_OP_ADD64, GS_EMU_INT, a, base, off);
	tb_mem(&t, GS_OP_LD, GS_SP_GLOBAL, v, a, 0);
	tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	void *args[] = { &buf };
	ck_assert_int_eq(tb_run(&t, &mem, prof, 32, args, c, err), GS_EMU_OK);
	ck_assert_uint_eq(c->gld_inst, 1);
	ck_assert_uint_eq(c->warp_inst[GS_EMU_MEM], 2);
	ck_assert_uint_eq(c->thread_inst[GS_EMU_INT], 3 * 32);
	gs_emu_mem_release(&mem);
}

START_TEST(test_coalesce_sectors)
{
	struct gs_emu_counters c;
	global_load("sm_90", 1, 0, &c); /* 32 floats in a row: 128 bytes */
	ck_assert_uint_eq(c.gld_trans, 4);
	ck_assert_uint_eq(c.gld_bytes, 128);
	global_load("sm_90", 2, 0, &c); /* every other float: 256 bytes */
	ck_assert_uint_eq(c.gld_trans, 8);
	global_load("sm_90", 1, 1, &c); /* neighbours swapped: the same sectors */
	ck_assert_uint_eq(c.gld_trans, 4);
	global_load("sm_90", 16, 0, &c); /* a sector per thread */
	ck_assert_uint_eq(c.gld_trans, 32);
}
END_TEST

START_TEST(test_coalesce_cc10)
{
	struct gs_emu_counters c;
	global_load("g80", 1, 0, &c); /* thread k -> word k: one 64-byte transaction per half */
	ck_assert_uint_eq(c.gld_trans, 2);
	ck_assert_uint_eq(c.gld_bytes, 128);
	global_load("g80", 1, 1, &c); /* permuted inside each half: one per thread */
	ck_assert_uint_eq(c.gld_trans, 32);
	ck_assert_uint_eq(c.gld_bytes, 32 * 32);
	global_load("g80", 2, 0, &c); /* strided: one per thread */
	ck_assert_uint_eq(c.gld_trans, 32);
}
END_TEST

/* One shared store and one load per thread at word tid * stride (32-bit
 * addresses); the conflicts of the two. */
static uint64_t shared_access(const char *prof, unsigned stride)
{
	struct tb t;
	struct gs_emu_mem mem = { 0 };
	struct gs_emu_counters c;
	char err[256];
	tb_init(&t, 32 * 32 * 4);
	uint32_t tid = tb_slot(&t, GS_SLOT_SPECIAL, GS_SR_TID_X, 0);
	uint32_t a = tb_reg(&t, 0), v = tb_reg(&t, 0);
	tb_ins(&t, GS_OP_MUL32, GS_EMU_INT, a, tid, tb_imm(&t, 4 * stride, 0));
	tb_mem(&t, GS_OP_ST, GS_SP_SHARED, tid, a, 1);
	tb_mem(&t, GS_OP_LD, GS_SP_SHARED, v, a, 1);
	tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	ck_assert_int_eq(tb_run(&t, &mem, prof, 32, NULL, &c, err), GS_EMU_OK);
	ck_assert_uint_eq(c.sst_inst, 1);
	ck_assert_uint_eq(c.sld_inst, 1);
	gs_emu_mem_release(&mem);
	return c.bank_conflicts;
}

/* A warp's shared load of nv words a lane from 64 words that hold
 * 1000 + their index: lane l reads at word ((l * mul + add) % 64) rounded
 * down to nv, through a 32- or 64-bit address, and stores what it read to
 * out[nv * l + e].  The result is checked against that rule. */
static void shared_values(unsigned mul, unsigned add, unsigned nv, int a32)
{
	struct tb t;
	struct gs_emu_mem mem = { 0 };
	struct gs_emu_counters c;
	char err[256];
	uint64_t buf;
	ck_assert_int_eq(gs_emu_mem_alloc(&mem, 32 * 4 * 4, &buf), 0);
	tb_init(&t, 64 * 4);
	tb_param(&t, 8);
	uint32_t tid = tb_slot(&t, GS_SLOT_SPECIAL, GS_SR_TID_X, 0);
	uint32_t out = tb_ldptr(&t, 0);
	uint32_t w = tb_reg(&t, 0), v = tb_reg(&t, 0), a = tb_reg(&t, 0), a64 = tb_reg(&t, 1);
	uint32_t d[4] = { tb_reg(&t, 0), tb_reg(&t, 0), tb_reg(&t, 0), tb_reg(&t, 0) };
	uint32_t g = tb_reg(&t, 1), o = tb_reg(&t, 1);
	/* words tid and tid + 32 get 1000 + their index */
	for (unsigned half = 0; half < 2; half++) {
		tb_ins(&t, GS_OP_ADD32, GS_EMU_INT, w, tid, tb_imm(&t, 32 * half, 0));
		tb_ins(&t, GS_OP_ADD32, GS_EMU_INT, v, w, tb_imm(&t, 1000, 0));
		tb_ins(&t, GS_OP_MUL32, GS_EMU_INT, a, w, tb_imm(&t, 4, 0));
		tb_mem(&t, GS_OP_ST, GS_SP_SHARED, v, a, 1);
	}
	tb_ins(&t, GS_OP_MUL32, GS_EMU_INT, w, tid, tb_imm(&t, mul, 0));
	tb_ins(&t, GS_OP_ADD32, GS_EMU_INT, w, w, tb_imm(&t, add, 0));
	tb_ins(&t, GS_OP_REMU32, GS_EMU_INT, w, w, tb_imm(&t, 64, 0));
	tb_ins(&t, GS_OP_AND32, GS_EMU_INT, w, w, tb_imm(&t, ~(nv - 1), 0));
	tb_ins(&t, GS_OP_MULWU32, GS_EMU_INT, a64, w, tb_imm(&t, 4, 0));
	tb_ins(&t, GS_OP_MUL32, GS_EMU_INT, a, w, tb_imm(&t, 4, 0));
	struct gs_ins *ld = tb_mem(&t, GS_OP_LD, GS_SP_SHARED, d[0], a32 ? a : a64, a32);
	ld->nv = (uint8_t)nv;
	for (unsigned e = 1; e < nv; e++)
		ld->o[e] = d[e];
	tb_ins(&t, GS_OP_MULWU32, GS_EMU_INT, o, tid, tb_imm(&t, 4 * nv, 0));
	tb_ins(&t, GS_OP_ADD64, GS_EMU_INT, g, out, o);
	struct gs_ins *st = tb_mem(&t, GS_OP_ST, GS_SP_GLOBAL, d[0], g, 0);
	st->nv = (uint8_t)nv;
	for (unsigned e = 1; e < nv; e++)
		st->o[e] = d[e];
	tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	void *args[] = { &buf };
	ck_assert_int_eq(tb_run(&t, &mem, "sm_90", 32, args, &c, err), GS_EMU_OK);
	const unsigned char *h = gs_emu_mem_ptr(&mem, buf, 32 * 4 * nv);
	ck_assert_ptr_nonnull(h);
	for (unsigned l = 0; l < 32; l++)
		for (unsigned e = 0; e < nv; e++) {
			uint32_t got, want = 1000 + ((l * mul + add) % 64 & ~(nv - 1)) + e;
			memcpy(&got, h + 4 * (nv * l + e), 4);
			ck_assert_msg(got == want, "mul %u add %u v%u a32 %d: lane %u word %u: %u, "
				      "not %u", mul, add, nv, a32, l, e, got, want);
		}
	gs_emu_mem_release(&mem);
}

/* the whole-warp paths of shared loads: broadcast, consecutive words, the
 * rows of a tile, spans past 32 words, windows that end at the shared
 * memory's end or would run past it, vector loads */
START_TEST(test_shared_values)
{
	static const unsigned pat[][2] = { { 0, 5 }, { 1, 0 }, { 1, 31 }, { 1, 32 }, { 1, 40 },
					   { 2, 0 }, { 3, 1 }, { 63, 7 }, { 16, 3 }, { 0, 63 } };
	for (size_t i = 0; i < sizeof pat / sizeof pat[0]; i++)
		for (unsigned nv = 1; nv <= 4; nv *= 2)
			for (int a32 = 0; a32 < 2; a32++)
				shared_values(pat[i][0], pat[i][1], nv, a32);
}
END_TEST

START_TEST(test_bank_conflicts)
{
	ck_assert_uint_eq(shared_access("sm_90", 1), 0);
	ck_assert_uint_eq(shared_access("sm_90", 2), 2 * 1);   /* 2-way, store and load */
	ck_assert_uint_eq(shared_access("sm_90", 3), 0);       /* odd strides: distinct banks */
	ck_assert_uint_eq(shared_access("sm_90", 4), 2 * 3);   /* 4 words in each of 8 banks */
	ck_assert_uint_eq(shared_access("sm_90", 16), 2 * 15); /* 16 words in banks 0 and 16 */
	ck_assert_uint_eq(shared_access("sm_90", 32), 2 * 31); /* all in bank 0 */
	ck_assert_uint_eq(shared_access("sm_90", 0), 0);       /* one word: broadcast */
	/* 16 banks, per half-warp: stride 2 is 2-way in each half */
	ck_assert_uint_eq(shared_access("g80", 2), 2 * 2 * 1);
	ck_assert_uint_eq(shared_access("g80", 16), 2 * 2 * 15);
	ck_assert_uint_eq(shared_access("g80", 1), 0);
}
END_TEST

/* A warp's wide shared load as the H200 served ldswide.cu's cases
 * (results/ubench-ldswide-h200.txt): wavefronts less one. */
START_TEST(test_bank_conflicts_wide)
{
	uint64_t a[32];
	static const struct {
		unsigned size, pitch, half, waves;
	} c[] = {
		{ 16, 0, 0, 2 },  { 16, 16, 0, 4 }, { 16, 64, 0, 16 }, { 16, 16, 1, 4 },
		{ 8, 0, 0, 1 },   { 8, 8, 0, 2 },   { 8, 64, 0, 16 },  { 8, 8, 1, 2 },
		{ 4, 0, 0, 1 },   { 4, 4, 0, 1 },   { 4, 64, 0, 16 },  { 4, 4, 1, 1 },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		for (unsigned l = 0; l < 32; l++)
			a[l] = 4096 + (uint64_t)(c[i].half ? l % 16 : l) * c[i].pitch;
		ck_assert_msg(gs_x_banks_load(32, a, GS_ALL, c[i].size) + 1 == c[i].waves,
			      "case %zu: %u", i, gs_x_banks_load(32, a, GS_ALL, c[i].size) + 1);
	}
}
END_TEST

/* if (tid < 16) v = 100; else v = 200; out[tid] = v; */
/* ---- sampled launches: the observer and the sampler ----------------------------- */

/* Run a hand-built module as a sampled launch of block 0 of one block. */
/* blocks resident beside a probed one (0: the probe takes 1) */
static int tb_bps;
static double tb_gap; /* the launch's sass_gap (0: not known) */
/* load windows the probed launch is given (sass.c), NULL: none */
static const uint8_t *tb_win;
static size_t tb_nwin;
/* the probed launch's profile, NULL: sm_90 */
static const struct gs_emu_profile *tb_prof;

static void tb_probe(struct tb *t, struct gs_emu_mem *mem, unsigned threads, void **args,
		     int l1_bytes, struct gs_emu_blockstat *st)
{
	uint64_t only = 0;
	struct gs_emu_counters c;
	char err[256];
	struct gs_emu_launch l = {
		.mod = &t->m, .entry = 0, .grid = { 1, 1, 1 }, .block = { threads, 1, 1 },
		.args = args, .prof = tb_prof ? tb_prof : gs_emu_profile_find("sm_90"), .mem = mem,
		.threads = 1, .only = &only, .nonly = 1, .stats = st, .l1_bytes = l1_bytes,
		.blocks_per_sm = tb_bps, .load_window = tb_win, .nload_window = tb_nwin,
		.sass_gap = tb_gap,
	};
	ck_assert_int_eq(gs_emu_run(&l, &c, err, sizeof err), GS_EMU_OK);
}

/* A chain of K dependent FFMAs: each waits lat.fp32 (4.4) for the one
 * before; the first issues at cycle 1, EXIT one cycle after the last. */
START_TEST(test_probe_chain)
{
	const int k = 10;
	struct tb t;
	struct gs_emu_mem mem = { 0 };
	struct gs_emu_blockstat st;
	tb_init(&t, 0);
	uint32_t x = tb_reg(&t, 0), one = tb_imm(&t, 0x3f800000u, 0);
	for (int i = 0; i < k; i++) {
		struct gs_ins *in = tb_ins(&t, GS_OP_FMAF32, GS_EMU_FP32, x, i ? x : one, one);
		in->o[3] = i ? x : one;
	}
	tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	tb_probe(&t, &mem, 32, NULL, 65536, &st);
	ck_assert_double_eq_tol(st.chain, 1 + (k - 1) * 4.4 + 1, 1e-9);
	ck_assert_int_eq((int)st.c.warp_inst[GS_EMU_FP32], k);
	/* its issue is K + 1 warp instructions on 4 schedulers: what that does
	 * not cover of the chain is exposed, less with 4 blocks beside it, and
	 * nothing with enough of them */
	double issue = (k + 1) / 4.0;
	ck_assert_double_eq_tol(st.exposed, st.chain - issue, 1e-9);
	tb_bps = 4;
	tb_probe(&t, &mem, 32, NULL, 65536, &st);
	ck_assert_double_eq_tol(st.exposed, st.chain - 4 * issue, 1e-9);
	tb_bps = 32;
	tb_probe(&t, &mem, 32, NULL, 65536, &st);
	ck_assert_double_eq_tol(st.exposed, 0, 1e-9);
	tb_bps = 0;
	/* independent FFMAs between the dependent ones issue in their stalls
	 * (a basic block is scheduled by its dependencies): no longer */
	tb_init(&t, 0);
	x = tb_reg(&t, 0);
	one = tb_imm(&t, 0x3f800000u, 0);
	for (int i = 0; i < k; i++) {
		struct gs_ins *in = tb_ins(&t, GS_OP_FMAF32, GS_EMU_FP32, x, i ? x : one, one);
		in->o[3] = i ? x : one;
		in = tb_ins(&t, GS_OP_FMAF32, GS_EMU_FP32, tb_reg(&t, 0), one, one);
		in->o[3] = one;
	}
	tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	tb_probe(&t, &mem, 32, NULL, 65536, &st);
	ck_assert_double_eq_tol(st.chain, 1 + (k - 1) * 4.4 + 1, 1e-9);
	/* independent FFMAs issue back to back: K + 1 cycles */
	tb_init(&t, 0);
	one = tb_imm(&t, 0x3f800000u, 0);
	for (int i = 0; i < k; i++) {
		struct gs_ins *in = tb_ins(&t, GS_OP_FMAF32, GS_EMU_FP32, tb_reg(&t, 0), one, one);
		in->o[3] = one;
	}
	tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	tb_probe(&t, &mem, 32, NULL, 65536, &st);
	ck_assert_double_eq_tol(st.chain, k + 1, 1e-9);
	/* where the machine code's stall counts space a warp's issues 2.5
	 * cycles apart (sass.c), so are they here; a gap under one cycle is
	 * one cycle */
	tb_gap = 2.5;
	tb_probe(&t, &mem, 32, NULL, 65536, &st);
	ck_assert_double_eq_tol(st.chain, 2.5 * (k + 1), 1e-9);
	tb_gap = 0.5;
	tb_probe(&t, &mem, 32, NULL, 65536, &st);
	ck_assert_double_eq_tol(st.chain, k + 1, 1e-9);
	tb_gap = 0;
	gs_emu_mem_release(&mem);
}
END_TEST

/* The address of lane tid's element, bytes apart from its neighbours', in
 * the kernel's first parameter: a 64-bit register. */
static uint32_t tb_lane_addr(struct tb *t, unsigned bytes)
{
	uint32_t tid = tb_slot(t, GS_SLOT_SPECIAL, GS_SR_TID_X, 0);
	uint32_t base = tb_ldptr(t, 0), off = tb_reg(t, 1), a = tb_reg(t, 1);
	tb_ins(t, GS_OP_MULWU32, GS_EMU_INT, off, tid, tb_imm(t, bytes, 0));
	tb_ins(t, GS_OP_ADD64, GS_EMU_INT, a, base, off);
	return a;
}

/* The L1: a warp reads 32 distinct sectors twice.  With room for them the
 * second pass hits (reuse distance 32 < capacity: 32 of 64 accesses hit);
 * with room for 4 sectors (one set of 4 ways) it misses again. */
START_TEST(test_probe_l1)
{
	for (int room = 0; room < 2; room++) {
		struct tb t;
		struct gs_emu_mem mem = { 0 };
		struct gs_emu_blockstat st;
		uint64_t buf;
		ck_assert_int_eq(gs_emu_mem_alloc(&mem, 32 * 32, &buf), 0);
		tb_init(&t, 0);
		tb_param(&t, 8);
		uint32_t a = tb_lane_addr(&t, 32);
		tb_mem(&t, GS_OP_LD, GS_SP_GLOBAL, tb_reg(&t, 0), a, 0);
		tb_mem(&t, GS_OP_LD, GS_SP_GLOBAL, tb_reg(&t, 0), a, 0);
		tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
		void *args[] = { &buf };
		tb_probe(&t, &mem, 32, args, room ? 65536 : 4 * 32, &st);
		ck_assert_int_eq((int)st.l1_miss, room ? 32 : 64);
		ck_assert_int_eq((int)st.l1_hit, room ? 32 : 0);
		ck_assert_int_eq((int)st.nsectors, 32);
		gs_emu_blockstat_release(&st);
		gs_emu_mem_release(&mem);
	}
}
END_TEST

/* Load windows: four independent loads that miss the L1, each stored
 * back.  As the PTX allows, the four overlap: one L2 latency.  With a
 * window of 1 (ptxas wrote them to one register) each waits for the one
 * before: four latencies.  A window of 4, or windows that do not pair
 * with the loads (a count that differs), change nothing. */
START_TEST(test_probe_load_window)
{
	const struct gs_emu_profile *pf = gs_emu_profile_find("sm_90");
	double chain[5];
	const uint8_t one[4] = { 1, 1, 1, 1 }, four[4] = { 4, 4, 4, 4 }, two[4] = { 2, 2, 2, 2 };
	const uint8_t *wins[5] = { NULL, one, four, one, two };
	size_t nwins[5] = { 0, 4, 4, 3, 4 };
	for (int c = 0; c < 5; c++) {
		struct tb t;
		struct gs_emu_mem mem = { 0 };
		struct gs_emu_blockstat st;
		uint64_t buf;
		ck_assert_int_eq(gs_emu_mem_alloc(&mem, 4 * 32 * 32, &buf), 0);
		tb_init(&t, 0);
		tb_param(&t, 8);
		uint32_t tid = tb_slot(&t, GS_SLOT_SPECIAL, GS_SR_TID_X, 0);
		uint32_t base = tb_ldptr(&t, 0), off = tb_reg(&t, 1), a[4], v[4];
		tb_ins(&t, GS_OP_MULWU32, GS_EMU_INT, off, tid, tb_imm(&t, 32, 0));
		for (int i = 0; i < 4; i++) {
			uint32_t p = tb_reg(&t, 1);
			a[i] = tb_reg(&t, 1);
			tb_ins(&t, GS_OP_ADD64, GS_EMU_INT, p, base, off);
			tb_ins(&t, GS_OP_ADD64, GS_EMU_INT, a[i], p, tb_imm(&t, 1024u * i, 1));
		}
		for (int i = 0; i < 4; i++) {
			v[i] = tb_reg(&t, 0);
			tb_mem(&t, GS_OP_LD, GS_SP_GLOBAL, v[i], a[i], 0);
		}
		for (int i = 0; i < 4; i++)
			tb_mem(&t, GS_OP_ST, GS_SP_GLOBAL, v[i], a[i], 0);
		tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
		void *args[] = { &buf };
		tb_win = wins[c];
		tb_nwin = nwins[c];
		tb_probe(&t, &mem, 32, args, 65536, &st);
		tb_win = NULL;
		tb_nwin = 0;
		ck_assert_int_eq((int)st.l1_miss, 4 * 32);
		chain[c] = st.chain;
		gs_emu_blockstat_release(&st);
		gs_emu_mem_release(&mem);
	}
	ck_assert_double_eq_tol(chain[1] - chain[0], 3 * pf->lat_l2, 4);
	ck_assert_double_eq_tol(chain[2], chain[0], 1e-9);
	ck_assert_double_eq_tol(chain[3], chain[0], 1e-9);
	ck_assert_double_eq_tol(chain[4] - chain[0], pf->lat_l2, 4);
}
END_TEST

/* A load of sectors whose miss is still on its way waits for that miss,
 * not the L1's latency (scripts/bench/ubench/hitfill.cu: 284 cycles on the
 * H200, as the miss; 33 once filled): a second load of the same sectors
 * right after the first, whose value alone is stored, ends the block no
 * sooner than the first load's own value would. */
START_TEST(test_probe_hit_under_fill)
{
	double chain[2];
	for (int c = 0; c < 2; c++) {
		struct tb t;
		struct gs_emu_mem mem = { 0 };
		struct gs_emu_blockstat st;
		uint64_t buf;
		ck_assert_int_eq(gs_emu_mem_alloc(&mem, 4 * 32, &buf), 0);
		tb_init(&t, 0);
		tb_param(&t, 8);
		uint32_t a = tb_lane_addr(&t, 4);
		uint32_t v1 = tb_reg(&t, 0), v2 = tb_reg(&t, 0);
		tb_mem(&t, GS_OP_LD, GS_SP_GLOBAL, v1, a, 0);
		if (c)
			tb_mem(&t, GS_OP_LD, GS_SP_GLOBAL, v2, a, 0);
		tb_mem(&t, GS_OP_ST, GS_SP_GLOBAL, c ? v2 : v1, a, 0);
		tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
		void *args[] = { &buf };
		tb_probe(&t, &mem, 32, args, 65536, &st);
		ck_assert_int_eq((int)st.l1_miss, 4);
		chain[c] = st.chain;
		gs_emu_blockstat_release(&st);
		gs_emu_mem_release(&mem);
	}
	ck_assert_double_ge(chain[1], chain[0]);
	ck_assert_double_le(chain[1], chain[0] + 2);
}
END_TEST

/* The DRAM latency's spread (spread.c): W warps, each step a warp load
 * whose lanes touch k lines, the value stored to shared memory, a barrier.
 * Each step waits for the slowest of W x k draws, so the path's misses
 * weigh STEPS times the expected maximum of W x k of the table's weights:
 * 1 for one draw, more for two, and the same for 4 warps of one line as
 * for one warp of 4 lines.  Without a spread every miss weighs 1. */
#define SPREAD_STEPS 48
static double spread_misses(unsigned warps, unsigned k)
{
	struct tb t;
	struct gs_emu_mem mem = { 0 };
	struct gs_emu_blockstat st;
	uint64_t buf;
	ck_assert_int_eq(gs_emu_mem_alloc(&mem, (size_t)SPREAD_STEPS * 8192, &buf), 0);
	tb_init(&t, 32 * 16 * 4);
	tb_param(&t, 8);
	uint32_t tid = tb_slot(&t, GS_SLOT_SPECIAL, GS_SR_TID_X, 0);
	uint32_t base = tb_ldptr(&t, 0), off = tb_reg(&t, 1), a = tb_reg(&t, 1);
	uint32_t s = tb_reg(&t, 0);
	/* thread i reads the float at 4 k i: 32 / k lanes a line */
	tb_ins(&t, GS_OP_MULWU32, GS_EMU_INT, off, tid, tb_imm(&t, 4 * k, 0));
	tb_ins(&t, GS_OP_ADD64, GS_EMU_INT, a, base, off);
	tb_ins(&t, GS_OP_MUL32, GS_EMU_INT, s, tid, tb_imm(&t, 4, 0));
	for (int i = 0; i < SPREAD_STEPS; i++) {
		uint32_t v = tb_reg(&t, 0);
		tb_mem(&t, GS_OP_LD, GS_SP_GLOBAL, v, a, 0)->imm = 8192 * i;
		tb_mem(&t, GS_OP_ST, GS_SP_SHARED, v, s, 1);
		tb_ins(&t, GS_OP_BAR, GS_EMU_BARRIER, GS_NONE, GS_NONE, GS_NONE);
	}
	tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	void *args[] = { &buf };
	tb_probe(&t, &mem, 32 * warps, args, 65536, &st);
	ck_assert_int_eq((int)st.l1_miss, SPREAD_STEPS * warps * 4 * k);
	double nm = st.chain_misses;
	gs_emu_blockstat_release(&st);
	gs_emu_mem_release(&mem);
	return nm;
}

START_TEST(test_probe_spread)
{
	const struct gs_emu_profile *pf = gs_emu_profile_find("sm_90");
	double tab[GS_EMU_SPREAD_N];
	ck_assert_int_eq(gs_emu_spread_table(pf, tab), 1);
	/* the expected maximum of n draws from the (ascending) table */
	double e[17] = { 0 };
	for (int n = 1; n <= 16; n++)
		for (int i = 0; i < GS_EMU_SPREAD_N; i++)
			e[n] += tab[i] * (pow((i + 1.0) / GS_EMU_SPREAD_N, n) -
					  pow((double)i / GS_EMU_SPREAD_N, n));
	ck_assert_double_eq_tol(e[1], 1, 1e-9);
	ck_assert(e[2] > 1.1 && e[4] > e[2] + 0.1 && e[16] > e[4] + 0.1);
	double m11 = spread_misses(1, 1) / SPREAD_STEPS, m12 = spread_misses(1, 2) / SPREAD_STEPS;
	double m14 = spread_misses(1, 4) / SPREAD_STEPS, m41 = spread_misses(4, 1) / SPREAD_STEPS;
	double m161 = spread_misses(16, 1) / SPREAD_STEPS;
	ck_assert_double_eq_tol(m11, e[1], 0.1 * e[1]);
	ck_assert_double_eq_tol(m12, e[2], 0.1 * e[2]);
	ck_assert_double_eq_tol(m14, e[4], 0.1 * e[4]);
	ck_assert_double_eq_tol(m41, e[4], 0.1 * e[4]);
	ck_assert_double_eq_tol(m161, e[16], 0.1 * e[16]);
	ck_assert(m11 < m12 && m12 < m14 && m14 < m161 && m41 < m161);
	struct gs_emu_profile flat = *pf;
	memset(flat.dram_spread, 0, sizeof flat.dram_spread);
	ck_assert_int_eq(gs_emu_spread_table(&flat, tab), 0);
	tb_prof = &flat;
	ck_assert_double_eq_tol(spread_misses(1, 2), SPREAD_STEPS, 1e-9);
	ck_assert_double_eq_tol(spread_misses(4, 4), SPREAD_STEPS, 1e-9);
	tb_prof = NULL;
}
END_TEST

/* Integer division by a register (probe.c): a chain of K dependent
 * rem.u32 takes lat.idiv32 each, and each adds what ptxas's sequence
 * issues beyond it: 3 instructions at the SFU's rate, 13 integer ones. */
START_TEST(test_probe_idiv)
{
	const struct gs_emu_profile *pf = gs_emu_profile_find("sm_90");
	const int k = 6;
	struct tb t;
	struct gs_emu_mem mem = { 0 };
	struct gs_emu_blockstat st;
	tb_init(&t, 0);
	uint32_t x = tb_reg(&t, 0), seven = tb_imm(&t, 7, 0);
	uint32_t tid = tb_slot(&t, GS_SLOT_SPECIAL, GS_SR_TID_X, 0);
	tb_ins(&t, GS_OP_ADD32, GS_EMU_INT, x, tid, tb_imm(&t, 1000, 0));
	for (int i = 0; i < k; i++)
		tb_ins(&t, GS_OP_REMU32, GS_EMU_INT, x, x, seven);
	tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	tb_probe(&t, &mem, 32, NULL, 65536, &st);
	ck_assert(pf->lat_idiv32 > 100);
	/* the add at cycle 1, the divisions after it, EXIT one cycle after */
	ck_assert_double_eq_tol(st.chain, 1 + pf->lat[GS_EMU_INT] + (k - 1) * pf->lat_idiv32 + 1, 1e-9);
	ck_assert_double_eq_tol(st.xinst[GS_EMU_SFU], 3 * k, 1e-12);
	ck_assert_double_eq_tol(st.xinst[GS_EMU_INT], 13 * k, 1e-12);
	ck_assert_uint_eq(st.c.warp_inst[GS_EMU_INT], k + 1);
	gs_emu_blockstat_release(&st);
	gs_emu_mem_release(&mem);
}
END_TEST

/* The sampler: every edge of a 10 x 5 grid is represented, the weights
 * cover the grid, and a grid smaller than the sample runs whole. */
START_TEST(test_sampler)
{
	unsigned grid[3] = { 10, 5, 1 };
	uint64_t idx[16];
	double w[16], sum = 0;
	size_t n = gs_emu_sample(grid, 16, idx, w);
	int corner = 0, right = 0, bottom = 0, far = 0;
	ck_assert(n <= 16 && n > 8);
	for (size_t i = 0; i < n; i++) {
		unsigned x = (unsigned)(idx[i] % 10), y = (unsigned)(idx[i] / 10);
		sum += w[i];
		corner |= x == 0 && y == 0;
		right |= x == 9 && y > 0 && y < 4;
		bottom |= y == 4 && x > 0 && x < 9;
		far |= x == 9 && y == 4;
		for (size_t j = 0; j < i; j++)
			ck_assert(idx[j] != idx[i]);
	}
	ck_assert(corner && right && bottom && far);
	ck_assert_double_eq_tol(sum, 50, 1e-9);
	/* two blocks wide: no interior, 18 edge strata, a sample of 8 takes the
	 * largest, the bulk (y and z interior) first */
	unsigned slab[3] = { 2, 128, 512 };
	ck_assert_int_eq((int)gs_emu_sample(slab, 8, idx, w), 8);
	int bulk = 0;
	for (int i = 0; i < 8; i++) {
		unsigned y = (unsigned)(idx[i] / 2 % 128), z = (unsigned)(idx[i] / 256);
		bulk += y > 0 && y < 127 && z > 0 && z < 511 && w[i] == 126.0 * 510;
		ck_assert(i == 0 || w[i] <= w[i - 1]);
	}
	ck_assert_int_eq(bulk, 2);
	unsigned small[3] = { 3, 2, 1 };
	ck_assert_int_eq((int)gs_emu_sample(small, 16, idx, w), 6);
	for (int i = 0; i < 6; i++)
		ck_assert(idx[i] == (uint64_t)i && w[i] == 1);
	/* the interior runs: after the 8 edge strata of a 2-D grid, 4 runs of 6
	 * consecutive interior blocks of equal weights, one from each quarter
	 * of the interior (rows 1-62: every quarter's rows); none in a grid
	 * run whole, nor in the slab */
	size_t inner;
	unsigned sq[3] = { 64, 64, 1 };
	uint64_t idx32[32];
	double w32[32];
	n = gs_emu_sample_split(sq, 32, idx32, w32, &inner);
	ck_assert_int_eq((int)n, 32);
	ck_assert_int_eq((int)inner, 8);
	unsigned quarter = 0;
	for (size_t i = inner; i < n; i++) {
		unsigned x = (unsigned)(idx32[i] % 64), y = (unsigned)(idx32[i] / 64);
		ck_assert(x > 0 && x < 63 && y > 0 && y < 63);
		ck_assert_double_eq_tol(w32[i], 62.0 * 62 / 24, 1e-9);
		ck_assert((i - inner) % 6 == 0 || idx32[i] == idx32[i - 1] + 1 || x == 1);
		quarter |= 1u << ((y - 1) * 4 / 62);
		for (size_t j = inner; j < i; j++)
			ck_assert(idx32[j] != idx32[i]);
	}
	ck_assert_uint_eq(quarter, 15);
	ck_assert_int_eq((int)gs_emu_sample_split(small, 16, idx, w, &inner), 6);
	ck_assert_int_eq((int)inner, 6);
	ck_assert_int_eq((int)gs_emu_sample_split(slab, 8, idx, w, &inner), 8);
	ck_assert_int_eq((int)inner, 8);
}
END_TEST

/* The sample's size: the warp cap binds large blocks, down to the floor. */
START_TEST(test_sample_size)
{
	struct gs_emu_profile p = { .sample_warps = 256 };
	ck_assert_int_eq((int)gs_emu_sample_size(&p, 32, 64), 32);   /* 64 warps: under the cap */
	ck_assert_int_eq((int)gs_emu_sample_size(&p, 32, 256), 32);  /* 256 warps: at it */
	ck_assert_int_eq((int)gs_emu_sample_size(&p, 32, 512), 16);  /* 16 warps a block */
	ck_assert_int_eq((int)gs_emu_sample_size(&p, 32, 1024), GS_EMU_SAMPLE_MIN);
	ck_assert_int_eq((int)gs_emu_sample_size(&p, 4, 1024), 4);   /* fewer asked */
	ck_assert_int_eq((int)gs_emu_sample_size(&p, 32, 96), 32);
	p.sample_warps = 0;
	ck_assert_int_eq((int)gs_emu_sample_size(&p, 32, 1024), 32);
}
END_TEST

/* The interior's need: equal blocks need what they have; blocks of 1 and 3
 * units of work in turn (v = 0.51 over 24) need (v / 0.02)^2 = 651; the
 * edges before `inner` do not count. */
START_TEST(test_sample_need)
{
	struct gs_emu_blockstat st[32];
	memset(st, 0, sizeof st);
	for (int i = 0; i < 32; i++)
		st[i].c.warp_inst[GS_EMU_FP32] = i < 8 ? 1000u * (unsigned)(i + 1) : 500;
	ck_assert_int_eq((int)gs_emu_sample_need(st, 32, 8), 24);
	for (int i = 8; i < 32; i++)
		st[i].c.warp_inst[GS_EMU_FP32] = i % 2 ? 300 : 100;
	/* var = 100^2 * 24 / 23, v^2 = var / 200^2 */
	double v2 = 10000.0 * 24 / 23 / 40000.0;
	ck_assert_int_eq((int)gs_emu_sample_need(st, 32, 8),
			 (int)ceil(v2 / (GS_EMU_SAMPLE_SE * GS_EMU_SAMPLE_SE)));
	/* a spread within the target: 24 blocks are enough */
	for (int i = 8; i < 32; i++)
		st[i].c.warp_inst[GS_EMU_FP32] = i % 2 ? 1005 : 995;
	ck_assert_int_eq((int)gs_emu_sample_need(st, 32, 8), 24);
	ck_assert_int_eq((int)gs_emu_sample_need(st, 9, 8), 1);
}
END_TEST

START_TEST(test_divergence)
{
	struct tb t;
	struct gs_emu_mem mem = { 0 };
	struct gs_emu_counters c;
	uint64_t buf;
	char err[256];
	ck_assert_int_eq(gs_emu_mem_alloc(&mem, 48 * 4, &buf), 0);
	tb_init(&t, 0);
	tb_param(&t, 8);
	uint32_t tid = tb_slot(&t, GS_SLOT_SPECIAL, GS_SR_TID_X, 0);
	uint32_t base = tb_ldptr(&t, 0), off = tb_reg(&t, 1), a = tb_reg(&t, 1), v = tb_reg(&t, 0);
	tb_ins(&t, GS_OP_MULWU32, GS_EMU_INT, off, tid, tb_imm(&t, 4, 0));
	tb_ins(&t, GS_OP_ADD64, GS_EMU_INT, a, base, off);
	struct gs_ins *s = tb_ins(&t, GS_OP_SETP, GS_EMU_INT, 2, GS_NONE, tid);
	s->o[3] = tb_imm(&t, 16, 0);
	s->o[4] = GS_NONE;
	s->sub = GS_CMP_LT;
	s->sub2 = GS_TY_U32;
	int32_t pc_bra = (int32_t)t.m.ncode;
	struct gs_ins *b = tb_ins(&t, GS_OP_BRA, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	tb_ins(&t, GS_OP_MOV32, GS_EMU_INT, v, tb_imm(&t, 100, 0), GS_NONE);
	struct gs_ins *j = tb_ins(&t, GS_OP_BRA, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	int32_t pc_else = (int32_t)t.m.ncode;
	tb_ins(&t, GS_OP_MOV32, GS_EMU_INT, v, tb_imm(&t, 200, 0), GS_NONE);
	int32_t pc_join = (int32_t)t.m.ncode;
	tb_mem(&t, GS_OP_ST, GS_SP_GLOBAL, v, a, 0);
	tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	b = &t.code[pc_bra];
	b->guard = 2;
	b->gneg = 1;
	b->tgt = pc_else;
	b->rpc = pc_join;
	j->tgt = pc_join;
	void *args[] = { &buf };
	ck_assert_int_eq(tb_run(&t, &mem, "sm_90", 48, args, &c, err), GS_EMU_OK);
	const int *out = (const int *)gs_emu_mem_ptr(&mem, buf, 48 * 4);
	for (int i = 0; i < 48; i++)
		ck_assert_int_eq(out[i], i < 16 ? 100 : 200);
	/* warp 0 splits, warp 1 (16 threads, all >= 16) does not */
	ck_assert_uint_eq(c.branches, 2);
	ck_assert_uint_eq(c.divergent, 1);
	ck_assert_uint_eq(c.warps, 2);
	ck_assert_uint_eq(c.blocks, 1);
	/* warp 0: 5 before the branch, then 2 per path and 2 after; warp 1: 5 + 1 + 2 */
	uint64_t total = 0;
	for (int k = 0; k < GS_EMU_NCLASS; k++)
		total += c.warp_inst[k];
	ck_assert_uint_eq(total, (5 + 2 + 1 + 2) + (5 + 1 + 2));
	gs_emu_mem_release(&mem);
}
END_TEST

/* A loop of two instructions on one warp: `mov v, 5` (the same state each
 * time round: it never ends) or `add v, v, 1` (it moves). */
static void tb_loop(struct tb *t, int moves)
{
	tb_init(t, 0);
	uint32_t v = tb_reg(t, 0);
	if (moves)
		tb_ins(t, GS_OP_ADD32, GS_EMU_INT, v, v, tb_imm(t, 1, 0));
	else
		tb_ins(t, GS_OP_MOV32, GS_EMU_INT, v, tb_imm(t, 5, 0), GS_NONE);
	struct gs_ins *b = tb_ins(t, GS_OP_BRA, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	b->tgt = 0;
}

static int tb_run_until(struct tb *t, double deadline, uint64_t host_bytes, char *err)
{
	struct gs_emu_mem mem = { 0 };
	struct gs_emu_counters c;
	struct gs_emu_launch l = {
		.mod = &t->m,
		.grid = { 2, 1, 1 },
		.block = { 32, 1, 1 },
		.prof = gs_emu_profile_find("sm_90"),
		.mem = &mem,
		.threads = 2,
		.deadline = deadline,
		.host_bytes = host_bytes,
	};
	int rc = gs_emu_run(&l, &c, err, 256);
	gs_emu_mem_release(&mem);
	return rc;
}

/* Past its deadline a run stops: a loop whose state repeats is a hang
 * (named with its line), one that moves is only long. */
START_TEST(test_deadline)
{
	struct tb t;
	char err[256];
	tb_loop(&t, 0);
	ck_assert_int_eq(tb_run_until(&t, gs_now() + 0.05, 0, err), GS_EMU_HANG);
	ck_assert_ptr_nonnull(strstr(err, "never ends"));
	ck_assert_ptr_nonnull(strstr(err, "at line 1"));
	tb_loop(&t, 1);
	ck_assert_int_eq(tb_run_until(&t, gs_now() + 0.05, 0, err), GS_EMU_EXPIRED);
}
END_TEST

/* The blocks' state past host_bytes is refused before anything runs. */
START_TEST(test_host_bytes)
{
	struct tb t;
	char err[256];
	tb_loop(&t, 0);
	t.f.smem_static = 1 << 20;
	ck_assert_int_eq(tb_run_until(&t, gs_now() + 0.05, 4096, err), GS_EMU_NOMEM);
	ck_assert_ptr_nonnull(strstr(err, "host memory"));
}
END_TEST

/* a store one word past the end of its buffer */
START_TEST(test_fault_bounds)
{
	struct tb t;
	struct gs_emu_mem mem = { 0 };
	struct gs_emu_counters c;
	uint64_t buf;
	char err[256];
	ck_assert_int_eq(gs_emu_mem_alloc(&mem, 31 * 4, &buf), 0);
	tb_init(&t, 0);
	tb_param(&t, 8);
	uint32_t tid = tb_slot(&t, GS_SLOT_SPECIAL, GS_SR_TID_X, 0);
	uint32_t base = tb_ldptr(&t, 0), off = tb_reg(&t, 1), a = tb_reg(&t, 1);
	tb_ins(&t, GS_OP_MULWU32, GS_EMU_INT, off, tid, tb_imm(&t, 4, 0));
	tb_ins(&t, GS_OP_ADD64, GS_EMU_INT, a, base, off);
	tb_mem(&t, GS_OP_ST, GS_SP_GLOBAL, tid, a, 0)->line = 87;
	tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	void *args[] = { &buf };
	ck_assert_int_eq(tb_run(&t, &mem, "sm_90", 32, args, &c, err), GS_EMU_FAULT);
	char want[200];
	snprintf(want, sizeof want,
		 "emulator: out-of-bounds op at line 87: address 0x%llx "
		 "(block (0,0,0) thread (31,0,0))",
		 (unsigned long long)(buf + 31 * 4));
	ck_assert_str_eq(err, want);
	/* the same store 2 bytes off: misaligned, reported for thread 0 */
	t.code[3].imm = 2;
	ck_assert_int_eq(tb_run(&t, &mem, "sm_90", 32, args, &c, err), GS_EMU_FAULT);
	ck_assert_ptr_nonnull(strstr(err, "misaligned op at line 87"));
	ck_assert_ptr_nonnull(strstr(err, "thread (0,0,0)"));
	gs_emu_mem_release(&mem);
}
END_TEST

/* ---- CUDA C through NVRTC ------------------------------------------------------ */

struct kmod {
	struct gs_emu_mem mem;
	struct gs_ptx_module *m;
	char lowered[256]; /* the mangled name of the one name expression, if any */
};

/* Compile `path` for sm_90 with the options (NULL-terminated) and load the
 * PTX.  0, or 1 when NVRTC cannot be loaded here (the test is skipped). */
static int kload(struct kmod *k, const char *path, const char *const *opts, const char *expr)
{
	static struct gs_nvrtc *nv;
	char err[512];
	memset(k, 0, sizeof(*k));
	if (!nv && !(nv = gs_test_nvrtc(__FILE__, path)))
		return 1;
	char *src;
	size_t len;
	ck_assert_msg(gs_read_file(path, &src, &len) == 0, "cannot read %s", path);
	const char *o[32] = { "-arch=sm_90" };
	size_t n = 1;
	for (size_t i = 0; opts && opts[i] && n < 32; i++)
		o[n++] = opts[i];
	struct gs_compile_in in = { .name = path, .source = src, .opts = o, .nopts = n,
				    .name_exprs = expr ? &expr : NULL, .nnames = expr ? 1 : 0,
				    .want_ptx = 1 };
	struct gs_compile_out out;
	memset(&out, 0, sizeof out);
	ck_assert_int_eq(gs_nvrtc_compile(nv, &in, &out), 0);
	ck_assert_msg(out.ok, "%s does not compile: %s", path, out.log);
	if (expr)
		snprintf(k->lowered, sizeof k->lowered, "%s", out.lowered[0]);
	k->m = gs_ptx_load(out.ptx, out.ptx_len, &k->mem, err, sizeof err);
	ck_assert_msg(k->m != NULL, "%s: %s", path, err);
	gs_compile_out_release(&out, expr ? 1 : 0);
	free(src);
	return 0;
}

static void kfree(struct kmod *k)
{
	gs_ptx_free(k->m, &k->mem);
	gs_emu_mem_release(&k->mem);
}

static uint64_t kbuf(struct kmod *k, size_t bytes, const void *init)
{
	uint64_t a;
	ck_assert_int_eq(gs_emu_mem_alloc(&k->mem, bytes, &a), 0);
	if (init)
		memcpy(gs_emu_mem_ptr(&k->mem, a, bytes), init, bytes);
	return a;
}

static void *kptr(struct kmod *k, uint64_t a, size_t bytes)
{
	void *p = gs_emu_mem_ptr(&k->mem, a, bytes);
	ck_assert_ptr_nonnull(p);
	return p;
}

/* Run kernel `name` (1-D geometry unless gy/by say otherwise).  The return
 * code; err holds the message. */
static int krun_full(struct kmod *k, const char *name, unsigned gx, unsigned gy, unsigned bx,
		     unsigned by, size_t dyn, void **args, int threads, struct gs_emu_counters *c,
		     char *err)
{
	int e = gs_ptx_entry(k->m, name);
	ck_assert_msg(e >= 0, "no kernel %s", name);
	struct gs_emu_launch l = {
		.mod = k->m,
		.entry = e,
		.grid = { gx, gy, 1 },
		.block = { bx, by, 1 },
		.dyn_smem = dyn,
		.args = args,
		.prof = gs_emu_profile_find("sm_90"),
		.mem = &k->mem,
		.threads = threads,
	};
	return gs_emu_run(&l, c, err, 512);
}

static void krun(struct kmod *k, const char *name, unsigned grid, unsigned block, size_t dyn,
		 void **args, struct gs_emu_counters *c)
{
	char err[512];
	int rc = krun_full(k, name, grid, 1, block, 1, dyn, args, 2, c, err);
	ck_assert_msg(rc == GS_EMU_OK, "%s: %s", name, err);
}

static uint32_t seed = 1;
static uint32_t rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

/* kernels/matmul.cu in configurations of spaces/matmul.space, and its naive
 * reference, against a host matmul adding the products in the same order */
START_TEST(test_matmul)
{
	static const int cfg[][4] = { /* TILE, RECT, UNROLL, PREFETCH */
		{ 16, 1, 16, 1 }, { 16, 2, 4, 0 }, { 8, 4, 8, 1 }, { 8, 1, 1, 0 },
		{ 16, 4, 2, 1 }, { 32, 1, 32, 1 }, { 32, 2, 8, 0 },
	};
	const int n = 64;
	float a[64 * 64], b[64 * 64], ref[64 * 64];
	for (int i = 0; i < n * n; i++) {
		a[i] = (float)(rnd() % 2001) / 1000.0f - 1.0f;
		b[i] = (float)(rnd() % 2001) / 1000.0f - 1.0f;
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			float s = 0;
			for (int k = 0; k < n; k++)
				s = fmaf(a[i * n + k], b[k * n + j], s);
			ref[i * n + j] = s;
		}
	for (size_t c = 0; c <= sizeof cfg / sizeof cfg[0]; c++) {
		int naive = c == sizeof cfg / sizeof cfg[0];
		const int *p = naive ? cfg[0] : cfg[c];
		char d[4][32];
		snprintf(d[0], 32, "-DTILE=%d", p[0]);
		snprintf(d[1], 32, "-DRECT=%d", p[1]);
		snprintf(d[2], 32, "-DUNROLL=%d", p[2]);
		snprintf(d[3], 32, "-DPREFETCH=%d", p[3]);
		const char *opts[] = { d[0], d[1], d[2], d[3], NULL };
		struct kmod k;
		if (kload(&k, "kernels/matmul.cu", opts, NULL))
			return;
		uint64_t da = kbuf(&k, sizeof a, a), db = kbuf(&k, sizeof b, b);
		uint64_t dc = kbuf(&k, sizeof ref, NULL);
		int nn = n;
		void *args[] = { &da, &db, &dc, &nn };
		struct gs_emu_counters cnt;
		char err[512];
		unsigned t = (unsigned)p[0];
		int rc;
		if (naive)
			rc = krun_full(&k, "matmul_naive", 4, 4, 16, 16, 0, args, 2, &cnt, err);
		else
			rc = krun_full(&k, "matmul", (unsigned)n / (t * (unsigned)p[1]),
				       (unsigned)n / t, t, t, 0, args, 2, &cnt, err);
		ck_assert_msg(rc == GS_EMU_OK, "%s", err);
		const float *cc = kptr(&k, dc, sizeof ref);
		for (int i = 0; i < n * n; i++)
			ck_assert_msg(fabsf(cc[i] - ref[i]) <= 1e-4f * (1.0f + fabsf(ref[i])),
				      "config %zu: C[%d] = %.9g, host %.9g", c, i, (double)cc[i],
				      (double)ref[i]);
		/* one block per tile of C; two barriers per step of k; no bank
		 * conflicts where a warp stores whole rows of Bs (with TILE = 16 and
		 * RECT > 1 the two rows of a warp's Bs store share banks) */
		if (!naive) {
			ck_assert_uint_eq(cnt.blocks, (uint64_t)(n / (p[0] * p[1])) * (n / p[0]));
			ck_assert_uint_gt(cnt.sld_inst, 0);
			if (p[0] == 32 || (p[0] == 16 && p[1] == 1))
				ck_assert_uint_eq(cnt.bank_conflicts, 0);
			ck_assert_uint_eq(cnt.barriers,
					  cnt.warps * (uint64_t)(2 * n / p[0]));
		}
		ck_assert_uint_eq(cnt.divergent, 0);
		kfree(&k);
	}
}
END_TEST

/* tests/emu/reduce.cu: a shared-memory tree, shuffles and votes */
START_TEST(test_reduce_warp_ops)
{
	struct kmod k;
	const char *opts[] = { "-DBLOCK=128", NULL };
	if (kload(&k, "tests/emu/reduce.cu", opts, NULL))
		return;
	enum { N = 1000, NB = 8, W = NB * 128 / 32 };
	int in[NB * 128];
	for (int i = 0; i < NB * 128; i++)
		in[i] = (int)(rnd() % 2001) - 1000 + (i % 37 == 0 ? 5000 : 0);
	uint64_t din = kbuf(&k, sizeof in, in), dout = kbuf(&k, NB * 4, NULL);
	int n = N;
	void *a1[] = { &din, &dout, &n };
	struct gs_emu_counters c;
	krun(&k, "reduce_smem", NB, 128, 0, a1, &c);
	const int *out = kptr(&k, dout, NB * 4);
	for (int b = 0; b < NB; b++) {
		int s = 0;
		for (int t = 0; t < 128; t++)
			s += b * 128 + t < N ? in[b * 128 + t] : 0;
		ck_assert_int_eq(out[b], s);
	}
	ck_assert_uint_eq(c.barriers, (uint64_t)NB * 4 * 8); /* 1 + 7 per warp */

	uint64_t dsum = kbuf(&k, W * 4, NULL), dmx = kbuf(&k, W * 4, NULL);
	uint64_t dbal = kbuf(&k, W * 4, NULL), dany = kbuf(&k, W * 4, NULL);
	uint64_t dall = kbuf(&k, W * 4, NULL), dbc = kbuf(&k, sizeof in, NULL);
	uint64_t dup = kbuf(&k, sizeof in, NULL);
	void *a2[] = { &din, &dsum, &dmx, &dbal, &dany, &dall, &dbc, &dup };
	krun(&k, "warp_ops", NB, 128, 0, a2, &c);
	const int *sum = kptr(&k, dsum, W * 4), *mx = kptr(&k, dmx, W * 4);
	const unsigned *bal = kptr(&k, dbal, W * 4);
	const int *any = kptr(&k, dany, W * 4), *all = kptr(&k, dall, W * 4);
	const int *bc = kptr(&k, dbc, sizeof in), *up = kptr(&k, dup, sizeof in);
	for (int w = 0; w < W; w++) {
		int s = 0, m = in[w * 32], an = 0, al = 1;
		unsigned bl = 0;
		for (int l = 0; l < 32; l++) {
			int v = in[w * 32 + l];
			s += v;
			m = v > m ? v : m;
			bl |= (unsigned)(v > 0) << l;
			an |= v > 1000;
			al &= v > -1000;
		}
		ck_assert_int_eq(sum[w], s);
		ck_assert_int_eq(mx[w], m);
		ck_assert_uint_eq(bal[w], bl);
		ck_assert_int_eq(!!any[w], an);
		ck_assert_int_eq(!!all[w], al);
		for (int l = 0; l < 32; l++) {
			int i = w * 32 + l;
			ck_assert_int_eq(bc[i], in[w * 32 + 7]);
			/* width 16: lanes below 3 of each half keep their own value */
			ck_assert_int_eq(up[i], (l & 15) >= 3 ? in[i - 3] : in[i]);
		}
	}
	kfree(&k);
}
END_TEST

/* tests/emu/atomics.cu: int and float adds, max, a CAS loop, shared bins */
START_TEST(test_atomics)
{
	struct kmod k;
	if (kload(&k, "tests/emu/atomics.cu", NULL, NULL))
		return;
	enum { N = 1000 };
	int in[N];
	float fin[N];
	for (int i = 0; i < N; i++) {
		in[i] = (int)(rnd() % 10000) - 3000;
		fin[i] = (float)(rnd() % 1000) / 64.0f; /* exact sums in float and double */
	}
	uint64_t din = kbuf(&k, sizeof in, in), dfin = kbuf(&k, sizeof fin, fin);
	int imax0 = -1000000;
	uint64_t disum = kbuf(&k, 4, NULL), dfsum = kbuf(&k, 4, NULL), dimax = kbuf(&k, 4, &imax0);
	uint64_t ddsum = kbuf(&k, 8, NULL), dbins = kbuf(&k, 16 * 4, NULL);
	int n = N;
	void *args[] = { &din, &dfin, &disum, &dfsum, &dimax, &ddsum, &dbins, &n };
	struct gs_emu_counters c;
	krun(&k, "atomics", (N + 255) / 256, 256, 0, args, &c);
	int isum = 0, imax = imax0;
	float fsum = 0;
	double dsum = 0;
	unsigned bins[16] = { 0 };
	for (int i = 0; i < N; i++) {
		isum += in[i];
		imax = in[i] > imax ? in[i] : imax;
		fsum += fin[i];
		dsum += fin[i];
		bins[in[i] & 15]++;
	}
	ck_assert_int_eq(*(int *)kptr(&k, disum, 4), isum);
	ck_assert_int_eq(*(int *)kptr(&k, dimax, 4), imax);
	ck_assert(*(float *)kptr(&k, dfsum, 4) == fsum);
	ck_assert(*(double *)kptr(&k, ddsum, 8) == dsum);
	const unsigned *b = kptr(&k, dbins, 64);
	for (int i = 0; i < 16; i++)
		ck_assert_uint_eq(b[i], bins[i]);
	ck_assert_uint_gt(c.atom_inst, 0);
	kfree(&k);
}
END_TEST

/* tests/emu/control.cu: nested divergence, break, continue, early return,
 * a __noinline__ call, a dynamically indexed local array */
START_TEST(test_control)
{
	struct kmod k;
	if (kload(&k, "tests/emu/control.cu", NULL, NULL))
		return;
	enum { N = 1000 };
	int in[N];
	for (int i = 0; i < N; i++)
		in[i] = (int)(rnd() % 100000) - (i % 11 == 0 ? 200000 : 0);
	uint64_t din = kbuf(&k, sizeof in, in), dout = kbuf(&k, sizeof in, NULL);
	int n = N;
	void *args[] = { &din, &dout, &n };
	struct gs_emu_counters c;
	krun(&k, "divergent", (N + 127) / 128, 128, 0, args, &c);
	const int *out = kptr(&k, dout, sizeof in);
	for (int i = 0; i < N; i++)
		ck_assert_msg(out[i] == gs_divergent_host(in[i]), "divergent(%d) = %d, host %d", in[i],
			      out[i], gs_divergent_host(in[i]));
	ck_assert_uint_gt(c.divergent, 0);
	ck_assert_uint_gt(c.branches, c.divergent);

	/* stack_array has no bounds check: exactly N threads */
	krun(&k, "stack_array", N / 8, 8, 0, args, &c);
	out = kptr(&k, dout, sizeof in);
	for (int i = 0; i < N; i++) {
		int a[24], s = 0;
		for (int q = 0; q < 24; q++)
			a[q] = in[(i + q) % N] * (q + 1);
		int idx = in[i] & 15;
		for (int q = 0; q < 8; q++)
			s += a[(idx + q * 3) % 24];
		ck_assert_int_eq(out[i], s);
	}
	ck_assert_uint_gt(c.lst_inst + c.lld_inst, 0);
	kfree(&k);
}
END_TEST

/* tests/emu/loop.cu: the loops' span that the fetch term reads (probe.c).
 * 256 FFMAs an iteration span 256 PTX instructions and the loop's control;
 * 512 more under a branch never taken in the middle of the body count in
 * the span though they never issue; the loop is nearly all of the work. */
START_TEST(test_probe_loop_span)
{
	struct kmod k;
	if (kload(&k, "tests/emu/loop.cu", NULL, NULL))
		return;
	uint64_t dout = kbuf(&k, 64 * 4, NULL);
	float b = 0.5f;
	int n = 40, flag = 0;
	void *args[] = { &dout, &b, &n, &flag };
	uint32_t span[2];
	for (int i = 0; i < 2; i++) {
		const char *name = i ? "cold" : "hot";
		uint64_t only = 0;
		struct gs_emu_blockstat st;
		struct gs_emu_counters c;
		char err[512];
		struct gs_emu_launch l = {
			.mod = k.m, .entry = gs_ptx_entry(k.m, name), .grid = { 1, 1, 1 },
			.block = { 64, 1, 1 }, .args = args, .prof = gs_emu_profile_find("sm_90"),
			.mem = &k.mem, .threads = 1, .only = &only, .nonly = 1, .stats = &st,
			.l1_bytes = 65536, .blocks_per_sm = 1,
		};
		ck_assert_int_eq(gs_emu_run(&l, &c, err, sizeof err), GS_EMU_OK);
		span[i] = st.loop_ins;
		ck_assert_uint_ge(st.loop_ins, 256);
		ck_assert_uint_le(st.loop_ins, (i ? 768 : 256) + 16);
		ck_assert(st.loop_share > 0.95 && st.loop_share <= 1);
		gs_emu_blockstat_release(&st);
	}
	ck_assert_uint_ge(span[1] - span[0], 512);
	ck_assert_uint_le(span[1] - span[0], 520);
	kfree(&k);
}
END_TEST

/* the widest LDS a sampled_block's machine code is said to have (0: none) */
static unsigned kb_lds;
/* the machine code's bytes and its longest loop's that sampled_block
 * tells the launch (0 and 0: not known) */
static size_t kb_text, kb_loop;
/* its forward BRAs and predicated EXITs, where kb_text is known */
static size_t kb_fwd;

/* One sampled block (block 0 of `blocks`), with or without loop sampling. */
static void sampled_block(struct kmod *k, const char *name, unsigned blocks, unsigned threads,
			  void **args, uint64_t loops, struct gs_emu_blockstat *st)
{
	uint64_t only = 0;
	struct gs_emu_counters c;
	char err[512];
	struct gs_emu_launch l = {
		.mod = k->m, .entry = gs_ptx_entry(k->m, name), .grid = { blocks, 1, 1 },
		.block = { threads, 1, 1 }, .args = args, .prof = gs_emu_profile_find("sm_90"),
		.mem = &k->mem, .threads = 1, .only = &only, .nonly = 1, .stats = st,
		.l1_bytes = 65536, .blocks_per_sm = 4, .loops = loops, .lds_bytes = kb_lds,
		.text_bytes = kb_text, .sass_loop_bytes = kb_loop, .sass_fwd = kb_fwd,
	};
	ck_assert_int_eq(gs_emu_run(&l, &c, err, sizeof err), GS_EMU_OK);
}

/* tests/emu/records.cu: the probe runs a block's warps one after another,
 * so its L1 keeps each warp's records between its loads of a sector; the
 * reuse term (model/reuse.c) judges them by what the resident warps load
 * in between.  Eight records a thread read a word a step, blocks of 256
 * threads four to an SM (the block's L1 64 KiB): 256 sectors a warp apart,
 * every later word misses the L1, and with 1024 blocks, all resident, the
 * L2 too: each sector's later words come back from DRAM.  With 4 blocks
 * the L2 holds them; with two records a thread the L1 does; read a
 * record at once, the words meet in flight. */
START_TEST(test_probe_reuse)
{
	struct kmod k;
	if (kload(&k, "tests/emu/records.cu", NULL, NULL))
		return;
	enum { T = 256, R = 8 };
	int r8 = R, r2 = 2;
	/* the whole grid's records, though only block 0 runs: the reuse term
	 * counts an allocation's sectors live at most once (a table is), so
	 * the records must be as many as the grid's */
	uint64_t drec = kbuf(&k, (size_t)1024 * T * R * 64, NULL), dout = kbuf(&k, T * 4, NULL);
	void *a8[] = { &drec, &dout, &r8 }, *a2[] = { &drec, &dout, &r2 };
	struct gs_emu_blockstat far, few, two, together;
	sampled_block(&k, "chained", 1024, T, a8, 0, &far);
	sampled_block(&k, "chained", 4, T, a8, 0, &few);
	sampled_block(&k, "chained", 1024, T, a2, 0, &two);
	sampled_block(&k, "burst", 1024, T, a8, 0, &together);
	uint64_t touches = (uint64_t)T * R * 16;
	ck_assert_uint_eq(far.l1_hit + far.l1_miss, touches);
	ck_assert_uint_eq(far.l1_miss, touches);
	/* 16 words a record, 2 sectors: all but each sector's first again */
	ck_assert_uint_eq(far.refetch, (uint64_t)T * R * 14);
	ck_assert_uint_eq(few.l1_miss, touches);
	ck_assert_uint_eq(few.refetch, 0);
	ck_assert_uint_eq(two.l1_miss, (uint64_t)T * 2 * 2);
	ck_assert_uint_eq(two.refetch, 0);
	ck_assert_uint_eq(together.refetch, 0);
	gs_emu_blockstat_release(&far);
	gs_emu_blockstat_release(&few);
	gs_emu_blockstat_release(&two);
	gs_emu_blockstat_release(&together);
	kfree(&k);
}
END_TEST

/* tests/emu/sharedtab.cu: each warp reads a 16 KiB table whole at each of
 * 4 steps.  A sector's loads are 512 of the warp's sectors apart, which
 * times the resident warps would be far more than the L1 and half the L2
 * hold; but the table is one allocation of 512 sectors, live once for all
 * of them: only each sector's first load misses, none goes to DRAM again.
 * The same 16 KiB read from a 64 MiB allocation is not capped below either
 * gap: after its first step, each warp's loads miss and come from DRAM. */
START_TEST(test_probe_shared_table)
{
	struct kmod k;
	if (kload(&k, "tests/emu/sharedtab.cu", NULL, NULL))
		return;
	enum { T = 256 };
	int steps = 4;
	uint64_t dtab = kbuf(&k, 4096 * 4, NULL), dout = kbuf(&k, T * 4, NULL);
	uint64_t dbig = kbuf(&k, (size_t)64 << 20, NULL);
	void *a[] = { &dtab, &dout, &steps }, *b[] = { &dbig, &dout, &steps };
	struct gs_emu_blockstat small, big;
	sampled_block(&k, "sweep", 1024, T, a, 0, &small);
	sampled_block(&k, "sweep", 1024, T, b, 0, &big);
	uint64_t touches = (uint64_t)(T / 32) * steps * 128 * 4;
	ck_assert_uint_eq(small.l1_hit + small.l1_miss, touches);
	ck_assert_uint_eq(small.l1_miss, 512);
	ck_assert_uint_eq(small.refetch, 0);
	/* warps run one after another: a warp's first step finds the
	 * sectors the warp before it left in the probe's L1 */
	ck_assert_uint_eq(big.l1_miss, 512 + (T / 32) * (steps - 1) * 512);
	ck_assert_uint_eq(big.refetch, (T / 32) * (steps - 1) * 512);
	gs_emu_blockstat_release(&small);
	gs_emu_blockstat_release(&big);
	kfree(&k);
}
END_TEST

/* tests/emu/partial.cu: a warp store whose lanes each write 4 bytes of a
 * sector of their own has 32 partial sectors, weighed by how many of them
 * share a line (interval-19: 1, 1.19 and 2.01 sectors' cost for four, two
 * and one a line, the profile's partial_line2 and partial_line1). */
START_TEST(test_probe_partial_lines)
{
	struct kmod k;
	if (kload(&k, "tests/emu/partial.cu", NULL, NULL))
		return;
	enum { T = 128 };
	uint64_t dout = kbuf(&k, (size_t)T * 32 * 4, NULL);
	static const int strides[] = { 8, 16, 32 };
	static const uint64_t weight[] = { 100, 119, 201 };
	for (int i = 0; i < 3; i++) {
		int s = strides[i];
		void *args[] = { &dout, &s };
		struct gs_emu_blockstat st;
		sampled_block(&k, "spread", 1, T, args, 0, &st);
		ck_assert_uint_eq(st.st_partial, T);
		ck_assert_uint_eq(st.st_partial_w, T * weight[i]);
		gs_emu_blockstat_release(&st);
	}
	kfree(&k);
}
END_TEST

/* tests/emu/hottable.cu: a table gathered at every step while each warp
 * streams its own words stays in the L1 (reuse.c: a reload of a sector
 * still held brings nothing in, so only the streamed sectors count between
 * two loads of a table sector), with 32 warps a block, whose share of the
 * 64 KiB makes a gap of 64 sectors: counting every sector a warp loads
 * (about 29 a step) put many of the table's hits out of the L1. */
START_TEST(test_probe_hot_table)
{
	struct kmod k;
	if (kload(&k, "tests/emu/hottable.cu", NULL, NULL))
		return;
	enum { T = 1024 };
	int steps = 64;
	uint64_t dtab = kbuf(&k, 512 * 4, NULL), drec = kbuf(&k, (size_t)steps * T * 4, NULL),
		 dout = kbuf(&k, T * 4, NULL);
	void *args[] = { &dtab, &drec, &dout, &steps };
	struct gs_emu_blockstat st;
	sampled_block(&k, "hot", 1, T, args, 0, &st);
	/* nearly only the streamed sectors (4 a warp a step) and the table's
	 * first loads miss (8,445 of 8,256 so counted; every sector counted,
	 * 32,762) */
	ck_assert_uint_le(st.l1_miss, ((uint64_t)(T / 32) * steps * 4 + 64) * 11 / 10);
	gs_emu_blockstat_release(&st);
	kfree(&k);
}
END_TEST

/* tests/emu/l1spread.cu: a warp load on 32 banks whose 32 sectors lie in
 * g lines takes a wavefront per 4 lines (l1_wave_lines; l1lines.cu's spread
 * cases on the H200, results/ubench-l1skew-h200.txt: 2.00 cycles for 8
 * lines, 4.00 for 16), where the banks alone give one. */
START_TEST(test_probe_l1_lines)
{
	struct kmod k;
	if (kload(&k, "tests/emu/l1spread.cu", NULL, NULL))
		return;
	enum { T = 64 };
	int steps = 16;
	uint64_t dtab = kbuf(&k, (size_t)32 * 4096 * 4, NULL), dout = kbuf(&k, 4 * T * 4, NULL);
	static const int gs[] = { 1, 4, 8, 16, 32 };
	static const unsigned waves[] = { 1, 1, 2, 4, 8 };
	for (int i = 0; i < 5; i++) {
		int g = gs[i];
		void *args[] = { &dtab, &dout, &g, &steps };
		struct gs_emu_blockstat st;
		sampled_block(&k, "spread", 1, T, args, 0, &st);
		ck_assert_uint_eq(st.l1_waves, (uint64_t)(T / 32) * steps * waves[i]);
		ck_assert_uint_eq(st.l1_split, 0);
		gs_emu_blockstat_release(&st);
	}
	/* a warp's 32 consecutive words off a line's start: one wavefront,
	 * over two lines (l1_split_cycles, fewblocks.cu), at any shift but a
	 * multiple of 32 */
	static const int shifts[] = { 0, 1, 5, 31, 32 };
	for (int i = 0; i < 5; i++) {
		int sh = shifts[i];
		void *args[] = { &dtab, &dout, &sh, &steps };
		struct gs_emu_blockstat st;
		sampled_block(&k, "shifted", 1, T, args, 0, &st);
		ck_assert_uint_eq(st.l1_waves, (uint64_t)(T / 32) * steps);
		ck_assert_uint_eq(st.l1_split, sh % 32 ? (uint64_t)(T / 32) * steps : 0);
		gs_emu_blockstat_release(&st);
	}
	kfree(&k);
}
END_TEST

/* tests/emu/bits.cu: a population count issues on the SFU's pipe where the
 * profile gives lat.bits (sm_90: bitops.cu), the counters keeping it an
 * integer instruction, and its result waits lat.bits. */
START_TEST(test_probe_bits)
{
	struct kmod k;
	if (kload(&k, "tests/emu/bits.cu", NULL, NULL))
		return;
	enum { T = 32 };
	int n = 64;
	uint64_t dout = kbuf(&k, T * 4, NULL);
	void *args[] = { &dout, &n };
	struct gs_emu_blockstat st;
	sampled_block(&k, "popchain", 1, T, args, 0, &st);
	const struct gs_emu_profile *p = gs_emu_profile_find("sm_90");
	ck_assert(p->lat_bits > 0);
	ck_assert_msg(st.xinst[GS_EMU_SFU] == n && st.xinst[GS_EMU_INT] == -n, "%g %g",
		      st.xinst[GS_EMU_SFU], st.xinst[GS_EMU_INT]);
	ck_assert_uint_ge(st.c.warp_inst[GS_EMU_INT], (uint64_t)2 * n);
	/* each step a popc and an add on its result */
	ck_assert_msg(st.chain >= n * (p->lat_bits + p->lat[GS_EMU_INT]), "%g", st.chain);
	gs_emu_blockstat_release(&st);
	kfree(&k);
}
END_TEST

/* tests/emu/unrolled.cu: where the machine code keeps the loop, each
 * iteration's load issues after the branch, which waits for the previous
 * sum: the chain is n loads' latency and more.  Where it has no loop
 * (ptxas unrolled it: text but no loop bytes), the loads issue one after
 * another and only the adds chain: under a third of that. */
START_TEST(test_probe_unrolled)
{
	struct kmod k;
	if (kload(&k, "tests/emu/unrolled.cu", NULL, NULL))
		return;
	enum { T = 32 };
	int n = 32;
	uint64_t dtab = kbuf(&k, (size_t)n * 32 * 4, NULL), dout = kbuf(&k, T * 4, NULL);
	void *args[] = { &dtab, &dout, &n };
	struct gs_emu_blockstat looped, unrolled, unknown;
	kb_text = 4096, kb_loop = 256, kb_fwd = 64; /* every forward branch kept */
	sampled_block(&k, "sum", 1, T, args, 0, &looped);
	kb_loop = 0;
	sampled_block(&k, "sum", 1, T, args, 0, &unrolled);
	kb_text = 0, kb_fwd = 0;
	sampled_block(&k, "sum", 1, T, args, 0, &unknown);
	const struct gs_emu_profile *p = gs_emu_profile_find("sm_90");
	ck_assert_msg(looped.chain > n * p->lat_l1, "%g", looped.chain);
	ck_assert_msg(unrolled.chain < looped.chain / 3, "%g %g", unrolled.chain, looped.chain);
	ck_assert(unrolled.chain > n * p->lat[GS_EMU_FP32]);
	ck_assert(unknown.chain == looped.chain);
	gs_emu_blockstat_release(&looped);
	gs_emu_blockstat_release(&unrolled);
	gs_emu_blockstat_release(&unknown);
	kfree(&k);
}
END_TEST

/* What sass.c reads of the entries of a test kernel's cubin, compiled by
 * NVRTC for sm_90.  -1 (the test skipped) where NVRTC is not here. */
static int cubin_facts(const char *path, const char **entries, struct gs_emu_code *facts, int n)
{
	static struct gs_nvrtc *nv;
	if (!nv && !(nv = gs_test_nvrtc(__FILE__, path)))
		return -1;
	char *src;
	size_t len;
	ck_assert_int_eq(gs_read_file(path, &src, &len), 0);
	const char *o[] = { "-arch=sm_90" };
	struct gs_compile_in in = { .name = path, .source = src, .opts = o, .nopts = 1,
				    .want_ptx = 1, .want_cubin = 1 };
	struct gs_compile_out out;
	memset(&out, 0, sizeof out);
	ck_assert_int_eq(gs_nvrtc_compile(nv, &in, &out), 0);
	ck_assert_msg(out.ok, "%s", out.log);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(gs_emu_cubin_facts(out.cubin, out.cubin_len, entries[i], &facts[i]), 0);
	gs_compile_out_release(&out, 0);
	free(src);
	return 0;
}

/* tests/emu/guarded.cu: eight guarded loads, each used at once.  Its
 * machine code keeps fewer forward transfers than its PTX has forward
 * branches (ptxas predicated the guards), so those branches end no basic
 * block: the loads issue together, and the chain holds about one load's
 * latency, not eight.  With the machine code said to keep every branch,
 * or not known, each load waits at its guard for the use before it. */
START_TEST(test_probe_ifconv)
{
	struct gs_emu_code code;
	const char *entry = "guarded";
	if (cubin_facts("tests/emu/guarded.cu", &entry, &code, 1) < 0)
		return;
	free(code.win);
	ck_assert_msg(code.fwd < 8, "%zu forward transfers kept", code.fwd);

	struct kmod k;
	if (kload(&k, "tests/emu/guarded.cu", NULL, NULL))
		return;
	enum { T = 32 };
	int n = 1 << 16, stride = 4096;
	uint64_t din = kbuf(&k, (size_t)n * 4, NULL), dout = kbuf(&k, (size_t)n * 4, NULL);
	void *args[] = { &din, &dout, &n, &stride };
	struct gs_emu_blockstat conv, kept, unknown;
	kb_text = code.text_bytes, kb_loop = 0, kb_fwd = code.fwd;
	sampled_block(&k, "guarded", 1, T, args, 0, &conv);
	kb_fwd = 64;
	sampled_block(&k, "guarded", 1, T, args, 0, &kept);
	kb_text = 0, kb_fwd = 0;
	sampled_block(&k, "guarded", 1, T, args, 0, &unknown);
	const struct gs_emu_profile *p = gs_emu_profile_find("sm_90");
	double one = p->lat_l2; /* every load misses the L1 */
	ck_assert_msg(kept.chain > 8 * one, "%g", kept.chain);
	ck_assert_msg(conv.chain < 2 * one, "%g", conv.chain);
	/* misses weighted by the DRAM latency's draws (spread.c) */
	ck_assert_msg(kept.chain_misses > 6 && conv.chain_misses < 2, "%g %g", kept.chain_misses,
		      conv.chain_misses);
	ck_assert(unknown.chain == kept.chain);
	gs_emu_blockstat_release(&conv);
	gs_emu_blockstat_release(&kept);
	gs_emu_blockstat_release(&unknown);
	kfree(&k);
}
END_TEST

/* tests/emu/ldsrow.cu: runs of four scalar shared loads of a row.  ptxas
 * merges rows128's into one LDS.128 and keeps ldsrow's apart (sass.c reads
 * the widest LDS: 16 and 4 bytes).  Where the machine code has LDS.128, a
 * row aligned to 16 bytes costs one instruction (xinst takes three off
 * each run) and the wide load's wavefronts (gs_x_banks_load): a broadcast
 * row two where the four loads took four, a warp's 32 consecutive rows
 * four where they took sixteen (four lanes a bank each).  A row off its alignment, or
 * machine code without wide loads, counts as the PTX says. */
START_TEST(test_probe_lds_runs)
{
	struct gs_emu_code facts[2];
	const char *entries[] = { "rows128", "ldsrow" };
	if (cubin_facts("tests/emu/ldsrow.cu", entries, facts, 2) < 0)
		return;
	ck_assert_uint_eq(facts[0].lds_bytes, 16);
	ck_assert_uint_eq(facts[1].lds_bytes, 4);
	free(facts[0].win);
	free(facts[1].win);

	struct kmod k;
	if (kload(&k, "tests/emu/ldsrow.cu", NULL, NULL))
		return;
	enum { W = 2 };
	int steps = 16, zero = 0, one = 1;
	uint64_t dout = kbuf(&k, 64 * 4, NULL);
	void *bcast[] = { &dout, &steps, &zero, &one }, *rows[] = { &dout, &steps, &zero, &zero };
	void *off[] = { &dout, &steps, &one, &one };
	struct gs_emu_blockstat b16, b0, r16, o16;
	kb_lds = 16;
	sampled_block(&k, "ldsrow", 1, 64, bcast, 0, &b16);
	sampled_block(&k, "ldsrow", 1, 64, rows, 0, &r16);
	sampled_block(&k, "ldsrow", 1, 64, off, 0, &o16);
	kb_lds = 0;
	sampled_block(&k, "ldsrow", 1, 64, bcast, 0, &b0);
	double runs = W * steps;
	ck_assert(b16.xinst[GS_EMU_MEM] == -3 * runs);
	ck_assert(b16.smem_merged == 2 * runs);
	ck_assert(b0.xinst[GS_EMU_MEM] == 0 && b0.smem_merged == 0);
	ck_assert_uint_eq(b0.c.sld_inst, b16.c.sld_inst);
	ck_assert(r16.xinst[GS_EMU_MEM] == -3 * runs);
	ck_assert_msg(r16.smem_merged == 12 * runs, "%g", r16.smem_merged);
	ck_assert(o16.xinst[GS_EMU_MEM] == 0 && o16.smem_merged == 0);
	gs_emu_blockstat_release(&b16);
	gs_emu_blockstat_release(&b0);
	gs_emu_blockstat_release(&r16);
	gs_emu_blockstat_release(&o16);
	kfree(&k);
}
END_TEST

/* tests/emu/phases.cu: a block that loads its words through 32 L1
 * wavefronts each and then computes on them in a loop would, its warps in
 * step, take the two parts one after the other: the excess over the busier
 * port's total (the L1's) is the loop's issue, nearly all of the block's
 * instructions over its four schedulers, where the same work mixed into
 * one loop has none. */
START_TEST(test_probe_phases)
{
	struct kmod k;
	if (kload(&k, "tests/emu/phases.cu", NULL, NULL))
		return;
	enum { T = 128 };
	int steps = 64;
	uint64_t dtab = kbuf(&k, 32 * 32 * 4, NULL), dout = kbuf(&k, 4 * T * 4, NULL);
	void *args[] = { &dtab, &dout, &steps };
	struct gs_emu_blockstat once, mixed;
	sampled_block(&k, "once", 4, T, args, 0, &once);
	sampled_block(&k, "mixed", 4, T, args, 0, &mixed);
	/* 4 warps x 32 loads x 32 wavefronts, one SM cycle each */
	ck_assert_uint_eq(once.l1_waves, 4 * 32 * 32);
	double inst = 0;
	for (int c = 0; c < GS_EMU_NCLASS; c++)
		inst += (double)once.c.warp_inst[c];
	ck_assert(once.phase_excess > 0.8 * inst / 4 && once.phase_excess < inst / 4);
	ck_assert_uint_eq(mixed.l1_waves, 4 * 64 * 32);
	ck_assert(mixed.phase_excess < 0.05 * 4 * 64 * 32);
	gs_emu_blockstat_release(&once);
	gs_emu_blockstat_release(&mixed);
	kfree(&k);
}
END_TEST

/* within a share f of b */
static int near(double a, double b, double f)
{
	return fabs(a - b) <= f * fabs(b);
}

/* tests/emu/longloop.cu: loop sampling skips most iterations of the
 * counted loops, with barriers or without, and what the probe observes of the block stays within a
 * few per cent of the whole run's: the instructions exactly where the
 * iterations are alike, the chain, the L1's sectors and the footprint.
 * A loop whose end depends on memory runs whole. */
START_TEST(test_loop_sampling)
{
	struct kmod k;
	if (kload(&k, "tests/emu/longloop.cu", NULL, NULL))
		return;
	enum { N = 16384, T = 64 };
	/* a streaming loop's chain jumps with the DRAM latency's draws: it is
	 * skipped only once gaps of many iterations give a steady rate */
	enum { NX = 64 * N };
	static float p[4 * N], x[NX];
	for (int i = 0; i < 4 * N; i++)
		p[i] = (float)(rnd() % 1000) / 100.0f;
	for (int i = 0; i < NX; i++)
		x[i] = (float)(rnd() % 100);
	int n = N, nx = NX, rows = 16, cols = 512;
	uint64_t dp = kbuf(&k, sizeof p, p), da = kbuf(&k, sizeof p, NULL);
	uint64_t dx = kbuf(&k, sizeof x, x), dout = kbuf(&k, 4 * T * 4, NULL);
	static int next[N];
	for (int i = 0; i < N; i++)
		next[i] = i + 1 < 600 ? i + 1 : -1;
	uint64_t dn = kbuf(&k, sizeof next, next);
	void *a_pairs[] = { &dp, &da, &n }, *a_strided[] = { &dx, &dout, &nx };
	void *a_nest[] = { &dx, &dout, &rows, &cols }, *a_chase[] = { &dn, &dout };
	struct {
		const char *name;
		void **args;
		uint64_t least; /* iterations skipped, at least (NVRTC unrolls by up to 4) */
	} ks[] = {
		/* the first warp's loads miss, and its chain jumps with the DRAM
		 * latency's draws: too unsteady to skip (exec_loops.c, decide) */
		{ "pairs", a_pairs, N / 8 },
		{ "tiles", a_pairs, (uint64_t)(T / 32) * N / 64 / 4 },
		{ "strided", a_strided, 32 },
		{ "nest", a_nest, (uint64_t)(T / 32) * rows * cols / 16 },
		{ "chase", a_chase, 0 },
	};
	for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
		struct gs_emu_blockstat whole, fast;
		sampled_block(&k, ks[i].name, 4, T, ks[i].args, 0, &whole);
		sampled_block(&k, ks[i].name, 4, T, ks[i].args, 1, &fast);
		ck_assert_uint_eq(whole.loop_skipped, 0);
		if (!ks[i].least) {
			ck_assert_uint_eq(fast.loop_skipped, 0);
			ck_assert(fast.chain == whole.chain);
		} else {
			ck_assert_msg(fast.loop_skipped >= ks[i].least, "%s skipped %llu", ks[i].name,
				      (unsigned long long)fast.loop_skipped);
		}
		ck_assert_msg(near((double)gs_emu_counters_warp_inst(&fast.c), (double)gs_emu_counters_warp_inst(&whole.c), 0.001),
			      "%s: %llu instructions, whole %llu", ks[i].name,
			      (unsigned long long)gs_emu_counters_warp_inst(&fast.c),
			      (unsigned long long)gs_emu_counters_warp_inst(&whole.c));
		ck_assert_msg(near(fast.chain, whole.chain, 0.01), "%s: chain %g, whole %g",
			      ks[i].name, fast.chain, whole.chain);
		ck_assert_msg(near((double)(fast.l1_hit + fast.l1_miss),
				   (double)(whole.l1_hit + whole.l1_miss), 0.01),
			      "%s: sectors %llu, whole %llu", ks[i].name,
			      (unsigned long long)(fast.l1_hit + fast.l1_miss),
			      (unsigned long long)(whole.l1_hit + whole.l1_miss));
		ck_assert_msg(near((double)fast.nsectors, (double)whole.nsectors, 0.02),
			      "%s: footprint %zu, whole %zu", ks[i].name, fast.nsectors,
			      whole.nsectors);
		gs_emu_blockstat_release(&whole);
		gs_emu_blockstat_release(&fast);
	}
	/* a loop that would save fewer instructions than asked runs whole */
	struct gs_emu_blockstat st;
	sampled_block(&k, "nest", 4, T, a_nest, GS_EMU_LOOP_MIN, &st);
	ck_assert_uint_eq(st.loop_skipped, 0);
	gs_emu_blockstat_release(&st);
	kfree(&k);
}
END_TEST

/* tests/emu/misc.cu: doubles, float4, bytes, constants, device globals,
 * dynamic shared memory, integer division */
START_TEST(test_misc)
{
	struct kmod k;
	if (kload(&k, "tests/emu/misc.cu", NULL, NULL))
		return;
	struct gs_emu_counters c;
	enum { N = 300 };
	int n = N;

	double x[N];
	for (int i = 0; i < N; i++)
		x[i] = (double)((int)(rnd() % 20001) - 10000) / 997.0;
	uint64_t dx = kbuf(&k, sizeof x, x), dy = kbuf(&k, sizeof x, NULL);
	void *a1[] = { &dx, &dy, &n };
	krun(&k, "dmath", (N + 63) / 64, 64, 0, a1, &c);
	const double *y = kptr(&k, dy, sizeof x);
	for (int i = 0; i < N; i++) {
		double v = x[i], h = sqrt(v * v + 1.0) / (v + 3.0) + fma(v, 0.25, -1.0) +
				     (double)(i % 7) * 1e-3;
		ck_assert_msg(fabs(y[i] - h) <= 1e-12 * (1 + fabs(h)), "dmath %d: %.17g %.17g", i,
			      y[i], h);
	}
	ck_assert_uint_gt(c.warp_inst[GS_EMU_FP64], 0);

	float v4[4 * N];
	for (int i = 0; i < 4 * N; i++)
		v4[i] = (float)(rnd() % 1000) / 8.0f - 60.0f;
	uint64_t dv = kbuf(&k, sizeof v4, v4), dw = kbuf(&k, sizeof v4, NULL);
	void *a2[] = { &dv, &dw, &n };
	krun(&k, "vec4", (N + 63) / 64, 64, 0, a2, &c);
	const float *w4 = kptr(&k, dw, sizeof v4);
	for (int i = 0; i < N; i++) {
		const float *s = &v4[4 * i];
		ck_assert(w4[4 * i] == s[3] * 2.0f && w4[4 * i + 1] == s[2] + 1.0f &&
			  w4[4 * i + 2] == s[1] - s[0] && w4[4 * i + 3] == s[0] * s[1]);
	}
	/* a float4 per thread: 16 bytes x 32 lanes = 16 sectors per warp load */
	ck_assert_uint_eq(c.gld_inst, (uint64_t)(N + 31) / 32);

	enum { W = 96 };
	unsigned char ba[16 * W], bb[16 * W];
	for (int i = 0; i < 16 * W; i++)
		ba[i] = (unsigned char)rnd(), bb[i] = (unsigned char)rnd();
	uint64_t dba = kbuf(&k, sizeof ba, ba), dbb = kbuf(&k, sizeof bb, bb);
	uint64_t dsad = kbuf(&k, W * 4, NULL);
	int w = W;
	void *a3[] = { &dba, &dbb, &dsad, &w };
	krun(&k, "sad", W / 32, 32, 0, a3, &c);
	const int *sad = kptr(&k, dsad, W * 4);
	for (int i = 0; i < W; i++) {
		int s = 0;
		for (int q = 0; q < 16; q++)
			s += abs((int)ba[i * 16 + q] - (int)bb[(i * 16 + q + W) % (16 * W)]);
		ck_assert_int_eq(sad[i], s);
	}

	/* one warp: every read of gcount comes before the writes */
	int cin[32];
	for (int i = 0; i < 32; i++)
		cin[i] = (int)(rnd() % 100);
	static const int ctab[8] = { 3, 1, 4, 1, 5, 9, 2, 6 }, g0[4] = { 10, 20, 30, 40 };
	uint64_t dcin = kbuf(&k, sizeof cin, cin), dcout = kbuf(&k, 32 * 4, NULL);
	int n32 = 32;
	void *a4[] = { &dcin, &dcout, &n32 };
	krun(&k, "consts", 1, 32, 0, a4, &c);
	const float *cout = kptr(&k, dcout, 32 * 4);
	for (int i = 0; i < 32; i++)
		ck_assert(cout[i] == (float)(ctab[cin[i] & 7] + g0[i & 3]) * 0.5f);
	uint64_t gaddr, gsize;
	ck_assert_int_eq(gs_ptx_symbol(k.m, "gcount", &gaddr, &gsize), 0);
	ck_assert_uint_eq(gsize, 16);
	const int *g = kptr(&k, gaddr, 16);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(g[i], g0[i] + 1);
	ck_assert_uint_gt(c.cld_inst, 0);

	enum { B = 96, NB = 3 };
	int din_[B * NB];
	for (int i = 0; i < B * NB; i++)
		din_[i] = (int)rnd() % 1000;
	uint64_t dd = kbuf(&k, sizeof din_, din_), ddo = kbuf(&k, sizeof din_, NULL);
	void *a5[] = { &dd, &ddo };
	krun(&k, "dynsmem", NB, B, B * 4, a5, &c);
	const int *dout = kptr(&k, ddo, sizeof din_);
	for (int b = 0; b < NB; b++)
		for (int t = 0; t < B; t++)
			ck_assert_int_eq(dout[b * B + t],
					 din_[b * B + B - 1 - t] + din_[b * B + (t + 1) % B]);

	int ia[N], ib[N];
	for (int i = 0; i < N; i++) {
		ia[i] = (int)rnd() - (int)(rnd() & 0x3fffffff);
		ib[i] = (int)(rnd() % 2001) - 1000;
		if (!ib[i])
			ib[i] = 7;
	}
	ib[0] = -1;
	ia[0] = 1 - 0x7fffffff; /* no overflow: INT_MIN / -1 is undefined in C */
	uint64_t dia = kbuf(&k, sizeof ia, ia), dib = kbuf(&k, sizeof ib, ib);
	uint64_t dq = kbuf(&k, sizeof ia, NULL), dr = kbuf(&k, sizeof ia, NULL);
	uint64_t duq = kbuf(&k, sizeof ia, NULL), dur = kbuf(&k, sizeof ia, NULL);
	uint64_t dlq = kbuf(&k, N * 8, NULL);
	void *a6[] = { &dia, &dib, &dq, &dr, &duq, &dur, &dlq, &n };
	krun(&k, "intdiv", (N + 127) / 128, 128, 0, a6, &c);
	const int *q = kptr(&k, dq, sizeof ia), *r = kptr(&k, dr, sizeof ia);
	const unsigned *uq = kptr(&k, duq, sizeof ia), *ur = kptr(&k, dur, sizeof ia);
	const long long *lq = kptr(&k, dlq, N * 8);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(q[i], ia[i] / ib[i]);
		ck_assert_int_eq(r[i], ia[i] % ib[i]);
		ck_assert_uint_eq(uq[i], (unsigned)ia[i] / (unsigned)ib[i]);
		ck_assert_uint_eq(ur[i], (unsigned)ia[i] % (unsigned)ib[i]);
		ck_assert(lq[i] == ((long long)ia[i] * 100003LL) / (long long)ib[i]);
	}
	kfree(&k);
}
END_TEST

/* -use_fast_math: approximate sin, exp, division, rsqrt within their bounds */
START_TEST(test_fastmath)
{
	struct kmod k;
	const char *opts[] = { "-use_fast_math", NULL };
	if (kload(&k, "tests/emu/misc.cu", opts, NULL))
		return;
	enum { N = 256 };
	float x[N];
	for (int i = 0; i < N; i++)
		x[i] = (float)i / 64.0f - 2.0f + 1.0f / 128.0f; /* in [-2, 2) */
	uint64_t dx = kbuf(&k, sizeof x, x), ds = kbuf(&k, sizeof x, NULL);
	uint64_t de = kbuf(&k, sizeof x, NULL), dd = kbuf(&k, sizeof x, NULL);
	uint64_t dr = kbuf(&k, sizeof x, NULL);
	int n = N;
	void *args[] = { &dx, &ds, &de, &dd, &dr, &n };
	struct gs_emu_counters c;
	krun(&k, "fastmath", N / 128, 128, 0, args, &c);
	const float *s = kptr(&k, ds, sizeof x), *e = kptr(&k, de, sizeof x);
	const float *d = kptr(&k, dd, sizeof x), *r = kptr(&k, dr, sizeof x);
	for (int i = 0; i < N; i++) {
		double v = x[i];
		/* __sinf: 2^-21.41 absolute in [-pi, pi]; __expf: 2 + 1.5 |1.16 x|
		 * ulp; __fdividef: 2 ulp; rsqrtf (rsqrt.approx): 2^-22.9 relative */
		ck_assert_msg(fabs(s[i] - sin(v)) <= ldexp(1, -21), "sin %g: %.9g", v,
			      (double)s[i]);
		ck_assert_msg(fabs(e[i] - exp(v)) <= (2 + 1.5 * 1.16 * 2 + 1) * ldexp(exp(v), -23),
			      "exp %g: %.9g", v, (double)e[i]);
		ck_assert(fabs(d[i] - v / (v + 4)) <= 2 * ldexp(fabs(v / (v + 4)), -23) + 1e-30);
		ck_assert(fabs(r[i] - 1 / sqrt(v + 4)) <= ldexp(1 / sqrt(v + 4), -22));
	}
	ck_assert_uint_gt(c.warp_inst[GS_EMU_SFU], 0);
	kfree(&k);
}
END_TEST

/* a templated kernel, found by its name expression */
START_TEST(test_template)
{
	struct kmod k;
	if (kload(&k, "tests/emu/misc.cu", NULL, "scale<int, 3>"))
		return;
	enum { N = 100 };
	int in[N];
	for (int i = 0; i < N; i++)
		in[i] = (int)rnd() % 100000 - 50000;
	uint64_t din = kbuf(&k, sizeof in, in), dout = kbuf(&k, sizeof in, NULL);
	int n = N;
	void *args[] = { &din, &dout, &n };
	struct gs_emu_counters c;
	krun(&k, k.lowered, 1, 128, 0, args, &c);
	const int *out = kptr(&k, dout, sizeof in);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(out[i], in[i] * 3 + 1);
	kfree(&k);
}
END_TEST

/* tests/emu/faults.cu: the message names the instruction, line, address,
 * block and thread; the lowest faulting block is the one reported */
START_TEST(test_faults)
{
	struct kmod k;
	if (kload(&k, "tests/emu/faults.cu", NULL, NULL))
		return;
	struct gs_emu_counters c;
	char err[512];
	uint64_t out = kbuf(&k, 256 * 4, NULL);
	int n = 200; /* threads 56.. of 256 write past the end */
	void *a1[] = { &out, &n };
	for (int threads = 1; threads <= 2; threads++) {
		ck_assert_int_eq(krun_full(&k, "oob_store", 4, 1, 64, 1, 0, a1, threads, &c, err),
				 GS_EMU_FAULT);
		char want[160];
		snprintf(want, sizeof want, ": address 0x%llx (block (0,0,0) thread (56,0,0))",
			 (unsigned long long)(out + 256 * 4));
		ck_assert_msg(strstr(err, want) && strstr(err, " at line ") &&
				      strstr(err, "emulator: out-of-bounds st.global"),
			      "%s", err);
	}
	uint64_t buf = kbuf(&k, 256, NULL);
	void *a2[] = { &buf, &out };
	ck_assert_int_eq(krun_full(&k, "misaligned", 1, 1, 32, 1, 0, a2, 1, &c, err), GS_EMU_FAULT);
	ck_assert_msg(strstr(err, "emulator: misaligned ld.global") &&
			      strstr(err, "(block (0,0,0) thread (0,0,0))"),
		      "%s", err);
	int in[64];
	for (int i = 0; i < 64; i++)
		in[i] = i == 45 ? -1 : 1;
	uint64_t din = kbuf(&k, sizeof in, in);
	void *a3[] = { &din };
	ck_assert_int_eq(krun_full(&k, "trap_if", 1, 1, 64, 1, 0, a3, 1, &c, err), GS_EMU_FAULT);
	ck_assert_msg(strstr(err, "emulator: trap at line") && strstr(err, "thread (45,0,0)"),
		      "%s", err);
	in[45] = 1;
	memcpy(kptr(&k, din, sizeof in), in, sizeof in);
	ck_assert_int_eq(krun_full(&k, "trap_if", 1, 1, 64, 1, 0, a3, 1, &c, err), GS_EMU_OK);
	kfree(&k);
}
END_TEST

/* ---- tests/emu/intrinsics.cu: single instructions against the host ---------- */

static uint32_t brev32(uint32_t v)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++)
		r |= (v >> i & 1) << (31 - i);
	return r;
}

static uint32_t h_bfe(uint32_t x, unsigned p, unsigned len, int sgn)
{
	unsigned n = len < 32 - p ? len : 32 - p;
	if (!len)
		return 0;
	uint32_t v = (uint32_t)(((uint64_t)x >> p) & ((1ull << n) - 1));
	if (sgn && (v >> (n - 1) & 1))
		v |= (uint32_t)(~0ull << n);
	return v;
}

START_TEST(test_intrinsics_int)
{
	struct kmod k;
	if (kload(&k, "tests/emu/intrinsics.cu", NULL, NULL))
		return;
	enum { N = 256, NI = 26 };
	uint32_t a[N], b[N];
	for (int i = 0; i < N; i++) {
		a[i] = rnd() ^ rnd() << 16;
		b[i] = rnd() ^ rnd() << 16;
	}
	a[3] = 0; /* clz, ffs of 0 */
	uint64_t da = kbuf(&k, sizeof a, a), db = kbuf(&k, sizeof b, b);
	uint64_t dout = kbuf(&k, N * NI * 4, NULL);
	void *args[] = { &da, &db, &dout };
	struct gs_emu_counters c;
	krun(&k, "ints", N / 64, 64, 0, args, &c);
	const uint32_t *o = kptr(&k, dout, N * NI * 4);
	for (int i = 0; i < N; i++, o += NI) {
		uint32_t x = a[i], y = b[i], e[NI];
		uint64_t v = x | (uint64_t)y << 32;
		e[0] = 0;
		for (int n = 0; n < 4; n++) {
			unsigned sel = (y & 0x7777) >> (4 * n) & 7;
			e[0] |= (uint32_t)(v >> (8 * sel) & 0xff) << (8 * n);
		}
		unsigned sh = y & 31, shc = (y & 63) < 32 ? y & 63 : 32;
		e[1] = sh ? (y << sh) | (x >> (32 - sh)) : y;
		e[2] = (uint32_t)(v >> shc);
		e[3] = brev32(x);
		e[4] = x ? (uint32_t)__builtin_clz(x) : 32;
		e[5] = (uint32_t)__builtin_popcount(x);
		e[6] = (uint32_t)__builtin_ffs((int)x);
		int64_t sx = (int32_t)(x << 8) >> 8, sy = (int32_t)(y << 8) >> 8;
		e[7] = (uint32_t)(sx * sy);
		e[8] = (uint32_t)((uint64_t)(x & 0xffffff) * (y & 0xffffff));
		e[9] = (uint32_t)((uint64_t)((int64_t)(int32_t)x * (int32_t)y) >> 32);
		e[10] = (uint32_t)((uint64_t)x * y >> 32);
		e[11] = (uint32_t)((unsigned __int128)(((uint64_t)x << 32) | y) *
				   (((uint64_t)y << 32) | x) >> 64);
		int64_t dd = (int64_t)(int32_t)x - (int32_t)y;
		e[12] = (uint32_t)(dd < 0 ? -dd : dd) + 7;
		e[13] = (x > y ? x - y : y - x) + 7;
		e[14] = h_bfe(x, y & 31, (y >> 5) & 31, 0);
		e[15] = h_bfe(x, y & 31, (y >> 5) & 31, 1);
		unsigned pos = (y >> 10) & 31, len = (y >> 15) & 31;
		unsigned nb = len < 32 - pos ? len : 32 - pos;
		uint32_t mask = (uint32_t)(((1ull << nb) - 1) << pos);
		e[16] = (y & ~mask) | ((x << pos) & mask);
		e[17] = x / (y | 1);
		e[18] = (uint32_t)((int32_t)x % (int32_t)(y | 1));
		e[19] = (uint32_t)((int32_t)x < (int32_t)y ? x : y);
		e[20] = x > y ? x : y;
		int w = i & ~31, l = i & 31;
		e[21] = a[w + (b[i] & 31)];
		e[22] = a[w + (l ^ 5)];
		e[23] = ((l + 3) & 16) == (l & 16) && l + 3 < 32 ? a[i + 3] : a[i];
		e[24] = e[25] = 5;
		for (int n = 0; n < 4; n++) {
			e[24] += (uint32_t)((int8_t)(x >> (8 * n)) * (int8_t)(y >> (8 * n)));
			e[25] += (x >> (8 * n) & 0xff) * (y >> (8 * n) & 0xff);
		}
		for (int j = 0; j < NI; j++)
			ck_assert_msg(o[j] == e[j], "thread %d, result %d: 0x%08x, host 0x%08x", i,
				      j, o[j], e[j]);
	}
	kfree(&k);
}
END_TEST

/* the host's arithmetic in a rounding mode; volatile keeps each operation
 * between the mode switches */
enum { H_ADD, H_MUL, H_DIV, H_RCP, H_SQRT, H_FMA };
static float h_f(int op, float x, float y, int mode)
{
	volatile float a = x, b = y, r;
	fesetround(mode);
	switch (op) {
	case H_ADD: r = a + b; break;
	case H_MUL: r = a * b; break;
	case H_DIV: r = a / b; break;
	case H_RCP: r = 1.0f / a; break;
	case H_SQRT: r = sqrtf(a); break;
	default: r = fmaf(a, b, 1.0f); break;
	}
	fesetround(FE_TONEAREST);
	return r;
}

static double h_d(int op, double x, double y, int mode)
{
	volatile double a = x, b = y, r;
	fesetround(mode);
	switch (op) {
	case H_ADD: r = a + b; break;
	case H_MUL: r = a * b; break;
	case H_DIV: r = a / b; break;
	default: r = sqrt(a); break;
	}
	fesetround(FE_TONEAREST);
	return r;
}

static float h_i2f(long long v, int uns, int mode)
{
	volatile long long a = v;
	volatile unsigned ua = (unsigned)v;
	volatile float r;
	fesetround(mode);
	r = uns ? (float)ua : (float)a;
	fesetround(FE_TONEAREST);
	return r;
}

static float h_d2f(double v, int mode)
{
	volatile double a = v;
	volatile float r;
	fesetround(mode);
	r = (float)a;
	fesetround(FE_TONEAREST);
	return r;
}

static long long h_f2i(float v, int mode, long long lo, long long hi)
{
	if (v != v)
		return 0;
	double r = mode == FE_TONEAREST ? nearbyint(v) : mode == FE_TOWARDZERO ? trunc(v)
		   : mode == FE_DOWNWARD ? floor(v) : ceil(v);
	return r < (double)lo ? lo : r > (double)hi ? hi : (long long)r;
}

static uint16_t h_f2h(float v, int rz)
{
	_Float16 h = (_Float16)v; /* to nearest */
	uint16_t u;
	memcpy(&u, &h, 2);
	if (rz && fabsf((float)h) > fabsf(v) && (u & 0x7fff))
		u--; /* one step toward zero */
	return u;
}

static float h_h2f(uint16_t u)
{
	_Float16 h;
	memcpy(&h, &u, 2);
	return (float)h;
}

START_TEST(test_intrinsics_float)
{
	struct kmod k;
	if (kload(&k, "tests/emu/intrinsics.cu", NULL, NULL))
		return;
	enum { N = 128, NF = 24, NK = 12 };
	float a[N], b[N];
	for (int i = 0; i < N; i++) {
		a[i] = (float)((int)(rnd() % 2000001) - 1000000) / 123457.0f;
		b[i] = (float)((int)(rnd() % 2000001) - 1000000) / 98765.0f;
		if (b[i] == 0)
			b[i] = 0.5f;
	}
	a[5] = 1e-3f;
	uint64_t da = kbuf(&k, sizeof a, a), db = kbuf(&k, sizeof b, b);
	uint64_t df = kbuf(&k, N * NF * 4, NULL), dk = kbuf(&k, N * NK * 4, NULL);
	uint64_t dh = kbuf(&k, N * 3 * 2, NULL), dd = kbuf(&k, N * 4 * 8, NULL);
	void *args[] = { &da, &db, &df, &dk, &dh, &dd };
	struct gs_emu_counters c;
	krun(&k, "floats", N / 64, 64, 0, args, &c);
	const float *f = kptr(&k, df, N * NF * 4);
	const int *q = kptr(&k, dk, N * NK * 4);
	const uint16_t *h = kptr(&k, dh, N * 3 * 2);
	const double *d = kptr(&k, dd, N * 4 * 8);
	const int RZ = FE_TOWARDZERO, RD = FE_DOWNWARD, RU = FE_UPWARD, RN = FE_TONEAREST;
	for (int i = 0; i < N; i++, f += NF, q += NK, h += 3, d += 4) {
		float x = a[i], y = b[i], e[NF];
		int xi, yi;
		memcpy(&xi, &x, 4);
		memcpy(&yi, &y, 4);
		e[0] = h_f(H_ADD, x, y, RZ);
		e[1] = h_f(H_ADD, x, y, RD);
		e[2] = h_f(H_ADD, x, y, RU);
		e[3] = h_f(H_MUL, x, y, RZ);
		e[4] = h_f(H_MUL, x, y, RU);
		e[5] = h_f(H_DIV, x, y, RN);
		e[6] = h_f(H_DIV, x, y, RZ);
		e[7] = h_f(H_RCP, x, 0, RD);
		e[8] = h_f(H_SQRT, fabsf(x), 0, RU);
		e[9] = h_f(H_FMA, x, y, RZ);
		e[10] = x > 0 ? (x > 1 ? 1 : x) : 0;
		e[11] = x < y ? x : y;
		e[12] = x > y ? x : y;
		e[13] = copysignf(x, y);
		e[14] = h_i2f(xi, 0, RZ);
		e[15] = h_i2f((unsigned)yi, 1, RD);
		e[16] = h_d2f((double)x * (double)y * 1.1, RU);
		e[17] = h_i2f((long long)((unsigned long long)(long long)xi << 20) + i, 0, RN);
		e[18] = truncf(x * 100.0f);
		e[19] = floorf(x * 100.0f);
		e[20] = ceilf(x * 100.0f);
		e[21] = rintf(x * 100.0f);
		e[22] = sqrtf(fabsf(y));
		e[23] = x / y;
		for (int j = 0; j < NF; j++)
			ck_assert_msg(memcmp(&f[j], &e[j], 4) == 0,
				      "thread %d, float %d: %a, host %a", i, j, (double)f[j],
				      (double)e[j]);
		float x3 = x * 1e3f;
		int ek[NK];
		ek[0] = (int)h_f2i(x3, RN, INT32_MIN, INT32_MAX);
		ek[1] = (int)h_f2i(x3, RZ, INT32_MIN, INT32_MAX);
		ek[2] = (int)h_f2i(x3, RD, INT32_MIN, INT32_MAX);
		ek[3] = (int)h_f2i(x3, RU, INT32_MIN, INT32_MAX);
		ek[4] = (int)(unsigned)h_f2i(x3, RN, 0, UINT32_MAX);
		ek[5] = (int)h_f2i(x * 1e10f, RN, INT32_MIN, INT32_MAX);
		ek[6] = (int)(unsigned)h_f2i(x * 1e10f, RZ, 0, UINT32_MAX);
		ek[7] = (int)(h_f2i(x * 1e12f, RZ, INT64_MIN, INT64_MAX) >> 8);
		ek[8] = 0;
		ek[9] = (int)(short)h_f2i(y, RN, INT32_MIN, INT32_MAX);
		ek[10] = (int)(unsigned char)(xi >> 3);
		ek[11] = (int)(signed char)(yi >> 5);
		for (int j = 0; j < NK; j++)
			ck_assert_msg(q[j] == ek[j], "thread %d, int %d: %d, host %d", i, j, q[j],
				      ek[j]);
		uint16_t h1 = h_f2h(y * 1000.0f, 1);
		ck_assert_uint_eq(h[0], h_f2h(x, 0));
		ck_assert_uint_eq(h[1], h1);
		ck_assert_uint_eq(h[2], (uint16_t)(int)(h_h2f(h1) * 0.25f));
		double ed[4] = { h_d(H_ADD, x, (double)y * 1e-9, RZ), h_d(H_MUL, x, 1.0 / 3.0, RU),
				 h_d(H_DIV, x, y, RD), h_d(H_SQRT, fabs((double)x), 0, RZ) };
		for (int j = 0; j < 4; j++)
			ck_assert_msg(memcmp(&d[j], &ed[j], 8) == 0,
				      "thread %d, double %d: %a, host %a", i, j, d[j], ed[j]);
	}
	kfree(&k);
}
END_TEST

START_TEST(test_warp_misc)
{
	struct kmod k;
	if (kload(&k, "tests/emu/intrinsics.cu", NULL, NULL))
		return;
	enum { NB = 4, B = 96, W = NB * B / 32 };
	int in[NB * B];
	for (int i = 0; i < NB * B; i++)
		in[i] = (int)(rnd() % 200) - 100;
	in[7] = -95; /* block 0: __syncthreads_and false */
	uint64_t din = kbuf(&k, sizeof in, in), dblk = kbuf(&k, NB * 3 * 4, NULL);
	uint64_t dwrp = kbuf(&k, W * 5 * 4, NULL);
	void *args[] = { &din, &dblk, &dwrp };
	struct gs_emu_counters c;
	krun(&k, "warpmisc", NB, B, 0, args, &c);
	const int *blk = kptr(&k, dblk, NB * 3 * 4), *wrp = kptr(&k, dwrp, W * 5 * 4);
	for (int b = 0; b < NB; b++) {
		int cnt = 0, all = 1, any = 0;
		for (int t = 0; t < B; t++) {
			int v = in[b * B + t];
			cnt += v > 0;
			all &= v > -90;
			any |= v > 95;
		}
		ck_assert_int_eq(blk[3 * b], cnt);
		ck_assert_int_eq(!!blk[3 * b + 1], all);
		ck_assert_int_eq(!!blk[3 * b + 2], any);
	}
	for (int w = 0; w < W; w++) {
		int s = 0, mn = in[32 * w];
		unsigned mx = (unsigned)in[32 * w], x = 0, am = 0;
		for (int l = 0; l < 32; l++) {
			int v = in[32 * w + l];
			s += v;
			mn = v < mn ? v : mn;
			mx = (unsigned)v > mx ? (unsigned)v : mx;
			x ^= (unsigned)v;
			am |= (unsigned)(v & 1) << l;
		}
		ck_assert_int_eq(wrp[5 * w], s);
		ck_assert_int_eq(wrp[5 * w + 1], mn);
		ck_assert_uint_eq((unsigned)wrp[5 * w + 2], mx);
		ck_assert_uint_eq((unsigned)wrp[5 * w + 3], x);
		ck_assert_uint_eq((unsigned)wrp[5 * w + 4], am);
	}
	ck_assert_uint_eq(c.barriers, (uint64_t)NB * (B / 32) * 3);
	kfree(&k);
}
END_TEST

static void *cancel_later(void *arg)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	*(volatile int *)arg = 1;
	return NULL;
}

/* a warp that never ends: the run stops when asked */
START_TEST(test_cancel)
{
	struct tb t;
	struct gs_emu_mem mem = { 0 };
	struct gs_emu_counters c;
	char err[256];
	tb_init(&t, 0);
	tb_ins(&t, GS_OP_BRA, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE)->tgt = 0;
	volatile int cancel = 0;
	pthread_t th;
	ck_assert_int_eq(pthread_create(&th, NULL, cancel_later, (void *)&cancel), 0);
	struct gs_emu_launch l = {
		.mod = &t.m,
		.grid = { 4, 1, 1 },
		.block = { 64, 1, 1 },
		.prof = gs_emu_profile_find("sm_90"),
		.mem = &mem,
		.threads = 2,
		.cancel = &cancel,
	};
	ck_assert_int_eq(gs_emu_run(&l, &c, err, sizeof err), GS_EMU_CANCELED);
	pthread_join(th, NULL);
	ck_assert_str_eq(err, "emulator: canceled");
	ck_assert_uint_eq(c.blocks, 0);
	ck_assert_uint_gt(c.warp_inst[GS_EMU_CTRL], 0);
}
END_TEST

/* threads = 1 and threads = 2 (and 3) leave the same memory and counters:
 * the tiled matmul (blocks in parallel) and the atomics (run in order) */
START_TEST(test_determinism)
{
	for (int which = 0; which < 2; which++) {
		struct kmod k;
		if (kload(&k, which ? "tests/emu/atomics.cu" : "kernels/matmul.cu", NULL, NULL))
			return;
		enum { N = 64 };
		float a[N * N], b[N * N];
		for (int i = 0; i < N * N; i++) {
			a[i] = (float)(rnd() % 2001) / 1000.0f - 1.0f;
			b[i] = (float)(rnd() % 2001) / 1000.0f - 1.0f;
		}
		int ia[N * N];
		for (int i = 0; i < N * N; i++)
			ia[i] = (int)(rnd() % 1000);
		uint64_t bufs[7];
		size_t sizes[7];
		struct gs_emu_counters c[3];
		unsigned char *snap[3][7];
		for (int t = 0; t < 3; t++) {
			char err[512];
			int rc;
			if (which) {
				int n = N * N;
				size_t s[7] = { sizeof ia, sizeof a, 4, 4, 4, 8, 64 };
				bufs[0] = kbuf(&k, s[0], ia);
				/* floats with long fractions: their order shows in the sum */
				bufs[1] = kbuf(&k, s[1], a);
				for (int i = 2; i < 7; i++)
					bufs[i] = kbuf(&k, s[i], NULL);
				memcpy(sizes, s, sizeof s);
				void *args[] = { &bufs[0], &bufs[1], &bufs[2], &bufs[3], &bufs[4],
						 &bufs[5], &bufs[6], &n };
				rc = krun_full(&k, "atomics", N * N / 128, 1, 128, 1, 0, args,
					       t + 1, &c[t], err);
			} else {
				int n = N;
				size_t s[7] = { sizeof a, sizeof b, sizeof a, 0, 0, 0, 0 };
				bufs[0] = kbuf(&k, s[0], a);
				bufs[1] = kbuf(&k, s[1], b);
				bufs[2] = kbuf(&k, s[2], NULL);
				memcpy(sizes, s, sizeof s);
				void *args[] = { &bufs[0], &bufs[1], &bufs[2], &n };
				rc = krun_full(&k, "matmul", N / 16, N / 16, 16, 16, 0, args, t + 1,
					       &c[t], err);
			}
			ck_assert_msg(rc == GS_EMU_OK, "%s", err);
			for (int i = 0; i < 7; i++) {
				snap[t][i] = malloc(sizes[i] + 1);
				if (sizes[i])
					memcpy(snap[t][i], kptr(&k, bufs[i], sizes[i]), sizes[i]);
			}
		}
		for (int t = 1; t < 3; t++) {
			ck_assert(memcmp(&c[0], &c[t], sizeof c[0]) == 0);
			for (int i = 0; i < 7; i++)
				ck_assert_msg(memcmp(snap[0][i], snap[t][i], sizes[i]) == 0,
					      "kernel %d, buffer %d differs with %d threads", which,
					      i, t + 1);
		}
		for (int t = 0; t < 3; t++)
			for (int i = 0; i < 7; i++)
				free(snap[t][i]);
		kfree(&k);
	}
}
END_TEST

/* a launch the executor refuses */
START_TEST(test_bad_launch)
{
	struct tb t;
	struct gs_emu_mem mem = { 0 };
	struct gs_emu_counters c;
	char err[256];
	tb_init(&t, 0);
	tb_ins(&t, GS_OP_EXIT, GS_EMU_CTRL, GS_NONE, GS_NONE, GS_NONE);
	ck_assert_int_eq(tb_run(&t, &mem, "sm_90", 2048, NULL, &c, err), GS_EMU_BADLAUNCH);
	ck_assert_int_eq(tb_run(&t, &mem, "sm_90", 0, NULL, &c, err), GS_EMU_BADLAUNCH);
	ck_assert_int_eq(tb_run(&t, &mem, "sm_90", 64, NULL, &c, err), GS_EMU_OK);
	ck_assert_uint_eq(c.warps, 2);
	tb_param(&t, 4);
	ck_assert_int_eq(tb_run(&t, &mem, "sm_90", 64, NULL, &c, err), GS_EMU_BADLAUNCH);
	ck_assert_ptr_nonnull(strstr(err, "emulator: bad launch"));
}
END_TEST

GS_TEST_MAIN(test_deadline, test_host_bytes, test_probe_load_window,
	     test_probe_hit_under_fill, test_probe_spread, test_probe_idiv, test_probe_loop_span, test_loop_sampling, test_probe_reuse, test_probe_shared_table, test_probe_phases, test_probe_l1_lines, test_probe_unrolled, test_probe_bits, test_probe_hot_table, test_probe_lds_runs, test_probe_ifconv, test_probe_partial_lines, test_sample_size, test_sample_need, test_coalesce_sectors, test_coalesce_cc10, test_bank_conflicts, test_bank_conflicts_wide, test_shared_values, test_divergence,
	     test_probe_chain, test_probe_l1, test_sampler,
	     test_fault_bounds, test_bad_launch, test_matmul, test_reduce_warp_ops, test_atomics,
	     test_control, test_misc, test_fastmath, test_template, test_faults, test_determinism,
	     test_intrinsics_int, test_intrinsics_float, test_warp_misc, test_cancel)
