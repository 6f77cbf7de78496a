/* worker.c — `gsearch worker`: one device, measuring what the supervisor
 * sends (sched/proto.h).  Started by `gsearch run`, not by people. */
#include "cmd/cmd.h"
#include "dev/measure.h"
#include "space/enum.h"
#include "sched/proto.h"
#include "util/frame.h"

#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char gs_help_worker[] =
	"usage: gsearch worker [--prewarm ORDINAL]\n"
	"\n"
	"Internal: a device worker of `gsearch run`.  Reads setup and measure\n"
	"requests on stdin and writes results on stdout (see driver/sched/proto.h).\n"
	"--prewarm: initialize CUDA and GPU ORDINAL's context while the setup is\n"
	"on its way (driver/sched/prespawn.h).\n";

static int send2(const char *a, const char *b)
{
	const char *s[2] = { a, b };
	size_t len[2] = { strlen(a), strlen(b) };
	return gs_frame_send(1, s, len, 2);
}

/* Set env's parameters from {"TILE":16,...}: each to the domain value equal
 * to it, so types stay exactly those of the space.  0 or -1. */
static int env_from_json(const struct gs_space *sp, const char *text, struct gs_value *env,
			 struct gs_arena *a, char *err, size_t errlen)
{
	json_error_t je;
	json_t *o = json_loads(text, 0, &je);
	if (!o || !json_is_object(o)) {
		snprintf(err, errlen, "bad parameters '%s'", text);
		json_decref(o);
		return -1;
	}
	for (size_t k = 0; k < sp->nparams; k++) {
		const struct gs_param *pa = &sp->params[k];
		json_t *v = json_object_get(o, pa->name);
		struct gs_value want;
		if (json_is_integer(v))
			want = gs_int(json_integer_value(v));
		else if (json_is_real(v))
			want = gs_float(json_real_value(v));
		else if (json_is_boolean(v))
			want = gs_bool(json_is_true(v));
		else if (json_is_string(v))
			want = gs_str_new(a, json_string_value(v), json_string_length(v));
		else if (json_is_null(v))
			want = gs_none();
		else {
			snprintf(err, errlen, "parameter '%s' missing from '%s'", pa->name, text);
			json_decref(o);
			return -1;
		}
		size_t j;
		for (j = 0; j < pa->nvals; j++)
			if (gs_value_eq(pa->vals[j], want))
				break;
		if (j == pa->nvals) {
			snprintf(err, errlen, "'%s' has no value like the one in '%s'", pa->name, text);
			json_decref(o);
			return -1;
		}
		env[pa->slot] = pa->vals[j];
	}
	json_decref(o);
	return 0;
}

/* The stopping rule and the cache directory from the setup's TIMING_JSON. */
static int timing_from_json(const char *text, struct gs_stop_policy *p, char **cache,
			    int *sample, double *host_limit_s, char *err, size_t errlen)
{
	json_error_t je;
	json_t *o = json_loads(text, 0, &je);
	if (!json_is_object(o)) {
		snprintf(err, errlen, "bad timing options '%s'", text);
		json_decref(o);
		return -1;
	}
	json_t *v;
	if (json_is_number(v = json_object_get(o, "precision")))
		p->precision = json_number_value(v);
	if (json_is_number(v = json_object_get(o, "focus")))
		p->focus = json_number_value(v);
	if (json_is_number(v = json_object_get(o, "max_time")))
		p->max_time_s = json_number_value(v);
	if (json_is_integer(v = json_object_get(o, "emu_sample")))
		*sample = (int)json_integer_value(v);
	if (json_is_number(v = json_object_get(o, "emu_host_s")))
		*host_limit_s = json_number_value(v);
	if (json_is_string(v = json_object_get(o, "cache")))
		*cache = gs_xstrdup(json_string_value(v));
	json_decref(o);
	return 0;
}

/* Which grid of a T1 file the supervisor launched (in the timing options,
 * which are JSON and so take a new key without a new protocol). */
