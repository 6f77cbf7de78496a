/* profile.c — the emulated devices: resource limits, occupancy allocation
 * rules and timing-model constants of four GPUs.
 *
 * Every figure carries its source.  Sources, by the tag used below:
 *   [R08]  Ryoo et al., "Optimization principles and application performance
 *          evaluation of a multithreaded GPU using CUDA", PPoPP 2008, section 2
 *          (the 8800 GTX: 16 SMs at 1.35 GHz, 8192 registers, 16 KB shared,
 *          768 threads and 8 blocks per SM, 86.4 GB/s).
 *   [OCC]  NVIDIA's CUDA Occupancy Calculator spreadsheet, "GPU Data" sheet, as
 *          transcribed in the cuda-calculator web ports: cc 1.0 register unit
 *          256 per block, warp allocation granularity 2, shared unit 512 B, at
 *          most 124 registers per thread; cc 2.0 register unit 64 per warp, 63
 *          registers per thread, shared unit 128 B, warp granularity 2.
 *   [CO]   the CUDA 13 toolkit's cuda_occupancy.h (cc 8.0, 9.0: 32 blocks per SM,
 *          256-register granules per warp, 4 sub-partitions, 128 B shared unit,
 *          1 KB reserved per block).
 *   [PG]   CUDA C++ Programming Guide: compute capability table (threads, blocks,
 *          shared memory per SM and per block) and the throughput of native
 *          arithmetic instructions (operations per clock per SM), from which
 *          issue cycles = 32 / operations per clock; and "400 to 600 clock
 *          cycles" of global memory latency for cc 1.x/2.x.
 *   [HK]   Hong & Kim, "An analytical model for a GPU architecture with
 *          memory-level and thread-level parallelism awareness", ISCA 2009:
 *          Table 1 (4 issue cycles per warp instruction), Table 6 for the G80
 *          FX5600 at 1.35 GHz (Mem_LD 420, Departure_del_coal 4,
 *          Departure_del_uncoal 10).
 *   [SPEC] the vendor's product specifications (clock, bandwidth, SMs).
 *   [H100] measured for this profile on an H100 80GB HBM3 (SXM, SM clock at its
 *          1980 MHz maximum, checked with %globaltimer): dependent loads over
 *          1 GiB at random 2 KiB strides 690-697 cycles (350 ns), L2 hits 291,
 *          shared memory 29, dependent FFMA 4.4; bar.sync 14.7 cycles for one
 *          warp plus 2.0 per further warp; an empty kernel 3.7 us per launch
 *          back to back (5.2 us between two events around one launch).
 *   (est.) an estimate with no measurement behind it, said where it is used.
 *
 * Compute capability 1.0 and 2.0 are older than any target NVRTC 13 accepts
 * (its oldest is sm_75), so the g80 and gf100 profiles run PTX compiled for
 * sm_75; their registers are the sm_75 compiler's, which is the first thing
 * to remember when comparing with the 8800 GTX figures of the seeds. */
#include "dev/emu/emu.h"

#include <string.h>

/* GeForce 8800 GTX (G80), compute capability 1.0. */
static const struct gs_emu_profile g80 = {
	.name = "g80",
	.gpu = "GeForce 8800 GTX",
	.cc_major = 1,
	.cc_minor = 0,
	.arch = "sm_75",
	.sms = 16,              /* [R08] */
	.clock_mhz = 1350,      /* [R08] shader clock */
	.mem_bw_gbs = 86.4,     /* [R08] 384-bit GDDR3 at 900 MHz */
	.warp_size = 32,
	.max_threads_block = 512, /* [R08] [OCC] */
	.max_threads_sm = 768,  /* [R08] */
	.max_blocks_sm = 8,     /* [R08] */
	.max_warps_sm = 24,     /* [OCC] */
	.regs_sm = 8192,        /* [R08] */
	.regs_block = 8192,     /* [OCC] */
	.max_regs_thread = 124, /* [OCC] */
	.reg_alloc_unit = 256,  /* [OCC] per block */
	.reg_alloc_by_block = 1,
	.warp_alloc_gran = 2,   /* [OCC] */
	.smem_sm = 16384,       /* [R08] */
	.smem_block = 16384,    /* [OCC] */
	.smem_alloc_unit = 512, /* [OCC] */
	/* On cc 1.x a block's kernel arguments and its built-in variables (16
	 * bytes) live in shared memory too, and ptxas reported them as "N+16
	 * bytes smem".  Not modeled: the variants here are compiled for sm_75,
	 * whose parameter layout (64-bit pointers, constant bank) says nothing
	 * about what a 1.0 compiler would have put there, and the seeds' own
	 * arithmetic leaves them out (Ryoo et al. 2008, II-B: 4 KB + 1 KB per
	 * block still gives 3 blocks, which 16 bytes more would break). */
	.smem_reserved_block = 0,
	.banks = 16,            /* [R08] per half-warp */
	.coalesce = GS_EMU_COALESCE_CC10,
	.mem_latency = 420,     /* [HK] Table 6 */
	.departure_delay = 4,   /* [HK] Table 6 */
	.departure_delay_uncoal = 10, /* [HK] Table 6 */
	/* [PG] cc 1.x: 8 fp32/int32 add/mad per clock (4 cycles a warp, as [HK]
	 * Table 1), 2 transcendentals per clock on the 2 SFUs (16).  Compute
	 * capability 1.0 has no double precision at all (nvcc demoted double to
	 * float for sm_1x); fp64 is charged 32 cycles, the rate of the first
	 * double-capable SM (GT200, cc 1.3: 1 per clock), as a deliberately slow
	 * stand-in (est.).  A 32-bit integer multiply took several instructions
	 * on cc 1.x; the int class is charged the add rate (est.). */
	.issue_cycles = {
		[GS_EMU_INT] = 4, [GS_EMU_FP32] = 4, [GS_EMU_FP64] = 32, [GS_EMU_SFU] = 16,
		[GS_EMU_MEM] = 4, [GS_EMU_CTRL] = 4, [GS_EMU_BARRIER] = 4, [GS_EMU_OTHER] = 4,
	},
	.barrier_cycles = 20,   /* (est.) release latency of bar.sync, about a pipeline depth */
	.launch_overhead_us = 5, /* (est.) */
};

