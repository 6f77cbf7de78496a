/* launch.c — walking a space's launch sequence (see launch.h). */
#include "dev/launch.h"

#include "space/space.h"

int gs_launch_walk(const struct gs_launch *ls, size_t nl, struct gs_value *env,
		   const struct gs_launch_visit *v, void *ctx)
{
	for (size_t li = 0; li < nl; li++) {
		const struct gs_launch *l = &ls[li];
		int64_t count = 1;
		struct gs_value seq = gs_none();
		if (v->launch(ctx, l) < 0)
			return -1;
		if (l->loop_c) {
			if (v->loop(ctx, l, &seq) < 0)
				return -1;
			count = gs_seq_len(seq);
		}
		for (int64_t it = 0; it < count; it++) {
			if (l->loop_c)
				env[l->loop_slot] = gs_seq_at(seq, it);
			for (size_t ci = 0; ci < l->ncopies; ci++)
				if (v->copy(ctx, l, &l->copies[ci]) < 0)
					return -1;
			if (v->run(ctx, l) < 0)
				return -1;
		}
	}
	return 0;
}
