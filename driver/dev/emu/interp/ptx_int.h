/* ptx_int.h — what the PTX loader (ptx.c) hands the executor (exec.c): a
 * module pre-decoded into one array of fixed-size instructions.
 *
 * The register file of a warp is one block of bytes.  A 32-bit (or 16- or
 * 8-bit) virtual register takes 32 lanes x 4 bytes, a 64-bit one 32 x 8
 * bytes, so an operand is a byte offset into that block and an instruction's
 * lanes are consecutive words (structure of arrays).  Immediates, symbol
 * addresses and special registers (%tid.x, %laneid, ...) are registers too:
 * constant slots filled from a per-entry template when a warp starts, so
 * that every operand is read the same way.  Predicates are one 32-bit lane
 * mask each, in a separate array.
 *
 * Address spaces: global and .const addresses are device addresses of the
 * gs_emu_mem (module variables are allocated there).  Shared and local
 * addresses are offsets in the block's shared memory and the thread's local
 * memory; their generic forms live in two windows below the device's
 * allocations (mem.c starts those at 0x7f0000000000).  Kernel parameters are
 * offsets in the launch's parameter buffer, with a generic window too.
 * Parameters of .func functions and of call sequences live in a per-thread
 * parameter area at offsets fixed at load (recursion is refused), where the
 * `.param` variables of a call sequence alias the callee's own. */
#ifndef GS_EMU_PTX_INT_H
#define GS_EMU_PTX_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dev/emu/interp/interp.h"

#define GS_WARP 32

#define GS_WIN_SHARED 0x7e0000000000ull
#define GS_WIN_LOCAL 0x7e0100000000ull
#define GS_WIN_PARAM 0x7e0200000000ull
#define GS_WIN_SIZE 0x100000000ull

/* Operand layouts: which of an instruction's o[] are registers it writes
 * and which it reads, in the order read.  Whatever follows values through
 * registers derives that from here (gs_ins_regs below; the model's
 * dependency chains, model/probe.c), so every opcode must name one: GS_OPS
 * has two columns and tests/unit/test_emu_ptx.c checks them.  The layouts
 * are those the timing model was calibrated with (GS_EMU_MODEL_REV in
 * dev/emu.h): TESTP's source and SELP's and VOTE's predicate operands are
 * followed as written here, not as the instruction reads them; changing a
 * layout moves modeled times. */
enum gs_lay {
	GS_LAY_NONE = 1, /* none: predicates only, control, no-ops */
	GS_LAY_D,        /* writes o[0]; reads none (LDKP: its parameter is named) */
	GS_LAY_DABC,     /* writes o[0]; reads o[1], o[2], o[3] (GS_NONE where absent) */
	GS_LAY_DABCE,    /* writes o[0]; reads o[1] to o[4] */
	GS_LAY_UNPACK,   /* writes o[0] and o[1]; reads o[2] */
	GS_LAY_CMP,      /* writes predicates; reads o[2], o[3] */
	GS_LAY_LD,       /* writes o[0] to o[nv - 1]; reads the address, o[4] */
	GS_LAY_ST,       /* reads o[0] to o[nv - 1], then the address, o[4] */
	GS_LAY_COUNT
};

/* Opcodes of the executor, after decoding, each with its operand layout
 * (GS_LAY_*).  Suffixes: 32/64 are register widths, 16 values held
 * zero-extended in 32-bit slots; U/S unsigned or signed; F32/F64 IEEE
 * types.  Operands o[0] = d, o[1] = a, o[2] = b, o[3] = c unless the
 * comment says otherwise. */
