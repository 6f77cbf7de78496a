/* merge.c — combining stores (`gsearch merge`); see merge.h for the rules.
 *
 * Two passes.  The first opens every input read-only, checks that it is a
 * gsearch store this gsearch can read, and reads its sweeps' identities, so
 * that a refused merge writes nothing, not even an empty output.  The second
 * copies, input by input, inside one transaction on the output.
 *
 * Rows are copied column by column through bound values.  Which columns is
 * read from the output's schema: an input of an older schema gives NULL for
 * the columns it lacks, so a column added by a later migration merges with
 * no change here. */
#include "store/merge.h"

#include <errno.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/schema.h"
#include "store/store.h"

/* The identity of a sweep but its shard, in the order of struct gs_sweep_ident,
 * with what each field means to a person reading why two inputs are different
 * sweeps and whether it is short enough to print both values. */
#define IDENT_FIELDS(X)                                                  \
	X(SPACE_NAME, space_name, "space name", 1)                       \
	X(SPACE_HASH, space_hash, "space text", 0)                       \
	X(KERNEL_HASH, kernel_hash, "kernel sources", 0)                 \
	X(PROBLEM_JSON, problem_json, "problem values", 1)               \
	X(OPTIONS_JSON, options_json, "measurement options", 1)          \
	X(DEVICE, device, "device", 1)                                   \
	X(PARAMS_JSON, params_json, "parameter values", 0)

enum ident_field {
#define X(id, col, what, show) IF_##id,
	IDENT_FIELDS(X)
#undef X
	NIDENT
};

static const struct {
	const char *col, *what;
	int show;
} ident_fields[] = {
#define X(id, col, what, show) [IF_##id] = { #col, what, show },
	IDENT_FIELDS(X)
#undef X
};

/* The columns of sweep_part after sweep_id, in this order.  The first
 * PART_NKEY name a part (the table's key but sweep_id); those from
 * compile_threads on came with schema 6 and are NULL from an input that
 * predates it. */
#define PART_COLUMNS(X)                                                  \
	X(IDENT_HASH, ident_hash)                                        \
	X(HOST, host)                                                    \
	X(CREATED_AT, created_at)                                        \
	X(SHARD, shard)                                                  \
	X(DEVICE, device)                                                \
	X(GPUS, gpus)                                                    \
	X(GSEARCH_VERSION, gsearch_version)                              \
	X(STARTED_AT, started_at)                                        \
	X(FINISHED_AT, finished_at)                                      \
	X(STATUS, status)                                                \
	X(WALL_S, wall_s)                                                \
	X(COMPILE_BUSY_S, compile_busy_s)                                \
	X(DEVICE_BUSY_S, device_busy_s)                                  \
	X(CONFIGS, configs)                                              \
	X(RESULTS, results)                                              \
	X(SOURCE, source)                                                \
	X(COMPILE_THREADS, compile_threads)                              \
	X(WORKER_RESTARTS, worker_restarts)                              \
	X(RESTART_S, restart_s)                                          \
	X(TIMED_S, timed_s)

enum part_col {
#define X(id, col) PC_##id,
	PART_COLUMNS(X)
#undef X
	PART_NCOLS
};

static const char *const part_col_name[] = {
#define X(id, col) [PC_##id] = #col,
	PART_COLUMNS(X)
#undef X
};

#define PART_NKEY (PC_CREATED_AT + 1)
#define PART_NEW PC_COMPILE_THREADS /* the first column schema 6 added */

/* The columns of a part that add up over the runs of a sweep, in the order
 * of summarize()'s ?3 to ?8. */
static const enum part_col part_sums[] = { PC_WALL_S, PC_COMPILE_BUSY_S, PC_DEVICE_BUSY_S,
					   PC_WORKER_RESTARTS, PC_RESTART_S, PC_TIMED_S };
#define NSUMS GS_ARRAY_SIZE(part_sums)

/* A sweep of an input, read in the first pass. */
struct in_sweep {
	size_t input;
	int64_t id;
	char *f[NIDENT]; /* identity fields, in ident_fields order */
	char *shard, *space_path;
	char *baseline_json; /* NULL: the input predates schema 7 */
	char base[33];   /* identity hash with shard "0/1" */
};

/* A sweep of the output the merge writes into. */
struct target {
	int64_t id;
	char base[33];
	int created;  /* by this merge */
	int self_checked; /* self_part() ran: a sweep run in the output is a part */
	const struct in_sweep *first;
	/* what the merge adds to the sweep's sums, in part_sums order, and
	 * whether any part knew it (an input older than schema 6 does not) */
	double dsum[NSUMS];
	int known[NSUMS];
	int threads; /* the most compile threads of a part */
};

struct cols {
	char **name;
	size_t n;
};

struct merge {
	const char *const *inputs;
	size_t ninputs;
	const struct gs_merge_opts *opts;
	struct gs_merge_stats *ms;
	struct gs_buf *err;
	struct gs_store *st;
	sqlite3 *out;
	struct in_sweep *sw;
	size_t nsw, capsw;
	struct target *tg;
	size_t ntg, captg;
	/* the output's columns of result, less sweep_id, and of result_conflict */
	struct cols rcols, ccols;
	sqlite3_stmt *res_get, *res_ins, *conf_get, *conf_ins, *part_has, *part_put;
	size_t input; /* the input being copied */
};

static int merr(struct merge *m, int code, const char *fmt, ...) GS_PRINTF(3, 4);

static int merr(struct merge *m, int code, const char *fmt, ...)
{
	va_list ap;

	gs_buf_reset(m->err);
	va_start(ap, fmt);
	gs_buf_vprintf(m->err, fmt, ap);
	va_end(ap);
	return code;
}

/* "<what>: <SQLite's message>" for a failure on db. */
static int merr_db(struct merge *m, sqlite3 *db, const char *what, const char *path)
{
	return merr(m, -EIO, "%s%s%s: %s%s", path ? path : "", path ? ": " : "", what,
		    sqlite3_errmsg(db),
		    path ? gs_store_damage_hint(sqlite3_extended_errcode(db), path) : "");
}

static int prepare(struct merge *m, sqlite3 *db, const char *sql, sqlite3_stmt **st,
		   const char *path)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK) {
		*st = NULL;
		return merr_db(m, db, "cannot read the store", path);
	}
	return 0;
}

static void cols_release(struct cols *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->name[i]);
	free(c->name);
	c->name = NULL;
	c->n = 0;
}

/* The columns of table in db, in order, but `skip`; none when there is no
 * such table. */
static int cols_of(struct merge *m, sqlite3 *db, const char *table, const char *skip,
		   struct cols *c, const char *path)
{
	sqlite3_stmt *q;
	size_t cap = 0;
	int rc;

	c->name = NULL;
	c->n = 0;
	if ((rc = prepare(m, db, "SELECT name FROM pragma_table_info(?1)", &q, path)) < 0)
		return rc;
	sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(q, 0);

		if (!name || (skip && !strcmp(name, skip)))
			continue;
		gs_grow(&c->name, &cap, c->n + 1, sizeof(*c->name));
		c->name[c->n++] = gs_xstrdup(name);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		cols_release(c);
		return merr_db(m, db, "cannot read the schema", path);
	}
	return 0;
}

