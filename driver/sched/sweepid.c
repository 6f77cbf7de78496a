/* sweepid.c — building a sweep's identity, for `run` and `import`. */
#include "sched/sweepid.h"

#include <stdarg.h>
#include <string.h>

#include "space/enum.h"

/* [{"name":"TILE","values":[8,16]}, ...] */
static void params_json(const struct gs_space *sp, struct gs_buf *b)
{
	gs_buf_putc(b, '[');
	for (size_t i = 0; i < sp->nparams; i++) {
		if (i)
			gs_buf_putc(b, ',');
		gs_buf_puts(b, "{\"name\":");
		gs_buf_put_json_str(b, sp->params[i].name);
		gs_buf_puts(b, ",\"values\":[");
		for (size_t j = 0; j < sp->params[i].nvals; j++) {
			if (j)
				gs_buf_putc(b, ',');
			gs_value_json(b, sp->params[i].vals[j]);
		}
		gs_buf_puts(b, "]}");
	}
	gs_buf_putc(b, ']');
}

void gs_sweepid_init(struct gs_sweepid *s, const struct gs_space *sp, const char *path)
{
	memset(s, 0, sizeof(*s));
	s->id.space_path = path;
	s->id.ident_hash = s->hash;
	gs_buf_putc(&s->options, '{');
	if (!sp) {
		gs_buf_puts(&s->baseline, "null");
		return;
	}
	s->id.space_name = sp->name;
	gs_hash_hex(sp->src->text, sp->src->len, s->space_hash);
	s->id.space_hash = s->space_hash;
	params_json(sp, &s->params);
	if (sp->baseline)
		gs_config_json(sp, sp->baseline, &s->baseline);
	else
		gs_buf_puts(&s->baseline, "null");
}

void gs_sweepid_sources(struct gs_sweepid *s, const struct gs_space *sp)
{
	struct gs_hasher *h = gs_hasher_new();
	for (size_t i = 0; i < sp->nfiles; i++) {
		gs_hasher_field(h, sp->files[i].path, strlen(sp->files[i].path));
		gs_hasher_field(h, sp->files[i].text ? sp->files[i].text : "", sp->files[i].len);
	}
	gs_hasher_hex(h, s->kernel_hash);
	s->id.kernel_hash = s->kernel_hash;
	gs_buf_putc(&s->problem, '{');
	for (size_t i = 0; i < sp->nproblems; i++) {
		if (i)
			gs_buf_putc(&s->problem, ',');
		gs_buf_put_json_str(&s->problem, sp->problems[i].name);
		gs_buf_putc(&s->problem, ':');
		gs_value_json(&s->problem, sp->problems[i].value);
	}
	gs_buf_putc(&s->problem, '}');
}

void gs_sweepid_option(struct gs_sweepid *s, const char *name, const char *fmt, ...)
{
	va_list ap;
	gs_buf_printf(&s->options, "%s\"%s\":", s->options.len > 1 ? "," : "", name);
	va_start(ap, fmt);
	gs_buf_vprintf(&s->options, fmt, ap);
	va_end(ap);
}

const struct gs_sweep_ident *gs_sweepid_finish(struct gs_sweepid *s, const char *device,
					       const char *shard)
{
	gs_buf_putc(&s->options, '}');
	gs_buf_puts(&s->shard, shard);
	s->id.device = device;
	s->id.problem_json = gs_buf_str(&s->problem);
	s->id.options_json = gs_buf_str(&s->options);
	s->id.params_json = gs_buf_str(&s->params);
	s->id.shard = gs_buf_str(&s->shard);
	s->id.baseline_json = gs_buf_str(&s->baseline);
	gs_sweep_ident_hash(&s->id, s->hash);
	return &s->id;
}

void gs_sweepid_release(struct gs_sweepid *s)
{
	gs_buf_release(&s->params);
	gs_buf_release(&s->problem);
	gs_buf_release(&s->options);
	gs_buf_release(&s->shard);
	gs_buf_release(&s->baseline);
}
