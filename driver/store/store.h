/* store.h — the SQLite store: schema, migrations, sweeps and configurations.
 *
 * One file per campaign, WAL mode, schema versioned with PRAGMA user_version.
 * The supervisor holds the only writer connection.  Every function returns 0
 * or a negative code; on failure a message is recorded in the store and can be
 * read with gs_store_errmsg.  The message says what failed ("cannot commit:
 * database or disk is full"): print it as it is, without a prefix of your
 * own, which would say it twice.  The store owns its connection and statements;
 * gs_store_close releases them all.
 *
 * Codes: -EEXIST a configuration stored with other parameters, -EBUSY the
 * database stayed locked past the busy timeout, -EINVAL bad arguments,
 * -EPROTO not a gsearch database or a schema this gsearch cannot use,
 * -ENOENT a missing file (read-only open) or sweep, -EIO anything else
 * SQLite reports. */
#ifndef GS_STORE_H
#define GS_STORE_H

#include <stddef.h>
#include <stdint.h>

#define GS_STORE_SCHEMA_VERSION 10

struct gs_store;

/* Opens (creating if needed, with its parent directory) and migrates the
 * schema to GS_STORE_SCHEMA_VERSION.  A file written by a newer gsearch is
 * refused.  readonly != 0 opens without creating or migrating.  *out is set
 * even on failure, so that gs_store_errmsg can say why; the caller always
 * closes it. */
int gs_store_open(struct gs_store **out, const char *path, int readonly);
void gs_store_close(struct gs_store *s);
const char *gs_store_errmsg(const struct gs_store *s);
/* For a SQLite error code that says the file is damaged, a note that says
 * how to recover what it holds (valid until the next call in the thread);
 * "" for any other code. */
const char *gs_store_damage_hint(int rc, const char *path);
int gs_store_schema_version(struct gs_store *s);

struct gs_buf;
/* Appends name to b as an SQL identifier: in double quotes, quotes doubled. */
void gs_store_put_ident(struct gs_buf *b, const char *name);

/* What identifies a sweep.  Two runs with the same identity hash are the same
 * sweep (the second resumes the first).  The hashes are 32 hex digits. */
struct gs_sweep_ident {
	const char *space_name;   /* "matmul" */
	const char *space_path;   /* as given on the command line */
	const char *space_hash;   /* hash of the space text */
	const char *kernel_hash;  /* hash of every kernel source, in order */
	const char *problem_json; /* {"N": 4096} after --set / emu sizes */
	const char *options_json; /* measurement options that change results */
	const char *device;       /* "cuda:0 NVIDIA H100 ...", "emu:sm_90" */
	const char *params_json;  /* [{"name":"TILE","values":[8,16]}, ...] */
	const char *shard;        /* "0/1" */
	/* not part of the identity (the space hash covers it): the baseline as
	 * canonical params JSON, "null" when the space names none, NULL when
	 * not known */
	const char *baseline_json;
	const char *ident_hash;   /* hash of all the above but space_path */
};

/* The identity hash of a sweep (32 hex digits): over every field of id but
 * space_path, baseline_json and ident_hash.  Runs and merges compute it the same way, so a
 * merge of shards finds or makes the very sweep an unsharded run would. */
void gs_sweep_ident_hash(const struct gs_sweep_ident *id, char out[33]);

/* Finds the sweep with this identity or creates it (status 'created').
 * *created tells which. */
int gs_store_sweep_open(struct gs_store *s, const struct gs_sweep_ident *id, int64_t *sweep_id,
			int *created);
/* status: "created", "running", "interrupted", "done" ...  "running" also
 * sets started_at (first start only) and clears finished_at; "done",
 * "interrupted" and "failed" set finished_at. */
int gs_store_sweep_set_status(struct gs_store *s, int64_t sweep_id, const char *status);
/* What one run of a sweep cost. */
struct gs_sweep_times {
	double wall_s, compile_busy_s, device_busy_s;
	int compile_threads;
	uint64_t worker_restarts;
	double restart_s; /* from a replacement's start to its ready */
	double timed_s;   /* timed kernel work the results report */
};
/* Adds one run's times to the sweep's totals (a resumed sweep accumulates
 * its runs); compile_threads keeps the most any run used, which bounds how
 * fast its compiles could go. */
int gs_store_sweep_add_times(struct gs_store *s, int64_t sweep_id, const struct gs_sweep_times *t);
/* Number of config rows this sweep has. */
int gs_store_config_count(struct gs_store *s, int64_t sweep_id, int64_t *n);

