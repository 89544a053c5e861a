/* Sharing device memory: legacy IPC of memory and events between two
 * processes (the second is this program run again with a role), what an
 * importer sees when the exporter frees or exits, multicast objects on one
 * GPU, dma-buf handles of address ranges, the attributes that announce
 * them, and the latency of the bench rows (median of 200). */
#include "common.h"
#include <time.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <errno.h>

static int g_in = -1, g_out = -1; /* pipe ends to the other process */
static int g_child;                /* this process runs a role */
static sigjmp_buf g_fam;           /* where the parent goes when its peer dies */

static void put(const void *p, size_t n)
{
	if (write(g_out, p, n) != (ssize_t)n) {
		if (g_child)
			exit(2);
		P("share.peer_gone: EPIPE\n");
		siglongjmp(g_fam, 1);
	}
}
static void get(void *p, size_t n)
{
	size_t k = 0;
	while (k < n) {
		ssize_t r = read(g_in, (char *)p + k, n - k);
		if (r <= 0) {
			if (g_child)
				exit(2);
			P("share.peer_gone: EOF\n");
			siglongjmp(g_fam, 1);
		}
		k += (size_t)r;
	}
}
static void ack(void) { char c = 'k'; put(&c, 1); }
static void wait_ack(void) { char c; get(&c, 1); }

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}
static int cmpu(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}
static uint64_t median(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmpu);
	return v[n / 2];
}

static void word(const char *label, CUdeviceptr p)
{
	uint32_t v = 0;
	CUresult r = cuMemcpyDtoH(&v, p, 4);
	P("%s: %s value=%08x\n", label, en(r), v);
}

/* Starts this program again as role, with two pipes to it. */
static pid_t spawn(const char *role)
{
	int a[2], b[2];
	pid_t pid;
	char in[16], out[16];

	if (pipe(a) || pipe(b))
		exit(2);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		snprintf(in, sizeof in, "%d", a[0]);
		snprintf(out, sizeof out, "%d", b[1]);
		close(a[1]);
		close(b[0]);
		execl("/proc/self/exe", "share", role, in, out, (char *)NULL);
		_exit(127);
	}
	close(a[0]);
	close(b[1]);
	g_out = a[1];
	g_in = b[0];
	return pid;
}

