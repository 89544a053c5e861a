/*
 * fuzz.h - what each harness of fuzz/ defines: libFuzzer's entry points.
 * The same harness is linked two ways: with libFuzzer (make fuzz, after
 * ./configure --enable-fuzz CC=clang), and with replay.c, a plain driver
 * that feeds it the committed corpus and every crash found so far, in make
 * check, with any compiler.
 */
#ifndef CUEMU_FUZZ_H
#define CUEMU_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional: run once before the first input. */
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A harness's way to say an invariant broke: abort, so that libFuzzer
 * keeps the input and the replay fails. */
#define FUZZ_CHECK(cond)                                                      \
	do {                                                                  \
		if (!(cond))                                                  \
			fuzz_broke(__FILE__, __LINE__, #cond);                \
	} while (0)
void fuzz_broke(const char *file, int line, const char *what)
	__attribute__((noreturn));

/* Lays the patches of an input over the size bytes at base: each is
 * [offset: 4 bytes, little endian, taken modulo size][length: 1 byte]
 * [that many bytes], cut short at the end of the input or of base. */
void fuzz_patch(void *base, size_t size, const uint8_t *data, size_t n);

#endif
