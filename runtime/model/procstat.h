/*
 * procstat.h - a process's start time (procstat.c): the guard against a
 * reused pid.
 */
#ifndef CUEMU_MODEL_PROCSTAT_H
#define CUEMU_MODEL_PROCSTAT_H

#include <stdint.h>
#include <sys/types.h>

/* pid's start time in clock ticks since boot, or 0 when there is no such
 * process (or /proc does not show it). */
uint64_t cuemu_proc_start_time(pid_t pid);

#endif
