/* cuda.c — the GPU device: libcuda's driver API and NVML, both loaded with
 * dlopen at run time, never linked, so that gsearch starts (and says so
 * plainly) on hosts without an NVIDIA driver.
 *
 * cuda.h gives the types where the toolkit is installed; without it the few
 * declarations needed are written here (values as in CUDA 12 and 13).  Entry
 * points are looked up by their versioned names (cuMemAlloc_v2, ...): the
 * unversioned symbols are the ABI of CUDA 3.x and take 32-bit sizes.
 *
 * One process uses one device at a time through its primary context, made
 * current on every call so that any thread may drive it.  Launches, copies
 * and events all go to the context's legacy default stream, so everything
 * is ordered without explicit waits.
 *
 * NVML is optional: without it (or where a GPU does not report energy)
 * samples read < 0.  gsearch only reads NVML; it never sets clocks or power
 * limits. */
#define _GNU_SOURCE
#include "dev/dev.h"

#include <dlfcn.h>
#include <limits.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

#if defined(__has_include)
#if __has_include(<cuda.h>)
#include <cuda.h>
#define GS_HAVE_CUDA_H 1
#endif
#endif

#ifndef GS_HAVE_CUDA_H
/* The subset of cuda.h gsearch uses; values as in CUDA 12 and 13. */
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef int CUdevice_attribute;
typedef int CUfunction_attribute;
enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_STUB_LIBRARY = 34,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_INVALID_DEVICE = 101,
	CUDA_ERROR_NOT_FOUND = 500,
	CUDA_ERROR_NOT_SUPPORTED = 801,
};
enum {
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
	CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
	CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
	CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
	CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
	CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
	CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
	CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
	CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR = 82,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR = 106,
	CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK = 111,
};
enum {
	CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
	CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
	CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
	CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
	CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
	CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};
#endif

/* Every libcuda entry point gsearch calls: member, symbol, a fallback
 * symbol for older drivers (or NULL), return type, parameters. */
#define CU_FUNCS(X)                                                                              \
	X(Init, "cuInit", NULL, CUresult, (unsigned))                                              \
	X(DriverGetVersion, "cuDriverGetVersion", NULL, CUresult, (int *))                         \
	X(GetErrorName, "cuGetErrorName", NULL, CUresult, (CUresult, const char **))              \
	X(GetErrorString, "cuGetErrorString", NULL, CUresult, (CUresult, const char **))          \
	X(DeviceGetCount, "cuDeviceGetCount", NULL, CUresult, (int *))                             \
	X(DeviceGet, "cuDeviceGet", NULL, CUresult, (CUdevice *, int))                             \
	X(DeviceGetName, "cuDeviceGetName", NULL, CUresult, (char *, int, CUdevice))               \
	X(DeviceGetAttribute, "cuDeviceGetAttribute", NULL, CUresult,                              \
	  (int *, CUdevice_attribute, CUdevice))                                                   \
	X(DeviceTotalMem, "cuDeviceTotalMem_v2", NULL, CUresult, (size_t *, CUdevice))             \
	X(DeviceGetPCIBusId, "cuDeviceGetPCIBusId", NULL, CUresult, (char *, int, CUdevice))       \
	X(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL, CUresult,                      \
	  (CUcontext *, CUdevice))                                                                 \
	X(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", NULL, CUresult, (CUdevice))     \
	X(CtxSetCurrent, "cuCtxSetCurrent", NULL, CUresult, (CUcontext))                           \
	X(MemAlloc, "cuMemAlloc_v2", NULL, CUresult, (CUdeviceptr *, size_t))                      \
	X(MemFree, "cuMemFree_v2", NULL, CUresult, (CUdeviceptr))                                  \
	X(MemcpyHtoD, "cuMemcpyHtoD_v2", NULL, CUresult, (CUdeviceptr, const void *, size_t))      \
	X(MemcpyDtoH, "cuMemcpyDtoH_v2", NULL, CUresult, (void *, CUdeviceptr, size_t))            \
	X(MemcpyDtoD, "cuMemcpyDtoD_v2", NULL, CUresult, (CUdeviceptr, CUdeviceptr, size_t))       \
	X(MemsetD8, "cuMemsetD8_v2", NULL, CUresult, (CUdeviceptr, unsigned char, size_t))         \
	X(ModuleLoadData, "cuModuleLoadData", NULL, CUresult, (CUmodule *, const void *))          \
	X(ModuleUnload, "cuModuleUnload", NULL, CUresult, (CUmodule))                              \
	X(ModuleGetFunction, "cuModuleGetFunction", NULL, CUresult,                                \
	  (CUfunction *, CUmodule, const char *))                                                  \
	X(ModuleGetGlobal, "cuModuleGetGlobal_v2", NULL, CUresult,                                 \
	  (CUdeviceptr *, size_t *, CUmodule, const char *))                                       \
	X(FuncGetAttribute, "cuFuncGetAttribute", NULL, CUresult,                                  \
	  (int *, CUfunction_attribute, CUfunction))                                               \
	X(FuncSetAttribute, "cuFuncSetAttribute", NULL, CUresult,                                  \
	  (CUfunction, CUfunction_attribute, int))                                                 \
	X(OccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor", \
	  NULL, CUresult, (int *, CUfunction, int, size_t))                                        \
	X(LaunchKernel, "cuLaunchKernel", NULL, CUresult,                                          \
	  (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,       \
	   CUstream, void **, void **))                                                            \
	X(StreamSynchronize, "cuStreamSynchronize", NULL, CUresult, (CUstream))                    \
	X(EventCreate, "cuEventCreate", NULL, CUresult, (CUevent *, unsigned))                     \
	X(EventDestroy, "cuEventDestroy_v2", NULL, CUresult, (CUevent))                            \
	X(EventRecord, "cuEventRecord", NULL, CUresult, (CUevent, CUstream))                       \
	X(EventSynchronize, "cuEventSynchronize", NULL, CUresult, (CUevent))                       \
	X(EventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime", CUresult,               \
	  (float *, CUevent, CUevent))                                                             \
	X(MemHostAlloc, "cuMemHostAlloc", NULL, CUresult, (void **, size_t, unsigned))              \
	X(MemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2", NULL, CUresult,                 \
	  (CUdeviceptr *, void *, unsigned))                                                       \
	X(MemFreeHost, "cuMemFreeHost", NULL, CUresult, (void *))                                  \
	X(StreamWaitValue32, "cuStreamWaitValue32_v2", "cuStreamWaitValue32", CUresult,            \
	  (CUstream, CUdeviceptr, unsigned, unsigned))

