/* reuse.c — when a warp loads a sector again, has it left the caches?
 *
 * The interpreter runs a block's warps one after another, each until a
 * barrier or its end, so the probe's L1 (probe.c) sees one warp's loads at
 * a time: a warp that walks records of its own word by word finds each
 * sector again at its next word, however many warps share the SM.  On the
 * GPU every resident warp walks at once, and between a warp's two loads of
 * a sector the others load about as much as it does: the sectors live
 * between the two are the warp's gap times the resident warps.
 * scripts/bench/ubench/reuse.cu measured it on the H100
 * (results/ubench-reuse-h100.txt): threads reading R records of their own a
 * word at a time, the sectors live being 32 bytes x R x the resident
 * threads,
 *
 *   - with no shared memory, the L1 keeps 84-87% of the loads while the
 *     SM's live sectors are under its 256 KiB (2048 threads, R 1 and 2: 64
 *     and 128 KiB) and 9% then 1% from there on (R 4 and 8); with shared
 *     memory taking most of it, 0 to 8% even where the live sectors would
 *     fit what is left (the rule below, which takes the L1 to be what
 *     shared memory leaves, still finds hits there: too many);
 *   - DRAM reads the records once while the GPU's live sectors are 16.5
 *     MiB or less (1.00 to 1.23 times), 9.4 to 11 times at 33 MiB and 15.5
 *     times at 66 MiB: the 50 MB L2 keeps about half its size of such data
 *     (each SM's reads fill the partition near it), and a sector read again
 *     from DRAM costs 64 bytes (16 touches of a 64-byte record, 15.5 times);
 *   - loading a record's 16 words at once reads it once whatever R.
 *
 * So a warp's load of a sector it loaded g sectors ago misses the L1 when
 * g times the SM's resident warps times 32 bytes reaches the L1's share of
 * the SM, and misses the L2 too when g times the GPU's resident warps times
 * 32 bytes reaches half the L2 (the gaps, set by the probe).  A sector
 * another warp loaded last is left to the probe's L1: warps that share
 * data load it at about the same time.
 *
 * The other warps' sectors are the warp's own only as far as their data
 * is: a table every warp reads at every step (a CRC's 8 KiB of tables, an
 * HMM's 24 KiB of transitions and emissions, through __ldg) is live once
 * on the SM and on the GPU, not once a warp: the scaled gap had put every
 * reload of such a table out to DRAM, 5 to 17 times the H200's time
 * (results/heldout8).  So the live sectors are counted per allocation,
 * each at most its size: the warp's gap split over the allocations as the
 * warp's loads so far are, times the resident warps, capped.  A stream of
 * records larger than the caches is not capped, and counts as before.
 *
 * The gap counts the sectors a load brings in, not every sector it reads:
 * a sector the warp loaded less than a gap ago is still in the L1, and
 * loading it again pushes nothing out.  A lookup table gathered at every
 * step while the warp streams its own words (sbox.space's __ldg tables,
 * tests/emu/hottable.cu) stays in the L1, as on the H100, where counting
 * the table's own reloads had put a fifth of its loads out to DRAM.  The
 * records of reuse.cu are each loaded once a pass, so its figures hold. */
#include "dev/emu/model/reuse.h"

#include <stdlib.h>
#include <string.h>

struct slot {
	uint64_t key;   /* sector + 1; 0: empty */
	uint64_t at;    /* the warp's sectors loaded by the end of the load that last
			 * loaded it */
	double ready;   /* when that load's data came (the warp's clock) */
	uint32_t warp;
};

struct gs_reuse {
	unsigned nwarps;
	uint64_t *count;  /* per warp: sectors loaded */
	uint64_t *base;   /* per warp: count when its current load began */
	struct slot *t;
	size_t cap, n;    /* a power of two; used slots */
	double gap_l1, gap_l2;    /* cap / w: the gaps with no allocation capped */
	double w_l1, cap_l1, w_l2, cap_l2;
	size_t na;                /* allocations; the last bucket, na, is the rest */
	uint64_t ab[GS_REUSE_ALLOCS], as[GS_REUSE_ALLOCS]; /* sectors: first, count */
	uint64_t *acount; /* per warp, per bucket: sectors loaded */
};

struct gs_reuse *gs_reuse_new(unsigned nwarps, double w_l1, double cap_l1, double w_l2,
			      double cap_l2, const uint64_t *base, const uint64_t *size, size_t n)
{
	struct gs_reuse *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->nwarps = nwarps;
	r->w_l1 = w_l1, r->cap_l1 = cap_l1, r->w_l2 = w_l2, r->cap_l2 = cap_l2;
	r->gap_l1 = w_l1 > 0 ? cap_l1 / w_l1 : cap_l1;
	r->gap_l2 = w_l2 > 0 ? cap_l2 / w_l2 : cap_l2;
	r->na = n < GS_REUSE_ALLOCS ? n : GS_REUSE_ALLOCS;
	for (size_t i = 0; i < r->na; i++) {
		r->ab[i] = base[i] / 32;
		r->as[i] = (base[i] + size[i] + 31) / 32 - r->ab[i];
	}
	r->count = calloc(nwarps ? nwarps : 1, sizeof *r->count);
	r->base = calloc(nwarps ? nwarps : 1, sizeof *r->base);
	r->acount = calloc((size_t)(nwarps ? nwarps : 1) * (r->na + 1), sizeof *r->acount);
	r->cap = 4096;
	r->t = calloc(r->cap, sizeof *r->t);
	if (!r->count || !r->base || !r->t || !r->acount) {
		gs_reuse_free(r);
		return NULL;
	}
	return r;
}

