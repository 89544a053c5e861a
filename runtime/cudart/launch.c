/*
 * launch.c - launching registered kernels: the <<<>>> configuration that
 * nvcc's host code pushes and its stub pops (__cudaPushCallConfiguration,
 * __cudaPopCallConfiguration), cudaLaunchKernel, cudaLaunchCooperativeKernel,
 * cudaLaunchKernelExC (each taking a registered kernel's stub or a
 * cudaKernel_t, a library's too) and the CUDA 13 stub's
 * __cudaGetKernel/__cudaLaunchKernel, cudaGetKernel,
 * cudaKernelSetAttributeForDevice,
 * cudaGetFuncBySymbol, a kernel's attributes and cache preference, and the
 * occupancy calculator, each on its cu* twin through the kernel's function
 * in the current context (register.c).
 *
 * A launch's shape is the driver's to check: the CUDA 13 runtime passes on
 * its answer (cudaErrorInvalidValue for a block of 2048 threads, a zero
 * grid or too much shared memory: probes/results/rt_errors.txt). A host
 * address no kernel was registered at is cudaErrorInvalidResourceHandle to
 * a launch, the attributes and the occupancy calculator, and
 * cudaErrorInvalidDeviceFunction to cudaGetKernel and cudaGetFuncBySymbol.
 *
 * The per-thread forms (_ptsz) go to the driver's _ptsz exports, which
 * take the null stream as the calling thread's (driver/ptsz.c), as
 * attach.c and batch.c do.
 *
 * State: the configuration stack is per thread, as <<<>>> pushes and the
 * stub it calls pops on the same thread; no locks.
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "cudart/register.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* How deep <<<>>> configurations nest: a launch's arguments may themselves
 * launch (a kernel call inside another call's argument list). */
#define RT_CONFIG_DEPTH 16

struct rt_config {
	dim3 grid, block;
	size_t shared;
	cudaStream_t stream;
};

static __thread struct rt_config rt_configs[RT_CONFIG_DEPTH];
static __thread unsigned int rt_depth;

unsigned int __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
					 size_t sharedMem, void *stream)
{
	if (rt_depth == RT_CONFIG_DEPTH)
		return 1;
	rt_configs[rt_depth++] = (struct rt_config){
		gridDim, blockDim, sharedMem, (cudaStream_t)stream,
	};
	return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
				       size_t *sharedMem, void *stream)
{
	struct rt_config *c;

	if (!rt_depth)
		return cuemu_rt_fail(cudaErrorMissingConfiguration);
	c = &rt_configs[--rt_depth];
	*gridDim = c->grid;
	*blockDim = c->block;
	*sharedMem = c->shared;
	*(cudaStream_t *)stream = c->stream;
	return cudaSuccess;
}

/* ------------------------------------------------------------ launches */

/* The driver's entries a launch goes to: the plain ones, or the _ptsz
 * exports for the per-thread forms. */
struct rt_launcher {
	CUresult (*kernel)(CUfunction, unsigned, unsigned, unsigned,
			   unsigned, unsigned, unsigned, unsigned, CUstream,
			   void **, void **);
	CUresult (*cooperative)(CUfunction, unsigned, unsigned, unsigned,
				unsigned, unsigned, unsigned, unsigned,
				CUstream, void **);
	CUresult (*ex)(const CUlaunchConfig *, CUfunction, void **,
		       void **);
};

static const struct rt_launcher rt_legacy = {
	cuLaunchKernel, cuLaunchCooperativeKernel, cuLaunchKernelEx,
};
static const struct rt_launcher rt_ptsz = {
	cuLaunchKernel_ptsz, cuLaunchCooperativeKernel_ptsz,
	cuLaunchKernelEx_ptsz,
};

