/*
 * test_control.c - the control socket's protocol, spoken to the test's own
 * process: the socket's place and mode, hello, list/get/set of objects,
 * the process's files, events, snapshot, and every kind of bad request.
 */
#include <errno.h>
#include <time.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "cuda.h"
#include "cuemu.h"
#include "outward/cuemu-private.h"
#include "spawn.h"
#include "tap.h"

static char sock_path[PATH_MAX];
static char *rbuf;
static size_t rcap, rlen;

/* A connection to the socket at path, <dir>/<pid>.sock, reached as the
 * process's clients reach it (cuemuCtlAddr), whatever dir's depth. */
static int connect_to(const char *path)
{
	struct sockaddr_un sa;
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, dfd;

	if (!slash || (size_t)(slash - path) >= sizeof dir)
		return -1;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	if ((dfd = cuemuCtlAddr(dir, (pid_t)atoi(slash + 1), &sa)) < 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		close(fd);
		fd = -1;
	}
	close(dfd);
	return fd;
}

/* One answer line, or NULL after 5 s or when the server closes. */
static json_t *read_answer(int fd)
{
	char *nl;
	json_t *j;

	for (;;) {
		if (rbuf && (nl = memchr(rbuf, '\n', rlen))) {
			size_t n = (size_t)(nl - rbuf);

			j = json_loadb(rbuf, n, 0, NULL);
			rlen -= n + 1;
			memmove(rbuf, nl + 1, rlen);
			return j;
		}
		if (rcap - rlen < 4096)
			rbuf = realloc(rbuf, rcap = rcap * 2 + 65536);
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 5000) <= 0)
			return NULL;
		ssize_t r = read(fd, rbuf + rlen, rcap - rlen);
		if (r <= 0)
			return NULL;
		rlen += (size_t)r;
	}
}

static json_t *ask_raw(int fd, const char *line, size_t n)
{
	if (write(fd, line, n) != (ssize_t)n)
		return NULL;
	return read_answer(fd);
}

__attribute__((format(printf, 2, 3)))
static json_t *ask(int fd, const char *fmt, ...)
{
	char line[8192];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	line[n++] = '\n';
	return ask_raw(fd, line, (size_t)n);
}

static bool is_ok(json_t *a)
{
	return json_is_true(json_object_get(a, "ok"));
}

static long long jint(json_t *o, const char *k)
{
	return json_integer_value(json_object_get(o, k));
}

static const char *jstr(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static bool has_id(json_t *ids, long long id)
{
	size_t i;
	json_t *v;

	json_array_foreach(ids, i, v)
		if (json_integer_value(v) == id)
			return true;
	return false;
}

static bool has_str(json_t *arr, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), s))
			return true;
	return false;
}

static void check_socket(void)
{
	const char *dir = getenv("CUEMU_RUNDIR");
	struct stat st;

	ok(dir && *dir, "CUEMU_RUNDIR is set by the test environment");
	snprintf(sock_path, sizeof sock_path, "%s/%d.sock", dir ? dir : ".",
		 (int)getpid());
	ok(stat(sock_path, &st) == 0 && S_ISSOCK(st.st_mode),
	   "cuInit made %s", sock_path);
	is_int(st.st_mode & 07777, 0600, "the socket's mode is 0600");
}

static void check_hello(int fd)
{
	json_t *a = ask(fd, "{\"op\":\"hello\"}");

	ok(is_ok(a), "hello answers ok");
	is_int(jint(a, "pid"), getpid(), "hello: pid");
	is_int(jint(a, "uid"), getuid(), "hello: uid");
	ok(strstr(jstr(a, "cmdline"), "test_control") != NULL,
	   "hello: cmdline names the program (%s)", jstr(a, "cmdline"));
	ok(*jstr(a, "version") != '\0', "hello: version");
	json_decref(a);
}

