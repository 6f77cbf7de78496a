/* query.c — `gsearch query`: the command line of the reports in query/.
 *
 * This file reads the options, checks which go with which report, opens the
 * store read-only and hands over; the reports themselves live in query/. */
#include "cmd/cmd.h"
#include "query/query.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char gs_help_query[] =
	"usage: gsearch query [DB] REPORT [--sweep ID|latest] [--where EXPR] [--csv|--json]\n"
	"         REPORT: summary | top [-n N] [--by FIELD] | pareto --min FIELD --max FIELD ...\n"
	"                 | compare [--sweeps A,B] | sensitivity PARAM\n"
	"                 | export --csv|--json|--t4|--kt-cache | progress\n"
	"\n"
	"Reports on a store written by `gsearch run` (DB; default: the newest\n"
	"results/*.db):\n"
	"  summary      per sweep: space, device, when, counts by outcome, the best\n"
	"               configuration, the baseline's time and rank, wall, busy times\n"
	"               and the overhead factor\n"
	"  top          the fastest ok configurations: time, spread, registers, shared\n"
	"               memory, blocks per SM, occupancy, metrics and parameters\n"
	"  pareto       the configurations no other beats on every objective, sorted;\n"
	"               --min FIELD and --max FIELD, as many as wanted\n"
	"  compare      the hand-picked baseline against the searched optimum: times,\n"
	"               speed-up, rank and percentile, the parameters that differ and\n"
	"               the resources of both; --sweeps A,B: where A's optimum ranks on\n"
	"               B and how much slower it is there than B's own\n"
	"  sensitivity  for each value of PARAM, the best, median and worst time over\n"
	"               the rest of the space, and the time with every other parameter\n"
	"               at the optimum's values\n"
	"  export       every configuration with its outcome and figures, as CSV, JSON,\n"
	"               T4 (the auto-tuning community's results format) or a Kernel\n"
	"               Tuner cache file (which its simulation mode replays)\n"
	"  progress     the best so far against evaluations (results in the order they\n"
	"               were stored) and elapsed time: each improvement, or with --csv\n"
	"               every evaluation; how much of the space was evaluated\n"
	"\n"
	"Fields are the parameters, time_ms min_ms iqr_ms reps ci_lo_ms ci_hi_ms ci_pct\n"
	"runs warmups timed_ms registers (regs) static_smem (smem) local_bytes\n"
	"spill_stores spill_loads blocks_per_sm occupancy limiter energy_j power_w\n"
	"sm_clock_mhz temp_c max_abs_err max_rel_err status idx baseline, the metrics\n"
	"(gflops, ...) and the emulator's counters.\n"
	"\n"
	"options:\n"
	"  --sweep ID         the sweep (default: the newest; `summary`: all)\n"
	"  --where EXPR       only configurations where EXPR, an expression of the space\n"
	"                     language over fields, is true: --where 'TILE >= 16 and\n"
	"                     registers <= 32'; one whose field is empty is left out\n"
	"  --csv, --json      for scripts, instead of a table\n"
	"  --plot FILE        also draw FILE.png or FILE.svg with gnuplot (top, pareto,\n"
	"                     sensitivity, progress)\n"
	"  -n N               rows of `top` (default 10)\n"
	"  --by FIELD         rank `top` (default time_ms) or measure `sensitivity` by it\n"
	"  --asc, --desc      the order of --by (default: lower first, but higher first\n"
	"                     for occupancy, blocks_per_sm and metrics)\n"
	"  --min/--max FIELD  an objective of `pareto` to minimize or maximize\n"
	"  --sweeps A,B       `compare` two sweeps of the same space\n"
	"  --t4               `export` in T4 JSON (times in seconds)\n"
	"  --kt-cache         `export` as a Kernel Tuner cache file (times in ms)\n"
	"  -h, --help         this help\n";

static const char *const reports[] = { "summary", "top",         "pareto", "compare",
				       "sensitivity", "export", "progress" };

static int is_report(const char *s)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(reports); i++)
		if (!strcmp(reports[i], s))
			return 1;
	return 0;
}

static int parse_id(const char *s, int64_t *id)
{
	char *end;
	if (!strcmp(s, "latest")) {
		*id = 0;
		return 1;
	}
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (end == s || *end || errno || v < 1)
		return 0;
	*id = v;
	return 1;
}

/* The newest .db file in results/, for a query that names no store (malloc'd). */
static char *default_store(void)
{
	DIR *d = opendir("results");
	if (!d)
		return NULL;
	struct dirent *e;
	char *best = NULL;
	struct timespec bt = { 0, 0 };
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 4 || strcmp(e->d_name + n - 3, ".db"))
			continue;
		char *p = gs_xasprintf("results/%s", e->d_name);
		struct stat sb;
		if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    (!best || sb.st_mtim.tv_sec > bt.tv_sec ||
		     (sb.st_mtim.tv_sec == bt.tv_sec && sb.st_mtim.tv_nsec > bt.tv_nsec))) {
			free(best);
			best = p;
			bt = sb.st_mtim;
		} else {
			free(p);
		}
	}
	closedir(d);
	return best;
}