static cudaError_t launch(const void *k, dim3 grid, dim3 block, void **args,
			  size_t shared, cudaStream_t stream,
			  const struct rt_launcher *to)
{
	cudaError_t e;
	CUfunction f;

	if ((e = rt_function_of(k, &f)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cuemu_rt_result(to->kernel(f, grid.x, grid.y, grid.z,
					  block.x, block.y, block.z,
					  (unsigned)shared, stream, args,
					  NULL));
}

/* The kernel registered at func; unknown is what an address no kernel was
 * registered at answers. */
static cudaError_t kernel_named(const void *func, const void **k,
				cudaError_t unknown)
{
	struct rt_kernel rk;
	cudaError_t e;

	RT_BEGIN();
	if ((e = rt_kernel_of(func, &rk)) == cudaErrorInvalidDeviceFunction)
		e = unknown;
	if (e != cudaSuccess)
		return cuemu_rt_fail(e);
	*k = rk.handle;
	return cudaSuccess;
}

/* What a launch names: a registered kernel's stub, or a cudaKernel_t
 * (cudaGetKernel's, or a library's from cudaLibraryGetKernel). Both are
 * looked up before anything is failed: a library's kernel is no stub,
 * and a launch of it that succeeds leaves no error behind. */
static cudaError_t launchable(const void *func, const void **k)
{
	struct rt_kernel rk;
	CUfunction f;

	RT_BEGIN();
	if (rt_kernel_of(func, &rk) == cudaSuccess) {
		*k = rk.handle;
		return cudaSuccess;
	}
	if (rt_function_of(func, &f) != cudaSuccess)
		return cuemu_rt_fail(cudaErrorInvalidResourceHandle);
	*k = func;
	return cudaSuccess;
}

static cudaError_t launch_named(const void *func, dim3 grid, dim3 block,
				void **args, size_t shared,
				cudaStream_t stream,
				const struct rt_launcher *to)
{
	const void *k;
	cudaError_t e;

	if ((e = launchable(func, &k)) != cudaSuccess)
		return e;
	return launch(k, grid, block, args, shared, stream, to);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
			     void **args, size_t sharedMem,
			     cudaStream_t stream)
{
	return launch_named(func, gridDim, blockDim, args, sharedMem, stream,
			    &rt_legacy);
}

/* Every block resident at once, so that grid.sync() works; a grid larger
 * than the device holds is cudaErrorCooperativeLaunchTooLarge. */
static cudaError_t cooperative(const void *func, dim3 gridDim, dim3 blockDim,
			       void **args, size_t sharedMem,
			       cudaStream_t stream,
			       const struct rt_launcher *to)
{
	const void *k;
	CUfunction f;
	cudaError_t e;

	if ((e = launchable(func, &k)) != cudaSuccess)
		return e;
	if ((e = rt_function_of(k, &f)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cuemu_rt_result(to->cooperative(
		f, gridDim.x, gridDim.y, gridDim.z, blockDim.x, blockDim.y,
		blockDim.z, (unsigned)sharedMem, stream, args));
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
					dim3 blockDim, void **args,
					size_t sharedMem, cudaStream_t stream)
{
	return cooperative(func, gridDim, blockDim, args, sharedMem, stream,
			   &rt_legacy);
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim,
					     dim3 blockDim, void **args,
					     size_t sharedMem,
					     cudaStream_t stream)
{
	return cooperative(func, gridDim, blockDim, args, sharedMem, stream,
			   &rt_ptsz);
}

/* The driver's configuration of the runtime's: the attributes are the
 * same 72-byte records under the same ids, handed on as they are. */
static cudaError_t launch_ex(const cudaLaunchConfig_t *config,
			     const void *func, void **args,
			     const struct rt_launcher *to)
{
	CUlaunchConfig c;
	const void *k;
	CUfunction f;
	cudaError_t e;

	_Static_assert(sizeof(cudaLaunchAttribute) ==
		       sizeof(CUlaunchAttribute), "one attribute record");
	if (!config)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = launchable(func, &k)) != cudaSuccess)
		return e;
	if ((e = rt_function_of(k, &f)) != cudaSuccess)
		return cuemu_rt_fail(e);
	memset(&c, 0, sizeof c);
	c.gridDimX = config->gridDim.x;
	c.gridDimY = config->gridDim.y;
	c.gridDimZ = config->gridDim.z;
	c.blockDimX = config->blockDim.x;
	c.blockDimY = config->blockDim.y;
	c.blockDimZ = config->blockDim.z;
	c.sharedMemBytes = (unsigned)config->dynamicSmemBytes;
	c.hStream = config->stream;
	c.attrs = (CUlaunchAttribute *)config->attrs;
	c.numAttrs = config->numAttrs;
	return cuemu_rt_result(to->ex(&c, f, args, NULL));
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
				const void *func, void **args)
{
	return launch_ex(config, func, args, &rt_legacy);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
				     const void *func, void **args)
{
	return launch_ex(config, func, args, &rt_ptsz);
}

/* A library's kernel takes the attribute on the device named; a
 * registered kernel's handle (cudaGetKernel) is its function in the
 * current context. */
cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel,
					    enum cudaFuncAttribute attr,
					    int value, int device)
{
	CUfunction f;
	cudaError_t e;
	CUresult r;

	RT_BEGIN();
	r = cuKernelSetAttribute((CUfunction_attribute)attr, value,
				 (CUkernel)kernel, device);
	if (r != CUDA_ERROR_INVALID_HANDLE)
		return cuemu_rt_result(r);
	if ((e = rt_function_of(kernel, &f)) != cudaSuccess)
		return cuemu_rt_fail(cudaErrorInvalidResourceHandle);
	return cuemu_rt_result(cuFuncSetAttribute(
		f, (CUfunction_attribute)attr, value));
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim,
				  dim3 blockDim, void **args,
				  size_t sharedMem, cudaStream_t stream)
{
	return launch_named(func, gridDim, blockDim, args, sharedMem, stream,
			    &rt_ptsz);
}

cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
	const void *k;
	cudaError_t e;

	if (!kernelPtr)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = kernel_named(entryFuncAddr, &k,
			      cudaErrorInvalidDeviceFunction)) != cudaSuccess)
		return e;
	*kernelPtr = (cudaKernel_t)(uintptr_t)k;
	return cudaSuccess;
}

