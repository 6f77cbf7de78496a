/* util.c — allocation, buffers, arenas, files, clocks, edit distance. */
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

void gs_oom(void)
{
	fputs("gsearch: fatal: out of memory\n", stderr);
	abort();
}

void *gs_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		gs_oom();
	return p;
}

void *gs_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		gs_oom();
	return p;
}

void *gs_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		gs_oom();
	return p;
}

char *gs_xstrdup(const char *s)
{
	return gs_xstrndup(s, strlen(s));
}

char *gs_xstrndup(const char *s, size_t n)
{
	char *p = gs_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *gs_xasprintf(const char *fmt, ...)
{
	struct gs_buf b = GS_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	gs_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (!b.p)
		return gs_xstrdup("");
	return gs_buf_detach(&b);
}

void gs_grow(void *pp, size_t *cap, size_t need, size_t size)
{
	void **p = pp;
	if (need <= *cap)
		return;
	size_t n = *cap ? *cap : 8;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			gs_oom();
		n *= 2;
	}
	if (n > SIZE_MAX / size)
		gs_oom();
	*p = gs_xrealloc(*p, n * size);
	*cap = n;
}

static void buf_reserve(struct gs_buf *b, size_t extra)
{
	if (b->len + extra + 1 > b->cap) {
		size_t n = b->cap ? b->cap : 64;
		while (n < b->len + extra + 1)
			n *= 2;
		b->p = gs_xrealloc(b->p, n);
		b->cap = n;
	}
}

void gs_buf_put(struct gs_buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = 0;
}

void gs_buf_puts(struct gs_buf *b, const char *s)
{
	gs_buf_put(b, s, strlen(s));
}

void gs_buf_putc(struct gs_buf *b, int c)
{
	char ch = (char)c;
	gs_buf_put(b, &ch, 1);
}

void gs_buf_put_int(struct gs_buf *b, int64_t v)
{
	/* printf's format parsing costs more than the digits: listings and
	 * exports print millions of these */
	char tmp[24], *e = tmp + sizeof tmp, *p = e;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	gs_buf_put(b, p, (size_t)(e - p));
}

void gs_buf_csv_quote(struct gs_buf *b, size_t from)
{
	size_t n = b->len - from;
	if (n == 0)
		return;
	const char *s = b->p + from;
	size_t q = 0;
	int quote = 0;
	for (size_t i = 0; i < n; i++) {
		q += s[i] == '"';
		quote |= s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
	}
	if (!quote)
		return;
	/* quote in place: every '"' doubled, the whole between quotes */
	for (size_t i = 0; i < q + 2; i++)
		gs_buf_putc(b, '"');
	char *p = b->p + from;
	size_t w = n + q + 2;
	p[--w] = '"';
	for (size_t i = n; i-- > 0;) {
		p[--w] = p[i];
		if (p[i] == '"')
			p[--w] = '"';
	}
	p[0] = '"';
}

