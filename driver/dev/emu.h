/* emu.h — the emulated device as the layers above dev/ see it: its
 * profiles and their occupancy rules (`gsearch devices`, `occupancy`,
 * `run`), the timing model's revision (part of a sweep's identity,
 * sched/ident.c) and the PTX reader that tells an entry's parameters
 * (run's argument check).  Nothing above dev/ includes dev/emu/.
 *
 * The device itself lives in dev/emu/, in two halves and their glue:
 *   dev/emu/interp/  the PTX interpreter: loads PTX, executes grids, counts
 *                    (interp/interp.h; a new instruction goes there)
 *   dev/emu/model/   the performance model: turns what a launch executed
 *                    into time (model/model.h; DRAM, caches, pipes there)
 *   dev/emu/dev.c    the gs_dev_ops vtable (dev/dev.h) over both
 *   dev/emu/profile.c, profiles_embed.c, occupancy.c
 *                    the profiles and occupancy declared here, which both
 *                    halves read
 *
 * The profiles are owned by profile.c (loaded once, never freed); a loaded
 * PTX module belongs to its caller (gs_ptx_free), as does a gs_emu_mem
 * (gs_emu_mem_release). */
#ifndef GS_DEV_EMU_H
#define GS_DEV_EMU_H

#include <stddef.h>
#include <stdint.h>

/* The timing model's revision: part of a modeled result's identity
 * (sched/ident.c), so that a sweep never reuses times an older model made.
 * Change it with any change that moves modeled times (dev/emu/model/, and
 * the probe's operand layouts in dev/emu/interp/ptx_int.h, loop sampling in
 * dev/emu/interp/exec_loops.c). */
#define GS_EMU_MODEL_REV "interval-30"

/* A modeled result's confidence (`model_confidence`, 0 to 1): one less the
 * share of its time in terms the model knows it approximates
 * (dev/emu/model/confidence.c), told in three words: "high" from
 * GS_EMU_CONF_HIGH, "low" below GS_EMU_CONF_LOW, "medium" between. */
#define GS_EMU_CONF_HIGH 0.9
#define GS_EMU_CONF_LOW 0.5
static inline const char *gs_emu_confidence_level(double confidence)
{
	return confidence >= GS_EMU_CONF_HIGH ? "high"
	       : confidence >= GS_EMU_CONF_LOW ? "medium"
					       : "low";
}

/* ---- profiles (profile.c) ---------------------------------------------------- */

/* Instruction classes: the decoder sorts every instruction into one, the
 * counters count by them, the profiles give issue costs and latencies per
 * class (exec.c names them). */
enum gs_emu_class {
	GS_EMU_INT, GS_EMU_FP32, GS_EMU_FP64, GS_EMU_SFU, GS_EMU_MEM, GS_EMU_CTRL,
	GS_EMU_BARRIER, GS_EMU_OTHER, GS_EMU_NCLASS
};
extern const char *const gs_emu_class_names[GS_EMU_NCLASS]; /* "int", "fp32", ... */

/* The DRAM latency's percentiles a profile may give (model/spread.c). */
#define GS_EMU_SPREAD_Q 8

enum gs_emu_coalesce {
	GS_EMU_COALESCE_CC10, /* compute 1.0/1.1: per half-warp, thread k must access word k
			       * of an aligned segment, else one transaction per thread */
	GS_EMU_COALESCE_SECTORS, /* compute >= 2.0: distinct 32-byte sectors per warp */
};

enum gs_emu_model_kind {
	GS_EMU_MODEL_MWP,      /* Hong & Kim's MWP-CWP model at the emulator sizes (model/mwp.c) */
	GS_EMU_MODEL_INTERVAL, /* the interval model at the real sizes (model/interval.c) */
};

/* Where a profile's figure comes from, as the source tag of its line's
 * comment says (profiles/README.md): measured on the GPU by a
 * microbenchmark, a vendor's datasheet or a paper, an estimate, or none
 * named. */
enum gs_emu_source { GS_EMU_SRC_NONE, GS_EMU_SRC_MEASURED, GS_EMU_SRC_DATASHEET,
		     GS_EMU_SRC_ESTIMATE, GS_EMU_NSRC };

/* A device profile: read from profiles/NAME.profile (profiles/README.md
 * lists the keys and their sources), or from the copy compiled in. */
