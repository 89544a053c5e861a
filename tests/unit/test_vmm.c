/*
 * test_vmm.c - virtual memory management: granularity, physical handles and
 * their properties, reservations (alignment, hint), mappings, access per
 * location (enforced on the host view), release while mapped, retain,
 * export and import of POSIX fds, between two processes included, and the
 * pointer attributes of mapped ranges.
 *
 * Results follow the real driver (probes/results). A fault is checked in a
 * forked child that must die of SIGSEGV: it only touches memory, with the
 * default SIGSEGV action, and calls nothing of the API. The two-process
 * test's importer is a second run of this program (spawn.h: no API after
 * fork), handed the fd over a Unix socket; it prints what it sees, a fact
 * a line.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuda.h"
#include "ctl.h"
#include "fdpass.h"
#include "spawn.h"
#include "tap.h"

#define MIB (1ULL << 20)
#define GIB (1ULL << 30)
#define G (2 * MIB)

static CUmemAllocationProp prop(CUmemLocationType t, int id,
				CUmemAllocationHandleType ht)
{
	CUmemAllocationProp p;

	memset(&p, 0, sizeof p);
	p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = t;
	p.location.id = id;
	p.requestedHandleTypes = ht;
	return p;
}

static CUresult create(CUmemGenericAllocationHandle *h, size_t size, int dev,
		       CUmemAllocationHandleType ht)
{
	CUmemAllocationProp p = prop(CU_MEM_LOCATION_TYPE_DEVICE, dev, ht);

	return cuMemCreate(h, size, &p, 0);
}

static CUresult access1(CUdeviceptr va, size_t size, CUmemLocationType t,
			int id, CUmemAccess_flags f)
{
	CUmemAccessDesc d;

	memset(&d, 0, sizeof d);
	d.location.type = t;
	d.location.id = id;
	d.flags = f;
	return cuMemSetAccess(va, size, &d, 1);
}

static unsigned long long get_access(CUdeviceptr va, CUmemLocationType t,
				     int id, CUresult *r)
{
	CUmemLocation l = { t, id };
	unsigned long long f = 0x55;

	*r = cuMemGetAccess(&f, &l, va);
	return f;
}

/* Touches p in a child: 0 read, 1 write. The child's exit: 0 survived,
 * else the signal that killed it; -1 when it did not end within 10 s. */
static int touch_in_child(volatile uint32_t *p, int write)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		if (write)
			*p = 42;
		else
			(void)*p;
		_exit(0);
	}
	if (pid < 0 || (st = wait_status_bounded(pid, 10)) < 0)
		return -1;
	return WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}

/* ------------------------------------------------------------ two processes */

/* The second process, a role (spawn.h) with the socket's descriptor in
 * CUEMU_TEST_SOCK: imports the fd, maps it, sets access, reads what the
 * first wrote, writes after it and answers one byte; it prints the result
 * of each step, "key value" a line. */
