/*
 * test_multicast.c - multicast objects on the default machine (four H200s
 * that support multicast): granularity, creation, the team of devices,
 * binding memory by handle and by address, a store through the object's
 * mapping reaching every bound device's memory, unbinding, and each
 * refusal; then, on a machine of one device without multicast (a second
 * run of this program, spawn.h), NOT_SUPPORTED before any argument is
 * looked at, as the real single H200 answers (probes/results/share.txt).
 * Last, dma-buf handles of address ranges: every refusal, and a dma-buf
 * of device memory and of a VMM mapping that maps the device's bytes at
 * its file position (a udmabuf, or the memory file opened anew).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cuda.h"
#include "spawn.h"
#include "tap.h"

#define G (2ULL << 20)

static CUmemGenericAllocationHandle phys(int dev, size_t size,
					 CUmemAllocationHandleType t)
{
	CUmemAllocationProp p = {
		.type = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, dev },
		.requestedHandleTypes = t,
	};
	CUmemGenericAllocationHandle h = 0;

	cuMemCreate(&h, size, &p, 0);
	return h;
}

/* Reserves size bytes, maps h and gives gpu0 and gpu1 read-write access. */
static CUdeviceptr map_rw(CUmemGenericAllocationHandle h, size_t size,
			  CUresult *r)
{
	CUmemAccessDesc d[2] = {
		{ { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
		  CU_MEM_ACCESS_FLAGS_PROT_READWRITE },
		{ { CU_MEM_LOCATION_TYPE_DEVICE, 1 },
		  CU_MEM_ACCESS_FLAGS_PROT_READWRITE },
	};
	CUdeviceptr va = 0;

	cuMemAddressReserve(&va, size, 0, 0, 0);
	*r = cuMemMap(va, size, 0, h, 0);
	if (*r == CUDA_SUCCESS)
		*r = cuMemSetAccess(va, size, d, 2);
	return va;
}

static uint32_t word_at(CUdeviceptr p)
{
	uint32_t v = 0;

	return cuMemcpyDtoH(&v, p, 4) ? 0xdeadbeef : v;
}

static void granularity(CUmulticastObjectProp *mp)
{
	CUmemGenericAllocationHandle h = 0;
	CUmulticastObjectProp q;
	size_t g = 0;
	int v = -1;

	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, 0);
	is_int(v, 1, "the default machine supports multicast");
	is_res(cuMulticastGetGranularity(&g, mp, CU_MULTICAST_GRANULARITY_MINIMUM),
	       CUDA_SUCCESS, "the minimum granularity");
	is_int(g, G, "... is 2 MiB");
	cuMulticastGetGranularity(&g, mp, CU_MULTICAST_GRANULARITY_RECOMMENDED);
	is_int(g, 512ULL << 20, "the recommended one is 512 MiB");
	/* Two H100s (probes/results/mcgran.txt): an object of up to 2 MiB is
	 * recommended 2 MiB, and the team's size is not looked at. */
	q = *mp;
	q.size = G;
	cuMulticastGetGranularity(&g, &q, CU_MULTICAST_GRANULARITY_RECOMMENDED);
	is_int(g, G, "... and 2 MiB for an object of 2 MiB");
	q.size = 1;
	cuMulticastGetGranularity(&g, &q, CU_MULTICAST_GRANULARITY_RECOMMENDED);
	is_int(g, G, "... and for one of a byte");
	q.size = G + 1;
	cuMulticastGetGranularity(&g, &q, CU_MULTICAST_GRANULARITY_RECOMMENDED);
	is_int(g, 512ULL << 20, "... 512 MiB a byte past 2 MiB");
	is_res(cuMulticastGetGranularity(&g, mp, 2), CUDA_ERROR_INVALID_VALUE,
	       "option 2 is refused");
	is_res(cuMulticastGetGranularity(NULL, mp, 0), CUDA_ERROR_INVALID_VALUE,
	       "a NULL granularity is refused");
	q = *mp;
	q.numDevices = 0;
	g = 0;
	is_res(cuMulticastGetGranularity(&g, &q, 0), CUDA_SUCCESS,
	       "a team of 0 is answered");
	is_int(g, G, "... 2 MiB");
	q.numDevices = 99;
	is_res(cuMulticastGetGranularity(&g, &q, 0), CUDA_SUCCESS,
	       "a team larger than the machine is answered");
	is_res(cuMulticastCreate(&h, &q), CUDA_ERROR_INVALID_VALUE,
	       "... and refused by cuMulticastCreate");
	q.numDevices = 0;
	is_res(cuMulticastCreate(&h, &q), CUDA_ERROR_INVALID_VALUE,
	       "... as a team of 0 is");
	q = *mp;
	q.flags = 1;
	is_res(cuMulticastGetGranularity(&g, &q, 0), CUDA_ERROR_INVALID_VALUE,
	       "flags 1 are refused");
}

