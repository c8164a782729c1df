/* test_stats_uniform.c — the variance is the same at every position of the
 * domain (turning bands): no cell or point is special, in particular not
 * the domain's centre, its edges or its corners.
 *
 * Why the centre could be special: a point x reads line l at
 * t_l(x) = (x - centre) . u_l / delta + offset, and linear interpolation
 * between line samples has a variance error that depends on the
 * sub-sample position frac(t); the per-mode correction of the line
 * spectrum (doc/method.md, "Interpolation") makes it right on average over
 * frac(t). At the centre every line used to be read at the same frac(t) =
 * frac(offset), so the error did not average out (0.1.0: 1.71 times the
 * variance of the other cells in 2D, 2.08 in 3D). Since 0.2.0 each line's
 * sample grid has its own random sub-sample shift.
 *
 * Model: a power law k^-1 on [0.5, 4 pi] (4 pi = the line Nyquist at
 * resolution 1 and oversampling 4): much power near the line Nyquist, where
 * the interpolation error is largest.
 *
 * Estimator, per cell c: v_c = (1/R) sum_r z_c,r^2 (the mean is zero by
 * construction), with standard error SE_c = sqrt((m4_c - v_c^2) / R), m4_c
 * the sample mean of z^4 (valid whatever the kurtosis: given the random
 * directions and shifts the value is Gaussian, marginally a scale mixture).
 * Reference: vbar, the mean of v_c over all N cells (its own scatter is
 * about 1/sqrt(N_independent) of SE_c and is neglected). Statistic:
 * z_c = (v_c - vbar) / SE_c for every cell; critical value the two-sided
 * normal (t with R - 1 dof) quantile at 1e-3 / N (Bonferroni over the
 * cells), so a correct library fails with probability below 1e-3.
 *
 * 2D: 71 x 71 grid at spacing 1 over the domain [0, 70]^2 (the centre is
 * cell (35, 35)), R = 512. 3D: the points of the box [0, 20]^3 at its
 * centre, 8 corners, 6 face centres, 12 edge midpoints and 100 random
 * points, R = 512, reference the mean over the random points. */
#include "support/testutil.h"

#define NREAL 512

/* v, se of R samples' moments s2 = sum z^2, s4 = sum z^4 */
static void moments(double s2, double s4, int R, double *v, double *se)
{
    *v = s2 / R;
    const double m4 = s4 / R;
    *se = sqrt(fmax(m4 - *v * *v, 0.0) / R);
}

static void check_2d(const tbrf_model *m)
{
    enum { N1 = 71 };
    const int64_t n[3] = {N1, N1, 1}, N = (int64_t)N1 * N1;
    const double h[3] = {1, 1, 1}, origin[3] = {0, 0, 0};
    const double lo[3] = {0, 0, 0}, hi[3] = {N1 - 1, N1 - 1, 0};
    tbrf_plan *p = tu_plan(m, 2, lo, hi, 1.0, 2020, NULL);
    if (!p)
        return;
    CHECK(tbrf_set_grid(p, origin, h, n) == TBRF_OK, "set_grid: %s", tbrf_plan_message(p));
    double *z = tu_malloc(sizeof(double) * (size_t)N), *s2 = calloc((size_t)N, sizeof(double)),
           *s4 = calloc((size_t)N, sizeof(double));
    for (int r = 0; r < NREAL; r++) {
        if (tu_execute(p, (uint64_t)r, z))
            break;
        for (int64_t i = 0; i < N; i++) {
            const double q = z[i] * z[i];
            s2[i] += q;
            s4[i] += q * q;
        }
    }
    double vbar = 0;
    for (int64_t i = 0; i < N; i++) vbar += s2[i] / NREAL;
    vbar /= (double)N;
    const double crit = tu_t_quantile(1e-3 / (double)N, NREAL - 1);
    double worst = 0;
    int64_t iw = 0;
    for (int64_t i = 0; i < N; i++) {
        double v, se;
        moments(s2[i], s4[i], NREAL, &v, &se);
        const double zc = (v - vbar) / se;
        if (fabs(zc) > fabs(worst)) {
            worst = zc;
            iw = i;
        }
    }
    const struct { int i, j; const char *what; } cells[] = {
        {35, 35, "centre"}, {0, 0, "corner (0,0)"}, {70, 70, "corner (70,70)"},
        {0, 35, "edge (0,35)"}, {35, 70, "edge (35,70)"}, {34, 35, "next to the centre"}};
    for (size_t c = 0; c < sizeof cells / sizeof cells[0]; c++) {
        const int64_t i = (int64_t)cells[c].j * N1 + cells[c].i;
        double v, se;
        moments(s2[i], s4[i], NREAL, &v, &se);
        printf("2D %-20s variance / domain mean %.4f +- %.4f (z = %+.2f)\n", cells[c].what, v / vbar,
               se / vbar, (v - vbar) / se);
        CHECK(fabs(v - vbar) <= crit * se, "2D %s: variance %.4f x the domain mean (z = %.2f > %.2f)",
              cells[c].what, v / vbar, (v - vbar) / se, crit);
    }
    printf("2D: %lld cells, largest |z| %.2f at cell (%lld, %lld), critical %.2f\n", (long long)N,
           fabs(worst), (long long)(iw % N1), (long long)(iw / N1), crit);
    CHECK(fabs(worst) <= crit, "2D: cell (%lld, %lld) has z = %.2f (critical %.2f)", (long long)(iw % N1),
          (long long)(iw / N1), worst, crit);
    free(z);
    free(s2);
    free(s4);
    tbrf_destroy(p);
}

