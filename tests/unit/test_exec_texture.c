/*
 * test_exec_texture.c - the texture unit as an H200 answered it: every
 * fetch and surface access of probes/results/texture.txt (probes/
 * texture.cu: 1D to 3D, layered and cube map arrays, pitched and linear
 * memory; each format, filter, address and read mode; tld4; surface loads
 * and stores under each boundary mode) replayed through the engine, from
 * the probe's own PTX (probes/texture.ptx) over the same elements
 * (probes/texture.h), and compared to the bit. Then the refusals: what
 * the engine does not run is said at load, naming the line.
 *
 * Where the H200 differs from the exact weighed sum (linear filtering of
 * 32-bit floats, one unit in the last place in a few cases), the case is
 * listed below with that reason; nothing else may differ.
 */
#include "tap.h"
#include "exec_mock.h"
#include "probe_rows.h"
#include "../../probes/texture.h"

#include <math.h>

/* Where the engine's texture unit is known to differ from the H200's,
 * and by how much at most: the case names' prefixes, the distance
 * allowed on the first result (units in the last place of a float, or
 * an absolute amount), and why. Each such case is counted; nothing else
 * may differ in any bit. */
static const struct known {
	const char *prefix;
	int ulps;
	double abs;
	const char *why;
} known[] = {
	{ "f32x1.linear.", 2, 0, "32-bit float linear filtering: the exact "
	  "weighed sum, rounded once; the H200's lands up to two units off" },
	{ "f32x1.bordercolor.linear.", 2, 0, "the same, with a border colour" },
	{ "f32x1.2d.linear.", 2, 0, "the same, in 2D" },
	{ "f32x1.3d.linear.", 0, 0.05, "3D weights: the H200 rounds each "
	  "tap's weight otherwise (a 256th of a weight between neighbours)" },
	{ "s8x1.normalized.linear.", 0, 1.0 / 32767, "signed bytes filtered: "
	  "one 16-bit unit" },
};

static bool known_close(const char *name, const uint32_t got[4],
			const uint32_t want[4])
{
	float g, w;

	if (memcmp(got + 1, want + 1, 12))
		return false;
	memcpy(&g, &got[0], 4);
	memcpy(&w, &want[0], 4);
	for (size_t k = 0; k < sizeof known / sizeof *known; k++) {
		if (strncmp(name, known[k].prefix, strlen(known[k].prefix)))
			continue;
		if (known[k].ulps)
			return (uint32_t)(got[0] - want[0] + (uint32_t)known[k].ulps) <=
			       2u * (uint32_t)known[k].ulps;
		return fabs((double)g - (double)w) <= known[k].abs;
	}
	return false;
}

/* Kernel kinds, as probes/texture.cu numbers them. */
enum { K1D = 1, K2D, K3D, KA1D, KA2D, KCUBE, KG0, KG1, KG2, KG3, KFETCH,
       KLOD2D, KGRAD2D };

#define FETCH_F "_Z5fetchI6float4EvyiPKS0_PT_i"
#define FETCH_I "_Z5fetchI4int4EvyiPK6float4PT_i"
#define SLOAD "_Z5sloadyPK4int2P5uint4i"
#define SSTORE "_Z6sstoreyPK4int2i"

/* The mock machine with the objects the replay makes: handle h is
 * obj[h - 1]. */
struct tmock {
	struct mock mk;         /* first: mock_page's ctx */
	struct ex_tex obj[2];
	int nobj;
};

static enum ex_status mock_texture(void *ctx, uint64_t h, bool surface,
				   struct ex_tex *out, const char **why)
{
	struct tmock *t = ctx;

	(void)surface;
	if (h < 1 || h > (uint64_t)t->nobj) {
		*why = "no object of this handle";
		return EX_ILLEGAL_ADDRESS;
	}
	*out = t->obj[h - 1];
	return EX_OK;
}

/* An array of w x h x d elements of elem bytes (d slices), its bytes in
 * mock memory at place 0, read at once as an array's are. */
