/* import.c — `gsearch import`: a Kernel Tuner cache file as a sweep of a
 * store, so that published results can be queried and compared with
 * gsearch's own.
 *
 * Without a space, the configurations are the file's entries in file order.
 * With --space, they are the space's, in its enumeration order and with its
 * canonical parameters, so that `query compare --sweeps` finds the same
 * configuration on both sides; an entry is matched by its key, which Kernel
 * Tuner builds from the values as Python prints them. */
#include "cmd/cmd.h"
#include "interop/ktcache.h"
#include "sched/sweepid.h"
#include "space/enum.h"
#include "store/lock.h"
#include "store/store.h"

#include <getopt.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

const char gs_help_import[] =
	"usage: gsearch import FILE.json[.gz] --db STORE [--space SPACE] [--set NAME=VALUE]... [--emu]\n"
	"\n"
	"Reads a Kernel Tuner cache file (plain or gzip'd; one still being written\n"
	"is read as Kernel Tuner reads it) into a new sweep of STORE, marked as\n"
	"imported from FILE, on the file's device.  Each entry keeps its time (ms)\n"
	"and its metrics; its failure becomes gsearch's outcome: InvalidConfig is\n"
	"invalid, CompilationFailedConfig compile_error, RuntimeFailedConfig\n"
	"launch_error.  Importing the same file again replaces that sweep.\n"
	"\n"
	"With --space, the configurations are those of SPACE: an entry is matched to\n"
	"the configuration with the same parameter names and values; what matches\n"
	"nothing is reported, and `gsearch query compare --sweeps A,B` can then say\n"
	"where one sweep's optimum ranks on the other.\n"
	"\n"
	"options:\n"
	"  --db STORE        the store to write (created when missing)\n"
	"  --space SPACE     match the entries to this space's configurations\n"
	"  --set NAME=VALUE  override a problem constant of SPACE (repeatable)\n"
	"  --emu             use SPACE's emulator sizes\n"
	"  -h, --help        this help\n";

/* Entry members that are Kernel Tuner's bookkeeping, not metrics. */
static const char *const kt_own[] = { "time", "times", "compile_time", "verification_time",
				      "benchmark_time", "strategy_time", "framework_time",
				      "timestamp", "__error__", "gsearch_status" };

static int is_kt_own(const char *k)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(kt_own); i++)
		if (!strcmp(kt_own[i], k))
			return 1;
	return 0;
}

static int is_param(const struct gs_ktcache *c, const char *k)
{
	for (size_t i = 0; i < c->nparams; i++)
		if (!strcmp(c->params[i], k))
			return 1;
	return 0;
}

/* Kernel Tuner writes str(datetime.now(timezone.utc)), "2024-06-18
 * 11:36:56.137831+00:00"; the store keeps UTC as "2024-06-18T11:36:56Z".
 * NULL for anything else (the entry keeps it as written). */
static char *utc_time(const char *s)
{
	if (!s || strlen(s) < 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') ||
	    s[13] != ':' || s[16] != ':')
		return NULL;
	const char *z = s + 19;
	if (*z == '.')
		for (z++; *z >= '0' && *z <= '9'; z++)
			;
	if (strcmp(z, "Z") && strcmp(z, "+00:00"))
		return NULL;
	return gs_xasprintf("%.10sT%.8sZ", s, s + 11);
}

struct import {
	struct gs_ktcache c;
	const char *path;
	struct gs_store *st;
	sqlite3_stmt *put;
	int64_t sweep;
	int64_t counts[9];
};

static const char *const statuses[] = { "ok", "invalid", "compile_error", "launch_error",
					"crash", "timeout", "wrong", "skipped",
					"emu_limit" };

