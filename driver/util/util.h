/* util.h — allocation, growable buffers and hashing shared by every module.
 *
 * Out-of-memory is fatal in exactly one place (gs_oom): every gs_x* allocator
 * either returns memory or never returns.  Buffers own their bytes; the caller
 * releases them with gs_buf_release.  Arenas own every block they hand out;
 * gs_arena_release frees them all at once. */
#ifndef GS_UTIL_H
#define GS_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define GS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define GS_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define GS_NORETURN __attribute__((noreturn))
#else
#define GS_PRINTF(f, a)
#define GS_NORETURN
#endif

GS_NORETURN void gs_oom(void);
void *gs_xmalloc(size_t n);
void *gs_xcalloc(size_t n, size_t size);
void *gs_xrealloc(void *p, size_t n);
char *gs_xstrdup(const char *s);
char *gs_xstrndup(const char *s, size_t n);
char *gs_xasprintf(const char *fmt, ...) GS_PRINTF(1, 2);

/* Grow *p (an array of *cap elements of size `size`) so that it holds at
 * least `need` elements. */
void gs_grow(void *pp, size_t *cap, size_t need, size_t size);

/* A growable, always NUL-terminated byte string. */
struct gs_buf {
	char *p; /* NUL-terminated; NULL until the first append */
	size_t len;
	size_t cap;
};
#define GS_BUF_INIT { NULL, 0, 0 }
void gs_buf_put(struct gs_buf *b, const void *p, size_t n);
void gs_buf_puts(struct gs_buf *b, const char *s);
void gs_buf_putc(struct gs_buf *b, int c);
void gs_buf_put_int(struct gs_buf *b, int64_t v); /* decimal */
void gs_buf_printf(struct gs_buf *b, const char *fmt, ...) GS_PRINTF(2, 3);
void gs_buf_vprintf(struct gs_buf *b, const char *fmt, va_list ap);
const char *gs_buf_str(const struct gs_buf *b); /* "" when empty */
char *gs_buf_detach(struct gs_buf *b);          /* caller frees; b is reset */
void gs_buf_reset(struct gs_buf *b);            /* len = 0, keeps memory */
void gs_buf_release(struct gs_buf *b);
/* Quote what b holds from offset `from` on as a CSV field, if it must be:
 * within double quotes, each double quote doubled. */
void gs_buf_csv_quote(struct gs_buf *b, size_t from);
/* Append s as a JSON string literal (quotes included). */
void gs_buf_put_json_str(struct gs_buf *b, const char *s);

/* Bump allocator.  gs_arena_mark/gs_arena_reset rewind to a mark, which
 * makes per-evaluation scratch memory free. */
struct gs_arena_block;
struct gs_arena {
	struct gs_arena_block *head;
	size_t total;
};
#define GS_ARENA_INIT { NULL, 0 }
void *gs_arena_alloc(struct gs_arena *a, size_t n);
char *gs_arena_strndup(struct gs_arena *a, const char *s, size_t n);
char *gs_arena_strdup(struct gs_arena *a, const char *s);
struct gs_arena_mark {
	struct gs_arena_block *block;
	size_t used;
};
struct gs_arena_mark gs_arena_mark(const struct gs_arena *a);
void gs_arena_reset(struct gs_arena *a, struct gs_arena_mark m);
void gs_arena_release(struct gs_arena *a);

/* Content hashes (XXH3-128).  The hex form is 32 lowercase digits. */
struct gs_hasher;
struct gs_hasher *gs_hasher_new(void);
void gs_hasher_update(struct gs_hasher *h, const void *p, size_t n);
/* Feed a length-prefixed field so that ("ab","c") and ("a","bc") differ. */
void gs_hasher_field(struct gs_hasher *h, const void *p, size_t n);
void gs_hasher_hex(struct gs_hasher *h, char out[33]); /* frees h */
void gs_hash_hex(const void *p, size_t n, char out[33]);

/* A set of names, each with an int: open addressing on XXH3-64.  Keys are
 * not copied; the caller keeps them alive as long as the map. */
struct gs_strmap {
	struct gs_strmap_slot *slots;
	size_t cap, n;
};
#define GS_STRMAP_INIT { NULL, 0, 0 }
/* Adds key -> val unless key is present; returns the value key had (>= 0),
 * or -1 when it was added.  val must be >= 0. */
int gs_strmap_add(struct gs_strmap *m, const char *key, int val);
/* The value of key, or -1. */
int gs_strmap_get(const struct gs_strmap *m, const char *key);
void gs_strmap_release(struct gs_strmap *m);

/* Read a whole regular file of at most GS_READ_MAX bytes (spaces, T1 files,
 * kernel sources); returns 0, a negative errno, GS_ENOTREG for anything that
 * is not a regular file (a device, a FIFO, a socket), or -EFBIG when it is
 * too large.  *out is NUL-terminated and owned by the caller.  Opening never
 * blocks.  gs_read_strerror says what a return value means. */
#define GS_READ_MAX ((size_t)64 << 20)
#define GS_READ_MAX_TEXT "64 MiB"
#define GS_ENOTREG (-0x4000)
int gs_read_file(const char *path, char **out, size_t *len);
/* The same with another size limit (-EFBIG reads "larger than the
 * GS_READ_MAX_TEXT limit" whatever `max` was: name the limit yourself). */
int gs_read_file_max(const char *path, size_t max, char **out, size_t *len);
const char *gs_read_strerror(int rc);
/* The one rule for every file gsearch reads, for readers that stream:
 * open path when it is a regular file of at most max bytes, without
 * blocking on a FIFO.  A descriptor (blocking, close-on-exec; the caller
 * closes it) with the size in *size (when not NULL), or a negative return
 * as gs_read_file's.  The reader still stops at max: a file may grow. */
int gs_open_regular(const char *path, uint64_t max, uint64_t *size);
/* The limit of a file(...) data file: past the memory of any GPU, so that
 * only something that is no data file meets it. */
#define GS_DATA_READ_MAX ((uint64_t)256 << 30)
#define GS_DATA_READ_MAX_TEXT "256 GiB"

/* Monotonic clock in seconds. */
double gs_now(void);
/* With GSEARCH_PROFILE set: "gsearch[PID]: +0.123 s WHAT" on stderr, the time
 * since this process's first call; nothing otherwise. */
void gs_trace(const char *what);
/* Children of the supervisor (workers, compile servers) call this first: the
 * kernel kills them when the supervisor dies, however it dies.  -1 when the
 * parent is already gone: the caller should exit. */
int gs_die_with_parent(void);

/* Edit distance, capped: returns > cap as soon as it is known to exceed it. */
size_t gs_edit_distance(const char *a, const char *b, size_t cap);

/* The value of a hexadecimal digit, or -1. */
int gs_hex_digit(int c);

#endif
