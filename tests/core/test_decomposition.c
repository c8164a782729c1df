/* test_decomposition.c — decomposition invariance (doc/decomposition.md):
 * a grid split into boxes (slabs, pencils, blocks, x-only splits), each box
 * set with tbrf_set_subgrid and evaluated alone, gives the whole grid's
 * values byte for byte, for every method on the CPU backend:
 *  - turning bands in 3D and 2D, double and float, a vector field, one and
 *    two threads, under every CPU kernel set this machine runs
 *    (TBRF_CPU_ISA portable, avx2, avx512: the whole grid is made with the
 *    best one, so the boxes also cross kernel sets);
 *  - streaming a sub-grid in small chunks equals executing it;
 *  - the FFT method (scalar and vector): the box is cut from the whole
 *    transform;
 *  - a periodic plan on its box lattice (FFT) and on another grid (NUFFT);
 *  - what is NOT bitwise: a box set as a grid of its own (tbrf_set_grid
 *    at the shifted origin) agrees with the whole grid only to rounding of
 *    the line coordinate (the motivating case), asserted to 1e-12
 *    of the field's scale and shown to differ somewhere;
 *  - bad boxes: negative starts, empty or overflowing counts, a 2D box
 *    with a z extent, NULL arrays, a box outside the domain, a box of a
 *    grid too large for the FFT method's one transform, a failed plan. */
#define _POSIX_C_SOURCE 200809L
#include "support/testutil.h"
#include "support/subgrid.h"

static const double LO[3] = {0, 0, 0}, HI[3] = {12, 10, 9};

static tbrf_model *powerlaw(void)
{
    tbrf_model *m = NULL;
    CHECK(tbrf_model_powerlaw(-11.0 / 3.0, 0.2, 2.0, &m) == TBRF_OK, "powerlaw model");
    return m;
}

static tbrf_plan *plan_tb(tbrf_model *m, int dim, int precision, int vector, int threads, int method)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = 96; /* three line blocks of the CPU kernels */
    o.precision = precision;
    o.vector = vector;
    o.threads = threads;
    o.method = method;
    return tu_plan(m, dim, LO, HI, 0.5, 77, &o);
}

/* The whole grid's values (execute), vsize bytes per cell. */
static void *whole_grid(tbrf_plan *p, const double o[3], const double h[3], const int64_t n[3], size_t vsize,
                        uint64_t r)
{
    if (!p || !CHECK(tbrf_set_grid(p, o, h, n) == TBRF_OK, "set_grid: %s", tbrf_plan_message(p)))
        return NULL;
    void *w = tu_malloc(vsize * (size_t)(n[0] * n[1] * n[2]));
    if (tu_execute(p, r, w) != TBRF_OK) {
        free(w);
        return NULL;
    }
    return w;
}

/* Whole grid, then every split, on plan p. */
static void check_plan(tbrf_plan *p, const char *what, const double o[3], const double h[3],
                       const int64_t n[3], size_t vsize, uint64_t r)
{
    void *w = whole_grid(p, o, h, n, vsize, r);
    if (w)
        sg_check_all_splits(p, what, o, h, n, r, w, vsize);
    free(w);
}

static void test_turning_bands(tbrf_model *m)
{
    /* 3D: rows of 37 cells cross the AVX-512 kernel's 16- and 8-cell steps
     * and the 256-column tiles are not reached; 300 x 3 x 2 crosses them */
    const double o[3] = {0.3, 0.45, 0.2}, h[3] = {0.31, 0.29, 0.33};
    const int64_t n3[3] = {37, 23, 19}, wide[3] = {300, 5, 4};
    const double hw[3] = {0.039, 1.7, 1.9};
    const char *isas[4] = {"portable", "avx2", "avx512", "avx512-gather"};
    tbrf_plan *p = plan_tb(m, 3, TBRF_DOUBLE, TBRF_SCALAR, 0, TBRF_METHOD_TB);
    void *w = whole_grid(p, o, h, n3, sizeof(double), 3);
    void *ww = whole_grid(p, o, hw, wide, sizeof(double), 3);
    for (int i = 0; i < 4 && w && ww; i++) {
        setenv("TBRF_CPU_ISA", isas[i], 1); /* lowers the kernel set, never raises it */
        char what[64];
        snprintf(what, sizeof what, "TB 3D double, kernels <= %s", isas[i]);
        sg_check_all_splits(p, what, o, h, n3, 3, w, sizeof(double));
        snprintf(what, sizeof what, "TB 3D double wide rows, kernels <= %s", isas[i]);
        sg_check_all_splits(p, what, o, hw, wide, 3, ww, sizeof(double));
    }
    unsetenv("TBRF_CPU_ISA");
    free(w);
    free(ww);
    tbrf_destroy(p);

    p = plan_tb(m, 3, TBRF_FLOAT, TBRF_SCALAR, 2, TBRF_METHOD_TB);
    check_plan(p, "TB 3D float, 2 threads", o, h, n3, sizeof(float), 5);
    tbrf_destroy(p);

    p = plan_tb(m, 3, TBRF_DOUBLE, TBRF_VECTOR_SOLENOIDAL, 1, TBRF_METHOD_TB);
    check_plan(p, "TB 3D solenoidal vector", o, h, (const int64_t[3]){17, 11, 9}, 3 * sizeof(double), 0);
    tbrf_destroy(p);

    p = plan_tb(m, 2, TBRF_DOUBLE, TBRF_SCALAR, 0, TBRF_METHOD_TB);
    const double o2[3] = {0.1, 0.7, 0}, h2[3] = {0.17, 0.23, 1};
    check_plan(p, "TB 2D double", o2, h2, (const int64_t[3]){61, 40, 1}, sizeof(double), 1);
    tbrf_destroy(p);
}

