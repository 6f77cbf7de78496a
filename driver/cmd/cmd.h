/* cmd.h — the subcommands: one file each in cmd/, one table in main.c. */
#ifndef GS_CMD_H
#define GS_CMD_H

#include <stdint.h>
#include <stdio.h>

#include "core/diag.h"
#include "space/load.h"

/* Exit codes, as documented in the README. */
enum { GS_EXIT_OK = 0, GS_EXIT_ERRORS = 1, GS_EXIT_USAGE = 2 };

struct gs_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
	const char *help; /* full text of `gsearch help NAME` */
	int hidden;       /* internal: not listed by `gsearch help` */
};

int gs_cmd_check(int argc, char **argv);
int gs_cmd_list(int argc, char **argv);
int gs_cmd_run(int argc, char **argv);
int gs_cmd_compile(int argc, char **argv);
int gs_cmd_compile_server(int argc, char **argv);
int gs_cmd_worker(int argc, char **argv);
int gs_cmd_query(int argc, char **argv);
int gs_cmd_merge(int argc, char **argv); extern const char gs_help_merge[];
int gs_cmd_import(int argc, char **argv); extern const char gs_help_import[];
int gs_cmd_replay(int argc, char **argv); extern const char gs_help_replay[];
extern const char gs_help_query[];
int gs_cmd_show(int argc, char **argv); extern const char gs_help_show[];
extern const char gs_help_worker[];
int gs_cmd_devices(int argc, char **argv);
extern const char gs_help_devices[];
int gs_cmd_occupancy(int argc, char **argv);
extern const char gs_help_occupancy[];
int gs_cmd_help(int argc, char **argv);

extern const char gs_help_check[], gs_help_list[], gs_help_run[], gs_help_compile[],
	gs_help_help[];

const struct gs_cmd *gs_cmd_find(const char *name);
const struct gs_cmd *gs_cmd_table(size_t *n);
void gs_print_overview(FILE *f);
/* Print "usage: ..." (the first paragraph of the command's help) to stderr
 * with an error and return GS_EXIT_USAGE. */
int gs_usage_error(const char *cmd, const char *fmt, ...) GS_PRINTF(2, 3);
/* Is argv[i] --help or -h?  Prints the help to stdout. */
int gs_wants_help(const char *cmd, int argc, char **argv);

/* Options shared by the commands that read a space. */
struct gs_space_args {
	const char *path;
	const char **sets;
	size_t nsets;
	int emu;
	uint64_t shard_i, shard_n;
	int shard_given;
	enum gs_t1_grid t1_grid;
};
/* The options every command that reads a space takes (--shard only where
 * the command lists it), for getopt_long tables. */
#define GS_OPT_SET { "set", required_argument, NULL, 's' }
#define GS_OPT_EMU { "emu", no_argument, NULL, 'e' }
#define GS_OPT_SHARD { "shard", required_argument, NULL, 'S' }
#define GS_OPT_T1_GRID { "t1-grid", required_argument, NULL, 'G' }
/* Its line in a command's help. */
#define GS_HELP_T1_GRID                                                                           \
	"  --t1-grid FROM    the grid of a T1 file that gives two: problem (ProblemSize\n"          \
	"                    and GridDiv, as Kernel Tuner computes it; the default) or\n"        \
	"                    global (GlobalSize)\n"
void gs_space_args_init(struct gs_space_args *a, int argc);
void gs_space_args_release(struct gs_space_args *a);
/* 1: `c` was one of the shared options and is handled; 0: it was not;
 * -1: a usage error, printed. */
int gs_space_args_option(struct gs_space_args *a, const char *cmd, int c, const char *arg);
/* After getopt_long: take the one SPACE argument.  0, or -1 after a usage
 * error was printed. */
int gs_space_args_file(struct gs_space_args *a, const char *cmd, int argc, char **argv);
/* Report getopt_long's ':' (missing value) or '?' (unknown option). */
int gs_option_error(const char *cmd, int c, char **argv);

/* The options of `run` and of `query` checked as the commands check them,
 * with nothing run and no store opened: what the option fuzzer calls.  0, or
 * GS_EXIT_USAGE after printing why.  `a` (initialized by the caller) gets
 * run's --set, --emu and SPACE, pointing into argv. */
int gs_run_parse_args(int argc, char **argv, struct gs_space_args *a);
int gs_query_parse_args(int argc, char **argv);

/* Is this an architecture name NVRTC could take (sm_XX)? */
int gs_arch_ok(const char *arch);

/* Parse --shard i/N (1 on success). */
int gs_parse_shard(const char *s, uint64_t *i, uint64_t *n);
/* Unless --shard was given, the shard from SLURM_ARRAY_TASK_ID, _MIN, _STEP
 * and _COUNT when set: the task's rank in the array, of COUNT.  0, or -1
 * after printing why the variables make no shard. */
int gs_shard_from_env(struct gs_space_args *a);
/* `check`'s geometry (geometry.c): one line per launch and reference of the
 * baseline, else of the first valid configuration -- "launch NAME grid
 * X,Y,Z block X,Y,Z shared BYTES" -- and, for a T1 file with two grids, a
 * warning in d at the first configuration where they differ. */
struct gs_space;
void gs_check_geometry(const struct gs_space *sp, int baseline_valid, struct gs_diag *d);

/* Load and check; prints diagnostics.  NULL (after printing) on errors. */
struct gs_space *gs_load_space_or_report(const struct gs_space_args *a);

#endif
