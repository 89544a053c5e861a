/*
 * printf.c - device printf: what a kernel's vprintf formats, kept in one
 * buffer for the process and written to stdout where the real driver
 * flushes its printf buffer: at a host synchronization (a stream, event or
 * context synchronize), at a module's unload, and at the process's exit.
 * Like the device's FIFO (cudaLimitPrintfFifoSize, 8.25 MiB on an H200), the
 * buffer holds at most DEVPRINTF_CAP bytes between flushes; what a kernel
 * prints past that is lost, as on the device.
 *
 * The argument buffer is laid out as the PTX ABI packs vprintf's: each
 * argument at the next multiple of its own size, 4 bytes for int and
 * narrower, 8 for long, long long, size_t, pointers and double (a float
 * arrives promoted to double). A %s argument is a device address: of
 * the kernel's shared, local or param memory (a char array of the
 * thread's), read by the engine within that memory (exec.h, struct
 * ex_str); else read only within the allocation that holds it. One that
 * lies in none, or runs to its end without a NUL, prints "<bad string>"
 * rather than touching memory nobody owns.
 *
 * Locking: buf_lock guards the buffer, a leaf lock; cuemu_lock is taken
 * alone to look a string's allocation up.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/memory.h"
#include "driver/driver.h"

#define DEVPRINTF_CAP ((size_t)1 << 20)

/* The process's printf buffer. Global because the device's is one FIFO
 * that every kernel of the process writes; guarded by buf_lock. */
static pthread_mutex_t buf_lock = PTHREAD_MUTEX_INITIALIZER;
static char *buf;
static size_t buf_len;

static void append(const char *s, size_t n)
{
	char *b;

	if (n > DEVPRINTF_CAP - buf_len)
		n = DEVPRINTF_CAP - buf_len;
	if (!n)
		return;
	if (!buf) {
		if (!(b = malloc(DEVPRINTF_CAP)))
			return;
		buf = b;
	}
	memcpy(buf + buf_len, s, n);
	buf_len += n;
}

void cuemu_devprintf_flush(void)
{
	pthread_mutex_lock(&buf_lock);
	if (buf_len) {
		fwrite(buf, 1, buf_len, stdout);
		fflush(stdout);
		buf_len = 0;
	}
	pthread_mutex_unlock(&buf_lock);
}

__attribute__((constructor)) static void devprintf_init(void)
{
	cuemu_on_host_sync(cuemu_devprintf_flush);
}

__attribute__((destructor)) static void devprintf_fini(void)
{
	cuemu_devprintf_flush();
	free(buf);
	buf = NULL;
}

/* The argument reader: where the next argument of size n starts. */
struct args {
	const uint8_t *p;
	size_t off;
};

static uint64_t next_arg(struct args *a, size_t n)
{
	uint64_t v = 0;

	if (!a->p)
		return 0;
	a->off = (a->off + n - 1) / n * n;
	memcpy(&v, a->p + a->off, n);
	a->off += n;
	return v;
}

/* How many bytes from device address p are a string a kernel may name:
 * up to its NUL within the allocation holding p, or 0 when no allocation
 * does. */
static size_t string_span(uint64_t p)
{
	struct cuemu_alloc *a;
	size_t room = 0;

	cuemu_lock();
	if ((a = cuemu_va_find((uintptr_t)p)))
		room = a->base + a->size - (uintptr_t)p;
	cuemu_unlock();
	return room ? strnlen((const char *)(uintptr_t)p, room) + 1 : 0;
}

/* Formats one conversion with its argument into out: body is the spec's
 * flags, width and precision (after its '%', body_len long), conv its
 * conversion, lsize its argument's size. The length modifier is the one
 * the argument's size calls for here, whatever the program wrote. */
static int one(char *out, size_t cap, const char *body, size_t body_len,
	       char conv, int lsize, struct args *a, const struct ex_str *str)
{
	char f[32];
	uint64_t v;
	double d;

	if (!conv || body_len > sizeof f - 5)
		return snprintf(out, cap, "%%%.*s", (int)body_len, body);
	f[0] = '%';
	memcpy(f + 1, body, body_len);
	snprintf(f + 1 + body_len, sizeof f - 1 - body_len, "%s%c",
		 strchr("diuxXo", conv) ? "ll" : "", conv);
	switch (conv) {
	case 'd': case 'i':
		v = next_arg(a, (size_t)lsize);
		return snprintf(out, cap, f, lsize == 8 ? (long long)v :
					    (long long)(int32_t)v);
	case 'u': case 'x': case 'X': case 'o':
		v = next_arg(a, (size_t)lsize);
		return snprintf(out, cap, f, lsize == 8 ?
				(unsigned long long)v :
				(unsigned long long)(uint32_t)v);
	case 'c':
		return snprintf(out, cap, f, (int)(char)next_arg(a, 4));
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
	case 'a': case 'A':
		v = next_arg(a, 8);
		memcpy(&d, &v, sizeof d);
		return snprintf(out, cap, f, d);
	case 'p':
		return snprintf(out, cap, f, (void *)(uintptr_t)next_arg(a, 8));
	case 's': {
		size_t room = 0;
		const char *s;
		v = next_arg(a, 8);
		/* the kernel's own memory (a thread's char array), read by
		 * the engine to the end of its window; else an allocation */
		s = str ? str->at(str, v, &room) : NULL;
		if (s ? strnlen(s, room) == room : !string_span(v))
			return snprintf(out, cap, "<bad string>");
		return snprintf(out, cap, f, s ? s : (const char *)(uintptr_t)v);
	}
	default:
		return snprintf(out, cap, "%%%.*s%c", (int)body_len, body, conv);
	}
}

/* The conversion spec starting at the '%' of p: its length, the length
 * of its flags, width and precision, its conversion character and its
 * argument's size (8 for l, ll, z, j, t; 4 otherwise, h and hh included,
 * as vprintf's buffer holds them promoted). */
static size_t spec_at(const char *p, size_t *body_len, char *conv, int *lsize)
{
	size_t n = 1;

	*lsize = 4;
	while (p[n] && strchr("-+ #0123456789.", p[n]))
		n++;
	*body_len = n - 1;
	while (p[n] && strchr("hlLqjzt", p[n])) {
		if (strchr("lLqjzt", p[n]))
			*lsize = 8;
		n++;
	}
	*conv = p[n];
	return p[n] ? n + 1 : n;
}

int cuemu_devprintf(const char *fmt, const void *args,
		    const struct ex_str *str)
{
	struct args a = { args, 0 };
	char out[4096];
	size_t len = 0;
	int nargs = 0;

	for (const char *p = fmt; *p && len < sizeof out - 1;) {
		char conv;
		int lsize, w;
		size_t n, body;

		if (*p != '%' || p[1] == '%') {
			out[len++] = *p;
			p += *p == '%' ? 2 : 1;
			continue;
		}
		n = spec_at(p, &body, &conv, &lsize);
		w = one(out + len, sizeof out - len, p + 1, body, conv, lsize,
			&a, str);
		if (w > 0)
			len += (size_t)w < sizeof out - len ?
				       (size_t)w : sizeof out - len - 1;
		nargs += strchr("diuxXocfFeEgGaApsn", conv) && conv ? 1 : 0;
		p += n;
	}
	pthread_mutex_lock(&buf_lock);
	append(out, len);
	pthread_mutex_unlock(&buf_lock);
	return nargs;
}
