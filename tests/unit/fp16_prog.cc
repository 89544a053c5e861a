/*
 * fp16_prog.cc - prints, one TAP line each, what the host side of
 * cuda_fp16.h and cuda_bf16.h computes over a table of values chosen for
 * the edges of rounding: NaN, infinities, float and half subnormals,
 * overflow, ties to even in every direction, integers past the exact range,
 * doubles that round differently once than through float. Results are
 * printed as bits, so that a NaN's payload or a zero's sign counts too.
 *
 * Every line reads "ok"; this program judges nothing. header-compat.sh
 * builds it once against include/ and once against the CUDA toolkit's
 * headers and compares the two runs line by line: the toolkit's values are
 * the expectation. Only what the toolkit offers on the host is called.
 */
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#include <climits>
#include <cstdio>
#include <cstring>

static int facts;

static unsigned int fbits(float f)
{
	unsigned int u;

	std::memcpy(&u, &f, sizeof u);
	return u;
}

static float from_bits(unsigned int u)
{
	float f;

	std::memcpy(&f, &u, sizeof f);
	return f;
}

static double dfrom_bits(unsigned long long u)
{
	double d;

	std::memcpy(&d, &u, sizeof d);
	return d;
}

static unsigned int hb(__half h) { return static_cast<__half_raw>(h).x; }
static unsigned int bb(__nv_bfloat16 b) { return static_cast<__nv_bfloat16_raw>(b).x; }

static __half h_of(unsigned short u)
{
	__half_raw r;

	r.x = u;
	return __half(r);
}

static __nv_bfloat16 b_of(unsigned short u)
{
	__nv_bfloat16_raw r;

	r.x = u;
	return __nv_bfloat16(r);
}

#define FACT(...) do { printf("ok %d - ", ++facts); printf(__VA_ARGS__); \
		       putchar('\n'); } while (0)

/* Floats at the edges, by their bits. */
static const unsigned int float_table[] = {
	0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000,
	0x477fe000,             /* 65504, the largest half */
	0x477fe001, 0x477fefff, /* just above it, rounding back */
	0x477ff000,             /* 65520: the tie to infinity */
	0x47800000, 0x49742400, 0xc9742400,
	0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
	0x7f800001, 0x7fa00000, /* signalling NaNs */
	0x33800000,             /* 2^-24, the smallest half subnormal */
	0x33000000,             /* 2^-25: a tie to zero */
	0x33000001, 0x32ffffff, 0x33c00000, /* 1.5 * 2^-24: a tie upwards */
	0x387fc000,             /* the largest half subnormal */
	0x38800000,             /* 2^-14, the smallest normal half */
	0x387fe000,             /* a tie between them */
	0x3f801000,             /* 1 + 2^-11: a tie to 1 */
	0x3f803000,             /* 1 + 3 * 2^-11: a tie up to even */
	0x3f801001, 0x3f800fff,
	0x3f808000,             /* 1 + 2^-8: bfloat16's tie to 1 */
	0x3f818000,             /* 1 + 3 * 2^-8: its tie upwards */
	0x3f808001, 0xbf818000,
	0x00000001, 0x80000001, 0x007fffff, 0x00800000, /* float subnormals */
	0x7f7fffff, 0xff7fffff, /* FLT_MAX: bfloat16's overflow */
	0x7f7f0000, 0x7f7f8000, 0x7f7f7fff,
	0x3eaaaaab, 0xbeaaaaab, 0x3dcccccd, 0x40490fdb, 0x45000800,
	0x4f000000, 0xcf000000, 0x5f000000, 0x5f800000,
};

