/*
 * test_devheap.c - where cuMemAlloc memory lies (model/devheap.c): under
 * 2 MiB packed 512 B apart into shared 2 MiB blocks as the real driver
 * packs them (probes/results/pack.txt), 2 MiB and more 2 MiB aligned on
 * their own; freed places reused smallest first; whole freed pages
 * punched out of the device memory file; more allocations than the
 * kernel's default vm.max_map_count (65,530) in one process, without the
 * process's mappings growing with them; and legacy IPC of packed
 * allocations: a second run of this program (spawn.h, role "packer")
 * exports three of one block, this one opens them (the block mapped once,
 * their offsets kept, as the real driver does), and the packer frees one
 * that is open here (its place is reused on fresh pages; this process
 * keeps the old ones) and one that is not (its handle opens nothing).
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

#include <sys/socket.h>

#include "cuda.h"
#include "cuemu.h"
#include "spawn.h"
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

	is_res(cuMemAlloc(&mid, MIB + 1), CUDA_SUCCESS, "cuMemAlloc 1 MiB + 1");
	ok(mid / BLK == s1 / BLK && mid - s3 == 1024,
	   "under 2 MiB is packed into the block, after the others");
	is_int(attr(CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, mid, &r),
	       mid / BLK * BLK, "... and maps with the block");
	is_res(cuMemAlloc(&big, BLK - 512), CUDA_SUCCESS,
	       "cuMemAlloc 2 MiB - 512");
	ok(big / BLK != s1 / BLK && big % BLK == 0 && big > s1,
	   "what the block has no room for starts the next block, above");
	cuMemFree(big);
	is_res(cuMemAlloc(&big, BLK), CUDA_SUCCESS, "cuMemAlloc 2 MiB");
	ok(big % BLK == 0, "2 MiB goes on a mapping of its own, 2 MiB aligned");
	is_int(attr(CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, big, &r), big,
	       "... its mapping is its own");
	is_int(attr(CU_POINTER_ATTRIBUTE_MAPPING_SIZE, big, &r), BLK,
	       "... of 2 MiB");
	is_res(cuMemGetAddressRange(&base, &size, mid + MIB + 1),
	       CUDA_ERROR_NOT_FOUND, "the byte past a packed one is in none");
	is_res(cuPointerGetAttribute(&b1, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
				     s3 + 1000), CUDA_ERROR_INVALID_VALUE,
	       "... and has no pointer attributes, as on the real driver");

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

/* ------------------------------------------------------------ IPC */

struct msg {
	CUipcMemHandle h[3];
	unsigned long long in_block[3];
	long long gap10, gap20;
};

static int sock = -1;

static int step_send(void)
{
	char c = 's';

	return write(sock, &c, 1) == 1 ? 0 : -1;
}

static int step_wait(void)
{
	char c;

	return readable_within(sock, 20) && read(sock, &c, 1) == 1 ? 0 : -1;
}

static uint32_t word_at(CUdeviceptr p, CUresult *r)
{
	uint32_t v = 0;

	*r = cuMemcpyDtoH(&v, p, 4);
	return v;
}

/* The exporter: three allocations of one block; frees the second (open
 * in the importer) and the third (closed there), then allocates again. */
static int packer(void)
{
	static const size_t sz[3] = { 4096, 4096, 1000 };
	static const unsigned fill[3] = { 0xa0a0a0a0, 0xa1a1a1a1, 0xa2a2a2a2 };
	const char *e = getenv("CUEMU_TEST_SOCK");
	CUdeviceptr a[3], x = 0, y = 0;
	struct msg m = { 0 };
	CUcontext ctx;

	sock = e ? atoi(e) : -1;
	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx))
		return 1;
	for (int i = 0; i < 3; i++)
		if (cuMemAlloc(&a[i], sz[i]) ||
		    cuMemsetD32(a[i], fill[i], sz[i] / 4) ||
		    cuIpcGetMemHandle(&m.h[i], a[i]))
			return 1;
	for (int i = 0; i < 3; i++)
		m.in_block[i] = a[i] % BLK;
	m.gap10 = (long long)(a[1] - a[0]);
	m.gap20 = (long long)(a[2] - a[0]);
	if (write(sock, &m, sizeof m) != (ssize_t)sizeof m || step_wait())
		return 1;
	printf("free_open %d\n", (int)cuMemFree(a[1]));
	printf("free_closed %d\n", (int)cuMemFree(a[2]));
	cuMemAlloc(&x, 4096);
	cuMemAlloc(&y, 1000);
	printf("open_place_reused %d\n", x == a[1]);
	printf("closed_place_reused %d\n", y == a[2]);
	printf("reused_is_fresh %d\n", x && *(volatile uint32_t *)x == 0);
	printf("reused_memset %d\n", (int)cuMemsetD32(x, 0x77777777, 1024));
	fflush(stdout);
	if (step_send() || step_wait())
		return 1;
	return 0;
}

