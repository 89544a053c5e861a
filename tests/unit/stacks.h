/*
 * stacks.h - what a context's stacks hold of device memory at the default
 * stack size (model/stackmem.c), for tests whose second process makes a
 * context of its own: that context holds it beside what the process
 * allocates, as a real context does.
 */
#ifndef CUEMU_TEST_STACKS_H
#define CUEMU_TEST_STACKS_H

#include <stddef.h>

#include "cuda.h"

/* Free memory under a stack of 0 less under the default 1 KiB, in the
 * current context, whose stack is left at 1 KiB; 0 where there is none. */
static inline size_t context_stacks(void)
{
	size_t with = 0, without = 0, total = 0;

	if (cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 1024) != CUDA_SUCCESS ||
	    cuMemGetInfo(&with, &total) != CUDA_SUCCESS ||
	    cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 0) != CUDA_SUCCESS ||
	    cuMemGetInfo(&without, &total) != CUDA_SUCCESS)
		return 0;
	cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 1024);
	return without - with;
}

#endif
