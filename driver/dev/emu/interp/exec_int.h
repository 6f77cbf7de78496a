/* exec_int.h — what the executor's files share: exec.c (blocks, warps, the
 * dispatch loop, integer and control instructions), exec_mem.c (loads,
 * stores, atomics, coalescing, banks) and exec_fp.c (floating point,
 * comparisons, conversions).
 *
 * A warp's registers are read and written 32 lanes at a time through GCC
 * vector types of 32 elements (the SoA layout of ptx_int.h), which the
 * compiler lowers to the host's SIMD instructions.  Lanes a guard or
 * divergence leaves inactive keep their old values: a result is computed
 * for all 32 lanes (every such operation is free of traps) and blended in
 * under the lane mask. */
#ifndef GS_EMU_EXEC_INT_H
#define GS_EMU_EXEC_INT_H

#include <stdint.h>
#include <string.h>

#include "dev/emu/interp/ptx_int.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* 32 lanes of one register.  Alignment 4 or 8 (the register file only
 * promises its element size); may_alias: they overlay raw bytes. */
typedef uint32_t gs_vu32 __attribute__((vector_size(128), aligned(4), may_alias));
typedef int32_t gs_vs32 __attribute__((vector_size(128), aligned(4), may_alias));
typedef float gs_vf32 __attribute__((vector_size(128), aligned(4), may_alias));
typedef uint64_t gs_vu64 __attribute__((vector_size(256), aligned(8), may_alias));
typedef int64_t gs_vs64 __attribute__((vector_size(256), aligned(8), may_alias));
typedef double gs_vf64 __attribute__((vector_size(256), aligned(8), may_alias));

#define GS_VU32(rf, o) (*(gs_vu32 *)((rf) + (o)))
#define GS_VS32(rf, o) (*(gs_vs32 *)((rf) + (o)))
#define GS_VF32(rf, o) (*(gs_vf32 *)((rf) + (o)))
#define GS_VU64(rf, o) (*(gs_vu64 *)((rf) + (o)))
#define GS_VS64(rf, o) (*(gs_vs64 *)((rf) + (o)))
#define GS_VF64(rf, o) (*(gs_vf64 *)((rf) + (o)))
/* one lane */
#define GS_LU32(rf, o, l) (((uint32_t *)((rf) + (o)))[l])
#define GS_LU64(rf, o, l) (((uint64_t *)((rf) + (o)))[l])

#define GS_ALL 0xffffffffu

/* The dispatch loop and the hottest instructions are compiled twice on
 * x86-64, for the baseline and for x86-64-v3 (AVX2, FMA: a warp's 32 lanes
 * in four instructions), and the loader of the program picks one for the
 * host; both compute the same bits. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__SANITIZE_ADDRESS__)
#define GS_X_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define GS_X_CLONES
#endif

/* Lane masks (-1 where true, 0 where false) without vector comparisons:
 * GCC expands a comparison of vectors wider than the host's registers
 * lane by lane, but and/or/xor/add/sub/shift by a constant piecewise.
 * Comparisons that need the host's compare instructions (floats) go
 * through the 8-lane chunks below. */
static inline gs_vu32 gs_x_nz32(gs_vu32 x) /* x != 0 */
{
	return -((x | -x) >> 31);
}

static inline gs_vu64 gs_x_nz64(gs_vu64 x)
{
	return -((x | -x) >> 63);
}

static inline gs_vu32 gs_x_ltu32(gs_vu32 a, gs_vu32 b) /* a < b, unsigned: the borrow */
{
	gs_vu32 d = a - b;
	return -(((~a & b) | (~(a ^ b) & d)) >> 31);
}

static inline gs_vu32 gs_x_lts32(gs_vu32 a, gs_vu32 b) /* signed: sign of a - b, overflow */
{
	gs_vu32 d = a - b;
	return -((d ^ ((a ^ b) & (a ^ d))) >> 31);
}

