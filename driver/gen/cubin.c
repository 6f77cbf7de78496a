/* cubin.c — resource usage of a kernel, read from the cubin NVRTC made (a
 * CUDA ELF64), and from ptxas' -v log.
 *
 * A small reader of its own instead of libelf: only section headers, one
 * symbol table and a few sections are needed, and every offset, size and
 * string in the file is checked against its length before it is used, so a
 * truncated or corrupt cubin gives an error, never a read outside it.
 *
 * Where the figures live (seen in cubins of NVRTC 13.0 for sm_75 to sm_120):
 *
 *   .nv.info           module-wide attribute records, one per function and
 *                      attribute, keyed by symbol index: REGCOUNT,
 *                      FRAME_SIZE, MIN_STACK_SIZE (MAX_STACK_SIZE).
 *   .nv.info.<entry>   the kernel's records: MAX_THREADS / REQNTID
 *                      (__launch_bounds__, maxntid, reqntid), NUM_BARRIERS
 *                      (absent when none), MAXREG_COUNT, parameters.
 *   .text.<entry>      the code; sh_info bits 24..31 repeat the register
 *                      count up to sm_89 (0 from sm_90 on), sh_flags bits
 *                      20..26 held the barrier count in older toolchains.
 *   .nv.shared.<entry> NOBITS, the kernel's static shared memory.  From sm_90
 *                      on (cubins with a .nv.shared.reserved.* section) the
 *                      toolchain places user shared memory after the 1 KB it
 *                      reserves per block at the bottom of the window (the
 *                      SASS addresses it from 0x400), and the section's size
 *                      includes that 1 KB: ptxas -v reports 2048 bytes smem
 *                      where the section is 3072 bytes.  The CUDA driver
 *                      leaves the 1 KB out too: on an H100,
 *                      cuFuncGetAttribute(SHARED_SIZE_BYTES) gave 2048 for
 *                      that kernel (and the same registers, LOCAL_SIZE_BYTES
 *                      equal to MIN_STACK_SIZE, CONST_SIZE_BYTES equal to
 *                      the .nv.constant3 size) for cubins read here.
 *   .nv.constant3      user __constant__ data, module-wide.
 *
 * Attribute records are { u8 format, u8 attribute, u16 value-or-size }; with
 * format EIFMT_SVAL the u16 is the size of the payload that follows. */
#define _GNU_SOURCE
#include "gen/gen.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define EM_CUDA 190
#define SHT_SYMTAB 2
#define SHT_STRTAB 3
#define SHT_NOBITS 8
#define SHT_CUDA_INFO 0x70000000u
#define STT_FUNC 2

/* Attribute record formats. */
#define EIFMT_NVAL 0x01
#define EIFMT_BVAL 0x02
#define EIFMT_HVAL 0x03
#define EIFMT_SVAL 0x04

/* The attributes read here (codes as cuobjdump -elf names them). */
#define EIATTR_MAX_THREADS 0x05    /* SVAL: u32 x, y, z */
#define EIATTR_REQNTID 0x10        /* SVAL: u32 x, y, z */
#define EIATTR_FRAME_SIZE 0x11     /* SVAL: u32 symbol, u32 bytes */
#define EIATTR_MIN_STACK_SIZE 0x12 /* SVAL: u32 symbol, u32 bytes */
#define EIATTR_MAX_STACK_SIZE 0x23 /* SVAL: u32 symbol, u32 bytes */
#define EIATTR_REGCOUNT 0x2f       /* SVAL: u32 symbol, u32 registers */
#define EIATTR_NUM_BARRIERS 0x4c   /* BVAL/HVAL: barriers */

/* Bytes the sm_90+ toolchain reserves at the bottom of each kernel's shared
 * window and counts in .nv.shared.<entry> (see above). */
#define RESERVED_SMEM_SM90 1024

struct section {
	const char *name; /* inside the file, NUL-terminated (checked) */
	uint32_t type;
	uint64_t flags;
	uint64_t offset;
	uint64_t size;
	uint32_t link;
	uint32_t info;
	uint64_t entsize;
};

struct elf {
	const unsigned char *p;
	size_t len;
	struct section *sec;
	size_t nsec;
	int abi_version;
	uint32_t e_flags;
	char *err;
	size_t errlen;
};

