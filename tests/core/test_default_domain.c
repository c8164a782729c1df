/* test_default_domain.c — the library's default domain and resolution
 * (tbrf_grid_default_domain, tbrf_points_bounds, tbrf_points_resolution),
 * which `tbrf generate`, Python and Fortran take when the caller gives
 * none: a grid's first and last cell (the last as tbrf_set_grid places
 * it) and its finest spacing; the points'
 * box, the same whether taken at once or piece by piece, with a NaN or
 * infinite point refused by index; the mean spacing over the spanned axes
 * with its clamp; a periodic box's points resolution (no clamp) and
 * modes; a plan made from the defaults taking its geometry; and every
 * status. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "tbrf.h"

static void grid(const tbrf_model *m)
{
    const double o[3] = {-1.25, 0.5, 3.0}, h[3] = {0.1, 0.3, 0.07};
    const int64_t n[3] = {37, 11, 29};
    double lo[3] = {9, 9, 9}, hi[3] = {9, 9, 9}, res = -1;
    REQUIRE(tbrf_grid_default_domain(3, o, h, n, lo, hi, &res) == TBRF_OK, , "3D grid");
    for (int c = 0; c < 3; c++)
        CHECK(lo[c] == o[c] && hi[c] == o[c] + h[c] * (double)(n[c] - 1),
              "axis %d: [%.17g, %.17g]", c, lo[c], hi[c]);
    CHECK(res == 0.07, "the finest spacing: %.17g", res);
    /* the plan of those defaults takes the grid */
    tbrf_plan *p = NULL;
    CHECK(tbrf_make_plan(m, 3, lo, hi, res, 1, NULL, &p) == TBRF_OK &&
          tbrf_set_grid(p, o, h, n) == TBRF_OK, "the default domain holds the grid: %s",
          tbrf_plan_message(p));
    tbrf_destroy(p);
    /* 2D: the third entries are 0 whatever they held */
    const int64_t n2[3] = {5, 8, 1};
    lo[2] = hi[2] = 7;
    CHECK(tbrf_grid_default_domain(2, o, h, n2, lo, hi, &res) == TBRF_OK && lo[2] == 0 &&
          hi[2] == 0 && res == 0.1 && hi[1] == 0.5 + 0.3 * 7.0, "2D: [%g, %g] res %g", lo[1],
          hi[1], res);
    /* statuses: lo, hi unchanged, the resolution 0 */
    const double bad_h[3] = {0.1, 0.0, 0.1}, nan_o[3] = {NAN, 0, 0}, big_h[3] = {1e308, 1, 1};
    const int64_t n0[3] = {4, 0, 4}, nbig[3] = {1000, 2, 2};
    double l2[3] = {5, 5, 5}, h2[3] = {6, 6, 6};
    CHECK(tbrf_grid_default_domain(3, o, bad_h, n, l2, h2, &res) == TBRF_ERR_INVALID && res == 0 &&
          l2[0] == 5 && h2[0] == 6, "spacing 0");
    CHECK(tbrf_grid_default_domain(3, nan_o, h, n, l2, h2, &res) == TBRF_ERR_INVALID, "NaN origin");
    CHECK(tbrf_grid_default_domain(3, o, big_h, nbig, l2, h2, &res) == TBRF_ERR_INVALID,
          "a last cell beyond double precision");
    CHECK(tbrf_grid_default_domain(3, o, h, n0, l2, h2, &res) == TBRF_ERR_SIZE, "a count of 0");
    CHECK(tbrf_grid_default_domain(4, o, h, n, l2, h2, &res) == TBRF_ERR_INVALID, "dim 4");
    CHECK(tbrf_grid_default_domain(3, o, h, n, l2, NULL, &res) == TBRF_ERR_NULL, "NULL hi");
    CHECK(tbrf_grid_default_domain(3, o, h, n, l2, h2, NULL) == TBRF_ERR_NULL, "NULL resolution");
}

static void empty_box(double lo[3], double hi[3])
{
    for (int c = 0; c < 3; c++) {
        lo[c] = INFINITY;
        hi[c] = -INFINITY;
    }
}

