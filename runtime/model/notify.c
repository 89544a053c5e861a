/*
 * notify.c - what the model tells about itself: each event it emits (an
 * allocation, an advice, a migration, a fault ...) handed to the sinks that
 * subscribed, and the process's counters summed over devices.
 *
 * The model does not keep or show events; outward/events.c subscribes and
 * keeps the log that /cu shows, the way the UVM driver's perf events reach
 * whoever registered for them. Locking: sinks are registered from
 * constructors, before any thread can emit, and only read after; a sink
 * takes its own leaf lock. Counters are relaxed atomics.
 *
 * Also which objects changed: the model names each object it changes
 * (cuemu_obj_changed, lock held), and when the process lock is released
 * the change sink (outward/publish.c) gets the names of that critical
 * section at once, still under the lock, so that it sees one consistent
 * moment and renders each object once however often it changed. The list
 * is guarded by the process lock; the sink is set once, at init.
 */
#include "model/internal.h"

#include <stdio.h>
#include <stdlib.h>

#define NOTIFY_SINKS 4
#define NOTIFY_LINE 200

/* The sinks of the process's events. Global: events belong to the process
 * as a whole (every API call may emit one). */
static void (*sinks[NOTIFY_SINKS])(const char *type, const char *text);
static int n_sinks;

/* The change sink and the ids changed since the lock was taken. Global:
 * the objects belong to the process; guarded by the process lock. */
static void (*change_sink)(const uint64_t *ids, size_t n);
static uint64_t *changed;
static size_t n_changed, cap_changed;

/* Per-process counters, summed over devices; atomics, no lock. */
static uint64_t proc_counters[CUEMU_CTR__COUNT];

void cuemu_on_event(void (*sink)(const char *type, const char *text))
{
	if (n_sinks < NOTIFY_SINKS)
		sinks[n_sinks++] = sink;
}

void cuemu_event_log(const char *type, const char *fmt, ...)
{
	char text[NOTIFY_LINE];
	va_list ap;

	if (!n_sinks)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	for (int i = 0; i < n_sinks; i++)
		sinks[i](type, text);
}

void cuemu_proc_counter_add(enum cuemu_counter c, uint64_t n)
{
	__atomic_add_fetch(&proc_counters[c], n, __ATOMIC_RELAXED);
}

uint64_t cuemu_proc_counter_get(enum cuemu_counter c)
{
	return __atomic_load_n(&proc_counters[c], __ATOMIC_RELAXED);
}

void cuemu_on_change(void (*sink)(const uint64_t *ids, size_t n))
{
	__atomic_store_n(&change_sink, sink, __ATOMIC_RELEASE);
}

void cuemu_obj_changed(uint64_t id)
{
	void (*sink)(const uint64_t *, size_t) =
		__atomic_load_n(&change_sink, __ATOMIC_ACQUIRE);
	uint64_t *ids;
	size_t cap;

	if (!sink)
		return;
	/* A fault or a prefetch names its allocation many times over. */
	for (size_t i = n_changed; i > 0 && i + 8 > n_changed; i--)
		if (changed[i - 1] == id)
			return;
	if (n_changed == cap_changed) {
		cap = cap_changed ? cap_changed * 2 : 64;
		if (!(ids = realloc(changed, cap * sizeof *ids))) {
			/* Without room, hand over what is named so far now:
			 * the sink renders a moment inside the section. */
			cuemu_changes_flush();
			if (!cap_changed)
				return;
		} else {
			changed = ids;
			cap_changed = cap;
		}
	}
	changed[n_changed++] = id;
}

void cuemu_changes_flush(void)
{
	size_t n = n_changed;

	if (!n)
		return;
	n_changed = 0;
	change_sink(changed, n);
}
