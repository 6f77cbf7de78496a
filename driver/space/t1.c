/* t1.c — T1 JSON (the auto-tuning community's input format) to space text.
 *
 * The translation is textual: every T1 field that has a meaning in the space
 * language becomes one statement, ending in "# t1: <JSON path>" so that an
 * error the parser finds in the generated text leads back to the JSON field.
 * Values and Conditions are Python expressions in T1 and are copied verbatim:
 * the space language's expressions are the Python subset those files use,
 * which is what makes the enumerated space the one Python would produce
 * (itertools.product over the parameters in file order, filtered by every
 * condition).
 *
 * Real T1 files stray from the schema; what is accepted beyond it:
 *   - keys in any letter case ("configurationSpace", "values"), and the
 *     older names "constraints", "blockSize", "gridSize", "length", "value",
 *     "shared_memory";
 *   - Values as a JSON array (converted to a list literal) or as a string;
 *     Type missing or unknown; numbers given as strings in sizes, scalars
 *     and defaults;
 *   - Conditions as objects with or without "Parameters", or bare strings;
 *   - the grid from ProblemSize and GridDivX/Y/Z as Kernel Tuner computes
 *     it, or from GlobalSize in blocks ("CUDA", the default for CUDA) or in
 *     threads ("OpenCL", divided by the block size, rounding up); a file
 *     that gives both launches Kernel Tuner's unless told otherwise, and the
 *     other goes to the caller, to be compared;
 *   - BenchmarkConfig constants (top level or inside KernelSpecification)
 *     and ProblemSize become problems;
 *   - Budget as an object or an array, sections for other tools (Search,
 *     verification, metadata, ...) which are reported and ignored.
 * Whatever cannot be mapped is a warning naming the field; a parameter or a
 * condition is never dropped: one that cannot be translated is an error.
 * Every field is read through get(), which knows the JSON kinds it may
 * have: a field of another kind, or a required one that is missing or
 * null, is an error naming its JSON path (null in an optional field means
 * not given, as Kernel Tuner writes it).  Strings are ASCII, as the space
 * language's are. */
#include "core/qcols.h"
#include "space/load.h"
#include "space/space.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define T1_DEPTH 16

/* One step of a JSON path: a member key (as spelled in the file) or an
 * array index. */
struct t1_step {
	const char *key; /* NULL: array index */
	size_t idx;
};

struct t1 {
	const struct gs_source *src;
	struct gs_buf *out;
	struct gs_diag *d;
	unsigned errors;
	struct t1_step path[T1_DEPTH];
	int depth;
	const char **params; /* parameter names, file order (borrowed from the JSON) */
	json_t **pvalues;    /* their Values */
	size_t nparams, capparams, capvalues;
	char **names; /* problems and buffers: every other name defined (owned) */
	size_t nnames, capnames;
	struct gs_buf pathbuf; /* path_str's result */
	enum gs_t1_grid grid;  /* the grid launched when the file gives two */
	struct gs_t1_grid_info *info; /* or NULL */
	int random_said;              /* the Random fill's difference was warned about */
};

/* ---- paths and locations ---- */

static void push_key(struct t1 *t, const char *key)
{
	if (t->depth < T1_DEPTH)
		t->path[t->depth] = (struct t1_step){ key, 0 };
	t->depth++;
}

static void push_idx(struct t1 *t, size_t idx)
{
	if (t->depth < T1_DEPTH)
		t->path[t->depth] = (struct t1_step){ NULL, idx };
	t->depth++;
}

static void pop(struct t1 *t)
{
	t->depth--;
}

static void path_put(const struct t1 *t, struct gs_buf *b)
{
	int n = t->depth < T1_DEPTH ? t->depth : T1_DEPTH;
	for (int i = 0; i < n; i++) {
		if (t->path[i].key)
			gs_buf_printf(b, "%s%s", i ? "." : "", t->path[i].key);
		else
			gs_buf_printf(b, "[%zu]", t->path[i].idx);
	}
	if (!n)
		gs_buf_puts(b, "(top level)");
}

/* The current path as text, valid until the next call. */
static const char *path_str(struct t1 *t)
{
	gs_buf_reset(&t->pathbuf);
	path_put(t, &t->pathbuf);
	return gs_buf_str(&t->pathbuf);
}

/* jansson keeps no positions, so diagnostics find their node by walking the
 * text (already known to be valid JSON) along the current path. */
static size_t skip_ws(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

static size_t skip_string(const char *s, size_t n, size_t i)
{
	for (i++; i < n && s[i] != '"'; i++)
		if (s[i] == '\\')
			i++;
	return i < n ? i + 1 : n;
}

static size_t skip_value(const char *s, size_t n, size_t i)
{
	if (i >= n)
		return n;
	if (s[i] == '"')
		return skip_string(s, n, i);
	if (s[i] == '{' || s[i] == '[') {
		int level = 0;
		while (i < n) {
			if (s[i] == '"') {
				i = skip_string(s, n, i);
				continue;
			}
			if (s[i] == '{' || s[i] == '[')
				level++;
			else if ((s[i] == '}' || s[i] == ']') && --level == 0)
				return i + 1;
			i++;
		}
		return n;
	}
	while (i < n && !strchr(",}] \t\r\n", s[i]))
		i++;
	return i;
}

enum { LOC_VALUE, LOC_KEY };

/* Location of the node at the current path (its key, or its value), or of
 * the deepest ancestor found.  Keys written with escapes are not matched. */
static struct gs_loc locate(const struct t1 *t, int what)
{
	const char *s = t->src->text;
	size_t n = t->src->len;
	size_t v = skip_ws(s, n, 0), key = v, keylen = 0;
	int depth = t->depth < T1_DEPTH ? t->depth : T1_DEPTH;
	int found = 0;
	for (int k = 0; k < depth; k++) {
		const struct t1_step *st = &t->path[k];
		size_t i = v + 1, hit = 0, hitkey = 0, hitkeylen = 0;
		int ok = 0;
		if (st->key && s[v] == '{') {
			/* the last duplicate wins, as it does in the parser */
			for (i = skip_ws(s, n, i); i < n && s[i] == '"';) {
				size_t ks = i, ke = skip_string(s, n, i);
				size_t vs = skip_ws(s, n, skip_ws(s, n, ke) + 1);
				size_t klen = strlen(st->key);
				if (ke - ks == klen + 2 && !memcmp(s + ks + 1, st->key, klen)) {
					ok = 1;
					hit = vs;
					hitkey = ks;
					hitkeylen = ke - ks;
				}
				i = skip_ws(s, n, skip_value(s, n, vs));
				if (i < n && s[i] == ',')
					i = skip_ws(s, n, i + 1);
			}
		} else if (!st->key && s[v] == '[') {
			i = skip_ws(s, n, i);
			for (size_t e = 0; i < n && s[i] != ']'; e++) {
				if (e == st->idx) {
					ok = 1;
					hit = hitkey = i;
					break;
				}
				i = skip_ws(s, n, skip_value(s, n, i));
				if (i < n && s[i] == ',')
					i = skip_ws(s, n, i + 1);
			}
		}
		if (!ok)
			break;
		v = hit;
		key = hitkey;
		keylen = hitkeylen;
		found = k + 1;
	}
	struct gs_loc loc = { t->src, (uint32_t)v, 1 };
	if (what == LOC_KEY && found > 0 && keylen) {
		loc.off = (uint32_t)key;
		loc.len = (uint32_t)keylen;
	} else if (v < n && s[v] != '{' && s[v] != '[') {
		loc.len = (uint32_t)(skip_value(s, n, v) - v);
	}
	return loc;
}

/* ---- diagnostics ---- */

static void error_at(struct t1 *t, int what, const char *fmt, ...) GS_PRINTF(3, 4);
static void error_at(struct t1 *t, int what, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gs_diag_vadd(t->d, GS_ERROR, locate(t, what), fmt, ap);
	va_end(ap);
	t->errors++;
}

static void warn_at(struct t1 *t, int what, const char *fmt, ...) GS_PRINTF(3, 4);
static void warn_at(struct t1 *t, int what, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gs_diag_vadd(t->d, GS_WARNING, locate(t, what), fmt, ap);
	va_end(ap);
}

/* "t1: cannot map X.Y; ignored" for the member `key` of the current node. */
static void warn_unmapped(struct t1 *t, const char *key, const char *why)
{
	push_key(t, key);
	if (why)
		warn_at(t, LOC_KEY, "t1: %s ignored: %s", path_str(t), why);
	else
		warn_at(t, LOC_KEY, "t1: cannot map %s; ignored", path_str(t));
	pop(t);
}

/* A jansson error's line and column (in characters, pointing at the last
 * character read) as a byte offset; the token named in "near '...'" is
 * underlined when it is found ending there. */
static struct gs_loc json_error_loc(const struct gs_source *src, const json_error_t *e)
{
	const char *s = src->text;
	size_t n = src->len, i = 0;
	for (int line = 1; line < e->line && i < n; i++)
		if (s[i] == '\n')
			line++;
	for (int col = 1; col < e->column && i < n && s[i] != '\n'; col++)
		for (i++; i < n && ((unsigned char)s[i] & 0xC0) == 0x80; i++)
			;
	struct gs_loc loc = { src, (uint32_t)(e->line < 1 ? 0 : i), 1 };
	if (strstr(e->text, "near end of file")) {
		loc.off = (uint32_t)n;
		return loc;
	}
	const char *near = strstr(e->text, "near '");
	if (near && i < n) {
		near += 6;
		size_t tl = strlen(near);
		if (tl > 1 && near[tl - 1] == '\'') {
			tl--;
			size_t end = i + 1;
			while (end < n && ((unsigned char)s[end] & 0xC0) == 0x80)
				end++;
			if (tl <= end && !memcmp(s + end - tl, near, tl)) {
				loc.off = (uint32_t)(end - tl);
				loc.len = (uint32_t)tl;
			}
		}
	}
	return loc;
}

/* ---- JSON access ---- */

/* Member `name` of obj in any letter case, or under one of the '|'-separated
 * other names in `alt`; an exact match wins.  *spelled gets the key as
 * written. */
static json_t *member(json_t *obj, const char *name, const char *alt, const char **spelled)
{
	const char *key, *best_key = NULL;
	json_t *val, *best = NULL;
	if (!json_is_object(obj))
		return NULL;
	json_object_foreach (obj, key, val) {
		int match = !strcasecmp(key, name);
		for (const char *a = alt; !match && a && *a;) {
			const char *bar = strchr(a, '|');
			size_t len = bar ? (size_t)(bar - a) : strlen(a);
			match = strlen(key) == len && !strncasecmp(key, a, len);
			a = bar ? bar + 1 : a + len;
		}
		if (match && (!best || !strcmp(key, name))) {
			best = val;
			best_key = key;
		}
	}
	if (spelled)
		*spelled = best_key;
	return best;
}

/* ---- typed access: every field a type, every mistake an error at its path ---- */

enum {
	T1_OBJ = 1,
	T1_LIST = 2,
	T1_STR = 4,
	T1_NUM = 8,
	T1_BOOL = 16,
	T1_REQ = 32, /* absent or null is an error, not "not given" */
};

static unsigned kind_of(json_t *v)
{
	if (!v)
		return 0;
	switch (json_typeof(v)) {
	case JSON_OBJECT: return T1_OBJ;
	case JSON_ARRAY: return T1_LIST;
	case JSON_STRING: return T1_STR;
	case JSON_INTEGER: case JSON_REAL: return T1_NUM;
	case JSON_TRUE: case JSON_FALSE: return T1_BOOL;
	default: return 0;
	}
}

static const char *kind_name(json_t *v)
{
	switch (kind_of(v)) {
	case T1_OBJ: return "an object";
	case T1_LIST: return "a list";
	case T1_STR: return "a string";
	case T1_NUM: return "a number";
	case T1_BOOL: return "a boolean";
	default: return "null";
	}
}

/* Is v (at the current path) of a kind in `want`?  An error saying `what` is
 * expected when not. */
static int check_kind(struct t1 *t, json_t *v, unsigned want, const char *what)
{
	if (v && (kind_of(v) & want))
		return 1;
	if (!v || json_is_null(v))
		error_at(t, LOC_VALUE, "t1: %s: %s (%s is required)", path_str(t), v ? "null" : "missing",
			 what);
	else
		error_at(t, LOC_VALUE, "t1: %s: expected %s, found %s", path_str(t), what, kind_name(v));
	return 0;
}

/* Member `name` of obj (see member()) when it is of a kind in `want`: 1, with
 * *v and *key (the key as spelled) set.  0 when it is absent or null and
 * optional.  -1 after an error at its path: required and absent or null, or
 * of another kind.  `what` is the kinds wanted, in words. */
static int get(struct t1 *t, json_t *obj, const char *name, const char *alt, unsigned want,
	       const char *what, json_t **v, const char **key)
{
	const char *k = NULL;
	json_t *m = member(obj, name, alt, &k);
	*v = NULL;
	if (key)
		*key = k ? k : name;
	if ((!m || json_is_null(m)) && !(want & T1_REQ))
		return 0;
	push_key(t, k ? k : name);
	int ok = check_kind(t, m, want, what);
	pop(t);
	if (!ok)
		return -1;
	*v = m;
	return 1;
}

/* Is `key` one of the '|'-separated names in `list` (any letter case)? */
static int key_in(const char *key, const char *list)
{
	size_t kl = strlen(key);
	for (const char *a = list; *a;) {
		const char *bar = strchr(a, '|');
		size_t len = bar ? (size_t)(bar - a) : strlen(a);
		if (len == kl && !strncasecmp(key, a, len))
			return 1;
		a = bar ? bar + 1 : a + len;
	}
	return 0;
}

/* Warn about every member of obj that is not in `known`. */
static void warn_unknown_members(struct t1 *t, json_t *obj, const char *known)
{
	const char *key;
	json_t *val;
	json_object_foreach (obj, key, val)
		if (!key_in(key, known))
			warn_unmapped(t, key, NULL);
}

/* ---- names ---- */

static const char *const python_keywords[] = {
	"False", "None",   "True",    "and",      "as",       "assert", "async",
	"await", "break",  "class",   "continue", "def",      "del",    "elif",
	"else",  "except", "finally", "for",      "from",     "global", "if",
	"import", "in",    "is",      "lambda",   "nonlocal", "not",    "or",
	"pass",  "raise",  "return",  "try",      "while",    "with",   "yield",
};

static int is_identifier(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return 0;
	return 1;
}

static int is_keyword(const char *s)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(python_keywords); i++)
		if (!strcmp(s, python_keywords[i]))
			return 1;
	return 0;
}