static void check_bad_requests(int fd)
{
	static char big[70000];
	json_t *a;

	a = ask(fd, "this is not json");
	is_int(jint(a, "errno"), EINVAL, "not JSON: errno 22");
	ok(!is_ok(a) && strstr(jstr(a, "message"), "not JSON"),
	   "not JSON: the message says so (%s)", jstr(a, "message"));
	json_decref(a);
	a = ask(fd, "[1,2]");
	is_int(jint(a, "errno"), EINVAL, "a JSON array: errno 22");
	json_decref(a);
	a = ask(fd, "{\"op\":\"frobnicate\"}");
	is_int(jint(a, "errno"), EINVAL, "unknown op: errno 22");
	ok(strstr(jstr(a, "message"), "frobnicate") != NULL,
	   "unknown op: the message names it");
	json_decref(a);
	a = ask(fd, "{\"path\":\"process\"}");
	is_int(jint(a, "errno"), EINVAL, "missing op: errno 22");
	json_decref(a);
	a = ask(fd, "{\"op\":\"get\"}");
	is_int(jint(a, "errno"), EINVAL, "get without path: errno 22");
	ok(strstr(jstr(a, "message"), "path") != NULL,
	   "get without path: the message says path");
	json_decref(a);
	a = ask(fd, "{\"op\":\"set\",\"path\":\"allocations/1/label\"}");
	is_int(jint(a, "errno"), EINVAL, "set without value: errno 22");
	json_decref(a);

	memset(big, 'a', sizeof big);
	memcpy(big, "{\"op\":\"get\",\"path\":\"", 20);
	memcpy(big + 20 + 5000, "\"}\n", 3);
	a = ask_raw(fd, big, 20 + 5000 + 3);
	is_int(jint(a, "errno"), EINVAL, "a 5000-byte path: errno 22");
	ok(strstr(jstr(a, "message"), "4096") != NULL,
	   "a long path: the message gives the limit");
	json_decref(a);

	memset(big, 'a', sizeof big);
	big[sizeof big - 1] = '\n';
	a = ask_raw(fd, big, sizeof big);
	is_int(jint(a, "errno"), EINVAL, "a 70000-byte line: errno 22");
	ok(strstr(jstr(a, "message"), "65536") != NULL,
	   "a long line: the message gives the limit (%s)", jstr(a, "message"));
	json_decref(a);

	a = ask(fd, "{\"op\":\"hello\"}");
	ok(is_ok(a), "the connection still answers after bad requests");
	json_decref(a);
}

/* Every field of every op, given a JSON type it does not take: EINVAL,
 * with a message, and the connection goes on. */
static void check_wrong_types(int fd)
{
	static const char *const bad[] = {
		"{\"op\":7}",
		"{\"op\":null}",
		"{\"op\":[\"hello\"]}",
		"{\"op\":\"get\",\"path\":7}",
		"{\"op\":\"get\",\"path\":[\"process\"]}",
		"{\"op\":\"list\",\"path\":{\"a\":1}}",
		"{\"op\":\"list\",\"path\":true}",
		"{\"op\":\"set\",\"path\":5,\"value\":\"x\"}",
		"{\"op\":\"set\",\"path\":\"allocations/1/label\",\"value\":null}",
		"{\"op\":\"set\",\"path\":\"allocations/1/label\",\"value\":{\"a\":1}}",
		"{\"op\":\"set\",\"path\":\"allocations/1/label\",\"value\":[1,2]}",
		"{\"op\":\"events\",\"since\":\"0\"}",
		"{\"op\":\"events\",\"since\":1.5}",
		"{\"op\":\"events\",\"since\":0,\"max\":\"all\"}",
		"{\"op\":\"events\",\"since\":0,\"max\":-1}",
		"{\"op\":\"events\",\"since\":99999999999999999999}",
		"{\"op\":\"events\",\"since\":1e400}",
		"{\"op\":\"get\",\"path\":\"process\"",
		"{\"op\":\"get\",\"path\":\"pro\\u0000cess\"}",
	};
	json_t *a;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		a = ask(fd, "%s", bad[i]);
		ok(a && !is_ok(a) && jint(a, "errno") == EINVAL &&
		   *jstr(a, "message"), "%s: EINVAL (%s)", bad[i],
		   jstr(a, "message"));
		json_decref(a);
	}
	a = ask(fd, "{\"op\":\"events\",\"since\":0,\"max\":"
		"9223372036854775807}");
	ok(is_ok(a), "a huge max is taken as the most there is");
	json_decref(a);
	a = ask(fd, "{\"op\":\"hello\"}");
	ok(is_ok(a), "the connection still answers after wrong types");
	json_decref(a);
}

static void check_unknown_paths(int fd)
{
	json_t *a;

	a = ask(fd, "{\"op\":\"get\",\"path\":\"allocations/999999999999\"}");
	is_int(jint(a, "errno"), ENOENT, "get of an unknown id: ENOENT");
	json_decref(a);
	a = ask(fd, "{\"op\":\"get\",\"path\":\"nonsense/1\"}");
	is_int(jint(a, "errno"), ENOENT, "get of an unknown class: ENOENT");
	json_decref(a);
	a = ask(fd, "{\"op\":\"list\",\"path\":\"allocations/x\"}");
	is_int(jint(a, "errno"), ENOENT, "list of a non-numeric id: ENOENT");
	json_decref(a);
	a = ask(fd, "{\"op\":\"get\",\"path\":\"process/nothing\"}");
	is_int(jint(a, "errno"), ENOENT, "get of an unknown process file: ENOENT");
	json_decref(a);
	a = ask(fd, "{\"op\":\"set\",\"path\":\"allocations/999999999999/label\","
		"\"value\":\"x\"}");
	is_int(jint(a, "errno"), ENOENT, "set of an unknown id: ENOENT");
	json_decref(a);
	a = ask(fd, "{\"op\":\"set\",\"path\":\"process/cmdline\",\"value\":\"x\"}");
	is_int(jint(a, "errno"), EACCES, "set of a process file: EACCES");
	json_decref(a);
}

