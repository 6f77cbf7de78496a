/* overhead.h — a sweep's overhead factor: its wall time against the least
 * time its work could have taken.
 *
 * The bound is the busier of two resources: the compile threads, with
 * compile_busy_s of NVRTC work among them, and the devices, with the kernel
 * work the measurements needed among them.  That kernel work is, by
 * preference, the sum over measured results of time_ms x (runs + warm-ups);
 * failing that (stores from before schema 6 keep neither), the timed work
 * the results reported; failing that, the time the devices were busy, which
 * also counts loading and validating.  `run` computes it from the numbers
 * of the run it just made, `query summary` from the store; both call
 * gs_overhead, so one sweep gets one figure. */
#ifndef GS_QUERY_OVERHEAD_H
#define GS_QUERY_OVERHEAD_H

#include <stdint.h>

#include "util/util.h"

/* Negative or zero figures are unknown. */
struct gs_overhead_in {
	double wall_s;
	double compile_busy_s; /* NVRTC seconds, summed over threads */
	int compile_threads;   /* unknown: the compile side is left out of the bound */
	double work_s;         /* sum of time_ms x (runs + warm-ups) of measured results, s */
	double timed_s;        /* timed work the results reported, s */
	double device_busy_s;  /* time the devices spent on configurations */
	int devices;           /* unknown: 1 */
	uint64_t worker_restarts;
	double restart_s;
};

enum gs_overhead_from { GS_OV_NONE, GS_OV_WORK, GS_OV_TIMED, GS_OV_BUSY };

struct gs_overhead {
	double compile_s;  /* compile_busy_s / compile_threads, 0 when left out */
	double device_s;   /* the device term: kernel work / devices */
	enum gs_overhead_from from; /* where the device term's kernel work came from */
	double kernel_s;   /* that kernel work, before the division */
	double bound_s;    /* the larger term */
	double factor;     /* wall_s / bound_s; 0 when there is no bound */
};

void gs_overhead(const struct gs_overhead_in *in, struct gs_overhead *out);

/* "wall 1.31 s, compile busy 0.52 s on 2 threads, device busy 1.10 s,
 * timed 0.80 s, overhead factor 1.64": the line `run` ends with and `query
 * summary` shows, appended to b. */
void gs_overhead_text(struct gs_buf *b, const struct gs_overhead_in *in,
		      const struct gs_overhead *ov);

#endif
