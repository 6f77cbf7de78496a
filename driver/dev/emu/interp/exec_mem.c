/* exec_mem.c — memory instructions of the executor: ld, st, atom/red and
 * cvta over the global, const, shared, local and parameter spaces, with
 * their bounds and alignment checks, and the counters of global coalescing
 * and shared-memory bank conflicts.
 *
 * Every access of a warp is first turned into one host pointer per active
 * lane (resolve); a lane whose access leaves its space, or is not aligned to
 * its size, faults, the lowest such lane being reported.  Global accesses
 * look the allocation up once per warp when all lanes fall in the one the
 * previous access hit. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/emu/interp/exec_int.h"

/* spaces after resolving a generic address */
enum { R_GLOBAL, R_CONST, R_SHARED, R_LOCAL, R_PARAM, R_KPARAM };

/* Host pointer of [a, a+n) in device memory, or NULL. */
static unsigned char *global_ptr(struct gs_xctx *x, uint64_t a, uint64_t n)
{
	if (a >= x->cbase && a + n <= x->cend && a + n >= a)
		return x->chost + (a - x->cbase);
	const struct gs_emu_mem *mem = x->l->mem;
	size_t lo = 0, hi = mem->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (mem->a[mid].base <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct gs_emu_alloc *al = &mem->a[lo - 1];
	uint64_t off = a - al->base;
	if (off > al->size || n > al->size - off)
		return NULL;
	x->cbase = al->base;
	x->cend = al->base + al->size;
	x->chost = al->host;
	return al->host + off;
}

/* The lanes' addresses: register o (32-bit with a32) plus imm.  Scalar
 * stores: the checks that follow read them back as scalars, which a wide
 * store would make wait. */
static void addresses(const unsigned char *rf, uint32_t o, int a32, int64_t imm, uint64_t *addr)
{
	if (a32) {
		for (int l = 0; l < GS_WARP; l++)
			addr[l] = GS_LU32(rf, o, l) + (uint64_t)imm;
	} else {
		for (int l = 0; l < GS_WARP; l++)
			addr[l] = GS_LU64(rf, o, l) + (uint64_t)imm;
	}
}

/* Generic address -> space and offset in it. */
static int classify(uint64_t a, uint64_t *off)
{
	if (a - GS_WIN_SHARED < GS_WIN_SIZE) {
		*off = a - GS_WIN_SHARED;
		return R_SHARED;
	}
	if (a - GS_WIN_LOCAL < GS_WIN_SIZE) {
		*off = a - GS_WIN_LOCAL;
		return R_LOCAL;
	}
	if (a - GS_WIN_PARAM < GS_WIN_SIZE) {
		*off = a - GS_WIN_PARAM;
		return R_KPARAM;
	}
	*off = a;
	return R_GLOBAL;
}

static int space_of(int sp)
{
	switch (sp) {
	case GS_SP_GLOBAL: return R_GLOBAL;
	case GS_SP_CONST: return R_CONST;
	case GS_SP_SHARED: return R_SHARED;
	case GS_SP_LOCAL: return R_LOCAL;
	case GS_SP_PARAM: return R_PARAM;
	case GS_SP_KPARAM: return R_KPARAM;
	default: return -1;
	}
}

/* Host pointer of lane l's access of n bytes at offset `off` of space r. */
static unsigned char *lane_ptr(struct gs_xctx *x, struct gs_xwarp *w, int r, int l, uint64_t off,
			       uint64_t n, int store)
{
	switch (r) {
	case R_GLOBAL:
		return global_ptr(x, off, n);
	case R_CONST:
		return store ? NULL : global_ptr(x, off, n);
	case R_SHARED:
		return off <= x->smem_bytes && n <= x->smem_bytes - off ? x->smem + off : NULL;
	case R_LOCAL:
		return off <= x->local_bytes && n <= x->local_bytes - off
			       ? w->local + (size_t)l * x->local_bytes + off : NULL;
	case R_PARAM:
		return off <= x->lparam_bytes && n <= x->lparam_bytes - off
			       ? w->lparam + (size_t)l * x->lparam_bytes + off : NULL;
	case R_KPARAM:
		return !store && off <= x->kparam_bytes && n <= x->kparam_bytes - off
			       ? x->kparam + off : NULL;
	default:
		return NULL;
	}
}

/* Where the active lanes' bytes are: lane l's access starts at
 * bias + addr[l] + l * stride when all lanes fall in one space (and for
 * global memory in one allocation), else at hp[l]. */
struct acc {
	uintptr_t bias;
	size_t stride;
	int mixed;
	int rs;            /* the space of the first active lane, for the counters */
	unsigned char *hp[GS_WARP];
};

static inline unsigned char *acc_ptr(const struct acc *c, const uint64_t *addr, int l)
{
	if (c->mixed)
		return c->hp[l];
	return (unsigned char *)(c->bias + addr[l] + (size_t)l * c->stride);
}

/* Resolve the access of `size` bytes of every lane of m.  0 or a fault (the
 * lowest lane that is misaligned or out of its space). */
static int resolve(struct gs_xctx *x, struct gs_xwarp *w, const struct gs_ins *in, uint32_t m,
		   int space, const uint64_t *addr, unsigned size, int store, struct acc *c)
{
	int l0 = __builtin_ctz(m), r = space_of(space);
	uint64_t a0 = addr[l0], off0 = a0;
	if (space == GS_SP_GENERIC)
		r = classify(a0, &off0);
	if (r < 0)
		return gs_x_unsupported(x, in, "memory space");
	/* the span [lo, hi) of addresses of the first lane's space */
	unsigned char *p0 = lane_ptr(x, w, r, l0, off0, size, store);
	uint64_t lo = a0 - off0, hi;
	switch (r) {
	case R_GLOBAL: case R_CONST:
		lo = x->cbase;
		hi = x->cend;
		break;
	case R_SHARED: hi = lo + x->smem_bytes; break;
	case R_LOCAL: hi = lo + x->local_bytes; break;
	case R_PARAM: hi = lo + x->lparam_bytes; break;
	default: hi = lo + x->kparam_bytes; break;
	}
	c->rs = r;
	c->mixed = 0;
	if (p0 && !(a0 & (size - 1))) {
		/* one test of every lane: aligned and inside the span */
		uint64_t lim = hi - lo - size, bad = 0;
		if (m == GS_ALL) {
			for (int l = 0; l < GS_WARP; l++)
				bad |= (uint64_t)(addr[l] - lo > lim) | (addr[l] & (size - 1));
		} else {
			for (uint32_t mm = m; mm; mm &= mm - 1) {
				uint64_t a = addr[__builtin_ctz(mm)];
				bad |= (uint64_t)(a - lo > lim) | (a & (size - 1));
			}
		}
		if (!bad) {
			c->stride = 0;
			if (r == R_LOCAL || r == R_PARAM)
				c->stride = r == R_LOCAL ? x->local_bytes : x->lparam_bytes;
			c->bias = (uintptr_t)p0 - (uintptr_t)a0 - (uintptr_t)l0 * c->stride;
			return 0;
		}
	}
	/* lane by lane: the first bad lane faults; lanes may lie in different spaces */
	c->mixed = 1;
	for (uint32_t mm = m; mm; mm &= mm - 1) {
		int l = __builtin_ctz(mm);
		if (addr[l] & (size - 1))
			return gs_x_fault(x, w, in, l, "misaligned", addr[l], 1);
		uint64_t off = addr[l];
		int rl = space == GS_SP_GENERIC ? classify(addr[l], &off) : r;
		c->hp[l] = lane_ptr(x, w, rl, l, off, size, store);
		if (!c->hp[l])
			return gs_x_fault(x, w, in, l, "out-of-bounds", addr[l], 1);
	}
	return 0;
}

/* ---- counters ----------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* distinct values among v[0..n): a bitmap when they lie within 256 of
 * each other (a warp's access nearly always does), else sorted */
static unsigned distinct(uint64_t *v, unsigned n)
{
	if (!n)
		return 0;
	uint64_t lo = v[0], hi = v[0];
	for (unsigned i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	if (hi - lo < 256) {
		uint64_t bm[4] = { 0 };
		for (unsigned i = 0; i < n; i++) {
			uint64_t d = v[i] - lo;
			bm[d >> 6] |= 1ull << (d & 63);
		}
		return (unsigned)(__builtin_popcountll(bm[0]) + __builtin_popcountll(bm[1]) +
				  __builtin_popcountll(bm[2]) + __builtin_popcountll(bm[3]));
	}
	gs_x_sort_warp(v, n);
	unsigned k = 1;
	for (unsigned i = 1; i < n; i++)
		k += v[i] != v[i - 1];
	return k;
}

/* GS_EMU_COALESCE_SECTORS: the distinct 32-byte sectors the active lanes
 * touch.  GS_EMU_COALESCE_CC10 (compute 1.0/1.1): a half-warp whose active
 * threads k access word k of a segment aligned to 16 words is one
 * transaction (64 B for 4-byte words, 128 B for 8-byte, two of 128 B for
 * 16-byte); any other half-warp, and any access of 1- or 2-byte words, is
 * one 32-byte transaction per active thread. */
void gs_x_coalesce(int cc10, const uint64_t *addr, uint32_t m, unsigned size, uint64_t *trans,
		   uint64_t *bytes)
{
	uint64_t t = 0, b = 0;
	if (!cc10) {
		uint64_t sec[2 * GS_WARP];
		unsigned n = 0;
		if (size <= 32 && m == GS_ALL) { /* aligned: one sector per lane */
			for (int l = 0; l < GS_WARP; l++)
				sec[l] = addr[l] >> 5;
			n = GS_WARP;
		} else {
			for (uint32_t mm = m; mm; mm &= mm - 1) {
				uint64_t a = addr[__builtin_ctz(mm)];
				uint64_t last = (a + size - 1) >> 5;
				for (uint64_t s = a >> 5; s <= last && n < 2 * GS_WARP; s++)
					sec[n++] = s;
			}
		}
		t = distinct(sec, n);
		b = 32 * t;
	} else {
		for (int h = 0; h < 2; h++) {
			uint32_t hm = m >> (16 * h) & 0xffff;
			if (!hm)
				continue;
			int ok = size == 4 || size == 8 || size == 16;
			if (ok) {
				int k0 = __builtin_ctz(hm);
				uint64_t base = addr[16 * h + k0] - (uint64_t)k0 * size;
				ok = base % (16ull * size) == 0;
				for (uint32_t mm = hm; mm && ok; mm &= mm - 1) {
					int k = __builtin_ctz(mm);
					ok = addr[16 * h + k] == base + (uint64_t)k * size;
				}
			}
			if (ok) {
				t += size == 16 ? 2 : 1;
				b += 16ull * size;
			} else {
				t += (uint64_t)__builtin_popcount(hm);
				b += 32ull * (uint64_t)__builtin_popcount(hm);
			}
		}
	}
	*trans = t;
	*bytes = b;
}

/* The most distinct words one bank is asked for by lanes gm's accesses of
 * `words` words each (banks bm + 1), their words from lo to hi + words - 1:
 * a bitmap of the distinct words where they span at most 1024, else the
 * words sorted. */
static unsigned bank_degree(const uint64_t *addr, uint32_t gm, unsigned words, uint32_t bm,
			    uint64_t lo, uint64_t hi)
{
	unsigned per[32] = { 0 }, deg = 1;
	if (hi + words - lo <= 1024) {
		uint64_t bits[16] = { 0 };
		for (uint32_t mm = gm; mm; mm &= mm - 1) {
			uint64_t d = (addr[__builtin_ctz(mm)] >> 2) - lo;
			for (unsigned i = 0; i < words; i++, d++)
				bits[d >> 6] |= 1ull << (d & 63);
		}
		for (unsigned k = 0; k < 16; k++)
			for (uint64_t b = bits[k]; b; b &= b - 1) {
				uint64_t wd = lo + 64 * k + (unsigned)__builtin_ctzll(b);
				unsigned bk = (unsigned)wd & bm;
				deg = ++per[bk] > deg ? per[bk] : deg;
			}
		return deg;
	}
	uint64_t w[4 * GS_WARP];
	unsigned n = 0;
	for (uint32_t mm = gm; mm; mm &= mm - 1) {
		uint64_t wd = addr[__builtin_ctz(mm)] >> 2;
		for (unsigned i = 0; i < words; i++)
			w[n++] = wd + i;
	}
	/* the lanes' words mostly come in order already (rows of a tile,
	 * each row's words ascending) */
	unsigned i = 1;
	while (i < n && w[i - 1] <= w[i])
		i++;
	if (i < n)
		qsort(w, n, sizeof(*w), cmp_u64);
	for (unsigned i = 0; i < n; i++) {
		if (i && w[i] == w[i - 1])
			continue;
		unsigned bk = (unsigned)w[i] & bm;
		deg = ++per[bk] > deg ? per[bk] : deg;
	}
	return deg;
}

/* Extra replays of a shared access: banks of 4 bytes; a group of lanes is
 * served together: a half-warp with 16 banks, else the lanes whose requests
 * fill 128 bytes (a warp for 4-byte words, a half-warp for 8, a quarter for
 * 16).  A group's degree is the largest number of distinct words asked of
 * one bank (the same word is broadcast); it costs degree - 1 replays. */
unsigned gs_x_banks(int banks, const uint64_t *addr, uint32_t m, unsigned size)
{
	unsigned words = size < 4 ? 1 : size / 4;
	unsigned group = banks == 16 ? 16 : (size <= 4 ? GS_WARP : 128 / size);
	unsigned extra = 0;
	uint32_t bm = (uint32_t)banks - 1;
	uint32_t gmask = group >= 32 ? GS_ALL : (1u << group) - 1;
	for (unsigned g0 = 0; g0 < GS_WARP; g0 += group) {
		uint32_t gm = m & (gmask << g0);
		if (!gm)
			continue;
		/* words within `banks` of each other lie in distinct banks */
		uint64_t lo = UINT64_MAX, hi = 0;
		if (gm == GS_ALL) {
			uint64_t lo2 = UINT64_MAX, hi2 = 0;
			for (int l = 0; l < GS_WARP; l += 2) {
				uint64_t w0 = addr[l] >> 2, w1 = addr[l + 1] >> 2;
				lo = w0 < lo ? w0 : lo;
				hi = w0 > hi ? w0 : hi;
				lo2 = w1 < lo2 ? w1 : lo2;
				hi2 = w1 > hi2 ? w1 : hi2;
			}
			lo = lo2 < lo ? lo2 : lo;
			hi = hi2 > hi ? hi2 : hi;
		} else {
			for (uint32_t mm = gm; mm; mm &= mm - 1) {
				uint64_t wd = addr[__builtin_ctz(mm)] >> 2;
				lo = wd < lo ? wd : lo;
				hi = wd > hi ? wd : hi;
			}
		}
		if (hi + words - 1 - lo <= bm)
			continue;
		unsigned deg = bank_degree(addr, gm, words, bm, lo, hi);
		extra += deg - 1;
	}
	return extra;
}

/* Extra wavefronts of a warp's shared load of 8 or 16 bytes a lane on 32
 * banks, measured (scripts/bench/ubench/ldswide.cu on an H200,
 * results/ubench-ldswide-h200.txt): not gs_x_banks's groups of lanes that
 * fill 128 bytes, each one wavefront at least, but the whole warp's words
 * by the banks' rule, and at least 2 wavefronts (8 bytes) or 4 (16)
 * unless every lane reads the same address: then 1 or 2.  Consecutive
 * 16-byte rows 4.05 cycles, rows 64 bytes apart 16.1, two lanes a row 4.05,
 * one row for the warp 2.06; 8 bytes: 2.01, 16.1, 2.01 and 1.05.  Other
 * sizes, and 16 banks, as gs_x_banks. */
unsigned gs_x_banks_load(int banks, const uint64_t *addr, uint32_t m, unsigned size)
{
	if (banks != 32 || (size != 8 && size != 16) || !m)
		return gs_x_banks(banks, addr, m, size);
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint32_t mm = m; mm; mm &= mm - 1) {
		uint64_t a = addr[__builtin_ctz(mm)];
		lo = a < lo ? a : lo;
		hi = a > hi ? a : hi;
	}
	if (lo == hi)
		return size == 8 ? 0 : 1;
	unsigned words = size / 4;
	/* within 32 words of each other: no bank serves two */
	if (((hi - lo) >> 2) + words <= 32)
		return words - 1;
	unsigned deg = bank_degree(addr, m, words, 31, lo >> 2, hi >> 2);
	return (deg > words ? deg : words) - 1;
}

static void count(struct gs_xctx *x, int rs, int store, const uint64_t *addr, uint32_t m,
		  unsigned size)
{
	struct gs_emu_counters *c = &x->c;
	uint64_t t, b;
	unsigned sectors = 0;
	if (x->pr && (rs == R_GLOBAL || rs == R_LOCAL || rs == R_SHARED || rs == R_CONST))
		sectors = gs_x_probe_mem(x, rs == R_SHARED ? 0 : rs == R_GLOBAL ? 1 : rs == R_LOCAL ? 2 : 3,
					 store, addr, m, size);
	switch (rs) {
	case R_GLOBAL:
		/* the probe has counted the sectors that coalescing counts (size
		 * at most 32: resolve found every lane aligned to it) */
		if (sectors && !x->cc10 && size <= 32) {
			t = sectors;
			b = 32 * t;
		} else {
			gs_x_coalesce(x->cc10, addr, m, size, &t, &b);
		}
		if (store) {
			c->gst_inst++;
			c->gst_trans += t;
			c->gst_bytes += b;
		} else {
			c->gld_inst++;
			c->gld_trans += t;
			c->gld_bytes += b;
		}
		break;
	case R_CONST:
		c->cld_inst++;
		break;
	case R_SHARED:
		if (store)
			c->sst_inst++;
		else
			c->sld_inst++;
		c->bank_conflicts += store ? gs_x_banks(x->banks, addr, m, size)
					   : gs_x_banks_load(x->banks, addr, m, size);
		break;
	case R_LOCAL:
		if (store)
			c->lst_inst++;
		else
			c->lld_inst++;
		break;
	default:
		break;
	}
}

/* ---- instructions --------------------------------------------------------------- */

static uint64_t load_elem(const unsigned char *p, unsigned sz, int sgn)
{
	switch (sz) {
	case 1: return sgn ? (uint64_t)(int64_t)*(const int8_t *)p : *p;
	case 2: {
		uint16_t v;
		memcpy(&v, p, 2);
		return sgn ? (uint64_t)(int64_t)(int16_t)v : v;
	}
	case 4: {
		uint32_t v;
		memcpy(&v, p, 4);
		return sgn ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	default: {
		uint64_t v;
		memcpy(&v, p, 8);
		return v;
	}
	}
}

static void store_elem(unsigned char *p, unsigned sz, uint64_t v)
{
	switch (sz) {
	case 1: *p = (unsigned char)v; break;
	case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
	case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
}

static int check_shape(struct gs_xctx *x, const struct gs_ins *in)
{
	if ((in->sz != 1 && in->sz != 2 && in->sz != 4 && in->sz != 8) ||
	    (in->nv != 1 && in->nv != 2 && in->nv != 4))
		return gs_x_unsupported(x, in, "access size");
	return 0;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__SANITIZE_ADDRESS__)
#include <immintrin.h>
/* d[l] = the 4 bytes at src + a[l], eight lanes an instruction (a[l] below
 * 2^31: the gather's offsets are signed) */
__attribute__((target("avx2"))) static void gather32(uint32_t *d, const unsigned char *src,
						     const uint32_t *a)
{
	for (int l = 0; l < GS_WARP; l += 8) {
		__m256i i = _mm256_load_si256((const __m256i *)(a + l));
		_mm256_storeu_si256((__m256i *)(d + l),
				    _mm256_i32gather_epi32((const int *)src, i, 1));
	}
}
/* x's or y's word i % 8 in each lane: x's where b's sign is clear */
__attribute__((target("avx2"))) static inline __m256 pick16(__m256i x, __m256i y, __m256i i,
							     __m256 b)
{
	return _mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(x, i)),
				_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(y, i)), b);
}
/* The same where the lanes' words lie within the 32 words from src + lo:
 * those words in four registers, each lane's picked by a permutation
 * within eight and two blends (a warp's shared accesses mostly span a few
 * words: broadcast, consecutive, a tile's rows; gathers are slow on some
 * hosts).  The bits are moved, never computed. */
