/* test_enum.c — enumeration of a space's configurations (space/enum.h):
 * order, early pruning, counting, shards, baseline indices, the edge cases
 * (no parameter, a constant false constraint) and runtime errors.  Spaces
 * are in-memory texts; expected results are computed here by brute force
 * over the Cartesian product, in itertools.product order. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "space.h"
#include "space/enum.h"
#include "space/load.h"
#include "space/space.h"
#include "util/util.h"

/* "A=1 B='x'" for the configuration in env; the caller frees. */
static char *describe(const struct gs_space *sp, const struct gs_value *env)
{
	struct gs_buf b = GS_BUF_INIT;
	gs_config_describe(sp, env, sp->nparams, " ", &b);
	gs_buf_putc(&b, '\0');
	b.len--;
	return gs_buf_detach(&b);
}

/* Every configuration of shard i/n, described, in order; *count gets how
 * many and idx (when not NULL, sized by the caller) their indices. */
static char **list_shard(const struct gs_space *sp, uint64_t i, uint64_t n, size_t *count,
			 uint64_t *idx)
{
	struct gs_enum e;
	char **out = NULL;
	size_t cap = 0, k = 0;
	int r;
	ck_assert_int_eq(gs_enum_init(&e, sp, i, n), 0);
	while ((r = gs_enum_next(&e)) == 1) {
		gs_grow(&out, &cap, k + 1, sizeof(*out));
		if (idx)
			idx[k] = e.index;
		out[k++] = describe(sp, e.env);
	}
	ck_assert_int_eq(r, 0);
	gs_enum_release(&e);
	*count = k;
	return out;
}

static void free_list(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

static struct gs_count count_space(const struct gs_space *sp, const size_t *limit)
{
	struct gs_count c;
	struct gs_diag d = GS_DIAG_INIT;
	memset(&c, 0, sizeof c);
	ck_assert_int_eq(gs_enum_count(sp, limit, &c, &d), 0);
	ck_assert_uint_eq(d.errors, 0);
	gs_diag_release(&d);
	return c;
}

/* A space with a let, a string parameter and constraints at several
 * levels, and the same predicate in C. */
static const char SPACE_S[] = "problem N = 96\n"
			      "param T in [32, 8, 16]\n"
			      "param L in [\"row\", \"col\"]\n"
			      "param U in [1, 2, 4, 8, 16, 32]\n"
			      "param P in [0, 1]\n"
			      "let TH = T * T\n"
			      "let R = T // U\n"
			      "require TH <= 512\n"
			      "require R >= 2\n"
			      "require L == \"row\" or T > 8\n"
			      "require N % (T * U) == 0 or P == 1\n";
static const int S_T[] = { 32, 8, 16 };
static const char *const S_L[] = { "row", "col" };
static const int S_U[] = { 1, 2, 4, 8, 16, 32 };
static const int S_P[] = { 0, 1 };

static int s_valid(int t, const char *l, int u, int p)
{
	return t * t <= 512 && t / u >= 2 && (!strcmp(l, "row") || t > 8) &&
	       (96 % (t * u) == 0 || p == 1);
}

/* Brute force over the product of SPACE_S: the valid configurations
 * described in order, and per Cartesian point its valid index (or the
 * number of valid points before it) in `before` (sized 72). */
static char **s_expected(size_t *count, uint64_t *before, int *valid)
{
	char **out = gs_xcalloc(72, sizeof(*out));
	size_t k = 0, pt = 0;
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 2; b++)
			for (int c = 0; c < 6; c++)
				for (int d = 0; d < 2; d++, pt++) {
					int ok = s_valid(S_T[a], S_L[b], S_U[c], S_P[d]);
					if (before)
						before[pt] = k;
					if (valid)
						valid[pt] = ok;
					if (ok)
						out[k++] = gs_xasprintf("T=%d L='%s' U=%d P=%d", S_T[a],
									S_L[b], S_U[c], S_P[d]);
				}
	*count = k;
	return out;
}

START_TEST(test_order_is_itertools_product)
{
	/* no constraint: the whole product, last parameter fastest, each in
	 * the order its domain is written */
	struct gs_space *sp = gs_test_space("param A in [3, 1, 2]\n"
				   "param B in [\"x\", \"y\"]\n"
				   "param C in [True, 0.5, -1]\n");
	static const char *const a[] = { "3", "1", "2" }, *const b[] = { "'x'", "'y'" },
				 *const c[] = { "True", "0.5", "-1" };
	size_t n;
	char **got = list_shard(sp, 0, 1, &n, NULL);
	ck_assert_uint_eq(n, 18);
	size_t k = 0;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 2; j++)
			for (int l = 0; l < 3; l++, k++) {
				char *want = gs_xasprintf("A=%s B=%s C=%s", a[i], b[j], c[l]);
				ck_assert_msg(!strcmp(got[k], want), "#%zu: got %s, want %s", k, got[k],
					      want);
				free(want);
			}
	free_list(got, n);
	gs_space_free(sp);

	/* with constraints: the product filtered, order unchanged */
	sp = gs_test_space(SPACE_S);
	size_t nwant;
	char **want = s_expected(&nwant, NULL, NULL);
	got = list_shard(sp, 0, 1, &n, NULL);
	ck_assert_uint_eq(n, nwant);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(!strcmp(got[i], want[i]), "#%zu: got %s, want %s", i, got[i], want[i]);
	free_list(got, n);
	free_list(want, nwant);
	gs_space_free(sp);
}
END_TEST

