/* test_rng_stats.c — uniformity and independence smoke tests for every
 * generator along its stream and across neighbouring keys (seeds, stream
 * numbers, particle ids, pairs): chi-square of 256 equal bins, chi-square
 * of 16x16 bins of successive pairs, lag-1 serial correlation, and the
 * first four moments of Box–Muller normals.
 *
 * Tolerances (N samples, all seeds fixed so the run is deterministic):
 *  - chi-square with k = 255 degrees of freedom is about normal with mean
 *    k and sd sqrt(2k) = 22.6; we require |X - k| < 5 sd (two-sided
 *    p ~ 6e-7 per test; a bad generator is off by hundreds or thousands);
 *  - the lag-1 correlation r of N iid uniforms has sd 1/sqrt(N): |r| < 5/sqrt(N);
 *  - normals: the mean has sd 1/sqrt(N), the variance sqrt(2/N), the
 *    skewness sqrt(6/N), the excess kurtosis sqrt(24/N); each within 5 sd. */
#include <math.h>
#include <stdlib.h>

#include "support/check.h"
#include "tbrf/rng/philox.h"
#include "tbrf/rng/saru.h"
#include "tbrf/rng/tea.h"
#include "tbrf.h"

#define N (1 << 20)

static void uniform_tests(const char *what, const uint32_t *w, int64_t n)
{
    static double c1[256], c2[256];
    double sd = sqrt(2.0 * 255);
    for (int b = 0; b < 256; b++)
        c1[b] = c2[b] = 0;
    for (int64_t i = 0; i < n; i++)
        c1[w[i] >> 24] += 1;
    for (int64_t i = 0; i + 1 < n; i += 2)
        c2[(w[i] >> 28) * 16 + (w[i + 1] >> 28)] += 1;
    double x1 = 0, x2 = 0, e1 = (double)n / 256, e2 = (double)(n / 2) / 256;
    for (int b = 0; b < 256; b++) {
        x1 += (c1[b] - e1) * (c1[b] - e1) / e1;
        x2 += (c2[b] - e2) * (c2[b] - e2) / e2;
    }
    double m = 0, sxy = 0, sxx = 0;
    for (int64_t i = 0; i < n; i++)
        m += tbrf_u01_open(w[i]);
    m /= (double)n;
    for (int64_t i = 0; i < n; i++) {
        double a = tbrf_u01_open(w[i]) - m;
        sxx += a * a;
        if (i + 1 < n)
            sxy += a * (tbrf_u01_open(w[i + 1]) - m);
    }
    double r = sxy / sxx, rtol = 5 / sqrt((double)n);
    printf("%-34s chi2(256 bins) %7.1f  chi2(pairs) %7.1f  (255 +- %.0f)  r1 %+.5f (+- %.5f)\n",
           what, x1, x2, 5 * sd, r, rtol);
    CHECK(fabs(x1 - 255) < 5 * sd, "%s: chi-square %.1f", what, x1);
    CHECK(fabs(x2 - 255) < 5 * sd, "%s: pair chi-square %.1f", what, x2);
    CHECK(fabs(r) < rtol, "%s: serial correlation %.5f", what, r);
}

static void normal_tests(const char *what, const double *g, int64_t n)
{
    double m = 0, m2 = 0, m3 = 0, m4 = 0;
    for (int64_t i = 0; i < n; i++)
        m += g[i];
    m /= (double)n;
    for (int64_t i = 0; i < n; i++) {
        double d = g[i] - m, d2 = d * d;
        m2 += d2;
        m3 += d2 * d;
        m4 += d2 * d2;
    }
    m2 /= (double)n;
    m3 /= (double)n;
    m4 /= (double)n;
    double skew = m3 / pow(m2, 1.5), kurt = m4 / (m2 * m2) - 3, sn = sqrt((double)n);
    printf("%-34s normal mean %+.4f var %.4f skew %+.4f kurt %+.4f\n", what, m, m2, skew, kurt);
    CHECK(fabs(m) < 5 / sn, "%s: normal mean %g", what, m);
    CHECK(fabs(m2 - 1) < 5 * sqrt(2.0) / sn, "%s: normal variance %g", what, m2);
    CHECK(fabs(skew) < 5 * sqrt(6.0) / sn, "%s: skewness %g", what, skew);
    CHECK(fabs(kurt) < 5 * sqrt(24.0) / sn, "%s: excess kurtosis %g", what, kurt);
}

