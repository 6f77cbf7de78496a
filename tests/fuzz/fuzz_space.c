/* fuzz_space.c — libFuzzer entry for the space-language front end.
 *
 * Any byte string must either parse or give positioned errors: never a crash,
 * a hang, a leak or undefined behaviour.  The diagnostics are printed (to
 * /dev/null) as `gsearch check` would, because the printer's work — columns in
 * UTF-8, windows around the caret in long lines — depends on the input too.
 * Built and run by `make fuzz`. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/diag.h"
#include "space/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct gs_diag diag = GS_DIAG_INIT;
	struct gs_space_opts opts = { 0 };
	struct gs_source *src;
	struct gs_space *sp;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		return 0;
	src = gs_source_new("fuzz.space", (const char *)data, size);
	sp = gs_space_parse(src, &opts, &diag); /* owns src from here on */
	gs_diag_print(&diag, devnull);
	gs_space_free(sp);
	gs_diag_release(&diag);
	return 0;
}
