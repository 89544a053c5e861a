/*
 * workload.h - a workload description (cuemu-workload(5)) as cuemu-run
 * holds it: what parse.c makes of the file, checked whole before anything
 * runs, and what run.c replays through the public API.
 *
 * Every element remembers the line of the file it came from, so that an
 * error found while running names it as a parse error would.
 *
 * Locking: none; parse.c writes a description, run.c sets and clears the
 * allocations' addresses before the streams' threads start and after they
 * end, and the threads only read it.
 */
#ifndef CUEMU_RUN_WORKLOAD_H
#define CUEMU_RUN_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda.h"

/* The one version of the format this cuemu-run reads. */
#define WORKLOAD_VERSION 1
#define WORKLOAD_LABEL_MAX 63

enum alloc_kind { AK_MANAGED, AK_DEVICE, AK_PINNED };

struct w_alloc {
	char label[WORKLOAD_LABEL_MAX + 1];
	enum alloc_kind kind;
	uint64_t size;
	int device;              /* the context's device: managed, device */
	bool has_location;       /* managed: populated there before the run */
	CUmemLocation location;
	int line;
	CUdeviceptr ptr;         /* run.c */
};

/* A part of an allocation that a kernel or the CPU touches: from offset,
 * length bytes; with a stride, chunk bytes every stride bytes; passes
 * times over. */
struct w_span {
	int alloc;
	bool read, write;
	uint64_t offset, length, stride, chunk;
	unsigned passes;
	int line;
};

enum step_kind {
	ST_KERNEL, ST_PREFETCH, ST_ADVISE, ST_MEMCPY, ST_MEMSET, ST_RECORD,
	ST_WAIT, ST_SYNC, ST_CPU, ST_SLEEP, ST_REPEAT,
};

enum advice { ADV_READ_MOSTLY, ADV_PREFERRED, ADV_ACCESSED_BY };

struct w_step {
	enum step_kind kind;
	int line;
	union {
		struct { struct w_span *spans; size_t n; uint64_t compute_ns; } kernel;
		struct { int alloc; uint64_t offset, length; CUmemLocation to; } prefetch;
		struct { int alloc; uint64_t offset, length; enum advice advice;
			 bool unset; CUmemLocation loc; } advise;
		struct { int dst, src; uint64_t dst_offset, src_offset, length; } memcpy;
		struct { int alloc; uint64_t offset, length; unsigned value; } memset;
		int event;           /* record, wait */
		struct w_span cpu;
		uint64_t sleep_ns;
		struct { unsigned count; struct w_step *steps; size_t n; } repeat;
	} u;
};

struct w_stream {
	char name[64];
	int device;
	struct w_step *steps;
	size_t n;
	int line;
};

struct w_event {
	char name[64];
	int line;
};

struct workload {
	char name[128];
	char topology[4096];     /* the machine's topology file, or "" */
	struct w_alloc *allocs;
	size_t nallocs;
	struct w_stream *streams;
	size_t nstreams, streams_cap;
	struct w_event *events;
	size_t nevents;
};

/* Reads and checks the description in path. 0, or -1 with the reason in
 * err: "FILE:LINE: FIELD: what is wrong". */
int workload_load(const char *path, struct workload *w, char *err,
		  size_t errlen);
void workload_free(struct workload *w);

/* What cuemu-run does around the replay (main.c sets it). */
struct run_opts {
	const char *file;        /* the description's path, for messages */
	const char *ids;         /* write label=id lines here once allocated */
	const char *wait_for;    /* then wait until this file exists */
	const char *done;        /* made when every stream has finished */
	const char *exit_when;   /* then, allocations kept, wait for this */
	bool quiet;
};

/* Replays w: allocates, runs every stream in a thread of its own, frees.
 * 0, or -1 with the reason in err. */
int workload_run(struct workload *w, const struct run_opts *o, char *err,
		 size_t errlen);

#endif
