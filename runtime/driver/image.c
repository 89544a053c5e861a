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
#include <stdbool.h>
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

/* An entry's payload, decompressed into a buffer of its own (*bytes,
 * *n; a NUL after them), at most max bytes; what says "PTX" or "machine
 * code" in the log. */
static CUresult entry_bytes(const struct entry *e, uint64_t max,
			    const char *what, char **bytes, uint64_t *n,
			    char *log, size_t logsz)
{
	uint64_t cap, got;
	char *t;

	if ((e->flags & FLAG_LZ4) && (e->flags & FLAG_ZSTD))
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "fatbin: sm_%u %s says both LZ4 and Zstandard",
			   e->arch, what);
	cap = (e->flags & (FLAG_LZ4 | FLAG_ZSTD)) ? e->dsize : e->size;
	if (cap == 0 || cap > max)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "fatbin: sm_%u %s of %llu bytes", e->arch, what,
			   (unsigned long long)cap);
	if ((e->flags & (FLAG_LZ4 | FLAG_ZSTD)) && e->csize > e->size)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "fatbin: sm_%u %s compressed to %llu bytes in a "
			   "payload of %llu", e->arch, what,
			   (unsigned long long)e->csize,
			   (unsigned long long)e->size);
	if (!(t = malloc(cap + 1)))
		return say(CUDA_ERROR_OUT_OF_MEMORY, log, logsz,
			   "fatbin: no memory for %llu bytes of %s",
			   (unsigned long long)cap, what);
	if (e->flags & FLAG_LZ4) {
		int k = LZ4_decompress_safe((const char *)e->payload, t,
					    (int)e->csize, (int)cap);
		got = k < 0 ? UINT64_MAX : (uint64_t)k;
	} else if (e->flags & FLAG_ZSTD) {
		size_t k = ZSTD_decompress(t, cap, e->payload, e->csize);
		got = ZSTD_isError(k) ? UINT64_MAX : k;
	} else {
		memcpy(t, e->payload, cap);
		got = cap;
	}
	if (got != cap) {
		free(t);
		/* The driver answers CUDA_ERROR_UNKNOWN here (probes/launch.c,
		 * fatbin_zstd_corrupt_payload). */
		return say(CUDA_ERROR_UNKNOWN, log, logsz,
			   "fatbin: sm_%u %s does not decompress (%s) to its "
			   "%llu bytes", e->arch, what,
			   e->flags & FLAG_LZ4 ? "LZ4" : "Zstandard",
			   (unsigned long long)cap);
	}
	t[cap] = '\0';
	*bytes = t;
	*n = cap;
	return CUDA_SUCCESS;
}

