# sm_90.profile — H100 SXM5 80GB (GH100, Hopper), compute capability 9.0.
# Keys: profiles/README.md.  [H100] figures were measured with
# scripts/bench/ubench on an H100 80GB HBM3 at its 1980 MHz SM clock
# (results/ubench-h100.txt); a dependent chase's own integer add (4.4
# cycles) is taken off the load latencies it measures.
name = sm_90
gpu = H100 SXM5 80GB
cc = 9.0                     # [PG]
arch = sm_90
model = interval
sample_blocks = 32           # blocks executed per launch at the real size (--emu-sample)
sample_warps = 256           # ... at most as many as hold 256 warps, 8 blocks at least
sms = 132                    # [SPEC] [H100]
clock_mhz = 1980             # [SPEC] [H100] maximum SM clock, that of the 67 TFLOPS fp32 figure
mem_bw_gbs = 3350            # [SPEC] HBM3
global_mem_mb = 81920        # [SPEC] 80 GB HBM3
dram_bw_gbs = 3286           # [H100] loaded.cu: 528 blocks of 256 threads, 4 float4 loads in flight each
dram_servers = 8               # [H100] loaded.cu: the loaded latency below 95% of the bandwidth
# [H100] spread.cu, a lone chase beside 8 streaming blocks: DRAM latency / its mean at these
# percentiles (spread.c; results/ubench-spread-h100.txt)
dram_spread.p5 = 0.784       # [H100]
dram_spread.p10 = 0.796      # [H100]
dram_spread.p25 = 0.831      # [H100]
dram_spread.p50 = 1.026      # [H100]
dram_spread.p75 = 1.102      # [H100]
dram_spread.p90 = 1.190      # [H100]
dram_spread.p95 = 1.354      # [H100]
dram_spread.p99 = 1.607      # [H100]
warp_size = 32               # [PG]
max_threads_block = 1024     # [PG]
max_threads_sm = 2048        # [PG]
max_blocks_sm = 32           # [PG] [CO]
max_warps_sm = 64            # [PG]
regs_sm = 65536              # [PG] [H100]
regs_block = 65536           # [PG]
max_regs_thread = 255        # [PG]
reg_alloc_unit = 256         # [CO] per warp
reg_alloc_by_block = 0       # [CO]
warp_alloc_gran = 4          # [CO] 4 sub-partitions
smem_sm = 233472             # [PG] [H100] 228 KB
smem_block = 232448          # [PG] [H100] 227 KB with the opt-in
smem_alloc_unit = 128        # [CO]
smem_reserved_block = 1024   # [CO] [H100]
banks = 32                   # [PG]
coalesce = sectors           # [PG]
mem_latency = 690            # [H100] dependent loads over 1 GiB at 2 KiB strides (689.1)
departure_delay = 4          # (est.) as [HK]
departure_delay_uncoal = 2   # (est.) one L1 tag lookup per 32-byte sector
# [PG] cc 9.0 per SM and clock: 128 fp32, 64 int32, 64 fp64, 16 SFU, 32
# load/store lanes: cycles per warp instruction = 32 / that
issue.int = 0.5              # [PG]
issue.fp32 = 0.25            # [PG]
issue.fp64 = 0.5             # [PG]
issue.sfu = 2                # [PG]
issue.mem = 1                # [PG]
issue.ctrl = 0.5             # (est.)
issue.barrier = 2            # [H100] 2 cycles more per warp at a bar.sync
issue.other = 0.5            # (est.)
barrier_cycles = 13          # [H100] 14.7 for one warp, less its own 2
launch_overhead_us = 3.7     # [H100] an empty kernel back to back (3.57 to 3.7)
block_launch_cycles = 157    # [H100] blocks.cu: 159 to 238 SM cycles per block for blocks of 1 to
warp_launch_cycles = 2.5     # [H100] 32 warps, empty or storing a float a thread (results/ubench-blocks-h100.txt)
# the interval model (driver/dev/emu/model/interval.c)
subpartitions = 4            # [PG] 4 schedulers per SM
issue_per_sub = 1            # [PG] one warp instruction per scheduler and clock
int_fma_lanes = 64           # [PG] integer multiply-add, 64 a clock on the FMA pipe, which
                             # ptxas also uses for moves, shifts and adds (pipes.c)
lat.int = 4.4                # [H100] dependent IMAD
lat.fp32 = 4.4               # [H100] dependent FFMA
lat.fp64 = 8.2               # [H100] dependent DFMA
lat.sfu = 22.9               # [H100] dependent __sinf (MUFU.SIN and its range reduction)
lat.smem = 25                # [H100] shared-memory chase 29, less the index arithmetic
lat.l1 = 34                  # [H100] L1 chase 38.9, less the address arithmetic
lat.l2 = 278                 # [H100] 4 MiB chase 282.7 (the far L2 partition included)
lat.idiv32 = 126             # [H100] intdiv.cu: x = t % (x | 1) 135.3 a step, less its OR and add
lat.idiv64 = 309             # [H100] intdiv.cu: the same in 64 bits 318.1, less the same
l1_bytes = 262144            # [SPEC] 256 KB L1 and shared memory per SM
l1_line = 128                # [PG] 128-byte lines of four 32-byte sectors
l1_assoc = 4                 # (est.)
l1_bw = 128                  # [SPEC] bytes per clock per SM (the H100 measured 56 with 16 warps)
l1_wave_cycles = 1.0         # [L1] SM cycles per wavefront of an L1-hit warp load, its words in 32 banks
l1_wave_lines = 4            # [L1] 128-byte lines a wavefront serves at most (spread G=8: 32 sectors in 8 lines, 2.00)
                             # as shared memory's: 1.00 per distinct word a bank serves, whatever the lines