/* GeForce GTX 480 (GF100, Fermi), compute capability 2.0. */
static const struct gs_emu_profile gf100 = {
	.name = "gf100",
	.gpu = "GeForce GTX 480",
	.cc_major = 2,
	.cc_minor = 0,
	.arch = "sm_75",
	.sms = 15,              /* [SPEC] 480 cores, one of 16 SMs disabled */
	.clock_mhz = 1401,      /* [SPEC] processor clock */
	.mem_bw_gbs = 177.4,    /* [SPEC] 384-bit GDDR5 at 3696 MT/s */
	.warp_size = 32,
	.max_threads_block = 1024, /* [PG] [OCC] */
	.max_threads_sm = 1536, /* [PG] [OCC] */
	.max_blocks_sm = 8,     /* [OCC] */
	.max_warps_sm = 48,     /* [OCC] */
	.regs_sm = 32768,       /* [OCC] */
	.regs_block = 32768,    /* [OCC] */
	.max_regs_thread = 63,  /* [OCC] */
	.reg_alloc_unit = 64,   /* [OCC] per warp */
	.reg_alloc_by_block = 0,
	.warp_alloc_gran = 2,   /* [OCC] */
	.smem_sm = 49152,       /* [PG] the default 48 KB shared / 16 KB L1 split */
	.smem_block = 49152,    /* [PG] */
	.smem_alloc_unit = 128, /* [OCC] */
	.smem_reserved_block = 0,
	.banks = 32,            /* [PG] */
	.coalesce = GS_EMU_COALESCE_SECTORS,
	.mem_latency = 600,     /* [PG] upper end of "400 to 600 cycles" (est. for Fermi) */
	.departure_delay = 4,   /* (est.) kept at the value [HK] measured on G80 and GT200 */
	.departure_delay_uncoal = 10, /* (est.) as G80 */
	/* [PG] cc 2.0: 32 fp32 and int32 add per clock (1 cycle a warp), 4 SFU
	 * (8); 16 load/store units (2); the GeForce part runs fp64 at 1/8 of the
	 * fp32 rate [SPEC: 168 vs 1345 GFLOPS], 4 per clock (8). */
	.issue_cycles = {
		[GS_EMU_INT] = 1, [GS_EMU_FP32] = 1, [GS_EMU_FP64] = 8, [GS_EMU_SFU] = 8,
		[GS_EMU_MEM] = 2, [GS_EMU_CTRL] = 1, [GS_EMU_BARRIER] = 2, [GS_EMU_OTHER] = 1,
	},
	.barrier_cycles = 20,   /* (est.) */
	.launch_overhead_us = 5, /* (est.) */
};

