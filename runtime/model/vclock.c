/*
 * vclock.c - vector clocks: for each stream uid, the highest operation
 * number that something is ordered after. The stream engine (stream.c)
 * keeps one per stream and events (event.c) one per record; both merge them
 * to make stream order exact across chains of event waits.
 *
 * Locking: none here; a clock is guarded by the lock of whatever holds it
 * (a stream's lock, an event's lock).
 */
#include "model/stream_impl.h"

#include <stdlib.h>

/* uid's entry: the latest of its operations v is ordered after; 0 when
 * none. */
uint64_t cuemu_vc_get(const struct vclock *v, uint64_t uid)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->e[i].stream == uid)
			return v->e[i].seq;
	return 0;
}

/* Raises uid's entry to seq. The clock grows by one entry per stream it
 * was ever ordered after; -1 when out of memory. */
int cuemu_vc_raise(struct vclock *v, uint64_t uid, uint64_t seq)
{
	struct cuemu_spos *e;

	for (size_t i = 0; i < v->n; i++) {
		if (v->e[i].stream == uid) {
			if (v->e[i].seq < seq)
				v->e[i].seq = seq;
			return 0;
		}
	}
	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 4;
		if (!(e = realloc(v->e, cap * sizeof *e)))
			return -1;
		v->e = e;
		v->cap = cap;
	}
	v->e[v->n++] = (struct cuemu_spos){ uid, seq };
	return 0;
}

int cuemu_vc_merge(struct vclock *dst, const struct vclock *src)
{
	for (size_t i = 0; i < src->n; i++)
		if (cuemu_vc_raise(dst, src->e[i].stream, src->e[i].seq) < 0)
			return -1;
	return 0;
}

void cuemu_vc_free(struct vclock *v)
{
	free(v->e);
	*v = (struct vclock){ 0 };
}
