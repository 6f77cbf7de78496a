/* test_emu_occ.c — the emulated devices' occupancy: the seeds' worked
 * examples on the 8800 GTX and the Fermi-class SM of Kirk & Hwu, hand-checked
 * sm_80/sm_90 cases, and a sweep against the CUDA toolkit's cuda_occupancy.h
 * wherever the toolkit's headers are installed. */
#include "harness.h"
#include "dev/emu.h"
#include "dev/emu/interp/interp.h"

#include <stdlib.h>

#if defined(__has_include)
#if __has_include(<cuda_occupancy.h>)
#include <cuda_occupancy.h>
#define HAVE_CUDA_OCC 1
#endif
#endif

static const struct gs_emu_profile *prof(const char *name)
{
	const struct gs_emu_profile *p = gs_emu_profile_find(name);

	ck_assert_msg(p != NULL, "no profile %s", name);
	return p;
}

/* blocks per SM, or -1 when the block cannot run */
static int blocks(const struct gs_emu_profile *p, int threads, int regs, int smem)
{
	struct gs_emu_occ o;
	char why[256];

	if (gs_emu_occupancy(p, threads, regs, smem, &o, why, sizeof why) < 0) {
		ck_assert_msg(why[0] != '\0', "no reason given");
		return -1;
	}
	ck_assert_int_eq(o.active_threads, o.blocks_per_sm * threads);
	return o.blocks_per_sm;
}

static struct gs_emu_occ occ(const struct gs_emu_profile *p, int threads, int regs, int smem)
{
	struct gs_emu_occ o;
	char why[256];

	ck_assert_msg(gs_emu_occupancy(p, threads, regs, smem, &o, why, sizeof why) == 0, "%s",
		      why);
	return o;
}

START_TEST(test_profiles_listed)
{
	const char *names[] = { "g80", "gf100", "sm_80", "sm_86", "sm_90" };
	int n = 0;

	while (gs_emu_profiles[n])
		n++;
	ck_assert_int_eq(n, 5);
	for (int i = 0; i < 5; i++) {
		const struct gs_emu_profile *p = prof(names[i]);

		ck_assert_str_eq(p->name, names[i]);
		ck_assert_int_eq(p->max_warps_sm * p->warp_size, p->max_threads_sm);
		ck_assert(p->mem_latency > 0 && p->clock_mhz > 0 && p->mem_bw_gbs > 0);
		for (int k = 0; k < GS_EMU_NCLASS; k++)
			ck_assert_msg(p->issue_cycles[k] > 0, "%s class %d", p->name, k);
	}
	ck_assert_ptr_null(gs_emu_profile_find("sm_91"));
	ck_assert_str_eq(prof("g80")->arch, "sm_75");
	ck_assert_str_eq(prof("gf100")->arch, "sm_75");
	ck_assert_str_eq(prof("sm_90")->arch, "sm_90");
	ck_assert_int_eq(prof("g80")->model, GS_EMU_MODEL_MWP);
	ck_assert_int_eq(prof("sm_90")->model, GS_EMU_MODEL_INTERVAL);
}
END_TEST

