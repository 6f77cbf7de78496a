/* table.c — the command table, usage errors and `gsearch help`. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"

static const char gs_help_compile_server[] =
	"usage: gsearch compile-server\n"
	"\n"
	"Internal: a compile thread's helper process.  Reads compile requests on\n"
	"stdin and writes results on stdout until stdin closes.\n";

static const struct gs_cmd commands[] = {
	{ "check", gs_cmd_check, "check a space: parameters, counts, baseline", gs_help_check, 0 },
	{ "list", gs_cmd_list, "list the valid configurations of a space", gs_help_list, 0 },
	{ "compile", gs_cmd_compile, "compile one configuration, print its resources", gs_help_compile, 0 },
	{ "run", gs_cmd_run, "create a sweep and compile its variants (see `help run`)", gs_help_run, 0 },
	{ "devices", gs_cmd_devices, "list the GPUs of this host and their limits", gs_help_devices, 0 },
	{ "occupancy", gs_cmd_occupancy, "blocks per SM of a block shape on an emulated device", gs_help_occupancy, 0 },
	{ "query", gs_cmd_query, "report on a store: summary, top, pareto, compare, ...", gs_help_query, 0 },
	{ "show", gs_cmd_show, "one configuration of a store in full", gs_help_show, 0 },
	{ "import", gs_cmd_import, "read a Kernel Tuner cache file into a sweep of a store", gs_help_import, 0 },
	{ "replay", gs_cmd_replay, "run search strategies against a recorded sweep or a cache", gs_help_replay, 0 },
	{ "merge", gs_cmd_merge, "merge the stores of a sweep's shards into one", gs_help_merge, 0 },
	{ "help", gs_cmd_help, "show help for a command", gs_help_help, 0 },
	{ "compile-server", gs_cmd_compile_server, "", gs_help_compile_server, 1 },
	{ "worker", gs_cmd_worker, "", gs_help_worker, 1 },
};

const struct gs_cmd *gs_cmd_table(size_t *n)
{
	*n = GS_ARRAY_SIZE(commands);
	return commands;
}

const struct gs_cmd *gs_cmd_find(const char *name)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

void gs_print_overview(FILE *f)
{
	fputs("usage: gsearch COMMAND [OPTIONS] [ARGS]\n"
	      "\n"
	      "gsearch enumerates every valid configuration of a CUDA kernel's tuning\n"
	      "space, measures each, and keeps every outcome in SQLite.\n"
	      "\n"
	      "commands:\n",
	      f);
	int w = 0;
	for (size_t i = 0; i < GS_ARRAY_SIZE(commands); i++)
		if (!commands[i].hidden && (int)strlen(commands[i].name) > w)
			w = (int)strlen(commands[i].name);
	for (size_t i = 0; i < GS_ARRAY_SIZE(commands); i++)
		if (!commands[i].hidden)
			fprintf(f, "  %-*s %s\n", w, commands[i].name, commands[i].summary);
	fputs("\n"
	      "`gsearch help COMMAND` or `gsearch COMMAND --help` describes a command.\n"
	      "`gsearch --version` prints the version.\n"
	      "exit status: 0 success, 1 errors were reported, 2 usage error\n",
	      f);
}

int gs_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "gsearch%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	const struct gs_cmd *c = cmd ? gs_cmd_find(cmd) : NULL;
	if (c) {
		const char *end = strstr(c->help, "\n\n");
		fprintf(stderr, "%.*s\n", end ? (int)(end - c->help) : (int)strlen(c->help), c->help);
		fprintf(stderr, "(`gsearch help %s` for more)\n", cmd);
	} else {
		fputs("(`gsearch help` lists the commands)\n", stderr);
	}
	return GS_EXIT_USAGE;
}

int gs_wants_help(const char *cmd, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(gs_cmd_find(cmd)->help, stdout);
			return 1;
		}
	}
	return 0;
}

const char gs_help_help[] =
	"usage: gsearch help [COMMAND]\n"
	"\n"
	"Without COMMAND, lists the commands; with it, describes that command.\n";

int gs_cmd_help(int argc, char **argv)
{
	if (gs_wants_help("help", argc, argv))
		return GS_EXIT_OK;
	if (argc < 2) {
		gs_print_overview(stdout);
		return GS_EXIT_OK;
	}
	if (argc > 2)
		return gs_usage_error("help", "too many arguments");
	const struct gs_cmd *c = gs_cmd_find(argv[1]);
	if (!c)
		return gs_usage_error("help", "unknown command '%s'", argv[1]);
	fputs(c->help, stdout);
	return GS_EXIT_OK;
}

