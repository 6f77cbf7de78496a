/* dev.h — the device interface a worker measures through: one vtable per
 * kind of device (cuda now; the emulated device implements the same).
 *
 * All functions return 0 or a negative GS_DEV_* code; a message is kept in
 * the device (gs_dev_errmsg).  The kind of failure decides the outcome:
 *   GS_DEV_INVALID  the launch was refused for its resources (block too
 *                   large, too much shared memory, too many registers):
 *                   outcome `invalid`, the device stays usable;
 *   GS_DEV_LAUNCH   another error of this launch, device still usable:
 *                   outcome `launch_error`;
 *   GS_DEV_STICKY   the context is broken (illegal address, trap, ...):
 *                   outcome `crash`, the worker must be replaced;
 *   GS_DEV_HOSTLIMIT  a modeled device ran out of the host time it was
 *                   given (host_limit) with the kernel still making
 *                   progress: outcome `emu_limit`, tried again under a
 *                   longer limit, the device stays usable;
 *   GS_DEV_HANG     ... and found the kernel looping for ever: `timeout`;
 *   GS_DEV_FAIL     anything else (allocation, driver missing).
 * Ownership: the device owns its modules, functions, buffers and events;
 * gs_dev_close frees them all. */
#ifndef GS_DEV_H
#define GS_DEV_H

#include <stddef.h>
#include <stdint.h>

enum {
	GS_DEV_FAIL = -1,
	GS_DEV_INVALID = -2,
	GS_DEV_LAUNCH = -3,
	GS_DEV_STICKY = -4,
	GS_DEV_HOSTLIMIT = -5,
	GS_DEV_HANG = -6,
};

struct gs_devinfo {
	char name[128];
	char driver[32];          /* driver version, "580.159.04" or "13.0" */
	int ordinal;
	int cc_major, cc_minor;
	int sms;
	size_t mem_bytes;
	int l2_bytes;
	int warp_size;
	int max_threads_block, max_threads_sm, max_blocks_sm;
	int regs_sm, regs_block;
	int smem_sm, smem_block, smem_block_optin;
	int clock_mhz, mem_clock_mhz, mem_bus_bits;
	char cuda_version[16];    /* CUDA version the driver supports, "13.0" */
	char pci_bus_id[32];      /* "0000:3B:00.0" */
	int smem_reserved_block;  /* shared memory the driver keeps per block */
	int max_block_dim[3], max_grid_dim[3];
};

struct gs_funcattr {
	int registers;
	int static_smem;
	int local_bytes;
	int const_bytes;
	int max_threads; /* most threads per block this function can launch with */
};

/* Measurements the device can take around a run of launches. */
struct gs_devsample {
	double energy_j;   /* < 0: not available */
	double power_w;    /* mean over the run; < 0: not available */
	double sm_clock_mhz;
	double temp_c;
};

/* Timing marks a device keeps (see mark below). */
#define GS_DEV_MARKS 257

/* The resolution of a device's timer, in ms: CUDA events resolve about
 * half a microsecond (the CUDA programming guide). */
#define GS_DEV_TICK_MS 0.0005

struct gs_dev;
struct gs_module;
struct gs_func;

struct gs_dev_ops {
	const char *kind; /* "cuda", "emu" */
	/* 1: times are computed by a model, not measured; one run gives them
	 * exactly, so there is no warm-up and no repetition */
	int modeled;
	/* number of devices of this kind on the host; 0 with the reason in err
	 * when there is none or no driver at all ("no NVIDIA driver (libcuda.so.1
	 * not found)", "no GPU (...)"); < 0 with a message when a driver is
	 * there but fails */
	int (*count)(char *err, size_t errlen);
	int (*open)(int ordinal, struct gs_dev **out, struct gs_devinfo *info, char *err,
		    size_t errlen);
	void (*close)(struct gs_dev *d);
	const char *(*errmsg)(struct gs_dev *d);

	int (*alloc)(struct gs_dev *d, size_t bytes, uint64_t *ptr);
	int (*upload)(struct gs_dev *d, uint64_t dst, const void *src, size_t n);
	int (*download)(struct gs_dev *d, void *dst, uint64_t src, size_t n);
	int (*copy)(struct gs_dev *d, uint64_t dst, uint64_t src, size_t n); /* device to device */

