/*
 * test_copy.c - copies and memsets: the bytes arrive in every direction
 * (host, pinned, registered, device, peer device, managed), in stream
 * order; the path each copy takes (pinned or pageable host memory, within
 * a GPU, over a GPU-to-GPU link or staged through the host, host to host,
 * a memset, managed memory migrating only when it is not resident), and
 * the host's own time for a synchronous pageable copy; the errors of each
 * form; the runtime's cudaMemcpy with every kind, cudaMemcpyDefault
 * inferring the direction, and cudaMemset; VMM mappings refusing what
 * their access does not allow, instead of faulting.
 *
 * The machine is the test's own, with a different round rate for every
 * path, so that the model time a copy costs says which path it took (the
 * rates themselves are the topology's business, not this test's):
 *   links (managed migrations, peer copies): host to GPU 10 GB/s + 1 us,
 *     GPU to host 5 GB/s + 2 us, gpu0 to gpu1 100 GB/s + 500 ns, gpu1 to
 *     gpu0 none, host to host 20 GB/s;
 *   copies: pinned to GPU 40 GB/s + 100 ns, GPU to pinned 25 + 200,
 *     pageable to GPU 4 + 300 (the host's own time 2 + 400), GPU to
 *     pageable 8 + 600 (host 2.5 + 700), within a GPU 500 + 800, memset
 *     2000 + 900 (up to 4096 bytes: 50 ns); the calls cost the host
 *     nothing (uvm.copy_call_ns, copy_kernel_call_ns,
 *     memset_short_call_ns: test_copyone prices them).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "cuemu.h"
#include "tap.h"

#define MIB (1ULL << 20)
#define N (10 * 1000 * 1000) /* bytes: round model times */

static char machine[128], topo[512];

/* A machine of the test's own shape, named after the private one the test
 * wrapper gives (tests/private-machine.sh removes <machine>-* and the
 * scratch TMPDIR, whatever the test's exit). */
static void machine_setup(void)
{
	const char *base = getenv("CUEMU_MACHINE"), *tmp = getenv("TMPDIR");
	FILE *f;

	snprintf(machine, sizeof machine, "%s-copy",
		 base && *base ? base : "cuemu-copytest");
	snprintf(topo, sizeof topo, "%s/cuemu-copytest-%d.json",
		 tmp && *tmp ? tmp : "/tmp", (int)getpid());
	f = fopen(topo, "w");
	if (!f)
		exit(99);
	fputs("{ \"name\": \"copytest\", \"device_count\": 2,\n"
	      "  \"devices\": [ { \"name\": \"Copy GPU\", \"memory\": \"4G\" } ],\n"
	      "  \"links\": {\n"
	      "    \"host_to_gpu\": { \"kind\": \"pcie\", \"gbps\": 10, \"latency_ns\": 1000 },\n"
	      "    \"gpu_to_host\": { \"kind\": \"pcie\", \"gbps\": 5, \"latency_ns\": 2000 },\n"
	      "    \"gpu_gpu\": { \"kind\": \"nvlink\", \"gbps\": 100, \"latency_ns\": 500 },\n"
	      "    \"gpu_local\": { \"kind\": \"local\", \"gbps\": 1000, \"latency_ns\": 0 },\n"
	      "    \"host_local\": { \"kind\": \"local\", \"gbps\": 20, \"latency_ns\": 0 },\n"
	      "    \"pairs\": [ { \"from\": \"gpu1\", \"to\": \"gpu0\", \"kind\": \"none\" } ] },\n"
	      "  \"copies\": {\n"
	      "    \"pinned_to_gpu\": { \"gbps\": 40, \"latency_ns\": 100 },\n"
	      "    \"gpu_to_pinned\": { \"gbps\": 25, \"latency_ns\": 200 },\n"
	      "    \"pageable_to_gpu\": { \"gbps\": 4, \"latency_ns\": 300,\n"
	      "                         \"host_gbps\": 2, \"host_latency_ns\": 400 },\n"
	      "    \"gpu_to_pageable\": { \"gbps\": 8, \"latency_ns\": 600,\n"
	      "                         \"host_gbps\": 2.5, \"host_latency_ns\": 700 },\n"
	      "    \"gpu_local\": { \"gbps\": 500, \"latency_ns\": 800 },\n"
	      "    \"memset\": { \"gbps\": 2000, \"latency_ns\": 900,\n"
	      "                \"small_bytes\": 4096, \"small_latency_ns\": 50 } },\n"
	      "  \"uvm\": { \"copy_call_ns\": 0, \"copy_kernel_call_ns\": 0,\n"
	      "             \"memset_short_call_ns\": 0 } }\n",
	      f);
	fclose(f);
	setenv("CUEMU_MACHINE", machine, 1);
	setenv("CUEMU_TOPOLOGY", topo, 1);
	setenv("CUEMU_CONTROL", "0", 1);
}