/* NVML's few declarations (no nvml.h needed): handles are pointers, enums
 * are ints, NVML_SUCCESS is 0. */
typedef struct nvmlDevice_st *nvmlDevice_t;
enum { GS_NVML_CLOCK_SM = 1, GS_NVML_TEMPERATURE_GPU = 0 };

#define NVML_FUNCS(X)                                                                            \
	X(Init, "nvmlInit_v2", int, (void))                                                         \
	X(SystemGetDriverVersion, "nvmlSystemGetDriverVersion", int, (char *, unsigned))           \
	X(DeviceGetHandleByPciBusId, "nvmlDeviceGetHandleByPciBusId_v2", int,                      \
	  (const char *, nvmlDevice_t *))                                                          \
	X(DeviceGetTotalEnergyConsumption, "nvmlDeviceGetTotalEnergyConsumption", int,             \
	  (nvmlDevice_t, unsigned long long *))                                                    \
	X(DeviceGetClockInfo, "nvmlDeviceGetClockInfo", int, (nvmlDevice_t, int, unsigned *))      \
	X(DeviceGetTemperature, "nvmlDeviceGetTemperature", int, (nvmlDevice_t, int, unsigned *))   \
	X(DeviceGetCount, "nvmlDeviceGetCount_v2", int, (unsigned *))                               \
	X(DeviceGetHandleByIndex, "nvmlDeviceGetHandleByIndex_v2", int, (unsigned, nvmlDevice_t *)) \
	X(DeviceGetCudaComputeCapability, "nvmlDeviceGetCudaComputeCapability", int,               \
	  (nvmlDevice_t, int *, int *))

/* The libraries, loaded once per process and never unloaded. */
static struct {
	pthread_once_t once;
	int state;      /* 0 usable; GS_CUDA_NO_DRIVER; < 0 load or cuInit failed */
	char why[512];  /* the reason when state != 0 */
	void *dl;
#define X(m, sym, alt, ret, args) ret(*m) args;
	CU_FUNCS(X)
#undef X
} cu = { .once = PTHREAD_ONCE_INIT };

enum { GS_CUDA_NO_DRIVER = 1 };

static struct {
	pthread_once_t once;
	int ok;
	char driver[32]; /* "580.159.04", "" if unknown */
#define X(m, sym, ret, args) ret(*m) args;
	NVML_FUNCS(X)
#undef X
} nvml = { .once = PTHREAD_ONCE_INIT };

/* "CUDA_ERROR_INVALID_VALUE: invalid argument", or the number where the
 * driver does not know the code. */
static void cu_describe(CUresult r, char *out, size_t n)
{
	const char *name = NULL, *text = NULL;

	if (cu.GetErrorName && cu.GetErrorName(r, &name) != CUDA_SUCCESS)
		name = NULL;
	if (cu.GetErrorString && cu.GetErrorString(r, &text) != CUDA_SUCCESS)
		text = NULL;
	if (name && text)
		snprintf(out, n, "%s: %s", name, text);
	else if (name)
		snprintf(out, n, "%s", name);
	else
		snprintf(out, n, "CUDA error %d", (int)r);
}

static void cu_load(void)
{
	char what[256];
	CUresult r;

	/* RTLD_NODELETE: the driver keeps threads and exit handlers of its own. */
	cu.dl = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!cu.dl) {
		const char *e = dlerror();

		if (e && strstr(e, "No such file")) {
			cu.state = GS_CUDA_NO_DRIVER;
			snprintf(cu.why, sizeof cu.why, "no NVIDIA driver (libcuda.so.1 not found)");
		} else {
			cu.state = GS_DEV_FAIL;
			snprintf(cu.why, sizeof cu.why, "cannot load libcuda.so.1: %s", e ? e : "?");
		}
		return;
	}
#define X(m, sym, alt, ret, args)                                                                \
	*(void **)&cu.m = dlsym(cu.dl, sym);                                                       \
	if (!cu.m && alt)                                                                          \
		*(void **)&cu.m = dlsym(cu.dl, alt ? alt : sym);                                   \
	if (!cu.m) {                                                                               \
		cu.state = GS_DEV_FAIL;                                                            \
		snprintf(cu.why, sizeof cu.why,                                                    \
			 "libcuda.so.1 lacks '%s': the NVIDIA driver is older than CUDA 11", sym); \
		return;                                                                            \
	}
	CU_FUNCS(X)
#undef X
	r = cu.Init(0);
	if (r == CUDA_SUCCESS)
		return;
	cu_describe(r, what, sizeof what);
	if (r == CUDA_ERROR_NO_DEVICE) {
		cu.state = GS_CUDA_NO_DRIVER;
		snprintf(cu.why, sizeof cu.why, "no GPU (cuInit: %s)", what);
	} else if (r == CUDA_ERROR_STUB_LIBRARY) {
		cu.state = GS_CUDA_NO_DRIVER;
		snprintf(cu.why, sizeof cu.why,
			 "no NVIDIA driver (libcuda.so.1 is the CUDA toolkit's stub library)");
	} else {
		cu.state = GS_DEV_FAIL;
		snprintf(cu.why, sizeof cu.why, "cuInit: %s", what);
	}
}

/* 0 when libcuda is loaded and initialized, else state != 0 with cu.why. */
static int cu_ready(void)
{
	pthread_once(&cu.once, cu_load);
	return cu.state;
}

static void nvml_load(void)
{
	void *dl = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);

	if (!dl)
		return;
#define X(m, sym, ret, args) *(void **)&nvml.m = dlsym(dl, sym);
	NVML_FUNCS(X)
#undef X
	if (!nvml.Init || !nvml.DeviceGetHandleByPciBusId || nvml.Init() != 0)
		return;
	/* nvmlShutdown is never called: NVML counts its users, and a
	 * process ends with its devices' NVML state anyway. */
	nvml.ok = 1;
	if (nvml.SystemGetDriverVersion &&
	    nvml.SystemGetDriverVersion(nvml.driver, sizeof nvml.driver) != 0)
		nvml.driver[0] = '\0';
}

static int nvml_ready(void)
{
	pthread_once(&nvml.once, nvml_load);
	return nvml.ok;
}

