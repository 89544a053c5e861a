/*
 * ctl_alloc.h - what the unit tests read of an allocation as /cu shows
 * it, over their control socket (ctl.h): one number of its record.
 */
#ifndef CUEMU_TEST_CTL_ALLOC_H
#define CUEMU_TEST_CTL_ALLOC_H

#include <jansson.h>

#include "ctl.h"

/* Key k1 (and k2 inside it) of the record of the allocation p lies in, or
 * -1 where there is none or it is no integer. */
static inline long long cu_int(CUdeviceptr p, const char *k1, const char *k2)
{
	static char buf[1 << 16];
	unsigned long long id = 0;
	char req[128];
	json_t *ans, *v;
	long long n = -1;

	if (cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, p))
		return -1;
	snprintf(req, sizeof req,
		 "{\"op\":\"get\",\"path\":\"allocations/%llu\"}", id);
	if (!*ctl_line(ctl_fd, req, buf, sizeof buf))
		return -1;
	ans = json_loads(buf, 0, NULL);
	v = json_object_get(json_object_get(ans, "value"), k1);
	if (k2)
		v = json_object_get(v, k2);
	if (json_is_integer(v))
		n = json_integer_value(v);
	json_decref(ans);
	return n;
}

#endif
