/* driver_modes.c — a periodic box's Fourier modes (doc/driving.md, "The
 * field", "Wide bands", "Evaluation"): enumerating the band's modes and
 * their variances (with the sparse directions), the choice between the
 * direct sum and the NUFFT, the NUFFT's fine grids, and the grid summed
 * axis by axis. */
#define _POSIX_C_SOURCE 200809L
#include "apps/driving/driver_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/parallel.h"
#include "tbrf/rng/philox.h"

static const double PI = 3.14159265358979323846;

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
int tbrfi_drv_unit_factors(const tbrf_driver *d)
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
double tbrfi_drv_unit_share(const tbrf_driver *d, const double *u)
{
    const double z = d->p.zeta, zs = z * z, zc = (1.0 - z) * (1.0 - z);
    if (tbrfi_drv_unit_factors(d))
        return zs * (double)(d->dim - 1) + zc;
    double w = 0.0;
    for (int c = 0; c < d->dim; c++) {
        const double g = d->p.amplitude_factor[c];
        w += g * g * (zs * (1.0 - u[c] * u[c]) + zc * u[c] * u[c]);
    }
    return w;
}

/* FNV-1a over bytes, for the hash of the modes. */
uint64_t tbrfi_drv_fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

int tbrfi_drv_setup_modes(tbrf_driver *d, const tbrf_model *model)
{
    double kmin, kmax;
    if (!tbrfi_drv_support(model, &d->kmin, &d->kmax))
        return tbrfi_drv_fail(d, TBRF_ERR_UNSUPPORTED,
                    "driver: the model's spectrum (%s) has no upper bound: cut it with "
                    "tbrf_model_set_band", tbrf_model_describe(model));
    kmin = d->kmin;
    kmax = d->kmax;
    for (int c = 0; c < 3; c++) {
        const double mm = c < d->pdim ? floor(kmax * d->p.length[c] / (2.0 * PI)) : 0.0;
        if (!(mm <= TBRF_DRIVE_MMAX))
            return tbrfi_drv_fail(d, TBRF_ERR_SIZE,
                        "driver: kmax=%g reaches |m| = %.4g along axis %d, above %d (kmax L / 2 pi "
                        "must stay <= %d)", kmax, mm, c, TBRF_DRIVE_MMAX, TBRF_DRIVE_MMAX);
        d->mmax[c] = (int)mm;
    }
    if (d->p.directions > 0) {
        /* |m| <= 511 sqrt 3 on any axis: shells up to kmax length[0] / 2 pi + 1 */
        d->nshell = (int)floor(kmax * d->p.length[0] / (2.0 * PI)) + 2;
        if (!(d->shell_n = calloc((size_t)d->nshell, sizeof(int64_t))))
            return tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for %d shells", d->nshell);
        enumerate(d, model, 2);
    }
    const int64_t n = enumerate(d, model, 0);
    if (n > TBRF_DRIVE_MAX_MODES)
        return tbrfi_drv_fail(d, TBRF_ERR_SIZE, "driver: more than %lld modes in [%g, %g] (at most 2^20)",
                    (long long)TBRF_DRIVE_MAX_MODES, kmin, kmax);
    if (n == 0)
        return tbrfi_drv_fail(d, TBRF_ERR_SIZE,
                    "driver: no mode of the box (k = 2 pi m / length, m != 0) has P(k) > 0 in "
                    "[%g, %g]: the band is narrower than the box's fundamental 2 pi / length",
                    kmin, kmax);
    const int nc = 2 * d->dim;
    d->nm = n;
    /* m, s, khat, then a, a1, coef and cj */
    int st = tbrfi_drv_reserve(d, (double)n * (12.0 + 8.0 + 24.0 + 4.0 * 8.0 * nc), "the modes' arrays", "");
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
        return tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for %lld modes", (long long)n);
    enumerate(d, model, 1);
    free(d->shell_n);
    d->shell_n = NULL;
    /* ensemble: E|f|^2 = sum 2 A^2 s^2 share(khat) (unit_share; a constant
     * with the default factors) */
    const int unit = tbrfi_drv_unit_factors(d);
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++)
        sum += d->s[i] * d->s[i] * (unit ? 1.0 : tbrfi_drv_unit_share(d, d->khat + 3 * i));
    const double proj = unit ? tbrfi_drv_unit_share(d, d->khat) : 1.0;
    d->amp = d->rms_ensemble / sqrt(2.0 * proj * sum);
    uint64_t h = 0xcbf29ce484222325ULL;
    h = tbrfi_drv_fnv(h, &n, sizeof n);
    h = tbrfi_drv_fnv(h, d->m, sizeof(int32_t) * 3 * (size_t)n);
    d->modes_hash = tbrfi_drv_fnv(h, d->s, sizeof(double) * (size_t)n);
    return TBRF_OK;
}

/* The direct sum costs about one unit per mode and point, the NUFFT
 * about ncomp w^dim / 6 (an interpolation weight is one multiply-add
 * where a mode is two complex products and 2 dim multiply-adds). AUTO
 * leaves room for the smallest OU tree cache (setup_tree, made next). */