int gs_cuda_nvml_arch(char *arch, size_t n)
{
	unsigned count = 0;
	int major = -1, minor = -1;
	if (!nvml_ready() || !nvml.DeviceGetCount || !nvml.DeviceGetHandleByIndex ||
	    !nvml.DeviceGetCudaComputeCapability || nvml.DeviceGetCount(&count) != 0 || !count)
		return -1;
	/* NVML numbers the devices by PCI bus, CUDA (by default) fastest
	 * first: only an answer every device gives is the first CUDA device's */
	for (unsigned i = 0; i < count; i++) {
		nvmlDevice_t d;
		int ma, mi;
		if (nvml.DeviceGetHandleByIndex(i, &d) != 0 ||
		    nvml.DeviceGetCudaComputeCapability(d, &ma, &mi) != 0)
			return -1;
		if (i && (ma != major || mi != minor))
			return -1;
		major = ma;
		minor = mi;
	}
	snprintf(arch, n, "sm_%d%d", major, minor);
	return 0;
}

/* The file a run leaves the host's architecture in, for the next run's
 * early compiles: $XDG_CACHE_HOME/gsearch/arch, else ~/.cache/gsearch/arch.
 * 0, or -1 when there is no home to put it in. */
static int arch_file(char *path, size_t n)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int len;
	if (xdg && *xdg)
		len = snprintf(path, n, "%s/gsearch/arch", xdg);
	else if (home && *home)
		len = snprintf(path, n, "%s/.cache/gsearch/arch", home);
	else
		return -1;
	return len > 0 && (size_t)len < n ? 0 : -1;
}

int gs_cuda_arch_guess(char *arch, size_t n)
{
	char path[4096], buf[16];
	/* no driver's device node: no GPU, whatever an old file says */
	if (access("/dev/nvidiactl", F_OK) != 0 || arch_file(path, sizeof path) < 0)
		return -1;
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t got = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[got] = 0;
	buf[strcspn(buf, "\n")] = 0;
	if (strncmp(buf, "sm_", 3) || strlen(buf) < 5 || strlen(buf) >= n ||
	    strspn(buf + 3, "0123456789") != strlen(buf + 3))
		return -1;
	snprintf(arch, n, "%s", buf);
	return 0;
}

void gs_cuda_arch_remember(const char *arch)
{
	char path[4096], old[16] = "", tmp[4200];
	if (arch_file(path, sizeof path) < 0)
		return;
	FILE *f = fopen(path, "r");
	if (f) {
		size_t got = fread(old, 1, sizeof old - 1, f);
		old[got] = 0;
		old[strcspn(old, "\n")] = 0;
		fclose(f);
		if (!strcmp(old, arch))
			return; /* the common case: nothing written */
	}
	/* the folders, then a whole file renamed into place: a run that reads
	 * it meanwhile sees the old answer or the new, never half of one */
	char *slash = strrchr(path, '/');
	*slash = 0;
	char *mid = strrchr(path, '/');
	*mid = 0;
	mkdir(path, 0755);
	*mid = '/';
	mkdir(path, 0755);
	*slash = '/';
	snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
	if (!(f = fopen(tmp, "w")))
		return;
	int bad = fprintf(f, "%s\n", arch) < 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) != 0)
		unlink(tmp);
}

/* Error classes.  Sticky: the CUDA documentation says the process is left
 * in an inconsistent state and must be restarted (plus a destroyed context
 * and the unknown error, after which nothing can be trusted). */
static const int sticky_codes[] = {
	214, /* ECC_UNCORRECTABLE */
	220, /* NVLINK_UNCORRECTABLE */
	226, /* CONTAINED */
	700, /* ILLEGAL_ADDRESS */
	702, /* LAUNCH_TIMEOUT */
	709, /* CONTEXT_IS_DESTROYED */
	710, /* ASSERT */
	714, /* HARDWARE_STACK_ERROR */
	715, /* ILLEGAL_INSTRUCTION */
	716, /* MISALIGNED_ADDRESS */
	717, /* INVALID_ADDRESS_SPACE */
	718, /* INVALID_PC */
	719, /* LAUNCH_FAILED (a trap, among others) */
	721, /* TENSOR_MEMORY_LEAK */
	810, /* MPS_CLIENT_TERMINATED */
	911, /* EXTERNAL_DEVICE */
	999, /* UNKNOWN */
};

/* What cuLaunchKernel (or setting a function's dynamic shared memory
 * limit for it) answers when the configuration asks for more than the
 * device or the function allows. */
static const int refusal_codes[] = {
	1,   /* INVALID_VALUE: block dimensions, shared memory, launch bounds */
	2,   /* OUT_OF_MEMORY: the local memory all resident threads need */
	701, /* LAUNCH_OUT_OF_RESOURCES: registers */
	720, /* COOPERATIVE_LAUNCH_TOO_LARGE */
	912, /* INVALID_CLUSTER_SIZE */
	915, /* INVALID_RESOURCE_CONFIGURATION */
};

static int in(const int *codes, size_t n, int r)
{
	for (size_t i = 0; i < n; i++)
		if (codes[i] == r)
			return 1;
	return 0;
}

int gs_cuda_classify(int result, enum gs_cuda_call call)
{
	if (result == 0)
		return 0;
	if (in(sticky_codes, GS_ARRAY_SIZE(sticky_codes), result))
		return GS_DEV_STICKY;
	if (call == GS_CUDA_CALL_LAUNCH && in(refusal_codes, GS_ARRAY_SIZE(refusal_codes), result))
		return GS_DEV_INVALID;
	if (call == GS_CUDA_CALL_LAUNCH || call == GS_CUDA_CALL_KERNEL)
		return GS_DEV_LAUNCH;
	return GS_DEV_FAIL;
}

struct gs_func {
	CUfunction fn;
	char *entry;
	struct gs_funcattr attr;
	int max_dyn_smem; /* the function's current dynamic shared memory limit */
	struct gs_func *next;
};

struct gs_module {
	CUmodule mod;
	struct gs_func *funcs;
	struct gs_module *next;
};

