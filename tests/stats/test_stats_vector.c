/* test_stats_vector.c — statistics of vector fields, turning bands (points)
 * and periodic NUFFT (points), 2D and 3D, solenoidal and compressive:
 *  - every Cartesian component, and the projection v.u on axis, face- and
 *    body-diagonal directions u (GSTools' incompressible generator fails
 *    exactly this, its issue #258), has variance sigma^2: E = the plan's
 *    variance_resolved;
 *  - the longitudinal f(r) = <v_L(x) v_L(x + r e)>/sigma^2 and transverse
 *    g(r) correlations at r = ell/2, ell, 2 ell against the closed forms
 *    of doc/method.md ("Vector fields"): with A(r) = (d/r^d) int_0^r
 *    s^(d-1) C(s)/sigma^2 ds the ball average of the scalar correlation,
 *    solenoidal f = A, g = (d C/sigma^2 - A)/(d - 1); compressive g = A,
 *    f = d C/sigma^2 - (d - 1) A;
 *  - the solenoidal power fraction of a mixed field (zeta = 0.3) against
 *    zeta^2 (d-1) / (zeta^2 (d-1) + (1-zeta)^2): on the FFT lattice
 *    (sum |P_perp v_k|^2 / sum |v_k|^2) and for the line amplitudes.
 *  - periodic scalar fields: the correlation of pairs 0.02 apart (0.64
 *    cell of a 32^3 box) straddling each face of the box equals that of
 *    the same pairs inside (their per-realization difference has mean 0),
 *    and both equal C(0.02)/variance_resolved.
 * Estimator and tolerance: each statistic is a mean over the pairs of one
 * realization; R independent realizations give its mean m and sample
 * standard deviation s, and |m - expected| <= 4.5 s / sqrt(R) + b, where
 * b = |1 - variance_resolved/sigma^2| is the field's known variance
 * deficit (for the variances, whose expectation is variance_resolved
 * itself, b = 0). 4.5 standard errors for a t statistic of R - 1 = 23
 * degrees of freedom is a two-sided probability below 2e-4 per check. */
#include "methods/turning_bands/vector.h"
#include "support/testutil.h"

#include <complex.h>
#include <fftw3.h>

#define R 24
#define NPAIR 1500
#define ELL 0.06

static double corr_ell(double r, double ell) { return exp(-r * r / (ell * ell)); }
static double corr(double r) { return corr_ell(r, ELL); }

/* A(r) by Simpson's rule */
static double ball_average(int dim, double r)
{
    const int n = 2000;
    double sum = 0;
    for (int i = 0; i <= n; i++) {
        const double s = r * i / n, wgt = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
        sum += wgt * pow(s, dim - 1) * corr(s);
    }
    return dim / pow(r, dim) * sum * (r / n) / 3.0;
}

typedef struct { double sum, sum2; } acc;
static void add(acc *a, double x) { a->sum += x; a->sum2 += x * x; }
static void check_acc(const acc *a, double want, double bias, const char *what)
{
    const double m = a->sum / R, s = sqrt(fmax(a->sum2 / R - m * m, 0) * R / (R - 1));
    const double tol = 4.5 * s / sqrt((double)R) + bias;
    CHECK(fabs(m - want) <= tol, "%s: %g, expected %g +- %g", what, m, want, tol);
}