static inline gs_vu64 gs_x_ltu64(gs_vu64 a, gs_vu64 b)
{
	gs_vu64 d = a - b;
	return -(((~a & b) | (~(a ^ b) & d)) >> 63);
}

static inline gs_vu64 gs_x_lts64(gs_vu64 a, gs_vu64 b)
{
	gs_vu64 d = a - b;
	return -((d ^ ((a ^ b) & (a ^ d))) >> 63);
}

/* -1 in the lanes of m, 0 elsewhere */
static inline gs_vu32 gs_x_mask32(uint32_t m)
{
	const gs_vu32 bit = { 1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6,
			      1u << 7, 1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13,
			      1u << 14, 1u << 15, 1u << 16, 1u << 17, 1u << 18, 1u << 19,
			      1u << 20, 1u << 21, 1u << 22, 1u << 23, 1u << 24, 1u << 25,
			      1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31 };
	return gs_x_nz32(bit & m);
}

static inline gs_vu64 gs_x_mask64(uint32_t m)
{
	const gs_vu64 bit = { 1ull << 0, 1ull << 1, 1ull << 2, 1ull << 3, 1ull << 4, 1ull << 5,
			      1ull << 6, 1ull << 7, 1ull << 8, 1ull << 9, 1ull << 10, 1ull << 11,
			      1ull << 12, 1ull << 13, 1ull << 14, 1ull << 15, 1ull << 16,
			      1ull << 17, 1ull << 18, 1ull << 19, 1ull << 20, 1ull << 21,
			      1ull << 22, 1ull << 23, 1ull << 24, 1ull << 25, 1ull << 26,
			      1ull << 27, 1ull << 28, 1ull << 29, 1ull << 30, 1ull << 31 };
	return gs_x_nz64(bit & m);
}

/* Write r into the lanes m of a 32-bit register. */
static inline void gs_x_put32(unsigned char *rf, uint32_t o, gs_vu32 r, uint32_t m)
{
	if (m == GS_ALL) {
		GS_VU32(rf, o) = r;
	} else {
		gs_vu32 mv = gs_x_mask32(m);
		GS_VU32(rf, o) = (r & mv) | (GS_VU32(rf, o) & ~mv);
	}
}

static inline void gs_x_put64(unsigned char *rf, uint32_t o, gs_vu64 r, uint32_t m)
{
	if (m == GS_ALL) {
		GS_VU64(rf, o) = r;
	} else {
		gs_vu64 mv = gs_x_mask64(m);
		GS_VU64(rf, o) = (r & mv) | (GS_VU64(rf, o) & ~mv);
	}
}

/* 8 lanes of 32 bits and 4 of 64: the width of an AVX2 register, which
 * the baseline build splits in two SSE registers */
typedef uint32_t gs_v8u __attribute__((vector_size(32), aligned(4), may_alias));
typedef int32_t gs_v8s __attribute__((vector_size(32), aligned(4), may_alias));
typedef float gs_v8f __attribute__((vector_size(32), aligned(4), may_alias));
typedef int64_t gs_v4s __attribute__((vector_size(32), aligned(8), may_alias));
typedef double gs_v4d __attribute__((vector_size(32), aligned(8), may_alias));

/* one bit per lane of a chunk of -1/0 (movmskps/movmskpd: the sign bits) */
static inline uint32_t gs_x_bits8(gs_v8s c)
{
#ifdef __SSE2__
	__m128 lo = (__m128)__builtin_shufflevector(c, c, 0, 1, 2, 3);
	__m128 hi = (__m128)__builtin_shufflevector(c, c, 4, 5, 6, 7);
	return (uint32_t)_mm_movemask_ps(lo) | (uint32_t)_mm_movemask_ps(hi) << 4;
#else
	uint32_t b = 0;
	for (int l = 0; l < 8; l++)
		b |= (uint32_t)(c[l] & 1) << l;
	return b;
#endif
}

