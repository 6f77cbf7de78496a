/* complog.c — reading a compile log for people: what failed comes first,
 * and a variant that only exceeds a device limit is told apart from one
 * whose source is wrong.
 *
 * ptxas reports a kernel that needs more of a resource than the target
 * has ("uses too much shared data (0xc800 bytes, 0xc000 max)") as an
 * error, but that variant is no more broken than a block of 2048 threads:
 * the configuration is `invalid` on this device, with the limit named. */
#include "gen/gen.h"

#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_ptxas_error(const char *line, size_t n)
{
	static const char *const heads[] = { "ptxas error", "ptxas fatal" };
	for (size_t i = 0; i < GS_ARRAY_SIZE(heads); i++) {
		size_t k = strlen(heads[i]);
		if (n >= k && !memcmp(line, heads[i], k))
			return 1;
	}
	return 0;
}

char *gs_complog_errors_first(const char *log)
{
	struct gs_buf b = GS_BUF_INIT;
	if (!log)
		return gs_xstrdup("");
	/* two passes: ptxas' error lines, then every other line as it was;
	 * NVRTC's own errors keep their place, since the source line and
	 * caret after each belong to it */
	for (int pass = 0; pass < 2; pass++) {
		const char *p = log;
		while (*p) {
			const char *e = strchr(p, '\n');
			size_t n = e ? (size_t)(e - p) : strlen(p);
			if (is_ptxas_error(p, n) == !pass) {
				gs_buf_put(&b, p, n);
				gs_buf_putc(&b, '\n');
			}
			p += n + (e != NULL);
		}
	}
	if (b.len && log[0] && log[strlen(log) - 1] != '\n')
		b.p[--b.len] = 0; /* keep a log without a final newline so */
	return b.p ? gs_buf_detach(&b) : gs_xstrdup("");
}

/* Does line [p, p + n) hold `w`? */
static int has(const char *p, size_t n, const char *w)
{
	size_t k = strlen(w);
	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(p + i, w, k))
			return 1;
	return 0;
}

int gs_complog_has_error(const char *log)
{
	for (const char *p = log; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		/* NVRTC: "k.cu(5): error: ...", "catastrophic error: ..." */
		if (is_ptxas_error(p, n) || has(p, n, ": error") || has(p, n, "error:"))
			return 1;
		p += n + (e != NULL);
	}
	return 0;
}

/* ptxas' names for the kernel's resources, and ours */
static const struct {
	const char *ptxas, *name;
} resources[] = {
	{ "shared", "static shared memory" },
	{ "local", "local memory" },
	{ "const", "constant memory" },
	{ "constant", "constant memory" },
	{ "param", "kernel parameter space" },
	{ "parameter", "kernel parameter space" },
};

int gs_complog_limit(const char *log, const char *arch, char *why, size_t n)
{
	for (const char *p = log; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
		p += len + (e != NULL);
		if (!is_ptxas_error(line, strlen(line)))
			continue;
		/* "... uses too much shared data (0xc800 bytes, 0xc000 max)" */
		const char *t = strstr(line, "uses too much ");
		if (t) {
			char what[32];
			unsigned long long used, max;
			if (sscanf(t, "uses too much %31s data (%llx bytes, %llx max)", what, &used, &max) == 3) {
				const char *name = what;
				for (size_t i = 0; i < GS_ARRAY_SIZE(resources); i++)
					if (!strcmp(what, resources[i].ptxas))
						name = resources[i].name;
				/* static shared memory has a limit of its own, below
				 * what a block may have as dynamic shared memory */
				int smem = !strcmp(what, "shared");
				snprintf(why, n, "%llu bytes of %s; %s allows %llu%s (ptxas: too much %s data)",
					 used, name, arch && *arch ? arch : "the target", max,
					 smem ? ", more only as dynamic shared memory" : "", what);
				return 1;
			}
		}
		/* a resource ptxas names without figures */
		if (strstr(line, "too many resources") || strstr(line, "too many registers") ||
		    strstr(line, "too much")) {
			const char *m = strstr(line, ": ");
			snprintf(why, n, "exceeds a limit of %s (ptxas: %s)", arch && *arch ? arch : "the target",
				 m ? m + 2 : line);
			return 1;
		}
	}
	return 0;
}

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Does line [p, p + n) hold the identifier w[0..k) as a whole word? */
static int has_word(const char *p, size_t n, const char *w, size_t k)
{
	for (size_t i = 0; k && i + k <= n; i++)
		if (!memcmp(p + i, w, k) && (i == 0 || !ident_char(p[i - 1])) &&
		    (i + k == n || !ident_char(p[i + k])))
			return 1;
	return 0;
}

/* The macro a -D option defines: its name's start and length, or 0. */
static size_t define_name(const char *opt, const char **name)
{
	static const char *const heads[] = { "-D", "--define-macro=" };
	for (size_t i = 0; i < GS_ARRAY_SIZE(heads); i++) {
		size_t k = strlen(heads[i]);
		if (!strncmp(opt, heads[i], k)) {
			*name = opt + k;
			size_t len = strcspn(*name, "=");
			return len;
		}
	}
	return 0;
}

int gs_complog_define_clash(const char *log, const char *const *opts, size_t nopts, char *why,
			    size_t n)
{
	static const char header[] = "__nv_nvrtc_builtin_header.h(";
	for (const char *p = log; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *next = p + len + (e != NULL);
		/* "__nv_nvrtc_builtin_header.h(3379): error: expected an
		 * identifier", then the header's line as NVRTC quotes it */
		if (len > sizeof header - 1 && !memcmp(p, header, sizeof header - 1) &&
		    has(p, len, ": error") && *next) {
			const char *q = strchr(next, '\n');
			size_t qlen = q ? (size_t)(q - next) : strlen(next);
			for (size_t i = 0; i < nopts; i++) {
				const char *name;
				size_t k = define_name(opts[i], &name);
				if (!k || !has_word(next, qlen, name, k))
					continue;
				while (qlen && (*next == ' ' || *next == '\t'))
					next++, qlen--;
				unsigned line = (unsigned)strtoul(p + sizeof header - 1, NULL, 10);
				snprintf(why, n,
					 "the define %.*s (%s) is a name NVRTC's built-in header uses "
					 "(line %u: \"%.*s\"): the preprocessor replaces it there too, so "
					 "no variant compiles; give the knob or its define another name",
					 (int)k, name, opts[i], line, (int)(qlen < 80 ? qlen : 80), next);
				return 1;
			}
		}
		p = next;
	}
	return 0;
}

const char *gs_complog_own(const char *log, int *len)
{
	size_t k = sizeof GS_COMPLOG_OWN - 1;
	*len = 0;
	if (!log || strncmp(log, GS_COMPLOG_OWN, k))
		return NULL;
	*len = (int)strcspn(log + k, "\n");
	return log + k;
}
