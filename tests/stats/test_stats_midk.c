/* test_stats_midk.c — the power of a turning-bands grid field at mid k
 * against the model, for a spectrum with much power near the lines' band
 * edge.
 *
 * Why it could fail: a line mode at kappa delta = theta, linearly
 * interpolated between samples, keeps sinc^4(theta/2) / g(theta) of its
 * gain-corrected power at kappa (g = 2/3 + cos(theta)/3, the correction of
 * doc/method.md, "Interpolation") and moves the rest to kappa + 2 pi n /
 * delta, above the band; a grid folds that back unevenly. Until 0.3.0 the
 * lines were sampled at the band edge (theta up to pi: half the power
 * moved), and a k^-1 spectrum up to the band edge had +3-6% of power at
 * mid k; the lines are now sampled twice as finely when the band's upper
 * half holds over 1% of the variance (theta <= pi/2: at most 1.4% moved,
 * a predicted excess below 0.1%).
 *
 * Model: power law k^-1 on [0.5, 4 pi] (4 pi = the band edge oversampling
 * pi / resolution at resolution 1, oversampling 4), variance 1, on a 32^3
 * grid of spacing 1 (grid Nyquist pi).
 * Estimator, per realization r: rho_r = sum_K |F_K|^2 / sum_K E_K over
 * the modes K with 0.3 pi <= |K| <= 0.7 pi (one of each +-K pair), F the
 * grid's DFT without window, and E_K = sum_r C(|r|) prod_d (n - |r_d|)
 * e^{-i K.r} its exact expectation for a Gaussian field of the model's
 * covariance C sampled at the cells (tbrf_model_covariance at every
 * lattice lag: this is the folded spectrum with the finite grid's window,
 * so no window or aliasing bias remains). Target 1; statistic the mean of
 * rho over R = 64 realizations with its standard error from their
 * scatter; tolerance Student's t at two-sided 1e-3 with R - 1 dof times
 * that SE, plus 0.002 for the predicted residual excess (0.1%) and the
 * numerical covariance. */
#include <fftw3.h>

#include "support/testutil.h"

#define NSIDE 32
#define NREAL 64

int main(void)
{
    const int n = NSIDE, n2 = 2 * NSIDE;
    tbrf_model *m = NULL;
    REQUIRE(tbrf_model_powerlaw(-1.0, 0.5, 4.0 * M_PI, &m) == TBRF_OK,
            check_report("test_stats_midk"), "powerlaw");
    /* C at every squared lattice distance up to 3 (n-1)^2 */
    const int nd2 = 3 * (n - 1) * (n - 1) + 1;
    double *c = tu_malloc(sizeof *c * (size_t)nd2);
    for (int d2 = 0; d2 < nd2; d2++)
        c[d2] = tbrf_model_covariance(m, 3, sqrt((double)d2));
    CHECK(fabs(c[0] - 1.0) < 1e-6, "C(0) = %.9g, not the variance 1", c[0]);
    /* E_K: the (2n)^3 transform of C(r) prod (n - |r_d|), at even indices */
    const size_t N2 = (size_t)n2 * n2 * n2, nh2 = (size_t)n2 / 2 + 1;
    double *a = fftw_malloc(sizeof *a * N2);
    fftw_complex *A = fftw_malloc(sizeof *A * (size_t)n2 * n2 * nh2);
    REQUIRE(a && A, check_report("test_stats_midk"), "no memory");
    fftw_plan pa = fftw_plan_dft_r2c_3d(n2, n2, n2, a, A, FFTW_ESTIMATE);
    for (int i = 0; i < n2; i++)
        for (int j = 0; j < n2; j++)
            for (int k = 0; k < n2; k++) {
                int ri = i < n ? i : i - n2, rj = j < n ? j : j - n2, rk = k < n ? k : k - n2;
                /* lag n does not occur on an n-cell grid (and is past c) */
                a[((size_t)i * n2 + j) * n2 + k] =
                    (i == n || j == n || k == n)
                        ? 0.0
                        : (double)(n - abs(ri)) * (n - abs(rj)) * (n - abs(rk)) *
                              c[ri * ri + rj * rj + rk * rk];
            }
    fftw_execute(pa);

    tbrf_opts o;
    tbrf_default_opts(&o);
    const double lo[3] = {0, 0, 0}, hi[3] = {n - 1, n - 1, n - 1}, h[3] = {1, 1, 1};
    const int64_t nn[3] = {n, n, n};
    tbrf_plan *p = tu_plan(m, 3, lo, hi, 1.0, 2020, &o);
    REQUIRE(p, check_report("test_stats_midk"), "plan");
    REQUIRE(tbrf_set_grid(p, lo, h, nn) == TBRF_OK, check_report("test_stats_midk"), "set_grid");
    const size_t N = (size_t)n * n * n, nh = (size_t)n / 2 + 1;
    double *z = fftw_malloc(sizeof *z * N);
    fftw_complex *F = fftw_malloc(sizeof *F * (size_t)n * n * nh);
    REQUIRE(z && F, check_report("test_stats_midk"), "no memory");
    fftw_plan pz = fftw_plan_dft_r2c_3d(n, n, n, z, F, FFTW_ESTIMATE);
    double rho[NREAL], s = 0, s2 = 0;
    for (int r = 0; r < NREAL; r++) {
        if (tu_execute(p, (uint64_t)r, z) != TBRF_OK)
            break;
        fftw_execute(pz);
        double num = 0, den = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                for (int k = 1; k < n / 2; k++) { /* kz > 0: one of each +-K */
                    int mi = i <= n / 2 ? i : i - n, mj = j <= n / 2 ? j : j - n;
                    double kk = 2 * M_PI / n * sqrt((double)(mi * mi + mj * mj + k * k));
                    if (kk < 0.3 * M_PI || kk > 0.7 * M_PI)
                        continue;
                    const fftw_complex *f = &F[((size_t)i * n + j) * nh + (size_t)k];
                    num += (*f)[0] * (*f)[0] + (*f)[1] * (*f)[1];
                    int ei = (2 * mi + n2) % n2, ej = (2 * mj + n2) % n2;
                    den += A[((size_t)ei * n2 + (size_t)ej) * nh2 + (size_t)(2 * k)][0];
                }
        rho[r] = num / den;
        s += rho[r];
    }
    const double mean = s / NREAL;
    for (int r = 0; r < NREAL; r++)
        s2 += (rho[r] - mean) * (rho[r] - mean);
    const double se = sqrt(s2 / (NREAL - 1) / NREAL);
    const double tol = tu_t_quantile(1e-3, NREAL - 1) * se + 0.002;
    printf("mid-k power / model (0.3-0.7 of the grid Nyquist, k^-1 to the band edge): "
           "%.4f +- %.4f (tolerance %.4f)\n", mean, se, tol);
    CHECK(fabs(mean - 1.0) < tol, "mid-k power %.4f +- %.4f against the model's, tolerance %.4f",
          mean, se, tol);
    fftw_destroy_plan(pz);
    fftw_destroy_plan(pa);
    fftw_free(z), fftw_free(F), fftw_free(a), fftw_free(A);
    free(c);
    tbrf_destroy(p);
    tbrf_model_destroy(m);
    return check_report("test_stats_midk");
}