static int put_result(struct import *im, int64_t idx, const struct gs_ktentry *e)
{
	json_t *metrics = json_object(), *rest = json_object();
	const char *k;
	json_t *v;
	json_object_foreach(e->obj, k, v) {
		if (is_param(&im->c, k) || !strcmp(k, "time"))
			continue;
		if (!is_kt_own(k) && json_is_number(v))
			json_object_set(metrics, k, v);
		else
			json_object_set(rest, k, v);
	}
	char *m = json_object_size(metrics) ? json_dumps(metrics, JSON_COMPACT | JSON_PRESERVE_ORDER)
					    : NULL;
	char *r = json_dumps(rest, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	char *when = utc_time(json_string_value(json_object_get(e->obj, "timestamp")));
	char *err = e->failure ? gs_xasprintf("Kernel Tuner: %s", e->failure) : NULL;
	sqlite3_stmt *s = im->put;
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, im->sweep);
	sqlite3_bind_int64(s, 2, idx);
	sqlite3_bind_text(s, 3, e->status, -1, SQLITE_STATIC);
	if (e->failure)
		sqlite3_bind_null(s, 4);
	else
		sqlite3_bind_double(s, 4, e->time_ms);
	sqlite3_bind_text(s, 5, err, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 6, m, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 7, im->c.device, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 8, when, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 9, r, -1, SQLITE_STATIC);
	int rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
	sqlite3_clear_bindings(s);
	for (size_t i = 0; i < GS_ARRAY_SIZE(statuses); i++)
		if (!strcmp(statuses[i], e->status))
			im->counts[i]++;
	free(m);
	free(r);
	free(when);
	free(err);
	json_decref(metrics);
	json_decref(rest);
	return rc;
}

static int db_fail(struct import *im, const char *what)
{
	fprintf(stderr, "gsearch: error: %s: %s\n", what,
		im->st ? sqlite3_errmsg(gs_store_sqlite(im->st)) : "no store");
	return GS_EXIT_ERRORS;
}

/* Without a space: the entries in file order, parameters as the file has
 * them. */
