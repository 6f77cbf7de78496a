/* devices.c — `gsearch devices`: the GPUs of this host and their limits,
 * the figures a space's constraints and the occupancy rules work from. */
#include "cmd/cmd.h"
#include "dev/dev.h"
#include "dev/emu.h"

#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

const char gs_help_devices[] =
	"usage: gsearch devices [--json]\n"
	"\n"
	"Lists the GPUs of this host as `--device` names them (cuda:0, cuda:1, ...)\n"
	"with their compute capability, multiprocessors, memory, clocks, L2 cache\n"
	"and the limits occupancy depends on: threads per block and per SM, blocks\n"
	"per SM, registers per SM, shared memory per SM and per block (the default\n"
	"and the opt-in maximum).  Without an NVIDIA driver or without a GPU it\n"
	"says which, and exits 0.  Then the emulated devices (`--device emu:NAME`),\n"
	"one per profile, with the same figures.\n"
	"\n"
	"options:\n"
	"  --json      one JSON object: {\"driver\", \"cuda\", \"devices\": [...],\n"
	"              \"emulated\": [...]}, or {\"devices\": [], \"reason\": ..., \"emulated\":\n"
	"              [...]} when there is no GPU\n"
	"  -h, --help  this help\n";

/* "50 MiB", "228 KiB", "1000 B": exact, in the largest unit that divides. */
static void size_text(char *out, size_t n, long long bytes)
{
	if (bytes > 0 && bytes % (1024 * 1024) == 0)
		snprintf(out, n, "%lld MiB", bytes / (1024 * 1024));
	else if (bytes > 0 && bytes % 1024 == 0)
		snprintf(out, n, "%lld KiB", bytes / 1024);
	else
		snprintf(out, n, "%lld B", bytes);
}

enum { NCOLS = 15, CELL = 136 }; /* a name fits (gs_devinfo.name is 128) */

static const struct {
	const char *head;
	int right; /* numbers are right-aligned */
} cols[NCOLS] = {
	{ "device", 0 },   { "name", 0 },        { "cc", 0 },         { "SMs", 1 },
	{ "memory", 1 },   { "clock", 1 },       { "mem clock", 1 },  { "bus", 1 },
	{ "L2", 1 },       { "threads/block", 1 }, { "threads/SM", 1 }, { "blocks/SM", 1 },
	{ "regs/SM", 1 },  { "smem/SM", 1 },     { "smem/block", 1 },
};

static void row_cells(const struct gs_devinfo *d, char cell[NCOLS][CELL])
{
	char a[32], b[32];

	snprintf(cell[0], CELL, "cuda:%d", d->ordinal);
	snprintf(cell[1], CELL, "%s", d->name);
	snprintf(cell[2], CELL, "%d.%d", d->cc_major, d->cc_minor);
	snprintf(cell[3], CELL, "%d", d->sms);
	snprintf(cell[4], CELL, "%.1f GiB", (double)d->mem_bytes / (1024.0 * 1024 * 1024));
	snprintf(cell[5], CELL, "%d MHz", d->clock_mhz);
	snprintf(cell[6], CELL, "%d MHz", d->mem_clock_mhz);
	snprintf(cell[7], CELL, "%d-bit", d->mem_bus_bits);
	size_text(cell[8], CELL, d->l2_bytes);

	snprintf(cell[9], CELL, "%d", d->max_threads_block);
	snprintf(cell[10], CELL, "%d", d->max_threads_sm);
	snprintf(cell[11], CELL, "%d", d->max_blocks_sm);
	snprintf(cell[12], CELL, "%d", d->regs_sm);
	size_text(cell[13], CELL, d->smem_sm);
	size_text(a, sizeof a, d->smem_block);
	size_text(b, sizeof b, d->smem_block_optin);
	snprintf(cell[14], CELL, "%s (%s opt-in)", a, b);
}

