/*
 * test_settings.c - the device settings, PCI identity and profiler calls
 * that programs make around their memory work, in both APIs: P2P
 * attributes, PCI bus ids both ways, limits, cache and shared-memory
 * configuration, the profiler without a profiler, the texture limits and
 * identity in cudaGetDeviceProperties, and what a device reset frees.
 * Runs on the built-in 4 x H200 machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "cudaProfiler.h"
#include "cuda_profiler_api.h"
#include "cuda_runtime.h"
#include "tap.h"

static void before_context(void)
{
	size_t v;

	is_res(cuProfilerStart(), CUDA_ERROR_NOT_INITIALIZED,
	       "cuProfilerStart before cuInit");
	is_res(cuInit(0), CUDA_SUCCESS, "cuInit");
	is_res(cuProfilerStart(), CUDA_ERROR_INVALID_CONTEXT,
	       "cuProfilerStart without a context");
	is_res(cuProfilerStop(), CUDA_ERROR_INVALID_CONTEXT,
	       "cuProfilerStop without a context");
	is_res(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE),
	       CUDA_ERROR_INVALID_CONTEXT, "cuCtxGetLimit without a context");
	is_res(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_L1),
	       CUDA_ERROR_INVALID_CONTEXT,
	       "cuCtxSetCacheConfig without a context");
}

static void p2p(void)
{
	int v = -1;

	is_int(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported,
					 0, 1), cudaSuccess,
	       "cudaDeviceGetP2PAttribute access 0 -> 1");
	is_int(v, 1, "NVLink peers: access supported");
	cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrPerformanceRank, 0, 1);
	is_int(v, 0, "performance rank 0, as the measured H200s");
	cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrNativeAtomicSupported, 1,
				  3);
	is_int(v, 1, "native atomics between peers");
	v = -1;
	is_int(cudaDeviceGetP2PAttribute(&v,
			cudaDevP2PAttrOnlyPartialNativeAtomicSupported, 0, 2),
	       cudaSuccess, "only-partial atomics is an attribute");
	is_int(v, 0, "and NVLink peers have every atomic");
	is_int(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported,
					 2, 2), cudaErrorInvalidDevice,
	       "a device with itself: cudaErrorInvalidDevice");
	is_int(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported,
					 0, 4), cudaErrorInvalidDevice,
	       "a device past the last: cudaErrorInvalidDevice");
	is_int(cudaDeviceGetP2PAttribute(&v, (enum cudaDeviceP2PAttr)9, 0,
					 1), cudaErrorInvalidValue,
	       "an unknown attribute: cudaErrorInvalidValue");
	is_int(cudaDeviceGetP2PAttribute(NULL, cudaDevP2PAttrAccessSupported,
					 0, 1), cudaErrorInvalidValue,
	       "NULL value: cudaErrorInvalidValue");
	is_int(cudaGetLastError(), cudaErrorInvalidValue,
	       "the last error is recorded");
}

static void pci(void)
{
	char id[32], ids[4][32], small[8];
	int d = -1;
	CUdevice cd = -1;

	is_res(cuDeviceGetPCIBusId(id, sizeof id, 0), CUDA_SUCCESS,
	       "cuDeviceGetPCIBusId");
	ok(!strcmp(id, "0000:18:00.0"), "device 0 is at 0000:18:00.0 (%s)",
	   id);
	for (int i = 0; i < 4; i++)
		cudaDeviceGetPCIBusId(ids[i], sizeof ids[i], i);
	ok(strcmp(ids[0], ids[1]) && strcmp(ids[1], ids[2]) &&
	   strcmp(ids[2], ids[3]), "each device has a bus id of its own");
	is_int(cudaDeviceGetByPCIBusId(&d, ids[2]), cudaSuccess,
	       "cudaDeviceGetByPCIBusId of device 2's id");
	is_int(d, 2, "finds device 2");
	is_res(cuDeviceGetByPCIBusId(&cd, "38:00.0"), CUDA_SUCCESS,
	       "bus:device.function without the domain");
	is_int(cd, 2, "is device 2 too");
	is_res(cuDeviceGetByPCIBusId(&cd, "0000:48:00"), CUDA_SUCCESS,
	       "domain:bus:device without the function");
	is_int(cd, 3, "is device 3");
	is_res(cuDeviceGetByPCIBusId(&cd, "0000:99:00.0"),
	       CUDA_ERROR_INVALID_DEVICE, "no device there: INVALID_DEVICE");
	is_res(cuDeviceGetByPCIBusId(&cd, "not a bus id"),
	       CUDA_ERROR_INVALID_VALUE, "not a bus id: INVALID_VALUE");
	is_res(cuDeviceGetByPCIBusId(&cd, NULL), CUDA_ERROR_INVALID_VALUE,
	       "NULL bus id: INVALID_VALUE");
	is_res(cuDeviceGetPCIBusId(small, sizeof small, 1), CUDA_SUCCESS,
	       "a short buffer is filled as far as it goes");
	ok(!strcmp(small, "0000:28"), "cut and terminated (%s)", small);
	is_res(cuDeviceGetPCIBusId(id, 0, 0), CUDA_ERROR_INVALID_VALUE,
	       "length 0: INVALID_VALUE");
	is_res(cuDeviceGetPCIBusId(id, sizeof id, 7),
	       CUDA_ERROR_INVALID_DEVICE, "device 7: INVALID_DEVICE");
}

static void limits(void)
{
	size_t v = 0;
	enum cudaFuncCache fc;
	enum cudaSharedMemConfig sc;
	int lo, hi;

	is_int(cudaDeviceGetLimit(&v, cudaLimitStackSize), cudaSuccess,
	       "cudaDeviceGetLimit starts the runtime");
	is_int(v, 1024, "stack size 1 KiB by default");
	cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
	is_int(v, 8 << 20, "device heap 8 MiB by default");
	cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize);
	is_int(v, 8650752, "printf FIFO 8.25 MiB by default, as on the H200");
	is_int(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20),
	       cudaSuccess, "cudaDeviceSetLimit heap 64 MiB");
	cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
	is_int(v, 64 << 20, "and it reads back");
	cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE);
	is_int(v, 64 << 20, "the driver sees the primary context's limit");
	is_int(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
				  (size_t)1 << 40), cudaSuccess,
	       "a persisting L2 set-aside over the maximum is taken");
	cudaDeviceGetLimit(&v, cudaLimitPersistingL2CacheSize);
	is_int(v, 82837504, "capped at the device's maximum");
	is_int(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 129),
	       cudaErrorInvalidValue, "L2 fetch granularity over 128");
	is_int(cudaDeviceGetLimit(&v, (enum cudaLimit)7),
	       cudaErrorUnsupportedLimit, "a limit the runtime does not know");
	is_int(cudaDeviceGetLimit(NULL, cudaLimitStackSize),
	       cudaErrorInvalidValue, "NULL value");
	is_res(cuCtxGetLimit(&v, CU_LIMIT_CIG_ENABLED), CUDA_SUCCESS,
	       "CU_LIMIT_CIG_ENABLED can be queried");
	is_int(v, 0, "and says this is no CIG context");
	is_res(cuCtxGetLimit(&v, CU_LIMIT_SHMEM_SIZE),
	       CUDA_ERROR_UNSUPPORTED_LIMIT, "CU_LIMIT_SHMEM_SIZE is CIG only");
	is_res(cuCtxSetLimit(CU_LIMIT_CIG_ENABLED, 1),
	       CUDA_ERROR_UNSUPPORTED_LIMIT, "CU_LIMIT_CIG_ENABLED is query only");
	is_res(cuCtxSetLimit(CU_LIMIT_MAX, 1), CUDA_ERROR_INVALID_VALUE,
	       "CU_LIMIT_MAX is no limit");

	is_int(cudaDeviceGetCacheConfig(&fc), cudaSuccess,
	       "cudaDeviceGetCacheConfig");
	is_int(fc, cudaFuncCachePreferNone, "no preference by default");
	is_int(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared),
	       cudaSuccess, "cudaDeviceSetCacheConfig prefer shared");
	cudaDeviceGetCacheConfig(&fc);
	is_int(fc, cudaFuncCachePreferShared, "and it reads back");
	is_int(cudaDeviceSetCacheConfig((enum cudaFuncCache)4),
	       cudaErrorInvalidValue, "an unknown cache config");
	is_int(cudaDeviceGetSharedMemConfig(&sc), cudaSuccess,
	       "cudaDeviceGetSharedMemConfig");
	is_int(sc, cudaSharedMemBankSizeFourByte, "four-byte banks");
	is_int(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte),
	       cudaSuccess, "eight-byte banks are accepted");
	cudaDeviceGetSharedMemConfig(&sc);
	is_int(sc, cudaSharedMemBankSizeFourByte, "and change nothing");
	is_int(cudaDeviceSetSharedMemConfig((enum cudaSharedMemConfig)3),
	       cudaErrorInvalidValue, "an unknown bank size");
	is_int(cudaDeviceGetStreamPriorityRange(&lo, &hi), cudaSuccess,
	       "cudaDeviceGetStreamPriorityRange");
	ok(lo == 0 && hi == -5, "0 to -5 (%d, %d)", lo, hi);
	is_int(cudaProfilerStart(), cudaSuccess,
	       "cudaProfilerStart without a profiler");
	is_int(cudaProfilerStop(), cudaSuccess, "cudaProfilerStop");
	is_res(cuProfilerStart(), CUDA_SUCCESS,
	       "cuProfilerStart with a current context");
}

static void flags(void)
{
	unsigned int f = 99;

	is_int(cudaSetDeviceFlags(0x100), cudaErrorInvalidValue,
	       "cudaSetDeviceFlags outside cudaDeviceMask");
	is_int(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync),
	       cudaSuccess, "cudaSetDeviceFlags blocking sync");
	is_int(cudaGetDeviceFlags(&f), cudaSuccess, "cudaGetDeviceFlags");
	ok(f & cudaDeviceScheduleBlockingSync, "reads blocking sync (%#x)", f);
	is_int(cudaGetDeviceFlags(NULL), cudaErrorInvalidValue, "NULL flags");
}

static void properties(void)
{
	struct cudaDeviceProp p;

	is_int(cudaGetDeviceProperties(&p, 1), cudaSuccess,
	       "cudaGetDeviceProperties");
	ok(!strcmp(p.name, "NVIDIA H200"), "name %s", p.name);
	is_int(p.major * 10 + p.minor, 90, "compute capability 9.0");
	is_int(p.maxTexture1D, 131072, "maxTexture1D");
	ok(p.maxTexture2D[0] == 131072 && p.maxTexture2D[1] == 65536,
	   "maxTexture2D 131072 x 65536");
	ok(p.maxTexture3D[0] == 16384 && p.maxTexture3D[2] == 16384,
	   "maxTexture3D 16384 cubed");
	ok(p.maxTexture2DLayered[2] == 2048, "2048 texture layers");
	is_int(p.surfaceAlignment, 512, "surface alignment 512");
	is_int(p.textureAlignment, 512, "texture alignment 512");
	is_int(p.pciBusID, 0x28, "pciBusID of device 1");
	is_int(p.multiGpuBoardGroupID, 1, "board group of device 1");
	is_int(p.gpuPciDeviceID, 0x233510de, "the H200's PCI device id");
	is_int(cudaGetDeviceProperties(&p, 4), cudaErrorInvalidDevice,
	       "device 4 of 4: cudaErrorInvalidDevice");
	is_int(cudaGetDeviceProperties(NULL, 0), cudaErrorInvalidValue,
	       "NULL properties");
}

static void reset(void)
{
	void *d = NULL, *h = NULL, *m = NULL;
	struct cudaPointerAttributes a;
	size_t v;

	cudaGetLastError();
	is_int(cudaSetDevice(0), cudaSuccess, "cudaSetDevice 0");
	is_int(cudaMalloc(&d, 1 << 20), cudaSuccess, "cudaMalloc");
	is_int(cudaMallocHost(&h, 1 << 16), cudaSuccess, "cudaMallocHost");
	is_int(cudaMallocManaged(&m, 1 << 16, cudaMemAttachGlobal),
	       cudaSuccess, "cudaMallocManaged");
	is_int(cudaDeviceReset(), cudaSuccess, "cudaDeviceReset");
	is_int(cudaPointerGetAttributes(&a, d), cudaSuccess,
	       "the device pointer's attributes after the reset");
	is_int(a.type, cudaMemoryTypeUnregistered,
	       "the device allocation is gone");
	cudaPointerGetAttributes(&a, h);
	is_int(a.type, cudaMemoryTypeUnregistered, "the pinned one too");
	cudaPointerGetAttributes(&a, m);
	is_int(a.type, cudaMemoryTypeUnregistered, "and the managed one");
	is_int(cudaFree(d), cudaErrorInvalidValue,
	       "freeing it again: cudaErrorInvalidValue");
	cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
	is_int(v, 8 << 20, "the heap limit is back to its default");
}

int main(void)
{
	setenv("CUEMU_CONTROL", "0", 1);
	unsetenv("CUEMU_TOPOLOGY");
	before_context();
	p2p();
	pci();
	limits();
	flags();
	properties();
	reset();
	return done_testing();
}
