/* schema.c — the migration steps that build the store's schema.
 *
 * The comments inside each CREATE statement are kept by SQLite in
 * sqlite_master, so `.schema` in the sqlite3 shell shows users what every
 * column means.  Times are ISO-8601 UTC text ("2024-05-01T12:00:00Z"),
 * durations are seconds unless the column name says otherwise. */
#include "store/schema.h"
#include "store/store.h"

#include "util/util.h"

/* Schema 1: sweeps, their configurations, the compile cache and results. */
static const char schema_v1[] =
	"PRAGMA application_id = 1735607362;\n" /* GS_STORE_APPLICATION_ID, checked below */
	"CREATE TABLE sweep ( -- one row per sweep: a space measured on one device with one problem\n"
	"  id INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused, names the view sweep_<id>\n"
	"  ident_hash TEXT NOT NULL UNIQUE, -- hash of everything below that changes results;\n"
	"                                   -- running the same sweep again resumes this row\n"
	"  space_name TEXT NOT NULL,        -- \"matmul\"; also names a view of the newest sweep\n"
	"  space_path TEXT,                 -- the space file as given on the first run\n"
	"  space_hash TEXT,                 -- hash of the space text\n"
	"  kernel_hash TEXT,                -- hash of every kernel source, in order\n"
	"  problem_json TEXT,               -- problem constants after --set, {\"N\":4096}\n"
	"  options_json TEXT,               -- measurement options that change results\n"
	"  device TEXT,                     -- \"cuda:0 NVIDIA H100 ...\" or \"emu:sm_90\"\n"
	"  params_json TEXT,                -- [{\"name\":\"TILE\",\"values\":[8,16]}, ...]\n"
	"  shard TEXT,                      -- \"i/N\" of a sharded sweep, \"0/1\" otherwise\n"
	"  host TEXT,                       -- host name of the first run\n"
	"  gsearch_version TEXT,            -- version of gsearch that created the row\n"
	"  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),\n"
	"  started_at TEXT,                 -- first time the sweep was running\n"
	"  finished_at TEXT,                -- last time a run stopped (done or interrupted)\n"
	"  status TEXT NOT NULL DEFAULT 'created', -- created, running, interrupted, done, failed\n"
	"  wall_s REAL,                     -- wall time of all runs together\n"
	"  compile_busy_s REAL,             -- NVRTC time summed over compile threads\n"
	"  device_busy_s REAL               -- time the devices spent on configurations\n"
	");\n"
	"CREATE INDEX sweep_space ON sweep(space_name, id);\n"
	"\n"
	"CREATE TABLE config ( -- the valid configurations of a sweep, in enumeration order\n"
	"  sweep_id INTEGER NOT NULL REFERENCES sweep(id) ON DELETE CASCADE,\n"
	"  idx INTEGER NOT NULL,            -- index among the valid configurations, from 0\n"
	"  params TEXT NOT NULL,            -- canonical JSON {\"TILE\":16,...} in declaration order\n"
	"  baseline INTEGER NOT NULL DEFAULT 0 CHECK (baseline IN (0, 1)), -- the hand-picked one\n"
	"  PRIMARY KEY (sweep_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX config_baseline ON config(sweep_id) WHERE baseline;\n"
	"\n"
	"CREATE TABLE variant ( -- compile cache, content-addressed\n"
	"  hash TEXT PRIMARY KEY,           -- hash of source, defines, options, arch, NVRTC version\n"
	"  status TEXT NOT NULL CHECK (status IN ('ok', 'compile_error')),\n"
	"  log TEXT,                        -- NVRTC log (warnings or errors)\n"
	"  ptx TEXT,\n"
	"  cubin BLOB,\n"
	"  arch TEXT,                       -- \"sm_90\"\n"
	"  nvrtc_version TEXT,              -- \"13.0\"\n"
	"  options TEXT,                    -- NVRTC options, one string\n"
	"  registers INTEGER,               -- per thread\n"
	"  static_smem INTEGER,             -- static shared memory per block, bytes\n"
	"  local_bytes INTEGER,             -- local memory per thread, bytes\n"
	"  spill_stores INTEGER,            -- bytes\n"
	"  spill_loads INTEGER,             -- bytes\n"
	"  max_threads INTEGER,             -- most threads per block the function allows\n"
	"  compile_s REAL,                  -- NVRTC wall time\n"
	"  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))\n"
	");\n"
	"\n"
	"CREATE TABLE result ( -- the outcome of one configuration of a sweep\n"
	"  sweep_id INTEGER NOT NULL,\n"
	"  idx INTEGER NOT NULL,\n"
	"  variant_hash TEXT REFERENCES variant(hash) ON DELETE SET NULL, -- NULL: never compiled\n"
	"  status TEXT NOT NULL CHECK (status IN ('ok', 'invalid', 'compile_error', 'launch_error',\n"
	"                                         'crash', 'timeout', 'wrong', 'skipped')),\n"
	"  time_ms REAL,                    -- median of the timed repetitions\n"
	"  min_ms REAL,\n"
	"  iqr_ms REAL,                     -- interquartile range\n"
	"  reps INTEGER,                    -- timed repetitions\n"
	"  blocks_per_sm INTEGER,           -- resident blocks per SM (occupancy calculator)\n"
	"  occupancy REAL,                  -- resident warps / most warps per SM, 0..1\n"
	"  limiter TEXT,                    -- what bounds it: registers, smem, threads or blocks\n"
	"  energy_j REAL,                   -- per repetition\n"
	"  power_w REAL,                    -- mean over the timed repetitions\n"
	"  sm_clock_mhz REAL,\n"
	"  temp_c REAL,\n"
	"  max_abs_err REAL,                -- against the reference outputs\n"
	"  max_rel_err REAL,\n"
	"  error TEXT,                      -- why the status is not ok\n"
	"  metrics TEXT,                    -- user metrics, JSON {\"gflops\": 812.5}\n"
	"  counters TEXT,                   -- emulator counters, JSON\n"
	"  device TEXT,                     -- the device that measured it (\"cuda:1\")\n"
	"  measured_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),\n"
	"  PRIMARY KEY (sweep_id, idx),\n"
	"  FOREIGN KEY (sweep_id, idx) REFERENCES config(sweep_id, idx) ON DELETE CASCADE\n"
	");\n"
	"CREATE INDEX result_time ON result(sweep_id, status, time_ms);\n"
	"CREATE INDEX result_variant ON result(variant_hash);\n";