#define GS_OPS(X)                                                                                \
	X(NOP, NONE) /* fences, membar, pragma-like instructions */                              \
	/* d = a (MOVP: predicates, o[] are predicate indices) */                                \
	X(MOV32, DABC) X(MOV64, DABC) X(MOVP, NONE)                                              \
	X(PACK64, DABC) /* d64 = a32 | b32 << 32 */                                              \
	X(UNPACK64, UNPACK) /* o[0] = lo32, o[1] = hi32 of a64 in o[2] (UINT32_MAX: sink) */     \
	X(PACK32, DABC) /* d32 = a16 | b16 << 16 */                                              \
	X(UNPACK32, UNPACK) /* o[0] = lo16, o[1] = hi16 of a32 in o[2] */                        \
	X(ADD32, DABC) X(SUB32, DABC) X(MUL32, DABC) X(ADD64, DABC) X(SUB64, DABC)               \
	X(MUL64, DABC)                                                                           \
	X(ADD16, DABC) X(SUB16, DABC) X(MUL16, DABC)                                             \
	X(MAD32, DABC) X(MAD64, DABC) X(MAD16, DABC) /* d = a * b + c, low bits */               \
	X(AND32, DABC) X(OR32, DABC) X(XOR32, DABC) X(NOT32, DABC) X(AND64, DABC) X(OR64, DABC)  \
	X(XOR64, DABC) X(NOT64, DABC)                                                            \
	X(AND16, DABC) X(OR16, DABC) X(XOR16, DABC) X(NOT16, DABC)                               \
	/* predicates (o[] predicate indices) */                                                 \
	X(ANDP, NONE) X(ORP, NONE) X(XORP, NONE) X(NOTP, NONE)                                   \
	X(CNOT32, DABC) X(CNOT64, DABC) X(CNOT16, DABC)                                          \
	X(NEG32, DABC) X(NEG64, DABC) X(NEG16, DABC) X(ABS32, DABC) X(ABS64, DABC)               \
	X(ABS16, DABC)                                                                           \
	/* shift amount: b32 */                                                                  \
	X(SHL32, DABC) X(SHRU32, DABC) X(SHRS32, DABC) X(SHL64, DABC) X(SHRU64, DABC)            \
	X(SHRS64, DABC)                                                                          \
	X(SHL16, DABC) X(SHRU16, DABC) X(SHRS16, DABC)                                           \
	X(MINU32, DABC) X(MINS32, DABC) X(MAXU32, DABC) X(MAXS32, DABC) X(MINU64, DABC)          \
	X(MINS64, DABC) X(MAXU64, DABC) X(MAXS64, DABC)                                          \
	X(MINU16, DABC) X(MINS16, DABC) X(MAXU16, DABC) X(MAXS16, DABC)                          \
	X(DIVU32, DABC) X(DIVS32, DABC) X(REMU32, DABC) X(REMS32, DABC) X(DIVU64, DABC)          \
	X(DIVS64, DABC) X(REMU64, DABC) X(REMS64, DABC)                                          \
	X(DIVU16, DABC) X(DIVS16, DABC) X(REMU16, DABC) X(REMS16, DABC)                          \
	X(MULHIU32, DABC) X(MULHIS32, DABC) X(MULHIU64, DABC) X(MULHIS64, DABC)                  \
	X(MULHIU16, DABC) X(MULHIS16, DABC)                                                      \
	/* d is twice as wide as a, b */                                                         \
	X(MULWU32, DABC) X(MULWS32, DABC) X(MULWU16, DABC) X(MULWS16, DABC)                      \
	X(MADHIU32, DABC) X(MADHIS32, DABC) X(MADHIU64, DABC) X(MADHIS64, DABC)                  \
	X(MADWU32, DABC) X(MADWS32, DABC) /* d64 = a32 * b32 + c64 */                            \
	X(MUL24LOU, DABC) X(MUL24LOS, DABC) X(MUL24HIU, DABC) X(MUL24HIS, DABC)                  \
	X(MAD24LOU, DABC) X(MAD24LOS, DABC)                                                      \
	/* 32/64 carry chain: sub = 0 add, 1 sub; f bit 0: uses carry-in (addc/subc), bit 1:     \
	 * writes carry-out (.cc); width in sz (4 or 8) */                                       \
	X(ADDCC, DABC)                                                                           \
	X(MADCC, DABC) /* mad.lo/hi .cc / madc: f as ADDCC, sub = 0 lo, 1 hi; width in sz */     \
	X(POPC32, DABC) X(POPC64, DABC) X(CLZ32, DABC) X(CLZ64, DABC) X(BREV32, DABC)            \
	X(BREV64, DABC)                                                                          \
	X(BFIND, DABC) /* sub: bit 0 signed, bit 1 .shiftamt; sz: 4 or 8 (d is 32-bit) */        \
	/* d = bfe(a, pos b, len c) */                                                           \
	X(BFEU32, DABC) X(BFES32, DABC) X(BFEU64, DABC) X(BFES64, DABC)                          \
	X(BFI32, DABCE) X(BFI64, DABCE) /* d = bfi(a, b, pos c, len o[4]) */                     \
	X(PRMT, DABC) /* d = prmt(a, b, selector c), mode in sub */                              \
	/* funnel shift: d, a (lo), b (hi), c (amount); sub: bit 0 right, bit 1 clamp */         \
	X(SHF, DABC)                                                                             \
	X(SELP32, DABC) X(SELP64, DABC) /* d = p(o[3]) ? a : b */                                \
	X(SLCT32, DABC) X(SLCT64, DABC) /* d = (c >= 0) ? a : b; sub: 0 s32 c, 1 f32 c */        \
	/* o[0] p, o[1] q (UINT32_MAX none), o[2] a, o[3] b, o[4] c predicate (or                \
	 * UINT32_MAX), sub: comparison, sub2: type, f: bool op | negate c << 2 */               \
	X(SETP, CMP)                                                                             \
	/* d32 = cmp ? (float dest: 1.0f : all ones) : 0, as SETP; f bit 3: f32 dest */          \
	X(SET, DABC)                                                                             \
	X(TESTP, NONE) /* o[0] p, o[1] a; sub: class, sub2: 0 f32 1 f64 */                       \
	/* round-to-nearest, no ftz/sat */                                                       \
	X(ADDF32, DABC) X(SUBF32, DABC) X(MULF32, DABC) X(FMAF32, DABC)                          \
	X(ADDF32Z, DABC) X(SUBF32Z, DABC) X(MULF32Z, DABC) X(FMAF32Z, DABC) /* .ftz */           \
	X(ADDF64, DABC) X(SUBF64, DABC) X(MULF64, DABC) X(FMAF64, DABC)                          \
	/* any other f32 arithmetic: fop in sub, rounding in sub2, f: ftz 1 sat 2 */             \
	X(FOP32, DABC)                                                                           \
	X(FOP64, DABC) /* as FOP32 for f64 */                                                    \
	/* f16 and bf16 arithmetic, one half or two in a register: as FOP32, sz the type */     \
	X(FOP16, DABC)                                                                           \
	/* conversions: sub dst type, sub2 src type, f: rounding | ftz << 4 | sat << 5, sz:      \
	 * source register bytes, nv: destination register bytes */                              \
	X(CVT, DABC)                                                                             \
	X(CVTA, DABC) /* sub: space, f bit 0: to (generic -> space); sz: a bytes, nv: d bytes */ \
	X(LD, LD) X(ST, ST) /* per-space helpers in exec.c; see struct gs_ins */                 \
	X(LDKP, D) /* ld.param of a kernel parameter: uniform across the warp */                 \
	X(ATOM, DABC) /* atom/red: sub atomic op, sub2 type, f: space | no result << 4 */        \
	X(BRA, NONE) /* unconditional or guarded branch to tgt, reconverging at rpc */           \
	X(CALL, NONE) /* callee entry pc in tgt */                                               \
	X(RET, NONE) X(EXIT, NONE) X(TRAP, NONE)                                                 \
	/* bar.sync / barrier.sync; sub: 0 sync, 1 red.popc, 2 red.and, 3 red.or; o[0] d         \
	 * (red), o[1] predicate (red) */                                                        \
	X(BAR, NONE)                                                                             \
	X(SHFL, DABCE) /* o[0] d, o[1] pred out, o[2] a, o[3] b, o[4] c; sub: mode */            \
	X(VOTE, DABC) /* o[0] d (pred or b32), o[1] pred a; sub: mode; f: negate a */            \
	X(ACTIVEMASK, DABC)                                                                      \
	X(REDUX, DABC) /* redux.sync: sub op, sub2 signed */                                     \
	X(CLOCK32, DABC) X(CLOCK64, DABC) X(GTIMER, DABC) /* %clock, %clock64, %globaltimer */   \
	/* sad.u32 / sad.s32 (__usad, __sad): d = c + |a - b|; sub 1: a, b signed */             \
	X(SAD32, DABC)                                                                           \
	/* dp4a.atype.btype (__dp4a): d32 = c + the sum of the four products of a's and b's      \
	 * bytes; sub bit 0: a's bytes signed, bit 1: b's; c is s32 when either is signed,       \
	 * else u32 (the sum wraps to 32 bits either way) */                                     \
	X(DP4A, DABC)

