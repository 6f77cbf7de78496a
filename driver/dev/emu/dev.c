/* dev.c — the emulated device behind the gs_dev_ops vtable, so that a worker
 * measures on it exactly as on a GPU.
 *
 * A launch runs the PTX interpreter (interp/) at once (launches are
 * synchronous here) and adds the performance model's (model/) time for that
 * launch to the running timer: the interval model for a sampled launch,
 * MWP-CWP (model/mwp.c) for one timed at the emulator size.  This file is
 * the one place where the two halves meet, so it sits above both.
 * The "ordinal" of an emulated device is the index of its profile in
 * gs_emu_profiles[].
 *
 * A module image is a cubin and the PTX it was made from, packed by
 * gs_emu_image_pack: the cubin gives the real resource usage (registers,
 * shared and local memory), the PTX is what runs. */
#include "dev/emu.h"
#include "dev/emu/interp/interp.h"
#include "dev/emu/model/model.h"
#include "dev/dev.h"
#include "gen/gen.h"
#include "util/util.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char image_magic[8] = "GSEMU1\n";

struct gs_module {
	struct gs_module *next, *prev; /* the device's modules, freed with it */
	struct gs_ptx_module *ptx;
	void *cubin;
	size_t cubin_len;
	struct gs_func *funcs; /* a list, freed with the module */
};

struct gs_func {
	struct gs_func *next;
	struct gs_module *m;
	int entry;
	struct gs_funcattr attr;
	struct gs_emu_code code; /* model/sass.c; all 0 without a cubin */
};

struct gs_dev {
	const struct gs_emu_profile *prof;
	struct gs_module *mods; /* loaded and not unloaded: after a fault the
				 * worker exits without unloading, as on a GPU */
	struct gs_emu_mem mem; /* mem.limit: mem_budget's */
	char limit_why[160];    /* which limit mem.limit is, for messages */
	int threads;
	char err[1024];
	int pending;   /* the result of the last launch, reported by sync */
	/* what ran since timer_start */
	double acc_ms;
	struct gs_emu_counters acc;
	double util_sum;
	/* a launch ran that the profile could not have made resident: its
	 * outputs are right (a reference launch needs only those) but it has
	 * no modeled time */
	char unmodeled[256];
	unsigned nlaunch;
	/* sampled launches (gs_dev_ops.sample): blocks per launch, and the
	 * interval model's figures of the longest launch since timer_start */
	int sample;
	double deadline; /* gs_now() past which launches stop (host_limit); 0: none */
	double limit_s;
	struct gs_emu_interval iv;
	int niv;
	/* of acc_ms, what lies in terms the model approximates (confidence.c) */
	double approx_ms;
	/* launches already timed since timer_start, by what they were given */
	struct timed {
		struct gs_func *f;
		unsigned grid[3], block[3];
		size_t dyn_smem, nargs;
		unsigned char args[256];
		struct gs_emu_interval iv;
	} timed[16];
	unsigned ntimed;
};

static int emu_threads = 0;

/* The local memory one thread may have (compute capability 2.0 on; 1.x:
 * 16 KB), which the driver refuses past at launch. */
#define LOCAL_MAX_BYTES (512u << 10)
#define LOCAL_MAX_BYTES_CC1 (16u << 10)

/* The host memory one emulated device may take, in bytes: $GSEARCH_EMU_MEM
 * (bytes, or with a K, M or G suffix of 1024s), else a quarter of the
 * host's physical memory: the worker keeps host copies of the inputs and
 * references beside the device's own, so a quarter leaves the rest of
 * the host to them and to everything else it runs.  0: unknown, no cap. */
static uint64_t host_cap(int *from_env)
{
	const char *e = getenv("GSEARCH_EMU_MEM");
	*from_env = 0;
	if (e && *e) {
		char *end;
		unsigned long long v = strtoull(e, &end, 10);
		int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
		if (shift)
			end++;
		if (end != e && !*end && v > 0 && v < (1ull << (63 - shift))) {
			*from_env = 1;
			return (uint64_t)v << shift;
		}
	}
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size / 4 : 0;
}

/* The device's memory: the profile's GPU memory, or less where the host's
 * cap is lower; why says which, for the messages. */
static uint64_t mem_budget(const struct gs_emu_profile *p, char *why, size_t whylen)
{
	int env;
	uint64_t dev = (uint64_t)(p->global_mem_mb > 0 ? p->global_mem_mb : 0) << 20;
	uint64_t host = host_cap(&env);
	if (dev && (!host || dev <= host)) {
		snprintf(why, whylen, "the %d MiB of %s's global_mem_mb", p->global_mem_mb, p->name);
		return dev;
	}
	if (host)
		snprintf(why, whylen, "the emulator's host cap, %llu MiB (%s)",
			 (unsigned long long)(host >> 20),
			 env ? "GSEARCH_EMU_MEM" : "a quarter of the host's memory; GSEARCH_EMU_MEM sets it");
	return host;
}

void gs_emu_set_threads(int n)
{
	emu_threads = n;
}

static int fail(struct gs_dev *d, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->err, sizeof d->err, fmt, ap);
	va_end(ap);
	return rc;
}

static int nprofiles(void)
{
	int n = 0;
	while (gs_emu_profiles[n])
		n++;
	return n;
}

static int emu_count(char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return nprofiles();
}

