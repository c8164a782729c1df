/* rng.c — the public random-number API (tbrf.h, "random numbers and Monte
 * Carlo") over the header-only generators in rng/. Nothing is stored
 * between calls: every range of every stream is computed by jump-ahead. */
#include <stdlib.h>
#include <string.h>

#include "tbrf/rng/lcg64.h"
#include "tbrf/rng/philox.h"
#include "tbrf/rng/saru.h"
#include "tbrf/rng/tea.h"
#include "tbrf.h"

/* tbrf_rng_u32's Philox blocks: word 1 of the counter is TBRF_STREAM_RNG |
 * block >> 32, which stays in the public family (core/streams.h) for
 * blocks < 2^58, so the stream never meets a field's counter. */
#define PHILOX_BLOCKS ((uint64_t)1 << 58)

const char *tbrf_rng_name(int gen)
{
    switch (gen) {
    case TBRF_GEN_PHILOX: return "philox";
    case TBRF_GEN_SARU: return "saru";
    case TBRF_GEN_TEA8: return "tea8";
    case TBRF_GEN_LCG64: return "lcg64";
    case TBRF_GEN_LCG64_PERMUTED: return "lcg64-permuted";
    default: return NULL;
    }
}

static int check_range(int gen, uint64_t seed, uint64_t stream, uint64_t offset, int64_t n,
                       const void *out)
{
    if (n < 0)
        return TBRF_ERR_SIZE;
    if (n > 0 && !out)
        return TBRF_ERR_NULL;
    if (!tbrf_rng_name(gen))
        return TBRF_ERR_INVALID;
    uint64_t un = (uint64_t)n;
    if (un > 0 && offset > UINT64_MAX - (un - 1))
        return TBRF_ERR_INVALID; /* the range would wrap */
    switch (gen) {
    case TBRF_GEN_PHILOX: /* blocks < 2^58 keep word 1 inside the public family */
        if (un > 0 && (offset + (un - 1)) / 4 >= PHILOX_BLOCKS)
            return TBRF_ERR_INVALID;
        break;
    case TBRF_GEN_SARU:
        if (stream > 0xFFFFFFFFu)
            return TBRF_ERR_INVALID;
        break;
    case TBRF_GEN_TEA8:
        if (seed > 0xFFFFFFFFu || stream > 0xFFFFFFFFu)
            return TBRF_ERR_INVALID;
        if (un > 0 && (offset + (un - 1)) / 2 > 0xFFFFFFFFu)
            return TBRF_ERR_INVALID;
        break;
    case TBRF_GEN_LCG64:
    case TBRF_GEN_LCG64_PERMUTED:
        if (stream >= ((uint64_t)1 << 24))
            return TBRF_ERR_INVALID;
        break;
    default:
        break;
    }
    return TBRF_OK;
}

/* Fills without re-checking (callers have checked). */
static void fill_u32(int gen, uint64_t seed, uint64_t stream, uint64_t offset, int64_t n,
                     uint32_t *out)
{
    if (n <= 0)
        return;
    switch (gen) {
    case TBRF_GEN_PHILOX: {
        philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
        for (int64_t i = 0; i < n;) {
            uint64_t w = offset + (uint64_t)i, blk = w / 4;
            philox4x32_ctr_t c = {{(uint32_t)blk, TBRF_STREAM_RNG | (uint32_t)(blk >> 32),
                                   (uint32_t)stream, (uint32_t)(stream >> 32)}};
            philox4x32_ctr_t r = philox4x32(c, k);
            for (unsigned j = (unsigned)(w % 4); j < 4 && i < n; j++)
                out[i++] = r.v[j];
        }
        break;
    }
    case TBRF_GEN_SARU: {
        tbrf_saru s = tbrf_saru_seed3((uint32_t)seed, (uint32_t)(seed >> 32), (uint32_t)stream);
        tbrf_saru_jump(&s, offset);
        for (int64_t i = 0; i < n; i++)
            out[i] = tbrf_saru_next(&s);
        break;
    }
    case TBRF_GEN_TEA8: {
        uint32_t k0 = tbrf_seed_prehash((uint32_t)seed);
        for (int64_t i = 0; i < n;) {
            uint64_t w = offset + (uint64_t)i;
            uint32_t v0 = (uint32_t)(w / 2), v1 = (uint32_t)stream;
            tbrf_tea8(&v0, &v1, k0, TBRF_TEA_K1, TBRF_TEA_K2, TBRF_TEA_K3);
            if (w % 2 == 0)
                out[i++] = v0;
            if (i < n)
                out[i++] = v1;
        }
        break;
    }
    default: { /* lcg64, lcg64-permuted */
        uint64_t x = tbrf_lcg64_jump(tbrf_lcg64_jump(seed, stream << 40), offset);
        if (gen == TBRF_GEN_LCG64)
            for (int64_t i = 0; i < n; i++) {
                x = tbrf_lcg64_step(x);
                out[i] = tbrf_lcg64_out(x);
            }
        else
            for (int64_t i = 0; i < n; i++) {
                x = tbrf_lcg64_step(x);
                out[i] = tbrf_lcg64_out_permuted(x);
            }
        break;
    }
    }
}

