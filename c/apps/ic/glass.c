/* glass.c — glass particle loads by damped repulsive gravity (tbrf.h,
 * "Making a glass"; doc/ic.md) and the shot-noise-normalised power
 * spectrum that measures them.
 *
 * The force is a particle-mesh one on a periodic M^3 mesh: the density
 * contrast deposited by cloud-in-cell, one in-place r2c transform, the
 * acceleration a_k = -i k delta_k / k^2 of repulsive gravity in units
 * where the laplacian of the potential is delta (so div a = delta: a step
 * x += eta a multiplies every linear density mode by 1 - eta), three c2r
 * transforms of its components, cloud-in-cell interpolation back to the
 * particles. The CIC window is left in the force: dividing it out (twice,
 * as Gadget's PM does for accurate forces) lifts the mesh-scale modes,
 * where aliasing dominates, to full strength, and the particles then keep
 * jittering there (the lowest shell's power stayed near 4e-3 of Poisson
 * for 16^3 on a 32^3 mesh, against 4e-5 without). The deposit runs in
 * particle order on one thread and every sum in a fixed order, so the
 * glass is the same bits for any thread count (the transforms are FFTW's,
 * planned alike: the FFT method relies on the same). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>
#include <omp.h>

#include "tbrf.h"
#include "apps/ic/ic_internal.h"
#include "core/cancel.h"
#include "core/parallel.h"
#include "methods/fft/fft.h"
#include "methods/turning_bands/lines.h"

static const double PI = 3.14159265358979323846;

/* The damping step (every linear mode halved a step), the most a particle
 * moves a step in mean spacings, and the stop: no new minimum of the
 * low-k power for this many steps. */
#define GLASS_ETA 0.5
#define GLASS_MAX_MOVE 0.25
#define GLASS_PATIENCE 16
/* The shells of the low-k power: |m| < GLASS_LOW_SHELLS + 1/2. */
#define GLASS_LOW_SHELLS 4

void tbrf_ic_default_glass(tbrf_ic_glass_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->per_axis = 16;
    p->steps = 200;
    p->seed = 1;
    p->box = 1.0;
}

/* The mesh a run uses (0: 2n), or -1 with the reason when a parameter is
 * out of range. */
static int64_t glass_check(const tbrf_ic_glass_params *p, char *msg, size_t size)
{
    const int64_t n = p->per_axis, m = p->mesh ? p->mesh : 4 * p->per_axis;
    if (!(n >= 2 && n <= 2048)) {
        tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "glass: per_axis = %lld must lie in 2 .. 2048",
                      (long long)n);
        return -1;
    }
    if (!(m >= n && m <= 8192 && m % 2 == 0)) {
        tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "glass: mesh = %lld must be even and lie in "
                      "per_axis (%lld) .. 8192 (0: 4 per_axis)", (long long)p->mesh, (long long)n);
        return -1;
    }
    if (!(p->steps >= 1 && p->steps <= 100000) || !(p->box > 0 && isfinite(p->box)) ||
        p->threads < 0 || p->threads > 1024) {
        tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "glass: steps = %d must lie in 1 .. 100000, "
                      "box = %g be finite and > 0, threads = %d in 0 .. 1024", (int)p->steps,
                      p->box, (int)p->threads);
        return -1;
    }
    return m;
}

/* Half-complex values of the M^3 cube: M^2 (M/2 + 1). */
static double cube_complex(int64_t m)
{
    return (double)m * (double)m * (double)(m / 2 + 1);
}

static double glass_bytes(int64_t n, int64_t m)
{
    const double n3 = (double)n * (double)n * (double)n;
    return 3.0 * 24.0 * n3 + 2.0 * 16.0 * cube_complex(m);
}

int tbrf_ic_glass_bytes(const tbrf_ic_glass_params *p, double *bytes)
{
    if (!p || !bytes)
        return TBRF_ERR_NULL;
    const int64_t m = glass_check(p, NULL, 0);
    if (m < 0)
        return TBRF_ERR_INVALID;
    *bytes = glass_bytes(p->per_axis, m);
    return TBRF_OK;
}

