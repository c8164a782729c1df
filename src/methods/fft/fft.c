/* fft_method.c — periodic fields on regular grids by one inverse real FFT
 * of random Fourier modes (see fft_method.h for the mathematics).
 *
 * The half-complex array (n_z x n_y x (n_x/2+1) complex values) is filled
 * in parallel, each mode from its own Philox counter, transformed in place
 * by a threaded FFTW c2r plan and copied row by row into the caller's
 * array. FFTW's planner is called under the library's FFTW lock. */
#include "methods/fft/fft.h"

#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "methods/turning_bands/lines.h"
#include "core/parallel.h"
#include "tbrf/rng/philox.h"

static const double PI = 3.14159265358979323846;

/* m_d is packed in 21 bits per axis (offset by 2^20). */
#define FFT_MAX_HALF ((int64_t)1 << 20)
/* Philox word1 flag of the FFT modes' stream: the lines use word1 < 2^24
 * (line index) and 0xFFFFFFFF (rotation); FFT words1 are 0x80000000 | x
 * with x < 2^31 - 1, so the streams never share a counter. */
#define FFT_STREAM_BIT 0x80000000u

static int64_t idx_to_m(int64_t i, int64_t n)
{
    return i <= n / 2 ? i : i - n;
}

static int is_nyquist(int64_t m, int64_t n)
{
    return n % 2 == 0 && (m == n / 2 || m == -n / 2);
}

double tbrfi_fft_method_bytes(int dim, const grid_geom *g)
{
    (void)dim;
    return 16.0 * (double)(g->n[0] / 2 + 1) * (double)g->n[1] * (double)g->n[2];
}

int tbrfi_fft_method_fits(int dim, const grid_geom *g, double max_bytes)
{
    for (int d = 0; d < dim; d++)
        if (g->n[d] < 1 || g->n[d] / 2 >= FFT_MAX_HALF || g->n[d] > INT32_MAX / 2)
            return 0;
    return tbrfi_fft_method_bytes(dim, g) <= max_bytes;
}

/* u in (-1, 1), symmetric, never 0 or +-1: ((x + 0.5) 2^-31) - 1 */
static double s11_open(uint32_t x)
{
    return ((double)x + 0.5) * (1.0 / 2147483648.0) - 1.0;
}

/* The standard complex normal (E|a|^2 = 1) of mode m, the canonical member
 * of its ±m pair: Marsaglia's polar method on the word pairs (0,1), then
 * (2,3) of the mode's Philox block (one log, one square root and no
 * trigonometry: half the cost of Box–Muller); in the 4.6% of modes where
 * both pairs fall outside the unit disc, Box–Muller on a fresh block: the
 * rejected words are not uniform any more, and reusing them would bias
 * |a|^2 by 2%. The fresh block is the counter of the pair's other member
 * -m under the same seed. Only canonical members (first non-zero of
 * (m_x, m_y, m_z) positive; never 0, never a Nyquist index) are drawn
 * from, so -m's counter is drawn by no mode: the fallback shares no
 * counter with any mode of this or any other (seed, realization). (Until
 * 0.1.0 it was the same counter under seed XOR 0x9E3779B97F4A7C15, which
 * is the partner seed's own draw: fields of the two seeds were
 * correlated.) */
static void mode_normal(uint64_t seed, uint64_t r, int64_t mx, int64_t my, int64_t mz, double *re,
                        double *im)
{
    const uint64_t K = (uint64_t)(mx + FFT_MAX_HALF) | ((uint64_t)(my + FFT_MAX_HALF) << 21) |
                       ((uint64_t)(mz + FFT_MAX_HALF) << 42);
    philox4x32_ctr_t w = tbrf_philox(seed, r, (uint32_t)K, FFT_STREAM_BIT | (uint32_t)(K >> 32));
    for (int k = 0; k < 4; k += 2) {
        const double u = s11_open(w.v[k]), v = s11_open(w.v[k + 1]);
        const double q = u * u + v * v;
        if (q < 1.0) {
            /* sqrt(-2 ln q / q) gives unit-variance parts; halve for E|a|^2 = 1 */
            const double f = sqrt(-log(q) / q);
            *re = u * f;
            *im = v * f;
            return;
        }
    }
    const uint64_t Kc = (uint64_t)(-mx + FFT_MAX_HALF) | ((uint64_t)(-my + FFT_MAX_HALF) << 21) |
                        ((uint64_t)(-mz + FFT_MAX_HALF) << 42);
    w = tbrf_philox(seed, r, (uint32_t)Kc, FFT_STREAM_BIT | (uint32_t)(Kc >> 32));
    double g0, g1;
    tbrf_box_muller(w.v[0], w.v[1], &g0, &g1);
    *re = g0 * 0.70710678118654752440;
    *im = g1 * 0.70710678118654752440;
}