#define GS_EMU_CONST_W 6
struct gs_emu_profile {
	char name[32];           /* "g80", "gf100", "sm_80", "sm_90" */
	char gpu[64];            /* "GeForce 8800 GTX" */
	int cc_major, cc_minor;
	char arch[16];           /* the NVRTC target the variants compile for: "sm_75" for
				  * profiles older than NVRTC supports, else their own */
	enum gs_emu_model_kind model;
	int sample_blocks;       /* default blocks executed per launch at the real size;
				  * 0: time at the emulator size */
	int sample_warps;        /* ... but past GS_EMU_SAMPLE_MIN blocks, no more blocks
				  * than hold this many warps; 0: no such cap */
	int sms;
	double clock_mhz;        /* shader clock */
	double mem_bw_gbs;       /* DRAM bandwidth, GB/s, the specification's */
	double dram_bw_gbs;      /* what streaming kernels reach (interval model) */
	int global_mem_mb;       /* device memory, MiB: what the emulated device lets a
				  * sweep allocate (dev.c); 0: only the host's cap */
	int dram_servers;        /* servers of DRAM's queue in the loaded-latency
				  * model (model/interval.c); 0: one, an M/M/1 queue */
	double dram_spread[8];   /* DRAM latency / its mean at the 5, 10, 25, 50, 75, 90, 95
				  * and 99th percentiles (spread.c); 0: every access the mean */
	int warp_size;
	int max_threads_block, max_threads_sm, max_blocks_sm, max_warps_sm;
	int regs_sm, regs_block, max_regs_thread;
	int reg_alloc_unit;      /* registers per allocation granule */
	int reg_alloc_by_block;  /* 1: granule is per block (g80), 0: per warp */
	int warp_alloc_gran;     /* warps are allocated in multiples of this (g80: 2) */
	int smem_sm, smem_block, smem_alloc_unit, smem_reserved_block;
	int banks;               /* shared-memory banks: 16 (per half-warp) or 32 */
	enum gs_emu_coalesce coalesce;
	/* timing model constants, in shader cycles (model/mwp.c says how each is used) */
	double mem_latency;      /* DRAM round trip */
	double departure_delay;  /* cycles between two memory warps leaving when each is one
				  * coalesced request (Hong & Kim's Departure_del_coal) */
	double departure_delay_uncoal; /* cycles between two transactions of one uncoalesced
					* warp leaving (Departure_del_uncoal) */
	double issue_cycles[8];  /* cycles of an SM's pipe for one warp instruction, per class */
	double barrier_cycles;   /* cost of one bar.sync per warp */
	double launch_overhead_us;
	double block_launch_cycles; /* SM cycles the block scheduler takes per block ... */
	double warp_launch_cycles;  /* ... and per warp of it (interval model); 0: no such term */
	/* the interval model (model/interval.c says how each is used) */
	int subpartitions;       /* warp schedulers per SM */
	double issue_per_sub;    /* warp instructions a scheduler issues per clock */
	double int_fma_lanes;    /* integer lanes per SM the FMA pipe lends (model/pipes.c); 0: none */
	double lat[8];           /* dependent-issue latency per class; lat[GS_EMU_MEM] unused */
	double lat_smem, lat_l1, lat_l2; /* load-to-use: shared, L1 hit, L2 hit */
	double lat_idiv32, lat_idiv64; /* integer division or remainder by a register, which
					* ptxas expands (model/probe.c); 0: lat.int */
	int l1_bytes, l1_line, l1_assoc; /* L1 and shared memory together, per SM */
	double l1_bw;            /* L1 bytes per clock per SM */
	double l1_wave_cycles;   /* SM cycles per wavefront of a warp load in the L1's data
				  * banks (model/probe.c, interval.c); 0: no such term */
	double l1_split_cycles;  /* SM cycles more for a warp load of one wavefront whose
				  * words straddle two adjacent lines; 0: none */
	double l1_wave_lines;    /* distinct 128-byte lines one wavefront serves at most;
				  * 0: no limit, the sectors at l1_bw instead */
	double l2_bytes, l2_bw_gbs;
	/* instruction fetch (model/icache.c); 0: not known, no such term */
	double fetch_l0_bytes;   /* a scheduler's instruction cache */
	double fetch_l1_bytes;   /* the SM's next level */
	double fetch_bytes_per_ins; /* code bytes per PTX instruction */
	double fetch_l1[4], fetch_l2[4]; /* cycles more per instruction past each, at 1, 4, 8
					  * and 16 warps per scheduler */
	double partial_write_ns; /* the L2's time for a sector a warp's store writes only in
				  * part, one after another GPU-wide (model/interval.c);
				  * 0: no such term */
	double partial_line1, partial_line2; /* a partial sector's cost where it is alone in
				  * its line, or one of two, against four a line
				  * (model/probe.c); 0: alike */
	double local_st_ns;      /* an SM's time for a warp's store of local memory, which the
				  * L1 writes through to the L2 (model/interval.c); 0: no
				  * such term */
	double local_far_ns;     /* an SM's time for a warp's access of local memory once
				  * the resident threads' frames outgrow the L2 */
	double phase_exposed;    /* the share of what in-step phases would add to the ports
				  * that the SM leaves exposed (model/probe.c, interval.c);
				  * 0: no such term */
	/* what the text says of the figures above, none of it a figure */
	char hash[33];           /* of gs_emu_profile_canon: part of a modeled result's
				  * identity, blind to comments and layout */
	int facts;               /* the facts given (not the names and the emulator's
				  * settings), and how many of each source */
	int by_source[GS_EMU_NSRC];
	/* constant-cache serialization (model/probe.c): SM cycles per warp load
	 * of 1, 2, 4, 8, 16 and 32 distinct words; 0: not known, no such term */
	double const_cycles[GS_EMU_CONST_W];
	/* warp shuffles (model/probe.c): dependent-issue latency and SM cycles per
	 * warp shuffle on their own port; 0: as the class "other" */
	double lat_shfl, shfl_cycles;
	double lat_bits;         /* popc, clz, brev, bfind: their latency, and where > 0 they
				  * issue on the SFU's pipe, not the integer one (model/probe.c) */
	/* global atomics (model/interval.c): ns the L2 takes per warp request on
	 * one sector, requests on a sector served one after another; 0: none */
	double atom_sector_ns;
};
#define GS_EMU_FETCH_W 4

