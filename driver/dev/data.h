/* data.h — what a worker does with buffers and samples, independent of the
 * device: deterministic input fills, output validation, timing statistics.
 * Pure functions of their arguments; the caller owns every buffer. */
#ifndef GS_DATA_H
#define GS_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "lang/expr.h"
#include "space/space.h"

/* Fill `host` (b->n elements of b->type) as the buffer's fill says:
 * zero; random(seed, lo, hi) from a counter-based generator, so every
 * machine and every run gets the same bytes (floats uniform in [lo, hi),
 * default [0, 1); integers uniform in [lo, hi] inclusive, default [0, 255]
 * clipped to the type's range); value(E); index(E) with `i` bound to the
 * element index (evaluated per element with the space's compiled code and
 * `env`, a copy of sp->env0 the function may write the fill slot of);
 * file(PATH), which must hold exactly n elements.  A buffer without a fill
 * is zeroed.  0, or -1 with a message ("file:line:col: buffer 'A', element
 * 17: ..."): an expression that fails, a value outside the element type's
 * range (never wrapped), a file of the wrong size.  data.c's header comment
 * gives the exact random() algorithm, for tools that must reproduce inputs. */
int gs_fill_buffer(const struct gs_space *sp, const struct gs_buffer *b, void *host,
		   struct gs_value *env, struct gs_vm *vm, char *err, size_t errlen);

/* Output against reference.  Floats pass when |out - ref| <= tol * max(1, |ref|)
 * (NaN only against NaN, inf only against the same inf; tol < 0 means 0);
 * integers must be equal (tol is ignored).  Relative error is
 * |out - ref| / max(|ref|, tiny), tiny being FLT_MIN or DBL_MIN for floats and
 * 1 for integers; a NaN or inf mismatch counts as infinite error.  The
 * maxima run over all n elements; first_bad, got and want are 0 when nothing
 * is bad. */
struct gs_cmp {
	double max_abs, max_rel; /* largest absolute and relative error */
	uint64_t bad;            /* elements out of tolerance */
	uint64_t first_bad;      /* index of the first, if bad > 0 */
	double got, want;        /* its values */
};
void gs_compare(int btype, const void *out, const void *ref, uint64_t n, double tol,
		struct gs_cmp *c);

/* Order statistics of samples (sorted in place): median, min, max,
 * quartiles by linear interpolation (numpy's default), IQR = q3 - q1.
 * n == 0 gives NaN everywhere. */
struct gs_stats {
	double median, min, max, q1, q3, iqr;
	size_t n;
};
void gs_stats(double *samples, size_t n, struct gs_stats *s);

/* The counter-based generator behind random(): the k-th 64-bit value of a
 * stream, independent of how many values were drawn before. */
uint64_t gs_random_u64(uint64_t seed, uint64_t k);

#endif
