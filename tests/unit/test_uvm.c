/*
 * test_uvm.c - the timing model's mechanisms, checked directly (the files
 * are compiled into this test): the residency decision in the driver's
 * order, one fact a branch (residency.c); prefetch growth inside a 2 MiB
 * block (prefetch.c); fault batches (batch.c); a GPU's wake (wake.c);
 * thrashing detection,
 * throttling, pinning and unpinning in model time (thrash.c). No timings:
 * the costs are bench/'s ("model vs H200").
 *
 * The model's helpers these files call are stood in for below, on a
 * machine of four GPUs, 0 and 1 NVLink peers, 2 and 3 not, and a host
 * whose CPU maps only its own memory.
 */
#include "model/perf.h"
#include "model/uvm.h"
#include "model/wake.h"
#include "tap.h"

#define KIB (1UL << 10)
#define MIB (1UL << 20)
#define H CUEMU_PROC_HOST

/* ------------------------------------------------------------ stand-ins */

int cuemu_loc_proc(CUmemLocation l)
{
	switch (l.type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		return l.id;
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		return H;
	default:
		return -1;
	}
}

const char *cuemu_proc_str(int p, char *b, size_t n)
{
	snprintf(b, n, p == H ? "cpu" : "gpu%d", p);
	return b;
}

void cuemu_event_log(const char *type, const char *fmt, ...)
{
	(void)type;
	(void)fmt;
}

void mg_count(struct mstate *st, int proc, enum cuemu_counter c, uint64_t n)
{
	(void)st;
	(void)proc;
	(void)c;
	(void)n;
}

void perf_subscribe(enum perf_event ev, perf_cb cb)
{
	(void)ev;
	(void)cb;
}

static struct cuemu_uvm params;

const struct cuemu_uvm *cuemu_uvm(void)
{
	return &params;
}

/* Without a machine, every processor the mask can name, in order. */
int cuemu_proc_next(int p)
{
	return p + 1 <= CUEMU_PROC_HOST ? p + 1 : CUEMU_NPROC;
}

static bool can_map(int proc, int loc)
{
	if (proc == loc || loc == H)
		return true;
	if (proc == H)
		return false;
	return (proc < 2) == (loc < 2) && proc < 2;
}

static double gbps(int from, int to)
{
	if (from == H || to == H)
		return 47.5;
	return can_map(to, from) ? 117 : 10;
}

const struct mg_reach mg_machine_reach = { can_map, gbps };
static const struct mg_reach *reach = &mg_machine_reach;

static inline cuemu_procmask bit(int p)
{
	return (cuemu_procmask)1 << p;
}

static CUmemLocation dev(int d)
{
	return (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, d };
}

static const CUmemLocation host = { CU_MEM_LOCATION_TYPE_HOST, 0 };
static const CUmemLocation none = { CU_MEM_LOCATION_TYPE_INVALID, 0 };

static struct mrange range(cuemu_procmask holders, CUmemLocation pref)
{
	struct mrange r;

	memset(&r, 0, sizeof r);
	r.holders = holders;
	r.pref = pref;
	r.host_node = -1;
	return r;
}

/* ---------------------------------------------------- the decision */

static void is_choice(struct mg_choice c, enum mg_act act, int to,
		      enum mg_branch br, const char *what)
{
	ok(c.act == act && c.to == to && c.branch == br,
	   "decision: %s (act %d to %d branch %d)", what, c.act, c.to,
	   c.branch);
}

