/* show.c — `gsearch show`: one configuration in full.
 *
 * Its parameters, the compiler options of its variant, its resources and
 * occupancy, every figure, metric and counter, what bounds a modeled time
 * and how sure the model is of it, the error if it failed, the compile log
 * and the first lines of its PTX. */
#include "query/query.h"
#include "store/store.h"

#include <jansson.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "dev/emu.h"

/* The figures, in the order shown: field and how it reads. */
static const char *const figs[] = {
	"time_ms",  "min_ms",       "iqr_ms", "reps",        "ci_lo_ms",    "ci_hi_ms",
	"ci_pct",   "runs",         "warmups", "timed_ms",   "energy_j",    "power_w",
	"sm_clock_mhz", "temp_c", "max_abs_err", "max_rel_err",
};

/* "dram-bound, confidence 0.745 (medium)": what bounds the emulated
 * device's time at the real size and how sure it is (dev/emu.h); 0 when
 * the row has no bound (measured, or modeled at the emulator size). */
static int model_line(struct gs_buf *b, const struct gs_qsweep *sw, const struct gs_value *env)
{
	int fb = gs_qsweep_field(sw, "model_bound"), fc = gs_qsweep_field(sw, "model_confidence");
	if (fb < 0 || env[fb].t != GS_V_STR)
		return 0;
	gs_buf_printf(b, "%s-bound", env[fb].s->s);
	int ok;
	double c = fc >= 0 ? gs_qnum(env[fc], &ok) : 0;
	if (fc >= 0 && ok)
		gs_buf_printf(b, ", confidence %.3g (%s)", c, gs_emu_confidence_level(c));
	return 1;
}

/* "0.2031 ms, 95% CI 0.2029–0.2034 ms (±0.1%), 12 runs after 2 warm-ups,
 * coverage 96.1%"; 0 when the row has no interval (a modeled time, a store
 * from before schema 6). */
static int interval_line(struct gs_buf *b, const struct gs_qsweep *sw, const struct gs_value *env)
{
	int ok_t, ok_lo, ok_hi, ok_r, ok_w, ok_c;
	double t = gs_qnum(env[gs_qsweep_field(sw, "time_ms")], &ok_t);
	double lo = gs_qnum(env[gs_qsweep_field(sw, "ci_lo_ms")], &ok_lo);
	double hi = gs_qnum(env[gs_qsweep_field(sw, "ci_hi_ms")], &ok_hi);
	double runs = gs_qnum(env[gs_qsweep_field(sw, "runs")], &ok_r);
	double warm = gs_qnum(env[gs_qsweep_field(sw, "warmups")], &ok_w);
	double cov = gs_qnum(env[gs_qsweep_field(sw, "ci_pct")], &ok_c);
	if (!ok_t || !ok_lo || !ok_hi || t <= 0)
		return 0;
	double h = 100 * (hi - t > t - lo ? hi - t : t - lo) / t;
	gs_qfmt_num(b, t);
	gs_buf_puts(b, " ms, 95% CI ");
	gs_qfmt_num(b, lo);
	gs_buf_puts(b, "–");
	gs_qfmt_num(b, hi);
	gs_buf_printf(b, h >= 10 ? " ms (±%.0f%%)" : h >= 0.1 ? " ms (±%.1f%%)" : " ms (±%.2f%%)", h);
	if (ok_r)
		gs_buf_printf(b, ", %.0f run%s", runs, runs == 1 ? "" : "s");
	if (ok_r && ok_w)
		gs_buf_printf(b, " after %.0f warm-up%s", warm, warm == 1 ? "" : "s");
	if (ok_c)
		gs_buf_printf(b, ", coverage %.1f%%", cov);
	return 1;
}
static const char *const res[] = {
	"registers",   "static_smem", "local_bytes", "spill_stores", "spill_loads",
	"max_threads", "blocks_per_sm", "occupancy", "limiter",
};

struct variant {
	char *hash, *status, *log, *ptx, *arch, *nvrtc, *options, *entries;
	double compile_s;
	int have;
};

static char *dup_col(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? gs_xstrdup((const char *)t) : NULL;
}

