/*
 * parse.c - reads a workload description (cuemu-workload(5)) with jansson
 * and checks all of it before anything runs: every field's type and range,
 * no field the format does not have, labels and names that resolve, parts
 * that lie inside their allocations.
 *
 * jansson keeps no positions of the values it decodes, so the line of a
 * bad field is found afterwards: the path to it (keys and indices) is
 * walked over the text, with jansson decoding each key and skipping each
 * value it passes (JSON_DISABLE_EOF_CHECK gives how many bytes it took).
 *
 * No state beyond the call; not thread-safe (one file at a time).
 */
#include "workload.h"
#include "cuemu.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deeper than any valid path: 8 nested repeats of 3 segments each, and
 * the stream, step, kernel and part around them. */
#define MAX_DEPTH 64
#define MAX_REPEAT_DEPTH 8
/* More touches than this in one step is a mistake, not a workload. */
#define MAX_PIECES (1u << 22)

struct seg {
	const char *key;  /* NULL: an index */
	size_t index;
};

struct pctx {
	const char *file;
	const char *text;
	size_t len;
	struct seg path[MAX_DEPTH];
	int depth;
	char *err;
	size_t errlen;
	struct workload *w;
};

/* ---------------------------------------------------------------- where */

static size_t skip_ws(const char *t, size_t len, size_t pos)
{
	while (pos < len && (t[pos] == ' ' || t[pos] == '\t' || t[pos] == '\n' ||
			     t[pos] == '\r'))
		pos++;
	return pos;
}

/* How many bytes the JSON value at pos takes; 0 when none parses. With
 * key, the value must be a string, copied there (first n bytes). */
static size_t value_len(const char *t, size_t len, size_t pos, char *key,
			size_t n)
{
	json_error_t e;
	json_t *v = json_loadb(t + pos, len - pos,
			       JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK, &e);
	size_t took = v ? (size_t)e.position : 0;

	if (key) {
		if (!json_is_string(v))
			took = 0;
		else
			snprintf(key, n, "%s", json_string_value(v));
	}
	json_decref(v);
	return took;
}

/* The position of the value at the path's first depth segments, or of
 * the deepest value on the way that exists. */
static size_t locate(const struct pctx *c, int depth)
{
	size_t pos = skip_ws(c->text, c->len, 0), at, n;
	char key[256];

	for (int d = 0; d < depth; d++) {
		const struct seg *s = &c->path[d];
		size_t i = 0;
		bool found = false;

		at = pos;
		if (pos >= c->len || c->text[pos] != (s->key ? '{' : '['))
			return at;
		pos = skip_ws(c->text, c->len, pos + 1);
		while (pos < c->len && c->text[pos] != (s->key ? '}' : ']')) {
			if (s->key) {
				if (!(n = value_len(c->text, c->len, pos, key,
						    sizeof key)))
					return at;
				pos = skip_ws(c->text, c->len, pos + n);
				if (pos >= c->len || c->text[pos] != ':')
					return at;
				pos = skip_ws(c->text, c->len, pos + 1);
				found = !strcmp(key, s->key);
			} else {
				found = i++ == s->index;
			}
			if (found)
				break;
			if (!(n = value_len(c->text, c->len, pos, NULL, 0)))
				return at;
			pos = skip_ws(c->text, c->len, pos + n);
			if (pos < c->len && c->text[pos] == ',')
				pos = skip_ws(c->text, c->len, pos + 1);
		}
		if (!found)
			return at;
	}
	return pos;
}

static int line_of(const struct pctx *c, size_t pos)
{
	int line = 1;

	for (size_t i = 0; i < pos && i < c->len; i++)
		line += c->text[i] == '\n';
	return line;
}

static int here(const struct pctx *c)
{
	return line_of(c, locate(c, c->depth < MAX_DEPTH ? c->depth : MAX_DEPTH));
}

static void push_key(struct pctx *c, const char *key)
{
	if (c->depth < MAX_DEPTH)
		c->path[c->depth] = (struct seg){ key, 0 };
	c->depth++;
}

static void push_index(struct pctx *c, size_t i)
{
	if (c->depth < MAX_DEPTH)
		c->path[c->depth] = (struct seg){ NULL, i };
	c->depth++;
}

