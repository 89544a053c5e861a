/*
 * parse.c - PTX text to the compact form of ptx.h, once, at load; and the
 * module's accessors of exec.h (kernels, variables, binding).
 *
 * One pass over the tokens: directives, variables with their initializers,
 * functions and entries with their parameters, and instruction by
 * instruction the decoded form, names resolved through nested scopes as
 * PTX's braces open them, labels fixed up at each function's end, the
 * functions' addresses (the module's table, ptx.h) written into the
 * initializers and movs that name them once the parse is done. A
 * refusal names the line and the instruction in the log and stops the
 * parse: EX_INVALID_PTX for text that is not PTX, EX_UNSUPPORTED_PTX for a
 * .version newer than 9.0, EX_NO_BINARY_FOR_GPU for a .target the device
 * cannot run, EX_UNSUPPORTED for valid PTX the engine does not run.
 *
 * Locking: none; a parse owns everything it builds until it returns.
 */
#include "exec/half.h"
#include "exec/wmma.h"
#include "exec/ptx.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The newest PTX ISA the engine reads (CUDA 13.0's). */
#define PTX_MAX_VERSION 90

enum tk { TK_EOF, TK_ID, TK_NUM, TK_STR, TK_PUNCT };

struct tok {
	enum tk k;
	const char *s;
	int len;
	int line;
};

/* A name in scope: a register, a variable, a function. */
enum symk { SY_REG, SY_VAR, SY_FUNC };
struct sym {
	char *name;
	enum symk k;
	int idx;
	int depth;
	int unit;           /* the text (of a linked module) that named it */
	bool dead;          /* a text's internal name, out of scope after it */
	bool internal;      /* module scope, without .visible, .weak, .extern */
	int next;           /* the next symbol in its bucket */
};

/* A module-scope name's linkage, as its directive gave it. */
enum linkage { LK_INTERNAL, LK_VISIBLE, LK_WEAK, LK_EXTERN };

#define NBUCKET 4096

struct label {
	char *name;
	int at;
};
struct fixup {
	int insn, opnd;
	char *name;
	int line;
};

struct parser {
	const char *p, *end;
	int line;
	struct tok t;           /* the current token */
	struct ex_module *m;
	char *log;
	size_t logsz;
	enum ex_status err;
	struct sym *syms;
	int nsyms, capsyms;
	int bucket[NBUCKET];
	int depth;
	int func;               /* the function being parsed, -1 none */
	struct label *labels;
	int nlabels, caplabels;
	struct fixup *fix;
	int nfix, capfix;
	bool address64;
	int unit;               /* the text being read (ex_module_link) */
	const char *unitname;   /* its name in the log; NULL: a lone text */
	enum linkage linkage;   /* the module-scope directive being read */
	const struct ex_text *texts; /* what ex_module_link was given */
	unsigned flags;         /* its EX_LINK_* */
	/* a function's address in an initializer (a vtable, a table of
	 * function pointers): written once the address table exists */
	struct addrfix { int var; uint64_t pos; int func; } *afix;
	int nafix, capafix;
	int init_var;           /* the variable parse_init fills */
};

/* ------------------------------------------------------------------ */
/* Errors                                                              */

__attribute__((format(printf, 3, 4)))
static enum ex_status fail(struct parser *P, enum ex_status st,
			   const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (P->err != EX_OK)
		return P->err;
	P->err = st;
	if (!P->log || P->logsz == 0)
		return st;
	n = P->unitname ? (size_t)snprintf(P->log, P->logsz, "%s: line %d: ",
					   P->unitname, P->t.line) :
			  (size_t)snprintf(P->log, P->logsz, "line %d: ",
					   P->t.line);
	if (n < P->logsz) {
		va_start(ap, fmt);
		vsnprintf(P->log + n, P->logsz - n, fmt, ap);
		va_end(ap);
	}
	return st;
}

static void *grow(void *p, int *cap, int need, size_t elem)
{
	int c = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return p;
	while (c < need)
		c *= 2;
	q = realloc(p, (size_t)c * elem);
	if (!q)
		return NULL;
	memset((char *)q + (size_t)*cap * elem, 0,
	       (size_t)(c - *cap) * elem);
	*cap = c;
	return q;
}

#define GROW(P, arr, n, cap)                                                 \
	((arr) = grow((arr), &(cap), (n) + 1, sizeof *(arr)),                \
	 (arr) ? 0 : (fail((P), EX_OUT_OF_MEMORY, "out of memory"), -1))

/* ------------------------------------------------------------------ */
/* Tokens                                                              */

