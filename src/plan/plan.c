/* plan.c — the public plan API: make, set geometry, execute, stream. A
 * plan holds a turning-bands engine (src/engine/engine.h: options,
 * backend, frozen model, domain, lines) and runs it, the FFT method or the
 * periodic NUFFT on the geometry it is given. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "methods/fft/fft.h"
#include "methods/nufft/nufft.h"
#include "core/message.h"
#include "tbrf.h"

enum geometry { GEOM_NONE = 0, GEOM_GRID = 1, GEOM_POINTS = 2 };

#define AUTO_CHUNK_POINTS 65536
#define AUTO_CHUNK_CELLS (1 << 20)
/* A periodic plan keeps the fine grids of this many realizations at most
 * (fewer when they do not fit the memory budget together). */
#define PERIODIC_SLOTS 2
/* Vector fields draw component c's numbers from realization r + (c+1) 2^62. */
#define MAX_VECTOR_REALIZATION ((uint64_t)1 << 62)

struct tbrf_plan {
    int broken;        /* make_plan failed: every later call returns BAD_PLAN */
    tbrfi_message msg; /* the last call's status and message */
    tbrfi_engine *engine;        /* options, backend, frozen model, domain and lines */
    const tbrfi_engine_view *v;  /* what it decided */
    int geom;
    grid_geom grid;
    int64_t npoints;
    const double *xyz;
    int fft_run;         /* the current grid runs the FFT method */
    double fft_variance; /* its field's variance (tbrfi_fft_method_variance) */
    /* periodic plans (tbrf_make_periodic_plan) */
    int periodic_box;
    grid_geom box;     /* the box lattice: n cells of spacing length/n */
    double box_variance;
    nufft_setup nu;
    int nufft_run;     /* the current geometry runs the NUFFT */
    int nslots;        /* fine grids kept: realizations cached */
    uint64_t clock;
    struct fine_slot {
        int valid;
        uint64_t realization, used;
        double *u[3];
    } slot[PERIODIC_SLOTS];
};

static int fail(tbrf_plan *p, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tbrfi_failv(&p->msg, status, fmt, ap);
    va_end(ap);
    return status;
}

/* Resets the per-call status; a plan that failed to build stays failed. */
static int begin(tbrf_plan *p)
{
    if (p->broken) {
        p->msg.status = TBRF_ERR_BAD_PLAN;
        return TBRF_ERR_BAD_PLAN;
    }
    tbrfi_message_clear(&p->msg);
    return TBRF_OK;
}

/* The engine's failure as the plan's: the same status and message. */
static int engine_failed(tbrf_plan *p, int st)
{
    p->msg = *tbrfi_engine_msg(p->engine);
    p->msg.status = st;
    return st;
}

/* The engine, with line storage unless the FFT method runs (it never
 * projects lines: its plan builds no spec, lines, axis nor FFTW line
 * plan). */
static int setup(tbrf_plan *p, const tbrf_model *model, int dim, const double lo[3],
                 const double hi[3], double resolution, uint64_t seed, const tbrf_opts *opts)
{
    const int storage = opts && opts->method == TBRF_METHOD_FFT ? TBRFI_ENGINE_NONE : TBRFI_ENGINE_LINES;
    int st = tbrfi_engine_make(model, dim, lo, hi, resolution, seed, opts, storage, &p->engine);
    if (!p->engine)
        return st; /* the plan's message stays empty, as before for no memory */
    p->v = tbrfi_engine_view_of(p->engine);
    return st ? engine_failed(p, st) : TBRF_OK;
}

int tbrf_make_plan(const tbrf_model *model, int dim, const double lo[3], const double hi[3],
                   double resolution, uint64_t seed, const tbrf_opts *opts, tbrf_plan **plan)
{
    if (!plan)
        return TBRF_ERR_NULL;
    tbrf_plan *p = calloc(1, sizeof *p);
    *plan = p;
    if (!p)
        return TBRF_ERR_NO_MEMORY;
    int st = setup(p, model, dim, lo, hi, resolution, seed, opts);
    if (st)
        p->broken = 1;
    return st;
}

