/*
 * copy2d.c - the 2D and 3D copies and the 2D memsets: cuMemcpy2D,
 * cuMemcpy2DUnaligned, cuMemcpy2DAsync, cuMemcpy3D, cuMemcpy3DAsync,
 * cuMemcpy3DPeer, cuMemcpy3DPeerAsync, cuMemsetD2D8/16/32 and their Async
 * forms, with their _ptds and _ptsz forms.
 *
 * Each entry checks what the real driver checks, in its order
 * (probes/results/shape.txt): the context; a NULL copy; the stream; a
 * zero width, height or depth, which succeeds and copies nothing whatever
 * else the copy says; the memory types; each pointer end's pitch, which
 * must hold x + width unless it is 0 (a pitch of 0 is taken as is), and
 * for a 3D copy each end's height, which must hold y + Height unless it
 * is 0; then the ends themselves (the model: NULL, unknown or too short
 * memory, arrays too small). cuMemcpy2D checks no alignment on the real
 * H200, so cuMemcpy2DUnaligned is the same copy. The box goes to
 * model/copy.c as one shaped copy; array ends are arrays there. The
 * reserved fields and levels of detail of a 3D copy are ignored, as the
 * real driver ignores them.
 *
 * Locking: none taken here; the model resolves the ends under cuemu_lock().
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "model/internal.h"
#include "model/copy.h"
#include "driver/driver.h"
#include "driver/graph.h"

/* One end of a copy as the CUDA_MEMCPY* structures give it. */
struct api_end {
	CUmemorytype type;
	const void *host;
	CUdeviceptr device;
	CUarray array;
	size_t x, y, z, pitch, height;
};

/* The extent and both ends, as a 3D copy has them. */
struct api_copy {
	struct api_end src, dst;
	size_t width, height, depth;
};

/* One end of a CUDA_MEMCPY* structure: its fields that start with
 * p (src or dst); z and height are 0 where the structure has none. */
#define API_END(c, p, z, height)                                            \
	((struct api_end){ (c)->p##MemoryType, (c)->p##Host, (c)->p##Device, \
			   (c)->p##Array, (c)->p##XInBytes, (c)->p##Y, (z),  \
			   (c)->p##Pitch, (height) })

/* CUDA_MEMCPY3D and CUDA_MEMCPY3D_PEER name their fields alike. */
#define API_COPY_3D(c)                                                       \
	((struct api_copy){                                                  \
		.src = API_END(c, src, (c)->srcZ, (c)->srcHeight),           \
		.dst = API_END(c, dst, (c)->dstZ, (c)->dstHeight),           \
		.width = (c)->WidthInBytes, .height = (c)->Height,           \
		.depth = (c)->Depth })

static void from_2d(const CUDA_MEMCPY2D *c, struct api_copy *k)
{
	*k = (struct api_copy){ .src = API_END(c, src, 0, 0),
				.dst = API_END(c, dst, 0, 0),
				.width = c->WidthInBytes, .height = c->Height,
				.depth = 1 };
}

static void from_3d(const CUDA_MEMCPY3D *c, struct api_copy *k)
{
	*k = API_COPY_3D(c);
}

static void from_peer(const CUDA_MEMCPY3D_PEER *c, struct api_copy *k)
{
	*k = API_COPY_3D(c);
}

static const char *side(bool dst)
{
	return dst ? "destination" : "source";
}

static CUresult check_type(const struct api_end *e, bool dst)
{
	if (e->type < CU_MEMORYTYPE_HOST || e->type > CU_MEMORYTYPE_UNIFIED)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s memory type "
				  "%d is none of host, device, array, unified",
				  side(dst), (int)e->type);
	return CUDA_SUCCESS;
}

/* A pointer end's pitch holds x + width, and (3D) its height y + rows:
 * unless either is 0. */
static CUresult check_pitch(const struct api_end *e, const struct api_copy *k,
			    bool three, bool dst)
{
	if (e->type == CU_MEMORYTYPE_ARRAY)
		return CUDA_SUCCESS;
	if (e->pitch && (e->x > e->pitch || k->width > e->pitch - e->x))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s rows of %zu "
				  "bytes from x %zu do not fit its pitch %zu",
				  side(dst), k->width, e->x, e->pitch);
	if (three && e->height &&
	    (e->y > e->height || k->height > e->height - e->y))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s: %zu rows from "
				  "y %zu do not fit its height %zu", side(dst),
				  k->height, e->y, e->height);
	return CUDA_SUCCESS;
}

