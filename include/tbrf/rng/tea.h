/* tbrf/rng/tea.h — TEA8 (Tiny Encryption Algorithm cut to 8 rounds) as a hash
 * of two words, the global-seed pre-hash, and the keyed Saru micro-streams
 * built from them (the scheme of Phillips, Anderson & Glotzer for Brownian
 * dynamics and DPD on GPUs). Compiles as C, CUDA and OpenCL C.
 *
 * A micro-stream is a Saru state made from integers that name the work, so
 * a thread creates it in registers and never loads or stores a state:
 *   one id:  TEA8(v0 = id, v1 = step; k0 = prehash(seed), k1..k3 default)
 *   a pair:  TEA8(v0 = min(i,j), v1 = max(i,j); k0 = step,
 *                 k1 = prehash(seed), k2, k3 default)
 * and the hashed (v0, v1) becomes the Saru state (x, w). The pair stream
 * depends only on the unordered pair, so threads i and j draw the same
 * numbers without communicating. */
#ifndef TBRF_RNG_TEA_H
#define TBRF_RNG_TEA_H

#ifndef TBRF_RNG_FEATURES_H /* skipped when the sources are concatenated */
#include "features.h"
#endif
#ifndef TBRF_RNG_SARU_H /* skipped when the sources are concatenated */
#include "saru.h"
#endif

#define TBRF_TEA_K0 0xA341316Cu
#define TBRF_TEA_K1 0xC8013EA4u
#define TBRF_TEA_K2 0xAD90777Du
#define TBRF_TEA_K3 0x7E95761Eu

/* TEA with 8 rounds on (v[0], v[1]) in place, key k0..k3. */
TBRF_DEVICE_FN void tbrf_tea8(uint32_t *v0, uint32_t *v1, uint32_t k0, uint32_t k1, uint32_t k2,
                           uint32_t k3)
{
    uint32_t a = *v0, b = *v1, sum = 0u;
    for (int r = 0; r < 8; r++) {
        sum += 0x9E3779B9u;
        a += ((b << 4) + k0) ^ (b + sum) ^ ((b >> 5) + k1);
        b += ((a << 4) + k2) ^ (a + sum) ^ ((a >> 5) + k3);
    }
    *v0 = a;
    *v1 = b;
}

/* Pre-hash of a user's (typically small) global seed. */
TBRF_DEVICE_FN uint32_t tbrf_seed_prehash(uint32_t gs)
{
    gs = gs * 0x12345677u + 0x12345u;
    gs ^= gs >> 16;
    gs *= 0x45679u;
    return gs;
}

/* The micro-stream of one id (particle) at one time step. */
TBRF_DEVICE_FN tbrf_saru tbrf_stream_id(uint32_t seed, uint32_t step, uint32_t id)
{
    uint32_t v0 = id, v1 = step;
    tbrf_tea8(&v0, &v1, tbrf_seed_prehash(seed), TBRF_TEA_K1, TBRF_TEA_K2, TBRF_TEA_K3);
    tbrf_saru s;
    s.x = v0;
    s.w = v1;
    return s;
}

/* The micro-stream of the unordered pair (i, j) at one time step:
 * tbrf_stream_pair(seed, step, i, j) == tbrf_stream_pair(seed, step, j, i). */
TBRF_DEVICE_FN tbrf_saru tbrf_stream_pair(uint32_t seed, uint32_t step, uint32_t i, uint32_t j)
{
    uint32_t v0 = i < j ? i : j, v1 = i < j ? j : i;
    tbrf_tea8(&v0, &v1, step, tbrf_seed_prehash(seed), TBRF_TEA_K2, TBRF_TEA_K3);
    tbrf_saru s;
    s.x = v0;
    s.w = v1;
    return s;
}

#endif
