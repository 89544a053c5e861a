/*
 * fuzz_topology.c - the topology parser (cuemu-topology(5)) on any bytes:
 * it answers 0 or -1 with a message, never crashes; what it accepts passes
 * the check a joining process makes of a segment; and the check itself
 * holds on any bytes laid over a topology, as a scribbled segment's are.
 */
#include <string.h>

#include "model/topology.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cuemu_topology t;
	char err[512];

	err[0] = '\0';
	if (cuemu_topology_parse((const char *)data, size, "fuzz", &t, err,
				 sizeof err) == 0) {
		FUZZ_CHECK(cuemu_topology_check(&t, "fuzz", err, sizeof err) == 0);
		FUZZ_CHECK(t.ndev >= 1 && t.ndev <= CUEMU_MAX_DEVICES);
	} else {
		FUZZ_CHECK(memchr(err, '\0', sizeof err) && err[0]);
	}
	/* The same bytes as the raw struct a segment holds. */
	cuemu_topology_default(&t);
	memcpy(&t, data, size < sizeof t ? size : sizeof t);
	if (cuemu_topology_check(&t, "raw", err, sizeof err) < 0)
		FUZZ_CHECK(err[0]);
	return 0;
}
