/*
 * test_devheap.c - where cuMemAlloc memory lies (model/devheap.c): small
 * allocations packed 512 B apart into shared 2 MiB blocks as the real
 * driver packs them (probes/results/pack.txt), larger ones 2 MiB aligned
 * on their own; freed places reused smallest first; whole freed pages
 * punched out of the device memory file; and more allocations than the
 * kernel's default vm.max_map_count (65,530) in one process, without the
 * process's mappings growing with them.
 *
 * The test runs on a machine of its own: one GPU of 2 GiB.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuda.h"
#include "cuemu.h"
#include "tap.h"

#define KIB 1024ULL
#define MIB (1ULL << 20)
#define BLK (2 * MIB)
#define MANY 70000      /* past the kernel's default of 65,530 mappings */

static char machine[128], topo[256];

static void machine_setup(void)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	FILE *f;

	snprintf(machine, sizeof machine, "%s-heaptest",
		 getenv("CUEMU_MACHINE"));
	snprintf(topo, sizeof topo, "%s/cuemu-heaptest-%d.json", tmp,
		 (int)getpid());
	if (!(f = fopen(topo, "w")))
		exit(99);
	fputs("{ \"name\": \"heaptest\", \"device_count\": 1, \"devices\": "
	      "[ { \"name\": \"Small GPU\", \"memory\": \"2G\" } ] }\n", f);
	fclose(f);
	setenv("CUEMU_MACHINE", machine, 1);
	setenv("CUEMU_TOPOLOGY", topo, 1);
	setenv("CUEMU_CONTROL", "0", 1);
}

static size_t free_mem(void)
{
	size_t fr = 0, total = 0;

	return cuMemGetInfo(&fr, &total) == CUDA_SUCCESS ? fr : 0;
}

/* The process's mappings: the lines of /proc/self/maps. */
static long mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	long n = 0;
	int c;

	if (!f)
		return -1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* The bytes gpu0's device memory file holds (its st_blocks), or -1. */
static long long file_bytes(void)
{
	char link[300], target[128];
	struct dirent *e;
	long long n = -1;
	struct stat st;
	DIR *d = opendir("/proc/self/fd");
	ssize_t k;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
		k = readlink(link, target, sizeof target - 1);
		if (k <= 0)
			continue;
		target[k] = '\0';
		if (!strncmp(target, "/memfd:cuemu-gpu0 ", 18) &&
		    stat(link, &st) == 0)
			n = (long long)st.st_blocks * 512;
	}
	closedir(d);
	return n;
}

static unsigned long long attr(CUpointer_attribute a, CUdeviceptr p,
			       CUresult *r)
{
	unsigned long long v = 0;

	*r = cuPointerGetAttribute(&v, a, p);
	return v;
}

/* The layout of the recordings (probes/results/pack.txt). */
static void test_layout(void)
{
	CUdeviceptr s1, s2, s3, big, mid, after, base;
	unsigned long long mb, ms, b1, b2;
	size_t size;
	CUresult r;

	is_res(cuMemAlloc(&s1, 1), CUDA_SUCCESS, "cuMemAlloc 1 byte");
	is_res(cuMemAlloc(&s2, 1), CUDA_SUCCESS, "and another");
	is_res(cuMemAlloc(&s3, 1000), CUDA_SUCCESS, "and 1000 bytes");
	is_int(s2 - s1, 512, "small allocations are 512 B apart");
	is_int(s3 - s2, 512, "... whatever their size under 512 B");
	is_int(s1 % 512, 0, "... and 512 B aligned");
	mb = attr(CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, s3, &r);
	ms = attr(CU_POINTER_ATTRIBUTE_MAPPING_SIZE, s3, &r);
	ok(mb % BLK == 0 && mb <= s3 && s3 < mb + BLK && ms == BLK,
	   "their mapping is the 2 MiB block they share");
	b1 = attr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, s1, &r);
	b2 = attr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, s3, &r);
	ok(b1 && b1 == b2, "... and their MEMORY_BLOCK_ID is the block's");
	ok(attr(CU_POINTER_ATTRIBUTE_BUFFER_ID, s1, &r) !=
	   attr(CU_POINTER_ATTRIBUTE_BUFFER_ID, s3, &r),
	   "each has a BUFFER_ID of its own");
	is_int(attr(CU_POINTER_ATTRIBUTE_RANGE_SIZE, s3 + 999, &r), 1000,
	       "RANGE_SIZE is the request");
	is_int(attr(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, s3 + 999, &r), s3,
	       "RANGE_START_ADDR its start");
	is_res(cuMemGetAddressRange(&base, &size, s3 + 999), CUDA_SUCCESS,
	       "cuMemGetAddressRange of its last byte");
	ok(base == s3 && size == 1000, "... is the allocation");
	is_res(cuMemGetAddressRange(&base, &size, s1 + 1),
	       CUDA_ERROR_NOT_FOUND,
	       "the byte past a 1-byte allocation is in no allocation's range");
	is_res(cuMemFree(s3 + 8), CUDA_ERROR_INVALID_VALUE,
	       "cuMemFree of an interior address is refused");
	memset((void *)s3, 0x5a, 1000);
	ok(((unsigned char *)s3)[999] == 0x5a && ((unsigned char *)s2)[0] == 0,
	   "the host reaches device memory as before; neighbours are apart");

	is_res(cuMemAlloc(&mid, MIB), CUDA_SUCCESS, "cuMemAlloc 1 MiB");
	ok(mid / BLK == s1 / BLK && mid - s3 == 1024,
	   "up to 1 MiB is packed into the block, after the others");
	is_res(cuMemAlloc(&big, MIB + 1), CUDA_SUCCESS,
	       "cuMemAlloc 1 MiB + 1");
	ok(big % BLK == 0 || big / BLK != s1 / BLK,
	   "more than 1 MiB goes elsewhere");
	is_int(attr(CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, big, &r), big,
	       "... on a mapping of its own");
	is_int(attr(CU_POINTER_ATTRIBUTE_MAPPING_SIZE, big, &r), BLK,
	       "... rounded up to 2 MiB");

	/* Reuse: the freed place of the same size, smallest first. */
	is_res(cuMemFree(s2), CUDA_SUCCESS, "cuMemFree of the middle one");
	is_res(cuMemAlloc(&after, 1), CUDA_SUCCESS, "cuMemAlloc 1 byte");
	is_int(after, s2, "takes the freed place");
	is_res(cuMemFree(after), CUDA_SUCCESS, "freed again");
	is_res(cuMemFree(s1), CUDA_SUCCESS, "so is the one before");
	is_res(cuMemAlloc(&after, 1024), CUDA_SUCCESS, "cuMemAlloc 1 KiB");
	is_int(after, s1, "takes the two freed places, joined");
	cuMemFree(after);
	cuMemFree(s3);
	cuMemFree(mid);
	cuMemFree(big);
}

