#define _POSIX_C_SOURCE 200809L /* setenv */
/* test_driving_time.c — the driver's time process (doc/driving.md,
 * "Time: an OU process by random access").
 *
 * Statistics of the OU tree (fixed seeds; tolerances 4 sigma of each
 * estimator's scatter, derived at each check): over R = 1000 seeds of a
 * driver whose modes are the 3 of |m| = 1 with zeta = 1/2 (P_zeta = I/2,
 * so each of the 18 real coefficients per seed is a fixed multiple of one
 * real OU process, variance v = rms^2 / 36), at anchors j = 10^6, 2^20 - 1
 * (its successor is a node near the top of the tree) and a random j near
 * 2e11, lags k = 1, 2, 10, 100, for lambda = dt/T = 0.1, 1e-6 (f near 1,
 * where cancellation would show) and 40 (f^k underflowing):
 *  - the mean and the variance of a(j) against 0 and v;
 *  - the lag-k covariance against f^k v;
 *  - the increment's variance E(a(j+k) - a(j))^2 against 2 v (1 - f^k),
 *    the conditional structure of neighbours that a wrong bridge breaks
 *    first (and the sharp test when f is near 1).
 * Exact properties:
 *  - stepping through updates in order (across a 2^16 cache block) and
 *    random access (a fresh driver per update, reverse order) give bitwise
 *    the same coefficients; threads 1 and 3 too (modes above the parallel
 *    threshold); a far time (2^40 updates) is fast and refused beyond 2^48;
 *  - a nominal instant t = j dt lands in update j (where floor(t/dt)
 *    would put some of them in j - 1);
 *  - saved states: threads 1 loads into threads 2 bitwise; a NaN value, a
 *    flipped bit in the update index, another tcorr, another seed, a 0.5
 *    state (format TBRFDRV1) and another version are refused, each with
 *    its reason in the message. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support/testutil.h"
#include "support/driving.h"

static const double PI = 3.14159265358979323846;

/* The coefficients of update j (t = j dt) into c (room for nm modes). */
static void coefs(tbrf_driver *d, int64_t j, double dt, int64_t nm, double *c)
{
    int32_t small[3 * 64], *m = nm <= 64 ? small : tu_malloc(sizeof(int32_t) * 3 * (size_t)nm);
    int64_t n = nm;
    int st = tbrf_driver_modes(d, (double)j * dt, &n, m, c);
    CHECK(st == TBRF_OK && n == nm, "modes at update %lld: %s", (long long)j, tbrf_driver_message(d));
    if (m != small)
        free(m);
}

enum { R = 1000, NL = 4, NA = 3 };

