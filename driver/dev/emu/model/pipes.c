/* pipes.c — how long an SM's execution pipes take for a mix of warp
 * instructions: the busiest pipe, where each class has its own pipe at
 * issue.CLASS cycles per warp instruction [PG], except that integer and
 * fp32 instructions may share.
 *
 * Since Volta the FMA datapath executes integer multiply-adds (IMAD), and
 * ptxas uses them for plain integer work too (IMAD.MOV.U32 for moves,
 * IMAD.SHL, IMAD.IADD, IMAD.WIDE for address arithmetic) to spread
 * integer instructions over the integer ALU and the FMA pipe.  The CUDA C++
 * Programming Guide's throughput table lists, for cc 7.0 to 9.0, integer
 * add/compare/logic and integer multiply-add each at 64 operations per
 * clock per SM: two pipes.  With int_fma_lanes the integer lanes the FMA
 * datapath lends (0: none, a pipe of its own as before), I integer and F
 * fp32 warp instructions, L_i = 32 / issue.int and L_f = 32 / issue.fp32,
 * the best split of the integer work takes
 *
 *   max(32 I / (L_i + int_fma_lanes), 32 F / L_f, 32 (I + F) / (L_i + L_f))
 *
 * cycles: the integer work on both pipes, the fp32 work on its own, and
 * both together on all the lanes (an IMAD takes a lane an FFMA could have
 * used).  Every other class keeps its own pipe. */
#include "dev/emu/model/model.h"

double gs_emu_pipe_cycles(const struct gs_emu_profile *p, const double inst[GS_EMU_NCLASS],
			  int *pipe)
{
	double best = 0;
	int which = 0;
	for (int c = 0; c < GS_EMU_NCLASS; c++) {
		if (p->int_fma_lanes > 0 && (c == GS_EMU_INT || c == GS_EMU_FP32))
			continue;
		if (inst[c] * p->issue_cycles[c] > best) {
			best = inst[c] * p->issue_cycles[c];
			which = c;
		}
	}
	if (p->int_fma_lanes > 0) {
		double li = p->issue_cycles[GS_EMU_INT] > 0 ? 32 / p->issue_cycles[GS_EMU_INT] : 0;
		double lf = p->issue_cycles[GS_EMU_FP32] > 0 ? 32 / p->issue_cycles[GS_EMU_FP32] : 0;
		double in = inst[GS_EMU_INT], fp = inst[GS_EMU_FP32];
		double t_int = li + p->int_fma_lanes > 0 ? 32 * in / (li + p->int_fma_lanes) : 0;
		double t_fp = fp * p->issue_cycles[GS_EMU_FP32];
		double t_both = li + lf > 0 ? 32 * (in + fp) / (li + lf) : 0;
		double t = t_int > t_fp ? t_int : t_fp;
		if (t_both > t)
			t = t_both;
		if (t > best) {
			best = t;
			which = in >= fp ? GS_EMU_INT : GS_EMU_FP32;
		}
	}
	if (pipe)
		*pipe = which;
	return best;
}