static uint16_t rd16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const unsigned char *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static int bad(struct elf *e, const char *fmt, const char *arg)
{
	if (e->errlen) {
		snprintf(e->err, e->errlen, "cubin: ");
		size_t n = strlen(e->err);
		snprintf(e->err + n, e->errlen - n, fmt, arg);
	}
	return -1;
}

/* [off, off + size) lies inside the file. */
static int in_file(const struct elf *e, uint64_t off, uint64_t size)
{
	return off <= e->len && size <= e->len - off;
}

/* The NUL-terminated string at off in string table s, or NULL. */
static const char *str_at(const struct elf *e, const struct section *s, uint64_t off)
{
	const char *base;

	if (s->type != SHT_STRTAB || off >= s->size)
		return NULL;
	base = (const char *)e->p + s->offset;
	if (!memchr(base + off, '\0', s->size - off))
		return NULL;
	return base + off;
}

/* The header and every section header, checked; 0 or -1. */
static int elf_open(struct elf *e, const void *p, size_t len)
{
	const unsigned char *h = p;
	uint64_t shoff;
	uint16_t shentsize, shnum, shstrndx;
	size_t i;

	e->p = p;
	e->len = len;
	e->sec = NULL;
	e->nsec = 0;
	if (!p || len < 64 || memcmp(h, "\177ELF", 4) != 0)
		return bad(e, "%s", "not an ELF file");
	if (h[4] != 2 || h[5] != 1)
		return bad(e, "%s", "not a little-endian ELF64 file");
	if (rd16(h + 18) != EM_CUDA)
		return bad(e, "%s", "not a CUDA ELF (e_machine is not EM_CUDA)");
	e->abi_version = h[8];
	e->e_flags = rd32(h + 48);
	shoff = rd64(h + 40);
	shentsize = rd16(h + 58);
	shnum = rd16(h + 60);
	shstrndx = rd16(h + 62);
	if (shnum == 0 || shentsize < 64)
		return bad(e, "%s", "no section headers");
	if (shstrndx >= shnum)
		return bad(e, "%s", "section name table index out of range");
	if (!in_file(e, shoff, (uint64_t)shnum * shentsize))
		return bad(e, "%s", "truncated (section headers past the end)");
	e->sec = gs_xcalloc(shnum, sizeof *e->sec);
	e->nsec = shnum;
	for (i = 0; i < shnum; i++) {
		const unsigned char *s = h + shoff + i * shentsize;
		struct section *d = &e->sec[i];

		d->type = rd32(s + 4);
		d->flags = rd64(s + 8);
		d->offset = rd64(s + 24);
		d->size = rd64(s + 32);
		d->link = rd32(s + 40);
		d->info = rd32(s + 44);
		d->entsize = rd64(s + 56);
		if (d->type != SHT_NOBITS && d->type != 0 && !in_file(e, d->offset, d->size))
			return bad(e, "%s", "truncated (a section lies past the end)");
	}
	for (i = 0; i < shnum; i++) {
		e->sec[i].name = str_at(e, &e->sec[shstrndx], rd32(h + shoff + i * shentsize));
		if (!e->sec[i].name)
			return bad(e, "%s", "corrupt section name");
	}
	return 0;
}

static void elf_close(struct elf *e)
{
	free(e->sec);
	e->sec = NULL;
}

/* The section named prefix + suffix (suffix may be NULL), or NULL. */
static const struct section *find_section(const struct elf *e, const char *prefix, const char *suffix)
{
	size_t np = strlen(prefix);
	size_t i;

	for (i = 0; i < e->nsec; i++) {
		const char *name = e->sec[i].name;

		if (strncmp(name, prefix, np) == 0 && strcmp(name + np, suffix ? suffix : "") == 0)
			return &e->sec[i];
	}
	return NULL;
}

static int has_section_prefix(const struct elf *e, const char *prefix)
{
	size_t np = strlen(prefix);

	for (size_t i = 0; i < e->nsec; i++)
		if (strncmp(e->sec[i].name, prefix, np) == 0)
			return 1;
	return 0;
}