__attribute__((target("avx2"))) static void window32(uint32_t *d, const unsigned char *src,
						     const uint32_t *a, uint32_t lo)
{
	const __m256i *wp = (const __m256i *)(src + lo);
	__m256i w0 = _mm256_loadu_si256(wp), w1 = _mm256_loadu_si256(wp + 1);
	__m256i w2 = _mm256_loadu_si256(wp + 2), w3 = _mm256_loadu_si256(wp + 3);
	__m256i base = _mm256_set1_epi32((int)lo);
	for (int l = 0; l < GS_WARP; l += 8) {
		__m256i i = _mm256_load_si256((const __m256i *)(a + l));
		i = _mm256_srli_epi32(_mm256_sub_epi32(i, base), 2);
		/* bit 3 of the word's index picks a register of a pair, bit 4 the pair */
		__m256 b3 = _mm256_castsi256_ps(_mm256_slli_epi32(i, 28));
		__m256 b4 = _mm256_castsi256_ps(_mm256_slli_epi32(i, 27));
		__m256 v = _mm256_blendv_ps(pick16(w0, w1, i, b3), pick16(w2, w3, i, b3), b4);
		_mm256_storeu_si256((__m256i *)(d + l), _mm256_castps_si256(v));
	}
}
/* d[l] = the 4 bytes at src + a[l] for the 32 lanes, through the window
 * where the lanes span fewer than 32 words (narrow) and its 128 bytes
 * from src + lo lie before `end`; 1 when done, 0 on a host without AVX2
 * or with a shared memory of 2 GiB or more. */
