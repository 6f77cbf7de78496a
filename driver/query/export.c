/* export.c — `query export`: every configuration of a sweep with its outcome
 * and figures, as CSV, JSON or T4.
 *
 * T4 is the auto-tuning community's results format (schema version 1.0.0):
 * {"schema_version", "results": [{"timestamp", "configuration", "objectives",
 * "times", "invalidity", "correctness", "measurements": [{name, value,
 * unit}]}]}.  Rows are streamed, so a million configurations never sit in
 * memory. */
#include "query/query.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The T4 "invalidity" of each outcome; NULL: left out (nothing measured). */
static const char *const t4_invalidity[][2] = {
	{ "ok", "correct" },        { "wrong", "correctness" },  { "compile_error", "compile" },
	{ "launch_error", "runtime" }, { "crash", "runtime" },   { "timeout", "timeout" },
	{ "invalid", "constraints" },
};

/* T4 measurement names of the figures, with their units. */
static const char *const t4_measures[][3] = {
	{ "time_ms", "time", "ms" },          { "min_ms", "time_min", "ms" },
	{ "iqr_ms", "time_iqr", "ms" },       { "reps", "repetitions", "" },
	{ "energy_j", "energy", "J" },        { "power_w", "power", "W" },
	{ "sm_clock_mhz", "sm_clock", "MHz" }, { "temp_c", "temperature", "C" },
	{ "registers", "registers", "" },     { "static_smem", "static_smem", "B" },
	{ "local_bytes", "local_bytes", "B" }, { "blocks_per_sm", "blocks_per_sm", "" },
	{ "occupancy", "occupancy", "" },     { "max_abs_err", "max_abs_err", "" },
	{ "max_rel_err", "max_rel_err", "" },
};

static const char *invalidity(const char *status)
{
	for (size_t i = 0; status && i < GS_ARRAY_SIZE(t4_invalidity); i++)
		if (!strcmp(t4_invalidity[i][0], status))
			return t4_invalidity[i][1];
	return NULL;
}

