/*
 * texture.c - the texture unit: the elements a fetch through a texture
 * object reads, how it weighs them and what it returns, and where a
 * surface access goes. One lane at a time; warp.c runs the instructions
 * and supplies the elements (struct tex_reader).
 *
 * What it does is what an H200 did with a table of fetches
 * (probes/texture.cu, probes/results/texture.txt), which the Programming
 * Guide's "Texture Fetching" describes in outline:
 *
 * - A coordinate becomes a position in elements: normalized ones are
 *   multiplied by the size (in float); the nearest element is its floor,
 *   a NaN reads as 0. Wrap and mirror apply to normalized coordinates only
 *   (unnormalized ones clamp): wrap takes the fraction of the coordinate,
 *   mirror also reflects the element index (N-1-i) in odd periods, so
 *   that 1.5 reads element N/2-1, not N/2.
 * - Linear filtering reads the two elements either side of position-0.5
 *   along each dimension and weighs them in 256ths: the weight is the
 *   position's fraction rounded to 8 bits (half up), so 1/512 past a
 *   centre reads 1/256 of the next and 255.5/256 reads the next alone.
 *   Each tap is addressed on its own (clamped, wrapped, mirrored, or the
 *   border colour outside). The weighed sum is taken exactly and rounded
 *   once: integer elements are filtered as integers and then scaled
 *   (65535 and 32768 halfway read 49151.5/65535, not the mean of their
 *   two scaled values). For 32-bit floats the H200 lands one unit in the
 *   last place off the exact sum in a few cases (3 of 50 in the table);
 *   here it is the exact sum's.
 * - Integer elements read as normalized floats divide by 255 or 65535
 *   (signed: 127 or 32767, no less than -1); channels the format lacks
 *   read 0, also in the border colour, also the fourth.
 * - tld4 returns one component of the four elements bilinear filtering
 *   would weigh, in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j).
 * - Cube maps select the face by the largest coordinate's magnitude and
 *   sign (the guide's table), then sample it in 2D, each face clamped on
 *   its own (no filtering across edges).
 * - A linear resource is read with integer fetches only; outside it every
 *   result is 0. A layer index clamps to the layers there are.
 * - Surfaces address x in bytes: an access whose x is no multiple of its
 *   size is misaligned whatever the mode; outside, .trap faults, .zero
 *   reads 0 and writes nothing, .clamp takes the nearest element.
 *
 * Locking: none; pure functions of the object and the elements read.
 */
#include "exec/texture.h"
#include "exec/half.h"

#include <math.h>
#include <string.h>

/* Positions far outside any resource are clamped to this many elements
 * before they become integers, so every index fits an int64_t. */
#define FAR 1e12
/* A normalized coordinate's fixed point: 24 fractional bits. */
#define NORM_ONE 16777216.0

