/* windows_cpu.c — the CPU backend's projection of windowed lines
 * (backend.h, window_lines: the inflow sampler's), line by line through
 * the SIMD point kernel on each line's window: the same bits as
 * tbrf_execute's for double windows (apps/inflow/inflow.c ran this loop
 * itself before the backend table carried it, bit for bit). */
#include <math.h>
#include <stdint.h>

#include "backends/backend.h"
#include "backends/cpu/cpu_kernels.h"
#include "tbrf.h"

/* Float windows: the samples a tile can read (from its bounding box
 * [bmin, bmax] relative to the centre) converted to double into scratch,
 * then the SIMD point kernel on them with the offset shifted by the first
 * sample converted. t is then computed relative to that sample, so it may
 * round differently from the double path's in the last bit: float windows
 * are not bitwise the plan's anyway (their samples are rounded). */
static void add_float_line(const window_lines *w, int l, cpu_points_fn kernel, const double bmin[3],
                           const double bmax[3], int64_t npad, const double *dx, const double *dy,
                           const double *dz, double *scratch, double *acc)
{
    const double *a = w->axis + 3 * (size_t)l;
    double tmin = w->off[l], tmax = w->off[l];
    for (int d = 0; d < 3; d++) {
        tmin += fmin(a[d] * bmin[d], a[d] * bmax[d]);
        tmax += fmax(a[d] * bmin[d], a[d] * bmax[d]);
    }
    const int64_t first = w->first[l], last = first + w->count[l] - 1;
    int64_t j0 = (int64_t)floor(tmin) - w->margin, j1 = (int64_t)floor(tmax) + 1 + w->margin;
    j0 = j0 < first ? first : j0;
    j1 = j1 > last ? last : j1;
    const float *y = (const float *)w->samples + w->base[l];
    for (int64_t j = j0; j <= j1; j++)
        scratch[j - j0] = (double)y[j];
    const double shift = w->axis[3 * (size_t)w->L + l];
    kernel(scratch, 0, a, w->offset - (double)j0, &shift, 1, npad, dx, dy, dz, acc);
}

int tbrfi_windows_cpu_project(const window_lines *w, int64_t n, const double *dx, const double *dy,
                              const double *dz, double *scratch, double *acc)
{
    const cpu_points_fn kernel = tbrfi_cpu_points_kernel(tbrfi_cpu_isa());
    const double *shift = w->axis + 3 * (size_t)w->L;
    double bmin[3] = {INFINITY, INFINITY, INFINITY}, bmax[3] = {-INFINITY, -INFINITY, -INFINITY};
    if (w->precision == TBRF_FLOAT)
        for (int64_t i = 0; i < n; i++) {
            bmin[0] = fmin(bmin[0], dx[i]), bmax[0] = fmax(bmax[0], dx[i]);
            bmin[1] = fmin(bmin[1], dy[i]), bmax[1] = fmax(bmax[1], dy[i]);
            bmin[2] = fmin(bmin[2], dz[i]), bmax[2] = fmax(bmax[2], dz[i]);
        }
    /* Line by line in order 0..L-1, through the point kernel (the same
     * bits as tbrf_execute's) on each line's window. */
    for (int l = 0; l < w->L; l++) {
        const double *a = w->axis + 3 * (size_t)l;
        if (w->precision == TBRF_FLOAT)
            add_float_line(w, l, kernel, bmin, bmax, n, dx, dy, dz, scratch, acc);
        else
            kernel((const double *)w->samples + w->base[l], 0, a, w->offset, shift + l, 1, n, dx, dy, dz,
                   acc);
    }
    return TBRF_OK;
}