static inline uint32_t gs_x_bits4(gs_v4s c)
{
#ifdef __SSE2__
	__m128d lo = (__m128d)__builtin_shufflevector(c, c, 0, 1);
	__m128d hi = (__m128d)__builtin_shufflevector(c, c, 2, 3);
	return (uint32_t)_mm_movemask_pd(lo) | (uint32_t)_mm_movemask_pd(hi) << 2;
#else
	uint32_t b = 0;
	for (int l = 0; l < 4; l++)
		b |= (uint32_t)(c[l] & 1) << l;
	return b;
#endif
}

/* one bit per lane of a 32-lane mask */
static inline uint32_t gs_x_bits32(gs_vu32 c)
{
	uint32_t b = 0;
	for (int k = 0; k < 4; k++)
		b |= gs_x_bits8(((const gs_v8s *)&c)[k]) << (8 * k);
	return b;
}

/* The SIMT stack of a warp: the top entry runs; a divergent branch turns it
 * into the reconvergence entry (pc = where the paths meet) and pushes one
 * entry per path; an entry whose pc reaches its rpc, or whose threads have
 * all returned or exited, is popped.  `call` marks the first entry of a
 * called function's frame. */
struct gs_xent {
	int32_t pc, rpc;
	uint32_t mask;
	uint32_t call;
};

enum { GS_XW_RUN, GS_XW_BAR, GS_XW_DONE };

struct gs_xwarp {
	unsigned char *rf;
	uint32_t *pred;
	struct gs_xent *stk;
	int sp, cap;              /* top entry; -1 when the warp has finished */
	uint32_t live;            /* threads that exist and have not exited */
	uint32_t carry;           /* CC.CF of each lane */
	int state;
	int32_t barpc;            /* the BAR instruction waited at */
	uint32_t barmask;         /* the lanes that arrived there */
	uint64_t issued;          /* instructions issued: %clock */
	unsigned id;              /* warp index in the block */
	unsigned char *local;     /* 32 x local bytes */
	unsigned char *lparam;    /* 32 x per-thread parameter bytes */
};

/* One host thread's state: the launch, its current block, its counters. */
struct gs_xctx {
	const struct gs_emu_launch *l;
	const struct gs_ptx_module *m;
	const struct gs_ptx_func *f;
	const struct gs_ins *code;
	struct gs_emu_counters c;
	unsigned char *kparam;    /* the kernel parameter buffer (shared, read-only) */
	uint64_t kparam_bytes;
	uint64_t smem_bytes, dyn_off, local_bytes, lparam_bytes;
	unsigned nthreads, nwarps, bdim[3];
	int banks, cc10;          /* profile rules */
	/* the current block */
	unsigned char *smem;
	struct gs_xwarp *w;
	unsigned ctaid[3];
	uint64_t block;
	/* the allocation the last global access hit */
	uint64_t cbase, cend;
	unsigned char *chost;
	/* the first fault */
	int rc;
	char msg[512];
	/* past the deadline: the block's states at the ends of its rounds
	 * (exec.c, verdict) */
	uint64_t seen[64];
	unsigned nseen;
	int slice;                /* backward branches a warp takes before the next runs */
	/* whole-run state shared by the host threads */
	struct gs_xrun *run;
	/* a sampled launch's observer (model/probe.c), NULL otherwise */
	struct gs_xprobe *pr;
	/* its loop sampling (exec_loops.c), NULL: every iteration runs */
	struct gs_xloops *loops;
};

/* model/probe.c: what a sampled launch observes of each block, called
 * here and implemented by the performance model (the interpreter keeps no
 * time).  gs_x_probe_end ends sampled block i: its observations and the
 * counters x->c into launch->stats[i]. */
struct gs_xprobe *gs_x_probe_new(const struct gs_xctx *x);
void gs_x_probe_free(struct gs_xprobe *p);
void gs_x_probe_begin(struct gs_xctx *x);
void gs_x_probe_issue(struct gs_xctx *x, const struct gs_xwarp *w, const struct gs_ins *in);
/* space: 0 shared, 1 global, 2 local, 3 the constant bank (loads only),
 * 4 a global atomic (store: 1).  For global and local accesses, returns
 * the distinct 32-byte sectors the active lanes touch (each lane's first
 * and last byte's: all of them for accesses of up to 32 aligned bytes),
 * which the coalescing counter would count again; 0 otherwise. */