/* The model's end for e: an array, or the pointer the type names. */
static void to_shape(const struct api_end *e, struct cuemu_shape_end *s)
{
	*s = (struct cuemu_shape_end){ .x = e->x, .y = e->y, .z = e->z,
				       .pitch = e->pitch,
				       .height = e->height };
	switch (e->type) {
	case CU_MEMORYTYPE_ARRAY:
		s->is_array = true;
		s->array = e->array;
		break;
	case CU_MEMORYTYPE_HOST:
		s->p = (uintptr_t)e->host;
		break;
	case CU_MEMORYTYPE_DEVICE:
		s->p = e->device;
		s->dev_side = true;
		break;
	default: /* unified: whatever memory the address is */
		s->p = e->device;
		break;
	}
}

/* A copy on a capturing stream: a copy node of its graph, as a 3D copy. */
static CUresult capture_shaped(const struct api_copy *k, CUstream h)
{
	CUDA_MEMCPY3D c = {
		.srcXInBytes = k->src.x, .srcY = k->src.y, .srcZ = k->src.z,
		.srcMemoryType = k->src.type, .srcHost = k->src.host,
		.srcDevice = k->src.device, .srcArray = k->src.array,
		.srcPitch = k->src.pitch, .srcHeight = k->src.height,
		.dstXInBytes = k->dst.x, .dstY = k->dst.y, .dstZ = k->dst.z,
		.dstMemoryType = k->dst.type, .dstHost = (void *)k->dst.host,
		.dstDevice = k->dst.device, .dstArray = k->dst.array,
		.dstPitch = k->dst.pitch, .dstHeight = k->dst.height,
		.WidthInBytes = k->width, .Height = k->height,
		.Depth = k->depth,
	};

	return cuemu_capture_copy(h, &c);
}

/* The common path of every 2D and 3D copy, once the structure is read;
 * h: the stream as named, s: as resolved. */
static CUresult do_shaped(const struct api_copy *k, bool three, CUstream h,
			  CUstream s, bool sync)
{
	struct cuemu_shape_end dst, src;
	CUresult r;

	if (!k->width || !k->height || !k->depth)
		return CUDA_SUCCESS;
	if ((r = check_type(&k->src, false)) || (r = check_type(&k->dst, true)))
		return r;
	if ((r = check_pitch(&k->src, k, three, false)) ||
	    (r = check_pitch(&k->dst, k, three, true)))
		return r;
	if (!sync && cuemu_capturing(h))
		return capture_shaped(k, h);
	to_shape(&k->src, &src);
	to_shape(&k->dst, &dst);
	return cuemu_copy_shaped(s, &dst, &src, k->width, k->height,
				 k->depth, sync);
}

/* Context, then the structure, then the stream. */
static CUresult start(const void *pCopy, CUstream h, CUstream *s)
{
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!pCopy)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "no copy given");
	return cuemu_stream_get(h, s);
}

static CUresult copy2d(const CUDA_MEMCPY2D *c, CUstream h, bool sync)
{
	struct api_copy k;
	CUstream s;
	CUresult r;

	if ((r = start(c, h, &s)))
		return r;
	from_2d(c, &k);
	return do_shaped(&k, false, h, s, sync);
}

static CUresult copy3d(const CUDA_MEMCPY3D *c, CUstream h, bool sync)
{
	struct api_copy k;
	CUstream s;
	CUresult r;

	if ((r = start(c, h, &s)))
		return r;
	from_3d(c, &k);
	return do_shaped(&k, true, h, s, sync);
}

/* The contexts of a peer copy are ignored under unified addressing, as
 * cuMemcpyPeer's are (probes/results/shape.txt: NULL ones succeed). The
 * real driver faults on a NULL copy here; this answers INVALID_VALUE. */
static CUresult copy3d_peer(const CUDA_MEMCPY3D_PEER *c, CUstream h,
			    bool sync)
{
	struct api_copy k;
	CUstream s;
	CUresult r;

	if ((r = start(c, h, &s)))
		return r;
	from_peer(c, &k);
	return do_shaped(&k, true, h, s, sync);
}

/* A 2D memset on a capturing stream: a memset node of its graph. */
static CUresult capture_set2d(CUdeviceptr dst, size_t pitch, uint32_t value,
			      unsigned elem, size_t w, size_t h, CUstream hs)
{
	const CUDA_MEMSET_NODE_PARAMS m = {
		.dst = dst, .pitch = pitch, .value = value,
		.elementSize = elem, .width = w, .height = h,
	};

	return cuemu_capture_memset(hs, &m);
}

/* A 2D memset: rows of Width elements of elem bytes, dstPitch apart. The
 * real driver checks the pitch only for more than one row. */
