/* The edges the earlier probes left open, asked in one run: SYNC_MEMOPS
 * of managed memory (and whether a set sticks on each kind of memory),
 * cuMemMap at addresses outside any reservation, the ids of two physical
 * handles mapped into one reservation, the host pointer of VMM memory on
 * the host, the flags cuMemHostGetFlags reports for each way of pinning,
 * the multicast granularities (no multicast object is ever created), what
 * a dma-buf of each kind of range is, and the fabric handle type.
 * Lines print equalities and offsets, never addresses. */
#include "common.h"
#include <errno.h>
#include <sys/mman.h>

#define G (2 * MiB)

static CUmemAccessDesc acc(CUmemLocationType t, int id)
{
	CUmemAccessDesc d;
	memset(&d, 0, sizeof d);
	d.location.type = t;
	d.location.id = id;
	d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	return d;
}

static CUresult create(CUmemGenericAllocationHandle *h, size_t size,
		       CUmemLocationType lt, unsigned long long types)
{
	CUmemAllocationProp p;
	memset(&p, 0, sizeof p);
	p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = lt;
	p.location.id = 0;
	p.requestedHandleTypes = (CUmemAllocationHandleType)types;
	*h = 0;
	return cuMemCreate(h, size, &p, 0);
}

/* An attribute as "RESULT w=<bytes written> <value>", the value relative
 * to ref (the queried pointer) where it is an address. */
static void attr(const char *label, CUpointer_attribute a, CUdeviceptr p)
{
	unsigned char buf[16];
	uint64_t v = 0;
	int w = 0;
	memset(buf, 0xa5, sizeof buf);
	CUresult r = cuPointerGetAttribute(buf, a, p);
	for (int i = 0; i < 8; i++)
		if (buf[i] != 0xa5)
			w = i + 1;
	w = w > 4 ? 8 : w ? 4 : 0;
	memcpy(&v, buf, w ? (size_t)w : 0);
	if (a == CU_POINTER_ATTRIBUTE_HOST_POINTER ||
	    a == CU_POINTER_ATTRIBUTE_DEVICE_POINTER)
		P("%s: %s w=%d %s\n", label, en(r), w,
		  !w ? "-" : v == 0 ? "0" : v == p ? "=ptr" : "other");
	else
		P("%s: %s w=%d %llu\n", label, en(r), w, (unsigned long long)v);
}

static uint64_t id_of(CUpointer_attribute a, CUdeviceptr p)
{
	unsigned long long v = 0;
	if (cuPointerGetAttribute(&v, a, p))
		return 0;
	return v;
}

/* ------------------------------------------------------------ SYNC_MEMOPS */

static void sync_set(const char *kind, CUdeviceptr p, unsigned v)
{
	char l[128];
	CUresult r = cuPointerSetAttribute(&v, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, p);
	snprintf(l, sizeof l, "edges.sync.%s.set%u", kind, v);
	P("%s: %s\n", l, en(r));
	snprintf(l, sizeof l, "edges.sync.%s.after_set%u", kind, v);
	attr(l, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, p);
}

static void sync_getattrs(const char *kind, CUdeviceptr p)
{
	CUpointer_attribute a = CU_POINTER_ATTRIBUTE_SYNC_MEMOPS;
	unsigned v = 0xa5a5a5a5u;
	void *data = &v;
	CUresult r = cuPointerGetAttributes(1, &a, &data, p);
	P("edges.sync.%s.getattrs: %s %u\n", kind, en(r), v);
}

static void sync_vmm(void)
{
	CUmemGenericAllocationHandle h;
	CUdeviceptr va = 0;
	CUmemAccessDesc a = acc(CU_MEM_LOCATION_TYPE_DEVICE, 0);

	CK(create(&h, G, CU_MEM_LOCATION_TYPE_DEVICE, 0));
	CK(cuMemAddressReserve(&va, G, 0, 0, 0));
	CK(cuMemMap(va, G, 0, h, 0));
	CK(cuMemSetAccess(va, G, &a, 1));
	attr("edges.sync.vmm.fresh", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, va);
	cuMemUnmap(va, G);
	cuMemAddressFree(va, G);
	cuMemRelease(h);
}