static void create_refusals(const CUmulticastObjectProp *mp)
{
	CUmemGenericAllocationHandle h = 0;
	CUmulticastObjectProp q;

	is_res(cuMulticastCreate(NULL, mp), CUDA_ERROR_INVALID_VALUE,
	       "create: a NULL handle is refused");
	is_res(cuMulticastCreate(&h, NULL), CUDA_ERROR_INVALID_VALUE,
	       "create: NULL properties are refused");
	q = *mp;
	q.size = 0;
	is_res(cuMulticastCreate(&h, &q), CUDA_ERROR_INVALID_VALUE,
	       "create: size 0 is refused");
	q.size = G + 4096;
	is_res(cuMulticastCreate(&h, &q), CUDA_ERROR_INVALID_VALUE,
	       "create: a size off the granularity is refused");
	q = *mp;
	q.numDevices = 5;
	is_res(cuMulticastCreate(&h, &q), CUDA_ERROR_INVALID_VALUE,
	       "create: a team larger than the machine is refused");
	q = *mp;
	q.handleTypes = 0x40;
	is_res(cuMulticastCreate(&h, &q), CUDA_ERROR_INVALID_VALUE,
	       "create: unknown handle types are refused");
	q.handleTypes = CU_MEM_HANDLE_TYPE_FABRIC;
	is_res(cuMulticastCreate(&h, &q), CUDA_ERROR_NOT_PERMITTED,
	       "create: fabric handles need an IMEX channel");
}

static void team(CUmemGenericAllocationHandle mc)
{
	CUresult r;

	map_rw(mc, 2 * G, &r);
	is_res(r, CUDA_ERROR_NOT_PERMITTED,
	       "an object whose team is not complete is not mapped");
	is_res(cuMulticastAddDevice(mc, 7), CUDA_ERROR_INVALID_DEVICE,
	       "adding gpu7 of four is refused");
	is_res(cuMulticastAddDevice(12345, 0), CUDA_ERROR_INVALID_VALUE,
	       "adding to a handle that is no object is refused");
	is_res(cuMulticastAddDevice(mc, 0), CUDA_SUCCESS, "gpu0 joins");
	is_res(cuMulticastAddDevice(mc, 0), CUDA_ERROR_INVALID_VALUE,
	       "... once");
	is_res(cuMulticastBindMem(mc, 0, phys(0, G, 1), 0, G, 0),
	       CUDA_ERROR_NOT_PERMITTED,
	       "memory is not bound before the team is complete");
	is_res(cuMulticastAddDevice(mc, 1), CUDA_SUCCESS, "gpu1 joins");
	is_res(cuMulticastAddDevice(mc, 2), CUDA_ERROR_INVALID_VALUE,
	       "a third device does not fit a team of two");
}

