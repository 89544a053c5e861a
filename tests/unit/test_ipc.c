/*
 * test_ipc.c - legacy IPC between processes: this program exports a
 * cuMemAlloc allocation and an interprocess event and checks every refusal
 * the real driver gives (probes/results/share.txt); a second run of it
 * (spawn.h), the importer, opens both, prints what each step answered
 * ("key value" a line), and writes bytes the exporter then reads. The
 * exporter frees its allocation while the importer has it open, and the
 * importer still reads and writes it. A third run exports and exits while
 * this process has the memory open: it stays, and once closed it cannot be
 * opened again. The importer's kernels store to the memory from its own
 * device and from another. Handles go over a Unix socket; one byte on it
 * is a step.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "spawn.h"
#include "tap.h"

#define SIZE (1u << 20)

struct msg {
	CUipcMemHandle mem;
	CUipcEventHandle ev;
	unsigned long long id;
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

static int setup_ctx(void)
{
	CUcontext ctx;
	CUdevice dev;

	return cuInit(0) || cuDeviceGet(&dev, 0) ||
	       cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx);
}

static uint32_t word_at(CUdeviceptr p)
{
	uint32_t v = 0;

	return cuMemcpyDtoH(&v, p, 4) ? 0xdeadbeef : v;
}

/* ------------------------------------------------------------ importer */

static void importer_attrs(CUdeviceptr p, const struct msg *m)
{
	unsigned long long id = 0;
	unsigned int v = 9;
	CUdeviceptr base = 0;
	size_t size = 0;

	printf("memtype %d\n", (int)(cuPointerGetAttribute(&v,
		CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p) ? 99 : v));
	printf("legacy_ipc %d\n", (int)(cuPointerGetAttribute(&v,
		CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, p) ? 99 : v));
	cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, p);
	printf("same_buffer_id %d\n", id == m->id);
	printf("range %d\n", (int)cuMemGetAddressRange(&base, &size, p + 4096));
	printf("range_exact %d\n", base == p && size == SIZE);
}

static void importer_errors(CUdeviceptr p, const struct msg *m)
{
	CUipcMemHandle junk, h2;
	CUdeviceptr q = 0;

	memset(&junk, 0x5a, sizeof junk);
	printf("memfree %d\n", (int)cuMemFree(p));
	printf("reexport %d\n", (int)cuIpcGetMemHandle(&h2, p));
	printf("flags0 %d\n", (int)cuIpcOpenMemHandle(&q, m->mem, 0));
	printf("flags2 %d\n", (int)cuIpcOpenMemHandle(&q, m->mem, 2));
	printf("flags3 %d\n", (int)cuIpcOpenMemHandle(&q, m->mem, 3));
	printf("flags3_same %d\n", q == p);
	cuIpcCloseMemHandle(q);
	printf("junk %d\n", (int)cuIpcOpenMemHandle(&q, junk, 1));
	printf("null %d\n", (int)cuIpcOpenMemHandle(NULL, m->mem, 1));
	printf("close_interior %d\n", (int)cuIpcCloseMemHandle(p + 4096));
	printf("close_zero %d\n", (int)cuIpcCloseMemHandle(0));
}

static void importer_event(const struct msg *m)
{
	CUevent e = NULL, e2 = NULL;
	CUipcEventHandle h2;
	float ms;

	printf("ev_open %d\n", (int)cuIpcOpenEventHandle(&e, m->ev));
	printf("ev_open2 %d\n", (int)cuIpcOpenEventHandle(&e2, m->ev));
	printf("ev_distinct %d\n", e != e2);
	printf("ev_query_unrecorded %d\n", (int)cuEventQuery(e));
	printf("ev_reexport %d\n", (int)cuIpcGetEventHandle(&h2, e));
	printf("ev_elapsed %d\n", (int)cuEventElapsedTime(&ms, e, e));
	step_send();
	step_wait();            /* recorded behind a held stream */
	printf("ev_query_pending %d\n", (int)cuEventQuery(e2));
	step_send();            /* the exporter lets it go */
	printf("ev_sync %d\n", (int)cuEventSynchronize(e));
	printf("ev_query_done %d\n", (int)cuEventQuery(e));
	printf("ev_destroy %d\n", (int)(cuEventDestroy(e) | cuEventDestroy(e2)));
}