static int col_index(const struct cols *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->name[i], name))
			return (int)i;
	return -1;
}

/* A SELECT list giving want's columns in order from a table that has
 * `have`: NULL for those it lacks. */
static void select_list(struct gs_buf *b, const struct cols *want, const struct cols *have)
{
	for (size_t i = 0; i < want->n; i++) {
		if (i)
			gs_buf_puts(b, ", ");
		if (col_index(have, want->name[i]) < 0)
			gs_buf_puts(b, "NULL AS ");
		gs_store_put_ident(b, want->name[i]);
	}
}

/* Are column i of a and column j of b the same value?  Exact: a value
 * copied from one store to another compares equal to itself. */
static int col_eq(sqlite3_stmt *a, int i, sqlite3_stmt *b, int j)
{
	int t = sqlite3_column_type(a, i);

	if (t != sqlite3_column_type(b, j))
		return 0;
	switch (t) {
	case SQLITE_NULL:
		return 1;
	case SQLITE_INTEGER:
		return sqlite3_column_int64(a, i) == sqlite3_column_int64(b, j);
	case SQLITE_FLOAT:
		return sqlite3_column_double(a, i) == sqlite3_column_double(b, j);
	default: {
		const void *p = sqlite3_column_blob(a, i), *q = sqlite3_column_blob(b, j);
		int n = sqlite3_column_bytes(a, i);

		return n == sqlite3_column_bytes(b, j) && (n == 0 || !memcmp(p, q, (size_t)n));
	}
	}
}

static int64_t query_int(sqlite3 *db, const char *sql, int64_t bind, int *ok)
{
	sqlite3_stmt *q;
	int64_t v = 0;

	*ok = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_bind_parameter_count(q))
		sqlite3_bind_int64(q, 1, bind);
	if (sqlite3_step(q) == SQLITE_ROW) {
		v = sqlite3_column_int64(q, 0);
		*ok = 1;
	}
	sqlite3_finalize(q);
	return v;
}

/* ---- inputs ------------------------------------------------------------------ */

/* Opens an input read-only after checking that it is a gsearch store this
 * gsearch reads, and not the output itself. */
static int src_open(struct merge *m, const char *path, const struct stat *out_sb, sqlite3 **db)
{
	struct stat sb;
	int app, version, ok, rc;

	*db = NULL;
	if (stat(path, &sb) != 0)
		return merr(m, -errno, "cannot open %s: %s", path, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return merr(m, -EINVAL, "cannot open %s: not a file", path);
	if (out_sb && sb.st_dev == out_sb->st_dev && sb.st_ino == out_sb->st_ino)
		return merr(m, -EINVAL, "%s is the output store: it cannot also be an input", path);
	rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL);
	if (rc != SQLITE_OK)
		return merr(m, -EIO, "cannot open %s: %s", path,
			    *db ? sqlite3_errmsg(*db) : sqlite3_errstr(rc));
	sqlite3_busy_timeout(*db, 10000);
	app = (int)query_int(*db, "PRAGMA application_id", 0, &ok);
	if (!ok)
		return merr(m, -EPROTO, "cannot open %s: %s%s", path,
			    sqlite3_errmsg(*db),
			    gs_store_damage_hint(sqlite3_extended_errcode(*db), path));
	version = (int)query_int(*db, "PRAGMA user_version", 0, &ok);
	if (app != GS_STORE_APPLICATION_ID || version < 1)
		return merr(m, -EPROTO, "cannot open %s: not a gsearch database", path);
	if (version > GS_STORE_SCHEMA_VERSION)
		return merr(m, -EPROTO,
			    "cannot open %s: database was written by a newer gsearch "
			    "(schema %d, this gsearch knows %d)",
			    path, version, GS_STORE_SCHEMA_VERSION);
	return 0;
}

static void src_close(sqlite3 *db)
{
	sqlite3_close_v2(db);
}

/* The identity of input sweep s as an unsharded run has it. */
static struct gs_sweep_ident sweep_ident(const struct in_sweep *s)
{
	return (struct gs_sweep_ident){
		.space_name = s->f[IF_SPACE_NAME],
		.space_path = s->space_path,
		.space_hash = s->f[IF_SPACE_HASH],
		.kernel_hash = s->f[IF_KERNEL_HASH],
		.problem_json = s->f[IF_PROBLEM_JSON],
		.options_json = s->f[IF_OPTIONS_JSON],
		.device = s->f[IF_DEVICE],
		.params_json = s->f[IF_PARAMS_JSON],
		.shard = "0/1",
		.baseline_json = s->baseline_json,
		.ident_hash = s->base,
	};
}

static void base_hash(struct in_sweep *s)
{
	struct gs_sweep_ident id = sweep_ident(s);

	gs_sweep_ident_hash(&id, s->base);
}

static char *col_dup(sqlite3_stmt *q, int i)
{
	const char *t = (const char *)sqlite3_column_text(q, i);

	return t ? gs_xstrdup(t) : NULL;
}

/* First pass over one input: its sweeps' identities. */
static int read_sweeps(struct merge *m, size_t input, sqlite3 *db)
{
	struct gs_buf sql = GS_BUF_INIT;
	struct cols have;
	sqlite3_stmt *q;
	int rc;

	if ((rc = cols_of(m, db, "sweep", NULL, &have, m->inputs[input])) < 0)
		return rc;
	gs_buf_printf(&sql, "SELECT id, shard, space_path, %s",
		      col_index(&have, "baseline_json") >= 0 ? "baseline_json" : "NULL");
	cols_release(&have);
	for (size_t k = 0; k < NIDENT; k++)
		gs_buf_printf(&sql, ", %s", ident_fields[k].col);
	gs_buf_puts(&sql, " FROM sweep ORDER BY id");
	rc = prepare(m, db, gs_buf_str(&sql), &q, m->inputs[input]);
	gs_buf_release(&sql);
	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct in_sweep *s;

		gs_grow(&m->sw, &m->capsw, m->nsw + 1, sizeof(*m->sw));
		s = &m->sw[m->nsw++];
		memset(s, 0, sizeof(*s));
		s->input = input;
		s->id = sqlite3_column_int64(q, 0);
		s->shard = col_dup(q, 1);
		s->space_path = col_dup(q, 2);
		s->baseline_json = col_dup(q, 3);
		for (size_t k = 0; k < NIDENT; k++)
			s->f[k] = col_dup(q, 4 + (int)k);
		if (!s->f[IF_SPACE_NAME]) {
			sqlite3_finalize(q);
			return merr(m, -EPROTO, "%s: sweep %lld has no space name", m->inputs[input],
				    (long long)s->id);
		}
		base_hash(s);
		m->ms->sweeps_in++;
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return merr_db(m, db, "cannot read the sweeps", m->inputs[input]);
	return 0;
}

static void describe_value(struct gs_buf *b, const char *v, int show)
{
	if (!v)
		gs_buf_puts(b, "none");
	else if (show)
		gs_buf_printf(b, "'%s'", v);
	else
		gs_buf_printf(b, "hash %.12s", v);
}