static int in_list(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return 1;
	return 0;
}

static int is_param(const struct t1 *t, const char *s)
{
	return in_list(t->params, t->nparams, s);
}

static int name_taken(const struct t1 *t, const char *s)
{
	return is_param(t, s) || in_list((const char *const *)t->names, t->nnames, s);
}

/* Does expression text e name a parameter (outside strings and attributes)? */
static int mentions_param(const struct t1 *t, const char *e)
{
	char quote = 0;
	for (const char *p = e; *p;) {
		if (quote) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == quote)
				quote = 0;
			p++;
		} else if (*p == '\'' || *p == '"') {
			quote = *p++;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			const char *s = p;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			if (s > e && s[-1] == '.')
				continue;
			char *word = gs_xstrndup(s, (size_t)(p - s));
			int hit = is_param(t, word);
			free(word);
			if (hit)
				return 1;
		} else if (isdigit((unsigned char)*p)) {
			while (isalnum((unsigned char)*p) || *p == '.' || *p == '_')
				p++;
		} else {
			p++;
		}
	}
	return 0;
}

static void add_name(struct t1 *t, const char *s)
{
	gs_grow(&t->names, &t->capnames, t->nnames + 1, sizeof(*t->names));
	t->names[t->nnames++] = gs_xstrdup(s);
}

/* ---- text output ---- */

static void end_stmt_note(struct t1 *t, const char *note)
{
	gs_buf_puts(t->out, "  # t1: ");
	path_put(t, t->out);
	if (note)
		gs_buf_printf(t->out, " (%s)", note);
	gs_buf_putc(t->out, '\n');
}

static void end_stmt(struct t1 *t)
{
	end_stmt_note(t, NULL);
}

/* A Python string literal the space language reads back to the same bytes. */
static void put_str_lit(struct gs_buf *b, const char *s)
{
	gs_buf_putc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '"': gs_buf_puts(b, "\\\""); break;
		case '\\': gs_buf_puts(b, "\\\\"); break;
		case '\n': gs_buf_puts(b, "\\n"); break;
		case '\t': gs_buf_puts(b, "\\t"); break;
		case '\r': gs_buf_puts(b, "\\r"); break;
		default:
			if (c < 0x20 || c == 0x7f)
				gs_buf_printf(b, "\\x%02x", c);
			else
				gs_buf_putc(b, c);
		}
	}
	gs_buf_putc(b, '"');
}

/* A float as Python's repr writes it: the shortest digits that read back to
 * the same double, positional for exponents -4..15, else 1.5e-05 style. */
static void put_double(struct gs_buf *b, double v)
{
	char tmp[40];
	if (isnan(v) || isinf(v)) {
		gs_buf_puts(b, isnan(v) ? "float('nan')" : v < 0 ? "-inf" : "inf");
		return;
	}
	int prec;
	for (prec = 0; prec < 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*e", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	/* tmp: [-]D[.DDD]e[+-]XX */
	char digits[24] = { 0 };
	size_t nd = 0;
	const char *p = tmp;
	int neg = *p == '-';
	if (neg)
		p++;
	for (; *p && *p != 'e'; p++)
		if (isdigit((unsigned char)*p))
			digits[nd++] = *p;
	int exp = atoi(p + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = 0;
	if (neg)
		gs_buf_putc(b, '-');
	if (exp >= -4 && exp < 16) {
		if (exp < 0) {
			gs_buf_puts(b, "0.");
			for (int i = -1; i > exp; i--)
				gs_buf_putc(b, '0');
			gs_buf_puts(b, digits);
		} else {
			for (int i = 0; i <= exp; i++)
				gs_buf_putc(b, (size_t)i < nd ? digits[i] : '0');
			gs_buf_putc(b, '.');
			if ((size_t)exp + 1 < nd)
				gs_buf_puts(b, digits + exp + 1);
			else
				gs_buf_putc(b, '0');
		}
	} else {
		gs_buf_putc(b, digits[0]);
		if (nd > 1)
			gs_buf_printf(b, ".%s", digits + 1);
		gs_buf_printf(b, "e%c%02d", exp < 0 ? '-' : '+', abs(exp));
	}
}

/* A JSON scalar or array as a Python literal; objects have none (-1). */
static int put_literal(struct gs_buf *b, json_t *v)
{
	size_t i;
	json_t *e;
	switch (json_typeof(v)) {
	case JSON_INTEGER: gs_buf_printf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(v)); return 0;
	case JSON_REAL: put_double(b, json_real_value(v)); return 0;
	case JSON_STRING: put_str_lit(b, json_string_value(v)); return 0;
	case JSON_TRUE: gs_buf_puts(b, "True"); return 0;
	case JSON_FALSE: gs_buf_puts(b, "False"); return 0;
	case JSON_NULL: gs_buf_puts(b, "None"); return 0;
	case JSON_ARRAY:
		gs_buf_putc(b, '[');
		json_array_foreach (v, i, e) {
			if (i)
				gs_buf_puts(b, ", ");
			if (put_literal(b, e) < 0)
				return -1;
		}
		gs_buf_putc(b, ']');
		return 0;
	default: return -1;
	}
}

/* Is s ASCII?  An error at the current path when not: the space
 * language's strings are ASCII (they are indexed by byte), and so are its
 * names. */
static int ascii_ok(struct t1 *t, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= 0x80) {
			int n = 1;
			while (n < 4 && (p[n] & 0xC0) == 0x80)
				n++;
			error_at(t, LOC_VALUE, "t1: %s: non-ASCII character '%.*s' (strings are ASCII)",
				 path_str(t), n, (const char *)p);
			return 0;
		}
	}
	return 1;
}

/* Does s hold exactly one number (the "numbers as strings" of real files)? */
static int numeric_string(const char *s, double *out)
{
	char *end;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return 0;
	/* strtod also takes "inf", "nan" and hex: JSON numbers only */
	for (const char *p = s; *p && !isspace((unsigned char)*p); p++)
		if (!strchr("0123456789+-.eE", *p))
			return 0;
	double v = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return 0;
	if (out)
		*out = v;
	return 1;
}