/* The profile format: errors name their line; a minimal file parses. */
START_TEST(test_profile_parse)
{
	struct gs_emu_profile p;
	char err[256];
	static const char good[] =
		"# comment\nname = t\ngpu = Test GPU  # trailing comment\ncc = 9.0\narch = sm_90\n"
		"model = mwp-cwp\nsms = 2\nclock_mhz = 1000\nmem_bw_gbs = 100\nwarp_size = 32\n"
		"max_threads_block = 1024\nmax_threads_sm = 2048\nmax_blocks_sm = 32\n"
		"max_warps_sm = 64\nregs_sm = 65536\nregs_block = 65536\nmax_regs_thread = 255\n"
		"reg_alloc_unit = 256\nreg_alloc_by_block = 0\nwarp_alloc_gran = 4\n"
		"smem_sm = 1000\nsmem_block = 1000\nsmem_alloc_unit = 128\n"
		"smem_reserved_block = 0\nbanks = 32\ncoalesce = sectors\nmem_latency = 500\n"
		"departure_delay = 4\ndeparture_delay_uncoal = 2\nissue.int = 1\nissue.fp32 = 1\n"
		"issue.fp64 = 1\nissue.sfu = 1\nissue.mem = 1\nissue.ctrl = 1\n"
		"issue.barrier = 1\nissue.other = 1\nbarrier_cycles = 1\nlaunch_overhead_us = 1\n";

	ck_assert_msg(gs_emu_profile_parse(good, &p, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(p.gpu, "Test GPU");
	ck_assert_int_eq(p.cc_major, 9);
	ck_assert_int_eq(p.sms, 2);
	ck_assert_int_eq(gs_emu_profile_parse("name = a\n\nsms = x\n", &p, err, sizeof err), -1);
	ck_assert_str_eq(err, "3: sms = x: not an integer 1 to 4096");
	ck_assert_int_eq(gs_emu_profile_parse("name = a\nfoo = 1\n", &p, err, sizeof err), -1);
	ck_assert_str_eq(err, "2: unknown key 'foo' (profiles/README.md lists them)");
	ck_assert_int_eq(gs_emu_profile_parse("name a\n", &p, err, sizeof err), -1);
	ck_assert_str_eq(err, "1: expected 'key = value', got 'name a'");
	ck_assert_int_eq(gs_emu_profile_parse("name = a\n", &p, err, sizeof err), -1);
	ck_assert_str_eq(err, " 'gpu' is missing"); /* the file's, no line's */
	/* the interval model needs its own figures */
	char *iv = malloc(sizeof good + 8);
	const char *m = strstr(good, "mwp-cwp");
	memcpy(iv, good, (size_t)(m - good));
	strcpy(iv + (m - good), "interval");
	strcat(iv, m + 7);
	ck_assert_int_eq(gs_emu_profile_parse(iv, &p, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "the interval model needs it") != NULL, "%s", err);
	free(iv);
	/* DRAM latency's spread: all eight quantiles, not decreasing, or none */
	static const char q8[] = "dram_spread.p5 = 0.8\ndram_spread.p10 = 0.8\ndram_spread.p25 = 0.9\n"
				 "dram_spread.p50 = 1\ndram_spread.p75 = 1.1\ndram_spread.p90 = 1.2\n"
				 "dram_spread.p95 = 1.3\ndram_spread.p99 = 1.6\n";
	char buf[sizeof good + sizeof q8 + 32];
	snprintf(buf, sizeof buf, "%s%s", good, q8);
	ck_assert_msg(gs_emu_profile_parse(buf, &p, err, sizeof err) == 0, "%s", err);
	ck_assert_double_eq_tol(p.dram_spread[7], 1.6, 1e-12);
	snprintf(buf, sizeof buf, "%sdram_spread.p50 = 1\n", good);
	ck_assert_int_eq(gs_emu_profile_parse(buf, &p, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "dram_spread needs all of") != NULL, "%s", err);
	snprintf(buf, sizeof buf, "%s%s", good, q8);
	memcpy(strstr(buf, "p75 = 1.1"), "p75 = 0.1", 9);
	ck_assert_int_eq(gs_emu_profile_parse(buf, &p, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "must not decrease") != NULL, "%s", err);
}
END_TEST

/* Ryoo et al., CGO 2008, section II-B: 256 threads, 10 registers and 4 KB of
 * shared memory per block give 3 blocks and 768 threads; 11 registers give
 * 2 (a third block would need 8,448 > 8,192 registers); 1 KB more shared
 * memory per block does not lose a block.  PPoPP 2008, section 4.2: the same
 * 11-register case (3 x 256 x 11 registers are more than the SM has). */
START_TEST(test_g80_ryoo_register_cliff)
{
	const struct gs_emu_profile *g = prof("g80");
	struct gs_emu_occ o = occ(g, 256, 10, 4096);

	ck_assert_int_eq(o.blocks_per_sm, 3);
	ck_assert_int_eq(o.active_threads, 768);
	ck_assert_int_eq(o.active_warps, 24);
	ck_assert_double_eq_tol(o.occupancy, 1.0, 1e-12);
	ck_assert_str_eq(o.limiter, "threads");
	ck_assert_int_eq(o.limiters, GS_EMU_LIM_THREADS | GS_EMU_LIM_REGS);
	ck_assert_int_eq(o.by_regs, 3);
	ck_assert_int_eq(o.by_smem, 4);
	ck_assert_int_eq(o.by_blocks, 8);
	ck_assert_int_eq(o.block_regs, 2560);

	o = occ(g, 256, 11, 4096);
	ck_assert_int_eq(o.blocks_per_sm, 2);
	ck_assert_int_eq(o.active_threads, 512);
	ck_assert_str_eq(o.limiter, "registers");
	ck_assert_int_eq(o.limiters, GS_EMU_LIM_REGS);
	ck_assert_int_eq(o.block_regs, 2816);
	ck_assert_int_eq(3 * o.block_regs, 8448);

	o = occ(g, 256, 10, 5 * 1024);
	ck_assert_int_eq(o.blocks_per_sm, 3);
	ck_assert_int_eq(o.by_smem, 3);
}
END_TEST

/* CGO 2008, section IV: matrix multiplication at 16x16 tiles, 1x2 tiling
 * completely unrolled uses 23 registers and gets one block of 256 threads;
 * the 1x1 equivalent uses 9 registers, and at 10 it would get three.
 * MRI-FHD at 256 threads per block: 12 registers admit 2 blocks, 24 (unroll
 * 4) and 30 (unroll 8) admit one. */
START_TEST(test_g80_ryoo_cgo_section4)
{
	const struct gs_emu_profile *g = prof("g80");

	ck_assert_int_eq(blocks(g, 256, 23, 2048), 1);
	ck_assert_int_eq(blocks(g, 256, 9, 2048), 3);
	ck_assert_int_eq(blocks(g, 256, 10, 2048), 3);
	ck_assert_int_eq(blocks(g, 256, 12, 0), 2);
	ck_assert_int_eq(blocks(g, 256, 24, 0), 1);
	ck_assert_int_eq(blocks(g, 256, 30, 0), 1);
	ck_assert_str_eq(occ(g, 256, 24, 0).limiter, "registers");
	/* 33 registers: 256 x 33 = 8448 registers, more than a whole SM has */
	ck_assert_int_eq(blocks(g, 256, 33, 0), -1);
}
END_TEST

/* PPoPP 2008, section 4.1 and Table 3: 4x4 tiles are 16 threads, and the
 * 8-block limit leaves most of the SM idle; 8x8 tiles would need 12 blocks to
 * fill an SM, 50% more than the limit; 16x16 gives three blocks of 8 warps,
 * the maximum of 768 threads.  12x12 (144 threads) is not a whole number of
 * warps: 5 warps a block, 4 blocks.  Table 3: matrix multiplication (9
 * registers) runs 12288 threads on the 16 SMs, MRI-FHD (12 registers, 256
 * threads a block per CGO 2008) 8192. */
START_TEST(test_g80_ryoo_tiles)
{
	const struct gs_emu_profile *g = prof("g80");
	struct gs_emu_occ o = occ(g, 16, 10, 128);

	ck_assert_int_eq(o.blocks_per_sm, 8);
	ck_assert_int_eq(o.active_threads, 128);
	ck_assert_str_eq(o.limiter, "blocks");
	o = occ(g, 64, 10, 512);
	ck_assert_int_eq(o.blocks_per_sm, 8);
	ck_assert_int_eq(o.by_threads, 12);
	ck_assert_int_eq(o.active_threads, 512);
	ck_assert_str_eq(o.limiter, "blocks");
	o = occ(g, 256, 10, 2048);
	ck_assert_int_eq(o.blocks_per_sm, 3);
	ck_assert_int_eq(o.active_warps, 24);
	o = occ(g, 144, 10, 1152);
	ck_assert_int_eq(o.block_warps, 5);
	ck_assert_int_eq(o.blocks_per_sm, 4);
	ck_assert_int_eq(o.active_threads, 576);

	ck_assert_int_eq(g->sms * occ(g, 256, 9, 2048).active_threads, 12288);
	ck_assert_int_eq(g->sms * occ(g, 256, 12, 0).active_threads, 8192);
}
END_TEST

/* The cc 1.x rules themselves: warps are allocated in pairs for registers,
 * 256-register granules per block, 512-byte shared granules. */
START_TEST(test_g80_granules)
{
	const struct gs_emu_profile *g = prof("g80");
	struct gs_emu_occ o;

	/* 96 threads = 3 warps, counted as 4 for registers: 4 x 32 x 10 = 1280 */
	o = occ(g, 96, 10, 0);
	ck_assert_int_eq(o.block_regs, 1280);
	ck_assert_int_eq(o.by_regs, 6);
	ck_assert_int_eq(o.blocks_per_sm, 6);
	/* 1 thread, 1 register: 2 warps x 32 = 64, one 256 granule */
	ck_assert_int_eq(occ(g, 1, 1, 0).block_regs, 256);
	/* 1 byte of shared memory takes 512 */
	o = occ(g, 32, 1, 1);
	ck_assert_int_eq(o.block_smem, 512);
	ck_assert_int_eq(o.by_smem, 32);
	ck_assert_int_eq(o.blocks_per_sm, 8);
	/* 4097 bytes round to 4608: 3 blocks */
	ck_assert_int_eq(occ(g, 32, 1, 4097).by_smem, 3);
	/* no registers, no shared memory: neither limits */
	o = occ(g, 32, 0, 0);
	ck_assert_int_eq(o.by_regs, GS_EMU_OCC_NOLIMIT);
	ck_assert_int_eq(o.by_smem, GS_EMU_OCC_NOLIMIT);
	ck_assert_str_eq(o.limiter, "blocks");
	/* the whole 16 KB is one block; one byte more is none */
	ck_assert_int_eq(blocks(g, 32, 1, 16384), 1);
	ck_assert_int_eq(blocks(g, 32, 1, 16385), -1);
	ck_assert_int_eq(blocks(g, 512, 16, 0), 1);
	ck_assert_int_eq(blocks(g, 513, 1, 0), -1);
	ck_assert_int_eq(blocks(g, 0, 1, 0), -1);
	ck_assert_int_eq(blocks(g, 32, 124, 0), 1); /* 2 x 32 x 124 = 7936 */
	ck_assert_int_eq(blocks(g, 32, 125, 0), -1);
}
END_TEST

/* Kirk & Hwu, chapter 5.4, on an SM of 1536 thread slots and 8 block slots
 * (the GTX 480's): 512-thread blocks give 3 blocks, 128-thread blocks only 8
 * (1024 threads), and 256 threads are needed to fill the SM.  With a 16,384
 * register SM, 16x16 blocks at 10 registers give 6 blocks (1536 threads), at
 * 12 registers 5 (1280): the "performance cliff". */
START_TEST(test_kirk_hwu_dynamic_partitioning)
{
	const struct gs_emu_profile *f = prof("gf100");
	struct gs_emu_profile half = *f;
	struct gs_emu_occ o;

	ck_assert_int_eq(occ(f, 512, 10, 0).blocks_per_sm, 3);
	o = occ(f, 128, 10, 0);
	ck_assert_int_eq(o.blocks_per_sm, 8);
	ck_assert_int_eq(o.active_threads, 1024);
	ck_assert_str_eq(o.limiter, "blocks");
	o = occ(f, 256, 10, 0);
	ck_assert_int_eq(o.active_threads, 1536);
	ck_assert_double_eq_tol(o.occupancy, 1.0, 1e-12);

	half.regs_sm = half.regs_block = 16384;
	o = occ(&half, 256, 10, 0);
	ck_assert_int_eq(o.blocks_per_sm, 6);
	ck_assert_int_eq(o.active_threads, 1536);
	o = occ(&half, 256, 12, 0);
	ck_assert_int_eq(o.blocks_per_sm, 5);
	ck_assert_int_eq(o.active_threads, 1280);
	ck_assert_str_eq(o.limiter, "registers");
}
END_TEST

/* The cc 2.0 spreadsheet rules: 64-register granules per warp, warps by
 * registers rounded down to pairs, 63 registers per thread at most. */
START_TEST(test_gf100_rules)
{
	const struct gs_emu_profile *f = prof("gf100");
	struct gs_emu_occ o;

	/* 21 registers: 672 -> 704 a warp; 32768 / 704 = 46 warps; 5 blocks of 8 */
	o = occ(f, 256, 21, 0);
	ck_assert_int_eq(o.by_regs, 5);
	ck_assert_int_eq(o.block_regs, 704 * 8);
	/* 20 registers: 640 a warp, 51 -> 50 warps: 6 blocks of 8 */
	ck_assert_int_eq(occ(f, 256, 20, 0).by_regs, 6);
	/* 63 registers: 2048 a warp; 1024 threads need 65536 > 32768 */
	ck_assert_int_eq(blocks(f, 1024, 63, 0), -1);
	ck_assert_int_eq(blocks(f, 512, 63, 0), 1);
	ck_assert_int_eq(blocks(f, 32, 64, 0), -1);
	/* shared memory in 128-byte granules */
	ck_assert_int_eq(occ(f, 64, 10, 129).block_smem, 256);
	ck_assert_int_eq(occ(f, 64, 10, 16384).by_smem, 3);
	ck_assert_int_eq(blocks(f, 64, 10, 49152), 1);
	ck_assert_int_eq(blocks(f, 64, 10, 49153), -1);
}
END_TEST

/* Hand-checked against the cuda_occupancy.h rules. */
START_TEST(test_sm90_cases)
{
	const struct gs_emu_profile *h = prof("sm_90");
	struct gs_emu_occ o;

	/* 32 registers: 1024 a warp, 16 warps a sub-partition, 64 warps: 8 blocks */
	o = occ(h, 256, 32, 0);
	ck_assert_int_eq(o.blocks_per_sm, 8);
	ck_assert_double_eq_tol(o.occupancy, 1.0, 1e-12);
	ck_assert_int_eq(o.block_smem, 1024); /* the driver's reserve alone */
	ck_assert_int_eq(o.by_smem, 228);
	ck_assert_int_eq(o.limiters, GS_EMU_LIM_THREADS | GS_EMU_LIM_REGS);
	/* 64 registers: 32 warps, 4 blocks, half occupancy */
	o = occ(h, 256, 64, 0);
	ck_assert_int_eq(o.blocks_per_sm, 4);
	ck_assert_double_eq_tol(o.occupancy, 0.5, 1e-12);
	ck_assert_str_eq(o.limiter, "registers");
	/* 33 registers round to 1280 a warp: 12 warps a sub-partition, 6 blocks */
	ck_assert_int_eq(blocks(h, 256, 33, 0), 6);
	/* 1024 threads: 64 registers fit exactly, 65 (2304 a warp) do not */
	ck_assert_int_eq(blocks(h, 1024, 64, 0), 1);
	ck_assert_int_eq(blocks(h, 1024, 65, 0), -1);
	/* 48 KB + 1 KB reserve = 50176: 4 blocks of 228 KB */
	o = occ(h, 128, 32, 49152);
	ck_assert_int_eq(o.blocks_per_sm, 4);
	ck_assert_str_eq(o.limiter, "smem");
	/* the opt-in maximum, 227 KB, is one block; a byte more is none */
	ck_assert_int_eq(blocks(h, 128, 32, 232448), 1);
	ck_assert_int_eq(blocks(h, 128, 32, 232449), -1);
	/* tiny blocks: 32 block slots */
	o = occ(h, 32, 16, 0);
	ck_assert_int_eq(o.blocks_per_sm, 32);
	ck_assert_str_eq(o.limiter, "blocks");
	ck_assert_double_eq_tol(o.occupancy, 0.5, 1e-12);
	/* 96 threads = 3 warps, checked as 4 for the per-block register limit:
	 * 255 registers = 8192 a warp; 4 x 8192 = 32768 <= 65536; 2 warps a
	 * sub-partition -> 8 warps -> 2 blocks */
	ck_assert_int_eq(blocks(h, 96, 255, 0), 2);
	ck_assert_int_eq(blocks(h, 1025, 16, 0), -1);
}
END_TEST

START_TEST(test_sm80_cases)
{
	const struct gs_emu_profile *a = prof("sm_80");

	/* 164 KB per SM: 48 KB + reserve = 50176 -> 3 blocks */
	ck_assert_int_eq(blocks(a, 128, 32, 49152), 3);
	ck_assert_int_eq(blocks(a, 128, 32, 166912), 1);
	ck_assert_int_eq(blocks(a, 128, 32, 166913), -1);
	ck_assert_int_eq(blocks(a, 256, 32, 0), 8);
	ck_assert_int_eq(blocks(a, 64, 8, 0), 32);
}
END_TEST

START_TEST(test_reasons)
{
	struct gs_emu_occ o;
	char why[256];

	ck_assert_int_eq(gs_emu_occupancy(prof("g80"), 256, 11, 20000, &o, why, sizeof why), -1);
	ck_assert_str_eq(why, "20000 bytes of shared memory per block (20480 allocated); the "
			      "GeForce 8800 GTX allows 16384");
	ck_assert_int_eq(gs_emu_occupancy(prof("gf100"), 64, 70, 0, &o, why, sizeof why), -1);
	ck_assert_str_eq(why, "70 registers per thread; the GeForce GTX 480 allows at most 63");
	ck_assert_int_eq(gs_emu_occupancy(prof("sm_90"), 2048, 8, 0, &o, why, sizeof why), -1);
	ck_assert_str_eq(why, "a block of 2048 threads; the H100 SXM5 80GB allows 1 to 1024");
}
END_TEST

#ifdef HAVE_CUDA_OCC
/* Blocks per SM by cuda_occupancy.h, 0 when the block cannot run; the
 * function attributes as the cuda backend leaves them (the opt-in shared
 * memory limit raised as far as the device allows, one barrier). */
static int toolkit_blocks(const struct gs_emu_profile *p, int threads, int regs, int smem)
{
	cudaOccDeviceProp dp;
	cudaOccFuncAttributes fa;
	cudaOccDeviceState st;
	cudaOccResult r;

	memset(&dp, 0, sizeof dp);
	memset(&fa, 0, sizeof fa);
	memset(&st, 0, sizeof st);
	memset(&r, 0, sizeof r);
	dp.computeMajor = p->cc_major;
	dp.computeMinor = p->cc_minor;
	dp.maxThreadsPerBlock = p->max_threads_block;
	dp.maxThreadsPerMultiprocessor = p->max_threads_sm;
	dp.regsPerBlock = p->regs_block;
	dp.regsPerMultiprocessor = p->regs_sm;
	dp.warpSize = p->warp_size;
	dp.sharedMemPerBlock = 49152;
	dp.sharedMemPerMultiprocessor = (size_t)p->smem_sm;
	dp.numSms = p->sms;
	dp.sharedMemPerBlockOptin = (size_t)p->smem_block;
	dp.reservedSharedMemPerBlock = (size_t)p->smem_reserved_block;
	fa.maxThreadsPerBlock = p->max_threads_block;
	fa.numRegs = regs;
	fa.sharedSizeBytes = 0;
	fa.partitionedGCConfig = PARTITIONED_GC_OFF;
	fa.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
	fa.maxDynamicSharedSizeBytes = (size_t)p->smem_block;
	fa.numBlockBarriers = 1;
	st.cacheConfig = CACHE_PREFER_NONE;
	st.carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT;
	if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &dp, &fa, &st, threads, (size_t)smem) !=
	    CUDA_OCC_SUCCESS)
		ck_abort_msg("cuda_occupancy.h refused %d threads, %d registers, %d bytes", threads,
			     regs, smem);
	return r.activeBlocksPerMultiprocessor;
}

