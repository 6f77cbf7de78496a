/* load.h — the front end of space descriptions: read, parse, check.
 *
 * The space language's statements are parsed (parse.c) and checked
 * (check.c) here, beside the gs_space they build, on the lexer, compiler and
 * evaluator of the expression language (lang/).  T1 JSON is translated into
 * the space language first (t1.c), so both formats share one checker.
 *
 * gs_space_load reads a space file (the space language, or T1 JSON when the
 * file name ends in .json or the text starts with '{') and returns the space,
 * checked and ready for enumeration unless errors were recorded in `d`.  It
 * returns a space even after errors, because the diagnostics point into the
 * sources the space owns: print them, then gs_space_free.  NULL only when the
 * file could not be read. */
#ifndef GS_SPACE_LOAD_H
#define GS_SPACE_LOAD_H

#include <stddef.h>

#include "core/diag.h"

struct gs_space;

/* A kernel file's text given by the caller, under its resolved path (the
 * space file's directory joined to the name the space gives). */
struct gs_file_text {
	const char *path;
	const char *text;
	size_t len;
};

/* A T1 file may give its grid twice: as GlobalSize, and as Kernel Tuner
 * computes it from ProblemSize and GridDivX/Y/Z.  Which one is launched. */
enum gs_t1_grid {
	GS_T1_GRID_PROBLEM, /* ProblemSize / GridDiv, as Kernel Tuner does: the default */
	GS_T1_GRID_GLOBAL,  /* GlobalSize (with GlobalSizeType) */
};

struct gs_space_opts {
	const char *const *sets; /* "NAME=EXPR" overrides of problem constants */
	size_t nsets;
	int emu; /* use the problems' emulator values */
	enum gs_t1_grid t1_grid;
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

/* What a translation says about the grid beyond the text: when the file
 * gives it both ways, the one not launched, for `check` to compare. */
struct gs_t1_grid_info {
	enum gs_t1_grid used; /* where the `grid` statement comes from */
	char *other[3];       /* the other grid per dimension, as expression text
			       * (owned: gs_t1_grid_info_release); NULL: none */
	int nother;           /* its dimensions; 0 when the file gives one grid */
	struct gs_loc global_loc, problem_loc; /* the GlobalSize and ProblemSize keys */
};
void gs_t1_grid_info_release(struct gs_t1_grid_info *g);

/* T1 JSON (the auto-tuning community's input format) translated into space
 * language text, appended to `out`, launching the grid `grid` picks where
 * the file gives two.  Errors and notes about what cannot be mapped are
 * recorded in `d` against `json`.  `info` (or NULL) gets the other grid.
 * Returns 0, or -1 on errors. */
int gs_t1_to_space(const struct gs_source *json, enum gs_t1_grid grid, struct gs_buf *out,
		   struct gs_t1_grid_info *info, struct gs_diag *d);

#endif
