/*
 * test_context.c - cuInit, devices and their attributes, primary and
 * created contexts, the per-thread context stack, peer access, and the
 * runtime API's device and error calls.
 *
 * cuInit is process-wide, so the calls made before it come first. The
 * machine is the built-in default topology (4 x H200); the attribute
 * values are those the real H200 answered
 * (../shared/reference/real-driver-managed-pinned.txt, device0).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "tap.h"

/* The names older headers map to; the library exports them as libcuda
 * does. */
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev);
#undef cuDeviceGetUuid
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);

static int ndev;

static void before_init(void)
{
	CUcontext c = (CUcontext)1;
	CUstream s;
	CUdevice d;
	int n = -5;

	is_res(cuDeviceGetCount(&n), CUDA_ERROR_NOT_INITIALIZED,
	       "cuDeviceGetCount before cuInit");
	is_res(cuDeviceGet(&d, 0), CUDA_ERROR_NOT_INITIALIZED,
	       "cuDeviceGet before cuInit");
	is_res(cuCtxGetCurrent(&c), CUDA_ERROR_NOT_INITIALIZED,
	       "cuCtxGetCurrent before cuInit");
	is_res(cuDevicePrimaryCtxRetain(&c, 0), CUDA_ERROR_NOT_INITIALIZED,
	       "cuDevicePrimaryCtxRetain before cuInit");
	is_res(cuCtxCreate(&c, NULL, 0, 0), CUDA_ERROR_NOT_INITIALIZED,
	       "cuCtxCreate before cuInit");
	is_res(cuStreamCreate(&s, 0), CUDA_ERROR_NOT_INITIALIZED,
	       "cuStreamCreate before cuInit");
	is_res(cuCtxSynchronize(), CUDA_ERROR_NOT_INITIALIZED,
	       "cuCtxSynchronize before cuInit");
	is_res(cuInit(1), CUDA_ERROR_INVALID_VALUE, "cuInit(1) is refused");
	is_res(cuDeviceGetCount(&n), CUDA_ERROR_NOT_INITIALIZED,
	       "... and does not initialize");
	is_res(cuInit(0), CUDA_SUCCESS, "cuInit(0)");
	is_res(cuInit(0), CUDA_SUCCESS, "cuInit(0) again");
}

static void versions_and_devices(void)
{
	char name[64];
	CUdevice d = -1;
	int v = 0;

	is_res(cuDriverGetVersion(&v), CUDA_SUCCESS, "cuDriverGetVersion");
	is_int(v, 13000, "driver version 13.0");
	is_res(cuDriverGetVersion(NULL), CUDA_ERROR_INVALID_VALUE,
	       "cuDriverGetVersion(NULL)");
	is_res(cuDeviceGetCount(&ndev), CUDA_SUCCESS, "cuDeviceGetCount");
	is_int(ndev, 4, "the default machine has 4 devices");
	is_res(cuDeviceGet(&d, 1), CUDA_SUCCESS, "cuDeviceGet(1)");
	is_int(d, 1, "device 1 is ordinal 1");
	is_res(cuDeviceGet(&d, ndev), CUDA_ERROR_INVALID_DEVICE,
	       "cuDeviceGet(count)");
	is_res(cuDeviceGet(&d, -1), CUDA_ERROR_INVALID_DEVICE,
	       "cuDeviceGet(-1)");
	is_res(cuDeviceGet(NULL, 0), CUDA_ERROR_INVALID_VALUE,
	       "cuDeviceGet(NULL)");
	is_res(cuDeviceGetName(name, sizeof name, 0), CUDA_SUCCESS,
	       "cuDeviceGetName");
	ok(strcmp(name, "NVIDIA H200") == 0, "device 0 is an NVIDIA H200");
	is_res(cuDeviceGetName(name, 5, 0), CUDA_SUCCESS,
	       "cuDeviceGetName with a short buffer");
	ok(strcmp(name, "NVID") == 0, "the name is truncated to len - 1");
	is_res(cuDeviceGetName(name, sizeof name, 99),
	       CUDA_ERROR_INVALID_DEVICE, "cuDeviceGetName of device 99");
	is_res(cuDeviceGetName(NULL, 8, 0), CUDA_ERROR_INVALID_VALUE,
	       "cuDeviceGetName(NULL)");
}

