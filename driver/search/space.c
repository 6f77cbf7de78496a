/* space.c — a search strategy's configurations: building, lookup,
 * neighbourhoods (see space.h). */
#include "search/space.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/kt.h"
#include "util/util.h"

static size_t ncap(size_t n)
{
	size_t c = 64;
	while (c < 2 * n + 2)
		c *= 2;
	return c;
}

static uint64_t tuple_hash(const uint16_t *vi, size_t np)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < np; i++) {
		h ^= vi[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
		h *= 0xff51afd7ed558ccdull;
	}
	return h ^ (h >> 33);
}

static void value_add(struct gs_sparam *p, const char *text, json_t *v)
{
	p->text = gs_xrealloc(p->text, (p->nvalues + 1) * sizeof *p->text);
	p->num = gs_xrealloc(p->num, (p->nvalues + 1) * sizeof *p->num);
	p->text[p->nvalues] = gs_xstrdup(text);
	p->num[p->nvalues] = json_is_number(v) ? json_number_value(v)
			     : json_is_boolean(v) ? (json_is_true(v) ? 1.0 : 0.0)
						  : NAN;
	p->nvalues++;
}

int gs_sspace_init(struct gs_sspace *s, json_t *params, struct gs_buf *err)
{
	memset(s, 0, sizeof *s);
	if (!json_is_array(params) || !json_array_size(params)) {
		gs_buf_puts(err, "no parameters");
		return -1;
	}
	s->nparams = json_array_size(params);
	s->params = gs_xcalloc(s->nparams, sizeof *s->params);
	struct gs_buf t = GS_BUF_INIT;
	for (size_t i = 0; i < s->nparams; i++) {
		json_t *p = json_array_get(params, i), *vals = json_object_get(p, "values");
		const char *name = json_string_value(json_object_get(p, "name"));
		if (!name || !json_is_array(vals)) {
			gs_buf_printf(err, "parameter %zu has no name or no values", i + 1);
			gs_buf_release(&t);
			return -1;
		}
		s->params[i].name = gs_xstrdup(name);
		size_t k;
		json_t *v;
		json_array_foreach(vals, k, v) {
			gs_buf_reset(&t);
			if (gs_kt_key_part(&t, v) < 0)
				continue;
			value_add(&s->params[i], gs_buf_str(&t), v);
		}
	}
	gs_buf_release(&t);
	return 0;
}

static void rehash(struct gs_sspace *s, size_t cap)
{
	free(s->slots);
	s->nslots = cap;
	s->slots = gs_xcalloc(cap, sizeof *s->slots);
	for (size_t c = 0; c < s->n; c++) {
		size_t h = tuple_hash(gs_sspace_tuple(s, c), s->nparams) & (cap - 1);
		while (s->slots[h])
			h = (h + 1) & (cap - 1);
		s->slots[h] = (uint32_t)c + 1;
	}
}

long gs_sspace_find(const struct gs_sspace *s, const uint16_t *vi)
{
	if (!s->nslots)
		return -1;
	size_t h = tuple_hash(vi, s->nparams) & (s->nslots - 1);
	for (; s->slots[h]; h = (h + 1) & (s->nslots - 1)) {
		size_t c = s->slots[h] - 1;
		if (!memcmp(gs_sspace_tuple(s, c), vi, s->nparams * sizeof *vi))
			return (long)c;
	}
	return -1;
}