static void pop(struct pctx *c)
{
	c->depth--;
}

/* "FILE:LINE: a.b[2].c: why"; always -1. */
static int fail(struct pctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail(struct pctx *c, const char *fmt, ...)
{
	char path[512] = "", why[512];
	size_t n = 0;
	va_list ap;
	int depth = c->depth < MAX_DEPTH ? c->depth : MAX_DEPTH;

	for (int d = 0; d < depth && n < sizeof path; d++) {
		if (c->path[d].key)
			n += (size_t)snprintf(path + n, sizeof path - n, "%s%s",
					      d ? "." : "", c->path[d].key);
		else
			n += (size_t)snprintf(path + n, sizeof path - n, "[%zu]",
					      c->path[d].index);
	}
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s:%d: %s: %s", c->file,
		 line_of(c, locate(c, depth)), depth ? path : "(top)", why);
	return -1;
}

/* ---------------------------------------------------------------- fields */

/* obj has no key but those listed (NULL-terminated). */
static int only_keys(struct pctx *c, json_t *obj, const char *const *keys)
{
	const char *k;
	json_t *v;

	json_object_foreach(obj, k, v) {
		size_t i;

		for (i = 0; keys[i] && strcmp(keys[i], k); i++)
			;
		if (!keys[i]) {
			push_key(c, k);
			fail(c, "no such field here");
			pop(c);
			return -1;
		}
	}
	return 0;
}

static json_t *field(struct pctx *c, json_t *obj, const char *key,
		     bool required)
{
	json_t *v = json_object_get(obj, key);

	if (!v && required) {
		push_key(c, key);
		fail(c, "missing");
		pop(c);
	}
	return v;
}

/* A size: a whole number of bytes, or a string as cufs(5) writes sizes. */
static int get_size(struct pctx *c, json_t *obj, const char *key,
		    bool required, uint64_t def, uint64_t *out)
{
	json_t *v = field(c, obj, key, required);
	unsigned long long b;
	int rc = 0;

	*out = def;
	if (!v)
		return required ? -1 : 0;
	push_key(c, key);
	if (json_is_integer(v) && json_integer_value(v) >= 0)
		*out = (uint64_t)json_integer_value(v);
	else if (json_is_string(v) &&
		 cuemuParseSize(json_string_value(v), &b) == 0)
		*out = b;
	else
		rc = fail(c, "not a size: bytes, or a string such as \"64M\"");
	pop(c);
	return rc;
}

static int get_uint(struct pctx *c, json_t *obj, const char *key,
		    bool required, uint64_t def, uint64_t min, uint64_t max,
		    uint64_t *out)
{
	json_t *v = field(c, obj, key, required);
	int rc = 0;

	*out = def;
	if (!v)
		return required ? -1 : 0;
	push_key(c, key);
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (uint64_t)json_integer_value(v) < min ||
	    (uint64_t)json_integer_value(v) > max)
		rc = fail(c, "must be a whole number from %llu to %llu",
			  (unsigned long long)min, (unsigned long long)max);
	else
		*out = (uint64_t)json_integer_value(v);
	pop(c);
	return rc;
}

static const char *get_string(struct pctx *c, json_t *obj, const char *key,
			      bool required, size_t max)
{
	json_t *v = field(c, obj, key, required);
	const char *s = NULL;

	if (!v)
		return NULL;
	push_key(c, key);
	if (!json_is_string(v) || !json_string_length(v))
		fail(c, "must be a string, not empty");
	else if (json_string_length(v) > max)
		fail(c, "longer than %zu bytes", max);
	else if (strchr(json_string_value(v), '\n'))
		fail(c, "must be one line");
	else
		s = json_string_value(v);
	pop(c);
	return s;
}

/* A location word: gpuN (a GPU index, checked against the machine when
 * the run starts) or cpu; other words only where other is set. */