/* The mesh, its transforms and the arrays a run or a measurement shares. */
typedef struct pm_mesh {
    int64_t m, mh, mp; /* M, M/2 + 1 complex and 2 (M/2 + 1) padded real values a row */
    double box;
    int threads;
    fftw_complex *rho; /* the density contrast, then its modes (in place) */
    fftw_complex *acc; /* one acceleration component's modes, then its values */
    fftw_plan fwd, inv;
    double *w2inv;     /* 1 / sinc^4(pi m / M) of each signed m, M values */
} pm_mesh;

static void pm_free(pm_mesh *g)
{
    tbrfi_lines_fftw_lock();
    if (g->fwd)
        fftw_destroy_plan(g->fwd);
    if (g->inv)
        fftw_destroy_plan(g->inv);
    tbrfi_lines_fftw_unlock();
    fftw_free(g->rho);
    fftw_free(g->acc);
    free(g->w2inv);
    memset(g, 0, sizeof *g);
}

/* Allocates the mesh (with the acceleration array when force is set) and
 * plans its transforms. TBRF_OK, TBRF_ERR_NO_MEMORY or TBRF_ERR_FFT. */
static int pm_init(pm_mesh *g, int64_t m, double box, int threads, int force)
{
    memset(g, 0, sizeof *g);
    g->m = m;
    g->mh = m / 2 + 1;
    g->mp = 2 * g->mh;
    g->box = box;
    g->threads = tbrf_threads(threads);
    const size_t cells = (size_t)cube_complex(m);
    g->rho = fftw_alloc_complex(cells);
    g->acc = force ? fftw_alloc_complex(cells) : NULL;
    g->w2inv = malloc((size_t)m * sizeof *g->w2inv);
    if (!g->rho || (force && !g->acc) || !g->w2inv) {
        pm_free(g);
        return TBRF_ERR_NO_MEMORY;
    }
    for (int64_t i = 0; i < m; i++) {
        const int64_t s = i <= m / 2 ? i : i - m;
        const double x = PI * (double)s / (double)m;
        const double sinc = s == 0 ? 1.0 : sin(x) / x;
        g->w2inv[i] = 1.0 / (sinc * sinc * sinc * sinc);
    }
    g->fwd = tbrfi_fft_plan_cube(m, g->rho, 1, g->threads);
    g->inv = force ? tbrfi_fft_plan_cube(m, g->acc, 0, g->threads) : NULL;
    if (!g->fwd || (force && !g->inv)) {
        pm_free(g);
        return TBRF_ERR_FFT;
    }
    return TBRF_OK;
}

/* The cells c (lower) and c1 (upper, periodic) of point x along each axis
 * of the mesh and the upper cells' weights f (cells centred on i box / M,
 * so a particle on a cell centre puts all its mass there). */
static inline void cic_cells(const double *x, double scale, int64_t m, int64_t c[3],
                             int64_t c1[3], double f[3])
{
    for (int d = 0; d < 3; d++) {
        const double u = x[d] * scale, fl = floor(u);
        f[d] = u - fl;
        const int64_t i = (int64_t)fl;
        c[d] = i >= m ? i - m : (i < 0 ? i + m : i);
        c1[d] = c[d] + 1 == m ? 0 : c[d] + 1;
    }
}

/* The density contrast of the n points on the mesh (mean 0), into the
 * real view of rho; then its modes, normalised by M^3. The deposit runs
 * in particle order on one thread: the same sums for any thread count. */
static void pm_density(pm_mesh *g, int64_t n, const double *xyz)
{
    double *r = (double *)g->rho;
    const int64_t m = g->m, mp = g->mp;
    const double scale = (double)m / g->box;
    const double mass = (double)m * (double)m * (double)m / (double)n;
    memset(r, 0, sizeof(fftw_complex) * (size_t)cube_complex(m));
    for (int64_t p = 0; p < n; p++) {
        double f[3];
        int64_t c[3], c1[3];
        cic_cells(xyz + 3 * p, scale, m, c, c1, f);
        for (int dz = 0; dz < 2; dz++) {
            const double wz = mass * (dz ? f[2] : 1.0 - f[2]);
            const int64_t z = dz ? c1[2] : c[2];
            for (int dy = 0; dy < 2; dy++) {
                const double wyz = wz * (dy ? f[1] : 1.0 - f[1]);
                double *row = r + (z * m + (dy ? c1[1] : c[1])) * mp;
                row[c[0]] += wyz * (1.0 - f[0]);
                row[c1[0]] += wyz * f[0];
            }
        }
    }
    fftw_execute(g->fwd);
    /* delta = rho - 1: the mean is mode 0, dropped; the rest / M^3 */
    const double norm = 1.0 / ((double)m * (double)m * (double)m);
    const int64_t cells = (int64_t)cube_complex(m);
#pragma omp parallel for schedule(static) num_threads(g->threads)
    for (int64_t i = 0; i < cells; i++) {
        g->rho[i][0] *= norm;
        g->rho[i][1] *= norm;
    }
    g->rho[0][0] = g->rho[0][1] = 0.0;
}