static int importer(void)
{
	CUmemGenericAllocationHandle h = 0;
	CUmemAllocationProp p;
	CUdeviceptr va = 0;
	uint32_t want = 0;
	volatile uint32_t *q;
	const char *e = getenv("CUEMU_TEST_SOCK");
	int sock = e ? atoi(e) : -1;
	int fd = recv_fd(sock, &want, sizeof want);
	char ack = 'k';

	printf("recv %d\n", fd >= 0);
	printf("init %d\n", (int)cuInit(0));
	printf("import %d\n", (int)cuMemImportFromShareableHandle(&h,
		(void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	close(fd);
	memset(&p, 0xff, sizeof p);
	printf("props %d\n", (int)cuMemGetAllocationPropertiesFromHandle(&p, h));
	printf("props_type %d\n", (int)p.location.type);
	printf("props_id %d\n", p.location.id);
	printf("props_handle_types %d\n", (int)p.requestedHandleTypes);
	printf("reserve %d\n", (int)cuMemAddressReserve(&va, G, 0, 0, 0));
	printf("map %d\n", (int)cuMemMap(va, G, 0, h, 0));
	printf("access %d\n", (int)access1(va, G, CU_MEM_LOCATION_TYPE_DEVICE,
		1, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
	fflush(stdout);
	q = (volatile uint32_t *)(uintptr_t)va;
	printf("first_word_read %d\n", q[0] == want);
	printf("last_word_read %d\n", q[G / 4 - 1] == ~want);
	fflush(stdout);
	q[1] = want + 1;
	printf("ack_sent %d\n", write(sock, &ack, 1) == 1);
	printf("unmap %d\n", (int)cuMemUnmap(va, G));
	printf("free %d\n", (int)cuMemAddressFree(va, G));
	printf("release %d\n", (int)cuMemRelease(h));
	return 0;
}

static char importer_out[256];

static long long imp(const char *key)
{
	return child_value(importer_out, key, -999);
}

/* The first process: creates, exports, writes, sends the fd to a second
 * process it spawns, then checks each step the second took. */
static void two_processes(void)
{
	CUmemGenericAllocationHandle h;
	const uint32_t val = 0x5eed1234;
	volatile uint32_t *q;
	CUdeviceptr va;
	int fd = -1, sv[2];
	char ack = 0, sockenv[64];
	char *env[] = { sockenv, NULL };
	pid_t pid;

	snprintf(importer_out, sizeof importer_out, "%s/cuemu-vmm-%d.out",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	/* Ours closes on exec; the importer's end is inherited. */
	if (!ok(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0 &&
		fcntl(sv[1], F_SETFD, 0) == 0,
		"two processes: a socket pair between them"))
		return;
	snprintf(sockenv, sizeof sockenv, "CUEMU_TEST_SOCK=%d", sv[1]);
	pid = spawn_self("importer", env, importer_out, NULL);
	close(sv[1]);
	ok(pid > 0, "two processes: the second is started");
	is_res(create(&h, G, 1, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
	       CUDA_SUCCESS, "two processes: the first creates a shareable handle");
	is_res(cuMemExportToShareableHandle(&fd, h,
			CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
	       CUDA_SUCCESS, "the first exports it as a file descriptor");
	is_res(cuMemAddressReserve(&va, G, 0, 0, 0), CUDA_SUCCESS,
	       "the first reserves an address range");
	is_res(cuMemMap(va, G, 0, h, 0), CUDA_SUCCESS, "and maps the handle");
	is_res(access1(va, G, CU_MEM_LOCATION_TYPE_DEVICE, 1,
		       CU_MEM_ACCESS_FLAGS_PROT_READWRITE), CUDA_SUCCESS,
	       "and makes it read-write");
	q = (volatile uint32_t *)(uintptr_t)va;
	q[0] = val;
	q[G / 4 - 1] = ~val;
	ok(send_fd(sv[0], fd, &val, sizeof val) == 0,
	   "the fd goes over a Unix socket");
	close(fd);
	ok(readable_within(sv[0], 30) && read(sv[0], &ack, 1) == 1 &&
	   ack == 'k', "the second answers after its write, within 30 s");
	is_int(q[1], val + 1, "the first reads what the second wrote");
	is_int(pid > 0 ? wait_bounded(pid, 30) : -1, 0,
	       "the second process runs to its end");
	close(sv[0]);
	is_int(imp("recv"), 1, "the second receives the descriptor");
	is_res(imp("init"), CUDA_SUCCESS, "the second: cuInit");
	is_res(imp("import"), CUDA_SUCCESS, "the second imports the handle");
	is_res(imp("props"), CUDA_SUCCESS,
	       "the second reads the imported handle's properties");
	is_int(imp("props_type"), CU_MEM_LOCATION_TYPE_DEVICE,
	       "the imported handle's location is a device");
	is_int(imp("props_id"), 1, "the imported handle's location is gpu1");
	is_int(imp("props_handle_types"), CU_MEM_HANDLE_TYPE_NONE,
	       "the imported handle asks for no handle types of its own");
	is_res(imp("reserve"), CUDA_SUCCESS, "the second reserves a range");
	is_res(imp("map"), CUDA_SUCCESS, "the second maps the imported handle");
	is_res(imp("access"), CUDA_SUCCESS, "the second makes it read-write");
	is_int(imp("first_word_read"), 1,
	       "the second reads the first word the first wrote");
	is_int(imp("last_word_read"), 1,
	       "the second reads the last word the first wrote");
	is_int(imp("ack_sent"), 1, "the second answers on the socket");
	is_res(imp("unmap"), CUDA_SUCCESS, "the second unmaps");
	is_res(imp("free"), CUDA_SUCCESS, "the second frees its range");
	is_res(imp("release"), CUDA_SUCCESS,
	       "the second releases the imported handle");
	unlink(importer_out);
	cuMemUnmap(va, G);
	cuMemAddressFree(va, G);
	cuMemRelease(h);
}

/* ------------------------------------------------------------ single process */

static void granularity(void)
{
	CUmemAllocationProp p = prop(CU_MEM_LOCATION_TYPE_DEVICE, 0, 0);
	size_t g = 0;

	is_res(cuMemGetAllocationGranularity(&g, &p,
			CU_MEM_ALLOC_GRANULARITY_MINIMUM), CUDA_SUCCESS,
	       "granularity: minimum");
	is_int(g, G, "granularity: minimum is 2 MiB");
	g = 0;
	cuMemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
	is_int(g, G, "granularity: recommended is 2 MiB");
	is_res(cuMemGetAllocationGranularity(&g, &p,
			(CUmemAllocationGranularity_flags)2),
	       CUDA_ERROR_INVALID_VALUE, "granularity: option 2 is refused");
	p.location.id = 99;
	g = 0;
	is_res(cuMemGetAllocationGranularity(&g, &p,
			CU_MEM_ALLOC_GRANULARITY_MINIMUM),
	       CUDA_SUCCESS, "granularity: device 99 is not looked at");
	is_int(g, G, "granularity: 2 MiB for device 99 too");
	p = prop(CU_MEM_LOCATION_TYPE_HOST, 0, 0);
	is_res(cuMemGetAllocationGranularity(&g, &p,
			CU_MEM_ALLOC_GRANULARITY_MINIMUM),
	       CUDA_SUCCESS, "granularity: host");
	is_res(cuMemGetAllocationGranularity(NULL, &p,
			CU_MEM_ALLOC_GRANULARITY_MINIMUM),
	       CUDA_ERROR_INVALID_VALUE, "granularity: NULL out");
}

static void create_errors(void)
{
	CUmemGenericAllocationHandle h;
	CUmemAllocationProp p;

	is_res(create(&h, MIB, 0, 0), CUDA_ERROR_INVALID_VALUE,
	       "create: 1 MiB is not a multiple of the granularity");
	is_res(create(&h, G + 4096, 0, 0), CUDA_ERROR_INVALID_VALUE,
	       "create: 2 MiB + 4 KiB is refused");
	is_res(create(&h, 0, 0, 0), CUDA_ERROR_INVALID_VALUE, "create: size 0");
	p = prop(CU_MEM_LOCATION_TYPE_DEVICE, 0, 0);
	is_res(cuMemCreate(&h, G, &p, 1), CUDA_ERROR_INVALID_VALUE,
	       "create: non-zero flags");
	is_res(create(&h, G, 99, 0), CUDA_ERROR_INVALID_DEVICE,
	       "create: device 99");
	p = prop(CU_MEM_LOCATION_TYPE_INVALID, 0, 0);
	is_res(cuMemCreate(&h, G, &p, 0), CUDA_ERROR_INVALID_VALUE,
	       "create: invalid location");
	p = prop(CU_MEM_LOCATION_TYPE_DEVICE, 0, 0);
	p.type = CU_MEM_ALLOCATION_TYPE_MANAGED;
	is_res(cuMemCreate(&h, G, &p, 0), CUDA_ERROR_INVALID_VALUE,
	       "create: type MANAGED");
	is_res(cuMemCreate(&h, G, NULL, 0), CUDA_ERROR_INVALID_VALUE,
	       "create: NULL prop");
	{
		int v = -1;

		cuDeviceGetAttribute(&v,
			CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, 0);
		is_int(v, 1, "the device says it supports fabric handles");
	}
	is_res(create(&h, G, 0, CU_MEM_HANDLE_TYPE_FABRIC),
	       CUDA_ERROR_NOT_PERMITTED, "create: fabric handles need IMEX");
	p = prop(CU_MEM_LOCATION_TYPE_HOST, 0, CU_MEM_HANDLE_TYPE_FABRIC);
	is_res(cuMemCreate(&h, G, &p, 0), CUDA_ERROR_INVALID_VALUE,
	       "create: fabric memory on the host is INVALID_VALUE");
	is_res(create(&h, G, 0, (CUmemAllocationHandleType)0x10), CUDA_SUCCESS,
	       "create: unknown handle type bits are ignored");
	cuMemRelease(h);
	p = prop(CU_MEM_LOCATION_TYPE_HOST, 0,
		 CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	is_res(cuMemCreate(&h, G, &p, 0), CUDA_ERROR_INVALID_VALUE,
	       "create: host memory cannot be shareable");
	p = prop(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0, 0);
	is_res(cuMemCreate(&h, G, &p, 0), CUDA_ERROR_INVALID_VALUE,
	       "create: HOST_NUMA_CURRENT");
}

/* Device memory is counted against the device: 141 GiB holds one handle of
 * 100 GiB, not two, until the first is freed. A mapping of it keeps it
 * alive after its release; a mapping is always the whole handle
 * (probes/results/vmmsweep.txt, map.smaller_than_handle). */
static void capacity(void)
{
	CUmemGenericAllocationHandle a, b;
	CUdeviceptr va = 0;

	is_res(create(&a, 100 * GIB, 2, 0), CUDA_SUCCESS,
	       "capacity: 100 GiB on gpu2");
	is_res(create(&b, 100 * GIB, 2, 0), CUDA_ERROR_OUT_OF_MEMORY,
	       "capacity: another 100 GiB does not fit");
	cuMemAddressReserve(&va, 100 * GIB, 0, 0, 0);
	is_res(cuMemMap(va, G, 0, a, 0), CUDA_ERROR_NOT_SUPPORTED,
	       "capacity: a mapping of its first 2 MiB alone is refused");
	is_res(cuMemMap(va, 100 * GIB, 0, a, 0), CUDA_SUCCESS,
	       "capacity: map all of it");
	is_res(cuMemRelease(a), CUDA_SUCCESS,
	       "release while mapped succeeds");
	is_res(create(&b, 100 * GIB, 2, 0), CUDA_ERROR_OUT_OF_MEMORY,
	       "release while mapped: the memory is still held");
	is_res(cuMemUnmap(va, 100 * GIB), CUDA_SUCCESS,
	       "release while mapped: the last unmap");
	is_res(create(&b, 100 * GIB, 2, 0), CUDA_SUCCESS,
	       "release while mapped: the last unmap freed it");
	cuMemRelease(b);
	cuMemAddressFree(va, 100 * GIB);
}

static void reserve(void)
{
	CUdeviceptr va = 0, vb = 0, big;

	is_res(cuMemAddressReserve(&va, 0, 0, 0, 0), CUDA_ERROR_INVALID_VALUE,
	       "reserve: size 0");
	is_res(cuMemAddressReserve(&va, MIB, 0, 0, 0), CUDA_ERROR_INVALID_VALUE,
	       "reserve: 1 MiB is not a multiple of the granularity");
	is_res(cuMemAddressReserve(&va, G, 3, 0, 0), CUDA_ERROR_INVALID_VALUE,
	       "reserve: alignment 3 is not a power of two");
	is_res(cuMemAddressReserve(&va, G, 0, 0, 1), CUDA_ERROR_INVALID_VALUE,
	       "reserve: non-zero flags");
	is_res(cuMemAddressReserve(&va, G, 0, 0, 0), CUDA_SUCCESS,
	       "reserve: default alignment");
	is_int(va % G, 0, "reserve: default alignment is the granularity");
	cuMemAddressFree(va, G);
	is_res(cuMemAddressReserve(&va, G, 1 * GIB, 0, 0), CUDA_SUCCESS,
	       "reserve: 1 GiB alignment");
	is_int(va % GIB, 0, "reserve: the address is 1 GiB aligned");
	cuMemAddressFree(va, G);
	is_res(cuMemAddressReserve(&va, 16 * GIB, 0, 0, 0), CUDA_SUCCESS,
	       "reserve: 16 GiB costs no memory");
	is_res(cuMemAddressFree(va, 16 * GIB), CUDA_SUCCESS,
	       "free: 16 GiB");

	cuMemAddressReserve(&big, 64 * MIB, 0, 0, 0);
	cuMemAddressFree(big, 64 * MIB);
	is_res(cuMemAddressReserve(&va, G, 0, big + 16 * MIB, 0), CUDA_SUCCESS,
	       "reserve: with a hint");
	ok(va == big + 16 * MIB, "reserve: a free hinted range is honoured");
	is_res(cuMemAddressReserve(&vb, G, 0, big + 16 * MIB, 0), CUDA_SUCCESS,
	       "reserve: a hint on a taken range still reserves");
	ok(vb != va, "reserve: ...elsewhere");
	cuMemAddressFree(vb, G);
	is_res(cuMemAddressReserve(&vb, G, 0, big + 4096, 0),
	       CUDA_ERROR_INVALID_VALUE, "reserve: an unaligned hint");

	is_res(cuMemAddressFree(va, 2 * G), CUDA_ERROR_INVALID_VALUE,
	       "free: the wrong size");
	is_res(cuMemAddressFree(va + 4096, G - 4096), CUDA_ERROR_INVALID_VALUE,
	       "free: not the start");
	is_res(cuMemAddressFree(va, G), CUDA_SUCCESS, "free");
	is_res(cuMemAddressFree(va, G), CUDA_ERROR_INVALID_VALUE,
	       "free: twice");
}

static void map_errors(void)
{
	CUmemGenericAllocationHandle h, h2, h4;
	CUdeviceptr R;
	void *plain;

	cuMemAddressReserve(&R, 4 * G, 0, 0, 0);
	create(&h, G, 0, 0);
	create(&h2, 2 * G, 0, 0);
	create(&h4, G, 0, 0);
	is_res(cuMemMap(R, G, G, h2, 0), CUDA_ERROR_NOT_SUPPORTED,
	       "map: non-zero offset");
	is_res(cuMemMap(R, G, 0, h, 1), CUDA_ERROR_INVALID_VALUE,
	       "map: non-zero flags");
	is_res(cuMemMap(R, G / 2, 0, h, 0), CUDA_ERROR_NOT_SUPPORTED,
	       "map: half a granule");
	is_res(cuMemMap(R + 4096, G, 0, h, 0), CUDA_ERROR_INVALID_VALUE,
	       "map: an unaligned address");
	is_res(cuMemMap(R, 2 * G, 0, h, 0), CUDA_ERROR_NOT_SUPPORTED,
	       "map: larger than the handle");
	is_res(cuMemMap(R, G, 0, 0, 0), CUDA_ERROR_INVALID_VALUE,
	       "map: handle 0");
	is_res(cuMemMap(R, G, 0, 0x1234567, 0), CUDA_ERROR_INVALID_VALUE,
	       "map: a garbage handle");
	is_res(cuMemMap(R, G, 0, h, 0), CUDA_SUCCESS, "map");
	is_res(cuMemMap(R, G, 0, h4, 0), CUDA_ERROR_INVALID_VALUE,
	       "map: over a mapping");
	is_res(cuMemMap(R, 2 * G, 0, h2, 0), CUDA_ERROR_INVALID_VALUE,
	       "map: partly over a mapping");
	/* The driver accepts this one; the emulator refuses to map over
	 * address space it does not own. */
	is_res(cuMemMap(R + 3 * G, 2 * G, 0, h2, 0), CUDA_ERROR_INVALID_VALUE,
	       "map: partly outside the reservation");
	is_res(cuMemMap(R + 4 * G, G, 0, h4, 0), CUDA_ERROR_INVALID_VALUE,
	       "map: just past the reservation");
	plain = mmap(NULL, 2 * G, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	is_res(cuMemMap(((CUdeviceptr)(uintptr_t)plain + G - 1) & ~(G - 1), G,
			0, h4, 0), CUDA_ERROR_INVALID_VALUE,
	       "map: outside any reservation");
	munmap(plain, 2 * G);

	is_res(cuMemMap(R + G, G, 0, h, 0), CUDA_SUCCESS,
	       "map: one handle twice in one reservation");
	access1(R, 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 0,
		CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	((volatile uint32_t *)(uintptr_t)R)[7] = 0xabcdef01;
	is_int(((volatile uint32_t *)(uintptr_t)(R + G))[7], 0xabcdef01,
	       "two mappings of one handle show the same bytes");

	is_res(cuMemUnmap(R, 2 * G), CUDA_SUCCESS,
	       "unmap: two whole mappings at once");
	is_res(cuMemUnmap(R + G, G), CUDA_SUCCESS,
	       "unmap: nothing mapped there is no error");
	is_res(cuMemMap(R, G, 0, h, 0), CUDA_SUCCESS, "map again");
	is_res(cuMemAddressFree(R, 4 * G), CUDA_ERROR_INVALID_VALUE,
	       "free: a reservation that is still mapped");
	is_res(cuMemUnmap(R, 3 * G), CUDA_SUCCESS,
	       "unmap: a mapping with unmapped space after it");

	is_res(cuMemMap(R, 2 * G, 0, h2, 0), CUDA_SUCCESS, "map 4 MiB");
	is_res(cuMemUnmap(R, G), CUDA_ERROR_INVALID_VALUE,
	       "unmap: half of a mapping");
	is_res(cuMemUnmap(R + G, G), CUDA_ERROR_INVALID_VALUE,
	       "unmap: the other half");
	is_res(cuMemUnmap(R + 4096, G), CUDA_ERROR_INVALID_VALUE,
	       "unmap: unaligned");
	is_res(cuMemUnmap(R + 4 * G, G), CUDA_ERROR_INVALID_VALUE,
	       "unmap: outside any reservation");
	is_res(cuMemUnmap(R, 2 * G), CUDA_SUCCESS, "unmap: the whole mapping");

	is_res(cuMemRelease(h), CUDA_SUCCESS, "release");
	is_res(cuMemRelease(h), CUDA_ERROR_INVALID_VALUE, "release: twice");
	is_res(cuMemRelease(0), CUDA_ERROR_INVALID_VALUE, "release: handle 0");
	cuMemRelease(h2);
	cuMemRelease(h4);
	is_res(cuMemAddressFree(R, 4 * G), CUDA_SUCCESS, "free after unmap");
}

static void access_rules(void)
{
	CUmemGenericAllocationHandle h, h4;
	volatile uint32_t *q;
	CUdeviceptr R;
	CUresult r;
	unsigned long long f;

	cuMemAddressReserve(&R, 4 * G, 0, 0, 0);
	q = (volatile uint32_t *)(uintptr_t)R;
	create(&h, G, 0, 0);
	create(&h4, G, 0, 0);
	cuMemMap(R, G, 0, h, 0);
	f = get_access(R, CU_MEM_LOCATION_TYPE_DEVICE, 0, &r);
	is_res(r, CUDA_SUCCESS, "get access: before any set");
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_NONE, "a new mapping has no access");
	is_int(touch_in_child(q, 0), SIGSEGV,
	       "a read of a mapping without access faults");
	is_res(access1(R, 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 0,
		       CU_MEM_ACCESS_FLAGS_PROT_READWRITE),
	       CUDA_ERROR_INVALID_VALUE, "set access: not fully mapped");
	is_res(access1(R, G, CU_MEM_LOCATION_TYPE_HOST, 0,
		       CU_MEM_ACCESS_FLAGS_PROT_READWRITE),
	       CUDA_ERROR_NOT_SUPPORTED, "set access: host to device memory");
	is_res(access1(R, G, CU_MEM_LOCATION_TYPE_HOST_NUMA, 0,
		       CU_MEM_ACCESS_FLAGS_PROT_READWRITE),
	       CUDA_ERROR_NOT_SUPPORTED,
	       "set access: host NUMA to device memory");
	is_res(access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 99,
		       CU_MEM_ACCESS_FLAGS_PROT_READWRITE),
	       CUDA_ERROR_INVALID_VALUE, "set access: device 99");
	is_res(access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 0,
		       (CUmemAccess_flags)2),
	       CUDA_ERROR_INVALID_VALUE, "set access: flags 2");
	is_res(access1(R, G / 2, CU_MEM_LOCATION_TYPE_DEVICE, 0,
		       CU_MEM_ACCESS_FLAGS_PROT_READWRITE),
	       CUDA_ERROR_INVALID_VALUE, "set access: half a granule");
	is_res(cuMemSetAccess(R, G, NULL, 0), CUDA_ERROR_INVALID_VALUE,
	       "set access: no descriptors");

	is_res(access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 0,
		       CU_MEM_ACCESS_FLAGS_PROT_READWRITE), CUDA_SUCCESS,
	       "set access: read-write");
	f = get_access(R + 4096, CU_MEM_LOCATION_TYPE_DEVICE, 0, &r);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
	       "get access: read-write, inside the mapping");
	q[3] = 77;
	is_int(touch_in_child(q, 1), 0, "a write to a read-write mapping works");
	is_res(access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 0,
		       CU_MEM_ACCESS_FLAGS_PROT_READ), CUDA_SUCCESS,
	       "set access: read-only");
	is_int(q[3], 77, "a read-only mapping reads");
	is_int(touch_in_child(q, 1), SIGSEGV,
	       "a write to a read-only mapping faults");
	is_res(access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 1,
		       CU_MEM_ACCESS_FLAGS_PROT_READWRITE), CUDA_SUCCESS,
	       "set access: a peer read-write");
	f = get_access(R, CU_MEM_LOCATION_TYPE_DEVICE, 0, &r);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_READ,
	       "access is per location: the owner still reads only");
	f = get_access(R, CU_MEM_LOCATION_TYPE_HOST, 0, &r);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
	       "get access: the host of device memory reads as the most "
	       "permissive location");
	f = get_access(R, CU_MEM_LOCATION_TYPE_HOST_NUMA, 0, &r);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_NONE,
	       "get access: a host NUMA node of device memory has none");
	get_access(R, CU_MEM_LOCATION_TYPE_INVALID, 0, &r);
	is_res(r, CUDA_ERROR_INVALID_DEVICE, "get access: an invalid location");
	is_int(touch_in_child(q, 1), 0,
	       "the host view takes the most permissive access");
	access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 1,
		CU_MEM_ACCESS_FLAGS_PROT_NONE);
	is_res(access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 0,
		       CU_MEM_ACCESS_FLAGS_PROT_NONE), CUDA_SUCCESS,
	       "set access: none");
	is_int(touch_in_child(q, 0), SIGSEGV, "a read with no access faults");

	get_access(R + 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 0, &r);
	is_res(r, CUDA_ERROR_INVALID_VALUE, "get access: not mapped");
	get_access(R, CU_MEM_LOCATION_TYPE_DEVICE, 99, &r);
	is_res(r, CUDA_ERROR_INVALID_DEVICE, "get access: device 99");

	cuMemMap(R + G, G, 0, h4, 0);
	is_res(access1(R, 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 0,
		       CU_MEM_ACCESS_FLAGS_PROT_READWRITE), CUDA_SUCCESS,
	       "set access: over two mappings");
	q[G / 4] = 5;
	is_int(q[G / 4], 5, "the second mapping is writable");
	cuMemUnmap(R + G, G);
	cuMemMap(R + G, G, 0, h4, 0);
	f = get_access(R + G, CU_MEM_LOCATION_TYPE_DEVICE, 0, &r);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_NONE,
	       "a mapping made again starts with no access");
	is_int(touch_in_child(q + G / 4, 0), SIGSEGV,
	       "...and faults");
	cuMemUnmap(R + G, G);
	cuMemUnmap(R, G);
	cuMemRelease(h);
	cuMemRelease(h4);
	cuMemAddressFree(R, 4 * G);
}