static enum gs_t1_grid t1_grid_from_json(const char *text)
{
	json_t *o = json_loads(text, 0, NULL);
	json_t *v = json_object_get(o, "t1_grid");
	enum gs_t1_grid g = json_is_string(v) && !strcmp(json_string_value(v), "global")
				    ? GS_T1_GRID_GLOBAL
				    : GS_T1_GRID_PROBLEM;
	json_decref(o);
	return g;
}

/* Started before its setup (sched/prespawn.h): the driver and a context
 * get ready while the supervisor still works out the sweep. */
struct prewarm {
	int ordinal;
	pthread_t th;
	int running;
	/* for before_open: the inputs filled while the driver starts */
	const struct gs_space *sp;
	struct gs_prefill *pf;
};

/* The driver's start goes on while the setup is read, the reference
 * compiled and the inputs filled: joined before the device is needed, or
 * before any return. */
static void prewarm_join(struct prewarm *p)
{
	if (p->running) {
		pthread_join(p->th, NULL);
		p->running = 0;
	}
}

static void *prewarm(void *arg)
{
	struct prewarm *p = arg;
	gs_cuda_prewarm(p->ordinal);
	gs_trace("worker: prewarmed");
	return NULL;
}

/* gs_measure_opts.before_open: NVRTC already compiles the reference and
 * the comparison kernels on another thread */
static void before_open(void *arg)
{
	struct prewarm *p = arg;
	char err[512];
	/* a fill that fails leaves none: the setup fills them itself and says why */
	if (p->pf) {
		(void)gs_measure_prefill(p->sp, p->pf, err, sizeof err);
		gs_trace("worker: inputs filled");
	}
	prewarm_join(p);
}

/* The setup's space (proto.h): the version checked, the space parsed from
 * the text the setup carries, and with emulated sampling its twin at the
 * real size.  NULL after sending why (fatal). */
static struct gs_space *setup_space(const struct gs_frame *f, struct gs_space **real_sp)
{
	if (strcmp(f->s[1], GS_PROTO_VERSION)) {
		char msg[256];
		snprintf(msg, sizeof msg, "protocol %s, this worker speaks %s", f->s[1], GS_PROTO_VERSION);
		send2("fatal", msg);
		return NULL;
	}
	struct gs_space_opts so = { .emu = atoi(f->s[3]), .t1_grid = t1_grid_from_json(f->s[8]) };
	uint32_t ns = (uint32_t)strtoul(f->s[9], NULL, 10);
	if (f->n < 10 + ns) {
		send2("fatal", "truncated setup");
		return NULL;
	}
	so.sets = (const char *const *)f->s + 10;
	so.nsets = ns;
	/* the space and its kernels come with the setup, never from the disk */
	uint32_t k = 10 + ns;
	uint32_t nfiles = f->n >= k + 2 ? (uint32_t)strtoul(f->s[k + 1], NULL, 10) : 0;
	if (f->n < k + 2 || nfiles > (f->n - k - 2) / 2 || f->n != k + 2 + 2 * nfiles) {
		send2("fatal", "truncated setup");
		return NULL;
	}
	struct gs_file_text *given = gs_xcalloc(nfiles + 1, sizeof(*given));
	for (uint32_t i = 0; i < nfiles; i++)
		given[i] = (struct gs_file_text){ f->s[k + 2 + 2 * i], f->s[k + 3 + 2 * i],
						  f->len[k + 3 + 2 * i] };
	so.files = given;
	so.nfiles = nfiles;
	struct gs_diag d = GS_DIAG_INIT;
	struct gs_space *sp =
		gs_space_parse(gs_source_new(f->s[2], f->s[k], f->len[k]), &so, &d);
	/* timed at the real size: the same space without its emulator sizes */
	struct gs_space_opts ro = so;
	ro.emu = 0;
	*real_sp = so.emu && strstr(f->s[8], "\"emu_sample\"")
		? gs_space_parse(gs_source_new(f->s[2], f->s[k], f->len[k]), &ro, &d) : NULL;
	free(given);
	if (!sp || d.errors) {
		send2("fatal", "the space has errors (run `gsearch check`)");
		gs_diag_release(&d);
		gs_space_free(sp);
		return NULL;
	}
	gs_diag_release(&d);
	return sp;
}

