/* space.h — a checked space description: the model every later stage reads.
 *
 * Built by this directory's front end (load.c: parse.c, then check.c) and
 * read-only afterwards.  Everything in it — names, trees, values — lives in
 * the space's arena or is owned by the space, and gs_space_free releases it
 * all.
 *
 * Environment slots: every name an expression can read is a slot of one
 * value array (the environment).  Problems come first, then parameters, lets,
 * the launch and fill indices, and the figures metrics read.  gs_space.env0
 * holds the problem values; enumeration copies it and fills the rest. */
#ifndef GS_SPACE_H
#define GS_SPACE_H

#include <stdint.h>

#include "core/diag.h"
#include "core/expr.h"
#include "core/value.h"

/* Element types of buffers: name, C aliases, size in bytes, integer?, signed? */
#define GS_BTYPES(X)                                                                              \
	X(FLOAT, "float", "float32", 4, 0, 1)                                                      \
	X(DOUBLE, "double", "float64", 8, 0, 1)                                                    \
	X(INT8, "int8", "char", 1, 1, 1)                                                           \
	X(UINT8, "uint8", "uchar", 1, 1, 0)                                                        \
	X(INT16, "int16", "short", 2, 1, 1)                                                        \
	X(UINT16, "uint16", "ushort", 2, 1, 0)                                                     \
	X(INT32, "int32", "int", 4, 1, 1)                                                          \
	X(UINT32, "uint32", "uint", 4, 1, 0)                                                       \
	X(INT64, "int64", "long", 8, 1, 1)                                                         \
	X(UINT64, "uint64", "ulong", 8, 1, 0)

enum gs_btype {
#define X(id, name, alias, size, isint, issigned) GS_BT_##id,
	GS_BTYPES(X)
#undef X
	GS_BT_COUNT
};

int gs_btype_lookup(const char *name); /* -1 if unknown */
const char *gs_btype_name(int t);
unsigned gs_btype_size(int t);
int gs_btype_is_int(int t);

/* Figures a metric may read, measured per configuration. */
#define GS_FIGURES(X)                                                                             \
	X(TIME_MS, "time_ms")                                                                      \
	X(MIN_MS, "min_ms")                                                                        \
	X(ENERGY_J, "energy_j")                                                                    \
	X(POWER_W, "power_w")

enum gs_figure {
#define X(id, name) GS_FIG_##id,
	GS_FIGURES(X)
#undef X
	GS_FIG_COUNT
};

/* A text with {EXPR} holes, e.g. "-maxrregcount={MAXREG}". */
struct gs_tmpl_part {
	char *lit;             /* literal text before the hole */
	struct gs_expr *expr;  /* the hole; NULL for the trailing literal */
	struct gs_code *code;
};
struct gs_tmpl {
	struct gs_loc loc;
	struct gs_tmpl_part *parts;
	size_t n;
};

struct gs_problem {
	char *name;
	struct gs_loc loc;
	struct gs_expr *expr, *emu_expr;
	struct gs_value value; /* the one in force (after --set and emu) */
	int slot;
	int overridden; /* by --set */
};

struct gs_param {
	char *name;
	struct gs_loc loc;
	struct gs_expr *dom_expr;
	struct gs_value *vals; /* the domain, in order */
	size_t nvals;
	unsigned type;         /* union of the values' types */
	int slot;
	int define;            /* pass as -D NAME=value */
	struct gs_tmpl *option;
	struct gs_expr *option_if;
	struct gs_code *option_if_code;
};

struct gs_let {
	char *name;
	struct gs_loc loc;
	struct gs_expr *expr;
	struct gs_code *code;
	unsigned type;
	int slot;
	int level; /* -1: constant; else the parameter index it waits for */
	int define;
	int state; /* checker's cycle detection */
};

struct gs_require {
	struct gs_loc loc;
	struct gs_expr *expr;
	struct gs_code *code;
	char *msg;
	int level;
};

struct gs_option {
	struct gs_tmpl *text;
	struct gs_expr *cond;
	struct gs_code *cond_code;
};

struct gs_geom {
	struct gs_loc loc;
	int n; /* 0: not given */
	struct gs_expr *e[3];
	struct gs_code *c[3];
};

#define GS_BUFKINDS(X) X(INPUT, "input") X(OUTPUT, "output") X(INOUT, "inout") X(SCRATCH, "scratch")
enum gs_bufkind {
#define X(id, name) GS_BUF_##id,
	GS_BUFKINDS(X)
#undef X
};

enum gs_fillkind { GS_FILL_NONE, GS_FILL_ZERO, GS_FILL_RANDOM, GS_FILL_VALUE, GS_FILL_INDEX, GS_FILL_FILE };