static int load32(uint32_t *d, const unsigned char *src, const uint32_t *a, uint64_t smem,
		  uint32_t lo, int narrow, uint64_t end)
{
	if (smem >= (1u << 31) || !__builtin_cpu_supports("avx2"))
		return 0;
	if (narrow && lo + 128 <= end)
		window32(d, src, a, lo);
	else
		gather32(d, src, a);
	return 1;
}
#else
static int load32(uint32_t *d, const unsigned char *src, const uint32_t *a, uint64_t smem,
		  uint32_t lo, int narrow, uint64_t end)
{
	(void)d, (void)src, (void)a, (void)smem, (void)lo, (void)narrow, (void)end;
	return 0;
}
#endif

/* What a shared access adds to the probe and the counters; narrow: the
 * lanes' 4-byte words lie within 32 of each other (no bank conflict). */
static inline void shared_count(struct gs_xctx *x, int store, const uint64_t *addr, uint32_t m,
				unsigned size, int narrow)
{
	if (x->pr)
		gs_x_probe_mem(x, 0, store, addr, m, size);
	if (store)
		x->c.sst_inst++;
	else
		x->c.sld_inst++;
	if (!(size == 4 && x->banks == 32 && narrow))
		x->c.bank_conflicts += store ? gs_x_banks(x->banks, addr, m, size)
					     : gs_x_banks_load(x->banks, addr, m, size);
}