/* Copies the PTX of a chosen entry, decompressing it. */
static CUresult entry_ptx(const struct entry *e, struct cuemu_image *out,
			  char *log, size_t logsz)
{
	uint64_t n;
	char *t;
	CUresult r = entry_bytes(e, PTX_MAX, "PTX", &t, &n, log, logsz);

	if (r != CUDA_SUCCESS)
		return r;
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

/* Machine code above this is no object nvcc makes; a larger claim is not
 * read. */
#define ELF_MAX ((uint64_t)64 << 20)

/* Whether an ELF object (n bytes, 64-bit little endian) defines a global
 * function called name in its symbol table. Every offset is checked
 * against n before it is read. */
static bool elf_defines(const uint8_t *p, uint64_t n, const char *name)
{
	uint64_t shoff;
	unsigned entsize, count;

	if (n < 64 || memcmp(p, "\177ELF", 4) || p[4] != 2 || p[5] != 1)
		return false;
	shoff = rd64(p + 40);
	entsize = rd16(p + 58);
	count = rd16(p + 60);
	if (entsize < 64 || shoff > n || (uint64_t)count * entsize > n - shoff)
		return false;
	for (unsigned i = 0; i < count; i++) {
		const uint8_t *sh = p + shoff + (uint64_t)i * entsize, *str;
		uint64_t off = rd64(sh + 24), sz = rd64(sh + 32), soff, ssz;
		uint32_t link = rd32(sh + 40);
		if (rd32(sh + 4) != 2 /* SHT_SYMTAB */ || link >= count ||
		    off > n || sz > n - off)
			continue;
		str = p + shoff + (uint64_t)link * entsize;
		soff = rd64(str + 24);
		ssz = rd64(str + 32);
		if (soff > n || ssz > n - soff || !ssz || p[soff + ssz - 1])
			continue;
		for (uint64_t s = 0; s + 24 <= sz; s += 24) {
			const uint8_t *sym = p + off + s;
			uint32_t nm = rd32(sym);
			if (nm < ssz && sym[4] == (1 << 4 | 2) /* GLOBAL FUNC */ &&
			    rd16(sym + 6) != 0 /* defined */ &&
			    !strcmp((const char *)p + soff + nm, name))
				return true;
		}
	}
	return false;
}

bool cuemu_image_device_runtime(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint64_t body, off, span = 0, n;
	struct entry e;
	char *elf;
	bool yes;

	if (fatbin_header(p, len, &body, NULL, 0) != CUDA_SUCCESS)
		return false;
	for (off = 0; off < body; off += span) {
		if (entry_read(p + FATBIN_HEADER + off, body - off, &e, &span,
			       NULL, 0) != CUDA_SUCCESS)
			return false;
		if (e.kind != KIND_ELF)
			continue;
		/* one machine's code says what the library is */
		if (entry_bytes(&e, ELF_MAX, "machine code", &elf, &n, NULL,
				0) != CUDA_SUCCESS)
			return false;
		yes = elf_defines((const uint8_t *)elf, n,
				  "__cudaCDP2LaunchDeviceV2");
		free(elf);
		return yes;
	}
	return false;
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

static uint64_t pad8(uint64_t v)
{
	return (v + 7) & ~(uint64_t)7;
}

/* The unit at p (avail bytes left): its name and text, each ending at
 * its NUL, and the bytes it spans. */
static CUresult unit_read(const uint8_t *p, uint64_t avail, const char **name,
			  const char **text, uint64_t *tlen, uint64_t *span)
{
	uint64_t nb, tb;

	if (avail < 16)
		return CUDA_ERROR_INVALID_IMAGE;
	nb = rd32(p + 4);
	tb = rd64(p + 8);
	if (nb < 1 || tb < 1 || tb > PTX_MAX || pad8(nb) > avail - 16 ||
	    pad8(tb) > avail - 16 - pad8(nb))
		return CUDA_ERROR_INVALID_IMAGE;
	*name = (const char *)p + 16;
	*text = *name + pad8(nb);
	if ((*name)[nb - 1] || (*text)[tb - 1] ||
	    strnlen(*name, nb) != nb - 1)
		return CUDA_ERROR_INVALID_IMAGE;
	*tlen = strnlen(*text, tb);
	*span = 16 + pad8(nb) + pad8(tb);
	return CUDA_SUCCESS;
}

/* A linked image (cuLinkComplete's), every unit checked, kept as its
 * bytes. */
static CUresult from_linked(const uint8_t *p, size_t len,
			    struct cuemu_image *out, char *log, size_t logsz)
{
	uint64_t total, at = CUEMU_LINKED_HEADER, tlen = 0, span;
	uint32_t n;
	const char *name, *text, *first;

	if (len < CUEMU_LINKED_HEADER || rd16(p + 4) != 1 ||
	    rd16(p + 6) != CUEMU_LINKED_HEADER)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "linked image: a header of another version");
	n = rd32(p + 8);
	total = rd64(p + 16);
	if (n > CUEMU_LINKED_UNITS_MAX || total > len ||
	    total < CUEMU_LINKED_HEADER)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "linked image: %u units in %llu bytes", n,
			   (unsigned long long)total);
	for (uint32_t i = 0; i < n; i++, at += span) {
		if (unit_read(p + at, total - at, &name, &text, &tlen,
			      &span) != CUDA_SUCCESS)
			return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
				   "linked image: unit %u does not hold "
				   "together", i);
		/* the image's target is its first text's */
		if (i == 0 && (first = strstr(text, ".target")))
			(void)sscanf(first, ".target sm_%u", &out->arch);
	}
	if (!(out->ptx = malloc(total + 1)))
		return say(CUDA_ERROR_OUT_OF_MEMORY, log, logsz,
			   "image: no memory for %llu bytes",
			   (unsigned long long)total);
	memcpy(out->ptx, p, total);
	out->ptx[total] = '\0';
	out->len = total;
	out->units = (int)n;
	out->linked = 1;
	return CUDA_SUCCESS;
}

