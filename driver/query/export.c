/* export.c — `query export`: every configuration of a sweep with its outcome
 * and figures, as CSV, JSON or T4.
 *
 * T4 is the auto-tuning community's results format (schema version 1.0.0):
 * {"schema_version", "metadata", "results": [{"timestamp", "configuration",
 * "objectives", "times", "invalidity", "correctness", "measurements":
 * [{name, value, unit}]}]}.  Its times are in seconds (metadata.timeunit
 * says so, as the readers of the format expect); `times` has the names
 * Kernel Tuner and the methodology package read (compilation, runtimes,
 * benchmark, validation, framework, search_algorithm), the schema's
 * compilation_time beside them, and runtimes always, empty when the
 * individual runs are not known (gsearch keeps their median and spread,
 * not each run).  Rows are streamed, so a million configurations never sit
 * in memory. */
#include "query/query.h"

#include <jansson.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* The T4 "invalidity" of each outcome; NULL: left out (nothing measured). */
static const char *const t4_invalidity[][2] = {
	{ "ok", "correct" },        { "wrong", "correctness" },  { "compile_error", "compile" },
	{ "launch_error", "runtime" }, { "crash", "runtime" },   { "timeout", "timeout" },
	{ "invalid", "constraints" },
};

/* T4 measurement names of the figures, with their units and the factor
 * that takes the field's unit to it (times: ms to s). */
static const struct {
	const char *field, *name, *unit;
	double scale;
} t4_measures[] = {
	{ "time_ms", "time", "s", 1e-3 },       { "min_ms", "time_min", "s", 1e-3 },
	{ "iqr_ms", "time_iqr", "s", 1e-3 },    { "reps", "repetitions", "", 0 },
	{ "energy_j", "energy", "J", 0 },       { "power_w", "power", "W", 0 },
	{ "sm_clock_mhz", "sm_clock", "MHz", 0 }, { "temp_c", "temperature", "C", 0 },
	{ "registers", "registers", "", 0 },    { "static_smem", "static_smem", "B", 0 },
	{ "local_bytes", "local_bytes", "B", 0 }, { "blocks_per_sm", "blocks_per_sm", "", 0 },
	{ "occupancy", "occupancy", "", 0 },    { "max_abs_err", "max_abs_err", "", 0 },
	{ "max_rel_err", "max_rel_err", "", 0 },
};

/* An imported result's own times (Kernel Tuner's names, ms) and the T4
 * names they take. */
static const char *const t4_src_times[][2] = {
	{ "compile_time", "compilation" },   { "benchmark_time", "benchmark" },
	{ "verification_time", "validation" }, { "framework_time", "framework" },
	{ "strategy_time", "search_algorithm" },
};

static const char *invalidity(const char *status)
{
	for (size_t i = 0; status && i < GS_ARRAY_SIZE(t4_invalidity); i++)
		if (!strcmp(t4_invalidity[i][0], status))
			return t4_invalidity[i][1];
	return NULL;
}