/* Spectrum evaluator: P(|k|) / V for integer wavevector m. For a box with
 * equal side lengths, |k| depends only on |m|^2, and P is tabulated at the
 * integers |m|^2 (exactly the values direct evaluation gives). */
typedef struct spec_eval {
    const tbrf_model *model;
    int dim;
    double twopi_over_L[3];
    double inv_volume;
    double *table; /* P/V (or its square root, if root) at |m|^2 = s, or NULL */
    int64_t smax;
    int root;
} spec_eval;

static int spec_init(spec_eval *e, const tbrf_model *model, int dim, const grid_geom *g, int threads,
                     int root)
{
    memset(e, 0, sizeof *e);
    e->root = root;
    e->model = model;
    e->dim = dim;
    double V = 1.0;
    int equal = 1;
    const double L0 = (double)g->n[0] * g->spacing[0];
    for (int d = 0; d < 3; d++) {
        const double L = d < dim ? (double)g->n[d] * g->spacing[d] : 1.0;
        e->twopi_over_L[d] = 2.0 * PI / L;
        if (d < dim) {
            V *= L;
            equal &= L == L0;
        }
    }
    e->inv_volume = 1.0 / V;
    if (!equal)
        return TBRF_OK;
    int64_t smax = 0;
    for (int d = 0; d < dim; d++)
        smax += (g->n[d] / 2) * (g->n[d] / 2);
    e->table = malloc(sizeof(double) * (size_t)(smax + 1));
    if (!e->table)
        return TBRF_OK; /* direct evaluation instead */
    e->smax = smax;
    double *t = e->table;
    const double k1 = e->twopi_over_L[0], iv = e->inv_volume;
#pragma omp parallel for schedule(static) num_threads(tbrf_threads(threads))
    for (int64_t s = 0; s <= smax; s++) {
        t[s] = tbrf_model_spectrum(model, dim, k1 * sqrt((double)s)) * iv;
        if (root)
            t[s] = sqrt(t[s]);
    }
    return TBRF_OK;
}

static double spec_value(const spec_eval *e, int64_t mx, int64_t my, int64_t mz)
{
    if (e->table)
        return e->table[mx * mx + my * my + mz * mz];
    const double kx = e->twopi_over_L[0] * (double)mx, ky = e->twopi_over_L[1] * (double)my,
                 kz = e->twopi_over_L[2] * (double)mz;
    const double v = tbrf_model_spectrum(e->model, e->dim, sqrt(kx * kx + ky * ky + kz * kz)) * e->inv_volume;
    return e->root ? sqrt(v) : v;
}

double tbrfi_fft_method_variance(const tbrf_model *model, int dim, const grid_geom *g)
{
    spec_eval e;
    spec_init(&e, model, dim, g, 0, 0);
    const int64_t nx = g->n[0], ny = g->n[1], nz = dim == 3 ? g->n[2] : 1;
    double *planes = malloc(sizeof(double) * (size_t)nz);
    if (!planes) {
        free(e.table);
        return NAN;
    }
    /* per-plane sums in parallel, added in plane order: the same bits for
     * any thread count */
#pragma omp parallel for schedule(static)
    for (int64_t iz = 0; iz < nz; iz++) {
        const int64_t mz = dim == 3 ? idx_to_m(iz, nz) : 0;
        planes[iz] = 0.0;
        if (dim == 3 && is_nyquist(mz, nz))
            continue;
        double plane = 0.0;
        for (int64_t iy = 0; iy < ny; iy++) {
            const int64_t my = idx_to_m(iy, ny);
            if (is_nyquist(my, ny))
                continue;
            for (int64_t ix = 0; ix < nx; ix++) {
                const int64_t mx = idx_to_m(ix, nx);
                if (is_nyquist(mx, nx) || (mx == 0 && my == 0 && mz == 0))
                    continue;
                plane += spec_value(&e, mx < 0 ? -mx : mx, my, mz);
            }
        }
        planes[iz] = plane;
    }
    double total = 0.0;
    for (int64_t iz = 0; iz < nz; iz++)
        total += planes[iz];
    free(planes);
    free(e.table);
    return total;
}

