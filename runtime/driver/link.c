/*
 * link.c - the driver's JIT linker: cuLinkCreate, cuLinkAddData,
 * cuLinkAddFile, cuLinkComplete, cuLinkDestroy (and CUDA 5.5's names of
 * the first three). A link state gathers PTX texts (PTX itself, the entry
 * a fatbin holds for the device, the fatbins of a host object or of an
 * archive's objects); each is checked when added, alone and then against
 * the texts before it, so that a text the JIT refuses or a second
 * definition of a name is answered by the add, as the driver answers it
 * (probes/results/link.txt). cuLinkComplete links them as one module
 * (exec.h's ex_module_link: an .extern function or variable of one text
 * is the .visible one of another) and hands out libcuemu's linked image
 * (image.h), which cuModuleLoadData and cuLibraryLoadData take. Machine
 * code (a cubin) is refused as the driver refuses an image it cannot use,
 * but for the device runtime's library (libcudadevrt), whose entry points
 * the engine serves: it is taken and adds nothing.
 *
 * Locking: link_lock guards the list of live states, so that a handle is
 * checked before it is used; a state itself belongs to the thread that
 * uses it, as the driver's does (one state is not used by two threads at
 * once).
 */
#define CUEMU_SUPERSEDED_ENTRY_POINTS 1
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "model/clock.h"
#include "model/context.h"
#include "driver/driver.h"
#include "driver/image.h"
#include "exec/exec.h"

struct CUlinkState_st {
	struct CUlinkState_st *next;   /* in live_states */
	int sm;                        /* the target's compute capability */
	struct cuemu_jit jit;          /* cuLinkCreate's logs and wall time */
	CUresult refused;              /* the last add's refusal of its
					* input (a later input taken clears
					* it), which complete answers once
					* the rest links */
	char *link_log;                /* a second definition's refusal:
					* the linker keeps it, and complete
					* answers UNKNOWN with it */
	bool completed;                /* its image handed out */
	int n, cap;
	char **names, **texts;
	size_t *lens;
	void *image;                   /* the linked image, freed with it */
	size_t image_len;
};

/* Every state cuLinkCreate made and cuLinkDestroy has not yet freed:
 * the process's, so that a handle is known before it is used. */
static struct CUlinkState_st *live_states;
static pthread_mutex_t link_lock = PTHREAD_MUTEX_INITIALIZER;

/* A valid CU_JIT_TARGET: one of CUjit_target's compute capabilities,
 * with its "a" (0x10000) or "f" (0x20000) variant where it has one. */
static int jit_target(uintptr_t v)
{
	static const unsigned ccs[] = { 30, 32, 35, 37, 50, 52, 53, 60, 61,
					62, 70, 72, 75, 80, 86, 87, 89, 90,
					100, 103, 110, 120, 121 };
	unsigned cc = (unsigned)(v & 0xffff), kind = (unsigned)(v >> 16);

	if (v >> 18 || kind == 3 || (kind == 1 && cc < 90) ||
	    (kind == 2 && cc < 100))
		return 0;
	for (size_t i = 0; i < sizeof ccs / sizeof ccs[0]; i++)
		if (ccs[i] == cc)
			return (int)cc;
	return 0;
}

/* The options cuLinkCreate and cuLinkAddData take: those of a module's
 * load, and CU_JIT_TARGET one of the driver's targets (*sm its compute
 * capability; left as it was where none is given). */
static CUresult link_options(unsigned n, CUjit_option *o, void **v,
			     struct cuemu_jit *j, int *sm)
{
	CUresult r = cuemu_jit_read(n, o, v, j);

	for (unsigned i = 0; r == CUDA_SUCCESS && i < n; i++) {
		if (o[i] != CU_JIT_TARGET)
			continue;
		if (!jit_target((uintptr_t)v[i]))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "CU_JIT_TARGET %lu is no target",
					  (unsigned long)(uintptr_t)v[i]);
		*sm = jit_target((uintptr_t)v[i]);
	}
	return r;
}

/* Whether s is a state cuLinkCreate made and nobody destroyed. */
static bool state_live(CUlinkState s)
{
	bool live = false;

	pthread_mutex_lock(&link_lock);
	for (CUlinkState t = live_states; t && !live; t = t->next)
		live = t == s;
	pthread_mutex_unlock(&link_lock);
	return live;
}

