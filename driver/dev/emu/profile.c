/* profile.c — the emulated devices' profiles: text files of `key = value`
 * lines (profiles/NAME.profile, described in profiles/README.md), parsed here.
 *
 * The files are data, not code, so that a user can read where every figure
 * comes from and add a GPU without a compiler.  The bundled ones are also
 * compiled in (profiles_embed.c), so that a lone build/gsearch works; a
 * file found on disk takes precedence over its compiled-in copy, and one
 * that fails a check is an error, never silently replaced by that copy.
 * Each key's line may name its figure's source (a tag in its comment),
 * which is counted, and the parsed figures' canonical text is hashed into
 * the identity of what the profile models (sched/ident.c, cmd/run.c). */
#define _GNU_SOURCE
#include "dev/emu.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* profiles_embed.c: the bundled files' texts, NULL-terminated */
extern const char *const gs_emu_embedded_profiles[];

enum ftype { F_STR, F_INT, F_DBL, F_CC, F_MODEL, F_COALESCE };

/* field flags */
enum {
	REQ = 1,  /* every profile gives it */
	FACT = 2, /* a fact about the GPU, counted by where it comes from (not a setting
		   * of the emulator such as sample_blocks, nor a name) */
	POS = 4,  /* a number above 0: a divisor, or a cost no GPU has for free */
};

#define OFF(f) offsetof(struct gs_emu_profile, f)
#define SZ(f) sizeof(((struct gs_emu_profile *)0)->f)
/* lo and hi bound a number (an integer's or a real's): wide enough for any
 * GPU, narrow enough that no figure can overflow the occupancy and model
 * arithmetic, and lo > 0 (or POS) wherever the model divides by it. */