static int get_loc(struct pctx *c, json_t *obj, const char *key,
		   bool required, CUmemLocation *loc)
{
	json_t *v = field(c, obj, key, required);
	int rc = 0;

	if (!v)
		return required ? -1 : 1;
	push_key(c, key);
	if (!json_is_string(v) ||
	    cuemuParseLocation(json_string_value(v), loc) < 0 ||
	    (loc->type != CU_MEM_LOCATION_TYPE_DEVICE &&
	     loc->type != CU_MEM_LOCATION_TYPE_HOST))
		rc = fail(c, "must be a location: \"gpuN\" or \"cpu\"");
	pop(c);
	return rc;
}

static int get_device(struct pctx *c, json_t *obj, const char *key,
		      int *dev)
{
	CUmemLocation loc;
	int rc = get_loc(c, obj, key, false, &loc);

	*dev = 0;
	if (rc < 0)
		return -1;
	if (rc == 1)
		return 0;
	if (loc.type != CU_MEM_LOCATION_TYPE_DEVICE) {
		push_key(c, key);
		fail(c, "must be a GPU: \"gpuN\"");
		pop(c);
		return -1;
	}
	*dev = loc.id;
	return 0;
}

static int get_bool(struct pctx *c, json_t *obj, const char *key, bool *out)
{
	json_t *v = json_object_get(obj, key);

	*out = false;
	if (!v)
		return 0;
	if (!json_is_boolean(v)) {
		push_key(c, key);
		fail(c, "must be true or false");
		pop(c);
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}

static int alloc_index(struct pctx *c, json_t *obj, const char *key)
{
	const char *label = get_string(c, obj, key, true, WORKLOAD_LABEL_MAX);

	if (!label)
		return -1;
	for (size_t i = 0; i < c->w->nallocs; i++)
		if (!strcmp(c->w->allocs[i].label, label))
			return (int)i;
	push_key(c, key);
	fail(c, "no allocation is labelled \"%s\"", label);
	pop(c);
	return -1;
}

/* offset and length of obj inside allocation a (length: the rest when
 * absent). */
static int get_part(struct pctx *c, json_t *obj, int a, const char *off_key,
		    uint64_t *off, uint64_t *len)
{
	uint64_t size = c->w->allocs[a].size;

	if (get_size(c, obj, off_key, false, 0, off) < 0 ||
	    get_size(c, obj, "length", false, 0, len) < 0)
		return -1;
	if (*off >= size) {
		push_key(c, off_key);
		fail(c, "%llu is not inside \"%s\" (%llu bytes)",
		     (unsigned long long)*off, c->w->allocs[a].label,
		     (unsigned long long)size);
		pop(c);
		return -1;
	}
	if (!json_object_get(obj, "length"))
		*len = size - *off;
	if (!*len || *len > size - *off) {
		push_key(c, "length");
		fail(c, "from %llu, %llu bytes are not inside \"%s\" "
		     "(%llu bytes)", (unsigned long long)*off,
		     (unsigned long long)*len, c->w->allocs[a].label,
		     (unsigned long long)size);
		pop(c);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- parts */

static int parse_span(struct pctx *c, json_t *o, struct w_span *s,
		      bool gpu)
{
	static const char *const keys[] = { "alloc", "mode", "offset", "length",
		"stride", "chunk", "passes", NULL };
	const char *mode;
	uint64_t v;

	s->line = here(c);
	if (!json_is_object(o))
		return fail(c, "must be an object");
	if (only_keys(c, o, keys) < 0 || (s->alloc = alloc_index(c, o, "alloc")) < 0 ||
	    !(mode = get_string(c, o, "mode", true, 16)) ||
	    get_part(c, o, s->alloc, "offset", &s->offset, &s->length) < 0 ||
	    get_size(c, o, "stride", false, 0, &s->stride) < 0 ||
	    get_size(c, o, "chunk", false, 4096, &s->chunk) < 0 ||
	    get_uint(c, o, "passes", false, 1, 1, 1000000, &v) < 0)
		return -1;
	s->passes = (unsigned)v;
	s->read = !strcmp(mode, "read") || !strcmp(mode, "readwrite");
	s->write = !strcmp(mode, "write") || !strcmp(mode, "readwrite");
	push_key(c, "mode");
	if (!s->read && !s->write)
		return fail(c, "must be \"read\", \"write\" or \"readwrite\"");
	pop(c);
	if (json_object_get(o, "chunk") && !s->stride) {
		push_key(c, "chunk");
		return fail(c, "a chunk needs a stride");
	}
	if (s->stride && (!s->chunk || s->chunk > s->stride)) {
		push_key(c, "chunk");
		return fail(c, "must be from 1 to the stride (%llu)",
			    (unsigned long long)s->stride);
	}
	if (s->stride && (s->length + s->stride - 1) / s->stride *
	    (uint64_t)s->passes > MAX_PIECES) {
		push_key(c, "stride");
		return fail(c, "more than %u touches: use a larger stride",
			    MAX_PIECES);
	}
	if (!gpu && c->w->allocs[s->alloc].kind == AK_DEVICE) {
		push_key(c, "alloc");
		return fail(c, "\"%s\" is device memory: the CPU cannot touch it",
			    c->w->allocs[s->alloc].label);
	}
	return 0;
}

static int parse_kernel(struct pctx *c, json_t *o, struct w_step *st)
{
	static const char *const keys[] = { "access", "compute_ns", NULL };
	json_t *acc, *e;
	size_t i;

	if (!json_is_object(o))
		return fail(c, "must be an object");
	if (only_keys(c, o, keys) < 0 ||
	    get_uint(c, o, "compute_ns", false, 0, 0, UINT64_C(1) << 50,
		     &st->u.kernel.compute_ns) < 0)
		return -1;
	acc = json_object_get(o, "access");
	if (!acc && !st->u.kernel.compute_ns)
		return fail(c, "a kernel needs an access list or compute_ns");
	if (!acc)
		return 0;
	push_key(c, "access");
	if (!json_is_array(acc) || !json_array_size(acc))
		return fail(c, "must be a list of parts, not empty");
	st->u.kernel.n = json_array_size(acc);
	if (!(st->u.kernel.spans = calloc(st->u.kernel.n, sizeof(struct w_span))))
		return fail(c, "out of memory");
	json_array_foreach(acc, i, e) {
		push_index(c, i);
		if (parse_span(c, e, &st->u.kernel.spans[i], true) < 0)
			return -1;
		pop(c);
	}
	pop(c);
	return 0;
}

static int managed_only(struct pctx *c, json_t *o, int a)
{
	if (c->w->allocs[a].kind == AK_MANAGED)
		return 0;
	(void)o;
	push_key(c, "alloc");
	return fail(c, "\"%s\" is not managed memory", c->w->allocs[a].label);
}

static int parse_prefetch(struct pctx *c, json_t *o, struct w_step *st)
{
	static const char *const keys[] = { "alloc", "to", "offset", "length",
		NULL };

	if (!json_is_object(o))
		return fail(c, "must be an object");
	if (only_keys(c, o, keys) < 0 ||
	    (st->u.prefetch.alloc = alloc_index(c, o, "alloc")) < 0 ||
	    managed_only(c, o, st->u.prefetch.alloc) < 0 ||
	    get_loc(c, o, "to", true, &st->u.prefetch.to) < 0)
		return -1;
	return get_part(c, o, st->u.prefetch.alloc, "offset",
			&st->u.prefetch.offset, &st->u.prefetch.length);
}

static int parse_advise(struct pctx *c, json_t *o, struct w_step *st)
{
	static const char *const keys[] = { "alloc", "advice", "unset",
		"location", "offset", "length", NULL };
	const char *a;
	int rc;

	if (!json_is_object(o))
		return fail(c, "must be an object");
	if (only_keys(c, o, keys) < 0 ||
	    (st->u.advise.alloc = alloc_index(c, o, "alloc")) < 0 ||
	    managed_only(c, o, st->u.advise.alloc) < 0 ||
	    !(a = get_string(c, o, "advice", true, 32)) ||
	    get_bool(c, o, "unset", &st->u.advise.unset) < 0)
		return -1;
	if (!strcmp(a, "read_mostly"))
		st->u.advise.advice = ADV_READ_MOSTLY;
	else if (!strcmp(a, "preferred_location"))
		st->u.advise.advice = ADV_PREFERRED;
	else if (!strcmp(a, "accessed_by"))
		st->u.advise.advice = ADV_ACCESSED_BY;
	else {
		push_key(c, "advice");
		return fail(c, "must be \"read_mostly\", \"preferred_location\" "
			    "or \"accessed_by\"");
	}
	/* read_mostly and unsetting a preferred location take no location. */
	rc = get_loc(c, o, "location", st->u.advise.advice == ADV_ACCESSED_BY ||
		     (st->u.advise.advice == ADV_PREFERRED &&
		      !st->u.advise.unset), &st->u.advise.loc);
	if (rc < 0)
		return -1;
	if (rc == 0 && (st->u.advise.advice == ADV_READ_MOSTLY ||
			(st->u.advise.advice == ADV_PREFERRED &&
			 st->u.advise.unset))) {
		push_key(c, "location");
		return fail(c, "this advice takes no location");
	}
	return get_part(c, o, st->u.advise.alloc, "offset",
			&st->u.advise.offset, &st->u.advise.length);
}

static int parse_memcpy(struct pctx *c, json_t *o, struct w_step *st)
{
	static const char *const keys[] = { "dst", "src", "dst_offset",
		"src_offset", "length", NULL };
	uint64_t dlen, slen;

	if (!json_is_object(o))
		return fail(c, "must be an object");
	if (only_keys(c, o, keys) < 0 ||
	    (st->u.memcpy.dst = alloc_index(c, o, "dst")) < 0 ||
	    (st->u.memcpy.src = alloc_index(c, o, "src")) < 0 ||
	    get_part(c, o, st->u.memcpy.dst, "dst_offset",
		     &st->u.memcpy.dst_offset, &dlen) < 0 ||
	    get_part(c, o, st->u.memcpy.src, "src_offset",
		     &st->u.memcpy.src_offset, &slen) < 0)
		return -1;
	/* Without a length, the most both ends hold. */
	st->u.memcpy.length = dlen < slen ? dlen : slen;
	return 0;
}

static int parse_memset(struct pctx *c, json_t *o, struct w_step *st)
{
	static const char *const keys[] = { "alloc", "value", "offset",
		"length", NULL };
	uint64_t v;

	if (!json_is_object(o))
		return fail(c, "must be an object");
	if (only_keys(c, o, keys) < 0 ||
	    (st->u.memset.alloc = alloc_index(c, o, "alloc")) < 0 ||
	    get_uint(c, o, "value", false, 0, 0, 255, &v) < 0)
		return -1;
	st->u.memset.value = (unsigned)v;
	return get_part(c, o, st->u.memset.alloc, "offset",
			&st->u.memset.offset, &st->u.memset.length);
}

/* The event named by v, made on first mention. */
static int event_index(struct pctx *c, json_t *v, int line)
{
	struct workload *w = c->w;
	struct w_event *e;
	const char *name = json_string_value(v);

	if (!json_is_string(v) || !json_string_length(v) ||
	    json_string_length(v) >= sizeof w->events[0].name)
		return fail(c, "must be an event's name (1 to 63 bytes)");
	for (size_t i = 0; i < w->nevents; i++)
		if (!strcmp(w->events[i].name, name))
			return (int)i;
	if (!(e = realloc(w->events, (w->nevents + 1) * sizeof *e)))
		return fail(c, "out of memory");
	w->events = e;
	e = &w->events[w->nevents];
	memset(e, 0, sizeof *e);
	snprintf(e->name, sizeof e->name, "%s", name);
	e->line = line;
	return (int)w->nevents++;
}

static int parse_steps(struct pctx *c, json_t *arr, struct w_step **out,
		       size_t *n, int nesting);

static int parse_repeat(struct pctx *c, json_t *o, struct w_step *st,
			int nesting)
{
	static const char *const keys[] = { "count", "steps", NULL };
	uint64_t v;
	int rc;

	if (!json_is_object(o))
		return fail(c, "must be an object");
	if (nesting >= MAX_REPEAT_DEPTH)
		return fail(c, "repeats nest at most %d deep", MAX_REPEAT_DEPTH);
	if (only_keys(c, o, keys) < 0 ||
	    get_uint(c, o, "count", true, 1, 1, 1000000, &v) < 0 ||
	    !field(c, o, "steps", true))
		return -1;
	st->u.repeat.count = (unsigned)v;
	push_key(c, "steps");
	rc = parse_steps(c, json_object_get(o, "steps"), &st->u.repeat.steps,
			 &st->u.repeat.n, nesting + 1);
	pop(c);
	return rc;
}

static const char *const step_names[] = {
	[ST_KERNEL] = "kernel", [ST_PREFETCH] = "prefetch",
	[ST_ADVISE] = "advise", [ST_MEMCPY] = "memcpy", [ST_MEMSET] = "memset",
	[ST_RECORD] = "record", [ST_WAIT] = "wait", [ST_SYNC] = "synchronize",
	[ST_CPU] = "cpu", [ST_SLEEP] = "sleep_ns", [ST_REPEAT] = "repeat",
};

static int parse_step(struct pctx *c, json_t *o, struct w_step *st,
		      int nesting)
{
	const char *k = NULL;
	json_t *v = NULL;
	size_t i;
	int rc;

	st->line = here(c);
	if (!json_is_object(o) || json_object_size(o) != 1)
		return fail(c, "a step is an object of one field: kernel, "
			    "prefetch, advise, memcpy, memset, record, wait, "
			    "synchronize, cpu, sleep_ns or repeat");
	json_object_foreach(o, k, v)
		break;
	for (i = 0; i < sizeof step_names / sizeof *step_names &&
		    strcmp(step_names[i], k); i++)
		;
	push_key(c, k);
	if (i == sizeof step_names / sizeof *step_names)
		return fail(c, "no such step");
	st->kind = (enum step_kind)i;
	switch (st->kind) {
	case ST_KERNEL: rc = parse_kernel(c, v, st); break;
	case ST_PREFETCH: rc = parse_prefetch(c, v, st); break;
	case ST_ADVISE: rc = parse_advise(c, v, st); break;
	case ST_MEMCPY: rc = parse_memcpy(c, v, st); break;
	case ST_MEMSET: rc = parse_memset(c, v, st); break;
	case ST_RECORD:
	case ST_WAIT:
		rc = st->u.event = event_index(c, v, st->line);
		break;
	case ST_SYNC:
		rc = json_is_true(v) ? 0 : fail(c, "must be true");
		break;
	case ST_CPU: rc = parse_span(c, v, &st->u.cpu, false); break;
	case ST_SLEEP:
		rc = json_is_integer(v) && json_integer_value(v) >= 0 ? 0 :
		     fail(c, "must be a whole number of nanoseconds");
		st->u.sleep_ns = rc ? 0 : (uint64_t)json_integer_value(v);
		break;
	default: rc = parse_repeat(c, v, st, nesting); break;
	}
	if (rc < 0)
		return -1;
	pop(c);
	return 0;
}

static int parse_steps(struct pctx *c, json_t *arr, struct w_step **out,
		       size_t *n, int nesting)
{
	json_t *e;
	size_t i;

	if (!json_is_array(arr) || !json_array_size(arr))
		return fail(c, "must be a list of steps, not empty");
	*n = json_array_size(arr);
	if (!(*out = calloc(*n, sizeof **out)))
		return fail(c, "out of memory");
	json_array_foreach(arr, i, e) {
		push_index(c, i);
		if (parse_step(c, e, &(*out)[i], nesting) < 0)
			return -1;
		pop(c);
	}
	return 0;
}

/* ---------------------------------------------------------------- top */

static int parse_alloc(struct pctx *c, json_t *o, struct w_alloc *a)
{
	static const char *const keys[] = { "label", "kind", "size", "device",
		"location", NULL };
	const char *label, *kind;
	int rc;

	a->line = here(c);
	if (!json_is_object(o))
		return fail(c, "must be an object");
	if (only_keys(c, o, keys) < 0 ||
	    !(label = get_string(c, o, "label", true, WORKLOAD_LABEL_MAX)) ||
	    !(kind = get_string(c, o, "kind", true, 16)) ||
	    get_size(c, o, "size", true, 0, &a->size) < 0 ||
	    get_device(c, o, "device", &a->device) < 0)
		return -1;
	for (size_t i = 0; i < c->w->nallocs; i++) {
		if (!strcmp(c->w->allocs[i].label, label)) {
			push_key(c, "label");
			return fail(c, "\"%s\" labels an allocation already "
				    "(line %d)", label, c->w->allocs[i].line);
		}
	}
	snprintf(a->label, sizeof a->label, "%s", label);
	push_key(c, "kind");
	if (!strcmp(kind, "managed"))
		a->kind = AK_MANAGED;
	else if (!strcmp(kind, "device"))
		a->kind = AK_DEVICE;
	else if (!strcmp(kind, "pinned"))
		a->kind = AK_PINNED;
	else
		return fail(c, "must be \"managed\", \"device\" or \"pinned\"");
	pop(c);
	if (!a->size) {
		push_key(c, "size");
		return fail(c, "must not be 0");
	}
	if ((rc = get_loc(c, o, "location", false, &a->location)) < 0)
		return -1;
	a->has_location = rc == 0;
	if (a->has_location && a->kind != AK_MANAGED) {
		push_key(c, "location");
		return fail(c, "only managed memory is placed by location");
	}
	if (json_object_get(o, "device") && a->kind == AK_PINNED) {
		push_key(c, "device");
		return fail(c, "pinned memory is the host's: no device");
	}
	return 0;
}

static int parse_stream(struct pctx *c, json_t *o, struct w_stream *s)
{
	static const char *const keys[] = { "name", "device", "steps", NULL };
	const char *name;
	int rc;

	s->line = here(c);
	if (!json_is_object(o))
		return fail(c, "must be an object");
	if (only_keys(c, o, keys) < 0 ||
	    !(name = get_string(c, o, "name", true, sizeof s->name - 1)) ||
	    get_device(c, o, "device", &s->device) < 0 ||
	    !field(c, o, "steps", true))
		return -1;
	for (size_t i = 0; i < c->w->nstreams; i++) {
		if (!strcmp(c->w->streams[i].name, name)) {
			push_key(c, "name");
			return fail(c, "\"%s\" names a stream already", name);
		}
	}
	snprintf(s->name, sizeof s->name, "%s", name);
	push_key(c, "steps");
	rc = parse_steps(c, json_object_get(o, "steps"), &s->steps, &s->n, 0);
	pop(c);
	return rc;
}

/* Every event waited for is recorded somewhere. */
static bool records(const struct w_step *st, size_t n, int ev)
{
	for (size_t i = 0; i < n; i++) {
		if (st[i].kind == ST_RECORD && st[i].u.event == ev)
			return true;
		if (st[i].kind == ST_REPEAT &&
		    records(st[i].u.repeat.steps, st[i].u.repeat.n, ev))
			return true;
	}
	return false;
}

static int check_events(struct pctx *c)
{
	struct workload *w = c->w;

	for (size_t e = 0; e < w->nevents; e++) {
		bool rec = false;

		for (size_t s = 0; s < w->nstreams && !rec; s++)
			rec = records(w->streams[s].steps, w->streams[s].n,
				      (int)e);
		if (!rec) {
			snprintf(c->err, c->errlen, "%s:%d: event \"%s\" is "
				 "waited for but never recorded", c->file,
				 w->events[e].line, w->events[e].name);
			return -1;
		}
	}
	return 0;
}

/* name as a path: relative to the directory of the file that names it. */
static void resolve(const char *file, const char *name, char *out,
		    size_t len)
{
	const char *slash = strrchr(file, '/');

	if (name[0] == '/' || !slash)
		snprintf(out, len, "%s", name);
	else
		snprintf(out, len, "%.*s/%s", (int)(slash - file), file, name);
}

static int parse_top(struct pctx *c, json_t *root)
{
	static const char *const keys[] = { "cuemu_workload", "name",
		"description", "topology", "allocations", "streams", NULL };
	struct workload *w = c->w;
	const char *name;
	json_t *arr, *e;
	uint64_t version;
	size_t i;

	if (!json_is_object(root))
		return fail(c, "a workload is a JSON object");
	/* The likeliest wrong file: the machine a workload runs on. */
	if (!json_object_get(root, "cuemu_workload") &&
	    (json_object_get(root, "device_count") ||
	     json_object_get(root, "devices")))
		return fail(c, "this is a topology (cuemu-topology(5)), not a "
			    "workload: name it in a workload's \"topology\" "
			    "field, or run with CUEMU_TOPOLOGY=FILE");
	if (get_uint(c, root, "cuemu_workload", true, 0, 0, 1000, &version) < 0)
		return -1;
	if (version != WORKLOAD_VERSION) {
		push_key(c, "cuemu_workload");
		return fail(c, "version %llu: this cuemu-run reads version %d",
			    (unsigned long long)version, WORKLOAD_VERSION);
	}
	if (only_keys(c, root, keys) < 0)
		return -1;
	if ((name = get_string(c, root, "name", false, sizeof w->name - 1)))
		snprintf(w->name, sizeof w->name, "%s", name);
	else if (json_object_get(root, "name"))
		return -1;
	if ((name = get_string(c, root, "topology", false, 1024)))
		resolve(c->file, name, w->topology, sizeof w->topology);
	else if (json_object_get(root, "topology"))
		return -1;
	if (json_object_get(root, "description") &&
	    !json_is_string(json_object_get(root, "description"))) {
		push_key(c, "description");
		return fail(c, "must be a string");
	}
	if (!(arr = field(c, root, "allocations", true)))
		return -1;
	push_key(c, "allocations");
	if (!json_is_array(arr) || !json_array_size(arr))
		return fail(c, "must be a list of allocations, not empty");
	if (!(w->allocs = calloc(json_array_size(arr), sizeof *w->allocs)))
		return fail(c, "out of memory");
	json_array_foreach(arr, i, e) {
		push_index(c, i);
		if (parse_alloc(c, e, &w->allocs[i]) < 0)
			return -1;
		w->nallocs++;
		pop(c);
	}
	pop(c);
	if (!(arr = field(c, root, "streams", true)))
		return -1;
	push_key(c, "streams");
	if (!json_is_array(arr) || !json_array_size(arr))
		return fail(c, "must be a list of streams, not empty");
	if (!(w->streams = calloc(json_array_size(arr), sizeof *w->streams)))
		return fail(c, "out of memory");
	w->streams_cap = json_array_size(arr);
	json_array_foreach(arr, i, e) {
		push_index(c, i);
		if (parse_stream(c, e, &w->streams[i]) < 0)
			return -1;
		w->nstreams++;
		pop(c);
	}
	pop(c);
	return check_events(c);
}

static char *read_all(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t cap = 0, n = 0, got;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > (64u << 20) || !(nb = realloc(buf, cap))) {
				snprintf(err, errlen, "%s: larger than 64 MiB "
					 "or out of memory", path);
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

int workload_load(const char *path, struct workload *w, char *err,
		  size_t errlen)
{
	struct pctx c = { .file = path, .err = err, .errlen = errlen, .w = w };
	json_error_t je;
	json_t *root;
	char *text;
	size_t len;
	int rc;

	memset(w, 0, sizeof *w);
	if (!(text = read_all(path, &len, err, errlen)))
		return -1;
	c.text = text;
	c.len = len;
	if (!(root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je))) {
		snprintf(err, errlen, "%s:%d: not JSON: %s", path, je.line,
			 je.text);
		free(text);
		return -1;
	}
	rc = parse_top(&c, root);
	json_decref(root);
	free(text);
	if (rc < 0)
		workload_free(w);
	return rc;
}

static void steps_free(struct w_step *st, size_t n)
{
	for (size_t i = 0; st && i < n; i++) {
		if (st[i].kind == ST_KERNEL)
			free(st[i].u.kernel.spans);
		else if (st[i].kind == ST_REPEAT)
			steps_free(st[i].u.repeat.steps, st[i].u.repeat.n);
	}
	free(st);
}

void workload_free(struct workload *w)
{
	/* The stream that failed to parse is freed too: its slot was
	 * zeroed, its steps are those made so far. */
	for (size_t i = 0; i < w->streams_cap; i++)
		steps_free(w->streams[i].steps, w->streams[i].n);
	free(w->streams);
	free(w->allocs);
	free(w->events);
	memset(w, 0, sizeof *w);
}