static void test_decide(void)
{
	struct mrange r;

	r = range(bit(0), none);
	is_choice(mg_decide(&r, 0, false, reach), MG_NONE, 0, MG_BR_RESIDENT,
		  "a read of what gpu0 holds needs nothing");
	r = range(bit(0) | bit(H), none);
	r.read_mostly = true;
	is_choice(mg_decide(&r, 0, true, reach), MG_COLLAPSE, 0,
		  MG_BR_READ_DUP, "a write to a duplicated copy collapses "
		  "the others");
	r = range(bit(0), none);
	r.read_mostly = true;
	is_choice(mg_decide(&r, 0, true, reach), MG_COLLAPSE, 0,
		  MG_BR_READ_DUP, "a write to a read-mostly copy, even the "
		  "only one, is serviced (it is mapped read-only)");

	/* 1. read duplication, before the preferred location */
	r = range(bit(H), dev(1));
	r.read_mostly = true;
	is_choice(mg_decide(&r, 0, false, reach), MG_DUP, 0, MG_BR_READ_DUP,
		  "read-mostly: a read makes a copy on gpu0, whatever the "
		  "preferred location");
	is_choice(mg_decide(&r, 0, true, reach), MG_MIGRATE, 0,
		  MG_BR_READ_DUP, "read-mostly: a write brings the pages "
		  "to gpu0 alone");

	/* 2. the faulting processor is the preferred location */
	r = range(bit(H), dev(0));
	r.accessed_by = bit(0);
	is_choice(mg_decide(&r, 0, false, reach), MG_MIGRATE, 0,
		  MG_BR_PREFERRED, "the preferred location gpu0 faults: the "
		  "pages come home, accessed-by or not");

	/* 3. a thrashing pin */
	r = range(bit(0), none);
	r.pinned = true;
	r.pin_proc = 0;
	is_choice(mg_decide(&r, 1, false, reach), MG_REMOTE, 0, MG_BR_PIN,
		  "pinned on gpu0: its peer gpu1 maps it there");
	is_choice(mg_decide(&r, H, false, reach), MG_MIGRATE, H,
		  MG_BR_TO_REQUESTER, "pinned on gpu0: the CPU, which cannot "
		  "map it, takes it");

	/* 4. first touch */
	r = range(0, host);
	is_choice(mg_decide(&r, 0, false, reach), MG_POPULATE, H,
		  MG_BR_FIRST_TOUCH, "never populated, preferred on the "
		  "host: populated there, gpu0 maps it");
	r = range(0, dev(1));
	is_choice(mg_decide(&r, H, true, reach), MG_POPULATE, H,
		  MG_BR_FIRST_TOUCH, "never populated, preferred on gpu1, "
		  "touched by the CPU (which cannot map gpu1): on the host");
	r = range(0, dev(1));
	is_choice(mg_decide(&r, 0, true, reach), MG_POPULATE, 1,
		  MG_BR_FIRST_TOUCH, "never populated, preferred on gpu1, "
		  "touched by its peer gpu0: on gpu1");
	r = range(0, none);
	is_choice(mg_decide(&r, 2, false, reach), MG_POPULATE, 2,
		  MG_BR_FIRST_TOUCH, "never populated, no preference: where "
		  "it is touched");

	/* 5. accessed-by keeps residency and maps */
	r = range(bit(H), none);
	r.accessed_by = bit(0);
	is_choice(mg_decide(&r, 0, true, reach), MG_REMOTE, H,
		  MG_BR_ACCESSED_BY, "accessed by gpu0: the pages stay on "
		  "the host, gpu0 maps them");
	r = range(bit(2), none);
	r.accessed_by = bit(0);
	is_choice(mg_decide(&r, 0, false, reach), MG_MIGRATE, 0,
		  MG_BR_TO_REQUESTER, "accessed by gpu0 but on gpu2, which "
		  "it cannot map: migrated");

	/* 6. to the preferred location, mapped remotely */
	r = range(bit(H), dev(1));
	is_choice(mg_decide(&r, 0, false, reach), MG_MIGRATE, 1,
		  MG_BR_TO_PREFERRED, "preferred on gpu1, on the host, read "
		  "by gpu0: it goes to gpu1, gpu0 maps it");
	r = range(bit(1), dev(1));
	is_choice(mg_decide(&r, 0, false, reach), MG_REMOTE, 1,
		  MG_BR_TO_PREFERRED, "preferred on gpu1 and there: gpu0 "
		  "maps it");
	r = range(bit(1), host);
	is_choice(mg_decide(&r, 0, false, reach), MG_MIGRATE, H,
		  MG_BR_TO_PREFERRED, "preferred on the host, on gpu1: it "
		  "goes home, gpu0 maps it there");
	r = range(bit(0), dev(0));
	is_choice(mg_decide(&r, H, false, reach), MG_MIGRATE, H,
		  MG_BR_TO_REQUESTER, "preferred on gpu0, read by the CPU, "
		  "which cannot map GPU memory: to the host");

	/* 7. otherwise to the faulting processor */
	r = range(bit(H), none);
	is_choice(mg_decide(&r, 0, false, reach), MG_MIGRATE, 0,
		  MG_BR_TO_REQUESTER, "no policy, on the host: to gpu0");
	r = range(bit(0), none);
	is_choice(mg_decide(&r, 1, true, reach), MG_MIGRATE, 1,
		  MG_BR_TO_REQUESTER, "no policy, on gpu0: to gpu1");
}