static void host_memory(void)
{
	CUmemGenericAllocationHandle h;
	CUmemAllocationProp p = prop(CU_MEM_LOCATION_TYPE_HOST, 0, 0), q;
	volatile uint32_t *v;
	CUdeviceptr R;

	is_res(cuMemCreate(&h, G, &p, 0), CUDA_SUCCESS, "host: create");
	cuMemAddressReserve(&R, G, 0, 0, 0);
	is_res(cuMemMap(R, G, 0, h, 0), CUDA_SUCCESS, "host: map");
	is_res(access1(R, G, CU_MEM_LOCATION_TYPE_HOST, 0,
		       CU_MEM_ACCESS_FLAGS_PROT_READWRITE), CUDA_SUCCESS,
	       "host: the host gets access");
	v = (volatile uint32_t *)(uintptr_t)R;
	v[0] = 9;
	is_int(v[0], 9, "host: the host reads and writes");
	cuMemGetAllocationPropertiesFromHandle(&q, h);
	is_int(q.location.type, CU_MEM_LOCATION_TYPE_HOST, "host: properties");
	cuMemUnmap(R, G);
	cuMemRelease(h);
	p = prop(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0, 0);
	is_res(cuMemCreate(&h, G, &p, 0), CUDA_SUCCESS, "numa0: create");
	cuMemMap(R, G, 0, h, 0);
	is_res(access1(R, G, CU_MEM_LOCATION_TYPE_HOST_NUMA, 0,
		       CU_MEM_ACCESS_FLAGS_PROT_READWRITE), CUDA_SUCCESS,
	       "numa0: the node gets access");
	v[1] = 3;
	is_int(v[1], 3, "numa0: the host reads and writes");
	cuMemUnmap(R, G);
	cuMemRelease(h);
	cuMemAddressFree(R, G);
	p = prop(CU_MEM_LOCATION_TYPE_HOST_NUMA, 4096, 0);
	is_res(cuMemCreate(&h, G, &p, 0), CUDA_ERROR_INVALID_VALUE,
	       "numa4096: no such node");
}

