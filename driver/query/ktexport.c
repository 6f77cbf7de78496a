/* ktexport.c — `query export --kt-cache`: a sweep as a Kernel Tuner cache
 * file, which Kernel Tuner's simulation mode replays and its tools read.
 *
 * The layout is Kernel Tuner's own: the header one member a line, then one
 * entry a line, closed by "}\n}" (what Kernel Tuner checks to tell a
 * finished cache from one still being written).  Times are in ms, as
 * Kernel Tuner keeps them.  An entry of an imported sweep gives back the
 * fields the file had (its `times`, compile and benchmark times,
 * timestamp); one gsearch measured has its compile time and timed kernel
 * work, and no per-run times, which gsearch does not keep.  An outcome
 * that Kernel Tuner's failure name does not say on its own (wrong, crash,
 * timeout) is written beside it as gsearch_status, which the import reads. */
#include "interop/ktcache.h"
#include "query/query.h"

#include <jansson.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

static void put_member(FILE *out, const char *key, json_t *v, int last)
{
	struct gs_buf b = GS_BUF_INIT;
	gs_buf_put_json_str(&b, key);
	char *s = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY |
				       JSON_REAL_PRECISION(17));
	fprintf(out, "%s: %s%s\n", gs_buf_str(&b), s, last ? "" : ",");
	free(s);
	gs_buf_release(&b);
	json_decref(v);
}

/* Kernel Tuner's problem_size: the one an imported file had, else the
 * sweep's integer problem constants in order. */
static json_t *problem_size(const struct gs_qsweep *sw)
{
	json_t *p = sw->problem ? json_loads(sw->problem, 0, NULL) : NULL, *out;
	json_t *ps = json_object_get(p, "problem_size");
	if (ps && json_object_size(p) == 1) {
		out = json_incref(ps);
	} else {
		const char *k;
		json_t *v;
		out = json_array();
		json_object_foreach(p, k, v)
			if (json_is_integer(v))
				json_array_append(out, v);
	}
	json_decref(p);
	return out;
}

/* 1.0.0 keys are non-negative integers joined by commas; 1.1.0 any values. */
static const char *cache_version(const struct gs_qsweep *sw)
{
	for (size_t i = 0; i < sw->nparams; i++) {
		const struct gs_value *l = &sw->domains[i];
		for (size_t j = 0; l->t == GS_V_LIST && j < l->l->n; j++)
			if (l->l->v[j].t != GS_V_INT || l->l->v[j].i < 0)
				return "1.1.0";
	}
	return "1.0.0";
}

static double num(const struct gs_qsweep *sw, const struct gs_value *env, const char *field,
		  int *ok)
{
	int f = gs_qsweep_field(sw, field);
	if (f < 0) {
		*ok = 0;
		return 0;
	}
	return gs_qnum(env[f], ok);
}

/* The entry of one row; NULL when it has no outcome to give (not run). */
static json_t *entry(const struct gs_qsweep *sw, struct gs_qrows *r, json_t *src,
		     struct gs_buf *key)
{
	const struct gs_value *env = gs_qrows_env(r);
	const char *st = gs_qrows_status(r);
	/* skipped and emu_limit: nothing known of the kernel */
	if (!st || !strcmp(st, "skipped") || !strcmp(st, "emu_limit"))
		return NULL;
	json_t *o = json_object();
	gs_buf_reset(key);
	for (size_t i = 0; i < sw->nparams; i++) {
		struct gs_value v = env[gs_qsweep_field(sw, sw->params[i])];
		if (i)
			gs_buf_putc(key, ',');
		gs_value_str(key, v);
		json_object_set_new(o, sw->params[i], gs_qjson_value(v));
	}
	int ok;
	if (!strcmp(st, "ok")) {
		json_object_set_new(o, "time", json_real(num(sw, env, "time_ms", &ok)));
	} else {
		const char *f = gs_kt_failure(st);
		json_object_set_new(o, "time", json_string(f));
		if (strcmp(gs_kt_outcome(f), st))
			json_object_set_new(o, "gsearch_status", json_string(st));
	}
	json_t *times = json_object_get(src, "times");
	if (times)
		json_object_set(o, "times", times);
	double cs = num(sw, env, "compile_s", &ok);
	double own[] = { ok ? cs * 1000 : 0, 0, 0, 0, 0 };
	double timed = num(sw, env, "timed_ms", &ok);
	own[2] = ok ? timed : 0;
	static const char *const tk[] = { "compile_time", "verification_time", "benchmark_time",
					  "strategy_time", "framework_time" };
	for (size_t i = 0; i < GS_ARRAY_SIZE(tk); i++) {
		json_t *v = json_object_get(src, tk[i]);
		json_object_set_new(o, tk[i], json_is_number(v) ? json_incref(v) : json_real(own[i]));
	}
	for (size_t i = 0; i < sw->nfields; i++)
		if (sw->fields[i].kind == GS_QK_METRIC && env[i].t != GS_V_NONE)
			json_object_set_new(o, sw->fields[i].name, gs_qjson_value(env[i]));
	json_t *ts = json_object_get(src, "timestamp");
	json_object_set_new(o, "timestamp",
			    ts ? json_incref(ts)
			       : gs_qjson_value(env[gs_qsweep_field(sw, "measured_at")]));
	/* what else the imported file had, for a faithful round trip */
	const char *k;
	json_t *v;
	json_object_foreach(src, k, v)
		if (!json_object_get(o, k))
			json_object_set(o, k, v);
	return o;
}