/* ---------------------------------------------------- prefetch growth */

static int dest;

static void give(struct mrange *r, void *arg)
{
	(void)arg;
	r->holders = bit(dest);
}

static void test_prefetch(void)
{
	struct mranges m;
	uintptr_t b = 64 * MIB, s, e;

	ok(mr_init(&m, b, b + 4 * MIB) == 0, "prefetch: a 4 MiB range model");
	dest = 0;
	pf_region(&m, b + 5000, 0, b, b + 2 * MIB, 51, true, false, &s, &e);
	ok(s == b && e == b + 64 * KIB, "prefetch: a fault in an empty block "
	   "brings its 64 KiB big page ([%lu, %lu) KiB)",
	   (unsigned long)((s - b) / KIB), (unsigned long)((e - b) / KIB));
	mr_update(&m, b, b + 64 * KIB, give, NULL);
	pf_region(&m, b + 64 * KIB, 0, b, b + 2 * MIB, 51, true, false, &s, &e);
	ok(s == b && e == b + 128 * KIB, "prefetch: the next big page fills "
	   "its 128 KiB region, which grows to it ([%lu, %lu) KiB)",
	   (unsigned long)((s - b) / KIB), (unsigned long)((e - b) / KIB));
	mr_update(&m, b, b + 1 * MIB, give, NULL);
	pf_region(&m, b + 1 * MIB, 0, b, b + 2 * MIB, 51, true, false, &s, &e);
	ok(s == b && e == b + 2 * MIB, "prefetch: half the block resident "
	   "and a fault past it: more than 51%% of the 2 MiB, all of it");
	pf_region(&m, b + 1 * MIB, 1, b, b + 2 * MIB, 51, true, false, &s, &e);
	ok(s == b + 1 * MIB && e == b + 1 * MIB + 64 * KIB, "prefetch: "
	   "residency on another GPU does not count");
	mr_update(&m, b, b + 4 * MIB, give, NULL);
	dest = H;
	mr_update(&m, b + 512 * KIB, b + 4 * MIB, give, NULL);
	pf_region(&m, b + 1 * MIB, 0, b, b + 2 * MIB, 51, true, false, &s, &e);
	ok(s == b + 1 * MIB && e == b + 1 * MIB + 64 * KIB, "prefetch: a "
	   "quarter of the block resident: no growth past the big page");
	pf_region(&m, b + 1 * MIB, 0, b, b + 2 * MIB, 20, true, false, &s, &e);
	ok(s == b && e == b + 2 * MIB, "prefetch: with a 20%% threshold the "
	   "same fault brings the block");
	pf_region(&m, b + 1 * MIB, 0, b, b + 2 * MIB, 20, false, false, &s, &e);
	ok(s == b + 1 * MIB && e == b + 1 * MIB + 64 * KIB, "prefetch: off, "
	   "the big page alone");
	pf_region(&m, b + 1 * MIB + 8 * KIB, 0, b, b + 2 * MIB, 20, true, true,
		  &s, &e);
	ok(s == b + 1 * MIB + 8 * KIB && e == s + 4 * KIB, "prefetch: a "
	   "thrashing block grows nothing: the 4 KiB page");
	pf_region(&m, b + 2 * MIB + 20 * KIB, 0, b + 2 * MIB + 16 * KIB,
		  b + 2 * MIB + 40 * KIB, 51, true, false, &s, &e);
	ok(s == b + 2 * MIB + 16 * KIB && e == b + 2 * MIB + 40 * KIB,
	   "prefetch: never past the bounds of its block's policy");
	mr_destroy(&m);
}