/* Index of the function symbol `entry` and its section; 0 or -1. */
static int find_entry(struct elf *e, const char *entry, uint32_t *sym, uint16_t *shndx)
{
	const struct section *st = NULL, *strtab;
	uint64_t i, n;

	for (size_t k = 0; k < e->nsec; k++)
		if (e->sec[k].type == SHT_SYMTAB) {
			st = &e->sec[k];
			break;
		}
	if (!st)
		return bad(e, "%s", "no symbol table");
	if (st->entsize != 24 || st->link >= e->nsec)
		return bad(e, "%s", "corrupt symbol table");
	strtab = &e->sec[st->link];
	n = st->size / 24;
	for (i = 0; i < n && i <= UINT32_MAX; i++) {
		const unsigned char *s = e->p + st->offset + i * 24;
		const char *name = str_at(e, strtab, rd32(s));

		if (name && (s[4] & 0xf) == STT_FUNC && strcmp(name, entry) == 0) {
			*sym = (uint32_t)i;
			*shndx = rd16(s + 6);
			return 0;
		}
	}
	return bad(e, "no kernel '%s' in the cubin", entry);
}

/* What the attribute records say about one kernel. */
struct attrs {
	int regcount, frame, stack, max_threads, reqntid, barriers;
};

/* Walk the records of one .nv.info section; those keyed by a symbol count
 * only for `sym`.  0 or -1. */
static int read_info(struct elf *e, const struct section *s, uint32_t sym, struct attrs *a)
{
	const unsigned char *p = e->p + s->offset;
	uint64_t off = 0;

	while (off < s->size) {
		unsigned fmt, attr;
		uint32_t vsize = 0;
		const unsigned char *v;

		if (s->size - off < 4)
			return bad(e, "%s", "truncated attribute record");
		fmt = p[off];
		attr = p[off + 1];
		v = p + off + 2;
		if (fmt == EIFMT_SVAL) {
			vsize = rd16(v);
			v = p + off + 4;
			if (s->size - off - 4 < vsize)
				return bad(e, "%s", "attribute record past the end of its section");
		} else if (fmt != EIFMT_NVAL && fmt != EIFMT_BVAL && fmt != EIFMT_HVAL) {
			return bad(e, "%s", "unknown attribute record format");
		}
		switch (attr) {
		case EIATTR_REGCOUNT:
		case EIATTR_FRAME_SIZE:
		case EIATTR_MIN_STACK_SIZE:
		case EIATTR_MAX_STACK_SIZE:
			if (fmt != EIFMT_SVAL || vsize < 8)
				return bad(e, "%s", "malformed per-function attribute");
			/* A payload of several (symbol, value) pairs is allowed. */
			for (uint32_t k = 0; k + 8 <= vsize; k += 8) {
				uint32_t val = rd32(v + k + 4);

				if (rd32(v + k) != sym)
					continue;
				if (val > INT32_MAX)
					return bad(e, "%s", "attribute value out of range");
				if (attr == EIATTR_REGCOUNT)
					a->regcount = (int)val;
				else if (attr == EIATTR_FRAME_SIZE)
					a->frame = (int)val;
				else if (attr == EIATTR_MIN_STACK_SIZE || a->stack < 0)
					a->stack = (int)val;
			}
			break;
		case EIATTR_MAX_THREADS:
		case EIATTR_REQNTID: {
			uint64_t t;

			if (fmt != EIFMT_SVAL || vsize < 12)
				return bad(e, "%s", "malformed thread-count attribute");
			t = (uint64_t)rd32(v) * rd32(v + 4) * rd32(v + 8);
			if (t > INT32_MAX)
				return bad(e, "%s", "thread-count attribute out of range");
			if (attr == EIATTR_MAX_THREADS)
				a->max_threads = (int)t;
			else
				a->reqntid = (int)t;
			break;
		}
		case EIATTR_NUM_BARRIERS:
			if (fmt == EIFMT_BVAL)
				a->barriers = v[0];
			else if (fmt == EIFMT_HVAL)
				a->barriers = rd16(v);
			else if (fmt == EIFMT_SVAL && vsize >= 4)
				a->barriers = (int)(rd32(v) & 0xffff);
			else
				return bad(e, "%s", "malformed barrier attribute");
			break;
		}
		off += 4 + (fmt == EIFMT_SVAL ? vsize : 0);
	}
	return 0;
}

static int arch_of(const struct elf *e)
{
	/* ABI version 8 (CUDA 13) moved the real SM from bits 0..7 of e_flags
	 * to bits 8..15. */
	return e->abi_version >= 8 ? (int)(e->e_flags >> 8 & 0xff) : (int)(e->e_flags & 0xff);
}

