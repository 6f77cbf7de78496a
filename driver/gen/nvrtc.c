/* nvrtc.c — NVRTC, loaded with dlopen at run time: gsearch starts, lists,
 * checks and queries on hosts without a CUDA toolkit, and compiles variants
 * where there is one.
 *
 * nvrtc.h is used for its types only, never for linking; without the header
 * (no toolkit at build time) the few declarations needed are written here.
 *
 * One compile gives both outputs.  With -arch=sm_XX, NVRTC 13 (measured with
 * 13.0) keeps the PTX it generated on the way to the cubin: nvrtcGetPTX and
 * nvrtcGetCUBIN both succeed on the same program, so the emulated device (PTX)
 * and the GPU (cubin) are served by one compile and the PTX is exactly the
 * text the cubin was made from.  tests/unit/test_gen.c checks this.  With
 * -arch=compute_XX there is no cubin; asking for one then is a caller error
 * (-1), not a reason for a second compile. */
#define _GNU_SOURCE
#include "gen/gen.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

#if defined(__has_include)
#if __has_include(<nvrtc.h>)
#include <nvrtc.h>
#define GS_HAVE_NVRTC_H 1
#endif
#endif

#ifndef GS_HAVE_NVRTC_H
/* The subset of nvrtc.h gsearch uses; values as in CUDA 12 and 13. */
typedef enum {
	NVRTC_SUCCESS = 0,
	NVRTC_ERROR_OUT_OF_MEMORY = 1,
	NVRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
	NVRTC_ERROR_INVALID_INPUT = 3,
	NVRTC_ERROR_INVALID_PROGRAM = 4,
	NVRTC_ERROR_INVALID_OPTION = 5,
	NVRTC_ERROR_COMPILATION = 6,
} nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;
#endif

/* Every entry point gsearch calls: name, return type, parameters. */
#define NVRTC_FUNCS(X)                                                                         \
	X(nvrtcGetErrorString, const char *, (nvrtcResult))                                     \
	X(nvrtcVersion, nvrtcResult, (int *, int *))                                            \
	X(nvrtcGetNumSupportedArchs, nvrtcResult, (int *))                                      \
	X(nvrtcGetSupportedArchs, nvrtcResult, (int *))                                         \
	X(nvrtcCreateProgram, nvrtcResult, (nvrtcProgram *, const char *, const char *, int,    \
					    const char *const *, const char *const *))          \
	X(nvrtcDestroyProgram, nvrtcResult, (nvrtcProgram *))                                   \
	X(nvrtcAddNameExpression, nvrtcResult, (nvrtcProgram, const char *))                    \
	X(nvrtcCompileProgram, nvrtcResult, (nvrtcProgram, int, const char *const *))           \
	X(nvrtcGetProgramLogSize, nvrtcResult, (nvrtcProgram, size_t *))                        \
	X(nvrtcGetProgramLog, nvrtcResult, (nvrtcProgram, char *))                              \
	X(nvrtcGetPTXSize, nvrtcResult, (nvrtcProgram, size_t *))                               \
	X(nvrtcGetPTX, nvrtcResult, (nvrtcProgram, char *))                                     \
	X(nvrtcGetCUBINSize, nvrtcResult, (nvrtcProgram, size_t *))                             \
	X(nvrtcGetCUBIN, nvrtcResult, (nvrtcProgram, char *))                                   \
	X(nvrtcGetLoweredName, nvrtcResult, (nvrtcProgram, const char *, const char **))

struct gs_nvrtc {
	void *dl;
	char *path;       /* what dlopen was given */
	char version[32]; /* "13.0" */
	int *archs;
	size_t narchs;
#define X(name, ret, args) ret(*name) args;
	NVRTC_FUNCS(X)
#undef X
};

/* Newest first: a host with both toolkits compiles with the newer. */
static const char *const sonames[] = { "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so" };