static bool idch(int c)
{
	return isalnum(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

static void skip_space(struct parser *P)
{
	for (;;) {
		while (P->p < P->end && isspace((unsigned char)*P->p)) {
			if (*P->p == '\n')
				P->line++;
			P->p++;
		}
		if (P->p + 1 < P->end && P->p[0] == '/' && P->p[1] == '/') {
			while (P->p < P->end && *P->p != '\n')
				P->p++;
			continue;
		}
		if (P->p + 1 < P->end && P->p[0] == '/' && P->p[1] == '*') {
			P->p += 2;
			while (P->p + 1 < P->end &&
			       !(P->p[0] == '*' && P->p[1] == '/')) {
				if (*P->p == '\n')
					P->line++;
				P->p++;
			}
			P->p = P->p + 2 <= P->end ? P->p + 2 : P->end;
			continue;
		}
		if (P->p < P->end && *P->p == '\0') {
			P->end = P->p;   /* a NUL ends the text */
		}
		return;
	}
}

static void next(struct parser *P)
{
	const char *s;

	skip_space(P);
	P->t.line = P->line;
	P->t.s = s = P->p;
	if (P->p >= P->end) {
		P->t.k = TK_EOF;
		P->t.len = 0;
		return;
	}
	if (isdigit((unsigned char)*s)) {
		bool hex = s + 1 < P->end && (s[1] == 'x' || s[1] == 'X' ||
					     s[1] == 'f' || s[1] == 'F' ||
					     s[1] == 'd' || s[1] == 'D');
		P->p++;
		while (P->p < P->end &&
		       (isalnum((unsigned char)*P->p) || *P->p == '.' ||
			(!hex && (*P->p == '+' || *P->p == '-') &&
			 (P->p[-1] == 'e' || P->p[-1] == 'E'))))
			P->p++;
		P->t.k = TK_NUM;
	} else if (idch((unsigned char)*s)) {
		while (P->p < P->end && idch((unsigned char)*P->p))
			P->p++;
		/* a ::-qualified modifier (shared::cta, L2::evict_last) */
		while (P->p + 2 < P->end && P->p[0] == ':' && P->p[1] == ':' &&
		       idch((unsigned char)P->p[2])) {
			P->p += 2;
			while (P->p < P->end && idch((unsigned char)*P->p))
				P->p++;
		}
		P->t.k = TK_ID;
	} else if (*s == '"') {
		P->p++;
		while (P->p < P->end && *P->p != '"' && *P->p != '\n')
			P->p += (*P->p == '\\' && P->p + 1 < P->end) ? 2 : 1;
		if (P->p < P->end && *P->p == '"')
			P->p++;
		P->t.k = TK_STR;
	} else {
		P->p++;
		P->t.k = TK_PUNCT;
	}
	P->t.len = (int)(P->p - s);
}

static bool is(struct parser *P, const char *w)
{
	return (P->t.k == TK_ID || P->t.k == TK_PUNCT) &&
	       (int)strlen(w) == P->t.len && !memcmp(P->t.s, w, (size_t)P->t.len);
}

static bool accept(struct parser *P, const char *w)
{
	if (!is(P, w))
		return false;
	next(P);
	return true;
}

static int expect(struct parser *P, const char *w)
{
	if (accept(P, w))
		return 0;
	fail(P, EX_INVALID_PTX, "expected '%s', found '%.*s'", w,
	     P->t.len ? P->t.len : 3, P->t.len ? P->t.s : "end");
	return -1;
}

static char *tokdup(const struct tok *t)
{
	char *s = malloc((size_t)t->len + 1);

	if (s) {
		memcpy(s, t->s, (size_t)t->len);
		s[t->len] = '\0';
	}
	return s;
}

/* An integer token (decimal, 0x hex, octal 0...), with an optional U. */
static int tok_int(const struct tok *t, int64_t *v)
{
	char buf[64], *endp;
	unsigned long long u;

	if (t->k != TK_NUM || t->len >= (int)sizeof buf)
		return -1;
	memcpy(buf, t->s, (size_t)t->len);
	buf[t->len] = '\0';
	if (t->len > 1 && (buf[t->len - 1] == 'U' || buf[t->len - 1] == 'u'))
		buf[t->len - 1] = '\0';
	errno = 0;
	u = strtoull(buf, &endp, 0);
	if (*endp || errno)
		return -1;
	*v = (int64_t)u;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Scopes                                                              */

static unsigned hash(const char *s, int n)
{
	unsigned h = 2166136261u;

	for (int i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h % NBUCKET;
}

static struct sym *lookup(struct parser *P, const char *s, int n)
{
	for (int i = P->bucket[hash(s, n)]; i >= 0; i = P->syms[i].next)
		if (!P->syms[i].dead && (int)strlen(P->syms[i].name) == n &&
		    !memcmp(P->syms[i].name, s, (size_t)n))
			return &P->syms[i];
	return NULL;
}

static int define(struct parser *P, const char *name, enum symk k, int idx)
{
	unsigned h = hash(name, (int)strlen(name));
	struct sym *old = lookup(P, name, (int)strlen(name));

	/* a module-scope name of an earlier text is shadowed: the callers
	 * that link (parse_function, link_var) have let it be */
	if (old && old->depth == P->depth &&
	    (P->depth > 0 || old->unit == P->unit))
		return fail(P, EX_INVALID_PTX, "'%s' defined twice", name), -1;
	if (GROW(P, P->syms, P->nsyms, P->capsyms))
		return -1;
	P->syms[P->nsyms] = (struct sym){ strdup(name), k, idx, P->depth,
					  P->unit, false,
					  P->depth == 0 &&
						  P->linkage == LK_INTERNAL,
					  P->bucket[h] };
	if (!P->syms[P->nsyms].name)
		return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
	P->bucket[h] = P->nsyms++;
	return 0;
}

/* Leaves a scope: its names were the last defined, each at its bucket's
 * head. */
static void pop_scope(struct parser *P)
{
	while (P->nsyms && P->syms[P->nsyms - 1].depth == P->depth) {
		struct sym *s = &P->syms[--P->nsyms];
		P->bucket[hash(s->name, (int)strlen(s->name))] = s->next;
		free(s->name);
	}
	P->depth--;
}

/* ------------------------------------------------------------------ */
/* Types and declarations                                              */

static const struct { const char *w; enum ptype t; } types[] = {
	{ ".b8", T_B8 }, { ".b16", T_B16 }, { ".b32", T_B32 },
	{ ".b64", T_B64 }, { ".b128", T_B128 }, { ".u8", T_U8 },
	{ ".u16", T_U16 }, { ".u32", T_U32 }, { ".u64", T_U64 },
	{ ".s8", T_S8 }, { ".s16", T_S16 }, { ".s32", T_S32 },
	{ ".s64", T_S64 }, { ".f16", T_F16 }, { ".f16x2", T_F16X2 },
	{ ".bf16", T_BF16 }, { ".bf16x2", T_BF16X2 }, { ".f32", T_F32 },
	{ ".f64", T_F64 }, { ".pred", T_PRED }, { ".tf32", T_TF32 },
};

static enum ptype type_of(const char *s, int n)
{
	for (size_t i = 0; i < sizeof types / sizeof *types; i++)
		if ((int)strlen(types[i].w) == n && !memcmp(types[i].w, s, (size_t)n))
			return types[i].t;
	return T_NONE;
}

static int new_var(struct parser *P, const char *name, enum space sp,
		   enum ptype t, uint64_t size, uint32_t align)
{
	struct ex_module *m = P->m;
	struct pvar *v;

	if (GROW(P, m->vars, m->nvars, m->capvars))
		return -1;
	v = &m->vars[m->nvars];
	memset(v, 0, sizeof *v);
	v->name = strdup(name);
	if (!v->name)
		return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
	v->space = (uint8_t)sp;
	v->type = (uint8_t)t;
	v->size = size;
	v->align = align ? align : 1;
	v->func = P->func;
	v->pub = -1;
	v->unit = P->unit;
	if (define(P, name, SY_VAR, m->nvars))
		return -1;
	return m->nvars++;
}

/* A function's name as an element of an initializer: its address, which
 * the module's address table gives once the parse is done (addr_fixups);
 * a 64-bit element only. A variable's address is not taken here. */
static int init_func_addr(struct parser *P, uint64_t size, unsigned w,
			  uint64_t *pos)
{
	struct sym *s = lookup(P, P->t.s, P->t.len);

	if (!s || s->k != SY_FUNC)
		return fail(P, EX_UNSUPPORTED,
			    "an address initializer ('%.*s') that is not a "
			    "function", P->t.len, P->t.s), -1;
	if (w != 8)
		return fail(P, EX_INVALID_PTX, "a function's address in a "
			    "%u-byte element", w), -1;
	if (*pos + w > size)
		return fail(P, EX_INVALID_PTX, "too many initializers"), -1;
	if (GROW(P, P->afix, P->nafix, P->capafix))
		return -1;
	P->afix[P->nafix++] = (struct addrfix){ P->init_var, *pos, s->idx };
	P->m->funcs[s->idx].addressed = true;
	*pos += w;
	next(P);
	return 0;
}

/* Reads an initializer list ({1, 2, ...} nested, or one value) into
 * init, element by element of width bytes. */
static int parse_init(struct parser *P, uint8_t *init, uint64_t size,
		      enum ptype t, uint64_t *pos)
{
	unsigned w = ptype_bits(t) / 8;
	bool neg;
	int64_t v;

	if (accept(P, "{")) {
		if (accept(P, "}"))
			return 0;
		do {
			if (parse_init(P, init, size, t, pos))
				return -1;
		} while (accept(P, ","));
		return expect(P, "}");
	}
	if (P->t.k == TK_ID)
		return init_func_addr(P, size, w, pos);
	neg = accept(P, "-");
	if (P->t.k != TK_NUM)
		return fail(P, EX_INVALID_PTX, "bad initializer"), -1;
	if (ptype_float(t) || (P->t.len > 2 && (P->t.s[1] == 'f' ||
						P->t.s[1] == 'F' ||
						P->t.s[1] == 'd' ||
						P->t.s[1] == 'D'))) {
		char buf[64];
		double d;
		float f;

		if (P->t.len >= (int)sizeof buf)
			return fail(P, EX_INVALID_PTX, "bad initializer"), -1;
		memcpy(buf, P->t.s, (size_t)P->t.len);
		buf[P->t.len] = '\0';
		if (buf[1] == 'f' || buf[1] == 'F') {
			uint32_t b = (uint32_t)strtoul(buf + 2, NULL, 16);
			memcpy(&f, &b, 4);
			d = f;
		} else if (buf[1] == 'd' || buf[1] == 'D') {
			uint64_t b = strtoull(buf + 2, NULL, 16);
			memcpy(&d, &b, 8);
		} else {
			d = strtod(buf, NULL);
		}
		if (neg)
			d = -d;
		if (t == T_F32) {
			f = (float)d;
			memcpy(&v, &f, 4);
			v &= 0xffffffff;
		} else {
			memcpy(&v, &d, 8);
		}
	} else {
		if (tok_int(&P->t, &v))
			return fail(P, EX_INVALID_PTX, "bad initializer"), -1;
		if (neg)
			v = -v;
	}
	next(P);
	if (*pos + w > size)
		return fail(P, EX_INVALID_PTX, "too many initializers"), -1;
	memcpy(init + *pos, &v, w);   /* little-endian, as the device */
	*pos += w;
	return 0;
}

/*
 * A variable declaration after its space word:
 *   [.attribute(.managed)] [.align N] [.v2|.v4] .type name[N][M] [= init]
 *   [, name2 ...];
 * Registers (.reg) are declared by parse_reg. Returns the last variable's
 * index.
 */
/* A module-scope variable's name that a declaration or an earlier text
 * of a linked module has given already: the one variable both name, or
 * -1 for a new one; -2 after a refusal. *keep: the slot's definition
 * stands and this one only declares it (or is a weak one let go). */
static int link_var(struct parser *P, const char *name, enum space sp,
		    bool *keep)
{
	struct sym *s;
	struct pvar *v;

	*keep = false;
	if (P->depth > 0 || P->func >= 0 ||
	    !(s = lookup(P, name, (int)strlen(name))))
		return -1;
	if (s->unit != P->unit && P->linkage == LK_INTERNAL)
		return -1;     /* a name of its own, shadowing the other's */
	if (s->k != SY_VAR || P->m->vars[s->idx].space != sp)
		return fail(P, EX_INVALID_PTX, "'%s' declared as two things",
			    name), -2;
	v = &P->m->vars[s->idx];
	if (P->linkage == LK_EXTERN) {
		*keep = true;  /* declared again, defined or not */
		return s->idx;
	}
	if (v->external)
		return s->idx; /* the definition takes the declaration's slot */
	if (P->linkage == LK_WEAK || v->weak) {
		*keep = true;  /* the first definition stands */
		return s->idx;
	}
	return fail(P, EX_INVALID_PTX, "'%s' defined twice", name), -2;
}

/* Variable idx as this declaration or definition says it is. */
static int var_define(struct parser *P, int idx, enum ptype t,
		      uint64_t size, uint32_t align, bool managed,
		      bool external, bool unsized)
{
	struct pvar *v = &P->m->vars[idx];

	v->type = (uint8_t)t;
	v->size = size;
	v->align = align ? align : 1;
	v->managed = managed;
	v->external = external;
	v->weak = P->linkage == LK_WEAK;
	v->is_extern_shared = v->space == SP_SHARED && (unsized || external);
	return 0;
}

static int parse_var(struct parser *P, enum space sp, bool external)
{
	bool multi = sp != SP_PARAM;   /* a parameter list's commas are its own */
	uint32_t align = 0, vec = 1;
	bool managed = false, keep = false;
	enum ptype t;
	int idx = -1, nafix;

	for (;;) {
		if (accept(P, ".attribute")) {
			if (expect(P, "(")) return -1;
			if (accept(P, ".managed"))
				managed = true;
			else if (accept(P, ".unified")) {
				if (accept(P, "(")) {
					while (!is(P, ")") && P->t.k != TK_EOF)
						next(P);
					if (expect(P, ")")) return -1;
				}
			} else
				return fail(P, EX_INVALID_PTX, "bad attribute"), -1;
			if (expect(P, ")")) return -1;
		} else if (accept(P, ".align")) {
			int64_t a;
			if (tok_int(&P->t, &a) || a <= 0 || (a & (a - 1)))
				return fail(P, EX_INVALID_PTX, "bad .align"), -1;
			align = (uint32_t)a;
			next(P);
		} else if (accept(P, ".v2")) {
			vec = 2;
		} else if (accept(P, ".v4")) {
			vec = 4;
		} else {
			break;
		}
	}
	t = type_of(P->t.s, P->t.len);
	if (is(P, ".texref") || is(P, ".samplerref") || is(P, ".surfref"))
		return fail(P, EX_UNSUPPORTED, "a texture, sampler or surface "
			    "reference (%.*s): texture and surface objects "
			    "run", P->t.len, P->t.s), -1;
	if (P->t.k != TK_ID || t == T_NONE)
		return fail(P, EX_INVALID_PTX, "a type expected, found '%.*s'",
			    P->t.len, P->t.s), -1;
	if (t == T_PRED && sp != SP_REG)
		return fail(P, EX_INVALID_PTX, ".pred outside .reg"), -1;
	next(P);
	/* a kernel pointer's hints: .ptr [.space] [.align N] */
	if (sp == SP_PARAM && accept(P, ".ptr")) {
		if (accept(P, ".global") || accept(P, ".shared") ||
		    accept(P, ".const") || accept(P, ".local")) {
		}
		if (accept(P, ".align")) {
			int64_t a;
			if (tok_int(&P->t, &a) || a <= 0 || (a & (a - 1)))
				return fail(P, EX_INVALID_PTX, "bad .align"), -1;
			next(P);
		}
	}
	do {
		uint64_t elems = 1, size;
		bool unsized = false;
		struct tok name = P->t;
		char *nm;

		if (name.k != TK_ID || name.s[0] == '.')
			return fail(P, EX_INVALID_PTX, "a name expected"), -1;
		next(P);
		while (accept(P, "[")) {
			int64_t n;
			if (accept(P, "]")) {
				unsized = true;
				continue;
			}
			if (tok_int(&P->t, &n) || n < 0 || n > (1ll << 40))
				return fail(P, EX_INVALID_PTX, "bad array size"), -1;
			elems *= (uint64_t)n;
			next(P);
			if (expect(P, "]")) return -1;
		}
		size = elems * vec * (ptype_bits(t) / 8);
		if (!align)
			align = (uint32_t)(vec * (ptype_bits(t) / 8));
		nm = tokdup(&name);
		if (!nm)
			return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
		idx = link_var(P, nm, sp, &keep);
		if (idx == -1)
			idx = new_var(P, nm, sp, t, size, align);
		free(nm);
		if (idx < 0)
			return -1;
		if (!keep && var_define(P, idx, t, size, align, managed,
					external, unsized))
			return -1;
		if (unsized && sp != SP_SHARED && !external && !is(P, "="))
			return fail(P, EX_INVALID_PTX, "an unsized array"), -1;
		if (accept(P, "=")) {
			uint64_t pos = 0;
			uint8_t *init;
			int bad;

			if (sp != SP_GLOBAL && sp != SP_CONST)
				return fail(P, EX_INVALID_PTX,
					    "an initializer in this space"), -1;
			if (unsized)   /* sized by its initializer: count first */
				return fail(P, EX_UNSUPPORTED,
					    "an array sized by its initializer"), -1;
			init = calloc(1, size ? size : 1);
			if (!init)
				return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
			P->init_var = idx;
			nafix = P->nafix;
			bad = parse_init(P, init, size, t, &pos);
			/* a weak definition that another's stands for: read
			 * and let go, with the function addresses it took */
			if (keep) {
				free(init);
				P->nafix = nafix;
			} else {
				P->m->vars[idx].init = init;
			}
			if (bad)
				return -1;
		}
	} while (multi && accept(P, ","));
	return idx;
}

static int new_reg(struct parser *P, const char *name, enum ptype t)
{
	struct ex_module *m = P->m;
	int cap = m->nregs;

	if (m->nregs >= (1 << 24))
		return fail(P, EX_UNSUPPORTED, "too many registers"), -1;
	/* regtype grows in powers of two with nregs */
	if (!(m->nregs & (m->nregs - 1)) || m->nregs == 0) {
		uint8_t *r = realloc(m->regtype, (size_t)(cap ? cap * 2 : 64));
		if (!r)
			return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
		m->regtype = r;
	}
	m->regtype[m->nregs] = (uint8_t)t;
	if (define(P, name, SY_REG, m->nregs))
		return -1;
	return m->nregs++;
}

/* .reg [.v2|.v4] .type %r<N> | name, name ...; */
static int parse_reg(struct parser *P)
{
	enum ptype t;

	if (is(P, ".v2") || is(P, ".v4"))
		return fail(P, EX_UNSUPPORTED, "vector registers"), -1;
	t = type_of(P->t.s, P->t.len);
	if (t == T_NONE)
		return fail(P, EX_INVALID_PTX, "a register type expected"), -1;
	if (t == T_B128)
		return fail(P, EX_UNSUPPORTED, "registers of type %.*s",
			    P->t.len, P->t.s), -1;
	next(P);
	do {
		struct tok name = P->t;
		char buf[256];

		if (name.k != TK_ID || name.len >= 200)
			return fail(P, EX_INVALID_PTX, "a register name expected"), -1;
		next(P);
		if (accept(P, "<")) {
			int64_t n;
			if (tok_int(&P->t, &n) || n < 0 || n > 1000000)
				return fail(P, EX_INVALID_PTX, "bad register count"), -1;
			next(P);
			if (expect(P, ">")) return -1;
			for (int64_t i = 0; i < n; i++) {
				snprintf(buf, sizeof buf, "%.*s%lld", name.len,
					 name.s, (long long)i);
				if (new_reg(P, buf, t) < 0)
					return -1;
			}
		} else {
			snprintf(buf, sizeof buf, "%.*s", name.len, name.s);
			if (new_reg(P, buf, t) < 0)
				return -1;
		}
	} while (accept(P, ","));
	return expect(P, ";");
}

/* ------------------------------------------------------------------ */
/* Instructions                                                        */

static const struct { const char *w; enum opcode op; } opcodes[] = {
	{ "mov", OP_MOV }, { "add", OP_ADD }, { "sub", OP_SUB },
	{ "mul", OP_MUL }, { "mad", OP_MAD }, { "mul24", OP_MUL24 },
	{ "mad24", OP_MAD24 }, { "sad", OP_SAD }, { "div", OP_DIV },
	{ "rem", OP_REM }, { "abs", OP_ABS }, { "neg", OP_NEG },
	{ "min", OP_MIN }, { "max", OP_MAX }, { "fma", OP_FMA },
	{ "rcp", OP_RCP }, { "sqrt", OP_SQRT }, { "rsqrt", OP_RSQRT },
	{ "sin", OP_SIN }, { "cos", OP_COS }, { "lg2", OP_LG2 },
	{ "ex2", OP_EX2 }, { "tanh", OP_TANH }, { "copysign", OP_COPYSIGN },
	{ "testp", OP_TESTP }, { "and", OP_AND }, { "or", OP_OR },
	{ "xor", OP_XOR }, { "not", OP_NOT }, { "cnot", OP_CNOT },
	{ "shl", OP_SHL }, { "shr", OP_SHR }, { "bfe", OP_BFE },
	{ "bfi", OP_BFI }, { "brev", OP_BREV }, { "clz", OP_CLZ },
	{ "popc", OP_POPC }, { "prmt", OP_PRMT }, { "shf", OP_SHF },
	{ "bfind", OP_BFIND }, { "bmsk", OP_BMSK }, { "setp", OP_SETP },
	{ "set", OP_SET },
	{ "selp", OP_SELP }, { "slct", OP_SLCT }, { "cvt", OP_CVT },
	{ "cvta", OP_CVTA }, { "ld", OP_LD }, { "ldu", OP_LD },
	{ "st", OP_ST }, { "atom", OP_ATOM }, { "red", OP_RED },
	{ "prefetch", OP_PREFETCH }, { "prefetchu", OP_PREFETCH },
	{ "bra", OP_BRA }, { "brx", OP_NOP }, { "call", OP_CALL },
	{ "ret", OP_RET }, { "exit", OP_EXIT }, { "bar", OP_BAR },
	{ "barrier", OP_BAR }, { "membar", OP_MEMBAR }, { "fence", OP_MEMBAR },
	{ "shfl", OP_SHFL }, { "vote", OP_VOTE },
	{ "activemask", OP_ACTIVEMASK }, { "redux", OP_REDUX },
	{ "match", OP_MATCH }, { "trap", OP_TRAP }, { "brkpt", OP_TRAP },
	{ "nanosleep", OP_NANOSLEEP }, { "addc", OP_ADD }, { "subc", OP_SUB },
	{ "madc", OP_MAD }, { "discard", OP_PREFETCH },
	{ "applypriority", OP_PREFETCH }, { "createpolicy", OP_NOP },
	{ "cp", OP_CPASYNC },
	{ "mbarrier", OP_MBARRIER },
	{ "tex", OP_TEX }, { "tld4", OP_TLD4 }, { "suld", OP_SULD },
	{ "sust", OP_SUST },
	{ "vadd2", OP_VIDEO }, { "vadd4", OP_VIDEO }, { "vsub2", OP_VIDEO },
	{ "vsub4", OP_VIDEO }, { "vavrg2", OP_VIDEO }, { "vavrg4", OP_VIDEO },
	{ "vabsdiff2", OP_VIDEO }, { "vabsdiff4", OP_VIDEO },
	{ "vmin2", OP_VIDEO }, { "vmin4", OP_VIDEO }, { "vmax2", OP_VIDEO },
	{ "vmax4", OP_VIDEO }, { "vset2", OP_VIDEO }, { "vset4", OP_VIDEO },
	{ "wmma", OP_WMMA }, { "mma", OP_MMA }, { "ldmatrix", OP_LDMATRIX },
};

/* Modifiers that change nothing the engine computes: caching, memory
 * ordering and scope (every access is coherent here), alignment and
 * synchronization markers. (Those that keep a load out of the L1 are
 * F_NOL1, for its chain's latency, before this list is read.) */
static const char *const ignored[] = {
	"ca", "cg", "cs", "lu", "cv", "wb", "wt", "volatile", "relaxed",
	"acquire", "release", "acq_rel", "sc", "weak", "mmio", "cta", "gpu",
	"gl", "sys", "cluster", "sync", "aligned", "uni", "L1", "L2",
	"L1::evict_last", "L1::evict_first", "L1::evict_normal",
	"L1::no_allocate", "L1::evict_unchanged", "L2::evict_last",
	"L2::evict_first", "L2::evict_normal", "L2::64B", "L2::128B",
	"L2::256B", "L2::cache_hint", "shared::cta", "noftz", "proxy",
	"alias", "async", "level::cache_hint",
};

struct modctx {
	struct insn *in;
	int ntypes;
	bool vote_or_match;
};

static int set_type(struct parser *P, struct modctx *c, enum ptype t)
{
	if (c->ntypes == 0)
		c->in->type = (uint8_t)t;
	else if (c->ntypes == 1)
		c->in->type2 = (uint8_t)t;
	else
		return fail(P, EX_INVALID_PTX, "too many types"), -1;
	c->ntypes++;
	return 0;
}

static const char *const cmps[] = {
	NULL, "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
	"equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
};
static const char *const aops[] = {
	NULL, "add", "min", "max", "inc", "dec", "and", "or", "xor", "cas",
	"exch",
};

/* cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]: its
 * modifiers after "mbarrier" (the .b64 type is taken before). */
static int cp_arrive_modifier(struct parser *P, struct insn *in,
			      const char *w)
{
	if (in->sub == CP_MBARRIER) {
		if (strcmp(w, "arrive"))
			return fail(P, EX_UNSUPPORTED,
				    "the instruction 'cp.async.mbarrier.%s'", w), -1;
		in->sub = CP_ARRIVE;
		return 0;
	}
	if (!strcmp(w, "noinc")) {
		in->flags |= F_CPNOINC;
		return 0;
	}
	if (!strcmp(w, "shared") || !strcmp(w, "shared::cta")) {
		in->space = SP_SHARED;
		return 0;
	}
	return fail(P, EX_UNSUPPORTED,
		    "the instruction 'cp.async.mbarrier.arrive.%s'", w), -1;
}

/* cp.async.bulk's words after "bulk", in their order: from global to
 * shared memory completing on an mbarrier,
 * .shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src],
 * size, [mbar] (the destination may be shared::cta: a launch's clusters
 * are of one block); from shared memory to global in a bulk group,
 * .global.shared::cta.bulk_group [dst], [src], size; a bulk group's
 * .commit_group and .wait_group(.read) N. Multicast, cache policies and
 * the tensor forms are refused. */
static int cp_bulk_modifier(struct parser *P, struct insn *in, const char *w)
{
	static const struct { uint8_t at; const char *word; uint8_t to; } seq[] = {
		{ CP_BULK0, "shared::cluster", CP_BULK1 },
		{ CP_BULK0, "shared::cta", CP_BULK1 },
		{ CP_BULK1, "global", CP_BULK2 },
		{ CP_BULK2, "mbarrier::complete_tx::bytes", CP_BULK },
		{ CP_BULK0, "global", CP_S2G0 },
		{ CP_S2G0, "shared::cta", CP_S2G1 },
		{ CP_S2G1, "bulk_group", CP_BULK_S2G },
		{ CP_BULK0, "commit_group", CP_BULKGROUP },
		{ CP_BULK0, "wait_group", CP_BULKGROUP },
		{ CP_BULKGROUP, "read", CP_BULKGROUP },
	};

	for (size_t i = 0; i < sizeof seq / sizeof *seq; i++)
		if (in->sub == seq[i].at && !strcmp(w, seq[i].word)) {
			in->sub = seq[i].to;
			return 0;
		}
	return fail(P, EX_UNSUPPORTED,
		    "the instruction 'cp.async.bulk' with '.%s'", w), -1;
}

/* A modifier of cp: cp.async from global to shared memory, its bulk form
 * completing on an mbarrier, and cp.async.mbarrier.arrive(.noinc). The copy is made when the instruction
 * runs, so commit_group and wait_group have nothing left to wait for: a
 * copy done early is one the program may see done (it may look only after
 * waiting); for the same reason the mbarrier's arrive-on and a bulk
 * copy's complete-tx happen when the instruction runs, and a bulk
 * group's commit and wait have nothing to wait for either. The tensor
 * forms are refused. */
static int cp_modifier(struct parser *P, struct insn *in, const char *w)
{
	if (!in->sub) {
		if (strcmp(w, "async"))
			return fail(P, EX_UNSUPPORTED, "the instruction 'cp.%s'", w), -1;
		in->sub = CP_COPY;
		return 0;
	}
	if (in->sub >= CP_BULK0)
		return cp_bulk_modifier(P, in, w);
	if (in->sub != CP_COPY)
		return cp_arrive_modifier(P, in, w);
	if (!strcmp(w, "bulk")) {
		in->sub = CP_BULK0;
		return 0;
	}
	if (!strcmp(w, "mbarrier")) {
		in->sub = CP_MBARRIER;
		return 0;
	}
	if (!strcmp(w, "commit_group") || !strcmp(w, "wait_group") ||
	    !strcmp(w, "wait_all")) {
		in->op = OP_NOP;
		return 0;
	}
	if (!strcmp(w, "shared") || !strcmp(w, "shared::cta") ||
	    !strcmp(w, "global") || !strcmp(w, "ca") || !strcmp(w, "cg"))
		return 0;   /* the one direction; caching is not modelled */
	if (!strcmp(w, "L2::cache_hint")) {
		in->flags |= F_HINT;
		return 0;
	}
	if (!strncmp(w, "L2::", 4))
		return 0;   /* a prefetch size */
	return fail(P, EX_UNSUPPORTED, "the instruction 'cp.async.%s'", w), -1;
}

static int find_word(const char *const *tab, size_t n, const char *w)
{
	for (size_t i = 1; i < n; i++)
		if (!strcmp(tab[i], w))
			return (int)i;
	return 0;
}

/* One modifier of an opcode (without its dot). */
/* tex, tld4, suld and sust: their geometry, tld4's component, a
 * surface's boundary mode; .b (unformatted) surface accesses only. */
static int tex_modifier(struct parser *P, struct insn *in, const char *w)
{
	static const char *const geom[] = { NULL, "1d", "2d", "3d", "a1d",
		"a2d", "cube", "acube" };
	static const char *const comp[] = { "r", "g", "b", "a" };
	static const char *const mode[] = { NULL, "trap", "clamp", "zero" };
	int k;

	if ((k = find_word(geom, sizeof geom / sizeof *geom, w)) && !in->sub) {
		in->sub = (uint8_t)k;
		return 0;
	}
	if (in->op == OP_TEX && !strcmp(w, "level")) { in->flags |= F_LEVEL; return 0; }
	if (in->op == OP_TEX && !strcmp(w, "grad")) { in->flags |= F_GRAD; return 0; }
	if (in->op == OP_TEX && !strcmp(w, "base")) return 0;
	if (in->op == OP_TLD4) {
		for (k = 0; k < 4; k++)
			if (!strcmp(w, comp[k])) {
				in->boolop = (uint8_t)k;
				return 0;
			}
	}
	if (in->op == OP_SULD || in->op == OP_SUST) {
		if (!strcmp(w, "b"))
			return 0;
		if (!strcmp(w, "p"))
			return fail(P, EX_UNSUPPORTED, "a formatted surface "
				    "access (%s.p)", in->op == OP_SULD ?
				    "suld" : "sust"), -1;
		if ((k = find_word(mode, 4, w)) && !in->boolop) {
			in->boolop = (uint8_t)k;
			return 0;
		}
	}
	if (!strcmp(w, "v2")) { in->vec = 2; return 0; }
	if (!strcmp(w, "v4")) { in->vec = 4; return 0; }
	for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++)
		if (!strcmp(ignored[i], w))
			return 0;
	return fail(P, EX_UNSUPPORTED, "the modifier .%s of a texture or "
		    "surface instruction", w), -1;
}

/* A SIMD video instruction's words: its types (d, a, b; vset's a, b)
 * as the signedness of each one's lanes, .sat, .add and vset's
 * comparison. */
static int video_modifier(struct parser *P, struct modctx *c, const char *w)
{
	static const uint32_t sign[2][3] = { { F_VD_S, F_VA_S, F_VB_S },
					     { F_VA_S, F_VB_S, 0 } };
	struct insn *in = c->in;
	bool set = in->sub == VO_SET;
	int k;

	if (!strcmp(w, "u32") || !strcmp(w, "s32")) {
		if (c->ntypes >= (set ? 2 : 3))
			return fail(P, EX_INVALID_PTX, "too many types"), -1;
		if (w[0] == 's')
			in->flags |= sign[set][c->ntypes];
		in->type = T_U32;
		c->ntypes++;
		return 0;
	}
	if (!set && !strcmp(w, "sat")) { in->flags |= F_SAT; return 0; }
	if (!strcmp(w, "add")) { in->flags |= F_VACC; return 0; }
	if (set && (k = find_word(cmps, 7, w)) && !in->boolop) {
		in->boolop = (uint8_t)k;
		return 0;
	}
	return fail(P, EX_INVALID_PTX, "the modifier .%s of a SIMD video "
		    "instruction", w), -1;
}

/* wmma.load.{a,b,c}, wmma.store.d and wmma.mma's words: the layouts
 * (a load's or store's one, mma's A's then B's), the shape, the space, and
 * the types: a load's or store's one; mma's dtype and ctype (A and B
 * f16), or dtype, atype, btype and ctype (type, type3, type2). */
static int wmma_modifier(struct parser *P, struct modctx *c, const char *w)
{
	static const char *const ops[] = { NULL, "load", "store", "mma" };
	static const char *const shapes[] = { NULL, "m16n16k16", "m8n32k16",
		"m32n8k16", "m16n16k8", "m8n8k4", "m16n8k16", "m16n8k8",
		"m16n8k32", "m16n8k4" };
	static const char *const mats[] = { "a", "b", "c", "d" };
	struct insn *in = c->in;
	char dotted[40];
	enum ptype t;
	int k;

	if (!in->sub) {
		if (!(k = find_word(ops, sizeof ops / sizeof *ops, w)))
			return fail(P, EX_UNSUPPORTED,
				    "the instruction 'wmma.%s'", w), -1;
		in->sub = (uint8_t)k;
		return 0;
	}
	for (k = 0; k < 4 && in->sub != WM_MMA && c->ntypes == 0; k++)
		if (!strcmp(w, mats[k]) && !(in->boolop & WM_SEEN_LAYOUT)) {
			in->boolop = (uint8_t)((in->boolop & ~WM_WHICH) | k);
			return 0;
		}
	if (!strcmp(w, "row") || !strcmp(w, "col")) {
		bool second = in->boolop & WM_SEEN_LAYOUT;
		if (!strcmp(w, "col"))
			in->boolop |= second ? WM_COL_B : WM_COL_A;
		in->boolop |= WM_SEEN_LAYOUT;
		return 0;
	}
	if ((k = find_word(shapes, sizeof shapes / sizeof *shapes, w))) {
		in->vec = (uint8_t)k;
		return 0;
	}
	snprintf(dotted, sizeof dotted, ".%s", w);
	if ((t = type_of(dotted, (int)strlen(dotted))) != T_NONE) {
		switch (c->ntypes++) {
		case 0: in->type = (uint8_t)t; break;
		case 1: in->type2 = (uint8_t)t; break;
		case 2: in->type3 = in->type2; in->type2 = (uint8_t)t; break;
		case 3: in->type2 = (uint8_t)t; break;
		default:
			return fail(P, EX_INVALID_PTX, "too many types"), -1;
		}
		return 0;
	}
	if (!strcmp(w, "rn") || !strcmp(w, "sync") || !strcmp(w, "aligned"))
		return 0;
	if (!strcmp(w, "satfinite")) {
		in->flags |= F_SAT;
		return 0;
	}
	if (!strcmp(w, "global") || !strcmp(w, "shared") ||
	    !strcmp(w, "shared::cta")) {
		in->space = w[0] == 'g' ? SP_GLOBAL : SP_SHARED;
		return 0;
	}
	return fail(P, EX_UNSUPPORTED, "the modifier .%s of %s", w,
		    in->op == OP_MMA ? "mma" : "wmma"), -1;
}

/* ldmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{.trans}{.shared{::cta}}.b16:
 * the tiles' count (vec) and the transposition. */
static int ldmatrix_modifier(struct parser *P, struct modctx *c,
			     const char *w)
{
	struct insn *in = c->in;

	if (!strcmp(w, "sync") || !strcmp(w, "aligned") || !strcmp(w, "m8n8"))
		return 0;
	if (!strcmp(w, "x1") || !strcmp(w, "x2") || !strcmp(w, "x4")) {
		in->vec = (uint8_t)(w[1] - '0');
		return 0;
	}
	if (!strcmp(w, "trans")) {
		in->boolop |= LDM_TRANS;
		return 0;
	}
	if (!strcmp(w, "shared") || !strcmp(w, "shared::cta")) {
		in->space = SP_SHARED;
		return 0;
	}
	if (!strcmp(w, "b16"))
		return set_type(P, c, T_B16);
	return fail(P, EX_UNSUPPORTED, "the modifier .%s of ldmatrix", w), -1;
}

static int modifier(struct parser *P, struct modctx *c, const char *w)
{
	struct insn *in = c->in;
	char dotted[40];
	enum ptype t;
	int k;

	if (in->op == OP_VIDEO)
		return video_modifier(P, c, w);
	if (in->op == OP_WMMA || in->op == OP_MMA)
		return wmma_modifier(P, c, w);
	if (in->op == OP_LDMATRIX)
		return ldmatrix_modifier(P, c, w);
	snprintf(dotted, sizeof dotted, ".%s", w);
	t = type_of(dotted, (int)strlen(dotted));
	if (t != T_NONE)
		return set_type(P, c, t);
	switch (in->op) {
	case OP_SETP: case OP_SET:
		if ((k = find_word(cmps, sizeof cmps / sizeof *cmps, w)) &&
		    !in->sub) {
			in->sub = (uint8_t)k;
			return 0;
		}
		if (!strcmp(w, "and")) { in->boolop = B_AND; return 0; }
		if (!strcmp(w, "or")) { in->boolop = B_OR; return 0; }
		if (!strcmp(w, "xor")) { in->boolop = B_XOR; return 0; }
		break;
	case OP_ATOM: case OP_RED: case OP_REDUX: case OP_BAR_RED:
		if ((k = find_word(aops, sizeof aops / sizeof *aops, w)) &&
		    !in->sub) {
			in->sub = (uint8_t)k;
			return 0;
		}
		if (in->op == OP_BAR_RED && !strcmp(w, "popc")) {
			in->sub = A_ADD;
			return 0;
		}
		/* the vector atomics' widest, eight halves */
		if (in->op != OP_REDUX && !strcmp(w, "v8")) {
			in->vec = 8;
			return 0;
		}
		break;
	case OP_SHFL:
		if (!strcmp(w, "up")) { in->sub = SH_UP; return 0; }
		if (!strcmp(w, "down")) { in->sub = SH_DOWN; return 0; }
		if (!strcmp(w, "bfly")) { in->sub = SH_BFLY; return 0; }
		if (!strcmp(w, "idx")) { in->sub = SH_IDX; return 0; }
		break;
	case OP_VOTE:
		if (!strcmp(w, "all")) { in->sub = V_ALL; return 0; }
		if (!strcmp(w, "any")) { in->sub = V_ANY; return 0; }
		if (!strcmp(w, "uni")) { in->sub = V_UNI; return 0; }
		if (!strcmp(w, "ballot")) { in->sub = V_BALLOT; return 0; }
		break;
	case OP_MATCH:
		if (!strcmp(w, "any")) { in->sub = M_ANY; return 0; }
		if (!strcmp(w, "all")) { in->sub = M_ALL; return 0; }
		break;
	case OP_TESTP: {
		static const char *const tp[] = { NULL, "finite", "infinite",
			"number", "notanumber", "normal", "subnormal" };
		if ((k = find_word(tp, 7, w))) { in->sub = (uint8_t)k; return 0; }
		break;
	}
	case OP_PRMT: {
		static const char *const pm[] = { NULL, "f4e", "b4e", "rc8",
			"ecl", "ecr", "rc16" };
		if ((k = find_word(pm, 7, w))) { in->sub = (uint8_t)k; return 0; }
		break;
	}
	case OP_MBARRIER: {
		static const char *const mb[] = { NULL, "init", "arrive",
			"arrive_drop", "test_wait", "try_wait", "pending_count",
			"inval", "expect_tx", "complete_tx" };
		if ((k = find_word(mb, 10, w)) && !in->sub) {
			in->sub = (uint8_t)k;
			return 0;
		}
		/* arrive.expect_tx: the bytes expected, then one arrival */
		if (in->sub == MB_ARRIVE && !strcmp(w, "expect_tx")) {
			in->sub = MB_ARRIVE_TX;
			return 0;
		}
		if (!strcmp(w, "noComplete")) { in->flags |= F_NOCOMPLETE; return 0; }
		if (!strcmp(w, "parity")) { in->flags |= F_PARITY; return 0; }
		break;
	}
	case OP_SHF: case OP_BMSK:
		if (!strcmp(w, "l") && in->op == OP_SHF) return 0;
		if (!strcmp(w, "r") && in->op == OP_SHF) {
			in->flags |= F_RIGHT;
			return 0;
		}
		if (!strcmp(w, "wrap")) return 0;
		if (!strcmp(w, "clamp")) { in->flags |= F_CLAMP; return 0; }
		break;
	case OP_CPASYNC:
		return cp_modifier(P, in, w);
	case OP_TEX: case OP_TLD4: case OP_SULD: case OP_SUST:
		return tex_modifier(P, in, w);
	case OP_BAR:
		if (!strcmp(w, "arrive")) { in->op = OP_BAR_ARRIVE; return 0; }
		if (!strcmp(w, "red")) { in->op = OP_BAR_RED; return 0; }
		if (!strcmp(w, "warp")) { in->op = OP_BAR_WARP; return 0; }
		break;
	default:
		break;
	}
	if (!strcmp(w, "rn")) { in->rnd = R_RN; return 0; }
	if (!strcmp(w, "rna")) { in->rnd = R_RNA; return 0; }
	if (!strcmp(w, "rz")) { in->rnd = R_RZ; return 0; }
	if (!strcmp(w, "rm")) { in->rnd = R_RM; return 0; }
	if (!strcmp(w, "rp")) { in->rnd = R_RP; return 0; }
	if (!strcmp(w, "rni")) { in->rnd = R_RN; in->flags |= F_INT_RND; return 0; }
	if (!strcmp(w, "rzi")) { in->rnd = R_RZ; in->flags |= F_INT_RND; return 0; }
	if (!strcmp(w, "rmi")) { in->rnd = R_RM; in->flags |= F_INT_RND; return 0; }
	if (!strcmp(w, "rpi")) { in->rnd = R_RP; in->flags |= F_INT_RND; return 0; }
	if (!strcmp(w, "ftz")) { in->flags |= F_FTZ; return 0; }
	if (!strcmp(w, "sat") || !strcmp(w, "satfinite")) {
		in->flags |= F_SAT;
		return 0;
	}
	if (!strcmp(w, "approx")) { in->flags |= F_APPROX; return 0; }
	if (!strcmp(w, "full")) { in->flags |= F_FULL; return 0; }
	if (!strcmp(w, "hi")) { in->flags |= F_HI; return 0; }
	if (!strcmp(w, "lo")) { in->flags |= F_LO; return 0; }
	if (!strcmp(w, "wide")) { in->flags |= F_WIDE; return 0; }
	if (!strcmp(w, "cc")) { in->flags |= F_CC; return 0; }
	if (!strcmp(w, "to")) { in->flags |= F_TO; return 0; }
	if (!strcmp(w, "nc")) { in->flags |= F_NC; return 0; }
	if (!strcmp(w, "cg") || !strcmp(w, "cv") || !strcmp(w, "volatile") ||
	    !strcmp(w, "relaxed") || !strcmp(w, "acquire")) {
		in->flags |= F_NOL1;
		return 0;
	}
	if (!strcmp(w, "relu")) { in->flags |= F_RELU; return 0; }
	if (!strcmp(w, "NaN")) { in->flags |= F_NAN; return 0; }
	if (!strcmp(w, "shiftamt")) { in->flags |= F_SHIFTAMT; return 0; }
	if (!strcmp(w, "v2")) { in->vec = 2; return 0; }
	if (!strcmp(w, "v4")) { in->vec = 4; return 0; }
	if (!strcmp(w, "global")) { in->space = SP_GLOBAL; return 0; }
	if (!strcmp(w, "shared") || !strcmp(w, "shared::cta")) {
		in->space = SP_SHARED;
		return 0;
	}
	if (!strcmp(w, "local")) { in->space = SP_LOCAL; return 0; }
	if (!strcmp(w, "param")) { in->space = SP_PARAM; return 0; }
	if (!strcmp(w, "const")) { in->space = SP_CONST; return 0; }
	for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++)
		if (!strcmp(ignored[i], w))
			return 0;
	if (!strncmp(w, "L2::", 4) || !strncmp(w, "L1::", 4))
		return 0;
	return fail(P, EX_UNSUPPORTED, "the modifier .%s", w), -1;
}

static struct insn *new_insn(struct parser *P)
{
	struct ex_module *m = P->m;
	struct insn *in;

	if (GROW(P, m->code, m->ncode, m->capcode))
		return NULL;
	in = &m->code[m->ncode++];
	memset(in, 0, sizeof *in);
	in->guard = -1;
	in->guard_reg = -1;
	in->dest2 = -1;
	in->reconv = -1;
	in->vec = 1;
	in->func = P->func;
	in->line = (uint32_t)P->t.line;
	for (int i = 0; i < MAX_OPS; i++)
		in->o[i].reg = in->o[i].var = in->o[i].target = -1;
	return in;
}

static int parse_opcode(struct parser *P, struct insn *in)
{
	char word[128], *dot, *w;
	struct modctx c = { in, 0, false };
	size_t i;

	if (P->t.k != TK_ID || P->t.len >= (int)sizeof word)
		return fail(P, EX_INVALID_PTX, "an instruction expected, found '%.*s'",
			    P->t.len, P->t.s), -1;
	memcpy(word, P->t.s, (size_t)P->t.len);
	word[P->t.len] = '\0';
	next(P);
	dot = strchr(word, '.');
	if (dot)
		*dot = '\0';
	for (i = 0; i < sizeof opcodes / sizeof *opcodes; i++)
		if (!strcmp(opcodes[i].w, word))
			break;
	if (i == sizeof opcodes / sizeof *opcodes)
		return fail(P, EX_UNSUPPORTED, "the instruction '%s'", word), -1;
	in->op = (uint16_t)opcodes[i].op;
	if (in->op == OP_MMA)
		in->sub = WM_MMA;
	if (in->op == OP_VIDEO) {
		static const char *const vops[] = { NULL, "vadd", "vsub",
			"vavrg", "vabsdiff", "vmin", "vmax", "vset" };
		size_t len = strlen(word) - 1;
		for (int k = 1; k < 8; k++)
			if (strlen(vops[k]) == len && !strncmp(word, vops[k], len))
				in->sub = (uint8_t)k;
		in->vec = (uint8_t)(word[len] - '0');
	}
	if (!strcmp(word, "addc") || !strcmp(word, "subc") ||
	    !strcmp(word, "madc"))
		in->flags |= F_CARRYIN;
	if (!strcmp(word, "brx"))
		return fail(P, EX_UNSUPPORTED, "the instruction 'brx.idx'"), -1;
	for (w = dot ? dot + 1 : NULL; w; w = dot ? dot + 1 : NULL) {
		/* split at dots, keeping "::" qualified words whole */
		dot = strchr(w, '.');
		if (dot)
			*dot = '\0';
		if (modifier(P, &c, w))
			return -1;
	}
	return 0;
}

static int imm_operand(struct parser *P, struct operand *o, bool neg)
{
	const struct tok *t = &P->t;

	o->kind = K_IMM;
	if (t->len > 2 && t->s[0] == '0' && (t->s[1] == 'f' || t->s[1] == 'F' ||
					     t->s[1] == 'd' || t->s[1] == 'D')) {
		char buf[24];
		if (t->len - 2 > 16)
			return fail(P, EX_INVALID_PTX, "bad float literal"), -1;
		memcpy(buf, t->s + 2, (size_t)t->len - 2);
		buf[t->len - 2] = '\0';
		o->imm = (int64_t)strtoull(buf, NULL, 16);
		o->fimm = (t->s[1] == 'f' || t->s[1] == 'F') ? 1 : 2;
		if (neg)
			o->imm ^= o->fimm == 1 ? 0x80000000ll : INT64_MIN;
	} else if (memchr(t->s, '.', (size_t)t->len) ||
		   ((memchr(t->s, 'e', (size_t)t->len) ||
		     memchr(t->s, 'E', (size_t)t->len)) &&
		    !(t->len > 1 && (t->s[1] == 'x' || t->s[1] == 'X')))) {
		char buf[64];
		double d;
		if (t->len >= (int)sizeof buf)
			return fail(P, EX_INVALID_PTX, "bad literal"), -1;
		memcpy(buf, t->s, (size_t)t->len);
		buf[t->len] = '\0';
		d = strtod(buf, NULL);
		if (neg)
			d = -d;
		memcpy(&o->imm, &d, 8);
		o->fimm = 3;
	} else {
		if (tok_int(t, &o->imm))
			return fail(P, EX_INVALID_PTX, "bad integer '%.*s'",
				    t->len, t->s), -1;
		if (neg)
			o->imm = -o->imm;
	}
	next(P);
	return 0;
}

static int sreg_of(const struct tok *t)
{
	static const char *const names[] = {
		NULL, "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y",
		"%ntid.z", "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x",
		"%nctaid.y", "%nctaid.z", "%laneid", "%warpid", "%nwarpid",
		"%smid", "%nsmid", "%gridid", "%lanemask_eq", "%lanemask_le",
		"%lanemask_lt", "%lanemask_ge", "%lanemask_gt", "%clock",
		"%clock64", "%globaltimer", "%globaltimer_lo",
		"%globaltimer_hi", "%dynamic_smem_size", "%total_smem_size",
		"%aggr_smem_size", "%reserved_smem_offset_begin",
		"%reserved_smem_offset_end", "%reserved_smem_offset_cap",
		"%reserved_smem_offset_0", "%reserved_smem_offset_1",
	};
	char buf[32];

	if (t->len >= (int)sizeof buf)
		return 0;
	memcpy(buf, t->s, (size_t)t->len);
	buf[t->len] = '\0';
	for (size_t i = 1; i < sizeof names / sizeof *names; i++)
		if (!strcmp(names[i], buf))
			return (int)i;
	if (!strncmp(buf, "%envreg", 7)) {
		char *e;
		long n = strtol(buf + 7, &e, 10);
		if (!*e && e != buf + 7 && n >= 0 && n < 32)
			return S_ENVREG0 + (int)n;
	}
	/* %tid without a component is the x component's register set */
	return 0;
}

static int add_fixup(struct parser *P, int insn, int opnd)
{
	if (GROW(P, P->fix, P->nfix, P->capfix))
		return -1;
	P->fix[P->nfix] = (struct fixup){ insn, opnd, tokdup(&P->t), P->t.line };
	if (!P->fix[P->nfix].name)
		return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
	P->nfix++;
	return 0;
}

/* A name as an operand: a register, a special register, a variable, a
 * function, or (for branches) a label. */
static int name_operand(struct parser *P, struct insn *in, int slot)
{
	struct operand *o = &in->o[slot];
	struct sym *s;
	int sr;

	if (is(P, "_")) {
		o->kind = K_REG;
		o->reg = -1;
		next(P);
		return 0;
	}
	if ((sr = sreg_of(&P->t))) {
		o->kind = K_SREG;
		o->sreg = (uint8_t)sr;
		if (sr == S_CLOCK || sr == S_CLOCK64)
			P->m->uses_clock = true;
		next(P);
		return 0;
	}
	/* PTX's one predefined constant: the warp size, an immediate 32
	 * (nvcc emits it for warpSize). */
	if (P->t.len == 7 && !memcmp(P->t.s, "WARP_SZ", 7)) {
		o->kind = K_IMM;
		o->imm = 32;
		o->fimm = 0;
		next(P);
		return 0;
	}
	s = lookup(P, P->t.s, P->t.len);
	if (!s) {
		if (in->op == OP_BRA) {
			o->kind = K_LABEL;
			if (add_fixup(P, P->m->ncode - 1, slot))
				return -1;
			next(P);
			return 0;
		}
		if (P->t.s[0] == '%' && in->op == OP_VIDEO &&
		    memchr(P->t.s, '.', (size_t)P->t.len))
			return fail(P, EX_UNSUPPORTED, "a SIMD video "
				    "instruction's mask or byte selector "
				    "('%.*s')", P->t.len, P->t.s), -1;
		if (P->t.s[0] == '%')
			return fail(P, EX_INVALID_PTX, "undeclared register '%.*s'",
				    P->t.len, P->t.s), -1;
		return fail(P, EX_INVALID_PTX, "undefined name '%.*s'",
			    P->t.len, P->t.s), -1;
	}
	switch (s->k) {
	case SY_REG:
		o->kind = K_REG;
		o->reg = s->idx;
		break;
	case SY_VAR:
		o->kind = K_VAR;
		o->var = s->idx;
		break;
	case SY_FUNC:
		o->kind = K_FUNC;
		o->target = s->idx;
		if (in->op != OP_CALL)   /* its address, for an indirect call */
			P->m->funcs[s->idx].addressed = true;
		break;
	}
	next(P);
	if (o->kind == K_VAR && (is(P, "+") || is(P, "-"))) {
		bool neg = is(P, "-");
		int64_t v;
		next(P);
		if (tok_int(&P->t, &v))
			return fail(P, EX_INVALID_PTX, "bad offset"), -1;
		o->imm = neg ? -v : v;
		next(P);
	}
	return 0;
}

/* [reg], [var], [reg+imm], [var+imm], [imm] */
static int addr_operand(struct parser *P, struct insn *in, int slot)
{
	struct operand *o = &in->o[slot];
	bool first = true;

	o->kind = K_MEM;
	while (!is(P, "]")) {
		bool neg = false;
		if (!first) {
			if (accept(P, "-"))
				neg = true;
			else if (expect(P, "+"))
				return -1;
		}
		if (accept(P, "-"))
			neg = !neg;
		if (P->t.k == TK_NUM) {
			int64_t v;
			if (tok_int(&P->t, &v))
				return fail(P, EX_INVALID_PTX, "bad offset"), -1;
			o->imm += neg ? -v : v;
			next(P);
		} else if (P->t.k == TK_ID && !neg) {
			struct sym *s = lookup(P, P->t.s, P->t.len);
			if (!s || s->k == SY_FUNC)
				return fail(P, EX_INVALID_PTX,
					    "undefined name '%.*s' in an address",
					    P->t.len, P->t.s), -1;
			if (s->k == SY_REG && o->reg < 0)
				o->reg = s->idx;
			else if (s->k == SY_VAR && o->var < 0)
				o->var = s->idx;
			else
				return fail(P, EX_INVALID_PTX, "bad address"), -1;
			next(P);
		} else {
			return fail(P, EX_INVALID_PTX, "bad address"), -1;
		}
		first = false;
	}
	next(P);
	return 0;
}

static int operand(struct parser *P, struct insn *in, int slot);

/* [handle, {coordinates}] of tex, tld4, suld and sust, after its '[':
 * the handle a 64-bit register (a texture or surface object); a name
 * (a .texref, .samplerref or .surfref) is a reference, which nvcc no
 * longer makes. */
static int tex_operand(struct parser *P, struct insn *in, int slot)
{
	struct operand *o = &in->o[slot];
	struct sym *s = P->t.k == TK_ID ? lookup(P, P->t.s, P->t.len) : NULL;

	if (!s || s->k != SY_REG)
		return fail(P, EX_UNSUPPORTED, "a texture or surface "
			    "reference ('%.*s'): objects only", P->t.len,
			    P->t.s), -1;
	if (ptype_bits(P->m->regtype[s->idx]) != 64)
		return fail(P, EX_INVALID_PTX, "a handle of other than 64 "
			    "bits"), -1;
	next(P);
	if (expect(P, ",") || operand(P, in, slot))
		return -1;
	if (o->kind != K_VEC)
		return fail(P, EX_INVALID_PTX, "coordinates expected as a "
			    "vector"), -1;
	o->kind = K_TEX;
	o->reg = s->idx;
	return expect(P, "]");
}

static int operand(struct parser *P, struct insn *in, int slot)
{
	struct operand *o = &in->o[slot];

	if (slot >= MAX_OPS)
		return fail(P, EX_INVALID_PTX, "too many operands"), -1;
	if (accept(P, "[")) {
		if (in->op == OP_CALL)
			return fail(P, EX_UNSUPPORTED, "an indirect call"), -1;
		if (in->op >= OP_TEX && in->op <= OP_SUST)
			return tex_operand(P, in, slot);
		return addr_operand(P, in, slot);
	}
	if (accept(P, "{")) {
		o->kind = K_VEC;
		do {
			if (o->n >= MAX_VEC)
				return fail(P, EX_INVALID_PTX, "a vector too long"), -1;
			if (accept(P, "_")) {
				o->vec[o->n++] = -1;
				continue;
			}
			struct sym *s = P->t.k == TK_ID ?
				lookup(P, P->t.s, P->t.len) : NULL;
			if (!s || s->k != SY_REG)
				return fail(P, EX_INVALID_PTX,
					    "a register expected in a vector"), -1;
			o->vec[o->n++] = s->idx;
			next(P);
		} while (accept(P, ","));
		return expect(P, "}");
	}
	if (accept(P, "!")) {
		if (name_operand(P, in, slot))
			return -1;
		if (o->kind != K_REG)
			return fail(P, EX_INVALID_PTX, "'!' before a non-register"), -1;
		o->neg = 1;
		return 0;
	}
	if (accept(P, "-")) {
		if (P->t.k != TK_NUM)
			return fail(P, EX_INVALID_PTX, "bad operand"), -1;
		return imm_operand(P, o, true);
	}
	if (P->t.k == TK_NUM)
		return imm_operand(P, o, false);
	if (P->t.k == TK_ID)
		return name_operand(P, in, slot);
	return fail(P, EX_INVALID_PTX, "bad operand '%.*s'", P->t.len, P->t.s), -1;
}

/* ( a, b, ... ) of a call: params in scope, as variables */
static int call_list(struct parser *P, struct insn *in, int slot)
{
	struct operand *o = &in->o[slot];
	int cap = 0;

	o->kind = K_LIST;
	if (expect(P, "("))
		return -1;
	while (!is(P, ")")) {
		struct sym *s = P->t.k == TK_ID ? lookup(P, P->t.s, P->t.len) : NULL;
		if (!s || s->k != SY_VAR || P->m->vars[s->idx].space != SP_PARAM)
			return fail(P, EX_UNSUPPORTED,
				    "a call argument that is not a .param ('%.*s')",
				    P->t.len, P->t.s), -1;
		if (o->n >= 32)
			return fail(P, EX_UNSUPPORTED, "more than 32 arguments"), -1;
		if (o->n >= cap) {
			int32_t *l = realloc(o->list, sizeof *l * (size_t)(cap = cap ? cap * 2 : 8));
			if (!l)
				return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
			o->list = l;
		}
		o->list[o->n++] = s->idx;
		next(P);
		if (!accept(P, ","))
			break;
	}
	return expect(P, ")");
}

/* call[.uni] [(ret),] func[, (args)]; or an indirect call through a
 * 64-bit register, naming its prototype or its targets' table last. */
static int parse_call(struct parser *P, struct insn *in)
{
	enum ptype t;

	if (is(P, "(")) {
		if (call_list(P, in, 0) || expect(P, ","))
			return -1;
	} else {
		in->o[0].kind = K_LIST;
	}
	if (operand(P, in, 1))
		return -1;
	t = in->o[1].kind == K_REG ? P->m->regtype[in->o[1].reg] : T_PRED;
	if (in->o[1].kind != K_FUNC &&
	    (in->o[1].kind != K_REG || ptype_bits(t) != 64 || ptype_float(t)))
		return fail(P, EX_INVALID_PTX, "a call of neither a function "
			    "nor a 64-bit register"), -1;
	in->o[2].kind = K_LIST;
	in->nops = 3;
	if (!accept(P, ","))
		return expect(P, ";");
	if (is(P, "(")) {
		if (call_list(P, in, 2))
			return -1;
		if (!accept(P, ","))
			return expect(P, ";");
	}
	/* the prototype or the targets' table: warp.c finds the callee by
	 * its address, whatever they say */
	if (in->o[1].kind != K_REG || P->t.k != TK_ID || P->t.s[0] == '.')
		return fail(P, EX_INVALID_PTX, "a prototype after a direct "
			    "call, or one that is not a name"), -1;
	next(P);
	return expect(P, ";");
}

/* The type an operand is read as, for its immediate. */
static enum ptype operand_type(const struct insn *in, int i)
{
	switch (in->op) {
	case OP_CVT:
		return i == 1 ? in->type2 : in->type;
	case OP_SET:
		return i == 0 ? in->type : in->type2;
	case OP_SETP:
		return i == 3 ? T_PRED : in->type;
	case OP_SELP:
		return i == 3 ? T_PRED : in->type;
	case OP_SLCT:
		return i == 3 ? in->type2 : in->type;
	case OP_SHL: case OP_SHR:
		return i == 2 ? T_U32 : in->type;
	case OP_SHF: case OP_BFE: case OP_BFI: case OP_SHFL: case OP_VOTE:
	case OP_REDUX: case OP_MATCH: case OP_BMSK:
		return (in->op == OP_BFE && i == 1) ||
		       (in->op == OP_BFI && i <= 2) ||
		       (in->op == OP_MATCH && i == 1) ||
		       (in->op == OP_REDUX && i == 1) ? in->type : T_U32;
	default:
		return in->type;
	}
}

static void finish_imm(struct insn *in)
{
	for (int i = 0; i < in->nops; i++) {
		struct operand *o = &in->o[i];
		enum ptype t = operand_type(in, i);
		double d;
		float f;

		if (o->kind != K_IMM) {
			in->immv[i] = 0;
			continue;
		}
		if (t == T_F32) {
			if (o->fimm == 1) {
				in->immv[i] = (uint32_t)o->imm;
				continue;
			}
			if (o->fimm == 0)
				d = (double)o->imm;
			else
				memcpy(&d, &o->imm, 8);
			f = (float)d;
			uint32_t b;
			memcpy(&b, &f, 4);
			in->immv[i] = b;
		} else if (t == T_F64) {
			if (o->fimm == 1) {
				uint32_t b = (uint32_t)o->imm;
				memcpy(&f, &b, 4);
				d = f;
			} else if (o->fimm == 0) {
				d = (double)o->imm;
			} else {
				memcpy(&d, &o->imm, 8);
			}
			memcpy(&in->immv[i], &d, 8);
		} else {
			in->immv[i] = (uint64_t)o->imm;
		}
	}
}

/* An instruction with a half-precision type: the arithmetic, comparisons
 * and conversions half.c computes are marked F_HALF; moves, loads, stores
 * and selections only carry the bits; the rest is refused. */
static int half_insn(struct parser *P, struct insn *in)
{
	switch (in->op) {
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_FMA: case OP_NEG:
	case OP_ABS: case OP_MIN: case OP_MAX: case OP_SETP: case OP_SET:
	case OP_CVT:
		in->flags |= F_HALF;
		return 0;
	case OP_EX2: case OP_TANH:
		if (!(in->flags & F_APPROX))
			break;
		in->flags |= F_HALF;
		return 0;
	case OP_MOV: case OP_LD: case OP_ST: case OP_SELP: case OP_WMMA:
	case OP_MMA:
		return 0;
	case OP_ATOM: case OP_RED:
		/* add.noftz, the one scalar half-precision atomic (the
		 * vector forms: atom_vector_check) */
		if (in->sub == A_ADD && in->vec <= 1)
			return 0;
		break;
	default:
		break;
	}
	return fail(P, EX_UNSUPPORTED, "half-precision types (%s) in this instruction",
		    "f16/bf16"), -1;
}

static int vec_of(struct parser *P, const struct operand *o, unsigned n,
		  const char *what);

/* A vector atom or red (sm_90): global memory only, add of .v2 or .v4
 * f32, add, min or max (.noftz) of .v2 to .v8 f16 or bf16 or of .v2 or
 * .v4 of their pairs, its value (and atom's result) a vector of as many
 * registers. Each element is an atomic of its own (PTX ISA, atom). */
static int atom_vector_check(struct parser *P, struct insn *in)
{
	bool red = in->op == OP_RED, half_op;
	enum ptype t = in->type;
	int v = in->vec, base = red ? 2 : 3;

	half_op = in->sub == A_ADD || in->sub == A_MIN || in->sub == A_MAX;
	if (in->space != SP_GLOBAL && in->space != SP_GENERIC)
		return fail(P, EX_INVALID_PTX, "a vector atomic outside global "
			    "memory"), -1;
	if (!(t == T_F32 && in->sub == A_ADD && (v == 2 || v == 4)) &&
	    !((t == T_F16 || t == T_BF16) && half_op) &&
	    !((t == T_F16X2 || t == T_BF16X2) && half_op && v != 8))
		return fail(P, EX_INVALID_PTX, "a vector atomic other than add "
			    "of .v2 or .v4 .f32, or add, min or max of halves"), -1;
	/* a last register may be .L2::cache_hint's policy */
	if ((in->nops != base &&
	     (in->nops != base + 1 || in->o[base].kind != K_REG)) ||
	    in->o[red ? 0 : 1].kind != K_MEM)
		return fail(P, EX_INVALID_PTX, "a vector atomic's operands"), -1;
	if (vec_of(P, &in->o[red ? 1 : 2], v, "a vector atomic's value") ||
	    (!red && vec_of(P, &in->o[0], v, "a vector atomic's result")))
		return -1;
	return 0;
}

/* mbarrier's operands by its mode: the object's address where it must be,
 * and no more operands than the mode takes. */
static int mbarrier_operands(struct parser *P, struct insn *in)
{
	static const uint8_t mem_at[] = { [MB_INIT] = 0, [MB_ARRIVE] = 1,
		[MB_ARRIVE_DROP] = 1, [MB_TEST_WAIT] = 1, [MB_TRY_WAIT] = 1,
		[MB_INVAL] = 0, [MB_EXPECT_TX] = 0, [MB_COMPLETE_TX] = 0,
		[MB_ARRIVE_TX] = 1 };
	static const uint8_t min[] = { [MB_INIT] = 2, [MB_ARRIVE] = 2,
		[MB_ARRIVE_DROP] = 2, [MB_TEST_WAIT] = 3, [MB_TRY_WAIT] = 3,
		[MB_PENDING] = 2, [MB_INVAL] = 1, [MB_EXPECT_TX] = 2,
		[MB_COMPLETE_TX] = 2, [MB_ARRIVE_TX] = 3 };
	static const uint8_t max[] = { [MB_INIT] = 2, [MB_ARRIVE] = 3,
		[MB_ARRIVE_DROP] = 3, [MB_TEST_WAIT] = 3, [MB_TRY_WAIT] = 4,
		[MB_PENDING] = 2, [MB_INVAL] = 1, [MB_EXPECT_TX] = 2,
		[MB_COMPLETE_TX] = 2, [MB_ARRIVE_TX] = 3 };

	if (in->sub == 0)
		return fail(P, EX_INVALID_PTX, "mbarrier without an operation"), -1;
	if (in->nops < min[in->sub] || in->nops > max[in->sub] ||
	    (in->sub != MB_PENDING && in->o[mem_at[in->sub]].kind != K_MEM))
		return fail(P, EX_INVALID_PTX, "mbarrier's operands"), -1;
	if (in->space != SP_SHARED && in->space != SP_GENERIC)
		return fail(P, EX_INVALID_PTX, "an mbarrier outside shared memory"), -1;
	return 0;
}

/* What the engine refuses of an instruction it parsed, by its types. */
/* cp.async [dst], [src], cp-size{, src-size | ignore-src}{, policy}:
 * whether the operands are those. */
static bool cp_operands_ok(const struct ex_module *m, const struct insn *in)
{
	int n = in->nops - ((in->flags & F_HINT) ? 1 : 0);
	const struct operand *z = &in->o[3];
	int64_t size = in->o[2].imm;

	if (n < 3 || n > 4 || in->o[0].kind != K_MEM ||
	    in->o[1].kind != K_MEM || in->o[2].kind != K_IMM ||
	    (size != 4 && size != 8 && size != 16))
		return false;
	if ((in->flags & F_HINT) && in->o[n].kind != K_REG)
		return false;
	if (n == 3)
		return true;
	if (z->kind == K_IMM)
		return z->imm >= 0 && z->imm <= size;
	if (z->kind != K_REG || z->reg < 0)
		return false;
	return m->regtype[z->reg] == T_PRED ||
	       (!z->neg && !ptype_float(m->regtype[z->reg]));
}

/* cp.async.mbarrier.arrive: a b64 mbarrier object's address, the one
 * operand, in shared memory or a generic address of it (as mbarrier). */
static int cp_arrive_operands(struct parser *P, const struct insn *in)
{
	if (in->sub != CP_ARRIVE)
		return fail(P, EX_UNSUPPORTED, "the instruction 'cp.async.mbarrier'"), -1;
	if (in->type != T_B64 || in->nops != 1 || in->o[0].kind != K_MEM)
		return fail(P, EX_INVALID_PTX,
			    "cp.async.mbarrier.arrive takes .b64 and an mbarrier's address"), -1;
	return 0;
}

/* cp.async.bulk: all its words; [dst], [src], a size (a register or a
 * multiple of 16), then [mbarrier] from global to shared memory. A bulk
 * group's commit takes nothing, its wait a count; both become nops, the
 * copies being made as they run. */
static int cp_bulk_operands(struct parser *P, struct insn *in)
{
	const struct operand *o = in->o;
	int nops = in->sub == CP_BULK ? 4 : 3;

	if (in->sub == CP_BULKGROUP) {
		if (in->nops > 1 || (in->nops == 1 && o[0].kind != K_IMM))
			return fail(P, EX_INVALID_PTX, "a bulk group's wait "
				    "takes a count"), -1;
		in->op = OP_NOP;
		return 0;
	}
	if (in->sub != CP_BULK && in->sub != CP_BULK_S2G)
		return fail(P, EX_UNSUPPORTED, "the instruction 'cp.async.bulk' "
			    "without its spaces and completion"), -1;
	if (in->nops != nops || o[0].kind != K_MEM || o[1].kind != K_MEM ||
	    (nops == 4 && o[3].kind != K_MEM) ||
	    (o[2].kind != K_REG && o[2].kind != K_IMM) ||
	    (o[2].kind == K_IMM && (o[2].imm <= 0 || o[2].imm % 16)))
		return fail(P, EX_INVALID_PTX, "cp.async.bulk takes [dst], "
			    "[src], a size of 16-byte units and, to shared "
			    "memory, [mbarrier]"), -1;
	return 0;
}

/* tex, tld4, suld and sust: the operands their forms take. tex:
 * {d0..d3}, [h, {c}] and, with .level, a level or, with .grad, two
 * gradient vectors; tld4 the first two; suld {d}, [h, {c}]; sust [h,
 * {c}], {s}. Results of f32, s32 or u32 from f32 or s32 coordinates
 * (tld4: f32), surface elements of 8 to 64 bits; the coordinates the
 * geometry needs (a layer first where it has one). */
static int tex_operands(struct parser *P, struct insn *in)
{
	static const uint8_t need[] = { 0, 1, 2, 3, 2, 3, 3, 4 };
	const struct operand *o = in->o;
	bool st = in->op == OP_SUST, surf = in->op >= OP_SULD;
	const struct operand *a = &o[st ? 0 : 1], *v = &o[st ? 1 : 0];
	int extra = (in->flags & F_LEVEL) ? 1 : (in->flags & F_GRAD) ? 2 : 0;
	enum ptype t = in->type, t2 = in->type2;

	if (!in->sub)
		return fail(P, EX_INVALID_PTX, "a texture or surface access "
			    "without its geometry"), -1;
	if (surf && in->sub > G_A2D)
		return fail(P, EX_UNSUPPORTED, "a cube map surface"), -1;
	if (in->op == OP_TLD4 && in->sub != G_2D && in->sub != G_A2D)
		return fail(P, EX_UNSUPPORTED, "tld4 of other than .2d or .a2d"), -1;
	if (in->nops != 2 + extra || a->kind != K_TEX || v->kind != K_VEC ||
	    a->n < need[in->sub] || (extra == 1 && o[2].kind != K_REG &&
	    o[2].kind != K_IMM) || (extra == 2 && (o[2].kind != K_VEC ||
	    o[3].kind != K_VEC)))
		return fail(P, EX_INVALID_PTX, "the operands of a texture or "
			    "surface access"), -1;
	if (surf) {
		unsigned bits = ptype_bits(t);
		if (t2 || bits < 8 || bits > 64 || ptype_float(t) ||
		    v->n != in->vec)
			return fail(P, EX_INVALID_PTX, "a surface access of "
				    ".b8 to .b64, its vector as long as "
				    "its .v"), -1;
		if (!in->boolop)
			in->boolop = SB_TRAP;
		return 0;
	}
	if (in->vec != 4 || v->n != 4)
		return fail(P, EX_UNSUPPORTED, "a texture fetch of other than "
			    ".v4"), -1;
	if ((t != T_F32 && t != T_S32 && t != T_U32) ||
	    (t2 != T_F32 && t2 != T_S32) ||
	    (in->op == OP_TLD4 && t2 != T_F32))
		return fail(P, EX_UNSUPPORTED, "a texture fetch of .%s "
			    "results from .%s coordinates",
			    t == T_F16 || t == T_F16X2 ? "f16" : "other",
			    t2 == T_F32 ? "f32" : "other"), -1;
	return 0;
}

/* A wmma fragment operand: a vector of the registers the fragment takes. */
static int wmma_frag_ok(struct parser *P, const struct operand *o, int which,
			int shape, int type)
{
	struct wm_frag f;

	if (!wm_frag_of(which, shape, type, &f))
		return fail(P, EX_UNSUPPORTED, "a wmma matrix %c of this shape "
			    "and type", "abcd"[which]), -1;
	if (o->kind != K_VEC || o->n != f.regs)
		return fail(P, EX_INVALID_PTX, "a wmma fragment of %u registers "
			    "where it takes %u", o->kind == K_VEC ? o->n : 1,
			    f.regs), -1;
	return 0;
}

/* wmma's operands for its form: a load's fragment, address and stride, a
 * store's address, fragment and stride, mma's D, A, B and C. */
static int check_wmma(struct parser *P, const struct insn *in)
{
	int which = in->boolop & WM_WHICH, atype = in->type3 ? in->type3 : T_F16;
	const struct operand *o = in->o;

	if (!in->vec)
		return fail(P, EX_INVALID_PTX, "wmma without a shape"), -1;
	if (in->sub == WM_MMA)
		return in->nops != 4 ? fail(P, EX_INVALID_PTX, "wmma.mma "
					    "takes four fragments"), -1 :
		       wmma_frag_ok(P, &o[0], WM_D, in->vec, in->type) ||
		       wmma_frag_ok(P, &o[1], WM_A, in->vec, atype) ||
		       wmma_frag_ok(P, &o[2], WM_B, in->vec, atype) ||
		       wmma_frag_ok(P, &o[3], WM_C, in->vec, in->type2) ? -1 : 0;
	if ((in->sub == WM_STORE) != (which == WM_D))
		return fail(P, EX_INVALID_PTX, "wmma.%s of matrix %c",
			    in->sub == WM_STORE ? "store" : "load",
			    "abcd"[which]), -1;
	if (in->nops < 2 || in->nops > 3 ||
	    o[in->sub == WM_STORE ? 0 : 1].kind != K_MEM ||
	    (in->nops == 3 && o[2].kind != K_REG && o[2].kind != K_IMM))
		return fail(P, EX_INVALID_PTX, "wmma.%s takes a fragment, an "
			    "address and a stride", in->sub == WM_STORE ?
			    "store" : "load"), -1;
	return wmma_frag_ok(P, &o[in->sub == WM_STORE ? 1 : 0], which, in->vec,
			    in->type);
}

/* A vector operand of n registers. */
static int vec_of(struct parser *P, const struct operand *o, unsigned n,
		  const char *what)
{
	if (o->kind == K_VEC && o->n == n)
		return 0;
	return fail(P, EX_INVALID_PTX, "%s of %u registers where it takes %u",
		    what, o->kind == K_VEC ? o->n : 1, n), -1;
}

/* The types mma.sync takes of each shape: A and B's, C and D's. */
static bool mma_types_ok(int shape, int ab, int c, int d)
{
	bool half = ab == T_F16 || ab == T_BF16, byte = ab == T_S8 || ab == T_U8;

	if (half && (shape == WS_M16N8K16 || shape == WS_M16N8K8))
		return (c == T_F16 || c == T_F32) && (d == T_F16 || d == T_F32) &&
		       (ab == T_F16 || (c == T_F32 && d == T_F32));
	if (byte && (shape == WS_M16N8K32 || shape == WS_M16N8K16))
		return c == T_S32 && d == T_S32;
	if (ab == T_TF32 && (shape == WS_M16N8K8 || shape == WS_M16N8K4))
		return c == T_F32 && d == T_F32;
	return ab == T_F64 && shape == WS_M8N8K4 && c == T_F64 && d == T_F64;
}

/* mma.sync of the shapes and types mma_types_ok takes (A and B .row.col),
 * its four fragments the registers the PTX ISA gives them; ldmatrix: a
 * vector of as many registers as tiles, and an address. */
static int check_mma(struct parser *P, const struct insn *in)
{
	static const int which[4] = { WM_D, WM_A, WM_B, WM_C };
	static const char *const names[4] = { "mma's D", "mma's A", "mma's B",
					      "mma's C" };
	int ftype[4] = { in->type, in->type3, in->type3, in->type2 };

	if (in->op == OP_LDMATRIX)
		return in->nops != 2 || in->o[1].kind != K_MEM || !in->vec ||
		       in->type != T_B16 ?
		       fail(P, EX_INVALID_PTX, "ldmatrix takes its tiles' "
			    "registers and an address"), -1 :
		       vec_of(P, &in->o[0], in->vec, "ldmatrix's vector");
	if (!mma_types_ok(in->vec, in->type3, in->type2, in->type) ||
	    (in->boolop & (WM_COL_A | WM_COL_B)) != WM_COL_B)
		return fail(P, EX_UNSUPPORTED, "an mma of this shape, layout "
			    "or type"), -1;
	if (in->nops != 4)
		return fail(P, EX_INVALID_PTX, "mma takes four fragments"), -1;
	for (int i = 0; i < 4; i++) {
		struct mma_frag f;
		mma_frag_of(in->vec, which[i], ftype[i], &f);
		if (vec_of(P, &in->o[i], f.elems / f.per, names[i]))
			return -1;
	}
	return 0;
}

/* Whether op takes a braced vector of registers as an operand: loads,
 * stores and moves of vectors, the atomics' vector forms, texture and
 * surface coordinates and results, the tensor core's fragments. An
 * operand in braces anywhere else would be read as no register. */
static bool takes_vectors(int op)
{
	switch (op) {
	case OP_LD: case OP_ST: case OP_MOV: case OP_ATOM: case OP_RED:
	case OP_TEX: case OP_TLD4: case OP_SULD: case OP_SUST:
	case OP_WMMA: case OP_MMA: case OP_LDMATRIX:
		return true;
	default:
		return false;
	}
}

static int check_insn(struct parser *P, struct insn *in)
{
	enum ptype t = in->type, t2 = in->type2;

	for (int i = 0; i < in->nops; i++)
		if (in->o[i].kind == K_VEC &&
		    (!takes_vectors(in->op) ||
		     ((in->op == OP_ATOM || in->op == OP_RED) && in->vec < 2)))
			return fail(P, EX_INVALID_PTX, "a vector operand to an "
				    "instruction that takes none"), -1;
	if (in->op == OP_WMMA)
		return check_wmma(P, in);
	if (in->op == OP_MMA || in->op == OP_LDMATRIX)
		return check_mma(P, in);

	if ((in->op == OP_ATOM || in->op == OP_RED) && in->vec > 1)
		return in->sub == 0 ? fail(P, EX_INVALID_PTX, "atom without an "
					   "operator"), -1
				    : atom_vector_check(P, in);
	if ((ptype_half(t) || ptype_half(t2)) && half_insn(P, in))
		return -1;
	if (t == T_B128 || t2 == T_B128)
		return fail(P, EX_UNSUPPORTED, "the .b128 type"), -1;
	if ((in->op == OP_LD || in->op == OP_ST) && in->vec > 1 &&
	    in->o[in->op == OP_LD ? 0 : 1].kind != K_VEC)
		return fail(P, EX_INVALID_PTX, "a vector access without a vector"), -1;
	if ((in->op == OP_SHFL || in->op == OP_VOTE || in->op == OP_MATCH ||
	     in->op == OP_REDUX) && in->sub == 0 && in->op != OP_REDUX)
		return fail(P, EX_INVALID_PTX, "a mode expected"), -1;
	if (in->op == OP_REDUX && in->sub == 0)
		return fail(P, EX_INVALID_PTX, "redux without an operator"), -1;
	if ((in->op == OP_ATOM || in->op == OP_RED) && in->sub == 0)
		return fail(P, EX_INVALID_PTX, "atom without an operator"), -1;
	if ((in->op == OP_ATOM || in->op == OP_RED) && ptype_bits(t) == 16 &&
	    !ptype_half(t) && in->sub != A_CAS)
		return fail(P, EX_INVALID_PTX, "a 16-bit atomic other than cas.b16 "
			    "or add.noftz.f16 or .bf16"), -1;
	if ((in->op == OP_SETP || in->op == OP_SET) && in->sub == 0)
		return fail(P, EX_INVALID_PTX, "setp without a comparison"), -1;
	if (in->op == OP_SHFL && !(in->flags & 0) && in->nops < 4)
		return fail(P, EX_UNSUPPORTED, "shfl without .sync"), -1;
	if (in->op == OP_VOTE && in->nops < 3)
		return fail(P, EX_UNSUPPORTED, "vote without .sync"), -1;
	if (in->op == OP_TESTP && in->sub == 0)
		return fail(P, EX_INVALID_PTX, "testp without a mode"), -1;
	if (in->op == OP_CPASYNC && !in->sub)
		return fail(P, EX_UNSUPPORTED, "the instruction 'cp'"), -1;
	if (in->op == OP_CPASYNC && in->sub >= CP_BULK0)
		return cp_bulk_operands(P, in);
	if (in->op == OP_CPASYNC && in->sub != CP_COPY)
		return cp_arrive_operands(P, in);
	if (in->op == OP_CPASYNC && !cp_operands_ok(P->m, in))
		return fail(P, EX_INVALID_PTX,
			    "cp.async takes [shared], [global], a size of 4, 8 or 16, "
			    "then a source size or ignore-src predicate"), -1;
	if (in->op == OP_MBARRIER && mbarrier_operands(P, in))
		return -1;
	if (in->op >= OP_TEX && in->op <= OP_SUST)
		return tex_operands(P, in);
	if (in->op == OP_VIDEO && (in->nops != 4 || in->type != T_U32 ||
	    (in->sub == VO_SET && !in->boolop) ||
	    ((in->flags & F_SAT) && (in->flags & F_VACC))))
		return fail(P, EX_INVALID_PTX, "a SIMD video instruction takes "
			    "its types, d, a, b and c (vset a comparison; .sat "
			    "or .add, not both)"), -1;
	return 0;
}

static int parse_insn(struct parser *P)
{
	struct insn *in = new_insn(P);
	int n = 0;

	if (!in)
		return -1;
	if (accept(P, "@")) {
		bool neg = accept(P, "!");
		struct sym *s = P->t.k == TK_ID ? lookup(P, P->t.s, P->t.len) : NULL;
		if (!s || s->k != SY_REG || P->m->regtype[s->idx] != T_PRED)
			return fail(P, EX_INVALID_PTX, "a predicate expected after @"), -1;
		in->guard = neg ? 0 : 1;
		in->guard_reg = s->idx;
		next(P);
	}
	in->line = (uint32_t)P->t.line;
	if (parse_opcode(P, in))
		return -1;
	if (in->op == OP_CALL)
		return parse_call(P, in);
	while (!is(P, ";")) {
		if (P->t.k == TK_EOF)
			return fail(P, EX_INVALID_PTX, "';' expected"), -1;
		if (n && expect(P, ","))
			return -1;
		if (operand(P, in, n))
			return -1;
		if (accept(P, "|")) {
			/* setp's %p|%q, shfl's %r|%p */
			struct sym *s = P->t.k == TK_ID ?
				lookup(P, P->t.s, P->t.len) : NULL;
			if (accept(P, "_")) {
				in->dest2 = -1;
			} else {
				if (!s || s->k != SY_REG)
					return fail(P, EX_INVALID_PTX, "a register after '|'"), -1;
				in->dest2 = s->idx;
				next(P);
			}
		}
		n++;
	}
	in->nops = (uint8_t)n;
	finish_imm(in);
	if (check_insn(P, in))  /* on the ';', so the refusal names its line */
		return -1;
	next(P);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Functions                                                           */

static int param_list(struct parser *P, struct pfunc *f, bool rets)
{
	if (expect(P, "("))
		return -1;
	while (!is(P, ")")) {
		int v;
		if (expect(P, ".param"))
			return -1;
		if (is(P, ".reg"))
			return fail(P, EX_UNSUPPORTED, ".reg parameters"), -1;
		v = parse_var(P, SP_PARAM, false);
		if (v < 0)
			return -1;
		if (rets) {
			if (f->nret >= 4)
				return fail(P, EX_UNSUPPORTED, "more than 4 return values"), -1;
			f->ret[f->nret++] = v;
		} else {
			if (f->nparam >= 32)
				return fail(P, EX_UNSUPPORTED, "more than 32 parameters"), -1;
			f->param[f->nparam++] = v;
		}
		if (!accept(P, ","))
			break;
	}
	return expect(P, ")");
}

static int dims(struct parser *P, uint32_t d[3])
{
	for (int i = 0; i < 3; i++) {
		int64_t v;
		if (tok_int(&P->t, &v) || v < 0 || v > UINT32_MAX)
			return fail(P, EX_INVALID_PTX, "bad dimension"), -1;
		d[i] = (uint32_t)v;
		next(P);
		if (!accept(P, ","))
			break;
	}
	return 0;
}

static int resolve_labels(struct parser *P)
{
	for (int i = 0; i < P->nfix; i++) {
		struct fixup *x = &P->fix[i];
		int j;
		for (j = 0; j < P->nlabels; j++)
			if (!strcmp(P->labels[j].name, x->name))
				break;
		if (j == P->nlabels) {
			P->t.line = x->line;
			return fail(P, EX_INVALID_PTX, "undefined label '%s'",
				    x->name), -1;
		}
		P->m->code[x->insn].o[x->opnd].target = P->labels[j].at;
	}
	for (int i = 0; i < P->nfix; i++)
		free(P->fix[i].name);
	for (int i = 0; i < P->nlabels; i++)
		free(P->labels[i].name);
	P->nfix = P->nlabels = 0;
	return 0;
}

static int body_stmt(struct parser *P);

static int body(struct parser *P)
{
	P->depth++;
	while (!accept(P, "}")) {
		if (P->t.k == TK_EOF)
			return fail(P, EX_INVALID_PTX, "'}' expected"), -1;
		if (body_stmt(P))
			return -1;
	}
	pop_scope(P);
	return 0;
}

static int body_stmt(struct parser *P)
{
	if (accept(P, "{"))
		return body(P);
	if (accept(P, ".reg"))
		return parse_reg(P);
	if (is(P, ".local") || is(P, ".shared") || is(P, ".param")) {
		enum space sp = is(P, ".local") ? SP_LOCAL :
				is(P, ".shared") ? SP_SHARED : SP_PARAM;
		next(P);
		if (parse_var(P, sp, false) < 0)
			return -1;
		return expect(P, ";");
	}
	if (is(P, ".global") || is(P, ".const"))
		return fail(P, EX_INVALID_PTX, "%.*s inside a function",
			    P->t.len, P->t.s), -1;
	if (accept(P, ".pragma") || accept(P, ".callprototype") ||
	    accept(P, ".calltargets")) {
		/* an indirect call's prototype or target list, after its
		 * label: nothing to run (warp.c finds a callee by address) */
		while (!is(P, ";") && P->t.k != TK_EOF)
			next(P);
		return expect(P, ";");
	}
	if (is(P, ".loc")) {
		/* line information: the directive ends with its line */
		int line = P->t.line;
		while (P->t.k != TK_EOF && P->t.line == line)
			next(P);
		return 0;
	}
	if (P->t.k == TK_ID && P->t.s[0] != '.' && P->t.s[0] != '@') {
		/* a label? */
		const char *save = P->p;
		int line = P->line;
		struct tok t = P->t;
		next(P);
		if (accept(P, ":")) {
			if (GROW(P, P->labels, P->nlabels, P->caplabels))
				return -1;
			P->labels[P->nlabels].name = tokdup(&t);
			P->labels[P->nlabels++].at = P->m->ncode;
			return 0;
		}
		P->p = save;
		P->line = line;
		P->t = t;
	}
	if (P->t.k == TK_ID && P->t.s[0] == '.')
		return fail(P, EX_UNSUPPORTED, "the directive %.*s", P->t.len,
			    P->t.s), -1;
	return parse_insn(P);
}

static void end_function(struct parser *P, struct pfunc *f)
{
	struct insn *fret = new_insn(P);

	if (!fret)
		return;
	fret->op = OP_FRET;
	f->end = P->m->ncode - 1;
	for (int i = f->first; i < f->end; i++) {
		struct insn *in = &P->m->code[i];
		if (in->op == OP_RET && !f->entry) {
			/* a return is a branch to the function's one end,
			 * where its lanes reconverge before leaving */
			in->op = OP_BRA;
			in->o[0].kind = K_LABEL;
			in->o[0].target = f->end;
			in->nops = 1;
		} else if (in->op == OP_RET) {
			in->op = OP_EXIT;
		}
	}
}

/* .entry/.func after its linkage: [.func (ret)] name (params) [perf] {body}|;
 * A declaration keeps its slot; the definition that follows takes it, so
 * calls parsed in between already name the right function. */
static int parse_header(struct parser *P, struct pfunc *f, char **name)
{
	P->depth++;   /* the parameters' names, while the header is read */
	if (!f->entry && is(P, "(") && param_list(P, f, true))
		return -1;
	if (P->t.k != TK_ID || P->t.s[0] == '.')
		return fail(P, EX_INVALID_PTX, "a function name expected"), -1;
	*name = tokdup(&P->t);
	if (!*name)
		return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
	next(P);
	if (is(P, "(") && param_list(P, f, false))
		return -1;
	for (;;) {
		uint32_t d[3] = { 0 };
		if (accept(P, ".maxntid")) {
			if (dims(P, f->info.maxntid)) return -1;
		} else if (accept(P, ".reqntid")) {
			if (dims(P, f->info.reqntid)) return -1;
		} else if (accept(P, ".minnctapersm")) {
			if (dims(P, d)) return -1;
			f->info.minnctapersm = d[0];
		} else if (accept(P, ".maxclusterrank")) {
			if (dims(P, d)) return -1;
			f->info.max_cluster_rank = d[0];
		} else if (accept(P, ".maxnreg") || accept(P, ".maxnctapersm") ||
			   accept(P, ".reqnctapercluster") ||
			   accept(P, ".explicitcluster") || accept(P, ".noreturn")) {
			if (P->t.k == TK_NUM && dims(P, d)) return -1;
		} else if (accept(P, ".pragma")) {
			while (!is(P, ";") && P->t.k != TK_EOF) next(P);
			if (expect(P, ";")) return -1;
		} else {
			break;
		}
	}
	pop_scope(P);
	return 0;
}

static int parse_function(struct parser *P, bool entry, bool external)
{
	struct ex_module *m = P->m;
	struct pfunc f = { 0 };
	struct sym *s;
	char *name = NULL;
	int fi;

	f.entry = entry;
	f.is_extern = external;
	f.unit = P->unit;
	f.line = (uint32_t)P->t.line;
	if (parse_header(P, &f, &name)) {
		free(name);
		return -1;
	}
	f.name = name;
	f.weak = P->linkage == LK_WEAK;
	s = lookup(P, name, (int)strlen(name));
	if (s && s->unit != P->unit && P->linkage == LK_INTERNAL)
		s = NULL;      /* a name of its own, shadowing the other's */
	if (s && s->k == SY_FUNC && m->funcs[s->idx].entry == entry &&
	    is(P, ";")) {
		/* declared again: the slot, defined or not, stands */
		free(name);
		next(P);
		return 0;
	}
	if (s && s->k == SY_FUNC && m->funcs[s->idx].defined &&
	    m->funcs[s->idx].entry == entry &&
	    (f.weak || m->funcs[s->idx].weak)) {
		/* a weak definition another stands for: read into a slot no
		 * name reaches */
		s = NULL;
		f.discarded = true;
	} else if (s && (s->k != SY_FUNC || m->funcs[s->idx].defined ||
			 m->funcs[s->idx].entry != entry)) {
		fail(P, EX_INVALID_PTX, "'%s' defined twice", name);
		free(name);
		return -1;
	}
	if (s) {
		fi = s->idx;
		free(m->funcs[fi].name);
		/* an initializer may have taken its address before */
		f.addressed = m->funcs[fi].addressed;
	} else if (f.discarded) {
		if (GROW(P, m->funcs, m->nfuncs, m->capfuncs)) {
			free(name);
			return -1;
		}
		fi = m->nfuncs++;
	} else {
		if (GROW(P, m->funcs, m->nfuncs, m->capfuncs)) {
			free(name);
			return -1;
		}
		fi = m->nfuncs++;
		if (define(P, name, SY_FUNC, fi))
			return -1;
	}
	if (!strcmp(name, "vprintf"))
		f.builtin = OP_VPRINTF;
	else if (!strcmp(name, "malloc"))
		f.builtin = OP_MALLOC;
	else if (!strcmp(name, "free"))
		f.builtin = OP_FREE;
	else if (!strcmp(name, "__assertfail"))
		f.builtin = OP_ASSERTFAIL;
	else if (!strcmp(name, "cudaGraphSetConditional"))
		f.builtin = OP_SETCOND;
	else if ((f.devrt = ex_devrt_find(name)) >= 0)
		f.builtin = OP_DEVRT;
	m->funcs[fi] = f;
	if (accept(P, ";"))
		return 0;
	if (expect(P, "{"))
		return -1;
	if (f.builtin)
		return fail(P, EX_INVALID_PTX, "'%s' defined", name), -1;
	P->depth++;   /* the parameters again, for the body */
	for (int i = 0; i < f.nparam + f.nret; i++) {
		int v = i < f.nparam ? f.param[i] : f.ret[i - f.nparam];
		m->vars[v].func = fi;
		if (define(P, m->vars[v].name, SY_VAR, v))
			return -1;
	}
	m->funcs[fi].defined = true;
	m->funcs[fi].first = m->ncode;
	m->funcs[fi].reg_first = m->nregs;
	P->func = fi;
	if (body(P))
		return -1;
	m->funcs[fi].reg_end = m->nregs;
	end_function(P, &m->funcs[fi]);
	pop_scope(P);
	P->func = -1;
	return resolve_labels(P);
}

/* ------------------------------------------------------------------ */
/* The module                                                          */

static int parse_version(struct parser *P)
{
	int64_t maj, min = 0;
	char buf[16];
	char *dot;

	if (P->t.k != TK_NUM || P->t.len >= (int)sizeof buf)
		return fail(P, EX_INVALID_PTX, "bad .version"), -1;
	memcpy(buf, P->t.s, (size_t)P->t.len);
	buf[P->t.len] = '\0';
	dot = strchr(buf, '.');
	if (!dot)
		return fail(P, EX_INVALID_PTX, "bad .version"), -1;
	maj = strtol(buf, NULL, 10);
	min = strtol(dot + 1, NULL, 10);
	/* a linked module's: the newest of its texts' */
	if ((unsigned)(maj * 10 + min) > P->m->version)
		P->m->version = (unsigned)(maj * 10 + min);
	if (maj * 10 + min > PTX_MAX_VERSION)
		return fail(P, EX_UNSUPPORTED_PTX,
			    ".version %d.%d is newer than 9.0", (int)maj,
			    (int)min), -1;
	if (maj < 1)
		return fail(P, EX_INVALID_PTX, "bad .version"), -1;
	next(P);
	return 0;
}

/* .target sm_XX[a|f][, texmode..., debug, map_f64_to_f32] */
static int parse_target(struct parser *P)
{
	do {
		if (P->t.k != TK_ID)
			return fail(P, EX_INVALID_PTX, "bad .target"), -1;
		if (P->t.len > 3 && !memcmp(P->t.s, "sm_", 3)) {
			char buf[16];
			char *e;
			long sm;
			if (P->t.len >= (int)sizeof buf)
				return fail(P, EX_INVALID_PTX, "bad .target"), -1;
			memcpy(buf, P->t.s, (size_t)P->t.len);
			buf[P->t.len] = '\0';
			sm = strtol(buf + 3, &e, 10);
			if (sm > P->m->sm ||
			    ((*e == 'a' || *e == 'f') && sm / 10 != P->m->sm / 10) ||
			    (*e == 'a' && sm != P->m->sm))
				return fail(P, EX_NO_BINARY_FOR_GPU,
					    ".target %s is not for sm_%d", buf,
					    P->m->sm), -1;
			if (*e && !((*e == 'a' || *e == 'f') && !e[1]))
				return fail(P, EX_INVALID_PTX, "bad .target %s", buf), -1;
		} else if (is(P, "debug")) {
			/* debug information: nothing to run differently */
		} else if (is(P, "map_f64_to_f32")) {
			return fail(P, EX_UNSUPPORTED, "map_f64_to_f32"), -1;
		} else if (!is(P, "texmode_unified") && !is(P, "texmode_independent")) {
			return fail(P, EX_INVALID_PTX, "bad .target '%.*s'",
				    P->t.len, P->t.s), -1;
		}
		next(P);
	} while (accept(P, ","));
	return 0;
}

/* Skips a .section (debug information) or .file. */
static int skip_section(struct parser *P)
{
	int depth = 0;

	while (P->t.k != TK_EOF) {
		if (is(P, "{"))
			depth++;
		else if (is(P, "}") && --depth == 0) {
			next(P);
			return 0;
		}
		next(P);
	}
	return fail(P, EX_INVALID_PTX, "an unterminated .section"), -1;
}

static int top_stmt(struct parser *P)
{
	bool external = false;

	P->linkage = LK_INTERNAL;
	for (;;) {
		if (accept(P, ".visible")) {
			P->linkage = LK_VISIBLE;
			continue;
		}
		if (accept(P, ".weak") || accept(P, ".common")) {
			P->linkage = LK_WEAK;
			continue;
		}
		if (accept(P, ".extern")) {
			external = true;
			P->linkage = LK_EXTERN;
			continue;
		}
		break;
	}
	if (accept(P, ".entry"))
		return parse_function(P, true, external);
	if (accept(P, ".func"))
		return parse_function(P, false, external);
	if (is(P, ".global") || is(P, ".const") || is(P, ".shared")) {
		enum space sp = is(P, ".global") ? SP_GLOBAL :
				is(P, ".const") ? SP_CONST : SP_SHARED;
		next(P);
		if (parse_var(P, sp, external) < 0)
			return -1;
		return expect(P, ";");
	}
	if (external)
		return fail(P, EX_INVALID_PTX, "bad .extern"), -1;
	if (accept(P, ".address_size")) {
		int64_t v;
		if (tok_int(&P->t, &v) || (v != 32 && v != 64))
			return fail(P, EX_INVALID_PTX, "bad .address_size"), -1;
		if (v != 64)
			return fail(P, EX_UNSUPPORTED, ".address_size 32"), -1;
		next(P);
		return 0;
	}
	if (is(P, ".file")) {
		int line = P->t.line;
		while (P->t.k != TK_EOF && P->t.line == line)
			next(P);
		return 0;
	}
	if (accept(P, ".section"))
		return skip_section(P);
	if (is(P, ".version") || is(P, ".target"))
		return fail(P, EX_INVALID_PTX, "%.*s twice", P->t.len, P->t.s), -1;
	if (is(P, ".local"))
		return fail(P, EX_INVALID_PTX, ".local at module scope"), -1;
	return fail(P, EX_INVALID_PTX, "unexpected '%.*s'", P->t.len ? P->t.len : 3,
		    P->t.len ? P->t.s : "end"), -1;
}

/* ------------------------------------------------------------------ */
/* After the parse: calls, layout, kernels' facts                      */

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* The name a text of the link was given, for the log. */
static const char *unit_name(const struct parser *P, int unit)
{
	const char *n = P->texts[unit].name;

	return n && n[0] ? n : "(unnamed)";
}

/* A linked module's variables declared .extern are defined by a text:
 * an undefined one is refused as the driver's linker refuses it. */
static int check_vars(struct parser *P)
{
	const struct ex_module *m = P->m;

	if (!(P->flags & EX_LINK_NAMED))
		return 0;
	for (int i = 0; i < m->nvars; i++) {
		const struct pvar *v = &m->vars[i];
		if (v->func < 0 && v->external && !v->is_extern_shared &&
		    (v->space == SP_GLOBAL || v->space == SP_CONST))
			return fail(P, EX_INVALID_PTX,
				    "undefined reference to '%s' in '%s'",
				    v->name, unit_name(P, v->unit)), -1;
	}
	return 0;
}

/* A call of the device runtime's entry f: its parameters and result
 * as nvcc declares them; the entry in the instruction. The entries that
 * take memory from the device heap (a launch's parameter buffer,
 * cudaMalloc) make the caller a heap user. */
static int devrt_call(struct parser *P, struct insn *in,
		      const struct pfunc *f)
{
	struct ex_module *m = P->m;
	uint64_t param[8], ret[4];
	int np = in->o[2].n, nr = in->o[0].n;

	if (np > 8 || nr > 4)
		np = nr = -1;
	for (int i = 0; i < np; i++)
		param[i] = m->vars[in->o[2].list[i]].size;
	for (int i = 0; i < nr; i++)
		ret[i] = m->vars[in->o[0].list[i]].size;
	if (np < 0 || !ex_devrt_takes(f->devrt, param, np, ret, nr))
		return fail(P, EX_INVALID_PTX, "call of '%s' with the wrong "
			    "parameters", f->name), -1;
	in->sub = (uint8_t)f->devrt;
	m->uses_devrt = true;
	if (f->devrt == DEVRT_PARAM_BUFFER || f->devrt == DEVRT_LAUNCH ||
	    f->devrt == DEVRT_PARAM_BUFFER_V1 ||
	    f->devrt == DEVRT_LAUNCH_V1 || f->devrt == DEVRT_MALLOC ||
	    f->devrt == DEVRT_FREE)
		m->funcs[in->func].heap = true;
	return 0;
}

/* Calls name functions that exist; builtins become their own opcodes,
 * with the arguments they take (malloc: a size, an address back; free:
 * an address; cudaGraphSetConditional: a handle and a value). An
 * indirect call is checked where it runs (warp.c). */
static int check_calls(struct parser *P)
{
	struct ex_module *m = P->m;

	for (int i = 0; i < m->ncode; i++) {
		struct insn *in = &m->code[i];
		struct pfunc *f;
		if (in->op != OP_CALL || in->o[1].kind != K_FUNC)
			continue;
		f = &m->funcs[in->o[1].target];
		P->t.line = (int)in->line;
		if (f->builtin == OP_MALLOC || f->builtin == OP_FREE) {
			int nret = f->builtin == OP_MALLOC;
			if (in->o[2].n != 1 || in->o[0].n != nret ||
			    m->vars[in->o[2].list[0]].size != 8 ||
			    (nret && m->vars[in->o[0].list[0]].size != 8))
				return fail(P, EX_INVALID_PTX, "call of '%s' "
					    "with the wrong parameters",
					    f->name), -1;
			m->funcs[in->func].heap = true;
		}
		if (f->builtin == OP_SETCOND &&
		    (in->o[2].n != 2 || in->o[0].n != 0 ||
		     m->vars[in->o[2].list[0]].size != 8 ||
		     m->vars[in->o[2].list[1]].size != 4))
			return fail(P, EX_INVALID_PTX, "call of '%s' with the "
				    "wrong parameters", f->name), -1;
		if (f->builtin == OP_DEVRT && devrt_call(P, in, f))
			return -1;
		if (f->builtin) {
			in->op = (uint16_t)f->builtin;
			continue;
		}
		if (!f->defined && (P->flags & EX_LINK_PARTIAL))
			continue;      /* another object may define it */
		if (!f->defined && (P->flags & EX_LINK_NAMED))
			return fail(P, EX_INVALID_PTX,
				    "undefined reference to '%s' in '%s'",
				    f->name,
				    unit_name(P, m->funcs[in->func].unit)), -1;
		if (!f->defined)
			return fail(P, EX_INVALID_PTX,
				    "unresolved extern function '%s'", f->name), -1;
		if (in->o[2].n != f->nparam || in->o[0].n != f->nret)
			return fail(P, EX_INVALID_PTX,
				    "call of '%s' with %d arguments for %d",
				    f->name, in->o[2].n, f->nparam), -1;
	}
	return 0;
}

static void reach(const struct ex_module *m, int f, char *mark);

/* Marks what a call may reach: its callee, or for an indirect call every
 * function whose address the module takes. */
static void reach_call(const struct ex_module *m, const struct insn *in,
		       char *mark)
{
	if (in->o[1].kind == K_FUNC) {
		reach(m, in->o[1].target, mark);
		return;
	}
	for (int g = 0; g < m->nfuncs; g++)
		if (m->funcs[g].addressed)
			reach(m, g, mark);
}

/* Marks the functions f reaches (itself first); a circle stops at a
 * function already marked. */
static void reach(const struct ex_module *m, int f, char *mark)
{
	if (mark[f])
		return;
	mark[f] = 1;
	for (int i = m->funcs[f].first; i < m->funcs[f].end; i++)
		if (m->code[i].op == OP_CALL)
			reach_call(m, &m->code[i], mark);
}

/* Which functions are recursive: those their own callees reach. */
static int find_recursion(struct parser *P)
{
	struct ex_module *m = P->m;
	char *mark = calloc((size_t)m->nfuncs + 1, 1);

	if (!mark)
		return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
	for (int f = 0; f < m->nfuncs; f++) {
		struct pfunc *fn = &m->funcs[f];
		if (!fn->defined || fn->entry)
			continue;
		memset(mark, 0, (size_t)m->nfuncs);
		for (int i = fn->first; i < fn->end && !mark[f]; i++)
			if (m->code[i].op == OP_CALL)
				reach_call(m, &m->code[i], mark);
		fn->recursive = mark[f];
	}
	free(mark);
	return 0;
}

/* A recursive function's .local variables lie in its frame: each operand
 * that names one is marked to be read at the warp's current frame. */
static void mark_frames(struct ex_module *m)
{
	for (int i = 0; i < m->ncode; i++)
		for (int k = 0; k < m->code[i].nops; k++) {
			struct operand *o = &m->code[i].o[k];
			const struct pvar *v = o->var >= 0 ? &m->vars[o->var] : NULL;
			if ((o->kind == K_VAR || o->kind == K_MEM) && v &&
			    v->space == SP_LOCAL && v->func >= 0 &&
			    m->funcs[v->func].recursive)
				o->frame = 1;
		}
}

/* An entry's shared memory: the variables the functions it reaches
 * (mark) name, in declaration order after the reserved region (ptx.h),
 * the dynamic extern after them. Where the entry reaches the extern, its
 * static size runs to the dynamic window's start, as ptxas counts it (40
 * bytes before a 16-aligned window are 48: probes/results/kapi.txt). */
static int kernel_shared(struct parser *P, struct pfunc *fn, const char *mark)
{
	struct ex_module *m = P->m;
	char *used = calloc((size_t)m->nvars + 1, 1);
	uint64_t off = SMEM_RESERVED;
	bool ext = false;

	fn->shoff = calloc((size_t)m->nvars + 1, sizeof *fn->shoff);
	if (!used || !fn->shoff) {
		free(used);
		return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
	}
	for (int g = 0; g < m->nfuncs; g++) {
		if (!mark[g])
			continue;
		for (int i = m->funcs[g].first; i < m->funcs[g].end; i++)
			for (int k = 0; k < m->code[i].nops; k++) {
				const struct operand *o = &m->code[i].o[k];
				if ((o->kind == K_VAR || o->kind == K_MEM) && o->var >= 0)
					used[o->var] = 1;
			}
	}
	for (int i = 0; i < m->nvars; i++) {
		const struct pvar *v = &m->vars[i];
		if (used[i] && v->space == SP_SHARED && v->is_extern_shared)
			ext = true;
		if (!used[i] || v->space != SP_SHARED || v->is_extern_shared)
			continue;
		off = align_up(off, v->align);
		fn->shoff[i] = (uint32_t)off;
		off += v->size;
	}
	free(used);
	if (ext)
		off = align_up(off, m->shared_align);
	if (off > (1u << 30))
		return fail(P, EX_UNSUPPORTED, "'%s' has too much shared memory",
			    fn->name), -1;
	for (int i = 0; i < m->nvars; i++)
		if (m->vars[i].is_extern_shared)
			fn->shoff[i] = (uint32_t)align_up(off, m->shared_align);
	fn->shared_static = (uint32_t)off;
	fn->info.shared_static_bytes = (uint32_t)off - SMEM_RESERVED;
	return 0;
}

/* Lays out a thread's local memory and a lane's param memory over the
 * module, and each entry's shared memory; what each entry reaches. */
static int layout(struct parser *P)
{
	struct ex_module *m = P->m;
	uint64_t local = 0, lparam = 0;
	uint32_t ext_align = 16;
	char *mark;

	if (find_recursion(P))
		return -1;
	for (int i = 0; i < m->nvars; i++) {
		struct pvar *v = &m->vars[i];
		struct pfunc *owner = v->func >= 0 ? &m->funcs[v->func] : NULL;
		if (v->space == SP_LOCAL && owner && owner->recursive) {
			/* in the frame, after the module's static locals */
			owner->frame_bytes = (uint32_t)align_up(owner->frame_bytes, v->align);
			v->offset = owner->frame_bytes;
			owner->frame_bytes += (uint32_t)v->size;
			if (owner->frame_bytes > (1u << 24))
				return fail(P, EX_UNSUPPORTED, "a frame too large"), -1;
		} else if (v->space == SP_SHARED && v->is_extern_shared) {
			if (v->align > ext_align)
				ext_align = v->align;
		} else if (v->space == SP_LOCAL) {
			local = align_up(local, v->align);
			v->offset = local;
			local += v->size;
			if (v->func >= 0)
				m->funcs[v->func].local_bytes += (uint32_t)v->size;
		} else if (v->space == SP_PARAM) {
			bool kp = v->func >= 0 && m->funcs[v->func].entry;
			for (int k = 0; kp && k < m->funcs[v->func].nparam; k++)
				if (m->funcs[v->func].param[k] == i)
					goto kernel_param;
			lparam = align_up(lparam, v->align < 8 ? 8 : v->align);
			v->offset = lparam;
			lparam += v->size;
			continue;
		kernel_param:
			v->kernel_param = true;
		}
	}
	if (local > (1u << 24) || lparam > (1u << 16))
		return fail(P, EX_UNSUPPORTED, "a module's memory too large"), -1;
	m->shared_align = ext_align;
	m->local_bytes = (uint32_t)align_up(local, 16);
	for (int i = 0; i < m->nvars; i++) {
		struct pvar *v = &m->vars[i];
		if (v->space == SP_LOCAL && v->func >= 0 && m->funcs[v->func].recursive)
			v->offset += m->local_bytes;   /* the stack's start */
	}
	for (int f = 0; f < m->nfuncs; f++)
		if (m->funcs[f].recursive)
			m->funcs[f].frame_bytes = (uint32_t)align_up(
				m->funcs[f].frame_bytes, 16) + FRAME_SAVE;
	mark_frames(m);
	m->lane_param_bytes = (uint32_t)align_up(lparam, 8);
	mark = calloc((size_t)m->nfuncs, 1);
	if (!mark)
		return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
	for (int f = 0; f < m->nfuncs; f++) {
		struct pfunc *fn = &m->funcs[f];
		int regs = 0;
		if (!fn->entry || !fn->defined)
			continue;
		memset(mark, 0, (size_t)m->nfuncs);
		reach(m, f, mark);
		fn->info.local_bytes = 0;
		fn->reg_lo = fn->reg_first;
		fn->reg_hi = fn->reg_end;
		for (int g = 0; g < m->nfuncs; g++) {
			if (!mark[g])
				continue;
			if (m->funcs[g].recursive)
				fn->reaches_recursion = true;
			if (m->funcs[g].heap)
				fn->info.uses_heap = true;
			else    /* a recursive one's locals are in its frames */
				fn->info.local_bytes += m->funcs[g].local_bytes;
			if (m->funcs[g].reg_first < fn->reg_lo)
				fn->reg_lo = m->funcs[g].reg_first;
			if (m->funcs[g].reg_end > fn->reg_hi)
				fn->reg_hi = m->funcs[g].reg_end;
			for (int r = m->funcs[g].reg_first; r < m->funcs[g].reg_end; r++)
				regs += m->regtype[r] != T_PRED;
		}
		fn->info.registers = (uint32_t)(regs > 255 ? 255 : regs);
		if (kernel_shared(P, fn, mark)) {
			free(mark);
			return -1;
		}
	}
	free(mark);
	return 0;
}

static int kernel_facts(struct parser *P)
{
	struct ex_module *m = P->m;
	int nk = 0;

	for (int f = 0; f < m->nfuncs; f++)
		nk += m->funcs[f].entry && m->funcs[f].defined &&
		      !m->funcs[f].discarded;
	m->kernels = calloc((size_t)nk + 1, sizeof *m->kernels);
	if (!m->kernels)
		return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
	for (int f = 0; f < m->nfuncs; f++) {
		struct pfunc *fn = &m->funcs[f];
		uint32_t off = 0;
		if (!fn->entry || !fn->defined || fn->discarded)
			continue;
		fn->kernel = m->nkernels;
		m->kernels[m->nkernels++] = f;
		fn->params = calloc((size_t)fn->nparam + 1, sizeof *fn->params);
		if (!fn->params)
			return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
		for (int i = 0; i < fn->nparam; i++) {
			struct pvar *v = &m->vars[fn->param[i]];
			off = (uint32_t)align_up(off, v->align);
			v->offset = off;
			fn->params[i] = (struct ex_param){ off, (uint32_t)v->size,
							    v->align };
			off += (uint32_t)v->size;
		}
		if (off > 32764) {
			P->t.line = (int)fn->line;
			return fail(P, EX_INVALID_PTX,
				    "'%s' has %u bytes of parameters", fn->name,
				    off), -1;
		}
		for (int i = fn->first; i < fn->end; i++)
			for (int k = 0; k < m->code[i].nops; k++)
				if (m->code[i].o[k].kind == K_SREG &&
				    m->code[i].o[k].sreg >= S_ENVREG0)
					fn->info.uses_grid_sync = true;
		fn->info.name = fn->name;
		fn->info.nparams = (uint32_t)fn->nparam;
		fn->info.params = fn->params;
		fn->info.param_bytes = off;
	}
	return 0;
}

/* The module's function addresses (ptx.h, fntab): written into the
 * initializers that name functions, and made the immediates of the
 * instructions that take one (mov.u64 %rd, f). */
static int addr_fixups(struct parser *P)
{
	struct ex_module *m = P->m;

	m->fntab = aligned_alloc(FUNC_STRIDE,
				 (size_t)(m->nfuncs + 1) * FUNC_STRIDE);
	if (!m->fntab)
		return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
	for (int i = 0; i < P->nafix; i++) {
		const struct addrfix *x = &P->afix[i];
		uint64_t a = (uintptr_t)m->fntab + (uint64_t)x->func * FUNC_STRIDE;
		memcpy(m->vars[x->var].init + x->pos, &a, 8);
	}
	for (int i = 0; i < m->ncode; i++) {
		struct insn *in = &m->code[i];
		if (in->op == OP_CALL || in->op == OP_VPRINTF ||
		    in->op == OP_ASSERTFAIL || in->op == OP_MALLOC ||
		    in->op == OP_FREE || in->op == OP_SETCOND ||
		    in->op == OP_DEVRT)
			continue;
		for (int k = 0; k < in->nops; k++) {
			struct operand *o = &in->o[k];
			if (o->kind != K_FUNC)
				continue;
			if (in->op != OP_MOV || ptype_bits(in->type) != 64) {
				P->t.line = (int)in->line;
				return fail(P, EX_INVALID_PTX, "a function's "
					    "name where a 64-bit mov takes "
					    "its address"), -1;
			}
			o->kind = K_IMM;
			o->imm = (int64_t)((uintptr_t)m->fntab +
					   (uint64_t)o->target * FUNC_STRIDE);
			in->immv[k] = (uint64_t)o->imm;
		}
	}
	return 0;
}

/* The function at address a (one of fntab's slots), or NULL. */
static const struct pfunc *func_at(const struct ex_module *m, uint64_t a)
{
	uint64_t off = a - (uintptr_t)m->fntab;

	if (a < (uintptr_t)m->fntab || off % FUNC_STRIDE ||
	    off / FUNC_STRIDE >= (uint64_t)m->nfuncs)
		return NULL;
	return &m->funcs[off / FUNC_STRIDE];
}

int ex_func_at(const struct ex_module *m, uint64_t a)
{
	const struct pfunc *f = func_at(m, a);

	return f && f->defined && !f->entry && !f->builtin ?
		(int)(f - m->funcs) : -1;
}

int ex_kernel_at(const struct ex_module *m, uint64_t a)
{
	const struct pfunc *f = func_at(m, a);

	return f && f->entry && f->defined && !f->discarded ? f->kernel : -1;
}

static int public_vars(struct parser *P)
{
	struct ex_module *m = P->m;
	int n = 0;

	for (int i = 0; i < m->nvars; i++)
		n += m->vars[i].func < 0 && (m->vars[i].space == SP_GLOBAL ||
					     m->vars[i].space == SP_CONST);
	m->pubvars = calloc((size_t)n + 1, sizeof *m->pubvars);
	m->pubinfo = calloc((size_t)n + 1, sizeof *m->pubinfo);
	m->var_addr = calloc((size_t)m->nvars + 1, sizeof *m->var_addr);
	if (!m->pubvars || !m->pubinfo || !m->var_addr)
		return fail(P, EX_OUT_OF_MEMORY, "out of memory"), -1;
	for (int i = 0; i < m->nvars; i++) {
		struct pvar *v = &m->vars[i];
		if (v->func >= 0 || (v->space != SP_GLOBAL && v->space != SP_CONST))
			continue;
		v->pub = m->npub;
		m->pubvars[m->npub] = i;
		m->pubinfo[m->npub++] = (struct ex_var_info){
			.name = v->name,
			.space = v->space == SP_CONST ? EX_VAR_CONST : EX_VAR_GLOBAL,
			.managed = v->managed,
			.external = v->external,
			.size = v->size,
			.align = v->align,
			.init = v->init,
		};
	}
	return 0;
}

static void free_parser(struct parser *P)
{
	for (int i = 0; i < P->nsyms; i++)
		free(P->syms[i].name);
	free(P->syms);
	for (int i = 0; i < P->nlabels; i++)
		free(P->labels[i].name);
	free(P->labels);
	for (int i = 0; i < P->nfix; i++)
		free(P->fix[i].name);
	free(P->fix);
	free(P->afix);
}

/* The internal names of the text just read go out of scope: the next
 * text may name its own the same. */
static void end_unit(struct parser *P)
{
	for (int i = 0; i < P->nsyms; i++)
		if (P->syms[i].unit == P->unit && P->syms[i].internal)
			P->syms[i].dead = true;
}

/* One text of a module: its .version and .target, then its statements. */
static int parse_text(struct parser *P, const struct ex_text *t, int unit,
		      unsigned flags)
{
	P->p = t->ptx;
	P->end = t->ptx ? t->ptx + t->len : t->ptx;
	P->line = 1;
	P->unit = unit;
	P->unitname = (flags & EX_LINK_NAMED) ?
			      (t->name && t->name[0] ? t->name : "(unnamed)") :
			      NULL;
	next(P);
	if (!t->ptx || P->t.k == TK_EOF)
		return fail(P, EX_INVALID_PTX, "no PTX"), -1;
	if (!accept(P, ".version"))
		return fail(P, EX_INVALID_PTX, ".version expected first"), -1;
	if (parse_version(P))
		return -1;
	if (!accept(P, ".target"))
		return fail(P, EX_INVALID_PTX,
			    ".target expected after .version"), -1;
	if (parse_target(P))
		return -1;
	while (P->t.k != TK_EOF && P->err == EX_OK)
		if (top_stmt(P))
			return -1;
	end_unit(P);
	P->unitname = NULL;
	return 0;
}

enum ex_status ex_module_parse(const char *ptx, size_t len, int sm,
			       struct ex_module **out, char *log, size_t logsz)
{
	struct ex_text t = { ptx, len, NULL };

	return ex_module_link(&t, 1, 0, sm, out, log, logsz);
}

enum ex_status ex_module_link(const struct ex_text *texts, int n,
			      unsigned flags, int sm, struct ex_module **out,
			      char *log, size_t logsz)
{
	struct parser P = { 0 };
	struct ex_module *m;
	enum ex_status st;

	*out = NULL;
	if (log && logsz)
		log[0] = '\0';
	m = calloc(1, sizeof *m);
	if (!m)
		return EX_OUT_OF_MEMORY;
	m->sm = sm;
	P.m = m;
	P.log = log;
	P.logsz = logsz;
	P.func = -1;
	memset(P.bucket, -1, sizeof P.bucket);
	/* an empty link is an empty module; a lone text must be there */
	if (n < 1 && !(flags & EX_LINK_NAMED))
		fail(&P, EX_INVALID_PTX, "no PTX");
	P.texts = texts;
	P.flags = flags;
	for (int i = 0; i < n && P.err == EX_OK; i++)
		if (parse_text(&P, &texts[i], i, flags))
			break;
	if (P.err == EX_OK)
		check_calls(&P);
	if (P.err == EX_OK && !(flags & EX_LINK_PARTIAL))
		check_vars(&P);
	if (P.err == EX_OK && (flags & EX_LINK_PARTIAL)) {
		free_parser(&P);
		ex_module_free(m);
		return EX_OK;
	}
	if (P.err == EX_OK)
		addr_fixups(&P);
	if (P.err == EX_OK)
		layout(&P);
	if (P.err == EX_OK)
		kernel_facts(&P);
	if (P.err == EX_OK)
		public_vars(&P);
	if (P.err == EX_OK)
		P.err = ex_cfg_reconverge(m, log, logsz);
	if (P.err == EX_OK && (ex_form_assign(m) != EX_OK ||
			       ex_chain_assign(m) != EX_OK))
		fail(&P, EX_OUT_OF_MEMORY, "out of memory");
	st = P.err;
	free_parser(&P);
	if (st != EX_OK) {
		ex_module_free(m);
		return st;
	}
	*out = m;
	return EX_OK;
}

void ex_module_free(struct ex_module *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->ncode; i++)
		for (int k = 0; k < MAX_OPS; k++)
			if (m->code[i].o[k].kind == K_LIST)
				free(m->code[i].o[k].list);
	free(m->code);
	for (int i = 0; i < m->nvars; i++) {
		free(m->vars[i].name);
		free(m->vars[i].init);
	}
	free(m->vars);
	for (int i = 0; i < m->nfuncs; i++) {
		free(m->funcs[i].name);
		free(m->funcs[i].params);
		free(m->funcs[i].shoff);
	}
	free(m->funcs);
	free(m->regtype);
	free(m->kernels);
	free(m->pubvars);
	free(m->pubinfo);
	free(m->var_addr);
	free(m->form);
	free(m->dep);
	free(m->krow);
	free(m->fntab);
	free(m);
}

bool ex_module_uses_device_runtime(const struct ex_module *m)
{
	return m && m->uses_devrt;
}

int ex_module_kernel_count(const struct ex_module *m)
{
	return m ? m->nkernels : 0;
}

const struct ex_kernel_info *ex_module_kernel(const struct ex_module *m, int i)
{
	if (!m || i < 0 || i >= m->nkernels)
		return NULL;
	return &m->funcs[m->kernels[i]].info;
}

int ex_module_find_kernel(const struct ex_module *m, const char *name)
{
	if (!m || !name)
		return -1;
	for (int i = 0; i < m->nkernels; i++)
		if (!strcmp(m->funcs[m->kernels[i]].name, name))
			return i;
	return -1;
}

int ex_module_var_count(const struct ex_module *m)
{
	return m ? m->npub : 0;
}

const struct ex_var_info *ex_module_var(const struct ex_module *m, int i)
{
	if (!m || i < 0 || i >= m->npub)
		return NULL;
	return &m->pubinfo[i];
}

int ex_module_find_var(const struct ex_module *m, const char *name)
{
	if (!m || !name)
		return -1;
	for (int i = 0; i < m->npub; i++)
		if (!strcmp(m->pubinfo[i].name, name))
			return i;
	return -1;
}

void ex_module_bind_var(struct ex_module *m, int i, uint64_t addr)
{
	if (m && i >= 0 && i < m->npub)
		m->var_addr[m->pubvars[i]] = addr;
}
