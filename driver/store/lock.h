/* lock.h — one sweep writer per store.
 *
 * Two supervisors on one store would measure every configuration twice
 * (the second result replacing the first).  `gsearch run` therefore holds
 * an advisory lock for as long as it writes: flock(2) on STORE.lock, a file
 * next to the store that says who holds it, and a lock on one byte of the
 * database file, which catches the same store reached by a symlink or a
 * hard link (STORE.lock goes by the name).  The kernel drops the lock when
 * its holder dies, however it dies, so a killed sweep never keeps a store
 * locked; readers (`gsearch query`, the sqlite3 shell) never take it. */
#ifndef GS_STORE_LOCK_H
#define GS_STORE_LOCK_H

#include <stddef.h>

struct gs_store_lock {
	int fd; /* -1: not held */
	char *path;
	int dbfd; /* the database file, locked too: valid while fd is */
};

/* Take the lock of the store at dbpath without waiting.  0; -EBUSY with
 * the holder named in err ("pid 123 on host h since ..."), or another
 * negative errno with the reason. */
int gs_store_lock(struct gs_store_lock *l, const char *dbpath, char *err, size_t errlen);
/* Give it back (no-op when not held); the lock file goes with it. */
void gs_store_unlock(struct gs_store_lock *l);

#endif
