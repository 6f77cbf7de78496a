/* occupancy.c — `gsearch occupancy`: resident blocks per SM of one block
 * shape on an emulated device, by that device's allocation rules, with each
 * limit on its own so that a register or shared-memory cliff shows. */
#include "cmd/cmd.h"
#include "dev/emu.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char gs_help_occupancy[] =
	"usage: gsearch occupancy [--device emu[:PROFILE]] --block X[,Y[,Z]] --regs N\n"
	"                         [--smem BYTES] [--json]\n"
	"\n"
	"Resident blocks per SM, active threads and warps, and the occupancy of\n"
	"one block shape on an emulated device, by the rules of that device: the\n"
	"CUDA occupancy calculator's for g80 (compute capability 1.0) and gf100\n"
	"(2.0), the CUDA toolkit's cuda_occupancy.h for sm_80 and sm_90.  Prints\n"
	"each limit on its own (warp slots, block slots, registers, shared memory)\n"
	"and marks the ones that bind.  Exit status 1 when the block cannot run\n"
	"on the device at all.\n"
	"\n"
	"options:\n"
	"  --device D        emu:g80, emu:gf100, emu:sm_80 or emu:sm_90; emu alone\n"
	"                    is emu:sm_90 (the default)\n"
	"  --block X[,Y,Z]   threads per block, or its dimensions (16,16 or 16x16)\n"
	"  --regs N          registers per thread\n"
	"  --smem BYTES      shared memory per block, static and dynamic (default 0)\n"
	"  --json            one JSON object\n"
	"  -h, --help        this help\n";

/* A non-negative int, all of s; -1 otherwise. */
static long parse_count(const char *s)
{
	char *end;
	long v;

	errno = 0;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	v = strtol(s, &end, 10);
	if (errno || *end || v > INT_MAX)
		return -1;
	return v;
}

/* "256", "16,16", "16x16x2": the product, or -1. */
static long parse_block(const char *s)
{
	char buf[64], *save = NULL;
	long prod = 1;
	int dims = 0;

	if (strlen(s) >= sizeof buf)
		return -1;
	snprintf(buf, sizeof buf, "%s", s);
	if (strchr(",x", buf[0]) || strchr(",x", buf[strlen(buf) - 1]) || strstr(buf, ",,") ||
	    strstr(buf, "xx"))
		return -1;
	for (char *t = strtok_r(buf, ",x", &save); t; t = strtok_r(NULL, ",x", &save)) {
		long v = parse_count(t);

		if (v <= 0 || ++dims > 3 || prod > INT_MAX / v)
			return -1;
		prod *= v;
	}
	return dims ? prod : -1;
}

/* The profile named by "emu" or "emu:NAME"; NULL after an error that lists
 * the profiles and, for a near miss, suggests one. */
static const struct gs_emu_profile *find_device(const char *d)
{
	const struct gs_emu_profile *p = NULL;
	const char *name = NULL, *best = NULL;
	char lower[64];
	size_t bestd = 3, i;
	struct gs_buf b = GS_BUF_INIT;

	if (!strcmp(d, "emu"))
		name = "sm_90";
	else if (!strncmp(d, "emu:", 4))
		name = d + 4;
	if (name && (p = gs_emu_profile_find(name)))
		return p;
	/* profile names are lower case: compare the guess in lower case */
	for (i = 0; i + 1 < sizeof lower && (name ? name : d)[i]; i++)
		lower[i] = (char)tolower((unsigned char)(name ? name : d)[i]);
	lower[i] = '\0';
	for (int k = 0; gs_emu_profiles[k]; k++) {
		const char *cand = gs_emu_profiles[k]->name;
		size_t dist = gs_edit_distance(lower, cand, 2);

		if (dist < bestd) {
			bestd = dist;
			best = cand;
		}
		gs_buf_printf(&b, "%semu:%s", k ? ", " : "", cand);
	}
	fprintf(stderr, "gsearch: error: unknown device '%s'", d);
	if (best)
		fprintf(stderr, "; did you mean 'emu:%s'?", best);
	fprintf(stderr, "\n  the emulated devices are %s\n", gs_buf_str(&b));
	if (!strncmp(d, "cuda", 4))
		fputs("  (occupancy follows the rules of the emulated devices; for a GPU of\n"
		      "  this host, `gsearch devices` lists its limits)\n",
		      stderr);
	gs_buf_release(&b);
	return NULL;
}

