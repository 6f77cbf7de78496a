/* overhead.c — the overhead factor of a sweep; see overhead.h. */
#include "query/overhead.h"

void gs_overhead(const struct gs_overhead_in *in, struct gs_overhead *out)
{
	int devices = in->devices > 0 ? in->devices : 1;

	*out = (struct gs_overhead){ 0 };
	if (in->compile_threads > 0 && in->compile_busy_s > 0)
		out->compile_s = in->compile_busy_s / in->compile_threads;
	if (in->work_s > 0) {
		out->from = GS_OV_WORK;
		out->kernel_s = in->work_s;
	} else if (in->timed_s > 0) {
		out->from = GS_OV_TIMED;
		out->kernel_s = in->timed_s;
	} else if (in->device_busy_s > 0) {
		out->from = GS_OV_BUSY;
		out->kernel_s = in->device_busy_s;
	}
	out->device_s = out->kernel_s / devices;
	out->bound_s = out->compile_s > out->device_s ? out->compile_s : out->device_s;
	out->factor = out->bound_s > 0 && in->wall_s > 0 ? in->wall_s / out->bound_s : 0;
}

void gs_overhead_text(struct gs_buf *b, const struct gs_overhead_in *in,
		      const struct gs_overhead *ov)
{
	gs_buf_printf(b, "wall %.2f s, compile busy %.2f s", in->wall_s > 0 ? in->wall_s : 0,
		      in->compile_busy_s > 0 ? in->compile_busy_s : 0);
	if (in->compile_threads > 0)
		gs_buf_printf(b, " on %d thread%s", in->compile_threads,
			      in->compile_threads == 1 ? "" : "s");
	gs_buf_printf(b, ", device busy %.2f s", in->device_busy_s > 0 ? in->device_busy_s : 0);
	if (in->devices > 1)
		gs_buf_printf(b, " on %d devices", in->devices);
	if (ov->from == GS_OV_WORK || ov->from == GS_OV_TIMED)
		gs_buf_printf(b, ", timed %.2f s", ov->kernel_s);
	if (ov->factor > 0)
		gs_buf_printf(b, ", overhead factor %.2f", ov->factor);
}