static void test_ipc(void)
{
	char out[256], sockenv[64], *env[] = { sockenv, NULL };
	CUdeviceptr p[3] = { 0 }, q = 0, base;
	unsigned long long v;
	struct msg m;
	size_t size;
	CUresult r;
	int sv[2];
	pid_t pid;

	snprintf(out, sizeof out, "%s/cuemu-heap-%d.out",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		ok(0, "a socket to the exporter");
		return;
	}
	snprintf(sockenv, sizeof sockenv, "CUEMU_TEST_SOCK=%d", sv[1]);
	pid = spawn_self("packer", env, out, NULL);
	close(sv[1]);
	sock = sv[0];
	if (pid < 0 || !readable_within(sock, 20) ||
	    read(sock, &m, sizeof m) != (ssize_t)sizeof m) {
		ok(0, "the exporter sends three handles");
		close(sock);
		return;
	}
	is_res(cuIpcOpenMemHandle(&p[1], m.h[1], 1), CUDA_SUCCESS,
	       "the handle of a packed allocation opens");
	is_int(p[1] % BLK, m.in_block[1], "... at its offset in a block");
	is_int(word_at(p[1], &r), 0xa1a1a1a1, "... and reads its bytes");
	is_res(cuMemGetAddressRange(&base, &size, p[1] + 100), CUDA_SUCCESS,
	       "its address range");
	ok(base == p[1] && size == 4096, "... is the allocation");
	v = 0;
	cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, p[1]);
	is_int(v, p[1] - m.in_block[1], "its mapping is the exporter's block");
	is_res(cuIpcOpenMemHandle(&p[0], m.h[0], 1), CUDA_SUCCESS,
	       "a second of the block opens");
	is_int((long long)(p[1] - p[0]), m.gap10,
	       "... in the same mapping, as far from the first as there");
	is_res(cuIpcOpenMemHandle(&p[2], m.h[2], 1), CUDA_SUCCESS,
	       "and a third");
	is_int((long long)(p[2] - p[0]), m.gap20, "... likewise");
	is_int(word_at(p[2], &r), 0xa2a2a2a2, "... reads its own bytes");
	is_int(word_at(p[1] + 4096, &r), 0xa2a2a2a2,
	       "a copy past the second's end reads the third, opened there");
	is_res(cuIpcCloseMemHandle(p[1] + 512), CUDA_ERROR_INVALID_VALUE,
	       "closing an interior address is refused");
	is_res(cuIpcCloseMemHandle(p[0]), CUDA_SUCCESS, "the first closes");
	is_res(cuIpcCloseMemHandle(p[2]), CUDA_SUCCESS, "the third closes");
	is_int(word_at(p[1], &r), 0xa1a1a1a1,
	       "the second still reads with the others closed");
	if (step_send() || step_wait()) {
		ok(0, "the exporter frees two");
	} else {
		is_int(word_at(p[1], &r), 0xa1a1a1a1,
		       "freed by the exporter, its place reused and written "
		       "there, the open one still reads its own bytes");
		is_res(cuIpcOpenMemHandle(&q, m.h[2], 1),
		       CUDA_ERROR_INVALID_VALUE,
		       "a freed packed allocation's handle opens nothing");
	}
	is_res(cuIpcCloseMemHandle(p[1]), CUDA_SUCCESS, "the second closes");
	step_send();
	is_int(wait_bounded(pid, 30), 0, "the exporter finishes");
	close(sock);
	is_int(child_value(out, "free_open", -1), 0,
	       "the exporter frees an allocation open elsewhere");
	is_int(child_value(out, "free_closed", -1), 0, "and one closed");
	is_int(child_value(out, "open_place_reused", -1), 1,
	       "the open one's place is the next allocation's, as on the "
	       "real driver");
	is_int(child_value(out, "reused_is_fresh", -1), 1,
	       "... on pages of its own (the old ones are the importer's)");
	is_int(child_value(out, "reused_memset", -1), 0,
	       "... which the exporter writes");
	is_int(child_value(out, "closed_place_reused", -1), 1,
	       "the closed one's place is the next allocation's");
	unlink(out);
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);
	CUcontext ctx;
	char shm[160];

	if (role && !strcmp(role, "packer"))
		return packer();
	machine_setup();
	is_res(cuInit(0), CUDA_SUCCESS, "cuInit");
	cuDevicePrimaryCtxRetain(&ctx, 0);
	cuCtxSetCurrent(ctx);

	test_layout();
	test_give_back();
	test_many();
	test_ipc();

	unlink(topo);
	snprintf(shm, sizeof shm, "/%s", machine);
	shm_unlink(shm);
	return done_testing();
}
