/* The worker's result on the wire (sched/proto.h): what the worker encodes
 * the supervisor decodes, field by field, and what is not sent reads as
 * absent. */
#include "harness.h"
#include "sched/proto.h"

#include <stdlib.h>
#include <string.h>

/* an ok result with a figure of each kind, some left unmeasured (< 0) */
static struct gs_result sample(void)
{
	struct gs_result r = {
		.status = "ok", .time_ms = 1.5, .min_ms = 1.25, .iqr_ms = 0.5,
		.reps = 7, .runs = 21, .warmups = 2,
		.ci_lo_ms = 1.4, .ci_hi_ms = 1.6, .ci_pct = 95, .timed_ms = 40,
		.blocks_per_sm = 2, .occupancy = 0.5, .limiter = "registers",
		.energy_j = -1, .power_w = 300, .sm_clock_mhz = -1, .temp_c = 60,
		.max_abs_err = 0, .max_rel_err = 0.125,
		.metrics_json = "{\"gflops\":2}", .modeled = 1, .attr = { .registers = 32 },
	};
	return r;
}

START_TEST(test_round_trip)
{
	struct gs_result r = sample();
	char *s = gs_proto_result_encode(&r);
	struct gs_proto_result d;
	ck_assert_int_eq(gs_proto_result_decode(s, &d), 0);
	ck_assert_str_eq(d.status, "ok");
	ck_assert(d.time_ms == 1.5 && d.min_ms == 1.25 && d.iqr_ms == 0.5);
	ck_assert_int_eq(d.reps, 7);
	ck_assert_int_eq(d.runs, 21);
	ck_assert_int_eq(d.warmups, 2);
	ck_assert(d.ci_lo_ms == 1.4 && d.ci_hi_ms == 1.6 && d.ci_pct == 95 && d.timed_ms == 40);
	ck_assert_int_eq(d.blocks_per_sm, 2);
	ck_assert(d.occupancy == 0.5);
	ck_assert_str_eq(d.limiter, "registers");
	ck_assert(d.energy_j == -1 && d.power_w == 300 && d.sm_clock_mhz == -1 && d.temp_c == 60);
	ck_assert(d.max_abs_err == 0 && d.max_rel_err == 0.125);
	ck_assert_ptr_null(d.error);
	ck_assert_str_eq(d.metrics, "{\"gflops\":2}");
	ck_assert_ptr_null(d.counters);
	ck_assert_int_eq(d.modeled, 1);
	ck_assert_int_eq(d.registers, 32);
	ck_assert_int_eq(d.sticky, 0);
	gs_proto_result_release(&d);
	free(s);
}
END_TEST

/* a failure sends neither its timing nor an occupancy it does not have */
START_TEST(test_failure_sends_less)
{
	struct gs_result r = sample();
	snprintf(r.status, sizeof r.status, "crash");
	snprintf(r.error, sizeof r.error, "boom");
	r.blocks_per_sm = 0;
	r.limiter[0] = 0;
	r.metrics_json = NULL;
	r.sticky = 1;
	char *s = gs_proto_result_encode(&r);
	ck_assert_str_eq(s, "{\"status\":\"crash\",\"power_w\":300.0,\"temp_c\":60.0,"
			    "\"max_abs_err\":0.0,\"max_rel_err\":0.125,\"error\":\"boom\","
			    "\"modeled\":true,\"registers\":32,\"sticky\":true}");
	struct gs_proto_result d;
	ck_assert_int_eq(gs_proto_result_decode(s, &d), 0);
	ck_assert(d.time_ms == -1);
	ck_assert_int_eq(d.reps, -1);
	ck_assert_ptr_null(d.limiter);
	ck_assert_int_eq(d.blocks_per_sm, -1);
	ck_assert_str_eq(d.error, "boom");
	ck_assert_int_eq(d.sticky, 1);
	gs_proto_result_release(&d);
	free(s);
	ck_assert_int_eq(gs_proto_result_decode("not json", &d), -1);
}
END_TEST

GS_TEST_MAIN(test_round_trip, test_failure_sends_less)
