/* validate.h — comparing a configuration's outputs with the reference on
 * the device.
 *
 * A comparison kernel (its source is here, compiled once per sweep with
 * NVRTC) reduces each output buffer against the reference's copy on the
 * GPU to what gs_compare computes on the host: the largest absolute and
 * relative errors, the number of elements out of tolerance and the first
 * of them.  Only those 32 bytes per buffer, and the two values of the first
 * bad element, come back: at N = 4096 that replaces a 64 MB download and
 * a host loop.  The rules are gs_compare's, element for element (see
 * dev/data.h), so the emulated device, which compares on the host, gives
 * the same `wrong` messages. */
#ifndef GS_VALIDATE_H
#define GS_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "dev/data.h"
#include "dev/dev.h"
#include "gen/gen.h"
#include "util/util.h"

struct gs_space;

/* The element types the space's buffers have, one bit per GS_BT_*: the
 * comparison kernels a sweep of it needs. */
unsigned gs_cmp_types(const struct gs_space *sp);
/* Compile the comparison kernels of those types for arch ("sm_90") into a
 * malloc'd cubin.  0, or -1 with a message. */
int gs_cmp_compile(struct gs_nvrtc *n, const char *arch, unsigned types, void **cubin,
		   size_t *len, char *err, size_t errlen);

struct gs_cmpdev;

/* Load the comparison kernels of `types` (as compiled) on dev and allocate
 * room for nbufs results.  NULL with a message on failure. */
struct gs_cmpdev *gs_cmpdev_open(const struct gs_dev_ops *ops, struct gs_dev *dev,
				 const void *cubin, size_t len, unsigned types, size_t nbufs,
				 char *err, size_t errlen);
void gs_cmpdev_close(struct gs_cmpdev *c);
/* Clear every result slot; asynchronous. */
int gs_cmpdev_reset(struct gs_cmpdev *c);
/* Compare n elements of btype at out with ref into slot i; asynchronous,
 * after whatever the device runs before it.  A GS_DEV_* code on failure. */
int gs_cmpdev_launch(struct gs_cmpdev *c, size_t i, int btype, uint64_t out, uint64_t ref,
		     uint64_t n, double tol);
/* Wait, and read slot i into *r; the first bad element's values are read
 * from out and ref (the same pointers as launched).  A GS_DEV_* code. */
int gs_cmpdev_read(struct gs_cmpdev *c, size_t i, int btype, uint64_t out, uint64_t ref,
		   struct gs_cmp *r);

/* The message of a `wrong` outcome for buffer `name` of n elements:
 * "C[17] = 0.5, expected 1 (tolerance 0.001); 3 of 4096 elements differ". */
void gs_cmp_message(struct gs_buf *b, const char *name, const struct gs_cmp *c, double tol,
		    int64_t n);

#endif