int gs_cubin_arch(const void *cubin, size_t len)
{
	struct elf e = { 0 };
	int arch;

	if (elf_open(&e, cubin, len) < 0) {
		elf_close(&e);
		return -1;
	}
	arch = arch_of(&e);
	elf_close(&e);
	return arch;
}

int gs_cubin_code(const void *cubin, size_t len, const char *entry, const unsigned char **code,
		  size_t *n, int *arch, char *err, size_t errlen)
{
	struct elf e = { 0 };
	const struct section *text;
	uint32_t sym = 0;
	uint16_t shndx = 0;
	int rc = -1;

	e.err = err;
	e.errlen = errlen;
	*code = NULL;
	*n = 0;
	if (elf_open(&e, cubin, len) < 0 || find_entry(&e, entry, &sym, &shndx) < 0)
		goto done;
	text = find_section(&e, ".text.", entry);
	if (!text || text->type == SHT_NOBITS || !in_file(&e, text->offset, text->size)) {
		bad(&e, "kernel '%s' has no code of its own", entry);
		goto done;
	}
	*code = e.p + text->offset;
	*n = (size_t)text->size;
	*arch = arch_of(&e);
	rc = 0;
done:
	elf_close(&e);
	return rc;
}

int gs_cubin_resources(const void *cubin, size_t len, const char *entry, struct gs_resources *r,
		       char *err, size_t errlen)
{
	struct elf e = { 0 };
	struct attrs a = { -1, -1, -1, 0, 0, -1 };
	const struct section *text, *info, *sh, *c3;
	uint32_t sym = 0;
	uint16_t shndx = 0;
	int text_regs, flag_bars;
	int rc = -1;

	e.err = err;
	e.errlen = errlen;
	memset(r, 0, sizeof *r);
	r->spill_stores = r->spill_loads = -1;
	if (errlen)
		err[0] = '\0';
	if (!entry || !*entry) {
		bad(&e, "%s", "no kernel name");
		return -1;
	}
	if (elf_open(&e, cubin, len) < 0 || find_entry(&e, entry, &sym, &shndx) < 0)
		goto done;

	/* The symbol's section must be the kernel's own .text.<entry>. */
	text = find_section(&e, ".text.", entry);
	if (!text || shndx >= e.nsec || &e.sec[shndx] != text) {
		bad(&e, "kernel '%s' has no .text section of its own", entry);
		goto done;
	}
	info = find_section(&e, ".nv.info", NULL);
	if (info && info->type == SHT_CUDA_INFO && read_info(&e, info, sym, &a) < 0)
		goto done;
	info = find_section(&e, ".nv.info.", entry);
	if (info && info->type == SHT_CUDA_INFO && read_info(&e, info, sym, &a) < 0)
		goto done;

	text_regs = (int)(text->info >> 24);
	if (a.regcount < 0 && text_regs == 0) {
		bad(&e, "no register count for kernel '%s'", entry);
		goto done;
	}
	if (a.regcount >= 0 && text_regs && a.regcount != text_regs) {
		bad(&e, "register counts of kernel '%s' disagree (.nv.info and .text)", entry);
		goto done;
	}
	r->registers = a.regcount >= 0 ? a.regcount : text_regs;

	flag_bars = (int)(text->flags >> 20 & 0x7f);
	if (a.barriers >= 0 && flag_bars && a.barriers != flag_bars) {
		bad(&e, "barrier counts of kernel '%s' disagree (.nv.info and .text)", entry);
		goto done;
	}
	r->barriers = a.barriers >= 0 ? a.barriers : flag_bars;

	r->local_bytes = a.frame > 0 ? a.frame : 0;
	r->stack_bytes = a.stack >= 0 ? a.stack : r->local_bytes;
	r->max_threads = a.max_threads ? a.max_threads : a.reqntid;

	sh = find_section(&e, ".nv.shared.", entry);
	if (sh) {
		uint64_t size = sh->size;

		if (has_section_prefix(&e, ".nv.shared.reserved.")) {
			if (size < RESERVED_SMEM_SM90) {
				bad(&e, "shared memory of kernel '%s' smaller than the reserved 1 KB", entry);
				goto done;
			}
			size -= RESERVED_SMEM_SM90;
		}
		if (size > INT32_MAX) {
			bad(&e, "shared memory of kernel '%s' out of range", entry);
			goto done;
		}
		r->static_smem = (int)size;
	}
	c3 = find_section(&e, ".nv.constant3", NULL);
	if (c3) {
		if (c3->size > INT32_MAX) {
			bad(&e, "%s", "constant bank 3 out of range");
			goto done;
		}
		r->const_bytes = (int)c3->size;
	}
	rc = 0;
done:
	elf_close(&e);
	if (rc < 0) {
		memset(r, 0, sizeof *r);
		r->spill_stores = r->spill_loads = -1;
	}
	return rc;
}

