/* test_stats_isotropy.c — directional variograms of a 3D field on a
 * non-cubic grid with a different spacing per axis, along the 3 axes, the
 * 6 face diagonals and the 4 body diagonals, at three distances each.
 *
 * Estimator: gamma_hat(d) = mean over the grid of (z(x + d) - z(x))^2 / 2
 * for a lattice vector d; for an isotropic field its expectation is
 * sigma^2 - C(|d|) at the physical length |d| (so the per-axis spacings
 * must be honoured), the same in every direction.
 * Two checks per (direction, distance), each over R realizations, with
 * Student's t at two-sided 1e-3 / (number of comparisons) (Bonferroni):
 *  1. gamma_hat / gamma_model - 1 vs 0 (agreement with the model);
 *  2. the anisotropy contrast: gamma_hat/gamma_model of the direction
 *     minus the mean of that ratio over the 13 directions at the same
 *     distance class, within the same realization — large-scale
 *     fluctuations common to all directions cancel, so this is the
 *     sharper test that the directions agree with each other.
 */
#include "support/testutil.h"

#define NREAL 32
#define NDIR 13
#define NDIST 3

int main(void)
{
    tbrf_model *g = NULL;
    REQUIRE(tbrf_model_gaussian(4.0, &g) == TBRF_OK, check_report("test_stats_isotropy"), "gaussian");
    const int64_t n[3] = {40, 32, 48};
    const double h[3] = {1.0, 1.25, 0.8}, origin[3] = {0, 0, 0};
    const double lo[3] = {0, 0, 0},
                 hi[3] = {h[0] * (n[0] - 1), h[1] * (n[1] - 1), h[2] * (n[2] - 1)};
    /* resolution = the smallest spacing; the length 4 is 5 of them */
    tbrf_plan *p = tu_plan(g, 3, lo, hi, 0.8, 501, NULL);
    if (!p) return check_report("test_stats_isotropy");
    CHECK(tbrf_set_grid(p, origin, h, n) == TBRF_OK, "set_grid: %s", tbrf_plan_message(p));
    tbrf_plan_info info;
    tbrf_plan_get_info(p, &info);
    CHECK(fabs(info.variance_resolved / info.variance - 1) < 1e-3, "resolved %.6g",
          info.variance_resolved);

    static const int dirs[NDIR][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {1, -1, 0},
                                      {1, 0, 1}, {1, 0, -1}, {0, 1, 1}, {0, 1, -1}, {1, 1, 1},
                                      {1, 1, -1}, {1, -1, 1}, {-1, 1, 1}};
    const double want[NDIST] = {2.0, 4.0, 8.0}; /* half, one and two lengths */
    int mult[NDIR][NDIST];
    double rlen[NDIR][NDIST];
    for (int d = 0; d < NDIR; d++) {
        double step = 0;
        for (int c = 0; c < 3; c++) step += (dirs[d][c] * h[c]) * (dirs[d][c] * h[c]);
        step = sqrt(step);
        for (int k = 0; k < NDIST; k++) {
            int m = (int)lround(want[k] / step);
            mult[d][k] = m < 1 ? 1 : m;
            rlen[d][k] = mult[d][k] * step;
        }
    }
    int64_t N = tbrf_plan_count(p);
    double *z = tu_malloc((size_t)N * sizeof *z);
    static double ratio[NDIR][NDIST][NREAL], contrast[NDIR][NDIST][NREAL];
    for (int r = 0; r < NREAL; r++) {
        if (tu_execute(p, (uint64_t)r, z)) break;
        for (int d = 0; d < NDIR; d++)
            for (int k = 0; k < NDIST; k++) {
                int64_t s[3];
                for (int c = 0; c < 3; c++) s[c] = (int64_t)dirs[d][c] * mult[d][k];
                double acc = 0;
                int64_t cnt = 0;
                for (int64_t kz = 0; kz < n[2]; kz++) {
                    int64_t kz2 = kz + s[2];
                    if (kz2 < 0 || kz2 >= n[2]) continue;
                    for (int64_t jy = 0; jy < n[1]; jy++) {
                        int64_t jy2 = jy + s[1];
                        if (jy2 < 0 || jy2 >= n[1]) continue;
                        int64_t i0 = s[0] < 0 ? -s[0] : 0, i1 = s[0] > 0 ? n[0] - s[0] : n[0];
                        const double *a = z + (kz * n[1] + jy) * n[0];
                        const double *b = z + (kz2 * n[1] + jy2) * n[0] + s[0];
                        for (int64_t i = i0; i < i1; i++) {
                            double dd = b[i] - a[i];
                            acc += dd * dd;
                        }
                        cnt += i1 - i0;
                    }
                }
                double gm = info.variance * (1 - exp(-(rlen[d][k] / 4.0) * (rlen[d][k] / 4.0)));
                ratio[d][k][r] = 0.5 * acc / (double)cnt / gm;
            }
        for (int k = 0; k < NDIST; k++) {
            double mean = 0;
            for (int d = 0; d < NDIR; d++) mean += ratio[d][k][r] / NDIR;
            for (int d = 0; d < NDIR; d++) contrast[d][k][r] = ratio[d][k][r] - mean;
        }
    }
    int ncomp = NDIR * NDIST;
    double t = tu_t_quantile(1e-3 / ncomp, NREAL - 1);
    printf("isotropy: grid %lldx%lldx%lld, spacings (%g, %g, %g), Gaussian length 4, %d "
           "realizations; critical t(%.2g, %d) = %.2f\n",
           (long long)n[0], (long long)n[1], (long long)n[2], h[0], h[1], h[2], NREAL,
           1e-3 / ncomp, NREAL - 1, t);
    printf("  direction   r      gamma/model        z   contrast          z\n");
    double worst1 = 0, worst2 = 0;
    for (int d = 0; d < NDIR; d++)
        for (int k = 0; k < NDIST; k++) {
            double m1, s1, m2, s2;
            tu_mean_sd(ratio[d][k], NREAL, &m1, &s1);
            tu_mean_sd(contrast[d][k], NREAL, &m2, &s2);
            double z1 = (m1 - 1) / (s1 / sqrt(NREAL)), z2 = m2 / (s2 / sqrt(NREAL));
            if (fabs(z1) > worst1) worst1 = fabs(z1);
            if (fabs(z2) > worst2) worst2 = fabs(z2);
            printf("  (%2d,%2d,%2d) %5.2f  %.4f+-%.4f %+6.2f  %+.4f+-%.4f %+6.2f\n", dirs[d][0],
                   dirs[d][1], dirs[d][2], rlen[d][k], m1, s1 / sqrt(NREAL), z1, m2,
                   s2 / sqrt(NREAL), z2);
            CHECK(fabs(z1) < t, "direction (%d,%d,%d) at r = %.2f: gamma/model = %.4f, %.2f SE",
                  dirs[d][0], dirs[d][1], dirs[d][2], rlen[d][k], m1, z1);
            CHECK(fabs(z2) < t, "direction (%d,%d,%d) at r = %.2f: anisotropy contrast %.4f, "
                  "%.2f SE", dirs[d][0], dirs[d][1], dirs[d][2], rlen[d][k], m2, z2);
        }
    printf("  largest |z|: vs model %.2f, contrast %.2f (critical %.2f)\n", worst1, worst2, t);
    free(z);
    tbrf_destroy(p);
    tbrf_model_destroy(g);
    return check_report("test_stats_isotropy");
}
