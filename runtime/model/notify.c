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
 */
#include "model/internal.h"

#include <stdio.h>

#define NOTIFY_SINKS 4
#define NOTIFY_LINE 200

/* The sinks of the process's events. Global: events belong to the process
 * as a whole (every API call may emit one). */
static void (*sinks[NOTIFY_SINKS])(const char *type, const char *text);
static int n_sinks;

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