void gs_buf_vprintf(struct gs_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	buf_reserve(b, (size_t)n);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void gs_buf_printf(struct gs_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gs_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

const char *gs_buf_str(const struct gs_buf *b)
{
	return b->p ? b->p : "";
}

char *gs_buf_detach(struct gs_buf *b)
{
	char *p = b->p ? b->p : gs_xstrdup("");
	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}

void gs_buf_reset(struct gs_buf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = 0;
}

void gs_buf_release(struct gs_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

void gs_buf_put_json_str(struct gs_buf *b, const char *s)
{
	gs_buf_putc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': gs_buf_puts(b, "\\\""); break;
		case '\\': gs_buf_puts(b, "\\\\"); break;
		case '\n': gs_buf_puts(b, "\\n"); break;
		case '\r': gs_buf_puts(b, "\\r"); break;
		case '\t': gs_buf_puts(b, "\\t"); break;
		default:
			if (*p < 0x20)
				gs_buf_printf(b, "\\u%04x", *p);
			else
				gs_buf_putc(b, *p);
		}
	}
	gs_buf_putc(b, '"');
}

/* Arena blocks are chained newest first; big requests get a block of their
 * own so that small ones keep filling the current block. */
struct gs_arena_block {
	struct gs_arena_block *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

#define ARENA_BLOCK (64 * 1024)

void *gs_arena_alloc(struct gs_arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	struct gs_arena_block *b = a->head;
	if (!b || b->size - b->used < n) {
		size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
		struct gs_arena_block *nb = gs_xmalloc(sizeof(*nb) + size);
		nb->size = size;
		nb->used = 0;
		nb->next = b;
		a->head = nb;
		a->total += size;
		b = nb;
	}
	void *p = b->data + b->used;
	b->used += n;
	return p;
}

char *gs_arena_strndup(struct gs_arena *a, const char *s, size_t n)
{
	char *p = gs_arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *gs_arena_strdup(struct gs_arena *a, const char *s)
{
	return gs_arena_strndup(a, s, strlen(s));
}

struct gs_arena_mark gs_arena_mark(const struct gs_arena *a)
{
	struct gs_arena_mark m = { a->head, a->head ? a->head->used : 0 };
	return m;
}

void gs_arena_reset(struct gs_arena *a, struct gs_arena_mark m)
{
	while (a->head && a->head != m.block) {
		struct gs_arena_block *b = a->head;
		a->head = b->next;
		a->total -= b->size;
		free(b);
	}
	if (a->head)
		a->head->used = m.used;
}

void gs_arena_release(struct gs_arena *a)
{
	gs_arena_reset(a, (struct gs_arena_mark){ NULL, 0 });
	a->total = 0;
}

int gs_open_regular(const char *path, uint64_t max, uint64_t *size)
{
	/* O_NONBLOCK: opening a FIFO with no writer would wait for one; the flag
	 * is cleared once the file is known to be regular, where it means
	 * nothing anyway */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	struct stat st;
	int err = 0;
	if (fstat(fd, &st) < 0)
		err = -errno;
	else if (S_ISDIR(st.st_mode))
		err = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		err = GS_ENOTREG; /* devices and pipes: /dev/zero never ends, a FIFO may never start */
	else if ((uint64_t)st.st_size > max)
		err = -EFBIG;
	else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	if (size)
		*size = (uint64_t)st.st_size;
	return fd;
}

int gs_read_file_max(const char *path, size_t max, char **out, size_t *len)
{
	int fd = gs_open_regular(path, max, NULL), err = 0;
	if (fd < 0)
		return fd;
	/* the size is read again as the file is read: it may grow meanwhile */
	struct gs_buf b = GS_BUF_INIT;
	char tmp[65536];
	for (;;) {
		ssize_t n = read(fd, tmp, sizeof tmp);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		if (b.len + (size_t)n > max) {
			err = -EFBIG;
			break;
		}
		gs_buf_put(&b, tmp, (size_t)n);
	}
	close(fd);
	if (err) {
		gs_buf_release(&b);
		return err;
	}
	*len = b.len;
	*out = gs_buf_detach(&b);
	return 0;
}

int gs_read_file(const char *path, char **out, size_t *len)
{
	return gs_read_file_max(path, GS_READ_MAX, out, len);
}

const char *gs_read_strerror(int rc)
{
	if (rc == GS_ENOTREG)
		return "not a regular file";
	if (rc == -EFBIG)
		return "larger than the " GS_READ_MAX_TEXT " limit";
	return strerror(-rc);
}

double gs_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int gs_die_with_parent(void)
{
	/* SIGKILL, not SIGTERM: a worker stuck in a kernel or a compiler in
	 * a long optimization pass must go too */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		return -1;
	/* the parent may have died before prctl: then init (or a subreaper)
	 * adopted us already, and no signal will come */
	return getppid() == 1 ? -1 : 0;
}

void gs_trace(const char *what)
{
	static int on = -1;
	static double t0;
	if (on < 0) {
		on = getenv("GSEARCH_PROFILE") != NULL;
		t0 = gs_now();
	}
	if (on)
		fprintf(stderr, "gsearch[%ld]: +%.3f s %s\n", (long)getpid(), gs_now() - t0, what);
}

int gs_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t gs_edit_distance(const char *a, const char *b, size_t cap)
{
	size_t la = strlen(a), lb = strlen(b);
	if ((la > lb ? la - lb : lb - la) > cap)
		return cap + 1;
	if (lb > 255)
		return cap + 1;
	size_t row[256];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0], best;
		row[0] = i;
		best = row[0];
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = (a[i - 1] == b[j - 1]) ? 0 : 1;
			size_t v = diag + cost;
			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			row[j] = v;
			diag = up;
			if (v < best)
				best = v;
		}
		if (best > cap)
			return cap + 1;
	}
	return row[lb];
}
