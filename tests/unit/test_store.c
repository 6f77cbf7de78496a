/* test_store.c — the SQLite store: opening, migrating, refusing, sweeps,
 * configurations and views, each test in its own temporary directory. */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "sqlcheck.h"
#include "store/schema.h"
#include "store/store.h"
#include "util/util.h"

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A fresh directory; the caller frees the name after rm_tmp. */
static char *mk_tmp(void)
{
	const char *base = getenv("TMPDIR");
	char *dir = gs_xasprintf("%s/gs_store_XXXXXX", base && *base ? base : "/tmp");

	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

static void rm_tmp(char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

static struct gs_store *open_ok(const char *path, int readonly)
{
	struct gs_store *s;
	int rc = gs_store_open(&s, path, readonly);

	ck_assert_msg(rc == 0, "open %s: %d %s", path, rc, gs_store_errmsg(s));
	return s;
}

static void sql_exec(sqlite3 *db, const char *sql)
{
	ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK, "%s: %s", sql,
		      sqlite3_errmsg(db));
}

static struct gs_sweep_ident ident(const char *hash)
{
	return (struct gs_sweep_ident){
		.space_name = "matmul",
		.space_path = "spaces/matmul.space",
		.space_hash = "11111111111111111111111111111111",
		.kernel_hash = "22222222222222222222222222222222",
		.problem_json = "{\"N\":4096}",
		.options_json = "{}",
		.device = "emu:sm_90",
		.params_json = "[{\"name\":\"TILE\",\"values\":[8,16]}]",
		.shard = "0/1",
		.ident_hash = hash,
	};
}

static const char *const HASH_A = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
static const char *const HASH_B = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

static int64_t sweep_ok(struct gs_store *s, const char *hash, int want_created)
{
	struct gs_sweep_ident id = ident(hash);
	int64_t sweep_id = -1;
	int created = -1;

	ck_assert_msg(gs_store_sweep_open(s, &id, &sweep_id, &created) == 0, "%s",
		      gs_store_errmsg(s));
	ck_assert_int_eq(created, want_created);
	ck_assert_int_gt(sweep_id, 0);
	return sweep_id;
}

/* TILE in {8, 16, 32} x UNROLL in {1, 2}: six configurations. */
static void add_configs(struct gs_store *s, int64_t sweep_id)
{
	static const int tiles[] = { 8, 16, 32 }, unrolls[] = { 1, 2 };
	int64_t idx = 0;

	ck_assert_int_eq(gs_store_begin(s), 0);
	for (size_t t = 0; t < 3; t++)
		for (size_t u = 0; u < 2; u++, idx++) {
			char *p = gs_xasprintf("{\"TILE\":%d,\"UNROLL\":%d}", tiles[t], unrolls[u]);

			ck_assert_msg(gs_store_config_add(s, sweep_id, idx, p, tiles[t] == 16 &&
								     unrolls[u] == 2) == 0,
				      "%s", gs_store_errmsg(s));
			free(p);
		}
	ck_assert_int_eq(gs_store_commit(s), 0);
}

START_TEST(test_open_creates_and_migrates)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/m.db", dir);
	struct gs_store *s = open_ok(path, 0);
	sqlite3 *db = gs_store_sqlite(s);
	char *mode;

	ck_assert_int_eq(gs_store_schema_version(s), GS_STORE_SCHEMA_VERSION);
	mode = sql_text(db, "PRAGMA journal_mode");
	ck_assert_str_eq(mode, "wal");
	free(mode);
	ck_assert_int_eq(sql_int(db, "PRAGMA foreign_keys"), 1);
	ck_assert_int_eq(sql_int(db, "PRAGMA synchronous"), 1); /* NORMAL */
	ck_assert_int_gt(sql_int(db, "PRAGMA busy_timeout"), 0);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
				     "name IN ('sweep', 'config', 'variant', 'result')"),
			 4);
	gs_store_close(s);

	/* Reopening finds the schema current and changes nothing. */
	s = open_ok(path, 0);
	ck_assert_int_eq(gs_store_schema_version(s), GS_STORE_SCHEMA_VERSION);
	gs_store_close(s);
	s = open_ok(path, 1);
	ck_assert_int_eq(gs_store_schema_version(s), GS_STORE_SCHEMA_VERSION);
	gs_store_close(s);
	free(path);
	rm_tmp(dir);
}
END_TEST

START_TEST(test_open_creates_parent_dirs)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/results/deeper/m.db", dir);
	struct gs_store *s = open_ok(path, 0);
	struct stat sb;

	gs_store_close(s);
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert(S_ISREG(sb.st_mode));
	free(path);
	rm_tmp(dir);
}
END_TEST

