/* test_mc.c — Monte Carlo integration: the exact integrals of the built-in
 * integrands against an independent tensor midpoint rule (dim 2), every
 * integrand's estimate within 4 standard errors of its exact value (the
 * estimator's error is ~N(0, SE^2), so a correct code fails a given case
 * with probability 6e-5; the seeds are fixed), the sequential and the
 * vectorized algorithm giving the same bits for any block size, a user
 * callback over a box, and bad arguments. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "tbrf.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef struct cb {
    int64_t calls_fail_after; /* abort when this many points were seen (<0: never) */
    int64_t seen;
} cb;

/* f = x1 + x2^2 over the box; thread-safe apart from the abort counter,
 * which is only used single-threaded (sequential algorithm). */
static int user_f(void *user, int64_t n, int dim, const double *x, double *f)
{
    cb *c = user;
    for (int64_t p = 0; p < n; p++)
        f[p] = x[p * dim] + x[p * dim + 1] * x[p * dim + 1];
    if (c && c->calls_fail_after >= 0) {
        c->seen += n;
        if (c->seen > c->calls_fail_after)
            return 1;
    }
    return 0;
}

/* Midpoint rule on an m x m grid for dim 2 (error O(h^2) for smooth f;
 * the discontinuous family's jumps at u = 0.5 fall on cell edges). */
static double midpoint2(int integrand, const double *a, const double *u, int m)
{
    double s = 0, h = 1.0 / m;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            double x[2] = {(i + 0.5) * h, (j + 0.5) * h}, f;
            switch (integrand) {
            case TBRF_MC_OSCILLATORY:
                f = cos(2 * M_PI * u[0] + a[0] * x[0] + a[1] * x[1]);
                break;
            case TBRF_MC_PRODUCT_PEAK:
                f = 1 / ((1 / (a[0] * a[0]) + (x[0] - u[0]) * (x[0] - u[0])) *
                         (1 / (a[1] * a[1]) + (x[1] - u[1]) * (x[1] - u[1])));
                break;
            case TBRF_MC_CORNER_PEAK:
                f = pow(1 + a[0] * x[0] + a[1] * x[1], -3);
                break;
            case TBRF_MC_GAUSSIAN:
                f = exp(-a[0] * a[0] * (x[0] - u[0]) * (x[0] - u[0]) -
                        a[1] * a[1] * (x[1] - u[1]) * (x[1] - u[1]));
                break;
            case TBRF_MC_CONTINUOUS:
                f = exp(-a[0] * fabs(x[0] - u[0]) - a[1] * fabs(x[1] - u[1]));
                break;
            default:
                f = (x[0] > u[0] || x[1] > u[1]) ? 0 : exp(a[0] * x[0] + a[1] * x[1]);
                break;
            }
            s += f;
        }
    return s * h * h;
}