int main(void)
{
    uint32_t *w = malloc(N * sizeof *w);
    double *g = malloc(N * sizeof *g);
    if (!w || !g)
        return 1;
    char what[96];
    for (int gen = TBRF_GEN_PHILOX; gen <= TBRF_GEN_LCG64_PERMUTED; gen++) {
        /* along one stream */
        CHECK(tbrf_rng_u32(gen, 2024, 3, 0, N, w) == TBRF_OK, "u32");
        snprintf(what, sizeof what, "%s stream", tbrf_rng_name(gen));
        uniform_tests(what, w, N);
        CHECK(tbrf_rng_double(gen, 2024, 3, 0, N, TBRF_DIST_NORMAL, g) == TBRF_OK, "normal");
        normal_tests(what, g, N);
        /* Across neighbouring keys. The LCGs are stream generators, not
         * keyed ones: their first output over consecutive seeds is a
         * function of a x + c, a Weyl-like sequence (the measured
         * chi-square is ~55 or ~2000 against 255), so for them we test
         * neighbouring substreams (2^40 apart) word by word instead:
         * w[2i] = stream 0 word i, w[2i+1] = stream 1 word i. */
        if (gen >= TBRF_GEN_LCG64) {
            static uint32_t a[N / 2], b[N / 2];
            tbrf_rng_u32(gen, 2024, 0, 0, N / 2, a);
            tbrf_rng_u32(gen, 2024, 1, 0, N / 2, b);
            for (int64_t i = 0; i < N / 2; i++) {
                w[2 * i] = a[i];
                w[2 * i + 1] = b[i];
            }
            snprintf(what, sizeof what, "%s streams 0,1 interleaved", tbrf_rng_name(gen));
            uniform_tests(what, w, N);
            continue;
        }
        uint64_t nstreams = N;
        for (uint64_t s = 0; s < nstreams; s++)
            tbrf_rng_u32(gen, 2024, s, 0, 1, &w[s]);
        snprintf(what, sizeof what, "%s word 0 of streams 0..", tbrf_rng_name(gen));
        uniform_tests(what, w, (int64_t)nstreams);
        /* across neighbouring seeds */
        for (uint64_t s = 0; s < N; s++)
            tbrf_rng_u32(gen, s, 0, 0, 1, &w[s]);
        snprintf(what, sizeof what, "%s word 0 of seeds 0..", tbrf_rng_name(gen));
        uniform_tests(what, w, N);
    }
    /* keyed micro-streams: first word of neighbouring particles, steps and
     * pairs, Saru 1-word seeding of neighbouring seeds, Philox id streams */
    for (uint32_t i = 0; i < N; i++) {
        tbrf_saru s = tbrf_stream_id(1, 100, i);
        w[i] = tbrf_saru_next(&s);
    }
    uniform_tests("saru stream_id, ids 0..", w, N);
    for (uint32_t i = 0; i < N; i++) {
        tbrf_saru s = tbrf_stream_id(1, i, 7);
        w[i] = tbrf_saru_next(&s);
    }
    uniform_tests("saru stream_id, steps 0..", w, N);
    for (uint32_t i = 0; i < N; i++) {
        tbrf_saru s = tbrf_stream_pair(1, 100, i, i + 1);
        w[i] = tbrf_saru_next(&s);
    }
    uniform_tests("saru stream_pair (i, i+1)", w, N);
    for (uint32_t i = 0; i < N; i++) {
        tbrf_saru s = tbrf_saru_seed1(i);
        w[i] = tbrf_saru_next(&s);
    }
    uniform_tests("saru seed1(i) first word", w, N);
    for (uint32_t i = 0; i < N; i++)
        w[i] = tbrf_philox_id(9, 100, i, 0).v[0];
    uniform_tests("philox_id, ids 0..", w, N);
    for (uint32_t i = 0; i < N; i++)
        w[i] = tbrf_philox_pair(9, 100, i, i + 1, 0).v[0];
    uniform_tests("philox_pair (i, i+1)", w, N);
    /* a micro-stream's normals, 4 per particle over many particles */
    for (uint32_t i = 0; i < N / 4; i++) {
        tbrf_saru s = tbrf_stream_id(3, 5, i);
        uint32_t a[4];
        for (int k = 0; k < 4; k++)
            a[k] = tbrf_saru_next(&s);
        tbrf_box_muller(a[0], a[1], &g[4 * i], &g[4 * i + 1]);
        tbrf_box_muller(a[2], a[3], &g[4 * i + 2], &g[4 * i + 3]);
    }
    normal_tests("saru micro-streams, 4 per id", g, N);
    free(w);
    free(g);
    return check_report("test_rng_stats");
}
