/* runprior.h — the priors `run --prior` computes itself before a search:
 * `static` (compile-time facts) and `emu[:PROFILE]` (the emulated device's
 * modeled times).  Each is a sweep made by a child `gsearch run` with the
 * run's own options: `static` compiles every variant of the run's own sweep
 * (the search then reads registers and occupancy from its store, and
 * reuses the compiles), `emu` sweeps the space on the emulated device into
 * a store of its own beside the run's, read as a `sweep:` prior. */
#ifndef GS_CMD_RUNPRIOR_H
#define GS_CMD_RUNPRIOR_H

/* Is spec one of these priors?  1 yes, 0 no, -1 an emu profile that does
 * not exist. */
int gs_run_prior_computed(const char *spec);

/* Compute the prior spec for the run of argv (run's own argc/argv, argv[0]
 * "run") whose store is dbpath.  Returns 0 and, in *load, what the search
 * loads (caller frees: "static", or "sweep:PATH"); -1 after printing why. */
int gs_run_prior_compute(const char *spec, int argc, char **argv, const char *dbpath, char **load);

#endif
