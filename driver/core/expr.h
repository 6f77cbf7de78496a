/* expr.h — the expression types every stage shares: syntax trees and the
 * bytecode they compile to.
 *
 * The parser (space/) builds trees, the compiler (lang/) turns them into a
 * gs_code, the space description (space/space.h) holds both, and the later
 * stages only pass them around; so, as Lua keeps its prototypes in lobject.h,
 * the types live here, below all of them, and lang/expr.h adds the compiler
 * and the evaluator that work on them.  A tree lives in an arena that
 * outlives it; a gs_code owns its arrays (freed by gs_code_free, lang/). */
#ifndef GS_CORE_EXPR_H
#define GS_CORE_EXPR_H

#include "core/diag.h"
#include "core/value.h"

enum gs_ek {
	GS_E_CONST,  /* literal: .k */
	GS_E_NAME,   /* .name */
	GS_E_LIST,   /* .items / .n  (tuples too) */
	GS_E_COMP,   /* list comprehension: .a element, .fors */
	GS_E_UNARY,  /* .op, .a */
	GS_E_BINARY, /* .op, .a, .b */
	GS_E_AND,    /* .a and .b */
	GS_E_OR,     /* .a or .b */
	GS_E_NOT,    /* not .a */
	GS_E_CMP,    /* chained comparison: .items operands, .cmpops (n-1) */
	GS_E_IFELSE, /* .b if .a else .c */
	GS_E_CALL,   /* .name(items...); .kwnames per item (NULL for positional) */
	GS_E_INDEX,  /* .a[.b] */
	GS_E_SLICE,  /* .a[.b:.c:.d], missing parts NULL */
};

/* The deepest nesting of brackets, calls, subscripts, unary operators, 'not',
 * '**' and conditional expressions the parser accepts.  Deeper input is a
 * positioned error, so that no walk of a tree can exhaust the C stack. */
#define GS_MAX_NESTING 200

struct gs_compfor {
	char *var;
	struct gs_loc var_loc;
	struct gs_expr *iter;
	struct gs_expr **conds;
	size_t nconds;
};

struct gs_expr {
	uint8_t kind;
	uint8_t op; /* token kind of the operator */
	struct gs_loc loc;
	struct gs_value k;
	char *name;
	struct gs_expr *a, *b, *c, *d;
	struct gs_expr **items;
	char **kwnames;
	uint8_t *cmpops;
	size_t n;
	struct gs_compfor *fors;
	size_t nfors;
};

/* The source span of a whole tree (a node's own loc is its operator). */
struct gs_loc gs_expr_span(const struct gs_expr *e);

/* The bytecode. */
struct gs_code {
	uint32_t *ops; /* opcode in the low 8 bits, argument above */
	struct gs_loc *locs; /* location of each op, for runtime errors */
	size_t nops;
	struct gs_value *consts;
	size_t nconsts;
	uint32_t nlocals;
	uint32_t maxstack;
	int *globals; /* distinct global slots read, ascending */
	size_t nglobals;
	unsigned type; /* static type mask of the result */
	struct gs_arena arena; /* owns consts' strings/lists and the arrays */
};

/* Is the compiled expression a constant (no global read)? */
static inline int gs_code_is_const(const struct gs_code *c)
{
	return c->nglobals == 0;
}

#endif
