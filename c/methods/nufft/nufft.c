/* nufft.c — the type-2 non-uniform FFT of periodic fields (nufft.h). */
#include "methods/nufft/nufft.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpu_isa.h"
#include "core/parallel.h"
#include "methods/turning_bands/lines.h"
#include "tbrf.h"

static const double PI = 3.14159265358979323846;

#if defined(__GNUC__) || defined(__clang__)
#define NU_PREFETCH(p, write) __builtin_prefetch((p), (write), 0)
#else
#define NU_PREFETCH(p, write) ((void)(p))
#endif

/* FINUFFT's rules for sigma = 2: w = ceil(log10(10/eps)) (at least 2, at
 * most 16), beta = c_w w with c_w = 2.20, 2.26, 2.38 for w = 2, 3, 4 and
 * 2.30 beyond. */
static int width_for(double eps, double *beta)
{
    int w = (int)ceil(-log10(eps / 10.0));
    if (w < 2)
        w = 2;
    if (w > 16)
        w = 16;
    double c = w == 2 ? 2.20 : w == 3 ? 2.26 : w == 4 ? 2.38 : 2.30;
    *beta = c * (double)w;
    return w;
}

/* The smallest even number >= m whose prime factors are 2, 3 and 5: FFTW
 * is fastest on those. */
static int64_t next235even(int64_t m)
{
    if (m <= 2)
        return 2;
    if (m % 2)
        m++;
    for (;; m += 2) {
        int64_t r = m;
        while (r % 2 == 0) r /= 2;
        while (r % 3 == 0) r /= 3;
        while (r % 5 == 0) r /= 5;
        if (r == 1)
            return m;
    }
}

double tbrfi_nufft_kernel(const nufft_setup *s, double z)
{
    const double q = 1.0 - z * z;
    return q > 0.0 ? exp(s->beta * (sqrt(q) - 1.0)) : 0.0;
}

/* The kernel's polynomial pieces (nufft.h, horner): piece j interpolates
 * phi at the deg + 1 Chebyshev points of its unit interval; the Chebyshev
 * series is turned into monomials in long double (the T_m have integer
 * coefficients, exact there) so that the cancellation between the terms
 * costs no digits the double coefficients keep. A fixed computation from
 * w and beta: every plan of the same accuracy has the same coefficients.
 * Degree w + 3: the error of each piece is then at its floor, set by the
 * square-root edge of the kernel's support (about 0.15 10^(1-w), some
 * 1.5 e^-beta: a sixth of the method's own error, which it left unchanged
 * in test_periodic). */
static void fit_pieces(nufft_setup *s)
{
    const int w = s->w, D = w + 3;
    s->deg = D;
    long double T[NUFFT_DEG_MAX + 1][NUFFT_DEG_MAX + 1] = {{0}};
    T[0][0] = 1;
    T[1][1] = 1;
    for (int m = 2; m <= D; m++)
        for (int k = 0; k <= m; k++)
            T[m][k] = (k ? 2 * T[m - 1][k - 1] : 0) - T[m - 2][k];
    for (int j = 0; j < w; j++) {
        double f[NUFFT_DEG_MAX + 1];
        for (int i = 0; i <= D; i++) {
            const double x = cos(PI * ((double)i + 0.5) / (double)(D + 1));
            f[i] = tbrfi_nufft_kernel(s, (x + 1.0 + 2.0 * j - w) / (double)w);
        }
        long double c[NUFFT_DEG_MAX + 1] = {0};
        for (int m = 0; m <= D; m++) {
            long double a = 0;
            for (int i = 0; i <= D; i++)
                a += (long double)f[i] * (long double)cos(PI * (double)m * ((double)i + 0.5) / (double)(D + 1));
            a *= (m ? 2.0L : 1.0L) / (long double)(D + 1);
            for (int k = 0; k <= m; k++)
                c[k] += a * T[m][k];
        }
        for (int k = 0; k <= D; k++)
            s->horner[k][j] = (double)c[k];
    }
}

void tbrfi_nufft_setup(nufft_setup *s, int dim, const int64_t n[3], const double origin[3],
                       const double length[3], double eps)
{
    memset(s, 0, sizeof *s);
    s->dim = dim;
    s->w = width_for(eps, &s->beta);
    fit_pieces(s);
    for (int d = 0; d < 3; d++) {
        const int used = d < dim;
        s->n[d] = used ? n[d] : 1;
        s->N[d] = used ? next235even(2 * n[d] > 2 * s->w ? 2 * n[d] : 2 * s->w) : 1;
        s->origin[d] = used ? origin[d] : 0.0;
        s->length[d] = used ? length[d] : 1.0;
    }
}