/* ---------------------------------------------------- fault batches */

static void test_batches(void)
{
	struct km_tally t;
	struct km_rates r;

	is_int(km_batches(0, 256), 0, "batches: no entries, no batch");
	is_int(km_batches(1, 256), 1, "batches: one entry, one batch");
	is_int(km_batches(256, 256), 1, "batches: 256 entries fit one batch");
	is_int(km_batches(257, 256), 2, "batches: the 257th opens another");
	is_int(km_batches(262144, 256), 1024, "batches: 1 GiB of 4 KiB "
	       "entries is 1024 batches");
	memset(&t, 0, sizeof t);
	memset(&r, 0, sizeof r);
	r.batch_faults = 256;
	r.batch_ns = 1000;
	r.fault_ns = 10;
	r.gbps[0] = 10;
	t.entries = 512;
	t.service_ns = 7;
	t.bytes[0] = 1000;
	is_int(km_cost(&t, &r), 512 * 10 + 2 * 1000 + 7 + 100, "batches: a "
	       "kernel pays each entry, each batch, its services and its "
	       "bytes at their location's rate");
	t.bytes[0] = 0;
	t.bytes[1] = 1000;
	is_int(km_cost(&t, &r), 512 * 10 + 2 * 1000 + 7, "batches: bytes "
	       "where the kernel has no rate cost nothing");
	r.wave_ns = 75000;
	t.waves = KM_WAVE_WRITE;
	is_int(km_cost(&t, &r), 75000 + 512 * 10 + 2 * 1000 + 7, "waves: "
	       "faults in one wave wake the service once");
	t.waves = KM_WAVE_READ | KM_WAVE_WRITE;
	is_int(km_cost(&t, &r), 2 * 75000 + 512 * 10 + 2 * 1000 + 7, "waves: "
	       "reads' faults, then writes' after their replay: twice");
	t.entries = 0;
	t.service_ns = 0;
	t.waves = 0;
	is_int(km_cost(&t, &r), 0, "waves: a kernel that faults nothing "
	       "wakes nothing");
}

/* What the DRAM moves of a kernel that rereads (km_dram_bytes), and the
 * caches' rate as a floor of its memory time. */
static void test_cache(void)
{
	const uint64_t mib = 1 << 20, l2 = 60 * mib;
	struct km_tally t;
	struct km_rates r;

	is_int(km_dram_bytes(64 * mib, 0, 0, l2), 64 * mib, "cache: pages "
	       "not known, every unit from the DRAM");
	is_int(km_dram_bytes(2 * mib, 128 * mib, 64 * mib, l2), 2 * mib,
	       "cache: sparse touches move less than their pages: theirs");
	is_int(km_dram_bytes(640 * mib, 10 * mib, 5 * mib, l2), 10 * mib,
	       "cache: rereads of what fits in the L2: its pages once");
	is_int(km_dram_bytes(640 * mib, 120 * mib, 120 * mib, l2),
	       120 * mib + 260 * mib, "cache: 120 MiB past a 60 MiB L2: half "
	       "the rereads from the DRAM again");
	memset(&t, 0, sizeof t);
	memset(&r, 0, sizeof r);
	r.gbps[0] = 1000;
	r.cache_gbps = 4000;
	t.bytes[0] = 1000000;
	t.cache_read = 8000000;
	t.cache_at = 0;
	is_int(km_memory_ns(&t, &r), 2000, "cache: sectors beyond the "
	       "caches' rate bound the memory time (8 MB at 4000, not 1 MB "
	       "at 1000)");
	t.cache_read = 2000000;
	is_int(km_memory_ns(&t, &r), 1000, "cache: ... and the DRAM's where "
	       "it is slower");
	r.sms = 132;
	t.cache_sms = 33;
	is_int(km_memory_ns(&t, &r), 2000, "cache: blocks on a quarter of "
	       "the SMs have a quarter of the caches' rate: 2 MB at 1000");
	t.cache_sms = 8;
	is_int(km_memory_ns(&t, &r), 8250, "cache: ... on 8 of 132, 8/132 of "
	       "it: 2 MB at 242 (CORR's last kernel, eight blocks)");
	t.cache_sms = 132;
	is_int(km_memory_ns(&t, &r), 1000, "cache: on all of them, all of it");
}

