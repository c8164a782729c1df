/* points.c — point placement (lattice, jittered lattice, random) and glass
 * tiling for initial conditions (tbrf.h, "initial conditions").
 *
 * The random numbers are Philox words of the IC range of the stream
 * registry (core/streams.h): point i's three numbers are words 0..2 of
 * philox(seed, realization, w0 = i, w1 = TBRF_IC_STREAM(purpose, i)), one
 * counter a point, so a point depends on (seed, realization, i) alone and
 * no field, driver or tbrf_rng_* word of any seed is ever reused. */
#include <math.h>
#include <string.h>

#include "tbrf.h"
#include "apps/ic/ic_internal.h"
#include "core/streams.h"

void tbrf_ic_default_points(tbrf_ic_points_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->kind = TBRF_IC_LATTICE;
    p->per_axis = 2;
    p->n = 8;
    p->box = 1.0;
    p->jitter = 0.25;
    p->seed = 1;
}

/* The count, or -1 with the reason when the parameters are out of range. */
static int64_t points_check(const tbrf_ic_points_params *p, char *msg, size_t size)
{
    if (!(p->box > 0 && isfinite(p->box)) || p->kind < TBRF_IC_LATTICE ||
        p->kind > TBRF_IC_RANDOM || p->reserved != 0) {
        tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "points: kind %d must be TBRF_IC_LATTICE, "
                      "_JITTERED or _RANDOM and the box %g finite and > 0", (int)p->kind, p->box);
        return -1;
    }
    if (p->kind == TBRF_IC_RANDOM) {
        if (p->n >= 1 && p->n < TBRF_IC_INDEX_LIMIT)
            return p->n;
        tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "points: n = %lld must lie in 1 .. 2^48 - 1",
                      (long long)p->n);
        return -1;
    }
    /* G^3 < 2^48: G below 2^16 */
    if (!(p->per_axis >= 1 && p->per_axis < 65536) ||
        !(p->jitter >= 0 && p->jitter < 0.5)) {
        tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "points: per_axis = %lld must lie in 1 .. 65535 "
                      "and jitter = %g in [0, 0.5)", (long long)p->per_axis, p->jitter);
        return -1;
    }
    return p->per_axis * p->per_axis * p->per_axis;
}

int64_t tbrf_ic_points_count(const tbrf_ic_points_params *p)
{
    return p ? points_check(p, NULL, 0) : -1;
}

/* x folded into [0, box): a jitter of up to half a spacing crosses a face. */
static double fold(double x, double box)
{
    return x >= box ? x - box : (x < 0 ? x + box : x);
}

static void lattice_rows(const tbrf_ic_points_params *p, int64_t first, int64_t count,
                         double *xyz)
{
    const int64_t g = p->per_axis;
    const double dx = p->box / (double)g;
    for (int64_t r = 0; r < count; r++) {
        const int64_t i = first + r;
        const int64_t ix[3] = {i % g, i / g % g, i / (g * g)};
        double off[3] = {0, 0, 0};
        if (p->kind == TBRF_IC_JITTERED) {
            philox4x32_ctr_t w = tbrf_philox(p->seed, p->realization, (uint32_t)i,
                                             TBRF_IC_STREAM(TBRF_IC_PURPOSE_JITTER, i));
            for (int c = 0; c < 3; c++)
                off[c] = tbrf_s11(w.v[c]);
        }
        for (int c = 0; c < 3; c++)
            xyz[3 * r + c] = fold(((double)ix[c] + 0.5 + p->jitter * off[c]) * dx, p->box);
    }
}

static void random_rows(const tbrf_ic_points_params *p, int64_t first, int64_t count,
                        double *xyz)
{
    for (int64_t r = 0; r < count; r++) {
        const int64_t i = first + r;
        philox4x32_ctr_t w = tbrf_philox(p->seed, p->realization, (uint32_t)i,
                                         TBRF_IC_STREAM(TBRF_IC_PURPOSE_RANDOM, i));
        for (int c = 0; c < 3; c++) {
            /* u <= 1 - 2^-32: u box rounds below box except for huge boxes */
            double x = tbrf_u01(w.v[c]) * p->box;
            xyz[3 * r + c] = x < p->box ? x : 0.0;
        }
    }
}