static int add_entries(struct import *im)
{
	struct gs_buf b = GS_BUF_INIT;
	for (size_t i = 0; i < im->c.n; i++) {
		json_t *p = json_object();
		for (size_t k = 0; k < im->c.nparams; k++)
			json_object_set(p, im->c.params[k], json_object_get(im->c.e[i].obj,
									      im->c.params[k]));
		char *s = json_dumps(p, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
		json_decref(p);
		int rc = gs_store_config_add(im->st, im->sweep, (int64_t)i, s, 0);
		free(s);
		if (rc < 0 || put_result(im, (int64_t)i, &im->c.e[i]) < 0) {
			gs_buf_release(&b);
			return -1;
		}
	}
	gs_buf_release(&b);
	return 0;
}

/* With a space: its configurations in order, each with the entry of its
 * key when the file has one. */
static int add_matched(struct import *im, const struct gs_space *sp, const int *slot,
		       int64_t *matched, int64_t *missing, char *used)
{
	json_t *index = json_object();
	for (size_t i = 0; i < im->c.n; i++)
		json_object_set_new(index, im->c.e[i].key, json_integer((json_int_t)i));
	struct gs_enum e;
	struct gs_buf key = GS_BUF_INIT, pj = GS_BUF_INIT;
	int rc = gs_enum_init(&e, sp, 0, 1);
	while (rc >= 0 && (rc = gs_enum_next(&e)) > 0) {
		gs_buf_reset(&key);
		for (size_t k = 0; k < im->c.nparams; k++) {
			if (k)
				gs_buf_putc(&key, ',');
			gs_value_str(&key, e.env[slot[k]]);
		}
		gs_buf_reset(&pj);
		gs_config_json(sp, e.env, &pj);
		int base = sp->baseline != NULL;
		for (size_t k = 0; base && k < sp->nparams; k++)
			base = gs_value_eq(e.env[sp->params[k].slot], sp->baseline[sp->params[k].slot]);
		if (gs_store_config_add(im->st, im->sweep, (int64_t)e.index, gs_buf_str(&pj), base) <
		    0) {
			rc = -2;
			break;
		}
		json_t *at = json_object_get(index, gs_buf_str(&key));
		if (!at) {
			(*missing)++;
			continue;
		}
		size_t i = (size_t)json_integer_value(at);
		used[i] = 1;
		(*matched)++;
		if (put_result(im, (int64_t)e.index, &im->c.e[i]) < 0) {
			rc = -2;
			break;
		}
	}
	if (rc == -1) {
		struct gs_diag d = GS_DIAG_INIT;
		gs_enum_report(&e, &d);
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
	}
	gs_enum_release(&e);
	gs_buf_release(&key);
	gs_buf_release(&pj);
	json_decref(index);
	return rc == 0 ? 0 : rc;
}

/* The space's parameter of each of the file's parameters (its slot), or an
 * error that names what differs. */
static int match_params(const struct import *im, const struct gs_space *sp, const char *spath,
			int *slot)
{
	struct gs_buf only_file = GS_BUF_INIT, only_space = GS_BUF_INIT;
	for (size_t k = 0; k < im->c.nparams; k++) {
		slot[k] = -1;
		for (size_t j = 0; j < sp->nparams; j++)
			if (!strcmp(sp->params[j].name, im->c.params[k]))
				slot[k] = sp->params[j].slot;
		if (slot[k] < 0)
			gs_buf_printf(&only_file, "%s'%s'", only_file.len ? ", " : "", im->c.params[k]);
	}
	for (size_t j = 0; j < sp->nparams; j++)
		if (!is_param(&im->c, sp->params[j].name))
			gs_buf_printf(&only_space, "%s'%s'", only_space.len ? ", " : "",
				      sp->params[j].name);
	int bad = only_file.len || only_space.len;
	if (bad) {
		fprintf(stderr, "gsearch: error: %s and %s have different parameters\n", im->path,
			spath);
		if (only_file.len)
			fprintf(stderr, "note: only in the file: %s\n", gs_buf_str(&only_file));
		if (only_space.len)
			fprintf(stderr, "note: only in the space: %s\n", gs_buf_str(&only_space));
	}
	gs_buf_release(&only_file);
	gs_buf_release(&only_space);
	return bad ? -1 : 0;
}

/* The sweep's identity: the file's content, and the space it is matched to.
 * *sid is ready (gs_sweepid_finish). */
static void ident_of(const struct import *im, const struct gs_space *sp, const char *spath,
		     struct gs_sweepid *sid)
{
	/* the file's content names the sweep: importing it again finds it */
	char file_hash[33];
	char *dump = json_dumps(im->c.root, JSON_COMPACT | JSON_SORT_KEYS);
	gs_hash_hex(dump, strlen(dump), file_hash);
	free(dump);
	gs_sweepid_init(sid, sp, spath);
	if (!sp) {
		sid->id.space_name = im->c.kernel ? im->c.kernel : "imported";
		gs_buf_putc(&sid->params, '[');
		for (size_t k = 0; k < im->c.nparams; k++) {
			json_t *vals = json_object_get(im->c.tune_params, im->c.params[k]);
			/* "o" takes the reference: a new empty list must not leak */
			json_t *o = json_pack("{s:s, s:o}", "name", im->c.params[k], "values",
					      json_is_array(vals) ? json_incref(vals) : json_array());
			char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER |
						       JSON_REAL_PRECISION(17));
			gs_buf_printf(&sid->params, "%s%s", k ? "," : "", s);
			free(s);
			json_decref(o);
		}
		gs_buf_putc(&sid->params, ']');
	}
	json_t *pr = json_pack("{s:O}", "problem_size",
			       im->c.problem_size ? im->c.problem_size : json_null());
	char *s = json_dumps(pr, JSON_COMPACT);
	gs_buf_puts(&sid->problem, s);
	free(s);
	json_decref(pr);
	gs_sweepid_option(sid, "import", "\"kernel_tuner_cache\"");
	gs_sweepid_option(sid, "file_hash", "\"%s\"", file_hash);
	gs_sweepid_finish(sid, im->c.device ? im->c.device : "unknown", "0/1");
}

