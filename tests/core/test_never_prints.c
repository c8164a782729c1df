/* test_never_prints.c — "the library never exits and never prints"
 * (doc/design.md, Conventions), checked: every public function of
 * include/tbrf.h is called under the conditions that used to reach
 * libgomp's own error printing and exit() (huge thread counts),
 * overflowing domains, sizes and allocations that must fail, bad files,
 * bad arguments, aborting callbacks. A child process makes every call
 * with its stdout and stderr redirected (dup2) into a file; the parent
 * then asserts that the child ran to its own end (a library exit() or a
 * crash would end it earlier, with another status) and that the file is
 * empty. The checks' own failure messages would land in that file too, so
 * the parent prints it whenever it is not empty. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/check.h"
#include "tbrf.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define CHILD_DONE 42   /* the child reached its end, every check passed */
#define CHILD_FAILED 43 /* the child reached its end, some check failed */

static int want(int got, int expected, const char *what)
{
    return CHECK(got == expected, "%s: status %d (%s), expected %d", what, got,
                 tbrf_strerror(got), expected);
}

static int fail_pull(void *user, int64_t first, int64_t max, double *xyz, int64_t *count)
{
    (void)user, (void)first, (void)max, (void)xyz, (void)count;
    return 7;
}

static int bad_count_pull(void *user, int64_t first, int64_t max, double *xyz, int64_t *count)
{
    (void)user, (void)first, (void)xyz;
    *count = max + 1;
    return 0;
}

static int fail_push(void *user, int64_t first, int64_t count, const void *values)
{
    (void)user, (void)first, (void)count, (void)values;
    return 3;
}

static double nan_spectrum(double k, int dim, void *user)
{
    (void)user, (void)k, (void)dim;
    return NAN;
}

static int nan_mc(void *user, int64_t n, int dim, const double *x, double *f)
{
    (void)user, (void)dim, (void)x;
    for (int64_t i = 0; i < n; i++)
        f[i] = 1.0;
    return 1;
}

/* Where a refusal is missing, what used to follow: running the plan (a
 * grid of 4^3 cells inside its domain), which reached libgomp's exit()
 * or a crash. */
static void run_anyway(tbrf_plan *p, const double lo[3])
{
    const double spacing[3] = {1e-3, 1e-3, 1e-3};
    const int64_t n[3] = {4, 4, 4};
    double v[64];
    if (tbrf_set_grid(p, lo, spacing, n) == TBRF_OK)
        tbrf_execute(p, 0, v);
    const double pt[6] = {lo[0], lo[1], lo[2], lo[0], lo[1], lo[2]};
    if (tbrf_set_points(p, 2, pt) == TBRF_OK)
        tbrf_execute(p, 0, v);
}

/* A plan of model m with opts o on the unit box; its status. */
static int plan_with(const tbrf_model *m, const tbrf_opts *o, tbrf_plan **p)
{
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    return tbrf_make_plan(m, 3, lo, hi, 0.1, 1, o, p);
}

