/* jsonrow.h — the values at a few paths of a JSON document, read in one
 * pass, exactly as SQLite's json_extract (3.40) reads them.
 *
 * The reports read parameters, metrics and counters out of JSON columns;
 * asking SQLite for each with json_extract parses the same document once
 * per field.  A gs_jrow holds the wanted paths of one column as a tree of
 * keys, and gs_jrow_scan fills all of their values from a single scan:
 *
 *   integer literal        INT (FLOAT when beyond int64, as SQLite does)
 *   other number           FLOAT
 *   true, false            INT 1, 0
 *   null, absent, no path  NONE
 *   string                 STR, unescaped (\u0000 ends it, as in SQLite)
 *   array, object          STR, its JSON text without whitespace
 *
 * Keys are matched on their text as written in the document (SQLite does
 * not unescape them) and the first of duplicated keys wins.  A malformed
 * document is an error, as json_extract's "malformed JSON". */
#ifndef GS_QUERY_JSONROW_H
#define GS_QUERY_JSONROW_H

#include <stddef.h>

#include "core/value.h"

struct gs_jrow;

/* Makes a string value of n bytes at s that outlives the scan. */
typedef struct gs_value (*gs_jrow_str_fn)(void *ctx, const char *s, size_t n);

/* An empty set of paths; strings are made by str(ctx, ...).  The caller
 * frees it with gs_jrow_free. */
struct gs_jrow *gs_jrow_new(gs_jrow_str_fn str, void *ctx);
void gs_jrow_free(struct gs_jrow *j);

/* Wants the value at path, a json_extract path made only of quoted keys
 * ($."a"."b"), in out[slot] of each scan.  -1: a path of another form,
 * which the caller leaves to json_extract. */
int gs_jrow_add(struct gs_jrow *j, const char *path, int slot);

/* How many paths j wants. */
size_t gs_jrow_count(const struct gs_jrow *j);

/* Reads doc (NUL-terminated; NULL is SQL NULL, whose every value is NONE)
 * and sets out[slot] of every wanted path.  0, or -1 if doc is not JSON
 * (the slots are then NONE). */
int gs_jrow_scan(struct gs_jrow *j, const char *doc, struct gs_value *out);

#endif