/* The signed mode number of index i. */
static inline int64_t signed_mode(int64_t i, int64_t m)
{
    return i <= m / 2 ? i : i - m;
}

/* Shell sums of n |delta_k|^2 / W^2 over the modes of the mesh's modes
 * (in rho): shell b, |m| in [b + 1/2, b + 3/2), b < nbins; sums of |k|,
 * power and counts over the whole sphere, in z-plane order (one thread:
 * the same sums for any thread count). */
static void pm_shells(const pm_mesh *g, int64_t n, int nbins, double *ksum, double *psum,
                      double *count)
{
    const int64_t m = g->m, mh = g->mh;
    const double kf = 2.0 * PI / g->box;
    for (int b = 0; b < nbins; b++)
        ksum[b] = psum[b] = count[b] = 0.0;
    for (int64_t z = 0; z < m; z++) {
        const int64_t sz = signed_mode(z, m);
        for (int64_t y = 0; y < m; y++) {
            const int64_t sy = signed_mode(y, m);
            for (int64_t x = 0; x < mh; x++) {
                const double r2 = (double)(x * x + sy * sy + sz * sz);
                const int b = (int)floor(sqrt(r2) + 0.5) - 1;
                if (b < 0 || b >= nbins)
                    continue;
                const fftw_complex *c = g->rho + (z * m + y) * mh + x;
                const double pw = (double)n * ((*c)[0] * (*c)[0] + (*c)[1] * (*c)[1]) *
                                  g->w2inv[x] * g->w2inv[y] * g->w2inv[z];
                const double mult = (x == 0 || x == m / 2) ? 1.0 : 2.0;
                ksum[b] += mult * kf * sqrt(r2);
                psum[b] += mult * pw;
                count[b] += mult;
            }
        }
    }
}

/* The mean power over the lowest shells (|m| < GLASS_LOW_SHELLS + 1/2). */
static double pm_low_power(const pm_mesh *g, int64_t n)
{
    double ks[GLASS_LOW_SHELLS], ps[GLASS_LOW_SHELLS], cs[GLASS_LOW_SHELLS];
    int nb = GLASS_LOW_SHELLS < g->m / 2 - 1 ? GLASS_LOW_SHELLS : (int)(g->m / 2 - 1);
    pm_shells(g, n, nb, ks, ps, cs);
    double p = 0, c = 0;
    for (int b = 0; b < nb; b++) {
        p += ps[b];
        c += cs[b];
    }
    return c > 0 ? p / c : 0.0;
}

/* Component d of the repulsive acceleration a_k = -i k delta_k / (k^2 W^2)
 * from the density modes in rho, as values on the mesh in the real view
 * of acc (the Nyquist planes, whose derivative is not real, zero). */
static void pm_accel(pm_mesh *g, int d)
{
    const int64_t m = g->m, mh = g->mh;
    const double kf = 2.0 * PI / g->box;
#pragma omp parallel for schedule(static) num_threads(g->threads)
    for (int64_t z = 0; z < m; z++) {
        const int64_t sz = signed_mode(z, m);
        for (int64_t y = 0; y < m; y++) {
            const int64_t sy = signed_mode(y, m);
            for (int64_t x = 0; x < mh; x++) {
                const int64_t s[3] = {x, sy, sz};
                const int64_t i = (z * m + y) * mh + x;
                const double k2 = kf * kf * (double)(x * x + sy * sy + sz * sz);
                if (k2 == 0 || 2 * llabs(s[d]) == m) {
                    g->acc[i][0] = g->acc[i][1] = 0.0;
                    continue;
                }
                const double f = kf * (double)s[d] / k2;
                /* -i f (re + i im) = f im - i f re */
                g->acc[i][0] = f * g->rho[i][1];
                g->acc[i][1] = -f * g->rho[i][0];
            }
        }
    }
    fftw_execute(g->inv);
}