static void models(void)
{
    tbrf_model *m = NULL;
    want(tbrf_model_powerlaw(NAN, 0, 1, &m), TBRF_ERR_INVALID, "powerlaw NaN");
    tbrf_model_destroy(m);
    want(tbrf_model_powerlaw(-3, 2, 1, &m), TBRF_ERR_INVALID, "powerlaw kmin > kmax");
    tbrf_model_destroy(m);
    want(tbrf_model_gaussian(-1, &m), TBRF_ERR_INVALID, "gaussian -1");
    tbrf_model_destroy(m);
    want(tbrf_model_exponential(INFINITY, &m), TBRF_ERR_INVALID, "exponential inf");
    tbrf_model_destroy(m);
    want(tbrf_model_matern(1, 0, &m), TBRF_ERR_INVALID, "matern nu 0");
    tbrf_model_destroy(m);
    want(tbrf_model_vonkarman(0, &m), TBRF_ERR_INVALID, "vonkarman 0");
    tbrf_model_destroy(m);
    const double k[2] = {1, 0.5}, p[2] = {1, 1};
    CHECK(tbrf_model_table(2, k, p, &m) != TBRF_OK, "unsorted table accepted");
    tbrf_model_destroy(m);
    if (!UNDER_ASAN) { /* ASan prints its own warning on a failing malloc */
        CHECK(tbrf_model_table(SIZE_MAX, k, p, &m) != TBRF_OK, "table of SIZE_MAX rows accepted");
        tbrf_model_destroy(m);
    }
    want(tbrf_model_table_file("/nonexistent/tbrf/table.txt", &m), TBRF_ERR_FILE, "missing table");
    tbrf_model_destroy(m);
    CHECK(tbrf_model_table_file("/", &m) != TBRF_OK, "directory as a table");
    tbrf_model_destroy(m);
    CHECK(tbrf_model_table_file("/proc/self/status", &m) != TBRF_OK, "text not a table");
    tbrf_model_destroy(m);
    want(tbrf_model_table_file(NULL, &m), TBRF_ERR_NULL, "table NULL path");
    tbrf_model_destroy(m);
    size_t n = 0;
    want(tbrf_model_table_data(NULL, &n, NULL, NULL), TBRF_ERR_NULL, "table_data NULL");
    want(tbrf_model_callback(NULL, NULL, 0, 1, &m), TBRF_ERR_NULL, "callback NULL");
    tbrf_model_destroy(m);
    /* A callback that answers NaN: the variance integral fails cleanly. */
    m = NULL;
    tbrf_model_callback(nan_spectrum, NULL, 0, 1, &m);
    tbrf_plan *pl = NULL;
    CHECK(m == NULL || plan_with(m, NULL, &pl) != TBRF_OK, "NaN spectrum planned");
    tbrf_destroy(pl);
    tbrf_model_destroy(m);
    want(tbrf_model_gaussian(1, &m), TBRF_OK, "gaussian 1");
    want(tbrf_model_set_variance(m, -1), TBRF_ERR_INVALID, "variance -1");
    want(tbrf_model_set_amplitude(m, NAN), TBRF_ERR_INVALID, "amplitude NaN");
    want(tbrf_model_set_variance(NULL, 1), TBRF_ERR_NULL, "variance NULL");
    want(tbrf_model_set_amplitude(NULL, 1), TBRF_ERR_NULL, "amplitude NULL");
    want(tbrf_model_table_data(m, &n, NULL, NULL), TBRF_ERR_INVALID, "table_data of a gaussian");
    CHECK(isnan(tbrf_model_spectrum(m, 7, 1.0)) || 1, "spectrum dim 7");
    CHECK(isnan(tbrf_model_covariance(NULL, 3, 1.0)) || 1, "covariance NULL");
    CHECK(isnan(tbrf_model_variance(NULL, 3)) || 1, "variance NULL");
    tbrf_model_spectrum(m, 3, -1.0);
    tbrf_model_covariance(m, 2, NAN);
    tbrf_model_variance(m, 1);
    CHECK(tbrf_model_describe(NULL) != NULL, "describe NULL");
    CHECK(tbrf_model_message(NULL) != NULL, "message NULL");
    CHECK(tbrf_model_status(NULL) != TBRF_OK, "status NULL");
    tbrf_model_destroy(m);
    tbrf_model_destroy(NULL);
}

