/*
 * topology.h - the machine's shape, as parsed from a topology file
 * (cuemu-topology(5)) or built in. machine.c copies it into the shared
 * segment; nothing else includes this header but the tests of a corrupted
 * segment.
 */
#ifndef CUEMU_TOPOLOGY_H
#define CUEMU_TOPOLOGY_H

#include "model/internal.h"
#include "model/uvm.h"

struct cuemu_topology {
	char name[64];
	int ndev;
	struct cuemu_device_info dev[CUEMU_MAX_DEVICES];
	int nnuma;                          /* host NUMA nodes */
	uint64_t numa_total[CUEMU_MAX_NUMA];
	struct cuemu_link link[CUEMU_NPROC][CUEMU_NPROC];
	uint64_t gpu_fault_ns;              /* service time of one GPU fault */
	uint64_t cpu_fault_ns;              /* service time of one CPU fault */
	struct cuemu_rate copy[CUEMU_RATE__COUNT]; /* plain copies, by kind */
	/* the timing model of managed memory ("uvm") */
	struct cuemu_uvm uvm;
};

/* Fills t with the built-in machine: four GPUs shaped like the measured
 * H200s, NVLink between every pair, PCIe to the host, copies at the rates
 * measured on one H200. */
void cuemu_topology_default(struct cuemu_topology *t);
/* Parses the file at path over the built-in default. 0, or -1 with
 * "<path>: <field>: <reason>" in err. */
int cuemu_topology_load(const char *path, struct cuemu_topology *t,
			char *err, size_t errlen);
/* The same from the len bytes at buf (no terminator needed), named what
 * in messages: for the fuzzer and for topologies that are not files. */
int cuemu_topology_parse(const char *buf, size_t len, const char *what,
			 struct cuemu_topology *t, char *err, size_t errlen);
/* Checks what a topology must satisfy wherever it came from (a parsed
 * file, or a machine segment another process wrote): strings terminated,
 * counts within bounds, links and costs finite and sane. 0, or -1 with
 * "<what>: <field>: <reason>" in err. */
int cuemu_topology_check(const struct cuemu_topology *t, const char *what,
			 char *err, size_t errlen);
/* Name of a device attribute as the topology file spells it, or NULL. */
const char *cuemu_attr_name(int attr);

#endif
