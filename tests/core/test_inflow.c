/* test_inflow.c — the inflow-boundary sampler (tbrf_inflow_*):
 *  1. values are bitwise tbrf_execute's on a plan made with the same
 *     arguments, at the shifted positions x - v t, in 3D and 2D, for
 *     several steps and thread counts, by fill and by fill_grid;
 *  2. on the plan's grid (what `tbrf generate --grid` writes) they agree to
 *     rounding (the grid path steps its line coordinate incrementally);
 *  3. float line windows agree to float rounding and take half the bytes;
 *  4. the windows of a long tube are a fraction of the plan's lines, close
 *     to what the projected extents predict;
 *  5. the density transforms; 6. bad input: clean statuses, nothing
 *     written. */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "methods/turning_bands/directions.h"
#include "tbrf.h"

static tbrf_model *powerlaw(void)
{
    tbrf_model *m = NULL;
    tbrf_model_powerlaw(-3.9, 0.05, 2.0, &m);
    return m;
}

static tbrf_opts opts_lines(int L, int threads)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = L;
    o.threads = threads;
    return o;
}

/* Ghost cells: a layer nx x ny x ng at z in [z0, z0 + ng - 1] (3D) or a
 * column of ny x ng at x in [x0, ...] (2D), spacing 1, interleaved. */
static double *ghost_layer(int dim, int64_t nx, int64_t ny, int64_t ng, double z0, int64_t *n)
{
    *n = dim == 3 ? nx * ny * ng : ny * ng;
    double *xyz = malloc(sizeof(double) * (size_t)dim * (size_t)*n);
    int64_t q = 0;
    for (int64_t k = 0; k < ng; k++)
        for (int64_t j = 0; j < ny; j++)
            for (int64_t i = 0; i < (dim == 3 ? nx : 1); i++) {
                if (dim == 3) {
                    xyz[3 * q] = (double)i;
                    xyz[3 * q + 1] = (double)j;
                    xyz[3 * q + 2] = z0 + (double)k;
                } else {
                    xyz[2 * q] = z0 + (double)k; /* the wind runs along x in 2D */
                    xyz[2 * q + 1] = (double)j;
                }
                q++;
            }
    return xyz;
}

