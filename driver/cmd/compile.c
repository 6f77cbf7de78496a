/* compile.c — `gsearch compile`: one variant through NVRTC, its resources. */
#include "cmd/cmd.h"
#include "gen/gen.h"
#include "gen/variant.h"
#include "sched/compile.h"
#include "space/enum.h"
#include "space/parse.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char gs_help_compile[] =
	"usage: gsearch compile (--index K | --config 'NAME=VALUE,...') [--arch sm_XX]\n"
	"                       [--ptx] [--log] [--set NAME=VALUE]... [--emu] SPACE\n"
	"\n"
	"Compiles one configuration's variant through NVRTC and prints its NVRTC\n"
	"options and its resource usage: registers, static shared memory, local\n"
	"memory and spills, read from the cubin and the ptxas report.\n"
	"\n"
	"options:\n"
	"  --index K         the configuration with enumeration index K (see `list`)\n"
	"  --config TEXT     the configuration NAME=VALUE,... (every parameter; VALUE is\n"
	"                    an expression)\n"
	"  --arch sm_XX      target architecture (default sm_90)\n"
	"  --ptx             print the PTX\n"
	"  --log             print NVRTC's log\n"
	"  --set NAME=VALUE  override a problem constant (repeatable)\n"
	"  --emu             use the problems' emulator sizes\n"
	GS_HELP_T1_GRID
	"  -h, --help        this help\n";

/* Set env's parameters from "A=1, B=2"; 0 or -1 after recording errors. */
static int parse_config(const struct gs_space *sp, const char *text, struct gs_value *env,
			struct gs_source **srcp, struct gs_arena *a, struct gs_diag *d)
{
	struct gs_source *src = gs_source_new("--config", text, strlen(text));
	*srcp = src;
	char *set = gs_xcalloc(sp->nparams + 1, 1);
	size_t pos = 0, n = src->len;
	int bad = 0;
	struct gs_vm vm;
	gs_vm_init(&vm);
	while (pos < n) {
		size_t end = pos;
		int depth = 0;
		while (end < n && !(depth == 0 && src->text[end] == ',')) {
			char c = src->text[end];
			depth += (c == '(' || c == '[') - (c == ')' || c == ']');
			end++;
		}
		size_t eq = pos;
		while (eq < end && src->text[eq] != '=')
			eq++;
		size_t ns = pos, ne = eq;
		while (ns < ne && src->text[ns] == ' ')
			ns++;
		while (ne > ns && src->text[ne - 1] == ' ')
			ne--;
		struct gs_loc nloc = { src, (uint32_t)ns, (uint32_t)(ne - ns) };
		if (eq == end || ne == ns) {
			gs_diag_error(d, nloc, "expected NAME=VALUE");
			bad = 1;
			pos = end + 1;
			continue;
		}
		size_t k;
		for (k = 0; k < sp->nparams; k++)
			if (strlen(sp->params[k].name) == ne - ns &&
			    !strncmp(sp->params[k].name, src->text + ns, ne - ns))
				break;
		if (k == sp->nparams) {
			char *name = gs_xstrndup(src->text + ns, ne - ns);
			gs_diag_error(d, nloc, "unknown parameter '%s'", name);
			const char **c = gs_xmalloc((sp->nparams + 1) * sizeof(*c));
			for (size_t j = 0; j < sp->nparams; j++)
				c[j] = sp->params[j].name;
			gs_diag_suggest(d, nloc, name, c, sp->nparams);
			free(c);
			free(name);
			bad = 1;
			pos = end + 1;
			continue;
		}
		struct gs_expr *e = gs_parse_expr_range(a, src, eq + 1, end, d);
		struct gs_code *c = e ? gs_expr_compile(e, NULL, d) : NULL;
		struct gs_value v;
		if (!c || gs_vm_eval(&vm, c, sp->env0, &v) < 0) {
			if (c)
				gs_diag_error(d, vm.err_loc, "%s", vm.err);
			bad = 1;
		} else {
			const struct gs_param *pa = &sp->params[k];
			size_t j;
			for (j = 0; j < pa->nvals; j++)
				if (gs_value_eq(pa->vals[j], v))
					break;
			if (j == pa->nvals) {
				struct gs_buf b = GS_BUF_INIT;
				gs_value_repr(&b, v);
				gs_diag_error(d, nloc, "%s is not a value of '%s'", gs_buf_str(&b), pa->name);
				gs_buf_release(&b);
				bad = 1;
			} else {
				env[pa->slot] = pa->vals[j];
				set[k] = 1;
			}
		}
		gs_code_free(c);
		pos = end + 1;
	}
	for (size_t k = 0; k < sp->nparams && !bad; k++)
		if (!set[k]) {
			gs_diag_error(d, (struct gs_loc){ src, 0, 0 }, "'%s' is not set", sp->params[k].name);
			bad = 1;
		}
	gs_vm_release(&vm);
	free(set);
	return bad ? -1 : 0;
}