static struct ex_tex array_of(struct tmock *t, const void *src, int fmt,
			      int ch, int elem, int shape, uint32_t w,
			      uint32_t h, uint32_t d)
{
	struct ex_tex x;
	uint32_t rows = h ? h : 1, slices = d ? d : 1;
	size_t bytes = (size_t)w * rows * slices * (size_t)elem;
	uint8_t *p = mock_alloc(&t->mk, bytes, 0);

	memset(&x, 0, sizeof x);
	memcpy(p, src, bytes);
	x.base = (uint64_t)(uintptr_t)p;
	x.pitch = (uint64_t)w * (uint64_t)elem;
	x.slice = x.pitch * rows;
	x.bytes = bytes;
	x.width = w;
	x.height = h;
	x.depth = d;
	x.format = (uint8_t)fmt;
	x.channels = (uint8_t)ch;
	x.elem = (uint8_t)elem;
	x.shape = (uint8_t)shape;
	return x;
}

static int mode_of(const char *w)
{
	return !strcmp(w, "wrap") ? EX_TA_WRAP : !strcmp(w, "mirror") ?
	       EX_TA_MIRROR : !strcmp(w, "border") ? EX_TA_BORDER : EX_TA_CLAMP;
}

/* The resource and sampling a case's name says (probes/texture.cu makes
 * them), and the kernel kind it fetches with; false for a name it does
 * not make. */
static bool texture_of(struct tmock *t, const char *name, struct ex_tex *x,
		       int *kind)
{
	char w[8][32] = { { 0 } };
	int n = 0;
	static float f2[16], v3[27], lay[12], cube[24], pitch[3][32];
	static unsigned char u4[64];

	tex_f2d(f2);
	tex_volumes(v3, lay, cube);
	tex_unorm4(u4);
	tex_pitch(pitch);
	for (const char *p = name; *p && n < 8; n++) {
		size_t k = strcspn(p, ".");
		snprintf(w[n], sizeof w[n], "%.*s", (int)k, p);
		p += k + (p[k] == '.');
	}
	*kind = K1D;
	if (!strcmp(w[0], "linear")) {
		int32_t *q = mock_alloc(&t->mk, 64, 0);
		memcpy(q, tex_linear_s32, sizeof tex_linear_s32);
		memset(x, 0, sizeof *x);
		x->base = (uint64_t)(uintptr_t)q;
		x->bytes = x->pitch = x->slice = 32;
		x->global = x->fetch_only = true;
		x->shape = EX_TS_1D;
		x->elem = 4;
		x->format = !strcmp(w[1], "s32x1") ? EX_TF_S32 : EX_TF_U8;
		x->channels = x->format == EX_TF_S32 ? 1 : 4;
		x->width = 8;
		x->read_integer = x->format == EX_TF_S32;
		*kind = KFETCH;
		return true;
	}
	if (!strcmp(w[0], "pitch2d")) {
		float *q = mock_alloc(&t->mk, 3 * 512, 0);
		for (int y = 0; y < 3; y++)
			memcpy(q + y * 128, pitch[y], sizeof pitch[y]);
		memset(x, 0, sizeof *x);
		x->base = (uint64_t)(uintptr_t)q;
		x->pitch = 512;
		x->slice = 3 * 512;
		x->bytes = 2 * 512 + 20;
		x->width = 5;
		x->height = 3;
		x->global = true;
		x->shape = EX_TS_2D;
		x->format = EX_TF_F32;
		x->channels = 1;
		x->elem = 4;
		x->linear_filter = !strcmp(w[2], "linear");
		x->address[0] = x->address[1] = EX_TA_CLAMP;
		*kind = K2D;
		return true;
	}
	int i = 1;
	bool element = false;
	if (!strcmp(w[0], "f32x1") && !strcmp(w[1], "3d")) {
		*x = array_of(t, v3, EX_TF_F32, 1, 4, EX_TS_3D, 3, 3, 3);
		*kind = K3D;
		i = 2;
	} else if (!strcmp(w[0], "f32x1") && !strcmp(w[1], "a2d")) {
		*x = array_of(t, lay, EX_TF_F32, 1, 4, EX_TS_A2D, 2, 2, 3);
		*kind = KA2D;
		i = 2;
	} else if (!strcmp(w[0], "f32x1") && !strcmp(w[1], "cube")) {
		*x = array_of(t, cube, EX_TF_F32, 1, 4, EX_TS_CUBE, 2, 2, 6);
		x->normalized_coords = true;
		*kind = KCUBE;
		i = 2;
	} else if (!strcmp(w[0], "f32x1") && !strcmp(w[1], "2d")) {
		*x = array_of(t, f2, EX_TF_F32, 1, 4, EX_TS_2D, 4, 4, 0);
		*kind = K2D;
		i = 2;
		if (!strcmp(w[2], "lod") || !strcmp(w[2], "grad")) {
			*kind = w[2][0] == 'l' ? KLOD2D : KGRAD2D;
			i = 3;
		}
	} else if (!strcmp(w[0], "u8x4") && !strcmp(w[1], "2d")) {
		*x = array_of(t, u4, EX_TF_U8, 4, 4, EX_TS_2D, 4, 4, 0);
		*kind = K2D;
		i = 2;
		if (!strncmp(w[2], "gather", 6)) {
			*kind = KG0 + (w[2][6] - '0');
			strcpy(w[2], "point");
		}
		element = !strcmp(w[4], "element");
	} else if (!strcmp(w[0], "f32x1")) {
		const float *src = tex_f1d;
		uint32_t n1 = 8;
		if (!strcmp(w[1], "steps"))
			src = tex_steps, n1 = 4;
		*x = array_of(t, src, EX_TF_F32, 1, 4, EX_TS_1D, n1, 0, 0);
		if (!strcmp(w[1], "bordercolor"))
			memcpy(x->border, tex_border, sizeof x->border);
		if (!strcmp(w[1], "bordercolor") || !strcmp(w[1], "steps"))
			i = 2;
	} else if (!strcmp(w[0], "f32x2")) {
		*x = array_of(t, tex_f2x1d, EX_TF_F32, 2, 8, EX_TS_1D, 3, 0, 0);
	} else if (!strcmp(w[0], "f16x1")) {
		*x = array_of(t, tex_f16, EX_TF_F16, 1, 2, EX_TS_1D, 5, 0, 0);
	} else {
		static const struct { const char *w; const void *src; int fmt, ch,
			elem; uint32_t n; } ints[] = {
			{ "u8x1", tex_u8, EX_TF_U8, 1, 1, 6 },
			{ "s8x1", tex_s8, EX_TF_S8, 1, 1, 6 },
			{ "u16x2", tex_u16x2, EX_TF_U16, 2, 4, 5 },
			{ "s16x1", tex_s16, EX_TF_S16, 1, 2, 5 },
			{ "s32x1", tex_s32, EX_TF_S32, 1, 4, 4 },
		};
		size_t k;
		for (k = 0; k < sizeof ints / sizeof *ints; k++)
			if (!strcmp(w[0], ints[k].w))
				break;
		if (k == sizeof ints / sizeof *ints)
			return false;
		*x = array_of(t, ints[k].src, ints[k].fmt, ints[k].ch,
			      ints[k].elem, EX_TS_1D, ints[k].n, 0, 0);
		element = !strcmp(w[1], "element");
		i = 2;
	}
	x->read_integer = element;
	x->linear_filter = !strcmp(w[i], "linear");
	x->address[0] = x->address[1] = x->address[2] = (uint8_t)mode_of(w[i + 1]);
	if (*kind != KCUBE)
		x->normalized_coords = !strcmp(w[i + 2], "norm");
	return true;
}

