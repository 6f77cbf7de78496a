/* expr.h — the compiler from expression trees to bytecode, and the evaluator.
 *
 * An expression is parsed once into a tree (allocated in an arena that
 * outlives it), compiled once into a gs_code, and evaluated as often as the
 * enumeration needs: constraints run millions of times, so evaluation never
 * looks at text or trees.  Names are resolved at compile time to slots of an
 * environment array (`env`) owned by the caller.  The tree and bytecode
 * types are core/expr.h's, shared with every stage. */
#ifndef GS_EXPR_H
#define GS_EXPR_H

#include "core/diag.h"
#include "core/expr.h"
#include "core/value.h"

/* Builtin functions, as an X-macro: name, minimum and maximum arguments. */
#define GS_BUILTINS(X)                                                                            \
	X(RANGE, "range", 1, 3)                                                                    \
	X(LEN, "len", 1, 1)                                                                        \
	X(MIN, "min", 1, 255)                                                                      \
	X(MAX, "max", 1, 255)                                                                      \
	X(ABS, "abs", 1, 1)                                                                        \
	X(SUM, "sum", 1, 2)                                                                        \
	X(ANY, "any", 1, 1)                                                                        \
	X(ALL, "all", 1, 1)                                                                        \
	X(INT, "int", 0, 1)                                                                        \
	X(FLOAT, "float", 0, 1)                                                                    \
	X(BOOL, "bool", 0, 1)                                                                      \
	X(STR, "str", 0, 1)                                                                        \
	X(ROUND, "round", 1, 2)                                                                    \
	X(LIST, "list", 0, 1)                                                                      \
	X(SORTED, "sorted", 1, 1)                                                                  \
	X(POW, "pow", 2, 3)                                                                        \
	X(DIVMOD, "divmod", 2, 2)                                                                  \
	X(SQRT, "sqrt", 1, 1)                                                                      \
	X(EXP, "exp", 1, 1)                                                                        \
	X(LOG, "log", 1, 2)                                                                        \
	X(LOG2, "log2", 1, 1)                                                                      \
	X(LOG10, "log10", 1, 1)                                                                    \
	X(CEIL, "ceil", 1, 1)                                                                      \
	X(FLOOR, "floor", 1, 1)                                                                    \
	X(TRUNC, "trunc", 1, 1)                                                                    \
	X(ISQRT, "isqrt", 1, 1)                                                                    \
	X(GCD, "gcd", 0, 255)                                                                      \
	X(LCM, "lcm", 0, 255)                                                                      \
	X(SIN, "sin", 1, 1)                                                                        \
	X(COS, "cos", 1, 1)                                                                        \
	X(TAN, "tan", 1, 1)                                                                        \
	X(ISPOW2, "is_pow2", 1, 1)

enum gs_builtin {
#define X(id, name, lo, hi) GS_B_##id,
	GS_BUILTINS(X)
#undef X
	GS_B_COUNT
};

/* -1 if not a builtin.  Also accepts "math.sqrt" style names. */
int gs_builtin_lookup(const char *name);
const char *gs_builtin_name(int id);
/* Names of all builtins and constants, for "did you mean". */
size_t gs_builtin_names(const char **out, size_t max);
/* Builtin constants (pi, inf, e under math.); returns 0 if found. */
int gs_builtin_const(const char *name, struct gs_value *v);

/* Name resolution for the compiler.  Returns the global slot of `name`
 * (>= 0), or -1 if unknown (the compiler then tries builtins and reports an
 * error with suggestions).  *type receives the static type mask of the slot. */
struct gs_scope {
	int (*resolve)(void *ctx, const char *name, struct gs_loc loc, unsigned *type);
	void *ctx;
	const char *const *names; /* candidates for "did you mean" */
	size_t nnames;
};

/* Compile; returns NULL after recording errors.  The caller frees with
 * gs_code_free. */
struct gs_code *gs_expr_compile(const struct gs_expr *e, const struct gs_scope *sc,
				struct gs_diag *d);
void gs_code_free(struct gs_code *c);

/* The evaluator.  One per thread; holds the stack, locals and the scratch
 * arena in which temporaries live until the next gs_vm_reset. */
struct gs_vm {
	struct gs_value *stack;
	size_t stack_cap;
	struct gs_value *locals;
	size_t locals_cap;
	struct gs_arena scratch;
	struct gs_arena_mark base;
	/* the last error */
	struct gs_loc err_loc;
	char err[256];
	uint64_t steps; /* budget against runaway comprehensions */
};

void gs_vm_init(struct gs_vm *vm);
void gs_vm_release(struct gs_vm *vm);
/* Frees every temporary made since the last reset. */
void gs_vm_reset(struct gs_vm *vm);
/* Evaluate; 0 on success, -1 with vm->err / vm->err_loc set. */
int gs_vm_eval(struct gs_vm *vm, const struct gs_code *c, const struct gs_value *env,
	       struct gs_value *out);

#endif