/* Without --force, every input sweep must be one sweep: say how the first
 * two that are not differ. */
static int check_identities(struct merge *m)
{
	const struct in_sweep *a = m->nsw ? &m->sw[0] : NULL;

	for (size_t i = 1; i < m->nsw; i++) {
		const struct in_sweep *b = &m->sw[i];
		struct gs_buf why = GS_BUF_INIT;
		int rc;

		if (!strcmp(a->base, b->base))
			continue;
		for (size_t k = 0; k < NIDENT; k++) {
			const char *x = a->f[k], *y = b->f[k];

			if ((!x != !y) || (x && strcmp(x, y))) {
				gs_buf_printf(&why, "%s%s (", why.len ? ", " : "",
					      ident_fields[k].what);
				describe_value(&why, x, ident_fields[k].show);
				gs_buf_puts(&why, " and ");
				describe_value(&why, y, ident_fields[k].show);
				gs_buf_putc(&why, ')');
			}
		}
		rc = merr(m, -EINVAL,
			  "%s (sweep %lld) and %s (sweep %lld) are not the same sweep: they differ in "
			  "%s; merging would mix their measurements (--force keeps each in a sweep "
			  "of its own)",
			  m->inputs[a->input], (long long)a->id, m->inputs[b->input], (long long)b->id,
			  why.len ? gs_buf_str(&why) : "their identity hashes");
		gs_buf_release(&why);
		return rc;
	}
	return 0;
}

/* ---- the output --------------------------------------------------------------- */

static int out_exec(struct merge *m, const char *sql)
{
	if (sqlite3_exec(m->out, sql, NULL, NULL, NULL) != SQLITE_OK)
		return merr_db(m, m->out, "cannot write the merged store", NULL);
	return 0;
}

/* The output sweep for an input sweep's identity: found, or created the
 * way an unsharded run would create it. */
static int target_of(struct merge *m, const struct in_sweep *s, struct target **out)
{
	struct gs_sweep_ident id;
	int64_t sid;
	int created, rc;

	for (size_t i = 0; i < m->ntg; i++)
		if (!strcmp(m->tg[i].base, s->base)) {
			*out = &m->tg[i];
			return 0;
		}
	id = sweep_ident(s);
	if ((rc = gs_store_sweep_open(m->st, &id, &sid, &created)) < 0)
		return merr(m, rc, "%s", gs_store_errmsg(m->st));
	gs_grow(&m->tg, &m->captg, m->ntg + 1, sizeof(*m->tg));
	*out = &m->tg[m->ntg++];
	memset(*out, 0, sizeof(**out));
	(*out)->id = sid;
	(*out)->created = created;
	(*out)->first = s;
	memcpy((*out)->base, s->base, sizeof(s->base));
	return 0;
}

/* A SELECT of the part columns in order describing a sweep that was run
 * rather than merged; %s: the columns from PART_NEW on. */
#define PART_OF_SWEEP                                                                    \
	"SELECT s.ident_hash, coalesce(s.host, ''), s.created_at, s.shard, s.device,"        \
	" (SELECT group_concat(d, ',') FROM (SELECT DISTINCT device AS d FROM result"         \
	"  WHERE sweep_id = s.id AND device IS NOT NULL ORDER BY d)),"                         \
	" s.gsearch_version, s.started_at, s.finished_at, s.status, s.wall_s, s.compile_busy_s," \
	" s.device_busy_s, (SELECT count(*) FROM config WHERE sweep_id = s.id),"               \
	" (SELECT count(*) FROM result WHERE sweep_id = s.id), NULL, %s FROM sweep s"         \
	" WHERE s.id = ?1"

/* PART_OF_SWEEP for db, whose sweep table may predate schema 6. */
static int part_of_sweep(struct merge *m, sqlite3 *db, const char *path, sqlite3_stmt **q)
{
	struct cols have;
	struct gs_buf list = GS_BUF_INIT;
	int rc;

	if ((rc = cols_of(m, db, "sweep", NULL, &have, path)) < 0)
		return rc;
	for (int i = PART_NEW; i < PART_NCOLS; i++) {
		int has = col_index(&have, part_col_name[i]) >= 0;

		gs_buf_printf(&list, "%s%s%s", i > PART_NEW ? ", " : "", has ? "s." : "NULL",
			      has ? part_col_name[i] : "");
	}
	cols_release(&have);
	char *sql = gs_xasprintf(PART_OF_SWEEP, gs_buf_str(&list));
	rc = prepare(m, db, sql, q, path);
	free(sql);
	gs_buf_release(&list);
	return rc;
}

/* Upserts the part in q's current row into target t; a part that names no
 * source came from `source` (NULL: from the output itself, whose times the
 * sweep's row holds already).  The times it adds, or adds since it was
 * merged last, are counted in t->dsum. */
static int put_part(struct merge *m, struct target *t, sqlite3_stmt *q, const char *source)
{
	int rc;

	sqlite3_bind_int64(m->part_has, 1, t->id);
	for (int i = 0; i < PART_NKEY; i++)
		sqlite3_bind_value(m->part_has, 2 + i, sqlite3_column_value(q, i));
	rc = sqlite3_step(m->part_has);
	for (size_t i = 0; source && i < NSUMS; i++) {
		if (sqlite3_column_type(q, part_sums[i]) == SQLITE_NULL)
			continue;
		t->known[i] = 1;
		t->dsum[i] += sqlite3_column_double(q, part_sums[i]) -
			      (rc == SQLITE_ROW ? sqlite3_column_double(m->part_has, (int)i) : 0);
	}
	if (source && sqlite3_column_int(q, PC_COMPILE_THREADS) > t->threads)
		t->threads = sqlite3_column_int(q, PC_COMPILE_THREADS);
	sqlite3_reset(m->part_has);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return merr_db(m, m->out, "cannot read the parts of a sweep", NULL);
	if (rc == SQLITE_DONE)
		m->ms->parts_new++;
	sqlite3_bind_int64(m->part_put, 1, t->id);
	for (int i = 0; i < PART_NCOLS; i++) {
		if (i == PC_SOURCE && sqlite3_column_type(q, i) == SQLITE_NULL)
			sqlite3_bind_text(m->part_put, 2 + i, source, -1, SQLITE_STATIC);
		else
			sqlite3_bind_value(m->part_put, 2 + i, sqlite3_column_value(q, i));
	}
	rc = sqlite3_step(m->part_put);
	sqlite3_reset(m->part_put);
	sqlite3_clear_bindings(m->part_put);
	if (rc != SQLITE_DONE)
		return merr_db(m, m->out, "cannot record a part of a sweep", NULL);
	return 0;
}

/* A sweep of the output that was run there, not merged, becomes a part of
 * itself: for the record, and so that its coverage counts (its times are in
 * its row already). */
static int self_part(struct merge *m, struct target *t)
{
	sqlite3_stmt *q;
	int64_t parts;
	int ok, rc;

	t->self_checked = 1;
	if (t->created)
		return 0;
	parts = query_int(m->out, "SELECT count(*) FROM sweep_part WHERE sweep_id = ?1", t->id, &ok);
	if (!ok)
		return merr_db(m, m->out, "cannot read the parts of a sweep", NULL);
	if (parts)
		return 0;
	if ((rc = part_of_sweep(m, m->out, NULL, &q)) < 0)
		return rc;
	sqlite3_bind_int64(q, 1, t->id);
	rc = sqlite3_step(q) == SQLITE_ROW ? put_part(m, t, q, NULL) : 0;
	sqlite3_finalize(q);
	return rc;
}

