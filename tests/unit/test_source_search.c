/* test_source_search.c — a search strategy as the sweep's source
 * (sched/source_search.h): whatever the order in which results arrive, the
 * strategy proposes the same configurations in the same order, and the
 * budget is a count of evaluations.  The sweep's loop is simulated here: it
 * takes proposals while the source gives them and returns one result at a
 * time, picked first-in-first-out, last-in-first-out or at random. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "space.h"
#include "sched/source_search.h"
#include "space/load.h"
#include "space/space.h"
#include "util/util.h"

/* 8 x 8 values less a diagonal (58): a bowl with ripples */
static const char space_text[] = "param A in [0, 1, 2, 3, 4, 5, 6, 7]\n"
				 "param B in [0, 1, 2, 3, 4, 5, 6, 7]\n"
				 "require A + B != 5\n";

static double modeled_ms(const size_t *pos)
{
	double a = (double)pos[0] - 3, b = (double)pos[1] - 5;
	return 1 + a * a + b * b + (double)((pos[0] * pos[1]) % 3) * 0.5;
}

enum order { FIFO, LIFO, SHUFFLED };

/* The indices the source proposed, in order (*n of them; caller frees). */
static int64_t *drive(const struct gs_space *sp, const char *strategy, const char *budget,
		      size_t window, enum order order, size_t *n)
{
	struct gs_search_opts o = { .strategy = gs_strategy_find(strategy), .budget = budget,
				    .seed = 7, .window = window, .shard_i = 0, .shard_n = 1 };
	ck_assert_ptr_nonnull(o.strategy);
	struct gs_sched_source *src = gs_sched_source_search(sp, NULL, 0, &o, NULL);
	ck_assert_ptr_nonnull(src);
	int64_t *seq = gs_xmalloc(64 * sizeof(*seq)), fl[64];
	double flms[64];
	size_t nfl = 0;
	unsigned rng = 12345;
	int done = 0;
	*n = 0;
	while (!done || nfl) {
		while (!done) {
			struct gs_candidate c;
			int r = src->next(src, &c, 1);
			if (r == GS_SOURCE_WAIT && nfl)
				break;
			if (r <= 0) {
				done = 1;
				break;
			}
			ck_assert_uint_lt(*n, 64);
			seq[(*n)++] = c.idx;
			fl[nfl] = c.idx;
			/* A = 6 fails */
			flms[nfl++] = c.pos[0] == 6 ? -1 : modeled_ms(c.pos);
		}
		if (!nfl)
			continue;
		size_t k = order == FIFO ? 0 : order == LIFO ? nfl - 1 : (rng = rng * 1103515245 + 12345) % nfl;
		int64_t idx = fl[k];
		double ms = flms[k];
		memmove(fl + k, fl + k + 1, (nfl - k - 1) * sizeof(*fl));
		memmove(flms + k, flms + k + 1, (nfl - k - 1) * sizeof(*flms));
		nfl--;
		src->result(src, idx, ms < 0 ? "crash" : "ok", ms);
	}
	src->release(src);
	return seq;
}

static void same_whatever_the_order(const char *strategy, const char *budget, size_t window,
				    size_t expect)
{
	struct gs_space *sp = gs_test_space(space_text);
	size_t n0, n1, n2;
	int64_t *a = drive(sp, strategy, budget, window, FIFO, &n0);
	int64_t *b = drive(sp, strategy, budget, window, LIFO, &n1);
	int64_t *c = drive(sp, strategy, budget, window, SHUFFLED, &n2);
	ck_assert_uint_eq(n0, expect);
	ck_assert_uint_eq(n1, n0);
	ck_assert_uint_eq(n2, n0);
	for (size_t i = 0; i < n0; i++) {
		ck_assert_int_eq(a[i], b[i]);
		ck_assert_int_eq(a[i], c[i]);
		for (size_t j = 0; j < i; j++)
			ck_assert_int_ne(a[i], a[j]); /* each once */
	}
	free(a);
	free(b);
	free(c);
	gs_space_free(sp);
}

START_TEST(test_ils_does_not_depend_on_arrival_order)
{
	same_whatever_the_order("ils", "20", 4, 20);
}
END_TEST

START_TEST(test_anneal_does_not_depend_on_arrival_order)
{
	same_whatever_the_order("anneal", "25%", 3, 15); /* ceil(25% of 58) */
}
END_TEST

START_TEST(test_window_of_one_is_sequential)
{
	same_whatever_the_order("ils", "12", 1, 12);
}
END_TEST

START_TEST(test_no_budget_is_the_whole_space)
{
	same_whatever_the_order("random", NULL, 5, 58);
}
END_TEST

GS_TEST_MAIN(test_ils_does_not_depend_on_arrival_order,
	     test_anneal_does_not_depend_on_arrival_order, test_window_of_one_is_sequential,
	     test_no_budget_is_the_whole_space)