static void compare_with_toolkit(const char *name)
{
	static const int smems[] = { 0,     1,     127,   128,   1000,   3072,   4096,
				     8191,  12288, 16384, 20000, 32768,  48127,  49152,
				     65536, 99999, 100352, 131072, 166912, 166913, 200000,
				     232448, 232449 };
	const struct gs_emu_profile *p = prof(name);
	long points = 0;

	for (int t = 1; t <= p->max_threads_block + 1; t += (t < 64 ? 1 : 7)) {
		for (int regs = 0; regs <= 255; regs += (regs < 40 ? 1 : 3)) {
			for (size_t k = 0; k < sizeof smems / sizeof smems[0]; k++) {
				int want = toolkit_blocks(p, t, regs, smems[k]);
				struct gs_emu_occ o;
				char why[256];
				int rc = gs_emu_occupancy(p, t, regs, smems[k], &o, why,
							  sizeof why);
				int got = rc ? 0 : o.blocks_per_sm;

				/* Check's assertions cost a message each: test first */
				if (got != want)
					ck_abort_msg("%s: %d threads, %d registers, %d bytes: "
						     "toolkit %d, emulator %d",
						     name, t, regs, smems[k], want, got);
				points++;
			}
		}
	}
	ck_assert(points > 100000);
}

