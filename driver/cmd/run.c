/* run.c — `gsearch run`: create (or find) the sweep and its configurations. */
#include "cmd/argcheck.h"
#include "cmd/cmd.h"
#include "cmd/runprior.h"
#include "dev/emu.h"
#include "gen/gen.h"
#include "query/overhead.h"
#include "dev/dev.h"
#include "sched/configs.h"
#include "sched/prespawn.h"
#include "sched/source_search.h"
#include "sched/sweep.h"
#include "sched/sweepid.h"
#include <sqlite3.h>
#include "space/enum.h"
#include "store/lock.h"
#include "store/store.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

const char gs_help_run[] =
	"usage: gsearch run [--dry-run | --compile-only] [--device DEV] [--jobs N] [--arch sm_XX]\n"
	"                   [--timeout S] [--setup-timeout S] [--compile-timeout S]\n"
	"                   [--precision P] [--max-time S] [--focus F|off]\n"
	"                   [--flush-l2] [--remeasure] [--quiet] [--db FILE] [--shard I/N]\n"
	"                   [--threads N] [--emu-sample N] [--set NAME=VALUE]... [--emu]\n"
	"                   [--strategy S] [--budget B] [--prior P] [--seed N] SPACE\n"
	"\n"
	"Measures every valid configuration of SPACE: compiles its variant through\n"
	"NVRTC (on N threads, ahead of the devices), runs it on one worker process\n"
	"per GPU, validates its outputs against the reference launch, times it, and\n"
	"stores the outcome: ok, invalid, compile_error, launch_error, crash,\n"
	"timeout or wrong (on the emulated device also emu_limit: its emulation took\n"
	"longer than --timeout).  A crash or a hang costs one configuration: its worker\n"
	"is replaced and the sweep goes on.\n"
	"\n"
	"The sweep is identified by the space text, kernel sources, problem values,\n"
	"device and options; running the same command again resumes it: nothing\n"
	"with a final outcome is measured twice.  A configuration whose result\n"
	"another sweep of the store already has (the same variant, launches,\n"
	"buffers, reference, device and options) takes that result instead of\n"
	"being measured: an edited space measures only what the edit changed.\n"
	"Ctrl-C stops enqueueing, lets the work in flight finish and exits 130;\n"
	"a second Ctrl-C stops the workers.\n"
	"\n"
	"Exit status: 0 when the sweep ran and at least one configuration is ok;\n"
	"1 on errors (the space, the store, a device, a compiler process that died\n"
	"twice on a variant: run again to finish), and when the sweep ran but\n"
	"no configuration is ok (the last line says so); 2 on a usage error; 128+N\n"
	"when stopped by signal N (130: Ctrl-C).\n"
	"\n"
	"options:\n"
	"  --dry-run         create the sweep and its configurations, compile nothing\n"
	"  --compile-only    also compile every variant (no GPU needed)\n"
	"  --device DEV      cuda (all GPUs, the default when there is one), cuda:0,1,\n"
	"                    emu:PROFILE (the emulated device: g80, gf100, sm_80, sm_86, sm_90;\n"
	"                    the default without a GPU is emu, that is emu:sm_90)\n"
	"  --threads N       host threads of the emulated device (default: all cores)\n"
	"  --emu-sample N    blocks of each launch the emulated device executes to time\n"
	"                    it at the real size (default: the profile's, 32 for sm_80,\n"
	"                    sm_86 and sm_90); 0 times at the emulator size, as --emu\n"
	"  --jobs N          compile threads (default: the number of cores)\n"
	"  --arch sm_XX      target architecture (default: the device's)\n"
	"  --timeout S       seconds a configuration may run (default: the space's, 10);\n"
	"                    on the emulated device, host seconds its emulation may take\n"
	"  --setup-timeout S seconds a worker may take to fill the inputs and run the\n"
	"                    reference (default 600)\n"
	"  --compile-timeout S  seconds one variant may take to compile (default 300);\n"
	"                    past that it is a compile_error \"timed out\"\n"
	"  --precision P     time each configuration until the 95% confidence interval\n"
	"                    of its median is within +-P% (default 1)\n"
	"  --max-time S      at most S seconds of timed work per configuration (default 2)\n"
	"  --focus F|off     stop timing a configuration once it is surely F times slower\n"
	"                    than the best so far (default 1.25; off: full precision)\n"
	"  --flush-l2        write a buffer larger than L2 before every timed run\n"
	"  --remeasure       take no result from another sweep: a sweep of its own\n"
	"                    that measures every configuration\n"
	"  --quiet           no progress display\n"
	"  --db FILE         the store (default results/SPACE.db, or\n"
	"                    results/SPACE.shard-I-of-N.db for a shard)\n"
	"  --shard I/N       only shard I of N; default from SLURM_ARRAY_TASK_ID and\n"
	"                    SLURM_ARRAY_TASK_COUNT when set\n"
	"  --set NAME=VALUE  override a problem constant (repeatable)\n"
	"  --emu             use the problems' emulator sizes only (emulated devices always\n"
	"                    validate at those; with --emu they time there too)\n"
	GS_HELP_T1_GRID
	"  --strategy S      measure what search strategy S proposes, not every\n"
	"                    configuration (`gsearch help replay` lists them)\n"
	"  --budget B        evaluations (500), a share of the valid configurations\n"
	"                    (2%), or wall time (30s, 90m, 2h); a count is shared among\n"
	"                    the shards.  Results already stored count, unmeasured:\n"
	"                    a larger budget extends the search.  Under a time the\n"
	"                    strategy gets results as they arrive (not repeatable),\n"
	"                    under a count in the order it proposed them\n"
	"  --prior P         predictions for the strategy: sweep:STORE[#ID], kt:FILE,\n"
	"                    static (every variant compiled first: registers and\n"
	"                    occupancy) or emu[:PROFILE] (a sweep on the emulated\n"
	"                    device first, in STORE.prior-emu-PROFILE.db)\n"
	"  --seed N          the strategy's seed (default 1)\n"
	"  -h, --help        this help\n";

/* The store's message says what failed (store.h): `what` only stands in
 * where it recorded none. */
static int store_fail(struct gs_store *st, const char *what)
{
	const char *m = st ? gs_store_errmsg(st) : "";
	fprintf(stderr, "gsearch: error: %s\n", *m ? m : what);
	return GS_EXIT_ERRORS;
}

struct run_opts {
	int dry, compile_only, flush_l2, quiet, remeasure;
	struct gs_stop_policy stop;
	unsigned jobs;
	int threads; /* the emulated device's, 0: all cores */
	int sample;  /* --emu-sample, -1: the profile's */
	double timeout_s, setup_timeout_s, compile_timeout_s;
	const char *db, *device, *arch;
	char archbuf[16];
	/* a search under a budget (sched/source_search.h): none without
	 * --strategy and --budget */
	const struct gs_strategy_ops *strategy;
	const char *budget, *prior;
	char *prior_load; /* what the search loads for a prior run computes */
	const struct gs_emu_profile *occ; /* static: the occupancy's rules */
	unsigned long long seed;
	double t_start; /* when `run` began: a time budget counts from there */
};

