/* parse.c — recursive-descent parser of the space language.
 *
 * Statements are lines; expressions follow Python's grammar and precedence.
 * After an error the rest of the statement is skipped and parsing resumes at
 * the next line, so one run reports every broken line.
 *
 * Statements and the expressions in them are parsed here, in one file, as
 * Lua's lparser parses both: the trees go into the gs_space this directory
 * owns, and lang/ below only lexes, compiles and evaluates them. */
#include "space/parse.h"

#include <stdlib.h>
#include <string.h>

/* Operators of one precedence (or subscripts) in a row.  Such chains are
 * left-leaning trees as deep as they are long; every walk loops down their
 * left operands instead of recursing, so this bounds memory, not the stack. */
#define MAX_CHAIN 100000

struct parser {
	struct gs_lexer lx;
	struct gs_diag *d;
	struct gs_arena *a;
	struct gs_space *sp;
	int depth;
	int stmt_err; /* an error was reported in the current statement */
	int errors;
};

static const struct gs_token *peek(struct parser *p)
{
	return gs_lex_peek(&p->lx, 0);
}

static int peek_kind(struct parser *p)
{
	return peek(p)->kind;
}

/* Is the next token the name `word` (a clause keyword)? */
static int peek_word(struct parser *p, const char *word)
{
	const struct gs_token *t = peek(p);
	return t->kind == GS_TOK_NAME && !strcmp(t->s, word);
}

static void take(struct parser *p, struct gs_token *t)
{
	gs_lex_next(&p->lx, t);
}

static void drop(struct parser *p)
{
	gs_lex_next(&p->lx, NULL);
}

static void perr(struct parser *p, struct gs_loc loc, const char *fmt, ...) GS_PRINTF(3, 4);
static void perr(struct parser *p, struct gs_loc loc, const char *fmt, ...)
{
	p->errors++;
	if (p->stmt_err)
		return;
	p->stmt_err = 1;
	va_list ap;
	va_start(ap, fmt);
	gs_diag_vadd(p->d, GS_ERROR, loc, fmt, ap);
	va_end(ap);
}

static const char *describe(const struct gs_token *t)
{
	static char buf[96];
	if (t->kind == GS_TOK_NAME) {
		snprintf(buf, sizeof buf, "'%.80s'", t->s);
		return buf;
	}
	return gs_tok_name(t->kind);
}

static int expect(struct parser *p, int kind, const char *what)
{
	if (peek_kind(p) == kind) {
		drop(p);
		return 1;
	}
	perr(p, peek(p)->loc, "expected %s, found %s", what ? what : gs_tok_name(kind),
	     describe(peek(p)));
	return 0;
}

static char *take_name(struct parser *p, const char *what, struct gs_loc *loc)
{
	const struct gs_token *t = peek(p);
	if (loc)
		*loc = t->loc;
	if (t->kind != GS_TOK_NAME) {
		perr(p, t->loc, "expected %s, found %s", what, describe(t));
		return NULL;
	}
	struct gs_token tok;
	take(p, &tok);
	char *s = gs_arena_strdup(p->a, tok.s);
	free(tok.s);
	return s;
}

static char *take_string(struct parser *p, const char *what, struct gs_loc *loc)
{
	const struct gs_token *t = peek(p);
	if (loc)
		*loc = t->loc;
	if (t->kind != GS_TOK_STRING) {
		perr(p, t->loc, "expected %s, found %s", what, describe(t));
		return NULL;
	}
	struct gs_token tok;
	take(p, &tok);
	char *s = gs_arena_strndup(p->a, tok.s, tok.slen);
	free(tok.s);
	return s;
}

static struct gs_expr *node(struct parser *p, int kind, struct gs_loc loc)
{
	struct gs_expr *e = gs_arena_alloc(p->a, sizeof(*e));
	memset(e, 0, sizeof(*e));
	e->kind = (uint8_t)kind;
	e->loc = loc;
	return e;
}

/* Location spanning from a to the end of b. */
static struct gs_loc span(struct gs_loc a, struct gs_loc b)
{
	if (b.src == a.src && b.off + b.len > a.off)
		a.len = b.off + b.len - a.off;
	return a;
}

struct vec {
	struct gs_expr **v;
	char **kw;
	size_t n, cap, kwcap;
};

static void vec_push(struct vec *v, struct gs_expr *e, char *kw)
{
	gs_grow(&v->v, &v->cap, v->n + 1, sizeof(*v->v));
	gs_grow(&v->kw, &v->kwcap, v->n + 1, sizeof(*v->kw));
	v->kw[v->n] = kw;
	v->v[v->n++] = e;
}

static void vec_to(struct parser *p, struct vec *v, struct gs_expr *e, int keep_kw)
{
	e->n = v->n;
	e->items = gs_arena_alloc(p->a, (v->n ? v->n : 1) * sizeof(*e->items));
	if (v->n)
		memcpy(e->items, v->v, v->n * sizeof(*e->items));
	int any_kw = 0;
	for (size_t i = 0; i < v->n; i++)
		any_kw |= v->kw[i] != NULL;
	if (keep_kw && any_kw) {
		e->kwnames = gs_arena_alloc(p->a, v->n * sizeof(*e->kwnames));
		memcpy(e->kwnames, v->kw, v->n * sizeof(*e->kwnames));
	}
	free(v->v);
	free(v->kw);
	memset(v, 0, sizeof(*v));
}

static struct gs_expr *test(struct parser *p);
static struct gs_expr *or_test(struct parser *p);

static struct gs_expr *error_node(struct parser *p, struct gs_loc loc)
{
	struct gs_expr *e = node(p, GS_E_CONST, loc);
	e->k = gs_none();
	return e;
}

/* Every cycle of the parser's recursion passes through enter(), once per
 * bracket, call, subscript, unary operator, 'not', '**' and 'else': so the
 * parser, and every later walk of the tree (which recurses only where the
 * parser did), stays within a fixed multiple of GS_MAX_NESTING frames.  Past
 * the limit the rest of the expression is skipped, so recursion stops here. */