static const struct {
	int bit;
	const char *name;
} limits[] = {
	{ GS_EMU_LIM_THREADS, "threads" },
	{ GS_EMU_LIM_BLOCKS, "blocks" },
	{ GS_EMU_LIM_REGS, "registers" },
	{ GS_EMU_LIM_SMEM, "smem" },
};

static int limit_of(const struct gs_emu_occ *o, int i)
{
	const int v[] = { o->by_threads, o->by_blocks, o->by_regs, o->by_smem };
	return v[i];
}

/* Where each limit comes from, in a few words. */
static void limit_text(const struct gs_emu_profile *p, const struct gs_emu_occ *o, int regs,
		       int i, char *out, size_t n)
{
	switch (i) {
	case 0:
		snprintf(out, n, "%d warp slots, %d warp%s per block", p->max_warps_sm,
			 o->block_warps, o->block_warps == 1 ? "" : "s");
		break;
	case 1:
		snprintf(out, n, "%d block slots", p->max_blocks_sm);
		break;
	case 2:
		if (regs <= 0)
			snprintf(out, n, "no registers");
		else
			snprintf(out, n, "%d registers, %d per block (%d-register granules per %s)",
				 p->regs_sm, o->block_regs, p->reg_alloc_unit,
				 p->reg_alloc_by_block ? "block" : "warp");
		break;
	default:
		if (o->block_smem == 0)
			snprintf(out, n, "no shared memory");
		else if (p->smem_reserved_block)
			snprintf(out, n, "%d bytes, %d per block (%d reserved, %d-byte granules)",
				 p->smem_sm, o->block_smem, p->smem_reserved_block,
				 p->smem_alloc_unit);
		else
			snprintf(out, n, "%d bytes, %d per block (%d-byte granules)", p->smem_sm,
				 o->block_smem, p->smem_alloc_unit);
	}
}

static void print_text(const struct gs_emu_profile *p, const struct gs_emu_occ *o, int threads,
		       int regs, int smem)
{
	char text[160], count[16];

	printf("emu:%s: %s, compute capability %d.%d\n", p->name, p->gpu, p->cc_major,
	       p->cc_minor);
	printf("block: %d thread%s (%d warp%s), %d register%s per thread, %d bytes of shared "
	       "memory\n\n",
	       threads, threads == 1 ? "" : "s", o->block_warps, o->block_warps == 1 ? "" : "s",
	       regs, regs == 1 ? "" : "s", smem);
	printf("blocks per SM   %d (limited by %s)\n", o->blocks_per_sm, o->limiter);
	printf("active threads  %d of %d\n", o->active_threads, p->max_threads_sm);
	printf("active warps    %d of %d\n", o->active_warps, p->max_warps_sm);
	printf("occupancy       %.1f%%\n\n", 100.0 * o->occupancy);
	printf("blocks per SM by each limit (* binds):\n");
	for (int i = 0; i < 4; i++) {
		int v = limit_of(o, i);

		if (v == GS_EMU_OCC_NOLIMIT)
			snprintf(count, sizeof count, "-");
		else
			snprintf(count, sizeof count, "%d", v);
		limit_text(p, o, regs, i, text, sizeof text);
		printf("%c %-9s %5s  %s\n", (o->limiters & limits[i].bit) ? '*' : ' ',
		       limits[i].name, count, text);
	}
}

static json_t *limit_json(int v)
{
	return v == GS_EMU_OCC_NOLIMIT ? json_null() : json_integer(v);
}