static const struct field {
	const char *key;
	enum ftype t;
	size_t off, size;
	int flags;
	double lo, hi;
} fields[] = {
	{ "name", F_STR, OFF(name), SZ(name), REQ, 0, 0 },
	{ "gpu", F_STR, OFF(gpu), SZ(gpu), REQ, 0, 0 },
	{ "cc", F_CC, 0, 0, REQ | FACT, 0, 0 },
	{ "arch", F_STR, OFF(arch), SZ(arch), REQ, 0, 0 },
	{ "model", F_MODEL, 0, 0, REQ, 0, 0 },
	{ "sample_blocks", F_INT, OFF(sample_blocks), 0, 0, 0, 1 << 20 },
	{ "sample_warps", F_INT, OFF(sample_warps), 0, 0, 0, 1 << 24 },
	{ "sms", F_INT, OFF(sms), 0, REQ | FACT, 1, 4096 },
	{ "clock_mhz", F_DBL, OFF(clock_mhz), 0, REQ | FACT | POS, 0, 1e5 },
	{ "mem_bw_gbs", F_DBL, OFF(mem_bw_gbs), 0, REQ | FACT | POS, 0, 1e6 },
	{ "dram_bw_gbs", F_DBL, OFF(dram_bw_gbs), 0, FACT, 0, 1e6 },
	{ "global_mem_mb", F_INT, OFF(global_mem_mb), 0, FACT, 0, 1 << 24 },
	{ "dram_servers", F_INT, OFF(dram_servers), 0, FACT, 0, 4096 },
	{ "dram_spread.p5", F_DBL, OFF(dram_spread[0]), 0, FACT, 0, 100 },
	{ "dram_spread.p10", F_DBL, OFF(dram_spread[1]), 0, FACT, 0, 100 },
	{ "dram_spread.p25", F_DBL, OFF(dram_spread[2]), 0, FACT, 0, 100 },
	{ "dram_spread.p50", F_DBL, OFF(dram_spread[3]), 0, FACT, 0, 100 },
	{ "dram_spread.p75", F_DBL, OFF(dram_spread[4]), 0, FACT, 0, 100 },
	{ "dram_spread.p90", F_DBL, OFF(dram_spread[5]), 0, FACT, 0, 100 },
	{ "dram_spread.p95", F_DBL, OFF(dram_spread[6]), 0, FACT, 0, 100 },
	{ "dram_spread.p99", F_DBL, OFF(dram_spread[7]), 0, FACT, 0, 100 },
	{ "warp_size", F_INT, OFF(warp_size), 0, REQ | FACT, 32, 32 },
	{ "max_threads_block", F_INT, OFF(max_threads_block), 0, REQ | FACT, 1, 1 << 16 },
	{ "max_threads_sm", F_INT, OFF(max_threads_sm), 0, REQ | FACT, 1, 1 << 16 },
	{ "max_blocks_sm", F_INT, OFF(max_blocks_sm), 0, REQ | FACT, 1, 4096 },
	{ "max_warps_sm", F_INT, OFF(max_warps_sm), 0, REQ | FACT, 1, 2048 },
	{ "regs_sm", F_INT, OFF(regs_sm), 0, REQ | FACT, 1, 1 << 24 },
	{ "regs_block", F_INT, OFF(regs_block), 0, REQ | FACT, 1, 1 << 24 },
	{ "max_regs_thread", F_INT, OFF(max_regs_thread), 0, REQ | FACT, 1, 1024 },
	{ "reg_alloc_unit", F_INT, OFF(reg_alloc_unit), 0, REQ | FACT, 1, 1 << 16 },
	{ "reg_alloc_by_block", F_INT, OFF(reg_alloc_by_block), 0, REQ | FACT, 0, 1 },
	{ "warp_alloc_gran", F_INT, OFF(warp_alloc_gran), 0, REQ | FACT, 1, 64 },
	{ "smem_sm", F_INT, OFF(smem_sm), 0, REQ | FACT, 0, 1 << 30 },
	{ "smem_block", F_INT, OFF(smem_block), 0, REQ | FACT, 0, 1 << 30 },
	{ "smem_alloc_unit", F_INT, OFF(smem_alloc_unit), 0, REQ | FACT, 1, 1 << 20 },
	{ "smem_reserved_block", F_INT, OFF(smem_reserved_block), 0, REQ | FACT, 0, 1 << 20 },
	{ "banks", F_INT, OFF(banks), 0, REQ | FACT, 1, 64 },
	{ "coalesce", F_COALESCE, 0, 0, REQ | FACT, 0, 0 },
	{ "mem_latency", F_DBL, OFF(mem_latency), 0, REQ | FACT | POS, 0, 1e6 },
	{ "departure_delay", F_DBL, OFF(departure_delay), 0, REQ | FACT | POS, 0, 1e6 },
	{ "departure_delay_uncoal", F_DBL, OFF(departure_delay_uncoal), 0, REQ | FACT | POS, 0,
	  1e6 },
	{ "issue.int", F_DBL, OFF(issue_cycles[GS_EMU_INT]), 0, REQ | FACT | POS, 0, 1e4 },
	{ "issue.fp32", F_DBL, OFF(issue_cycles[GS_EMU_FP32]), 0, REQ | FACT | POS, 0, 1e4 },
	{ "issue.fp64", F_DBL, OFF(issue_cycles[GS_EMU_FP64]), 0, REQ | FACT | POS, 0, 1e4 },
	{ "issue.sfu", F_DBL, OFF(issue_cycles[GS_EMU_SFU]), 0, REQ | FACT | POS, 0, 1e4 },
	{ "issue.mem", F_DBL, OFF(issue_cycles[GS_EMU_MEM]), 0, REQ | FACT | POS, 0, 1e4 },
	{ "issue.ctrl", F_DBL, OFF(issue_cycles[GS_EMU_CTRL]), 0, REQ | FACT | POS, 0, 1e4 },
	{ "issue.barrier", F_DBL, OFF(issue_cycles[GS_EMU_BARRIER]), 0, REQ | FACT | POS, 0, 1e4 },
	{ "issue.other", F_DBL, OFF(issue_cycles[GS_EMU_OTHER]), 0, REQ | FACT | POS, 0, 1e4 },
	{ "barrier_cycles", F_DBL, OFF(barrier_cycles), 0, REQ | FACT, 0, 1e6 },
	{ "launch_overhead_us", F_DBL, OFF(launch_overhead_us), 0, REQ | FACT, 0, 1e6 },
	{ "block_launch_cycles", F_DBL, OFF(block_launch_cycles), 0, FACT, 0, 1e6 },
	{ "warp_launch_cycles", F_DBL, OFF(warp_launch_cycles), 0, FACT, 0, 1e6 },
	{ "subpartitions", F_INT, OFF(subpartitions), 0, FACT, 0, 64 },
	{ "issue_per_sub", F_DBL, OFF(issue_per_sub), 0, FACT, 0, 64 },
	{ "int_fma_lanes", F_DBL, OFF(int_fma_lanes), 0, FACT, 0, 4096 },
	{ "lat.int", F_DBL, OFF(lat[GS_EMU_INT]), 0, FACT, 0, 1e6 },
	{ "lat.fp32", F_DBL, OFF(lat[GS_EMU_FP32]), 0, FACT, 0, 1e6 },
	{ "lat.fp64", F_DBL, OFF(lat[GS_EMU_FP64]), 0, FACT, 0, 1e6 },
	{ "lat.sfu", F_DBL, OFF(lat[GS_EMU_SFU]), 0, FACT, 0, 1e6 },
	{ "lat.smem", F_DBL, OFF(lat_smem), 0, FACT, 0, 1e6 },
	{ "lat.l1", F_DBL, OFF(lat_l1), 0, FACT, 0, 1e6 },
	{ "lat.l2", F_DBL, OFF(lat_l2), 0, FACT, 0, 1e6 },
	{ "lat.idiv32", F_DBL, OFF(lat_idiv32), 0, FACT, 0, 1e6 },
	{ "lat.idiv64", F_DBL, OFF(lat_idiv64), 0, FACT, 0, 1e6 },
	{ "l1_bytes", F_INT, OFF(l1_bytes), 0, FACT, 0, 1 << 30 },
	{ "l1_line", F_INT, OFF(l1_line), 0, FACT, 0, 1 << 16 },
	{ "l1_assoc", F_INT, OFF(l1_assoc), 0, FACT, 0, 1024 },
	{ "l1_bw", F_DBL, OFF(l1_bw), 0, FACT, 0, 1e6 },
	{ "l1_wave_cycles", F_DBL, OFF(l1_wave_cycles), 0, FACT, 0, 1e4 },
	{ "l1_wave_lines", F_DBL, OFF(l1_wave_lines), 0, FACT, 0, 1024 },
	{ "l1_split_cycles", F_DBL, OFF(l1_split_cycles), 0, FACT, 0, 1e4 },
	{ "l2_bytes", F_DBL, OFF(l2_bytes), 0, FACT, 0, 1e12 },
	{ "l2_bw_gbs", F_DBL, OFF(l2_bw_gbs), 0, FACT, 0, 1e7 },
	{ "fetch.l0_bytes", F_DBL, OFF(fetch_l0_bytes), 0, FACT, 0, 1e9 },
	{ "fetch.l1_bytes", F_DBL, OFF(fetch_l1_bytes), 0, FACT, 0, 1e9 },
	{ "fetch.bytes_per_ins", F_DBL, OFF(fetch_bytes_per_ins), 0, FACT, 0, 1024 },
	{ "fetch.l1.w1", F_DBL, OFF(fetch_l1[0]), 0, FACT, 0, 1e6 },
	{ "fetch.l1.w4", F_DBL, OFF(fetch_l1[1]), 0, FACT, 0, 1e6 },
	{ "fetch.l1.w8", F_DBL, OFF(fetch_l1[2]), 0, FACT, 0, 1e6 },
	{ "fetch.l1.w16", F_DBL, OFF(fetch_l1[3]), 0, FACT, 0, 1e6 },
	{ "fetch.l2.w1", F_DBL, OFF(fetch_l2[0]), 0, FACT, 0, 1e6 },
	{ "fetch.l2.w4", F_DBL, OFF(fetch_l2[1]), 0, FACT, 0, 1e6 },
	{ "fetch.l2.w8", F_DBL, OFF(fetch_l2[2]), 0, FACT, 0, 1e6 },
	{ "fetch.l2.w16", F_DBL, OFF(fetch_l2[3]), 0, FACT, 0, 1e6 },
	{ "const.w1", F_DBL, OFF(const_cycles[0]), 0, FACT, 0, 1e6 },
	{ "const.w2", F_DBL, OFF(const_cycles[1]), 0, FACT, 0, 1e6 },
	{ "const.w4", F_DBL, OFF(const_cycles[2]), 0, FACT, 0, 1e6 },
	{ "const.w8", F_DBL, OFF(const_cycles[3]), 0, FACT, 0, 1e6 },
	{ "const.w16", F_DBL, OFF(const_cycles[4]), 0, FACT, 0, 1e6 },
	{ "const.w32", F_DBL, OFF(const_cycles[5]), 0, FACT, 0, 1e6 },
	{ "lat.shfl", F_DBL, OFF(lat_shfl), 0, FACT, 0, 1e6 },
	{ "lat.bits", F_DBL, OFF(lat_bits), 0, FACT, 0, 1e6 },
	{ "shfl_cycles", F_DBL, OFF(shfl_cycles), 0, FACT, 0, 1e4 },
	{ "atom_sector_ns", F_DBL, OFF(atom_sector_ns), 0, FACT, 0, 1e6 },
	{ "phase_exposed", F_DBL, OFF(phase_exposed), 0, FACT, 0, 1 },
	{ "partial_write_ns", F_DBL, OFF(partial_write_ns), 0, FACT, 0, 1e3 },
	{ "partial_line1", F_DBL, OFF(partial_line1), 0, FACT, 0, 100 },
	{ "partial_line2", F_DBL, OFF(partial_line2), 0, FACT, 0, 100 },
	{ "local_st_ns", F_DBL, OFF(local_st_ns), 0, FACT, 0, 1e3 },
	{ "local_far_ns", F_DBL, OFF(local_far_ns), 0, FACT, 0, 1e3 },
};
#define NFIELDS (sizeof fields / sizeof fields[0])