/* Memory goes back: to the device's count and, page by page, to the
 * system. */
static void test_give_back(void)
{
	enum { N = 1024 };
	static CUdeviceptr d[N];
	size_t before = free_mem();
	long long fb = file_bytes(), f1;
	int good = 1, i;

	for (i = 0; i < N; i++) {
		good &= cuMemAlloc(&d[i], 4 * KIB) == CUDA_SUCCESS;
		if (good)
			memset((void *)d[i], 1, 4 * KIB);
	}
	ok(good, "%d allocations of 4 KiB, each touched", N);
	is_int(before - free_mem(), N * 4 * KIB,
	       "each is charged its 4 KiB, as before packing");
	f1 = file_bytes();
	ok(fb >= 0 && f1 - fb >= (long long)(N * 4 * KIB),
	   "their pages are in the device memory file (%lld bytes)", f1 - fb);
	for (i = 0; i < N; i += 2)
		good &= cuMemFree(d[i]) == CUDA_SUCCESS;
	ok(good, "every other one freed");
	is_int(before - free_mem(), N / 2 * 4 * KIB,
	       "the device's count drops by what was freed");
	ok(file_bytes() <= f1 - (long long)(N / 2 * 4 * KIB),
	   "and their whole pages left the file (%lld bytes now)",
	   file_bytes());
	for (i = 1; i < N; i += 2)
		good &= cuMemFree(d[i]) == CUDA_SUCCESS;
	ok(good, "the rest freed");
	is_int(free_mem(), before, "free memory is back where it was");
	ok(file_bytes() <= fb, "and the file holds no more than before "
	   "(%lld bytes)", file_bytes());
}

/* More allocations than the kernel allows a process mappings. */
static void test_many(void)
{
	static CUdeviceptr d[MANY];
	size_t before = free_mem(), size;
	long maps = mappings();
	CUdeviceptr base;
	CUresult r = CUDA_SUCCESS;
	int good = 1, apart = 1, i;

	for (i = 0; i < MANY && !r; i++)
		r = cuMemAlloc(&d[i], 1 + (size_t)(i % 4096));
	good = r == CUDA_SUCCESS;
	ok(good, "%d live allocations of 1 B to 4 KiB (%d made)", MANY, i);
	ok(mappings() - maps < 200, "the process's mappings grew by %ld, "
	   "not with the allocations", mappings() - maps);
	is_int(before - free_mem(), (size_t)MANY * 4 * KIB,
	       "each is charged its page on the device");
	for (i = 0; i < MANY && good; i++) {
		size_t want = 1 + (size_t)(i % 4096);

		if (cuMemGetAddressRange(&base, &size, d[i] + want - 1) ||
		    base != d[i] || size != want)
			good = 0;
		if (d[i] % 512)
			apart = 0;
	}
	ok(good, "every last byte finds its own allocation");
	ok(apart, "every one is 512 B aligned");
	for (i = 0; i < MANY; i++)
		if (d[i] && cuMemFree(d[i]) != CUDA_SUCCESS)
			good = 0;
	ok(good, "all freed");
	is_int(free_mem(), before, "and the device's memory is back");
	ok(mappings() - maps < 8, "their blocks are unmapped (%ld left)",
	   mappings() - maps);
}

int main(void)
{
	CUcontext ctx;
	char shm[160];

	machine_setup();
	is_res(cuInit(0), CUDA_SUCCESS, "cuInit");
	cuDevicePrimaryCtxRetain(&ctx, 0);
	cuCtxSetCurrent(ctx);

	test_layout();
	test_give_back();
	test_many();

	unlink(topo);
	snprintf(shm, sizeof shm, "/%s", machine);
	shm_unlink(shm);
	return done_testing();
}