static void fill_info(const struct gs_emu_profile *p, int ordinal, struct gs_devinfo *i)
{
	memset(i, 0, sizeof(*i));
	snprintf(i->name, sizeof i->name, "emulated %s (%s)", p->gpu, p->name);
	snprintf(i->driver, sizeof i->driver, "emu");
	snprintf(i->cuda_version, sizeof i->cuda_version, "-");
	i->ordinal = ordinal;
	i->cc_major = p->cc_major;
	i->cc_minor = p->cc_minor;
	i->sms = p->sms;
	char why[160];
	i->mem_bytes = (size_t)mem_budget(p, why, sizeof why);
	i->warp_size = p->warp_size;
	i->max_threads_block = p->max_threads_block;
	i->max_threads_sm = p->max_threads_sm;
	i->max_blocks_sm = p->max_blocks_sm;
	i->regs_sm = p->regs_sm;
	i->regs_block = p->regs_block;
	i->smem_sm = p->smem_sm;
	i->smem_block = p->smem_block;
	i->smem_block_optin = p->smem_block;
	i->smem_reserved_block = p->smem_reserved_block;
	i->clock_mhz = (int)p->clock_mhz;
	for (int k = 0; k < 3; k++)
		i->max_block_dim[k] = k < 2 ? p->max_threads_block : 64;
	i->max_grid_dim[0] = p->cc_major >= 3 ? 2147483647 : 65535;
	i->max_grid_dim[1] = i->max_grid_dim[2] = 65535;
}

static int emu_info(int ordinal, struct gs_devinfo *info, char *err, size_t errlen)
{
	if (ordinal < 0 || ordinal >= nprofiles()) {
		snprintf(err, errlen, "no emulated device %d", ordinal);
		return GS_DEV_FAIL;
	}
	fill_info(gs_emu_profiles[ordinal], ordinal, info);
	return 0;
}

static int emu_open(int ordinal, struct gs_dev **out, struct gs_devinfo *info, char *err,
		    size_t errlen)
{
	if (emu_info(ordinal, info, err, errlen) < 0)
		return GS_DEV_FAIL;
	struct gs_dev *d = gs_xcalloc(1, sizeof(*d));
	d->prof = gs_emu_profiles[ordinal];
	d->mem.limit = mem_budget(d->prof, d->limit_why, sizeof d->limit_why);
	d->threads = emu_threads;
	if (d->threads <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		d->threads = n > 0 ? (int)(n < 64 ? n : 64) : 1;
	}
	*out = d;
	return 0;
}

static void emu_module_unload(struct gs_dev *d, struct gs_module *m);

static void emu_close(struct gs_dev *d)
{
	if (!d)
		return;
	while (d->mods)
		emu_module_unload(d, d->mods);
	gs_emu_mem_release(&d->mem);
	free(d);
}

static const char *emu_errmsg(struct gs_dev *d)
{
	return d->err;
}

static int emu_alloc(struct gs_dev *d, size_t bytes, uint64_t *ptr)
{
	int rc = gs_emu_mem_alloc(&d->mem, bytes, ptr);
	if (rc == -2)
		return fail(d, GS_DEV_FAIL, "out of device memory: %llu bytes in use, %zu more would "
			    "pass %s", (unsigned long long)d->mem.used, bytes, d->limit_why);
	if (rc < 0)
		return fail(d, GS_DEV_FAIL, "out of memory allocating %zu bytes", bytes);
	return 0;
}

static int emu_free(struct gs_dev *d, uint64_t ptr)
{
	if (gs_emu_mem_free(&d->mem, ptr) < 0)
		return fail(d, GS_DEV_FAIL, "free of 0x%llx, which is no allocation",
			    (unsigned long long)ptr);
	return 0;
}

static unsigned char *span(struct gs_dev *d, uint64_t addr, size_t n)
{
	unsigned char *p = gs_emu_mem_ptr(&d->mem, addr, n);
	if (!p)
		fail(d, GS_DEV_FAIL, "0x%llx..+%zu is outside every allocation",
		     (unsigned long long)addr, n);
	return p;
}

static int emu_upload(struct gs_dev *d, uint64_t dst, const void *src, size_t n)
{
	unsigned char *p = n ? span(d, dst, n) : NULL;
	if (n && !p)
		return GS_DEV_FAIL;
	if (n)
		memcpy(p, src, n);
	return 0;
}

static int emu_download(struct gs_dev *d, void *dst, uint64_t src, size_t n)
{
	unsigned char *p = n ? span(d, src, n) : NULL;
	if (n && !p)
		return GS_DEV_FAIL;
	if (n)
		memcpy(dst, p, n);
	return 0;
}

static int emu_copy(struct gs_dev *d, uint64_t dst, uint64_t src, size_t n)
{
	if (!n)
		return 0;
	unsigned char *a = span(d, dst, n), *b = a ? span(d, src, n) : NULL;
	if (!a || !b)
		return GS_DEV_FAIL;
	memmove(a, b, n);
	return 0;
}

static int emu_fill(struct gs_dev *d, uint64_t dst, int byte, size_t n)
{
	unsigned char *p = n ? span(d, dst, n) : NULL;
	if (n && !p)
		return GS_DEV_FAIL;
	if (n)
		memset(p, byte, n);
	return 0;
}

size_t gs_emu_image_pack(const void *cubin, size_t cubin_len, const char *ptx, size_t ptx_len,
			 void **out)
{
	size_t n = sizeof image_magic + 8 + cubin_len + ptx_len;
	unsigned char *p = gs_xmalloc(n);
	memcpy(p, image_magic, sizeof image_magic);
	uint64_t cl = cubin_len;
	memcpy(p + sizeof image_magic, &cl, 8);
	if (cubin_len)
		memcpy(p + sizeof image_magic + 8, cubin, cubin_len);
	if (ptx_len)
		memcpy(p + sizeof image_magic + 8 + cubin_len, ptx, ptx_len);
	*out = p;
	return n;
}

