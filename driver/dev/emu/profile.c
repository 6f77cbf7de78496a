/* profile.c — the emulated devices' profiles: text files of `key = value`
 * lines (profiles/NAME.profile, described in profiles/README.md), parsed here.
 *
 * The files are data, not code, so that a user can read where every figure
 * comes from and add a GPU without a compiler.  The bundled ones are also
 * compiled in (profiles_embed.c), so that a lone build/gsearch works; a
 * file found on disk takes precedence over its compiled-in copy. */
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

#define OFF(f) offsetof(struct gs_emu_profile, f)
#define SZ(f) sizeof(((struct gs_emu_profile *)0)->f)
static const struct field {
	const char *key;
	enum ftype t;
	size_t off, size;
	int required;
} fields[] = {
	{ "name", F_STR, OFF(name), SZ(name), 1 },
	{ "gpu", F_STR, OFF(gpu), SZ(gpu), 1 },
	{ "cc", F_CC, 0, 0, 1 },
	{ "arch", F_STR, OFF(arch), SZ(arch), 1 },
	{ "model", F_MODEL, 0, 0, 1 },
	{ "sample_blocks", F_INT, OFF(sample_blocks), 0, 0 },
	{ "sample_warps", F_INT, OFF(sample_warps), 0, 0 },
	{ "sms", F_INT, OFF(sms), 0, 1 },
	{ "clock_mhz", F_DBL, OFF(clock_mhz), 0, 1 },
	{ "mem_bw_gbs", F_DBL, OFF(mem_bw_gbs), 0, 1 },
	{ "dram_bw_gbs", F_DBL, OFF(dram_bw_gbs), 0, 0 },
	{ "dram_servers", F_INT, OFF(dram_servers), 0, 0 },
	{ "dram_spread.p5", F_DBL, OFF(dram_spread[0]), 0, 0 },
	{ "dram_spread.p10", F_DBL, OFF(dram_spread[1]), 0, 0 },
	{ "dram_spread.p25", F_DBL, OFF(dram_spread[2]), 0, 0 },
	{ "dram_spread.p50", F_DBL, OFF(dram_spread[3]), 0, 0 },
	{ "dram_spread.p75", F_DBL, OFF(dram_spread[4]), 0, 0 },
	{ "dram_spread.p90", F_DBL, OFF(dram_spread[5]), 0, 0 },
	{ "dram_spread.p95", F_DBL, OFF(dram_spread[6]), 0, 0 },
	{ "dram_spread.p99", F_DBL, OFF(dram_spread[7]), 0, 0 },
	{ "warp_size", F_INT, OFF(warp_size), 0, 1 },
	{ "max_threads_block", F_INT, OFF(max_threads_block), 0, 1 },
	{ "max_threads_sm", F_INT, OFF(max_threads_sm), 0, 1 },
	{ "max_blocks_sm", F_INT, OFF(max_blocks_sm), 0, 1 },
	{ "max_warps_sm", F_INT, OFF(max_warps_sm), 0, 1 },
	{ "regs_sm", F_INT, OFF(regs_sm), 0, 1 },
	{ "regs_block", F_INT, OFF(regs_block), 0, 1 },
	{ "max_regs_thread", F_INT, OFF(max_regs_thread), 0, 1 },
	{ "reg_alloc_unit", F_INT, OFF(reg_alloc_unit), 0, 1 },
	{ "reg_alloc_by_block", F_INT, OFF(reg_alloc_by_block), 0, 1 },
	{ "warp_alloc_gran", F_INT, OFF(warp_alloc_gran), 0, 1 },
	{ "smem_sm", F_INT, OFF(smem_sm), 0, 1 },
	{ "smem_block", F_INT, OFF(smem_block), 0, 1 },
	{ "smem_alloc_unit", F_INT, OFF(smem_alloc_unit), 0, 1 },
	{ "smem_reserved_block", F_INT, OFF(smem_reserved_block), 0, 1 },
	{ "banks", F_INT, OFF(banks), 0, 1 },
	{ "coalesce", F_COALESCE, 0, 0, 1 },
	{ "mem_latency", F_DBL, OFF(mem_latency), 0, 1 },
	{ "departure_delay", F_DBL, OFF(departure_delay), 0, 1 },
	{ "departure_delay_uncoal", F_DBL, OFF(departure_delay_uncoal), 0, 1 },
	{ "issue.int", F_DBL, OFF(issue_cycles[GS_EMU_INT]), 0, 1 },
	{ "issue.fp32", F_DBL, OFF(issue_cycles[GS_EMU_FP32]), 0, 1 },
	{ "issue.fp64", F_DBL, OFF(issue_cycles[GS_EMU_FP64]), 0, 1 },
	{ "issue.sfu", F_DBL, OFF(issue_cycles[GS_EMU_SFU]), 0, 1 },
	{ "issue.mem", F_DBL, OFF(issue_cycles[GS_EMU_MEM]), 0, 1 },
	{ "issue.ctrl", F_DBL, OFF(issue_cycles[GS_EMU_CTRL]), 0, 1 },
	{ "issue.barrier", F_DBL, OFF(issue_cycles[GS_EMU_BARRIER]), 0, 1 },
	{ "issue.other", F_DBL, OFF(issue_cycles[GS_EMU_OTHER]), 0, 1 },
	{ "barrier_cycles", F_DBL, OFF(barrier_cycles), 0, 1 },
	{ "launch_overhead_us", F_DBL, OFF(launch_overhead_us), 0, 1 },
	{ "block_launch_cycles", F_DBL, OFF(block_launch_cycles), 0, 0 },
	{ "warp_launch_cycles", F_DBL, OFF(warp_launch_cycles), 0, 0 },
	{ "subpartitions", F_INT, OFF(subpartitions), 0, 0 },
	{ "issue_per_sub", F_DBL, OFF(issue_per_sub), 0, 0 },
	{ "int_fma_lanes", F_DBL, OFF(int_fma_lanes), 0, 0 },
	{ "lat.int", F_DBL, OFF(lat[GS_EMU_INT]), 0, 0 },
	{ "lat.fp32", F_DBL, OFF(lat[GS_EMU_FP32]), 0, 0 },
	{ "lat.fp64", F_DBL, OFF(lat[GS_EMU_FP64]), 0, 0 },
	{ "lat.sfu", F_DBL, OFF(lat[GS_EMU_SFU]), 0, 0 },
	{ "lat.smem", F_DBL, OFF(lat_smem), 0, 0 },
	{ "lat.l1", F_DBL, OFF(lat_l1), 0, 0 },
	{ "lat.l2", F_DBL, OFF(lat_l2), 0, 0 },
	{ "lat.idiv32", F_DBL, OFF(lat_idiv32), 0, 0 },
	{ "lat.idiv64", F_DBL, OFF(lat_idiv64), 0, 0 },
	{ "l1_bytes", F_INT, OFF(l1_bytes), 0, 0 },
	{ "l1_line", F_INT, OFF(l1_line), 0, 0 },
	{ "l1_assoc", F_INT, OFF(l1_assoc), 0, 0 },
	{ "l1_bw", F_DBL, OFF(l1_bw), 0, 0 },
	{ "l2_bytes", F_DBL, OFF(l2_bytes), 0, 0 },
	{ "l2_bw_gbs", F_DBL, OFF(l2_bw_gbs), 0, 0 },
	{ "fetch.l0_bytes", F_DBL, OFF(fetch_l0_bytes), 0, 0 },
	{ "fetch.l1_bytes", F_DBL, OFF(fetch_l1_bytes), 0, 0 },
	{ "fetch.bytes_per_ins", F_DBL, OFF(fetch_bytes_per_ins), 0, 0 },
	{ "fetch.l1.w1", F_DBL, OFF(fetch_l1[0]), 0, 0 },
	{ "fetch.l1.w4", F_DBL, OFF(fetch_l1[1]), 0, 0 },
	{ "fetch.l1.w8", F_DBL, OFF(fetch_l1[2]), 0, 0 },
	{ "fetch.l1.w16", F_DBL, OFF(fetch_l1[3]), 0, 0 },
	{ "fetch.l2.w1", F_DBL, OFF(fetch_l2[0]), 0, 0 },
	{ "fetch.l2.w4", F_DBL, OFF(fetch_l2[1]), 0, 0 },
	{ "fetch.l2.w8", F_DBL, OFF(fetch_l2[2]), 0, 0 },
	{ "fetch.l2.w16", F_DBL, OFF(fetch_l2[3]), 0, 0 },
	{ "const.w1", F_DBL, OFF(const_cycles[0]), 0, 0 },
	{ "const.w2", F_DBL, OFF(const_cycles[1]), 0, 0 },
	{ "const.w4", F_DBL, OFF(const_cycles[2]), 0, 0 },
	{ "const.w8", F_DBL, OFF(const_cycles[3]), 0, 0 },
	{ "const.w16", F_DBL, OFF(const_cycles[4]), 0, 0 },
	{ "const.w32", F_DBL, OFF(const_cycles[5]), 0, 0 },
	{ "lat.shfl", F_DBL, OFF(lat_shfl), 0, 0 },
	{ "shfl_cycles", F_DBL, OFF(shfl_cycles), 0, 0 },
	{ "atom_sector_ns", F_DBL, OFF(atom_sector_ns), 0, 0 },
};
#define NFIELDS (sizeof fields / sizeof fields[0])

