/* test_strmap.c — the name table behind the checker's linear lookups. */
#include "harness.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>

START_TEST(test_first_value_wins)
{
	struct gs_strmap m = GS_STRMAP_INIT;
	ck_assert_int_eq(gs_strmap_get(&m, "N"), -1);
	ck_assert_int_eq(gs_strmap_add(&m, "N", 3), -1);
	ck_assert_int_eq(gs_strmap_add(&m, "N", 7), 3);
	ck_assert_int_eq(gs_strmap_get(&m, "N"), 3);
	ck_assert_int_eq(gs_strmap_get(&m, "M"), -1);
	gs_strmap_release(&m);
}
END_TEST

START_TEST(test_grows_and_keeps_every_key)
{
	enum { N = 100000 };
	char **keys = malloc(N * sizeof(*keys));
	struct gs_strmap m = GS_STRMAP_INIT;
	for (int i = 0; i < N; i++) {
		keys[i] = gs_xasprintf("P%d", i);
		ck_assert_int_eq(gs_strmap_add(&m, keys[i], i), -1);
	}
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(gs_strmap_get(&m, keys[i]), i);
	ck_assert_int_eq(gs_strmap_get(&m, "P100000"), -1);
	gs_strmap_release(&m);
	for (int i = 0; i < N; i++)
		free(keys[i]);
	free(keys);
}
END_TEST

GS_TEST_MAIN(test_first_value_wins, test_grows_and_keeps_every_key)
