/* qcols.h — the names a sweep's results answer to, shared by the query
 * layer (which reads them) and the space checker (which keeps parameters
 * and metrics off them, so that `--where time_ms < 1`, a metric and an
 * export column each mean one thing).  Both include it from core/, which
 * lies below the two (see core/diag.h).
 *
 * GS_QCOLS(X) is the query catalogue: X(name, SQL, header, unit, type,
 * table (0 result, 1 config, 2 variant), more is better).  The type uses
 * GS_T() and T_NUM, which only its expander needs. */
#ifndef GS_QCOLS_H
#define GS_QCOLS_H

#include <string.h>

#define GS_QCOLS(X)                                                                              \
	X("idx", NULL, "idx", "", GS_T(INT), 0, 0)                                                 \
	X("baseline", "c.baseline", "base", "", GS_T(INT), 1, 0)                                    \
	X("status", "r.status", "status", "", GS_T(STR), 0, 0)                                      \
	X("time_ms", "r.time_ms", "time ms", "ms", T_NUM, 0, 0)                                     \
	X("min_ms", "r.min_ms", "min ms", "ms", T_NUM, 0, 0)                                        \
	X("iqr_ms", "r.iqr_ms", "iqr ms", "ms", T_NUM, 0, 0)                                        \
	X("reps", "r.reps", "reps", "", T_NUM, 0, 0)                                                \
	X("ci_lo_ms", "r.ci_lo_ms", "ci lo ms", "ms", T_NUM, 0, 0)                                  \
	X("ci_hi_ms", "r.ci_hi_ms", "ci hi ms", "ms", T_NUM, 0, 0)                                  \
	X("ci_pct", "r.ci_pct", "ci cov %", "%", T_NUM, 0, 0)                                       \
	X("runs", "r.runs", "runs", "", T_NUM, 0, 0)                                                \
	X("warmups", "r.warmups", "warm-ups", "", T_NUM, 0, 0)                                      \
	X("timed_ms", "r.timed_ms", "timed ms", "ms", T_NUM, 0, 0)                                  \
	X("registers", "v.registers", "regs", "", T_NUM, 2, 0)                                      \
	X("static_smem", "v.static_smem", "smem", "B", T_NUM, 2, 0)                                 \
	X("local_bytes", "v.local_bytes", "local", "B", T_NUM, 2, 0)                                \
	X("spill_stores", "v.spill_stores", "spill st", "B", T_NUM, 2, 0)                           \
	X("spill_loads", "v.spill_loads", "spill ld", "B", T_NUM, 2, 0)                             \
	X("max_threads", "v.max_threads", "max thr", "", T_NUM, 2, 0)                               \
	X("compile_s", "v.compile_s", "compile s", "s", T_NUM, 2, 0)                                \
	X("blocks_per_sm", "r.blocks_per_sm", "blk/SM", "", T_NUM, 0, 1)                            \
	X("occupancy", "r.occupancy", "occ", "", T_NUM, 0, 1)                                       \
	X("limiter", "r.limiter", "limiter", "", GS_T(STR), 0, 0)                                   \
	X("energy_j", "r.energy_j", "energy J", "J", T_NUM, 0, 0)                                   \
	X("power_w", "r.power_w", "power W", "W", T_NUM, 0, 0)                                      \
	X("sm_clock_mhz", "r.sm_clock_mhz", "MHz", "MHz", T_NUM, 0, 0)                              \
	X("temp_c", "r.temp_c", "temp C", "C", T_NUM, 0, 0)                                         \
	X("max_abs_err", "r.max_abs_err", "abs err", "", T_NUM, 0, 0)                               \
	X("max_rel_err", "r.max_rel_err", "rel err", "", T_NUM, 0, 0)                               \
	X("error", "r.error", "error", "", GS_T(STR), 0, 0)                                         \
	X("device", "r.device", "device", "", GS_T(STR), 0, 0)                                      \
	X("measured_at", "r.measured_at", "measured", "", GS_T(STR), 0, 0)

/* Short names people type for the common resources: X(alias, name). */
#define GS_QALIASES(X) X("regs", "registers") X("smem", "static_smem")

/* Is `name` a result field or an alias of one, which no parameter or
 * metric may be called? */
static inline int gs_qfield_reserved(const char *name)
{
#define GS_QNAME_(n, ...) n,
	static const char *const names[] = { GS_QCOLS(GS_QNAME_) GS_QALIASES(GS_QNAME_) };
#undef GS_QNAME_
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

#endif