/* nvcc 13's stubs look their kernel up once and launch by its handle. */
cudaError_t __cudaGetKernel(cudaKernel_t *kernelPtr, const void *func)
{
	return cudaGetKernel(kernelPtr, func);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim,
			       dim3 blockDim, void **args, size_t sharedMem,
			       cudaStream_t stream)
{
	return launch(kernel, gridDim, blockDim, args, sharedMem, stream,
		      &rt_legacy);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
				    dim3 blockDim, void **args,
				    size_t sharedMem, cudaStream_t stream)
{
	return launch(kernel, gridDim, blockDim, args, sharedMem, stream,
		      &rt_ptsz);
}

/* ----------------------------------------------------------- attributes */

/* The function of the kernel registered at func, in the current context. */
static cudaError_t function_named(const void *func, CUfunction *f,
				  cudaError_t unknown)
{
	const void *k;
	cudaError_t e;

	if ((e = kernel_named(func, &k, unknown)) != cudaSuccess)
		return e;
	if ((e = rt_function_of(k, f)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cudaSuccess;
}

static cudaError_t function_at(const void *func, CUfunction *f)
{
	return function_named(func, f, cudaErrorInvalidResourceHandle);
}

cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr,
				const void *symbolPtr)
{
	CUfunction f;
	cudaError_t e;

	if (!functionPtr)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = function_named(symbolPtr, &f,
				cudaErrorInvalidDeviceFunction)) != cudaSuccess)
		return e;
	*functionPtr = (cudaFunction_t)f;
	return cudaSuccess;
}

/* Fills one int of cudaFuncAttributes from the driver. */
static CUresult attr_int(int *out, CUfunction_attribute attr, CUfunction f)
{
	return cuFuncGetAttribute(out, attr, f);
}

static CUresult attr_size(size_t *out, CUfunction_attribute attr,
			  CUfunction f)
{
	int v;
	CUresult r = cuFuncGetAttribute(&v, attr, f);

	if (r == CUDA_SUCCESS)
		*out = (size_t)v;
	return r;
}

