/* emu_bench.c — how fast the PTX interpreter runs: kernels compiled by NVRTC
 * for sm_90, each launched several times on one host thread with the
 * counters on (they always are), checked against the host, timed.
 *
 *     emu_bench [--root DIR] [--runs R] [--n N] WORKLOAD...
 *
 * WORKLOAD is
 *   matmul:TILE,RECT,UNROLL,PREFETCH   kernels/matmul.cu with those defines,
 *                                      N x N (default 256), against a host matmul
 *   naive                              matmul_naive of the same file
 *   divergent                          `divergent` of tests/emu/control.cu over
 *                                      N*N/4 threads: nested if/else, loops with
 *                                      break and continue, a call, early return
 *
 * One line per workload of key=value pairs (for run-emu-bench.sh): the warp-
 * and thread-instructions of one launch, the median wall time of R launches
 * (default 5) and the rates, per second of one core.  Compiling and loading
 * are not timed.  Exit status 1 if anything fails or a result is wrong. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dev/emu.h"
#include "dev/emu/interp/interp.h"
#include "gen/gen.h"
#include "../../tests/emu/control_host.h"

static struct gs_nvrtc *nv;
static const char *root = ".";

static char *slurp(const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "emu_bench: cannot open %s\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = 0;
	fclose(f);
	return s;
}

/* PTX of a source file with the given options (plus -arch=sm_90), loaded. */
static struct gs_ptx_module *build(const char *rel, const char *const *defs, size_t ndefs,
				   struct gs_emu_mem *mem)
{
	char *src = slurp(rel);
	if (!src)
		return NULL;
	const char *opts[16];
	size_t n = 0;
	opts[n++] = "-arch=sm_90";
	for (size_t i = 0; i < ndefs && n < 16; i++)
		opts[n++] = defs[i];
	struct gs_compile_in in = { .name = rel, .source = src, .opts = opts, .nopts = n,
				    .want_ptx = 1 };
	struct gs_compile_out out;
	memset(&out, 0, sizeof out);
	struct gs_ptx_module *m = NULL;
	if (gs_nvrtc_compile(nv, &in, &out) < 0 || !out.ok) {
		fprintf(stderr, "emu_bench: %s does not compile:\n%s\n", rel,
			out.log ? out.log : "");
	} else {
		char err[512];
		m = gs_ptx_load(out.ptx, out.ptx_len, mem, err, sizeof err);
		if (!m)
			fprintf(stderr, "emu_bench: %s: %s\n", rel, err);
	}
	gs_compile_out_release(&out, 0);
	free(src);
	return m;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static uint64_t rng_state = 12345;
static uint32_t rng(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 33);
}

static uint64_t upload(struct gs_emu_mem *mem, const void *data, size_t bytes)
{
	uint64_t a;
	if (gs_emu_mem_alloc(mem, bytes, &a) < 0) {
		fprintf(stderr, "emu_bench: out of memory\n");
		exit(1);
	}
	if (data)
		memcpy(gs_emu_mem_ptr(mem, a, bytes), data, bytes);
	return a;
}

/* Launch R times; print the line.  0 or -1. */
static int timed(const char *name, struct gs_emu_launch *l, int runs)
{
	double t[64];
	struct gs_emu_counters c;
	char err[512];
	if (runs > 64)
		runs = 64;
	for (int r = 0; r < runs; r++) {
		double t0 = now();
		if (gs_emu_run(l, &c, err, sizeof err) != GS_EMU_OK) {
			fprintf(stderr, "emu_bench: %s: %s\n", name, err);
			return -1;
		}
		t[r] = now() - t0;
	}
	qsort(t, (size_t)runs, sizeof(double), cmp_double);
	double med = runs % 2 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
	uint64_t wi = 0, ti = 0;
	for (int k = 0; k < GS_EMU_NCLASS; k++) {
		wi += c.warp_inst[k];
		ti += c.thread_inst[k];
	}
	printf("workload=%s warp_inst=%llu thread_inst=%llu median_s=%.4f winst_per_s=%.0f "
	       "tinst_per_s=%.0f gld_trans=%llu bank_conflicts=%llu divergent=%llu\n",
	       name, (unsigned long long)wi, (unsigned long long)ti, med, (double)wi / med,
	       (double)ti / med, (unsigned long long)c.gld_trans,
	       (unsigned long long)c.bank_conflicts, (unsigned long long)c.divergent);
	fflush(stdout);
	return 0;
}

