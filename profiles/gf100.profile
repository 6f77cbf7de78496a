# gf100.profile — GeForce GTX 480 (GF100, Fermi), compute capability 2.0.
# Keys: profiles/README.md.  Runs PTX compiled for sm_75 (NVRTC 13's oldest
# target); timed with the MWP-CWP model at the emulator sizes.
name = gf100
gpu = GeForce GTX 480
cc = 2.0                     # [PG]
arch = sm_75
model = mwp-cwp
sms = 15                     # [SPEC] 480 cores, one of 16 SMs disabled
clock_mhz = 1401             # [SPEC] processor clock
mem_bw_gbs = 177.4           # [SPEC] 384-bit GDDR5 at 3696 MT/s
global_mem_mb = 1536         # [SPEC] 1536 MB GDDR5
warp_size = 32               # [PG]
max_threads_block = 1024     # [PG] [OCC]
max_threads_sm = 1536        # [PG] [OCC]
max_blocks_sm = 8            # [OCC]
max_warps_sm = 48            # [OCC]
regs_sm = 32768              # [OCC]
regs_block = 32768           # [OCC]
max_regs_thread = 63         # [OCC]
reg_alloc_unit = 64          # [OCC] per warp
reg_alloc_by_block = 0       # [CO]
warp_alloc_gran = 2          # [OCC]
smem_sm = 49152              # [PG] the default 48 KB shared / 16 KB L1 split
smem_block = 49152           # [PG]
smem_alloc_unit = 128        # [OCC]
smem_reserved_block = 0      # [OCC]
banks = 32                   # [PG]
coalesce = sectors           # [PG]
mem_latency = 600            # [PG] upper end of "400 to 600 cycles" (est. for Fermi)
departure_delay = 4          # (est.) as [HK] measured on G80 and GT200
departure_delay_uncoal = 10  # (est.) as G80
# [PG] cc 2.0: 32 fp32 and int32 add per clock (1 cycle a warp), 4 SFU (8),
# 16 load/store units (2); the GeForce part runs fp64 at 1/8 of fp32 [SPEC]
issue.int = 1                # [PG]
issue.fp32 = 1               # [PG]
issue.fp64 = 8               # [SPEC]
issue.sfu = 8                # [PG]
issue.mem = 2                # [PG]
issue.ctrl = 1               # (est.)
issue.barrier = 2            # (est.)
issue.other = 1              # (est.)
barrier_cycles = 20          # (est.)
launch_overhead_us = 5       # (est.)