static int read_variant(struct gs_query *q, int64_t sweep, int64_t idx, struct variant *v)
{
	memset(v, 0, sizeof(*v));
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(q->db, "SELECT v.hash, v.status, v.log, v.ptx, v.arch, v.nvrtc_version,"
				      " v.options, v.entries, v.compile_s FROM config c LEFT JOIN result r"
				      " ON r.sweep_id = c.sweep_id AND r.idx = c.idx JOIN variant v ON"
				      " v.hash = coalesce(r.variant_hash, c.variant_hash) WHERE"
				      " c.sweep_id = ?1 AND c.idx = ?2", -1, &s, NULL)) {
		fprintf(stderr, "gsearch: error: cannot read %s: %s%s\n", q->path, sqlite3_errmsg(q->db),
			gs_store_damage_hint(sqlite3_extended_errcode(q->db), q->path));
		return -1;
	}
	sqlite3_bind_int64(s, 1, sweep);
	sqlite3_bind_int64(s, 2, idx);
	if (sqlite3_step(s) == SQLITE_ROW) {
		v->have = 1;
		v->hash = dup_col(s, 0);
		v->status = dup_col(s, 1);
		v->log = dup_col(s, 2);
		v->ptx = dup_col(s, 3);
		v->arch = dup_col(s, 4);
		v->nvrtc = dup_col(s, 5);
		v->options = dup_col(s, 6);
		v->entries = dup_col(s, 7);
		v->compile_s = sqlite3_column_double(s, 8);
	}
	sqlite3_finalize(s);
	return 0;
}

static void variant_release(struct variant *v)
{
	free(v->hash);
	free(v->status);
	free(v->log);
	free(v->ptx);
	free(v->arch);
	free(v->nvrtc);
	free(v->options);
	free(v->entries);
}

static void figure(struct gs_buf *b, const struct gs_qfield *f, struct gs_value v)
{
	gs_qfmt(b, v);
	if (*f->unit && v.t != GS_V_NONE)
		gs_buf_printf(b, " %s", f->unit);
}

/* A titled section of "name  value" lines, the values aligned. */
struct section {
	char **k, **v;
	size_t n, cap, capv;
};

static void sec_add(struct section *s, const char *k, const char *v)
{
	gs_grow(&s->k, &s->cap, s->n + 1, sizeof(*s->k));
	gs_grow(&s->v, &s->capv, s->n + 1, sizeof(*s->v));
	s->k[s->n] = gs_xstrdup(k);
	s->v[s->n++] = gs_xstrdup(v);
}

static void sec_print(FILE *out, const char *title, struct section *s)
{
	size_t w = 0;
	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->k[i]) > w)
			w = strlen(s->k[i]);
	if (s->n)
		fprintf(out, "%s\n", title);
	for (size_t i = 0; i < s->n; i++) {
		fprintf(out, "  %-*s  %s\n", (int)w, s->k[i], s->v[i]);
		free(s->k[i]);
		free(s->v[i]);
	}
	free(s->k);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* Print an indented block of text, at most `max` lines (< 0: all). */
static void block(FILE *out, const char *text, long max)
{
	long n = 0, total = 0;
	for (const char *p = text; *p; p++)
		total += *p == '\n' || !p[1];
	const char *p = text;
	while (*p && (max < 0 || n < max)) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len)
			fprintf(out, "    %.*s\n", (int)len, p);
		else
			fputc('\n', out);
		n++;
		p += len + (e != NULL);
	}
	if (*p)
		fprintf(out, "    ... %ld more lines (--ptx shows them all)\n", total - n);
}

/* The error for an idx the sweep does not hold, with the range it does. */
static void no_such_config(struct gs_query *q, const struct gs_qsweep *sw, int64_t idx)
{
	sqlite3_stmt *s;
	int64_t lo = -1, hi = -1;
	if (sqlite3_prepare_v2(q->db, "SELECT min(idx), max(idx) FROM config WHERE"
				      " sweep_id = ?1", -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(s, 1, sw->id);
		if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL) {
			lo = sqlite3_column_int64(s, 0);
			hi = sqlite3_column_int64(s, 1);
		}
		sqlite3_finalize(s);
	}
	if (lo >= 0)
		fprintf(stderr, "gsearch: error: sweep %lld has no configuration %lld "
				"(its indices run from %lld to %lld)\n",
			(long long)sw->id, (long long)idx, (long long)lo, (long long)hi);
	else
		fprintf(stderr, "gsearch: error: sweep %lld has no configurations\n",
			(long long)sw->id);
}

/* gsearch show --json: one object with every field, metric, counter and the
 * variant. */