/* One case line: "name x y z w: r0 r1 r2 r3". */
struct row {
	char name[96];
	float c[4];
	uint32_t want[4];
};

static bool parse_row(const char *line, struct row *r)
{
	const char *colon = strchr(line, ':');
	const char *sp = strchr(line, ' ');
	char *end;

	if (!colon || !sp || sp > colon || (size_t)(sp - line) >= sizeof r->name)
		return false;
	snprintf(r->name, sizeof r->name, "%.*s", (int)(sp - line), line);
	end = (char *)sp + 1;
	for (int k = 0; k < 4; k++)
		r->c[k] = strtof(end, &end);
	end = (char *)colon + 1;
	for (int k = 0; k < 4; k++)
		r->want[k] = (uint32_t)strtoul(end, &end, 16);
	return true;
}

/* Runs kind over the group's coordinates with one texture; counts the
 * rows that match (and those within a known difference); prints the
 * first misses as diagnostics. */
static void replay_group(struct ex_module *m, struct row *rows, int n,
			 int *matched, int *listed, int *misses)
{
	struct tmock *t = calloc(1, sizeof *t);
	struct ex_tex x;
	int kind;

	mock_init(&t->mk);
	if (!texture_of(t, rows[0].name, &x, &kind)) {
		printf("# %s: a case the replay does not make\n", rows[0].name);
		(*misses)++;
		mock_free(&t->mk);
		free(t);
		return;
	}
	t->obj[0] = x;
	t->nobj = 1;
	float *c = mock_alloc(&t->mk, (size_t)n * 16, 0);
	uint32_t *out = mock_alloc(&t->mk, (size_t)n * 16, 0);
	for (int i = 0; i < n; i++)
		memcpy(c + 4 * i, rows[i].c, 16);
	bool integer = x.read_integer && x.format != EX_TF_F16 && x.format != EX_TF_F32;
	struct { uint64_t h; int32_t kind, pad; uint64_t c, out; int32_t n; } params =
		{ 1, kind, 0, (uint64_t)(uintptr_t)c, (uint64_t)(uintptr_t)out, n };
	struct ex_launch l = mock_launch(&t->mk, m, integer ? FETCH_I : FETCH_F,
					 &params, (uint32_t)(n + 127) / 128, 1, 128, 1, 1);
	struct ex_result res;
	l.mem.texture = mock_texture;
	if (ex_launch_run(&l, &res) != EX_OK) {
		printf("# %s: the launch failed: %.200s\n", rows[0].name, res.message);
		(*misses)++;
	} else {
		for (int i = 0; i < n; i++) {
			uint32_t *g = out + 4 * i;
			if (!memcmp(g, rows[i].want, 16)) {
				(*matched)++;
			} else if (known_close(rows[i].name, g, rows[i].want)) {
				(*listed)++;
			} else if ((*misses)++ < 10) {
				printf("# %s %g %g %g %g: got %08x %08x %08x %08x, the H200 "
				       "%08x %08x %08x %08x\n", rows[i].name, rows[i].c[0],
				       rows[i].c[1], rows[i].c[2], rows[i].c[3], g[0], g[1],
				       g[2], g[3], rows[i].want[0], rows[i].want[1],
				       rows[i].want[2], rows[i].want[3]);
			}
		}
	}
	mock_free(&t->mk);
	free(t);
}