double tbrfi_nufft_fine_bytes(const nufft_setup *s)
{
    return 16.0 * (double)(s->N[0] / 2 + 1) * (double)s->N[1] * (double)s->N[2];
}

double *tbrfi_nufft_fine_alloc(const nufft_setup *s)
{
    return fftw_malloc((size_t)tbrfi_nufft_fine_bytes(s));
}

/* Gauss-Legendre nodes and weights on [-1, 1] (Newton on P_q from the
 * Chebyshev guesses). */
static void gauss_legendre(int q, double *x, double *wt)
{
    for (int i = 0; i < (q + 1) / 2; i++) {
        double z = cos(PI * ((double)i + 0.75) / ((double)q + 0.5)), dp = 1.0;
        for (int it = 0; it < 100; it++) {
            double p0 = 1.0, p1 = z;
            for (int k = 2; k <= q; k++) {
                const double p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
                p0 = p1;
                p1 = p2;
            }
            dp = q * (z * p1 - p0) / (z * z - 1.0);
            const double dz = p1 / dp;
            z -= dz;
            if (fabs(dz) < 1e-16)
                break;
        }
        x[i] = -z;
        x[q - 1 - i] = z;
        wt[i] = wt[q - 1 - i] = 2.0 / ((1.0 - z * z) * dp * dp);
    }
}

/* 2 * integral over [0, w/2] of phi(t) cos(xi t) dt; the kernel is smooth
 * inside and e^-beta (about 10^-w) small at the ends, where its
 * square-root edge is, so 4w + 20 nodes are far more than enough. */
#define GL_MAX 84
double tbrfi_nufft_kernel_ft(const nufft_setup *s, double xi)
{
    const int q = 4 * s->w + 20;
    double x[GL_MAX], wt[GL_MAX];
    gauss_legendre(q, x, wt);
    const double h = 0.25 * s->w; /* half of the interval [0, w/2] */
    double sum = 0.0;
    for (int i = 0; i < q; i++) {
        const double t = h * (x[i] + 1.0);
        sum += wt[i] * tbrfi_nufft_kernel(s, 2.0 * t / s->w) * cos(xi * t);
    }
    return 2.0 * h * sum;
}

int tbrfi_nufft_fine(const nufft_setup *s, const fftw_complex *C, int threads, double *u)
{
    const int64_t nx = s->n[0], ny = s->n[1], nz = s->n[2];
    const int64_t Nx = s->N[0], Ny = s->N[1], Nz = s->N[2];
    const int64_t nh = nx / 2 + 1, Nh = Nx / 2 + 1;
    const int nthreads = tbrf_threads(threads);
    double *ph = malloc(sizeof(double) * (size_t)(nh + ny / 2 + 1 + nz / 2 + 1));
    if (!ph)
        return TBRF_ERR_NO_MEMORY;
    /* 1 / phi-hat per axis at |m|, the kernel's transform at 2 pi m / N */
    double *inv[3] = {ph, ph + nh, ph + nh + ny / 2 + 1};
    const int64_t half[3] = {nh - 1, ny / 2, nz / 2};
    for (int d = 0; d < 3; d++)
        for (int64_t m = 0; m <= half[d]; m++)
            inv[d][m] = d < s->dim ? 1.0 / tbrfi_nufft_kernel_ft(s, 2.0 * PI * (double)m / (double)s->N[d]) : 1.0;

    fftw_complex *F = (fftw_complex *)u;
    tbrfi_lines_fftw_lock();
    static int threads_ready = 0; /* FFTW's one-time setup, under the lock */
    if (!threads_ready)
        threads_ready = fftw_init_threads();
    fftw_plan_with_nthreads(threads_ready ? nthreads : 1);
    fftw_plan plan = s->dim == 3 ? fftw_plan_dft_c2r_3d((int)Nz, (int)Ny, (int)Nx, F, u, FFTW_ESTIMATE)
                                 : fftw_plan_dft_c2r_2d((int)Ny, (int)Nx, F, u, FFTW_ESTIMATE);
    fftw_plan_with_nthreads(1);
    tbrfi_lines_fftw_unlock();
    if (!plan) {
        free(ph);
        return TBRF_ERR_FFT;
    }
#pragma omp parallel for schedule(static) num_threads(nthreads)
    for (int64_t row = 0; row < Nz * Ny; row++)
        memset(F + row * Nh, 0, sizeof(fftw_complex) * (size_t)Nh);
#pragma omp parallel for schedule(static) num_threads(nthreads)
    for (int64_t row = 0; row < nz * ny; row++) {
        const int64_t iz = row / ny, iy = row % ny;
        const int64_t mz = iz <= nz / 2 ? iz : iz - nz, my = iy <= ny / 2 ? iy : iy - ny;
        const int64_t fz = mz >= 0 ? mz : Nz + mz, fy = my >= 0 ? my : Ny + my;
        const double fyz = inv[1][my < 0 ? -my : my] * inv[2][mz < 0 ? -mz : mz];
        const fftw_complex *c = C + row * nh;
        fftw_complex *f = F + (fz * Ny + fy) * Nh;
        for (int64_t ix = 0; ix < nh; ix++) {
            const double a = fyz * inv[0][ix];
            f[ix][0] = c[ix][0] * a;
            f[ix][1] = c[ix][1] * a;
        }
    }
    fftw_execute(plan);
    tbrfi_lines_fft_destroy(plan);
    free(ph);
    return TBRF_OK;
}