/* What the import did: the sweep, its outcomes, what matched the space. */
static void print_import(const struct import *im, const struct gs_space *sp, const char *spath,
			 const char *db, int created, int64_t matched, int64_t missing,
			 const char *used)
{
	if (im->c.repaired)
		fprintf(stderr, "gsearch: note: %s ends before its closing braces (a run that was "
				"cut off); read as Kernel Tuner reads it\n", im->path);
	printf("sweep %lld%s in %s: %zu entries of %s (%s on %s)\n", (long long)im->sweep,
	       created ? " (new)" : " (imported before, replaced)", db, im->c.n, im->path,
	       im->c.kernel ? im->c.kernel : "?", im->c.device ? im->c.device : "?");
	struct gs_buf line = GS_BUF_INIT;
	for (size_t i = 0; i < GS_ARRAY_SIZE(statuses); i++)
		if (im->counts[i])
			gs_buf_printf(&line, "%s%s %lld", line.len ? ", " : "", statuses[i],
				      (long long)im->counts[i]);
	printf("outcomes: %s\n", line.len ? gs_buf_str(&line) : "none");
	gs_buf_release(&line);
	if (sp) {
		printf("matched %lld of %zu entries to configurations of %s\n", (long long)matched,
		       im->c.n, spath);
		size_t left = im->c.n - (size_t)matched, shown = 0;
		if (left) {
			struct gs_buf l = GS_BUF_INIT;
			for (size_t i = 0; i < im->c.n && shown < 3; i++)
				if (!used[i]) {
					gs_buf_printf(&l, "%s\"%s\"", shown ? ", " : "", im->c.e[i].key);
					shown++;
				}
			printf("%zu entr%s not configurations of the space (not in its domains, or "
			       "rejected by its constraints): %s%s\n", left, left == 1 ? "y is" : "ies are",
			       gs_buf_str(&l), left > shown ? ", ..." : "");
			gs_buf_release(&l);
		}
		if (missing)
			printf("%lld configuration%s of the space %s no entry in the file\n",
			       (long long)missing, missing == 1 ? "" : "s", missing == 1 ? "has" : "have");
	}
}

/* The sweep marked as imported from the file, and its views.  0; -1 after
 * printing why; -2: a store error. */
static int mark_imported(struct import *im, const struct gs_space *sp, const char *name)
{
	sqlite3_stmt *s;
	int rc;
	if (sqlite3_prepare_v2(gs_store_sqlite(im->st),
			       "UPDATE sweep SET source_format = 'kernel_tuner_cache',"
				    " source_path = ?2, host = NULL, status = 'done', started_at = coalesce("
				    "started_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),"
				    " finished_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
				    " WHERE id = ?1", -1, &s, NULL))
		return -2;
	sqlite3_bind_int64(s, 1, im->sweep);
	sqlite3_bind_text(s, 2, im->path, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return -2;
	const char **names = gs_xcalloc(im->c.nparams + 1, sizeof(*names));
	size_t nn = 0;
	if (sp)
		for (size_t j = 0; j < sp->nparams; j++)
			names[nn++] = sp->params[j].name;
	else
		for (size_t k = 0; k < im->c.nparams; k++)
			names[nn++] = im->c.params[k];
	rc = gs_store_views(im->st, im->sweep, name, names, nn);
	free(names);
	if (rc < 0) {
		fprintf(stderr, "gsearch: error: %s\n", gs_store_errmsg(im->st));
		return -1;
	}
	return 0;
}

/* FILE, --db and --space: 0, or GS_EXIT_USAGE after printing why. */
static int import_args(int argc, char **argv, struct gs_space_args *a, const char **db)
{
	static const struct option opts[] = {
		GS_OPT_SET, GS_OPT_EMU, { "db", required_argument, NULL, 'd' },
		{ "space", required_argument, NULL, 'p' }, { NULL, 0, NULL, 0 },
	};
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		int r = gs_space_args_option(a, "import", c, optarg);
		if (r == 0 && c == 'd') {
			*db = optarg;
			r = *optarg ? 1 : (gs_usage_error("import", "--db needs a file name"), -1);
		} else if (r == 0 && c == 'p') {
			a->path = optarg;
			r = 1;
		} else if (r == 0) {
			r = (gs_option_error("import", c, argv), -1);
		}
		if (r < 0)
			return GS_EXIT_USAGE;
	}
	int usage = 0;
	if (optind >= argc)
		usage = gs_usage_error("import", "no file named: gsearch import FILE.json --db STORE");
	else if (argc - optind > 1)
		usage = gs_usage_error("import", "unexpected argument '%s'", argv[optind + 1]);
	else if (!*db)
		usage = gs_usage_error("import", "no store named: --db STORE");
	else if (!a->path && (a->nsets || a->emu))
		usage = gs_usage_error("import", "--set and --emu go with --space");
	return usage;
}

