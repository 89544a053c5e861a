/*
 * kstep_prog.c - kstep: a program of our own that runs the kernels of
 * tests/unit/kernels/pages.ptx (loaded with cuModuleLoadData, so no nvcc
 * is needed) over one managed buffer, a step at a time, as its standard
 * input says, so that a Bats test can look at /cu and write to it
 * between launches (tests/bats/kernels.bats).
 *
 *   kstep IDS [MIB [FIFO]]
 *                     MIB MiB of managed memory (default 8), written by
 *                     the CPU; "pid N" and "alloc ID" go to IDS once made.
 *                     Steps are read from FIFO (opened again after each
 *                     writer closes it), else from standard input
 *   launch KERNEL     touch_all, read_all or scale_pages over the buffer,
 *                     one thread a page, then a synchronization
 *   cpu               the CPU writes every page again
 *   quit
 *
 * Each step answers "done STEP RESULT" on standard output.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "kernel_file.h"

static CUdeviceptr buf;
static unsigned long long size;
static CUdeviceptr out;
static CUmodule mod;

static void cpu_write(void)
{
	for (unsigned long long i = 0; i < size; i += 4096)
		((volatile char *)(uintptr_t)buf)[i] = 1;
}

static CUresult launch(const char *name)
{
	unsigned int pages = (unsigned int)(size / 4096);
	float k = 2;
	void *touch[] = { &buf, &size }, *rd[] = { &buf, &size, &out },
	     *sc[] = { &buf, &size, &k };
	void **args = !strcmp(name, "touch_all") ? touch :
		      !strcmp(name, "read_all") ? rd : sc;
	const char *entry = !strcmp(name, "scale_pages") ?
			    "_Z11scale_pagesPfyf" : name;
	CUfunction f;
	CUresult r;

	if ((r = cuModuleGetFunction(&f, mod, entry)) != CUDA_SUCCESS)
		return r;
	if ((r = cuLaunchKernel(f, (pages + 127) / 128, 1, 1, 128, 1, 1, 0,
				NULL, args, NULL)) != CUDA_SUCCESS)
		return r;
	return cuCtxSynchronize();
}

static int setup(const char *ids, unsigned long long mib)
{
	unsigned long long id = 0;
	CUcontext ctx;
	CUdevice dev;
	FILE *f;

	size = mib << 20;
	if (cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx) ||
	    cuModuleLoadData(&mod, kernel_file("pages.ptx", NULL)) ||
	    cuMemAllocManaged(&buf, size, CU_MEM_ATTACH_GLOBAL) ||
	    cuMemAlloc(&out, sizeof(int)) ||
	    cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, buf))
		return -1;
	cpu_write();
	if (!(f = fopen(ids, "w")))
		return -1;
	fprintf(f, "pid %d\nalloc %llu\n", (int)getpid(), id);
	return fclose(f);
}

/* The next step's line from in; a fifo is opened again at each writer's
 * end. false at the end of the steps. */
static bool next_line(FILE **in, const char *fifo, char *line, size_t n)
{
	while (!fgets(line, (int)n, *in)) {
		if (!fifo)
			return false;
		fclose(*in);
		if (!(*in = fopen(fifo, "r")))
			return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	char line[256], word[64];
	const char *fifo = argc > 3 ? argv[3] : NULL;
	FILE *in;

	if (argc < 2 || setup(argv[1], argc > 2 ? strtoull(argv[2], NULL, 0)
						: 8) < 0) {
		fprintf(stderr, "kstep: cannot set up\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!(in = fifo ? fopen(fifo, "r") : stdin))
		return 1;
	while (next_line(&in, fifo, line, sizeof line)) {
		if (sscanf(line, "launch %63s", word) == 1) {
			CUresult r = launch(word);
			const char *s = "?";

			cuGetErrorName(r, &s);
			printf("done launch %s %s\n", word, s);
		} else if (!strncmp(line, "cpu", 3)) {
			cpu_write();
			printf("done cpu CUDA_SUCCESS\n");
		} else if (!strncmp(line, "quit", 4)) {
			break;
		}
	}
	return 0;
}
