/* test_merge.c — `gsearch merge`'s logic: shards become the sweep a single
 * run makes, different sweeps are refused, rows are not duplicated,
 * conflicting re-measurements are kept, merging twice changes nothing, the
 * compile cache is united.  Each test builds its stores with the store's API
 * in a temporary directory. */
#define _GNU_SOURCE
#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "sqlcheck.h"
#include "store/merge.h"
#include "store/store.h"
#include "util/util.h"

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static char *dir;

static void setup(void)
{
	const char *base = getenv("TMPDIR");

	dir = gs_xasprintf("%s/gs_merge_XXXXXX", base && *base ? base : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

static char *path_of(const char *name)
{
	return gs_xasprintf("%s/%s", dir, name);
}

/* What a run stores, and how the test makes it differ from another run. */
struct run {
	const char *device;
	uint64_t shard_i, shard_n;
	int64_t odd_idx;      /* this configuration gets another time (-1: none) */
	int64_t crash_idx;    /* and this one crashes (-1: none) */
	const char *host;     /* NULL: this host */
	const char *status;   /* the sweep's final status */
	double wall_s;
};

#define NCONFIGS 6

static double time_of(int64_t idx)
{
	return 1.0 + (double)idx / 8;
}

/* A store at `name` holding one run: the configurations of its shard of
 * TILE {8, 16, 32} x UNROLL {1, 2}, a variant per (idx % 4), one unused
 * variant named after the file, and an outcome for each configuration. */
static void make_run(const char *name, const struct run *r)
{
	char *path = path_of(name), shard[32], hash[33];
	struct gs_store *s;
	int64_t sweep;
	int created;

	snprintf(shard, sizeof(shard), "%llu/%llu", (unsigned long long)r->shard_i,
		 (unsigned long long)r->shard_n);
	struct gs_sweep_ident id = {
		.space_name = "matmul",
		.space_path = "spaces/matmul.space",
		.space_hash = "11111111111111111111111111111111",
		.kernel_hash = "22222222222222222222222222222222",
		.problem_json = "{\"N\":4096}",
		.options_json = "{}",
		.device = r->device ? r->device : "emu:sm_90",
		.params_json = "[{\"name\":\"TILE\",\"values\":[8,16,32]},"
			       "{\"name\":\"UNROLL\",\"values\":[1,2]}]",
		.shard = shard,
		.ident_hash = hash,
	};
	gs_sweep_ident_hash(&id, hash);
	ck_assert_msg(gs_store_open(&s, path, 0) == 0, "%s", gs_store_errmsg(s));
	ck_assert_msg(gs_store_sweep_open(s, &id, &sweep, &created) == 0, "%s", gs_store_errmsg(s));
	ck_assert_int_eq(gs_store_sweep_set_status(s, sweep, "running"), 0);
	ck_assert_int_eq(gs_store_begin(s), 0);
	char *extra = gs_xasprintf("unused-%s", name);
	struct gs_variant_row v = { .hash = extra, .status = "ok", .ptx = name, .registers = 8 };
	ck_assert_int_eq(gs_store_variant_put(s, &v), 0);
	for (int64_t idx = 0; idx < NCONFIGS; idx++) {
		if ((uint64_t)idx % r->shard_n != r->shard_i)
			continue;
		int tile = idx / 2 == 0 ? 8 : idx / 2 == 1 ? 16 : 32, unroll = idx % 2 + 1;
		char *p = gs_xasprintf("{\"TILE\":%d,\"UNROLL\":%d}", tile, unroll);
		char vh[8];

		snprintf(vh, sizeof(vh), "v%d", (int)(idx % 4));
		v = (struct gs_variant_row){ .hash = vh, .status = "ok", .ptx = vh,
					     .registers = 16 + (int)(idx % 4), .static_smem = -1,
					     .local_bytes = -1, .spill_stores = -1, .spill_loads = -1,
					     .max_threads = 1024 };
		ck_assert_int_eq(gs_store_variant_put(s, &v), 0);
		ck_assert_int_eq(gs_store_config_add(s, sweep, idx, p, tile == 16 && unroll == 2), 0);
		ck_assert_int_eq(gs_store_config_set_variant(s, sweep, idx, vh), 0);
		struct gs_result_row res = {
			.sweep_id = sweep,
			.idx = idx,
			.variant_hash = vh,
			.status = idx == r->crash_idx ? "crash" : "ok",
			.device = "cuda:0",
			.time_ms = idx == r->crash_idx ? -1 : time_of(idx) + (idx == r->odd_idx),
			.min_ms = idx == r->crash_idx ? -1 : time_of(idx),
			.iqr_ms = 0,
			.reps = 10,
			.blocks_per_sm = 2,
			.occupancy = 0.5,
			.energy_j = -1, .power_w = -1, .sm_clock_mhz = -1, .temp_c = -1,
			.max_abs_err = 0, .max_rel_err = 0,
			.ci_lo_ms = idx == r->crash_idx ? -1 : time_of(idx) * 0.99,
			.ci_hi_ms = idx == r->crash_idx ? -1 : time_of(idx) * 1.01 + (idx == r->odd_idx),
			.ci_pct = idx == r->crash_idx ? -1 : 95.1,
			.runs = idx == r->crash_idx ? -1 : 10,
			.warmups = 2,
			.timed_ms = idx == r->crash_idx ? -1 : 10 * time_of(idx),
		};
		ck_assert_msg(gs_store_result_put(s, &res) == 0, "%s", gs_store_errmsg(s));
		free(p);
	}
	ck_assert_int_eq(gs_store_commit(s), 0);
	struct gs_sweep_times t = { .wall_s = r->wall_s, .compile_busy_s = 0.5,
				    .device_busy_s = r->wall_s / 2,
				    .compile_threads = 2 + (int)r->shard_i,
				    .worker_restarts = r->shard_i, .restart_s = 0.25 * (double)r->shard_i,
				    .timed_s = r->wall_s / 4 };
	ck_assert_int_eq(gs_store_sweep_add_times(s, sweep, &t), 0);
	ck_assert_int_eq(gs_store_sweep_set_status(s, sweep, r->status ? r->status : "done"), 0);
	if (r->host) {
		char *sql = sqlite3_mprintf("UPDATE sweep SET host = %Q", r->host);

		ck_assert_int_eq(sqlite3_exec(gs_store_sqlite(s), sql, NULL, NULL, NULL), SQLITE_OK);
		sqlite3_free(sql);
	}
	gs_store_close(s);
	free(extra);
	free(path);
}

static struct run shard(uint64_t i, uint64_t n)
{
	return (struct run){ .shard_i = i, .shard_n = n, .odd_idx = -1, .crash_idx = -1,
			     .wall_s = 2.0 + (double)i };
}

/* Merges the named stores into `out`; returns gs_merge's code, the error
 * text in *err when err is not NULL. */
static int merge(const char *out, const char *const *names, size_t n, int force,
		 struct gs_merge_stats *ms, char **err)
{
	char *o = path_of(out);
	char **in = gs_xcalloc(n + 1, sizeof(*in));
	struct gs_merge_opts opts = { .force = force };
	struct gs_buf e = GS_BUF_INIT;
	int rc;

	for (size_t i = 0; i < n; i++)
		in[i] = path_of(names[i]);
	rc = gs_merge(o, (const char *const *)in, n, &opts, ms, &e);
	if (err)
		*err = gs_buf_detach(&e);
	else
		ck_assert_msg(rc == 0, "merge into %s: %d %s", out, rc, gs_buf_str(&e));
	gs_buf_release(&e);
	for (size_t i = 0; i < n; i++)
		free(in[i]);
	free(in);
	free(o);
	return rc;
}

static sqlite3 *open_db(const char *name)
{
	char *p = path_of(name);
	sqlite3 *db;

	ck_assert_int_eq(sqlite3_open_v2(p, &db, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
	free(p);
	return db;
}

static int dump_row(void *arg, int n, char **vals, char **names)
{
	(void)names;
	for (int i = 0; i < n; i++)
		gs_buf_printf(arg, "%s|", vals[i] ? vals[i] : "NULL");
	gs_buf_putc(arg, '\n');
	return 0;
}

/* Every row of every table and the schema, as text: equal dumps, equal
 * stores. */
static char *dump(const char *name)
{
	static const char *const sql[] = {
		"SELECT type, name, sql FROM sqlite_master ORDER BY name",
		"SELECT * FROM sweep ORDER BY id",
		"SELECT * FROM config ORDER BY sweep_id, idx",
		"SELECT * FROM variant ORDER BY hash",
		"SELECT * FROM result ORDER BY sweep_id, idx",
		"SELECT * FROM sweep_part ORDER BY sweep_id, ident_hash, host, created_at",
		"SELECT * FROM result_conflict ORDER BY id",
	};
	sqlite3 *db = open_db(name);
	struct gs_buf b = GS_BUF_INIT;

	for (size_t i = 0; i < GS_ARRAY_SIZE(sql); i++)
		ck_assert_int_eq(sqlite3_exec(db, sql[i], dump_row, &b, NULL), SQLITE_OK);
	sqlite3_close(db);
	return gs_buf_detach(&b);
}

/* Rows of table (the columns cols) in one store and not in the other,
 * both ways; `other` is the attached store's schema name. */
static int64_t differing(sqlite3 *db, const char *other, const char *cols, const char *table)
{
	char *sql = gs_xasprintf("SELECT (SELECT count(*) FROM (SELECT %s FROM main.%s EXCEPT SELECT"
				 " %s FROM %s.%s)) + (SELECT count(*) FROM (SELECT %s FROM %s.%s"
				 " EXCEPT SELECT %s FROM main.%s))",
				 cols, table, cols, other, table, cols, other, table, cols, table);
	int64_t n = sql_int(db, sql);

	free(sql);
	return n;
}

static const char RESULT_COLS[] =
	"idx, variant_hash, status, time_ms, min_ms, iqr_ms, reps, blocks_per_sm, occupancy,"
	" limiter, energy_j, power_w, sm_clock_mhz, temp_c, max_abs_err, max_rel_err, error,"
	" metrics, counters, device, ci_lo_ms, ci_hi_ms, ci_pct, runs, warmups, timed_ms";

START_TEST(test_shards_equal_single_run)
{
	struct run full = shard(0, 1);
	struct gs_merge_stats ms;
	static const char *const in[] = { "s0.db", "s1.db", "s2.db" };

	make_run("full.db", &full);
	for (uint64_t i = 0; i < 3; i++) {
		struct run r = shard(i, 3);

		make_run(in[i], &r);
	}
	merge("m.db", in, 3, 0, &ms, NULL);
	ck_assert_int_eq(ms.inputs, 3);
	ck_assert_int_eq(ms.sweeps_in, 3);
	ck_assert_int_eq(ms.nout, 1);
	ck_assert_int_eq(ms.configs_new, NCONFIGS);
	ck_assert_int_eq(ms.results_new, NCONFIGS);
	ck_assert_int_eq(ms.results_same, 0);
	ck_assert_int_eq(ms.conflicts_new, 0);
	ck_assert_int_eq(ms.parts_new, 3);
	ck_assert_str_eq(ms.out[0].status, "done");
	ck_assert_ptr_null(ms.out[0].missing);
	ck_assert_int_eq(ms.out[0].parts, 3);
	gs_merge_stats_release(&ms);

	sqlite3 *db = open_db("m.db");
	char *full_path = path_of("full.db");
	char *sql = sqlite3_mprintf("ATTACH %Q AS f", full_path);
	ck_assert_int_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_free(sql);
	free(full_path);
	/* the very sweep the single run made: identity, configurations, outcomes */
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM main.sweep m JOIN f.sweep USING"
				     " (ident_hash, space_name, shard, device, params_json)"),
			 1);
	ck_assert_int_eq(differing(db, "f", "idx, params, baseline, variant_hash", "config"), 0);
	ck_assert_int_eq(differing(db, "f", RESULT_COLS, "result"), 0);
	/* the variants too, but each store's unused one */
	ck_assert_int_eq(differing(db, "f", "hash, status, ptx, registers", "variant"), 3 + 1);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM result"), NCONFIGS);
	/* the sweep's row sums up its three parts: 2 + 3 + 4 s of wall time */
	ck_assert_int_eq(sql_int(db, "SELECT wall_s * 10 FROM sweep"), 90);
	ck_assert_int_eq(sql_int(db, "SELECT count(DISTINCT shard) FROM sweep_part"), 3);
	ck_assert_int_eq(sql_int(db, "SELECT sum(configs) FROM sweep_part"), NCONFIGS);
	char *st = sql_text(db, "SELECT status FROM sweep");
	ck_assert_str_eq(st, "done");
	free(st);
	/* views as a run makes them */
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM matmul WHERE status = 'ok'"), NCONFIGS);
	ck_assert_int_eq(sql_int(db, "SELECT TILE * 10 + UNROLL FROM sweep_1 WHERE idx = 3"), 162);
	sqlite3_close(db);
}
END_TEST

START_TEST(test_refuses_different_identities)
{
	struct run a = shard(0, 2), b = shard(1, 2);
	struct gs_merge_stats ms;
	static const char *const in[] = { "a.db", "b.db" };
	char *err, *out = path_of("m.db");

	b.device = "emu:sm_80";
	make_run("a.db", &a);
	make_run("b.db", &b);
	ck_assert_int_lt(merge("m.db", in, 2, 0, &ms, &err), 0);
	gs_merge_stats_release(&ms);
	ck_assert_msg(strstr(err, "are not the same sweep: they differ in device ('emu:sm_90' and "
				  "'emu:sm_80');") && strstr(err, "--force"),
		      "%s", err);
	free(err);
	ck_assert_int_ne(access(out, F_OK), 0); /* refused: nothing written */

	/* asked for: each identity a sweep of its own, each with its own gaps */
	ck_assert_int_eq(merge("m.db", in, 2, 1, &ms, &err), 0);
	free(err);
	ck_assert_int_eq(ms.nout, 2);
	ck_assert_str_eq(ms.out[0].missing, "1/2");
	ck_assert_str_eq(ms.out[1].missing, "0/2");
	ck_assert_str_eq(ms.out[0].status, "interrupted");
	gs_merge_stats_release(&ms);
	sqlite3 *db = open_db("m.db");
	ck_assert_int_eq(sql_int(db, "SELECT count(DISTINCT device) FROM sweep"), 2);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM config GROUP BY sweep_id"), NCONFIGS / 2);
	sqlite3_close(db);
	free(out);
}
END_TEST

START_TEST(test_dedup_and_idempotent)
{
	struct gs_merge_stats ms;
	static const char *const in[] = { "s0.db", "s1.db", "s0.db" };

	for (uint64_t i = 0; i < 2; i++) {
		struct run r = shard(i, 2);

		make_run(in[i], &r);
	}
	/* the same store twice in one merge: its outcomes are already there */
	merge("m.db", in, 3, 0, &ms, NULL);
	ck_assert_int_eq(ms.configs_new, NCONFIGS);
	ck_assert_int_eq(ms.results_new, NCONFIGS);
	ck_assert_int_eq(ms.results_same, NCONFIGS / 2);
	ck_assert_int_eq(ms.parts_new, 2);
	gs_merge_stats_release(&ms);
	char *before = dump("m.db");

	merge("m.db", in, 2, 0, &ms, NULL);
	ck_assert_int_eq(ms.configs_new, 0);
	ck_assert_int_eq(ms.results_new, 0);
	ck_assert_int_eq(ms.results_same, NCONFIGS);
	ck_assert_int_eq(ms.parts_new, 0);
	ck_assert_int_eq(ms.variants_new, 0);
	ck_assert_int_eq(ms.out[0].configs, NCONFIGS);
	gs_merge_stats_release(&ms);
	char *after = dump("m.db");
	ck_assert_str_eq(before, after);
	free(before);
	free(after);
}
END_TEST

START_TEST(test_conflicts_kept_and_flagged)
{
	struct run a = shard(0, 1), b = shard(0, 1);
	struct gs_merge_stats ms;
	static const char *const in[] = { "a.db", "b.db" };

	b.odd_idx = 2;
	b.crash_idx = 4;
	b.host = "other-host";
	make_run("a.db", &a);
	make_run("b.db", &b);
	merge("m.db", in, 2, 0, &ms, NULL);
	ck_assert_int_eq(ms.results_new, NCONFIGS);
	ck_assert_int_eq(ms.results_same, NCONFIGS - 2);
	ck_assert_int_eq(ms.conflicts_new, 2);
	ck_assert_int_eq(ms.out[0].conflicts, 2);
	ck_assert_int_eq(ms.out[0].parts, 2);
	gs_merge_stats_release(&ms);
	char *before = dump("m.db");

	sqlite3 *db = open_db("m.db");
	/* result keeps the first merged; result_conflict holds the other */
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM result WHERE status = 'ok'"), NCONFIGS);
	ck_assert_int_eq(sql_int(db, "SELECT time_ms * 1000 FROM result WHERE idx = 2"), 1250);
	ck_assert_int_eq(sql_int(db, "SELECT time_ms * 1000 FROM result_conflict WHERE idx = 2"),
			 2250);
	char *t = sql_text(db, "SELECT status || ' ' || source_host || ' ' || source_shard || ' ' ||"
			       " (source LIKE '%/b.db') FROM result_conflict WHERE idx = 4");
	ck_assert_str_eq(t, "crash other-host 0/1 1");
	free(t);
	sqlite3_close(db);

	/* again, and in the other order: nothing new, nothing lost */
	merge("m.db", in, 2, 0, &ms, NULL);
	ck_assert_int_eq(ms.conflicts_new, 0);
	gs_merge_stats_release(&ms);
	static const char *const rev[] = { "b.db", "a.db" };
	merge("m.db", rev, 2, 0, &ms, NULL);
	ck_assert_int_eq(ms.conflicts_new, 0);
	ck_assert_int_eq(ms.out[0].conflicts, 2);
	gs_merge_stats_release(&ms);
	char *after = dump("m.db");
	ck_assert_str_eq(before, after);
	free(before);
	free(after);

	/* a merged store merged on keeps its conflicts */
	static const char *const again[] = { "m.db" };
	merge("m2.db", again, 1, 0, &ms, NULL);
	ck_assert_int_eq(ms.conflicts_new, 2);
	ck_assert_int_eq(ms.out[0].parts, 2);
	gs_merge_stats_release(&ms);
}
END_TEST

START_TEST(test_variants_united)
{
	struct gs_merge_stats ms;
	static const char *const in[] = { "s0.db", "s1.db", "s2.db" };

	for (uint64_t i = 0; i < 3; i++) {
		struct run r = shard(i, 3);

		make_run(in[i], &r);
	}
	merge("m.db", in, 3, 0, &ms, NULL);
	/* v0..v3 once each, and each store's unused variant */
	ck_assert_int_eq(ms.variants_new, 4 + 3);
	gs_merge_stats_release(&ms);
	sqlite3 *db = open_db("m.db");
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM variant"), 7);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM variant WHERE hash LIKE 'unused-%'"), 3);
	ck_assert_int_eq(sql_int(db, "SELECT registers FROM variant WHERE hash = 'v3'"), 19);
	/* every configuration knows its variant, and that variant is there */
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM config c JOIN variant v ON"
				     " v.hash = c.variant_hash"),
			 NCONFIGS);
	sqlite3_close(db);
}
END_TEST

