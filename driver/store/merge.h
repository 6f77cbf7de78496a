/* merge.h — combining stores: the shards of a sweep into one (`gsearch merge`).
 *
 * Each input's sweeps are grouped by their identity without the shard (the
 * identity an unsharded run computes, gs_sweep_ident_hash), and each group
 * becomes one sweep of the output, found or created there:
 *   - configurations are united; an index stored with other parameters is an
 *     error (the inputs are not what their identity says);
 *   - the compile cache is united: a variant hash names one content;
 *   - an outcome new to the output is added; one equal to the output's in
 *     everything but when and on which GPU it was measured is the same
 *     outcome; any other is a conflicting re-measurement, kept in
 *     result_conflict (once) while result keeps the first one merged;
 *   - every run merged is a row of sweep_part (host, device, times, status);
 *     the sweep's row adds their times, spans their starts and finishes, and
 *     is done when they cover every shard and are done.
 * Merging the same inputs again changes nothing.  Inputs of different
 * identities are refused unless opts.force, which keeps each identity in a
 * sweep of its own.  Inputs are opened read-only and never changed; the
 * output is written in one transaction, views included. */
#ifndef GS_STORE_MERGE_H
#define GS_STORE_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

struct gs_merge_opts {
	int force; /* inputs of different identities: one output sweep each */
};

/* One sweep of the output that the merge wrote, as it stands afterwards. */
struct gs_merge_sweep {
	int64_t id;
	char *space_name;
	char status[16];       /* as set from its parts: done, interrupted ... */
	int64_t parts, configs, results, conflicts;
	char *missing;         /* "1/4 3/4": shards no part covers; NULL when complete */
};

struct gs_merge_stats {
	size_t inputs, sweeps_in;         /* files, and the sweeps they held */
	int64_t variants_new, configs_new, results_new;
	int64_t results_same;             /* outcomes the output already had */
	int64_t conflicts_new;            /* conflicting re-measurements recorded now */
	int64_t parts_new;
	struct gs_merge_sweep *out;       /* by output sweep id */
	size_t nout;
};

/* Merges the stores at inputs[0..n) into the store at out_path (created
 * when missing).  0, or a negative code with the reason in *err (the
 * output untouched).  The caller releases stats with
 * gs_merge_stats_release, also after a failure. */
int gs_merge(const char *out_path, const char *const *inputs, size_t n,
	     const struct gs_merge_opts *opts, struct gs_merge_stats *stats, struct gs_buf *err);
void gs_merge_stats_release(struct gs_merge_stats *stats);

#endif
