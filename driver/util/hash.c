/* hash.c — content hashes for sweep identity and the compile cache, and the
 * name table that keeps name lookups of large spaces linear.
 * XXH3-128 from Debian's xxhash: fast, stable across versions and machines,
 * and collision-resistant enough for content addressing (not for security). */
#include "util/util.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gs_hasher {
	XXH3_state_t st;
};

struct gs_hasher *gs_hasher_new(void)
{
	struct gs_hasher *h = gs_xmalloc(sizeof(*h));
	XXH3_128bits_reset(&h->st);
	return h;
}

void gs_hasher_update(struct gs_hasher *h, const void *p, size_t n)
{
	XXH3_128bits_update(&h->st, p, n);
}

void gs_hasher_field(struct gs_hasher *h, const void *p, size_t n)
{
	uint64_t len = n;
	XXH3_128bits_update(&h->st, &len, sizeof len);
	XXH3_128bits_update(&h->st, p, n);
}

void gs_hasher_hex(struct gs_hasher *h, char out[33])
{
	XXH128_hash_t v = XXH3_128bits_digest(&h->st);
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)v.high64,
		 (unsigned long long)v.low64);
	free(h);
}

void gs_hash_hex(const void *p, size_t n, char out[33])
{
	XXH128_hash_t v = XXH3_128bits(p, n);
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)v.high64,
		 (unsigned long long)v.low64);
}

struct gs_strmap_slot {
	const char *key; /* NULL: empty */
	uint64_t hash;
	int val;
};

static size_t strmap_find(const struct gs_strmap *m, const char *key, uint64_t h)
{
	size_t mask = m->cap - 1, i = (size_t)h & mask;
	while (m->slots[i].key && (m->slots[i].hash != h || strcmp(m->slots[i].key, key) != 0))
		i = (i + 1) & mask;
	return i;
}

int gs_strmap_add(struct gs_strmap *m, const char *key, int val)
{
	if ((m->n + 1) * 2 > m->cap) { /* at most half full: probes stay short */
		struct gs_strmap old = *m;
		m->cap = old.cap ? old.cap * 2 : 64;
		m->slots = gs_xcalloc(m->cap, sizeof(*m->slots));
		for (size_t i = 0; i < old.cap; i++)
			if (old.slots[i].key)
				m->slots[strmap_find(m, old.slots[i].key, old.slots[i].hash)] =
					old.slots[i];
		free(old.slots);
	}
	uint64_t h = XXH3_64bits(key, strlen(key));
	size_t i = strmap_find(m, key, h);
	if (m->slots[i].key)
		return m->slots[i].val;
	m->slots[i] = (struct gs_strmap_slot){ key, h, val };
	m->n++;
	return -1;
}

int gs_strmap_get(const struct gs_strmap *m, const char *key)
{
	if (!m->n)
		return -1;
	size_t i = strmap_find(m, key, XXH3_64bits(key, strlen(key)));
	return m->slots[i].key ? m->slots[i].val : -1;
}

void gs_strmap_release(struct gs_strmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
