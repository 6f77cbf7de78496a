/* query.h — the reports of `gsearch query` and `gsearch show`, read from a store.
 *
 * A report reads one sweep (`summary` may read them all) through a catalogue
 * of *fields*: the sweep's parameters, the figures and resources of the
 * result and variant tables, and the keys of its metrics and counters JSON.
 * Fields are what `--where`, `--by`, `--min` and `--max` name.  Rows are read
 * with SQL built from constant fragments of this module; names, JSON paths and
 * values are bound, so no text of the user's is spliced into SQL.  The
 * `--where` filter is an expression of the space language, compiled once and
 * evaluated by gsearch on each row.
 *
 * Every gs_query_* function prints its report to q->out, and its errors to
 * stderr, and returns an exit code (GS_EXIT_*).  The caller owns the store;
 * what a report allocates it frees. */
#ifndef GS_QUERY_H
#define GS_QUERY_H

#include <stdint.h>
#include <stdio.h>

#include "lang/expr.h"

struct sqlite3;
struct sqlite3_stmt;

enum gs_qformat { GS_QF_TABLE, GS_QF_CSV, GS_QF_JSON };

/* What the command line asked, shared by every report. */
struct gs_query {
	struct sqlite3 *db;
	const char *path;   /* the store, as named */
	int64_t sweep;      /* 0: the newest */
	const char *where;  /* expression text, or NULL */
	enum gs_qformat fmt;
	const char *plot;   /* FILE.png or FILE.svg, or NULL */
	FILE *out;
	int schema;         /* the store's schema version, set by gs_query_open */
};

/* Open the store at `path` read-only for q (sets q->db and q->path): any
 * gsearch store from schema 3 on, never migrated.  Prints the error and
 * returns -1. */
int gs_query_open(struct gs_query *q, const char *path);
void gs_query_close(struct gs_query *q);

/* ---- fields ---------------------------------------------------------------- */

enum gs_qkind {
	GS_QK_PARAM,   /* a parameter: json_extract(c.params, path) */
	GS_QK_COL,     /* a column of config, result or variant */
	GS_QK_METRIC,  /* json_extract(r.metrics, path) */
	GS_QK_COUNTER, /* json_extract(r.counters, path) */
};

struct gs_qfield {
	char *name;
	enum gs_qkind kind;
	const char *sql;   /* GS_QK_COL: an SQL expression (a constant of fields.c) */
	char *path;        /* the others: a JSON path, bound as a parameter */
	const char *label; /* short header for tables */
	const char *unit;  /* "ms", "J", ... or "" */
	unsigned type;     /* static type mask, for the expression compiler */
	int needs_config;  /* reads c.* */
	int needs_variant; /* reads v.* */
	int higher;        /* 1: more is better (occupancy, a metric) */
};

/* One sweep and its field catalogue (owned; gs_qsweep_release frees). */
struct gs_qsweep {
	int64_t id;
	char *space, *space_path, *device, *problem, *status, *created_at, *started_at,
		*finished_at, *host, *version;
	double wall_s, compile_s, device_s; /* < 0: not recorded */
	/* schema 6 on; < 0: not recorded */
	int compile_threads;
	int64_t worker_restarts;
	double restart_s, timed_s;
	int modeled;         /* the device is emulated: times come from a model */
	int64_t baseline;    /* the hand-picked configuration's index, -1: none */
	char *shard;         /* "i/N" */
	char *baseline_json; /* schema 7 on: the space's baseline, "null": it names
			      * none; NULL: not recorded */
	char *source_format; /* schema 8 on: "kernel_tuner_cache" for an imported
			      * sweep; NULL: measured by gsearch */
	char *source_path;   /* the file it was imported from */
	char *modeled_at;    /* an emulated sweep's real problem values (JSON), at
			      * which its times are modeled; NULL: not recorded */
	int unvalidated;     /* the sweep recorded that its space has no reference:
			      * an ok result ran, nothing checked its outputs */
	char **params;       /* declaration order */
	size_t nparams;
	struct gs_value *domains; /* each parameter's values, a list, in sw->arena */
	struct gs_qfield *fields;
	size_t nfields;
	struct gs_arena arena;
};

/* The sweep q->sweep names (the newest when 0), with its catalogue.  Prints
 * the error (empty store, unknown sweep) and returns -1. */
int gs_qsweep_load(struct gs_query *q, int64_t id, struct gs_qsweep *sw);
void gs_qsweep_release(struct gs_qsweep *sw);
/* Why sw has no baseline configuration (sw->baseline < 0): a phrase for
 * people in *why ("the space names no baseline"), and a word for scripts,
 * returned: "none", "other_shard", "invalid", "not_stored" or "unknown". */