START_TEST(test_missing_shards_then_complete)
{
	struct gs_merge_stats ms;
	static const char *const in[] = { "s0.db", "s1.db", "s2.db", "s3.db" };
	static const char *const gap[] = { "s0.db", "s2.db" };
	static const char *const rest[] = { "s3.db", "s1.db" };

	for (uint64_t i = 0; i < 4; i++) {
		struct run r = shard(i, 4);

		make_run(in[i], &r);
	}
	merge("m.db", gap, 2, 0, &ms, NULL);
	ck_assert_str_eq(ms.out[0].missing, "1/4 3/4");
	ck_assert_str_eq(ms.out[0].status, "interrupted");
	gs_merge_stats_release(&ms);
	merge("m.db", rest, 2, 0, &ms, NULL);
	ck_assert_ptr_null(ms.out[0].missing);
	ck_assert_str_eq(ms.out[0].status, "done");
	ck_assert_int_eq(ms.out[0].configs, NCONFIGS);
	ck_assert_int_eq(ms.out[0].parts, 4);
	gs_merge_stats_release(&ms);
}
END_TEST

START_TEST(test_into_a_store_run_unsharded)
{
	struct run full = shard(0, 1);
	struct gs_merge_stats ms;
	static const char *const in[] = { "s0.db", "s1.db" };

	full.wall_s = 10;
	make_run("m.db", &full);
	for (uint64_t i = 0; i < 2; i++) {
		struct run r = shard(i, 2);

		make_run(in[i], &r);
	}
	merge("m.db", in, 2, 0, &ms, NULL);
	ck_assert_int_eq(ms.configs_new, 0);
	ck_assert_int_eq(ms.results_same, NCONFIGS);
	/* the run made in the store itself is a part too, named by no file */
	ck_assert_int_eq(ms.out[0].parts, 3);
	gs_merge_stats_release(&ms);
	sqlite3 *db = open_db("m.db");
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM sweep_part WHERE source IS NULL AND"
				     " shard = '0/1'"),
			 1);
	ck_assert_int_eq(sql_int(db, "SELECT wall_s FROM sweep"), 10 + 2 + 3);
	sqlite3_close(db);
}
END_TEST

