/*
 * test_pool_ipc.c - a pool made with the POSIX fd handle type is shared with
 * another process: the exporter sends the pool's file descriptor (SCM_RIGHTS)
 * and a block's export data over a Unix socket; the importer, a fresh exec
 * of this program, imports the pool and the pointer, reads the bytes the
 * exporter wrote, writes its own that the exporter then reads, and finds
 * that an imported pool cannot allocate.
 *
 * The emulation's device memory is host memory, so both sides touch the
 * block through its pointer.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuda.h"
#include "fdpass.h"
#include "tap.h"

#define SIZE (3u << 20)

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 31 + 7);
}

/* The importer: answers one byte per fact, 1 for true. */
static int importer(int sock)
{
	CUmemPoolPtrExportData data;
	CUmemoryPool pool = NULL, other_pool = NULL;
	CUdeviceptr ptr = 0, other = 0;
	CUcontext ctx;
	CUdevice dev;
	unsigned char facts[9] = { 0 };
	const unsigned char *b;
	cuuint64_t v = 0;
	int fd, same = 1;
	CUstream s;

	fd = recv_fd(sock, &data, sizeof data);
	if (fd < 0 || cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx))
		return 2;
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	facts[0] = cuMemPoolImportFromShareableHandle(&pool,
		(void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
		0) == CUDA_SUCCESS;
	close(fd); /* the pool keeps its own */
	facts[1] = cuMemPoolImportPointer(&ptr, pool, &data) == CUDA_SUCCESS;
	if (facts[1]) {
		b = (const unsigned char *)(uintptr_t)ptr;
		for (size_t i = 0; i < SIZE; i++)
			same &= b[i] == pattern(i);
		facts[2] = same;
		memset((void *)(uintptr_t)ptr, 0xc3, 4096);
	}
	facts[3] = cuMemAllocFromPoolAsync(&other, 4096, pool, s) ==
		   CUDA_ERROR_INVALID_VALUE;
	facts[6] = cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT,
					 &v) == CUDA_ERROR_INVALID_VALUE &&
		   cuMemPoolTrimTo(pool, 0) == CUDA_ERROR_INVALID_VALUE;
	facts[7] = cuMemPoolImportFromShareableHandle(&other_pool, (void *)(uintptr_t)-1,
		CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0) == CUDA_ERROR_UNKNOWN;
	/* The seed: an imported pool may not be any device's current pool. */
	facts[8] = cuDeviceSetMemPool(0, pool) == CUDA_ERROR_INVALID_VALUE;
	facts[4] = cuMemFreeAsync(ptr, s) == CUDA_SUCCESS;
	facts[5] = cuMemPoolDestroy(pool) == CUDA_SUCCESS;
	cuStreamSynchronize(s);
	return write(sock, facts, sizeof facts) == (ssize_t)sizeof facts ? 0 : 3;
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
	unsigned char facts[9] = { 0 }, *b;
	int sv[2], fd = -1, st = 0;
	char arg[16];
	CUstream s;
	pid_t pid;

	if (argc == 3 && !strcmp(argv[1], "--importer"))
		return importer(atoi(argv[2]));

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

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		printf("Bail out! socketpair\n");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		snprintf(arg, sizeof arg, "%d", sv[1]);
		/* argv[0], not /proc/self/exe: under valgrind the latter is
		 * the tool, not this program. */
		execl(strchr(argv[0], '/') ? argv[0] : "/proc/self/exe",
		      argv[0], "--importer", arg, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	ok(send_fd(sv[0], fd, &data, sizeof data) == 0,
	   "send the descriptor and the export data over a Unix socket");
	close(fd);
	ok(read(sv[0], facts, sizeof facts) == (ssize_t)sizeof facts,
	   "the importer answers");
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the importer exits cleanly");
	ok(facts[0], "the other process imports the pool");
	ok(facts[1], "and the pointer");
	ok(facts[2], "and reads the bytes this process wrote");
	ok(b[0] == 0xc3 && b[4095] == 0xc3 && b[4096] == pattern(4096),
	   "this process reads the bytes the other wrote");
	ok(facts[3], "an imported pool cannot allocate");
	ok(facts[8], "nor be a device's current pool");
	ok(facts[4], "the importer frees the imported pointer");
	ok(facts[5], "and destroys the imported pool");
	ok(facts[6], "an imported pool tells no memory counts and cannot be trimmed");
	ok(facts[7], "a descriptor of -1 is CUDA_ERROR_UNKNOWN");
	is_res(cuMemFreeAsync(ptr, s), CUDA_SUCCESS, "the exporter frees the block");
	cuMemFreeAsync(pad, s);
	cuStreamSynchronize(s);
	is_res(cuMemPoolDestroy(pool), CUDA_SUCCESS, "and destroys the pool");
	cuStreamDestroy(s);
	return done_testing();
}