static int periodic_setup(tbrf_plan *p, const tbrf_model *model, int dim, const double origin[3],
                          const double length[3], const int64_t n[3], uint64_t seed,
                          const tbrf_opts *opts)
{
    if (!origin || !length || !n)
        return fail(p, TBRF_ERR_NULL, "make_periodic_plan: origin, length or n is NULL");
    if (dim != 2 && dim != 3)
        return fail(p, TBRF_ERR_INVALID, "dim = %d: must be 2 or 3", dim);
    double hi[3] = {0, 0, 0}, resolution = HUGE_VAL;
    for (int d = 0; d < dim; d++) {
        if (!isfinite(origin[d]))
            return fail(p, TBRF_ERR_INVALID, "box origin[%d] = %g is not finite", d, origin[d]);
        if (!isfinite(length[d]) || !(length[d] > 0.0))
            return fail(p, TBRF_ERR_INVALID, "box length[%d] = %g: must be finite and > 0", d, length[d]);
        if (n[d] < 1 || n[d] > ((int64_t)1 << 20))
            return fail(p, TBRF_ERR_SIZE, "box n[%d] = %lld: must be between 1 and 2^20", d,
                        (long long)n[d]);
        hi[d] = origin[d] + length[d];
        if (!isfinite(hi[d]))
            return fail(p, TBRF_ERR_INVALID, "box axis %d: origin %g + length %g overflows", d,
                        origin[d], length[d]);
        resolution = fmin(resolution, length[d] / (double)n[d]);
    }
    tbrf_opts o;
    tbrf_default_opts(&o);
    if (opts)
        o = *opts;
    /* setup() then builds no line structures: the modes need none */
    o.method = TBRF_METHOD_FFT;
    o.periodic = 1;
    int st = setup(p, model, dim, origin, hi, resolution, seed, &o);
    if (st)
        return st;
    p->periodic_box = 1;
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
    double eps = p->v->opts.accuracy > 0 ? p->v->opts.accuracy : p->v->opts.precision == TBRF_FLOAT ? 1e-6 : 1e-12;
    tbrfi_nufft_setup(&p->nu, dim, p->box.n, p->box.origin, period, eps);
    const double fine = tbrfi_nufft_fine_bytes(&p->nu) * (double)p->v->ncomp;
    const double coarse = tbrfi_fft_method_bytes(dim, &p->box);
    const double budget = tbrfi_engine_memory_budget();
    if (!(budget > 0.0))
        return fail(p, TBRF_ERR_INVALID, "TBRF_MEMORY_BUDGET='%.40s' is not a size in bytes (such as "
                    "4G or 512M)", getenv("TBRF_MEMORY_BUDGET"));
    if (fine + coarse > budget)
        return fail(p, TBRF_ERR_SIZE, "periodic box %lld x %lld x %lld: the oversampled grid%s "
                    "(%lld x %lld x %lld) would need %.3g MiB, more than the memory budget of "
                    "%.3g MiB (set TBRF_MEMORY_BUDGET to raise it)", (long long)p->box.n[0],
                    (long long)p->box.n[1], (long long)p->box.n[2], p->v->ncomp > 1 ? "s" : "",
                    (long long)p->nu.N[0], (long long)p->nu.N[1], (long long)p->nu.N[2],
                    (fine + coarse) / 1048576.0, budget / 1048576.0);
    p->nslots = 2.0 * fine + coarse <= budget ? PERIODIC_SLOTS : 1;
    p->box_variance = tbrfi_fft_method_variance(p->v->model, dim, &p->box);
    return TBRF_OK;
}

int tbrf_make_periodic_plan(const tbrf_model *model, int dim, const double origin[3],
                            const double length[3], const int64_t n[3], uint64_t seed,
                            const tbrf_opts *opts, tbrf_plan **plan)
{
    if (!plan)
        return TBRF_ERR_NULL;
    tbrf_plan *p = calloc(1, sizeof *p);
    *plan = p;
    if (!p)
        return TBRF_ERR_NO_MEMORY;
    int st = periodic_setup(p, model, dim, origin, length, n, seed, opts);
    if (st)
        p->broken = 1;
    return st;
}

void tbrf_destroy(tbrf_plan *p)
{
    if (!p)
        return;
    for (int i = 0; i < PERIODIC_SLOTS; i++)
        for (int c = 0; c < 3; c++)
            fftw_free(p->slot[i].u[c]);
    tbrfi_engine_destroy(p->engine);
    free(p);
}