static unsigned long long now(CUstream s)
{
	unsigned long long t = 0;

	cuemuStreamGetTime(s, &t);
	return t;
}

static void pattern(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 131 + seed);
}

static int same(const void *a, const void *b, size_t n)
{
	return memcmp(a, b, n) == 0;
}

static CUcontext ctx[2];

static void test_directions(void)
{
	unsigned char *host = malloc(N), *back = malloc(N), *pinned;
	CUdeviceptr d0, d0b, d1;

	cuMemAlloc(&d0, N);
	cuMemAlloc(&d0b, N);
	cuCtxSetCurrent(ctx[1]);
	cuMemAlloc(&d1, N);
	cuCtxSetCurrent(ctx[0]);
	cuMemAllocHost((void **)&pinned, N);

	pattern(host, N, 1);
	is_res(cuMemcpyHtoD(d0, host, N), CUDA_SUCCESS, "cuMemcpyHtoD");
	ok(same((void *)d0, host, N), "pageable host to device: bytes arrive");
	is_res(cuMemcpyDtoD(d0b, d0, N), CUDA_SUCCESS, "cuMemcpyDtoD");
	ok(same((void *)d0b, host, N), "device to device: bytes arrive");
	is_res(cuMemcpyPeer(d1, ctx[1], d0b, ctx[0], N), CUDA_SUCCESS,
	       "cuMemcpyPeer");
	ok(same((void *)d1, host, N), "device to peer device: bytes arrive");
	memset(back, 0, N);
	is_res(cuMemcpyDtoH(back, d1, N), CUDA_SUCCESS, "cuMemcpyDtoH");
	ok(same(back, host, N), "device to pageable host: bytes arrive");
	is_res(cuMemcpy((CUdeviceptr)pinned, d0, N), CUDA_SUCCESS,
	       "cuMemcpy device to pinned");
	ok(same(pinned, host, N), "device to pinned: bytes arrive");
	pattern(pinned, N, 2);
	is_res(cuMemcpy(d0, (CUdeviceptr)pinned, N), CUDA_SUCCESS,
	       "cuMemcpy pinned to device");
	ok(same((void *)d0, pinned, N), "pinned to device: bytes arrive");
	is_res(cuMemcpy((CUdeviceptr)back, (CUdeviceptr)pinned, N),
	       CUDA_SUCCESS, "cuMemcpy host to host");
	ok(same(back, pinned, N), "host to host: bytes arrive");
	is_res(cuMemcpyHtoD(d0, host, 0), CUDA_SUCCESS,
	       "a zero-byte copy is SUCCESS");

	is_res(cuMemcpyHtoD((CUdeviceptr)back, host, 16),
	       CUDA_ERROR_INVALID_VALUE,
	       "cuMemcpyHtoD to pageable memory is INVALID_VALUE");
	is_res(cuMemcpyDtoH(back, (CUdeviceptr)host, 16),
	       CUDA_ERROR_INVALID_VALUE,
	       "cuMemcpyDtoH from pageable memory is INVALID_VALUE");
	is_res(cuMemcpyHtoD(d0 + N - 8, host, 16), CUDA_ERROR_INVALID_VALUE,
	       "a copy past the end of an allocation is INVALID_VALUE");
	is_res(cuMemcpyHtoD(d0, NULL, 16), CUDA_ERROR_INVALID_VALUE,
	       "a NULL source is INVALID_VALUE");
	is_res(cuMemcpyPeer(d1, NULL, d0, ctx[0], 16), CUDA_SUCCESS,
	       "cuMemcpyPeer ignores its contexts, as the real driver does");
	is_res(cuMemcpy(0, 0, 0), CUDA_SUCCESS,
	       "a zero-byte copy of NULL is SUCCESS");
	is_res(cuMemsetD32(d0, 0, 0), CUDA_SUCCESS,
	       "a zero-element memset is SUCCESS");

	cuMemFree(d0);
	cuMemFree(d0b);
	cuMemFree(d1);
	cuMemFreeHost(pinned);
	free(host);
	free(back);
}

