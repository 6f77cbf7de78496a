/* show.c — `gsearch show`: one configuration of a store in full; the report
 * itself is query/show.c. */
#include "cmd/cmd.h"
#include "query/query.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* PTX lines shown unless --ptx asks for all. */
#define PTX_LINES 20

const char gs_help_show[] =
	"usage: gsearch show DB INDEX [--sweep ID|latest] [--ptx] [--json]\n"
	"\n"
	"One configuration of a sweep in full: its parameters, its variant's compiler\n"
	"options, resources and occupancy, every figure, metric and counter, the error\n"
	"if it failed, the compile log and the first lines of its PTX.\n"
	"\n"
	"options:\n"
	"  --sweep ID     the sweep (default: the newest)\n"
	"  --ptx          all of the PTX, not only its first 20 lines\n"
	"  --json         one JSON object, PTX and log included\n"
	"  -h, --help     this help\n";

int gs_cmd_show(int argc, char **argv)
{
	if (gs_wants_help("show", argc, argv))
		return GS_EXIT_OK;
	enum { O_SWEEP = 256, O_PTX, O_JSON };
	static const struct option opts[] = {
		{ "sweep", required_argument, NULL, O_SWEEP },
		{ "ptx", no_argument, NULL, O_PTX },
		{ "json", no_argument, NULL, O_JSON },
		{ NULL, 0, NULL, 0 },
	};
	struct gs_query q = { .out = stdout, .fmt = GS_QF_TABLE };
	long ptx = PTX_LINES;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		char *end;
		switch (c) {
		case O_SWEEP:
			errno = 0;
			if (!strcmp(optarg, "latest")) {
				q.sweep = 0;
				break;
			}
			q.sweep = strtoll(optarg, &end, 10);
			if (end == optarg || *end || errno || q.sweep < 1)
				return gs_usage_error("show", "--sweep needs a sweep id, not '%s'", optarg);
			break;
		case O_PTX:
			ptx = -1;
			break;
		case O_JSON:
			q.fmt = GS_QF_JSON;
			break;
		default:
			return gs_option_error("show", c, argv);
		}
	}
	if (argc - optind != 2)
		return gs_usage_error("show", "expected a store and a configuration index");
	char *end;
	errno = 0;
	long long idx = strtoll(argv[optind + 1], &end, 10);
	if (end == argv[optind + 1] || *end || errno || idx < 0)
		return gs_usage_error("show", "INDEX must be a configuration index (0, 1, ...), not '%s'",
				      argv[optind + 1]);
	if (gs_query_open(&q, argv[optind]) < 0)
		return GS_EXIT_ERRORS;
	int rc = gs_query_show(&q, idx, ptx);
	gs_query_close(&q);
	return rc;
}
