/*
 * demangle.c - a kernel's C++ name from its PTX entry name, for the
 * kernels' `name` files: the Itanium C++ ABI's mangling of a function
 * (_Z, a plain or nested name, its parameter types) as c++filt writes it,
 * "saxpy(int, float, float const*, float*)". What it does not read
 * (templates, operators, function pointers, ...) it leaves to the caller,
 * which shows the entry name as it is; an extern "C" kernel's name is
 * unmangled already.
 *
 * Locking: none; no state.
 */
#include "outward/outward.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Substitution candidates (S_, S0_, ...): the types and prefixes seen. */
#define SUBS_MAX 32
#define PART_MAX 256
/* Qualifiers and pointers one type may stack (PKPVf...): each level is a
 * frame of PART_MAX, and the name comes from a PTX file. */
#define DEPTH_MAX 32

struct dm {
	const char *p;
	char subs[SUBS_MAX][PART_MAX];
	int nsubs;
};

static const struct {
	char code;
	const char *name;
} builtins[] = {
	{ 'v', "void" }, { 'b', "bool" }, { 'c', "char" },
	{ 'a', "signed char" }, { 'h', "unsigned char" }, { 's', "short" },
	{ 't', "unsigned short" }, { 'i', "int" }, { 'j', "unsigned int" },
	{ 'l', "long" }, { 'm', "unsigned long" }, { 'x', "long long" },
	{ 'y', "unsigned long long" }, { 'n', "__int128" },
	{ 'o', "unsigned __int128" }, { 'f', "float" }, { 'd', "double" },
	{ 'e', "long double" }, { 'w', "wchar_t" },
};

static bool sub_add(struct dm *d, const char *s)
{
	if (d->nsubs == SUBS_MAX)
		return false;
	snprintf(d->subs[d->nsubs++], PART_MAX, "%s", s);
	return true;
}

/* <source-name>: a length, then that many characters. */
static bool source_name(struct dm *d, char *out, size_t len)
{
	char *end;
	unsigned long n = strtoul(d->p, &end, 10);

	if (end == d->p || n == 0 || n >= len || strnlen(end, n) < n)
		return false;
	memcpy(out, end, n);
	out[n] = '\0';
	d->p = end + n;
	return true;
}

/* <nested-name>: N <source-name>+ E, joined by "::". Each prefix but the
 * whole name is a substitution candidate here; a type's caller adds the
 * whole too, a function's does not (its name is no candidate). */
static bool nested_name(struct dm *d, char *out, size_t len)
{
	char part[PART_MAX];

	out[0] = '\0';
	d->p++; /* N */
	while (*d->p && *d->p != 'E') {
		if (!isdigit((unsigned char)*d->p) ||
		    !source_name(d, part, sizeof part))
			return false;
		if (out[0] && (!sub_add(d, out) || strlen(out) + 2 >= len))
			return false;
		if (out[0])
			strcat(out, "::");
		if (strlen(out) + strlen(part) >= len)
			return false;
		strcat(out, part);
	}
	if (*d->p != 'E')
		return false;
	d->p++;
	return true;
}

/* S_ is the first candidate, S<base 36>_ the one after that. */
static bool substitution(struct dm *d, char *out, size_t len)
{
	unsigned long i = 0;

	d->p++; /* S */
	if (*d->p != '_') {
		while (isdigit((unsigned char)*d->p) || isupper((unsigned char)*d->p)) {
			i = i * 36 + (unsigned long)(isdigit((unsigned char)*d->p)
				? *d->p - '0' : *d->p - 'A' + 10);
			d->p++;
		}
		i++;
	}
	if (*d->p != '_' || i >= (unsigned long)d->nsubs)
		return false;
	d->p++;
	snprintf(out, len, "%s", d->subs[i]);
	return true;
}

static bool type(struct dm *d, char *out, size_t len, int depth)
{
	char inner[PART_MAX];
	const char *suffix;

	for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
		if (*d->p == builtins[i].code) {
			d->p++;
			snprintf(out, len, "%s", builtins[i].name);
			return true;
		}
	switch (*d->p) {
	case 'P': suffix = "*"; break;
	case 'R': suffix = "&"; break;
	case 'K': suffix = " const"; break;
	case 'V': suffix = " volatile"; break;
	case 'S':
		return substitution(d, out, len);
	case 'N':
		return nested_name(d, out, len) && sub_add(d, out);
	default:
		if (!isdigit((unsigned char)*d->p))
			return false; /* templates, functions, arrays... */
		return source_name(d, out, len) && sub_add(d, out);
	}
	d->p++;
	if (depth == DEPTH_MAX || !type(d, inner, sizeof inner, depth + 1) ||
	    snprintf(out, len, "%s%s", inner, suffix) >= (int)len)
		return false;
	return sub_add(d, out);
}

bool cuemu_demangle(const char *mangled, char *out, size_t len)
{
	struct dm d = { .p = mangled };
	char name[PART_MAX], t[PART_MAX];
	size_t n;
	int nparams = 0;

	if (strncmp(mangled, "_Z", 2) || len < 4)
		return false;
	d.p += 2;
	if (*d.p == 'N' ? !nested_name(&d, name, sizeof name)
			: !source_name(&d, name, sizeof name))
		return false;
	n = (size_t)snprintf(out, len, "%s(", name);
	while (*d.p) {
		if (!type(&d, t, sizeof t, 0))
			return false;
		if (nparams++ == 0 && !strcmp(t, "void") && !*d.p)
			break; /* f(void) is written f() */
		n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%s",
				      nparams > 1 ? ", " : "", t);
		if (n >= len)
			return false;
	}
	if (!nparams || n + 2 > len)
		return false;
	strcat(out, ")");
	return true;
}
