/* testutil.h — helpers shared by the statistical, determinism and
 * bad-input tests, none of them an assertion (those are check.h's, which
 * this header includes): a private random generator for test geometry,
 * the normal, Kolmogorov and Student-t distributions, the sample
 * statistics the tests need, the k-space isotropy statistic of the
 * spectrum tests, and plan/execute wrappers that count a failed call as a
 * failed check. Header only. */
#ifndef TBRF_TESTUTIL_H
#define TBRF_TESTUTIL_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "tbrf.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static inline void *tu_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

/* ------------------------------------------------ private generator */

/* splitmix64: only for test geometry (random point sets), never for the
 * field itself. */
typedef struct { uint64_t s; } tu_rng;

static inline uint64_t tu_next(tu_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* uniform in [0, 1) with 53 random bits */
static inline double tu_uniform(tu_rng *r) { return (double)(tu_next(r) >> 11) * 0x1.0p-53; }

static inline double tu_normal(tu_rng *r)
{
    double u1 = 1.0 - tu_uniform(r), u2 = tu_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* n random points uniform in the box [lo, hi] (dim coordinates each) */
static inline double *tu_random_points(tu_rng *r, int64_t n, int dim, const double lo[3],
                                       const double hi[3])
{
    double *xyz = tu_malloc((size_t)n * (size_t)dim * sizeof *xyz);
    for (int64_t i = 0; i < n; i++)
        for (int c = 0; c < dim; c++) xyz[i * dim + c] = lo[c] + (hi[c] - lo[c]) * tu_uniform(r);
    return xyz;
}

/* ------------------------------------------------ distributions */

static inline double tu_normal_cdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

/* Kolmogorov survival function Q(x) = P(sqrt(n) D_n > x) for large n. */
static inline double tu_kolmogorov_q(double x)
{
    if (x < 0.2) return 1.0;
    double s = 0.0;
    for (int k = 1; k <= 100; k++) {
        double t = exp(-2.0 * k * k * x * x);
        s += (k % 2 ? 2.0 : -2.0) * t;
        if (t < 1e-17) break;
    }
    return s < 0 ? 0 : (s > 1 ? 1 : s);
}

/* Critical value of D_n at significance alpha, with Stephens' finite-n
 * correction: reject when (sqrt(n) + 0.12 + 0.11/sqrt(n)) D > x_alpha. */
static inline double tu_ks_critical(double n, double alpha)
{
    double lo = 0.2, hi = 5.0;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (tu_kolmogorov_q(mid) > alpha) lo = mid; else hi = mid;
    }
    double x = 0.5 * (lo + hi);
    return x / (sqrt(n) + 0.12 + 0.11 / sqrt(n));
}

static int tu_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* KS distance between the sample (sorted in place) and N(0,1). */
static inline double tu_ks_normal(double *v, size_t n)
{
    qsort(v, n, sizeof *v, tu_cmp_double);
    double d = 0.0;
    for (size_t i = 0; i < n; i++) {
        double F = tu_normal_cdf(v[i]);
        double a = F - (double)i / (double)n, b = (double)(i + 1) / (double)n - F;
        if (a > d) d = a;
        if (b > d) d = b;
    }
    return d;
}

/* Regularized incomplete beta I_x(a,b) by Lentz's continued fraction. */
static inline double tu_betacf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double qab = a + b, qap = a + 1.0, qam = a - 1.0;
    double c = 1.0, d = 1.0 - qab * x / qap;
    if (fabs(d) < tiny) d = tiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 1000; m++) {
        int m2 = 2 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if (fabs(d) < tiny) d = tiny;
        c = 1.0 + aa / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if (fabs(d) < tiny) d = tiny;
        c = 1.0 + aa / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-15) break;
    }
    return h;
}

static inline double tu_betai(double a, double b, double x)
{
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    double bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1.0 - x));
    if (x < (a + 1.0) / (a + b + 2.0)) return bt * tu_betacf(a, b, x) / a;
    return 1.0 - bt * tu_betacf(b, a, 1.0 - x) / b;
}

/* Two-sided tail probability P(|T| > t) of Student's t with nu dof. */
static inline double tu_t_two_sided(double t, double nu)
{
    return tu_betai(0.5 * nu, 0.5, nu / (nu + t * t));
}

/* The t such that P(|T| > t) = p for nu dof. */
static inline double tu_t_quantile(double p, double nu)
{
    double lo = 0.0, hi = 1e3;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (tu_t_two_sided(mid, nu) > p) lo = mid; else hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Upper quantile of chi-square with nu dof: P(X > x) = p (bisection on the
 * regularized gamma via the series/continued fraction). */
static inline double tu_gammq(double a, double x)
{
    if (x <= 0) return 1.0;
    double gln = lgamma(a);
    if (x < a + 1.0) {
        double ap = a, sum = 1.0 / a, del = sum;
        for (int n = 0; n < 10000; n++) {
            ap += 1;
            del *= x / ap;
            sum += del;
            if (fabs(del) < fabs(sum) * 1e-16) break;
        }
        return 1.0 - sum * exp(-x + a * log(x) - gln);
    }
    const double tiny = 1e-300;
    double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
    for (int i = 1; i < 10000; i++) {
        double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (fabs(d) < tiny) d = tiny;
        c = b + an / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-16) break;
    }
    return exp(-x + a * log(x) - gln) * h;
}

