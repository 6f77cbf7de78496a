/* ktcache.c — reading Kernel Tuner cache files (see ktcache.h). */
#include "interop/ktcache.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/value.h"

static const struct {
	const char *failure, *status;
} outcomes[] = {
#define X(f, s) { f, s },
	GS_KT_OUTCOMES(X)
#undef X
};

const char *gs_kt_outcome(const char *failure)
{
	for (size_t i = 0; failure && i < GS_ARRAY_SIZE(outcomes); i++)
		if (!strcmp(outcomes[i].failure, failure))
			return outcomes[i].status;
	return NULL;
}

const char *gs_kt_failure(const char *status)
{
	for (size_t i = 0; status && i < GS_ARRAY_SIZE(outcomes); i++)
		if (!strcmp(outcomes[i].status, status))
			return outcomes[i].failure;
	return NULL;
}

int gs_kt_outcome_fits(const char *failure, const char *status)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(outcomes); i++)
		if (!strcmp(outcomes[i].failure, failure) && !strcmp(outcomes[i].status, status))
			return 1;
	return 0;
}

int gs_kt_key_part(struct gs_buf *b, json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_INTEGER: gs_buf_put_int(b, json_integer_value(v)); return 0;
	case JSON_REAL: gs_float_repr(b, json_real_value(v)); return 0;
	case JSON_TRUE: gs_buf_puts(b, "True"); return 0;
	case JSON_FALSE: gs_buf_puts(b, "False"); return 0;
	case JSON_STRING: gs_buf_puts(b, json_string_value(v)); return 0;
	default: return -1;
	}
}

/* Published caches reach hundreds of megabytes; 1 GiB, gzip'd or not,
 * is past any of them and still parses in the memory of a workstation
 * (the parsed tree takes several times the text).  The decompressed size
 * is capped as well: a small .gz can inflate without end. */
#define KT_MAX ((uint64_t)1 << 30)
#define KT_MAX_TEXT "1 GiB"

/* The whole file, gunzipped when it is gzip'd (zlib reads a plain file as
 * it is): a regular file of at most KT_MAX bytes, KT_MAX once inflated. */
static int slurp(const char *path, struct gs_buf *text, struct gs_buf *err)
{
	int fd = gs_open_regular(path, KT_MAX, NULL);
	if (fd == -EFBIG) {
		gs_buf_printf(err, "%s: cannot read: larger than the " KT_MAX_TEXT " limit", path);
		return -1;
	}
	if (fd < 0) {
		gs_buf_printf(err, "%s: cannot open: %s", path, gs_read_strerror(fd));
		return -1;
	}
	gzFile f = gzdopen(fd, "rb");
	if (!f) {
		close(fd);
		gs_buf_printf(err, "%s: cannot open: %s", path, strerror(ENOMEM));
		return -1;
	}
	char chunk[1 << 16];
	int n;
	while ((n = gzread(f, chunk, sizeof chunk)) > 0) {
		if (text->len + (size_t)n > KT_MAX) {
			gs_buf_printf(err, "%s: cannot read: decompresses to more than the " KT_MAX_TEXT
					   " limit", path);
			gzclose(f);
			return -1;
		}
		gs_buf_put(text, chunk, (size_t)n);
	}
	if (n < 0) {
		int zerr;
		const char *m = gzerror(f, &zerr);
		gs_buf_printf(err, "%s: cannot read: %s", path,
			      zerr == Z_ERRNO ? strerror(errno) : m);
		gzclose(f);
		return -1;
	}
	gzclose(f);
	return 0;
}

/* Kernel Tuner closes a cache only when tuning ends; one whose run was cut
 * off ends in an entry and a comma.  It reads such a file by dropping the
 * comma and closing the two objects, and so does this. */
static int closed(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	return n >= 3 && (!memcmp(s + n - 3, "}\n}", 3) || !memcmp(s + n - 3, "}}}", 3));
}