/* 1: bitwise equal to the plan at x - v t, steps and threads. */
static void test_bitwise(int dim)
{
    const double v[3] = {dim == 3 ? 0.1 : 1.3, dim == 3 ? -0.05 : 0.2, dim == 3 ? 1.3 : 0.0};
    const double t_end = 150.0;
    int64_t n;
    double *xyz = ghost_layer(dim, 24, 20, 2, 300.0, &n);
    double glo[3] = {0, 0, 0}, ghi[3] = {0, 0, 0};
    for (int d = 0; d < dim; d++) {
        glo[d] = INFINITY;
        ghi[d] = -INFINITY;
        for (int64_t i = 0; i < n; i++) {
            glo[d] = fmin(glo[d], xyz[dim * i + d]);
            ghi[d] = fmax(ghi[d], xyz[dim * i + d]);
        }
    }
    double lo[3], hi[3];
    REQUIRE(tbrf_inflow_tube(dim, glo, ghi, v, t_end, lo, hi) == TBRF_OK, , "tube");
    const int along = dim == 3 ? 2 : 0;
    CHECK(lo[along] == glo[along] - v[along] * t_end && hi[along] == ghi[along],
          "tube along the wind [%g, %g]", lo[along], hi[along]);
    tbrf_model *m = powerlaw();
    double *ref = malloc(sizeof(double) * (size_t)n), *got = malloc(sizeof(double) * (size_t)n);
    double *shifted = malloc(sizeof(double) * (size_t)dim * (size_t)n);
    for (int threads = 1; threads <= 2; threads++) {
        tbrf_opts o = opts_lines(128, threads);
        tbrf_plan *plan = NULL;
        tbrf_inflow *in = NULL;
        REQUIRE(tbrf_make_plan(m, dim, lo, hi, 1.0, 11, &o, &plan) == TBRF_OK, , "plan: %s",
                tbrf_plan_message(plan));
        REQUIRE(tbrf_inflow_create(m, dim, lo, hi, 1.0, 11, 3, &o, v, TBRF_DOUBLE, &in) == TBRF_OK, ,
                "inflow: %s", tbrf_inflow_message(in));
        int same = 1;
        for (int step = 0; step <= 10; step++) {
            const double t = step == 10 ? t_end : 13.7 * step;
            for (int64_t i = 0; i < n; i++)
                for (int d = 0; d < dim; d++)
                    shifted[dim * i + d] = xyz[dim * i + d] - v[d] * t;
            REQUIRE(tbrf_set_points(plan, n, shifted) == TBRF_OK, , "set_points: %s",
                    tbrf_plan_message(plan));
            REQUIRE(tbrf_execute(plan, 3, ref) == TBRF_OK, , "execute");
            REQUIRE(tbrf_inflow_fill(in, t, n, xyz, got) == TBRF_OK, , "fill: %s",
                    tbrf_inflow_message(in));
            same &= memcmp(ref, got, sizeof(double) * (size_t)n) == 0;
        }
        CHECK(same, "%dD, %d threads: inflow values bitwise equal to the plan's at x - v t", dim, threads);
        /* fill_grid over the same layer: the same positions, so the same bits */
        const double origin[3] = {dim == 3 ? 0.0 : 300.0, 0.0, dim == 3 ? 300.0 : 0.0};
        const double spacing[3] = {1.0, 1.0, 1.0};
        const int64_t cnt[3] = {dim == 3 ? 24 : 2, 20, dim == 3 ? 2 : 1};
        double *grid = malloc(sizeof(double) * (size_t)n);
        REQUIRE(tbrf_inflow_fill_grid(in, 41.0, origin, spacing, cnt, grid) == TBRF_OK, , "fill_grid: %s",
                tbrf_inflow_message(in));
        int64_t q = 0;
        for (int64_t k = 0; k < cnt[2]; k++)
            for (int64_t j = 0; j < cnt[1]; j++)
                for (int64_t i = 0; i < cnt[0]; i++, q++) {
                    shifted[dim * q] = origin[0] + spacing[0] * (double)i - v[0] * 41.0;
                    shifted[dim * q + 1] = origin[1] + spacing[1] * (double)j - v[1] * 41.0;
                    if (dim == 3)
                        shifted[dim * q + 2] = origin[2] + spacing[2] * (double)k - v[2] * 41.0;
                }
        REQUIRE(tbrf_set_points(plan, n, shifted) == TBRF_OK, , "set_points");
        REQUIRE(tbrf_execute(plan, 3, ref) == TBRF_OK, , "execute");
        CHECK(memcmp(ref, grid, sizeof(double) * (size_t)n) == 0,
              "%dD: fill_grid bitwise equal to the plan at the shifted cells", dim);
        free(grid);
        tbrf_inflow_destroy(in);
        tbrf_destroy(plan);
    }
    free(ref);
    free(got);
    free(shifted);
    free(xyz);
    tbrf_model_destroy(m);
}

/* 2 and 3: the plan's grid over the tube (what tbrf generate --grid
 * writes, domain [0, n-1] per axis at spacing 1) against the sampler at
 * t = 0 on the same cells, in double and in float lines. */
