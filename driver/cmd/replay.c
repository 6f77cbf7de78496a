/* replay.c — `gsearch replay`: search strategies run against a complete
 * recorded sweep (a store) or a Kernel Tuner cache instead of a device, so
 * that they can be compared on published data, repeat after repeat, in
 * seconds.  The work lives in driver/search/; this file parses options and
 * prints. */
#include "cmd/cmd.h"
#include "search/prior.h"
#include "search/record.h"
#include "search/replay.h"
#include "search/score.h"
#include "search/strategy.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char gs_help_replay[] =
	"usage: gsearch replay SOURCE [--strategy S]... [--prior P] [--budget B] [--repeats R]\n"
	"                      [--seed N] [--jobs J] [--csv] [--trace FILE]\n"
	"\n"
	"Runs search strategies against a complete recorded sweep instead of a\n"
	"device: SOURCE is a store (its newest sweep, or STORE#ID) or a Kernel\n"
	"Tuner cache file (plain or .gz).  Each configuration a strategy proposes\n"
	"gets its recorded outcome at once, and its recorded cost (compile and\n"
	"measurement) advances a simulated clock.  Over R repeats (seeds N, N+1,\n"
	"...), prints per strategy the median number of evaluations, and the\n"
	"median simulated time, to reach 90, 95, 98 and 100% of the optimum's\n"
	"performance (98%: a time within optimum / 0.98; '-': more than half the\n"
	"repeats never got there), and the autotuning-methodology score (0: as\n"
	"good as random search, 1: the optimum from the start).\n"
	"\n"
	"options:\n"
	"  --strategy S    a strategy to run (repeatable; default: every one that\n"
	"                  can run, those that need a prior only with --prior)\n"
	"  --prior P       predictions: sweep:STORE[#ID] or kt:FILE (another GPU,\n"
	"                  another size), matched by parameter values; static: the\n"
	"                  recorded compile-time facts alone (registers, occupancy)\n"
	"  --budget B      evaluations (500), a share of the space (2%), or a\n"
	"                  simulated time (90s, 90m, 2h); own: each strategy's own\n"
	"                  plan (Liang's sets of ro and po; else everything);\n"
	"                  default: the score within the time the autotuning-\n"
	"                  methodology package gives this space, the evaluations\n"
	"                  to each target without a limit (each repeat runs on to\n"
	"                  the optimum)\n"
	"  --repeats R     repeats per strategy (default 25)\n"
	"  --seed N        seed of the first repeat (default 1)\n"
	"  --jobs J        replay as `run --jobs J` on one device runs: J compile\n"
	"                  threads beside the device, results handed to the\n"
	"                  strategy as they arrive under a time budget, else in\n"
	"                  the order it proposed them (default: one configuration\n"
	"                  at a time, compile and measurement)\n"
	"  --csv           one row per strategy: strategy,prior,repeats,configs,\n"
	"                  f90,f95,f98,f100,t95_s,score (never reached: empty)\n"
	"  --trace FILE    every repeat's evaluations as CSV: strategy,repeat,eval,\n"
	"                  key,time_ms,cum_s (time_ms empty for a failure; without\n"
	"                  --budget, the whole runs, past the score's budget)\n"
	"  -h, --help      this help (with the list of strategies)\n";

/* The methodology's budget of a small space can be a handful of
 * evaluations, or less (its end point is bounded by a time where it wants a
 * count); below this many evaluations' worth, replay takes the whole space
 * instead. */
#define GS_MIN_BUDGET_EVALS 10

static void print_help_strategies(FILE *f)
{
	size_t n;
	const struct gs_strategy_ops *const *t = gs_strategy_table(&n);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-10s %s%s\n", t[i]->name, t[i]->doc, t[i]->prior == GS_PRIOR_NEEDED ? " [needs a prior]" : t[i]->prior == GS_PRIOR_USED ? " [uses a prior]" : "");
}

