/* driver.c — turbulence driving: making a driver, its time and its
 * calls (driver.h; the mathematics in doc/driving.md; the evaluation
 * paths in driver_modes.c and driver_lines.c, the state in
 * driver_state.c).
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
#include "apps/driving/driver_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/parallel.h"

/* The message is written under msg_lock, so that threads sharing the
 * driver never write it at once (it is then the last call's to finish). */
int tbrfi_drv_fail(tbrf_driver *d, int status, const char *fmt, ...)
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
int tbrfi_drv_set_status(tbrf_driver *d, int status)
{
    if (d->locks)
        pthread_mutex_lock(&d->msg_lock);
    d->msg.status = status;
    if (d->locks)
        pthread_mutex_unlock(&d->msg_lock);
    return status;
}

int tbrfi_drv_ok(tbrf_driver *d)
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
    return tbrfi_drv_fail(d, TBRF_ERR_SIZE, "driver: %s would need %.3g MiB, with the %.3g MiB the driver holds "
                "above the memory budget of %.3g MiB (tbrf_memory_budget: TBRF_MEMORY_BUDGET or half "
                "the physical memory)%s", what, bytes / MIB, d->bytes / MIB, d->budget / MIB, hint);
}

int tbrfi_drv_fits(tbrf_driver *d, double bytes, const char *what)
{
    return fits_hint(d, bytes, what, "");
}

