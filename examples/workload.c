/*
 * workload.c - a process for cufs to show: it makes one object of each
 * kind (device, pinned host and managed memory, a pool block, a VMM
 * reservation with one mapping and its physical handle), labels them,
 * writes their ids to a file, then obeys commands until told to exit or
 * killed. The Bats tests drive it; the demo can too.
 *
 *   workload [--ids FILE] [--fifo FIFO] [--out FILE]
 *
 * --ids FILE gets shell assignments: pid= device= pinned= managed=
 * managed_base= managed_size= pool_block= reservation= resv_base= handle=.
 * Commands (one a line, from FIFO, else stdin):
 *   query TAG      append "TAG key=value" lines of what the API says about
 *                  the objects (range attributes, pool attributes, access),
 *                  then "TAG done", to the --out file (else stdout)
 *   touch          write every byte of the managed allocation from the CPU
 *   prefetch LOC   prefetch the managed allocation to gpuN or cpu
 *   system LOC     4 MiB from malloc advised to prefer LOC and prefetched
 *                  there (a pageable machine's system-allocated memory);
 *                  query then says system_base= and system_rc=
 *   attach HOW     attach the managed allocation to the workload's stream:
 *                  global, host or single (cuStreamAttachMemAsync)
 *   mpool          make a managed pool on gpu0 and a 4 MiB block of it;
 *                  query then says mpool_block=ID
 *   mpool_prefetch LOC  prefetch that block (cuMemPrefetchBatchAsync)
 *   array          make a 64x32 CUDA array of float2 on gpu0 (query's
 *                  "array=" says its id, 0 when there is none)
 *   unarray        destroy it
 *   ipc_export FILE  write the legacy IPC handle of the device allocation
 *                  to FILE (128 hex digits)
 *   ipc_open FILE  open the handle in FILE (another workload's)
 *   ipc_close      close what ipc_open opened
 *   free_device    free the device allocation
 *   multicast FILE make a multicast object of gpu0 and gpu1, 4 MiB, with
 *                  2 MiB of each bound at offset 0; its id to FILE
 *   multicast_unbind  unbind gpu1's memory
 *   multicast_release release the object
 *   exit           free everything and exit 0
 * Without --fifo and with stdin at end, it sleeps until a signal.
 */
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "cuemu.h"

#define MANAGED_SIZE (8u << 20)
#define GRAN (2u << 20)
#define SYSTEM_SIZE (4u << 20)

static struct {
	CUcontext ctx;
	CUstream stream;
	CUdeviceptr device, managed, pool_block, resv;
	void *pinned;
	CUmemoryPool pool;
	CUmemGenericAllocationHandle handle;
	void *system;           /* the "system" command's malloc'd buffer */
	CUresult system_rc;
	CUmemoryPool mpool;        /* the managed pool, once made (mpool) */
	CUdeviceptr mpool_block;
	CUarray array;   /* the "array" command's, or NULL */
	CUdeviceptr ipc;        /* what ipc_open opened */
	int ipc_opens;          /* and how many times */
	CUmemGenericAllocationHandle mc, mc_mem[2]; /* the multicast object */
} w;

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int check(CUresult r, const char *what)
{
	const char *name = NULL;

	if (r == CUDA_SUCCESS)
		return 0;
	cuGetErrorName(r, &name);
	fprintf(stderr, "workload: %s: %s\n", what, name ? name : "?");
	return -1;
}

static unsigned long long id_of(CUdeviceptr p)
{
	unsigned long long id = 0;

	cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, p);
	return id;
}

static int make_vmm(void)
{
	CUmemAllocationProp prop = {
		.type = CU_MEM_ALLOCATION_TYPE_PINNED,
		.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
	};
	CUmemAccessDesc acc = {
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
		.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
	};

	if (check(cuMemAddressReserve(&w.resv, 2 * GRAN, 0, 0, 0), "reserve") ||
	    check(cuMemCreate(&w.handle, GRAN, &prop, 0), "cuMemCreate") ||
	    check(cuMemMap(w.resv, GRAN, 0, w.handle, 0), "cuMemMap") ||
	    check(cuMemSetAccess(w.resv, GRAN, &acc, 1), "cuMemSetAccess"))
		return -1;
	return 0;
}

