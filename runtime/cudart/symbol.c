/*
 * symbol.c - cudaGetSymbolAddress and cudaGetSymbolSize. A program's
 * device variables are registered from its fat binary, which a program
 * running on the emulated machine has none of: every symbol is unknown
 * (cudaErrorInvalidSymbol), after the runtime's start as the real one.
 *
 * No state, no locks.
 */
#include "cudart/cudart.h"

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
	RT_BEGIN();
	if (!devPtr)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	(void)symbol;
	return cuemu_rt_fail(cudaErrorInvalidSymbol);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
	RT_BEGIN();
	if (!size)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	(void)symbol;
	return cuemu_rt_fail(cudaErrorInvalidSymbol);
}