_Static_assert(GS_STORE_APPLICATION_ID == 1735607362, "schema_v1 spells the application id");

/* Schema 2: a configuration knows its variant as soon as it is compiled,
 * before (or without) any measurement. */
static const char schema_v2[] =
	"ALTER TABLE config ADD COLUMN variant_hash TEXT REFERENCES variant(hash) ON DELETE SET NULL;\n"
	"CREATE INDEX config_variant ON config(variant_hash);\n";

/* Schema 3: a variant keeps its entries' lowered names, which a device
 * needs to find the kernels in the cubin. */
static const char schema_v3[] =
	"ALTER TABLE variant ADD COLUMN entries TEXT; -- JSON list of lowered kernel names\n";

/* Schema 4: a time computed by the emulated device's model is marked as
 * such, so that no report passes it off as a measurement. */
static const char schema_v4[] =
	"ALTER TABLE result ADD COLUMN modeled INTEGER NOT NULL DEFAULT 0; -- 1: time_ms is modeled\n";

/* Schema 5: what `gsearch merge` keeps beside a merged sweep: the runs it
 * was assembled from (one per shard, typically one Slurm array task each),
 * and every measurement of a configuration that disagrees with the one in
 * result, rather than dropping it. */
static const char schema_v5[] =
	"CREATE TABLE sweep_part ( -- the runs a merged sweep was assembled from, one row each\n"
	"  sweep_id INTEGER NOT NULL REFERENCES sweep(id) ON DELETE CASCADE,\n"
	"  ident_hash TEXT NOT NULL,        -- the run's own sweep identity (it covers the shard)\n"
	"  host TEXT NOT NULL DEFAULT '',   -- host name the run was made on\n"
	"  created_at TEXT NOT NULL DEFAULT '', -- when the run's sweep row was created\n"
	"  shard TEXT NOT NULL,             -- \"i/N\" the run measured, \"0/1\" for all of it\n"
	"  device TEXT,                     -- the run's device, as in sweep.device\n"
	"  gpus TEXT,                       -- the devices its results name (\"cuda:0,cuda:1\")\n"
	"  gsearch_version TEXT,\n"
	"  started_at TEXT,\n"
	"  finished_at TEXT,\n"
	"  status TEXT,                     -- the run's sweep status when it was merged\n"
	"  wall_s REAL,\n"
	"  compile_busy_s REAL,\n"
	"  device_busy_s REAL,\n"
	"  configs INTEGER,                 -- configurations the run stored\n"
	"  results INTEGER,                 -- outcomes the run stored\n"
	"  source TEXT,                     -- the database merged from, as given; NULL: this one\n"
	"  PRIMARY KEY (sweep_id, ident_hash, host, created_at)\n"
	") WITHOUT ROWID;\n"
	"\n"
	"CREATE TABLE result_conflict ( -- a measurement that disagrees with the one in result\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  sweep_id INTEGER NOT NULL,\n"
	"  idx INTEGER NOT NULL,\n"
	"  source TEXT,                     -- the database it came from, as given to merge\n"
	"  source_host TEXT,                -- host of the run that measured it\n"
	"  source_shard TEXT,               -- shard of that run, \"i/N\"\n"
	"  variant_hash TEXT,               -- the columns from here on are those of result\n"
	"  status TEXT NOT NULL,\n"
	"  time_ms REAL,\n"
	"  min_ms REAL,\n"
	"  iqr_ms REAL,\n"
	"  reps INTEGER,\n"
	"  blocks_per_sm INTEGER,\n"
	"  occupancy REAL,\n"
	"  limiter TEXT,\n"
	"  energy_j REAL,\n"
	"  power_w REAL,\n"
	"  sm_clock_mhz REAL,\n"
	"  temp_c REAL,\n"
	"  max_abs_err REAL,\n"
	"  max_rel_err REAL,\n"
	"  error TEXT,\n"
	"  metrics TEXT,\n"
	"  counters TEXT,\n"
	"  device TEXT,\n"
	"  measured_at TEXT,\n"
	"  modeled INTEGER,\n"
	"  FOREIGN KEY (sweep_id, idx) REFERENCES config(sweep_id, idx) ON DELETE CASCADE\n"
	");\n"
	"CREATE INDEX result_conflict_config ON result_conflict(sweep_id, idx);\n";