static int enter(struct parser *p, struct gs_loc loc)
{
	if (p->depth < GS_MAX_NESTING) {
		p->depth++;
		return 1;
	}
	perr(p, loc, "expression nested more than %d levels deep", GS_MAX_NESTING);
	while (peek_kind(p) != GS_TOK_NEWLINE && peek_kind(p) != GS_TOK_EOF)
		drop(p);
	return 0;
}

static void leave(struct parser *p)
{
	p->depth--;
}

/* [elt for x in it if c ...]: `first` is the element already parsed */
static struct gs_expr *comprehension(struct parser *p, struct gs_expr *first, struct gs_loc loc)
{
	struct gs_expr *e = node(p, GS_E_COMP, loc);
	e->a = first;
	size_t cap = 0;
	while (peek_kind(p) == GS_TOK_FOR) {
		drop(p);
		gs_grow(&e->fors, &cap, e->nfors + 1, sizeof(*e->fors));
		struct gs_compfor *f = &e->fors[e->nfors++];
		memset(f, 0, sizeof(*f));
		f->var = take_name(p, "a loop variable", &f->var_loc);
		if (!f->var)
			f->var = "_";
		if (peek_kind(p) == GS_TOK_COMMA)
			perr(p, peek(p)->loc, "unpacking in comprehensions is not supported");
		expect(p, GS_TOK_IN, "'in'");
		f->iter = or_test(p);
		size_t ccap = 0;
		while (peek_kind(p) == GS_TOK_IF) {
			drop(p);
			gs_grow(&f->conds, &ccap, f->nconds + 1, sizeof(*f->conds));
			f->conds[f->nconds++] = or_test(p);
		}
		/* move the arrays into the arena so the tree has one owner */
		struct gs_expr **c = gs_arena_alloc(p->a, (f->nconds ? f->nconds : 1) * sizeof(*c));
		if (f->nconds)
			memcpy(c, f->conds, f->nconds * sizeof(*c));
		free(f->conds);
		f->conds = c;
	}
	struct gs_compfor *fa = gs_arena_alloc(p->a, e->nfors * sizeof(*fa));
	memcpy(fa, e->fors, e->nfors * sizeof(*fa));
	free(e->fors);
	e->fors = fa;
	return e;
}

/* Items of a bracketed display up to `close`; a comprehension if the first
 * item is followed by `for`.  *tuple is set when a comma was seen. */
static struct gs_expr *display(struct parser *p, int close, struct gs_loc open, int *tuple)
{
	struct vec v = { 0 };
	*tuple = 0;
	if (peek_kind(p) != close) {
		struct gs_expr *first = test(p);
		if (peek_kind(p) == GS_TOK_FOR) {
			struct gs_expr *c = comprehension(p, first, open);
			struct gs_loc end = peek(p)->loc;
			expect(p, close, gs_tok_name(close));
			c->loc = span(open, end);
			return c;
		}
		vec_push(&v, first, NULL);
		while (peek_kind(p) == GS_TOK_COMMA) {
			drop(p);
			*tuple = 1;
			if (peek_kind(p) == close)
				break;
			vec_push(&v, test(p), NULL);
		}
	} else {
		*tuple = 1;
	}
	struct gs_loc end = peek(p)->loc;
	expect(p, close, gs_tok_name(close));
	struct gs_expr *e = node(p, GS_E_LIST, span(open, end));
	vec_to(p, &v, e, 0);
	return e;
}

static struct gs_expr *atom(struct parser *p)
{
	struct gs_token t;
	const struct gs_token *pt = peek(p);
	struct gs_expr *e;
	switch (pt->kind) {
	case GS_TOK_INT:
	case GS_TOK_FLOAT:
		take(p, &t);
		e = node(p, GS_E_CONST, t.loc);
		e->k = t.kind == GS_TOK_INT ? gs_int(t.i) : gs_float(t.f);
		return e;
	case GS_TOK_TRUE:
	case GS_TOK_FALSE:
	case GS_TOK_NONE:
		take(p, &t);
		e = node(p, GS_E_CONST, t.loc);
		e->k = t.kind == GS_TOK_NONE ? gs_none() : gs_bool(t.kind == GS_TOK_TRUE);
		return e;
	case GS_TOK_STRING: {
		/* adjacent literals concatenate, as in Python */
		struct gs_buf b = GS_BUF_INIT;
		struct gs_loc loc = pt->loc;
		while (peek_kind(p) == GS_TOK_STRING) {
			take(p, &t);
			gs_buf_put(&b, t.s ? t.s : "", t.slen);
			loc = span(loc, t.loc);
			free(t.s);
		}
		e = node(p, GS_E_CONST, loc);
		e->k = gs_str_new(p->a, gs_buf_str(&b), b.len);
		gs_buf_release(&b);
		return e;
	}
	case GS_TOK_NAME: {
		struct gs_loc loc;
		char *n = take_name(p, "a name", &loc);
		if (peek_kind(p) == GS_TOK_DOT) {
			drop(p);
			struct gs_loc aloc;
			char *attr = take_name(p, "an attribute name", &aloc);
			if (strcmp(n, "math") != 0) {
				perr(p, loc, "attribute access is not supported (only math.NAME)");
			} else if (attr) {
				char *q = gs_xasprintf("math.%s", attr);
				n = gs_arena_strdup(p->a, q);
				free(q);
			}
			loc = span(loc, aloc);
		}
		e = node(p, GS_E_NAME, loc);
		e->name = n ? n : "?";
		return e;
	}
	case GS_TOK_LPAREN:
	case GS_TOK_LBRACKET: {
		int close = pt->kind == GS_TOK_LPAREN ? GS_TOK_RPAREN : GS_TOK_RBRACKET;
		if (!enter(p, pt->loc))
			return error_node(p, pt->loc);
		take(p, &t);
		int tuple;
		e = display(p, close, t.loc, &tuple);
		leave(p);
		if (close == GS_TOK_RPAREN && e->kind == GS_E_LIST && !tuple && e->n == 1)
			return e->items[0]; /* plain parentheses */
		return e;
	}
	case GS_TOK_LAMBDA:
		perr(p, pt->loc, "lambda is not supported");
		drop(p);
		return error_node(p, pt->loc);
	default:
		perr(p, pt->loc, "expected an expression, found %s", describe(pt));
		return error_node(p, pt->loc);
	}
}

