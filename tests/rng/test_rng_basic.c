/* test_rng_basic.c — exact properties of the generators: jump-ahead equals
 * stepping (Saru, 64-bit LCG, block tables), Saru's period, pair streams
 * symmetric, any range of a stream equals the slice of the whole, the
 * documented conversions at their end points, the core's Philox helpers
 * unchanged, and bad arguments give statuses. */
#include <string.h>

#include "support/check.h"
#include "tbrf/rng/lcg64.h"
#include "tbrf/rng/philox.h"
#include "tbrf/rng/saru.h"
#include "tbrf/rng/tea.h"
#include "tbrf.h"

static void test_saru_jump(void)
{
    const uint64_t ns[] = {0, 1, 2, 3, 7, 100, 4097, 65537, 1000003};
    /* arbitrary states, including Weyl words outside the cycle's range */
    const uint32_t states[][2] = {{0, 0}, {1, 0x80000000u}, {0xdeadbeef, 0x5a916c28u},
                                  {0x12345678, 0xffffffffu}, {7, 0x7fffffffu}, {9, 0x8009d14au}};
    for (size_t s = 0; s < sizeof states / sizeof states[0]; s++)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            tbrf_saru a = {states[s][0], states[s][1]}, b = a;
            for (uint64_t i = 0; i < ns[k]; i++)
                tbrf_saru_next(&a);
            tbrf_saru_jump(&b, ns[k]);
            CHECK(a.x == b.x && a.w == b.w, "saru state %zu: jump(%llu) != stepping", s,
                  (unsigned long long)ns[k]);
        }
    /* jump(m) jump(n) == jump(m + n) for large m, n, and the stream period
     * 3666320093 * 2^32 returns to the same state once inside the cycle */
    tbrf_saru a = tbrf_saru_seed2(11, 22), b = a;
    tbrf_saru_jump(&a, (uint64_t)1 << 40);
    tbrf_saru_jump(&a, 3486784401u);
    tbrf_saru_jump(&b, ((uint64_t)1 << 40) + 3486784401u);
    CHECK(a.x == b.x && a.w == b.w, "saru: jump(2^40) jump(3^20) != jump(2^40 + 3^20)");
    tbrf_saru c = tbrf_saru_seed1(5), d;
    tbrf_saru_next(&c);
    d = c;
    tbrf_saru_jump(&d, (uint64_t)TBRF_SARU_WEYL_PERIOD << 32);
    CHECK(c.x == d.x && c.w == d.w, "saru: jump(period) is not the identity");
    d = c;
    tbrf_saru_jump(&d, (uint64_t)TBRF_SARU_WEYL_PERIOD << 31);
    CHECK(c.x != d.x || c.w != d.w, "saru: jump(period/2) is the identity");
    /* the public wrappers agree */
    uint32_t st[2], seeds[3] = {1, 2, 3}, w1[10], w2[3];
    CHECK(tbrf_rng_saru_seed(3, seeds, st) == TBRF_OK, "saru_seed");
    uint32_t st2[2] = {st[0], st[1]};
    tbrf_rng_saru_next(st, 10, w1);
    tbrf_rng_saru_jump(st2, 7);
    tbrf_rng_saru_next(st2, 3, w2);
    CHECK(w1[7] == w2[0] && w1[9] == w2[2], "saru public jump/next disagree");
}

static void test_lcg_jump(void)
{
    uint64_t x = 0x853c49e6748fea9bull, y = x;
    for (uint64_t i = 1; i <= 1000000; i++) {
        y = tbrf_lcg64_step(y);
        if (i == 1 || i == 2 || i == 63 || i == 64 || i == 65 || i == 1000 || i == 999999 ||
            i == 1000000)
            CHECK(tbrf_lcg64_jump(x, i) == y, "lcg64 jump(%llu) != stepping",
                  (unsigned long long)i);
    }
    CHECK(tbrf_lcg64_jump(x, 0) == x, "lcg64 jump(0)");
    /* period 2^64: jump(2^63) twice is the identity, once is not */
    uint64_t h = tbrf_lcg64_jump(x, (uint64_t)1 << 63);
    CHECK(h != x && tbrf_lcg64_jump(h, (uint64_t)1 << 63) == x, "lcg64 period");
    CHECK(tbrf_rng_lcg64_jump(x, 12345) == tbrf_lcg64_jump(x, 12345), "public lcg64 jump");
    /* block tables: the s states after x are t + x y */
    enum { S = 37 };
    uint64_t yy[S], tt[S];
    CHECK(tbrf_rng_lcg64_block(S, yy, tt) == TBRF_OK, "block tables");
    y = x;
    for (int j = 0; j < S; j++) {
        y = tbrf_lcg64_step(y);
        CHECK(tt[j] + x * yy[j] == y, "block form state %d", j);
    }
    CHECK(tbrf_rng_lcg64_block(0, yy, tt) == TBRF_ERR_SIZE, "block s=0");
    CHECK(tbrf_rng_lcg64_block(4, NULL, tt) == TBRF_ERR_NULL, "block NULL");
}

