/* driver_lines.c — a non-periodic domain's turning-bands line modes
 * (doc/driving.md, "Non-periodic domains"): the engine that sizes and
 * projects the lines, the line modes' OU processes, the lines synthesised
 * from their coefficients and mixed by the projection, and a move to
 * another backend. */
#define _POSIX_C_SOURCE 200809L
#include "apps/driving/driver_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/parallel.h"
#include "methods/turning_bands/directions.h"
#include "methods/turning_bands/lines.h"

static const double PI = 3.14159265358979323846;

/* --------------------------------------------- turning bands: setup */

/* Turning bands over a non-periodic domain: TB_LINES fixed lines
 * (directions and sub-sample shifts of realization 0 of the seed), each
 * line's modes X_m with P1(kappa_m) > 0 an OU process per force
 * component, the lines sampled at delta = 2 pi / (TB_SAMPLES kmax). */
#define TB_LINES 512
#define TB_SAMPLES 32

/* The turning-bands engine (engine/engine.h) of the domain on `backend`
 * and `device`: the line sizing of the model's shape (amplitude 1: the
 * driver's rms sets the amplitude) for TB_LINES lines sampled at
 * 2 pi / (TB_SAMPLES kmax), spectral line method, storage WINDOWS (the
 * driver synthesises its own OU lines), and the projection through the
 * backend. A status, with the engine's message in the driver's. */
static int tb_engine(tbrf_driver *d, const tbrf_model *model, int backend, int device,
                     tbrfi_engine **engine)
{
    *engine = NULL;
    tbrf_model *shape = tbrfi_model_copy(model);
    if (!shape)
        return tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory to copy the model");
    tbrf_model_set_amplitude(shape, 1.0);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.line_method = TBRF_LINES_SPECTRAL;
    o.lines = TB_LINES;
    o.backend = backend;
    o.device = device;
    o.precision = TBRF_DOUBLE; /* the driver's values are double on every backend */
    o.threads = d->p.threads;
    const double resolution = 2.0 * PI / d->kmax * (double)o.oversampling / TB_SAMPLES;
    double hi[3] = {0.0, 0.0, 0.0};
    for (int c = 0; c < d->dim; c++)
        hi[c] = d->p.origin[c] + d->p.length[c];
    int st = tbrfi_engine_make(shape, d->dim, d->p.origin, hi, resolution, d->seed, &o,
                               TBRFI_ENGINE_WINDOWS, engine);
    tbrf_model_destroy(shape);
    if (st != TBRF_OK) {
        tbrfi_drv_fail(d, st, "driver: %s", *engine ? tbrfi_message_text(tbrfi_engine_msg(*engine)) : "no memory "
             "for the turning-bands engine");
        tbrfi_engine_destroy(*engine);
        *engine = NULL;
    }
    return st;
}

static int tb_modes(tbrf_driver *d);

