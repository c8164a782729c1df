/* driver.c — turbulence driving: an OU forcing field of periodic Fourier
 * modes (driver.h; the mathematics in doc/driving.md).
 *
 * State. The OU value a_m(j) of every mode at update j (dim complex
 * components, standard complex normal, stationary) is a pure function of
 * (seed, m, dt / T, j), drawn by random access on a dyadic tree of
 * conditional Gaussians (ou_tree.h): O(48) draws for any j, one per update
 * when the updates come in order. The driver keeps the value of one update
 * (a loaded state is that value); the force never depends on the history
 * of calls.
 *
 * Coefficients. c_m = A s_m P_zeta(khat) a_m with s_m = sqrt(P(|k|)), A
 * from the target rms (ensemble, or per update from the modes by
 * Parseval), and optionally linear interpolation between updates j and
 * j + 1. The force is f(x) = sum over the listed modes of 2 Re(c_m e^{i
 * k.(x - o)}): the listed modes are one of each +-m pair (m_x > 0, or m_x = 0
 * and the first non-zero of m_y, m_z positive), and m = 0 is never one.
 *
 * Where it is summed. The direct sum runs on the driver's backend
 * (backend_ops.drive_points; the CPU's by default, tbrf_driver_set_backend
 * moves it), a CPU grid axis by axis (grid_separable), the NUFFT on the
 * CPU. A non-periodic domain composes the turning-bands engine
 * (engine/engine.h), which sizes the lines and projects the driver's OU
 * lines through its backend. The state never depends on any of this. */
#define _POSIX_C_SOURCE 200809L /* pthread_rwlock_t */
#include "apps/driving/driver.h"
#include "apps/driving/ou_tree.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "core/message.h"
#include "core/model.h"
#include "core/parallel.h"
#include "engine/engine.h"
#include "methods/nufft/nufft.h"
#include "methods/turning_bands/directions.h"
#include "methods/turning_bands/lines.h"
#include "tbrf.h"
#include "tbrf/rng/philox.h"

static const double PI = 3.14159265358979323846;

#define DRIVE_CHUNK 65536
/* Updates of fewer modes run on one thread: a parallel region costs more
 * than a few thousand modes' draws, and busy-waiting threads slow a shared
 * machine (values never depend on it). */
#define PAR_MODES 4096
/* The saved state (tbrf_driver_save): magic, checksum, then the header
 * words and values it covers (doc/driving.md, "Save and load"). */
static const char MAGIC[8] = {'T', 'B', 'R', 'F', 'D', 'R', 'V', '2'};
static const char MAGIC_V1[8] = {'T', 'B', 'R', 'F', 'D', 'R', 'V', '1'};

struct tbrf_driver {
    int status;        /* TBRF_OK, or BAD_PLAN once the make failed */
    tbrfi_message msg; /* the last call's status and message (under msg_lock) */
    /* Threads share a driver (doc/driving.md, "Threads and ranks"): calls
     * evaluate holding `lock` shared while the coefficients are those of
     * their time; the first call of a new time takes it exclusive, so a
     * rebuild waits for the calls running on the old coefficients and
     * the others wait for the new ones. Calls whose evaluation writes
     * shared scratch (a non-periodic domain's engine, a GPU backend's
     * upload cache) evaluate exclusive. */
    pthread_rwlock_t lock;
    pthread_mutex_t msg_lock;
    int locks; /* whether lock and msg_lock were made */
    tbrf_driver_params p;
    uint64_t seed;
    /* a hash of the driven modes (wavevectors or line modes and their
     * variances), which the saved state records beside the parameters */
    uint64_t modes_hash;
    int dim, eval; /* dim: the force's components (the arithmetic's dimension) */
    int pdim;      /* the box's axes (a position's coordinates): dim, or 1, 2 below a
                    * three-component dim (lifted: positions get 0 on the missing axes) */
    int eval_cpu; /* the eval of the CPU backend (eval, or what AUTO chose there) */
    /* where a box's sums run (tbrf_driver_set_backend): the table entry
     * and its state from init (NULL for the CPU); a domain's engine holds
     * its own. backend: the id in use (AUTO resolved), either way */
    const backend_ops *be;
    void *be_state;
    int backend;
    double budget; /* tbrf_memory_budget at make */
    double bytes;  /* what the make allocated */
    double dt, decay; /* dt_update, f = e^{-dt/T} */
    double amp;              /* A of the ensemble normalisation */
    double rms_ensemble;
    int64_t nm;
    int32_t *m;      /* 3 per mode */
    double *s;       /* s_m = sqrt(P(|k|)) */
    double *khat;    /* unit wavevector, 3 per mode */
    int mmax[3];
    double kmin, kmax; /* the model's support */
    /* directions > 0: the modes of each shell s (N_s of them), counted
     * before the selection; NULL after the make */
    int64_t *shell_n;
    int nshell;
    /* the OU tree, and its value a(j) (2 dim doubles per mode) at update
     * j, -1 before any; a1 holds a(j + 1) for the interpolation */
    ou_tree ou;
    int64_t j;
    double *a, *a1;
    /* coefficients of the last time asked: key (update, weight) */
    double *coef, *cj;
    int coef_valid;
    int64_t coef_j;
    double coef_w;
    uint64_t coef_gen; /* counts the coefficient sets, for a backend's upload cache */
    /* NUFFT: fine grids of the coefficients, valid with them */
    nufft_setup ns;
    double *fine[3];
    fftw_complex *C;
    int fine_valid;
    /* turning bands (periodic = 0): process i = l K + k is line l's mode
     * lm[k], dim complex components; s[i] = sqrt(E|X_m|^2) */
    int tb, L;
    int64_t K;
    int32_t *lm;
    tbrfi_engine *engine;  /* sizing, domain, FFT plan and projection (engine/engine.h) */
    const line_spec *spec; /* the engine's */
    double *u;         /* unit directions, 3 per line */
    double *axis;      /* u / delta (3 per line), then the L shifts */
    double *raw;       /* dim line sets Z_c (c L M samples each) */
    double *lines;     /* the mixed sets W_c = P_zeta(u) Z, projected per component */
    double lo[3], hi[3], tol; /* the engine's domain and tolerance */
    int lines_valid;
};

/* The message is written under msg_lock, so that threads sharing the
 * driver never write it at once (it is then the last call's to finish). */
static int fail(tbrf_driver *d, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (d->locks)
        pthread_mutex_lock(&d->msg_lock);
    tbrfi_failv(&d->msg, status, fmt, ap);
    if (d->locks)
        pthread_mutex_unlock(&d->msg_lock);
    va_end(ap);
    return status;
}

/* The status alone, the message kept (a failed make's stays readable). */
static int set_status(tbrf_driver *d, int status)
{
    if (d->locks)
        pthread_mutex_lock(&d->msg_lock);
    d->msg.status = status;
    if (d->locks)
        pthread_mutex_unlock(&d->msg_lock);
    return status;
}

static int ok(tbrf_driver *d)
{
    if (d->locks)
        pthread_mutex_lock(&d->msg_lock);
    tbrfi_message_clear(&d->msg);
    if (d->locks)
        pthread_mutex_unlock(&d->msg_lock);
    return TBRF_OK;
}

#define MIB (1024.0 * 1024.0)

/* Whether `bytes` more fit the memory budget next to what the driver
 * holds: TBRF_OK, or TBRF_ERR_SIZE with a message naming `what` and
 * ending with `hint` (what the caller can do; "" for none). */
static int fits_hint(tbrf_driver *d, double bytes, const char *what, const char *hint)
{
    if (d->bytes + bytes <= d->budget)
        return TBRF_OK;
    return fail(d, TBRF_ERR_SIZE, "driver: %s would need %.3g MiB, with the %.3g MiB the driver holds "
                "above the memory budget of %.3g MiB (tbrf_memory_budget: TBRF_MEMORY_BUDGET or half "
                "the physical memory)%s", what, bytes / MIB, d->bytes / MIB, d->budget / MIB, hint);
}

static int fits(tbrf_driver *d, double bytes, const char *what)
{
    return fits_hint(d, bytes, what, "");
}

/* fits_hint, and counts the bytes as held (allocations kept until destroy). */
static int reserve(tbrf_driver *d, double bytes, const char *what, const char *hint)
{
    const int st = fits_hint(d, bytes, what, hint);
    if (st == TBRF_OK)
        d->bytes += bytes;
    return st;
}

void tbrf_driver_default_params(tbrf_driver_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->dim = 3;
    p->periodic = 1;
    for (int d = 0; d < 3; d++) {
        p->length[d] = 1.0;
        p->amplitude_factor[d] = 1.0;
    }
    p->zeta = 1.0;
    p->tcorr = 1.0;
    p->rms = 1.0;
    p->density = 1.0;
}

/* ------------------------------------------------------------ checks */

