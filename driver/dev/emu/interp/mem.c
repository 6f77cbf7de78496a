/* mem.c — the emulated device's global memory and its counters' bookkeeping.
 *
 * Allocations get addresses from a bump pointer with a gap after each, so
 * an access that runs past the end of one buffer lands in unmapped space
 * and faults, as it would on a GPU more often than not.  Addresses are never
 * reused within a device's life: a stale pointer faults rather than reading
 * another buffer. */
#include "dev/emu/interp/interp.h"
#include "util/util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Far from 0 so that small integers used as pointers fault, and 256-byte
 * aligned like cudaMalloc. */
#define GS_EMU_MEM_BASE 0x7f0000000000ull
#define GS_EMU_MEM_ALIGN 256ull
#define GS_EMU_MEM_GAP 4096ull

int gs_emu_mem_alloc(struct gs_emu_mem *m, uint64_t size, uint64_t *addr)
{
	if (!m->next)
		m->next = GS_EMU_MEM_BASE;
	/* the budget is checked before the host memory is asked for: calloc
	 * of a huge size may succeed and only fail page by page as the
	 * buffer is filled, when the OOM killer chooses what ends */
	if (m->limit && (size > m->limit || m->used > m->limit - size))
		return -2;
	/* calloc: fresh device memory reads as zeros here, so a kernel that
	 * reads what it never wrote is at least deterministic */
	unsigned char *host = calloc(1, size ? size : 1);
	if (!host)
		return -1;
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;
		struct gs_emu_alloc *a = realloc(m->a, cap * sizeof(*a));
		if (!a) {
			free(host);
			return -1;
		}
		m->a = a;
		m->cap = cap;
	}
	uint64_t base = m->next;
	m->a[m->n++] = (struct gs_emu_alloc){ base, size, host };
	m->used += size;
	m->next = (base + size + GS_EMU_MEM_GAP + GS_EMU_MEM_ALIGN - 1) & ~(GS_EMU_MEM_ALIGN - 1);
	*addr = base;
	return 0;
}

static long find(const struct gs_emu_mem *m, uint64_t addr)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->a[mid].base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1; /* last allocation starting at or below addr */
}

int gs_emu_mem_free(struct gs_emu_mem *m, uint64_t addr)
{
	long i = find(m, addr);
	if (i < 0 || m->a[i].base != addr)
		return -1;
	free(m->a[i].host);
	m->used -= m->a[i].size;
	memmove(&m->a[i], &m->a[i + 1], (m->n - (size_t)i - 1) * sizeof(*m->a));
	m->n--;
	return 0;
}

unsigned char *gs_emu_mem_ptr(const struct gs_emu_mem *m, uint64_t addr, uint64_t n)
{
	long i = find(m, addr);
	if (i < 0)
		return NULL;
	const struct gs_emu_alloc *a = &m->a[i];
	uint64_t off = addr - a->base;
	if (off > a->size || n > a->size - off)
		return NULL;
	return a->host + off;
}

void gs_emu_mem_release(struct gs_emu_mem *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->a[i].host);
	free(m->a);
	memset(m, 0, sizeof(*m));
}

void gs_emu_counters_add(struct gs_emu_counters *acc, const struct gs_emu_counters *c)
{
	/* the struct is all uint64_t: add it as an array */
	uint64_t *a = (uint64_t *)acc;
	const uint64_t *b = (const uint64_t *)c;
	for (size_t i = 0; i < sizeof(*c) / sizeof(uint64_t); i++)
		a[i] += b[i];
}

void gs_emu_counters_grow(struct gs_emu_counters *acc, const struct gs_emu_counters *from,
			  const struct gs_emu_counters *to, uint64_t num, uint64_t den)
{
	uint64_t *a = (uint64_t *)acc;
	const uint64_t *f = (const uint64_t *)from, *t = (const uint64_t *)to;
	for (size_t i = 0; i < sizeof(*acc) / sizeof(uint64_t); i++)
		a[i] += num * (t[i] - f[i]) / den;
}

uint64_t gs_emu_counters_warp_inst(const struct gs_emu_counters *c)
{
	uint64_t n = 0;
	for (int k = 0; k < GS_EMU_NCLASS; k++)
		n += c->warp_inst[k];
	return n;
}

_Static_assert(sizeof(struct gs_emu_counters) % sizeof(uint64_t) == 0,
	       "gs_emu_counters holds uint64_t fields only");

char *gs_emu_counters_json(const struct gs_emu_counters *c)
{
	json_t *o = json_object(), *w = json_object(), *t = json_object();
	for (int k = 0; k < GS_EMU_NCLASS; k++) {
		json_object_set_new(w, gs_emu_class_names[k], json_integer((json_int_t)c->warp_inst[k]));
		json_object_set_new(t, gs_emu_class_names[k], json_integer((json_int_t)c->thread_inst[k]));
	}
	json_object_set_new(o, "warp_inst", w);
	json_object_set_new(o, "thread_inst", t);
#define F(name) json_object_set_new(o, #name, json_integer((json_int_t)c->name))
	F(gld_inst);
	F(gst_inst);
	F(gld_trans);
	F(gst_trans);
	F(gld_bytes);
	F(gst_bytes);
	F(atom_inst);
	F(sld_inst);
	F(sst_inst);
	F(bank_conflicts);
	F(lld_inst);
	F(lst_inst);
	F(cld_inst);
	F(barriers);
	F(branches);
	F(divergent);
	F(warps);
	F(blocks);
#undef F
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return s;
}
