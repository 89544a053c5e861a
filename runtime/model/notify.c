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
#include <string.h>
#include <sys/types.h>

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

/* ------------------------------------------------------------ formatting */

/* Events are made on the hot paths of the API (every pool allocation and
 * free, every advice), and vsnprintf was most of their cost. The lines use
 * a few conversions only: those are formatted here, byte for byte as
 * vsnprintf would, and any other format goes to vsnprintf. */
struct line {
	char *p, *end;       /* end: where the terminating NUL must go */
};

static void put(struct line *l, const char *s, size_t n)
{
	size_t room = (size_t)(l->end - l->p);

	if (n > room)
		n = room;
	memcpy(l->p, s, n);
	l->p += n;
}

static void put_num(struct line *l, unsigned long long v, bool neg, bool hex,
		    bool alt)
{
	char d[24], *q = d + sizeof d;

	do {
		*--q = "0123456789abcdef"[hex ? v % 16 : v % 10];
		v = hex ? v / 16 : v / 10;
	} while (v);
	if (alt && !(q == d + sizeof d - 1 && *q == '0')) {
		*--q = 'x';
		*--q = '0';
	}
	if (neg)
		*--q = '-';
	put(l, q, (size_t)(d + sizeof d - q));
}

/* One conversion at *f (after its '%'), moving *f past it; -1 for one
 * this formatter leaves to vsnprintf. */
static int convert(struct line *l, const char **f, va_list *ap)
{
	const char *c = *f;
	bool alt = *c == '#';
	int len = 0;   /* 0 int, 1 long, 2 long long, 3 size_t */
	unsigned long long u;
	long long v;

	if (alt)
		c++;
	if (c[0] == 'l' && c[1] == 'l')
		len = 2, c += 2;
	else if (*c == 'l')
		len = 1, c++;
	else if (*c == 'z')
		len = 3, c++;
	switch (*c) {
	case '%':
	case 's':
		if (alt || len)
			return -1;
		if (*c == '%') {
			put(l, "%", 1);
		} else {
			const char *s = va_arg(*ap, const char *);
			s = s ? s : "(null)";
			put(l, s, strlen(s));
		}
		break;
	case 'd':
		if (alt)
			return -1;
		v = len == 0 ? va_arg(*ap, int) : len == 1 ? va_arg(*ap, long) :
		    len == 2 ? va_arg(*ap, long long) : va_arg(*ap, ssize_t);
		put_num(l, v < 0 ? 0ULL - (unsigned long long)v :
			   (unsigned long long)v, v < 0, false, false);
		break;
	case 'u':
	case 'x':
		if (alt && *c == 'u')
			return -1;
		u = len == 0 ? va_arg(*ap, unsigned int) :
		    len == 1 ? va_arg(*ap, unsigned long) :
		    len == 2 ? va_arg(*ap, unsigned long long) :
			       va_arg(*ap, size_t);
		put_num(l, u, false, *c == 'x', alt);
		break;
	default:
		return -1;
	}
	*f = c + 1;
	return 0;
}

/* vsnprintf(buf, len, fmt, ap) for the conversions above; -1 (ap used up,
 * buf undefined) for a format with any other. */
static int format(char *buf, size_t len, const char *fmt, va_list ap)
{
	struct line l = { buf, buf + len - 1 };
	const char *f = fmt, *pct;
	va_list cp;
	int rc = 0;

	va_copy(cp, ap);
	while (rc == 0 && *f) {
		if (!(pct = strchr(f, '%'))) {
			put(&l, f, strlen(f));
			break;
		}
		put(&l, f, (size_t)(pct - f));
		f = pct + 1;
		rc = convert(&l, &f, &cp);
	}
	va_end(cp);
	*l.p = '\0';
	return rc;
}

void cuemu_event_log(const char *type, const char *fmt, ...)
{
	char text[NOTIFY_LINE];
	va_list ap;

	if (!n_sinks)
		return;
	va_start(ap, fmt);
	if (format(text, sizeof text, fmt, ap) < 0)
		vsnprintf(text, sizeof text, fmt, ap); /* format used a copy */
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

/* The time sink. Global: the process has one publisher; set once at
 * init, read by every finished stream operation. */
static void (*time_sink)(void);

void cuemu_on_time(void (*sink)(void))
{
	__atomic_store_n(&time_sink, sink, __ATOMIC_RELEASE);
}

void cuemu_time_moved(void)
{
	void (*sink)(void) = __atomic_load_n(&time_sink, __ATOMIC_ACQUIRE);

	if (sink)
		sink();
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
