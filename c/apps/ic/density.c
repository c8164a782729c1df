/* density.c — densities from a Gaussian field (tbrf.h, "initial
 * conditions"): the one transform of the lognormal and linear contrasts,
 * pointwise (the inflow sampler's convention: the mean rho_mean in
 * expectation) or with the cells' volumes (AREPO gas: the volume-weighted
 * mean imposed exactly). */
#include <math.h>
#include <string.h>

#include "tbrf.h"
#include "apps/ic/ic_internal.h"

void tbrf_ic_default_density(tbrf_ic_density_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->kind = TBRF_DENSITY_LINEAR;
    p->rho_mean = 1.0;
}

static int density_check(const tbrf_ic_density_params *p, char *msg, size_t size)
{
    if (p->kind != TBRF_DENSITY_FIELD && p->kind != TBRF_DENSITY_LOGNORMAL &&
        p->kind != TBRF_DENSITY_LINEAR)
        return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "density kind %d: must be "
                             "TBRF_DENSITY_FIELD, _LOGNORMAL or _LINEAR", (int)p->kind);
    if (!(p->rho_mean > 0 && isfinite(p->rho_mean)) || !(p->sigma >= 0 && isfinite(p->sigma)) ||
        !(p->rho_floor >= 0 && p->rho_floor < 1) || p->reserved != 0)
        return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "density: rho_mean = %g must be finite "
                             "and > 0, sigma = %g finite and >= 0, rho_floor = %g in [0, 1)",
                       p->rho_mean, p->sigma, p->rho_floor);
    if (p->kind == TBRF_DENSITY_LOGNORMAL && !isfinite(exp(0.5 * p->sigma * p->sigma)))
        return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "density: sigma = %g overflows "
                             "exp(sigma^2/2)", p->sigma);
    return TBRF_OK;
}

double tbrfi_ic_density_point(const tbrf_ic_density_params *p, double g)
{
    switch (p->kind) {
    case TBRF_DENSITY_LOGNORMAL:
        return p->rho_mean * exp(p->sigma * g - 0.5 * p->sigma * p->sigma);
    case TBRF_DENSITY_LINEAR:
        return p->rho_mean * fmax(1.0 + p->sigma * g, p->rho_floor);
    default:
        return g;
    }
}

/* The shape s_i of the volume-normalised form: exp(sigma g) or the
 * floored 1 + sigma g (exp(-sigma^2/2) and rho_mean cancel in c). */
static double shape(const tbrf_ic_density_params *p, double g)
{
    if (p->kind == TBRF_DENSITY_LOGNORMAL)
        return exp(p->sigma * g);
    double f = 1 + p->sigma * g;
    return p->rho_floor > 0 ? fmax(f, p->rho_floor) : f;
}

/* rho_i = c s_i with sum rho_i vol_i = rho_mean box_volume (summed in
 * order: the same bits for the same input). */
static int normalised(const tbrf_ic_density_params *p, int64_t n, const double *g,
                      const double *vol, double box_volume, double *rho, char *msg, size_t size)
{
    double total = 0;
    for (int64_t i = 0; i < n; i++) {
        double f = shape(p, g ? g[i] : 0.0);
        if (!(f > 0 && isfinite(f)))
            return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "1 + delta = %g at point %lld: lower "
                                 "sigma or use the lognormal density", f, (long long)i);
        rho[i] = f;
        total += f * vol[i];
    }
    if (!(total > 0 && isfinite(total)))
        return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "density: the volumes sum to mass %g: "
                             "need positive, finite volumes", total);
    double c = p->rho_mean * box_volume / total;
    for (int64_t i = 0; i < n; i++)
        rho[i] *= c;
    return TBRF_OK;
}

int tbrf_ic_density(const tbrf_ic_density_params *p, int64_t n, const double *g, double *rho,
                    char *msg, size_t size)
{
    if (!p || (n > 0 && !rho))
        return tbrfi_ic_fail(msg, size, TBRF_ERR_NULL, "density: params or rho is NULL");
    int st = density_check(p, msg, size);
    if (st != TBRF_OK)
        return st;
    if (n < 0)
        return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "density: n = %lld < 0", (long long)n);
    for (int64_t i = 0; i < n; i++)
        rho[i] = tbrfi_ic_density_point(p, g ? g[i] : 0.0);
    tbrfi_ic_ok(msg, size);
    return TBRF_OK;
}

int tbrf_ic_density_volumes(const tbrf_ic_density_params *p, int64_t n, const double *g,
                            const double *vol, double box_volume, double *rho, char *msg,
                            size_t size)
{
    if (!p || (n > 0 && (!rho || !vol)))
        return tbrfi_ic_fail(msg, size, TBRF_ERR_NULL, "density: params, vol or rho is NULL");
    int st = density_check(p, msg, size);
    if (st != TBRF_OK)
        return st;
    if (n < 0 || p->kind == TBRF_DENSITY_FIELD || !(box_volume > 0 && isfinite(box_volume)))
        return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "density with volumes: need n = %lld "
                             ">= 0, the kind lognormal or linear and box_volume = %g finite "
                             "and > 0",
                             (long long)n, box_volume);
    st = normalised(p, n, g, vol, box_volume, rho, msg, size);
    if (st == TBRF_OK)
        tbrfi_ic_ok(msg, size);
    return st;
}
