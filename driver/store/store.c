/* store.c — the SQLite store: opening and migrating a database, sweeps,
 * configurations and the per-sweep views.
 *
 * The supervisor is the only writer, so statements are prepared once per
 * connection and reused (a million configuration rows go in as a million
 * steps of one statement).  Every failure leaves a message naming what failed
 * in s->err; SQLite's own message follows a colon. */
#include "store/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/schema.h"
#include "util/util.h"

#ifndef GS_VERSION
#define GS_VERSION "unknown"
#endif

/* How long a writer waits for another connection's lock (a merge, a reader's
 * checkpoint) before it reports the database busy. */
#define BUSY_TIMEOUT_MS 10000

#define NOW "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"

#define STORE_STMTS(X)                                                                          \
	X(BEGIN, "BEGIN IMMEDIATE")                                                              \
	X(COMMIT, "COMMIT")                                                                      \
	X(ROLLBACK, "ROLLBACK")                                                                  \
	X(SWEEP_FIND, "SELECT id FROM sweep WHERE ident_hash = ?1")                              \
	X(SWEEP_INSERT,                                                                          \
	  "INSERT INTO sweep (ident_hash, space_name, space_path, space_hash, kernel_hash,"      \
	  " problem_json, options_json, device, params_json, shard, host, gsearch_version,"     \
	  " baseline_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"     \
	  " ON CONFLICT (ident_hash) DO NOTHING")                                                \
	X(SWEEP_STATUS,                                                                          \
	  "UPDATE sweep SET status = ?2,"                                                        \
	  " started_at = CASE WHEN ?2 = 'running' THEN coalesce(started_at, " NOW ")"           \
	  " ELSE started_at END,"                                                                \
	  " finished_at = CASE WHEN ?2 = 'running' THEN NULL"                                    \
	  " WHEN ?2 IN ('done', 'interrupted', 'failed') THEN " NOW " ELSE finished_at END"     \
	  " WHERE id = ?1")                                                                      \
	X(SWEEP_TIMES,                                                                           \
	  "UPDATE sweep SET wall_s = coalesce(wall_s, 0) + ?2,"                                  \
	  " compile_busy_s = coalesce(compile_busy_s, 0) + ?3,"                                  \
	  " device_busy_s = coalesce(device_busy_s, 0) + ?4,"                                    \
	  " compile_threads = max(coalesce(compile_threads, 0), ?5),"                            \
	  " worker_restarts = coalesce(worker_restarts, 0) + ?6,"                                \
	  " restart_s = coalesce(restart_s, 0) + ?7,"                                            \
	  " timed_s = coalesce(timed_s, 0) + ?8 WHERE id = ?1")                                  \
	X(SWEEP_SPACE, "SELECT space_name FROM sweep WHERE id = ?1")                             \
	X(SWEEP_NEWEST_VIEW,                                                                     \
	  "SELECT max(id) FROM sweep WHERE space_name = ?1 AND EXISTS (SELECT 1 FROM sqlite_master" \
	  " WHERE type = 'view' AND name = 'sweep_' || sweep.id)")                               \
	X(CONFIG_COUNT, "SELECT count(*) FROM config WHERE sweep_id = ?1")                       \
	X(CONFIG_ADD,                                                                            \
	  "INSERT INTO config (sweep_id, idx, params, baseline) VALUES (?1, ?2, ?3, ?4)"         \
	  " ON CONFLICT (sweep_id, idx) DO NOTHING")                                             \
	X(CONFIG_GET, "SELECT params, baseline FROM config WHERE sweep_id = ?1 AND idx = ?2")    \
	X(OBJECT_TYPE, "SELECT type FROM sqlite_master WHERE name = ?1 COLLATE NOCASE")       \
	X(VARIANT_FIND, "SELECT status FROM variant WHERE hash = ?1")                             \
	X(VARIANT_PUT,                                                                           \
	  "INSERT INTO variant (hash, status, log, ptx, cubin, arch, nvrtc_version, options,"     \
	  " registers, static_smem, local_bytes, spill_stores, spill_loads, max_threads,"         \
	  " compile_s, entries) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"  \
	  " ?14, ?15, ?16)"                                                                      \
	  " ON CONFLICT (hash) DO NOTHING")                                                      \
	X(VARIANT_IMAGE, "SELECT cubin, entries, ptx FROM variant WHERE hash = ?1")                \
	X(RESULT_PUT,                                                                            \
	  "INSERT OR REPLACE INTO result (sweep_id, idx, variant_hash, status, time_ms, min_ms,"  \
	  " iqr_ms, reps, blocks_per_sm, occupancy, limiter, energy_j, power_w, sm_clock_mhz,"    \
	  " temp_c, max_abs_err, max_rel_err, error, metrics, counters, device, modeled,"         \
	  " ci_lo_ms, ci_hi_ms, ci_pct, runs, warmups, timed_ms, ident, timeout_s) VALUES"         \
	  " (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,"    \
	  " ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30)")                         \
	X(RESULT_DONE, "SELECT idx FROM result WHERE sweep_id = ?1")                              \
	X(CONFIG_SET_VARIANT,                                                                    \
	  "UPDATE config SET variant_hash = ?3 WHERE sweep_id = ?1 AND idx = ?2")               \
	X(RESULT_OUTCOME,                                                                        \
	  "INSERT INTO result (sweep_id, idx, variant_hash, status, error, ident, timeout_s)"    \
	  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (sweep_id, idx) DO UPDATE SET"       \
	  " variant_hash = excluded.variant_hash, status = excluded.status,"                     \
	  " error = excluded.error, measured_at = excluded.measured_at,"                         \
	  " ident = excluded.ident, timeout_s = excluded.timeout_s")                             \
	X(RESULT_REUSED,                                                                         \
	  "SELECT status, time_ms, reused_from FROM result WHERE sweep_id = ?1 AND idx = ?2")    \
	X(CONFIG_VARIANT_OF_RESULT,                                                              \
	  "UPDATE config SET variant_hash = (SELECT variant_hash FROM result"                    \
	  " WHERE sweep_id = ?1 AND idx = ?2) WHERE sweep_id = ?1 AND idx = ?2")

enum store_stmt {
#define X(name, sql) ST_##name,
	STORE_STMTS(X)
#undef X
	ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
#define X(name, sql) [ST_##name] = sql,
	STORE_STMTS(X)
#undef X
};

struct gs_store {
	sqlite3 *db; /* NULL when even sqlite3_open_v2 could not allocate one */
	char *path;
	int readonly;
	struct gs_buf err;
	sqlite3_stmt *st[ST_COUNT]; /* prepared on first use */
	sqlite3_stmt *reuse;        /* made from the result table's columns (gs_store_result_reuse) */
};

static int fail(struct gs_store *s, int code, const char *fmt, ...) GS_PRINTF(3, 4);
static int fail_db(struct gs_store *s, int rc, const char *fmt, ...) GS_PRINTF(3, 4);

static int fail(struct gs_store *s, int code, const char *fmt, ...)
{
	va_list ap;

	gs_buf_reset(&s->err);
	va_start(ap, fmt);
	gs_buf_vprintf(&s->err, fmt, ap);
	va_end(ap);
	return code;
}

static int code_of(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_NOTADB:
		return -EPROTO;
	default:
		return -EIO;
	}
}