enum gs_op {
#define GS_OP_ENUM(n, lay) GS_OP_##n,
	GS_OPS(GS_OP_ENUM)
#undef GS_OP_ENUM
	GS_OP_COUNT
};

/* floating-point sub-operations of FOP32 / FOP64 */
enum gs_fop {
	GS_FOP_ADD, GS_FOP_SUB, GS_FOP_MUL, GS_FOP_FMA, GS_FOP_DIV, GS_FOP_DIV_APPROX,
	GS_FOP_DIV_FULL, GS_FOP_RCP, GS_FOP_RCP_APPROX, GS_FOP_SQRT, GS_FOP_SQRT_APPROX,
	GS_FOP_RSQRT_APPROX, GS_FOP_SIN, GS_FOP_COS, GS_FOP_LG2, GS_FOP_EX2, GS_FOP_TANH,
	GS_FOP_ABS, GS_FOP_NEG, GS_FOP_MIN, GS_FOP_MAX, GS_FOP_COPYSIGN, GS_FOP_MOV
};

/* rounding: none, to nearest even, toward zero, down, up; the integer
 * forms (cvt.rni ...) round a float to an integral value */
enum gs_rnd { GS_RND_NONE, GS_RND_RN, GS_RND_RZ, GS_RND_RM, GS_RND_RP,
	      GS_RND_RNI, GS_RND_RZI, GS_RND_RMI, GS_RND_RPI };