/* shared32's most common case: every lane active (and for 32-bit
 * addresses an offset within the shared memory), so that the checks are
 * one pass of vector arithmetic (AVX2 where the host has it), and the
 * addresses, in bounds below 2^32, are kept and spanned as 32-bit lanes:
 * a 32-bit lane's address r[l] + imm is in bounds exactly when
 * r[l] <= lim - imm, and then does not wrap.  The 64-bit addresses
 * gs_x_banks reads are made only where the span leaves a conflict possible.
 * The same effects as shared32's general path. */
GS_X_CLONES static int shared32_all(struct gs_xctx *x, struct gs_xwarp *w, const struct gs_ins *in,
				    int store)
{
	unsigned size = 4u * in->nv;
	unsigned char *rf = w->rf;
	uint32_t a[GS_WARP] __attribute__((aligned(64)));
	uint32_t lo = UINT32_MAX, hi = 0;
	if (in->f & GS_MF_A32) {
		const uint32_t *r = (const uint32_t *)(rf + in->o[4]);
		uint32_t im = (uint32_t)in->imm, top = (uint32_t)(x->smem_bytes - size - in->imm);
		uint32_t al = size - 1, bad = 0;
		for (int l = 0; l < GS_WARP; l++) {
			uint32_t v = r[l], s = v + im;
			bad |= (v > top) | (s & al);
			a[l] = s;
			lo = s < lo ? s : lo;
			hi = s > hi ? s : hi;
		}
		if (bad)
			return 0;
	} else {
		/* in bounds, an address is below 2^32 */
		const uint64_t *r = (const uint64_t *)(rf + in->o[4]);
		uint64_t im = (uint64_t)in->imm, lim = x->smem_bytes - size, al = size - 1, bad = 0;
		for (int l = 0; l < GS_WARP; l++) {
			uint64_t s = r[l] + im;
			bad |= (uint64_t)(s > lim) | (s & al);
			a[l] = (uint32_t)s;
		}
		if (bad)
			return 0;
		for (int l = 0; l < GS_WARP; l++) {
			lo = a[l] < lo ? a[l] : lo;
			hi = a[l] > hi ? a[l] : hi;
		}
	}
	uint64_t addr[GS_WARP] __attribute__((aligned(64)));
	int narrow = (hi >> 2) - (lo >> 2) <= 31;
	int banks = !(size == 4 && x->banks == 32 && narrow);
	/* the probe reads a shared load's addresses only where ptxas
	 * merged loads (model/ldsvec.c): addr[] is left unwritten where
	 * nothing would read it */
	if (banks || (x->pr && !store))
		for (int l = 0; l < GS_WARP; l++)
			addr[l] = a[l];
	shared_count(x, store, addr, GS_ALL, size, narrow);
	unsigned char *sm = x->smem;
	if (!store) {
		for (unsigned e = 0; e < in->nv; e++) {
			if (in->o[e] == GS_NONE)
				continue;
			uint32_t *d = (uint32_t *)(rf + in->o[e]);
			const unsigned char *src = sm + 4 * e;
			if (lo == hi) { /* a broadcast: one word for every lane */
				uint32_t v;
				memcpy(&v, src + lo, 4);
				for (int l = 0; l < GS_WARP; l++)
					d[l] = v;
				continue;
			}
			if (load32(d, src, a, x->smem_bytes, lo, narrow, x->smem_bytes - 4 * e))
				continue;
			for (int l = 0; l < GS_WARP; l++)
				memcpy(&d[l], src + a[l], 4);
		}
		return 1;
	}
	for (int l = 0; l < GS_WARP; l++)
		for (unsigned e = 0; e < in->nv; e++)
			if (in->o[e] != GS_NONE)
				memcpy(sm + a[l] + 4 * e, rf + in->o[e] + 4 * l, 4);
	return 1;
}

