/* method_nufft.c — the periodic plan's type-2 NUFFT (methods/nufft),
 * everywhere off the box lattice (which method_fft.c's box method runs),
 * from the fine grids of up to PERIODIC_SLOTS realizations of the box that
 * method's state holds. */
#include <stdlib.h>

#include "methods/fft/fft.h"
#include "methods/nufft/nufft.h"
#include "plan/method.h"

/* A periodic plan keeps the fine grids of this many realizations at most
 * (fewer when they do not fit the memory budget together). */
#define PERIODIC_SLOTS 2

/* The NUFFT's state: the box it composes (the box lattice method's state,
 * not a copy), its setup and the fine-grid cache. */
typedef struct {
    tbrfi_box_lattice *box;
    nufft_setup nu;
    int nslots;             /* fine grids kept: realizations cached */
    uint64_t clock;
    struct fine_slot {
        int valid;
        uint64_t realization, used;
        double *u[3];
    } slot[PERIODIC_SLOTS];
    double *const *fine;    /* the current realization's fine grids */
} nufft_state;

static void nufft_release(void *self)
{
    nufft_state *s = self;
    if (!s)
        return;
    for (int i = 0; i < PERIODIC_SLOTS; i++)
        for (int c = 0; c < 3; c++)
            fftw_free(s->slot[i].u[c]);
    free(s);
}

/* The fine grids' bytes and the box's modes', against the memory budget:
 * TBRF_OK, or a failure with its message. */
static int fine_fits(tbrf_plan *p, const nufft_state *s)
{
    const grid_geom *box = &s->box->g;
    const double fine = tbrfi_nufft_fine_bytes(&s->nu) * (double)p->v->ncomp;
    const double coarse = tbrfi_fft_method_bytes(p->v->dim, box);
    const double budget = tbrfi_engine_memory_budget();
    if (!(budget > 0.0))
        return tbrfi_plan_fail(p, TBRF_ERR_INVALID, "TBRF_MEMORY_BUDGET='%.40s' is not a size in "
                               "bytes (such as 4G or 512M)", getenv("TBRF_MEMORY_BUDGET"));
    if (fine + coarse > budget)
        return tbrfi_plan_fail(p, TBRF_ERR_SIZE, "periodic box %lld x %lld x %lld: the oversampled "
                               "grid%s (%lld x %lld x %lld) would need %.3g MiB, more than the memory "
                               "budget of %.3g MiB (set TBRF_MEMORY_BUDGET to raise it)",
                               (long long)box->n[0],
                               (long long)box->n[1], (long long)box->n[2], p->v->ncomp > 1 ? "s" : "",
                               (long long)s->nu.N[0], (long long)s->nu.N[1], (long long)s->nu.N[2],
                               (fine + coarse) / 1048576.0, budget / 1048576.0);
    return TBRF_OK;
}

/* The oversampled grids of the box the box lattice method made (an
 * earlier candidate). Only the box's modes must fit the budget now: the
 * fine grids are allocated, and checked (fine_fits), when a realization
 * is first evaluated off the lattice, so a plan run on its lattice alone
 * (cosmological ICs) is not held to grids it never makes. */
static int nufft_setup_box(tbrf_plan *p, nufft_state *s)
{
    const int dim = p->v->dim;
    const grid_geom *box = &s->box->g;
    /* the period the FFT method's modes have, n (length/n), which may
     * differ from length in the last bit */
    double period[3];
    for (int d = 0; d < 3; d++)
        period[d] = (double)box->n[d] * box->spacing[d];
    const tbrf_opts *o = &p->v->opts;
    double eps = o->accuracy > 0 ? o->accuracy : o->precision == TBRF_FLOAT ? 1e-6 : 1e-12;
    tbrfi_nufft_setup(&s->nu, dim, box->n, box->origin, period, eps);
    const double fine = tbrfi_nufft_fine_bytes(&s->nu) * (double)p->v->ncomp;
    const double coarse = tbrfi_fft_method_bytes(dim, box);
    const double budget = tbrfi_engine_memory_budget();
    if (!(budget > 0.0))
        return tbrfi_plan_fail(p, TBRF_ERR_INVALID, "TBRF_MEMORY_BUDGET='%.40s' is not a size in "
                               "bytes (such as 4G or 512M)", getenv("TBRF_MEMORY_BUDGET"));
    if (coarse > budget)
        return tbrfi_plan_fail(p, TBRF_ERR_SIZE, "periodic box %lld x %lld x %lld: its modes would "
                               "need %.3g MiB, more than the memory budget of %.3g MiB (set "
                               "TBRF_MEMORY_BUDGET to raise it)", (long long)box->n[0],
                               (long long)box->n[1], (long long)box->n[2], coarse / 1048576.0,
                               budget / 1048576.0);
    s->nslots = 2.0 * fine + coarse <= budget ? PERIODIC_SLOTS : 1;
    tbrfi_box_lattice_variance(p, s->box);
    return TBRF_OK;
}

