/* ptx_load.h — inside the PTX loader: the parsed form of a module that
 * ptx_lex.c builds from the text, ptx_decode.c turns into gs_ins and ptx.c
 * lays out.  Nothing but those three files includes it.
 *
 * Errors leave through gs_ptxl_fail, which longjmps back to gs_ptx_load:
 * everything the loader allocates hangs off the context (its arena, its
 * growable arrays, the module being built), so one cleanup there frees it. */
#ifndef GS_EMU_PTX_LOAD_H
#define GS_EMU_PTX_LOAD_H

#include <setjmp.h>
#include <stdint.h>

#include "dev/emu/interp/ptx_int.h"
#include "util/util.h"

/* string -> int, open addressing; the keys belong to the caller (the arena) */
struct gs_ptxl_map {
	const char **key;
	int *val;
	size_t cap, n;
};
int gs_ptxl_map_get(const struct gs_ptxl_map *m, const char *key); /* -1: absent */
void gs_ptxl_map_put(struct gs_ptxl_map *m, const char *key, int val);
void gs_ptxl_map_release(struct gs_ptxl_map *m);

/* special registers beyond enum gs_special: not constant over a warp's
 * life, so they become instructions (mov only) */
enum { GS_PL_SR_CLOCK = 100, GS_PL_SR_CLOCK64, GS_PL_SR_GTIMER };

enum gs_ptxl_okind {
	GS_PO_REG,  /* reg: register id in the function */
	GS_PO_SREG, /* reg: enum gs_special or GS_PL_SR_* */
	GS_PO_INT,  /* u: the value, two's complement */
	GS_PO_FLT,  /* fw 4 (0f...) or 8 (0d...): u holds the bits; fw 0: decimal, in d */
	GS_PO_SYM,  /* name (+ off); reg: the call-sequence .param statement, or -1 */
	GS_PO_ADDR, /* [el[0] + off]: el[0] is a REG, SYM or INT */
	GS_PO_VEC,  /* {a, b, ...} */
	GS_PO_LIST, /* (a, b, ...) of call */
	GS_PO_SINK, /* _ */
};

struct gs_ptxl_opnd {
	uint8_t kind;
	uint8_t neg; /* `!%p` */
	uint8_t fw;
	int32_t reg;
	int32_t reg2; /* `%p|%q`: q, else -1 */
	const char *name;
	uint64_t u;
	double d;
	int64_t off;
	struct gs_ptxl_opnd *el;
	int nel;
};

enum { GS_PS_INS, GS_PS_LABEL, GS_PS_CPARAM };

struct gs_ptxl_stmt {
	uint8_t kind;
	uint8_t gneg;
	int32_t guard;            /* INS: predicate register id, -1 */
	const char *text;         /* INS: the opcode; LABEL, CPARAM: the name */
	struct gs_ptxl_opnd *op;
	int nop;
	uint32_t line;
	/* CPARAM: a .param of a call sequence and the call that passes it */
	uint64_t size, align;
	int32_t call;             /* statement of the call, -1: none seen */
	int32_t arg;              /* argument index, -1: the return value */
};

struct gs_ptxl_reg {
	uint8_t width;            /* 0: predicate, else 2, 4 or 8 bytes */
	int32_t decl;             /* its declaration (gs_ptxl_fn.rdecl) */
	int32_t index;            /* element of a %r<N> range, -1 for a single name */
	int32_t off;              /* provisional register offset / predicate index, -1: unused */
};

struct gs_ptxl_rdecl {
	const char *name;
	int32_t count;            /* %r<count>; 0: a single register */
	int32_t first;            /* id of its first register */
};

struct gs_ptxl_fn {
	uint32_t close_line;      /* the body's closing brace */
	struct gs_ptxl_stmt *st;
	size_t nst, capst;
	struct gs_ptxl_reg *reg;
	size_t nreg, capreg;
	struct gs_ptxl_rdecl *rdecl;
	size_t nrdecl, caprdecl;
	struct gs_ptxl_map syms;  /* names visible in the body: params, .local, .shared */
	int rvar;                 /* the return value's variable, -1 */
	/* decoding */
	uint32_t rf_used;         /* bytes of registers allocated so far */
	int *refs;                /* variables its instructions address */
	size_t nrefs, caprefs;
};

/* one element of a variable's initializer */
enum { GS_PI_INT, GS_PI_FLT, GS_PI_SYM, GS_PI_GENERIC };
struct gs_ptxl_init {
	uint8_t kind;
	uint8_t fw;
	uint64_t u;
	double d;
	const char *name;
	int64_t off;
	uint32_t line;
};

struct gs_ptxl_vinfo {
	int ety;                  /* element type (enum gs_ty) */
	uint32_t esz;             /* element bytes */
	int ext;                  /* .extern */
	int has_init;
	struct gs_ptxl_init *init;
	size_t ninit, capinit;
};

struct gs_ptxl_tok {
	int k;                    /* GS_TK_* */
	const char *s;            /* start in the text */
	size_t n;
	char c;                   /* GS_TK_P: the character */
	uint64_t u;
	double d;
	uint8_t fw;
	uint32_t line;
};
enum { GS_TK_EOF, GS_TK_ID, GS_TK_INT, GS_TK_FLT, GS_TK_STR, GS_TK_P };

struct gs_ptxl {
	const char *text, *end, *p;
	uint32_t line;
	struct gs_ptxl_tok tk;    /* the current token */
	jmp_buf jb;
	char *err;
	size_t errlen;
	char noerr[1];            /* err when the caller gave none */
	struct gs_arena arena;
	struct gs_ptx_module *m;
	struct gs_emu_mem *mem;
	struct gs_ptxl_fn *fn;    /* parallel to m->funcs */
	size_t capfn;
	struct gs_ptxl_vinfo *vi; /* parallel to m->vars */
	size_t capvars;
	struct gs_ptxl_map fnmap, varmap; /* module-scope names */
	int address_size;
	struct gs_ptxl_body *body; /* the body being parsed */
	/* decoding */
	size_t capcode;
	uint8_t *rfmask;          /* per instruction: which o[] hold provisional rf offsets */
	size_t capslots;
	struct gs_ptxl_map slotmap;
	struct gs_buf strings;
	struct gs_ptxl_map strmap;
	struct gs_ptxl_map labels; /* of the function being decoded */
};

GS_NORETURN void gs_ptxl_fail(struct gs_ptxl *L, const char *fmt, ...) GS_PRINTF(2, 3);
char *gs_ptxl_strdup(struct gs_ptxl *L, const char *s, size_t n);

struct gs_ptxl_body;
/* frees the state of a body being parsed (and b) */
void gs_ptxl_body_release(struct gs_ptxl_body *b);
/* ptx_lex.c: the whole text into L->m->funcs / vars and L->fn / vi */
void gs_ptxl_parse(struct gs_ptxl *L);
/* a new module variable (name owned by the module), its index */
int gs_ptxl_add_var(struct gs_ptxl *L, const char *name, int space, int func, uint32_t line);
/* bytes of a value of enum gs_ty ty: 1, 2, 4 or 8; 0 for .pred */
int gs_ptxl_tysize(int ty);

/* ptx_decode.c: the instructions of function f, appended to m->code */
void gs_ptxl_decode(struct gs_ptxl *L, int f);
/* a variable by name as function f sees it, -1 */
int gs_ptxl_lookup_var(const struct gs_ptxl *L, int f, const char *name);
/* provisional offsets: a register's within its function, or GS_PL_CONST | slot */
#define GS_PL_CONST 0x80000000u

#endif
