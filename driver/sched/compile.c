/* compile.c — the compile pipeline: enumerate, consult the cache, compile
 * new variants on the libuv thread pool, store on the loop thread. */
#include "sched/compile.h"

#include <stdio.h>
#include <string.h>

#include "gen/variant.h"
#include "util/util.h"

void gs_compile_variant(struct gs_nvrtc *nvrtc, const struct gs_variant *v, int want_ptx,
			int isolated, double timeout_s, struct gs_built *b)
{
	memset(b, 0, sizeof(*b));
	b->res.spill_stores = b->res.spill_loads = -1;
	struct gs_compile_in in = {
		.name = v->name,
		.source = v->source,
		.opts = (const char *const *)v->opts,
		.nopts = v->nopts,
		.name_exprs = (const char *const *)v->names,
		.nnames = v->nnames,
		.want_ptx = want_ptx,
		.want_cubin = 1,
	};
	int rc = isolated ? gs_nvrtc_compile_isolated(&in, &b->out, timeout_s)
			  : gs_nvrtc_compile(nvrtc, &in, &b->out);
	if (rc < 0) {
		b->nvrtc_failed = 1;
		snprintf(b->err, sizeof b->err, "NVRTC failed: %s", b->out.log ? b->out.log : "?");
		return;
	}
	if (!b->out.ok || !v->nnames)
		return;
	/* resources of the first entry: the one the space's first launch calls */
	const char *entry = b->out.lowered && b->out.lowered[0] ? b->out.lowered[0] : v->names[0];
	char err[256];
	if (gs_cubin_resources(b->out.cubin, b->out.cubin_len, entry, &b->res, err, sizeof err) < 0) {
		snprintf(b->err, sizeof b->err, "cannot read resources of '%s': %s", entry, err);
		return;
	}
	struct gs_resources log = b->res;
	if (b->out.log && gs_ptxas_log_resources(b->out.log, entry, &log) == 0) {
		b->res.spill_stores = log.spill_stores;
		b->res.spill_loads = log.spill_loads;
	}
}

void gs_built_release(struct gs_built *b, size_t nnames)
{
	gs_compile_out_release(&b->out, nnames);
}