/* Schema 6: what the stopping rule found for each measurement, and what a
 * run needs for its overhead factor: the compile threads, the workers it
 * replaced, and the kernel work its measurements timed.  result_conflict
 * mirrors result, so it gains the same columns. */
static const char schema_v6[] =
	"ALTER TABLE result ADD COLUMN ci_lo_ms REAL; -- the median's 95% interval, low end\n"
	"ALTER TABLE result ADD COLUMN ci_hi_ms REAL; -- high end\n"
	"ALTER TABLE result ADD COLUMN ci_pct REAL; -- the interval's coverage, in %\n"
	"ALTER TABLE result ADD COLUMN runs INTEGER; -- timed runs (samples x runs per sample)\n"
	"ALTER TABLE result ADD COLUMN warmups INTEGER; -- runs discarded as warm-up\n"
	"ALTER TABLE result ADD COLUMN timed_ms REAL; -- timed kernel work, warm-up included\n"
	"ALTER TABLE result_conflict ADD COLUMN ci_lo_ms REAL;\n"
	"ALTER TABLE result_conflict ADD COLUMN ci_hi_ms REAL;\n"
	"ALTER TABLE result_conflict ADD COLUMN ci_pct REAL;\n"
	"ALTER TABLE result_conflict ADD COLUMN runs INTEGER;\n"
	"ALTER TABLE result_conflict ADD COLUMN warmups INTEGER;\n"
	"ALTER TABLE result_conflict ADD COLUMN timed_ms REAL;\n"
	"ALTER TABLE sweep ADD COLUMN compile_threads INTEGER; -- the most any run compiled with\n"
	"ALTER TABLE sweep ADD COLUMN worker_restarts INTEGER; -- device workers replaced\n"
	"ALTER TABLE sweep ADD COLUMN restart_s REAL; -- from a replacement's start to its ready\n"
	"ALTER TABLE sweep ADD COLUMN timed_s REAL; -- timed kernel work the results report\n"
	"ALTER TABLE sweep_part ADD COLUMN compile_threads INTEGER;\n"
	"ALTER TABLE sweep_part ADD COLUMN worker_restarts INTEGER;\n"
	"ALTER TABLE sweep_part ADD COLUMN restart_s REAL;\n"
	"ALTER TABLE sweep_part ADD COLUMN timed_s REAL;\n";