/* out[3p + d] = the CIC interpolation of the real view of acc at point p. */
static void pm_interp(const pm_mesh *g, int64_t n, const double *xyz, int d, double *out)
{
    const double *a = (const double *)g->acc;
    const int64_t m = g->m, mp = g->mp;
    const double scale = (double)m / g->box;
#pragma omp parallel for schedule(static) num_threads(g->threads)
    for (int64_t p = 0; p < n; p++) {
        double f[3];
        int64_t c[3], c1[3];
        cic_cells(xyz + 3 * p, scale, m, c, c1, f);
        double v = 0;
        for (int dz = 0; dz < 2; dz++) {
            const double wz = dz ? f[2] : 1.0 - f[2];
            for (int dy = 0; dy < 2; dy++) {
                const double wyz = wz * (dy ? f[1] : 1.0 - f[1]);
                const double *row = a + ((dz ? c1[2] : c[2]) * m + (dy ? c1[1] : c[1])) * mp;
                v += wyz * ((1.0 - f[0]) * row[c[0]] + f[0] * row[c1[0]]);
            }
        }
        out[3 * p + d] = v;
    }
}

/* x folded into [0, box) after a move of less than a box. */
static inline double wrap(double x, double box)
{
    if (x >= box)
        x -= box;
    else if (x < 0) {
        x += box;
        if (x >= box) /* -tiny + box rounds to box */
            x = 0.0;
    }
    return x;
}

/* One damped step: displacements eta a (each cut to GLASS_MAX_MOVE mean
 * spacings), the rms displacement over n into *rms (in spacings). The
 * density modes must be in rho. */
static void glass_step(pm_mesh *g, int64_t n, double spacing, double *xyz, double *dx,
                       double *rms)
{
    for (int d = 0; d < 3; d++) {
        pm_accel(g, d);
        pm_interp(g, n, xyz, d, dx);
    }
    const double cap = GLASS_MAX_MOVE * spacing, box = g->box;
#pragma omp parallel for schedule(static) num_threads(g->threads)
    for (int64_t p = 0; p < n; p++) {
        double *v = dx + 3 * p;
        double l2 = 0;
        for (int d = 0; d < 3; d++) {
            v[d] *= GLASS_ETA;
            l2 += v[d] * v[d];
        }
        const double s = l2 > cap * cap ? cap / sqrt(l2) : 1.0;
        for (int d = 0; d < 3; d++) {
            v[d] *= s;
            xyz[3 * p + d] = wrap(xyz[3 * p + d] + v[d], box);
        }
    }
    /* the sum in particle order: the same for any thread count */
    double s2 = 0;
    for (int64_t i = 0; i < 3 * n; i++)
        s2 += dx[i] * dx[i];
    *rms = sqrt(s2 / (double)n) / spacing;
}

