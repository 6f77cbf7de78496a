/* parse.h — interface between the parser and the checker, and the parser of
 * a lone expression (a --where filter, a template hole). */
#ifndef GS_PARSE_H
#define GS_PARSE_H

#include "lang/lex.h"
#include "space/space.h"

/* Parse the statements of sp->src into sp (trees only, nothing evaluated).
 * Returns the number of errors recorded. */
int gs_parse_space(struct gs_space *sp, struct gs_diag *d);
/* Parse one expression from the bytes [start, end) of src, e.g. a --set
 * value or a template hole.  NULL after recording errors. */
struct gs_expr *gs_parse_expr_range(struct gs_arena *a, const struct gs_source *src, size_t start,
				    size_t end, struct gs_diag *d);
/* Resolve names, evaluate constants and domains, compile every expression
 * and plan the enumeration.  Returns the number of errors recorded. */
int gs_check_space(struct gs_space *sp, const char *const *sets, size_t nsets, struct gs_diag *d);

#endif