static void bind_refusals(CUmemGenericAllocationHandle mc,
			  CUmemGenericAllocationHandle h0)
{
	CUmemGenericAllocationHandle hn = phys(0, G, 0), h2 = phys(2, G, 1);

	is_res(cuMulticastBindMem(mc, 0, h0, 0, G, 1), CUDA_ERROR_INVALID_VALUE,
	       "bind: flags 1 are refused");
	is_res(cuMulticastBindMem(mc, 4096, h0, 0, G, 0), CUDA_ERROR_INVALID_VALUE,
	       "bind: an object offset off the granularity is refused");
	is_res(cuMulticastBindMem(mc, 0, h0, 4096, G, 0), CUDA_ERROR_INVALID_VALUE,
	       "bind: a memory offset off the granularity is refused");
	is_res(cuMulticastBindMem(mc, 0, h0, 0, 0, 0), CUDA_ERROR_INVALID_VALUE,
	       "bind: size 0 is refused");
	is_res(cuMulticastBindMem(mc, 2 * G, h0, 0, G, 0), CUDA_ERROR_INVALID_VALUE,
	       "bind: past the object's end is refused");
	is_res(cuMulticastBindMem(mc, 0, h0, 0, 4 * G, 0), CUDA_ERROR_INVALID_VALUE,
	       "bind: past the memory's end is refused");
	is_res(cuMulticastBindMem(mc, 0, hn, 0, G, 0), CUDA_ERROR_INVALID_VALUE,
	       "bind: unshareable memory to a shareable object is refused");
	is_res(cuMulticastBindMem(mc, 0, h2, 0, G, 0), CUDA_ERROR_INVALID_DEVICE,
	       "bind: memory of a device outside the team is refused");
	is_res(cuMulticastBindMem(mc, 0, mc, 0, G, 0), CUDA_ERROR_INVALID_VALUE,
	       "bind: the object itself is not memory");
	is_res(cuMulticastBindMem(h0, 0, h0, 0, G, 0), CUDA_ERROR_INVALID_VALUE,
	       "bind: memory is not an object");
	cuMemRelease(hn);
	cuMemRelease(h2);
}

