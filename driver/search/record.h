/* record.h — a complete recorded sweep: every configuration of a space with
 * its outcome and what evaluating it cost, read from a gsearch store or a
 * Kernel Tuner cache file.  `gsearch replay` runs strategies against one
 * instead of a device, and a `sweep:` prior predicts from one.
 *
 * Costs are what a live search would have spent on the configuration:
 * for a Kernel Tuner entry its compile_time + verification_time +
 * benchmark_time + framework_time (its strategy_time belongs to the tool
 * that made the file, not to the strategy being replayed); for a store's
 * result the variant's compile_s plus the timed kernel work (timed_ms, from
 * schema 6; before it, time_ms x reps), or, for a sweep imported from a
 * Kernel Tuner cache, the entry's own costs kept beside it (so that the
 * store replays exactly as the file).  A failure costs what it cost.
 *
 * The record owns everything; gs_record_release frees it. */
#ifndef GS_SEARCH_RECORD_H
#define GS_SEARCH_RECORD_H

#include <stdint.h>

#include "search/space.h"

struct gs_buf;

struct gs_record {
	struct gs_sspace sp;
	double *time_ms;   /* per configuration: the time, INFINITY for any failure,
			    * NAN for no outcome (only when loaded incomplete) */
	double *cost_s;    /* per configuration: what evaluating it cost */
	double *compile_s; /* the part of cost_s spent compiling (the rest is
			    * the device's), for replays with compile threads */
	double *occupancy; /* 0..1, NAN unknown */
	int *registers;    /* per thread, -1 unknown */
	int has_occupancy; /* any configuration has one */
	char *what;        /* "KERNEL on DEVICE", for reports */
	int64_t sweep;     /* the store's sweep, 0 for a cache file */
};

/* Load SOURCE: a store (its newest sweep, or STORE#ID), or a Kernel Tuner
 * cache file (plain or .gz; told apart by its content).  With `complete`, a
 * configuration of a store without an outcome (or a skipped one) is an
 * error, as replay needs; without, it is kept with time NAN.  0, or -1 with
 * the reason in err. */
int gs_record_load(const char *source, int complete, struct gs_record *r, struct gs_buf *err);
void gs_record_release(struct gs_record *r);

/* Is `path` a Kernel Tuner cache file rather than a store? (its first
 * bytes: '{' or the gzip magic) */
int gs_record_is_kt(const char *path);

#endif