/* Whether asking for P2P tokens (as the documentation says) sets it on
 * memory that started without it. */
static void sync_p2p(void)
{
	CUdeviceptr d = 0;
	CUDA_POINTER_ATTRIBUTE_P2P_TOKENS t;
	unsigned z = 0;

	CK(cuMemAlloc(&d, MiB));
	CK(cuPointerSetAttribute(&z, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
	CUresult r = cuPointerGetAttribute(&t, CU_POINTER_ATTRIBUTE_P2P_TOKENS, d);
	P("edges.sync.p2p.tokens: %s\n", en(r));
	attr("edges.sync.p2p.after_tokens", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d);
	cuMemFree(d);
}

static void sync_memops(void)
{
	CUdeviceptr m = 0, mh = 0, ms = 0, d = 0, pd = 0, pool = 0;
	void *h = NULL, *reg = NULL;
	CUstream s;

	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuMemAllocManaged(&m, G, CU_MEM_ATTACH_GLOBAL));
	CK(cuMemAllocManaged(&mh, G, CU_MEM_ATTACH_HOST));
	CK(cuMemAllocManaged(&ms, 4096, CU_MEM_ATTACH_GLOBAL));
	CK(cuMemAlloc(&d, MiB));
	CK(cuMemAllocHost(&h, MiB));
	reg = aligned_alloc(4096, MiB);
	CK(cuMemHostRegister(reg, MiB, 0));
	CK(cuMemAllocAsync(&pool, MiB, s));
	CK(cuStreamSynchronize(s));
	(void)pd;

	/* every kind before anything asked its P2P tokens or set it */
	attr("edges.sync.device.fresh", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d);
	attr("edges.sync.pinned.fresh", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)(uintptr_t)h);
	attr("edges.sync.registered.fresh", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)(uintptr_t)reg);
	attr("edges.sync.pool.fresh", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, pool);
	sync_vmm();
	attr("edges.sync.managed.fresh", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, m);
	attr("edges.sync.managed.interior", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, m + 4096);
	sync_getattrs("managed", m);
	attr("edges.sync.managed_host.fresh", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, mh);
	sync_getattrs("managed_host", mh);
	attr("edges.sync.managed_small.fresh", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, ms);
	/* a CPU touch and a prefetch to the GPU */
	memset((void *)(uintptr_t)m, 1, 4096);
	attr("edges.sync.managed.after_cpu_touch", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, m);
	CUmemLocation loc = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUresult r = cuMemPrefetchAsync(m, G, loc, 0, s);
	cuStreamSynchronize(s);
	P("edges.sync.managed.prefetch: %s\n", en(r));
	attr("edges.sync.managed.after_prefetch", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, m);
	sync_set("managed", m, 0);
	sync_getattrs("managed_after_set0", m);
	sync_set("managed", m, 1);
	sync_set("managed_host", mh, 0);
	sync_set("device", d, 0);
	attr("edges.sync.device.interior_after_set0", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d + 4096);
	sync_set("device", d, 1);
	sync_set("pinned", (CUdeviceptr)(uintptr_t)h, 1);
	sync_set("pinned", (CUdeviceptr)(uintptr_t)h, 0);
	sync_set("registered", (CUdeviceptr)(uintptr_t)reg, 1);
	sync_set("pool", pool, 0);
	/* the set value on an interior pointer reaches the whole allocation */
	sync_set("device_interior", d + 4096, 0);
	attr("edges.sync.device_interior.base_after_set0", CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d);

	cuMemFreeAsync(pool, s);
	cuStreamSynchronize(s);
	cuMemHostUnregister(reg);
	free(reg);
	cuMemFreeHost(h);
	cuMemFree(d);
	cuMemFree(ms);
	cuMemFree(mh);
	cuMemFree(m);
	cuStreamDestroy(s);
	sync_p2p();
}

/* ------------------------------------------------------------ cuMemMap */