static void show_json(FILE *o, const struct gs_qsweep *sw, struct gs_qrows *r, int64_t idx,
		      const struct variant *v)
{
	const struct gs_value *env = gs_qrows_env(r);
	const char *st = gs_qrows_status(r);
	json_t *j = json_object();
	json_object_set_new(j, "sweep", json_integer(sw->id));
	json_object_set_new(j, "idx", json_integer(idx));
	json_object_set_new(j, "baseline", json_boolean(idx == sw->baseline));
	json_object_set_new(j, "params", gs_qjson_params(gs_qrows_params(r)));
	json_object_set_new(j, "status", st ? json_string(st) : json_null());
	json_object_set_new(j, "modeled", json_boolean(sw->modeled));
	gs_qjson_row_fields(j, sw, env);
	json_t *vj = json_object();
	json_object_set_new(vj, "hash", v->hash ? json_string(v->hash) : json_null());
	json_object_set_new(vj, "status", v->status ? json_string(v->status) : json_null());
	json_object_set_new(vj, "arch", v->arch ? json_string(v->arch) : json_null());
	json_object_set_new(vj, "nvrtc_version", v->nvrtc ? json_string(v->nvrtc) : json_null());
	json_object_set_new(vj, "options", v->options ? json_string(v->options) : json_null());
	json_object_set_new(vj, "log", v->log ? json_string(v->log) : json_null());
	json_object_set_new(vj, "ptx", v->ptx ? json_string(v->ptx) : json_null());
	json_object_set_new(j, "variant", v->have ? vj : json_null());
	if (!v->have)
		json_decref(vj);
	gs_qjson_print(o, j);
}

/* The heading lines: parameters, baseline, outcome, time, error, variant
 * and options. */
static void show_head(FILE *o, const struct gs_qsweep *sw, struct gs_qrows *r, int64_t idx,
		      const struct variant *v, struct gs_buf *b)
{
	const struct gs_value *env = gs_qrows_env(r);
	const char *st = gs_qrows_status(r);
	fprintf(o, "configuration %lld of sweep %lld: %s on %s\n", (long long)idx, (long long)sw->id,
		sw->space, sw->device ? sw->device : "?");
	gs_qfmt_params(b, gs_qrows_params(r));
	gs_qprint_line(o, "parameters", gs_buf_str(b));
	gs_buf_reset(b);
	if (idx == sw->baseline)
		gs_buf_puts(b, "yes, the hand-picked configuration");
	else if (sw->baseline >= 0)
		gs_buf_printf(b, "no (the baseline is index %lld)", (long long)sw->baseline);
	else
		gs_buf_puts(b, "no (the space names none)");
	gs_qprint_line(o, "baseline", gs_buf_str(b));
	gs_buf_reset(b);
	gs_buf_puts(b, st ? st : "not run yet");
	struct gs_value dev = env[gs_qsweep_field(sw, "device")];
	struct gs_value at = env[gs_qsweep_field(sw, "measured_at")];
	if (st && dev.t == GS_V_STR)
		gs_buf_printf(b, " on %s", dev.s->s);
	if (st && at.t == GS_V_STR)
		gs_buf_printf(b, ", %s", at.s->s);
	if (sw->modeled && st && !strcmp(st, "ok"))
		gs_buf_puts(b, " (time modeled by the emulated device)");
	gs_qprint_line(o, "outcome", gs_buf_str(b));
	gs_buf_reset(b);
	if (st && !strcmp(st, "ok") && interval_line(b, sw, env))
		gs_qprint_line(o, "time", gs_buf_str(b));
	gs_buf_reset(b);
	if (st && !strcmp(st, "ok") && model_line(b, sw, env))
		gs_qprint_line(o, "model", gs_buf_str(b));
	struct gs_value err = env[gs_qsweep_field(sw, "error")];
	if (err.t == GS_V_STR && v->log && !strcmp(err.s->s, v->log)) {
		/* a compile error's message is the compiler's log: shown once */
		gs_qprint_line(o, "error", "the compile log, below");
	} else if (err.t == GS_V_STR) {
		fprintf(o, "  error\n");
		block(o, err.s->s, -1);
	}
	if (!v->have) {
		gs_qprint_line(o, "variant", "not compiled yet");
		return;
	}
	gs_buf_reset(b);
	gs_buf_printf(b, "%s, %s", v->hash ? v->hash : "?", v->status ? v->status : "?");
	json_t *ent = v->entries ? json_loads(v->entries, 0, NULL) : NULL;
	/* a variant that did not compile has no entry names: [""] */
	for (size_t i = 0, shown = 0; i < json_array_size(ent); i++) {
		const char *name = json_string_value(json_array_get(ent, i));
		if (name && !*name)
			continue;
		gs_buf_printf(b, "%s%s", shown++ ? ", " : ", entry ", name ? name : "?");
	}
	json_decref(ent);
	gs_buf_printf(b, ", %s, NVRTC %s, compiled in %.3f s", v->arch ? v->arch : "?",
		      v->nvrtc ? v->nvrtc : "?", v->compile_s);
	gs_qprint_line(o, "variant", gs_buf_str(b));
	gs_qprint_line(o, "options", v->options ? v->options : "");
}

