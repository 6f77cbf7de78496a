/* test_early.c — compiles before the sweep (sched/early.h): what the pool
 * compiled is handed over whole and once, and a guess of another
 * architecture matches no variant of the sweep. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "dev/dev.h"
#include "nvrtc.h"
#include "gen/variant.h"
#include "sched/compile.h"
#include "sched/early.h"
#include "space/enum.h"
#include "space/load.h"

static struct gs_space *load(void)
{
	struct gs_diag d = GS_DIAG_INIT;
	struct gs_space_opts so = { 0 };
	struct gs_space *sp = gs_space_load("tests/spaces/matmul-small.space", &so, &d);
	ck_assert_msg(sp && !d.errors, "the test space loads");
	gs_diag_release(&d);
	return sp;
}

/* ptxas's log without its "Compile time = ..." lines, in one of two static
 * buffers: the last two calls' results stay valid. */
static const char *timeless(const char *log)
{
	static char out[2][16384];
	static int k;
	char *o = out[k ^= 1];
	size_t n = 0;
	for (const char *p = log; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);
		if (!memmem(p, len, "Compile time", 12) && n + len < sizeof out[0]) {
			memcpy(o + n, p, len);
			n += len;
		}
		p += len;
	}
	o[n] = 0;
	return o;
}

/* A pool on the test space for arch, one thread compiling in this process,
 * stopped once `want` compiles have started. */
static struct gs_early *pool(struct gs_nvrtc *n, const char *arch, size_t want)
{
	struct gs_early *e = gs_early_new();
	struct gs_early_opts o = { .arch = arch, .jobs = 1, .shard_n = 1, .baseline_first = 1 };
	ck_assert_uint_eq(gs_early_run(e, load(), n, &o), 9); /* every variant differs */
	size_t started = 0, taken;
	for (int i = 0; i < 2000 && started < want; i++) {
		gs_early_counts(e, &started, &taken);
		usleep(10000);
	}
	gs_early_stop(e);
	gs_early_counts(e, &started, &taken);
	ck_assert_uint_ge(started, want);
	return e;
}

/* The test space's variants for sm_90, as the sweep builds them, beside a
 * pool that compiled them for another (or the same) architecture. */
struct walk {
	struct gs_nvrtc *n;
	struct gs_early *e;
	struct gs_space *sp;
	struct gs_enum en;
	struct gs_vm vm;
	const char *nvrtc_version;
};

/* 0 after marking test skipped (no NVRTC). */
static int walk_start(struct walk *w, const char *test, const char *arch, size_t want)
{
	if (!(w->n = gs_test_nvrtc(__FILE__, test)))
		return 0;
	w->e = pool(w->n, arch, want);
	w->sp = load();
	w->nvrtc_version = gs_nvrtc_version(w->n);
	gs_vm_init(&w->vm);
	ck_assert_int_eq(gs_enum_init(&w->en, w->sp, 0, 1), 0);
	return 1;
}

static int walk_next(struct walk *w, struct gs_variant *v)
{
	char err[512];
	if (gs_enum_next(&w->en) <= 0)
		return 0;
	ck_assert_int_eq(gs_variant_build(w->sp, w->en.env, "sm_90", w->nvrtc_version, &w->vm, v, err,
					  sizeof err), 0);
	return 1;
}

static void walk_end(struct walk *w)
{
	gs_enum_release(&w->en);
	gs_vm_release(&w->vm);
	gs_space_free(w->sp);
	gs_early_free(w->e); /* joins what still runs, frees what was not taken */
	gs_nvrtc_unload(w->n);
}

/* check() on each variant the sweep would build; how many it returned 1 for. */
static size_t walk_all(struct walk *w, int (*check)(struct walk *w, struct gs_variant *v))
{
	struct gs_variant v;
	size_t n = 0;
	while (walk_next(w, &v)) {
		n += check(w, &v);
		gs_variant_release(&v);
	}
	return n;
}

/* Taken when the pool has it, and then as the sweep would have compiled it
 * itself; a second ask finds nothing. */
static int adopt(struct walk *w, struct gs_variant *v)
{
	int has = gs_early_has(w->e, v->hash);
	struct gs_built early, own;
	ck_assert_int_eq(gs_early_take(w->e, v->hash, &early), has);
	if (!has)
		return 0;
	gs_compile_variant(w->n, v, 1, 0, 0, &own);
	ck_assert_int_eq(early.out.ok, own.out.ok);
	ck_assert_str_eq(timeless(early.out.log), timeless(own.out.log));
	ck_assert_str_eq(early.err, own.err);
	ck_assert_uint_eq(early.out.cubin_len, own.out.cubin_len);
	ck_assert(!own.out.cubin_len || !memcmp(early.out.cubin, own.out.cubin, own.out.cubin_len));
	ck_assert(!memcmp(&early.res, &own.res, sizeof own.res));
	ck_assert(early.out.seconds > 0);
	gs_built_release(&own, v->nnames);
	gs_built_release(&early, v->nnames);
	ck_assert_int_eq(gs_early_has(w->e, v->hash), 0);
	ck_assert_int_eq(gs_early_take(w->e, v->hash, &early), 0);
	return 1;
}

static int not_there(struct walk *w, struct gs_variant *v)
{
	struct gs_built b;
	ck_assert_int_eq(gs_early_has(w->e, v->hash), 0);
	ck_assert_int_eq(gs_early_take(w->e, v->hash, &b), 0);
	return 0;
}

START_TEST(test_adopted_whole_and_once)
{
	struct walk w;
	if (!walk_start(&w, "test_adopted_whole_and_once", "sm_90", 2))
		return;
	size_t adopted = walk_all(&w, adopt), started, taken;
	gs_early_counts(w.e, &started, &taken);
	ck_assert_uint_eq(taken, adopted);
	ck_assert_uint_eq(taken, started); /* nothing compiled that the sweep missed */
	ck_assert_uint_ge(taken, 2);
	walk_end(&w);
}
END_TEST

START_TEST(test_other_arch_only_wastes)
{
	struct walk w;
	if (!walk_start(&w, "test_other_arch_only_wastes", "sm_80", 1))
		return;
	walk_all(&w, not_there);
	walk_end(&w);
}
END_TEST

/* The host's architecture is kept for the next run's guess, in its own
 * folder under XDG_CACHE_HOME, and a second run with the same answer leaves
 * the file as it is. */
START_TEST(test_arch_remembered)
{
	char dir[] = "/tmp/gs-arch-XXXXXX", path[128], buf[32] = "";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("XDG_CACHE_HOME", dir, 1);
	gs_cuda_arch_remember("sm_90");
	snprintf(path, sizeof path, "%s/gsearch/arch", dir);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
	fclose(f);
	ck_assert_str_eq(buf, "sm_90\n");
	gs_cuda_arch_remember("sm_80");
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(fgets(buf, sizeof buf, f));
	fclose(f);
	ck_assert_str_eq(buf, "sm_80\n");
	/* no device node here: no guess, whatever the file says */
	char arch[16];
	if (access("/dev/nvidiactl", F_OK) != 0)
		ck_assert_int_eq(gs_cuda_arch_guess(arch, sizeof arch), -1);
	unlink(path);
	snprintf(path, sizeof path, "%s/gsearch", dir);
	rmdir(path);
	rmdir(dir);
}
END_TEST

GS_TEST_MAIN(test_adopted_whole_and_once, test_other_arch_only_wastes, test_arch_remembered)
