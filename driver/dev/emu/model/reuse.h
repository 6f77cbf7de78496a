/* reuse.h — a warp's loads of a sector it loaded before, judged by what the
 * GPU's resident warps load in between (reuse.c).  Internal to the probe;
 * one per probe, owned by it. */
#ifndef GS_EMU_REUSE_H
#define GS_EMU_REUSE_H

#include <stddef.h>
#include <stdint.h>

struct gs_reuse;

/* gap_l1, gap_l2: the sectors a warp may load between two loads of one
 * sector before, every resident warp of the SM (of the GPU) loading as
 * many, the sector has left the L1 (the L2); they are the launch's.
 * NULL: out of memory. */
/* The resident warps that load between a warp's two loads of a sector
 * (w_l1 on its SM, w_l2 on the GPU), the sectors the L1 and half the L2
 * hold (cap_l1, cap_l2), and the global allocations [base, base + size)
 * in bytes, sorted (n of them; more than GS_REUSE_ALLOCS are lumped with
 * whatever lies outside them). */
enum { GS_REUSE_ALLOCS = 16 };
struct gs_reuse *gs_reuse_new(unsigned nwarps, double w_l1, double cap_l1, double w_l2,
			      double cap_l2, const uint64_t *base, const uint64_t *size, size_t n);
void gs_reuse_free(struct gs_reuse *r);
/* A new block: nothing loaded yet. */
void gs_reuse_begin(struct gs_reuse *r);
/* Warp `warp` loads `sector`, the i-th of the u distinct sectors of one
 * load, at its clock t, its data ready at `ready`, which the probe's L1
 * held (probe_hit) or not.  Returns GS_REUSE_L1 when the L1 would have
 * lost it meanwhile (the probe's order hid that), GS_REUSE_DRAM when the
 * L2 too, both or 0. */
#define GS_REUSE_L1 1
#define GS_REUSE_DRAM 2
int gs_reuse_touch(struct gs_reuse *r, unsigned warp, uint64_t sector, unsigned i, unsigned u,
		   int probe_hit, double t, double ready);

#endif
