/* fuzz_options.c — libFuzzer entry for the option values of `run` and `query`.
 *
 * The input is a command line, one argument per line: "run" or "query"
 * first, then options and operands as a shell would pass them.  Each is
 * checked by the command's own parser (cmd/run.c, cmd/query.c), which must
 * accept it or print a usage error, nothing being run and no store opened.
 * What the parsers keep as text is then taken as far as the commands take
 * it: run's --set overrides are applied to a small space, which is checked
 * and enumerated; query's --where is compiled against a sweep's fields and
 * evaluated on one row.
 * Built and run by `make fuzz FUZZ_TARGET=options`. */
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "query/query.h"
#include "space/enum.h"
#include "space/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_ARGS = 64, MAX_PRODUCT = 4096, MAX_CONFIGS = 64 };

/* Problem constants of every kind for --set to override, and domains and
 * constraints that depend on them. */
static const char space_text[] =
	"problem M = 1024 emu 64\n"
	"problem N = 512\n"
	"problem P = \"fp32\"\n"
	"problem A = 1.5\n"
	"param BS in [32, 64, 128, 256]\n"
	"param TW in range(1, N // 64 + 1)\n"
	"let tiles = M // BS\n"
	"require M % BS == 0 else \"BS must divide M\"\n"
	"require tiles * TW <= N * 4 and P != \"fp64\" and A > 0\n"
	"metric gflops = 2 * M * N / (time_ms * 1e6) higher\n";

static FILE *devnull;

/* The parsers print usage errors on stderr, once per input: while they run,
 * stderr is /dev/null.  The stream, not fd 2, so that what libFuzzer and the
 * sanitizers print about a crash in there still shows (glibc's stderr is a
 * variable; libFuzzer took its value at start-up). */
static void quiet(int on)
{
	static FILE *saved;
	if (!saved)
		saved = stderr;
	stderr = on ? devnull : saved;
}

static void run_sets(int argc, char **argv)
{
	struct gs_space_args a;
	gs_space_args_init(&a, argc);
	quiet(1);
	int rc = gs_run_parse_args(argc, argv, &a);
	quiet(0);
	if (rc == 0) {
		struct gs_diag d = GS_DIAG_INIT;
		struct gs_space_opts o = { a.sets, a.nsets, a.emu };
		struct gs_space *sp = gs_space_parse(
			gs_source_new("fuzz.space", space_text, sizeof space_text - 1), &o, &d);
		uint64_t product = 1;
		for (size_t i = 0; sp && !d.errors && i < sp->nparams && product <= MAX_PRODUCT; i++)
			product *= sp->params[i].nvals ? sp->params[i].nvals : 1;
		if (sp && !d.errors && product <= MAX_PRODUCT) {
			struct gs_enum e;
			int r = gs_enum_init(&e, sp, 0, 1);
			for (int n = 0; r >= 0 && n < MAX_CONFIGS && (r = gs_enum_next(&e)) > 0; n++)
				;
			if (r < 0)
				gs_enum_report(&e, &d);
			gs_enum_release(&e);
		}
		gs_diag_print(&d, devnull);
		gs_space_free(sp);
		gs_diag_release(&d);
	}
	gs_space_args_release(&a);
}

/* A sweep's catalogue as gs_qsweep_load builds it from a store: parameters,
 * columns, a metric, a counter; one row of values for them. */
static struct gs_qfield fields[] = {
	{ .name = "TILE", .kind = GS_QK_PARAM, .type = GS_T(INT) },
	{ .name = "LAYOUT", .kind = GS_QK_PARAM, .type = GS_T(STR) },
	{ .name = "time_ms", .kind = GS_QK_COL, .type = GS_T_NUM },
	{ .name = "registers", .kind = GS_QK_COL, .type = GS_T_NUM },
	{ .name = "status", .kind = GS_QK_COL, .type = GS_T(STR) },
	{ .name = "occupancy", .kind = GS_QK_COL, .type = GS_T_NUM, .higher = 1 },
	{ .name = "gflops", .kind = GS_QK_METRIC, .type = GS_T_NUM, .higher = 1 },
	{ .name = "warps", .kind = GS_QK_COUNTER, .type = GS_T_NUM },
};

static void where(const char *text)
{
	struct gs_qsweep sw = { .id = 1, .fields = fields, .nfields = GS_ARRAY_SIZE(fields) };
	struct gs_qfilter f;
	quiet(1);
	int rc = gs_qfilter_init(&f, &sw, text);
	quiet(0);
	if (rc < 0)
		return;
	struct gs_arena a = GS_ARENA_INIT;
	struct gs_value env[GS_ARRAY_SIZE(fields)] = {
		gs_int(16), gs_str_new(&a, "row", 3), gs_float(0.125), gs_int(32),
		gs_str_new(&a, "ok", 2), gs_float(0.5), gs_float(1234.5), gs_none(),
	};
	/* as query's rows: one whose field is empty is left out, not evaluated */
	int empty = !f.code;
	for (size_t i = 0; f.code && i < f.code->nglobals; i++)
		empty |= env[f.code->globals[i]].t == GS_V_NONE;
	if (!empty) {
		struct gs_value v;
		gs_vm_reset(&f.vm);
		gs_vm_eval(&f.vm, f.code, env, &v);
	}
	gs_arena_release(&a);
	gs_qfilter_release(&f);
}

static void query_args(int argc, char **argv)
{
	/* the parser permutes argv: find --where before it does */
	const char *w[MAX_ARGS];
	int nw = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--where") && i + 1 < argc)
			w[nw++] = argv[++i];
		else if (!strncmp(argv[i], "--where=", 8))
			w[nw++] = argv[i] + 8;
	}
	quiet(1);
	int rc = gs_query_parse_args(argc, argv);
	quiet(0);
	for (int i = 0; rc == 0 && i < nw; i++)
		where(w[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	char *text = malloc(size + 1);
	if (size)
		memcpy(text, data, size);
	text[size] = 0;
	char *argv[MAX_ARGS + 1];
	int argc = 0;
	for (char *p = text; argc < MAX_ARGS;) {
		argv[argc++] = p;
		char *nl = memchr(p, '\n', (size_t)(text + size - p));
		if (!nl)
			break;
		*nl = 0;
		p = nl + 1;
	}
	argv[argc] = NULL;
	/* glibc's getopt keeps a pointer into the last argument it scanned
	 * until optind is 0; the commands set optind to 1, which is enough in
	 * a process that parses once, but here the last input is freed */
	optind = 0;
	getopt_long(1, (char *[]){ "reset", NULL }, "", (struct option[]){ { 0 } }, NULL);
	if (!strcmp(argv[0], "run"))
		run_sets(argc, argv);
	else if (!strcmp(argv[0], "query"))
		query_args(argc, argv);
	free(text);
	return 0;
}
