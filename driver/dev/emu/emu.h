/* emu.h — the emulated device: a PTX interpreter (ptx.c, exec.c), device
 * profiles and occupancy (profile.c), and an analytical timing model
 * (model.c).  dev/emu/dev.c wraps them in the gs_dev_ops vtable.
 *
 * The pieces meet here:
 *   gs_ptx_load      PTX text  -> a pre-decoded module (or a positioned error)
 *   gs_emu_run       one grid of one entry over the device's memory -> counters
 *   gs_emu_occupancy blocks per SM and the limiter, by the profile's rules
 *   gs_emu_model     counters + geometry + occupancy + profile -> cycles, ms
 *
 * Determinism: for one module, one launch and one memory content, gs_emu_run
 * gives the same memory and the same counters whatever `threads` is. */
#ifndef GS_EMU_H
#define GS_EMU_H

#include <stddef.h>
#include <stdint.h>

/* The timing model's revision: part of a modeled result's identity
 * (sched/ident.c), so that a sweep never reuses times an older model made.
 * Change it with any change that moves modeled times. */
#define GS_EMU_MODEL_REV "interval-8"

/* The tag of a written sector in a block's footprint (sector numbers are
 * addresses >> 5, so the top bit is free). */
#define GS_EMU_SECTOR_WRITTEN (1ull << 63)

/* ---- profiles -------------------------------------------------------------- */

enum gs_emu_coalesce {
	GS_EMU_COALESCE_CC10, /* compute 1.0/1.1: per half-warp, thread k must access word k
			       * of an aligned segment, else one transaction per thread */
	GS_EMU_COALESCE_SECTORS, /* compute >= 2.0: distinct 32-byte sectors per warp */
};

enum gs_emu_model_kind {
	GS_EMU_MODEL_MWP,      /* Hong & Kim's MWP-CWP model at the emulator sizes (model.c) */
	GS_EMU_MODEL_INTERVAL, /* the interval model at the real sizes (interval.c) */
};

/* A device profile: read from profiles/NAME.profile (profiles/README.md
 * lists the keys and their sources), or from the copy compiled in. */
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
	int dram_servers;        /* servers of DRAM's queue in the loaded-latency
				  * model (interval.c); 0: one, an M/M/1 queue */
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
	/* timing model constants, in shader cycles (model.c says how each is used) */
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
	/* the interval model (interval.c says how each is used) */
	int subpartitions;       /* warp schedulers per SM */
	double issue_per_sub;    /* warp instructions a scheduler issues per clock */
	double int_fma_lanes;    /* integer lanes per SM the FMA pipe lends (pipes.c); 0: none */
	double lat[8];           /* dependent-issue latency per class; lat[GS_EMU_MEM] unused */
	double lat_smem, lat_l1, lat_l2; /* load-to-use: shared, L1 hit, L2 hit */
	double lat_idiv32, lat_idiv64; /* integer division or remainder by a register, which
					* ptxas expands (probe.c); 0: lat.int */
	int l1_bytes, l1_line, l1_assoc; /* L1 and shared memory together, per SM */
	double l1_bw;            /* L1 bytes per clock per SM */
	double l2_bytes, l2_bw_gbs;
	/* instruction fetch (icache.c); 0: not known, no such term */
	double fetch_l0_bytes;   /* a scheduler's instruction cache */
	double fetch_l1_bytes;   /* the SM's next level */
	double fetch_bytes_per_ins; /* code bytes per PTX instruction */
	double fetch_l1[4], fetch_l2[4]; /* cycles more per instruction past each, at 1, 4, 8
					  * and 16 warps per scheduler */
};
#define GS_EMU_FETCH_W 4

/* spread.c: the DRAM latency's spread.  GS_EMU_SPREAD_N equally likely
 * weights of a miss's DRAM latency, averaging 1; 0 when the profile gives
 * no spread (tab untouched). */
#define GS_EMU_SPREAD_Q 8
#define GS_EMU_SPREAD_BITS 10
#define GS_EMU_SPREAD_N (1 << GS_EMU_SPREAD_BITS)
int gs_emu_spread_table(const struct gs_emu_profile *p, double *tab);
/* A DRAM access's latency beyond an L2 hit's (interval model: the chains
 * count misses at lat.l2 and add this per miss that DRAM serves); 0 when
 * the profile has DRAM no slower than L2. */
static inline double gs_emu_dram_beyond_l2(const struct gs_emu_profile *p)
{
	return p->mem_latency > p->lat_l2 ? p->mem_latency - p->lat_l2 : 0;
}
/* One of the table's weights, chosen by a hash of key. */
double gs_emu_spread_draw(const double *tab, uint64_t key);

