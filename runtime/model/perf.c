/*
 * perf.c - the event bus of the managed memory model (see perf.h): a table
 * of subscribers per event, called in the order they subscribed.
 *
 * Events a launch's threads raise carry that launch, as the source set
 * by fault.c says it (perf_set_launch_source), so that the bus need not
 * call up into the fault path.
 *
 * Locking: none of its own. The table is written only by constructors,
 * before any thread runs, and read under cuemu_lock() by notifications.
 */
#include "model/perf.h"

#include <stdio.h>
#include <stdlib.h>

#define PERF_MAX_SUBSCRIBERS 4

/* The subscribers of each event. Global because the policies are the
 * process's: one LRU order, one thrash detector. */
static struct {
	perf_cb cb[PERF_MAX_SUBSCRIBERS];
	int n;
} subs[PERF_EVENT__COUNT];

/* Who says which launch the calling thread runs (fault.c). Written only
 * by a constructor, before any thread runs. */
static const struct perf_launch *(*launch_of_thread)(void);

void perf_set_launch_source(const struct perf_launch *(*fn)(void))
{
	launch_of_thread = fn;
}

void perf_subscribe(enum perf_event ev, perf_cb cb)
{
	if (ev >= PERF_EVENT__COUNT || subs[ev].n == PERF_MAX_SUBSCRIBERS) {
		fprintf(stderr, "libcuemu: event %d has no room for another "
			"subscriber (PERF_MAX_SUBSCRIBERS %d)\n", (int)ev,
			PERF_MAX_SUBSCRIBERS);
		abort();
	}
	subs[ev].cb[subs[ev].n++] = cb;
}

void perf_notify(enum perf_event ev, struct perf_data *d)
{
	int i;

	if (!subs[ev].n)
		return;
	if (!d->launch && launch_of_thread)
		d->launch = launch_of_thread();
	for (i = 0; i < subs[ev].n; i++)
		subs[ev].cb[i](ev, d);
}
