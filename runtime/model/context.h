/*
 * context.h - the contexts of the model (context.c): their life, each
 * thread's stack of current contexts, peer access, and the model's
 * initialization with what runs when it is done. The process lock, the
 * current context and the initialized check, which every subsystem uses,
 * are declared in internal.h.
 */
#ifndef CUEMU_MODEL_CONTEXT_H
#define CUEMU_MODEL_CONTEXT_H

#include "model/internal.h"

/* How deep a thread's context stack may grow. */
#define CUEMU_CTX_STACK_MAX 64

/* Attaches the machine and makes the model usable, once per process (the
 * work of cuInit); later calls succeed at once. NO_DEVICE with a message
 * when the machine cannot be attached. */
CUresult cuemu_model_init(bool *first);
/* fn runs once, when the model is initialized, before any call can use
 * it (how outward/ starts the control server). Call from a constructor. */
void cuemu_on_init(void (*fn)(void));

/* Contexts. new and kill take the lock held; new is NULL without memory. */
bool cuemu_ctx_is_primary(CUcontext ctx);
CUcontext cuemu_ctx_new(int dev, unsigned int flags);
void cuemu_ctx_kill(CUcontext ctx);
unsigned int cuemu_ctx_flags(CUcontext ctx);
/* The context's id (cuCtxGetId): new for each context made and each
 * activation of a primary one. */
uint64_t cuemu_ctx_id(CUcontext ctx);
void cuemu_ctx_set_flags(CUcontext ctx, unsigned int flags);
/* A primary context's retain count: retain answers the count before it;
 * release answers -1 when not retained, 1 when that was the last, else 0. */
unsigned int cuemu_primary_retain(int dev);
int cuemu_primary_release(int dev);
bool cuemu_primary_retained(int dev);

/* The calling thread's context stack. */
CUcontext cuemu_ctx_top(void);
bool cuemu_ctx_stack_full(void);
bool cuemu_ctx_push(CUcontext ctx);            /* false when full */
CUcontext cuemu_ctx_pop(void);                 /* NULL when empty */
/* Replaces the top (pushes onto an empty stack); NULL pops the top. */
void cuemu_ctx_replace_top(CUcontext ctx);
/* Removes ctx from the stack wherever it is. */
void cuemu_ctx_unstack(CUcontext ctx);

/* Peers: a link the topology knows between two different devices, and
 * what a context was allowed to reach. */
/* Per-context settings: limits (CUlimit values below CUEMU_CTX_LIMITS),
 * cache and shared-memory configuration (the bank width, fixed). Changes
 * lock held; a fresh or
 * reset context has the defaults. */
#define CUEMU_CTX_LIMITS CU_LIMIT_MAX
void cuemu_ctx_reset_settings(CUcontext ctx);
size_t cuemu_ctx_limit(CUcontext ctx, int limit);
void cuemu_ctx_set_limit(CUcontext ctx, int limit, size_t value);
int cuemu_ctx_cache_config(CUcontext ctx);
void cuemu_ctx_set_cache_config(CUcontext ctx, int config);
int cuemu_ctx_shmem_config(CUcontext ctx);
/* The device memory the context's stacks hold (model/stackmem.c keeps it;
 * lock held). */
size_t cuemu_ctx_stack_held(CUcontext ctx);
void cuemu_ctx_set_stack_held(CUcontext ctx, size_t bytes);

/* stackmem.c, lock held: the context's stacks made to hold per_thread
 * bytes a thread (CUDA_ERROR_OUT_OF_MEMORY where they do not fit: the
 * limit stays and what the stacks held is let go); made to hold a
 * kernel's frame of frame bytes, the limit raised to it where it is more;
 * and let go. */
CUresult cuemu_stack_reserve(CUcontext c, size_t per_thread);
CUresult cuemu_stack_fit(CUcontext c, size_t frame);
void cuemu_stack_release(CUcontext c);

bool cuemu_peer_link(int a, int b);
bool cuemu_ctx_has_peer(CUcontext c, int dev);
void cuemu_ctx_set_peer(CUcontext c, int dev, bool on);
void cuemu_ctx_clear_peers(CUcontext c);

#endif
