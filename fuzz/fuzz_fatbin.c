/*
 * fuzz_fatbin.c - the reader of module images (runtime/driver/image.c):
 * any bytes as a fatbin container, PTX text or anything else, for devices
 * of compute capability 7.5, 9.0 and 10.0. An image accepted gives PTX
 * that ends at its NUL, is as long as it says, and comes from an entry
 * not above the device; the wrapper's reader takes the same bytes. Seeds
 * are nvcc's fatbins of tests/unit/kernels/basic.cu.
 */
#include <stdlib.h>
#include <string.h>

#include "driver/image.h"
#include "fuzz.h"

static void one(const uint8_t *data, size_t size, int sm)
{
	struct cuemu_image im;
	char log[128];
	CUresult r;

	r = cuemu_image_from_bytes(data, size, sm, &im, log, sizeof log);
	FUZZ_CHECK(memchr(log, '\0', sizeof log) != NULL);
	if (r != CUDA_SUCCESS) {
		FUZZ_CHECK(im.ptx == NULL);
		FUZZ_CHECK(log[0] != '\0');
		return;
	}
	FUZZ_CHECK(im.ptx != NULL && strlen(im.ptx) == im.len);
	FUZZ_CHECK(!im.from_fatbin || im.arch <= (unsigned)sm);
	cuemu_image_free(&im);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t w[24];

	one(data, size, 75);
	one(data, size, 90);
	one(data, size, 100);
	if (size >= sizeof w) {
		memcpy(w, data, sizeof w);
		(void)cuemu_image_unwrap(w);
	}
	return 0;
}
