/* dev_smoke.c — the CUDA backend end to end on GPU 0: compile the kernels of
 * tests/gpu/ with NVRTC for the device's architecture, then load, read
 * attributes and occupancy, upload, launch, time, download and check, and
 * provoke each failure class (invalid, launch error, sticky).  Prints one
 * PASS/FAIL/SKIP line per check and "N passed, M failed"; exit status 1 if
 * anything failed, 2 if there is no GPU.
 *
 *   build/gpu/dev_smoke [KERNEL_DIR]      (default tests/gpu; `make test-gpu-smoke`)
 *
 * The hang check runs first, in a child process, before this process
 * touches the driver (a process that initialized CUDA cannot hand it to a
 * forked child).  The sticky check runs last: after it the context is
 * unusable. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dev/dev.h"
#include "gen/gen.h"
#include "util/util.h"

static int passed, failed;
static const struct gs_dev_ops *ops = &gs_dev_cuda;
static const char *kdir = "tests/gpu";
static struct gs_nvrtc *nvrtc;
static char arch[16];

static void report(int ok, const char *name, const char *fmt, ...) GS_PRINTF(3, 4);
static void report(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%s %s: ", ok ? "PASS" : "FAIL", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

static const char *rc_name(int rc)
{
	switch (rc) {
	case 0: return "ok";
	case GS_DEV_FAIL: return "GS_DEV_FAIL";
	case GS_DEV_INVALID: return "GS_DEV_INVALID";
	case GS_DEV_LAUNCH: return "GS_DEV_LAUNCH";
	case GS_DEV_STICKY: return "GS_DEV_STICKY";
	}
	return "?";
}

/* Pick the newest architecture NVRTC has that the device runs. */
static int setup_arch(const struct gs_devinfo *info, char *err, size_t errlen)
{
	int archs[128], want = info->cc_major * 10 + info->cc_minor, best = 0;
	size_t na;

	if (!nvrtc && gs_nvrtc_load(&nvrtc, err, errlen) < 0)
		return -1;
	na = gs_nvrtc_archs(nvrtc, archs, 128);
	for (size_t i = 0; i < na && i < 128; i++)
		if (archs[i] <= want && archs[i] > best)
			best = archs[i];
	if (!best) {
		snprintf(err, errlen, "NVRTC %s has no architecture for sm_%d", gs_nvrtc_version(nvrtc),
			 want);
		return -1;
	}
	snprintf(arch, sizeof arch, "sm_%d", best);
	return 0;
}

/* Compile KDIR/<name>.cu, kernel `name`; the cubin and lowered name are
 * returned in out (released by the caller).  0 or -1 after a FAIL line. */
static int compile(const char *name, struct gs_compile_out *out)
{
	char *path = gs_xasprintf("%s/%s.cu", kdir, name), *src = NULL;
	char archopt[32];
	size_t len;
	const char *opts[2];
	struct gs_compile_in in = { 0 };
	int rc;

	memset(out, 0, sizeof *out);
	if (gs_read_file(path, &src, &len) < 0) {
		report(0, "compile", "cannot read %s", path);
		free(path);
		return -1;
	}
	snprintf(archopt, sizeof archopt, "-arch=%s", arch);
	opts[0] = archopt;
	opts[1] = "-lineinfo";
	in.name = path;
	in.source = src;
	in.opts = opts;
	in.nopts = 2;
	in.name_exprs = &name;
	in.nnames = 1;
	in.want_cubin = 1;
	rc = gs_nvrtc_compile(nvrtc, &in, out);
	if (rc < 0 || !out->ok) {
		report(0, "compile", "%s: %s", path, out->log ? out->log : "?");
		gs_compile_out_release(out, 1);
		rc = -1;
	}
	free(src);
	free(path);
	return rc;
}

struct kern {
	struct gs_module *mod;
	struct gs_func *f;
	struct gs_funcattr attr;
};

