/*
 * errors.c - what a CUresult is called and what it means (the table behind
 * cuGetErrorName and cuGetErrorString, which driver/error.c answers), the
 * per-thread message that says why a call failed (cuemu_fail), and the
 * CUEMU_DEBUG trace. State: one thread-local buffer; no locks.
 */
#include "model/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct result_desc {
	CUresult r;
	const char *name;
	const char *text;
};

#define E(r, text) { r, #r, text }
static const struct result_desc results[] = {
	E(CUDA_SUCCESS, "no error"),
	E(CUDA_ERROR_INVALID_VALUE, "invalid argument"),
	E(CUDA_ERROR_OUT_OF_MEMORY, "out of memory"),
	E(CUDA_ERROR_NOT_INITIALIZED, "initialization error: cuInit has not been called"),
	E(CUDA_ERROR_DEINITIALIZED, "driver shutting down"),
	E(CUDA_ERROR_PROFILER_DISABLED, "profiler disabled"),
	E(CUDA_ERROR_PROFILER_NOT_INITIALIZED, "profiler not initialized"),
	E(CUDA_ERROR_PROFILER_ALREADY_STARTED, "profiler already started"),
	E(CUDA_ERROR_PROFILER_ALREADY_STOPPED, "profiler already stopped"),
	E(CUDA_ERROR_STUB_LIBRARY, "stub library"),
	E(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, "call requires newer driver"),
	E(CUDA_ERROR_DEVICE_UNAVAILABLE, "device unavailable"),
	E(CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected"),
	E(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal"),
	E(CUDA_ERROR_DEVICE_NOT_LICENSED, "device not licensed"),
	E(CUDA_ERROR_INVALID_IMAGE, "invalid image"),
	E(CUDA_ERROR_INVALID_CONTEXT, "invalid device context"),
	E(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, "context already current"),
	E(CUDA_ERROR_MAP_FAILED, "mapping of buffer object failed"),
	E(CUDA_ERROR_UNMAP_FAILED, "unmapping of buffer object failed"),
	E(CUDA_ERROR_ARRAY_IS_MAPPED, "array is mapped"),
	E(CUDA_ERROR_ALREADY_MAPPED, "resource already mapped"),
	E(CUDA_ERROR_NO_BINARY_FOR_GPU, "no binary for gpu"),
	E(CUDA_ERROR_ALREADY_ACQUIRED, "already acquired"),
	E(CUDA_ERROR_NOT_MAPPED, "resource not mapped"),
	E(CUDA_ERROR_NOT_MAPPED_AS_ARRAY, "not mapped as array"),
	E(CUDA_ERROR_NOT_MAPPED_AS_POINTER, "not mapped as pointer"),
	E(CUDA_ERROR_ECC_UNCORRECTABLE, "ecc uncorrectable"),
	E(CUDA_ERROR_UNSUPPORTED_LIMIT, "unsupported limit"),
	E(CUDA_ERROR_CONTEXT_ALREADY_IN_USE, "context already in use"),
	E(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, "peer access is not supported between these two devices"),
	E(CUDA_ERROR_INVALID_PTX, "invalid ptx"),
	E(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, "invalid graphics context"),
	E(CUDA_ERROR_NVLINK_UNCORRECTABLE, "nvlink uncorrectable"),
	E(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "jit compiler not found"),
	E(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "unsupported ptx version"),
	E(CUDA_ERROR_JIT_COMPILATION_DISABLED, "jit compilation disabled"),
	E(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, "unsupported exec affinity"),
	E(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC, "unsupported devside sync"),
	E(CUDA_ERROR_CONTAINED, "contained"),
	E(CUDA_ERROR_INVALID_SOURCE, "invalid source"),
	E(CUDA_ERROR_FILE_NOT_FOUND, "file not found"),
	E(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, "shared object symbol not found"),
	E(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, "shared object init failed"),
	E(CUDA_ERROR_OPERATING_SYSTEM, "OS call failed or operation not supported on this OS"),
	E(CUDA_ERROR_INVALID_HANDLE, "invalid resource handle"),
	E(CUDA_ERROR_ILLEGAL_STATE, "the operation cannot be performed in the present state"),
	E(CUDA_ERROR_LOSSY_QUERY, "lossy query"),
	E(CUDA_ERROR_NOT_FOUND, "named symbol not found"),
	E(CUDA_ERROR_NOT_READY, "device not ready"),
	E(CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered"),
	E(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "launch out of resources"),
	E(CUDA_ERROR_LAUNCH_TIMEOUT, "launch timeout"),
	E(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING, "launch incompatible texturing"),
	E(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "peer access is already enabled"),
	E(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "peer access has not been enabled"),
	E(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, "cannot set while device is active in this process"),
	E(CUDA_ERROR_CONTEXT_IS_DESTROYED, "context is destroyed"),
	E(CUDA_ERROR_ASSERT, "assert"),
	E(CUDA_ERROR_TOO_MANY_PEERS, "peer mapping resources exhausted"),
	E(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "part or all of the requested memory range is already mapped"),
	E(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "pointer does not correspond to a registered memory region"),
	E(CUDA_ERROR_HARDWARE_STACK_ERROR, "hardware stack error"),
	E(CUDA_ERROR_ILLEGAL_INSTRUCTION, "illegal instruction"),
	E(CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned address"),
	E(CUDA_ERROR_INVALID_ADDRESS_SPACE, "invalid address space"),
	E(CUDA_ERROR_INVALID_PC, "invalid pc"),
	E(CUDA_ERROR_LAUNCH_FAILED, "launch failed"),
	E(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "cooperative launch too large"),
	E(CUDA_ERROR_TENSOR_MEMORY_LEAK, "tensor memory leak"),
	E(CUDA_ERROR_NOT_PERMITTED, "operation not permitted"),
	E(CUDA_ERROR_NOT_SUPPORTED, "operation not supported"),
	E(CUDA_ERROR_SYSTEM_NOT_READY, "system not ready"),
	E(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, "system driver mismatch"),
	E(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, "compat not supported on device"),
	E(CUDA_ERROR_MPS_CONNECTION_FAILED, "mps connection failed"),
	E(CUDA_ERROR_MPS_RPC_FAILURE, "mps rpc failure"),
	E(CUDA_ERROR_MPS_SERVER_NOT_READY, "mps server not ready"),
	E(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED, "mps max clients reached"),
	E(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED, "mps max connections reached"),
	E(CUDA_ERROR_MPS_CLIENT_TERMINATED, "mps client terminated"),
	E(CUDA_ERROR_CDP_NOT_SUPPORTED, "cdp not supported"),
	E(CUDA_ERROR_CDP_VERSION_MISMATCH, "cdp version mismatch"),
	E(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "stream capture unsupported"),
	E(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "stream capture invalidated"),
	E(CUDA_ERROR_STREAM_CAPTURE_MERGE, "stream capture merge"),
	E(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, "stream capture unmatched"),
	E(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, "stream capture unjoined"),
	E(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, "stream capture isolation"),
	E(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, "stream capture implicit"),
	E(CUDA_ERROR_CAPTURED_EVENT, "captured event"),
	E(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, "stream capture wrong thread"),
	E(CUDA_ERROR_TIMEOUT, "wait operation timed out"),
	E(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, "graph exec update failure"),
	E(CUDA_ERROR_EXTERNAL_DEVICE, "external device"),
	E(CUDA_ERROR_INVALID_CLUSTER_SIZE, "invalid cluster size"),
	E(CUDA_ERROR_FUNCTION_NOT_LOADED, "function not loaded"),
	E(CUDA_ERROR_INVALID_RESOURCE_TYPE, "invalid resource type"),
	E(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION, "invalid resource configuration"),
	E(CUDA_ERROR_KEY_ROTATION, "key rotation"),
	E(CUDA_ERROR_UNKNOWN, "unknown error"),
};
#undef E

static const struct result_desc *find(CUresult r)
{
	size_t lo = 0, hi = sizeof results / sizeof results[0];

	/* The table is in ascending order of value: binary search. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (results[mid].r == r)
			return &results[mid];
		if (results[mid].r < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *cuemu_result_name(CUresult r)
{
	const struct result_desc *d = find(r);

	return d ? d->name : NULL;
}

const char *cuemu_result_text(CUresult r)
{
	const struct result_desc *d = find(r);

	return d ? d->text : NULL;
}

/* Why the calling thread's last call failed. Thread-local: each thread's
 * API calls explain themselves independently. Room for the longest the
 * runtime writes (a refused join names the segment, its owner, group and
 * mode, and what to do: some 450 bytes) with a path or two to spare. */
static __thread char errmsg[1024];
/* Whether errmsg went to stderr (cuemu_tell); per thread as errmsg is. */
static __thread bool errmsg_told;

CUresult cuemu_fail(CUresult r, const char *fmt, ...)
{
	char msg[sizeof errmsg];
	va_list ap;

	/* Formatted aside first: callers may pass cuemu_errmsg() itself as an
	 * argument (cuInit wraps the machine's reason), and vsnprintf into
	 * its own source is undefined. */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	memcpy(errmsg, msg, sizeof errmsg);
	errmsg_told = false;
	cuemu_debug("%s: %s", find(r) ? find(r)->name : "?", errmsg);
	return r;
}

const char *cuemu_errmsg(void)
{
	return errmsg;
}

void cuemu_errmsg_clear(void)
{
	errmsg[0] = '\0';
	errmsg_told = false;
}

void cuemu_tell(void)
{
	fprintf(stderr, "cuemu: %s\n", errmsg);
	errmsg_told = true;
}

bool cuemu_errmsg_told(void)
{
	return errmsg_told;
}

void cuemu_debug(const char *fmt, ...)
{
	/* Read once: whether to trace is a property of the process's start. */
	static int enabled = -1;
	va_list ap;

	if (enabled < 0)
		enabled = getenv("CUEMU_DEBUG") && *getenv("CUEMU_DEBUG");
	if (!enabled)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "cuemu[%d]: ", (int)getpid());
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