static void stores(CUmemGenericAllocationHandle mc, CUdeviceptr va0,
		   CUdeviceptr va1)
{
	uint32_t v = 0x77777777;
	CUdeviceptr vm;
	CUresult r;

	vm = map_rw(mc, 2 * G, &r);
	is_res(r, CUDA_SUCCESS, "the object maps, with access");
	{
		int fd = -1;

		is_res(cuMemExportToShareableHandle(&fd, mc,
		       CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
		       CUDA_ERROR_NOT_SUPPORTED,
		       "a multicast object is not exported to another process");
	}
	cuMemsetD32(va0, 0x01010101, G / 4);
	cuMemsetD32(va1, 0x02020202, G / 4);
	is_res(cuMemsetD32(vm, 0xabcdabcd, G / 4), CUDA_SUCCESS,
	       "a memset through the mapping");
	ok(word_at(va0 + 4096) == 0xabcdabcd && word_at(va1 + G - 4) == 0xabcdabcd,
	   "... reaches gpu0's and gpu1's bound memory");
	cuMemcpyHtoD(vm + 8, &v, 4);
	ok(word_at(va0 + 8) == v && word_at(va1 + 8) == v,
	   "a copy through the mapping reaches both");
	is_int(word_at(vm + 8), v, "a read through it reads what was stored");
	is_res(cuMulticastUnbind(mc, 2, 0, G), CUDA_ERROR_INVALID_DEVICE,
	       "unbind: a device outside the team is refused");
	is_res(cuMulticastUnbind(mc, 0, 0, 2 * G), CUDA_ERROR_INVALID_VALUE,
	       "unbind: a range that was not bound is refused");
	is_res(cuMulticastUnbind(mc, 0, 4096, G), CUDA_ERROR_INVALID_VALUE,
	       "unbind: an offset off the granularity is refused");
	is_res(cuMulticastUnbind(mc, 0, 0, G), CUDA_SUCCESS, "gpu0 unbinds");
	is_res(cuMulticastUnbind(mc, 0, 0, G), CUDA_ERROR_INVALID_VALUE,
	       "... once");
	cuMemsetD32(vm, 0x12121212, G / 4);
	ok(word_at(va0 + 4096) == 0xabcdabcd && word_at(va1 + 4096) == 0x12121212,
	   "a store after it reaches gpu1 only");
	cuMemUnmap(vm, 2 * G);
	cuMemAddressFree(vm, 2 * G);
}

static void multicast(void)
{
	CUmulticastObjectProp mp = {
		.numDevices = 2, .size = 2 * G,
		.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
	};
	CUmemGenericAllocationHandle mc = 0, h0, h1;
	CUdeviceptr va0, va1;
	CUresult r0, r1;

	granularity(&mp);
	create_refusals(&mp);
	is_res(cuMulticastCreate(&mc, &mp), CUDA_SUCCESS,
	       "a team of two, 4 MiB a device");
	team(mc);
	h0 = phys(0, 2 * G, 1);
	h1 = phys(1, 2 * G, 1);
	bind_refusals(mc, h0);
	is_res(cuMulticastBindMem(mc, 0, h0, G, G, 0), CUDA_SUCCESS,
	       "gpu0 binds its memory's second 2 MiB");
	is_res(cuMulticastBindMem(mc, 0, h0, 0, G, 0), CUDA_ERROR_INVALID_VALUE,
	       "... and nothing more at that offset");
	va0 = map_rw(h0, 2 * G, &r0);
	va1 = map_rw(h1, 2 * G, &r1);
	ok(!r0 && !r1, "both memories map");
	is_res(cuMulticastBindAddr(mc, 0, va1 + 4096, G, 0),
	       CUDA_ERROR_INVALID_VALUE, "bind by an unaligned address is refused");
	is_res(cuMulticastBindAddr(mc, 0, va1, G, 0), CUDA_SUCCESS,
	       "gpu1 binds by address");
	cuMemRelease(h0);
	cuMemRelease(h1);
	stores(mc, va0 + G, va1);
	is_res(cuMemRelease(mc), CUDA_SUCCESS,
	       "the object is released with memory still bound");
	is_res(cuMulticastAddDevice(mc, 2), CUDA_ERROR_INVALID_VALUE,
	       "... and is gone");
	is_int(word_at(va1), 0x12121212, "the bound memory outlives it");
	cuMemUnmap(va0, 2 * G);
	cuMemUnmap(va1, 2 * G);
	cuMemAddressFree(va0, 2 * G);
	cuMemAddressFree(va1, 2 * G);
}

/* ------------------------------------------------------------ one GPU */

static int single(void)
{
	CUmulticastObjectProp mp = { .numDevices = 1, .size = G };
	CUmemGenericAllocationHandle h;
	size_t g;
	int v = -1;

	cuInit(0);
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, 0);
	printf("supported %d\n", v);
	printf("gran %d\n", (int)cuMulticastGetGranularity(&g, &mp, 0));
	printf("gran_null %d\n", (int)cuMulticastGetGranularity(NULL, NULL, 0));
	printf("create %d\n", (int)cuMulticastCreate(&h, &mp));
	printf("create_null %d\n", (int)cuMulticastCreate(NULL, NULL));
	printf("add %d\n", (int)cuMulticastAddDevice(1, 0));
	printf("bind %d\n", (int)cuMulticastBindMem(1, 0, 2, 0, G, 0));
	printf("bindaddr %d\n", (int)cuMulticastBindAddr(1, 0, 0, G, 0));
	printf("unbind %d\n", (int)cuMulticastUnbind(1, 0, 0, G));
	return 0;
}