static void plans(void)
{
    tbrf_model *m = NULL;
    tbrf_model_gaussian(0.3, &m);
    tbrf_opts o;
    tbrf_default_opts(&o);
    tbrf_default_opts(NULL);
    tbrf_plan *p = NULL;

    /* Thread counts that used to crash libgomp or make it print and
     * exit(): refused. */
    const int32_t huge[] = {65536, 40000, 1025, INT32_MAX, -1};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        o.threads = huge[i];
        const double z0[3] = {0, 0, 0};
        if (!want(plan_with(m, &o, &p), TBRF_ERR_INVALID, "huge thread count"))
            run_anyway(p, z0);
        CHECK(strstr(tbrf_plan_message(p), "threads") != NULL, "threads message: %s",
              tbrf_plan_message(p));
        tbrf_destroy(p);
        p = NULL;
    }
    /* The largest allowed count runs, capped to the machine. */
    o.threads = 1024;
    o.lines = 64;
    if (want(plan_with(m, &o, &p), TBRF_OK, "1024 threads")) {
        const double origin[3] = {0, 0, 0}, spacing[3] = {0.1, 0.1, 0.1};
        const int64_t n[3] = {10, 10, 10};
        double *v = malloc(1000 * sizeof *v);
        want(tbrf_set_grid(p, origin, spacing, n), TBRF_OK, "grid");
        want(tbrf_execute(p, 0, v), TBRF_OK, "execute with 1024 threads");
        free(v);
    }
    tbrf_destroy(p);
    p = NULL;
    o.threads = 1024;
    o.method = TBRF_METHOD_FFT;
    if (want(plan_with(m, &o, &p), TBRF_OK, "FFT with 1024 threads")) {
        const double origin[3] = {0, 0, 0}, spacing[3] = {0.1, 0.1, 0.1};
        const int64_t n[3] = {8, 8, 8};
        double *v = malloc(512 * sizeof *v);
        want(tbrf_set_grid(p, origin, spacing, n), TBRF_OK, "FFT grid");
        want(tbrf_execute(p, 0, v), TBRF_OK, "FFT execute with 1024 threads");
        free(v);
        /* A grid too large for one transform. */
        const int64_t big[3] = {1 << 21, 1 << 21, 1 << 20};
        want(tbrf_set_grid(p, origin, spacing, big), TBRF_ERR_OUT_OF_DOMAIN, "FFT huge grid");
    }
    tbrf_destroy(p);
    p = NULL;
    tbrf_default_opts(&o);

    /* Overflowing and unresolvable domains. */
    const double r1[3] = {1e308, 0, 0}, r2[3] = {-1e308, 0, 0}, r3[3] = {1e308, 1, 1};
    if (!want(tbrf_make_plan(m, 3, r1, r1, 1.0, 1, NULL, &p), TBRF_ERR_INVALID, "lo = hi = 1e308"))
        run_anyway(p, r1);
    tbrf_destroy(p);
    if (!want(tbrf_make_plan(m, 3, r2, r1, 1.0, 1, NULL, &p), TBRF_ERR_INVALID, "[-1e308, 1e308]"))
        run_anyway(p, r1);
    tbrf_destroy(p);
    if (!want(tbrf_make_plan(m, 3, r1, r3, 1.0, 1, NULL, &p), TBRF_ERR_INVALID, "box at 1e308"))
        run_anyway(p, r1);
    tbrf_destroy(p);
    const double z[3] = {0, 0, 0}, inf3[3] = {INFINITY, 1, 1};
    want(tbrf_make_plan(m, 3, z, inf3, 1.0, 1, NULL, &p), TBRF_ERR_INVALID, "infinite domain");
    tbrf_destroy(p);
    const double far[3] = {1e300, 1e300, 1e300};
    CHECK(tbrf_make_plan(m, 3, z, far, 1.0, 1, NULL, &p) != TBRF_OK, "1e300 box planned");
    tbrf_destroy(p);
    CHECK(tbrf_make_plan(m, 3, z, r3, 1e-300, 1, NULL, &p) != TBRF_OK, "tiny resolution");
    tbrf_destroy(p);
    want(tbrf_make_plan(m, 3, NULL, r3, 1, 1, NULL, &p), TBRF_ERR_NULL, "NULL lo");
    tbrf_destroy(p);
    want(tbrf_make_plan(m, 3, z, r3, 1, 1, NULL, NULL), TBRF_ERR_NULL, "NULL plan");

    /* Sizes: lines too long for memory, a chunk too large to buffer. */
    tbrf_default_opts(&o);
    o.lines = 1 << 24;
    o.oversampling = 1024;
    const double one[3] = {1, 1, 1};
    want(tbrf_make_plan(m, 3, z, one, 1e-3, 1, &o, &p), TBRF_ERR_SIZE, "1 TiB of lines");
    tbrf_destroy(p);
    if (!UNDER_ASAN) {
        /* An allocation that must fail (hundreds of GiB): NO_MEMORY. */
        o.lines = 1 << 20;
        o.oversampling = 64;
        int st = tbrf_make_plan(m, 3, z, one, 1e-2, 1, &o, &p);
        CHECK(st == TBRF_ERR_NO_MEMORY || st == TBRF_ERR_SIZE || st == TBRF_OK,
              "huge lines: %s", tbrf_strerror(st));
        tbrf_destroy(p);
    }
    tbrf_default_opts(&o);
    o.chunk = INT64_MAX;
    o.lines = 16;
    if (want(plan_with(m, &o, &p), TBRF_OK, "huge chunk plan")) {
        want(tbrf_execute_stream(p, 0, fail_pull, fail_push, NULL), TBRF_ERR_SIZE, "huge chunk");
        const double origin[3] = {0, 0, 0}, spacing[3] = {0.1, 0.1, 0.1};
        const int64_t n[3] = {4, 4, 4};
        tbrf_set_grid(p, origin, spacing, n);
        want(tbrf_execute_grid_stream(p, 0, fail_push, NULL), TBRF_ERR_SIZE, "huge grid chunk");
    }
    tbrf_destroy(p);
    p = NULL;

    /* Geometry and execution errors. */
    tbrf_default_opts(&o);
    o.lines = 16;
    want(plan_with(m, &o, &p), TBRF_OK, "plan");
    double v[64];
    want(tbrf_execute(p, 0, v), TBRF_ERR_NO_GEOMETRY, "no geometry");
    const double origin[3] = {0, 0, 0}, spacing[3] = {0.1, 0.1, 0.1};
    const int64_t over[3] = {INT64_MAX, 2, 2}, n4[3] = {4, 4, 4};
    want(tbrf_set_grid(p, origin, spacing, over), TBRF_ERR_SIZE, "overflowing grid");
    const double nanpt[3] = {NAN, 0, 0};
    want(tbrf_set_points(p, 1, nanpt), TBRF_ERR_OUT_OF_DOMAIN, "NaN point");
    want(tbrf_set_points(p, -1, nanpt), TBRF_ERR_SIZE, "negative count");
    want(tbrf_set_grid(p, origin, spacing, n4), TBRF_OK, "grid");
    want(tbrf_execute(p, 0, NULL), TBRF_ERR_NULL, "NULL values");
    want(tbrf_execute_grid_stream(p, 0, fail_push, NULL), TBRF_ERR_CALLBACK, "push aborts");
    want(tbrf_execute_stream(p, 0, fail_pull, fail_push, NULL), TBRF_ERR_CALLBACK, "pull aborts");
    want(tbrf_execute_stream(p, 0, bad_count_pull, fail_push, NULL), TBRF_ERR_INVALID,
         "pull overflows");
    CHECK(tbrf_plan_count(p) == 64, "count");
    tbrf_plan_info info;
    want(tbrf_plan_get_info(p, &info), TBRF_OK, "info");
    want(tbrf_plan_get_info(p, NULL), TBRF_ERR_NULL, "info NULL");
    CHECK(tbrf_plan_method(p) == TBRF_METHOD_TB, "method");
    tbrf_plan_status(p);
    tbrf_destroy(p);
    p = NULL;
    CHECK(tbrf_plan_count(NULL) == 0, "count NULL");
    CHECK(tbrf_plan_method(NULL) == -1, "method NULL");
    CHECK(tbrf_plan_status(NULL) == TBRF_ERR_NULL, "status NULL");
    CHECK(tbrf_plan_message(NULL) != NULL, "message NULL");
    want(tbrf_set_grid(NULL, origin, spacing, n4), TBRF_ERR_NULL, "set_grid NULL");
    want(tbrf_set_points(NULL, 1, nanpt), TBRF_ERR_NULL, "set_points NULL");
    want(tbrf_execute(NULL, 0, v), TBRF_ERR_NULL, "execute NULL");
    want(tbrf_execute_stream(NULL, 0, fail_pull, fail_push, NULL), TBRF_ERR_NULL, "stream NULL");
    want(tbrf_execute_grid_stream(NULL, 0, fail_push, NULL), TBRF_ERR_NULL, "grid stream NULL");
    tbrf_destroy(NULL);

    /* Every backend id, built or not; a failed plan stays failed. */
    for (int b = -2; b <= 6; b++) {
        tbrf_backend_name(b);
        tbrf_backend_available(b);
        tbrf_default_opts(&o);
        o.backend = b;
        o.lines = 16;
        int st = plan_with(m, &o, &p);
        if (st != TBRF_OK)
            want(tbrf_execute(p, 0, v), TBRF_ERR_BAD_PLAN, "failed plan");
        tbrf_destroy(p);
        p = NULL;
    }
    tbrf_model_destroy(m);
}

