/* occupancy.c — resident blocks per SM, by each profile's allocation rules.
 *
 * Compute capability 1.x and 2.x follow NVIDIA's occupancy calculator
 * spreadsheet ("GPU Data" and its formulas):
 *   warps per block  W = ceil(threads / 32)
 *   by threads       floor(warps per SM / W)
 *   by blocks        the block slots
 *   registers, cc 1.x (per block):
 *                    R = ceil(ceil(W, gran) x regs x 32, unit)
 *                    floor(registers per SM / R)
 *   registers, cc 2.x (per warp):
 *                    r = ceil(regs x 32, unit)
 *                    floor(floor(registers per block / r, gran) / W)
 *                      x floor(registers per SM / registers per block)
 *   shared memory    S = ceil(smem + reserve, unit); floor(smem per SM / S)
 * where ceil(x, u) and floor(x, u) round to multiples of u.
 *
 * Compute capability 3.0 and later follow the CUDA toolkit's cuda_occupancy.h,
 * restated here in C (the header is NVIDIA's, under its license, and the
 * driver builds without the toolkit); tests/unit/test_emu_occ.c compares the
 * two over thousands of points wherever the header is installed:
 *   registers        r = ceil(regs x 32, 256) per warp; a block needs
 *                    r x ceil(W, 4) <= registers per block (the hardware
 *                    check, all 4 sub-partitions at once); blocks =
 *                    floor(floor(registers per SM / 4 / r) x 4 / W)
 *   shared memory    S = ceil(smem + 1 KB reserve, 128), at most the opt-in
 *                    per-block limit plus the reserve; floor(smem per SM / S)
 *                    with the carveout at its default, the largest.
 * The toolkit's barrier limit (cc 9.0: two barriers per block slot) never
 * binds for a kernel with one barrier, and the virtual-resource limit applies
 * to cc 10 and later only; neither is modeled. */
#include "dev/emu.h"

#include <stdio.h>
#include <string.h>

static int round_up(int x, int unit)
{
	return unit > 1 ? (x + unit - 1) / unit * unit : x;
}

static int round_down(int x, int unit)
{
	return unit > 1 ? x / unit * unit : x;
}

static int min2(int a, int b)
{
	return a < b ? a : b;
}

/* Registers: blocks by the register file, and the registers one block is
 * given; -1 with a reason when even one block cannot have them. */
static int regs_limit(const struct gs_emu_profile *p, int warps, int regs, int *block_regs,
		      char *why, size_t whylen)
{
	const int ws = p->warp_size;

	*block_regs = 0;
	if (regs > p->max_regs_thread) {
		snprintf(why, whylen, "%d registers per thread; the %s allows at most %d", regs,
			 p->gpu, p->max_regs_thread);
		return -1;
	}
	if (regs <= 0)
		return GS_EMU_OCC_NOLIMIT;
	if (p->reg_alloc_by_block) {
		int w = round_up(warps, p->warp_alloc_gran);
		int r = round_up(w * regs * ws, p->reg_alloc_unit);

		*block_regs = r;
		if (r > p->regs_block) {
			snprintf(why, whylen,
				 "a block of %d warps at %d registers needs %d registers; the %s "
				 "has %d per block",
				 warps, regs, r, p->gpu, p->regs_block);
			return -1;
		}
		return p->regs_sm / r;
	}
	int per_warp = round_up(regs * ws, p->reg_alloc_unit);
	*block_regs = per_warp * warps;
	if (p->cc_major >= 3) {
		/* the hardware checks a block as if every sub-partition took a
		 * share of its warps (warp_alloc_gran is the sub-partition count) */
		int subs = p->warp_alloc_gran;
		int assumed = per_warp * round_up(warps, subs);

		if (assumed > p->regs_block || *block_regs > p->regs_block) {
			snprintf(why, whylen,
				 "a block of %d warps at %d registers needs %d registers; the %s "
				 "has %d per block",
				 warps, regs, assumed > *block_regs ? assumed : *block_regs, p->gpu,
				 p->regs_block);
			return -1;
		}
		return (p->regs_sm / subs / per_warp) * subs / warps;
	}
	if (*block_regs > p->regs_block) {
		snprintf(why, whylen,
			 "a block of %d warps at %d registers needs %d registers; the %s has %d "
			 "per block",
			 warps, regs, *block_regs, p->gpu, p->regs_block);
		return -1;
	}
	int warps_by_regs = round_down(p->regs_block / per_warp, p->warp_alloc_gran);
	return warps_by_regs / warps * (p->regs_sm / p->regs_block);
}