static void check_process(int fd)
{
	json_t *a = ask(fd, "{\"op\":\"get\",\"path\":\"process\"}"), *v;

	v = json_object_get(a, "value");
	ok(is_ok(a) && json_is_object(v), "get process answers an object");
	is_int(jint(v, "pid"), getpid(), "process: pid");
	ok(json_is_integer(json_object_get(json_object_get(v, "counters"),
					   "migrations")),
	   "process: counters has migrations");
	ok(json_is_object(json_object_get(v, "last_error")),
	   "process: last_error is an object");
	ok(json_object_get(a, "text") == NULL,
	   "a directory's get has no text");
	json_decref(a);
	a = ask(fd, "{\"op\":\"get\",\"path\":\"process/counters\"}");
	ok(strstr(jstr(a, "text"), "\nmigrations 0\n") != NULL,
	   "a flat object's text is \"key value\" lines");
	json_decref(a);
	a = ask(fd, "{\"op\":\"get\",\"path\":\"process/uid\"}");
	is_int(json_integer_value(json_object_get(a, "value")), getuid(),
	       "get process/uid answers the one value");
	json_decref(a);
}

static long long alloc_id(CUdeviceptr p)
{
	unsigned long long id = 0;

	cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, p);
	return (long long)id;
}

static void check_device_alloc(int fd)
{
	CUdeviceptr d;
	long long id;
	json_t *a, *v;

	is_res(cuMemAlloc(&d, 1 << 20), CUDA_SUCCESS, "cuMemAlloc 1 MiB");
	id = alloc_id(d);
	a = ask(fd, "{\"op\":\"list\",\"path\":\"allocations\"}");
	ok(is_ok(a) && has_id(json_object_get(a, "ids"), id),
	   "list allocations has the device allocation %lld", id);
	json_decref(a);
	a = ask(fd, "{\"op\":\"get\",\"path\":\"allocations/%lld\"}", id);
	v = json_object_get(a, "value");
	ok(is_ok(a), "get allocations/%lld", id);
	is_int(jint(v, "size"), 1 << 20, "its size");
	is_int(jint(v, "pid"), getpid(), "its pid");
	json_decref(a);
	a = ask(fd, "{\"op\":\"set\",\"path\":\"allocations/%lld/label\","
		"\"value\":\"weights\\n\"}", id);
	ok(is_ok(a) && !strcmp(jstr(a, "result"), "CUDA_SUCCESS"),
	   "set label answers CUDA_SUCCESS");
	json_decref(a);
	a = ask(fd, "{\"op\":\"get\",\"path\":\"allocations/%lld/label\"}", id);
	ok(!strcmp(json_string_value(json_object_get(a, "value")) ?: "",
		   "weights"), "the label reads back without the newline");
	json_decref(a);
	is_res(cuemuSetLabel(d, NULL), CUDA_SUCCESS, "cuemuSetLabel(NULL)");
	a = ask(fd, "{\"op\":\"get\",\"path\":\"allocations/%lld/label\"}", id);
	ok(json_string_value(json_object_get(a, "value")) &&
	   !strcmp(json_string_value(json_object_get(a, "value")), ""),
	   "cuemuSetLabel(NULL) clears the label: it reads back empty");
	json_decref(a);
	cuMemFree(d);
	a = ask(fd, "{\"op\":\"get\",\"path\":\"allocations/%lld\"}", id);
	is_int(jint(a, "errno"), ENOENT, "a freed allocation is ENOENT");
	json_decref(a);
}

static CUmemLocation preferred(CUdeviceptr p, size_t n)
{
	CUmemLocation l = { CU_MEM_LOCATION_TYPE_INVALID, -1 };
	int type = -1, id = -1;

	cuMemRangeGetAttribute(&type, sizeof type,
		CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, p, n);
	cuMemRangeGetAttribute(&id, sizeof id,
		CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, p, n);
	l.type = (CUmemLocationType)type;
	l.id = id;
	return l;
}