static int matmul(const char *spec, int naive, int n, int runs)
{
	int tile = 16, rect = 1, unroll = 16, pf = 1;
	if (!naive && sscanf(spec, "%d,%d,%d,%d", &tile, &rect, &unroll, &pf) != 4) {
		fprintf(stderr, "emu_bench: matmul:TILE,RECT,UNROLL,PREFETCH, not '%s'\n", spec);
		return -1;
	}
	if (n % (tile * rect)) {
		fprintf(stderr, "emu_bench: N=%d is not a multiple of TILE*RECT\n", n);
		return -1;
	}
	char d[4][32];
	snprintf(d[0], 32, "-DTILE=%d", tile);
	snprintf(d[1], 32, "-DRECT=%d", rect);
	snprintf(d[2], 32, "-DUNROLL=%d", unroll);
	snprintf(d[3], 32, "-DPREFETCH=%d", pf);
	const char *defs[] = { d[0], d[1], d[2], d[3] };
	struct gs_emu_mem mem = { 0 };
	struct gs_ptx_module *m = build("kernels/matmul.cu", defs, 4, &mem);
	if (!m)
		return -1;
	size_t nn = (size_t)n * n;
	float *a = malloc(nn * sizeof(float)), *b = malloc(nn * sizeof(float));
	float *ref = calloc(nn, sizeof(float));
	for (size_t i = 0; i < nn; i++) {
		a[i] = (float)(rng() % 2001) / 1000.0f - 1.0f;
		b[i] = (float)(rng() % 2001) / 1000.0f - 1.0f;
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			float s = 0;
			for (int k = 0; k < n; k++)
				s = fmaf(a[(size_t)i * n + k], b[(size_t)k * n + j], s);
			ref[(size_t)i * n + j] = s;
		}
	uint64_t da = upload(&mem, a, nn * 4), db = upload(&mem, b, nn * 4);
	uint64_t dc = upload(&mem, NULL, nn * 4);
	void *args[] = { &da, &db, &dc, &n };
	struct gs_emu_launch l = {
		.mod = m,
		.entry = gs_ptx_entry(m, naive ? "matmul_naive" : "matmul"),
		.args = args,
		.prof = gs_emu_profile_find("sm_90"),
		.mem = &mem,
		.threads = 1,
	};
	if (naive) {
		l.grid[0] = l.grid[1] = (unsigned)(n + 15) / 16;
		l.block[0] = l.block[1] = 16;
	} else {
		l.grid[0] = (unsigned)(n / (tile * rect));
		l.grid[1] = (unsigned)(n / tile);
		l.block[0] = l.block[1] = (unsigned)tile;
	}
	l.grid[2] = l.block[2] = 1;
	char name[64];
	if (naive)
		snprintf(name, sizeof name, "matmul_naive");
	else
		snprintf(name, sizeof name, "matmul:%d,%d,%d,%d", tile, rect, unroll, pf);
	int rc = timed(name, &l, runs);
	const float *c = (const float *)gs_emu_mem_ptr(&mem, dc, nn * 4);
	for (size_t i = 0; rc == 0 && i < nn; i++)
		if (fabsf(c[i] - ref[i]) > 1e-3f * (1.0f + fabsf(ref[i]))) {
			fprintf(stderr, "emu_bench: %s: C[%zu] = %g, the host says %g\n", name, i,
				(double)c[i], (double)ref[i]);
			rc = -1;
		}
	free(a);
	free(b);
	free(ref);
	gs_ptx_free(m, &mem);
	gs_emu_mem_release(&mem);
	return rc;
}

static int divergent(int n, int runs)
{
	struct gs_emu_mem mem = { 0 };
	struct gs_ptx_module *m = build("tests/emu/control.cu", NULL, 0, &mem);
	if (!m)
		return -1;
	int cnt = n * n / 4;
	int *in = malloc((size_t)cnt * sizeof(int));
	for (int i = 0; i < cnt; i++)
		in[i] = (int)(rng() % 100000);
	uint64_t di = upload(&mem, in, (size_t)cnt * 4), dout = upload(&mem, NULL, (size_t)cnt * 4);
	void *args[] = { &di, &dout, &cnt };
	struct gs_emu_launch l = {
		.mod = m,
		.entry = gs_ptx_entry(m, "divergent"),
		.grid = { (unsigned)(cnt + 127) / 128, 1, 1 },
		.block = { 128, 1, 1 },
		.args = args,
		.prof = gs_emu_profile_find("sm_90"),
		.mem = &mem,
		.threads = 1,
	};
	int rc = timed("divergent", &l, runs);
	const int *out = (const int *)gs_emu_mem_ptr(&mem, dout, (size_t)cnt * 4);
	for (int i = 0; rc == 0 && i < cnt; i++)
		if (out[i] != gs_divergent_host(in[i])) {
			fprintf(stderr, "emu_bench: divergent: out[%d] = %d, the host says %d\n", i,
				out[i], gs_divergent_host(in[i]));
			rc = -1;
		}
	free(in);
	gs_ptx_free(m, &mem);
	gs_emu_mem_release(&mem);
	return rc;
}

int main(int argc, char **argv)
{
	int runs = 5, n = 256, status = 0;
	char err[512];
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--root") && i + 1 < argc)
			root = argv[++i];
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--n") && i + 1 < argc)
			n = atoi(argv[++i]);
		else
			i = argc - 1; /* an unknown option: the usage below */
	}
	if (i == argc || runs < 1 || n < 16) {
		fprintf(stderr, "usage: emu_bench [--root DIR] [--runs R] [--n N] WORKLOAD...\n");
		return 2;
	}
	if (gs_nvrtc_load(&nv, err, sizeof err) < 0) {
		fprintf(stderr, "emu_bench: %s\n", err);
		return 1;
	}
	for (; i < argc; i++) {
		int rc;
		if (!strncmp(argv[i], "matmul:", 7))
			rc = matmul(argv[i] + 7, 0, n, runs);
		else if (!strcmp(argv[i], "naive"))
			rc = matmul("", 1, n, runs);
		else if (!strcmp(argv[i], "divergent"))
			rc = divergent(n, runs);
		else {
			fprintf(stderr, "emu_bench: unknown workload '%s'\n", argv[i]);
			rc = -1;
		}
		if (rc < 0)
			status = 1;
	}
	gs_nvrtc_unload(nv);
	return status;
}