static void test_registered(void)
{
	size_t len = 64 * 4096;
	unsigned char *reg = mmap(NULL, len, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char src[4096];
	CUdeviceptr d;
	CUstream s;

	cuMemAlloc(&d, len);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuMemHostRegister(reg, len, 0);
	pattern(src, sizeof src, 3);
	memcpy(reg, src, sizeof src);
	is_res(cuMemcpyHtoDAsync(d, reg, sizeof src, s), CUDA_SUCCESS,
	       "cuMemcpyHtoDAsync from registered memory");
	is_res(cuMemcpyDtoHAsync(reg + 8192, d, sizeof src, s), CUDA_SUCCESS,
	       "cuMemcpyDtoHAsync to registered memory");
	cuStreamSynchronize(s);
	ok(same(reg + 8192, src, sizeof src),
	   "registered to device and back, in stream order");
	cuMemHostUnregister(reg);
	cuMemHostRegister(reg, len, CU_MEMHOSTREGISTER_READ_ONLY);
	is_res(cuMemcpyHtoD(d, reg, 64), CUDA_SUCCESS,
	       "a copy from read-only registered memory");
	is_res(cuMemcpyDtoH(reg, d, 64), CUDA_ERROR_INVALID_VALUE,
	       "a copy into read-only registered memory is INVALID_VALUE");
	is_res(cuMemsetD8((CUdeviceptr)reg, 1, 64), CUDA_ERROR_INVALID_VALUE,
	       "a memset of read-only registered memory is INVALID_VALUE");
	cuMemHostUnregister(reg);
	is_res(cuMemHostRegister(reg, len, 0), CUDA_SUCCESS, "register again");
	is_res(cuMemsetD8((CUdeviceptr)reg, 7, 64), CUDA_SUCCESS,
	       "a memset of registered memory");
	ok(reg[63] == 7, "writes it");
	cuMemHostUnregister(reg);
	cuStreamDestroy(s);
	cuMemFree(d);
	munmap(reg, len);
}

/* The host's model time: a new stream starts there. */
static unsigned long long host_now(void)
{
	unsigned long long t = 0;
	CUstream x;

	if (cuStreamCreate(&x, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS)
		return 0;
	cuemuStreamGetTime(x, &t);
	cuStreamDestroy(x);
	return t;
}

/* Where the next operation on s starts: no earlier than its clock, nor
 * than the host's time when it is enqueued. */
static unsigned long long start_of(CUstream s)
{
	unsigned long long t = now(s), h = host_now();

	return t > h ? t : h;
}

#define LEGACY CU_STREAM_LEGACY
#define REG_BYTES 4000000  /* a registered copy: round model times */

/* Pinned and registered host memory go at the copy engines' pinned rates,
 * not at the managed links' (10 and 5 GB/s here). */
static void test_path_pinned(CUstream s, CUdeviceptr d0)
{
	size_t len = (REG_BYTES + 4095) & ~(size_t)4095;
	unsigned char *pinned, *reg;
	unsigned long long t0;

	cuMemAllocHost((void **)&pinned, N);
	t0 = start_of(s);
	cuMemcpyHtoDAsync(d0, pinned, N, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, 100 + N / 40,
	       "path: pinned to device at the pinned-to-GPU rate");
	t0 = start_of(s);
	cuMemcpyDtoHAsync(pinned, d0, N, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, 200 + N / 25,
	       "path: device to pinned at the GPU-to-pinned rate");
	t0 = start_of(s);
	cuMemsetD8Async((CUdeviceptr)pinned, 0, N, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, 200 + N / 25,
	       "path: a memset of pinned memory, GPU to pinned");
	cuMemFreeHost(pinned);

	reg = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (reg == MAP_FAILED || cuMemHostRegister(reg, len, 0)) {
		ok(0, "registered memory for the path cases");
		return;
	}
	t0 = start_of(s);
	cuMemcpyHtoDAsync(d0, reg, REG_BYTES, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, 100 + REG_BYTES / 40,
	       "path: registered to device is pinned");
	t0 = start_of(s);
	cuMemcpyDtoHAsync(reg, d0, REG_BYTES, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, 200 + REG_BYTES / 25,
	       "path: device to registered is pinned");
	cuMemHostUnregister(reg);
	munmap(reg, len);
}

/* Memory the runtime does not know is staged: the stream at the pageable
 * rate; a synchronous copy keeps the host busy for its own, longer, time. */
static void test_path_pageable(CUstream s, CUdeviceptr d0)
{
	unsigned char *host = malloc(N);
	unsigned long long t0;

	t0 = start_of(LEGACY);
	cuMemcpyHtoD(d0, host, N);
	is_int(now(LEGACY) - t0, 300 + N / 4,
	       "path: synchronous pageable to device, the stream at the "
	       "pageable rate");
	is_int(host_now() - t0, 400 + N / 2,
	       "... and the host's clock on by its own staging time");
	t0 = start_of(LEGACY);
	cuMemcpyDtoH(host, d0, N);
	is_int(now(LEGACY) - t0, 600 + N / 8,
	       "path: synchronous device to pageable, the stream at the "
	       "pageable rate");
	is_int(host_now() - t0, 700 + N * 2 / 5,
	       "... and the host's clock on by its own staging time");
	t0 = start_of(s);
	cuMemcpyHtoDAsync(d0, host, N, s);
	is_int(now(s) - t0, 300 + N / 4,
	       "path: asynchronous pageable to device at the pageable rate");
	is_int(host_now() - t0, 300 + N / 4,
	       "... the host waits for it, and is charged no staging time");
	t0 = start_of(s);
	cuMemcpyDtoHAsync(host, d0, N, s);
	is_int(now(s) - t0, 600 + N / 8,
	       "path: asynchronous device to pageable at the pageable rate");
	t0 = start_of(s);
	cuMemcpy((CUdeviceptr)host, (CUdeviceptr)(host + N / 2), N / 2);
	is_int(host_now() - t0, N / 2 / 20,
	       "path: pageable to pageable is host to host");
	free(host);
}

/* Within a GPU, GPU to GPU over their link or through the host where they
 * have none, and memsets. */
static void test_path_device(CUstream s, CUdeviceptr d0, CUdeviceptr d1)
{
	unsigned long long t0;

	t0 = start_of(s);
	cuMemcpyDtoDAsync(d0, d0 + N / 2, N / 2, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, 800 + N / 2 / 500,
	       "path: within a device at the GPU-local copy rate");
	t0 = start_of(s);
	cuMemcpyDtoDAsync(d1, d0, N, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, 500 + N / 100,
	       "path: gpu0 to gpu1 over their link");
	t0 = start_of(s);
	cuMemcpyDtoDAsync(d0, d1, N, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, 200 + N / 25 + 100 + N / 40,
	       "path: gpu1 to gpu0, no link: staged through the host");
	t0 = start_of(s);
	cuMemsetD8Async(d0, 1, N, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, 900 + N / 2000, "path: a memset at the memset rate");
	t0 = start_of(s);
	cuMemsetD8Async(d0, 1, 4096, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, 50 + 4096 / 2000,
	       "path: a memset of small_bytes takes the short latency");
	t0 = start_of(s);
	cuMemsetD8Async(d0, 1, 4097, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, 900 + 4097 / 2000,
	       "path: ... one byte more, the full latency");
	t0 = start_of(s);
	cuMemsetD8Async(d1, 1, N, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, 500 + N / 100,
	       "path: a memset of gpu1's memory from gpu0 crosses the link");
}

/* Managed memory migrates, charged as a migration, only when it is not
 * where the copy needs it; the copy itself is then of that memory. */
static void test_path_managed(CUstream s, CUdeviceptr d0)
{
	unsigned char *pinned;
	unsigned long long t0;
	CUdeviceptr m;

	if (cuMemAllocManaged(&m, N, CU_MEM_ATTACH_GLOBAL) != CUDA_SUCCESS ||
	    cuMemAllocHost((void **)&pinned, N) != CUDA_SUCCESS) {
		ok(0, "managed and pinned memory for the path cases");
		return;
	}
	memset((void *)m, 3, N);
	t0 = start_of(s);
	cuMemcpyHtoDAsync(m, pinned, N, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, N / 20,
	       "path: pinned into managed memory resident on the host: no "
	       "migration, host to host");
	t0 = start_of(s);
	cuMemcpyDtoDAsync(d0, m, N, s);
	cuStreamSynchronize(s);
	ok(now(s) - t0 > 800 + N / 500,
	   "path: managed memory on the host, copied by gpu0: it migrates "
	   "first, at a migration's cost");
	t0 = start_of(s);
	cuMemcpyDtoDAsync(d0, m, N, s);
	cuStreamSynchronize(s);
	is_int(now(s) - t0, 800 + N / 500,
	       "path: ... resident on gpu0 now: no migration, within a device");
	cuMemFreeHost(pinned);
	cuMemFree(m);
}

static void test_paths(void)
{
	CUdeviceptr d0, d1;
	CUstream s;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuMemAlloc(&d0, N);
	cuCtxSetCurrent(ctx[1]);
	cuMemAlloc(&d1, N);
	cuCtxSetCurrent(ctx[0]);
	test_path_pinned(s, d0);
	test_path_pageable(s, d0);
	test_path_device(s, d0, d1);
	test_path_managed(s, d0);
	cuMemFree(d1);
	cuMemFree(d0);
	cuStreamDestroy(s);
}

static void test_order(void)
{
	unsigned char *pinned;
	CUdeviceptr d0, d1;
	CUstream s;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuMemAllocHost((void **)&pinned, N);
	cuMemAlloc(&d0, N);
	cuCtxSetCurrent(ctx[1]);
	cuMemAlloc(&d1, N);
	cuCtxSetCurrent(ctx[0]);

	/* Stream order: the second copy reads what the first wrote. */
	pattern(pinned, N, 4);
	cuMemcpyHtoDAsync(d0, pinned, N, s);
	cuMemcpyDtoDAsync(d1, d0, N, s);
	cuMemsetD8Async(d0, 0, N, s);
	cuMemcpyDtoHAsync(pinned, d1, N, s);
	cuStreamSynchronize(s);
	ok(((unsigned char *)d0)[N - 1] == 0 &&
	   pinned[12345] == (unsigned char)(12345 * 131 + 4),
	   "four queued operations run in order");

	/* cuMemFree waits for queued work on the memory it frees. */
	cuMemsetD8Async(d0, 9, N, s);
	cuMemcpyDtoDAsync(d1, d0, N, s);
	is_res(cuMemFree(d0), CUDA_SUCCESS,
	       "cuMemFree with copies still queued on it");
	ok(((unsigned char *)d1)[N - 1] == 9, "the queued copies ran first");

	cuMemFree(d1);
	cuMemFreeHost(pinned);
	cuStreamDestroy(s);
}

static void test_memset(void)
{
	CUdeviceptr d;
	unsigned char *b;
	uint16_t *h;
	uint32_t *w;
	CUstream s;

	cuMemAlloc(&d, MIB);
	b = (unsigned char *)d;
	h = (uint16_t *)d;
	w = (uint32_t *)d;
	is_res(cuMemsetD8(d + 1, 0xab, 1000), CUDA_SUCCESS, "cuMemsetD8");
	ok(b[1] == 0xab && b[1000] == 0xab, "D8 writes the byte");
	ok(b[1001] == 0 && b[0] == 0, "and only N of them");
	is_res(cuMemsetD16(d + 2, 0x1234, 1001), CUDA_SUCCESS, "cuMemsetD16");
	ok(h[1] == 0x1234 && h[1001] == 0x1234, "D16 writes the halfword");
	is_res(cuMemsetD32(d + 4, 0xdeadbeef, 4097), CUDA_SUCCESS,
	       "cuMemsetD32");
	ok(w[1] == 0xdeadbeef && w[4097] == 0xdeadbeef && w[4098] != 0xdeadbeef,
	   "D32 writes exactly N words");
	is_res(cuMemsetD16(d + 1, 1, 4), CUDA_ERROR_INVALID_VALUE,
	       "an unaligned D16 is INVALID_VALUE");
	is_res(cuMemsetD32(d + 2, 1, 4), CUDA_ERROR_INVALID_VALUE,
	       "an unaligned D32 is INVALID_VALUE");
	is_res(cuMemsetD16(d + 1, 1, 0), CUDA_SUCCESS,
	       "an unaligned D16 of no elements is SUCCESS");
	is_res(cuMemsetD8(d, 1, MIB + 1), CUDA_ERROR_INVALID_VALUE,
	       "a memset past the end is INVALID_VALUE");
	is_res(cuMemsetD8((CUdeviceptr)(uintptr_t)&s, 1, 1),
	       CUDA_ERROR_INVALID_VALUE, "a memset of pageable memory is "
	       "INVALID_VALUE");
	cuStreamCreate(&s, 0);
	is_res(cuMemsetD32Async(d, 7, 16, s), CUDA_SUCCESS, "cuMemsetD32Async");
	is_res(cuMemsetD16Async(d + 64, 9, 16, s), CUDA_SUCCESS,
	       "cuMemsetD16Async");
	is_res(cuMemsetD8Async(d + 96, 5, 16, s), CUDA_SUCCESS,
	       "cuMemsetD8Async");
	cuStreamSynchronize(s);
	ok(w[15] == 7 && h[47] == 9 && b[111] == 5,
	   "async memsets land after a synchronize");
	cuStreamDestroy(s);
	cuMemFree(d);
}

static void test_runtime(void)
{
	char host[256], back[256];
	void *d, *d1, *pinned;
	cudaStream_t s;

	pattern((unsigned char *)host, sizeof host, 5);
	cudaMalloc(&d, 4096);
	cudaMallocHost(&pinned, 4096);
	ok(cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice) ==
	   cudaSuccess, "cudaMemcpy HostToDevice");
	ok(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost) ==
	   cudaSuccess && same(back, host, sizeof host),
	   "cudaMemcpy DeviceToHost brings it back");
	ok(cudaMemcpy((char *)d + 1024, d, 256, cudaMemcpyDeviceToDevice) ==
	   cudaSuccess && same((char *)d + 1024, host, 256),
	   "cudaMemcpy DeviceToDevice");
	ok(cudaMemcpy(back, host, 256, cudaMemcpyHostToHost) == cudaSuccess,
	   "cudaMemcpy HostToHost");
	memset(back, 0, sizeof back);
	ok(cudaMemcpy(pinned, (char *)d + 1024, 256, cudaMemcpyDefault) ==
	   cudaSuccess && same(pinned, host, 256),
	   "cudaMemcpyDefault infers device to host");
	ok(cudaMemcpy((char *)d + 2048, pinned, 256, cudaMemcpyDefault) ==
	   cudaSuccess && same((char *)d + 2048, host, 256),
	   "cudaMemcpyDefault infers host to device");
	ok(cudaMemcpy(back, host, 256, cudaMemcpyHostToDevice) ==
	   cudaErrorInvalidValue,
	   "HostToDevice into pageable memory is cudaErrorInvalidValue");
	ok(cudaMemcpy(back, host, 256, (enum cudaMemcpyKind)7) ==
	   cudaErrorInvalidMemcpyDirection,
	   "an unknown kind is cudaErrorInvalidMemcpyDirection");
	ok(cudaGetLastError() == cudaErrorInvalidMemcpyDirection,
	   "and it is the last error");
	ok(cudaMemset(d, 0x11, 100) == cudaSuccess &&
	   ((unsigned char *)d)[99] == 0x11, "cudaMemset");
	cudaStreamCreate(&s);
	ok(cudaMemsetAsync(d, 0x22, 100, s) == cudaSuccess, "cudaMemsetAsync");
	ok(cudaMemcpyAsync(pinned, d, 100, cudaMemcpyDefault, s) ==
	   cudaSuccess, "cudaMemcpyAsync");
	cudaStreamSynchronize(s);
	ok(((unsigned char *)pinned)[99] == 0x22,
	   "cudaMemcpyAsync runs after cudaMemsetAsync");
	cudaSetDevice(1);
	cudaMalloc(&d1, 4096);
	cudaSetDevice(0);
	ok(cudaMemcpyPeer(d1, 1, d, 0, 100) == cudaSuccess &&
	   ((unsigned char *)d1)[99] == 0x22, "cudaMemcpyPeer");
	ok(cudaMemcpyPeerAsync(d1, 1, d, 0, 100, s) == cudaSuccess,
	   "cudaMemcpyPeerAsync");
	ok(cudaMemcpyPeer(d1, 7, d, 0, 100) == cudaErrorInvalidDevice,
	   "cudaMemcpyPeer to device 7 is cudaErrorInvalidDevice");
	cudaGetLastError();
	cudaStreamSynchronize(s);
	cudaStreamDestroy(s);
	cudaFree(d1);
	cudaFree(d);
	cudaFreeHost(pinned);
}

