/*
 * occupancy.c - the cuOccupancy* entries: how many blocks of a kernel an
 * SM holds at once, the block size that keeps most threads resident, and
 * the dynamic shared memory left to a block. The limits are the device's
 * (threads and blocks per SM, shared memory per SM and per block) and the
 * kernel's (launch bounds, static shared memory, its shared-memory
 * carveout); the figures match what the H100 answered for the kernels of
 * probes/launch.c. Registers limit nothing: the engine counts the PTX's
 * virtual registers, far above what ptxas allocates.
 *
 * No state, no locks.
 */
#include "model/module.h"
#include "driver/driver.h"

/* Shared memory the driver keeps for itself in each resident block. */
#define SMEM_RESERVED_PER_BLOCK 1024

/* The capacities an SM's shared memory may be set to (KiB), smallest
 * first; a carveout asks for a share of the largest and gets the next one
 * up (Hopper's). */
static const int carveouts_kib[] = { 0, 8, 16, 32, 64, 100, 132, 164, 196,
				     228 };

struct limits {
	int threads_per_sm, blocks_per_sm, sm_count;
	int smem_per_sm;      /* at the kernel's carveout */
	int max_threads;      /* the kernel's */
	int smem_static, smem_dynamic_max;
};

static int dev_attr(CUdevice_attribute a, int dev)
{
	int v = 0;

	cuDeviceGetAttribute(&v, a, dev);
	return v;
}

/* The SM's shared memory at f's carveout: a share of the largest capacity
 * rounded up to one the SM has; PREFER_EQUAL asks for half. */
static int carveout_bytes(CUfunction f, int largest)
{
	int pct = cuemu_function_attr(
		f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT);
	int want;

	if (pct < 0 && cuemu_function_cache(f) == CU_FUNC_CACHE_PREFER_EQUAL)
		pct = 50;
	if (pct < 0)
		return largest;
	want = (int)((int64_t)largest * pct / 100);
	for (size_t i = 0; i < sizeof carveouts_kib / sizeof *carveouts_kib;
	     i++)
		if (carveouts_kib[i] * 1024 >= want)
			return carveouts_kib[i] * 1024 < largest ?
			       carveouts_kib[i] * 1024 : largest;
	return largest;
}

static void limits_of(CUfunction f, struct limits *l)
{
	int dev = cuemu_ctx_device(cuemu_module_ctx(cuemu_function_module(f)));

	l->threads_per_sm =
		dev_attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, dev);
	l->blocks_per_sm =
		dev_attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, dev);
	l->sm_count = dev_attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
	l->smem_per_sm = carveout_bytes(
		f, dev_attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
			    dev));
	l->max_threads =
		cuemu_function_attr(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
	l->smem_static =
		cuemu_function_attr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
	l->smem_dynamic_max = cuemu_function_attr(
		f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
}

/* Blocks of block threads and dyn bytes of dynamic shared memory an SM
 * holds at once: 0 for a block the kernel cannot launch. */
static int blocks_per_sm(const struct limits *l, int block, size_t dyn)
{
	int warps = (block + 31) / 32, n = l->blocks_per_sm;
	int64_t smem = (int64_t)l->smem_static + (int64_t)dyn;

	if (block > l->max_threads || (int64_t)dyn > l->smem_dynamic_max)
		return 0;
	if (l->threads_per_sm / (warps * 32) < n)
		n = l->threads_per_sm / (warps * 32);
	if (smem > 0 &&
	    l->smem_per_sm / (smem + SMEM_RESERVED_PER_BLOCK) < n)
		n = (int)(l->smem_per_sm / (smem + SMEM_RESERVED_PER_BLOCK));
	return n;
}

static CUresult flags_check(unsigned int flags)
{
	if (flags & ~(unsigned)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "occupancy flags 0x%x", flags);
	return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
	int *numBlocks, CUfunction func, int blockSize,
	size_t dynamicSMemSize, unsigned int flags)
{
	struct limits l;
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (!numBlocks)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "numBlocks is NULL");
	if ((r = cuemu_function_resolve(func, &func)) != CUDA_SUCCESS ||
	    (r = flags_check(flags)) != CUDA_SUCCESS)
		return r;
	if (blockSize <= 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "block size %d", blockSize);
	limits_of(func, &l);
	*numBlocks = blocks_per_sm(&l, blockSize, dynamicSMemSize);
	return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
						     CUfunction func,
						     int blockSize,
						     size_t dynamicSMemSize)
{
	return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
		numBlocks, func, blockSize, dynamicSMemSize,
		CU_OCCUPANCY_DEFAULT);
}

CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(
	int *minGridSize, int *blockSize, CUfunction func,
	CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
	int blockSizeLimit, unsigned int flags)
{
	int best = 0, best_threads = -1, top;
	struct limits l;
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (!minGridSize || !blockSize)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s is NULL",
				  minGridSize ? "blockSize" : "minGridSize");
	if ((r = cuemu_function_resolve(func, &func)) != CUDA_SUCCESS ||
	    (r = flags_check(flags)) != CUDA_SUCCESS)
		return r;
	limits_of(func, &l);
	top = l.max_threads;
	if (blockSizeLimit > 0 && blockSizeLimit < top)
		top = blockSizeLimit;
	/* whole warps, largest first: a larger block wins a tie */
	for (int b = top / 32 * 32; b > 0; b -= 32) {
		size_t dyn = blockSizeToDynamicSMemSize ?
			     blockSizeToDynamicSMemSize(b) : dynamicSMemSize;
		int threads = blocks_per_sm(&l, b, dyn) * b;
		if (threads > best_threads) {
			best_threads = threads;
			best = b;
		}
	}
	*blockSize = best;
	*minGridSize = best ? best_threads / best * l.sm_count : 0;
	return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxPotentialBlockSize(
	int *minGridSize, int *blockSize, CUfunction func,
	CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
	int blockSizeLimit)
{
	return cuOccupancyMaxPotentialBlockSizeWithFlags(
		minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
		dynamicSMemSize, blockSizeLimit, CU_OCCUPANCY_DEFAULT);
}

CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
						 CUfunction func,
						 int numBlocks, int blockSize)
{
	struct limits l;
	int64_t avail;
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	/* the driver crashes on NULL (probes/README.md); refuse it */
	if (!dynamicSmemSize)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "dynamicSmemSize is NULL");
	if ((r = cuemu_function_resolve(func, &func)) != CUDA_SUCCESS)
		return r;
	limits_of(func, &l);
	if (numBlocks <= 0 || blockSize <= 0 || blockSize > l.max_threads ||
	    numBlocks > blocks_per_sm(&l, blockSize, 0))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%d blocks of %d threads do not fit an SM",
				  numBlocks, blockSize);
	avail = l.smem_per_sm / numBlocks - l.smem_static;
	if (avail > l.smem_dynamic_max)
		avail = l.smem_dynamic_max;
	*dynamicSmemSize = avail > 0 ? (size_t)avail : 0;
	return CUDA_SUCCESS;
}
