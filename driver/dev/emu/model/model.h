/* model.h — the performance model, the other half of the emulated device:
 * from what the interpreter executed (its counters, and for a sampled
 * launch what the probe saw of each block) to a launch's time on the
 * profile's GPU.  It owns
 *   interval.c   the interval model at the real sizes (sm_80 and later):
 *                issue per pipe, latency, L2 and DRAM traffic, waves
 *   probe.c      the observer of a sampled launch's blocks (dependency
 *                chains, a private L1, the sectors touched), called from
 *                the executor through the hooks of interp/exec_int.h
 *   sample.c     which blocks a sampled launch executes, and their weights
 *   spread.c     the DRAM latency's spread
 *   pipes.c      the cycles of an SM's pipes per instruction class
 *   icache.c     what instruction fetch adds to a loop's issue
 *   sass.c       the loads ptxas keeps in flight, read from the machine code
 *   confidence.c the share of a launch's time in terms the model approximates
 *   mwp.c        Hong & Kim's MWP-CWP model: the time of the profiles whose
 *                model is mwp-cwp (g80, gf100) and of any launch timed at
 *                the emulator size (--emu, --emu-sample 0)
 * The DRAM model is in interval.c (bandwidth, the loaded-latency queue),
 * probe.c (misses on a chain) and spread.c; the profile's figures are
 * declared in dev/emu.h and read from profiles/NAME.profile.  Any change
 * that moves a modeled time changes GS_EMU_MODEL_REV (dev/emu.h).
 *
 * The pieces meet here:
 *   gs_emu_interval_model  sampled blocks' observations + occupancy -> cycles, ms
 *   gs_emu_model           counters + geometry + occupancy -> cycles, ms (MWP-CWP) */
#ifndef GS_EMU_MODEL_H
#define GS_EMU_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "dev/emu.h"
#include "dev/emu/interp/interp.h"

/* A sector global atomics touched, and how many warp requests touched it. */
struct gs_emu_atomsec {
	uint64_t sector, requests;
};

/* The tag of a written sector in a block's footprint (sector numbers are
 * addresses >> 5, so the top bit is free). */
#define GS_EMU_SECTOR_WRITTEN (1ull << 63)

/* spread.c: the DRAM latency's spread.  GS_EMU_SPREAD_N equally likely
 * weights of a miss's DRAM latency, averaging 1; 0 when the profile gives
 * no spread (tab untouched). */
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
	uint64_t l1_waves;       /* the L1 wavefronts of those loads, counted as shared
				  * memory's (0 without the profile's l1_wave_cycles) */
	uint64_t l1_split;       /* of those, wavefronts whose words straddle two adjacent
				  * lines (l1_split_cycles) */
	uint64_t refetch;        /* loads of a sector its warp loaded before that the L2 has
				  * lost meanwhile, the GPU's warps loading in step (reuse.c) */
	uint64_t st_sectors;     /* sectors stored (written through to L2) */
	uint64_t st_partial;     /* of those, sectors a warp's store wrote only in part */
	uint64_t st_partial_w;   /* their cost in hundredths of a sector four a line (probe.c) */
	uint64_t local_frame;    /* bytes of local memory a thread (the PTX's frame) */
	uint64_t *sectors;       /* distinct sectors touched, sorted; a written
				  * one is listed apart, with GS_EMU_SECTOR_WRITTEN:
				  * it goes back to DRAM as well as coming from it */
	size_t nsectors;
	uint32_t loop_ins;       /* PTX instructions from the first to the last that some warp
				  * issued again (the loops' span) */
	double loop_share;       /* their share of the block's issued warp instructions */
	double phase_excess;     /* SM cycles the ports would take beyond the busiest one's
				  * total were the warps in step through the block's
				  * phases (probe.c) */
	double code_bytes;       /* the machine code the warps stream through, where the
				  * cubin says (sass.c): its longest loop, or all of it
				  * where ptxas left no loop (loop_share is then 1); 0:
				  * loop_ins PTX instructions at fetch.bytes_per_ins */
	double xinst[GS_EMU_NCLASS]; /* warp instructions ptxas's expansions of the PTX add,
				      * per class (integer division, probe.c) */
	double const_cycles;     /* SM cycles of the constant cache's serialization (probe.c) */
	uint64_t const_uniform;  /* constant loads of one word a warp: issued, not on the LSU */
	uint64_t shuffles;       /* warp shuffles (where the profile gives lat.shfl) */
	double smem_merged;      /* shared-memory wavefronts runs of loads ptxas merged
				  * save (ldsvec.c); their instructions are in xinst */
	struct gs_emu_atomsec *atom; /* the sectors global atomics touched, sorted, each
				      * with its warp requests; malloc'd */
	size_t natom;
	double win_sum;          /* the load windows (probe.c) of the global loads its warps */
	uint64_t win_loads;      /* issued, and how many (0 when no windows were known) */
	uint64_t loop_skipped;   /* loop iterations its warps skipped (interp/exec_loops.c) */
};
void gs_emu_blockstat_release(struct gs_emu_blockstat *b);

/* ---- sampled launches ------------------------------------------------------------ */

/* Choose at most n blocks of the grid (sample.c): idx[] their linear
 * indices, weight[] how many blocks of the grid each stands for (the
 * weights sum to the grid's blocks).  Returns how many were chosen. */
size_t gs_emu_sample(const unsigned grid[3], size_t n, uint64_t *idx, double *weight);
/* The same, and in *inner where the run of interior blocks begins: the
 * chosen blocks from *inner on are consecutive blocks of the grid's
 * interior, of equal weights (none when it is the count returned; a grid
 * run whole has none). */
size_t gs_emu_sample_split(const unsigned grid[3], size_t n, uint64_t *idx, double *weight,
			   size_t *inner);