static int emu_module_load(struct gs_dev *d, const void *image, size_t n, struct gs_module **out)
{
	const unsigned char *p = image;
	uint64_t cl;
	if (n < sizeof image_magic + 8 || memcmp(p, image_magic, sizeof image_magic))
		return fail(d, GS_DEV_LAUNCH, "the module is not an emulator image (cubin and PTX)");
	memcpy(&cl, p + sizeof image_magic, 8);
	if (cl > n - sizeof image_magic - 8)
		return fail(d, GS_DEV_LAUNCH, "truncated emulator image");
	const unsigned char *cubin = p + sizeof image_magic + 8;
	const char *ptx = (const char *)cubin + cl;
	size_t ptx_len = n - sizeof image_magic - 8 - cl;
	struct gs_ptx_module *pm = gs_ptx_load(ptx, ptx_len, &d->mem, d->err, sizeof d->err);
	if (!pm)
		return GS_DEV_LAUNCH;
	struct gs_module *m = gs_xcalloc(1, sizeof(*m));
	m->ptx = pm;
	m->cubin_len = cl;
	m->next = d->mods;
	if (d->mods)
		d->mods->prev = m;
	d->mods = m;
	if (cl) {
		m->cubin = gs_xmalloc(cl);
		memcpy(m->cubin, cubin, cl);
	}
	*out = m;
	return 0;
}

static void emu_module_unload(struct gs_dev *d, struct gs_module *m)
{
	if (!m)
		return;
	if (m->prev)
		m->prev->next = m->next;
	else
		d->mods = m->next;
	if (m->next)
		m->next->prev = m->prev;
	while (m->funcs) {
		struct gs_func *f = m->funcs;
		m->funcs = f->next;
		free(f->code.win);
		free(f);
	}
	gs_ptx_free(m->ptx, &d->mem);
	free(m->cubin);
	free(m);
}

/* The most threads per block a function with these registers can launch
 * with: what the driver would say, a multiple of the warp size. */
static int max_threads(const struct gs_emu_profile *p, int regs, int launch_bound)
{
	int best = 0;
	for (int t = p->warp_size; t <= p->max_threads_block; t += p->warp_size) {
		struct gs_emu_occ o;
		char why[8];
		if (gs_emu_occupancy(p, t, regs, 0, &o, why, sizeof why) == 0 && o.blocks_per_sm > 0)
			best = t;
	}
	if (launch_bound > 0 && launch_bound < best)
		best = launch_bound;
	return best;
}

static int emu_function(struct gs_dev *d, struct gs_module *m, const char *entry,
			struct gs_func **out, struct gs_funcattr *attr)
{
	int e = gs_ptx_entry(m->ptx, entry);
	if (e < 0)
		return fail(d, GS_DEV_LAUNCH, "no entry '%s' in the PTX", entry);
	struct gs_resources r;
	char err[256];
	memset(attr, 0, sizeof(*attr));
	if (m->cubin_len && gs_cubin_resources(m->cubin, m->cubin_len, entry, &r, err, sizeof err) == 0) {
		attr->registers = r.registers;
		attr->static_smem = r.static_smem;
		attr->local_bytes = r.stack_bytes > r.local_bytes ? r.stack_bytes : r.local_bytes;
		attr->const_bytes = r.const_bytes;
		attr->max_threads = max_threads(d->prof, r.registers, r.max_threads);
	} else {
		/* no cubin (a PTX-only test): what the PTX itself says */
		attr->static_smem = (int)gs_ptx_static_smem(m->ptx, e);
		size_t local = gs_ptx_local_bytes(m->ptx, e);
		attr->local_bytes = local < INT32_MAX ? (int)local : INT32_MAX;
		attr->max_threads = d->prof->max_threads_block;
	}
	struct gs_func *f = gs_xcalloc(1, sizeof(*f));
	f->m = m;
	f->entry = e;
	f->attr = *attr;
	if (m->cubin_len)
		gs_emu_cubin_facts(m->cubin, m->cubin_len, entry, &f->code);
	f->next = m->funcs;
	m->funcs = f;
	*out = f;
	return 0;
}

static int emu_const_copy(struct gs_dev *d, struct gs_module *m, const char *symbol, uint64_t src,
			  size_t n)
{
	uint64_t addr, size;
	if (gs_ptx_symbol(m->ptx, symbol, &addr, &size) < 0)
		return fail(d, GS_DEV_LAUNCH, "no symbol '%s' in the module", symbol);
	if (n > size)
		return fail(d, GS_DEV_LAUNCH, "%zu bytes into '%s', which has %llu", n, symbol,
			    (unsigned long long)size);
	return emu_copy(d, addr, src, n);
}

static int emu_occupancy(struct gs_dev *d, struct gs_func *f, int block_threads, size_t dyn_smem,
			 int *blocks_per_sm, char *limiter)
{
	struct gs_emu_occ o;
	char why[256];
	if (gs_emu_occupancy(d->prof, block_threads, f->attr.registers,
			     f->attr.static_smem + (int)dyn_smem, &o, why, sizeof why) < 0)
		return fail(d, GS_DEV_INVALID, "%s", why);
	*blocks_per_sm = o.blocks_per_sm;
	if (limiter)
		snprintf(limiter, 16, "%s", o.limiter);
	return 0;
}

