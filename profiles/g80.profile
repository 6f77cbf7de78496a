# g80.profile — GeForce 8800 GTX (G80), compute capability 1.0.
#
# The format: one `key = value` a line, `#` starts a comment.  Every key is
# described in profiles/README.md; every figure says where it comes from, by
# the tags listed there ([R08], [OCC], [PG], [HK], [SPEC], [H100], est.).
#
# Compute capability 1.0 is older than any target NVRTC 13 accepts (its
# oldest is sm_75), so this profile runs PTX compiled for sm_75; its
# registers are the sm_75 compiler's.  Timed with Hong & Kim's MWP-CWP model
# at the spaces' emulator sizes (model = mwp-cwp).
name = g80
gpu = GeForce 8800 GTX
cc = 1.0                     # [PG]
arch = sm_75
model = mwp-cwp
sms = 16                     # [R08]
clock_mhz = 1350             # [R08] shader clock
mem_bw_gbs = 86.4            # [R08] 384-bit GDDR3 at 900 MHz
global_mem_mb = 768          # [SPEC] 768 MB GDDR3
warp_size = 32               # [PG]
max_threads_block = 512      # [R08] [OCC]
max_threads_sm = 768         # [R08]
max_blocks_sm = 8            # [R08]
max_warps_sm = 24            # [OCC]
regs_sm = 8192               # [R08]
regs_block = 8192            # [OCC]
max_regs_thread = 124        # [OCC]
reg_alloc_unit = 256         # [OCC] per block
reg_alloc_by_block = 1       # [CO]
warp_alloc_gran = 2          # [OCC]
smem_sm = 16384              # [R08]
smem_block = 16384           # [OCC]
smem_alloc_unit = 512        # [OCC]
# cc 1.x kept a block's arguments in shared memory (ptxas's "N+16 bytes
# smem"); not modeled: the sm_75 parameter layout says nothing about it, and
# the seeds' own arithmetic leaves it out (Ryoo et al. 2008, II-B)
smem_reserved_block = 0      # (est.) not modeled: see above
banks = 16                   # [R08] per half-warp
coalesce = cc10              # [PG]
mem_latency = 420            # [HK] Table 6
departure_delay = 4          # [HK] Table 6
departure_delay_uncoal = 10  # [HK] Table 6
# [PG] cc 1.x: 8 fp32/int32 add/mad per clock (4 cycles a warp, as [HK]
# Table 1), 2 transcendentals per clock (16).  No double precision on 1.0:
# charged the GT200's 1 per clock (est.); integer multiply at the add rate (est.)
issue.int = 4                # [PG]
issue.fp32 = 4               # [PG]
issue.fp64 = 32              # (est.)
issue.sfu = 16               # [PG]
issue.mem = 4                # (est.)
issue.ctrl = 4               # (est.)
issue.barrier = 4            # (est.)
issue.other = 4              # (est.)
barrier_cycles = 20          # (est.) release latency of bar.sync
launch_overhead_us = 5       # (est.)
