/* prespawn.h — a device worker started before the sweep knows its devices.
 *
 * Initializing the CUDA driver and making a context take a few hundred
 * milliseconds in each process: the supervisor's (to learn the GPUs and
 * name the sweep) and the worker's (to measure) would pay them one after
 * the other.  `gsearch run` therefore starts the first GPU's worker at once,
 * with `--prewarm ORDINAL` so that it initializes while the supervisor does,
 * and the sweep adopts it (sched/workers.c) instead of starting one; a run
 * that ends up elsewhere (the emulated device, an error) cancels it. */
#ifndef GS_SCHED_PRESPAWN_H
#define GS_SCHED_PRESPAWN_H

struct gs_prespawned {
	int pid;     /* 0: none */
	int ordinal; /* the GPU it warms up */
	int in_fd;   /* its stdin, our end */
	int out_fd;  /* its stdout, our end */
};

/* Start `prog worker --prewarm ORDINAL` in its own session, stderr shared.
 * 0, or -1 (p->pid stays 0: the sweep starts its worker as usual). */
int gs_prespawn(struct gs_prespawned *p, const char *prog, int ordinal);
/* End an unused one: closing its stdin ends it; reap it. */
void gs_prespawn_cancel(struct gs_prespawned *p);

#endif
