/*
 * outward.h - what the files of runtime/outward/ (what leaves the process:
 * the control server, the ctl classes, the event log) share among
 * themselves. Nothing below them includes it.
 */
#ifndef CUEMU_OUTWARD_H
#define CUEMU_OUTWARD_H

#include "model/internal.h"

/* The event log (events.c): lines after sequence number since (exclusive),
 * at most max, as a JSON array of {"seq":N,"line":"..."}; *last gets the
 * newest seq. */
json_t *cuemu_event_since(uint64_t since, size_t max, uint64_t *last);

/* The process's last refused /cu write: CUresult name and a sentence. */
void cuemu_set_last_error(CUresult r, const char *msg);
json_t *cuemu_last_error_json(void);

#endif