static int inside(const tbrf_plan *p, int d, double x)
{
    return x >= p->v->lo[d] - p->v->tolerance && x <= p->v->hi[d] + p->v->tolerance;
}

/* The whole grid of a (sub-)grid geometry: what the FFT method transforms. */
static grid_geom full_grid(const grid_geom *g)
{
    grid_geom f = *g;
    for (int d = 0; d < 3; d++) {
        f.n[d] = g->full[d];
        f.start[d] = 0;
    }
    return f;
}

/* The sub-box start .. start + count - 1 of the global grid n: within it,
 * non-empty, and 2D boxes flat; else a failure status with its message. */
static int check_box(tbrf_plan *p, const int64_t n[3], const int64_t start[3], const int64_t count[3])
{
    for (int d = 0; d < 3; d++) {
        if (d == 2 && p->v->dim == 2) {
            if (start[2] != 0 || count[2] != 1)
                return fail(p, TBRF_ERR_SIZE, "set_subgrid: 2D grid: start[2] = %lld and count[2] = %lld "
                            "must be 0 and 1", (long long)start[2], (long long)count[2]);
            continue;
        }
        if (count[d] < 1 || start[d] < 0 || start[d] >= n[d] || count[d] > n[d] - start[d])
            return fail(p, TBRF_ERR_SIZE, "set_subgrid: axis %d: cells %lld .. %lld + %lld - 1 are not "
                        "a non-empty range of the grid's %lld", d, (long long)start[d],
                        (long long)start[d], (long long)count[d], (long long)n[d]);
    }
    return TBRF_OK;
}

static int set_grid_box(tbrf_plan *p, const double origin[3], const double spacing[3], const int64_t n[3],
                        const int64_t start[3], const int64_t count[3]);

int tbrf_set_grid(tbrf_plan *p, const double origin[3], const double spacing[3], const int64_t n[3])
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    if (!origin || !spacing || !n)
        return fail(p, TBRF_ERR_NULL, "set_grid: origin, spacing or n is NULL");
    const int64_t zero[3] = {0, 0, 0};
    return set_grid_box(p, origin, spacing, n, zero, n);
}

int tbrf_set_subgrid(tbrf_plan *p, const double origin[3], const double spacing[3], const int64_t n[3],
                     const int64_t start[3], const int64_t count[3])
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    if (!origin || !spacing || !n || !start || !count)
        return fail(p, TBRF_ERR_NULL, "set_subgrid: origin, spacing, n, start or count is NULL");
    return set_grid_box(p, origin, spacing, n, start, count);
}

/* set_grid and set_subgrid: the box start .. start + count - 1 of the grid
 * (origin, spacing, n); the whole grid when start = 0 and count = n. */