/* scalar types of conversions, comparisons, atomics */
enum gs_ty { GS_TY_NONE, GS_TY_U8, GS_TY_U16, GS_TY_U32, GS_TY_U64, GS_TY_S8, GS_TY_S16,
	     GS_TY_S32, GS_TY_S64, GS_TY_B8, GS_TY_B16, GS_TY_B32, GS_TY_B64, GS_TY_F16,
	     GS_TY_BF16, GS_TY_F32, GS_TY_F64, GS_TY_PRED,
	     /* two halves in a 32-bit register, low half first */
	     GS_TY_F16X2, GS_TY_BF16X2 };

enum gs_cmp { GS_CMP_EQ, GS_CMP_NE, GS_CMP_LT, GS_CMP_LE, GS_CMP_GT, GS_CMP_GE,
	      GS_CMP_LO, GS_CMP_LS, GS_CMP_HI, GS_CMP_HS, GS_CMP_EQU, GS_CMP_NEU, GS_CMP_LTU,
	      GS_CMP_LEU, GS_CMP_GTU, GS_CMP_GEU, GS_CMP_NUM, GS_CMP_NAN };

/* memory spaces of ld/st/atom/cvta (not `enum gs_space`: space/space.h has
 * a struct of that name) */
enum gs_memspace { GS_SP_GENERIC, GS_SP_GLOBAL, GS_SP_SHARED, GS_SP_LOCAL, GS_SP_CONST,
		GS_SP_PARAM /* per-thread .func/call parameters */, GS_SP_KPARAM };

enum gs_atom_op { GS_AT_ADD, GS_AT_MIN, GS_AT_MAX, GS_AT_INC, GS_AT_DEC, GS_AT_AND, GS_AT_OR,
		  GS_AT_XOR, GS_AT_EXCH, GS_AT_CAS };

enum gs_shfl { GS_SHFL_UP, GS_SHFL_DOWN, GS_SHFL_BFLY, GS_SHFL_IDX };
enum gs_vote { GS_VOTE_ALL, GS_VOTE_ANY, GS_VOTE_UNI, GS_VOTE_BALLOT };

/* ld/st flags (gs_ins.f) */
#define GS_MF_SIGNED 0x01  /* ld: sign-extend the loaded value into a wider register */
#define GS_MF_A32 0x02     /* the address register is 32-bit */
#define GS_MF_WIDE 0x04    /* element registers are 64-bit (else 32-bit slots) */
#define GS_MF_F16REG 0x08  /* unused: reserved */

#define GS_NONE UINT32_MAX

/* One decoded instruction.  For LD/ST: sz is the element size in bytes, nv
 * the vector length, o[0..3] the element registers (GS_NONE: sink `_`),
 * o[4] the address register, imm the address offset, sub the space. */
struct gs_ins {
	uint16_t op;
	uint8_t cls;      /* enum gs_emu_class, for the counters */
	uint8_t gneg;     /* guard negated */
	int32_t guard;    /* predicate index, -1: unguarded */
	uint8_t sz, nv, f, sub, sub2, pad[3];
	uint32_t o[6];
	int64_t imm;
	int32_t tgt;      /* branch target, callee entry */
	int32_t rpc;      /* where a divergent branch reconverges; -1: at the function's end */
	uint32_t line;    /* PTX source line */
	uint32_t text;    /* opcode text (offset in the module's string pool) */
};