static void print_table(const struct gs_devinfo *devs, int n)
{
	char(*cells)[NCOLS][CELL] = gs_xcalloc((size_t)n + 1, sizeof *cells);
	int width[NCOLS];

	for (int c = 0; c < NCOLS; c++) {
		snprintf(cells[0][c], CELL, "%s", cols[c].head);
		width[c] = (int)strlen(cols[c].head);
	}
	for (int i = 0; i < n; i++) {
		row_cells(&devs[i], cells[i + 1]);
		for (int c = 0; c < NCOLS; c++)
			if ((int)strlen(cells[i + 1][c]) > width[c])
				width[c] = (int)strlen(cells[i + 1][c]);
	}
	for (int i = 0; i <= n; i++) {
		for (int c = 0; c < NCOLS; c++) {
			int last = c == NCOLS - 1;

			if (cols[c].right)
				printf("%*s", width[c], cells[i][c]);
			else
				printf("%-*s", last ? 0 : width[c], cells[i][c]);
			fputs(last ? "\n" : "  ", stdout);
		}
	}
	free(cells);
}

/* The emulated devices: their profiles' figures, in 100 columns. */
static void print_emu_table(void)
{
	printf("%-10s %-17s %4s %4s %9s %10s %8s %8s %7s %8s %8s\n", "device", "GPU", "cc", "SMs",
	       "clock", "DRAM", "thr/blk", "thr/SM", "blk/SM", "regs/SM", "smem/SM");
	for (int i = 0; gs_emu_profiles[i]; i++) {
		const struct gs_emu_profile *p = gs_emu_profiles[i];
		char dev[48], cc[16], clk[32], bw[32], smem[32];
		snprintf(dev, sizeof dev, "emu:%s", p->name);
		snprintf(cc, sizeof cc, "%d.%d", p->cc_major, p->cc_minor);
		snprintf(clk, sizeof clk, "%.0f MHz", p->clock_mhz);
		snprintf(bw, sizeof bw, "%.0f GB/s", p->mem_bw_gbs);
		size_text(smem, sizeof smem, p->smem_sm);
		printf("%-10s %-17.17s %4s %4d %9s %10s %8d %8d %7d %8d %8s\n", dev, p->gpu, cc, p->sms,
		       clk, bw, p->max_threads_block, p->max_threads_sm, p->max_blocks_sm, p->regs_sm,
		       smem);
	}
	/* what a modeled time rests on: profiles/README.md */
	putchar('\n');
	for (int i = 0; gs_emu_profiles[i]; i++) {
		char src[256];
		gs_emu_profile_sources(gs_emu_profiles[i], src, sizeof src);
		printf("%s\n", src);
	}
}

static json_t *device_json(const struct gs_devinfo *d)
{
	char cc[16], name[48];

	snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
	if (!strcmp(d->driver, "emu"))
		snprintf(name, sizeof name, "emu:%s", gs_emu_profiles[d->ordinal]->name);
	else
		snprintf(name, sizeof name, "cuda:%d", d->ordinal);
	return json_pack("{s:s, s:i, s:s, s:s, s:i, s:i, s:i, s:I, s:s, s:i, s:i, s:i, s:i, s:i, "
			 "s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i}",
			 "device", name, "ordinal", d->ordinal, "name", d->name,
			 "cc", cc, "cc_major", d->cc_major, "cc_minor", d->cc_minor, "sms", d->sms,
			 "mem_bytes", (json_int_t)d->mem_bytes, "pci_bus_id", d->pci_bus_id,
			 "clock_mhz", d->clock_mhz, "mem_clock_mhz", d->mem_clock_mhz,
			 "mem_bus_bits", d->mem_bus_bits, "l2_bytes", d->l2_bytes, "warp_size",
			 d->warp_size, "max_threads_block", d->max_threads_block, "max_threads_sm",
			 d->max_threads_sm, "max_blocks_sm", d->max_blocks_sm, "regs_sm", d->regs_sm,
			 "regs_block", d->regs_block, "smem_sm", d->smem_sm, "smem_block",
			 d->smem_block, "smem_block_optin", d->smem_block_optin,
			 "smem_reserved_block", d->smem_reserved_block);
}