static int set_grid_box(tbrf_plan *p, const double origin[3], const double spacing[3], const int64_t n[3],
                        const int64_t start[3], const int64_t count[3])
{
    p->geom = GEOM_NONE;
    for (int d = 0; d < p->v->dim; d++) {
        if (n[d] < 1)
            return fail(p, TBRF_ERR_SIZE, "grid count n[%d] = %lld: must be >= 1", d, (long long)n[d]);
        if (!isfinite(origin[d]))
            return fail(p, TBRF_ERR_INVALID, "grid origin[%d] = %g is not finite", d, origin[d]);
        if (!isfinite(spacing[d]) || spacing[d] <= 0.0)
            return fail(p, TBRF_ERR_INVALID, "grid spacing[%d] = %g: must be finite and > 0", d, spacing[d]);
    }
    if (p->v->dim == 2 && n[2] != 1)
        return fail(p, TBRF_ERR_SIZE, "2D grid: n[2] = %lld must be 1", (long long)n[2]);
    if (p->v->dim == 3 && n[2] < 1)
        return fail(p, TBRF_ERR_SIZE, "grid count n[2] = %lld: must be >= 1", (long long)n[2]);
    if (n[0] > INT64_MAX / n[1] || n[0] * n[1] > INT64_MAX / n[2])
        return fail(p, TBRF_ERR_SIZE, "grid %lld x %lld x %lld: the cell count overflows 64 bits",
                    (long long)n[0], (long long)n[1], (long long)n[2]);
    if (check_box(p, n, start, count))
        return p->msg.status;
    for (int d = 0; d < p->v->dim && !p->periodic_box; d++) {
        /* the box's own extent: a rank's sub-box needs only its part inside */
        double beg = origin[d] + spacing[d] * (double)start[d];
        double end = origin[d] + spacing[d] * (double)(start[d] + count[d] - 1);
        if (!inside(p, d, beg) || !inside(p, d, end))
            return fail(p, TBRF_ERR_OUT_OF_DOMAIN,
                        "grid axis %d spans [%.17g, %.17g], outside the plan's domain [%.17g, %.17g]",
                        d, beg, end, p->v->lo[d], p->v->hi[d]);
    }
    for (int d = 0; d < 3; d++) {
        int used = d < p->v->dim;
        p->grid.origin[d] = used ? origin[d] : 0.0;
        p->grid.spacing[d] = used ? spacing[d] : 1.0;
        p->grid.n[d] = used ? count[d] : 1;
        p->grid.start[d] = used ? start[d] : 0;
        p->grid.full[d] = used ? n[d] : 1;
    }
    const grid_geom whole = full_grid(&p->grid);
    p->fft_run = 0;
    p->nufft_run = 0;
    if (p->periodic_box) {
        /* the box lattice (any origin: the FFT method's field is a function
         * of absolute position) runs the FFT method, anything else the NUFFT */
        int lattice = 1;
        for (int d = 0; d < p->v->dim; d++)
            lattice &= n[d] == p->box.n[d] && spacing[d] == p->box.spacing[d];
        p->fft_run = lattice;
        p->nufft_run = !lattice;
        if (lattice)
            p->fft_variance = p->box_variance;
    } else if (p->v->opts.method != TBRF_METHOD_TB) {
        /* FFT: always when asked for; AUTO: for a periodic grid whose
         * transform fits in half the physical memory. */
        double mem = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
        double limit = p->v->opts.method == TBRF_METHOD_FFT ? 1e300 : (mem > 0 ? 0.5 * mem : 0.0);
        int fits = tbrfi_fft_method_fits(p->v->dim, &whole, limit);
        if (p->v->opts.method == TBRF_METHOD_FFT && !fits)
            return fail(p, TBRF_ERR_SIZE, "FFT method: grid %lld x %lld x %lld is too large for one "
                        "transform (at most 2^20 modes per axis and int sizes)", (long long)n[0],
                        (long long)n[1], (long long)(p->v->dim == 3 ? n[2] : 1));
        p->fft_run = p->v->opts.method == TBRF_METHOD_FFT || (p->v->opts.periodic && fits);
        if (p->fft_run)
            p->fft_variance = tbrfi_fft_method_variance(p->v->model, p->v->dim, &whole);
    }
    p->geom = GEOM_GRID;
    return TBRF_OK;
}

/* The index of the first point outside the domain or with a NaN
 * coordinate, or -1. */
static int64_t first_bad_point(const tbrf_plan *p, int64_t n, const double *xyz)
{
    for (int64_t i = 0; i < n; i++)
        for (int d = 0; d < p->v->dim; d++) {
            const double x = xyz[(size_t)p->v->dim * (size_t)i + (size_t)d];
            if (p->periodic_box ? !isfinite(x) : !inside(p, d, x))
                return i;
        }
    return -1;
}

static int bad_point(tbrf_plan *p, int64_t index, const double *x)
{
    if (p->periodic_box) /* positions wrap into the box: only non-finite ones are bad */
        return fail(p, TBRF_ERR_INVALID, "point %lld has a coordinate that is not finite "
                    "(%g, %g, %g)", (long long)index, x[0], x[1], p->v->dim == 3 ? x[2] : 0.0);
    if (p->v->dim == 3)
        return fail(p, TBRF_ERR_OUT_OF_DOMAIN,
                    "point %lld at (%.17g, %.17g, %.17g) lies outside the domain "
                    "[%g, %g] x [%g, %g] x [%g, %g] (or is NaN)",
                    (long long)index, x[0], x[1], x[2], p->v->lo[0], p->v->hi[0], p->v->lo[1], p->v->hi[1],
                    p->v->lo[2], p->v->hi[2]);
    return fail(p, TBRF_ERR_OUT_OF_DOMAIN,
                "point %lld at (%.17g, %.17g) lies outside the domain [%g, %g] x [%g, %g] (or is NaN)",
                (long long)index, x[0], x[1], p->v->lo[0], p->v->hi[0], p->v->lo[1], p->v->hi[1]);
}