static json_t *t4_row(const struct gs_qsweep *sw, struct gs_qrows *r, json_t *src)
{
	const struct gs_value *env = gs_qrows_env(r);
	const char *st = gs_qrows_status(r);
	json_t *o = json_object(), *times = json_object(), *ms = json_array(), *runs = json_array();
	struct gs_value ts = env[gs_qsweep_field(sw, "measured_at")];
	json_object_set_new(o, "timestamp", gs_qjson_value(ts));
	json_object_set_new(o, "configuration", gs_qjson_params(gs_qrows_params(r)));
	json_object_set_new(o, "objectives", json_pack("[s]", "time"));
	int ok;
	double cs = gs_qnum(env[gs_qsweep_field(sw, "compile_s")], &ok);
	if (ok) {
		json_object_set_new(times, "compilation", json_real(cs));
		json_object_set_new(times, "compilation_time", json_real(cs));
	}
	double timed = gs_qnum(env[gs_qsweep_field(sw, "timed_ms")], &ok);
	if (ok)
		json_object_set_new(times, "benchmark", json_real(timed / 1000));
	for (size_t i = 0; i < GS_ARRAY_SIZE(t4_src_times); i++) {
		json_t *v = json_object_get(src, t4_src_times[i][0]);
		if (!json_is_number(v))
			continue;
		json_object_set_new(times, t4_src_times[i][1], json_real(json_number_value(v) / 1000));
		if (!i)
			json_object_set_new(times, "compilation_time",
					    json_real(json_number_value(v) / 1000));
	}
	size_t k;
	json_t *v;
	json_array_foreach(json_object_get(src, "times"), k, v)
		if (json_is_number(v))
			json_array_append_new(runs, json_real(json_number_value(v) / 1000));
	json_object_set_new(times, "runtimes", runs);
	json_object_set_new(o, "times", times);
	json_object_set_new(o, "invalidity", json_string(invalidity(st)));
	json_object_set_new(o, "correctness", json_integer(!strcmp(st, "ok")));
	for (size_t i = 0; i < GS_ARRAY_SIZE(t4_measures); i++) {
		struct gs_value x = env[gs_qsweep_field(sw, t4_measures[i].field)];
		if (x.t == GS_V_NONE)
			continue;
		json_t *val = t4_measures[i].scale ? json_real(gs_qnum(x, &ok) * t4_measures[i].scale)
						   : gs_qjson_value(x);
		json_array_append_new(ms, json_pack("{s:s, s:o, s:s}", "name", t4_measures[i].name,
						    "value", val, "unit", t4_measures[i].unit));
	}
	for (size_t i = 0; i < sw->nfields; i++)
		if ((sw->fields[i].kind == GS_QK_METRIC || sw->fields[i].kind == GS_QK_COUNTER) &&
		    env[i].t != GS_V_NONE)
			json_array_append_new(ms, json_pack("{s:s, s:o, s:s}", "name", sw->fields[i].name,
							    "value", gs_qjson_value(env[i]), "unit",
							    ""));
	if (sw->modeled)
		json_array_append_new(ms, json_pack("{s:s, s:i, s:s}", "name", "time_modeled", "value",
						    1, "unit", ""));
	json_object_set_new(o, "measurements", ms);
	return o;
}

/* Who wrote the file and what it holds: the tool, the device, when, the
 * space with its parameters and problem, and the file an imported sweep
 * came from. */
static json_t *t4_metadata(const struct gs_qsweep *sw)
{
	json_t *m = json_object(), *params = json_array();
	for (size_t i = 0; i < sw->nparams; i++) {
		json_t *vals = json_array();
		const struct gs_value *l = &sw->domains[i];
		for (size_t j = 0; l->t == GS_V_LIST && j < l->l->n; j++)
			json_array_append_new(vals, gs_qjson_value(l->l->v[j]));
		json_array_append_new(params, json_pack("{s:s, s:o}", "name", sw->params[i], "values",
							vals));
	}
	json_t *problem = sw->problem ? json_loads(sw->problem, 0, NULL) : NULL;
	json_t *baseline = sw->baseline_json ? json_loads(sw->baseline_json, JSON_DECODE_ANY, NULL)
					     : NULL;
	const char *when = sw->started_at ? sw->started_at : sw->created_at;
	json_object_set_new(m, "timeunit", json_string("seconds"));
	json_object_set_new(m, "tool", json_pack("{s:s, s:s?}", "name", "gsearch", "version",
						 sw->version));
	json_object_set_new(m, "device", sw->device ? json_string(sw->device) : json_null());
	json_object_set_new(m, "modeled", json_boolean(sw->modeled));
	json_object_set_new(m, "timestamp", when ? json_string(when) : json_null());
	json_object_set_new(m, "sweep", json_integer(sw->id));
	json_object_set_new(m, "space", json_pack("{s:s, s:s?, s:o, s:o, s:o}", "name", sw->space,
						  "path", sw->space_path, "problem",
						  problem ? problem : json_object(), "parameters",
						  params, "baseline",
						  baseline ? baseline : json_null()));
	if (sw->source_path)
		json_object_set_new(m, "source", json_pack("{s:s?, s:s}", "format", sw->source_format,
							   "path", sw->source_path));
	return m;
}