static struct gs_expr *call_args(struct parser *p, struct gs_expr *fn)
{
	if (!enter(p, peek(p)->loc))
		return fn;
	struct gs_token open;
	take(p, &open);
	struct vec v = { 0 };
	struct gs_expr *e = node(p, GS_E_CALL, fn->loc);
	e->name = fn->name;
	if (fn->kind != GS_E_NAME)
		perr(p, fn->loc, "only builtin functions can be called");
	while (peek_kind(p) != GS_TOK_RPAREN && peek_kind(p) != GS_TOK_NEWLINE &&
	       peek_kind(p) != GS_TOK_EOF) {
		char *kw = NULL;
		if (peek_kind(p) == GS_TOK_NAME && gs_lex_peek(&p->lx, 1)->kind == GS_TOK_ASSIGN) {
			kw = take_name(p, "a name", NULL);
			drop(p);
		}
		struct gs_expr *a = test(p);
		if (peek_kind(p) == GS_TOK_FOR && v.n == 0 && !kw) {
			/* f(x for x in xs): a generator argument, taken as a list */
			a = comprehension(p, a, a->loc);
		}
		vec_push(&v, a, kw);
		if (peek_kind(p) != GS_TOK_COMMA)
			break;
		drop(p);
	}
	struct gs_loc end = peek(p)->loc;
	expect(p, GS_TOK_RPAREN, "')'");
	e->loc = span(fn->loc, end);
	vec_to(p, &v, e, 1);
	leave(p);
	return e;
}

static struct gs_expr *subscript(struct parser *p, struct gs_expr *base)
{
	if (!enter(p, peek(p)->loc))
		return base;
	drop(p); /* [ */
	struct gs_expr *parts[3] = { NULL, NULL, NULL };
	int colons = 0;
	for (;;) {
		int k = peek_kind(p);
		if (k == GS_TOK_COLON) {
			if (colons == 2) {
				perr(p, peek(p)->loc, "expected ']', found ':'");
				break;
			}
			drop(p);
			colons++;
			continue;
		}
		if (k == GS_TOK_RBRACKET || k == GS_TOK_NEWLINE || k == GS_TOK_EOF)
			break;
		if (parts[colons]) {
			perr(p, peek(p)->loc, "expected ']', found %s", describe(peek(p)));
			break;
		}
		parts[colons] = test(p);
	}
	struct gs_loc end = peek(p)->loc;
	expect(p, GS_TOK_RBRACKET, "']'");
	struct gs_expr *e;
	if (colons == 0) {
		e = node(p, GS_E_INDEX, span(base->loc, end));
		e->a = base;
		e->b = parts[0] ? parts[0] : error_node(p, end);
		if (!parts[0])
			perr(p, end, "expected an index");
	} else {
		e = node(p, GS_E_SLICE, span(base->loc, end));
		e->a = base;
		e->b = parts[0];
		e->c = parts[1];
		e->d = parts[2];
	}
	leave(p);
	return e;
}

static struct gs_expr *primary(struct parser *p)
{
	struct gs_expr *e = atom(p);
	for (int len = 0;; len++) {
		int k = peek_kind(p);
		if ((k == GS_TOK_LPAREN || k == GS_TOK_LBRACKET) && len == MAX_CHAIN) {
			perr(p, peek(p)->loc, "expression too long (more than %d operators in a row)",
			     MAX_CHAIN);
			while (peek_kind(p) != GS_TOK_NEWLINE && peek_kind(p) != GS_TOK_EOF)
				drop(p);
			return e;
		}
		if (k == GS_TOK_LPAREN)
			e = call_args(p, e);
		else if (k == GS_TOK_LBRACKET)
			e = subscript(p, e);
		else if (k == GS_TOK_DOT) {
			perr(p, peek(p)->loc, "attribute access is not supported");
			drop(p);
		} else
			return e;
	}
}

static struct gs_expr *factor(struct parser *p);

static struct gs_expr *power(struct parser *p)
{
	struct gs_expr *e = primary(p);
	if (peek_kind(p) == GS_TOK_POW) {
		if (!enter(p, peek(p)->loc))
			return e;
		struct gs_token op;
		take(p, &op);
		struct gs_expr *b = node(p, GS_E_BINARY, op.loc);
		b->op = GS_TOK_POW;
		b->a = e;
		b->b = factor(p); /* right-associative, binds tighter than unary on the left */
		leave(p);
		return b;
	}
	return e;
}

static struct gs_expr *factor(struct parser *p)
{
	int k = peek_kind(p);
	if (k == GS_TOK_PLUS || k == GS_TOK_MINUS || k == GS_TOK_TILDE) {
		struct gs_loc at = peek(p)->loc;
		if (!enter(p, at))
			return error_node(p, at);
		struct gs_token op;
		take(p, &op);
		struct gs_expr *e = node(p, GS_E_UNARY, op.loc);
		e->op = (uint8_t)k;
		e->a = factor(p);
		/* fold negative literals so that -9223372036854775808 stays exact */
		if (k == GS_TOK_MINUS && e->a->kind == GS_E_CONST && e->a->k.t == GS_V_FLOAT) {
			e->a->k.f = -e->a->k.f;
			e->a->loc = span(op.loc, e->a->loc);
			leave(p);
			return e->a;
		}
		leave(p);
		return e;
	}
	return power(p);
}