/* The profiles: NULL-terminated, in a fixed order (the compiled-in ones,
 * then others found in the profile directory, by name).  Loaded on first
 * use from $GSEARCH_PROFILES, else profiles/ beside the binary's build
 * tree (build/gsearch -> profiles/) or ../share/gsearch/profiles, else
 * from the copies compiled in.  A file that cannot be read or does not
 * parse is no profile: gs_emu_profile_error says why. */
const struct gs_emu_profile *const *gs_emu_profile_list(void);
/* the largest profile file read */
#define GS_EMU_PROFILE_MAX ((size_t)1 << 20)
#define GS_EMU_PROFILE_MAX_TEXT "1 MiB"
#define gs_emu_profiles (gs_emu_profile_list())
const struct gs_emu_profile *gs_emu_profile_find(const char *name);
/* Why the profile NAME's file could not be used ("PATH:LINE: message"), or
 * NULL when it could or there is none.  gs_emu_profile_find never returns
 * a profile whose file failed (its compiled-in copy stays in the list, so
 * that ordinals do not move); every command that takes an emulated device
 * says this and ends with a usage error. */
const char *gs_emu_profile_error(const char *name);
/* Every such message, one a line ("" when none): `gsearch devices`. */
const char *gs_emu_profile_errors(void);
/* Parse one profile's text: 0, or -1 with "LINE: message" (" message" for
 * the text as a whole, such as a key missing) in err.  Every number is
 * checked against its key's range (profiles/README.md). */
int gs_emu_profile_parse(const char *text, struct gs_emu_profile *p, char *err, size_t errlen);
/* The canonical text of a parsed profile: one "key=value" line per figure
 * that is not 0, in a fixed order, numbers as %.17g prints them.  Comments,
 * blanks, the order of the lines and spellings such as 1e3 for 1000 change
 * nothing.  Allocated; the caller frees it. */
char *gs_emu_profile_canon(const struct gs_emu_profile *p);
/* One line of where its facts come from, without a newline: "profile sm_80:
 * 0 of 51 facts measured on hardware, 33 from datasheets, 18 estimated", and
 * ", N without a source" when some have none. */