/* "<what>: <SQLite's message>"; call before anything else touches the
 * connection, which would replace the message. */
static int fail_db(struct gs_store *s, int rc, const char *fmt, ...)
{
	va_list ap;

	gs_buf_reset(&s->err);
	va_start(ap, fmt);
	gs_buf_vprintf(&s->err, fmt, ap);
	va_end(ap);
	gs_buf_printf(&s->err, ": %s", s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
	gs_buf_puts(&s->err, gs_store_damage_hint(rc, s->path));
	return code_of(rc);
}

/* The prepared statement, reset and ready to bind; NULL after recording why
 * not.  Statements are always reset after use so that none holds a read
 * transaction open. */
static sqlite3_stmt *stmt(struct gs_store *s, enum store_stmt which)
{
	int rc;

	if (s->st[which])
		return s->st[which];
	rc = sqlite3_prepare_v3(s->db, stmt_sql[which], -1, SQLITE_PREPARE_PERSISTENT,
				&s->st[which], NULL);
	if (rc != SQLITE_OK) {
		fail_db(s, rc, "cannot prepare a statement on %s", s->path);
		return NULL;
	}
	return s->st[which];
}

static void finish(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

static void bind_text(sqlite3_stmt *st, int i, const char *text)
{
	if (text)
		sqlite3_bind_text(st, i, text, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

/* Runs one statement that returns nothing; returns the SQLite code. */
static int exec(struct gs_store *s, const char *sql)
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL);
}

static int pragma_int(struct gs_store *s, const char *pragma, int *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, pragma, -1, &st, NULL);

	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			*out = sqlite3_column_int(st, 0);
			rc = SQLITE_OK;
		}
	}
	if (rc != SQLITE_OK) {
		rc = fail_db(s, rc, "cannot open %s", s->path);
		sqlite3_finalize(st);
		return rc;
	}
	sqlite3_finalize(st);
	return 0;
}

/* mkdir -p of the directory part of path. */
static int make_parent_dirs(struct gs_store *s)
{
	char *dir = gs_xstrdup(s->path);
	char *slash = strrchr(dir, '/');
	int rc = 0;

	if (slash && slash != dir) {
		*slash = '\0';
		for (char *p = dir + 1;; p++) {
			char c = *p;
			struct stat sb;

			if (c != '/' && c != '\0')
				continue;
			*p = '\0';
			if (mkdir(dir, 0777) != 0) {
				int err = errno == EEXIST ? ENOTDIR : errno;

				if (!(stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))) {
					rc = fail(s, -err, "cannot create directory %s: %s", dir,
						  strerror(err));
					break;
				}
			}
			*p = c;
			if (!c)
				break;
		}
	}
	free(dir);
	return rc;
}

static int refresh_views(struct gs_store *s);

/* Applies the migration steps from the file's version up to ours, each in
 * its own transaction.  The version is read again under the write lock, so
 * two processes opening a new file at once migrate it once. */
static int migrate(struct gs_store *s)
{
	int first = -1;

	for (;;) {
		int v, rc;
		char *sql;

		rc = exec(s, "BEGIN IMMEDIATE");
		if (rc != SQLITE_OK)
			return fail_db(s, rc, "cannot migrate %s", s->path);
		if ((rc = pragma_int(s, "PRAGMA user_version", &v)) < 0) {
			exec(s, "ROLLBACK");
			return rc;
		}
		if (v < 0 || (size_t)v >= gs_store_nmigrations) {
			exec(s, "ROLLBACK");
			if (v > GS_STORE_SCHEMA_VERSION)
				return fail(s, -EPROTO,
					    "cannot open %s: database was written by a newer gsearch "
					    "(schema %d, this gsearch knows %d)",
					    s->path, v, GS_STORE_SCHEMA_VERSION);
			/* a store from before schema 9 has views without its columns */
			return first > 0 && first < 9 ? refresh_views(s) : 0;
		}
		if (first < 0)
			first = v;
		rc = exec(s, gs_store_migrations[v]);
		/* A step that rewrites table text in sqlite_master leaves this
		 * connection's parsed schema as it was; the next ALTER TABLE would
		 * splice its column in at the old text's offsets.  A new schema
		 * cookie makes SQLite read the text again. */
		if (rc == SQLITE_OK && strstr(gs_store_migrations[v], "writable_schema")) {
			int cookie;
			char *bump;

			if ((rc = pragma_int(s, "PRAGMA schema_version", &cookie)) < 0) {
				exec(s, "ROLLBACK");
				return rc;
			}
			bump = sqlite3_mprintf("PRAGMA schema_version = %d", cookie + 1);
			rc = bump ? exec(s, bump) : SQLITE_NOMEM;
			sqlite3_free(bump);
		}
		if (rc == SQLITE_OK) {
			sql = sqlite3_mprintf("PRAGMA user_version = %d", v + 1);
			rc = sql ? exec(s, sql) : SQLITE_NOMEM;
			sqlite3_free(sql);
		}
		if (rc == SQLITE_OK)
			rc = exec(s, "COMMIT");
		if (rc != SQLITE_OK) {
			rc = fail_db(s, rc, "cannot migrate %s from schema %d to %d", s->path, v,
				     v + 1);
			exec(s, "ROLLBACK");
			return rc;
		}
	}
}

/* What the file is, read before anything is written to it: a store this
 * gsearch refuses is left exactly as it was. */