/* what the interval model cannot do without */
static const char *const interval_keys[] = { "dram_bw_gbs", "subpartitions", "issue_per_sub",
					     "lat.int", "lat.fp32", "lat.smem", "lat.l1", "lat.l2",
					     "l1_bytes", "l1_line", "l1_assoc", "l1_bw",
					     "l2_bytes", "l2_bw_gbs" };

/* The source tags of a key's comment (profiles/README.md lists them): what
 * the tag says of where the figure comes from.  "(est." anywhere in the
 * comment makes it an estimate, whatever else the comment cites. */
static const struct tag {
	const char *tag;
	enum gs_emu_source src;
} tags[] = {
	{ "[H100]", GS_EMU_SRC_MEASURED }, { "[IC]", GS_EMU_SRC_MEASURED },
	{ "[CT]", GS_EMU_SRC_MEASURED }, { "[T2]", GS_EMU_SRC_MEASURED },
	{ "[L1]", GS_EMU_SRC_MEASURED },
	{ "[MEASURED]", GS_EMU_SRC_MEASURED },
	{ "[R08]", GS_EMU_SRC_DATASHEET }, { "[OCC]", GS_EMU_SRC_DATASHEET },
	{ "[CO]", GS_EMU_SRC_DATASHEET }, { "[PG]", GS_EMU_SRC_DATASHEET },
	{ "[HK]", GS_EMU_SRC_DATASHEET }, { "[SPEC]", GS_EMU_SRC_DATASHEET },
	{ "[DATASHEET]", GS_EMU_SRC_DATASHEET },
};

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

