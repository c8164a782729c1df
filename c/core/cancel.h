/* cancel.h — an object's cancel hook (tbrf_cancel_fn, include/tbrf/common.h)
 * as the evaluating code polls it. Not installed. */
#ifndef TBRF_CORE_CANCEL_H
#define TBRF_CORE_CANCEL_H

#include "tbrf.h"

typedef struct tbrfi_cancel {
    tbrf_cancel_fn fn; /* NULL: no hook (the default) */
    void *user;
} tbrfi_cancel;

/* The elementary operations (a mode drawn, a line sample projected onto a
 * cell, a mode summed at a point) between two polls: about 10^7, a few
 * hundredths of a second on one thread, so a cancel lands well within a
 * second however many threads share the work, while the poll (a call
 * into the caller, maybe an interpreter's) costs nothing against it. */
#define TBRFI_CANCEL_WORK 10000000.0
/* A Fourier mode drawn, weighed and stored, in those operations. */
#define TBRFI_CANCEL_MODE 20.0

/* Whether the hook asks the call to stop; 0 without a hook (c may be
 * NULL). Call it on the calling thread only, outside parallel regions:
 * an interpreter's hook may run only there. */
static inline int tbrfi_cancelled(const tbrfi_cancel *c)
{
    return c && c->fn && c->fn(c->user) != 0;
}

/* The items per block between two polls when one item costs `work`
 * elementary operations: at least 1; all `n` without a hook, so a call
 * without one runs as one block, as before. */
static inline int64_t tbrfi_cancel_block(const tbrfi_cancel *c, double work, int64_t n)
{
    if (!c || !c->fn)
        return n > 0 ? n : 1;
    const double b = TBRFI_CANCEL_WORK / (work > 1.0 ? work : 1.0);
    return b >= (double)n ? (n > 0 ? n : 1) : (b < 1.0 ? 1 : (int64_t)b);
}

#endif
