/* list.c — `gsearch list`: the valid configurations, one a line. */
#include "cmd/cmd.h"
#include "space/enum.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const char gs_help_list[] =
	"usage: gsearch list [--csv] [--limit N] [--shard I/N] [--set NAME=VALUE]... [--emu] SPACE\n"
	"\n"
	"Prints the valid configurations of SPACE in enumeration order: the index\n"
	"among valid configurations, then NAME=VALUE for each parameter; the\n"
	"baseline is marked.  Order: parameters in declaration order, the last one\n"
	"varying fastest, values as written (Python's itertools.product order).\n"
	"\n"
	"options:\n"
	"  --csv             CSV with a header row: index,PARAM1,PARAM2,...\n"
	"  --limit N         stop after N configurations\n"
	"  --shard I/N       only shard I of N (configurations whose index is I mod N);\n"
	"                    default from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT\n"
	"  --set NAME=VALUE  override a problem constant (repeatable)\n"
	"  --emu             use the problems' emulator sizes\n"
	GS_HELP_T1_GRID
	"  -h, --help        this help\n";

/* The text of a parameter's last value: in enumeration order only the last
 * parameters change from one configuration to the next, so most fields are
 * copies of what the line above printed. */
struct field_cache {
	struct gs_value v;
	int valid;
	struct gs_buf text;
};

static int same_scalar(struct gs_value a, struct gs_value b)
{
	if (a.t != b.t)
		return 0;
	switch (a.t) {
	case GS_V_BOOL:
	case GS_V_INT: return a.i == b.i;
	case GS_V_FLOAT: return !memcmp(&a.f, &b.f, sizeof a.f);
	default: return 0; /* a string may be freed and its address reused */
	}
}

/* NAME=repr, or the CSV field. */
static void put_field(struct gs_buf *out, struct field_cache *c, const char *name,
		      struct gs_value v, int csv)
{
	if (c->valid && same_scalar(c->v, v)) {
		gs_buf_put(out, c->text.p, c->text.len);
		return;
	}
	size_t from = out->len;
	if (csv) {
		gs_value_str(out, v);
		gs_buf_csv_quote(out, from);
	} else {
		gs_buf_puts(out, name);
		gs_buf_putc(out, '=');
		gs_value_repr(out, v);
	}
	gs_buf_reset(&c->text);
	gs_buf_put(&c->text, out->p + from, out->len - from);
	c->v = v;
	c->valid = 1;
}

int gs_cmd_list(int argc, char **argv)
{
	if (gs_wants_help("list", argc, argv))
		return GS_EXIT_OK;
	struct gs_space_args a;
	int csv = 0;
	uint64_t limit = UINT64_MAX;
	static const struct option opts[] = {
		GS_OPT_SET, GS_OPT_EMU, GS_OPT_SHARD, GS_OPT_T1_GRID, { "csv", no_argument, NULL, 'c' },
		{ "limit", required_argument, NULL, 'l' }, { NULL, 0, NULL, 0 },
	};
	int c;
	gs_space_args_init(&a, argc);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		int r = gs_space_args_option(&a, "list", c, optarg);
		char *end;
		if (r == 0 && c == 'c') {
			csv = 1;
			r = 1;
		} else if (r == 0 && c == 'l') {
			errno = 0;
			limit = strtoull(optarg, &end, 10);
			r = 1;
			if (end == optarg || *end || errno || optarg[0] == '-')
				r = (gs_usage_error("list", "--limit needs a number, not '%s'", optarg), -1);
		} else if (r == 0) {
			r = (gs_option_error("list", c, argv), -1);
		}
		if (r < 0) {
			gs_space_args_release(&a);
			return GS_EXIT_USAGE;
		}
	}
	if (gs_space_args_file(&a, "list", argc, argv) < 0) {
		gs_space_args_release(&a);
		return GS_EXIT_USAGE;
	}
	struct gs_space *sp = gs_shard_from_env(&a) < 0 ? NULL : gs_load_space_or_report(&a);
	gs_space_args_release(&a);
	if (!sp)
		return GS_EXIT_ERRORS;
	struct gs_buf out = GS_BUF_INIT;
	if (csv) {
		gs_buf_puts(&out, "index");
		for (size_t i = 0; i < sp->nparams; i++) {
			gs_buf_putc(&out, ',');
			gs_buf_puts(&out, sp->params[i].name);
		}
		gs_buf_putc(&out, '\n');
	}
	struct field_cache *cache = gs_xcalloc(sp->nparams + 1, sizeof(*cache));
	struct gs_enum e;
	int rc = gs_enum_init(&e, sp, a.shard_i, a.shard_n);
	uint64_t n = 0;
	while (rc >= 0 && n < limit && (rc = gs_enum_next(&e)) > 0) {
		n++;
		int base = sp->baseline != NULL;
		for (size_t k = 0; base && k < sp->nparams; k++)
			base = gs_value_eq(e.env[sp->params[k].slot], sp->baseline[sp->params[k].slot]);
		if (csv) {
			gs_buf_put_int(&out, (int64_t)e.index);
			for (size_t k = 0; k < sp->nparams; k++) {
				gs_buf_putc(&out, ',');
				put_field(&out, &cache[k], sp->params[k].name,
					  e.env[sp->params[k].slot], 1);
			}
		} else {
			/* as gs_config_describe prints it */
			gs_buf_put_int(&out, (int64_t)e.index);
			gs_buf_putc(&out, ' ');
			for (size_t k = 0; k < sp->nparams; k++) {
				gs_buf_putc(&out, ' ');
				put_field(&out, &cache[k], sp->params[k].name,
					  e.env[sp->params[k].slot], 0);
			}
			if (base)
				gs_buf_puts(&out, "  (baseline)");
		}
		gs_buf_putc(&out, '\n');
		if (out.len > 1 << 16) {
			fwrite(out.p, 1, out.len, stdout);
			gs_buf_reset(&out);
		}
	}
	if (out.len)
		fwrite(out.p, 1, out.len, stdout);
	gs_buf_release(&out);
	for (size_t k = 0; k < sp->nparams; k++)
		gs_buf_release(&cache[k].text);
	free(cache);
	int status = GS_EXIT_OK;
	if (rc < 0) {
		fflush(stdout);
		struct gs_diag d = GS_DIAG_INIT;
		gs_enum_report(&e, &d);
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		status = GS_EXIT_ERRORS;
	}
	gs_enum_release(&e);
	gs_space_free(sp);
	return status;
}