unsigned gs_x_probe_mem(struct gs_xctx *x, int space, int store, const uint64_t *addr, uint32_t m,
		    unsigned size);
void gs_x_probe_barrier(struct gs_xctx *x);
void gs_x_probe_end(struct gs_xctx *x, size_t i);
/* For loop sampling: the bytes of a snapshot of what warp wi's iterations
 * of the loop [lo, hi] add to the probe, and the snapshot.  Then `skip`
 * more iterations at the rate of the `span` from snapshot s0 to b, added
 * to what the block observes (the footprint growing by `units` units like
 * the one from a to b, c being the one before a; -1:
 * the iterations do not repeat in a way it can extend, and nothing changed
 * but the footprint; barriers: the loop synchronises the block) and to
 * warp wi's chain (dregs[0..nd): the registers the loop writes). */
size_t gs_x_probe_snap_bytes(size_t lo, size_t hi);
void gs_x_probe_snap(const struct gs_xctx *x, unsigned wi, size_t lo, size_t hi, void *buf);
double gs_x_probe_snap_len(const void *snap); /* the warp's chain, as paths compare */
int gs_x_probe_skip_block(struct gs_xctx *x, size_t lo, size_t hi, const void *s0,
			  const void *c, const void *a, const void *b, uint64_t span,
			  uint64_t skip, uint64_t units, int barriers);
void gs_x_probe_skip_warp(struct gs_xctx *x, unsigned wi, const uint32_t *dregs, unsigned nd,
			  const void *s0, const void *b, uint64_t span, uint64_t skip);

/* exec_loops.c: loop sampling in a sampled launch.  gs_x_loop_back is
 * called at each backward branch a warp takes whole (issued: its count
 * so far), and returns the instructions the iterations it skipped would
 * have issued; gs_x_loop_exit where one falls through or splits. */
int gs_x_loops_new(struct gs_xctx *x);
void gs_x_loops_free(struct gs_xctx *x);
void gs_x_loops_begin(struct gs_xctx *x);
void gs_x_loops_turn(struct gs_xctx *x);
uint64_t gs_x_loops_skipped(const struct gs_xctx *x); /* the block's iterations skipped */
uint64_t gs_x_loop_back(struct gs_xctx *x, struct gs_xwarp *w, int32_t pc, uint64_t issued);
void gs_x_loop_exit(struct gs_xctx *x, struct gs_xwarp *w, int32_t pc);
/* before a barrier's release: skips a loop that synchronises the block
 * where every warp has found it can */
void gs_x_loops_release(struct gs_xctx *x);

/* Fault helpers: fill x->msg and return GS_EMU_FAULT. */
int gs_x_fault(struct gs_xctx *x, const struct gs_xwarp *w, const struct gs_ins *in, int lane,
	       const char *what, uint64_t addr, int has_addr);
int gs_x_unsupported(struct gs_xctx *x, const struct gs_ins *in, const char *why);
const char *gs_x_optext(const struct gs_xctx *x, const struct gs_ins *in);

/* .ftz of f32 lanes: subnormals to sign-preserving zero */
static inline gs_vf32 gs_x_ftz32(gs_vf32 v)
{
	gs_vu32 u = (gs_vu32)v;
	gs_vu32 den = ~gs_x_nz32(u & 0x7f800000u);
	return (gs_vf32)((u & ~den) | (u & den & 0x80000000u));
}


/* The comparison of SETP/SET for all 32 lanes, one bit each; -1 for a
 * type it does not know.  Inline: it runs in the dispatch loop's clones. */