/* A page of a kernel's own GPU's memory the L2 did not keep opens a row
 * of the DRAM at least (uvm.dram_page_mps; probes/results/prefnoop.txt):
 * a touch of a few bytes of many pages is bound by their count, a stream
 * by its bytes. */
static void test_dram_pages(void)
{
	struct km_tally t;
	struct km_rates r;

	memset(&t, 0, sizeof t);
	memset(&r, 0, sizeof r);
	r.gbps[0] = 1850;
	r.dram_pages_ns = 12.2;
	t.cache_at = 0;
	t.bytes[0] = 262144 * 64;
	t.dram_pages = 262144;
	is_int(km_memory_ns(&t, &r), 21487, "dram pages: a byte touched in "
	       "each page of 1 GiB the L2 did not keep takes 262,144 pages at "
	       "12,200 a microsecond, not its 16 MiB of units' 9,068 ns");
	t.dram_pages = 0;
	is_int(km_memory_ns(&t, &r), 9068, "dram pages: ... where the L2 "
	       "kept them, its units'");
	t.bytes[0] = 1ULL << 30;
	t.dram_pages = 262144;
	is_int(km_memory_ns(&t, &r), 580400, "dram pages: a stream of the "
	       "same pages, its bytes'");
	t.bytes[0] = 262144 * 64;
	r.dram_pages_ns = 0;
	is_int(km_memory_ns(&t, &r), 9068, "dram pages: no rate, no bound");
}

/* The caches' paths (km_memory_ns): every load sector passes an L1 at
 * l1_gbps, what the L1 did not serve goes on to the L2 (loads and merged
 * stores at cache_gbps, stores to new lines at store_gbps, one after the
 * other), and the L1 and the L2 work side by side. */
static void test_cache_paths(void)
{
	struct km_tally t;
	struct km_rates r;

	memset(&t, 0, sizeof t);
	memset(&r, 0, sizeof r);
	r.gbps[0] = 1000;
	r.cache_gbps = 8000;
	r.l1_gbps = 32000;
	r.store_gbps = 4000;
	t.cache_at = 0;
	t.cache_read = 32000000;
	t.cache_l1 = 32000000;
	is_int(km_memory_ns(&t, &r), 1000, "caches: 32 MB of loads the L1 "
	       "held pass it at its rate, not the L2's 4000 ns");
	t.cache_l1 = 24000000;
	is_int(km_memory_ns(&t, &r), 1000, "caches: ... the 8 MB it missed "
	       "go to the L2 beside it: 1000 ns each");
	t.cache_l1 = 0;
	is_int(km_memory_ns(&t, &r), 4000, "caches: loads it never held take "
	       "the L2's 4000 ns");
	t.cache_read = 32000000;
	t.cache_l1 = 32000000;
	t.cache_written = 8000000;
	is_int(km_memory_ns(&t, &r), 2000, "caches: 8 MB of stores to new "
	       "lines take the L2's store rate, 2000 ns, the L1's loads "
	       "beside them");
	t.cache_merged = 8000000;
	is_int(km_memory_ns(&t, &r), 1000, "caches: ... stores to a warp's "
	       "last store's lines at the L2's own rate, 1000 ns");
	t.cache_l1 = 0;
	t.cache_merged = 0;
	is_int(km_memory_ns(&t, &r), 6000, "caches: loads from the L2 and "
	       "stores to it one after the other: 4000 + 2000 ns");
	r.l1_gbps = 0;
	r.store_gbps = 0;
	t.cache_l1 = 32000000;
	is_int(km_memory_ns(&t, &r), 5000, "caches: no L1 or store rate: "
	       "every sector at the caches' rate, 40 MB in 5000 ns");
}

/* A kernel's chains (km_chain_ns): its longest block's, or the blocks'
 * sum over the SMs' places for them, whichever is longer; and a chain
 * bounds the kernel's time as its memory and compute do (km_cost). */