static void reap(pid_t pid, const char *label)
{
	int st = 0;
	close(g_in);
	close(g_out);
	waitpid(pid, &st, 0);
	P("%s: exit=%d\n", label, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

static unsigned long long attr_u(CUpointer_attribute a, CUdeviceptr p, CUresult *r)
{
	unsigned long long v = 0;
	*r = cuPointerGetAttribute(&v, a, p);
	return v;
}

/* ------------------------------------------------------------ IPC memory */

struct msg {
	CUipcMemHandle h;
	CUdeviceptr addr;
	unsigned long long id;
};

/* The importer of the exporter's allocation (role "imp"). */
static void importer(void)
{
	struct msg m;
	CUdeviceptr p = 0, p2 = 0, q = 0, base = 0;
	size_t size = 0;
	CUresult r;
	unsigned long long v;

	get(&m, sizeof m);
	CASE("imp.open");
	r = cuIpcOpenMemHandle(&p, m.h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
	P("share.ipc.imp.open: %s\n", en(r));
	r = cuIpcOpenMemHandle(&p2, m.h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
	P("share.ipc.imp.open_twice: %s same_ptr=%s\n", en(r), p == p2 ? "yes" : "no");
	P("share.ipc.imp.same_addr_as_exporter: %s\n", p == m.addr ? "yes" : "no");
	word("share.ipc.imp.read", p);
	word("share.ipc.imp.read_end", p + MiB - 4);
	r = cuMemsetD32(p, 0x22222222, MiB / 4);
	cuCtxSynchronize();
	P("share.ipc.imp.write: %s\n", en(r));
	ack();
	wait_ack();
	v = attr_u(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p, &r);
	P("share.ipc.imp.attr_memtype: %s %llu\n", en(r), v & 0xffffffff);
	v = attr_u(CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, p, &r);
	P("share.ipc.imp.attr_legacy_ipc: %s %llu\n", en(r), v & 0xffffffff);
	v = attr_u(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, p, &r);
	P("share.ipc.imp.attr_ordinal: %s %llu\n", en(r), v & 0xffffffff);
	v = attr_u(CU_POINTER_ATTRIBUTE_BUFFER_ID, p, &r);
	P("share.ipc.imp.attr_buffer_id: %s same_as_exporter=%s\n", en(r), v == m.id ? "yes" : "no");
	v = attr_u(CU_POINTER_ATTRIBUTE_IS_MANAGED, p, &r);
	P("share.ipc.imp.attr_managed: %s %llu\n", en(r), v & 0xffffffff);
	v = attr_u(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, p, &r);
	P("share.ipc.imp.attr_sync_memops: %s %llu\n", en(r), v & 0xffffffff);
	{
		CUcontext c = NULL, cur = NULL;
		r = cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, p);
		cuCtxGetCurrent(&cur);
		P("share.ipc.imp.attr_context: %s current=%s\n", en(r), c == cur ? "yes" : "no");
	}
	r = cuMemGetAddressRange(&base, &size, p + 4096);
	P("share.ipc.imp.address_range: %s base_is_ptr=%s size=%zu\n", en(r), base == p ? "yes" : "no", size);
	{
		CUipcMemHandle h2;
		memset(&h2, 0, sizeof h2);
		r = cuIpcGetMemHandle(&h2, p);
		P("share.ipc.imp.reexport: %s same_handle=%s\n", en(r),
		  r == CUDA_SUCCESS && !memcmp(&h2, &m.h, sizeof h2) ? "yes" : "no");
	}
	r = cuIpcOpenMemHandle(&q, m.h, 2);
	P("share.ipc.imp.open_bad_flags: %s\n", en(r));
	r = cuIpcOpenMemHandle(&q, m.h, 3);
	P("share.ipc.imp.open_flags3: %s\n", en(r));
	if (r == CUDA_SUCCESS)
		cuIpcCloseMemHandle(q);
	r = cuIpcOpenMemHandle(&q, m.h, 0);
	P("share.ipc.imp.open_flags0: %s same_ptr=%s\n", en(r), q == p ? "yes" : "no");
	if (r == CUDA_SUCCESS)
		cuIpcCloseMemHandle(q);
	{
		CUipcMemHandle junk;
		memset(&junk, 0x5a, sizeof junk);
		r = cuIpcOpenMemHandle(&q, junk, 1);
		P("share.ipc.imp.open_junk: %s\n", en(r));
		memset(&junk, 0, sizeof junk);
		r = cuIpcOpenMemHandle(&q, junk, 1);
		P("share.ipc.imp.open_zero: %s\n", en(r));
	}
	r = cuIpcOpenMemHandle(NULL, m.h, 1);
	P("share.ipc.imp.open_null: %s\n", en(r));
	r = cuIpcCloseMemHandle(p + 4096);
	P("share.ipc.imp.close_interior: %s\n", en(r));
	r = cuIpcCloseMemHandle(0);
	P("share.ipc.imp.close_null: %s\n", en(r));
	r = cuIpcCloseMemHandle(p);
	P("share.ipc.imp.close1: %s\n", en(r));
	word("share.ipc.imp.read_after_close1", p);
	r = cuIpcCloseMemHandle(p);
	P("share.ipc.imp.close2: %s\n", en(r));
	r = cuIpcCloseMemHandle(p);
	P("share.ipc.imp.close3: %s\n", en(r));
	v = attr_u(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p, &r);
	P("share.ipc.imp.attr_after_close: %s\n", en(r));

	/* latency: open and close, the memory mapped already once */
	{
		uint64_t t[200], t2[200];
		CUdeviceptr keep = 0;
		for (int i = 0; i < 200; i++) {
			uint64_t a = now_ns();
			r = cuIpcOpenMemHandle(&q, m.h, 1);
			uint64_t b = now_ns();
			cuIpcCloseMemHandle(q);
			t[i] = now_ns() - a;
			t2[i] = b - a;
		}
		P("share.ipc.lat.open_close_ns: %llu open_ns=%llu\n",
		  (unsigned long long)median(t, 200), (unsigned long long)median(t2, 200));
		cuIpcOpenMemHandle(&keep, m.h, 1);
		for (int i = 0; i < 200; i++) {
			uint64_t a = now_ns();
			cuIpcOpenMemHandle(&q, m.h, 1);
			cuIpcCloseMemHandle(q);
			t[i] = now_ns() - a;
		}
		P("share.ipc.lat.open_close_while_open_ns: %llu\n", (unsigned long long)median(t, 200));
		cuIpcCloseMemHandle(keep);
	}

	/* the exporter frees while this process has it open */
	r = cuIpcOpenMemHandle(&p, m.h, 1);
	P("share.ipc.imp.reopen: %s\n", en(r));
	ack();     /* exporter frees */
	wait_ack();
	word("share.ipc.imp.read_after_exporter_free", p);
	r = cuMemsetD32(p, 0x66666666, MiB / 4);
	cuCtxSynchronize();
	P("share.ipc.imp.write_after_exporter_free: %s\n", en(r));
	word("share.ipc.imp.read_after_write_after_free", p);
	r = cuIpcOpenMemHandle(&q, m.h, 1);
	P("share.ipc.imp.open_more_after_free: %s same_ptr=%s\n", en(r), q == p ? "yes" : "no");
	if (r == CUDA_SUCCESS)
		cuIpcCloseMemHandle(q);
	ack();     /* exporter allocates again */
	wait_ack();
	word("share.ipc.imp.read_after_exporter_realloc", p);
	r = cuMemFree(p);
	P("share.ipc.imp.memfree_opened: %s\n", en(r));
	r = cuIpcCloseMemHandle(p);
	P("share.ipc.imp.close_after_free: %s\n", en(r));
	r = cuIpcOpenMemHandle(&q, m.h, 1);
	P("share.ipc.imp.open_after_free_closed: %s\n", en(r));
	if (r == CUDA_SUCCESS) {
		word("share.ipc.imp.read_reopened_after_free", q);
		cuIpcCloseMemHandle(q);
	}
	ack();
	/* accounting: a 64 MiB allocation freed by the exporter while open */
	get(&m, sizeof m);
	r = cuIpcOpenMemHandle(&p, m.h, 1);
	P("share.ipc.imp.open_big: %s\n", en(r));
	ack();      /* the exporter frees it */
	wait_ack();
	r = cuIpcCloseMemHandle(p);
	P("share.ipc.imp.close_big: %s\n", en(r));
	ack();
	wait_ack();
	/* a primary context reset with the memory open */
	r = cuIpcOpenMemHandle(&p, m.h, 1);
	P("share.ipc.imp.open_before_reset: %s\n", en(r));
	r = cuDevicePrimaryCtxReset(0);
	P("share.ipc.imp.ctx_reset: %s\n", en(r));
	{
		CUcontext c;
		CK(cuDevicePrimaryCtxRetain(&c, 0));
		CK(cuCtxSetCurrent(c));
	}
	r = cuIpcCloseMemHandle(p);
	P("share.ipc.imp.close_after_reset: %s\n", en(r));
	r = cuIpcOpenMemHandle(&q, m.h, 1);
	P("share.ipc.imp.open_after_reset: %s\n", en(r));
	if (r == CUDA_SUCCESS)
		cuIpcCloseMemHandle(q);
	ack();
}

/* The exporter, this process; its importer runs as role "imp". */
static void ipc_exporter(void)
{
	CUdeviceptr a = 0, b = 0, pin_dev = 0, m2 = 0;
	CUipcMemHandle h, h2, h3;
	struct msg m;
	CUresult r;
	unsigned long long v;
	void *host = NULL;

	CK(cuMemAlloc(&a, MiB));
	CK(cuMemsetD32(a, 0x11111111, MiB / 4));
	CK(cuCtxSynchronize());
	r = cuIpcGetMemHandle(&h, a);
	P("share.ipc.get: %s\n", en(r));
	r = cuIpcGetMemHandle(&h2, a);
	P("share.ipc.get_twice: %s same=%s\n", en(r), memcmp(&h, &h2, sizeof h) ? "no" : "yes");
	r = cuIpcGetMemHandle(&h2, a + MiB);
	P("share.ipc.get_end: %s\n", en(r));
	r = cuIpcGetMemHandle(&h2, 0);
	P("share.ipc.get_zero: %s\n", en(r));
	CK(cuMemAllocPitch(&m2, &(size_t){0}, 1000, 10, 4));
	r = cuIpcGetMemHandle(&h3, m2);
	P("share.ipc.get_pitch: %s\n", en(r));
	v = attr_u(CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, m2, &r);
	P("share.ipc.capable_pitch: %s %llu\n", en(r), v & 0xffffffff);
	cuMemFree(m2);
	CK(cuMemHostAlloc(&host, MiB, CU_MEMHOSTALLOC_DEVICEMAP));
	CK(cuMemHostGetDevicePointer(&pin_dev, host, 0));
	r = cuIpcGetMemHandle(&h2, pin_dev);
	P("share.ipc.get_pinned_devptr: %s\n", en(r));
	cuMemFreeHost(host);
	{
		CUdeviceptr own = 0;
		r = cuIpcOpenMemHandle(&own, h, 0);
		P("share.ipc.open_own_flags0: %s\n", en(r));
		r = cuIpcOpenMemHandle(NULL, h, 1);
		P("share.ipc.open_own_null: %s\n", en(r));
		r = cuIpcOpenMemHandle(&own, h, 3);
		P("share.ipc.open_own_flags3: %s\n", en(r));
		r = cuIpcOpenMemHandle(&own, h, 0xff);
		P("share.ipc.open_own_flagsff: %s\n", en(r));
	}
	r = cuIpcCloseMemHandle(a);
	P("share.ipc.close_own: %s\n", en(r));
	{
		uint64_t t[200];
		for (int i = 0; i < 200; i++) {
			uint64_t s = now_ns();
			cuIpcGetMemHandle(&h2, a);
			t[i] = now_ns() - s;
		}
		P("share.ipc.lat.get_ns: %llu\n", (unsigned long long)median(t, 200));
	}

	pid_t pid = spawn("imp");
	m.h = h;
	m.addr = a;
	m.id = attr_u(CU_POINTER_ATTRIBUTE_BUFFER_ID, a, &r);
	put(&m, sizeof m);
	wait_ack();
	word("share.ipc.exporter_sees_import_write", a);
	ack();
	wait_ack();  /* importer reopened */
	r = cuMemFree(a);
	P("share.ipc.free_while_imported: %s\n", en(r));
	{
		size_t fr = 0, tot = 0;
		cuMemGetInfo(&fr, &tot);
	}
	r = cuIpcGetMemHandle(&h2, a);
	P("share.ipc.get_after_free: %s\n", en(r));
	ack();
	wait_ack();
	CK(cuMemAlloc(&b, MiB));
	CK(cuMemsetD32(b, 0x33333333, MiB / 4));
	CK(cuCtxSynchronize());
	P("share.ipc.realloc_same_addr: %s\n", a == b ? "yes" : "no");
	r = cuIpcGetMemHandle(&h2, b);
	P("share.ipc.realloc_handle: %s same_as_freed=%s\n", en(r), memcmp(&h, &h2, sizeof h) ? "no" : "yes");
	ack();
	wait_ack();
	word("share.ipc.exporter_realloc_untouched", b);
	{
		CUdeviceptr big = 0;
		size_t f0 = 0, f1 = 0, f2 = 0, f3 = 0, tot = 0;

		cuMemGetInfo(&f0, &tot);
		CK(cuMemAlloc(&big, 64 * MiB));
		cuMemGetInfo(&f1, &tot);
		CK(cuIpcGetMemHandle(&m.h, big));
		put(&m, sizeof m);
		wait_ack();
		r = cuMemFree(big);
		cuMemGetInfo(&f2, &tot);
		P("share.ipc.big_free_while_open: %s\n", en(r));
		ack();
		wait_ack();
		usleep(100000);
		cuMemGetInfo(&f3, &tot);
		P("share.ipc.big_alloc_takes_mib: %lld\n", ((long long)f0 - (long long)f1) / (long long)MiB);
		P("share.ipc.big_free_while_open_gives_mib: %lld\n", ((long long)f2 - (long long)f1) / (long long)MiB);
		P("share.ipc.big_close_gives_mib: %lld\n", ((long long)f3 - (long long)f2) / (long long)MiB);
		ack();
		wait_ack();
	}
	reap(pid, "share.ipc.imp");
	cuMemFree(b);
}

/* Role "exp": exports and exits when told, without freeing. */
static void exporter_exits(void)
{
	struct msg m;
	CUdeviceptr a = 0;

	CK(cuMemAlloc(&a, MiB));
	CK(cuMemsetD32(a, 0x44444444, MiB / 4));
	CK(cuCtxSynchronize());
	CK(cuIpcGetMemHandle(&m.h, a));
	m.addr = a;
	put(&m, sizeof m);
	wait_ack();
	exit(0);
}

static void ipc_exporter_exit(void)
{
	struct msg m;
	CUdeviceptr p = 0, q = 0;
	CUresult r;
	size_t fr0 = 0, fr1 = 0, fr2 = 0, tot = 0;

	pid_t pid = spawn("exp");
	get(&m, sizeof m);
	cuMemGetInfo(&fr0, &tot);
	r = cuIpcOpenMemHandle(&p, m.h, 1);
	P("share.ipcexit.open: %s\n", en(r));
	cuMemGetInfo(&fr1, &tot);
	P("share.ipcexit.free_mem_change_on_open: %lld\n", (long long)fr0 - (long long)fr1);
	word("share.ipcexit.read", p);
	ack();
	reap(pid, "share.ipcexit.exp");
	usleep(200000);
	cuMemGetInfo(&fr2, &tot);
	P("share.ipcexit.free_mem_change_after_exit: %lld\n", (long long)fr0 - (long long)fr2);
	word("share.ipcexit.read_after_exit", p);
	r = cuMemsetD32(p, 0x55555555, MiB / 4);
	cuCtxSynchronize();
	P("share.ipcexit.write_after_exit: %s\n", en(r));
	word("share.ipcexit.read_after_write", p);
	r = cuIpcOpenMemHandle(&q, m.h, 1);
	P("share.ipcexit.open_more_after_exit: %s same_ptr=%s\n", en(r), q == p ? "yes" : "no");
	if (r == CUDA_SUCCESS)
		cuIpcCloseMemHandle(q);
	r = cuIpcCloseMemHandle(p);
	P("share.ipcexit.close: %s\n", en(r));
	r = cuIpcOpenMemHandle(&q, m.h, 1);
	P("share.ipcexit.open_after_exit_closed: %s\n", en(r));
	if (r == CUDA_SUCCESS)
		cuIpcCloseMemHandle(q);
	r = cuCtxSynchronize();
	P("share.ipcexit.ctx_healthy: %s\n", en(r));
}

/* ------------------------------------------------------------ IPC events */

static volatile int g_gate;
static void CUDA_CB hold(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&g_gate, __ATOMIC_ACQUIRE))
		usleep(1000);
}

static void CUDA_CB nap(void *arg)
{
	(void)arg;
	usleep(400000);
}

static void event_importer(void)
{
	CUipcEventHandle h, h3;
	CUevent e = NULL, e2 = NULL;
	CUstream s = NULL;
	CUresult r;
	float ms = 0;

	get(&h, sizeof h);
	r = cuIpcOpenEventHandle(&e, h);
	P("share.ev.imp.open: %s\n", en(r));
	r = cuIpcOpenEventHandle(&e2, h);
	P("share.ev.imp.open_twice: %s same=%s\n", en(r), e == e2 ? "yes" : "no");
	r = cuEventQuery(e);
	P("share.ev.imp.query_unrecorded: %s\n", en(r));
	ack();
	wait_ack(); /* recorded behind a held stream */
	r = cuEventQuery(e);
	P("share.ev.imp.query_pending: %s\n", en(r));
	r = cuEventQuery(e2);
	P("share.ev.imp.query_pending_second: %s\n", en(r));
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	r = cuStreamWaitEvent(s, e, 0);
	P("share.ev.imp.stream_wait: %s\n", en(r));
	r = cuStreamQuery(s);
	P("share.ev.imp.stream_query_waiting: %s\n", en(r));
	ack();      /* exporter opens the gate */
	wait_ack();
	r = cuEventSynchronize(e);
	P("share.ev.imp.sync: %s\n", en(r));
	r = cuEventQuery(e);
	P("share.ev.imp.query_done: %s\n", en(r));
	r = cuStreamSynchronize(s);
	P("share.ev.imp.stream_sync: %s\n", en(r));
	r = cuEventElapsedTime(&ms, e, e);
	P("share.ev.imp.elapsed: %s\n", en(r));
	r = cuEventRecord(e, s);
	P("share.ev.imp.record: %s\n", en(r));
	cuStreamSynchronize(s);
	r = cuIpcGetEventHandle(&h3, e);
	P("share.ev.imp.reexport: %s same=%s\n", en(r), r == CUDA_SUCCESS && !memcmp(&h3, &h, sizeof h) ? "yes" : "no");
	CK(cuLaunchHostFunc(s, nap, NULL));
	r = cuEventRecord(e, s);
	P("share.ev.imp.record_held: %s\n", en(r));
	ack();      /* the exporter queries the importer's record */
	wait_ack();
	r = cuEventDestroy(e);
	P("share.ev.imp.destroy: %s\n", en(r));
	if (e2 != e) {
		r = cuEventDestroy(e2);
		P("share.ev.imp.destroy_second: %s\n", en(r));
	}
	{
		CUipcEventHandle junk;
		memset(&junk, 0x5a, sizeof junk);
		r = cuIpcOpenEventHandle(&e, junk);
		P("share.ev.imp.open_junk: %s\n", en(r));
		r = cuIpcOpenEventHandle(NULL, h);
		P("share.ev.imp.open_null: %s\n", en(r));
	}
	ack();      /* exporter destroys its event */
	wait_ack();
	r = cuIpcOpenEventHandle(&e, h);
	P("share.ev.imp.open_after_destroy: %s\n", en(r));
	if (r == CUDA_SUCCESS) {
		r = cuEventQuery(e);
		P("share.ev.imp.query_after_destroy: %s\n", en(r));
		cuEventDestroy(e);
	}
	cuStreamDestroy(s);
	ack();
}

static void ipc_events(void)
{
	CUevent e = NULL, eb = NULL, et = NULL;
	CUipcEventHandle h, h2;
	CUstream s = NULL;
	CUresult r;

	CK(cuEventCreate(&eb, CU_EVENT_BLOCKING_SYNC | CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
	r = cuIpcGetEventHandle(&h2, eb);
	P("share.ev.get_blocking: %s\n", en(r));
	cuEventDestroy(eb);
	CK(cuEventCreate(&et, CU_EVENT_DISABLE_TIMING));
	r = cuIpcGetEventHandle(&h2, et);
	P("share.ev.get_disable_timing_only: %s\n", en(r));
	cuEventDestroy(et);
	CK(cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
	r = cuIpcGetEventHandle(NULL, e);
	P("share.ev.get_null: %s\n", en(r));
	r = cuIpcGetEventHandle(&h, NULL);
	P("share.ev.get_null_event: %s\n", en(r));
	r = cuIpcGetEventHandle(&h, e);
	P("share.ev.get: %s\n", en(r));
	r = cuIpcGetEventHandle(&h2, e);
	P("share.ev.get_twice: %s same=%s\n", en(r), memcmp(&h, &h2, sizeof h) ? "no" : "yes");
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	pid_t pid = spawn("evt");
	put(&h, sizeof h);
	wait_ack();
	CK(cuLaunchHostFunc(s, hold, NULL));
	r = cuEventRecord(e, s);
	P("share.ev.record_held: %s\n", en(r));
	ack();
	wait_ack();
	__atomic_store_n(&g_gate, 1, __ATOMIC_RELEASE);
	CK(cuStreamSynchronize(s));
	ack();
	wait_ack();     /* the importer recorded behind a 400 ms host function */
	r = cuEventQuery(e);
	P("share.ev.query_importer_record: %s\n", en(r));
	r = cuEventSynchronize(e);
	P("share.ev.sync_importer_record: %s\n", en(r));
	r = cuEventQuery(e);
	P("share.ev.query_importer_record_done: %s\n", en(r));
	ack();
	wait_ack();
	r = cuEventDestroy(e);
	P("share.ev.destroy_exporter: %s\n", en(r));
	ack();
	wait_ack();
	reap(pid, "share.ev.imp");
	cuStreamDestroy(s);
}

/* ------------------------------------------------------------ multicast */

static CUmemGenericAllocationHandle phys(size_t size, CUmemAllocationHandleType t)
{
	CUmemAllocationProp p;
	CUmemGenericAllocationHandle h = 0;
	memset(&p, 0, sizeof p);
	p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = 0;
	p.requestedHandleTypes = t;
	CK(cuMemCreate(&h, size, &p, 0));
	return h;
}

static CUdeviceptr map_rw(CUmemGenericAllocationHandle h, size_t size, CUresult *mr, CUresult *ar)
{
	CUdeviceptr va = 0;
	CUmemAccessDesc d;
	CK(cuMemAddressReserve(&va, size, 0, 0, 0));
	*mr = cuMemMap(va, size, 0, h, 0);
	memset(&d, 0, sizeof d);
	d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = 0;
	d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	*ar = *mr ? *mr : cuMemSetAccess(va, size, &d, 1);
	return va;
}

static void multicast(void)
{
	CUmulticastObjectProp mp;
	size_t g = 0, gr = 0;
	CUmemGenericAllocationHandle mc = 0, mc2 = 0, h1, h0, h4, junk = 0;
	CUresult r, mr, ar;
	const size_t G = 2 * MiB;
	int ms = -1;

	cuDeviceGetAttribute(&ms, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, 0);
	P("share.mc.supported: %d\n", ms);
	memset(&mp, 0, sizeof mp);
	mp.numDevices = 1;
	mp.size = G;
	mp.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	r = cuMulticastGetGranularity(&g, &mp, CU_MULTICAST_GRANULARITY_MINIMUM);
	P("share.mc.gran_min: %s %zu\n", en(r), g);
	r = cuMulticastGetGranularity(&gr, &mp, CU_MULTICAST_GRANULARITY_RECOMMENDED);
	P("share.mc.gran_rec: %s %zu\n", en(r), gr);
	r = cuMulticastGetGranularity(&gr, &mp, 2);
	P("share.mc.gran_bad_option: %s\n", en(r));
	r = cuMulticastGetGranularity(NULL, &mp, 0);
	P("share.mc.gran_null: %s\n", en(r));
	r = cuMulticastGetGranularity(&gr, NULL, 0);
	P("share.mc.gran_null_prop: %s\n", en(r));
	mp.numDevices = 0;
	r = cuMulticastGetGranularity(&gr, &mp, 0);
	P("share.mc.gran_ndev0: %s %zu\n", en(r), gr);
	mp.numDevices = 1;
	mp.size = 0;
	r = cuMulticastGetGranularity(&gr, &mp, 0);
	P("share.mc.gran_size0: %s %zu\n", en(r), gr);
	mp.size = G;
	mp.handleTypes = 0;
	r = cuMulticastGetGranularity(&gr, &mp, 0);
	P("share.mc.gran_types0: %s %zu\n", en(r), gr);
	mp.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	mp.flags = 1;
	r = cuMulticastGetGranularity(&gr, &mp, 0);
	P("share.mc.gran_flags1: %s %zu\n", en(r), gr);
	mp.flags = 0;
	mp.numDevices = 2;
	r = cuMulticastGetGranularity(&gr, &mp, 0);
	P("share.mc.gran_ndev2: %s %zu\n", en(r), gr);
	mp.numDevices = 1;

#define CREATE(label, field, val) do { \
	CUmulticastObjectProp q = mp; q.field = val; mc2 = 0; \
	r = cuMulticastCreate(&mc2, &q); \
	P("share.mc.create_%s: %s\n", label, en(r)); \
	if (r == CUDA_SUCCESS) cuMemRelease(mc2); \
} while (0)
	r = cuMulticastCreate(NULL, &mp);
	P("share.mc.create_null: %s\n", en(r));
	r = cuMulticastCreate(&mc2, NULL);
	P("share.mc.create_null_prop: %s\n", en(r));
	CREATE("ndev0", numDevices, 0);
	CREATE("ndev2", numDevices, 2);
	CREATE("ndev64", numDevices, 64);
	CREATE("size0", size, 0);
	CREATE("size4k", size, 4096);
	CREATE("size3G", size, 3 * G);
	CREATE("size_odd", size, G + 4096);
	CREATE("types0", handleTypes, 0);
	CREATE("types_fabric", handleTypes, CU_MEM_HANDLE_TYPE_FABRIC);
	CREATE("types_bad", handleTypes, 0x40);
	CREATE("flags1", flags, 1);
	r = cuMulticastCreate(&mc, &mp);
	P("share.mc.create: %s\n", en(r));
	if (r != CUDA_SUCCESS)
		return;
	{
		CUmemAllocationProp ap;
		memset(&ap, 0, sizeof ap);
		r = cuMemGetAllocationPropertiesFromHandle(&ap, mc);
		P("share.mc.props: %s type=%d loc=%d/%d types=%d\n", en(r), (int)ap.type,
		  (int)ap.location.type, ap.location.id, (int)ap.requestedHandleTypes);
	}
	r = cuMulticastAddDevice(mc, 5);
	P("share.mc.add_bad_dev: %s\n", en(r));
	r = cuMulticastAddDevice(mc, -1);
	P("share.mc.add_neg_dev: %s\n", en(r));
	r = cuMulticastAddDevice(0, 0);
	P("share.mc.add_null_handle: %s\n", en(r));
	r = cuMulticastAddDevice(mc, 0);
	P("share.mc.add: %s\n", en(r));
	r = cuMulticastAddDevice(mc, 0);
	P("share.mc.add_again: %s\n", en(r));
	h1 = phys(G, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	h0 = phys(G, CU_MEM_HANDLE_TYPE_NONE);
	h4 = phys(2 * G, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	r = cuMulticastBindMem(mc, 0, h1, 0, G, 1);
	P("share.mc.bind_flags1: %s\n", en(r));
	r = cuMulticastBindMem(mc, 4096, h1, 0, G - 4096, 0);
	P("share.mc.bind_mcoff4k: %s\n", en(r));
	r = cuMulticastBindMem(mc, 0, h4, 4096, G, 0);
	P("share.mc.bind_memoff4k: %s\n", en(r));
	r = cuMulticastBindMem(mc, 0, h1, 0, 0, 0);
	P("share.mc.bind_size0: %s\n", en(r));
	r = cuMulticastBindMem(mc, 0, h4, 0, 2 * G, 0);
	P("share.mc.bind_over_mc: %s\n", en(r));
	r = cuMulticastBindMem(mc, 0, h1, G, G, 0);
	P("share.mc.bind_over_mem: %s\n", en(r));
	r = cuMulticastBindMem(mc, 0, h0, 0, G, 0);
	P("share.mc.bind_unshareable: %s\n", en(r));
	r = cuMulticastBindMem(mc, 0, 0, 0, G, 0);
	P("share.mc.bind_null_mem: %s\n", en(r));
	r = cuMulticastBindMem(0, 0, h1, 0, G, 0);
	P("share.mc.bind_null_mc: %s\n", en(r));
	r = cuMulticastBindMem(h1, 0, h4, 0, G, 0);
	P("share.mc.bind_mc_is_mem: %s\n", en(r));
	r = cuMulticastBindMem(mc, 0, mc, 0, G, 0);
	P("share.mc.bind_mem_is_mc: %s\n", en(r));
	r = cuMulticastBindMem(mc, 0, h1, 0, G, 0);
	P("share.mc.bind: %s\n", en(r));
	r = cuMulticastBindMem(mc, 0, h4, 0, G, 0);
	P("share.mc.bind_again_same_off: %s\n", en(r));
	CUdeviceptr va_mc = map_rw(mc, G, &mr, &ar);
	P("share.mc.map: %s access=%s\n", en(mr), en(ar));
	CUdeviceptr va_1 = map_rw(h1, G, &mr, &ar);
	P("share.mc.map_mem: %s access=%s\n", en(mr), en(ar));
	CK(cuMemsetD32(va_1, 0x01010101, G / 4));
	CK(cuCtxSynchronize());
	r = cuMemsetD32(va_mc, 0xabcdabcd, G / 4);
	cuCtxSynchronize();
	P("share.mc.memset_through_mc: %s\n", en(r));
	word("share.mc.mem_sees_mc_store", va_1 + 4096);
	word("share.mc.read_through_mc", va_mc + 4096);
	{
		uint32_t v = 0x77777777;
		r = cuMemcpyHtoD(va_mc + 8, &v, 4);
		P("share.mc.htod_through_mc: %s\n", en(r));
		word("share.mc.mem_sees_htod", va_1 + 8);
	}
	{
		unsigned long long v;
		v = attr_u(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, va_mc, &r);
		P("share.mc.attr_memtype: %s %llu\n", en(r), v & 0xffffffff);
		v = attr_u(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, va_mc, &r);
		P("share.mc.attr_ordinal: %s %llu\n", en(r), v & 0xffffffff);
		v = attr_u(CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES, va_mc, &r);
		P("share.mc.attr_handle_types: %s %llu\n", en(r), v);
		CUmemGenericAllocationHandle rh = 0;
		r = cuMemRetainAllocationHandle(&rh, (void *)va_mc);
		P("share.mc.retain: %s same=%s\n", en(r), rh == mc ? "yes" : "no");
		if (r == CUDA_SUCCESS)
			cuMemRelease(rh);
		CUmemLocation l = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
		unsigned long long fl = 0;
		r = cuMemGetAccess(&fl, &l, va_mc);
		P("share.mc.get_access: %s %llu\n", en(r), fl);
		int fd = -1;
		r = cuMemExportToShareableHandle(&fd, mc, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
		P("share.mc.export_fd: %s\n", en(r));
		if (fd >= 0)
			close(fd);
	}
	r = cuMulticastUnbind(mc, 5, 0, G);
	P("share.mc.unbind_bad_dev: %s\n", en(r));
	r = cuMulticastUnbind(mc, 0, 4096, G - 4096);
	P("share.mc.unbind_unaligned: %s\n", en(r));
	r = cuMulticastUnbind(mc, 0, 0, 2 * G);
	P("share.mc.unbind_over: %s\n", en(r));
	r = cuMulticastUnbind(mc, 0, 0, G);
	P("share.mc.unbind_mapped: %s\n", en(r));
	r = cuMulticastUnbind(mc, 0, 0, G);
	P("share.mc.unbind_again: %s\n", en(r));
	r = cuMemsetD32(va_mc, 0x12121212, G / 4);
	cuCtxSynchronize();
	P("share.mc.memset_unbound: %s\n", en(r));
	word("share.mc.mem_after_unbound_store", va_1 + 4096);
	r = cuMulticastBindAddr(mc, 0, va_1, G, 1);
	P("share.mc.bindaddr_flags1: %s\n", en(r));
	r = cuMulticastBindAddr(mc, 0, va_1 + 4096, G - 4096, 0);
	P("share.mc.bindaddr_unaligned: %s\n", en(r));
	{
		CUdeviceptr d = 0;
		CK(cuMemAlloc(&d, 2 * G));
		r = cuMulticastBindAddr(mc, 0, (d + G - 1) & ~(G - 1), G, 0);
		P("share.mc.bindaddr_memalloc: %s\n", en(r));
		if (r == CUDA_SUCCESS)
			cuMulticastUnbind(mc, 0, 0, G);
		cuMemFree(d);
	}
	r = cuMulticastBindAddr(mc, 0, va_1, G, 0);
	P("share.mc.bindaddr: %s\n", en(r));
	r = cuMemsetD32(va_mc, 0x34343434, G / 4);
	cuCtxSynchronize();
	word("share.mc.mem_sees_bindaddr_store", va_1 + 4096);
	r = cuMemRelease(h1);
	P("share.mc.release_bound_mem: %s\n", en(r));
	r = cuMemUnmap(va_1, G);
	P("share.mc.unmap_bound_mem: %s\n", en(r));
	r = cuMemsetD32(va_mc, 0x56565656, G / 4);
	cuCtxSynchronize();
	P("share.mc.memset_after_mem_unmapped: %s\n", en(r));
	r = cuMulticastUnbind(mc, 0, 0, G);
	P("share.mc.unbind_bindaddr: %s\n", en(r));
	cuMemAddressFree(va_1, G);
	r = cuMemUnmap(va_mc, G);
	P("share.mc.unmap_mc: %s\n", en(r));
	cuMemAddressFree(va_mc, G);

	/* latency of a bind and an unbind */
	{
		uint64_t t[200], u[200];
		for (int i = 0; i < 200; i++) {
			uint64_t a = now_ns();
			r = cuMulticastBindMem(mc, 0, h4, 0, G, 0);
			uint64_t b = now_ns();
			cuMulticastUnbind(mc, 0, 0, G);
			t[i] = b - a;
			u[i] = now_ns() - b;
		}
		P("share.mc.lat.bindmem_ns: %llu unbind_ns=%llu last=%s\n",
		  (unsigned long long)median(t, 200), (unsigned long long)median(u, 200), en(r));
		for (int i = 0; i < 50; i++) {
			uint64_t a = now_ns();
			CUmemGenericAllocationHandle x = 0;
			cuMulticastCreate(&x, &mp);
			cuMemRelease(x);
			t[i] = now_ns() - a;
		}
		P("share.mc.lat.create_release_ns: %llu\n", (unsigned long long)median(t, 50));
	}
	r = cuMulticastBindMem(mc, 0, h4, G, G, 0);
	P("share.mc.bind_h4_tail: %s\n", en(r));
	r = cuMemRelease(mc);
	P("share.mc.release_bound_mc: %s\n", en(r));
	r = cuMulticastAddDevice(mc, 0);
	P("share.mc.add_released: %s\n", en(r));
	r = cuMemRelease(h4);
	P("share.mc.release_h4: %s\n", en(r));
	r = cuMemRelease(h0);
	P("share.mc.release_h0: %s\n", en(r));
	(void)junk;
}

/* ------------------------------------------------------------ dma-buf */

static void dmabuf_one(const char *label, CUdeviceptr p, size_t size, CUmemRangeHandleType t, unsigned long long fl)
{
	int fd = -1;
	CUresult r = cuMemGetHandleForAddressRange(&fd, p, size, t, fl);
	char link[64] = "", tgt[128] = "";
	off_t end = -1;

	if (r == CUDA_SUCCESS && fd >= 0) {
		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, tgt, sizeof tgt - 1);
		tgt[n > 0 ? n : 0] = 0;
		end = lseek(fd, 0, SEEK_END);
		void *m = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
		P("%s: %s kind=%s size=%lld mmap=%s\n", label, en(r), tgt, (long long)end,
		  m == MAP_FAILED ? strerror(errno) : "ok");
		if (m != MAP_FAILED)
			munmap(m, size);
		close(fd);
	} else {
		P("%s: %s\n", label, en(r));
	}
}

static void dmabuf(void)
{
	CUdeviceptr d = 0, m = 0, pd = 0;
	void *host = NULL;
	int v = -1;

	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, 0);
	P("share.dmabuf.supported: %d\n", v);
	CK(cuMemAlloc(&d, 4 * MiB));
	CK(cuMemAllocManaged(&m, 4 * MiB, CU_MEM_ATTACH_GLOBAL));
	CK(cuMemHostAlloc(&host, 4 * MiB, CU_MEMHOSTALLOC_DEVICEMAP));
	CK(cuMemHostGetDevicePointer(&pd, host, 0));
	CUdeviceptr a = (d + 2 * MiB - 1) & ~(2 * MiB - 1);
	P("share.dmabuf.base_aligned_2m: %s\n", d == a ? "yes" : "no");
	dmabuf_one("share.dmabuf.device", d, 2 * MiB, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
	dmabuf_one("share.dmabuf.device_4k", d, 4096, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
	dmabuf_one("share.dmabuf.device_interior_4k", d + 4096, 4096, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
	dmabuf_one("share.dmabuf.device_unaligned_ptr", d + 1, 4096, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
	dmabuf_one("share.dmabuf.device_unaligned_size", d, 4097, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
	dmabuf_one("share.dmabuf.device_size0", d, 0, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
	dmabuf_one("share.dmabuf.device_over", d, 8 * MiB, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
	dmabuf_one("share.dmabuf.device_type0", d, 4096, 0, 0);
	dmabuf_one("share.dmabuf.device_type2", d, 4096, 2, 0);
	dmabuf_one("share.dmabuf.device_flag_pcie", d, 4096, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 1);
	dmabuf_one("share.dmabuf.device_flag2", d, 4096, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 2);
	dmabuf_one("share.dmabuf.managed", m, 2 * MiB, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
	dmabuf_one("share.dmabuf.pinned", pd, 2 * MiB, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
	dmabuf_one("share.dmabuf.garbage", 0x1000, 4096, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
	{
		CUresult r = cuMemGetHandleForAddressRange(NULL, d, 4096, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
		P("share.dmabuf.null_handle: %s\n", en(r));
	}
	{
		CUmemGenericAllocationHandle h = phys(2 * MiB, CU_MEM_HANDLE_TYPE_NONE);
		CUresult mr, ar;
		CUdeviceptr va = map_rw(h, 2 * MiB, &mr, &ar);
		dmabuf_one("share.dmabuf.vmm", va, 2 * MiB, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
		cuMemUnmap(va, 2 * MiB);
		cuMemAddressFree(va, 2 * MiB);
		cuMemRelease(h);
	}
	cuMemFree(d);
	cuMemFree(m);
	cuMemFreeHost(host);
}

static void attributes(void)
{
	static const struct { const char *n; CUdevice_attribute a; } at[] = {
		{ "ipc_event", CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED },
		{ "multicast", CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED },
		{ "dma_buf", CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED },
		{ "posix_fd", CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED },
		{ "fabric", CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED },
		{ "host_alloc_dma_buf", CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED },
		{ "vmm", CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED },
	};
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
		int v = -1;
		CUresult r = cuDeviceGetAttribute(&v, at[i].a, 0);
		P("share.attr.%s: %d/%s\n", at[i].n, v, en(r));
	}
}

int main(int argc, char **argv)
{
	if (argc == 4) {
		g_in = atoi(argv[2]);
		g_out = atoi(argv[3]);
		g_child = 1;
		alarm(60);
		signal(SIGSEGV, on_sig);
		CK(cuInit(0));
		CUdevice dv;
		CUcontext c;
		CK(cuDeviceGet(&dv, 0));
		CK(cuDevicePrimaryCtxRetain(&c, dv));
		CK(cuCtxSetCurrent(c));
		if (!strcmp(argv[1], "imp"))
			importer();
		else if (!strcmp(argv[1], "exp"))
			exporter_exits();
		else if (!strcmp(argv[1], "evt"))
			event_importer();
		return 0;
	}
	signal(SIGPIPE, SIG_IGN);
	setup("share");
	attributes();
	if (!sigsetjmp(g_fam, 1))
		ipc_exporter();
	if (!sigsetjmp(g_fam, 1))
		ipc_exporter_exit();
	if (!sigsetjmp(g_fam, 1))
		ipc_events();
	__atomic_store_n(&g_gate, 1, __ATOMIC_RELEASE);
	multicast();
	dmabuf();
	teardown("share");
	return 0;
}