/* An expression copied from a JSON string onto one line: line breaks become
 * spaces (a backslash continuation included), and brackets must balance, or
 * the statement would swallow the lines after it.  Returns NULL (after an
 * error at the current path) when the text cannot be a single expression. */
static char *expr_text(struct t1 *t, const char *s)
{
	struct gs_buf b = GS_BUF_INIT;
	char stack[64];
	int level = 0, bad = 0;
	char quote = 0;
	while (isspace((unsigned char)*s))
		s++;
	for (const char *p = s; *p; p++) {
		char c = *p;
		if (c == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))) {
			p += p[1] == '\r' ? 2 : 1;
			gs_buf_putc(&b, ' ');
			continue;
		}
		if (c == '\n' || c == '\r' || c == '\t') {
			gs_buf_putc(&b, ' ');
			continue;
		}
		if (!quote && c == '#')
			break; /* a comment runs to the end, in Python too */
		gs_buf_putc(&b, c);
		if (quote) {
			if (c == '\\' && p[1] && p[1] != '\n')
				gs_buf_putc(&b, *++p);
			else if (c == quote)
				quote = 0;
			continue;
		}
		if (c == '\'' || c == '"') {
			quote = c;
		} else if (c == '(' || c == '[' || c == '{') {
			if (level < (int)sizeof stack)
				stack[level] = c == '(' ? ')' : c == '[' ? ']' : '}';
			level++;
		} else if (c == ')' || c == ']' || c == '}') {
			if (level == 0 || (level <= (int)sizeof stack && stack[level - 1] != c))
				bad = 1;
			else
				level--;
		}
	}
	while (b.len && b.p[b.len - 1] == ' ')
		b.p[--b.len] = 0;
	if (!b.len) {
		error_at(t, LOC_VALUE, "t1: %s: empty (an expression is required)", path_str(t));
	} else if (quote) {
		error_at(t, LOC_VALUE, "t1: unterminated string in %s", path_str(t));
	} else if (bad || level) {
		error_at(t, LOC_VALUE, "t1: unbalanced brackets in %s", path_str(t));
	} else if (ascii_ok(t, gs_buf_str(&b))) { /* a comment, already cut, may be in any script */
		return gs_buf_detach(&b);
	}
	gs_buf_release(&b);
	return NULL;
}

/* Does the expression text need no parentheses inside a larger expression:
 * a name, a non-negative number, or a name subscripted by a number? */
static int is_atom(const char *s)
{
	const char *b = strchr(s, '[');
	if (b && b[1] && s[strlen(s) - 1] == ']') {
		for (const char *p = b + 1; *p != ']'; p++)
			if (!isdigit((unsigned char)*p))
				return 0;
		char *name = gs_xstrndup(s, (size_t)(b - s));
		int ok = is_identifier(name);
		free(name);
		return ok;
	}
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '.' && *s != '_')
			return 0;
	return 1;
}

/* A size or value field as expression text: strings are expressions,
 * numbers are numbers.  NULL (after a diagnostic) otherwise. */
static char *scalar_expr(struct t1 *t, json_t *v)
{
	struct gs_buf b = GS_BUF_INIT;
	if (json_is_string(v))
		return expr_text(t, json_string_value(v));
	if (json_is_number(v) || json_is_boolean(v)) {
		put_literal(&b, v);
		return gs_buf_detach(&b);
	}
	check_kind(t, v, T1_NUM | T1_STR | T1_BOOL, "a number or an expression string");
	return NULL;
}

/* ---- configuration space ---- */

struct t1_param {
	const char *name;
	json_t *obj, *values, *deflt;
	const char *values_key, *default_key;
};

/* Parameter names, gathered first so that problems can yield to them. */
static void collect_params(struct t1 *t, json_t *tps)
{
	size_t i;
	json_t *p;
	json_array_foreach (tps, i, p) {
		json_t *name = member(p, "Name", NULL, NULL);
		if (json_is_string(name) && !is_param(t, json_string_value(name))) {
			gs_grow(&t->params, &t->capparams, t->nparams + 1, sizeof(*t->params));
			gs_grow(&t->pvalues, &t->capvalues, t->nparams + 1, sizeof(*t->pvalues));
			json_t *vals = member(p, "Values", NULL, NULL);
			t->pvalues[t->nparams] = kind_of(vals) & (T1_STR | T1_LIST) ? vals : NULL;
			t->params[t->nparams++] = json_string_value(name);
		}
	}
}

static const char *const known_types = "int|uint|float|double|bool|string|int8|uint8|int16|"
				       "uint16|int32|uint32|int64|uint64";

/* One TuningParameter → "param NAME in VALUES".  Returns 0 or -1. */
static int emit_param(struct t1 *t, json_t *p, struct t1_param *out, const char **seen,
		      size_t nseen)
{
	const char *key;
	memset(out, 0, sizeof(*out));
	json_t *name, *type, *values;
	if (!check_kind(t, p, T1_OBJ, "an object with Name and Values"))
		return -1;
	if (get(t, p, "Name", NULL, T1_STR | T1_REQ, "a string", &name, &key) < 0)
		return -1;
	push_key(t, key);
	const char *n = json_string_value(name);
	int bad = 1;
	if (!is_identifier(n))
		error_at(t, LOC_VALUE, "t1: parameter name '%s' is not an identifier", n);
	else if (is_keyword(n))
		error_at(t, LOC_VALUE, "t1: parameter name '%s' is a Python keyword", n);
	else if (gs_qfield_reserved(n))
		error_at(t, LOC_VALUE, "t1: parameter name '%s' is reserved: results have a field of "
			 "that name", n);
	else if (in_list(seen, nseen, n))
		error_at(t, LOC_VALUE, "t1: duplicate parameter '%s'", n);
	else
		bad = 0;
	pop(t);
	if (bad)
		return -1;
	out->name = n;
	out->obj = p;
	int rc = 0;
	if (get(t, p, "Default", NULL, T1_NUM | T1_STR | T1_BOOL, "a number, a string or a boolean",
		&out->deflt, &out->default_key) < 0)
		rc = -1;

	if (get(t, p, "Type", NULL, T1_STR, "a type name", &type, &key) < 0) {
		rc = -1;
	} else if (type && !key_in(json_string_value(type), known_types)) {
		push_key(t, key);
		warn_at(t, LOC_VALUE, "t1: unknown parameter type in %s; values used as given",
			path_str(t));
		pop(t);
	}

	if (get(t, p, "Values", NULL, T1_LIST | T1_STR | T1_REQ,
		"a list of values or an expression string", &values, &key) < 0)
		return -1;
	out->values = values;
	out->values_key = key;
	push_key(t, key);
	if (json_is_string(values)) {
		char *e = expr_text(t, json_string_value(values));
		if (e) {
			gs_buf_printf(t->out, "param %s in %s", n, e);
			end_stmt(t);
			free(e);
		} else {
			rc = -1;
		}
	} else if (json_is_array(values)) {
		struct gs_buf lit = GS_BUF_INIT;
		size_t i;
		json_t *v;
		int warned = 0;
		if (!json_array_size(values)) {
			error_at(t, LOC_VALUE, "t1: %s: empty list (a parameter needs at least one value)",
				 path_str(t));
			rc = -1;
		} else {
			json_array_foreach (values, i, v) {
				push_idx(t, i);
				if (!json_is_null(v) && !check_kind(t, v, T1_NUM | T1_STR | T1_BOOL | T1_LIST,
								    "a number, a string or a boolean"))
					rc = -1;
				else if (json_is_string(v) && !ascii_ok(t, json_string_value(v)))
					rc = -1;
				pop(t);
			}
			if (rc == 0 && put_literal(&lit, values) < 0) {
				error_at(t, LOC_VALUE, "t1: values of '%s' must be numbers, strings or booleans",
					 n);
				rc = -1;
			}
		}
		json_array_foreach (values, i, v) {
			if (!warned && json_is_string(v) && numeric_string(json_string_value(v), NULL)) {
				push_idx(t, i);
				warn_at(t, LOC_VALUE, "t1: value \"%s\" of '%s' is a string, as in Python; "
					"write it without quotes for a number", json_string_value(v), n);
				pop(t);
				warned = 1;
			}
		}
		if (rc == 0) {
			gs_buf_printf(t->out, "param %s in %s", n, gs_buf_str(&lit));
			end_stmt(t);
		}
		gs_buf_release(&lit);
	}
	pop(t);
	warn_unknown_members(t, p, "Name|Type|Values|Default");
	return rc;
}

/* The values of a parameter when they are literal (a JSON array, or a string
 * that is also valid JSON), for checking the default; NULL if not known
 * without evaluating Python.  The caller decrefs. */
static json_t *literal_values(json_t *values)
{
	if (json_is_array(values))
		return json_incref(values);
	if (json_is_string(values)) {
		json_t *v = json_loads(json_string_value(values), 0, NULL);
		if (json_is_array(v))
			return v;
		json_decref(v);
	}
	return NULL;
}

static int same_value(json_t *a, json_t *b)
{
	/* Python: 1 == 1.0 == True */
	int an = json_is_number(a) || json_is_boolean(a), bn = json_is_number(b) || json_is_boolean(b);
	if (an && bn) {
		double x = json_is_boolean(a) ? json_is_true(a) : json_number_value(a);
		double y = json_is_boolean(b) ? json_is_true(b) : json_number_value(b);
		return x == y;
	}
	return json_equal(a, b);
}

/* Defaults of every parameter → "baseline": the configuration the file's
 * authors picked.  Skipped (with a warning) when some parameter has none or a
 * default is not among its values. */
