/* merge.c — `gsearch merge`: the stores of a sweep's shards into one. */
#include "cmd/cmd.h"
#include "store/merge.h"

#include <getopt.h>
#include <string.h>

const char gs_help_merge[] =
	"usage: gsearch merge [--force] OUT.db IN.db...\n"
	"\n"
	"Merges stores written by `gsearch run --shard I/N` (one per Slurm array\n"
	"task, say), or any stores of the same sweep, into OUT.db, created when\n"
	"missing.  The shards of a sweep become the sweep an unsharded run would\n"
	"have made, with its views: configurations and the compile cache are\n"
	"united, and each run merged is kept as a row of sweep_part (shard, host,\n"
	"device, start and finish, times).  An outcome measured twice with\n"
	"different results keeps the first one merged in result and the other in\n"
	"result_conflict.  Merging the same stores again changes nothing.\n"
	"\n"
	"Stores of different sweeps (another space text, kernel, problem, device or\n"
	"options) are refused: their measurements do not belong together.\n"
	"\n"
	"options:\n"
	"  --force           merge them anyway, each sweep into a sweep of its own\n"
	"  -h, --help        this help\n";

#define S(n) ((n) == 1 ? "" : "s")

int gs_cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	struct gs_merge_opts mo = { 0 };
	struct gs_merge_stats ms;
	struct gs_buf err = GS_BUF_INIT;
	int c, rc;

	if (gs_wants_help("merge", argc, argv))
		return GS_EXIT_OK;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		if (c == 'f')
			mo.force = 1;
		else
			return gs_option_error("merge", c, argv);
	}
	if (argc - optind < 2)
		return gs_usage_error("merge", argc == optind ? "no output store given"
							     : "no input store given");
	const char *out = argv[optind];
	const char *const *in = (const char *const *)argv + optind + 1;
	size_t n = (size_t)(argc - optind - 1);

	if (gs_merge(out, in, n, &mo, &ms, &err) < 0) {
		fprintf(stderr, "gsearch merge: error: %s\n", gs_buf_str(&err));
		gs_merge_stats_release(&ms);
		gs_buf_release(&err);
		return GS_EXIT_ERRORS;
	}
	printf("merged %zu store%s (%zu sweep%s) into %s\n", ms.inputs, S(ms.inputs), ms.sweeps_in,
	       S(ms.sweeps_in), out);
	for (size_t i = 0; i < ms.nout; i++) {
		const struct gs_merge_sweep *o = &ms.out[i];

		printf("sweep %lld (%s): %lld part%s, %lld configuration%s, %lld outcome%s, %s",
		       (long long)o->id, o->space_name, (long long)o->parts, S(o->parts),
		       (long long)o->configs, S(o->configs), (long long)o->results, S(o->results),
		       o->status);
		if (o->conflicts)
			printf(", %lld conflicting re-measurement%s in result_conflict",
			       (long long)o->conflicts, S(o->conflicts));
		printf("\n");
		if (o->missing)
			fprintf(stderr,
				"gsearch merge: warning: sweep %lld (%s): no store merged covers "
				"shard%s %s; `gsearch run` of the same space and options with --db "
				"%s measures what is missing\n",
				(long long)o->id, o->space_name, strchr(o->missing, ' ') ? "s" : "",
				o->missing, out);
	}
	printf("new: %lld configuration%s, %lld outcome%s, %lld variant%s, %lld part%s; %lld "
	       "outcome%s already there; %lld conflicting re-measurement%s\n",
	       (long long)ms.configs_new, S(ms.configs_new), (long long)ms.results_new,
	       S(ms.results_new), (long long)ms.variants_new, S(ms.variants_new),
	       (long long)ms.parts_new, S(ms.parts_new), (long long)ms.results_same,
	       S(ms.results_same), (long long)ms.conflicts_new, S(ms.conflicts_new));
	rc = GS_EXIT_OK;
	gs_merge_stats_release(&ms);
	gs_buf_release(&err);
	return rc;
}