/* The OU statistics for lambda = dt / T, as the header says. */
static void ou_stats(const tbrf_model *m, double lambda)
{
    static const int lags[NL] = {1, 2, 10, 100};
    const int64_t anchors[NA] = {1000000, ((int64_t)1 << 20) - 1, 198765432109};
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.zeta = 0.5;
    p.tcorr = 1.0;
    p.dt_update = lambda;
    const double v = 1.0 / 36.0;
    /* sums over seeds and reals: x, x^2 at each anchor; x0 xk and (xk - x0)^2 per lag */
    double s1[NA] = {0}, s2[NA] = {0}, sc[NA][NL] = {{0}}, sd[NA][NL] = {{0}};
    int64_t n = 0;
    for (uint64_t seed = 1; seed <= R; seed++) {
        tbrf_driver *d = drv_make(m, 1000 + seed, &p);
        double c0[18], ck[18];
        for (int a = 0; a < NA; a++) {
            coefs(d, anchors[a], lambda, 3, c0);
            for (int i = 0; i < 18; i++) {
                s1[a] += c0[i];
                s2[a] += c0[i] * c0[i];
            }
            for (int l = 0; l < NL; l++) {
                coefs(d, anchors[a] + lags[l], lambda, 3, ck);
                for (int i = 0; i < 18; i++) {
                    sc[a][l] += c0[i] * ck[i];
                    sd[a][l] += (ck[i] - c0[i]) * (ck[i] - c0[i]);
                }
            }
        }
        tbrf_driver_destroy(d);
    }
    n = 18 * R;
    const double f = exp(-lambda), nn = (double)n;
    for (int a = 0; a < NA; a++) {
        /* x / sqrt v is N(0, 1): its mean scatters by 1/sqrt n, x^2 / v by sqrt(2/n) */
        const double mean = s1[a] / nn / sqrt(v), var = s2[a] / nn / v;
        printf("lambda %g, j = %lld: mean/sd %+.4f (tol %.4f), var/v %.4f (tol %.4f)\n", lambda,
               (long long)anchors[a], mean, 4.0 / sqrt(nn), var, 4.0 * sqrt(2.0 / nn));
        CHECK_NEAR(mean, 0.0, 4.0 / sqrt(nn), "lambda %g: mean at j = %lld", lambda, (long long)anchors[a]);
        CHECK_NEAR(var, 1.0, 4.0 * sqrt(2.0 / nn), "lambda %g: variance at j = %lld", lambda,
                   (long long)anchors[a]);
        for (int l = 0; l < NL; l++) {
            /* x y of unit normals with correlation r has variance 1 + r^2;
             * (y - x)^2 / (2 (1 - r)) is a unit chi-square: variance 2 */
            const double r = pow(f, lags[l]), cov = sc[a][l] / nn / v;
            const double inc = sd[a][l] / nn / v / (-2.0 * expm1(-lambda * lags[l]));
            const double tc = 4.0 * sqrt((1.0 + r * r) / nn), ti = 4.0 * sqrt(2.0 / nn);
            printf("  lag %3d: corr %.5f want %.5f (tol %.4f); increment var ratio %.4f (tol %.4f)\n",
                   lags[l], cov, r, tc, inc, ti);
            CHECK_NEAR(cov, r, tc, "lambda %g: lag-%d correlation at j = %lld", lambda, lags[l],
                       (long long)anchors[a]);
            CHECK_NEAR(inc, 1.0, ti, "lambda %g: lag-%d increment variance at j = %lld", lambda,
                       lags[l], (long long)anchors[a]);
        }
    }
}

static void test_ou_statistics(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 1.2, &m); /* |m| = 1: 3 modes of one variance */
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    tbrf_driver *d = drv_make(m, 1, &p);
    tbrf_driver_info info;
    tbrf_driver_get_info(d, &info);
    CHECK(info.modes == 3, "the |m| = 1 shell holds 3 modes, not %lld", (long long)info.modes);
    tbrf_driver_destroy(d);
    const double lambdas[3] = {0.1, 1e-6, 40.0};
    for (int q = 0; q < 3; q++)
        ou_stats(m, lambdas[q]);
    tbrf_model_destroy(m);
}