static void rng_and_mc(void)
{
    uint32_t u[8];
    double d[8];
    float f[8];
    for (int g = -1; g <= 6; g++) {
        tbrf_rng_name(g);
        tbrf_rng_u32(g, 1, 2, 3, 8, u);
        tbrf_rng_double(g, 1, 2, 3, 8, 9, d);
        tbrf_rng_float(g, 1, 2, 3, 8, TBRF_DIST_NORMAL, f);
    }
    CHECK(tbrf_rng_u32(TBRF_GEN_PHILOX, 1, 2, 3, -1, u) != TBRF_OK, "n -1");
    CHECK(tbrf_rng_u32(TBRF_GEN_PHILOX, 1, 2, 3, INT64_MAX, NULL) != TBRF_OK, "NULL out");
    CHECK(tbrf_rng_double(TBRF_GEN_PHILOX, 1, 2, UINT64_MAX, 8, TBRF_DIST_U01, d) == TBRF_OK ||
              1,
          "offset at the end");
    const uint32_t ctr[4] = {1, 2, 3, 4}, key2[2] = {5, 6}, key4[4] = {7, 8, 9, 10};
    uint32_t st2[2] = {1, 2};
    tbrf_rng_philox4x32(ctr, key2, u);
    tbrf_rng_tea8(st2, key4);
    tbrf_rng_seed_prehash(123);
    CHECK(tbrf_rng_saru_seed(0, NULL, st2) != TBRF_OK, "saru seed 0 words");
    CHECK(tbrf_rng_saru_seed(-5, u, st2) != TBRF_OK, "saru seed -5 words");
    CHECK(tbrf_rng_saru_next(st2, -1, u) != TBRF_OK, "saru next -1");
    CHECK(tbrf_rng_saru_next(NULL, 1, u) != TBRF_OK, "saru next NULL");
    CHECK(tbrf_rng_saru_jump(NULL, 1) != TBRF_OK, "saru jump NULL");
    CHECK(tbrf_rng_stream_id(1, 2, 3, NULL) != TBRF_OK, "stream id NULL");
    CHECK(tbrf_rng_stream_pair(1, 2, 3, 4, NULL) != TBRF_OK, "stream pair NULL");
    tbrf_rng_lcg64_jump(1, UINT64_MAX);
    uint64_t y, t;
    CHECK(tbrf_rng_lcg64_block(-1, &y, &t) != TBRF_OK, "lcg block -1");
    CHECK(tbrf_rng_lcg64_block(1, NULL, &t) != TBRF_OK, "lcg block NULL");

    double a[4] = {1, 1, 1, 1}, w[4] = {0.5, 0.5, 0.5, 0.5}, out[2], ex;
    for (int i = -1; i <= 8; i++) {
        tbrf_mc_integrand_name(i);
        tbrf_mc_exact(i, 4, a, w, &ex);
    }
    CHECK(tbrf_mc_exact(TBRF_MC_GAUSSIAN, 0, a, w, &ex) != TBRF_OK, "mc dim 0");
    tbrf_mc_exact(TBRF_MC_GAUSSIAN, 4, NULL, w, &ex);
    CHECK(tbrf_mc_integrate(99, 4, a, w, 100, 1, 0, 0, out) != TBRF_OK, "mc integrand 99");
    CHECK(tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 4, a, w, -1, 1, 0, 0, out) != TBRF_OK, "mc n -1");
    CHECK(tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 4, a, w, 100, 1, 9, 0, out) != TBRF_OK,
          "mc algorithm 9");
    CHECK(tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 4, a, w, 100, 1, 1, -5, out) != TBRF_OK,
          "mc block -5");
    const double lo[2] = {0, 0}, hi[2] = {1, 1};
    CHECK(tbrf_mc_integrate_fn(NULL, NULL, 2, lo, hi, 100, 1, 0, 0, out) != TBRF_OK,
          "mc fn NULL");
    CHECK(tbrf_mc_integrate_fn(nan_mc, NULL, 2, lo, hi, 100, 1, 0, 0, out) != TBRF_OK,
          "mc fn aborts");
    CHECK(tbrf_mc_integrate_fn(nan_mc, NULL, 2, hi, lo, 100, 1, 0, 0, out) != TBRF_OK ||
              1,
          "mc fn reversed box");
    for (int b = -1; b <= 4; b++)
        tbrf_mc_integrate_device(b, 99, TBRF_MC_GAUSSIAN, 4, a, w, 100, 1, out);
    CHECK(tbrf_mc_integrate_device(TBRF_BACKEND_CPU, 0, 99, 4, a, w, 100, 1, out) != TBRF_OK,
          "device integrand 99");
    double beta = 0;
    CHECK(tbrf_mc_measure_beta(NULL) != TBRF_OK, "beta NULL");
    tbrf_mc_measure_beta(&beta);
    int64_t s;
    CHECK(tbrf_mc_block_size(-1, 2, 1.0, &s) != TBRF_OK, "block n -1");
    tbrf_mc_block_size(100, 2, NAN, &s);
    CHECK(tbrf_mc_block_size(100, 2, 1.0, NULL) != TBRF_OK, "block NULL");
    for (int c = -3; c <= 20; c++)
        CHECK(tbrf_strerror(c) != NULL, "strerror %d", c);
    CHECK(tbrf_version() != NULL, "version");
}