static void uuids_and_memory(void)
{
	CUuuid u0, u1, u0old;
	size_t total = 0;

	is_res(cuDeviceGetUuid_v2(&u0, 0), CUDA_SUCCESS, "cuDeviceGetUuid_v2");
	is_res(cuDeviceGetUuid_v2(&u1, 1), CUDA_SUCCESS, "... of device 1");
	ok(memcmp(u0.bytes, u1.bytes, 16) != 0, "devices have distinct UUIDs");
	is_res(cuDeviceGetUuid(&u0old, 0), CUDA_SUCCESS,
	       "cuDeviceGetUuid (the old name)");
	ok(memcmp(u0.bytes, u0old.bytes, 16) == 0, "... answers the same");
	is_res(cuDeviceGetUuid_v2(&u0, ndev), CUDA_ERROR_INVALID_DEVICE,
	       "cuDeviceGetUuid of a device that does not exist");
	is_res(cuDeviceGetUuid_v2(NULL, 0), CUDA_ERROR_INVALID_VALUE,
	       "cuDeviceGetUuid(NULL)");
	is_res(cuDeviceTotalMem(&total, 0), CUDA_SUCCESS, "cuDeviceTotalMem");
	is_int(total, 141ULL << 30, "device 0 has 141 GiB");
	is_res(cuDeviceTotalMem(&total, ndev), CUDA_ERROR_INVALID_DEVICE,
	       "cuDeviceTotalMem of a device that does not exist");
}

static const struct {
	CUdevice_attribute a;
	int want;
	const char *name;
} ref_attrs[] = {
	{ CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1, "unified_addressing" },
	{ CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1, "managed_memory" },
	{ CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 1,
	  "concurrent_managed_access" },
	{ CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, 0,
	  "pageable_memory_access" },
	{ CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES, 0,
	  "pageable_uses_host_page_tables" },
	{ CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, 0,
	  "direct_managed_access_from_host" },
	{ CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 1, "can_map_host_memory" },
	{ CU_DEVICE_ATTRIBUTE_INTEGRATED, 0, "integrated" },
	{ CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 1,
	  "memory_pools_supported" },
	{ CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, 9,
	  "mempool_handle_types" },
	{ CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 1,
	  "vmm_supported" },
	{ CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, 1,
	  "posix_fd_supported" },
	{ CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED, 1,
	  "host_register_supported" },
	{ CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED, 1,
	  "read_only_host_register" },
	{ CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM, 1,
	  "can_use_host_pointer_for_registered" },
	{ CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED, 0,
	  "host_native_atomic" },
	{ CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED, 1, "gpu_direct_rdma" },
	{ CU_DEVICE_ATTRIBUTE_NUMA_CONFIG, 0, "numa_config" },
	{ CU_DEVICE_ATTRIBUTE_NUMA_ID, -1, "numa_id" },
	{ CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 6016,
	  "global_memory_bus_width" },
	{ CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 3201000, "memory_clock_rate" },
	{ CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 62914560, "l2_cache_size" },
	{ CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132,
	  "multiprocessor_count" },
	{ CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9,
	  "compute_capability_major" },
};

static void attributes(void)
{
	int v;

	for (size_t i = 0; i < sizeof ref_attrs / sizeof ref_attrs[0]; i++) {
		v = -7;
		is_res(cuDeviceGetAttribute(&v, ref_attrs[i].a, 0),
		       CUDA_SUCCESS, "attribute %s", ref_attrs[i].name);
		is_int(v, ref_attrs[i].want, "%s is %d as on the H200",
		       ref_attrs[i].name, ref_attrs[i].want);
	}
	is_res(cuDeviceGetAttribute(&v, (CUdevice_attribute)0, 0),
	       CUDA_ERROR_INVALID_VALUE, "attribute 0 does not exist");
	is_res(cuDeviceGetAttribute(&v, (CUdevice_attribute)9999, 0),
	       CUDA_ERROR_INVALID_VALUE, "attribute 9999 does not exist");
	is_res(cuDeviceGetAttribute(&v, (CUdevice_attribute)-1, 0),
	       CUDA_ERROR_INVALID_VALUE, "attribute -1 does not exist");
	is_res(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 99),
	       CUDA_ERROR_INVALID_DEVICE, "attribute of device 99");
	is_res(cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY,
				    0), CUDA_ERROR_INVALID_VALUE,
	       "attribute into NULL");
}