static void emit_baseline(struct t1 *t, const char *tps_key, struct t1_param *ps, size_t n)
{
	size_t with = 0;
	for (size_t i = 0; i < n; i++)
		with += ps[i].deflt != NULL;
	if (!with)
		return;
	struct gs_buf b = GS_BUF_INIT;
	gs_buf_puts(&b, "baseline ");
	push_key(t, tps_key);
	for (size_t i = 0; i < n; i++) {
		push_idx(t, i);
		if (!ps[i].deflt) {
			warn_at(t, LOC_VALUE, "t1: parameter '%s' has no Default; no baseline", ps[i].name);
			pop(t);
			goto out;
		}
		push_key(t, ps[i].default_key);
		json_t *dv = ps[i].deflt, *conv = NULL;
		json_t *vals = literal_values(ps[i].values);
		json_t *type = member(ps[i].obj, "Type", NULL, NULL);
		double num;
		/* "16" for a numeric parameter is a number written as a string */
		if (json_is_string(dv) && numeric_string(json_string_value(dv), &num)) {
			int numeric = json_is_string(type) &&
				      key_in(json_string_value(type), "int|uint|float|double|int32|uint32|int64|uint64");
			if (vals && json_array_size(vals))
				numeric = json_is_number(json_array_get(vals, 0));
			if (numeric) {
				conv = num == (double)(json_int_t)num && !strpbrk(json_string_value(dv), ".eE")
					       ? json_integer((json_int_t)num)
					       : json_real(num);
				dv = conv;
			}
		}
		int ok = 1;
		if (vals) {
			/* the value as the space holds it: 1 for a default of 1.0 */
			size_t k;
			json_t *v;
			ok = 0;
			json_array_foreach (vals, k, v) {
				if (same_value(v, dv)) {
					dv = v;
					ok = 1;
					break;
				}
			}
		}
		struct gs_buf lit = GS_BUF_INIT;
		if (!json_is_array(dv) && put_literal(&lit, dv) < 0)
			ok = -1;
		if (ok <= 0)
			warn_at(t, LOC_VALUE, ok < 0 ? "t1: Default of '%s' is not a value; no baseline"
						     : "t1: Default of '%s' is not one of its values; no baseline",
				ps[i].name);
		else
			gs_buf_printf(&b, "%s%s=%s", i ? ", " : "", ps[i].name, gs_buf_str(&lit));
		gs_buf_release(&lit);
		json_decref(vals);
		json_decref(conv);
		pop(t);
		pop(t);
		if (ok <= 0)
			goto out;
	}
	gs_buf_puts(t->out, gs_buf_str(&b));
	gs_buf_puts(t->out, "  # t1: ");
	path_put(t, t->out);
	gs_buf_printf(t->out, "[*].%s\n", ps[0].default_key);
out:
	pop(t);
	gs_buf_release(&b);
}

/* One Condition → "require EXPRESSION".  Returns 0 or -1. */
static int emit_condition(struct t1 *t, json_t *c)
{
	const char *key = NULL;
	json_t *expr = c;
	if (!check_kind(t, c, T1_OBJ | T1_STR, "an object with an Expression, or an expression string"))
		return -1;
	if (json_is_object(c)) {
		json_t *ps;
		int bad = get(t, c, "Parameters", NULL, T1_LIST, "a list of parameter names", &ps, &key) < 0;
		if (ps) {
			size_t i;
			json_t *p;
			push_key(t, key);
			json_array_foreach (ps, i, p) {
				push_idx(t, i);
				if (!check_kind(t, p, T1_STR, "a parameter name"))
					bad = 1;
				else if (!name_taken(t, json_string_value(p)))
					warn_at(t, LOC_VALUE, "t1: %s names no parameter", path_str(t));
				pop(t);
			}
			pop(t);
		}
		warn_unknown_members(t, c, "Expression|Parameters");
		if (get(t, c, "Expression", NULL, T1_STR | T1_REQ, "an expression string", &expr, &key) < 0 ||
		    bad)
			return -1;
		push_key(t, key);
	}
	int rc = -1;
	{
		char *e = expr_text(t, json_string_value(expr));
		if (e) {
			gs_buf_printf(t->out, "require %s", e);
			end_stmt(t);
			free(e);
			rc = 0;
		}
	}
	if (json_is_object(c))
		pop(t);
	return rc;
}

/* Constants of a BenchmarkConfig object → "problem NAME = VALUE". */
static void emit_problems(struct t1 *t, json_t *cfg)
{
	const char *key;
	json_t *v;
	if (!check_kind(t, cfg, T1_OBJ, "an object of named constants"))
		return;
	json_object_foreach (cfg, key, v) {
		push_key(t, key);
		if (!is_identifier(key) || is_keyword(key)) {
			warn_at(t, LOC_KEY, "t1: %s is not a usable name; ignored", path_str(t));
		} else if (is_param(t, key)) {
			warn_at(t, LOC_KEY, "t1: %s is also a parameter, which takes precedence; ignored",
				path_str(t));
		} else if (name_taken(t, key)) {
			warn_at(t, LOC_KEY, "t1: %s is defined twice; ignored", path_str(t));
		} else if (json_is_number(v) || json_is_boolean(v)) {
			gs_buf_printf(t->out, "problem %s = ", key);
			put_literal(t->out, v);
			end_stmt(t);
			add_name(t, key);
		} else if (json_is_string(v) && numeric_string(json_string_value(v), NULL)) {
			char *e = expr_text(t, json_string_value(v));
			gs_buf_printf(t->out, "problem %s = %s", key, e);
			end_stmt(t);
			free(e);
			add_name(t, key);
		} else {
			warn_at(t, LOC_KEY, "t1: cannot map %s (not a number); ignored", path_str(t));
		}
		pop(t);
	}
}

/* ---- kernel specification ---- */

struct t1_dims {
	char *e[3]; /* X, Y, Z as expression text; NULL when absent */
	int n;      /* dimensions given (highest present + 1) */
};

static void dims_release(struct t1_dims *d)
{
	for (int i = 0; i < 3; i++)
		free(d->e[i]);
}

/* LocalSize/GlobalSize {X, Y, Z}.  Returns 0, or -1 when unusable. */
static int read_dims(struct t1 *t, json_t *obj, struct t1_dims *out)
{
	static const char *const axis[] = { "X", "Y", "Z" };
	memset(out, 0, sizeof(*out));
	if (!check_kind(t, obj, T1_OBJ, "an object with X, Y, Z"))
		return -1;
	int rc = 0;
	for (int i = 0; i < 3; i++) {
		const char *key;
		json_t *v = member(obj, axis[i], NULL, &key);
		if (!v || json_is_null(v))
			continue;
		push_key(t, key);
		out->e[i] = scalar_expr(t, v);
		if (!out->e[i])
			rc = -1;
		pop(t);
		out->n = i + 1;
	}
	for (int i = 0; i < out->n; i++)
		if (!out->e[i])
			out->e[i] = gs_xstrdup("1");
	if (!out->n && !rc) {
		error_at(t, LOC_VALUE, "t1: %s: no X, Y or Z (at least X is required)", path_str(t));
		rc = -1;
	}
	warn_unknown_members(t, obj, "X|Y|Z");
	return rc;
}

/* ceil(g / l) in integers, parenthesized as little as reads clearly. */
static void put_ceil_div(struct gs_buf *b, const char *g, const char *l)
{
	if (!strcmp(l, "1")) {
		gs_buf_puts(b, g);
		return;
	}
	int ga = is_atom(g), la = is_atom(l);
	gs_buf_printf(b, "(%s%s%s + %s%s%s - 1) // %s%s%s", ga ? "" : "(", g, ga ? "" : ")", la ? "" : "(",
		      l, la ? "" : ")", la ? "" : "(", l, la ? "" : ")");
}

struct t1_type {
	const char *t1, *space;
	int lanes;
};

/* T1 argument types (and those of older files) → element type and lanes per
 * element: a float4 buffer is a float buffer four times as long. */
static const struct t1_type arg_types[] = {
	{ "bool", "uint8", 1 },    { "int8", "int8", 1 },      { "uint8", "uint8", 1 },
	{ "int16", "int16", 1 },   { "uint16", "uint16", 1 },  { "int32", "int32", 1 },
	{ "uint32", "uint32", 1 }, { "int64", "int64", 1 },    { "uint64", "uint64", 1 },
	{ "float", "float", 1 },   { "float2", "float", 2 },   { "float3", "float", 3 },
	{ "float4", "float", 4 },  { "float8", "float", 8 },   { "float16", "float", 16 },
	{ "double", "double", 1 }, { "double2", "double", 2 }, { "double3", "double", 3 },
	{ "double4", "double", 4 }, { "double8", "double", 8 }, { "double16", "double", 16 },
	{ "int", "int32", 1 },     { "uint", "uint32", 1 },    { "byte", "int8", 1 },
	{ "char", "int8", 1 },     { "uchar", "uint8", 1 },    { "short", "int16", 1 },
	{ "ushort", "uint16", 1 }, { "long", "int64", 1 },     { "ulong", "uint64", 1 },
};

static const struct t1_type *find_type(const char *s)
{
	for (size_t i = 0; s && i < GS_ARRAY_SIZE(arg_types); i++)
		if (!strcasecmp(arg_types[i].t1, s))
			return &arg_types[i];
	return NULL;
}

static int is_float_type(const char *space)
{
	return !strcmp(space, "float") || !strcmp(space, "double");
}

/* A fill or scalar value of element type `space` as expression text. */
static char *value_expr(struct t1 *t, json_t *v, const char *space)
{
	struct gs_buf b = GS_BUF_INIT;
	double num;
	if (json_is_string(v) && numeric_string(json_string_value(v), &num)) {
		json_t *n = strpbrk(json_string_value(v), ".eE") ? json_real(num) : json_integer((json_int_t)num);
		char *r = value_expr(t, n, space);
		json_decref(n);
		return r;
	}
	if (json_is_string(v))
		return expr_text(t, json_string_value(v));
	if (json_is_boolean(v)) {
		gs_buf_puts(&b, json_is_true(v) ? "1" : "0");
	} else if (json_is_integer(v)) {
		if (is_float_type(space))
			put_double(&b, (double)json_integer_value(v));
		else
			put_literal(&b, v);
	} else if (json_is_real(v)) {
		double x = json_real_value(v);
		if (is_float_type(space)) {
			put_double(&b, x);
		} else if (x == floor(x) && fabs(x) < 9.2e18) {
			gs_buf_printf(&b, "%lld", (long long)x);
		} else {
			error_at(t, LOC_VALUE, "t1: %s: expected an integer, as its type needs", path_str(t));
			return NULL;
		}
	} else {
		check_kind(t, v, T1_NUM | T1_STR | T1_BOOL, "a number or an expression string");
		return NULL;
	}
	return gs_buf_detach(&b);
}

