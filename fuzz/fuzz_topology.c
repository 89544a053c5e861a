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
		cuemu_topology_free(&t);
	} else {
		FUZZ_CHECK(memchr(err, '\0', sizeof err) && err[0]);
	}
	/* The same bytes as a segment holds them: over the scalars, then
	 * over the devices. The counts and the tables stay the ones made,
	 * as a joining process checks the counts against the segment's
	 * size (machine.c) before it reads any table. */
	if (cuemu_topology_default(&t) < 0)
		return 0;
	{
		struct cuemu_topology keep = t;
		size_t n = size < sizeof t ? size : sizeof t;
		size_t rest = size - n, devs = (size_t)t.ndev * sizeof *t.dev;

		memcpy(&t, data, n);
		t.ndev = keep.ndev;
		t.nnuma = keep.nnuma;
		t.dev = keep.dev;
		t.numa_total = keep.numa_total;
		t.link = keep.link;
		memcpy(t.dev, data + n, rest < devs ? rest : devs);
	}
	if (cuemu_topology_check(&t, "raw", err, sizeof err) < 0)
		FUZZ_CHECK(err[0]);
	cuemu_topology_free(&t);
	return 0;
}