int tbrf_set_points(tbrf_plan *p, int64_t n, const double *xyz)
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    p->geom = GEOM_NONE;
    if (n < 0)
        return fail(p, TBRF_ERR_SIZE, "set_points: n = %lld is negative", (long long)n);
    if (n > 0 && !xyz)
        return fail(p, TBRF_ERR_NULL, "set_points: xyz is NULL");
    if (p->v->opts.method == TBRF_METHOD_FFT && !p->periodic_box)
        return fail(p, TBRF_ERR_UNSUPPORTED, "set_points: the FFT method needs a regular grid "
                    "(use method TB or AUTO for points, or tbrf_make_periodic_plan)");
    int64_t bad = first_bad_point(p, n, xyz);
    if (bad >= 0)
        return bad_point(p, bad, xyz + (size_t)p->v->dim * (size_t)bad);
    p->npoints = n;
    p->xyz = xyz;
    p->geom = GEOM_POINTS;
    return TBRF_OK;
}

int64_t tbrf_plan_count(const tbrf_plan *p)
{
    if (!p || p->broken)
        return 0;
    if (p->geom == GEOM_GRID)
        return p->grid.n[0] * p->grid.n[1] * p->grid.n[2];
    if (p->geom == GEOM_POINTS)
        return p->npoints;
    return 0;
}

/* Allocates slot i's line set like slot 0's; 0 on success. */

static size_t value_size(const tbrf_plan *p)
{
    return p->v->opts.precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
}

/* Synthesises realization r's lines unless the engine has them. */
static int ensure_lines(tbrf_plan *p, uint64_t r)
{
    int st = tbrfi_engine_lines(p->engine, r);
    return st ? engine_failed(p, st) : TBRF_OK;
}

static int project_grid(tbrf_plan *p, int64_t first, int64_t count, void *values)
{
    int st = tbrfi_engine_project_grid(p->engine, &p->grid, first, count, values);
    return st ? engine_failed(p, st) : TBRF_OK;
}

static int project_points(tbrf_plan *p, int64_t n, const double *xyz, void *values)
{
    int st = tbrfi_engine_project_points(p->engine, n, xyz, values);
    return st ? engine_failed(p, st) : TBRF_OK;
}

/* Bytes of one point's values (dim of them for a vector field). */
static size_t point_size(const tbrf_plan *p)
{
    return value_size(p) * (size_t)p->v->ncomp;
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
                return fail(p, TBRF_ERR_NO_MEMORY, "no memory for the %.3g MiB oversampled grid",
                            tbrfi_nufft_fine_bytes(&p->nu) / 1048576.0);
        const grid_geom *b = &p->box;
        fftw_complex *C = fftw_malloc((size_t)tbrfi_fft_method_bytes(p->v->dim, b));
        if (!C)
            return fail(p, TBRF_ERR_NO_MEMORY, "no memory for the %.3g MiB box modes",
                        tbrfi_fft_method_bytes(p->v->dim, b) / 1048576.0);
        int st = TBRF_OK;
        for (int c = 0; c < p->v->ncomp && !st; c++) {
            st = tbrfi_fft_method_modes(p->v->model, p->v->dim, b, p->v->seed, r, p->v->opts.threads, p->v->zeta,
                                        p->v->opts.vector ? c : -1, 0, C);
            if (!st)
                st = tbrfi_nufft_fine(&p->nu, C, p->v->opts.threads, use->u[c]);
        }
        fftw_free(C);
        if (st == TBRF_ERR_FFT)
            return fail(p, st, "NUFFT: FFTW could not plan the oversampled transform");
        if (st)
            return fail(p, st, "NUFFT: no memory for the mode synthesis");
        use->valid = 1;
        use->realization = r;
    }
    use->used = ++p->clock;
    *u = use->u;
    return TBRF_OK;
}

static int check_realization(tbrf_plan *p, uint64_t r)
{
    if (p->v->opts.vector && r >= MAX_VECTOR_REALIZATION)
        return fail(p, TBRF_ERR_INVALID, "realization %llu: a vector field's realizations must be "
                    "below 2^62", (unsigned long long)r);
    return TBRF_OK;
}