static void check_refused_set(int fd, long long id, CUdeviceptr m, size_t n)
{
	json_t *a, *v;
	const char *res;
	CUresult r = CUDA_ERROR_UNKNOWN;

	a = ask(fd, "{\"op\":\"set\",\"path\":\"allocations/%lld/prefetch\","
		"\"value\":\"gpu9\"}", id);
	res = jstr(a, "result");
	ok(!is_ok(a), "prefetch to gpu9 is refused");
	ok(!strcmp(res, "CUDA_ERROR_INVALID_DEVICE"),
	   "... with CUDA_ERROR_INVALID_DEVICE (%s)", res);
	is_int(jint(a, "errno"), ENODEV, "... and errno ENODEV");
	(void)r;
	ok(*jstr(a, "message") != '\0', "it says why (%s)", jstr(a, "message"));
	v = ask(fd, "{\"op\":\"get\",\"path\":\"process/last_error\"}");
	ok(!strcmp(jstr(json_object_get(v, "value"), "result"), res),
	   "last_error has the CUresult name");
	ok(!strcmp(jstr(json_object_get(v, "value"), "message"),
		   jstr(a, "message")), "last_error has the message");
	json_decref(v);
	json_decref(a);
	is_int(preferred(m, n).type, CU_MEM_LOCATION_TYPE_DEVICE,
	       "the refused write changed nothing: preferred is a device");
	is_int(preferred(m, n).id, 1, "... still gpu1");
	static const char *const bad_loc[] = {
		"gpu-1", "gpu+1", "gpu99999999999", "gpu18446744073709551617",
		"numa", "gpu", "gpu0x", "gpu0 1", "cpux", "gpu0\\n1", "",
	};
	for (size_t i = 0; i < sizeof bad_loc / sizeof bad_loc[0]; i++) {
		a = ask(fd, "{\"op\":\"set\",\"path\":\"allocations/%lld/"
			"preferred_location\",\"value\":\"%s\"}", id, bad_loc[i]);
		ok(!is_ok(a) && jint(a, "errno") == EINVAL && *jstr(a, "message"),
		   "preferred_location #%zu: EINVAL, with a message", i);
		json_decref(a);
	}
	is_int(preferred(m, n).type, CU_MEM_LOCATION_TYPE_DEVICE,
	       "and none of them changed anything: preferred is a device");
	is_int(preferred(m, n).id, 1, "... still gpu1");
}

/* cufs(5), "Writing": the errno of each CUresult, written out, so that a
 * change of cuemuResultToErrno shows here and not only through itself. */
static void check_errno_table(void)
{
	static const struct { CUresult r; int e; const char *en; } row[] = {
		{ CUDA_ERROR_INVALID_VALUE, EINVAL, "EINVAL" },
		{ CUDA_ERROR_OUT_OF_MEMORY, ENOMEM, "ENOMEM" },
		{ CUDA_ERROR_INVALID_DEVICE, ENODEV, "ENODEV" },
		{ CUDA_ERROR_NO_DEVICE, ENODEV, "ENODEV" },
		{ CUDA_ERROR_NOT_SUPPORTED, EOPNOTSUPP, "EOPNOTSUPP" },
		{ CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, EOPNOTSUPP, "EOPNOTSUPP" },
		{ CUDA_ERROR_NOT_READY, EBUSY, "EBUSY" },
		{ CUDA_ERROR_ALREADY_MAPPED, EBUSY, "EBUSY" },
		{ CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, EBUSY, "EBUSY" },
		{ CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, EBUSY, "EBUSY" },
		{ CUDA_ERROR_CONTEXT_ALREADY_IN_USE, EBUSY, "EBUSY" },
		{ CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, EBUSY, "EBUSY" },
		{ CUDA_ERROR_NOT_FOUND, ENOENT, "ENOENT" },
		{ CUDA_ERROR_NOT_MAPPED, ENOENT, "ENOENT" },
		{ CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, ENOENT, "ENOENT" },
		{ CUDA_ERROR_INVALID_HANDLE, EBADF, "EBADF" },
		{ CUDA_ERROR_CONTEXT_IS_DESTROYED, EBADF, "EBADF" },
		{ CUDA_ERROR_NOT_PERMITTED, EPERM, "EPERM" },
		{ CUDA_ERROR_TIMEOUT, ETIMEDOUT, "ETIMEDOUT" },
		{ CUDA_ERROR_UNKNOWN, EIO, "EIO" },
		{ CUDA_ERROR_ILLEGAL_STATE, EIO, "EIO" },
		{ CUDA_ERROR_OPERATING_SYSTEM, EIO, "EIO" },
	};

	is_int(cuemuResultToErrno(CUDA_SUCCESS), 0, "CUDA_SUCCESS is errno 0");
	for (size_t i = 0; i < sizeof row / sizeof row[0]; i++)
		is_int(cuemuResultToErrno(row[i].r), row[i].e, "%s is %s",
		       tap_res_name(row[i].r), row[i].en);
}

