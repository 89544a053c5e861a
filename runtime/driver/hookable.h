/*
 * hookable.h - allocation and free entry points another library may
 * hot-patch, as it patches the real driver's: UCX's memory hooks
 * ("bistro" mode) overwrite a function's first 5 bytes (a near jump) or
 * 12 (a far one) and run the instructions they replaced elsewhere, which
 * they can do only for a prologue of pushes, frame set-up and stack
 * adjustment. A compiler's prologue may begin with a call or a load they
 * cannot move, so on x86-64 each such export is a stub of its own whose
 * first 12 bytes are such instructions (push %rbp; mov %rsp,%rbp; push
 * %r15..%r12), calling the C function, which keeps the registers it
 * receives (every hooked entry takes at most six integer arguments, all
 * in registers).
 *
 *   CUEMU_HOOKABLE(name)   before the definition: the exported stub
 *   CUEMU_HOOKED(name)     the name the C definition then takes
 *
 * Elsewhere (and with CUEMU_NO_HOOKABLE) the C function is the export.
 * The names are macro-expanded first (cuMemAlloc is cuMemAlloc_v2).
 * No state, no locks.
 */
#ifndef CUEMU_DRIVER_HOOKABLE_H
#define CUEMU_DRIVER_HOOKABLE_H

#if defined(__x86_64__) && defined(__ELF__) && !defined(CUEMU_NO_HOOKABLE)
#define CUEMU_HOOKABLE_(name)                                              \
	__typeof__(name) cuemu_hooked_##name                                \
		__attribute__((visibility("hidden")));                      \
	__asm__(".text\n"                                                   \
		".globl " #name "\n"                                        \
		".type " #name ", @function\n"                              \
		".p2align 4\n"                                              \
		#name ":\n"                                                 \
		".cfi_startproc\n"                                          \
		"push %rbp\n"                                               \
		".cfi_def_cfa_offset 16\n"                                  \
		".cfi_offset %rbp, -16\n"                                   \
		"mov %rsp, %rbp\n"                                          \
		".cfi_def_cfa_register %rbp\n"                              \
		"push %r15\n"                                               \
		"push %r14\n"                                               \
		"push %r13\n"                                               \
		"push %r12\n"                                               \
		"call cuemu_hooked_" #name "\n"                             \
		"pop %r12\n"                                                \
		"pop %r13\n"                                                \
		"pop %r14\n"                                                \
		"pop %r15\n"                                                \
		"pop %rbp\n"                                                \
		".cfi_def_cfa %rsp, 8\n"                                    \
		"ret\n"                                                     \
		".cfi_endproc\n"                                            \
		".size " #name ", .-" #name "\n");
#define CUEMU_HOOKED_(name) cuemu_hooked_##name
#else
#define CUEMU_HOOKABLE_(name)
#define CUEMU_HOOKED_(name) name
#endif
#define CUEMU_HOOKABLE(name) CUEMU_HOOKABLE_(name)
#define CUEMU_HOOKED(name) CUEMU_HOOKED_(name)

#endif