static int check(struct gs_store *s)
{
	int app, version, ntables = 0, rc;

	if ((rc = pragma_int(s, "PRAGMA application_id", &app)) < 0 ||
	    (rc = pragma_int(s, "PRAGMA user_version", &version)) < 0 ||
	    (rc = pragma_int(s, "SELECT count(*) FROM sqlite_master", &ntables)) < 0)
		return rc;
	if (app != 0 && app != GS_STORE_APPLICATION_ID)
		return fail(s, -EPROTO, "cannot open %s: not a gsearch database (application id %#x)",
			    s->path, (unsigned)app);
	/* no gsearch ever wrote a negative version: it is someone else's file */
	if (version < 0)
		return fail(s, -EPROTO, "cannot open %s: not a gsearch database (schema version %d)",
			    s->path, version);
	if (version > GS_STORE_SCHEMA_VERSION)
		return fail(s, -EPROTO,
			    "cannot open %s: database was written by a newer gsearch "
			    "(schema %d, this gsearch knows %d)",
			    s->path, version, GS_STORE_SCHEMA_VERSION);
	if (version == 0 && ntables > 0)
		return fail(s, -EPROTO,
			    "cannot open %s: not a gsearch database (it has tables but no schema version)",
			    s->path);
	if (s->readonly) {
		if (version == 0)
			return fail(s, -EPROTO, "cannot open %s: not a gsearch database (it is empty)",
				    s->path);
		if (version < GS_STORE_SCHEMA_VERSION)
			return fail(s, -EPROTO,
				    "cannot open %s: schema %d is older than this gsearch's (%d); "
				    "a command that writes the store upgrades it",
				    s->path, version, GS_STORE_SCHEMA_VERSION);
		return 0;
	}
	return 0;
}

int gs_store_open(struct gs_store **out, const char *path, int readonly)
{
	struct gs_store *s = gs_xcalloc(1, sizeof(*s));
	int flags, rc;

	*out = s;
	s->path = gs_xstrdup(path ? path : "");
	s->readonly = readonly != 0;
	if (!path || !*path)
		return fail(s, -EINVAL, "cannot open the store: no file name");
	if (!readonly && (rc = make_parent_dirs(s)) < 0)
		return rc;

	/* SQLite would wait on a FIFO for ever, and read a device as a store */
	struct stat sb;
	int exists = stat(path, &sb) == 0;
	if (exists && !S_ISREG(sb.st_mode))
		return fail(s, S_ISDIR(sb.st_mode) ? -EISDIR : -EINVAL, "cannot open %s: %s", s->path,
			    S_ISDIR(sb.st_mode) ? strerror(EISDIR) : gs_read_strerror(GS_ENOTREG));
	/* SQLite keeps a journal per name: written under two hard links, one
	 * store would have two WAL files, and each writer's lock its own */
	if (!readonly && exists && sb.st_nlink > 1)
		return fail(s, -EBUSY, "cannot write %s: the file has %lu names (hard links), and "
			    "SQLite keeps a journal per name; copy it to a name of its own (`gsearch "
			    "query` can still read it)", s->path, (unsigned long)sb.st_nlink);
	flags = readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	rc = sqlite3_open_v2(path, &s->db, flags, NULL);
	if (rc != SQLITE_OK) {
		int sys = s->db ? sqlite3_system_errno(s->db) : 0;

		rc = fail_db(s, rc, "cannot open %s", s->path);
		if (sys) {
			gs_buf_printf(&s->err, " (%s)", strerror(sys));
			if (sys == ENOENT)
				rc = -ENOENT;
		}
		return rc;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	/* SQLite opens a file it cannot write read-only, without a word */
	if (!readonly && sqlite3_db_readonly(s->db, "main") == 1)
		return fail(s, -EACCES, "cannot write %s: the file is read-only (`gsearch query` "
			    "can still read it)", s->path);
	if ((rc = check(s)) < 0)
		return rc;
	rc = exec(s, "PRAGMA foreign_keys = ON");
	/* WAL lets `gsearch query` and the sqlite3 shell read while a sweep
	 * writes; it is persistent, so a read-only open finds it already set.
	 * Where the file system cannot share memory SQLite keeps the old
	 * journal mode, which is slower but correct. */
	if (rc == SQLITE_OK && !readonly)
		rc = exec(s, "PRAGMA journal_mode = WAL");
	/* NORMAL in WAL mode loses at most the last transactions on power loss,
	 * never consistency; FULL would fsync every configuration. */
	if (rc == SQLITE_OK && !readonly)
		rc = exec(s, "PRAGMA synchronous = NORMAL");
	if (rc != SQLITE_OK)
		return fail_db(s, rc, "cannot open %s", s->path);
	return readonly ? 0 : migrate(s);
}

void gs_store_close(struct gs_store *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->st[i]);
	sqlite3_finalize(s->reuse);
	if (s->db) {
		if (!s->readonly)
			exec(s, "PRAGMA optimize");
		sqlite3_close_v2(s->db);
	}
	free(s->path);
	gs_buf_release(&s->err);
	free(s);
}

/* Whether path begins as every SQLite database does; 1 when it cannot
 * be read (the advice for a damaged file then stands). */
static int sqlite_header(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char head[sizeof magic];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return 1;
	ssize_t n = pread(fd, head, sizeof head, 0);
	close(fd);
	return n < 0 || (n == (ssize_t)sizeof head && !memcmp(head, magic, sizeof magic));
}

const char *gs_store_damage_hint(int rc, const char *path)
{
	static __thread char hint[1024];
	if ((rc & 0xff) != SQLITE_CORRUPT && (rc & 0xff) != SQLITE_NOTADB)
		return "";
	/* a text file given as a store is not damaged, and .recover of it
	 * saves nothing */
	if ((rc & 0xff) == SQLITE_NOTADB && !sqlite_header(path))
		return " (it is not an SQLite database, so no gsearch store)";
	snprintf(hint, sizeof hint, " (the file is damaged: `sqlite3 %s .recover | sqlite3 "
		 "RECOVERED.db` saves what can be read)", path);
	return hint;
}

const char *gs_store_errmsg(const struct gs_store *s)
{
	return s ? gs_buf_str(&s->err) : "no store";
}

struct sqlite3 *gs_store_sqlite(struct gs_store *s)
{
	return s->db;
}

int gs_store_schema_version(struct gs_store *s)
{
	int v, rc;

	if ((rc = pragma_int(s, "PRAGMA user_version", &v)) < 0)
		return rc;
	return v;
}

/* Steps a statement that returns no row; returns 0 or a recorded error. */
static int step_done(struct gs_store *s, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_DONE) {
		rc = fail_db(s, rc, "%s", what);
		finish(st);
		return rc;
	}
	finish(st);
	return 0;
}