#define WMAX NUFFT_WMAX

/* The weights of one position: per axis the first fine index (wrapped) and
 * w kernel values (lanes w .. 15 zero or unused); along y and z also every
 * wrapped index. */
typedef struct point_weights {
    int w, wz;
    int64_t x0; /* fine x index of weight 0, in [0, N_x) */
    int64_t iy[WMAX], iz[WMAX];
    double kx[WMAX], ky[WMAX], kz[WMAX];
} point_weights;

/* The kernel's w weights at z (nufft.h, horner) into k[0..15]: Horner's
 * rule for all weights at once, lane j performing
 *   v = horner[deg][j];  v = fma(v, z, horner[d][j]) for d = deg-1 .. 0,
 * which the vector versions perform lane by lane: the same bits. */
typedef void (*weights_fn)(const nufft_setup *s, double z, double *k);

static void weights_portable(const nufft_setup *s, double z, double *k)
{
    for (int j = 0; j < WMAX; j++)
        k[j] = s->horner[s->deg][j];
    for (int d = s->deg - 1; d >= 0; d--)
        for (int j = 0; j < WMAX; j++)
            k[j] = fma(k[j], z, s->horner[d][j]);
}

void tbrfi_nufft_weights(const nufft_setup *s, double z, double *k)
{
    double v[WMAX];
    weights_portable(s, z, v);
    for (int j = 0; j < s->w; j++)
        k[j] = v[j];
}

/* The first fine index (wrapped into [0, N)) of the kernel around
 * coordinate x along axis d, and its Horner variable z in [-1, 1);
 * positions are wrapped into the box. */
static inline int64_t axis_place(const nufft_setup *s, int d, double x, double *z)
{
    const int64_t N = s->N[d];
    double t = (x - s->origin[d]) / s->length[d];
    t -= floor(t);
    double pos = t * (double)N;
    if (pos >= (double)N)
        pos -= (double)N;
    const int64_t i0 = (int64_t)ceil(pos - 0.5 * s->w);
    *z = 2.0 * ((double)i0 - pos) + (double)(s->w - 1);
    return i0 < 0 ? i0 + N : i0;
}

static inline void wrapped_indices(int64_t i0, int w, int64_t N, int64_t *idx)
{
    for (int j = 0; j < w; j++)
        idx[j] = i0 + j < N ? i0 + j : i0 + j - N;
}

static inline void point_weights_at(const nufft_setup *s, const double *x, weights_fn weights,
                                    point_weights *W)
{
    double z;
    W->w = s->w;
    W->x0 = axis_place(s, 0, x[0], &z);
    weights(s, z, W->kx);
    wrapped_indices(axis_place(s, 1, x[1], &z), s->w, s->N[1], W->iy);
    weights(s, z, W->ky);
    W->wz = 1;
    W->iz[0] = 0;
    W->kz[0] = 1.0;
    if (s->dim == 3) {
        wrapped_indices(axis_place(s, 2, x[2], &z), s->w, s->N[2], W->iz);
        weights(s, z, W->kz);
        W->wz = s->w;
    }
}

/* The w^dim weighted sum around a position, for each component, in one
 * fixed order of IEEE operations that every version below performs lane
 * by lane (a fused multiply-add where the portable one calls fma()):
 *   plane_a[j] = fma(ky[b], u(z_a, y_b, x_j), plane_a[j])  for b = 0..w-1,
 *   line[j]    = fma(kz[a], plane_a[j], line[j])           for a = 0..wz-1,
 *   value      = fma(kx[j], line[j], value)                for j = 0..w-1,
 * all starting from +0. The x weights are applied last, once per point,
 * so the w^dim loop is w^(dim-1) rows of w contiguous values (two wrapped
 * segments when the kernel crosses the periodic x face) times one
 * broadcast weight: vector fused multiply-adds. The order never depends
 * on threads, chunks, other points or the CPU, so neither do the bits. */