START_TEST(test_constraint_prunes_at_its_level)
{
	/* A constraint on the first parameter is checked once per value of it:
	 * A=1..9 cut whole subtrees of 1000 points each. */
	struct gs_space *sp = gs_test_space("param A in range(10)\n"
				   "param B in range(10)\n"
				   "param C in range(10)\n"
				   "param D in range(10)\n"
				   "require A == 0\n");
	ck_assert_int_eq(sp->requires[0].level, 0);
	uint64_t rejected[1] = { 0 };
	struct gs_count c;
	memset(&c, 0, sizeof c);
	c.rejected = rejected;
	struct gs_diag d = GS_DIAG_INIT;
	ck_assert_int_eq(gs_enum_count(sp, NULL, &c, &d), 0);
	ck_assert_uint_eq(c.cartesian, 10000);
	ck_assert_uint_eq(c.valid, 1000);
	ck_assert_uint_eq(rejected[0], 9);
	/* the unconstrained tail B, C, D is multiplied, not visited */
	ck_assert_uint_eq(c.visited, 10);

	/* the lazy enumeration visits each binding it lists, and only those:
	 * 10 values of A, then 10 + 100 + 1000 below A=0 (a filter over the
	 * product would bind 10 + 100 + 1000 + 10000) */
	struct gs_enum e;
	ck_assert_int_eq(gs_enum_init(&e, sp, 0, 1), 0);
	uint64_t n = 0;
	while (gs_enum_next(&e) == 1)
		n++;
	ck_assert_uint_eq(n, 1000);
	ck_assert_uint_eq(e.visited, 1120);
	ck_assert_uint_eq(e.rejected[0], 9);
	gs_enum_release(&e);
	gs_space_free(sp);

	/* the same constraint on the last parameter cuts 9 of every 10 leaves */
	sp = gs_test_space("param A in range(10)\n"
		  "param B in range(10)\n"
		  "param C in range(10)\n"
		  "param D in range(10)\n"
		  "require D == 0\n");
	rejected[0] = 0;
	ck_assert_int_eq(gs_enum_count(sp, NULL, &c, &d), 0);
	ck_assert_uint_eq(c.valid, 1000);
	ck_assert_uint_eq(rejected[0], 9000);
	ck_assert_uint_eq(c.visited, 11110);
	gs_space_free(sp);

	/* through a let: the let waits for B, and so does the constraint */
	sp = gs_test_space("param A in range(10)\n"
		  "param B in range(10)\n"
		  "param C in range(10)\n"
		  "param D in range(10)\n"
		  "let S = A + B\n"
		  "require S == 0\n");
	ck_assert_int_eq(sp->requires[0].level, 1);
	rejected[0] = 0;
	ck_assert_int_eq(gs_enum_count(sp, NULL, &c, &d), 0);
	ck_assert_uint_eq(c.valid, 100);
	ck_assert_uint_eq(rejected[0], 99);
	ck_assert_uint_eq(c.visited, 110);
	gs_diag_release(&d);
	gs_space_free(sp);
}
END_TEST