const char *gs_qsweep_no_baseline(struct gs_query *q, const struct gs_qsweep *sw,
				  struct gs_buf *why);
/* The field called `name` (aliases: regs, smem), or -1. */
int gs_qsweep_field(const struct gs_qsweep *sw, const char *name);
/* Like gs_qsweep_field, but prints "unknown field 'X'" with a "did you mean"
 * note and the list of fields for `what` ("--by") when there is none. */
int gs_qsweep_field_or_report(const struct gs_qsweep *sw, const char *name, const char *what);
/* Is `name` a parameter?  Its index, or -1. */
int gs_qsweep_param(const struct gs_qsweep *sw, const char *name);
/* The sweep ids of the store, ascending (malloc'd), *n of them. */
int64_t *gs_query_sweep_ids(struct gs_query *q, size_t *n);

/* ---- rows ---------------------------------------------------------------- */

/* The --where filter, compiled against a sweep's fields. */
struct gs_qfilter {
	struct gs_source *src;
	struct gs_code *code;
	struct gs_vm vm;
	int64_t skipped; /* rows left out because a field the filter reads is empty */
};
/* NULL text: no filter (every row passes).  Prints errors and returns -1. */
int gs_qfilter_init(struct gs_qfilter *f, const struct gs_qsweep *sw, const char *text);
void gs_qfilter_release(struct gs_qfilter *f);

/* Which rows to read and in which order. */
struct gs_qspec {
	int ok_only;       /* only status 'ok' */
	int order;         /* field to order by, -1: by index */
	int desc;
	const int *want;   /* fields to read besides those the filter reads */
	size_t nwant;
	int64_t idx;       /* >= 0: that configuration only */
	int params;        /* also read c.params as JSON text */
};

/* An iterator over the rows of a sweep that pass the filter.  Each row is an
 * environment indexed by field number (unread fields are None); strings are
 * interned in the iterator and live as long as it. */
struct gs_qrows;
int gs_qrows_open(struct gs_qrows **out, struct gs_query *q, struct gs_qsweep *sw,
		  struct gs_qfilter *f, const struct gs_qspec *spec);
/* 1: a row; 0: the end; -1: an error, printed. */
int gs_qrows_next(struct gs_qrows *r);
const struct gs_value *gs_qrows_env(const struct gs_qrows *r);
int64_t gs_qrows_idx(const struct gs_qrows *r);
const char *gs_qrows_status(const struct gs_qrows *r); /* NULL: no outcome yet */
const char *gs_qrows_params(const struct gs_qrows *r); /* spec->params only */
void gs_qrows_close(struct gs_qrows *r);

/* Among the ok configurations that pass f and have field `by`: *total of
 * them, and *better whose value is better than x (lower, or higher with
 * desc), so that x ranks *better + 1.  0, or -1 after printing an error. */
int gs_qcount_better(struct gs_query *q, struct gs_qsweep *sw, struct gs_qfilter *f, int by,
		     int desc, double x, int64_t *better, int64_t *total);

/* A number from a value (bool, int, float); 0 with *ok = 0 otherwise. */
double gs_qnum(struct gs_value v, int *ok);

/* ---- output ---------------------------------------------------------------- */

/* An aligned table that fits 100 columns, or CSV.  When the columns do not
 * fit, the parameter columns (marked with gs_qtable_params) become one
 * "parameters" column of NAME=VALUE words at the end, which wraps.  Cells
 * are copied; each has a display text and a CSV text (full precision, empty
 * for "none"). */
struct gs_qtable;
struct gs_qtable *gs_qtable_new(void);
/* right: right-aligned (numbers); csv_name: the CSV header (NULL: header). */
void gs_qtable_col(struct gs_qtable *t, const char *header, const char *csv_name, int right);
/* The columns [first, first + n) are parameters. */
void gs_qtable_params(struct gs_qtable *t, size_t first, size_t n);
/* csv NULL: the same as text. */
void gs_qtable_cell(struct gs_qtable *t, const char *text, const char *csv);
void gs_qtable_cellf(struct gs_qtable *t, const char *fmt, ...) GS_PRINTF(2, 3);
/* A value: formatted with gs_qfmt for the table, exactly for CSV. */
void gs_qtable_value(struct gs_qtable *t, struct gs_value v);
void gs_qtable_print(struct gs_qtable *t, FILE *f, int csv);
/* One CSV field, quoted when it must be (RFC 4180). */
void gs_qcsv_field(FILE *f, const char *s);
void gs_qtable_free(struct gs_qtable *t);

