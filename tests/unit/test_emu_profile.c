/* test_emu_profile.c — the profile reader: every bundled profile parses with
 * a source for each fact, its canonical text ignores comments and layout
 * but not a figure, and every key's range is checked with the key's line. */
#include "harness.h"
#include "dev/emu.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

extern const char *const gs_emu_embedded_profiles[];

/* the compiled-in text of profile NAME */
static const char *embedded(const char *name)
{
	char want[64];
	snprintf(want, sizeof want, "\nname = %s\n", name);
	for (int i = 0; gs_emu_embedded_profiles[i]; i++)
		if (strstr(gs_emu_embedded_profiles[i], want))
			return gs_emu_embedded_profiles[i];
	ck_abort_msg("no compiled-in profile %s", name);
	return NULL;
}

/* sm_90's text with the line of `key` replaced by `line` (NULL: removed) */
static char *edited(const char *key, const char *line)
{
	const char *t = embedded("sm_90");
	struct gs_buf b = GS_BUF_INIT;
	size_t kl = strlen(key);
	int found = 0;
	for (const char *s = t; *s;) {
		const char *e = strchr(s, '\n');
		size_t n = e ? (size_t)(e - s) + 1 : strlen(s);
		if (!strncmp(s, key, kl) && (s[kl] == ' ' || s[kl] == '=')) {
			found = 1;
			if (line)
				gs_buf_printf(&b, "%s\n", line);
		} else {
			gs_buf_put(&b, s, n);
		}
		s += n;
	}
	ck_assert_msg(found, "sm_90 has no key %s", key);
	return gs_buf_detach(&b);
}

/* the line of key in sm_90's text */
static int line_of(const char *key)
{
	const char *t = embedded("sm_90");
	size_t kl = strlen(key);
	int line = 1;
	for (const char *s = t; *s; s = strchr(s, '\n') + 1, line++)
		if (!strncmp(s, key, kl) && (s[kl] == ' ' || s[kl] == '='))
			return line;
	return 0;
}

