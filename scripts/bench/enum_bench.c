/* enum_bench.c — how fast a space is counted and enumerated, against a
 * naive generate-then-filter over the same space.
 *
 *     enum_bench MODE SPACE [--min-seconds S]
 *
 * MODE is one of
 *   count   gs_enum_count: the pruned counter (an unconstrained tail of
 *           parameters is multiplied, not visited)
 *   lazy    gs_enum_init / gs_enum_next over the whole space: what `gsearch
 *           run` walks
 *   naive   an odometer over the full Cartesian product: bind every
 *           parameter, evaluate every let, then the requires in order until
 *           one fails (as Python's all() would), with the same compiled code
 *           and evaluator.  The product is cut into 64 equal slices spread
 *           over it, each run until its end or for S/64 seconds (default
 *           S = 2); when a slice is cut short, its points per second are
 *           extrapolated to the whole slice, and the line says so
 *           (extrapolated=1, points=how many were evaluated).
 *   naive-all  the same, evaluating every require at every point (a filter
 *           that does not stop at the first failing constraint).
 *
 * One mode per process, so that the peak resident size (getrusage's
 * ru_maxrss, printed as peak_kb) is that mode's.  The output is one line of
 * key=value pairs for scripts/bench/run-enum-bench.sh.  Loading the space is
 * not timed.  Every mode checks its count: lazy against gs_enum_count, naive
 * against the exact number of valid configurations among the points it
 * evaluated (found with the lazy enumeration, untimed).  A disagreement is
 * printed and the exit status is 1. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "space/enum.h"
#include "space/load.h"
#include "space/space.h"
#include "util/util.h"

static long peak_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static int count_valid(const struct gs_space *sp, const size_t *limit, struct gs_count *c)
{
	struct gs_diag d = GS_DIAG_INIT;
	memset(c, 0, sizeof(*c));
	int rc = gs_enum_count(sp, limit, c, &d);
	if (rc < 0)
		gs_diag_print(&d, stderr);
	gs_diag_release(&d);
	return rc;
}

/* Evaluate the lets in `idx` into env.  0 or -1 (error printed). */
static int eval_lets(const struct gs_space *sp, struct gs_vm *vm, struct gs_value *env,
		     const int *idx, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct gs_let *l = &sp->lets[idx[i]];
		if (gs_vm_eval(vm, l->code, env, &env[l->slot]) < 0) {
			fprintf(stderr, "enum_bench: let '%s': %s\n", l->name, vm->err);
			return -1;
		}
	}
	return 0;
}

#define NCHUNKS 64

struct naive {
	uint64_t points, valid;
	uint64_t start[NCHUNKS], stop[NCHUNKS]; /* the ranks each chunk covered */
	double seconds;   /* spent */
	double estimate;  /* for the whole product: each slice's time scaled by its rate */
	int done; /* every chunk ran to its end: the whole product */
};

/* Set the odometer to the point of rank r (mixed radix, the last parameter
 * least significant) and bind the parameters. */
static void unrank(const struct gs_space *sp, uint64_t r, size_t *pos, struct gs_value *env)
{
	for (size_t k = sp->nparams; k-- > 0;) {
		const struct gs_param *pa = &sp->params[k];
		pos[k] = r % pa->nvals;
		r /= pa->nvals;
		env[pa->slot] = pa->vals[pos[k]];
	}
}

/* Generate-then-filter, over NCHUNKS equal slices of the product spread
 * from its first point to its last, each given min_s / NCHUNKS seconds: a
 * run cut short has sampled the whole product, not only its first
 * parameter's first values, so its rate stands for the whole.  The lets'
 * order is the plan's (constant ones, then level by level), a valid
 * evaluation order; constant lets are computed once, as a Python filter
 * would compute its constants once. */