/* A sub-grid streamed in chunks of 7 cells (parts of rows) equals its
 * one-shot execution. */
static int push_into(void *user, int64_t first, int64_t count, const void *values)
{
    memcpy((double *)user + first, values, sizeof(double) * (size_t)count);
    return 0;
}

static void test_stream(tbrf_model *m)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = 64;
    o.chunk = 7;
    tbrf_plan *p = tu_plan(m, 3, LO, HI, 0.5, 5, &o);
    const double org[3] = {0.5, 0.5, 0.5}, h[3] = {0.4, 0.4, 0.4};
    const int64_t n[3] = {20, 18, 16}, start[3] = {3, 5, 7}, count[3] = {11, 9, 6};
    if (!p || !CHECK(tbrf_set_subgrid(p, org, h, n, start, count) == TBRF_OK, "set_subgrid: %s",
                     tbrf_plan_message(p))) {
        tbrf_destroy(p);
        return;
    }
    const int64_t c = count[0] * count[1] * count[2];
    double *a = tu_malloc(sizeof(double) * (size_t)c), *b = tu_malloc(sizeof(double) * (size_t)c);
    if (tu_execute(p, 2, a) == TBRF_OK) {
        CHECK(tbrf_execute_grid_stream(p, 2, push_into, b) == TBRF_OK, "grid stream: %s", tbrf_plan_message(p));
        CHECK(memcmp(a, b, sizeof(double) * (size_t)c) == 0, "a streamed sub-grid differs from executing it");
    }
    free(a);
    free(b);
    tbrf_destroy(p);
}

static void test_fft(tbrf_model *m)
{
    const double o[3] = {0.2, 0.1, 0.4}, h[3] = {0.3, 0.35, 0.4};
    const int64_t n[3] = {24, 20, 18};
    tbrf_plan *p = plan_tb(m, 3, TBRF_DOUBLE, TBRF_SCALAR, 0, TBRF_METHOD_FFT);
    check_plan(p, "FFT method 3D", o, h, n, sizeof(double), 4);
    /* the stream of a sub-grid pushes the box, as execute gives it */
    const int64_t start[3] = {5, 3, 2}, count[3] = {13, 11, 9}, c = 13 * 11 * 9;
    double *a = tu_malloc(sizeof(double) * c), *b = tu_malloc(sizeof(double) * c);
    if (p && CHECK(tbrf_set_subgrid(p, o, h, n, start, count) == TBRF_OK, "FFT set_subgrid") &&
        tu_execute(p, 4, a) == TBRF_OK) {
        CHECK(tbrf_execute_grid_stream(p, 4, push_into, b) == TBRF_OK, "FFT sub-grid stream: %s",
              tbrf_plan_message(p));
        CHECK(memcmp(a, b, sizeof(double) * c) == 0, "an FFT sub-grid streamed differs from executing it");
    }
    free(a);
    free(b);
    tbrf_destroy(p);
    p = plan_tb(m, 3, TBRF_FLOAT, TBRF_VECTOR_COMPRESSIVE, 0, TBRF_METHOD_FFT);
    check_plan(p, "FFT method 3D compressive float", o, h, n, 3 * sizeof(float), 1);
    tbrf_destroy(p);
    p = plan_tb(m, 2, TBRF_DOUBLE, TBRF_SCALAR, 0, TBRF_METHOD_FFT);
    check_plan(p, "FFT method 2D", o, h, (const int64_t[3]){30, 22, 1}, sizeof(double), 0);
    tbrf_destroy(p);
}

