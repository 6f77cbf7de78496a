/* test_jsonrow.c — the one-pass JSON reader gives what SQLite's json_extract
 * gives, value for value and bit for bit, malformed documents included. */
#include "harness.h"
#include "query/jsonrow.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static struct gs_arena arena = GS_ARENA_INIT;

static struct gs_value make_str(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	return gs_str_new(&arena, s, n);
}

/* json_extract(doc, path) as a value; 0, or -1 when SQLite reports an
 * error (malformed JSON). */
static int sqlite_extract(sqlite3 *db, const char *doc, const char *path, struct gs_value *v)
{
	sqlite3_stmt *st;
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT json_extract(?1, ?2)", -1, &st, NULL),
			 SQLITE_OK);
	if (doc)
		sqlite3_bind_text(st, 1, doc, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*v = gs_none();
	if (rc == SQLITE_ROW) {
		switch (sqlite3_column_type(st, 0)) {
		case SQLITE_INTEGER:
			*v = gs_int(sqlite3_column_int64(st, 0));
			break;
		case SQLITE_FLOAT:
			*v = gs_float(sqlite3_column_double(st, 0));
			break;
		case SQLITE_TEXT:
			*v = gs_str_new(&arena, (const char *)sqlite3_column_text(st, 0),
					(size_t)sqlite3_column_bytes(st, 0));
			break;
		}
	} else {
		ck_assert_str_eq(sqlite3_errmsg(db), "malformed JSON");
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int same(struct gs_value a, struct gs_value b)
{
	if (a.t != b.t)
		return 0;
	switch (a.t) {
	case GS_V_NONE:
		return 1;
	case GS_V_INT:
		return a.i == b.i;
	case GS_V_FLOAT:
		return !memcmp(&a.f, &b.f, sizeof(a.f)); /* -0.0 is not 0.0 */
	case GS_V_STR:
		return a.s->len == b.s->len && !memcmp(a.s->s, b.s->s, a.s->len);
	}
	return 0;
}

static void show(char *buf, size_t size, struct gs_value v)
{
	switch (v.t) {
	case GS_V_NONE: snprintf(buf, size, "NONE"); break;
	case GS_V_INT: snprintf(buf, size, "INT %lld", (long long)v.i); break;
	case GS_V_FLOAT: snprintf(buf, size, "FLOAT %a", v.f); break;
	case GS_V_STR: snprintf(buf, size, "STR(%zu) '%s'", v.s->len, v.s->s); break;
	default: snprintf(buf, size, "type %d", v.t);
	}
}

/* Every path of paths[] read from doc in one scan equals json_extract's
 * value; so does each read alone.  Returns the number of paths the reader
 * took (the others are left to json_extract by its users). */
static size_t check_doc(sqlite3 *db, const char *doc, const char *const *paths, size_t n)
{
	struct gs_value out[32], want[32];
	int slot_of[32];
	struct gs_jrow *j = gs_jrow_new(make_str, NULL);
	size_t taken = 0;
	int bad = 0;
	ck_assert_uint_le(n, 32);
	for (size_t i = 0; i < n; i++) {
		slot_of[i] = gs_jrow_add(j, paths[i], (int)i) == 0 ? (int)i : -1;
		taken += slot_of[i] >= 0;
		int rc = sqlite_extract(db, doc, paths[i], &want[i]);
		bad |= rc < 0;
	}
	for (int round = 0; round < 2; round++) { /* twice: the seen-marks are reset */
		int rc = gs_jrow_scan(j, doc, out);
		if (taken)
			ck_assert_msg(rc == (bad ? -1 : 0), "%s: scan %d, json_extract %s", doc, rc,
				      bad ? "malformed" : "ok");
		for (size_t i = 0; i < n && !bad; i++) {
			if (slot_of[i] < 0)
				continue;
			char a[256], b[256];
			show(a, sizeof a, out[i]);
			show(b, sizeof b, want[i]);
			ck_assert_msg(same(out[i], want[i]), "%s at %s: %s, json_extract %s", doc,
				      paths[i], a, b);
		}
	}
	gs_jrow_free(j);
	for (size_t i = 0; i < n; i++) { /* one path a scan */
		j = gs_jrow_new(make_str, NULL);
		if (gs_jrow_add(j, paths[i], 0) == 0) {
			int rc = gs_jrow_scan(j, doc, out);
			ck_assert_int_eq(rc, bad ? -1 : 0);
			if (!bad)
				ck_assert_msg(same(out[0], want[i]), "%s at %s alone", doc, paths[i]);
		}
		gs_jrow_free(j);
	}
	return taken;
}

static const char *const paths[] = {
	"$.\"a\"", "$.\"b\"", "$.\"a\".\"b\"", "$.\"w\".\"x\"", "$.\"w\".\"y\".\"z\"",
	"$.\"\\u0061\"", "$.\"\"", "$.\"a b\"", "$.\"w\"",
};

static const char *const docs[] = {
	/* numbers */
	"{\"a\":1}", "{\"a\":-0}", "{\"a\":-0.0}", "{\"a\":0.0}", "{\"a\":-0e0}", "{\"a\":1e400}",
	"{\"a\":-1e400}", "{\"a\":1e-400}", "{\"a\":-1e-400}", "{\"a\":4.9e-324}",
	"{\"a\":2.4e-324}", "{\"a\":1E5}", "{\"a\":1e+5}", "{\"a\":1.5E-3}", "{\"a\":0.1e-2}",
	"{\"a\":9223372036854775807}", "{\"a\":9223372036854775808}",
	"{\"a\":-9223372036854775808}", "{\"a\":-9223372036854775809}",
	"{\"a\":922337203685477580}", "{\"a\":9223372036854775799}",
	"{\"a\":123456789012345678901234567890}", "{\"a\":-123456789012345678901234567890}",
	"{\"a\":3.3333333333333335}", "{\"a\":0.30000000000000004}", "{\"a\":1.7976931348623157e308}",
	"{\"a\":2.2250738585072014e-308}", "{\"a\":0.1000000000000000055511151231257827}",
	/* literals and strings */
	"{\"a\":true,\"b\":false}", "{\"a\":null}", "{\"a\":\"\"}", "{\"a\":\"plain text\"}",
	"{\"a\":\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"}", "{\"a\":\"x\\u0000y\"}", "{\"a\":\"\\u0000\"}",
	"{\"a\":\"\\u00e9\\u0800\\uffff\\u007f\\u0080\"}", "{\"a\":\"\\ud83d\\ude00\"}",
	"{\"a\":\"\\uD83D\\uDE00\"}", "{\"a\":\"\\ud83d\"}", "{\"a\":\"\\ud83dx\"}",
	"{\"a\":\"\\udc00\\ud83d\"}", "{\"a\":\"\\ud83d\\u0041\"}", "{\"a\":\"\\ud83d\\ud83d\"}",
	"{\"a\":\"\x7f\xc3\xa9\xff\"}", "{\"a\":\"a,b\\\"c\"}",
	/* containers as values, nested objects, whitespace */
	"{\"a\":[1, {\"b\" : 2 } , \"x y\", [ ], { }, \"q\\\"]\"]}", "{\"a\":{\"b\":[]}}",
	"{\"a\":{\"b\":1.5e3,\"c\":[true,false,null]}}", " \t\n\r{ \"a\" :\n1 , \"b\"\t: \"s\" }\r\n ",
	"{\"w\":{\"x\":1,\"y\":{\"z\":-2}}}", "{\"w\":{\"x\":1},\"w\":{\"x\":2}}",
	"{\"w\":{\"y\":{\"z\":{\"deep\":[1,2]}}}}", "{\"w\":5}", "{\"w\":{\"x\":{\"y\":1}}}",
	"{\"a\":1,\"a\":2}", "{\"a\":{\"b\":1},\"a\":{\"b\":2}}", "{\"\\u0061\":7}",
	"{\"\":3,\"a b\":4}", "{\"a\":\"x\",\"b\":{\"a\":9}}", "[1,{\"a\":2}]", "\"a\"", "17",
	"true", "null", "{}", "[]", "{\"b\":{}}",
	/* malformed, which json_extract reports */
	"", " ", "{", "{\"a\":1", "{\"a\":1,}", "{\"a\" 1}", "{,}", "{\"a\":1}x", "{\"a\":1,\f\"b\":2}",
	"{\"a\":1,\v\"b\":2}", "{\"a\":truex}", "{\"a\":true1}", "{\"a\":nul}", "{\"a\":1.}",
	"{\"a\":.5}", "{\"a\":01}", "{\"a\":-01}", "{\"a\":-}", "{\"a\":-.5}", "{\"a\":1e}",
	"{\"a\":1e+}", "{\"a\":1.e5}", "{\"a\":1.5.3}", "{\"a\":1e5e3}", "{\"a\":+1}",
	"{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\u12g4\"}", "{\"a\":\"tab\there\"}",
	"{\"a\":\"open}", "{\"a\":[1,]}", "{\"a\":[1 2]}", "{\"a\":[}", "{\"a\":{]}", "{1:2}",
	"{\"a\":1}}", "{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":'s'}", "{\"a\":0x10}",
};

START_TEST(test_matches_json_extract)
{
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
	for (size_t i = 0; i < GS_ARRAY_SIZE(docs); i++)
		ck_assert_uint_eq(check_doc(db, docs[i], paths, GS_ARRAY_SIZE(paths)),
				  GS_ARRAY_SIZE(paths));
	sqlite3_close(db);
	gs_arena_release(&arena);
}
END_TEST

/* containers nest 2000 deep in SQLite; one more is malformed */
START_TEST(test_depth_limit)
{
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
	const int depths[] = { 1, 1998, 1999, 2000, 2001 };
	for (size_t k = 0; k < GS_ARRAY_SIZE(depths); k++) {
		int d = depths[k];
		char *doc = malloc((size_t)d * 6 + 16), *p = doc;
		p += sprintf(p, "{\"a\":");
		for (int i = 0; i < d; i++)
			p += sprintf(p, "%s", i % 2 ? "[" : "{\"a\":");
		*p++ = '0';
		for (int i = d - 1; i >= 0; i--)
			*p++ = i % 2 ? ']' : '}';
		strcpy(p, "}");
		check_doc(db, doc, paths, GS_ARRAY_SIZE(paths));
		free(doc);
	}
	sqlite3_close(db);
	gs_arena_release(&arena);
}
END_TEST

/* Floats: SQLite converts with its own routine, the reader with strtod;
 * they must agree on every text a store holds (shortest round-trip texts,
 * %.15g to %.17g) and on long or extreme ones. */
START_TEST(test_numbers_random)
{
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	const char *p1[] = { "$.\"a\"" };
	for (int i = 0; i < 30000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		char doc[128];
		double f;
		memcpy(&f, &x, sizeof f);
		switch (i % 6) {
		case 0:
			if (f != f || f - f != 0)
				f = 1.25;
			snprintf(doc, sizeof doc, "{\"a\":%.17g}", f);
			break;
		case 1:
			snprintf(doc, sizeof doc, "{\"a\":%.*g}", 15 + (int)(x % 3),
				 (double)(x >> 11) / (double)(1ull << 53) * 1000);
			break;
		case 2:
			snprintf(doc, sizeof doc, "{\"a\":%llu.%llue%d}", (unsigned long long)(x % 10),
				 (unsigned long long)(x >> 4), (int)(x % 640) - 330);
			break;
		case 3:
			snprintf(doc, sizeof doc, "{\"a\":%lld}", (long long)x >> (x % 64));
			break;
		case 4:
			snprintf(doc, sizeof doc, "{\"a\":%s%llu%llu}", x & 1 ? "-" : "",
				 (unsigned long long)(x % 100), (unsigned long long)(x >> 8));
			break;
		default: /* short significands, near the powers of ten that are exact */
			snprintf(doc, sizeof doc, "{\"a\":%s%llu.%llue%d}", x & 1 ? "-" : "",
				 (unsigned long long)(x % 1000), (unsigned long long)(x >> (18 + x % 40)),
				 (int)(x % 50) - 25);
			break;
		}
		check_doc(db, doc, p1, 1);
	}
	sqlite3_close(db);
	gs_arena_release(&arena);
}
END_TEST

/* Paths the reader does not take stay with json_extract. */
START_TEST(test_paths_left_to_sqlite)
{
	struct gs_jrow *j = gs_jrow_new(make_str, NULL);
	ck_assert_int_eq(gs_jrow_add(j, "$", 0), -1);
	ck_assert_int_eq(gs_jrow_add(j, "$.a", 0), -1);
	ck_assert_int_eq(gs_jrow_add(j, "$.\"a\"[0]", 0), -1);
	ck_assert_int_eq(gs_jrow_add(j, "$.\"a\\\"b\"", 0), -1);
	ck_assert_int_eq(gs_jrow_add(j, "$.\"a", 0), -1);
	ck_assert_int_eq(gs_jrow_add(j, "$.\"a\"", 0), 0);
	ck_assert_int_eq(gs_jrow_add(j, "$.\"a\"", 1), -1); /* one slot a path */
	ck_assert_int_eq(gs_jrow_add(j, "$.\"a\".\"b\"", 1), 0);
	ck_assert_uint_eq(gs_jrow_count(j), 2);
	struct gs_value out[2] = { gs_int(5), gs_int(6) };
	ck_assert_int_eq(gs_jrow_scan(j, NULL, out), 0); /* SQL NULL */
	ck_assert_int_eq(out[0].t, GS_V_NONE);
	ck_assert_int_eq(out[1].t, GS_V_NONE);
	gs_jrow_free(j);
	gs_arena_release(&arena);
}
END_TEST

GS_TEST_MAIN(test_matches_json_extract, test_depth_limit, test_numbers_random,
	     test_paths_left_to_sqlite)