static void peer_queries(void)
{
	int v = -7;

	is_res(cuDeviceCanAccessPeer(&v, 0, 1), CUDA_SUCCESS,
	       "cuDeviceCanAccessPeer(0, 1)");
	is_int(v, 1, "device 0 can reach device 1");
	is_res(cuDeviceCanAccessPeer(&v, 0, 0), CUDA_SUCCESS,
	       "cuDeviceCanAccessPeer(0, 0)");
	is_int(v, 0, "a device is not its own peer");
	is_res(cuDeviceCanAccessPeer(&v, 0, 99), CUDA_ERROR_INVALID_DEVICE,
	       "cuDeviceCanAccessPeer with device 99");
	is_res(cuDeviceGetP2PAttribute(&v,
		CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 1), CUDA_SUCCESS,
	       "P2P ACCESS_SUPPORTED");
	is_int(v, 1, "... is 1");
	is_res(cuDeviceGetP2PAttribute(&v,
		CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, 0, 1), CUDA_SUCCESS,
	       "P2P PERFORMANCE_RANK");
	is_int(v, 0, "... is 0 as on the H200 pair");
	is_res(cuDeviceGetP2PAttribute(&v,
		CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, 0, 1),
	       CUDA_SUCCESS, "P2P NATIVE_ATOMIC_SUPPORTED");
	is_int(v, 1, "... is 1 as on the H200 pair");
	is_res(cuDeviceGetP2PAttribute(&v,
		CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 0),
	       CUDA_ERROR_INVALID_DEVICE, "P2P attribute of a device itself");
	is_res(cuDeviceGetP2PAttribute(&v, (CUdevice_P2PAttribute)77, 0, 1),
	       CUDA_ERROR_INVALID_VALUE, "P2P attribute 77 does not exist");
}

static void no_context(void)
{
	CUcontext c = (CUcontext)1;
	CUstream s;
	CUdevice d;

	is_res(cuCtxGetCurrent(&c), CUDA_SUCCESS,
	       "cuCtxGetCurrent with no context");
	ok(c == NULL, "... answers NULL");
	is_res(cuCtxGetDevice(&d), CUDA_ERROR_INVALID_CONTEXT,
	       "cuCtxGetDevice with no context");
	is_res(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT,
	       "cuCtxSynchronize with no context");
	is_res(cuStreamCreate(&s, 0), CUDA_ERROR_INVALID_CONTEXT,
	       "cuStreamCreate with no context");
	is_res(cuCtxPopCurrent(&c), CUDA_ERROR_INVALID_CONTEXT,
	       "cuCtxPopCurrent of an empty stack");
	is_res(cuCtxSetCurrent(NULL), CUDA_SUCCESS,
	       "cuCtxSetCurrent(NULL) of an empty stack");
}