static void one_gpu(void)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	const char *base = getenv("CUEMU_MACHINE");
	char topo[256], out[256], te[300], me[300];
	char *env[] = { te, me, "CUEMU_CONTROL=0", NULL };
	FILE *f;

	snprintf(topo, sizeof topo, "%s/cuemu-mc-%d.json", tmp, (int)getpid());
	snprintf(out, sizeof out, "%s/cuemu-mc-%d.out", tmp, (int)getpid());
	snprintf(te, sizeof te, "CUEMU_TOPOLOGY=%s", topo);
	snprintf(me, sizeof me, "CUEMU_MACHINE=%s-one",
		 base && *base ? base : "cuemu-mctest");
	if (!(f = fopen(topo, "w"))) {
		ok(0, "a topology of one GPU");
		return;
	}
	fputs("{ \"name\": \"one\", \"device_count\": 1, \"devices\": [ {\n"
	      "  \"name\": \"One GPU\", \"memory\": \"4G\",\n"
	      "  \"attributes\": { \"multicast_supported\": 0 } } ] }\n", f);
	fclose(f);
	is_int(run_self("single", env, out, NULL, 30), 0,
	       "a machine of one GPU without multicast runs");
#define V(k) child_value(out, k, -1)
	is_int(V("supported"), 0, "it answers MULTICAST_SUPPORTED 0");
	is_int(V("gran"), CUDA_ERROR_NOT_SUPPORTED, "granularity: NOT_SUPPORTED");
	is_int(V("gran_null"), CUDA_ERROR_NOT_SUPPORTED,
	       "... before the arguments are looked at");
	is_int(V("create"), CUDA_ERROR_NOT_SUPPORTED, "create: NOT_SUPPORTED");
	is_int(V("create_null"), CUDA_ERROR_NOT_SUPPORTED, "... NULL or not");
	is_int(V("add"), CUDA_ERROR_NOT_SUPPORTED, "add: NOT_SUPPORTED");
	is_int(V("bind"), CUDA_ERROR_NOT_SUPPORTED, "bind: NOT_SUPPORTED");
	is_int(V("bindaddr"), CUDA_ERROR_NOT_SUPPORTED, "bind by address: NOT_SUPPORTED");
	is_int(V("unbind"), CUDA_ERROR_NOT_SUPPORTED, "unbind: NOT_SUPPORTED");
#undef V
	unlink(topo);
	unlink(out);
}

/* ------------------------------------------------------------ dma-buf */

/* What an importer does with a dma-buf of the emulator: maps it at its
 * file position (0 for a udmabuf, the range's offset in the memory file
 * otherwise); stores on either side are the device's bytes. */
static void dmabuf_maps(const char *what, CUdeviceptr d, int fd)
{
	off_t at = lseek(fd, 0, SEEK_CUR);
	uint32_t *p = at < 0 ? MAP_FAILED :
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, at);
	uint32_t back = 0;

	ok(p != MAP_FAILED && p[0] == 0x5a5a5a5a && p[1023] == 0x5a5a5a5a,
	   "dma-buf of %s: mapped at its file position, the device's bytes",
	   what);
	if (p == MAP_FAILED)
		return;
	p[7] = 0x01020304;
	cuMemcpyDtoH(&back, d + 28, 4);
	is_int(back, 0x01020304, "dma-buf of %s: a store through it is the "
	       "device's", what);
	munmap(p, 4096);
}