static void run(int dim, int kind, int periodic)
{
    tbrf_model *m = NULL;
    tbrf_model_gaussian(ELL, &m);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.vector = kind;
    o.accuracy = 1e-8;
    tbrf_plan *p = NULL;
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    const int64_t n[3] = {48, 48, dim == 3 ? 48 : 1};
    int st = periodic ? tbrf_make_periodic_plan(m, dim, lo, hi, n, 21, &o, &p)
                      : tbrf_make_plan(m, dim, lo, hi, ELL / 4, 21, &o, &p);
    CHECK(st == TBRF_OK, "make: %s", tbrf_plan_message(p));
    tbrf_plan_info info;
    tbrf_plan_get_info(p, &info);
    const double vres = info.variance_resolved / info.variance, bias = fabs(1 - vres);
    const double rs[3] = {0.5 * ELL, ELL, 2 * ELL};
    double *xyz = tu_malloc(sizeof(double) * 3 * 2 * NPAIR * 3), *v = tu_malloc(sizeof(double) * 3 * 2 * NPAIR * 3);
    double e[NPAIR][3], t[NPAIR][3];
    tu_rng rng = {99 + (uint64_t)(10 * dim + kind)};
    /* pairs: x, x + r e for the three r */
    for (int i = 0; i < NPAIR; i++) {
        double nn = 0, x[3] = {0, 0, 0};
        for (int c = 0; c < dim; c++) {
            e[i][c] = tu_normal(&rng);
            nn += e[i][c] * e[i][c];
            x[c] = 0.2 + 0.6 * tu_uniform(&rng);
        }
        for (int c = 0; c < dim; c++)
            e[i][c] /= sqrt(nn);
        if (dim == 2) {
            t[i][0] = -e[i][1];
            t[i][1] = e[i][0];
        } else {
            double a[3] = {tu_normal(&rng), tu_normal(&rng), tu_normal(&rng)};
            t[i][0] = e[i][1] * a[2] - e[i][2] * a[1];
            t[i][1] = e[i][2] * a[0] - e[i][0] * a[2];
            t[i][2] = e[i][0] * a[1] - e[i][1] * a[0];
            const double tn = sqrt(t[i][0] * t[i][0] + t[i][1] * t[i][1] + t[i][2] * t[i][2]);
            for (int c = 0; c < 3; c++)
                t[i][c] /= tn;
        }
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < dim; c++) {
                xyz[dim * (6 * i + 2 * k) + c] = x[c];
                xyz[dim * (6 * i + 2 * k + 1) + c] = x[c] + rs[k] * e[i][c];
            }
    }
    CHECK(tbrf_set_points(p, 6 * NPAIR, xyz) == TBRF_OK, "set_points: %s", tbrf_plan_message(p));
    /* directions for the isotropy check */
    const double q3 = 1 / sqrt(3.0), q2 = 1 / sqrt(2.0);
    const double d3[7][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {q2, q2, 0}, {q2, -q2, 0}, {q3, q3, q3}, {q2, 0, -q2}};
    const double d2[7][3] = {{1, 0, 0}, {0, 1, 0}, {q2, q2, 0}, {q2, -q2, 0}, {0.5 * sqrt(3.0), 0.5, 0}};
    const double (*dirs)[3] = dim == 3 ? d3 : d2;
    const int ndir = dim == 3 ? 7 : 5;
    acc var[7] = {{0, 0}}, fl[3] = {{0, 0}}, gt[3] = {{0, 0}};
    for (uint64_t r = 0; r < R; r++) {
        CHECK(tbrf_execute(p, r, v) == TBRF_OK, "execute: %s", tbrf_plan_message(p));
        double sv[7] = {0}, sf[3] = {0}, sg[3] = {0};
        for (int i = 0; i < NPAIR; i++)
            for (int k = 0; k < 3; k++) {
                const double *a = v + dim * (6 * i + 2 * k), *b = a + dim;
                double al = 0, bl = 0, at = 0, bt = 0;
                for (int c = 0; c < dim; c++) {
                    al += a[c] * e[i][c];
                    bl += b[c] * e[i][c];
                    at += a[c] * t[i][c];
                    bt += b[c] * t[i][c];
                }
                sf[k] += al * bl;
                sg[k] += at * bt;
                if (k == 0)
                    for (int d = 0; d < ndir; d++) {
                        double pu = 0;
                        for (int c = 0; c < dim; c++)
                            pu += a[c] * dirs[d][c];
                        sv[d] += pu * pu;
                    }
            }
        for (int d = 0; d < ndir; d++)
            add(&var[d], sv[d] / NPAIR / info.variance);
        for (int k = 0; k < 3; k++) {
            add(&fl[k], sf[k] / NPAIR / info.variance);
            add(&gt[k], sg[k] / NPAIR / info.variance);
        }
    }
    char what[160];
    const char *name = kind == TBRF_VECTOR_SOLENOIDAL ? "solenoidal" : "compressive";
    const char *meth = periodic ? "NUFFT" : "TB";
    for (int d = 0; d < ndir; d++) {
        snprintf(what, sizeof what, "%s %dD %s variance along direction %d", meth, dim, name, d);
        check_acc(&var[d], vres, 0, what);
    }
    for (int k = 0; k < 3; k++) {
        const double A = ball_average(dim, rs[k]), C = corr(rs[k]);
        double f, g;
        if (kind == TBRF_VECTOR_SOLENOIDAL) {
            f = A;
            g = (dim * C - A) / (dim - 1);
        } else {
            g = A;
            f = dim * C - (dim - 1) * A;
        }
        printf("%s %dD %s r=%.2f ell: f %.4f (want %.4f), g %.4f (want %.4f)\n", meth, dim, name,
               rs[k] / ELL, fl[k].sum / R, f, gt[k].sum / R, g);
        snprintf(what, sizeof what, "%s %dD %s longitudinal f(%.2f ell)", meth, dim, name, rs[k] / ELL);
        check_acc(&fl[k], f, bias, what);
        snprintf(what, sizeof what, "%s %dD %s transverse g(%.2f ell)", meth, dim, name, rs[k] / ELL);
        check_acc(&gt[k], g, bias, what);
    }
    free(xyz);
    free(v);
    tbrf_destroy(p);
    tbrf_model_destroy(m);
}