/* "LINE: " and what follows, LINE being key's */
static const char *at(const char *key, const char *msg)
{
	static char out[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(out[k], sizeof out[k], "%d: %s", line_of(key) + (*msg == '+'), msg + (*msg == '+'));
	return out[k];
}

/* the error of sm_90 with that edit, "" when it parses */
static const char *error_of(const char *key, const char *line)
{
	static char err[256];
	struct gs_emu_profile p;
	char *t = edited(key, line);
	if (gs_emu_profile_parse(t, &p, err, sizeof err) == 0)
		err[0] = 0;
	free(t);
	return err;
}

START_TEST(test_bundled_profiles_source_every_fact)
{
	for (int i = 0; gs_emu_embedded_profiles[i]; i++) {
		struct gs_emu_profile p;
		char err[256];
		ck_assert_msg(gs_emu_profile_parse(gs_emu_embedded_profiles[i], &p, err,
						   sizeof err) == 0, "profile %d: %s", i, err);
		ck_assert_msg(p.by_source[GS_EMU_SRC_NONE] == 0, "%s: %d facts without a source",
			      p.name, p.by_source[GS_EMU_SRC_NONE]);
		ck_assert_int_eq(p.facts, p.by_source[GS_EMU_SRC_MEASURED] +
						  p.by_source[GS_EMU_SRC_DATASHEET] +
						  p.by_source[GS_EMU_SRC_ESTIMATE]);
		ck_assert_int_eq(strlen(p.hash), 32);
	}
	/* what cannot be measured here says so */
	struct gs_emu_profile p;
	char err[256], line[256];
	ck_assert_int_eq(gs_emu_profile_parse(embedded("sm_80"), &p, err, sizeof err), 0);
	ck_assert_int_eq(p.by_source[GS_EMU_SRC_MEASURED], 0);
	gs_emu_profile_sources(&p, line, sizeof line);
	ck_assert_msg(!strncmp(line, "profile sm_80: 0 of ", 20), "%s", line);
	ck_assert_int_eq(gs_emu_profile_parse(embedded("sm_90"), &p, err, sizeof err), 0);
	ck_assert_int_gt(p.by_source[GS_EMU_SRC_MEASURED], 30);
}
END_TEST

START_TEST(test_canon_ignores_comments_not_figures)
{
	struct gs_emu_profile a, b;
	char err[256];
	ck_assert_int_eq(gs_emu_profile_parse(embedded("sm_90"), &a, err, sizeof err), 0);
	/* comments, blanks and spelling: the same figures */
	char *t = edited("clock_mhz", "\n  clock_mhz=1.98e3   # [SPEC] another comment\n# more\n");
	ck_assert_msg(gs_emu_profile_parse(t, &b, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(a.hash, b.hash);
	free(t);
	/* another figure: another profile */
	t = edited("clock_mhz", "clock_mhz = 990");
	ck_assert_int_eq(gs_emu_profile_parse(t, &b, err, sizeof err), 0);
	ck_assert_str_ne(a.hash, b.hash);
	free(t);
	t = edited("dram_bw_gbs", "dram_bw_gbs = 1000");
	ck_assert_int_eq(gs_emu_profile_parse(t, &b, err, sizeof err), 0);
	ck_assert_str_ne(a.hash, b.hash);
	free(t);
	char *c = gs_emu_profile_canon(&a);
	ck_assert_ptr_nonnull(strstr(c, "\nclock_mhz=1980\n"));
	ck_assert_ptr_null(strstr(c, "#"));
	free(c);
}
END_TEST

START_TEST(test_ranges_checked_with_line_and_key)
{
	ck_assert_str_eq(error_of("warp_alloc_gran", "warp_alloc_gran = 0"),
			 at("warp_alloc_gran", "warp_alloc_gran = 0: out of range (1 to 64)"));
	ck_assert_str_eq(error_of("warp_alloc_gran", "warp_alloc_gran = -4"),
			 at("warp_alloc_gran", "warp_alloc_gran = -4: out of range (1 to 64)"));
	ck_assert_str_eq(error_of("warp_alloc_gran", "warp_alloc_gran = four"),
			 at("warp_alloc_gran", "warp_alloc_gran = four: not an integer 1 to 64"));
	ck_assert_str_eq(error_of("warp_alloc_gran", "warp_alloc_gran = 99999999999999999999"),
			 at("warp_alloc_gran", "warp_alloc_gran = 99999999999999999999: not an integer 1 to 64"));
	ck_assert_str_eq(error_of("clock_mhz", "clock_mhz = 0"),
			 at("clock_mhz", "clock_mhz = 0: out of range (above 0 and at most 100000)"));
	ck_assert_str_eq(error_of("clock_mhz", "clock_mhz = nan"),
			 at("clock_mhz", "clock_mhz = nan: not a number above 0 and at most 100000"));
	ck_assert_str_eq(error_of("clock_mhz", "clock_mhz = 1e300"),
			 at("clock_mhz", "clock_mhz = 1e300: out of range (above 0 and at most 100000)"));
	ck_assert_str_eq(error_of("issue.fp32", "issue.fp32 = 0"),
			 at("issue.fp32", "issue.fp32 = 0: out of range (above 0 and at most 10000)"));
	ck_assert_str_eq(error_of("smem_alloc_unit", "smem_alloc_unit = 0"),
			 at("smem_alloc_unit", "smem_alloc_unit = 0: out of range (1 to 1048576)"));
	ck_assert_str_eq(error_of("sms", NULL), " 'sms' is missing");
	ck_assert_str_eq(error_of("sms", "sms = 132\nwarps = 4"),
			 at("sms", "+unknown key 'warps' (profiles/README.md lists them)"));
	ck_assert_str_eq(error_of("sms", "sms = 132 # [H200]"),
			 at("sms", "unknown source tag '[H200]' (profiles/README.md lists them)"));
	ck_assert_str_eq(error_of("l1_bw", "l1_bw = 0"),
			 at("l1_bw", "l1_bw = 0: the interval model divides by it"));
	ck_assert_str_eq(error_of("arch", "arch = sm_90 -G"),
			 at("arch", "arch = sm_90 -G: not an NVRTC target such as sm_90"));
	/* an array index in a comment is no tag */
	ck_assert_str_eq(error_of("sms", "sms = 132 # [SPEC] a[i], [4]"), "");
}
END_TEST

GS_TEST_MAIN(test_bundled_profiles_source_every_fact, test_canon_ignores_comments_not_figures,
	     test_ranges_checked_with_line_and_key)
