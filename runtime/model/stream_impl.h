/*
 * stream_impl.h - what the stream engine's two files share and nobody else
 * sees: vector clocks (vclock.c), the enqueue of an ordered operation, waiting for a
 * position, a stream's uid, and the host's model time (stream.c), used by
 * the events (event.c).
 */
#ifndef CUEMU_MODEL_STREAM_IMPL_H
#define CUEMU_MODEL_STREAM_IMPL_H

#include "model/stream.h"

/* A vector clock: for each stream uid, the highest operation number. */
struct vclock {
	size_t n, cap;
	struct cuemu_spos *e;
};

uint64_t cuemu_vc_get(const struct vclock *v, uint64_t uid);
int cuemu_vc_raise(struct vclock *v, uint64_t uid, uint64_t seq);
int cuemu_vc_merge(struct vclock *dst, const struct vclock *src);
void cuemu_vc_free(struct vclock *v);

/* Enqueues fn(arg) on s after the positions in deps (and the implicit
 * ones), making later work on s follow vc; here: fn may run in the
 * calling thread. See stream.c. */
CUresult cuemu_st_enqueue(CUstream s, cuemu_op_fn fn, void *arg,
			  void (*drop)(void *arg), bool here,
			  const struct cuemu_spos *deps, size_t ndeps,
			  const struct vclock *vc, uint64_t *seq,
			  struct vclock *snap);
/* Sleeps until p is done. No lock held. */
void cuemu_spos_wait(struct cuemu_spos p);
/* s's uid: what positions name it by. */
uint64_t cuemu_st_uid(CUstream s);
/* The host has seen model time ns: its clock catches up. */
void cuemu_st_host_saw_ns(uint64_t ns);

#endif
