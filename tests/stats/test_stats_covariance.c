/* test_stats_covariance.c — measured covariance on random irregular
 * points (tbrf_set_points) against the model, 3D Gaussian, exponential,
 * stable (alpha = 3/2, spectral lines) and rational (alpha = 1, GSTools'
 * Cauchy, circulant lines), averaged over realizations.
 *
 * Estimator: for each distance bin, C_hat = mean of z_i z_j over the point
 * pairs whose separation falls in the bin (the field's mean is zero, so it
 * is not subtracted); bin 0 is r = 0, the variance at the points. Target:
 * the mean of the model covariance over the same pairs, sigma^2 C(r_ij),
 * which is exactly E[C_hat] (no bin-width bias).
 * Tolerance: each bin's R per-realization estimates give the standard
 * error of their mean; the critical value is Student's t with R - 1 dof at
 * two-sided 1e-3 / (number of bins) (Bonferroni over the bins), so a
 * correct library fails a model with probability below 1e-3.
 */
#include "support/testutil.h"

#define NPTS 12000
#define NREAL 16
#define NBIN 12
#define BINW 0.25

static double gauss_C(double r) { return exp(-r * r); }
static double expo_C(double r) { return exp(-r); }
static double stable_C(double r) { return exp(-pow(r, 1.5)); }
static double cauchy_C(double r) { return 1.0 / (1.0 + r * r); }

typedef struct {
    int32_t i, j;
    int32_t bin;
} pair_t;

static void run_case(const char *name, tbrf_model *model, double (*C)(double), double sigma2,
                     double res, uint64_t seed, const tbrf_opts *opts)
{
    const double L = 22.0; /* box side in model lengths: density 1.1 per length^3 */
    const double lo[3] = {0, 0, 0}, hi[3] = {L, L, L};
    tu_rng rng = {seed * 7919u};
    double *xyz = tu_random_points(&rng, NPTS, 3, lo, hi);

    /* pairs within NBIN*BINW */
    size_t cap = 1 << 20, np = 0;
    pair_t *pairs = tu_malloc(cap * sizeof *pairs);
    double target[NBIN + 1] = {0}, cnt[NBIN + 1] = {0};
    const double rmax = NBIN * BINW;
    for (int32_t i = 0; i < NPTS; i++)
        for (int32_t j = i + 1; j < NPTS; j++) {
            double dx = xyz[3 * i] - xyz[3 * j];
            if (fabs(dx) >= rmax) continue;
            double dy = xyz[3 * i + 1] - xyz[3 * j + 1];
            if (fabs(dy) >= rmax) continue;
            double dz = xyz[3 * i + 2] - xyz[3 * j + 2];
            double r = sqrt(dx * dx + dy * dy + dz * dz);
            if (r >= rmax) continue;
            int b = 1 + (int)(r / BINW);
            if (np == cap) {
                cap *= 2;
                pair_t *q = realloc(pairs, cap * sizeof *pairs);
                if (!q) { fprintf(stderr, "out of memory\n"); exit(2); }
                pairs = q;
            }
            pairs[np++] = (pair_t){i, j, b};
            target[b] += sigma2 * C(r);
            cnt[b] += 1;
            /* the library's covariance must agree with the closed form */
            if (np % 4096 == 0) {
                double cm = tbrf_model_covariance(model, 3, r);
                CHECK(fabs(cm - sigma2 * C(r)) < 1e-10 * sigma2,
                      "%s: tbrf_model_covariance(%g) = %.15g, closed form %.15g", name, r, cm,
                      sigma2 * C(r));
            }
        }
    target[0] = sigma2;
    cnt[0] = NPTS;
    for (int b = 1; b <= NBIN; b++) target[b] /= cnt[b];

    tbrf_plan *p = tu_plan(model, 3, lo, hi, res, seed, opts);
    if (!p) {
        free(xyz);
        free(pairs);
        return;
    }
    tbrf_plan_info info;
    tbrf_plan_get_info(p, &info);
    CHECK(fabs(info.variance_resolved / info.variance - 1) < 1e-2,
          "%s: variance_resolved/variance = %.6f; the test needs a resolved model", name,
          info.variance_resolved / info.variance);
    /* the unresolved power (beyond the line Nyquist) is missing from the
     * variance; at the separations of the other bins (r >> 1/K) its
     * covariance is below 1e-4 */
    target[0] = info.variance_resolved;
    CHECK(tbrf_set_points(p, NPTS, xyz) == TBRF_OK, "set_points: %s", tbrf_plan_message(p));
    double *z = tu_malloc(NPTS * sizeof *z);
    static double est[NBIN + 1][NREAL];
    for (int r = 0; r < NREAL; r++) {
        if (tu_execute(p, (uint64_t)r, z)) break;
        double s[NBIN + 1] = {0};
        for (int i = 0; i < NPTS; i++) s[0] += z[i] * z[i];
        for (size_t k = 0; k < np; k++) s[pairs[k].bin] += z[pairs[k].i] * z[pairs[k].j];
        for (int b = 0; b <= NBIN; b++) est[b][r] = s[b] / cnt[b];
    }
    double t = tu_t_quantile(1e-3 / (NBIN + 1), NREAL - 1);
    printf("%s: %d points in a box of %g lengths, %zu pairs within %g, %d realizations, "
           "critical t(%.2g, %d) = %.2f\n", name, NPTS, L, np, rmax, NREAL, 1e-3 / (NBIN + 1),
           NREAL - 1, t);
    printf("  bin   r range      pairs    C_hat      model     SE       (C_hat-model)/SE\n");
    for (int b = 0; b <= NBIN; b++) {
        double m, sd;
        tu_mean_sd(est[b], NREAL, &m, &sd);
        double se = sd / sqrt(NREAL);
        double lo_r = b ? (b - 1) * BINW : 0, hi_r = b ? b * BINW : 0;
        printf("  %2d  [%.2f,%.2f) %8.0f  %8.5f  %8.5f  %8.5f  %+6.2f\n", b, lo_r, hi_r, cnt[b], m,
               target[b], se, (m - target[b]) / se);
        CHECK(fabs(m - target[b]) < t * se, "%s: bin %d [%.2f, %.2f): C_hat %.5f vs %.5f "
              "(%.2f SE, critical %.2f)", name, b, lo_r, hi_r, m, target[b], (m - target[b]) / se,
              t);
    }
    free(z);
    free(xyz);
    free(pairs);
    tbrf_destroy(p);
}