/* Resolve every entry point and read version and architectures; 0 or -1. */
static int bind(struct gs_nvrtc *n, char *err, size_t errlen)
{
	int major = 0, minor = 0, num = 0;

#define X(name, ret, args)                                                                     \
	*(void **)&n->name = dlsym(n->dl, #name);                                               \
	if (!n->name) {                                                                         \
		snprintf(err, errlen, "%s: missing symbol '%s' (NVRTC older than CUDA 12?)",    \
			 n->path, #name);                                                       \
		return -1;                                                                      \
	}
	NVRTC_FUNCS(X)
#undef X
	if (n->nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) {
		snprintf(err, errlen, "%s: nvrtcVersion failed", n->path);
		return -1;
	}
	snprintf(n->version, sizeof n->version, "%d.%d", major, minor);
	if (n->nvrtcGetNumSupportedArchs(&num) != NVRTC_SUCCESS || num < 0 || num > 4096) {
		snprintf(err, errlen, "%s: nvrtcGetNumSupportedArchs failed", n->path);
		return -1;
	}
	n->archs = gs_xcalloc((size_t)num + 1, sizeof *n->archs);
	if (num && n->nvrtcGetSupportedArchs(n->archs) != NVRTC_SUCCESS) {
		snprintf(err, errlen, "%s: nvrtcGetSupportedArchs failed", n->path);
		return -1;
	}
	n->narchs = (size_t)num;
	return 0;
}

int gs_nvrtc_load_from(struct gs_nvrtc **out, const char *const *dirs, size_t ndirs,
		       int loader_path, char *err, size_t errlen)
{
	struct gs_buf looked = GS_BUF_INIT;
	char *why = NULL; /* why a file that exists did not load */
	struct gs_nvrtc *n;
	size_t i, k;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	/* Directories first, each with every soname, then the bare sonames for
	 * the loader (LD_LIBRARY_PATH, ld.so.cache). */
	for (i = 0; i <= ndirs; i++) {
		const char *dir = i < ndirs ? dirs[i] : NULL;

		if (i < ndirs && (!dir || !*dir))
			continue;
		if (i == ndirs && !loader_path)
			break;
		for (k = 0; k < GS_ARRAY_SIZE(sonames); k++) {
			char *path = dir ? gs_xasprintf("%s/%s", dir, sonames[k]) : gs_xstrdup(sonames[k]);
			/* RTLD_NODELETE: NVRTC is C++ with static state (its
			 * runtime's exception pool, exit handlers); unmapping it
			 * at gs_nvrtc_unload would orphan that state, which leak
			 * checkers report and exit handlers may trip on. */
			void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);

			if (!dl) {
				if (!why && dir && access(path, F_OK) == 0)
					why = gs_xstrdup(dlerror());
				free(path);
				continue;
			}
			n = gs_xcalloc(1, sizeof *n);
			n->dl = dl;
			n->path = path;
			if (bind(n, err, errlen) < 0) {
				gs_nvrtc_unload(n);
				gs_buf_release(&looked);
				free(why);
				return -1;
			}
			*out = n;
			gs_buf_release(&looked);
			free(why);
			return 0;
		}
		if (looked.len)
			gs_buf_puts(&looked, ", ");
		gs_buf_puts(&looked, dir ? dir : "the loader path");
	}
	snprintf(err, errlen,
		 "cannot load NVRTC (%s, %s or %s): looked in %s%s%s; set CUDA_HOME to a CUDA 12 or 13 toolkit",
		 sonames[0], sonames[1], sonames[2], looked.len ? gs_buf_str(&looked) : "nowhere",
		 why ? "; " : "", why ? why : "");
	gs_buf_release(&looked);
	free(why);
	return -1;
}

int gs_nvrtc_load(struct gs_nvrtc **out, char *err, size_t errlen)
{
	const char *home = getenv("CUDA_HOME");
	const char *path = getenv("CUDA_PATH");
	char *dirs[3];
	int rc;

	dirs[0] = home && *home ? gs_xasprintf("%s/lib64", home) : NULL;
	dirs[1] = path && *path ? gs_xasprintf("%s/lib64", path) : NULL;
	dirs[2] = gs_xstrdup("/usr/local/cuda/lib64");
	/* Each directory once, in the message as in the search. */
	for (size_t i = 1; i < 3; i++)
		for (size_t j = 0; j < i; j++)
			if (dirs[i] && dirs[j] && strcmp(dirs[i], dirs[j]) == 0) {
				free(dirs[i]);
				dirs[i] = NULL;
				break;
			}
	rc = gs_nvrtc_load_from(out, (const char *const *)dirs, 3, 1, err, errlen);
	for (size_t i = 0; i < 3; i++)
		free(dirs[i]);
	return rc;
}

void gs_nvrtc_unload(struct gs_nvrtc *n)
{
	if (!n)
		return;
	if (n->dl)
		dlclose(n->dl);
	free(n->archs);
	free(n->path);
	free(n);
}

const char *gs_nvrtc_version(const struct gs_nvrtc *n)
{
	return n->version;
}

const char *gs_nvrtc_path(const struct gs_nvrtc *n)
{
	return n->path;
}

size_t gs_nvrtc_archs(const struct gs_nvrtc *n, int *out, size_t max)
{
	size_t i;

	for (i = 0; i < n->narchs && i < max; i++)
		out[i] = n->archs[i];
	return n->narchs;
}

/* Append "what: NVRTC's message" to the log and give -1. */
static int fail(struct gs_nvrtc *n, struct gs_buf *log, const char *what, nvrtcResult r)
{
	if (log->len && log->p[log->len - 1] != '\n')
		gs_buf_putc(log, '\n');
	gs_buf_printf(log, "gsearch: %s: %s\n", what, n->nvrtcGetErrorString(r));
	return -1;
}

/* Copy one of the program's outputs; 0, or -1 with the log told. */
static int get_output(struct gs_nvrtc *n, nvrtcProgram prog, struct gs_buf *log, int ptx, char **out,
		      size_t *len)
{
	nvrtcResult r;
	size_t size = 0;

	r = ptx ? n->nvrtcGetPTXSize(prog, &size) : n->nvrtcGetCUBINSize(prog, &size);
	if (r != NVRTC_SUCCESS)
		return fail(n, log, ptx ? "nvrtcGetPTXSize" : "nvrtcGetCUBINSize", r);
	if (!ptx && size == 0) {
		gs_buf_puts(log, "gsearch: no cubin: the options name a virtual architecture;"
				 " pass -arch=sm_XX\n");
		return -1;
	}
	*out = gs_xmalloc(size + 1);
	r = ptx ? n->nvrtcGetPTX(prog, *out) : n->nvrtcGetCUBIN(prog, *out);
	if (r != NVRTC_SUCCESS)
		return fail(n, log, ptx ? "nvrtcGetPTX" : "nvrtcGetCUBIN", r);
	(*out)[size] = '\0';
	/* The PTX size counts its terminating NUL, the cubin's does not. */
	*len = ptx ? strnlen(*out, size) : size;
	return 0;
}

/* Puts text[0..n) before the log. */
static void log_prepend(struct gs_buf *log, const char *text, size_t n)
{
	struct gs_buf b = GS_BUF_INIT;
	gs_buf_put(&b, text, n);
	if (b.len && b.p[b.len - 1] != '\n')
		gs_buf_putc(&b, '\n');
	gs_buf_put(&b, log->p ? log->p : "", log->len);
	gs_buf_release(log);
	*log = b;
}

/* With ptxas' -v report asked for, NVRTC's log of a kernel that ptxas
 * refuses holds the report and not the error that says why (CUDA 12 and
 * 13: "uses too much shared data" is lost).  Compile again without the
 * report for the error, and put it before the report. */
static void why_not_compiled(struct gs_nvrtc *n, const struct gs_compile_in *in, struct gs_buf *log)
{
	const char **opts = gs_xcalloc(in->nopts + 1, sizeof(*opts));
	size_t no = 0, size = 0;
	for (size_t i = 0; i < in->nopts; i++)
		if (strcmp(in->opts[i], "--ptxas-options=-v") && strcmp(in->opts[i], "-Xptxas=-v"))
			opts[no++] = in->opts[i];
	nvrtcProgram prog = NULL;
	if (no < in->nopts &&
	    n->nvrtcCreateProgram(&prog, in->source, in->name ? in->name : "kernel.cu", 0, NULL,
				  NULL) == NVRTC_SUCCESS) {
		for (size_t i = 0; i < in->nnames; i++)
			n->nvrtcAddNameExpression(prog, in->name_exprs[i]);
		if (n->nvrtcCompileProgram(prog, (int)no, opts) != NVRTC_SUCCESS &&
		    n->nvrtcGetProgramLogSize(prog, &size) == NVRTC_SUCCESS && size > 1) {
			char *text = gs_xmalloc(size);
			if (n->nvrtcGetProgramLog(prog, text) == NVRTC_SUCCESS &&
			    gs_complog_has_error(text))
				log_prepend(log, text, strnlen(text, size));
			free(text);
		}
		n->nvrtcDestroyProgram(&prog);
	}
	free(opts);
}

int gs_nvrtc_compile(struct gs_nvrtc *n, const struct gs_compile_in *in, struct gs_compile_out *out)
{
	struct gs_buf log = GS_BUF_INIT;
	nvrtcProgram prog = NULL;
	nvrtcResult r;
	double t0 = gs_now();
	size_t i, size = 0;
	int rc = 0;

	memset(out, 0, sizeof *out);
	if (in->nnames)
		out->lowered = gs_xcalloc(in->nnames, sizeof *out->lowered);
	if (in->nopts > 0x7fffffff) {
		gs_buf_puts(&log, "gsearch: too many NVRTC options\n");
		rc = -1;
		goto done;
	}
	r = n->nvrtcCreateProgram(&prog, in->source, in->name ? in->name : "kernel.cu", 0, NULL, NULL);
	if (r != NVRTC_SUCCESS) {
		prog = NULL;
		rc = fail(n, &log, "nvrtcCreateProgram", r);
		goto done;
	}
	for (i = 0; i < in->nnames; i++) {
		r = n->nvrtcAddNameExpression(prog, in->name_exprs[i]);
		if (r != NVRTC_SUCCESS) {
			rc = fail(n, &log, "nvrtcAddNameExpression", r);
			goto done;
		}
	}
	r = n->nvrtcCompileProgram(prog, (int)in->nopts, in->opts);
	if (n->nvrtcGetProgramLogSize(prog, &size) == NVRTC_SUCCESS && size > 1) {
		char *text = gs_xmalloc(size);

		if (n->nvrtcGetProgramLog(prog, text) == NVRTC_SUCCESS)
			gs_buf_put(&log, text, strnlen(text, size));
		free(text);
	}
	/* The source or an option (a -maxrregcount value, an -arch this NVRTC
	 * lacks) belongs to the variant: a compile error, not a broken NVRTC. */
	if (r == NVRTC_ERROR_COMPILATION || r == NVRTC_ERROR_INVALID_OPTION) {
		if (r == NVRTC_ERROR_INVALID_OPTION && !log.len)
			gs_buf_printf(&log, "nvrtc: %s\n", n->nvrtcGetErrorString(r));
		if (r == NVRTC_ERROR_COMPILATION && !gs_complog_has_error(gs_buf_str(&log)))
			why_not_compiled(n, in, &log);
		char why[512];
		if (r == NVRTC_ERROR_COMPILATION &&
		    gs_complog_define_clash(gs_buf_str(&log), in->opts, in->nopts, why, sizeof why)) {
			/* the cause first: the header's errors that follow are many
			 * and name neither the knob nor the space */
			char own[sizeof why + 16];
			int k = snprintf(own, sizeof own, GS_COMPLOG_OWN "%s", why);
			log_prepend(&log, own, k < (int)sizeof own ? (size_t)k : sizeof own - 1);
		}
		goto done;
	}
	if (r != NVRTC_SUCCESS) {
		rc = fail(n, &log, "nvrtcCompileProgram", r);
		goto done;
	}
	for (i = 0; i < in->nnames; i++) {
		const char *lowered = NULL;

		r = n->nvrtcGetLoweredName(prog, in->name_exprs[i], &lowered);
		if (r != NVRTC_SUCCESS || !lowered) {
			rc = fail(n, &log, "nvrtcGetLoweredName", r);
			goto done;
		}
		out->lowered[i] = gs_xstrdup(lowered);
	}
	if (in->want_ptx && get_output(n, prog, &log, 1, &out->ptx, &out->ptx_len) < 0) {
		rc = -1;
		goto done;
	}
	if (in->want_cubin) {
		char *cubin = NULL;

		rc = get_output(n, prog, &log, 0, &cubin, &out->cubin_len);
		out->cubin = cubin;
		if (rc < 0)
			goto done;
	}
	out->ok = 1;
done:
	if (prog)
		n->nvrtcDestroyProgram(&prog);
	out->log = log.p ? gs_buf_detach(&log) : gs_xstrdup("");
	out->seconds = gs_now() - t0;
	if (rc < 0)
		out->ok = 0;
	return rc;
}

void gs_compile_out_release(struct gs_compile_out *out, size_t nnames)
{
	size_t i;

	if (out->lowered)
		for (i = 0; i < nnames; i++)
			free(out->lowered[i]);
	free(out->lowered);
	free(out->log);
	free(out->ptx);
	free(out->cubin);
	memset(out, 0, sizeof *out);
}