void gs_emu_profile_sources(const struct gs_emu_profile *p, char *out, size_t n);

/* ---- occupancy (occupancy.c) ------------------------------------------------- */

/* A limit that does not bind at all (no registers, no shared memory). */
#define GS_EMU_OCC_NOLIMIT 0x7fffffff

/* Bits of gs_emu_occ.limiters. */
enum {
	GS_EMU_LIM_THREADS = 1, /* warp slots */
	GS_EMU_LIM_BLOCKS = 2,  /* block slots */
	GS_EMU_LIM_REGS = 4,
	GS_EMU_LIM_SMEM = 8,
};

struct gs_emu_occ {
	int blocks_per_sm;       /* 0: the block cannot run at all */
	int active_threads;      /* per SM */
	int active_warps;
	double occupancy;        /* active warps / most warps per SM */
	char limiter[16];        /* "threads", "blocks", "registers", "smem", "warps" */
	int by_threads, by_blocks, by_regs, by_smem; /* each limit on its own
						      * (GS_EMU_OCC_NOLIMIT: none) */
	int limiters;            /* every limit equal to blocks_per_sm (GS_EMU_LIM_*); limiter
				  * names the first of threads, blocks, registers, smem */
	int block_warps;         /* warps of one block */
	int block_regs;          /* registers allocated to one block, after the granules */
	int block_smem;          /* shared memory allocated to one block, reserve included */
};

/* 0, or -1 with a reason in why (block larger than the device allows, too
 * many registers or too much shared memory for one block). */
int gs_emu_occupancy(const struct gs_emu_profile *p, int block_threads, int regs_per_thread,
		     int smem_per_block, struct gs_emu_occ *o, char *why, size_t whylen);

/* ---- the PTX reader (interp/ptx.c, interp/mem.c) -------------------------------- */

/* The device's global memory: allocations at fixed addresses (sorted by
 * base, never overlapping, with unmapped gaps between them so that running
 * off the end of one faults). */
struct gs_emu_alloc {
	uint64_t base, size;
	unsigned char *host;
};
struct gs_emu_mem {
	struct gs_emu_alloc *a;
	size_t n, cap;
	uint64_t next;  /* next free address */
	uint64_t used;  /* bytes allocated */
	uint64_t limit; /* the most bytes allocated at once; 0: no limit */
};
/* 0, -1 (the host is out of memory) or -2 (past m->limit). */
int gs_emu_mem_alloc(struct gs_emu_mem *m, uint64_t size, uint64_t *addr);
int gs_emu_mem_free(struct gs_emu_mem *m, uint64_t addr);
/* host pointer for [addr, addr+n) when it lies inside one allocation, else NULL */
unsigned char *gs_emu_mem_ptr(const struct gs_emu_mem *m, uint64_t addr, uint64_t n);
void gs_emu_mem_release(struct gs_emu_mem *m);

struct gs_ptx_module;

/* Parse and pre-decode PTX text.  Module variables (.global, .const with
 * their initializers) are allocated in `mem`.  NULL with "emulator: ...
 * at line N" in err for what the interpreter does not support or cannot
 * parse. */
struct gs_ptx_module *gs_ptx_load(const char *text, size_t len, struct gs_emu_mem *mem, char *err,
				  size_t errlen);
void gs_ptx_free(struct gs_ptx_module *m, struct gs_emu_mem *mem);
/* index of the .entry named `name`, or -1 */
int gs_ptx_entry(const struct gs_ptx_module *m, const char *name);
/* parameter sizes of an entry (bytes each), returns their count */
size_t gs_ptx_params(const struct gs_ptx_module *m, int entry, const size_t **sizes);
/* What an entry's parameter i is declared as: its PTX type (".u64",
 * ".f32"; the element type of an array), its size in bytes, whether the
 * type is a float or a signed/unsigned integer (neither: a .bN bit type),
 * `.ptr` (a pointer, where the compiler says so) and `[N]` (an aggregate
 * passed by value).  0, or -1 if there is no such parameter. */
struct gs_ptx_param {
	const char *type;
	size_t size;
	int is_float, is_int, is_ptr, is_array;
};
int gs_ptx_param(const struct gs_ptx_module *m, int entry, size_t i, struct gs_ptx_param *out);

#endif
