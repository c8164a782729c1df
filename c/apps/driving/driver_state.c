/* driver_state.c — the driver's saved state (doc/driving.md, "Save and
 * load"): save, load with its checks, and the parameters a state records
 * (tbrf_driver_state_params, for a restart with amplitude control). */
#define _POSIX_C_SOURCE 200809L
#include "apps/driving/driver_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The saved state (tbrf_driver_save): magic, checksum, then the header
 * words and values it covers (doc/driving.md, "Save and load"). */
static const char MAGIC[8] = {'T', 'B', 'R', 'F', 'D', 'R', 'V', '2'};
static const char MAGIC_V1[8] = {'T', 'B', 'R', 'F', 'D', 'R', 'V', '1'};

/* ------------------------------------------------------- save / load */

/* The state: magic (8 bytes), a checksum of everything after it (8), then
 * 8-byte words: the tbrf version, the update, the counts, the seed, the
 * hash of the modes, the NPHYS physical parameters, and the values. */
enum { NPHYS = 20, STATE_HEADER = 64 + 8 * NPHYS };
static const char *const PHYS_NAME[NPHYS] = {
    "dim", "components", "periodic", "origin[0]", "origin[1]", "origin[2]", "length[0]", "length[1]",
    "length[2]", "zeta", "tcorr", "dt_update", "rms", "injection", "density", "normalization",
    "interpolate", "amplitude_factor[0]", "amplitude_factor[1]", "amplitude_factor[2]"};

/* The parameters that set the driver's values, in PHYS_NAME's order
 * (eval, threads, accuracy and the backend set how it is summed and are
 * not among them); those that cannot matter (the third axis in 2D, the rms
 * or the injection the normalisation ignores) as 0, so they never refuse. */
static void physical(const tbrf_driver *d, double v[NPHYS])
{
    const tbrf_driver_params *p = &d->p;
    const int inj = p->normalization == TBRF_DRIVE_INJECTION, pd = d->pdim, nc = d->dim;
    const double w[NPHYS] = {pd, nc, p->periodic, p->origin[0], pd >= 2 ? p->origin[1] : 0.0,
                             pd == 3 ? p->origin[2] : 0.0, p->length[0], pd >= 2 ? p->length[1] : 0.0,
                             pd == 3 ? p->length[2] : 0.0, p->zeta, p->tcorr, d->dt,
                             inj ? 0.0 : p->rms, inj ? p->injection : 0.0, inj ? p->density : 0.0,
                             p->normalization, p->interpolate, p->amplitude_factor[0],
                             p->amplitude_factor[1], nc == 3 ? p->amplitude_factor[2] : 0.0};
    memcpy(v, w, sizeof w);
}

/* A hash of the bytes [16, size) in 8-byte words: a change confined to
 * one word always changes it (each step is a bijection of the running
 * value and of the word), and the murmur finaliser spreads it. */