START_TEST(test_open_parent_is_a_file)
{
	char *dir = mk_tmp();
	char *file = gs_xasprintf("%s/plain", dir);
	char *path = gs_xasprintf("%s/plain/m.db", dir);
	char *want = gs_xasprintf("cannot create directory %s: ", file);
	struct gs_store *s;
	FILE *f = fopen(file, "w");

	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_lt(gs_store_open(&s, path, 0), 0);
	ck_assert_msg(strncmp(gs_store_errmsg(s), want, strlen(want)) == 0, "%s",
		      gs_store_errmsg(s));
	gs_store_close(s);
	free(want);
	free(path);
	free(file);
	rm_tmp(dir);
}
END_TEST

START_TEST(test_readonly_missing_file)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/results/none.db", dir);
	char *want = gs_xasprintf("cannot open %s: unable to open database file", path);
	struct gs_store *s;
	struct stat sb;

	ck_assert_int_eq(gs_store_open(&s, path, 1), -ENOENT);
	ck_assert_msg(strncmp(gs_store_errmsg(s), want, strlen(want)) == 0, "%s",
		      gs_store_errmsg(s));
	gs_store_close(s);
	/* Neither the file nor its directory was created. */
	free(path);
	path = gs_xasprintf("%s/results", dir);
	ck_assert_int_ne(stat(path, &sb), 0);
	free(want);
	free(path);
	rm_tmp(dir);
}
END_TEST

START_TEST(test_readonly_refuses_writes)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/m.db", dir);
	struct gs_store *s = open_ok(path, 0);
	int64_t id = sweep_ok(s, HASH_A, 1), n = -1;

	gs_store_close(s);
	s = open_ok(path, 1);
	ck_assert_int_eq(gs_store_config_count(s, id, &n), 0);
	ck_assert_int_eq(n, 0);
	ck_assert_int_lt(gs_store_config_add(s, id, 0, "{\"TILE\":8}", 0), 0);
	ck_assert_msg(strstr(gs_store_errmsg(s), "cannot store configuration 0 of sweep 1: ") &&
			      strstr(gs_store_errmsg(s), "readonly"),
		      "%s", gs_store_errmsg(s));
	gs_store_close(s);
	free(path);
	rm_tmp(dir);
}
END_TEST

START_TEST(test_newer_schema_refused)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/m.db", dir);
	char *want = gs_xasprintf("cannot open %s: database was written by a newer gsearch "
				  "(schema %d, this gsearch knows %d)",
				  path, GS_STORE_SCHEMA_VERSION + 1, GS_STORE_SCHEMA_VERSION);
	char *newer = gs_xasprintf("PRAGMA user_version = %d", GS_STORE_SCHEMA_VERSION + 1);
	struct gs_store *s = open_ok(path, 0);

	sql_exec(gs_store_sqlite(s), newer);
	free(newer);
	gs_store_close(s);
	for (int ro = 0; ro < 2; ro++) {
		ck_assert_int_eq(gs_store_open(&s, path, ro), -EPROTO);
		ck_assert_str_eq(gs_store_errmsg(s), want);
		gs_store_close(s);
	}
	free(want);
	free(path);
	rm_tmp(dir);
}
END_TEST

START_TEST(test_foreign_files_refused)
{
	char *dir = mk_tmp();
	char *other = gs_xasprintf("%s/other.db", dir);
	char *text = gs_xasprintf("%s/text.db", dir);
	struct gs_store *s;
	sqlite3 *db;
	FILE *f;

	ck_assert_int_eq(sqlite3_open(other, &db), SQLITE_OK);
	sql_exec(db, "CREATE TABLE mine (x)");
	sqlite3_close(db);
	ck_assert_int_eq(gs_store_open(&s, other, 0), -EPROTO);
	ck_assert_msg(strstr(gs_store_errmsg(s), "not a gsearch database"), "%s",
		      gs_store_errmsg(s));
	gs_store_close(s);

	f = fopen(text, "w");
	ck_assert_ptr_nonnull(f);
	fputs("this is not an SQLite file, but it is long enough to have a header\n"
	      "this is not an SQLite file, but it is long enough to have a header\n",
	      f);
	fclose(f);
	ck_assert_int_lt(gs_store_open(&s, text, 0), 0);
	ck_assert_msg(strstr(gs_store_errmsg(s), "cannot open ") &&
			      strstr(gs_store_errmsg(s), "file is not a database"),
		      "%s", gs_store_errmsg(s));
	gs_store_close(s);
	free(other);
	free(text);
	rm_tmp(dir);
}
END_TEST

