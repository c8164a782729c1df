/* lines_default.c — how many turning-bands lines a plan draws when
 * opts.lines is 0 (tbrf_default_lines), and how far in k a grid's
 * spectrum is isotropic with L lines (tbrf_grid_isotropy). One rule for
 * every face: the command, Python and Fortran leave lines at 0 and the
 * plan applies it once the geometry is known, so the same parameters make
 * the same field whichever face asked.
 *
 * Each line puts its power along one direction, so a shell of radius k of
 * the grid's spectrum holds L spikes; once their spacing there exceeds
 * the estimator's resolution (about two fundamentals with tbrf's Hann
 * window) the shell power scatters more than a Gaussian field's. Measured
 * with bench/bench_isotropy (doc/method.md, "How many lines";
 * doc/statistics.md): the excess of the shell statistic p2/p^2 over the
 * FFT method's (an exactly isotropic Gaussian field, same spectrum and
 * modes) stays below 2% up to
 *   3D: k_iso = 0.63 sqrt(L) kf (0.626-0.672 over 64^3 and 128^3 grids
 *       with 256, 1024 and 4096 lines; independent of the grid size),
 *   2D: k_iso = 0.57 L kf (0.571-0.626 on a 512^2 grid with 64, 128 and
 *       256 lines; the 2D lines are evenly pi/L apart in angle),
 * with kf = 2 pi / (the grid's longest side). */
#include <math.h>

#include "engine/engine.h"

#define ISO_C3 0.63
#define ISO_C2 0.57

int tbrf_grid_isotropy(int dim, const int64_t n[3], const double spacing[3], int32_t lines,
                       double *kf, double *knyq, double *kiso, double *need)
{
    if (!n || !spacing || !kf || !knyq || !kiso || !need)
        return TBRF_ERR_NULL;
    if (dim != 2 && dim != 3)
        return TBRF_ERR_INVALID;
    const double pi = 3.14159265358979323846;
    double side = 0.0, hmax = 0.0;
    for (int c = 0; c < dim; c++) {
        const double s = (double)n[c] * spacing[c];
        side = s > side ? s : side;
        hmax = spacing[c] > hmax ? spacing[c] : hmax;
    }
    *kf = 2.0 * pi / side;
    *knyq = pi / hmax;
    const double r = *knyq / *kf; /* the Nyquist in fundamentals */
    if (dim == 3) {
        *kiso = ISO_C3 * sqrt((double)lines) * *kf;
        *need = ceil((r / ISO_C3) * (r / ISO_C3));
    } else {
        *kiso = ISO_C2 * (double)lines * *kf;
        *need = ceil(r / ISO_C2);
    }
    return TBRF_OK;
}

/* The isotropy rule alone: the lines whose limit is the grid's Nyquist,
 * within [TBRF_DEFAULT_LINES_MIN, TBRF_DEFAULT_LINES_MAX]. */
static int isotropy_lines(int dim, const int64_t n[3], const double spacing[3])
{
    double kf, knyq, kiso, need;
    tbrf_grid_isotropy(dim, n, spacing, TBRF_DEFAULT_LINES_MIN, &kf, &knyq, &kiso, &need);
    if (!(need > TBRF_DEFAULT_LINES_MIN)) /* NaN too: the floor */
        return TBRF_DEFAULT_LINES_MIN;
    return need < TBRF_DEFAULT_LINES_MAX ? (int)need : TBRF_DEFAULT_LINES_MAX;
}

int tbrf_default_lines(int dim, const double lo[3], const double hi[3], double resolution,
                       const int64_t n[3], const double spacing[3], const tbrf_opts *opts,
                       int32_t *lines)
{
    if (!lines)
        return TBRF_ERR_NULL;
    *lines = 0;
    if (!lo || !hi)
        return TBRF_ERR_NULL;
    if (dim != 2 && dim != 3)
        return TBRF_ERR_INVALID;
    tbrf_opts o;
    tbrf_default_opts(&o);
    if (opts)
        o = *opts;
    if (o.lines > 0) { /* given: the plan draws those */
        *lines = o.lines;
        return TBRF_OK;
    }
    if (!n || !spacing) { /* points: no grid's Nyquist to reach */
        *lines = TBRF_DEFAULT_LINES_MIN;
        return TBRF_OK;
    }
    int L = isotropy_lines(dim, n, spacing);
    /* The lines' memory, 8 bytes x samples each (2 x diagonal x
     * oversampling x line length factor / resolution, as the command's
     * budget check estimates them), 1 + dim sets for a vector field,
     * within a fixed bound rather than the machine's memory, so the same
     * parameters make the same field everywhere. */
    double diag2 = 0.0;
    for (int c = 0; c < dim; c++)
        diag2 += (hi[c] - lo[c]) * (hi[c] - lo[c]);
    const int f = o.line_length_factor > 1 ? o.line_length_factor : 1;
    const double samples = 2.0 * sqrt(diag2) * o.oversampling * f / resolution;
    const double per_line = 8.0 * samples * (o.vector != TBRF_SCALAR ? 1 + dim : 1);
    const double fit = floor(TBRF_DEFAULT_LINES_BYTES / per_line);
    if (fit < L) /* NaN: the rule's */
        L = fit > TBRF_DEFAULT_LINES_MIN ? (int)fit : TBRF_DEFAULT_LINES_MIN;
    *lines = L;
    return TBRF_OK;
}
