// imbalance.cu: does a wave of resident blocks wait for its slowest block?
//
// Every block spins for a number of SM cycles of its own (clock64, so the
// duration does not depend on what else the SM issues), 256 threads a block,
// so that an SM holds 8 at once; the grid is W waves of SMs x 8 blocks.  The
// pattern says which blocks are long (L cycles) and which short (S):
//
//   uniform    every block L
//   alternate  every other block L
//   oneineight every 8th block L
//   halves     the first half of the grid L, the rest S
//   single     one block of W x L cycles, the rest S
//
// If a wave waited for its slowest block, alternate and oneineight would take
// as long as uniform; if the block scheduler hands a slot its next block as
// soon as one retires, the grid takes W x the mean block (never less than the
// longest one).  Between the two, the rule the emulated device's model takes
// (dev/emu/model/interval.c): every wave but the last paced by the mean
// block, the last by the longest, (W - 1) x mean + longest; a slot's last
// block may start just before the others run out.  Prints per pattern the
// measured time and the three predictions.
#include "terms.h"

__global__ void spin(const long long *cycles)
{
	long long c = cycles[blockIdx.x];
	long long t0 = clock64();
	while (clock64() - t0 < c)
		;
}

int main()
{
	device_init();
	const int bps = 8, waves = 8;
	const long long L = 200000, S = 20000;
	int n = g_sms * bps * waves;
	std::vector<long long> h(n);
	long long *d;
	CK(cudaMalloc(&d, n * sizeof *d));
	const char *names[] = { "uniform", "alternate", "oneineight", "halves", "single" };
	for (int pat = 0; pat < 5; pat++) {
		long long longest = 0;
		double sum = 0;
		for (int i = 0; i < n; i++) {
			long long c = S;
			if (pat == 0 || (pat == 1 && i % 2 == 0) || (pat == 2 && i % 8 == 0) ||
			    (pat == 3 && i < n / 2))
				c = L;
			if (pat == 4 && i == 0)
				c = (long long)waves * L;
			h[i] = c;
			longest = std::max(longest, c);
			sum += (double)c;
		}
		CK(cudaMemcpy(d, h.data(), n * sizeof *d, cudaMemcpyHostToDevice));
		float ms = time_ms([&] { spin<<<n, 256>>>(d); }, 5);
		double slot = sum / (g_sms * bps);  // the mean pacing: work per slot
		double maxw = 0;                     // waves of bps x SMs blocks, each its longest
		for (int w = 0; w < waves; w++) {
			long long m = 0;
			for (int i = w * g_sms * bps; i < (w + 1) * g_sms * bps; i++)
				m = std::max(m, h[i]);
			maxw += (double)m;
		}
		double kc = g_clock_ghz * 1e6;  // cycles per ms
		double last = (waves - 1) * sum / n + (double)longest;
		printf("IMBALANCE pattern=%s measured_ms=%.4f mean_pacing_ms=%.4f wave_max_ms=%.4f last_longest_ms=%.4f longest_ms=%.4f\n",
		       names[pat], ms, std::max(slot, (double)longest) / kc, maxw / kc, last / kc, longest / kc);
	}
	CK(cudaFree(d));
	return 0;
}