static void primary(void)
{
	CUcontext p, p2, cur;
	unsigned int flags = 99;
	int active = 99;

	is_res(cuDevicePrimaryCtxGetState(0, &flags, &active), CUDA_SUCCESS,
	       "cuDevicePrimaryCtxGetState");
	ok(flags == 0 && active == 0, "device 0's primary is inactive");
	is_res(cuDevicePrimaryCtxRetain(&p, 0), CUDA_SUCCESS,
	       "cuDevicePrimaryCtxRetain");
	is_res(cuDevicePrimaryCtxGetState(0, &flags, &active), CUDA_SUCCESS,
	       "... then GetState");
	is_int(active, 1, "... it is active");
	is_res(cuDevicePrimaryCtxRetain(&p2, 0), CUDA_SUCCESS,
	       "retained a second time");
	ok(p == p2, "... the same handle");
	is_res(cuDevicePrimaryCtxRetain(&p2, ndev), CUDA_ERROR_INVALID_DEVICE,
	       "retain of a device that does not exist");
	is_res(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_BLOCKING_SYNC),
	       CUDA_SUCCESS, "SetFlags(BLOCKING_SYNC) on an active primary");
	cuDevicePrimaryCtxGetState(0, &flags, &active);
	is_int(flags, CU_CTX_SCHED_BLOCKING_SYNC, "... GetState shows them");
	is_res(cuDevicePrimaryCtxSetFlags(0, 0x3), CUDA_ERROR_INVALID_VALUE,
	       "SetFlags with two scheduling choices");
	is_res(cuDevicePrimaryCtxSetFlags(0, 0x100), CUDA_ERROR_INVALID_VALUE,
	       "SetFlags with an unknown bit");
	is_res(cuDevicePrimaryCtxReset(0), CUDA_SUCCESS, "PrimaryCtxReset");
	cuDevicePrimaryCtxGetState(0, &flags, &active);
	ok(flags == 0 && active == 1, "... clears the flags, stays retained");
	is_res(cuCtxSetCurrent(p), CUDA_SUCCESS, "the primary made current");
	cuCtxGetCurrent(&cur);
	ok(cur == p, "... cuCtxGetCurrent answers it");
	is_res(cuCtxDestroy(p), CUDA_ERROR_INVALID_CONTEXT,
	       "cuCtxDestroy of a primary context");
	is_res(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS, "release one");
	is_res(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS, "release two");
	cuDevicePrimaryCtxGetState(0, &flags, &active);
	is_int(active, 0, "... inactive again");
	is_res(cuDevicePrimaryCtxRelease(0), CUDA_ERROR_INVALID_CONTEXT,
	       "a release too many");
	is_res(cuCtxGetDevice(&(CUdevice){ 0 }), CUDA_ERROR_INVALID_CONTEXT,
	       "the released primary no longer serves as current");
	cuCtxSetCurrent(NULL);
}

static void created_and_stack(void)
{
	CUcontext a, b, cur, popped, old;
	CUdevice d = -1;

	is_res(cuCtxCreate(&a, NULL, 0, 0), CUDA_SUCCESS, "cuCtxCreate dev 0");
	cuCtxGetCurrent(&cur);
	ok(cur == a, "... it is pushed and current");
	is_res(cuCtxGetDevice(&d), CUDA_SUCCESS, "cuCtxGetDevice");
	is_int(d, 0, "... device 0");
	is_res(cuCtxCreate(&b, NULL, CU_CTX_SCHED_YIELD, 1), CUDA_SUCCESS,
	       "cuCtxCreate dev 1");
	cuCtxGetDevice(&d);
	is_int(d, 1, "the newer context is on top");
	is_res(cuCtxPopCurrent(&popped), CUDA_SUCCESS, "cuCtxPopCurrent");
	ok(popped == b, "... pops the newer one");
	cuCtxGetCurrent(&cur);
	ok(cur == a, "... the older one is current again");
	is_res(cuCtxPushCurrent(b), CUDA_SUCCESS, "cuCtxPushCurrent");
	cuCtxGetCurrent(&cur);
	ok(cur == b, "... the pushed one is current");
	is_res(cuCtxSetCurrent(a), CUDA_SUCCESS, "cuCtxSetCurrent");
	cuCtxPopCurrent(&popped);
	ok(popped == a, "SetCurrent replaced the top of the stack");
	cuCtxGetCurrent(&cur);
	ok(cur == a, "... leaving what was under it");
	is_res(cuCtxSetCurrent(NULL), CUDA_SUCCESS, "cuCtxSetCurrent(NULL)");
	cuCtxGetCurrent(&cur);
	ok(cur == NULL, "... pops the top");
	is_res(cuCtxPushCurrent(NULL), CUDA_ERROR_INVALID_CONTEXT,
	       "cuCtxPushCurrent(NULL)");
	is_res(cuCtxCreate(&old, NULL, 0x3, 0), CUDA_ERROR_INVALID_VALUE,
	       "cuCtxCreate with bad flags");
	is_res(cuCtxCreate(&old, NULL, 0, ndev), CUDA_ERROR_INVALID_DEVICE,
	       "cuCtxCreate on a device that does not exist");
	is_res(cuCtxCreate(NULL, NULL, 0, 0), CUDA_ERROR_INVALID_VALUE,
	       "cuCtxCreate(NULL)");
	is_res(cuCtxCreate_v2(&old, 0, 2), CUDA_SUCCESS,
	       "cuCtxCreate_v2 (the old name)");
	cuCtxGetDevice(&d);
	is_int(d, 2, "... makes a context on device 2 current");
	is_res(cuCtxDestroy(old), CUDA_SUCCESS, "cuCtxDestroy of it");
	cuCtxGetCurrent(&cur);
	ok(cur == NULL, "... popped it from this thread's stack");
	is_res(cuCtxDestroy(b), CUDA_SUCCESS, "cuCtxDestroy");
	is_res(cuCtxDestroy(b), CUDA_ERROR_INVALID_CONTEXT,
	       "cuCtxDestroy twice");
	is_res(cuCtxSetCurrent(b), CUDA_ERROR_INVALID_CONTEXT,
	       "cuCtxSetCurrent of a destroyed context");
	is_res(cuCtxPushCurrent(b), CUDA_ERROR_INVALID_CONTEXT,
	       "cuCtxPushCurrent of a destroyed context");
	is_res(cuCtxDestroy(a), CUDA_SUCCESS, "cuCtxDestroy of the other");
}