int tbrf_ic_glass_make(const tbrf_ic_glass_params *p, double *xyz, tbrf_ic_glass_info *info,
                       tbrf_cancel_fn cancel, void *user, char *msg, size_t size)
{
    if (info)
        memset(info, 0, sizeof *info);
    if (!p || !xyz)
        return tbrfi_ic_fail(msg, size, TBRF_ERR_NULL, "glass: params or xyz is NULL");
    const int64_t m = glass_check(p, msg, size);
    if (m < 0)
        return TBRF_ERR_INVALID;
    const int64_t g1 = p->per_axis, n = g1 * g1 * g1;
    int st = tbrfi_ic_budget(glass_bytes(g1, m), "glass: the particles and the force mesh", msg,
                             size);
    if (st)
        return st;
    tbrf_ic_points_params pp;
    tbrf_ic_default_points(&pp);
    pp.kind = TBRF_IC_RANDOM;
    pp.n = n;
    pp.box = p->box;
    pp.seed = p->seed;
    st = tbrf_ic_points(&pp, 0, n, xyz, msg, size);
    if (st)
        return st;
    double *dx = malloc(sizeof *dx * 3 * (size_t)n);
    double *best = malloc(sizeof *best * 3 * (size_t)n);
    pm_mesh g;
    st = dx && best ? pm_init(&g, m, p->box, p->threads, 1) : TBRF_ERR_NO_MEMORY;
    if (st) {
        free(dx);
        free(best);
        return tbrfi_ic_fail(msg, size, st, "glass: %s for the %lld^3 mesh",
                             st == TBRF_ERR_FFT ? "FFTW cannot plan the transforms"
                                                : "out of memory",
                             (long long)m);
    }
    const tbrfi_cancel hook = {cancel, user};
    const double spacing = p->box / (double)g1;
    pm_density(&g, n, xyz);
    double low = pm_low_power(&g, n), best_low = low, rms = 0;
    memcpy(best, xyz, sizeof *best * 3 * (size_t)n);
    tbrf_ic_glass_info out = {0};
    out.power_start = low;
    for (int s = 1; s <= p->steps; s++) {
        if (tbrfi_cancelled(&hook)) {
            st = tbrfi_ic_fail(msg, size, TBRF_ERR_CANCELLED, "glass: cancelled at step %d of %d",
                               s, (int)p->steps);
            break;
        }
        glass_step(&g, n, spacing, xyz, dx, &rms);
        pm_density(&g, n, xyz);
        low = pm_low_power(&g, n);
        out.steps = s;
        if (low < best_low) {
            best_low = low;
            out.best_step = s;
            memcpy(best, xyz, sizeof *best * 3 * (size_t)n);
        } else if (s - out.best_step >= GLASS_PATIENCE) {
            out.converged = 1;
            break;
        }
    }
    if (st == TBRF_OK) {
        memcpy(xyz, best, sizeof *best * 3 * (size_t)n);
        out.power_low = best_low;
        out.rms_step = rms;
        if (info)
            *info = out;
        tbrfi_ic_ok(msg, size);
    }
    pm_free(&g);
    free(dx);
    free(best);
    return st;
}

int tbrf_ic_glass_power(int64_t n, const double *xyz, double box, int64_t mesh, int32_t threads,
                        int32_t nbins, double *k, double *pk, double *modes, char *msg,
                        size_t size)
{
    if (!xyz || !k || !pk || !modes)
        return tbrfi_ic_fail(msg, size, TBRF_ERR_NULL, "glass power: xyz, k, p or modes is NULL");
    if (!(n >= 1) || !(box > 0 && isfinite(box)) || !(mesh >= 4 && mesh <= 4096 && mesh % 2 == 0) ||
        !(nbins >= 1 && nbins <= mesh / 2 - 1) || threads < 0 || threads > 1024)
        return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "glass power: need n >= 1 (%lld), box "
                             "finite and > 0 (%g), mesh even in 4 .. 4096 (%lld), nbins in 1 .. "
                             "mesh/2 - 1 (%d), threads in 0 .. 1024 (%d)", (long long)n, box,
                             (long long)mesh, (int)nbins, (int)threads);
    for (int64_t i = 0; i < 3 * n; i++)
        if (!(xyz[i] >= 0 && xyz[i] < box))
            return tbrfi_ic_fail(msg, size, TBRF_ERR_INVALID, "glass power: point %lld's "
                                 "coordinate %d, %g, is outside [0, %g)", (long long)(i / 3),
                                 (int)(i % 3), xyz[i], box);
    int st = tbrfi_ic_budget(16.0 * cube_complex(mesh), "glass power: the mesh", msg, size);
    if (st)
        return st;
    pm_mesh g;
    st = pm_init(&g, mesh, box, threads, 0);
    if (st)
        return tbrfi_ic_fail(msg, size, st, "glass power: %s for the %lld^3 mesh",
                             st == TBRF_ERR_FFT ? "FFTW cannot plan the transform"
                                                : "out of memory",
                             (long long)mesh);
    pm_density(&g, n, xyz);
    pm_shells(&g, n, nbins, k, pk, modes);
    for (int b = 0; b < nbins; b++) {
        k[b] = modes[b] > 0 ? k[b] / modes[b] : 2.0 * PI * (double)(b + 1) / box;
        pk[b] = modes[b] > 0 ? pk[b] / modes[b] : 0.0;
    }
    pm_free(&g);
    tbrfi_ic_ok(msg, size);
    return TBRF_OK;
}
