/* domain_default.c — the domain and resolution a plan takes when the
 * caller gives none (tbrf_grid_default_domain, tbrf_points_bounds,
 * tbrf_points_resolution). One rule for every face: `tbrf generate`,
 * Python's Field and Fortran ask the library rather than each computing
 * its own, so the same geometry makes the same plan whichever face
 * asked, bit for bit. */
#include <math.h>

#include "engine/engine.h"

/* Below E/8192 a tight cluster in a wide box would ask for lines of
 * absurd length (E/8192 is already about 1 GiB of lines); above E a lone
 * point or two would resolve less than their own box. */
#define POINTS_RESOLUTION_SPAN 8192.0

int tbrf_grid_default_domain(int dim, const double origin[3], const double spacing[3],
                             const int64_t n[3], double lo[3], double hi[3], double *resolution)
{
    if (!origin || !spacing || !n || !lo || !hi || !resolution)
        return TBRF_ERR_NULL;
    *resolution = 0.0;
    if (dim != 2 && dim != 3)
        return TBRF_ERR_INVALID;
    double l[3] = {0, 0, 0}, h[3] = {0, 0, 0}, finest = INFINITY;
    for (int c = 0; c < dim; c++) {
        if (n[c] < 1)
            return TBRF_ERR_SIZE;
        if (!isfinite(origin[c]) || !isfinite(spacing[c]) || !(spacing[c] > 0.0))
            return TBRF_ERR_INVALID;
        /* the last cell as tbrf_set_grid places it: the grid then lies in
         * the domain bit for bit */
        l[c] = origin[c];
        h[c] = origin[c] + spacing[c] * (double)(n[c] - 1);
        if (!isfinite(h[c]))
            return TBRF_ERR_INVALID;
        finest = spacing[c] < finest ? spacing[c] : finest;
    }
    for (int c = 0; c < 3; c++) {
        lo[c] = l[c];
        hi[c] = h[c];
    }
    *resolution = finest;
    return TBRF_OK;
}

int tbrf_points_bounds(int dim, int64_t n, const double *xyz, double lo[3], double hi[3],
                       int64_t *bad)
{
    if (bad)
        *bad = -1;
    if (!lo || !hi || (!xyz && n > 0))
        return TBRF_ERR_NULL;
    if (dim != 2 && dim != 3)
        return TBRF_ERR_INVALID;
    if (n < 0)
        return TBRF_ERR_SIZE;
    double l[3] = {lo[0], lo[1], lo[2]}, h[3] = {hi[0], hi[1], hi[2]};
    for (int64_t i = 0; i < n; i++)
        for (int c = 0; c < dim; c++) {
            const double x = xyz[(size_t)dim * (size_t)i + (size_t)c];
            if (!isfinite(x)) {
                if (bad)
                    *bad = i;
                return TBRF_ERR_INVALID;
            }
            l[c] = x < l[c] ? x : l[c];
            h[c] = x > h[c] ? x : h[c];
        }
    for (int c = 0; c < dim; c++) {
        lo[c] = l[c];
        hi[c] = h[c];
    }
    return TBRF_OK;
}

int tbrf_points_resolution(int dim, int64_t npoints, const double lo[3], const double hi[3],
                           double *resolution)
{
    if (!resolution)
        return TBRF_ERR_NULL;
    *resolution = 0.0;
    if (!lo || !hi)
        return TBRF_ERR_NULL;
    if (dim != 2 && dim != 3)
        return TBRF_ERR_INVALID;
    if (npoints < 0)
        return TBRF_ERR_SIZE;
    double ext_max = 0.0, vol = 1.0;
    int spanned = 0;
    for (int c = 0; c < dim; c++) {
        const double e = hi[c] - lo[c];
        /* NaN and infinite bounds, the empty box of no points, and finite
         * bounds whose distance overflows */
        if (!isfinite(e) || e < 0.0)
            return TBRF_ERR_INVALID;
        if (e > 0.0) {
            vol *= e;
            spanned++;
        }
        ext_max = e > ext_max ? e : ext_max;
    }
    if (spanned == 0) { /* one position: no length scale but the unit */
        *resolution = 1.0;
        return TBRF_OK;
    }
    double res = pow(vol / (double)(npoints > 0 ? npoints : 1), 1.0 / spanned);
    if (res < ext_max / POINTS_RESOLUTION_SPAN)
        res = ext_max / POINTS_RESOLUTION_SPAN;
    if (res > ext_max)
        res = ext_max;
    *resolution = res;
    return TBRF_OK;
}

/* The most modes a periodic plan takes along an axis (tbrf_make_periodic_plan). */
#define PERIODIC_MAX_MODES 1048576.0

int tbrf_periodic_points_resolution(int dim, const double length[3], int64_t npoints,
                                    double *resolution)
{
    if (!resolution)
        return TBRF_ERR_NULL;
    *resolution = 0.0;
    if (!length)
        return TBRF_ERR_NULL;
    if (dim != 2 && dim != 3)
        return TBRF_ERR_INVALID;
    if (npoints < 0)
        return TBRF_ERR_SIZE;
    double vol = 1.0;
    for (int c = 0; c < dim; c++) {
        if (!isfinite(length[c]) || !(length[c] > 0.0))
            return TBRF_ERR_INVALID;
        vol *= length[c];
    }
    /* every axis of a box has its period: no clamp is needed, the modes'
     * own bound (2^20 an axis) refuses a crowd too dense for it */
    const double res = pow(vol / (double)(npoints > 0 ? npoints : 1), 1.0 / dim);
    if (!isfinite(res) || !(res > 0.0))
        return TBRF_ERR_INVALID;
    *resolution = res;
    return TBRF_OK;
}

int tbrf_periodic_default_modes(int dim, const double length[3], const double spacing[3],
                                int64_t n[3])
{
    if (!length || !spacing || !n)
        return TBRF_ERR_NULL;
    if (dim != 2 && dim != 3)
        return TBRF_ERR_INVALID;
    int64_t m[3] = {1, 1, 1};
    for (int c = 0; c < dim; c++) {
        if (!isfinite(length[c]) || !(length[c] > 0.0) || !isfinite(spacing[c]) ||
            !(spacing[c] > 0.0))
            return TBRF_ERR_INVALID;
        const double k = floor(length[c] / spacing[c] + 0.5); /* nearest, halves up */
        if (!(k >= 1.0 && k <= PERIODIC_MAX_MODES))
            return TBRF_ERR_SIZE;
        m[c] = (int64_t)k;
    }
    for (int c = 0; c < 3; c++)
        n[c] = m[c];
    return TBRF_OK;
}
