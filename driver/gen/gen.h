/* gen.h — variant generation: NVRTC (loaded with dlopen), cubin resources.
 *
 * Ownership: gs_nvrtc is loaded once and shared by all compile threads (its
 * functions are thread-safe); gs_compile_out owns its buffers until
 * gs_compile_out_release. */
#ifndef GS_GEN_H
#define GS_GEN_H

#include <stddef.h>

struct gs_nvrtc;

/* Find and load NVRTC: $CUDA_HOME/lib64, $CUDA_PATH/lib64, /usr/local/cuda/lib64,
 * then the loader's path, for the sonames CUDA 13 and 12 ship.  0, or -1 with
 * a message in err naming where it looked. */
int gs_nvrtc_load(struct gs_nvrtc **out, char *err, size_t errlen);
/* The same search over the given directories only (NULL or "" entries are
 * skipped), then the loader's path if loader_path is set. */
int gs_nvrtc_load_from(struct gs_nvrtc **out, const char *const *dirs, size_t ndirs,
		       int loader_path, char *err, size_t errlen);
void gs_nvrtc_unload(struct gs_nvrtc *n);
/* The file dlopen was given, e.g. "/usr/local/cuda/lib64/libnvrtc.so.13". */
const char *gs_nvrtc_path(const struct gs_nvrtc *n);
/* "13.0": part of every variant's cache key. */
const char *gs_nvrtc_version(const struct gs_nvrtc *n);
/* Architectures this NVRTC can target, e.g. {75, 80, 86, 89, 90, ...}: copies
 * up to max of them, returns how many there are. */
size_t gs_nvrtc_archs(const struct gs_nvrtc *n, int *out, size_t max);

struct gs_compile_in {
	const char *name;              /* file name NVRTC reports errors against */
	const char *source;            /* NUL-terminated */
	const char *const *opts;       /* NVRTC options: -D..., -arch=sm_90, -I..., ... */
	size_t nopts;
	const char *const *name_exprs; /* kernel names: "matmul", "matmul<16, 4>" */
	size_t nnames;
	int want_ptx;
	int want_cubin;    /* needs -arch=sm_XX; one compile then gives PTX and cubin */
};

struct gs_compile_out {
	int ok;            /* compiled */
	char *log;         /* NVRTC's log (ptxas -v output included), may be "" */
	char *ptx;
	size_t ptx_len;
	void *cubin;
	size_t cubin_len;
	char **lowered;    /* per name expression: the mangled entry name */
	double seconds;    /* wall time of the whole compile, monotonic clock */
	int timed_out;     /* the compile server was stopped at the time limit */
	int server_died;   /* the compile server died on it twice: not the variant's
			    * outcome, nothing known of it (gs_nvrtc_compile_isolated) */
	int cancelled;     /* stopped by gs_isolate_cancel: nothing known of it */
};

/* Thread-safe.  Returns 0 when NVRTC ran (out->ok says whether the source
 * compiled; an option NVRTC rejects counts as not compiled), -1 when NVRTC
 * itself failed or want_cubin was set without a real -arch (message in
 * out->log).  out->log is never NULL afterwards; release out either way. */
int gs_nvrtc_compile(struct gs_nvrtc *n, const struct gs_compile_in *in, struct gs_compile_out *out);
void gs_compile_out_release(struct gs_compile_out *out, size_t nnames);

/* The same compile in a `gsearch compile-server` child, an idle one or one
 * started for it: NVRTC serializes compiles within one process, so parallel
 * compiling needs processes.  A child that dies mid-compile (killed from
 * outside, out of memory) is replaced and the variant sent to a fresh one;
 * when that one dies on it too, not compiled, out->server_died set and why
 * in out->log. */
/* A compile that takes more than timeout_s seconds (> 0) is stopped with its
 * server: not compiled, out->timed_out set, "timed out ..." in out->log. */
int gs_nvrtc_compile_isolated(const struct gs_compile_in *in, struct gs_compile_out *out,
			      double timeout_s);
/* At most n compiles in servers at once, the rest waiting for an idle one
 * (0, the default: any number): the threads of the early compiles and the
 * sweep's then share n servers.  Any thread, any time. */