/* Stepping and random access, threads, far times. */
static void test_random_access(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 2.0, &m);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.zeta = 0.7;
    tbrf_driver *a = drv_make(m, 31, &p);
    tbrf_driver_info info;
    tbrf_driver_get_info(a, &info);
    const int64_t nm = info.modes;
    const double dt = info.dt_update;
    const int64_t first[2] = {0, 65536 - 40}; /* from 0, and across a cache block's end */
    enum { NS = 80 };
    double *seq = tu_malloc(sizeof(double) * 6 * (size_t)(nm * NS)), *c = tu_malloc(sizeof(double) * 6 * (size_t)nm);
    for (int q = 0; q < 2; q++) {
        for (int64_t k = 0; k < NS; k++)
            coefs(a, first[q] + k, dt, nm, seq + 6 * nm * k);
        int same = 1;
        tbrf_driver *b = drv_make(m, 31, &p);
        for (int64_t k = NS - 1; k >= 0; k--) {
            coefs(b, first[q] + k, dt, nm, c);
            same &= memcmp(c, seq + 6 * nm * k, sizeof(double) * 6 * (size_t)nm) == 0;
        }
        for (int64_t k = 0; k < NS; k += 13) {
            tbrf_driver *f = drv_make(m, 31, &p);
            coefs(f, first[q] + k, dt, nm, c);
            same &= memcmp(c, seq + 6 * nm * k, sizeof(double) * 6 * (size_t)nm) == 0;
            tbrf_driver_destroy(f);
        }
        CHECK(same, "updates %lld.. in order = in reverse = fresh drivers, bitwise", (long long)first[q]);
        tbrf_driver_destroy(b);
        /* the smallest memory budget that makes the driver: its cache holds
         * a level or two (blocks of 2 or 4 updates, each drawn again from
         * the root), and the values are the same */
        tbrf_driver *s = NULL;
        char budget[32] = "";
        for (int bytes = 4000; bytes <= 20000 && !s; bytes += 250) {
            snprintf(budget, sizeof budget, "%d", bytes);
            setenv("TBRF_MEMORY_BUDGET", budget, 1);
            if (tbrf_driver_make(m, 31, &p, &s) != TBRF_OK) {
                tbrf_driver_destroy(s);
                s = NULL;
            }
        }
        CHECK(s != NULL, "a driver under some budget up to 20000 bytes");
        for (int64_t k = 0; s && k < NS; k++) {
            coefs(s, first[q] + k, dt, nm, c);
            same &= memcmp(c, seq + 6 * nm * k, sizeof(double) * 6 * (size_t)nm) == 0;
        }
        unsetenv("TBRF_MEMORY_BUDGET");
        CHECK(same, "updates %lld.. under a budget of %s bytes (a shallow cache): the same bits",
              (long long)first[q], budget);
        tbrf_driver_destroy(s);
    }
    /* far: 2^40 updates in a few milliseconds; 2^48 refused with the reason */
    const clock_t t0 = clock();
    coefs(a, (int64_t)1 << 40, dt, nm, c);
    const double ms = 1e3 * (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("update 2^40 by random access: %.3f ms (%lld modes)\n", ms, (long long)nm);
    CHECK(ms < 500.0, "update 2^40 took %.1f ms", ms);
    double f3[3], x[3] = {0.1, 0.2, 0.3};
    CHECK(tbrf_driver_points(a, ldexp(dt, 48), 1, x, f3) == TBRF_ERR_INVALID &&
              strstr(tbrf_driver_message(a), "2^48") != NULL,
          "t = 2^48 updates refused naming the limit: %s", tbrf_driver_message(a));
    tbrf_driver_destroy(a);
    free(seq);
    free(c);
    tbrf_model_destroy(m);
    /* threads 1 and 3 over 4000+ modes (the tree's parallel loop) */
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 13.0, &m);
    p.threads = 1;
    tbrf_driver *d1 = drv_make(m, 5, &p);
    p.threads = 3;
    tbrf_driver *d3 = drv_make(m, 5, &p);
    tbrf_driver_get_info(d1, &info);
    CHECK(info.modes >= 4096, "%lld modes reach the parallel loop", (long long)info.modes);
    double *c1 = tu_malloc(sizeof(double) * 6 * (size_t)info.modes), *c3 = tu_malloc(sizeof(double) * 6 * (size_t)info.modes);
    coefs(d1, 123456789, info.dt_update, info.modes, c1);
    coefs(d3, 123456789, info.dt_update, info.modes, c3);
    CHECK(memcmp(c1, c3, sizeof(double) * 6 * (size_t)info.modes) == 0, "threads 1 and 3: the same bits");
    free(c1);
    free(c3);
    tbrf_driver_destroy(d1);
    tbrf_driver_destroy(d3);
    tbrf_model_destroy(m);
}

/* t = j dt (the double a caller writes) is in update j for every j, for
 * intervals whose quotient t / dt rounds below j for some j. */
static void test_update_rounding(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 1.2, &m);
    const double dts[3] = {0.1, 0.7 / 3.0, 1e-3};
    for (int q = 0; q < 3; q++) {
        tbrf_driver_params p;
        tbrf_driver_default_params(&p);
        p.dt_update = dts[q];
        tbrf_driver *d = drv_make(m, 2, &p);
        int64_t naive = 0, wrong = 0, n = 0;
        double c[18];
        for (int64_t j = 0; j < 20000; j++) {
            const double t = (double)j * dts[q];
            naive += (int64_t)floor(t / dts[q]) != j;
            coefs(d, j, dts[q], 3, c);
            tbrf_driver_info info;
            tbrf_driver_get_info(d, &info);
            wrong += info.update != j;
            n++;
        }
        printf("dt %.17g: floor(t/dt) misplaces %lld of %lld instants; the driver %lld\n", dts[q],
               (long long)naive, (long long)n, (long long)wrong);
        CHECK(wrong == 0, "dt %g: %lld nominal instants in the wrong update", dts[q], (long long)wrong);
        if (q < 2) /* the test means something: floor alone gets some wrong */
            CHECK(naive > 0, "dt %g: floor(t/dt) is right for every j (pick another dt)", dts[q]);
        tbrf_driver_destroy(d);
    }
    tbrf_model_destroy(m);
}