static void sum_portable(const nufft_setup *s, double *const *u, int ncomp, const point_weights *W,
                         double *res)
{
    const int w = W->w;
    const int64_t Nx = s->N[0], Sx = 2 * (Nx / 2 + 1), Ny = s->N[1];
    int64_t ix[WMAX];
    for (int j = 0; j < w; j++)
        ix[j] = W->x0 + j < Nx ? W->x0 + j : W->x0 + j - Nx;
    double line[3][WMAX] = {{0}};
    for (int a = 0; a < W->wz; a++) {
        double plane[3][WMAX] = {{0}};
        for (int b = 0; b < w; b++) {
            const int64_t off = (W->iz[a] * Ny + W->iy[b]) * Sx;
            for (int c = 0; c < ncomp; c++) {
                const double *row = u[c] + off;
                for (int j = 0; j < w; j++)
                    plane[c][j] = fma(W->ky[b], row[ix[j]], plane[c][j]);
            }
        }
        for (int c = 0; c < ncomp; c++)
            for (int j = 0; j < w; j++)
                line[c][j] = fma(W->kz[a], plane[c][j], line[c][j]);
    }
    for (int c = 0; c < ncomp; c++) {
        double v = 0.0;
        for (int j = 0; j < w; j++)
            v = fma(W->kx[j], line[c][j], v);
        res[c] = v;
    }
}

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define NUFFT_X86 1
#define NU_AVX2 __attribute__((target("avx2,fma")))
#define NU_AVX512 __attribute__((target("avx512f,avx512dq,avx2,fma")))

/* Rows of up to 16 values as four 4-lane vectors; lanes at or past w load
 * nothing (masked) and stay zero. A row crossing the x face is two masked
 * loads, the part before the face and the part after it, OR-ed (the
 * masked-out lanes are +0, all bits clear, so the OR is exact). */
NU_AVX2 static inline __attribute__((always_inline)) void
sum_avx2_nc(const nufft_setup *s, double *const *u, const int NC, const point_weights *W, double *res)
{
    const int ncomp = NC;
    const int w = W->w;
    const int64_t Nx = s->N[0], Sx = 2 * (Nx / 2 + 1), Ny = s->N[1], x0 = W->x0;
    const int64_t before = Nx - x0; /* lanes before the face */
    const int nv = (w + 3) / 4;
    __m256i mlo[4], mhi[4];
    for (int v = 0; v < 4; v++) {
        long long lo[4], hi[4];
        for (int l = 0; l < 4; l++) {
            const int j = 4 * v + l;
            lo[l] = j < w && j < before ? -1 : 0;
            hi[l] = j < w && j >= before ? -1 : 0;
        }
        mlo[v] = _mm256_setr_epi64x(lo[0], lo[1], lo[2], lo[3]);
        mhi[v] = _mm256_setr_epi64x(hi[0], hi[1], hi[2], hi[3]);
    }
    const int wraps = before < w;
    __m256d line[3][4];
    for (int c = 0; c < 3; c++)
        for (int v = 0; v < 4; v++)
            line[c][v] = _mm256_setzero_pd();
    for (int a = 0; a < W->wz; a++) {
        __m256d plane[3][4];
        for (int c = 0; c < 3; c++)
            for (int v = 0; v < 4; v++)
                plane[c][v] = _mm256_setzero_pd();
        for (int b = 0; b < w; b++) {
            const int64_t off = (W->iz[a] * Ny + W->iy[b]) * Sx;
            const __m256d kb = _mm256_set1_pd(W->ky[b]);
            for (int c = 0; c < ncomp; c++) {
                const double *row = u[c] + off;
                for (int v = 0; v < nv; v++) {
                    __m256d q = _mm256_maskload_pd(row + x0 + 4 * v, mlo[v]);
                    if (wraps)
                        q = _mm256_or_pd(q, _mm256_maskload_pd(row + x0 - Nx + 4 * v, mhi[v]));
                    plane[c][v] = _mm256_fmadd_pd(kb, q, plane[c][v]);
                }
            }
        }
        const __m256d ka = _mm256_set1_pd(W->kz[a]);
        for (int c = 0; c < ncomp; c++)
            for (int v = 0; v < nv; v++)
                line[c][v] = _mm256_fmadd_pd(ka, plane[c][v], line[c][v]);
    }
    for (int c = 0; c < ncomp; c++) {
        double l[16];
        for (int v = 0; v < 4; v++)
            _mm256_storeu_pd(l + 4 * v, line[c][v]);
        double r = 0.0;
        for (int j = 0; j < w; j++)
            r = fma(W->kx[j], l[j], r);
        res[c] = r;
    }
}