/* The turbulence driver: bad parameters, 1024 threads, huge times and
 * counts, garbage states, NULLs. */
static void drivers(void)
{
    tbrf_model *m = NULL;
    tbrf_model_band(6.3, 19.0, &m);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    tbrf_driver *d = NULL;
    p.tcorr = NAN;
    want(tbrf_driver_make(m, 1, &p, &d), TBRF_ERR_INVALID, "driver tcorr NaN");
    tbrf_driver_destroy(d);
    want(tbrf_driver_make(NULL, 1, &p, &d), TBRF_ERR_NULL, "driver NULL model");
    tbrf_driver_destroy(d);
    tbrf_driver_default_params(&p);
    p.threads = 1024;
    if (want(tbrf_driver_make(m, 1, &p, &d), TBRF_OK, "driver with 1024 threads")) {
        double x[3 * 5000] = {0}, f[3 * 5000];
        want(tbrf_driver_points(d, 0.3, 5000, x, f), TBRF_OK, "driver points, 1024 threads");
        want(tbrf_driver_points(d, 1e300, 1, x, f), TBRF_ERR_INVALID, "driver t 1e300");
        want(tbrf_driver_points(d, 0.3, INT64_MAX, x, f), TBRF_ERR_SIZE, "driver INT64_MAX points");
        const double o[3] = {0, 0, 0}, h[3] = {1, 1, 1};
        const int64_t big[3] = {INT64_MAX, INT64_MAX, 2};
        want(tbrf_driver_grid(d, 0.3, o, h, big, f), TBRF_ERR_SIZE, "driver overflowing grid");
        char junk[64] = {0};
        want(tbrf_driver_load(d, junk, sizeof junk), TBRF_ERR_INVALID, "driver garbage state");
        want(tbrf_driver_stream(d, 0.3, fail_pull, fail_push, NULL), TBRF_ERR_CALLBACK, "driver failing pull");
        want(tbrf_driver_rms(d, 0.3, NULL), TBRF_ERR_NULL, "driver rms NULL");
    }
    tbrf_driver_destroy(d);
    /* a non-periodic domain (turning bands): 1024 threads, outside points,
     * an overflowing grid, a box driver's state */
    tbrf_driver_default_params(&p);
    p.periodic = 0;
    p.threads = 1024;
    if (want(tbrf_driver_make(m, 1, &p, &d), TBRF_OK, "domain driver with 1024 threads")) {
        double x[3 * 5000] = {0}, f[3 * 5000];
        want(tbrf_driver_points(d, 0.3, 5000, x, f), TBRF_OK, "domain driver points, 1024 threads");
        x[0] = 2.0;
        want(tbrf_driver_points(d, 0.3, 1, x, f), TBRF_ERR_OUT_OF_DOMAIN, "domain driver outside");
        const double o[3] = {0, 0, 0}, h[3] = {1, 1, 1};
        const int64_t big[3] = {INT64_MAX, INT64_MAX, 2};
        want(tbrf_driver_grid(d, 0.3, o, h, big, f), TBRF_ERR_SIZE, "domain driver overflowing grid");
        char junk[64] = {0};
        want(tbrf_driver_load(d, junk, sizeof junk), TBRF_ERR_INVALID, "domain driver garbage state");
        want(tbrf_driver_rms(d, 0.3, f), TBRF_ERR_UNSUPPORTED, "domain driver rms");
    }
    tbrf_driver_destroy(d);
    tbrf_model_destroy(m);
}

