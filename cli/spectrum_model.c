/* spectrum_model.c — the model line of `tbrf spectrum` (spectrum_model.h). */
#include "spectrum_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/shell_model.h"
#include "cli.h"
#include "request.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Relative accuracy asked of each shell's average over directions. */
#define SHELL_RTOL 1e-4
/* Rows per decade of a Gaussian target's density table (linear in ln k:
 * relative error (ln 10 / 128)^2 / 8 times the curvature of P in ln k). */
#define ROWS_PER_DECADE 128

/* P_iso of the model. */
static double iso_model(void *ctx, double k)
{
    const spec_model *sm = ctx;
    return tbrf_model_spectrum(sm->model, sm->dim, k);
}

/* The density table of a Gaussian target, linear in ln k (0 beyond it:
 * the rows cover every k asked). */
static double iso_table(void *ctx, double k)
{
    const spec_model *sm = ctx;
    if (sm->tn < 2 || !(k >= sm->tk[0]) || k > sm->tk[sm->tn - 1])
        return NAN;
    const double lk = log(k), t0 = log(sm->tk[0]), t1 = log(sm->tk[sm->tn - 1]);
    double x = (lk - t0) / (t1 - t0) * (double)(sm->tn - 1);
    size_t i = (size_t)x;
    if (i >= sm->tn - 1)
        i = sm->tn - 2;
    x -= (double)i;
    return (1.0 - x) * sm->tp[i] + x * sm->tp[i + 1];
}

/* The model the plan ran (a lognormal density target: the contrast's,
 * normalised as asked; otherwise the plan's amplitude, whatever
 * normalisation was asked). */
static int make_model(spec_model *sm, tbrf_io_meta *meta, const char *file)
{
    if (meta->lognormal != TBRF_IO_LOGNORMAL_DENSITY) {
        meta->by_variance = 0;
        meta->amplitude = meta->info.amplitude;
    }
    int st = cli_model_make(meta, &sm->model);
    if (st != TBRF_OK) {
        char kind[128];
        cli_errline("%s: cannot rebuild model '%s' from the attributes%s%s", file,
                    tbrf_io_escape(meta->model_kind, kind, sizeof kind), sm->model ? ": " : "",
                    sm->model ? tbrf_model_message(sm->model) : "");
        return -1;
    }
    return 0;
}

/* A Gaussian target's density spectrum on rows from kmax/10^6 to kmax
 * (in the scaled coordinates), xi_g exact to the grid's diagonal. */
static int density_table(spec_model *sm, int dim, double kmax, double diag, const char *file)
{
    const double kmin = kmax * 1e-6;
    sm->tn = (size_t)(6 * ROWS_PER_DECADE) + 1;
    sm->tk = malloc(sm->tn * sizeof *sm->tk);
    sm->tp = malloc(sm->tn * sizeof *sm->tp);
    if (!sm->tk || !sm->tp) {
        cli_errline("out of memory");
        return -1;
    }
    for (size_t i = 0; i < sm->tn; i++)
        sm->tk[i] = kmin * pow(kmax / kmin, (double)i / (double)(sm->tn - 1));
    sm->tk[sm->tn - 1] = kmax;
    if (tbrf_lognormal_density_spectrum(sm->model, dim, kmax, 2.0 * diag, sm->tn, sm->tk,
                                        sm->tp)) {
        cli_errline("%s: the lognormal density's spectrum could not be computed (%zu rows to "
                    "k = %g over r <= %g)", file, sm->tn, kmax, 2.0 * diag);
        return -1;
    }
    return 0;
}

/* A density target's Gaussian: the contrast's model (sm->model, replaced)
 * turned into g's derived spectrum with the arguments the plan used
 * (cli/request.c, lognormal_setup: k in [min(pi/(4 D), kmin/2),
 * smax 2 pi sqrt(dim)/resolution], rmax = 2 D, D the domain's or box's
 * diagonal over smin; all recorded), clipped as it was: the density's
 * spectrum is then the one realised, clipping included. */