int tbrfi_drv_setup_tb(tbrf_driver *d, const tbrf_model *model)
{
    if (!tbrfi_drv_support(model, &d->kmin, &d->kmax))
        return tbrfi_drv_fail(d, TBRF_ERR_UNSUPPORTED,
                    "driver: the model's spectrum (%s) has no upper bound: cut it with "
                    "tbrf_model_set_band", tbrf_model_describe(model));
    const int dim = d->dim;
    double e2 = 0.0;
    for (int c = 0; c < dim; c++)
        e2 += d->p.length[c] * d->p.length[c];
    const double extent = sqrt(e2);
    if (!isfinite(extent))
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: the domain's extent is not finite");
    /* the shape's line sizing, the domain and its tolerance, the backend:
     * the engine's, as the plan's and the inflow sampler's */
    int st = tb_engine(d, model, TBRF_BACKEND_CPU, -1, &d->engine);
    if (st != TBRF_OK)
        return st;
    const tbrfi_engine_view *v = tbrfi_engine_view_of(d->engine);
    d->spec = &v->spec;
    for (int c = 0; c < dim; c++) {
        d->lo[c] = v->lo[c];
        d->hi[c] = v->hi[c];
    }
    d->tol = v->tolerance;
    const int64_t M = d->spec->M, half = M / 2;
    d->L = TB_LINES;
    const double bytes = 2.0 * 8.0 * (double)dim * (double)d->L * (double)M;
    char hint[160];
    snprintf(hint, sizeof hint, ": %d lines of %lld samples per component (the domain spans %.3g "
             "wavelengths 2 pi / kmax: shrink it or lower kmax)", d->L, (long long)M,
             extent * d->kmax / (2.0 * PI));
    if (tbrfi_drv_reserve(d, bytes, "the lines", hint) != TBRF_OK)
        return TBRF_ERR_SIZE;
    int64_t K = 0;
    for (int64_t m = 1; m <= half; m++)
        K += d->spec->mode_var[m] > 0.0;
    if (K == 0)
        return tbrfi_drv_fail(d, TBRF_ERR_SIZE, "driver: no line mode has P(k) > 0 in [%g, %g]", d->kmin,
                    d->kmax);
    if (K * d->L > TBRF_DRIVE_MAX_MODES)
        return tbrfi_drv_fail(d, TBRF_ERR_SIZE, "driver: %lld line modes (%d lines x %lld), above 2^20: "
                    "narrow the band or shrink the domain", (long long)(K * d->L), d->L, (long long)K);
    d->K = K;
    d->nm = K * d->L;
    const int64_t n = d->nm;
    const int nc = 2 * dim;
    const size_t LM = (size_t)d->L * (size_t)M;
    /* lm, s, a, a1, coef, cj, u and axis (the line sets are counted above) */
    st = tbrfi_drv_reserve(d, 4.0 * (double)K + (double)n * (8.0 + 4.0 * 8.0 * nc) + 56.0 * d->L,
                 "the line modes", "");
    if (st != TBRF_OK)
        return st;
    d->lm = malloc(sizeof(int32_t) * (size_t)K);
    d->s = malloc(sizeof(double) * (size_t)n);
    d->a = malloc(sizeof(double) * (size_t)nc * (size_t)n);
    d->a1 = malloc(sizeof(double) * (size_t)nc * (size_t)n);
    d->coef = malloc(sizeof(double) * (size_t)nc * (size_t)n);
    d->cj = malloc(sizeof(double) * (size_t)nc * (size_t)n);
    d->u = malloc(sizeof(double) * 3 * (size_t)d->L);
    d->axis = malloc(sizeof(double) * 4 * (size_t)d->L);
    d->raw = malloc(sizeof(double) * (size_t)dim * LM);
    d->lines = malloc(sizeof(double) * (size_t)dim * LM);
    if (!d->lm || !d->s || !d->a || !d->a1 || !d->coef || !d->cj || !d->u || !d->axis || !d->raw ||
        !d->lines)
        return tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for %d lines of %lld samples", d->L,
                    (long long)M);
    return tb_modes(d);
}

/* The line modes' list and sizes, the directions and axes, the amplitude
 * and the hash of the modes, once the arrays are allocated. */
static int tb_modes(tbrf_driver *d)
{
    const int dim = d->dim;
    const int64_t M = d->spec->M, half = M / 2, n = d->nm;
    /* sigma_Z^2: a line's variance averaged over sub-sample positions
     * (mode_var is compensated for the interpolation's mean gain) */
    double var = 0.0;
    int64_t K = 0;
    for (int64_t m = 1; m <= half; m++) {
        const double v = d->spec->mode_var[m];
        if (!(v > 0.0))
            continue;
        d->lm[K++] = (int32_t)m;
        var += (m == half ? 1.0 : 2.0) * v * tbrfi_lines_interp_gain(2.0 * PI * (double)m / (double)M);
    }
    for (int l = 0; l < d->L; l++)
        for (int64_t k = 0; k < K; k++)
            d->s[(int64_t)l * K + k] = sqrt(d->spec->mode_var[d->lm[k]]);
    /* the unit directions for the mixing, and the engine's axes of the
     * same realization 0 (u / delta, then the sub-sample shifts) */
    tbrfi_directions_make(dim, d->L, d->seed, 0, d->u);
    tbrfi_engine_axes(d->engine, 0, d->axis);
    /* E|f|^2 = A^2 sigma_Z^2 (1/L) sum_l share(u_l) (doc/driving.md) */
    double proj = tbrfi_drv_unit_share(d, d->u);
    if (!tbrfi_drv_unit_factors(d)) {
        proj = 0.0;
        for (int l = 0; l < d->L; l++)
            proj += tbrfi_drv_unit_share(d, d->u + 3 * l);
        proj /= (double)d->L;
    }
    d->amp = d->rms_ensemble / sqrt(proj * var);
    d->eval = d->eval_cpu = TBRF_DRIVE_DIRECT;
    uint64_t h = 0xcbf29ce484222325ULL ^ 0x7462ULL; /* another family than the box's */
    h = tbrfi_drv_fnv(h, &n, sizeof n);
    h = tbrfi_drv_fnv(h, &d->spec->M, sizeof d->spec->M);
    h = tbrfi_drv_fnv(h, d->lm, sizeof(int32_t) * (size_t)K);
    d->modes_hash = tbrfi_drv_fnv(h, d->s, sizeof(double) * (size_t)n);
    return TBRF_OK;
}