/* What the command line asks for. */
struct compile_args {
	struct gs_space_args a;
	const char *config, *arch;
	long long index;
	int ptx, log;
};

/* Parses the options and the space's file into o; 0, or the exit status of
 * a usage error with o->a released. */
static int compile_args(int argc, char **argv, struct compile_args *o)
{
	static const struct option opts[] = {
		GS_OPT_SET, GS_OPT_EMU, GS_OPT_T1_GRID,
		{ "index", required_argument, NULL, 'i' }, { "config", required_argument, NULL, 'c' },
		{ "arch", required_argument, NULL, 'a' },  { "ptx", no_argument, NULL, 'p' },
		{ "log", no_argument, NULL, 'l' },         { NULL, 0, NULL, 0 },
	};
	int c;
	gs_space_args_init(&o->a, argc);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		int r = gs_space_args_option(&o->a, "compile", c, optarg);
		char *end;
		if (r)
			goto next;
		r = 1;
		switch (c) {
		case 'c': o->config = optarg; break;
		case 'p': o->ptx = 1; break;
		case 'l': o->log = 1; break;
		case 'a':
			if (!gs_arch_ok(optarg))
				r = (gs_usage_error("compile", "--arch needs sm_XX, not '%s'", optarg), -1);
			o->arch = optarg;
			break;
		case 'i':
			errno = 0;
			o->index = strtoll(optarg, &end, 10);
			if (end == optarg || *end || errno || o->index < 0)
				r = (gs_usage_error("compile", "--index needs a number >= 0, not '%s'", optarg),
				     -1);
			break;
		default:
			r = (gs_option_error("compile", c, argv), -1);
		}
	next:
		if (r < 0) {
			gs_space_args_release(&o->a);
			return GS_EXIT_USAGE;
		}
	}
	if (gs_space_args_file(&o->a, "compile", argc, argv) < 0) {
		gs_space_args_release(&o->a);
		return GS_EXIT_USAGE;
	}
	if ((o->index >= 0) == (o->config != NULL)) {
		gs_space_args_release(&o->a);
		return gs_usage_error("compile", "give exactly one of --index and --config");
	}
	return 0;
}

/* env set to the configuration of o->index or o->config; -1 after a
 * message or with errors in d. */
static int pick_config(struct gs_space *sp, const struct compile_args *o, struct gs_value *env,
		       struct gs_vm *vm, struct gs_source **csrc, struct gs_arena *arena,
		       struct gs_diag *d)
{
	if (o->index >= 0) {
		struct gs_enum e;
		int r = gs_enum_init(&e, sp, 0, 1);
		while (r >= 0 && (r = gs_enum_next(&e)) > 0 && (long long)e.index < o->index)
			;
		if (r > 0)
			memcpy(env, e.env, sp->nslots * sizeof(*env));
		else if (r == 0)
			fprintf(stderr, "gsearch: error: the space has %llu configurations; no index %lld\n",
				(unsigned long long)e.nvalid, o->index);
		else
			gs_enum_report(&e, d);
		gs_enum_release(&e);
		if (r <= 0)
			return -1;
		/* the values of string lets live in the enumerator's arena */
		for (size_t i = 0; i < sp->nslots; i++)
			env[i] = gs_value_persist(arena, env[i]);
		return 0;
	}
	if (parse_config(sp, o->config, env, csrc, arena, d) < 0)
		return -1;
	int failed;
	int r = gs_config_check(sp, env, vm, &failed, d);
	if (r < 0)
		return -1;
	if (r == 0) {
		if (failed >= 0)
			gs_diag_error(d, sp->requires[failed].loc,
				      "the configuration is not valid: this constraint rejects it");
		return -1;
	}
	return 0;
}

