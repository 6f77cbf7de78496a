/* sass.c — how many global loads a warp keeps in flight, read from the
 * machine code ptxas made for the kernel (the cubin's .text.<entry>).
 *
 * The PTX the emulator executes names a fresh virtual register for every
 * load, so its dependency chains (probe.c) let all the loads of a basic
 * block be in flight at once.  ptxas may not: under a register cap it can
 * give the loads of a tile the same destination register, and then each
 * load waits for the consumer of the one before (results/matvec-sass-h100.txt:
 * matvec at 32 registers keeps one load in flight per warp where the
 * 40-register build keeps four, and runs 1.8 times longer on an H100).  The
 * PTX cannot say when ptxas will do that; its output can.
 *
 * What is read of each 128-bit instruction (sm_70 to sm_90; Jia et al.,
 * "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking",
 * 2018, Sec. 2, and checked on NVRTC 13 cubins for sm_75 to sm_90):
 *
 *   bits 0..11     the opcode: LDG is 0x381 up to sm_75, 0x981 from sm_80;
 *   bits 105..108  the stall count: the cycles before the warp may issue
 *                  again (gs_emu_sass_gap; 0 read as 1);
 *   bits 110..112  the scoreboard a variable-latency instruction releases
 *                  when its result is written (7: none);
 *   bits 116..121  the scoreboards an instruction waits for before it issues.
 *
 * Walking the code in address order, a load is in flight from its issue
 * until the first instruction that waits for its scoreboard.  A load's
 * window is the most loads in flight at any time during its own flight,
 * itself included: the loads it can overlap with.  Branches are not
 * followed (a loop's loads are seen once, as one iteration of it), and
 * DEPBAR's partial waits are not decoded, so a window can only come out
 * too wide, never too narrow: the model then overlaps as the PTX says.
 *
 * The windows come in code order, one per LDG.  probe.c pairs them with the
 * PTX's ld.global instructions in their order, and only when the counts
 * agree (pair_windows).
 *
 * The same code says how much of it the warps stream through, which the
 * instruction fetch term needs (icache.c): ptxas unrolls counted loops on
 * its own (kmeans's 64-centroid loop became 89 and 158 KiB of straight
 * code at one and two points a thread, where the PTX loop is 2 KiB;
 * results/heldout4/ncu-kmeans-h100.txt), and the PTX cannot tell.  A BRA
 * (opcode 0x947) whose target lies before it closes a loop; its byte
 * offset from the next instruction is signed, its bits 2..9 in bits
 * 16..23 and its bits 10 and up in bits 34..81 (read off cuobjdump's
 * listing of sm_90 cubins: 0x0000000400e00947 at 0x50 branches to 0x7e0,
 * 0xfffffff800541947 at 0x9b0 to 0x310). */
#include "dev/emu/model/model.h"
#include "gen/gen.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NO_SB 7
#define OP_BRA 0x947 /* BRA, sm_70 to sm_90 */

static unsigned bits(const unsigned char *p, unsigned lo, unsigned n)
{
	unsigned v = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned b = lo + i;
		v |= (unsigned)(p[b >> 3] >> (b & 7) & 1) << i;
	}
	return v;
}

int gs_emu_sass_windows(const unsigned char *code, size_t len, int arch, uint8_t **win, size_t *nwin)
{
	unsigned ldg;
	*win = NULL;
	*nwin = 0;
	if (arch >= 70 && arch < 80)
		ldg = 0x381;
	else if (arch >= 80 && arch <= 90)
		ldg = 0x981;
	else
		return -1; /* encodings not checked here */
	size_t n = len / 16, nl = 0;
	for (size_t i = 0; i < n; i++)
		nl += bits(code + 16 * i, 0, 12) == ldg;
	if (!nl)
		return 0;
	uint8_t *w = calloc(nl, 1);
	unsigned *sb = malloc(nl * sizeof(*sb));
	size_t *pending = malloc(nl * sizeof(*pending));
	if (!w || !sb || !pending) {
		free(w);
		free(sb);
		free(pending);
		return -1;
	}
	size_t np = 0, k = 0;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *in = code + 16 * i;
		unsigned wait = bits(in, 116, 6);
		if (wait) {
			size_t j = 0;
			for (size_t q = 0; q < np; q++)
				if (!(wait >> sb[pending[q]] & 1))
					pending[j++] = pending[q];
			np = j;
		}
		if (bits(in, 0, 12) != ldg)
			continue;
		unsigned s = bits(in, 110, 3);
		w[k] = 1;
		if (s == NO_SB) { /* nothing waits for it: it overlaps everything */
			w[k++] = UINT8_MAX;
			continue;
		}
		sb[k] = s;
		pending[np++] = k++;
		for (size_t q = 0; q < np; q++)
			if (w[pending[q]] < np)
				w[pending[q]] = np < UINT8_MAX ? (uint8_t)np : UINT8_MAX;
	}
	free(sb);
	free(pending);
	*win = w;
	*nwin = nl;
	return 0;
}

/* The offset of a BRA, bits 2..57, sign-extended from bit 81. */
static int64_t bra_offset(const unsigned char *in)
{
	uint64_t lo = bits(in, 16, 8), hi = 0;
	for (unsigned i = 0; i < 48; i++)
		hi |= (uint64_t)bits(in, 34 + i, 1) << i;
	uint64_t v = lo << 2 | hi << 10;
	if (bits(in, 81, 1))
		v |= ~(uint64_t)0 << 58;
	return (int64_t)v;
}