static int check_params(tbrf_driver *d, const tbrf_driver_params *p)
{
    if (p->dim < 1 || p->dim > 3)
        return fail(d, TBRF_ERR_INVALID, "driver: dim=%d must be 1, 2 or 3", (int)p->dim);
    if (p->components != 0 && p->components != p->dim && p->components != 3)
        return fail(d, TBRF_ERR_INVALID, "driver: components=%d must be 0 (= dim), dim or 3",
                    (int)p->components);
    const int ncomp = p->components ? p->components : p->dim;
    if (ncomp == 1)
        return fail(d, TBRF_ERR_INVALID, "driver: dim=1 needs components=3 (a 1D box forced in "
                    "three components, TurbGen's ndim = 1.5): one component along k is the "
                    "compressive part alone");
    if (ncomp > p->dim && p->periodic == 0)
        return fail(d, TBRF_ERR_UNSUPPORTED, "driver: components=3 with dim=%d needs a periodic box "
                    "(periodic = 1): the turning-bands lines of a non-periodic domain have dim "
                    "components", (int)p->dim);
    if (ncomp > p->dim && p->eval == TBRF_DRIVE_NUFFT)
        return fail(d, TBRF_ERR_UNSUPPORTED, "driver: components=3 with dim=%d sums its modes "
                    "directly (TBRF_DRIVE_AUTO or _DIRECT), not by the NUFFT", (int)p->dim);
    if (p->directions < 0 || (p->directions > 0 && p->periodic == 0))
        return fail(d, p->directions < 0 ? TBRF_ERR_INVALID : TBRF_ERR_UNSUPPORTED,
                    "driver: directions=%d must be >= 0, and 0 on a non-periodic domain (the "
                    "sparse directions select a box's Fourier modes)", (int)p->directions);
    if (p->periodic != 0 && p->periodic != 1)
        return fail(d, TBRF_ERR_INVALID, "driver: periodic=%d must be 1 (a periodic box) or 0 (a "
                    "non-periodic domain, turning bands)", (int)p->periodic);
    /* Turning bands have no box modes: no Parseval sum over the domain
     * (the lines' power spreads beyond it), no NUFFT of modes. */
    if (p->periodic == 0 && p->normalization == TBRF_DRIVE_RMS_EXACT)
        return fail(d, TBRF_ERR_UNSUPPORTED,
                    "driver: normalization=TBRF_DRIVE_RMS_EXACT needs the Fourier modes of a "
                    "periodic box (Parseval); a non-periodic domain (turning bands) offers the "
                    "ensemble rms (TBRF_DRIVE_RMS_ENSEMBLE) or TBRF_DRIVE_INJECTION");
    if (p->periodic == 0 && p->eval == TBRF_DRIVE_NUFFT)
        return fail(d, TBRF_ERR_UNSUPPORTED,
                    "driver: eval=TBRF_DRIVE_NUFFT sums the modes of a periodic box; a non-periodic "
                    "domain projects turning-bands lines (use TBRF_DRIVE_AUTO)");
    for (int c = 0; c < p->dim; c++)
        if (!isfinite(p->origin[c]) || !(isfinite(p->length[c]) && p->length[c] > 0.0))
            return fail(d, TBRF_ERR_INVALID,
                        "driver: box axis %d: origin=%g, length=%g must be finite, length > 0", c,
                        p->origin[c], p->length[c]);
    if (!(p->zeta >= 0.0 && p->zeta <= 1.0))
        return fail(d, TBRF_ERR_INVALID, "driver: zeta=%g must be in [0, 1]", p->zeta);
    if (!(isfinite(p->tcorr) && p->tcorr > 0.0))
        return fail(d, TBRF_ERR_INVALID, "driver: tcorr=%g must be finite and > 0", p->tcorr);
    if (!(isfinite(p->dt_update) && p->dt_update >= 0.0))
        return fail(d, TBRF_ERR_INVALID, "driver: dt_update=%g must be finite and >= 0 (0: tcorr/10)",
                    p->dt_update);
    if (p->normalization < 0 || p->normalization > 2)
        return fail(d, TBRF_ERR_INVALID, "driver: normalization=%d is not a tbrf_drive_norm",
                    (int)p->normalization);
    if (p->normalization == TBRF_DRIVE_INJECTION) {
        if (!(isfinite(p->injection) && p->injection > 0.0) ||
            !(isfinite(p->density) && p->density > 0.0))
            return fail(d, TBRF_ERR_INVALID,
                        "driver: injection=%g and density=%g must be finite and > 0", p->injection,
                        p->density);
    } else if (!(isfinite(p->rms) && p->rms > 0.0)) {
        return fail(d, TBRF_ERR_INVALID, "driver: rms=%g must be finite and > 0", p->rms);
    }
    if (p->interpolate != 0 && p->interpolate != 1)
        return fail(d, TBRF_ERR_INVALID, "driver: interpolate=%d must be 0 or 1", (int)p->interpolate);
    if (p->eval < 0 || p->eval > 2)
        return fail(d, TBRF_ERR_INVALID, "driver: eval=%d is not a tbrf_drive_eval", (int)p->eval);
    if (p->threads < 0 || p->threads > 1024)
        return fail(d, TBRF_ERR_INVALID, "driver: threads=%d must be 0..1024", (int)p->threads);
    if (p->accuracy != 0.0 && !(p->accuracy >= 1e-15 && p->accuracy <= 0.1))
        return fail(d, TBRF_ERR_INVALID, "driver: accuracy=%g must be 0 or in [1e-15, 0.1]",
                    p->accuracy);
    double gsum = 0.0;
    for (int c = 0; c < ncomp; c++) {
        if (!(isfinite(p->amplitude_factor[c]) && p->amplitude_factor[c] >= 0.0))
            return fail(d, TBRF_ERR_INVALID, "driver: amplitude_factor[%d]=%g must be finite and "
                        ">= 0", c, p->amplitude_factor[c]);
        gsum += p->amplitude_factor[c];
    }
    if (!(gsum > 0.0))
        return fail(d, TBRF_ERR_INVALID, "driver: amplitude_factor is zero for every component "
                    "(fill the parameters with tbrf_driver_default_params: the factors default to 1)");
    return TBRF_OK;
}

/* The model's support [kmin, kmax]; 0 when it is unbounded. */
static int support(const tbrf_model *m, double *kmin, double *kmax)
{
    if (m->kind == MODEL_TABLE && !m->band) {
        *kmin = m->k[0];
        *kmax = m->k[m->n - 1];
    } else if (tbrfi_model_is_covariance(m)) {
        return 0;
    } else {
        *kmin = m->kmin;
        *kmax = m->kmax;
    }
    return isfinite(*kmax);
}

/* ------------------------------------------------------------- modes */

static int canonical(int dim, int64_t mx, int64_t my, int64_t mz)
{
    if (mx != 0)
        return mx > 0;
    if (my != 0)
        return my > 0;
    return dim == 3 && mz > 0;
}

/* A mode's variance, up to the driver's amplitude: the model's shape
 * P(k) in the box's dimension, and in a 1D box (which a model does not
 * describe) the 3D shell spectrum k^2 P_3(k): each 1D "shell" is one mode,
 * so a band is flat there as in TurbGen's ndim = 1.5. */
static double mode_spectrum(const tbrf_driver *d, const tbrf_model *model, double k)
{
    if (d->pdim >= 2)
        return tbrfi_model_shape_spectrum(model, d->pdim, k);
    return k * k * tbrfi_model_shape_spectrum(model, 3, k);
}

/* A mode's shell s = round(|k| length[0] / 2 pi), capped to the table. */
static int shell_of(const tbrf_driver *d, double kk)
{
    const double s = floor(kk * d->p.length[0] / (2.0 * PI) + 0.5);
    return s < (double)d->nshell - 1.0 ? (int)s : d->nshell - 1;
}

/* directions > 0 (the sparse selection): the factor dividing mode m's
 * variance, 1 / q_s, or 0 for a mode left out. Mode m is kept when its
 * uniform (Philox under the seed, TBRF_STREAM_DRIVE_SELECT, so the same
 * for any thread count or backend) is below q_s = min(1, D s / N_s), which
 * makes E[kept / q_s] = 1 for every mode: the spectrum exact in
 * expectation. */
static double selection(const tbrf_driver *d, int64_t mx, int64_t my, int64_t mz, double kk)
{
    const int s = shell_of(d, kk);
    const double want = (double)d->p.directions * (double)(s > 1 ? s : 1);
    const double q = want >= (double)d->shell_n[s] ? 1.0 : want / (double)d->shell_n[s];
    if (q == 1.0)
        return 1.0;
    const uint32_t w0 = (uint32_t)(mx + 512) | ((uint32_t)(my + 512) << 10) |
                        ((uint32_t)(mz + 512) << 20);
    const philox4x32_ctr_t r = tbrf_philox(d->seed, 0, w0, TBRF_STREAM_DRIVE_SELECT);
    const double u = ((double)r.v[0] + 0.5) * 0x1.0p-32;
    return u < q ? 1.0 / q : 0.0;
}

/* Enumerates the driven modes: count only (store 0), store them (1), or
 * count every shell's modes before the selection (2, into shell_n). */
static int64_t enumerate(tbrf_driver *d, const tbrf_model *model, int store)
{
    const int dim = d->dim;
    const int64_t Mx = d->mmax[0], My = d->mmax[1], Mz = dim == 3 ? d->mmax[2] : 0;
    int64_t n = 0;
    for (int64_t mx = 0; mx <= Mx; mx++)
        for (int64_t my = -My; my <= My; my++)
            for (int64_t mz = -Mz; mz <= Mz; mz++) {
                if (!canonical(dim, mx, my, mz))
                    continue;
                const double k[3] = {2.0 * PI * (double)mx / d->p.length[0],
                                     2.0 * PI * (double)my / d->p.length[1],
                                     dim == 3 ? 2.0 * PI * (double)mz / d->p.length[2] : 0.0};
                const double kk = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
                /* |k| within 1e-12 of an end of the band is on it: a band
                 * written 2 pi 3 / L holds |m| = 3 whatever the rounding of
                 * either side */
                double kq = kk;
                if (kq > d->kmax && kq <= d->kmax * (1.0 + 1e-12))
                    kq = d->kmax;
                if (kq < d->kmin && kq >= d->kmin * (1.0 - 1e-12))
                    kq = d->kmin;
                if (!(kq >= d->kmin && kq <= d->kmax))
                    continue;
                /* the shape: the amplitude is the driver's own */
                double P = mode_spectrum(d, model, kq);
                if (!(P > 0.0))
                    continue;
                if (store == 2) {
                    d->shell_n[shell_of(d, kk)]++;
                    continue;
                }
                if (d->shell_n && !((P *= selection(d, mx, my, mz, kk)) > 0.0))
                    continue;
                if (store) {
                    d->m[3 * n] = (int32_t)mx;
                    d->m[3 * n + 1] = (int32_t)my;
                    d->m[3 * n + 2] = (int32_t)mz;
                    d->s[n] = sqrt(P);
                    for (int c = 0; c < 3; c++)
                        d->khat[3 * n + c] = k[c] / kk;
                }
                if (++n > TBRF_DRIVE_MAX_MODES)
                    return n;
            }
    return n;
}

/* Whether every component's amplitude factor is 1 (the default). */
static int unit_factors(const tbrf_driver *d)
{
    int unit = 1;
    for (int c = 0; c < d->dim; c++)
        unit &= d->p.amplitude_factor[c] == 1.0;
    return unit;
}

/* E|P_zeta(u) a|^2 weighted by the components' factors g_c^2, for a unit
 * vector u and a standard complex normal a: sum_c g_c^2 (zeta^2 (1 - u_c^2)
 * + (1 - zeta)^2 u_c^2); with every g_c = 1, zeta^2 (d - 1) + (1 - zeta)^2
 * whatever u (and computed so, the amplitude of 0.5's formula). */
static double unit_share(const tbrf_driver *d, const double *u)
{
    const double z = d->p.zeta, zs = z * z, zc = (1.0 - z) * (1.0 - z);
    if (unit_factors(d))
        return zs * (double)(d->dim - 1) + zc;
    double w = 0.0;
    for (int c = 0; c < d->dim; c++) {
        const double g = d->p.amplitude_factor[c];
        w += g * g * (zs * (1.0 - u[c] * u[c]) + zc * u[c] * u[c]);
    }
    return w;
}

