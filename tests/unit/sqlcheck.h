/* sqlcheck.h — reading a store's tables directly in unit tests (the store
 * and merge tests): the first column of the first row, as an integer or as
 * text.  A statement that does not prepare fails the test. */
#ifndef GS_TEST_SQLCHECK_H
#define GS_TEST_SQLCHECK_H

#include <sqlite3.h>
#include <stdint.h>

#include "harness.h"
#include "util/util.h"

/* -1: no row */
static inline int64_t sql_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s", sql,
		      sqlite3_errmsg(db));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* text the caller frees; NULL: no row, or NULL */
static inline char *sql_text(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	char *v = NULL;

	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s", sql,
		      sqlite3_errmsg(db));
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		v = gs_xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

#endif