int gs_query_export_kt(struct gs_query *q)
{
	struct gs_qsweep sw;
	struct gs_qfilter f;
	int *want;
	if (gs_qexport_begin(q, &sw, &f, &want))
		return 1;
	struct gs_qspec spec = { .order = -1, .want = want, .nwant = sw.nfields, .idx = -1 };
	struct gs_qrows *r;
	sqlite3_stmt *se = gs_qsource_prepare(q);
	int rc = gs_qrows_open(&r, q, &sw, &f, &spec);
	FILE *out = q->out;
	json_t *seen = json_object();
	struct gs_buf key = GS_BUF_INIT;
	int64_t n = 0, left = 0;
	if (rc == 0) {
		json_t *names = json_array(), *domains = json_object();
		for (size_t i = 0; i < sw.nparams; i++) {
			json_array_append_new(names, json_string(sw.params[i]));
			json_t *vals = json_array();
			const struct gs_value *l = &sw.domains[i];
			for (size_t j = 0; l->t == GS_V_LIST && j < l->l->n; j++)
				json_array_append_new(vals, gs_qjson_value(l->l->v[j]));
			json_object_set_new(domains, sw.params[i], vals);
		}
		fputs("{\n", out);
		put_member(out, "schema_version", json_string(cache_version(&sw)), 0);
		put_member(out, "device_name", json_string(sw.device ? sw.device : "unknown"), 0);
		put_member(out, "kernel_name", json_string(sw.space), 0);
		put_member(out, "problem_size", problem_size(&sw), 0);
		put_member(out, "tune_params_keys", names, 0);
		put_member(out, "tune_params", domains, 0);
		put_member(out, "objective", json_string("time"), 0);
		fputs("\"cache\": {", out);
	}
	while (rc == 0 && (rc = gs_qrows_next(r)) > 0) {
		rc = 0;
		json_t *src = gs_qsource_entry(se, sw.id, gs_qrows_idx(r));
		json_t *o = entry(&sw, r, src, &key);
		json_decref(src);
		if (!o) {
			left++;
			continue;
		}
		json_t *dup = json_object_get(seen, gs_buf_str(&key));
		if (dup) {
			fprintf(stderr, "gsearch: error: configurations %lld and %lld have the same Kernel "
					"Tuner key \"%s\"\n", (long long)json_integer_value(dup),
				(long long)gs_qrows_idx(r), gs_buf_str(&key));
			json_decref(o);
			rc = -1;
			break;
		}
		json_object_set_new(seen, gs_buf_str(&key), json_integer(gs_qrows_idx(r)));
		struct gs_buf k = GS_BUF_INIT;
		gs_buf_put_json_str(&k, gs_buf_str(&key));
		char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
		/* ", " and ": " as Python's json module writes them */
		struct gs_buf pretty = GS_BUF_INIT;
		int in_str = 0;
		for (const char *p = s; *p; p++) {
			gs_buf_putc(&pretty, *p);
			if (*p == '"' && (p == s || p[-1] != '\\' || (p - s >= 2 && p[-2] == '\\')))
				in_str = !in_str;
			else if (!in_str && (*p == ',' || *p == ':'))
				gs_buf_putc(&pretty, ' ');
		}
		fprintf(out, "%s\n%s: %s", n ? "," : "", gs_buf_str(&k), gs_buf_str(&pretty));
		gs_buf_release(&pretty);
		gs_buf_release(&k);
		free(s);
		json_decref(o);
		n++;
	}
	gs_qrows_close(r);
	if (rc == 0)
		fputs("}\n}\n", out);
	if (rc == 0 && left)
		fprintf(stderr, "gsearch: note: %lld configurations without a measured outcome (not "
				"run, or skipped) are not in the cache\n", (long long)left);
	if (se)
		sqlite3_finalize(se);
	json_decref(seen);
	gs_buf_release(&key);
	free(want);
	gs_qfilter_release(&f);
	gs_qsweep_release(&sw);
	return rc < 0;
}
