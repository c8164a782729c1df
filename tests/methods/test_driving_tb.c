/* test_driving_tb.c — turbulence driving over a non-periodic domain
 * (tbrf_driver_params.periodic = 0: OU line modes of turning bands,
 * doc/driving.md, "Non-periodic domains").
 *
 * Statistics (fixed seeds; tolerances 4 sigma of the estimator, derived
 * at each test and in doc/statistics.md):
 *  - temporal autocorrelation rho(tau) = exp(-tau/T) at lags of 5, 10
 *    and 20 updates, pooled over 24 series (8 points x 3 components);
 *  - variance per component: the mean of f_c^2 over the domain and 40
 *    seeds against A^2 sigma_Z^2 (1/L) sum_l (P_zeta(u_l)^2)_cc, from the
 *    driver's own line directions, for zeta = 1, 0.5, 0.
 * Exact or deterministic properties:
 *  - divergence (zeta = 1): the finite-difference divergence relative to
 *    the terms that cancel in it falls as h^2 (smooth regime) and is below
 *    a percent, where zeta = 0 gives order one;
 *  - restart and variable dt: any sequence of times, fresh drivers, a
 *    saved and loaded state, streaming: bitwise the same force, with and
 *    without time interpolation; grids equal points to rounding, 3D and
 *    2D; threads 1 and 2 give the same bits;
 *  - bad input: the exact-rms option, the NUFFT, rms and modes refused as
 *    unsupported, positions outside the domain refused. */
#include <string.h>
#include <time.h>

#include "methods/turning_bands/directions.h"
#include "support/testutil.h"
#include "support/driving.h"

static const double PI = 3.14159265358979323846;

static tbrf_driver_params tb_params(void)
{
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.periodic = 0;
    for (int c = 0; c < 3; c++) {
        p.origin[c] = -0.5 + 0.25 * c;
        p.length[c] = 1.0;
    }
    return p;
}

/* Bartlett: n var(r_L) of one AR(1) series with coefficient phi. */
static double bartlett(double phi, int L)
{
    const double p2L = pow(phi, 2.0 * L);
    return (1 + phi * phi) * (1 - p2L) / (1 - phi * phi) - 2.0 * L * p2L;
}

/* The force at a point is a sum of the OU line modes, which share one
 * coefficient phi = e^{-dt/T}: each component at each point is an AR(1)
 * with phi, and S such series (jointly Gaussian, cross-correlation R_ss'
 * at lag 0, R_ss' phi^|h| at lag h) give the pooled r_L = sum_s sum_j
 * x_s(j) x_s(j+L) / sum_s sum_j x_s(j)^2 a variance of Bartlett's one
 * series times sum_ss' R_ss'^2 / S^2 (Isserlis: every fourth moment of the
 * pooled sums carries R_ss'^2). R is estimated from the same data. */
