/*
 * segment.h - the layout of the machine segment (machine.c owns it): the
 * topology, each device's use, the counters, the id counter and the process
 * table that every process of the machine maps read-write. Nothing but
 * machine.c and the tests that corrupt a segment on purpose include it:
 * whatever is read from it is outside input.
 */
#ifndef CUEMU_MODEL_SEGMENT_H
#define CUEMU_MODEL_SEGMENT_H

#include "model/topology.h"

#define SEG_MAGIC 0x6375656d756d6368ULL /* "cuemumch" */
#define SEG_VERSION 2
#define SEG_PROCS CUEMU_MAX_PROCS

struct seg_proc {
	int32_t pid;          /* 0: free */
	uint32_t uid;
	uint64_t start;       /* /proc/<pid>/stat start time: pid reuse guard */
	uint64_t used[CUEMU_MAX_DEVICES];
};

struct segment {
	uint64_t magic;
	uint32_t version;
	uint32_t ready;       /* set (release) once the topology is written */
	uint64_t size;        /* sizeof(struct segment), a layout check */
	pthread_mutex_t lock; /* process table */
	struct cuemu_topology topo;
	uint64_t next_id;
	uint64_t used[CUEMU_MAX_DEVICES];
	uint64_t counters[CUEMU_NPROC][CUEMU_CTR__COUNT];
	struct seg_proc procs[SEG_PROCS];
};

#endif