enum {
	O_SWEEP = 256, O_SWEEPS, O_WHERE, O_CSV, O_JSON, O_T4, O_KT, O_PLOT, O_BY, O_ASC, O_DESC, O_MIN,
	O_MAX
};

/* The command line's options, before they are checked against the report. */
struct qargs {
	long n;
	int n_given, t4, kt, order, csv, json;
	const char *by, *sweeps;
	const char **obj; /* --min/--max fields, nobj of them; max[i] for --max */
	int *max;
	size_t nobj;
	int64_t sa, sb; /* --sweeps A,B */
};

/* Reads the options into a and q; -1 after a usage error (rc set). */
static int parse_query_options(int argc, char **argv, struct qargs *a, struct gs_query *q, int *rc)
{
	static const struct option opts[] = {
		{ "sweep", required_argument, NULL, O_SWEEP },
		{ "sweeps", required_argument, NULL, O_SWEEPS },
		{ "where", required_argument, NULL, O_WHERE },
		{ "csv", no_argument, NULL, O_CSV },
		{ "json", no_argument, NULL, O_JSON },
		{ "t4", no_argument, NULL, O_T4 },
		{ "kt-cache", no_argument, NULL, O_KT },
		{ "plot", required_argument, NULL, O_PLOT },
		{ "by", required_argument, NULL, O_BY },
		{ "asc", no_argument, NULL, O_ASC },
		{ "desc", no_argument, NULL, O_DESC },
		{ "min", required_argument, NULL, O_MIN },
		{ "max", required_argument, NULL, O_MAX },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":n:", opts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'n':
			errno = 0;
			a->n = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno || a->n < 1) {
				gs_usage_error("query", "-n needs a number >= 1, not '%s'", optarg);
				return -1;
			}
			a->n_given = 1;
			break;
		case O_SWEEP:
			if (!parse_id(optarg, &q->sweep)) {
				gs_usage_error("query", "--sweep needs a sweep id or 'latest', not '%s'",
					       optarg);
				return -1;
			}
			break;
		case O_SWEEPS:
			a->sweeps = optarg;
			break;
		case O_WHERE:
			q->where = optarg;
			break;
		case O_CSV:
			a->csv = 1;
			break;
		case O_JSON:
			a->json = 1;
			break;
		case O_T4:
			a->t4 = 1;
			break;
		case O_KT:
			a->kt = 1;
			break;
		case O_PLOT:
			q->plot = optarg;
			break;
		case O_BY:
			a->by = optarg;
			break;
		case O_ASC:
		case O_DESC:
			a->order = c == O_DESC;
			break;
		case O_MIN:
		case O_MAX:
			a->max[a->nobj] = c == O_MAX;
			a->obj[a->nobj++] = optarg;
			break;
		default:
			*rc = gs_option_error("query", c, argv);
			return -1;
		}
	}
	return 0;
}

/* That the options go with the report what and with each other; -1 after
 * an error (rc set). */
static int check_query_options(struct qargs *a, struct gs_query *q, const char *what, int *rc)
{
	if (a->csv + a->json + a->t4 + a->kt > 1) {
		gs_usage_error("query", "give one of --csv, --json, --t4 and --kt-cache");
		return -1;
	}
	q->fmt = a->csv ? GS_QF_CSV : a->json ? GS_QF_JSON : GS_QF_TABLE;
	/* which options go with which report */
	struct {
		int given;
		const char *name, *reports;
	} fit[] = {
		{ a->n_given, "-n", " top " },
		{ a->by != NULL, "--by", " top sensitivity " },
		{ a->order >= 0, "--asc/--desc", " top " },
		{ a->nobj > 0, "--min/--max", " pareto " },
		{ a->sweeps != NULL, "--sweeps", " compare " },
		{ a->t4, "--t4", " export " },
		{ a->kt, "--kt-cache", " export " },
		{ q->plot != NULL, "--plot", " top pareto sensitivity progress " },
		{ a->json, "--json", " summary top pareto compare sensitivity export " },
		{ q->where != NULL, "--where", " summary top pareto compare sensitivity export " },
	};
	for (size_t i = 0; i < GS_ARRAY_SIZE(fit); i++) {
		char word[32];
		snprintf(word, sizeof word, " %s ", what);
		if (fit[i].given && !strstr(fit[i].reports, word)) {
			gs_usage_error("query", "%s does not go with %s (only with:%s)", fit[i].name,
				       what, fit[i].reports);
			return -1;
		}
	}
	if (!strcmp(what, "pareto") && !a->nobj) {
		gs_usage_error("query", "pareto needs objectives: --min FIELD and/or --max FIELD");
		return -1;
	}
	if (!strcmp(what, "export") && q->fmt == GS_QF_TABLE && !a->t4 && !a->kt) {
		gs_usage_error("query", "export needs --csv, --json, --t4 or --kt-cache");
		return -1;
	}
	if (q->plot && gs_plot_check(q->plot) < 0)
		return -1;
	if (q->plot && gs_plot_writable(q->plot) < 0) {
		*rc = GS_EXIT_ERRORS;
		return -1;
	}
	if (a->sweeps) {
		const char *comma = strchr(a->sweeps, ',');
		char *s = comma ? gs_xstrndup(a->sweeps, (size_t)(comma - a->sweeps)) : NULL;
		int okp = comma && parse_id(s, &a->sa) && parse_id(comma + 1, &a->sb) && a->sa && a->sb;
		free(s);
		if (!okp) {
			gs_usage_error("query", "--sweeps needs two sweep ids A,B, not '%s'", a->sweeps);
			return -1;
		}
	}
	return 0;
}

