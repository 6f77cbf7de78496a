/* proto.c — the worker's result on the wire (sched/proto.h), encoded by
 * the worker and decoded by the supervisor from one table. */
#include "sched/proto.h"

#include <jansson.h>
#include <string.h>

/* when a field is sent: r is the result, v the field's value */
#define GS_SENT_ALWAYS(r, v) 1
#define GS_SENT_OK(r, v) (!strcmp((r)->status, "ok"))
#define GS_SENT_OCCUPANCY(r, v) ((r)->blocks_per_sm > 0 || (r)->limiter[0])
#define GS_SENT_NONEMPTY(r, v) ((v)[0] != 0)
#define GS_SENT_NONNULL(r, v) ((v) != NULL)
#define GS_SENT_SET(r, v) ((v) != 0)

/* how each kind goes into the object; a REAL that is negative or NaN means
 * "not measured" and is left out */
static void put_REAL(json_t *o, const char *k, double v)
{
	if (v >= 0 && v == v)
		json_object_set_new(o, k, json_real(v));
}
static void put_INT(json_t *o, const char *k, long long v)
{
	json_object_set_new(o, k, json_integer(v));
}
static void put_TEXT(json_t *o, const char *k, const char *v)
{
	json_object_set_new(o, k, json_string(v));
}
#define put_PTR put_TEXT
static void put_FLAG(json_t *o, const char *k, int v)
{
	(void)v;
	json_object_set_new(o, k, json_true());
}

char *gs_proto_result_encode(const struct gs_result *r)
{
	json_t *o = json_object();
#define PUT(key, kind, sent, member)                 \
	if (GS_SENT_##sent(r, r->member))            \
		put_##kind(o, #key, r->member);
	GS_PROTO_RESULT(PUT)
#undef PUT
	char *s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return s;
}

static double get_REAL(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : -1;
}
static int get_INT(json_t *o, const char *k)
{
	return (int)get_REAL(o, k);
}
static const char *get_TEXT(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_string(v) ? json_string_value(v) : NULL;
}
#define get_PTR get_TEXT
static int get_FLAG(json_t *o, const char *k)
{
	return json_is_true(json_object_get(o, k));
}

int gs_proto_result_decode(const char *text, struct gs_proto_result *d)
{
	json_error_t je;
	json_t *o = json_loads(text, 0, &je);
	memset(d, 0, sizeof(*d));
	if (!o)
		return -1;
#define GET(key, kind, sent, member) d->key = get_##kind(o, #key);
	GS_PROTO_RESULT(GET)
#undef GET
	d->json = o;
	return 0;
}

void gs_proto_result_release(struct gs_proto_result *d)
{
	json_decref(d->json);
	d->json = NULL;
}