static void check_managed(int fd)
{
	size_t n = 4 << 20;
	CUdeviceptr m;
	long long id;
	json_t *a, *v, *ids;
	char name[80] = "";
	unsigned long long base;

	is_res(cuMemAllocManaged(&m, n, CU_MEM_ATTACH_GLOBAL), CUDA_SUCCESS,
	       "cuMemAllocManaged 4 MiB");
	id = alloc_id(m);
	base = (unsigned long long)m;
	a = ask(fd, "{\"op\":\"get\",\"path\":\"allocations/%lld\"}", id);
	v = json_object_get(a, "value");
	ok(!strcmp(jstr(v, "kind"), "managed"), "its kind is managed");
	ok(has_str(json_object_get(v, "writable"), "prefetch") &&
	   has_str(json_object_get(v, "writable"), "preferred_location"),
	   "writable names prefetch and preferred_location");
	json_decref(a);

	a = ask(fd, "{\"op\":\"set\",\"path\":\"allocations/%lld/"
		"preferred_location\",\"value\":\"gpu1\"}", id);
	ok(is_ok(a), "set preferred_location gpu1 (%s)", jstr(a, "message"));
	json_decref(a);
	is_int(preferred(m, n).id, 1, "the API sees preferred location 1");
	a = ask(fd, "{\"op\":\"get\",\"path\":\"allocations/%lld/"
		"preferred_location\"}", id);
	ok(!strcmp(json_string_value(json_object_get(a, "value")) ?: "", "gpu1"),
	   "get preferred_location answers gpu1");
	ok(!strcmp(jstr(a, "text"), "gpu1\n"), "and the file's text, \"gpu1\\n\"");
	json_decref(a);

	check_refused_set(fd, id, m, n);

	a = ask(fd, "{\"op\":\"list\",\"path\":\"allocations/%lld/ranges\"}", id);
	ids = json_object_get(a, "ids");
	ok(is_ok(a) && json_array_size(ids) >= 1 &&
	   strchr(json_string_value(json_array_get(ids, 0)) ?: "", '-'),
	   "list ranges answers <start>-<end> names");
	json_decref(a);
	snprintf(name, sizeof name, "0x%llx-0x%llx", base, base + 8192);
	a = ask(fd, "{\"op\":\"get\",\"path\":\"allocations/%lld/ranges/%s\"}",
		id, name);
	ok(is_ok(a) && json_is_object(json_object_get(a, "value")),
	   "get of an unlisted page-aligned range %s", name);
	json_decref(a);
	a = ask(fd, "{\"op\":\"set\",\"path\":\"allocations/%lld/ranges/%s/"
		"read_mostly\",\"value\":\"1\"}", id, name);
	ok(is_ok(a), "set read_mostly on that range (%s)", jstr(a, "message"));
	json_decref(a);
	a = ask(fd, "{\"op\":\"list\",\"path\":\"allocations/%lld/ranges\"}", id);
	ok(has_str(json_object_get(a, "ids"), name),
	   "the range now is listed on its own");
	json_decref(a);

	a = ask(fd, "{\"op\":\"snapshot\"}");
	v = json_object_get(a, "value");
	ok(is_ok(a) && jint(json_object_get(v, "process"), "pid") == getpid(),
	   "snapshot has the process");
	snprintf(name, sizeof name, "%lld", id);
	ok(json_is_object(json_object_get(json_object_get(v, "allocations"), name)),
	   "snapshot has the managed allocation");
	ok(json_is_array(json_object_get(json_object_get(json_object_get(v,
		"allocations"), name), "ranges")), "with its ranges");
	json_decref(a);
	cuMemFree(m);
}

static void check_events(int fd)
{
	json_t *a, *evs;
	long long last;
	CUdeviceptr m;
	CUstream s = NULL;

	a = ask(fd, "{\"op\":\"events\"}");
	ok(is_ok(a) && json_array_size(json_object_get(a, "events")) == 0,
	   "events without since: no lines, only where the log is");
	last = jint(a, "last");
	json_decref(a);
	cuMemAllocManaged(&m, 1 << 20, CU_MEM_ATTACH_GLOBAL);
	cuStreamCreate(&s, 0);
	cuMemPrefetchAsync(m, 1 << 20, (CUmemLocation){
		CU_MEM_LOCATION_TYPE_DEVICE, 0 }, 0, s);
	cuStreamSynchronize(s);
	a = ask(fd, "{\"op\":\"events\",\"since\":%lld,\"max\":100}", last);
	evs = json_object_get(a, "events");
	ok(is_ok(a) && json_array_size(evs) >= 1,
	   "a prefetch adds event lines after that point");
	ok(json_is_string(json_object_get(json_array_get(evs, 0), "line")),
	   "each event has its line");
	ok(jint(a, "last") > last, "last moves on");
	json_decref(a);
	a = ask(fd, "{\"op\":\"events\",\"since\":-1}");
	is_int(jint(a, "errno"), EINVAL, "a negative since: errno 22");
	json_decref(a);
	cuStreamDestroy(s);
	cuMemFree(m);
}

