/* measure.h — what a device worker does: set up a sweep's buffers and its
 * reference outputs once, then measure configurations one by one.
 *
 * Device-independent: everything goes through a gs_dev_ops vtable.  The
 * context owns the device, its buffers and the host copies of the
 * reference outputs; gs_measure_release frees them all. */
#ifndef GS_MEASURE_H
#define GS_MEASURE_H

#include "dev/data.h"
#include "dev/dev.h"
#include "dev/stoprule.h"
#include "gen/gen.h"
#include "space/space.h"

struct gs_measure_opts {
	const char *arch;  /* for compiling the reference, "sm_90" */
	int flush_l2;      /* write a buffer larger than L2 before every timed run */
	struct gs_stop_policy stop;
	/* where the reference outputs and the comparison kernels are kept for
	 * the next worker of the sweep (one that replaces a crashed one then
	 * needs neither NVRTC nor the reference run); NULL: nowhere */
	const char *cache_dir;
	/* a modeled device times each configuration at the real size: the
	 * space parsed without its emulator sizes, and the blocks each launch
	 * executes (NULL, 0: time at the validation size) */
	const struct gs_space *real;
	int sample;
	/* the space has no emulator sizes (a T1 file): its validation size is
	 * the real one.  Without a reference the sampled real-size launch is
	 * then the only run, on the space's own buffers -- a full run would
	 * execute the whole real problem on the host for nothing to compare */
	int real_only;
	/* a modeled device's host time per configuration (s), past which it
	 * stops with outcome emu_limit (the sweep's timeout and twice its
	 * max_time); <= 0: none */
	double host_limit_s;
	/* the buffers' host contents, filled ahead (gs_measure_prefill): the
	 * setup takes them over; NULL: it fills them itself */
	struct gs_prefill *prefill;
	/* called once the reference's compile has started, before the device
	 * opens: a prespawned worker fills its inputs and waits for its
	 * driver's start there, while NVRTC runs (NULL: nothing to do) */
	void (*before_open)(void *arg);
	void *before_open_arg;
};

/* A worker fills the space's buffers on the host while its driver and
 * context still start (hundreds of milliseconds, and a fill of large inputs
 * can take as long): host[i] for buffer i, NULL where the setup must fill
 * it itself. */
struct gs_prefill {
	void **host;
	size_t n;
};
/* 0, or -1 with a message (the fill's own, positioned) */
int gs_measure_prefill(const struct gs_space *sp, struct gs_prefill *pf, char *err, size_t errlen);
void gs_prefill_release(struct gs_prefill *pf);

struct gs_measure;

/* Open device `ordinal` of `ops`, allocate and fill the space's buffers,
 * compile and run the reference launches (with the defines of `ref_env`,
 * a configuration's environment, so that the kernel file compiles), keep
 * the reference outputs — or read them from o->cache_dir when an earlier
 * worker of the sweep left them there.  *nvrtc is loaded when a compile is
 * needed (and left for the caller to unload).  NULL with a message on
 * failure. */
struct gs_measure *gs_measure_setup(const struct gs_space *sp, const struct gs_dev_ops *ops,
				    int ordinal, struct gs_nvrtc **nvrtc,
				    const struct gs_value *ref_env, const struct gs_measure_opts *o,
				    char *err, size_t errlen);
const struct gs_devinfo *gs_measure_devinfo(const struct gs_measure *m);
/* 1 when the reference outputs came from the cache directory. */
int gs_measure_ref_cached(const struct gs_measure *m);
void gs_measure_release(struct gs_measure *m);

/* The outcome of one configuration: status is one of the store's outcomes. */
struct gs_result {
	char status[16];
	double time_ms, min_ms, iqr_ms;
	unsigned reps;      /* timed samples */
	unsigned runs;      /* timed runs of the launch sequence (samples x batch) */
	unsigned warmups;   /* runs discarded as warm-up, the validation run included */
	double ci_lo_ms, ci_hi_ms; /* the median's 95% interval; < 0: none */
	double ci_pct;      /* its coverage, in % (95 or more from 6 samples on); < 0: none */
	double timed_ms;    /* timed work, warm-up samples included */
	int blocks_per_sm;
	double occupancy;
	char limiter[16];
	double energy_j, power_w, sm_clock_mhz, temp_c; /* < 0: not measured */
	double max_abs_err, max_rel_err;
	struct gs_funcattr attr;
	char error[512];
	char *metrics_json; /* malloc'd, may be NULL */
	char *counters_json; /* a modeled device's counters, malloc'd, may be NULL */
	int modeled;        /* time_ms is the device's model, not a measurement */
	int sticky;         /* the device is unusable now: the worker must exit */
};

/* Measure the configuration in env (parameters set; lets are computed
 * here) with the variant's cubin and entry names (lowered, in the order of
 * the space's launches' distinct kernels).  best_ms: the sweep's best time
 * so far (<= 0: none), for the stopping rule's focus. */
void gs_measure_config(struct gs_measure *m, struct gs_value *env, const void *cubin,
		       size_t cubin_len, const char *const *entries, size_t nentries,
		       double best_ms, struct gs_result *r);
void gs_result_release(struct gs_result *r);

#endif
