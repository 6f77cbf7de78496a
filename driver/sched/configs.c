/* configs.c — a sweep's configurations into the store. */
#include "sched/configs.h"

#include <stdio.h>
#include <stdlib.h>

#include "space/enum.h"
#include "util/util.h"

/* The store's message says what failed (store.h): `what` only stands in
 * where it recorded none. */
static int store_fail(struct gs_store *st, const char *what)
{
	const char *m = gs_store_errmsg(st);
	fprintf(stderr, "gsearch: error: %s\n", *m ? m : what);
	return -1;
}

/* Configurations go in batches: each batch is one short transaction, so a
 * killed run loses at most the batch in flight. */
static int add_all(struct gs_store *st, int64_t sweep, const struct gs_space *sp,
		   struct gs_enum *e, int *erc)
{
	struct gs_buf json = GS_BUF_INIT;
	int in_tx = 0, rc = 0;
	uint64_t batch = 0;
	while (*erc >= 0 && (*erc = gs_enum_next(e)) > 0) {
		if (!in_tx) {
			if (gs_store_begin(st) < 0)
				break;
			in_tx = 1;
		}
		int base = sp->baseline != NULL;
		for (size_t k = 0; base && k < sp->nparams; k++)
			base = gs_value_eq(e->env[sp->params[k].slot], sp->baseline[sp->params[k].slot]);
		gs_buf_reset(&json);
		gs_config_json(sp, e->env, &json);
		if (gs_store_config_add(st, sweep, (int64_t)e->index, gs_buf_str(&json), base) < 0) {
			rc = store_fail(st, "cannot store a configuration");
			gs_store_rollback(st);
			in_tx = 0;
			break;
		}
		if (++batch == 20000) {
			in_tx = 0;
			batch = 0;
			if (gs_store_commit(st) < 0) {
				rc = store_fail(st, "cannot commit");
				break;
			}
		}
	}
	gs_buf_release(&json);
	if (in_tx && gs_store_commit(st) < 0)
		rc = store_fail(st, "cannot commit");
	return rc;
}

int gs_sweep_configs_add(struct gs_store *st, int64_t sweep, const struct gs_space *sp,
			 uint64_t shard_i, uint64_t shard_n)
{
	struct gs_enum e;
	int erc = gs_enum_init(&e, sp, shard_i, shard_n);
	int rc = add_all(st, sweep, sp, &e, &erc);
	if (erc < 0) {
		struct gs_diag d = GS_DIAG_INIT;
		gs_enum_report(&e, &d);
		gs_diag_print(&d, stderr);
		gs_diag_release(&d);
		rc = -1;
	}
	gs_enum_release(&e);
	if (rc < 0)
		return -1;
	const char **names = gs_xmalloc((sp->nparams + 1) * sizeof(*names));
	for (size_t k = 0; k < sp->nparams; k++)
		names[k] = sp->params[k].name;
	if (gs_store_views(st, sweep, sp->name, names, sp->nparams) < 0)
		fprintf(stderr, "gsearch: warning: views not created: %s\n", gs_store_errmsg(st));
	free(names);
	return 0;
}