void cuemu_image_unit(const struct cuemu_image *im, int i, const char **name,
		      const char **text, size_t *len)
{
	const uint8_t *p = (const uint8_t *)im->ptx;
	uint64_t at = CUEMU_LINKED_HEADER, span = 0, tlen = 0;

	for (int k = 0; k <= i; k++, at += span)
		(void)unit_read(p + at, im->len - at, name, text, &tlen, &span);
	*len = tlen;
}

static void wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static void wr64(uint8_t *p, uint64_t v)
{
	wr32(p, (uint32_t)v);
	wr32(p + 4, (uint32_t)(v >> 32));
}

CUresult cuemu_image_link(int n, const char *const *names,
			  const char *const *texts, const size_t *lens,
			  void **out, size_t *outlen)
{
	uint64_t total = CUEMU_LINKED_HEADER, at = CUEMU_LINKED_HEADER;
	uint8_t *p;

	if (n < 0 || n > CUEMU_LINKED_UNITS_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	for (int i = 0; i < n; i++) {
		if (lens[i] >= PTX_MAX || strlen(names[i]) >= 4096)
			return CUDA_ERROR_INVALID_VALUE;
		total += 16 + pad8(strlen(names[i]) + 1) + pad8(lens[i] + 1);
	}
	if (!(p = calloc(1, total)))
		return CUDA_ERROR_OUT_OF_MEMORY;
	wr32(p, CUEMU_LINKED_MAGIC);
	p[4] = 1;
	p[6] = CUEMU_LINKED_HEADER;
	wr32(p + 8, (uint32_t)n);
	wr64(p + 16, total);
	for (int i = 0; i < n; i++) {
		size_t nb = strlen(names[i]) + 1;
		wr32(p + at + 4, (uint32_t)nb);
		wr64(p + at + 8, lens[i] + 1);
		memcpy(p + at + 16, names[i], nb);
		memcpy(p + at + 16 + pad8(nb), texts[i], lens[i]);
		at += 16 + pad8(nb) + pad8(lens[i] + 1);
	}
	*out = p;
	*outlen = total;
	return CUDA_SUCCESS;
}

/* Section i's header of an ELF64 object (e_shoff, e_shentsize checked). */
static const uint8_t *elf_section(const uint8_t *p, uint64_t shoff,
				  unsigned entsize, unsigned i)
{
	return p + shoff + (uint64_t)i * entsize;
}

/* The fatbins one section holds, back to back (a relocatable object's
 * __nv_relfatbin may hold several), added to fb/len. */
static CUresult section_fatbins(const uint8_t *q, uint64_t size,
				const void **fb, size_t *len, int *n,
				char *log, size_t logsz)
{
	uint64_t at = 0;

	while (at + FATBIN_HEADER <= size && rd32(q + at) == CUEMU_FATBIN_MAGIC) {
		uint64_t body = rd64(q + at + 8);
		if (body > size - at - FATBIN_HEADER)
			return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
				   "object: a fatbin past its section");
		if (*n == CUEMU_OBJECT_FATBINS_MAX)
			return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
				   "object: more than %d fatbins",
				   CUEMU_OBJECT_FATBINS_MAX);
		fb[*n] = q + at;
		len[(*n)++] = FATBIN_HEADER + body;
		at = pad8(at + FATBIN_HEADER + body);
	}
	return CUDA_SUCCESS;
}

