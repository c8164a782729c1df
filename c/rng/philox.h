/* rng/philox.h — the keyed Philox4x32-10 draw tbrf uses for everything
 * random: key = the 64-bit seed, counter = (word0, word1, realization lo,
 * realization hi). Nothing is stored or advanced, which is what makes a
 * field a pure function of (seed, realization, position). */
#ifndef TBRF_RNG_PHILOX_H
#define TBRF_RNG_PHILOX_H

#include <stdint.h>
#include <Random123/philox.h>
#include "normal.h"

/* Reserved word1 values: line indices are < 2^31, so these never collide. */
#define TBRF_STREAM_ROTATION 0xFFFFFFFFu

static inline philox4x32_ctr_t tbrf_philox(uint64_t seed, uint64_t realization, uint32_t w0,
                                           uint32_t w1)
{
    philox4x32_ctr_t c = {{w0, w1, (uint32_t)realization, (uint32_t)(realization >> 32)}};
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    return philox4x32(c, k);
}

/* Four standard normals from one counter. */
static inline void tbrf_philox_normal4(uint64_t seed, uint64_t realization, uint32_t w0,
                                       uint32_t w1, double g[4])
{
    philox4x32_ctr_t r = tbrf_philox(seed, realization, w0, w1);
    tbrf_box_muller(r.v[0], r.v[1], &g[0], &g[1]);
    tbrf_box_muller(r.v[2], r.v[3], &g[2], &g[3]);
}

#endif
