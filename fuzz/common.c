/*
 * common.c - what the harnesses share, linked with each of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

void fuzz_broke(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
	abort();
}

void fuzz_patch(void *base, size_t size, const uint8_t *data, size_t n)
{
	char *b = base;

	while (size && n >= 5) {
		size_t off = (data[0] | data[1] << 8 | data[2] << 16 |
			      (size_t)data[3] << 24) % size;
		size_t len = data[4];

		data += 5;
		n -= 5;
		len = len < n ? len : n;
		len = len < size - off ? len : size - off;
		memcpy(b + off, data, len);
		data += len;
		n -= len;
	}
}
