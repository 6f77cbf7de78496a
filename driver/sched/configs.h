/* configs.h — a sweep's configurations into the store: every valid
 * configuration of the space (of one shard), in enumeration order, with its
 * canonical parameters and whether it is the baseline, and the views named
 * after the space.  Done once when a sweep is created and again on every
 * resumption: the store keeps what it has. */
#ifndef GS_SCHED_CONFIGS_H
#define GS_SCHED_CONFIGS_H

#include <stdint.h>

#include "space/space.h"
#include "store/store.h"

/* 0, or -1 after printing why (the store, the space's enumeration). */
int gs_sweep_configs_add(struct gs_store *st, int64_t sweep, const struct gs_space *sp,
			 uint64_t shard_i, uint64_t shard_n);

#endif