static int naive_run(const struct gs_space *sp, uint64_t cartesian, double min_s, int all,
		     struct naive *nv)
{
	size_t n = sp->nparams;
	struct gs_vm vm;
	gs_vm_init(&vm);
	struct gs_value *env = gs_xmalloc((sp->nslots ? sp->nslots : 1) * sizeof(*env));
	memcpy(env, sp->env0, sp->nslots * sizeof(*env));
	if (eval_lets(sp, &vm, env, sp->const_lets, sp->nconst_lets) < 0)
		return -1;
	for (size_t i = 0; i < sp->nconst_lets; i++) {
		int s = sp->lets[sp->const_lets[i]].slot;
		env[s] = gs_value_persist(&vm.scratch, env[s]);
	}
	vm.base = gs_arena_mark(&vm.scratch);
	size_t *pos = gs_xcalloc(n + 1, sizeof(*pos));
	memset(nv, 0, sizeof(*nv));
	nv->done = 1;
	int rc = 0;
	for (int j = 0; j < NCHUNKS && rc == 0; j++) {
		uint64_t lo = (uint64_t)((unsigned __int128)cartesian * (unsigned)j / NCHUNKS);
		uint64_t hi = (uint64_t)((unsigned __int128)cartesian * (unsigned)(j + 1) / NCHUNKS);
		uint64_t r = lo;
		unrank(sp, lo, pos, env);
		double t0 = gs_now();
		while (r < hi) {
			gs_vm_reset(&vm);
			for (size_t k = 0; k < n && rc == 0; k++)
				rc = eval_lets(sp, &vm, env, sp->level_lets[k], sp->level_nlets[k]);
			if (rc < 0)
				break;
			int ok = 1;
			for (size_t i = 0; i < sp->nrequires && (ok || all); i++) {
				struct gs_value v;
				if (gs_vm_eval(&vm, sp->requires[i].code, env, &v) < 0) {
					fprintf(stderr, "enum_bench: require %zu: %s\n", i, vm.err);
					rc = -1;
					break;
				}
				ok &= gs_value_truthy(v);
			}
			if (rc < 0)
				break;
			nv->valid += ok;
			r++;
			/* advance the odometer, the last parameter fastest */
			for (size_t k = n; k > 0; k--) {
				const struct gs_param *pa = &sp->params[k - 1];
				if (++pos[k - 1] < pa->nvals) {
					env[pa->slot] = pa->vals[pos[k - 1]];
					break;
				}
				pos[k - 1] = 0;
				env[pa->slot] = pa->vals[0];
			}
			if ((r & 0x3ff) == 0 && gs_now() - t0 >= min_s / NCHUNKS)
				break;
		}
		double dt = gs_now() - t0;
		nv->seconds += dt;
		nv->estimate += r > lo ? dt * (double)(hi - lo) / (double)(r - lo) : dt;
		nv->start[j] = lo;
		nv->stop[j] = r;
		nv->points += r - lo;
		if (r < hi)
			nv->done = 0;
	}
	free(pos);
	free(env);
	gs_vm_release(&vm);
	return rc;
}

/* The exact number of valid points among the ranks the chunks covered, by
 * the lazy enumeration, whose configurations come in rank order. */
