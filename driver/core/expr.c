/* expr.c — the source span of an expression tree, for diagnostics that
 * underline a whole expression rather than its operator. */
#include "core/expr.h"

static void widen(struct gs_loc *l, const struct gs_loc *o)
{
	if (!o->src || o->src != l->src)
		return;
	uint32_t end = l->off + l->len, oend = o->off + o->len;
	if (o->off < l->off)
		l->off = o->off;
	if (oend > end)
		end = oend;
	l->len = end - l->off;
}

/* Loops down .a (the left operand of every chain), recurses elsewhere: the
 * recursion is as deep as the parser's, which GS_MAX_NESTING bounds. */
static void span_rec(const struct gs_expr *e, struct gs_loc *l)
{
	for (; e; e = e->a) {
		widen(l, &e->loc);
		span_rec(e->b, l);
		span_rec(e->c, l);
		span_rec(e->d, l);
		for (size_t i = 0; i < e->n && e->items; i++)
			span_rec(e->items[i], l);
		for (size_t i = 0; i < e->nfors; i++) {
			span_rec(e->fors[i].iter, l);
			for (size_t k = 0; k < e->fors[i].nconds; k++)
				span_rec(e->fors[i].conds[k], l);
		}
	}
}

struct gs_loc gs_expr_span(const struct gs_expr *e)
{
	struct gs_loc l = e->loc;
	span_rec(e, &l);
	if (!l.src)
		return l;
	/* parentheses leave no node: take in those the span cuts through */
	const char *t = l.src->text;
	int bal = 0;
	for (uint32_t i = l.off; i < l.off + l.len; i++)
		bal += (t[i] == '(' || t[i] == '[') - (t[i] == ')' || t[i] == ']');
	while (bal < 0 && l.off > 0) {
		char c = t[l.off - 1];
		if (c != '(' && c != '[' && c != ' ' && c != '\t')
			break;
		l.off--;
		l.len++;
		bal += c == '(' || c == '[';
	}
	while (bal > 0 && l.off + l.len < l.src->len) {
		char c = t[l.off + l.len];
		if (c != ')' && c != ']' && c != ' ' && c != '\t')
			break;
		l.len++;
		bal -= c == ')' || c == ']';
	}
	return l;
}