static uint64_t state_checksum(const unsigned char *b, int64_t size)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)size;
    for (int64_t at = 16; at + 8 <= size; at += 8) {
        uint64_t w;
        memcpy(&w, b + at, 8);
        h = (h ^ w) * 0x100000001b3ULL;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

static uint64_t version_word(void)
{
    return (uint64_t)TBRF_VERSION_MAJOR << 32 | (uint64_t)TBRF_VERSION_MINOR << 16 |
           (uint64_t)TBRF_VERSION_PATCH;
}

int64_t tbrf_driver_state_size(const tbrf_driver *d)
{
    if (!d || d->status != TBRF_OK)
        return 0;
    return STATE_HEADER + (int64_t)sizeof(double) * 2 * d->dim * d->nm;
}

static int save_held(tbrf_driver *d, void *buf, int64_t need);

int tbrf_driver_save(const tbrf_driver *dc, void *buf, int64_t size)
{
    tbrf_driver *d = (tbrf_driver *)dc; /* only the message and the lock change */
    if (!d)
        return TBRF_ERR_NULL;
    if (d->status != TBRF_OK)
        return tbrfi_drv_set_status(d, TBRF_ERR_BAD_PLAN);
    if (!buf)
        return tbrfi_drv_fail(d, TBRF_ERR_NULL, "driver: save: buf is NULL");
    const int64_t need = tbrf_driver_state_size(d);
    if (size < need)
        return tbrfi_drv_fail(d, TBRF_ERR_SIZE, "driver: save: %lld bytes, the state needs %lld",
                    (long long)size, (long long)need);
    pthread_rwlock_rdlock(&d->lock);
    const int st = save_held(d, buf, need);
    pthread_rwlock_unlock(&d->lock);
    return st;
}

/* tbrf_driver_save under the lock (shared): d->j and d->a do not move. */
static int save_held(tbrf_driver *d, void *buf, int64_t need)
{
    if (d->j < 0)
        return tbrfi_drv_fail(d, TBRF_ERR_NO_GEOMETRY, "driver: save: no state yet (evaluate at a time first)");
    unsigned char *b = buf;
    const int64_t nm = d->nm, nc = 2 * d->dim;
    const uint64_t ver = version_word();
    double phys[NPHYS];
    physical(d, phys);
    memcpy(b, MAGIC, 8);
    memcpy(b + 16, &ver, 8);
    memcpy(b + 24, &d->j, 8);
    memcpy(b + 32, &nm, 8);
    memcpy(b + 40, &nc, 8);
    memcpy(b + 48, &d->seed, 8);
    memcpy(b + 56, &d->modes_hash, 8);
    memcpy(b + 64, phys, sizeof phys);
    memcpy(b + STATE_HEADER, d->a, sizeof(double) * (size_t)(nc * nm));
    const uint64_t sum = state_checksum(b, need);
    memcpy(b + 8, &sum, 8);
    return tbrfi_drv_ok(d);
}

/* The state's format, version, counts, values and checksum (not whose it
 * is): TBRF_OK with its update in *j, or a refusal in *d. */
static int state_intact(tbrfi_message *d, const unsigned char *b, int64_t size, int64_t *j)
{
    if (size >= 8 && memcmp(b, MAGIC_V1, 8) == 0)
        return tbrfi_fail(d, TBRF_ERR_INVALID, "driver: load: a state of tbrf 0.5 or earlier (format "
                    "TBRFDRV1), refused by version %s: since 0.6.0 the OU process is drawn by random "
                    "access, with other values; evaluate at the time instead (no state is needed)",
                    TBRF_VERSION_STRING);
    if (size < STATE_HEADER || memcmp(b, MAGIC, 8) != 0)
        return tbrfi_fail(d, TBRF_ERR_INVALID, "driver: load: not a tbrf driver state (%lld bytes)",
                    (long long)size);
    uint64_t ver, sum;
    int64_t nm, nc;
    memcpy(&sum, b + 8, 8);
    memcpy(&ver, b + 16, 8);
    memcpy(j, b + 24, 8);
    memcpy(&nm, b + 32, 8);
    memcpy(&nc, b + 40, 8);
    if ((ver >> 16) != (version_word() >> 16))
        return tbrfi_fail(d, TBRF_ERR_INVALID, "driver: load: a state of tbrf %u.%u.%u, refused by version "
                    "%s: another minor version may draw other OU values", (unsigned)(ver >> 32),
                    (unsigned)(ver >> 16 & 0xFFFF), (unsigned)(ver & 0xFFFF), TBRF_VERSION_STRING);
    if (nm < 1 || nm > TBRF_DRIVE_MAX_MODES || (nc != 4 && nc != 6))
        return tbrfi_fail(d, TBRF_ERR_INVALID, "driver: load: a damaged state (counts %lld modes x %lld)",
                    (long long)nm, (long long)nc);
    const int64_t need = STATE_HEADER + 8 * nm * nc;
    if (size < need)
        return tbrfi_fail(d, TBRF_ERR_SIZE, "driver: load: %lld bytes, the state has %lld", (long long)size,
                    (long long)need);
    for (int64_t i = 0; i < nm * nc; i++) {
        double v;
        memcpy(&v, b + STATE_HEADER + 8 * i, 8);
        if (!isfinite(v))
            return tbrfi_fail(d, TBRF_ERR_INVALID, "driver: load: value %lld of the state (mode %lld, real "
                        "%lld) is %s: a damaged state", (long long)i, (long long)(i / nc),
                        (long long)(i % nc), isnan(v) ? "NaN" : "infinite");
    }
    if (state_checksum(b, need) != sum)
        return tbrfi_fail(d, TBRF_ERR_INVALID, "driver: load: the state's checksum does not match its "
                    "contents (a damaged or edited state)");
    return TBRF_OK;
}

/* Whether the state b (intact) is this driver's: TBRF_OK, or a refusal
 * naming the first parameter that differs. */
static int load_same(tbrf_driver *d, const unsigned char *b)
{
    static const char why[] = "(a state loads into a driver made with the same model, seed and "
                              "physical parameters, whatever its threads, eval or backend)";
    uint64_t seed, hash;
    int64_t nm, nc;
    double phys[NPHYS], mine[NPHYS];
    memcpy(&nm, b + 32, 8);
    memcpy(&nc, b + 40, 8);
    memcpy(&seed, b + 48, 8);
    memcpy(&hash, b + 56, 8);
    memcpy(phys, b + 64, sizeof phys);
    physical(d, mine);
    for (int k = 0; k < NPHYS; k++) {
        if (k == 3 && seed != d->seed) /* after dim, components and periodic */
            return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: load: the state is of another driver: its "
                        "seed=%llu, this driver's %llu %s", (unsigned long long)seed,
                        (unsigned long long)d->seed, why);
        if (phys[k] != mine[k])
            return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: load: the state is of another driver: its "
                        "%s=%.17g, this driver's %.17g %s", PHYS_NAME[k], phys[k], mine[k], why);
    }
    if (nm != d->nm || nc != 2 * d->dim || hash != d->modes_hash)
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: load: the state is of another driver: its %lld "
                    "modes%s differ from this driver's %lld (another model or band) %s", (long long)nm,
                    nm == d->nm ? "' wavevectors or variances" : "", (long long)d->nm, why);
    return TBRF_OK;
}