static struct gs_expr *binary_level(struct parser *p, int level);

static const int levels[][5] = {
	{ GS_TOK_PIPE, -1 },
	{ GS_TOK_CARET, -1 },
	{ GS_TOK_AMP, -1 },
	{ GS_TOK_LSHIFT, GS_TOK_RSHIFT, -1 },
	{ GS_TOK_PLUS, GS_TOK_MINUS, -1 },
	{ GS_TOK_STAR, GS_TOK_SLASH, GS_TOK_DSLASH, GS_TOK_PERCENT, -1 },
};

static struct gs_expr *binary_level(struct parser *p, int level)
{
	if (level == (int)GS_ARRAY_SIZE(levels))
		return factor(p);
	struct gs_expr *e = binary_level(p, level + 1);
	/* a left-leaning chain is as deep as it is long; later passes recurse */
	for (int len = 0;; len++) {
		int k = peek_kind(p), hit = 0;
		for (int i = 0; levels[level][i] >= 0; i++)
			hit |= levels[level][i] == k;
		if (!hit)
			return e;
		if (len == MAX_CHAIN) {
			perr(p, peek(p)->loc, "expression too long (more than %d operators in a row)",
			     MAX_CHAIN);
			while (peek_kind(p) != GS_TOK_NEWLINE && peek_kind(p) != GS_TOK_EOF)
				drop(p);
			return e;
		}
		struct gs_token op;
		take(p, &op);
		struct gs_expr *b = node(p, GS_E_BINARY, op.loc);
		b->op = (uint8_t)k;
		b->a = e;
		b->b = binary_level(p, level + 1);
		e = b;
	}
}

static int comp_op(struct parser *p, struct gs_loc *loc)
{
	const struct gs_token *t = peek(p);
	*loc = t->loc;
	switch (t->kind) {
	case GS_TOK_LT: case GS_TOK_LE: case GS_TOK_GT: case GS_TOK_GE:
	case GS_TOK_EQ: case GS_TOK_NE: case GS_TOK_IN: {
		int k = t->kind;
		drop(p);
		return k;
	}
	case GS_TOK_IS:
		drop(p);
		if (peek_kind(p) == GS_TOK_NOT) {
			drop(p);
			return GS_TOK_IS | 0x80;
		}
		return GS_TOK_IS;
	case GS_TOK_NOT:
		if (gs_lex_peek(&p->lx, 1)->kind == GS_TOK_IN) {
			drop(p);
			drop(p);
			return GS_TOK_IN | 0x80;
		}
		return -1;
	default:
		return -1;
	}
}

static struct gs_expr *comparison(struct parser *p)
{
	struct gs_expr *first = binary_level(p, 0);
	struct gs_loc oploc;
	int op = comp_op(p, &oploc);
	if (op < 0)
		return first;
	struct vec v = { 0 };
	uint8_t ops[256];
	size_t nops = 0;
	vec_push(&v, first, NULL);
	while (op >= 0) {
		if (nops < sizeof ops)
			ops[nops++] = (uint8_t)op;
		else
			perr(p, oploc, "comparison chain too long");
		vec_push(&v, binary_level(p, 0), NULL);
		op = comp_op(p, &oploc);
	}
	struct gs_expr *e = node(p, GS_E_CMP, span(first->loc, v.v[v.n - 1]->loc));
	e->cmpops = gs_arena_alloc(p->a, nops);
	memcpy(e->cmpops, ops, nops);
	vec_to(p, &v, e, 0);
	if (e->n != nops + 1)
		e->n = nops + 1;
	return e;
}

static struct gs_expr *not_test(struct parser *p)
{
	if (peek_kind(p) == GS_TOK_NOT) {
		struct gs_loc at = peek(p)->loc;
		if (!enter(p, at))
			return error_node(p, at);
		struct gs_token t;
		take(p, &t);
		struct gs_expr *e = node(p, GS_E_NOT, t.loc);
		e->a = not_test(p);
		leave(p);
		return e;
	}
	return comparison(p);
}

/* a and b and ... / a or b or ...: left-leaning, as long as it is written */
static struct gs_expr *bool_chain(struct parser *p, int tok, int kind,
				  struct gs_expr *(*operand)(struct parser *))
{
	struct gs_expr *e = operand(p);
	for (int len = 0; peek_kind(p) == tok; len++) {
		if (len == MAX_CHAIN) {
			perr(p, peek(p)->loc, "expression too long (more than %d operators in a row)",
			     MAX_CHAIN);
			break;
		}
		struct gs_token t;
		take(p, &t);
		struct gs_expr *b = node(p, kind, t.loc);
		b->a = e;
		b->b = operand(p);
		e = b;
	}
	return e;
}

static struct gs_expr *and_test(struct parser *p)
{
	return bool_chain(p, GS_TOK_AND, GS_E_AND, not_test);
}

static struct gs_expr *or_test(struct parser *p)
{
	return bool_chain(p, GS_TOK_OR, GS_E_OR, and_test);
}

static struct gs_expr *test(struct parser *p)
{
	struct gs_expr *e = or_test(p);
	if (peek_kind(p) == GS_TOK_IF) {
		if (!enter(p, peek(p)->loc))
			return e;
		struct gs_token t;
		take(p, &t);
		struct gs_expr *c = node(p, GS_E_IFELSE, t.loc);
		c->b = e;
		c->a = or_test(p);
		expect(p, GS_TOK_ELSE, "'else'");
		c->c = test(p);
		e = c;
		leave(p);
	}
	return e;
}

/* ---- statements ----------------------------------------------------------- */

#define GROW(arr, n, cap) gs_grow(&(arr), &(cap), (n) + 1, sizeof(*(arr)))

struct caps {
	size_t files, problems, params, lets, requires, options, buffers, launches, refs, metrics;
};

