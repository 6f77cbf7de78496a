/* prior.h — what a search knows about the configurations before measuring
 * them: a predicted time per configuration (lower is better; NAN where the
 * prior says nothing, INFINITY where it predicts a failure) and, for the
 * searches that weigh occupancy (po), occupancy and registers.
 *
 * Kinds (the text of --prior):
 *   sweep:STORE[#ID]  another sweep -- another GPU, another problem size, an
 *                     imported Kernel Tuner cache -- matched by parameter
 *                     values: the parameters both spaces have by name, each
 *                     value as Kernel Tuner spells it; a configuration the
 *                     other sweep lacks stays unknown (it is not dropped)
 *   kt:FILE           a Kernel Tuner cache file, matched the same way
 *   FILE              either of the two, told apart by its content
 *   static            compile-time facts alone: registers and occupancy, no
 *                     predicted time (gs_prior_static: replay takes them
 *                     from the record, `run` from a sweep on the emulated
 *                     device)
 *   emu[:PROFILE]     the emulated device's modeled times (`run` only: a
 *                     sweep on that device, then read as sweep:)
 *
 * The prior owns its arrays; gs_prior_release frees them. */
#ifndef GS_SEARCH_PRIOR_H
#define GS_SEARCH_PRIOR_H

#include <stddef.h>

#include "search/space.h"

struct gs_buf;
struct gs_record;

struct gs_prior {
	char *name;        /* as given */
	size_t n;          /* = the space's configurations */
	double *time_ms;   /* predicted time: NAN unknown, INFINITY a failure */
	double *occupancy; /* 0..1, NAN unknown */
	int *registers;    /* -1 unknown */
	size_t known;      /* configurations with a prediction */
};

/* An empty prior over n configurations (all unknown). */
void gs_prior_init(struct gs_prior *p, const char *name, size_t n);
/* Predict sp's configurations from a record of another sweep, matched by
 * parameter values (see above). */
void gs_prior_from_record(struct gs_prior *p, const struct gs_sspace *sp, const struct gs_record *from);
/* The compile-time facts of a record (a sweep of the same space): its
 * registers and occupancy, every time unknown. */
void gs_prior_static(struct gs_prior *p, const char *name, const struct gs_record *rec);
/* Parse SPEC and load it for sp.  0, or -1 with the reason in err. */
int gs_prior_load(struct gs_prior *p, const char *spec, const struct gs_sspace *sp, struct gs_buf *err);
void gs_prior_release(struct gs_prior *p);

/* The configurations ordered by predicted time, unknown ones last (in
 * space order), ties by space order.  Caller frees. */
size_t *gs_prior_order(const struct gs_prior *p);

#endif
