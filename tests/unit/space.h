/* space.h — a space description given as text, parsed and checked for a
 * unit test; any error fails the test.  The caller frees the space. */
#ifndef GS_TEST_SPACE_H
#define GS_TEST_SPACE_H

#include <string.h>

#include "harness.h"
#include "space/load.h"
#include "space/space.h"

static inline struct gs_space *gs_test_space(const char *text)
{
	struct gs_diag d = GS_DIAG_INIT;
	struct gs_source *src = gs_source_new("t.space", text, strlen(text));
	struct gs_space *sp = gs_space_parse(src, NULL, &d);
	ck_assert_ptr_nonnull(sp);
	ck_assert_msg(d.errors == 0, "space has errors: %s", d.n ? d.msgs[0].text : "?");
	gs_diag_release(&d);
	return sp;
}

#endif