/* Parse "text {EXPR} text" from a string token's source span. */
static struct gs_tmpl *template(struct parser *p, struct gs_loc loc, const char *decoded)
{
	struct gs_tmpl *t = gs_arena_alloc(p->a, sizeof(*t));
	memset(t, 0, sizeof(*t));
	t->loc = loc;
	size_t cap = 0;
	const char *src = loc.src->text;
	/* holes are located in the raw text so that their errors point there */
	size_t i = loc.off + 1, end = loc.off + loc.len - 1;
	if (!strchr(decoded, '{')) {
		t->parts = gs_arena_alloc(p->a, sizeof(*t->parts));
		t->parts[t->n++] = (struct gs_tmpl_part){ gs_arena_strdup(p->a, decoded), NULL, NULL };
		return t;
	}
	struct gs_buf lit = GS_BUF_INIT;
	while (i < end) {
		char c = src[i];
		if (c == '{' && i + 1 < end && src[i + 1] == '{') {
			gs_buf_putc(&lit, '{');
			i += 2;
		} else if (c == '}' && i + 1 < end && src[i + 1] == '}') {
			gs_buf_putc(&lit, '}');
			i += 2;
		} else if (c == '{') {
			size_t close = i + 1;
			while (close < end && src[close] != '}')
				close++;
			if (close >= end) {
				perr(p, (struct gs_loc){ loc.src, (uint32_t)i, 1 }, "unclosed '{' in text");
				break;
			}
			struct gs_expr *e = gs_parse_expr_range(p->a, loc.src, i + 1, close, p->d);
			if (!e)
				p->errors++;
			GROW(t->parts, t->n, cap);
			t->parts[t->n++] =
				(struct gs_tmpl_part){ gs_arena_strdup(p->a, gs_buf_str(&lit)), e, NULL };
			gs_buf_reset(&lit);
			i = close + 1;
		} else if (c == '\\' && i + 1 < end) {
			/* escapes were decoded by the lexer; keep the raw pair's meaning */
			char n = src[i + 1];
			gs_buf_putc(&lit, n == 'n' ? '\n' : n == 't' ? '\t' : n);
			i += 2;
		} else {
			gs_buf_putc(&lit, c);
			i++;
		}
	}
	GROW(t->parts, t->n, cap);
	t->parts[t->n++] = (struct gs_tmpl_part){ gs_arena_strdup(p->a, gs_buf_str(&lit)), NULL, NULL };
	gs_buf_release(&lit);
	struct gs_tmpl_part *pa = gs_arena_alloc(p->a, t->n * sizeof(*pa));
	memcpy(pa, t->parts, t->n * sizeof(*pa));
	free(t->parts);
	t->parts = pa;
	return t;
}

static struct gs_tmpl *string_template(struct parser *p, const char *what)
{
	struct gs_loc loc;
	char *s = take_string(p, what, &loc);
	if (!s)
		return NULL;
	return template(p, loc, s);
}

static void geometry(struct parser *p, struct gs_geom *g, struct gs_loc loc)
{
	g->loc = loc;
	g->n = 0;
	for (;;) {
		struct gs_expr *e = test(p);
		if (g->n < 3)
			g->e[g->n] = e;
		else
			perr(p, e->loc, "at most 3 dimensions (x, y, z)");
		g->n++;
		if (peek_kind(p) != GS_TOK_COMMA)
			break;
		drop(p);
	}
	if (g->n > 3)
		g->n = 3;
}

static void fill(struct parser *p, struct gs_fill *f)
{
	struct gs_loc loc;
	char *kind = take_name(p, "a fill (zero, random(...), value(...), index(...), file(...))",
			       &loc);
	f->loc = loc;
	if (!kind)
		return;
	if (!strcmp(kind, "zero")) {
		f->kind = GS_FILL_ZERO;
		return;
	}
	static const char *kinds[] = { "zero", "random", "value", "index", "file" };
	int k = -1;
	for (int i = 1; i < 5; i++)
		if (!strcmp(kind, kinds[i]))
			k = i;
	if (k < 0) {
		perr(p, loc, "unknown fill '%s'", kind);
		gs_diag_suggest(p->d, loc, kind, kinds, 5);
		return;
	}
	expect(p, GS_TOK_LPAREN, "'('");
	if (k == 1) {
		f->kind = GS_FILL_RANDOM;
		while (peek_kind(p) == GS_TOK_NAME) {
			struct gs_loc kl;
			char *kw = take_name(p, "seed, lo or hi", &kl);
			expect(p, GS_TOK_ASSIGN, "'='");
			struct gs_expr *e = test(p);
			if (!strcmp(kw, "seed"))
				f->seed = e;
			else if (!strcmp(kw, "lo"))
				f->lo = e;
			else if (!strcmp(kw, "hi"))
				f->hi = e;
			else
				perr(p, kl, "unknown argument '%s' of random() (seed, lo, hi)", kw);
			if (peek_kind(p) != GS_TOK_COMMA)
				break;
			drop(p);
		}
	} else if (k == 4) {
		f->kind = GS_FILL_FILE;
		f->path = take_string(p, "a file name", NULL);
	} else {
		f->kind = k == 2 ? GS_FILL_VALUE : GS_FILL_INDEX;
		f->value = test(p);
	}
	expect(p, GS_TOK_RPAREN, "')'");
}