static int print_json(const struct gs_devinfo *devs, int n, const char *reason)
{
	json_t *root = json_object(), *arr = json_array();
	char *text;

	if (n > 0) {
		json_object_set_new(root, "driver", json_string(devs[0].driver));
		json_object_set_new(root, "cuda", json_string(devs[0].cuda_version));
	}
	for (int i = 0; i < n; i++) {
		json_t *d = device_json(&devs[i]);

		if (!d)
			gs_oom(); /* json_pack fails only for memory, the format is fixed */
		json_array_append_new(arr, d);
	}
	json_object_set_new(root, "devices", arr);
	if (reason)
		json_object_set_new(root, "reason", json_string(reason));
	json_t *ea = json_array();
	for (int i = 0; gs_emu_profiles[i]; i++) {
		struct gs_devinfo info;
		gs_dev_emu.info(i, &info, NULL, 0);
		json_t *d = device_json(&info);
		if (!d)
			gs_oom();
		const struct gs_emu_profile *p = gs_emu_profiles[i];
		const int *n = p->by_source;
		json_object_set_new(d, "facts",
				    json_pack("{s:i, s:i, s:i, s:i, s:i}", "total", p->facts,
					      "measured", n[GS_EMU_SRC_MEASURED], "datasheet",
					      n[GS_EMU_SRC_DATASHEET], "estimated",
					      n[GS_EMU_SRC_ESTIMATE], "none", n[GS_EMU_SRC_NONE]));
		json_array_append_new(ea, d);
	}
	json_object_set_new(root, "emulated", ea);
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!text)
		gs_oom();
	puts(text);
	free(text);
	return GS_EXIT_OK;
}

static int devices(int argc, char **argv);

/* The devices, and then every profile file that could not be used: the
 * listing is what a user reads to see which profiles there are. */
int gs_cmd_devices(int argc, char **argv)
{
	int rc = devices(argc, argv);
	const char *errs = gs_emu_profile_errors();
	if (rc == GS_EXIT_OK && *errs) {
		for (const char *l = errs; *l;) {
			const char *e = strchr(l, '\n');
			fprintf(stderr, "gsearch: error: %.*s\n", (int)(e - l), l);
			l = e + 1;
		}
		rc = GS_EXIT_USAGE;
	}
	return rc;
}

static int devices(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct gs_devinfo *devs;
	char err[512];
	int c, n, json = 0;

	if (gs_wants_help("devices", argc, argv))
		return GS_EXIT_OK;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		if (c == 'j')
			json = 1;
		else
			return gs_option_error("devices", c, argv);
	}
	if (optind < argc)
		return gs_usage_error("devices", "unexpected argument '%s'", argv[optind]);

	n = gs_dev_cuda.count(err, sizeof err);
	if (n < 0) {
		fprintf(stderr, "gsearch: error: %s\n", err);
		return GS_EXIT_ERRORS;
	}
	if (n == 0) {
		if (json) {
			print_json(NULL, 0, err);
		} else {
			printf("%s\n\nemulated devices (--device emu:NAME; emu alone is emu:sm_90):\n", err);
			print_emu_table();
		}
		return GS_EXIT_OK;
	}
	devs = gs_xcalloc((size_t)n, sizeof *devs);
	for (int i = 0; i < n; i++) {
		if (gs_dev_cuda.info(i, &devs[i], err, sizeof err) < 0) {
			fprintf(stderr, "gsearch: error: %s\n", err);
			free(devs);
			return GS_EXIT_ERRORS;
		}
	}
	if (json) {
		print_json(devs, n, NULL);
	} else {
		/* Without NVML the driver's own version is unknown: driver == cuda. */
		if (strcmp(devs[0].driver, devs[0].cuda_version))
			printf("driver %s (CUDA %s), %d GPU%s\n", devs[0].driver,
			       devs[0].cuda_version, n, n == 1 ? "" : "s");
		else
			printf("driver for CUDA %s, %d GPU%s\n", devs[0].cuda_version, n,
			       n == 1 ? "" : "s");
		print_table(devs, n);
		printf("\nemulated devices (--device emu:NAME; emu alone is emu:sm_90):\n");
		print_emu_table();
	}
	free(devs);
	return GS_EXIT_OK;
}
