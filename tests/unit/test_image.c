/*
 * test_image.c - reading module images (runtime/driver/image.c): the PTX
 * the JIT would take from nvcc's fatbins of tests/unit/kernels/basic.cu
 * (Zstandard, LZ4, plain), what is refused and with which CUresult (as
 * probes/results/launch.txt recorded the driver's answers), and broken
 * containers refused whole, never read past their end.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "kernel_file.h"
#include "driver/image.h"

static uint8_t *slurp(const char *name, size_t *len)
{
	return (uint8_t *)kernel_file(name, len);
}

static CUresult load(const uint8_t *d, size_t n, int sm,
		     struct cuemu_image *im, char *log, size_t logsz)
{
	return cuemu_image_from_bytes(d, n, sm, im, log, logsz);
}

static void test_choice(void)
{
	struct cuemu_image a, b, c, p;
	size_t nz, nl, np, nt;
	uint8_t *z = slurp("basic.fatbin", &nz);
	uint8_t *l = slurp("basic-lz4.fatbin", &nl);
	uint8_t *pl = slurp("basic-plain.fatbin", &np);
	uint8_t *t = slurp("basic.ptx", &nt);
	char log[256];

	is_res(load(z, nz, 90, &a, log, sizeof log), CUDA_SUCCESS,
	       "a Zstandard fatbin (compute_90, 80, 75) loads on sm_90");
	is_int(a.arch, 90, "the sm_90 device takes the compute_90 PTX");
	ok(a.len > 1000 && strlen(a.ptx) == a.len &&
		   strstr(a.ptx, ".version 9.0") &&
		   strstr(a.ptx, ".visible .entry saxpy("),
	   "its PTX is the text nvcc wrote, NUL terminated (%zu bytes)",
	   a.len);
	is_res(load(l, nl, 90, &b, log, sizeof log), CUDA_SUCCESS,
	       "an LZ4 fatbin loads");
	is_res(load(pl, np, 90, &c, log, sizeof log), CUDA_SUCCESS,
	       "a fatbin of plain PTX loads");
	ok(b.len == a.len && !memcmp(b.ptx, a.ptx, a.len) && c.len == a.len &&
		   !memcmp(c.ptx, a.ptx, a.len),
	   "the three give the same PTX");
	cuemu_image_free(&b);
	cuemu_image_free(&c);
	is_res(load(z, nz, 86, &b, log, sizeof log), CUDA_SUCCESS,
	       "the same fatbin on sm_86");
	is_int(b.arch, 80, "sm_86 takes the highest PTX not above it: 80");
	cuemu_image_free(&b);
	is_res(load(z, nz, 100, &b, log, sizeof log), CUDA_SUCCESS,
	       "on sm_100");
	is_int(b.arch, 90, "sm_100 takes compute_90");
	cuemu_image_free(&b);
	is_res(load(z, nz, 70, &b, log, sizeof log),
	       CUDA_ERROR_NO_BINARY_FOR_GPU,
	       "sm_70, below every PTX entry: NO_BINARY_FOR_GPU");
	ok(strstr(log, "sm_75") && strstr(log, "sm_70"),
	   "the log names the oldest entry and the device: %s", log);
	is_res(load(t, nt, 90, &p, log, sizeof log), CUDA_SUCCESS,
	       "PTX text loads");
	ok(p.arch == 0 && !p.from_fatbin && p.len == nt &&
		   !memcmp(p.ptx, t, nt),
	   "as it was given, from no fatbin entry");
	is_res(cuemu_image_from_pointer(z, 90, &b, log, sizeof log),
	       CUDA_SUCCESS, "a container given by pointer alone loads");
	ok(b.len == a.len && !memcmp(b.ptx, a.ptx, a.len),
	   "its length is what its header declares");
	cuemu_image_free(&b);
	is_res(cuemu_image_from_pointer(t, 90, &b, log, sizeof log),
	       CUDA_SUCCESS, "PTX text by pointer ends at its NUL");
	ok(b.len == nt, "all %zu bytes of it", nt);
	cuemu_image_free(&b);
	cuemu_image_free(&a);
	cuemu_image_free(&p);
	free(z);
	free(l);
	free(pl);
	free(t);
}

static void test_refused(void)
{
	struct cuemu_image im;
	size_t n80, ncub, nz;
	uint8_t *s80 = slurp("basic-sm80.fatbin", &n80);
	uint8_t *cub = slurp("basic-sm90.cubin", &ncub);
	uint8_t *z = slurp("basic.fatbin", &nz);
	char log[256];
	struct {
		uint32_t magic, version;
		const void *data, *rest;
	} w = { CUEMU_FATBIN_WRAPPER_MAGIC, 1, z, NULL };

	is_res(load(s80, n80, 90, &im, log, sizeof log),
	       CUDA_ERROR_NO_BINARY_FOR_GPU,
	       "a fatbin of sm_80 machine code only: NO_BINARY_FOR_GPU");
	ok(strstr(log, "machine code") != NULL, "the log says why: %s", log);
	is_res(load(s80, n80, 80, &im, log, sizeof log),
	       CUDA_ERROR_NO_BINARY_FOR_GPU,
	       "machine code never runs here, even for its own GPU");
	is_res(load(cub, ncub, 90, &im, log, sizeof log),
	       CUDA_ERROR_NO_BINARY_FOR_GPU, "an ELF cubin: NO_BINARY_FOR_GPU");
	ok(im.ptx == NULL, "a refused image holds no PTX");
	is_res(cuemu_image_from_pointer(&w, 90, &im, log, sizeof log),
	       CUDA_ERROR_INVALID_IMAGE,
	       "the wrapper given to the loader: INVALID_IMAGE, as the "
	       "driver answers");
	ok(cuemu_image_unwrap(&w) == z, "unwrapped, it gives its container");
	w.version = 7;
	ok(cuemu_image_unwrap(&w) == NULL, "a wrapper of version 7 is none");
	ok(cuemu_image_unwrap(z) == NULL, "a container is no wrapper");
	is_res(cuemu_image_from_pointer("hello, world\n", 90, &im, log,
					sizeof log),
	       CUDA_ERROR_INVALID_IMAGE, "text that is not PTX: INVALID_IMAGE");
	is_res(cuemu_image_from_pointer("", 90, &im, log, sizeof log),
	       CUDA_ERROR_INVALID_IMAGE, "an empty string: INVALID_IMAGE");
	is_res(cuemu_image_from_pointer("// made by hand\n/* x */\n"
					".version 9.0\n.target sm_90\n",
					90, &im, log, sizeof log),
	       CUDA_SUCCESS, "comments may come before .version");
	cuemu_image_free(&im);
	is_res(cuemu_image_from_pointer("/* .version 9.0", 90, &im, log,
					sizeof log),
	       CUDA_ERROR_INVALID_IMAGE, "an unterminated comment is no PTX");
	free(s80);
	free(cub);
	free(z);
}