/* The initial conditions (apps/ic): bad parameters, a glass outside its
 * box, a failed object used, a stopping callback, 1024 plan threads not
 * involved; Qhull on degenerate input (its messages must stay inside). */
static int stop_chunk(void *user, const tbrf_ic_chunk *chunk)
{
    (void)user, (void)chunk;
    return 1;
}

static void initial_conditions(void)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    tbrf_ic_cosmo *ic = NULL;
    p.omega_b = 0.5;
    want(tbrf_ic_cosmo_make(&p, &ic), TBRF_ERR_INVALID, "IC omega_b > omega_m");
    want(tbrf_ic_cosmo_generate(ic, 1, stop_chunk, NULL), TBRF_ERR_BAD_PLAN, "IC failed, generate");
    tbrf_ic_cosmo_destroy(ic);
    tbrf_ic_default_cosmo(&p);
    double glass[6] = {0.5, 0.5, 0.5, 0.2, 0.2, 2.0};
    p.glass = glass;
    p.glass_n = 2;
    p.particles = 4;
    want(tbrf_ic_cosmo_make(&p, &ic), TBRF_ERR_INVALID, "IC glass outside its box");
    tbrf_ic_cosmo_destroy(ic);
    tbrf_ic_default_cosmo(&p);
    p.particles = 4;
    if (want(tbrf_ic_cosmo_make(&p, &ic), TBRF_OK, "IC 4^3")) {
        want(tbrf_ic_cosmo_generate(ic, 3, stop_chunk, NULL), TBRF_ERR_CALLBACK, "IC stop");
        want(tbrf_ic_cosmo_generate(ic, 0, stop_chunk, NULL), TBRF_ERR_INVALID, "IC 0 chunks");
        want(tbrf_ic_cosmo_displacements(ic, NULL), TBRF_ERR_NULL, "IC psi NULL");
    }
    tbrf_ic_cosmo_destroy(ic);
    want(tbrf_ic_cosmo_make(NULL, &ic), TBRF_ERR_NULL, "IC NULL params");
    tbrf_ic_cosmo_destroy(ic);
    tbrf_ic_points_params pp;
    tbrf_ic_default_points(&pp);
    double xyz[3 * 8], vol[8], rho[8];
    pp.kind = 7;
    want(tbrf_ic_points(&pp, 0, 8, xyz, NULL, 0), TBRF_ERR_INVALID, "points kind 7");
    tbrf_ic_density_params dp;
    tbrf_ic_default_density(&dp);
    dp.kind = TBRF_DENSITY_LOGNORMAL;
    dp.sigma = 1e200;
    want(tbrf_ic_density(&dp, 8, NULL, rho, NULL, 0), TBRF_ERR_INVALID, "density sigma 1e200");
    /* 8 points on one plane of the box, and two that coincide */
    for (int i = 0; i < 8; i++) {
        xyz[3 * i] = (i % 4) * 0.25;
        xyz[3 * i + 1] = (i / 4) * 0.5;
        xyz[3 * i + 2] = 0.5;
    }
    int st = tbrf_ic_voronoi_volumes(8, xyz, 1.0, vol, NULL, 0);
    CHECK(st == TBRF_OK || st == TBRF_ERR_INVALID || st == TBRF_ERR_NOT_BUILT,
          "Voronoi of a plane of points: status %d", st);
    xyz[3] = xyz[0], xyz[4] = xyz[1], xyz[5] = xyz[2];
    st = tbrf_ic_voronoi_volumes(8, xyz, 1.0, vol, NULL, 0);
    CHECK(st == TBRF_ERR_INVALID || st == TBRF_ERR_NOT_BUILT, "Voronoi coincident: %d", st);
}

static int child(const char *path)
{
    int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
        _exit(2);
    close(fd);
    models();
    plans();
    rng_and_mc();
    drivers();
    initial_conditions();
    fflush(stdout);
    fflush(stderr);
    _exit(check_failures ? CHILD_FAILED : CHILD_DONE);
}

int main(void)
{
    char path[] = "/tmp/tbrf-never-prints-XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0, "mkstemp"))
        return check_report("test_never_prints");
    close(fd);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0)
        child(path);
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork/wait");
    CHECK(WIFEXITED(status), "the calls ended the process by signal %d",
          WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) != 2, "could not redirect");
    CHECK(WIFEXITED(status) && (WEXITSTATUS(status) == CHILD_DONE ||
                                WEXITSTATUS(status) == CHILD_FAILED),
          "the library ended the process (exit status %d) before the calls did",
          WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) != CHILD_FAILED,
          "some calls returned unexpected statuses (below)");
    FILE *f = fopen(path, "r");
    char buf[4096];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    CHECK(n == 0, "%zu bytes printed on stdout/stderr:\n%s", n, buf);
    unlink(path);
    return check_report("test_never_prints");
}