static inline double tu_chi2_upper_quantile(double p, double nu)
{
    double lo = 0.0, hi = nu + 100.0 * sqrt(nu) + 100.0;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (tu_gammq(0.5 * nu, 0.5 * mid) > p) lo = mid; else hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* ------------------------------------------------ sample statistics */

/* mean and (n-1)-normalized standard deviation of v[0..n) */
static inline void tu_mean_sd(const double *v, int n, double *mean, double *sd)
{
    double m = 0;
    for (int i = 0; i < n; i++) m += v[i];
    m /= n;
    double q = 0;
    for (int i = 0; i < n; i++) q += (v[i] - m) * (v[i] - m);
    if (mean) *mean = m;
    if (sd) *sd = n > 1 ? sqrt(q / (n - 1)) : NAN;
}

/* Pearson correlation coefficient of a and b */
static inline double tu_correlation(const double *a, const double *b, int64_t n)
{
    double ma = 0, mb = 0;
    for (int64_t i = 0; i < n; i++) { ma += a[i]; mb += b[i]; }
    ma /= (double)n;
    mb /= (double)n;
    double sab = 0, saa = 0, sbb = 0;
    for (int64_t i = 0; i < n; i++) {
        double x = a[i] - ma, y = b[i] - mb;
        sab += x * y;
        saa += x * x;
        sbb += y * y;
    }
    return sab / sqrt(saa * sbb);
}

/* Pooled k-space isotropy statistic of nreal measured spectra with nb
 * shells each (p[r * nb + b]: the shell mean of P_hat, p2: of P_hat^2):
 * T = sum_b w_b [mean_r p2_rb / (mean_r p_rb)^2] / sum_b w_b over the
 * shells of weight w_b > 0 (mode counts, 0 leaves a shell out), leaving
 * out realization `skip` (-1: none). Pooling over realizations before the
 * ratio keeps its downward bias, -2/(R n_eff), small; it is 2 for a
 * statistically isotropic Gaussian field. */
static inline double tu_spike_stat(int nreal, int nb, const double *p, const double *p2,
                                   const double *w, int skip)
{
    double t = 0, ws = 0;
    for (int b = 0; b < nb; b++) {
        if (w[b] <= 0) continue;
        double a = 0, c = 0;
        int cnt = 0;
        for (int r = 0; r < nreal; r++) {
            if (r == skip) continue;
            a += p[r * nb + b];
            c += p2[r * nb + b];
            cnt++;
        }
        a /= cnt;
        c /= cnt;
        t += w[b] * c / (a * a);
        ws += w[b];
    }
    return t / ws;
}

/* ------------------------------------------------ tbrf helpers */

/* Value i of an output array of the given precision, as double. */
static inline double tu_value(const void *v, int precision, int64_t i)
{
    return precision == TBRF_FLOAT ? ((const float *)v)[i] : ((const double *)v)[i];
}

/* max |a - b| / max |b| over n values; infinite when a value is not
 * finite (fmax would skip a NaN, and a NaN is what reading unwritten or
 * unsynchronised device memory gives under the CUDA emulator). */
static inline double tu_rel_diff(const void *a, const void *b, int precision, int64_t n)
{
    double dmax = 0, bmax = 0;
    for (int64_t i = 0; i < n; i++) {
        const double x = tu_value(a, precision, i), y = tu_value(b, precision, i);
        if (!isfinite(x) || !isfinite(y))
            return INFINITY;
        dmax = fmax(dmax, fabs(x - y));
        bmax = fmax(bmax, fabs(y));
    }
    return bmax > 0 ? dmax / bmax : dmax;
}

/* Makes a plan or reports why not (returns NULL after a counted failure). */
static inline tbrf_plan *tu_plan(const tbrf_model *m, int dim, const double lo[3],
                                 const double hi[3], double resolution, uint64_t seed,
                                 const tbrf_opts *opts)
{
    tbrf_plan *p = NULL;
    int st = tbrf_make_plan(m, dim, lo, hi, resolution, seed, opts, &p);
    if (!CHECK(st == TBRF_OK, "tbrf_make_plan: %s: %s", tbrf_strerror(st), tbrf_plan_message(p))) {
        tbrf_destroy(p);
        return NULL;
    }
    return p;
}

/* Runs execute and counts a failure (with the plan's message) if it fails. */
static inline int tu_execute(tbrf_plan *p, uint64_t r, void *values)
{
    int st = tbrf_execute(p, r, values);
    CHECK(st == TBRF_OK, "tbrf_execute(r=%llu): %s: %s", (unsigned long long)r, tbrf_strerror(st),
          tbrf_plan_message(p));
    return st;
}

#endif
