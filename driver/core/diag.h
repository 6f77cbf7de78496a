/* diag.h — source files, locations and compiler-style diagnostics.
 *
 * Errors are collected, never fatal: a pass records as many as it can find and
 * the command prints them all with gs_diag_print, as
 *     file:line:col: error: message
 *      12 | param TIEL in [8, 16]
 *         |       ^~~~
 *     file:line:col: note: ...
 * Columns count characters (UTF-8 code points), from 1.  Very long lines are
 * shown as a window around the caret.
 *
 * Ownership: a gs_source owns its name and text; gs_diag copies every message
 * and holds pointers to sources, which must outlive it.
 *
 * core/, not util/: util/ holds C helpers that know nothing of gsearch
 * (buffers, arenas, hashing); core/ holds the types of gsearch that every
 * stage shares — diagnostics, values, expressions, result-field names — as
 * Lua keeps its in lobject.h.  Both sit below every stage, so any directory
 * of driver/ may include them and they include nothing above util/. */
#ifndef GS_DIAG_H
#define GS_DIAG_H

#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

struct gs_source {
	char *name; /* as the user named it */
	char *text; /* NUL-terminated */
	size_t len;
};

/* Load a file; on failure records an error (no location) and returns NULL. */
struct gs_diag;
struct gs_source *gs_source_load(const char *path, struct gs_diag *d);
struct gs_source *gs_source_new(const char *name, const char *text, size_t len);
void gs_source_free(struct gs_source *s);

struct gs_loc {
	const struct gs_source *src; /* NULL: no location */
	uint32_t off;                /* byte offset of the first character */
	uint32_t len;                /* bytes underlined; 0 or 1 gives one caret */
};
#define GS_NOLOC ((struct gs_loc){ NULL, 0, 0 })

/* 1-based line and column (in characters) of a location. */
void gs_loc_linecol(struct gs_loc loc, unsigned *line, unsigned *col);

enum gs_severity { GS_ERROR, GS_WARNING, GS_NOTE };

struct gs_diag_msg {
	enum gs_severity sev;
	struct gs_loc loc;
	char *text;
};

struct gs_diag {
	struct gs_diag_msg *msgs;
	size_t n, cap;
	unsigned errors, warnings;
	unsigned max_errors; /* stop recording errors after this many (0: 100) */
};
#define GS_DIAG_INIT { NULL, 0, 0, 0, 0, 0 }

void gs_diag_error(struct gs_diag *d, struct gs_loc loc, const char *fmt, ...) GS_PRINTF(3, 4);
void gs_diag_warning(struct gs_diag *d, struct gs_loc loc, const char *fmt, ...) GS_PRINTF(3, 4);
/* A note belongs to the error or warning recorded just before it. */
void gs_diag_note(struct gs_diag *d, struct gs_loc loc, const char *fmt, ...) GS_PRINTF(3, 4);
void gs_diag_add(struct gs_diag *d, enum gs_severity sev, struct gs_loc loc, const char *fmt, ...)
	GS_PRINTF(4, 5);
void gs_diag_vadd(struct gs_diag *d, enum gs_severity sev, struct gs_loc loc, const char *fmt,
		  va_list ap);
/* "did you mean 'X'?" note, if some candidate is close to `name`. */
void gs_diag_suggest(struct gs_diag *d, struct gs_loc loc, const char *name,
		     const char *const *cands, size_t ncands);
void gs_diag_print(const struct gs_diag *d, FILE *f);
void gs_diag_clear(struct gs_diag *d);
void gs_diag_release(struct gs_diag *d);

#endif