/* Every texture line of the table, a group of lines of one name a
 * launch. */
static void fetches(struct ex_module *m, const char *table)
{
	char *res = strdup(table);
	static struct row rows[512];
	int n = 0, total = 0, matched = 0, listed = 0, misses = 0;
	char *save = NULL;

	for (char *line = strtok_r(res, "\n", &save); ; line = strtok_r(NULL, "\n", &save)) {
		struct row r;
		bool ok_row = line && strncmp(line, "surf.", 5) && strncmp(line, "texture.", 8) &&
			      strncmp(line, "pitch2d.pitch", 13) && parse_row(line, &r);
		if (n && (!ok_row || strcmp(r.name, rows[0].name) || n == 512)) {
			replay_group(m, rows, n, &matched, &listed, &misses);
			total += n;
			n = 0;
		}
		if (!line)
			break;
		if (ok_row)
			rows[n++] = r;
	}
	ok(total > 5000, "the table holds %d texture fetches", total);
	ok(matched + listed == total && !misses, "each fetch returns the H200's four "
	   "results to the bit, or within the known differences (%d of %d)",
	   matched + listed, total);
	ok(listed <= 60, "the known differences are few: %d fetches of %d", listed, total);
	free(res);
}

/* A 4 x 3 surface of words, as probes/texture.cu makes it. */
static struct ex_tex surface_of(struct tmock *t)
{
	unsigned v[12];

	tex_surface(v);
	return array_of(t, v, EX_TF_U32, 1, 4, EX_TS_2D, 4, 3, 0);
}

/* A surface line: "surf.u32.2d.load|store x y: words". */
static int surf_row(const char *line, const char *kind, int xy[2],
		    uint32_t *w, int nw)
{
	char *end;

	if (strncmp(line, kind, strlen(kind)))
		return 0;
	end = (char *)line + strlen(kind);
	xy[0] = (int)strtol(end, &end, 10);
	xy[1] = (int)strtol(end, &end, 10);
	if (*end != ':')
		return 0;
	end++;
	for (int k = 0; k < nw; k++)
		w[k] = (uint32_t)strtoul(end, &end, 16);
	return 1;
}

/* Surface loads under zero and clamp (x in bytes; a word, a byte
 * vector, a half word), one launch over the table's coordinates; then
 * its stores, one a launch, each followed by the whole surface. */