static void test_periodic(tbrf_model *m)
{
    tbrf_opts opts;
    tbrf_default_opts(&opts);
    opts.vector = TBRF_VECTOR_SOLENOIDAL;
    const double origin[3] = {-1, 0, 2}, length[3] = {8, 6, 7};
    const int64_t n[3] = {16, 12, 14};
    tbrf_plan *p = NULL;
    int st = tbrf_make_periodic_plan(m, 3, origin, length, n, 9, &opts, &p);
    if (CHECK(st == TBRF_OK, "periodic plan: %s", tbrf_plan_message(p))) {
        const double h[3] = {0.5, 0.5, 0.5};
        void *w = whole_grid(p, origin, h, n, 3 * sizeof(double), 2);
        CHECK(tbrf_plan_method(p) == TBRF_METHOD_FFT, "the box lattice runs the FFT method");
        if (w)
            sg_check_all_splits(p, "periodic box lattice (FFT)", origin, h, n, 2, w, 3 * sizeof(double));
        free(w);
        /* another grid, starting outside the box (positions wrap): NUFFT */
        const double o2[3] = {-3.1, 0.4, 1.3}, h2[3] = {0.45, 0.61, 0.37};
        const int64_t n2[3] = {23, 14, 13};
        w = whole_grid(p, o2, h2, n2, 3 * sizeof(double), 2);
        CHECK(tbrf_plan_method(p) == TBRF_METHOD_NUFFT, "an off-lattice grid runs the NUFFT");
        if (w)
            sg_check_all_splits(p, "periodic off-lattice grid (NUFFT)", o2, h2, n2, 2, w, 3 * sizeof(double));
        free(w);
    }
    tbrf_destroy(p);
}

/* The case: the upper half evaluated as a grid of its own (its own
 * origin) differs from the whole grid by rounding of the line coordinate;
 * as a sub-grid it is bitwise the whole grid's. */
static void test_shifted_origin_is_rounding(tbrf_model *m)
{
    tbrf_plan *p = plan_tb(m, 3, TBRF_DOUBLE, TBRF_SCALAR, 0, TBRF_METHOD_TB);
    const double o[3] = {0.1, 0.2, 0.3}, h[3] = {0.3, 0.3, 0.25};
    const int64_t n[3] = {32, 32, 32};
    double *w = whole_grid(p, o, h, n, sizeof(double), 0);
    if (!w) {
        tbrf_destroy(p);
        return;
    }
    const double oh[3] = {o[0], o[1], o[2] + 16 * h[2]};
    const int64_t nh[3] = {32, 32, 16};
    const int64_t half = 32 * 32 * 16;
    double *v = tu_malloc(sizeof(double) * (size_t)half);
    if (CHECK(tbrf_set_grid(p, oh, h, nh) == TBRF_OK, "set_grid half") && tu_execute(p, 0, v) == TBRF_OK) {
        double scale = 0, dmax = 0;
        int64_t differ = 0;
        for (int64_t i = 0; i < half; i++) {
            scale = fmax(scale, fabs(w[half + i]));
            dmax = fmax(dmax, fabs(v[i] - w[half + i]));
            differ += v[i] != w[half + i];
        }
        /* the coordinate t ~ 1e3 samples is rounded differently (one ulp,
         * ~1e-13 samples) and interpolation turns that into ~1e-13 of a
         * sample difference per line: far below 1e-12 of the field */
        CHECK(dmax <= 1e-12 * scale, "a shifted-origin grid is off by %g (scale %g)", dmax, scale);
        CHECK(differ > 0, "a shifted-origin grid was expected to differ from the whole grid at some "
              "cells (if it no longer does, doc/decomposition.md should say so)");
        printf("half grid at its own origin: %lld of %lld cells differ, max %.3g (field scale %.3g)\n",
               (long long)differ, (long long)half, dmax, scale);
    }
    const int64_t start[3] = {0, 0, 16};
    if (CHECK(tbrf_set_subgrid(p, o, h, n, start, nh) == TBRF_OK, "set_subgrid half") &&
        tu_execute(p, 0, v) == TBRF_OK)
        CHECK(memcmp(v, w + half, sizeof(double) * (size_t)half) == 0, "the half as a sub-grid is not bitwise");
    free(v);
    free(w);
    tbrf_destroy(p);
}