struct gs_dev {
	int ordinal;
	CUdevice cudev;
	CUcontext ctx;
	CUevent ev_start, ev_stop;
	CUevent marks[GS_DEV_MARKS]; /* made on first use */
	int timing;
	struct gs_devinfo info;
	struct gs_module *modules;
	CUdeviceptr *allocs;
	size_t nallocs, allocs_cap;
	const char *last_entry; /* of the newest launch, for asynchronous errors */
	int broken;             /* a sticky error happened: nothing more will work */
	/* the gate (cuda_gate): a word of pinned host memory the queue waits on */
	volatile unsigned *gate_word;
	CUdeviceptr gate_dev;
	unsigned gate_seq;
	int gate_state; /* 0 untried, 1 usable, -1 not on this device */
	int gate_held;
	/* the watchdog opens a gate the host left closed for GATE_WATCH_NS:
	 * where launches block until done (CUDA_LAUNCH_BLOCKING, a profiler
	 * that serializes them), the first launch behind the gate would wait
	 * for itself forever */
	pthread_t gate_thread;
	pthread_mutex_t gate_mu;
	pthread_cond_t gate_cv;
	int gate_watching, gate_quit;
	char msg[1024];
	/* NVML */
	nvmlDevice_t nvml;
	int sampling, have_e0;
	unsigned long long e0;
	double t0;
};

static void set_msg(struct gs_dev *d, const char *fmt, ...) GS_PRINTF(2, 3);
static void set_msg(struct gs_dev *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	va_end(ap);
}

/* Record "<what>: <CUDA error>" and return the error's class; a sticky one
 * marks the device broken. */
static int cu_fail(struct gs_dev *d, CUresult r, enum gs_cuda_call call, const char *fmt, ...)
	GS_PRINTF(4, 5);
static int cu_fail(struct gs_dev *d, CUresult r, enum gs_cuda_call call, const char *fmt, ...)
{
	char what[512], err[256];
	va_list ap;
	int cls = gs_cuda_classify((int)r, call);

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	cu_describe(r, err, sizeof err);
	snprintf(d->msg, sizeof d->msg, "%s: %s%s", what, err,
		 cls == GS_DEV_STICKY ? " (the CUDA context is now unusable)" : "");
	if (cls == GS_DEV_STICKY)
		d->broken = 1;
	return cls;
}

/* Make the context current; a broken device refuses everything. */
static int enter(struct gs_dev *d)
{
	CUresult r;

	if (d->broken)
		return GS_DEV_STICKY; /* d->msg still says why */
	r = cu.CtxSetCurrent(d->ctx);
	if (r != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_OTHER, "cuCtxSetCurrent");
	return 0;
}

static int cuda_count(char *err, size_t errlen)
{
	int n = 0;
	CUresult r;

	if (errlen)
		err[0] = '\0';
	if (cu_ready() != 0) {
		snprintf(err, errlen, "%s", cu.why);
		return cu.state == GS_CUDA_NO_DRIVER ? 0 : GS_DEV_FAIL;
	}
	r = cu.DeviceGetCount(&n);
	if (r != CUDA_SUCCESS) {
		char what[256];

		cu_describe(r, what, sizeof what);
		snprintf(err, errlen, "cuDeviceGetCount: %s", what);
		return GS_DEV_FAIL;
	}
	if (n == 0)
		snprintf(err, errlen, "no GPU (the driver reports none)");
	return n;
}

/* One attribute; 0 or -1 with err set. */
static int attr(CUdevice dev, CUdevice_attribute a, const char *name, int *out, char *err,
		size_t errlen)
{
	CUresult r = cu.DeviceGetAttribute(out, a, dev);

	if (r != CUDA_SUCCESS) {
		char what[256];

		cu_describe(r, what, sizeof what);
		snprintf(err, errlen, "cuDeviceGetAttribute(%s): %s", name, what);
		return -1;
	}
	return 0;
}