/* A finite number in [lo, hi]: 0, or -1. */
static int number_in(const char *text, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || *end || errno || !(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

/* long-only: every letter may already be taken by the shared GS_OPT_* */
enum { OPT_SAMPLE = 1000, OPT_STRATEGY, OPT_BUDGET, OPT_PRIOR, OPT_SEED };

/* --strategy, --budget, --prior, --seed: 1, or -1 after a usage error. */
static int search_option(struct run_opts *o, int c, const char *arg)
{
	switch (c) {
	case OPT_STRATEGY:
		if ((o->strategy = gs_strategy_find(arg)))
			return 1;
		size_t n;
		const struct gs_strategy_ops *const *t = gs_strategy_table(&n);
		struct gs_buf b = GS_BUF_INIT;
		for (size_t i = 0; i < n; i++)
			gs_buf_printf(&b, "%s%s", i ? ", " : "", t[i]->name);
		gs_usage_error("run", "unknown strategy '%s' (strategies: %s)", arg, gs_buf_str(&b));
		gs_buf_release(&b);
		return -1;
	case OPT_BUDGET:
		if (gs_search_budget_ok(arg) < 0)
			return (gs_usage_error("run", "--budget wants N, P%% or a time (90s, 90m, 2h), "
					       "not '%s'", arg), -1);
		o->budget = arg;
		return 1;
	case OPT_PRIOR:
		if (gs_run_prior_computed(arg) < 0)
			return (gs_usage_error("run", "--prior %s: no such emulated device (`gsearch "
					       "devices` lists them)", arg), -1);
		o->prior = arg;
		return 1;
	default: {
		char *end;
		errno = 0;
		o->seed = strtoull(arg, &end, 10);
		if (end == arg || *end || errno || *arg == '-')
			return (gs_usage_error("run", "--seed needs a number, not '%s'", arg), -1);
		return 1;
	}
	}
}

/* A whole number in [lo, hi]: 0, or -1. */
static int int_in(const char *text, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (end == text || *end || errno || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* --timeout, --setup-timeout, --compile-timeout, --max-time: seconds
 * from 0.001 to 86400 into *out; 1, or -1 after a usage error.  inf or
 * 1e30 would overflow the dispatcher's millisecond timer and turn every
 * configuration into a timeout. */
static int seconds_option(const char *name, const char *arg, double *out)
{
	if (number_in(arg, 0.001, 86400, out) < 0)
		return (gs_usage_error("run", "--%s needs seconds from 0.001 to 86400, not '%s'", name,
				       arg), -1);
	return 1;
}

/* The options that take a number in a range (timeouts, the stopping rule,
 * threads, the sample, jobs): 1, or -1 after a usage error. */
static int number_option(struct run_opts *o, int c, const char *arg)
{
	double v = 0;
	long n;
	switch (c) {
	case 't': return seconds_option("timeout", arg, &o->timeout_s);
	case 'U': return seconds_option("setup-timeout", arg, &o->setup_timeout_s);
	case 'C': return seconds_option("compile-timeout", arg, &o->compile_timeout_s);
	case 'M': return seconds_option("max-time", arg, &o->stop.max_time_s);
	case 'P':
		if (number_in(arg, 0.001, 100, &v) < 0)
			return (gs_usage_error("run", "--precision needs a percentage from 0.001 to 100, "
					       "not '%s'", arg), -1);
		o->stop.precision = v / 100;
		return 1;
	case 'F':
		if (strcmp(arg, "off") && number_in(arg, 1, 1000, &v) < 0)
			return (gs_usage_error("run", "--focus needs a factor from 1 to 1000 or 'off', "
					       "not '%s'", arg), -1);
		o->stop.focus = v;
		return 1;
	case 'T':
		if (int_in(arg, 1, 256, &n) < 0)
			return (gs_usage_error("run", "--threads needs a number from 1 to 256, not '%s'",
					       arg), -1);
		o->threads = (int)n;
		return 1;
	case OPT_SAMPLE:
		if (int_in(arg, 0, 100000, &n) < 0)
			return (gs_usage_error("run", "--emu-sample needs a number of blocks from 0 to "
					       "100000, not '%s'", arg), -1);
		o->sample = (int)n;
		return 1;
	default: /* 'j' */
		if (int_in(arg, 1, 1024, &n) < 0)
			return (gs_usage_error("run", "--jobs needs a number from 1 to 1024, not '%s'",
					       arg), -1);
		o->jobs = (unsigned)n;
		return 1;
	}
}

/* One option of run's own (not a space argument): 1, or -1 after a usage
 * error. */
static int run_option(struct run_opts *o, int c, char **argv)
{
	switch (c) {
	case 'n': o->dry = 1; return 1;
	case 'd':
		o->db = optarg;
		if (!*optarg)
			return (gs_usage_error("run", "--db needs a file name"), -1);
		return 1;
	case 'D': o->device = optarg; return 1;
	case 'c': o->compile_only = 1; return 1;
	case 'f': o->flush_l2 = 1; return 1;
	case 'q': o->quiet = 1; return 1;
	case 'R': o->remeasure = 1; return 1;
	case 'a':
		if (!gs_arch_ok(optarg))
			return (gs_usage_error("run", "--arch needs sm_XX, not '%s'", optarg), -1);
		o->arch = optarg;
		return 1;
	case 't': case 'U': case 'C': case 'P': case 'M': case 'F':
	case 'T': case OPT_SAMPLE: case 'j':
		return number_option(o, c, optarg);
	case OPT_STRATEGY: case OPT_BUDGET: case OPT_PRIOR: case OPT_SEED:
		return search_option(o, c, optarg);
	default:
		return (gs_option_error("run", c, argv), -1);
	}
}

/* 0, or GS_EXIT_USAGE after printing why. */
static int parse_options(int argc, char **argv, struct gs_space_args *a, struct run_opts *o)
{
	static const struct option opts[] = {
		GS_OPT_SET, GS_OPT_EMU, GS_OPT_SHARD, GS_OPT_T1_GRID,
		{ "dry-run", no_argument, NULL, 'n' },     { "db", required_argument, NULL, 'd' },
		{ "device", required_argument, NULL, 'D' }, { "compile-only", no_argument, NULL, 'c' },
		{ "jobs", required_argument, NULL, 'j' },  { "arch", required_argument, NULL, 'a' },
		{ "timeout", required_argument, NULL, 't' }, { "flush-l2", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },       { "threads", required_argument, NULL, 'T' },
		{ "precision", required_argument, NULL, 'P' }, { "max-time", required_argument, NULL, 'M' },
		{ "focus", required_argument, NULL, 'F' }, { "setup-timeout", required_argument, NULL, 'U' },
		{ "compile-timeout", required_argument, NULL, 'C' },
		{ "remeasure", no_argument, NULL, 'R' },
		{ "emu-sample", required_argument, NULL, OPT_SAMPLE },
		{ "strategy", required_argument, NULL, OPT_STRATEGY },
		{ "budget", required_argument, NULL, OPT_BUDGET },
		{ "prior", required_argument, NULL, OPT_PRIOR },
		{ "seed", required_argument, NULL, OPT_SEED }, { NULL, 0, NULL, 0 },
	};
	int c;
	memset(o, 0, sizeof(*o));
	o->device = NULL;
	o->stop = gs_stop_default;
	o->setup_timeout_s = 600;
	o->sample = -1;
	o->compile_timeout_s = 300;
	o->seed = 1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		int r = gs_space_args_option(a, "run", c, optarg);
		if (!r)
			r = run_option(o, c, argv);
		if (r < 0)
			return GS_EXIT_USAGE;
	}
	if (gs_space_args_file(a, "run", argc, argv) < 0)
		return GS_EXIT_USAGE;
	if (o->dry && o->compile_only)
		return gs_usage_error("run", "--dry-run and --compile-only exclude each other");
	if (o->prior && !o->strategy)
		return gs_usage_error("run", "--prior needs --strategy: one that uses it");
	if (o->budget && !o->strategy)
		o->strategy = &gs_strategy_exhaustive;
	if (o->strategy && o->strategy->prior == GS_PRIOR_NEEDED && !o->prior)
		return gs_usage_error("run", "strategy '%s' needs --prior", o->strategy->name);

	if (!o->jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		o->jobs = n > 0 ? (unsigned)n : 1;
	}
	return 0;
}

int gs_run_parse_args(int argc, char **argv, struct gs_space_args *a)
{
	struct run_opts o;
	return parse_options(argc, argv, a, &o);
}

struct devices {
	int gpus[64];
	size_t ngpus;
	char ident[256]; /* the device part of the sweep's identity */
	char why[256];   /* why there is no GPU */
	const struct gs_emu_profile *emu; /* the emulated device, when it is one */
};

/* The emulated device named by "emu" or "emu:PROFILE": its profile, or NULL
 * after saying which profiles there are. */
static const struct gs_emu_profile *emu_profile(const char *d, int *bad_file)
{
	const char *name = d[3] == ':' ? d + 4 : d[3] ? NULL : "sm_90";
	const struct gs_emu_profile *p = name ? gs_emu_profile_find(name) : NULL;
	if (p)
		return p;
	const char *why = name ? gs_emu_profile_error(name) : NULL;
	if (why) {
		/* never the compiled-in copy in its stead: the user edited the
		 * file to be measured with it */
		fprintf(stderr, "gsearch: error: %s\n", why);
		*bad_file = 1;
		return NULL;
	}
	struct gs_buf b = GS_BUF_INIT;
	for (int i = 0; gs_emu_profiles[i]; i++)
		gs_buf_printf(&b, "%semu:%s", i ? ", " : "", gs_emu_profiles[i]->name);
	fprintf(stderr, "gsearch: error: unknown device '%s' (emulated devices: %s)\n", d,
		gs_buf_str(&b));
	gs_buf_release(&b);
	return NULL;
}

/* Which devices a sweep runs on: --device, else every GPU of the host, else
 * the emulated device's default profile. */
static int resolve_devices(struct run_opts *o, struct devices *dv)
{
	memset(dv, 0, sizeof(*dv));
	const char *d = o->device;
	char err[256] = "";
	const char *fake = getenv("GSEARCH_FAKE_GPUS");
	if (fake && atoi(fake) > 0) {
		/* test hook: pretend GPUs, measured by GSEARCH_WORKER */
		for (int i = 0; i < atoi(fake) && i < 64; i++)
			dv->gpus[dv->ngpus++] = i;
		snprintf(dv->ident, sizeof dv->ident, "fake");
		if (!o->arch)
			o->arch = "sm_90";
		return 0;
	}
	if (!d || !strncmp(d, "cuda", 4)) {
		int n = gs_dev_cuda.count(err, sizeof err);
		if (n <= 0) {
			snprintf(dv->why, sizeof dv->why, "%s", err[0] ? err : "no CUDA device");
			if (d) {
				fprintf(stderr, "gsearch: error: --device %s: %s\n", d, dv->why);
				return -1;
			}
			d = "emu";
		} else if (!d || !strcmp(d, "cuda")) {
			for (int i = 0; i < n && i < 64; i++)
				dv->gpus[dv->ngpus++] = i;
		} else if (d[4] == ':') {
			for (const char *p = d + 5; *p;) {
				char *end;
				long v = strtol(p, &end, 10);
				if (end == p || v < 0 || v >= n || dv->ngpus == 64) {
					fprintf(stderr, "gsearch: error: --device %s: this host has cuda:0 to "
							"cuda:%d\n", d, n - 1);
					return -1;
				}
				dv->gpus[dv->ngpus++] = (int)v;
				p = *end == ',' ? end + 1 : end;
				if (*end && *end != ',') {
					fprintf(stderr, "gsearch: error: --device %s: expected cuda:N,M,...\n", d);
					return -1;
				}
			}
		}
	}
	if (!dv->ngpus) { /* the emulated device, or a name that is neither */
		if (strncmp(d, "emu", 3) || (d[3] && d[3] != ':')) {
			fprintf(stderr, "gsearch: error: unknown device '%s' (cuda, cuda:N,M or emu:PROFILE)\n",
				d);
			return -1;
		}
		int bad_file = 0;
		if (!(dv->emu = emu_profile(d, &bad_file)))
			return bad_file ? -2 : -1;
		/* one worker running blocks on all cores: the same results whatever
		 * the number of threads, so they are no part of the identity */
		for (int i = 0; gs_emu_profiles[i]; i++)
			if (gs_emu_profiles[i] == dv->emu)
				dv->gpus[dv->ngpus++] = i;
		snprintf(dv->ident, sizeof dv->ident, "emu:%s", dv->emu->name);
		if (!o->arch)
			o->arch = dv->emu->arch;
		return 0;
	}
	if (dv->ngpus) {
		/* the identity names the kind of GPU, not which ones: a sweep may
		 * resume on other GPUs of the same kind */
		struct gs_devinfo info;
		/* the properties, without a context: making one costs a few
		 * hundred milliseconds, which the workers pay anyway */
		if (gs_dev_cuda.info(dv->gpus[0], &info, err, sizeof err) < 0) {
			fprintf(stderr, "gsearch: error: cuda:%d: %s\n", dv->gpus[0], err);
			return -1;
		}
		snprintf(dv->ident, sizeof dv->ident, "cuda %s sm_%d%d", info.name, info.cc_major,
			 info.cc_minor);
		char host_arch[16];
		snprintf(host_arch, sizeof host_arch, "sm_%d%d", info.cc_major, info.cc_minor);
		gs_cuda_arch_remember(host_arch);
		if (!o->arch) {
			snprintf(o->archbuf, sizeof o->archbuf, "%s", host_arch);
			o->arch = o->archbuf;
		}
	}
	return 0;
}

/* A metric that has no value in some ok result (an expression that failed,
 * such as 1/0, or gave a NaN or an infinity, which the store keeps as null)
 * is named once, with how many. */
static void metrics_without_value(sqlite3 *db, int64_t sweep, const struct gs_space *sp)
{
	sqlite3_stmt *q;
	if (!sp->nmetrics || sqlite3_prepare_v2(db, "SELECT count(*) FILTER (WHERE json_type(metrics,"
				     " ?2) IS NOT NULL AND json_type(metrics, ?2) = 'null'), count(*)"
				     " FROM result WHERE sweep_id = ?1 AND status = 'ok' AND"
				     " json_valid(metrics)", -1, &q, NULL) != SQLITE_OK)
		return;
	for (size_t i = 0; i < sp->nmetrics; i++) {
		char *path = gs_xasprintf("$.\"%s\"", sp->metrics[i].name);
		sqlite3_bind_int64(q, 1, sweep);
		sqlite3_bind_text(q, 2, path, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int64(q, 0) > 0)
			fprintf(stderr, "gsearch: warning: metric '%s' has no value in %lld of %lld ok "
				"results (its expression failed or is not a finite number): stored as "
				"null\n", sp->metrics[i].name, (long long)sqlite3_column_int64(q, 0),
				(long long)sqlite3_column_int64(q, 1));
		sqlite3_reset(q);
		free(path);
	}
	sqlite3_finalize(q);
}

/* The end of a measured sweep: outcomes, the best, the baseline.  Sets
 * *results and *ok to the sweep's stored outcomes and ok ones. */
static void summary(struct gs_store *st, int64_t sweep, const struct gs_space *sp, const char *dev,
		    long long *results, long long *ok)
{
	sqlite3 *db = gs_store_sqlite(st);
	sqlite3_stmt *q;
	int modeled = !strncmp(dev, "emu:", 4);
	printf("device %s%s\noutcomes:", dev, modeled ? " (times are modeled, not measured)" : "");
	if (sqlite3_prepare_v2(db, "SELECT status, count(*) FROM result WHERE sweep_id = ?1 GROUP BY 1"
				   " ORDER BY 2 DESC", -1, &q, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(q, 1, sweep);
		while (sqlite3_step(q) == SQLITE_ROW) {
			const char *status = (const char *)sqlite3_column_text(q, 0);
			long long n = (long long)sqlite3_column_int64(q, 1);
			printf(" %s %lld", status, n);
			*results += n;
			if (status && !strcmp(status, "ok"))
				*ok += n;
		}
		sqlite3_finalize(q);
	}
	/* an interrupted sweep: what has no outcome yet, so that neither the
	 * counts nor the ranks below read as the whole space's */
	int64_t configs = 0;
	long long notrun = 0;
	if (gs_store_config_count(st, sweep, &configs) == 0 && configs > *results)
		notrun = (long long)configs - *results;
	if (notrun)
		printf(" not run %lld", notrun);
	printf("\n");
	metrics_without_value(db, sweep, sp);
	double best = -1;
	if (sqlite3_prepare_v2(db, "SELECT r.idx, r.time_ms, c.params FROM result r JOIN config c"
				   " USING (sweep_id, idx) WHERE r.sweep_id = ?1 AND r.status = 'ok'"
				   " ORDER BY r.time_ms, r.idx LIMIT 1", -1, &q, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(q, 1, sweep);
		if (sqlite3_step(q) == SQLITE_ROW) {
			best = sqlite3_column_double(q, 1);
			printf("best     %s  %.4g ms (index %lld)\n", (const char *)sqlite3_column_text(q, 2),
			       best, (long long)sqlite3_column_int64(q, 0));
		}
		sqlite3_finalize(q);
	}
	if (!sp->baseline)
		return;
	if (sqlite3_prepare_v2(db, "SELECT r.status, r.time_ms, (SELECT count(*) FROM result x WHERE"
				   " x.sweep_id = r.sweep_id AND x.status = 'ok' AND x.time_ms < r.time_ms),"
				   " (SELECT count(*) FROM result x WHERE x.sweep_id = r.sweep_id AND"
				   " x.status = 'ok'), c.params FROM config c LEFT JOIN result r USING"
				   " (sweep_id, idx) WHERE c.sweep_id = ?1 AND c.baseline", -1, &q,
			       NULL) == SQLITE_OK) {
		sqlite3_bind_int64(q, 1, sweep);
		if (sqlite3_step(q) == SQLITE_ROW) {
			const char *status = (const char *)sqlite3_column_text(q, 0);
			const char *params = (const char *)sqlite3_column_text(q, 4);
			if (status && !strcmp(status, "ok")) {
				double t = sqlite3_column_double(q, 1);
				printf("baseline %s  %.4g ms, rank %lld of %lld%s", params, t,
				       (long long)sqlite3_column_int64(q, 2) + 1,
				       (long long)sqlite3_column_int64(q, 3),
				       notrun ? " ok so far" : "");
				if (best > 0)
					printf(": the best is %.1f%% faster (%.1f%% less time)",
					       100.0 * (t / best - 1), 100.0 * (1 - best / t));
				printf("\n");
			} else {
				printf("baseline %s  %s\n", params, status ? status : "not measured");
			}
		}
		sqlite3_finalize(q);
	}
}

struct nvrtc_load {
	struct gs_nvrtc *n;
	int rc;
	char err[1024];
};

static void *load_nvrtc(void *arg)
{
	struct nvrtc_load *l = arg;
	l->rc = gs_nvrtc_load(&l->n, l->err, sizeof l->err);
	gs_trace("run: NVRTC loaded");
	return NULL;
}

/* Compiles before the devices are known (sched/early.h), on a thread that
 * loads NVRTC first: the space, loaded again by the run after the devices
 * (so that what it prints comes where it always did), the architecture,
 * then the enumeration. */
struct early_start {
	pthread_t th;
	int started;                  /* the thread runs */
	struct run_opts o;            /* a copy: resolve_devices sets the run's arch */
	struct gs_space_args a;       /* a copy: the run's may change after */
	struct nvrtc_load *nl;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int nvrtc_done, inited;
	int unused;                   /* the thread found nothing to compile early */
	struct gs_early *pool;        /* stopped and joined through it; NULL: none */
};

/* The store's path, as open_sweep makes it. */
static char *store_path(const struct gs_space *sp, const struct gs_space_args *a, const char *db)
{
	return db ? gs_xstrdup(db)
	       : a->shard_n > 1 ? gs_xasprintf("results/%s.shard-%llu-of-%llu.db", sp->name,
					       (unsigned long long)a->shard_i,
					       (unsigned long long)a->shard_n)
				: gs_xasprintf("results/%s.db", sp->name);
}

static int early_compile(struct early_start *es);

static void *early_thread(void *arg)
{
	struct early_start *es = arg;
	if (!early_compile(es))
		es->unused = 1; /* read after the join */
	return NULL;
}

/* The thread's work: 1 when the pool compiles, 0 when nothing is known
 * early enough. */
static int early_compile(struct early_start *es)
{
	const struct run_opts *o = &es->o;
	load_nvrtc(es->nl);
	pthread_mutex_lock(&es->mu);
	es->nvrtc_done = 1;
	pthread_cond_signal(&es->cv);
	pthread_mutex_unlock(&es->mu);
	if (es->nl->rc < 0)
		return 0;
	/* the architecture: given, the fake GPUs' (resolve_devices), or what
	 * every GPU of the host has; the emulated device's never (its space is
	 * another: emulator sizes) */
	const char *fake = getenv("GSEARCH_FAKE_GPUS"), *guess = getenv("GSEARCH_EARLY_ARCH");
	char arch[16];
	if (guess && gs_arch_ok(guess)) /* test hook: as if NVML said so */
		snprintf(arch, sizeof arch, "%s", guess);
	else if (fake && atoi(fake) > 0)
		snprintf(arch, sizeof arch, "%s", o->arch ? o->arch : "sm_90");
	else if (o->arch && access("/dev/nvidiactl", F_OK) == 0)
		snprintf(arch, sizeof arch, "%s", o->arch); /* a driver, and the user's word */
	else if (gs_cuda_arch_guess(arch, sizeof arch) < 0 && gs_cuda_nvml_arch(arch, sizeof arch) < 0)
		return 0; /* no GPU to be seen: the run goes on as without this */
	else if (o->arch)
		snprintf(arch, sizeof arch, "%s", o->arch);
	struct gs_diag d = GS_DIAG_INIT;
	struct gs_space_opts so = { .sets = es->a.sets, .nsets = es->a.nsets, .emu = es->a.emu,
				    .t1_grid = es->a.t1_grid };
	struct gs_space *sp = gs_space_load(es->a.path, &so, &d);
	int bad = !sp || d.errors;
	gs_diag_release(&d); /* the run's own load says it */
	if (bad) {
		gs_space_free(sp);
		return 0;
	}
	/* what the store has compiled already is not compiled again */
	struct gs_store *cached = NULL;
	char *path = store_path(sp, &es->a, o->db);
	/* not a file of several names: SQLite would make a journal for this
	 * one before the run's own open refuses it */
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1 &&
	    gs_store_open(&cached, path, 1) < 0) {
		gs_store_close(cached);
		cached = NULL;
	}
	free(path);
	struct gs_early_opts eo = {
		.arch = arch,
		.jobs = o->jobs,
		.compile_timeout_s = o->compile_timeout_s,
		.shard_i = es->a.shard_i,
		.shard_n = es->a.shard_n,
		.baseline_first = !o->compile_only,
		.cached = cached,
	};
	gs_trace("run: early compiles started");
	gs_early_run(es->pool, sp, es->nl->n, &eo);
	gs_store_close(cached);
	return 1;
}

/* Starts the thread that loads NVRTC and, where it can, compiles early;
 * 0, or -1 when no thread started. */
static int early_begin(struct early_start *es, const struct run_opts *o,
		       const struct gs_space_args *a, struct nvrtc_load *nl)
{
	es->o = *o;
	es->a = *a;
	es->nl = nl;
	pthread_mutex_init(&es->mu, NULL);
	pthread_cond_init(&es->cv, NULL);
	es->inited = 1;
	/* not for a device named emu (its arch and space are the profile's),
	 * nor where the shard comes from Slurm's variables (read, and maybe
	 * refused, later), nor for a search (its strategy, not the
	 * enumeration, says which variants the sweep compiles) */
	/* On unless GSEARCH_EARLY=0: measured on an H100, three cold
	 * 90-variant sweeps each way (results/bench-early-h100.txt), the process
	 * ended 0.1 to 0.2 s sooner, the driver's start (0.15 to 0.45 s) no
	 * longer delaying the first compile.  What it may waste: the compiles
	 * started before the sweep, where the sweep then takes results from the
	 * store without a compile of their variant, or a budget stops it. */
	const char *on = getenv("GSEARCH_EARLY");
	int can = !(o->device && strncmp(o->device, "cuda", 4)) && !o->strategy &&
		  (a->shard_given || !getenv("SLURM_ARRAY_TASK_ID")) && !(on && !strcmp(on, "0"));
	if (can) {
		es->pool = gs_early_new();
		/* the pool's threads and the sweep's share --jobs compile
		 * servers: the sweep takes over those the pool started */
		gs_isolate_limit(o->jobs);
	}
	es->started = pthread_create(&es->th, NULL, can ? early_thread : load_nvrtc,
				     can ? (void *)es : (void *)nl) == 0;
	if (!es->started) {
		gs_early_free(es->pool);
		es->pool = NULL;
		return -1;
	}
	return 0;
}

/* Waits for NVRTC (the early compiles go on). */
static void early_nvrtc(struct early_start *es)
{
	if (!es->pool) {
		pthread_join(es->th, NULL);
		es->started = 0;
		return;
	}
	pthread_mutex_lock(&es->mu);
	while (!es->nvrtc_done)
		pthread_cond_wait(&es->cv, &es->mu);
	pthread_mutex_unlock(&es->mu);
}

/* The early compiles take no new work; the thread is joined.  keep: the
 * sweep adopts them, else they are dropped (waited for: a compile server
 * must be idle before the next one is asked). */
static void early_end(struct early_start *es, int keep)
{
	gs_early_stop(es->pool);
	if (es->started)
		pthread_join(es->th, NULL);
	es->started = 0;
	if (keep && !es->unused)
		return;
	gs_early_free(es->pool);
	es->pool = NULL;
	if (es->inited) {
		pthread_mutex_destroy(&es->mu);
		pthread_cond_destroy(&es->cv);
		es->inited = 0;
	}
}

/* What a run starts before it reads the space: the first GPU's worker,
 * NVRTC and the devices, side by side. */
struct startup {
	struct gs_prespawned pre;
	struct nvrtc_load nl;
	struct devices dv;
	struct early_start es;
};

/* A GPU's worker starts now, so that its driver initializes while ours
 * does (sched/prespawn.h). */
static void prespawn_first(const struct run_opts *o, struct gs_prespawned *pre)
{
	const char *fake = getenv("GSEARCH_FAKE_GPUS"), *wcmd = getenv("GSEARCH_WORKER");
	if (o->dry || o->compile_only || (o->device && strncmp(o->device, "cuda", 4)) ||
	    !((fake && atoi(fake) > 0) || access("/dev/nvidiactl", F_OK) == 0))
		return;
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	int first = o->device && o->device[4] == ':' ? atoi(o->device + 5) : 0;
	if (wcmd) /* the tests' stand-in worker is adopted the same way */
		gs_prespawn(pre, wcmd, first);
	else if (n > 0) {
		self[n] = 0;
		gs_prespawn(pre, self, first);
	}
}

/* 0, or GS_EXIT_ERRORS after printing why and undoing what it started. */
static int start_up(struct run_opts *o, const struct gs_space_args *a, struct startup *su)
{
	memset(su, 0, sizeof(*su));
	gs_trace("run: options read");
	prespawn_first(o, &su->pre);
	/* NVRTC loads (a tenth of a second) while the driver initializes
	 * (more), and then the first compiles start */
	int nthreaded = !o->dry && early_begin(&su->es, o, a, &su->nl) == 0;
	if (!o->dry && !nthreaded)
		load_nvrtc(&su->nl);
	int resolved = resolve_devices(o, &su->dv);
	gs_trace("run: devices known");
	if (nthreaded)
		early_nvrtc(&su->es);
	/* the emulated device (no GPU after all): its space is another */
	if (resolved < 0 || su->dv.emu)
		early_end(&su->es, 0);
	if (resolved < 0) {
		gs_prespawn_cancel(&su->pre);
		gs_nvrtc_unload(su->nl.n);
		return resolved == -2 ? GS_EXIT_USAGE : GS_EXIT_ERRORS;
	}
	return 0;
}

/* The space, its baseline checked: a baseline no configuration matches
 * would be silently missing from every report of the sweep.  NULL after
 * printing why. */
static struct gs_space *checked_space(struct gs_space_args *a)
{
	struct gs_space *sp = gs_shard_from_env(a) < 0 ? NULL : gs_load_space_or_report(a);
	if (!sp)
		return NULL;
	struct gs_diag d = GS_DIAG_INIT;
	int failed;
	int bad = gs_baseline_check(sp, &failed, &d) <= 0;
	gs_diag_print(&d, stderr);
	gs_diag_release(&d);
	if (bad) {
		gs_space_free(sp);
		return NULL;
	}
	return sp;
}

/* The sweep's identity: the space, its sources and problem values, the
 * device, the shard, and the options that change what a result means; the
 * defaults are left out, so that sweeps made before an option existed
 * resume. */
static void run_ident(struct gs_sweepid *sid, const struct gs_space *sp,
		      const struct gs_space_args *a, const struct run_opts *o, const char *device,
		      const struct gs_emu_profile *emu, int sample)
{
	gs_sweepid_init(sid, sp, a->path);
	gs_sweepid_sources(sid, sp);
	/* the emulated device's figures: a sweep resumed after its profile was
	 * edited would mix the times of two devices */
	if (emu)
		gs_sweepid_option(sid, "profile", "\"%s\"", emu->hash);
	/* ... and its model: a sweep resumed by a build whose model moved the
	 * times would keep the old build's */
	if (emu)
		gs_sweepid_option(sid, "model", "\"%s\"", GS_EMU_MODEL_REV);
	if (o->flush_l2)
		gs_sweepid_option(sid, "flush_l2", "true");
	if (o->stop.precision != gs_stop_default.precision)
		gs_sweepid_option(sid, "precision", "%.17g", o->stop.precision * 100);
	if (o->stop.focus != gs_stop_default.focus)
		gs_sweepid_option(sid, "focus", "%.17g", o->stop.focus);
	/* a timeout outcome depends on the limit: another limit, another sweep */
	if (o->timeout_s > 0 && o->timeout_s != sp->timeout)
		gs_sweepid_option(sid, "timeout", "%.17g", o->timeout_s);
	/* the other grid of a T1 file launches other kernels */
	if (sp->t1_other_grid.n && a->t1_grid == GS_T1_GRID_GLOBAL)
		gs_sweepid_option(sid, "t1_grid", "\"global\"");
	if (sample) {
		gs_sweepid_option(sid, "emu_sample", "%d", sample);
		/* the problem values are the emulator's; the times are modeled
		 * at the real ones, which reports show beside them */
		struct gs_space_args ra = *a;
		ra.emu = 0;
		struct gs_space *rsp = gs_load_space_or_report(&ra);
		if (rsp) {
			struct gs_buf b = GS_BUF_INIT;
			gs_buf_putc(&b, '{');
			for (size_t i = 0; i < rsp->nproblems; i++) {
				gs_buf_printf(&b, "%s", i ? "," : "");
				gs_buf_put_json_str(&b, rsp->problems[i].name);
				gs_buf_putc(&b, ':');
				gs_value_json(&b, rsp->problems[i].value);
			}
			gs_buf_putc(&b, '}');
			gs_sweepid_option(sid, "modeled_at", "%s", gs_buf_str(&b));
			gs_buf_release(&b);
			gs_space_free(rsp);
		}
	}
	if (o->stop.max_time_s != gs_stop_default.max_time_s)
		gs_sweepid_option(sid, "max_time", "%.17g", o->stop.max_time_s);
	/* what `ok` means: kept so that reports can say it */
	if (!gs_space_validates(sp))
		gs_sweepid_option(sid, "validated", "false");
	/* a sweep apart from the one that reuses, which running the same
	 * command again resumes */
	if (o->remeasure)
		gs_sweepid_option(sid, "remeasure", "true");
	char shard[48];
	snprintf(shard, sizeof shard, "%llu/%llu", (unsigned long long)a->shard_i,
		 (unsigned long long)a->shard_n);
	gs_sweepid_finish(sid, device, shard);
}

/* What one run works on: the store, locked, and its sweep. */
struct run_store {
	char *dbpath;
	struct gs_store *st;
	struct gs_store_lock lock;
	int64_t sweep;
};

/* Opens the store, finds or creates the sweep, adds its configurations and
 * says so.  GS_EXIT_OK, or GS_EXIT_ERRORS after printing why. */
static int open_sweep(struct run_store *rs, const struct gs_space *sp, const struct gs_space_args *a,
		      const char *db, const struct gs_sweepid *sid)
{
	rs->dbpath = store_path(sp, a, db);
	int64_t before = 0, after = 0;
	int created = 0;
	if (gs_store_open(&rs->st, rs->dbpath, 0) < 0)
		return store_fail(rs->st, "cannot open the store");
	/* the store's parent directory exists now; opening and migrating are
	 * safe for two processes at once, measuring is not */
	char lerr[1024];
	if (gs_store_lock(&rs->lock, rs->dbpath, lerr, sizeof lerr) < 0) {
		fprintf(stderr, "gsearch: error: %s\n", lerr);
		return GS_EXIT_ERRORS;
	}
	if (gs_store_sweep_open(rs->st, &sid->id, &rs->sweep, &created) < 0 ||
	    gs_store_config_count(rs->st, rs->sweep, &before) < 0)
		return store_fail(rs->st, "cannot create the sweep");
	if (gs_sweep_configs_add(rs->st, rs->sweep, sp, a->shard_i, a->shard_n) < 0)
		return GS_EXIT_ERRORS;
	if (gs_store_config_count(rs->st, rs->sweep, &after) < 0)
		return store_fail(rs->st, "cannot count configurations");
	/* an existing sweep that lacks outcomes is resumed: say so, with how
	 * far it got */
	char state[96] = "new";
	if (!created) {
		long long done = 0;
		sqlite3_stmt *q;
		if (sqlite3_prepare_v2(gs_store_sqlite(rs->st), "SELECT count(*) FROM result WHERE"
				       " sweep_id = ?1", -1, &q, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(q, 1, rs->sweep);
			if (sqlite3_step(q) == SQLITE_ROW)
				done = (long long)sqlite3_column_int64(q, 0);
			sqlite3_finalize(q);
		}
		if (done && done < (long long)after)
			snprintf(state, sizeof state, "existing, resumed: %lld of %lld have an outcome",
				 done, (long long)after);
		else
			snprintf(state, sizeof state, "existing");
	}
	/* "added": configurations new to the store, whether measured or
	 * reused below */
	printf("sweep %lld (%s) in %s: %lld configurations, %lld added%s%s\n", (long long)rs->sweep,
	       state, rs->dbpath, (long long)after, (long long)(after - before),
	       a->shard_n > 1 ? ", shard " : "", a->shard_n > 1 ? sid->id.shard : "");
	return GS_EXIT_OK;
}

/* The sweep's options as the command line and the devices give them. */
static void sweep_opts(struct gs_sweep_opts *so, const struct gs_space *sp,
		       const struct gs_space_args *a, const struct run_opts *o, struct startup *su,
		       int measure, int sample)
{
	const struct devices *dv = &su->dv;
	*so = (struct gs_sweep_opts){
		/* the space, as the workers load it */
		.space_path = a->path,
		.sets = a->sets,
		.nsets = a->nsets,
		.emu = a->emu,
		.t1_grid = a->t1_grid,
		.emu_sample = sample, /* the emulated device times at the real size */
		.shard_i = a->shard_i,
		.shard_n = a->shard_n,
		/* the compiles */
		.arch = o->arch,
		.jobs = o->jobs,
		.compile_timeout_s = o->compile_timeout_s,
		/* the devices */
		.gpus = measure ? dv->gpus : NULL,
		.ngpus = measure ? dv->ngpus : 0,
		.emu_profile = dv->emu ? dv->emu->name : NULL,
		.emu_threads = o->threads,
		.device_ident = dv->ident,
		.worker_cmd = getenv("GSEARCH_WORKER"),
		.pre = measure && !dv->emu ? &su->pre : NULL,
		.early = su->es.pool,
		/* the measurements */
		.timeout_s = o->timeout_s > 0 ? o->timeout_s : sp->timeout,
		.stop = o->stop,
		.setup_timeout_s = o->setup_timeout_s,
		.flush_l2 = o->flush_l2,
		.remeasure = o->remeasure,
		.progress = o->quiet ? 0 : isatty(2) ? 2 : 1,
	};
}

/* Results reused from a sweep whose kernel files were not these bytes: the
 * kernels differ from that sweep's only in comments and blanks (a result's
 * identity holds the source as compiled, gen/variant.h), which the user who
 * edited one expects to hear. */
static void reused_kernel_note(const struct gs_sweep_stats *ss, struct run_store *rs)
{
	sqlite3 *db = gs_store_sqlite(rs->st);
	sqlite3_stmt *q;
	if (!ss->reused || sqlite3_prepare_v2(db, "SELECT a.kernel_hash IS NOT b.kernel_hash FROM sweep a,"
				     " sweep b WHERE a.id = ?1 AND b.id = ?2", -1, &q, NULL) != SQLITE_OK)
		return;
	uint64_t n = 0;
	for (size_t i = 0; i < ss->nreused_by; i++) {
		sqlite3_bind_int64(q, 1, rs->sweep);
		sqlite3_bind_int64(q, 2, ss->reused_by[i].sweep);
		if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 0))
			n += ss->reused_by[i].n;
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	if (n)
		printf("  %llu of them from kernel files that differ from these only in comments and "
		       "blanks: nothing compiled or measured again\n", (unsigned long long)n);
}

/* The run's report after the sweep: compiles, reuse, outcomes, overhead. */
static void report(const struct gs_sweep_stats *ss, struct run_store *rs, const struct gs_space *sp,
		   const struct run_opts *o, struct startup *su, int measure, long long *results,
		   long long *ok)
{
	printf("compiled %llu variants for %s with %u threads (NVRTC %s), %llu cached, "
	       "%llu shared, %llu compile errors, %llu already final\n",
	       (unsigned long long)ss->compiled, o->arch, o->jobs, gs_nvrtc_version(su->nl.n),
	       (unsigned long long)ss->cached, (unsigned long long)ss->shared,
	       (unsigned long long)ss->compile_errors, (unsigned long long)ss->skipped_done);
	gs_sweep_reused_print(ss, stdout);
	reused_kernel_note(ss, rs);
	if (measure && su->dv.emu) {
		/* a modeled time is as good as the figures behind it */
		char src[256];
		gs_emu_profile_sources(su->dv.emu, src, sizeof src);
		printf("%s\n", src);
	}
	if (measure)
		summary(rs->st, rs->sweep, sp, su->dv.ident, results, ok);
	/* DESIGN's budget, as `query summary` reports it for the store */
	struct gs_overhead_in oi = {
		.wall_s = ss->wall_s,
		.compile_busy_s = ss->compile_busy_s,
		.compile_threads = (int)o->jobs,
		.devices = measure ? (int)su->dv.ngpus : 0,
		.work_s = ss->work_s,
		.timed_s = ss->timed_s,
		.device_busy_s = ss->device_busy_s,
	};
	struct gs_overhead ov;
	struct gs_buf line = GS_BUF_INIT;
	gs_overhead(&oi, &ov);
	gs_overhead_text(&line, &oi, &ov);
	printf("%s\n", gs_buf_str(&line));
	gs_buf_release(&line);
	if (ss->worker_restarts)
		printf("workers replaced %llu (%.2f s)\n", (unsigned long long)ss->worker_restarts,
		       ss->restart_s);
}

/* The strategy as the sweep's source: its window of proposals awaiting
 * results is what keeps the compile threads and the devices busy, and a
 * number of the options, not of timing.  NULL after printing why. */
static struct gs_sched_source *search_source(struct run_store *rs, const struct gs_space *sp,
					     const struct gs_space_args *a, const struct run_opts *o,
					     const struct gs_sweep_opts *so, struct gs_search_info *si)
{
	struct gs_search_opts sr = {
		.strategy = o->strategy,
		.budget = o->budget,
		.prior = o->prior_load ? o->prior_load : o->prior,
		.occ_profile = o->occ,
		.seed = o->seed,
		.window = o->jobs + so->ngpus,
		.shard_i = a->shard_i,
		.shard_n = a->shard_n,
	};
	return gs_sched_source_search(sp, rs->st, rs->sweep, &sr, si);
}

/* "search   random (seed 1), budget 10: 10 of 40 valid configurations
 * evaluated, 10 measured now" */
static void search_report(const struct gs_sweep_stats *ss, const struct run_opts *o,
			  const struct gs_search_info *si)
{
	printf("search   %s (seed %llu%s%s), budget %s", o->strategy->name, o->seed,
	       o->prior ? ", prior " : "", o->prior ? o->prior : "", o->budget ? o->budget : "all");
	/* a share of the space, or of a count among shards */
	if (o->budget && si->budget_s <= 0 && strtoull(o->budget, NULL, 10) != si->budget_n)
		printf(" = %zu", si->budget_n);
	/* a configuration the deadline left without an outcome was not evaluated */
	printf(": %llu of %zu valid configurations evaluated, %llu measured now\n",
	       (unsigned long long)(ss->configs - ss->not_run), si->valid,
	       (unsigned long long)ss->measured);
	if (ss->budget_ended)
		printf("budget   the time budget ended the search %.1f s after the start: %llu compile%s "
		       "in flight abandoned, %llu proposed configuration%s not run (a larger budget "
		       "measures them)\n", gs_now() - o->t_start, (unsigned long long)ss->abandoned,
		       ss->abandoned == 1 ? "" : "s", (unsigned long long)ss->not_run,
		       ss->not_run == 1 ? "" : "s");
}

/* --prior static or emu[:PROFILE]: its sweep, before the run's own (which
 * it must not hold locked); the exit status. */
static int computed_prior(struct run_opts *o, const struct startup *su, const struct gs_space *sp,
			  const struct gs_space_args *a, int argc, char **argv)
{
	/* the occupancy of a GPU follows the rules of the emulated device of
	 * its architecture, sm_90's when none has it */
	o->occ = su->dv.emu;
	for (int i = 0; !o->occ && gs_emu_profiles[i]; i++)
		if (o->arch && !strcmp(gs_emu_profiles[i]->arch, o->arch))
			o->occ = gs_emu_profiles[i];
	if (!o->occ)
		o->occ = gs_emu_profile_find("sm_90");
	char *db = store_path(sp, a, o->db);
	int rc = gs_run_prior_compute(o->prior, argc, argv, db, &o->prior_load);
	free(db);
	return rc < 0 ? GS_EXIT_ERRORS : GS_EXIT_OK;
}

/* Compiles (and, measuring, measures) the sweep; its exit status. */
static int sweep_and_report(struct run_store *rs, const struct gs_space *sp,
			    const struct gs_space_args *a, const struct run_opts *o,
			    struct startup *su, int measure, int sample)
{
	struct gs_sweep_opts so;
	struct gs_sweep_stats ss;
	/* the sweep's compiles take over from the early ones */
	early_end(&su->es, 1);
	sweep_opts(&so, sp, a, o, su, measure, sample);
	struct gs_search_info si = { 0 };
	if (o->strategy && !(so.source = search_source(rs, sp, a, o, &so, &si)))
		return GS_EXIT_ERRORS;
	/* what the user times is the command: its start-up and a computed
	 * prior's sweep count too */
	if (si.budget_s > 0)
		so.deadline = o->t_start + si.budget_s;
	gs_store_sweep_set_status(rs->st, rs->sweep, "running");
	gs_trace("run: store ready");
	int crc = gs_sweep_run(sp, su->nl.n, rs->st, rs->sweep, &so, &ss);
	gs_trace("run: sweep over");
	/* the sweep has added its times to the store as it went */
	/* configurations left without an outcome (their compile server died)
	 * make it a sweep to resume, as an interrupted one is */
	gs_store_sweep_set_status(rs->st, rs->sweep, ss.interrupted || ss.no_outcome ? "interrupted"
						     : crc ? "failed"
						     : measure ? "done" : "created");
	long long results = 0, ok = 0;
	report(&ss, rs, sp, o, su, measure, &results, &ok);
	if (o->strategy)
		search_report(&ss, o, &si);
	gs_sweep_stats_release(&ss);
	if (ss.interrupted)
		return 128 + ss.interrupted;
	if (crc < 0)
		return GS_EXIT_ERRORS;
	if (ss.no_outcome) {
		printf("%llu configuration%s left without an outcome: the compiler process died on %s "
		       "twice (run the same command again to finish)\n",
		       (unsigned long long)ss.no_outcome, ss.no_outcome == 1 ? "" : "s",
		       ss.no_outcome == 1 ? "its variant" : "their variants");
		return GS_EXIT_ERRORS;
	}
	if (measure && results && !ok) {
		/* a script that sweeps and then reports must not take a sweep
		 * of failures for a result */
		printf("no configuration is ok: all %lld failed (`gsearch show %s INDEX` says why)\n",
		       results, rs->dbpath);
		return GS_EXIT_ERRORS;
	}
	return GS_EXIT_OK;
}

int gs_cmd_run(int argc, char **argv)
{
	if (gs_wants_help("run", argc, argv))
		return GS_EXIT_OK;
	struct gs_space_args a;
	struct run_opts o;
	struct startup su;
	double t_start = gs_now();
	gs_space_args_init(&a, argc);
	int rc = parse_options(argc, argv, &a, &o);
	o.t_start = t_start;
	if (!rc)
		rc = start_up(&o, &a, &su);
	if (rc) {
		gs_space_args_release(&a);
		return rc;
	}
	int measure = !o.dry && !o.compile_only;
	/* the emulated device validates at the problems' emulator sizes (at a
	 * GPU's size an interpreter would take days) and, unless --emu says
	 * otherwise, times a sample of each launch's blocks at the real size */
	int sample = 0;
	if (su.dv.emu) {
		if (!a.emu && su.dv.emu->model == GS_EMU_MODEL_INTERVAL)
			sample = o.sample >= 0 ? o.sample : su.dv.emu->sample_blocks;
		a.emu = 1;
	}
	if (measure && su.dv.emu && !o.device && su.dv.why[0] && !o.quiet)
		fprintf(stderr, "gsearch: no GPU (%s): running on the emulated device emu:%s\n",
			su.dv.why, su.dv.emu->name);
	int compiles = !o.dry; /* --compile-only, or measuring */
	if (compiles && su.nl.rc < 0) {
		early_end(&su.es, 0);
		gs_prespawn_cancel(&su.pre);
		gs_space_args_release(&a);
		fprintf(stderr, "gsearch: error: %s\n", su.nl.err);
		return GS_EXIT_ERRORS;
	}
	gs_trace("run: devices known, NVRTC loaded");
	struct gs_space *sp = checked_space(&a);
	if (!sp) {
		early_end(&su.es, 0);
		gs_prespawn_cancel(&su.pre);
		gs_space_args_release(&a);
		gs_nvrtc_unload(su.nl.n);
		return GS_EXIT_ERRORS;
	}
	struct gs_sweepid sid;
	run_ident(&sid, sp, &a, &o, su.dv.ident, su.dv.emu, sample);
	struct run_store rs = { .lock = { -1, NULL } };
	int status = GS_EXIT_OK;
	if (o.prior && compiles && gs_run_prior_computed(o.prior) > 0)
		status = computed_prior(&o, &su, sp, &a, argc, argv);
	if (status == GS_EXIT_OK)
		status = open_sweep(&rs, sp, &a, o.db, &sid);
	if (status == GS_EXIT_OK && measure && !gs_space_validates(sp)) {
		fflush(stdout);
		fprintf(stderr, "gsearch: warning: %s\n", GS_UNVALIDATED_TEXT);
	}
	if (status == GS_EXIT_OK && compiles)
		status = sweep_and_report(&rs, sp, &a, &o, &su, measure, sample);
	gs_prespawn_cancel(&su.pre); /* unless the sweep adopted it */
	early_end(&su.es, 0);
	gs_space_args_release(&a); /* the workers' setup needed the --set texts */
	gs_nvrtc_unload(su.nl.n);
	gs_store_close(rs.st);
	gs_trace("run: store closed");
	gs_store_unlock(&rs.lock); /* after the last write */
	free(rs.dbpath);
	gs_sweepid_release(&sid);
	gs_space_free(sp);
	free(o.prior_load);
	return status;
}