static void test_pairs(void)
{
    int asym = 0, same_as_swap_free = 0;
    for (uint32_t i = 0; i < 50; i++)
        for (uint32_t j = 0; j < 50; j++) {
            tbrf_saru a = tbrf_stream_pair(42, 7, i, j), b = tbrf_stream_pair(42, 7, j, i);
            if (a.x != b.x || a.w != b.w)
                asym++;
            philox4x32_ctr_t p = tbrf_philox_pair(42, 7, i, j, 3), q = tbrf_philox_pair(42, 7, j, i, 3);
            if (memcmp(p.v, q.v, sizeof p.v))
                asym++;
            uint32_t s1[2], s2[2];
            tbrf_rng_stream_pair(42, 7, i, j, s1);
            tbrf_rng_stream_pair(42, 7, j, i, s2);
            if (s1[0] != s2[0] || s1[1] != s2[1] || s1[0] != a.x)
                asym++;
            /* different pairs, steps and seeds give different states */
            if (i < j) {
                tbrf_saru c = tbrf_stream_pair(42, 8, i, j), e = tbrf_stream_pair(43, 7, i, j);
                tbrf_saru g = tbrf_stream_id(42, 7, i);
                if ((c.x == a.x && c.w == a.w) || (e.x == a.x && e.w == a.w) ||
                    (g.x == a.x && g.w == a.w))
                    same_as_swap_free++;
            }
        }
    CHECK(asym == 0, "%d pair streams not symmetric", asym);
    CHECK(same_as_swap_free == 0, "%d pair streams coincide with other keys", same_as_swap_free);
    uint32_t st[2];
    tbrf_rng_stream_id(1, 2, 3, st);
    tbrf_saru s = tbrf_stream_id(1, 2, 3);
    CHECK(st[0] == s.x && st[1] == s.w, "stream_id public != header");
}

static void test_ranges(void)
{
    enum { N = 1000 };
    static uint32_t all[N], part[N];
    static double dall[N], dpart[N];
    for (int g = TBRF_GEN_PHILOX; g <= TBRF_GEN_LCG64_PERMUTED; g++) {
        CHECK(tbrf_rng_u32(g, 77, 5, 0, N, all) == TBRF_OK, "%s u32", tbrf_rng_name(g));
        const uint64_t offs[] = {0, 1, 3, 4, 5, 333, 998};
        for (size_t k = 0; k < sizeof offs / sizeof offs[0]; k++) {
            int64_t m = N - (int64_t)offs[k];
            CHECK(tbrf_rng_u32(g, 77, 5, offs[k], m, part) == TBRF_OK, "range");
            CHECK(memcmp(part, all + offs[k], (size_t)m * 4) == 0, "%s: range at %llu differs",
                  tbrf_rng_name(g), (unsigned long long)offs[k]);
        }
        /* normals: any offset agrees with the whole */
        CHECK(tbrf_rng_double(g, 77, 5, 0, N, TBRF_DIST_NORMAL, dall) == TBRF_OK, "normal");
        CHECK(tbrf_rng_double(g, 77, 5, 7, N - 7, TBRF_DIST_NORMAL, dpart) == TBRF_OK, "normal");
        CHECK(memcmp(dpart, dall + 7, (N - 7) * sizeof(double)) == 0, "%s: normal range",
              tbrf_rng_name(g));
        double g0, g1;
        tbrf_box_muller(all[10], all[11], &g0, &g1);
        CHECK(g0 == dall[10] && g1 == dall[11], "%s: normal is not Box-Muller of words",
              tbrf_rng_name(g));
        CHECK(tbrf_rng_double(g, 77, 5, 0, N, TBRF_DIST_U01, dall) == TBRF_OK, "u01");
        CHECK(dall[3] == tbrf_u01(all[3]), "u01 conversion");
        float fl[4];
        CHECK(tbrf_rng_float(g, 77, 5, 0, 4, TBRF_DIST_S11, fl) == TBRF_OK, "s11f");
        CHECK(fl[2] == tbrf_s11f(all[2]), "s11f conversion");
        /* neighbouring streams and seeds differ */
        CHECK(tbrf_rng_u32(g, 77, 6, 0, N, part) == TBRF_OK, "u32");
        CHECK(memcmp(part, all, sizeof all) != 0, "%s: stream 5 == stream 6", tbrf_rng_name(g));
    }
}

