/* fields.c — a sweep's field catalogue, the --where filter and the row
 * iterator every report reads through.
 *
 * A field is a parameter, a column of the result or variant table, or a key
 * of the metrics or counters JSON.  SQL is assembled from the constant
 * fragments of the table below; the sweep id, the configuration index and
 * every JSON path are bound, so nothing a user typed reaches SQL text. */
#include "query/query.h"
#include "store/store.h"

#include <errno.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "core/qcols.h"
#include "query/jsonrow.h"
#include "space/parse.h"

/* the catalogue is GS_QCOLS (core/qcols.h); the schema that added a column
 * is in since[] below */
#define T_NUM (GS_T(INT) | GS_T(FLOAT))
static const struct qcol {
	const char *name, *sql, *label, *unit;
	unsigned type;
	int table, higher;
} qcols[] = {
#define X(n, s, l, u, t, tab, h) { n, s, l, u, t, tab, h },
	GS_QCOLS(X)
#undef X
};

/* Columns a store has only from some schema on: in an older one the field
 * exists and is empty. */
static const struct {
	const char *name;
	int schema;
} since[] = {
	{ "ci_lo_ms", 6 }, { "ci_hi_ms", 6 }, { "ci_pct", 6 },
	{ "runs", 6 },     { "warmups", 6 },  { "timed_ms", 6 },
};

static const char *col_sql(const struct gs_query *q, const struct qcol *c)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(since); i++)
		if (!strcmp(since[i].name, c->name) && q->schema < since[i].schema)
			return "NULL";
	return c->sql;
}

/* Short names people type for the common resources. */
static const struct {
	const char *alias, *name;
} aliases[] = {
#define X(a, n) { a, n },
	GS_QALIASES(X)
#undef X
};

/* How many results are sampled for the keys of their metrics and counters;
 * every ok result of a sweep has the same ones. */
#define KEY_SAMPLE 16

static char *col_dup(sqlite3_stmt *q, int i)
{
	const unsigned char *s = sqlite3_column_text(q, i);
	return s ? gs_xstrdup((const char *)s) : NULL;
}

static double col_real(sqlite3_stmt *q, int i)
{
	return sqlite3_column_type(q, i) == SQLITE_NULL ? -1 : sqlite3_column_double(q, i);
}

int64_t *gs_query_sweep_ids(struct gs_query *q, size_t *n)
{
	sqlite3_stmt *s;
	int64_t *ids = NULL;
	size_t cap = 0;
	*n = 0;
	if (sqlite3_prepare_v2(q->db, "SELECT id FROM sweep ORDER BY id", -1, &s, NULL))
		return NULL;
	while (sqlite3_step(s) == SQLITE_ROW) {
		gs_grow(&ids, &cap, *n + 1, sizeof(*ids));
		ids[(*n)++] = sqlite3_column_int64(s, 0);
	}
	sqlite3_finalize(s);
	return ids;
}

static struct gs_qfield *add_field(struct gs_qsweep *sw, size_t *cap, const char *name)
{
	gs_grow(&sw->fields, cap, sw->nfields + 1, sizeof(*sw->fields));
	struct gs_qfield *f = &sw->fields[sw->nfields++];
	memset(f, 0, sizeof(*f));
	f->name = gs_xstrdup(name);
	f->label = f->name;
	f->unit = "";
	return f;
}

static int field_index(const struct gs_qsweep *sw, const char *name)
{
	for (size_t i = 0; i < sw->nfields; i++)
		if (!strcmp(sw->fields[i].name, name))
			return (int)i;
	return -1;
}

static char *json_path(const char *prefix, const char *key)
{
	struct gs_buf b = GS_BUF_INIT;
	gs_buf_puts(&b, prefix);
	gs_buf_putc(&b, '.');
	gs_buf_put_json_str(&b, key);
	return gs_buf_detach(&b);
}

/* Number, boolean and string keys of a metrics or counters object, nested objects flattened
 * with '_' ("warp_inst": {"fp32": 3} is warp_inst_fp32). */