/* fits_hint, and counts the bytes as held (allocations kept until destroy). */
int tbrfi_drv_reserve(tbrf_driver *d, double bytes, const char *what, const char *hint)
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
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: dim=%d must be 1, 2 or 3", (int)p->dim);
    if (p->components != 0 && p->components != p->dim && p->components != 3)
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: components=%d must be 0 (= dim), dim or 3",
                    (int)p->components);
    const int ncomp = p->components ? p->components : p->dim;
    if (ncomp == 1)
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: dim=1 needs components=3 (a 1D box forced in "
                    "three components, TurbGen's ndim = 1.5): one component along k is the "
                    "compressive part alone");
    if (ncomp > p->dim && p->periodic == 0)
        return tbrfi_drv_fail(d, TBRF_ERR_UNSUPPORTED, "driver: components=3 with dim=%d needs a periodic box "
                    "(periodic = 1): the turning-bands lines of a non-periodic domain have dim "
                    "components", (int)p->dim);
    if (ncomp > p->dim && p->eval == TBRF_DRIVE_NUFFT)
        return tbrfi_drv_fail(d, TBRF_ERR_UNSUPPORTED, "driver: components=3 with dim=%d sums its modes "
                    "directly (TBRF_DRIVE_AUTO or _DIRECT), not by the NUFFT", (int)p->dim);
    if (p->directions < 0 || (p->directions > 0 && p->periodic == 0))
        return tbrfi_drv_fail(d, p->directions < 0 ? TBRF_ERR_INVALID : TBRF_ERR_UNSUPPORTED,
                    "driver: directions=%d must be >= 0, and 0 on a non-periodic domain (the "
                    "sparse directions select a box's Fourier modes)", (int)p->directions);
    if (p->periodic != 0 && p->periodic != 1)
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: periodic=%d must be 1 (a periodic box) or 0 (a "
                    "non-periodic domain, turning bands)", (int)p->periodic);
    /* Turning bands have no box modes: no Parseval sum over the domain
     * (the lines' power spreads beyond it), no NUFFT of modes. */
    if (p->periodic == 0 && p->normalization == TBRF_DRIVE_RMS_EXACT)
        return tbrfi_drv_fail(d, TBRF_ERR_UNSUPPORTED,
                    "driver: normalization=TBRF_DRIVE_RMS_EXACT needs the Fourier modes of a "
                    "periodic box (Parseval); a non-periodic domain (turning bands) offers the "
                    "ensemble rms (TBRF_DRIVE_RMS_ENSEMBLE) or TBRF_DRIVE_INJECTION");
    if (p->periodic == 0 && p->eval == TBRF_DRIVE_NUFFT)
        return tbrfi_drv_fail(d, TBRF_ERR_UNSUPPORTED,
                    "driver: eval=TBRF_DRIVE_NUFFT sums the modes of a periodic box; a non-periodic "
                    "domain projects turning-bands lines (use TBRF_DRIVE_AUTO)");
    for (int c = 0; c < p->dim; c++)
        if (!isfinite(p->origin[c]) || !(isfinite(p->length[c]) && p->length[c] > 0.0))
            return tbrfi_drv_fail(d, TBRF_ERR_INVALID,
                        "driver: box axis %d: origin=%g, length=%g must be finite, length > 0", c,
                        p->origin[c], p->length[c]);
    if (!(p->zeta >= 0.0 && p->zeta <= 1.0))
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: zeta=%g must be in [0, 1]", p->zeta);
    if (!(isfinite(p->tcorr) && p->tcorr > 0.0))
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: tcorr=%g must be finite and > 0", p->tcorr);
    if (!(isfinite(p->dt_update) && p->dt_update >= 0.0))
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: dt_update=%g must be finite and >= 0 (0: tcorr/10)",
                    p->dt_update);
    if (p->normalization < 0 || p->normalization > 2)
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: normalization=%d is not a tbrf_drive_norm",
                    (int)p->normalization);
    if (p->normalization == TBRF_DRIVE_INJECTION) {
        if (!(isfinite(p->injection) && p->injection > 0.0) ||
            !(isfinite(p->density) && p->density > 0.0))
            return tbrfi_drv_fail(d, TBRF_ERR_INVALID,
                        "driver: injection=%g and density=%g must be finite and > 0", p->injection,
                        p->density);
    } else if (!(isfinite(p->rms) && p->rms > 0.0)) {
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: rms=%g must be finite and > 0", p->rms);
    }
    if (p->interpolate != 0 && p->interpolate != 1)
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: interpolate=%d must be 0 or 1", (int)p->interpolate);
    if (p->eval < 0 || p->eval > 2)
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: eval=%d is not a tbrf_drive_eval", (int)p->eval);
    if (p->threads < 0 || p->threads > 1024)
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: threads=%d must be 0..1024", (int)p->threads);
    if (p->accuracy != 0.0 && !(p->accuracy >= 1e-15 && p->accuracy <= 0.1))
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: accuracy=%g must be 0 or in [1e-15, 0.1]",
                    p->accuracy);
    double gsum = 0.0;
    for (int c = 0; c < ncomp; c++) {
        if (!(isfinite(p->amplitude_factor[c]) && p->amplitude_factor[c] >= 0.0))
            return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: amplitude_factor[%d]=%g must be finite and "
                        ">= 0", c, p->amplitude_factor[c]);
        gsum += p->amplitude_factor[c];
    }
    if (!(gsum > 0.0))
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: amplitude_factor is zero for every component "
                    "(fill the parameters with tbrf_driver_default_params: the factors default to 1)");
    return TBRF_OK;
}