static void bounds(void)
{
    enum { N = 1001 };
    double *xyz = malloc(3 * N * sizeof *xyz);
    REQUIRE(xyz, , "memory");
    uint64_t s = 12345;
    for (int i = 0; i < 3 * N; i++) { /* a fixed LCG: any spread of numbers */
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        xyz[i] = (double)(s >> 11) * 0x1p-53 * 40.0 - 15.0;
    }
    double lo[3], hi[3], want_lo[3], want_hi[3];
    int64_t bad = 99;
    empty_box(lo, hi);
    REQUIRE(tbrf_points_bounds(3, N, xyz, lo, hi, &bad) == TBRF_OK && bad == -1, , "bounds");
    for (int c = 0; c < 3; c++) {
        want_lo[c] = INFINITY;
        want_hi[c] = -INFINITY;
        for (int i = 0; i < N; i++) {
            want_lo[c] = fmin(want_lo[c], xyz[3 * i + c]);
            want_hi[c] = fmax(want_hi[c], xyz[3 * i + c]);
        }
        CHECK(lo[c] == want_lo[c] && hi[c] == want_hi[c], "axis %d: [%g, %g]", c, lo[c], hi[c]);
    }
    /* in pieces (as the command reads a large file): the same box */
    double plo[3], phi[3];
    empty_box(plo, phi);
    const int64_t cut[] = {0, 1, 300, 300, 777, N};
    for (int k = 0; k + 1 < (int)(sizeof cut / sizeof cut[0]); k++)
        CHECK(tbrf_points_bounds(3, cut[k + 1] - cut[k], xyz + 3 * cut[k], plo, phi, NULL) ==
                  TBRF_OK, "piece %d", k);
    CHECK(memcmp(plo, lo, sizeof lo) == 0 && memcmp(phi, hi, sizeof hi) == 0, "pieces: one box");
    /* 2D reads two coordinates a point and leaves [2] alone */
    double lo2[3] = {INFINITY, INFINITY, 42}, hi2[3] = {-INFINITY, -INFINITY, 43};
    const double p2[6] = {1, -2, 3, 5, -1, 0};
    CHECK(tbrf_points_bounds(2, 3, p2, lo2, hi2, NULL) == TBRF_OK && lo2[0] == -1 && hi2[0] == 3 &&
          lo2[1] == -2 && hi2[1] == 5 && lo2[2] == 42 && hi2[2] == 43, "2D");
    /* a NaN or infinite coordinate: refused by index, the box unchanged */
    xyz[3 * 517 + 2] = NAN;
    double keep_lo[3], keep_hi[3];
    memcpy(keep_lo, lo, sizeof lo);
    memcpy(keep_hi, hi, sizeof hi);
    CHECK(tbrf_points_bounds(3, N, xyz, lo, hi, &bad) == TBRF_ERR_INVALID && bad == 517 &&
          memcmp(lo, keep_lo, sizeof lo) == 0 && memcmp(hi, keep_hi, sizeof hi) == 0,
          "NaN at point 517: bad %lld", (long long)bad);
    xyz[3 * 40] = -INFINITY;
    CHECK(tbrf_points_bounds(3, N, xyz, lo, hi, &bad) == TBRF_ERR_INVALID && bad == 40,
          "-inf at point 40: bad %lld", (long long)bad);
    CHECK(tbrf_points_bounds(3, 40, xyz, lo, hi, &bad) == TBRF_OK && bad == -1,
          "the points before it are fine");
    /* statuses */
    CHECK(tbrf_points_bounds(3, 0, NULL, lo, hi, &bad) == TBRF_OK, "no points, no array");
    CHECK(tbrf_points_bounds(3, 2, NULL, lo, hi, &bad) == TBRF_ERR_NULL, "NULL xyz");
    CHECK(tbrf_points_bounds(3, 2, xyz, NULL, hi, &bad) == TBRF_ERR_NULL, "NULL lo");
    CHECK(tbrf_points_bounds(3, -1, xyz, lo, hi, &bad) == TBRF_ERR_SIZE, "n < 0");
    CHECK(tbrf_points_bounds(1, 2, xyz, lo, hi, &bad) == TBRF_ERR_INVALID && bad == -1, "dim 1");
    free(xyz);
}

static double res_of(int dim, int64_t n, double x1, double y1, double z1)
{
    const double lo[3] = {0, 0, 0}, hi[3] = {x1, y1, z1};
    double r = -1;
    CHECK(tbrf_points_resolution(dim, n, lo, hi, &r) == TBRF_OK, "resolution of %lld in "
          "[0, %g] x [0, %g] x [0, %g]", (long long)n, x1, y1, z1);
    return r;
}

