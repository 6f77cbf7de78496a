/* interp.h — the PTX interpreter, one half of the emulated device: it
 * loads PTX into fixed-size instructions, executes a grid warp by warp over
 * the device's memory and counts what ran.  It owns
 *   ptx_lex.c, ptx_decode.c, ptx.c   the loader (ptx_load.h inside it; the
 *                                    decoded form, ptx_int.h, is what the
 *                                    executor and the model's probe read)
 *   exec.c, exec_mem.c, exec_fp.c    the executor (exec_int.h inside it)
 *   mem.c                            the device's memory and the counters
 * It knows nothing of time: a sampled launch hands each executed block to
 * the model's probe (model/probe.c) through the hooks exec_int.h declares.
 *
 * A new instruction: its opcode and operand layout in GS_OPS (ptx_int.h),
 * its parsing in ptx_decode.c, its execution in exec*.c, a case in
 * tests/unit/test_emu_exec.c.  The loader and memory functions the layers
 * above use are declared in dev/emu.h.
 *
 * The pieces meet here:
 *   gs_ptx_load      PTX text  -> a pre-decoded module (or a positioned error)
 *   gs_emu_run       one grid of one entry over the device's memory -> counters
 *
 * Determinism: for one module, one launch and one memory content, gs_emu_run
 * gives the same memory and the same counters whatever `threads` is. */
#ifndef GS_EMU_INTERP_H
#define GS_EMU_INTERP_H

#include <stddef.h>
#include <stdint.h>

#include "dev/emu.h"

/* ---- counters (mem.c) ------------------------------------------------------------ */

/* The instruction classes (enum gs_emu_class) are in dev/emu.h: the
 * profiles give figures per class. */
struct gs_emu_counters {
	uint64_t warp_inst[GS_EMU_NCLASS];   /* dynamic warp instructions issued */
	uint64_t thread_inst[GS_EMU_NCLASS]; /* summed over active threads */
	uint64_t gld_inst, gst_inst;         /* warp-level global loads / stores */
	uint64_t gld_trans, gst_trans;       /* transactions after coalescing (32 B
					      * sectors; g80: the half-warp rules) */
	uint64_t gld_bytes, gst_bytes;       /* bytes moved by those transactions */
	uint64_t atom_inst;                  /* warp-level atomics (global and shared) */
	uint64_t sld_inst, sst_inst;         /* warp-level shared loads / stores */
	uint64_t bank_conflicts;             /* extra shared-memory replays */
	uint64_t lld_inst, lst_inst;         /* local memory (spills, stack arrays) */
	uint64_t cld_inst;                   /* constant-bank loads */
	uint64_t barriers;                   /* bar.sync executed, per warp */
	uint64_t branches;                   /* warp-level conditional branches */
	uint64_t divergent;                  /* of which split the warp */
	uint64_t warps, blocks;              /* launched */
};

void gs_emu_counters_add(struct gs_emu_counters *acc, const struct gs_emu_counters *c);
/* acc += num / den of what each counter grew by from `from` to `to` */
void gs_emu_counters_grow(struct gs_emu_counters *acc, const struct gs_emu_counters *from,
			  const struct gs_emu_counters *to, uint64_t num, uint64_t den);
uint64_t gs_emu_counters_warp_inst(const struct gs_emu_counters *c); /* all classes' */
/* {"warp_inst":{"int":..},"thread_inst":{..},"gld_trans":..} */
char *gs_emu_counters_json(const struct gs_emu_counters *c);

/* ---- the module and the launch --------------------------------------------------- */

/* static .shared bytes an entry uses (its own and its callees'), .local
 * bytes per thread */
size_t gs_ptx_static_smem(const struct gs_ptx_module *m, int entry);
size_t gs_ptx_local_bytes(const struct gs_ptx_module *m, int entry);
/* address and size of a module variable (.global or .const), 0 or -1 */
int gs_ptx_symbol(const struct gs_ptx_module *m, const char *name, uint64_t *addr, uint64_t *size);

