/*
 * exec_mock.h - the model as the engine's tests see it: ex_memops over
 * buffers the test allocates (page-aligned, registered here), every page()
 * call counted, a place per buffer, device printf formatted into a
 * buffer the test reads. Loading PTX from tests/unit/kernels, binding a
 * module's variables and launching a kernel with packed parameters.
 *
 * Global state: none; a test owns its struct mock.
 */
#ifndef CUEMU_EXEC_MOCK_H
#define CUEMU_EXEC_MOCK_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"

#define MOCK_MAX 256

struct mock {
	struct {
		uint8_t *base;
		size_t size;
		int place;
		bool readonly;
	} a[MOCK_MAX];
	int n;
	void *vars[MOCK_MAX];   /* by module variable index */
	uint64_t page_calls;
	uint64_t generation;
	int shared_below;       /* page() says places below it are shared */
	char printed[1 << 16];
	size_t plen;
	pthread_mutex_t lock;
};

__attribute__((unused)) static void mock_init(struct mock *mk)
{
	memset(mk, 0, sizeof *mk);
	pthread_mutex_init(&mk->lock, NULL);
}

__attribute__((unused)) static void mock_free(struct mock *mk)
{
	for (int i = 0; i < mk->n; i++)
		free(mk->a[i].base);
	pthread_mutex_destroy(&mk->lock);
	mk->n = 0;
}

/* size bytes, zeroed, on pages of their own, at place. */
__attribute__((unused)) static void *mock_alloc(struct mock *mk, size_t size, int place)
{
	size_t rounded = (size + 4095) & ~(size_t)4095;
	void *p;

	if (mk->n >= MOCK_MAX || !(p = aligned_alloc(4096, rounded ? rounded : 4096)))
		return NULL;
	memset(p, 0, rounded ? rounded : 4096);
	mk->a[mk->n].base = p;
	mk->a[mk->n].size = rounded ? rounded : 4096;
	mk->a[mk->n].place = place;
	mk->a[mk->n++].readonly = false;
	return p;
}

__attribute__((unused)) static enum ex_status mock_page(void *ctx, uint64_t page, enum ex_access a,
				int *place, bool *shared)
{
	struct mock *mk = ctx;
	enum ex_status st = EX_ILLEGAL_ADDRESS;

	pthread_mutex_lock(&mk->lock);
	mk->page_calls++;
	for (int i = 0; i < mk->n; i++) {
		uint64_t b = (uint64_t)(uintptr_t)mk->a[i].base;
		if (page >= b && page < b + mk->a[i].size) {
			if (mk->a[i].readonly && a != EX_READ)
				break;
			*place = mk->a[i].place;
			*shared = *place < mk->shared_below;
			st = EX_OK;
			break;
		}
	}
	pthread_mutex_unlock(&mk->lock);
	return st;
}

/* The printf of the device: %d %i %u %x %c %s %f %e %g %p with l/ll,
 * each argument at its natural alignment in the buffer. */