START_TEST(test_sweep_reopen_and_new_ident)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/m.db", dir);
	struct gs_store *s = open_ok(path, 0);
	int64_t a = sweep_ok(s, HASH_A, 1), b;
	char *v;

	ck_assert_int_eq(sweep_ok(s, HASH_A, 0), a);
	gs_store_close(s);

	s = open_ok(path, 0);
	ck_assert_int_eq(sweep_ok(s, HASH_A, 0), a);
	b = sweep_ok(s, HASH_B, 1);
	ck_assert_int_ne(a, b);
	ck_assert_int_eq(sweep_ok(s, HASH_B, 0), b);
	ck_assert_int_eq(sql_int(gs_store_sqlite(s), "SELECT count(*) FROM sweep"), 2);

	v = sql_text(gs_store_sqlite(s), "SELECT status FROM sweep WHERE id = 1");
	ck_assert_str_eq(v, "created");
	free(v);
	ck_assert_int_eq(sql_int(gs_store_sqlite(s),
				 "SELECT count(*) FROM sweep WHERE id = 1 AND created_at GLOB "
				 "'[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:"
				 "[0-9][0-9]Z' AND host IS NOT NULL AND gsearch_version IS NOT NULL "
				 "AND space_path = 'spaces/matmul.space' AND shard = '0/1'"),
			 1);
	gs_store_close(s);
	free(path);
	rm_tmp(dir);
}
END_TEST

START_TEST(test_sweep_status_and_times)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/m.db", dir);
	struct gs_store *s = open_ok(path, 0);
	int64_t id = sweep_ok(s, HASH_A, 1);
	sqlite3 *db = gs_store_sqlite(s);

	ck_assert_int_eq(gs_store_sweep_set_status(s, id, "running"), 0);
	ck_assert_int_eq(sql_int(db, "SELECT started_at IS NOT NULL AND finished_at IS NULL "
				     "FROM sweep WHERE id = 1 AND status = 'running'"),
			 1);
	ck_assert_int_eq(gs_store_sweep_set_status(s, id, "done"), 0);
	ck_assert_int_eq(sql_int(db, "SELECT finished_at IS NOT NULL FROM sweep "
				     "WHERE id = 1 AND status = 'done'"),
			 1);
	ck_assert_int_eq(gs_store_sweep_set_status(s, 99, "done"), -ENOENT);
	ck_assert_str_eq(gs_store_errmsg(s), "cannot set the status of sweep 99: no such sweep");

	struct gs_sweep_times t1 = { .wall_s = 10, .compile_busy_s = 4, .device_busy_s = 8,
				     .compile_threads = 4, .worker_restarts = 2, .restart_s = 1.5,
				     .timed_s = 6 };
	struct gs_sweep_times t2 = { .wall_s = 1, .compile_busy_s = 0.5, .device_busy_s = 0.25,
				     .compile_threads = 2, .timed_s = 0.125 };
	ck_assert_int_eq(gs_store_sweep_add_times(s, id, &t1), 0);
	ck_assert_int_eq(gs_store_sweep_add_times(s, id, &t2), 0);
	/* a resumed sweep adds its runs up; the threads are the most any used */
	ck_assert_int_eq(sql_int(db, "SELECT wall_s = 11 AND compile_busy_s = 4.5 AND "
				     "device_busy_s = 8.25 AND compile_threads = 4 AND "
				     "worker_restarts = 2 AND restart_s = 1.5 AND timed_s = 6.125 "
				     "FROM sweep WHERE id = 1"),
			 1);
	ck_assert_int_eq(gs_store_sweep_add_times(s, 99, &t2), -ENOENT);
	gs_store_close(s);
	free(path);
	rm_tmp(dir);
}
END_TEST

