/*
 * stackmem.c - the device memory a context's thread stacks hold. As an
 * H200's driver does (probes/stackmem.cu, results/stackmem.txt), a context
 * sets aside CU_LIMIT_STACK_SIZE bytes of local memory for every thread the
 * device can hold at once (SMs x threads per SM) out of free memory: when
 * it is made (1 KiB a thread by default), when the limit is set (a lower
 * limit gives memory back), and when a launch needs more than the limit
 * for its kernel's own frame, which raises the limit to that frame. A
 * reservation that does not fit is refused with CUDA_ERROR_OUT_OF_MEMORY,
 * the limit stays, and the reservation the context held is let go (the
 * H200's free memory rose by it); the next launch or set takes it again.
 * The bytes are charged as cuMemAlloc's are (model/evict.c), so
 * cuMemGetInfo and /cu's devices agree on them.
 *
 * Locking: every function here runs under the process lock (cuemu_lock),
 * which guards the context's limits and the bytes it holds.
 */
#include "model/context.h"

#define STACK_STEP 16u
#define STACK_PAGE ((uint64_t)2 << 20)
/* What the H200's reservation holds beside the stacks' bytes: its free
 * memory moved in 2 MiB pages as if 384 to 512 KiB more were set aside
 * with the stacks (the 2 MiB steps fell where 132 x 2048 x s plus that
 * much crossed a page boundary, s from 16 to 523712); the pages a stack
 * of 0 holds are not counted. */
#define STACK_EXTRA ((uint64_t)512 << 10)

/* The bytes a stack of per_thread bytes a thread holds on dev. */
static uint64_t stack_bytes(int dev, size_t per_thread)
{
	const struct cuemu_device_info *d = cuemu_device(dev);
	uint64_t threads, s;

	if (!d || per_thread == 0)
		return 0;
	threads = (uint64_t)d->attrs[CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT] *
		  (uint64_t)d->attrs[CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR];
	s = ((uint64_t)per_thread + STACK_STEP - 1) / STACK_STEP * STACK_STEP;
	s = s * threads + STACK_EXTRA;
	return (s + STACK_PAGE - 1) / STACK_PAGE * STACK_PAGE - STACK_PAGE;
}

void cuemu_stack_release(CUcontext c)
{
	size_t held = cuemu_ctx_stack_held(c);

	if (held)
		cuemu_mem_uncharge(cuemu_ctx_device(c), held);
	cuemu_ctx_set_stack_held(c, 0);
}

CUresult cuemu_stack_reserve(CUcontext c, size_t per_thread)
{
	int dev = cuemu_ctx_device(c);
	uint64_t want = stack_bytes(dev, per_thread),
		 held = cuemu_ctx_stack_held(c);

	if (want > held && !cuemu_mem_charge_evicting(dev, want - held)) {
		cuemu_stack_release(c);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "a stack of %zu "
				  "bytes a thread needs %llu bytes of device "
				  "memory", per_thread, (unsigned long long)want);
	}
	if (want < held)
		cuemu_mem_uncharge(dev, held - want);
	cuemu_ctx_set_stack_held(c, want);
	return CUDA_SUCCESS;
}

CUresult cuemu_stack_fit(CUcontext c, size_t frame)
{
	size_t limit = cuemu_ctx_limit(c, CU_LIMIT_STACK_SIZE);
	size_t need = (frame + STACK_STEP - 1) / STACK_STEP * STACK_STEP;
	CUresult r;

	if (need <= limit)
		return cuemu_stack_reserve(c, limit);
	if ((r = cuemu_stack_reserve(c, need)) == CUDA_SUCCESS)
		cuemu_ctx_set_limit(c, CU_LIMIT_STACK_SIZE, need);
	return r;
}
