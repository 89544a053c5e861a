/*
 * stream.h - the stream engine's streams and events as the entry points
 * see them (stream.c): making, releasing and describing streams, and the
 * life of events. What every subsystem uses to run work on a stream
 * (enqueue, positions, model time) is declared in internal.h.
 */
#ifndef CUEMU_MODEL_STREAM_H
#define CUEMU_MODEL_STREAM_H

#include "model/internal.h"

/* A user stream of ctx (on ctx's device); OUT_OF_MEMORY without memory. */
CUresult cuemu_stream_create(CUcontext ctx, unsigned int flags, int priority,
			     CUstream *out);
/* Takes h out of use: its work finishes, then it goes. INVALID_HANDLE for
 * a handle that names no user stream. */
CUresult cuemu_stream_release(CUstream h);
int cuemu_stream_priority(CUstream s);
void cuemu_stream_set_priority(CUstream s, int priority);
/* What cuStreamSetAttribute keeps of a stream besides its priority: kept
 * and answered back; the model's timing does not depend on them. */
struct cuemu_stream_attrs {
	CUaccessPolicyWindow window;
	int sync_policy;                    /* -1: never set */
	CUlaunchMemSyncDomain domain;
	CUlaunchMemSyncDomainMap domain_map;
};
void cuemu_stream_attrs_get(CUstream s, struct cuemu_stream_attrs *out);
void cuemu_stream_attrs_set(CUstream s, const struct cuemu_stream_attrs *a);
unsigned int cuemu_stream_flags(CUstream s);
/* A user stream's context; NULL for the implicit (legacy, per-thread)
 * streams, which belong to whatever context is current. */
CUcontext cuemu_stream_ctx(CUstream s);
/* Enqueues on s an operation that takes ns of model time and does
 * nothing else (cuemuStreamSleep). */
CUresult cuemu_stream_sleep(CUstream s, uint64_t ns);
/* Every operation enqueued on s has finished. */
bool cuemu_stream_idle(CUstream s);
/* A blocking stream: not the legacy one, not made non-blocking. */
bool cuemu_stream_blocking(CUstream s);
/* Stream capture (driver/capture.c) marks the streams it captures. The
 * engine refuses new work on such a stream (what reaches the engine is
 * no node of the capture's graph: STREAM_CAPTURE_UNSUPPORTED), and on the
 * legacy stream of a device one of whose blocking streams captures
 * (STREAM_CAPTURE_IMPLICIT); fn hears of each refusal, in the refused
 * caller's thread, no lock of the engine held. Register from a
 * constructor. */
void cuemu_stream_set_capturing(CUstream s, bool on);
void cuemu_on_capture_refusal(void (*fn)(CUstream s, CUresult r));

/* Events. Every call that takes a handle answers INVALID_HANDLE for one
 * that names no live event. */
/* An event of ctx, the context current at its making: it is recorded
 * only on a stream of ctx, and named only by a launch in ctx. */
CUresult cuemu_event_new(CUcontext ctx, unsigned int flags, CUevent *out);
/* INVALID_HANDLE where h names no live event, or one of a context other
 * than ctx. */
CUresult cuemu_event_check_ctx(CUevent h, CUcontext ctx);
/* A record still pending keeps the event until it is reached. */
CUresult cuemu_event_release(CUevent h);
/* INVALID_HANDLE for an event of a context other than the stream's (an
 * implicit stream's is the current one). */
CUresult cuemu_event_record(CUevent h, CUstream s);
/* NOT_READY while the last record has not been reached. */
CUresult cuemu_event_query(CUevent h);
/* Waits for the last record, and the host's model time catches up. */
CUresult cuemu_event_sync(CUevent h);
/* Whether the event can be timed at all (timing on, recorded), whether or
 * not its record is reached: INVALID_HANDLE when not. */
CUresult cuemu_event_timed(CUevent h);
/* The model time the last record reached: INVALID_HANDLE for an event
 * without timing or never recorded, NOT_READY before it is reached. */
CUresult cuemu_event_time(CUevent h, uint64_t *ns);
/* Work enqueued on s from now on waits for the event's last record. */
CUresult cuemu_stream_wait_event(CUstream s, CUevent h);
/* An interprocess event's handle (INVALID_HANDLE for an event made
 * without CU_EVENT_INTERPROCESS, or one opened from another process). */
CUresult cuemu_event_ipc_export(CUevent h, CUipcEventHandle *out);
/* An event of this process standing for another process's exported one. */
CUresult cuemu_event_ipc_open(const CUipcEventHandle *h, CUevent *out);

#endif