static void buffer_stmt(struct parser *p, enum gs_bufkind kind, struct gs_loc kwloc,
			struct caps *caps)
{
	struct gs_space *sp = p->sp;
	struct gs_buffer b;
	memset(&b, 0, sizeof b);
	b.kind = kind;
	b.tolerance = -1;
	b.name = take_name(p, "a buffer name", &b.loc);
	if (!b.name)
		return;
	struct gs_loc tloc;
	char *type = take_name(p, "an element type (float, double, int32, uint8, ...)", &tloc);
	if (!type)
		return;
	b.type = gs_btype_lookup(type);
	if (b.type < 0) {
		perr(p, tloc, "unknown element type '%s'", type);
		const char *c[2 * GS_BT_COUNT];
		size_t n = 0;
		for (int i = 0; i < GS_BT_COUNT; i++)
			c[n++] = gs_btype_name(i);
		gs_diag_suggest(p->d, tloc, type, c, n);
		return;
	}
	expect(p, GS_TOK_LBRACKET, "'[' and an element count");
	b.count = test(p);
	expect(p, GS_TOK_RBRACKET, "']'");
	if (peek_kind(p) == GS_TOK_NAME && !peek_word(p, "tolerance"))
		fill(p, &b.fill);
	if (peek_word(p, "tolerance")) {
		struct gs_loc l = peek(p)->loc;
		drop(p);
		if (kind == GS_BUF_INPUT || kind == GS_BUF_SCRATCH)
			perr(p, l, "only output and inout buffers are checked: tolerance is not "
				   "allowed on %s", kind == GS_BUF_INPUT ? "input" : "scratch");
		b.tol = test(p);
	}
	if ((kind == GS_BUF_INPUT || kind == GS_BUF_INOUT) && b.fill.kind == GS_FILL_NONE &&
	    !p->stmt_err)
		perr(p, kwloc, "%s '%s' needs a fill (zero, random(seed=...), value(...), "
			       "index(...) or file(...))",
		     kind == GS_BUF_INPUT ? "input" : "inout", b.name);
	GROW(sp->buffers, sp->nbuffers, caps->buffers);
	sp->buffers[sp->nbuffers++] = b;
}

static void launch_stmt(struct parser *p, int reference, struct gs_loc kwloc, struct caps *caps)
{
	struct gs_space *sp = p->sp;
	struct gs_launch l;
	memset(&l, 0, sizeof l);
	l.reference = reference;
	l.file = -1;
	l.loc = kwloc;
	struct gs_loc nloc;
	l.kernel = take_name(p, "a kernel name", &nloc);
	if (!l.kernel)
		return;
	l.loc = nloc;
	expect(p, GS_TOK_LPAREN, "'(' and the kernel's arguments");
	size_t acap = 0;
	while (peek_kind(p) != GS_TOK_RPAREN && peek_kind(p) != GS_TOK_NEWLINE &&
	       peek_kind(p) != GS_TOK_EOF) {
		GROW(l.args, l.nargs, acap);
		struct gs_arg *a = &l.args[l.nargs++];
		memset(a, 0, sizeof(*a));
		a->expr = test(p);
		a->loc = a->expr->loc;
		a->buffer = -1;
		if (peek_kind(p) != GS_TOK_COMMA)
			break;
		drop(p);
	}
	expect(p, GS_TOK_RPAREN, "')'");
	size_t ccap = 0;
	for (;;) {
		const struct gs_token *t = peek(p);
		if (t->kind == GS_TOK_FOR) {
			drop(p);
			if (l.loop)
				perr(p, t->loc, "only one 'for' clause per launch");
			l.loop_var = take_name(p, "the launch index name", &l.loop_loc);
			expect(p, GS_TOK_IN, "'in'");
			l.loop = test(p);
		} else if (peek_word(p, "copy")) {
			drop(p);
			GROW(l.copies, l.ncopies, ccap);
			struct gs_copy *c = &l.copies[l.ncopies++];
			memset(c, 0, sizeof(*c));
			struct gs_expr *what = test(p);
			c->loc = what->loc;
			c->buffer = -1;
			if (what->kind == GS_E_SLICE && what->a->kind == GS_E_NAME && !what->d) {
				c->start = what->b;
				c->end = what->c;
				what = what->a;
			}
			if (what->kind != GS_E_NAME)
				perr(p, what->loc, "expected a buffer or a slice of one (BUF[start:end])");
			else
				c->bufname = what->name;
			if (!peek_word(p, "to")) {
				perr(p, peek(p)->loc, "expected 'to' and a __constant__ symbol, found %s",
				     describe(peek(p)));
			} else {
				drop(p);
				c->symbol = take_name(p, "a __constant__ symbol name", NULL);
			}
		} else if (peek_word(p, "block") || peek_word(p, "grid")) {
			int isblock = peek_word(p, "block");
			struct gs_loc gl = peek(p)->loc;
			drop(p);
			geometry(p, isblock ? &l.block : &l.grid, gl);
		} else if (peek_word(p, "shared")) {
			drop(p);
			l.shared = test(p);
		} else if (peek_word(p, "from")) {
			struct gs_loc fl = peek(p)->loc;
			drop(p);
			struct gs_loc sl;
			char *path = take_string(p, "a file name", &sl);
			if (!reference)
				perr(p, fl, "'from' is for reference launches; launches use the "
					    "kernel statement's file");
			else if (path) {
				GROW(sp->files, sp->nfiles, caps->files);
				sp->files[sp->nfiles] = (struct gs_kfile){ sl, path, NULL, 0 };
				l.file = (int)sp->nfiles++;
			}
		} else {
			break;
		}
	}
	if (reference) {
		GROW(sp->refs, sp->nrefs, caps->refs);
		sp->refs[sp->nrefs++] = l;
	} else {
		GROW(sp->launches, sp->nlaunches, caps->launches);
		sp->launches[sp->nlaunches++] = l;
	}
}

/* Each statement's parser is called after its keyword, at kwloc. */
typedef void stmt_fn(struct parser *p, struct gs_loc kwloc, struct caps *caps);

