/* test_periodic.c — periodic plans (tbrf_make_periodic_plan) and the NUFFT:
 *  - the exact direct sum: the box's modes b_m are recovered from the FFT
 *    method's values on the box lattice (a forward complex DFT of those
 *    cells, divided by their number, is b_m exactly up to rounding: the
 *    Nyquist modes are zero), and sum_m b_m e^{ik.(x-o)} at random points,
 *    inside and outside the box, is compared with the NUFFT for requested
 *    accuracies 1e-3 ... 1e-12, in 3D (anisotropic box, odd and even n) and
 *    2D: max |error| <= 2 eps times the exact sum's max |value| over the
 *    points (the stated accuracy, relative to the exact sum; float output
 *    at its default 1e-6 too) and <= 5 eps times its rms. The
 *    exponential-of-semicircle kernel with w = ceil(log10(10/eps)) gives
 *    relative errors about eps (Barnett et al. 2019, fig. 3.1), and a
 *    maximum over 300 points of an error a few times its rms; 5 is that
 *    margin. The error must also fall with eps (not a fixed floor);
 *  - the same field whichever way it is evaluated: the box lattice runs the
 *    FFT method (tbrf_plan_method FFT) and equals the plain FFT method's
 *    plan bitwise; the same cells as points (NUFFT) and a sub-grid slab
 *    with an offset origin (NUFFT) equal it within the accuracy;
 *  - periodicity: the value at x + L e_d equals that at x (to rounding);
 *  - float output (default accuracy 1e-6) within 5e-6 rms of the double;
 *  - determinism: points with threads 1, 2, 3 and streamed in chunks of 7
 *    bitwise equal; a grid streamed equals execute; alternating
 *    realizations (cached) equal fresh plans bitwise;
 *  - bad input: NaN positions, bad accuracy, lengths and n refused; an
 *    oversampled grid beyond TBRF_MEMORY_BUDGET refused with TBRF_ERR_SIZE. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <complex.h>
#include <fftw3.h>

#include "methods/nufft/nufft.h"
#include "support/testutil.h"

static tbrf_plan *periodic(const tbrf_model *m, int dim, const double o[3], const double L[3],
                           const int64_t n[3], double eps, int threads)
{
    tbrf_opts opts;
    tbrf_default_opts(&opts);
    opts.accuracy = eps;
    opts.threads = threads;
    tbrf_plan *p = NULL;
    int st = tbrf_make_periodic_plan(m, dim, o, L, n, 7, &opts, &p);
    CHECK(st == TBRF_OK, "make_periodic_plan: %s", tbrf_plan_message(p));
    return p;
}

/* The field on the box lattice by the periodic plan (FFT path). */
static double *lattice_values(tbrf_plan *p, int dim, const double o[3], const double L[3],
                              const int64_t n[3], uint64_t r)
{
    double h[3] = {L[0] / (double)n[0], L[1] / (double)n[1], dim == 3 ? L[2] / (double)n[2] : 1.0};
    int64_t nn[3] = {n[0], n[1], dim == 3 ? n[2] : 1};
    CHECK(tbrf_set_grid(p, o, h, nn) == TBRF_OK, "set_grid: %s", tbrf_plan_message(p));
    CHECK(tbrf_plan_method(p) == TBRF_METHOD_FFT, "the box lattice runs the FFT method");
    double *v = tu_malloc(sizeof(double) * (size_t)(nn[0] * nn[1] * nn[2]));
    CHECK(tbrf_execute(p, r, v) == TBRF_OK, "execute: %s", tbrf_plan_message(p));
    return v;
}

static int64_t m_of(int64_t i, int64_t n) { return i <= n / 2 ? i : i - n; }