static int make_pool(void)
{
	CUmemPoolProps props = {
		.allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
	};

	if (check(cuMemPoolCreate(&w.pool, &props), "cuMemPoolCreate") ||
	    check(cuMemAllocFromPoolAsync(&w.pool_block, 1 << 20, w.pool,
					  w.stream), "pool alloc") ||
	    check(cuStreamSynchronize(w.stream), "sync"))
		return -1;
	return 0;
}

static int setup(void)
{
	if (check(cuInit(0), "cuInit") ||
	    check(cuDevicePrimaryCtxRetain(&w.ctx, 0), "primary context") ||
	    check(cuCtxSetCurrent(w.ctx), "cuCtxSetCurrent") ||
	    check(cuStreamCreate(&w.stream, CU_STREAM_NON_BLOCKING), "stream") ||
	    check(cuMemAlloc(&w.device, 4 << 20), "cuMemAlloc") ||
	    check(cuMemAllocHost(&w.pinned, 1 << 20), "cuMemAllocHost") ||
	    check(cuMemAllocManaged(&w.managed, MANAGED_SIZE,
				    CU_MEM_ATTACH_GLOBAL), "cuMemAllocManaged") ||
	    make_pool() || make_vmm())
		return -1;
	cuemuSetLabel(w.device, "weights");
	cuemuSetLabel((CUdeviceptr)w.pinned, "staging");
	cuemuSetLabel(w.managed, "activations");
	cuemuSetLabel(w.pool_block, "scratch");
	return 0;
}

static unsigned long long handle_id(void)
{
	unsigned long long id = 0;

	cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, w.resv);
	return id;
}

static int write_ids(const char *path)
{
	char tmp[4200];
	FILE *f;

	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if (!(f = fopen(tmp, "w")))
		return -1;
	fprintf(f, "pid=%d\ndevice=%llu\npinned=%llu\nmanaged=%llu\n"
		"managed_base=0x%llx\nmanaged_size=%u\npool_block=%llu\n"
		"reservation=%llu\nresv_base=0x%llx\nhandle=%llu\n",
		(int)getpid(), id_of(w.device), id_of((CUdeviceptr)w.pinned),
		id_of(w.managed), (unsigned long long)w.managed, MANAGED_SIZE,
		id_of(w.pool_block), id_of(w.resv),
		(unsigned long long)w.resv, handle_id());
	if (fclose(f) != 0)
		return -1;
	/* Renamed into place, so a reader never sees half the file. */
	return rename(tmp, path);
}

static const char *loc_word(int type, int id, char *buf, size_t len)
{
	switch (type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		snprintf(buf, len, "gpu%d", id);
		break;
	case CU_MEM_LOCATION_TYPE_HOST:
		snprintf(buf, len, "cpu");
		break;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		snprintf(buf, len, "numa%d", id);
		break;
	default:
		snprintf(buf, len, "none");
	}
	return buf;
}

static int range_attr(CUmem_range_attribute a)
{
	int v = -1;

	cuMemRangeGetAttribute(&v, sizeof v, a, w.managed, MANAGED_SIZE);
	return v;
}

