/* readyq.c — configurations whose variant is compiled, waiting for a
 * device: a ring, from which the one predicted fastest is taken next (the
 * baseline before all). */
#define _GNU_SOURCE
#include "sched/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* where the value indices start: after the JSON's NUL, aligned */
static size_t params_tail(const char *json)
{
	return (strlen(json) + sizeof(size_t)) / sizeof(size_t) * sizeof(size_t);
}

char *gs_params_new(char *json, const size_t *pos, size_t n)
{
	size_t at = params_tail(json);
	char *p = gs_xmalloc(at + n * sizeof(size_t) + 1);
	memcpy(p, json, strlen(json) + 1);
	memcpy(p + at, pos, n * sizeof(size_t));
	free(json);
	return p;
}

const size_t *gs_params_pos(const char *params)
{
	return (const size_t *)(const void *)(params + params_tail(params));
}

static void room(struct readyq *q)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 16;
		struct ready *n = gs_xmalloc(cap * sizeof(*n));
		for (size_t i = 0; i < q->n; i++)
			n[i] = q->r[(q->head + i) % q->cap];
		free(q->r);
		q->r = n;
		q->cap = cap;
		q->head = 0;
	}
}

void gs_readyq_push(struct readyq *q, int64_t idx, const char *hash, const char *ident,
		    char *params)
{
	room(q);
	struct ready *r = &q->r[(q->head + q->n++) % q->cap];
	r->idx = idx;
	snprintf(r->hash, sizeof r->hash, "%s", hash);
	snprintf(r->ident, sizeof r->ident, "%s", ident);
	r->params = params;
}

/* Back to the head of the queue: a configuration sent ahead to a worker
 * that died before starting it. */
void gs_readyq_push_front(struct readyq *q, struct ready *r)
{
	room(q);
	q->head = (q->head + q->cap - 1) % q->cap;
	q->r[q->head] = *r;
	q->n++;
	r->params = NULL;
}

/* Each worker gets a configuration to measure and one more to read when it
 * is done: the supervisor's store writes and cubin reads then happen while
 * the device works. */
static size_t pick(const struct readyq *q)
{
	size_t pick = 0;
	double lowest = 0;
	int learned = gs_corder_learned(q->order) >= 2;
	for (size_t i = 0; i < q->n; i++) {
		const struct ready *r = &q->r[(q->head + i) % q->cap];
		if (q->baseline && !strcmp(r->params, q->baseline))
			return i;
		if (!learned)
			continue;
		double t = gs_corder_predict(q->order, gs_params_pos(r->params));
		if (i == 0 || t < lowest)
			pick = i, lowest = t;
	}
	return pick;
}

/* The ready configuration to measure next (pick), out of the queue; q->n
 * must not be 0. */
struct ready gs_readyq_take(struct readyq *q)
{
	size_t i = pick(q);
	struct ready *head = &q->r[q->head], *at = &q->r[(q->head + i) % q->cap];
	struct ready r = *at;
	*at = *head;
	q->head = (q->head + 1) % q->cap;
	q->n--;
	return r;
}

/* What is still queued is dropped: the sweep ends. */
void gs_readyq_drop(struct readyq *q)
{
	for (size_t i = 0; i < q->n; i++)
		free(q->r[(q->head + i) % q->cap].params);
	q->n = 0;
}

void gs_readyq_release(struct readyq *q)
{
	gs_readyq_drop(q);
	free(q->r);
	gs_corder_free(q->order);
}
