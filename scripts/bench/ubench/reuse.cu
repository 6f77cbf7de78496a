// reuse.cu: how far apart in time a thread may touch one sector twice and
// still find it in the L1 or the L2, with every resident thread of the GPU
// doing the same.  Each thread walks R records of its own (64 bytes, 16
// words; record r of thread t at t + r * T, T the threads of its block, so a
// warp's load touches 32 sectors, one a lane), one word of each record a
// step; in `chained` mode the next step's address waits for this step's
// words (through a zero the compiler cannot see), so a sector's eight words
// are read eight steps apart, with the other R - 1 records' words and every
// other resident warp's in between; in `burst` mode the sixteen words of a
// record are loaded at once.  The sectors live between two touches are, on
// the GPU, R per resident thread: 32 * R * threads bytes.  Blocks per SM are
// set by padding shared memory.  Prints per case the kernel's time, its DRAM
// bytes over the records' bytes being the figure to read under Nsight
// Compute (`dram__bytes_read.sum`, launches in the order printed), and the
// time over what DRAM's bandwidth needs for the records once.
#include "terms.h"

static const int T = 256;

template <bool CHAINED>
__global__ void __launch_bounds__(256) reuse(const unsigned *rec, unsigned *out, int R, unsigned zero)
{
	extern __shared__ unsigned pad[];
	size_t base = (size_t)blockIdx.x * T * R + threadIdx.x;
	unsigned acc[8] = { 0 };
	unsigned dep = 0;
	if (CHAINED) {
		for (int w = 0; w < 16; w++) {
#pragma unroll
			for (int r = 0; r < 8; r++)
				if (r < R)
					acc[r] = acc[r] * 0x9e3779b1u + rec[(base + (size_t)r * T) * 16 + w + dep];
			dep = acc[0] & zero;
		}
	} else {
#pragma unroll
		for (int r = 0; r < 8; r++)
			if (r < R) {
				const uint4 *p = (const uint4 *)(rec + (base + (size_t)r * T) * 16);
				uint4 a = p[0], b = p[1], c = p[2], d = p[3];
				acc[r] = a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z ^ c.w ^ d.x ^
					 d.y ^ d.z ^ d.w;
			}
	}
	unsigned h = 0;
	for (int r = 0; r < 8; r++)
		h ^= acc[r];
	if (zero)
		pad[threadIdx.x] = h;
	out[blockIdx.x * T + threadIdx.x] = h;
}

int main()
{
	device_init();
	const size_t records = (size_t)1 << 23; // 512 MiB
	unsigned *rec, *out;
	CK(cudaMalloc(&rec, records * 64));
	CK(cudaMalloc(&out, records * 4));
	CK(cudaMemset(rec, 1, records * 64));
	int smem_per_sm;
	CK(cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
	CK(cudaFuncSetAttribute(reuse<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
	CK(cudaFuncSetAttribute(reuse<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
	double dram_gbs = 0;
	{
		int bus, mclk;
		CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0));
		CK(cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, 0));
		dram_gbs = 2.0 * mclk * 1e3 * (bus / 8) / 1e9;
	}
	printf("dram_peak_gbs %.0f (from the bus width and memory clock)\n", dram_gbs);
	int id = 0;
	for (int chained = 1; chained >= 0; chained--)
		for (int bps : { 1, 2, 4, 8 })
			for (int R : { 1, 2, 4, 8 }) {
				// shared memory that leaves room for bps blocks an SM, and
				// no more than the 8 that 2048 threads allow
				size_t smem = bps >= 8 ? 0 : (size_t)(smem_per_sm / bps - 1024) / 1024 * 1024;
				if (smem > 200 * 1024)
					smem = 200 * 1024;
				unsigned grid = (unsigned)(records / ((size_t)T * R));
				float ms = time_ms([&] {
					if (chained)
						reuse<true><<<grid, T, smem>>>(rec, out, R, 0);
					else
						reuse<false><<<grid, T, smem>>>(rec, out, R, 0);
				}, 5);
				int occ;
				CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
					&occ, chained ? (const void *)reuse<true> : (const void *)reuse<false>, T, smem));
				double live = 32.0 * R * T * occ * g_sms;
				double once = records * 64.0 / (dram_gbs * 1e9) * 1e3;
				printf("REUSE id=%d mode=%s blocks_per_sm=%d R=%d live_mib=%.1f ms=%.4f "
				       "over_dram_once=%.2f\n",
				       id, chained ? "chained" : "burst", occ, R, live / (1 << 20), ms, ms / once);
				id += 6; // each case launches 6 times (time_ms: a warm-up and 5)
			}
	return 0;
}
