/* check.c — `gsearch check`: is the space well formed, how big is it. */
#include "cmd/argcheck.h"
#include "cmd/cmd.h"
#include "space/enum.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char gs_help_check[] =
	"usage: gsearch check [--set NAME=VALUE]... [--emu] SPACE\n"
	"\n"
	"Reads SPACE (a .space file, or T1 JSON), reports every error with its\n"
	"position, and prints the parameters with their number of values, the\n"
	"Cartesian size, the number of valid configurations, how much each\n"
	"constraint cut, whether the baseline is valid and its index, and how long\n"
	"counting took.\n"
	"\n"
	"options:\n"
	"  --set NAME=VALUE  override a problem constant (repeatable)\n"
	"  --emu             use the problems' emulator sizes\n"
	GS_HELP_T1_GRID
	"  -h, --help        this help\n";

/* The expression's text as written, shortened for a table. */
static void source_text(struct gs_loc loc, struct gs_buf *b, size_t max)
{
	if (!loc.src)
		return;
	size_t n = loc.len;
	const char *p = loc.src->text + loc.off;
	int cut = 0;
	if (n > max) {
		n = max - 3;
		cut = 1;
	}
	for (size_t i = 0; i < n; i++)
		gs_buf_putc(b, p[i] == '\n' || p[i] == '\t' ? ' ' : p[i]);
	if (cut)
		gs_buf_puts(b, "...");
}

/* A let's expression as written: the rest of its line after the '=' (the
 * expression's own location is that of its top operator), without a
 * trailing comment. */
static void let_text(const struct gs_let *l, struct gs_buf *b, size_t max)
{
	if (!l->loc.src) {
		source_text(l->expr->loc, b, max);
		return;
	}
	const char *t = l->loc.src->text, *end = t + l->loc.src->len;
	const char *p = t + l->loc.off;
	while (p < end && *p != '=' && *p != '\n')
		p++;
	if (p == end || *p != '=') {
		source_text(l->expr->loc, b, max);
		return;
	}
	p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	const char *q = p;
	while (q < end && *q != '\n' && *q != '#')
		q++;
	while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\\'))
		q--;
	if (q - p > 9 && !memcmp(q - 9, " nodefine", 9)) /* the let's flag, not its value */
		q -= 9;
	while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
		q--;
	struct gs_loc loc = l->loc;
	loc.off = (uint32_t)(p - t);
	loc.len = (uint32_t)(q - p);
	source_text(loc, b, max);
}

static void print_values(const struct gs_param *pa, struct gs_buf *b, size_t max)
{
	gs_buf_putc(b, '[');
	size_t start = b->len;
	for (size_t i = 0; i < pa->nvals; i++) {
		struct gs_buf v = GS_BUF_INIT;
		gs_value_repr(&v, pa->vals[i]);
		if (b->len - start + v.len + 2 > max && i > 0) {
			gs_buf_printf(b, ", ... (%zu more)", pa->nvals - i);
			gs_buf_release(&v);
			break;
		}
		if (i)
			gs_buf_puts(b, ", ");
		gs_buf_put(b, v.p ? v.p : "", v.len);
		gs_buf_release(&v);
	}
	gs_buf_putc(b, ']');
}

static void print_duration(double s)
{
	if (s < 1e-3)
		printf("%.1f us", s * 1e6);
	else if (s < 1)
		printf("%.1f ms", s * 1e3);
	else
		printf("%.2f s", s);
}

static int print_space(const struct gs_space *sp, const char *path)
{
	printf("space       %s%s\n", path, sp->is_t1 ? " (T1)" : "");
	if (sp->kernel)
		printf("kernel      %s from %s\n", sp->kernel, sp->files[0].path);
	if (sp->nproblems) {
		printf("problem    ");
		for (size_t i = 0; i < sp->nproblems; i++) {
			struct gs_buf b = GS_BUF_INIT;
			gs_value_repr(&b, sp->problems[i].value);
			printf(" %s=%s%s", sp->problems[i].name, gs_buf_str(&b),
			       sp->problems[i].overridden ? " (--set)" : "");
			gs_buf_release(&b);
		}
		printf("%s\n", sp->emu ? "  (emulator sizes)" : "");
	}
	size_t w = 4;
	for (size_t i = 0; i < sp->nparams; i++)
		if (strlen(sp->params[i].name) > w)
			w = strlen(sp->params[i].name);
	printf("parameters  %zu\n", sp->nparams);
	for (size_t i = 0; i < sp->nparams; i++) {
		const struct gs_param *pa = &sp->params[i];
		struct gs_buf b = GS_BUF_INIT;
		print_values(pa, &b, 60);
		printf("  %-*s %6zu  %s", (int)w, pa->name, pa->nvals, gs_buf_str(&b));
		if (pa->option) {
			gs_buf_reset(&b);
			source_text(pa->option->loc, &b, 40);
			printf("  option %s", gs_buf_str(&b));
		}
		printf("\n");
		gs_buf_release(&b);
	}
	for (size_t i = 0; i < sp->nlets; i++) {
		struct gs_buf b = GS_BUF_INIT;
		let_text(&sp->lets[i], &b, 60);
		printf("%s %s = %s\n", i ? "           " : "lets       ", sp->lets[i].name,
		       gs_buf_str(&b));
		gs_buf_release(&b);
	}
	return 0;
}

/* Counting skips the parameters no constraint reads, and with them the lets
 * nothing but a launch or a define reads: evaluate every let of each valid
 * configuration, as list and run will, up to a bound that keeps check quick,
 * and say so when the bound was reached.  0, or -1 after recording where an
 * expression failed. */
#define LET_CHECK_MAX 100000