/* one integer comparison of 32 lanes as masks */
#define GS_ICMP(lt, A, B, sgn)                                                                 \
	switch (in->sub) {                                                                     \
	case GS_CMP_EQ: c = ~nz(A ^ B); break;                                                 \
	case GS_CMP_NE: c = nz(A ^ B); break;                                                  \
	case GS_CMP_LT: c = sgn ? lts(A, B) : lt(A, B); break;                                 \
	case GS_CMP_LE: c = ~(sgn ? lts(B, A) : lt(B, A)); break;                              \
	case GS_CMP_GT: c = sgn ? lts(B, A) : lt(B, A); break;                                 \
	case GS_CMP_GE: c = ~(sgn ? lts(A, B) : lt(A, B)); break;                              \
	case GS_CMP_LO: c = lt(A, B); break;                                                   \
	case GS_CMP_LS: c = ~lt(B, A); break;                                                  \
	case GS_CMP_HI: c = lt(B, A); break;                                                   \
	case GS_CMP_HS: c = ~lt(A, B); break;                                                  \
	default: return -1;                                                                    \
	}

/* one float comparison of a chunk */
#define GS_FCMP(a, b)                                                                          \
	switch (in->sub) {                                                                     \
	case GS_CMP_EQ: c = (a) == (b); break;                                                 \
	case GS_CMP_NE: c = ((a) < (b)) | ((a) > (b)); break;                                  \
	case GS_CMP_LT: c = (a) < (b); break;                                                  \
	case GS_CMP_LE: c = (a) <= (b); break;                                                 \
	case GS_CMP_GT: c = (a) > (b); break;                                                  \
	case GS_CMP_GE: c = (a) >= (b); break;                                                 \
	case GS_CMP_EQU: c = ~(((a) < (b)) | ((a) > (b))); break;                              \
	case GS_CMP_NEU: c = (a) != (b); break;                                                \
	case GS_CMP_LTU: c = ~((a) >= (b)); break;                                             \
	case GS_CMP_LEU: c = ~((a) > (b)); break;                                              \
	case GS_CMP_GTU: c = ~((a) <= (b)); break;                                             \
	case GS_CMP_GEU: c = ~((a) < (b)); break;                                              \
	case GS_CMP_NUM: c = ((a) == (a)) & ((b) == (b)); break;                               \
	case GS_CMP_NAN: c = ((a) != (a)) | ((b) != (b)); break;                               \
	default: return -1;                                                                    \
	}

/* The comparison of SETP/SET for all 32 lanes, one bit each; -1 for a
 * type it does not know.  Inline: it runs in the dispatch loop's clones. */