static json_t *json_row(const struct gs_qsweep *sw, struct gs_qrows *r)
{
	const struct gs_value *env = gs_qrows_env(r);
	json_t *o = json_object();
	json_object_set_new(o, "idx", json_integer(gs_qrows_idx(r)));
	json_object_set_new(o, "baseline", json_boolean(gs_qrows_idx(r) == sw->baseline));
	json_object_set_new(o, "params", gs_qjson_params(gs_qrows_params(r)));
	json_object_set_new(o, "status",
			    gs_qrows_status(r) ? json_string(gs_qrows_status(r)) : json_null());
	gs_qjson_row_fields(o, sw, env);
	return o;
}

/* CSV columns: idx, the parameters, baseline, status, then every other field. */
static int csv_skip(const struct gs_qfield *f)
{
	return f->kind == GS_QK_PARAM || !strcmp(f->name, "idx") || !strcmp(f->name, "baseline") ||
	       !strcmp(f->name, "status");
}

/* Rows go into one buffer, written in large pieces: formatting a field
 * straight to the stream costs a locked stdio call per character run. */
static void csv_row(FILE *out, const struct gs_qsweep *sw, struct gs_qrows *r,
		    const size_t *params, const size_t *cols, size_t ncols, struct gs_buf *b)
{
	const struct gs_value *env = gs_qrows_env(r);
	gs_buf_put_int(b, gs_qrows_idx(r));
	for (size_t i = 0; i < sw->nparams; i++) {
		gs_buf_putc(b, ',');
		size_t from = b->len;
		gs_qfmt_exact(b, env[params[i]]);
		if (env[params[i]].t == GS_V_STR)
			gs_buf_csv_quote(b, from);
	}
	gs_buf_puts(b, gs_qrows_idx(r) == sw->baseline ? ",1," : ",0,");
	if (gs_qrows_status(r))
		gs_buf_puts(b, gs_qrows_status(r));
	for (size_t i = 0; i < ncols; i++) {
		gs_buf_putc(b, ',');
		size_t from = b->len;
		gs_qfmt_exact(b, env[cols[i]]);
		/* only a string can hold a comma, quote or line break */
		if (env[cols[i]].t == GS_V_STR)
			gs_buf_csv_quote(b, from);
	}
	gs_buf_putc(b, '\n');
	if (b->len >= 1 << 16) {
		fwrite(b->p, 1, b->len, out);
		gs_buf_reset(b);
	}
}

int gs_qexport_begin(struct gs_query *q, struct gs_qsweep *sw, struct gs_qfilter *f, int **want)
{
	if (gs_qsweep_load(q, q->sweep, sw) < 0)
		return 1;
	if (gs_qfilter_init(f, sw, q->where) < 0) {
		gs_qsweep_release(sw);
		return 1;
	}
	*want = gs_xcalloc(sw->nfields + 1, sizeof(**want));
	for (size_t i = 0; i < sw->nfields; i++)
		(*want)[i] = (int)i;
	return 0;
}

sqlite3_stmt *gs_qsource_prepare(struct gs_query *q)
{
	sqlite3_stmt *se = NULL;
	if (q->schema >= 8 &&
	    sqlite3_prepare_v2(q->db, "SELECT source_entry FROM result WHERE sweep_id = ?1 AND"
				      " idx = ?2", -1, &se, NULL)) {
		fprintf(stderr, "gsearch: error: cannot read %s: %s\n", q->path, sqlite3_errmsg(q->db));
		se = NULL;
	}
	return se;
}

json_t *gs_qsource_entry(sqlite3_stmt *se, int64_t sweep, int64_t idx)
{
	if (!se)
		return NULL;
	sqlite3_reset(se);
	sqlite3_bind_int64(se, 1, sweep);
	sqlite3_bind_int64(se, 2, idx);
	if (sqlite3_step(se) == SQLITE_ROW && sqlite3_column_text(se, 0))
		return json_loads((const char *)sqlite3_column_text(se, 0), 0, NULL);
	return NULL;
}