/* A kernel that stores v to the first 32 words at p, one a thread. */
static const char fill_ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry fill(.param .u64 p, .param .u32 v)\n{\n"
	"\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<3>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
	"\tmov.u32 %r2, %tid.x;\n\tmul.wide.u32 %rd2, %r2, 4;\n"
	"\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r1;\n"
	"\tret;\n}\n";

/* A kernel on device dev stores v into the opened memory at p; prints
 * what the launch and its synchronization answered under key. The
 * memory lies on device 0, so device 1's kernel reaches it as a peer's:
 * an opening asks for CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS, which enables
 * peer access as the mapping needs it, no cuCtxEnablePeerAccess made. */
static void importer_kernel(const char *key, int dev, CUdeviceptr p,
			    unsigned v)
{
	CUcontext ctx = NULL, back = NULL;
	CUmodule m = NULL;
	CUfunction f = NULL;
	CUdevice d;
	void *args[] = { &p, &v };
	CUresult r;

	cuCtxGetCurrent(&back);
	r = cuDeviceGet(&d, dev);
	if (!r)
		r = cuDevicePrimaryCtxRetain(&ctx, d);
	if (!r)
		r = cuCtxSetCurrent(ctx);
	if (!r)
		r = cuModuleLoadData(&m, fill_ptx);
	if (!r)
		r = cuModuleGetFunction(&f, m, "fill");
	if (!r)
		r = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
	if (!r)
		r = cuCtxSynchronize();
	printf("%s %d\n", key, (int)r);
	if (m)
		cuModuleUnload(m);
	cuCtxSetCurrent(back);
	if (ctx)
		cuDevicePrimaryCtxRelease(d);
}

static int importer(void)
{
	struct msg m;
	CUdeviceptr p = 0, p2 = 0;
	const char *e = getenv("CUEMU_TEST_SOCK");

	sock = e ? atoi(e) : -1;
	if (setup_ctx() || !readable_within(sock, 20) ||
	    read(sock, &m, sizeof m) != (ssize_t)sizeof m)
		return 1;
	printf("open %d\n", (int)cuIpcOpenMemHandle(&p, m.mem, 1));
	printf("open2 %d\n", (int)cuIpcOpenMemHandle(&p2, m.mem, 1));
	printf("same_ptr %d\n", p == p2);
	{
		cudaIpcMemHandle_t ch;
		void *rp = NULL;

		memcpy(&ch, &m.mem, sizeof ch);
		printf("rt_open %d\n", (int)cudaIpcOpenMemHandle(&rp, ch,
					cudaIpcMemLazyEnablePeerAccess));
		printf("rt_same_ptr %d\n", (CUdeviceptr)(uintptr_t)rp == p);
		printf("rt_close %d\n", (int)cudaIpcCloseMemHandle(rp));
	}
	printf("read 0x%x\n", word_at(p + SIZE - 4));
	importer_kernel("kernel_own", 0, p, 0x33333333);
	printf("kernel_own_wrote 0x%x\n", word_at(p + 124));
	importer_kernel("kernel_peer", 1, p, 0x55555555);
	printf("kernel_peer_wrote 0x%x\n", word_at(p + 124));
	cuMemsetD32(p, 0x22222222, SIZE / 4);
	step_send();
	importer_attrs(p, &m);
	importer_errors(p, &m);
	printf("close1 %d\n", (int)cuIpcCloseMemHandle(p));
	printf("read_after_close1 0x%x\n", word_at(p));
	printf("close2 %d\n", (int)cuIpcCloseMemHandle(p));
	printf("close3 %d\n", (int)cuIpcCloseMemHandle(p));
	printf("reopen %d\n", (int)cuIpcOpenMemHandle(&p, m.mem, 1));
	step_send();
	step_wait();            /* the exporter freed it */
	printf("read_after_free 0x%x\n", word_at(p));
	cuMemsetD32(p, 0x66666666, SIZE / 4);
	printf("write_after_free 0x%x\n", word_at(p + 8));
	printf("close_after_free %d\n", (int)cuIpcCloseMemHandle(p));
	printf("open_after_free_closed %d\n",
	       (int)cuIpcOpenMemHandle(&p2, m.mem, 1));
	importer_event(&m);
	fflush(stdout);
	step_send();
	return 0;
}

/* An exporter that exits while its memory is open elsewhere. */
static int leaver(void)
{
	struct msg m = { 0 };
	CUdeviceptr a = 0;
	const char *e = getenv("CUEMU_TEST_SOCK");

	sock = e ? atoi(e) : -1;
	if (setup_ctx() || cuMemAlloc(&a, SIZE) ||
	    cuMemsetD32(a, 0x44444444, SIZE / 4) || cuIpcGetMemHandle(&m.mem, a))
		return 1;
	if (write(sock, &m, sizeof m) != (ssize_t)sizeof m)
		return 1;
	step_wait();
	return 0;
}

/* ------------------------------------------------------------ exporter */

/* A mapping of cuMemCreate memory has no legacy handle. */
static void vmm_refusal(void)
{
	CUmemAllocationProp p = {
		.type = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
	};
	CUmemAccessDesc d = { { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
			      CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
	CUmemGenericAllocationHandle mh = 0;
	CUipcMemHandle h;
	CUdeviceptr va = 0;

	cuMemCreate(&mh, 2u << 20, &p, 0);
	cuMemAddressReserve(&va, 2u << 20, 0, 0, 0);
	cuMemMap(va, 2u << 20, 0, mh, 0);
	cuMemSetAccess(va, 2u << 20, &d, 1);
	is_res(cuIpcGetMemHandle(&h, va), CUDA_ERROR_INVALID_VALUE,
	       "VMM memory has no legacy handle");
	cuMemUnmap(va, 2u << 20);
	cuMemAddressFree(va, 2u << 20);
	cuMemRelease(mh);
}

static void refusals(CUdeviceptr a)
{
	CUipcMemHandle h, h2;
	CUdeviceptr m = 0, q = 0;
	void *pinned = NULL;
	unsigned int v = 9;

	is_res(cuIpcGetMemHandle(NULL, a), CUDA_ERROR_INVALID_VALUE,
	       "a NULL handle is refused");
	is_res(cuIpcGetMemHandle(&h, 0), CUDA_ERROR_INVALID_VALUE,
	       "address 0 has no handle");
	is_res(cuIpcGetMemHandle(&h, a + SIZE), CUDA_ERROR_INVALID_VALUE,
	       "the byte after the allocation has no handle");
	cuIpcGetMemHandle(&h, a);
	is_res(cuIpcGetMemHandle(&h2, a + 4096), CUDA_SUCCESS,
	       "an interior address has a handle");
	ok(!memcmp(&h, &h2, sizeof h), "... the allocation's own");
	cuMemAllocManaged(&m, SIZE, CU_MEM_ATTACH_GLOBAL);
	is_res(cuIpcGetMemHandle(&h2, m), CUDA_ERROR_INVALID_VALUE,
	       "managed memory has no legacy handle");
	cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, m);
	is_int(v, 0, "... and says it is not capable");
	cuMemFree(m);
	cuMemAllocHost(&pinned, SIZE);
	is_res(cuIpcGetMemHandle(&h2, (CUdeviceptr)(uintptr_t)pinned),
	       CUDA_ERROR_INVALID_VALUE, "pinned memory has none");
	cuMemFreeHost(pinned);
	cuMemAllocAsync(&m, SIZE, NULL);
	cuStreamSynchronize(NULL);
	is_res(cuIpcGetMemHandle(&h2, m), CUDA_ERROR_INVALID_VALUE,
	       "a pool block has none");
	cuMemFreeAsync(m, NULL);
	cuStreamSynchronize(NULL);
	vmm_refusal();
	v = 9;
	cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, a);
	is_int(v, 1, "cuMemAlloc memory is legacy IPC capable");
	is_res(cuIpcOpenMemHandle(&q, h, 1), CUDA_ERROR_INVALID_CONTEXT,
	       "the exporter cannot open its own handle");
	is_res(cuIpcOpenMemHandle(&q, h, 0), CUDA_ERROR_INVALID_VALUE,
	       "... flags without LAZY_ENABLE_PEER_ACCESS are checked first");
	is_res(cuIpcOpenMemHandle(NULL, h, 1), CUDA_ERROR_INVALID_VALUE,
	       "... and a NULL pointer before that");
	is_res(cuIpcCloseMemHandle(a), CUDA_ERROR_INVALID_VALUE,
	       "closing memory never opened is refused");
}

/* Asking again for a handle is answered from the handles already made
 * (model/ipc.c, without the process lock): the same bytes while the
 * allocation lives, and nothing of it once it is freed, also where a new
 * allocation takes its address. */
static void asked_again(void)
{
	CUipcMemHandle h, h2, h3;
	CUdeviceptr b = 0, c = 0;
	unsigned long long id_b = 0, id_c = 0;

	cuMemAlloc(&b, SIZE);
	cuPointerGetAttribute(&id_b, CU_POINTER_ATTRIBUTE_BUFFER_ID, b);
	cuIpcGetMemHandle(&h, b);
	is_res(cuIpcGetMemHandle(&h2, b), CUDA_SUCCESS,
	       "a handle asked for again");
	ok(!memcmp(&h, &h2, sizeof h), "... is the same handle");
	cuIpcGetMemHandle(&h2, b + 4096);
	ok(!memcmp(&h, &h2, sizeof h), "... for an interior address too");
	cuMemFree(b);
	is_res(cuIpcGetMemHandle(&h2, b), CUDA_ERROR_INVALID_VALUE,
	       "once freed, the address it was asked with has none");
	cuMemAlloc(&c, SIZE);
	cuPointerGetAttribute(&id_c, CU_POINTER_ATTRIBUTE_BUFFER_ID, c);
	is_int(c, b, "a new allocation of the size takes the address");
	is_res(cuIpcGetMemHandle(&h3, c), CUDA_SUCCESS, "... and has a handle");
	ok(memcmp(&h, &h3, sizeof h) != 0 && id_c != id_b,
	   "... its own, not the freed one's");
	cuMemFree(c);
}

/* The runtime's names: the same handles, the same refusals in its codes. */
static void runtime_names(CUdeviceptr a, CUevent ev)
{
	cudaIpcMemHandle_t ch;
	cudaIpcEventHandle_t ceh;
	CUipcMemHandle h;
	CUipcEventHandle eh;
	cudaEvent_t own = NULL;
	void *p = NULL;

	cuIpcGetMemHandle(&h, a);
	is_int(cudaIpcGetMemHandle(&ch, (void *)(uintptr_t)a), cudaSuccess,
	       "cudaIpcGetMemHandle");
	ok(!memcmp(&ch, &h, sizeof h), "... gives the driver's handle");
	is_int(cudaIpcOpenMemHandle(&p, ch, cudaIpcMemLazyEnablePeerAccess),
	       cudaErrorDeviceUninitialized,
	       "cudaIpcOpenMemHandle of its own handle: the driver's refusal");
	is_int(cudaIpcOpenMemHandle(&p, ch, 0), cudaErrorInvalidValue,
	       "cudaIpcOpenMemHandle without the flag is refused");
	is_int(cudaIpcCloseMemHandle((void *)(uintptr_t)a), cudaErrorInvalidValue,
	       "cudaIpcCloseMemHandle of memory never opened is refused");
	cudaGetLastError();
	cuIpcGetEventHandle(&eh, ev);
	is_int(cudaIpcGetEventHandle(&ceh, ev), cudaSuccess,
	       "cudaIpcGetEventHandle");
	ok(!memcmp(&ceh, &eh, sizeof eh), "... gives the driver's handle");
	is_int(cudaIpcOpenEventHandle(&own, ceh), cudaErrorDeviceUninitialized,
	       "cudaIpcOpenEventHandle of its own handle is refused");
	cudaGetLastError();
}

static void event_refusals(CUevent ev, CUipcEventHandle *h)
{
	CUipcEventHandle h2, junk;
	CUevent plain = NULL, own = NULL;

	cuEventCreate(&plain, CU_EVENT_DISABLE_TIMING);
	is_res(cuIpcGetEventHandle(&h2, plain), CUDA_ERROR_INVALID_HANDLE,
	       "an event without INTERPROCESS has no handle");
	cuEventDestroy(plain);
	is_res(cuIpcGetEventHandle(NULL, ev), CUDA_ERROR_INVALID_VALUE,
	       "a NULL event handle is refused");
	is_res(cuIpcGetEventHandle(&h2, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a NULL event is refused");
	is_res(cuIpcGetEventHandle(h, ev), CUDA_SUCCESS,
	       "an INTERPROCESS|DISABLE_TIMING event has a handle");
	cuIpcGetEventHandle(&h2, ev);
	ok(!memcmp(h, &h2, sizeof h2), "... the same each time");
	is_res(cuIpcOpenEventHandle(&own, *h), CUDA_ERROR_INVALID_CONTEXT,
	       "the exporter cannot open its own event handle");
	memset(&junk, 0x5a, sizeof junk);
	is_res(cuIpcOpenEventHandle(&own, junk), CUDA_ERROR_MAP_FAILED,
	       "a junk event handle does not map");
}

static volatile int gate;
static void CUDA_CB hold(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&gate, __ATOMIC_ACQUIRE))
		usleep(1000);
}

static void check_importer(const char *out)
{
#define V(k) child_value(out, k, -1)
	is_int(V("open"), 0, "the importer opens the handle");
	is_int(V("open2"), 0, "... twice");
	is_int(V("same_ptr"), 1, "... at one address");
	is_int(V("rt_open"), cudaSuccess, "cudaIpcOpenMemHandle opens it too");
	is_int(V("rt_same_ptr"), 1, "... at the same address");
	is_int(V("rt_close"), cudaSuccess, "cudaIpcCloseMemHandle closes that open");
	is_int(V("read"), 0x11111111, "... and reads the exporter's bytes");
	is_int(V("kernel_own"), 0, "a kernel on the memory's device stores to it");
	is_int(V("kernel_own_wrote"), 0x33333333, "... what it stored is there");
	is_int(V("kernel_peer"), 0, "a kernel on another device stores to it, "
	       "peer access enabled by the opening (cuda-samples' simpleIPC)");
	is_int(V("kernel_peer_wrote"), 0x55555555, "... what it stored is there");
	is_int(V("memtype"), CU_MEMORYTYPE_DEVICE, "it is device memory");
	is_int(V("legacy_ipc"), 0, "opened memory is not legacy IPC capable");
	is_int(V("same_buffer_id"), 1, "its buffer id is the exporter's");
	is_int(V("range"), 0, "its range is known");
	is_int(V("range_exact"), 1, "... the whole allocation");
	is_int(V("memfree"), CUDA_ERROR_INVALID_VALUE, "cuMemFree of it is refused");
	is_int(V("reexport"), CUDA_ERROR_INVALID_VALUE, "it cannot be exported again");
	is_int(V("flags0"), CUDA_ERROR_INVALID_VALUE, "flags 0 are refused");
	is_int(V("flags2"), CUDA_ERROR_INVALID_VALUE, "flags 2 are refused");
	is_int(V("flags3"), 0, "flags 3: the bits beside the lazy one are ignored");
	is_int(V("flags3_same"), 1, "... and it is the same mapping");
	is_int(V("junk"), CUDA_ERROR_INVALID_VALUE, "a junk handle is refused");
	is_int(V("null"), CUDA_ERROR_INVALID_VALUE, "a NULL pointer is refused");
	is_int(V("close_interior"), CUDA_ERROR_INVALID_VALUE,
	       "closing an interior address is refused");
	is_int(V("close_zero"), CUDA_ERROR_INVALID_VALUE, "closing 0 is refused");
	is_int(V("close1"), 0, "the first close succeeds");
	is_int(V("read_after_close1"), 0x22222222, "... the second open keeps it");
	is_int(V("close2"), 0, "the second close succeeds");
	is_int(V("close3"), CUDA_ERROR_INVALID_VALUE, "a third is refused");
	is_int(V("reopen"), 0, "it opens again");
	is_int(V("read_after_free"), 0x22222222,
	       "after the exporter frees it the importer still reads it");
	is_int(V("write_after_free"), 0x66666666, "... and writes it");
	is_int(V("close_after_free"), 0, "... and closes it");
	is_int(V("open_after_free_closed"), CUDA_ERROR_INVALID_VALUE,
	       "once closed, a handle of freed memory does not open");
	is_int(V("ev_open"), 0, "the importer opens the event");
	is_int(V("ev_open2"), 0, "... twice");
	is_int(V("ev_distinct"), 1, "... as two events");
	is_int(V("ev_query_unrecorded"), 0, "never recorded, it is complete");
	is_int(V("ev_reexport"), CUDA_ERROR_INVALID_HANDLE,
	       "an opened event cannot be exported again");
	is_int(V("ev_elapsed"), CUDA_ERROR_INVALID_HANDLE, "it cannot be timed");
	is_int(V("ev_query_pending"), CUDA_ERROR_NOT_READY,
	       "a record pending in the exporter is NOT_READY in the importer");
	is_int(V("ev_sync"), 0, "the importer's synchronize waits for it");
	is_int(V("ev_query_done"), 0, "... and then it is complete");
	is_int(V("ev_destroy"), 0, "both opened events are destroyed");
#undef V
}

static void exporter_leaves(void)
{
	char sockenv[64], *env[] = { sockenv, NULL };
	struct msg m;
	CUdeviceptr p = 0, q = 0;
	int sv[2];
	pid_t pid;

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	snprintf(sockenv, sizeof sockenv, "CUEMU_TEST_SOCK=%d", sv[1]);
	pid = spawn_self("leaver", env, NULL, NULL);
	close(sv[1]);
	sock = sv[0];
	if (pid < 0 || !readable_within(sock, 20) ||
	    read(sock, &m, sizeof m) != (ssize_t)sizeof m) {
		ok(0, "the exiting exporter sends its handle");
		return;
	}
	is_res(cuIpcOpenMemHandle(&p, m.mem, 1), CUDA_SUCCESS,
	       "another exporter's handle opens");
	step_send();
	is_int(wait_bounded(pid, 20), 0, "... and that exporter exits");
	is_int(word_at(p), 0x44444444, "its memory is still there");
	is_res(cuIpcOpenMemHandle(&q, m.mem, 1), CUDA_SUCCESS,
	       "opening it again while open succeeds");
	ok(q == p, "... at the same address");
	cuIpcCloseMemHandle(q);
	is_res(cuIpcCloseMemHandle(p), CUDA_SUCCESS, "it closes");
	is_res(cuIpcOpenMemHandle(&q, m.mem, 1), CUDA_ERROR_INVALID_HANDLE,
	       "once closed, a gone exporter's handle does not open");
	close(sock);
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);
	char out[256], sockenv[64], *env[] = { sockenv, NULL };
	struct msg m = { 0 };
	size_t f0 = 0, f1 = 0, f2 = 0, tot = 0;
	CUdeviceptr a = 0;
	CUevent ev = NULL;
	CUstream s = NULL;
	int sv[2];
	pid_t pid;

	if (role && !strcmp(role, "importer"))
		return importer();
	if (role && !strcmp(role, "leaver"))
		return leaver();
	snprintf(out, sizeof out, "%s/cuemu-ipc-%d.out",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	if (setup_ctx() || cuMemAlloc(&a, SIZE) ||
	    cuMemsetD32(a, 0x11111111, SIZE / 4)) {
		printf("Bail out! no context or memory\n");
		return 1;
	}
	refusals(a);
	asked_again();
	cuIpcGetMemHandle(&m.mem, a);
	cuPointerGetAttribute(&m.id, CU_POINTER_ATTRIBUTE_BUFFER_ID, a);
	cuEventCreate(&ev, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING);
	event_refusals(ev, &m.ev);
	runtime_names(a, ev);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	snprintf(sockenv, sizeof sockenv, "CUEMU_TEST_SOCK=%d", sv[1]);
	pid = spawn_self("importer", env, out, NULL);
	close(sv[1]);
	sock = sv[0];
	if (pid < 0 || write(sock, &m, sizeof m) != (ssize_t)sizeof m ||
	    step_wait()) {
		ok(0, "the importer runs");
	} else {
		is_int(word_at(a), 0x22222222,
		       "the exporter reads what the importer wrote");
		step_wait();    /* reopened */
		cuMemGetInfo(&f0, &tot);
		is_res(cuMemFree(a), CUDA_SUCCESS,
		       "the exporter frees memory an importer has open");
		cuMemGetInfo(&f1, &tot);
		is_int(f1, f0, "... and the device's free memory stays");
		step_send();
		step_wait();    /* closed; event opened */
		cuMemGetInfo(&f2, &tot);
		is_int(f2 - f0, SIZE, "the importer's close gives it back");
		cuLaunchHostFunc(s, hold, NULL);
		cuEventRecord(ev, s);
		step_send();
		step_wait();
		__atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
		cuStreamSynchronize(s);
		step_wait();
	}
	__atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
	is_int(wait_bounded(pid, 30), 0, "the importer finishes");
	close(sock);
	check_importer(out);
	unlink(out);
	exporter_leaves();
	cuEventDestroy(ev);
	cuStreamDestroy(s);
	return done_testing();
}
