/*
 * bench_share.c - sharing device memory: opening another process's legacy
 * IPC handle and closing it (the mapping made and undone, and again while
 * a first open holds it), taking a handle, and binding 2 MiB to a
 * multicast object and unbinding it, each beside the real driver's median
 * (probes/share.c on one H200; that machine has no multicast, so the bind
 * row has no real figure).
 *
 * The exporter is a child forked at the row's setup, before it uses the
 * API: it allocates, sends its handle down a pipe and waits for the pipe
 * to close.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuda.h"
#include "bench.h"

#define MIB (1UL << 20)
#define G (2UL << 20)

struct ipc_ctx {
	pid_t child;
	int to_child;                   /* closing it lets the child go */
	CUipcMemHandle h;
	CUdeviceptr held;               /* the held row's first open */
};

static void exporter(int out, int in)
{
	CUipcMemHandle h;
	CUdeviceptr p = 0;
	char c;

	if (cuMemAlloc(&p, MIB) || cuIpcGetMemHandle(&h, p) ||
	    write(out, &h, sizeof h) != (ssize_t)sizeof h)
		_exit(1);
	while (read(in, &c, 1) > 0)
		;
	_exit(0);
}

static int ipc_setup(void **out)
{
	struct ipc_ctx *c = calloc(1, sizeof *c);
	int down[2], up[2];
	CUcontext ctx;

	if (!c || cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx) || pipe(down) || pipe(up)) {
		free(c);
		return 1;
	}
	if ((c->child = fork()) == 0) {
		close(down[1]);
		close(up[0]);
		exporter(up[1], down[0]);
	}
	close(down[0]);
	close(up[1]);
	c->to_child = down[1];
	if (c->child < 0 || read(up[0], &c->h, sizeof c->h) !=
	    (ssize_t)sizeof c->h) {
		close(up[0]);
		close(c->to_child);
		free(c);
		return 1;
	}
	close(up[0]);
	*out = c;
	return 0;
}

static int held_setup(void **out)
{
	struct ipc_ctx *c;

	if (ipc_setup(out))
		return 1;
	c = *out;
	return cuIpcOpenMemHandle(&c->held, c->h,
				  CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) != 0;
}

static void ipc_teardown(void *arg)
{
	struct ipc_ctx *c = arg;

	if (c->held)
		cuIpcCloseMemHandle(c->held);
	close(c->to_child);
	waitpid(c->child, NULL, 0);
	free(c);
}

static int open_close(void *arg)
{
	struct ipc_ctx *c = arg;
	CUdeviceptr p;

	if (cuIpcOpenMemHandle(&p, c->h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS))
		return 1;
	return cuIpcCloseMemHandle(p) != CUDA_SUCCESS;
}

struct get_ctx {
	CUdeviceptr p;
};

static int get_setup(void **out)
{
	struct get_ctx *c = calloc(1, sizeof *c);
	CUcontext ctx;

	if (!c || cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx) || cuMemAlloc(&c->p, MIB)) {
		free(c);
		return 1;
	}
	*out = c;
	return 0;
}

static int get_handle(void *arg)
{
	struct get_ctx *c = arg;
	CUipcMemHandle h;

	return cuIpcGetMemHandle(&h, c->p) != CUDA_SUCCESS;
}

static void get_teardown(void *arg)
{
	struct get_ctx *c = arg;

	cuMemFree(c->p);
	free(c);
}

struct mc_ctx {
	CUmemGenericAllocationHandle mc, mem;
};

static int mc_setup(void **out)
{
	CUmulticastObjectProp mp = {
		.numDevices = 1, .size = G,
		.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
	};
	CUmemAllocationProp p = {
		.type = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
		.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
	};
	struct mc_ctx *c = calloc(1, sizeof *c);
	CUcontext ctx;

	if (!c || cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx) || cuMulticastCreate(&c->mc, &mp) ||
	    cuMulticastAddDevice(c->mc, 0) || cuMemCreate(&c->mem, G, &p, 0)) {
		free(c);
		return 1;
	}
	*out = c;
	return 0;
}

static int bind_unbind(void *arg)
{
	struct mc_ctx *c = arg;

	if (cuMulticastBindMem(c->mc, 0, c->mem, 0, G, 0))
		return 1;
	return cuMulticastUnbind(c->mc, 0, 0, G) != CUDA_SUCCESS;
}

static void mc_teardown(void *arg)
{
	struct mc_ctx *c = arg;

	cuMemRelease(c->mc);
	cuMemRelease(c->mem);
	free(c);
}

const struct bench_row bench_share_rows[] = {
	{ "cuIpcGetMemHandle.1MiB", 75, get_setup, get_handle,
	  get_teardown, 0, NULL },
	{ "cuIpcOpenMemHandle+cuIpcCloseMemHandle.1MiB", 63632, ipc_setup,
	  open_close, ipc_teardown, 200, NULL },
	{ "cuIpcOpenMemHandle+cuIpcCloseMemHandle.1MiB.held", 1295,
	  held_setup, open_close, ipc_teardown, 0, NULL },
	{ "cuMulticastBindMem+cuMulticastUnbind.2MiB", 0, mc_setup,
	  bind_unbind, mc_teardown, 0, NULL },
	{ NULL, 0, NULL, NULL, NULL, 0, NULL },
};