static void test_bad_boxes(tbrf_model *m)
{
    tbrf_plan *p = plan_tb(m, 3, TBRF_DOUBLE, TBRF_SCALAR, 0, TBRF_METHOD_TB);
    tbrf_plan *p2 = plan_tb(m, 2, TBRF_DOUBLE, TBRF_SCALAR, 0, TBRF_METHOD_TB);
    if (!p || !p2) {
        tbrf_destroy(p);
        tbrf_destroy(p2);
        return;
    }
    const double o[3] = {0, 0, 0}, h[3] = {0.5, 0.5, 0.5};
    const int64_t n[3] = {10, 10, 10};
    struct { int64_t start[3], count[3]; } bad[] = {
        {{-1, 0, 0}, {2, 2, 2}}, {{0, 0, 0}, {0, 2, 2}}, {{8, 0, 0}, {3, 2, 2}},
        {{10, 0, 0}, {1, 1, 1}}, {{0, 0, 0}, {INT64_MAX, 1, 1}}, {{INT64_MAX, 0, 0}, {1, 1, 1}},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st = tbrf_set_subgrid(p, o, h, n, bad[i].start, bad[i].count);
        CHECK(st == TBRF_ERR_SIZE, "bad box %zu: status %d", i, st);
        CHECK(strstr(tbrf_plan_message(p), "set_subgrid") != NULL, "bad box %zu: message '%s'", i,
              tbrf_plan_message(p));
        CHECK(tbrf_plan_count(p) == 0 && tbrf_execute(p, 0, NULL) == TBRF_ERR_NO_GEOMETRY,
              "a refused box leaves no geometry");
    }
    const int64_t s0[3] = {0, 0, 0}, c1[3] = {1, 1, 1};
    CHECK(tbrf_set_subgrid(p, o, h, n, NULL, c1) == TBRF_ERR_NULL, "NULL start");
    CHECK(tbrf_set_subgrid(p, o, h, n, s0, NULL) == TBRF_ERR_NULL, "NULL count");
    CHECK(tbrf_set_subgrid(NULL, o, h, n, s0, c1) == TBRF_ERR_NULL, "NULL plan");
    /* a grid reaching outside the domain is fine when the box stays in */
    const int64_t big[3] = {100, 10, 10}, in0[3] = {0, 0, 0}, in1[3] = {20, 10, 10}, out0[3] = {20, 0, 0};
    CHECK(tbrf_set_subgrid(p, o, h, big, in0, in1) == TBRF_OK, "a box inside the domain of a larger grid: %s",
          tbrf_plan_message(p));
    CHECK(tbrf_set_subgrid(p, o, h, big, out0, in1) == TBRF_ERR_OUT_OF_DOMAIN, "a box outside the domain");
    const double nan3[3] = {NAN, 0, 0};
    CHECK(tbrf_set_subgrid(p, nan3, h, n, s0, c1) == TBRF_ERR_INVALID, "NaN origin");
    const int64_t n2[3] = {10, 10, 1}, z1[3] = {0, 0, 1}, c2[3] = {2, 2, 2};
    CHECK(tbrf_set_subgrid(p2, o, h, n2, z1, c1) == TBRF_ERR_SIZE, "2D box with start[2] = 1");
    CHECK(tbrf_set_subgrid(p2, o, h, n2, s0, c2) == TBRF_ERR_SIZE, "2D box with count[2] = 2");
    CHECK(tbrf_set_subgrid(p2, o, h, n2, s0, (const int64_t[3]){3, 4, 1}) == TBRF_OK, "2D box: %s",
          tbrf_plan_message(p2));
    CHECK(tbrf_plan_count(p2) == 12, "2D box count %lld", (long long)tbrf_plan_count(p2));
    tbrf_destroy(p);
    tbrf_destroy(p2);

    /* the FFT method transforms the whole grid: a small box of a grid too
     * large for one transform is refused, not attempted */
    p = plan_tb(m, 3, TBRF_DOUBLE, TBRF_SCALAR, 0, TBRF_METHOD_FFT);
    const int64_t huge[3] = {(int64_t)1 << 21, (int64_t)1 << 21, (int64_t)1 << 20}, one[3] = {1, 1, 1};
    const double tiny[3] = {1e-6, 1e-6, 1e-6};
    if (p) {
        int st = tbrf_set_subgrid(p, o, tiny, huge, s0, one);
        CHECK(st == TBRF_ERR_SIZE && strstr(tbrf_plan_message(p), "FFT method"),
              "FFT sub-grid of a huge grid: status %d, '%s'", st, tbrf_plan_message(p));
    }
    tbrf_destroy(p);
    /* a failed plan answers BAD_PLAN */
    tbrf_opts badopt;
    tbrf_default_opts(&badopt);
    badopt.lines = -1;
    p = NULL;
    tbrf_make_plan(m, 3, LO, HI, 0.5, 1, &badopt, &p);
    CHECK(p && tbrf_set_subgrid(p, o, h, n, s0, c1) == TBRF_ERR_BAD_PLAN, "set_subgrid on a failed plan");
    tbrf_destroy(p);
}

int main(void)
{
    tbrf_model *m = powerlaw();
    if (m) {
        test_turning_bands(m);
        test_stream(m);
        test_fft(m);
        test_periodic(m);
        test_shifted_origin_is_rounding(m);
        test_bad_boxes(m);
    }
    tbrf_model_destroy(m);
    return check_report("test_decomposition");
}