/* Another user cannot even connect: the socket is 0600. The child only
 * changes user and connects, with no API call, so it may be forked. */
static void check_other_user(void)
{
	struct passwd *pw = getpwnam("nobody");
	pid_t c;

	if (geteuid() != 0 || !pw) {
		ok(1, "# SKIP another user's connect needs root and 'nobody'");
		return;
	}
	fflush(stdout);
	if ((c = fork()) == 0) {
		if (setgid(pw->pw_gid) || setuid(pw->pw_uid))
			_exit(2);
		int fd = connect_to(sock_path);
		_exit(fd >= 0 ? 1 : errno == EACCES ? 0 : 3);
	}
	/* 0 EACCES, 1 connected, 2 could not become nobody, 3 another errno */
	is_int(c > 0 ? wait_bounded(c, 10) : -1, 0,
	       "user nobody cannot connect (EACCES)");
}

/* ---------------------------------------------------------------- run dir */

/* The role socket_mode: cuInit under umask 0 in the run dir it was given
 * (with a link to CUEMU_TEST_VICTIM at its socket's path, when set);
 * prints the mode of the socket it made, -1 for none, and whether it
 * answers a hello there. Its exit removes the socket (atexit). */
static int socket_mode_role(void)
{
	const char *victim = getenv("CUEMU_TEST_VICTIM");
	char path[PATH_MAX + 32];
	struct stat sb;
	json_t *a = NULL;
	int m = -1, fd;

	umask(0);
	snprintf(path, sizeof path, "%s/%d.sock", getenv("CUEMU_RUNDIR"),
		 (int)getpid());
	if (victim && symlink(victim, path) < 0) {
		printf("symlink_errno %d\n", errno);
		return 0;
	}
	printf("init %d\n", (int)cuInit(0));
	if (lstat(path, &sb) == 0 && S_ISSOCK(sb.st_mode))
		m = (int)(sb.st_mode & 07777);
	printf("mode %d\n", m);
	if ((fd = connect_to(path)) >= 0 &&
	    write(fd, "{\"op\":\"hello\"}\n", 15) == 15)
		a = read_answer(fd);
	printf("answers %d\n", json_is_true(json_object_get(a, "ok")));
	json_decref(a);
	if (fd >= 0)
		close(fd);
	return 0;
}

static char role_out[PATH_MAX];

/* cuInit in a second process (spawn.h) whose run dir is dir: the mode of
 * the socket it made, -1 when it made none, -2 when it said nothing. */
static int child_socket_mode(const char *dir, const char *victim)
{
	char rd[PATH_MAX + 16], vi[PATH_MAX + 32];
	char *env[] = { rd, vi, NULL };

	snprintf(rd, sizeof rd, "CUEMU_RUNDIR=%s", dir);
	snprintf(vi, sizeof vi, victim ? "CUEMU_TEST_VICTIM=%s" :
		 "CUEMU_TEST_VICTIM", victim);
	if (run_self("socket_mode", env, role_out, NULL, 30) != 0)
		return -2;
	return (int)child_value(role_out, "mode", -2);
}

/* A run dir deeper than a socket's address holds (108 bytes) still gets
 * the socket, and it answers there: the name is bound and dialled through
 * a descriptor of the directory. Made and removed under base. */
static void check_deep_rundir(const char *base)
{
	char deep[PATH_MAX], *end;
	size_t n = strlen(base);

	memcpy(deep, base, n + 1);
	/* 200 bytes and more, in directories of 40. */
	while (strlen(deep) < 200 && strlen(deep) + 42 < sizeof deep) {
		strcat(deep, "/d23456789012345678901234567890123456789");
		mkdir(deep, 0700);
	}
	is_int(child_socket_mode(deep, NULL), 0600,
	       "a run dir %zu bytes deep gets its socket, mode 0600",
	       strlen(deep));
	is_int(child_value(role_out, "answers", -2), 1,
	       "and the process answers a hello on it");
	while (strlen(deep) > n && (end = strrchr(deep, '/'))) {
		rmdir(deep);
		*end = '\0';
	}
}

/* The socket's directory decides who could replace the socket: one that
 * others may write to (without the sticky bit), or that belongs to
 * another user, gets no socket; the socket is 0600 whatever the umask,
 * and a link put at its path is replaced, its target left alone. */