START_TEST(test_count_equals_listing)
{
	static const char *const spaces[] = {
		SPACE_S,
		/* the running example's parameters and constraints: 270 of 324 */
		"problem N = 4096\n"
		"param TILE     in [8, 16, 32]\n"
		"param RECT     in [1, 2, 4]\n"
		"param UNROLL   in [1, 2, 4, 8, 16, 32]\n"
		"param PREFETCH in [0, 1]\n"
		"param MAXREG   in [0, 32, 64]\n"
		"require TILE % UNROLL == 0\n"
		"require N % (TILE * RECT) == 0\n",
		/* string lets and a constraint on a let of a let */
		"param K in [\"a\", \"bb\", \"ccc\"]\n"
		"param V in range(1, 6)\n"
		"param W in [w for w in range(1, 30) if 60 % w == 0]\n"
		"let NAME = K * V\n"
		"let LEN = len(NAME) + W\n"
		"require LEN % 3 != 0\n"
		"require W > 1 or K != \"a\"\n",
		/* constraints on the last parameter only */
		"param A in range(7)\n"
		"param B in range(5)\n"
		"require (A * B) % 4 == 1\n",
		/* a float parameter and an or of two levels */
		"param F in [0.5, 1.0, 1.5, 2.0]\n"
		"param G in range(-3, 4)\n"
		"require F * G > 1 or G == 0\n",
	};
	static const uint64_t expect[] = { 0, 270, 0, 0, 0 };
	for (size_t s = 0; s < sizeof spaces / sizeof spaces[0]; s++) {
		struct gs_space *sp = gs_test_space(spaces[s]);
		struct gs_count c = count_space(sp, NULL);
		size_t n;
		char **l = list_shard(sp, 0, 1, &n, NULL);
		ck_assert_msg(c.valid == n, "space %zu: counted %llu, listed %zu", s,
			      (unsigned long long)c.valid, n);
		ck_assert_msg(n > 0 && n < c.cartesian, "space %zu: %zu of %llu", s, n,
			      (unsigned long long)c.cartesian);
		if (expect[s])
			ck_assert_uint_eq(n, expect[s]);
		free_list(l, n);
		gs_space_free(sp);
	}
	/* and against brute force */
	struct gs_space *sp = gs_test_space(SPACE_S);
	size_t nwant;
	char **want = s_expected(&nwant, NULL, NULL);
	ck_assert_uint_eq(count_space(sp, NULL).valid, nwant);
	ck_assert_uint_eq(count_space(sp, NULL).cartesian, 72);
	free_list(want, nwant);
	gs_space_free(sp);
}
END_TEST

START_TEST(test_shards_partition_the_space)
{
	struct gs_space *sp = gs_test_space(SPACE_S);
	size_t total;
	char **all = list_shard(sp, 0, 1, &total, NULL);
	ck_assert_uint_gt(total, 10);
	uint64_t *idx = gs_xmalloc(total * sizeof(*idx));
	int *seen = gs_xmalloc(total * sizeof(*seen));
	for (uint64_t n = 1; n <= 5; n++) {
		memset(seen, 0, total * sizeof(*seen));
		size_t sum = 0;
		for (uint64_t i = 0; i < n; i++) {
			size_t k;
			char **part = list_shard(sp, i, n, &k, idx);
			/* shard i of n holds exactly the indices ≡ i (mod n) */
			ck_assert_uint_eq(k, (total - i + n - 1) / n);
			for (size_t j = 0; j < k; j++) {
				ck_assert_uint_lt(idx[j], total);
				ck_assert_uint_eq(idx[j] % n, i);
				ck_assert_msg(!seen[idx[j]], "%llu/%llu: index %llu twice",
					      (unsigned long long)i, (unsigned long long)n,
					      (unsigned long long)idx[j]);
				seen[idx[j]] = 1;
				/* the configuration at that index of the whole listing */
				ck_assert_str_eq(part[j], all[idx[j]]);
			}
			sum += k;
			free_list(part, k);
		}
		ck_assert_uint_eq(sum, total);
		for (size_t j = 0; j < total; j++)
			ck_assert_msg(seen[j], "n=%llu: index %zu in no shard", (unsigned long long)n, j);
	}
	free(seen);
	free(idx);
	free_list(all, total);
	gs_space_free(sp);
}
END_TEST

START_TEST(test_limit_gives_listing_index)
{
	/* every Cartesian point as a limit: a valid one gets its position in
	 * the listing, an invalid one the number of valid points before it */
	struct gs_space *sp = gs_test_space(SPACE_S);
	size_t nwant;
	uint64_t before[72];
	int valid[72];
	char **want = s_expected(&nwant, before, valid);
	size_t n;
	char **all = list_shard(sp, 0, 1, &n, NULL);
	size_t pt = 0, nvalid = 0;
	for (size_t a = 0; a < 3; a++)
		for (size_t b = 0; b < 2; b++)
			for (size_t c = 0; c < 6; c++)
				for (size_t d = 0; d < 2; d++, pt++) {
					size_t limit[4] = { a, b, c, d };
					struct gs_count cnt = count_space(sp, limit);
					ck_assert_msg(cnt.limit_valid == valid[pt], "point %zu: valid %d",
						      pt, cnt.limit_valid);
					ck_assert_msg(cnt.before == before[pt],
						      "point %zu: %llu before, want %llu", pt,
						      (unsigned long long)cnt.before,
						      (unsigned long long)before[pt]);
					ck_assert_uint_eq(cnt.valid, nwant);
					if (valid[pt]) {
						char *w = gs_xasprintf("T=%d L='%s' U=%d P=%d", S_T[a],
								       S_L[b], S_U[c], S_P[d]);
						ck_assert_str_eq(all[cnt.before], w);
						free(w);
						nvalid++;
					}
				}
	ck_assert_uint_eq(nvalid, n);
	free_list(all, n);
	free_list(want, nwant);
	gs_space_free(sp);
}
END_TEST