int gs_query_export(struct gs_query *q, enum gs_qexport how)
{
	struct gs_qsweep sw;
	struct gs_qfilter f;
	int *want;
	if (gs_qexport_begin(q, &sw, &f, &want))
		return 1;
	struct gs_qspec spec = { .order = -1, .want = want, .nwant = sw.nfields, .idx = -1,
				 .params = 1 };
	struct gs_qrows *r;
	int rc = gs_qrows_open(&r, q, &sw, &f, &spec);
	/* an imported result's own times, which have no column */
	sqlite3_stmt *se = how == GS_QX_T4 ? gs_qsource_prepare(q) : NULL;
	FILE *out = q->out;
	struct gs_buf b = GS_BUF_INIT;
	int64_t n = 0, left = 0;
	size_t *cols = gs_xcalloc(sw.nfields + 1, sizeof(*cols)), ncols = 0;
	for (size_t i = 0; i < sw.nfields; i++)
		if (!csv_skip(&sw.fields[i]))
			cols[ncols++] = i;
	size_t *params = gs_xcalloc(sw.nparams + 1, sizeof(*params));
	for (size_t i = 0; i < sw.nparams; i++)
		params[i] = (size_t)gs_qsweep_field(&sw, sw.params[i]);
	if (rc == 0) {
		if (how == GS_QX_CSV) {
			fputs("idx", out);
			for (size_t i = 0; i < sw.nparams; i++) {
				fputc(',', out);
				gs_qcsv_field(out, sw.params[i]);
			}
			fputs(",baseline,status", out);
			for (size_t i = 0; i < sw.nfields; i++)
				if (!csv_skip(&sw.fields[i])) {
					fputc(',', out);
					gs_qcsv_field(out, sw.fields[i].name);
				}
			fputc('\n', out);
		} else if (how == GS_QX_JSON) {
			json_t *h = json_object();
			json_object_set_new(h, "sweep", json_integer(sw.id));
			json_object_set_new(h, "space", json_string(sw.space));
			json_object_set_new(h, "device", sw.device ? json_string(sw.device) : json_null());
			json_object_set_new(h, "modeled", json_boolean(sw.modeled));
			json_object_set_new(h, "problem", gs_qjson_params(sw.problem));
			char *s = json_dumps(h, JSON_COMPACT | JSON_PRESERVE_ORDER);
			/* the header object, left open for the configurations */
			fprintf(out, "%.*s,\"configurations\":[", (int)strlen(s) - 1, s);
			free(s);
			json_decref(h);
		} else {
			json_t *m = t4_metadata(&sw);
			char *s = json_dumps(m, JSON_COMPACT | JSON_PRESERVE_ORDER |
							JSON_REAL_PRECISION(17));
			fprintf(out, "{\"schema_version\":\"1.0.0\",\"metadata\":%s,\"results\":[", s);
			free(s);
			json_decref(m);
		}
	}
	while (rc == 0 && (rc = gs_qrows_next(r)) > 0) {
		rc = 0;
		if (how == GS_QX_CSV) {
			csv_row(out, &sw, r, params, cols, ncols, &b);
			n++;
			continue;
		}
		if (how == GS_QX_T4 && !invalidity(gs_qrows_status(r))) {
			left++;
			continue;
		}
		json_t *src = gs_qsource_entry(se, sw.id, gs_qrows_idx(r));
		json_t *o = how == GS_QX_T4 ? t4_row(&sw, r, src) : json_row(&sw, r);
		json_decref(src);
		char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
		fprintf(out, "%s\n%s", n ? "," : "", s);
		free(s);
		json_decref(o);
		n++;
	}
	gs_qrows_close(r);
	if (se)
		sqlite3_finalize(se);
	if (how == GS_QX_CSV && b.len)
		fwrite(b.p, 1, b.len, out);
	gs_buf_release(&b);
	free(cols);
	free(params);
	if (rc == 0 && how != GS_QX_CSV)
		fputs("\n]}\n", out);
	if (rc == 0 && left)
		fprintf(stderr, "gsearch: note: %lld configurations without a measured outcome (not "
				"run, or skipped) are not in the T4 results\n", (long long)left);
	free(want);
	gs_qfilter_release(&f);
	gs_qsweep_release(&sw);
	return rc < 0;
}