static void state_free(CUlinkState s)
{
	for (int i = 0; i < s->n; i++) {
		free(s->names[i]);
		free(s->texts[i]);
	}
	free(s->names);
	free(s->texts);
	free(s->lens);
	free(s->image);
	free(s->link_log);
	free(s);
}

CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options,
			 void **optionValues, CUlinkState *stateOut)
{
	CUresult r = cuemu_check_init();
	CUlinkState s;
	CUcontext ctx;
	int dev;

	if (r != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_current(&ctx, &dev)) != CUDA_SUCCESS)
		return r;
	if (!stateOut)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "stateOut is NULL");
	if (!(s = calloc(1, sizeof *s)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "a link state");
	s->sm = cuemu_device_sm(dev);
	r = link_options(numOptions, options, optionValues, &s->jit, &s->sm);
	if (r != CUDA_SUCCESS) {
		free(s);
		return r;
	}
	pthread_mutex_lock(&link_lock);
	s->next = live_states;
	live_states = s;
	pthread_mutex_unlock(&link_lock);
	*stateOut = s;
	return CUDA_SUCCESS;
}

CUresult cuLinkCreate(unsigned int numOptions, CUjit_option *options,
		      void **optionValues, CUlinkState *stateOut)
{
	return cuLinkCreate_v2(numOptions, options, optionValues, stateOut);
}

/* A refusal of an add: its log line into the state's error log, the
 * state made to answer it again at complete. */
static CUresult add_refused(CUlinkState s, CUresult r, const char *log)
{
	cuemu_jit_answer(&s->jit, "", log, 0);
	s->refused = r;
	return cuemu_fail(r, "link: %s", log);
}

/* Text t (len bytes, its own copy made) added to s under name, once the
 * engine has read it alone and beside the texts before it. */
static CUresult add_text(CUlinkState s, const char *name, const char *t,
			 size_t len)
{
	char log[1024] = "";
	struct ex_text *all;
	enum ex_status st;
	struct ex_text one = { t, len, name };
	struct ex_module *none;

	cuemu_clock_enter();   /* the emulator's work, not the program's */
	st = ex_module_link(&one, 1, EX_LINK_NAMED | EX_LINK_PARTIAL, s->sm,
			    &none, log, sizeof log);
	cuemu_clock_leave();
	if (st != EX_OK)
		return add_refused(s, cuemu_parse_result(st), log);
	if (!(all = calloc((size_t)s->n + 1, sizeof *all)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "link");
	for (int i = 0; i < s->n; i++)
		all[i] = (struct ex_text){ s->texts[i], s->lens[i],
					   s->names[i] };
	all[s->n] = one;
	cuemu_clock_enter();
	st = ex_module_link(all, s->n + 1, EX_LINK_NAMED | EX_LINK_PARTIAL,
			    s->sm, &none, log, sizeof log);
	cuemu_clock_leave();
	free(all);
	/* a second definition of a name: the linker's refusal, UNKNOWN,
	 * which stays with the state (probes/results/link.txt, dup) */
	if (st == EX_OUT_OF_MEMORY)
		return add_refused(s, CUDA_ERROR_OUT_OF_MEMORY, log);
	if (st != EX_OK) {
		if (!s->link_log)
			s->link_log = strdup(log);
		return add_refused(s, CUDA_ERROR_UNKNOWN, log);
	}
	s->refused = CUDA_SUCCESS;
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 8;
		char **nn = realloc(s->names, cap * sizeof *nn);
		if (nn)
			s->names = nn;
		char **nt = nn ? realloc(s->texts, cap * sizeof *nt) : NULL;
		if (nt)
			s->texts = nt;
		size_t *nl = nt ? realloc(s->lens, cap * sizeof *nl) : NULL;
		if (!nl)
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "link");
		s->lens = nl;
		s->cap = cap;
	}
	s->names[s->n] = strdup(name);
	s->texts[s->n] = malloc(len + 1);
	if (!s->names[s->n] || !s->texts[s->n]) {
		free(s->names[s->n]);
		free(s->texts[s->n]);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "link");
	}
	memcpy(s->texts[s->n], t, len);
	s->texts[s->n][len] = '\0';
	s->lens[s->n++] = len;
	return CUDA_SUCCESS;
}

