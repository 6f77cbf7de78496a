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

#define GS_PROTO_VERSION "gsearch-worker-3"

#endif