/* FNV-1a over bytes, for the hash of the modes. */
static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static int setup_modes(tbrf_driver *d, const tbrf_model *model)
{
    double kmin, kmax;
    if (!support(model, &d->kmin, &d->kmax))
        return fail(d, TBRF_ERR_UNSUPPORTED,
                    "driver: the model's spectrum (%s) has no upper bound: cut it with "
                    "tbrf_model_set_band", tbrf_model_describe(model));
    kmin = d->kmin;
    kmax = d->kmax;
    for (int c = 0; c < 3; c++) {
        const double mm = c < d->pdim ? floor(kmax * d->p.length[c] / (2.0 * PI)) : 0.0;
        if (!(mm <= TBRF_DRIVE_MMAX))
            return fail(d, TBRF_ERR_SIZE,
                        "driver: kmax=%g reaches |m| = %.4g along axis %d, above %d (kmax L / 2 pi "
                        "must stay <= %d)", kmax, mm, c, TBRF_DRIVE_MMAX, TBRF_DRIVE_MMAX);
        d->mmax[c] = (int)mm;
    }
    if (d->p.directions > 0) {
        /* |m| <= 511 sqrt 3 on any axis: shells up to kmax length[0] / 2 pi + 1 */
        d->nshell = (int)floor(kmax * d->p.length[0] / (2.0 * PI)) + 2;
        if (!(d->shell_n = calloc((size_t)d->nshell, sizeof(int64_t))))
            return fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for %d shells", d->nshell);
        enumerate(d, model, 2);
    }
    const int64_t n = enumerate(d, model, 0);
    if (n > TBRF_DRIVE_MAX_MODES)
        return fail(d, TBRF_ERR_SIZE, "driver: more than %lld modes in [%g, %g] (at most 2^20)",
                    (long long)TBRF_DRIVE_MAX_MODES, kmin, kmax);
    if (n == 0)
        return fail(d, TBRF_ERR_SIZE,
                    "driver: no mode of the box (k = 2 pi m / length, m != 0) has P(k) > 0 in "
                    "[%g, %g]: the band is narrower than the box's fundamental 2 pi / length",
                    kmin, kmax);
    const int nc = 2 * d->dim;
    d->nm = n;
    /* m, s, khat, then a, a1, coef and cj */
    int st = reserve(d, (double)n * (12.0 + 8.0 + 24.0 + 4.0 * 8.0 * nc), "the modes' arrays", "");
    if (st != TBRF_OK)
        return st;
    d->m = malloc(sizeof(int32_t) * 3 * (size_t)n);
    d->s = malloc(sizeof(double) * (size_t)n);
    d->khat = malloc(sizeof(double) * 3 * (size_t)n);
    d->a = malloc(sizeof(double) * (size_t)nc * (size_t)n);
    d->a1 = malloc(sizeof(double) * (size_t)nc * (size_t)n);
    d->coef = malloc(sizeof(double) * (size_t)nc * (size_t)n);
    d->cj = malloc(sizeof(double) * (size_t)nc * (size_t)n);
    if (!d->m || !d->s || !d->khat || !d->a || !d->a1 || !d->coef || !d->cj)
        return fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for %lld modes", (long long)n);
    enumerate(d, model, 1);
    free(d->shell_n);
    d->shell_n = NULL;
    /* ensemble: E|f|^2 = sum 2 A^2 s^2 share(khat) (unit_share; a constant
     * with the default factors) */
    const int unit = unit_factors(d);
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++)
        sum += d->s[i] * d->s[i] * (unit ? 1.0 : unit_share(d, d->khat + 3 * i));
    const double proj = unit ? unit_share(d, d->khat) : 1.0;
    d->amp = d->rms_ensemble / sqrt(2.0 * proj * sum);
    uint64_t h = 0xcbf29ce484222325ULL;
    h = fnv(h, &n, sizeof n);
    h = fnv(h, d->m, sizeof(int32_t) * 3 * (size_t)n);
    d->modes_hash = fnv(h, d->s, sizeof(double) * (size_t)n);
    return TBRF_OK;
}

/* The direct sum costs about one unit per mode and point, the NUFFT
 * about ncomp w^dim / 6 (an interpolation weight is one multiply-add
 * where a mode is two complex products and 2 dim multiply-adds). AUTO
 * leaves room for the smallest OU tree cache (setup_tree, made next). */
static int setup_eval(tbrf_driver *d)
{
    const double eps = d->p.accuracy > 0.0 ? d->p.accuracy : 1e-12;
    int64_t n[3] = {1, 1, 1};
    for (int c = 0; c < d->dim; c++)
        n[c] = 2 * (int64_t)d->mmax[c] + 2;
    tbrfi_nufft_setup(&d->ns, d->dim, n, d->p.origin, d->p.length, eps);
    const double bytes = (double)d->dim * tbrfi_nufft_fine_bytes(&d->ns) +
                         16.0 * (double)(n[0] / 2 + 1) * (double)n[1] * (double)n[2];
    const double wd = pow((double)d->ns.w, d->dim);
    int eval = d->p.eval;
    if (eval == TBRF_DRIVE_AUTO && d->pdim < d->dim) /* lifted: never the NUFFT */
        eval = TBRF_DRIVE_DIRECT;
    if (eval == TBRF_DRIVE_AUTO)
        eval = (d->bytes + bytes + tbrfi_ou_bytes(d->nm, 2 * d->dim, 1) <= d->budget &&
                (double)d->nm > (double)d->dim * wd / 6.0)
                   ? TBRF_DRIVE_NUFFT
                   : TBRF_DRIVE_DIRECT;
    if (eval == TBRF_DRIVE_NUFFT) {
        if (reserve(d, bytes, "the NUFFT's fine grids",
                    ": use TBRF_DRIVE_DIRECT or a narrower band") != TBRF_OK)
            return TBRF_ERR_SIZE;
        for (int c = 0; c < d->dim; c++)
            if (!(d->fine[c] = tbrfi_nufft_fine_alloc(&d->ns)))
                return fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for the NUFFT fine grids");
        d->C = fftw_malloc(sizeof(fftw_complex) * (size_t)((n[0] / 2 + 1) * n[1] * n[2]));
        if (!d->C)
            return fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for the NUFFT modes");
    }
    d->eval = d->eval_cpu = eval;
    return TBRF_OK;
}

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
        return fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory to copy the model");
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
        fail(d, st, "driver: %s", *engine ? tbrfi_message_text(tbrfi_engine_msg(*engine)) : "no memory "
             "for the turning-bands engine");
        tbrfi_engine_destroy(*engine);
        *engine = NULL;
    }
    return st;
}

static int tb_modes(tbrf_driver *d);