START_TEST(test_config_idempotent_and_conflict)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/m.db", dir);
	struct gs_store *s = open_ok(path, 0);
	int64_t id = sweep_ok(s, HASH_A, 1), n = -1;

	add_configs(s, id);
	ck_assert_int_eq(gs_store_config_count(s, id, &n), 0);
	ck_assert_int_eq(n, 6);

	/* Resuming adds the same rows again: nothing changes. */
	add_configs(s, id);
	ck_assert_int_eq(gs_store_config_count(s, id, &n), 0);
	ck_assert_int_eq(n, 6);

	ck_assert_int_eq(gs_store_config_add(s, id, 3, "{\"TILE\":64,\"UNROLL\":2}", 1), -EEXIST);
	ck_assert_msg(strstr(gs_store_errmsg(s), "configuration 3 of sweep 1 already stored with "
						 "different parameters"),
		      "%s", gs_store_errmsg(s));
	ck_assert_int_eq(gs_store_config_add(s, id, 3, "{\"TILE\":16,\"UNROLL\":2}", 0), -EEXIST);
	ck_assert_msg(strstr(gs_store_errmsg(s), "different baseline flag"), "%s",
		      gs_store_errmsg(s));
	ck_assert_int_eq(sql_int(gs_store_sqlite(s), "SELECT count(*) FROM config WHERE idx = 3 "
						     "AND params = '{\"TILE\":16,\"UNROLL\":2}' AND "
						     "baseline = 1"),
			 1);

	/* A configuration of a sweep that does not exist breaks a foreign key. */
	ck_assert_int_lt(gs_store_config_add(s, 42, 0, "{}", 0), 0);
	ck_assert_msg(strstr(gs_store_errmsg(s), "cannot store configuration 0 of sweep 42: "),
		      "%s", gs_store_errmsg(s));

	/* Rolled back rows are gone. */
	ck_assert_int_eq(gs_store_begin(s), 0);
	ck_assert_int_eq(gs_store_config_add(s, id, 6, "{\"TILE\":64,\"UNROLL\":1}", 0), 0);
	ck_assert_int_eq(gs_store_rollback(s), 0);
	ck_assert_int_eq(gs_store_config_count(s, id, &n), 0);
	ck_assert_int_eq(n, 6);
	gs_store_close(s);
	free(path);
	rm_tmp(dir);
}
END_TEST

static const char *const PARAMS[] = { "TILE", "UNROLL" };

START_TEST(test_views_one_column_per_param)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/m.db", dir);
	struct gs_store *s = open_ok(path, 0);
	int64_t id = sweep_ok(s, HASH_A, 1);
	sqlite3 *db = gs_store_sqlite(s);
	sqlite3_stmt *st;
	char *v;

	add_configs(s, id);
	sql_exec(db, "INSERT INTO result (sweep_id, idx, status, time_ms) VALUES (1, 3, 'ok', 1.5)");
	ck_assert_msg(gs_store_views(s, id, "matmul", PARAMS, 2) == 0, "%s", gs_store_errmsg(s));
	/* Idempotent. */
	ck_assert_msg(gs_store_views(s, id, "matmul", PARAMS, 2) == 0, "%s", gs_store_errmsg(s));

	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM (SELECT \"TILE\" FROM sweep_1 "
				     "WHERE \"TILE\" = 16)"),
			 2);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM matmul WHERE TILE = 32 AND UNROLL = 2"),
			 1);
	ck_assert_int_eq(sql_int(db, "SELECT idx FROM matmul WHERE baseline"), 3);
	v = sql_text(db, "SELECT status || ' ' || time_ms FROM sweep_1 WHERE TILE = 16 AND UNROLL = 2");
	ck_assert_str_eq(v, "ok 1.5");
	free(v);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM sweep_1 WHERE status IS NULL"), 5);

	/* the sweep and idx, then the parameters in declaration order */
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT * FROM sweep_1", -1, &st, NULL), SQLITE_OK);
	ck_assert_str_eq(sqlite3_column_name(st, 0), "sweep_id");
	ck_assert_str_eq(sqlite3_column_name(st, 1), "idx");
	ck_assert_str_eq(sqlite3_column_name(st, 2), "TILE");
	ck_assert_str_eq(sqlite3_column_name(st, 3), "UNROLL");
	ck_assert_str_eq(sqlite3_column_name(st, 4), "baseline");
	ck_assert_str_eq(sqlite3_column_name(st, 6), "modeled");
	sqlite3_finalize(st);
	gs_store_close(s);
	free(path);
	rm_tmp(dir);
}
END_TEST

START_TEST(test_views_space_follows_newest)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/m.db", dir);
	struct gs_store *s = open_ok(path, 0);
	int64_t a = sweep_ok(s, HASH_A, 1), b = sweep_ok(s, HASH_B, 1);
	sqlite3 *db = gs_store_sqlite(s);
	const char *one[] = { "TILE" };

	add_configs(s, a);
	ck_assert_int_eq(gs_store_begin(s), 0);
	ck_assert_int_eq(gs_store_config_add(s, b, 0, "{\"TILE\":128}", 1), 0);
	ck_assert_int_eq(gs_store_commit(s), 0);

	ck_assert_msg(gs_store_views(s, a, "matmul", PARAMS, 2) == 0, "%s", gs_store_errmsg(s));
	/* b is newer but has no view yet: the space view shows a. */
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM matmul"), 6);
	ck_assert_msg(gs_store_views(s, b, "matmul", one, 1) == 0, "%s", gs_store_errmsg(s));
	ck_assert_int_eq(sql_int(db, "SELECT TILE FROM matmul"), 128);
	/* Recreating the older sweep's view leaves the space view on b. */
	ck_assert_msg(gs_store_views(s, a, "matmul", PARAMS, 2) == 0, "%s", gs_store_errmsg(s));
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM matmul"), 1);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM sweep_1"), 6);
	gs_store_close(s);
	free(path);
	rm_tmp(dir);
}
END_TEST

