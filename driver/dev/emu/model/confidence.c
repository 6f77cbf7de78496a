/* confidence.c — how sure the interval model is of a launch's time: the
 * share of it that lies in what the model knows it only approximates.  A
 * result's confidence (`model_confidence`) is one less that share,
 * averaged over its launches by their modeled time (dev.c).
 *
 * What the model approximates:
 *
 *   atomics        atom and red, global or shared: timed as one load/store
 *                  instruction with an L1 hit's latency, with no L2 round
 *                  trip, no traffic and no serialization of the lanes that
 *                  update one address;
 *   partial-sector stores
 *                  32-byte sectors a warp's global store writes only in
 *                  part (strided or scattered stores): charged as whole
 *                  sectors to L2 and DRAM, where the GPU merges them or
 *                  reads, modifies and writes them at a cost the model does
 *                  not know;
 *   sectors read again
 *                  DRAM reads of a sector the L2 lost between a warp's loads
 *                  of it (reuse.c): a sharp rule where the H100's knee is
 *                  soft, and one group of words read again as a whole;
 *   local memory   a thread's frame: its stores written through to the
 *                  L2, and every access once the resident frames outgrow
 *                  the L2, at one benchmark's rates; what else shares the
 *                  L2 and DRAM meanwhile (a kernel's own global streams)
 *                  is not counted against it, and batchinv's frames ran
 *                  two to three times slower than the rates;
 *   class "other"  shuffles, votes, redux, activemask, clock reads, and
 *                  what executes as nothing here (membar, fence,
 *                  __syncwarp): issue.other cycles and an integer
 *                  instruction's latency, stand-ins never measured.
 *
 * The interpreter executes no instruction as an approximation of another:
 * what it does not know it refuses when the PTX is loaded.
 *
 * The time is set by one term, its bound (interval.c); the share is the
 * part of that term's work done by what is approximated:
 *
 *   a pipe         the approximated warp instructions of that pipe among
 *                  its own ("lsu": atomics; "other": all of them; any other
 *                  pipe: none);
 *   issue, fetch, phases, latency, dram latency
 *                  atomics and class "other" among all warp instructions
 *                  (the chain is made of the block's instructions);
 *   smem           atomics among shared-memory wavefronts and atomics;
 *   l2             atomics (one sector each, the traffic the model leaves
 *                  out) and partial-sector stores among L2 sectors;
 *   partial stores the partial sectors among the stored ones (the rate
 *                  is one benchmark's, its patterns spread twofold);
 *   local memory   all of it;
 *   dram           the written-back bytes, in the proportion of partial
 *                  sectors among the stored ones, and the bytes read again,
 *                  among DRAM bytes;
 *   l1, launch     none (the L1 term counts loads only; the block
 *                  scheduler's rate is measured).
 *
 * Atomics besides count, whatever the bound, at their share of the data
 * accesses (global, shared and local loads and stores, and atomics): the
 * model gives them almost no time of their own, so the term that bounds
 * the time says little of what they may cost (a histogram's atomics on one
 * bin serialize), and the share is the larger of the two.
 *
 * Pure arithmetic. */
#include "dev/emu/model/model.h"

#include <string.h>

static double ratio(double part, double whole)
{
	if (!(whole > 0) || !(part > 0))
		return 0;
	return part >= whole ? 1 : part / whole;
}

/* the share of the bounding term's work that is approximated */
static double in_bound(const char *bound, const struct gs_emu_approx *a)
{
	double all = 0;
	for (int c = 0; c < GS_EMU_NCLASS; c++)
		all += a->inst[c];
	if (!strcmp(bound, "lsu"))
		return ratio(a->atom, a->inst[GS_EMU_MEM]);
	if (!strcmp(bound, "other"))
		return ratio(a->inst[GS_EMU_OTHER], a->inst[GS_EMU_OTHER]);
	if (!strcmp(bound, "issue") || !strcmp(bound, "fetch") || !strcmp(bound, "phases") ||
	    !strcmp(bound, "latency") ||
	    !strcmp(bound, "dram latency"))
		return ratio(a->atom + a->inst[GS_EMU_OTHER], all);
	if (!strcmp(bound, "smem"))
		return ratio(a->atom, a->smem + a->atom);
	if (!strcmp(bound, "l2"))
		return ratio(a->atom + a->st_partial, a->l2_sectors + a->atom);
	if (!strcmp(bound, "partial stores"))
		return ratio(a->st_partial, a->st_sectors);
	if (!strcmp(bound, "local memory"))
		return ratio(a->local, a->local);
	if (!strcmp(bound, "dram"))
		return ratio(a->dram_w * ratio(a->st_partial, a->st_sectors) + a->dram_again, a->dram_bytes);
	return 0;
}

double gs_emu_approx_share(const char *bound, const struct gs_emu_approx *a)
{
	double s = in_bound(bound, a), atomics = ratio(a->atom, a->mem);
	return atomics > s ? atomics : s;
}