static int is_subgrid(const grid_geom *g)
{
    for (int d = 0; d < 3; d++)
        if (g->start[d] != 0 || g->n[d] != g->full[d])
            return 1;
    return 0;
}

/* The plan's status and message for what the FFT method on grid g
 * returned (TBRF_OK, TBRF_ERR_NO_MEMORY or TBRF_ERR_FFT). */
static int fft_status(tbrf_plan *p, int st, const grid_geom *g)
{
    if (st == TBRF_ERR_NO_MEMORY)
        return fail(p, st, "FFT method: no memory for the %.3g GiB transform",
                    tbrfi_fft_method_bytes(p->v->dim, g) / 1073741824.0);
    if (st)
        return fail(p, st, "FFT method: FFTW could not plan the transform");
    return TBRF_OK;
}

/* The FFT method on the current grid (methods/fft/fft.c). A sub-box is
 * cut out of the whole grid's transform: the transform mixes every cell,
 * and only the whole one gives the whole grid's bits (each caller then
 * holds the whole field once; doc/decomposition.md). */
static int fft_execute(tbrf_plan *p, uint64_t realization, void *values)
{
    const grid_geom whole = full_grid(&p->grid);
    const int sub = is_subgrid(&p->grid);
    const size_t ps = point_size(p);
    void *all = values;
    if (sub && !(all = malloc(ps * (size_t)(whole.n[0] * whole.n[1] * whole.n[2]))))
        return fail(p, TBRF_ERR_NO_MEMORY, "FFT method: no memory for the whole %lld x %lld x %lld "
                    "field a sub-grid is cut from", (long long)whole.n[0], (long long)whole.n[1],
                    (long long)whole.n[2]);
    int st = tbrfi_fft_method_generate(p->v->model, p->v->dim, &whole, p->v->seed, realization, p->v->opts.threads,
                                 p->v->opts.precision, p->v->opts.vector, p->v->zeta, all);
    if (sub && !st) {
        const grid_geom *g = &p->grid;
        const size_t row = ps * (size_t)g->n[0];
        for (int64_t k = 0; k < g->n[2]; k++)
            for (int64_t j = 0; j < g->n[1]; j++) {
                const int64_t from = ((g->start[2] + k) * whole.n[1] + g->start[1] + j) * whole.n[0] + g->start[0];
                memcpy((char *)values + row * (size_t)(k * g->n[1] + j), (const char *)all + ps * (size_t)from,
                       row);
            }
    }
    if (sub)
        free(all);
    return fft_status(p, st, &whole);
}

int tbrf_execute(tbrf_plan *p, uint64_t realization, void *values)
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    if (p->geom == GEOM_NONE)
        return fail(p, TBRF_ERR_NO_GEOMETRY, "execute: call tbrf_set_grid or tbrf_set_points first");
    int64_t count = tbrf_plan_count(p);
    if (count > 0 && !values)
        return fail(p, TBRF_ERR_NULL, "execute: values is NULL");
    if (p->geom == GEOM_POINTS) {
        /* The caller may have moved the points since set_points. */
        int64_t bad = first_bad_point(p, p->npoints, p->xyz);
        if (bad >= 0)
            return bad_point(p, bad, p->xyz + (size_t)p->v->dim * (size_t)bad);
    }
    if (check_realization(p, realization))
        return p->msg.status;
    if (p->geom == GEOM_GRID && p->fft_run)
        return fft_execute(p, realization, values);
    if (p->periodic_box) {
        double *const *u;
        if (ensure_fine(p, realization, &u))
            return p->msg.status;
        if (p->geom == GEOM_GRID)
            tbrfi_nufft_interp_grid(&p->nu, u, p->v->ncomp, p->grid.origin, p->grid.spacing, p->grid.n,
                                    p->grid.start, 0, count, p->v->opts.precision, p->v->opts.threads, values);
        else
            tbrfi_nufft_interp(&p->nu, u, p->v->ncomp, p->npoints, p->xyz, p->v->opts.precision,
                               p->v->opts.threads, values);
        return TBRF_OK;
    }
    int st = ensure_lines(p, realization);
    if (st)
        return st;
    if (p->geom == GEOM_GRID)
        return project_grid(p, 0, count, values);
    return project_points(p, p->npoints, p->xyz, values);
}

