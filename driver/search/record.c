/* record.c — loading a complete recorded sweep from a store or a Kernel
 * Tuner cache (see record.h). */
#include "search/record.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "search/kt.h"
#include "util/util.h"

int gs_record_is_kt(const char *path)
{
	gzFile f = gzopen(path, "rb");
	if (!f)
		return 0;
	int c;
	do
		c = gzgetc(f);
	while (c >= 0 && isspace(c));
	gzclose(f);
	return c == '{';
}

static void grow(struct gs_record *r, size_t n)
{
	r->time_ms = gs_xrealloc(r->time_ms, n * sizeof *r->time_ms);
	r->cost_s = gs_xrealloc(r->cost_s, n * sizeof *r->cost_s);
	r->compile_s = gs_xrealloc(r->compile_s, n * sizeof *r->compile_s);
	r->occupancy = gs_xrealloc(r->occupancy, n * sizeof *r->occupancy);
	r->registers = gs_xrealloc(r->registers, n * sizeof *r->registers);
}

static double member_ms(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : 0.0;
}

static int load_kt(const char *path, struct gs_record *r, struct gs_buf *err)
{
	struct gs_ktcache c;
	if (gs_ktcache_load(path, &c, err) < 0) {
		gs_ktcache_release(&c);
		return -1;
	}
	json_t *params = json_array();
	for (size_t i = 0; i < c.nparams; i++) {
		json_t *vals = json_object_get(c.tune_params, c.params[i]);
		json_array_append_new(params, json_pack("{s:s,s:O}", "name", c.params[i], "values",
							vals ? vals : json_array()));
	}
	int rc = gs_sspace_init(&r->sp, params, err);
	json_decref(params);
	for (size_t i = 0; !rc && i < c.n; i++) {
		const struct gs_ktentry *e = &c.e[i];
		/* InvalidConfig: Kernel Tuner's own constraints or device limits
		 * said no before compiling; a strategy that knows the constraints
		 * never proposes it, so it is not part of the space. */
		if (e->failure && !strcmp(e->failure, "InvalidConfig"))
			continue;
		long k = gs_sspace_add(&r->sp, e->obj, (int64_t)i, err);
		if (k == -2)
			continue;
		if (k < 0) {
			rc = -1;
			break;
		}
		grow(r, r->sp.n);
		r->time_ms[k] = e->failure ? INFINITY : e->time_ms;
		r->cost_s[k] = (member_ms(e->obj, "compile_time") + member_ms(e->obj, "verification_time") +
				member_ms(e->obj, "benchmark_time") + member_ms(e->obj, "framework_time")) /
			       1000.0;
		r->compile_s[k] = member_ms(e->obj, "compile_time") / 1000.0;
		r->occupancy[k] = NAN;
		r->registers[k] = -1;
	}
	if (!rc)
		r->what = gs_xasprintf("%s on %s", c.kernel ? c.kernel : "?", c.device ? c.device : "?");
	gs_ktcache_release(&c);
	return rc;
}

static int has_column(sqlite3 *db, const char *table, const char *col)
{
	sqlite3_stmt *st;
	char *q = sqlite3_mprintf("SELECT 1 FROM pragma_table_info(%Q) WHERE name = %Q", table, col);
	int found = 0;
	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK) {
		found = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	sqlite3_free(q);
	return found;
}

/* "STORE#ID" -> path and id (0: the newest), unless a file has that name. */
static char *split_source(const char *source, int64_t *id)
{
	*id = 0;
	const char *h = strrchr(source, '#');
	if (!h || !h[1])
		return gs_xstrdup(source);
	for (const char *p = h + 1; *p; p++)
		if (!isdigit((unsigned char)*p))
			return gs_xstrdup(source);
	*id = strtoll(h + 1, NULL, 10);
	return gs_xstrndup(source, (size_t)(h - source));
}