CUresult cuemu_object_fatbins(const void *data, size_t size, const void **fb,
			      size_t *len, int *n, char *log, size_t logsz)
{
	const uint8_t *p = data, *strs;
	uint64_t shoff, stroff, strsize;
	unsigned entsize, count, shstrndx;
	CUresult r = CUDA_SUCCESS;

	*n = 0;
	if (size < 64 || memcmp(p, "\177ELF", 4) || p[4] != 2 || p[5] != 1)
		return CUDA_SUCCESS;
	shoff = rd64(p + 40);
	entsize = rd16(p + 58);
	count = rd16(p + 60);
	shstrndx = rd16(p + 62);
	if (entsize < 64 || shoff > size ||
	    (uint64_t)count * entsize > size - shoff || shstrndx >= count)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "object: a section table past its end");
	stroff = rd64(elf_section(p, shoff, entsize, shstrndx) + 24);
	strsize = rd64(elf_section(p, shoff, entsize, shstrndx) + 32);
	if (stroff > size || strsize > size - stroff || !strsize ||
	    p[stroff + strsize - 1])
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "object: bad section names");
	strs = p + stroff;
	for (unsigned i = 0; i < count && r == CUDA_SUCCESS; i++) {
		const uint8_t *sh = elf_section(p, shoff, entsize, i);
		uint32_t name = rd32(sh);
		uint64_t off = rd64(sh + 24), sz = rd64(sh + 32);
		const char *nm = (const char *)strs + name;
		if (name >= strsize || (strcmp(nm, ".nv_fatbin") &&
					strcmp(nm, "__nv_relfatbin")))
			continue;
		if (rd32(sh + 4) == 8 /* SHT_NOBITS */ || off > size ||
		    sz > size - off)
			return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
				   "object: section %s past its end", nm);
		r = section_fatbins(p + off, sz, fb, len, n, log, logsz);
	}
	return r;
}

CUresult cuemu_archive_next(const void *data, size_t size, size_t *at,
			    const void **member, size_t *len, char *log,
			    size_t logsz)
{
	const uint8_t *p = data;
	char num[11];
	char *end;
	unsigned long long msize;

	*member = NULL;
	if (size < 8 || memcmp(p, "!<arch>\n", 8))
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "library: not an ar archive");
	if (*at < 8)
		*at = 8;
	*at += *at & 1;   /* members start at even offsets */
	if (*at >= size)
		return CUDA_SUCCESS;
	if (size - *at < 60 || p[*at + 58] != '`' || p[*at + 59] != '\n')
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "library: a member's header past its end");
	memcpy(num, p + *at + 48, 10);
	num[10] = '\0';
	msize = strtoull(num, &end, 10);
	if (end == num || msize > size - *at - 60)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "library: a member of %s bytes past its end", num);
	*member = p + *at + 60;
	*len = (size_t)msize;
	*at += 60 + (size_t)msize;
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
	if (len >= 4 && rd32(p) == CUEMU_LINKED_MAGIC)
		return from_linked(p, len, out, log, logsz);
	if (len >= 4 && rd32(p) == CUEMU_FATBIN_WRAPPER_MAGIC)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "image: a fatbin wrapper (what the runtime "
			   "registers), not a container");
	/* a host object (not the GPU's machine, 190) is no module image */
	if (len >= 20 && !memcmp(p, "\177ELF", 4) && rd16(p + 18) != 190)
		return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
			   "image: a host object, not a module image");
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
	static const uint8_t linked[8] = { 'C', 'L', 'N', 'K', 1, 0,
					   CUEMU_LINKED_HEADER, 0 };
	const uint8_t *p = image;
	uint64_t body;

	if (starts(p, linked, 8)) {
		/* its length is what its header declares, bounded first */
		body = rd64(p + 16);
		if (body > (uint64_t)CUEMU_LINKED_UNITS_MAX * PTX_MAX) {
			memset(out, 0, sizeof *out);
			return say(CUDA_ERROR_INVALID_IMAGE, log, logsz,
				   "linked image: %llu bytes declared",
				   (unsigned long long)body);
		}
		return cuemu_image_from_bytes(image, body, sm, out, log,
					      logsz);
	}
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
	if (starts(p, wrapper, 4))
		return cuemu_image_from_bytes(image, 4, sm, out, log, logsz);
	/* an ELF header is 64 bytes: its machine is read from it */
	if (starts(p, (const uint8_t *)"\177ELF", 4))
		return cuemu_image_from_bytes(image, 64, sm, out, log, logsz);
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
	im->units = 0;
	im->linked = 0;
}
