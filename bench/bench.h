/*
 * bench.h - what a benchmark row is. Each bench_<subsystem>.c defines an
 * array of rows ending with an empty one; runner.c times each row's op,
 * prints the median per call beside the real driver's figure, and keeps no
 * timing assertion anywhere: the table is for reading.
 */
#ifndef CUEMU_BENCH_H
#define CUEMU_BENCH_H

#include <stddef.h>
#include <stdint.h>

struct bench_row {
	const char *name;      /* e.g. "cuMemAlloc+Free 2MiB @1 live" */
	double real_ns;        /* the real driver's median, 0 if unknown */
	/* setup runs once; op runs many times and is timed; teardown once.
	 * ctx is the row's state. Return non-zero from any to skip the row. */
	int (*setup)(void **ctx);
	int (*op)(void *ctx);
	void (*teardown)(void *ctx);
	unsigned reps;         /* timed repetitions (0: runner's default) */
	/* A row that reports a measured quantity instead of a latency sets
	 * report and leaves op NULL; report prints its own value column. */
	int (*report)(char *value, size_t len, char *unit, size_t ulen);
};

extern const struct bench_row bench_core_rows[];
extern const struct bench_row bench_memory_rows[];
extern const struct bench_row bench_managed_rows[];
extern const struct bench_row bench_pool_rows[];
extern const struct bench_row bench_vmm_rows[];
extern const struct bench_row bench_copy_rows[];
extern const struct bench_row bench_batch_rows[];
extern const struct bench_row bench_shape_rows[];   /* bench_shape.c */
extern const struct bench_row bench_share_rows[];
extern const struct bench_row bench_uvm_rows[];
extern const struct bench_row bench_start_rows[];
extern const struct bench_row bench_exec_rows[];   /* bench_exec.c */
extern const struct bench_row bench_clock_rows[];  /* bench_clock.c */
/* bench_start.c: the process it times, run as "cuemu-bench --first-alloc FD". */
int bench_first_alloc_child(int fd);

#endif
