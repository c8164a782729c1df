/* test_stats_2d.c — 2D fields (dim = 2, grid n[2] = 1): variance and
 * covariance against the model, averaged over realizations.
 *
 * Model: Gaussian C(r) = sigma^2 exp(-r^2), length 1 = 4 resolutions (fully
 * resolved), on a 256 x 256 grid of spacing 1/2.
 * Variance: S = mean z^2 over the grid; Var(S) = (2/N^2) sum_ij C(r_ij)^2
 * exactly for a Gaussian field; the 2D turning-bands directions are evenly
 * spaced (pi/L apart, random offset), so the line sum is a trapezoid rule
 * of the direction average, exact to far below 1e-6 at these separations
 * (features of width 1/r in angle, r < 200 lengths, L = 1024): no banding
 * term. Tolerance 4.5 standard errors; the realization spread must agree
 * with the theory (chi-square, two-sided 1e-3).
 * Covariance: C_hat(lag) = mean over the grid of z(x) z(x + lag) for lags
 * along x, y and diagonals; target sigma^2 C(|lag|); critical value
 * Student's t with R - 1 dof at 1e-3 / (number of lags).
 */
#include "support/testutil.h"

#define NSIDE 256
#define NREAL 16
#define H 0.5

static double gauss_C(double r) { return exp(-r * r); }

int main(void)
{
    const double sigma2 = 1.7;
    tbrf_model *g = NULL;
    REQUIRE(tbrf_model_gaussian(1.0, &g) == TBRF_OK, check_report("test_stats_2d"), "gaussian");
    tbrf_model_set_variance(g, sigma2);
    const int64_t n[3] = {NSIDE, NSIDE, 1};
    const double h[3] = {H, H, H}, origin[3] = {0, 0, 0};
    const double ext = H * (NSIDE - 1), lo[3] = {0, 0, 0}, hi[3] = {ext, ext, 0};
    tbrf_plan *p = tu_plan(g, 2, lo, hi, 0.25, 401, NULL);
    if (!p) {
        tbrf_model_destroy(g);
        return check_report("test_stats_2d");
    }
    tbrf_plan_info info;
    tbrf_plan_get_info(p, &info);
    CHECK(info.dim == 2, "info.dim %d", info.dim);
    CHECK(fabs(info.variance - sigma2) < 1e-12, "variance %.15g", info.variance);
    CHECK(fabs(tbrf_model_variance(g, 2) - sigma2) < 1e-12, "model variance 2D %.15g",
          tbrf_model_variance(g, 2));
    CHECK(fabs(info.variance_resolved / info.variance - 1) < 1e-3, "variance_resolved %.6g",
          info.variance_resolved);
    REQUIRE(tbrf_set_grid(p, origin, h, n) == TBRF_OK, check_report("test_stats_2d"), "set_grid: %s",
            tbrf_plan_message(p));

    /* lags (dx, dy) in cells */
    static const int lags[][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}, {2, 0}, {0, 2},
                                  {2, 1}, {3, 0}, {0, 3}, {2, 2}, {4, 0}, {3, 3}};
    enum { NLAG = sizeof lags / sizeof lags[0] };

    /* Var(S) theory over the separation vectors */
    double sf = 0;
    for (int dy = -(NSIDE - 1); dy <= NSIDE - 1; dy++)
        for (int dx = -(NSIDE - 1); dx <= NSIDE - 1; dx++) {
            double r = H * sqrt((double)dx * dx + (double)dy * dy);
            if (r > 8) continue; /* C^2 < e^-128 */
            double c = sigma2 * gauss_C(r);
            sf += (double)(NSIDE - abs(dx)) * (NSIDE - abs(dy)) * c * c;
        }
    double N = (double)NSIDE * NSIDE;
    double varS = 2 * sf / (N * N);

    double *z = tu_malloc((size_t)N * sizeof *z);
    double S[NREAL], est[NLAG][NREAL];
    for (int r = 0; r < NREAL; r++) {
        if (tu_execute(p, (uint64_t)r, z)) break;
        double s = 0;
        for (int64_t i = 0; i < (int64_t)N; i++) s += z[i] * z[i];
        S[r] = s / N;
        for (int l = 0; l < NLAG; l++) {
            int dx = lags[l][0], dy = lags[l][1];
            double acc = 0;
            int64_t cnt = 0;
            for (int j = 0; j < NSIDE; j++) {
                int j2 = j + dy;
                if (j2 < 0 || j2 >= NSIDE) continue;
                for (int i = 0; i < NSIDE - dx; i++) {
                    acc += z[(int64_t)j * NSIDE + i] * z[(int64_t)j2 * NSIDE + i + dx];
                    cnt++;
                }
            }
            est[l][r] = acc / (double)cnt;
        }
    }
    double mean, sd;
    tu_mean_sd(S, NREAL, &mean, &sd);
    double se = sqrt(varS / NREAL);
    printf("2D variance: mean S = %.5f over %d realizations, target %.5f, diff %+.5f (%.2f SE); "
           "tolerance %.5f = 4.5 SE; theory sd per realization %.5f, measured %.5f\n",
           mean, NREAL, info.variance, mean - info.variance, (mean - info.variance) / se, 4.5 * se,
           sqrt(varS), sd);
    CHECK(fabs(mean - info.variance) < 4.5 * se, "2D variance %.5f vs %.5f", mean, info.variance);
    double nu = NREAL - 1, q = nu * sd * sd / varS;
    double chi_hi = tu_chi2_upper_quantile(5e-4, nu), chi_lo = tu_chi2_upper_quantile(1 - 5e-4, nu);
    CHECK(q < chi_hi && q > chi_lo, "2D realization spread sd %.5f vs theory %.5f (chi2 %.2f "
          "outside [%.2f, %.2f])", sd, sqrt(varS), q, chi_lo, chi_hi);

    double t = tu_t_quantile(1e-3 / NLAG, NREAL - 1);
    printf("2D covariance (critical t = %.2f):\n  lag      r      C_hat     model     SE     z\n", t);
    for (int l = 0; l < NLAG; l++) {
        double m, s2;
        tu_mean_sd(est[l], NREAL, &m, &s2);
        double r = H * sqrt((double)lags[l][0] * lags[l][0] + (double)lags[l][1] * lags[l][1]);
        double target = sigma2 * gauss_C(r), e = s2 / sqrt(NREAL);
        printf("  (%d,%2d) %.3f  %8.5f  %8.5f  %.5f  %+.2f\n", lags[l][0], lags[l][1], r, m, target,
               e, (m - target) / e);
        CHECK(fabs(m - target) < t * e, "2D covariance at lag (%d,%d): %.5f vs %.5f (%.2f SE)",
              lags[l][0], lags[l][1], m, target, (m - target) / e);
        double cm = tbrf_model_covariance(g, 2, r);
        CHECK(fabs(cm - target) < 1e-10, "tbrf_model_covariance 2D(%g) = %.15g vs %.15g", r, cm,
              target);
    }
    free(z);
    tbrf_destroy(p);
    tbrf_model_destroy(g);
    return check_report("test_stats_2d");
}