/* The kernel weights of naxes axes at once (Horner variables z[a], weight
 * arrays k[a]), NV 4-lane vectors per axis, the axes' chains interleaved
 * (each fused multiply-add waits on the one before it in its chain):
 * lane by lane the operations of weights_portable. Writes all 16 lanes
 * of W's kx, ky (and kz in 3D). */
NU_AVX2 static inline __attribute__((always_inline)) void
horner_avx2(const nufft_setup *s, const int NV, const int naxes, const double *z, point_weights *W)
{
    double *const k[3] = {W->kx, W->ky, W->kz};
    __m256d acc[3][4], zz[3];
    for (int a = 0; a < naxes; a++) {
        zz[a] = _mm256_set1_pd(z[a]);
        for (int v = 0; v < NV; v++)
            acc[a][v] = _mm256_loadu_pd(&s->horner[s->deg][4 * v]);
    }
    for (int d = s->deg - 1; d >= 0; d--)
        for (int v = 0; v < NV; v++) {
            const __m256d c = _mm256_loadu_pd(&s->horner[d][4 * v]);
            for (int a = 0; a < naxes; a++)
                acc[a][v] = _mm256_fmadd_pd(acc[a][v], zz[a], c);
        }
    for (int a = 0; a < naxes; a++)
        for (int v = 0; v < 4; v++) /* the lanes past 4 NV are past w: zero */
            _mm256_storeu_pd(k[a] + 4 * v, v < NV ? acc[a][v] : _mm256_setzero_pd());
}

/* The sum of sum_avx2_nc for a kernel that does not wrap across the x
 * face and whose 4 NV lanes from x0 lie inside the row's storage (at
 * most into the row's padding past its end): plain loads. Lanes j >= w load neighbours or
 * padding, which only ever reach lanes j >= w of plane and line, never
 * the result (the last step reads lanes j < w): the same bits as the
 * masked loads. NC and NV are constants in each inlined copy. */
NU_AVX2 static inline __attribute__((always_inline)) void
sum_avx2_fast(const nufft_setup *s, double *const *u, const int NC, const int NV, const point_weights *W,
              double *res)
{
    const int w = W->w;
    const int64_t Sx = 2 * (s->N[0] / 2 + 1), Ny = s->N[1];
    __m256d line[3][4];
    for (int c = 0; c < NC; c++)
        for (int v = 0; v < NV; v++)
            line[c][v] = _mm256_setzero_pd();
    /* G planes at once: each plane's chain of w fused multiply-adds waits
     * on itself, so independent planes side by side keep the FMA units
     * busy (about 8 chains); each plane's operations and the order in
     * which the planes enter line stay those above. */
    const int G = NC * NV <= 2 ? 4 : NC * NV <= 4 ? 2 : 1;
    for (int a0 = 0; a0 < W->wz; a0 += G) {
        const int ng = W->wz - a0 < G ? W->wz - a0 : G;
        __m256d plane[4][3][4];
        const double *base[4][3];
        for (int g = 0; g < G; g++)
            for (int c = 0; c < NC; c++) {
                base[g][c] = u[c] + W->iz[a0 + (g < ng ? g : 0)] * Ny * Sx + W->x0;
                for (int v = 0; v < NV; v++)
                    plane[g][c][v] = _mm256_setzero_pd();
            }
        for (int b = 0; b < w; b++) {
            const int64_t off = W->iy[b] * Sx;
            const __m256d kb = _mm256_set1_pd(W->ky[b]);
            for (int g = 0; g < G; g++)
                if (g < ng)
                    for (int c = 0; c < NC; c++)
                        for (int v = 0; v < NV; v++)
                            plane[g][c][v] =
                                _mm256_fmadd_pd(kb, _mm256_loadu_pd(base[g][c] + off + 4 * v), plane[g][c][v]);
        }
        for (int g = 0; g < ng; g++) {
            const __m256d ka = _mm256_set1_pd(W->kz[a0 + g]);
            for (int c = 0; c < NC; c++)
                for (int v = 0; v < NV; v++)
                    line[c][v] = _mm256_fmadd_pd(ka, plane[g][c][v], line[c][v]);
        }
    }
    for (int c = 0; c < NC; c++) {
        double l[16];
        for (int v = 0; v < NV; v++)
            _mm256_storeu_pd(l + 4 * v, line[c][v]);
        double r = 0.0;
        for (int j = 0; j < w; j++)
            r = fma(W->kx[j], l[j], r);
        res[c] = r;
    }
}