/* What a sampled launch observed of one block: model/model.h. */
struct gs_emu_blockstat;

struct gs_emu_launch {
	const struct gs_ptx_module *mod;
	int entry;
	unsigned grid[3], block[3];
	size_t dyn_smem;
	void *const *args;          /* args[i] points at parameter i's bytes */
	const struct gs_emu_profile *prof; /* coalescing and bank rules */
	struct gs_emu_mem *mem;
	int threads;                /* host threads for blocks; <= 1: this thread only */
	volatile int *cancel;       /* stop early when *cancel becomes non-zero (may be NULL) */
	double deadline;            /* stop once gs_now() passes it (GS_EMU_EXPIRED, or
				     * GS_EMU_HANG where a block was seen to loop for
				     * ever); 0: never */
	uint64_t host_bytes;        /* the most host memory the blocks' state (shared,
				     * local memory, registers) may take: fewer host
				     * threads run blocks, or none (GS_EMU_NOMEM); 0: no
				     * limit */
	/* a sampled launch: only these blocks (linear indices) run, each
	 * observed by the model's probe (model/probe.c) into stats[i]; the L1
	 * each sees is l1_bytes large */
	const uint64_t *only;
	size_t nonly;
	struct gs_emu_blockstat *stats;
	int l1_bytes;
	int blocks_per_sm;          /* resident with it: the issue that covers its latency */
	/* per LDG of the entry's machine code, in code order, the global loads
	 * a warp keeps in flight with it (model/sass.c); the probe pairs them with
	 * the entry's ld.global when there are as many.  NULL: as the PTX
	 * allows */
	const uint8_t *load_window;
	size_t nload_window;
	/* the entry's machine code: its bytes and its longest loop's (model/sass.c);
	 * text_bytes 0: not known */
	size_t text_bytes, sass_loop_bytes;
	/* its forward BRAs and predicated EXITs (model/sass.c), where
	 * text_bytes is known */
	size_t sass_fwd;
	/* the cycles between a warp's issues its machine code asks
	 * (model/sass.c); 0: not known, one a cycle */
	double sass_gap;
	/* the widest shared load of the machine code, in bytes (model/sass.c):
	 * 8 or 16 where ptxas merged scalar ones (model/ldsvec.c); 0: none */
	unsigned lds_bytes;
	/* a sampled launch skips most iterations of long loops once they
	 * repeat (exec_loops.c), where that saves a warp at least this many
	 * instructions (GS_EMU_LOOP_MIN); 0: every iteration runs */
	uint64_t loops;
};

/* Skipped iterations are timed at the rate of the few watched: a loop
 * short enough to take the emulator little time runs whole, its time
 * exactly as without loop sampling. */
#define GS_EMU_LOOP_MIN (1u << 15)

enum {
	GS_EMU_OK = 0,
	GS_EMU_FAULT = -1,       /* out of bounds, misaligned, trap: outcome crash */
	GS_EMU_UNSUPPORTED = -2, /* an instruction the interpreter does not execute */
	GS_EMU_BADLAUNCH = -3,   /* bad geometry or arguments */
	GS_EMU_CANCELED = -4,    /* *launch->cancel became non-zero */
	GS_EMU_NOMEM = -5,       /* one block's state does not fit host_bytes */
	GS_EMU_EXPIRED = -6,     /* past launch->deadline, still making progress */
	GS_EMU_HANG = -7,        /* past it, and a block repeats its state: it never ends */
};

/* Run the grid.  Counters are zeroed first.  A fault names the PTX line,
 * the instruction and the address: "emulator: out-of-bounds st.global.f32
 * at line 87: address 0x10001000 (block (3,0,0) thread (5,0,0))". */
int gs_emu_run(const struct gs_emu_launch *l, struct gs_emu_counters *c, char *err, size_t errlen);


#endif