/* Measures what the supervisor sends until its end of the pipe closes:
 * GS_EXIT_OK, or GS_EXIT_ERRORS on a message that is not a measure. */
static int serve(struct gs_measure *m, const struct gs_space *sp, struct gs_value *env,
		 struct gs_arena *a)
{
	int status = GS_EXIT_OK;
	struct gs_frame f;
	char err[2048];
	double waited = 0, tw = gs_now();
	unsigned long nwait = 0;
	while (gs_frame_recv(0, &f) == 0) {
		waited += gs_now() - tw;
		nwait++;
		if (f.n < 6 || strcmp(f.s[0], "measure")) {
			gs_frame_free(&f);
			status = GS_EXIT_ERRORS;
			break;
		}
		double best_ms = strtod(f.s[3], NULL);
		uint32_t ne = (uint32_t)strtoul(f.s[4], NULL, 10);
		if (f.n != 6 + ne) {
			gs_frame_free(&f);
			status = GS_EXIT_ERRORS;
			break;
		}
		struct gs_result r;
		memcpy(env, sp->env0, sp->nslots * sizeof(*env));
		if (env_from_json(sp, f.s[2], env, a, err, sizeof err) < 0) {
			memset(&r, 0, sizeof r);
			snprintf(r.status, sizeof r.status, "launch_error");
			snprintf(r.error, sizeof r.error, "%.500s", err);
		} else {
			gs_measure_config(m, env, f.s[5 + ne], f.len[5 + ne], (const char *const *)f.s + 5,
					  ne, best_ms, &r);
		}
		char *rj = gs_proto_result_encode(&r);
		const char *s[3] = { "result", f.s[1], rj };
		size_t len[3] = { 6, strlen(f.s[1]), strlen(rj) };
		int wr = gs_frame_send(1, s, len, 3);
		free(rj);
		int sticky = r.sticky;
		gs_result_release(&r);
		gs_frame_free(&f);
		if (wr < 0 || sticky)
			break; /* a broken context cannot measure again */
		tw = gs_now();
	}
	if (getenv("GSEARCH_PROFILE") && nwait)
		fprintf(stderr, "gsearch: worker waited %.3f ms per measure for it\n", 1e3 * waited / nwait);
	return status;
}