/* "  label         text", the text wrapped at 100 columns under itself. */
void gs_qprint_line(FILE *f, const char *label, const char *text);
/* A paragraph, wrapped at 100 columns. */
void gs_qprint_para(FILE *f, const char *text);
/* The first line of every text report: "sweep 3: matmul on DEVICE, WHEN",
 * since a report shows the newest sweep unless told otherwise. */
void gs_qprint_sweep(FILE *f, const struct gs_qsweep *sw);

/* A value as a table cell: numbers with 4 significant digits, strings bare,
 * None as "-". */
void gs_qfmt(struct gs_buf *b, struct gs_value v);
/* A figure in the unit of its field ("10.54"), with 4 significant digits. */
void gs_qfmt_num(struct gs_buf *b, double x);
/* A value exactly: Python's repr for numbers, strings bare, None empty. */
void gs_qfmt_exact(struct gs_buf *b, struct gs_value v);
/* "TILE=32 RECT=4" from the canonical params JSON. */
void gs_qfmt_params(struct gs_buf *b, const char *params_json);
/* Write a JSON value (jansson's json_t *) with a newline, and free it. */
void gs_qjson_print(FILE *f, void *json);
/* A gs_value as a new jansson value (None as null). */
void *gs_qjson_value(struct gs_value v);
/* Into the jansson object obj, a row's fields from env (the sweep's
 * fields): each column but idx, baseline and status (which the caller
 * writes, in its own way), then "metrics" and "counters" as objects. */
void gs_qjson_row_fields(void *obj, const struct gs_qsweep *sw, const struct gs_value *env);
/* The params JSON text parsed as a jansson object (an empty one if bad). */
void *gs_qjson_params(const char *params_json);

/* ---- plots ------------------------------------------------------------------ */

/* Run gnuplot on `script` (which holds its data as datablocks) to draw
 * `file`, whose extension picks the terminal (.png or .svg).  Prints an error
 * and returns -1 when gnuplot is missing or fails. */
int gs_plot_run(const char *file, const char *script);
/* "set terminal ...; set output ..." for `file`, or -1 for an extension
 * other than .png and .svg (error printed). */
int gs_plot_terminal(struct gs_buf *b, const char *file, int width, int height);
/* A string as a gnuplot string literal. */
void gs_plot_str(struct gs_buf *b, const char *s);
/* Is the --plot file name usable (.png or .svg, no control character)?
 * Prints the error. */
int gs_plot_check(const char *file);
/* Can the --plot file be written, and is it not a terminal?  Opens it to
 * see (leaving no file behind that was not there); prints the error. */
int gs_plot_writable(const char *file);

/* ---- reports ------------------------------------------------------------------ */

int gs_query_summary(struct gs_query *q);
int gs_query_top(struct gs_query *q, long n, const char *by, int desc_given, int desc);
/* objectives: field names; maximize[i] != 0 for --max. */
int gs_query_pareto(struct gs_query *q, const char *const *objectives, const int *maximize,
		    size_t n);
int gs_query_compare(struct gs_query *q);
int gs_query_compare_sweeps(struct gs_query *q, int64_t a, int64_t b);
int gs_query_sensitivity(struct gs_query *q, const char *param, const char *by);
enum gs_qexport { GS_QX_CSV, GS_QX_JSON, GS_QX_T4 };
int gs_query_export(struct gs_query *q, enum gs_qexport how);
/* `query export --kt-cache`: the sweep as a Kernel Tuner cache file. */
int gs_query_export_kt(struct gs_query *q);
/* `query progress`: the best so far against evaluations and time. */
int gs_query_progress(struct gs_query *q);

/* What every export starts with: the sweep, its --where filter, and *want
 * listing every field (the caller frees it).  0, or 1 after the error was
 * printed. */
int gs_qexport_begin(struct gs_query *q, struct gs_qsweep *sw, struct gs_qfilter *f, int **want);
/* An imported result's fields that have no column (result.source_entry,
 * schema 8 on): the statement (NULL without the column), then one JSON
 * object a result, or NULL. */
struct sqlite3_stmt *gs_qsource_prepare(struct gs_query *q);
struct json_t *gs_qsource_entry(struct sqlite3_stmt *se, int64_t sweep, int64_t idx);
/* `gsearch show`: one configuration in full; ptx_lines < 0 prints all. */
int gs_query_show(struct gs_query *q, int64_t idx, long ptx_lines);

#endif