/* Shared memory: blocks by the SM's shared memory, and what one block is
 * given; -1 with a reason when one block asks for more than it may have. */
static int smem_limit(const struct gs_emu_profile *p, int smem, int *block_smem, char *why,
		      size_t whylen)
{
	int total = smem + p->smem_reserved_block;
	int alloc = round_up(total, p->smem_alloc_unit);
	/* from Ampere on the driver's reserve comes on top of the per-block
	 * limit (cuda_occupancy.h, cudaOccSMemPerBlock) */
	int limit = p->smem_block + (p->cc_major >= 8 ? p->smem_reserved_block : 0);

	*block_smem = alloc;
	if (smem < 0 || alloc > limit) {
		if (p->smem_reserved_block)
			snprintf(why, whylen,
				 "%d bytes of shared memory per block (%d allocated with the "
				 "%d-byte reserve); the %s allows %d",
				 smem, alloc, p->smem_reserved_block, p->gpu, p->smem_block);
		else
			snprintf(why, whylen,
				 "%d bytes of shared memory per block (%d allocated); the %s "
				 "allows %d",
				 smem, alloc, p->gpu, p->smem_block);
		return -1;
	}
	if (alloc == 0)
		return GS_EMU_OCC_NOLIMIT;
	return p->smem_sm / alloc;
}

int gs_emu_occupancy(const struct gs_emu_profile *p, int block_threads, int regs_per_thread,
		     int smem_per_block, struct gs_emu_occ *o, char *why, size_t whylen)
{
	static const struct {
		int bit;
		const char *name;
	} order[] = {
		{ GS_EMU_LIM_THREADS, "threads" },
		{ GS_EMU_LIM_BLOCKS, "blocks" },
		{ GS_EMU_LIM_REGS, "registers" },
		{ GS_EMU_LIM_SMEM, "smem" },
	};
	int n, lim[4];

	memset(o, 0, sizeof(*o));
	if (block_threads <= 0 || block_threads > p->max_threads_block) {
		snprintf(why, whylen, "a block of %d threads; the %s allows 1 to %d", block_threads,
			 p->gpu, p->max_threads_block);
		return -1;
	}
	o->block_warps = (block_threads + p->warp_size - 1) / p->warp_size;
	o->by_threads = p->max_warps_sm / o->block_warps;
	o->by_blocks = p->max_blocks_sm;
	if ((o->by_regs = regs_limit(p, o->block_warps, regs_per_thread, &o->block_regs, why,
				     whylen)) < 0)
		return -1;
	if ((o->by_smem = smem_limit(p, smem_per_block, &o->block_smem, why, whylen)) < 0)
		return -1;

	lim[0] = o->by_threads;
	lim[1] = o->by_blocks;
	lim[2] = o->by_regs;
	lim[3] = o->by_smem;
	n = min2(min2(lim[0], lim[1]), min2(lim[2], lim[3]));
	for (int i = 3; i >= 0; i--) {
		if (lim[i] != n)
			continue;
		o->limiters |= order[i].bit;
		snprintf(o->limiter, sizeof o->limiter, "%s", order[i].name);
	}
	if (n == 0) {
		/* a block that fits each per-block limit can still miss the SM's:
		 * the register file of a cc 2.x SM rounded to warp granules */
		snprintf(why, whylen,
			 "not one block of %d threads fits on an SM of the %s (limited by %s)",
			 block_threads, p->gpu, o->limiter);
		return -1;
	}
	o->blocks_per_sm = n;
	o->active_warps = n * o->block_warps;
	o->active_threads = n * block_threads;
	o->occupancy = (double)o->active_warps / p->max_warps_sm;
	return 0;
}
