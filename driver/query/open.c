/* open.c — opening a store for reading.
 *
 * The reports read every store from schema 3 on, the first with what they
 * need, without migrating it: reading must never change a file, and a store
 * kept beside its report (in results/) stays as the sweep wrote it.
 * Columns added by later schemas are read where the store has them (q->schema
 * says), and are empty where it does not. */
#include "query/query.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/schema.h"
#include "store/store.h"

/* The oldest schema the reports understand. */
#define MIN_SCHEMA 3

static int pragma(sqlite3 *db, const char *sql, int *out)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		*out = sqlite3_column_int(s, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	return rc;
}

/* Whether the store can be read at all: SQLITE_READONLY or SQLITE_CANTOPEN
 * when its WAL index cannot be made. */
static int probe(sqlite3 *db)
{
	int v;
	return pragma(db, "PRAGMA user_version", &v) & 0xff;
}

/* "file:PATH?immutable=1", PATH escaped as a URI path */
static char *immutable_uri(const char *path)
{
	struct gs_buf b = GS_BUF_INIT;
	gs_buf_puts(&b, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if (*p == '%' || *p == '?' || *p == '#' || *p <= ' ' || *p >= 0x7f)
			gs_buf_printf(&b, "%%%02X", *p);
		else
			gs_buf_putc(&b, (char)*p);
	gs_buf_puts(&b, "?immutable=1");
	return gs_buf_detach(&b);
}

int gs_query_open(struct gs_query *q, const char *path)
{
	q->path = path;
	q->db = NULL;
	/* SQLite would wait on a FIFO for ever, and read a device as a store */
	struct stat sb;
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		fprintf(stderr, "gsearch: error: cannot open %s: %s\n", path,
			S_ISDIR(sb.st_mode) ? strerror(EISDIR) : gs_read_strerror(GS_ENOTREG));
		return -1;
	}
	sqlite3 *db;
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
	/* a store in WAL mode needs its -shm file even to be read; where that
	 * cannot be created (a directory this user cannot write), the store is
	 * read as a file nobody changes, which is what it is to this user */
	if (rc == SQLITE_OK && probe(db) != SQLITE_OK && access(path, R_OK) == 0) {
		sqlite3_close_v2(db);
		char *uri = immutable_uri(path);
		rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX |
					       SQLITE_OPEN_URI, NULL);
		free(uri);
	}
	if (rc != SQLITE_OK) {
		int sys = db ? sqlite3_system_errno(db) : 0;
		fprintf(stderr, "gsearch: error: cannot open %s: %s", path,
			db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		if (sys)
			fprintf(stderr, " (%s)", strerror(sys));
		fputc('\n', stderr);
		sqlite3_close_v2(db);
		return -1;
	}
	sqlite3_busy_timeout(db, 10000);
	int app = 0, version = 0, tables = 0;
	if ((rc = pragma(db, "PRAGMA application_id", &app)) != SQLITE_OK ||
	    (rc = pragma(db, "PRAGMA user_version", &version)) != SQLITE_OK ||
	    (rc = pragma(db, "SELECT count(*) FROM sqlite_master", &tables)) != SQLITE_OK) {
		fprintf(stderr, "gsearch: error: cannot open %s: %s%s\n", path, sqlite3_errmsg(db),
			gs_store_damage_hint(sqlite3_extended_errcode(db), path));
	} else if ((app && app != GS_STORE_APPLICATION_ID) || (!version && tables)) {
		fprintf(stderr, "gsearch: error: cannot open %s: not a gsearch database\n", path);
		rc = SQLITE_ERROR;
	} else if (version < 0) {
		fprintf(stderr, "gsearch: error: cannot open %s: not a gsearch database (schema "
				"version %d)\n", path, version);
		rc = SQLITE_ERROR;
	} else if (!version) {
		fprintf(stderr, "gsearch: error: cannot open %s: not a gsearch database (it is empty)\n",
			path);
		rc = SQLITE_ERROR;
	} else if (version > GS_STORE_SCHEMA_VERSION) {
		fprintf(stderr, "gsearch: error: cannot open %s: database was written by a newer "
				"gsearch (schema %d, this gsearch knows %d)\n", path, version,
			GS_STORE_SCHEMA_VERSION);
		rc = SQLITE_ERROR;
	} else if (version < MIN_SCHEMA) {
		fprintf(stderr, "gsearch: error: cannot open %s: schema %d is too old to report on "
				"(a command that writes the store upgrades it)\n", path, version);
		rc = SQLITE_ERROR;
	}
	if (rc != SQLITE_OK) {
		sqlite3_close_v2(db);
		return -1;
	}
	q->db = db;
	q->schema = version;
	return 0;
}

void gs_query_close(struct gs_query *q)
{
	if (q->db)
		sqlite3_close_v2(q->db);
	q->db = NULL;
}