static void put_num(struct gs_buf *b, double v, int csv)
{
	if (!isfinite(v))
		gs_buf_puts(b, csv ? "" : "-");
	else if (v == floor(v))
		gs_buf_printf(b, "%.0f", v);
	else
		gs_buf_printf(b, "%.1f", v);
}

static void put_secs(struct gs_buf *b, double v, int csv)
{
	if (!isfinite(v))
		gs_buf_puts(b, csv ? "" : "-");
	else
		gs_buf_printf(b, "%.1f", v);
}

static void put_score(struct gs_buf *b, double v, int csv)
{
	if (isnan(v))
		gs_buf_puts(b, csv ? "" : "-");
	else
		gs_buf_printf(b, "%.3f", v);
}

static void trace_rows(FILE *f, const char *name, const struct gs_record *rec,
		       const struct gs_replay_run *runs, size_t nruns)
{
	struct gs_buf b = GS_BUF_INIT;
	for (size_t r = 0; r < nruns; r++)
		for (size_t e = 0; e < runs[r].n; e++) {
			size_t c = runs[r].cfg[e];
			gs_buf_reset(&b);
			gs_buf_printf(&b, "%s,%zu,%zu,", name, r, e + 1);
			size_t at = b.len;
			gs_buf_puts(&b, rec->sp.key[c]);
			gs_buf_csv_quote(&b, at);
			gs_buf_putc(&b, ',');
			if (isfinite(rec->time_ms[c]))
				gs_buf_printf(&b, "%.17g", rec->time_ms[c]);
			gs_buf_printf(&b, ",%.17g\n", runs[r].cum_s[e]);
			fputs(gs_buf_str(&b), f);
		}
	gs_buf_release(&b);
}

static int parse_count(const char *cmd, const char *opt, const char *s, unsigned long long max,
		       unsigned long long *v)
{
	char *end;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (!*s || *end || errno || *s == '-' || *v > max)
		return gs_usage_error(cmd, "%s wants a number up to %llu, not '%s'", opt, max, s);
	return 0;
}

/* One strategy's line of the table, or its CSV row. */
static void put_row(struct gs_buf *out, int csv, const char *name, const char *pname, int uses,
		    unsigned long long repeats, size_t n, const struct gs_replay_stats *st, double score)
{
	if (csv) {
		gs_buf_printf(out, "%s,", name);
		size_t at = out->len;
		gs_buf_puts(out, pname);
		gs_buf_csv_quote(out, at);
		gs_buf_printf(out, ",%llu,%zu", repeats, n);
		for (int k = 0; k < GS_REPLAY_NTARGETS; k++) {
			gs_buf_putc(out, ',');
			put_num(out, st->f[k], 1);
		}
		gs_buf_putc(out, ',');
		put_secs(out, st->t95_s, 1);
		gs_buf_putc(out, ',');
		put_score(out, score, 1);
		gs_buf_putc(out, '\n');
	} else {
		struct gs_buf cell = GS_BUF_INIT;
		gs_buf_printf(out, "%-10s %-6s", name, uses ? "yes" : "-");
		for (int k = 0; k < GS_REPLAY_NTARGETS; k++) {
			gs_buf_reset(&cell);
			put_num(&cell, st->f[k], 0);
			gs_buf_printf(out, " %7s", gs_buf_str(&cell));
		}
		gs_buf_reset(&cell);
		put_secs(&cell, st->t95_s, 0);
		gs_buf_printf(out, " %8s", gs_buf_str(&cell));
		gs_buf_reset(&cell);
		put_score(&cell, score, 0);
		gs_buf_printf(out, " %7s\n", gs_buf_str(&cell));
		gs_buf_release(&cell);
	}
}

/* The budget (--budget, else the methodology's where it is large enough,
 * else everything) and its words for the header; -1: --budget unreadable.
 * *past: the methodology's budget bounds the score alone, the runs go on
 * past it to the optimum (gs_replay_run_past), so that the evaluations to
 * each target are known however few the methodology allows. */
