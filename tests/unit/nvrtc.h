/* nvrtc.h — NVRTC for a unit test that compiles CUDA C, or the test marked
 * skipped where this host has none (see gs_test_skip in harness.h).  The
 * caller unloads what it gets. */
#ifndef GS_TEST_NVRTC_H
#define GS_TEST_NVRTC_H

#include "gen/gen.h"
#include "harness.h"

/* NVRTC, or NULL after marking `test` of `file` skipped. */
static inline struct gs_nvrtc *gs_test_nvrtc(const char *file, const char *test)
{
	struct gs_nvrtc *n = NULL;
	char err[1024];

	if (gs_nvrtc_load(&n, err, sizeof err) < 0) {
		gs_test_skip(file, test, err);
		return NULL;
	}
	return n;
}

#endif