/* The allocations a sample read and wrote, in bytes (out[0], out[1]): what
 * DRAM traffic cannot exceed however little the cache keeps. */
static void touched_bytes(const struct gs_dev *d, const struct gs_emu_blockstat *st, size_t n,
			  double out[2])
{
	const struct gs_emu_mem *m = &d->mem;
	/* an allocation counts once for its reads and once for its writes */
	unsigned char *seen = gs_xcalloc(m->n + 1, 1);
	out[0] = out[1] = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t end = 0;
		int written = 0;
		for (size_t k = 0; k < st[i].nsectors; k++) {
			uint64_t s = st[i].sectors[k];
			int w = (s & GS_EMU_SECTOR_WRITTEN) != 0;
			if (w != written) /* the written ones follow, sorted again */
				written = w, end = 0;
			uint64_t a = (s & ~GS_EMU_SECTOR_WRITTEN) << 5;
			if (a < end)
				continue;
			size_t lo = 0, hi = m->n;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (m->a[mid].base <= a)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (!lo)
				continue;
			const struct gs_emu_alloc *al = &m->a[lo - 1];
			end = al->base + al->size;
			unsigned char bit = (unsigned char)(1u << written);
			if (a < end && !(seen[lo - 1] & bit)) {
				seen[lo - 1] |= bit;
				out[written] += (double)al->size;
			}
		}
	}
	free(seen);
}

/* A launch stopped at its deadline: the device's code, and a message that
 * says which (a kernel that never ends is a timeout; one that is only
 * long for the emulator is not the kernel's fault) and what would let
 * it finish. */
static int expired(struct gs_dev *d, int rc)
{
	if (rc == GS_EMU_HANG)
		return GS_DEV_HANG; /* d->err has the loop's place */
	if (d->sample)
		return fail(d, GS_DEV_HOSTLIMIT, "the emulation took more than the %g s of host "
			    "time it may (--timeout and twice --max-time); the kernel's time is not "
			    "known, it is not a timeout: a longer --timeout, or fewer blocks executed "
			    "per launch (--emu-sample, now %d), lets it finish", d->limit_s, d->sample);
	return fail(d, GS_DEV_HOSTLIMIT, "the emulation took more than the %g s of host time it "
		    "may (--timeout and twice --max-time); the kernel's time is not known, it is "
		    "not a timeout: a longer --timeout, or a smaller emulator size (`problem N = "
		    "... emu M`), lets it finish", d->limit_s);
}

/* What a launch was given: its kernel, geometry and argument bytes.  0
 * when the arguments do not fit the key. */
static int launch_key(struct gs_func *f, const struct gs_emu_launch *l, struct timed *k)
{
	const size_t *sz;
	size_t np = gs_ptx_params(f->m->ptx, f->entry, &sz), at = 0;
	memset(k, 0, sizeof(*k));
	k->f = f;
	memcpy(k->grid, l->grid, sizeof k->grid);
	memcpy(k->block, l->block, sizeof k->block);
	k->dyn_smem = l->dyn_smem;
	for (size_t i = 0; i < np; i++) {
		if (at + sz[i] > sizeof k->args)
			return 0;
		memcpy(k->args + at, l->args[i], sz[i]);
		at += sz[i];
	}
	k->nargs = at;
	return 1;
}

static int same_launch(const struct timed *a, const struct timed *b)
{
	return a->f == b->f && !memcmp(a->grid, b->grid, sizeof a->grid) &&
	       !memcmp(a->block, b->block, sizeof a->block) && a->dyn_smem == b->dyn_smem &&
	       a->nargs == b->nargs && !memcmp(a->args, b->args, a->nargs);
}

static void add_interval(struct gs_dev *d, const struct gs_emu_interval *iv)
{
	d->acc_ms += iv->ms;
	/* the launch overhead is measured, not approximated */
	double model_ms = iv->ms - d->prof->launch_overhead_us / 1000.0;
	d->approx_ms += iv->approx * (model_ms > 0 ? model_ms : 0);
	if (!d->niv || iv->ms > d->iv.ms)
		d->iv = *iv;
	d->niv++;
}

/* The interior blocks a sampled launch runs first; when they observed the
 * same, the rest of its interior run is not executed. */
enum { CONVERGE = 3 };
#define CHAIN_TOL 0.03
#define FEW_MISSES 64

/* Whether a and b observed the same, for every figure the interval model
 * reads: counts exactly, the rest within a part in a thousand but for the
 * dependency chain and the exposed latency, within CHAIN_TOL and a
 * percent: the DRAM latency's draws (spread.c) are the block's own, so
 * that a block's chain differs from a neighbour's doing the same work.
 * The model reads the longest chain of the sample, which fewer blocks
 * make shorter: converged() weighs what that can change. */
static int near(double a, double b, double tol)
{
	double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
	return fabs(a - b) <= tol * m;
}

