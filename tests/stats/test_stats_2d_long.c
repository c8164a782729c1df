/* test_stats_2d_long.c — 2D fields whose correlation length is not small
 * against the domain: variance and covariance against sigma^2
 * C(r) with lines lengthened by opts.line_length_factor F.
 *
 * Why F: the 2D line spectrum |k| P(|k|) / 2 has a kink at k = 0, and the
 * line's lowest modes (spacing 2 pi / Lambda) miss a share ~ (ell /
 * Lambda)^2 of the variance, a constant part of the covariance
 * (doc/method.md, "Lines"). The plan predicts it (variance_resolved);
 * F = 8 makes it 64 times smaller.
 *
 * Cases: Gaussian length 10 on a 2 x 2 grid (spacing 1; 0.1.0 gave 0.837
 * of sigma^2) and Gaussian length 5 on an 11 x 11 grid (side 10, 0.1.0:
 * 2% low); 64 lines (2D directions are evenly spaced: the variance at a
 * point is exact for any L, the covariance at these lags, features of
 * angular width >~ ell/|h| >= 1/2, to far below the tolerance).
 *
 * Estimator: per realization, S_r(h) = mean over the cell pairs at lag h
 * of z(x) z(x + h) (h = 0: the variance); the mean over R = 4096
 * realizations, standard error sd(S_r)/sqrt(R); critical value Student's t
 * with R - 1 dof at 1e-3/K, K = the number of comparisons (Bonferroni).
 * With F = 8 the target is sigma^2 C(|h|) (variance_resolved within 0.3%
 * of sigma^2, below a fifth of the standard error); with F = 1 the
 * measured variance must match the plan's prediction variance_resolved,
 * which is printed against sigma^2. */
#include "support/testutil.h"

#define NREAL 4096
#define K_CHECKS 10

static double gauss_C(double r, double ell) { return exp(-(r / ell) * (r / ell)); }

/* Mean over realizations of S_r(h) for lags (hx, 0) with hx in lags[], and
 * (0,0); out: mean and se per lag. */
static void measure(const tbrf_model *m, int n1, double ell, int factor, const int *lags, int nlag,
                    double *mean, double *se, double *resolved)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = 64;
    o.line_length_factor = factor;
    const double side = n1 - 1, lo[3] = {0, 0, 0}, hi[3] = {side, side, 0};
    const double h[3] = {1, 1, 1}, origin[3] = {0, 0, 0};
    const int64_t n[3] = {n1, n1, 1};
    tbrf_plan *p = tu_plan(m, 2, lo, hi, 1.0, 77 + (uint64_t)factor, &o);
    if (!p)
        return;
    CHECK(tbrf_set_grid(p, origin, h, n) == TBRF_OK, "set_grid: %s", tbrf_plan_message(p));
    tbrf_plan_info info;
    tbrf_plan_get_info(p, &info);
    *resolved = info.variance_resolved;
    double *z = tu_malloc(sizeof(double) * (size_t)(n1 * n1));
    double s1[8] = {0}, s2[8] = {0};
    for (int r = 0; r < NREAL; r++) {
        if (tu_execute(p, (uint64_t)r, z))
            break;
        for (int q = 0; q < nlag; q++) {
            double s = 0;
            int cnt = 0;
            for (int j = 0; j < n1; j++)
                for (int i = 0; i + lags[q] < n1; i++) {
                    s += z[j * n1 + i] * z[j * n1 + i + lags[q]];
                    cnt++;
                }
            s /= cnt;
            s1[q] += s;
            s2[q] += s * s;
        }
    }
    for (int q = 0; q < nlag; q++) {
        mean[q] = s1[q] / NREAL;
        se[q] = sqrt(fmax(s2[q] / NREAL - mean[q] * mean[q], 0.0) / (NREAL - 1));
    }
    (void)ell;
    free(z);
    tbrf_destroy(p);
}

int main(void)
{
    const double crit = tu_t_quantile(1e-3 / K_CHECKS, NREAL - 1);
    const struct { int n1; double ell; int lags[3], nlag; } cases[] = {
        {2, 10.0, {0, 1}, 2}, {11, 5.0, {0, 5, 10}, 3}};
    for (int c = 0; c < 2; c++) {
        tbrf_model *m = NULL;
        REQUIRE(tbrf_model_gaussian(cases[c].ell, &m) == TBRF_OK, check_report("test_stats_2d_long"),
                "gaussian");
        double mean[3], se[3], res = NAN;
        /* F = 8: sigma^2 C(h) */
        measure(m, cases[c].n1, cases[c].ell, 8, cases[c].lags, cases[c].nlag, mean, se, &res);
        printf("Gaussian length %g, %dx%d grid, F = 8: variance_resolved %.5f\n", cases[c].ell,
               cases[c].n1, cases[c].n1, res);
        CHECK(fabs(res - 1.0) < 0.003, "F = 8: variance_resolved %.5f is not within 0.3%% of 1", res);
        for (int q = 0; q < cases[c].nlag; q++) {
            const double want = gauss_C(cases[c].lags[q], cases[c].ell);
            printf("  lag %2d: C %.4f +- %.4f, model %.4f (t = %+.2f, critical %.2f)\n", cases[c].lags[q],
                   mean[q], se[q], want, (mean[q] - want) / se[q], crit);
            CHECK(fabs(mean[q] - want) <= crit * se[q], "length %g, F = 8, lag %d: C %.4f vs %.4f (t = %.2f)",
                  cases[c].ell, cases[c].lags[q], mean[q], want, (mean[q] - want) / se[q]);
        }
        /* F = 1 (the 0.1.0 lines): the variance the plan predicts */
        measure(m, cases[c].n1, cases[c].ell, 1, cases[c].lags, 1, mean, se, &res);
        printf("Gaussian length %g, %dx%d grid, F = 1: variance %.4f +- %.4f, variance_resolved %.4f "
               "(t = %+.2f), sigma^2 1 (t = %+.2f)\n",
               cases[c].ell, cases[c].n1, cases[c].n1, mean[0], se[0], res, (mean[0] - res) / se[0],
               (mean[0] - 1.0) / se[0]);
        CHECK(fabs(mean[0] - res) <= crit * se[0], "F = 1: variance %.4f vs the predicted %.4f",
              mean[0], res);
        tbrf_model_destroy(m);
    }
    return check_report("test_stats_2d_long");
}
