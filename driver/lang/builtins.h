/* builtins.h — the families of builtin functions that the type checker
 * (compile.c) and the VM (vm.c) each treat as one case, listed once here
 * so that a function added to a family is typed and run alike.  The
 * builtins themselves, with their names and arities, are GS_BUILTINS in
 * lang/expr.h. */
#ifndef GS_LANG_BUILTINS_H
#define GS_LANG_BUILTINS_H

/* A number in, a float out, through libm with the domain checks of
 * Python's math module. */
#define GS_MATH_BUILTINS(X) X(SQRT) X(EXP) X(LOG) X(LOG2) X(LOG10) X(SIN) X(COS) X(TAN)

/* A number in, rounded to an integer (math.ceil, floor, trunc). */
#define GS_ROUNDING_BUILTINS(X) X(CEIL) X(FLOOR) X(TRUNC)

/* A family as the case labels of a switch on enum gs_builtin:
 *     GS_MATH_BUILTINS(GS_BUILTIN_CASE)  */
#define GS_BUILTIN_CASE(id) case GS_B_##id:

#endif
