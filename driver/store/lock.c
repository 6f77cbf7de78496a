/* lock.c — the store's writer lock (lock.h). */
#define _GNU_SOURCE /* F_OFD_SETLK */
#include "store/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

/* What the holder wrote, without its newline; "" when unreadable. */
static void holder(int fd, char *out, size_t n)
{
	ssize_t got = pread(fd, out, n - 1, 0);
	out[got > 0 ? got : 0] = 0;
	out[strcspn(out, "\n")] = 0;
}

/* The lock on the database file itself, which every name of the store
 * (a symlink, a hard link) opens: STORE.lock goes by the name given.  An
 * open-file-description lock on one byte that SQLite never locks (its
 * locks lie in the 512 bytes from 0x40000000; its locks and these
 * conflict across processes, and within one too) -- not flock, which NFS
 * turns into a lock of the whole file that would shut readers out.  The
 * descriptor, or a negative errno with err set. */
#define LOCK_BYTE ((off_t)0x40000000 + 0x10000)
static int lock_file(const char *dbpath, char *err, size_t errlen)
{
	int fd = open(dbpath, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot lock %s: %s", dbpath, strerror(e));
		return -e;
	}
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = LOCK_BYTE,
			    .l_len = 1 };
	if (fcntl(fd, F_OFD_SETLK, &fl) < 0) {
		int e = errno;
		close(fd);
		if (e == EAGAIN || e == EACCES) {
			snprintf(err, errlen, "%s is in use by another sweep (under another name: "
				 "a link to the same file); `gsearch query` can read it meanwhile",
				 dbpath);
			return -EBUSY;
		}
		if (e == EINVAL) /* a kernel without OFD locks: the path's lock holds alone */
			return fd;
		snprintf(err, errlen, "cannot lock %s: %s", dbpath, strerror(e));
		return -e;
	}
	return fd;
}

int gs_store_lock(struct gs_store_lock *l, const char *dbpath, char *err, size_t errlen)
{
	l->fd = -1;
	l->dbfd = -1;
	l->path = gs_xasprintf("%s.lock", dbpath);
	/* a holder unlinks the file as it lets go: a lock taken on an inode
	 * that is no longer the file's would be held by nobody's rules, so
	 * it is taken again on the file that is there now */
	for (int tries = 0; tries < 16; tries++) {
		int fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd < 0) {
			int e = errno;
			snprintf(err, errlen, "cannot lock the store: cannot open %s: %s", l->path,
				 strerror(e));
			free(l->path);
			l->path = NULL;
			return -e;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int e = errno;
			char who[256];
			holder(fd, who, sizeof who);
			close(fd);
			if (e == EWOULDBLOCK) {
				snprintf(err, errlen, "%s is in use by another sweep (%s); `gsearch query` "
					 "can read it meanwhile", dbpath, who[0] ? who : "holder unknown");
				e = EBUSY;
			} else {
				snprintf(err, errlen, "cannot lock %s: %s", l->path, strerror(e));
			}
			free(l->path);
			l->path = NULL;
			return -e;
		}
		struct stat a, b;
		if (fstat(fd, &a) < 0 || stat(l->path, &b) < 0 || a.st_ino != b.st_ino ||
		    a.st_dev != b.st_dev) {
			close(fd);
			continue;
		}
		char host[256] = "?", when[64] = "";
		gethostname(host, sizeof host - 1);
		host[sizeof host - 1] = 0;
		time_t now = time(NULL);
		struct tm tm;
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
		char line[512];
		int n = snprintf(line, sizeof line, "pid %ld on %s since %s\n", (long)getpid(), host,
				 when);
		if (ftruncate(fd, 0) < 0 || pwrite(fd, line, (size_t)n, 0) != n) {
			/* the lock holds without its note; only the message suffers */
		}
		int dbfd = lock_file(dbpath, err, errlen);
		if (dbfd < 0) {
			unlink(l->path);
			close(fd);
			free(l->path);
			l->path = NULL;
			return dbfd;
		}
		l->fd = fd;
		l->dbfd = dbfd;
		return 0;
	}
	snprintf(err, errlen, "cannot lock the store: %s keeps changing", l->path);
	free(l->path);
	l->path = NULL;
	return -EAGAIN;
}

void gs_store_unlock(struct gs_store_lock *l)
{
	if (l->fd >= 0) {
		unlink(l->path);
		close(l->fd);
		close(l->dbfd);
		l->fd = -1;
		l->dbfd = -1;
	}
	free(l->path);
	l->path = NULL;
}