void gs_reuse_free(struct gs_reuse *r)
{
	if (!r)
		return;
	free(r->count);
	free(r->base);
	free(r->acount);
	free(r->t);
	free(r);
}

void gs_reuse_begin(struct gs_reuse *r)
{
	memset(r->count, 0, r->nwarps * sizeof *r->count);
	memset(r->base, 0, r->nwarps * sizeof *r->base);
	memset(r->acount, 0, (size_t)r->nwarps * (r->na + 1) * sizeof *r->acount);
	memset(r->t, 0, r->cap * sizeof *r->t);
	r->n = 0;
}

static size_t hash(uint64_t k, size_t cap)
{
	k *= 0x9e3779b97f4a7c15ull;
	return (size_t)(k >> 17) & (cap - 1);
}

/* 0, or -1 when out of memory (the table stays as it was) */
static int grow(struct gs_reuse *r)
{
	size_t cap = 2 * r->cap;
	struct slot *t = calloc(cap, sizeof *t);
	if (!t)
		return -1;
	for (size_t i = 0; i < r->cap; i++)
		if (r->t[i].key) {
			size_t j = hash(r->t[i].key, cap);
			while (t[j].key)
				j = (j + 1) & (cap - 1);
			t[j] = r->t[i];
		}
	free(r->t);
	r->t = t;
	r->cap = cap;
	return 0;
}

/* The bucket of a sector: its allocation's index, or na */
static size_t bucket(const struct gs_reuse *r, uint64_t sector)
{
	size_t lo = 0, hi = r->na;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->ab[mid] <= sector)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && sector - r->ab[lo - 1] < r->as[lo - 1] ? lo - 1 : r->na;
}

/* Whether a gap of g of the warp's sectors, w warps loading alike, holds
 * cap sectors or more: per allocation, its share of the warp's loads so
 * far times g times w, at most its size. */
static int over(const struct gs_reuse *r, unsigned warp, double g, double w, double cap,
		double gap)
{
	if (g < gap)
		return 0; /* capping only lowers the count */
	const uint64_t *a = r->acount + (size_t)warp * (r->na + 1);
	double all = (double)r->count[warp], live = 0;
	if (all <= 0)
		return 1;
	for (size_t k = 0; k <= r->na; k++) {
		if (!a[k])
			continue;
		double v = (double)a[k] / all * g * w;
		if (k < r->na && v > (double)r->as[k])
			v = (double)r->as[k];
		live += v;
	}
	return live >= cap;
}

int gs_reuse_touch(struct gs_reuse *r, unsigned warp, uint64_t sector, unsigned i, unsigned u,
		   int probe_hit, double t, double ready)
{
	if (warp >= r->nwarps)
		return 0;
	/* the window is whole loads, from the one after the last load of the
	 * sector to this one: in step, every other warp loads all of its
	 * live sectors in it, as many as this warp's loads in it hold (the
	 * sectors of this load counted as if all came in) */
	if (i == 0)
		r->base[warp] = r->count[warp];
	uint64_t now = r->base[warp] + u, key = sector + 1;
	if (2 * (r->n + 1) > r->cap && grow(r) < 0)
		return 0;
	size_t j = hash(key, r->cap);
	while (r->t[j].key && r->t[j].key != key)
		j = (j + 1) & (r->cap - 1);
	struct slot *s = &r->t[j];
	int out = 0;
	int mine = s->key && s->warp == warp;
	double g = mine && now > s->at ? (double)(now - s->at) : 0;
	int l1_gone = mine && over(r, warp, g, r->w_l1, r->cap_l1, r->gap_l1);
	/* a sector still held brings nothing in: only the others count */
	if (!mine || l1_gone) {
		r->count[warp]++;
		r->acount[(size_t)warp * (r->na + 1) + bucket(r, sector)]++;
	}
	if (!s->key) {
		s->key = key;
		r->n++;
	} else if (mine && t >= s->ready) {
		/* (a load issued before the last one's data came joins it in
		 * flight: the loads of a record unrolled together read it once) */
		int l1 = probe_hit && l1_gone;
		if (l1)
			out |= GS_REUSE_L1;
		if ((l1 || !probe_hit) && over(r, warp, g, r->w_l2, r->cap_l2, r->gap_l2))
			out |= GS_REUSE_DRAM;
	}
	if (s->warp != warp || t >= s->ready)
		s->ready = ready;
	s->warp = warp;
	s->at = now;
	return out;
}