/* FillType/FillValue/DataSource/RandomSeed → the space language's FILL, or
 * "" when the file gives none (zero for inputs). NULL: cannot be mapped. */
static char *fill_expr(struct t1 *t, json_t *a, size_t index, const char *space)
{
	const char *key, *vkey;
	json_t *ft = member(a, "FillType", NULL, &key);
	json_t *fv = member(a, "FillValue", "value", &vkey);
	struct gs_buf b = GS_BUF_INIT;
	const char *kind = json_string_value(ft); /* types checked by emit_argument */
	char *v;
	if (json_is_null(fv))
		fv = NULL;
	if (!kind)
		kind = fv ? "Constant" : "uninitialized";
	if (!strcasecmp(kind, "Constant")) {
		if (!fv)
			return gs_xstrdup("zero");
		push_key(t, vkey);
		v = value_expr(t, fv, space);
		pop(t);
		if (!v)
			return NULL;
		gs_buf_printf(&b, "value(%s)", v);
		free(v);
	} else if (!strcasecmp(kind, "Random")) {
		json_t *seed = member(a, "RandomSeed", NULL, NULL);
		/* the values differ from Kernel Tuner's: say so, once a file */
		if (!t->random_said++) {
			push_key(t, key);
			warn_at(t, LOC_VALUE, "t1: %s: Random becomes uniform values from gsearch's own "
				"generator (random(), up to FillValue when given): not the values "
				"Kernel Tuner draws (a normal distribution)", path_str(t));
			pop(t);
		}
		/* each buffer its own stream, the same on every run */
		gs_buf_printf(&b, "random(seed=%" JSON_INTEGER_FORMAT,
			      json_is_integer(seed) ? json_integer_value(seed) : (json_int_t)index + 1);
		if (fv) {
			push_key(t, vkey);
			v = value_expr(t, fv, space);
			pop(t);
			if (!v) {
				gs_buf_release(&b);
				return NULL;
			}
			gs_buf_printf(&b, ", hi=%s", v);
			free(v);
		}
		gs_buf_putc(&b, ')');
	} else if (!strcasecmp(kind, "Generator") || !strcasecmp(kind, "BinaryRaw")) {
		json_t *ds = member(a, "DataSource", NULL, &key);
		if (!json_is_string(ds)) {
			push_key(t, "DataSource");
			error_at(t, LOC_VALUE, "t1: %s: missing (a %s fill needs its source)", path_str(t),
				 kind);
			pop(t);
			return NULL;
		}
		if (!strcasecmp(kind, "BinaryRaw")) {
			gs_buf_puts(&b, "file(");
			put_str_lit(&b, json_string_value(ds));
		} else {
			push_key(t, key);
			v = expr_text(t, json_string_value(ds));
			pop(t);
			if (!v)
				return NULL;
			gs_buf_printf(&b, "index(%s", v);
			free(v);
		}
		gs_buf_putc(&b, ')');
	} else if (!strcasecmp(kind, "uninitialized")) {
		return gs_xstrdup("");
	} else {
		push_key(t, key);
		warn_at(t, LOC_VALUE, "t1: cannot map %s '%s'", path_str(t), kind);
		pop(t);
		return NULL;
	}
	return gs_buf_detach(&b);
}

static int truthy(json_t *v)
{
	return json_is_true(v) || (json_is_integer(v) && json_integer_value(v)) ||
	       (json_is_string(v) && key_in(json_string_value(v), "1|true|yes"));
}

/* A buffer size as Kernel Tuner evaluates it: with each parameter's name
 * bound to the list of its values (as in "ProblemSize[0]+max(filter_width)-1"),
 * since a buffer is allocated once for all configurations. */
static char *subst_params(struct t1 *t, const char *e)
{
	struct gs_buf b = GS_BUF_INIT;
	char quote = 0;
	for (const char *p = e; *p;) {
		if (quote) {
			if (*p == '\\' && p[1])
				gs_buf_putc(&b, *p++);
			else if (*p == quote)
				quote = 0;
			gs_buf_putc(&b, *p++);
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
			gs_buf_putc(&b, *p++);
		} else if (isalnum((unsigned char)*p) || *p == '_') {
			const char *s = p;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			char *word = gs_xstrndup(s, (size_t)(p - s));
			size_t k;
			for (k = 0; k < t->nparams; k++)
				if (!strcmp(t->params[k], word))
					break;
			int attr = s > e && s[-1] == '.';
			if (k < t->nparams && !attr && !isdigit((unsigned char)*s)) {
				json_t *v = t->pvalues[k];
				gs_buf_putc(&b, '(');
				if (!v) /* no usable Values: emit_param says so */
					gs_buf_puts(&b, word);
				else if (json_is_string(v))
					for (const char *q = json_string_value(v); *q; q++)
						gs_buf_putc(&b, *q == '\n' || *q == '\r' ? ' ' : *q);
				else if (put_literal(&b, v) < 0)
					gs_buf_puts(&b, word);
				gs_buf_putc(&b, ')');
			} else {
				gs_buf_puts(&b, word);
			}
			free(word);
		} else {
			gs_buf_putc(&b, *p++);
		}
	}
	return gs_buf_detach(&b);
}

/* Every field's type first: one mistyped is an error whether or not this
 * argument's kind reads it.  -1 after errors; else *mt, *ty (its key in
 * *tykey) and *nm. */
static int check_argument(struct t1 *t, json_t *a, json_t **mt, json_t **ty, const char **tykey,
			  json_t **nm)
{
	json_t *unused;
	int bad = get(t, a, "MemoryType", NULL, T1_STR, "\"Vector\", \"Scalar\" or \"Symbol\"", mt,
		      NULL) < 0;
	bad |= get(t, a, "Type", NULL, T1_STR | T1_REQ, "a type name", ty, tykey) < 0;
	bad |= get(t, a, "Name", NULL, T1_STR, "a string", nm, NULL) < 0;
	bad |= get(t, a, "Size", "length", T1_NUM | T1_STR, "a number or an expression string", &unused,
		   NULL) < 0;
	bad |= get(t, a, "TypeSize", NULL, T1_NUM | T1_STR, "a number", &unused, NULL) < 0;
	bad |= get(t, a, "FillType", NULL, T1_STR, "a fill type name", &unused, NULL) < 0;
	bad |= get(t, a, "FillValue", "value", T1_NUM | T1_STR | T1_BOOL, "a number or an expression string",
		   &unused, NULL) < 0;
	bad |= get(t, a, "DataSource", NULL, T1_STR, "a file name or an expression string", &unused,
		   NULL) < 0;
	bad |= get(t, a, "RandomSeed", NULL, T1_NUM, "an integer", &unused, NULL) < 0;
	if (unused && !json_is_integer(unused)) {
		push_key(t, "RandomSeed");
		error_at(t, LOC_VALUE, "t1: %s: expected an integer, found a real number", path_str(t));
		pop(t);
		bad = 1;
	}
	bad |= get(t, a, "AccessType", NULL, T1_STR, "\"ReadOnly\", \"WriteOnly\" or \"ReadWrite\"",
		   &unused, NULL) < 0;
	bad |= get(t, a, "MemType", NULL, T1_STR, "a string", &unused, NULL) < 0;
	bad |= get(t, a, "Output", NULL, T1_BOOL | T1_NUM | T1_STR, "a boolean", &unused, NULL) < 0;
	warn_unknown_members(t, a,
			     "Name|Type|Size|length|TypeSize|FillType|FillValue|value|DataSource|"
			     "RandomSeed|AccessType|MemoryType|MemType|Output");
	return bad ? -1 : 0;
}

/* Warns of a TypeSize other than the type's and of a MemType other than
 * Global or Constant, which the mapping does not honour; whether MemType
 * is Constant. */
static int check_sizes(struct t1 *t, json_t *a, json_t *ty, const struct t1_type *type)
{
	const char *tskey;
	json_t *ts = member(a, "TypeSize", NULL, &tskey);
	double tsv;
	unsigned esize = gs_btype_size(gs_btype_lookup(type->space)) * (unsigned)type->lanes;
	if ((json_is_number(ts) || (json_is_string(ts) && numeric_string(json_string_value(ts), NULL))) &&
	    (tsv = json_is_number(ts) ? json_number_value(ts) : strtod(json_string_value(ts), NULL)) !=
		    (double)esize) {
		push_key(t, tskey);
		warn_at(t, LOC_VALUE, "t1: %s is %g bytes, but a %s is %u; the size of the type is used",
			path_str(t), tsv, json_string_value(ty), esize);
		pop(t);
	}
	const char *mtkey;
	json_t *mtype = member(a, "MemType", NULL, &mtkey);
	int constant = json_is_string(mtype) && !strcasecmp(json_string_value(mtype), "Constant");
	if (json_is_string(mtype) && !constant && strcasecmp(json_string_value(mtype), "Global")) {
		push_key(t, mtkey);
		warn_at(t, LOC_VALUE, "t1: cannot honour %s '%s': the argument is in global memory",
			path_str(t), json_string_value(mtype));
		pop(t);
	}
	return constant;
}

/* A scalar argument: its launch argument text, and for a constant, a
 * one-element buffer copied to the __constant__ variable of its name.
 * -1 when it cannot be mapped. */
static int emit_scalar(struct t1 *t, json_t *a, json_t *ty, const struct t1_type *type,
		       const char *name, int constant, struct gs_buf *args, struct gs_buf *clauses)
{
	const char *key;
	json_t *fv = member(a, "FillValue", "value", &key);
	if (json_is_null(fv))
		fv = NULL;
	if (type->lanes != 1) {
		warn_at(t, LOC_VALUE, "t1: cannot map %s: a %s scalar", path_str(t), json_string_value(ty));
		return -1;
	}
	if (!fv) {
		push_key(t, "FillValue");
		error_at(t, LOC_VALUE, "t1: %s: missing (a scalar argument's value is required)",
			 path_str(t));
		pop(t);
		return -1;
	}
	push_key(t, key);
	char *v = value_expr(t, fv, type->space);
	pop(t);
	if (!v)
		return -1;
	if (args->len)
		gs_buf_puts(args, ", ");
	/* int → int32 and float → float32 are the defaults of launch args */
	if (!strcmp(type->space, "int32") && is_atom(v) && !strpbrk(v, ".eE"))
		gs_buf_puts(args, v);
	else
		gs_buf_printf(args, "%s(%s)", type->space, v);
	if (constant) {
		/* Kernel Tuner also copies it into the __constant__
		 * variable of its name: from a one-element buffer here */
		if (!name || !is_identifier(name) || is_keyword(name) || name_taken(t, name)) {
			warn_at(t, LOC_VALUE, "t1: cannot map %s: a constant needs a usable Name",
				path_str(t));
			free(v);
			return -1;
		}
		gs_buf_printf(t->out, "input %s %s[1] value(%s)", name, type->space, v);
		end_stmt(t);
		add_name(t, name);
		gs_buf_printf(clauses, " copy %s to %s", name, name);
	}
	free(v);
	return 0;
}