/* cuCtxGetApiVersion and cuCtxGetId: a NULL context means the current
 * one. cuCtxGetApiVersion refuses a context that does not exist before a
 * NULL output pointer, cuCtxGetId after it (probes/results/ctxid.txt). */
static void version_and_id(void)
{
	CUcontext a, b;
	unsigned long long ida = 0, idb = 0, idcur = 0;
	unsigned int v = 0;

	is_res(cuCtxGetApiVersion(NULL, &v), CUDA_ERROR_INVALID_CONTEXT,
	       "cuCtxGetApiVersion(NULL) with no current context");
	is_res(cuCtxGetId(NULL, &ida), CUDA_ERROR_INVALID_CONTEXT,
	       "cuCtxGetId(NULL) with no current context");
	cuCtxCreate(&a, NULL, 0, 0);
	cuCtxCreate(&b, NULL, 0, 1);
	is_res(cuCtxGetApiVersion(a, &v), CUDA_SUCCESS, "cuCtxGetApiVersion");
	is_int(v, 3020, "... 3020, as the H200 answered");
	v = 0;
	is_res(cuCtxGetApiVersion(NULL, &v), CUDA_SUCCESS,
	       "cuCtxGetApiVersion(NULL): the current context");
	is_int(v, 3020, "... 3020");
	is_res(cuCtxGetApiVersion(a, NULL), CUDA_ERROR_INVALID_VALUE,
	       "cuCtxGetApiVersion with a NULL version");
	is_res(cuCtxGetId(a, &ida), CUDA_SUCCESS, "cuCtxGetId");
	cuCtxGetId(b, &idb);
	ok(ida != 0 && idb != 0 && ida != idb, "... two contexts, two ids");
	is_res(cuCtxGetId(NULL, &idcur), CUDA_SUCCESS,
	       "cuCtxGetId(NULL): the current context");
	ok(idcur == idb, "... the one on top of the stack");
	is_res(cuCtxGetId(b, NULL), CUDA_ERROR_INVALID_VALUE,
	       "cuCtxGetId with a NULL id");
	cuCtxDestroy(b);
	is_res(cuCtxGetId(b, NULL), CUDA_ERROR_INVALID_VALUE,
	       "cuCtxGetId of a destroyed context: the NULL id comes first");
	is_res(cuCtxGetId(b, &idb), CUDA_ERROR_INVALID_CONTEXT,
	       "cuCtxGetId of a destroyed context");
	is_res(cuCtxGetApiVersion(b, &v), CUDA_ERROR_INVALID_CONTEXT,
	       "cuCtxGetApiVersion of a destroyed context");
	cuCtxDestroy(a);
}

static void *other_thread(void *arg)
{
	CUcontext c = (CUcontext)1;

	cuCtxGetCurrent(&c);
	*(CUcontext *)arg = c;
	return NULL;
}

