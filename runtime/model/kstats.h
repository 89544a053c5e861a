/*
 * kstats.h - the per-kernel accounting (kstats.c): for each kernel the
 * process has launched, by its PTX entry name, what its launches did
 * (launches, model time, faults, bytes by place, migrations by direction,
 * remote accesses) and, per allocation it touched, the bytes of its pages
 * and the faults it took there. What /cu shows under
 * processes/<pid>/kernels/ and in an allocation's touched_by and
 * faults_by_kernel (outward/ctl_kernel.c).
 *
 * Locking: everything here is read and written under cuemu_lock().
 */
#ifndef CUEMU_KSTATS_H
#define CUEMU_KSTATS_H

#include "model/perf.h"

/* The kernels kept by name: the launches of any other are summed in one
 * entry named KSTATS_OTHER, so that a program of a million kernel names
 * keeps a bounded table. */
#define KSTATS_MAX 1024
#define KSTATS_OTHER "(other)"
/* The allocations kept per kernel; touches of more are left out of
 * touched_by (the kernel's own totals still count them). */
#define KSTATS_ALLOCS 4096

/* A kernel's part of one allocation. */
struct kstat_alloc {
	uint64_t id;       /* the allocation's */
	uint64_t bytes;    /* of its 4 KiB pages touched, each once a launch */
	uint64_t faults;   /* GPU faults its launches took there */
};

/* Bytes moved between the kernel's GPU and another processor. */
struct kstat_move {
	int proc;
	uint64_t bytes;
};

struct kstat {
	char *kernel;                 /* the PTX entry name */
	uint64_t id;                  /* its record's object id */
	uint64_t launches, running;
	uint64_t failed;              /* launches that ended in an error */
	uint64_t last_launch;         /* the seq of its last (perf_launch) */
	uint64_t model_ns, fault_ns;
	uint64_t gpu_faults, remote_accesses;
	uint32_t last_grid[3], last_block[3];
	uint32_t shared_bytes, registers;
	int last_dev;
	uint64_t bytes_read[PERF_PLACES], bytes_written[PERF_PLACES];
	struct kstat_move *peer_rd, *peer_wr; /* PERF_PLACE_PEER's bytes, by
	                                       * the peer they were on */
	size_t npeer_rd, npeer_wr;
	struct kstat_move *in, *out;  /* migrated to its GPU, by source; off
	                               * it, by destination */
	size_t nin, nout;
	struct kstat_alloc *allocs;   /* by id */
	size_t nallocs, capallocs;
};

/* The kernels kept, sorted by name: n of them. */
struct kstat *const *kstats_all(size_t *n);
/* The kernel whose record is id, or NULL. */
const struct kstat *kstats_by_id(uint64_t id);
/* k's part of allocation id, or NULL. */
const struct kstat_alloc *kstats_alloc(const struct kstat *k, uint64_t id);

#endif
