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
#include "model/clock.h"
#include "outward/outward.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define CUEMU_EVENT_RING 4096
#define CUEMU_EVENT_LINE 200
#define CUEMU_EVENT_TYPE 32

/* A line as it was emitted: its wall time, type and text are kept apart
 * and put together only when the line is read, so that an API call pays
 * for copying its words and not for formatting them (cuMemAllocAsync and
 * its free log a line each). */
struct event_line {
	uint64_t seq;
	struct timespec when;
	uint64_t model_ns;    /* the model time it happened at */
	char type[CUEMU_EVENT_TYPE];
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

/* Copies s into a field of n bytes, cut to fit, always terminated. */
static void copy_in(char *dst, const char *s, size_t n)
{
	size_t len = strnlen(s, n - 1);

	memcpy(dst, s, len);
	dst[len] = '\0';
}

/* One line of the log: wall time, the event's type, what the model said.
 * The coarse clock is enough for the log's millisecond times. */
static void keep(const char *type, const char *text)
{
	struct event_line *l;
	struct timespec now;

	uint64_t model = cuemu_model_now();

	cuemu_libc.clock_gettime(CLOCK_REALTIME_COARSE, &now);
	pthread_mutex_lock(&elog.lock);
	l = &elog.ring[++elog.last_seq % CUEMU_EVENT_RING];
	l->seq = elog.last_seq;
	l->when = now;
	l->model_ns = model;
	copy_in(l->type, type, sizeof l->type);
	copy_in(l->text, text, sizeof l->text);
	pthread_mutex_unlock(&elog.lock);
}

/* The log subscribes to the model's events when the library loads. */
__attribute__((constructor)) static void events_subscribe(void)
{
	cuemu_on_event(keep);
}

/* "<seconds>.<ms> <type> <text>", cut at CUEMU_EVENT_LINE as it always
 * was, then " model_ns=<ns>": the model time beside the wall time, last,
 * so that the words before it keep their places. */
static json_t *line_json(const struct event_line *l)
{
	char text[CUEMU_EVENT_LINE + 32];
	int n;

	n = snprintf(text, CUEMU_EVENT_LINE, "%lld.%03ld %s %s",
		     (long long)l->when.tv_sec, l->when.tv_nsec / 1000000,
		     l->type, l->text);
	if (n < 0 || n >= CUEMU_EVENT_LINE)
		n = n < 0 ? 0 : CUEMU_EVENT_LINE - 1;
	snprintf(text + n, sizeof text - (size_t)n, " model_ns=%llu",
		 (unsigned long long)l->model_ns);
	return json_pack("{s:I,s:s}", "seq", (json_int_t)l->seq, "line", text);
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
	for (; s <= elog.last_seq && max; s++, max--)
		json_array_append_new(arr, line_json(
			&elog.ring[s % CUEMU_EVENT_RING]));
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
	cuemu_libc.clock_gettime(CLOCK_REALTIME, &elog.last_time);
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