static int nufft_make(tbrf_plan *p, const tbrfi_method_args *a, void **self)
{
    (void)a;
    *self = NULL;
    nufft_state *s = calloc(1, sizeof *s);
    if (!s)
        return tbrfi_plan_fail(p, TBRF_ERR_NO_MEMORY, "NUFFT: no memory for its state");
    if (!(s->box = tbrfi_plan_state(p, &tbrfi_method_fft_box))) {
        free(s);
        return tbrfi_plan_fail(p, TBRF_ERR_INVALID, "NUFFT: the plan has no box lattice before it");
    }
    int st = nufft_setup_box(p, s);
    if (st) {
        free(s);
        return st;
    }
    *self = s;
    return TBRF_OK;
}

/* The fine grids of realization r of a periodic plan, from the cache or
 * made now into the least recently used slot. */
static int ensure_fine(tbrf_plan *p, nufft_state *s, uint64_t r)
{
    struct fine_slot *use = NULL;
    for (int i = 0; i < s->nslots; i++)
        if (s->slot[i].valid && s->slot[i].realization == r)
            use = &s->slot[i];
    if (!use) {
        use = &s->slot[0];
        for (int i = 1; i < s->nslots; i++)
            if (!s->slot[i].valid || (use->valid && s->slot[i].used < use->used))
                use = &s->slot[i];
        use->valid = 0;
        if (!use->u[0] && fine_fits(p, s))
            return p->msg.status;
        for (int c = 0; c < p->v->ncomp; c++)
            if (!use->u[c] && !(use->u[c] = tbrfi_nufft_fine_alloc(&s->nu)))
                return tbrfi_plan_fail(p, TBRF_ERR_NO_MEMORY, "no memory for the %.3g MiB oversampled grid",
                                       tbrfi_nufft_fine_bytes(&s->nu) / 1048576.0);
        const grid_geom *b = &s->box->g;
        fftw_complex *C = fftw_malloc((size_t)tbrfi_fft_method_bytes(p->v->dim, b));
        if (!C)
            return tbrfi_plan_fail(p, TBRF_ERR_NO_MEMORY, "no memory for the %.3g MiB box modes",
                                   tbrfi_fft_method_bytes(p->v->dim, b) / 1048576.0);
        const tbrfi_engine_view *v = p->v;
        int st = TBRF_OK;
        for (int c = 0; c < v->ncomp && !st; c++) {
            st = tbrfi_fft_method_modes_polled(v->model, v->dim, b, v->seed, r, v->opts.threads, v->zeta,
                                               v->opts.vector ? c : -1, 0, 0,
                                               b->n[1] * (v->dim == 3 ? b->n[2] : 1),
                                               tbrfi_engine_cancel(p->engine), C);
            if (!st)
                st = tbrfi_nufft_fine(&s->nu, C, v->opts.threads, use->u[c]);
        }
        fftw_free(C);
        if (st == TBRF_ERR_FFT)
            return tbrfi_plan_fail(p, st, "NUFFT: FFTW could not plan the oversampled transform");
        if (st == TBRF_ERR_CANCELLED)
            return tbrfi_plan_fail(p, st, "NUFFT: cancelled by the caller's hook");
        if (st)
            return tbrfi_plan_fail(p, st, "NUFFT: no memory for the mode synthesis");
        use->valid = 1;
        use->realization = r;
    }
    use->used = ++s->clock;
    s->fine = use->u;
    return TBRF_OK;
}

static int nufft_grid(tbrf_plan *p, void *self, const grid_geom *whole, int *runs)
{
    (void)p, (void)self, (void)whole;
    *runs = 1; /* whatever the box lattice method declined */
    return TBRF_OK;
}

static int nufft_points(tbrf_plan *p, void *self, const char *caller, int *runs)
{
    (void)p, (void)self, (void)caller;
    *runs = 1;
    return TBRF_OK;
}

static int nufft_prepare(tbrf_plan *p, void *self, uint64_t r)
{
    return ensure_fine(p, self, r);
}

static int nufft_eval_grid(tbrf_plan *p, void *self, int64_t first, int64_t count, void *values)
{
    const nufft_state *s = self;
    const grid_geom *g = &p->grid;
    tbrfi_nufft_interp_grid(&s->nu, s->fine, p->v->ncomp, g->origin, g->spacing, g->n, g->start, first,
                            count, p->v->opts.precision, p->v->opts.threads, values);
    return TBRF_OK;
}

static int nufft_eval_points(tbrf_plan *p, void *self, int64_t n, const double *xyz, void *values)
{
    const nufft_state *s = self;
    tbrfi_nufft_interp(&s->nu, s->fine, p->v->ncomp, n, xyz, p->v->opts.precision, p->v->opts.threads,
                       values);
    return TBRF_OK;
}

static double nufft_variance(const tbrf_plan *p, void *self)
{
    return tbrfi_box_lattice_variance(p, ((nufft_state *)self)->box);
}

const method_ops tbrfi_method_nufft = {
    .id = TBRF_METHOD_NUFFT,
    .name = "NUFFT",
    .storage = TBRFI_ENGINE_NONE,
    .wraps = 1,
    .make = nufft_make,
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