/* The sections resources, figures, metrics and counters: each field the row
 * has a value for. */
static void show_sections(FILE *o, const struct gs_qsweep *sw, const struct gs_value *env,
			  struct gs_buf *b)
{
	struct section sec;
	memset(&sec, 0, sizeof(sec));
	for (size_t i = 0; i < GS_ARRAY_SIZE(res); i++) {
		int fi = gs_qsweep_field(sw, res[i]);
		if (env[fi].t == GS_V_NONE)
			continue;
		gs_buf_reset(b);
		if (!strcmp(res[i], "occupancy") && env[fi].t == GS_V_FLOAT)
			gs_buf_printf(b, "%.2f", env[fi].f);
		else if (!strcmp(res[i], "max_threads") && env[fi].t == GS_V_INT && env[fi].i == 0)
			/* the cubin's bound (gen/cubin.c): 0 when the kernel sets none */
			gs_buf_puts(b, "0 (no __launch_bounds__: the device's limit applies)");
		else
			figure(b, &sw->fields[fi], env[fi]);
		sec_add(&sec, res[i], gs_buf_str(b));
	}
	sec_print(o, "resources", &sec);
	for (size_t i = 0; i < GS_ARRAY_SIZE(figs); i++) {
		int fi = gs_qsweep_field(sw, figs[i]);
		if (env[fi].t == GS_V_NONE)
			continue;
		gs_buf_reset(b);
		figure(b, &sw->fields[fi], env[fi]);
		sec_add(&sec, figs[i], gs_buf_str(b));
	}
	sec_print(o, "figures", &sec);
	for (int kind = GS_QK_METRIC; kind <= GS_QK_COUNTER; kind++) {
		for (size_t i = 0; i < sw->nfields; i++) {
			if ((int)sw->fields[i].kind != kind || env[i].t == GS_V_NONE)
				continue;
			gs_buf_reset(b);
			gs_qfmt(b, env[i]);
			sec_add(&sec, sw->fields[i].name, gs_buf_str(b));
		}
		sec_print(o, kind == GS_QK_METRIC ? "metrics" : "counters", &sec);
	}
}

/* The variant's compile log and the first ptx_lines lines of its PTX (< 0:
 * all). */
static void show_log_ptx(FILE *o, const struct variant *v, long ptx_lines)
{
	if (v->log && *v->log) {
		fprintf(o, "compile log\n");
		block(o, v->log, -1);
	} else {
		fprintf(o, "compile log: empty\n");
	}
	if (v->ptx && *v->ptx) {
		long lines = 0;
		for (const char *p = v->ptx; *p; p++)
			lines += *p == '\n' || !p[1];
		if (ptx_lines < 0 || ptx_lines >= lines)
			fprintf(o, "PTX (%ld lines)\n", lines);
		else
			fprintf(o, "PTX (the first %ld of %ld lines)\n", ptx_lines, lines);
		block(o, v->ptx, ptx_lines);
	}
}

int gs_query_show(struct gs_query *q, int64_t idx, long ptx_lines)
{
	struct gs_qsweep sw;
	struct variant v;
	memset(&v, 0, sizeof(v));
	if (gs_qsweep_load(q, q->sweep, &sw) < 0)
		return 1;
	int rc = 1;
	int *want = gs_xcalloc(sw.nfields + 1, sizeof(*want));
	for (size_t i = 0; i < sw.nfields; i++)
		want[i] = (int)i;
	struct gs_qspec spec = { .order = -1, .want = want, .nwant = sw.nfields, .idx = idx,
				 .params = 1 };
	struct gs_qrows *r;
	int got = gs_qrows_open(&r, q, &sw, NULL, &spec);
	if (got == 0)
		got = gs_qrows_next(r);
	if (got <= 0) {
		if (got == 0)
			no_such_config(q, &sw, idx);
		goto out;
	}
	if (read_variant(q, sw.id, idx, &v) < 0)
		goto out;
	if (q->fmt == GS_QF_JSON) {
		show_json(q->out, &sw, r, idx, &v);
	} else {
		struct gs_buf b = GS_BUF_INIT;
		show_head(q->out, &sw, r, idx, &v, &b);
		show_sections(q->out, &sw, gs_qrows_env(r), &b);
		if (v.have)
			show_log_ptx(q->out, &v, ptx_lines);
		gs_buf_release(&b);
	}
	rc = 0;
out:
	gs_qrows_close(r);
	variant_release(&v);
	free(want);
	gs_qsweep_release(&sw);
	return rc;
}