int tbrfi_drv_setup_eval(tbrf_driver *d)
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
        if (tbrfi_drv_reserve(d, bytes, "the NUFFT's fine grids",
                    ": use TBRF_DRIVE_DIRECT or a narrower band") != TBRF_OK)
            return TBRF_ERR_SIZE;
        for (int c = 0; c < d->dim; c++)
            if (!(d->fine[c] = tbrfi_nufft_fine_alloc(&d->ns)))
                return tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for the NUFFT fine grids");
        d->C = fftw_malloc(sizeof(fftw_complex) * (size_t)((n[0] / 2 + 1) * n[1] * n[2]));
        if (!d->C)
            return tbrfi_drv_fail(d, TBRF_ERR_NO_MEMORY, "driver: no memory for the NUFFT modes");
    }
    d->eval = d->eval_cpu = eval;
    return TBRF_OK;
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
drive_sum tbrfi_drv_sum_of(const tbrf_driver *d)
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
int tbrfi_drv_be_fail(tbrf_driver *d, int st, const char *what)
{
    const char *m = d->be->message(d->be_state);
    return tbrfi_drv_fail(d, st, "driver: %s on the %s backend failed (%s)%s%s", what, d->be->name,
                tbrf_strerror(st), m && m[0] ? ": " : "", m && m[0] ? m : "");
}

/* The NUFFT's fine grids of the current coefficients. */
int tbrfi_drv_ensure_fine(tbrf_driver *d)
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
            return tbrfi_drv_fail(d, st, "driver: the NUFFT's transform failed (%s)", tbrf_strerror(st));
    }
    d->fine_valid = 1;
    return TBRF_OK;
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
/* Planes k0 .. k1 - 1 of tbrfi_drv_grid_separable (its tables ready, or
 * not: then nothing is written); 1 when a thread had no memory. */
static int separable_planes(const tbrf_driver *d, const double *D, const double *ex, const double *ey,
                            const double *ez, const int64_t n[3], int64_t cs, int64_t ps, int ready,
                            int64_t k0, int64_t k1, double *out)
{
    const int dim = d->dim, Mx = d->mmax[0], My = d->mmax[1], Mz = dim == 3 ? d->mmax[2] : 0;
    const int Wy = 2 * My + 1, Wz = 2 * Mz + 1;
    const int64_t nx = n[0], ny = n[1], nz = dim == 3 ? n[2] : 1;
    int nomem = 0;
#pragma omp parallel num_threads(tbrf_threads(d->p.threads)) reduction(| : nomem) if (nz * ny * nx >= 4096)
    {
        double *G = ready ? malloc(sizeof(double) * 2 * (size_t)((Mx + 1) * Wy * dim)) : NULL;
        double *H = ready ? malloc(sizeof(double) * 2 * (size_t)((Mx + 1) * dim)) : NULL;
        nomem |= !G || !H;
#pragma omp for schedule(static)
        for (int64_t k = k0; k < k1; k++) {
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
    return nomem;
}

int tbrfi_drv_grid_separable(tbrf_driver *d, const double origin[3], const double spacing[3],
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
    if (tbrfi_drv_fits(d, tables, "the grid's tables") != TBRF_OK)
        return -2;
    double *D = calloc((size_t)(dense * dim * 2), sizeof(double));
    double *ex = malloc(sizeof(double) * 2 * (size_t)(nx * (Mx + 1)));
    double *ey = malloc(sizeof(double) * 2 * (size_t)(ny * (My + 1)));
    double *ez = malloc(sizeof(double) * 2 * (size_t)(nz * (Mz + 1)));
    int nomem = !D || !ex || !ey || !ez;
    if (!nomem)
        separable_tables(d, origin, spacing, n, D, ex, ey, ez);
    const int ready = !nomem;
    /* blocks of planes between two polls of the hook (one block without
     * one); each plane is its own, so the blocks give its bits */
    const double plane = (double)(ny * (Mx + 1) * dim) * (double)(Wy + nx) + (double)dense * dim;
    const int64_t block = tbrfi_cancel_block(&d->cancel, plane, nz);
    int cancelled = 0;
    for (int64_t k0 = 0; k0 < nz && !nomem && !cancelled; k0 += block) {
        const int64_t k1 = nz - k0 < block ? nz : k0 + block;
        nomem |= separable_planes(d, D, ex, ey, ez, n, cs, ps, ready, k0, k1, out);
        if (k1 < nz && tbrfi_cancelled(&d->cancel))
            cancelled = tbrfi_drv_fail(d, TBRF_ERR_CANCELLED, "driver: cancelled by the caller's hook "
                                       "after %lld of %lld planes of the grid", (long long)k1, (long long)nz);
    }
    free(D);
    free(ex);
    free(ey);
    free(ez);
    return cancelled ? -3 : nomem ? -1 : 1;
}

