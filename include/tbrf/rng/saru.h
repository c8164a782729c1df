/* tbrf/rng/saru.h — Saru (S. Worley's generator as used by HOOMD-blue 1.x):
 * an LCG word x and an offset Weyl word w, 1/2/3-word seeding, stepping and
 * O(log n) jump-ahead. The definitions are those of doc/rng.md (Saru: Afshar et al. 2013; TEA8: Zafar et al. 2010)
 * word for word. Compiles as C, CUDA and OpenCL C (see features.h).
 *
 * Stream period 3666320093 * 2^32. Known weakness: one long Saru stream
 * fails modern batteries (PractRand at about 256 MB); short hashed
 * micro-streams, its intended use, have shown no problem. Philox is tbrf's
 * default generator. */
#ifndef TBRF_RNG_SARU_H
#define TBRF_RNG_SARU_H

#ifndef TBRF_RNG_FEATURES_H /* skipped when the sources are concatenated */
#include "features.h"
#endif

#define TBRF_SARU_LCG_A 0x4beb5d59u
#define TBRF_SARU_LCG_C 0x2600e1f7u
#define TBRF_SARU_WEYL_PERIOD 0xda879addu
#define TBRF_SARU_WEYL_OFFSET 0x8009d14bu
/* period + offset mod 2^32: the rotation the Weyl step applies mod period */
#define TBRF_SARU_WEYL_DELTA 0x5a916c28u

typedef struct tbrf_saru {
    uint32_t x, w;
} tbrf_saru;

TBRF_DEVICE_FN tbrf_saru tbrf_saru_finish(uint32_t s1, uint32_t s2)
{
    tbrf_saru s;
    s.x = 0x79dedea3u * (s1 ^ tbrf_asr32(s1, 14));
    s.w = (s.x + s2) ^ tbrf_asr32(s.x, 8);
    s.x = s.x + s.w * (s.w ^ 0xdddf97f5u);
    s.w = 0xABCB96F7u + (s.w >> 1);
    return s;
}

/* Seeding from one word. */
TBRF_DEVICE_FN tbrf_saru tbrf_saru_seed1(uint32_t seed)
{
    tbrf_saru s;
    s.x = 0x79dedea3u * (seed ^ tbrf_asr32(seed, 14));
    s.w = seed ^ tbrf_asr32(s.x, 8);
    s.x = s.x + s.w * (s.w ^ 0xdddf97f5u);
    s.w = 0xABCB96F7u + (s.w >> 1);
    return s;
}

/* Seeding from two words. */
TBRF_DEVICE_FN tbrf_saru tbrf_saru_seed2(uint32_t s1, uint32_t s2)
{
    s2 += s1 << 16;
    s1 += s2 << 11;
    s2 += tbrf_asr32(s1, 7);
    s1 ^= tbrf_asr32(s2, 3);
    s2 *= 0xA5366B4Du;
    s2 ^= s2 >> 10;
    s2 ^= tbrf_asr32(s2, 19);
    s1 += s2 ^ 0x6d2d4e11u;
    return tbrf_saru_finish(s1, s2);
}

/* Seeding from three words. */
TBRF_DEVICE_FN tbrf_saru tbrf_saru_seed3(uint32_t s1, uint32_t s2, uint32_t s3)
{
    s3 ^= (s1 << 7) ^ (s2 >> 6);
    s2 += (s1 >> 4) ^ (s3 >> 15);
    s1 ^= (s2 << 9) + (s3 << 8);
    s3 ^= 0xA5366B4Du * ((s2 >> 11) ^ (s1 << 1));
    s2 += 0x72BE1579u * ((s1 << 4) ^ (s3 >> 16));
    s1 ^= 0x3F38A6EDu * ((s3 >> 5) ^ tbrf_asr32(s2, 22));
    s2 += s1 * s3;
    s1 += s3 ^ (s2 >> 2);
    s2 ^= tbrf_asr32(s2, 17);
    return tbrf_saru_finish(s1, s2);
}

/* Advances one step and returns the output word. */
TBRF_DEVICE_FN uint32_t tbrf_saru_next(tbrf_saru *s)
{
    s->x = TBRF_SARU_LCG_A * s->x + TBRF_SARU_LCG_C;
    s->w = s->w + TBRF_SARU_WEYL_OFFSET + (tbrf_asr32(s->w, 31) & TBRF_SARU_WEYL_PERIOD);
    uint32_t v = (s->x ^ (s->x >> 26)) + s->w;
    return (v ^ (v >> 20)) * 0x6957f5a7u;
}

/* Jumps n steps ahead in O(log n): the LCG map is squared repeatedly; the
 * Weyl word, read as a signed integer r, moves as r -> r + delta reduced
 * into [delta - period, delta), so n steps add n delta mod period (any w
 * reaches that range after its first step, which this reproduces).
 * Equal to n calls of tbrf_saru_next. */
TBRF_DEVICE_FN void tbrf_saru_jump(tbrf_saru *s, uint64_t n)
{
    if (n == 0)
        return;
    uint32_t g = 1u, c = 0u, h = TBRF_SARU_LCG_A, f = TBRF_SARU_LCG_C;
    for (uint64_t m = n; m; m >>= 1) {
        if (m & 1u) {
            g *= h;
            c = c * h + f;
        }
        f *= h + 1u;
        h *= h;
    }
    s->x = g * s->x + c;
    const uint64_t P = TBRF_SARU_WEYL_PERIOD;
    const uint64_t D = TBRF_SARU_WEYL_DELTA;
    /* r - (delta - period) taken mod period, as an unsigned offset in
     * [0, P): r = w (w < 2^31) or w - 2^32; adding P - D + 2^32 keeps
     * everything non-negative. */
    uint64_t two32 = (uint64_t)1 << 32;
    uint64_t r = (uint64_t)s->w + (s->w >> 31 ? (uint64_t)0 : two32); /* r + 2^32 */
    uint64_t t = (r + P - D) % P;              /* (r + 2^32 - (D - P)) mod P ... */
    t = (t + (P - (two32 % P))) % P;           /* ... minus 2^32 mod P */
    t = (t + ((n % P) * D) % P) % P;
    s->w = (uint32_t)(t + D - P);              /* back into [D - P, D), mod 2^32 */
}

#endif