/* A vector or symbol's element count, parameters substituted; NULL when
 * it cannot be mapped. */
static char *vector_count(struct t1 *t, json_t *a, int symbol)
{
	const char *key;
	json_t *size = member(a, "Size", "length", &key);
	if (json_is_null(size))
		size = NULL;
	if (size) {
		push_key(t, key);
		char *count = scalar_expr(t, size);
		pop(t);
		if (!count)
			return NULL;
		char *sub = subst_params(t, count);
		free(count);
		return sub;
	}
	if (symbol)
		return gs_xstrdup("1");
	push_key(t, "Size");
	error_at(t, LOC_VALUE, "t1: %s: missing (a vector argument's length is required)",
		 path_str(t));
	pop(t);
	return NULL;
}

/* The buffer's kind from AccessType and Output. */
static const char *buffer_kind(json_t *a)
{
	json_t *acc = member(a, "AccessType", NULL, NULL);
	const char *access = json_is_string(acc) ? json_string_value(acc) : "ReadOnly";
	json_t *outflag = member(a, "Output", NULL, NULL);
	int writes = !strcasecmp(access, "WriteOnly") || !strcasecmp(access, "ReadWrite");
	if (outflag && !truthy(outflag))
		return writes ? "scratch" : "input";
	if (!strcasecmp(access, "WriteOnly"))
		return "output";
	if (writes || truthy(outflag))
		return "inout";
	return "input";
}

/* A vector or symbol argument: its buffer statement, and its launch
 * argument or copy clause.  -1 when it cannot be mapped. */
static int emit_vector(struct t1 *t, json_t *a, size_t index, json_t *nm,
		       const struct t1_type *type, const char *mem, int constant,
		       struct gs_buf *args, struct gs_buf *clauses)
{
	const char *name = json_string_value(nm);
	int symbol = !strcasecmp(mem, "Symbol");

	/* the buffer's name: positional in the launch, so any free name will do */
	char gen[32];
	if (!name || !is_identifier(name) || is_keyword(name) || name_taken(t, name)) {
		snprintf(gen, sizeof gen, "arg%zu", index);
		for (int k = 2; name_taken(t, gen); k++)
			snprintf(gen, sizeof gen, "arg%zu_%d", index, k);
		if (name)
			warn_at(t, LOC_VALUE, "t1: argument name '%s' is not usable here; called '%s'", name, gen);
		name = gen;
	}
	if (symbol && name != json_string_value(nm)) {
		warn_at(t, LOC_VALUE, "t1: cannot map %s: a symbol needs its name", path_str(t));
		return -1;
	}

	char *count = vector_count(t, a, symbol);
	if (!count)
		return -1;
	char *fill = fill_expr(t, a, index, type->space);
	if (!fill) {
		free(count);
		return -1;
	}
	const char *kind = buffer_kind(a);
	if (!*fill && strcmp(kind, "output") && strcmp(kind, "scratch")) {
		free(fill);
		fill = gs_xstrdup("zero");
	}

	gs_buf_printf(t->out, "%s %s %s[", kind, name, type->space);
	if (type->lanes == 1)
		gs_buf_puts(t->out, count);
	else if (is_atom(count))
		gs_buf_printf(t->out, "%s * %d", count, type->lanes);
	else
		gs_buf_printf(t->out, "(%s) * %d", count, type->lanes);
	gs_buf_printf(t->out, "]%s%s", *fill ? " " : "", fill);
	end_stmt(t);
	add_name(t, name);
	free(count);
	free(fill);

	if (symbol || constant) {
		gs_buf_printf(clauses, " copy %s to %s", name, name);
	}
	if (!symbol) {
		if (args->len)
			gs_buf_puts(args, ", ");
		gs_buf_puts(args, name);
	}
	return 0;
}

/* One argument → a buffer statement and/or its launch argument text (added
 * to `args`; symbols add a copy clause to `clauses`).  Returns -1 when the
 * argument cannot be mapped, which leaves the launch out. */
static int emit_argument(struct t1 *t, json_t *a, size_t index, struct gs_buf *args,
			 struct gs_buf *clauses)
{
	const char *key;
	json_t *mt, *ty, *nm;
	if (!check_kind(t, a, T1_OBJ, "an object with Type and Size or FillValue"))
		return -1;
	if (check_argument(t, a, &mt, &ty, &key, &nm) < 0)
		return -1;
	const char *mem = json_string_value(mt);
	const struct t1_type *type = find_type(json_string_value(ty));
	if (!type) {
		push_key(t, key);
		warn_at(t, LOC_VALUE, "t1: cannot map %s '%s'", path_str(t), json_string_value(ty));
		pop(t);
		return -1;
	}
	int constant = check_sizes(t, a, ty, type);
	if (!mem) {
		json_t *sz = member(a, "Size", "length", NULL);
		mem = sz && !json_is_null(sz) ? "Vector" : "Scalar";
	}
	if (!strcasecmp(mem, "Scalar"))
		return emit_scalar(t, a, ty, type, json_string_value(nm), constant, args, clauses);
	if (strcasecmp(mem, "Vector") && strcasecmp(mem, "Symbol")) {
		warn_at(t, LOC_VALUE, "t1: cannot map %s: MemoryType '%s'", path_str(t), mem);
		return -1;
	}
	return emit_vector(t, a, index, nm, type, mem, constant, args, clauses);
}

/* What the parts of one KernelSpecification's mapping share. */
struct t1_kernel {
	json_t *ks;
	json_t *lang;
	const char *kn;     /* the kernel's name; NULL: no kernel or launch statement */
	json_t *ps;         /* ProblemSize */
	const char *ps_key;
	int have_ps;        /* ProblemSize is defined in the space */
	struct t1_dims local;
	int have_local;     /* a block statement was written */
	/* the grid as GlobalSize gives it and as Kernel Tuner computes it from
	 * ProblemSize, per dimension */
	char *gdim[3], *pdim[3];
	int ngdim, npdim;
	const char *gkey;   /* GlobalSize's (or gridSize's) key */
	int opencl;         /* GlobalSize is in threads */
	struct gs_loc global_loc, problem_loc;
};

/* the parameters Kernel Tuner takes for the block's sizes */
static const char *const block_size_names[] = { "block_size_x", "block_size_y", "block_size_z" };

/* Language, KernelName and KernelFile: the kernel statement. */
static void kernel_statement(struct t1 *t, struct t1_kernel *k)
{
	const char *key, *fkey;
	json_t *kname, *kfile;
	get(t, k->ks, "Language", NULL, T1_STR, "a language name", &k->lang, &key);
	if (k->lang && strcasecmp(json_string_value(k->lang), "CUDA")) {
		push_key(t, key);
		warn_at(t, LOC_VALUE, "t1: %s is not CUDA; gsearch compiles the kernel as CUDA",
			path_str(t));
		pop(t);
	}

	int kbad = get(t, k->ks, "KernelName", NULL, T1_STR, "a string", &kname, &key) < 0;
	kbad |= get(t, k->ks, "KernelFile", NULL, T1_STR, "a file name", &kfile, &fkey) < 0;
	const char *kn = kbad ? NULL : json_string_value(kname);
	if (kn && kfile) {
		push_key(t, key);
		gs_buf_puts(t->out, "kernel ");
		if (is_identifier(kn) && !is_keyword(kn))
			gs_buf_puts(t->out, kn);
		else
			put_str_lit(t->out, kn);
		gs_buf_puts(t->out, " from ");
		put_str_lit(t->out, json_string_value(kfile));
		end_stmt(t);
		pop(t);
	} else if (kn) {
		push_key(t, key);
		warn_at(t, LOC_VALUE, "t1: %s has no usable KernelFile; no kernel or launch statement",
			path_str(t));
		pop(t);
		kn = NULL;
	} else if (!kname && !kbad) {
		warn_at(t, LOC_VALUE, "t1: %s has no KernelName; no kernel or launch statement",
			path_str(t));
	}
	k->kn = kn;
}

/* ProblemSize: Kernel Tuner's problem dimensions, used by GridDiv* and by
 * Size expressions */
static void problem_size(struct t1 *t, struct t1_kernel *k)
{
	const char *key;
	json_t *v;
	size_t i;
	get(t, k->ks, "ProblemSize", NULL, T1_LIST | T1_NUM | T1_STR,
	    "a list of sizes, a number or an expression string", &k->ps, &key);
	json_t *ps = k->ps;
	k->ps_key = key;
	if (!ps)
		return;
	push_key(t, key);
	struct gs_buf lit = GS_BUF_INIT;
	char *e = NULL;
	if (json_is_array(ps) && !json_array_size(ps)) {
		error_at(t, LOC_VALUE, "t1: %s: empty list (one to three sizes are required)",
			 path_str(t));
	} else if (json_is_array(ps) && json_array_size(ps) > 3) {
		error_at(t, LOC_VALUE, "t1: %s: %zu sizes (one to three are allowed)", path_str(t),
			 json_array_size(ps));
	} else if (json_is_array(ps)) {
		gs_buf_putc(&lit, '[');
		json_array_foreach (ps, i, v) {
			push_idx(t, i);
			e = scalar_expr(t, v);
			pop(t);
			if (!e)
				break;
			gs_buf_printf(&lit, "%s%s", i ? ", " : "", e);
			free(e);
		}
		gs_buf_putc(&lit, ']');
		e = i == json_array_size(ps) ? gs_buf_detach(&lit) : NULL;
	} else {
		e = scalar_expr(t, ps);
	}
	if (e && !name_taken(t, "ProblemSize")) {
		/* sizes that depend on the parameters are computed per
		 * configuration, as Kernel Tuner does */
		if (mentions_param(t, e))
			gs_buf_printf(t->out, "let ProblemSize = %s nodefine", e);
		else
			gs_buf_printf(t->out, "problem ProblemSize = %s", e);
		end_stmt(t);
		add_name(t, "ProblemSize");
		k->have_ps = 1;
	}
	free(e);
	gs_buf_release(&lit);
	pop(t);
}