static void kernel_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	struct gs_space *sp = p->sp;
	struct gs_loc nloc;
	char *name = NULL;
	struct gs_tmpl *tmpl = NULL;
	if (peek_kind(p) == GS_TOK_STRING) {
		/* a C++ name expression: launches call it by its identifier */
		name = take_string(p, "a kernel name", &nloc);
		if (!name)
			return;
		tmpl = template(p, nloc, name);
		size_t n = 0;
		while (name[n] == '_' || (name[n] >= 'a' && name[n] <= 'z') ||
		       (name[n] >= 'A' && name[n] <= 'Z') || (n && name[n] >= '0' && name[n] <= '9'))
			n++;
		if (n == 0) {
			perr(p, nloc, "a kernel name expression starts with the kernel's name");
			return;
		}
		name = gs_arena_strndup(p->a, name, n);
	} else {
		name = take_name(p, "a kernel name", &nloc);
	}
	if (!name)
		return;
	sp->kernel_tmpl = tmpl;
	if (!peek_word(p, "from")) {
		perr(p, peek(p)->loc, "expected 'from' and the kernel's source file, found %s",
		     describe(peek(p)));
		return;
	}
	drop(p);
	struct gs_loc floc;
	char *path = take_string(p, "the kernel's source file", &floc);
	if (!path)
		return;
	if (sp->kernel) {
		perr(p, kwloc, "only one kernel statement (reference kernels take 'from')");
		return;
	}
	sp->kernel = name;
	sp->kernel_loc = nloc;
	GROW(sp->files, sp->nfiles, caps->files);
	/* file 0 is always the kernel's: move any reference file after it */
	memmove(sp->files + 1, sp->files, sp->nfiles * sizeof(*sp->files));
	sp->files[0] = (struct gs_kfile){ floc, path, NULL, 0 };
	sp->nfiles++;
	for (size_t i = 0; i < sp->nrefs; i++)
		if (sp->refs[i].file >= 0)
			sp->refs[i].file++;
}

static void problem_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	struct gs_space *sp = p->sp;
	(void)kwloc;
	struct gs_problem pr;
	memset(&pr, 0, sizeof pr);
	pr.name = take_name(p, "a problem constant name", &pr.loc);
	if (!pr.name)
		return;
	expect(p, GS_TOK_ASSIGN, "'='");
	pr.expr = test(p);
	if (peek_word(p, "emu")) {
		drop(p);
		pr.emu_expr = test(p);
	}
	GROW(sp->problems, sp->nproblems, caps->problems);
	sp->problems[sp->nproblems++] = pr;
}

static void param_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	struct gs_space *sp = p->sp;
	(void)kwloc;
	struct gs_param pa;
	memset(&pa, 0, sizeof pa);
	pa.define = 1;
	pa.name = take_name(p, "a parameter name", &pa.loc);
	if (!pa.name)
		return;
	if (!expect(p, GS_TOK_IN, "'in' and the parameter's values"))
		return;
	pa.dom_expr = test(p);
	for (;;) {
		if (peek_word(p, "option")) {
			drop(p);
			pa.option = string_template(p, "a compiler option in quotes");
			if (peek_kind(p) == GS_TOK_IF) {
				drop(p);
				pa.option_if = test(p);
			}
		} else if (peek_word(p, "nodefine")) {
			drop(p);
			pa.define = 0;
		} else {
			break;
		}
	}
	GROW(sp->params, sp->nparams, caps->params);
	sp->params[sp->nparams++] = pa;
}

static void let_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	struct gs_space *sp = p->sp;
	(void)kwloc;
	struct gs_let l;
	memset(&l, 0, sizeof l);
	l.define = 1;
	l.name = take_name(p, "a name", &l.loc);
	if (!l.name)
		return;
	expect(p, GS_TOK_ASSIGN, "'='");
	l.expr = test(p);
	if (peek_word(p, "nodefine")) {
		drop(p);
		l.define = 0;
	}
	GROW(sp->lets, sp->nlets, caps->lets);
	sp->lets[sp->nlets++] = l;
}

static void require_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	struct gs_space *sp = p->sp;
	(void)kwloc;
	struct gs_require r;
	memset(&r, 0, sizeof r);
	r.expr = test(p);
	r.loc = r.expr->loc;
	if (peek_kind(p) == GS_TOK_ELSE) {
		drop(p);
		r.msg = take_string(p, "a message in quotes", NULL);
	}
	GROW(sp->requires, sp->nrequires, caps->requires);
	sp->requires[sp->nrequires++] = r;
}

static void option_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	struct gs_space *sp = p->sp;
	(void)kwloc;
	struct gs_option o;
	memset(&o, 0, sizeof o);
	o.text = string_template(p, "a compiler option in quotes");
	if (!o.text)
		return;
	if (peek_kind(p) == GS_TOK_IF) {
		drop(p);
		o.cond = test(p);
	}
	GROW(sp->options, sp->noptions, caps->options);
	sp->options[sp->noptions++] = o;
}

static void block_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	(void)caps;
	if (p->sp->block.n)
		perr(p, kwloc, "block given twice");
	geometry(p, &p->sp->block, kwloc);
}

static void grid_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	(void)caps;
	if (p->sp->grid.n)
		perr(p, kwloc, "grid given twice");
	geometry(p, &p->sp->grid, kwloc);
}

static void shared_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	(void)caps;
	if (p->sp->shared)
		perr(p, kwloc, "shared given twice");
	p->sp->shared = test(p);
}

static void input_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	buffer_stmt(p, GS_BUF_INPUT, kwloc, caps);
}

static void output_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	buffer_stmt(p, GS_BUF_OUTPUT, kwloc, caps);
}

static void inout_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	buffer_stmt(p, GS_BUF_INOUT, kwloc, caps);
}

static void scratch_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	buffer_stmt(p, GS_BUF_SCRATCH, kwloc, caps);
}

static void kernel_launch_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	launch_stmt(p, 0, kwloc, caps);
}

static void reference_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	launch_stmt(p, 1, kwloc, caps);
}