/* Every variant of the input: the compile cache is content-addressed, so a
 * hash already present is the same row. */
static int copy_variants(struct merge *m, sqlite3 *src, const char *path)
{
	struct cols want, have;
	struct gs_buf sel = GS_BUF_INIT, ins = GS_BUF_INIT;
	sqlite3_stmt *q = NULL, *w = NULL;
	int rc;

	if ((rc = cols_of(m, m->out, "variant", NULL, &want, NULL)) < 0)
		return rc;
	if ((rc = cols_of(m, src, "variant", NULL, &have, path)) < 0) {
		cols_release(&want);
		return rc;
	}
	gs_buf_puts(&sel, "SELECT ");
	select_list(&sel, &want, &have);
	gs_buf_puts(&sel, " FROM variant ORDER BY hash");
	gs_buf_puts(&ins, "INSERT INTO variant (");
	for (size_t i = 0; i < want.n; i++) {
		gs_buf_puts(&ins, i ? ", " : "");
		gs_store_put_ident(&ins, want.name[i]);
	}
	gs_buf_puts(&ins, ") VALUES (");
	for (size_t i = 0; i < want.n; i++)
		gs_buf_puts(&ins, i ? ", ?" : "?");
	gs_buf_puts(&ins, ") ON CONFLICT (hash) DO NOTHING");
	if ((rc = prepare(m, src, gs_buf_str(&sel), &q, path)) < 0 ||
	    (rc = prepare(m, m->out, gs_buf_str(&ins), &w, NULL)) < 0)
		goto out;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		for (size_t i = 0; i < want.n; i++)
			sqlite3_bind_value(w, (int)i + 1, sqlite3_column_value(q, (int)i));
		if (sqlite3_step(w) != SQLITE_DONE) {
			rc = merr_db(m, m->out, "cannot store a variant", NULL);
			goto out;
		}
		m->ms->variants_new += sqlite3_changes(m->out);
		sqlite3_reset(w);
	}
	rc = rc == SQLITE_DONE ? 0 : merr_db(m, src, "cannot read the variants", path);
out:
	sqlite3_finalize(q);
	sqlite3_finalize(w);
	gs_buf_release(&sel);
	gs_buf_release(&ins);
	cols_release(&want);
	cols_release(&have);
	return rc;
}

/* The input sweep's configurations into t.  One the output has must have
 * the same parameters; it learns its variant if it did not know it. */
static int copy_configs(struct merge *m, const struct in_sweep *s, struct target *t, sqlite3 *src)
{
	const char *path = m->inputs[s->input];
	struct cols want, have;
	struct gs_buf sel = GS_BUF_INIT, ins = GS_BUF_INIT;
	sqlite3_stmt *q = NULL, *w = NULL, *g = NULL, *u = NULL;
	int rc, iidx, ipar, ibase, ivar;

	if ((rc = cols_of(m, m->out, "config", "sweep_id", &want, NULL)) < 0)
		return rc;
	if ((rc = cols_of(m, src, "config", "sweep_id", &have, path)) < 0) {
		cols_release(&want);
		return rc;
	}
	iidx = col_index(&want, "idx");
	ipar = col_index(&want, "params");
	ibase = col_index(&want, "baseline");
	ivar = col_index(&want, "variant_hash");
	gs_buf_puts(&sel, "SELECT ");
	select_list(&sel, &want, &have);
	gs_buf_puts(&sel, " FROM config WHERE sweep_id = ?1 ORDER BY idx");
	gs_buf_puts(&ins, "INSERT INTO config (sweep_id");
	for (size_t i = 0; i < want.n; i++) {
		gs_buf_puts(&ins, ", ");
		gs_store_put_ident(&ins, want.name[i]);
	}
	gs_buf_puts(&ins, ") VALUES (?1");
	for (size_t i = 0; i < want.n; i++)
		gs_buf_printf(&ins, ", ?%zu", i + 2);
	gs_buf_puts(&ins, ") ON CONFLICT (sweep_id, idx) DO NOTHING");
	if ((rc = prepare(m, src, gs_buf_str(&sel), &q, path)) < 0 ||
	    (rc = prepare(m, m->out, gs_buf_str(&ins), &w, NULL)) < 0 ||
	    (rc = prepare(m, m->out,
			  "SELECT params, baseline, variant_hash FROM config WHERE sweep_id = ?1 AND"
			  " idx = ?2", &g, NULL)) < 0 ||
	    (rc = prepare(m, m->out,
			  "UPDATE config SET variant_hash = ?3 WHERE sweep_id = ?1 AND idx = ?2", &u,
			  NULL)) < 0)
		goto out;
	if (iidx < 0 || ipar < 0 || ibase < 0) {
		rc = merr(m, -EPROTO, "the merged store's config table lacks idx, params or baseline");
		goto out;
	}
	sqlite3_bind_int64(q, 1, s->id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t idx = sqlite3_column_int64(q, iidx);

		sqlite3_bind_int64(w, 1, t->id);
		for (size_t i = 0; i < want.n; i++)
			sqlite3_bind_value(w, (int)i + 2, sqlite3_column_value(q, (int)i));
		if (sqlite3_step(w) != SQLITE_DONE) {
			rc = merr_db(m, m->out, "cannot store a configuration", NULL);
			goto out;
		}
		sqlite3_reset(w);
		if (sqlite3_changes(m->out)) {
			m->ms->configs_new++;
			continue;
		}
		sqlite3_bind_int64(g, 1, t->id);
		sqlite3_bind_int64(g, 2, idx);
		if (sqlite3_step(g) != SQLITE_ROW) {
			rc = merr_db(m, m->out, "cannot read a configuration", NULL);
			goto out;
		}
		if (!col_eq(g, 0, q, ipar) || !col_eq(g, 1, q, ibase)) {
			const char *mark = " (baseline)";

			rc = merr(m, -EEXIST,
				  "%s: configuration %lld of sweep %lld is %s%s, but %s%s in the "
				  "merged sweep: these are not the same sweep, whatever their "
				  "identity says",
				  path, (long long)idx, (long long)s->id, sqlite3_column_text(q, ipar),
				  sqlite3_column_int(q, ibase) ? mark : "", sqlite3_column_text(g, 0),
				  sqlite3_column_int(g, 1) ? mark : "");
			goto out;
		}
		if (ivar >= 0 && sqlite3_column_type(g, 2) == SQLITE_NULL &&
		    sqlite3_column_type(q, ivar) != SQLITE_NULL) {
			sqlite3_bind_int64(u, 1, t->id);
			sqlite3_bind_int64(u, 2, idx);
			sqlite3_bind_value(u, 3, sqlite3_column_value(q, ivar));
			if (sqlite3_step(u) != SQLITE_DONE) {
				rc = merr_db(m, m->out, "cannot link a configuration to its variant",
					     NULL);
				goto out;
			}
			sqlite3_reset(u);
		}
		sqlite3_reset(g);
	}
	rc = rc == SQLITE_DONE ? 0 : merr_db(m, src, "cannot read the configurations", path);
out:
	sqlite3_finalize(q);
	sqlite3_finalize(w);
	sqlite3_finalize(g);
	sqlite3_finalize(u);
	gs_buf_release(&sel);
	gs_buf_release(&ins);
	cols_release(&want);
	cols_release(&have);
	return rc;
}

