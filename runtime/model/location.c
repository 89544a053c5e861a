/*
 * location.c - the one parser and printer of the words that name a place
 * (gpu0, cpu, numa0, numa_current, none), of access ("gpu1 rw") and of
 * sizes (64M, 2G), and the one splitter of a written value into words.
 * /cu writes, labels, the topology file and the scripts all use these, so
 * there is exactly one place that reads them, and a value is accepted only
 * when the whole of it parses. No state, no locks.
 */
#include "model/internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copies s without surrounding blanks and one trailing newline into buf. */
static int word(const char *s, char *buf, size_t len)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n == 0 || n >= len)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

/* Parses the decimal index after a prefix: "gpu12" -> 12. */
static int index_after(const char *w, const char *prefix, int *out)
{
	size_t p = strlen(prefix);
	char *end;
	long v;

	if (strncmp(w, prefix, p) != 0 || !isdigit((unsigned char)w[p]))
		return -1;
	errno = 0;
	v = strtol(w + p, &end, 10);
	if (errno || *end || v < 0 || v > 1023)
		return -1;
	*out = (int)v;
	return 0;
}

bool cuemu_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		unsigned c = *p++, more, cp;

		if (c < 0x80)
			continue;
		if (c >= 0xc2 && c <= 0xdf)
			more = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			more = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			more = 3, cp = c & 0x07;
		else
			return false;
		if ((size_t)(end - p) < more)
			return false;
		while (more--) {
			if ((*p & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (*p++ & 0x3f);
		}
		/* Overlong three- and four-byte forms, surrogates, and what
		 * lies past U+10FFFF are not UTF-8. */
		if ((c >= 0xe0 && c <= 0xef && cp < 0x800) ||
		    (cp >= 0xd800 && cp <= 0xdfff) ||
		    (c >= 0xf0 && (cp < 0x10000 || cp > 0x10ffff)))
			return false;
	}
	return true;
}

int cuemu_line_check(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n && s[n - 1] == '\n')
		n--;
	if (n > max) {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the text is %zu bytes, "
			   "longer than %zu", n, max);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 && s[i] != '\t') {
			cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the text must be "
				   "one line, without control characters");
			return -1;
		}
	if (!cuemu_utf8_valid(s, n)) {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the text is not UTF-8");
		return -1;
	}
	return (int)n;
}

int cuemu_words(const char *value, char (*w)[CUEMU_WORD], int max)
{
	const char *p = value;
	int n = 0, len;

	if ((len = cuemu_line_check(value, CUEMU_LINE_MAX)) < 0)
		return -1;
	while (p < value + len) {
		size_t k;

		p += strspn(p, " \t,");
		if (p >= value + len)
			break;
		k = strcspn(p, " \t,\n");
		if (n == max) {
			cuemu_fail(CUDA_ERROR_INVALID_VALUE, "more than %d "
				   "word%s", max, max == 1 ? "" : "s");
			return -1;
		}
		if (k >= CUEMU_WORD) {
			cuemu_fail(CUDA_ERROR_INVALID_VALUE, "'%.20s...' is "
				   "longer than a word may be", p);
			return -1;
		}
		memcpy(w[n], p, k);
		w[n++][k] = '\0';
		p += k;
	}
	return n;
}

int cuemu_loc_parse(const char *s, CUmemLocation *loc)
{
	char w[32];
	int id;

	if (!s || word(s, w, sizeof w) < 0) {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "empty location");
		return -1;
	}
	if (!strcmp(w, "none")) {
		loc->type = CU_MEM_LOCATION_TYPE_INVALID;
		loc->id = 0;
	} else if (!strcmp(w, "cpu") || !strcmp(w, "host")) {
		loc->type = CU_MEM_LOCATION_TYPE_HOST;
		loc->id = 0;
	} else if (!strcmp(w, "numa_current")) {
		loc->type = CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT;
		loc->id = 0;
	} else if (index_after(w, "gpu", &id) == 0) {
		loc->type = CU_MEM_LOCATION_TYPE_DEVICE;
		loc->id = id;
	} else if (index_after(w, "numa", &id) == 0) {
		loc->type = CU_MEM_LOCATION_TYPE_HOST_NUMA;
		loc->id = id;
	} else {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			   "'%s' is not a location: use gpuN, cpu, numaN, "
			   "numa_current or none", w);
		return -1;
	}
	return 0;
}

const char *cuemu_loc_str(CUmemLocation loc, char *buf, size_t len)
{
	switch (loc.type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		snprintf(buf, len, "gpu%d", loc.id);
		break;
	case CU_MEM_LOCATION_TYPE_HOST:
		snprintf(buf, len, "cpu");
		break;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		snprintf(buf, len, "numa%d", loc.id);
		break;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		snprintf(buf, len, "numa_current");
		break;
	default:
		snprintf(buf, len, "none");
		break;
	}
	return buf;
}

int cuemu_loc_proc(CUmemLocation loc)
{
	switch (loc.type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		return loc.id >= 0 && loc.id < CUEMU_MAX_DEVICES ? loc.id : -1;
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		return CUEMU_PROC_HOST;
	default:
		return -1;
	}
}

const char *cuemu_proc_str(int proc, char *buf, size_t len)
{
	if (proc == CUEMU_PROC_HOST)
		snprintf(buf, len, "cpu");
	else if (proc >= 0 && proc < CUEMU_MAX_DEVICES)
		snprintf(buf, len, "gpu%d", proc);
	else
		snprintf(buf, len, "none");
	return buf;
}

int cuemu_size_parse(const char *s, uint64_t *out)
{
	char w[40], *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!s || word(s, w, sizeof w) < 0 || !isdigit((unsigned char)w[0])) {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			   "not a size: use bytes or a number with K, M, G or T");
		return -1;
	}
	/* Hex when it says 0x; otherwise decimal, leading zeros and all
	 * (base 0 read "010M" as octal, 8M, and refused "08M"). */
	errno = 0;
	v = strtoull(w, &end, w[0] == '0' && (w[1] == 'x' || w[1] == 'X') ?
		     16 : 10);
	if (errno) {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "size '%s' is too large", w);
		return -1;
	}
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	default: end = (char *)"?"; break;
	}
	if (*end == 'i' && shift)
		end++;
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end) {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "size '%s' has an unknown suffix", w);
		return -1;
	}
	if (shift && v > (UINT64_MAX >> shift)) {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "size '%s' is too large", w);
		return -1;
	}
	*out = (uint64_t)v << shift;
	return 0;
}

const char *cuemu_access_str(CUmemAccess_flags f)
{
	return f == CU_MEM_ACCESS_FLAGS_PROT_READWRITE ? "rw" :
	       f == CU_MEM_ACCESS_FLAGS_PROT_READ ? "ro" : "none";
}

CUresult cuemu_access_parse(const char *value, CUmemAccessDesc *d)
{
	char w[2][CUEMU_WORD];
	const char *f = w[1];

	memset(d, 0, sizeof *d);
	if (!value || cuemu_words(value, w, 2) != 2)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "write '<location> rw|ro|none', e.g. 'gpu1 rw'");
	if (cuemu_loc_parse(w[0], &d->location) < 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (!strcmp(f, "rw"))
		d->flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	else if (!strcmp(f, "ro"))
		d->flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
	else if (!strcmp(f, "none"))
		d->flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
	else
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "access is rw, ro or none, not '%s'", f);
	return CUDA_SUCCESS;
}