static void test_autocorrelation(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 2.0, &m);
    tbrf_driver_params p = tb_params();
    p.tcorr = 2.0;
    p.threads = 1;
    tbrf_driver *d = drv_make(m, 21, &p);
    enum { NP = 8, S = 3 * NP };
    const double x[3 * NP] = {-0.45, -0.2, 0.05, 0.45, 0.7, 0.95, -0.45, 0.7, 0.5, 0.45, -0.2, 0.9,
                              0.0,  0.25, 0.5, -0.3, 0.4, 0.2,  0.2,  -0.1, 0.7, -0.1, 0.6, 0.05};
    const int64_t nt = 3000;
    double *f = tu_malloc(sizeof(double) * S * (size_t)nt);
    for (int64_t j = 0; j < nt; j++) {
        int st = tbrf_driver_points(d, (double)j * 0.2 + 1e-9, NP, x, f + S * j);
        if (!CHECK(st == TBRF_OK, "points: %s", tbrf_driver_message(d)))
            break;
    }
    double R[S][S], sum2 = 0.0;
    for (int a = 0; a < S; a++)
        for (int b = 0; b < S; b++) {
            double ab = 0, aa = 0, bb = 0;
            for (int64_t j = 0; j < nt; j++) {
                ab += f[S * j + a] * f[S * j + b];
                aa += f[S * j + a] * f[S * j + a];
                bb += f[S * j + b] * f[S * j + b];
            }
            R[a][b] = ab / sqrt(aa * bb);
            sum2 += R[a][b] * R[a][b];
        }
    const double phi = exp(-0.1);
    const int lags[3] = {5, 10, 20};
    for (int l = 0; l < 3; l++) {
        const int L = lags[l];
        double num = 0.0, den = 0.0;
        for (int64_t j = 0; j + L < nt; j++)
            for (int s = 0; s < S; s++) {
                num += f[S * j + s] * f[S * (j + L) + s];
                den += f[S * j + s] * f[S * j + s];
            }
        const double var = bartlett(phi, L) / (double)(nt - L) * sum2 / (double)(S * S);
        printf("tb autocorrelation tau = %.1f T: %.4f, target %.4f, tolerance %.4f (K_eff %.1f)\n",
               0.1 * L, num / den, exp(-0.1 * L), 4.0 * sqrt(var), S * S / sum2);
        CHECK_NEAR(num / den, exp(-0.1 * L), 4.0 * sqrt(var), "tb autocorrelation at %d updates", L);
    }
    free(f);
    tbrf_driver_destroy(d);
    tbrf_model_destroy(m);
}

/* Variance per component. E f_c^2 at a point, averaged over the line
 * sample positions, is A^2 sigma_Z^2 (1/L) sum_l (P_l^2)_cc with P_l^2 =
 * zeta^2 (I - u u^T) + (1 - zeta)^2 u u^T and A^2 sigma_Z^2 = rms^2 /
 * (zeta^2 (d - 1) + (1 - zeta)^2): the expectation is computed from the
 * driver's directions (realization 0 of its seed). The estimator: per
 * seed (independent realizations at t = 0) the mean of f_c^2 over a
 * 12^3 grid of the domain; over NS = 40 seeds the mean has the standard
 * error sd / sqrt(NS) with sd the sample deviation of the per-seed means
 * (independent replicates): 4 of them. The expectation depends on the
 * seed's directions (by 3e-4 here) and is averaged over the same seeds. */
static void test_variance(void)
{
    tbrf_model *m = NULL;
    tbrf_model_parabola(2 * PI * 1.0, 2 * PI * 3.0, &m);
    const double zetas[3] = {1.0, 0.5, 0.0};
    enum { NS = 40, N1 = 12, NC = N1 * N1 * N1 };
    double *v = tu_malloc(sizeof(double) * 3 * NC);
    for (int iz = 0; iz < 3; iz++) {
        tbrf_driver_params p = tb_params();
        p.zeta = zetas[iz];
        p.rms = 2.5;
        const double z = p.zeta, proj = z * z * 2.0 + (1.0 - z) * (1.0 - z);
        double s1[3] = {0}, s2[3] = {0}, e1[3] = {0};
        for (int s = 0; s < NS; s++) {
            tbrf_driver *d = drv_make(m, 1000 + (uint64_t)s, &p);
            const double o[3] = {p.origin[0] + 0.04, p.origin[1] + 0.04, p.origin[2] + 0.04};
            const double h[3] = {0.92 / (N1 - 1), 0.92 / (N1 - 1), 0.92 / (N1 - 1)};
            const int64_t n[3] = {N1, N1, N1};
            CHECK(tbrf_driver_grid(d, 0.0, o, h, n, v) == TBRF_OK, "grid: %s", tbrf_driver_message(d));
            double u[3 * 512];
            tbrfi_directions_make(3, 512, 1000 + (uint64_t)s, 0, u);
            for (int c = 0; c < 3; c++) {
                double mean = 0.0, expect = 0.0;
                for (int64_t i = 0; i < NC; i++)
                    mean += v[3 * i + c] * v[3 * i + c];
                mean /= NC;
                for (int l = 0; l < 512; l++) {
                    const double uc2 = u[3 * l + c] * u[3 * l + c];
                    expect += z * z * (1.0 - uc2) + (1.0 - z) * (1.0 - z) * uc2;
                }
                expect *= p.rms * p.rms / proj / 512.0;
                s1[c] += mean;
                s2[c] += mean * mean;
                e1[c] += expect;
            }
            tbrf_driver_destroy(d);
        }
        for (int c = 0; c < 3; c++) {
            const double mean = s1[c] / NS, sd = sqrt((s2[c] - NS * mean * mean) / (NS - 1));
            const double expect = e1[c] / NS;
            printf("tb variance zeta %.1f component %d: %.4f, expected %.4f (rms^2/3 = %.4f), "
                   "tolerance %.4f\n", z, c, mean, expect, p.rms * p.rms / 3, 4.0 * sd / sqrt(NS));
            CHECK_NEAR(mean, expect, 4.0 * sd / sqrt(NS), "tb variance zeta %.1f component %d", z, c);
        }
    }
    free(v);
    tbrf_model_destroy(m);
}