/* Placement and indices of a position (point_weights_at without the
 * weights); z[] receives the Horner variables. */
static inline void point_place(const nufft_setup *s, const double *x, point_weights *W, double *z)
{
    W->w = s->w;
    W->x0 = axis_place(s, 0, x[0], &z[0]);
    wrapped_indices(axis_place(s, 1, x[1], &z[1]), s->w, s->N[1], W->iy);
    W->wz = 1;
    W->iz[0] = 0;
    W->kz[0] = 1.0;
    if (s->dim == 3) {
        wrapped_indices(axis_place(s, 2, x[2], &z[2]), s->w, s->N[2], W->iz);
        W->wz = s->w;
    }
}

NU_AVX2 static inline __attribute__((always_inline)) void
point_avx2_nv(const nufft_setup *s, double *const *u, int ncomp, const int NV, const double *x, double *res)
{
    point_weights W;
    double z[3];
    point_place(s, x, &W, z);
    if (s->dim == 3)
        horner_avx2(s, NV, 3, z, &W);
    else
        horner_avx2(s, NV, 2, z, &W);
    if (W.x0 + W.w <= s->N[0] && W.x0 + 4 * NV <= 2 * (s->N[0] / 2 + 1)) {
        if (ncomp == 1)
            sum_avx2_fast(s, u, 1, NV, &W, res);
        else if (ncomp == 2)
            sum_avx2_fast(s, u, 2, NV, &W, res);
        else
            sum_avx2_fast(s, u, 3, NV, &W, res);
    } else if (ncomp == 1)
        sum_avx2_nc(s, u, 1, &W, res);
    else if (ncomp == 2)
        sum_avx2_nc(s, u, 2, &W, res);
    else
        sum_avx2_nc(s, u, 3, &W, res);
}

NU_AVX2 static void point_avx2(const nufft_setup *s, double *const *u, int ncomp, const double *x, double *res)
{
    switch ((s->w + 3) / 4) {
    case 1: point_avx2_nv(s, u, ncomp, 1, x, res); break;
    case 2: point_avx2_nv(s, u, ncomp, 2, x, res); break;
    case 3: point_avx2_nv(s, u, ncomp, 3, x, res); break;
    default: point_avx2_nv(s, u, ncomp, 4, x, res); break;
    }
}

/* The same with two 8-lane vectors and mask registers; NC (the number of
 * components) is a constant in each inlined copy, so that the 4 NC
 * accumulators stay in registers. */
NU_AVX512 static inline __attribute__((always_inline)) void
sum_avx512_nc(const nufft_setup *s, double *const *u, const int NC, const point_weights *W, double *res)
{
    const int ncomp = NC;
    const int w = W->w;
    const int64_t Nx = s->N[0], Sx = 2 * (Nx / 2 + 1), Ny = s->N[1], x0 = W->x0;
    const int64_t before = Nx - x0;
    const unsigned all = (1u << w) - 1u;
    const unsigned lo = before >= w ? all : all & ((1u << before) - 1u), hi = all & ~lo;
    const __mmask8 lo0 = (__mmask8)(lo & 0xff), lo1 = (__mmask8)(lo >> 8);
    const __mmask8 hi0 = (__mmask8)(hi & 0xff), hi1 = (__mmask8)(hi >> 8);
    const int two = w > 8, wraps = hi != 0;
    __m512d line[3][2];
    for (int c = 0; c < 3; c++)
        line[c][0] = line[c][1] = _mm512_setzero_pd();
    for (int a = 0; a < W->wz; a++) {
        __m512d plane[3][2];
        for (int c = 0; c < 3; c++)
            plane[c][0] = plane[c][1] = _mm512_setzero_pd();
        for (int b = 0; b < w; b++) {
            const int64_t off = (W->iz[a] * Ny + W->iy[b]) * Sx;
            const __m512d kb = _mm512_set1_pd(W->ky[b]);
            for (int c = 0; c < ncomp; c++) {
                const double *row = u[c] + off + x0;
                __m512d q0 = _mm512_maskz_loadu_pd(lo0, row);
                if (wraps)
                    q0 = _mm512_mask_loadu_pd(q0, hi0, row - Nx);
                plane[c][0] = _mm512_fmadd_pd(kb, q0, plane[c][0]);
                if (two) {
                    __m512d q1 = _mm512_maskz_loadu_pd(lo1, row + 8);
                    if (wraps)
                        q1 = _mm512_mask_loadu_pd(q1, hi1, row - Nx + 8);
                    plane[c][1] = _mm512_fmadd_pd(kb, q1, plane[c][1]);
                }
            }
        }
        const __m512d ka = _mm512_set1_pd(W->kz[a]);
        for (int c = 0; c < ncomp; c++) {
            line[c][0] = _mm512_fmadd_pd(ka, plane[c][0], line[c][0]);
            line[c][1] = _mm512_fmadd_pd(ka, plane[c][1], line[c][1]);
        }
    }
    for (int c = 0; c < ncomp; c++) {
        double l[16];
        _mm512_storeu_pd(l, line[c][0]);
        _mm512_storeu_pd(l + 8, line[c][1]);
        double r = 0.0;
        for (int j = 0; j < w; j++)
            r = fma(W->kx[j], l[j], r);
        res[c] = r;
    }
}