/* A100 SXM4 40GB (GA100, Ampere), compute capability 8.0. */
static const struct gs_emu_profile sm_80 = {
	.name = "sm_80",
	.gpu = "A100 SXM4 40GB",
	.cc_major = 8,
	.cc_minor = 0,
	.arch = "sm_80",
	.sms = 108,             /* [SPEC] */
	.clock_mhz = 1410,      /* [SPEC] boost clock, what cudaDeviceProp reports */
	.mem_bw_gbs = 1555,     /* [SPEC] 5120-bit HBM2 at 2.43 GT/s */
	.warp_size = 32,
	.max_threads_block = 1024, /* [PG] */
	.max_threads_sm = 2048, /* [PG] */
	.max_blocks_sm = 32,    /* [PG] [CO] */
	.max_warps_sm = 64,     /* [PG] */
	.regs_sm = 65536,       /* [PG] */
	.regs_block = 65536,    /* [PG] */
	.max_regs_thread = 255, /* [PG] */
	.reg_alloc_unit = 256,  /* [CO] per warp */
	.reg_alloc_by_block = 0,
	.warp_alloc_gran = 4,   /* [CO] 4 sub-partitions */
	.smem_sm = 167936,      /* [PG] 164 KB */
	.smem_block = 166912,   /* [PG] 163 KB with the opt-in, which the cuda backend takes */
	.smem_alloc_unit = 128, /* [CO] */
	.smem_reserved_block = 1024, /* [CO] [PG] */
	.banks = 32,
	.coalesce = GS_EMU_COALESCE_SECTORS,
	/* (est.) the H100's measured 350 ns [H100] taken for HBM2 as well, at
	 * 1410 MHz, plus about 10% for the older memory: 550 cycles */
	.mem_latency = 550,
	.departure_delay = 4,   /* (est.) as [HK] */
	.departure_delay_uncoal = 2, /* (est.) one L1 tag lookup per 32-byte sector */
	/* [PG] cc 8.0 per SM and clock: 64 fp32, 64 int32, 32 fp64, 16 SFU, 32
	 * load/store; bar.sync as measured on the H100 [H100] (est. here) */
	.issue_cycles = {
		[GS_EMU_INT] = 0.5, [GS_EMU_FP32] = 0.5, [GS_EMU_FP64] = 1, [GS_EMU_SFU] = 2,
		[GS_EMU_MEM] = 1, [GS_EMU_CTRL] = 0.5, [GS_EMU_BARRIER] = 2, [GS_EMU_OTHER] = 0.5,
	},
	.barrier_cycles = 13,   /* (est.) as [H100] */
	.launch_overhead_us = 3.7, /* (est.) as [H100] */
};

/* H100 SXM5 80GB (GH100, Hopper), compute capability 9.0. */
static const struct gs_emu_profile sm_90 = {
	.name = "sm_90",
	.gpu = "H100 SXM5 80GB",
	.cc_major = 9,
	.cc_minor = 0,
	.arch = "sm_90",
	.sms = 132,             /* [SPEC] [H100] */
	/* [SPEC] [H100] 1980 MHz, the maximum SM clock the device reports and
	 * the clock of NVIDIA's 67 TFLOPS fp32 figure (132 x 128 x 2 x 1.98 GHz);
	 * 1830 MHz is sometimes quoted for the low-precision tensor rates */
	.clock_mhz = 1980,
	.mem_bw_gbs = 3350,     /* [SPEC] HBM3 */
	.warp_size = 32,
	.max_threads_block = 1024, /* [PG] */
	.max_threads_sm = 2048, /* [PG] */
	.max_blocks_sm = 32,    /* [PG] [CO] */
	.max_warps_sm = 64,     /* [PG] */
	.regs_sm = 65536,       /* [PG] [H100] */
	.regs_block = 65536,    /* [PG] */
	.max_regs_thread = 255, /* [PG] */
	.reg_alloc_unit = 256,  /* [CO] per warp */
	.reg_alloc_by_block = 0,
	.warp_alloc_gran = 4,   /* [CO] 4 sub-partitions */
	.smem_sm = 233472,      /* [PG] [H100] 228 KB */
	.smem_block = 232448,   /* [PG] [H100] 227 KB with the opt-in */
	.smem_alloc_unit = 128, /* [CO] */
	.smem_reserved_block = 1024, /* [CO] [H100] */
	.banks = 32,
	.coalesce = GS_EMU_COALESCE_SECTORS,
	.mem_latency = 690,     /* [H100] */
	.departure_delay = 4,   /* (est.) as [HK] */
	.departure_delay_uncoal = 2, /* (est.) as sm_80 */
	/* [PG] cc 9.0 per SM and clock: 128 fp32, 64 int32, 64 fp64, 16 SFU, 32
	 * load/store; bar.sync 2 cycles a warp [H100] */
	.issue_cycles = {
		[GS_EMU_INT] = 0.5, [GS_EMU_FP32] = 0.25, [GS_EMU_FP64] = 0.5, [GS_EMU_SFU] = 2,
		[GS_EMU_MEM] = 1, [GS_EMU_CTRL] = 0.5, [GS_EMU_BARRIER] = 2, [GS_EMU_OTHER] = 0.5,
	},
	.barrier_cycles = 13,   /* [H100] 14.7 for one warp, less its own 2 */
	.launch_overhead_us = 3.7, /* [H100] */
};

const struct gs_emu_profile *const gs_emu_profiles[] = { &g80, &gf100, &sm_80, &sm_90, NULL };

const struct gs_emu_profile *gs_emu_profile_find(const char *name)
{
	for (int i = 0; gs_emu_profiles[i]; i++)
		if (!strcmp(gs_emu_profiles[i]->name, name))
			return gs_emu_profiles[i];
	return NULL;
}
