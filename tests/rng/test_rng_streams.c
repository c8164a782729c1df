/* test_rng_streams.c — the public random streams never return a field's,
 * a driver's or an initial condition's random numbers for the same seed
 * (c/core/streams.h, doc/rng.md): the words tbrf_rng_u32 (philox),
 * tbrf_philox_id and tbrf_philox_pair give are compared with the words of
 * the counters the field's lines, shifts, directions, vector amplitudes,
 * FFT modes and the driver draw from, at the places where the public
 * streams of 0.4.0 returned exactly those words. */
#include <string.h>

#include "core/streams.h"
#include "support/check.h"
#include "tbrf/rng/philox.h"
#include "tbrf.h"

static const uint64_t SEEDS[] = {7, 0x0123456789ABCDEFull};
static const uint64_t REALIZATIONS[] = {0, 3, ((uint64_t)1 << 40) + 1};

/* Word-1 values the field and driver streams use (core/streams.h). */
static const uint32_t FIELD_W1[] = {
    0, 1, 5, 1023, (1u << 24) - 1,                       /* line modes */
    TBRF_STREAM_SHIFT | 0, TBRF_STREAM_SHIFT | 77,       /* sub-sample shifts */
    TBRF_STREAM_VECTOR | 0, TBRF_STREAM_VECTOR | 9,      /* vector amplitudes */
    TBRF_STREAM_DRIVE, TBRF_STREAM_DRIVE | 3u,           /* driver modes (to 0.5) */
    TBRF_STREAM_OU, TBRF_STREAM_OU | 3u,                 /* driver's OU tree */
    TBRF_STREAM_IC, TBRF_STREAM_IC | (1u << 16),         /* initial conditions */
    TBRF_STREAM_FFT, TBRF_STREAM_FFT | 1u,               /* FFT modes */
    TBRF_STREAM_ROTATION};
static const uint32_t FIELD_W0[] = {0, 1, 2, 1000};

/* tbrf_rng_u32's stream (seed, r) at block (w1 << 32 | w0) was, before
 * 0.5.0, the field's counter (w0, w1, r): now it is refused (the block is
 * beyond the stream's 2^58) or different. */
static void test_public_stream(void)
{
    int compared = 0;
    for (size_t s = 0; s < sizeof SEEDS / sizeof *SEEDS; s++)
        for (size_t r = 0; r < sizeof REALIZATIONS / sizeof *REALIZATIONS; r++)
            for (size_t a = 0; a < sizeof FIELD_W1 / sizeof *FIELD_W1; a++)
                for (size_t b = 0; b < sizeof FIELD_W0 / sizeof *FIELD_W0; b++) {
                    uint64_t blk = (uint64_t)FIELD_W1[a] << 32 | FIELD_W0[b];
                    philox4x32_ctr_t f = tbrf_philox(SEEDS[s], REALIZATIONS[r], FIELD_W0[b], FIELD_W1[a]);
                    uint32_t w[4];
                    int st = tbrf_rng_u32(TBRF_GEN_PHILOX, SEEDS[s], REALIZATIONS[r], 4 * blk, 4, w);
                    if (st == TBRF_ERR_INVALID) {
                        CHECK(blk >= ((uint64_t)1 << 58), "block %llx refused below 2^58",
                              (unsigned long long)blk);
                        continue;
                    }
                    CHECK(st == TBRF_OK, "tbrf_rng_u32 status %d", st);
                    CHECK(memcmp(w, f.v, sizeof w) != 0,
                          "seed %llx stream %llu block %llx: the public stream repeats the field's counter "
                          "(w0 %u, w1 %#x)", (unsigned long long)SEEDS[s],
                          (unsigned long long)REALIZATIONS[r], (unsigned long long)blk, FIELD_W0[b],
                          FIELD_W1[a]);
                    compared++;
                }
    CHECK(compared > 0, "no block compared");
    /* The documented formula, so the comparison above means something. */
    const uint64_t seed = 0x0123456789ABCDEFull, stream = 5ull << 32 | 3, blk = (3ull << 32) | 4;
    uint32_t w[4];
    CHECK(tbrf_rng_u32(TBRF_GEN_PHILOX, seed, stream, 4 * blk, 4, w) == TBRF_OK, "rng_u32");
    philox4x32_ctr_t c = {{4, TBRF_STREAM_RNG | 3, 3, 5}};
    philox4x32_key_t k = {{0x89ABCDEFu, 0x01234567u}};
    philox4x32_ctr_t e = philox4x32(c, k);
    CHECK(memcmp(w, e.v, sizeof w) == 0, "tbrf_rng_u32 does not follow its documented counter");
    /* The stream ends at word 2^60. */
    CHECK(tbrf_rng_u32(TBRF_GEN_PHILOX, seed, stream, ((uint64_t)1 << 60) - 4, 4, w) == TBRF_OK,
          "the last block of the stream");
    CHECK(tbrf_rng_u32(TBRF_GEN_PHILOX, seed, stream, ((uint64_t)1 << 60) - 3, 4, w) == TBRF_ERR_INVALID,
          "a range past word 2^60");
}

/* The micro-streams: tbrf_philox_id's counter was (id, step, n, 0), the
 * field's line `step`, block `id` of realization n; tbrf_philox_pair's
 * key was the seed with its high word inverted, another seed's key. */
static void test_micro_streams(void)
{
    for (size_t s = 0; s < sizeof SEEDS / sizeof *SEEDS; s++)
        for (uint32_t step = 0; step < 3; step++)
            for (uint32_t id = 0; id < 5; id++)
                for (uint32_t n = 0; n < 3; n++) {
                    philox4x32_ctr_t m = tbrf_philox_id(SEEDS[s], step, id, n);
                    philox4x32_ctr_t f = tbrf_philox(SEEDS[s], n, id, step);
                    CHECK(memcmp(m.v, f.v, sizeof m.v) != 0, "philox_id repeats line %u block %u", step, id);
                    philox4x32_ctr_t p = tbrf_philox_pair(SEEDS[s], step, id, id + 1, n);
                    uint64_t other = SEEDS[s] ^ ((uint64_t)0xFFFFFFFFu << 32);
                    philox4x32_ctr_t g = tbrf_philox(other, (uint64_t)n << 32 | step, id, id + 1);
                    CHECK(memcmp(p.v, g.v, sizeof p.v) != 0, "philox_pair repeats another seed's line");
                    philox4x32_ctr_t c = {{id, TBRF_STREAM_RNG_PAIR | n, id + 1, step}};
                    philox4x32_key_t k = {{(uint32_t)SEEDS[s], (uint32_t)(SEEDS[s] >> 32)}};
                    philox4x32_ctr_t e = philox4x32(c, k);
                    CHECK(memcmp(p.v, e.v, sizeof p.v) == 0, "philox_pair's documented counter");
                }
}

int main(void)
{
    test_public_stream();
    test_micro_streams();
    return check_report("test_rng_streams");
}