/* Schema 7: the column comments that `.schema` shows.  SQLite keeps a
 * column added by ALTER TABLE without the comment that followed it, and
 * puts it on the line of the column before, where that column's comment
 * then reads as the new one's: config's "the hand-picked one" came to
 * describe variant_hash.  The tables' text is rewritten in place; only
 * comments and line breaks change, so the tables' columns, and the rows,
 * stay exactly as they were.  A text that does not match (a store some
 * other tool touched) is left alone.  The per-sweep views gain sweep_id and
 * modeled, which store.c makes again after this step.  A sweep keeps the
 * baseline its space names, so that a report can tell a space without one
 * from a shard without it. */
#define COMMENTS(table, from, to)                                                          \
	"UPDATE sqlite_master SET sql = replace(sql, '" from "', '" to "')"                  \
	" WHERE type = 'table' AND name = '" table "';\n"
static const char schema_v7[] =
	"ALTER TABLE sweep ADD COLUMN baseline_json TEXT;\n"
	"PRAGMA writable_schema = ON;\n"
	COMMENTS("config",
		 "baseline IN (0, 1)), variant_hash TEXT REFERENCES variant(hash)"
		 " ON DELETE SET NULL, -- the hand-picked one\n",
		 "baseline IN (0, 1)), -- the hand-picked one\n"
		 "  variant_hash TEXT REFERENCES variant(hash) ON DELETE SET NULL,"
		 " -- NULL: not compiled yet\n")
	COMMENTS("variant",
		 "\n, entries TEXT)",
		 ",\n"
		 "  entries TEXT                     -- JSON list of lowered kernel names\n"
		 ")")
	COMMENTS("sweep",
		 "  device_busy_s REAL               -- time the devices spent on configurations\n"
		 ", compile_threads INTEGER, worker_restarts INTEGER, restart_s REAL, timed_s REAL,"
		 " baseline_json TEXT)",
		 "  device_busy_s REAL,              -- time the devices spent on configurations\n"
		 "  compile_threads INTEGER,         -- the most any run compiled with\n"
		 "  worker_restarts INTEGER,         -- device workers replaced\n"
		 "  restart_s REAL,                  -- from a replacement''s start to its ready\n"
		 "  timed_s REAL,                    -- timed kernel work the results report\n"
		 "  baseline_json TEXT               -- the space''s baseline {\"TILE\":16,...},"
		 " null: it\n"
		 "                                   -- names none; NULL: not recorded"
		 " (before schema 7)\n"
		 ")")
	COMMENTS("result",
		 ", modeled INTEGER NOT NULL DEFAULT 0, ci_lo_ms REAL, ci_hi_ms REAL, ci_pct REAL,"
		 " runs INTEGER, warmups INTEGER, timed_ms REAL,\n",
		 ",\n"
		 "  modeled INTEGER NOT NULL DEFAULT 0, -- 1: time_ms is modeled\n"
		 "  ci_lo_ms REAL,                   -- the median''s 95% interval, low end\n"
		 "  ci_hi_ms REAL,                   -- high end\n"
		 "  ci_pct REAL,                     -- the interval''s coverage, in %\n"
		 "  runs INTEGER,                    -- timed runs (samples x runs per sample)\n"
		 "  warmups INTEGER,                 -- runs discarded as warm-up\n"
		 "  timed_ms REAL,                   -- timed kernel work, warm-up included\n")
	COMMENTS("result_conflict",
		 "  modeled INTEGER, ci_lo_ms REAL, ci_hi_ms REAL, ci_pct REAL, runs INTEGER,"
		 " warmups INTEGER, timed_ms REAL,\n",
		 "  modeled INTEGER,\n"
		 "  ci_lo_ms REAL,\n"
		 "  ci_hi_ms REAL,\n"
		 "  ci_pct REAL,\n"
		 "  runs INTEGER,\n"
		 "  warmups INTEGER,\n"
		 "  timed_ms REAL,\n")
	COMMENTS("sweep_part",
		 "  source TEXT, compile_threads INTEGER, worker_restarts INTEGER, restart_s REAL,"
		 " timed_s REAL,                     -- the database merged from, as given;"
		 " NULL: this one\n",
		 "  source TEXT,                     -- the database merged from, as given;"
		 " NULL: this one\n"
		 "  compile_threads INTEGER,         -- as in sweep\n"
		 "  worker_restarts INTEGER,\n"
		 "  restart_s REAL,\n"
		 "  timed_s REAL,\n")
	"PRAGMA writable_schema = OFF;\n";