static const char *str_member(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A failure name among the entry's values, as Kernel Tuner finds it. */
static const char *failure_of(json_t *o)
{
	const char *e = str_member(o, "__error__"), *k;
	json_t *v;
	if (e && gs_kt_outcome(e))
		return e;
	json_object_foreach(o, k, v)
		if (json_is_string(v) && gs_kt_outcome(json_string_value(v)))
			return json_string_value(v);
	return NULL;
}

static int entry(struct gs_ktcache *c, const char *path, const char *key, json_t *o,
		 struct gs_ktentry *e, struct gs_buf *err)
{
	e->key = key;
	e->obj = o;
	if (!json_is_object(o)) {
		gs_buf_printf(err, "%s: cache entry \"%s\" is not an object", path, key);
		return -1;
	}
	for (size_t i = 0; i < c->nparams; i++) {
		json_t *v = json_object_get(o, c->params[i]);
		if (!v) {
			gs_buf_printf(err, "%s: cache entry \"%s\" has no value for parameter '%s'", path,
				      key, c->params[i]);
			return -1;
		}
		if (!json_is_number(v) && !json_is_string(v) && !json_is_boolean(v)) {
			gs_buf_printf(err, "%s: cache entry \"%s\": parameter '%s' is not a number, a "
					   "string or a boolean", path, key, c->params[i]);
			return -1;
		}
	}
	e->failure = failure_of(o);
	if (e->failure) {
		const char *own = str_member(o, "gsearch_status");
		e->status = own && gs_kt_outcome_fits(e->failure, own) ? own
									: gs_kt_outcome(e->failure);
		return 0;
	}
	json_t *t = json_object_get(o, "time");
	if (!json_is_number(t)) {
		char *v = t ? json_dumps(t, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
		gs_buf_printf(err, "%s: cache entry \"%s\": 'time' is %s%.40s%s, not a time in ms nor "
				   "InvalidConfig, CompilationFailedConfig or RuntimeFailedConfig",
			      path, key, v ? "" : "missing", v ? v : "",
			      v && strlen(v) > 40 ? "..." : "");
		free(v);
		return -1;
	}
	/* a time that is not positive would rank first, above every real one */
	double ms = json_number_value(t);
	if (!(isfinite(ms) && ms > 0)) {
		char *v = json_dumps(t, JSON_COMPACT | JSON_ENCODE_ANY);
		gs_buf_printf(err, "%s: cache entry \"%s\": 'time' is %s, not a positive time in ms",
			      path, key, v ? v : "?");
		free(v);
		return -1;
	}
	e->status = "ok";
	e->time_ms = ms;
	return 0;
}

int gs_ktcache_load(const char *path, struct gs_ktcache *c, struct gs_buf *err)
{
	memset(c, 0, sizeof(*c));
	struct gs_buf text = GS_BUF_INIT;
	json_error_t je;
	if (slurp(path, &text, err) < 0) {
		gs_buf_release(&text);
		return -1;
	}
	c->root = json_loadb(text.p ? text.p : "", text.len, JSON_ALLOW_NUL, &je);
	if (!c->root && !closed(gs_buf_str(&text), text.len)) {
		json_error_t je2;
		size_t n = text.len;
		while (n && strchr(" \n\t\r", text.p[n - 1]))
			n--;
		if (n && text.p[n - 1] == ',')
			n--;
		struct gs_buf fixed = GS_BUF_INIT;
		gs_buf_put(&fixed, text.p, n);
		gs_buf_puts(&fixed, "}\n}");
		c->root = json_loadb(fixed.p, fixed.len, JSON_ALLOW_NUL, &je2);
		c->repaired = c->root != NULL;
		gs_buf_release(&fixed);
	}
	gs_buf_release(&text);
	if (!c->root) {
		gs_buf_printf(err, "%s:%d:%d: not JSON: %s", path, je.line, je.column, je.text);
		return -1;
	}
	if (!json_is_object(c->root)) {
		gs_buf_printf(err, "%s: not a Kernel Tuner cache (not a JSON object)", path);
		return -1;
	}
	json_t *keys = json_object_get(c->root, "tune_params_keys");
	json_t *cache = json_object_get(c->root, "cache");
	if (!json_is_array(keys) || !json_is_object(cache)) {
		gs_buf_printf(err, "%s: not a Kernel Tuner cache: no %s", path,
			      !json_is_array(keys) ? "'tune_params_keys' list" : "'cache' object");
		return -1;
	}
	c->device = str_member(c->root, "device_name");
	c->kernel = str_member(c->root, "kernel_name");
	c->objective = str_member(c->root, "objective");
	c->schema_version = str_member(c->root, "schema_version");
	c->problem_size = json_object_get(c->root, "problem_size");
	c->tune_params = json_object_get(c->root, "tune_params");
	c->nparams = json_array_size(keys);
	c->params = gs_xcalloc(c->nparams + 1, sizeof(*c->params));
	for (size_t i = 0; i < c->nparams; i++) {
		c->params[i] = json_string_value(json_array_get(keys, i));
		if (!c->params[i] || !*c->params[i]) {
			gs_buf_printf(err, "%s: tune_params_keys[%zu] is not a parameter name", path, i);
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(c->params[j], c->params[i])) {
				gs_buf_printf(err, "%s: tune_params_keys names '%s' twice", path,
					      c->params[i]);
				return -1;
			}
	}
	if (!c->nparams) {
		gs_buf_printf(err, "%s: tune_params_keys is empty", path);
		return -1;
	}
	c->e = gs_xcalloc(json_object_size(cache) + 1, sizeof(*c->e));
	const char *key;
	json_t *o;
	json_object_foreach(cache, key, o) {
		if (entry(c, path, key, o, &c->e[c->n], err) < 0)
			return -1;
		c->n++;
	}
	return 0;
}

void gs_ktcache_release(struct gs_ktcache *c)
{
	free(c->e);
	free(c->params);
	json_decref(c->root);
	memset(c, 0, sizeof(*c));
}