/* Columns of result that say what the outcome was; when and on which of
 * several GPUs of one kind it was measured are not. */
static int compared(const char *col)
{
	return strcmp(col, "measured_at") && strcmp(col, "device") && strcmp(col, "idx") &&
	       strcmp(col, "reused_from") && strcmp(col, "timeout_s");
}

/* The output's id of the sweep an input's result was reused from: the
 * output sweep of that sweep's identity, when the merge made it or the
 * output has it; else 0, a sweep of another store. */
static int64_t output_sweep(struct merge *m, int64_t in_id)
{
	const struct in_sweep *s = NULL;
	sqlite3_stmt *q;
	int64_t id = 0;

	for (size_t i = 0; i < m->nsw && !s; i++)
		if (m->sw[i].input == m->input && m->sw[i].id == in_id)
			s = &m->sw[i];
	if (!s)
		return 0;
	for (size_t i = 0; i < m->ntg; i++)
		if (!strcmp(m->tg[i].base, s->base))
			return m->tg[i].id;
	if (sqlite3_prepare_v2(m->out, "SELECT id FROM sweep WHERE ident_hash = ?1", -1, &q, NULL) !=
	    SQLITE_OK)
		return 0;
	sqlite3_bind_text(q, 1, s->base, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		id = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return id;
}

/* Column i of the result columns, from q's column col, into ins at pos;
 * reused_from names a sweep of the input, which the output numbers its
 * own way. */
static void bind_result_col(struct merge *m, sqlite3_stmt *ins, int pos, size_t i,
			    sqlite3_stmt *q, int col)
{
	if (!strcmp(m->rcols.name[i], "reused_from") &&
	    sqlite3_column_type(q, col) == SQLITE_INTEGER)
		sqlite3_bind_int64(ins, pos, output_sweep(m, sqlite3_column_int64(q, col)));
	else
		sqlite3_bind_value(ins, pos, sqlite3_column_value(q, col));
}

/* Are rows a and b (the result columns m->rcols, from column offsets oa and
 * ob) the same outcome? */
static int same_outcome(struct merge *m, sqlite3_stmt *a, int oa, sqlite3_stmt *b, int ob)
{
	for (size_t i = 0; i < m->rcols.n; i++)
		if (compared(m->rcols.name[i]) && !col_eq(a, oa + (int)i, b, ob + (int)i))
			return 0;
	return 1;
}

/* One outcome of an input: q's current row holds the result columns from
 * offset off.  as_result: it may become the output's result. */
static int put_outcome(struct merge *m, struct target *t, sqlite3_stmt *q, int off,
		       const char *source, const char *host, const char *shard, int as_result)
{
	int iidx = col_index(&m->rcols, "idx");
	int64_t idx = sqlite3_column_int64(q, off + iidx);
	int rc;

	sqlite3_bind_int64(m->res_get, 1, t->id);
	sqlite3_bind_int64(m->res_get, 2, idx);
	rc = sqlite3_step(m->res_get);
	if (rc == SQLITE_ROW && same_outcome(m, m->res_get, 0, q, off)) {
		sqlite3_reset(m->res_get);
		m->ms->results_same++;
		return 0;
	}
	sqlite3_reset(m->res_get);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return merr_db(m, m->out, "cannot read a result", NULL);
	if (rc == SQLITE_DONE && as_result) {
		sqlite3_bind_int64(m->res_ins, 1, t->id);
		for (size_t i = 0; i < m->rcols.n; i++)
			bind_result_col(m, m->res_ins, (int)i + 2, i, q, off + (int)i);
		rc = sqlite3_step(m->res_ins);
		sqlite3_reset(m->res_ins);
		if (rc != SQLITE_DONE)
			return merr_db(m, m->out, "cannot store a result", NULL);
		m->ms->results_new++;
		return 0;
	}
	/* a re-measurement that disagrees: kept once, beside the first */
	sqlite3_bind_int64(m->conf_get, 1, t->id);
	sqlite3_bind_int64(m->conf_get, 2, idx);
	while ((rc = sqlite3_step(m->conf_get)) == SQLITE_ROW)
		if (same_outcome(m, m->conf_get, 0, q, off))
			break;
	sqlite3_reset(m->conf_get);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc != SQLITE_DONE)
		return merr_db(m, m->out, "cannot read the conflicting results", NULL);
	sqlite3_bind_int64(m->conf_ins, 1, t->id);
	sqlite3_bind_text(m->conf_ins, 2, source, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(m->conf_ins, 3, host, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(m->conf_ins, 4, shard, -1, SQLITE_TRANSIENT);
	for (size_t i = 0, k = 5; i < m->rcols.n; i++)
		if (col_index(&m->ccols, m->rcols.name[i]) >= 0)
			bind_result_col(m, m->conf_ins, (int)k++, i, q, off + (int)i);
	rc = sqlite3_step(m->conf_ins);
	sqlite3_reset(m->conf_ins);
	sqlite3_clear_bindings(m->conf_ins);
	if (rc != SQLITE_DONE)
		return merr_db(m, m->out, "cannot record a conflicting result", NULL);
	m->ms->conflicts_new++;
	return 0;
}

/* The input sweep's outcomes, then the conflicts it kept itself (an input
 * that is a merged store). */
static int copy_results(struct merge *m, const struct in_sweep *s, struct target *t, sqlite3 *src)
{
	const char *path = m->inputs[s->input];
	struct cols have;
	struct gs_buf sql = GS_BUF_INIT;
	sqlite3_stmt *q = NULL, *h = NULL;
	char *host = NULL;
	int rc;

	if ((rc = prepare(m, src, "SELECT host FROM sweep WHERE id = ?1", &h, path)) < 0)
		return rc;
	sqlite3_bind_int64(h, 1, s->id);
	if (sqlite3_step(h) == SQLITE_ROW)
		host = col_dup(h, 0);
	sqlite3_finalize(h);

	if ((rc = cols_of(m, src, "result", "sweep_id", &have, path)) < 0)
		goto out;
	gs_buf_puts(&sql, "SELECT ");
	select_list(&sql, &m->rcols, &have);
	gs_buf_puts(&sql, " FROM result WHERE sweep_id = ?1 ORDER BY idx");
	cols_release(&have);
	if ((rc = prepare(m, src, gs_buf_str(&sql), &q, path)) < 0)
		goto out;
	sqlite3_bind_int64(q, 1, s->id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		if ((rc = put_outcome(m, t, q, 0, path, host, s->shard, 1)) < 0)
			goto out;
	if (rc != SQLITE_DONE) {
		rc = merr_db(m, src, "cannot read the results", path);
		goto out;
	}
	sqlite3_finalize(q);
	q = NULL;

	if ((rc = cols_of(m, src, "result_conflict", NULL, &have, path)) < 0 || !have.n)
		goto out;
	gs_buf_reset(&sql);
	gs_buf_puts(&sql, "SELECT coalesce(source, ?2), source_host, source_shard, ");
	select_list(&sql, &m->rcols, &have);
	gs_buf_puts(&sql, " FROM result_conflict WHERE sweep_id = ?1 ORDER BY idx, id");
	cols_release(&have);
	if ((rc = prepare(m, src, gs_buf_str(&sql), &q, path)) < 0)
		goto out;
	sqlite3_bind_int64(q, 1, s->id);
	sqlite3_bind_text(q, 2, path, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		if ((rc = put_outcome(m, t, q, 3, (const char *)sqlite3_column_text(q, 0),
				      (const char *)sqlite3_column_text(q, 1),
				      (const char *)sqlite3_column_text(q, 2), 0)) < 0)
			goto out;
	rc = rc == SQLITE_DONE ? 0 : merr_db(m, src, "cannot read the conflicting results", path);
out:
	sqlite3_finalize(q);
	gs_buf_release(&sql);
	free(host);
	return rc;
}

/* The runs the input sweep was made of: its own parts when it is a merged
 * sweep, else the sweep itself. */
static int copy_parts(struct merge *m, const struct in_sweep *s, struct target *t, sqlite3 *src)
{
	const char *path = m->inputs[s->input];
	sqlite3_stmt *q;
	int ok, rc, n = 0;

	query_int(src, "SELECT 1 FROM sqlite_master WHERE name = 'sweep_part'", 0, &ok);
	if (ok) {
		struct cols want = { 0 }, have;
		struct gs_buf sql = GS_BUF_INIT;

		want.name = gs_xcalloc(PART_NCOLS, sizeof(*want.name));
		for (int i = 0; i < PART_NCOLS; i++)
			want.name[want.n++] = gs_xstrdup(part_col_name[i]);
		if ((rc = cols_of(m, src, "sweep_part", NULL, &have, path)) < 0) {
			cols_release(&want);
			return rc;
		}
		gs_buf_puts(&sql, "SELECT ");
		select_list(&sql, &want, &have);
		gs_buf_puts(&sql, " FROM sweep_part WHERE sweep_id = ?1"
				  " ORDER BY created_at, host, ident_hash");
		cols_release(&want);
		cols_release(&have);
		rc = prepare(m, src, gs_buf_str(&sql), &q, path);
		gs_buf_release(&sql);
		if (rc < 0)
			return rc;
		sqlite3_bind_int64(q, 1, s->id);
		while ((rc = sqlite3_step(q)) == SQLITE_ROW && ++n)
			if ((rc = put_part(m, t, q, path)) < 0)
				break;
		sqlite3_finalize(q);
		if (rc < 0)
			return rc;
		if (rc != SQLITE_DONE)
			return merr_db(m, src, "cannot read the parts of a sweep", path);
		if (n)
			return 0;
	}
	if ((rc = part_of_sweep(m, src, path, &q)) < 0)
		return rc;
	sqlite3_bind_int64(q, 1, s->id);
	rc = sqlite3_step(q) == SQLITE_ROW ? put_part(m, t, q, path)
					   : merr_db(m, src, "cannot read a sweep", path);
	sqlite3_finalize(q);
	return rc;
}

/* ---- a merged sweep's own row -------------------------------------------------- */

/* Which shards the parts of t cover: complete when one part covers all
 * (0/1) or the parts of one N hold every i, or when the sweep was done
 * before (a run on the merged store finished what its parts left); else
 * *missing lists the gaps of the N with most parts.  The status: done when
 * complete and every part is done, else the parts' one status when they
 * share it and cover the space, else interrupted (`gsearch run` on the
 * merged store finishes it). */
static int coverage(struct merge *m, struct target *t, const char *prev, char **missing,
		    char status[16])
{
	struct shardset {
		uint64_t n, have;
		uint8_t *bits;
	} *sets = NULL;
	size_t nsets = 0, cap = 0;
	sqlite3_stmt *q;
	int was_done = prev && !strcmp(prev, "done");
	int rc, complete = was_done, all_done = 1, same = 1;
	char first[16] = "";

	*missing = NULL;
	if ((rc = prepare(m, m->out, "SELECT shard, status FROM sweep_part WHERE sweep_id = ?1",
			  &q, NULL)) < 0)
		return rc;
	sqlite3_bind_int64(q, 1, t->id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *sh = (const char *)sqlite3_column_text(q, 0);
		const char *st = (const char *)sqlite3_column_text(q, 1);
		unsigned long long i, n;
		size_t k;

		st = st ? st : "";
		if (!first[0])
			snprintf(first, sizeof(first), "%s", st);
		same &= !strcmp(first, st);
		all_done &= !strcmp(st, "done");
		if (!sh || sscanf(sh, "%llu/%llu", &i, &n) != 2 || n == 0 || i >= n)
			continue;
		if (n == 1) {
			complete = 1;
			continue;
		}
		for (k = 0; k < nsets && sets[k].n != n; k++)
			;
		if (k == nsets) {
			gs_grow(&sets, &cap, nsets + 1, sizeof(*sets));
			sets[nsets++] = (struct shardset){ n, 0, gs_xcalloc(n / 8 + 1, 1) };
		}
		if (!(sets[k].bits[i / 8] & (1u << (i % 8)))) {
			sets[k].bits[i / 8] |= (uint8_t)(1u << (i % 8));
			sets[k].have++;
		}
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		rc = merr_db(m, m->out, "cannot read the parts of a sweep", NULL);
	else
		rc = 0;
	size_t best = 0;
	for (size_t k = 0; k < nsets; k++) {
		complete |= sets[k].have == sets[k].n;
		if (sets[k].have > sets[best].have)
			best = k;
	}
	if (!complete && nsets) {
		struct gs_buf b = GS_BUF_INIT;
		uint64_t shown = 0, n = sets[best].n;

		for (uint64_t i = 0; i < n; i++) {
			if (sets[best].bits[i / 8] & (1u << (i % 8)))
				continue;
			if (shown++ < 8)
				gs_buf_printf(&b, "%s%llu/%llu", shown > 1 ? " " : "",
					      (unsigned long long)i, (unsigned long long)n);
		}
		if (shown > 8)
			gs_buf_printf(&b, " ... (%llu in all)", (unsigned long long)shown);
		*missing = gs_buf_detach(&b);
	} else if (!complete) {
		*missing = gs_xstrdup("every shard");
	}
	for (size_t k = 0; k < nsets; k++)
		free(sets[k].bits);
	free(sets);
	snprintf(status, 16, "%s",
		 was_done || (complete && all_done) ? "done"
		 : complete && same && first[0]	    ? first
						    : "interrupted");
	return rc;
}

/* Rows of a table of the output that belong to a sweep. */
static int64_t count_of(struct merge *m, const char *table, int64_t sweep)
{
	char *sql = gs_xasprintf("SELECT count(*) FROM %s WHERE sweep_id = ?1", table);
	int ok;
	int64_t n = query_int(m->out, sql, sweep, &ok);

	free(sql);
	return n;
}

/* The sweep's row takes in its parts: the times they add, the earliest
 * creation and start, the latest finish, the first run's host and version,
 * and the status coverage() finds.  What runs on the merged store itself
 * added to the row stays. */
static int summarize(struct merge *m, struct target *t, struct gs_merge_sweep *o)
{
	static const char sql[] =
		"UPDATE sweep SET"
		" wall_s = coalesce(wall_s, 0) + ?3,"
		" compile_busy_s = coalesce(compile_busy_s, 0) + ?4,"
		" device_busy_s = coalesce(device_busy_s, 0) + ?5,"
		" worker_restarts = CASE WHEN ?6 IS NULL THEN worker_restarts"
		"  ELSE coalesce(worker_restarts, 0) + ?6 END,"
		" restart_s = CASE WHEN ?7 IS NULL THEN restart_s ELSE coalesce(restart_s, 0) + ?7 END,"
		" timed_s = CASE WHEN ?8 IS NULL THEN timed_s ELSE coalesce(timed_s, 0) + ?8 END,"
		" compile_threads = CASE WHEN ?9 > 0 THEN max(coalesce(compile_threads, 0), ?9)"
		"  ELSE compile_threads END,"
		" created_at = coalesce(min(created_at, coalesce((SELECT min(created_at) FROM"
		"  sweep_part WHERE sweep_id = ?1 AND created_at <> ''), created_at)), created_at),"
		" started_at = coalesce(min(started_at, coalesce((SELECT min(started_at) FROM"
		"  sweep_part WHERE sweep_id = ?1), started_at)),"
		"  (SELECT min(started_at) FROM sweep_part WHERE sweep_id = ?1)),"
		" finished_at = coalesce(max(finished_at, coalesce((SELECT max(finished_at) FROM"
		"  sweep_part WHERE sweep_id = ?1), finished_at)),"
		"  (SELECT max(finished_at) FROM sweep_part WHERE sweep_id = ?1)),"
		" host = (SELECT nullif(host, '') FROM sweep_part WHERE sweep_id = ?1"
		"  ORDER BY created_at, host LIMIT 1),"
		" gsearch_version = (SELECT gsearch_version FROM sweep_part WHERE sweep_id = ?1"
		"  ORDER BY created_at, host LIMIT 1),"
		" status = ?2 WHERE id = ?1";
	sqlite3_stmt *q;
	char *prev = NULL;
	int rc;

	o->id = t->id;
	o->space_name = gs_xstrdup(t->first->f[IF_SPACE_NAME]);
	if ((rc = prepare(m, m->out, "SELECT status FROM sweep WHERE id = ?1", &q, NULL)) < 0)
		return rc;
	sqlite3_bind_int64(q, 1, t->id);
	if (sqlite3_step(q) == SQLITE_ROW)
		prev = col_dup(q, 0);
	sqlite3_finalize(q);
	rc = coverage(m, t, prev, &o->missing, o->status);
	free(prev);
	if (rc < 0 || (rc = prepare(m, m->out, sql, &q, NULL)) < 0)
		return rc;
	sqlite3_bind_int64(q, 1, t->id);
	sqlite3_bind_text(q, 2, o->status, -1, SQLITE_STATIC);
	for (size_t i = 0; i < NSUMS; i++)
		if (part_sums[i] < PART_NEW || t->known[i])
			sqlite3_bind_double(q, 3 + (int)i, t->dsum[i]);
	sqlite3_bind_int(q, 9, t->threads);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return merr_db(m, m->out, "cannot update a merged sweep", NULL);
	o->parts = count_of(m, "sweep_part", t->id);
	o->configs = count_of(m, "config", t->id);
	o->results = count_of(m, "result", t->id);
	o->conflicts = count_of(m, "result_conflict", t->id);
	return 0;
}

/* The views a run would have made: sweep_<id> and the space's. */
static int views(struct merge *m, struct target *t)
{
	json_error_t je;
	json_t *a = json_loads(t->first->f[IF_PARAMS_JSON] ? t->first->f[IF_PARAMS_JSON] : "", 0, &je);
	size_t n = json_is_array(a) ? json_array_size(a) : 0;
	const char **names = gs_xcalloc(n + 1, sizeof(*names));
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		names[i] = json_string_value(json_object_get(json_array_get(a, i), "name"));
		if (!names[i])
			rc = merr(m, -EPROTO, "sweep %lld: its parameters are not a list of names",
				  (long long)t->id);
	}
	if (!a)
		rc = merr(m, -EPROTO, "sweep %lld: its parameters are not JSON: %s", (long long)t->id,
			  je.text);
	if (!rc && (rc = gs_store_views(m->st, t->id, t->first->f[IF_SPACE_NAME], names, n)) < 0)
		rc = merr(m, rc, "%s", gs_store_errmsg(m->st));
	free(names);
	json_decref(a);
	return rc;
}

/* ---- the merge ------------------------------------------------------------------ */

static int prepare_out(struct merge *m)
{
	struct gs_buf sql = GS_BUF_INIT;
	int rc;

	if ((rc = cols_of(m, m->out, "result", "sweep_id", &m->rcols, NULL)) < 0 ||
	    (rc = cols_of(m, m->out, "result_conflict", NULL, &m->ccols, NULL)) < 0)
		return rc;
	if (col_index(&m->rcols, "idx") < 0)
		return merr(m, -EPROTO, "the merged store's result table has no idx");
	gs_buf_puts(&sql, "SELECT ");
	select_list(&sql, &m->rcols, &m->rcols);
	gs_buf_puts(&sql, " FROM result WHERE sweep_id = ?1 AND idx = ?2");
	if ((rc = prepare(m, m->out, gs_buf_str(&sql), &m->res_get, NULL)) < 0)
		goto out;
	gs_buf_reset(&sql);
	gs_buf_puts(&sql, "INSERT INTO result (sweep_id");
	for (size_t i = 0; i < m->rcols.n; i++) {
		gs_buf_puts(&sql, ", ");
		gs_store_put_ident(&sql, m->rcols.name[i]);
	}
	gs_buf_puts(&sql, ") VALUES (?1");
	for (size_t i = 0; i < m->rcols.n; i++)
		gs_buf_printf(&sql, ", ?%zu", i + 2);
	gs_buf_puts(&sql, ")");
	if ((rc = prepare(m, m->out, gs_buf_str(&sql), &m->res_ins, NULL)) < 0)
		goto out;
	gs_buf_reset(&sql);
	gs_buf_puts(&sql, "SELECT ");
	select_list(&sql, &m->rcols, &m->ccols);
	gs_buf_puts(&sql, " FROM result_conflict WHERE sweep_id = ?1 AND idx = ?2");
	if ((rc = prepare(m, m->out, gs_buf_str(&sql), &m->conf_get, NULL)) < 0)
		goto out;
	gs_buf_reset(&sql);
	gs_buf_puts(&sql, "INSERT INTO result_conflict (sweep_id, source, source_host, source_shard");
	size_t k = 5;
	for (size_t i = 0; i < m->rcols.n; i++)
		if (col_index(&m->ccols, m->rcols.name[i]) >= 0) {
			gs_buf_puts(&sql, ", ");
			gs_store_put_ident(&sql, m->rcols.name[i]);
		}
	gs_buf_puts(&sql, ") VALUES (?1, ?2, ?3, ?4");
	for (size_t i = 0; i < m->rcols.n; i++)
		if (col_index(&m->ccols, m->rcols.name[i]) >= 0)
			gs_buf_printf(&sql, ", ?%zu", k++);
	gs_buf_puts(&sql, ")");
	if ((rc = prepare(m, m->out, gs_buf_str(&sql), &m->conf_ins, NULL)) < 0)
		goto out;
	gs_buf_reset(&sql);
	gs_buf_puts(&sql, "SELECT ");
	for (size_t i = 0; i < NSUMS; i++)
		gs_buf_printf(&sql, "%s%s", i ? ", " : "", part_col_name[part_sums[i]]);
	gs_buf_puts(&sql, " FROM sweep_part WHERE sweep_id = ?1");
	for (int i = 0; i < PART_NKEY; i++)
		gs_buf_printf(&sql, " AND %s = ?%d", part_col_name[i], i + 2);
	if ((rc = prepare(m, m->out, gs_buf_str(&sql), &m->part_has, NULL)) < 0)
		goto out;
	gs_buf_reset(&sql);
	gs_buf_puts(&sql, "INSERT INTO sweep_part (sweep_id");
	for (int i = 0; i < PART_NCOLS; i++)
		gs_buf_printf(&sql, ", %s", part_col_name[i]);
	gs_buf_puts(&sql, ") VALUES (?1");
	for (int i = 0; i < PART_NCOLS; i++)
		gs_buf_printf(&sql, ", ?%d", i + 2);
	gs_buf_puts(&sql, ") ON CONFLICT (sweep_id");
	for (int i = 0; i < PART_NKEY; i++)
		gs_buf_printf(&sql, ", %s", part_col_name[i]);
	gs_buf_puts(&sql, ") DO UPDATE SET ");
	for (int i = PART_NKEY; i < PART_NCOLS; i++)
		gs_buf_printf(&sql, "%s%s = excluded.%s", i > PART_NKEY ? ", " : "", part_col_name[i],
			      part_col_name[i]);
	rc = prepare(m, m->out, gs_buf_str(&sql), &m->part_put, NULL);
out:
	gs_buf_release(&sql);
	return rc;
}

/* Second pass over one input, inside the output's transaction. */
static int merge_input(struct merge *m, size_t input, const struct stat *out_sb)
{
	sqlite3 *src;
	int rc = src_open(m, m->inputs[input], out_sb, &src);

	if (rc == 0)
		rc = copy_variants(m, src, m->inputs[input]);
	m->input = input;
	for (size_t i = 0; rc == 0 && i < m->nsw; i++) {
		const struct in_sweep *s = &m->sw[i];
		struct target *t = NULL;

		if (s->input != input)
			continue;
		if ((rc = target_of(m, s, &t)) < 0)
			break;
		if (!t->self_checked && (rc = self_part(m, t)) < 0)
			break;
		if ((rc = copy_configs(m, s, t, src)) < 0 || (rc = copy_results(m, s, t, src)) < 0 ||
		    (rc = copy_parts(m, s, t, src)) < 0)
			break;
	}
	src_close(src);
	return rc;
}

int gs_merge(const char *out_path, const char *const *inputs, size_t n,
	     const struct gs_merge_opts *opts, struct gs_merge_stats *ms, struct gs_buf *err)
{
	static const struct gs_merge_opts no_opts;
	struct merge m = { .inputs = inputs, .ninputs = n, .opts = opts ? opts : &no_opts,
			   .ms = ms, .err = err };
	struct stat out_sb;
	int have_out, existed, rc = 0, in_tx = 0;

	memset(ms, 0, sizeof(*ms));
	have_out = existed = stat(out_path, &out_sb) == 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		sqlite3 *src;

		if ((rc = src_open(&m, inputs[i], have_out ? &out_sb : NULL, &src)) == 0)
			rc = read_sweeps(&m, i, src);
		src_close(src);
		ms->inputs++;
	}
	if (rc == 0 && !m.opts->force)
		rc = check_identities(&m);
	if (rc < 0)
		goto out;

	if ((rc = gs_store_open(&m.st, out_path, 0)) < 0) {
		rc = merr(&m, rc, "%s", gs_store_errmsg(m.st));
		goto out;
	}
	m.out = gs_store_sqlite(m.st);
	/* the output may have been created just now */
	have_out = stat(out_path, &out_sb) == 0;
	if ((rc = prepare_out(&m)) < 0 || (rc = out_exec(&m, "BEGIN IMMEDIATE")) < 0)
		goto out;
	in_tx = 1;
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = merge_input(&m, i, have_out ? &out_sb : NULL);
	if (rc == 0) {
		ms->out = gs_xcalloc(m.ntg + 1, sizeof(*ms->out));
		for (size_t i = 0; rc == 0 && i < m.ntg; i++) {
			rc = summarize(&m, &m.tg[i], &ms->out[ms->nout++]);
			if (rc == 0)
				rc = views(&m, &m.tg[i]);
		}
	}
	if (rc == 0 && (rc = out_exec(&m, "COMMIT")) == 0)
		in_tx = 0;
out:
	if (in_tx)
		sqlite3_exec(m.out, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_finalize(m.res_get);
	sqlite3_finalize(m.res_ins);
	sqlite3_finalize(m.conf_get);
	sqlite3_finalize(m.conf_ins);
	sqlite3_finalize(m.part_has);
	sqlite3_finalize(m.part_put);
	cols_release(&m.rcols);
	cols_release(&m.ccols);
	gs_store_close(m.st);
	if (rc < 0 && m.st && !existed) {
		/* what a failed merge created holds nothing: leave no file behind */
		static const char *const suffix[] = { "", "-wal", "-shm" };

		for (size_t i = 0; i < GS_ARRAY_SIZE(suffix); i++) {
			char *p = gs_xasprintf("%s%s", out_path, suffix[i]);

			unlink(p);
			free(p);
		}
	}
	for (size_t i = 0; i < m.nsw; i++) {
		for (size_t k = 0; k < NIDENT; k++)
			free(m.sw[i].f[k]);
		free(m.sw[i].shard);
		free(m.sw[i].space_path);
		free(m.sw[i].baseline_json);
	}
	free(m.sw);
	free(m.tg);
	if (rc < 0) {
		/* a failed merge changed nothing: its figures would mislead */
		struct gs_merge_sweep *o = ms->out;
		size_t no = ms->nout;

		ms->out = NULL;
		ms->nout = 0;
		for (size_t i = 0; i < no; i++) {
			free(o[i].space_name);
			free(o[i].missing);
		}
		free(o);
	}
	return rc;
}

void gs_merge_stats_release(struct gs_merge_stats *ms)
{
	for (size_t i = 0; i < ms->nout; i++) {
		free(ms->out[i].space_name);
		free(ms->out[i].missing);
	}
	free(ms->out);
	ms->out = NULL;
	ms->nout = 0;
}