static int sweep_find(struct gs_store *s, const char *ident_hash, int64_t *id, int *found)
{
	sqlite3_stmt *st = stmt(s, ST_SWEEP_FIND);
	int rc;

	if (!st)
		return -EIO;
	bind_text(st, 1, ident_hash);
	rc = sqlite3_step(st);
	*found = rc == SQLITE_ROW;
	if (*found)
		*id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		rc = fail_db(s, rc, "cannot look up sweep %s in %s", ident_hash, s->path);
	finish(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : rc;
}

void gs_sweep_ident_hash(const struct gs_sweep_ident *id, char out[33])
{
	/* order and fields are fixed: stores in the field hold these hashes */
	const char *fields[] = { id->space_name, id->space_hash, id->kernel_hash, id->problem_json,
				 id->options_json, id->device, id->params_json, id->shard };
	struct gs_hasher *h = gs_hasher_new();

	for (size_t i = 0; i < GS_ARRAY_SIZE(fields); i++)
		gs_hasher_field(h, fields[i] ? fields[i] : "", fields[i] ? strlen(fields[i]) : 0);
	gs_hasher_hex(h, out);
}

int gs_store_sweep_open(struct gs_store *s, const struct gs_sweep_ident *id, int64_t *sweep_id,
			int *created)
{
	sqlite3_stmt *st;
	char host[256];
	int found, rc;

	*created = 0;
	if (!id->ident_hash || !*id->ident_hash || !id->space_name || !*id->space_name)
		return fail(s, -EINVAL, "cannot open a sweep without identity hash and space name");
	if ((rc = sweep_find(s, id->ident_hash, sweep_id, &found)) < 0 || found)
		return rc;

	if (gethostname(host, sizeof(host)) != 0)
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	if (!(st = stmt(s, ST_SWEEP_INSERT)))
		return -EIO;
	bind_text(st, 1, id->ident_hash);
	bind_text(st, 2, id->space_name);
	bind_text(st, 3, id->space_path);
	bind_text(st, 4, id->space_hash);
	bind_text(st, 5, id->kernel_hash);
	bind_text(st, 6, id->problem_json);
	bind_text(st, 7, id->options_json);
	bind_text(st, 8, id->device);
	bind_text(st, 9, id->params_json);
	bind_text(st, 10, id->shard);
	bind_text(st, 11, host[0] ? host : NULL);
	bind_text(st, 12, GS_VERSION);
	bind_text(st, 13, id->baseline_json);
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE) {
		rc = fail_db(s, rc, "cannot create sweep %s in %s", id->ident_hash, s->path);
		finish(st);
		return rc;
	}
	/* Zero changes: another writer created the same sweep between the
	 * look-up and the insert. */
	*created = sqlite3_changes(s->db) == 1;
	finish(st);
	if (*created) {
		*sweep_id = sqlite3_last_insert_rowid(s->db);
		return 0;
	}
	if ((rc = sweep_find(s, id->ident_hash, sweep_id, &found)) < 0)
		return rc;
	if (!found)
		return fail(s, -EIO, "sweep %s vanished from %s while being created", id->ident_hash,
			    s->path);
	return 0;
}

int gs_store_sweep_set_status(struct gs_store *s, int64_t sweep_id, const char *status)
{
	sqlite3_stmt *st;
	char what[96];
	int rc;

	if (!status || !*status)
		return fail(s, -EINVAL, "cannot set the status of sweep %lld: empty status",
			    (long long)sweep_id);
	if (!(st = stmt(s, ST_SWEEP_STATUS)))
		return -EIO;
	sqlite3_bind_int64(st, 1, sweep_id);
	bind_text(st, 2, status);
	snprintf(what, sizeof(what), "cannot set the status of sweep %lld", (long long)sweep_id);
	if ((rc = step_done(s, st, what)) < 0)
		return rc;
	if (sqlite3_changes(s->db) != 1)
		return fail(s, -ENOENT, "cannot set the status of sweep %lld: no such sweep",
			    (long long)sweep_id);
	return 0;
}

int gs_store_sweep_add_times(struct gs_store *s, int64_t sweep_id, const struct gs_sweep_times *t)
{
	sqlite3_stmt *st;
	char what[96];
	int rc;

	if (!(st = stmt(s, ST_SWEEP_TIMES)))
		return -EIO;
	sqlite3_bind_int64(st, 1, sweep_id);
	sqlite3_bind_double(st, 2, t->wall_s);
	sqlite3_bind_double(st, 3, t->compile_busy_s);
	sqlite3_bind_double(st, 4, t->device_busy_s);
	sqlite3_bind_int(st, 5, t->compile_threads > 0 ? t->compile_threads : 0);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)t->worker_restarts);
	sqlite3_bind_double(st, 7, t->restart_s > 0 ? t->restart_s : 0);
	sqlite3_bind_double(st, 8, t->timed_s > 0 ? t->timed_s : 0);
	snprintf(what, sizeof(what), "cannot record the times of sweep %lld", (long long)sweep_id);
	if ((rc = step_done(s, st, what)) < 0)
		return rc;
	if (sqlite3_changes(s->db) != 1)
		return fail(s, -ENOENT, "cannot record the times of sweep %lld: no such sweep",
			    (long long)sweep_id);
	return 0;
}

int gs_store_config_count(struct gs_store *s, int64_t sweep_id, int64_t *n)
{
	sqlite3_stmt *st = stmt(s, ST_CONFIG_COUNT);
	int rc;

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, sweep_id);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		rc = fail_db(s, rc, "cannot count the configurations of sweep %lld",
			     (long long)sweep_id);
		finish(st);
		return rc;
	}
	*n = sqlite3_column_int64(st, 0);
	finish(st);
	return 0;
}

int gs_store_begin(struct gs_store *s)
{
	sqlite3_stmt *st = stmt(s, ST_BEGIN);

	if (!st)
		return -EIO;
	return step_done(s, st, "cannot begin a transaction");
}

int gs_store_commit(struct gs_store *s)
{
	sqlite3_stmt *st = stmt(s, ST_COMMIT);

	if (!st)
		return -EIO;
	return step_done(s, st, "cannot commit");
}

int gs_store_rollback(struct gs_store *s)
{
	sqlite3_stmt *st = stmt(s, ST_ROLLBACK);

	if (!st)
		return -EIO;
	return step_done(s, st, "cannot roll back");
}

/* The row already stored under (sweep_id, idx) must match exactly: params is
 * canonical JSON, so equal configurations are equal strings. */
static int config_compare(struct gs_store *s, int64_t sweep_id, int64_t idx,
			  const char *params_json, int baseline)
{
	sqlite3_stmt *st = stmt(s, ST_CONFIG_GET);
	int rc;

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, sweep_id);
	sqlite3_bind_int64(st, 2, idx);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		rc = rc == SQLITE_DONE
			     ? fail(s, -EIO, "configuration %lld of sweep %lld was neither stored nor found",
				    (long long)idx, (long long)sweep_id)
			     : fail_db(s, rc, "cannot read configuration %lld of sweep %lld",
				       (long long)idx, (long long)sweep_id);
	} else {
		const char *old = (const char *)sqlite3_column_text(st, 0);

		if (!old || strcmp(old, params_json) != 0)
			rc = fail(s, -EEXIST,
				  "configuration %lld of sweep %lld already stored with different "
				  "parameters (%s, now %s)",
				  (long long)idx, (long long)sweep_id, old ? old : "NULL", params_json);
		else if (sqlite3_column_int(st, 1) != baseline)
			rc = fail(s, -EEXIST,
				  "configuration %lld of sweep %lld already stored with a different "
				  "baseline flag",
				  (long long)idx, (long long)sweep_id);
		else
			rc = 0;
	}
	finish(st);
	return rc;
}