static void map_at(const char *label, CUdeviceptr va, CUmemGenericAllocationHandle h)
{
	CUresult r = cuMemMap(va, G, 0, h, 0);
	P("edges.map_outside.%s: %s\n", label, en(r));
	if (r == CUDA_SUCCESS) {
		CUmemAccessDesc a = acc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
		P("edges.map_outside.%s.setaccess: %s\n", label, en(cuMemSetAccess(va, G, &a, 1)));
		char l[96];
		snprintf(l, sizeof l, "edges.map_outside.%s.MEMORY_TYPE", label);
		attr(l, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, va);
		P("edges.map_outside.%s.unmap: %s\n", label, en(cuMemUnmap(va, G)));
	}
}

static void map_outside(void)
{
	CUmemGenericAllocationHandle h;
	CUdeviceptr va = 0, last = 0, m = 0;

	CK(create(&h, G, CU_MEM_LOCATION_TYPE_DEVICE, 0));
	/* a freed reservation's address */
	CK(cuMemAddressReserve(&va, 32 * G, 0, 0, 0));
	CK(cuMemAddressFree(va, 32 * G));
	map_at("freed_reservation", va, h);
	map_at("freed_reservation_middle", va + 8 * G, h);
	/* far past the newest reservation */
	CK(cuMemAddressReserve(&last, G, 0, 0, 0));
	map_at("past_newest_64G", last + 32768 * G, h);
	/* the granule just past a live reservation */
	map_at("just_past_live_reservation", last + G, h);
	cuMemAddressFree(last, G);
	map_at("null", 0, h);
	CK(cuMemAllocManaged(&m, 2 * G, CU_MEM_ATTACH_GLOBAL));
	map_at("managed", (m + G - 1) & ~(G - 1), h);
	cuMemFree(m);
	CK(cuMemRelease(h));
}

/* ------------------------------------------------------------ ids */

static void ids(void)
{
	CUmemGenericAllocationHandle h1, h2;
	CUdeviceptr va = 0, vb = 0;
	CUmemAccessDesc a = acc(CU_MEM_LOCATION_TYPE_DEVICE, 0);

	CK(create(&h1, G, CU_MEM_LOCATION_TYPE_DEVICE, 0));
	CK(create(&h2, G, CU_MEM_LOCATION_TYPE_DEVICE, 0));
	CK(cuMemAddressReserve(&va, 4 * G, 0, 0, 0));
	CK(cuMemMap(va, G, 0, h1, 0));
	CK(cuMemMap(va + G, G, 0, h2, 0));
	CK(cuMemSetAccess(va, 2 * G, &a, 1));
	uint64_t b1 = id_of(CU_POINTER_ATTRIBUTE_BUFFER_ID, va);
	uint64_t b2 = id_of(CU_POINTER_ATTRIBUTE_BUFFER_ID, va + G);
	uint64_t k1 = id_of(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va);
	uint64_t k2 = id_of(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va + G);
	P("edges.ids.two_handles: buffer_nonzero=%s buffer_same=%s block_same=%s\n",
	  b1 && b2 ? "yes" : "no", b1 == b2 ? "yes" : "no", k1 == k2 ? "yes" : "no");
	P("edges.ids.two_handles.interior: buffer_same_as_base=%s\n",
	  id_of(CU_POINTER_ATTRIBUTE_BUFFER_ID, va + G + 4096) == b2 ? "yes" : "no");
	attr("edges.ids.two_handles.second.RANGE_SIZE", CU_POINTER_ATTRIBUTE_RANGE_SIZE, va + G);
	P("edges.ids.two_handles.second.RANGE_START: %s\n",
	  id_of(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, va + G) == va ? "reservation" : "other");
	attr("edges.ids.two_handles.second.MAPPING_SIZE", CU_POINTER_ATTRIBUTE_MAPPING_SIZE, va + G);
	P("edges.ids.two_handles.second.MAPPING_BASE: %s\n",
	  id_of(CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, va + G) == va + G ? "mapping" : "other");
	{
		CUpointer_attribute at[2] = { CU_POINTER_ATTRIBUTE_BUFFER_ID,
					      CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID };
		unsigned long long x[2] = { 0, 0 };
		void *data[2] = { &x[0], &x[1] };
		CUresult r = cuPointerGetAttributes(2, at, data, va + G);
		P("edges.ids.two_handles.getattrs: %s buffer_same_as_get=%s block_same_as_get=%s\n",
		  en(r), x[0] == b2 ? "yes" : "no", x[1] == k2 ? "yes" : "no");
	}
	/* a third mapping of the first handle in the same reservation */
	CK(cuMemMap(va + 2 * G, G, 0, h1, 0));
	CK(cuMemSetAccess(va + 2 * G, G, &a, 1));
	uint64_t b3 = id_of(CU_POINTER_ATTRIBUTE_BUFFER_ID, va + 2 * G);
	P("edges.ids.h1_again: buffer_same_as_h1=%s buffer_same_as_h2=%s block_same_as_h1=%s\n",
	  b3 == b1 ? "yes" : "no", b3 == b2 ? "yes" : "no",
	  id_of(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va + 2 * G) == k1 ? "yes" : "no");
	/* remapped at the same place: a new buffer? */
	CK(cuMemUnmap(va + G, G));
	CK(cuMemMap(va + G, G, 0, h2, 0));
	CK(cuMemSetAccess(va + G, G, &a, 1));
	uint64_t b4 = id_of(CU_POINTER_ATTRIBUTE_BUFFER_ID, va + G);
	P("edges.ids.h2_remapped: buffer_same_as_before=%s block_same_as_before=%s\n",
	  b4 == b2 ? "yes" : "no",
	  id_of(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va + G) == k2 ? "yes" : "no");
	/* the second handle in another reservation */
	CK(cuMemAddressReserve(&vb, G, 0, 0, 0));
	CK(cuMemMap(vb, G, 0, h2, 0));
	CK(cuMemSetAccess(vb, G, &a, 1));
	P("edges.ids.h2_other_reservation: buffer_same=%s block_same=%s\n",
	  id_of(CU_POINTER_ATTRIBUTE_BUFFER_ID, vb) == b4 ? "yes" : "no",
	  id_of(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, vb) == k2 ? "yes" : "no");
	cuMemUnmap(vb, G);
	cuMemAddressFree(vb, G);
	cuMemUnmap(va, 3 * G);
	cuMemAddressFree(va, 4 * G);
	cuMemRelease(h1);
	cuMemRelease(h2);
}

