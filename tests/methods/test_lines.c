/* test_lines.c — line sizing, mode variances and synthesis.
 * Deterministic checks (exact up to quadrature) and one statistical check
 * of the synthesised lines against the variances they were built from. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "methods/turning_bands/lines.h"
#include "core/model.h"

static const double PI = 3.14159265358979323846;

/* Lattice covariance at lag k implied by the mode variances (without the
 * interpolation compensation when `raw`). */
static double lattice_cov(const line_spec *s, int64_t k, int raw)
{
    const int64_t half = s->M / 2;
    double c = 0.0;
    for (int64_t m = 0; m <= half; m++) {
        double v = s->mode_var[m] * (raw ? tbrfi_lines_interp_gain(2.0 * PI * m / s->M) : 1.0);
        double w = (m == 0 || m == half) ? 1.0 : 2.0;
        c += w * v * cos(2.0 * PI * (double)(m * k % s->M) / (double)s->M);
    }
    return c;
}

static void test_gain(void)
{
    for (double th = 0.0; th <= PI; th += 0.25) {
        /* direct mean of |(1-f) + f e^{i th}|^2 over f by the midpoint rule */
        double sum = 0.0;
        const int n = 100000;
        for (int i = 0; i < n; i++) {
            double f = (i + 0.5) / n;
            double re = (1 - f) + f * cos(th), im = f * sin(th);
            sum += re * re + im * im;
        }
        sum /= n;
        CHECK(fabs(sum - tbrfi_lines_interp_gain(th)) < 1e-9, "gain(%g) = %.12f, direct %.12f", th,
              tbrfi_lines_interp_gain(th), sum);
    }
}

static void test_spectral_sizes(void)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    char msg[512];
    tbrf_model *m = NULL;
    tbrf_model_powerlaw(-3.0, 0.05, 3.0, &m);
    line_spec s;
    double extent = 128.0 * sqrt(3.0);
    int st = tbrfi_lines_spec_build(&s, m, 3, extent, 1.0, &o, msg, sizeof msg);
    CHECK(st == TBRF_OK, "%s", msg);
    if (st == TBRF_OK) {
        CHECK(s.delta == 0.25, "delta = %g", s.delta);
        CHECK(s.length >= 2 * extent + 2 * PI / 0.05, "line length %g too short", s.length);
        CHECK(s.M % 2 == 0, "M = %lld odd", (long long)s.M);
        CHECK(s.offset - 0.5 * extent / s.delta >= 1.0 && s.offset + 0.5 * extent / s.delta <= s.M - 3,
              "offset %g leaves no interpolation margin (M=%lld)", s.offset, (long long)s.M);
        /* The power law lies inside the line Nyquist and its cut-off bins
         * are averaged, so the lattice variance is the midpoint rule for
         * (1/pi) ∫ P1 with P1 ∝ 1/kappa: relative error about
         * (dk/kmin)^2 / 24 / ln(kmax/kmin) (the second derivative term at
         * the low end dominates), dk = 2 pi / Lambda. */
        double var = tbrf_model_variance(m, 3);
        double dk = 2 * PI / s.length;
        double tol = 2.0 * (dk / 0.05) * (dk / 0.05) / 24.0 / log(3.0 / 0.05);
        CHECK(fabs(s.variance_resolved / var - 1) < tol, "resolved %.15g vs model %.15g (tol %.3g)",
              s.variance_resolved, var, tol);
        CHECK(fabs(lattice_cov(&s, 0, 1) / s.variance_resolved - 1) < 1e-12,
              "lattice variance %.15g vs resolved %.15g", lattice_cov(&s, 0, 1), s.variance_resolved);
        tbrfi_lines_spec_free(&s);
    }
    tbrf_model_destroy(m);
}

/* The spectral line's lattice covariance reproduces the 3D line
 * covariance C1 = d/ds[s C(s)] of a Gaussian model (checks the 3D->1D
 * spectral conversion and the FFT normalisation together). By Poisson
 * summation the lattice covariance is sum_n C1(s + n Lambda) up to the
 * power beyond the line Nyquist; both are below 1e-30 here. */
static void test_spectral_matches_c1(void)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    char msg[512];
    tbrf_model *m = NULL;
    tbrf_model_gaussian(3.0, &m);
    tbrf_model_set_variance(m, 2.5);
    line_spec s;
    int st = tbrfi_lines_spec_build(&s, m, 3, 60.0, 1.0, &o, msg, sizeof msg);
    CHECK(st == TBRF_OK, "%s", msg);
    if (st == TBRF_OK) {
        for (int64_t k = 0; k < 80; k += 3) {
            double got = lattice_cov(&s, k, 1), want = tbrfi_model_line_covariance3(m, k * s.delta);
            CHECK(fabs(got - want) < 1e-10, "lag %lld: lattice %.12g, C1 %.12g", (long long)k, got, want);
        }
        tbrfi_lines_spec_free(&s);
    }
    tbrf_model_destroy(m);
}

