/* order.h — which variant to compile next.
 *
 * Compiles of uneven length on a fixed number of threads finish with a
 * ragged last wave: threads idle while the longest compiles run alone.
 * Starting the longest first (the LPT rule) bounds that tail, so the
 * supervisor picks, among the variants waiting, the one predicted slowest.
 *
 * The prediction is learned from the sweep's own compiles: log compile
 * time as a sum of one effect per parameter value (each value's mean log
 * time against the overall mean).  Until two compiles have finished, and
 * between equal predictions, a prior decides: configurations with larger
 * numeric parameter values first (larger tiles, deeper unrolling — more
 * code for NVRTC, in most spaces).
 *
 * compiles.c predicts a variant's cost once, when it enters the compile
 * window: a space that fits the window at its start (4,096 variants) is
 * ordered by the prior alone.  Refitting later helps large spaces and hurts
 * small ones (results/compile-order-sim.txt), so it is not done yet. */
#ifndef GS_SCHED_ORDER_H
#define GS_SCHED_ORDER_H

#include <stddef.h>

#include "space/space.h"

struct gs_corder;

struct gs_corder *gs_corder_new(const struct gs_space *sp);
void gs_corder_free(struct gs_corder *o);
/* The predicted cost of the configuration whose value index per parameter
 * is pos[] (as gs_enum's pos): larger compiles longer.  Only its order
 * among other predictions means anything. */
double gs_corder_predict(const struct gs_corder *o, const size_t *pos);
/* A compile of that configuration's variant took `seconds`. */
void gs_corder_learn(struct gs_corder *o, const size_t *pos, double seconds);
/* How many times it has learned. */
unsigned gs_corder_learned(const struct gs_corder *o);

/* The same model, learned from measured medians instead of compile times,
 * also orders the measurements (readyq.c): among the configurations
 * compiled and waiting for a device, the one predicted fastest goes first,
 * the space's baseline before all.  The sweep's best is then found early,
 * and the stopping rule's focus (dev/stoprule.h) sets aside the losers
 * after few samples instead of timing them to full precision while the
 * best so far is still a poor one. */

#endif