static float f32(uint32_t b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static uint32_t bits32(float f)
{
	uint32_t b;

	memcpy(&b, &f, 4);
	return b;
}

static bool returns_float(const struct ex_tex *t)
{
	return t->format == EX_TF_F16 || t->format == EX_TF_F32 ||
	       (!t->read_integer && t->format != EX_TF_U32 &&
		t->format != EX_TF_S32);
}

/* ------------------------------------------------------------- taps */

/* Along one dimension: the element indices read and the weight of the
 * second in 256ths (0: the first alone); out[] a tap outside the
 * resource under the border mode. */
struct axis {
	int64_t i[2];
	uint32_t k;
	bool out[2];
};

static double far_clamp(double v)
{
	return v != v ? 0 : v < -FAR ? -FAR : v > FAR ? FAR : v;
}

/* Index j of a resource of n elements under address mode m: the element
 * read, or -1 for a border tap (every tap of a resource of no elements:
 * it reads the border colour, 0 unless one was given). */
static int64_t address(int64_t j, int64_t n, int m)
{
	if (n <= 0)     /* a pitched resource of width or height 0 */
		return -1;
	switch (m) {
	case EX_TA_WRAP:
		j %= n;
		return j < 0 ? j + n : j;
	case EX_TA_MIRROR:
		j %= 2 * n;
		if (j < 0)
			j += 2 * n;
		return j < n ? j : 2 * n - 1 - j;
	case EX_TA_BORDER:
		return j < 0 || j >= n ? -1 : j;
	default:
		return j < 0 ? 0 : j >= n ? n - 1 : j;
	}
}

/* The taps of float coordinate x along a dimension of n elements. Wrap
 * and mirror count whole periods from the coordinate's floor, keeping
 * only its parity (all they depend on), so the fraction keeps its
 * precision however far out the coordinate is. */
static struct axis axis_of(const struct ex_tex *t, float x, int64_t n,
			   int m, bool filter)
{
	struct axis a = { { 0, 0 }, 0, { false, false } };
	double u, xf, period = 0;

	if (!t->normalized_coords && (m == EX_TA_WRAP || m == EX_TA_MIRROR))
		m = EX_TA_CLAMP;
	if (x != x || isinf(x))
		x = x != x || m == EX_TA_WRAP || m == EX_TA_MIRROR ? 0 : x;
	/* a normalized coordinate is fixed point of 24 fractional bits
	 * (NORM_ONE), truncated: 0.2f of 5 elements reads the first */
	xf = t->normalized_coords ? floor(far_clamp(x) * NORM_ONE) / NORM_ONE : x;
	if (t->normalized_coords && (m == EX_TA_WRAP || m == EX_TA_MIRROR)) {
		double p = floor(xf);
		period = fmod(p, 2.0) != 0 ? (double)n : 0;
		u = (xf - p) * (double)n;
	} else {
		u = t->normalized_coords ? xf * (double)n : xf;
	}
	u = far_clamp(u);
	if (filter) {
		double kk = floor((u - 0.5) * 256.0 + 0.5);
		double i = floor(kk / 256.0);
		a.i[0] = (int64_t)i;
		a.k = (uint32_t)(kk - i * 256.0);
	} else {
		a.i[0] = (int64_t)floor(u);
	}
	a.i[0] += (int64_t)period;
	a.i[1] = a.i[0] + 1;
	for (int e = 0; e < 2; e++) {
		a.i[e] = address(a.i[e], n, m);
		a.out[e] = a.i[e] < 0;
	}
	return a;
}

/* An integer coordinate: the element itself (clamped, or a border tap). */
static struct axis axis_int(int32_t c, int64_t n, int m)
{
	struct axis a = { { c, c }, 0, { false, false } };

	a.i[0] = a.i[1] = address(c, n, m == EX_TA_BORDER ? EX_TA_BORDER :
				  EX_TA_CLAMP);
	a.out[0] = a.out[1] = a.i[0] < 0;
	return a;
}

/* ----------------------------------------------------------- values */

/* Channel ch of the element at p as its raw value: integers as they
 * are, half and single floats as their value. */
static double raw(const struct ex_tex *t, const uint8_t *p, int ch)
{
	switch (t->format) {
	case EX_TF_U8: return p[ch];
	case EX_TF_S8: return (int8_t)p[ch];
	case EX_TF_U16: { uint16_t v; memcpy(&v, p + 2 * ch, 2); return v; }
	case EX_TF_S16: { int16_t v; memcpy(&v, p + 2 * ch, 2); return v; }
	case EX_TF_U32: { uint32_t v; memcpy(&v, p + 4 * ch, 4); return v; }
	case EX_TF_S32: { int32_t v; memcpy(&v, p + 4 * ch, 4); return v; }
	case EX_TF_F16: {
		uint16_t v;
		memcpy(&v, p + 2 * ch, 2);
		return hf_decode(v, T_F16, false);
	}
	default: { uint32_t v; memcpy(&v, p + 4 * ch, 4); return f32(v); }
	}
}

/* What an integer element's raw value is divided by to read it as a
 * normalized float (1: none). */
static double scale_of(const struct ex_tex *t)
{
	if (t->read_integer)
		return 1;
	switch (t->format) {
	case EX_TF_U8: return 255;
	case EX_TF_S8: return 127;
	case EX_TF_U16: return 65535;
	case EX_TF_S16: return 32767;
	default: return 1;
	}
}

/* sRGB's curve, for 8-bit unsigned channels but the fourth. */
static double srgb(double c)
{
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

/* A float result from a raw (weighed) value: scaled, clamped at -1 for
 * the signed formats, rounded once. */
/* x rounded to the nearest half-precision value (ties to even). */
static double to_half(double x)
{
	double m = fabs(x), q;
	int e;

	if (m == 0 || m != m)
		return x;
	if (m >= 65520)
		return copysign(INFINITY, x);
	frexp(m, &e);                   /* m in [2^(e-1), 2^e) */
	q = ldexp(1, (e - 1 < -14 ? -14 : e - 1) - 10);
	return copysign(nearbyint(m / q) * q, x);
}

/* A float result from a raw (weighed) value. A filtered one is as the
 * texture unit computes it: 8- and 16-bit integers in 16-bit units (a
 * byte v is v * 257 of them, a signed one v * 32767/127 rounded),
 * the sum rounded half up to a unit, then scaled; half floats rounded to
 * half precision. Signed ones are no less than -1. */
static uint32_t float_result(const struct ex_tex *t, double v, int ch,
			     bool filtered)
{
	double s = scale_of(t);

	if (filtered && t->format == EX_TF_F16)
		v = to_half(v);
	if (s != 1) {
		if (filtered) {
			if (t->format == EX_TF_U8 || t->format == EX_TF_S8)
				s = t->format == EX_TF_U8 ? 65535 : 32767;
			v = floor(v + 0.5);
		}
		v /= s;
		if (v < -1)
			v = -1;
		if (t->srgb && ch < 3 && t->format == EX_TF_U8)
			v = srgb(v);
	}
	return bits32((float)v);
}

/* Channel ch of the element at p in the units a filtered fetch weighs
 * it in (float_result's). */
static double filter_raw(const struct ex_tex *t, const uint8_t *p, int ch,
			 bool filtered)
{
	double v = raw(t, p, ch);

	if (filtered && t->format == EX_TF_U8)
		return v * 257;
	if (filtered && t->format == EX_TF_S8 && !t->read_integer)
		return nearbyint(v * 32767 / 127);
	return v;
}

/* The border colour's channel ch, in raw units (scaled back for the
 * normalized formats, so that it weighs as their elements do). */
static double border_raw(const struct ex_tex *t, int ch, bool filtered)
{
	double s = scale_of(t);

	if (filtered && (t->format == EX_TF_U8 || t->format == EX_TF_S8))
		s = t->format == EX_TF_U8 ? 65535 : 32767;
	return (double)t->border[ch] * s;
}

/* ---------------------------------------------------------- fetches */

/* The address of element (x, y, s): each index already within its
 * dimension. */
static uint64_t elem_addr(const struct ex_tex *t, int64_t x, int64_t y,
			  int64_t s)
{
	return t->base + (uint64_t)s * t->slice + (uint64_t)y * t->pitch +
	       (uint64_t)x * t->elem;
}

/* The weights of the 2x2 taps of x weight kx and y weight ky (256ths of
 * the second of each), as integers summing to 256: the far corner's is
 * the product rounded half up, the rest what keeps each axis's share
 * (kx for the second column, ky for the second row). */
static void weights2(uint32_t kx, uint32_t ky, uint32_t w[2][2])
{
	w[1][1] = (kx * ky + 128) / 256;
	w[1][0] = kx - w[1][1];         /* [x][y] */
	w[0][1] = ky - w[1][1];
	w[0][0] = 256 - kx - ky + w[1][1];
}

/* One tap's channels, added at weight wt (256ths) into v: the element at
 * (x, y, s) or, where out, the border colour. */
static int tap(const struct ex_tex *t, bool out, int64_t x, int64_t y,
	       int64_t s, double wt, bool f, const struct tex_reader *rd,
	       double v[4])
{
	const uint8_t *p = NULL;

	if (wt == 0)
		return 0;
	if (!out && !(p = rd->at(rd->arg, elem_addr(t, x, y, s), t->elem)))
		return -1;
	for (int ch = 0; ch < t->channels; ch++)
		v[ch] += wt / 256 * (out ? border_raw(t, ch, f) :
				      filter_raw(t, p, ch, f));
	return 0;
}

/* Reads the taps of (ax, ay, az) on slice s0 (a 3D resource's slices
 * are az's) and weighs them channel by channel into v[4] (raw units);
 * -1 where the reader failed. A third dimension weighs the two 2D
 * slices by its own weight, unrounded. */
static int weigh(const struct ex_tex *t, const struct axis *ax,
		 const struct axis *ay, const struct axis *az, int64_t s0,
		 int dims, bool f, const struct tex_reader *rd, double v[4])
{
	uint32_t w[2][2];

	for (int ch = 0; ch < 4; ch++)
		v[ch] = 0;
	if (dims == 1) {
		for (int x = 0; x < 2; x++)
			if (tap(t, ax->out[x], ax->i[x], 0, s0,
				x ? ax->k : 256 - ax->k, f, rd, v))
				return -1;
		return 0;
	}
	weights2(ax->k, ay->k, w);
	for (int y = 0; y < 2; y++)
		for (int x = 0; x < 2; x++) {
			bool out = ax->out[x] || ay->out[y];
			if (dims == 2) {
				if (tap(t, out, ax->i[x], ay->i[y], s0, w[x][y], f,
					rd, v))
					return -1;
				continue;
			}
			for (int z = 0; z < 2; z++)
				if (tap(t, out || az->out[z], ax->i[x], ay->i[y],
					az->i[z], w[x][y] * (z ? az->k :
					256 - az->k) / 256.0, f, rd, v))
					return -1;
		}
	return 0;
}

/* tld4: component comp of the four elements bilinear filtering weighs,
 * each as a fetch would return it alone. */
static int gather(const struct ex_tex *t, const struct axis *a, int64_t s0,
		  int comp, const struct tex_reader *rd, uint32_t out[4])
{
	static const int order[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 } };
	bool flt = returns_float(t);

	for (int e = 0; e < 4; e++) {
		int x = order[e][0], y = order[e][1];
		double v = 0;

		if (comp >= t->channels) {
			out[e] = 0;
			continue;
		}
		if (a[0].out[x] || a[1].out[y]) {
			v = border_raw(t, comp, false);
		} else {
			const uint8_t *p = rd->at(rd->arg, elem_addr(t, a[0].i[x],
						  a[1].i[y], s0), t->elem);
			if (!p)
				return -1;
			v = raw(t, p, comp);
		}
		out[e] = flt ? float_result(t, v, comp, false) :
			       (uint32_t)(int64_t)v;
	}
	return 0;
}

/* The face of a cube map direction (x, y, z) and the coordinates in it,
 * normalized: the Programming Guide's table; where magnitudes tie, z's
 * face before y's before x's (as the H200 chose). */
static int cube_face(float x, float y, float z, float *s, float *tt)
{
	float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, sc, tc;
	int face;

	if (az >= ax && az >= ay) {
		m = az;
		face = z >= 0 ? 4 : 5;
		sc = z >= 0 ? x : -x;
		tc = -y;
	} else if (ay >= ax) {
		m = ay;
		face = y >= 0 ? 2 : 3;
		sc = x;
		tc = y >= 0 ? z : -z;
	} else {
		m = ax;
		face = x >= 0 ? 0 : 1;
		sc = x >= 0 ? -z : z;
		tc = -y;
	}
	if (m == 0 || m != m)
		m = 1;
	*s = (sc / m + 1.0f) * 0.5f;
	*tt = (tc / m + 1.0f) * 0.5f;
	return face;
}

/* The layer coordinate c of a layered geometry, clamped to the layers
 * as an unsigned number: layer -1 reads the last. */
static int64_t layer_of(uint32_t c, int64_t layers)
{
	return (int64_t)c >= layers ? layers - 1 : (int64_t)c;
}

int tex_fetch(const struct ex_tex *t, const struct tex_query *q,
	      const struct tex_reader *rd, uint32_t out[4])
{
	bool flt = returns_float(t);
	bool filter = t->linear_filter && flt && !q->int_coords;
	struct ex_tex face;
	const struct ex_tex *tt = t;
	int dims, first = 0;
	int64_t s0 = 0, n[3] = { t->width, t->height ? t->height : 1,
				 t->depth ? t->depth : 1 };
	struct axis a[3];
	double v[4];
	float c[3];

	memset(out, 0, 4 * sizeof *out);
	switch (q->geom) {
	case G_1D: dims = 1; break;
	case G_2D: dims = 2; break;
	case G_3D: dims = 3; break;
	case G_A1D: dims = 1; first = 1; break;
	case G_A2D: dims = 2; first = 1; break;
	default: dims = 2; break;                  /* cube maps */
	}
	if (first)
		s0 = layer_of(q->c[0], n[t->shape == EX_TS_A1D ? 1 : 2]);
	for (int d = 0; d < 3; d++)
		c[d] = f32(q->c[first + d]);
	if (t->fetch_only) {
		int32_t i = (int32_t)q->c[0];
		if (!q->int_coords || i < 0 || (int64_t)i >= n[0])
			return 0;
	}
	if (q->geom == G_CUBE || q->geom == G_ACUBE) {
		int64_t layer = q->geom == G_ACUBE ?
				layer_of(q->c[0], n[2] / 6) : 0;
		float s, u;
		int f = cube_face(c[0], c[1], c[2], &s, &u);
		face = *t;      /* a cube face is sampled as a 2D texture */
		face.normalized_coords = true;
		face.address[0] = face.address[1] = EX_TA_CLAMP;
		tt = &face;
		s0 = layer * 6 + f;
		c[0] = s;
		c[1] = u;
	} else if (t->shape == EX_TS_A1D) {
		n[1] = 1;
	}
	for (int d = 0; d < dims; d++)
		a[d] = q->int_coords ? axis_int((int32_t)q->c[first + d], n[d],
					       t->address[d]) :
		       axis_of(tt, c[d], n[d], tt->address[d],
			       filter || q->comp >= 0);
	if (!filter && q->comp < 0)
		for (int d = 0; d < dims; d++)
			a[d].k = 0;
	/* a filtered 1D fetch is also one along y at 0, between a row
	 * outside and the row there is: under the border mode, the two
	 * rows of a 2D fetch at half each (under the others one row) */
	if (dims == 1 && filter && t->address[1] == EX_TA_BORDER) {
		dims = 2;
		a[1] = (struct axis){ { 0, 0 }, 128, { true, false } };
	}
	if (q->comp >= 0)
		return gather(tt, a, s0, q->comp, rd, out);
	if (weigh(tt, &a[0], &a[1], &a[2], s0, dims, filter, rd, v))
		return -1;
	for (int ch = 0; ch < t->channels; ch++) {
		if (flt)
			out[ch] = float_result(t, v[ch], ch, filter);
		else
			out[ch] = (uint32_t)(int64_t)v[ch];
	}
	return 0;
}

enum tex_surf tex_surface_at(const struct ex_tex *t, int geom, int mode,
			     int64_t x, int64_t y, int64_t s, unsigned size,
			     uint64_t *a)
{
	int64_t wb = (int64_t)t->width * t->elem;
	int64_t h = t->height ? t->height : 1, d = t->depth ? t->depth : 1;
	bool in;

	if (x % (int64_t)size)
		return TEX_SURF_MISALIGNED;
	if (geom == G_1D || geom == G_A1D)
		y = 0;
	if (geom != G_3D && geom != G_A1D && geom != G_A2D)
		s = 0;
	if (geom == G_A1D)
		h = 1;
	in = x >= 0 && x + (int64_t)size <= wb && y >= 0 && y < h &&
	     s >= 0 && s < d;
	if (!in) {
		if (mode == SB_ZERO)
			return TEX_SURF_ZERO;
		if (mode != SB_CLAMP)
			return TEX_SURF_TRAP;
		x = x < 0 ? 0 : x + (int64_t)size > wb ?
		    (wb - (int64_t)size) / (int64_t)size * (int64_t)size : x;
		y = y < 0 ? 0 : y >= h ? h - 1 : y;
		s = s < 0 ? 0 : s >= d ? d - 1 : s;
	}
	*a = t->base + (uint64_t)s * t->slice + (uint64_t)y * t->pitch +
	     (uint64_t)x;
	return TEX_SURF_IN;
}
