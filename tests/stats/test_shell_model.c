/* test_shell_model.c — the model a shell of `tbrf spectrum` holds
 * (c/analysis/shell_model.h) against closed forms:
 *  - the shell average of det S P(k |S n|): for P = k^-dim it is k^-dim
 *    for every S (<|S n|^-dim> over the sphere is 1/det S), 3D and 2D;
 *    for P = exp(-q^2), axisymmetric 3D S = (s, s, t):
 *    exp(-k^2 s^2) (sqrt(pi)/2) erf(k c)/(k c), c^2 = t^2 - s^2, and 2D
 *    S = (s0, s1): exp(-k^2 (s0^2 + s1^2)/2) I0(k^2 (s1^2 - s0^2)/2);
 *    the reported error bounds the actual one;
 *  - the density spectrum of exp(g - v/2) for a Gaussian covariance
 *    C = s2 exp(-r^2/a^2): exp(C) - 1 = sum_n s2^n/n! exp(-n r^2/a^2),
 *    each term's transform (sqrt(pi) a/sqrt(n))^dim exp(-k^2 a^2/(4 n)),
 *    3D and 2D, to 1e-9 of the spectrum at k = 0 with 8 points per period
 *    of k = 96 (dr = a/24): the 3D sum is spectrally accurate, the 2D
 *    one's error falls as (dr/a)^6 (1.4e-6, 2.2e-8, 3.4e-10 of P(0) at
 *    dr/a = 0.33, 0.16, 0.08), below 1e-10 here;
 *  - bad arguments refused (-1, NaN). */
#include <math.h>
#include <stdio.h>

#include "analysis/shell_model.h"
#include "tbrf.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static double power3(void *ctx, double k) { (void)ctx; return 1.0 / (k * k * k); }
static double power2(void *ctx, double k) { (void)ctx; return 1.0 / (k * k); }
static double gauss(void *ctx, double k) { (void)ctx; return exp(-k * k); }

/* I0 by its series (x <= 50 here). */
static double bessel_i0(double x)
{
    double t = 1.0, s = 1.0;
    for (int j = 1; j < 400; j++) {
        t *= (x / 2) * (x / 2) / ((double)j * j);
        s += t;
        if (t < 1e-17 * s)
            break;
    }
    return s;
}

static void check_power_laws(void)
{
    const double S3[2][3] = {{1.0, 0.5, 2.0}, {0.7, 1.3, 3.0}}, S2[2][3] = {{0.6, 1.5, 1}, {2, 0.3, 1}};
    for (int s = 0; s < 2; s++)
        for (double k = 0.5; k < 100; k *= 3.1) {
            double v, e;
            CHECK(tbrf_shell_average(power3, NULL, 3, S3[s], k, 1e-10, &v, &e) == 0, "3D");
            CHECK(fabs(v * k * k * k - 1) < 1e-9 && e < 1e-9, "3D k^-3, S %d, k %g: %.12g (err %g)",
                  s, k, v * k * k * k, e);
            CHECK(tbrf_shell_average(power2, NULL, 2, S2[s], k, 1e-10, &v, &e) == 0, "2D");
            CHECK(fabs(v * k * k - 1) < 1e-9 && e < 1e-9, "2D k^-2, S %d, k %g: %.12g (err %g)", s,
                  k, v * k * k, e);
        }
}

static void check_gaussians(void)
{
    const double s = 0.6, t = 1.7, c = sqrt(t * t - s * s), S3[3] = {s, s, t};
    const double S2[3] = {0.5, 1.4, 1.0};
    for (double k = 0.1; k < 4; k *= 1.7) {
        double v, e;
        CHECK(tbrf_shell_average(gauss, NULL, 3, S3, k, 1e-6, &v, &e) == 0, "3D gauss");
        double exact = exp(-k * k * s * s) * sqrt(M_PI) / 2 * erf(k * c) / (k * c);
        CHECK(fabs(v / (s * s * t) - exact) <= fmax(1e-6, 2 * e) * exact,
              "3D exp(-q^2), k %g: %.10g, exact %.10g (err %g)", k, v / (s * s * t), exact, e);
        CHECK(tbrf_shell_average(gauss, NULL, 2, S2, k, 1e-6, &v, &e) == 0, "2D gauss");
        exact = exp(-k * k * (S2[0] * S2[0] + S2[1] * S2[1]) / 2) *
                bessel_i0(k * k * (S2[1] * S2[1] - S2[0] * S2[0]) / 2);
        CHECK(fabs(v / (S2[0] * S2[1]) - exact) <= fmax(1e-6, 2 * e) * exact,
              "2D exp(-q^2), k %g: %.10g, exact %.10g (err %g)", k, v / (S2[0] * S2[1]), exact, e);
    }
}

static void check_lognormal(void)
{
    const double a = 0.2, s2 = 0.5;
    tbrf_model *g = NULL;
    CHECK(tbrf_model_gaussian(a, &g) == TBRF_OK && tbrf_model_set_variance(g, s2) == TBRF_OK,
          "gaussian model");
    double k[40], p[40];
    for (int i = 0; i < 40; i++)
        k[i] = 0.25 * i;
    for (int dim = 2; dim <= 3; dim++) {
        CHECK(tbrf_lognormal_density_spectrum(g, dim, 96.0, 20 * a, 40, k, p) == 0, "density %dD",
              dim);
        double p0 = 0, term = 1;
        double exact[40] = {0};
        for (int n = 1; n < 60; n++) {
            term *= s2 / n;
            const double an = a / sqrt((double)n), sa = sqrt(M_PI) * an;
            for (int i = 0; i < 40; i++)
                exact[i] += term * pow(sa, dim) * exp(-k[i] * k[i] * an * an / 4);
        }
        p0 = exact[0];
        for (int i = 0; i < 40; i++)
            CHECK(fabs(p[i] - exact[i]) <= 1e-9 * p0, "%dD density at k %g: %.12g, exact %.12g",
                  dim, k[i], p[i], exact[i]);
    }
    double bad = 1;
    CHECK(tbrf_lognormal_density_spectrum(g, 1, 12.0, 1.0, 1, k, p) == -1, "dim 1 refused");
    CHECK(tbrf_lognormal_density_spectrum(g, 3, 1.0, 1.0, 40, k, p) == -1, "k above kmax refused");
    CHECK(tbrf_lognormal_density_spectrum(NULL, 3, 12.0, 1.0, 1, k, p) == -1, "NULL refused");
    const double neg[3] = {1, -1, 1};
    CHECK(tbrf_shell_average(gauss, NULL, 3, neg, 1.0, 1e-6, &bad, NULL) == -1 && isnan(bad),
          "a negative factor refused");
    CHECK(tbrf_shell_average(gauss, NULL, 4, neg, 1.0, 1e-6, &bad, NULL) == -1, "dim 4 refused");
    tbrf_model_destroy(g);
}

int main(void)
{
    check_power_laws();
    check_gaussians();
    check_lognormal();
    if (failures)
        printf("%d failure(s)\n", failures);
    else
        printf("test_shell_model: ok\n");
    return failures ? 1 : 0;
}