/* what the interval model cannot do without */
static const char *const interval_keys[] = { "dram_bw_gbs", "subpartitions", "issue_per_sub",
					     "lat.int", "lat.fp32", "lat.smem", "lat.l1", "lat.l2",
					     "l1_bytes", "l1_line", "l1_assoc", "l1_bw",
					     "l2_bytes", "l2_bw_gbs" };

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

static int perr(char *err, size_t errlen, int line, const char *fmt, const char *a)
{
	int n = snprintf(err, errlen, "%d: ", line);
	if (n > 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, fmt, a);
	return -1;
}

int gs_emu_profile_parse(const char *text, struct gs_emu_profile *p, char *err, size_t errlen)
{
	unsigned char seen[NFIELDS] = { 0 };
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
		if (hash)
			*hash = 0;
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
			return perr(err, errlen, line, "unknown key '%s'", key);
		if (seen[k])
			return perr(err, errlen, line, "'%s' given twice", key);
		if (!*val)
			return perr(err, errlen, line, "no value for '%s'", key);
		seen[k] = 1;
		const struct field *f = &fields[k];
		char *end;
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
			if (*end || errno || v < 0 || v > INT_MAX)
				return perr(err, errlen, line, "'%s' is not a non-negative integer", val);
			*(int *)dst = (int)v;
			break;
		}
		case F_DBL: {
			errno = 0;
			double v = strtod(val, &end);
			if (*end || errno || !(v >= 0) || v > 1e15)
				return perr(err, errlen, line, "'%s' is not a non-negative number", val);
			*(double *)dst = v;
			break;
		}
		case F_CC:
			if (sscanf(val, "%d.%d%c", &p->cc_major, &p->cc_minor, &(char){ 0 }) != 2 ||
			    p->cc_major < 1 || p->cc_minor < 0)
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
	}
	for (size_t k = 0; k < NFIELDS; k++)
		if (fields[k].required && !seen[k])
			return perr(err, errlen, line, "'%s' is missing", fields[k].key);
	if (p->model == GS_EMU_MODEL_INTERVAL)
		for (size_t i = 0; i < sizeof interval_keys / sizeof *interval_keys; i++)
			for (size_t k = 0; k < NFIELDS; k++)
				if (!strcmp(fields[k].key, interval_keys[i]) && !seen[k])
					return perr(err, errlen, line,
						    "'%s' is missing (the interval model needs it)",
						    interval_keys[i]);
	if (p->warp_size != 32)
		return perr(err, errlen, line, "warp_size must be 32%s", "");
	if (!p->sms || !p->clock_mhz || !p->max_threads_block || !p->max_warps_sm ||
	    !p->max_blocks_sm || !p->banks)
		return perr(err, errlen, line, "sms, clock_mhz, max_threads_block, max_warps_sm, "
			    "max_blocks_sm and banks must not be 0%s", "");
	if (p->model == GS_EMU_MODEL_INTERVAL &&
	    (!p->subpartitions || !p->issue_per_sub || !p->l1_line || !p->l1_assoc ||
	     p->l1_bytes < p->l1_line * p->l1_assoc || !p->dram_bw_gbs || !p->l2_bw_gbs || !p->l1_bw))
		return perr(err, errlen, line, "a cache or issue figure of the interval model is 0 "
			    "or too small%s", "");
	int nq = 0;
	for (int i = 0; i < GS_EMU_SPREAD_Q; i++)
		nq += p->dram_spread[i] > 0;
	if (nq && nq < GS_EMU_SPREAD_Q)
		return perr(err, errlen, line, "dram_spread needs all of p5, p10, p25, p50, p75, "
			    "p90, p95 and p99, each above 0%s", "");
	for (int i = 1; nq && i < GS_EMU_SPREAD_Q; i++)
		if (p->dram_spread[i] < p->dram_spread[i - 1])
			return perr(err, errlen, line, "dram_spread's quantiles must not decrease%s",
				    "");
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