int main(void)
{
    const double a2[2] = {2.5, 1.5}, u2[2] = {0.5, 0.25};
    /* exact formulas vs midpoint, dim 2, non-default parameters (u on the
     * 1/1000 grid so the discontinuity sits on cell edges) */
    for (int k = TBRF_MC_OSCILLATORY; k <= TBRF_MC_DISCONTINUOUS; k++) {
        double ex, mid = midpoint2(k, a2, u2, 2000);
        CHECK(tbrf_mc_exact(k, 2, a2, u2, &ex) == TBRF_OK, "exact %d", k);
        /* midpoint error ~ h^2/24 max|f''| ~ 1e-7 |f| here; the
         * continuous family's kink costs O(h^2) too */
        CHECK(fabs(ex - mid) < 1e-5 * fabs(ex) + 1e-9, "%s: exact %.10g vs midpoint %.10g",
              tbrf_mc_integrand_name(k), ex, mid);
    }
    double nag;
    CHECK(tbrf_mc_exact(TBRF_MC_NAG, 4, NULL, NULL, &nag) == TBRF_OK &&
              fabs(nag - 0.5753641449035618) < 1e-15, "nag exact %.16g", nag);

    /* estimates within 4 SE, both algorithms bitwise equal */
    const int dims[] = {2, 5, 10};
    for (int k = TBRF_MC_OSCILLATORY; k <= TBRF_MC_NAG; k++)
        for (size_t di = 0; di < 3; di++) {
            int d = k == TBRF_MC_NAG ? 4 : dims[di];
            if (k == TBRF_MC_NAG && di > 0)
                break;
            double ex, r1[2], r2[2], r3[2];
            const int64_t n = 200000;
            CHECK(tbrf_mc_exact(k, d, NULL, NULL, &ex) == TBRF_OK, "exact");
            CHECK(tbrf_mc_integrate(k, d, NULL, NULL, n, 12345, TBRF_MC_SEQUENTIAL, 0, r1) ==
                      TBRF_OK, "sequential");
            CHECK(tbrf_mc_integrate(k, d, NULL, NULL, n, 12345, TBRF_MC_VECTORIZED, 0, r2) ==
                      TBRF_OK, "vectorized");
            CHECK(tbrf_mc_integrate(k, d, NULL, NULL, n, 12345, TBRF_MC_VECTORIZED, 7, r3) ==
                      TBRF_OK, "vectorized s=7");
            double z = (r1[0] - ex) / r1[1];
            printf("%-14s d=%2d exact %.10g estimate %.10g se %.3g z %+.2f\n",
                   tbrf_mc_integrand_name(k), d, ex, r1[0], r1[1], z);
            CHECK(r1[1] > 0 && fabs(z) < 4, "%s d=%d: |z| = %.2f", tbrf_mc_integrand_name(k), d,
                  z);
            CHECK(memcmp(r1, r2, sizeof r1) == 0 && memcmp(r1, r3, sizeof r1) == 0,
                  "%s d=%d: algorithms differ: %.17g %.17g %.17g", tbrf_mc_integrand_name(k), d,
                  r1[0], r2[0], r3[0]);
        }

    /* a different seed gives a different estimate (the seed is used) */
    double s1[2], s2[2];
    tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 3, NULL, NULL, 1000, 1, TBRF_MC_SEQUENTIAL, 0, s1);
    tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 3, NULL, NULL, 1000, 2, TBRF_MC_SEQUENTIAL, 0, s2);
    CHECK(s1[0] != s2[0], "seed ignored");

    /* user callback over the box [0,2] x [1,3] (area 4): the integral of
     * x1 is 4 * mean(x1) = 4, of x2^2 is 2 * (27 - 1)/3 = 52/3 */
    const double lo[2] = {0, 1}, hi[2] = {2, 3}, exact_user = 4 + 52.0 / 3;
    double r[2], rv[2];
    CHECK(tbrf_mc_integrate_fn(user_f, NULL, 2, lo, hi, 100000, 9, TBRF_MC_SEQUENTIAL, 0, r) ==
              TBRF_OK, "user seq");
    CHECK(tbrf_mc_integrate_fn(user_f, NULL, 2, lo, hi, 100000, 9, TBRF_MC_VECTORIZED, 64, rv) ==
              TBRF_OK, "user vec");
    CHECK(fabs(r[0] - exact_user) < 4 * r[1], "user: %.6g vs %.6g (se %.3g)", r[0], exact_user,
          r[1]);
    CHECK(memcmp(r, rv, sizeof r) == 0, "user: algorithms differ");
    cb c = {5000, 0};
    CHECK(tbrf_mc_integrate_fn(user_f, &c, 2, lo, hi, 100000, 9, TBRF_MC_SEQUENTIAL, 0, r) ==
              TBRF_ERR_CALLBACK, "callback abort");

    /* block size model */
    int64_t s;
    /* s* = sqrt(16 * 1000 / 4) = 63.2 and sqrt(16 * 1e6 / 4) = 2000; the
     * upper clamp is 2^20 / dim points */
    CHECK(tbrf_mc_block_size(1000, 4, 16, &s) == TBRF_OK && s == 63, "s* = %lld", (long long)s);
    CHECK(tbrf_mc_block_size(1000000, 4, 16, &s) == TBRF_OK && s == 2000, "s* = %lld",
          (long long)s);
    CHECK(tbrf_mc_block_size((int64_t)1 << 50, 4, 16, &s) == TBRF_OK && s == (1 << 20) / 4,
          "clamped s* = %lld", (long long)s);
    CHECK(tbrf_mc_block_size(0, 4, 16, &s) == TBRF_ERR_SIZE, "n = 0");
    CHECK(tbrf_mc_block_size(10, 4, 16, NULL) == TBRF_ERR_NULL, "NULL s");
    double beta = -1;
    CHECK(tbrf_mc_measure_beta(&beta) == TBRF_OK && beta > 0 && isfinite(beta), "beta %g", beta);
    printf("measured beta = %.2f\n", beta);

    /* bad arguments */
    double o[2];
    CHECK(tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 3, NULL, NULL, 1000, 1, 0, 0, NULL) ==
              TBRF_ERR_NULL, "NULL out");
    CHECK(tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 3, NULL, NULL, 1, 1, 0, 0, o) == TBRF_ERR_SIZE,
          "n=1");
    CHECK(tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 3, NULL, NULL, 100, 1, 0, -1, o) == TBRF_ERR_SIZE,
          "block<0");
    CHECK(tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 3, NULL, NULL, 100, 1, 5, 0, o) ==
              TBRF_ERR_INVALID, "algorithm");
    CHECK(tbrf_mc_integrate(99, 3, NULL, NULL, 100, 1, 0, 0, o) == TBRF_ERR_INVALID, "integrand");
    CHECK(tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 0, NULL, NULL, 100, 1, 0, 0, o) ==
              TBRF_ERR_UNSUPPORTED, "dim 0");
    CHECK(tbrf_mc_integrate(TBRF_MC_NAG, 3, NULL, NULL, 100, 1, 0, 0, o) == TBRF_ERR_UNSUPPORTED,
          "nag dim 3");
    CHECK(tbrf_mc_integrate(TBRF_MC_CORNER_PEAK, 21, NULL, NULL, 100, 1, 0, 0, o) ==
              TBRF_ERR_UNSUPPORTED, "corner dim 21");
    CHECK(tbrf_mc_integrate(TBRF_MC_DISCONTINUOUS, 1, NULL, NULL, 100, 1, 0, 0, o) ==
              TBRF_ERR_UNSUPPORTED, "discontinuous dim 1");
    const double bad_a[2] = {1, NAN}, bad_u[2] = {0.5, 1.5};
    CHECK(tbrf_mc_exact(TBRF_MC_GAUSSIAN, 2, bad_a, NULL, o) == TBRF_ERR_INVALID, "NaN a");
    CHECK(tbrf_mc_exact(TBRF_MC_GAUSSIAN, 2, NULL, bad_u, o) == TBRF_ERR_INVALID, "u > 1");
    CHECK(tbrf_mc_exact(TBRF_MC_GAUSSIAN, 2, NULL, NULL, NULL) == TBRF_ERR_NULL, "NULL exact");
    const double blo[2] = {0, 1}, bhi[2] = {0, 3};
    CHECK(tbrf_mc_integrate_fn(user_f, NULL, 2, blo, bhi, 100, 1, 0, 0, o) == TBRF_ERR_INVALID,
          "empty box");
    CHECK(tbrf_mc_integrate_fn(user_f, NULL, 2, lo, NULL, 100, 1, 0, 0, o) == TBRF_ERR_NULL,
          "lo without hi");
    CHECK(tbrf_mc_integrate_fn(NULL, NULL, 2, NULL, NULL, 100, 1, 0, 0, o) == TBRF_ERR_NULL,
          "NULL fn");
    CHECK(tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 3, NULL, NULL, INT64_MAX, 1, 0, 0, o) ==
              TBRF_ERR_SIZE, "absurd n");
    CHECK(tbrf_mc_integrand_name(7) == NULL && tbrf_mc_integrand_name(0) != NULL, "names");
    return check_report("test_mc");
}