/* ptx.c: each opcode's enum gs_lay, from GS_OPS */
extern const uint8_t gs_op_lay[GS_OP_COUNT];

/* The registers instruction `in` writes (write 1) or reads (0), by its
 * opcode's layout, into r[]; returns how many (some may be GS_NONE). */
static inline int gs_ins_regs(const struct gs_ins *in, int write, uint32_t r[6])
{
	/* per layout: masks of o[] written and read; vec: o[0..3] only below nv */
	static const struct { uint8_t d, s, vec; } m[GS_LAY_COUNT] = {
		[GS_LAY_D] = { 0x01, 0x00, 0 },     [GS_LAY_DABC] = { 0x01, 0x0e, 0 },
		[GS_LAY_DABCE] = { 0x01, 0x1e, 0 }, [GS_LAY_UNPACK] = { 0x03, 0x04, 0 },
		[GS_LAY_CMP] = { 0x00, 0x0c, 0 },   [GS_LAY_LD] = { 0x0f, 0x10, 1 },
		[GS_LAY_ST] = { 0x00, 0x1f, 1 },
	};
	unsigned lay = in->op < GS_OP_COUNT ? gs_op_lay[in->op] : GS_LAY_NONE;
	unsigned bits = write ? m[lay].d : m[lay].s;
	int n = 0;
	if (m[lay].vec)
		bits &= 0x30u | ((1u << in->nv) - 1);
	for (int i = 0; i < 6; i++)
		if (bits >> i & 1)
			r[n++] = in->o[i];
	return n;
}

/* A register slot whose content the executor fills when a warp starts. */
enum gs_slot_kind { GS_SLOT_IMM, GS_SLOT_SYM, GS_SLOT_SPECIAL };

enum gs_special {
	GS_SR_TID_X, GS_SR_TID_Y, GS_SR_TID_Z, GS_SR_NTID_X, GS_SR_NTID_Y, GS_SR_NTID_Z,
	GS_SR_CTAID_X, GS_SR_CTAID_Y, GS_SR_CTAID_Z, GS_SR_NCTAID_X, GS_SR_NCTAID_Y,
	GS_SR_NCTAID_Z, GS_SR_LANEID, GS_SR_WARPID, GS_SR_NWARPID, GS_SR_SMID, GS_SR_NSMID,
	GS_SR_GRIDID, GS_SR_LANEMASK_EQ, GS_SR_LANEMASK_LT, GS_SR_LANEMASK_LE,
	GS_SR_LANEMASK_GT, GS_SR_LANEMASK_GE, GS_SR_DYN_SMEM, GS_SR_TOTAL_SMEM, GS_SR_ZERO
};

struct gs_slot {
	uint32_t off;     /* byte offset in the register file */
	uint8_t wide;     /* 64-bit slot */
	uint8_t kind;     /* enum gs_slot_kind */
	uint16_t pad;
	uint64_t val;     /* IMM: the value; SYM: variable index; SPECIAL: enum gs_special */
	int64_t add;      /* SYM: added to the address */
};

enum gs_var_space { GS_VS_GLOBAL, GS_VS_CONST, GS_VS_SHARED, GS_VS_LOCAL, GS_VS_KPARAM,
		    GS_VS_PARAM };

#define GS_PDECL_PTR 0x100   /* declared `.ptr` */
#define GS_PDECL_ARRAY 0x200 /* declared `name[N]` */

struct gs_ptx_var {
	char *name;
	int space;        /* enum gs_var_space */
	int func;         /* declaring function, -1: module scope */
	int dyn;          /* `.extern .shared` array without size: dynamic shared memory */
	uint64_t size, align;
	uint64_t addr;    /* global/const: device address; param: offset in the area */
	uint32_t line;
};

