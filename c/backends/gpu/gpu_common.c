/* gpu_common.c — see gpu_common.h. */
#include "backends/gpu/gpu_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/gpu/wisdom.h"

#define DEFAULT_CHUNK ((int64_t)1 << 24)
#define MIN_SPLIT ((int64_t)1 << 16)

const char *const tbrfi_gpu_kind_names[2] = {"grid", "points"};

void tbrfi_gpu_config_init(gpu_config *c, const tbrf_opts *opts)
{
    c->precision = opts->precision;
    c->vsize = c->precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
    c->req_wg = opts->work_group;
    c->req_unroll = opts->unroll;
    c->forced_chunk = 0;
    const char *fc = getenv("TBRF_DEVICE_CHUNK");
    if (fc && *fc) {
        long long v = atoll(fc);
        c->forced_chunk = v > 0 ? v : 0;
    }
}

int tbrfi_gpu_lines_upload(gpu_cache *c, const projection *p, int precision, gpu_upload *up, char *msg,
                     size_t msgsize)
{
    *up = (gpu_upload){NULL, 0, NULL};
    if (c->have_lines && c->generation == p->generation && c->L == p->L && c->M == p->M)
        return TBRF_OK;
    c->have_lines = 0;
    c->have_lc = 0;
    const size_t nl = (size_t)p->L * (size_t)p->M;
    if (precision != TBRF_FLOAT) {
        *up = (gpu_upload){p->lines, nl * sizeof(double), NULL};
        return TBRF_OK;
    }
    float *f = malloc(sizeof(float) * nl);
    if (!f) {
        snprintf(msg, msgsize, "no memory to convert the lines to float");
        return TBRF_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < nl; i++)
        f[i] = (float)p->lines[i];
    *up = (gpu_upload){f, nl * sizeof(float), f};
    return TBRF_OK;
}

void tbrfi_gpu_lines_loaded(gpu_cache *c, const projection *p)
{
    c->L = p->L;
    c->M = p->M;
    c->generation = p->generation;
    c->have_lines = 1;
}

int tbrfi_gpu_grid_upload(gpu_cache *c, const projection *p, const grid_geom *g, int precision,
                    gpu_upload *up, char *msg, size_t msgsize)
{
    *up = (gpu_upload){NULL, 0, NULL};
    if (c->have_lc && c->lc_generation == p->generation && memcmp(&c->lc_geom, g, sizeof *g) == 0)
        return TBRF_OK;
    c->have_lc = 0;
    double *lc = tbrfi_projection_grid_constants(p, g);
    if (!lc) {
        snprintf(msg, msgsize, "no memory for the grid constants");
        return TBRF_ERR_NO_MEMORY;
    }
    if (precision == TBRF_FLOAT) {
        int64_t *q = (int64_t *)lc; /* same size, converted in place */
        for (int i = 0; i < 4 * p->L; i++)
            q[i] = (int64_t)llround(lc[i] * 4294967296.0);
    }
    *up = (gpu_upload){lc, sizeof(double) * 4 * (size_t)p->L, lc};
    return TBRF_OK;
}

void tbrfi_gpu_lc_loaded(gpu_cache *c, const projection *p, const grid_geom *g)
{
    c->lc_geom = *g;
    c->lc_generation = p->generation;
    c->have_lc = 1;
}

int64_t tbrfi_gpu_chunk_size(int64_t forced_chunk, int64_t cap, int64_t count)
{
    int64_t c = forced_chunk ? forced_chunk : DEFAULT_CHUNK;
    if (!forced_chunk && cap > 0 && c > cap)
        c = cap;
    /* at least 4 chunks of a large call, so transfers overlap kernels even
     * when the plan streams host chunks that fit the device in one piece */
    if (!forced_chunk && count >= 4 * MIN_SPLIT && (count + 3) / 4 < c)
        c = (count + 3) / 4;
    return c < count ? c : count;
}

int tbrfi_gpu_unroll_round(int u)
{
    int r = 1;
    while (r * 2 <= u && r < 16)
        r *= 2;
    return r;
}

/* The fastest of the configurations not fixed by wg / un (0 = free): work
 * groups t->wgs (clamped to kmax), unrolls 1..8 (16 only on request).
 * 0 and *bw, *bu, or -1 if every run failed. */
static int measure(const gpu_tuning *t, int wg, int un, int *bw, int *bu)
{
    static const int unrolls[] = {1, 2, 4, 8};
    double best = -1.0;
    for (int i = 0; i < 4; i++) {
        int w = wg ? wg : t->wgs[i];
        if ((size_t)w > t->kmax)
            w = (int)t->kmax;
        for (int j = 0; j < 4; j++) {
            int u = un ? tbrfi_gpu_unroll_round(un) : unrolls[j];
            double s = t->time(&t->job, w, u);
            if (s >= 0.0 && (best < 0.0 || s < best)) {
                best = s;
                *bw = w;
                *bu = u;
            }
            if (un)
                break;
        }
        if (wg)
            break;
    }
    return best < 0.0 ? -1 : 0;
}

int tbrfi_gpu_tune(const gpu_config *c, const gpu_tuning *t, gpu_choice *ch, char *msg, size_t msgsize)
{
    const char *kind = tbrfi_gpu_kind_names[t->job.kind];
    char key[768];
    tbrf_wisdom_key(key, sizeof key, t->backend, t->device, t->driver, kind,
                    c->precision == TBRF_FLOAT ? "float" : "double");
    int wg = c->req_wg, un = c->req_unroll, cw = 0, cu = 0;
    if ((wg == 0 || un == 0) && tbrf_wisdom_lookup(key, &cw, &cu) && (size_t)cw <= t->kmax) {
        if (wg == 0)
            wg = cw;
        if (un == 0)
            un = cu;
    }
    int provisional = 0;
    if ((wg == 0 || un == 0) && t->job.n < t->sample) {
        /* too little work to measure reliably, and a tiny first call must
         * not decide the cache: defaults for this call, nothing stored,
         * tuned again on a larger call */
        provisional = 1;
        if (wg == 0)
            wg = t->default_wg;
        if (un == 0)
            un = 4;
    }
    if (wg == 0 || un == 0) {
        int bw = 0, bu = 0;
        if (measure(t, wg, un, &bw, &bu)) {
            snprintf(msg, msgsize, "tuning the %s kernel on %s: every configuration failed", kind,
                     t->device);
            return TBRF_ERR_NO_DEVICE;
        }
        if (!c->req_wg && !c->req_unroll)
            tbrf_wisdom_store(key, bw, bu);
        wg = bw;
        un = bu;
    }
    ch->wg = (size_t)wg > t->kmax ? (int)t->kmax : wg;
    ch->unroll = tbrfi_gpu_unroll_round(un);
    ch->tuned = !provisional;
    return TBRF_OK;
}