/* Solenoidal power fraction of a mixed field on the FFT lattice and of
 * the line amplitudes. */
static void power_fraction(int dim)
{
    const double zeta = 0.3;
    const double want = zeta * zeta * (dim - 1) / (zeta * zeta * (dim - 1) + (1 - zeta) * (1 - zeta));
    tbrf_model *m = NULL;
    tbrf_model_gaussian(0.1, &m);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.vector = TBRF_VECTOR_MIXED;
    o.zeta = zeta;
    const int64_t n = 16, nn[3] = {n, n, dim == 3 ? n : 1}, N = nn[0] * nn[1] * nn[2];
    const double orig[3] = {0, 0, 0}, L[3] = {1, 1, 1}, h[3] = {1.0 / n, 1.0 / n, 1.0 / n};
    tbrf_plan *p = NULL;
    CHECK(tbrf_make_periodic_plan(m, dim, orig, L, nn, 2, &o, &p) == TBRF_OK, "make: %s", tbrf_plan_message(p));
    CHECK(tbrf_set_grid(p, orig, h, nn) == TBRF_OK, "grid");
    double *v = tu_malloc(sizeof(double) * (size_t)(dim * N));
    fftw_complex *in = fftw_malloc(sizeof(fftw_complex) * (size_t)N), *F[3];
    for (int c = 0; c < dim; c++)
        F[c] = fftw_malloc(sizeof(fftw_complex) * (size_t)N);
    int dims[3] = {(int)nn[2], (int)n, (int)n};
    acc fft = {0, 0}, lines = {0, 0};
    enum { L_LINES = 1024 };
    double axis[3 * L_LINES], amp[3 * L_LINES];
    tu_rng rng = {5};
    for (int i = 0; i < 3 * L_LINES; i++)
        axis[i] = i % 3 < dim ? tu_normal(&rng) : 0;
    for (uint64_t r = 0; r < R; r++) {
        CHECK(tbrf_execute(p, r, v) == TBRF_OK, "execute");
        for (int c = 0; c < dim; c++) {
            for (int64_t i = 0; i < N; i++)
                in[i] = v[dim * i + c];
            fftw_plan pl = fftw_plan_dft(dim, dim == 3 ? dims : dims + 1, in, F[c], FFTW_FORWARD, FFTW_ESTIMATE);
            fftw_execute(pl);
            fftw_destroy_plan(pl);
        }
        double sol = 0, tot = 0;
        for (int64_t i = 0; i < N; i++) {
            const int64_t id[3] = {i % n, (i / n) % n, i / (n * n)};
            double k[3] = {0, 0, 0}, k2 = 0;
            for (int d = 0; d < dim; d++) {
                k[d] = (double)(id[d] <= n / 2 ? id[d] : id[d] - n);
                k2 += k[d] * k[d];
            }
            if (k2 == 0)
                continue;
            double complex dot = 0;
            double v2 = 0;
            for (int d = 0; d < dim; d++) {
                dot += k[d] * F[d][i];
                v2 += creal(F[d][i] * conj(F[d][i]));
            }
            tot += v2;
            sol += v2 - creal(dot * conj(dot)) / k2;
        }
        add(&fft, sol / tot);
        tbrfi_vector_amplitudes(dim, L_LINES, axis, 2, r, zeta, amp);
        double ls = 0, lt = 0;
        for (int l = 0; l < L_LINES; l++) {
            double dd = 0, ed = 0, e2 = 0;
            for (int c = 0; c < dim; c++) {
                dd += axis[3 * l + c] * axis[3 * l + c];
                ed += amp[3 * l + c] * axis[3 * l + c];
                e2 += amp[3 * l + c] * amp[3 * l + c];
            }
            lt += e2;
            ls += e2 - ed * ed / dd;
        }
        add(&lines, ls / lt);
    }
    printf("%dD zeta %.1f: solenoidal fraction FFT %.4f, lines %.4f, formula %.4f\n", dim, zeta,
           fft.sum / R, lines.sum / R, want);
    char what[80];
    snprintf(what, sizeof what, "%dD FFT solenoidal fraction", dim);
    check_acc(&fft, want, 0, what);
    snprintf(what, sizeof what, "%dD line amplitudes' solenoidal fraction", dim);
    check_acc(&lines, want, 0, what);
    for (int c = 0; c < dim; c++)
        fftw_free(F[c]);
    fftw_free(in);
    free(v);
    tbrf_destroy(p);
    tbrf_model_destroy(m);
}