/* A shared-memory load or store of 32-bit elements (the inner loops of
 * tiled kernels) whose lanes are all aligned and inside the block's shared
 * memory: the general path's effects in one pass over the lanes that
 * computes, checks and spans their addresses (scalar: vectors of 32
 * 64-bit lanes spill on the baseline build).  1 when done; 0: the general
 * path's to do (it reports faults). */
static int shared32(struct gs_xctx *x, struct gs_xwarp *w, const struct gs_ins *in, uint32_t m,
		    int store)
{
	unsigned size = 4u * in->nv;
	if (in->sub != GS_SP_SHARED || in->sz != 4 || (in->f & GS_MF_WIDE) ||
	    (in->nv != 1 && in->nv != 2 && in->nv != 4) || x->smem_bytes < size)
		return 0;
	unsigned char *rf = w->rf;
	uint64_t addr[GS_WARP] __attribute__((aligned(64)));
	uint64_t lim = x->smem_bytes - size, bad = 0, imm = (uint64_t)in->imm;
	if (m == GS_ALL && lim <= UINT32_MAX && (!(in->f & GS_MF_A32) || imm <= lim))
		return shared32_all(x, w, in, store);
	if (in->f & GS_MF_A32) {
		const uint32_t *r = (const uint32_t *)(rf + in->o[4]);
		for (int l = 0; l < GS_WARP; l++)
			addr[l] = r[l] + imm;
	} else {
		const uint64_t *r = (const uint64_t *)(rf + in->o[4]);
		for (int l = 0; l < GS_WARP; l++)
			addr[l] = r[l] + imm;
	}
	/* the words' span, for gs_x_banks's first test: a warp of 4-byte
	 * words within 32 of each other has no conflict */
	int narrow = 0;
	if (m == GS_ALL) {
		uint64_t wlo = addr[0] >> 2, whi = wlo;
		for (int l = 0; l < GS_WARP; l++) {
			uint64_t wd = addr[l] >> 2;
			bad |= (uint64_t)(addr[l] > lim) | (addr[l] & (size - 1));
			wlo = wd < wlo ? wd : wlo;
			whi = wd > whi ? wd : whi;
		}
		narrow = whi - wlo <= 31;
	} else {
		for (uint32_t mm = m; mm; mm &= mm - 1) {
			uint64_t v = addr[__builtin_ctz(mm)];
			bad |= (uint64_t)(v > lim) | (v & (size - 1));
		}
	}
	if (bad)
		return 0;
	/* count()'s shared-memory part */
	shared_count(x, store, addr, m, size, narrow);
	unsigned char *sm = x->smem;
	if (!store) {
		for (unsigned e = 0; e < in->nv; e++) {
			if (in->o[e] == GS_NONE)
				continue;
			uint32_t *d = (uint32_t *)(rf + in->o[e]);
			if (m == GS_ALL) {
				for (int l = 0; l < GS_WARP; l++)
					memcpy(&d[l], sm + addr[l] + 4 * e, 4);
				continue;
			}
			for (uint32_t mm = m; mm; mm &= mm - 1) {
				int l = __builtin_ctz(mm);
				memcpy(&d[l], sm + addr[l] + 4 * e, 4);
			}
		}
		return 1;
	}
	for (uint32_t mm = m; mm; mm &= mm - 1) {
		int l = __builtin_ctz(mm);
		for (unsigned e = 0; e < in->nv; e++)
			if (in->o[e] != GS_NONE)
				memcpy(sm + addr[l] + 4 * e, rf + in->o[e] + 4 * l, 4);
	}
	return 1;
}