static void surfaces(struct ex_module *m, const char *res)
{
	struct tmock *t = calloc(1, sizeof *t);
	int (*c)[2], loads = 0, lmatch = 0, stores = 0, smatch = 0;
	uint32_t (*want)[4], *out;
	struct ex_result r;
	const char *line;

	mock_init(&t->mk);
	t->obj[0] = surface_of(t);
	t->nobj = 1;
	c = mock_alloc(&t->mk, 128 * sizeof *c, 0);
	out = mock_alloc(&t->mk, 128 * 16, 0);
	want = calloc(128, sizeof *want);
	for (line = res; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (loads < 128 && surf_row(line, "surf.u32.2d.load ", c[loads], want[loads], 4))
			loads++;
	struct { uint64_t h, c, out; int32_t n; } lp = { 1, (uint64_t)(uintptr_t)c,
		(uint64_t)(uintptr_t)out, loads };
	struct ex_launch l = mock_launch(&t->mk, m, SLOAD, &lp, 1, 1, 128, 1, 1);
	l.mem.texture = mock_texture;
	if (ex_launch_run(&l, &r) == EX_OK)
		for (int i = 0; i < loads; i++)
			lmatch += !memcmp(out + 4 * i, want[i], 16);
	ok(loads == 45 && lmatch == loads, "surface loads read the H200's words, "
	   "zeros and clamped elements (%d of %d)", lmatch, loads);

	const uint32_t *bytes = (const uint32_t *)(uintptr_t)t->obj[0].base;
	for (line = res; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		uint32_t after[12];
		if (!surf_row(line, "surf.u32.2d.store ", c[0], after, 12))
			continue;
		struct { uint64_t h, c; int32_t n; } sp = { 1, (uint64_t)(uintptr_t)c, 1 };
		struct ex_launch ls = mock_launch(&t->mk, m, SSTORE, &sp, 1, 1, 32, 1, 1);
		ls.mem.texture = mock_texture;
		stores++;
		smatch += ex_launch_run(&ls, &r) == EX_OK && !memcmp(bytes, after, sizeof after);
	}
	ok(stores == 12 && smatch == stores, "surface stores land where the H200's "
	   "did, clamped, and nowhere outside (%d of %d)", smatch, stores);
	free(want);
	mock_free(&t->mk);
	free(t);
}

/* The cases that end a kernel: .trap outside the surface is an illegal
 * address, an x that is no multiple of the access size a misaligned one
 * whatever the mode (probes/results/texture-risky.txt), and a handle
 * naming no object an illegal address. */
static void surface_faults(struct ex_module *m)
{
	static const struct { const char *kernel; int x; enum ex_status st;
			      const char *what; } cases[] = {
		{ "_Z5strapyiiPj", 16, EX_ILLEGAL_ADDRESS, "a .trap load past the width" },
		{ "_Z4smisyiiPj", 2, EX_MISALIGNED_ADDRESS, "a word load at byte 2" },
	};

	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		struct tmock *t = calloc(1, sizeof *t);
		struct ex_result r;
		mock_init(&t->mk);
		t->obj[0] = surface_of(t);
		t->nobj = 1;
		uint32_t *o = mock_alloc(&t->mk, 4, 0);
		struct { uint64_t h; int32_t x, y; uint64_t out; } p =
			{ 1, cases[k].x, 0, (uint64_t)(uintptr_t)o };
		struct ex_launch l = mock_launch(&t->mk, m, cases[k].kernel, &p, 1, 1, 1, 1, 1);
		l.mem.texture = mock_texture;
		is_int(ex_launch_run(&l, &r), cases[k].st, "%s ends the kernel as on the H200",
		       cases[k].what);
		p.h = 7;
		is_int(ex_launch_run(&l, &r), EX_ILLEGAL_ADDRESS,
		       "%s through a handle that names nothing: an illegal address",
		       cases[k].what);
		mock_free(&t->mk);
		free(t);
	}
}

/* A pitched resource of width 0 (the driver takes one): every fetch
 * reads 0 under each address mode, wrap and mirror too, and nothing
 * outside it is read. */