static void retain_and_props(void)
{
	CUmemGenericAllocationHandle h, hr = 0;
	CUmemAllocationProp p;
	CUdeviceptr X, dm;
	void *mal;

	cuMemAddressReserve(&X, 4 * G, 0, 0, 0);
	create(&h, 2 * G, 3, 0);
	cuMemMap(X, 2 * G, 0, h, 0);
	is_res(cuMemRetainAllocationHandle(&hr, (void *)(uintptr_t)X),
	       CUDA_SUCCESS, "retain: at the base");
	ok(hr == h, "retain: the handle that was mapped");
	cuMemRelease(hr);
	hr = 0;
	is_res(cuMemRetainAllocationHandle(&hr,
			(void *)(uintptr_t)(X + G + 4096)), CUDA_SUCCESS,
	       "retain: inside");
	ok(hr == h, "retain: inside, the same handle");
	cuMemRelease(hr);
	is_res(cuMemRetainAllocationHandle(&hr, (void *)(uintptr_t)(X + 3 * G)),
	       CUDA_ERROR_INVALID_VALUE, "retain: reserved but not mapped");
	mal = malloc(64);
	is_res(cuMemRetainAllocationHandle(&hr, mal), CUDA_ERROR_INVALID_VALUE,
	       "retain: malloc memory");
	free(mal);
	if (cuMemAlloc(&dm, G) == CUDA_SUCCESS) {
		is_res(cuMemRetainAllocationHandle(&hr, (void *)(uintptr_t)dm),
		       CUDA_ERROR_INVALID_VALUE, "retain: cuMemAlloc memory");
		cuMemFree(dm);
	}

	memset(&p, 0x5a, sizeof p);
	is_res(cuMemGetAllocationPropertiesFromHandle(&p, h), CUDA_SUCCESS,
	       "properties");
	ok(p.type == CU_MEM_ALLOCATION_TYPE_PINNED &&
	   p.location.type == CU_MEM_LOCATION_TYPE_DEVICE && p.location.id == 3 &&
	   p.requestedHandleTypes == CU_MEM_HANDLE_TYPE_NONE &&
	   p.win32HandleMetaData == NULL && p.allocFlags.usage == 0,
	   "properties: pinned, on gpu3, not shareable, the rest zero");
	is_res(cuMemGetAllocationPropertiesFromHandle(&p, 0x1234567),
	       CUDA_ERROR_INVALID_VALUE, "properties: a garbage handle");

	/* Released while mapped: the handle is gone, the memory is not. */
	access1(X, 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 3,
		CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	((volatile uint32_t *)(uintptr_t)X)[0] = 0xcafef00d;
	is_res(cuMemRelease(h), CUDA_SUCCESS, "release while mapped");
	is_int(((volatile uint32_t *)(uintptr_t)X)[0], 0xcafef00d,
	       "release while mapped: the memory still reads");
	is_res(cuMemGetAllocationPropertiesFromHandle(&p, h), CUDA_SUCCESS,
	       "properties of a released handle that is still mapped");
	is_res(cuMemRelease(h), CUDA_ERROR_INVALID_VALUE,
	       "release: a released handle has no reference left");
	is_res(cuMemRetainAllocationHandle(&hr, (void *)(uintptr_t)X),
	       CUDA_SUCCESS, "retain after release, while mapped");
	ok(hr == h, "retain after release: the same handle");
	is_res(cuMemRelease(hr), CUDA_SUCCESS, "release the retained handle");
	is_res(cuMemUnmap(X, 2 * G), CUDA_SUCCESS, "unmap after release");
	is_res(cuMemRelease(h), CUDA_ERROR_INVALID_VALUE,
	       "release after the last unmap");
	is_res(cuMemGetAllocationPropertiesFromHandle(&p, h),
	       CUDA_ERROR_INVALID_VALUE, "properties of a freed handle");
	cuMemAddressFree(X, 4 * G);
}

static void sharing(void)
{
	CUmemGenericAllocationHandle h, hf, hi;
	CUmemAllocationProp p;
	CUdeviceptr X;
	int fd = -1, fd2 = -1, nfd;

	create(&h, G, 0, 0);
	is_res(cuMemExportToShareableHandle(&fd, h,
			CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
	       CUDA_ERROR_INVALID_VALUE,
	       "export: a handle made without that handle type");
	cuMemRelease(h);
	create(&hf, G, 0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	is_res(cuMemExportToShareableHandle(&fd2, hf,
			CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1),
	       CUDA_ERROR_INVALID_VALUE, "export: non-zero flags");
	is_res(cuMemExportToShareableHandle(&fd2, hf,
			CU_MEM_HANDLE_TYPE_FABRIC, 0),
	       CUDA_ERROR_INVALID_VALUE, "export: as another type");
	is_res(cuMemExportToShareableHandle(&fd, hf,
			CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
	       CUDA_SUCCESS, "export");
	ok(fd >= 0 && fcntl(fd, F_GETFD) >= 0, "export: a file descriptor");

	is_res(cuMemImportFromShareableHandle(&hi, (void *)(uintptr_t)fd,
			CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
	       CUDA_SUCCESS, "import: in the same process");
	ok(hi != hf, "import: a handle of its own");
	memset(&p, 0x5a, sizeof p);
	cuMemGetAllocationPropertiesFromHandle(&p, hi);
	ok(p.location.type == CU_MEM_LOCATION_TYPE_DEVICE && p.location.id == 0 &&
	   p.requestedHandleTypes == CU_MEM_HANDLE_TYPE_NONE,
	   "import: on gpu0, with no handle types, as the driver reports");
	cuMemAddressReserve(&X, 2 * G, 0, 0, 0);
	cuMemMap(X, G, 0, hf, 0);
	cuMemMap(X + G, G, 0, hi, 0);
	access1(X, 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 0,
		CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	((volatile uint32_t *)(uintptr_t)X)[1] = 0x11223344;
	is_int(((volatile uint32_t *)(uintptr_t)(X + G))[1], 0x11223344,
	       "import: both map the same bytes");
	cuMemUnmap(X, G);
	cuMemUnmap(X + G, G);
	cuMemAddressFree(X, 2 * G);
	is_res(cuMemRelease(hi), CUDA_SUCCESS, "import: release the import");
	close(fd);

	is_res(cuMemImportFromShareableHandle(&hi, (void *)(intptr_t)-1,
			CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
	       CUDA_ERROR_UNKNOWN, "import: fd -1");
	nfd = open("/dev/null", O_RDONLY);
	is_res(cuMemImportFromShareableHandle(&hi, (void *)(uintptr_t)nfd,
			CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
	       CUDA_ERROR_UNKNOWN, "import: /dev/null");
	is_res(cuMemImportFromShareableHandle(&hi, (void *)(uintptr_t)nfd,
			CU_MEM_HANDLE_TYPE_NONE),
	       CUDA_ERROR_INVALID_VALUE, "import: handle type NONE");
	close(nfd);
	cuMemRelease(hf);
}

static void pointer_attributes(void)
{
	CUmemGenericAllocationHandle h;
	CUdeviceptr R, v = 0;
	unsigned long long ull = 0;
	size_t sz = 0;
	int mapped = 0;

	cuMemAddressReserve(&R, 4 * G, 0, 0, 0);
	create(&h, 2 * G, 0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	cuMemMap(R + G, 2 * G, 0, h, 0);
	access1(R + G, 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 0,
		CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	cuPointerGetAttribute(&mapped, CU_POINTER_ATTRIBUTE_MAPPED, R + G + 64);
	is_int(mapped, 1, "pointer: MAPPED");
	cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
			      R + G + 64);
	is_int(v, R, "pointer: RANGE_START_ADDR is the reservation's");
	cuPointerGetAttribute(&sz, CU_POINTER_ATTRIBUTE_RANGE_SIZE, R + 2 * G);
	is_int(sz, 4 * G, "pointer: RANGE_SIZE is the reservation's");
	v = 0;
	cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR,
			      R + 2 * G);
	is_int(v, R + G, "pointer: MAPPING_BASE_ADDR");
	sz = 0;
	cuPointerGetAttribute(&sz, CU_POINTER_ATTRIBUTE_MAPPING_SIZE, R + 2 * G);
	is_int(sz, 2 * G, "pointer: MAPPING_SIZE");
	ull = 0;
	cuPointerGetAttribute(&ull, CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES,
			      R + G);
	is_int(ull, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
	       "pointer: ALLOWED_HANDLE_TYPES");
	ull = 0;
	cuPointerGetAttribute(&ull, CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, R + G);
	ok(ull != 0, "pointer: MEMORY_BLOCK_ID");
	cuMemUnmap(R + G, 2 * G);
	cuMemRelease(h);
	cuMemAddressFree(R, 4 * G);
}

/* /cu/reservations and /cu/handles through this process's control
 * socket (ctl.h): one JSON line each way, answers read as text. */
/* probes/results/vmmsweep.txt: the edges of map, unmap and get access. */
static void boundaries(void)
{
	CUmemGenericAllocationHandle h2, h1;
	CUdeviceptr va = 0, d = 0;
	unsigned long long f = 99;
	CUmemLocation l0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };

	if (create(&h2, 2 * G, 0, 0) || create(&h1, G, 0, 0) ||
	    cuMemAddressReserve(&va, 4 * G, 0, 0, 0)) {
		ok(0, "boundaries: handles and a reservation");
		return;
	}
	is_res(cuMemMap(va, 0, 0, h2, 0), CUDA_ERROR_INVALID_VALUE,
	       "map: size 0 is INVALID_VALUE");
	is_res(cuMemMap(va, G, 0, h2, 0), CUDA_ERROR_NOT_SUPPORTED,
	       "map: less than the whole handle is NOT_SUPPORTED");
	is_res(cuMemMap(va + 4096, G, 0, h2, 0), CUDA_ERROR_NOT_SUPPORTED,
	       "map: the size is checked before the address's alignment");
	is_res(cuMemMap(va + 4096, G, 0, h1, 0), CUDA_ERROR_INVALID_VALUE,
	       "map: then an unaligned address is INVALID_VALUE");
	is_res(cuMemMap(va + 3 * G, G, 0, h1, 0), CUDA_SUCCESS,
	       "map: the last granule");
	is_res(cuMemUnmap(va + 3 * G, 2 * G), CUDA_SUCCESS,
	       "unmap: a range may run past its reservation's end");
	is_res(cuMemMap(va + 3 * G, G, 0, h1, 0), CUDA_SUCCESS,
	       "unmap: and unmapped what it covered");
	is_res(cuMemUnmap(va + 4 * G, G), CUDA_ERROR_INVALID_VALUE,
	       "unmap: a range that starts past the end is INVALID_VALUE");
	is_res(cuMemUnmap(va + 3 * G, G), CUDA_SUCCESS, "unmap it");
	cuMemAlloc(&d, MIB);
	is_res(cuMemGetAccess(&f, &l0, d), CUDA_SUCCESS,
	       "get access: cuMemAlloc memory answers");
	is_int(f, 0, "get access: with no VMM access");
	f = 99;
	is_res(cuMemGetAccess(&f, &l0, 0), CUDA_ERROR_INVALID_VALUE,
	       "get access: NULL is INVALID_VALUE");
	is_int(f, 99, "get access: and NULL writes nothing");
	is_res(cuMemGetAccess(&f, &l0, va), CUDA_ERROR_INVALID_VALUE,
	       "get access: an unmapped address is INVALID_VALUE");
	is_int(f, 0, "get access: and it writes 0");
	cuMemFree(d);
	cuMemAddressFree(va, 4 * G);
	cuMemRelease(h1);
	cuMemRelease(h2);
}

static void control(void)
{
	CUmemGenericAllocationHandle h;
	unsigned long long rid = 0, f;
	char buf[8192], want[128];
	const char *ids;
	CUdeviceptr R;
	CUresult r;

	if (!ok(ctl_open() == 0, "/cu/reservations: the process's control "
		"socket in CUEMU_RUNDIR (%s) answers", getenv("CUEMU_RUNDIR")))
		return;
	cuMemAddressReserve(&R, 4 * G, 4 * G, 0, 0);
	create(&h, G, 0, 0);
	cuMemMap(R + G, G, 0, h, 0);
	cuMemMap(R + 2 * G, G, 0, h, 0);
	ctl(buf, sizeof buf, "{\"op\":\"list\",\"path\":\"reservations\"}");
	ids = strstr(buf, "\"ids\":[");
	ok(ids && sscanf(ids, "\"ids\":[%llu", &rid) == 1,
	   "/cu: reservations are listed");
	ctl(buf, sizeof buf, "{\"op\":\"get\",\"path\":\"reservations/%llu\"}",
	    rid);
	snprintf(want, sizeof want, "\"base\":\"0x%llx\"", (unsigned long long)R);
	ok(strstr(buf, want) != NULL, "/cu: a reservation shows its base");
	ok(strstr(buf, "\"alignment\":8388608") && strstr(buf, "\"size\":8388608"),
	   "/cu: ...its size and alignment");
	ok(strstr(buf, "\"0x200000\":{") && strstr(buf, "\"0x400000\":{"),
	   "/cu: ...its mappings by offset");
	ctl(buf, sizeof buf, "{\"op\":\"get\",\"path\":\"reservations/%llu/"
	    "mappings/0x200000/handle\"}", rid);
	snprintf(want, sizeof want, "\"value\":%llu", (unsigned long long)h);
	ok(strstr(buf, want) != NULL, "/cu: a mapping names its handle");
	ctl(buf, sizeof buf, "{\"op\":\"set\",\"path\":\"reservations/%llu/"
	    "access\",\"value\":\"gpu1 rw\\n\"}", rid);
	ok(strstr(buf, "CUDA_SUCCESS") != NULL, "/cu: access is written");
	f = get_access(R + 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 1, &r);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
	       "/cu: ...to every mapping, through the API");
	ctl(buf, sizeof buf, "{\"op\":\"set\",\"path\":\"reservations/%llu/"
	    "mappings/0x400000/access\",\"value\":\"gpu1 ro\"}", rid);
	f = get_access(R + 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 1, &r);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_READ, "/cu: one mapping's access");
	ctl(buf, sizeof buf, "{\"op\":\"get\",\"path\":\"reservations/%llu/"
	    "access\"}", rid);
	ok(strstr(buf, "\"gpu1\":\"mixed\"") && strstr(buf, "\"gpu0\":\"none\""),
	   "/cu: the reservation's access summarises its mappings");
	ctl(buf, sizeof buf, "{\"op\":\"set\",\"path\":\"reservations/%llu/"
	    "access\",\"value\":\"cpu rw\"}", rid);
	ok(strstr(buf, "CUDA_ERROR_NOT_SUPPORTED") != NULL,
	   "/cu: host access to device memory is refused");
	ctl(buf, sizeof buf, "{\"op\":\"get\",\"path\":\"handles/%llu\"}",
	    (unsigned long long)h);
	ok(strstr(buf, "\"location\":\"gpu0\"") && strstr(buf, "\"refs\":1") &&
	   strstr(buf, "\"mapping_count\":2"),
	   "/cu: a handle shows its location, references and mappings");
	cuMemUnmap(R, 4 * G);
	cuMemRelease(h);
	ctl(buf, sizeof buf, "{\"op\":\"get\",\"path\":\"handles/%llu\"}",
	    (unsigned long long)h);
	ok(strstr(buf, "\"ok\":false") != NULL, "/cu: a freed handle is gone");
	cuMemAddressFree(R, 4 * G);
	close(ctl_fd);
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);
	CUcontext ctx;

	if (role && !strcmp(role, "importer"))
		return importer();
	setvbuf(stdout, NULL, _IONBF, 0);

	is_res(cuMemAddressReserve(&(CUdeviceptr){ 0 }, G, 0, 0, 0),
	       CUDA_ERROR_NOT_INITIALIZED, "reserve before cuInit");
	if (cuInit(0) != CUDA_SUCCESS ||
	    cuDevicePrimaryCtxRetain(&ctx, 0) != CUDA_SUCCESS ||
	    cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
		printf("Bail out! cuInit\n");
		return 1;
	}
	granularity();
	create_errors();
	capacity();
	reserve();
	map_errors();
	access_rules();
	host_memory();
	retain_and_props();
	sharing();
	pointer_attributes();
	boundaries();
	control();
	is_res(cuMemMapArrayAsync(NULL, 0, 0), CUDA_ERROR_INVALID_VALUE,
	       "cuMemMapArrayAsync: no operations");
	{
		CUarrayMapInfo mi;

		memset(&mi, 0, sizeof mi);
		is_res(cuMemMapArrayAsync(&mi, 1, 0), CUDA_ERROR_NOT_SUPPORTED,
		       "cuMemMapArrayAsync: sparse arrays are not emulated");
	}
	two_processes();
	return done_testing();
}
