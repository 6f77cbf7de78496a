/* emucopy.h — a DRAM-bound copy block on the H100 profile for the interval
 * model's unit tests (model and confidence): a block reads 1000 sectors and
 * writes 1000 others, every load missing the L1, on a grid of four blocks an
 * SM at eight blocks an SM.  Everything lives in the caller's struct. */
#ifndef GS_TEST_EMUCOPY_H
#define GS_TEST_EMUCOPY_H

#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "dev/emu.h"
#include "dev/emu/model/model.h"

struct gs_test_copy {
	const struct gs_emu_profile *p;
	unsigned grid[3], block[3];
	struct gs_emu_occ occ;
	uint64_t sec[2000];
	struct gs_emu_blockstat st; /* st.sectors points into sec */
};

static inline void gs_test_copy_init(struct gs_test_copy *c)
{
	memset(c, 0, sizeof *c);
	c->p = gs_emu_profile_find("sm_90");
	ck_assert_ptr_nonnull(c->p);
	c->grid[0] = (unsigned)c->p->sms * 4;
	c->grid[1] = c->grid[2] = 1;
	c->block[0] = 256;
	c->block[1] = c->block[2] = 1;
	c->occ.blocks_per_sm = 8;
	for (int i = 0; i < 1000; i++) {
		c->sec[i] = (uint64_t)i;
		c->sec[1000 + i] = (uint64_t)(5000 + i) | GS_EMU_SECTOR_WRITTEN;
	}
	c->st.sectors = c->sec;
	c->st.nsectors = 2000;
	c->st.l1_miss = 1000;
	c->st.st_sectors = 1000;
}

/* the interval model of one such block of weight 1, under the allocations'
 * caps cap (NULL: none) */
static inline int gs_test_copy_model(const struct gs_test_copy *c, const double *cap,
				     struct gs_emu_interval *iv)
{
	double w = 1;
	return gs_emu_interval_model(c->p, c->grid, c->block, &c->occ, &c->st, &w, 1, cap, iv);
}

#endif