static void test_circulant(void)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.line_method = TBRF_LINES_CIRCULANT;
    char msg[512];
    tbrf_model *m = NULL;
    tbrf_model_exponential(2.0, &m);
    line_spec s;
    int st = tbrfi_lines_spec_build(&s, m, 3, 50.0, 1.0, &o, msg, sizeof msg);
    CHECK(st == TBRF_OK, "%s", msg);
    if (st == TBRF_OK) {
        /* The embedding reproduces C1 on the lattice exactly. */
        for (int64_t k = 0; k < 100; k += 7) {
            double got = lattice_cov(&s, k, 1), want = tbrfi_model_line_covariance3(m, k * s.delta);
            CHECK(fabs(got - want) < 1e-12, "lag %lld: lattice %.15g, C1 %.15g", (long long)k, got, want);
        }
        CHECK(fabs(s.variance_resolved - 1.0) < 1e-12, "resolved %.15g", s.variance_resolved);
        tbrfi_lines_spec_free(&s);
    }
    tbrf_model_destroy(m);

    /* A Gaussian whose line covariance is cut at its negative lobe: the
     * minimal embedding is not non-negative; padding must fix it, and
     * without padding the build must fail cleanly. */
    tbrf_model_gaussian(20.0, &m);
    o.max_padding = 0;
    st = tbrfi_lines_spec_build(&s, m, 3, 1.0, 1.0, &o, msg, sizeof msg);
    CHECK(st == TBRF_ERR_EMBEDDING, "no padding: status %d (%s)", st, msg);
    CHECK(strstr(msg, "negative eigenvalue") != NULL, "message: %s", msg);
    tbrfi_lines_spec_free(&s);
    o.max_padding = 3;
    st = tbrfi_lines_spec_build(&s, m, 3, 1.0, 1.0, &o, msg, sizeof msg);
    CHECK(st == TBRF_OK && s.padding >= 1, "padding: status %d padding %d (%s)", st, s.padding, msg);
    tbrfi_lines_spec_free(&s);
    tbrf_model_destroy(m);
}

/* Synthesised lines have the lattice covariance their mode variances
 * promise. Values at indices far apart (> 10 correlation lengths) on
 * independent lines are independent N(0, V): with n of them the sample
 * variance has relative standard deviation sqrt(2/n), the sample
 * covariance at lag k about sqrt((1 + rho_k^2)/n) V. 4-sigma bounds. */
static void test_synthesis(void)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    char msg[512];
    tbrf_model *m = NULL;
    tbrf_model_gaussian(2.0, &m);
    line_spec s;
    int st = tbrfi_lines_spec_build(&s, m, 3, 400.0, 1.0, &o, msg, sizeof msg);
    CHECK(st == TBRF_OK, "%s", msg);
    if (st != TBRF_OK)
        return;
    const int L = 2048;
    double *lines = malloc(sizeof(double) * (size_t)L * (size_t)s.M);
    void *fft = tbrfi_lines_fft_plan(s.M);
    CHECK(tbrfi_lines_synthesize(&s, fft, 12345, 0, L, 0, lines) == TBRF_OK, "synthesis failed");
    const int64_t stride = 80; /* samples = 20 length units = 10 lengths */
    const int maxlag = 12;
    double c[13] = {0};
    int64_t n = 0;
    for (int l = 0; l < L; l++)
        for (int64_t j = 0; j + maxlag < s.M; j += stride) {
            const double *y = lines + (size_t)l * (size_t)s.M;
            for (int k = 0; k <= maxlag; k++)
                c[k] += y[j] * y[j + k];
            n++;
        }
    double V = lattice_cov(&s, 0, 0);
    for (int k = 0; k <= maxlag; k++) {
        c[k] /= (double)n;
        double want = lattice_cov(&s, k, 0), rho = want / V;
        double sd = sqrt((1 + rho * rho) / (double)n) * V;
        CHECK(fabs(c[k] - want) < 4 * sd, "lag %d: sample %.6f, expected %.6f (4 sd = %.6f)", k, c[k],
              want, 4 * sd);
    }
    /* Bitwise independent of the thread count. */
    double *again = malloc(sizeof(double) * (size_t)L * (size_t)s.M);
    tbrfi_lines_synthesize(&s, fft, 12345, 0, L, 1, again);
    CHECK(memcmp(lines, again, sizeof(double) * (size_t)L * (size_t)s.M) == 0,
          "1 thread and default threads differ");
    tbrfi_lines_fft_destroy(fft);
    free(again);
    free(lines);
    tbrfi_lines_spec_free(&s);
    tbrf_model_destroy(m);
}

int main(void)
{
    test_gain();
    test_spectral_sizes();
    test_spectral_matches_c1();
    test_circulant();
    test_synthesis();
    return check_report("test_lines");
}