/* CompilerOptions: an option statement each. */
static void compiler_options(struct t1 *t, json_t *ks)
{
	const char *key;
	json_t *opts, *v;
	size_t i;
	get(t, ks, "CompilerOptions", NULL, T1_LIST | T1_STR, "a list of strings", &opts, &key);
	if (!opts)
		return;
	push_key(t, key);
	if (json_is_string(opts)) {
		if (*json_string_value(opts)) {
			gs_buf_puts(t->out, "option ");
			put_str_lit(t->out, json_string_value(opts));
			end_stmt(t);
		}
	} else if (json_is_array(opts)) {
		json_array_foreach (opts, i, v) {
			push_idx(t, i);
			if (!check_kind(t, v, T1_STR, "a string")) {
				/* reported */
			} else if (*json_string_value(v)) {
				gs_buf_puts(t->out, "option ");
				put_str_lit(t->out, json_string_value(v));
				end_stmt(t);
			}
			pop(t);
		}
	}
	pop(t);
}

/* LocalSize, or Kernel Tuner's block without it: the block statement. */
static void block_statement(struct t1 *t, struct t1_kernel *k)
{
	const char *key;
	json_t *ls;
	struct t1_dims *local = &k->local;
	int ls_bad = get(t, k->ks, "LocalSize", "blockSize", T1_OBJ, "an object with X, Y, Z", &ls,
			 &key) < 0;
	if (ls) {
		push_key(t, key);
		if (read_dims(t, ls, local) == 0) {
			gs_buf_puts(t->out, "block ");
			for (int d = 0; d < local->n; d++)
				gs_buf_printf(t->out, "%s%s", d ? ", " : "", local->e[d]);
			end_stmt(t);
			k->have_local = 1;
		}
		pop(t);
	} else if (k->kn && !ls_bad) {
		/* what Kernel Tuner launches: the parameters block_size_x, _y, _z,
		 * 256, 1 and 1 where there is no such parameter */
		static const char *const dflt[] = { "256", "1", "1" };
		const char *const *bsz = block_size_names;
		local->n = 1;
		for (int d = 0; d < 3; d++) {
			local->e[d] = gs_xstrdup(is_param(t, bsz[d]) ? bsz[d] : dflt[d]);
			if (is_param(t, bsz[d]))
				local->n = d + 1;
		}
		gs_buf_puts(t->out, "block ");
		for (int d = 0; d < local->n; d++)
			gs_buf_printf(t->out, "%s%s", d ? ", " : "", local->e[d]);
		end_stmt_note(t, "no LocalSize: Kernel Tuner's block");
		warn_at(t, LOC_VALUE, "t1: %s has no LocalSize; the block is Kernel Tuner's: %s, %s, %s",
			path_str(t), local->e[0], local->e[1], local->e[2]);
		k->have_local = 1;
	}
}

/* GlobalSize (or the older gridSize) and GlobalSizeType: k->gdim. */
static void global_grid(struct t1 *t, struct t1_kernel *k)
{
	const char *key, *gkey, *tkey;
	json_t *gs, *gridsize, *gst;
	struct t1_dims global = { { NULL }, 0 };
	get(t, k->ks, "GlobalSize", NULL, T1_OBJ, "an object with X, Y, Z", &gs, &gkey);
	/* older files: always in blocks */
	get(t, k->ks, "gridSize", NULL, T1_OBJ, "an object with X, Y, Z", &gridsize, &key);
	get(t, k->ks, "GlobalSizeType", NULL, T1_STR, "\"CUDA\" or \"OpenCL\"", &gst, &tkey);
	int opencl = 0;
	if (gst) {
		const char *s = json_string_value(gst);
		push_key(t, tkey);
		if (!strcasecmp(s, "OpenCL"))
			opencl = 1;
		else if (strcasecmp(s, "CUDA") && strcasecmp(s, "Vulkan"))
			warn_at(t, LOC_VALUE, "t1: unknown %s; taken as CUDA (grid in blocks)", path_str(t));
		pop(t);
	} else if (k->lang && !strcasecmp(json_string_value(k->lang), "OpenCL")) {
		opencl = 1;
	}
	if (!gs && gridsize) {
		gs = gridsize;
		gkey = key;
		opencl = 0;
	}
	if (gs) {
		push_key(t, gkey);
		k->global_loc = locate(t, LOC_KEY);
		if (read_dims(t, gs, &global) == 0) {
			if (opencl && !k->have_local) {
				warn_at(t, LOC_VALUE, "t1: %s is in threads (OpenCL) but there is no LocalSize "
					"to divide it by; ignored", path_str(t));
			} else {
				for (int d = 0; d < global.n; d++) {
					struct gs_buf g = GS_BUF_INIT;
					if (opencl)
						put_ceil_div(&g, global.e[d],
							     d < k->local.n ? k->local.e[d] : "1");
					else
						gs_buf_puts(&g, global.e[d]);
					k->gdim[d] = gs_buf_detach(&g);
				}
				k->ngdim = global.n;
			}
		}
		pop(t);
	}
	k->gkey = gkey;
	k->opencl = opencl;
	dims_release(&global);
}

/* One dimension's GridDiv as a divisor: -1 where an element is unusable. */
static int grid_divisor(struct t1 *t, struct t1_kernel *k, int d, struct gs_buf *div)
{
	static const char *const divs[] = { "GridDivX", "GridDivY", "GridDivZ" };
	const char *const *bsz = block_size_names;
	const char *dk;
	json_t *v, *dv = member(k->ks, divs[d], NULL, &dk);
	size_t i;
	if (json_is_array(dv) && json_array_size(dv)) {
		json_array_foreach (dv, i, v) {
			push_key(t, dk);
			push_idx(t, i);
			char *e = scalar_expr(t, v);
			pop(t);
			pop(t);
			if (!e)
				return -1;
			if (i)
				gs_buf_puts(div, " * ");
			gs_buf_printf(div, is_atom(e) ? "%s" : "(%s)", e);
			free(e);
		}
	} else if (is_param(t, bsz[d])) {
		gs_buf_puts(div, bsz[d]);
	} else {
		gs_buf_puts(div, "1");
		/* not what a reader who sees the block would expect */
		if (d < k->local.n && strcmp(k->local.e[d], "1"))
			warn_at(t, LOC_VALUE, "t1: %s has no %s%s and no parameter '%s': the grid's "
				"%c is ProblemSize%s blocks, as Kernel Tuner computes it",
				path_str(t), divs[d], dv ? " values" : "", bsz[d], "xyz"[d],
				json_is_array(k->ps) ? (d == 0 ? "[0]" : d == 1 ? "[1]" : "[2]") : "");
	}
	return 0;
}

/* The grid as Kernel Tuner computes it: ceil(ProblemSize[d] / the product
 * of GridDiv's values), the divisor of a dimension without GridDiv (or
 * with an empty one, as its T1 reader takes it) being the parameter
 * block_size_x, _y or _z, or 1 where there is none: k->pdim. */
static void problem_grid(struct t1 *t, struct t1_kernel *k)
{
	static const char *const divs[] = { "GridDivX", "GridDivY", "GridDivZ" };
	const char *key;
	for (int d = 0; d < 3; d++) {
		json_t *dv;
		get(t, k->ks, divs[d], NULL, T1_LIST, "a list of divisors", &dv, &key);
	}
	int dims = json_is_array(k->ps) ? (int)json_array_size(k->ps) : 1;
	if (k->have_ps) {
		int ok = 1;
		push_key(t, k->ps_key);
		k->problem_loc = locate(t, LOC_KEY);
		pop(t);
		for (int d = 0; ok && d < dims; d++) {
			struct gs_buf div = GS_BUF_INIT;
			if (grid_divisor(t, k, d, &div) < 0)
				ok = 0;
			char pd[32];
			snprintf(pd, sizeof pd, json_is_array(k->ps) ? "ProblemSize[%d]" : "ProblemSize", d);
			struct gs_buf g = GS_BUF_INIT;
			put_ceil_div(&g, pd, gs_buf_str(&div));
			k->pdim[d] = gs_buf_detach(&g);
			gs_buf_release(&div);
		}
		k->npdim = ok ? dims : 0;
	}
	for (int d = 0; d < 3; d++) {
		const char *dk;
		json_t *dv = member(k->ks, divs[d], NULL, &dk);
		if (json_is_array(dv) && (!k->have_ps || d >= dims))
			warn_unmapped(t, dk, k->have_ps ? "ProblemSize has no such dimension"
							: "needs ProblemSize");
	}
}

/* The grid statement, from GlobalSize or ProblemSize: both, Kernel Tuner's
 * unless told otherwise; `check` compares them. */
static void grid_statement(struct t1 *t, struct t1_kernel *k)
{
	int use_global = k->ngdim && (!k->npdim || t->grid == GS_T1_GRID_GLOBAL);
	char **use = use_global ? k->gdim : k->pdim, **other = use_global ? k->pdim : k->gdim;
	int nuse = use_global ? k->ngdim : k->npdim, nother = use_global ? k->npdim : k->ngdim;
	if (nuse) {
		gs_buf_puts(t->out, "grid ");
		for (int d = 0; d < nuse; d++)
			gs_buf_printf(t->out, "%s%s", d ? ", " : "", use[d]);
		push_key(t, use_global ? k->gkey : k->ps_key);
		end_stmt_note(t, use_global ? (k->opencl ? "OpenCL size in threads, divided by "
							   "LocalSize, rounded up" : NULL)
					    : "divided by GridDiv, rounded up");
		pop(t);
	}
	if (t->info) {
		t->info->used = use_global ? GS_T1_GRID_GLOBAL : GS_T1_GRID_PROBLEM;
		t->info->global_loc = k->global_loc;
		t->info->problem_loc = k->problem_loc;
		if (nuse && nother) {
			for (int d = 0; d < nother; d++) {
				t->info->other[d] = other[d];
				other[d] = NULL;
			}
			t->info->nother = nother;
		}
	}
}