/* err gets "LINE: message", or " message" for the file as a whole (line 0) */
static int perr(char *err, size_t errlen, int line, const char *fmt, const char *a)
{
	int n = line > 0 ? snprintf(err, errlen, "%d: ", line) : snprintf(err, errlen, " ");
	if (n > 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, fmt, a);
	return -1;
}

/* The source a key's comment names; -1 after an unknown tag, named in bad. */
static int comment_source(const char *c, char *bad, size_t badlen)
{
	int src = GS_EMU_SRC_NONE;
	for (const char *o = strchr(c, '['); o; o = strchr(o + 1, '[')) {
		size_t n = strspn(o + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
		if (!n || o[1 + n] != ']' || o[1] < 'A' || o[1] > 'Z')
			continue; /* not a tag: "[4]", "a[i]" */
		size_t k;
		for (k = 0; k < sizeof tags / sizeof *tags; k++)
			if (strlen(tags[k].tag) == n + 2 && !strncmp(o, tags[k].tag, n + 2))
				break;
		if (k == sizeof tags / sizeof *tags) {
			snprintf(bad, badlen, "%.*s", (int)(n + 2), o);
			return -1;
		}
		if (src == GS_EMU_SRC_NONE || tags[k].src == GS_EMU_SRC_MEASURED)
			src = tags[k].src;
	}
	return strstr(c, "(est") ? GS_EMU_SRC_ESTIMATE : src;
}

/* a number's range, as the error message says it */
static void range_text(const struct field *f, char *out, size_t n)
{
	if ((f->flags & POS) && f->hi)
		snprintf(out, n, "above 0 and at most %.15g", f->hi);
	else
		snprintf(out, n, "%.15g to %.15g", f->lo, f->hi);
}

static int in_range(const struct field *f, double v)
{
	return v >= f->lo && v <= f->hi && (!(f->flags & POS) || v > 0);
}

char *gs_emu_profile_canon(const struct gs_emu_profile *p)
{
	struct gs_buf b = GS_BUF_INIT;
	for (size_t k = 0; k < NFIELDS; k++) {
		const struct field *f = &fields[k];
		const unsigned char *src = (const unsigned char *)p + f->off;
		/* a figure of 0 is the figure left out: a key that a later
		 * version adds changes no profile's text */
		switch (f->t) {
		case F_STR:
			gs_buf_printf(&b, "%s=%s\n", f->key, (const char *)src);
			break;
		case F_INT:
			if (*(const int *)src)
				gs_buf_printf(&b, "%s=%d\n", f->key, *(const int *)src);
			break;
		case F_DBL:
			if (*(const double *)src != 0)
				gs_buf_printf(&b, "%s=%.17g\n", f->key, *(const double *)src);
			break;
		case F_CC:
			gs_buf_printf(&b, "%s=%d.%d\n", f->key, p->cc_major, p->cc_minor);
			break;
		case F_MODEL:
			gs_buf_printf(&b, "%s=%s\n", f->key,
				      p->model == GS_EMU_MODEL_INTERVAL ? "interval" : "mwp-cwp");
			break;
		case F_COALESCE:
			gs_buf_printf(&b, "%s=%s\n", f->key,
				      p->coalesce == GS_EMU_COALESCE_SECTORS ? "sectors" : "cc10");
			break;
		}
	}
	return gs_buf_detach(&b);
}

/* The line of a key in the text, for the checks made once all are read. */
static int line_of(const int *lines, const char *key, int last)
{
	for (size_t k = 0; k < NFIELDS; k++)
		if (!strcmp(fields[k].key, key))
			return lines[k] ? lines[k] : last;
	return last;
}

/* One key's value into its field of p, checked against the field's type
 * and range; -1 with the message in err. */
static int set_field(const struct field *f, const char *key, const char *val,
		     struct gs_emu_profile *p, int line, char *err, size_t errlen)
{
	char *end, msg[160], range[64];
	unsigned char *dst = (unsigned char *)p + f->off;
	switch (f->t) {
	case F_STR:
		if (strlen(val) >= f->size)
			return perr(err, errlen, line, "'%s' is too long", key);
		memcpy(dst, val, strlen(val) + 1);
		break;
	case F_INT: {
		errno = 0;
		long v = strtol(val, &end, 10);
		range_text(f, range, sizeof range);
		snprintf(msg, sizeof msg, "%s = %%s: not an integer %s", key, range);
		if (*end || end == val || errno)
			return perr(err, errlen, line, msg, val);
		snprintf(msg, sizeof msg, "%s = %%s: out of range (%s)", key, range);
		if (!in_range(f, (double)v))
			return perr(err, errlen, line, msg, val);
		*(int *)dst = (int)v;
		break;
	}
	case F_DBL: {
		errno = 0;
		double v = strtod(val, &end);
		range_text(f, range, sizeof range);
		snprintf(msg, sizeof msg, "%s = %%s: not a number %s", key, range);
		if (*end || end == val || errno || v != v)
			return perr(err, errlen, line, msg, val);
		snprintf(msg, sizeof msg, "%s = %%s: out of range (%s)", key, range);
		if (!in_range(f, v))
			return perr(err, errlen, line, msg, val);
		*(double *)dst = v == 0 ? 0 : v; /* -0 is 0 */
		break;
	}
	case F_CC:
		if (sscanf(val, "%d.%d%c", &p->cc_major, &p->cc_minor, &(char){ 0 }) != 2 ||
		    p->cc_major < 1 || p->cc_major > 99 || p->cc_minor < 0 ||
		    p->cc_minor > 9)
			return perr(err, errlen, line, "compute capability '%s' is not MAJOR.MINOR",
				    val);
		break;
	case F_MODEL:
		if (!strcmp(val, "mwp-cwp"))
			p->model = GS_EMU_MODEL_MWP;
		else if (!strcmp(val, "interval"))
			p->model = GS_EMU_MODEL_INTERVAL;
		else
			return perr(err, errlen, line,
				    "unknown model '%s' (mwp-cwp or interval)", val);
		break;
	case F_COALESCE:
		if (!strcmp(val, "cc10"))
			p->coalesce = GS_EMU_COALESCE_CC10;
		else if (!strcmp(val, "sectors"))
			p->coalesce = GS_EMU_COALESCE_SECTORS;
		else
			return perr(err, errlen, line,
				    "unknown coalescing '%s' (cc10 or sectors)", val);
		break;
	}
	return 0;
}

/* What holds between keys, once all are read: the required ones, the
 * interval model's, safe strings, divisors and the DRAM spread's
 * quantiles; -1 with the message in err. */
static int check_whole(const struct gs_emu_profile *p, const int *lines, int line, char *err,
		       size_t errlen)
{
	for (size_t k = 0; k < NFIELDS; k++)
		if ((fields[k].flags & REQ) && !lines[k])
			return perr(err, errlen, 0, "'%s' is missing", fields[k].key);
	if (p->model == GS_EMU_MODEL_INTERVAL)
		for (size_t i = 0; i < sizeof interval_keys / sizeof *interval_keys; i++)
			for (size_t k = 0; k < NFIELDS; k++)
				if (!strcmp(fields[k].key, interval_keys[i]) && !lines[k])
					return perr(err, errlen, 0,
						    "'%s' is missing (the interval model needs it)",
						    interval_keys[i]);
	/* the strings go into messages, NVRTC's options and file names */
	for (const char *c = p->arch; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_", *c))
			return perr(err, errlen, line_of(lines, "arch", line),
				    "arch = %s: not an NVRTC target such as sm_90", p->arch);
	static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz"
					 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.";
	for (const char *c = p->name; *c; c++)
		if (!strchr(name_chars, *c))
			return perr(err, errlen, line_of(lines, "name", line),
				    "name = %s: letters, digits, '_', '-' and '.' only", p->name);
	if (p->model == GS_EMU_MODEL_INTERVAL) {
		static const char *const pos[] = { "dram_bw_gbs", "subpartitions", "issue_per_sub",
						   "l1_line", "l1_assoc", "l1_bw", "l2_bw_gbs" };
		for (size_t i = 0; i < sizeof pos / sizeof *pos; i++)
			for (size_t k = 0; k < NFIELDS; k++) {
				if (strcmp(fields[k].key, pos[i]))
					continue;
				const void *v = (const unsigned char *)p + fields[k].off;
				if (fields[k].t == F_INT ? !*(const int *)v : !*(const double *)v)
					return perr(err, errlen, lines[k], "%s = 0: the interval "
						    "model divides by it", pos[i]);
			}
		if (p->l1_bytes < p->l1_line * p->l1_assoc)
			return perr(err, errlen, line_of(lines, "l1_bytes", line),
				    "l1_bytes is smaller than l1_line * l1_assoc%s", "");
	}
	int nq = 0;
	for (int i = 0; i < GS_EMU_SPREAD_Q; i++)
		nq += p->dram_spread[i] > 0;
	if (nq && nq < GS_EMU_SPREAD_Q)
		return perr(err, errlen, line_of(lines, "dram_spread.p5", line),
			    "dram_spread needs all of p5, p10, p25, p50, p75, p90, p95 and p99, "
			    "each above 0%s", "");
	for (int i = 1; nq && i < GS_EMU_SPREAD_Q; i++)
		if (p->dram_spread[i] < p->dram_spread[i - 1])
			return perr(err, errlen, line_of(lines, "dram_spread.p5", line),
				    "dram_spread's quantiles must not decrease%s", "");
	return 0;
}

int gs_emu_profile_parse(const char *text, struct gs_emu_profile *p, char *err, size_t errlen)
{
	int lines[NFIELDS] = { 0 };
	int line = 0;
	const char *s = text;

	memset(p, 0, sizeof(*p));
	while (*s) {
		const char *e = strchr(s, '\n');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		char buf[512];
		line++;
		if (n >= sizeof buf)
			return perr(err, errlen, line, "line too long%s", "");
		memcpy(buf, s, n);
		buf[n] = 0;
		s += n + (e ? 1 : 0);
		char *hash = strchr(buf, '#');
		int src = GS_EMU_SRC_NONE;
		if (hash) {
			char bad[32];
			*hash = 0;
			if ((src = comment_source(hash + 1, bad, sizeof bad)) < 0)
				return perr(err, errlen, line, "unknown source tag '%s' (profiles/"
					    "README.md lists them)", bad);
		}
		char *l = trim(buf);
		if (!*l)
			continue;
		char *eq = strchr(l, '=');
		if (!eq)
			return perr(err, errlen, line, "expected 'key = value', got '%s'", l);
		*eq = 0;
		char *key = trim(l), *val = trim(eq + 1);
		size_t k;
		for (k = 0; k < NFIELDS; k++)
			if (!strcmp(fields[k].key, key))
				break;
		if (k == NFIELDS)
			return perr(err, errlen, line, "unknown key '%s' (profiles/README.md lists "
				    "them)", key);
		if (lines[k])
			return perr(err, errlen, line, "'%s' given twice", key);
		if (!*val)
			return perr(err, errlen, line, "no value for '%s'", key);
		lines[k] = line;
		const struct field *f = &fields[k];
		if (f->flags & FACT) {
			p->facts++;
			p->by_source[src]++;
		}
		if (set_field(f, key, val, p, line, err, errlen) < 0)
			return -1;
	}
	if (check_whole(p, lines, line, err, errlen) < 0)
		return -1;
	char *canon = gs_emu_profile_canon(p);
	gs_hash_hex(canon, strlen(canon), p->hash);
	free(canon);
	return 0;
}

/* ---- the list --------------------------------------------------------------------- */

static struct gs_emu_profile *loaded;
static const struct gs_emu_profile **list;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The directory of profile files, or NULL. */
static char *profile_dir(void)
{
	const char *env = getenv("GSEARCH_PROFILES");
	if (env && *env)
		return gs_xstrdup(env);
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return NULL;
	self[n] = 0;
	char *slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	/* build/gsearch, build/san/gsearch, build/unit/test_x: the source tree's */
	static const char *const rel[] = { "../profiles", "../../profiles", "../share/gsearch/profiles" };
	for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
		char *d = gs_xasprintf("%s/%s", self, rel[i]);
		char *probe = gs_xasprintf("%s/sm_90.profile", d);
		int ok = access(probe, R_OK) == 0;
		free(probe);
		if (ok)
			return d;
		free(d);
	}
	return NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the files that failed: their profile's name (the file's, less
 * ".profile"; "*" for a profile directory that cannot be read, which fails
 * them all) and why */
static struct failed {
	char *name, *msg;
} *failed;
static size_t nfailed, failed_cap;
static struct gs_buf all_errors = GS_BUF_INIT;

static void fail(const char *name, char *msg)
{
	gs_grow(&failed, &failed_cap, nfailed + 1, sizeof(*failed));
	failed[nfailed].name = gs_xstrdup(name);
	failed[nfailed++].msg = msg;
	gs_buf_printf(&all_errors, "%s\n", msg);
}

/* Reads and parses dir/file (NAME.profile) into *p, with the one reader
 * of every file gsearch reads (regular files only, a size cap): 0, or -1
 * after recording why under NAME. */
static int read_profile(const char *dir, const char *file, struct gs_emu_profile *p)
{
	char *path = gs_xasprintf("%s/%s", dir, file);
	char *name = gs_xasprintf("%.*s", (int)(strlen(file) - 8), file);
	char *text = NULL, err[256];
	size_t len = 0;
	int rc = gs_read_file_max(path, GS_EMU_PROFILE_MAX, &text, &len);
	if (rc == -EFBIG)
		fail(name, gs_xasprintf("%s: larger than the %s limit of a profile", path,
					GS_EMU_PROFILE_MAX_TEXT));
	else if (rc < 0)
		fail(name, gs_xasprintf("%s: cannot read it: %s", path, gs_read_strerror(rc)));
	else if (strlen(text) != len)
		fail(name, gs_xasprintf("%s: a NUL byte: a profile is text", path));
	else if (gs_emu_profile_parse(text, p, err, sizeof err) < 0)
		fail(name, gs_xasprintf("%s:%s", path, err));
	else if (strcmp(p->name, name))
		fail(name, gs_xasprintf("%s: names itself '%s': the name must be the file's", path,
					p->name));
	else
		rc = 1;
	free(text);
	free(path);
	free(name);
	return rc == 1 ? 0 : -1;
}

static void load(void)
{
	size_t nemb = 0, cap, n = 0;
	while (gs_emu_embedded_profiles[nemb])
		nemb++;
	char *dir = profile_dir();
	char **extra = NULL;
	size_t nextra = 0, xcap = 0;
	DIR *dp = dir ? opendir(dir) : NULL;
	const char *env = getenv("GSEARCH_PROFILES");
	if (!dp && env && *env) /* a directory named on purpose: never passed over */
		fail("*", gs_xasprintf("GSEARCH_PROFILES=%s: cannot open the directory: %s", env,
				       strerror(errno)));
	for (struct dirent *de; dp && (de = readdir(dp));) {
		size_t l = strlen(de->d_name);
		if (l > 8 && !strcmp(de->d_name + l - 8, ".profile") && de->d_name[0] != '.') {
			gs_grow(&extra, &xcap, nextra + 1, sizeof(*extra));
			extra[nextra++] = gs_xstrdup(de->d_name);
		}
	}
	if (dp)
		closedir(dp);
	if (nextra)
		qsort(extra, nextra, sizeof *extra, by_name);
	cap = nemb + nextra;
	loaded = gs_xcalloc(cap + 1, sizeof(*loaded));
	list = gs_xcalloc(cap + 1, sizeof(*list));
	char err[256];
	/* the compiled-in ones first, in their order, each replaced by its file */
	for (size_t i = 0; i < nemb; i++) {
		struct gs_emu_profile *p = &loaded[n];
		if (gs_emu_profile_parse(gs_emu_embedded_profiles[i], p, err, sizeof err) < 0) {
			fprintf(stderr, "gsearch: error: compiled-in profile %zu:%s\n", i, err);
			continue;
		}
		char *fname = gs_xasprintf("%s.profile", p->name);
		for (size_t j = 0; j < nextra; j++) {
			if (!extra[j] || strcmp(extra[j], fname))
				continue;
			struct gs_emu_profile fp;
			if (read_profile(dir, extra[j], &fp) == 0)
				*p = fp;
			free(extra[j]);
			extra[j] = NULL;
		}
		free(fname);
		list[n] = p;
		n++;
	}
	/* then the files that are no compiled-in profile */
	for (size_t j = 0; j < nextra; j++) {
		if (!extra[j])
			continue;
		struct gs_emu_profile *p = &loaded[n];
		if (read_profile(dir, extra[j], p) == 0)
			list[n++] = p;
		free(extra[j]);
	}
	free(extra);
	free(dir);
}

const struct gs_emu_profile *const *gs_emu_profile_list(void)
{
	pthread_once(&once, load);
	return list;
}

const char *gs_emu_profile_error(const char *name)
{
	gs_emu_profile_list();
	for (size_t i = 0; i < nfailed; i++)
		if (!strcmp(failed[i].name, name) || !strcmp(failed[i].name, "*"))
			return failed[i].msg;
	return NULL;
}

const char *gs_emu_profile_errors(void)
{
	gs_emu_profile_list();
	return gs_buf_str(&all_errors);
}

void gs_emu_profile_sources(const struct gs_emu_profile *p, char *out, size_t n)
{
	const int *c = p->by_source;
	int len = snprintf(out, n, "profile %s: %d of %d facts measured on hardware, %d from "
			   "datasheets, %d estimated", p->name, c[GS_EMU_SRC_MEASURED], p->facts,
			   c[GS_EMU_SRC_DATASHEET], c[GS_EMU_SRC_ESTIMATE]);
	if (c[GS_EMU_SRC_NONE] && len > 0 && (size_t)len < n)
		snprintf(out + len, n - (size_t)len, ", %d without a source", c[GS_EMU_SRC_NONE]);
}

const struct gs_emu_profile *gs_emu_profile_find(const char *name)
{
	if (gs_emu_profile_error(name))
		return NULL;
	const struct gs_emu_profile *const *l = gs_emu_profile_list();
	for (int i = 0; l[i]; i++)
		if (!strcmp(l[i]->name, name))
			return l[i];
	return NULL;
}