/* The model's support [kmin, kmax]; 0 when it is unbounded. */
int tbrfi_drv_support(const tbrf_model *m, double *kmin, double *kmax)
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
    if (tbrfi_drv_reserve(d, tbrfi_ou_bytes(d->nm, nc, levels), "the OU tree's cache", "") != TBRF_OK)
        return TBRF_ERR_SIZE;
    const uint32_t w1 = TBRF_STREAM_OU | (d->tb ? 2u : 0u);
    if (tbrfi_ou_init(&d->ou, d->seed, d->nm, nc, d->tb ? NULL : d->m, w1, d->dt / d->p.tcorr,
                      levels, d->p.threads) != 0)
        return tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for the OU tree's cache");
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
        st = tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: TBRF_MEMORY_BUDGET='%.40s' is not a size in bytes "
                  "(such as 4G or 512M)", getenv("TBRF_MEMORY_BUDGET"));
    else if (!model || !params)
        st = tbrfi_drv_fail(d, TBRF_ERR_NULL, "driver: %s is NULL", model ? "params" : "model");
    else if (tbrf_model_status(model) != TBRF_OK)
        st = tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: the model failed: %s", tbrf_model_message(model));
    else if (model->anis) /* its modes are shells of |k| (doc/driving.md) */
        st = tbrfi_drv_fail(d, TBRF_ERR_UNSUPPORTED, "driver: %s: the driver takes isotropic models only "
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
            st = tbrfi_drv_setup_tb(d, model);
        } else {
            st = tbrfi_drv_setup_modes(d, model);
            if (st == TBRF_OK)
                st = tbrfi_drv_setup_eval(d);
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

/* The key (update j, weight w) of time t, or a refusal. */
static int time_key(tbrf_driver *d, double t, int64_t *j, double *w)
{
    if (d->status != TBRF_OK)
        return tbrfi_drv_set_status(d, TBRF_ERR_BAD_PLAN); /* the make's message stays */
    if (!(t >= 0.0) || !isfinite(t))
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: time t=%g must be finite and >= 0", t);
    *w = 0.0;
    *j = update_of(d, t, w);
    if (*j < 0)
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID,
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
        return tbrfi_drv_ensure_lines(d);
    if (need == NEED_EVAL && d->eval == TBRF_DRIVE_NUFFT)
        return tbrfi_drv_ensure_fine(d);
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

static int eval_points(tbrf_driver *d, int64_t n, const double *xyz, double *out)
{
    if (d->tb)
        return tbrfi_drv_tb_points(d, n, xyz, out);
    if (d->eval == TBRF_DRIVE_NUFFT) {
        const int st = tbrfi_drv_ensure_fine(d);
        if (st != TBRF_OK)
            return st;
        tbrfi_nufft_interp(&d->ns, d->fine, d->dim, n, xyz, TBRF_DOUBLE, d->p.threads, out);
        return TBRF_OK;
    }
    const drive_sum q = tbrfi_drv_sum_of(d);
    const int st = d->be->drive_points(&q, n, xyz, out);
    return st == TBRF_OK ? TBRF_OK : tbrfi_drv_be_fail(d, st, "the sum of the modes");
}

static int check_positions(tbrf_driver *d, int64_t n, const double *xyz)
{
    if (d->tb) {
        for (int64_t i = 0; i < n * d->dim; i++)
            if (!tbrfi_drv_tb_inside(d, (int)(i % d->dim), xyz[i])) {
                const double *x = xyz + (i / d->dim) * d->dim;
                return tbrfi_drv_fail(d, TBRF_ERR_OUT_OF_DOMAIN,
                            "driver: point %lld at (%.17g, %.17g, %.17g) lies outside the domain "
                            "[%g, %g] x [%g, %g] x [%g, %g] (or is NaN)", (long long)(i / d->dim),
                            x[0], x[1], d->dim == 3 ? x[2] : 0.0, d->lo[0], d->hi[0], d->lo[1],
                            d->hi[1], d->dim == 3 ? d->lo[2] : 0.0, d->dim == 3 ? d->hi[2] : 0.0);
            }
        return TBRF_OK;
    }
    for (int64_t i = 0; i < n * d->pdim; i++)
        if (!isfinite(xyz[i]))
            return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: position %lld has a non-finite coordinate",
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
    int st = tbrfi_drv_fits(d, 8.0 * 3 * DRIVE_CHUNK, "a chunk of positions");
    double *x = st == TBRF_OK ? malloc(sizeof(double) * 3 * DRIVE_CHUNK) : NULL;
    if (st == TBRF_OK && !x)
        st = tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for a chunk of positions");
    for (int64_t first = 0; first < n && st == TBRF_OK; first += DRIVE_CHUNK) {
        const int64_t count = n - first < DRIVE_CHUNK ? n - first : DRIVE_CHUNK;
        memcpy(x, xyz + d->pdim * first, sizeof(double) * (size_t)(d->pdim * count));
        lift(d, count, x);
        st = eval_points(d, count, x, out + 3 * first);
    }
    free(x);
    return st;
}

/* The checks every points call starts with (either layout), then the
 * coefficients of time t held for evaluation: TBRF_OK (held), or the
 * failure with nothing held. */
static int points_begin(tbrf_driver *d, double t, int64_t n, const double *xyz, const double *out)
{
    if (!d)
        return TBRF_ERR_NULL;
    if (n < 0 || n > INT64_MAX / 3)
        return tbrfi_drv_fail(d, TBRF_ERR_SIZE, "driver: n=%lld points", (long long)n);
    if (n > 0 && (!xyz || !out))
        return tbrfi_drv_fail(d, TBRF_ERR_NULL, "driver: %s is NULL", xyz ? "out" : "xyz");
    return hold(d, t, NEED_EVAL);
}

int tbrf_driver_points(tbrf_driver *d, double t, int64_t n, const double *xyz, double *out)
{
    int st = points_begin(d, t, n, xyz, out);
    if (st != TBRF_OK)
        return st;
    st = check_positions(d, n, xyz);
    if (st == TBRF_OK)
        st = d->pdim < d->dim ? eval_lifted(d, n, xyz, out) : eval_points(d, n, xyz, out);
    return let_go(d, st) == TBRF_OK ? tbrfi_drv_ok(d) : st;
}

/* TBRF_ERR_CANCELLED with its message when the caller's hook asks a grid
 * call to stop after `done` of `total` cells, else TBRF_OK. */
static int drv_cancelled(tbrf_driver *d, int64_t done, int64_t total)
{
    if (!tbrfi_cancelled(&d->cancel))
        return TBRF_OK;
    return tbrfi_drv_fail(d, TBRF_ERR_CANCELLED, "driver: cancelled by the caller's hook after %lld of %lld "
                          "cells", (long long)done, (long long)total);
}

int tbrf_driver_set_cancel(tbrf_driver *d, tbrf_cancel_fn cancel, void *user)
{
    if (!d)
        return TBRF_ERR_NULL;
    if (d->status != TBRF_OK)
        return tbrfi_drv_set_status(d, TBRF_ERR_BAD_PLAN);
    pthread_rwlock_wrlock(&d->lock); /* not while a call polls the hook */
    d->cancel.fn = cancel;
    d->cancel.user = user;
    if (d->engine)
        tbrfi_engine_set_cancel(d->engine, cancel, user);
    pthread_rwlock_unlock(&d->lock);
    return tbrfi_drv_ok(d);
}

/* The grid of a box with pdim axes as 3 axes: the missing ones one cell
 * at 0 (a 2D grid had n[2] = 1 before; a lifted box's values do not vary
 * along them). TBRF_OK, or TBRF_ERR_SIZE for a count above 1 there. */
static int grid_axes(tbrf_driver *d, const double o_in[3], const double h_in[3],
                     const int64_t n_in[3], double o[3], double h[3], int64_t n[3])
{
    for (int c = 0; c < 3; c++) {
        if (c >= d->pdim && n_in[c] != 1)
            return tbrfi_drv_fail(d, TBRF_ERR_SIZE, "driver: a %dD grid has n[%d] = 1, not %lld", d->pdim, c,
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
        return tbrfi_drv_tb_grid(d, origin, spacing, n, total, out);
    /* Axis by axis costs (M_x + 1) products per cell, below the NUFFT's
     * w^dim whenever its dense array fits: AUTO takes it for any grid on
     * the CPU backend. Another backend sums the cells as points. */
    if (d->p.eval != TBRF_DRIVE_NUFFT && d->be == &tbrf_backend_cpu) {
        const int sep = tbrfi_drv_grid_separable(d, origin, spacing, n, 1, dim, out);
        if (sep == -2)
            return TBRF_ERR_SIZE; /* fits said why */
        if (sep == -3)
            return TBRF_ERR_CANCELLED; /* said why */
        if (sep != 0)
            return sep > 0 ? tbrfi_drv_ok(d) : tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for the grid's tables");
    }
    if (d->eval == TBRF_DRIVE_NUFFT) {
        if ((st = tbrfi_drv_ensure_fine(d)) != TBRF_OK)
            return st;
        const int64_t whole[3] = {0, 0, 0}; /* the driver's grid is whole: cells from its own corner */
        const int64_t block = tbrfi_cancel_block(&d->cancel, tbrfi_nufft_cell_work(&d->ns, dim), total);
        for (int64_t a = 0; a < total; a += block) {
            if (a > 0 && (st = drv_cancelled(d, a, total)) != TBRF_OK)
                return st;
            tbrfi_nufft_interp_grid(&d->ns, d->fine, dim, origin, spacing, n, whole, a,
                                    total - a < block ? total - a : block, TBRF_DOUBLE, d->p.threads,
                                    out + (size_t)dim * (size_t)a);
        }
        return tbrfi_drv_ok(d);
    }
    /* the cells as points, chunk by chunk, through the backend's sum (the
     * same positions, so the same values as tbrf_driver_points) */
    if ((st = tbrfi_drv_fits(d, 8.0 * 3 * DRIVE_CHUNK, "a chunk of positions")) != TBRF_OK)
        return st;
    double *x = malloc(sizeof(double) * 3 * DRIVE_CHUNK);
    if (!x)
        return tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for a chunk of positions");
    const drive_sum q = tbrfi_drv_sum_of(d);
    const int64_t every = tbrfi_cancel_block(&d->cancel, (double)d->nm * DRIVE_CHUNK, total);
    for (int64_t first = 0; first < total && st == TBRF_OK; first += DRIVE_CHUNK) {
        const int64_t count = total - first < DRIVE_CHUNK ? total - first : DRIVE_CHUNK;
        if (first > 0 && (first / DRIVE_CHUNK) % every == 0 && drv_cancelled(d, first, total) != TBRF_OK) {
            free(x);
            return TBRF_ERR_CANCELLED;
        }
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
    return st == TBRF_OK ? tbrfi_drv_ok(d) : tbrfi_drv_be_fail(d, st, "the sum of the modes");
}

/* A grid call's arguments as 3 axes (grid_axes) with its cell count, or
 * a refusal. */
static int grid_args(tbrf_driver *d, const double origin_in[3], const double spacing_in[3],
                     const int64_t n_in[3], const double *out, double origin[3], double spacing[3],
                     int64_t n[3], int64_t *total)
{
    if (!origin_in || !spacing_in || !n_in || !out)
        return tbrfi_drv_fail(d, TBRF_ERR_NULL, "driver: a grid argument is NULL");
    const int dim = d->dim;
    if (grid_axes(d, origin_in, spacing_in, n_in, origin, spacing, n) != TBRF_OK)
        return TBRF_ERR_SIZE;
    *total = 1;
    for (int c = 0; c < 3; c++) {
        const int64_t nc = c < dim ? n[c] : 1;
        if (c < dim && (!isfinite(origin[c]) || !isfinite(spacing[c])))
            return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: grid origin/spacing along axis %d not finite", c);
        if (nc < 1 || *total > INT64_MAX / 3 / nc)
            return tbrfi_drv_fail(d, TBRF_ERR_SIZE, "driver: grid counts %lld x %lld x %lld", (long long)n[0],
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
        const grid_geom g = tbrfi_drv_tb_geom(d, o, h, n);
        const int st = tbrfi_engine_project_grid(d->engine, &g, first, count, val);
        return st == TBRF_OK ? TBRF_OK : tbrfi_drv_engine_fail(d, st);
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
    const drive_sum q = tbrfi_drv_sum_of(d);
    const int st = d->be->drive_points(&q, count, x, val);
    return st == TBRF_OK ? TBRF_OK : tbrfi_drv_be_fail(d, st, "the sum of the modes");
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
        const int sep = tbrfi_drv_grid_separable(d, o, h, n, total, 1, out);
        if (sep == -2)
            return TBRF_ERR_SIZE; /* fits said why */
        if (sep == -3)
            return TBRF_ERR_CANCELLED; /* said why */
        if (sep != 0)
            return sep > 0 ? TBRF_OK : tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for the grid's tables");
    }
    if (d->tb && (st = tbrfi_drv_tb_grid_inside(d, o, h, n)) != TBRF_OK)
        return st;
    if ((st = tbrfi_drv_fits(d, 8.0 * 6 * DRIVE_CHUNK, "a chunk of positions and values")) != TBRF_OK)
        return st;
    double *x = malloc(sizeof(double) * 3 * DRIVE_CHUNK), *val = malloc(sizeof(double) * 3 * DRIVE_CHUNK);
    if (!x || !val)
        st = tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for a chunk");
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
    return st == TBRF_OK ? tbrfi_drv_ok(d) : st;
}

/* check_positions of n positions with the coordinates last: coordinate c
 * of point i at xyz[c n + i]. */
static int check_positions_last(tbrf_driver *d, int64_t n, const double *xyz)
{
    const int pd = d->tb ? d->dim : d->pdim;
    for (int c = 0; c < pd; c++)
        for (int64_t i = 0; i < n; i++) {
            const double v = xyz[(size_t)c * (size_t)n + (size_t)i];
            if (d->tb && !tbrfi_drv_tb_inside(d, c, v))
                return tbrfi_drv_fail(d, TBRF_ERR_OUT_OF_DOMAIN, "driver: point %lld: coordinate %d = %.17g lies "
                            "outside the domain [%g, %g] (or is NaN)", (long long)i, c, v, d->lo[c],
                            d->hi[c]);
            if (!d->tb && !isfinite(v))
                return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: position %lld has a non-finite coordinate",
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
    int st = tbrfi_drv_fits(d, 8.0 * 6 * DRIVE_CHUNK, "a chunk of positions and values");
    if (st != TBRF_OK)
        return st;
    double *x = malloc(sizeof(double) * 3 * DRIVE_CHUNK), *val = malloc(sizeof(double) * 3 * DRIVE_CHUNK);
    if (!x || !val)
        st = tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for a chunk");
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
    int st = points_begin(d, t, n, xyz, out);
    if (st != TBRF_OK)
        return st;
    st = check_positions_last(d, n, xyz);
    if (st == TBRF_OK)
        st = points_last(d, n, xyz, out);
    st = let_go(d, st);
    return st == TBRF_OK ? tbrfi_drv_ok(d) : st;
}

/* tbrf_driver_stream once the coefficients are held. */
static int stream_held(tbrf_driver *d, tbrf_pull_fn pull, tbrf_push_fn push, void *user)
{
    int st;
    if ((st = tbrfi_drv_fits(d, 8.0 * 6 * DRIVE_CHUNK, "a chunk of positions and values")) != TBRF_OK)
        return st;
    double *xyz = malloc(sizeof(double) * 3 * DRIVE_CHUNK), *val = malloc(sizeof(double) * 3 * DRIVE_CHUNK);
    if (!xyz || !val) {
        free(xyz);
        free(val);
        return tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for a chunk");
    }
    for (int64_t first = 0;;) {
        int64_t count = 0;
        if (pull(user, first, DRIVE_CHUNK, xyz, &count) != 0) {
            st = tbrfi_drv_fail(d, TBRF_ERR_CALLBACK, "driver: the pull callback returned non-zero at %lld",
                      (long long)first);
            break;
        }
        if (count < 0 || count > DRIVE_CHUNK) {
            st = tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: pull reported count=%lld outside 0..%d",
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
            st = tbrfi_drv_fail(d, TBRF_ERR_CALLBACK, "driver: the push callback returned non-zero at %lld",
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
        return tbrfi_drv_fail(d, TBRF_ERR_NULL, "driver: stream: %s callback is NULL", pull ? "push" : "pull");
    int st = hold(d, t, NEED_EVAL);
    if (st != TBRF_OK)
        return st;
    st = let_go(d, stream_held(d, pull, push, user));
    return st == TBRF_OK ? tbrfi_drv_ok(d) : st;
}

int tbrf_driver_rms(tbrf_driver *d, double t, double *rms)
{
    if (!d)
        return TBRF_ERR_NULL;
    if (!rms)
        return tbrfi_drv_fail(d, TBRF_ERR_NULL, "driver: rms is NULL");
    if (d->status == TBRF_OK && d->tb)
        return tbrfi_drv_fail(d, TBRF_ERR_UNSUPPORTED, "driver: rms: a non-periodic domain (turning bands) "
                    "has no box modes to sum by Parseval; its ensemble rms is in tbrf_driver_info");
    int st = hold(d, t, NEED_COEF);
    if (st != TBRF_OK)
        return st;
    double sum = 0.0;
    for (int64_t i = 0; i < d->nm * 2 * d->dim; i++)
        sum += d->coef[i] * d->coef[i];
    *rms = sqrt(2.0 * sum);
    return let_go(d, tbrfi_drv_ok(d));
}

int tbrf_driver_modes(tbrf_driver *d, double t, int64_t *n, int32_t *m, double *coef)
{
    if (!d)
        return TBRF_ERR_NULL;
    if (!n)
        return tbrfi_drv_fail(d, TBRF_ERR_NULL, "driver: modes: n is NULL");
    if (d->status == TBRF_OK && d->tb)
        return tbrfi_drv_fail(d, TBRF_ERR_UNSUPPORTED, "driver: modes: a non-periodic domain (turning bands) "
                    "has line modes, not the Fourier modes of a box");
    const int64_t room = *n;
    if (d->status == TBRF_OK && room >= d->nm && (!m || !coef) && (*n = d->nm) >= 0)
        return tbrfi_drv_fail(d, TBRF_ERR_NULL, "driver: modes: m or coef is NULL");
    int st = hold(d, t, NEED_COEF);
    if (st != TBRF_OK)
        return st;
    *n = d->nm;
    if (room >= d->nm) {
        memcpy(m, d->m, sizeof(int32_t) * 3 * (size_t)d->nm);
        memcpy(coef, d->coef, sizeof(double) * 2 * (size_t)d->dim * (size_t)d->nm);
    }
    return let_go(d, tbrfi_drv_ok(d));
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

static int set_backend_held(tbrf_driver *d, int backend, int device);

int tbrf_driver_set_backend(tbrf_driver *d, int backend, int device)
{
    if (!d)
        return TBRF_ERR_NULL;
    if (d->status != TBRF_OK)
        return tbrfi_drv_set_status(d, TBRF_ERR_BAD_PLAN);
    pthread_rwlock_wrlock(&d->lock);
    const int st = set_backend_held(d, backend, device);
    pthread_rwlock_unlock(&d->lock);
    return st;
}

/* tbrf_driver_set_backend under the lock (exclusive). */
static int set_backend_held(tbrf_driver *d, int backend, int device)
{
    if (device < -1)
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: device=%d must be -1 (the first usable) or >= 0", device);
    int st;
    const backend_ops *b = tbrfi_backend_lookup(backend, &st);
    if (!b) {
        const char *name = tbrf_backend_name(backend);
        if (st == TBRF_ERR_NOT_BUILT)
            return tbrfi_drv_fail(d, st, "driver: backend %s is not built into this library (doc/gpu.md, "
                        "\"Building\")", name);
        if (st == TBRF_ERR_NO_DEVICE)
            return tbrfi_drv_fail(d, st, "driver: backend %s has no usable device", name);
        return tbrfi_drv_fail(d, TBRF_ERR_INVALID, "driver: backend=%d is not a tbrf_backend", backend);
    }
    if (d->tb)
        return tbrfi_drv_tb_set_backend(d, b->id, device);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.backend = b->id;
    o.device = device;
    o.precision = TBRF_DOUBLE; /* the driver's values are double on every backend */
    o.threads = d->p.threads;
    void *state = NULL;
    char msg[512] = "";
    if ((st = b->init(&o, &state, msg, sizeof msg)) != TBRF_OK)
        return tbrfi_drv_fail(d, st, "driver: the %s backend: %s", b->name, msg);
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
    return tbrfi_drv_ok(d);
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

