/* value.h — values of the expression language (a Python subset).
 *
 * A gs_value is 16 bytes, passed by value.  Strings, lists and ranges point
 * into an arena: temporaries live in the evaluator's scratch arena and die at
 * its next reset; values that must last (domains, problem constants) are
 * copied into the space's arena with gs_value_persist.
 *
 * In core/ (see core/diag.h): the parser, the evaluator, the reports and the
 * Kernel Tuner reader all hold values. */
#ifndef GS_VALUE_H
#define GS_VALUE_H

#include <stdint.h>

#include "util/util.h"

#define GS_VTYPES(X)                                                                              \
	X(NONE, "NoneType")                                                                        \
	X(BOOL, "bool")                                                                            \
	X(INT, "int")                                                                              \
	X(FLOAT, "float")                                                                          \
	X(STR, "str")                                                                              \
	X(LIST, "list")                                                                            \
	X(RANGE, "range")                                                                          \
	X(ITER, "iterator")

enum gs_vtype {
#define X(n, s) GS_V_##n,
	GS_VTYPES(X)
#undef X
};

/* Static type masks used by the checker: a set of possible runtime types. */
#define GS_T(v) (1u << GS_V_##v)
#define GS_T_NUM (GS_T(BOOL) | GS_T(INT) | GS_T(FLOAT))
#define GS_T_SEQ (GS_T(STR) | GS_T(LIST) | GS_T(RANGE))
#define GS_T_ANY 0xffu

struct gs_str {
	size_t len;
	char s[]; /* NUL-terminated */
};

struct gs_list {
	size_t n, cap;
	struct gs_value *v;
};

struct gs_range {
	int64_t start, stop, step;
};

struct gs_iter;

struct gs_value {
	uint8_t t; /* enum gs_vtype */
	union {
		int64_t i; /* BOOL (0/1) and INT */
		double f;
		struct gs_str *s;
		struct gs_list *l;
		struct gs_range *r;
		struct gs_iter *it;
	};
};

struct gs_iter {
	struct gs_value seq;
	int64_t pos;
};

static inline struct gs_value gs_int(int64_t i)
{
	struct gs_value v = { .t = GS_V_INT, .i = i };
	return v;
}
static inline struct gs_value gs_bool(int b)
{
	struct gs_value v = { .t = GS_V_BOOL, .i = b != 0 };
	return v;
}
static inline struct gs_value gs_float(double f)
{
	struct gs_value v = { .t = GS_V_FLOAT, .f = f };
	return v;
}
static inline struct gs_value gs_none(void)
{
	struct gs_value v = { .t = GS_V_NONE, .i = 0 };
	return v;
}

const char *gs_vtype_name(int t);
/* "int", "int or float", ... for a static type mask; returns a static buffer. */
const char *gs_tmask_name(unsigned mask);

struct gs_value gs_str_new(struct gs_arena *a, const char *s, size_t n);
struct gs_value gs_list_new(struct gs_arena *a, size_t cap);
void gs_list_push(struct gs_arena *a, struct gs_list *l, struct gs_value v);
int64_t gs_range_len(const struct gs_range *r);
/* A list's or range's length (0 for anything else) and its element i. */
int64_t gs_seq_len(struct gs_value v);
struct gs_value gs_seq_at(struct gs_value v, int64_t i);

/* Deep copy into `a`.  Iterators cannot be persisted (returns NONE). */
struct gs_value gs_value_persist(struct gs_arena *a, struct gs_value v);

int gs_value_truthy(struct gs_value v);
/* Python ==, for values of any types (1 == 1.0 == True). */
int gs_value_eq(struct gs_value a, struct gs_value b);
/* Python repr ('str' quoted, floats shortest round-trip, 1.0 not 1). */
void gs_value_repr(struct gs_buf *b, struct gs_value v);
/* Python str (strings bare, otherwise repr). */
void gs_value_str(struct gs_buf *b, struct gs_value v);
/* The same, but stops early once more than max bytes are written (the result
 * is then longer than max, and incomplete). */
void gs_value_str_max(struct gs_buf *b, struct gs_value v, size_t max);
/* Python repr of a float. */
void gs_float_repr(struct gs_buf *b, double f);
/* JSON (strings quoted, True → true, lists → arrays, inf/nan → null). */
void gs_value_json(struct gs_buf *b, struct gs_value v);

#endif