/* Configuration rows are written in batches inside one transaction:
 *   gs_store_begin; gs_store_config_add ...; gs_store_commit
 * idx is the enumeration index among valid configurations; params_json is the
 * canonical {"TILE":16,...} in declaration order.  Adding an existing idx with
 * the same parameters is a no-op; with different parameters it is an error. */
int gs_store_begin(struct gs_store *s);
int gs_store_commit(struct gs_store *s);
int gs_store_rollback(struct gs_store *s);
int gs_store_config_add(struct gs_store *s, int64_t sweep_id, int64_t idx, const char *params_json,
			int baseline);

/* (Re)creates the views for a sweep: "sweep_<id>" with one column per
 * parameter (names given in declaration order), joined with its results, and
 * "<space_name>" for the newest sweep of that space. */
int gs_store_views(struct gs_store *s, int64_t sweep_id, const char *space_name,
		   const char *const *params, size_t nparams);

/* The store's connection, for modules that run their own SQL (query,
 * merge).  Owned by the store: do not close it. */
struct sqlite3;
struct sqlite3 *gs_store_sqlite(struct gs_store *s);

/* The compile cache.  Rows are immutable: a hash names one content forever. */
struct gs_variant_row {
	const char *hash;
	const char *status; /* "ok" or "compile_error" */
	const char *log, *ptx;
	const void *cubin;
	size_t cubin_len;
	const char *arch, *nvrtc_version, *options;
	int registers, static_smem, local_bytes, spill_stores, spill_loads, max_threads;
	double compile_s;
	const char *entries; /* JSON list of lowered names */
};
/* The cubin, entries and (when ptx is not NULL) the PTX of a cached variant
 * (malloc'd, caller frees). */
int gs_store_variant_image(struct gs_store *s, const char *hash, void **cubin, size_t *len,
			   char **entries, char **ptx);

/* A measured outcome (any status); replaces an earlier one.  NULL strings
 * and negative figures are stored as NULL. */
struct gs_result_row {
	int64_t sweep_id, idx;
	const char *variant_hash, *status, *limiter, *error, *metrics, *counters, *device;
	double time_ms, min_ms, iqr_ms;
	int reps, blocks_per_sm;
	int modeled; /* time_ms is a model's */
	double occupancy, energy_j, power_w, sm_clock_mhz, temp_c, max_abs_err, max_rel_err;
	double ci_lo_ms, ci_hi_ms, ci_pct, timed_ms;
	int runs, warmups;
	const char *ident; /* what determined it (sched/ident.h); NULL: unknown */
	double timeout_s;  /* the time limit it ran under; <= 0: none known */
};
int gs_store_result_put(struct gs_store *s, const struct gs_result_row *r);
/* Indices of the configurations of a sweep that have a final outcome, as a
 * bitmap of nbits (malloc'd, caller frees). */
int gs_store_done_bitmap(struct gs_store *s, int64_t sweep_id, uint64_t nbits, uint8_t **bits);
/* *found = 1 and the status copied when the variant is cached. */
int gs_store_variant_find(struct gs_store *s, const char *hash, int *found, char status[16]);
/* Insert unless present (a second insert of the same hash is a no-op). */
int gs_store_variant_put(struct gs_store *s, const struct gs_variant_row *v);
/* Link a configuration to its variant. */
int gs_store_config_set_variant(struct gs_store *s, int64_t sweep_id, int64_t idx,
				const char *hash);
/* Record a final outcome that needs no measurement (compile_error, invalid,
 * skipped) with its error text, identity and time limit (as in
 * gs_result_row); replaces an earlier one. */
int gs_store_result_outcome(struct gs_store *s, int64_t sweep_id, int64_t idx,
			    const char *variant_hash, const char *status, const char *error,
			    const char *ident, double timeout_s);

/* What gs_store_result_reuse took. */
struct gs_reused {
	int found;
	char status[16];
	double time_ms;  /* < 0: none */
	int64_t from;    /* the sweep that measured it */
};
/* Makes the newest result of another sweep with this identity the outcome
 * of configuration idx of sweep_id (which has none yet), with reused_from
 * naming the sweep that measured it, and links the configuration to its
 * variant.  Not taken: a crash, a compile that ran out of time, and a
 * timeout under a limit shorter than timeout_s; those are measured again.
 * out->found = 0 when there is nothing to take. */
int gs_store_result_reuse(struct gs_store *s, int64_t sweep_id, int64_t idx, const char *ident,
			  double timeout_s, struct gs_reused *out);

#endif