/* ------------------------------------------------------------ host VMM */

static void host_ptr_kind(const char *name, CUmemLocationType lt)
{
	CUmemGenericAllocationHandle h;
	CUdeviceptr va = 0;
	char l[128];
	CUresult r = create(&h, G, lt, 0);

	P("edges.hostvmm.%s.create: %s\n", name, en(r));
	if (r)
		return;
	CK(cuMemAddressReserve(&va, G, 0, 0, 0));
	CK(cuMemMap(va, G, 0, h, 0));
	CUmemAccessDesc d = acc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	CK(cuMemSetAccess(va, G, &d, 1));
	snprintf(l, sizeof l, "edges.hostvmm.%s.device_access.HOST_POINTER", name);
	attr(l, CU_POINTER_ATTRIBUTE_HOST_POINTER, va);
	snprintf(l, sizeof l, "edges.hostvmm.%s.device_access.interior.HOST_POINTER", name);
	attr(l, CU_POINTER_ATTRIBUTE_HOST_POINTER, va + 4096);
	snprintf(l, sizeof l, "edges.hostvmm.%s.device_access.MEMORY_TYPE", name);
	attr(l, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, va);
	{
		CUpointer_attribute a = CU_POINTER_ATTRIBUTE_HOST_POINTER;
		uint64_t v = 0xa5a5a5a5a5a5a5a5ull;
		void *data = &v;
		r = cuPointerGetAttributes(1, &a, &data, va);
		P("edges.hostvmm.%s.device_access.getattrs.HOST_POINTER: %s %s\n", name, en(r),
		  v == 0 ? "0" : v == va ? "=ptr" : "other");
	}
	CUmemAccessDesc hd = acc(lt == CU_MEM_LOCATION_TYPE_HOST_NUMA ?
				 CU_MEM_LOCATION_TYPE_HOST_NUMA : CU_MEM_LOCATION_TYPE_HOST, 0);
	r = cuMemSetAccess(va, G, &hd, 1);
	P("edges.hostvmm.%s.host_access: %s\n", name, en(r));
	snprintf(l, sizeof l, "edges.hostvmm.%s.host_access.HOST_POINTER", name);
	attr(l, CU_POINTER_ATTRIBUTE_HOST_POINTER, va);
	snprintf(l, sizeof l, "edges.hostvmm.%s.host_access.DEVICE_POINTER", name);
	attr(l, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, va);
	snprintf(l, sizeof l, "edges.hostvmm.%s.host_access.ACCESS_FLAGS", name);
	attr(l, CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, va);
	cuMemUnmap(va, G);
	cuMemAddressFree(va, G);
	cuMemRelease(h);
}