__attribute__((unused)) static int mock_vprintf(void *ctx, const char *fmt, const void *args,
			const struct ex_str *str)
{
	struct mock *mk = ctx;
	const uint8_t *ap = args;
	size_t off = 0;
	char out[1024];
	size_t n = 0;

	for (const char *p = fmt; *p && n < sizeof out - 64; p++) {
		char spec[32];
		int k = 0, longs = 0;
		if (*p != '%') {
			out[n++] = *p;
			continue;
		}
		spec[k++] = *p++;
		if (*p == '%') {
			out[n++] = '%';
			continue;
		}
		while (*p && strchr("-+ #0123456789.", *p) && k < 20)
			spec[k++] = *p++;
		while (*p == 'l' || *p == 'h') {
			longs += *p == 'l';
			p++;
		}
		if (!*p)
			break;
		spec[k++] = *p;
		spec[k] = '\0';
		if (strchr("fegFEG", *p)) {
			double d;
			off = (off + 7) & ~(size_t)7;
			memcpy(&d, ap + off, 8);
			off += 8;
			n += (size_t)snprintf(out + n, sizeof out - n, spec, d);
		} else if (*p == 's' || *p == 'p') {
			uint64_t v;
			off = (off + 7) & ~(size_t)7;
			memcpy(&v, ap + off, 8);
			off += 8;
			size_t room;
			const char *in = str ? str->at(str, v, &room) : NULL;
			if (*p == 's' && in && strnlen(in, room) == room)
				in = "<bad string>";
			if (*p == 's')
				n += (size_t)snprintf(out + n, sizeof out - n, spec,
						      in ? in : (const char *)(uintptr_t)v);
			else
				n += (size_t)snprintf(out + n, sizeof out - n,
						      "0x%llx", (unsigned long long)v);
		} else {
			long long v;
			if (longs) {
				off = (off + 7) & ~(size_t)7;
				memcpy(&v, ap + off, 8);
				off += 8;
			} else {
				int32_t x;
				off = (off + 3) & ~(size_t)3;
				memcpy(&x, ap + off, 4);
				off += 4;
				v = strchr("di", *p) ? x : (long long)(uint32_t)x;
			}
			spec[k - 1] = '\0';
			char f2[40];
			snprintf(f2, sizeof f2, "%sll%c", spec, *p);
			n += (size_t)snprintf(out + n, sizeof out - n, f2, v);
		}
	}
	pthread_mutex_lock(&mk->lock);
	if (mk->plen + n < sizeof mk->printed) {
		memcpy(mk->printed + mk->plen, out, n);
		mk->plen += n;
		mk->printed[mk->plen] = '\0';
	}
	pthread_mutex_unlock(&mk->lock);
	return (int)n;
}

/* The text of tests/unit/kernels/<name>.ptx (from $srcdir), NULL if none. */
__attribute__((unused)) static char *mock_read_ptx(const char *name, size_t *len)
{
	const char *srcdir = getenv("srcdir");
	char path[1024];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof path, "%s/tests/unit/kernels/%s.ptx",
		 srcdir ? srcdir : ".", name);
	if (!(f = fopen(path, "rb")))
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		*len = (size_t)n;
	}
	return buf;
}

/* Allocates and initializes every variable of m, as the loader does. */
__attribute__((unused)) static int mock_bind(struct mock *mk, struct ex_module *m)
{
	for (int i = 0; i < ex_module_var_count(m); i++) {
		const struct ex_var_info *v = ex_module_var(m, i);
		uint8_t *p = mock_alloc(mk, v->size, v->managed ? 1 : 0);
		if (!p)
			return -1;
		if (v->init)
			memcpy(p, v->init, v->size);
		mk->a[mk->n - 1].readonly = v->space == EX_VAR_CONST;
		if (i < MOCK_MAX)
			mk->vars[i] = p;
		ex_module_bind_var(m, i, (uint64_t)(uintptr_t)p);
	}
	return 0;
}

/* Where mock_bind put variable name. */
__attribute__((unused)) static void *mock_var(struct mock *mk, const struct ex_module *m,
		      const char *name)
{
	int i = ex_module_find_var(m, name);

	return i >= 0 && i < MOCK_MAX ? mk->vars[i] : NULL;
}

/* A launch of kernel name with params (packed as the kernel declares). */
__attribute__((unused)) static struct ex_launch mock_launch(struct mock *mk, const struct ex_module *m,
				    const char *name, const void *params,
				    uint32_t gx, uint32_t gy, uint32_t bx,
				    uint32_t by, uint32_t bz)
{
	struct ex_launch l = { 0 };

	l.module = m;
	l.kernel = ex_module_find_kernel(m, name);
	l.grid[0] = gx; l.grid[1] = gy; l.grid[2] = 1;
	l.block[0] = bx; l.block[1] = by; l.block[2] = bz;
	l.params = params;
	l.threads = 2;
	l.stack_bytes = 1024;   /* the device's default CU_LIMIT_STACK_SIZE */
	l.dev.sm = 90;
	l.dev.sm_count = 132;
	l.dev.warps_per_sm = 64;
	l.mem.ctx = mk;
	l.mem.page = mock_page;
	l.mem.generation = &mk->generation;
	l.mem.vprintf = mock_vprintf;
	return l;
}

#endif