static void test_managed(void)
{
	CUdeviceptr m, d;
	char host[64], back[64];

	if (cuMemAllocManaged(&m, MIB, CU_MEM_ATTACH_GLOBAL) != CUDA_SUCCESS) {
		ok(0, "cuMemAllocManaged for the managed copy cases");
		return;
	}
	cuMemAlloc(&d, MIB);
	pattern((unsigned char *)host, sizeof host, 6);
	is_res(cuMemcpyHtoD(m, host, sizeof host), CUDA_SUCCESS,
	       "cuMemcpyHtoD into managed memory");
	is_res(cuMemcpy(d, m, sizeof host), CUDA_SUCCESS,
	       "cuMemcpy managed to device");
	is_res(cuMemcpyDtoH(back, d, sizeof back), CUDA_SUCCESS,
	       "cuMemcpyDtoH from device");
	ok(same(back, host, sizeof host), "managed data survive the trip");
	is_res(cuMemsetD8(m, 3, 100), CUDA_SUCCESS, "cuMemsetD8 of managed");
	ok(((unsigned char *)m)[99] == 3, "the host reads the managed memset");
	cuMemFree(d);
	cuMemFree(m);
}

/* ------------------------------------------------------------ VMM access */

#define GRAN (2 * MIB) /* the VMM granularity */