#undef COMMENTS

/* Schema 8: a sweep can be imported rather than measured (a Kernel Tuner
 * cache file): it says from which file and in which format, and each result
 * keeps what the file recorded that has no column here (its own times, its
 * timestamp), so that exporting it again gives the file's figures back.  The
 * comments are put where `.schema` shows them, as schema 7 does. */
static const char schema_v8[] =
	"ALTER TABLE sweep ADD COLUMN source_format TEXT;\n"
	"ALTER TABLE sweep ADD COLUMN source_path TEXT;\n"
	"ALTER TABLE result ADD COLUMN source_entry TEXT;\n"
	"PRAGMA writable_schema = ON;\n"
	"UPDATE sqlite_master SET sql = replace(replace(sql,"
	" '  baseline_json TEXT               -- the space',"
	" '  baseline_json TEXT,              -- the space'),"
	" '(before schema 7)\n, source_format TEXT, source_path TEXT)',"
	" '(before schema 7)\n"
	"  source_format TEXT,              -- \"kernel_tuner_cache\": imported from a file;"
	" NULL: measured\n"
	"  source_path TEXT                 -- the file it was imported from, as given\n"
	")') WHERE type = 'table' AND name = 'sweep';\n"
	"UPDATE sqlite_master SET sql = replace(sql,"
	" '  timed_ms REAL, source_entry TEXT,                   -- timed kernel work,"
	" warm-up included\n',"
	" '  timed_ms REAL,                   -- timed kernel work, warm-up included\n"
	"  source_entry TEXT,               -- imported: the file''s fields that have no column"
	" here (JSON)\n') WHERE type = 'table' AND name = 'result';\n"
	"PRAGMA writable_schema = OFF;\n";