/* The AVX-512 level: the weights by the 4-lane Horner (lane by lane the
 * same operations at any width), the sum with mask registers. */
NU_AVX512 static void point_avx512(const nufft_setup *s, double *const *u, int ncomp, const double *x,
                                   double *res)
{
    point_weights W;
    double z[3];
    point_place(s, x, &W, z);
    const int naxes = s->dim == 3 ? 3 : 2;
    switch ((s->w + 3) / 4) {
    case 1: horner_avx2(s, 1, naxes, z, &W); break;
    case 2: horner_avx2(s, 2, naxes, z, &W); break;
    case 3: horner_avx2(s, 3, naxes, z, &W); break;
    default: horner_avx2(s, 4, naxes, z, &W); break;
    }
    if (ncomp == 1)
        sum_avx512_nc(s, u, 1, &W, res);
    else if (ncomp == 2)
        sum_avx512_nc(s, u, 2, &W, res);
    else
        sum_avx512_nc(s, u, 3, &W, res);
}
#endif

static void point_portable(const nufft_setup *s, double *const *u, int ncomp, const double *x, double *res)
{
    point_weights W;
    point_weights_at(s, x, weights_portable, &W);
    sum_portable(s, u, ncomp, &W, res);
}

/* One position's values res[0 .. ncomp-1]: weights and sum. */
typedef void (*point_fn)(const nufft_setup *s, double *const *u, int ncomp, const double *x, double *res);

/* The best version this CPU runs (core/cpu_isa.c: TBRF_CPU_ISA may lower
 * it, as for the projection kernels, for the tests that check all versions
 * agree bitwise). The gather level of the projection has no NUFFT
 * counterpart: it runs the AVX-512 sum. */
static point_fn pick_point(void)
{
#ifdef NUFFT_X86
    const int isa = tbrfi_cpu_isa();
    return isa >= CPU_ISA_AVX512 ? point_avx512 : isa == CPU_ISA_AVX2 ? point_avx2 : point_portable;
#else
    return point_portable;
#endif
}

/* Stores one position's values; the component count spelled out so that
 * each is one plain store. */
static inline void store(void *out, int precision, int64_t at, int ncomp, const double *res)
{
    if (precision == TBRF_FLOAT) {
        float *o = (float *)out + at * ncomp;
        switch (ncomp) {
        case 3: o[2] = (float)res[2]; /* fall through */
        case 2: o[1] = (float)res[1]; /* fall through */
        default: o[0] = (float)res[0];
        }
    } else {
        double *o = (double *)out + at * ncomp;
        switch (ncomp) {
        case 3: o[2] = res[2]; /* fall through */
        case 2: o[1] = res[1]; /* fall through */
        default: o[0] = res[0];
        }
    }
}

/* Bin of a position: fine-grid blocks of about 8 cells per axis, at most
 * 64 blocks per axis. */
static int64_t bin_of(const nufft_setup *s, const double *x, const int64_t nb[3])
{
    int64_t key = 0;
    for (int d = s->dim - 1; d >= 0; d--) {
        double t = (x[d] - s->origin[d]) / s->length[d];
        t -= floor(t);
        int64_t b = (int64_t)(t * (double)nb[d]);
        b = b < 0 ? 0 : b >= nb[d] ? nb[d] - 1 : b;
        key = key * nb[d] + b;
    }
    return key;
}