int gs_cmd_import(int argc, char **argv)
{
	if (gs_wants_help("import", argc, argv))
		return GS_EXIT_OK;
	struct gs_space_args a;
	const char *db = NULL;
	gs_space_args_init(&a, argc);
	int usage = import_args(argc, argv, &a, &db);
	if (usage) {
		gs_space_args_release(&a);
		return usage;
	}
	struct import im;
	memset(&im, 0, sizeof(im));
	im.path = argv[optind];
	struct gs_buf err = GS_BUF_INIT;
	struct gs_space *sp = NULL;
	int status = GS_EXIT_ERRORS;
	int *slot = NULL;
	char *used = NULL;
	struct gs_store_lock lock = { -1, NULL, -1 };
	struct gs_sweepid sid;
	memset(&sid, 0, sizeof sid);
	if (gs_ktcache_load(im.path, &im.c, &err) < 0) {
		fprintf(stderr, "gsearch: error: %s\n", gs_buf_str(&err));
		goto out;
	}
	if (a.path && !(sp = gs_load_space_or_report(&a)))
		goto out;
	slot = gs_xcalloc(im.c.nparams + 1, sizeof(*slot));
	used = gs_xcalloc(im.c.n + 1, 1);
	if (sp && match_params(&im, sp, a.path, slot) < 0)
		goto out;

	ident_of(&im, sp, a.path, &sid);

	int created;
	char lerr[1024];
	if (gs_store_open(&im.st, db, 0) < 0) {
		fprintf(stderr, "gsearch: error: %s\n", gs_store_errmsg(im.st));
		goto out;
	}
	if (gs_store_lock(&lock, db, lerr, sizeof lerr) < 0) {
		fprintf(stderr, "gsearch: error: %s\n", lerr);
		goto out;
	}
	if (gs_store_sweep_open(im.st, &sid.id, &im.sweep, &created) < 0) {
		fprintf(stderr, "gsearch: error: %s\n", gs_store_errmsg(im.st));
		goto out;
	}
	sqlite3 *dbh = gs_store_sqlite(im.st);
	if (sqlite3_prepare_v2(dbh, "INSERT OR REPLACE INTO result (sweep_id, idx, status, time_ms,"
				    " error, metrics, device, measured_at, source_entry) VALUES"
				    " (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
				    " coalesce(?8, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')), ?9)",
			       -1, &im.put, NULL)) {
		status = db_fail(&im, "cannot import");
		goto out;
	}
	int64_t matched = 0, missing = 0;
	if (gs_store_begin(im.st) < 0)
		goto dberr;
	int rc = sp ? add_matched(&im, sp, slot, &matched, &missing, used) : add_entries(&im);
	if (rc == -1) {
		gs_store_rollback(im.st);
		goto out;
	}
	if (rc < 0) {
		gs_store_rollback(im.st);
		goto dberr;
	}
	if (gs_store_commit(im.st) < 0)
		goto dberr;
	rc = mark_imported(&im, sp, sid.id.space_name);
	if (rc == -1)
		goto out;
	if (rc < 0)
		goto dberr;
	print_import(&im, sp, a.path, db, created, matched, missing, used);
	status = GS_EXIT_OK;
	goto out;
dberr:
	status = db_fail(&im, "cannot import");
out:
	if (im.put)
		sqlite3_finalize(im.put);
	gs_store_unlock(&lock);
	gs_store_close(im.st);
	gs_ktcache_release(&im.c);
	gs_space_free(sp);
	gs_space_args_release(&a);
	gs_buf_release(&err);
	gs_sweepid_release(&sid);
	free(slot);
	free(used);
	return status;
}