	/* image: a cubin (cuda) or PTX text (emu) */
	int (*module_load)(struct gs_dev *d, const void *image, size_t n, struct gs_module **m);
	void (*module_unload)(struct gs_dev *d, struct gs_module *m);
	int (*function)(struct gs_dev *d, struct gs_module *m, const char *entry, struct gs_func **f,
			struct gs_funcattr *attr);
	/* copy n bytes of device memory at src into the module's __constant__ symbol */
	int (*const_copy)(struct gs_dev *d, struct gs_module *m, const char *symbol, uint64_t src,
			  size_t n);
	/* resident blocks per SM for this block size and dynamic shared memory;
	 * the resource that limits it into limiter[16] when the device knows
	 * (limiter may be NULL; left "" otherwise) */
	int (*occupancy)(struct gs_dev *d, struct gs_func *f, int block_threads, size_t dyn_smem,
			 int *blocks_per_sm, char *limiter);
	/* asynchronous launch; args[i] points at the i-th argument's bytes */
	int (*launch)(struct gs_dev *d, struct gs_func *f, const unsigned grid[3],
		      const unsigned block[3], size_t dyn_smem, void **args);
	/* wait for everything launched; reports launch failures (sticky or not) */
	int (*sync)(struct gs_dev *d);
	/* device-side timing of what is launched between start and stop */
	int (*timer_start)(struct gs_dev *d);
	int (*timer_stop)(struct gs_dev *d, double *ms);
	/* energy, power, clock and temperature around a run (may be NULL) */
	int (*sample_begin)(struct gs_dev *d);
	int (*sample_end)(struct gs_dev *d, struct gs_devsample *s);

	/* a device's properties without opening it (no context is made) */
	int (*info)(int ordinal, struct gs_devinfo *info, char *err, size_t errlen);
	/* free one allocation before close */
	int (*free_mem)(struct gs_dev *d, uint64_t ptr);
	/* set n bytes at dst to byte */
	int (*fill)(struct gs_dev *d, uint64_t dst, int byte, size_t n);
	/* timing marks, for samples back to back: mark(i) (i < GS_DEV_MARKS)
	 * records the device's clock when its queue reaches this point;
	 * marks_read(n) waits for mark n-1 and gives the n-1 intervals between
	 * marks 0..n-1, in ms.  NULL on a modeled device. */
	int (*mark)(struct gs_dev *d, unsigned i);
	int (*marks_read)(struct gs_dev *d, unsigned n, double *ms);
	/* hold (1) the device's queue until release (0), so that what is
	 * queued meanwhile runs back to back; NULL or a no-op where the device
	 * cannot.  Every hold must be released before a wait (sync, marks_read)
	 * and within a few dozen launches: the queue the host fills is finite */
	int (*gate)(struct gs_dev *d, int hold);
	/* modeled devices: counters of what ran since timer_start (JSON
	 * object) and the device's own metrics as JSON members ("a":1,"b":2);
	 * both malloc'd */
	int (*report)(struct gs_dev *d, char **counters, char **metrics);
	/* modeled devices: launches from now on execute a sample of at most
	 * `blocks` blocks each and are timed at their full size (0: every
	 * block, the model of the emulator size); NULL elsewhere */
	int (*sample)(struct gs_dev *d, int blocks);
	/* modeled devices: the host time (s) the launches from now on may take
	 * together, before GS_DEV_HOSTLIMIT or GS_DEV_HANG (<= 0: no limit);
	 * NULL elsewhere */
	int (*host_limit)(struct gs_dev *d, double seconds);
};

extern const struct gs_dev_ops gs_dev_cuda;
extern const struct gs_dev_ops gs_dev_emu; /* its profiles, occupancy and model: dev/emu.h */

/* dev/emu/dev.c: host threads an emulated device runs blocks on (<= 0: all
 * cores), for devices opened afterwards */
void gs_emu_set_threads(int n);
/* the module image of the emulated device: the cubin (for resources) and
 * the PTX (to run), malloc'd into *out; returns its size */
size_t gs_emu_image_pack(const void *cubin, size_t cubin_len, const char *ptx, size_t ptx_len,
			 void **out);

/* cuda.c: the GS_DEV_* class of a CUresult (0 for CUDA_SUCCESS), by the
 * kind of call that returned it.  Sticky errors are sticky from any call;
 * a launch's refusal for resources is GS_DEV_INVALID.  For the tests. */
enum gs_cuda_call {
	GS_CUDA_CALL_LAUNCH, /* cuLaunchKernel, and what a launch needs set first */
	GS_CUDA_CALL_KERNEL, /* module, function, waiting for launches */
	GS_CUDA_CALL_OTHER,  /* memory, context */
};
int gs_cuda_classify(int result, enum gs_cuda_call call);
/* Initialize the driver and make GPU `ordinal`'s primary context, ahead of
 * gs_dev_cuda.open (which then finds it made); errors are left for open to
 * report.  Thread-safe. */
void gs_cuda_prewarm(int ordinal);
/* The architecture ("sm_90") every GPU of the host has, from NVML: without
 * initializing CUDA or making a context, so a run can compile before its
 * devices are known.  0, or -1 when NVML is missing, sees no GPU, or the
 * GPUs differ (NVML's order need not be CUDA's).  Thread-safe. */
int gs_cuda_nvml_arch(char *arch, size_t n);
/* The architecture the last run on this host found (gs_cuda_arch_remember),
 * where the driver's device node exists: a guess for compiling before CUDA
 * is up, read in microseconds where NVML takes a tenth of a second.  A wrong
 * guess only costs compiles no configuration asks for.  0, or -1. */
int gs_cuda_arch_guess(char *arch, size_t n);
/* Keeps arch for the next run's guess (written only when it changed). */
void gs_cuda_arch_remember(const char *arch);

#endif