static void stack_is_per_thread(void)
{
	CUcontext a, seen = (CUcontext)1;
	pthread_t t;

	cuCtxCreate(&a, NULL, 0, 0);
	pthread_create(&t, NULL, other_thread, &seen);
	pthread_join(t, NULL);
	ok(seen == NULL, "another thread has no current context");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "cuCtxSynchronize");
	cuCtxDestroy(a);
}

static void peers(void)
{
	CUcontext p0, p1, p2;

	cuDevicePrimaryCtxRetain(&p0, 0);
	cuDevicePrimaryCtxRetain(&p1, 1);
	cuDevicePrimaryCtxRetain(&p2, 2);
	cuDevicePrimaryCtxRelease(2); /* p2 now names an inactive context */
	cuCtxSetCurrent(p0);
	is_res(cuCtxDisablePeerAccess(p1), CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
	       "disable before any enable");
	is_res(cuCtxEnablePeerAccess(p1, 1), CUDA_ERROR_INVALID_VALUE,
	       "enable with flags 1");
	is_res(cuCtxEnablePeerAccess(p1, 0), CUDA_SUCCESS, "enable 0 -> 1");
	is_res(cuCtxEnablePeerAccess(p1, 0),
	       CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "enable 0 -> 1 twice");
	is_res(cuCtxEnablePeerAccess(p0, 0), CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
	       "enable of the context itself");
	is_res(cuCtxEnablePeerAccess(p2, 0), CUDA_ERROR_INVALID_CONTEXT,
	       "enable to an inactive primary");
	is_res(cuCtxEnablePeerAccess(NULL, 0), CUDA_ERROR_INVALID_CONTEXT,
	       "enable to NULL");
	is_res(cuCtxDisablePeerAccess(p1), CUDA_SUCCESS, "disable 0 -> 1");
	is_res(cuCtxDisablePeerAccess(p1), CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
	       "disable 0 -> 1 twice");
	cuCtxSetCurrent(NULL);
	is_res(cuCtxEnablePeerAccess(p1, 0), CUDA_ERROR_INVALID_CONTEXT,
	       "enable with no current context");
	cuDevicePrimaryCtxRelease(1);
	cuDevicePrimaryCtxRelease(0);
}

/* ---------------------------------------------------------------- runtime */