static void baseline_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	struct gs_space *sp = p->sp;
	(void)caps;
	if (sp->baseline_exprs) {
		perr(p, kwloc, "baseline given twice");
		return;
	}
	sp->baseline_loc = kwloc;
	struct vec v = { 0 };
	size_t lcap = 0, nl = 0;
	struct gs_loc *locs = NULL;
	for (;;) {
		struct gs_loc nl_loc;
		char *n = take_name(p, "a parameter name", &nl_loc);
		if (!n)
			break;
		expect(p, GS_TOK_ASSIGN, "'='");
		vec_push(&v, test(p), n);
		gs_grow(&locs, &lcap, nl + 1, sizeof(*locs));
		locs[nl++] = nl_loc;
		if (peek_kind(p) != GS_TOK_COMMA)
			break;
		drop(p);
	}
	/* stored as a call node: items are values, kwnames the parameter names */
	struct gs_expr *e = node(p, GS_E_CALL, kwloc);
	vec_to(p, &v, e, 1);
	if (!e->kwnames && e->n) {
		e->kwnames = gs_arena_alloc(p->a, e->n * sizeof(char *));
		memset(e->kwnames, 0, e->n * sizeof(char *));
	}
	sp->baseline_exprs = gs_arena_alloc(p->a, sizeof(struct gs_expr *));
	sp->baseline_exprs[0] = e;
	sp->baseline_locs = gs_arena_alloc(p->a, (nl ? nl : 1) * sizeof(*locs));
	if (nl)
		memcpy(sp->baseline_locs, locs, nl * sizeof(*locs));
	free(locs);
}

static void metric_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	struct gs_space *sp = p->sp;
	(void)kwloc;
	struct gs_metric m;
	memset(&m, 0, sizeof m);
	m.higher = 1;
	m.name = take_name(p, "a metric name", &m.loc);
	if (!m.name)
		return;
	expect(p, GS_TOK_ASSIGN, "'='");
	m.expr = test(p);
	if (peek_word(p, "higher")) {
		drop(p);
	} else if (peek_word(p, "lower")) {
		drop(p);
		m.higher = 0;
	}
	GROW(sp->metrics, sp->nmetrics, caps->metrics);
	sp->metrics[sp->nmetrics++] = m;
}

static void timeout_stmt(struct parser *p, struct gs_loc kwloc, struct caps *caps)
{
	(void)caps;
	if (p->sp->timeout_e)
		perr(p, kwloc, "timeout given twice");
	p->sp->timeout_e = test(p);
}

/* Every statement: its keyword (in the order "did you mean" offers them) and
 * its parser. */
#define GS_STATEMENTS(X)                                                                           \
	X("kernel", kernel_stmt)                                                                   \
	X("problem", problem_stmt)                                                                 \
	X("param", param_stmt)                                                                     \
	X("let", let_stmt)                                                                         \
	X("require", require_stmt)                                                                 \
	X("option", option_stmt)                                                                   \
	X("block", block_stmt)                                                                     \
	X("grid", grid_stmt)                                                                       \
	X("shared", shared_stmt)                                                                   \
	X("input", input_stmt)                                                                     \
	X("output", output_stmt)                                                                   \
	X("inout", inout_stmt)                                                                     \
	X("scratch", scratch_stmt)                                                                 \
	X("launch", kernel_launch_stmt)                                                            \
	X("reference", reference_stmt)                                                             \
	X("baseline", baseline_stmt)                                                               \
	X("metric", metric_stmt)                                                                   \
	X("timeout", timeout_stmt)

static const char *statements[] = {
#define X(word, fn) word,
	GS_STATEMENTS(X)
#undef X
};

static stmt_fn *const statement_fns[] = {
#define X(word, fn) fn,
	GS_STATEMENTS(X)
#undef X
};

static void statement(struct parser *p, struct caps *caps)
{
	const struct gs_token *t = peek(p);
	struct gs_loc kwloc = t->loc;
	if (t->kind != GS_TOK_NAME) {
		perr(p, t->loc, "expected a statement, found %s", describe(t));
		return;
	}
	int kw = -1;
	for (int i = 0; i < (int)GS_ARRAY_SIZE(statements); i++)
		if (!strcmp(t->s, statements[i]))
			kw = i;
	if (kw < 0) {
		perr(p, t->loc, "unknown statement '%s'", t->s);
		gs_diag_suggest(p->d, t->loc, t->s, statements, GS_ARRAY_SIZE(statements));
		return;
	}
	drop(p);
	statement_fns[kw](p, kwloc, caps);
}

int gs_parse_space(struct gs_space *sp, struct gs_diag *d)
{
	struct parser p;
	memset(&p, 0, sizeof p);
	gs_lex_init(&p.lx, sp->src, d);
	p.d = d;
	p.a = &sp->arena;
	p.sp = sp;
	struct caps caps;
	memset(&caps, 0, sizeof caps);
	while (peek_kind(&p) != GS_TOK_EOF) {
		if (d->errors > 100)
			break;
		p.stmt_err = 0;
		p.depth = 0;
		if (peek_kind(&p) == GS_TOK_NEWLINE) {
			drop(&p);
			continue;
		}
		statement(&p, &caps);
		if (peek_kind(&p) != GS_TOK_NEWLINE && peek_kind(&p) != GS_TOK_EOF)
			perr(&p, peek(&p)->loc, "unexpected %s at the end of the statement",
			     describe(peek(&p)));
		while (peek_kind(&p) != GS_TOK_NEWLINE && peek_kind(&p) != GS_TOK_EOF)
			drop(&p);
	}
	gs_lex_release(&p.lx);
	return p.errors + (int)d->errors;
}

struct gs_expr *gs_parse_expr_range(struct gs_arena *a, const struct gs_source *src, size_t start,
				    size_t end, struct gs_diag *d)
{
	struct parser p;
	memset(&p, 0, sizeof p);
	gs_lex_init_range(&p.lx, src, d, start, end);
	p.d = d;
	p.a = a;
	unsigned before = d->errors;
	struct gs_expr *e = test(&p);
	if (peek_kind(&p) != GS_TOK_NEWLINE && peek_kind(&p) != GS_TOK_EOF)
		perr(&p, peek(&p)->loc, "unexpected %s after the expression", describe(peek(&p)));
	gs_lex_release(&p.lx);
	return (p.errors || d->errors != before) ? NULL : e;
}