struct gs_ptx_func {
	char *name;
	int entry;        /* .entry (else .func) */
	int defined;
	uint32_t line;
	int32_t pc0, pc1; /* its instructions [pc0, pc1) */
	size_t nparams;
	uint64_t *psize;  /* bytes of each parameter */
	uint64_t *poff;   /* entry: offset in the kernel parameter buffer; func: in the
			   * per-thread parameter area */
	int *pvar;        /* variable index of each parameter */
	unsigned *pdecl;  /* each parameter's enum gs_ty | GS_PDECL_* */
	int nret;
	uint64_t rsize, roff; /* the return value (one at most) */
	int *callees;     /* direct callees (function indices) */
	size_t ncallees, capcallees;
	int global_atomics; /* has atom/red on global or generic memory */
	unsigned maxntid[3]; /* 0: none */
	/* entries: their call tree's layout, filled at load */
	uint64_t kparam_bytes;
	uint64_t smem_static; /* static shared bytes (dynamic shared starts here, aligned) */
	uint64_t dyn_align;
	uint64_t local_bytes; /* per thread */
	int seq;          /* global atomics somewhere in the call tree: run blocks in order */
	unsigned char *consts; /* the register-file template of constant slots */
	uint64_t *var_off; /* per variable: its offset in this entry (shared, local) */
	uint8_t *rwide;   /* entries: per 128 bytes of the register file, 1 where a
			   * 64-bit register of its call tree starts */
};

struct gs_ptx_module {
	struct gs_ins *code;
	size_t ncode;
	struct gs_ptx_func *funcs;
	size_t nfuncs;
	struct gs_ptx_var *vars;
	size_t nvars;
	struct gs_slot *slots;   /* constant and special slots */
	size_t nslots;
	uint32_t const_lo, const_hi; /* the template covers [const_lo, const_hi) */
	uint32_t rf_bytes;       /* register file bytes per warp */
	uint32_t npred;          /* predicate registers (the first two: false, true) */
	uint64_t lparam_bytes;   /* per-thread parameter area */
	char *strings;           /* opcode texts */
	size_t nstrings;
	uint64_t *allocs;        /* device allocations of module variables */
	size_t nallocs;
	int sm;                  /* .target sm_XX */
};

#define GS_PRED_FALSE 0
#define GS_PRED_TRUE 1

/* ptx.c, for debugging: an opcode's name ("LDKP"), and a listing of the
 * module (variables, functions and their layout, slots, every instruction
 * with its fields) */
const char *gs_ptx_op_name(int op);
void gs_ptx_dump(FILE *out, const struct gs_ptx_module *m);

/* How the executor (exec.c) reads what the comments above leave open:
 *
 * Lanes: lane l of a 32-bit operand is the uint32_t at rf + o + 4 l, of a
 * 64-bit one the uint64_t at rf + o + 8 l.  16- and 8-bit values: the
 * executor reads the low bits of the 32-bit slot and writes results
 * zero-extended, so it never depends on the upper bits.
 *
 * Template: funcs[e].consts holds the bytes [const_lo, const_hi) of the
 * register file with every IMM and SYM slot filled for all 32 lanes; a warp
 * starts with a copy of it, then the executor fills the SPECIAL slots per
 * lane.  When consts is NULL the executor fills IMM and SYM slots itself:
 * IMM val; SYM vars[val] + add, where the address is the device address
 * (global, const), var_off[val] of the entry (shared, local), or addr
 * (kernel and function parameters).  Predicates 0 and 1 are set to 0 and
 * ~0 at warp start and never written.
 *
 * LD/ST/LDKP: the whole access (sz * nv bytes) must be aligned to its size,
 * else a fault.  A narrow load is zero-extended, sign-extended with
 * GS_MF_SIGNED, into the 32-bit slot (64-bit with GS_MF_WIDE).  LDKP reads
 * the address of the first active lane.  Generic addresses: the shared,
 * local and param (kernel parameter buffer, read-only) windows, else device
 * memory.
 *
 * ATOM: o[0] d (GS_NONE or f bit 4: no result), o[1] address register,
 * o[2] b, o[3] c (cas), imm the address offset, sz the operand bytes (4 or
 * 8), f bits 0-3 the space (generic, global, shared), f bit 5 (0x20): the
 * address register is 32-bit.  sub2 the type (U32 S32 U64 S64 B32 B64 F32
 * F64).  Lanes of a warp apply in lane order.
 * REDUX: o[0] d, o[1] a; sub an enum gs_atom_op (ADD MIN MAX AND OR XOR).
 * SHFL: membermask not read.  VOTE: for BALLOT o[0] is a b32 register, else
 * a predicate index.  BAR red: o[0] a b32 register (popc) or a predicate
 * (and, or), f bit 0 negates the predicate o[1].  Every barrier waits for
 * all warps of the block that have not exited (ids and counts ignored).
 * SETP/SET: f bits 0-1 the bool op: 0 none, 1 and, 2 or, 3 xor; f bit 4
 * (0x10): .ftz.  PRMT sub: 0 generic, 1 f4e, 2 b4e, 3 rc8, 4 ecl, 5 ecr,
 * 6 rc16.  TESTP sub: 0 finite, 1 infinite, 2 number, 3 notanumber,
 * 4 normal, 5 subnormal.  SLCT f bit 0: .ftz.  FOP32/FOP64 MIN/MAX f bit 2
 * (0x04): .NaN.  MADCC sub2: the type (S32, S64: the signed high product).
 * CALL returns to pc + 1; RET outside any call exits.
 * Counters: warp_inst counts every issued instruction (a guard false for
 * all lanes included), thread_inst the active lanes before the guard, by
 * gs_ins.cls as the loader set it. */