struct gs_fill {
	enum gs_fillkind kind;
	struct gs_loc loc;
	struct gs_expr *seed, *lo, *hi, *value; /* value: VALUE and INDEX */
	struct gs_code *seed_c, *lo_c, *hi_c, *value_c;
	char *path; /* FILE, resolved against the space's directory */
};

struct gs_buffer {
	char *name;
	struct gs_loc loc;
	enum gs_bufkind kind;
	int type; /* enum gs_btype */
	struct gs_expr *count;
	struct gs_code *count_c;
	int64_t n; /* element count, evaluated */
	struct gs_fill fill;
	struct gs_expr *tol;
	struct gs_code *tol_c;
	double tolerance; /* < 0: exact */
};

struct gs_arg {
	struct gs_loc loc;
	int buffer; /* index into buffers, or -1 for a scalar */
	int type;   /* enum gs_btype of a scalar */
	struct gs_expr *expr;
	struct gs_code *code;
};

struct gs_copy {
	struct gs_loc loc;
	char *bufname;
	int buffer;
	struct gs_expr *start, *end; /* NULL: whole buffer */
	struct gs_code *start_c, *end_c;
	char *symbol;
};

struct gs_launch {
	struct gs_loc loc;
	char *kernel;
	int reference;
	int file; /* index into files */
	struct gs_arg *args;
	size_t nargs;
	char *loop_var;
	struct gs_loc loop_loc;
	struct gs_expr *loop;
	struct gs_code *loop_c;
	int loop_slot;
	struct gs_copy *copies;
	size_t ncopies;
	struct gs_geom block, grid;
	struct gs_expr *shared;
	struct gs_code *shared_c;
};

struct gs_metric {
	char *name;
	struct gs_loc loc;
	struct gs_expr *expr;
	struct gs_code *code;
	int higher; /* bigger is better */
};

struct gs_kfile {
	struct gs_loc loc; /* where the file is named */
	char *path; /* as resolved: relative to the space file's directory */
	char *text;
	size_t len;
};

struct gs_file_text;

struct gs_space {
	struct gs_source *src;
	char *name; /* file name without directory and extension */
	char *dir;  /* directory of the space file */
	int is_t1;
	/* a T1 file that gives its grid both ways: the one not launched (n is
	 * 0 otherwise), compiled like `grid`, for `check` to compare */
	struct gs_geom t1_other_grid;
	int t1_grid_used; /* enum gs_t1_grid: where `grid` comes from */
	struct gs_loc t1_global_loc, t1_problem_loc; /* in the JSON */
	int emu;
	struct gs_arena arena;
	struct gs_source **extra; /* --set texts, T1 translations: owned */
	size_t nextra;

	char *kernel; /* default entry: the identifier launches call it by */
	struct gs_tmpl *kernel_tmpl; /* its name expression, e.g. "matmul<{TILE}>", or NULL */
	struct gs_loc kernel_loc;
	struct gs_kfile *files;
	size_t nfiles;
	const struct gs_file_text *given; /* gs_space_opts.files, for the checker */
	size_t ngiven;

	struct gs_problem *problems;
	size_t nproblems;
	struct gs_param *params;
	size_t nparams;
	struct gs_let *lets;
	size_t nlets;
	struct gs_require *requires;
	size_t nrequires;
	struct gs_option *options;
	size_t noptions;
	struct gs_buffer *buffers;
	size_t nbuffers;
	struct gs_launch *launches; /* measured launches, in order */
	size_t nlaunches;
	struct gs_launch *refs; /* reference launches, in order */
	size_t nrefs;
	struct gs_metric *metrics;
	size_t nmetrics;
	struct gs_geom block, grid;
	struct gs_expr *shared;
	struct gs_code *shared_c;

	struct gs_value *baseline; /* an environment (nslots) with the baseline's values, or NULL */
	struct gs_loc baseline_loc;
	struct gs_expr **baseline_exprs;
	struct gs_loc *baseline_locs;

	struct gs_expr *timeout_e;
	double timeout; /* seconds */

	/* environment */
	size_t nslots;
	char **slot_names;
	struct gs_value *env0;
	int fill_slot;            /* `i` in index() fills */
	int figure_slot;          /* first of GS_FIG_COUNT */

	/* enumeration plan: for each parameter index k, the lets to compute and
	 * the requires to check once parameters 0..k are bound (level k);
	 * level -1 entries are evaluated once. */
	int **level_lets;
	size_t *level_nlets;
	int **level_reqs;
	size_t *level_nreqs;
	int *const_lets;
	size_t nconst_lets;
	int *const_reqs;
	size_t nconst_reqs;
};

#endif