static void host_vmm(void)
{
	host_ptr_kind("host", CU_MEM_LOCATION_TYPE_HOST);
	host_ptr_kind("host_numa", CU_MEM_LOCATION_TYPE_HOST_NUMA);
	{
		CUmemGenericAllocationHandle h;
		CUdeviceptr va = 0;
		CK(create(&h, G, CU_MEM_LOCATION_TYPE_DEVICE, 0));
		CK(cuMemAddressReserve(&va, G, 0, 0, 0));
		CK(cuMemMap(va, G, 0, h, 0));
		CUmemAccessDesc d = acc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
		CK(cuMemSetAccess(va, G, &d, 1));
		attr("edges.hostvmm.device.HOST_POINTER", CU_POINTER_ATTRIBUTE_HOST_POINTER, va);
		cuMemUnmap(va, G);
		cuMemAddressFree(va, G);
		cuMemRelease(h);
	}
}

/* ------------------------------------------------------------ host flags */

static void flags_of(const char *label, void *p)
{
	unsigned f = 0xa5a5a5a5u;
	CUresult r = cuMemHostGetFlags(&f, p);
	P("edges.hostflags.%s: %s %#x\n", label, en(r), f);
}

static void host_flags(void)
{
	static const struct { const char *n; unsigned f; } ha[] = {
		{ "hostalloc_0", 0 },
		{ "hostalloc_portable", CU_MEMHOSTALLOC_PORTABLE },
		{ "hostalloc_devicemap", CU_MEMHOSTALLOC_DEVICEMAP },
		{ "hostalloc_writecombined", CU_MEMHOSTALLOC_WRITECOMBINED },
		{ "hostalloc_all", CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |
				   CU_MEMHOSTALLOC_WRITECOMBINED },
	};
	static const struct { const char *n; unsigned f; } rg[] = {
		{ "register_0", 0 },
		{ "register_portable", CU_MEMHOSTREGISTER_PORTABLE },
		{ "register_devicemap", CU_MEMHOSTREGISTER_DEVICEMAP },
		{ "register_read_only", CU_MEMHOSTREGISTER_READ_ONLY },
	};
	void *h = NULL;
	char l[96];

	CK(cuMemAllocHost(&h, MiB));
	flags_of("allochost", h);
	flags_of("allochost_interior", (char *)h + 4096);
	flags_of("allochost_last_byte", (char *)h + MiB - 1);
	cuMemFreeHost(h);
	flags_of("allochost_freed", h);
	for (size_t i = 0; i < sizeof ha / sizeof ha[0]; i++) {
		CUresult r = cuMemHostAlloc(&h, MiB, ha[i].f);
		if (r) {
			P("edges.hostflags.%s: alloc %s\n", ha[i].n, en(r));
			continue;
		}
		flags_of(ha[i].n, h);
		cuMemFreeHost(h);
	}
	for (size_t i = 0; i < sizeof rg / sizeof rg[0]; i++) {
		void *m = aligned_alloc(4096, MiB);
		CUresult r = cuMemHostRegister(m, MiB, rg[i].f);
		if (r) {
			P("edges.hostflags.%s: register %s\n", rg[i].n, en(r));
		} else {
			flags_of(rg[i].n, m);
			snprintf(l, sizeof l, "%s_interior", rg[i].n);
			flags_of(l, (char *)m + 4096);
			cuMemHostUnregister(m);
		}
		free(m);
	}
	{
		void *m = malloc(4096);
		flags_of("malloc", m);
		free(m);
		CUdeviceptr d = 0, mg = 0;
		CK(cuMemAlloc(&d, MiB));
		flags_of("device", (void *)(uintptr_t)d);
		cuMemFree(d);
		CK(cuMemAllocManaged(&mg, MiB, CU_MEM_ATTACH_GLOBAL));
		flags_of("managed", (void *)(uintptr_t)mg);
		cuMemFree(mg);
		CK(cuMemAllocHost(&h, MiB));
		CUresult r = cuMemHostGetFlags(NULL, h);
		P("edges.hostflags.null_flags: %s\n", en(r));
		cuMemFreeHost(h);
	}
}

