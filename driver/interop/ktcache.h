/* ktcache.h — Kernel Tuner cache files: what they hold, and how their
 * outcomes map onto gsearch's.
 *
 * A cache is one JSON object: device_name, kernel_name, problem_size,
 * tune_params_keys (the parameters, in key order), tune_params (their
 * values), objective, optionally schema_version, and `cache`: one entry per
 * configuration, keyed by its parameter values joined with commas as Python
 * prints them ("32,4,1.5,True").  An entry holds the parameter values, `time`
 * (ms), `times` (each run, ms), compile_time, verification_time,
 * benchmark_time, strategy_time, framework_time (ms), timestamp, and any
 * metrics.  A failure is a name in place of a value (`"time":
 * "CompilationFailedConfig"`, or `"__error__": ...`).  Kernel Tuner appends
 * entries while it tunes, so a file cut short (no closing braces, a
 * trailing comma) is read as Kernel Tuner reads it.  Plain or gzip'd.
 *
 * interop/ holds the readers of other tools' files that nothing below the
 * commands needs: `import` and `query export --kt-cache` use this one.  The T1
 * reader is not here: the space loader (space/load.c) translates T1 files,
 * so space/t1.c stays below it. */
#ifndef GS_KTCACHE_H
#define GS_KTCACHE_H

#include <stddef.h>

#include "util/util.h"

/* Kernel Tuner's failure names and gsearch's outcomes: the first outcome of
 * a name is the one an import gives it; an export writes the name of each
 * outcome.  "wrong": Kernel Tuner stops at a wrong result rather than
 * recording it; its nearest name is a runtime failure. */
#define GS_KT_OUTCOMES(X)                                                                   \
	X("InvalidConfig", "invalid")                                                        \
	X("CompilationFailedConfig", "compile_error")                                        \
	X("RuntimeFailedConfig", "launch_error")                                             \
	X("RuntimeFailedConfig", "crash")                                                    \
	X("RuntimeFailedConfig", "timeout")                                                  \
	X("RuntimeFailedConfig", "wrong")                                                    \
	X("ErrorConfig", "launch_error")

/* The outcome of a failure name, or NULL for a name Kernel Tuner does not use. */
const char *gs_kt_outcome(const char *failure);
/* The failure name of a gsearch outcome other than ok, or NULL (skipped). */
const char *gs_kt_failure(const char *status);
/* Is `status` one that a file with `failure` may carry as its gsearch
 * outcome (an export writes it beside the name when the name alone does not
 * say it)? */
int gs_kt_outcome_fits(const char *failure, const char *status);

struct json_t;

struct gs_ktentry {
	const char *key;      /* "32,4,1", owned by the cache */
	struct json_t *obj;   /* the entry, borrowed from the cache's root */
	const char *status;   /* gsearch outcome */
	const char *failure;  /* Kernel Tuner's failure name, NULL when ok */
	double time_ms;       /* ok only */
};

struct gs_ktcache {
	struct json_t *root;  /* owned */
	const char *device, *kernel, *objective, *schema_version; /* NULL when absent */
	struct json_t *problem_size, *tune_params;               /* borrowed */
	const char **params;  /* tune_params_keys, borrowed */
	size_t nparams;
	struct gs_ktentry *e; /* in file order */
	size_t n;
	int repaired;         /* the file was cut short and read as closed */
};

/* Read and check the cache at `path`.  0, or -1 with the reason in *err
 * ("FILE:LINE:COL: ..." for JSON syntax, "FILE: ..." otherwise); the
 * caller always releases c. */
int gs_ktcache_load(const char *path, struct gs_ktcache *c, struct gs_buf *err);
void gs_ktcache_release(struct gs_ktcache *c);

/* Python's str() of a parameter value as a cache key spells it: 32, 1.5,
 * True, text bare.  0, or -1 for a value no key can hold (an object). */
int gs_kt_key_part(struct gs_buf *b, struct json_t *v);

#endif