/* `gsearch run` on a merged store with a gap measures what is missing; a
 * later merge keeps what that run did. */
START_TEST(test_run_finishes_a_merged_store)
{
	struct run r = shard(0, 2);
	struct gs_merge_stats ms;
	static const char *const in[] = { "s0.db" };
	struct gs_store *s;
	char *p = path_of("m.db");

	make_run("s0.db", &r);
	merge("m.db", in, 1, 0, &ms, NULL);
	ck_assert_str_eq(ms.out[0].status, "interrupted");
	ck_assert_str_eq(ms.out[0].missing, "1/2");
	gs_merge_stats_release(&ms);
	/* what the run does: the other configurations, their outcomes, its time */
	ck_assert_int_eq(gs_store_open(&s, p, 0), 0);
	sqlite3 *db = gs_store_sqlite(s);
	static const char run_sql[] =
		"INSERT INTO config (sweep_id, idx, params) SELECT 1, idx + 1, params FROM config;"
		"INSERT INTO result (sweep_id, idx, status, time_ms) SELECT 1, idx, 'ok', 1"
		" FROM config WHERE idx % 2 = 1";
	ck_assert_int_eq(sqlite3_exec(db, run_sql, NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(gs_store_sweep_add_times(s, 1, &(struct gs_sweep_times){ .wall_s = 7 }), 0);
	ck_assert_int_eq(gs_store_sweep_set_status(s, 1, "done"), 0);
	gs_store_close(s);
	free(p);

	merge("m.db", in, 1, 0, &ms, NULL);
	ck_assert_str_eq(ms.out[0].status, "done");
	ck_assert_ptr_null(ms.out[0].missing);
	ck_assert_int_eq(ms.out[0].results, NCONFIGS);
	gs_merge_stats_release(&ms);
	db = open_db("m.db");
	ck_assert_int_eq(sql_int(db, "SELECT wall_s FROM sweep"), 2 + 7);
	sqlite3_close(db);
}
END_TEST

/* What schema 6 added travels too: the parts' restarts and timed work add
 * up, the compile threads are the most any part had, the intervals of the
 * results and of the conflicts come along; an input that predates it gives
 * NULL and leaves the sums alone. */
START_TEST(test_interval_and_cost_columns)
{
	struct gs_merge_stats ms;
	static const char *const in[] = { "s0.db", "s1.db", "s2.db" };

	for (uint64_t i = 0; i < 3; i++) {
		struct run r = shard(i, 3);

		make_run(in[i], &r);
	}
	merge("m.db", in, 3, 0, &ms, NULL);
	gs_merge_stats_release(&ms);
	sqlite3 *db = open_db("m.db");
	/* restarts 0 + 1 + 2, restart time 0 + 0.25 + 0.5, timed (2 + 3 + 4) / 4 */
	ck_assert_int_eq(sql_int(db, "SELECT worker_restarts = 3 AND restart_s = 0.75 AND"
				     " timed_s = 2.25 AND compile_threads = 4 FROM sweep"),
			 1);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM sweep_part WHERE compile_threads ="
				     " 2 + CAST(substr(shard, 1, 1) AS INTEGER) AND timed_s = wall_s / 4"
				     " AND worker_restarts IS NOT NULL AND restart_s IS NOT NULL"),
			 3);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM result WHERE ci_lo_ms < time_ms AND"
				     " ci_hi_ms > time_ms AND ci_pct = 95.1 AND runs = 10 AND"
				     " warmups = 2 AND timed_ms = 10 * time_ms"),
			 NCONFIGS);
	sqlite3_close(db);

	/* a re-measurement that disagrees keeps its interval beside the first */
	struct run odd = shard(1, 3);
	static const char *const again[] = { "o1.db" };
	odd.odd_idx = 1;
	odd.host = "otherhost";
	make_run("o1.db", &odd);
	merge("m.db", again, 1, 0, &ms, NULL);
	ck_assert_int_eq(ms.conflicts_new, 1);
	gs_merge_stats_release(&ms);
	db = open_db("m.db");
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM result_conflict WHERE idx = 1 AND"
				     " ci_hi_ms > 2 AND runs = 10 AND warmups = 2 AND ci_pct = 95.1"),
			 1);
	ck_assert_int_eq(sql_int(db, "SELECT worker_restarts = 4 AND compile_threads = 4"
				     " FROM sweep"),
			 1);
	sqlite3_close(db);

	/* an input from before schema 6 */
	struct run old = shard(0, 1);
	static const char *const olds[] = { "old.db" };
	make_run("old.db", &old);
	db = open_db("old.db");
	ck_assert_int_eq(sqlite3_exec(db, "DROP VIEW IF EXISTS sweep_1; DROP VIEW IF EXISTS matmul;"
					  "ALTER TABLE sweep DROP COLUMN compile_threads;"
					  "ALTER TABLE sweep DROP COLUMN worker_restarts;"
					  "ALTER TABLE sweep DROP COLUMN restart_s;"
					  "ALTER TABLE sweep DROP COLUMN timed_s;"
					  "ALTER TABLE result DROP COLUMN ci_lo_ms;"
					  "ALTER TABLE result DROP COLUMN runs;"
					  "PRAGMA user_version = 5",
					  NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	merge("old-m.db", olds, 1, 0, &ms, NULL);
	ck_assert_int_eq(ms.results_new, NCONFIGS);
	gs_merge_stats_release(&ms);
	db = open_db("old-m.db");
	ck_assert_int_eq(sql_int(db, "SELECT wall_s = 2 AND compile_threads IS NULL AND"
				     " worker_restarts IS NULL AND restart_s IS NULL AND timed_s IS NULL"
				     " FROM sweep"),
			 1);
	ck_assert_int_eq(sql_int(db, "SELECT count(*) FROM result WHERE ci_lo_ms IS NULL AND"
				     " runs IS NULL AND ci_hi_ms IS NOT NULL"),
			 NCONFIGS);
	sqlite3_close(db);
}
END_TEST

START_TEST(test_bad_inputs)
{
	struct run r = shard(0, 1);
	struct gs_merge_stats ms;
	static const char *const self[] = { "m.db" };
	static const char *const missing[] = { "nope.db" };
	static const char *const empty[] = { "empty.db" };
	char *err, *p;
	FILE *f;

	make_run("m.db", &r);
	ck_assert_int_lt(merge("m.db", self, 1, 0, &ms, &err), 0);
	ck_assert_msg(strstr(err, "m.db is the output store: it cannot also be an input"), "%s", err);
	free(err);
	gs_merge_stats_release(&ms);

	ck_assert_int_lt(merge("new.db", missing, 1, 0, &ms, &err), 0);
	ck_assert_msg(strstr(err, "nope.db: No such file or directory"), "%s", err);
	free(err);
	gs_merge_stats_release(&ms);
	p = path_of("new.db");
	ck_assert_int_ne(access(p, F_OK), 0);
	free(p);

	p = path_of("empty.db");
	f = fopen(p, "w");
	fputs("not a database at all, but long enough to be looked at as one.....", f);
	fclose(f);
	free(p);
	ck_assert_int_lt(merge("new.db", empty, 1, 0, &ms, &err), 0);
	ck_assert_msg(strstr(err, "empty.db: file is not a database (it is not an SQLite database"),
		      "%s", err);
	free(err);
	gs_merge_stats_release(&ms);
}
END_TEST

static TCase *tc_merge(void)
{
	TCase *tc = tcase_create("merge");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_shards_equal_single_run);
	tcase_add_test(tc, test_refuses_different_identities);
	tcase_add_test(tc, test_dedup_and_idempotent);
	tcase_add_test(tc, test_conflicts_kept_and_flagged);
	tcase_add_test(tc, test_variants_united);
	tcase_add_test(tc, test_missing_shards_then_complete);
	tcase_add_test(tc, test_into_a_store_run_unsharded);
	tcase_add_test(tc, test_run_finishes_a_merged_store);
	tcase_add_test(tc, test_interval_and_cost_columns);
	tcase_add_test(tc, test_bad_inputs);
	return tc;
}

GS_TEST_MAIN_TCASES(tc_merge)