static void test_grid_and_float(void)
{
    const int64_t nx = 16, ny = 12, nz = 600;
    const double lo[3] = {0, 0, 0}, hi[3] = {nx - 1, ny - 1, nz - 1}, v[3] = {0, 0, 1};
    const double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1};
    const int64_t cnt[3] = {nx, ny, nz};
    const int64_t n = nx * ny * nz;
    tbrf_model *m = powerlaw();
    tbrf_opts o = opts_lines(256, 0);
    tbrf_plan *plan = NULL;
    tbrf_inflow *in = NULL, *inf = NULL;
    double *grid = malloc(sizeof(double) * (size_t)n), *dbl = malloc(sizeof(double) * (size_t)n),
           *flt = malloc(sizeof(double) * (size_t)n);
    REQUIRE(tbrf_make_plan(m, 3, lo, hi, 1.0, 5, &o, &plan) == TBRF_OK, , "plan");
    REQUIRE(tbrf_set_grid(plan, origin, spacing, cnt) == TBRF_OK, , "grid");
    REQUIRE(tbrf_execute(plan, 0, grid) == TBRF_OK, , "execute");
    REQUIRE(tbrf_inflow_create(m, 3, lo, hi, 1.0, 5, 0, &o, v, TBRF_DOUBLE, &in) == TBRF_OK, , "inflow");
    REQUIRE(tbrf_inflow_create(m, 3, lo, hi, 1.0, 5, 0, &o, v, TBRF_FLOAT, &inf) == TBRF_OK, , "inflow f");
    REQUIRE(tbrf_inflow_fill_grid(in, 0.0, origin, spacing, cnt, dbl) == TBRF_OK, , "fill");
    REQUIRE(tbrf_inflow_fill_grid(inf, 0.0, origin, spacing, cnt, flt) == TBRF_OK, , "fill f");
    double s2 = 0.0, dg = 0.0, df = 0.0;
    for (int64_t i = 0; i < n; i++) {
        s2 += grid[i] * grid[i];
        dg = fmax(dg, fabs(dbl[i] - grid[i]));
        df = fmax(df, fabs(flt[i] - dbl[i]));
    }
    const double rms = sqrt(s2 / (double)n);
    printf("grid %lldx%lldx%lld: max |inflow - grid| = %.3g rms (double lines), "
           "max |float - double lines| = %.3g rms\n", (long long)nx, (long long)ny, (long long)nz,
           dg / rms, df / rms);
    /* Rounding bound for grid vs points: the line coordinate t (up to
     * M ~ 4900 here) differs by a few ulp(t) = 9e-13 between the paths;
     * each term changes by |dt| |y_{j+1} - y_j| (line steps are below the
     * field's rms) and the L terms add with random signs, times 1/sqrt(L):
     * a few 1e-12 rms. 1e-10 leaves a factor of ten beyond that for the
     * worst of 115 000 cells. */
    CHECK(dg <= 1e-10 * rms, "inflow (double lines) equals the grid to rounding: %.3g rms", dg / rms);
    /* Float lines: each sample rounds by at most 2^-24 of itself, |y| <
     * ~6 rms; the L errors add with random signs, times 1/sqrt(L): about
     * 2^-24 * rms (6e-8), a few times that at the worst cell. 1e-6 rms is
     * well above it and far below anything a wrong window would give. */
    CHECK(df <= 1e-6 * rms && df > 0.0, "float lines agree to float rounding: %.3g rms", df / rms);
    CHECK(2 * tbrf_inflow_line_bytes(inf, 0) == tbrf_inflow_line_bytes(in, 0),
          "float windows take half the bytes of double ones");
    free(grid);
    free(dbl);
    free(flt);
    tbrf_inflow_destroy(in);
    tbrf_inflow_destroy(inf);
    tbrf_destroy(plan);
    tbrf_model_destroy(m);
}

/* 4: the windows of a 32 x 32 x 4000 tube against the extents the
 * directions project: sum over lines of (sum_d |u_d| e_d)/delta + the
 * margin (2 samples each side, plus one for the interpolation's second
 * sample and the floors: at most 7 per line), plus the untouched pad in
 * front of the first window (at most half a plan line, M/2). */
static void test_window_sizes(void)
{
    const double lo[3] = {0, 0, 0}, hi[3] = {31, 31, 3999}, v[3] = {0, 0, 1};
    tbrf_model *m = powerlaw();
    tbrf_opts o = opts_lines(1024, 0);
    tbrf_inflow *in = NULL;
    REQUIRE(tbrf_inflow_create(m, 3, lo, hi, 1.0, 1, 0, &o, v, TBRF_DOUBLE, &in) == TBRF_OK, , "inflow: %s",
            tbrf_inflow_message(in));
    const double win = (double)tbrf_inflow_line_bytes(in, 0) / 8.0;
    const double full = (double)tbrf_inflow_line_bytes(in, 1) / 8.0;
    double *u = malloc(sizeof(double) * 3 * 1024);
    tbrfi_directions_make(3, 1024, 1, 0, u);
    const double delta = 0.25; /* resolution 1 / oversampling 4 */
    double want = 0.0;
    for (int l = 0; l < 1024; l++)
        want += (fabs(u[3 * l]) * 31 + fabs(u[3 * l + 1]) * 31 + fabs(u[3 * l + 2]) * 3999) / delta;
    printf("tube 32x32x4000, 1024 lines: windows %.0f samples, plan %.0f (%.1f%%); projected "
           "extents %.0f\n", win, full, 100.0 * win / full, want);
    CHECK(win >= want && win <= want + 7.0 * 1024 + 0.5 * full / 1024,
          "windows = projected extents + margin: %.0f vs %.0f", win, want);
    /* A plan's line is 2 x diagonal + correlation scale long; the mean of
     * |u_z| over the half sphere is 1/2, so a long tube's windows are
     * about a quarter of it. */
    CHECK(win < 0.3 * full, "windows %.1f%% of the plan's lines (below 30%%)", 100.0 * win / full);
    free(u);
    tbrf_inflow_destroy(in);
    tbrf_model_destroy(m);
}

