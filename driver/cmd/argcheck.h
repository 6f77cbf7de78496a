/* argcheck.h — what `check` learns from compiling one configuration: do the
 * launches and the reference pass the arguments the kernels take; and what
 * `check` and `run` say of a space that validates nothing. */
#ifndef GS_ARGCHECK_H
#define GS_ARGCHECK_H

#include <stdint.h>
#include <stdio.h>

#include "core/diag.h"
#include "space/space.h"

/* Compile the configuration with enumeration index base_index (the
 * baseline; < 0: the first valid one) for sm_90, read each entry's
 * parameters from the PTX and compare every launch's and reference's
 * arguments with them: count, pointer or number, width, float or integer.
 * Mismatches are errors in d at the launch; one line goes to stdout
 * ("arguments ...").  0, or -1 when an error was recorded.  When the
 * arguments cannot be checked (no NVRTC, the configuration does not
 * compile) the line says why and 0 is returned. */
int gs_check_arguments(const struct gs_space *sp, int64_t base_index, struct gs_diag *d);

/* Does the space compare outputs with anything?  A space without a
 * reference stores `ok` for any configuration that runs. */
int gs_space_validates(const struct gs_space *sp);
/* The words both commands use for it. */
#define GS_UNVALIDATED_TEXT                                                                      \
	"outputs are not validated (the space has no reference): every configuration that runs is " \
	"ok, whatever it computes"

#endif