static void floats(void)
{
	for (unsigned int u : float_table) {
		const float v = from_bits(u);

		FACT("%#010x: half rn %04x rz %04x rd %04x ru %04x default %04x",
		     u, hb(__float2half_rn(v)), hb(__float2half_rz(v)),
		     hb(__float2half_rd(v)), hb(__float2half_ru(v)),
		     hb(__float2half(v)));
		FACT("%#010x: bfloat16 rn %04x rz %04x rd %04x ru %04x default %04x",
		     u, bb(__float2bfloat16_rn(v)), bb(__float2bfloat16_rz(v)),
		     bb(__float2bfloat16_rd(v)), bb(__float2bfloat16_ru(v)),
		     bb(__float2bfloat16(v)));
		FACT("%#010x: through half %#010x, through bfloat16 %#010x, "
		     "as __half %04x, as __nv_bfloat16 %04x", u,
		     fbits(__half2float(__float2half(v))),
		     fbits(__bfloat162float(__float2bfloat16(v))),
		     hb(__half(v)), bb(__nv_bfloat16(v)));
		FACT("%#010x: double to half %04x, to bfloat16 %04x", u,
		     hb(__double2half((double)v)),
		     bb(__double2bfloat16((double)v)));
	}
}

/* Doubles that round once differently than through float. */
static const unsigned long long double_table[] = {
	0x3ff0020000000001ull,  /* 1 + 2^-11 + 2^-52: just past a half tie */
	0x3ff0010000000001ull,  /* 1 + 2^-12 + ... */
	0x3ff0100000000001ull,  /* 1 + 2^-8 + 2^-52: past a bfloat16 tie */
	0x3e70000000000001ull,  /* 2^-24 + tiny */
	0x3e60000000000001ull,  /* 2^-25 + tiny: a half subnormal tie broken */
	0x40effc0000000000ull,  /* 65504 */
	0x40effe0000000000ull,  /* 65520 */
	0x40effdffffffffffull,  /* just below 65520 */
	0x47efffffe0000000ull,  /* FLT_MAX */
	0x7ff0000000000000ull, 0xfff8000000000000ull, 0x0000000000000001ull,
	0x8000000000000000ull, 0x3fd5555555555555ull,
};

static void doubles(void)
{
	for (unsigned long long u : double_table) {
		const double d = dfrom_bits(u);

		FACT("%#018llx: double to half %04x, to bfloat16 %04x, "
		     "as __half %04x, as __nv_bfloat16 %04x", u,
		     hb(__double2half(d)), bb(__double2bfloat16(d)),
		     hb(__half(d)), bb(__nv_bfloat16(d)));
	}
}

static const long long int_table[] = {
	0, 1, -1, 7, 2049, 2051, -2051, 4097, 32767, -32768, 65504, 65519,
	65520, 65535, 65536, 70000, 16777217, INT_MAX, INT_MIN,
	(long long)UINT_MAX, 1LL << 53, (1LL << 53) + 1, LLONG_MAX, LLONG_MIN,
	(1LL << 40) + (1LL << 29), (1LL << 40) + (1LL << 29) + 1,
};

static void integers(void)
{
	for (long long v : int_table) {
		const int i = (int)v;
		const unsigned int ui = (unsigned int)v;
		const short s = (short)v;
		const unsigned short us = (unsigned short)v;
		const unsigned long long ull = (unsigned long long)v;

		FACT("%lld: int rn %04x rz %04x rd %04x ru %04x", v,
		     hb(__int2half_rn(i)), hb(__int2half_rz(i)),
		     hb(__int2half_rd(i)), hb(__int2half_ru(i)));
		FACT("%lld: uint rn %04x rz %04x rd %04x ru %04x", v,
		     hb(__uint2half_rn(ui)), hb(__uint2half_rz(ui)),
		     hb(__uint2half_rd(ui)), hb(__uint2half_ru(ui)));
		FACT("%lld: short rn %04x rz %04x rd %04x ru %04x", v,
		     hb(__short2half_rn(s)), hb(__short2half_rz(s)),
		     hb(__short2half_rd(s)), hb(__short2half_ru(s)));
		FACT("%lld: ushort rn %04x rz %04x rd %04x ru %04x", v,
		     hb(__ushort2half_rn(us)), hb(__ushort2half_rz(us)),
		     hb(__ushort2half_rd(us)), hb(__ushort2half_ru(us)));
		FACT("%lld: ll rn %04x rz %04x rd %04x ru %04x", v,
		     hb(__ll2half_rn(v)), hb(__ll2half_rz(v)),
		     hb(__ll2half_rd(v)), hb(__ll2half_ru(v)));
		FACT("%lld: ull rn %04x rz %04x rd %04x ru %04x", v,
		     hb(__ull2half_rn(ull)), hb(__ull2half_rz(ull)),
		     hb(__ull2half_rd(ull)), hb(__ull2half_ru(ull)));
		FACT("%lld: to bfloat16 int %04x uint %04x short %04x ushort %04x "
		     "ll %04x ull %04x", v, bb(__int2bfloat16_rn(i)),
		     bb(__uint2bfloat16_rn(ui)), bb(__short2bfloat16_rn(s)),
		     bb(__ushort2bfloat16_rn(us)), bb(__ll2bfloat16_rn(v)),
		     bb(__ull2bfloat16_rn(ull)));
		FACT("%lld: constructors __half(int) %04x __half(long long) %04x "
		     "__nv_bfloat16(int) %04x", v, hb(__half(i)), hb(__half(v)),
		     bb(__nv_bfloat16(i)));
	}
}