/* ------------------------------------------------------------ multicast */

static void mc_one(const char *label, unsigned ndev, size_t size,
		   unsigned long long types, int option)
{
	CUmulticastObjectProp mp;
	size_t g = 0xa5a5a5a5ull;
	memset(&mp, 0, sizeof mp);
	mp.numDevices = ndev;
	mp.size = size;
	mp.handleTypes = types;
	CUresult r = cuMulticastGetGranularity(&g, &mp, (CUmulticastGranularity_flags)option);
	P("edges.mcgran.%s: %s %zu\n", label, en(r), r ? (size_t)0 : g);
}

static void multicast_granularity(void)
{
	int v = -1;
	CUresult r = cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, 0);
	P("edges.mcgran.supported: %s %d\n", en(r), v);
	for (int opt = 0; opt < 2; opt++) {
		const char *o = opt ? "recommended" : "minimum";
		char l[96];
		snprintf(l, sizeof l, "ndev1.%s", o);
		mc_one(l, 1, G, 0, opt);
		snprintf(l, sizeof l, "ndev2.%s", o);
		mc_one(l, 2, G, 0, opt);
		snprintf(l, sizeof l, "ndev0.%s", o);
		mc_one(l, 0, G, 0, opt);
		snprintf(l, sizeof l, "size1.%s", o);
		mc_one(l, 1, 1, 0, opt);
		snprintf(l, sizeof l, "size0.%s", o);
		mc_one(l, 1, 0, 0, opt);
		snprintf(l, sizeof l, "posix_fd.%s", o);
		mc_one(l, 1, G, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, opt);
		snprintf(l, sizeof l, "size_1G.%s", o);
		mc_one(l, 1, 512 * G, 0, opt);
	}
}

/* ------------------------------------------------------------ dma-buf */

static void dmabuf_one(const char *label, CUdeviceptr p, size_t size)
{
	int fd = -1;
	CUresult r = cuMemGetHandleForAddressRange(&fd, p, size,
						   CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
	if (r != CUDA_SUCCESS || fd < 0) {
		P("edges.dmabuf.%s: %s\n", label, en(r));
		return;
	}
	char link[64], tgt[128] = "";
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, tgt, sizeof tgt - 1);
	tgt[n > 0 ? n : 0] = 0;
	char *colon = strchr(tgt, ':');
	if (colon)
		colon[1] = 0;
	off_t end = lseek(fd, 0, SEEK_END);
	P("edges.dmabuf.%s: %s kind=%s size=%lld\n", label, en(r), tgt,
	  (long long)end);
	close(fd);
}

static void dmabuf(void)
{
	CUdeviceptr d = 0, s1 = 0, s2 = 0, odd = 0;
	int v = -1;

	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, 0);
	P("edges.dmabuf.supported: %d\n", v);
	CK(cuMemAlloc(&d, 2 * G));
	CK(cuMemAlloc(&s1, 1000));
	CK(cuMemAlloc(&s2, 1000));
	CK(cuMemAlloc(&odd, MiB + 1));
	P("edges.dmabuf.packed_second_offset: %lld\n", (long long)(s2 - s1));
	dmabuf_one("device_2m", d, G);
	dmabuf_one("device_ptr_plus1", d + 1, 4096);
	dmabuf_one("device_ptr_plus512", d + 512, 4096);
	dmabuf_one("device_size_4097", d, 4097);
	dmabuf_one("device_size_1000", d, 1000);
	dmabuf_one("device_ptr_plus1_size1", d + 1, 1);
	dmabuf_one("small_first_whole", s1, 1000);
	dmabuf_one("small_second_whole", s2, 1000);
	dmabuf_one("small_second_page", s2, 4096);
	dmabuf_one("odd_whole", odd, MiB + 1);
	dmabuf_one("odd_rounded", odd, MiB + 4096);
	dmabuf_one("device_cross_end", d + 2 * G - 4096, 8192);
	cuMemFree(odd);
	cuMemFree(s2);
	cuMemFree(s1);
	cuMemFree(d);
}

