/* prior.c — predictions from another sweep, or a sweep's compile-time
 * facts (see prior.h). */
#include "search/prior.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/record.h"
#include "search/strat.h"
#include "util/util.h"

void gs_prior_init(struct gs_prior *p, const char *name, size_t n)
{
	memset(p, 0, sizeof *p);
	p->name = gs_xstrdup(name ? name : "");
	p->n = n;
	p->time_ms = gs_xmalloc(n * sizeof *p->time_ms);
	p->occupancy = gs_xmalloc(n * sizeof *p->occupancy);
	p->registers = gs_xmalloc(n * sizeof *p->registers);
	for (size_t i = 0; i < n; i++) {
		p->time_ms[i] = NAN;
		p->occupancy[i] = NAN;
		p->registers[i] = -1;
	}
}

void gs_prior_release(struct gs_prior *p)
{
	free(p->name);
	free(p->time_ms);
	free(p->occupancy);
	free(p->registers);
	memset(p, 0, sizeof *p);
}

/* The key of configuration c over the parameters listed in map (indices
 * into the space's parameters). */
static void key_of(struct gs_buf *b, const struct gs_sspace *s, size_t c, const size_t *map, size_t nmap)
{
	gs_buf_reset(b);
	const uint16_t *t = gs_sspace_tuple(s, c);
	for (size_t i = 0; i < nmap; i++) {
		if (i)
			gs_buf_putc(b, ',');
		gs_buf_puts(b, s->params[map[i]].text[t[map[i]]]);
	}
}

void gs_prior_from_record(struct gs_prior *p, const struct gs_sspace *sp, const struct gs_record *from)
{
	const struct gs_sspace *o = &from->sp;
	size_t *mine = gs_xmalloc((sp->nparams + 1) * sizeof *mine);
	size_t *theirs = gs_xmalloc((sp->nparams + 1) * sizeof *theirs);
	size_t nmap = 0;
	for (size_t i = 0; i < sp->nparams; i++)
		for (size_t j = 0; j < o->nparams; j++)
			if (!strcmp(sp->params[i].name, o->params[j].name)) {
				mine[nmap] = i;
				theirs[nmap++] = j;
				break;
			}
	/* the other sweep's configurations by key; several that agree on the
	 * shared parameters (it has a parameter this space lacks) predict the
	 * best of them */
	struct gs_strmap m = GS_STRMAP_INIT;
	char **keys = gs_xcalloc(o->n, sizeof *keys);
	size_t *rep = gs_xmalloc(o->n * sizeof *rep);
	struct gs_buf b = GS_BUF_INIT;
	for (size_t c = 0; c < o->n; c++) {
		key_of(&b, o, c, theirs, nmap);
		keys[c] = gs_buf_detach(&b);
		int had = gs_strmap_add(&m, keys[c], (int)c);
		rep[c] = c;
		if (had >= 0) {
			size_t r = (size_t)had;
			if (isnan(from->time_ms[r]) || from->time_ms[c] < from->time_ms[r])
				rep[r] = c;
		}
	}
	for (size_t c = 0; nmap && c < sp->n; c++) {
		key_of(&b, sp, c, mine, nmap);
		int k = gs_strmap_get(&m, gs_buf_str(&b));
		if (k < 0)
			continue;
		size_t r = rep[k];
		p->time_ms[c] = from->time_ms[r];
		p->occupancy[c] = from->occupancy[r];
		p->registers[c] = from->registers[r];
	}
	for (size_t c = 0; c < sp->n; c++)
		if (!isnan(p->time_ms[c]))
			p->known++;
	for (size_t c = 0; c < o->n; c++)
		free(keys[c]);
	free(keys);
	free(rep);
	gs_strmap_release(&m);
	gs_buf_release(&b);
	free(mine);
	free(theirs);
}

void gs_prior_static(struct gs_prior *p, const char *name, const struct gs_record *rec)
{
	gs_prior_init(p, name, rec->sp.n);
	for (size_t c = 0; c < rec->sp.n; c++) {
		p->occupancy[c] = rec->occupancy[c];
		p->registers[c] = rec->registers[c];
	}
}

int gs_prior_load(struct gs_prior *p, const char *spec, const struct gs_sspace *sp, struct gs_buf *err)
{
	gs_prior_init(p, spec, sp->n);
	const char *src = spec;
	if (!strncmp(spec, "sweep:", 6) || !strncmp(spec, "kt:", 3))
		src = strchr(spec, ':') + 1;
	else if (!strncmp(spec, "emu", 3) || !strcmp(spec, "static")) {
		gs_buf_printf(err, "prior '%s' needs compiles: only `run` computes it", spec);
		return -1;
	}
	if (!*src) {
		gs_buf_printf(err, "prior '%s' names no source", spec);
		return -1;
	}
	struct gs_record r;
	if (gs_record_load(src, 0, &r, err) < 0) {
		gs_record_release(&r);
		return -1;
	}
	gs_prior_from_record(p, sp, &r);
	gs_record_release(&r);
	if (!p->known) {
		gs_buf_printf(err, "prior '%s' shares no configuration with the space", spec);
		return -1;
	}
	return 0;
}

size_t *gs_prior_order(const struct gs_prior *p)
{
	size_t *o = gs_xmalloc((p->n ? p->n : 1) * sizeof *o);
	for (size_t i = 0; i < p->n; i++)
		o[i] = i;
	gs_sort_by(o, p->n, p->time_ms);
	return o;
}
