/*
 * test_pool_ipc.c - a pool made with the POSIX fd handle type is shared with
 * another process: the exporter sends the pool's file descriptor (SCM_RIGHTS)
 * and a block's export data over a Unix socket; the importer, a second run
 * of this program (spawn.h), imports the pool and the pointer, reads the
 * bytes the exporter wrote, writes its own that the exporter then reads,
 * and finds that an imported pool cannot allocate. It prints the result of
 * each step, "key value" a line, and the exporter checks each on a TAP
 * line of its own.
 *
 * The emulation's device memory is host memory, so both sides touch the
 * block through its pointer.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cuda.h"
#include "fdpass.h"
#include "spawn.h"
#include "tap.h"

#define SIZE (3u << 20)

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 31 + 7);
}

/* The importer, with the socket's descriptor in CUEMU_TEST_SOCK: prints
 * each step's result, and answers one byte on the socket once the bytes
 * it writes are there for the exporter to read. */
static int importer(void)
{
	CUmemPoolPtrExportData data;
	CUmemoryPool pool = NULL, other_pool = NULL;
	CUdeviceptr ptr = 0, other = 0;
	CUcontext ctx;
	CUdevice dev = 0;
	const unsigned char *b;
	cuuint64_t v = 0;
	const char *e = getenv("CUEMU_TEST_SOCK");
	int sock = e ? atoi(e) : -1, fd, same = 1;
	CUresult r;
	CUstream s = NULL;
	char ack = 'k';

	fd = recv_fd(sock, &data, sizeof data);
	printf("recv %d\n", fd >= 0);
	printf("init %d\n", (int)cuInit(0));
	printf("device %d\n", (int)cuDeviceGet(&dev, 0));
	r = cuDevicePrimaryCtxRetain(&ctx, dev);
	printf("context %d\n", (int)(r ? r : cuCtxSetCurrent(ctx)));
	printf("stream %d\n", (int)cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	printf("import_pool %d\n", (int)cuMemPoolImportFromShareableHandle(&pool,
		(void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
		0));
	close(fd); /* the pool keeps its own */
	r = cuMemPoolImportPointer(&ptr, pool, &data);
	printf("import_pointer %d\n", (int)r);
	if (r == CUDA_SUCCESS) {
		b = (const unsigned char *)(uintptr_t)ptr;
		for (size_t i = 0; i < SIZE; i++)
			same &= b[i] == pattern(i);
		printf("bytes_read %d\n", same);
		memset((void *)(uintptr_t)ptr, 0xc3, 4096);
	}
	fflush(stdout);
	printf("ack_sent %d\n", write(sock, &ack, 1) == 1);
	printf("alloc %d\n", (int)cuMemAllocFromPoolAsync(&other, 4096, pool, s));
	printf("reserved_current %d\n", (int)cuMemPoolGetAttribute(pool,
		CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v));
	/* probes/results/poolsweep.txt: every attribute, got or set. */
	printf("threshold_get %d\n", (int)cuMemPoolGetAttribute(pool,
		CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
	printf("follow_set %d\n", (int)cuMemPoolSetAttribute(pool,
		CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, &(int){ 0 }));
	v = 0;
	printf("high_reset %d\n", (int)cuMemPoolSetAttribute(pool,
		CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v));
	printf("trim %d\n", (int)cuMemPoolTrimTo(pool, 0));
	printf("import_minus_one %d\n",
	       (int)cuMemPoolImportFromShareableHandle(&other_pool,
			(void *)(uintptr_t)-1,
			CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	/* The seed: an imported pool may not be any device's current pool. */
	printf("set_mem_pool %d\n", (int)cuDeviceSetMemPool(0, pool));
	printf("free %d\n", (int)cuMemFreeAsync(ptr, s));
	printf("destroy %d\n", (int)cuMemPoolDestroy(pool));
	printf("sync %d\n", (int)cuStreamSynchronize(s));
	return 0;
}

static char importer_out[256];

static long long imp(const char *key)
{
	return child_value(importer_out, key, -999);
}

int main(int argc, char **argv)
{
	CUmemPoolProps pp = {
		.allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
		.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
		.location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 },
	};
	CUmemPoolPtrExportData data;
	CUmemoryPool pool = NULL;
	CUdeviceptr pad = 0, ptr = 0;
	CUcontext ctx;
	CUdevice dev;
	const char *role = child_role(argc, argv);
	unsigned char *b;
	int sv[2], fd = -1;
	char ack = 0, sockenv[64];
	char *env[] = { sockenv, NULL };
	CUstream s;
	pid_t pid;

	if (role && !strcmp(role, "importer"))
		return importer();
	snprintf(importer_out, sizeof importer_out, "%s/cuemu-pool-ipc-%d.out",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());

	if (cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) {
		printf("Bail out! no context\n");
		return 1;
	}
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	is_res(cuMemPoolCreate(&pool, &pp), CUDA_SUCCESS,
	       "a pool with the POSIX fd handle type");
	/* A first block, so the shared one does not start the memfd. */
	cuMemAllocFromPoolAsync(&pad, 5000, pool, s);
	is_res(cuMemAllocFromPoolAsync(&ptr, SIZE, pool, s), CUDA_SUCCESS,
	       "allocate 3 MiB from it");
	b = (unsigned char *)(uintptr_t)ptr;
	for (size_t i = 0; i < SIZE; i++)
		b[i] = pattern(i);
	is_res(cuMemPoolExportToShareableHandle(&fd, pool,
		CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0), CUDA_SUCCESS,
	       "export the pool");
	ok(fd >= 0, "as a file descriptor");
	is_res(cuMemPoolExportToShareableHandle(&fd, pool, CU_MEM_HANDLE_TYPE_FABRIC, 0),
	       CUDA_ERROR_INVALID_VALUE, "not as a handle type it was not made with");
	is_res(cuMemPoolExportPointer(&data, ptr), CUDA_SUCCESS, "export the pointer");

	/* Ours closes on exec; the importer's end is inherited. */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
	    fcntl(sv[1], F_SETFD, 0) < 0) {
		printf("Bail out! socketpair\n");
		return 1;
	}
	snprintf(sockenv, sizeof sockenv, "CUEMU_TEST_SOCK=%d", sv[1]);
	pid = spawn_self("importer", env, importer_out, NULL);
	close(sv[1]);
	ok(pid > 0, "the importer, a second process, is started");
	ok(send_fd(sv[0], fd, &data, sizeof data) == 0,
	   "send the descriptor and the export data over a Unix socket");
	close(fd);
	ok(readable_within(sv[0], 30) && read(sv[0], &ack, 1) == 1 &&
	   ack == 'k', "the importer answers after its write, within 30 s");
	is_int(b[0], 0xc3, "this process reads the first byte the other wrote");
	is_int(b[4095], 0xc3, "and the last");
	is_int(b[4096], pattern(4096), "and its own after them, unchanged");
	is_int(pid > 0 ? wait_bounded(pid, 30) : -1, 0,
	       "the importer runs to its end");
	close(sv[0]);
	is_int(imp("recv"), 1, "the importer receives the descriptor");
	is_res(imp("init"), CUDA_SUCCESS, "the importer: cuInit");
	is_res(imp("device"), CUDA_SUCCESS, "the importer: device 0");
	is_res(imp("context"), CUDA_SUCCESS, "the importer: its primary context");
	is_res(imp("stream"), CUDA_SUCCESS, "the importer: a stream");
	is_res(imp("import_pool"), CUDA_SUCCESS,
	       "the other process imports the pool");
	is_res(imp("import_pointer"), CUDA_SUCCESS, "and the pointer");
	is_int(imp("bytes_read"), 1, "and reads the bytes this process wrote");
	is_res(imp("alloc"), CUDA_ERROR_INVALID_VALUE,
	       "an imported pool cannot allocate");
	is_res(imp("set_mem_pool"), CUDA_ERROR_INVALID_VALUE,
	       "nor be a device's current pool");
	is_res(imp("free"), CUDA_SUCCESS,
	       "the importer frees the imported pointer");
	is_res(imp("destroy"), CUDA_SUCCESS, "and destroys the imported pool");
	is_res(imp("sync"), CUDA_SUCCESS, "and its stream completes");
	is_res(imp("reserved_current"), CUDA_ERROR_INVALID_VALUE,
	       "an imported pool tells no memory counts");
	is_res(imp("threshold_get"), CUDA_ERROR_INVALID_VALUE,
	       "nor its release threshold");
	is_res(imp("follow_set"), CUDA_ERROR_INVALID_VALUE,
	       "its reuse policy cannot be set");
	is_res(imp("high_reset"), CUDA_ERROR_INVALID_VALUE,
	       "nor its high-water marks reset");
	is_res(imp("trim"), CUDA_ERROR_INVALID_VALUE,
	       "an imported pool cannot be trimmed");
	is_res(imp("import_minus_one"), CUDA_ERROR_UNKNOWN,
	       "a descriptor of -1 is CUDA_ERROR_UNKNOWN");
	unlink(importer_out);
	is_res(cuMemFreeAsync(ptr, s), CUDA_SUCCESS, "the exporter frees the block");
	cuMemFreeAsync(pad, s);
	cuStreamSynchronize(s);
	is_res(cuMemPoolDestroy(pool), CUDA_SUCCESS, "and destroys the pool");
	cuStreamDestroy(s);
	return done_testing();
}