START_TEST(test_views_quoting_and_collisions)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/m.db", dir);
	struct gs_store *s = open_ok(path, 0);
	int64_t id = sweep_ok(s, HASH_A, 1);
	sqlite3 *db = gs_store_sqlite(s);
	const char *odd[] = { "status", "it's", "a b" };
	const char *quote[] = { "x\"y" };
	const char *twice[] = { "Tile", "TILE" };
	struct gs_sweep_ident other = ident("cccccccccccccccccccccccccccccccc");
	int64_t oid;
	int created;

	ck_assert_int_eq(gs_store_begin(s), 0);
	ck_assert_int_eq(gs_store_config_add(s, id, 0, "{\"status\":1,\"it's\":2,\"a b\":3}", 0), 0);
	ck_assert_int_eq(gs_store_commit(s), 0);
	sql_exec(db, "INSERT INTO result (sweep_id, idx, status) VALUES (1, 0, 'timeout')");
	ck_assert_msg(gs_store_views(s, id, "matmul", odd, 3) == 0, "%s", gs_store_errmsg(s));
	/* The parameter keeps its name; the result column gives way. */
	ck_assert_int_eq(sql_int(db, "SELECT status + \"it's\" + \"a b\" FROM sweep_1 "
				     "WHERE gs_status = 'timeout'"),
			 6);

	ck_assert_int_eq(gs_store_views(s, id, "matmul", quote, 1), -EINVAL);
	ck_assert_msg(strstr(gs_store_errmsg(s), "parameter name 'x\"y' cannot name a column"), "%s",
		      gs_store_errmsg(s));
	ck_assert_int_eq(gs_store_views(s, id, "matmul", twice, 2), -EINVAL);
	ck_assert_int_eq(gs_store_views(s, id, "other", odd, 3), -EINVAL);
	ck_assert_msg(strstr(gs_store_errmsg(s), "belongs to space 'matmul'"), "%s",
		      gs_store_errmsg(s));
	ck_assert_int_eq(gs_store_views(s, 99, "matmul", odd, 3), -ENOENT);

	/* A space named like a table cannot have its view; nothing is left
	 * half done. */
	other.space_name = "result";
	ck_assert_int_eq(gs_store_sweep_open(s, &other, &oid, &created), 0);
	ck_assert_int_eq(gs_store_views(s, oid, "result", odd, 3), -EINVAL);
	ck_assert_str_eq(gs_store_errmsg(s),
			 "cannot name a view after space 'result': the store has a table of that name");
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'sweep_2'"), 0);
	/* and a space with a quote in its name is quoted, not spliced */
	other = ident("dddddddddddddddddddddddddddddddd");
	other.space_name = "a\"b'c";
	ck_assert_int_eq(gs_store_sweep_open(s, &other, &oid, &created), 0);
	ck_assert_msg(gs_store_views(s, oid, "a\"b'c", odd, 3) == 0, "%s", gs_store_errmsg(s));
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM \"a\"\"b'c\""), 0);
	gs_store_close(s);
	free(path);
	rm_tmp(dir);
}
END_TEST

START_TEST(test_result_interval_columns)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/m.db", dir);
	struct gs_store *s = open_ok(path, 0);
	int64_t id = sweep_ok(s, HASH_A, 1);
	sqlite3 *db = gs_store_sqlite(s);
	struct gs_result_row r = {
		.sweep_id = id, .idx = 0, .status = "ok", .time_ms = 0.2031, .min_ms = 0.2, .iqr_ms = 0.001,
		.reps = 12, .blocks_per_sm = -1, .occupancy = -1, .energy_j = -1, .power_w = -1,
		.sm_clock_mhz = -1, .temp_c = -1, .max_abs_err = -1, .max_rel_err = -1,
		.ci_lo_ms = 0.2029, .ci_hi_ms = 0.2034, .ci_pct = 96.1, .runs = 12, .warmups = 2,
		.timed_ms = 2.84,
	};

	add_configs(s, id);
	ck_assert_msg(gs_store_result_put(s, &r) == 0, "%s", gs_store_errmsg(s));
	ck_assert_int_eq(sql_int(db, "SELECT ci_lo_ms = 0.2029 AND ci_hi_ms = 0.2034 AND "
				     "ci_pct = 96.1 AND runs = 12 AND warmups = 2 AND timed_ms = 2.84 "
				     "FROM result WHERE idx = 0"),
			 1);
	/* a modeled time: one run, no interval, no timed work */
	r.idx = 1;
	r.modeled = 1;
	r.ci_lo_ms = r.ci_hi_ms = r.ci_pct = r.timed_ms = -1;
	r.runs = 1;
	r.warmups = 0;
	ck_assert_int_eq(gs_store_result_put(s, &r), 0);
	ck_assert_int_eq(sql_int(db, "SELECT ci_lo_ms IS NULL AND ci_hi_ms IS NULL AND ci_pct IS NULL "
				     "AND runs = 1 AND warmups = 0 AND timed_ms IS NULL "
				     "FROM result WHERE idx = 1"),
			 1);
	/* nothing timed: no counts either */
	r.idx = 2;
	r.status = "crash";
	r.time_ms = r.min_ms = r.iqr_ms = -1;
	r.runs = r.warmups = r.reps = -1;
	ck_assert_int_eq(gs_store_result_put(s, &r), 0);
	ck_assert_int_eq(sql_int(db, "SELECT runs IS NULL AND warmups IS NULL FROM result "
				     "WHERE idx = 2"),
			 1);
	ck_assert_int_eq(gs_store_views(s, id, "matmul", (const char *const[]){ "TILE", "UNROLL" }, 2),
			 0);
	ck_assert_int_eq(sql_int(db, "SELECT runs + warmups FROM sweep_1 WHERE idx = 0"), 14);
	gs_store_close(s);
	free(path);
	rm_tmp(dir);
}
END_TEST

