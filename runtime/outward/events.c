/*
 * events.c - the process's event log (what /cu/events shows), kept from
 * the events the model emits (model/notify.c), and the last refused /cu
 * write (processes/<pid>/last_error).
 *
 * The log is a ring of the newest CUEMU_EVENT_RING lines, each with a
 * sequence number, so a reader that asks "since N" gets what it missed, or
 * learns by the gap that the ring wrapped. Locking: one leaf mutex of its
 * own, taken under any other lock and never around a call out of this file.
 */
#include "model/internal.h"
#include "outward/outward.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define CUEMU_EVENT_RING 4096
#define CUEMU_EVENT_LINE 200

struct event_line {
	uint64_t seq;
	char text[CUEMU_EVENT_LINE];
};

/* The log belongs to the process as a whole (every API call may add to it);
 * guarded by log_lock. */
static struct {
	pthread_mutex_t lock;
	uint64_t last_seq; /* seq of the newest line; lines are 1-based */
	struct event_line ring[CUEMU_EVENT_RING];
	CUresult last_result;
	char last_msg[256];
	struct timespec last_time;
} elog = { .lock = PTHREAD_MUTEX_INITIALIZER }; /* all zero: in .bss */

/* One line of the log: wall time, the event's type, what the model said. */
static void keep(const char *type, const char *text)
{
	struct timespec now;
	struct event_line *l;

	clock_gettime(CLOCK_REALTIME, &now);
	pthread_mutex_lock(&elog.lock);
	l = &elog.ring[++elog.last_seq % CUEMU_EVENT_RING];
	l->seq = elog.last_seq;
	snprintf(l->text, sizeof l->text, "%lld.%03ld %s %s",
		 (long long)now.tv_sec, now.tv_nsec / 1000000, type, text);
	pthread_mutex_unlock(&elog.lock);
}

/* The log subscribes to the model's events when the library loads. */
__attribute__((constructor)) static void events_subscribe(void)
{
	cuemu_on_event(keep);
}

json_t *cuemu_event_since(uint64_t since, size_t max, uint64_t *last)
{
	json_t *arr = json_array();
	uint64_t first, s;

	if (!arr)
		return NULL;
	pthread_mutex_lock(&elog.lock);
	first = elog.last_seq >= CUEMU_EVENT_RING ?
		elog.last_seq - CUEMU_EVENT_RING + 1 : 1;
	s = since + 1 > first ? since + 1 : first;
	for (; s <= elog.last_seq && max; s++, max--) {
		struct event_line *l = &elog.ring[s % CUEMU_EVENT_RING];
		json_array_append_new(arr, json_pack("{s:I,s:s}", "seq",
			(json_int_t)l->seq, "line", l->text));
	}
	if (last)
		*last = s - 1;
	pthread_mutex_unlock(&elog.lock);
	return arr;
}

void cuemu_set_last_error(CUresult r, const char *msg)
{
	pthread_mutex_lock(&elog.lock);
	elog.last_result = r;
	snprintf(elog.last_msg, sizeof elog.last_msg, "%s", msg ? msg : "");
	clock_gettime(CLOCK_REALTIME, &elog.last_time);
	pthread_mutex_unlock(&elog.lock);
}

json_t *cuemu_last_error_json(void)
{
	const char *name = NULL;
	json_t *o;

	pthread_mutex_lock(&elog.lock);
	cuGetErrorName(elog.last_result, &name);
	o = json_pack("{s:s,s:s,s:I}", "result", name ? name : "?",
		      "message", elog.last_msg,
		      "time", (json_int_t)elog.last_time.tv_sec);
	pthread_mutex_unlock(&elog.lock);
	return o;
}