static void query(FILE *out, const char *tag)
{
	int acc[8], n = 0;
	char b[32];
	cuuint64_t thr = 0;
	unsigned long long flags = 0;
	CUmemLocation dev0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUmemLocation dev1 = { CU_MEM_LOCATION_TYPE_DEVICE, 1 };

	fprintf(out, "%s system_base=%p\n%s system_rc=%d\n", tag, w.system,
		tag, (int)w.system_rc);
	fprintf(out, "%s preferred_location=%s\n", tag, loc_word(
		range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE),
		range_attr(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID),
		b, sizeof b));
	fprintf(out, "%s last_prefetch_location=%s\n", tag, loc_word(
		range_attr(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE),
		range_attr(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID),
		b, sizeof b));
	fprintf(out, "%s read_mostly=%d\n", tag,
		range_attr(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY));
	memset(acc, 0xff, sizeof acc);
	cuMemRangeGetAttribute(acc, sizeof acc,
			       CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, w.managed,
			       MANAGED_SIZE);
	fprintf(out, "%s accessed_by=", tag);
	for (int i = 0; i < 8; i++)
		if (acc[i] != -1 && acc[i] != -2)
			fprintf(out, "%s%s", n++ ? "," : "",
				acc[i] == CU_DEVICE_CPU ? "cpu" :
				loc_word(CU_MEM_LOCATION_TYPE_DEVICE, acc[i],
					 b, sizeof b));
	fprintf(out, "\n");
	cuMemPoolGetAttribute(w.pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &thr);
	fprintf(out, "%s release_threshold=%llu\n", tag,
		(unsigned long long)thr);
	thr = 0;
	cuMemPoolGetAttribute(w.pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &thr);
	fprintf(out, "%s used_mem_high=%llu\n", tag, (unsigned long long)thr);
	flags = 0;
	cuMemPoolGetAccess((CUmemAccess_flags *)&flags, w.pool, &dev1);
	fprintf(out, "%s pool_access_gpu1=%llu\n", tag, flags);
	flags = 0;
	cuMemGetAccess(&flags, &dev1, w.resv);
	fprintf(out, "%s resv_access_gpu1=%llu\n", tag, flags);
	flags = 0;
	cuMemGetAccess(&flags, &dev0, w.resv);
	fprintf(out, "%s resv_access_gpu0=%llu\n", tag, flags);
	if (w.mpool_block)
		fprintf(out, "%s mpool_block=%llu\n", tag, id_of(w.mpool_block));
	fprintf(out, "%s array=%llu\n", tag,
		(unsigned long long)(uintptr_t)w.array);
	fprintf(out, "%s done\n", tag);
	fflush(out);
}

static void prefetch(const char *word)
{
	CUmemLocation l = { CU_MEM_LOCATION_TYPE_HOST, 0 };

	if (!strncmp(word, "gpu", 3)) {
		l.type = CU_MEM_LOCATION_TYPE_DEVICE;
		l.id = atoi(word + 3);
	}
	if (check(cuMemPrefetchAsync(w.managed, MANAGED_SIZE, l, 0, w.stream),
		  "prefetch") == 0)
		check(cuStreamSynchronize(w.stream), "sync");
}

/* "system LOC": 4 MiB from malloc, advised to prefer LOC and prefetched
 * there, as a pageable machine allows (system-allocated memory); query
 * then says system_base= and system_rc= (the first error, 0 when none). */
static void system_memory(const char *word)
{
	CUmemLocation l = { CU_MEM_LOCATION_TYPE_HOST, 0 };
	CUresult r;

	if (!strncmp(word, "gpu", 3)) {
		l.type = CU_MEM_LOCATION_TYPE_DEVICE;
		l.id = atoi(word + 3);
	}
	if (!w.system && !(w.system = malloc(SYSTEM_SIZE)))
		return;
	memset(w.system, 2, SYSTEM_SIZE);
	r = cuMemAdvise((CUdeviceptr)w.system, SYSTEM_SIZE,
			CU_MEM_ADVISE_SET_PREFERRED_LOCATION, l);
	if (!r)
		r = cuMemPrefetchAsync((CUdeviceptr)w.system, SYSTEM_SIZE, l, 0,
				       w.stream);
	if (!r)
		r = cuStreamSynchronize(w.stream);
	w.system_rc = r;
}

static void attach(const char *word)
{
	unsigned flags = !strcmp(word, "host") ? CU_MEM_ATTACH_HOST :
			 !strcmp(word, "single") ? CU_MEM_ATTACH_SINGLE :
			 CU_MEM_ATTACH_GLOBAL;

	if (check(cuStreamAttachMemAsync(w.stream, w.managed, 0, flags),
		  "attach") == 0)
		check(cuStreamSynchronize(w.stream), "sync");
}