lat.bits = 17                # [MEASURED] bitops.cu on an H200 (results/ubench-bitops-h200.txt): popc, clz,
                             # brev, bfind: 17 cycles dependent, and issued on the SFU's pipe (16 lanes a clock)
l1_split_cycles = 0.07       # [MEASURED] fewblocks.cu on an H200 (results/ubench-fewblocks-h200.txt): more
                             # for one wavefront over two adjacent lines; unrolled independent loads a line
                             # apart 1.077 split against 1.008 aligned at 64 warps, conv11's taps (10 of 11
                             # split) 1.069-1.077; l1lines.cu's pointer walk: 1.145 against 1.025
l2_bytes = 52428800          # [SPEC] [H100] 50 MB
l2_bw_gbs = 10855            # [H100] 16 MiB read 20 times by 528 blocks
# instruction fetch (driver/dev/emu/model/icache.c), [IC]: scripts/bench/ubench/icache.cu on the
# H100 (results/ubench-icache-h100.txt): FFMA loops of 1 to 256 KiB, blocks spread over the
# body; cycles more per instruction than one a clock, over 64 to 128 KiB (l1) and 160 to
# 256 KiB (l2), at 1, 4, 8 and 16 warps per scheduler
fetch.l0_bytes = 32768       # [IC] full speed to 28 KiB (+2.5 of prologue), slower from 34.5
fetch.l1_bytes = 131072      # [IC] a lone warp 2.5 cycles at 130.5 KiB, 5.9 from 162.5
fetch.bytes_per_ins = 16     # (est.) one 16-byte SASS instruction per PTX instruction (the benchmark's
                             # loop; ptxas gives 0.8 for mri-q's, up to 2 for division-heavy code)
fetch.l1.w1 = 1.4            # [IC] 2.45 a lone warp
fetch.l1.w4 = 1.13           # [IC] 1.6 to 2.7
fetch.l1.w8 = 0.39           # [IC] 1.3 to 1.5
fetch.l1.w16 = 0.27          # [IC] 1.2 to 1.37
fetch.l2.w1 = 4.85           # [IC] 5.9 a lone warp
fetch.l2.w4 = 1.85           # [IC] 1.6 to 4.2
fetch.l2.w8 = 0.66           # [IC] 1.4 to 2.2
fetch.l2.w16 = 0.42          # [IC] 1.35 to 1.55
# constant-cache serialization (driver/dev/emu/model/probe.c), [CT]: scripts/bench/ubench/terms.cu
# on the H100 (results/ubench-terms-h100.txt): SM cycles per warp load of the constant bank
# whose lanes read 1 to 32 distinct words.  A load of one word a warp is taken as folded into
# its consumer's constant operand (ptxas; conv11's SASS keeps 38 LDC of 242 ld.const a thread),
# so const.w1 is listed but not charged.
const.w1 = 1.45              # [CT] 0.192 ms, the whole loop's iteration
const.w2 = 4.10              # [CT]
const.w4 = 8.07              # [CT]
const.w8 = 16.08             # [CT]
const.w16 = 36.10            # [CT]
const.w32 = 86.95            # [CT]
# warp shuffles (driver/dev/emu/model/probe.c, interval.c), [CT] as above
lat.shfl = 25.9              # [CT] dependent shfl.xor + fadd 30.32 cycles a step, less lat.fp32
shfl_cycles = 1.01           # [CT] SM cycles per warp shuffle, 4 independent chains a thread
# global atomics contending for a sector (driver/dev/emu/model/interval.c), [T2]:
# scripts/bench/ubench/terms2.cu on the H100 (results/ubench-terms2-h100.txt)
atom_sector_ns = 9.46        # [T2] atomicAdd into 256 bins, lanes on consecutive bins: 9.463 ns
                             # per atomic a bin, one warp request a sector
# phases (driver/dev/emu/model/probe.c, interval.c): scripts/bench/ubench/phases.cu on an H200,
# the H100's SM at its clock (results/ubench-phases-h200.txt): a load phase of 32 L1 wavefronts a
# warp load, then a compute phase, once a thread, eight waves
phase_exposed = 0.5          # [MEASURED] 0.46 to 0.50 of the shorter phase exposed at four blocks
                             # an SM, 0.64 to 0.68 at one; 0.00 to 0.07 from 32 alternations a thread
# partial-sector stores (driver/dev/emu/model/interval.c): scripts/bench/ubench/strided.cu on the
# H100 (results/ubench-strided-h100.txt): 2^22 threads storing 8 floats each, 4 bytes a store
partial_write_ns = 0.01054   # [MEASURED] 88.1 SM cycles a warp store of 32 partial sectors, 132 SMs
                             # at 1980 MHz: 94.9 G a second (47 G where each sector is alone in its line)
partial_line1 = 2.01         # [MEASURED] a partial sector alone in its line: lanes 128 bytes apart,
                             # 176.7 SM cycles a warp store against 88.1 four a line (strided.cu S 32 R 8)
partial_line2 = 1.19         # [MEASURED] two a line: lanes 64 bytes apart, 105.0 (S 16 R 8)
# local memory (driver/dev/emu/model/interval.c): scripts/bench/ubench/localmem.cu on the H100
# (results/ubench-localmem-h100.txt), 128-thread blocks each thread sweeping its own array
local_st_ns = 4.04           # [MEASURED] 8.0 SM cycles at 1980 MHz a warp's local store (128 bytes): a
                             # read-and-rewrite sweep less a read-only one, frames within the L1 (7.3 to 8.8)
local_far_ns = 6.44          # [MEASURED] 12.75 SM cycles a warp's local access once every resident
                             # frame outgrows the L2 (66 to 264 MiB; 9.4 to 14.8 at 32 to 64 warps an SM)