/* A store of schema 5 keeps its rows through the migration; what schema 6
 * adds is NULL for them. */
START_TEST(test_migrates_schema_5)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/m.db", dir);
	struct gs_store *s = open_ok(path, 0);
	int64_t id = sweep_ok(s, HASH_A, 1);
	sqlite3 *db = gs_store_sqlite(s);

	add_configs(s, id);
	/* back to schema 5: the columns of steps 6 to 8 dropped */
	sql_exec(db, "INSERT INTO result (sweep_id, idx, status, time_ms) VALUES (1, 0, 'ok', 1.5)");
	sql_exec(db, "UPDATE sweep SET wall_s = 3, compile_busy_s = 1, device_busy_s = 2");
	static const char *const cols[][2] = {
		{ "result", "ci_lo_ms" }, { "result", "ci_hi_ms" }, { "result", "ci_pct" },
		{ "result", "runs" }, { "result", "warmups" }, { "result", "timed_ms" },
		{ "result_conflict", "ci_lo_ms" }, { "result_conflict", "ci_hi_ms" },
		{ "result_conflict", "ci_pct" }, { "result_conflict", "runs" },
		{ "result_conflict", "warmups" }, { "result_conflict", "timed_ms" },
		{ "sweep", "compile_threads" }, { "sweep", "worker_restarts" },
		{ "sweep", "restart_s" }, { "sweep", "timed_s" },
		{ "sweep_part", "compile_threads" }, { "sweep_part", "worker_restarts" },
		{ "sweep_part", "restart_s" }, { "sweep_part", "timed_s" },
		{ "sweep", "baseline_json" }, { "sweep", "source_format" }, { "sweep", "source_path" },
		{ "result", "source_entry" },
		{ "result", "ident" }, { "result", "reused_from" }, { "result", "timeout_s" },
		{ "result_conflict", "ident" }, { "result_conflict", "reused_from" },
		{ "result_conflict", "timeout_s" },
	};
	sql_exec(db, "DROP VIEW IF EXISTS sweep_1; DROP VIEW IF EXISTS matmul;"
		     " DROP INDEX result_ident");
	for (size_t i = 0; i < GS_ARRAY_SIZE(cols); i++) {
		char *sql = gs_xasprintf("ALTER TABLE %s DROP COLUMN %s", cols[i][0], cols[i][1]);
		sql_exec(db, sql);
		free(sql);
	}
	sql_exec(db, "PRAGMA user_version = 5");
	gs_store_close(s);

	s = open_ok(path, 0);
	db = gs_store_sqlite(s);
	ck_assert_int_eq(gs_store_schema_version(s), GS_STORE_SCHEMA_VERSION);
	ck_assert_int_eq(sql_int(db, "SELECT time_ms = 1.5 AND ci_lo_ms IS NULL AND ci_hi_ms IS NULL"
				     " AND ci_pct IS NULL AND runs IS NULL AND warmups IS NULL AND"
				     " timed_ms IS NULL FROM result WHERE idx = 0"),
			 1);
	ck_assert_int_eq(sql_int(db, "SELECT wall_s = 3 AND compile_threads IS NULL AND"
				     " worker_restarts IS NULL AND restart_s IS NULL AND timed_s IS NULL"
				     " FROM sweep WHERE id = 1"),
			 1);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM pragma_table_info('sweep_part') WHERE"
				     " name IN ('compile_threads', 'worker_restarts', 'restart_s',"
				     " 'timed_s')"),
			 4);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM pragma_table_info('result_conflict')"
				     " WHERE name IN ('ci_lo_ms', 'ci_hi_ms', 'ci_pct', 'runs',"
				     " 'warmups', 'timed_ms')"),
			 6);
	gs_store_close(s);
	free(path);
	rm_tmp(dir);
}
END_TEST