void tbrfi_nufft_interp(const nufft_setup *s, double *const *u, int ncomp, int64_t npts,
                        const double *xyz, int precision, int threads, void *out)
{
    const int dim = s->dim;
    /* Random points touch the fine grid all over: visiting them sorted by
     * block (a counting sort, O(npts)) keeps the w^dim neighbourhoods of
     * successive points in cache. Each point's value is computed alone, so
     * the order changes no bits; without memory for the sort the points go
     * in their own order. */
    int64_t nb[3] = {1, 1, 1}, nbins = 1;
    for (int d = 0; d < dim; d++) {
        nb[d] = (s->N[d] + 7) / 8;
        if (nb[d] > 64)
            nb[d] = 64;
        nbins *= nb[d];
    }
    int64_t *order = NULL, *start = NULL;
    if (npts >= 4096) {
        order = malloc(sizeof(int64_t) * (size_t)npts);
        start = calloc((size_t)nbins + 1, sizeof(int64_t));
        if (order && start) {
            int64_t *key = order; /* keys first, in place of the order */
            for (int64_t i = 0; i < npts; i++) {
                key[i] = bin_of(s, xyz + (size_t)dim * (size_t)i, nb);
                start[key[i] + 1]++;
            }
            for (int64_t b = 0; b < nbins; b++)
                start[b + 1] += start[b];
            int64_t *sorted = malloc(sizeof(int64_t) * (size_t)npts);
            if (sorted) {
                for (int64_t i = 0; i < npts; i++)
                    sorted[start[key[i]]++] = i;
                free(order);
                order = sorted;
            } else {
                free(order);
                order = NULL;
            }
        } else {
            free(order);
            order = NULL;
        }
        free(start);
    }
    /* In blocks of BLOCK sorted points: their coordinates gathered first
     * and their values scattered last, each a run of independent loads or
     * stores whose cache misses (the sorted order is random in memory)
     * overlap, instead of one miss before and after every point's sum. */
    enum { BLOCK = 32 };
    const point_fn point = pick_point();
    const int64_t nblocks = (npts + BLOCK - 1) / BLOCK;
#pragma omp parallel for schedule(static) num_threads(tbrf_threads(threads))
    for (int64_t blk = 0; blk < nblocks; blk++) {
        const int64_t k0 = blk * BLOCK, m = npts - k0 < BLOCK ? npts - k0 : BLOCK;
        int64_t at[BLOCK];
        double x[BLOCK][3], res[BLOCK][3];
        for (int64_t t = 0; t < m; t++) {
            const int64_t i = order ? order[k0 + t] : k0 + t;
            const double *p = xyz + (size_t)dim * (size_t)i;
            at[t] = i;
            x[t][0] = p[0];
            x[t][1] = p[1];
            x[t][2] = dim == 3 ? p[2] : 0.0;
        }
        if (order) /* the next block's coordinates and values, while this one's sums run */
            for (int64_t t = k0 + BLOCK; t < k0 + 2 * BLOCK && t < npts; t++) {
                NU_PREFETCH(xyz + (size_t)dim * (size_t)order[t], 0);
                NU_PREFETCH((char *)out + (size_t)order[t] * (size_t)ncomp * (precision == TBRF_FLOAT ? 4u : 8u), 1);
            }
        for (int64_t t = 0; t < m; t++)
            point(s, u, ncomp, x[t], res[t]);
        for (int64_t t = 0; t < m; t++)
            store(out, precision, at[t], ncomp, res[t]);
    }
    free(order);
}

void tbrfi_nufft_interp_grid(const nufft_setup *s, double *const *u, int ncomp, const double origin[3],
                             const double spacing[3], const int64_t n[3], const int64_t start[3],
                             int64_t first, int64_t count, int precision, int threads, void *out)
{
    const point_fn point = pick_point();
#pragma omp parallel for schedule(static) num_threads(tbrf_threads(threads))
    for (int64_t i = 0; i < count; i++) {
        const int64_t cell = first + i;
        const int64_t jx = cell % n[0] + start[0], jy = (cell / n[0]) % n[1] + start[1],
                      jz = cell / (n[0] * n[1]) + start[2];
        const double x[3] = {origin[0] + spacing[0] * (double)jx, origin[1] + spacing[1] * (double)jy,
                             origin[2] + spacing[2] * (double)jz};
        double res[3];
        point(s, u, ncomp, x, res);
        store(out, precision, i, ncomp, res);
    }
}

double tbrfi_nufft_cell_work(const nufft_setup *s, int ncomp)
{
    double w = (double)ncomp;
    for (int d = 0; d < s->dim; d++)
        w *= (double)s->w;
    return w;
}