/* The instructions of the loop the instruction at index i closes, from its
 * target to it, the branch included; 0 where it is no backward BRA (a
 * branch to itself, the trap after the last EXIT, is no loop; nor is one
 * that would reach before the code). */
static size_t loop_span(const unsigned char *in, size_t i)
{
	if (bits(in, 0, 12) != OP_BRA)
		return 0;
	int64_t off = bra_offset(in);
	return off < -16 && (uint64_t)-off <= 16 * i + 16 ? (size_t)(-off / 16) : 0;
}

int gs_emu_sass_loops(const unsigned char *code, size_t len, int arch, size_t *loop_bytes)
{
	*loop_bytes = 0;
	if (arch < 70 || arch > 90)
		return -1;
	for (size_t i = 0; i + 16 <= len; i += 16) {
		size_t span = loop_span(code + i, i / 16);
		if (16 * span > *loop_bytes)
			*loop_bytes = 16 * span;
	}
	return 0;
}

/* The forward transfers of control the machine code kept: BRAs that
 * jump ahead (an if's skip or an else's jump) and predicated EXITs (a
 * guard that returns, a forward branch to the PTX's ret).  ptxas turns
 * short ifs into predicated code (if-conversion): life's 30 guarded
 * loads, each a PTX branch over six instructions, are 30 predicated
 * LDGs in one straight run (heldout7, ALG=1 WPT=8: 39 forward PTX
 * branches, 9 transfers kept).  The predicate is bits 12..14, 7 for
 * always (sm_70 to sm_90, against nvdisasm's listing: @P0 EXIT is
 * 0x094d, EXIT 0x794d). */
#define OP_EXIT 0x94d

int gs_emu_sass_forward(const unsigned char *code, size_t len, int arch, size_t *n)
{
	*n = 0;
	if (arch < 70 || arch > 90)
		return -1;
	for (size_t i = 0; i + 16 <= len; i += 16) {
		unsigned op = bits(code + i, 0, 12);
		if ((op == OP_BRA && bra_offset(code + i) > 0) ||
		    (op == OP_EXIT && bits(code + i, 12, 3) != 7))
			(*n)++;
	}
	return 0;
}

/* Instructions that are only padding (NOP): never issued in a loop's run. */
#define OP_NOP 0x918

int gs_emu_sass_gap(const unsigned char *code, size_t len, int arch, double *gap)
{
	*gap = 0;
	if (arch < 70 || arch > 90)
		return -1;
	size_t n = len / 16;
	if (!n)
		return 0;
	uint8_t *in_loop = calloc(n, 1);
	if (!in_loop)
		return -1;
	int any = 0;
	for (size_t i = 0; i < n; i++) {
		size_t span = loop_span(code + 16 * i, i);
		for (size_t j = i + 1 - span; j <= i; j++)
			in_loop[j] = 1;
		any |= span > 0;
	}
	double sum = 0, cnt = 0;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *in = code + 16 * i;
		unsigned op = bits(in, 0, 12);
		if ((any && !in_loop[i]) || op == OP_NOP)
			continue;
		if (op == OP_BRA && bra_offset(in) == -16)
			continue; /* the trap after the last EXIT */
		unsigned st = bits(in, 105, 4);
		sum += st ? st : 1;
		cnt++;
	}
	free(in_loop);
	*gap = cnt ? sum / cnt : 0;
	return 0;
}

/* LDS (0x984 from sm_80; checked on NVRTC 13 cubins for sm_80, sm_86 and
 * sm_90 against nvdisasm's listing) keeps its size in bits 73..75: 4 for
 * 32 bits, 5 for 64, 6 for 128; below 4 the sub-word loads. */
#define OP_LDS 0x984

int gs_emu_sass_lds(const unsigned char *code, size_t len, int arch, unsigned *bytes)
{
	*bytes = 0;
	if (arch < 80 || arch > 90)
		return -1;
	for (size_t i = 0; i + 16 <= len; i += 16) {
		if (bits(code + i, 0, 12) != OP_LDS)
			continue;
		unsigned s = bits(code + i, 73, 3), b = s == 6 ? 16 : s == 5 ? 8 : 4;
		if (b > *bytes)
			*bytes = b;
	}
	return 0;
}

int gs_emu_cubin_facts(const void *cubin, size_t len, const char *entry, struct gs_emu_code *out)
{
	const unsigned char *code;
	size_t n;
	int arch;
	char err[128];
	memset(out, 0, sizeof(*out));
	if (gs_cubin_code(cubin, len, entry, &code, &n, &arch, err, sizeof err) < 0)
		return -1;
	if (gs_emu_sass_windows(code, n, arch, &out->win, &out->nwin) < 0 ||
	    gs_emu_sass_loops(code, n, arch, &out->loop_bytes) < 0 ||
	    gs_emu_sass_gap(code, n, arch, &out->issue_gap) < 0 ||
	    gs_emu_sass_forward(code, n, arch, &out->fwd) < 0) {
		free(out->win);
		memset(out, 0, sizeof(*out));
		return -1;
	}
	/* an architecture whose LDS is not read here merges nothing */
	if (gs_emu_sass_lds(code, n, arch, &out->lds_bytes) < 0)
		out->lds_bytes = 0;
	out->text_bytes = n;
	return 0;
}