/* ------------------------------------- turning bands: lines, projection */

/* W_c(line l) = P_zeta(u_l) Z(line l) sample by sample: the line's
 * contribution W(x . u_l) then has divergence u_l . W' = 0 (zeta = 1) or
 * curl u_l x W' = 0 (zeta = 0) identically. Gram-Schmidt twice, as
 * methods/turning_bands/vector.c, so u_l . W is zero to rounding. */
static void tb_mix(tbrf_driver *d)
{
    const int dim = d->dim, L = d->L;
    const int64_t M = d->spec->M;
    const size_t LM = (size_t)L * (size_t)M;
    const double z = d->p.zeta;
#pragma omp parallel for schedule(static) num_threads(tbrf_threads(d->p.threads)) if (L * M >= 65536)
    for (int l = 0; l < L; l++) {
        const double *u = d->u + 3 * l;
        for (int64_t j = 0; j < M; j++) {
            const size_t at = (size_t)l * (size_t)M + (size_t)j;
            double g[3] = {0, 0, 0}, gd = 0.0, pd = 0.0, perp[3] = {0, 0, 0};
            for (int c = 0; c < dim; c++) {
                g[c] = d->raw[(size_t)c * LM + at];
                gd += g[c] * u[c];
            }
            for (int c = 0; c < dim; c++) {
                perp[c] = g[c] - gd * u[c];
                pd += perp[c] * u[c];
            }
            for (int c = 0; c < dim; c++)
                d->lines[(size_t)c * LM + at] =
                    d->p.amplitude_factor[c] * (z * (perp[c] - pd * u[c]) + (1.0 - z) * gd * u[c]);
        }
    }
}

/* Synthesises the lines of the current coefficients: one inverse real
 * FFT per line and component of X_m = coef (the real Nyquist mode
 * sqrt(2) Re coef, so that its variance is E|X|^2 too), then the mixing. */
int tbrfi_drv_ensure_lines(tbrf_driver *d)
{
    if (d->lines_valid)
        return TBRF_OK;
    const int dim = d->dim, nc = 2 * dim, L = d->L;
    const int64_t M = d->spec->M, half = M / 2, K = d->K;
    int nomem = 0;
#pragma omp parallel num_threads(tbrf_threads(d->p.threads)) reduction(| : nomem) if (L * M >= 65536)
    {
        fftw_complex *X = fftw_malloc(sizeof(fftw_complex) * (size_t)(half + 1));
        nomem = !X;
#pragma omp for schedule(static)
        for (int lc = 0; lc < L * dim; lc++) {
            if (!X)
                continue;
            const int l = lc / dim, c = lc % dim;
            memset(X, 0, sizeof(fftw_complex) * (size_t)(half + 1));
            for (int64_t k = 0; k < K; k++) {
                const int64_t m = d->lm[k];
                const double *cf = d->coef + ((int64_t)l * K + k) * nc + 2 * c;
                if (m == half) {
                    X[m][0] = 1.41421356237309504880 * cf[0];
                } else {
                    X[m][0] = cf[0];
                    X[m][1] = cf[1];
                }
            }
            fftw_execute_dft_c2r((fftw_plan)tbrfi_engine_view_of(d->engine)->fft, X,
                                 d->raw + ((size_t)c * (size_t)L + (size_t)l) * (size_t)M);
        }
        fftw_free(X);
    }
    if (nomem)
        return tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for a line's modes");
    tb_mix(d);
    tbrfi_engine_use_lines(d->engine, d->axis, d->lines, dim); /* a new generation */
    d->lines_valid = 1;
    return TBRF_OK;
}

/* The engine's failure st (its message) in the driver's message. */
int tbrfi_drv_engine_fail(tbrf_driver *d, int st)
{
    return tbrfi_drv_fail(d, st, "driver: %s", tbrfi_message_text(tbrfi_engine_msg(d->engine)));
}