static CUresult fill_attributes(struct cudaFuncAttributes *a, CUfunction f)
{
	CUresult r;

	memset(a, 0, sizeof *a);
	if ((r = attr_size(&a->sharedSizeBytes,
			      CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f)) ||
	    (r = attr_size(&a->constSizeBytes,
			      CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, f)) ||
	    (r = attr_size(&a->localSizeBytes,
			      CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f)) ||
	    (r = attr_int(&a->maxThreadsPerBlock,
			      CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f)) ||
	    (r = attr_int(&a->numRegs,
			      CU_FUNC_ATTRIBUTE_NUM_REGS, f)) ||
	    (r = attr_int(&a->ptxVersion,
			      CU_FUNC_ATTRIBUTE_PTX_VERSION, f)) ||
	    (r = attr_int(&a->binaryVersion,
			      CU_FUNC_ATTRIBUTE_BINARY_VERSION, f)) ||
	    (r = attr_int(&a->cacheModeCA,
			      CU_FUNC_ATTRIBUTE_CACHE_MODE_CA, f)) ||
	    (r = attr_int(&a->maxDynamicSharedSizeBytes,
			      CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f)) ||
	    (r = attr_int(&a->preferredShmemCarveout,
			      CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, f)) ||
	    (r = attr_int(&a->clusterDimMustBeSet,
			      CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET, f)) ||
	    (r = attr_int(&a->requiredClusterWidth,
			      CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, f)) ||
	    (r = attr_int(&a->requiredClusterHeight,
			      CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT, f)) ||
	    (r = attr_int(&a->requiredClusterDepth,
			      CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH, f)) ||
	    (r = attr_int(&a->nonPortableClusterSizeAllowed,
			      CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, f)) ||
	    (r = attr_int(&a->clusterSchedulingPolicyPreference,
			      CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, f)))
		return r;
	return CUDA_SUCCESS;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
				  const void *func)
{
	CUfunction f;
	cudaError_t e;

	if (!attr)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = function_at(func, &f)) != cudaSuccess)
		return e;
	return cuemu_rt_result(fill_attributes(attr, f));
}

cudaError_t cudaFuncSetAttribute(const void *func,
				 enum cudaFuncAttribute attr, int value)
{
	CUfunction f;
	cudaError_t e;

	if ((e = function_at(func, &f)) != cudaSuccess)
		return e;
	return cuemu_rt_result(cuFuncSetAttribute(
		f, (CUfunction_attribute)attr, value));
}

/* A host pointer that names no kernel is the resource-handle error, as
 * for every cudaFunc* call (probes/results/rt_errors.txt). */
cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex,
				 size_t *paramOffset, size_t *paramSize)
{
	CUfunction f;
	cudaError_t e;

	if ((e = function_at(func, &f)) != cudaSuccess)
		return e;
	return cuemu_rt_result(cuFuncGetParamInfo(f, paramIndex, paramOffset,
						  paramSize));
}

cudaError_t cudaFuncSetCacheConfig(const void *func,
				   enum cudaFuncCache cacheConfig)
{
	CUfunction f;
	cudaError_t e;

	if ((e = function_at(func, &f)) != cudaSuccess)
		return e;
	return cuemu_rt_result(cuFuncSetCacheConfig(f,
						    (CUfunc_cache)cacheConfig));
}

/* ----------------------------------------------------------- occupancy */

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
	int *numBlocks, const void *func, int blockSize,
	size_t dynamicSMemSize, unsigned int flags)
{
	CUfunction f;
	cudaError_t e;

	if (!numBlocks)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = function_at(func, &f)) != cudaSuccess)
		return e;
	return cuemu_rt_result(
		cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
			numBlocks, f, blockSize, dynamicSMemSize, flags));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
	int *numBlocks, const void *func, int blockSize,
	size_t dynamicSMemSize)
{
	return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
		numBlocks, func, blockSize, dynamicSMemSize, 0);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(
	size_t *dynamicSmemSize, const void *func, int numBlocks,
	int blockSize)
{
	CUfunction f;
	cudaError_t e;

	if (!dynamicSmemSize)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = function_at(func, &f)) != cudaSuccess)
		return e;
	return cuemu_rt_result(cuOccupancyAvailableDynamicSMemPerBlock(
		dynamicSmemSize, f, numBlocks, blockSize));
}