int main(void)
{
    tbrf_model *g = NULL, *e = NULL;
    CHECK(tbrf_model_gaussian(1.0, &g) == TBRF_OK, "gaussian");
    CHECK(tbrf_model_set_variance(g, 0.5) == TBRF_OK, "set_variance");
    /* resolution: length/4 (Gaussian, fully resolved); length/16 for the
     * exponential, whose k^-4 tail leaves 4/(pi K) = 0.6% of the variance
     * beyond the line Nyquist K = 64 pi: the r = 0 target is then
     * variance_resolved */
    if (g) run_case("gaussian", g, gauss_C, 0.5, 0.25, 301, NULL);
    CHECK(tbrf_model_exponential(1.0, &e) == TBRF_OK, "exponential");
    if (e) run_case("exponential", e, expo_C, 1.0, 1.0 / 16, 302, NULL);
    tbrf_model_destroy(g);
    tbrf_model_destroy(e);
    /* the kinds made by name: stable alpha = 3/2, whose k^-4.5 tail leaves
     * under 1e-3 of the variance beyond the lines' Nyquist at resolution
     * 1/8; rational alpha = 1 (spectrum ~ e^-k) through the circulant
     * embedding of its closed-form line covariance */
    const char *nm[] = {"length", "alpha"};
    const double sv[] = {1.0, 1.5}, rv[] = {1.0, 1.0};
    CHECK(tbrf_model_make_params("stable", 2, nm, sv, &e) == TBRF_OK, "stable");
    if (e) run_case("stable1.5", e, stable_C, 1.0, 1.0 / 8, 303, NULL);
    tbrf_model_destroy(e);
    tbrf_opts circ;
    tbrf_default_opts(&circ);
    circ.line_method = TBRF_LINES_CIRCULANT;
    CHECK(tbrf_model_make_params("rational", 2, nm, rv, &e) == TBRF_OK, "rational");
    if (e) run_case("rational1 circulant", e, cauchy_C, 1.0, 0.25, 304, &circ);
    tbrf_model_destroy(e);
    return check_report("test_stats_covariance");
}