int gs_x_ld(struct gs_xctx *x, struct gs_xwarp *w, const struct gs_ins *in, uint32_t m)
{
	unsigned char *rf = w->rf;
	uint64_t addr[GS_WARP] __attribute__((aligned(64)));
	struct acc c;
	unsigned size = (unsigned)in->sz * in->nv;
	int rc;
	if (shared32(x, w, in, m, 0))
		return 0;
	if ((rc = check_shape(x, in)) < 0)
		return rc;
	addresses(rf, in->o[4], in->f & GS_MF_A32, in->imm, addr);
	if ((rc = resolve(x, w, in, m, in->sub, addr, size, 0, &c)) < 0)
		return rc;
	count(x, c.rs, 0, addr, m, size);
	if (in->sz == 4 && !(in->f & GS_MF_WIDE)) {
		/* the common case: 32-bit elements into 32-bit registers */
		for (unsigned e = 0; e < in->nv; e++) {
			if (in->o[e] == GS_NONE)
				continue;
			uint32_t *d = (uint32_t *)(rf + in->o[e]);
			if (m == GS_ALL && !c.mixed) {
				uintptr_t bias = c.bias + 4 * e;
				for (int l = 0; l < GS_WARP; l++) {
					uintptr_t p = bias + addr[l] + l * c.stride;
					memcpy(&d[l], (const void *)p, 4);
				}
			} else {
				for (uint32_t mm = m; mm; mm &= mm - 1) {
					int l = __builtin_ctz(mm);
					memcpy(&d[l], acc_ptr(&c, addr, l) + 4 * e, 4);
				}
			}
		}
		return 0;
	}
	int sgn = in->f & GS_MF_SIGNED;
	for (unsigned e = 0; e < in->nv; e++) {
		if (in->o[e] == GS_NONE)
			continue;
		for (uint32_t mm = m; mm; mm &= mm - 1) {
			int l = __builtin_ctz(mm);
			uint64_t v = load_elem(acc_ptr(&c, addr, l) + in->sz * e, in->sz, sgn);
			if (in->f & GS_MF_WIDE)
				GS_LU64(rf, in->o[e], l) = v;
			else
				GS_LU32(rf, in->o[e], l) = (uint32_t)v;
		}
	}
	return 0;
}