static int cuda_info(int ordinal, struct gs_devinfo *info, char *err, size_t errlen)
{
	char what[256];
	CUdevice dev;
	CUresult r;
	size_t mem = 0;
	int n, ver = 0, clock_khz = 0, mem_khz = 0;

	memset(info, 0, sizeof *info);
	n = cuda_count(err, errlen);
	if (n < 0)
		return GS_DEV_FAIL;
	if (ordinal < 0 || ordinal >= n) {
		if (n == 0) {
			char why[512];

			snprintf(why, sizeof why, "%s", err);
			snprintf(err, errlen, "no GPU %d: %s", ordinal, why);
		} else {
			snprintf(err, errlen, "no GPU %d: the host has %d (0 to %d)", ordinal, n, n - 1);
		}
		return GS_DEV_FAIL;
	}
	if ((r = cu.DeviceGet(&dev, ordinal)) != CUDA_SUCCESS ||
	    (r = cu.DeviceGetName(info->name, (int)sizeof info->name, dev)) != CUDA_SUCCESS ||
	    (r = cu.DeviceTotalMem(&mem, dev)) != CUDA_SUCCESS ||
	    (r = cu.DeviceGetPCIBusId(info->pci_bus_id, (int)sizeof info->pci_bus_id, dev)) !=
		    CUDA_SUCCESS ||
	    (r = cu.DriverGetVersion(&ver)) != CUDA_SUCCESS) {
		cu_describe(r, what, sizeof what);
		snprintf(err, errlen, "reading GPU %d: %s", ordinal, what);
		return GS_DEV_FAIL;
	}
	info->ordinal = ordinal;
	info->mem_bytes = mem;
	snprintf(info->cuda_version, sizeof info->cuda_version, "%d.%d", ver / 1000, ver % 1000 / 10);
#define A(name, field)                                                                          \
	if (attr(dev, CU_DEVICE_ATTRIBUTE_##name, #name, &(field), err, errlen) < 0)            \
		return GS_DEV_FAIL;
	A(COMPUTE_CAPABILITY_MAJOR, info->cc_major)
	A(COMPUTE_CAPABILITY_MINOR, info->cc_minor)
	A(MULTIPROCESSOR_COUNT, info->sms)
	A(L2_CACHE_SIZE, info->l2_bytes)
	A(WARP_SIZE, info->warp_size)
	A(MAX_THREADS_PER_BLOCK, info->max_threads_block)
	A(MAX_THREADS_PER_MULTIPROCESSOR, info->max_threads_sm)
	A(MAX_BLOCKS_PER_MULTIPROCESSOR, info->max_blocks_sm)
	A(MAX_REGISTERS_PER_MULTIPROCESSOR, info->regs_sm)
	A(MAX_REGISTERS_PER_BLOCK, info->regs_block)
	A(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, info->smem_sm)
	A(MAX_SHARED_MEMORY_PER_BLOCK, info->smem_block)
	A(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, info->smem_block_optin)
	A(RESERVED_SHARED_MEMORY_PER_BLOCK, info->smem_reserved_block)
	A(CLOCK_RATE, clock_khz)
	A(MEMORY_CLOCK_RATE, mem_khz)
	A(GLOBAL_MEMORY_BUS_WIDTH, info->mem_bus_bits)
	A(MAX_BLOCK_DIM_X, info->max_block_dim[0])
	A(MAX_BLOCK_DIM_Y, info->max_block_dim[1])
	A(MAX_BLOCK_DIM_Z, info->max_block_dim[2])
	A(MAX_GRID_DIM_X, info->max_grid_dim[0])
	A(MAX_GRID_DIM_Y, info->max_grid_dim[1])
	A(MAX_GRID_DIM_Z, info->max_grid_dim[2])
#undef A
	info->clock_mhz = clock_khz / 1000;
	info->mem_clock_mhz = mem_khz / 1000;
	/* The driver's own version where NVML says it, else the CUDA version
	 * the driver supports. */
	if (nvml_ready() && nvml.driver[0])
		snprintf(info->driver, sizeof info->driver, "%s", nvml.driver);
	else
		snprintf(info->driver, sizeof info->driver, "%s", info->cuda_version);
	return 0;
}

static void cuda_close(struct gs_dev *d);

static int cuda_open(int ordinal, struct gs_dev **out, struct gs_devinfo *info, char *err,
		     size_t errlen)
{
	struct gs_dev *d;
	CUresult r;

	*out = NULL;
	d = gs_xcalloc(1, sizeof *d);
	d->ordinal = ordinal;
	d->cudev = -1;
	if (cuda_info(ordinal, &d->info, err, errlen) < 0) {
		free(d);
		return GS_DEV_FAIL;
	}
	if ((r = cu.DeviceGet(&d->cudev, ordinal)) != CUDA_SUCCESS) {
		cu_fail(d, r, GS_CUDA_CALL_OTHER, "cuDeviceGet(%d)", ordinal);
		goto fail;
	}
	if ((r = cu.DevicePrimaryCtxRetain(&d->ctx, d->cudev)) != CUDA_SUCCESS) {
		d->ctx = NULL;
		cu_fail(d, r, GS_CUDA_CALL_OTHER, "creating a context on GPU %d", ordinal);
		goto fail;
	}
	if ((r = cu.CtxSetCurrent(d->ctx)) != CUDA_SUCCESS) {
		cu_fail(d, r, GS_CUDA_CALL_OTHER, "cuCtxSetCurrent");
		goto fail;
	}
	/* Created once: a pair per measurement would cost driver calls inside
	 * the timed loop. */
	if ((r = cu.EventCreate(&d->ev_start, 0)) != CUDA_SUCCESS ||
	    (r = cu.EventCreate(&d->ev_stop, 0)) != CUDA_SUCCESS) {
		cu_fail(d, r, GS_CUDA_CALL_OTHER, "cuEventCreate");
		goto fail;
	}
	if (nvml_ready() && nvml.DeviceGetHandleByPciBusId(d->info.pci_bus_id, &d->nvml) != 0)
		d->nvml = NULL;
	if (info)
		*info = d->info;
	*out = d;
	return 0;
fail:
	snprintf(err, errlen, "%s", d->msg);
	cuda_close(d);
	return GS_DEV_FAIL;
}

static void func_free_all(struct gs_func *f)
{
	while (f) {
		struct gs_func *next = f->next;

		free(f->entry);
		free(f);
		f = next;
	}
}

static void cuda_close(struct gs_dev *d)
{
	if (!d)
		return;
	/* On a broken context these calls fail; the driver frees everything
	 * with the primary context's last release anyway. */
	if (d->ctx && cu.CtxSetCurrent(d->ctx) == CUDA_SUCCESS) {
		while (d->modules) {
			struct gs_module *m = d->modules;

			d->modules = m->next;
			cu.ModuleUnload(m->mod);
			func_free_all(m->funcs);
			free(m);
		}
		for (size_t i = 0; i < d->nallocs; i++)
			cu.MemFree(d->allocs[i]);
		if (d->ev_start)
			cu.EventDestroy(d->ev_start);
		if (d->ev_stop)
			cu.EventDestroy(d->ev_stop);
		for (size_t i = 0; i < GS_DEV_MARKS; i++)
			if (d->marks[i])
				cu.EventDestroy(d->marks[i]);
		if (d->gate_word) {
			pthread_mutex_lock(&d->gate_mu);
			d->gate_quit = 1;
			d->gate_word[0] = ~0u; /* nothing may wait on it any more */
			pthread_cond_signal(&d->gate_cv);
			pthread_mutex_unlock(&d->gate_mu);
			pthread_join(d->gate_thread, NULL);
			cu.MemFreeHost((void *)d->gate_word);
		}
		cu.CtxSetCurrent(NULL);
	}
	while (d->modules) {
		struct gs_module *m = d->modules;

		d->modules = m->next;
		func_free_all(m->funcs);
		free(m);
	}
	if (d->ctx)
		cu.DevicePrimaryCtxRelease(d->cudev);
	free(d->allocs);
	free(d);
}

static const char *cuda_errmsg(struct gs_dev *d)
{
	return d->msg;
}

static int cuda_alloc(struct gs_dev *d, size_t bytes, uint64_t *ptr)
{
	CUdeviceptr p = 0;
	CUresult r;
	int rc;

	if ((rc = enter(d)) < 0)
		return rc;
	/* cuMemAlloc refuses 0 bytes; an empty buffer still needs an address. */
	r = cu.MemAlloc(&p, bytes ? bytes : 1);
	if (r != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_OTHER, "allocating %zu bytes", bytes);
	gs_grow(&d->allocs, &d->allocs_cap, d->nallocs + 1, sizeof *d->allocs);
	d->allocs[d->nallocs++] = p;
	*ptr = p;
	return 0;
}

static int cuda_free_mem(struct gs_dev *d, uint64_t ptr)
{
	CUresult r;
	int rc;
	size_t i;

	for (i = 0; i < d->nallocs && d->allocs[i] != ptr; i++)
		;
	if (i == d->nallocs) {
		set_msg(d, "freeing 0x%llx: not allocated here", (unsigned long long)ptr);
		return GS_DEV_FAIL;
	}
	d->allocs[i] = d->allocs[--d->nallocs];
	if ((rc = enter(d)) < 0)
		return rc;
	r = cu.MemFree(ptr);
	if (r != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_OTHER, "freeing device memory");
	return 0;
}

static int cuda_upload(struct gs_dev *d, uint64_t dst, const void *src, size_t n)
{
	CUresult r;
	int rc;

	if ((rc = enter(d)) < 0)
		return rc;
	if (n && (r = cu.MemcpyHtoD(dst, src, n)) != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_OTHER, "copying %zu bytes to the GPU", n);
	return 0;
}

/* Synchronous: an earlier launch's fault surfaces here, so name it. */
static int cuda_download(struct gs_dev *d, void *dst, uint64_t src, size_t n)
{
	CUresult r;
	int rc;

	if ((rc = enter(d)) < 0)
		return rc;
	if (n && (r = cu.MemcpyDtoH(dst, src, n)) != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "copying %zu bytes from the GPU%s%s%s", n,
			       d->last_entry ? " (after '" : "", d->last_entry ? d->last_entry : "",
			       d->last_entry ? "')" : "");
	return 0;
}

static int cuda_copy(struct gs_dev *d, uint64_t dst, uint64_t src, size_t n)
{
	CUresult r;
	int rc;

	if ((rc = enter(d)) < 0)
		return rc;
	if (n && (r = cu.MemcpyDtoD(dst, src, n)) != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_OTHER, "copying %zu bytes on the GPU", n);
	return 0;
}

static int cuda_fill(struct gs_dev *d, uint64_t dst, int byte, size_t n)
{
	CUresult r;
	int rc;

	if ((rc = enter(d)) < 0)
		return rc;
	if (n && (r = cu.MemsetD8(dst, (unsigned char)byte, n)) != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_OTHER, "setting %zu bytes on the GPU", n);
	return 0;
}

static int cuda_module_load(struct gs_dev *d, const void *image, size_t n, struct gs_module **m)
{
	CUmodule mod;
	CUresult r;
	int rc;

	*m = NULL;
	if ((rc = enter(d)) < 0)
		return rc;
	if (!image || n == 0) {
		set_msg(d, "loading a module: empty image");
		return GS_DEV_LAUNCH;
	}
	/* A cubin carries its size in its ELF header; n is only checked. */
	r = cu.ModuleLoadData(&mod, image);
	if (r != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "loading the cubin (%zu bytes) on sm_%d%d",
			       n, d->info.cc_major, d->info.cc_minor);
	*m = gs_xcalloc(1, sizeof **m);
	(*m)->mod = mod;
	(*m)->next = d->modules;
	d->modules = *m;
	return 0;
}

static void cuda_module_unload(struct gs_dev *d, struct gs_module *m)
{
	struct gs_module **p;

	if (!m)
		return;
	for (p = &d->modules; *p && *p != m; p = &(*p)->next)
		;
	if (*p)
		*p = m->next;
	/* A function of this module may have been the last launched. */
	for (struct gs_func *f = m->funcs; f; f = f->next)
		if (d->last_entry == f->entry)
			d->last_entry = NULL;
	if (!d->broken && cu.CtxSetCurrent(d->ctx) == CUDA_SUCCESS)
		cu.ModuleUnload(m->mod);
	func_free_all(m->funcs);
	free(m);
}

static int cuda_function(struct gs_dev *d, struct gs_module *m, const char *entry,
			 struct gs_func **f, struct gs_funcattr *attr_out)
{
	struct gs_func *fn;
	CUfunction cf;
	CUresult r;
	int rc, v[6];
	static const struct {
		CUfunction_attribute a;
		const char *name;
	} attrs[6] = {
		{ CU_FUNC_ATTRIBUTE_NUM_REGS, "NUM_REGS" },
		{ CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "SHARED_SIZE_BYTES" },
		{ CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "LOCAL_SIZE_BYTES" },
		{ CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, "CONST_SIZE_BYTES" },
		{ CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK" },
		{ CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "MAX_DYNAMIC_SHARED_SIZE_BYTES" },
	};

	*f = NULL;
	if ((rc = enter(d)) < 0)
		return rc;
	r = cu.ModuleGetFunction(&cf, m->mod, entry);
	if (r != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "no kernel '%s' in the module", entry);
	for (size_t i = 0; i < GS_ARRAY_SIZE(attrs); i++) {
		r = cu.FuncGetAttribute(&v[i], attrs[i].a, cf);
		if (r != CUDA_SUCCESS)
			return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "cuFuncGetAttribute(%s) of '%s'",
				       attrs[i].name, entry);
	}
	fn = gs_xcalloc(1, sizeof *fn);
	fn->fn = cf;
	fn->entry = gs_xstrdup(entry);
	fn->attr.registers = v[0];
	fn->attr.static_smem = v[1];
	fn->attr.local_bytes = v[2];
	fn->attr.const_bytes = v[3];
	fn->attr.max_threads = v[4];
	fn->max_dyn_smem = v[5];
	fn->next = m->funcs;
	m->funcs = fn;
	*f = fn;
	if (attr_out)
		*attr_out = fn->attr;
	return 0;
}

static int cuda_const_copy(struct gs_dev *d, struct gs_module *m, const char *symbol, uint64_t src,
			   size_t n)
{
	CUdeviceptr p;
	size_t size = 0;
	CUresult r;
	int rc;

	if ((rc = enter(d)) < 0)
		return rc;
	r = cu.ModuleGetGlobal(&p, &size, m->mod, symbol);
	if (r != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "no __constant__ '%s' in the module", symbol);
	if (n > size) {
		set_msg(d, "copying %zu bytes into __constant__ '%s' of %zu bytes", n, symbol, size);
		return GS_DEV_LAUNCH;
	}
	if (n && (r = cu.MemcpyDtoD(p, src, n)) != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "copying %zu bytes into __constant__ '%s'", n,
			       symbol);
	return 0;
}

/* Dynamic shared memory above the function's limit (48 KB less its static
 * shared memory, by default) must be asked for before the launch. */
static int raise_dyn_smem(struct gs_dev *d, struct gs_func *f, size_t dyn)
{
	CUresult r;

	if (dyn <= (size_t)f->max_dyn_smem)
		return 0;
	if (dyn > INT_MAX) {
		set_msg(d, "'%s': %zu bytes of dynamic shared memory", f->entry, dyn);
		return GS_DEV_INVALID;
	}
	r = cu.FuncSetAttribute(f->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn);
	if (r != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_LAUNCH,
			       "'%s' with %zu bytes of dynamic shared memory (%d static; the GPU "
			       "allows %d per block)",
			       f->entry, dyn, f->attr.static_smem, d->info.smem_block_optin);
	f->max_dyn_smem = (int)dyn;
	return 0;
}

static int cuda_occupancy(struct gs_dev *d, struct gs_func *f, int block_threads, size_t dyn_smem,
			  int *blocks_per_sm, char *limiter)
{
	if (limiter)
		limiter[0] = 0; /* the driver does not say; measure.c works it out */
	CUresult r;
	int rc, n = 0;

	*blocks_per_sm = 0;
	if ((rc = enter(d)) < 0)
		return rc;
	if ((rc = raise_dyn_smem(d, f, dyn_smem)) < 0)
		return rc;
	r = cu.OccupancyMaxActiveBlocksPerMultiprocessor(&n, f->fn, block_threads, dyn_smem);
	if (r != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_LAUNCH,
			       "occupancy of '%s' with %d threads and %zu bytes of dynamic shared "
			       "memory",
			       f->entry, block_threads, dyn_smem);
	*blocks_per_sm = n;
	return 0;
}

static int cuda_launch(struct gs_dev *d, struct gs_func *f, const unsigned grid[3],
		       const unsigned block[3], size_t dyn_smem, void **args)
{
	CUresult r;
	int rc;

	if ((rc = enter(d)) < 0)
		return rc;
	if ((rc = raise_dyn_smem(d, f, dyn_smem)) < 0)
		return rc;
	d->last_entry = f->entry;
	r = cu.LaunchKernel(f->fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
			    (unsigned)dyn_smem, NULL, args, NULL);
	if (r != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_LAUNCH,
			       "launching '%s' (grid %ux%ux%u, block %ux%ux%u, %zu bytes of dynamic "
			       "shared memory; the kernel takes %d threads, %d registers, %d bytes "
			       "static shared)",
			       f->entry, grid[0], grid[1], grid[2], block[0], block[1], block[2],
			       dyn_smem, f->attr.max_threads, f->attr.registers, f->attr.static_smem);
	return 0;
}

static int cuda_sync(struct gs_dev *d)
{
	CUresult r;
	int rc;

	if ((rc = enter(d)) < 0)
		return rc;
	r = cu.StreamSynchronize(NULL);
	if (r != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "running '%s'",
			       d->last_entry ? d->last_entry : "the launches");
	return 0;
}

static int cuda_timer_start(struct gs_dev *d)
{
	CUresult r;
	int rc;

	if ((rc = enter(d)) < 0)
		return rc;
	if ((r = cu.EventRecord(d->ev_start, NULL)) != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "cuEventRecord");
	d->timing = 1;
	return 0;
}

static int cuda_timer_stop(struct gs_dev *d, double *ms)
{
	float t = 0;
	CUresult r;
	int rc;

	*ms = -1;
	if ((rc = enter(d)) < 0)
		return rc;
	if (!d->timing) {
		set_msg(d, "timer stopped without being started");
		return GS_DEV_FAIL;
	}
	d->timing = 0;
	if ((r = cu.EventRecord(d->ev_stop, NULL)) != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "cuEventRecord");
	/* The launches' faults surface here. */
	if ((r = cu.EventSynchronize(d->ev_stop)) != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "running '%s'",
			       d->last_entry ? d->last_entry : "the launches");
	if ((r = cu.EventElapsedTime(&t, d->ev_start, d->ev_stop)) != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "cuEventElapsedTime");
	*ms = t;
	return 0;
}

void gs_cuda_prewarm(int ordinal)
{
	CUdevice dev;
	CUcontext ctx;

	/* the context stays retained: cuda_open retains it again and finds
	 * it made */
	if (cu_ready() == 0 && cu.DeviceGet(&dev, ordinal) == CUDA_SUCCESS)
		cu.DevicePrimaryCtxRetain(&ctx, dev);
}

static int cuda_mark(struct gs_dev *d, unsigned i)
{
	CUresult r;
	int rc;

	if (i >= GS_DEV_MARKS) {
		set_msg(d, "timing mark %u of %d", i, GS_DEV_MARKS);
		return GS_DEV_FAIL;
	}
	if ((rc = enter(d)) < 0)
		return rc;
	if (!d->marks[i] && (r = cu.EventCreate(&d->marks[i], 0)) != CUDA_SUCCESS) {
		d->marks[i] = NULL;
		return cu_fail(d, r, GS_CUDA_CALL_OTHER, "cuEventCreate");
	}
	if ((r = cu.EventRecord(d->marks[i], NULL)) != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "cuEventRecord");
	return 0;
}

static int cuda_marks_read(struct gs_dev *d, unsigned n, double *ms)
{
	CUresult r;
	int rc;

	if (n < 2 || n > GS_DEV_MARKS || !d->marks[n - 1]) {
		set_msg(d, "reading %u timing marks", n);
		return GS_DEV_FAIL;
	}
	if ((rc = enter(d)) < 0)
		return rc;
	/* The launches' faults surface here. */
	if ((r = cu.EventSynchronize(d->marks[n - 1])) != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "running '%s'",
			       d->last_entry ? d->last_entry : "the launches");
	for (unsigned i = 0; i + 1 < n; i++) {
		float t = 0;

		if ((r = cu.EventElapsedTime(&t, d->marks[i], d->marks[i + 1])) != CUDA_SUCCESS)
			return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "cuEventElapsedTime");
		ms[i] = t;
	}
	return 0;
}

/* A gate the host has not opened after this long is opened here: the host
 * queues a round's first launches in tens of microseconds. */
#define GATE_WATCH_NS 2000000L

static void *gate_watch(void *arg)
{
	struct gs_dev *d = arg;
	pthread_mutex_lock(&d->gate_mu);
	while (!d->gate_quit) {
		if (!d->gate_watching) {
			pthread_cond_wait(&d->gate_cv, &d->gate_mu);
			continue;
		}
		unsigned seq = d->gate_seq;
		struct timespec dl;
		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_nsec += GATE_WATCH_NS;
		if (dl.tv_nsec >= 1000000000L) {
			dl.tv_sec++;
			dl.tv_nsec -= 1000000000L;
		}
		int r = 0;
		while (!d->gate_quit && d->gate_watching && d->gate_seq == seq && r != ETIMEDOUT)
			r = pthread_cond_timedwait(&d->gate_cv, &d->gate_mu, &dl);
		if (d->gate_watching && d->gate_seq == seq) {
			__atomic_store_n(d->gate_word, seq, __ATOMIC_RELEASE);
			d->gate_watching = 0;
		}
	}
	pthread_mutex_unlock(&d->gate_mu);
	return NULL;
}

/* The gate holds the device's queue while the host fills it: a timed
 * sample must not include the microseconds the host takes to submit the
 * launch after the mark before it, which is what the first sample of a
 * round measures when the device is idle and takes each command as it
 * comes.  The queue waits (cuStreamWaitValue32) for a word of pinned host
 * memory to reach the gate's number; release writes it.  Where the device
 * cannot wait on host memory the gate is a no-op. */
static int cuda_gate(struct gs_dev *d, int hold)
{
	CUresult r;
	int rc;

	if (!hold) {
		if (d->gate_held && d->gate_word) {
			pthread_mutex_lock(&d->gate_mu);
			__atomic_store_n(d->gate_word, d->gate_seq, __ATOMIC_RELEASE);
			d->gate_watching = 0;
			pthread_mutex_unlock(&d->gate_mu);
			d->gate_held = 0;
		}
		return 0;
	}
	if (d->gate_state < 0 || d->gate_held)
		return 0;
	if ((rc = enter(d)) < 0)
		return rc;
	if (!d->gate_state) {
		void *p = NULL;

		d->gate_state = -1;
		/* 2: CU_MEMHOSTALLOC_DEVICEMAP */
		if (cu.MemHostAlloc(&p, 64, 2) != CUDA_SUCCESS)
			return 0;
		if (cu.MemHostGetDevicePointer(&d->gate_dev, p, 0) != CUDA_SUCCESS) {
			cu.MemFreeHost(p);
			return 0;
		}
		d->gate_word = p;
		d->gate_word[0] = 0;
		pthread_mutex_init(&d->gate_mu, NULL);
		pthread_cond_init(&d->gate_cv, NULL);
		if (pthread_create(&d->gate_thread, NULL, gate_watch, d) != 0) {
			pthread_cond_destroy(&d->gate_cv);
			pthread_mutex_destroy(&d->gate_mu);
			cu.MemFreeHost(p);
			d->gate_word = NULL;
			return 0;
		}
		d->gate_state = 1;
	}
	pthread_mutex_lock(&d->gate_mu);
	d->gate_seq++;
	d->gate_watching = 1;
	pthread_cond_signal(&d->gate_cv);
	pthread_mutex_unlock(&d->gate_mu);
	/* 0: CU_STREAM_WAIT_VALUE_GEQ, which a wrapped-around number would
	 * not pass; four billion rounds are more than a sweep has */
	r = cu.StreamWaitValue32(NULL, d->gate_dev, d->gate_seq, 0);
	if (r != CUDA_SUCCESS) {
		pthread_mutex_lock(&d->gate_mu);
		d->gate_watching = 0;
		pthread_mutex_unlock(&d->gate_mu);
	}
	if (r == CUDA_ERROR_NOT_SUPPORTED || r == CUDA_ERROR_INVALID_VALUE) {
		d->gate_state = -1;
		return 0;
	}
	if (r != CUDA_SUCCESS)
		return cu_fail(d, r, GS_CUDA_CALL_KERNEL, "cuStreamWaitValue32");
	d->gate_held = 1;
	return 0;
}

/* NVML's energy counter is in millijoules and is refreshed by the driver
 * every few tens of milliseconds, so a run much shorter than that reads
 * too little or nothing: callers sample around runs of 100 ms or more. */
static int cuda_sample_begin(struct gs_dev *d)
{
	d->sampling = 1;
	d->have_e0 = d->nvml && nvml.DeviceGetTotalEnergyConsumption &&
		     nvml.DeviceGetTotalEnergyConsumption(d->nvml, &d->e0) == 0;
	d->t0 = gs_now();
	return 0;
}

static int cuda_sample_end(struct gs_dev *d, struct gs_devsample *s)
{
	unsigned long long e1 = 0;
	unsigned v = 0;
	double t1 = gs_now();

	s->energy_j = s->power_w = s->sm_clock_mhz = s->temp_c = -1;
	if (!d->sampling) {
		set_msg(d, "sample ended without being begun");
		return GS_DEV_FAIL;
	}
	d->sampling = 0;
	if (!d->nvml)
		return 0;
	if (d->have_e0 && nvml.DeviceGetTotalEnergyConsumption(d->nvml, &e1) == 0 && e1 >= d->e0) {
		s->energy_j = (double)(e1 - d->e0) / 1e3;
		if (t1 > d->t0)
			s->power_w = s->energy_j / (t1 - d->t0);
	}
	/* Read right after the run, while the clocks are still the run's. */
	if (nvml.DeviceGetClockInfo && nvml.DeviceGetClockInfo(d->nvml, GS_NVML_CLOCK_SM, &v) == 0)
		s->sm_clock_mhz = v;
	if (nvml.DeviceGetTemperature &&
	    nvml.DeviceGetTemperature(d->nvml, GS_NVML_TEMPERATURE_GPU, &v) == 0)
		s->temp_c = v;
	return 0;
}

const struct gs_dev_ops gs_dev_cuda = {
	.kind = "cuda",
	.count = cuda_count,
	.open = cuda_open,
	.close = cuda_close,
	.gate = cuda_gate,
	.errmsg = cuda_errmsg,
	.alloc = cuda_alloc,
	.upload = cuda_upload,
	.download = cuda_download,
	.copy = cuda_copy,
	.module_load = cuda_module_load,
	.module_unload = cuda_module_unload,
	.function = cuda_function,
	.const_copy = cuda_const_copy,
	.occupancy = cuda_occupancy,
	.launch = cuda_launch,
	.sync = cuda_sync,
	.timer_start = cuda_timer_start,
	.timer_stop = cuda_timer_stop,
	.mark = cuda_mark,
	.marks_read = cuda_marks_read,
	.sample_begin = cuda_sample_begin,
	.sample_end = cuda_sample_end,
	.info = cuda_info,
	.free_mem = cuda_free_mem,
	.fill = cuda_fill,
};