/* Finite-difference divergence relative to the size of its terms:
 * D(h) = rms_x |sum_c (f_c(x + h e_c) - f_c(x - h e_c)) / 2h| /
 *        rms_x sqrt(sum_c ((f_c(x + h e_c) - f_c(x - h e_c)) / 2h)^2). */
static double div_ratio(tbrf_driver *d, double h)
{
    enum { NP = 400 };
    tu_rng r = {12345};
    double *x = tu_malloc(sizeof(double) * 3 * NP * 7), *f = tu_malloc(sizeof(double) * 3 * NP * 7);
    for (int i = 0; i < NP; i++) {
        double c[3];
        for (int k = 0; k < 3; k++)
            c[k] = -0.5 + 0.25 * k + 0.15 + 0.7 * tu_uniform(&r);
        for (int q = 0; q < 7; q++)
            for (int k = 0; k < 3; k++)
                x[3 * (7 * i + q) + k] = c[k] + (q > 0 && (q - 1) / 2 == k ? ((q - 1) % 2 ? -h : h) : 0.0);
    }
    CHECK(tbrf_driver_points(d, 0.35, 7 * NP, x, f) == TBRF_OK, "points: %s", tbrf_driver_message(d));
    double sd = 0.0, st = 0.0;
    for (int i = 0; i < NP; i++) {
        double div = 0.0;
        for (int k = 0; k < 3; k++) {
            const double g = (f[3 * (7 * i + 1 + 2 * k) + k] - f[3 * (7 * i + 2 + 2 * k) + k]) / (2 * h);
            div += g;
            st += g * g;
        }
        sd += div * div;
    }
    free(x);
    free(f);
    return sqrt(sd / st);
}

static void test_divergence(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 2.0, &m);
    tbrf_driver_params p = tb_params();
    tbrf_driver *d1 = drv_make(m, 5, &p);
    p.zeta = 0.0;
    tbrf_driver *d0 = drv_make(m, 5, &p);
    const double hs[4] = {0.08, 0.04, 0.02, 0.01};
    double r1[4], r0[4];
    for (int i = 0; i < 4; i++) {
        r1[i] = div_ratio(d1, hs[i]);
        r0[i] = div_ratio(d0, hs[i]);
        printf("tb divergence ratio h = %.3f: zeta 1 %.3e, zeta 0 %.3e\n", hs[i], r1[i], r0[i]);
        /* zeta = 0: the terms add (sum_c u_c^2 = 1), D about 1 */
        CHECK(r0[i] > 0.5, "zeta 0 has a divergence of the size of its terms (h = %g)", hs[i]);
        /* zeta = 1: at most the interpolation's floor or the h^2 term */
        CHECK(r1[i] < 0.05, "zeta 1 divergence ratio %.3e at h = %g", r1[i], hs[i]);
    }
    /* h = 0.08 -> 0.04 (k h = 1 -> 0.5 at kmax): the central difference's
     * h^2 k^2 / 6 term dominates, so D falls by 4 (h: 2); below, the floor
     * of the piecewise-linear lines (about (k delta)^2 / 6, k delta = 2 pi
     * kmax / (32 kmax)) and at h < delta their kinks. */
    CHECK(r1[1] / r1[0] < 0.35, "zeta 1 divergence ratio falls as h^2: %.3e -> %.3e", r1[0], r1[1]);
    tbrf_driver_destroy(d0);
    tbrf_driver_destroy(d1);
    tbrf_model_destroy(m);
}