int gs_cmd_worker(int argc, char **argv)
{
	if (gs_die_with_parent() < 0)
		return GS_EXIT_ERRORS;
	struct prewarm pw = { .ordinal = -1 };
	if (argc >= 3 && !strcmp(argv[1], "--prewarm")) {
		pw.ordinal = atoi(argv[2]);
		pw.running = pthread_create(&pw.th, NULL, prewarm, &pw) == 0;
	}
	int prewarmed = pw.running;
	struct gs_frame f;
	double t0 = gs_now();
	gs_trace("worker: started");
	struct gs_nvrtc *nvrtc = NULL; /* else loaded by the setup if it compiles */
	char lerr[512];
	/* a prespawned worker will compile its reference: NVRTC loads while
	 * the setup is on its way */
	if (prewarmed && gs_nvrtc_load(&nvrtc, lerr, sizeof lerr) < 0)
		nvrtc = NULL; /* the setup loads it again and says why */
	int got = gs_frame_recv(0, &f);
	if (got < 0 || f.n < 10 || strcmp(f.s[0], "setup")) {
		prewarm_join(&pw);
		/* a prespawned worker the run did not need ends here, quietly */
		if (got < 0 && prewarmed) {
			gs_nvrtc_unload(nvrtc);
			return GS_EXIT_OK;
		}
		send2("fatal", "expected a setup message");
		return GS_EXIT_ERRORS;
	}
	struct gs_space *real_sp = NULL;
	struct gs_space *sp = setup_space(&f, &real_sp);
	if (!sp)
		goto refuse;
	struct gs_diag d = GS_DIAG_INIT;
	char err[2048] = "";
	struct gs_arena a = GS_ARENA_INIT;
	struct gs_value *env = gs_xmalloc(sp->nslots * sizeof(*env));
	memcpy(env, sp->env0, sp->nslots * sizeof(*env));
	struct gs_vm vm;
	gs_vm_init(&vm);
	int failed;
	struct gs_measure_opts mo = { .arch = f.s[4], .flush_l2 = atoi(f.s[5]),
				      .stop = gs_stop_default };
	char *cache = NULL;
	struct gs_space *real = NULL;
	if (timing_from_json(f.s[8], &mo.stop, &cache, &mo.sample, &mo.host_limit_s, err,
			     sizeof err) < 0) {
		send2("fatal", err);
		goto refuse;
	}
	mo.cache_dir = cache;
	struct gs_measure *m = NULL;
	/* the device: a GPU's ordinal, or emu:PROFILE-INDEX:THREADS */
	const struct gs_dev_ops *ops = &gs_dev_cuda;
	int ordinal = atoi(f.s[6]);
	if (!strncmp(f.s[6], "emu:", 4)) {
		int threads = 0;
		ops = &gs_dev_emu;
		if (sscanf(f.s[6] + 4, "%d:%d", &ordinal, &threads) < 1)
			ordinal = -1;
		gs_emu_set_threads(threads);
	}
	if (mo.sample > 0 && real_sp && ops == &gs_dev_emu) {
		real = real_sp;
		mo.real = real;
		mo.real_only = 1;
		for (size_t i = 0; i < sp->nproblems; i++)
			mo.real_only &= sp->problems[i].emu_expr == NULL;
	}
	struct gs_prefill pf = { NULL, 0 };
	if (pw.running && ops == &gs_dev_cuda) {
		pw.sp = sp;
		pw.pf = &pf;
		mo.prefill = &pf;
	}
	mo.before_open = before_open;
	mo.before_open_arg = &pw;
	if (env_from_json(sp, f.s[7], env, &a, err, sizeof err) == 0 &&
	    gs_config_check(sp, env, &vm, &failed, &d) >= 0)
		m = gs_measure_setup(sp, ops, ordinal, &nvrtc, env, &mo, err, sizeof err);
	prewarm_join(&pw);
	gs_prefill_release(&pf);
	gs_diag_release(&d);
	gs_frame_free(&f);
	int status = GS_EXIT_ERRORS;
	if (!m) {
		/* a setup that fails (a buffer the device has no room for, say)
		 * leaves nothing behind either */
		send2("fatal", err[0] ? err : "setup failed");
		goto release;
	}
	gs_trace("worker: set up");
	const struct gs_devinfo *di = gs_measure_devinfo(m);
	char info[640];
	snprintf(info, sizeof info, "{\"name\":\"%s\",\"cc\":\"%d.%d\",\"sms\":%d,\"driver\":\"%s\","
		 "\"setup_s\":%.6f,\"ref_cached\":%s}",
		 di->name, di->cc_major, di->cc_minor, di->sms, di->driver, gs_now() - t0,
		 gs_measure_ref_cached(m) ? "true" : "false");
	send2("ready", info);
	status = serve(m, sp, env, &a);
	gs_trace("worker: input closed");
	gs_measure_release(m);
release:
	gs_nvrtc_unload(nvrtc);
	free(cache);
	gs_vm_release(&vm);
	free(env);
	gs_arena_release(&a);
	gs_space_free(sp);
	gs_space_free(real_sp);
	if (m)
		gs_trace("worker: released");
	return status;
refuse: /* the setup, before the device: nothing to release but the driver's start */
	prewarm_join(&pw);
	gs_nvrtc_unload(nvrtc);
	return GS_EXIT_ERRORS;
}