/* Half and bfloat16 bit patterns at the edges of the integer types. */
static const unsigned short half_table[] = {
	0x0000, 0x8000, 0x0001, 0x3800, 0xb800, 0x3c00, 0xbc00, 0x3e00,
	0x4248, 0xc248, 0x57f8, 0x5bf8, 0x7800, 0xf800, 0x7bff, 0xfbff,
	0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01,
};

static const unsigned short bf16_table[] = {
	0x0000, 0x8000, 0x0001, 0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4049,
	0x42ff, 0x4300, 0xc300, 0x46ff, 0x4700, 0x4f00, 0xcf00, 0x4f80,
	0x5f00, 0xdf00, 0x5f80, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0,
	0xffc0, 0x7f81,
};

static void to_integers(void)
{
	for (unsigned short u : half_table) {
		const __half h = h_of(u);

		FACT("half %04x: float %#010x char %d uchar %u short %d ushort %u",
		     u, fbits(__half2float(h)), (int)__half2char_rz(h),
		     (unsigned)__half2uchar_rz(h), (int)__half2short_rz(h),
		     (unsigned)__half2ushort_rz(h));
		FACT("half %04x: int %d uint %u ll %lld ull %llu", u,
		     __half2int_rz(h), __half2uint_rz(h), __half2ll_rz(h),
		     __half2ull_rz(h));
		FACT("half %04x: operators int %d unsigned %u long long %lld "
		     "bool %d, to bfloat16 %04x", u, (int)h, (unsigned int)h,
		     (long long)h, (bool)h, bb(__nv_bfloat16(h)));
	}
	for (unsigned short u : bf16_table) {
		const __nv_bfloat16 b = b_of(u);

		FACT("bfloat16 %04x: float %#010x char %d uchar %u short %d "
		     "ushort %u", u, fbits(__bfloat162float(b)),
		     (int)__bfloat162char_rz(b), (unsigned)__bfloat162uchar_rz(b),
		     (int)__bfloat162short_rz(b),
		     (unsigned)__bfloat162ushort_rz(b));
		FACT("bfloat16 %04x: int %d uint %u ll %lld ull %llu", u,
		     __bfloat162int_rz(b), __bfloat162uint_rz(b),
		     __bfloat162ll_rz(b), __bfloat162ull_rz(b));
		FACT("bfloat16 %04x: operators int %d long long %lld bool %d, "
		     "to half %04x", u, (int)b, (long long)b, (bool)b,
		     hb(__half(b)));
	}
}