static void resolution(void)
{
    /* the mean spacing (V / N)^(1/s) */
    CHECK_NEAR(res_of(3, 1000, 10, 10, 10), 1.0, 1e-15, "1000 points in 10^3");
    CHECK_NEAR(res_of(3, 8, 4, 2, 1), 1.0, 1e-15, "8 points in 4 x 2 x 1");
    CHECK_NEAR(res_of(2, 50, 5, 10, 99), 1.0, 1e-15, "2D ignores z");
    /* only the spanned axes: a flat set in 3D, a line of points */
    CHECK_NEAR(res_of(3, 200, 20, 10, 0), 1.0, 1e-15, "a plane of points");
    CHECK_NEAR(res_of(3, 10, 0, 5, 0), 0.5, 1e-15, "a line of points");
    CHECK(res_of(3, 7, 0, 0, 0) == 1.0 && res_of(2, 1, 0, 0, 0) == 1.0, "one position: 1");
    /* no points count as one */
    CHECK(res_of(2, 0, 3, 3, 0) == res_of(2, 1, 3, 3, 0), "0 points: as one");
    /* the clamp: a crowd gets E / 8192, not less */
    CHECK(res_of(3, 1000000000000000LL, 8192, 8192, 8192) == 1.0, "a crowd: E / 8192 = 1");
    CHECK(res_of(2, 1000000000000LL, 8192, 1, 0) == 1.0, "a crowd in 2D: E / 8192 = 1");
    double r = res_of(3, 2, 3, 3, 3);
    CHECK(r <= 3 && r > 2.3, "two points: %.17g, at most the extent", r);
    /* statuses: the resolution 0 */
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, inv[3] = {1, -1, 1};
    const double nan_hi[3] = {1, NAN, 1}, wide_lo[3] = {-1e308, 0, 0}, wide_hi[3] = {1e308, 1, 1};
    double elo[3], ehi[3];
    empty_box(elo, ehi);
    CHECK(tbrf_points_resolution(3, 5, lo, inv, &r) == TBRF_ERR_INVALID && r == 0, "hi < lo");
    CHECK(tbrf_points_resolution(3, 0, elo, ehi, &r) == TBRF_ERR_INVALID, "the empty box");
    CHECK(tbrf_points_resolution(3, 5, lo, nan_hi, &r) == TBRF_ERR_INVALID, "NaN bound");
    CHECK(tbrf_points_resolution(3, 5, wide_lo, wide_hi, &r) == TBRF_ERR_INVALID,
          "an extent beyond double precision");
    CHECK(tbrf_points_resolution(3, -2, lo, hi, &r) == TBRF_ERR_SIZE, "npoints < 0");
    CHECK(tbrf_points_resolution(4, 5, lo, hi, &r) == TBRF_ERR_INVALID, "dim 4");
    CHECK(tbrf_points_resolution(3, 5, NULL, hi, &r) == TBRF_ERR_NULL && r == 0, "NULL lo");
    CHECK(tbrf_points_resolution(3, 5, lo, hi, NULL) == TBRF_ERR_NULL, "NULL resolution");
}

/* A periodic box's defaults: the points' mean spacing over the box, the
 * modes nearest the lattice, and a plan of them running the FFT method on
 * the grid that is the lattice. */