static void check_3d(const tbrf_model *m)
{
    enum { NSPECIAL = 27, NRAND = 100, NP = NSPECIAL + NRAND };
    const double B = 20.0, lo[3] = {0, 0, 0}, hi[3] = {B, B, B};
    double xyz[3 * NP];
    int np = 0;
    /* centre, then corners, face centres and edge midpoints: every point
     * of {0, B/2, B}^3 */
    const double c3[3] = {B / 2, 0, B};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 3; c++) {
                xyz[3 * np] = c3[a];
                xyz[3 * np + 1] = c3[b];
                xyz[3 * np + 2] = c3[c];
                np++;
            }
    tu_rng rng = {77};
    for (int i = 0; i < NRAND; i++, np++)
        for (int d = 0; d < 3; d++) xyz[3 * np + d] = B * tu_uniform(&rng);
    tbrf_plan *p = tu_plan(m, 3, lo, hi, 1.0, 2021, NULL);
    if (!p)
        return;
    CHECK(tbrf_set_points(p, NP, xyz) == TBRF_OK, "set_points: %s", tbrf_plan_message(p));
    double z[NP], s2[NP] = {0}, s4[NP] = {0};
    for (int r = 0; r < NREAL; r++) {
        if (tu_execute(p, (uint64_t)r, z))
            break;
        for (int i = 0; i < NP; i++) {
            s2[i] += z[i] * z[i];
            s4[i] += z[i] * z[i] * z[i] * z[i];
        }
    }
    double vbar = 0;
    for (int i = NSPECIAL; i < NP; i++) vbar += s2[i] / NREAL;
    vbar /= NRAND;
    const double crit = tu_t_quantile(1e-3 / NP, NREAL - 1);
    double worst = 0;
    for (int i = 0; i < NP; i++) {
        double v, se;
        moments(s2[i], s4[i], NREAL, &v, &se);
        const double zc = (v - vbar) / se;
        if (i == 0 || i == 1 || i == 13)
            printf("3D %-11s (%g, %g, %g): variance / mean of random points %.4f +- %.4f (z = %+.2f)\n",
                   i == 0 ? "centre" : i == 1 ? "face centre" : "corner", xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], v / vbar,
                   se / vbar, zc);
        worst = fmax(worst, fabs(zc));
        CHECK(fabs(zc) <= crit, "3D point (%g, %g, %g): variance %.4f x the mean (z = %.2f > %.2f)",
              xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], v / vbar, zc, crit);
    }
    printf("3D: %d points, largest |z| %.2f, critical %.2f\n", NP, worst, crit);
    tbrf_destroy(p);
}

int main(void)
{
    tbrf_model *m = NULL;
    REQUIRE(tbrf_model_powerlaw(-1.0, 0.5, 4.0 * M_PI, &m) == TBRF_OK, check_report("test_stats_uniform"),
            "powerlaw");
    check_2d(m);
    check_3d(m);
    tbrf_model_destroy(m);
    return check_report("test_stats_uniform");
}