static void test_chains(void)
{
	struct km_work w;
	struct km_rates r;
	struct km_tally t;

	memset(&w, 0, sizeof w);
	memset(&r, 0, sizeof r);
	r.sms = 132;
	r.clock_khz = 2000000;   /* 2 cycles a ns */
	w.chain_max = 2000000;
	w.chain_sum = 8 * 2000000;
	w.resident = 8;
	is_int(km_chain_ns(&w, &r), 1000000, "chains: eight blocks of 2M "
	       "cycles side by side: the longest, 1 ms at 2 GHz");
	w.chain_sum = 132 * 8 * 3 * 2000000ULL;
	is_int(km_chain_ns(&w, &r), 3000000, "chains: three blocks for each "
	       "of an SM's eight places: three blocks' time");
	w.resident = 0;
	w.chain_sum = 132 * 2 * 2000000ULL;
	is_int(km_chain_ns(&w, &r), 2000000, "chains: residency unknown, a "
	       "block an SM");
	w.chain_max = 0;
	is_int(km_chain_ns(&w, &r), 0, "chains: untimed, nothing");
	memset(&t, 0, sizeof t);
	t.compute_ns = 500;
	t.chain_ns = 1000000;
	t.launch_ns = 5600;
	is_int(km_cost(&t, &r), 1005600, "chains: a chain longer than the "
	       "compute time is the kernel's, after its launch");
}

/* ---------------------------------------------------- a GPU's wake */

/* probes/results/idlewake.txt, one H200: what a kernel took after the
 * host slept with nothing queued, beyond the same kernel back to back;
 * the mean of a 1 GiB touch's and an empty kernel's (five each). */
static void test_wake(void)
{
	static const struct { uint64_t idle_ns, extra_ns; } real[] = {
		{ 20000, 0 }, { 100000, 0 }, { 300000, 1000 },
		{ 1000000, 9300 }, { 3000000, 13300 }, { 10000000, 24700 },
		{ 30000000, 33200 }, { 100000000, 37200 },
	};

	for (size_t i = 0; i < sizeof real / sizeof *real; i++) {
		uint64_t w = km_wake_ns(real[i].idle_ns, &params);
		uint64_t d = w > real[i].extra_ns ? w - real[i].extra_ns
						  : real[i].extra_ns - w;

		ok(d <= 5000, "wake: after %llu us idle a kernel pays %llu ns, "
		   "the H200 %llu (within 5 us)",
		   (unsigned long long)real[i].idle_ns / 1000,
		   (unsigned long long)w, (unsigned long long)real[i].extra_ns);
	}
	is_int(km_wake_ns(0, &params), 0, "wake: none back to back");
	is_int(km_wake_ns(UINT64_MAX, &params), params.wake_max_ns,
	       "wake: a first kernel, its idle unknown, pays the most");
	ok(km_wake_ns(2000000, &params) < km_wake_ns(20000000, &params),
	   "wake: the longer idle, the more");
}

/* probes/results/idlepeer.txt, two H200s: gpu0's 1 GiB touch after 10 ms
 * of gpu0 idle took 35.6 us (5 kernels' mean) left alone, 23.9 with gpu1
 * reading gpu0's memory, 22.3 with a peer copy out of it; 15.8 awake. */
