/*
 * image.c - reading a module image: PTX text, or a fatbin container and
 * the PTX entry in it that the device should run. Every byte comes from
 * outside (a file, a program's data, a fuzz input) and is checked before
 * it is used: sizes against what holds them, decompressed sizes against a
 * bound, text to its NUL.
 *
 * The container, as nvcc writes it (little endian): a 16-byte header
 * (u32 magic 0xBA55ED50, u16 version 1, u16 header size 16, u64 bytes of
 * entries), then entries back to back. An entry's header: u16 kind (1
 * PTX, 2 ELF machine code), u16 version, u32 header size (64 for machine
 * code, 80 for PTX), u64 payload bytes (padded), u32 compressed bytes,
 * u32 address bits, u16 ISA minor, u16 ISA major, u32 arch (sm), u32 name
 * offset, u32 name length, u64 flags (bit 0 64-bit, 0x2000 LZ4, 0x8000
 * Zstandard), u64 reserved, u64 uncompressed bytes; the payload follows
 * the header. PTX ends at a NUL within its payload.
 *
 * The choice is the JIT's: of the PTX entries whose arch is at most the
 * device's, the highest. Machine code never runs here.
 *
 * No state, no locks.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lz4.h>
#include <zstd.h>

#include "driver/image.h"

#define FATBIN_HEADER 16
#define ENTRY_HEADER_MIN 64
#define KIND_PTX 1
#define KIND_ELF 2
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
/* No PTX text nvcc emits comes near this; a larger claim is a broken or
 * hostile container, refused before anything is allocated for it. */
#define PTX_MAX ((uint64_t)256 << 20)

struct entry {
	unsigned kind, arch;
	uint64_t flags;
	const uint8_t *payload;
	uint64_t size;        /* payload bytes */
	uint64_t csize;       /* compressed bytes */
	uint64_t dsize;       /* uncompressed bytes */
};

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static CUresult say(CUresult r, char *log, size_t logsz, const char *fmt,
		    ...) __attribute__((format(printf, 4, 5)));
static CUresult say(CUresult r, char *log, size_t logsz, const char *fmt,
		    ...)
{
	va_list ap;

	if (logsz) {
		va_start(ap, fmt);
		vsnprintf(log, logsz, fmt, ap);
		va_end(ap);
	}
	return r;
}

/* Reads the entry at p, with avail bytes left in the container. */
static CUresult entry_read(const uint8_t *p, uint64_t avail, struct entry *e,
			   uint64_t *span, char *log, size_t logsz)
{
	uint32_t hs;

	if (avail < ENTRY_HEADER_MIN)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "fatbin: an entry's header runs past the container");
	hs = rd32(p + 4);
	e->kind = rd16(p);
	e->size = rd64(p + 8);
	e->csize = rd32(p + 16);
	e->arch = rd32(p + 28);
	e->flags = rd64(p + 40);
	e->dsize = rd64(p + 56);
	if (hs < ENTRY_HEADER_MIN || hs > avail || e->size > avail - hs)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "fatbin: an entry of %u header and %llu payload "
			   "bytes does not fit the %llu left", hs,
			   (unsigned long long)e->size,
			   (unsigned long long)avail);
	e->payload = p + hs;
	*span = hs + e->size;
	return CUDA_SUCCESS;
}