/* Projection of one mode's complex Gaussian dim-vector g (E|g_c|^2 = 1)
 * by zeta P_perp + (1 - zeta) P_par at wavevector k, component c, scaled so
 * that the components' powers add up to dim: E|v|^2 = zeta^2 (dim - 1) +
 * (1 - zeta)^2 before scaling, since P_perp and P_par are orthogonal
 * projectors of traces dim - 1 and 1 (doc/method.md, "Vector fields"). */
static void project_mode(int dim, const double k[3], const double g[3][2], double zeta, int c,
                         double *re, double *im)
{
    double kk = 0.0;
    for (int d = 0; d < dim; d++)
        kk += k[d] * k[d];
    double dr = 0.0, di = 0.0; /* khat . g */
    const double inv = 1.0 / sqrt(kk);
    for (int d = 0; d < dim; d++) {
        dr += k[d] * inv * g[d][0];
        di += k[d] * inv * g[d][1];
    }
    const double kc = k[c] * inv;
    const double scale = sqrt((double)dim / (zeta * zeta * (double)(dim - 1) + (1.0 - zeta) * (1.0 - zeta)));
    *re = scale * (zeta * (g[c][0] - kc * dr) + (1.0 - zeta) * kc * dr);
    *im = scale * (zeta * (g[c][1] - kc * di) + (1.0 - zeta) * kc * di);
}

int tbrfi_fft_method_modes(const tbrf_model *model, int dim, const grid_geom *g, uint64_t seed,
                           uint64_t realization, int threads, double zeta, int comp, fftw_complex *C)
{
    const int64_t nx = g->n[0], ny = g->n[1], nz = dim == 3 ? g->n[2] : 1;
    const int64_t nh = nx / 2 + 1;
    const int nthreads = tbrf_threads(threads);
    /* per-axis phases e^{i k_d o_d}: the field is a function of absolute
     * position over the periodic box, not of the cell index */
    double *ph = malloc(sizeof(double) * 2 * (size_t)(nh + ny + nz));
    spec_eval e;
    if (!ph || spec_init(&e, model, dim, g, threads, 1)) {
        free(ph);
        return TBRF_ERR_NO_MEMORY;
    }
    double *phx = ph, *phy = ph + 2 * nh, *phz = ph + 2 * (nh + ny);
    for (int64_t i = 0; i < nh; i++) {
        const double a = e.twopi_over_L[0] * (double)i * g->origin[0];
        phx[2 * i] = cos(a);
        phx[2 * i + 1] = sin(a);
    }
    for (int64_t i = 0; i < ny; i++) {
        const double a = e.twopi_over_L[1] * (double)idx_to_m(i, ny) * g->origin[1];
        phy[2 * i] = cos(a);
        phy[2 * i + 1] = sin(a);
    }
    for (int64_t i = 0; i < nz; i++) {
        const double a = dim == 3 ? e.twopi_over_L[2] * (double)idx_to_m(i, nz) * g->origin[2] : 0.0;
        phz[2 * i] = cos(a);
        phz[2 * i + 1] = sin(a);
    }

#pragma omp parallel for schedule(static) num_threads(nthreads)
    for (int64_t row = 0; row < nz * ny; row++) {
        const int64_t iz = row / ny, iy = row % ny;
        const int64_t mz = dim == 3 ? idx_to_m(iz, nz) : 0, my = idx_to_m(iy, ny);
        fftw_complex *c = C + row * nh;
        const int row_zero = (dim == 3 && is_nyquist(mz, nz)) || is_nyquist(my, ny);
        /* phase of the y and z parts, for +m and for -m (conjugate) */
        const double pyz_re = phy[2 * iy] * phz[2 * iz] - phy[2 * iy + 1] * phz[2 * iz + 1];
        const double pyz_im = phy[2 * iy] * phz[2 * iz + 1] + phy[2 * iy + 1] * phz[2 * iz];
        for (int64_t ix = 0; ix < nh; ix++) {
            const int64_t mx = ix;
            if (row_zero || is_nyquist(mx, nx) || (mx == 0 && my == 0 && mz == 0)) {
                c[ix][0] = c[ix][1] = 0.0;
                continue;
            }
            /* canonical member of the pair: first non-zero of (mx, my, mz) > 0 */
            const int canonical = mx > 0 || my > 0 || (my == 0 && mz > 0);
            const int64_t sg = canonical ? 1 : -1;
            double re, im;
            if (comp < 0) {
                mode_normal(seed, realization, sg * mx, sg * my, sg * mz, &re, &im);
            } else {
                /* component d draws the counters of realization r + (d+1) 2^62
                 * (r < 2^62 is checked by the plan): no two components share
                 * a number */
                double gv[3][2];
                for (int d = 0; d < dim; d++)
                    mode_normal(seed, realization | ((uint64_t)(d + 1) << 62), sg * mx, sg * my,
                                sg * mz, &gv[d][0], &gv[d][1]);
                const double k[3] = {e.twopi_over_L[0] * (double)(sg * mx),
                                     e.twopi_over_L[1] * (double)(sg * my),
                                     e.twopi_over_L[2] * (double)(sg * mz)};
                project_mode(dim, k, gv, zeta, comp, &re, &im);
            }
            if (!canonical) /* a_-m = conj(a_m), projection included (P is even in k) */
                im = -im;
            const double amp = spec_value(&e, mx, my, mz);
            /* times e^{i k.o} = phx * pyz */
            const double p_re = phx[2 * ix] * pyz_re - phx[2 * ix + 1] * pyz_im;
            const double p_im = phx[2 * ix] * pyz_im + phx[2 * ix + 1] * pyz_re;
            c[ix][0] = amp * (re * p_re - im * p_im);
            c[ix][1] = amp * (re * p_im + im * p_re);
        }
    }
    free(ph);
    free(e.table);
    return TBRF_OK;
}