int tbrf_ic_points(const tbrf_ic_points_params *p, int64_t first, int64_t count, double *xyz,
                   char *msg, size_t size)
{
    if (!p || (!xyz && count > 0))
        return tbrfi_ic_fail(msg, size, TBRF_ERR_NULL, "points: params or xyz is NULL");
    int64_t n = points_check(p, msg, size);
    if (n < 0)
        return TBRF_ERR_INVALID;
    if (first < 0 || count < 0 || count > n - first)
        return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "points: rows %lld .. %lld + %lld "
                             "are not within the %lld points", (long long)first, (long long)first,
                             (long long)count, (long long)n);
    if (p->kind == TBRF_IC_RANDOM)
        random_rows(p, first, count, xyz);
    else
        lattice_rows(p, first, count, xyz);
    tbrfi_ic_ok(msg, size);
    return TBRF_OK;
}

int tbrf_ic_glass_tile(int64_t glass_n, const double *glass, double glass_box, int64_t particles,
                       int64_t *tile, char *msg, size_t size)
{
    if (!glass || !tile)
        return tbrfi_ic_fail(msg, size, TBRF_ERR_NULL, "glass: glass or tile is NULL");
    if (glass_n < 1 || !(glass_box > 0 && isfinite(glass_box)) || particles < 1 ||
        particles > 2097152)
        return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "glass: %lld points in a box of %g for "
                             "%lld particles per axis: need >= 1 point, a box > 0 and 1 .. 2^21 "
                             "particles", (long long)glass_n, glass_box, (long long)particles);
    for (int64_t i = 0; i < 3 * glass_n; i++)
        if (!(glass[i] >= 0 && glass[i] < glass_box))
            return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "glass point %lld: coordinate %g "
                                 "is outside [0, %g) (its box)", (long long)(i / 3), glass[i],
                                 glass_box);
    const int64_t n = particles * particles * particles;
    if (n % glass_n != 0)
        return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "%lld particles per axis (%lld "
                             "particles) does not tile the glass of %lld particles: G^3 must be "
                             "a multiple of it",
                             (long long)particles, (long long)n, (long long)glass_n);
    int64_t t = llround(cbrt((double)(n / glass_n)));
    if (t < 1 || t * t * t != n / glass_n)
        return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "%lld particles are %lld copies of the "
                             "glass, not T^3 for an integer T: the tiling must be cubic (the same "
                             "factor on every axis)", (long long)n, (long long)(n / glass_n));
    *tile = t;
    tbrfi_ic_ok(msg, size);
    return TBRF_OK;
}

int tbrf_ic_glass_sites(int64_t glass_n, const double *glass, double glass_box, int64_t tile,
                        double box, int64_t first, int64_t count, double *site)
{
    if (!glass || (!site && count > 0))
        return TBRF_ERR_NULL;
    if (glass_n < 1 || tile < 1 || tile > 2097152 || !(glass_box > 0) || !(box > 0) ||
        first < 0 || count < 0 || glass_n > INT64_MAX / tile / tile / tile ||
        count > glass_n * tile * tile * tile - first)
        return TBRF_ERR_INVALID;
    const double cell = box / (double)tile;
    for (int64_t r = 0; r < count; r++) {
        const int64_t i = first + r, j = i % glass_n, t = i / glass_n;
        const int64_t tc[3] = {t % tile, t / tile % tile, t / (tile * tile)};
        for (int c = 0; c < 3; c++) {
            double x = (glass[3 * j + c] / glass_box + (double)tc[c]) * cell;
            site[3 * r + c] = x < box ? x : 0.0;
        }
    }
    return TBRF_OK;
}