static int valid_in_chunks(const struct gs_space *sp, const struct naive *nv, uint64_t *out)
{
	size_t n = sp->nparams;
	uint64_t *weight = gs_xmalloc((n + 1) * sizeof(*weight));
	weight[n] = 1;
	for (size_t k = n; k-- > 0;)
		weight[k] = weight[k + 1] * sp->params[k].nvals;
	struct gs_enum e;
	if (gs_enum_init(&e, sp, 0, 1) < 0)
		return -1;
	uint64_t cnt = 0;
	int j = 0, r;
	while ((r = gs_enum_next(&e)) == 1) {
		uint64_t rank = 0;
		for (size_t k = 0; k < n; k++)
			rank += e.pos[k] * weight[k + 1];
		while (j < NCHUNKS && rank >= nv->stop[j])
			j++;
		if (j == NCHUNKS)
			break;
		cnt += rank >= nv->start[j];
	}
	gs_enum_release(&e);
	free(weight);
	*out = cnt;
	return r < 0 ? -1 : 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

int main(int argc, char **argv)
{
	double min_s = 2.0;
	if (argc == 5 && !strcmp(argv[3], "--min-seconds"))
		min_s = atof(argv[4]);
	else if (argc != 3) {
		fprintf(stderr, "usage: enum_bench count|lazy|naive|naive-all SPACE [--min-seconds S]\n");
		return 2;
	}
	const char *mode = argv[1], *path = argv[2];
	if (strcmp(mode, "count") && strcmp(mode, "lazy") && strcmp(mode, "naive") &&
	    strcmp(mode, "naive-all")) {
		fprintf(stderr, "enum_bench: unknown mode '%s'\n", mode);
		return 2;
	}
	struct gs_diag d = GS_DIAG_INIT;
	struct gs_space *sp = gs_space_load(path, NULL, &d);
	if (!sp || d.errors) {
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		gs_space_free(sp);
		return 1;
	}
	gs_diag_release(&d);

	struct gs_count c;
	int bad = 0;
	printf("space=%s params=%zu mode=%s", base_name(path), sp->nparams, mode);
	if (!strcmp(mode, "count")) {
		double t0 = gs_now();
		if (count_valid(sp, NULL, &c) < 0)
			return 1;
		double dt = gs_now() - t0;
		printf(" cartesian=%llu valid=%llu visited=%llu wall_s=%.6f", (unsigned long long)c.cartesian,
		       (unsigned long long)c.valid, (unsigned long long)c.visited, dt);
	} else if (!strcmp(mode, "lazy")) {
		struct gs_enum e;
		double t0 = gs_now();
		if (gs_enum_init(&e, sp, 0, 1) < 0)
			return 1;
		uint64_t n = 0;
		int r;
		while ((r = gs_enum_next(&e)) == 1)
			n++;
		double dt = gs_now() - t0;
		if (r < 0) {
			gs_enum_report(&e, &d);
			gs_diag_print(&d, stderr);
			return 1;
		}
		uint64_t visited = e.visited;
		gs_enum_release(&e);
		if (count_valid(sp, NULL, &c) < 0)
			return 1;
		printf(" cartesian=%llu valid=%llu visited=%llu wall_s=%.6f", (unsigned long long)c.cartesian,
		       (unsigned long long)n, (unsigned long long)visited, dt);
		if (n != c.valid) {
			printf(" check=FAIL(counted %llu)", (unsigned long long)c.valid);
			bad = 1;
		} else {
			printf(" check=ok");
		}
	} else {
		struct naive nv;
		if (count_valid(sp, NULL, &c) < 0)
			return 1;
		if (c.cartesian_overflow) {
			fprintf(stderr, "enum_bench: the Cartesian product overflows 64 bits\n");
			return 1;
		}
		if (naive_run(sp, c.cartesian, min_s, !strcmp(mode, "naive-all"), &nv) < 0)
			return 1;
		uint64_t want;
		if (valid_in_chunks(sp, &nv, &want) < 0)
			return 1;
		double full = nv.done ? nv.seconds : nv.estimate;
		printf(" cartesian=%llu valid=%llu visited=%llu wall_s=%.6f", (unsigned long long)c.cartesian,
		       (unsigned long long)(nv.done ? nv.valid : c.valid),
		       (unsigned long long)(nv.done ? nv.points : c.cartesian), full);
		printf(" points=%llu sample_s=%.6f sample_valid=%llu extrapolated=%d",
		       (unsigned long long)nv.points, nv.seconds, (unsigned long long)nv.valid, !nv.done);
		if (nv.valid != want || (nv.done && nv.valid != c.valid)) {
			printf(" check=FAIL(exact %llu)", (unsigned long long)want);
			bad = 1;
		} else {
			printf(" check=ok");
		}
	}
	printf(" peak_kb=%ld\n", peak_kb());
	gs_space_free(sp);
	return bad;
}
