/* parallel.h — the thread count a call runs with. */
#ifndef TBRF_PARALLEL_H
#define TBRF_PARALLEL_H

#include <omp.h>

/* opts.threads > 0 is taken as given; 0 means OpenMP's default. Results
 * never depend on it: work is split only across independent outputs. */
static inline int tbrf_threads(int requested)
{
    return requested > 0 ? requested : omp_get_max_threads();
}

#endif