/* Schema 9: a result knows what determined it (sched/ident.h), so that a
 * sweep of an edited space takes the outcomes of earlier sweeps that are
 * still valid instead of measuring them again, and says where each came
 * from.  The time limit it ran under decides whether a timeout is tried
 * again.  The comments are put where SQLite would not (see schema 7). */
#define COMMENTS(table, from, to)                                                          \
	"UPDATE sqlite_master SET sql = replace(sql, '" from "', '" to "')"                  \
	" WHERE type = 'table' AND name = '" table "';\n"
static const char schema_v9[] =
	"ALTER TABLE result ADD COLUMN ident TEXT;\n"
	"ALTER TABLE result ADD COLUMN reused_from INTEGER;\n"
	"ALTER TABLE result ADD COLUMN timeout_s REAL;\n"
	"ALTER TABLE result_conflict ADD COLUMN ident TEXT;\n"
	"ALTER TABLE result_conflict ADD COLUMN reused_from INTEGER;\n"
	"ALTER TABLE result_conflict ADD COLUMN timeout_s REAL;\n"
	"CREATE INDEX result_ident ON result(ident) WHERE ident IS NOT NULL;\n"
	"PRAGMA writable_schema = ON;\n"
	COMMENTS("result",
		 "  source_entry TEXT, ident TEXT, reused_from INTEGER, timeout_s REAL,"
		 "               -- imported: the file''s fields that have no column here (JSON)\n",
		 "  source_entry TEXT,               -- imported: the file''s fields that have no"
		 " column here (JSON)\n"
		 "  ident TEXT,                      -- hash of what determines the outcome;"
		 " NULL: before schema 9\n"
		 "  reused_from INTEGER,             -- the sweep that measured it; NULL: this one,\n"
		 "                                   -- 0: one of a store merged into this one\n"
		 "  timeout_s REAL,                  -- the time limit per configuration it ran"
		 " under\n")
	COMMENTS("result_conflict",
		 "  timed_ms REAL, ident TEXT, reused_from INTEGER, timeout_s REAL,\n",
		 "  timed_ms REAL,\n"
		 "  ident TEXT,\n"
		 "  reused_from INTEGER,\n"
		 "  timeout_s REAL,\n")
	"PRAGMA writable_schema = OFF;\n";
#undef COMMENTS

/* Schema 10: an emulated device that runs out of the host time it was given
 * says so (`emu_limit`) rather than calling the kernel a hang.  The result
 * table's CHECK takes the new outcome; no row changes, and every one meets
 * the wider CHECK (store.c makes SQLite read the text again). */
static const char schema_v10[] =
	"PRAGMA writable_schema = ON;\n"
	"UPDATE sqlite_master SET sql = replace(sql,"
	" '''crash'', ''timeout'', ''wrong'', ''skipped'')),\n',"
	" '''crash'', ''timeout'', ''wrong'', ''skipped'',\n"
	"                                         ''emu_limit'')), -- emu_limit: the emulator\n"
	"                                   -- ran out of host time; the kernel''s is not known\n')"
	" WHERE type = 'table' AND name = 'result';\n"
	"PRAGMA writable_schema = OFF;\n";

const char *const gs_store_migrations[] = {
	schema_v1, /* 0 -> 1 */
	schema_v2, /* 1 -> 2 */
	schema_v3, /* 2 -> 3 */
	schema_v4, /* 3 -> 4 */
	schema_v5, /* 4 -> 5 */
	schema_v6, /* 5 -> 6 */
	schema_v7, /* 6 -> 7 */
	schema_v8, /* 7 -> 8 */
	schema_v9, /* 8 -> 9 */
	schema_v10, /* 9 -> 10 */
};
const size_t gs_store_nmigrations = GS_ARRAY_SIZE(gs_store_migrations);

_Static_assert(GS_ARRAY_SIZE(gs_store_migrations) == GS_STORE_SCHEMA_VERSION,
	       "one migration step per schema version");
