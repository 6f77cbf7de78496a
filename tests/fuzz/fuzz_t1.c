/* fuzz_t1.c — libFuzzer entry for the T1 importer (JSON to a space).
 *
 * Any byte string must either load as a T1 space or give positioned errors.
 * A space that loads is also enumerated, a little: the conditions T1 writes
 * in Python are translated, and only evaluating them shows whether the
 * translation holds (a division by zero, a string compared with a number).
 * The enumeration is bounded by the size of the Cartesian product, so that a
 * condition false everywhere in a huge space reads as slow, not as a hang.
 * Built and run by `make fuzz FUZZ_TARGET=t1`. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/diag.h"
#include "space/enum.h"
#include "space/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_PRODUCT = 1 << 16, MAX_CONFIGS = 256 };

static void enumerate(const struct gs_space *sp, struct gs_diag *d)
{
	uint64_t product = 1;
	for (size_t i = 0; i < sp->nparams; i++) {
		product *= sp->params[i].nvals ? sp->params[i].nvals : 1;
		if (product > MAX_PRODUCT)
			return;
	}
	struct gs_enum e;
	int r = gs_enum_init(&e, sp, 0, 1); /* its constant requires can fail too */
	for (int n = 0; r >= 0 && n < MAX_CONFIGS && (r = gs_enum_next(&e)) > 0; n++)
		;
	if (r < 0)
		gs_enum_report(&e, d);
	gs_enum_release(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct gs_diag diag = GS_DIAG_INIT;
	struct gs_space_opts opts = { 0 };
	struct gs_space *sp;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		return 0;
	/* the name makes the loader take the text as T1 whatever it starts with */
	sp = gs_space_parse(gs_source_new("fuzz.json", (const char *)data, size), &opts, &diag);
	if (sp && !diag.errors)
		enumerate(sp, &diag);
	gs_diag_print(&diag, devnull);
	gs_space_free(sp);
	gs_diag_release(&diag);
	return 0;
}