/* An image (PTX text, a fatbin, a linked image) added: its PTX for the
 * state's target, each text of a linked image. */
static CUresult add_image(CUlinkState s, const void *data, size_t size,
			  const char *name)
{
	char log[1024] = "";
	struct cuemu_image im;
	CUresult r = cuemu_image_from_bytes(data, size, s->sm, &im, log,
					    sizeof log);

	/* libcudadevrt: the engine is the device runtime (exec.h) */
	if (r == CUDA_ERROR_NO_BINARY_FOR_GPU &&
	    cuemu_image_device_runtime(data, size))
		return CUDA_SUCCESS;
	if (r != CUDA_SUCCESS)
		return add_refused(s, r, log);
	if (!im.linked) {
		r = add_text(s, name, im.ptx, im.len);
	} else {
		for (int i = 0; r == CUDA_SUCCESS && i < im.units; i++) {
			const char *un, *t;
			size_t len;
			cuemu_image_unit(&im, i, &un, &t, &len);
			r = add_text(s, un, t, len);
		}
	}
	cuemu_image_free(&im);
	return r;
}

/* The fatbins a host object carries, each added as an image. */
static CUresult add_object(CUlinkState s, const void *data, size_t size,
			   const char *name)
{
	const void *fb[CUEMU_OBJECT_FATBINS_MAX];
	size_t len[CUEMU_OBJECT_FATBINS_MAX];
	char log[256] = "";
	int n;
	CUresult r = cuemu_object_fatbins(data, size, fb, len, &n, log,
					  sizeof log);

	if (r != CUDA_SUCCESS)
		return add_refused(s, r, log);
	for (int i = 0; r == CUDA_SUCCESS && i < n; i++)
		r = add_image(s, fb[i], len[i], name);
	return r;
}

/* Each object of an archive (ar) added. */
static CUresult add_library(CUlinkState s, const void *data, size_t size,
			    const char *name)
{
	const void *member;
	size_t at = 0, mlen;
	char log[256] = "";
	CUresult r;

	while ((r = cuemu_archive_next(data, size, &at, &member, &mlen, log,
				       sizeof log)) == CUDA_SUCCESS && member)
		if ((r = add_object(s, member, mlen, name)) != CUDA_SUCCESS)
			return r;
	return r == CUDA_SUCCESS ? r : add_refused(s, r, log);
}

/* The checks both adds make after their data's, in the driver's order;
 * then the input by its type. */
static CUresult add(CUlinkState s, CUjitInputType type, const void *data,
		    size_t size, const char *name, unsigned n,
		    CUjit_option *o, void **v)
{
	struct cuemu_jit j;
	int sm = s->sm;
	CUresult r;

	if ((unsigned)type >= CU_JIT_NUM_INPUT_TYPES)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "input type %d is none", (int)type);
	if ((r = link_options(n, o, v, &j, &sm)) != CUDA_SUCCESS)
		return r;
	if (s->completed)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "the link is complete already");
	if (!name)
		name = "";
	switch (type) {
	case CU_JIT_INPUT_OBJECT:
		return add_object(s, data, size, name);
	case CU_JIT_INPUT_LIBRARY:
		return add_library(s, data, size, name);
	case CU_JIT_INPUT_NVVM:
		return add_refused(s, CUDA_ERROR_INVALID_IMAGE,
				   "NVVM IR (link-time optimization) is not "
				   "compiled here: link PTX");
	default:
		/* PTX, a fatbin or a cubin: the bytes say which, as the
		 * driver reads them (a fatbin given as PTX links) */
		return add_image(s, data, size, name);
	}
}

CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data,
			  size_t size, const char *name,
			  unsigned int numOptions, CUjit_option *options,
			  void **optionValues)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (!state || !state_live(state))
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "no link state");
	if (!data || !size)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  data ? "size is 0" : "data is NULL");
	return add(state, type, data, size, name, numOptions, options,
		   optionValues);
}

CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data,
		       size_t size, const char *name, unsigned int numOptions,
		       CUjit_option *options, void **optionValues)
{
	return cuLinkAddData_v2(state, type, data, size, name, numOptions,
				options, optionValues);
}

CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type,
			  const char *path, unsigned int numOptions,
			  CUjit_option *options, void **optionValues)
{
	CUresult r = cuemu_check_init();
	char *data;
	size_t len;

	if (r != CUDA_SUCCESS)
		return r;
	if (!state || !state_live(state))
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "no link state");
	if (!path)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "path is NULL");
	/* the file is read before its type is looked at */
	if ((r = cuemu_read_file(path, &data, &len)) != CUDA_SUCCESS)
		return r;
	r = len ? add(state, type, data, len, path, numOptions, options,
		      optionValues) :
		  add_refused(state, CUDA_ERROR_INVALID_IMAGE, "an empty file");
	free(data);
	return r;
}

CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type,
		       const char *path, unsigned int numOptions,
		       CUjit_option *options, void **optionValues)
{
	return cuLinkAddFile_v2(state, type, path, numOptions, options,
				optionValues);
}

static double now_ms(void)
{
	struct timespec t;

	cuemu_libc.clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The texts linked as one module, and the image of them made. */
static CUresult link_all(CUlinkState s, char *log, size_t logsz)
{
	struct ex_text *all = calloc((size_t)s->n + 1, sizeof *all);
	struct ex_module *m = NULL;
	enum ex_status st;

	if (!all)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (int i = 0; i < s->n; i++)
		all[i] = (struct ex_text){ s->texts[i], s->lens[i],
					   s->names[i] };
	cuemu_clock_enter();
	st = ex_module_link(all, s->n, EX_LINK_NAMED, s->sm, &m, log, logsz);
	cuemu_clock_leave();
	free(all);
	ex_module_free(m);
	if (st != EX_OK)
		return st == EX_OUT_OF_MEMORY ? CUDA_ERROR_OUT_OF_MEMORY :
						CUDA_ERROR_UNKNOWN;
	return cuemu_image_link(s->n, (const char *const *)s->names,
				(const char *const *)s->texts, s->lens,
				&s->image, &s->image_len);
}

CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
	char log[1024] = "", info[256];
	double t0 = now_ms();
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (!state || !state_live(state) || state->completed)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "%s",
				  state && state_live(state) ?
				  "the link is complete already" :
				  "no link state");
	if (!cubinOut)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "cubinOut is NULL");
	/* a second definition refused at its add: answered again, its
	 * log as the add wrote it */
	if (state->link_log)
		return cuemu_fail(CUDA_ERROR_UNKNOWN, "link: %s",
				  state->link_log);
	/* what was taken links first (its refusal is the answer); then
	 * the last add's refusal, where no input was taken after it */
	r = link_all(state, log, sizeof log);
	if (r == CUDA_SUCCESS && state->refused != CUDA_SUCCESS) {
		free(state->image);
		state->image = NULL;
		return cuemu_fail(state->refused, "the last input was refused");
	}
	snprintf(info, sizeof info, "%s %d PTX texts for sm_%d",
		 r == CUDA_SUCCESS ? "linked" : "did not link", state->n,
		 state->sm);
	cuemu_jit_answer(&state->jit, info, r == CUDA_SUCCESS ? "" : log,
			 (float)(now_ms() - t0));
	if (r != CUDA_SUCCESS)
		return cuemu_fail(r, "link: %s", log);
	state->completed = true;
	*cubinOut = state->image;
	if (sizeOut)
		*sizeOut = state->image_len;
	return CUDA_SUCCESS;
}

CUresult cuLinkDestroy(CUlinkState state)
{
	bool found = false;

	pthread_mutex_lock(&link_lock);
	for (CUlinkState *at = &live_states; *at; at = &(*at)->next)
		if (*at == state) {
			*at = state->next;
			found = true;
			break;
		}
	pthread_mutex_unlock(&link_lock);
	/* a state destroyed twice: the driver's reads freed memory (it
	 * crashed the probe); here it is known to be gone */
	if (!found)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "%s",
				  state ? "no live link state" :
					  "state is NULL");
	state_free(state);
	return CUDA_SUCCESS;
}