/* Runs the report what (arg: sensitivity's parameter) on the open store. */
static int run_report(struct gs_query *q, const struct qargs *a, const char *what, const char *arg)
{
	if (!strcmp(what, "summary"))
		return gs_query_summary(q);
	if (!strcmp(what, "top"))
		return gs_query_top(q, a->n, a->by, a->order >= 0, a->order > 0);
	if (!strcmp(what, "pareto"))
		return gs_query_pareto(q, a->obj, a->max, a->nobj);
	if (!strcmp(what, "compare"))
		return a->sweeps ? gs_query_compare_sweeps(q, a->sa, a->sb) : gs_query_compare(q);
	if (!strcmp(what, "sensitivity"))
		return gs_query_sensitivity(q, arg, a->by);
	if (!strcmp(what, "progress"))
		return gs_query_progress(q);
	if (a->kt)
		return gs_query_export_kt(q);
	return gs_query_export(q, a->t4 ? GS_QX_T4 : a->csv ? GS_QX_CSV : GS_QX_JSON);
}

/* check_only: stop once the command line is known good, before looking for
 * or opening a store. */
static int query(int argc, char **argv, int check_only)
{
	struct gs_query q = { .out = stdout, .fmt = GS_QF_TABLE };
	struct qargs a = { .n = 10, .order = -1 };
	a.obj = gs_xcalloc((size_t)argc + 1, sizeof(*a.obj));
	a.max = gs_xcalloc((size_t)argc + 1, sizeof(*a.max));
	int rc = GS_EXIT_USAGE;
	char *dflt = NULL;
	if (parse_query_options(argc, argv, &a, &q, &rc) < 0)
		goto out;
	int npos = argc - optind;
	char **pos = argv + optind;
	const char *path;
	if (npos >= 1 && is_report(pos[0])) {
		dflt = check_only ? gs_xstrdup("results/newest.db") : default_store();
		if (!dflt) {
			fprintf(stderr, "gsearch: error: no store named and no results/*.db here; "
					"name one: gsearch query DB %s\n", pos[0]);
			rc = GS_EXIT_ERRORS;
			goto out;
		}
		path = dflt;
	} else if (npos >= 2) {
		path = pos[0];
		pos++;
		npos--;
	} else {
		gs_usage_error("query", npos ? "no report named after '%s'" : "no report named",
			       npos ? pos[0] : "");
		goto out;
	}
	const char *what = pos[0];
	if (!is_report(what)) {
		gs_usage_error("query", "unknown report '%s' (summary, top, pareto, compare, "
					"sensitivity, export, progress)", what);
		goto out;
	}
	int sens = !strcmp(what, "sensitivity");
	if (npos != 1 + sens) {
		if (sens && npos == 1)
			gs_usage_error("query", "sensitivity needs a parameter: sensitivity PARAM");
		else
			gs_usage_error("query", "unexpected argument '%s'", pos[1 + sens]);
		goto out;
	}
	if (check_query_options(&a, &q, what, &rc) < 0)
		goto out;
	if (check_only) {
		rc = GS_EXIT_OK;
		goto out;
	}
	if (gs_query_open(&q, path) < 0) {
		rc = GS_EXIT_ERRORS;
		goto out;
	}
	rc = run_report(&q, &a, what, sens ? pos[1] : NULL);
	gs_query_close(&q);
out:
	free(dflt);
	free(a.obj);
	free(a.max);
	return rc;
}

int gs_cmd_query(int argc, char **argv)
{
	if (gs_wants_help("query", argc, argv))
		return GS_EXIT_OK;
	return query(argc, argv, 0);
}

int gs_query_parse_args(int argc, char **argv)
{
	return query(argc, argv, 1);
}
