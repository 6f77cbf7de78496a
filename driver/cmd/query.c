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

/* check_only: stop once the command line is known good, before looking for
 * or opening a store. */
static int query(int argc, char **argv, int check_only)
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
	struct gs_query q = { .out = stdout, .fmt = GS_QF_TABLE };
	long n = 10;
	int n_given = 0, t4 = 0, kt = 0, order = -1, csv = 0, json = 0;
	const char *by = NULL, *sweeps = NULL;
	const char **obj = gs_xcalloc((size_t)argc + 1, sizeof(*obj));
	int *max = gs_xcalloc((size_t)argc + 1, sizeof(*max));
	size_t nobj = 0;
	int rc = GS_EXIT_USAGE, c;
	char *dflt = NULL;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":n:", opts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'n':
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno || n < 1) {
				gs_usage_error("query", "-n needs a number >= 1, not '%s'", optarg);
				goto out;
			}
			n_given = 1;
			break;
		case O_SWEEP:
			if (!parse_id(optarg, &q.sweep)) {
				gs_usage_error("query", "--sweep needs a sweep id or 'latest', not '%s'",
					       optarg);
				goto out;
			}
			break;
		case O_SWEEPS:
			sweeps = optarg;
			break;
		case O_WHERE:
			q.where = optarg;
			break;
		case O_CSV:
			csv = 1;
			break;
		case O_JSON:
			json = 1;
			break;
		case O_T4:
			t4 = 1;
			break;
		case O_KT:
			kt = 1;
			break;
		case O_PLOT:
			q.plot = optarg;
			break;
		case O_BY:
			by = optarg;
			break;
		case O_ASC:
		case O_DESC:
			order = c == O_DESC;
			break;
		case O_MIN:
		case O_MAX:
			max[nobj] = c == O_MAX;
			obj[nobj++] = optarg;
			break;
		default:
			rc = gs_option_error("query", c, argv);
			goto out;
		}
	}
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
	if (csv + json + t4 + kt > 1) {
		gs_usage_error("query", "give one of --csv, --json, --t4 and --kt-cache");
		goto out;
	}
	q.fmt = csv ? GS_QF_CSV : json ? GS_QF_JSON : GS_QF_TABLE;
	/* which options go with which report */
	struct {
		int given;
		const char *name, *reports;
	} fit[] = {
		{ n_given, "-n", " top " },
		{ by != NULL, "--by", " top sensitivity " },
		{ order >= 0, "--asc/--desc", " top " },
		{ nobj > 0, "--min/--max", " pareto " },
		{ sweeps != NULL, "--sweeps", " compare " },
		{ t4, "--t4", " export " },
		{ kt, "--kt-cache", " export " },
		{ q.plot != NULL, "--plot", " top pareto sensitivity progress " },
		{ json, "--json", " summary top pareto compare sensitivity export " },
		{ q.where != NULL, "--where", " summary top pareto compare sensitivity export " },
	};
	for (size_t i = 0; i < GS_ARRAY_SIZE(fit); i++) {
		char word[32];
		snprintf(word, sizeof word, " %s ", what);
		if (fit[i].given && !strstr(fit[i].reports, word)) {
			gs_usage_error("query", "%s does not go with %s (only with:%s)", fit[i].name,
				       what, fit[i].reports);
			goto out;
		}
	}
	if (!strcmp(what, "pareto") && !nobj) {
		gs_usage_error("query", "pareto needs objectives: --min FIELD and/or --max FIELD");
		goto out;
	}
	if (!strcmp(what, "export") && q.fmt == GS_QF_TABLE && !t4 && !kt) {
		gs_usage_error("query", "export needs --csv, --json, --t4 or --kt-cache");
		goto out;
	}
	if (q.plot && gs_plot_check(q.plot) < 0) {
		rc = GS_EXIT_USAGE;
		goto out;
	}
	if (q.plot && gs_plot_writable(q.plot) < 0) {
		rc = GS_EXIT_ERRORS;
		goto out;
	}
	int64_t sa = 0, sb = 0;
	if (sweeps) {
		const char *comma = strchr(sweeps, ',');
		char *a = comma ? gs_xstrndup(sweeps, (size_t)(comma - sweeps)) : NULL;
		int okp = comma && parse_id(a, &sa) && parse_id(comma + 1, &sb) && sa && sb;
		free(a);
		if (!okp) {
			gs_usage_error("query", "--sweeps needs two sweep ids A,B, not '%s'", sweeps);
			goto out;
		}
	}

	if (check_only) {
		rc = GS_EXIT_OK;
		goto out;
	}
	if (gs_query_open(&q, path) < 0) {
		rc = GS_EXIT_ERRORS;
		goto out;
	}
	if (!strcmp(what, "summary"))
		rc = gs_query_summary(&q);
	else if (!strcmp(what, "top"))
		rc = gs_query_top(&q, n, by, order >= 0, order > 0);
	else if (!strcmp(what, "pareto"))
		rc = gs_query_pareto(&q, obj, max, nobj);
	else if (!strcmp(what, "compare"))
		rc = sweeps ? gs_query_compare_sweeps(&q, sa, sb) : gs_query_compare(&q);
	else if (sens)
		rc = gs_query_sensitivity(&q, pos[1], by);
	else if (!strcmp(what, "progress"))
		rc = gs_query_progress(&q);
	else if (kt)
		rc = gs_query_export_kt(&q);
	else
		rc = gs_query_export(&q, t4 ? GS_QX_T4 : csv ? GS_QX_CSV : GS_QX_JSON);
	gs_query_close(&q);
out:
	free(dflt);
	free(obj);
	free(max);
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