int gs_store_config_add(struct gs_store *s, int64_t sweep_id, int64_t idx, const char *params_json,
			int baseline)
{
	sqlite3_stmt *st = stmt(s, ST_CONFIG_ADD);
	int rc;

	if (!st)
		return -EIO;
	if (!params_json)
		return fail(s, -EINVAL, "cannot store configuration %lld of sweep %lld: no parameters",
			    (long long)idx, (long long)sweep_id);
	baseline = baseline != 0;
	sqlite3_bind_int64(st, 1, sweep_id);
	sqlite3_bind_int64(st, 2, idx);
	sqlite3_bind_text(st, 3, params_json, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, baseline);
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE) {
		rc = fail_db(s, rc, "cannot store configuration %lld of sweep %lld", (long long)idx,
			     (long long)sweep_id);
		finish(st);
		return rc;
	}
	finish(st);
	if (sqlite3_changes(s->db) == 1)
		return 0;
	return config_compare(s, sweep_id, idx, params_json, baseline);
}

/* SQL text building.  Identifiers go in double quotes with quotes doubled,
 * literals in single quotes with quotes doubled; nothing from the space file
 * reaches SQL any other way. */
void gs_store_put_ident(struct gs_buf *b, const char *name)
{
	gs_buf_putc(b, '"');
	for (const char *p = name; *p; p++) {
		if (*p == '"')
			gs_buf_putc(b, '"');
		gs_buf_putc(b, *p);
	}
	gs_buf_putc(b, '"');
}

static void put_literal(struct gs_buf *b, const char *text)
{
	gs_buf_putc(b, '\'');
	for (const char *p = text; *p; p++) {
		if (*p == '\'')
			gs_buf_putc(b, '\'');
		gs_buf_putc(b, *p);
	}
	gs_buf_putc(b, '\'');
}

/* Columns of the per-sweep view besides the parameters, in order; the first
 * VIEW_LEAD come before the parameters, the rest after.  sweep_id and
 * modeled let a row say, on its own, which sweep it is from and whether its
 * time was measured. */
enum { VIEW_LEAD = 2 };
static const struct view_col {
	const char *name;
	const char *expr;
} view_cols[] = {
	{ "sweep_id", "c.sweep_id" },
	{ "idx", "c.idx" },
	{ "baseline", "c.baseline" },
	{ "status", "r.status" },
	{ "modeled", "r.modeled" },
	{ "time_ms", "r.time_ms" },
	{ "min_ms", "r.min_ms" },
	{ "iqr_ms", "r.iqr_ms" },
	{ "reps", "r.reps" },
	{ "ci_lo_ms", "r.ci_lo_ms" },
	{ "ci_hi_ms", "r.ci_hi_ms" },
	{ "ci_pct", "r.ci_pct" },
	{ "runs", "r.runs" },
	{ "warmups", "r.warmups" },
	{ "timed_ms", "r.timed_ms" },
	{ "blocks_per_sm", "r.blocks_per_sm" },
	{ "occupancy", "r.occupancy" },
	{ "limiter", "r.limiter" },
	{ "registers", "v.registers" },
	{ "static_smem", "v.static_smem" },
	{ "local_bytes", "v.local_bytes" },
	{ "spill_stores", "v.spill_stores" },
	{ "spill_loads", "v.spill_loads" },
	{ "energy_j", "r.energy_j" },
	{ "power_w", "r.power_w" },
	{ "sm_clock_mhz", "r.sm_clock_mhz" },
	{ "temp_c", "r.temp_c" },
	{ "max_abs_err", "r.max_abs_err" },
	{ "max_rel_err", "r.max_rel_err" },
	{ "error", "r.error" },
	{ "metrics", "r.metrics" },
	{ "counters", "r.counters" },
	{ "variant_hash", "r.variant_hash" },
	{ "reused_from", "r.reused_from" },
	{ "device", "r.device" },
	{ "measured_at", "r.measured_at" },
};

static int is_param(const char *name, const char *const *params, size_t nparams)
{
	for (size_t i = 0; i < nparams; i++)
		if (strcasecmp(name, params[i]) == 0)
			return 1;
	return 0;
}

/* A fixed column whose name a parameter takes (SQL names ignore case) is
 * renamed gs_<name>, so that the parameter keeps its own name. */
static void put_view_col(struct gs_buf *b, const struct view_col *c, const char *const *params,
			 size_t nparams)
{
	gs_buf_printf(b, "%s\n  %s AS ", c == view_cols ? "" : ",", c->expr);
	if (is_param(c->name, params, nparams)) {
		char *renamed = gs_xasprintf("gs_%s", c->name);

		gs_store_put_ident(b, renamed);
		free(renamed);
	} else {
		gs_store_put_ident(b, c->name);
	}
}

static int check_param_names(struct gs_store *s, int64_t sweep_id, const char *const *params,
			     size_t nparams)
{
	for (size_t i = 0; i < nparams; i++) {
		/* A JSON path label cannot hold a double quote. */
		if (!params[i] || !*params[i] || strchr(params[i], '"'))
			return fail(s, -EINVAL,
				    "cannot create the view of sweep %lld: parameter name '%s' "
				    "cannot name a column",
				    (long long)sweep_id, params[i] ? params[i] : "");
		for (size_t j = 0; j < i; j++)
			if (strcasecmp(params[i], params[j]) == 0)
				return fail(s, -EINVAL,
					    "cannot create the view of sweep %lld: parameters '%s' "
					    "and '%s' would name the same column",
					    (long long)sweep_id, params[j], params[i]);
	}
	return 0;
}

