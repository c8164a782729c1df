/* tbrf/rng.h — counter-based random numbers.
 * A feature header of the public API: <tbrf.h> includes every one;
 * each may also be included alone (conventions: tbrf.h). */
#ifndef TBRF_RNG_PUBLIC_H
#define TBRF_RNG_PUBLIC_H

#include "tbrf/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -------------------------------------------------------- random numbers */

/* The generators behind tbrf_rng_u32() and friends. The same bodies are
 * usable inside CUDA and OpenCL kernels from the headers under rng/ (see
 * doc/rng.md). */
enum tbrf_gen_id { TBRF_GEN_PHILOX = 0, TBRF_GEN_SARU = 1, TBRF_GEN_TEA8 = 2, TBRF_GEN_LCG64 = 3,
                   TBRF_GEN_LCG64_PERMUTED = 4 };

/* Conversions of 32-bit words (exact, the same bits on every backend):
 * U01 x 2^-32 in [0,1); S11 (x - 2^31) 2^-31 in [-1,1); NORMAL Box–Muller
 * on the word pair (2m, 2m+1) with u = (x + 0.5) 2^-32, giving values 2m
 * and 2m+1. Floats keep the top 24 bits: (x >> 8) 2^-24 and
 * ((x >> 8) - 2^23) 2^-23. */
enum tbrf_dist_id { TBRF_DIST_U01 = 0, TBRF_DIST_S11 = 1, TBRF_DIST_NORMAL = 2 };

/* Name of a generator id ("philox", "saru", "tea8", "lcg64",
 * "lcg64-permuted"), or NULL for an unknown id. */
TBRF_API const char *tbrf_rng_name(int gen);

/* Writes words offset .. offset+n-1 of stream `stream` of generator `gen`
 * with key `seed` into out[0..n-1]; any range gives the same words as
 * generating from word 0 (jump-ahead, no stored state). Word k is
 *   philox: philox4x32-10(ctr = (k/4 lo, k/4 hi, stream lo, stream hi),
 *           key = (seed lo, seed hi)) word k%4;
 *   saru:   output k+1 of Saru seeded with 3 words (seed lo, seed hi,
 *           stream), stream < 2^32;
 *   tea8:   word k%2 of TEA8(v0 = k/2, v1 = stream; k0 = prehash(seed),
 *           k1..k3 the GPU key), seed, stream and k/2 < 2^32;
 *   lcg64, lcg64-permuted: out(x_{k+1}) of the LCG started at
 *           x_0 = jump(seed, stream 2^40), stream < 2^24.
 * Statuses: TBRF_OK, TBRF_ERR_NULL (out NULL with n > 0), TBRF_ERR_SIZE
 * (n < 0), TBRF_ERR_INVALID (unknown gen, stream or range out of bounds). */
TBRF_API int tbrf_rng_u32(int gen, uint64_t seed, uint64_t stream, uint64_t offset, int64_t n,
                 TBRF_ARRAY uint32_t *out);

/* Values offset .. offset+n-1 of the same stream converted by `dist`
 * (TBRF_DIST_U01, _S11 or _NORMAL; for NORMAL, value k uses words
 * 2(k/2) and 2(k/2)+1). Statuses as tbrf_rng_u32, and TBRF_ERR_INVALID for
 * an unknown dist. */
TBRF_API int tbrf_rng_double(int gen, uint64_t seed, uint64_t stream, uint64_t offset, int64_t n,
                    int dist, TBRF_ARRAY double *out);

/* As tbrf_rng_double in single precision: U01 and S11 use the documented
 * 24-bit float conversions, NORMAL is the double value rounded. */
TBRF_API int tbrf_rng_float(int gen, uint64_t seed, uint64_t stream, uint64_t offset, int64_t n,
                   int dist, TBRF_ARRAY float *out);

/* One Philox4x32-10 block: out = philox(ctr, key). ctr/out may alias.
 * With a NULL argument nothing is done (no status: it cannot fail). */
TBRF_API void tbrf_rng_philox4x32(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* TEA8 hash of v[0..1] in place with key[0..3]; key NULL uses the GPU key
 * 0xA341316C 0xC8013EA4 0xAD90777D 0x7E95761E; v NULL does nothing. */
TBRF_API void tbrf_rng_tea8(uint32_t v[2], const uint32_t key[4]);

/* The global-seed pre-hash gs*0x12345677+0x12345; gs ^= gs>>16; gs*=0x45679. */
TBRF_API uint32_t tbrf_rng_seed_prehash(uint32_t seed);

/* Seeds a Saru state (state[0] = LCG word x, state[1] = Weyl word w) from
 * nwords = 1, 2 or 3 words. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (nwords not 1..3). */
TBRF_API int tbrf_rng_saru_seed(int nwords, const uint32_t *seeds, uint32_t state[2]);

/* Steps a Saru state n times writing the n outputs to out. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_SIZE (n < 0). */
TBRF_API int tbrf_rng_saru_next(uint32_t state[2], int64_t n, TBRF_ARRAY uint32_t *out);

/* Advances a Saru state by n steps in O(log n); the same state as n calls
 * of the step. Statuses: TBRF_OK, TBRF_ERR_NULL. */
TBRF_API int tbrf_rng_saru_jump(uint32_t state[2], uint64_t n);

/* Keyed micro-streams (Saru states from TEA8 hashes, nothing stored): the
 * stream of one id (a particle, a cell) at time step `step` under `seed`,
 * written to state (then drawn with tbrf_rng_saru_next). Statuses: TBRF_OK,
 * TBRF_ERR_NULL. */
TBRF_API int tbrf_rng_stream_id(uint32_t seed, uint32_t step, uint32_t id, uint32_t state[2]);
/* The stream of the unordered pair (i, j) at a time step — the same state
 * for (i, j) and (j, i), so both members of a pair interaction draw the
 * same numbers without communicating. Statuses: TBRF_OK, TBRF_ERR_NULL. */
TBRF_API int tbrf_rng_stream_pair(uint32_t seed, uint32_t step, uint32_t i, uint32_t j,
                         uint32_t state[2]);

/* The 64-bit LCG state n steps after x (O(log n)). */
TBRF_API uint64_t tbrf_rng_lcg64_jump(uint64_t x, uint64_t n);

/* Block-form tables of length s: y[j] = a^(j+1), t[j] = C(j+1), so that
 * the s states after x are t[j] + x y[j]. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_SIZE (s < 1). */
TBRF_API int tbrf_rng_lcg64_block(int64_t s, TBRF_ARRAY uint64_t *y, TBRF_ARRAY uint64_t *t);

#ifdef __cplusplus
}
#endif
#endif /* TBRF_RNG_PUBLIC_H */