static void add_keys(struct gs_qsweep *sw, size_t *cap, json_t *o, const char *prefix,
		     const char *path, enum gs_qkind kind, int depth)
{
	const char *k;
	json_t *v;
	json_object_foreach(o, k, v) {
		char *name = *prefix ? gs_xasprintf("%s_%s", prefix, k) : gs_xstrdup(k);
		char *p = json_path(path, k);
		if (json_is_object(v) && depth < 4) {
			add_keys(sw, cap, v, name, p, kind, depth + 1);
		} else if ((json_is_number(v) || json_is_boolean(v) || json_is_string(v) ||
			    (json_is_null(v) && kind == GS_QK_METRIC)) &&
			   field_index(sw, name) < 0) {
			/* a metric with no value (1/0, NaN) is still a field: a
			 * number that is missing here */
			struct gs_qfield *f = add_field(sw, cap, name);
			f->kind = kind;
			f->path = p;
			p = NULL;
			/* a string is a label (the emulated device's "model_bound"),
			 * no better higher or lower */
			f->type = json_is_string(v) ? GS_T(STR) : T_NUM;
			/* a metric is better higher unless its space says otherwise,
			 * which the store does not keep */
			f->higher = kind == GS_QK_METRIC && !json_is_string(v);
		}
		free(p);
		free(name);
	}
}

static void load_json_keys(struct gs_query *q, struct gs_qsweep *sw, size_t *cap)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(q->db, "SELECT metrics, counters FROM result WHERE sweep_id = ?1 AND"
				      " status = 'ok' AND (metrics IS NOT NULL OR counters IS NOT NULL)"
				      " LIMIT ?2", -1, &s, NULL))
		return;
	sqlite3_bind_int64(s, 1, sw->id);
	sqlite3_bind_int(s, 2, KEY_SAMPLE);
	for (int pass = 0; pass < 2; pass++) {
		sqlite3_reset(s);
		while (sqlite3_step(s) == SQLITE_ROW) {
			const char *t = (const char *)sqlite3_column_text(s, pass);
			if (!t)
				continue;
			json_t *o = json_loads(t, 0, NULL);
			if (json_is_object(o))
				add_keys(sw, cap, o, "", "$", pass ? GS_QK_COUNTER : GS_QK_METRIC, 0);
			json_decref(o);
		}
	}
	sqlite3_finalize(s);
}

static struct gs_value json_to_value(struct gs_arena *a, json_t *j)
{
	switch (json_typeof(j)) {
	case JSON_INTEGER:
		return gs_int(json_integer_value(j));
	case JSON_REAL:
		return gs_float(json_real_value(j));
	case JSON_TRUE:
		return gs_bool(1);
	case JSON_FALSE:
		return gs_bool(0);
	case JSON_STRING:
		return gs_str_new(a, json_string_value(j), json_string_length(j));
	default:
		return gs_none();
	}
}

static void load_params(struct gs_qsweep *sw, const char *params_json, size_t *cap)
{
	json_t *a = params_json ? json_loads(params_json, 0, NULL) : NULL;
	size_t n = json_is_array(a) ? json_array_size(a) : 0;
	sw->params = gs_xcalloc(n + 1, sizeof(*sw->params));
	sw->domains = gs_arena_alloc(&sw->arena, (n + 1) * sizeof(*sw->domains));
	for (size_t i = 0; i < n; i++) {
		json_t *p = json_array_get(a, i);
		const char *name = json_string_value(json_object_get(p, "name"));
		if (!name)
			continue;
		json_t *vals = json_object_get(p, "values");
		size_t nv = json_is_array(vals) ? json_array_size(vals) : 0;
		struct gs_value l = gs_list_new(&sw->arena, nv);
		unsigned type = 0;
		for (size_t k = 0; k < nv; k++) {
			struct gs_value v = json_to_value(&sw->arena, json_array_get(vals, k));
			l.l->v[l.l->n++] = v;
			type |= 1u << v.t;
		}
		sw->domains[sw->nparams] = l;
		sw->params[sw->nparams++] = gs_xstrdup(name);
		struct gs_qfield *f = add_field(sw, cap, name);
		f->kind = GS_QK_PARAM;
		f->path = json_path("$", name);
		/* JSON has no bool: a True parameter is stored as true and read back
		 * from SQLite as 1 */
		if (type & GS_T(BOOL))
			type |= GS_T(INT);
		f->type = type ? type : GS_T_ANY;
		f->needs_config = 1;
	}
	json_decref(a);
}