static void *runtime_thread(void *arg)
{
	struct cudaDeviceProp prop;
	CUcontext cur, p0;
	cudaStream_t s;
	size_t total;
	int n = 0, d = -1, v = -7;

	ok(cudaGetDeviceCount(&n) == cudaSuccess && n == ndev,
	   "cudaGetDeviceCount answers %d", ndev);
	ok(cudaGetDevice(&d) == cudaSuccess && d == 0,
	   "cudaGetDevice is 0 by default");
	is_int(cudaStreamCreate(&s), cudaSuccess,
	       "cudaStreamCreate starts the runtime");
	cuCtxGetCurrent(&cur);
	cuDevicePrimaryCtxRetain(&p0, 0);
	ok(cur == p0, "... device 0's primary context is now current");
	cuDevicePrimaryCtxRelease(0);
	is_int(cudaStreamDestroy(s), cudaSuccess, "cudaStreamDestroy");
	is_int(cudaSetDevice(ndev), cudaErrorInvalidDevice,
	       "cudaSetDevice(count)");
	is_int(cudaGetLastError(), cudaErrorInvalidDevice,
	       "cudaGetLastError reports it");
	is_int(cudaGetLastError(), cudaSuccess, "... and resets it");
	is_int(cudaSetDevice(1), cudaSuccess, "cudaSetDevice(1)");
	ok(cudaGetDevice(&d) == cudaSuccess && d == 1, "cudaGetDevice is 1");
	is_int(cudaGetDeviceProperties(&prop, 0), cudaSuccess,
	       "cudaGetDeviceProperties");
	cuDeviceTotalMem(&total, 0);
	ok(strcmp(prop.name, "NVIDIA H200") == 0, "... name");
	ok(prop.totalGlobalMem == total, "... totalGlobalMem");
	ok(prop.major == 9 && prop.minor == 0, "... compute capability 9.0");
	ok(prop.multiProcessorCount == 132, "... 132 multiprocessors");
	ok(prop.managedMemory == 1 && prop.concurrentManagedAccess == 1 &&
	   prop.pageableMemoryAccess == 0, "... managed memory as on the H200");
	ok(prop.memoryPoolsSupported == 1, "... memory pools");
	is_int(cudaGetDeviceProperties(&prop, 99), cudaErrorInvalidDevice,
	       "cudaGetDeviceProperties of device 99");
	is_int(cudaGetDeviceProperties(NULL, 0), cudaErrorInvalidValue,
	       "cudaGetDeviceProperties(NULL)");
	is_int(cudaDeviceGetAttribute(&v, cudaDevAttrConcurrentManagedAccess,
				      0), cudaSuccess, "cudaDeviceGetAttribute");
	is_int(v, 1, "... concurrentManagedAccess 1");
	is_int(cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)9999, 0),
	       cudaErrorInvalidValue, "cudaDeviceGetAttribute(9999)");
	is_int(cudaPeekAtLastError(), cudaErrorInvalidValue,
	       "cudaPeekAtLastError reports it");
	is_int(cudaPeekAtLastError(), cudaErrorInvalidValue,
	       "... without resetting it");
	cudaGetLastError();
	v = -7;
	is_int(cudaDeviceCanAccessPeer(&v, 1, 0), cudaSuccess,
	       "cudaDeviceCanAccessPeer");
	is_int(v, 1, "... 1 reaches 0");
	is_int(cudaDeviceEnablePeerAccess(0, 0), cudaSuccess,
	       "cudaDeviceEnablePeerAccess 1 -> 0");
	is_int(cudaDeviceEnablePeerAccess(0, 0),
	       cudaErrorPeerAccessAlreadyEnabled, "... twice");
	is_int(cudaDeviceDisablePeerAccess(0), cudaSuccess,
	       "cudaDeviceDisablePeerAccess");
	is_int(cudaDeviceDisablePeerAccess(0), cudaErrorPeerAccessNotEnabled,
	       "... twice");
	is_int(cudaDeviceSynchronize(), cudaSuccess, "cudaDeviceSynchronize");
	is_int(cudaDeviceReset(), cudaSuccess, "cudaDeviceReset");
	is_int(cudaStreamCreate(&s), cudaSuccess,
	       "the runtime starts again after a reset");
	cudaStreamDestroy(s);
	return NULL;
}

/* What a device query program reads and prints, device by device and pair
 * by pair, as the toolkit's deviceQuery and topologyQuery samples do on a
 * real 4 x H200 machine: identity, texture limits, peer access and its
 * performance rank, and host atomics. */
static void device_query(void)
{
	struct cudaDeviceProp prop;
	int n = 0, bad_props = 0, bad_peers = 0, v;

	is_int(cudaGetDeviceCount(&n), cudaSuccess, "device query: count");
	is_int(n, 4, "... four devices");
	for (int d = 0; d < n; d++) {
		memset(&prop, 0, sizeof prop);
		if (cudaGetDeviceProperties(&prop, d) != cudaSuccess ||
		    strcmp(prop.name, "NVIDIA H200") || prop.major != 9 ||
		    prop.minor != 0 || prop.maxTexture1D != 131072 ||
		    prop.maxTexture2D[0] != 131072 ||
		    prop.maxTexture2D[1] != 65536 ||
		    prop.maxTexture3D[0] != 16384 ||
		    prop.maxTexture3D[1] != 16384 ||
		    prop.maxTexture3D[2] != 16384) {
			printf("# device %d: %s %d.%d 1D %d 2D %d,%d "
			       "3D %d,%d,%d\n", d, prop.name, prop.major,
			       prop.minor, prop.maxTexture1D,
			       prop.maxTexture2D[0], prop.maxTexture2D[1],
			       prop.maxTexture3D[0], prop.maxTexture3D[1],
			       prop.maxTexture3D[2]);
			bad_props++;
		}
		v = -1;
		if (cudaDeviceGetAttribute(&v, cudaDevAttrHostNativeAtomicSupported,
					   d) != cudaSuccess || v != 0)
			bad_props++;
		for (int p = 0; p < n; p++) {
			int access = -1, rank = -1;

			if (p == d)
				continue;
			if (cudaDeviceCanAccessPeer(&access, d, p) != cudaSuccess ||
			    access != 1 ||
			    cudaDeviceGetP2PAttribute(&rank,
					cudaDevP2PAttrPerformanceRank, d, p) !=
					cudaSuccess || rank != 0) {
				printf("# %d -> %d: access %d rank %d\n", d, p,
				       access, rank);
				bad_peers++;
			}
		}
	}
	is_int(bad_props, 0, "... each an H200 of 9.0, its texture limits "
	       "1D 131072, 2D 131072 x 65536, 3D 16384 cubed, no host atomics");
	is_int(bad_peers, 0, "... each reaching every other, at rank 0");
}