/* 5: density transforms applied to the field values. */
static void test_density(void)
{
    const double lo[3] = {0, 0, 0}, hi[3] = {20, 20, 200}, v[3] = {0, 0, 1};
    tbrf_model *m = powerlaw();
    tbrf_opts o = opts_lines(64, 0);
    tbrf_inflow *in = NULL;
    REQUIRE(tbrf_inflow_create(m, 3, lo, hi, 1.0, 2, 0, &o, v, TBRF_DOUBLE, &in) == TBRF_OK, , "inflow");
    const double origin[3] = {0, 0, 150}, spacing[3] = {1, 1, 1};
    const int64_t cnt[3] = {21, 21, 2};
    enum { N = 21 * 21 * 2 };
    double d[N], r[N];
    REQUIRE(tbrf_inflow_fill_grid(in, 10.0, origin, spacing, cnt, d) == TBRF_OK, , "field");
    REQUIRE(tbrf_inflow_set_density(in, TBRF_DENSITY_LOGNORMAL, 2.5, 0.8, 0.0) == TBRF_OK, , "set");
    REQUIRE(tbrf_inflow_fill_grid(in, 10.0, origin, spacing, cnt, r) == TBRF_OK, , "lognormal");
    int ok = 1;
    for (int i = 0; i < N; i++)
        ok &= r[i] == 2.5 * exp(0.8 * d[i] - 0.5 * 0.8 * 0.8);
    CHECK(ok, "lognormal density = rho_w exp(sigma delta - sigma^2/2)");
    REQUIRE(tbrf_inflow_set_density(in, TBRF_DENSITY_LINEAR, 2.0, 1.5, 0.1) == TBRF_OK, , "set");
    REQUIRE(tbrf_inflow_fill_grid(in, 10.0, origin, spacing, cnt, r) == TBRF_OK, , "linear");
    int clipped = 0;
    ok = 1;
    for (int i = 0; i < N; i++) {
        ok &= r[i] == 2.0 * fmax(1.0 + 1.5 * d[i], 0.1);
        clipped += 1.0 + 1.5 * d[i] < 0.1;
    }
    CHECK(ok && clipped > 0, "linear density clipped at the floor (%d of %d cells clipped)", clipped, N);
    tbrf_inflow_destroy(in);
    tbrf_model_destroy(m);
}

