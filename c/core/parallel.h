/* parallel.h — the thread count a call runs with. */
#ifndef TBRF_PARALLEL_H
#define TBRF_PARALLEL_H

#include <omp.h>

/* At most this many threads per processor: more never helps, and an
 * absurd count makes libgomp fail to create threads, which it reports by
 * printing and calling exit() (or crashes) — the library must do neither
 * (doc/design.md). */
#define TBRF_THREADS_PER_PROC 4

/* opts.threads > 0 is taken as given up to TBRF_THREADS_PER_PROC times
 * the processors OpenMP sees (and OMP_THREAD_LIMIT); 0 means OpenMP's
 * default. Results never depend on it: work is split only across
 * independent outputs. */
static inline int tbrf_threads(int requested)
{
    if (requested <= 0)
        return omp_get_max_threads();
    int procs = omp_get_num_procs();
    int cap = (procs > 0 ? procs : 1) * TBRF_THREADS_PER_PROC;
    int limit = omp_get_thread_limit();
    if (limit > 0 && limit < cap)
        cap = limit;
    return requested < cap ? requested : cap;
}

#endif