int tbrfi_fft_method_generate(const tbrf_model *model, int dim, const grid_geom *g, uint64_t seed,
                        uint64_t realization, int threads, int precision, int vector, double zeta,
                        void *out)
{
    const int64_t nx = g->n[0], ny = g->n[1], nz = dim == 3 ? g->n[2] : 1;
    const int64_t nh = nx / 2 + 1;
    const int nthreads = tbrf_threads(threads);
    const int ncomp = vector ? dim : 1;
    fftw_complex *C = fftw_malloc(sizeof(fftw_complex) * (size_t)(nh * ny * nz));
    if (!C)
        return TBRF_ERR_NO_MEMORY;

    tbrfi_lines_fftw_lock();
    static int threads_ready = 0; /* FFTW's own one-time setup, under the lock */
    if (!threads_ready)
        threads_ready = fftw_init_threads();
    fftw_plan_with_nthreads(threads_ready ? nthreads : 1);
    /* scalar double output: out of place, straight into the caller's array;
     * float or vector: in place, then rounded or interleaved row by row */
    const int direct = precision == TBRF_DOUBLE && ncomp == 1;
    double *R = direct ? (double *)out : (double *)C;
    fftw_plan plan = dim == 3 ? fftw_plan_dft_c2r_3d((int)nz, (int)ny, (int)nx, C, R, FFTW_ESTIMATE)
                              : fftw_plan_dft_c2r_2d((int)ny, (int)nx, C, R, FFTW_ESTIMATE);
    fftw_plan_with_nthreads(1);
    tbrfi_lines_fftw_unlock();
    if (!plan) {
        fftw_free(C);
        return TBRF_ERR_FFT;
    }
    int st = TBRF_OK;
    for (int c = 0; c < ncomp && !st; c++) {
        st = tbrfi_fft_method_modes(model, dim, g, seed, realization, threads, zeta, vector ? c : -1, C);
        if (st)
            break;
        fftw_execute(plan);
        if (direct)
            break;
#pragma omp parallel for schedule(static) num_threads(nthreads)
        for (int64_t row = 0; row < nz * ny; row++) {
            const double *src = R + row * 2 * nh;
            if (precision == TBRF_FLOAT) {
                float *dst = (float *)out + row * nx * ncomp + c;
                for (int64_t i = 0; i < nx; i++)
                    dst[i * ncomp] = (float)src[i];
            } else {
                double *dst = (double *)out + row * nx * ncomp + c;
                for (int64_t i = 0; i < nx; i++)
                    dst[i * ncomp] = src[i];
            }
        }
    }
    tbrfi_lines_fft_destroy(plan);
    fftw_free(C);
    return st;
}
