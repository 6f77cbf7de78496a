/* lang.h — front end of the space language: lex, parse, check.
 *
 * gs_space_load reads a space file (the space language, or T1 JSON when the
 * file name ends in .json or the text starts with '{') and returns the space,
 * checked and ready for enumeration unless errors were recorded in `d`.  It
 * returns a space even after errors, because the diagnostics point into the
 * sources the space owns: print them, then gs_space_free.  NULL only when the
 * file could not be read. */
#ifndef GS_LANG_H
#define GS_LANG_H

#include <stddef.h>

#include "diag.h"

struct gs_space;

/* A kernel file's text given by the caller, under its resolved path (the
 * space file's directory joined to the name the space gives). */
struct gs_file_text {
	const char *path;
	const char *text;
	size_t len;
};

struct gs_space_opts {
	const char *const *sets; /* "NAME=EXPR" overrides of problem constants */
	size_t nsets;
	int emu; /* use the problems' emulator values */
	/* when files is not NULL, kernel files come from it and never from
	 * the disk; one it lacks is an error */
	const struct gs_file_text *files;
	size_t nfiles;
};

struct gs_space *gs_space_load(const char *path, const struct gs_space_opts *o, struct gs_diag *d);
/* Takes ownership of src. */
struct gs_space *gs_space_parse(struct gs_source *src, const struct gs_space_opts *o,
				struct gs_diag *d);
void gs_space_free(struct gs_space *sp);

/* T1 JSON (the auto-tuning community's input format) translated into space
 * language text, appended to `out`.  Errors and notes about what cannot be
 * mapped are recorded in `d` against `json`.  Returns 0, or -1 on errors. */
int gs_t1_to_space(const struct gs_source *json, struct gs_buf *out, struct gs_diag *d);

#endif