long gs_sspace_add(struct gs_sspace *s, json_t *obj, int64_t idx, struct gs_buf *err)
{
	uint16_t *vi = gs_xmalloc(s->nparams * sizeof *vi);
	struct gs_buf t = GS_BUF_INIT, key = GS_BUF_INIT;
	long rc = 0;
	for (size_t i = 0; i < s->nparams && !rc; i++) {
		struct gs_sparam *p = &s->params[i];
		json_t *v = json_object_get(obj, p->name);
		gs_buf_reset(&t);
		if (!v || gs_kt_key_part(&t, v) < 0) {
			gs_buf_printf(err, "a configuration has no value of '%s'", p->name);
			rc = -1;
			break;
		}
		size_t k = 0;
		while (k < p->nvalues && strcmp(p->text[k], gs_buf_str(&t)))
			k++;
		if (k == p->nvalues) {
			if (k >= UINT16_MAX) {
				gs_buf_printf(err, "parameter '%s' has too many values", p->name);
				rc = -1;
				break;
			}
			value_add(p, gs_buf_str(&t), v);
		}
		vi[i] = (uint16_t)k;
		if (i)
			gs_buf_putc(&key, ',');
		gs_buf_puts(&key, gs_buf_str(&t));
	}
	if (!rc && gs_sspace_find(s, vi) >= 0)
		rc = -2;
	if (!rc) {
		if (s->n >= UINT32_MAX - 1) {
			gs_buf_puts(err, "too many configurations");
			rc = -1;
		}
	}
	if (!rc) {
		size_t n = s->n;
		s->vi = gs_xrealloc(s->vi, (n + 1) * s->nparams * sizeof *s->vi);
		memcpy(s->vi + n * s->nparams, vi, s->nparams * sizeof *vi);
		s->key = gs_xrealloc(s->key, (n + 1) * sizeof *s->key);
		s->key[n] = gs_buf_detach(&key);
		s->idx = gs_xrealloc(s->idx, (n + 1) * sizeof *s->idx);
		s->idx[n] = idx;
		s->n = n + 1;
		if (2 * s->n + 2 > s->nslots)
			rehash(s, ncap(s->n * 2));
		else {
			size_t h = tuple_hash(vi, s->nparams) & (s->nslots - 1);
			while (s->slots[h])
				h = (h + 1) & (s->nslots - 1);
			s->slots[h] = (uint32_t)n + 1;
		}
		rc = (long)n;
	}
	free(vi);
	gs_buf_release(&t);
	gs_buf_release(&key);
	return rc;
}

void gs_sspace_release(struct gs_sspace *s)
{
	for (size_t i = 0; i < s->nparams; i++) {
		for (size_t k = 0; k < s->params[i].nvalues; k++)
			free(s->params[i].text[k]);
		free(s->params[i].text);
		free(s->params[i].num);
		free(s->params[i].name);
	}
	free(s->params);
	for (size_t c = 0; c < s->n; c++)
		free(s->key[c]);
	free(s->key);
	free(s->vi);
	free(s->idx);
	free(s->slots);
	memset(s, 0, sizeof *s);
}

size_t gs_sspace_max_neighbours(const struct gs_sspace *s)
{
	size_t m = 0;
	for (size_t i = 0; i < s->nparams; i++)
		m += s->params[i].nvalues ? s->params[i].nvalues - 1 : 0;
	return m;
}

size_t gs_sspace_neighbours(const struct gs_sspace *s, size_t cfg, enum gs_nbhood nb, size_t *out,
			    size_t cap)
{
	uint16_t stack[64], *t = s->nparams <= 64 ? stack : gs_xmalloc(s->nparams * sizeof *t);
	memcpy(t, gs_sspace_tuple(s, cfg), s->nparams * sizeof *t);
	size_t n = 0;
	for (size_t i = 0; i < s->nparams; i++) {
		uint16_t own = t[i];
		size_t nv = s->params[i].nvalues;
		for (size_t k = 0; k < nv; k++) {
			if (k == own)
				continue;
			if (nb == GS_NB_ADJACENT && k + 1 != own && k != (size_t)own + 1)
				continue;
			t[i] = (uint16_t)k;
			long c = gs_sspace_find(s, t);
			if (c >= 0) {
				if (n < cap)
					out[n] = (size_t)c;
				n++;
			}
		}
		t[i] = own;
	}
	if (t != stack)
		free(t);
	return n;
}