int gs_x_st(struct gs_xctx *x, struct gs_xwarp *w, const struct gs_ins *in, uint32_t m)
{
	unsigned char *rf = w->rf;
	uint64_t addr[GS_WARP] __attribute__((aligned(64)));
	struct acc c;
	unsigned size = (unsigned)in->sz * in->nv;
	int rc;
	if (shared32(x, w, in, m, 1))
		return 0;
	if ((rc = check_shape(x, in)) < 0)
		return rc;
	addresses(rf, in->o[4], in->f & GS_MF_A32, in->imm, addr);
	if ((rc = resolve(x, w, in, m, in->sub, addr, size, 1, &c)) < 0)
		return rc;
	count(x, c.rs, 1, addr, m, size);
	if (in->sz == 4 && in->nv == 1 && !(in->f & GS_MF_WIDE) && in->o[0] != GS_NONE) {
		const uint32_t *v = (const uint32_t *)(rf + in->o[0]);
		for (uint32_t mm = m; mm; mm &= mm - 1) {
			int l = __builtin_ctz(mm);
			memcpy(acc_ptr(&c, addr, l), &v[l], 4);
		}
		return 0;
	}
	for (uint32_t mm = m; mm; mm &= mm - 1) {
		int l = __builtin_ctz(mm);
		unsigned char *p = acc_ptr(&c, addr, l);
		for (unsigned e = 0; e < in->nv; e++) {
			if (in->o[e] == GS_NONE)
				continue;
			uint64_t v = (in->f & GS_MF_WIDE) ? GS_LU64(rf, in->o[e], l)
							  : GS_LU32(rf, in->o[e], l);
			store_elem(p + in->sz * e, in->sz, v);
		}
	}
	return 0;
}

/* ld.param of a kernel parameter: one address for the warp. */
int gs_x_ldkp(struct gs_xctx *x, struct gs_xwarp *w, const struct gs_ins *in, uint32_t m)
{
	unsigned char *rf = w->rf;
	int rc, l0 = __builtin_ctz(m);
	if ((rc = check_shape(x, in)) < 0)
		return rc;
	uint64_t a = ((in->f & GS_MF_A32) ? GS_LU32(rf, in->o[4], l0) : GS_LU64(rf, in->o[4], l0)) +
		     (uint64_t)in->imm;
	uint64_t size = (uint64_t)in->sz * in->nv;
	if (a & (size - 1))
		return gs_x_fault(x, w, in, l0, "misaligned", a, 1);
	if (a > x->kparam_bytes || size > x->kparam_bytes - a)
		return gs_x_fault(x, w, in, l0, "out-of-bounds", a, 1);
	for (unsigned e = 0; e < in->nv; e++) {
		if (in->o[e] == GS_NONE)
			continue;
		uint64_t v = load_elem(x->kparam + a + in->sz * e, in->sz, in->f & GS_MF_SIGNED);
		if (in->f & GS_MF_WIDE)
			gs_x_put64(rf, in->o[e], (gs_vu64){ 0 } + v, m);
		else
			gs_x_put32(rf, in->o[e], (gs_vu32){ 0 } + (uint32_t)v, m);
	}
	return 0;
}

int gs_x_cvta(struct gs_xctx *x, struct gs_xwarp *w, const struct gs_ins *in, uint32_t m)
{
	unsigned char *rf = w->rf;
	uint64_t base;
	switch (in->sub) {
	case GS_SP_GLOBAL: case GS_SP_CONST: base = 0; break;
	case GS_SP_SHARED: base = GS_WIN_SHARED; break;
	case GS_SP_LOCAL: base = GS_WIN_LOCAL; break;
	case GS_SP_KPARAM: base = GS_WIN_PARAM; break;
	default: return gs_x_unsupported(x, in, "address space of cvta");
	}
	gs_vu64 a = in->sz == 8 ? GS_VU64(rf, in->o[1])
				: __builtin_convertvector(GS_VU32(rf, in->o[1]), gs_vu64);
	a = (in->f & 1) ? a - base : a + base;
	if (in->nv == 8)
		gs_x_put64(rf, in->o[0], a, m);
	else
		gs_x_put32(rf, in->o[0], __builtin_convertvector(a, gs_vu32), m);
	return 0;
}

