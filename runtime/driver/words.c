/*
 * words.c - the words /cu takes (locations, sizes) for programs and tools
 * built on libcuemu (cuemuParseLocation, cuemuParseSize), so that a
 * workload description (cuemu-workload(5)) spells them as cufs(5) does,
 * through the model's one parser of each (model/location.c).
 *
 * No state and no lock: the parsers touch nothing but their arguments.
 */
#include "driver/driver.h"

int cuemuParseLocation(const char *word, CUmemLocation *loc)
{
	if (!word || !loc)
		return -1;
	return cuemu_loc_parse(word, loc);
}

int cuemuParseSize(const char *s, unsigned long long *bytes)
{
	uint64_t v;

	if (!s || !bytes || cuemu_size_parse(s, &v) < 0)
		return -1;
	*bytes = v;
	return 0;
}