/* Copies the PTX of a chosen entry, decompressing it. */
static CUresult entry_ptx(const struct entry *e, struct cuemu_image *out,
			  char *log, size_t logsz)
{
	uint64_t cap, got;
	char *t;

	if ((e->flags & FLAG_LZ4) && (e->flags & FLAG_ZSTD))
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "fatbin: sm_%u PTX says both LZ4 and Zstandard",
			   e->arch);
	cap = (e->flags & (FLAG_LZ4 | FLAG_ZSTD)) ? e->dsize : e->size;
	if (cap == 0 || cap > PTX_MAX)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "fatbin: sm_%u PTX of %llu bytes", e->arch,
			   (unsigned long long)cap);
	if ((e->flags & (FLAG_LZ4 | FLAG_ZSTD)) && e->csize > e->size)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "fatbin: sm_%u PTX compressed to %llu bytes in a "
			   "payload of %llu", e->arch,
			   (unsigned long long)e->csize,
			   (unsigned long long)e->size);
	if (!(t = malloc(cap + 1)))
		return say(CUDA_ERROR_OUT_OF_MEMORY, log, logsz,
			   "fatbin: no memory for %llu bytes of PTX",
			   (unsigned long long)cap);
	if (e->flags & FLAG_LZ4) {
		int n = LZ4_decompress_safe((const char *)e->payload, t,
					    (int)e->csize, (int)cap);
		got = n < 0 ? UINT64_MAX : (uint64_t)n;
	} else if (e->flags & FLAG_ZSTD) {
		size_t n = ZSTD_decompress(t, cap, e->payload, e->csize);
		got = ZSTD_isError(n) ? UINT64_MAX : n;
	} else {
		memcpy(t, e->payload, cap);
		got = cap;
	}
	if (got != cap) {
		free(t);
		/* The driver answers CUDA_ERROR_UNKNOWN here (probes/launch.c,
		 * fatbin_zstd_corrupt_payload). */
		return say(CUDA_ERROR_UNKNOWN, log, logsz,
			   "fatbin: sm_%u PTX does not decompress (%s) to its "
			   "%llu bytes", e->arch,
			   e->flags & FLAG_LZ4 ? "LZ4" : "Zstandard",
			   (unsigned long long)cap);
	}
	t[cap] = '\0';
	out->ptx = t;
	out->len = strlen(t);
	out->arch = e->arch;
	out->from_fatbin = 1;
	return CUDA_SUCCESS;
}

/* The container's header: its entries' bytes, or an error. */
static CUresult fatbin_header(const uint8_t *p, size_t len, uint64_t *body,
			      char *log, size_t logsz)
{
	if (len < FATBIN_HEADER || rd32(p) != CUEMU_FATBIN_MAGIC)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "fatbin: no container header");
	if (rd16(p + 4) != 1 || rd16(p + 6) != FATBIN_HEADER)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "fatbin: version %u, header %u bytes (1 and 16 are "
			   "read)", rd16(p + 4), rd16(p + 6));
	*body = rd64(p + 8);
	if (*body > len - FATBIN_HEADER)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "fatbin: %llu bytes of entries in %zu",
			   (unsigned long long)*body, len - FATBIN_HEADER);
	return CUDA_SUCCESS;
}

static CUresult from_fatbin(const uint8_t *p, size_t len, int sm,
			    struct cuemu_image *out, char *log, size_t logsz)
{
	struct entry e, best;
	uint64_t body = 0, off, span = 0;
	unsigned elf = 0, ptx = 0, oldest_ptx = UINT32_MAX;
	CUresult r;

	memset(&best, 0, sizeof best);
	if ((r = fatbin_header(p, len, &body, log, logsz)) != CUDA_SUCCESS)
		return r;
	for (off = 0; off < body; off += span) {
		r = entry_read(p + FATBIN_HEADER + off, body - off, &e, &span,
			       log, logsz);
		if (r != CUDA_SUCCESS)
			return r;
		if (e.kind == KIND_ELF)
			elf = e.arch > elf ? e.arch : elf;
		if (e.kind != KIND_PTX)
			continue;
		ptx++;
		oldest_ptx = e.arch < oldest_ptx ? e.arch : oldest_ptx;
		if (e.arch <= (unsigned)sm && (!best.payload ||
					       e.arch > best.arch))
			best = e;
	}
	if (best.payload)
		return entry_ptx(&best, out, log, logsz);
	if (ptx)
		return say(CUDA_ERROR_NO_BINARY_FOR_GPU, log, logsz,
			   "fatbin: its PTX needs sm_%u or later, the device "
			   "is sm_%d", oldest_ptx, sm);
	if (elf)
		return say(CUDA_ERROR_NO_BINARY_FOR_GPU, log, logsz,
			   "fatbin: machine code only (sm_%u and below), "
			   "which runs on a real GPU; kernels run here from "
			   "PTX (nvcc -gencode arch=compute_XX,code=compute_XX)",
			   elf);
	return say(CUDA_ERROR_NO_BINARY_FOR_GPU, log, logsz,
		   "fatbin: no entry holds PTX or machine code");
}

