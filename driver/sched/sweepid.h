/* sweepid.h — building a sweep's identity (store/store.h's gs_sweep_ident):
 * the space's name, the hashes of its text and kernels, its parameters and
 * problem values, the measurement options that change what a result means,
 * the device and the shard.  `gsearch run` and `gsearch import` both build
 * theirs here, so that the two spell each part the same way.
 *
 * The builder owns every string its id points to: they live until
 * gs_sweepid_release. */
#ifndef GS_SCHED_SWEEPID_H
#define GS_SCHED_SWEEPID_H

#include "space/space.h"
#include "store/store.h"
#include "util/util.h"

struct gs_sweepid {
	struct gs_sweep_ident id; /* points into the members below */
	char space_hash[33], kernel_hash[33], hash[33];
	struct gs_buf params, problem, options, shard, baseline;
};

/* The space's part (sp may be NULL: a sweep imported without a space, whose
 * caller fills id.space_name and params itself): its name, the path as
 * given, the hash of its text, its parameters with their values, its
 * baseline ("null" without one).  The options object starts empty. */
void gs_sweepid_init(struct gs_sweepid *s, const struct gs_space *sp, const char *path);
/* What a run measures the space with: the hash of its kernel files and its
 * problem values. */
void gs_sweepid_sources(struct gs_sweepid *s, const struct gs_space *sp);
/* Adds "NAME":VALUE to the options object, VALUE as fmt prints it (JSON). */
void gs_sweepid_option(struct gs_sweepid *s, const char *name, const char *fmt, ...)
	GS_PRINTF(3, 4);
/* Closes the options, sets the device and the shard ("I/N") and computes
 * the hash (id.ident_hash).  Returns &s->id. */
const struct gs_sweep_ident *gs_sweepid_finish(struct gs_sweepid *s, const char *device,
					       const char *shard);
void gs_sweepid_release(struct gs_sweepid *s);

#endif