static void test_wake_kept(void)
{
	const uint64_t ms = 1000000, t0 = 50 * ms, start = t0 + 10 * ms;
	struct gpu_idle alone = { true, t0, 0 };
	struct gpu_idle peer = { true, t0, start };
	struct gpu_idle before = { true, t0, t0 - ms };
	struct gpu_idle fresh = { false, 0, start };
	uint64_t w_alone = wake_due_ns(&alone, start, &params);
	uint64_t w_peer = wake_due_ns(&peer, start, &params);

	ok(w_alone > 0 && w_peer * 100 >= w_alone * 30 &&
	   w_peer * 100 <= w_alone * 42, "wake kept: after 10 ms idle with a "
	   "peer busy in its memory to the launch, %llu ns of the %llu alone "
	   "(the H200 6.5 to 8.1 us of 19.8: 0.33 to 0.41)",
	   (unsigned long long)w_peer, (unsigned long long)w_alone);
	is_int(wake_due_ns(&before, start, &params), w_alone, "wake kept: "
	       "memory busy only before its own last kernel keeps nothing");
	ok(wake_due_ns(&fresh, start, &params) < params.wake_max_ns,
	   "wake kept: a GPU no kernel of the process ran on, its memory "
	   "busy to the launch, pays less than the most");
	peer.mem_until = start - 5 * ms;
	ok(wake_due_ns(&peer, start, &params) > w_peer &&
	   wake_due_ns(&peer, start, &params) < w_alone, "wake kept: a peer "
	   "done 5 ms before the launch: between the two");

	wake_kernel_ended(3, t0, 0);
	is_int(wake_kernel_ns(3, start), w_alone, "wake kept: the process's "
	       "GPU 3 after its kernel ended at t0, alone");
	wake_memory_busy(3, start);
	is_int(wake_kernel_ns(3, start), w_peer, "wake kept: ... and after "
	       "another GPU's work used its memory to the launch");
	wake_memory_busy(3, t0);
	is_int(wake_kernel_ns(3, start), w_peer, "wake kept: an earlier end "
	       "moves nothing back");
	is_int(wake_kernel_ns(-1, start), 0, "wake kept: no GPU, no wake");
	is_int(wake_kernel_ns(CUEMU_PROC_HOST, start), 0,
	       "wake kept: the host has none");
}

/* ---------------------------------------------------- thrashing */

/* A fault by proc at time t about to migrate r. */
static struct thrash_out step(struct mrange *r, int proc, uint64_t t)
{
	return thrash_step(r, proc, t, &params, reach);
}

static void test_thrash(void)
{
	uint64_t lapse = params.thrash_lapse_ns, t = 1000;
	struct thrash_out o;
	struct mrange r;
	int i, throttles = 0;

	r = range(bit(0), none);
	for (i = 0; i < 20; i++, t += 2 * lapse)
		o = step(&r, i % 2 ? H : 0, t);
	ok(o.hint == THRASH_NONE && !r.pinned, "thrash: migrations further "
	   "apart than the lapse (model time) are no thrashing");

	r = range(bit(0), none);
	t = 1000;
	for (i = 0; i < 3; i++, t += lapse / 10)
		o = step(&r, i % 2 ? H : 0, t);
	is_int(o.hint, THRASH_NONE, "thrash: below the threshold, nothing");
	o = step(&r, H, t);
	t += lapse / 10;
	ok(o.hint == THRASH_THROTTLE && o.detected, "thrash: gpu0 and the CPU "
	   "bouncing a block within the lapse: detected, throttled first");
	for (i = 0; i < 30 && o.hint == THRASH_THROTTLE; i++, t += lapse / 10) {
		throttles++;
		o = step(&r, i % 2 ? H : 0, t);
	}
	ok(o.hint == THRASH_PIN && o.pin_proc == H && r.pinned &&
	   throttles == (int)params.thrash_pin_threshold, "thrash: pinned "
	   "after %d throttles, on the host, the one place both reach "
	   "(pin %d)", throttles, o.pin_proc);
	o = step(&r, 0, t + lapse);
	ok(o.hint == THRASH_PIN && o.pin_proc == H, "thrash: while pinned, "
	   "it stays pinned");
	ok(!thrash_unpin_due(&r, t + 10 * lapse, &params) && r.pinned,
	   "thrash: a pin holds before its time is up");
	ok(thrash_unpin_due(&r, t + (params.thrash_pin + 1) * lapse, &params) &&
	   !r.pinned && !r.moves, "thrash: after %u lapses the pin lapses "
	   "and the count starts again", params.thrash_pin);

	r = range(bit(0), dev(1));
	t = 1000;
	for (i = 0; i < 4; i++, t += lapse / 10)
		o = step(&r, i % 2 ? 1 : 0, t);
	ok(o.hint == THRASH_PIN && o.pin_proc == 1, "thrash: gpu0 and gpu1 "
	   "bouncing a block preferred on gpu1: pinned there at once (pin %d)",
	   o.pin_proc);

	r = range(bit(1), none);
	t = 1000;
	for (i = 0; i < 4; i++, t += lapse / 10)
		o = step(&r, i % 2 ? 1 : 0, t);
	ok(o.hint == THRASH_PIN && o.pin_proc == 1, "thrash: NVLink peers "
	   "bouncing a block with no preference: pinned on the GPU holding "
	   "it, which both reach (pin %d)", o.pin_proc);

	params.thrash = false;
	r = range(bit(0), none);
	t = 1000;
	for (i = 0; i < 40; i++, t += lapse / 10)
		o = step(&r, i % 2 ? H : 0, t);
	ok(o.hint == THRASH_NONE && !r.pinned, "thrash: off in the topology, "
	   "never");
	params.thrash = true;
}

