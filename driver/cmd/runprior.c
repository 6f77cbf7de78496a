/* runprior.c — `run --prior static` and `--prior emu[:PROFILE]`: the sweep
 * that computes the prior, by a child gsearch (see runprior.h). */
#define _GNU_SOURCE
#include "cmd/runprior.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dev/emu.h"
#include "util/util.h"

extern char **environ;

/* The emulated device a prior names: "emu" is emu:sm_90, as for --device. */
static const char *emu_name(const char *spec)
{
	return spec[3] == ':' ? spec + 4 : "sm_90";
}

int gs_run_prior_computed(const char *spec)
{
	if (!strcmp(spec, "static"))
		return 1;
	if (strncmp(spec, "emu", 3) || (spec[3] && spec[3] != ':'))
		return 0;
	return gs_emu_profile_find(emu_name(spec)) ? 1 : -1;
}

/* Is argv[i] option `name` (--name or --name=...)?  2: its value is the
 * next argument, 1: it is in this one, 0: another. */
static int is_opt(const char *arg, const char *name, int has_value)
{
	size_t n = strlen(name);
	if (strncmp(arg, "--", 2) || strncmp(arg + 2, name, n))
		return 0;
	if (!arg[2 + n])
		return has_value ? 2 : 1;
	return arg[2 + n] == '=' ? 1 : 0;
}

/* run's arguments without those the child sets or must not see. */
static size_t child_args(int argc, char **argv, const char **out, int emu)
{
	static const char *const with_value[] = { "strategy", "budget", "prior", "seed", "db", "device", "arch" };
	static const char *const flags[] = { "quiet", "compile-only", "dry-run" };
	size_t n = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < argc)
				out[n++] = argv[i++];
			break;
		}
		int skip = 0;
		for (size_t k = 0; !skip && k < GS_ARRAY_SIZE(with_value); k++) {
			/* the static prior's compiles are the run's own: same
			 * device and architecture */
			if (!emu && k >= 5)
				break;
			skip = is_opt(argv[i], with_value[k], 1);
		}
		for (size_t k = 0; !skip && k < GS_ARRAY_SIZE(flags); k++)
			skip = is_opt(argv[i], flags[k], 0);
		if (skip == 2)
			i++;
		else if (!skip)
			out[n++] = argv[i];
	}
	return n;
}

/* Run the child; 0 when it exits 0. */
static int spawn(const char **args)
{
	char self[4096];
	ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
	if (len <= 0) {
		fprintf(stderr, "gsearch: error: --prior: cannot find the gsearch binary\n");
		return -1;
	}
	self[len] = 0;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	/* its report is the child's business; its errors are the run's */
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int rc = posix_spawn(&pid, self, &fa, NULL, (char *const *)args, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		fprintf(stderr, "gsearch: error: --prior: cannot start gsearch: %s\n", strerror(rc));
		return -1;
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int gs_run_prior_compute(const char *spec, int argc, char **argv, const char *dbpath, char **load)
{
	int emu = !!strncmp(spec, "static", 6);
	const char **args = gs_xcalloc((size_t)argc + 12, sizeof *args);
	size_t n = 0;
	char *prior_db = NULL, *dev = NULL;
	args[n++] = "gsearch";
	args[n++] = "run";
	args[n++] = "--quiet";
	args[n++] = "--db";
	if (emu) {
		/* beside the run's store: results/x.db -> results/x.prior-emu-sm_90.db */
		size_t l = strlen(dbpath);
		if (l > 3 && !strcmp(dbpath + l - 3, ".db"))
			l -= 3;
		prior_db = gs_xasprintf("%.*s.prior-emu-%s.db", (int)l, dbpath, emu_name(spec));
		dev = gs_xasprintf("emu:%s", emu_name(spec));
		args[n++] = prior_db;
		args[n++] = "--device";
		args[n++] = dev;
	} else {
		args[n++] = dbpath;
		args[n++] = "--compile-only";
	}
	n += child_args(argc, argv, args + n, emu);
	args[n] = NULL;
	fflush(stdout);
	double t0 = gs_now();
	int rc = spawn(args);
	if (rc < 0)
		fprintf(stderr, "gsearch: error: --prior %s: its sweep failed (%s)\n", spec,
			emu ? prior_db : "compiling every variant");
	else {
		printf("prior    %s: %s, %.1f s\n", spec,
		       emu ? "the emulated device's sweep" : "every variant compiled", gs_now() - t0);
		if (emu)
			printf("         in %s\n", prior_db);
		*load = emu ? gs_xasprintf("sweep:%s", prior_db) : gs_xstrdup("static");
	}
	free(prior_db);
	free(dev);
	free(args);
	return rc;
}