int tbrfi_drv_tb_inside(const tbrf_driver *d, int c, double x)
{
    return x >= d->lo[c] - d->tol && x <= d->hi[c] + d->tol;
}

/* n points projected by the engine (its backend), the dim components
 * interleaved into out[dim i + c]; the engine keeps one component of
 * scratch (n doubles), so each component's lines go to a GPU once per
 * call. */
int tbrfi_drv_tb_points(tbrf_driver *d, int64_t n, const double *xyz, double *out)
{
    int st = tbrfi_drv_ensure_lines(d);
    if (st != TBRF_OK || n == 0)
        return st;
    if ((st = tbrfi_drv_fits(d, 8.0 * (double)n, "the projection's scratch")) != TBRF_OK)
        return st;
    st = tbrfi_engine_project_points(d->engine, n, xyz, out);
    return st == TBRF_OK ? TBRF_OK : tbrfi_drv_engine_fail(d, st);
}

/* Whether a grid lies in a non-periodic driver's domain: TBRF_OK or a
 * refusal naming the axis. */
int tbrfi_drv_tb_grid_inside(tbrf_driver *d, const double origin[3], const double spacing[3],
                          const int64_t n[3])
{
    for (int c = 0; c < d->dim; c++) {
        const double a = origin[c], b = origin[c] + spacing[c] * (double)(n[c] - 1);
        if (!tbrfi_drv_tb_inside(d, c, a) || !tbrfi_drv_tb_inside(d, c, b))
            return tbrfi_drv_fail(d, TBRF_ERR_OUT_OF_DOMAIN,
                        "driver: grid axis %d spans [%.17g, %.17g], outside the domain [%.17g, "
                        "%.17g]", c, fmin(a, b), fmax(a, b), d->lo[c], d->hi[c]);
    }
    return TBRF_OK;
}

/* The engine's grid of a non-periodic driver. */
grid_geom tbrfi_drv_tb_geom(const tbrf_driver *d, const double origin[3], const double spacing[3],
                         const int64_t n[3])
{
    grid_geom g;
    memset(&g, 0, sizeof g);
    for (int c = 0; c < 3; c++) {
        g.origin[c] = c < d->dim ? origin[c] : 0.0;
        g.spacing[c] = c < d->dim ? spacing[c] : 0.0;
        g.n[c] = c < d->dim ? n[c] : 1;
    }
    return g;
}

int tbrfi_drv_tb_grid(tbrf_driver *d, const double origin[3], const double spacing[3],
                   const int64_t n[3], int64_t total, double *out)
{
    int st = tbrfi_drv_tb_grid_inside(d, origin, spacing, n);
    if (st != TBRF_OK || (st = tbrfi_drv_ensure_lines(d)) != TBRF_OK)
        return st;
    const grid_geom g = tbrfi_drv_tb_geom(d, origin, spacing, n);
    if ((st = tbrfi_drv_fits(d, 8.0 * (double)total, "the projection's scratch")) != TBRF_OK)
        return st;
    st = tbrfi_engine_project_grid(d->engine, &g, 0, total, out);
    return st == TBRF_OK ? tbrfi_drv_ok(d) : tbrfi_drv_engine_fail(d, st);
}

/* ------------------------------------------------------------ backends */

/* A non-periodic driver on backend id (resolved): a new engine on it
 * (the same sizing: the frozen shape of the old one), which takes over the
 * current lines; on failure the old engine stays. */
int tbrfi_drv_tb_set_backend(tbrf_driver *d, int id, int device)
{
    tbrfi_engine *e = NULL;
    int st = tb_engine(d, tbrfi_engine_view_of(d->engine)->model, id, device, &e);
    if (st != TBRF_OK)
        return st;
    if (tbrfi_engine_view_of(e)->spec.M != d->spec->M) { /* the same sizing, or a bug */
        tbrfi_engine_destroy(e);
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: the %s engine sized its lines differently",
                    tbrf_backend_name(id));
    }
    tbrfi_engine_destroy(d->engine);
    d->engine = e;
    d->spec = &tbrfi_engine_view_of(e)->spec;
    tbrfi_engine_set_cancel(e, d->cancel.fn, d->cancel.user);
    if (d->lines_valid)
        tbrfi_engine_use_lines(e, d->axis, d->lines, d->dim);
    d->backend = id;
    return tbrfi_drv_ok(d);
}