/* Loads `buf` into d and expects TBRF_ERR_INVALID with `word` in the message. */
static void refused(tbrf_driver *d, const void *buf, int64_t size, const char *word, const char *what)
{
    int st = tbrf_driver_load(d, buf, size);
    CHECK(st == TBRF_ERR_INVALID && strstr(tbrf_driver_message(d), word) != NULL,
          "%s: status %d, message: %s", what, st, tbrf_driver_message(d));
    printf("%s: %s\n", what, tbrf_driver_message(d));
}

static void test_states(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 2.0, &m);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.threads = 1;
    p.interpolate = 1;
    tbrf_driver *a = drv_make(m, 8, &p);
    const double x[6] = {0.1, 0.2, 0.3, 0.9, -0.4, 2.2};
    double fa[6], fb[6];
    tbrf_driver_points(a, 12.345, 2, x, fa);
    const int64_t size = tbrf_driver_state_size(a);
    unsigned char *s = tu_malloc((size_t)size), *bad = tu_malloc((size_t)size);
    CHECK(tbrf_driver_save(a, s, size) == TBRF_OK, "save: %s", tbrf_driver_message(a));
    p.threads = 2;
    tbrf_driver *b = drv_make(m, 8, &p);
    CHECK(tbrf_driver_load(b, s, size) == TBRF_OK, "threads 1's state loads with 2: %s", tbrf_driver_message(b));
    tbrf_driver_points(a, 12.4, 2, x, fa);
    tbrf_driver_points(b, 12.4, 2, x, fb);
    CHECK(memcmp(fa, fb, sizeof fa) == 0, "threads 2 continues bitwise from threads 1's state");
    /* a NaN value (the checksum recomputed or not: finiteness is checked first) */
    memcpy(bad, s, (size_t)size);
    const double nan = NAN;
    memcpy(bad + size - 8 * 5, &nan, 8);
    refused(b, bad, size, "NaN", "a state with a NaN");
    /* a flipped bit in the update index (header word 3, bytes 24..31) */
    memcpy(bad, s, (size_t)size);
    bad[24] ^= 4;
    refused(b, bad, size, "checksum", "a flipped bit in the update index");
    memcpy(bad, s, (size_t)size);
    bad[size - 3] ^= 0x10;
    refused(b, bad, size, "checksum", "a flipped bit in a value");
    /* another physical parameter, another seed */
    p.tcorr = 1.5;
    tbrf_driver *c = drv_make(m, 8, &p);
    refused(c, s, size, "tcorr", "another tcorr");
    tbrf_driver_destroy(c);
    p.tcorr = 1.0;
    c = drv_make(m, 9, &p);
    refused(c, s, size, "seed", "another seed");
    tbrf_driver_destroy(c);
    p.zeta = 0.25;
    c = drv_make(m, 8, &p);
    refused(c, s, size, "zeta", "another zeta");
    tbrf_driver_destroy(c);
    /* versions: a 0.5 state (TBRFDRV1: 40-byte header, then the values),
     * and this format with another minor version (word 2, bytes 16..23) */
    memset(bad, 0, (size_t)size);
    memcpy(bad, "TBRFDRV1", 8);
    refused(b, bad, size, "version", "a state of 0.5 (TBRFDRV1)");
    memcpy(bad, s, (size_t)size);
    uint64_t ver;
    memcpy(&ver, bad + 16, 8);
    ver ^= (uint64_t)1 << 16;
    memcpy(bad + 16, &ver, 8);
    refused(b, bad, size, "version", "another minor version");
    free(s);
    free(bad);
    tbrf_driver_destroy(a);
    tbrf_driver_destroy(b);
    tbrf_model_destroy(m);
}

int main(void)
{
    test_random_access();
    test_update_rounding();
    test_states();
    test_ou_statistics();
    return check_report("test_driving_time");
}