static int derived_gaussian(spec_model *sm, const tbrf_io_meta *m, const char *file, double smin,
                            double smax)
{
    double d2 = 0.0;
    for (int c = 0; c < m->dim; c++) {
        const double e = m->box ? m->box_length[c] : m->hi[c] - m->lo[c];
        d2 += e * e;
    }
    const double D = sqrt(d2) / smin;
    const double kmax = smax * 2.0 * M_PI * sqrt((double)m->dim) / m->resolution;
    double kmin = M_PI / (4.0 * D), lost = NAN;
    if (m->param[TBRF_IO_P_KMIN] > 0.0 && 0.5 * m->param[TBRF_IO_P_KMIN] < kmin)
        kmin = 0.5 * m->param[TBRF_IO_P_KMIN];
    tbrf_model *g = NULL;
    int st = tbrf_model_lognormal(sm->model, m->dim, kmin, kmax, 2.0 * D, 1.0, &lost, &g);
    if (st != TBRF_OK) {
        cli_errline("%s: the lognormal density's Gaussian cannot be derived again: %s", file,
                    g ? tbrf_model_message(g) : tbrf_strerror(st));
        tbrf_model_destroy(g);
        return -1;
    }
    tbrf_model_destroy(sm->model);
    sm->model = g;
    return 0;
}

int spec_model_make(spec_model *sm, tbrf_io_meta *meta, const char *file, double kmax,
                    double diag)
{
    memset(sm, 0, sizeof *sm);
    sm->factor = 1.0;
    sm->lognormal = meta->lognormal;
    if (make_model(sm, meta, file))
        return -1;
    double an[3];
    tbrf_model_anisotropy(sm->model, sm->scale, an);
    double smin = 1.0, smax = 1.0;
    for (int d = 0; d < meta->dim; d++) {
        sm->anis |= sm->scale[d] != 1.0;
        smin = fmin(smin, sm->scale[d]);
        smax = fmax(smax, sm->scale[d]);
    }
    sm->dim = meta->dim;
    if (sm->lognormal == TBRF_IO_LOGNORMAL_DENSITY &&
        derived_gaussian(sm, meta, file, smin, smax))
        return -1;
    if (sm->lognormal && density_table(sm, meta->dim, 1.01 * kmax * smax, diag / smin, file))
        return -1;
    if (sm->lognormal) {
        /* rho/rho_mean = exp(g - v/2): its covariance is exp(var g - v) (exp(C_g) - 1) */
        const double v = isfinite(meta->lognormal_shift) ? meta->lognormal_shift
                                                         : meta->lognormal_sigma2;
        if (isfinite(v) && isfinite(meta->info.variance_resolved))
            sm->factor = exp(meta->info.variance_resolved - v);
    }
    snprintf(sm->label, sizeof sm->label, "%s%s",
             sm->lognormal == TBRF_IO_LOGNORMAL_DENSITY
                 ? "the spectrum of rho/rho_mean = exp(g - v/2), the transform of exp(C_g) - 1 "
                   "of g's spectrum derived from the contrast's model (clipping included)"
             : sm->lognormal ? "the spectrum of rho/rho_mean = exp(g - v/2), the transform of "
                               "exp(C_g) - 1 of g's model"
                             : "the file's model",
             sm->anis ? ", averaged over each shell's directions (anisotropic: det S P(|S R^T k|))" : "");
    return 0;
}

double spec_model_shell(spec_model *sm, int dim, double k)
{
    tbrf_iso_spectrum f = sm->tn ? iso_table : iso_model;
    double p, err = 0.0;
    if (!sm->anis)
        p = f(sm, k);
    else if (tbrf_shell_average(f, sm, dim, sm->scale, k, SHELL_RTOL, &p, &err))
        p = NAN;
    if (err > sm->qerr)
        sm->qerr = err;
    return sm->factor * p;
}

void spec_model_free(spec_model *sm)
{
    tbrf_model_destroy(sm->model);
    free(sm->tk);
    free(sm->tp);
    memset(sm, 0, sizeof *sm);
}