/* The profiles: NULL-terminated, in a fixed order (the compiled-in ones,
 * then others found in the profile directory, by name).  Loaded on first
 * use from $GSEARCH_PROFILES, else profiles/ beside the binary's build
 * tree (build/gsearch -> profiles/) or ../share/gsearch/profiles, else
 * from the copies compiled in.  A file that does not parse is reported on
 * stderr ("profiles/sm_90.profile:12: error: ...") and its compiled-in
 * copy is used instead. */
const struct gs_emu_profile *const *gs_emu_profile_list(void);
#define gs_emu_profiles (gs_emu_profile_list())
const struct gs_emu_profile *gs_emu_profile_find(const char *name);
/* Parse one profile's text: 0, or -1 with "LINE: message" in err. */
int gs_emu_profile_parse(const char *text, struct gs_emu_profile *p, char *err, size_t errlen);

/* ---- occupancy --------------------------------------------------------------- */

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

/* ---- counters ------------------------------------------------------------------ */

enum gs_emu_class {
	GS_EMU_INT, GS_EMU_FP32, GS_EMU_FP64, GS_EMU_SFU, GS_EMU_MEM, GS_EMU_CTRL,
	GS_EMU_BARRIER, GS_EMU_OTHER, GS_EMU_NCLASS
};
extern const char *const gs_emu_class_names[GS_EMU_NCLASS]; /* "int", "fp32", ... */

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
/* {"warp_inst":{"int":..},"thread_inst":{..},"gld_trans":..} */
char *gs_emu_counters_json(const struct gs_emu_counters *c);

/* ---- the interpreter ------------------------------------------------------------- */

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
	uint64_t next; /* next free address */
};
/* 0 or -1 (out of memory). */
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
/* static .shared bytes an entry uses (its own and its callees'), .local
 * bytes per thread */
size_t gs_ptx_static_smem(const struct gs_ptx_module *m, int entry);
/* address and size of a module variable (.global or .const), 0 or -1 */
int gs_ptx_symbol(const struct gs_ptx_module *m, const char *name, uint64_t *addr, uint64_t *size);

/* What one executed block of a sampled launch saw (probe.c): its counters,
 * its warps' dependency chains and its global accesses through a private
 * L1.  Owned by the caller of gs_emu_run; release with
 * gs_emu_blockstat_release. */
struct gs_emu_blockstat {
	struct gs_emu_counters c;
	double chain;            /* cycles of the block's longest warp, issued in order with
				  * every result waiting for its inputs (L1 misses at lat.l2) */
	double chain_misses;     /* L1-missing loads on that longest path, each weighted by
				  * its DRAM latency's draw (spread.c; 1 without a spread) */
	double exposed;          /* cycles of latency that blocks_per_sm blocks' issue does not
				  * cover, summed over the block's barrier intervals */
	uint64_t l1_hit, l1_miss; /* 32-byte sectors of global and local loads */
	uint64_t st_sectors;     /* sectors stored (written through to L2) */
	uint64_t *sectors;       /* distinct sectors touched, sorted; a written
				  * one is listed apart, with GS_EMU_SECTOR_WRITTEN:
				  * it goes back to DRAM as well as coming from it */
	size_t nsectors;
	uint32_t loop_ins;       /* PTX instructions from the first to the last that some warp
				  * issued again (the loops' span) */
	double loop_share;       /* their share of the block's issued warp instructions */
	double xinst[GS_EMU_NCLASS]; /* warp instructions ptxas's expansions of the PTX add,
				      * per class (integer division, probe.c) */
	double win_sum;          /* the load windows (probe.c) of the global loads its warps */
	uint64_t win_loads;      /* issued, and how many (0 when no windows were known) */
};
void gs_emu_blockstat_release(struct gs_emu_blockstat *b);

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
	/* a sampled launch: only these blocks (linear indices) run, each
	 * observed into stats[i]; the L1 each sees is l1_bytes large */
	const uint64_t *only;
	size_t nonly;
	struct gs_emu_blockstat *stats;
	int l1_bytes;
	int blocks_per_sm;          /* resident with it: the issue that covers its latency */
	/* per LDG of the entry's machine code, in code order, the global loads
	 * a warp keeps in flight with it (sass.c); the probe pairs them with
	 * the entry's ld.global when there are as many.  NULL: as the PTX
	 * allows */
	const uint8_t *load_window;
	size_t nload_window;
};

enum {
	GS_EMU_OK = 0,
	GS_EMU_FAULT = -1,       /* out of bounds, misaligned, trap: outcome crash */
	GS_EMU_UNSUPPORTED = -2, /* an instruction the interpreter does not execute */
	GS_EMU_BADLAUNCH = -3,   /* bad geometry or arguments */
	GS_EMU_CANCELED = -4,    /* *launch->cancel became non-zero */
};

