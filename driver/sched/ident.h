/* ident.h — the identity of a result: a hash of everything that determines
 * what measuring one configuration gives, and of nothing else.
 *
 * Two configurations (of one sweep or of two) with the same identity would
 * be measured the same way on the same kind of device, so a stored outcome
 * of one stands for the other: `gsearch run` on an edited space measures
 * only the configurations whose identity no earlier result has.
 *
 * In the identity: the variant (kernel source, defines, compiler options,
 * entry names, architecture, NVRTC version); the measured launch
 * sequence as evaluated for the configuration (kernels, loop iterations,
 * constant copies, grid, block, dynamic shared memory, every argument:
 * buffer by name, scalar by type and value); every buffer (kind, element
 * type, count, fill, tolerance; a file fill by its content); the problem
 * values; the reference launches as evaluated for the configuration the
 * reference is compiled with (its kernel file by content); the metrics
 * (their expressions and the values they read); the device; and the
 * measurement options (precision, focus, max time, L2 flush).
 *
 * Not in it: the space's text as such (comments, layout, the order of
 * statements that do not depend on each other), the parameters' other
 * values, the constraints, the baseline, the shard, the per-configuration
 * time limit (a timeout is judged against it when reused: see reuse.h) and
 * the defines the reference is compiled with (the reference must not
 * depend on them: it is what every configuration is checked against).
 *
 * gs_ident_free releases what gs_ident_new made. */
#ifndef GS_SCHED_IDENT_H
#define GS_SCHED_IDENT_H

#include "dev/stoprule.h"
#include "space/space.h"

struct gs_ident_opts {
	const char *device;         /* the sweep's device identity: "emu:sm_90", "cuda NVIDIA ..." */
	struct gs_stop_policy stop; /* precision, focus, max time */
	int flush_l2;
	const char *nvrtc_version; /* "13.0" */
	int emu_sample;            /* an emulated device's blocks sampled per launch (0: all) */
};

struct gs_ident;

/* The sweep-wide part is computed here, once: the reference launches are
 * evaluated for the configuration the workers compile the reference with,
 * the baseline, else the first valid configuration.  Never fails: what
 * cannot be evaluated enters the identity as its error message. */
struct gs_ident *gs_ident_new(const struct gs_space *sp, const struct gs_ident_opts *o);
void gs_ident_free(struct gs_ident *id);

/* The identity of the configuration in env (parameters and lets bound, as
 * gs_enum_next leaves them) whose variant is v: 32 hex digits.  env is not
 * changed.  The variant enters with its defines in name order (the order
 * of the space's lets and parameters changes nothing NVRTC makes), where
 * the compile cache's hash keeps them in declaration order. */
struct gs_variant;
void gs_ident_config(struct gs_ident *id, const struct gs_value *env, const struct gs_variant *v,
		     char out[33]);

#endif