static void make_mpool(void)
{
	CUmemPoolProps props = {
		.allocType = CU_MEM_ALLOCATION_TYPE_MANAGED,
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
	};

	if (w.mpool)
		return;
	if (check(cuMemPoolCreate(&w.mpool, &props), "managed pool") ||
	    check(cuMemAllocFromPoolAsync(&w.mpool_block, 4 << 20, w.mpool,
					  w.stream), "managed pool alloc") ||
	    check(cuStreamSynchronize(w.stream), "sync"))
		return;
	cuemuSetLabel(w.mpool_block, "mpool");
}

static void mpool_prefetch(const char *word)
{
	CUmemLocation l = { CU_MEM_LOCATION_TYPE_HOST, 0 };
	size_t size = 4 << 20, idx = 0;

	if (!w.mpool_block)
		return;
	if (!strncmp(word, "gpu", 3)) {
		l.type = CU_MEM_LOCATION_TYPE_DEVICE;
		l.id = atoi(word + 3);
	}
	if (check(cuMemPrefetchBatchAsync(&w.mpool_block, &size, 1, &l, &idx,
					  1, 0, w.stream), "batch prefetch") == 0)
		check(cuStreamSynchronize(w.stream), "sync");
}

/* A CUDA array's handle is its id in /cu (libcuemu(3)). */
static void array(bool make)
{
	CUDA_ARRAY3D_DESCRIPTOR d = { 64, 32, 0, CU_AD_FORMAT_FLOAT, 2, 0 };

	if (make && !w.array)
		check(cuArray3DCreate(&w.array, &d), "cuArray3DCreate");
	else if (!make && w.array &&
		 check(cuArrayDestroy(w.array), "cuArrayDestroy") == 0)
		w.array = NULL;
}

static void ipc_export(const char *file)
{
	CUipcMemHandle h;
	FILE *f;

	if (check(cuIpcGetMemHandle(&h, w.device), "cuIpcGetMemHandle") ||
	    !(f = fopen(file, "w")))
		return;
	for (size_t i = 0; i < sizeof h.reserved; i++)
		fprintf(f, "%02x", (unsigned char)h.reserved[i]);
	fputc('\n', f);
	fclose(f);
}

static void ipc_open(const char *file)
{
	CUipcMemHandle h;
	unsigned int b;
	FILE *f = fopen(file, "r");

	if (!f)
		return;
	for (size_t i = 0; i < sizeof h.reserved; i++) {
		if (fscanf(f, "%2x", &b) != 1)
			break;
		h.reserved[i] = (char)b;
	}
	fclose(f);
	if (!check(cuIpcOpenMemHandle(&w.ipc, h,
				      CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS),
		   "cuIpcOpenMemHandle"))
		w.ipc_opens++;
}

static void multicast(const char *file)
{
	CUmulticastObjectProp mp = {
		.numDevices = 2, .size = 2 * GRAN,
		.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
	};
	CUmemAllocationProp prop = {
		.type = CU_MEM_ALLOCATION_TYPE_PINNED,
		.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
	};
	FILE *f;

	if (check(cuMulticastCreate(&w.mc, &mp), "cuMulticastCreate"))
		return;
	for (int d = 0; d < 2; d++) {
		prop.location.id = d;
		if (check(cuMulticastAddDevice(w.mc, d), "cuMulticastAddDevice") ||
		    check(cuMemCreate(&w.mc_mem[d], GRAN, &prop, 0), "cuMemCreate"))
			return;
	}
	for (int d = 0; d < 2; d++)
		if (check(cuMulticastBindMem(w.mc, 0, w.mc_mem[d], 0, GRAN, 0),
			  "cuMulticastBindMem"))
			return;
	if ((f = fopen(file, "w"))) {
		fprintf(f, "%llu\n", (unsigned long long)w.mc);
		fclose(f);
	}
}

static void multicast_release(void)
{
	if (w.mc)
		check(cuMemRelease(w.mc), "cuMemRelease");
	w.mc = 0;
	for (int d = 0; d < 2; d++) {
		if (w.mc_mem[d])
			cuMemRelease(w.mc_mem[d]);
		w.mc_mem[d] = 0;
	}
}