static int load_store(const char *source, int complete, struct gs_record *r, struct gs_buf *err)
{
	int64_t id;
	char *path = split_source(source, &id);
	/* read as the reports read: any schema with a sweep table, never
	 * migrated, never written */
	sqlite3 *db = NULL;
	int rc = -1;
	sqlite3_stmt *q = NULL;
	json_t *params = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		gs_buf_printf(err, "%s: cannot open: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	if (sqlite3_prepare_v2(db,
			       id ? "SELECT id, params_json, space_name, device FROM sweep WHERE id = ?1"
				  : "SELECT id, params_json, space_name, device FROM sweep ORDER BY id DESC LIMIT 1",
			       -1, &q, NULL) != SQLITE_OK) {
		gs_buf_printf(err, "%s: not a gsearch store: %s", path, sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_bind_int64(q, 1, id);
	if (sqlite3_step(q) != SQLITE_ROW) {
		gs_buf_printf(err, id ? "%s: no sweep %lld" : "%s: no sweep", path, (long long)id);
		goto out;
	}
	r->sweep = sqlite3_column_int64(q, 0);
	params = json_loads((const char *)sqlite3_column_text(q, 1), 0, NULL);
	r->what = gs_xasprintf("%s on %s", sqlite3_column_text(q, 2) ? (const char *)sqlite3_column_text(q, 2) : "?",
			       sqlite3_column_text(q, 3) ? (const char *)sqlite3_column_text(q, 3) : "?");
	sqlite3_finalize(q);
	q = NULL;
	if (gs_sspace_init(&r->sp, params, err) < 0)
		goto out;
	/* what a measurement cost: the timed work where the schema has it */
	const char *measure = has_column(db, "result", "timed_ms") ? "coalesce(r.timed_ms, r.time_ms * max(coalesce(r.reps, 1), 1))"
								    : "r.time_ms * max(coalesce(r.reps, 1), 1)";
	/* a sweep imported from a Kernel Tuner cache keeps the entry's own
	 * costs beside each result: replaying it is replaying the file */
	int imported = has_column(db, "result", "source_entry");
	char *kt_ms = gs_xstrdup(imported ? "(SELECT coalesce(json_extract(r.source_entry, '$.compile_time'), 0) + "
					    "coalesce(json_extract(r.source_entry, '$.verification_time'), 0) + "
					    "coalesce(json_extract(r.source_entry, '$.benchmark_time'), 0) + "
					    "coalesce(json_extract(r.source_entry, '$.framework_time'), 0) "
					    "WHERE json_valid(r.source_entry) AND json_extract(r.source_entry, '$.compile_time') IS NOT NULL)"
					  : "NULL");
	char *sql = gs_xasprintf("SELECT c.idx, c.params, r.status, r.time_ms, coalesce(v.compile_s, 0), "
				 "coalesce(%s, %s), r.occupancy, v.registers, %s, %s FROM config c "
				 "LEFT JOIN result r ON r.sweep_id = c.sweep_id AND r.idx = c.idx "
				 "LEFT JOIN variant v ON v.hash = coalesce(r.variant_hash, c.variant_hash) "
				 "WHERE c.sweep_id = ?1 ORDER BY c.idx",
				 kt_ms, measure, imported ? "r.error = 'Kernel Tuner: InvalidConfig'" : "0",
				 imported ? "(SELECT coalesce(json_extract(r.source_entry, '$.compile_time'), 0) "
					    "WHERE json_valid(r.source_entry))"
					  : "NULL");
	free(kt_ms);
	int prc = sqlite3_prepare_v2(db, sql, -1, &q, NULL);
	free(sql);
	if (prc != SQLITE_OK) {
		gs_buf_printf(err, "%s: %s", path, sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_bind_int64(q, 1, r->sweep);
	while ((prc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t idx = sqlite3_column_int64(q, 0);
		const char *status = (const char *)sqlite3_column_text(q, 2);
		if (complete && (!status || !strcmp(status, "skipped"))) {
			gs_buf_printf(err, "%s: sweep %lld is not complete: configuration %lld has no outcome",
				      path, (long long)r->sweep, (long long)idx);
			goto out;
		}
		if (sqlite3_column_int(q, 8))
			continue; /* not part of the space, as in load_kt */
		json_t *obj = json_loads((const char *)sqlite3_column_text(q, 1), 0, NULL);
		long k = gs_sspace_add(&r->sp, obj, idx, err);
		json_decref(obj);
		if (k == -2)
			continue;
		if (k < 0)
			goto out;
		grow(r, r->sp.n);
		int ok = status && !strcmp(status, "ok") && sqlite3_column_type(q, 3) != SQLITE_NULL;
		r->time_ms[k] = ok ? sqlite3_column_double(q, 3)
			      : (!status || !strcmp(status, "skipped")) ? NAN
									 : INFINITY;
		r->cost_s[k] = sqlite3_column_double(q, 4) + sqlite3_column_double(q, 5) / 1000.0;
		r->compile_s[k] = sqlite3_column_double(q, 4) + sqlite3_column_double(q, 9) / 1000.0;
		r->occupancy[k] = sqlite3_column_type(q, 6) == SQLITE_NULL ? NAN : sqlite3_column_double(q, 6);
		r->registers[k] = sqlite3_column_type(q, 7) == SQLITE_NULL ? -1 : sqlite3_column_int(q, 7);
		if (!isnan(r->occupancy[k]))
			r->has_occupancy = 1;
	}
	if (prc != SQLITE_DONE) {
		gs_buf_printf(err, "%s: %s", path, sqlite3_errmsg(db));
		goto out;
	}
	rc = 0;
out:
	if (q)
		sqlite3_finalize(q);
	json_decref(params);
	sqlite3_close(db);
	free(path);
	return rc;
}

int gs_record_load(const char *source, int complete, struct gs_record *r, struct gs_buf *err)
{
	memset(r, 0, sizeof *r);
	int rc = gs_record_is_kt(source) ? load_kt(source, r, err) : load_store(source, complete, r, err);
	if (!rc && !r->sp.n) {
		gs_buf_printf(err, "%s: no configurations", source);
		rc = -1;
	}
	return rc;
}

void gs_record_release(struct gs_record *r)
{
	gs_sspace_release(&r->sp);
	free(r->time_ms);
	free(r->cost_s);
	free(r->compile_s);
	free(r->occupancy);
	free(r->registers);
	free(r->what);
	memset(r, 0, sizeof *r);
}