static int check_lets(const struct gs_space *sp, uint64_t valid, struct gs_diag *d)
{
	if (!sp->nlets || !valid)
		return 0;
	struct gs_enum e;
	uint64_t n = 0;
	int rc = gs_enum_init(&e, sp, 0, 1);
	while (rc >= 0 && n < LET_CHECK_MAX && (rc = gs_enum_next(&e)) > 0)
		n++;
	if (rc < 0)
		gs_enum_report(&e, d);
	else if (n < valid)
		printf("lets        evaluated for the first %llu of %llu valid configurations\n",
		       (unsigned long long)n, (unsigned long long)valid);
	gs_enum_release(&e);
	return rc < 0 ? -1 : 0;
}

int gs_cmd_check(int argc, char **argv)
{
	if (gs_wants_help("check", argc, argv))
		return GS_EXIT_OK;
	struct gs_space_args a;
	static const struct option opts[] = { GS_OPT_SET, GS_OPT_EMU, GS_OPT_T1_GRID,
					      { NULL, 0, NULL, 0 } };
	int c;
	gs_space_args_init(&a, argc);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		int r = gs_space_args_option(&a, "check", c, optarg);
		if (r == 0)
			r = (gs_option_error("check", c, argv), -1);
		if (r < 0) {
			gs_space_args_release(&a);
			return GS_EXIT_USAGE;
		}
	}
	if (gs_space_args_file(&a, "check", argc, argv) < 0) {
		gs_space_args_release(&a);
		return GS_EXIT_USAGE;
	}
	struct gs_space *sp = gs_load_space_or_report(&a);
	gs_space_args_release(&a);
	if (!sp)
		return GS_EXIT_ERRORS;
	print_space(sp, a.path);

	/* baseline position as value indices, for its enumeration index */
	size_t *limit = NULL;
	if (sp->baseline) {
		limit = gs_xmalloc((sp->nparams + 1) * sizeof(*limit));
		for (size_t k = 0; k < sp->nparams; k++)
			for (size_t j = 0; j < sp->params[k].nvals; j++)
				if (gs_value_eq(sp->params[k].vals[j], sp->baseline[sp->params[k].slot]) &&
				    sp->params[k].vals[j].t == sp->baseline[sp->params[k].slot].t)
					limit[k] = j;
	}
	struct gs_count cnt;
	memset(&cnt, 0, sizeof cnt);
	cnt.rejected = gs_xcalloc(sp->nrequires + 1, sizeof(uint64_t));
	struct gs_diag d = GS_DIAG_INIT;
	double t0 = gs_now();
	int rc = gs_enum_count(sp, limit, &cnt, &d);
	double dt = gs_now() - t0;
	int failed = -1, base_ok = rc == 0 ? gs_baseline_check(sp, &failed, &d) : 1;
	if (rc == 0) {
		printf("constraints %zu\n", sp->nrequires);
		for (size_t i = 0; i < sp->nrequires; i++) {
			const struct gs_require *r = &sp->requires[i];
			struct gs_buf b = GS_BUF_INIT;
			source_text(r->loc, &b, 50);
			unsigned line, col;
			gs_loc_linecol(r->loc, &line, &col);
			printf("  line %-4u %-50s  cut %llu\n", line, gs_buf_str(&b),
			       (unsigned long long)cnt.rejected[i]);
			gs_buf_release(&b);
		}
		if (cnt.cartesian_overflow)
			printf("cartesian   more than %llu\n", (unsigned long long)UINT64_MAX);
		else
			printf("cartesian   %llu\n", (unsigned long long)cnt.cartesian);
		printf("valid       %llu", (unsigned long long)cnt.valid);
		if (cnt.cartesian && !cnt.cartesian_overflow)
			printf(" (%.1f%%)", 100.0 * (double)cnt.valid / (double)cnt.cartesian);
		printf("\n");
		if (!sp->baseline_exprs) {
			if (sp->is_t1)
				printf("baseline    none (give every tuning parameter a `Default`: the defaults "
				       "are the baseline, a hand pick to compare with)\n");
			else
				printf("baseline    none (add `baseline NAME=VALUE, ...` to compare with a hand "
				       "pick)\n");
		} else {
			struct gs_buf b = GS_BUF_INIT;
			gs_config_describe(sp, sp->baseline, sp->nparams, " ", &b);
			if (cnt.limit_valid) {
				printf("baseline    %s: valid, index %llu\n", gs_buf_str(&b),
				       (unsigned long long)cnt.before);
			} else {
				unsigned line = 0, col;
				if (failed >= 0)
					gs_loc_linecol(sp->requires[failed].loc, &line, &col);
				printf("baseline    %s: INVALID (rejected by the constraint on line %u)\n",
				       gs_buf_str(&b), line);
			}
			gs_buf_release(&b);
		}
		gs_check_geometry(sp, cnt.limit_valid, &d);
		/* an invalid baseline is an error: `run` refuses it, since a
		 * sweep could not compare it with anything */
		if (base_ok <= 0)
			rc = -1;
		printf("counted in ");
		print_duration(dt);
		printf(" (%llu bindings visited)\n", (unsigned long long)cnt.visited);
		if (check_lets(sp, cnt.valid, &d) < 0)
			rc = -1;
		if (!gs_space_validates(sp))
			printf("reference   none: %s\n", GS_UNVALIDATED_TEXT);
		if (gs_check_arguments(sp, cnt.limit_valid ? (int64_t)cnt.before : -1, &d) < 0)
			rc = -1;
	}
	gs_diag_print(&d, stderr);
	gs_diag_release(&d);
	free(cnt.rejected);
	free(limit);
	gs_space_free(sp);
	return rc == 0 ? GS_EXIT_OK : GS_EXIT_ERRORS;
}