/* Arguments: the buffers, then the launch that passes them. */
static void launch_statement(struct t1 *t, struct t1_kernel *k)
{
	const char *key, *kn = k->kn;
	json_t *args, *v;
	size_t i;
	int args_bad = get(t, k->ks, "Arguments", NULL, T1_LIST, "a list of arguments", &args,
			   &key) < 0;
	if (!args) {
		if (kn && !args_bad)
			warn_at(t, LOC_VALUE, "t1: %s has no Arguments; no launch statement", path_str(t));
		return;
	}
	struct gs_buf a = GS_BUF_INIT, clauses = GS_BUF_INIT;
	int ok = 1;
	unsigned errors = t->errors;
	push_key(t, key);
	json_array_foreach (args, i, v) {
		push_idx(t, i);
		if (emit_argument(t, v, i, &a, &clauses) < 0)
			ok = 0;
		pop(t);
	}
	if (ok && kn) {
		/* a C++ name expression ("k<float>") is launched by its identifier,
		 * as the kernel statement names it */
		size_t idn = 0;
		while (kn[idn] == '_' || (kn[idn] >= 'a' && kn[idn] <= 'z') ||
		       (kn[idn] >= 'A' && kn[idn] <= 'Z') || (idn && kn[idn] >= '0' && kn[idn] <= '9'))
			idn++;
		gs_buf_puts(t->out, "launch ");
		gs_buf_put(t->out, kn, idn);
		gs_buf_printf(t->out, "(%s)%s", gs_buf_str(&a), gs_buf_str(&clauses));
		end_stmt(t);
	} else if (kn && t->errors == errors) {
		warn_at(t, LOC_VALUE, "t1: some of %s cannot be mapped; no launch statement",
			path_str(t));
	}
	pop(t);
	gs_buf_release(&a);
	gs_buf_release(&clauses);
}

/* What the rest of KernelSpecification holds, and why it is not used. */
static void warn_rest(struct t1 *t, json_t *ks)
{
	const char *key;
	json_t *v;
	json_t *ref = member(ks, "ReferenceArguments", NULL, &key);
	if (ref)
		warn_unmapped(t, key, "give the space a reference kernel to check outputs");

	json_object_foreach (ks, key, v) {
		if (key_in(key, "Language|KernelName|KernelFile|ProblemSize|BenchmarkConfig|"
				"CompilerOptions|LocalSize|blockSize|GlobalSize|gridSize|"
				"GlobalSizeType|GridDivX|GridDivY|GridDivZ|SharedMemory|shared_memory|"
				"Arguments|ReferenceArguments|BenchmarkName"))
			continue;
		if (key_in(key, "Stream") && json_is_null(v))
			continue;
		if (key_in(key, "Device"))
			warn_unmapped(t, key, "the device is chosen on the command line");
		else if (key_in(key, "SimulationInput|Profiling"))
			warn_unmapped(t, key, "not used by gsearch");
		else
			warn_unmapped(t, key, NULL);
	}
}

static void emit_kernel(struct t1 *t, json_t *ks)
{
	const char *key;
	if (!json_is_object(ks)) {
		error_at(t, LOC_VALUE, "t1: %s must be an object", path_str(t));
		return;
	}
	struct t1_kernel k = { .ks = ks, .global_loc = GS_NOLOC, .problem_loc = GS_NOLOC };
	kernel_statement(t, &k);
	problem_size(t, &k);
	json_t *bc = member(ks, "BenchmarkConfig", NULL, &key);
	if (bc && !json_is_null(bc)) {
		push_key(t, key);
		emit_problems(t, bc);
		pop(t);
	}
	compiler_options(t, ks);

	block_statement(t, &k);
	global_grid(t, &k);
	problem_grid(t, &k);
	grid_statement(t, &k);
	for (int d = 0; d < 3; d++) {
		free(k.gdim[d]);
		free(k.pdim[d]);
	}
	dims_release(&k.local);

	json_t *sm = member(ks, "SharedMemory", "shared_memory", &key);
	if (sm && !json_is_null(sm)) {
		push_key(t, key);
		char *e = scalar_expr(t, sm);
		if (e) {
			gs_buf_printf(t->out, "shared %s", e);
			end_stmt(t);
			free(e);
		}
		pop(t);
	}
	launch_statement(t, &k);
	warn_rest(t, ks);
}

/* ---- the whole file ---- */

void gs_t1_grid_info_release(struct gs_t1_grid_info *g)
{
	for (int d = 0; d < 3; d++) {
		free(g->other[d]);
		g->other[d] = NULL;
	}
	g->nother = 0;
}

int gs_t1_to_space(const struct gs_source *json, enum gs_t1_grid grid, struct gs_buf *out,
		   struct gs_t1_grid_info *info, struct gs_diag *d)
{
	struct t1 t = { .src = json, .out = out, .d = d, .grid = grid, .info = info };
	if (info)
		*info = (struct gs_t1_grid_info){ .used = GS_T1_GRID_PROBLEM };
	json_error_t err;
	/* duplicate keys are refused: Python keeps the last one silently, which
	 * would drop, say, a whole Conditions list without a word */
	json_t *root = json_loadb(json->text, json->len, JSON_REJECT_DUPLICATES, &err);
	if (!root) {
		gs_diag_error(d, json_error_loc(json, &err), "t1: invalid JSON: %s", err.text);
		return -1;
	}
	const char *key;
	json_t *v;
	if (!json_is_object(root)) {
		error_at(&t, LOC_VALUE, "t1: the top level must be an object");
		goto out;
	}
	json_t *cs, *tps;
	if (get(&t, root, "ConfigurationSpace", NULL, T1_OBJ | T1_REQ,
		"an object with the TuningParameters", &cs, &key) < 0)
		goto out;
	const char *cs_key = key;
	push_key(&t, cs_key);
	get(&t, cs, "TuningParameters", NULL, T1_LIST | T1_REQ, "a list of parameters", &tps, &key);
	const char *tps_key = key;
	pop(&t);
	if (t.errors)
		goto out;
	collect_params(&t, tps);

	gs_buf_printf(out, "# space generated from the T1 file %s; each statement names its JSON field\n",
		      json->name);
	json_t *gen;
	get(&t, root, "General", NULL, T1_OBJ, "an object", &gen, &key);
	if (gen) {
		const char *gkey;
		push_key(&t, key);
		json_object_foreach (gen, gkey, v) {
			if (key_in(gkey, "BenchmarkName|FormatVersion") && !json_is_object(v) &&
			    !json_is_array(v)) {
				push_key(&t, gkey);
				gs_buf_printf(out, "# %s: ", path_str(&t));
				put_literal(out, v);
				gs_buf_putc(out, '\n');
				pop(&t);
			} else {
				warn_unmapped(&t, gkey, NULL);
			}
		}
		pop(&t);
	}

	/* kernel first: it defines ProblemSize, which values may use */
	json_t *ks;
	get(&t, root, "KernelSpecification", NULL, T1_OBJ, "an object", &ks, &key);
	const char *ks_key = key;
	struct gs_buf head = GS_BUF_INIT, tail = GS_BUF_INIT;
	/* the kernel's statements go after params and requires: generate them
	 * into `tail`, but problems (ProblemSize) must precede params, so the
	 * kernel's problem lines are moved to `head` */
	struct gs_buf *saved = t.out;
	if (ks) {
		t.out = &tail;
		push_key(&t, ks_key);
		emit_kernel(&t, ks);
		pop(&t);
		t.out = saved;
		/* split: kernel and problem lines up front */
		const char *p = gs_buf_str(&tail);
		struct gs_buf rest = GS_BUF_INIT;
		while (*p) {
			const char *e = strchr(p, '\n');
			size_t len = e ? (size_t)(e - p + 1) : strlen(p);
			if (!strncmp(p, "kernel ", 7) || !strncmp(p, "problem ", 8))
				gs_buf_put(&head, p, len);
			else
				gs_buf_put(&rest, p, len);
			p += len;
		}
		gs_buf_release(&tail);
		tail = rest;
	} else if (!member(root, "KernelSpecification", NULL, NULL)) {
		warn_at(&t, LOC_VALUE, "t1: no KernelSpecification: the space has no kernel to run");
	}
	gs_buf_puts(out, gs_buf_str(&head));
	gs_buf_release(&head);

	json_t *bc = member(root, "BenchmarkConfig", NULL, &key);
	if (bc && !json_is_null(bc)) {
		push_key(&t, key);
		emit_problems(&t, bc);
		pop(&t);
	}

	/* parameters, in file order: the order of enumeration */
	size_t i, np = json_array_size(tps);
	struct t1_param *ps = gs_xcalloc(np ? np : 1, sizeof(*ps));
	const char **seen = gs_xcalloc(np ? np : 1, sizeof(*seen));
	size_t nseen = 0;
	push_key(&t, cs_key);
	push_key(&t, tps_key);
	json_array_foreach (tps, i, v) {
		push_idx(&t, i);
		if (emit_param(&t, v, &ps[i], seen, nseen) == 0 || ps[i].name)
			seen[nseen++] = ps[i].name;
		pop(&t);
	}
	pop(&t);

	json_t *conds;
	get(&t, cs, "Conditions", "constraints", T1_LIST, "a list of conditions", &conds, &key);
	if (conds) {
		push_key(&t, key);
		json_array_foreach (conds, i, v) {
			push_idx(&t, i);
			emit_condition(&t, v);
			pop(&t);
		}
		pop(&t);
	}
	warn_unknown_members(&t, cs, "TuningParameters|Conditions|constraints");
	gs_buf_puts(out, gs_buf_str(&tail));
	gs_buf_release(&tail);
	if (!t.errors)
		emit_baseline(&t, tps_key, ps, np);
	pop(&t);
	free(ps);
	free(seen);

	json_object_foreach (root, key, v) {
		if (key_in(key, "ConfigurationSpace|KernelSpecification|General|BenchmarkConfig|$schema"))
			continue;
		if (key_in(key, "Search|Budget"))
			warn_unmapped(&t, key, "gsearch enumerates the whole space");
		else
			warn_unmapped(&t, key, NULL);
	}
out:
	json_decref(root);
	free(t.params);
	free(t.pvalues);
	for (size_t k = 0; k < t.nnames; k++)
		free(t.names[k]);
	free(t.names);
	gs_buf_release(&t.pathbuf);
	return t.errors ? -1 : 0;
}