/* PTX text starts, past blank space and comments, with its .version. */
static int looks_like_ptx(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
		    s[i] == '\r') {
			i++;
		} else if (i + 1 < len && s[i] == '/' && s[i + 1] == '/') {
			while (i < len && s[i] != '\n')
				i++;
		} else if (i + 1 < len && s[i] == '/' && s[i + 1] == '*') {
			const char *end = NULL;
			size_t k;
			for (k = i + 2; k + 1 < len; k++)
				if (s[k] == '*' && s[k + 1] == '/') {
					end = s + k;
					break;
				}
			if (!end)
				return 0;
			i = (size_t)(end - s) + 2;
		} else {
			break;
		}
	}
	return len - i >= 8 && !memcmp(s + i, ".version", 8);
}

static CUresult from_text(const char *s, size_t len, struct cuemu_image *out,
			  char *log, size_t logsz)
{
	size_t n = strnlen(s, len);

	if (!looks_like_ptx(s, n))
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "image: neither PTX (no .version first), a fatbin "
			   "nor machine code");
	if (!(out->ptx = malloc(n + 1)))
		return say(CUDA_ERROR_OUT_OF_MEMORY, log, logsz,
			   "image: no memory for %zu bytes of PTX", n);
	memcpy(out->ptx, s, n);
	out->ptx[n] = '\0';
	out->len = n;
	out->arch = 0;
	out->from_fatbin = 0;
	return CUDA_SUCCESS;
}

CUresult cuemu_image_from_bytes(const void *data, size_t len, int sm,
				struct cuemu_image *out, char *log,
				size_t logsz)
{
	const uint8_t *p = data;

	memset(out, 0, sizeof *out);
	if (logsz)
		log[0] = '\0';
	if (len >= 4 && rd32(p) == CUEMU_FATBIN_MAGIC)
		return from_fatbin(p, len, sm, out, log, logsz);
	if (len >= 4 && rd32(p) == CUEMU_FATBIN_WRAPPER_MAGIC)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "image: a fatbin wrapper (what the runtime "
			   "registers), not a container");
	if (len >= 4 && !memcmp(p, "\177ELF", 4))
		return say(CUDA_ERROR_NO_BINARY_FOR_GPU, log, logsz,
			   "image: ELF machine code, which runs on a real GPU; "
			   "kernels run here from PTX");
	return from_text(data, len, out, log, logsz);
}

/* Whether the bytes at p start with the n bytes of m, read no further
 * than the first that differs (p may be a shorter string). */
static int starts(const uint8_t *p, const uint8_t *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != m[i])
			return 0;
	return 1;
}

CUresult cuemu_image_from_pointer(const void *image, int sm,
				  struct cuemu_image *out, char *log,
				  size_t logsz)
{
	static const uint8_t fatbin[4] = { 0x50, 0xed, 0x55, 0xba };
	static const uint8_t wrapper[4] = { 0xb1, 0x43, 0x62, 0x46 };
	const uint8_t *p = image;
	uint64_t body;

	if (starts(p, fatbin, 4)) {
		/* its length is what it declares; a claim beyond any PTX
		 * bound is refused before a byte past the header is read */
		body = rd64(p + 8);
		if (body > 64 * PTX_MAX) {
			memset(out, 0, sizeof *out);
			return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
				   "fatbin: %llu bytes of entries declared",
				   (unsigned long long)body);
		}
		return cuemu_image_from_bytes(image, FATBIN_HEADER + body, sm,
					      out, log, logsz);
	}
	if (starts(p, wrapper, 4) || starts(p, (const uint8_t *)"\177ELF", 4))
		return cuemu_image_from_bytes(image, 4, sm, out, log, logsz);
	return cuemu_image_from_bytes(image, strlen(image), sm, out, log,
				      logsz);
}

const void *cuemu_image_unwrap(const void *w)
{
	const uint8_t *p = w;
	const void *data;

	if (!w || rd32(p) != CUEMU_FATBIN_WRAPPER_MAGIC ||
	    (rd32(p + 4) != 1 && rd32(p + 4) != 2))
		return NULL;
	memcpy(&data, p + 8, sizeof data);
	return data;
}

void cuemu_image_free(struct cuemu_image *im)
{
	free(im->ptx);
	im->ptx = NULL;
	im->len = 0;
}