/* Restart, variable dt, save/load, streaming: bitwise. */
static void test_restart(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 2.5, &m);
    for (int interp = 0; interp <= 1; interp++) {
        tbrf_driver_params p = tb_params();
        p.zeta = 0.7;
        p.tcorr = 0.5;
        p.interpolate = interp;
        enum { NP = 50, NT = 30 };
        double x[3 * NP];
        for (int i = 0; i < NP; i++)
            for (int c = 0; c < 3; c++)
                x[3 * i + c] = p.origin[c] + fmod(0.137 * i + 0.31 * c, 1.0);
        int64_t ssize = 0;
        void *state = drv_check_time_access("tb: ", m, 77, &p, interp, NP, x, NT, &ssize);
        CHECK(ssize > 40, "state size %lld", (long long)ssize);
        /* another seed's state, and a periodic driver's, are refused */
        tbrf_driver *o = drv_make(m, 78, &p);
        CHECK(tbrf_driver_load(o, state, ssize) == TBRF_ERR_INVALID, "another seed's state refused");
        tbrf_driver_destroy(o);
        tbrf_driver_params pb;
        tbrf_driver_default_params(&pb);
        tbrf_driver *box = drv_make(m, 77, &pb);
        CHECK(tbrf_driver_load(box, state, ssize) == TBRF_ERR_INVALID, "a box driver refuses it");
        tbrf_driver_destroy(box);
        free(state);
    }
    tbrf_model_destroy(m);
}

/* Grids equal points bitwise (same projection of the same lines), 3D and
 * 2D; threads 1 and 2 give the same bits. */
static void test_grid_points(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 3.0, &m);
    for (int dim = 2; dim <= 3; dim++) {
        tbrf_driver_params p = tb_params();
        p.dim = dim;
        p.zeta = 0.3;
        tbrf_driver *d = drv_make(m, 9, &p);
        const double o[3] = {p.origin[0] + 0.01, p.origin[1] + 0.02, dim == 3 ? p.origin[2] + 0.03 : 0};
        const double h[3] = {0.07, 0.09, 0.11};
        const int64_t n[3] = {13, 11, dim == 3 ? 9 : 1};
        const int64_t total = n[0] * n[1] * n[2];
        double *g = tu_malloc(sizeof(double) * 3 * (size_t)total);
        double *q = tu_malloc(sizeof(double) * 3 * (size_t)total);
        double *x = tu_malloc(sizeof(double) * 3 * (size_t)total);
        for (int64_t c = 0; c < total; c++) {
            const int64_t ijk[3] = {c % n[0], (c / n[0]) % n[1], c / (n[0] * n[1])};
            for (int k = 0; k < dim; k++)
                x[dim * c + k] = o[k] + h[k] * (double)ijk[k];
        }
        CHECK(tbrf_driver_grid(d, 1.234, o, h, n, g) == TBRF_OK, "grid: %s", tbrf_driver_message(d));
        CHECK(tbrf_driver_points(d, 1.234, total, x, q) == TBRF_OK, "points: %s", tbrf_driver_message(d));
        double worst = 0.0, big = 0.0;
        for (int64_t i = 0; i < dim * total; i++) {
            worst = fmax(worst, fabs(g[i] - q[i]));
            big = fmax(big, fabs(q[i]));
        }
        CHECK(worst <= 1e-13 * big, "tb %dD: grid and points agree to rounding (%.3g of %.3g)", dim,
              worst, big);
        p.threads = 1;
        tbrf_driver *d1 = drv_make(m, 9, &p);
        p.threads = 2;
        tbrf_driver *d2 = drv_make(m, 9, &p);
        tbrf_driver_points(d1, 1.234, total, x, g);
        tbrf_driver_points(d2, 1.234, total, x, q);
        CHECK(memcmp(g, q, sizeof(double) * (size_t)(dim * total)) == 0, "tb %dD: threads 1 and 2 bitwise", dim);
        tbrf_driver_destroy(d);
        tbrf_driver_destroy(d1);
        tbrf_driver_destroy(d2);
        free(g);
        free(q);
        free(x);
    }
    tbrf_model_destroy(m);
}