/* How many blocks the interior of a sample (st[inner..n), equal weights)
 * needs for the mean of its blocks' work to be known within
 * GS_EMU_SAMPLE_SE of itself: n - inner when it has enough (sample.c). */
#define GS_EMU_SAMPLE_SE 0.02
size_t gs_emu_sample_need(const struct gs_emu_blockstat *st, size_t n, size_t inner);

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
/* sass.c: the bytes of the code's longest loop (from a backward branch's
 * target to the branch), 0 where ptxas left none.  -1 for an architecture
 * whose encoding is not known here. */
int gs_emu_sass_loops(const unsigned char *code, size_t len, int arch, size_t *loop_bytes);
/* sass.c: the cycles a warp waits between two of its issues, on average
 * over the code its loops span (all of it where ptxas left no loop): the
 * stall counts ptxas wrote into each instruction's control bits (bits
 * 105..108), which a warp keeps to whatever else the SM runs
 * (results/ubench-issuegap-h200.txt).  0 where the code is empty; -1 for
 * an architecture whose encoding is not known here. */
int gs_emu_sass_gap(const unsigned char *code, size_t len, int arch, double *gap);
/* sass.c: the widest shared-memory load (LDS) of the code, in bytes: 4, 8
 * or 16; 0 where it has none.  -1 for an architecture whose encoding is
 * not known here. */
int gs_emu_sass_lds(const unsigned char *code, size_t len, int arch, unsigned *bytes);
/* ldsvec.c: runs of scalar shared loads ptxas merges into one wider load.
 * Per PTX instruction, set at a run's last load in code order: k loads of
 * sz bytes, bytes in all, this one rel bytes past the first; k 0 for
 * every other instruction. */
struct gs_ldsvec {
	uint8_t k, sz, bytes;
	uint32_t rel;
};
struct gs_ins;
/* The runs of a module's code, at most vmax bytes each (the widest LDS of
 * its machine code); NULL where vmax is below 8 or memory ran out. */
struct gs_ldsvec *gs_emu_ldsvec_runs(const struct gs_ins *code, size_t ncode, unsigned vmax);
/* A warp's execution of run g's last load, at the lanes m's addresses:
 * the instructions merging saves (0: the run is not aligned, nothing
 * merged), and the shared-memory wavefronts of the run's loads apart and
 * together. */
int gs_emu_ldsvec_saving(const struct gs_ldsvec *g, int banks, const uint64_t *addr, uint32_t m,
			 unsigned *apart, unsigned *together);
/* What sass.c reads of `entry` of a cubin: its load windows, its code's
 * bytes, its longest loop's and its warps' issue gap.  -1 (all of it 0)
 * where the cubin or the architecture is not read here; win malloc'd. */
struct gs_emu_code {
	uint8_t *win;
	size_t nwin, text_bytes, loop_bytes;
	double issue_gap;    /* gs_emu_sass_gap's; 0: not known */
	unsigned lds_bytes;  /* gs_emu_sass_lds's */
	size_t fwd;          /* gs_emu_sass_forward's */
};
int gs_emu_cubin_facts(const void *cubin, size_t len, const char *entry, struct gs_emu_code *out);
/* The forward BRAs and predicated EXITs of the machine code (sass.c). */
int gs_emu_sass_forward(const unsigned char *code, size_t len, int arch, size_t *n);

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
	int sampled;                /* the blocks it read (set by the caller) */
	double load_window;         /* the global loads ptxas's code keeps in flight with
				     * each issued one, on average (sass.c; 16: as many
				     * as the PTX allows), 0: not known */
	char bound[16];             /* "issue", "fp32", ..., "smem", "l1", "const", "shfl",
				     * "launch", "fetch", "latency", "l2", "atomics", "dram",
				     * "dram latency" */
	double approx;              /* the share of the time in terms the model
				     * approximates, 0 to 1 (confidence.c) */
};
int gs_emu_interval_model(const struct gs_emu_profile *p, const unsigned grid[3],
			  const unsigned block[3], const struct gs_emu_occ *occ,
			  const struct gs_emu_blockstat *st, const double *weight, size_t n,
			  const double *cap, struct gs_emu_interval *out);

/* What of a launch the model approximates, per block of the grid but for
 * the DRAM bytes (the grid's), and the share of the time that lies in it
 * when `bound` (gs_emu_interval.bound) sets the time (confidence.c). */
struct gs_emu_approx {
	double inst[GS_EMU_NCLASS]; /* warp instructions by class, expansions included */
	double atom;                /* warp atomics (global and shared) */
	double mem;                 /* warp accesses of data: global, shared and local
				     * loads and stores, and atomics */
	double smem;                /* shared-memory wavefronts */
	double l2_sectors;          /* L2 sectors: load misses and stored sectors */
	double st_sectors, st_partial; /* stored sectors, and those written in part */
	double dram_bytes, dram_w;  /* the grid's DRAM bytes, and of them written back */
	double dram_again;          /* of them, read again where the L2 lost a sector (reuse.c) */
	double local;               /* warp accesses of local memory */
};
double gs_emu_approx_share(const char *bound, const struct gs_emu_approx *a);

/* ---- the MWP-CWP model (mwp.c) ------------------------------------------------------- */

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
	/* the model's intermediate figures, per warp of a full wave (see mwp.c) */
	int active_warps;        /* N */
	double comp_cycles, mem_cycles, mem_l, dep_delay, sync_cycles;
};

/* 0, or -1 when the block cannot be resident (occupancy 0). */
int gs_emu_model(const struct gs_emu_profile *p, const struct gs_emu_counters *c,
		 const struct gs_emu_geom *g, const struct gs_emu_occ *occ,
		 struct gs_emu_model_out *out);

#endif
