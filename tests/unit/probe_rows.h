/*
 * probe_rows.h - reading a probe's table for a replay (test_exec_table,
 * test_exec_f16): a file of the source tree whole, and the values one
 * case's line recorded ("name d0 d1 ...", hex).
 */
#ifndef PROBE_ROWS_H
#define PROBE_ROWS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *slurp(const char *rel, size_t *len)
{
	const char *srcdir = getenv("srcdir");
	char path[1024];
	FILE *f;
	char *buf = NULL;
	long n;

	snprintf(path, sizeof path, "%s/%s", srcdir ? srcdir : ".", rel);
	if (!(f = fopen(path, "rb")))
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
		if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		} else {
			buf[n] = '\0';
			*len = (size_t)n;
		}
	}
	fclose(f);
	return buf;
}

/* The recorded outputs of case name: its line's values. */
static inline int recorded(const char *results, const char *name, uint64_t *d, int max)
{
	size_t nl = strlen(name);
	const char *p = results;
	int n = 0;

	while (p && *p) {
		if (!strncmp(p, name, nl) && p[nl] == ' ') {
			char *e;
			p += nl;
			while (*p == ' ' && n < max) {
				d[n++] = strtoull(p + 1, &e, 16);
				p = e;
			}
			return n;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

#endif