/* --- ptxas -v log ------------------------------------------------------------
 *
 *   ptxas info    : Compiling entry function 'matmul' for 'sm_90'
 *   ptxas info    : Function properties for matmul
 *   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 31 registers, used 1 barriers, 2048 bytes smem, 380 bytes cmem[0]
 *
 * "Function properties" blocks also come for device functions, after the
 * entry's; the "Used" line belongs to the last "Compiling entry function". */

/* The n-byte name at p equals entry. */
static int name_is(const char *p, size_t n, const char *entry)
{
	return strlen(entry) == n && memcmp(p, entry, n) == 0;
}

/* The items of a "Used ..." line, "Used 31 registers, used 1 barriers,
 * 2048 bytes smem, 528 bytes cumulative stack size, 380 bytes cmem[0]". */
static void used_items(const char *p, const char *end, struct gs_resources *r, int *stack)
{
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;
		char item[96];
		size_t n;
		long v;
		char unit[64];

		while (p < stop && *p == ' ')
			p++;
		n = (size_t)(stop - p) < sizeof item - 1 ? (size_t)(stop - p) : sizeof item - 1;
		memcpy(item, p, n);
		item[n] = '\0';
		if (sscanf(item, "Used %ld registers", &v) == 1)
			r->registers = (int)v;
		else if (sscanf(item, "used %ld barriers", &v) == 1)
			r->barriers = (int)v;
		else if (sscanf(item, "%ld bytes %63[^\n]", &v, unit) == 2) {
			if (strcmp(unit, "smem") == 0)
				r->static_smem = (int)v;
			else if (strcmp(unit, "cumulative stack size") == 0)
				*stack = (int)v;
		}
		p = comma ? comma + 1 : end;
	}
}

int gs_ptxas_log_resources(const char *log, const char *entry, struct gs_resources *r)
{
	int in_entry = 0, in_props = 0, found = 0, stack = -1;
	const char *line = log;

	if (!log || !entry)
		return -1;
	while (*line) {
		const char *end = strchr(line, '\n');
		const char *p;
		size_t len;

		if (!end)
			end = line + strlen(line);
		len = (size_t)(end - line);
		if ((p = memmem(line, len, "Compiling entry function '", 26))) {
			const char *name = p + 26;
			const char *q = memchr(name, '\'', (size_t)(end - name));

			in_entry = q && name_is(name, (size_t)(q - name), entry);
			in_props = 0;
		} else if ((p = memmem(line, len, "Function properties for ", 24))) {
			const char *name = p + 24;
			const char *q = name;

			while (q < end && *q != ' ' && *q != '\r')
				q++;
			in_props = name_is(name, (size_t)(q - name), entry);
		} else if (in_props && (p = memmem(line, len, "bytes stack frame", 17))) {
			long frame = 0, st = 0, ld = 0;
			const char *num = line;

			while (num < end && !(*num >= '0' && *num <= '9'))
				num++;
			if (sscanf(num, "%ld bytes stack frame, %ld bytes spill stores, %ld bytes spill loads",
				   &frame, &st, &ld) == 3) {
				r->local_bytes = (int)frame;
				r->spill_stores = (int)st;
				r->spill_loads = (int)ld;
			}
			in_props = 0;
		} else if (in_entry && (p = memmem(line, len, "Used ", 5))) {
			r->registers = 0;
			r->barriers = 0;
			r->static_smem = 0;
			used_items(p, end, r, &stack);
			found = 1;
			in_entry = 0;
		}
		line = *end ? end + 1 : end;
	}
	if (found)
		r->stack_bytes = stack >= 0 ? stack : r->local_bytes;
	return found ? 0 : -1;
}
