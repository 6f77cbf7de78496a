/* control_host.h — what control.cu's divergent() computes, on the host: the
 * answer the executor's test checks and the benchmark verifies. */
#ifndef GS_TEST_CONTROL_HOST_H
#define GS_TEST_CONTROL_HOST_H

static inline int gs_collatz_steps(int x, int limit)
{
	int steps = 0;
	while (x != 1) {
		if (steps >= limit)
			return -1;
		x = (x & 1) ? 3 * x + 1 : x / 2;
		steps++;
	}
	return steps;
}

static inline int gs_divergent_host(int v)
{
	int r = 0;
	if (v % 3 == 0) {
		r = v % 2 == 0 ? v * 7 : v - 11;
	} else if (v % 3 == 1) {
		for (int k = 0; k < 64; k++) {
			if (k == (v & 31))
				break;
			if (k % 5 == 2)
				continue;
			r += k ^ v;
		}
	} else {
		r = gs_collatz_steps((v & 1023) | 1, 200);
		if (r < 0)
			return -12345;
	}
	return r;
}

#endif