static void test_bad_input(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(2 * PI * 1.0, 2 * PI * 3.0, &m);
    tbrf_driver_params p = tb_params();
    tbrf_driver *d = NULL;
    p.normalization = TBRF_DRIVE_RMS_EXACT;
    CHECK(tbrf_driver_make(m, 1, &p, &d) == TBRF_ERR_UNSUPPORTED, "exact rms over a domain refused");
    CHECK(strstr(tbrf_driver_message(d), "Parseval") != NULL, "message: %s", tbrf_driver_message(d));
    tbrf_driver_destroy(d);
    p = tb_params();
    p.eval = TBRF_DRIVE_NUFFT;
    CHECK(tbrf_driver_make(m, 1, &p, &d) == TBRF_ERR_UNSUPPORTED, "NUFFT over a domain refused");
    tbrf_driver_destroy(d);
    p = tb_params();
    p.periodic = 2;
    CHECK(tbrf_driver_make(m, 1, &p, &d) == TBRF_ERR_INVALID, "periodic = 2 refused");
    tbrf_driver_destroy(d);
    p = tb_params();
    p.length[0] = 1e9; /* 3e9 wavelengths: lines far beyond the memory budget */
    CHECK(tbrf_driver_make(m, 1, &p, &d) == TBRF_ERR_SIZE, "a huge domain refused: %s",
          tbrf_driver_message(d));
    tbrf_driver_destroy(d);
    p = tb_params();
    d = drv_make(m, 1, &p);
    double f[3], rms;
    int64_t n = 0;
    const double out[3] = {p.origin[0] - 0.01, 0.0, 0.5};
    CHECK(tbrf_driver_points(d, 0.0, 1, out, f) == TBRF_ERR_OUT_OF_DOMAIN, "a point outside refused");
    const double nan3[3] = {NAN, 0.0, 0.5};
    CHECK(tbrf_driver_points(d, 0.0, 1, nan3, f) == TBRF_ERR_OUT_OF_DOMAIN, "a NaN point refused");
    const double go[3] = {0.0, 0.0, 0.0}, gh[3] = {0.1, 0.1, 0.1};
    const int64_t gn[3] = {10, 3, 3};
    double gv[3 * 90];
    CHECK(tbrf_driver_grid(d, 0.0, go, gh, gn, gv) == TBRF_ERR_OUT_OF_DOMAIN, "a grid outside refused");
    CHECK(tbrf_driver_rms(d, 0.0, &rms) == TBRF_ERR_UNSUPPORTED, "rms by Parseval refused");
    CHECK(tbrf_driver_modes(d, 0.0, &n, NULL, NULL) == TBRF_ERR_UNSUPPORTED, "modes refused");
    tbrf_driver_info info;
    CHECK(tbrf_driver_get_info(d, &info) == TBRF_OK && info.modes > 0 && info.rms_ensemble == 1.0,
          "info: %lld line modes", (long long)info.modes);
    tbrf_driver_destroy(d);
    tbrf_model_destroy(m);
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define TIMED(f)                                                                                   \
    do {                                                                                           \
        const double t0_ = seconds();                                                              \
        f();                                                                                       \
        printf("%s: %.2f s\n", #f, seconds() - t0_);                                               \
    } while (0)

int main(void)
{
    TIMED(test_divergence);
    TIMED(test_autocorrelation);
    TIMED(test_variance);
    TIMED(test_restart);
    TIMED(test_grid_points);
    TIMED(test_bad_input);
    return check_report("test_driving_tb");
}
