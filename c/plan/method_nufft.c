/* method_nufft.c — the periodic plan's methods: the FFT method on the box
 * lattice, and the type-2 NUFFT (methods/nufft) everywhere else, from the
 * fine grids of up to PERIODIC_SLOTS realizations. */
#include <stdlib.h>

#include "methods/fft/fft.h"
#include "plan/method.h"

int tbrfi_nufft_method_setup(tbrf_plan *p, const double origin[3], const double length[3],
                             const int64_t n[3])
{
    const int dim = p->v->dim;
    for (int d = 0; d < 3; d++) {
        const int used = d < dim;
        p->box.origin[d] = used ? origin[d] : 0.0;
        p->box.spacing[d] = used ? length[d] / (double)n[d] : 1.0;
        p->box.n[d] = used ? n[d] : 1;
    }
    /* the period the FFT method's modes have, n (length/n), which may
     * differ from length in the last bit */
    double period[3];
    for (int d = 0; d < 3; d++)
        period[d] = (double)p->box.n[d] * p->box.spacing[d];
    const tbrf_opts *o = &p->v->opts;
    double eps = o->accuracy > 0 ? o->accuracy : o->precision == TBRF_FLOAT ? 1e-6 : 1e-12;
    tbrfi_nufft_setup(&p->nu, dim, p->box.n, p->box.origin, period, eps);
    const double fine = tbrfi_nufft_fine_bytes(&p->nu) * (double)p->v->ncomp;
    const double coarse = tbrfi_fft_method_bytes(dim, &p->box);
    const double budget = tbrfi_engine_memory_budget();
    if (!(budget > 0.0))
        return tbrfi_plan_fail(p, TBRF_ERR_INVALID, "TBRF_MEMORY_BUDGET='%.40s' is not a size in "
                               "bytes (such as 4G or 512M)", getenv("TBRF_MEMORY_BUDGET"));
    if (fine + coarse > budget)
        return tbrfi_plan_fail(p, TBRF_ERR_SIZE, "periodic box %lld x %lld x %lld: the oversampled "
                               "grid%s (%lld x %lld x %lld) would need %.3g MiB, more than the memory "
                               "budget of %.3g MiB (set TBRF_MEMORY_BUDGET to raise it)",
                               (long long)p->box.n[0],
                               (long long)p->box.n[1], (long long)p->box.n[2], p->v->ncomp > 1 ? "s" : "",
                               (long long)p->nu.N[0], (long long)p->nu.N[1], (long long)p->nu.N[2],
                               (fine + coarse) / 1048576.0, budget / 1048576.0);
    p->nslots = 2.0 * fine + coarse <= budget ? PERIODIC_SLOTS : 1;
    p->box_variance = tbrfi_fft_method_variance(p->v->model, dim, &p->box);
    return TBRF_OK;
}

/* The fine grids of realization r of a periodic plan, from the cache or
 * made now into the least recently used slot. */
static int ensure_fine(tbrf_plan *p, uint64_t r, double *const **u)
{
    struct fine_slot *use = NULL;
    for (int i = 0; i < p->nslots; i++)
        if (p->slot[i].valid && p->slot[i].realization == r)
            use = &p->slot[i];
    if (!use) {
        use = &p->slot[0];
        for (int i = 1; i < p->nslots; i++)
            if (!p->slot[i].valid || (use->valid && p->slot[i].used < use->used))
                use = &p->slot[i];
        use->valid = 0;
        for (int c = 0; c < p->v->ncomp; c++)
            if (!use->u[c] && !(use->u[c] = tbrfi_nufft_fine_alloc(&p->nu)))
                return tbrfi_plan_fail(p, TBRF_ERR_NO_MEMORY, "no memory for the %.3g MiB oversampled grid",
                                       tbrfi_nufft_fine_bytes(&p->nu) / 1048576.0);
        const grid_geom *b = &p->box;
        fftw_complex *C = fftw_malloc((size_t)tbrfi_fft_method_bytes(p->v->dim, b));
        if (!C)
            return tbrfi_plan_fail(p, TBRF_ERR_NO_MEMORY, "no memory for the %.3g MiB box modes",
                                   tbrfi_fft_method_bytes(p->v->dim, b) / 1048576.0);
        const tbrfi_engine_view *v = p->v;
        int st = TBRF_OK;
        for (int c = 0; c < v->ncomp && !st; c++) {
            st = tbrfi_fft_method_modes(v->model, v->dim, b, v->seed, r, v->opts.threads, v->zeta,
                                        v->opts.vector ? c : -1, 0, C);
            if (!st)
                st = tbrfi_nufft_fine(&p->nu, C, v->opts.threads, use->u[c]);
        }
        fftw_free(C);
        if (st == TBRF_ERR_FFT)
            return tbrfi_plan_fail(p, st, "NUFFT: FFTW could not plan the oversampled transform");
        if (st)
            return tbrfi_plan_fail(p, st, "NUFFT: no memory for the mode synthesis");
        use->valid = 1;
        use->realization = r;
    }
    use->used = ++p->clock;
    *u = use->u;
    return TBRF_OK;
}

static int nufft_grid(tbrf_plan *p, const grid_geom *whole, int *runs)
{
    (void)p, (void)whole;
    *runs = 1; /* whatever the box lattice method declined */
    return TBRF_OK;
}

static int nufft_points(tbrf_plan *p, const char *caller, int *runs)
{
    (void)p, (void)caller;
    *runs = 1;
    return TBRF_OK;
}

static int nufft_prepare(tbrf_plan *p, uint64_t r)
{
    return ensure_fine(p, r, &p->fine);
}

static int nufft_eval_grid(tbrf_plan *p, int64_t first, int64_t count, void *values)
{
    const grid_geom *g = &p->grid;
    tbrfi_nufft_interp_grid(&p->nu, p->fine, p->v->ncomp, g->origin, g->spacing, g->n, g->start, first,
                            count, p->v->opts.precision, p->v->opts.threads, values);
    return TBRF_OK;
}

static int nufft_eval_points(tbrf_plan *p, int64_t n, const double *xyz, void *values)
{
    tbrfi_nufft_interp(&p->nu, p->fine, p->v->ncomp, n, xyz, p->v->opts.precision, p->v->opts.threads,
                       values);
    return TBRF_OK;
}

static double nufft_variance(const tbrf_plan *p)
{
    return p->box_variance;
}

static void nufft_release(tbrf_plan *p)
{
    for (int i = 0; i < PERIODIC_SLOTS; i++)
        for (int c = 0; c < 3; c++) {
            fftw_free(p->slot[i].u[c]);
            p->slot[i].u[c] = NULL;
        }
}

const method_ops tbrfi_method_nufft = {
    .id = TBRF_METHOD_NUFFT,
    .name = "NUFFT",
    .storage = TBRFI_ENGINE_NONE,
    .wraps = 1,
    .grid = nufft_grid,
    .points = nufft_points,
    .prepare = nufft_prepare,
    .eval_grid = nufft_eval_grid,
    .eval_points = nufft_eval_points,
    .execute_grid = tbrfi_method_execute_grid,
    .stream_grid = tbrfi_method_stream_grid,
    .variance = nufft_variance,
    .release = nufft_release,
};