/* Every column of the store's tables, as SQLite sees them, in order. */
static char *table_columns(sqlite3 *db)
{
	return sql_text(db, "SELECT group_concat(col, ';') FROM (SELECT m.name || '.' || c.name"
			    " || ' ' || c.type || ' ' || c.\"notnull\" || ' ' ||"
			    " coalesce(c.dflt_value, '') || ' ' || c.pk AS col"
			    " FROM sqlite_master m, pragma_table_xinfo(m.name) c WHERE m.type = 'table'"
			    " AND m.name NOT LIKE 'sqlite%' ORDER BY m.name, c.cid)");
}

/* A store built by the released steps up to schema 6 gains, at schema 7,
 * a comment on every column that ALTER TABLE added (where SQLite had put
 * the comment of the column before), and views with sweep_id and modeled;
 * its columns and rows stay as they were. */
START_TEST(test_migrates_schema_6)
{
	char *dir = mk_tmp();
	char *path = gs_xasprintf("%s/m.db", dir), *fresh = gs_xasprintf("%s/f.db", dir);
	sqlite3 *db;

	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	for (size_t v = 0; v < 6; v++)
		sql_exec(db, gs_store_migrations[v]);
	sql_exec(db, "PRAGMA user_version = 6;"
		     "INSERT INTO sweep (id, ident_hash, space_name, params_json) VALUES"
		     " (1, 'h', 'matmul', '[{\"name\":\"TILE\",\"values\":[8,16]}]');"
		     "INSERT INTO config (sweep_id, idx, params, baseline) VALUES"
		     " (1, 0, '{\"TILE\":8}', 0), (1, 1, '{\"TILE\":16}', 1);"
		     "INSERT INTO result (sweep_id, idx, status, time_ms, modeled) VALUES"
		     " (1, 1, 'ok', 2.5, 1);"
		     "CREATE VIEW sweep_1 AS SELECT c.idx, json_extract(c.params, '$.TILE') AS TILE"
		     " FROM config c WHERE c.sweep_id = 1;"
		     "CREATE VIEW matmul AS SELECT * FROM sweep_1;");
	char *cols = table_columns(db);
	/* what SQLite made of the released steps: a comment on the wrong column */
	ck_assert_int_eq(sql_int(db, "SELECT sql LIKE '%ON DELETE SET NULL, -- the hand-picked one%'"
				     " FROM sqlite_master WHERE name = 'config'"),
			 1);
	sqlite3_close(db);

	struct gs_store *s = open_ok(path, 0);
	db = gs_store_sqlite(s);
	ck_assert_int_eq(gs_store_schema_version(s), GS_STORE_SCHEMA_VERSION);
	/* the columns of schema 6, sweep.baseline_json after the others, and
	 * schema 8's columns of imported sweeps, and result's (and
	 * result_conflict's) three of schema 9 */
	char *after = table_columns(db);
	char *want = gs_xstrdup(cols);
	char *cut[3] = { strstr(want, ";result_conflict."), strstr(want, ";sweep."),
			 strstr(want, ";sweep_part.") };
	ck_assert_ptr_nonnull(cut[0]);
	ck_assert_ptr_nonnull(cut[1]);
	ck_assert_ptr_nonnull(cut[2]);
	char *rest[3] = { gs_xstrdup(cut[0]), gs_xstrdup(cut[1]), gs_xstrdup(cut[2]) };
	*cut[0] = '\0';
	rest[0][cut[1] - cut[0]] = '\0';
	rest[1][cut[2] - cut[1]] = '\0';
#define V9(t) ";" t ".ident TEXT 0  0;" t ".reused_from INTEGER 0  0;" t ".timeout_s REAL 0  0"
	char *want7 = gs_xasprintf("%s;result.source_entry TEXT 0  0" V9("result") "%s"
				   V9("result_conflict") "%s;sweep.baseline_json TEXT 0  0"
				   ";sweep.source_format TEXT 0  0;sweep.source_path TEXT 0  0%s",
				   want, rest[0], rest[1], rest[2]);
#undef V9
	for (size_t i = 0; i < 3; i++)
		free(rest[i]);
	ck_assert_str_eq(after, want7);
	ck_assert_int_eq(sql_int(db, "SELECT baseline_json IS NULL FROM sweep WHERE id = 1"), 1);
	char *ok = sql_text(db, "PRAGMA integrity_check");
	ck_assert_str_eq(ok, "ok");
	static const char *const comments[][2] = {
		{ "config", "%(0, 1)), -- the hand-picked one\n  variant_hash TEXT %, -- NULL: not"
			    " compiled yet\n%" },
		{ "variant", "%\n  entries TEXT % -- JSON list of lowered kernel names\n)" },
		{ "sweep", "%\n  compile_threads INTEGER, % -- the most any run compiled with\n%" },
		{ "sweep", "%\n  timed_s REAL, % -- timed kernel work the results report\n"
			   "  baseline_json TEXT,% -- the space's baseline %\n"
			   "  source_path TEXT % -- the file it was imported from, as given\n)" },
		{ "result", "%\n  modeled INTEGER NOT NULL DEFAULT 0, -- 1: time_ms is modeled\n%" },
		{ "result", "%\n  ci_lo_ms REAL, % -- the median's 95\\% interval, low end\n%" },
		{ "result_conflict", "%\n  modeled INTEGER,\n  ci_lo_ms REAL,\n%" },
		{ "sweep_part", "%\n  source TEXT, % -- the database merged from, as given; NULL: this"
				" one\n  compile_threads INTEGER,%" },
		{ "result", "%\n  timed_ms REAL, % -- timed kernel work, warm-up included\n"
			    "  source_entry TEXT, % -- imported: the file's fields that have no column"
			    " here (JSON)\n"
			    "  ident TEXT, % -- hash of what determines the outcome; NULL: before schema 9\n"
			    "  reused_from INTEGER, % -- the sweep that measured it; NULL: this one,\n"
			    "% -- 0: one of a store merged into this one\n"
			    "  timeout_s REAL, % -- the time limit per configuration it ran under\n"
			    "  PRIMARY%" },
		{ "result_conflict", "%\n  timed_ms REAL,\n  ident TEXT,\n  reused_from INTEGER,\n"
				     "  timeout_s REAL,\n  FOREIGN%" },
	};
	for (size_t i = 0; i < GS_ARRAY_SIZE(comments); i++) {
		sqlite3_stmt *st;
		ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT sql LIKE ?2 ESCAPE '\\' FROM"
						    " sqlite_master WHERE name = ?1", -1, &st, NULL),
				 SQLITE_OK);
		sqlite3_bind_text(st, 1, comments[i][0], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, comments[i][1], -1, SQLITE_STATIC);
		ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
		ck_assert_msg(sqlite3_column_int(st, 0) == 1, "%s lacks %s", comments[i][0],
			      comments[i][1]);
		sqlite3_finalize(st);
	}
	/* the views were made again, with the sweep and the modeled flag */
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM sweep_1 WHERE sweep_id = 1"), 2);
	ck_assert_int_eq(sql_int(db, "SELECT modeled FROM matmul WHERE TILE = 16 AND baseline"), 1);
	gs_store_close(s);

	/* and a store made now reads the same */
	s = open_ok(fresh, 0);
	char *made = table_columns(gs_store_sqlite(s));
	ck_assert_str_eq(made, want7);
	char *schema_new = sql_text(gs_store_sqlite(s), "SELECT group_concat(sql, ';') FROM (SELECT"
						       " sql FROM sqlite_master WHERE type = 'table'"
						       " AND name NOT LIKE 'sqlite%' ORDER BY name)");
	gs_store_close(s);
	s = open_ok(path, 0);
	char *schema_old = sql_text(gs_store_sqlite(s), "SELECT group_concat(sql, ';') FROM (SELECT"
						       " sql FROM sqlite_master WHERE type = 'table'"
						       " AND name NOT LIKE 'sqlite%' ORDER BY name)");
	ck_assert_str_eq(schema_old, schema_new);
	gs_store_close(s);
	free(schema_new);
	free(schema_old);
	free(made);
	free(want);
	free(want7);
	free(ok);
	free(after);
	free(cols);
	free(fresh);
	free(path);
	rm_tmp(dir);
}
END_TEST

GS_TEST_MAIN(test_open_creates_and_migrates, test_open_creates_parent_dirs,
	     test_open_parent_is_a_file, test_readonly_missing_file, test_readonly_refuses_writes,
	     test_newer_schema_refused, test_foreign_files_refused, test_sweep_reopen_and_new_ident,
	     test_sweep_status_and_times, test_config_idempotent_and_conflict,
	     test_views_one_column_per_param, test_views_space_follows_newest,
	     test_views_quoting_and_collisions, test_result_interval_columns,
	     test_migrates_schema_5, test_migrates_schema_6)
