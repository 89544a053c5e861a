/*
 * fuzz_location.c - the parsers of what a /cu write says (location.c):
 * locations, sizes and access descriptors, on any bytes. A string the
 * parser accepts prints back to a word it accepts again as the same
 * location. The input is split at its first NUL byte into the value and a
 * second value, so one input tries two parsers on different strings.
 */
#include <stdlib.h>
#include <string.h>

#include "model/internal.h"
#include "fuzz.h"

static void one(const char *s)
{
	CUmemLocation loc, again;
	CUmemAccessDesc d;
	char word[64];
	uint64_t n;

	if (cuemu_loc_parse(s, &loc) == 0) {
		cuemu_loc_str(loc, word, sizeof word);
		FUZZ_CHECK(memchr(word, '\0', sizeof word));
		if (cuemu_loc_parse(word, &again) == 0)
			FUZZ_CHECK(again.type == loc.type &&
				   (loc.type == CU_MEM_LOCATION_TYPE_INVALID ||
				    again.id == loc.id));
	}
	(void)cuemu_size_parse(s, &n);
	if (cuemu_access_parse(s, &d) == CUDA_SUCCESS)
		FUZZ_CHECK(cuemu_access_str(d.flags) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	size_t first;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	one(s);
	first = strlen(s);
	if (first < size)
		one(s + first + 1);
	free(s);
	return 0;
}