static json_t *t4_row(const struct gs_qsweep *sw, struct gs_qrows *r)
{
	const struct gs_value *env = gs_qrows_env(r);
	const char *st = gs_qrows_status(r);
	json_t *o = json_object(), *times = json_object(), *ms = json_array();
	struct gs_value ts = env[gs_qsweep_field(sw, "measured_at")];
	json_object_set_new(o, "timestamp", gs_qjson_value(ts));
	json_object_set_new(o, "configuration", gs_qjson_params(gs_qrows_params(r)));
	json_object_set_new(o, "objectives", json_pack("[s]", "time"));
	int ok;
	double cs = gs_qnum(env[gs_qsweep_field(sw, "compile_s")], &ok);
	if (ok)
		json_object_set_new(times, "compilation_time", json_real(cs * 1000));
	json_object_set_new(o, "times", times);
	json_object_set_new(o, "invalidity", json_string(invalidity(st)));
	json_object_set_new(o, "correctness", json_integer(!strcmp(st, "ok")));
	for (size_t i = 0; i < GS_ARRAY_SIZE(t4_measures); i++) {
		struct gs_value v = env[gs_qsweep_field(sw, t4_measures[i][0])];
		if (v.t == GS_V_NONE)
			continue;
		json_array_append_new(ms, json_pack("{s:s, s:o, s:s}", "name", t4_measures[i][1],
						    "value", gs_qjson_value(v), "unit",
						    t4_measures[i][2]));
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

static json_t *json_row(const struct gs_qsweep *sw, struct gs_qrows *r)
{
	const struct gs_value *env = gs_qrows_env(r);
	json_t *o = json_object(), *m = json_object(), *c = json_object();
	json_object_set_new(o, "idx", json_integer(gs_qrows_idx(r)));
	json_object_set_new(o, "baseline", json_boolean(gs_qrows_idx(r) == sw->baseline));
	json_object_set_new(o, "params", gs_qjson_params(gs_qrows_params(r)));
	json_object_set_new(o, "status",
			    gs_qrows_status(r) ? json_string(gs_qrows_status(r)) : json_null());
	for (size_t i = 0; i < sw->nfields; i++) {
		const struct gs_qfield *f = &sw->fields[i];
		if (f->kind == GS_QK_COL && strcmp(f->name, "idx") && strcmp(f->name, "baseline") &&
		    strcmp(f->name, "status"))
			json_object_set_new(o, f->name, gs_qjson_value(env[i]));
		else if (f->kind == GS_QK_METRIC)
			json_object_set_new(m, f->name, gs_qjson_value(env[i]));
		else if (f->kind == GS_QK_COUNTER)
			json_object_set_new(c, f->name, gs_qjson_value(env[i]));
	}
	json_object_set_new(o, "metrics", m);
	json_object_set_new(o, "counters", c);
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
		    const size_t *cols, size_t ncols, struct gs_buf *b)
{
	const struct gs_value *env = gs_qrows_env(r);
	gs_buf_put_int(b, gs_qrows_idx(r));
	for (size_t i = 0; i < sw->nparams; i++) {
		gs_buf_putc(b, ',');
		size_t from = b->len;
		gs_qfmt_exact(b, env[gs_qsweep_field(sw, sw->params[i])]);
		gs_buf_csv_quote(b, from);
	}
	gs_buf_puts(b, gs_qrows_idx(r) == sw->baseline ? ",1," : ",0,");
	if (gs_qrows_status(r))
		gs_buf_puts(b, gs_qrows_status(r));
	for (size_t i = 0; i < ncols; i++) {
		gs_buf_putc(b, ',');
		size_t from = b->len;
		gs_qfmt_exact(b, env[cols[i]]);
		gs_buf_csv_quote(b, from);
	}
	gs_buf_putc(b, '\n');
	if (b->len >= 1 << 16) {
		fwrite(b->p, 1, b->len, out);
		gs_buf_reset(b);
	}
}

int gs_query_export(struct gs_query *q, enum gs_qexport how)
{
	struct gs_qsweep sw;
	struct gs_qfilter f;
	if (gs_qsweep_load(q, q->sweep, &sw) < 0)
		return 1;
	if (gs_qfilter_init(&f, &sw, q->where) < 0) {
		gs_qsweep_release(&sw);
		return 1;
	}
	int *want = gs_xcalloc(sw.nfields + 1, sizeof(*want));
	for (size_t i = 0; i < sw.nfields; i++)
		want[i] = (int)i;
	struct gs_qspec spec = { .order = -1, .want = want, .nwant = sw.nfields, .idx = -1,
				 .params = 1 };
	struct gs_qrows *r;
	int rc = gs_qrows_open(&r, q, &sw, &f, &spec);
	FILE *out = q->out;
	struct gs_buf b = GS_BUF_INIT;
	int64_t n = 0, left = 0;
	size_t *cols = gs_xcalloc(sw.nfields + 1, sizeof(*cols)), ncols = 0;
	for (size_t i = 0; i < sw.nfields; i++)
		if (!csv_skip(&sw.fields[i]))
			cols[ncols++] = i;
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
			fputs("{\"schema_version\":\"1.0.0\",\"results\":[", out);
		}
	}
	while (rc == 0 && (rc = gs_qrows_next(r)) > 0) {
		rc = 0;
		if (how == GS_QX_CSV) {
			csv_row(out, &sw, r, cols, ncols, &b);
			n++;
			continue;
		}
		if (how == GS_QX_T4 && !invalidity(gs_qrows_status(r))) {
			left++;
			continue;
		}
		json_t *o = how == GS_QX_T4 ? t4_row(&sw, r) : json_row(&sw, r);
		char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
		fprintf(out, "%s\n%s", n ? "," : "", s);
		free(s);
		json_decref(o);
		n++;
	}
	gs_qrows_close(r);
	if (how == GS_QX_CSV && b.len)
		fwrite(b.p, 1, b.len, out);
	gs_buf_release(&b);
	free(cols);
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