static int budget_text(const char *budget, const struct gs_record *rec, const struct gs_score_space *ss,
		       size_t *budget_n, double *budget_s, int *past, struct gs_buf *btext)
{
	*past = 0;
	if (budget && !strcmp(budget, "own")) {
		*budget_n = GS_REPLAY_OWN;
		gs_buf_puts(btext, "budget each strategy's own plan");
	} else if (budget) {
		if (gs_replay_parse_budget(budget, rec->sp.n, budget_n, budget_s) < 0)
			return -1;
		if (*budget_n)
			gs_buf_printf(btext, "budget %zu evaluations", *budget_n);
		else
			gs_buf_printf(btext, "budget %.1f s simulated", *budget_s);
	} else if (ss->ok && ss->budget_s >= GS_MIN_BUDGET_EVALS * ss->time_per_feval) {
		*budget_s = ss->budget_s;
		*past = 1;
		gs_buf_printf(btext, "score within %.1f s simulated (the methodology's budget), "
			      "evaluations to each target without a limit", *budget_s);
	} else {
		gs_buf_puts(btext, "budget the whole space (the methodology's is too small here)");
	}
	return 0;
}

/* The table's heading: what is replayed, the budget, the columns. */
static void put_header(struct gs_buf *out, const char *source, const struct gs_record *rec, double opt,
		       const char *budget, unsigned long long repeats, unsigned long long seed)
{
	gs_buf_printf(out, "replay %s: %s, %zu configurations, optimum %.6g ms\n", source, rec->what,
		      rec->sp.n, opt);
	gs_buf_printf(out, "%s; %llu repeats from seed %llu\n", budget, repeats, seed);
	gs_buf_puts(out, "evaluations to reach a share of the optimum's performance (median):\n");
	gs_buf_printf(out, "%-10s %-6s %7s %7s %7s %7s %8s %7s\n", "strategy", "prior", "90%",
		      "95%", "98%", "100%", "t95_s", "score");
}

/* replay's command line. chosen (nchosen of them) is the caller's to free. */
struct replay_opts {
	const struct gs_strategy_ops **chosen;
	size_t nchosen;
	const char *prior_spec, *budget, *trace;
	unsigned long long repeats, seed, jobs;
	int csv;
};

