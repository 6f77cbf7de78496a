/* source_enum.c — the exhaustive source (sched/source.h): the space's
 * enumeration, one configuration a call, shard-aware, in index order. */
#include "sched/source.h"

#include <stdio.h>
#include <stdlib.h>

#include "space/enum.h"
#include "util/util.h"

struct source_enum {
	struct gs_sched_source src;
	struct gs_enum e;
};

static void report(struct gs_enum *e)
{
	struct gs_diag d = GS_DIAG_INIT;
	gs_enum_report(e, &d);
	gs_diag_print(&d, stderr);
	gs_diag_release(&d);
}

static int enum_next(struct gs_sched_source *src, struct gs_candidate *out, size_t max)
{
	struct source_enum *s = (struct source_enum *)src;
	if (!max)
		return GS_SOURCE_WAIT;
	int r = gs_enum_next(&s->e);
	if (r == 0)
		return GS_SOURCE_DONE;
	if (r < 0) {
		report(&s->e);
		return GS_SOURCE_FAILED;
	}
	out->idx = (int64_t)s->e.index;
	out->env = s->e.env;
	out->pos = s->e.pos;
	return 1;
}

/* every configuration is proposed whatever the others gave */
static void enum_result(struct gs_sched_source *src, int64_t idx, const char *outcome,
			double time_ms)
{
	(void)src, (void)idx, (void)outcome, (void)time_ms;
}

static void enum_release(struct gs_sched_source *src)
{
	struct source_enum *s = (struct source_enum *)src;
	gs_enum_release(&s->e);
	free(s);
}

struct gs_sched_source *gs_sched_source_enum(const struct gs_space *sp, uint64_t shard_i,
					     uint64_t shard_n)
{
	struct source_enum *s = gs_xcalloc(1, sizeof(*s));
	s->src = (struct gs_sched_source){ enum_next, enum_result, enum_release };
	if (gs_enum_init(&s->e, sp, shard_i, shard_n) < 0) {
		report(&s->e);
		enum_release(&s->src);
		return NULL;
	}
	return &s->src;
}