static void periodic(const tbrf_model *m)
{
    const double len[3] = {16, 8, 4};
    double r = -1;
    CHECK(tbrf_periodic_points_resolution(3, len, 64, &r) == TBRF_OK && r == 2.0,
          "64 points in 16 x 8 x 4: %.17g", r);
    CHECK(tbrf_periodic_points_resolution(2, len, 0, &r) == TBRF_OK && fabs(r - sqrt(128.0)) <
          1e-13, "no points count as one: %.17g", r);
    /* no clamp: a crowd gets its mean spacing (E / 8192 would be 1) */
    const double wide[3] = {8192, 8192, 1};
    CHECK(tbrf_periodic_points_resolution(2, wide, 100000000LL, &r) == TBRF_OK &&
          fabs(r - 0.8192) < 1e-15, "a crowd: %.17g", r);
    const int64_t keep[3] = {7, 7, 7};
    int64_t n[3] = {7, 7, 7};
    const double h[3] = {0.5, 0.3, 0.5}, r2[3] = {2, 2, 2};
    CHECK(tbrf_periodic_default_modes(3, len, h, n) == TBRF_OK && n[0] == 32 && n[1] == 27 &&
          n[2] == 8, "nearest modes: %lld %lld %lld (8 / 0.3 = 26.7)", (long long)n[0],
          (long long)n[1], (long long)n[2]);
    const double halves[3] = {2.5, 3.5, 1}, one[3] = {1, 1, 1};
    CHECK(tbrf_periodic_default_modes(2, halves, one, n) == TBRF_OK && n[0] == 3 && n[1] == 4 &&
          n[2] == 1, "halves round up, 2D's n[2] 1: %lld %lld %lld", (long long)n[0],
          (long long)n[1], (long long)n[2]);
    /* statuses: n unchanged */
    const double tiny[3] = {1e-9, 1, 1}, zero[3] = {0, 1, 1}, nan_l[3] = {NAN, 1, 1};
    memcpy(n, keep, sizeof n);
    CHECK(tbrf_periodic_default_modes(3, len, tiny, n) == TBRF_ERR_SIZE &&
          memcmp(n, keep, sizeof n) == 0, "above 2^20 modes");
    const double small[3] = {0.4, 1, 1};
    CHECK(tbrf_periodic_default_modes(3, small, one, n) == TBRF_ERR_SIZE, "below one mode");
    CHECK(tbrf_periodic_default_modes(3, len, zero, n) == TBRF_ERR_INVALID, "spacing 0");
    CHECK(tbrf_periodic_default_modes(3, nan_l, one, n) == TBRF_ERR_INVALID, "NaN length");
    CHECK(tbrf_periodic_default_modes(1, len, one, n) == TBRF_ERR_INVALID, "dim 1");
    CHECK(tbrf_periodic_default_modes(3, len, NULL, n) == TBRF_ERR_NULL, "NULL spacing");
    CHECK(tbrf_periodic_points_resolution(3, zero, 5, &r) == TBRF_ERR_INVALID && r == 0,
          "a length of 0");
    CHECK(tbrf_periodic_points_resolution(3, len, -1, &r) == TBRF_ERR_SIZE, "npoints < 0");
    CHECK(tbrf_periodic_points_resolution(3, NULL, 5, &r) == TBRF_ERR_NULL, "NULL length");
    CHECK(tbrf_periodic_points_resolution(3, len, 5, NULL) == TBRF_ERR_NULL, "NULL resolution");
    /* the modes of a grid's spacing: that grid is the lattice, the FFT method */
    const double o[3] = {0, 0, 0}, lat[3] = {16, 16, 16};
    const int64_t cells[3] = {32, 32, 32};
    tbrf_plan *p = NULL;
    CHECK(tbrf_periodic_default_modes(3, lat, r2, n) == TBRF_OK && n[0] == 8, "16 / 2");
    const double hg[3] = {0.5, 0.5, 0.5};
    CHECK(tbrf_periodic_default_modes(3, lat, hg, n) == TBRF_OK &&
              tbrf_make_periodic_plan(m, 3, o, lat, n, 1, NULL, &p) == TBRF_OK &&
              tbrf_set_grid(p, o, hg, cells) == TBRF_OK &&
              tbrf_plan_method(p) == TBRF_METHOD_FFT,
          "the default modes of the grid's spacing run the FFT method: %s", tbrf_plan_message(p));
    tbrf_destroy(p);
}

/* A plan of the points' defaults takes them, their box's corners included. */
static void points_plan(const tbrf_model *m)
{
    const double xyz[12] = {0.5, 2, -1, 4, 2.5, 0, 1, 3, 2, 4, 2, -1};
    double lo[3], hi[3], res;
    empty_box(lo, hi);
    REQUIRE(tbrf_points_bounds(3, 4, xyz, lo, hi, NULL) == TBRF_OK &&
            tbrf_points_resolution(3, 4, lo, hi, &res) == TBRF_OK, , "points' defaults");
    CHECK_NEAR(res, cbrt(3.5 * 1.0 * 3.0 / 4.0), 1e-15, "the mean spacing");
    tbrf_plan *p = NULL;
    double v[4];
    CHECK(tbrf_make_plan(m, 3, lo, hi, res, 1, NULL, &p) == TBRF_OK &&
          tbrf_set_points(p, 4, xyz) == TBRF_OK && tbrf_execute(p, 0, v) == TBRF_OK,
          "the plan of the default domain takes the points: %s", tbrf_plan_message(p));
    tbrf_destroy(p);
}

int main(void)
{
    tbrf_model *m = NULL;
    REQUIRE(tbrf_model_gaussian(3.0, &m) == TBRF_OK, 1, "gaussian model");
    grid(m);
    bounds();
    resolution();
    points_plan(m);
    periodic(m);
    tbrf_model_destroy(m);
    return check_report("test_default_domain");
}
