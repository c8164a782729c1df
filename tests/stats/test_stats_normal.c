/* test_stats_normal.c — one-point distribution of the field against the
 * normal law: Kolmogorov–Smirnov distance of the values, standardised by
 * the target sigma (sqrt of the plan info's `variance`), pooled over
 * several realizations, plus sample skewness and excess kurtosis.
 *
 * Independence: values are taken on a coarse lattice whose spacing makes
 * the model correlation negligible (Gaussian: spacing 4 lengths in 3D, C =
 * e^-16, 3 lengths in 2D, C = e^-9 = 1.2e-4; Matern 3/2: 8 lengths, C = 9 e^-8 = 3e-3, summed over the 6
 * nearest neighbours 0.02, which widens the KS null by under 1%), so the KS null distribution for n independent
 * values applies; realizations are independent by construction. Given the
 * line directions the field is exactly Gaussian with variance sigma^2 at
 * every point, so the marginal law is normal whatever L; the residual
 * banding correlation between distant points (of order sqrt(r0/(L r)))
 * has zero mean over the directions and changes the KS variance only in
 * second order (doc/statistics.md).
 *
 * Critical values at significance 1e-3: KS via the Kolmogorov
 * distribution with Stephens' finite-n correction; skewness and kurtosis
 * at 4.5 standard errors sqrt(6/n) and sqrt(24/n).
 */
#include "support/testutil.h"

static void run_case(const char *name, tbrf_model *model, int dim, double spacing_len,
                     int64_t nside, double res, int nreal, uint64_t seed)
{
    int64_t n[3] = {nside, nside, dim == 3 ? nside : 1};
    double h[3] = {spacing_len, spacing_len, spacing_len};
    double ext = spacing_len * (double)(nside - 1);
    double lo[3] = {0, 0, 0}, hi[3] = {ext, ext, ext}, origin[3] = {0, 0, 0};
    tbrf_plan *p = tu_plan(model, dim, lo, hi, res, seed, NULL);
    if (!p) return;
    tbrf_plan_info info;
    tbrf_plan_get_info(p, &info);
    CHECK(fabs(info.variance_resolved / info.variance - 1) < 1e-3,
          "%s: variance_resolved/variance = %.6f, the test needs a resolved model", name,
          info.variance_resolved / info.variance);
    REQUIRE(tbrf_set_grid(p, origin, h, n) == TBRF_OK, (void)tbrf_destroy(p), "set_grid: %s",
            tbrf_plan_message(p));
    int64_t N = tbrf_plan_count(p), total = N * nreal;
    double *v = tu_malloc((size_t)total * sizeof *v);
    double sigma = sqrt(info.variance);
    for (int r = 0; r < nreal; r++)
        if (tu_execute(p, (uint64_t)r, v + (size_t)r * (size_t)N)) break;
    double m1 = 0, m2 = 0, m3 = 0, m4 = 0;
    for (int64_t i = 0; i < total; i++) {
        double x = v[i] / sigma;
        v[i] = x;
        m1 += x;
        m2 += x * x;
        m3 += x * x * x;
        m4 += x * x * x * x;
    }
    double tn = (double)total;
    m1 /= tn;
    m2 /= tn;
    m3 /= tn;
    m4 /= tn;
    /* moments about zero (the known mean) of a standard normal: 0, 1, 0, 3 */
    double skew = m3 / pow(m2, 1.5), kurt = m4 / (m2 * m2) - 3;
    double D = tu_ks_normal(v, (size_t)total);
    double Dcrit = tu_ks_critical(tn, 1e-3);
    printf("%s %dD: n = %lld values (%d realizations), KS D = %.5f (critical %.5f at 1e-3), "
           "mean %.4f, var %.4f, skewness %.4f (+-%.4f), excess kurtosis %.4f (+-%.4f)\n",
           name, dim, (long long)total, nreal, D, Dcrit, m1, m2, skew, sqrt(6 / tn), kurt,
           sqrt(24 / tn));
    CHECK(D < Dcrit, "%s: KS distance %.5f >= %.5f", name, D, Dcrit);
    CHECK(fabs(skew) < 4.5 * sqrt(6 / tn), "%s: skewness %.4f", name, skew);
    CHECK(fabs(kurt) < 4.5 * sqrt(24 / tn), "%s: excess kurtosis %.4f", name, kurt);
    free(v);
    tbrf_destroy(p);
}

int main(void)
{
    tbrf_model *g = NULL, *m = NULL;
    CHECK(tbrf_model_gaussian(1.0, &g) == TBRF_OK, "gaussian");
    CHECK(tbrf_model_set_variance(g, 4.0) == TBRF_OK, "set_variance");
    CHECK(tbrf_model_matern(1.0, 1.5, &m) == TBRF_OK, "matern");
    /* 3D Gaussian: 24^3 points 4 lengths apart, 8 realizations */
    if (g) run_case("gaussian", g, 3, 4.0, 24, 0.25, 8, 101);
    /* 3D Matern nu = 3/2, C = (1 + r) e^-r: 8 lengths apart (C = 3e-3),
     * its k^-6 spectrum resolved at resolution 1/4 (unresolved < 1e-5) */
    if (m) run_case("matern1.5", m, 3, 8.0, 24, 0.25, 8, 102);
    /* 2D Gaussian: 96^2 points 3 lengths apart (C = e^-9), 6 realizations */
    if (g) run_case("gaussian", g, 2, 3.0, 96, 0.25, 6, 103);
    /* 3D stable alpha = 3/2 (made by name), C = exp(-r^1.5): 8 lengths
     * apart (C = 1.6e-10), its k^-4.5 tail resolved at resolution 1/8
     * (unresolved under 1e-3) */
    tbrf_model *st = NULL;
    const char *nm[] = {"length", "alpha"};
    const double sv[] = {1.0, 1.5};
    CHECK(tbrf_model_make_params("stable", 2, nm, sv, &st) == TBRF_OK, "stable");
    if (st) run_case("stable1.5", st, 3, 8.0, 24, 0.125, 8, 104);
    tbrf_model_destroy(st);
    tbrf_model_destroy(g);
    tbrf_model_destroy(m);
    return check_report("test_stats_normal");
}