/* Run the grid.  Counters are zeroed first.  A fault names the PTX line,
 * the instruction and the address: "emulator: out-of-bounds st.global.f32
 * at line 87: address 0x10001000 (block (3,0,0) thread (5,0,0))". */
int gs_emu_run(const struct gs_emu_launch *l, struct gs_emu_counters *c, char *err, size_t errlen);

/* ---- sampled launches ------------------------------------------------------------ */

/* Choose at most n blocks of the grid (sample.c): idx[] their linear
 * indices, weight[] how many blocks of the grid each stands for (the
 * weights sum to the grid's blocks).  Returns how many were chosen. */
size_t gs_emu_sample(const unsigned grid[3], size_t n, uint64_t *idx, double *weight);

/* The blocks a launch samples: at most `blocks`, and, past GS_EMU_SAMPLE_MIN,
 * no more than hold the profile's sample_warps warps. */
enum { GS_EMU_SAMPLE_MIN = 8 };
size_t gs_emu_sample_size(const struct gs_emu_profile *p, int blocks, unsigned block_threads);

/* The cycles an SM's pipes take for warp instructions of each class: the
 * busiest pipe, integer work spread over the ALU and the FMA pipe where the
 * profile says so (pipes.c).  *pipe, where not NULL, is the class that
 * bound it. */
double gs_emu_pipe_cycles(const struct gs_emu_profile *p, const double inst[GS_EMU_NCLASS],
			  int *pipe);

/* sass.c: per LDG of the code, in address order, the most global loads in
 * flight while it is (its window, 1 to 255).  -1 for an architecture whose
 * encoding is not known here; 0 otherwise, *win malloc'd (NULL when the code
 * has no LDG). */
int gs_emu_sass_windows(const unsigned char *code, size_t len, int arch, uint8_t **win,
			size_t *nwin);
/* The same for `entry` of a cubin. */
int gs_emu_cubin_windows(const void *cubin, size_t len, const char *entry, uint8_t **win,
			 size_t *nwin);

/* Cycles a scheduler loses per instruction of a loop of loop_bytes of code
 * to instruction fetch, with warps_per_sched warps on it (icache.c). */
double gs_emu_fetch_excess(const struct gs_emu_profile *p, double loop_bytes,
			   double warps_per_sched);

/* The interval model's time for one launch (interval.c), from the sampled
 * blocks' observations.  out->ms includes the launch overhead. */
struct gs_emu_interval {
	double ms, cycles;
	double t_sm, t_l2, t_dram;  /* cycles: the busiest SM's waves, L2 and DRAM traffic */
	double per_block_issue;     /* SM cycles one block's instructions take on the pipes */
	double per_block_chain;     /* its longest dependency chain, DRAM latency included */
	double per_block_exposed;   /* latency its barrier intervals leave uncovered */
	double per_block_fetch;     /* issue cycles instruction fetch adds (icache.c) */
	double loop_bytes;          /* the code its loops cycle through */
	double l1_hit, l2_hit;      /* hit rates of loads */
	double l2_bytes, dram_bytes;
	int waves, blocks_per_sm;
	double load_window;         /* the global loads ptxas's code keeps in flight with
				     * each issued one, on average (sass.c; 16: as many
				     * as the PTX allows), 0: not known */
	char bound[16];             /* "issue", "fp32", ..., "smem", "l1", "launch", "fetch",
				     * "latency", "l2", "dram", "dram latency" */
};
int gs_emu_interval_model(const struct gs_emu_profile *p, const unsigned grid[3],
			  const unsigned block[3], const struct gs_emu_occ *occ,
			  const struct gs_emu_blockstat *st, const double *weight, size_t n,
			  const double *cap, struct gs_emu_interval *out);

/* ---- the timing model --------------------------------------------------------------- */

struct gs_emu_geom {
	unsigned grid[3], block[3];
	int regs_per_thread;
	int smem_per_block;
};

struct gs_emu_model_out {
	double cycles;           /* per SM, for the whole grid */
	double ms;               /* cycles at the profile's clock, plus launch overhead */
	double mwp, cwp;         /* memory / computation warp parallelism */
	int rep;                 /* waves of blocks per SM */
	/* Ryoo et al. (CGO 2008) */
	double efficiency;       /* 1 / (instructions per thread x threads) */
	double utilization;      /* instructions per region x warps available to hide a stall */
	char bound[16];          /* "memory", "compute", "latency" */
	/* the model's intermediate figures, per warp of a full wave (see model.c) */
	int active_warps;        /* N */
	double comp_cycles, mem_cycles, mem_l, dep_delay, sync_cycles;
};

/* 0, or -1 when the block cannot be resident (occupancy 0). */
int gs_emu_model(const struct gs_emu_profile *p, const struct gs_emu_counters *c,
		 const struct gs_emu_geom *g, const struct gs_emu_occ *occ,
		 struct gs_emu_model_out *out);

#endif