int tbrf_rng_u32(int gen, uint64_t seed, uint64_t stream, uint64_t offset, int64_t n,
                 uint32_t *out)
{
    int st = check_range(gen, seed, stream, offset, n, out);
    if (st)
        return st;
    fill_u32(gen, seed, stream, offset, n, out);
    return TBRF_OK;
}

/* Converts in chunks of CH words so no allocation is needed. */
#define CH 512

/* Exactly one of outd, outf is used: outd when want_double. */
static int convert(int gen, uint64_t seed, uint64_t stream, uint64_t offset, int64_t n, int dist,
                   int want_double, double *outd, float *outf)
{
    if (dist != TBRF_DIST_U01 && dist != TBRF_DIST_S11 && dist != TBRF_DIST_NORMAL)
        return TBRF_ERR_INVALID;
    const void *out = want_double ? (const void *)outd : (const void *)outf;
    int st = check_range(gen, seed, stream, offset, n, out);
    if (st)
        return st;
    /* NORMAL reads words 2(k/2) and 2(k/2)+1: the last one is at most
     * (offset+n-1) | 1, which exists whenever offset+n-1 does (the
     * checks above cover it, and UINT64_MAX is odd). */
    uint32_t w[CH + 2];
    int64_t i = 0;
    while (i < n) {
        uint64_t k = offset + (uint64_t)i;
        if (dist == TBRF_DIST_NORMAL) {
            uint64_t k0 = k & ~(uint64_t)1;
            int64_t m = n - i; /* values still wanted */
            int64_t words = (int64_t)(k - k0) + m;
            if (words > CH)
                words = CH;
            words = (words + 1) & ~(int64_t)1;
            fill_u32(gen, seed, stream, k0, words, w);
            for (int64_t j = 0; j + 1 < words && i < n; j += 2) {
                double g0, g1;
                tbrf_box_muller(w[j], w[j + 1], &g0, &g1);
                uint64_t base = k0 + (uint64_t)j;
                if (base >= k) {
                    if (want_double) outd[i] = g0; else outf[i] = (float)g0;
                    i++;
                }
                if (i < n && base + 1 >= k) {
                    if (want_double) outd[i] = g1; else outf[i] = (float)g1;
                    i++;
                }
            }
        } else {
            int64_t m = n - i < CH ? n - i : CH;
            fill_u32(gen, seed, stream, k, m, w);
            for (int64_t j = 0; j < m; j++, i++) {
                if (want_double)
                    outd[i] = dist == TBRF_DIST_U01 ? tbrf_u01(w[j]) : tbrf_s11(w[j]);
                else
                    outf[i] = dist == TBRF_DIST_U01 ? tbrf_u01f(w[j]) : tbrf_s11f(w[j]);
            }
        }
    }
    return TBRF_OK;
}

int tbrf_rng_double(int gen, uint64_t seed, uint64_t stream, uint64_t offset, int64_t n,
                    int dist, double *out)
{
    return convert(gen, seed, stream, offset, n, dist, 1, out, NULL);
}

