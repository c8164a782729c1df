/* test_gpu_stats.c — statistics of fields made by a GPU backend
 * (`test_gpu_stats opencl|cuda`; exit 77 = skipped when the backend is not
 * built or has no device). The conformance suite shows the backend equals
 * the CPU to 1e-12 in double; this checks the field itself:
 *  - variance: S_r = mean over a 32^3 grid of z^2, R = 12 realizations;
 *    mean(S) must equal the plan's variance_resolved within 4.5 standard
 *    errors, the standard error estimated from the realization spread
 *    (Student t with R-1 = 11 degrees of freedom: 4.5 is beyond p = 1e-3);
 *  - covariance: for r = 0.5, 1, 2 (Gaussian model, length 1), c_r = mean of
 *    z(x) z(x + r e) over 3000 random pairs (random x and direction e), per
 *    realization; mean(c_r) must equal C(r) = v exp(-r^2) (v the resolved
 *    variance) within 4.5 standard errors of the realization spread;
 *  - the same in float precision for the variance.
 */
#include "support/testutil.h"

#define R 12
static int backend = TBRF_BACKEND_OPENCL;
static const double LO[3] = {0, 0, 0}, HI[3] = {16, 16, 16};

static tbrf_plan *make(tbrf_model *m, int precision)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.backend = backend;
    o.precision = precision;
    o.work_group = 64;
    o.unroll = 4;
    return tu_plan(m, 3, LO, HI, 0.5, 2024, &o);
}

static void tcheck(const char *what, const double *x, double expect)
{
    double mean = 0, var = 0;
    for (int r = 0; r < R; r++)
        mean += x[r] / R;
    for (int r = 0; r < R; r++)
        var += (x[r] - mean) * (x[r] - mean) / (R - 1);
    double se = sqrt(var / R);
    printf("  %-34s mean %.5f expected %.5f (standard error %.5f, %.2f se)\n", what, mean, expect, se,
           se > 0 ? (mean - expect) / se : 0.0);
    CHECK(fabs(mean - expect) <= 4.5 * se + 1e-12, "%s: %.5f vs %.5f, %.1f standard errors", what, mean,
          expect, (mean - expect) / se);
}

static void variance(tbrf_model *m, int precision)
{
    tbrf_plan *p = make(m, precision);
    if (!p)
        return;
    tbrf_plan_info info;
    tbrf_plan_get_info(p, &info);
    const int64_t n[3] = {32, 32, 32}, N = 32 * 32 * 32;
    const double org[3] = {0, 0, 0}, sp[3] = {0.5, 0.5, 0.5};
    CHECK(tbrf_set_grid(p, org, sp, n) == TBRF_OK, "set_grid: %s", tbrf_plan_message(p));
    void *v = tu_malloc((size_t)N * sizeof(double));
    double s[R];
    for (int r = 0; r < R; r++) {
        s[r] = 0;
        tu_execute(p, (uint64_t)r, v);
        for (int64_t i = 0; i < N; i++) {
            double z = precision == TBRF_FLOAT ? ((float *)v)[i] : ((double *)v)[i];
            s[r] += z * z / (double)N;
        }
    }
    tcheck(precision == TBRF_FLOAT ? "variance (float)" : "variance (double)", s, info.variance_resolved);
    free(v);
    tbrf_destroy(p);
}

static void covariance(tbrf_model *m)
{
    tbrf_plan *p = make(m, TBRF_DOUBLE);
    if (!p)
        return;
    tbrf_plan_info info;
    tbrf_plan_get_info(p, &info);
    enum { NP = 3000 };
    static const double rs[3] = {0.5, 1.0, 2.0};
    double *xyz = tu_malloc(sizeof(double) * 3 * 2 * NP * 3);
    tu_rng g = {31};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < NP; i++) {
            double *a = xyz + 3 * 2 * (k * NP + i), *b = a + 3;
            double e[3], nn = 0;
            do {
                nn = 0;
                for (int c = 0; c < 3; c++) {
                    e[c] = 2 * tu_uniform(&g) - 1;
                    nn += e[c] * e[c];
                }
            } while (nn > 1 || nn < 1e-6);
            for (int c = 0; c < 3; c++) {
                a[c] = 3 + 10 * tu_uniform(&g);
                b[c] = a[c] + rs[k] * e[c] / sqrt(nn);
            }
        }
    const int64_t npts = 2 * NP * 3;
    CHECK(tbrf_set_points(p, npts, xyz) == TBRF_OK, "set_points: %s", tbrf_plan_message(p));
    double *v = tu_malloc(sizeof(double) * (size_t)npts);
    double c[3][R];
    for (int r = 0; r < R; r++) {
        tu_execute(p, (uint64_t)r, v);
        for (int k = 0; k < 3; k++) {
            c[k][r] = 0;
            for (int i = 0; i < NP; i++)
                c[k][r] += v[2 * (k * NP + i)] * v[2 * (k * NP + i) + 1] / NP;
        }
    }
    for (int k = 0; k < 3; k++) {
        char what[64];
        snprintf(what, sizeof what, "covariance at r = %.1f", rs[k]);
        tcheck(what, c[k], info.variance_resolved * exp(-rs[k] * rs[k]));
    }
    free(v);
    free(xyz);
    tbrf_destroy(p);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "cuda") == 0)
        backend = TBRF_BACKEND_CUDA;
    int av = tbrf_backend_available(backend);
    if (av != TBRF_OK) {
        printf("SKIP test_gpu_stats %s: %s\n", tbrf_backend_name(backend), tbrf_strerror(av));
        return 77;
    }
    printf("test_gpu_stats: backend %s\n", tbrf_backend_name(backend));
    tbrf_model *m = NULL;
    if (tbrf_model_gaussian(1.0, &m) != TBRF_OK)
        return 1;
    variance(m, TBRF_DOUBLE);
    variance(m, TBRF_FLOAT);
    covariance(m);
    tbrf_model_destroy(m);
    return check_report("test_gpu_stats");
}