int tbrf_execute_stream(tbrf_plan *p, uint64_t realization, tbrf_pull_fn pull, tbrf_push_fn push,
                        void *user)
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    if (!pull || !push)
        return fail(p, TBRF_ERR_NULL, "execute_stream: pull or push callback is NULL");
    if (p->v->opts.method == TBRF_METHOD_FFT && !p->periodic_box)
        return fail(p, TBRF_ERR_UNSUPPORTED, "execute_stream: the FFT method needs a regular grid "
                    "(use method TB or AUTO for points, or tbrf_make_periodic_plan)");
    if (check_realization(p, realization))
        return p->msg.status;
    int64_t chunk = p->v->opts.chunk > 0 ? p->v->opts.chunk : AUTO_CHUNK_POINTS;
    if ((double)chunk * (double)(p->v->dim * sizeof(double) + point_size(p)) > 1e12)
        return fail(p, TBRF_ERR_SIZE, "opts.chunk = %lld points is too large to buffer", (long long)chunk);
    double *const *u = NULL;
    int st = p->periodic_box ? ensure_fine(p, realization, &u) : ensure_lines(p, realization);
    if (st)
        return st;
    double *xyz = malloc(sizeof(double) * (size_t)p->v->dim * (size_t)chunk);
    void *values = malloc(point_size(p) * (size_t)chunk);
    if (!xyz || !values) {
        free(xyz);
        free(values);
        return fail(p, TBRF_ERR_NO_MEMORY, "no memory for a chunk of %lld points", (long long)chunk);
    }
    for (int64_t first = 0;; ) {
        int64_t count = -1;
        int rc = pull(user, first, chunk, xyz, &count);
        if (rc) {
            st = fail(p, TBRF_ERR_CALLBACK, "pull callback returned %d at point %lld", rc, (long long)first);
            break;
        }
        if (count < 0 || count > chunk) {
            st = fail(p, TBRF_ERR_INVALID, "pull callback gave count %lld (allowed 0..%lld) at point %lld",
                      (long long)count, (long long)chunk, (long long)first);
            break;
        }
        if (count == 0)
            break;
        int64_t bad = first_bad_point(p, count, xyz);
        if (bad >= 0) {
            st = bad_point(p, first + bad, xyz + (size_t)p->v->dim * (size_t)bad);
            break;
        }
        if (p->periodic_box)
            tbrfi_nufft_interp(&p->nu, u, p->v->ncomp, count, xyz, p->v->opts.precision, p->v->opts.threads, values);
        else
            st = project_points(p, count, xyz, values);
        if (st)
            break;
        rc = push(user, first, count, values);
        if (rc) {
            st = fail(p, TBRF_ERR_CALLBACK, "push callback returned %d at point %lld", rc, (long long)first);
            break;
        }
        first += count;
    }
    free(xyz);
    free(values);
    return st;
}