START_TEST(test_no_parameters_one_configuration)
{
	struct gs_space *sp = gs_test_space("problem N = 3\nlet M = N * 2\nrequire M == 6\n");
	struct gs_count c = count_space(sp, NULL);
	ck_assert_uint_eq(c.cartesian, 1);
	ck_assert_uint_eq(c.valid, 1);
	struct gs_enum e;
	ck_assert_int_eq(gs_enum_init(&e, sp, 0, 1), 0);
	ck_assert_int_eq(gs_enum_next(&e), 1);
	ck_assert_uint_eq(e.index, 0);
	ck_assert_int_eq(gs_enum_next(&e), 0);
	ck_assert_int_eq(gs_enum_next(&e), 0);
	gs_enum_release(&e);
	/* of two shards, the first has it */
	size_t n0, n1;
	char **l0 = list_shard(sp, 0, 2, &n0, NULL), **l1 = list_shard(sp, 1, 2, &n1, NULL);
	ck_assert_uint_eq(n0, 1);
	ck_assert_uint_eq(n1, 0);
	free_list(l0, n0);
	free_list(l1, n1);
	gs_space_free(sp);
}
END_TEST

START_TEST(test_constant_false_require_gives_nothing)
{
	static const char *const spaces[] = {
		"param A in [1, 2]\nparam B in [3, 4]\nrequire 1 > 2\n",
		"problem N = 3\nparam A in [1, 2]\nrequire N > 10 else \"too small\"\n",
		"problem N = 3\nparam A in [1, 2]\nlet Z = N - 3\nrequire Z\n",
	};
	for (size_t s = 0; s < sizeof spaces / sizeof spaces[0]; s++) {
		struct gs_space *sp = gs_test_space(spaces[s]);
		struct gs_count c = count_space(sp, NULL);
		ck_assert_uint_eq(c.valid, 0);
		ck_assert_uint_gt(c.cartesian, 1);
		struct gs_enum e;
		ck_assert_int_eq(gs_enum_init(&e, sp, 0, 1), 0);
		ck_assert_int_eq(gs_enum_next(&e), 0);
		ck_assert_uint_eq(e.visited, 0);
		gs_enum_release(&e);
		gs_space_free(sp);
	}
}
END_TEST

START_TEST(test_runtime_error_is_reported)
{
	/* 12 // A fails at A=0, after the 4 configurations of A=1 and A=2 */
	struct gs_space *sp = gs_test_space("param A in [1, 2, 0, 4]\n"
				   "param B in [5, 6]\n"
				   "require 12 // A > 0\n");
	struct gs_enum e;
	ck_assert_int_eq(gs_enum_init(&e, sp, 0, 1), 0);
	int r, n = 0;
	while ((r = gs_enum_next(&e)) == 1)
		n++;
	ck_assert_int_eq(r, -1);
	ck_assert_int_eq(n, 4);
	struct gs_diag d = GS_DIAG_INIT;
	gs_enum_report(&e, &d);
	ck_assert_uint_eq(d.errors, 1);
	ck_assert_uint_ge(d.n, 2);
	unsigned line, col;
	gs_loc_linecol(d.msgs[0].loc, &line, &col);
	ck_assert_uint_eq(line, 3);
	ck_assert_uint_eq(col, 12); /* the '//' */
	ck_assert_str_eq(d.msgs[0].text, "integer division or modulo by zero");
	ck_assert_int_eq(d.msgs[1].sev, GS_NOTE);
	ck_assert_str_eq(d.msgs[1].text, "while enumerating: A=0");
	gs_diag_release(&d);
	gs_enum_release(&e);

	/* counting meets the same error, at the same place */
	struct gs_count c;
	memset(&c, 0, sizeof c);
	ck_assert_int_eq(gs_enum_count(sp, NULL, &c, &d), -1);
	ck_assert_uint_eq(d.errors, 1);
	gs_loc_linecol(d.msgs[0].loc, &line, &col);
	ck_assert_uint_eq(line, 3);
	ck_assert_uint_eq(col, 12);
	ck_assert_str_eq(d.msgs[0].text, "integer division or modulo by zero");
	gs_diag_release(&d);
	gs_space_free(sp);
}
END_TEST

GS_TEST_MAIN(test_order_is_itertools_product, test_constraint_prunes_at_its_level,
	     test_count_equals_listing, test_shards_partition_the_space,
	     test_limit_gives_listing_index, test_no_parameters_one_configuration,
	     test_constant_false_require_gives_nothing, test_runtime_error_is_reported)