static void check_rundir(void)
{
	char tmpl[] = "/tmp/cuemu-rundir-XXXXXX", sub[64], victim[96];
	struct passwd *pw = getpwnam("nobody");
	struct stat st;
	int fd;

	if (!mkdtemp(tmpl)) {
		ok(0, "mkdtemp");
		return;
	}
	is_int(child_socket_mode(tmpl, NULL), 0600,
	       "under umask 0 the socket is still 0600");
	snprintf(victim, sizeof victim, "%s/victim", tmpl);
	fd = open(victim, O_CREAT | O_WRONLY, 0644);
	close(fd);
	is_int(child_socket_mode(tmpl, victim), 0600,
	       "a link at the socket's path is replaced by the socket");
	ok(stat(victim, &st) == 0 && S_ISREG(st.st_mode) &&
	   (st.st_mode & 07777) == 0644, "and its target is left as it was");
	unlink(victim);

	snprintf(sub, sizeof sub, "%s/open", tmpl);
	mkdir(sub, 0700);
	chmod(sub, 0777);
	is_int(child_socket_mode(sub, NULL), -1,
	       "a run dir anyone may write to gets no socket");
	chmod(sub, 01777);
	is_int(child_socket_mode(sub, NULL), 0600,
	       "a sticky one (as /tmp) does");
	rmdir(sub);

	snprintf(sub, sizeof sub, "%s/theirs", tmpl);
	mkdir(sub, 0700);
	if (geteuid() == 0 && pw && chown(sub, pw->pw_uid, pw->pw_gid) == 0)
		is_int(child_socket_mode(sub, NULL), -1,
		       "a run dir of another user gets no socket");
	else
		ok(1, "# SKIP another user's run dir needs root and 'nobody'");
	rmdir(sub);
	check_deep_rundir(tmpl);
	rmdir(tmpl);
}

/* ---------------------------------------------------------------- sizes */

/* The role topo: gpu0's memory as cuInit reads the topology it was given;
 * 0 when cuInit refused it. */
static int topo_role(void)
{
	size_t t = 0;

	if (cuInit(0) == CUDA_SUCCESS)
		cuDeviceTotalMem(&t, 0);
	printf("total %zu\n", t);
	return 0;
}

/* gpu0's memory on a fresh machine of the topology text json, as cuInit
 * in a second process (spawn.h) reads it: its bytes, 0 when cuInit
 * refused it, 1 when the process said nothing. The machine is named
 * after this test's, so that tests/private-machine.sh removes it even
 * after a crash. */
static unsigned long long topo_memory(const char *json)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char file[256], m[160], t[300], shm[200];
	char *env[] = { m, t, "CUEMU_CONTROL=0", NULL };
	long long total = 1;
	FILE *f;

	snprintf(file, sizeof file, "%s/cuemu-topo-%d.json", tmp, (int)getpid());
	snprintf(m, sizeof m, "CUEMU_MACHINE=%s-topo", getenv("CUEMU_MACHINE"));
	snprintf(t, sizeof t, "CUEMU_TOPOLOGY=%s", file);
	if (!(f = fopen(file, "w")))
		return 1;
	fputs(json, f);
	fclose(f);
	if (run_self("topo", env, role_out, "/dev/null", 30) == 0)
		total = child_value(role_out, "total", 1);
	unlink(file);
	snprintf(shm, sizeof shm, "/dev/shm/%s", m + strlen("CUEMU_MACHINE="));
	unlink(shm);
	return (unsigned long long)total;
}

/* Sizes are decimal unless they say 0x: a leading zero is not octal. */
static void check_sizes(void)
{
	static const struct { const char *mem; unsigned long long want; } t[] = {
		{ "\"010G\"", 10ULL << 30 },
		{ "\"08G\"", 8ULL << 30 },
		{ "\"0x10G\"", 16ULL << 30 },
		{ "\"64MiB\"", 64ULL << 20 },
		{ "\"64MX\"", 0 },
		{ "\"0x\"", 0 },
		{ "\"-1G\"", 0 },
		{ "\" 1G\"", 1ULL << 30 },
		{ "\"16777216T\"", 0 },
		{ "\"18446744073709551616\"", 0 },
		{ "1e30", 0 },
		{ "-5", 0 },
		{ "[1]", 0 },
	};
	char json[128];

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		snprintf(json, sizeof json, "{\"devices\":[{\"memory\":%s}]}",
			 t[i].mem);
		is_int((long long)topo_memory(json), (long long)t[i].want,
		       "a device's memory %s: %llu", t[i].mem, t[i].want);
	}
}

/* ---------------------------------------------------------------- clients */

