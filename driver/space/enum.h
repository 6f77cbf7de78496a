/* enum.h — lazy enumeration of a space's valid configurations.
 *
 * Order: parameters in declaration order, the last declared varying fastest,
 * each over its values in the order written — the order of Python's
 * itertools.product.  A constraint (or let) is evaluated as soon as the
 * last parameter it depends on is bound, so a failing prefix prunes its
 * whole subtree.  Memory is O(number of parameters), whatever the size of
 * the space.
 *
 * Configurations are numbered 0, 1, ... among the valid ones in that order;
 * shard i of N takes the configurations whose index is i modulo N, which
 * balances the shards in valid configurations and makes them disjoint and
 * covering. */
#ifndef GS_ENUM_H
#define GS_ENUM_H

#include <stdint.h>

#include "lang/expr.h"
#include "space/space.h"

struct gs_enum {
	const struct gs_space *sp;
	struct gs_vm vm;
	struct gs_value *env; /* the current configuration: params and lets bound */
	size_t *pos;          /* value index per parameter */
	struct gs_arena_mark *marks; /* scratch memory in use once levels < k are bound */
	int state;            /* 0 new, 1 running, 2 done */
	int k;                /* parameter being advanced */
	uint64_t index;       /* valid index of the current configuration */
	uint64_t nvalid;      /* valid configurations met so far */
	uint64_t visited;     /* parameter bindings tried */
	uint64_t shard_i, shard_n;
	uint64_t *rejected;   /* per require: partial configurations it cut */
	struct gs_loc err_loc;
	char err[256];
	int err_level;        /* parameters bound when the error happened */
	int defer;            /* level from which checks wait for full configurations, or -1 */
};

int gs_enum_init(struct gs_enum *e, const struct gs_space *sp, uint64_t shard_i, uint64_t shard_n);
/* 1: e->env holds the next configuration of the shard; 0: no more;
 * -1: an expression failed (see gs_enum_report). */
int gs_enum_next(struct gs_enum *e);
/* Record the last error with the configuration that caused it. */
void gs_enum_report(const struct gs_enum *e, struct gs_diag *d);
void gs_enum_release(struct gs_enum *e);

struct gs_count {
	uint64_t valid;     /* in the whole space */
	uint64_t cartesian; /* product of the domain sizes (saturates) */
	int cartesian_overflow;
	uint64_t visited;
	uint64_t *rejected; /* per require, owned by the caller (nrequires) or NULL */
	uint64_t before;    /* with a limit: valid configurations ordered before it */
	int limit_valid;    /* with a limit: the limit itself is valid */
};

/* Count without visiting the unconstrained tail of the space.  `limit`
 * (value indices per parameter, or NULL) also finds the valid index of that
 * configuration.  0 or -1 after recording an error. */
int gs_enum_count(const struct gs_space *sp, const size_t *limit, struct gs_count *c,
		  struct gs_diag *d);

/* Compute the lets of a configuration whose parameters are set in env, and
 * check its constraints.  1: valid; 0: rejected (*failed = index of the
 * first failing require); -1: an expression failed (recorded in d). */
int gs_config_check(const struct gs_space *sp, struct gs_value *env, struct gs_vm *vm, int *failed,
		    struct gs_diag *d);

/* Is the space's baseline one of its valid configurations?  1: yes, or the
 * space names none; 0: a require rejects it (*failed = its index), recorded
 * in d as an error at the baseline with a note at the require; -1: an
 * expression failed (recorded in d). */
int gs_baseline_check(const struct gs_space *sp, int *failed, struct gs_diag *d);

/* "TILE=16 UNROLL=4 ..." of the first `n` parameters of env. */
void gs_config_describe(const struct gs_space *sp, const struct gs_value *env, size_t n,
			const char *sep, struct gs_buf *b);
/* {"TILE":16,...} in declaration order: the canonical form the store keeps. */
void gs_config_json(const struct gs_space *sp, const struct gs_value *env, struct gs_buf *b);

#endif