static void sweep_view_sql(struct gs_buf *b, int64_t sweep_id, const char *const *params,
			   size_t nparams)
{
	char name[48];

	snprintf(name, sizeof(name), "sweep_%lld", (long long)sweep_id);
	gs_buf_puts(b, "DROP VIEW IF EXISTS ");
	gs_store_put_ident(b, name);
	gs_buf_puts(b, ";\nCREATE VIEW ");
	gs_store_put_ident(b, name);
	gs_buf_puts(b, " AS SELECT");
	for (size_t i = 0; i < VIEW_LEAD; i++)
		put_view_col(b, &view_cols[i], params, nparams);
	for (size_t i = 0; i < nparams; i++) {
		char *path = gs_xasprintf("$.\"%s\"", params[i]);

		gs_buf_puts(b, ",\n  json_extract(c.params, ");
		put_literal(b, path);
		gs_buf_puts(b, ") AS ");
		gs_store_put_ident(b, params[i]);
		free(path);
	}
	for (size_t i = VIEW_LEAD; i < GS_ARRAY_SIZE(view_cols); i++)
		put_view_col(b, &view_cols[i], params, nparams);
	gs_buf_printf(b,
		      "\nFROM config c\n"
		      "LEFT JOIN result r ON r.sweep_id = c.sweep_id AND r.idx = c.idx\n"
		      "LEFT JOIN variant v ON v.hash = coalesce(r.variant_hash, c.variant_hash)\n"
		      "WHERE c.sweep_id = %lld;\n",
		      (long long)sweep_id);
}

/* The type of the schema object with this name ("table", "view" ...), or
 * "" when there is none. */
static int object_type(struct gs_store *s, const char *name, char *type, size_t size)
{
	sqlite3_stmt *st = stmt(s, ST_OBJECT_TYPE);
	int rc;

	if (!st)
		return -EIO;
	bind_text(st, 1, name);
	rc = sqlite3_step(st);
	type[0] = '\0';
	if (rc == SQLITE_ROW) {
		snprintf(type, size, "%s", (const char *)sqlite3_column_text(st, 0));
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = fail_db(s, rc, "cannot read the schema of %s", s->path);
	}
	finish(st);
	return rc;
}

