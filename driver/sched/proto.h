/* proto.h — the supervisor/worker protocol, over the worker's stdin and
 * stdout, in frames of strings (util/frame.h).  Versioned: a worker that
 * speaks another version refuses the setup.
 *
 *   supervisor → worker
 *     setup   VERSION SPACE EMU(0|1) ARCH FLUSH_L2(0|1) ORDINAL REF_PARAMS_JSON TIMING_JSON
 *             NSETS SET... SPACE_TEXT NFILES (PATH TEXT)...
 *     measure IDX PARAMS_JSON BEST_MS NENTRIES ENTRY... CUBIN
 *   worker → supervisor
 *     ready   DEVICE_JSON            after setup: buffers filled, reference run
 *
 * TIMING_JSON is the stopping rule and the cache of reference outputs:
 * {"precision":0.01,"focus":1.25,"max_time":2,"cache":"/tmp/gsearch-ref.X"};
 * BEST_MS the sweep's best time when the measure was sent (0: none).  The
 * supervisor may send a worker its next measure before the result of the
 * one in progress, so that the worker never waits for it; results still come
 * one per measure, in order.
 *
 * SPACE names the space file for messages only: the worker parses SPACE_TEXT
 * and takes each kernel file's TEXT from the setup, never from the disk, so
 * that a space edited during a sweep cannot give a replacement worker
 * another space than the supervisor's.
 *     fatal   MESSAGE                setup failed; the worker exits
 *     result  IDX RESULT_JSON        one per measure, in order
 *
 * A worker whose device is broken (a sticky error) sends its result and
 * exits; the supervisor starts a fresh one. */
#ifndef GS_PROTO_H
#define GS_PROTO_H

#include "dev/measure.h"

#define GS_PROTO_VERSION "gsearch-worker-3"

/* RESULT_JSON, one object whose members are this table's, in this order:
 * both ends encode and decode through it (gs_proto_result_*), so that a
 * field added here reaches the supervisor without a second list.
 *
 *   X(KEY, KIND, SENT, MEMBER)   KEY: the JSON member and the decoded field
 *                                KIND: REAL (sent only when >= 0), INT, TEXT
 *                                      (char array), PTR (char *), FLAG (true
 *                                      or absent)
 *                                SENT: when the worker sends it (GS_SENT_*)
 *                                MEMBER: where struct gs_result holds it */
#define GS_PROTO_RESULT(X)                              \
	X(status, TEXT, ALWAYS, status)                 \
	X(time_ms, REAL, OK, time_ms)                   \
	X(min_ms, REAL, OK, min_ms)                     \
	X(iqr_ms, REAL, OK, iqr_ms)                     \
	X(reps, INT, OK, reps)                          \
	X(runs, INT, OK, runs)                          \
	X(warmups, INT, OK, warmups)                    \
	X(ci_lo_ms, REAL, OK, ci_lo_ms)                 \
	X(ci_hi_ms, REAL, OK, ci_hi_ms)                 \
	X(ci_pct, REAL, OK, ci_pct)                     \
	X(timed_ms, REAL, OK, timed_ms)                 \
	X(blocks_per_sm, INT, OCCUPANCY, blocks_per_sm) \
	X(occupancy, REAL, OCCUPANCY, occupancy)        \
	X(limiter, TEXT, OCCUPANCY, limiter)            \
	X(energy_j, REAL, ALWAYS, energy_j)             \
	X(power_w, REAL, ALWAYS, power_w)               \
	X(sm_clock_mhz, REAL, ALWAYS, sm_clock_mhz)     \
	X(temp_c, REAL, ALWAYS, temp_c)                 \
	X(max_abs_err, REAL, ALWAYS, max_abs_err)       \
	X(max_rel_err, REAL, ALWAYS, max_rel_err)       \
	X(error, TEXT, NONEMPTY, error)                 \
	X(metrics, PTR, NONNULL, metrics_json)          \
	X(counters, PTR, NONNULL, counters_json)        \
	X(modeled, FLAG, SET, modeled)                  \
	X(registers, INT, ALWAYS, attr.registers)       \
	X(sticky, FLAG, SET, sticky) /* the worker exits after this result */

/* A decoded result: what is absent is NULL (TEXT, PTR), -1 (REAL, INT) or
 * 0 (FLAG).  The strings live in the decoder's JSON, until
 * gs_proto_result_release. */
#define GS_PROTO_C_REAL double
#define GS_PROTO_C_INT int
#define GS_PROTO_C_TEXT const char *
#define GS_PROTO_C_PTR const char *
#define GS_PROTO_C_FLAG int
struct gs_proto_result {
#define GS_PROTO_FIELD(key, kind, sent, member) GS_PROTO_C_##kind key;
	GS_PROTO_RESULT(GS_PROTO_FIELD)
#undef GS_PROTO_FIELD
	void *json;
};

/* The worker's end: RESULT_JSON of r (malloc'd). */
char *gs_proto_result_encode(const struct gs_result *r);
/* The supervisor's end: 0, or -1 when text is not a JSON object (d then
 * holds nothing to release). */
int gs_proto_result_decode(const char *text, struct gs_proto_result *d);
void gs_proto_result_release(struct gs_proto_result *d);

#endif