static int same_blocks(const struct gs_emu_blockstat *a, const struct gs_emu_blockstat *b,
		       double dram)
{
	size_t wa = 0, wb = 0;
	for (size_t k = 0; k < a->nsectors; k++)
		wa += (a->sectors[k] & GS_EMU_SECTOR_WRITTEN) != 0;
	for (size_t k = 0; k < b->nsectors; k++)
		wb += (b->sectors[k] & GS_EMU_SECTOR_WRITTEN) != 0;
	if (memcmp(a->c.warp_inst, b->c.warp_inst, sizeof a->c.warp_inst) ||
	    a->c.sld_inst + a->c.sst_inst + a->c.bank_conflicts !=
		    b->c.sld_inst + b->c.sst_inst + b->c.bank_conflicts ||
	    a->c.gld_inst != b->c.gld_inst || a->c.gst_inst != b->c.gst_inst ||
	    a->c.lld_inst != b->c.lld_inst || a->c.lst_inst != b->c.lst_inst ||
	    a->c.atom_inst != b->c.atom_inst || a->l1_hit != b->l1_hit ||
	    a->l1_miss != b->l1_miss || a->l1_waves != b->l1_waves || a->l1_split != b->l1_split ||
	    a->st_sectors != b->st_sectors ||
	    a->st_partial != b->st_partial || a->st_partial_w != b->st_partial_w ||
	    a->nsectors != b->nsectors || wa != wb ||
	    a->loop_ins != b->loop_ins || a->win_loads != b->win_loads ||
	    (!a->sectors) != (!b->sectors))
		return 0;
	for (int c = 0; c < GS_EMU_NCLASS; c++)
		if (!near(a->xinst[c], b->xinst[c], 1e-3))
			return 0;
	double pa = a->chain + a->chain_misses * dram, pb = b->chain + b->chain_misses * dram;
	return near(pa, pb, CHAIN_TOL) && near(a->chain, b->chain, CHAIN_TOL) &&
	       near(a->exposed, b->exposed, 1e-2) && near(a->loop_share, b->loop_share, 1e-3) &&
	       near(a->win_sum, b->win_sum, 1e-3);
}

static double path(const struct gs_emu_blockstat *b, double dram)
{
	return b->chain + b->chain_misses * dram;
}

/* Whether the sample st[0..n) (weights w, the interior run from `inner`
 * on standing for the blocks not run) times the launch as the whole
 * sample would: the blocks not run would have chains like the run's, in
 * the spread the run's show, and the longest of more blocks is longer.
 * The run's longest chain is lengthened by 1.5 times that spread (the
 * longest of 24 chains exceeds the longest of 3 by about 0.7 times the
 * range of 3, for normal spreads); when the modeled time moves by less
 * than half a percent, the chain the skipped blocks might have had does
 * not matter.  That holds for chains through many misses, whose draws
 * average out; a chain through fewer than FEW_MISSES draws from the
 * spread's tail (transpose's longest of 24 was 15% longer than the
 * longest of its first 3, its time 3.4%), so there it is lengthened by a
 * quarter.  (With a percent at least for every chain, regthread and
 * matvec ran all their blocks.) */
static int converged(struct gs_dev *d, const struct gs_emu_occ *o, const unsigned grid[3],
		     const unsigned block[3], struct gs_emu_blockstat *st, const double *w,
		     size_t n, size_t inner, const double cap[2])
{
	double dram = gs_emu_dram_beyond_l2(d->prof);
	size_t top = inner;
	double lo = path(&st[inner], dram), hi = lo, few = st[inner].chain_misses;
	for (size_t i = inner + 1; i < n; i++) {
		double v = path(&st[i], dram);
		if (v > hi)
			hi = v, top = i;
		if (v < lo)
			lo = v;
		if (st[i].chain_misses < few)
			few = st[i].chain_misses;
	}
	double grow = hi > 0 ? 1.5 * (hi - lo) / hi : 0;
	if (grow < 0.001)
		grow = 0.001;
	if (few < FEW_MISSES && grow < 0.25)
		grow = 0.25;
	struct gs_emu_interval a, b;
	if (gs_emu_interval_model(d->prof, grid, block, o, st, w, n, cap, &a) < 0)
		return 0;
	double chain = st[top].chain, misses = st[top].chain_misses;
	st[top].chain *= 1 + grow;
	st[top].chain_misses *= 1 + grow;
	int rc = gs_emu_interval_model(d->prof, grid, block, o, st, w, n, cap, &b);
	st[top].chain = chain;
	st[top].chain_misses = misses;
	return rc == 0 && fabs(b.ms - a.ms) <= 0.005 * a.ms;
}

/* Runs the sampled blocks idx[0..n) into st[].  Blocks of a grid's
 * interior do the same work but where a guard or the data makes them
 * differ, so the interior run (from `inner` on, of equal weights w[])
 * starts with CONVERGE blocks: when they all observed the same and
 * converged() finds the time settled, they stand for the whole run,
 * their weights sharing its weight, and the rest does not run.  *n
 * becomes the blocks run. */
static int run_sample(struct gs_dev *d, struct gs_emu_launch *l, const struct gs_emu_occ *o,
		      uint64_t *idx, double *w, size_t *n, size_t inner,
		      struct gs_emu_blockstat *st)
{
	struct gs_emu_counters c;
	size_t first = *n;
	if (inner < *n && *n - inner > 2 * CONVERGE)
		first = inner + CONVERGE;
	l->only = idx;
	l->nonly = first;
	l->stats = st;
	int rc = gs_emu_run(l, &c, d->err, sizeof d->err);
	if (rc != 0 || first == *n)
		return rc;
	double dram = gs_emu_dram_beyond_l2(d->prof);
	int same = 1;
	for (size_t i = inner + 1; i < first && same; i++)
		same = same_blocks(&st[inner], &st[i], dram);
	if (same) {
		double run = 0, cap[2];
		double *w2 = gs_xmalloc(first * sizeof(*w2));
		memcpy(w2, w, inner * sizeof(*w2));
		for (size_t i = inner; i < *n; i++)
			run += w[i];
		for (size_t i = inner; i < first; i++)
			w2[i] = run / CONVERGE;
		touched_bytes(d, st, first, cap);
		same = converged(d, o, l->grid, l->block, st, w2, first, inner, cap);
		if (same) {
			memcpy(w, w2, first * sizeof(*w2));
			*n = first;
		}
		free(w2);
		if (same)
			return 0;
	}
	l->only = idx + first;
	l->nonly = *n - first;
	l->stats = st + first;
	return gs_emu_run(l, &c, d->err, sizeof d->err);
}

