/*
 * perf.h - the event bus of the managed memory model. The mechanism
 * (managed.c) says what happens to ranges: a processor uses one, a fault is
 * about to migrate one, a fault was resolved, bytes moved, a block was
 * evicted, a device has no room. The policies subscribe and react: evict.c
 * keeps the LRU order and makes room, thrash.c detects thrashing and asks
 * for pinning. The shape is NVIDIA's UVM driver's (uvm_perf_events.c, with
 * uvm_perf_thrashing.c and uvm_perf_prefetch.c subscribing), so that a new
 * heuristic (prefetch growth, access counters, the timing model) is a file
 * of its own that subscribes, not a change in the middle of the mechanism.
 *
 * Kernels' launches are on the bus too (fault.c says them: a launch begins,
 * a warp looks a page up, a launch ends), and every event raised by a
 * running launch's threads carries that launch (.launch), so that the
 * per-kernel accounting (kstats.c) is one more subscriber.
 *
 * Locking: notifications are made with cuemu_lock() held, and callbacks run
 * under it, in the order they subscribed. Subscribe from a constructor,
 * before any thread runs: the table is not locked.
 */
#ifndef CUEMU_PERF_H
#define CUEMU_PERF_H

#include "model/managed.h"

enum perf_event {
	/* A fault or a prefetch uses r (each range it visits, first thing);
	 * a fault's use may end a pin that has lapsed (thrash.c answers
	 * .unpinned): .use */
	PERF_EVENT_USE,
	/* A fault is about to migrate r (not read-mostly) to proc at model
	 * time .now_ns; a subscriber answers a thrashing hint (throttle, or
	 * pin at a location): .fault_migrate */
	PERF_EVENT_FAULT_MIGRATE,
	/* An access by proc over [s, e) was resolved as a fault (mg_fault:
	 * the SIGSEGV handler, emulated kernels, declared accesses, copies):
	 * .fault */
	PERF_EVENT_FAULT,
	/* bytes of st moved from one processor to another: .migration */
	PERF_EVENT_MIGRATION,
	/* [s, e) of st left dev for the host: .eviction */
	PERF_EVENT_EVICTION,
	/* bytes do not fit on dev; a subscriber may free room there, adding
	 * the model cost to .cost. [s, e) of st is what is being brought in
	 * and must stay: .no_room */
	PERF_EVENT_NO_ROOM,
	/* A counter of st moved by n for proc (mg_count): .count */
	PERF_EVENT_COUNT,
	/* A kernel's launch starts running on its stream: .launch */
	PERF_EVENT_LAUNCH_BEGIN,
	/* One of its warps looked up the 4 KiB page at .page.s of allocation
	 * .page.alloc (once per warp and page: the engine's translation
	 * cache missed); .st is NULL */
	PERF_EVENT_LAUNCH_PAGE,
	/* It ended; .launch has its results and model time */
	PERF_EVENT_LAUNCH_END,
	PERF_EVENT__COUNT
};

/* Where a launch's bytes were, as the engine tallied them (the bridge's
 * numbering, driver/launch.c). */
enum perf_place {
	PERF_PLACE_DEVICE,  /* its GPU's own memory */
	PERF_PLACE_PEER,    /* another GPU's, over peer access */
	PERF_PLACE_HOST,    /* pinned or registered host memory */
	PERF_PLACE_MANAGED, /* managed memory, wherever it was */
	PERF_PLACES
};

/* A kernel's launch, as the bus says it. Kept by fault.c while it runs. */
struct perf_launch {
	uint64_t seq;                  /* the process's launches, from 1 */
	char *kernel;                  /* its PTX entry name */
	int dev;
	uint64_t stream;               /* the stream's id (cuStreamGetId) */
	uint32_t grid[3], block[3];
	uint32_t shared_bytes;         /* static and dynamic */
	uint32_t registers;            /* as cuFuncGetAttribute answers */
	uint64_t start_ns;             /* its stream's model time at start */
	/* At its end: */
	uint64_t model_ns;             /* what it adds to its stream's clock */
	uint64_t fault_ns;             /* of that, its faults' service */
	uint64_t bytes_read[PERF_PLACES], bytes_written[PERF_PLACES];
	/* PERF_PLACE_PEER's bytes by the peer GPU they were on */
	uint64_t peer_read[CUEMU_MAX_DEVICES], peer_written[CUEMU_MAX_DEVICES];
	int status;                    /* its CUresult */
};

struct perf_data {
	struct mstate *st;
	/* The launch whose threads raised the event, or NULL. */
	const struct perf_launch *launch;
	union {
		struct {
			struct mrange *r;
			int proc;
			bool fault;        /* a fault's, not a prefetch's */
			uint64_t now_ns;   /* model time of a fault's use */
			bool unpinned;     /* out: r's pin lapsed and ended */
		} use;
		struct {
			struct mrange *r;
			int proc;
			uint64_t now_ns;   /* model time of the access */
			int hint;          /* out: enum thrash_hint */
			int pin_proc;      /* out: where, for THRASH_PIN */
			bool unpinned;     /* out: a pin lapsed */
		} fault_migrate;
		struct {
			uintptr_t s, e;
			int proc;
			bool write;
			uint64_t faults;   /* faults counted, as mg_fault's */
			uint64_t pinned;   /* ranges newly pinned on
			                    * FAULT_MIGRATE */
			int pin_proc;      /* where the last was pinned */
			uint64_t throttled; /* ranges throttled */
			bool unpinned;     /* a pin lapsed */
		} fault;
		struct {
			int from, to;
			uint64_t bytes;
			bool fault;        /* by a fault, not a prefetch */
		} migration;
		struct {
			int dev;
			uintptr_t s, e;
		} eviction;
		struct {
			int dev;
			uint64_t bytes;
			uintptr_t s, e;
			uint64_t cost;     /* out: ns */
		} no_room;
		struct {
			int proc;
			int counter;       /* enum cuemu_counter */
			uint64_t n;
		} count;
		struct {
			uint64_t alloc;    /* the allocation's id */
			uintptr_t s;
			bool write;
		} page;
	};
};

typedef void (*perf_cb)(enum perf_event ev, struct perf_data *d);

/* Adds cb to ev's subscribers. Modules subscribe from their constructors:
 * an event with no room left is a mistake in the library itself, said on
 * stderr and aborted on at load, not a module silently left out. */
void perf_subscribe(enum perf_event ev, perf_cb cb);
/* Calls ev's subscribers; d->launch, where NULL, becomes the launch this
 * thread runs, as the launch source says. */
void perf_notify(enum perf_event ev, struct perf_data *d);
/* fn answers the launch the calling thread runs, or NULL (fault.c's
 * fault_launch_running). Set from a constructor. */
void perf_set_launch_source(const struct perf_launch *(*fn)(void));

#endif
