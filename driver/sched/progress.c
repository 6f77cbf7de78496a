/* progress.c — the progress line of `gsearch run` (progress.h). */
#include "sched/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sched/sweep.h"

/* What a level of detail shows; each level drops one more part. */
enum {
	P_PERCENT = 1 << 0,
	P_ETA = 1 << 1,
	P_OUTCOMES = 1 << 2, /* "ok 5, failed 2" */
	P_RATE = 1 << 3,
	P_BEST = 1 << 4,
	P_KINDS = 1 << 5,    /* every outcome kind by name instead of "failed" */
	P_BEFORE = 1 << 6,
};

static const unsigned levels[] = {
	P_PERCENT | P_ETA | P_OUTCOMES | P_RATE | P_BEST | P_KINDS | P_BEFORE,
	P_PERCENT | P_ETA | P_OUTCOMES | P_RATE | P_BEST | P_KINDS,
	P_PERCENT | P_ETA | P_OUTCOMES | P_RATE | P_BEST,
	P_PERCENT | P_ETA | P_OUTCOMES | P_RATE,
	P_PERCENT | P_ETA | P_OUTCOMES,
	P_PERCENT | P_ETA,
	P_PERCENT,
	0,
};

struct line {
	char *buf;
	size_t size, len;
};

static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (l->len < l->size) {
		int n = vsnprintf(l->buf + l->len, l->size - l->len, fmt, ap);
		l->len += n > 0 ? (size_t)n : 0;
	}
	va_end(ap);
	if (l->len >= l->size)
		l->len = l->size - 1;
}

/* "45s", "3m05s", "2h03m", "4d07h": two units at most, for a glance. */
static void duration(struct line *l, double s)
{
	unsigned long long t = (unsigned long long)(s + 0.5);
	if (t < 60)
		add(l, "%llus", t);
	else if (t < 3600)
		add(l, "%llum%02llus", t / 60, t % 60);
	else if (t < 86400)
		add(l, "%lluh%02llum", t / 3600, t / 60 % 60);
	else
		add(l, "%llud%02lluh", t / 86400, t / 3600 % 24);
}

static void format(const struct gs_progress *p, unsigned show, struct line *l)
{
	l->len = 0;
	l->buf[0] = 0;
	uint64_t done = p->before, failed = 0;
	if (p->compile_only) {
		done = p->visited;
	} else {
		for (int i = 0; i < GS_NOUTCOMES; i++)
			done += p->by_status[i];
		for (int i = 1; i < GS_NOUTCOMES; i++)
			failed += p->by_status[i];
	}
	uint64_t fresh = done > p->before ? done - p->before : 0;
	double rate = p->elapsed_s > 0 ? fresh / p->elapsed_s : 0;
	add(l, "%llu/%llu", (unsigned long long)done, (unsigned long long)p->total);
	if ((show & P_PERCENT) && p->total)
		add(l, " (%u%%)", (unsigned)(100.0 * (done < p->total ? done : p->total) / p->total));
	if (show & P_RATE)
		add(l, rate >= 100 ? ", %.0f/s" : ", %.1f/s", rate);
	if ((show & P_ETA) && rate > 0 && p->total > done) {
		add(l, ", eta ");
		duration(l, (double)(p->total - done) / rate);
	}
	if ((show & P_BEST) && !p->compile_only && p->best_ms > 0)
		add(l, ", best %.4g ms", p->best_ms);
	if ((show & P_OUTCOMES) && p->compile_only) {
		if (show & P_KINDS)
			add(l, ", compiled %llu, cached %llu", (unsigned long long)p->compiled,
			    (unsigned long long)p->cached);
		add(l, ", compile_error %llu", (unsigned long long)p->compile_errors);
	} else if (show & P_OUTCOMES) {
		add(l, ", ok %llu", (unsigned long long)p->by_status[0]);
		if (!(show & P_KINDS)) {
			if (failed)
				add(l, ", failed %llu", (unsigned long long)failed);
		} else {
			/* a kind that has not happened says nothing */
			for (int i = 1; i < GS_NOUTCOMES; i++)
				if (p->by_status[i])
					add(l, ", %s %llu", gs_outcomes[i],
					    (unsigned long long)p->by_status[i]);
		}
	}
	if ((show & P_BEFORE) && p->before)
		add(l, ", %llu done before", (unsigned long long)p->before);
}

size_t gs_progress_format(const struct gs_progress *p, size_t width, char *buf, size_t size)
{
	if (!size)
		return 0;
	struct line l = { buf, size, 0 };
	for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
		format(p, levels[i], &l);
		if (!width || l.len <= width)
			return l.len;
	}
	/* not even "done/total" fits: cut it */
	l.len = width < l.len ? width : l.len;
	buf[l.len] = 0;
	return l.len;
}