/* Arithmetic and comparisons on pairs from the tables. */
static void arithmetic(void)
{
	static const unsigned short hs[] = {
		0x3c00, 0x3c01, 0x0001, 0x7bff, 0xfbff, 0x7c00, 0x7e00, 0x8000,
		0x4248, 0x1400,
	};
	static const unsigned short bs[] = {
		0x3f80, 0x3f81, 0x0001, 0x7f7f, 0xff7f, 0x7f80, 0x7fc0, 0x8000,
		0x4049, 0x3c00,
	};

	for (unsigned short x : hs)
		for (unsigned short y : hs) {
			__half a = h_of(x), b = h_of(y), c = a;

			c += b;
			FACT("half %04x, %04x: + %04x - %04x * %04x / %04x += %04x "
			     "== %d != %d < %d <= %d > %d >= %d, -a %04x |a| %04x",
			     x, y, hb(a + b), hb(a - b), hb(a * b), hb(a / b),
			     hb(c), a == b, a != b, a < b, a <= b, a > b, a >= b,
			     hb(-a), hb(__habs(a)));
		}
	for (unsigned short x : bs)
		for (unsigned short y : bs) {
			__nv_bfloat16 a = b_of(x), b = b_of(y), c = a;

			c *= b;
			FACT("bfloat16 %04x, %04x: + %04x - %04x * %04x / %04x "
			     "*= %04x == %d != %d < %d >= %d, -a %04x |a| %04x",
			     x, y, bb(a + b), bb(a - b), bb(a * b), bb(a / b),
			     bb(c), a == b, a != b, a < b, a >= b, hb(__half(-a)),
			     bb(__habs(a)));
		}
	__half h = h_of(0x3c00);
	__nv_bfloat16 bf = b_of(0x3f80);

	h++;
	++bf;
	FACT("increments: half 1 -> %04x, bfloat16 1 -> %04x", hb(h), bb(bf));
}

/* The pair types and their raw forms. */
static void pairs(void)
{
	const __half2 p = __floats2half2_rn(1.5f, -65520.0f);
	const __half2_raw pr = p;
	const float2 back = __half22float2(p);
	const __nv_bfloat162 q = __floats2bfloat162_rn(3.0f, 1e-40f);
	const __nv_bfloat162_raw qr = q;
	const float2 qback = __bfloat1622float2(q);

	FACT("__half2 raw x %04x y %04x, back %#010x %#010x, low %04x high %04x",
	     pr.x, pr.y, fbits(back.x), fbits(back.y), hb(__low2half(p)),
	     hb(__high2half(p)));
	FACT("__float2half2_rn %04x, __halves2half2 y %04x, __lows2half2 y %04x",
	     hb(__float2half2_rn(0.1f).x),
	     hb(__halves2half2(h_of(1), h_of(2)).y),
	     hb(__lows2half2(p, p).y));
	FACT("__nv_bfloat162 raw x %04x y %04x, back %#010x %#010x",
	     qr.x, qr.y, fbits(qback.x), fbits(qback.y));
	FACT("__float2bfloat162_rn %04x, __halves2bfloat162 y %04x, "
	     "__low2float %#010x __high2float %#010x",
	     bb(__float2bfloat162_rn(0.1f).x),
	     bb(__halves2bfloat162(b_of(1), b_of(2)).y),
	     fbits(__low2float(q)), fbits(__high2float(q)));
	FACT("reinterpretations: %d %u %04x %04x %d %u", __half_as_short(h_of(0x8001)),
	     __half_as_ushort(h_of(0x8001)), hb(__short_as_half(-2)),
	     bb(__ushort_as_bfloat16(0x1234)),
	     __bfloat16_as_short(b_of(0xffff)), __bfloat16_as_ushort(b_of(0xffff)));
	FACT("sizes: __half %zu/%zu __half2 %zu/%zu __nv_bfloat16 %zu/%zu "
	     "__nv_bfloat162 %zu/%zu", sizeof(__half), alignof(__half),
	     sizeof(__half2), alignof(__half2), sizeof(__nv_bfloat16),
	     alignof(__nv_bfloat16), sizeof(__nv_bfloat162),
	     alignof(__nv_bfloat162));
}

int main()
{
	floats();
	doubles();
	integers();
	to_integers();
	arithmetic();
	pairs();
	printf("1..%d\n", facts);
	return 0;
}