static CUresult set2d(CUdeviceptr dst, size_t pitch, uint32_t value,
		      unsigned elem, size_t w, size_t h, CUstream hs, bool sync)
{
	size_t bytes;
	CUstream s;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) || (r = cuemu_stream_get(hs, &s)))
		return r;
	if (!w || !h)
		return CUDA_SUCCESS;
	if (__builtin_mul_overflow(w, (size_t)elem, &bytes))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%zu elements "
				  "overflow", w);
	if (h > 1 && pitch < bytes)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "rows of %zu bytes "
				  "do not fit the pitch %zu", bytes, pitch);
	if (h > 1 && pitch % elem)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the pitch %zu is "
				  "not a multiple of %u", pitch, elem);
	if (dst % elem)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%#llx is not "
				  "aligned to %u bytes",
				  (unsigned long long)dst, elem);
	if (!sync && cuemu_capturing(hs))
		return capture_set2d(dst, pitch, value, elem, w, h, hs);
	return cuemu_memset_shaped(s, dst, pitch, value, elem, bytes, h, sync);
}

/* ------------------------------------------------------------ driver API */

CUresult cuMemcpy2D(const CUDA_MEMCPY2D *pCopy)
{
	return copy2d(pCopy, NULL, true);
}

CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *pCopy)
{
	return copy2d(pCopy, NULL, true);
}

CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
	return copy2d(pCopy, hStream, false);
}

CUresult cuMemcpy3D(const CUDA_MEMCPY3D *pCopy)
{
	return copy3d(pCopy, NULL, true);
}

CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
	return copy3d(pCopy, hStream, false);
}

CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *pCopy)
{
	return copy3d_peer(pCopy, NULL, true);
}

CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *pCopy,
			     CUstream hStream)
{
	return copy3d_peer(pCopy, hStream, false);
}

CUresult cuMemsetD2D8(CUdeviceptr dstDevice, size_t dstPitch,
		      unsigned char uc, size_t Width, size_t Height)
{
	return set2d(dstDevice, dstPitch, uc, 1, Width, Height, NULL, true);
}

CUresult cuMemsetD2D16(CUdeviceptr dstDevice, size_t dstPitch,
		       unsigned short us, size_t Width, size_t Height)
{
	return set2d(dstDevice, dstPitch, us, 2, Width, Height, NULL, true);
}

CUresult cuMemsetD2D32(CUdeviceptr dstDevice, size_t dstPitch,
		       unsigned int ui, size_t Width, size_t Height)
{
	return set2d(dstDevice, dstPitch, ui, 4, Width, Height, NULL, true);
}

CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch,
			   unsigned char uc, size_t Width, size_t Height,
			   CUstream hStream)
{
	return set2d(dstDevice, dstPitch, uc, 1, Width, Height, hStream, false);
}

CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch,
			    unsigned short us, size_t Width, size_t Height,
			    CUstream hStream)
{
	return set2d(dstDevice, dstPitch, us, 2, Width, Height, hStream, false);
}

CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch,
			    unsigned int ui, size_t Width, size_t Height,
			    CUstream hStream)
{
	return set2d(dstDevice, dstPitch, ui, 4, Width, Height, hStream, false);
}

/* ------------------------------------------- per-thread default stream */

CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
	return copy2d(pCopy, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *pCopy)
{
	return copy2d(pCopy, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
	return copy2d(pCopy, cuemu_ptsz(hStream), false);
}

CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *pCopy)
{
	return copy3d(pCopy, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
	return copy3d(pCopy, cuemu_ptsz(hStream), false);
}

CUresult cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *pCopy)
{
	return copy3d_peer(pCopy, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *pCopy,
				  CUstream hStream)
{
	return copy3d_peer(pCopy, cuemu_ptsz(hStream), false);
}

CUresult cuMemsetD2D8_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch,
			      unsigned char uc, size_t Width, size_t Height)
{
	return set2d(dstDevice, dstPitch, uc, 1, Width, Height,
		     CU_STREAM_PER_THREAD, true);
}

CUresult cuMemsetD2D16_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch,
			       unsigned short us, size_t Width, size_t Height)
{
	return set2d(dstDevice, dstPitch, us, 2, Width, Height,
		     CU_STREAM_PER_THREAD, true);
}

CUresult cuMemsetD2D32_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch,
			       unsigned int ui, size_t Width, size_t Height)
{
	return set2d(dstDevice, dstPitch, ui, 4, Width, Height,
		     CU_STREAM_PER_THREAD, true);
}

CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch,
				unsigned char uc, size_t Width, size_t Height,
				CUstream hStream)
{
	return set2d(dstDevice, dstPitch, uc, 1, Width, Height, cuemu_ptsz(hStream),
		     false);
}

CUresult cuMemsetD2D16Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch,
				 unsigned short us, size_t Width,
				 size_t Height, CUstream hStream)
{
	return set2d(dstDevice, dstPitch, us, 2, Width, Height, cuemu_ptsz(hStream),
		     false);
}

CUresult cuMemsetD2D32Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch,
				 unsigned int ui, size_t Width, size_t Height,
				 CUstream hStream)
{
	return set2d(dstDevice, dstPitch, ui, 4, Width, Height, cuemu_ptsz(hStream),
		     false);
}