int tbrf_driver_load(tbrf_driver *d, const void *buf, int64_t size)
{
    if (!d)
        return TBRF_ERR_NULL;
    if (d->status != TBRF_OK)
        return tbrfi_drv_set_status(d, TBRF_ERR_BAD_PLAN);
    if (!buf)
        return tbrfi_drv_fail(d, TBRF_ERR_NULL, "driver: load: buf is NULL");
    int64_t j = 0;
    tbrfi_message why;
    tbrfi_message_clear(&why);
    int st = state_intact(&why, buf, size, &j);
    if (st != TBRF_OK)
        return tbrfi_drv_fail(d, st, "%s", tbrfi_message_text(&why));
    st = load_same(d, buf);
    if (st != TBRF_OK)
        return st;
    if (j < 0 || j >= TBRF_OU_UPDATES - 1)
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: load: update index %lld out of range", (long long)j);
    pthread_rwlock_wrlock(&d->lock);
    memcpy(d->a, (const unsigned char *)buf + STATE_HEADER, sizeof(double) * 2 * (size_t)d->dim * (size_t)d->nm);
    d->j = j;
    d->coef_valid = 0;
    d->fine_valid = 0;
    d->lines_valid = 0;
    pthread_rwlock_unlock(&d->lock);
    return tbrfi_drv_ok(d);
}

int tbrf_driver_state_params(const void *buf, int64_t size, tbrf_driver_params *params,
                             uint64_t *seed, char *message, int64_t message_size)
{
    tbrfi_message why;
    tbrfi_message_clear(&why);
    int64_t j = 0;
    int st = !buf || !params ? tbrfi_fail(&why, TBRF_ERR_NULL, "driver: state_params: %s is NULL",
                                          buf ? "params" : "buf")
                             : state_intact(&why, buf, size, &j);
    if (message && message_size > 0)
        snprintf(message, (size_t)message_size, "%s", tbrfi_message_text(&why));
    if (st != TBRF_OK)
        return st;
    double v[NPHYS];
    memcpy(v, (const unsigned char *)buf + 64, sizeof v);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.dim = (int32_t)v[0];
    p.components = (int32_t)v[1];
    p.periodic = (int32_t)v[2];
    for (int c = 0; c < p.dim; c++) { /* the axes a box lacks were recorded as 0 */
        p.origin[c] = v[3 + c];
        p.length[c] = v[6 + c];
    }
    p.zeta = v[9];
    p.tcorr = v[10];
    p.dt_update = v[11];
    p.normalization = (int32_t)v[15];
    if (p.normalization == TBRF_DRIVE_INJECTION) {
        p.injection = v[13];
        p.density = v[14];
    } else {
        p.rms = v[12];
    }
    p.interpolate = (int32_t)v[16];
    for (int c = 0; c < p.components; c++)
        p.amplitude_factor[c] = v[17 + c];
    *params = p;
    if (seed)
        memcpy(seed, (const unsigned char *)buf + 48, 8);
    return TBRF_OK;
}