/* A fault by turn.proc at turn.t migrating each range it covers, as
 * managed.c's fault_fn does: the detector's step, then the move. */
static struct {
	int proc;
	uint64_t t;
	int throttles, pins;
} turn;

static void migrate(struct mrange *r, void *arg)
{
	struct thrash_out o = step(r, turn.proc, turn.t);

	(void)arg;
	turn.throttles += o.hint == THRASH_THROTTLE;
	turn.pins += o.hint == THRASH_PIN;
	r->holders = bit(o.hint == THRASH_PIN ? o.pin_proc : turn.proc);
}

static void on_gpu0(struct mrange *r, void *arg)
{
	(void)arg;
	r->holders = bit(0);
}

/* rounds turns of gpu1 and gpu0 at [b, b + n), 2 MiB a fault, each fault
 * gap ns after the one before. */
static void take_turns(struct mranges *m, uintptr_t b, size_t n,
		       uint64_t gap, int rounds)
{
	turn.t = 1000;
	turn.throttles = turn.pins = 0;
	for (int i = 0; i < rounds; i++) {
		turn.proc = 1 - i % 2;
		for (size_t o = 0; o < n; o += 2 * MIB, turn.t += gap)
			mr_update(m, b + o, b + o + 2 * MIB, migrate, NULL);
	}
}

/* Two GPUs writing the same buffer in turn (probes/patterns.cu's
 * pingpong rows): the driver stamps each page's migration, so a turn that
 * moves 64 MiB block by block over longer than a lapse is no thrashing
 * (two H200s kept migrating, 6.5 ms a round), though the range that
 * merges behind the pass moved its last block just before the other GPU
 * begins; 2 MiB bounced within the lapse is, and NVLink peers pin it. */
static void test_thrash_turns(void)
{
	uint64_t lapse = params.thrash_lapse_ns;
	uintptr_t b = 256 * MIB;
	struct mranges m;

	ok(mr_init(&m, b, b + 64 * MIB) == 0, "turns: a 64 MiB range model");
	mr_update(&m, b, b + 64 * MIB, on_gpu0, NULL);
	take_turns(&m, b, 64 * MIB, lapse / 20, 16);
	ok(turn.throttles == 0 && turn.pins == 0 && m.n == 1,
	   "turns: 16 turns of 64 MiB, 2 MiB a fault %llu us apart (a turn "
	   "%.1f lapses): every turn migrates, no throttle (%d), no pin (%d)",
	   (unsigned long long)(lapse / 20 / 1000), 32 / 20.0,
	   turn.throttles, turn.pins);
	mr_destroy(&m);

	ok(mr_init(&m, b, b + 64 * MIB) == 0, "turns: again");
	mr_update(&m, b, b + 64 * MIB, on_gpu0, NULL);
	take_turns(&m, b, 2 * MIB, lapse / 5, 16);
	ok(turn.pins > 0 && turn.pins >= 16 - 5 && turn.throttles == 0,
	   "turns: 2 MiB in turn, a turn a fifth of a lapse: pinned on the "
	   "GPU holding it from the fourth turn on, which both reach over "
	   "NVLink (%d pinned turns, %d throttles)", turn.pins,
	   turn.throttles);
	mr_destroy(&m);
}

int main(void)
{
	cuemu_uvm_default(&params);
	test_decide();
	test_prefetch();
	test_batches();
	test_cache();
	test_cache_paths();
	test_dram_pages();
	test_chains();
	test_wake();
	test_wake_kept();
	test_thrash();
	test_thrash_turns();
	return done_testing();
}
