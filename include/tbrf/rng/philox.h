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
 * word1 >= 0x80000000, c/methods/fft/fft.c). */
#define TBRF_STREAM_ROTATION 0xFFFFFFFFu
#define TBRF_STREAM_SHIFT 0x40000000u

TBRF_DEVICE_FN philox4x32_ctr_t tbrf_philox(uint64_t seed, uint64_t realization, uint32_t w0,
                                           uint32_t w1)
{
    philox4x32_ctr_t c = {{w0, w1, (uint32_t)realization, (uint32_t)(realization >> 32)}};
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    return philox4x32(c, k);
}

/* The word-1 families of the public streams, which no field, driver or
 * initial-condition stream uses (c/core/streams.h, the whole registry,
 * checks that at compile time): tbrf_rng_u32's Philox stream (word 1 =
 * TBRF_STREAM_RNG | block >> 32, blocks < 2^58) and the micro-streams
 * below (word 1 = family | n, n < 2^24). */
#define TBRF_STREAM_RNG 0x08000000u
#define TBRF_STREAM_RNG_ID 0x0C000000u
#define TBRF_STREAM_RNG_PAIR 0x0D000000u
#define TBRF_STREAM_RNG_END 0x0E000000u
/* Blocks of one micro-stream: n is taken modulo 2^24. */
#define TBRF_STREAM_RNG_N_MASK 0x00FFFFFFu

/* Keyed micro-stream words with Philox: block n (< 2^24) of the stream of
 * thread `id` at time step `step` is philox4x32(ctr = (id,
 * TBRF_STREAM_RNG_ID | n, step, 0), key = seed); for an unordered pair
 * the counter is (min(i,j), TBRF_STREAM_RNG_PAIR | n, max(i,j), step), so
 * pair and single-id streams never share a counter, nor do they share one
 * with a field of the same seed. */
TBRF_DEVICE_FN philox4x32_ctr_t tbrf_philox_id(uint64_t seed, uint32_t step, uint32_t id, uint32_t n)
{
    philox4x32_ctr_t c = {{id, TBRF_STREAM_RNG_ID | (n & TBRF_STREAM_RNG_N_MASK), step, 0u}};
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    return philox4x32(c, k);
}

TBRF_DEVICE_FN philox4x32_ctr_t tbrf_philox_pair(uint64_t seed, uint32_t step, uint32_t i, uint32_t j,
                                              uint32_t n)
{
    philox4x32_ctr_t c = {{i < j ? i : j, TBRF_STREAM_RNG_PAIR | (n & TBRF_STREAM_RNG_N_MASK),
                           i < j ? j : i, step}};
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
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
