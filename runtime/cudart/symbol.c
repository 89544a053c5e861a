/*
 * symbol.c - a program's device variables by their host shadow:
 * cudaGetSymbolAddress, cudaGetSymbolSize, and cudaMemcpyToSymbol,
 * cudaMemcpyFromSymbol and their Async forms, each on the variable's
 * address and size in the current context (register.c loads its library
 * first) and then the ordinary copy.
 *
 * A copy to a symbol goes from the host or another device address
 * (cudaMemcpyHostToDevice, DeviceToDevice or Default), one from a symbol
 * to either; any other direction is cudaErrorInvalidMemcpyDirection, and
 * a span past the variable's end cudaErrorInvalidValue, and a copy of no
 * bytes succeeds wherever it starts, as the real runtime answers
 * (probes/results/rt_errors.txt).
 *
 * No state, no locks.
 */
#include "cudart/register.h"

#include <stdbool.h>
#include <stdint.h>

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
	CUdeviceptr p;
	size_t n;
	cudaError_t e;

	RT_BEGIN();
	if (!devPtr)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = rt_symbol_of(symbol, &p, &n)) != cudaSuccess)
		return cuemu_rt_fail(e);
	*devPtr = (void *)(uintptr_t)p;
	return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
	CUdeviceptr p;
	size_t n;
	cudaError_t e;

	RT_BEGIN();
	if (!size)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = rt_symbol_of(symbol, &p, &n)) != cudaSuccess)
		return cuemu_rt_fail(e);
	*size = n;
	return cudaSuccess;
}

/* The device span [offset, offset + count) of the variable at symbol, for
 * a copy in the direction kind (to: into the variable). */
static cudaError_t symbol_span(const void *symbol, size_t count,
			       size_t offset, enum cudaMemcpyKind kind,
			       bool to, void **dev)
{
	enum cudaMemcpyKind ok = to ? cudaMemcpyHostToDevice :
				      cudaMemcpyDeviceToHost;
	CUdeviceptr p;
	size_t n;
	cudaError_t e;

	if (kind != ok && kind != cudaMemcpyDeviceToDevice &&
	    kind != cudaMemcpyDefault)
		return cudaErrorInvalidMemcpyDirection;
	if ((e = rt_symbol_of(symbol, &p, &n)) != cudaSuccess)
		return e;
	if (count && (offset > n || count > n - offset))
		return cudaErrorInvalidValue;
	*dev = (void *)(uintptr_t)(p + offset);
	return cudaSuccess;
}

static cudaError_t to_symbol(const void *symbol, const void *src,
			     size_t count, size_t offset,
			     enum cudaMemcpyKind kind, cudaStream_t stream,
			     bool sync)
{
	void *dev;
	cudaError_t e;

	RT_BEGIN();
	if ((e = symbol_span(symbol, count, offset, kind, true, &dev)) !=
	    cudaSuccess)
		return cuemu_rt_fail(e);
	return sync ? cudaMemcpy(dev, src, count, kind) :
		      cudaMemcpyAsync(dev, src, count, kind, stream);
}

static cudaError_t from_symbol(void *dst, const void *symbol, size_t count,
			       size_t offset, enum cudaMemcpyKind kind,
			       cudaStream_t stream, bool sync)
{
	void *dev;
	cudaError_t e;

	RT_BEGIN();
	if ((e = symbol_span(symbol, count, offset, kind, false, &dev)) !=
	    cudaSuccess)
		return cuemu_rt_fail(e);
	return sync ? cudaMemcpy(dst, dev, count, kind) :
		      cudaMemcpyAsync(dst, dev, count, kind, stream);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
			       size_t count, size_t offset,
			       enum cudaMemcpyKind kind)
{
	return to_symbol(symbol, src, count, offset, kind, NULL, true);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src,
				    size_t count, size_t offset,
				    enum cudaMemcpyKind kind,
				    cudaStream_t stream)
{
	return to_symbol(symbol, src, count, offset, kind, stream, false);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
				 size_t offset, enum cudaMemcpyKind kind)
{
	return from_symbol(dst, symbol, count, offset, kind, NULL, true);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
				      size_t count, size_t offset,
				      enum cudaMemcpyKind kind,
				      cudaStream_t stream)
{
	return from_symbol(dst, symbol, count, offset, kind, stream, false);
}