/* Direct sum at x of the modes of lattice values f. */
static double direct(const fftw_complex *B, int dim, const double o[3], const double L[3],
                     const int64_t n[3], const double *x)
{
    const int64_t nz = dim == 3 ? n[2] : 1;
    double complex sum = 0;
    for (int64_t iz = 0; iz < nz; iz++)
        for (int64_t iy = 0; iy < n[1]; iy++)
            for (int64_t ix = 0; ix < n[0]; ix++) {
                const double a = 2 * M_PI * ((double)m_of(ix, n[0]) * (x[0] - o[0]) / L[0] +
                                             (double)m_of(iy, n[1]) * (x[1] - o[1]) / L[1] +
                                             (dim == 3 ? (double)m_of(iz, nz) * (x[2] - o[2]) / L[2] : 0));
                const fftw_complex *b = B + (iz * n[1] + iy) * n[0] + ix;
                sum += *b * cexp(I * a); /* fftw_complex is double complex after complex.h */
            }
    return creal(sum);
}

static void check_direct(const tbrf_model *m, int dim, const double o[3], const double L[3],
                         const int64_t n[3])
{
    tbrf_plan *p = periodic(m, dim, o, L, n, 0, 1);
    if (!p)
        return;
    const int64_t nz = dim == 3 ? n[2] : 1, N = n[0] * n[1] * nz;
    double *f = lattice_values(p, dim, o, L, n, 3);
    tbrf_destroy(p);
    fftw_complex *in = fftw_malloc(sizeof(fftw_complex) * (size_t)N), *B = fftw_malloc(sizeof(fftw_complex) * (size_t)N);
    for (int64_t i = 0; i < N; i++)
        in[i] = f[i];
    int dims[3] = {(int)nz, (int)n[1], (int)n[0]};
    fftw_plan pl = fftw_plan_dft(dim, dim == 3 ? dims : dims + 1, in, B, FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(pl);
    for (int64_t i = 0; i < N; i++)
        B[i] /= (double)N;
    enum { NP = 300 };
    tu_rng rng = {11};
    double *xyz = tu_malloc(sizeof(double) * NP * (size_t)dim), *ref = tu_malloc(sizeof(double) * NP);
    double rms = 0;
    for (int i = 0; i < NP; i++) {
        for (int d = 0; d < dim; d++) /* a third of them outside the box: wrapped */
            xyz[dim * i + d] = o[d] + L[d] * (1.5 * tu_uniform(&rng) - 0.25);
        ref[i] = direct(B, dim, o, L, n, xyz + dim * i);
        rms += ref[i] * ref[i];
    }
    rms = sqrt(rms / NP);
    double peak = 0; /* the exact sum's largest magnitude over the points */
    for (int i = 0; i < NP; i++)
        peak = fmax(peak, fabs(ref[i]));
    double v[NP], last = HUGE_VAL;
    const double eps[4] = {1e-3, 1e-6, 1e-9, 1e-12};
    for (int e = 0; e < 4; e++) {
        p = periodic(m, dim, o, L, n, eps[e], 2);
        if (!p)
            break;
        CHECK(tbrf_set_points(p, NP, xyz) == TBRF_OK, "set_points: %s", tbrf_plan_message(p));
        CHECK(tbrf_plan_method(p) == TBRF_METHOD_NUFFT, "points run the NUFFT");
        CHECK(tbrf_execute(p, 3, v) == TBRF_OK, "execute: %s", tbrf_plan_message(p));
        double err = 0;
        for (int i = 0; i < NP; i++)
            err = fmax(err, fabs(v[i] - ref[i]));
        printf("%dD n=%lldx%lldx%lld eps %.0e: max error / rms %.3g, / max %.3g\n", dim, (long long)n[0],
               (long long)n[1], (long long)nz, eps[e], err / rms, err / peak);
        CHECK(err <= 5 * eps[e] * rms, "%dD eps %g: max error %g > 5 eps rms (rms %g)", dim, eps[e], err, rms);
        CHECK(err <= 2 * eps[e] * peak, "%dD eps %g: max error %g > 2 eps max |exact| (%g)", dim, eps[e], err,
              peak);
        CHECK(e == 0 || err < last, "error does not fall with eps: %g then %g", last, err);
        last = err;
        tbrf_destroy(p);
        if (eps[e] == 1e-6) { /* float output, its default accuracy: within 2 eps too */
            tbrf_opts fo;
            tbrf_default_opts(&fo);
            fo.precision = TBRF_FLOAT;
            fo.threads = 2;
            float vf[NP];
            CHECK(tbrf_make_periodic_plan(m, dim, o, L, n, 7, &fo, &p) == TBRF_OK, "float plan: %s",
                  tbrf_plan_message(p));
            CHECK(tbrf_set_points(p, NP, xyz) == TBRF_OK && tbrf_execute(p, 3, vf) == TBRF_OK, "float: %s",
                  tbrf_plan_message(p));
            double ferr = 0;
            for (int i = 0; i < NP; i++)
                ferr = fmax(ferr, fabs((double)vf[i] - ref[i]));
            printf("%dD float eps 1e-06: max error / rms %.3g, / max %.3g\n", dim, ferr / rms, ferr / peak);
            CHECK(ferr <= 5e-6 * rms && ferr <= 2e-6 * peak, "%dD float: max error %g (rms %g, max %g)", dim,
                  ferr, rms, peak);
            tbrf_destroy(p);
        }
    }
    fftw_destroy_plan(pl);
    fftw_free(in);
    fftw_free(B);
    free(f);
    free(xyz);
    free(ref);
}

/* Lattice cells as points, a slab as a sub-grid, periodicity, determinism. */
static void check_consistency(const tbrf_model *m)
{
    const double o[3] = {-0.3, 0.2, 1.0}, L[3] = {1.0, 1.0, 1.0};
    const int64_t n[3] = {24, 24, 24};
    const double h = 1.0 / 24;
    tbrf_plan *p = periodic(m, 3, o, L, n, 1e-10, 2);
    if (!p)
        return;
    double *f = lattice_values(p, 3, o, L, n, 5);
    const int64_t N = 24 * 24 * 24;
    /* the plain FFT method on the same grid: bitwise */
    tbrf_opts fo;
    tbrf_default_opts(&fo);
    fo.method = TBRF_METHOD_FFT;
    fo.periodic = 1;
    tbrf_plan *q = NULL;
    const double hi[3] = {o[0] + 1, o[1] + 1, o[2] + 1}, sp[3] = {h, h, h};
    CHECK(tbrf_make_plan(m, 3, o, hi, h, 7, &fo, &q) == TBRF_OK, "make_plan FFT: %s", tbrf_plan_message(q));
    CHECK(tbrf_set_grid(q, o, sp, n) == TBRF_OK, "set_grid: %s", tbrf_plan_message(q));
    double *g = tu_malloc(sizeof(double) * N);
    CHECK(tbrf_execute(q, 5, g) == TBRF_OK, "execute: %s", tbrf_plan_message(q));
    CHECK(memcmp(f, g, sizeof(double) * N) == 0, "the box lattice differs from the FFT method's plan");
    tbrf_destroy(q);
    double rms = 0;
    for (int64_t i = 0; i < N; i++)
        rms += f[i] * f[i];
    rms = sqrt(rms / N);
    /* cells as points */
    double *xyz = tu_malloc(sizeof(double) * 3 * N), *v = tu_malloc(sizeof(double) * N);
    for (int64_t i = 0; i < N; i++) {
        xyz[3 * i] = o[0] + h * (double)(i % 24);
        xyz[3 * i + 1] = o[1] + h * (double)((i / 24) % 24);
        xyz[3 * i + 2] = o[2] + h * (double)(i / 576);
    }
    CHECK(tbrf_set_points(p, N, xyz) == TBRF_OK, "set_points: %s", tbrf_plan_message(p));
    CHECK(tbrf_execute(p, 5, v) == TBRF_OK, "execute: %s", tbrf_plan_message(p));
    double err = 0;
    for (int64_t i = 0; i < N; i++)
        err = fmax(err, fabs(v[i] - f[i]));
    CHECK(err <= 5e-10 * rms, "cells as points: max error %g (rms %g)", err, rms);
    /* a slab (z cells 8..19, x cells 3..22) as a sub-grid: NUFFT */
    const double so[3] = {o[0] + 3 * h, o[1], o[2] + 8 * h};
    const int64_t sn[3] = {20, 24, 12};
    CHECK(tbrf_set_grid(p, so, sp, sn) == TBRF_OK, "set_grid slab: %s", tbrf_plan_message(p));
    CHECK(tbrf_plan_method(p) == TBRF_METHOD_NUFFT, "a sub-grid runs the NUFFT");
    double *s = tu_malloc(sizeof(double) * 20 * 24 * 12);
    CHECK(tbrf_execute(p, 5, s) == TBRF_OK, "execute slab: %s", tbrf_plan_message(p));
    err = 0;
    for (int64_t k = 0; k < 12; k++)
        for (int64_t j = 0; j < 24; j++)
            for (int64_t i = 0; i < 20; i++)
                err = fmax(err, fabs(s[(k * 24 + j) * 20 + i] - f[((k + 8) * 24 + j) * 24 + i + 3]));
    CHECK(err <= 5e-10 * rms, "sub-grid: max error %g (rms %g)", err, rms);
    /* grid stream equals execute */
    /* periodicity: x and x + L e_d */
    enum { NP = 200 };
    tu_rng rng = {5};
    double a[3 * NP], b[3 * NP], va[NP], vb[NP];
    for (int d = 0; d < 3; d++) {
        for (int i = 0; i < NP; i++)
            for (int c = 0; c < 3; c++) {
                a[3 * i + c] = o[c] + tu_uniform(&rng);
                b[3 * i + c] = a[3 * i + c] + (c == d ? L[c] : 0.0);
            }
        CHECK(tbrf_set_points(p, NP, a) == TBRF_OK && tbrf_execute(p, 5, va) == TBRF_OK, "a");
        CHECK(tbrf_set_points(p, NP, b) == TBRF_OK && tbrf_execute(p, 5, vb) == TBRF_OK, "b");
        err = 0;
        for (int i = 0; i < NP; i++)
            err = fmax(err, fabs(va[i] - vb[i]));
        CHECK(err <= 1e-12 * rms, "axis %d: x and x + L differ by %g", d, err);
    }
    /* threads and chunks: bitwise */
    double ref[NP], t[NP];
    tbrf_plan *p1 = periodic(m, 3, o, L, n, 1e-10, 1);
    CHECK(tbrf_set_points(p1, NP, a) == TBRF_OK && tbrf_execute(p1, 6, ref) == TBRF_OK, "threads 1");
    for (int th = 2; th <= 3; th++) {
        tbrf_plan *pt = periodic(m, 3, o, L, n, 1e-10, th);
        CHECK(tbrf_set_points(pt, NP, a) == TBRF_OK && tbrf_execute(pt, 6, t) == TBRF_OK, "threads");
        CHECK(memcmp(ref, t, sizeof ref) == 0, "threads %d differ from 1", th);
        tbrf_destroy(pt);
    }
    /* float output: the default accuracy 1e-6 */
    {
        tbrf_opts fo2;
        tbrf_default_opts(&fo2);
        fo2.precision = TBRF_FLOAT;
        tbrf_plan *pf = NULL;
        float vf[NP];
        CHECK(tbrf_make_periodic_plan(m, 3, o, L, n, 7, &fo2, &pf) == TBRF_OK, "float plan");
        CHECK(tbrf_set_points(pf, NP, a) == TBRF_OK && tbrf_execute(pf, 6, vf) == TBRF_OK, "float");
        double ferr = 0;
        for (int i = 0; i < NP; i++)
            ferr = fmax(ferr, fabs((double)vf[i] - ref[i]));
        CHECK(ferr <= 5e-6 * rms, "float output: max error %g > 5e-6 rms", ferr);
        tbrf_destroy(pf);
    }
    /* alternating realizations through the cache equal fresh plans */
    CHECK(tbrf_execute(p1, 5, t) == TBRF_OK && memcmp(va, t, sizeof t) == 0, "realization 5 after 6");
    CHECK(tbrf_execute(p1, 6, t) == TBRF_OK && memcmp(ref, t, sizeof t) == 0, "realization 6 after 5");
    CHECK(tbrf_execute(p1, 9, t) == TBRF_OK, "realization 9");
    CHECK(tbrf_execute(p1, 6, t) == TBRF_OK && memcmp(ref, t, sizeof t) == 0, "realization 6 after 9");
    tbrf_destroy(p1);
    free(f);
    free(g);
    free(xyz);
    free(v);
    free(s);
    tbrf_destroy(p);
}

typedef struct { const double *xyz; int64_t n; double *out; } stream_ctx;
static int pull(void *u, int64_t first, int64_t max, double *xyz, int64_t *count)
{
    stream_ctx *c = u;
    int64_t k = c->n - first < max ? c->n - first : max;
    memcpy(xyz, c->xyz + 3 * first, sizeof(double) * 3 * (size_t)k);
    *count = k;
    return 0;
}
static int push(void *u, int64_t first, int64_t count, const void *values)
{
    stream_ctx *c = u;
    memcpy(c->out + first, values, sizeof(double) * (size_t)count);
    return 0;
}

static void check_stream(const tbrf_model *m)
{
    const double o[3] = {0, 0, 0}, L[3] = {2, 1, 1};
    const int64_t n[3] = {20, 10, 12};
    enum { NP = 5000 }; /* >= 4096: execute visits them sorted by block, the chunks of 7 do not */
    tu_rng rng = {3};
    double xyz[3 * NP], v[NP], w[NP];
    for (int i = 0; i < 3 * NP; i++)
        xyz[i] = 3.0 * tu_uniform(&rng) - 1.0;
    tbrf_opts opts;
    tbrf_default_opts(&opts);
    opts.chunk = 7;
    tbrf_plan *p = NULL;
    CHECK(tbrf_make_periodic_plan(m, 3, o, L, n, 9, &opts, &p) == TBRF_OK, "make: %s", tbrf_plan_message(p));
    CHECK(tbrf_set_points(p, NP, xyz) == TBRF_OK && tbrf_execute(p, 1, v) == TBRF_OK, "execute");
    stream_ctx c = {xyz, NP, w};
    CHECK(tbrf_execute_stream(p, 1, pull, push, &c) == TBRF_OK, "stream: %s", tbrf_plan_message(p));
    CHECK(memcmp(v, w, sizeof v) == 0, "stream in chunks of 7 differs from execute");
    /* a grid of another spacing, streamed in rows, equals execute */
    const double go[3] = {0.05, -0.5, 0.3}, gs[3] = {0.07, 0.09, 0.11};
    const int64_t gn[3] = {9, 8, 7};
    double gv[504], gw[504];
    CHECK(tbrf_set_grid(p, go, gs, gn) == TBRF_OK && tbrf_execute(p, 1, gv) == TBRF_OK, "grid");
    c.out = gw;
    CHECK(tbrf_execute_grid_stream(p, 1, push, &c) == TBRF_OK, "grid stream: %s", tbrf_plan_message(p));
    CHECK(memcmp(gv, gw, sizeof gv) == 0, "grid stream differs from execute");
    /* bad input */
    xyz[4] = NAN;
    CHECK(tbrf_set_points(p, NP, xyz) == TBRF_ERR_INVALID, "a NaN coordinate is refused");
    tbrf_destroy(p);
    opts.accuracy = 1e-20;
    CHECK(tbrf_make_periodic_plan(m, 3, o, L, n, 9, &opts, &p) == TBRF_ERR_INVALID, "accuracy 1e-20");
    CHECK(strstr(tbrf_plan_message(p), "accuracy") != NULL, "message names accuracy: %s", tbrf_plan_message(p));
    tbrf_destroy(p);
    opts.accuracy = NAN;
    CHECK(tbrf_make_periodic_plan(m, 3, o, L, n, 9, &opts, &p) == TBRF_ERR_INVALID, "accuracy NaN");
    tbrf_destroy(p);
    opts.accuracy = 0;
    const double bad[3] = {1, -1, 1};
    CHECK(tbrf_make_periodic_plan(m, 3, o, bad, n, 9, &opts, &p) == TBRF_ERR_INVALID, "negative length");
    tbrf_destroy(p);
    const int64_t badn[3] = {4, 0, 4};
    CHECK(tbrf_make_periodic_plan(m, 3, o, L, badn, 9, &opts, &p) == TBRF_ERR_SIZE, "n = 0");
    tbrf_destroy(p);
    setenv("TBRF_MEMORY_BUDGET", "1M", 1);
    const int64_t big[3] = {64, 64, 64};
    CHECK(tbrf_make_periodic_plan(m, 3, o, L, big, 9, &opts, &p) == TBRF_ERR_SIZE, "budget");
    CHECK(strstr(tbrf_plan_message(p), "TBRF_MEMORY_BUDGET") != NULL, "message: %s", tbrf_plan_message(p));
    tbrf_destroy(p);
    unsetenv("TBRF_MEMORY_BUDGET");
}

/* The interpolation's CPU versions (portable, AVX2, AVX-512: TBRF_CPU_ISA
 * lowers the one picked) give the same bits, for every kernel width
 * w = 2 … 16 (accuracy 10^(1-w)), scalar and vector, 3D and 2D, at points
 * whose kernel crosses the periodic faces in x (both sides) and at random
 * points: the versions perform the same IEEE operations lane by lane, so
 * any difference is a bug (a mask, a wrapped segment, a summation order). */
static void check_isa(const tbrf_model *m)
{
    enum { NP = 64 };
    const char *isas[3] = {"avx512", "avx2", "portable"};
    tu_rng rng = {11};
    double xyz[3 * NP];
    const double o[3] = {0.1, -0.2, 0.3}, L[3] = {1.0, 0.9, 1.1};
    for (int i = 0; i < NP; i++)
        for (int c = 0; c < 3; c++)
            xyz[3 * i + c] = o[c] + L[c] * tu_uniform(&rng);
    for (int i = 0; i < NP / 4; i++) /* within a kernel half-width of x = o and x = o + L */
        xyz[3 * i] = o[0] + (i % 2 ? L[0] : 0.0) + 0.04 * (tu_uniform(&rng) - 0.5);
    for (int dim = 2; dim <= 3; dim++)
        for (int vec = 0; vec <= 1; vec++)
            for (int w = 2; w <= 16; w++) {
                const int64_t n[3] = {12, 10, dim == 3 ? 8 : 1};
                tbrf_opts opts;
                tbrf_default_opts(&opts);
                opts.accuracy = pow(10.0, 1.0 - w);
                opts.vector = vec ? TBRF_VECTOR_SOLENOIDAL : TBRF_SCALAR;
                double pts[3 * NP], v[3][3 * NP];
                for (int i = 0; i < NP; i++)
                    for (int c = 0; c < dim; c++)
                        pts[dim * i + c] = xyz[3 * i + c];
                for (int k = 0; k < 3; k++) {
                    setenv("TBRF_CPU_ISA", isas[k], 1); /* lowers the version, never raises it */
                    tbrf_plan *p = NULL;
                    CHECK(tbrf_make_periodic_plan(m, dim, o, L, n, 4, &opts, &p) == TBRF_OK, "make: %s",
                          tbrf_plan_message(p));
                    CHECK(tbrf_set_points(p, NP, pts) == TBRF_OK && tbrf_execute(p, 2, v[k]) == TBRF_OK,
                          "execute: %s", tbrf_plan_message(p));
                    tbrf_destroy(p);
                }
                unsetenv("TBRF_CPU_ISA");
                const size_t bytes = sizeof(double) * (size_t)NP * (vec ? (size_t)dim : 1u);
                CHECK(memcmp(v[0], v[1], bytes) == 0, "%dD %s w %d: avx2 differs from avx512", dim,
                      vec ? "vector" : "scalar", w);
                CHECK(memcmp(v[0], v[2], bytes) == 0, "%dD %s w %d: portable differs from avx512", dim,
                      vec ? "vector" : "scalar", w);
            }
}

/* The kernel's polynomial pieces against the kernel itself, for every
 * width: within 0.2 10^(1-w) (the pieces' floor, set by the kernel's
 * square-root edge, is about 0.15 e^-beta ~ 0.15 10^(1-w); a wrong
 * coefficient or piece would be off by far more), and down to double
 * rounding (1e-14) for the widest two, whose floor is below it. The weights
 * of a position sum to the kernel's integral phi-hat(0) within 10^(1-w)
 * of it (Poisson summation: the rest is the kernel's transform at 2 pi,
 * far smaller): no weight left out, doubled or shifted. */
static void check_kernel(void)
{
    for (int w = 2; w <= 16; w++) {
        nufft_setup s;
        const int64_t n[3] = {16, 16, 16};
        const double o[3] = {0, 0, 0}, L[3] = {1, 1, 1};
        tbrfi_nufft_setup(&s, 3, n, o, L, pow(10.0, 1.0 - w));
        CHECK(s.w == w, "accuracy 1e%d gives width %d", 1 - w, s.w);
        const double bound = fmax(0.2 * pow(10.0, 1.0 - w), 1e-14);
        const double ft0 = tbrfi_nufft_kernel_ft(&s, 0.0);
        double worst = 0, dev = 0;
        for (int i = 0; i <= 2000; i++) {
            const double z = -1.0 + i / 1000.0 - (i == 2000 ? 1e-12 : 0.0);
            double k[NUFFT_WMAX], sum = 0;
            tbrfi_nufft_weights(&s, z, k);
            for (int j = 0; j < w; j++) {
                worst = fmax(worst, fabs(k[j] - tbrfi_nufft_kernel(&s, (z + 1.0 + 2.0 * j - w) / w)));
                sum += k[j];
            }
            dev = fmax(dev, fabs(sum - ft0) / ft0);
        }
        CHECK(worst <= bound, "w %d: polynomial pieces off the kernel by %g > %g", w, worst, bound);
        printf("w %d: pieces within %.3g of the kernel, weight sums within %.3g of phi-hat(0)\n", w, worst, dev);
        CHECK(dev <= fmax(pow(10.0, 1.0 - w), 1e-14), "w %d: the weights' sum is %g off phi-hat(0)", w, dev);
    }
}

int main(void)
{
    check_kernel();
    tbrf_model *m = NULL;
    tbrf_model_gaussian(0.15, &m);
    const double o3[3] = {0.25, -1.0, 3.0}, L3[3] = {1.0, 1.3, 0.8};
    const int64_t n3[3] = {10, 9, 8};
    check_direct(m, 3, o3, L3, n3);
    const double o2[3] = {-0.5, 0.5, 0}, L2[3] = {1.2, 1.0, 1};
    const int64_t n2[3] = {16, 13, 1};
    check_direct(m, 2, o2, L2, n2);
    check_consistency(m);
    check_stream(m);
    check_isa(m);
    tbrf_model_destroy(m);
    return check_report("test_periodic");
}