/* 6: bad input. */
static void test_errors(void)
{
    const double lo[3] = {0, 0, 0}, hi[3] = {10, 10, 50}, v[3] = {0, 0, 1};
    const double nanv[3] = {0, NAN, 1};
    tbrf_model *m = powerlaw();
    tbrf_opts o = opts_lines(32, 0);
    tbrf_inflow *in = NULL;
    double lo2[3], hi2[3];
    CHECK(tbrf_inflow_tube(3, lo, hi, v, -1.0, lo2, hi2) == TBRF_ERR_INVALID, "tube: t_end < 0");
    CHECK(tbrf_inflow_tube(3, hi, lo, v, 1.0, lo2, hi2) == TBRF_ERR_INVALID, "tube: lo > hi");
    CHECK(tbrf_inflow_tube(3, lo, hi, nanv, 1.0, lo2, hi2) == TBRF_ERR_INVALID, "tube: NaN velocity");
    CHECK(tbrf_inflow_tube(4, lo, hi, v, 1.0, lo2, hi2) == TBRF_ERR_INVALID, "tube: dim 4");
    CHECK(tbrf_inflow_tube(3, NULL, hi, v, 1.0, lo2, hi2) == TBRF_ERR_NULL, "tube: NULL");
    CHECK(tbrf_inflow_create(m, 3, lo, hi, 1.0, 1, 0, &o, v, TBRF_DOUBLE, NULL) == TBRF_ERR_NULL, "NULL out");

    CHECK(tbrf_inflow_create(m, 3, lo, hi, 1.0, 1, 0, &o, nanv, TBRF_DOUBLE, &in) == TBRF_ERR_INVALID &&
          strstr(tbrf_inflow_message(in), "velocity"), "NaN velocity: %s", tbrf_inflow_message(in));
    double x[3] = {1, 1, 1}, val = 7.0;
    CHECK(tbrf_inflow_fill(in, 0.0, 1, x, &val) == TBRF_ERR_BAD_PLAN && val == 7.0,
          "a failed sampler answers BAD_PLAN");
    CHECK(tbrf_inflow_line_bytes(in, 0) == 0, "failed sampler: no bytes");
    tbrf_inflow_destroy(in);

    CHECK(tbrf_inflow_create(m, 3, lo, hi, 1.0, 1, 0, &o, v, 7, &in) == TBRF_ERR_INVALID,
          "line precision 7");
    tbrf_inflow_destroy(in);
    tbrf_opts ov = o;
    ov.vector = TBRF_VECTOR_SOLENOIDAL;
    CHECK(tbrf_inflow_create(m, 3, lo, hi, 1.0, 1, 0, &ov, v, TBRF_DOUBLE, &in) == TBRF_ERR_UNSUPPORTED,
          "vector field refused");
    tbrf_inflow_destroy(in);
    tbrf_model *steep = NULL;
    tbrf_model_powerlaw(-3.9, 0.0, 2.0, &steep);
    CHECK(tbrf_inflow_create(steep, 3, lo, hi, 1.0, 1, 0, &o, v, TBRF_DOUBLE, &in) == TBRF_ERR_DIVERGENT &&
          strstr(tbrf_inflow_message(in), "kmin"), "k^-3.9 without kmin: %s", tbrf_inflow_message(in));
    tbrf_inflow_destroy(in);
    tbrf_model_destroy(steep);
    /* a budget too small for the windows: refused before allocating */
    setenv("TBRF_MEMORY_BUDGET", "4K", 1);
    CHECK(tbrf_inflow_create(m, 3, lo, hi, 1.0, 1, 0, &o, v, TBRF_DOUBLE, &in) == TBRF_ERR_SIZE &&
          strstr(tbrf_inflow_message(in), "TBRF_MEMORY_BUDGET"), "budget: %s", tbrf_inflow_message(in));
    tbrf_inflow_destroy(in);
    unsetenv("TBRF_MEMORY_BUDGET");

    REQUIRE(tbrf_inflow_create(m, 3, lo, hi, 1.0, 1, 0, &o, v, TBRF_DOUBLE, &in) == TBRF_OK, , "create");
    double xs[6] = {1, 1, 49, 2, 2, 49}, out[2] = {-1, -1};
    CHECK(tbrf_inflow_fill(in, 60.0, 2, xs, out) == TBRF_ERR_OUT_OF_DOMAIN && out[0] == -1 && out[1] == -1 &&
          strstr(tbrf_inflow_message(in), "ghost cell 0"), "past the tube's end: %s, nothing written",
          tbrf_inflow_message(in));
    CHECK(tbrf_inflow_fill(in, NAN, 2, xs, out) == TBRF_ERR_INVALID && out[0] == -1, "t NaN");
    CHECK(tbrf_inflow_fill(in, 0.0, -1, xs, out) == TBRF_ERR_INVALID, "n < 0");
    CHECK(tbrf_inflow_fill(in, 0.0, 2, NULL, out) == TBRF_ERR_NULL, "NULL xyz");
    CHECK(tbrf_inflow_fill(in, 10.0, 2, xs, out) == TBRF_OK && out[0] != -1, "a good fill after failures");
    CHECK(tbrf_inflow_fill(in, 10.0, 0, NULL, NULL) == TBRF_OK, "no cells");
    const double org[3] = {0, 0, 0}, sp[3] = {1, 1, 1};
    const int64_t zero[3] = {4, 0, 1}, huge[3] = {INT64_C(1) << 40, INT64_C(1) << 40, 1};
    CHECK(tbrf_inflow_fill_grid(in, 0.0, org, sp, zero, out) == TBRF_ERR_SIZE, "grid of 0 cells");
    CHECK(tbrf_inflow_fill_grid(in, 0.0, org, sp, huge, out) == TBRF_ERR_SIZE, "grid of 2^80 cells");
    CHECK(tbrf_inflow_set_density(in, 9, 1, 1, 0) == TBRF_ERR_INVALID, "density kind 9");
    CHECK(tbrf_inflow_set_density(in, TBRF_DENSITY_LOGNORMAL, NAN, 1, 0) == TBRF_ERR_INVALID, "rho_w NaN");
    CHECK(tbrf_inflow_set_density(in, TBRF_DENSITY_LINEAR, 1, 1, 1.0) == TBRF_ERR_INVALID, "floor 1");
    CHECK(tbrf_inflow_set_density(in, TBRF_DENSITY_LOGNORMAL, 1, 100, 0) == TBRF_ERR_INVALID,
          "sigma 100 overflows");
    CHECK(tbrf_inflow_fill(NULL, 0, 0, NULL, NULL) == TBRF_ERR_NULL && tbrf_inflow_message(NULL)[0],
          "NULL sampler");
    tbrf_inflow_destroy(in);
    tbrf_inflow_destroy(NULL);
    tbrf_model_destroy(m);
}

int main(void)
{
    test_bitwise(3);
    test_bitwise(2);
    test_grid_and_float();
    test_window_sizes();
    test_density();
    test_errors();
    return check_report("test_inflow");
}