void gs_isolate_limit(unsigned n);
/* How many compile servers this process has started. */
size_t gs_isolate_started(void);
/* End every compile server (their threads must be idle). */
void gs_isolate_shutdown(void);
/* Tell every compile server to exit, without waiting: when the last compile
 * is done, so that their exits overlap the measurements instead of following
 * them.  A later compile starts a new server. */
void gs_isolate_release(void);
/* Stop every compile in a server now and any compile asked for later, each
 * ending with out->cancelled set (not compiled, nothing known, not tried
 * again): a run's time budget is over.  The servers compiling are killed,
 * the idle ones left to gs_isolate_shutdown, which also ends the
 * cancellation.  Any thread, any time. */
void gs_isolate_cancel(void);
/* The child's loop: requests on `in`, responses on `out`, until EOF. */
int gs_compile_server(struct gs_nvrtc *n, int in, int out);

/* Resource usage of one kernel, from the cubin ELF (.nv.info sections and
 * .nv.shared.<kernel>) and the ptxas log. */
struct gs_resources {
	int registers;
	int local_bytes;   /* stack frame per thread (EIATTR FRAME_SIZE) */
	int stack_bytes;   /* per thread, callees included (EIATTR MIN_STACK_SIZE;
			    * ptxas' "cumulative stack size"), >= local_bytes */
	int static_smem;   /* the kernel's own static shared memory (no reserved 1 KB) */
	int max_threads;   /* from __launch_bounds__ / maxntid, 0 if none */
	int barriers;
	int const_bytes;   /* user __constant__ bytes (bank 3), 0 if unknown */
	int spill_stores;  /* bytes, from the ptxas log; -1 if unknown */
	int spill_loads;
};

/* 0, or -1 with a message in err (not a CUDA ELF, truncated, corrupt, no such
 * entry).  Never reads outside [cubin, cubin + len).  spill_* are set to -1:
 * the cubin does not record them. */
int gs_cubin_resources(const void *cubin, size_t len, const char *entry, struct gs_resources *r,
		       char *err, size_t errlen);
/* The machine code of `entry` (its .text.<entry> section, inside the cubin)
 * and the architecture it is for: 0, or -1 with a message in err. */
int gs_cubin_code(const void *cubin, size_t len, const char *entry, const unsigned char **code,
		  size_t *n, int *arch, char *err, size_t errlen);
/* The cubin's real architecture (90 for sm_90), or -1 if it is no CUDA ELF. */
int gs_cubin_arch(const void *cubin, size_t len);
/* Fill registers/spills/smem of `entry` from a ptxas -v log (NVRTC's log with
 * --ptxas-options=-v).  0 if the kernel's lines were found, -1 otherwise.
 * Sets registers, barriers, static_smem, local_bytes, stack_bytes,
 * spill_stores and spill_loads; leaves the other fields as they were. */
int gs_ptxas_log_resources(const char *log, const char *entry, struct gs_resources *r);

/* complog.c: a compile log for people (results malloc'd; the caller frees).
 * The log with ptxas' error lines moved first, the rest in its order. */
char *gs_complog_errors_first(const char *log);
/* Does the log hold an error line (ptxas' or NVRTC's)? */
int gs_complog_has_error(const char *log);
/* 1 when ptxas refused the kernel for exceeding a limit of the target
 * (too much shared, local, constant or parameter data, too many
 * registers), with the resource and both figures in why ("51200 bytes of
 * static shared memory; sm_90 allows 49152 (...)"); 0 otherwise. */
int gs_complog_limit(const char *log, const char *arch, char *why, size_t n);
/* 1 when an error lies in NVRTC's built-in header on a line that holds,
 * as a whole word, the name of one of the -D defines in opts[0..nopts):
 * a knob named as an identifier the header uses (T), replaced there by the
 * preprocessor, so that no variant compiles whatever its source.  why
 * names the define and the header's line; 0 otherwise. */
int gs_complog_define_clash(const char *log, const char *const *opts, size_t nopts, char *why,
			    size_t n);
/* A cause gsearch found puts a line of its own first in the log, after
 * this prefix; gs_complog_own returns that line (*len bytes, no newline),
 * or NULL. */
#define GS_COMPLOG_OWN "gsearch: "
const char *gs_complog_own(const char *log, int *len);

#endif