static void runtime(void)
{
	pthread_t t;
	int v = 0;

	/* A fresh thread: no context current, as a runtime program starts. */
	pthread_create(&t, NULL, runtime_thread, NULL);
	pthread_join(t, NULL);
	ok(cudaDriverGetVersion(&v) == cudaSuccess && v == 13000,
	   "cudaDriverGetVersion 13000");
	ok(cudaRuntimeGetVersion(&v) == cudaSuccess && v == 13000,
	   "cudaRuntimeGetVersion 13000");
	is_int(cudaRuntimeGetVersion(NULL), cudaErrorInvalidValue,
	       "cudaRuntimeGetVersion(NULL)");
	cudaGetLastError();
	ok(strcmp(cudaGetErrorName(cudaErrorInvalidValue),
		  "cudaErrorInvalidValue") == 0, "cudaGetErrorName");
	ok(strcmp(cudaGetErrorName(cudaErrorPeerAccessNotEnabled),
		  "cudaErrorPeerAccessNotEnabled") == 0,
	   "cudaGetErrorName of 705");
	ok(strcmp(cudaGetErrorString(cudaErrorInvalidValue),
		  "invalid argument") == 0, "cudaGetErrorString");
	ok(strcmp(cudaGetErrorString(cudaErrorInvalidDevicePointer),
		  "invalid device pointer") == 0,
	   "cudaGetErrorString of a runtime-only code");
	ok(strcmp(cudaGetErrorName((cudaError_t)12345),
		  "unrecognized error code") == 0,
	   "cudaGetErrorName of an unknown code");
}

/* A context destroyed while it is in the thread's stack leaves it
 * wherever it lies, and the current context is what is then on top. */
static void destroyed_in_stack(void)
{
	CUcontext a = NULL, b = NULL, cur, popped;

	cuCtxGetCurrent(&cur);
	ok(cur == NULL, "the stack is empty before two creates");
	if (!ok(!cuCtxCreate(&a, NULL, 0, 0) && !cuCtxCreate(&b, NULL, 0, 1),
		"cuCtxCreate of two contexts"))
		goto out;
	/* The stack: a, then b on top of it. */
	is_res(cuCtxDestroy(b), CUDA_SUCCESS, "cuCtxDestroy of the top");
	cuCtxGetCurrent(&cur);
	ok(cur == a, "... makes the context under it current");
	b = NULL;
	is_res(cuCtxCreate(&b, NULL, 0, 1), CUDA_SUCCESS,
	       "cuCtxCreate pushes another on top");
	is_res(cuCtxDestroy(a), CUDA_SUCCESS, "cuCtxDestroy of the one under it");
	a = NULL;
	cuCtxGetCurrent(&cur);
	ok(cur == b, "... leaves the top current");
	cuCtxPopCurrent(&popped);
	ok(popped == b, "popping gives the top");
	cuCtxGetCurrent(&cur);
	ok(cur == NULL, "... and nothing is left under it");
out:
	if (b)
		cuCtxDestroy(b);
	if (a)
		cuCtxDestroy(a);
}

int main(void)
{
	setenv("CUEMU_CONTROL", "0", 1);
	unsetenv("CUEMU_TOPOLOGY");
	before_init();
	versions_and_devices();
	uuids_and_memory();
	attributes();
	peer_queries();
	no_context();
	primary();
	created_and_stack();
	destroyed_in_stack();
	version_and_id();
	stack_is_per_thread();
	peers();
	runtime();
	device_query();
	return done_testing();
}