static void face_correlation(void)
{
    tbrf_model *m = NULL;
    tbrf_model_gaussian(0.05, &m);
    const double o[3] = {0, 0, 0}, L[3] = {1, 1, 1}, delta = 0.02;
    const int64_t n[3] = {32, 32, 32};
    tbrf_plan *p = NULL;
    tbrf_opts opts;
    tbrf_default_opts(&opts);
    opts.accuracy = 1e-8;
    CHECK(tbrf_make_periodic_plan(m, 3, o, L, n, 33, &opts, &p) == TBRF_OK, "make: %s", tbrf_plan_message(p));
    tbrf_plan_info info;
    tbrf_plan_get_info(p, &info);
    enum { NP = 400 };
    double *xyz = tu_malloc(sizeof(double) * 3 * 4 * NP * 3), *v = tu_malloc(sizeof(double) * 4 * NP * 3);
    tu_rng rng = {71};
    /* per axis: face pairs (1 - delta/2, 1 + delta/2), inside pairs
     * (0.5 -+ delta/2), the other coordinates random */
    for (int d = 0; d < 3; d++)
        for (int i = 0; i < NP; i++) {
            double x[3] = {tu_uniform(&rng), tu_uniform(&rng), tu_uniform(&rng)};
            for (int k = 0; k < 4; k++) {
                double *q = xyz + 3 * ((size_t)(d * NP + i) * 4 + (size_t)k);
                for (int c = 0; c < 3; c++)
                    q[c] = x[c];
                q[d] = (k < 2 ? 1.0 : 0.5) + (k % 2 ? 0.5 : -0.5) * delta;
            }
        }
    CHECK(tbrf_set_points(p, 4 * NP * 3, xyz) == TBRF_OK, "points");
    acc diff[3] = {{0, 0}}, face[3] = {{0, 0}};
    for (uint64_t r = 0; r < R; r++) {
        CHECK(tbrf_execute(p, r, v) == TBRF_OK, "execute");
        for (int d = 0; d < 3; d++) {
            double s[2][3] = {{0}};
            for (int i = 0; i < NP; i++)
                for (int k = 0; k < 2; k++) {
                    const double a = v[(size_t)(d * NP + i) * 4 + 2 * k], b = v[(size_t)(d * NP + i) * 4 + 2 * k + 1];
                    s[k][0] += a * b;
                    s[k][1] += a * a;
                    s[k][2] += b * b;
                }
            const double cf = s[0][0] / sqrt(s[0][1] * s[0][2]), ci = s[1][0] / sqrt(s[1][1] * s[1][2]);
            add(&diff[d], cf - ci);
            add(&face[d], cf);
        }
    }
    const double want = corr_ell(delta, 0.05) / (info.variance_resolved / info.variance);
    for (int d = 0; d < 3; d++) {
        char what[80];
        printf("periodic face %d: correlation across %.4f, across - inside %.4f (want %.4f, 0)\n", d,
               face[d].sum / R, diff[d].sum / R, want);
        snprintf(what, sizeof what, "axis %d: face minus inside correlation", d);
        check_acc(&diff[d], 0, 0, what);
        snprintf(what, sizeof what, "axis %d: correlation across the face", d);
        check_acc(&face[d], want, fabs(1 - info.variance_resolved / info.variance), what);
    }
    free(xyz);
    free(v);
    tbrf_destroy(p);
    tbrf_model_destroy(m);
}

int main(void)
{
    face_correlation();
    for (int dim = 2; dim <= 3; dim++) {
        for (int periodic = 0; periodic <= 1; periodic++) {
            run(dim, TBRF_VECTOR_SOLENOIDAL, periodic);
            run(dim, TBRF_VECTOR_COMPRESSIVE, periodic);
        }
        power_fraction(dim);
    }
    return check_report("test_stats_vector");
}