static float ftz_f(float v)
{
	return (v != 0.0f && __builtin_fabsf(v) < 0x1p-126f) ? __builtin_copysignf(0.0f, v) : v;
}

/* One lane's read-modify-write: the new value of a location holding old. */
static int atom_op(const struct gs_ins *in, uint64_t old, uint64_t b, uint64_t c, uint64_t *nv)
{
	int sgn = in->sub2 == GS_TY_S32 || in->sub2 == GS_TY_S64;
	int w64 = in->sz == 8;
	uint64_t mask = w64 ? ~0ull : 0xffffffffull;
	int64_t so = w64 ? (int64_t)old : (int32_t)old, sb = w64 ? (int64_t)b : (int32_t)b;
	switch (in->sub) {
	case GS_AT_ADD:
		if (in->sub2 == GS_TY_F32) {
			float f, g;
			uint32_t u = (uint32_t)old, v = (uint32_t)b;
			memcpy(&f, &u, 4);
			memcpy(&g, &v, 4);
			/* atom.add.f32 flushes subnormal inputs and results */
			f = ftz_f(ftz_f(f) + ftz_f(g));
			memcpy(&u, &f, 4);
			*nv = u;
		} else if (in->sub2 == GS_TY_F64) {
			double f, g;
			memcpy(&f, &old, 8);
			memcpy(&g, &b, 8);
			f += g;
			memcpy(nv, &f, 8);
		} else {
			*nv = (old + b) & mask;
		}
		return 0;
	case GS_AT_MIN:
		if (in->sub2 == GS_TY_F32 || in->sub2 == GS_TY_F64)
			return -1;
		*nv = sgn ? (sb < so ? b : old) : ((b & mask) < (old & mask) ? b : old);
		break;
	case GS_AT_MAX:
		if (in->sub2 == GS_TY_F32 || in->sub2 == GS_TY_F64)
			return -1;
		*nv = sgn ? (sb > so ? b : old) : ((b & mask) > (old & mask) ? b : old);
		break;
	case GS_AT_INC: *nv = (old & mask) >= (b & mask) ? 0 : old + 1; break;
	case GS_AT_DEC: *nv = (!(old & mask) || (old & mask) > (b & mask)) ? b : old - 1; break;
	case GS_AT_AND: *nv = old & b; break;
	case GS_AT_OR: *nv = old | b; break;
	case GS_AT_XOR: *nv = old ^ b; break;
	case GS_AT_EXCH: *nv = b; break;
	case GS_AT_CAS: *nv = (old & mask) == (b & mask) ? c : old; break;
	default: return -1;
	}
	*nv &= mask;
	return 0;
}

/* atom and red: the lanes apply in lane order, each seeing the previous
 * lanes' results (the order a GPU picks is unspecified; this one is
 * reproducible). */
int gs_x_atom(struct gs_xctx *x, struct gs_xwarp *w, const struct gs_ins *in, uint32_t m)
{
	unsigned char *rf = w->rf;
	uint64_t addr[GS_WARP] __attribute__((aligned(64)));
	struct acc c;
	unsigned size = in->sz;
	int rc, space = in->f & 15;
	if (size != 4 && size != 8)
		return gs_x_unsupported(x, in, "atomic operand size");
	if (space != GS_SP_GENERIC && space != GS_SP_GLOBAL && space != GS_SP_SHARED)
		return gs_x_unsupported(x, in, "atomic memory space");
	addresses(rf, in->o[1], in->f & 0x20, in->imm, addr);
	if ((rc = resolve(x, w, in, m, space, addr, size, 1, &c)) < 0)
		return rc;
	if (c.rs != R_GLOBAL && c.rs != R_SHARED)
		return gs_x_fault(x, w, in, __builtin_ctz(m), "local or parameter-space",
				  addr[__builtin_ctz(m)], 1);
	x->c.atom_inst++;
	if (x->pr && c.rs == R_GLOBAL)
		gs_x_probe_mem(x, 4, 1, addr, m, size);
	int result = !(in->f & 0x10) && in->o[0] != GS_NONE;
	for (uint32_t mm = m; mm; mm &= mm - 1) {
		int l = __builtin_ctz(mm);
		unsigned char *p = acc_ptr(&c, addr, l);
		uint64_t old = load_elem(p, size, 0), nv;
		uint64_t b = size == 8 ? GS_LU64(rf, in->o[2], l) : GS_LU32(rf, in->o[2], l);
		uint64_t cv = 0;
		if (in->sub == GS_AT_CAS)
			cv = size == 8 ? GS_LU64(rf, in->o[3], l) : GS_LU32(rf, in->o[3], l);
		if (atom_op(in, old, b, cv, &nv) < 0)
			return gs_x_unsupported(x, in, "atomic operation on this type");
		store_elem(p, size, nv);
		if (result) {
			if (size == 8)
				GS_LU64(rf, in->o[0], l) = old;
			else
				GS_LU32(rf, in->o[0], l) = (uint32_t)old;
		}
	}
	return 0;
}