static void print_json(const struct gs_emu_profile *p, const struct gs_emu_occ *o, int threads,
		       int regs, int smem, const char *why)
{
	json_t *root = json_object();
	char dev[64], cc[16], *text;

	snprintf(dev, sizeof dev, "emu:%s", p->name);
	snprintf(cc, sizeof cc, "%d.%d", p->cc_major, p->cc_minor);
	json_object_set_new(root, "device", json_string(dev));
	json_object_set_new(root, "gpu", json_string(p->gpu));
	json_object_set_new(root, "cc", json_string(cc));
	json_object_set_new(root, "block_threads", json_integer(threads));
	json_object_set_new(root, "regs_per_thread", json_integer(regs));
	json_object_set_new(root, "smem_per_block", json_integer(smem));
	json_object_set_new(root, "blocks_per_sm", json_integer(o->blocks_per_sm));
	if (why) {
		json_object_set_new(root, "reason", json_string(why));
	} else {
		json_t *lim = json_object(), *binding = json_array();

		json_object_set_new(root, "active_threads", json_integer(o->active_threads));
		json_object_set_new(root, "active_warps", json_integer(o->active_warps));
		json_object_set_new(root, "max_warps_sm", json_integer(p->max_warps_sm));
		json_object_set_new(root, "occupancy", json_real(o->occupancy));
		json_object_set_new(root, "limiter", json_string(o->limiter));
		for (int i = 0; i < 4; i++) {
			json_object_set_new(lim, limits[i].name, limit_json(limit_of(o, i)));
			if (o->limiters & limits[i].bit)
				json_array_append_new(binding, json_string(limits[i].name));
		}
		json_object_set_new(root, "limiters", binding);
		json_object_set_new(root, "limits", lim);
		json_object_set_new(root, "block_warps", json_integer(o->block_warps));
		json_object_set_new(root, "block_regs", json_integer(o->block_regs));
		json_object_set_new(root, "block_smem", json_integer(o->block_smem));
	}
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	json_decref(root);
	if (!text)
		gs_oom();
	puts(text);
	free(text);
}

int gs_cmd_occupancy(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "block", required_argument, NULL, 'b' },
		{ "regs", required_argument, NULL, 'r' },
		{ "smem", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	const char *device = "emu";
	long threads = -1, regs = -1, smem = 0;
	const struct gs_emu_profile *p;
	struct gs_emu_occ o;
	char why[256];
	int c, json = 0;

	if (gs_wants_help("occupancy", argc, argv))
		return GS_EXIT_OK;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			device = optarg;
			break;
		case 'b':
			if ((threads = parse_block(optarg)) < 0)
				return gs_usage_error("occupancy", "--block needs a positive "
						      "count or X,Y[,Z], not '%s'", optarg);
			break;
		case 'r':
			if ((regs = parse_count(optarg)) < 0)
				return gs_usage_error("occupancy", "--regs needs a count of "
						      "registers, not '%s'", optarg);
			break;
		case 's':
			if ((smem = parse_count(optarg)) < 0)
				return gs_usage_error("occupancy", "--smem needs a size in "
						      "bytes, not '%s'", optarg);
			break;
		case 'j':
			json = 1;
			break;
		default:
			return gs_option_error("occupancy", c, argv);
		}
	}
	if (optind < argc)
		return gs_usage_error("occupancy", "unexpected argument '%s'", argv[optind]);
	if (threads < 0)
		return gs_usage_error("occupancy", "--block is required");
	if (regs < 0)
		return gs_usage_error("occupancy", "--regs is required");
	const char *pname = !strcmp(device, "emu") ? "sm_90"
			    : !strncmp(device, "emu:", 4) ? device + 4 : NULL;
	const char *bad = pname ? gs_emu_profile_error(pname) : NULL;
	if (bad) {
		fprintf(stderr, "gsearch: error: %s\n", bad);
		return GS_EXIT_USAGE;
	}
	if (!(p = find_device(device)))
		return GS_EXIT_ERRORS;

	if (gs_emu_occupancy(p, (int)threads, (int)regs, (int)smem, &o, why, sizeof why) < 0) {
		if (json)
			print_json(p, &o, (int)threads, (int)regs, (int)smem, why);
		else
			fprintf(stderr, "gsearch: error: emu:%s: %s\n", p->name, why);
		return GS_EXIT_ERRORS;
	}
	if (json)
		print_json(p, &o, (int)threads, (int)regs, (int)smem, NULL);
	else
		print_text(p, &o, (int)threads, (int)regs, (int)smem);
	return GS_EXIT_OK;
}