/* A mapping of cuMemCreate memory, shared the same way. */
static void dmabuf_vmm(void)
{
	CUmemGenericAllocationHandle h = phys(0, G, CU_MEM_HANDLE_TYPE_NONE);
	CUmemAccessDesc ad = { { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
			       CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
	CUdeviceptr va = 0;
	int fd = -1;

	if (!h || cuMemAddressReserve(&va, G, 0, 0, 0) ||
	    cuMemMap(va, G, 0, h, 0) || cuMemSetAccess(va, G, &ad, 1)) {
		ok(0, "a VMM mapping for a dma-buf");
		goto out;
	}
	cuMemsetD32(va + 8192, 0x5a5a5a5a, 1024);
	is_res(cuMemGetHandleForAddressRange(&fd, va + 8192, 4096,
	       CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0), CUDA_SUCCESS,
	       "dma-buf: a VMM mapping has one");
	if (fd >= 0) {
		dmabuf_maps("a VMM mapping", va + 8192, fd);
		close(fd);
	}
	cuMemUnmap(va, G);
out:
	if (va)
		cuMemAddressFree(va, G);
	if (h)
		cuMemRelease(h);
}

static void dmabuf(void)
{
	CUdeviceptr d = 0, m = 0;
	void *host = NULL;
	int fd = -1, v = -1;
	CUresult r;

	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, 0);
	is_int(v, 1, "DMA_BUF_SUPPORTED, as the real H200 says");
	cuMemAlloc(&d, 4 * G);
	cuMemAllocManaged(&m, G, CU_MEM_ATTACH_GLOBAL);
	cuMemAllocHost(&host, G);
	is_res(cuMemGetHandleForAddressRange(NULL, d, 4096,
	       CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0), CUDA_ERROR_INVALID_VALUE,
	       "dma-buf: a NULL handle is refused");
	is_res(cuMemGetHandleForAddressRange(&fd, d, 4096, 2, 0),
	       CUDA_ERROR_INVALID_VALUE, "dma-buf: handle type 2 is refused");
	is_res(cuMemGetHandleForAddressRange(&fd, d, 4096,
	       CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 1), CUDA_ERROR_NOT_SUPPORTED,
	       "dma-buf: the PCIe mapping type is not supported");
	is_res(cuMemGetHandleForAddressRange(&fd, d, 4096,
	       CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 2), CUDA_ERROR_INVALID_VALUE,
	       "dma-buf: flags 2 are refused");
	is_res(cuMemGetHandleForAddressRange(&fd, d + 1, 4096,
	       CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0), CUDA_ERROR_INVALID_VALUE,
	       "dma-buf: an unaligned address is refused");
	is_res(cuMemGetHandleForAddressRange(&fd, d, 4097,
	       CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0), CUDA_ERROR_INVALID_VALUE,
	       "dma-buf: an unaligned size is refused");
	is_res(cuMemGetHandleForAddressRange(&fd, d, 0,
	       CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0), CUDA_ERROR_INVALID_VALUE,
	       "dma-buf: size 0 is refused");
	is_res(cuMemGetHandleForAddressRange(&fd, d, 8 * G,
	       CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0), CUDA_ERROR_INVALID_VALUE,
	       "dma-buf: a range past the allocation is refused");
	is_res(cuMemGetHandleForAddressRange(&fd, m, G,
	       CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0), CUDA_ERROR_INVALID_VALUE,
	       "dma-buf: managed memory is refused");
	is_res(cuMemGetHandleForAddressRange(&fd, (CUdeviceptr)(uintptr_t)host, G,
	       CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0), CUDA_ERROR_INVALID_VALUE,
	       "dma-buf: pinned memory is refused");
	is_int(fd, -1, "dma-buf: a refused call leaves the handle unwritten");
	cuMemsetD32(d + 4096, 0x5a5a5a5a, 1024);
	r = cuMemGetHandleForAddressRange(&fd, d + 4096, 4096,
					  CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
	is_res(r, CUDA_SUCCESS, "dma-buf: device memory has one");
	if (r == CUDA_SUCCESS) {
		dmabuf_maps("cuMemAlloc memory", d + 4096, fd);
		close(fd);
	}
	cuMemFree(d);
	cuMemFree(m);
	cuMemFreeHost(host);
	dmabuf_vmm();
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);
	CUcontext ctx;
	int v = -1;

	if (role && !strcmp(role, "single"))
		return single();
	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx)) {
		printf("Bail out! no context\n");
		return 1;
	}
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED, 0);
	is_int(v, 1, "the devices support IPC events");
	multicast();
	one_gpu();
	dmabuf();
	return done_testing();
}