static void test_conversions(void)
{
    CHECK(tbrf_u01(0) == 0.0 && tbrf_u01(0xFFFFFFFFu) < 1.0, "u01 ends");
    CHECK(tbrf_u01f(0) == 0.0f && tbrf_u01f(0xFFFFFFFFu) < 1.0f &&
              tbrf_u01f(0xFFFFFFFFu) == 1.0f - 1.0f / 16777216.0f, "u01f ends");
    CHECK(tbrf_s11(0) == -1.0 && tbrf_s11(0xFFFFFFFFu) < 1.0 && tbrf_s11(0x80000000u) == 0.0,
          "s11 ends");
    CHECK(tbrf_s11f(0) == -1.0f && tbrf_s11f(0xFFFFFFFFu) < 1.0f && tbrf_s11f(0x80000000u) == 0.0f,
          "s11f ends");
    CHECK(tbrf_u01_open(0) > 0 && tbrf_u01_open(0xFFFFFFFFu) < 1.0, "u01_open ends");
    CHECK(tbrf_u01_53(0xFFFFFFFFu, 0xFFFFFFFFu) < 1.0 && tbrf_u01_53(0, 0) == 0.0, "u01_53");
    CHECK(tbrf_lcg64_u01(~(uint64_t)0) < 1.0, "lcg64_u01");
    /* the core's Philox helpers are unchanged */
    philox4x32_ctr_t c = {{1, 2, 3, 0}}, r = tbrf_philox(0x100000005ull, 3, 1, 2);
    philox4x32_key_t k = {{5, 1}};
    philox4x32_ctr_t e = philox4x32(c, k);
    CHECK(memcmp(r.v, e.v, sizeof r.v) == 0, "tbrf_philox changed");
    double g[4], h0, h1;
    tbrf_philox_normal4(0x100000005ull, 3, 1, 2, g);
    tbrf_box_muller(e.v[2], e.v[3], &h0, &h1);
    CHECK(g[2] == h0 && g[3] == h1, "tbrf_philox_normal4 changed");
}

static void test_errors(void)
{
    uint32_t w[4];
    double d[4];
    CHECK(tbrf_rng_u32(99, 0, 0, 0, 4, w) == TBRF_ERR_INVALID, "bad gen");
    CHECK(tbrf_rng_u32(-1, 0, 0, 0, 4, w) == TBRF_ERR_INVALID, "bad gen");
    CHECK(tbrf_rng_u32(TBRF_GEN_PHILOX, 0, 0, 0, -1, w) == TBRF_ERR_SIZE, "n<0");
    CHECK(tbrf_rng_u32(TBRF_GEN_PHILOX, 0, 0, 0, 4, NULL) == TBRF_ERR_NULL, "NULL");
    CHECK(tbrf_rng_u32(TBRF_GEN_PHILOX, 0, 0, 0, 0, NULL) == TBRF_OK, "n=0 NULL ok");
    CHECK(tbrf_rng_u32(TBRF_GEN_PHILOX, 0, 0, UINT64_MAX, 2, w) == TBRF_ERR_INVALID, "wrap");
    CHECK(tbrf_rng_u32(TBRF_GEN_SARU, 0, (uint64_t)1 << 32, 0, 4, w) == TBRF_ERR_INVALID,
          "saru stream");
    CHECK(tbrf_rng_u32(TBRF_GEN_TEA8, (uint64_t)1 << 32, 0, 0, 4, w) == TBRF_ERR_INVALID,
          "tea8 seed");
    CHECK(tbrf_rng_u32(TBRF_GEN_TEA8, 0, 0, (uint64_t)1 << 33, 4, w) == TBRF_ERR_INVALID,
          "tea8 offset");
    CHECK(tbrf_rng_u32(TBRF_GEN_LCG64, 0, (uint64_t)1 << 24, 0, 4, w) == TBRF_ERR_INVALID,
          "lcg stream");
    CHECK(tbrf_rng_double(TBRF_GEN_PHILOX, 0, 0, 0, 4, 7, d) == TBRF_ERR_INVALID, "bad dist");
    CHECK(tbrf_rng_double(TBRF_GEN_PHILOX, 0, 0, 0, 4, TBRF_DIST_U01, NULL) == TBRF_ERR_NULL,
          "NULL d");
    CHECK(tbrf_rng_float(TBRF_GEN_PHILOX, 0, 0, 0, 4, TBRF_DIST_U01, NULL) == TBRF_ERR_NULL,
          "NULL f");
    uint32_t st[2], s3[3] = {0};
    CHECK(tbrf_rng_saru_seed(0, s3, st) == TBRF_ERR_INVALID, "nwords 0");
    CHECK(tbrf_rng_saru_seed(4, s3, st) == TBRF_ERR_INVALID, "nwords 4");
    CHECK(tbrf_rng_saru_seed(1, NULL, st) == TBRF_ERR_NULL, "seeds NULL");
    CHECK(tbrf_rng_saru_next(st, -1, w) == TBRF_ERR_SIZE, "next n<0");
    CHECK(tbrf_rng_saru_next(NULL, 1, w) == TBRF_ERR_NULL, "next NULL");
    CHECK(tbrf_rng_saru_jump(NULL, 1) == TBRF_ERR_NULL, "jump NULL");
    CHECK(tbrf_rng_stream_id(0, 0, 0, NULL) == TBRF_ERR_NULL, "stream NULL");
    CHECK(tbrf_rng_stream_pair(0, 0, 0, 1, NULL) == TBRF_ERR_NULL, "pair NULL");
    CHECK(tbrf_rng_name(5) == NULL && tbrf_rng_name(0) != NULL, "names");
    tbrf_rng_philox4x32(NULL, NULL, NULL); /* must not crash */
    tbrf_rng_tea8(NULL, NULL);
}

int main(void)
{
    test_saru_jump();
    test_lcg_jump();
    test_pairs();
    test_ranges();
    test_conversions();
    test_errors();
    return check_report("test_rng_basic");
}