START_TEST(test_sm90_matches_toolkit)
{
	compare_with_toolkit("sm_90");
}
END_TEST

START_TEST(test_sm80_matches_toolkit)
{
	compare_with_toolkit("sm_80");
}
END_TEST
#endif

static TCase *tc_occ(void)
{
	TCase *tc = tcase_create("occupancy");

	tcase_add_test(tc, test_profiles_listed);
	tcase_add_test(tc, test_profile_parse);
	tcase_add_test(tc, test_g80_ryoo_register_cliff);
	tcase_add_test(tc, test_g80_ryoo_cgo_section4);
	tcase_add_test(tc, test_g80_ryoo_tiles);
	tcase_add_test(tc, test_g80_granules);
	tcase_add_test(tc, test_kirk_hwu_dynamic_partitioning);
	tcase_add_test(tc, test_gf100_rules);
	tcase_add_test(tc, test_sm90_cases);
	tcase_add_test(tc, test_sm80_cases);
	tcase_add_test(tc, test_reasons);
#ifdef HAVE_CUDA_OCC
	tcase_add_test(tc, test_sm90_matches_toolkit);
	tcase_add_test(tc, test_sm80_matches_toolkit);
#endif
	return tc;
}

GS_TEST_MAIN_TCASES(tc_occ)