/* The most times a sample grows for an interior of unequal blocks: its
 * emulation costs as much more, and a kernel's work spread so wide that
 * (v / GS_EMU_SAMPLE_SE)^2 blocks exceed it keeps a draw in its time. */
#define SAMPLE_GROW 4

/* The sample idx[0..n) ran whole into st[]; where its interior's blocks
 * did work too unequal for their mean (gs_emu_sample_need), the sample
 * is planned again with the blocks it needs, at most SAMPLE_GROW times
 * as many, and only the blocks it had not run are run.  The arrays are
 * replaced.  0, or the run's code. */
static int grow_sample(struct gs_dev *d, struct gs_emu_launch *l, uint64_t **idx, double **w,
		       struct gs_emu_blockstat **st, size_t *n, size_t inner)
{
	uint64_t total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
	size_t m = *n - inner, need = gs_emu_sample_need(*st, *n, inner);
	if (need <= m || total <= *n)
		return 0;
	size_t n2 = *n + (need - m);
	if (n2 > SAMPLE_GROW * *n)
		n2 = SAMPLE_GROW * *n;
	if (n2 > total)
		n2 = (size_t)total;
	uint64_t *idx2 = gs_xmalloc(n2 * sizeof(*idx2)), *todo = gs_xmalloc(n2 * sizeof(*todo));
	double *w2 = gs_xmalloc(n2 * sizeof(*w2));
	size_t inner2, *from = gs_xmalloc(n2 * sizeof(*from)), nt = 0;
	n2 = gs_emu_sample_split(l->grid, n2, idx2, w2, &inner2);
	struct gs_emu_blockstat *st2 = gs_xcalloc(n2, sizeof(*st2));
	/* both lists are short (a few hundred blocks at most) */
	for (size_t j = 0; j < n2; j++) {
		from[j] = SIZE_MAX;
		for (size_t i = 0; i < *n; i++)
			if ((*idx)[i] == idx2[j]) {
				from[j] = i;
				break;
			}
		if (from[j] == SIZE_MAX)
			todo[nt++] = idx2[j];
	}
	struct gs_emu_blockstat *ran = gs_xcalloc(nt ? nt : 1, sizeof(*ran));
	char *kept = gs_xcalloc(*n, 1);
	struct gs_emu_counters c;
	l->only = todo;
	l->nonly = nt;
	l->stats = ran;
	int rc = nt ? gs_emu_run(l, &c, d->err, sizeof d->err) : 0;
	if (rc == 0) {
		for (size_t j = 0, t = 0; j < n2; j++) {
			if (from[j] == SIZE_MAX) {
				st2[j] = ran[t++];
				continue;
			}
			st2[j] = (*st)[from[j]];
			kept[from[j]] = 1;
		}
		for (size_t i = 0; i < *n; i++)
			if (!kept[i])
				gs_emu_blockstat_release(&(*st)[i]);
		free(*st);
		free(*idx);
		free(*w);
		*st = st2, *idx = idx2, *w = w2, *n = n2;
	} else {
		for (size_t t = 0; t < nt; t++)
			gs_emu_blockstat_release(&ran[t]);
		free(st2);
		free(idx2);
		free(w2);
	}
	free(kept);
	free(ran);
	free(todo);
	free(from);
	return rc;
}

/* A launch at its full size, executing only a sample of its blocks and
 * timed by the interval model.  A launch given exactly what an earlier one
 * of the configuration was given (a kernel called in a loop over chunks
 * of constant memory, say) takes that launch's time without running:
 * only the contents of memory differ, and the model's terms do not read
 * them.  Its outputs at the real size are never compared, so nothing else
 * needs it to run. */