static void empty_resource(struct ex_module *m)
{
	for (int mode = EX_TA_WRAP; mode <= EX_TA_BORDER; mode++) {
		struct tmock *t = calloc(1, sizeof *t);
		struct ex_result r;
		mock_init(&t->mk);
		float *c = mock_alloc(&t->mk, 16 * 4, 0);
		uint32_t *out = mock_alloc(&t->mk, 16 * 4, 0);
		for (int i = 0; i < 16; i++)
			c[i] = (float)i * 0.3f - 1.f;
		memset(out, 0xcd, 16 * 4);
		t->obj[0] = (struct ex_tex){ .base = (uint64_t)(uintptr_t)c,
			.pitch = 32, .width = 0, .height = 4, .format = EX_TF_F32,
			.channels = 1, .elem = 4, .shape = EX_TS_2D, .global = true,
			.linear_filter = true, .normalized_coords = true,
			.address = { (uint8_t)mode, (uint8_t)mode, (uint8_t)mode } };
		t->nobj = 1;
		struct { uint64_t h; int32_t kind, pad; uint64_t c, out; int32_t n; } p =
			{ 1, K2D, 0, (uint64_t)(uintptr_t)c, (uint64_t)(uintptr_t)out, 4 };
		struct ex_launch l = mock_launch(&t->mk, m, FETCH_F, &p, 1, 1, 32, 1, 1);
		l.mem.texture = mock_texture;
		bool zero = ex_launch_run(&l, &r) == EX_OK;
		for (int i = 0; i < 16 && zero; i++)
			zero = out[i] == 0;
		ok(zero, "a resource of width 0 reads 0 under address mode %d", mode);
		mock_free(&t->mk);
		free(t);
	}
}

/* What the engine does not run is refused at load, naming the line: a
 * texture reference (the form before objects, which nvcc no longer
 * makes) at its declaration, the rest at the instruction. */
static void refusals(void)
{
	static const char texref[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".global .texref tref;\n.visible .entry k()\n{\nret;\n}\n";
	char rlog[256] = "";
	struct ex_module *rm = NULL;

	ok(ex_module_parse(texref, sizeof texref - 1, 90, &rm, rlog, sizeof rlog) ==
	   EX_UNSUPPORTED && strstr(rlog, "line 4") && strstr(rlog, "reference"),
	   "a .texref is refused at its declaration: %s", rlog);
	ex_module_free(rm);
	static const struct { const char *text; enum ex_status st; } cases[] = {
		{ "sust.p.2d.b32.trap [%rd1, {%r1, %r2}], {%r1};", EX_UNSUPPORTED },
		{ "tex.2d.v2.f16x2.f32 {%r1, %r2}, [%rd1, {%f1, %f2}];", EX_UNSUPPORTED },
		{ "tld4.r.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2, %f3, %f4}];", EX_UNSUPPORTED },
		{ "tex.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1}];", EX_INVALID_PTX },
		{ "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1}];", EX_INVALID_PTX },
		{ "suld.b.2d.v2.b32.zero {%r1}, [%rd1, {%r1, %r2}];", EX_INVALID_PTX },
		{ "tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%r1, {%f1}];", EX_INVALID_PTX },
	};

	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		char ptx[768], log[256] = "";
		struct ex_module *m = NULL;
		snprintf(ptx, sizeof ptx,
			 ".version 8.0\n.target sm_90\n.address_size 64\n"
			 ".visible .entry k()\n{\n.reg .f32 %%f<5>;\n.reg .b32 %%r<5>;\n"
			 ".reg .b64 %%rd<2>;\n%s\nret;\n}\n", cases[k].text);
		enum ex_status st = ex_module_parse(ptx, strlen(ptx), 90, &m, log, sizeof log);
		ok(st == cases[k].st && strstr(log, "line 9"), "refused at load (%d), "
		   "naming its line: %s -> %s", (int)st, cases[k].text, log);
		ex_module_free(m);
	}
}

int main(void)
{
	size_t plen = 0, rlen = 0;
	char *ptx = slurp("probes/texture.ptx", &plen);
	char *res = slurp("probes/results/texture.txt", &rlen);
	struct ex_module *m = NULL;
	char log[1024] = "";

	if (!ok(ptx && res, "the probe's PTX and its results are readable") ||
	    !ok(ex_module_parse(ptx, plen, 90, &m, log, sizeof log) == EX_OK,
		"the probe's PTX loads: %s", log)) {
		free(ptx);
		free(res);
		return done_testing();
	}
	fetches(m, res);
	surfaces(m, res);
	surface_faults(m);
	empty_resource(m);
	ex_module_free(m);
	refusals();
	free(ptx);
	free(res);
	return done_testing();
}
