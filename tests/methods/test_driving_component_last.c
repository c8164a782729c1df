/* test_driving_component_last.c — the component-last forms of the
 * driver's grid and points (tbrf_driver_grid_component_last,
 * tbrf_driver_points_component_last; doc/driving.md, "Evaluation"), as
 * block codes keep their arrays (Fortran f(nx, ny, nz, 3), x(n, 3)).
 *
 * For each path a grid can take — summed axis by axis (3D, 2D, a lifted
 * 2D box with three components, a 1D box), by the NUFFT (a grid of more
 * than one 65536-cell chunk), over a non-periodic domain — the
 * component-last grid equals the interleaved grid bitwise, component by
 * component (memcmp after the transpose), and the component-last points
 * equal the interleaved points bitwise, at the grid's cells and at
 * scattered positions (also more than one chunk). Bad input: NULL
 * arguments, a NaN coordinate, a point outside a domain, a bad time are
 * refused with the interleaved form's statuses and nothing written. */
#include <string.h>

#include "support/testutil.h"
#include "support/driving.h"

/* out_last[c total + q] against out[nc q + c], bitwise. */
static int same_transposed(const double *inter, const double *last, int64_t total, int nc)
{
    for (int64_t q = 0; q < total; q++)
        for (int c = 0; c < nc; c++)
            if (memcmp(&inter[nc * q + c], &last[c * total + q], sizeof(double)) != 0)
                return 0;
    return 1;
}

static void one_case(const char *what, const tbrf_driver_params *p, const int64_t n[3], int64_t npts)
{
    tbrf_model *m = NULL;
    CHECK(tbrf_model_band(2.0 * M_PI, 4.0 * 2.0 * M_PI, &m) == TBRF_OK, "band");
    tbrf_driver *d = drv_make(m, 9, p);
    tbrf_model_destroy(m);
    if (!d)
        return;
    const int pd = p->dim, nc = p->components ? p->components : p->dim;
    const int64_t total = n[0] * n[1] * n[2];
    const double o[3] = {0.01, 0.02, 0.03}, h[3] = {0.9 / (double)n[0], 0.9 / (double)n[1], 0.9 / (double)n[2]};
    double *a = tu_malloc(sizeof(double) * (size_t)(3 * total)), *b = tu_malloc(sizeof(double) * (size_t)(3 * total));
    const double t = 0.37;
    CHECK(tbrf_driver_grid(d, t, o, h, n, a) == TBRF_OK, "%s: grid: %s", what, tbrf_driver_message(d));
    CHECK(tbrf_driver_grid_component_last(d, t, o, h, n, b) == TBRF_OK, "%s: grid, last: %s", what,
          tbrf_driver_message(d));
    CHECK(same_transposed(a, b, total, nc), "%s: the component-last grid is the grid, bitwise", what);

    /* points: scattered in the box (a non-periodic domain's [0, 1]) */
    tu_rng r = {(uint64_t)npts * 2654435761u + 1};
    double *xi = tu_malloc(sizeof(double) * (size_t)(pd * npts)), *xl = tu_malloc(sizeof(double) * (size_t)(pd * npts));
    double *fi = tu_malloc(sizeof(double) * (size_t)(nc * npts)), *fl = tu_malloc(sizeof(double) * (size_t)(nc * npts));
    for (int64_t i = 0; i < npts; i++)
        for (int c = 0; c < pd; c++)
            xl[c * npts + i] = xi[pd * i + c] = 0.05 + 0.9 * tu_uniform(&r);
    CHECK(tbrf_driver_points(d, t, npts, xi, fi) == TBRF_OK, "%s: points: %s", what, tbrf_driver_message(d));
    CHECK(tbrf_driver_points_component_last(d, t, npts, xl, fl) == TBRF_OK, "%s: points, last: %s", what,
          tbrf_driver_message(d));
    CHECK(same_transposed(fi, fl, npts, nc), "%s: the component-last points are the points, bitwise", what);

    /* refusals, nothing written */
    memset(fl, 0, sizeof(double) * (size_t)(nc * npts));
    CHECK(tbrf_driver_points_component_last(d, NAN, npts, xl, fl) == TBRF_ERR_INVALID, "%s: NaN time", what);
    CHECK(tbrf_driver_points_component_last(d, t, npts, NULL, fl) == TBRF_ERR_NULL, "%s: NULL xyz", what);
    CHECK(tbrf_driver_grid_component_last(d, t, o, h, n, NULL) == TBRF_ERR_NULL, "%s: NULL out", what);
    CHECK(tbrf_driver_points_component_last(d, t, -1, xl, fl) == TBRF_ERR_SIZE, "%s: n < 0", what);
    xl[(pd - 1) * npts + npts / 2] = p->periodic ? NAN : 2.5;
    const int st = tbrf_driver_points_component_last(d, t, npts, xl, fl);
    CHECK(st == (p->periodic ? TBRF_ERR_INVALID : TBRF_ERR_OUT_OF_DOMAIN), "%s: a bad coordinate: %d", what, st);
    CHECK(strstr(tbrf_driver_message(d), p->periodic ? "non-finite" : "outside") != NULL, "%s: message '%s'",
          what, tbrf_driver_message(d));
    int zero = 1;
    for (int64_t i = 0; i < nc * npts; i++)
        zero &= fl[i] == 0.0;
    CHECK(zero, "%s: a refused call writes nothing", what);
    free(a);
    free(b);
    free(xi);
    free(xl);
    free(fi);
    free(fl);
    tbrf_driver_destroy(d);
}

int main(void)
{
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.eval = TBRF_DRIVE_DIRECT;
    one_case("3D, axis by axis", &p, (const int64_t[3]){12, 10, 8}, 700);
    p.interpolate = 1;
    one_case("3D, axis by axis, interpolated", &p, (const int64_t[3]){5, 6, 7}, 300);
    p.interpolate = 0;
    p.eval = TBRF_DRIVE_NUFFT;
    one_case("3D, NUFFT, two chunks", &p, (const int64_t[3]){48, 48, 32}, 70000);
    tbrf_driver_default_params(&p);
    p.dim = 2;
    one_case("2D", &p, (const int64_t[3]){17, 13, 1}, 200);
    p.components = 3;
    one_case("2D, three components", &p, (const int64_t[3]){9, 11, 1}, 200);
    p.dim = 1;
    one_case("1D, three components", &p, (const int64_t[3]){40, 1, 1}, 100);
    tbrf_driver_default_params(&p);
    p.periodic = 0;
    one_case("3D, non-periodic domain", &p, (const int64_t[3]){9, 8, 7}, 300);
    return check_report("test_driving_component_last");
}