static void teardown(void)
{
	if (w.mpool_block) {
		cuMemFreeAsync(w.mpool_block, w.stream);
		cuStreamSynchronize(w.stream);
		cuMemPoolDestroy(w.mpool);
	}
	array(false);
	multicast_release();
	while (w.ipc_opens-- > 0)
		cuIpcCloseMemHandle(w.ipc);
	cuMemFreeAsync(w.pool_block, w.stream);
	cuStreamSynchronize(w.stream);
	cuMemPoolDestroy(w.pool);
	cuMemUnmap(w.resv, GRAN);
	cuMemRelease(w.handle);
	cuMemAddressFree(w.resv, 2 * GRAN);
	cuMemFree(w.managed);
	free(w.system);
	cuMemFreeHost(w.pinned);
	if (w.device)
		cuMemFree(w.device);
	cuStreamDestroy(w.stream);
	cuDevicePrimaryCtxRelease(0);
}

static void obey(FILE *in, FILE *out)
{
	/* A command names a file under TMPDIR, which may lie deep. */
	char line[PATH_MAX + 64], arg[PATH_MAX];

	while (!stop && fgets(line, sizeof line, in)) {
		if (sscanf(line, "query %4095s", arg) == 1)
			query(out, arg);
		else if (!strncmp(line, "touch", 5))
			memset((void *)w.managed, 1, MANAGED_SIZE);
		else if (sscanf(line, "prefetch %4095s", arg) == 1)
			prefetch(arg);
		else if (sscanf(line, "system %4095s", arg) == 1)
			system_memory(arg);
		else if (sscanf(line, "attach %4095s", arg) == 1)
			attach(arg);
		else if (sscanf(line, "mpool_prefetch %4095s", arg) == 1)
			mpool_prefetch(arg);
		else if (!strncmp(line, "mpool", 5))
			make_mpool();
		else if (!strncmp(line, "array", 5))
			array(true);
		else if (!strncmp(line, "unarray", 7))
			array(false);
		else if (sscanf(line, "ipc_export %4095s", arg) == 1)
			ipc_export(arg);
		else if (sscanf(line, "ipc_open %4095s", arg) == 1)
			ipc_open(arg);
		else if (!strncmp(line, "ipc_close", 9)) {
			if (!check(cuIpcCloseMemHandle(w.ipc),
				   "cuIpcCloseMemHandle"))
				w.ipc_opens--;
		} else if (!strncmp(line, "multicast_unbind", 16)) {
			check(cuMulticastUnbind(w.mc, 1, 0, GRAN),
			      "cuMulticastUnbind");
		} else if (!strncmp(line, "multicast_release", 17)) {
			multicast_release();
		} else if (sscanf(line, "multicast %4095s", arg) == 1) {
			multicast(arg);
		} else if (!strncmp(line, "free_device", 11)) {
			check(cuMemFree(w.device), "cuMemFree");
			w.device = 0;
		} else if (!strncmp(line, "exit", 4))
			break;
		else
			fprintf(stderr, "workload: unknown command: %s", line);
	}
}

int main(int argc, char **argv)
{
	const char *ids = NULL, *fifo = NULL, *outp = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	FILE *in = stdin, *out = stdout;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--ids"))
			ids = argv[i + 1];
		else if (!strcmp(argv[i], "--fifo"))
			fifo = argv[i + 1];
		else if (!strcmp(argv[i], "--out"))
			outp = argv[i + 1];
	}
	/* No SA_RESTART: a signal ends the blocking read, so the process
	 * exits normally and its control socket goes away. */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (setup() < 0)
		return 1;
	if (ids && write_ids(ids) < 0) {
		perror("workload: --ids");
		return 1;
	}
	/* Opened read-write, a fifo never reads end-of-file when a writer
	 * closes it. */
	if (fifo && !(in = fopen(fifo, "r+"))) {
		perror("workload: --fifo");
		return 1;
	}
	if (outp && !(out = fopen(outp, "a"))) {
		perror("workload: --out");
		return 1;
	}
	obey(in, out);
	while (!stop && !fifo && feof(in))
		pause();
	teardown();
	return 0;
}