static CUresult vmm_handle(CUmemGenericAllocationHandle *h, int dev)
{
	CUmemAllocationProp p;

	memset(&p, 0, sizeof p);
	p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = dev;
	return cuMemCreate(h, GRAN, &p, 0);
}

static CUresult vmm_access(CUdeviceptr va, size_t size, int dev,
			   CUmemAccess_flags f)
{
	CUmemAccessDesc d;

	memset(&d, 0, sizeof d);
	d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = dev;
	d.flags = f;
	return cuMemSetAccess(va, size, &d, 1);
}

/* A copy or memset that a mapping's access does not allow is refused before
 * any byte is touched: the process lives to see INVALID_VALUE. */
static void test_vmm_access(void)
{
	CUmemGenericAllocationHandle h[3];
	unsigned char host[64], back[64];
	CUdeviceptr R, d;
	CUstream s;

	if (cuMemAddressReserve(&R, 3 * GRAN, 0, 0, 0) != CUDA_SUCCESS ||
	    vmm_handle(&h[0], 0) || vmm_handle(&h[1], 0) ||
	    vmm_handle(&h[2], 0) || cuMemMap(R, GRAN, 0, h[0], 0) ||
	    cuMemMap(R + GRAN, GRAN, 0, h[1], 0)) {
		ok(0, "a reservation with two mappings for the VMM cases");
		return;
	}
	cuMemAlloc(&d, MIB);
	cuStreamCreate(&s, 0);
	pattern(host, sizeof host, 7);

	/* Mapped, no cuMemSetAccess yet: neither written nor read. */
	is_res(cuMemcpyHtoD(R, host, sizeof host), CUDA_ERROR_INVALID_VALUE,
	       "vmm: a copy into a mapping with no access is INVALID_VALUE");
	is_res(cuMemcpyHtoDAsync(R, host, sizeof host, s),
	       CUDA_ERROR_INVALID_VALUE, "vmm: ... and its Async form");
	is_res(cuMemsetD32(R, 0x1234, 4), CUDA_ERROR_INVALID_VALUE,
	       "vmm: a memset of it is INVALID_VALUE");
	is_res(cuMemcpyDtoH(back, R, sizeof back), CUDA_ERROR_INVALID_VALUE,
	       "vmm: a copy out of it is INVALID_VALUE");
	is_res(cuMemcpyDtoD(d, R, 64), CUDA_ERROR_INVALID_VALUE,
	       "vmm: a device copy out of it is INVALID_VALUE");
	ok(cudaMemcpy((void *)R, host, 64, cudaMemcpyDefault) ==
	   cudaErrorInvalidValue, "vmm: cudaMemcpy into it is "
	   "cudaErrorInvalidValue");
	cudaGetLastError();

	/* Read-write for gpu0: the bytes arrive. */
	is_res(vmm_access(R, GRAN, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE),
	       CUDA_SUCCESS, "vmm: cuMemSetAccess gpu0 rw");
	is_res(cuMemcpyHtoD(R + 100, host, sizeof host), CUDA_SUCCESS,
	       "vmm: after it a copy in succeeds");
	memset(back, 0, sizeof back);
	is_res(cuMemcpyDtoH(back, R + 100, sizeof back), CUDA_SUCCESS,
	       "vmm: and a copy out");
	ok(same(back, host, sizeof host), "vmm: the bytes arrive");
	is_res(cuMemsetD8Async(R, 0x5a, 16, s), CUDA_SUCCESS,
	       "vmm: an Async memset of it");
	cuStreamSynchronize(s);
	ok(((unsigned char *)R)[15] == 0x5a, "vmm: ... writes it");

	/* Read-only for gpu0: read, never written. */
	is_res(vmm_access(R, GRAN, 0, CU_MEM_ACCESS_FLAGS_PROT_READ),
	       CUDA_SUCCESS, "vmm: cuMemSetAccess gpu0 ro");
	is_res(cuMemcpyHtoD(R, host, sizeof host), CUDA_ERROR_INVALID_VALUE,
	       "vmm: read-only refuses a copy in");
	is_res(cuMemsetD8(R, 1, 16), CUDA_ERROR_INVALID_VALUE,
	       "vmm: read-only refuses a memset");
	ok(((unsigned char *)R)[0] == 0x5a,
	   "vmm: the refused writes left the bytes as they were");
	memset(back, 0, sizeof back);
	is_res(cuMemcpyDtoH(back, R + 100, sizeof back), CUDA_SUCCESS,
	       "vmm: read-only allows a copy out");
	ok(same(back, host, sizeof host), "vmm: ... of the bytes written");
	is_res(cuMemcpyDtoD(d, R + 100, 64), CUDA_SUCCESS,
	       "vmm: read-only allows a device copy out");

	/* A copy is checked against every mapping it crosses. */
	is_res(vmm_access(R, GRAN, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE),
	       CUDA_SUCCESS, "vmm: the first mapping rw again");
	is_res(cuMemsetD8(R + GRAN - 8, 2, 16), CUDA_ERROR_INVALID_VALUE,
	       "vmm: a memset into the next mapping, which has no access, "
	       "is INVALID_VALUE");
	is_res(vmm_access(R + GRAN, GRAN, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE),
	       CUDA_SUCCESS, "vmm: the second mapping rw");
	is_res(cuMemsetD8(R + GRAN - 8, 2, 16), CUDA_SUCCESS,
	       "vmm: then the memset across both succeeds");
	ok(((unsigned char *)R)[GRAN + 7] == 2, "vmm: ... and lands in both");

	/* A hole between two mappings is refused, not crossed. */
	cuMemUnmap(R + GRAN, GRAN);
	if (cuMemMap(R + 2 * GRAN, GRAN, 0, h[2], 0) == CUDA_SUCCESS)
		vmm_access(R + 2 * GRAN, GRAN, 0,
			   CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	is_res(cuMemsetD8(R + GRAN - 8, 3, GRAN + 16),
	       CUDA_ERROR_INVALID_VALUE,
	       "vmm: a memset over an unmapped hole between two mappings "
	       "is INVALID_VALUE");

	/* Access is per device: the stream's GPU is the one that copies. */
	is_res(vmm_access(R, GRAN, 1, CU_MEM_ACCESS_FLAGS_PROT_READWRITE),
	       CUDA_SUCCESS, "vmm: gpu1 rw");
	is_res(vmm_access(R, GRAN, 0, CU_MEM_ACCESS_FLAGS_PROT_NONE),
	       CUDA_SUCCESS, "vmm: gpu0 none");
	is_res(cuMemcpyHtoD(R, host, sizeof host), CUDA_ERROR_INVALID_VALUE,
	       "vmm: a copy on gpu0 into memory only gpu1 may access is "
	       "INVALID_VALUE");
	cuCtxSetCurrent(ctx[1]);
	is_res(cuMemcpyHtoD(R, host, sizeof host), CUDA_SUCCESS,
	       "vmm: the same copy on gpu1 succeeds");
	cuCtxSetCurrent(ctx[0]);

	cuStreamDestroy(s);
	cuMemFree(d);
	cuMemUnmap(R, GRAN);
	cuMemUnmap(R + 2 * GRAN, GRAN);
	for (int i = 0; i < 3; i++)
		cuMemRelease(h[i]);
	cuMemAddressFree(R, 3 * GRAN);
}

int main(void)
{
	char shm[160];

	machine_setup();
	is_res(cuInit(0), CUDA_SUCCESS, "cuInit");
	cuDevicePrimaryCtxRetain(&ctx[0], 0);
	cuDevicePrimaryCtxRetain(&ctx[1], 1);
	cuCtxSetCurrent(ctx[0]);

	test_directions();
	test_registered();
	test_paths();
	test_order();
	test_memset();
	test_runtime();
	test_managed();
	test_vmm_access();

	cuCtxSetCurrent(NULL);
	is_res(cuMemcpyHtoD(0, shm, 1), CUDA_ERROR_INVALID_CONTEXT,
	       "a copy with no context is INVALID_CONTEXT");
	unlink(topo);
	snprintf(shm, sizeof shm, "/%s", machine);
	shm_unlink(shm);
	return done_testing();
}
