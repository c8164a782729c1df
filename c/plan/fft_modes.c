/* fft_modes.c — tbrf_fft_modes: the FFT method's Fourier modes of a row
 * range, for a caller that transforms them itself (libtbrf_mpi's
 * distributed FFT, c/mpi/fft_mpi.c). The plan's half of it is only the
 * checks: the modes are methods/fft's (tbrfi_fft_method_modes_rows), the
 * same code the serial method fills its whole array with. */
#include "methods/fft/fft.h"
#include "plan/method.h"

int tbrf_fft_modes(tbrf_plan *p, const int64_t n[3], uint64_t realization, int component,
                   int64_t first_row, int64_t rows, double *modes)
{
    if (!p || !n)
        return TBRF_ERR_NULL;
    if (p->broken)
        return p->msg.status = TBRF_ERR_BAD_PLAN;
    tbrfi_message_clear(&p->msg);
    if (p->geom != GEOM_GRID)
        return tbrfi_plan_fail(p, TBRF_ERR_NO_GEOMETRY, "fft_modes: no grid set (call tbrf_set_grid)");
    const int dim = p->v->dim;
    const grid_geom *g = &p->grid;
    int whole = 1;
    for (int d = 0; d < 3; d++)
        whole &= g->start[d] == 0 && g->n[d] == g->full[d] && (d >= dim || g->n[d] == n[d]);
    if (!p->run || p->run->id != TBRF_METHOD_FFT || !whole)
        return tbrfi_plan_fail(p, TBRF_ERR_UNSUPPORTED, "fft_modes: the plan's grid is not a whole grid "
                               "of the FFT method, or not the n given");
    const int vector = p->v->opts.vector;
    if (vector ? component < 0 || component >= dim : component != -1)
        return tbrfi_plan_fail(p, TBRF_ERR_INVALID, "fft_modes: component %d of a %s field", component,
                               vector ? "vector" : "scalar (pass -1)");
    if (vector && realization >= ((uint64_t)1 << 62))
        return tbrfi_plan_fail(p, TBRF_ERR_INVALID, "fft_modes: a vector field's realizations must be "
                               "below 2^62");
    const int64_t total = g->n[1] * (dim == 3 ? g->n[2] : 1);
    if (first_row < 0 || rows < 0 || first_row > total - rows)
        return tbrfi_plan_fail(p, TBRF_ERR_INVALID, "fft_modes: rows %lld + %lld outside the %lld rows",
                               (long long)first_row, (long long)rows, (long long)total);
    if (rows > 0 && !modes)
        return tbrfi_plan_fail(p, TBRF_ERR_NULL, "fft_modes: modes is NULL");
    if (rows == 0)
        return TBRF_OK;
    int st = tbrfi_fft_method_modes_rows(p->v->model, dim, g, p->v->seed, realization, p->v->opts.threads,
                                         p->v->zeta, component, 0, first_row, rows,
                                         (fftw_complex *)modes);
    if (st)
        return tbrfi_plan_fail(p, st, "fft_modes: no memory for the mode tables");
    return TBRF_OK;
}
