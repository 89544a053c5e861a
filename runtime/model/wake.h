/*
 * wake.h - what a kernel pays to start on a GPU that sat idle (wake.c).
 */
#ifndef CUEMU_MODEL_WAKE_H
#define CUEMU_MODEL_WAKE_H

#include <stdbool.h>
#include <stdint.h>

struct cuemu_uvm;

/* What a kernel pays to start on a GPU whose SMs sat idle idle_ns: the
 * GPU's idle state deepens with the time, and the first kernel after it
 * waits for the SMs (probes/idlewake.cu on an H200: 0.3 ms of idle costs
 * nothing, 1 ms 9 us, 10 ms 25 us, 100 ms 37 us, an empty kernel and a
 * touch of 1 GiB alike). Nothing up to uvm.wake_after_ns, then
 * uvm.wake_decade_ns each tenfold, at most uvm.wake_max_ns. */
uint64_t km_wake_ns(uint64_t idle_ns, const struct cuemu_uvm *u);

/* One GPU's idle state as this process saw it. */
struct gpu_idle {
	bool ran;             /* a kernel of the process ran there */
	uint64_t since;       /* ... and the last of them ended then */
	uint64_t mem_until;   /* another GPU's work last read or wrote its
	                       * memory until then; 0 never */
};

/* The wake a kernel starting at start on a GPU in state g pays: the
 * curve of its SMs' idle time, but where another GPU's work kept its
 * memory busy after its last kernel, only uvm.wake_peer_share of what the
 * SMs' idle adds to the memory's own (probes/idlepeer.cu on two H200s: a
 * peer reading the GPU's memory, or a peer copy out of it, for the 10 ms
 * before the kernel left 6 to 8 us of the 20 that 10 ms of idle costs). */
uint64_t wake_due_ns(const struct gpu_idle *g, uint64_t start,
		     const struct cuemu_uvm *u);

/* The process's GPUs: the wake a kernel starting on dev at start pays;
 * that dev's kernel ended at end, its SMs stalled on faults stalled_ns of
 * its time (idle as far as the wake goes: probes/afterfault.cu on an
 * H200, the kernel after one that waited 20 ms on faults paid what one
 * after 15 ms of sleep pays, on memory the faults never touched, where
 * one after a kernel of one thread spinning 15 ms paid none); that
 * another GPU's work (its kernel
 * reading or writing dev's memory, faults served from it, a copy out of
 * it or into it) kept dev's memory busy until `until`. dev outside the
 * GPUs: nothing. Thread-safe. */
uint64_t wake_kernel_ns(int dev, uint64_t start);
void wake_kernel_ended(int dev, uint64_t end, uint64_t stalled_ns);
void wake_memory_busy(int dev, uint64_t until);

#endif
