/*
 * common.c - what the harnesses share, linked with each of them.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

void fuzz_broke(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
	abort();
}