/* Clients that misbehave cost the others nothing lasting: one that sent
 * half a line and stalls, one that asks and never reads its answers, and
 * more connections than the server keeps. */
static void check_bad_clients(int fd)
{
	static const char req[] = "{\"op\":\"get\",\"path\":\"process\"}\n";
	static char big[1500 * 40];
	int half, deaf, many[80], n = 0, dropped = 0, nasked, nread;
	json_t *a;

	half = connect_to(sock_path);
	ok(half >= 0 && write(half, "{\"op\":\"hel", 10) == 10,
	   "a client sends half a line");
	a = ask(fd, "{\"op\":\"hello\"}");
	ok(is_ok(a), "another client is still answered");
	json_decref(a);

	/* 1500 questions whose answers (1 KB each) fill the socket many
	 * times over, and no reading until much later. */
	deaf = connect_to(sock_path);
	nasked = 1500;
	for (int i = 0; i < nasked; i++)
		memcpy(big + i * (sizeof req - 1), req, sizeof req - 1);
	ok(write(deaf, big, nasked * (sizeof req - 1)) ==
	   (ssize_t)(nasked * (sizeof req - 1)), "a client asks %d questions "
	   "in one write", nasked);
	/* Ordering, not speed: once answers to the deaf one have begun
	 * (1.5 MB of them, far more than a socket holds), the other client
	 * is answered while the rest still wait to be read. */
	ok(readable_within(deaf, 10),
	   "the server begins answering the client that does not read");
	a = ask(fd, "{\"op\":\"hello\"}");
	ok(is_ok(a), "a client that does not read its answers does not hold "
	   "up another's");
	json_decref(a);
	usleep(2500 * 1000); /* longer than any one send may wait */
	for (nread = 0; nread < nasked; nread++) {
		if (!(a = read_answer(deaf)) || !is_ok(a)) {
			json_decref(a);
			break;
		}
		json_decref(a);
	}
	is_int(nread, nasked, "and it gets every answer once it reads");
	rlen = 0;
	close(deaf);

	for (n = 0; n < 80; n++)
		if ((many[n] = connect_to(sock_path)) < 0)
			break;
	a = ask(fd, "{\"op\":\"hello\"}");
	ok(is_ok(a), "%d more connections: the first is still answered", n);
	json_decref(a);
	/* The server closes the ones it does not keep: wait for the first
	 * end of file, at most 10 s, then count them all. */
	for (int t = 0; t < 100 && !dropped; t++) {
		struct pollfd p[80];

		for (int i = 0; i < n; i++)
			p[i] = (struct pollfd){ .fd = many[i], .events = POLLIN };
		if (poll(p, (nfds_t)n, 100) > 0)
			for (int i = 0; i < n; i++)
				dropped += (p[i].revents & (POLLIN | POLLHUP)) != 0;
	}
	dropped = 0;
	for (int i = 0; i < n; i++) {
		char c;
		struct pollfd p = { .fd = many[i], .events = POLLIN };

		if (poll(&p, 1, 0) == 1 && read(many[i], &c, 1) == 0)
			dropped++;
		close(many[i]);
	}
	ok(dropped > 0, "connections beyond the limit are closed (%d)", dropped);
	n = connect_to(sock_path);
	ok(n >= 0, "a new connection after they left");
	a = n >= 0 ? ask(n, "{\"op\":\"hello\"}") : NULL;
	ok(is_ok(a), "is answered");
	json_decref(a);
	if (n >= 0)
		close(n);

	a = half >= 0 && write(half, "lo\"}\n", 5) == 5 ? read_answer(half) : NULL;
	ok(is_ok(a), "the stalled client's line, finished, is answered");
	json_decref(a);
	close(half);
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);
	CUcontext ctx;
	int fd;

	if (role && !strcmp(role, "socket_mode"))
		return socket_mode_role();
	if (role && !strcmp(role, "topo"))
		return topo_role();
	snprintf(role_out, sizeof role_out, "%s/cuemu-control-%d.out",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	check_rundir();
	check_sizes();
	check_errno_table();
	is_res(cuInit(0), CUDA_SUCCESS, "cuInit");
	is_res(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS, "primary ctx");
	cuCtxSetCurrent(ctx);
	check_socket();
	fd = connect_to(sock_path);
	ok(fd >= 0, "connect to the own socket");
	if (fd < 0)
		return done_testing();
	check_hello(fd);
	check_bad_requests(fd);
	check_wrong_types(fd);
	check_unknown_paths(fd);
	check_process(fd);
	check_device_alloc(fd);
	check_managed(fd);
	check_events(fd);
	check_other_user();
	check_bad_clients(fd);
	close(fd);
	free(rbuf);
	unlink(role_out);
	return done_testing();
}