/* A copy of the fatbin with one field changed. */
static uint8_t *patched(const uint8_t *z, size_t n, size_t at,
			const void *v, size_t len)
{
	uint8_t *c = malloc(n);

	memcpy(c, z, n);
	memcpy(c + at, v, len);
	return c;
}

static void test_broken(void)
{
	struct cuemu_image im;
	size_t nz, np, cut, bad = 0;
	uint8_t *z = slurp("basic.fatbin", &nz);
	uint8_t *pl = slurp("basic-plain.fatbin", &np);
	uint8_t *c;
	char log[256];
	uint16_t v9 = 9;
	uint32_t a100 = 100, hs = 0x7fffffff;
	uint64_t huge = (uint64_t)1 << 40;

	c = patched(z, nz, 16 + 80 + 40, "\x55\x55", 2);
	is_res(load(c, nz, 90, &im, log, sizeof log), CUDA_ERROR_UNKNOWN,
	       "a Zstandard payload that does not decompress: UNKNOWN, as "
	       "the driver answers");
	ok(strstr(log, "decompress") != NULL, "the log says so: %s", log);
	free(c);
	c = patched(pl, np, 4, &v9, 2);
	is_res(load(c, np, 90, &im, log, sizeof log), CUDA_ERROR_INVALID_IMAGE,
	       "a container of version 9: INVALID_IMAGE");
	free(c);
	c = patched(pl, np, 16 + 28, &a100, 4);
	is_res(load(c, np, 90, &im, log, sizeof log),
	       CUDA_ERROR_NO_BINARY_FOR_GPU,
	       "PTX for sm_100 only, on sm_90: NO_BINARY_FOR_GPU");
	free(c);
	c = patched(pl, np, 16 + 4, &hs, 4);
	is_res(load(c, np, 90, &im, log, sizeof log), CUDA_ERROR_INVALID_IMAGE,
	       "an entry header larger than the container: INVALID_IMAGE");
	free(c);
	c = patched(z, nz, 16 + 56, &huge, 8);
	is_res(load(c, nz, 90, &im, log, sizeof log), CUDA_ERROR_INVALID_IMAGE,
	       "a claim of 1 TiB of PTX is refused before any allocation");
	free(c);
	c = patched(z, nz, 8, &huge, 8);
	is_res(load(c, nz, 90, &im, log, sizeof log), CUDA_ERROR_INVALID_IMAGE,
	       "entries declared past the bytes given: INVALID_IMAGE");
	is_res(cuemu_image_from_pointer(c, 90, &im, log, sizeof log),
	       CUDA_ERROR_INVALID_IMAGE,
	       "and by pointer, where the declared size is all there is");
	free(c);
	for (cut = 0; cut < nz; cut++) {
		c = malloc(cut ? cut : 1);
		memcpy(c, z, cut);
		if (load(c, cut, 90, &im, log, sizeof log) == CUDA_SUCCESS) {
			bad++;
			cuemu_image_free(&im);
		}
		free(c);
	}
	is_int(bad, 0, "each of the %zu cuts of the fatbin is refused", nz);
	free(z);
	free(pl);
}

int main(void)
{
	test_choice();
	test_refused();
	test_broken();
	return done_testing();
}