static int is_sweep_view_name(const char *name)
{
	if (strncasecmp(name, "sweep_", 6) != 0 || !name[6])
		return 0;
	for (const char *p = name + 6; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

/* The view named after the space shows the newest of its sweeps that have a
 * view (this one will have its own by the time the SQL runs), so recreating
 * an older sweep's view leaves it alone. */
static int space_view_sql(struct gs_store *s, struct gs_buf *b, int64_t sweep_id,
			  const char *space_name)
{
	sqlite3_stmt *st = stmt(s, ST_SWEEP_NEWEST_VIEW);
	char type[16], target[48];
	int64_t newest;
	int rc;

	if (!st)
		return -EIO;
	bind_text(st, 1, space_name);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		rc = fail_db(s, rc, "cannot find the newest sweep of space '%s'", space_name);
		finish(st);
		return rc;
	}
	newest = sqlite3_column_int64(st, 0); /* 0 when NULL */
	finish(st);
	if (newest < sweep_id)
		newest = sweep_id;

	if (is_sweep_view_name(space_name))
		return fail(s, -EINVAL, "cannot name a view after space '%s': sweep views use that name",
			    space_name);
	if ((rc = object_type(s, space_name, type, sizeof(type))) < 0)
		return rc;
	if (type[0] && strcmp(type, "view") != 0)
		return fail(s, -EINVAL,
			    "cannot name a view after space '%s': the store has a%s %s of that name",
			    space_name, type[0] == 'i' ? "n" : "", type);
	snprintf(target, sizeof(target), "sweep_%lld", (long long)newest);
	gs_buf_puts(b, "DROP VIEW IF EXISTS ");
	gs_store_put_ident(b, space_name);
	gs_buf_puts(b, ";\nCREATE VIEW ");
	gs_store_put_ident(b, space_name);
	gs_buf_puts(b, " AS SELECT * FROM ");
	gs_store_put_ident(b, target);
	gs_buf_puts(b, ";\n");
	return 0;
}

int gs_store_views(struct gs_store *s, int64_t sweep_id, const char *space_name,
		   const char *const *params, size_t nparams)
{
	struct gs_buf sql = GS_BUF_INIT;
	sqlite3_stmt *st;
	int rc;

	if (!space_name || !*space_name)
		return fail(s, -EINVAL, "cannot create the views of sweep %lld: no space name",
			    (long long)sweep_id);
	if ((rc = check_param_names(s, sweep_id, params, nparams)) < 0)
		return rc;
	if (!(st = stmt(s, ST_SWEEP_SPACE)))
		return -EIO;
	sqlite3_bind_int64(st, 1, sweep_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *stored = (const char *)sqlite3_column_text(st, 0);

		rc = stored && strcmp(stored, space_name) == 0
			     ? 0
			     : fail(s, -EINVAL,
				    "cannot create the views of sweep %lld: it belongs to space '%s', "
				    "not '%s'",
				    (long long)sweep_id, stored ? stored : "", space_name);
	} else if (rc == SQLITE_DONE) {
		rc = fail(s, -ENOENT, "cannot create the views of sweep %lld: no such sweep",
			  (long long)sweep_id);
	} else {
		rc = fail_db(s, rc, "cannot create the views of sweep %lld", (long long)sweep_id);
	}
	finish(st);
	if (rc < 0)
		return rc;

	/* A savepoint, so that this works inside or outside the caller's
	 * transaction and never leaves one view without the other. */
	gs_buf_puts(&sql, "SAVEPOINT gs_views;\n");
	sweep_view_sql(&sql, sweep_id, params, nparams);
	if ((rc = space_view_sql(s, &sql, sweep_id, space_name)) < 0)
		goto out;
	gs_buf_puts(&sql, "RELEASE gs_views;\n");
	rc = exec(s, gs_buf_str(&sql));
	if (rc != SQLITE_OK) {
		rc = fail_db(s, rc, "cannot create the views of sweep %lld", (long long)sweep_id);
		/* Harmless where the savepoint itself failed. */
		exec(s, "ROLLBACK TO gs_views");
		exec(s, "RELEASE gs_views");
	}
out:
	gs_buf_release(&sql);
	return rc;
}

/* Makes every per-sweep view again (and so the space views), from the
 * parameter names the sweep row keeps.  An error here is one of reading the
 * sweeps. */
static int refresh_views(struct gs_store *s)
{
	sqlite3_stmt *st;
	const char **names = NULL;
	char *space = NULL;
	size_t n = 0, cap = 0;
	int64_t id = 0;
	int rc = sqlite3_prepare_v2(
		s->db,
		"SELECT s.id, s.space_name, json_extract(p.value, '$.name') FROM sweep s"
		" LEFT JOIN json_each(CASE WHEN json_valid(s.params_json) THEN s.params_json END) p"
		" WHERE EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'view' AND"
		" name = 'sweep_' || s.id) ORDER BY s.id, p.key",
		-1, &st, NULL);

	if (rc != SQLITE_OK)
		return fail_db(s, rc, "cannot read the sweeps of %s", s->path);
	for (;;) {
		int row = (rc = sqlite3_step(st)) == SQLITE_ROW;
		int64_t next = row ? sqlite3_column_int64(st, 0) : 0;

		if (id && (!row || next != id)) {
			/* a view that cannot be made again keeps its old columns,
			 * which is no reason to refuse the store */
			gs_store_views(s, id, space, names, n);
			for (size_t i = 0; i < n; i++)
				free((char *)names[i]);
			n = 0;
			free(space);
			space = NULL;
		}
		if (!row)
			break;
		if (next != id) {
			id = next;
			space = gs_xstrdup((const char *)sqlite3_column_text(st, 1));
		}
		if (sqlite3_column_type(st, 2) == SQLITE_TEXT) {
			gs_grow(&names, &cap, n + 1, sizeof(*names));
			names[n++] = gs_xstrdup((const char *)sqlite3_column_text(st, 2));
		}
	}
	if (rc == SQLITE_DONE)
		rc = 0;
	else if (rc > 0)
		rc = fail_db(s, rc, "cannot read the sweeps of %s", s->path);
	sqlite3_finalize(st);
	for (size_t i = 0; i < n; i++)
		free((char *)names[i]);
	free(names);
	free(space);
	return rc;
}

/* ---- the compile cache ---------------------------------------------------- */

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *t)
{
	if (t)
		sqlite3_bind_text(st, i, t, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static void bind_real_or_null(sqlite3_stmt *st, int i, double v)
{
	if (v >= 0 && v == v)
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static void bind_int_or_null(sqlite3_stmt *st, int i, int v)
{
	if (v >= 0)
		sqlite3_bind_int(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

int gs_store_variant_find(struct gs_store *s, const char *hash, int *found, char status[16])
{
	sqlite3_stmt *st = stmt(s, ST_VARIANT_FIND);
	if (!st)
		return -EIO;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*found = 0;
	if (rc == SQLITE_ROW) {
		*found = 1;
		snprintf(status, 16, "%s", (const char *)sqlite3_column_text(st, 0));
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = fail_db(s, rc, "cannot look up variant %s", hash);
	}
	finish(st);
	return rc;
}

int gs_store_variant_put(struct gs_store *s, const struct gs_variant_row *v)
{
	sqlite3_stmt *st = stmt(s, ST_VARIANT_PUT);
	if (!st)
		return -EIO;
	sqlite3_bind_text(st, 1, v->hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, v->status, -1, SQLITE_STATIC);
	bind_text_or_null(st, 3, v->log);
	bind_text_or_null(st, 4, v->ptx);
	if (v->cubin)
		sqlite3_bind_blob(st, 5, v->cubin, (int)v->cubin_len, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 5);
	bind_text_or_null(st, 6, v->arch);
	bind_text_or_null(st, 7, v->nvrtc_version);
	bind_text_or_null(st, 8, v->options);
	bind_int_or_null(st, 9, v->registers);
	bind_int_or_null(st, 10, v->static_smem);
	bind_int_or_null(st, 11, v->local_bytes);
	bind_int_or_null(st, 12, v->spill_stores);
	bind_int_or_null(st, 13, v->spill_loads);
	bind_int_or_null(st, 14, v->max_threads);
	sqlite3_bind_double(st, 15, v->compile_s);
	bind_text_or_null(st, 16, v->entries);
	int rc = sqlite3_step(st);
	rc = rc == SQLITE_DONE ? 0 : fail_db(s, rc, "cannot store variant %s", v->hash);
	finish(st);
	return rc;
}

int gs_store_config_set_variant(struct gs_store *s, int64_t sweep_id, int64_t idx, const char *hash)
{
	sqlite3_stmt *st = stmt(s, ST_CONFIG_SET_VARIANT);
	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, sweep_id);
	sqlite3_bind_int64(st, 2, idx);
	sqlite3_bind_text(st, 3, hash, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	rc = rc == SQLITE_DONE ? 0
			       : fail_db(s, rc, "cannot link configuration %lld of sweep %lld to its variant",
					 (long long)idx, (long long)sweep_id);
	finish(st);
	return rc;
}

int gs_store_result_outcome(struct gs_store *s, int64_t sweep_id, int64_t idx,
			    const char *variant_hash, const char *status, const char *error,
			    const char *ident, double timeout_s)
{
	sqlite3_stmt *st = stmt(s, ST_RESULT_OUTCOME);
	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, sweep_id);
	sqlite3_bind_int64(st, 2, idx);
	bind_text_or_null(st, 3, variant_hash);
	sqlite3_bind_text(st, 4, status, -1, SQLITE_STATIC);
	bind_text_or_null(st, 5, error);
	bind_text_or_null(st, 6, ident);
	bind_real_or_null(st, 7, timeout_s > 0 ? timeout_s : -1);
	int rc = sqlite3_step(st);
	rc = rc == SQLITE_DONE ? 0
			       : fail_db(s, rc, "cannot store the outcome of configuration %lld of sweep %lld",
					 (long long)idx, (long long)sweep_id);
	finish(st);
	return rc;
}

int gs_store_variant_image(struct gs_store *s, const char *hash, void **cubin, size_t *len,
			   char **entries, char **ptx)
{
	if (ptx)
		*ptx = NULL;
	sqlite3_stmt *st = stmt(s, ST_VARIANT_IMAGE);
	if (!st)
		return -EIO;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*cubin = NULL;
	*len = 0;
	*entries = NULL;
	if (rc == SQLITE_ROW) {
		int n = sqlite3_column_bytes(st, 0);
		const void *p = sqlite3_column_blob(st, 0);
		if (p && n > 0) {
			*cubin = gs_xmalloc((size_t)n);
			memcpy(*cubin, p, (size_t)n);
			*len = (size_t)n;
		}
		const char *e = (const char *)sqlite3_column_text(st, 1);
		*entries = gs_xstrdup(e ? e : "[]");
		if (ptx) {
			const char *t = (const char *)sqlite3_column_text(st, 2);
			*ptx = gs_xstrdup(t ? t : "");
		}
		rc = 0;
	} else {
		rc = rc == SQLITE_DONE ? fail(s, -ENOENT, "variant %s is not in the store", hash)
				       : fail_db(s, rc, "cannot read variant %s", hash);
	}
	finish(st);
	return rc;
}


int gs_store_result_put(struct gs_store *s, const struct gs_result_row *r)
{
	sqlite3_stmt *st = stmt(s, ST_RESULT_PUT);
	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, r->sweep_id);
	sqlite3_bind_int64(st, 2, r->idx);
	bind_text_or_null(st, 3, r->variant_hash);
	sqlite3_bind_text(st, 4, r->status, -1, SQLITE_STATIC);
	bind_real_or_null(st, 5, r->time_ms);
	bind_real_or_null(st, 6, r->min_ms);
	bind_real_or_null(st, 7, r->iqr_ms);
	bind_int_or_null(st, 8, r->reps);
	bind_int_or_null(st, 9, r->blocks_per_sm);
	bind_real_or_null(st, 10, r->occupancy);
	bind_text_or_null(st, 11, r->limiter && r->limiter[0] ? r->limiter : NULL);
	bind_real_or_null(st, 12, r->energy_j);
	bind_real_or_null(st, 13, r->power_w);
	bind_real_or_null(st, 14, r->sm_clock_mhz);
	bind_real_or_null(st, 15, r->temp_c);
	bind_real_or_null(st, 16, r->max_abs_err);
	bind_real_or_null(st, 17, r->max_rel_err);
	bind_text_or_null(st, 18, r->error && r->error[0] ? r->error : NULL);
	bind_text_or_null(st, 19, r->metrics);
	bind_text_or_null(st, 20, r->counters);
	bind_text_or_null(st, 21, r->device);
	sqlite3_bind_int(st, 22, r->modeled ? 1 : 0);
	bind_real_or_null(st, 23, r->ci_lo_ms);
	bind_real_or_null(st, 24, r->ci_hi_ms);
	bind_real_or_null(st, 25, r->ci_pct);
	/* no timed run: nothing was measured, so no warm-up count either */
	bind_int_or_null(st, 26, r->runs > 0 ? r->runs : -1);
	bind_int_or_null(st, 27, r->runs > 0 ? r->warmups : -1);
	bind_real_or_null(st, 28, r->timed_ms > 0 ? r->timed_ms : -1);
	bind_text_or_null(st, 29, r->ident);
	bind_real_or_null(st, 30, r->timeout_s > 0 ? r->timeout_s : -1);
	int rc = sqlite3_step(st);
	rc = rc == SQLITE_DONE ? 0
			       : fail_db(s, rc, "cannot store the result of configuration %lld",
					 (long long)r->idx);
	finish(st);
	return rc;
}

int gs_store_done_bitmap(struct gs_store *s, int64_t sweep_id, uint64_t nbits, uint8_t **bits)
{
	sqlite3_stmt *st = stmt(s, ST_RESULT_DONE);
	if (!st)
		return -EIO;
	*bits = gs_xcalloc(nbits / 8 + 1, 1);
	sqlite3_bind_int64(st, 1, sweep_id);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t i = sqlite3_column_int64(st, 0);
		if (i >= 0 && (uint64_t)i < nbits)
			(*bits)[i / 8] |= (uint8_t)(1u << (i % 8));
	}
	rc = rc == SQLITE_DONE ? 0 : fail_db(s, rc, "cannot read the finished configurations");
	finish(st);
	return rc;
}

/* ---- results of other sweeps ---------------------------------------------------- */

/* The statement that copies a result of another sweep: every column of
 * result, read from the table itself, so that a column a later schema adds
 * is copied with no change here. */
static int reuse_stmt(struct gs_store *s)
{
	struct gs_buf cols = GS_BUF_INIT, sql = GS_BUF_INIT;
	sqlite3_stmt *q;
	int rc;

	if (s->reuse)
		return 0;
	rc = sqlite3_prepare_v2(s->db, "SELECT name FROM pragma_table_info('result')", -1, &q, NULL);
	if (rc != SQLITE_OK)
		return fail_db(s, rc, "cannot read the columns of result");
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(q, 0);
		if (!strcmp(c, "sweep_id") || !strcmp(c, "idx") || !strcmp(c, "reused_from"))
			continue;
		gs_buf_puts(&cols, ", ");
		gs_store_put_ident(&cols, c);
	}
	sqlite3_finalize(q);
	/* The newest of the results with this identity that other sweeps
	 * measured or reused; a crash (the host's as much as the kernel's), a
	 * compile that ran out of time, and a timeout or an emulation out of
	 * host time under a shorter limit than now are tried again. */
	gs_buf_printf(&sql,
		      "INSERT INTO result (sweep_id, idx, reused_from%s) SELECT ?1, ?2,"
		      " coalesce(reused_from, sweep_id)%s FROM result WHERE ident = ?3 AND"
		      " sweep_id <> ?1 AND status <> 'crash' AND NOT (status = 'compile_error' AND"
		      " variant_hash IS NULL) AND NOT (status IN ('timeout', 'emu_limit') AND"
		      " coalesce(timeout_s, 0) < ?4)"
		      " ORDER BY measured_at DESC, sweep_id DESC LIMIT 1",
		      gs_buf_str(&cols), gs_buf_str(&cols));
	rc = sqlite3_prepare_v3(s->db, gs_buf_str(&sql), -1, SQLITE_PREPARE_PERSISTENT, &s->reuse,
				NULL);
	gs_buf_release(&cols);
	gs_buf_release(&sql);
	if (rc != SQLITE_OK)
		return fail_db(s, rc, "cannot prepare the reuse of results on %s", s->path);
	return 0;
}

int gs_store_result_reuse(struct gs_store *s, int64_t sweep_id, int64_t idx, const char *ident,
			  double timeout_s, struct gs_reused *out)
{
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!ident)
		return 0;
	if ((rc = reuse_stmt(s)) < 0)
		return rc;
	sqlite3_bind_int64(s->reuse, 1, sweep_id);
	sqlite3_bind_int64(s->reuse, 2, idx);
	sqlite3_bind_text(s->reuse, 3, ident, -1, SQLITE_STATIC);
	sqlite3_bind_double(s->reuse, 4, timeout_s);
	if ((rc = step_done(s, s->reuse, "cannot reuse a result")) < 0 || sqlite3_changes(s->db) != 1)
		return rc;
	if (!(st = stmt(s, ST_CONFIG_VARIANT_OF_RESULT)))
		return -EIO;
	sqlite3_bind_int64(st, 1, sweep_id);
	sqlite3_bind_int64(st, 2, idx);
	if ((rc = step_done(s, st, "cannot link a reused result's configuration to its variant")) < 0)
		return rc;
	if (!(st = stmt(s, ST_RESULT_REUSED)))
		return -EIO;
	sqlite3_bind_int64(st, 1, sweep_id);
	sqlite3_bind_int64(st, 2, idx);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->found = 1;
		snprintf(out->status, sizeof out->status, "%s", (const char *)sqlite3_column_text(st, 0));
		out->time_ms = sqlite3_column_type(st, 1) == SQLITE_NULL ? -1
									  : sqlite3_column_double(st, 1);
		out->from = sqlite3_column_int64(st, 2);
		rc = 0;
	} else {
		rc = fail_db(s, rc, "cannot read a reused result");
	}
	finish(st);
	return rc;
}