/* Reads the options into ro; a usage exit status after an error, else 0. */
static int parse_replay_options(int argc, char **argv, struct replay_opts *ro)
{
	static const struct option opts[] = {
		{ "strategy", required_argument, NULL, 'S' }, { "prior", required_argument, NULL, 'p' },
		{ "budget", required_argument, NULL, 'b' },   { "repeats", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },     { "csv", no_argument, NULL, 'c' },
		{ "trace", required_argument, NULL, 't' },    { "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	int c, usage = 0;
	opterr = 0;
	optind = 1;
	while (!usage && (c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'S': {
			const struct gs_strategy_ops *o = gs_strategy_find(optarg);
			if (!o)
				usage = gs_usage_error("replay", "unknown strategy '%s' (`gsearch help replay` lists them)", optarg);
			else
				ro->chosen[ro->nchosen++] = o;
			break;
		}
		case 'p': ro->prior_spec = optarg; break;
		case 'b': ro->budget = optarg; break;
		case 'r':
			usage = parse_count("replay", "--repeats", optarg, 100000, &ro->repeats);
			if (!usage && !ro->repeats)
				usage = gs_usage_error("replay", "--repeats wants at least 1");
			break;
		case 's': usage = parse_count("replay", "--seed", optarg, UINT64_MAX, &ro->seed); break;
		case 'j':
			usage = parse_count("replay", "--jobs", optarg, 1024, &ro->jobs);
			if (!usage && !ro->jobs)
				usage = gs_usage_error("replay", "--jobs wants at least 1");
			break;
		case 'c': ro->csv = 1; break;
		case 't': ro->trace = optarg; break;
		default: usage = gs_option_error("replay", c, argv); break;
		}
	}
	if (!usage && optind >= argc)
		usage = gs_usage_error("replay", "no source named: gsearch replay STORE|CACHE.json");
	else if (!usage && argc - optind > 1)
		usage = gs_usage_error("replay", "unexpected argument '%s'", argv[optind + 1]);
	for (size_t i = 0; !usage && i < ro->nchosen; i++)
		if (ro->chosen[i]->prior == GS_PRIOR_NEEDED && !ro->prior_spec)
			usage = gs_usage_error("replay", "strategy '%s' needs --prior", ro->chosen[i]->name);
	return usage;
}

/* Loads --prior for rec; -1 after printing the error. */
static int load_prior(struct gs_prior *prior, const char *spec, const struct gs_record *rec,
		      struct gs_buf *err)
{
	if (!strcmp(spec, "static"))
		gs_prior_static(prior, spec, rec);
	else if (gs_prior_load(prior, spec, &rec->sp, err) < 0) {
		fprintf(stderr, "gsearch: error: %s\n", gs_buf_str(err));
		gs_prior_release(prior);
		return -1;
	}
	/* occupancy and registers are known before measuring (after
	 * compiling): the recorded ones are what a live search would have */
	if (rec->has_occupancy)
		for (size_t i = 0; i < rec->sp.n; i++) {
			prior->occupancy[i] = rec->occupancy[i];
			prior->registers[i] = rec->registers[i];
		}
	return 0;
}

/* One strategy's repeats: its row on stdout, its evaluations on tf if
 * given. runs and sr hold ro->repeats each.  past (budget_text): the
 * targets from the whole runs, the score from their part within budget_s. */
static void replay_strategy(const struct replay_opts *ro, const struct gs_strategy_ops *o,
			    const struct gs_record *rec, const struct gs_prior *p,
			    const struct gs_score_space *ss, size_t budget_n, double budget_s, int past,
			    struct gs_replay_run *runs, struct gs_score_run *sr, FILE *tf,
			    struct gs_buf *out)
{
	for (unsigned long long r = 0; r < ro->repeats; r++) {
		if (ro->jobs)
			gs_replay_run_jobs(rec, o, p, ro->seed + r, past ? 0 : budget_n, budget_s, past,
					   (unsigned)ro->jobs, &runs[r]);
		else if (past)
			gs_replay_run_past(rec, o, p, ro->seed + r, budget_s, &runs[r]);
		else
			gs_replay_run(rec, o, p, ro->seed + r, budget_n, budget_s, &runs[r]);
		sr[r].cfg = runs[r].cfg;
		sr[r].cum_s = runs[r].cum_s;
		sr[r].n = runs[r].within;
	}
	struct gs_replay_stats st;
	gs_replay_stats(rec, runs, ro->repeats, &st);
	double score = gs_score(ss, sr, ro->repeats);
	/* a strategy that ignores the prior is shown without one */
	int uses = p && o->prior != GS_PRIOR_IGNORED;
	const char *pname = uses ? ro->prior_spec : "none";
	put_row(out, ro->csv, o->name, pname, uses, ro->repeats, rec->sp.n, &st, score);
	fputs(gs_buf_str(out), stdout);
	fflush(stdout);
	gs_buf_reset(out);
	if (tf)
		trace_rows(tf, o->name, rec, runs, ro->repeats);
	for (unsigned long long r = 0; r < ro->repeats; r++)
		gs_replay_run_release(&runs[r]);
}

int gs_cmd_replay(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(gs_help_replay, stdout);
			fputs("\nstrategies:\n", stdout);
			print_help_strategies(stdout);
			return GS_EXIT_OK;
		}
	size_t ntable;
	gs_strategy_table(&ntable);
	struct replay_opts ro = { .repeats = 25, .seed = 1 };
	ro.chosen = gs_xcalloc((size_t)argc + ntable + 1, sizeof *ro.chosen);
	int usage = parse_replay_options(argc, argv, &ro);
	if (usage) {
		free(ro.chosen);
		return usage;
	}
	const char *source = argv[optind];
	int status = GS_EXIT_ERRORS;
	struct gs_buf err = GS_BUF_INIT, out = GS_BUF_INIT;
	struct gs_record rec;
	struct gs_prior prior;
	int have_prior = 0;
	struct gs_score_space ss = { 0 };
	FILE *tf = NULL;
	if (gs_record_load(source, 1, &rec, &err) < 0) {
		fprintf(stderr, "gsearch: error: %s\n", gs_buf_str(&err));
		goto out_rec;
	}
	double opt = gs_record_optimum(&rec);
	if (!isfinite(opt)) {
		fprintf(stderr, "gsearch: error: %s: no configuration succeeded\n", source);
		goto out_rec;
	}
	if (ro.prior_spec) {
		if (load_prior(&prior, ro.prior_spec, &rec, &err) < 0)
			goto out_rec;
		have_prior = 1;
	}
	if (!ro.nchosen) {
		size_t n;
		const struct gs_strategy_ops *const *t = gs_strategy_table(&n);
		for (size_t i = 0; i < n; i++)
			if (t[i]->prior != GS_PRIOR_NEEDED || have_prior)
				ro.chosen[ro.nchosen++] = t[i];
	}
	ss.n = rec.sp.n;
	ss.perf = rec.time_ms;
	ss.cost = rec.cost_s;
	gs_score_prepare(&ss);
	size_t budget_n = 0;
	double budget_s = 0;
	int past;
	struct gs_buf btext = GS_BUF_INIT;
	if (budget_text(ro.budget, &rec, &ss, &budget_n, &budget_s, &past, &btext) < 0) {
		gs_buf_release(&btext);
		status = gs_usage_error("replay", "--budget wants N, P%% or a time (90s, 90m, 2h), not '%s'",
					ro.budget);
		goto out_prior;
	}
	if (ro.trace && !(tf = fopen(ro.trace, "w"))) {
		fprintf(stderr, "gsearch: error: %s: cannot write: %s\n", ro.trace, strerror(errno));
		gs_buf_release(&btext);
		goto out_prior;
	}
	if (tf)
		fputs("strategy,repeat,eval,key,time_ms,cum_s\n", tf);
	if (ro.csv)
		gs_buf_puts(&out, "strategy,prior,repeats,configs,f90,f95,f98,f100,t95_s,score\n");
	else
		put_header(&out, source, &rec, opt, gs_buf_str(&btext), ro.repeats, ro.seed);
	gs_buf_release(&btext);
	fputs(gs_buf_str(&out), stdout);
	gs_buf_reset(&out);
	struct gs_replay_run *runs = gs_xcalloc(ro.repeats, sizeof *runs);
	struct gs_score_run *sr = gs_xcalloc(ro.repeats, sizeof *sr);
	for (size_t i = 0; i < ro.nchosen; i++)
		replay_strategy(&ro, ro.chosen[i], &rec, have_prior ? &prior : NULL, &ss, budget_n,
				budget_s, past, runs, sr, tf, &out);
	free(runs);
	free(sr);
	if (!ro.csv && ro.prior_spec)
		printf("prior %s predicts %zu of %zu configurations\n", ro.prior_spec, prior.known,
		       rec.sp.n);
	status = GS_EXIT_OK;
	if (tf && fclose(tf)) {
		fprintf(stderr, "gsearch: error: %s: cannot write: %s\n", ro.trace, strerror(errno));
		status = GS_EXIT_ERRORS;
	}
	tf = NULL;
out_prior:
	if (tf)
		fclose(tf);
	if (have_prior)
		gs_prior_release(&prior);
	gs_score_release(&ss);
out_rec:
	gs_record_release(&rec);
	gs_buf_release(&err);
	gs_buf_release(&out);
	free(ro.chosen);
	return status;
}