int gs_qsweep_load(struct gs_query *q, int64_t id, struct gs_qsweep *sw)
{
	memset(sw, 0, sizeof(*sw));
	sqlite3_stmt *s;
	if (id <= 0) {
		if (sqlite3_prepare_v2(q->db, "SELECT max(id) FROM sweep", -1, &s, NULL)) {
			fprintf(stderr, "gsearch: error: cannot read %s: %s%s\n", q->path,
				sqlite3_errmsg(q->db),
			gs_store_damage_hint(sqlite3_extended_errcode(q->db), q->path));
			return -1;
		}
		if (sqlite3_step(s) == SQLITE_ROW)
			id = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
		if (id <= 0) {
			fprintf(stderr, "gsearch: error: %s holds no sweep yet (`gsearch run` makes one)\n",
				q->path);
			return -1;
		}
	}
	if (sqlite3_prepare_v2(q->db, q->schema >= 6 ?
				      "SELECT space_name, space_path, device, problem_json, status,"
				      " created_at, started_at, finished_at, host, gsearch_version,"
				      " wall_s, compile_busy_s, device_busy_s, params_json,"
				      " compile_threads, worker_restarts, restart_s, timed_s FROM sweep"
				      " WHERE id = ?1" :
				      "SELECT space_name, space_path, device, problem_json, status,"
				      " created_at, started_at, finished_at, host, gsearch_version,"
				      " wall_s, compile_busy_s, device_busy_s, params_json FROM sweep"
				      " WHERE id = ?1", -1, &s, NULL)) {
		fprintf(stderr, "gsearch: error: cannot read %s: %s%s\n", q->path, sqlite3_errmsg(q->db),
			gs_store_damage_hint(sqlite3_extended_errcode(q->db), q->path));
		return -1;
	}
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_finalize(s);
		size_t n;
		int64_t *ids = gs_query_sweep_ids(q, &n);
		struct gs_buf b = GS_BUF_INIT;
		for (size_t i = 0; i < n; i++)
			gs_buf_printf(&b, "%s%lld", i ? ", " : "", (long long)ids[i]);
		if (n)
			fprintf(stderr, "gsearch: error: %s has no sweep %lld (its sweeps: %s)\n",
				q->path, (long long)id, gs_buf_str(&b));
		else
			fprintf(stderr, "gsearch: error: %s holds no sweep yet (`gsearch run` makes one)\n",
				q->path);
		gs_buf_release(&b);
		free(ids);
		return -1;
	}
	sw->id = id;
	sw->space = col_dup(s, 0);
	sw->space_path = col_dup(s, 1);
	sw->device = col_dup(s, 2);
	sw->problem = col_dup(s, 3);
	sw->status = col_dup(s, 4);
	sw->created_at = col_dup(s, 5);
	sw->started_at = col_dup(s, 6);
	sw->finished_at = col_dup(s, 7);
	sw->host = col_dup(s, 8);
	sw->version = col_dup(s, 9);
	sw->wall_s = col_real(s, 10);
	sw->compile_s = col_real(s, 11);
	sw->device_s = col_real(s, 12);
	sw->modeled = sw->device && !strncmp(sw->device, "emu:", 4);
	sw->compile_threads = -1;
	sw->worker_restarts = -1;
	sw->restart_s = sw->timed_s = -1;
	if (q->schema >= 6) {
		if (sqlite3_column_type(s, 14) != SQLITE_NULL)
			sw->compile_threads = sqlite3_column_int(s, 14);
		if (sqlite3_column_type(s, 15) != SQLITE_NULL)
			sw->worker_restarts = sqlite3_column_int64(s, 15);
		sw->restart_s = col_real(s, 16);
		sw->timed_s = col_real(s, 17);
	}
	size_t cap = 0;
	load_params(sw, (const char *)sqlite3_column_text(s, 13), &cap);
	sqlite3_finalize(s);
	for (size_t i = 0; i < GS_ARRAY_SIZE(qcols); i++) {
		if (field_index(sw, qcols[i].name) >= 0)
			continue; /* a parameter of that name wins */
		struct gs_qfield *f = add_field(sw, &cap, qcols[i].name);
		f->kind = GS_QK_COL;
		f->sql = col_sql(q, &qcols[i]);
		f->label = qcols[i].label;
		f->unit = qcols[i].unit;
		f->type = qcols[i].type;
		f->needs_config = qcols[i].table == 1;
		f->needs_variant = qcols[i].table == 2;
		f->higher = qcols[i].higher;
	}
	load_json_keys(q, sw, &cap);
	if (sqlite3_prepare_v2(q->db, q->schema >= 8 ? "SELECT shard, baseline_json, options_json,"
						       " source_format, source_path FROM sweep WHERE id = ?1"
				      : q->schema >= 7 ? "SELECT shard, baseline_json, options_json, NULL,"
							 " NULL FROM sweep WHERE id = ?1"
						       : "SELECT shard, NULL, options_json, NULL, NULL"
							 " FROM sweep WHERE id = ?1",
			       -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(s, 1, id);
		if (sqlite3_step(s) == SQLITE_ROW) {
			const char *opts = (const char *)sqlite3_column_text(s, 2);
			sw->shard = col_dup(s, 0);
			sw->baseline_json = col_dup(s, 1);
			sw->source_format = col_dup(s, 3);
			sw->source_path = col_dup(s, 4);
			sw->unvalidated = opts && strstr(opts, "\"validated\":false") != NULL;
			const char *m = opts ? strstr(opts, "\"modeled_at\":{") : NULL;
			const char *end = m ? strchr(m, '}') : NULL;
			if (end) {
				m += strlen("\"modeled_at\":");
				sw->modeled_at = gs_xasprintf("%.*s", (int)(end + 1 - m), m);
			}
		}
		sqlite3_finalize(s);
	}
	sw->baseline = -1;
	if (sqlite3_prepare_v2(q->db, "SELECT idx FROM config WHERE sweep_id = ?1 AND baseline"
				      " LIMIT 1", -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(s, 1, id);
		if (sqlite3_step(s) == SQLITE_ROW)
			sw->baseline = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	return 0;
}

const char *gs_qsweep_no_baseline(struct gs_query *q, const struct gs_qsweep *sw,
				  struct gs_buf *why)
{
	long long si = 0, sn = 1, configs = 0;
	const char *named = sw->baseline_json;
	sqlite3_stmt *s;

	if (sw->shard && sscanf(sw->shard, "%lld/%lld", &si, &sn) != 2)
		sn = 1;
	if (named && !strcmp(named, "null")) {
		gs_buf_puts(why, "the space names no baseline");
		return "none";
	}
	if (sqlite3_prepare_v2(q->db, "SELECT count(*) FROM config WHERE sweep_id = ?1", -1, &s,
			       NULL) == SQLITE_OK) {
		sqlite3_bind_int64(s, 1, sw->id);
		if (sqlite3_step(s) == SQLITE_ROW)
			configs = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	if (named)
		gs_qfmt_params(why, named);
	if (named && sn > 1) {
		gs_buf_printf(why, " is not in this shard (shard %lld/%lld); merge the shards to"
				   " compare with it", si, sn);
		return "other_shard";
	}
	if (!configs) {
		gs_buf_printf(why, "%sthe sweep's configurations are not stored yet",
			      named ? ": " : "");
		return "not_stored";
	}
	if (named) {
		gs_buf_printf(why, " is not among the sweep's %lld valid configurations:"
				   " a constraint rejects it", configs);
		return "invalid";
	}
	/* a store from before schema 7 did not record the space's baseline */
	if (sn > 1)
		gs_buf_printf(why, "none in this shard (shard %lld/%lld): the space names none, or"
				   " another shard has it", si, sn);
	else
		gs_buf_puts(why, "none among the sweep's configurations: the space names none, or a"
				 " constraint rejects it");
	return "unknown";
}

void gs_qsweep_release(struct gs_qsweep *sw)
{
	free(sw->shard);
	free(sw->baseline_json);
	free(sw->source_format);
	free(sw->source_path);
	free(sw->modeled_at);
	free(sw->space);
	free(sw->space_path);
	free(sw->device);
	free(sw->problem);
	free(sw->status);
	free(sw->created_at);
	free(sw->started_at);
	free(sw->finished_at);
	free(sw->host);
	free(sw->version);
	for (size_t i = 0; i < sw->nparams; i++)
		free(sw->params[i]);
	free(sw->params);
	for (size_t i = 0; i < sw->nfields; i++) {
		free(sw->fields[i].name);
		free(sw->fields[i].path);
	}
	free(sw->fields);
	gs_arena_release(&sw->arena);
	memset(sw, 0, sizeof(*sw));
}

int gs_qsweep_field(const struct gs_qsweep *sw, const char *name)
{
	int i = field_index(sw, name);
	if (i >= 0)
		return i;
	for (size_t k = 0; k < GS_ARRAY_SIZE(aliases); k++)
		if (!strcmp(aliases[k].alias, name))
			return field_index(sw, aliases[k].name);
	return -1;
}

int gs_qsweep_param(const struct gs_qsweep *sw, const char *name)
{
	for (size_t i = 0; i < sw->nparams; i++)
		if (!strcmp(sw->params[i], name))
			return (int)i;
	return -1;
}

static const char **field_names(const struct gs_qsweep *sw)
{
	const char **names = gs_xcalloc(sw->nfields + GS_ARRAY_SIZE(aliases), sizeof(*names));
	for (size_t i = 0; i < sw->nfields; i++)
		names[i] = sw->fields[i].name;
	for (size_t k = 0; k < GS_ARRAY_SIZE(aliases); k++)
		names[sw->nfields + k] = aliases[k].alias;
	return names;
}

int gs_qsweep_field_or_report(const struct gs_qsweep *sw, const char *name, const char *what)
{
	int i = gs_qsweep_field(sw, name);
	if (i >= 0)
		return i;
	struct gs_diag d = GS_DIAG_INIT;
	const char **names = field_names(sw);
	gs_diag_error(&d, GS_NOLOC, "%s: unknown field '%s'", what, name);
	gs_diag_suggest(&d, GS_NOLOC, name, names, sw->nfields + GS_ARRAY_SIZE(aliases));
	/* the fields particular to this sweep; `help query` lists the others */
	struct gs_buf b = GS_BUF_INIT;
	size_t ncounters = 0;
	for (size_t k = 0; k < sw->nfields; k++) {
		if (sw->fields[k].kind == GS_QK_PARAM || sw->fields[k].kind == GS_QK_METRIC)
			gs_buf_printf(&b, "%s%s", b.len ? ", " : "", sw->fields[k].name);
		ncounters += sw->fields[k].kind == GS_QK_COUNTER;
	}
	if (ncounters)
		gs_buf_printf(&b, " and %zu counters", ncounters);
	gs_diag_note(&d, GS_NOLOC, "sweep %lld's own fields: %s; `gsearch help query` lists the "
		     "others", (long long)sw->id, gs_buf_str(&b));
	gs_diag_print(&d, stderr);
	gs_diag_release(&d);
	gs_buf_release(&b);
	free(names);
	return -1;
}

/* ---- the filter ---------------------------------------------------------- */

static int resolve(void *ctx, const char *name, struct gs_loc loc, unsigned *type)
{
	(void)loc;
	const struct gs_qsweep *sw = ctx;
	int i = gs_qsweep_field(sw, name);
	if (i < 0)
		return -1;
	*type = sw->fields[i].type;
	return i;
}

int gs_qfilter_init(struct gs_qfilter *f, const struct gs_qsweep *sw, const char *text)
{
	memset(f, 0, sizeof(*f));
	if (!text)
		return 0;
	struct gs_diag d = GS_DIAG_INIT;
	struct gs_arena a = GS_ARENA_INIT;
	f->src = gs_source_new("--where", text, strlen(text));
	const char **names = field_names(sw);
	struct gs_expr *e = gs_parse_expr_range(&a, f->src, 0, f->src->len, &d);
	if (e) {
		struct gs_scope sc = { resolve, (void *)sw, names,
				       sw->nfields + GS_ARRAY_SIZE(aliases) };
		f->code = gs_expr_compile(e, &sc, &d);
	}
	if (!d.errors && !f->code)
		gs_diag_error(&d, GS_NOLOC, "--where: not an expression");
	gs_diag_print(&d, stderr);
	int bad = d.errors != 0;
	gs_diag_release(&d);
	gs_arena_release(&a);
	free(names);
	if (bad) {
		gs_qfilter_release(f);
		return -1;
	}
	gs_vm_init(&f->vm);
	return 0;
}

void gs_qfilter_release(struct gs_qfilter *f)
{
	if (f->code) {
		gs_code_free(f->code);
		gs_vm_release(&f->vm);
	}
	gs_source_free(f->src);
	memset(f, 0, sizeof(*f));
}

/* 1 passes, 0 does not, -1 an evaluation error (printed). */
static int filter_row(struct gs_qfilter *f, const struct gs_value *env, int64_t idx)
{
	if (!f || !f->code)
		return 1;
	for (size_t i = 0; i < f->code->nglobals; i++)
		if (env[f->code->globals[i]].t == GS_V_NONE) {
			f->skipped++;
			return 0;
		}
	struct gs_value v;
	gs_vm_reset(&f->vm);
	if (gs_vm_eval(&f->vm, f->code, env, &v) < 0) {
		struct gs_diag d = GS_DIAG_INIT;
		gs_diag_error(&d, f->vm.err_loc, "%s", f->vm.err);
		gs_diag_note(&d, GS_NOLOC, "while filtering configuration %lld", (long long)idx);
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		return -1;
	}
	return gs_value_truthy(v);
}

/* ---- rows ----------------------------------------------------------------- */

struct intern {
	struct gs_value *slots; /* open addressing; NONE: empty */
	size_t cap, n;
	struct gs_arena arena;
};

static uint64_t str_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static struct gs_value intern(struct intern *t, const char *s, size_t n)
{
	if (2 * (t->n + 1) > t->cap) {
		size_t ncap = t->cap ? 2 * t->cap : 64;
		struct gs_value *ns = gs_xcalloc(ncap, sizeof(*ns));
		for (size_t i = 0; i < t->cap; i++) {
			if (t->slots[i].t == GS_V_NONE)
				continue;
			size_t k = str_hash(t->slots[i].s->s, t->slots[i].s->len) & (ncap - 1);
			while (ns[k].t != GS_V_NONE)
				k = (k + 1) & (ncap - 1);
			ns[k] = t->slots[i];
		}
		free(t->slots);
		t->slots = ns;
		t->cap = ncap;
	}
	size_t k = str_hash(s, n) & (t->cap - 1);
	while (t->slots[k].t != GS_V_NONE) {
		struct gs_str *e = t->slots[k].s;
		if (e->len == n && !memcmp(e->s, s, n))
			return t->slots[k];
		k = (k + 1) & (t->cap - 1);
	}
	t->slots[k] = gs_str_new(&t->arena, s, n);
	t->n++;
	return t->slots[k];
}

/* The JSON columns whose fields are read in C: one scan a row for all of
 * a column's fields is much cheaper than a json_extract call per field,
 * each of which parses the whole document. */
enum { DOC_PARAMS, DOC_METRICS, DOC_COUNTERS, NDOCS };
static const char *const doc_sql[NDOCS] = { "c.params", "r.metrics", "r.counters" };

struct gs_qrows {
	sqlite3_stmt *st;
	struct gs_qsweep *sw;
	struct gs_qfilter *f;
	int *cols; /* the fields read */
	int *sqlcol; /* the result column of each, or -1: read from a document */
	size_t ncols;
	struct gs_jrow *docs[NDOCS];
	int doccol[NDOCS];
	int params;
	struct gs_value *env;
	struct intern strs;
	int64_t idx;
	const char *status, *params_json;
	const char *path;
};

static struct gs_value intern_str(void *ctx, const char *s, size_t n)
{
	return intern(ctx, s, n);
}

static int doc_of(enum gs_qkind kind)
{
	return kind == GS_QK_PARAM ? DOC_PARAMS : kind == GS_QK_METRIC ? DOC_METRICS : DOC_COUNTERS;
}

static void add_col(struct gs_qrows *r, int field)
{
	for (size_t i = 0; i < r->ncols; i++)
		if (r->cols[i] == field)
			return;
	r->cols[r->ncols++] = field;
}

/* The SQL expression of a field; JSON paths become bound parameters. */
static void field_sql(struct gs_buf *sql, const struct gs_qfield *f, int ok_only, int bindno)
{
	switch (f->kind) {
	case GS_QK_COL:
		gs_buf_puts(sql, f->sql ? f->sql : ok_only ? "r.idx" : "c.idx");
		break;
	case GS_QK_PARAM:
		gs_buf_printf(sql, "json_extract(c.params, ?%d)", bindno);
		break;
	case GS_QK_METRIC:
		gs_buf_printf(sql, "json_extract(r.metrics, ?%d)", bindno);
		break;
	case GS_QK_COUNTER:
		gs_buf_printf(sql, "json_extract(r.counters, ?%d)", bindno);
		break;
	}
}

int gs_qrows_open(struct gs_qrows **out, struct gs_query *q, struct gs_qsweep *sw,
		  struct gs_qfilter *f, const struct gs_qspec *spec)
{
	struct gs_qrows *r = gs_xcalloc(1, sizeof(*r));
	*out = r;
	r->sw = sw;
	r->f = f;
	r->params = spec->params;
	r->path = q->path;
	r->cols = gs_xcalloc(sw->nfields + 1, sizeof(*r->cols));
	r->sqlcol = gs_xcalloc(sw->nfields + 1, sizeof(*r->sqlcol));
	r->env = gs_xcalloc(sw->nfields, sizeof(*r->env));
	for (size_t i = 0; i < spec->nwant; i++)
		add_col(r, spec->want[i]);
	if (f && f->code)
		for (size_t i = 0; i < f->code->nglobals; i++)
			add_col(r, f->code->globals[i]);
	if (spec->order >= 0)
		add_col(r, spec->order);

	int config = spec->params || !spec->ok_only, variant = 0;
	for (size_t i = 0; i < r->ncols; i++) {
		config |= sw->fields[r->cols[i]].needs_config;
		variant |= sw->fields[r->cols[i]].needs_variant;
	}
	const char *drv = spec->ok_only ? "r" : "c";
	struct gs_buf sql = GS_BUF_INIT;
	gs_buf_printf(&sql, "SELECT %s.idx, r.status, %s", drv, r->params ? "c.params" : "NULL");
	int bindno = 3, ncol = 3;
	int *binds = gs_xcalloc(r->ncols + 1, sizeof(*binds));
	for (size_t i = 0; i < r->ncols; i++) {
		const struct gs_qfield *fl = &sw->fields[r->cols[i]];
		if (fl->kind != GS_QK_COL) {
			int d = doc_of(fl->kind);
			if (!r->docs[d])
				r->docs[d] = gs_jrow_new(intern_str, &r->strs);
			int read = gs_jrow_add(r->docs[d], fl->path, r->cols[i]) == 0;
			/* an ORDER BY on the field still needs its SQL */
			if (!read || r->cols[i] == spec->order)
				binds[i] = bindno++;
			if (read) {
				r->sqlcol[i] = -1;
				continue;
			}
		}
		gs_buf_puts(&sql, ", ");
		r->sqlcol[i] = ncol++;
		field_sql(&sql, fl, spec->ok_only, binds[i]);
	}
	for (int d = 0; d < NDOCS; d++) {
		r->doccol[d] = -1;
		if (!r->docs[d] || !gs_jrow_count(r->docs[d]))
			continue;
		if (d == DOC_PARAMS && r->params) {
			r->doccol[d] = 2;
			continue;
		}
		gs_buf_printf(&sql, ", %s", doc_sql[d]);
		r->doccol[d] = ncol++;
	}
	if (spec->ok_only) {
		gs_buf_puts(&sql, " FROM result r");
		if (config)
			gs_buf_puts(&sql, " JOIN config c ON c.sweep_id = r.sweep_id AND c.idx = r.idx");
		if (variant)
			gs_buf_puts(&sql, " LEFT JOIN variant v ON v.hash = r.variant_hash");
		gs_buf_puts(&sql, " WHERE r.sweep_id = ?1 AND r.status = 'ok'");
	} else {
		gs_buf_puts(&sql, " FROM config c LEFT JOIN result r ON r.sweep_id = c.sweep_id AND"
				  " r.idx = c.idx");
		if (variant)
			gs_buf_puts(&sql, " LEFT JOIN variant v ON v.hash = coalesce(r.variant_hash,"
					  " c.variant_hash)");
		gs_buf_puts(&sql, " WHERE c.sweep_id = ?1");
	}
	if (spec->idx >= 0)
		gs_buf_printf(&sql, " AND %s.idx = ?2", drv);
	gs_buf_puts(&sql, " ORDER BY ");
	if (spec->order >= 0) {
		size_t k = 0;
		while (r->cols[k] != spec->order)
			k++;
		field_sql(&sql, &sw->fields[spec->order], spec->ok_only, binds[k]);
		gs_buf_puts(&sql, spec->desc ? " DESC NULLS LAST, " : " NULLS LAST, ");
	}
	/* without an order, the index order: the table is read sequentially */
	gs_buf_printf(&sql, "%s.idx", drv);
	int rc = sqlite3_prepare_v2(q->db, gs_buf_str(&sql), -1, &r->st, NULL);
	gs_buf_release(&sql);
	if (rc != SQLITE_OK) {
		fprintf(stderr, "gsearch: error: cannot read the results of %s: %s%s\n", q->path,
			sqlite3_errmsg(q->db),
			gs_store_damage_hint(sqlite3_extended_errcode(q->db), q->path));
		free(binds);
		return -1;
	}
	sqlite3_bind_int64(r->st, 1, sw->id);
	if (spec->idx >= 0)
		sqlite3_bind_int64(r->st, 2, spec->idx);
	for (size_t i = 0; i < r->ncols; i++)
		if (binds[i])
			sqlite3_bind_text(r->st, binds[i], sw->fields[r->cols[i]].path, -1,
					  SQLITE_STATIC);
	free(binds);
	return 0;
}

static struct gs_value column_value(struct gs_qrows *r, int i)
{
	switch (sqlite3_column_type(r->st, i)) {
	case SQLITE_INTEGER:
		return gs_int(sqlite3_column_int64(r->st, i));
	case SQLITE_FLOAT:
		return gs_float(sqlite3_column_double(r->st, i));
	case SQLITE_TEXT:
		return intern(&r->strs, (const char *)sqlite3_column_text(r->st, i),
			      (size_t)sqlite3_column_bytes(r->st, i));
	default:
		return gs_none();
	}
}

int gs_qrows_next(struct gs_qrows *r)
{
	for (;;) {
		int rc = sqlite3_step(r->st);
		if (rc == SQLITE_DONE)
			return 0;
		if (rc != SQLITE_ROW) {
			fprintf(stderr, "gsearch: error: cannot read the results of %s: %s%s\n", r->path,
				sqlite3_errmsg(sqlite3_db_handle(r->st)),
			gs_store_damage_hint(sqlite3_extended_errcode(sqlite3_db_handle(r->st)), r->path));
			return -1;
		}
		r->idx = sqlite3_column_int64(r->st, 0);
		r->status = (const char *)sqlite3_column_text(r->st, 1);
		r->params_json = (const char *)sqlite3_column_text(r->st, 2);
		for (size_t i = 0; i < r->ncols; i++)
			if (r->sqlcol[i] >= 0)
				r->env[r->cols[i]] = column_value(r, r->sqlcol[i]);
		for (int d = 0; d < NDOCS; d++)
			if (r->doccol[d] >= 0 &&
			    gs_jrow_scan(r->docs[d],
					 (const char *)sqlite3_column_text(r->st, r->doccol[d]),
					 r->env) < 0) {
				/* what json_extract said of it */
				fprintf(stderr, "gsearch: error: cannot read the results of %s:"
						" malformed JSON\n", r->path);
				return -1;
			}
		int pass = filter_row(r->f, r->env, r->idx);
		if (pass)
			return pass;
	}
}

const struct gs_value *gs_qrows_env(const struct gs_qrows *r)
{
	return r->env;
}

int64_t gs_qrows_idx(const struct gs_qrows *r)
{
	return r->idx;
}

const char *gs_qrows_status(const struct gs_qrows *r)
{
	return r->status;
}

const char *gs_qrows_params(const struct gs_qrows *r)
{
	return r->params_json;
}

void gs_qrows_close(struct gs_qrows *r)
{
	if (!r)
		return;
	sqlite3_finalize(r->st);
	for (int d = 0; d < NDOCS; d++)
		gs_jrow_free(r->docs[d]);
	free(r->cols);
	free(r->sqlcol);
	free(r->env);
	free(r->strs.slots);
	gs_arena_release(&r->strs.arena);
	free(r);
}

double gs_qnum(struct gs_value v, int *ok)
{
	*ok = 1;
	switch (v.t) {
	case GS_V_BOOL:
	case GS_V_INT:
		return (double)v.i;
	case GS_V_FLOAT:
		return v.f;
	default:
		*ok = 0;
		return 0;
	}
}

int gs_qcount_better(struct gs_query *q, struct gs_qsweep *sw, struct gs_qfilter *f, int by,
		     int desc, double x, int64_t *better, int64_t *total)
{
	*better = *total = 0;
	if ((!f || !f->code) && !strcmp(sw->fields[by].name, "time_ms")) {
		/* the common case, answered from the index on (sweep, status, time) */
		sqlite3_stmt *s;
		if (sqlite3_prepare_v2(q->db, desc ? "SELECT count(*), sum(time_ms > ?2) FROM result"
						     " WHERE sweep_id = ?1 AND status = 'ok' AND"
						     " time_ms IS NOT NULL"
						   : "SELECT count(*), sum(time_ms < ?2) FROM result"
						     " WHERE sweep_id = ?1 AND status = 'ok' AND"
						     " time_ms IS NOT NULL",
				       -1, &s, NULL)) {
			fprintf(stderr, "gsearch: error: cannot read the results of %s: %s%s\n",
				q->path, sqlite3_errmsg(q->db),
			gs_store_damage_hint(sqlite3_extended_errcode(q->db), q->path));
			return -1;
		}
		sqlite3_bind_int64(s, 1, sw->id);
		sqlite3_bind_double(s, 2, x);
		if (sqlite3_step(s) == SQLITE_ROW) {
			*total = sqlite3_column_int64(s, 0);
			*better = sqlite3_column_int64(s, 1);
		}
		sqlite3_finalize(s);
		return 0;
	}
	struct gs_qspec spec = { .ok_only = 1, .order = -1, .want = &by, .nwant = 1, .idx = -1 };
	struct gs_qrows *r;
	int rc = gs_qrows_open(&r, q, sw, f, &spec);
	while (rc == 0 && (rc = gs_qrows_next(r)) > 0) {
		int ok;
		double v = gs_qnum(gs_qrows_env(r)[by], &ok);
		rc = 0;
		if (!ok)
			continue;
		(*total)++;
		*better += desc ? v > x : v < x;
	}
	gs_qrows_close(r);
	return rc < 0 ? -1 : 0;
}
