/* compile.h — compiling one variant, the unit of work of the supervisor's
 * compile threads (sched/compiles.c): NVRTC in this process or in the calling
 * thread's compile server, then the resources from the cubin and the ptxas
 * report.  The caller owns the gs_built and releases it. */
#ifndef GS_SCHED_COMPILE_H
#define GS_SCHED_COMPILE_H

#include "gen/gen.h"
#include "space/space.h"

/* Compile one variant on the calling thread: NVRTC, then resources from the
 * cubin and the ptxas log.  Used by the pool and by `gsearch compile`. */
struct gs_variant;
struct gs_built {
	struct gs_compile_out out;
	struct gs_resources res;
	int nvrtc_failed; /* NVRTC itself failed, not the source */
	char err[512];
};
/* isolated: compile in this thread's compile server (see gen/isolate.c),
 * which is stopped after timeout_s seconds (> 0). */
void gs_compile_variant(struct gs_nvrtc *nvrtc, const struct gs_variant *v, int want_ptx,
			int isolated, double timeout_s, struct gs_built *b);
void gs_built_release(struct gs_built *b, size_t nnames);

#endif