/* ------------------------------------------------------------ fabric */

static void fabric(void)
{
	int v = -1;
	CUresult r;
	CUmemGenericAllocationHandle h = 0;

	r = cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, 0);
	P("edges.fabric.attr: %s %d\n", en(r), v);
	P("edges.fabric.imex_channel0: %s\n",
	  access("/dev/nvidia-caps-imex-channels/channel0", F_OK) ? "absent" : "present");
	{
		CUmemAllocationProp p;
		size_t g = 0;
		memset(&p, 0, sizeof p);
		p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
		p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
		p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_FABRIC;
		r = cuMemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
		P("edges.fabric.granularity: %s %zu\n", en(r), g);
	}
	r = create(&h, G, CU_MEM_LOCATION_TYPE_DEVICE, CU_MEM_HANDLE_TYPE_FABRIC);
	P("edges.fabric.create: %s\n", en(r));
	if (!r)
		cuMemRelease(h);
	r = create(&h, G, CU_MEM_LOCATION_TYPE_DEVICE,
		   CU_MEM_HANDLE_TYPE_FABRIC | CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	P("edges.fabric.create_with_posix_fd: %s\n", en(r));
	if (!r)
		cuMemRelease(h);
	r = create(&h, G, CU_MEM_LOCATION_TYPE_HOST, CU_MEM_HANDLE_TYPE_FABRIC);
	P("edges.fabric.create_host: %s\n", en(r));
	if (!r)
		cuMemRelease(h);
	CK(create(&h, G, CU_MEM_LOCATION_TYPE_DEVICE, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	{
		CUmemFabricHandle fh;
		memset(&fh, 0, sizeof fh);
		r = cuMemExportToShareableHandle(&fh, h, CU_MEM_HANDLE_TYPE_FABRIC, 0);
		P("edges.fabric.export_posix_handle: %s\n", en(r));
	}
	cuMemRelease(h);
	{
		CUmemPoolProps pp;
		CUmemoryPool pool = NULL;
		memset(&pp, 0, sizeof pp);
		pp.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
		pp.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
		pp.handleTypes = CU_MEM_HANDLE_TYPE_FABRIC;
		r = cuMemPoolCreate(&pool, &pp);
		P("edges.fabric.pool_create: %s\n", en(r));
		if (!r) {
			CUdeviceptr d = 0;
			CUstream s;
			CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
			r = cuMemAllocFromPoolAsync(&d, MiB, pool, s);
			CUresult sr = cuStreamSynchronize(s);
			P("edges.fabric.pool_alloc: %s sync=%s\n", en(r), en(sr));
			CUmemFabricHandle fh;
			r = cuMemPoolExportToShareableHandle(&fh, pool, CU_MEM_HANDLE_TYPE_FABRIC, 0);
			P("edges.fabric.pool_export: %s\n", en(r));
			if (d) {
				CASE("edges.fabric.pool_free");
				r = cuMemFreeAsync(d, s);
				sr = cuStreamSynchronize(s);
				P("edges.fabric.pool_free: %s sync=%s\n", en(r), en(sr));
			}
			CASE("edges.fabric.stream_destroy");
			cuStreamDestroy(s);
			CASE("edges.fabric.pool_destroy");
			r = cuMemPoolDestroy(pool);
			P("edges.fabric.pool_destroy: %s\n", en(r));
		}
	}
}

int main(void)
{
	setup("edges");
	sync_memops();
	map_outside();
	ids();
	host_vmm();
	host_flags();
	multicast_granularity();
	dmabuf();
	fabric();
	CASE("edges.teardown");
	teardown("edges");
	return 0;
}
