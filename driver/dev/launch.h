/* launch.h — walking a space's launch sequence as a device runs it.
 *
 * Every launch in order; a launch with a loop runs once per element of its
 * sequence, with the loop variable's slot of env set to the element; each
 * run does its constant copies, then the kernel.  The worker's plan
 * (dev/measure.c) and the result identity (sched/ident.c) both walk it
 * here, so that what is hashed is what is run.  The walker owns nothing;
 * the visitor's callbacks do the work. */
#ifndef GS_LAUNCH_H
#define GS_LAUNCH_H

#include <stddef.h>

struct gs_copy;
struct gs_launch;
struct gs_value;

/* Each callback returns 0, or -1 to stop the walk (gs_launch_walk then
 * returns -1). */
struct gs_launch_visit {
	/* a launch begins */
	int (*launch)(void *ctx, const struct gs_launch *l);
	/* a launch with a loop (l->loop_c): *seq = its sequence, to stay valid
	 * through the launch's runs */
	int (*loop)(void *ctx, const struct gs_launch *l, struct gs_value *seq);
	/* one constant copy of a run, in order */
	int (*copy)(void *ctx, const struct gs_launch *l, const struct gs_copy *c);
	/* the kernel of a run, after its copies */
	int (*run)(void *ctx, const struct gs_launch *l);
};

int gs_launch_walk(const struct gs_launch *ls, size_t nl, struct gs_value *env,
		   const struct gs_launch_visit *v, void *ctx);

#endif