int tbrf_execute_grid_stream(tbrf_plan *p, uint64_t realization, tbrf_push_fn push, void *user)
{
    if (!p)
        return TBRF_ERR_NULL;
    if (begin(p))
        return p->msg.status;
    if (!push)
        return fail(p, TBRF_ERR_NULL, "execute_grid_stream: push callback is NULL");
    if (p->geom != GEOM_GRID)
        return fail(p, TBRF_ERR_NO_GEOMETRY, "execute_grid_stream: no grid set (call tbrf_set_grid)");
    if (check_realization(p, realization))
        return p->msg.status;
    const int64_t nx = p->grid.n[0], total = tbrf_plan_count(p);
    const int64_t want = p->v->opts.chunk > 0 ? p->v->opts.chunk : AUTO_CHUNK_CELLS;
    const int64_t rows = want / nx > 0 ? want / nx : 1, step = rows * nx;
    if (p->fft_run && !p->v->opts.vector && !is_subgrid(&p->grid)) {
        /* a scalar field is pushed from the transform's own memory */
        int64_t at = 0;
        int rc = 0;
        int st = tbrfi_fft_method_generate_push(p->v->model, p->v->dim, &p->grid, p->v->seed, realization,
                                                p->v->opts.threads, p->v->opts.precision, step, push, user,
                                                &at, &rc);
        if (st == TBRF_ERR_CALLBACK)
            return fail(p, st, "push callback returned %d at cell %lld", rc, (long long)at);
        return fft_status(p, st, &p->grid);
    }
    if (p->fft_run) {
        /* one transform of the whole grid, pushed in chunks of rows */
        void *all = malloc(point_size(p) * (size_t)total);
        if (!all)
            return fail(p, TBRF_ERR_NO_MEMORY, "no memory for the %lld-cell FFT field", (long long)total);
        int st = fft_execute(p, realization, all);
        for (int64_t first = 0; !st && first < total; first += step) {
            int64_t count = total - first < step ? total - first : step;
            int rc = push(user, first, count, (const char *)all + point_size(p) * (size_t)first);
            if (rc)
                st = fail(p, TBRF_ERR_CALLBACK, "push callback returned %d at cell %lld", rc, (long long)first);
        }
        free(all);
        return st;
    }
    if ((double)rows * (double)nx * (double)point_size(p) > 1e12)
        return fail(p, TBRF_ERR_SIZE, "a chunk of %lld rows of %lld cells is too large to buffer",
                    (long long)rows, (long long)nx);
    double *const *u = NULL;
    int st = p->periodic_box ? ensure_fine(p, realization, &u) : ensure_lines(p, realization);
    if (st)
        return st;
    void *values = malloc(point_size(p) * (size_t)(rows * nx));
    if (!values)
        return fail(p, TBRF_ERR_NO_MEMORY, "no memory for a chunk of %lld cells", (long long)(rows * nx));
    for (int64_t first = 0; first < total; first += rows * nx) {
        int64_t count = total - first < rows * nx ? total - first : rows * nx;
        if (p->periodic_box)
            tbrfi_nufft_interp_grid(&p->nu, u, p->v->ncomp, p->grid.origin, p->grid.spacing, p->grid.n,
                                    p->grid.start, first, count, p->v->opts.precision, p->v->opts.threads, values);
        else
            st = project_grid(p, first, count, values);
        if (st)
            break;
        int rc = push(user, first, count, values);
        if (rc) {
            st = fail(p, TBRF_ERR_CALLBACK, "push callback returned %d at cell %lld", rc, (long long)first);
            break;
        }
    }
    free(values);
    return st;
}

int tbrf_plan_get_info(const tbrf_plan *p, tbrf_plan_info *info)
{
    if (!p || !info)
        return TBRF_ERR_NULL;
    if (p->broken)
        return TBRF_ERR_BAD_PLAN;
    memset(info, 0, sizeof *info);
    info->dim = p->v->dim;
    /* line fields stay 0 for a plan without lines (method FFT) */
    info->lines = tbrfi_engine_has_lines(p->engine) ? p->v->opts.lines : 0;
    info->line_samples = p->v->spec.M;
    info->line_spacing = p->v->spec.delta;
    info->line_length = p->v->spec.length;
    info->variance = p->v->variance;
    info->variance_resolved = p->v->spec.variance_resolved;
    info->amplitude = p->v->amplitude;
    info->padding = p->v->spec.padding;
    info->backend = p->v->backend->id;
    if (p->geom == GEOM_GRID && p->fft_run)
        info->variance_resolved = p->fft_variance;
    if (p->periodic_box)
        info->variance_resolved = p->box_variance;
    return TBRF_OK;
}

int tbrf_plan_method(const tbrf_plan *p)
{
    if (!p || p->broken)
        return -1;
    if (p->periodic_box)
        return p->geom == GEOM_GRID && p->fft_run ? TBRF_METHOD_FFT : TBRF_METHOD_NUFFT;
    if (p->geom == GEOM_GRID)
        return p->fft_run ? TBRF_METHOD_FFT : TBRF_METHOD_TB;
    if (p->geom == GEOM_POINTS)
        return TBRF_METHOD_TB;
    return p->v->opts.method;
}

int tbrf_plan_status(const tbrf_plan *p)
{
    return p ? p->msg.status : TBRF_ERR_NULL;
}

const char *tbrf_plan_message(const tbrf_plan *p)
{
    return p ? tbrfi_message_text(&p->msg) : "plan is NULL";
}