/* Compile, load, look up.  0 or -1 after a FAIL line. */
static int load(struct gs_dev *d, const char *name, struct kern *k)
{
	struct gs_compile_out out;
	int rc;

	if (compile(name, &out) < 0)
		return -1;
	rc = ops->module_load(d, out.cubin, out.cubin_len, &k->mod);
	if (rc == 0)
		rc = ops->function(d, k->mod, out.lowered[0], &k->f, &k->attr);
	if (rc < 0)
		report(0, "load", "%s: %s: %s", name, rc_name(rc), ops->errmsg(d));
	gs_compile_out_release(&out, 1);
	return rc < 0 ? -1 : 0;
}

/* A kernel that never ends: the host's wait never returns either, so a
 * supervisor's timer must end the worker, and killing it must free the GPU
 * for the next process (the parent opens the device right after). */
static void check_hang(void)
{
	int fds[2], status;
	char c = 0;
	pid_t pid;

	fflush(stdout);
	if (pipe(fds) < 0) {
		report(0, "hang", "pipe failed");
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct gs_devinfo info;
		struct gs_compile_out out;
		struct gs_dev *d;
		struct gs_module *m;
		struct gs_func *f;
		struct gs_funcattr a;
		uint64_t flag;
		char err[512];
		unsigned g[3] = { 1, 1, 1 }, b[3] = { 32, 1, 1 };
		void *args[1] = { &flag };

		close(fds[0]);
		if (ops->info(0, &info, err, sizeof err) < 0 || setup_arch(&info, err, sizeof err) < 0 ||
		    compile("hang", &out) < 0 || ops->open(0, &d, NULL, err, sizeof err) < 0 ||
		    ops->alloc(d, 4, &flag) < 0 || ops->fill(d, flag, 0, 4) < 0 ||
		    ops->module_load(d, out.cubin, out.cubin_len, &m) < 0 ||
		    ops->function(d, m, out.lowered[0], &f, &a) < 0 ||
		    ops->launch(d, f, g, b, 0, args) < 0)
			_exit(3);
		if (write(fds[1], "L", 1) != 1)
			_exit(5);
		ops->sync(d); /* never returns */
		_exit(4);
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1) {
		waitpid(pid, &status, 0);
		report(0, "hang", "the child could not launch (exit status %d)",
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		close(fds[0]);
		return;
	}
	close(fds[0]);
	sleep(3);
	if (waitpid(pid, &status, WNOHANG) == pid) {
		report(0, "hang", "the child exited (status %d) instead of hanging",
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return;
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	report(1, "hang", "sync still waiting 3 s after the launch; child killed");
}

/* saxpy: the whole correct path, const_copy, fill, free_mem. */
static void check_saxpy(struct gs_dev *d, const struct gs_devinfo *info)
{
	enum { N = 1 << 20 };
	struct kern k;
	float *x, *y, *res, coef[4] = { 3.0f, 0, 0, 0 };
	uint64_t dx, dy, dcoef;
	int nn = N, blocks = 0, rc, rc2, bad;
	unsigned g[3] = { N / 256, 1, 1 }, b[3] = { 256, 1, 1 };
	void *args[3] = { &dx, &dy, &nn };
	double ms = -1;

	if (load(d, "saxpy", &k) < 0)
		return;
	x = gs_xmalloc(N * sizeof *x);
	y = gs_xmalloc(N * sizeof *y);
	res = gs_xmalloc(N * sizeof *res);
	for (int i = 0; i < N; i++) {
		x[i] = (float)(i % 1000);
		y[i] = (float)(i % 7);
	}
	report(k.attr.registers > 0 && k.attr.max_threads > 0, "attributes",
	       "saxpy: %d registers, %d B static shared, %d B local, %d B const, max %d threads",
	       k.attr.registers, k.attr.static_smem, k.attr.local_bytes, k.attr.const_bytes,
	       k.attr.max_threads);
	rc = ops->occupancy(d, k.f, 256, 0, &blocks, NULL);
	report(rc == 0 && blocks > 0 && blocks <= info->max_blocks_sm, "occupancy",
	       "saxpy at 256 threads: %d blocks/SM", blocks);
	rc = ops->alloc(d, N * sizeof(float), &dx);
	if (!rc)
		rc = ops->alloc(d, N * sizeof(float), &dy);
	if (!rc)
		rc = ops->alloc(d, sizeof coef, &dcoef);
	if (!rc)
		rc = ops->upload(d, dx, x, N * sizeof(float));
	if (!rc)
		rc = ops->upload(d, dy, y, N * sizeof(float));
	if (!rc)
		rc = ops->upload(d, dcoef, coef, sizeof coef);
	report(rc == 0, "upload", "%s", rc ? ops->errmsg(d) : "x, y, coef");
	rc = ops->const_copy(d, k.mod, "coef", dcoef, sizeof coef);
	report(rc == 0, "const_copy", "%s", rc ? ops->errmsg(d) : "coef[4] = {3, 0, 0, 0}");
	rc = ops->const_copy(d, k.mod, "coef", dcoef, 64);
	report(rc == GS_DEV_LAUNCH, "const_copy too large", "%s: %s", rc_name(rc), ops->errmsg(d));
	rc = ops->const_copy(d, k.mod, "nosuch", dcoef, 4);
	report(rc == GS_DEV_LAUNCH, "const_copy unknown symbol", "%s: %s", rc_name(rc),
	       ops->errmsg(d));
	rc = ops->timer_start(d);
	if (!rc)
		rc = ops->launch(d, k.f, g, b, 0, args);
	if (!rc)
		rc = ops->timer_stop(d, &ms);
	if (!rc)
		rc = ops->sync(d);
	if (!rc)
		rc = ops->download(d, res, dy, N * sizeof(float));
	bad = -1;
	for (int i = 0; rc == 0 && i < N && bad < 0; i++)
		if (res[i] != 3.0f * x[i] + y[i])
			bad = i;
	report(rc == 0 && bad < 0 && ms > 0, "launch",
	       "%s%s; %d floats checked%s; event time %.4f ms (%.0f GB/s for 12 B/element)",
	       rc_name(rc), rc ? ops->errmsg(d) : "", N, bad < 0 ? ", all correct" : ", WRONG", ms,
	       ms > 0 ? 12.0 * N / (ms * 1e6) : 0.0);
	rc = ops->fill(d, dy, 0, N * sizeof(float));
	if (!rc)
		rc = ops->download(d, res, dy, N * sizeof(float));
	bad = -1;
	for (int i = 0; rc == 0 && i < N && bad < 0; i++)
		if (res[i] != 0.0f)
			bad = i;
	report(rc == 0 && bad < 0, "fill", "%s", rc ? ops->errmsg(d) : "zeroed and read back");
	rc = ops->free_mem(d, dx);
	rc2 = ops->free_mem(d, dx);
	report(rc == 0 && rc2 == GS_DEV_FAIL, "free_mem", "freed; the second free refused: %s",
	       ops->errmsg(d));
	ops->module_unload(d, k.mod);
	free(x);
	free(y);
	free(res);
}

/* A bad image, an unknown entry: launch errors, the device stays usable. */
static void check_bad_module(struct gs_dev *d)
{
	static const char junk[256] = "this is no cubin";
	struct gs_module *m = NULL;
	struct gs_func *f = NULL;
	struct kern k;
	int rc;

	rc = ops->module_load(d, junk, sizeof junk, &m);
	report(rc == GS_DEV_LAUNCH, "bad image", "%s: %s", rc_name(rc), ops->errmsg(d));
	if (load(d, "bounds", &k) == 0) {
		rc = ops->function(d, k.mod, "no_such_kernel", &f, NULL);
		report(rc == GS_DEV_LAUNCH, "unknown entry", "%s: %s", rc_name(rc), ops->errmsg(d));
		ops->module_unload(d, k.mod);
	}
}

/* A wrong result: runs, and the check against a + b finds index 37. */
static void check_wrong(struct gs_dev *d)
{
	enum { N = 4096 };
	static float a[N], bb[N], c[N];
	struct kern k;
	uint64_t da, db, dc;
	int nn = N, rc, nbad = 0, first = -1;
	unsigned g[3] = { N / 128, 1, 1 }, b[3] = { 128, 1, 1 };
	void *args[4] = { &da, &db, &dc, &nn };

	for (int i = 0; i < N; i++) {
		a[i] = (float)i;
		bb[i] = (float)(2 * i);
	}
	if (load(d, "wrong", &k) < 0)
		return;
	rc = ops->alloc(d, sizeof a, &da);
	if (!rc)
		rc = ops->alloc(d, sizeof bb, &db);
	if (!rc)
		rc = ops->alloc(d, sizeof c, &dc);
	if (!rc)
		rc = ops->upload(d, da, a, sizeof a);
	if (!rc)
		rc = ops->upload(d, db, bb, sizeof bb);
	if (!rc)
		rc = ops->launch(d, k.f, g, b, 0, args);
	if (!rc)
		rc = ops->sync(d);
	if (!rc)
		rc = ops->download(d, c, dc, sizeof c);
	for (int i = 0; rc == 0 && i < N; i++)
		if (c[i] != a[i] + bb[i]) {
			nbad++;
			if (first < 0)
				first = i;
		}
	report(rc == 0 && nbad == 1 && first == 37, "wrong result",
	       "%s; %d element(s) differ, first at %d", rc ? ops->errmsg(d) : "ran", nbad, first);
	ops->module_unload(d, k.mod);
}

/* __launch_bounds__(128) launched with 256: invalid, device usable. */
static void check_bounds(struct gs_dev *d)
{
	struct kern k;
	uint64_t dout;
	int out[128], rc, r256, r128, ok;
	unsigned g[3] = { 1, 1, 1 }, b256[3] = { 256, 1, 1 }, b128[3] = { 128, 1, 1 };
	void *args[1] = { &dout };
	char msg[1024];

	if (load(d, "bounds", &k) < 0)
		return;
	report(k.attr.max_threads == 128, "launch bounds attribute", "max threads per block %d",
	       k.attr.max_threads);
	rc = ops->alloc(d, 256 * sizeof(int), &dout);
	r256 = rc ? rc : ops->launch(d, k.f, g, b256, 0, args);
	snprintf(msg, sizeof msg, "%s", ops->errmsg(d));
	r128 = ops->launch(d, k.f, g, b128, 0, args);
	if (!r128)
		r128 = ops->sync(d);
	if (!r128)
		r128 = ops->download(d, out, dout, sizeof out);
	ok = r128 == 0;
	for (int i = 0; ok && i < 128; i++)
		ok = out[i] == 2 * i;
	report(r256 == GS_DEV_INVALID, "launch bounds exceeded", "256 threads: %s: %s",
	       rc_name(r256), msg);
	report(ok, "after invalid", "128 threads: %s", r128 ? ops->errmsg(d) : "correct");
	ops->module_unload(d, k.mod);
}

/* Dynamic shared memory above 48 KiB (needs the attribute raised), and
 * above the opt-in limit (invalid). */
static void check_smem(struct gs_dev *d, const struct gs_devinfo *info)
{
	struct kern k;
	uint64_t dout;
	int out[256], nwords, rc, ok, blocks = -1;
	unsigned g[3] = { 1, 1, 1 }, b[3] = { 256, 1, 1 };
	void *args[2] = { &dout, &nwords };
	size_t big = 100 * 1024, over;

	if (load(d, "smem", &k) < 0)
		return;
	over = (size_t)info->smem_block_optin - (size_t)k.attr.static_smem + 1024;
	rc = ops->alloc(d, sizeof out, &dout);
	nwords = (int)(big / 4);
	if (!rc)
		rc = ops->occupancy(d, k.f, 256, big, &blocks, NULL);
	if (!rc)
		rc = ops->launch(d, k.f, g, b, big, args);
	if (!rc)
		rc = ops->sync(d);
	if (!rc)
		rc = ops->download(d, out, dout, sizeof out);
	ok = rc == 0;
	for (int i = 0; ok && i < 256; i++)
		ok = out[i] == i + 1;
	report(ok && blocks >= 1, "dynamic smem 100 KiB", "%s; %d blocks/SM",
	       rc ? ops->errmsg(d) : "correct", blocks);
	nwords = (int)(over / 4);
	rc = ops->launch(d, k.f, g, b, over, args);
	report(rc == GS_DEV_INVALID, "dynamic smem over the opt-in limit", "%zu B: %s: %s", over,
	       rc_name(rc), ops->errmsg(d));
	nwords = 256;
	rc = ops->launch(d, k.f, g, b, 1024, args);
	if (!rc)
		rc = ops->sync(d);
	report(rc == 0, "after invalid smem", "%s", rc ? ops->errmsg(d) : "1 KiB launch ok");
	ops->module_unload(d, k.mod);
}

/* A kernel of known duration, then NVML around ~300 ms of every SM busy. */
static void check_timing(struct gs_dev *d, const struct gs_devinfo *info)
{
	struct kern k;
	struct gs_devsample s;
	uint64_t dcount;
	long long cycles = (long long)info->clock_mhz * 1000 * 20, counted = 0; /* 20 ms */
	long long c300 = (long long)info->clock_mhz * 1000 * 300;
	unsigned g1[3] = { 1, 1, 1 }, b1[3] = { 1, 1, 1 };
	unsigned gall[3] = { (unsigned)info->sms * 4, 1, 1 }, ball[3] = { 256, 1, 1 };
	void *args[2] = { &cycles, &dcount }, *a300[2] = { &c300, &dcount };
	double ms = -1, expect = (double)cycles / (info->clock_mhz * 1e3);
	int rc, rs;

	if (load(d, "spin", &k) < 0)
		return;
	rc = ops->alloc(d, sizeof counted, &dcount);
	for (int i = 0; i < 3 && !rc; i++) /* warm-up: let the clocks rise */
		rc = ops->launch(d, k.f, g1, b1, 0, args);
	if (!rc)
		rc = ops->sync(d);
	if (!rc)
		rc = ops->timer_start(d);
	if (!rc)
		rc = ops->launch(d, k.f, g1, b1, 0, args);
	if (!rc)
		rc = ops->timer_stop(d, &ms);
	if (!rc)
		rc = ops->download(d, &counted, dcount, sizeof counted);
	report(rc == 0 && counted >= cycles && ms >= 0.95 * expect && ms <= 3 * expect,
	       "known duration",
	       "%lld cycles: expected %.3f ms at the rated %d MHz, measured %.3f ms "
	       "(%.0f MHz effective)%s%s",
	       cycles, expect, info->clock_mhz, ms, ms > 0 ? counted / (ms * 1e3) : 0.0,
	       rc ? ": " : "", rc ? ops->errmsg(d) : "");

	ops->sample_begin(d);
	rc = ops->launch(d, k.f, gall, ball, 0, a300);
	if (!rc)
		rc = ops->sync(d);
	rs = ops->sample_end(d, &s);
	if (rc || rs)
		report(0, "nvml sample", "%s", ops->errmsg(d));
	else if (s.energy_j < 0 && s.sm_clock_mhz < 0)
		printf("SKIP nvml sample: NVML not available (values < 0)\n");
	else
		report(s.energy_j > 0 && s.power_w > 20 && s.power_w < 2000 && s.sm_clock_mhz > 0 &&
			       s.temp_c > 0,
		       "nvml sample", "%u blocks x 256 threads spinning 300 ms: %.3f J, %.1f W mean, "
		       "SM clock %.0f MHz, %.0f C",
		       gall[0], s.energy_j, s.power_w, s.sm_clock_mhz, s.temp_c);
	ops->module_unload(d, k.mod);
}

/* Out of bounds: sticky, and the device refuses everything after. */
static void check_oob(struct gs_dev *d)
{
	struct kern k;
	uint64_t dout, p;
	long long offset = 1LL << 36;
	unsigned g[3] = { 1, 1, 1 }, b[3] = { 32, 1, 1 };
	void *args[2] = { &dout, &offset };
	int rc, rl, rs;

	if (load(d, "oob", &k) < 0)
		return;
	rc = ops->alloc(d, 1024, &dout);
	rl = rc ? rc : ops->launch(d, k.f, g, b, 0, args);
	rs = ops->sync(d);
	report(rl == 0 && rs == GS_DEV_STICKY, "out of bounds", "launch %s, sync %s: %s",
	       rc_name(rl), rc_name(rs), ops->errmsg(d));
	rc = ops->alloc(d, 16, &p);
	report(rc == GS_DEV_STICKY, "after sticky", "alloc: %s", rc_name(rc));
}

int main(int argc, char **argv)
{
	char err[1024];
	struct gs_devinfo info;
	struct gs_dev *d = NULL;
	double t0;
	int n, rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1)
		kdir = argv[1];
	/* Before this process touches the driver: see check_hang. */
	if (!getenv("GS_SMOKE_NO_HANG") && access("/dev/nvidiactl", F_OK) == 0)
		check_hang();
	n = ops->count(err, sizeof err);
	if (n <= 0) {
		printf("SKIP: %s\n", n == 0 ? err : "");
		if (n < 0)
			printf("FAIL count: %s\n", err);
		return n < 0 ? 1 : 2;
	}
	if (ops->info(0, &info, err, sizeof err) < 0) {
		report(0, "info", "%s", err);
		return 1;
	}
	report(info.sms > 0 && info.max_threads_block > 0 && info.smem_block_optin >= info.smem_block,
	       "info",
	       "%d GPU(s); 0: %s, sm_%d%d, %d SMs, %.1f GiB, %d MHz, L2 %d KiB, driver %s "
	       "(CUDA %s), %d threads/SM, %d blocks/SM, %d regs/SM, smem %d/SM %d/block %d opt-in "
	       "(%d reserved), pci %s",
	       n, info.name, info.cc_major, info.cc_minor, info.sms, info.mem_bytes / 1073741824.0,
	       info.clock_mhz, info.l2_bytes / 1024, info.driver, info.cuda_version,
	       info.max_threads_sm, info.max_blocks_sm, info.regs_sm, info.smem_sm, info.smem_block,
	       info.smem_block_optin, info.smem_reserved_block, info.pci_bus_id);
	rc = setup_arch(&info, err, sizeof err);
	if (rc == 0)
		snprintf(err, sizeof err, "NVRTC %s, compiling for %s", gs_nvrtc_version(nvrtc), arch);
	report(rc == 0, "nvrtc", "%s", err);
	if (rc)
		return 1;

	t0 = gs_now();
	rc = ops->open(0, &d, &info, err, sizeof err);
	report(rc == 0, "open", "%s (%.0f ms)", rc ? err : "primary context", (gs_now() - t0) * 1e3);
	if (rc)
		return 1;
	check_saxpy(d, &info);
	check_bad_module(d);
	check_wrong(d);
	check_bounds(d);
	check_smem(d, &info);
	check_timing(d, &info);
	check_oob(d); /* last: the context is unusable after it */
	ops->close(d);
	gs_nvrtc_unload(nvrtc);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