static inline __attribute__((always_inline)) int gs_x_cmp(const unsigned char *rf,
							   const struct gs_ins *in,
							   uint32_t *bits)
{
	switch (in->sub2) {
	case GS_TY_U16: case GS_TY_S16: case GS_TY_B16:
	case GS_TY_U32: case GS_TY_S32: case GS_TY_B32: {
		gs_vu32 a = GS_VU32(rf, in->o[2]), b = GS_VU32(rf, in->o[3]), c;
		int sgn = in->sub2 == GS_TY_S16 || in->sub2 == GS_TY_S32;
		if (in->sub2 == GS_TY_S16) { /* 16-bit: the low halves, extended */
			a = (gs_vu32)((gs_vs32)(a << 16) >> 16);
			b = (gs_vu32)((gs_vs32)(b << 16) >> 16);
		} else if (in->sub2 == GS_TY_U16 || in->sub2 == GS_TY_B16) {
			a &= 0xffffu;
			b &= 0xffffu;
		}
#define nz gs_x_nz32
#define lt gs_x_ltu32
#define lts gs_x_lts32
		GS_ICMP(lt, a, b, sgn);
#undef nz
#undef lt
#undef lts
		*bits = gs_x_bits32(c);
		return 0;
	}
	case GS_TY_U64: case GS_TY_S64: case GS_TY_B64: {
		gs_vu64 a = GS_VU64(rf, in->o[2]), b = GS_VU64(rf, in->o[3]), c;
		int sgn = in->sub2 == GS_TY_S64;
#define nz gs_x_nz64
#define lt gs_x_ltu64
#define lts gs_x_lts64
		GS_ICMP(lt, a, b, sgn);
#undef nz
#undef lt
#undef lts
		uint32_t r = 0;
		for (int k = 0; k < 8; k++)
			r |= gs_x_bits4(((const gs_v4s *)&c)[k]) << (4 * k);
		*bits = r;
		return 0;
	}
	case GS_TY_F32: {
		gs_vf32 va = GS_VF32(rf, in->o[2]), vb = GS_VF32(rf, in->o[3]);
		if (in->f & 0x10) {
			va = gs_x_ftz32(va);
			vb = gs_x_ftz32(vb);
		}
		uint32_t r = 0;
		for (int k = 0; k < 4; k++) {
			gs_v8f a = ((const gs_v8f *)&va)[k], b = ((const gs_v8f *)&vb)[k];
			gs_v8s c;
			GS_FCMP(a, b);
			r |= gs_x_bits8(c) << (8 * k);
		}
		*bits = r;
		return 0;
	}
	case GS_TY_F64: {
		uint32_t r = 0;
		for (int k = 0; k < 8; k++) {
			gs_v4d a = ((const gs_v4d *)(rf + in->o[2]))[k];
			gs_v4d b = ((const gs_v4d *)(rf + in->o[3]))[k];
			gs_v4s c;
			GS_FCMP(a, b);
			r |= gs_x_bits4(c) << (4 * k);
		}
		*bits = r;
		return 0;
	}
	default:
		return -1;
	}
}

/* exec_mem.c */
int gs_x_ld(struct gs_xctx *x, struct gs_xwarp *w, const struct gs_ins *in, uint32_t m);
int gs_x_st(struct gs_xctx *x, struct gs_xwarp *w, const struct gs_ins *in, uint32_t m);
int gs_x_ldkp(struct gs_xctx *x, struct gs_xwarp *w, const struct gs_ins *in, uint32_t m);
int gs_x_atom(struct gs_xctx *x, struct gs_xwarp *w, const struct gs_ins *in, uint32_t m);
int gs_x_cvta(struct gs_xctx *x, struct gs_xwarp *w, const struct gs_ins *in, uint32_t m);
/* transactions and bytes of one warp's global access (profile rule) */
void gs_x_coalesce(int cc10, const uint64_t *addr, uint32_t m, unsigned size, uint64_t *trans,
		   uint64_t *bytes);
/* extra replays of one warp's shared access */
unsigned gs_x_banks(int banks, const uint64_t *addr, uint32_t m, unsigned size);
/* the same for a shared load, as the H200 serves wide ones (exec_mem.c) */
unsigned gs_x_banks_load(int banks, const uint64_t *addr, uint32_t m, unsigned size);

/* Sorts a warp's values v[0..n) ascending in place, for the executor's
 * counters and the probe (model/probe.c).  An insertion sort: a warp's
 * addresses come in order or in a few ascending runs (a row each), which
 * it takes in about n steps where qsort would call its comparison n log n
 * times. */
static inline void gs_x_sort_warp(uint64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		uint64_t x = v[i];
		unsigned j = i;
		for (; j && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* exec_fp.c */
int gs_x_fop32(struct gs_xctx *x, unsigned char *rf, const struct gs_ins *in, uint32_t m);
int gs_x_fop16(struct gs_xctx *x, unsigned char *rf, const struct gs_ins *in, uint32_t m);
int gs_x_fop64(struct gs_xctx *x, unsigned char *rf, const struct gs_ins *in, uint32_t m);
int gs_x_cvt(struct gs_xctx *x, unsigned char *rf, const struct gs_ins *in, uint32_t m);
int gs_x_testp(struct gs_xctx *x, unsigned char *rf, uint32_t *pred, const struct gs_ins *in,
	       uint32_t m);
#endif
