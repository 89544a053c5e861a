/*
 * event.c - the driver API's event management entries: cuEventCreate,
 * Destroy (both names), Record, Query, Synchronize and ElapsedTime (both
 * names). Events are the stream engine's (model/stream.c).
 *
 * No state; an entry checks its arguments and calls the engine, which
 * takes its own locks.
 */
#include "model/stream.h"
#include "driver/graph.h"

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
	const unsigned int all = CU_EVENT_BLOCKING_SYNC |
				 CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
	CUcontext ctx;
	CUresult r;

	if (!phEvent)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL event");
	if ((r = cuemu_current(&ctx, NULL)) != CUDA_SUCCESS)
		return r;
	if ((Flags & ~all) || ((Flags & CU_EVENT_INTERPROCESS) &&
			       !(Flags & CU_EVENT_DISABLE_TIMING)))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "event flags 0x%x "
				  "are not valid (INTERPROCESS needs "
				  "DISABLE_TIMING)", Flags);
	return cuemu_event_new(ctx, Flags, phEvent);
}

CUresult cuEventDestroy_v2(CUevent hEvent)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_event_release(hEvent)) == CUDA_SUCCESS)
		cuemu_capture_event_forget(hEvent);
	return r;
}

#undef cuEventDestroy
CUresult cuEventDestroy(CUevent hEvent);
CUresult cuEventDestroy(CUevent hEvent)
{
	return cuEventDestroy_v2(hEvent);
}

/* A record on a capturing stream marks the event with the stream's
 * place in the capture (capture.c); an external one is a node too. */
static CUresult record(CUevent hEvent, CUstream hStream, unsigned flags)
{
	bool taken;
	CUresult r;

	if (!hEvent)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "NULL event");
	r = cuemu_capture_record(hEvent, hStream, flags, &taken);
	return taken ? r : cuemu_event_record(hEvent, hStream);
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
	return record(hEvent, hStream, CU_EVENT_RECORD_DEFAULT);
}

CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream,
				unsigned int flags)
{
	if (flags & ~(unsigned int)CU_EVENT_RECORD_EXTERNAL)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "record flags %#x", flags);
	return record(hEvent, hStream, flags);
}

CUresult cuEventQuery(CUevent hEvent)
{
	CUresult r = cuemu_capture_event_use(hEvent, true);

	return r ? r : cuemu_event_query(hEvent);
}

CUresult cuEventSynchronize(CUevent hEvent)
{
	CUresult r = cuemu_capture_event_use(hEvent, true);

	if (r == CUDA_SUCCESS)
		r = cuemu_event_sync(hEvent);

	if (r == CUDA_SUCCESS)
		cuemu_host_synced();
	return r;
}

CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart,
			       CUevent hEnd)
{
	uint64_t t0, t1;
	CUresult r;

	/* So the driver answers (probes/results/ctx.txt). */
	if (!pMilliseconds)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "NULL result");
	/* Both events are checked before either is waited for: an end
	 * never recorded is INVALID_HANDLE even while the start is still
	 * pending (probes/results/ctx.txt: elapsed_end_never_recorded). */
	if ((r = cuemu_capture_event_use(hStart, false)) != CUDA_SUCCESS ||
	    (r = cuemu_capture_event_use(hEnd, false)) != CUDA_SUCCESS ||
	    (r = cuemu_event_timed(hStart)) != CUDA_SUCCESS ||
	    (r = cuemu_event_timed(hEnd)) != CUDA_SUCCESS ||
	    (r = cuemu_event_time(hStart, &t0)) != CUDA_SUCCESS ||
	    (r = cuemu_event_time(hEnd, &t1)) != CUDA_SUCCESS)
		return r;
	*pMilliseconds = (float)(((double)t1 - (double)t0) / 1e6);
	return CUDA_SUCCESS;
}

#undef cuEventElapsedTime
CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart,
			    CUevent hEnd);
CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart,
			    CUevent hEnd)
{
	return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}