static int sampled_launch(struct gs_dev *d, struct gs_func *f, struct gs_emu_launch *l,
			  const struct gs_emu_occ *o)
{
	struct timed key;
	int keyed = launch_key(f, l, &key);
	for (unsigned i = 0; keyed && i < d->ntimed; i++)
		if (same_launch(&d->timed[i], &key)) {
			add_interval(d, &d->timed[i].iv);
			return 0;
		}
	size_t n = gs_emu_sample_size(d->prof, d->sample, l->block[0] * l->block[1] * l->block[2]);
	uint64_t *idx = gs_xmalloc(n * sizeof(*idx));
	double *w = gs_xmalloc(n * sizeof(*w));
	size_t inner;
	n = gs_emu_sample_split(l->grid, n, idx, w, &inner);
	struct gs_emu_blockstat *st = gs_xcalloc(n ? n : 1, sizeof(*st));
	/* the block's share of what the resident blocks' shared memory leaves of the L1 */
	int l1 = (d->prof->l1_bytes - o->blocks_per_sm * o->block_smem) / o->blocks_per_sm;
	int floor_ = d->prof->l1_line * d->prof->l1_assoc;
	l->l1_bytes = l1 > floor_ ? l1 : floor_;
	l->blocks_per_sm = o->blocks_per_sm;
	l->loops = GS_EMU_LOOP_MIN;
	size_t ran = n;
	int rc = run_sample(d, l, o, idx, w, &ran, inner, st);
	if (rc == 0 && ran == n)
		rc = grow_sample(d, l, &idx, &w, &st, &n, inner);
	else if (rc == 0)
		n = ran;
	if (rc == 0) {
		struct gs_emu_interval iv;
		double cap[2];
		touched_bytes(d, st, n, cap);
		if (gs_emu_interval_model(d->prof, l->grid, l->block, o, st, w, n, cap, &iv) == 0) {
			iv.sampled = (int)n;
			add_interval(d, &iv);
			if (keyed && d->ntimed < sizeof d->timed / sizeof d->timed[0]) {
				key.iv = iv;
				d->timed[d->ntimed++] = key;
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		gs_emu_blockstat_release(&st[i]);
	free(st);
	free(idx);
	free(w);
	if (rc == GS_EMU_FAULT)
		return d->pending = GS_DEV_STICKY;
	if (rc == GS_EMU_NOMEM)
		return GS_DEV_INVALID;
	if (rc == GS_EMU_EXPIRED || rc == GS_EMU_HANG)
		return d->pending = expired(d, rc);
	if (rc < 0)
		return d->pending = GS_DEV_LAUNCH;
	return 0;
}

static int emu_host_limit(struct gs_dev *d, double seconds)
{
	d->limit_s = seconds;
	d->deadline = seconds > 0 ? gs_now() + seconds : 0;
	return 0;
}

static int emu_sample(struct gs_dev *d, int blocks)
{
	d->sample = d->prof->model == GS_EMU_MODEL_INTERVAL && blocks > 0 ? blocks : 0;
	return 0;
}

/* A GPU refuses a launch whose threads have more local memory than one
 * thread may, or than the device has room for once every thread it can
 * hold resident has its own (the driver reserves it for all of them):
 * -1 with the message in d->err. */
static int local_refused(struct gs_dev *d, struct gs_func *f)
{
	const struct gs_emu_profile *p = d->prof;
	uint64_t local = (uint64_t)(f->attr.local_bytes > 0 ? f->attr.local_bytes : 0);
	uint64_t ptx = gs_ptx_local_bytes(f->m->ptx, f->entry);
	if (ptx > local)
		local = ptx; /* what the interpreter gives each thread */
	uint64_t most = p->cc_major < 2 ? LOCAL_MAX_BYTES_CC1 : LOCAL_MAX_BYTES;
	if (local > most)
		return fail(d, -1, "%llu bytes of local memory per thread; %s allows at most %llu "
			    "(%llu KB)", (unsigned long long)local, p->name, (unsigned long long)most,
			    (unsigned long long)(most >> 10));
	/* the GPU's own memory, not the host's cap: the interpreter gives
	 * local memory to the threads of the blocks it runs only */
	uint64_t resident = (uint64_t)p->max_threads_sm * (uint64_t)p->sms;
	uint64_t dev = (uint64_t)(p->global_mem_mb > 0 ? p->global_mem_mb : 0) << 20;
	uint64_t free_ = dev > d->mem.used ? dev - d->mem.used : 0;
	if (dev && local * resident > free_)
		return fail(d, -1, "%llu bytes of local memory per thread: its %llu resident "
			    "threads need %llu MiB, and %llu MiB are left of %s's %d MiB "
			    "(global_mem_mb)", (unsigned long long)local, (unsigned long long)resident,
			    (unsigned long long)((local * resident) >> 20),
			    (unsigned long long)(free_ >> 20), p->name, p->global_mem_mb);
	return 0;
}

static int emu_launch(struct gs_dev *d, struct gs_func *f, const unsigned grid[3],
		      const unsigned block[3], size_t dyn_smem, void **args)
{
	if (d->pending < 0)
		return d->pending; /* as a GPU stream: nothing runs after a failure */
	unsigned long threads = (unsigned long)block[0] * block[1] * block[2];
	if (!threads || threads > 1024)
		return fail(d, GS_DEV_INVALID, "a block of %lu threads", threads);
	struct gs_emu_occ o;
	char why[256];
	int fits = gs_emu_occupancy(d->prof, (int)threads, f->attr.registers,
				    f->attr.static_smem + (int)dyn_smem, &o, why, sizeof why) == 0 &&
		   o.blocks_per_sm > 0;
	if (!fits && !d->unmodeled[0])
		snprintf(d->unmodeled, sizeof d->unmodeled, "%s", why[0] ? why : "no block fits on an SM");
	int rc;
	if (d->sample && !fits)
		return 0; /* timer_stop says why */
	if (local_refused(d, f) < 0)
		return GS_DEV_INVALID;
	struct gs_emu_launch l = {
		.mod = f->m->ptx,
		.entry = f->entry,
		.grid = { grid[0], grid[1], grid[2] },
		.block = { block[0], block[1], block[2] },
		.dyn_smem = dyn_smem,
		.args = args,
		.prof = d->prof,
		.mem = &d->mem,
		.threads = d->threads,
		.load_window = f->code.win,
		.nload_window = f->code.nwin,
		.text_bytes = f->code.text_bytes,
		.sass_loop_bytes = f->code.loop_bytes,
		.sass_fwd = f->code.fwd,
		.sass_gap = f->code.issue_gap,
		.lds_bytes = f->code.lds_bytes,
		.host_bytes = d->mem.limit ? d->mem.limit - d->mem.used : 0,
		.deadline = d->deadline,
	};
	if (d->mem.limit && !l.host_bytes)
		l.host_bytes = 1; /* nothing left: every block's state is too much */
	if (d->sample)
		return sampled_launch(d, f, &l, &o);
	struct gs_emu_counters c;
	rc = gs_emu_run(&l, &c, d->err, sizeof d->err);
	if (rc == GS_EMU_FAULT)
		return d->pending = GS_DEV_STICKY;
	if (rc == GS_EMU_NOMEM)
		return GS_DEV_INVALID;
	if (rc == GS_EMU_EXPIRED || rc == GS_EMU_HANG)
		return d->pending = expired(d, rc);
	if (rc < 0)
		return d->pending = GS_DEV_LAUNCH;
	struct gs_emu_geom g = {
		.grid = { grid[0], grid[1], grid[2] },
		.block = { block[0], block[1], block[2] },
		.regs_per_thread = f->attr.registers,
		.smem_per_block = f->attr.static_smem + (int)dyn_smem,
	};
	struct gs_emu_model_out mo;
	gs_emu_counters_add(&d->acc, &c);
	if (!fits || gs_emu_model(d->prof, &c, &g, &o, &mo) < 0) {
		if (!d->unmodeled[0])
			snprintf(d->unmodeled, sizeof d->unmodeled, "no block of this launch fits on an SM");
		return 0;
	}
	d->acc_ms += mo.ms;
	/* efficiency is over all the work; utilization is per launch, averaged */
	d->util_sum += mo.utilization;
	d->nlaunch++;
	return 0;
}

static int emu_sync(struct gs_dev *d)
{
	int rc = d->pending;
	if (rc != GS_DEV_STICKY)
		d->pending = 0;
	return rc;
}

static int emu_timer_start(struct gs_dev *d)
{
	d->acc_ms = 0;
	memset(&d->acc, 0, sizeof d->acc);
	d->util_sum = 0;
	d->nlaunch = 0;
	d->unmodeled[0] = 0;
	d->niv = 0;
	d->approx_ms = 0;
	memset(&d->iv, 0, sizeof d->iv);
	d->ntimed = 0;
	return 0;
}

static int emu_timer_stop(struct gs_dev *d, double *ms)
{
	if (d->pending < 0)
		return d->pending;
	if (d->unmodeled[0])
		return fail(d, GS_DEV_INVALID, "%s", d->unmodeled);
	*ms = d->acc_ms;
	return 0;
}

/* The counters of what ran since timer_start, and the efficiency and
 * utilization metrics of Ryoo et al. (CGO 2008) as JSON members. */
static int emu_report(struct gs_dev *d, char **counters, char **metrics)
{
	*counters = gs_emu_counters_json(&d->acc);
	uint64_t inst = 0;
	for (int k = 0; k < GS_EMU_NCLASS; k++)
		inst += d->acc.thread_inst[k];
	char buf[1024];
	/* efficiency = 1 / (instructions per thread x threads) = 1 / all thread-instructions */
	snprintf(buf, sizeof buf, "\"efficiency\":%.17g,\"utilization\":%.17g",
		 inst ? 1.0 / (double)inst : 0.0, d->nlaunch ? d->util_sum / d->nlaunch : 0.0);
	if (d->niv) {
		/* the sampled launches' model: the longest launch's breakdown,
		 * members of the counters' "model" (measure.c puts it there);
		 * the confidence is all the launches' */
		const struct gs_emu_interval *v = &d->iv;
		double hz = d->prof->clock_mhz * 1e3;
		double conf = d->acc_ms > 0 ? 1 - d->approx_ms / d->acc_ms : 1;
		snprintf(buf, sizeof buf,
			 "\"bound\":\"%s\",\"confidence\":%.3g,\"sm_ms\":%.6g,\"l2_ms\":%.6g,"
			 "\"dram_ms\":%.6g,\"block_issue\":%.6g,"
			 "\"block_chain\":%.6g,\"block_exposed\":%.6g,\"block_fetch\":%.6g,"
			 "\"loop_bytes\":%.6g,\"load_window\":%.3g,\"waves\":%d,"
			 "\"l1_hit\":%.4f,\"l2_hit\":%.4f,\"sample\":%d,\"sampled\":%d",
			 v->bound, conf < 0 ? 0 : conf, v->t_sm / hz, v->t_l2 / hz, v->t_dram / hz,
			 v->per_block_issue, v->per_block_chain, v->per_block_exposed, v->per_block_fetch,
			 v->loop_bytes, v->load_window, v->waves, v->l1_hit, v->l2_hit, d->sample, v->sampled);
		free(*counters);
		*counters = NULL;
	}
	*metrics = gs_xstrdup(buf);
	return 0;
}

const struct gs_dev_ops gs_dev_emu = {
	.kind = "emu",
	.modeled = 1,
	.count = emu_count,
	.open = emu_open,
	.close = emu_close,
	.errmsg = emu_errmsg,
	.alloc = emu_alloc,
	.upload = emu_upload,
	.download = emu_download,
	.copy = emu_copy,
	.module_load = emu_module_load,
	.module_unload = emu_module_unload,
	.function = emu_function,
	.const_copy = emu_const_copy,
	.occupancy = emu_occupancy,
	.launch = emu_launch,
	.sync = emu_sync,
	.timer_start = emu_timer_start,
	.timer_stop = emu_timer_stop,
	.info = emu_info,
	.free_mem = emu_free,
	.fill = emu_fill,
	.report = emu_report,
	.sample = emu_sample,
	.host_limit = emu_host_limit,
};