/* Compiles v and prints what came of it; the exit status. */
static int compile_and_print(const struct gs_space *sp, const struct compile_args *o,
			     const struct gs_value *env, struct gs_nvrtc *nvrtc,
			     struct gs_variant *v)
{
	int status = GS_EXIT_ERRORS;
	const char *arch = o->arch;
	struct gs_built b;
	gs_compile_variant(nvrtc, v, o->ptx, 0, 0, &b);
	struct gs_buf cfg = GS_BUF_INIT;
	gs_config_describe(sp, env, sp->nparams, " ", &cfg);
	char *optstr = gs_variant_options_text(v);
	if (o->index >= 0)
		printf("config      %lld  %s\n", o->index, gs_buf_str(&cfg));
	else
		printf("config      %s\n", gs_buf_str(&cfg));
	printf("variant     %s (%s, NVRTC %s)\n", v->hash, arch, gs_nvrtc_version(nvrtc));
	printf("options     %s\n", optstr);
	free(optstr);
	gs_buf_release(&cfg);
	if (b.nvrtc_failed) {
		fprintf(stderr, "gsearch: error: %s\n", b.err);
	} else if (!b.out.ok) {
		char why[512];
		if (gs_complog_limit(b.out.log, arch, why, sizeof why))
			printf("status      invalid: %s\n", why);
		else
			printf("status      compile_error\n");
		fflush(stdout);
		char *log = gs_complog_errors_first(b.out.log);
		fputs(log, stderr);
		free(log);
		status = GS_EXIT_ERRORS;
	} else {
		for (size_t i = 0; i < v->nnames; i++)
			printf("entry       %s%s%s\n", v->names[i],
			       b.out.lowered && b.out.lowered[i] && strcmp(b.out.lowered[i], v->names[i]) ? " -> " : "",
			       b.out.lowered && b.out.lowered[i] && strcmp(b.out.lowered[i], v->names[i]) ? b.out.lowered[i] : "");
		if (b.err[0]) {
			fprintf(stderr, "gsearch: error: %s\n", b.err);
		} else {
			printf("registers   %d per thread\n", b.res.registers);
			printf("shared      %d bytes static per block\n", b.res.static_smem);
			printf("local       %d bytes per thread", b.res.local_bytes);
			if (b.res.spill_stores >= 0)
				printf(" (spills: %d bytes stored, %d bytes loaded)", b.res.spill_stores,
				       b.res.spill_loads);
			printf("\n");
			if (b.res.max_threads)
				printf("max threads %d per block\n", b.res.max_threads);
			printf("barriers    %d\n", b.res.barriers);
			printf("compiled in %.2f s\n", b.out.seconds);
			status = GS_EXIT_OK;
		}
		if (o->log)
			printf("--- log\n%s", b.out.log ? b.out.log : "");
		if (o->ptx && b.out.ptx)
			printf("--- ptx\n%s", b.out.ptx);
	}
	gs_built_release(&b, v->nnames);
	return status;
}

int gs_cmd_compile(int argc, char **argv)
{
	if (gs_wants_help("compile", argc, argv))
		return GS_EXIT_OK;
	struct compile_args o = { .arch = "sm_90", .index = -1 };
	int rc = compile_args(argc, argv, &o);
	if (rc)
		return rc;
	struct gs_space *sp = gs_load_space_or_report(&o.a);
	gs_space_args_release(&o.a);
	if (!sp)
		return GS_EXIT_ERRORS;
	int status = GS_EXIT_ERRORS;
	struct gs_vm vm;
	gs_vm_init(&vm);
	struct gs_value *env = gs_xmalloc(sp->nslots * sizeof(*env));
	memcpy(env, sp->env0, sp->nslots * sizeof(*env));
	struct gs_diag d = GS_DIAG_INIT;
	struct gs_source *csrc = NULL;
	struct gs_arena arena = GS_ARENA_INIT;
	struct gs_nvrtc *nvrtc = NULL;
	struct gs_variant v;
	memset(&v, 0, sizeof v);
	if (pick_config(sp, &o, env, &vm, &csrc, &arena, &d) < 0)
		goto out;
	char err[1024];
	if (gs_nvrtc_load(&nvrtc, err, sizeof err) < 0) {
		fprintf(stderr, "gsearch: error: %s\n", err);
		goto out;
	}
	if (gs_variant_build(sp, env, o.arch, gs_nvrtc_version(nvrtc), &vm, &v, err,
			     sizeof err) < 0) {
		fprintf(stderr, "gsearch: error: %s\n", err);
		goto out;
	}
	status = compile_and_print(sp, &o, env, nvrtc, &v);
out:
	gs_diag_print(&d, stderr);
	gs_diag_release(&d);
	gs_variant_release(&v);
	gs_nvrtc_unload(nvrtc);
	gs_source_free(csrc);
	gs_arena_release(&arena);
	free(env);
	gs_vm_release(&vm);
	gs_space_free(sp);
	return status;
}

/* The hidden `gsearch compile-server`: a child of a compile thread. */
int gs_cmd_compile_server(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (gs_die_with_parent() < 0)
		return GS_EXIT_ERRORS;
	struct gs_nvrtc *nvrtc;
	char err[1024];
	if (gs_nvrtc_load(&nvrtc, err, sizeof err) < 0) {
		fprintf(stderr, "gsearch compile-server: %s\n", err);
		return GS_EXIT_ERRORS;
	}
	int rc = gs_compile_server(nvrtc, 0, 1);
	gs_nvrtc_unload(nvrtc);
	return rc < 0 ? GS_EXIT_ERRORS : GS_EXIT_OK;
}
