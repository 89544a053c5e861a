/*
 * topology.h - the machine's shape, as parsed from a topology file
 * (cuemu-topology(5)) or built in. machine.c copies it into the shared
 * segment and keeps the checked copy that cost.c prices transfers from;
 * nothing else includes this header but the tests of a corrupted segment.
 */
#ifndef CUEMU_TOPOLOGY_H
#define CUEMU_TOPOLOGY_H

#include "model/internal.h"
#include "model/uvm.h"

/* A topology owns its arrays, sized from its counts: ndev devices, nnuma
 * host NUMA nodes, (ndev + 1)^2 links with the host last (cuemu_topo_link
 * finds one). cuemu_topology_free gives them back. */
struct cuemu_topology {
	char name[64];
	int ndev;
	int nnuma;                          /* host NUMA nodes */
	uint64_t gpu_fault_ns;              /* service time of one GPU fault */
	uint64_t cpu_fault_ns;              /* service time of one CPU fault */
	struct cuemu_rate copy[CUEMU_RATE__COUNT]; /* plain copies, by kind */
	/* the timing model of managed memory ("uvm") */
	struct cuemu_uvm uvm;
	int paradigm;                       /* enum cuemu_paradigm */
	struct cuemu_device_info *dev;
	uint64_t *numa_total;
	struct cuemu_link *link;
};

/* The index of processor p (a GPU, or CUEMU_PROC_HOST) in t's link and
 * counter tables: the host comes after the GPUs. */
static inline int cuemu_topo_proc(const struct cuemu_topology *t, int p)
{
	return p == CUEMU_PROC_HOST ? t->ndev : p;
}

static inline struct cuemu_link *cuemu_topo_link(const struct cuemu_topology *t,
						 int from, int to)
{
	return &t->link[cuemu_topo_proc(t, from) * (t->ndev + 1) +
			cuemu_topo_proc(t, to)];
}

/* How the GPUs and the CPU share memory (the CUDA Programming Guide,
 * Unified Memory): without HMM (software-coherent, the default), with
 * HMM, or hardware-coherent (Grace Hopper, Grace Blackwell). */
enum cuemu_paradigm {
	CUEMU_SOFTWARE_COHERENT,
	CUEMU_HMM,
	CUEMU_HARDWARE_COHERENT,
};
const char *cuemu_paradigm_name(int paradigm);

/* Gives t's arrays back; t is then empty (no devices). */
void cuemu_topology_free(struct cuemu_topology *t);
/* Sizes t's arrays for ndev devices and nnuma nodes, with the built-in
 * device, link and node defaults. 0, or -1 without memory (t empty). */
int cuemu_topology_size(struct cuemu_topology *t, int ndev, int nnuma);

/* Fills t with the built-in machine: four GPUs shaped like the measured
 * H200s, NVLink between every pair, PCIe to the host, copies at the rates
 * measured on one H200. 0, or -1 without memory. */
int cuemu_topology_default(struct cuemu_topology *t);
/* Parses the file at path over the built-in default. 0, or -1 with
 * "<path>: <field>: <reason>" in err and t empty (nothing to free). */
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
/* Gives each GPU whose UUID the topology did not name one derived from
 * the machine's name and the GPU's index: the same for that machine
 * every time it is made, different between machines (machine.c, when it
 * makes the segment). */
void cuemu_topology_stamp(struct cuemu_topology *t, const char *machine);
/* The directory of the shipped topologies (CUEMU_TOPOLOGY_DIR, else the
 * installed $(datadir)/cuemu/topologies). */
const char *cuemu_topology_dir(void);
/* The file CUEMU_TOPOLOGY or --topology names: a path as it is (it has a
 * '/' or names a file), else a shipped topology's name (NAME.json in
 * cuemu_topology_dir()). 0 with the path in file, or -1. */
int cuemu_topology_find(const char *name, char *file, size_t len);
/* Gives every device the attributes that differ between paradigms, as
 * the Programming Guide says t's paradigm has them. */
void cuemu_topology_paradigm(struct cuemu_topology *t);
/* Sets the timing model's rates of host memory over the link (a
 * kernel's remote stream, each way, and of read requests) from t's host
 * link, at the share of it measured on the H200 (uvm.h). */
void cuemu_topology_remote_host(struct cuemu_topology *t);
/* Name of a device attribute as the topology file spells it, or NULL;
 * and the attribute of a name, or -1. */
const char *cuemu_attr_name(int attr);
int cuemu_attr_by_name(const char *name);

/* The machine's topology as checked at attach, never changed after; NULL
 * before the machine is attached (machine.c). */
const struct cuemu_topology *cuemu_machine_topo(void);

#endif