/* What the loader (ptx.c, ptx_lex.c, ptx_decode.c) decided, beyond the above:
 *
 * Register file: the constant slots first ([const_lo, const_hi) with
 * const_lo 0), then the registers of every .func, then those of the
 * entries, which share one range (a launch runs one entry).  Registers get
 * offsets on first use, so unused declarations take no room.  Entry
 * indices (gs_ptx_entry, launch->entry) are indices of funcs[].
 *
 * SYM slots and var_off: a variable's address in its own space: device
 * address (global, const), offset in the block's shared memory or the
 * thread's local memory (per entry: var_off), offset in the kernel
 * parameter buffer (kparam), offset in the per-thread parameter area
 * (param: .func parameters and return values; a call sequence's .param
 * variables are the callee's).  var_off[v] holds that value for every
 * variable the entry can address (UINT64_MAX for shared and local ones its
 * call tree never uses); `.extern .shared` arrays sit at smem_static rounded
 * up to dyn_align (at least 16).  local_bytes and lparam_bytes are rounded
 * up to the largest alignment of what they hold.
 *
 * Operands: immediates are slots holding the value in the instruction's type
 * (16-bit values zero-extended, f32 constants as their bits); special
 * registers are SPECIAL slots (%gridid 64-bit, the rest 32-bit).  A predicate
 * operand written 0 or 1 (NVRTC writes true as -1) is GS_PRED_FALSE / TRUE.
 * LD/ST/ATOM/LDKP address registers may be slots (a variable by name,
 * [sym+off]: the SYM slot, imm = off).  LDKP: ld.param of a kernel
 * parameter by name.  ld.param through a register in an entry is LD with
 * space GS_SP_KPARAM.  CVT sz, nv: the registers' declared widths (2 for
 * .b16 registers, 4, 8).  CVTA of .param: kernel parameters only
 * (GS_SP_KPARAM).  ATOM o[4] is GS_NONE.
 * BRA: f bit 0 .uni (a hint only).  rpc is set for guarded BRA only: the
 * first pc of the immediate post-dominator of the branch's block, -1 where
 * that is the function's exit.  CALL: o[0] the callee's function index, tgt
 * its pc0; a call of the CUDA runtime's __assertfail (assert) is TRAP.  A
 * kernel's `ret` is EXIT.  A function whose last instruction
 * can fall through (or with a label at its end) gets an implicit RET/EXIT,
 * text "ret"/"exit", at the line of its closing brace.
 * SHFL o[5], VOTE o[2], REDUX o[2]: the member mask (a slot of all ones for
 * the forms without .sync).  REDUX sub2: 1 signed.  bar.warp.sync is NOP.
 *
 * gs_ins.cls (the counters' classes):
 *   int      integer and bit arithmetic, logic, shifts, sad, dp4a, integer
 *            comparisons, selp/slct, mov and pack/unpack, predicate logic,
 *            conversions between integers, cvta
 *   fp32     f32 arithmetic, min/max/abs/neg/copysign, f32 comparisons and
 *            testp, conversions from or to f32/f16/bf16 (f64 not involved)
 *   fp64     the same for f64, conversions from or to f64, f64 div/rcp/sqrt
 *            with a rounding mode
 *   sfu      f32 div (every form), rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh;
 *            the f64 approximations (rcp.approx.ftz.f64, rsqrt.approx.f64)
 *   mem      ld, ldu, st, atom, red, of every space (kernel parameters too)
 *   ctrl     bra, call, ret, exit, trap, brkpt
 *   barrier  bar.sync, barrier.sync, bar.red
 *   other    shfl, vote, activemask, redux, clock reads, and the no-ops
 *            (membar, fence, bar.warp.sync, nanosleep, prefetch) */

#endif