static int setup_tb(tbrf_driver *d, const tbrf_model *model)
{
    if (!support(model, &d->kmin, &d->kmax))
        return fail(d, TBRF_ERR_UNSUPPORTED,
                    "driver: the model's spectrum (%s) has no upper bound: cut it with "
                    "tbrf_model_set_band", tbrf_model_describe(model));
    const int dim = d->dim;
    double e2 = 0.0;
    for (int c = 0; c < dim; c++)
        e2 += d->p.length[c] * d->p.length[c];
    const double extent = sqrt(e2);
    if (!isfinite(extent))
        return fail(d, TBRF_ERR_INVALID, "driver: the domain's extent is not finite");
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
    if (reserve(d, bytes, "the lines", hint) != TBRF_OK)
        return TBRF_ERR_SIZE;
    int64_t K = 0;
    for (int64_t m = 1; m <= half; m++)
        K += d->spec->mode_var[m] > 0.0;
    if (K == 0)
        return fail(d, TBRF_ERR_SIZE, "driver: no line mode has P(k) > 0 in [%g, %g]", d->kmin,
                    d->kmax);
    if (K * d->L > TBRF_DRIVE_MAX_MODES)
        return fail(d, TBRF_ERR_SIZE, "driver: %lld line modes (%d lines x %lld), above 2^20: "
                    "narrow the band or shrink the domain", (long long)(K * d->L), d->L, (long long)K);
    d->K = K;
    d->nm = K * d->L;
    const int64_t n = d->nm;
    const int nc = 2 * dim;
    const size_t LM = (size_t)d->L * (size_t)M;
    /* lm, s, a, a1, coef, cj, u and axis (the line sets are counted above) */
    st = reserve(d, 4.0 * (double)K + (double)n * (8.0 + 4.0 * 8.0 * nc) + 56.0 * d->L,
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
        return fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for %d lines of %lld samples", d->L,
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
    double proj = unit_share(d, d->u);
    if (!unit_factors(d)) {
        proj = 0.0;
        for (int l = 0; l < d->L; l++)
            proj += unit_share(d, d->u + 3 * l);
        proj /= (double)d->L;
    }
    d->amp = d->rms_ensemble / sqrt(proj * var);
    d->eval = d->eval_cpu = TBRF_DRIVE_DIRECT;
    uint64_t h = 0xcbf29ce484222325ULL ^ 0x7462ULL; /* another family than the box's */
    h = fnv(h, &n, sizeof n);
    h = fnv(h, &d->spec->M, sizeof d->spec->M);
    h = fnv(h, d->lm, sizeof(int32_t) * (size_t)K);
    d->modes_hash = fnv(h, d->s, sizeof(double) * (size_t)n);
    return TBRF_OK;
}

/* The OU tree of the modes (box: keyed by the wavevector; line modes: by
 * the process index, blocks 2 and 3), its cache as deep as the memory
 * budget allows up to 2^16 updates (the values never depend on the
 * depth: only the cost of stepping through updates in order, one draw per
 * update plus 48 per block of 2^levels). */
static int setup_tree(tbrf_driver *d)
{
    const int nc = 2 * d->dim;
    int levels = TBRF_OU_CACHE_MAX;
    while (levels > 1 && d->bytes + tbrfi_ou_bytes(d->nm, nc, levels) > d->budget)
        levels--;
    if (reserve(d, tbrfi_ou_bytes(d->nm, nc, levels), "the OU tree's cache", "") != TBRF_OK)
        return TBRF_ERR_SIZE;
    const uint32_t w1 = TBRF_STREAM_OU | (d->tb ? 2u : 0u);
    if (tbrfi_ou_init(&d->ou, d->seed, d->nm, nc, d->tb ? NULL : d->m, w1, d->dt / d->p.tcorr,
                      levels, d->p.threads) != 0)
        return fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for the OU tree's cache");
    return TBRF_OK;
}

int tbrf_driver_make(const tbrf_model *model, uint64_t seed, const tbrf_driver_params *params,
                     tbrf_driver **driver)
{
    if (!driver)
        return TBRF_ERR_NULL;
    tbrf_driver *d = calloc(1, sizeof *d);
    if (!(*driver = d))
        return TBRF_ERR_NO_MEMORY;
    if (pthread_rwlock_init(&d->lock, NULL) != 0) {
        free(d);
        *driver = NULL;
        return TBRF_ERR_NO_MEMORY;
    }
    if (pthread_mutex_init(&d->msg_lock, NULL) != 0) {
        pthread_rwlock_destroy(&d->lock);
        free(d);
        *driver = NULL;
        return TBRF_ERR_NO_MEMORY;
    }
    d->locks = 1;
    d->j = -1;
    d->seed = seed;
    d->be = &tbrf_backend_cpu;
    d->backend = TBRF_BACKEND_CPU;
    tbrf_driver_default_params(&d->p);
    uint64_t budget = 0;
    int st;
    if (tbrf_memory_budget(&budget) != TBRF_OK)
        st = fail(d, TBRF_ERR_INVALID, "driver: TBRF_MEMORY_BUDGET='%.40s' is not a size in bytes "
                  "(such as 4G or 512M)", getenv("TBRF_MEMORY_BUDGET"));
    else if (!model || !params)
        st = fail(d, TBRF_ERR_NULL, "driver: %s is NULL", model ? "params" : "model");
    else if (tbrf_model_status(model) != TBRF_OK)
        st = fail(d, TBRF_ERR_INVALID, "driver: the model failed: %s", tbrf_model_message(model));
    else if (model->anis) /* its modes are shells of |k| (doc/driving.md) */
        st = fail(d, TBRF_ERR_UNSUPPORTED, "driver: %s: the driver takes isotropic models only "
                  "(its modes fill shells of |k|)", tbrf_model_describe(model));
    else
        st = check_params(d, params);
    d->budget = (double)budget;
    if (st == TBRF_OK) {
        d->p = *params;
        d->pdim = params->dim;
        d->dim = params->components ? params->components : params->dim;
        for (int c = d->pdim; c < 3; c++) { /* a lifted box's missing axes: one period, unused */
            d->p.origin[c] = 0.0;
            d->p.length[c] = 1.0;
        }
        d->dt = params->dt_update > 0.0 ? params->dt_update : params->tcorr / 10.0;
        d->decay = exp(-d->dt / params->tcorr);
        if (params->normalization == TBRF_DRIVE_INJECTION) {
            /* eps = f_rms^2 T_eff, T_eff = (dt/2) coth(dt / 2T) (doc/driving.md) */
            const double x = d->dt / (2.0 * params->tcorr);
            const double teff = 0.5 * d->dt / tanh(x);
            d->rms_ensemble = sqrt(params->injection / params->density / teff);
        } else {
            d->rms_ensemble = params->rms;
        }
        d->tb = params->periodic == 0;
        if (d->tb) {
            st = setup_tb(d, model);
        } else {
            st = setup_modes(d, model);
            if (st == TBRF_OK)
                st = setup_eval(d);
        }
        if (st == TBRF_OK)
            st = setup_tree(d);
    }
    d->status = st == TBRF_OK ? TBRF_OK : TBRF_ERR_BAD_PLAN;
    d->msg.status = st;
    return st;
}

/* ------------------------------------------------------------ updates */

/* Coefficients of state a into out: A s_m P_zeta(khat) a_m, renormalised
 * to the exact rms when asked. */
static void coefficients(const tbrf_driver *d, const double *a, double *out)
{
    const int dim = d->dim, nc = 2 * dim;
    const double z = d->p.zeta;
    if (d->tb) { /* A s a: the projection acts on the synthesised lines */
        for (int64_t i = 0; i < d->nm; i++)
            for (int c = 0; c < nc; c++)
                out[i * nc + c] = d->amp * d->s[i] * a[i * nc + c];
        return;
    }
#pragma omp parallel for schedule(static) num_threads(tbrf_threads(d->p.threads)) if (d->nm >= PAR_MODES)
    for (int64_t i = 0; i < d->nm; i++) {
        const double *h = d->khat + 3 * i, *g = a + i * nc;
        double kr = 0.0, ki = 0.0; /* khat . g */
        for (int c = 0; c < dim; c++) {
            kr += h[c] * g[2 * c];
            ki += h[c] * g[2 * c + 1];
        }
        for (int c = 0; c < dim; c++) {
            const double sc = d->amp * d->s[i] * d->p.amplitude_factor[c]; /* g_c = 1: exact */
            const double pr = h[c] * kr, pi = h[c] * ki; /* P_par g */
            out[i * nc + 2 * c] = sc * (z * (g[2 * c] - pr) + (1.0 - z) * pr);
            out[i * nc + 2 * c + 1] = sc * (z * (g[2 * c + 1] - pi) + (1.0 - z) * pi);
        }
    }
    if (d->p.normalization != TBRF_DRIVE_RMS_EXACT)
        return;
    double sum = 0.0; /* in mode order: the same bits for any thread count */
    for (int64_t i = 0; i < d->nm * nc; i++)
        sum += out[i] * out[i];
    const double scale = sum > 0.0 ? d->p.rms / sqrt(2.0 * sum) : 0.0;
    for (int64_t i = 0; i < d->nm * nc; i++)
        out[i] *= scale;
}

/* The update j of time t (t >= 0 finite) and the interpolation weight w:
 * update j holds on [t_j, t_{j+1}) with t_j = fl(j dt), the double a caller
 * gets by writing j * dt, so a nominal instant lands in its own update
 * whatever the rounding of t / dt (which floor() alone would put one
 * update early for some j). -1 when j would pass the tree's last index. */
static int64_t update_of(const tbrf_driver *d, double t, double *w)
{
    const double u = t / d->dt;
    if (!(u < (double)TBRF_OU_UPDATES))
        return -1;
    int64_t j = (int64_t)floor(u);
    /* t / dt is within an ulp of the exact quotient: one step either way */
    while (j > 0 && (double)j * d->dt > t)
        j--;
    while (j + 1 < TBRF_OU_UPDATES && (double)(j + 1) * d->dt <= t)
        j++;
    if (j + 1 >= TBRF_OU_UPDATES)
        return -1;
    const double tj = (double)j * d->dt, tj1 = (double)(j + 1) * d->dt;
    *w = (t - tj) / (tj1 - tj);
    if (*w > 1.0)
        *w = 1.0;
    return j;
}

/* What a call needs of its time: the coefficients (rms, modes), or the
 * evaluation's tables as well (the NUFFT's fine grids, a domain's lines). */
enum { NEED_COEF = 0, NEED_EVAL = 1 };

static int ensure_fine(tbrf_driver *d);
static int ensure_lines(tbrf_driver *d);

/* The key (update j, weight w) of time t, or a refusal. */
static int time_key(tbrf_driver *d, double t, int64_t *j, double *w)
{
    if (d->status != TBRF_OK)
        return set_status(d, TBRF_ERR_BAD_PLAN); /* the make's message stays */
    if (!(t >= 0.0) || !isfinite(t))
        return fail(d, TBRF_ERR_INVALID, "driver: time t=%g must be finite and >= 0", t);
    *w = 0.0;
    *j = update_of(d, t, w);
    if (*j < 0)
        return fail(d, TBRF_ERR_INVALID,
                    "driver: t=%g is %.3g updates of dt_update=%g, beyond the 2^48 - 1 = %.4g the "
                    "OU tree covers (doc/driving.md, \"Time\")", t, t / d->dt, d->dt,
                    (double)(TBRF_OU_UPDATES - 1));
    if (!d->p.interpolate)
        *w = 0.0;
    return TBRF_OK;
}

/* Whether what the driver holds serves key (j, w) and `need` as it is. */
static int current(const tbrf_driver *d, int64_t j, double w, int need)
{
    if (!(d->coef_valid && d->coef_j == j && d->coef_w == w))
        return 0;
    if (need == NEED_EVAL && d->tb)
        return d->lines_valid;
    if (need == NEED_EVAL && d->eval == TBRF_DRIVE_NUFFT)
        return d->fine_valid;
    return 1;
}

/* Makes d->coef (and for NEED_EVAL the tables) those of key (j, w);
 * under the exclusive lock. */
static int build(tbrf_driver *d, int64_t j, double w, int need)
{
    if (!(d->coef_valid && d->coef_j == j && d->coef_w == w)) {
        if (d->j != j) {
            tbrfi_ou_value(&d->ou, j, d->a);
            d->j = j;
        }
        coefficients(d, d->a, d->coef);
        if (w > 0.0) {
            const int64_t nt = d->nm * 2 * d->dim;
            tbrfi_ou_value(&d->ou, j + 1, d->a1);
            coefficients(d, d->a1, d->cj);
            for (int64_t i = 0; i < nt; i++)
                d->coef[i] = (1.0 - w) * d->coef[i] + w * d->cj[i];
        }
        d->coef_valid = 1;
        d->coef_j = j;
        d->coef_w = w;
        d->coef_gen++;
        d->fine_valid = 0;
        d->lines_valid = 0;
    }
    if (need == NEED_EVAL && d->tb)
        return ensure_lines(d);
    if (need == NEED_EVAL && d->eval == TBRF_DRIVE_NUFFT)
        return ensure_fine(d);
    return TBRF_OK;
}

/* Holds the coefficients of time t for a call: TBRF_OK with d->lock held
 * (release it with let_go), shared when the driver already holds them
 * and the evaluation writes nothing shared, else exclusive after building
 * them; or a refusal, the lock not held. Values never depend on which. */
static int hold(tbrf_driver *d, double t, int need)
{
    int64_t j = 0;
    double w = 0.0;
    int st = time_key(d, t, &j, &w);
    if (st != TBRF_OK)
        return st;
    pthread_rwlock_rdlock(&d->lock);
    const int shared_ok = !d->tb && d->be == &tbrf_backend_cpu;
    if (shared_ok && current(d, j, w, need))
        return TBRF_OK;
    pthread_rwlock_unlock(&d->lock);
    pthread_rwlock_wrlock(&d->lock);
    if ((st = build(d, j, w, need)) != TBRF_OK)
        pthread_rwlock_unlock(&d->lock);
    return st;
}

static int let_go(tbrf_driver *d, int st)
{
    pthread_rwlock_unlock(&d->lock);
    return st;
}

/* ------------------------------------------------------- evaluation */

/* e^{i m theta} for m = 0 .. M into ec (re, im), theta = 2 pi (x - o) / L
 * along axis c: e^{i theta} once, its powers by products (m ulps at most,
 * about 1e-13 at m = 511, at a fraction of a sine's cost). */
static void axis_phases(const tbrf_driver *d, int c, double x, int M, double *ec)
{
    double t = (x - d->p.origin[c]) / d->p.length[c];
    t -= floor(t);
    const double th = 2.0 * PI * t, c1 = cos(th), s1 = sin(th);
    ec[0] = 1.0;
    ec[1] = 0.0;
    for (int m = 1; m <= M; m++) {
        ec[2 * m] = ec[2 * m - 2] * c1 - ec[2 * m - 1] * s1;
        ec[2 * m + 1] = ec[2 * m - 2] * s1 + ec[2 * m - 1] * c1;
    }
}

/* The driver's modes and current coefficients for a backend's drive_points. */
static drive_sum sum_of(const tbrf_driver *d)
{
    drive_sum q;
    memset(&q, 0, sizeof q);
    q.dim = d->dim;
    q.nm = d->nm;
    q.m = d->m;
    q.coef = d->coef;
    for (int c = 0; c < 3; c++) {
        q.mmax[c] = d->mmax[c];
        q.origin[c] = d->p.origin[c];
        q.length[c] = d->p.length[c];
    }
    q.threads = d->p.threads;
    q.state = d->be_state;
    q.generation = d->coef_gen;
    return q;
}

/* A backend call's failure st, with the backend's own detail. */
static int be_fail(tbrf_driver *d, int st, const char *what)
{
    const char *m = d->be->message(d->be_state);
    return fail(d, st, "driver: %s on the %s backend failed (%s)%s%s", what, d->be->name,
                tbrf_strerror(st), m && m[0] ? ": " : "", m && m[0] ? m : "");
}

/* The NUFFT's fine grids of the current coefficients. */
static int ensure_fine(tbrf_driver *d)
{
    if (d->fine_valid)
        return TBRF_OK;
    const int dim = d->dim, nc = 2 * dim;
    const int64_t nx = d->ns.n[0], ny = d->ns.n[1], nz = d->ns.n[2], nh = nx / 2 + 1;
    for (int c = 0; c < dim; c++) {
        memset(d->C, 0, sizeof(fftw_complex) * (size_t)(nh * ny * nz));
        for (int64_t i = 0; i < d->nm; i++) {
            const int32_t *m = d->m + 3 * i;
            const int64_t iy = (m[1] + ny) % ny, iz = (m[2] + nz) % nz;
            const double re = d->coef[i * nc + 2 * c], im = d->coef[i * nc + 2 * c + 1];
            fftw_complex *v = d->C + (iz * ny + iy) * nh + m[0];
            (*v)[0] = re;
            (*v)[1] = im;
            if (m[0] == 0) { /* the -m member, which c2r does not imply */
                fftw_complex *w = d->C + (((nz - m[2]) % nz) * ny + (ny - m[1]) % ny) * nh;
                (*w)[0] = re;
                (*w)[1] = -im;
            }
        }
        const int st = tbrfi_nufft_fine(&d->ns, d->C, d->p.threads, d->fine[c]);
        if (st != TBRF_OK)
            return fail(d, st, "driver: the NUFFT's transform failed (%s)", tbrf_strerror(st));
    }
    d->fine_valid = 1;
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
static int ensure_lines(tbrf_driver *d)
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
        return fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for a line's modes");
    tb_mix(d);
    tbrfi_engine_use_lines(d->engine, d->axis, d->lines, dim); /* a new generation */
    d->lines_valid = 1;
    return TBRF_OK;
}

/* The engine's failure st (its message) in the driver's message. */
static int engine_fail(tbrf_driver *d, int st)
{
    return fail(d, st, "driver: %s", tbrfi_message_text(tbrfi_engine_msg(d->engine)));
}

static int tb_inside(const tbrf_driver *d, int c, double x)
{
    return x >= d->lo[c] - d->tol && x <= d->hi[c] + d->tol;
}

/* n points projected by the engine (its backend), the dim components
 * interleaved into out[dim i + c]; the engine keeps one component of
 * scratch (n doubles), so each component's lines go to a GPU once per
 * call. */
static int tb_points(tbrf_driver *d, int64_t n, const double *xyz, double *out)
{
    int st = ensure_lines(d);
    if (st != TBRF_OK || n == 0)
        return st;
    if ((st = fits(d, 8.0 * (double)n, "the projection's scratch")) != TBRF_OK)
        return st;
    st = tbrfi_engine_project_points(d->engine, n, xyz, out);
    return st == TBRF_OK ? TBRF_OK : engine_fail(d, st);
}

/* Whether a grid lies in a non-periodic driver's domain: TBRF_OK or a
 * refusal naming the axis. */
static int tb_grid_inside(tbrf_driver *d, const double origin[3], const double spacing[3],
                          const int64_t n[3])
{
    for (int c = 0; c < d->dim; c++) {
        const double a = origin[c], b = origin[c] + spacing[c] * (double)(n[c] - 1);
        if (!tb_inside(d, c, a) || !tb_inside(d, c, b))
            return fail(d, TBRF_ERR_OUT_OF_DOMAIN,
                        "driver: grid axis %d spans [%.17g, %.17g], outside the domain [%.17g, "
                        "%.17g]", c, fmin(a, b), fmax(a, b), d->lo[c], d->hi[c]);
    }
    return TBRF_OK;
}

/* The engine's grid of a non-periodic driver. */
static grid_geom tb_geom(const tbrf_driver *d, const double origin[3], const double spacing[3],
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

static int tb_grid(tbrf_driver *d, const double origin[3], const double spacing[3],
                   const int64_t n[3], int64_t total, double *out)
{
    int st = tb_grid_inside(d, origin, spacing, n);
    if (st != TBRF_OK || (st = ensure_lines(d)) != TBRF_OK)
        return st;
    const grid_geom g = tb_geom(d, origin, spacing, n);
    if ((st = fits(d, 8.0 * (double)total, "the projection's scratch")) != TBRF_OK)
        return st;
    st = tbrfi_engine_project_grid(d->engine, &g, 0, total, out);
    return st == TBRF_OK ? ok(d) : engine_fail(d, st);
}

static int eval_points(tbrf_driver *d, int64_t n, const double *xyz, double *out)
{
    if (d->tb)
        return tb_points(d, n, xyz, out);
    if (d->eval == TBRF_DRIVE_NUFFT) {
        const int st = ensure_fine(d);
        if (st != TBRF_OK)
            return st;
        tbrfi_nufft_interp(&d->ns, d->fine, d->dim, n, xyz, TBRF_DOUBLE, d->p.threads, out);
        return TBRF_OK;
    }
    const drive_sum q = sum_of(d);
    const int st = d->be->drive_points(&q, n, xyz, out);
    return st == TBRF_OK ? TBRF_OK : be_fail(d, st, "the sum of the modes");
}

static int check_positions(tbrf_driver *d, int64_t n, const double *xyz)
{
    if (d->tb) {
        for (int64_t i = 0; i < n * d->dim; i++)
            if (!tb_inside(d, (int)(i % d->dim), xyz[i])) {
                const double *x = xyz + (i / d->dim) * d->dim;
                return fail(d, TBRF_ERR_OUT_OF_DOMAIN,
                            "driver: point %lld at (%.17g, %.17g, %.17g) lies outside the domain "
                            "[%g, %g] x [%g, %g] x [%g, %g] (or is NaN)", (long long)(i / d->dim),
                            x[0], x[1], d->dim == 3 ? x[2] : 0.0, d->lo[0], d->hi[0], d->lo[1],
                            d->hi[1], d->dim == 3 ? d->lo[2] : 0.0, d->dim == 3 ? d->hi[2] : 0.0);
            }
        return TBRF_OK;
    }
    for (int64_t i = 0; i < n * d->pdim; i++)
        if (!isfinite(xyz[i]))
            return fail(d, TBRF_ERR_INVALID, "driver: position %lld has a non-finite coordinate",
                        (long long)(i / d->pdim));
    return TBRF_OK;
}

/* A lifted box's positions (pdim < dim = 3 coordinates each) as 3D ones in
 * place, the missing coordinates 0 (the modes do not vary along them); xyz
 * has room for 3 n. Backwards, so no coordinate is overwritten unread. */
static void lift(const tbrf_driver *d, int64_t n, double *xyz)
{
    for (int64_t i = n - 1; i >= 0; i--)
        for (int c = 2; c >= 0; c--)
            xyz[3 * i + c] = c < d->pdim ? xyz[d->pdim * i + c] : 0.0;
}

/* eval_points of a lifted box: chunk by chunk through a 3D copy. */
static int eval_lifted(tbrf_driver *d, int64_t n, const double *xyz, double *out)
{
    int st = fits(d, 8.0 * 3 * DRIVE_CHUNK, "a chunk of positions");
    double *x = st == TBRF_OK ? malloc(sizeof(double) * 3 * DRIVE_CHUNK) : NULL;
    if (st == TBRF_OK && !x)
        st = fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for a chunk of positions");
    for (int64_t first = 0; first < n && st == TBRF_OK; first += DRIVE_CHUNK) {
        const int64_t count = n - first < DRIVE_CHUNK ? n - first : DRIVE_CHUNK;
        memcpy(x, xyz + d->pdim * first, sizeof(double) * (size_t)(d->pdim * count));
        lift(d, count, x);
        st = eval_points(d, count, x, out + 3 * first);
    }
    free(x);
    return st;
}

int tbrf_driver_points(tbrf_driver *d, double t, int64_t n, const double *xyz, double *out)
{
    if (!d)
        return TBRF_ERR_NULL;
    if (n < 0 || n > INT64_MAX / 3)
        return fail(d, TBRF_ERR_SIZE, "driver: n=%lld points", (long long)n);
    if (n > 0 && (!xyz || !out))
        return fail(d, TBRF_ERR_NULL, "driver: %s is NULL", xyz ? "out" : "xyz");
    int st = hold(d, t, NEED_EVAL);
    if (st != TBRF_OK)
        return st;
    st = check_positions(d, n, xyz);
    if (st == TBRF_OK)
        st = d->pdim < d->dim ? eval_lifted(d, n, xyz, out) : eval_points(d, n, xyz, out);
    return let_go(d, st) == TBRF_OK ? ok(d) : st;
}

/* The direct sum on a grid, axis by axis: per z plane the modes summed
 * over m_z into G(m_x, m_y), per row G summed over m_y into H(m_x), per
 * cell H summed over m_x; (M_x + 1) complex products per cell and
 * component instead of one per mode. The modes go into a dense array of
 * (M_x + 1)(2 M_y + 1)(2 M_z + 1) entries: 0 is returned without doing
 * anything when that would pass DENSE_MAX (the caller then sums per
 * cell), 1 when done, -1 without memory. Values equal the per-point sum
 * to rounding. */
#define DENSE_MAX ((int64_t)1 << 22)

/* grid_separable's tables: the coefficients in the dense array D, the
 * phases of every cell's coordinate per axis in ex, ey, ez. */
static void separable_tables(const tbrf_driver *d, const double origin[3], const double spacing[3],
                             const int64_t n[3], double *D, double *ex, double *ey, double *ez)
{
    const int dim = d->dim, Mx = d->mmax[0], My = d->mmax[1], Mz = dim == 3 ? d->mmax[2] : 0;
    const int Wy = 2 * My + 1, Wz = 2 * Mz + 1;
    const int64_t nx = n[0], ny = n[1], nz = dim == 3 ? n[2] : 1;
    for (int64_t i = 0; i < d->nm; i++) {
        const int32_t *m = d->m + 3 * i;
        const int64_t at = ((int64_t)m[0] * Wy + (m[1] + My)) * Wz + (m[2] + Mz);
        memcpy(D + at * dim * 2, d->coef + i * 2 * dim, sizeof(double) * 2 * (size_t)dim);
    }
    for (int64_t i = 0; i < nx; i++)
        axis_phases(d, 0, origin[0] + spacing[0] * (double)i, Mx, ex + 2 * i * (Mx + 1));
    for (int64_t j = 0; j < ny; j++)
        axis_phases(d, 1, origin[1] + spacing[1] * (double)j, My, ey + 2 * j * (My + 1));
    for (int64_t k = 0; k < nz; k++) {
        if (dim == 3)
            axis_phases(d, 2, origin[2] + spacing[2] * (double)k, Mz, ez + 2 * k * (Mz + 1));
        else
            ez[0] = 1.0, ez[1] = 0.0;
    }
}
static int grid_separable(tbrf_driver *d, const double origin[3], const double spacing[3],
                          const int64_t n[3], int64_t cs, int64_t ps, double *out)
{
    const int dim = d->dim, Mx = d->mmax[0], My = d->mmax[1], Mz = dim == 3 ? d->mmax[2] : 0;
    const int Wy = 2 * My + 1, Wz = 2 * Mz + 1;
    const int64_t nx = n[0], ny = n[1], nz = dim == 3 ? n[2] : 1;
    const int64_t dense = (int64_t)(Mx + 1) * Wy * Wz;
    if (dense > DENSE_MAX)
        return 0;
    /* the dense modes, the axes' phases, and G and H per thread */
    const double tables = 16.0 * ((double)dense * dim + (double)(nx * (Mx + 1) + ny * (My + 1) + nz * (Mz + 1)) +
                                  (double)tbrf_threads(d->p.threads) * (double)((Mx + 1) * (Wy + 1) * dim));
    if (fits(d, tables, "the grid's tables") != TBRF_OK)
        return -2;
    double *D = calloc((size_t)(dense * dim * 2), sizeof(double));
    double *ex = malloc(sizeof(double) * 2 * (size_t)(nx * (Mx + 1)));
    double *ey = malloc(sizeof(double) * 2 * (size_t)(ny * (My + 1)));
    double *ez = malloc(sizeof(double) * 2 * (size_t)(nz * (Mz + 1)));
    int nomem = !D || !ex || !ey || !ez;
    if (!nomem)
        separable_tables(d, origin, spacing, n, D, ex, ey, ez);
    const int ready = !nomem;
#pragma omp parallel num_threads(tbrf_threads(d->p.threads)) reduction(| : nomem) if (nz * ny * nx >= 4096)
    {
        double *G = ready ? malloc(sizeof(double) * 2 * (size_t)((Mx + 1) * Wy * dim)) : NULL;
        double *H = ready ? malloc(sizeof(double) * 2 * (size_t)((Mx + 1) * dim)) : NULL;
        nomem |= !G || !H;
#pragma omp for schedule(static)
        for (int64_t k = 0; k < nz; k++) {
            if (!G || !H)
                continue;
            const double *zk = ez + 2 * k * (Mz + 1);
            for (int64_t xy = 0; xy < (int64_t)(Mx + 1) * Wy; xy++)
                for (int c = 0; c < dim; c++) {
                    double gr = 0.0, gi = 0.0;
                    for (int mz = -Mz; mz <= Mz; mz++) {
                        const double *v = D + ((xy * Wz + mz + Mz) * dim + c) * 2;
                        const int a = mz < 0 ? -mz : mz;
                        const double er = zk[2 * a], ei = mz < 0 ? -zk[2 * a + 1] : zk[2 * a + 1];
                        gr += v[0] * er - v[1] * ei;
                        gi += v[0] * ei + v[1] * er;
                    }
                    G[2 * (xy * dim + c)] = gr;
                    G[2 * (xy * dim + c) + 1] = gi;
                }
            for (int64_t j = 0; j < ny; j++) {
                const double *yj = ey + 2 * j * (My + 1);
                for (int mx = 0; mx <= Mx; mx++)
                    for (int c = 0; c < dim; c++) {
                        double hr = 0.0, hi = 0.0;
                        for (int my = -My; my <= My; my++) {
                            const double *g = G + 2 * (((int64_t)mx * Wy + my + My) * dim + c);
                            const int a = my < 0 ? -my : my;
                            const double er = yj[2 * a], ei = my < 0 ? -yj[2 * a + 1] : yj[2 * a + 1];
                            hr += g[0] * er - g[1] * ei;
                            hi += g[0] * ei + g[1] * er;
                        }
                        H[2 * (mx * dim + c)] = hr;
                        H[2 * (mx * dim + c) + 1] = hi;
                    }
                /* component c of cell q at out[q ps + c cs]: interleaved or
                 * components last */
                double *row = out + (size_t)ps * (size_t)((k * ny + j) * nx);
                for (int64_t i = 0; i < nx; i++) {
                    const double *xi = ex + 2 * i * (Mx + 1);
                    for (int c = 0; c < dim; c++) {
                        double acc = 0.0;
                        for (int mx = 0; mx <= Mx; mx++)
                            acc += H[2 * (mx * dim + c)] * xi[2 * mx] - H[2 * (mx * dim + c) + 1] * xi[2 * mx + 1];
                        row[(size_t)ps * (size_t)i + (size_t)c * (size_t)cs] = 2.0 * acc;
                    }
                }
            }
        }
        free(G);
        free(H);
    }
    free(D);
    free(ex);
    free(ey);
    free(ez);
    return nomem ? -1 : 1;
}

/* The grid of a box with pdim axes as 3 axes: the missing ones one cell
 * at 0 (a 2D grid had n[2] = 1 before; a lifted box's values do not vary
 * along them). TBRF_OK, or TBRF_ERR_SIZE for a count above 1 there. */
static int grid_axes(tbrf_driver *d, const double o_in[3], const double h_in[3],
                     const int64_t n_in[3], double o[3], double h[3], int64_t n[3])
{
    for (int c = 0; c < 3; c++) {
        if (c >= d->pdim && n_in[c] != 1)
            return fail(d, TBRF_ERR_SIZE, "driver: a %dD grid has n[%d] = 1, not %lld", d->pdim, c,
                        (long long)n_in[c]);
        o[c] = c < d->pdim ? o_in[c] : 0.0;
        h[c] = c < d->pdim ? h_in[c] : 0.0;
        n[c] = c < d->pdim ? n_in[c] : 1;
    }
    return TBRF_OK;
}

/* tbrf_driver_grid once the coefficients are held. */
static int grid_held(tbrf_driver *d, const double origin[3], const double spacing[3],
                     const int64_t n[3], int64_t total, double *out)
{
    const int dim = d->dim;
    int st;
    if (d->tb)
        return tb_grid(d, origin, spacing, n, total, out);
    /* Axis by axis costs (M_x + 1) products per cell, below the NUFFT's
     * w^dim whenever its dense array fits: AUTO takes it for any grid on
     * the CPU backend. Another backend sums the cells as points. */
    if (d->p.eval != TBRF_DRIVE_NUFFT && d->be == &tbrf_backend_cpu) {
        const int sep = grid_separable(d, origin, spacing, n, 1, dim, out);
        if (sep == -2)
            return TBRF_ERR_SIZE; /* fits said why */
        if (sep != 0)
            return sep > 0 ? ok(d) : fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for the grid's tables");
    }
    if (d->eval == TBRF_DRIVE_NUFFT) {
        if ((st = ensure_fine(d)) != TBRF_OK)
            return st;
        const int64_t whole[3] = {0, 0, 0}; /* the driver's grid is whole: cells from its own corner */
        tbrfi_nufft_interp_grid(&d->ns, d->fine, dim, origin, spacing, n, whole, 0, total, TBRF_DOUBLE,
                                d->p.threads, out);
        return ok(d);
    }
    /* the cells as points, chunk by chunk, through the backend's sum (the
     * same positions, so the same values as tbrf_driver_points) */
    if ((st = fits(d, 8.0 * 3 * DRIVE_CHUNK, "a chunk of positions")) != TBRF_OK)
        return st;
    double *x = malloc(sizeof(double) * 3 * DRIVE_CHUNK);
    if (!x)
        return fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for a chunk of positions");
    const drive_sum q = sum_of(d);
    for (int64_t first = 0; first < total && st == TBRF_OK; first += DRIVE_CHUNK) {
        const int64_t count = total - first < DRIVE_CHUNK ? total - first : DRIVE_CHUNK;
        for (int64_t i = 0; i < count; i++) {
            const int64_t cell = first + i, jx = cell % n[0], jy = (cell / n[0]) % n[1], jz = cell / (n[0] * n[1]);
            double *xi = x + (size_t)dim * (size_t)i;
            xi[0] = origin[0] + spacing[0] * (double)jx;
            xi[1] = origin[1] + spacing[1] * (double)jy;
            if (dim == 3)
                xi[2] = origin[2] + spacing[2] * (double)jz;
        }
        st = d->be->drive_points(&q, count, x, out + (size_t)dim * (size_t)first);
    }
    free(x);
    return st == TBRF_OK ? ok(d) : be_fail(d, st, "the sum of the modes");
}

/* A grid call's arguments as 3 axes (grid_axes) with its cell count, or
 * a refusal. */
static int grid_args(tbrf_driver *d, const double origin_in[3], const double spacing_in[3],
                     const int64_t n_in[3], const double *out, double origin[3], double spacing[3],
                     int64_t n[3], int64_t *total)
{
    if (!origin_in || !spacing_in || !n_in || !out)
        return fail(d, TBRF_ERR_NULL, "driver: a grid argument is NULL");
    const int dim = d->dim;
    if (grid_axes(d, origin_in, spacing_in, n_in, origin, spacing, n) != TBRF_OK)
        return TBRF_ERR_SIZE;
    *total = 1;
    for (int c = 0; c < 3; c++) {
        const int64_t nc = c < dim ? n[c] : 1;
        if (c < dim && (!isfinite(origin[c]) || !isfinite(spacing[c])))
            return fail(d, TBRF_ERR_INVALID, "driver: grid origin/spacing along axis %d not finite", c);
        if (nc < 1 || *total > INT64_MAX / 3 / nc)
            return fail(d, TBRF_ERR_SIZE, "driver: grid counts %lld x %lld x %lld", (long long)n[0],
                        (long long)n[1], (long long)n[2]);
        *total *= nc;
    }
    return TBRF_OK;
}

int tbrf_driver_grid(tbrf_driver *d, double t, const double origin_in[3], const double spacing_in[3],
                     const int64_t n_in[3], double *out)
{
    if (!d)
        return TBRF_ERR_NULL;
    double origin[3], spacing[3];
    int64_t n[3], total = 1;
    int st = grid_args(d, origin_in, spacing_in, n_in, out, origin, spacing, n, &total);
    if (st != TBRF_OK || (st = hold(d, t, NEED_EVAL)) != TBRF_OK)
        return st;
    return let_go(d, grid_held(d, origin, spacing, n, total, out));
}

/* ------------------------------------------- components last (planar) */

/* Cells first .. first + count - 1 of the grid, interleaved into val, by
 * the path a whole grid takes when it is not summed axis by axis (each
 * path gives a cell the whole grid's bits); x: room for a chunk of
 * positions. */
static int grid_chunk(tbrf_driver *d, const double o[3], const double h[3], const int64_t n[3],
                      int64_t first, int64_t count, double *x, double *val)
{
    if (d->tb) {
        const grid_geom g = tb_geom(d, o, h, n);
        const int st = tbrfi_engine_project_grid(d->engine, &g, first, count, val);
        return st == TBRF_OK ? TBRF_OK : engine_fail(d, st);
    }
    if (d->eval == TBRF_DRIVE_NUFFT) {
        const int64_t whole[3] = {0, 0, 0};
        tbrfi_nufft_interp_grid(&d->ns, d->fine, d->dim, o, h, n, whole, first, count, TBRF_DOUBLE,
                                d->p.threads, val);
        return TBRF_OK;
    }
    const int dim = d->dim;
    for (int64_t i = 0; i < count; i++) { /* as grid_held's cells as points */
        const int64_t cell = first + i, jx = cell % n[0], jy = (cell / n[0]) % n[1], jz = cell / (n[0] * n[1]);
        double *xi = x + (size_t)dim * (size_t)i;
        xi[0] = o[0] + h[0] * (double)jx;
        xi[1] = o[1] + h[1] * (double)jy;
        if (dim == 3)
            xi[2] = o[2] + h[2] * (double)jz;
    }
    const drive_sum q = sum_of(d);
    const int st = d->be->drive_points(&q, count, x, val);
    return st == TBRF_OK ? TBRF_OK : be_fail(d, st, "the sum of the modes");
}

/* tbrf_driver_grid_component_last once the coefficients are held:
 * component c of cell q at out[c total + q]. Axis by axis the sums are
 * stored there directly; any other path goes chunk by chunk through
 * scratch of DRIVE_CHUNK cells. */
static int grid_last(tbrf_driver *d, const double o[3], const double h[3], const int64_t n[3],
                     int64_t total, double *out)
{
    const int dim = d->dim;
    int st;
    if (!d->tb && d->p.eval != TBRF_DRIVE_NUFFT && d->be == &tbrf_backend_cpu) {
        const int sep = grid_separable(d, o, h, n, total, 1, out);
        if (sep == -2)
            return TBRF_ERR_SIZE; /* fits said why */
        if (sep != 0)
            return sep > 0 ? TBRF_OK : fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for the grid's tables");
    }
    if (d->tb && (st = tb_grid_inside(d, o, h, n)) != TBRF_OK)
        return st;
    if ((st = fits(d, 8.0 * 6 * DRIVE_CHUNK, "a chunk of positions and values")) != TBRF_OK)
        return st;
    double *x = malloc(sizeof(double) * 3 * DRIVE_CHUNK), *val = malloc(sizeof(double) * 3 * DRIVE_CHUNK);
    if (!x || !val)
        st = fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for a chunk");
    for (int64_t first = 0; first < total && st == TBRF_OK; first += DRIVE_CHUNK) {
        const int64_t count = total - first < DRIVE_CHUNK ? total - first : DRIVE_CHUNK;
        if ((st = grid_chunk(d, o, h, n, first, count, x, val)) != TBRF_OK)
            break;
        for (int c = 0; c < dim; c++)
            for (int64_t i = 0; i < count; i++)
                out[(size_t)c * (size_t)total + (size_t)(first + i)] = val[(size_t)dim * (size_t)i + (size_t)c];
    }
    free(x);
    free(val);
    return st;
}

int tbrf_driver_grid_component_last(tbrf_driver *d, double t, const double origin_in[3],
                                    const double spacing_in[3], const int64_t n_in[3], double *out)
{
    if (!d)
        return TBRF_ERR_NULL;
    double origin[3], spacing[3];
    int64_t n[3], total = 1;
    int st = grid_args(d, origin_in, spacing_in, n_in, out, origin, spacing, n, &total);
    if (st != TBRF_OK || (st = hold(d, t, NEED_EVAL)) != TBRF_OK)
        return st;
    st = let_go(d, grid_last(d, origin, spacing, n, total, out));
    return st == TBRF_OK ? ok(d) : st;
}

/* check_positions of n positions with the coordinates last: coordinate c
 * of point i at xyz[c n + i]. */
static int check_positions_last(tbrf_driver *d, int64_t n, const double *xyz)
{
    const int pd = d->tb ? d->dim : d->pdim;
    for (int c = 0; c < pd; c++)
        for (int64_t i = 0; i < n; i++) {
            const double v = xyz[(size_t)c * (size_t)n + (size_t)i];
            if (d->tb && !tb_inside(d, c, v))
                return fail(d, TBRF_ERR_OUT_OF_DOMAIN, "driver: point %lld: coordinate %d = %.17g lies "
                            "outside the domain [%g, %g] (or is NaN)", (long long)i, c, v, d->lo[c],
                            d->hi[c]);
            if (!d->tb && !isfinite(v))
                return fail(d, TBRF_ERR_INVALID, "driver: position %lld has a non-finite coordinate",
                            (long long)i);
        }
    return TBRF_OK;
}

/* tbrf_driver_points_component_last once the coefficients are held: each
 * chunk's positions gathered into scratch (a lifted box's missing axes
 * 0), evaluated as tbrf_driver_points does, the values scattered back. */
static int points_last(tbrf_driver *d, int64_t n, const double *xyz, double *out)
{
    const int dim = d->dim, pd = d->pdim;
    int st = fits(d, 8.0 * 6 * DRIVE_CHUNK, "a chunk of positions and values");
    if (st != TBRF_OK)
        return st;
    double *x = malloc(sizeof(double) * 3 * DRIVE_CHUNK), *val = malloc(sizeof(double) * 3 * DRIVE_CHUNK);
    if (!x || !val)
        st = fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for a chunk");
    for (int64_t first = 0; first < n && st == TBRF_OK; first += DRIVE_CHUNK) {
        const int64_t count = n - first < DRIVE_CHUNK ? n - first : DRIVE_CHUNK;
        for (int64_t i = 0; i < count; i++)
            for (int c = 0; c < dim; c++)
                x[(size_t)dim * (size_t)i + (size_t)c] =
                    c < pd ? xyz[(size_t)c * (size_t)n + (size_t)(first + i)] : 0.0;
        if ((st = eval_points(d, count, x, val)) != TBRF_OK)
            break;
        for (int c = 0; c < dim; c++)
            for (int64_t i = 0; i < count; i++)
                out[(size_t)c * (size_t)n + (size_t)(first + i)] = val[(size_t)dim * (size_t)i + (size_t)c];
    }
    free(x);
    free(val);
    return st;
}

int tbrf_driver_points_component_last(tbrf_driver *d, double t, int64_t n, const double *xyz,
                                      double *out)
{
    if (!d)
        return TBRF_ERR_NULL;
    if (n < 0 || n > INT64_MAX / 3)
        return fail(d, TBRF_ERR_SIZE, "driver: n=%lld points", (long long)n);
    if (n > 0 && (!xyz || !out))
        return fail(d, TBRF_ERR_NULL, "driver: %s is NULL", xyz ? "out" : "xyz");
    int st = hold(d, t, NEED_EVAL);
    if (st != TBRF_OK)
        return st;
    st = check_positions_last(d, n, xyz);
    if (st == TBRF_OK)
        st = points_last(d, n, xyz, out);
    st = let_go(d, st);
    return st == TBRF_OK ? ok(d) : st;
}

/* tbrf_driver_stream once the coefficients are held. */
static int stream_held(tbrf_driver *d, tbrf_pull_fn pull, tbrf_push_fn push, void *user)
{
    int st;
    if ((st = fits(d, 8.0 * 6 * DRIVE_CHUNK, "a chunk of positions and values")) != TBRF_OK)
        return st;
    double *xyz = malloc(sizeof(double) * 3 * DRIVE_CHUNK), *val = malloc(sizeof(double) * 3 * DRIVE_CHUNK);
    if (!xyz || !val) {
        free(xyz);
        free(val);
        return fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for a chunk");
    }
    for (int64_t first = 0;;) {
        int64_t count = 0;
        if (pull(user, first, DRIVE_CHUNK, xyz, &count) != 0) {
            st = fail(d, TBRF_ERR_CALLBACK, "driver: the pull callback returned non-zero at %lld",
                      (long long)first);
            break;
        }
        if (count < 0 || count > DRIVE_CHUNK) {
            st = fail(d, TBRF_ERR_INVALID, "driver: pull reported count=%lld outside 0..%d",
                      (long long)count, DRIVE_CHUNK);
            break;
        }
        if (count == 0)
            break;
        if ((st = check_positions(d, count, xyz)) != TBRF_OK)
            break;
        if (d->pdim < d->dim)
            lift(d, count, xyz);
        if ((st = eval_points(d, count, xyz, val)) != TBRF_OK)
            break;
        if (push(user, first, count, val) != 0) {
            st = fail(d, TBRF_ERR_CALLBACK, "driver: the push callback returned non-zero at %lld",
                      (long long)first);
            break;
        }
        first += count;
    }
    free(xyz);
    free(val);
    return st;
}

int tbrf_driver_stream(tbrf_driver *d, double t, tbrf_pull_fn pull, tbrf_push_fn push, void *user)
{
    if (!d)
        return TBRF_ERR_NULL;
    if (!pull || !push)
        return fail(d, TBRF_ERR_NULL, "driver: stream: %s callback is NULL", pull ? "push" : "pull");
    int st = hold(d, t, NEED_EVAL);
    if (st != TBRF_OK)
        return st;
    st = let_go(d, stream_held(d, pull, push, user));
    return st == TBRF_OK ? ok(d) : st;
}

int tbrf_driver_rms(tbrf_driver *d, double t, double *rms)
{
    if (!d)
        return TBRF_ERR_NULL;
    if (!rms)
        return fail(d, TBRF_ERR_NULL, "driver: rms is NULL");
    if (d->status == TBRF_OK && d->tb)
        return fail(d, TBRF_ERR_UNSUPPORTED, "driver: rms: a non-periodic domain (turning bands) "
                    "has no box modes to sum by Parseval; its ensemble rms is in tbrf_driver_info");
    int st = hold(d, t, NEED_COEF);
    if (st != TBRF_OK)
        return st;
    double sum = 0.0;
    for (int64_t i = 0; i < d->nm * 2 * d->dim; i++)
        sum += d->coef[i] * d->coef[i];
    *rms = sqrt(2.0 * sum);
    return let_go(d, ok(d));
}

int tbrf_driver_modes(tbrf_driver *d, double t, int64_t *n, int32_t *m, double *coef)
{
    if (!d)
        return TBRF_ERR_NULL;
    if (!n)
        return fail(d, TBRF_ERR_NULL, "driver: modes: n is NULL");
    if (d->status == TBRF_OK && d->tb)
        return fail(d, TBRF_ERR_UNSUPPORTED, "driver: modes: a non-periodic domain (turning bands) "
                    "has line modes, not the Fourier modes of a box");
    const int64_t room = *n;
    if (d->status == TBRF_OK && room >= d->nm && (!m || !coef) && (*n = d->nm) >= 0)
        return fail(d, TBRF_ERR_NULL, "driver: modes: m or coef is NULL");
    int st = hold(d, t, NEED_COEF);
    if (st != TBRF_OK)
        return st;
    *n = d->nm;
    if (room >= d->nm) {
        memcpy(m, d->m, sizeof(int32_t) * 3 * (size_t)d->nm);
        memcpy(coef, d->coef, sizeof(double) * 2 * (size_t)d->dim * (size_t)d->nm);
    }
    return let_go(d, ok(d));
}

int tbrf_driver_get_info(const tbrf_driver *d, tbrf_driver_info *info)
{
    if (!d || !info)
        return TBRF_ERR_NULL;
    if (d->status != TBRF_OK)
        return TBRF_ERR_BAD_PLAN;
    tbrf_driver *dm = (tbrf_driver *)d; /* the lock only */
    memset(info, 0, sizeof *info);
    pthread_rwlock_rdlock(&dm->lock);
    info->modes = d->nm;
    info->eval = d->eval;
    info->dt_update = d->dt;
    info->decay = d->decay;
    info->rms_ensemble = d->rms_ensemble;
    info->update = d->j;
    pthread_rwlock_unlock(&dm->lock);
    return TBRF_OK;
}

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
        return set_status(d, TBRF_ERR_BAD_PLAN);
    if (!buf)
        return fail(d, TBRF_ERR_NULL, "driver: save: buf is NULL");
    const int64_t need = tbrf_driver_state_size(d);
    if (size < need)
        return fail(d, TBRF_ERR_SIZE, "driver: save: %lld bytes, the state needs %lld",
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
        return fail(d, TBRF_ERR_NO_GEOMETRY, "driver: save: no state yet (evaluate at a time first)");
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
    return ok(d);
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
            return fail(d, TBRF_ERR_INVALID, "driver: load: the state is of another driver: its "
                        "seed=%llu, this driver's %llu %s", (unsigned long long)seed,
                        (unsigned long long)d->seed, why);
        if (phys[k] != mine[k])
            return fail(d, TBRF_ERR_INVALID, "driver: load: the state is of another driver: its "
                        "%s=%.17g, this driver's %.17g %s", PHYS_NAME[k], phys[k], mine[k], why);
    }
    if (nm != d->nm || nc != 2 * d->dim || hash != d->modes_hash)
        return fail(d, TBRF_ERR_INVALID, "driver: load: the state is of another driver: its %lld "
                    "modes%s differ from this driver's %lld (another model or band) %s", (long long)nm,
                    nm == d->nm ? "' wavevectors or variances" : "", (long long)d->nm, why);
    return TBRF_OK;
}

int tbrf_driver_load(tbrf_driver *d, const void *buf, int64_t size)
{
    if (!d)
        return TBRF_ERR_NULL;
    if (d->status != TBRF_OK)
        return set_status(d, TBRF_ERR_BAD_PLAN);
    if (!buf)
        return fail(d, TBRF_ERR_NULL, "driver: load: buf is NULL");
    int64_t j = 0;
    tbrfi_message why;
    tbrfi_message_clear(&why);
    int st = state_intact(&why, buf, size, &j);
    if (st != TBRF_OK)
        return fail(d, st, "%s", tbrfi_message_text(&why));
    st = load_same(d, buf);
    if (st != TBRF_OK)
        return st;
    if (j < 0 || j >= TBRF_OU_UPDATES - 1)
        return fail(d, TBRF_ERR_INVALID, "driver: load: update index %lld out of range", (long long)j);
    pthread_rwlock_wrlock(&d->lock);
    memcpy(d->a, (const unsigned char *)buf + STATE_HEADER, sizeof(double) * 2 * (size_t)d->dim * (size_t)d->nm);
    d->j = j;
    d->coef_valid = 0;
    d->fine_valid = 0;
    d->lines_valid = 0;
    pthread_rwlock_unlock(&d->lock);
    return ok(d);
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

/* ------------------------------------------------------------ backends */

/* A non-periodic driver on backend id (resolved): a new engine on it
 * (the same sizing: the frozen shape of the old one), which takes over the
 * current lines; on failure the old engine stays. */
static int tb_set_backend(tbrf_driver *d, int id, int device)
{
    tbrfi_engine *e = NULL;
    int st = tb_engine(d, tbrfi_engine_view_of(d->engine)->model, id, device, &e);
    if (st != TBRF_OK)
        return st;
    if (tbrfi_engine_view_of(e)->spec.M != d->spec->M) { /* the same sizing, or a bug */
        tbrfi_engine_destroy(e);
        return fail(d, TBRF_ERR_INVALID, "driver: the %s engine sized its lines differently",
                    tbrf_backend_name(id));
    }
    tbrfi_engine_destroy(d->engine);
    d->engine = e;
    d->spec = &tbrfi_engine_view_of(e)->spec;
    if (d->lines_valid)
        tbrfi_engine_use_lines(e, d->axis, d->lines, d->dim);
    d->backend = id;
    return ok(d);
}

static int set_backend_held(tbrf_driver *d, int backend, int device);

int tbrf_driver_set_backend(tbrf_driver *d, int backend, int device)
{
    if (!d)
        return TBRF_ERR_NULL;
    if (d->status != TBRF_OK)
        return set_status(d, TBRF_ERR_BAD_PLAN);
    pthread_rwlock_wrlock(&d->lock);
    const int st = set_backend_held(d, backend, device);
    pthread_rwlock_unlock(&d->lock);
    return st;
}

/* tbrf_driver_set_backend under the lock (exclusive). */
static int set_backend_held(tbrf_driver *d, int backend, int device)
{
    if (device < -1)
        return fail(d, TBRF_ERR_INVALID, "driver: device=%d must be -1 (the first usable) or >= 0", device);
    int st;
    const backend_ops *b = tbrfi_backend_lookup(backend, &st);
    if (!b) {
        const char *name = tbrf_backend_name(backend);
        if (st == TBRF_ERR_NOT_BUILT)
            return fail(d, st, "driver: backend %s is not built into this library (doc/gpu.md, "
                        "\"Building\")", name);
        if (st == TBRF_ERR_NO_DEVICE)
            return fail(d, st, "driver: backend %s has no usable device", name);
        return fail(d, TBRF_ERR_INVALID, "driver: backend=%d is not a tbrf_backend", backend);
    }
    if (d->tb)
        return tb_set_backend(d, b->id, device);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.backend = b->id;
    o.device = device;
    o.precision = TBRF_DOUBLE; /* the driver's values are double on every backend */
    o.threads = d->p.threads;
    void *state = NULL;
    char msg[512] = "";
    if ((st = b->init(&o, &state, msg, sizeof msg)) != TBRF_OK)
        return fail(d, st, "driver: the %s backend: %s", b->name, msg);
    d->be->release(d->be_state);
    d->be = b;
    d->be_state = state;
    d->backend = b->id;
    /* the NUFFT runs on the CPU whatever the backend; AUTO on a GPU
     * backend sums the modes there (drive_points) */
    if (b != &tbrf_backend_cpu && d->p.eval != TBRF_DRIVE_NUFFT)
        d->eval = TBRF_DRIVE_DIRECT;
    else
        d->eval = d->eval_cpu;
    return ok(d);
}

int tbrf_driver_backend(const tbrf_driver *d)
{
    if (!d || d->status != TBRF_OK)
        return -1;
    tbrf_driver *dm = (tbrf_driver *)d; /* the lock only */
    pthread_rwlock_rdlock(&dm->lock);
    const int id = d->backend;
    pthread_rwlock_unlock(&dm->lock);
    return id;
}

int tbrf_driver_status(const tbrf_driver *d)
{
    if (!d)
        return TBRF_ERR_NULL;
    tbrf_driver *dm = (tbrf_driver *)d; /* the lock only */
    if (d->locks)
        pthread_mutex_lock(&dm->msg_lock);
    const int st = d->msg.status;
    if (d->locks)
        pthread_mutex_unlock(&dm->msg_lock);
    return st;
}

const char *tbrf_driver_message(const tbrf_driver *d)
{
    return d ? tbrfi_message_text(&d->msg) : "the driver is NULL";
}

void tbrf_driver_destroy(tbrf_driver *d)
{
    if (!d)
        return;
    d->be->release(d->be_state);
    free(d->m);
    free(d->s);
    free(d->shell_n);
    free(d->khat);
    free(d->a);
    free(d->a1);
    tbrfi_ou_free(&d->ou);
    free(d->coef);
    free(d->cj);
    for (int c = 0; c < 3; c++)
        if (d->fine[c])
            fftw_free(d->fine[c]);
    if (d->C)
        fftw_free(d->C);
    free(d->lm);
    free(d->u);
    free(d->axis);
    free(d->raw);
    free(d->lines);
    tbrfi_engine_destroy(d->engine);
    if (d->locks) {
        pthread_rwlock_destroy(&d->lock);
        pthread_mutex_destroy(&d->msg_lock);
    }
    free(d);
}
