/*
 * test_environment.c - the variables of libcuemu(3), ENVIRONMENT, that
 * change what a process does: CUEMU_DEBUG prints the reason for every
 * refused call on stderr (and nothing is printed without it), and
 * CUEMU_NO_FAULTS keeps managed memory readable and writable, so that a
 * CPU touch is not a fault and moves nothing.
 *
 * Each case runs in a second process of its own (this program run again,
 * see spawn.h), since the library reads its environment once; the second
 * process prints "key value" lines that this one checks one at a time.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "cuemu.h"
#include "spawn.h"
#include "tap.h"

#define MIB (1ULL << 20)

/* The scratch directory under TMPDIR, which may lie deep. */
static char dir[PATH_MAX];

static const char *file(const char *name)
{
	static char path[4][PATH_MAX + 32];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof path[0], "%s/%s", dir, name);
	return p;
}

static long long file_size(const char *path)
{
	FILE *f = fopen(path, "r");
	long long n;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fclose(f);
	return n;
}

static int file_has(const char *path, const char *needle)
{
	char buf[4096] = "";
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return strstr(buf, needle) != NULL;
}

/* Child: one refused call, cuMemAlloc of 0 bytes, and nothing else. */
static int refuse_once(void)
{
	CUcontext c;
	CUdeviceptr p;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&c, 0) || cuCtxSetCurrent(c))
		return 2;
	printf("result %d\n", (int)cuMemAlloc(&p, 0));
	return 0;
}

static long long used(int d)
{
	size_t fr = 0, tot = 0;

	cuMemGetInfo(&fr, &tot);
	(void)d;
	return (long long)(tot - fr);
}

/* Child: 2 MiB of managed memory, populated on the host, prefetched to
 * gpu0, then one byte written by the CPU; prints gpu0's use before and
 * after the write. */
static int touch_on_gpu(void)
{
	CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUcontext c;
	CUdeviceptr m;
	long long before, after;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&c, 0) || cuCtxSetCurrent(c))
		return 2;
	if (cuMemAllocManaged(&m, 2 * MIB, CU_MEM_ATTACH_GLOBAL))
		return 3;
	memset((void *)m, 1, 2 * MIB); /* first touch: populated on the host */
	if (cuMemPrefetchAsync(m, 2 * MIB, gpu0, 0, NULL) ||
	    cuStreamSynchronize(NULL))
		return 4;
	before = used(0);
	((volatile unsigned char *)m)[MIB] = 7;
	after = used(0);
	printf("gpu0_before %lld\ngpu0_after %lld\nread_back %d\n", before,
	       after, ((volatile unsigned char *)m)[MIB]);
	cuMemFree(m);
	return 0;
}

static void debug(void)
{
	char *on[] = { "CUEMU_DEBUG=1", NULL };
	char *off[] = { "CUEMU_DEBUG", NULL };

	is_int(run_self("refuse", on, file("on.out"), file("on.err"), 30), 0,
	       "CUEMU_DEBUG=1: a process makes one refused call");
	is_int(child_value(file("on.out"), "result", -1),
	       CUDA_ERROR_INVALID_VALUE, "... cuMemAlloc of 0 bytes, INVALID_VALUE");
	ok(file_size(file("on.err")) > 0,
	   "CUEMU_DEBUG=1: the refusal is printed on stderr");
	ok(file_has(file("on.err"), "CUDA_ERROR_INVALID_VALUE"),
	   "... with the CUresult it refused with");
	is_int(run_self("refuse", off, file("off.out"), file("off.err"), 30), 0,
	       "without CUEMU_DEBUG: the same refused call");
	is_int(file_size(file("off.err")), 0,
	       "without CUEMU_DEBUG: nothing is printed on stderr");
}

static void no_faults(void)
{
	char *on[] = { "CUEMU_NO_FAULTS=1", NULL };
	char *off[] = { "CUEMU_NO_FAULTS", NULL };
	long long before, after;

	is_int(run_self("touch", off, file("f.out"), NULL, 30), 0,
	       "with faults: managed memory on gpu0 is written by the CPU");
	before = child_value(file("f.out"), "gpu0_before", -1);
	after = child_value(file("f.out"), "gpu0_after", -1);
	ok(before >= (long long)(2 * MIB), "... it was on gpu0 (%lld bytes used)",
	   before);
	ok(after < before,
	   "... the CPU's write faulted part of it off gpu0 (%lld bytes left)",
	   after);
	is_int(child_value(file("f.out"), "read_back", -1), 7,
	       "... and reads back what was written");

	is_int(run_self("touch", on, file("nf.out"), NULL, 30), 0,
	       "CUEMU_NO_FAULTS=1: managed memory on gpu0 is written by the CPU "
	       "without a fault handler's help");
	before = child_value(file("nf.out"), "gpu0_before", -1);
	after = child_value(file("nf.out"), "gpu0_after", -1);
	ok(before >= (long long)(2 * MIB), "... it was on gpu0 (%lld bytes used)",
	   before);
	is_int(after, before,
	       "CUEMU_NO_FAULTS=1: the CPU's write is not a fault, nothing moves");
	is_int(child_value(file("nf.out"), "read_back", -1), 7,
	       "CUEMU_NO_FAULTS=1: the memory reads back what was written");
}

static void remove_files(void)
{
	static const char *const names[] = { "on.out", "on.err", "off.out",
		"off.err", "f.out", "nf.out" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		unlink(file(names[i]));
	rmdir(dir);
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);

	if (role && !strcmp(role, "refuse"))
		return refuse_once();
	if (role && !strcmp(role, "touch"))
		return touch_on_gpu();
	setenv("CUEMU_CONTROL", "0", 1);
	snprintf(dir, sizeof dir, "%s/cuemu-env.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		printf("Bail out! no scratch directory\n");
		return 1;
	}
	debug();
	no_faults();
	remove_files();
	return done_testing();
}
