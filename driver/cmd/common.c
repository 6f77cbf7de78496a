/* common.c — what the commands that read a space share. */
#include "cmd/cmd.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int gs_parse_shard(const char *s, uint64_t *i, uint64_t *n)
{
	char *end;
	errno = 0;
	unsigned long long a = strtoull(s, &end, 10);
	if (end == s || *end != '/' || errno || s[0] == '-')
		return 0;
	const char *t = end + 1;
	unsigned long long b = strtoull(t, &end, 10);
	if (end == t || *end || errno || t[0] == '-' || b == 0 || a >= b)
		return 0;
	*i = a;
	*n = b;
	return 1;
}

/* A decimal number from the environment: 1, 0 when unset, -1 when not one. */
static int env_u64(const char *name, uint64_t *v)
{
	const char *s = getenv(name);
	char *end;

	if (!s)
		return 0;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (end == s || *end || errno || s[0] == '-')
		return -1;
	*v = x;
	return 1;
}

int gs_shard_from_env(struct gs_space_args *a)
{
	uint64_t id, count, min = 0, step = 1;
	int has_id, has_count, bad;

	if (a->shard_given)
		return 0;
	has_id = env_u64("SLURM_ARRAY_TASK_ID", &id);
	has_count = env_u64("SLURM_ARRAY_TASK_COUNT", &count);
	if (!has_id)
		return 0; /* not a task of a job array */
	/* an array need not start at 0 (--array=1-4) nor go by ones (0-6:2):
	 * the shard is the task's rank in it */
	bad = has_id < 0 || has_count <= 0 || env_u64("SLURM_ARRAY_TASK_MIN", &min) < 0 ||
	      env_u64("SLURM_ARRAY_TASK_STEP", &step) < 0 || count == 0 || step == 0 || id < min ||
	      (id - min) % step || (id - min) / step >= count;
	if (bad) {
		static const char *const var[] = { "ID", "MIN", "STEP", "COUNT" };
		struct gs_buf b = GS_BUF_INIT;

		for (size_t k = 0; k < GS_ARRAY_SIZE(var); k++) {
			char name[32];
			const char *v;

			snprintf(name, sizeof(name), "SLURM_ARRAY_TASK_%s", var[k]);
			v = getenv(name);
			gs_buf_printf(&b, "%s%s=%s", k ? ", " : "", name, v ? v : "(unset)");
		}
		fprintf(stderr,
			"gsearch: error: cannot take a shard from %s: the array's tasks must be MIN, "
			"MIN+STEP, ... (COUNT of them); give --shard I/N\n",
			gs_buf_str(&b));
		gs_buf_release(&b);
		return -1;
	}
	a->shard_i = (id - min) / step;
	a->shard_n = count;
	return 0;
}

struct gs_space *gs_load_space_or_report(const struct gs_space_args *a)
{
	struct gs_diag d = GS_DIAG_INIT;
	struct gs_space_opts o = { .sets = a->sets, .nsets = a->nsets, .emu = a->emu,
				   .t1_grid = a->t1_grid };
	struct gs_space *sp = gs_space_load(a->path, &o, &d);
	gs_diag_print(&d, stderr);
	int bad = d.errors != 0;
	gs_diag_release(&d);
	if (bad || !sp) {
		gs_space_free(sp);
		return NULL;
	}
	return sp;
}

void gs_space_args_init(struct gs_space_args *a, int argc)
{
	memset(a, 0, sizeof(*a));
	a->shard_n = 1;
	a->sets = gs_xcalloc((size_t)argc + 1, sizeof(*a->sets));
}

void gs_space_args_release(struct gs_space_args *a)
{
	free(a->sets);
	a->sets = NULL;
}

int gs_space_args_option(struct gs_space_args *a, const char *cmd, int c, const char *arg)
{
	switch (c) {
	case 's':
		a->sets[a->nsets++] = arg;
		return 1;
	case 'e':
		a->emu = 1;
		return 1;
	case 'G':
		if (!strcmp(arg, "problem")) {
			a->t1_grid = GS_T1_GRID_PROBLEM;
		} else if (!strcmp(arg, "global")) {
			a->t1_grid = GS_T1_GRID_GLOBAL;
		} else {
			gs_usage_error(cmd, "--t1-grid takes problem or global, not '%s'", arg);
			return -1;
		}
		return 1;
	case 'S':
		if (!gs_parse_shard(arg, &a->shard_i, &a->shard_n)) {
			gs_usage_error(cmd, "--shard needs I/N with 0 <= I < N, not '%s'", arg);
			return -1;
		}
		a->shard_given = 1;
		return 1;
	default:
		return 0;
	}
}

int gs_space_args_file(struct gs_space_args *a, const char *cmd, int argc, char **argv)
{
	if (optind != argc - 1) {
		gs_usage_error(cmd, optind >= argc ? "no space file given" : "expected one space file");
		return -1;
	}
	a->path = argv[optind];
	/* /dev/stdin redirected from a file: the space is that file, whose
	 * directory its relative paths are relative to, and which workers open
	 * again by name (their own stdin is not it).  Anything else there (a
	 * pipe, a terminal) stays as given and is refused as not a regular file. */
	if (!strncmp(a->path, "/dev/", 5) || !strncmp(a->path, "/proc/", 6)) {
		/* static: commands read a.path after releasing the arguments */
		static char real[PATH_MAX];
		if (realpath(a->path, real) && strncmp(real, "/dev/", 5) && strncmp(real, "/proc/", 6))
			a->path = real;
	}
	return 0;
}

int gs_option_error(const char *cmd, int c, char **argv)
{
	if (c == ':')
		return gs_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
	return gs_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

int gs_arch_ok(const char *arch)
{
	if (strncmp(arch, "sm_", 3) || !arch[3])
		return 0;
	for (const char *p = arch + 3; *p; p++)
		if (!((*p >= '0' && *p <= '9') || *p == 'a' || *p == 'f'))
			return 0;
	return 1;
}
