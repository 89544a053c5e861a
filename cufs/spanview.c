/*
 * spanview.c - ranges/<start>-<end> of a managed allocation in /cu: what
 * any page-aligned span of it shows, aggregated from the ranges its
 * process published, as the process's own model aggregates a span for the
 * range attributes (a value all share or "mixed", the words all have,
 * bytes held in proportion). Reads the published record only: a stopped
 * process's spans read as a running one's.
 *
 * Locking: none; each call works on the caller's copy of a record.
 */
#include "cufs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One bound of "<start>-<end>", spelled as the process takes it:
 * 0x-prefixed or bare hex, or decimal. */
static bool parse_bound(const char *s, size_t n, uint64_t *out)
{
	char buf[40], *end;
	int base = 10;

	if (!n || n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (buf[i] < '0' || buf[i] > '9')
			base = 16;
	errno = 0;
	*out = strtoull(buf, &end, base);
	return !errno && !*end;
}

static bool parse_span(const char *name, uint64_t *s, uint64_t *e)
{
	const char *dash = strchr(name, '-');

	return dash && parse_bound(name, (size_t)(dash - name), s) &&
	       parse_bound(dash + 1, strlen(dash + 1), e) && *s < *e;
}

static uint64_t hex_of(json_t *v)
{
	const char *s = json_string_value(v);

	return s ? strtoull(s, NULL, 16) : 0;
}

/* The words two arrays share. */
static json_t *words_both(json_t *a, json_t *b)
{
	json_t *out = json_array(), *e, *f;
	size_t i, j;

	json_array_foreach(a, i, e) {
		if (!json_is_string(e))
			continue;
		json_array_foreach(b, j, f)
			if (json_equal(e, f)) {
				json_array_append(out, e);
				break;
			}
	}
	return out;
}

/* What the process answers for a span of its ranges, from the published
 * ranges: a value they all share or "mixed", the words they all have,
 * read_mostly where all are, and bytes held in proportion to the part
 * of each range inside [s, e), as the model aggregates a span. */
static json_t *span_view(json_t *ranges, uint64_t s, uint64_t e)
{
	json_t *o = json_object(), *first = NULL, *r, *res = json_object();
	const char *k;
	char b[32];
	size_t i;
	json_t *v;

	snprintf(b, sizeof b, "0x%llx", (unsigned long long)s);
	json_object_set_new(o, "start", json_string(b));
	snprintf(b, sizeof b, "0x%llx", (unsigned long long)e);
	json_object_set_new(o, "end", json_string(b));
	json_array_foreach(ranges, i, r) {
		uint64_t rs = hex_of(json_object_get(r, "start"));
		uint64_t re = hex_of(json_object_get(r, "end"));
		uint64_t lo = rs > s ? rs : s, hi = re < e ? re : e;

		if (!json_is_object(r) || lo >= hi || re <= rs)
			continue;
		json_object_foreach(json_object_get(r, "residency"), k, v) {
			unsigned __int128 part = (unsigned __int128)
				(uint64_t)json_integer_value(v) * (hi - lo) /
				(re - rs);
			json_int_t had = json_integer_value(json_object_get(res, k));

			json_object_set_new(res, k, json_integer(had +
					    (json_int_t)part));
		}
		if (!first) {
			first = r;
			json_object_update(o, r);
			continue;
		}
		for (int f = 0; f < 2; f++) {
			const char *key = f ? "last_prefetch_location" :
				      "preferred_location";

			if (!json_equal(json_object_get(o, key),
					json_object_get(r, key)))
				json_object_set_new(o, key, json_string("mixed"));
		}
		json_object_set_new(o, "read_mostly", json_integer(
			json_integer_value(json_object_get(o, "read_mostly")) &&
			json_integer_value(json_object_get(r, "read_mostly"))));
		json_object_set_new(o, "accessed_by", words_both(
			json_object_get(o, "accessed_by"),
			json_object_get(r, "accessed_by")));
		json_object_set_new(o, "holders", words_both(
			json_object_get(o, "holders"),
			json_object_get(r, "holders")));
	}
	/* update() took the first range's bounds: the span's are these. */
	snprintf(b, sizeof b, "0x%llx", (unsigned long long)s);
	json_object_set_new(o, "start", json_string(b));
	snprintf(b, sizeof b, "0x%llx", (unsigned long long)e);
	json_object_set_new(o, "end", json_string(b));
	json_object_set_new(o, "residency", res);
	if (!first) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* ranges/<name> of a managed allocation: a published range as it is, any
 * other page-aligned span of the allocation from the ranges it covers. */
json_t *cufs_range_view(json_t *alloc, const char *name)
{
	json_t *ranges = json_object_get(alloc, "ranges"), *r, *v, *w, *e;
	uint64_t s, end, lo = UINT64_MAX, hi = 0;
	size_t i;

	if (!json_is_array(ranges) || !parse_span(name, &s, &end))
		return NULL;
	json_array_foreach(ranges, i, r) {
		uint64_t rs = hex_of(json_object_get(r, "start"));
		uint64_t re = hex_of(json_object_get(r, "end"));

		lo = rs < lo ? rs : lo;
		hi = re > hi ? re : hi;
	}
	if (s % 4096 || end % 4096 || s < lo || end > hi)
		return NULL;
	if (!(v = span_view(ranges, s, end)))
		return NULL;
	/* A range takes the writes its allocation takes, but its label. */
	w = json_array();
	json_array_foreach(json_object_get(alloc, "writable"), i, e)
		if (json_is_string(e) && strcmp(json_string_value(e), "label"))
			json_array_append(w, e);
	json_object_set_new(v, "writable", w);
	return v;
}
