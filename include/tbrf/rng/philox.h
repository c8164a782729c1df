/* tbrf/rng/philox.h — the keyed Philox4x32-10 draw tbrf uses for everything
 * random: key = the 64-bit seed, counter = (word0, word1, realization lo,
 * realization hi). Nothing is stored or advanced, which is what makes a
 * field a pure function of (seed, realization, position). */
#ifndef TBRF_RNG_PHILOX_H
#define TBRF_RNG_PHILOX_H

#ifndef TBRF_RNG_FEATURES_H /* skipped when the sources are concatenated */
#include "features.h"
#endif
#include <Random123/philox.h>
#ifndef TBRF_RNG_NORMAL_H /* skipped when the sources are concatenated */
#include "normal.h"
#endif

/* Reserved word1 values: line indices are < 2^24, so these never collide:
 * the rotation (word0 = 0), and the lines' sub-sample shifts (word0 = 0,
 * word1 = TBRF_STREAM_SHIFT | line index; the FFT method's modes use
 * word1 >= 0x80000000, src/methods/fft/fft.c). */
#define TBRF_STREAM_ROTATION 0xFFFFFFFFu
#define TBRF_STREAM_SHIFT 0x40000000u

TBRF_DEVICE_FN philox4x32_ctr_t tbrf_philox(uint64_t seed, uint64_t realization, uint32_t w0,
                                           uint32_t w1)
{
    philox4x32_ctr_t c = {{w0, w1, (uint32_t)realization, (uint32_t)(realization >> 32)}};
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    return philox4x32(c, k);
}

/* Keyed micro-stream words with Philox: block n of the stream of thread
 * `id` at time step `step` is philox4x32(ctr = (id, step, n, 0), key = seed);
 * for an unordered pair the counter is (min(i,j), max(i,j), step, n) with
 * key word 1 flipped (~seed_hi), so pair and single-id streams never share
 * a counter. */
TBRF_DEVICE_FN philox4x32_ctr_t tbrf_philox_id(uint64_t seed, uint32_t step, uint32_t id, uint32_t n)
{
    philox4x32_ctr_t c = {{id, step, n, 0u}};
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    return philox4x32(c, k);
}

TBRF_DEVICE_FN philox4x32_ctr_t tbrf_philox_pair(uint64_t seed, uint32_t step, uint32_t i, uint32_t j,
                                              uint32_t n)
{
    philox4x32_ctr_t c = {{i < j ? i : j, i < j ? j : i, step, n}};
    philox4x32_key_t k = {{(uint32_t)seed, ~(uint32_t)(seed >> 32)}};
    return philox4x32(c, k);
}

#ifdef TBRF_FP64
/* Four standard normals from one counter. */
TBRF_DEVICE_FN void tbrf_philox_normal4(uint64_t seed, uint64_t realization, uint32_t w0,
                                       uint32_t w1, double g[4])
{
    philox4x32_ctr_t r = tbrf_philox(seed, realization, w0, w1);
    tbrf_box_muller(r.v[0], r.v[1], &g[0], &g[1]);
    tbrf_box_muller(r.v[2], r.v[3], &g[2], &g[3]);
}
#endif

#endif
