/*
 * test_hook.c - the exported allocation and free entry points can be
 * hot-patched as UCX's memory hooks patch the real driver's: each begins
 * with 12 bytes of pushes and frame set-up (driver/hookable.h), which a
 * hook can move to a trampoline; patched, cuMemAlloc_v2 runs the hook,
 * and the hook's call of the moved original allocates.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cuda.h"
#include "tap.h"

/* What UCX hooks in the driver (its ucm cuda list). */
static const char *const hooked[] = {
	"cuMemAlloc", "cuMemAlloc_v2", "cuMemAllocManaged", "cuMemAllocPitch",
	"cuMemAllocPitch_v2", "cuMemMap", "cuModuleGetGlobal_v2",
	"cuMemAllocAsync", "cuMemAllocFromPoolAsync", "cuLibraryGetGlobal",
	"cuMemFree", "cuMemFree_v2", "cuMemFreeHost", "cuMemUnmap",
	"cuMemFreeAsync",
};

#if defined(__x86_64__)
/* push %rbp; mov %rsp,%rbp; push %r15; push %r14; push %r13; push %r12 */
static const uint8_t prologue[12] = { 0x55, 0x48, 0x89, 0xe5, 0x41, 0x57,
				      0x41, 0x56, 0x41, 0x55, 0x41, 0x54 };

typedef CUresult (*alloc_fn)(CUdeviceptr *, size_t);
static alloc_fn orig;
static int hook_calls;

static CUresult hook(CUdeviceptr *p, size_t n)
{
	hook_calls++;
	return orig(p, n);
}

/* movabs $to, %rax; jmp *%rax: 12 bytes. */
static void far_jump(uint8_t *at, const void *to)
{
	uintptr_t a = (uintptr_t)to;

	at[0] = 0x48;
	at[1] = 0xb8;
	memcpy(at + 2, &a, 8);
	at[10] = 0xff;
	at[11] = 0xe0;
}

static int writable(void *fn, int prot)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)fn & ~(uintptr_t)(pg - 1);

	return mprotect((void *)start, 2 * (size_t)pg, prot);
}

static void patch_and_call(void)
{
	uint8_t *fn = (uint8_t *)dlsym(RTLD_DEFAULT, "cuMemAlloc_v2");
	uint8_t saved[12];
	uint8_t *tramp = mmap(NULL, 64, PROT_READ | PROT_WRITE | PROT_EXEC,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CUdeviceptr p = 0;
	CUcontext c;

	if (!ok(fn && tramp != MAP_FAILED, "a trampoline page"))
		return;
	/* The moved prologue, then a jump back past it. */
	memcpy(tramp, fn, 12);
	far_jump(tramp + 12, fn + 12);
	orig = (alloc_fn)(void *)tramp;
	memcpy(saved, fn, 12);
	if (!ok(writable(fn, PROT_READ | PROT_WRITE | PROT_EXEC) == 0,
		"cuMemAlloc_v2's page made writable"))
		return;
	far_jump(fn, (const void *)hook);
	cuInit(0);
	cuDevicePrimaryCtxRetain(&c, 0);
	cuCtxSetCurrent(c);
	is_res(cuMemAlloc(&p, 1 << 20), CUDA_SUCCESS,
	       "the patched cuMemAlloc_v2 allocates through the moved prologue");
	is_int(hook_calls, 1, "the hook ran once");
	ok(p != 0, "and the address came back");
	memcpy(fn, saved, 12);
	writable(fn, PROT_READ | PROT_EXEC);
	is_res(cuMemFree(p), CUDA_SUCCESS, "restored, the memory frees");
	munmap(tramp, 64);
}
#endif

int main(void)
{
#if defined(__x86_64__)
	for (size_t i = 0; i < sizeof hooked / sizeof *hooked; i++) {
		const uint8_t *fn = dlsym(RTLD_DEFAULT, hooked[i]);

		ok(fn && !memcmp(fn, prologue, sizeof prologue),
		   "%s begins with 12 bytes of pushes and frame set-up",
		   hooked[i]);
	}
	patch_and_call();
#else
	ok(1, "# SKIP the hookable stubs are x86-64 only");
#endif
	return done_testing();
}
