/* variant.h — what NVRTC compiles for one configuration, and its cache key.
 *
 * A variant is the kernel source (behind a #line that points NVRTC's messages
 * at the user's file), the -D defines of every parameter and let, the
 * space's compiler options, the target architecture and the kernel entry
 * names.  Its hash covers the source as the compiler sees it (gs_source_key:
 * comments and blanks out), defines, options, architecture and NVRTC
 * version, so a changed kernel never reuses a stale cubin and a changed
 * comment reuses everything.
 * gs_variant_release frees everything a variant owns. */
#ifndef GS_VARIANT_H
#define GS_VARIANT_H

#include "lang/expr.h"
#include "space/space.h"

struct gs_variant {
	char *name;       /* file name NVRTC reports against */
	char *source;
	char **opts;      /* every NVRTC option, in order */
	size_t nopts;
	size_t nkey_opts; /* opts[0..nkey_opts) are in the hash; the rest are host paths */
	char **names;     /* kernel entries (name expressions) */
	size_t nnames;
	char arch[16];    /* "sm_90" */
	char src_hash[33]; /* of the file's name and gs_source_key of its text */
	char hash[33];
};

/* Build the variant of the configuration in env (parameters and lets bound,
 * as gs_enum_next leaves them).  arch: "sm_90".  0, or -1 with a message. */
int gs_variant_build(const struct gs_space *sp, const struct gs_value *env, const char *arch,
		     const char *nvrtc_version, struct gs_vm *vm, struct gs_variant *v, char *err,
		     size_t errlen);
/* The options of the variant's key alone (opts[0..nkey_opts) of
 * gs_variant_build), without the source: *opts, *n of them, freed by
 * gs_variant_key_options_free, also after -1 (with a message). */
int gs_variant_key_options(const struct gs_space *sp, const struct gs_value *env, const char *arch,
			   struct gs_vm *vm, char ***opts, size_t *n, char *err, size_t errlen);
void gs_variant_key_options_free(char **opts, size_t n);
/* Append to out what of a kernel source a compile depends on: the text with
 * comments out and blanks collapsed, literals and line structure kept where
 * they can matter (srckey.c says which).  Two sources with the same key
 * compile to the same code. */
void gs_source_key(const char *text, size_t len, struct gs_buf *out);
/* hex: the hash of gs_source_key of text. */
void gs_source_key_hash(const char *text, size_t len, char hex[33]);

/* The key options joined by spaces, for the store and for people. */
char *gs_variant_options_text(const struct gs_variant *v);
void gs_variant_release(struct gs_variant *v);

/* The --include-path options a kernel file compiles with, malloc'd into
 * out[0..2): its own directory (where it has one) and the toolkit's
 * headers (cuda_fp16.h, ...: $CUDA_HOME/include, else /usr/local/cuda's,
 * where it exists).  Returns how many.  Not part of a variant's key: they
 * say where things are on this host. */
size_t gs_include_opts(const char *kernel_path, char *out[2]);

/* -D value text of a parameter or let value: ints as decimal, bools 1/0,
 * floats in their shortest form, strings as written. */
void gs_define_value(struct gs_buf *b, struct gs_value v);
/* "-DNAME=value" */
void gs_define_value_to(struct gs_buf *b, const char *name, struct gs_value v);

#endif