int tbrf_rng_float(int gen, uint64_t seed, uint64_t stream, uint64_t offset, int64_t n, int dist,
                   float *out)
{
    return convert(gen, seed, stream, offset, n, dist, 0, NULL, out);
}

void tbrf_rng_philox4x32(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    if (!ctr || !key || !out)
        return;
    philox4x32_ctr_t c = {{ctr[0], ctr[1], ctr[2], ctr[3]}};
    philox4x32_key_t k = {{key[0], key[1]}};
    philox4x32_ctr_t r = philox4x32(c, k);
    memcpy(out, r.v, sizeof r.v);
}

void tbrf_rng_tea8(uint32_t v[2], const uint32_t key[4])
{
    if (!v)
        return;
    if (key)
        tbrf_tea8(&v[0], &v[1], key[0], key[1], key[2], key[3]);
    else
        tbrf_tea8(&v[0], &v[1], TBRF_TEA_K0, TBRF_TEA_K1, TBRF_TEA_K2, TBRF_TEA_K3);
}

uint32_t tbrf_rng_seed_prehash(uint32_t seed)
{
    return tbrf_seed_prehash(seed);
}

int tbrf_rng_saru_seed(int nwords, const uint32_t *seeds, uint32_t state[2])
{
    if (!seeds || !state)
        return TBRF_ERR_NULL;
    tbrf_saru s;
    switch (nwords) {
    case 1: s = tbrf_saru_seed1(seeds[0]); break;
    case 2: s = tbrf_saru_seed2(seeds[0], seeds[1]); break;
    case 3: s = tbrf_saru_seed3(seeds[0], seeds[1], seeds[2]); break;
    default: return TBRF_ERR_INVALID;
    }
    state[0] = s.x;
    state[1] = s.w;
    return TBRF_OK;
}

int tbrf_rng_saru_next(uint32_t state[2], int64_t n, uint32_t *out)
{
    if (n < 0)
        return TBRF_ERR_SIZE;
    if (!state || (n > 0 && !out))
        return TBRF_ERR_NULL;
    tbrf_saru s = {state[0], state[1]};
    for (int64_t i = 0; i < n; i++)
        out[i] = tbrf_saru_next(&s);
    state[0] = s.x;
    state[1] = s.w;
    return TBRF_OK;
}

int tbrf_rng_saru_jump(uint32_t state[2], uint64_t n)
{
    if (!state)
        return TBRF_ERR_NULL;
    tbrf_saru s = {state[0], state[1]};
    tbrf_saru_jump(&s, n);
    state[0] = s.x;
    state[1] = s.w;
    return TBRF_OK;
}

int tbrf_rng_stream_id(uint32_t seed, uint32_t step, uint32_t id, uint32_t state[2])
{
    if (!state)
        return TBRF_ERR_NULL;
    tbrf_saru s = tbrf_stream_id(seed, step, id);
    state[0] = s.x;
    state[1] = s.w;
    return TBRF_OK;
}

int tbrf_rng_stream_pair(uint32_t seed, uint32_t step, uint32_t i, uint32_t j, uint32_t state[2])
{
    if (!state)
        return TBRF_ERR_NULL;
    tbrf_saru s = tbrf_stream_pair(seed, step, i, j);
    state[0] = s.x;
    state[1] = s.w;
    return TBRF_OK;
}

uint64_t tbrf_rng_lcg64_jump(uint64_t x, uint64_t n)
{
    return tbrf_lcg64_jump(x, n);
}

int tbrf_rng_lcg64_block(int64_t s, uint64_t *y, uint64_t *t)
{
    if (s < 1)
        return TBRF_ERR_SIZE;
    if (!y || !t)
        return TBRF_ERR_NULL;
    uint64_t A = 1u, C = 0u;
    for (int64_t j = 0; j < s; j++) { /* x_{j+1} = a x_j + c, so A' = aA, C' = aC + c */
        A *= TBRF_LCG64_A;
        C = TBRF_LCG64_A * C + TBRF_LCG64_C;
        y[j] = A;
        t[j] = C;
    }
    return TBRF_OK;
}
