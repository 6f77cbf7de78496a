/* lex.h — tokens of the space language and the streaming lexer.
 *
 * The lexer turns text into tokens with locations.  Lines end statements:
 * NEWLINE tokens are produced at the end of each logical line, i.e. not while
 * a bracket is open and not after a backslash.  Malformed input (bad UTF-8,
 * NUL bytes, unterminated strings, huge literals) is reported to the
 * diagnostics and skipped, so that lexing always reaches the end. */
#ifndef GS_LEX_H
#define GS_LEX_H

#include <stdint.h>

#include "core/diag.h"

#define GS_TOKENS(X)                                                                              \
	X(EOF, "end of file")                                                                      \
	X(NEWLINE, "end of line")                                                                  \
	X(NAME, "name")                                                                            \
	X(INT, "integer")                                                                          \
	X(FLOAT, "number")                                                                         \
	X(STRING, "string")                                                                        \
	X(LPAREN, "'('")                                                                           \
	X(RPAREN, "')'")                                                                           \
	X(LBRACKET, "'['")                                                                         \
	X(RBRACKET, "']'")                                                                         \
	X(LBRACE, "'{'")                                                                           \
	X(RBRACE, "'}'")                                                                           \
	X(COMMA, "','")                                                                            \
	X(COLON, "':'")                                                                            \
	X(DOT, "'.'")                                                                              \
	X(ASSIGN, "'='")                                                                           \
	X(PLUS, "'+'")                                                                             \
	X(MINUS, "'-'")                                                                            \
	X(STAR, "'*'")                                                                             \
	X(POW, "'**'")                                                                             \
	X(SLASH, "'/'")                                                                            \
	X(DSLASH, "'//'")                                                                          \
	X(PERCENT, "'%'")                                                                          \
	X(LSHIFT, "'<<'")                                                                          \
	X(RSHIFT, "'>>'")                                                                          \
	X(AMP, "'&'")                                                                              \
	X(PIPE, "'|'")                                                                             \
	X(CARET, "'^'")                                                                            \
	X(TILDE, "'~'")                                                                            \
	X(LT, "'<'")                                                                               \
	X(LE, "'<='")                                                                              \
	X(GT, "'>'")                                                                               \
	X(GE, "'>='")                                                                              \
	X(EQ, "'=='")                                                                              \
	X(NE, "'!='")                                                                              \
	/* Python keywords: reserved everywhere */                                                 \
	X(AND, "'and'")                                                                            \
	X(OR, "'or'")                                                                              \
	X(NOT, "'not'")                                                                            \
	X(IN, "'in'")                                                                              \
	X(IS, "'is'")                                                                              \
	X(IF, "'if'")                                                                              \
	X(ELSE, "'else'")                                                                          \
	X(FOR, "'for'")                                                                            \
	X(LAMBDA, "'lambda'")                                                                      \
	X(TRUE, "'True'")                                                                          \
	X(FALSE, "'False'")                                                                        \
	X(NONE, "'None'")

enum gs_tok {
#define X(n, s) GS_TOK_##n,
	GS_TOKENS(X)
#undef X
};

const char *gs_tok_name(int t);

struct gs_token {
	int kind;
	struct gs_loc loc;
	int64_t i;      /* INT */
	double f;       /* FLOAT */
	char *s;        /* STRING (decoded, malloc'd, owned by the lexer), NAME (malloc'd) */
	size_t slen;
};

#define GS_LEX_DEPTH 64 /* brackets remembered for error messages */

struct gs_lexer {
	const struct gs_source *src;
	struct gs_diag *d;
	size_t pos;
	size_t end;                      /* lexing stops here */
	int depth;                       /* open brackets */
	uint32_t open_at[GS_LEX_DEPTH];  /* offsets of the innermost open brackets */
	int last_kind;                   /* kind of the previous token */
	struct gs_token la[2];           /* lookahead */
	int nla;
};

void gs_lex_init(struct gs_lexer *lx, const struct gs_source *src, struct gs_diag *d);
/* Lex only the bytes [start, end) of src (template holes inside strings). */
void gs_lex_init_range(struct gs_lexer *lx, const struct gs_source *src, struct gs_diag *d,
		       size_t start, size_t end);
void gs_lex_release(struct gs_lexer *lx);
/* Peek at the k-th next token (k = 0 or 1). */
const struct gs_token *gs_lex_peek(struct gs_lexer *lx, int k);
/* Consume the next token; the returned token's strings are moved to *out and
 * the caller frees tok.s.  Pass NULL to drop it. */
void gs_lex_next(struct gs_lexer *lx, struct gs_token *out);

#endif