static void load(void)
{
	size_t nemb = 0, cap, n = 0;
	while (gs_emu_embedded_profiles[nemb])
		nemb++;
	char *dir = profile_dir();
	char **extra = NULL;
	size_t nextra = 0, xcap = 0;
	DIR *dp = dir ? opendir(dir) : NULL;
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
			char *path = gs_xasprintf("%s/%s", dir, extra[j]);
			char *text = NULL;
			size_t len = 0;
			struct gs_emu_profile fp;
			if (gs_read_file_max(path, 1 << 20, &text, &len) == 0) {
				if (gs_emu_profile_parse(text, &fp, err, sizeof err) < 0)
					fprintf(stderr, "gsearch: error: %s:%s (using the compiled-in %s)\n",
						path, err, p->name);
				else if (strcmp(fp.name, p->name))
					fprintf(stderr, "gsearch: error: %s names itself '%s' (using the "
						"compiled-in %s)\n", path, fp.name, p->name);
				else
					*p = fp;
			}
			free(text);
			free(path);
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
		char *path = gs_xasprintf("%s/%s", dir, extra[j]);
		char *text = NULL;
		size_t len = 0;
		struct gs_emu_profile *p = &loaded[n];
		if (gs_read_file_max(path, 1 << 20, &text, &len) == 0) {
			int dup = 0;
			if (gs_emu_profile_parse(text, p, err, sizeof err) < 0) {
				fprintf(stderr, "gsearch: error: %s:%s\n", path, err);
			} else {
				for (size_t i = 0; i < n; i++)
					dup |= !strcmp(list[i]->name, p->name);
				if (dup)
					fprintf(stderr, "gsearch: error: %s: a second profile named '%s'\n",
						path, p->name);
				else
					list[n++] = p;
			}
		}
		free(text);
		free(path);
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

const struct gs_emu_profile *gs_emu_profile_find(const char *name)
{
	const struct gs_emu_profile *const *l = gs_emu_profile_list();
	for (int i = 0; l[i]; i++)
		if (!strcmp(l[i]->name, name))
			return l[i];
	return NULL;
}
