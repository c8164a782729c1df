/* fft_method.c — periodic fields on regular grids by one inverse real FFT
 * of random Fourier modes (see fft_method.h for the mathematics).
 *
 * The half-complex array (n_z x n_y x (n_x/2+1) complex values) is filled
 * in parallel, each mode from its own Philox counter, transformed in place
 * by a threaded FFTW c2r plan and copied row by row into the caller's
 * array. FFTW's planner is called under the library's FFTW lock. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, madvise */
#include "methods/fft/fft.h"
#include "methods/fft/vlog.h"

#include <fftw3.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "methods/turning_bands/lines.h"
#include "core/cpu_isa.h"
#include "core/model.h"
#include "core/parallel.h"
#include "core/streams.h"
#include "tbrf/rng/philox.h"

static const double PI = 3.14159265358979323846;

/* m_d is packed in 21 bits per axis (offset by 2^20). */
#define FFT_MAX_HALF ((int64_t)1 << 20)
/* Philox word1 flag of the FFT modes' stream: the lines use word1 < 2^24
 * (line index) and 0xFFFFFFFF (rotation); FFT words1 are 0x80000000 | x
 * with x < 2^31 - 1, so the streams never share a counter. */
#define FFT_STREAM_BIT TBRF_STREAM_FFT

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

/* Box–Muller on the block of -m's counter: the 4.6% of modes whose two
 * word pairs both fall outside the unit disc (see mode_normal). */
static void mode_fallback(uint64_t seed, uint64_t r, int64_t mx, int64_t my, int64_t mz, double *re,
                          double *im)
{
    const uint64_t Kc = (uint64_t)(-mx + FFT_MAX_HALF) | ((uint64_t)(-my + FFT_MAX_HALF) << 21) |
                        ((uint64_t)(-mz + FFT_MAX_HALF) << 42);
    philox4x32_ctr_t w = tbrf_philox(seed, r, (uint32_t)Kc, FFT_STREAM_BIT | (uint32_t)(Kc >> 32));
    double g0, g1;
    tbrf_box_muller(w.v[0], w.v[1], &g0, &g1);
    *re = g0 * 0.70710678118654752440;
    *im = g1 * 0.70710678118654752440;
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
    mode_fallback(seed, r, mx, my, mz, re, im);
}

/* ------------------------------------------------ batched mode normals
 *
 * Along a row of the half-complex array the modes 1 <= m_x < n_x/2 are
 * all canonical, and their counters differ only in word 0, which is
 * base + m_x (m_x + 2^20 < 2^21 never carries into m_y's bits). So a row
 * draws its Philox blocks in SIMD (the words are integers: bitwise those
 * of tbrf_philox), and takes the rest of mode_normal in three passes over
 * the block: the unit-disc test and q, log(q) (libm's bits, as
 * mode_normal makes it: tbrfi_fft_log, vlog.c), then sqrt(-log q / q) and the
 * products, the same IEEE operations in the same order. Values are
 * bitwise mode_normal's (test_fft_modes_simd checks every path). */
enum { NORMAL_BLOCK = 256 };

/* Philox4x32-10 of the counters (w0 + i, w1, w2, w3), i < n, key seed:
 * word k of block i into W[k * NORMAL_BLOCK + i]. */
typedef void (*philox_rows_fn)(uint64_t seed, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3,
                               int n, uint32_t *W);

static void philox_rows_portable(uint64_t seed, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3,
                                 int n, uint32_t *W)
{
    const philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    for (int i = 0; i < n; i++) {
        const philox4x32_ctr_t c = {{w0 + (uint32_t)i, w1, w2, w3}};
        const philox4x32_ctr_t w = philox4x32(c, k);
        for (int j = 0; j < 4; j++)
            W[j * NORMAL_BLOCK + i] = w.v[j];
    }
}

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define FFT_X86 1

/* Random123's round: (hi, lo) = M0 x0 and M1 x2 in 64 bits; the words are
 * held in the low halves of 64-bit lanes, so vpmuludq gives the whole
 * product. */
__attribute__((target("avx512f"))) static void philox_rows_avx512(uint64_t seed, uint32_t w0,
                                                                  uint32_t w1, uint32_t w2,
                                                                  uint32_t w3, int n, uint32_t *W)
{
    /* PHILOX_ILP blocks of 8 counters per pass: the ten rounds are a
     * dependency chain of multiplies, so independent vectors hide it */
    enum { PHILOX_ILP = 4 };
    const __m512i lo32 = _mm512_set1_epi64(0xFFFFFFFFll);
    const __m512i m0 = _mm512_set1_epi64(0xD2511F53ll), m1 = _mm512_set1_epi64(0xCD9E8D57ll);
    const __m512i lane = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    for (int i = 0; i < n; i += 8 * PHILOX_ILP) {
        __m512i x0[PHILOX_ILP], x1[PHILOX_ILP], x2[PHILOX_ILP], x3[PHILOX_ILP];
        for (int v = 0; v < PHILOX_ILP; v++) {
            x0[v] = _mm512_and_si512(_mm512_add_epi64(_mm512_set1_epi64((int64_t)w0 + i + 8 * v), lane),
                                     lo32);
            x1[v] = _mm512_set1_epi64(w1);
            x2[v] = _mm512_set1_epi64(w2);
            x3[v] = _mm512_set1_epi64(w3);
        }
        uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
        for (int r = 0; r < 10; r++) {
            const __m512i K0 = _mm512_set1_epi64(k0), K1 = _mm512_set1_epi64(k1);
            for (int v = 0; v < PHILOX_ILP; v++) {
                const __m512i p0 = _mm512_mul_epu32(x0[v], m0), p1 = _mm512_mul_epu32(x2[v], m1);
                x0[v] = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p1, 32), x1[v]), K0);
                x2[v] = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p0, 32), x3[v]), K1);
                x1[v] = _mm512_and_si512(p1, lo32);
                x3[v] = _mm512_and_si512(p0, lo32);
            }
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        for (int v = 0; v < PHILOX_ILP && i + 8 * v < n; v++) {
            const int at = i + 8 * v, m = n - at < 8 ? n - at : 8;
            const __mmask8 mask = (__mmask8)((1u << m) - 1u);
            _mm512_mask_cvtepi64_storeu_epi32(W + at, mask, x0[v]);
            _mm512_mask_cvtepi64_storeu_epi32(W + NORMAL_BLOCK + at, mask, x1[v]);
            _mm512_mask_cvtepi64_storeu_epi32(W + 2 * NORMAL_BLOCK + at, mask, x2[v]);
            _mm512_mask_cvtepi64_storeu_epi32(W + 3 * NORMAL_BLOCK + at, mask, x3[v]);
        }
    }
}

__attribute__((target("avx2"))) static void philox_rows_avx2(uint64_t seed, uint32_t w0, uint32_t w1,
                                                             uint32_t w2, uint32_t w3, int n,
                                                             uint32_t *W)
{
    /* as in philox_rows_avx512, but two: four vectors of four words (16
     * registers, and the constants) were spilled to the stack */
    enum { PHILOX_ILP = 2 };
    const __m256i lo32 = _mm256_set1_epi64x(0xFFFFFFFFll);
    const __m256i m0 = _mm256_set1_epi64x(0xD2511F53ll), m1 = _mm256_set1_epi64x(0xCD9E8D57ll);
    const __m256i lane = _mm256_set_epi64x(3, 2, 1, 0);
    const __m256i pack = _mm256_set_epi32(7, 5, 3, 1, 6, 4, 2, 0);
    for (int i = 0; i < n; i += 4 * PHILOX_ILP) {
        __m256i x[4][PHILOX_ILP];
        for (int v = 0; v < PHILOX_ILP; v++) {
            x[0][v] = _mm256_and_si256(_mm256_add_epi64(_mm256_set1_epi64x((int64_t)w0 + i + 4 * v), lane),
                                       lo32);
            x[1][v] = _mm256_set1_epi64x(w1);
            x[2][v] = _mm256_set1_epi64x(w2);
            x[3][v] = _mm256_set1_epi64x(w3);
        }
        uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
        for (int r = 0; r < 10; r++) {
            const __m256i K0 = _mm256_set1_epi64x(k0), K1 = _mm256_set1_epi64x(k1);
            for (int v = 0; v < PHILOX_ILP; v++) {
                const __m256i p0 = _mm256_mul_epu32(x[0][v], m0), p1 = _mm256_mul_epu32(x[2][v], m1);
                x[0][v] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), x[1][v]), K0);
                x[2][v] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), x[3][v]), K1);
                x[1][v] = _mm256_and_si256(p1, lo32);
                x[3][v] = _mm256_and_si256(p0, lo32);
            }
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        for (int v = 0; v < PHILOX_ILP && i + 4 * v < n; v++) {
            const int at = i + 4 * v, m = n - at < 4 ? n - at : 4;
            for (int k = 0; k < 4; k++) {
                const __m128i w = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(x[k][v], pack));
                if (m == 4) { /* a variable-length copy here was 40% of the function */
                    _mm_storeu_si128((__m128i *)(W + k * NORMAL_BLOCK + at), w);
                    continue;
                }
                uint32_t t[4];
                _mm_storeu_si128((__m128i *)t, w);
                memcpy(W + k * NORMAL_BLOCK + at, t, sizeof(uint32_t) * (size_t)m);
            }
        }
    }
}
#endif

/* The passes of a block of n canonical modes (m_x0 + i, my, mz) whose
 * Philox words are in W: pairs() picks the pair, U, V and Q = U^2 + V^2
 * (Q >= 1 where both pairs miss the disc); after the caller's logs LQ,
 * scale() makes re = U f, im = V f with f = sqrt(-LQ / Q) (the fallbacks
 * are the caller's); store() multiplies by the amplitudes A and phases
 * (phx from m_x0, pyz) into c. The SIMD versions do mode_normal's IEEE
 * operations lane by lane (a uint32 converts to double exactly either
 * way; no contraction), so every version gives the same bits. */
static void pairs_portable(const uint32_t *restrict W, int n, double *restrict U, double *restrict V,
                           double *restrict Q)
{
    for (int i = 0; i < n; i++) {
        double u = s11_open(W[i]), v = s11_open(W[NORMAL_BLOCK + i]);
        double q = u * u + v * v;
        if (!(q < 1.0)) {
            u = s11_open(W[2 * NORMAL_BLOCK + i]);
            v = s11_open(W[3 * NORMAL_BLOCK + i]);
            q = u * u + v * v;
        }
        U[i] = u;
        V[i] = v;
        Q[i] = q;
    }
}

static void scale_portable(int n, const double *restrict Q, const double *restrict LQ,
                           double *restrict U, double *restrict V)
{
    for (int i = 0; i < n; i++) {
        const double f = sqrt(-LQ[i] / Q[i]);
        U[i] = U[i] * f;
        V[i] = V[i] * f;
    }
}

#define FFT_STORE(SUFFIX, ATTR)                                                                    \
    ATTR static void store_##SUFFIX(int n, const double *restrict A, const double *restrict U,    \
                                    const double *restrict V, const double *restrict phx,          \
                                    double pyz_re, double pyz_im, double *restrict c)              \
    {                                                                                              \
        for (int i = 0; i < n; i++) {                                                              \
            const double p_re = phx[2 * i] * pyz_re - phx[2 * i + 1] * pyz_im;                    \
            const double p_im = phx[2 * i] * pyz_im + phx[2 * i + 1] * pyz_re;                     \
            c[2 * i] = A[i] * (U[i] * p_re - V[i] * p_im);                                         \
            c[2 * i + 1] = A[i] * (U[i] * p_im + V[i] * p_re);                                     \
        }                                                                                          \
    }
FFT_STORE(portable, )

#ifdef FFT_X86
FFT_STORE(avx2, __attribute__((target("avx2"))))
FFT_STORE(avx512, __attribute__((target("avx512f,avx512dq"))))

#define AVX512_FN __attribute__((target("avx512f,avx512dq")))
#define AVX2_FN __attribute__((target("avx2")))

AVX512_FN static inline __m512d s11_avx512(const uint32_t *w)
{
    const __m512d x = _mm512_cvtepu32_pd(_mm256_loadu_si256((const __m256i *)w));
    return _mm512_sub_pd(_mm512_mul_pd(_mm512_add_pd(x, _mm512_set1_pd(0.5)),
                                       _mm512_set1_pd(1.0 / 2147483648.0)),
                         _mm512_set1_pd(1.0));
}

AVX512_FN static void pairs_avx512(const uint32_t *restrict W, int n, double *restrict U,
                                   double *restrict V, double *restrict Q)
{
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m512d u0 = s11_avx512(W + i), v0 = s11_avx512(W + NORMAL_BLOCK + i);
        const __m512d u1 = s11_avx512(W + 2 * NORMAL_BLOCK + i), v1 = s11_avx512(W + 3 * NORMAL_BLOCK + i);
        const __m512d q0 = _mm512_add_pd(_mm512_mul_pd(u0, u0), _mm512_mul_pd(v0, v0));
        const __m512d q1 = _mm512_add_pd(_mm512_mul_pd(u1, u1), _mm512_mul_pd(v1, v1));
        const __mmask8 first = _mm512_cmp_pd_mask(q0, _mm512_set1_pd(1.0), _CMP_LT_OQ);
        _mm512_storeu_pd(U + i, _mm512_mask_blend_pd(first, u1, u0));
        _mm512_storeu_pd(V + i, _mm512_mask_blend_pd(first, v1, v0));
        _mm512_storeu_pd(Q + i, _mm512_mask_blend_pd(first, q1, q0));
    }
    _mm256_zeroupper(); /* the tail is SSE code: no transition stalls */
    pairs_portable(W + i, n - i, U + i, V + i, Q + i);
}

AVX512_FN static void scale_avx512(int n, const double *restrict Q, const double *restrict LQ,
                                   double *restrict U, double *restrict V)
{
    int i = 0;
    const __m512d sign = _mm512_set1_pd(-0.0);
    for (; i + 8 <= n; i += 8) {
        const __m512d f = _mm512_sqrt_pd(
            _mm512_div_pd(_mm512_xor_pd(_mm512_loadu_pd(LQ + i), sign), _mm512_loadu_pd(Q + i)));
        _mm512_storeu_pd(U + i, _mm512_mul_pd(_mm512_loadu_pd(U + i), f));
        _mm512_storeu_pd(V + i, _mm512_mul_pd(_mm512_loadu_pd(V + i), f));
    }
    _mm256_zeroupper(); /* the tail is SSE code: no transition stalls */
    scale_portable(n - i, Q + i, LQ + i, U + i, V + i);
}

AVX2_FN static inline __m256d s11_avx2(const uint32_t *w)
{
    /* (double)w exactly: (int32)(w ^ 2^31) + 2^31 */
    const __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)w), _mm_set1_epi32(INT32_MIN));
    const __m256d d = _mm256_add_pd(_mm256_cvtepi32_pd(x), _mm256_set1_pd(2147483648.0));
    return _mm256_sub_pd(_mm256_mul_pd(_mm256_add_pd(d, _mm256_set1_pd(0.5)),
                                       _mm256_set1_pd(1.0 / 2147483648.0)),
                         _mm256_set1_pd(1.0));
}

AVX2_FN static void pairs_avx2(const uint32_t *restrict W, int n, double *restrict U,
                               double *restrict V, double *restrict Q)
{
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        const __m256d u0 = s11_avx2(W + i), v0 = s11_avx2(W + NORMAL_BLOCK + i);
        const __m256d u1 = s11_avx2(W + 2 * NORMAL_BLOCK + i), v1 = s11_avx2(W + 3 * NORMAL_BLOCK + i);
        const __m256d q0 = _mm256_add_pd(_mm256_mul_pd(u0, u0), _mm256_mul_pd(v0, v0));
        const __m256d q1 = _mm256_add_pd(_mm256_mul_pd(u1, u1), _mm256_mul_pd(v1, v1));
        const __m256d first = _mm256_cmp_pd(q0, _mm256_set1_pd(1.0), _CMP_LT_OQ);
        _mm256_storeu_pd(U + i, _mm256_blendv_pd(u1, u0, first));
        _mm256_storeu_pd(V + i, _mm256_blendv_pd(v1, v0, first));
        _mm256_storeu_pd(Q + i, _mm256_blendv_pd(q1, q0, first));
    }
    _mm256_zeroupper(); /* the tail is SSE code: no transition stalls */
    pairs_portable(W + i, n - i, U + i, V + i, Q + i);
}

AVX2_FN static void scale_avx2(int n, const double *restrict Q, const double *restrict LQ,
                               double *restrict U, double *restrict V)
{
    int i = 0;
    const __m256d sign = _mm256_set1_pd(-0.0);
    for (; i + 4 <= n; i += 4) {
        const __m256d f = _mm256_sqrt_pd(
            _mm256_div_pd(_mm256_xor_pd(_mm256_loadu_pd(LQ + i), sign), _mm256_loadu_pd(Q + i)));
        _mm256_storeu_pd(U + i, _mm256_mul_pd(_mm256_loadu_pd(U + i), f));
        _mm256_storeu_pd(V + i, _mm256_mul_pd(_mm256_loadu_pd(V + i), f));
    }
    _mm256_zeroupper(); /* the tail is SSE code: no transition stalls */
    scale_portable(n - i, Q + i, LQ + i, U + i, V + i);
}
#endif

typedef struct row_passes {
    philox_rows_fn philox;
    void (*pairs)(const uint32_t *restrict, int, double *restrict, double *restrict, double *restrict);
    void (*scale)(int, const double *restrict, const double *restrict, double *restrict,
                  double *restrict);
    void (*store)(int, const double *restrict, const double *restrict, const double *restrict,
                  const double *restrict, double, double, double *restrict);
    int isa; /* of the logarithms (tbrfi_fft_log) */
} row_passes;

static row_passes row_passes_for(int isa)
{
#ifdef FFT_X86
    if (isa >= CPU_ISA_AVX512)
        return (row_passes){philox_rows_avx512, pairs_avx512, scale_avx512, store_avx512, isa};
    if (isa >= CPU_ISA_AVX2)
        return (row_passes){philox_rows_avx2, pairs_avx2, scale_avx2, store_avx2, isa};
#endif
    (void)isa;
    return (row_passes){philox_rows_portable, pairs_portable, scale_portable, store_portable,
                        CPU_ISA_PORTABLE};
}

/* mode_normal of the n canonical modes (m_x0 + i, my, mz), i < n <=
 * NORMAL_BLOCK, m_x0 >= 1, into re[i], im[i]. */
static void normals_row(const row_passes *rp, uint64_t seed, uint64_t r, int64_t mx0, int64_t my,
                        int64_t mz, int n, double *re, double *im)
{
    uint32_t W[4 * NORMAL_BLOCK];
    double q[NORMAL_BLOCK], lq[NORMAL_BLOCK];
    const uint64_t K = (uint64_t)(mx0 + FFT_MAX_HALF) | ((uint64_t)(my + FFT_MAX_HALF) << 21) |
                       ((uint64_t)(mz + FFT_MAX_HALF) << 42);
    rp->philox(seed, (uint32_t)K, FFT_STREAM_BIT | (uint32_t)(K >> 32), (uint32_t)r,
               (uint32_t)(r >> 32), n, W);
    rp->pairs(W, n, re, im, q);
    /* libm's log of each q < 1, bitwise (vlog.c: SIMD where it provably
     * rounds as log does, log itself elsewhere) */
    tbrfi_fft_log(rp->isa, n, q, lq);
    rp->scale(n, q, lq, re, im);
    for (int i = 0; i < n; i++)
        if (!(q[i] < 1.0))
            mode_fallback(seed, r, mx0 + i, my, mz, &re[i], &im[i]);
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
    int64_t s_hi; /* the largest s of a non-zero table entry (-1: none): modes past it are zero */
    int root;
    /* an anisotropic model: P(k) = det S P_iso(|K k|), K = S R^T; no
     * table, |K k| not being a function of |m|^2 */
    int anis;
    double K[9], det;
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
    e->anis = tbrfi_model_anis_waves(model, dim, e->K, &e->det);
    if (!equal || e->anis)
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
    e->s_hi = smax;
    while (e->s_hi >= 0 && t[e->s_hi] == 0.0)
        e->s_hi--;
    return TBRF_OK;
}

/* The largest m >= 0 with m^2 <= r (r >= 0): the modes of a row or plane
 * that can have non-zero power are those with |m_x| <= isqrt(s_hi - rest). */
static int64_t isqrt(int64_t r)
{
    int64_t m = (int64_t)sqrt((double)r);
    while (m > 0 && m * m > r)
        m--;
    while ((m + 1) * (m + 1) <= r)
        m++;
    return m;
}

static double spec_value(const spec_eval *e, int64_t mx, int64_t my, int64_t mz)
{
    if (e->table)
        return e->table[mx * mx + my * my + mz * mz];
    const double kx = e->twopi_over_L[0] * (double)mx, ky = e->twopi_over_L[1] * (double)my,
                 kz = e->twopi_over_L[2] * (double)mz;
    if (e->anis) {
        double q2 = 0.0;
        for (int r = 0; r < e->dim; r++) {
            const double q = e->K[3 * r] * kx + e->K[3 * r + 1] * ky + e->K[3 * r + 2] * kz;
            q2 += q * q;
        }
        const double v = e->det * tbrf_model_spectrum(e->model, e->dim, sqrt(q2)) * e->inv_volume;
        return e->root ? sqrt(v) : v;
    }
    const double v = tbrf_model_spectrum(e->model, e->dim, sqrt(kx * kx + ky * ky + kz * kz)) * e->inv_volume;
    return e->root ? sqrt(v) : v;
}

/* Eight planes at a time: each plane's sum is still one chain in (iy, ix)
 * order (the same bits as tbrfi_fft_method_variance's loop without a
 * table), but eight independent chains hide the adds' latency, which
 * bounded it. The sums of planes z0 .. z0 + 7 (those below nz) into
 * planes[]. */
enum { VARIANCE_GROUP = 8 };

static void variance_planes(const spec_eval *ep, int dim, int64_t nx, int64_t ny, int64_t nz, int64_t z0,
                            double *planes)
{
    enum { G = VARIANCE_GROUP };
    const spec_eval e = *ep;
    const int64_t gn = nz - z0 < G ? nz - z0 : G;
    double acc[G] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t mz2[G];
    int live[G];
    for (int64_t g = 0; g < G; g++) {
        const int64_t mz = g < gn && dim == 3 ? idx_to_m(z0 + g, nz) : 0;
        mz2[g] = mz * mz;
        live[g] = g < gn && !(dim == 3 && is_nyquist(mz, nz));
    }
    /* Terms past the table's last non-zero entry are +-0 and are
     * skipped: adding a zero to a sum that is never -0 (it starts
     * at +0, and x + -x is +0) leaves it bitwise unchanged. */
    int64_t mz2min = INT64_MAX;
    for (int64_t g = 0; g < gn; g++)
        if (live[g] && mz2[g] < mz2min)
            mz2min = mz2[g];
    for (int64_t iy = 0; iy < ny && mz2min != INT64_MAX; iy++) {
        const int64_t my = idx_to_m(iy, ny);
        if (is_nyquist(my, ny) || my * my + mz2min > e.s_hi)
            continue;
        /* |m_x| <= mm: ix in [0, mm] and [nx - mm, nx), in order */
        const int64_t mm = isqrt(e.s_hi - my * my - mz2min);
        for (int64_t ix = 0; ix < nx; ix++) {
            if (ix > mm && ix < nx - mm) {
                ix = nx - mm - 1;
                continue;
            }
            const int64_t mx = idx_to_m(ix, nx);
            if (is_nyquist(mx, nx))
                continue;
            const int64_t s = mx * mx + my * my;
            for (int64_t g = 0; g < G; g++)
                if (live[g] && (s != 0 || mz2[g] != 0))
                    acc[g] += e.table[s + mz2[g]];
        }
    }
    for (int64_t g = 0; g < gn; g++)
        planes[z0 + g] = live[g] ? acc[g] : 0.0;
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
    if (e.table) {
        enum { G = VARIANCE_GROUP };
        const int64_t groups = (nz + G - 1) / G;
#pragma omp parallel for schedule(static)
        for (int64_t gi = 0; gi < groups; gi++)
            variance_planes(&e, dim, nx, ny, nz, gi * G, planes);
    } else
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
                /* P(-m) = P(m), but not P(-mx, my, mz) once anisotropic */
                plane += spec_value(&e, mx < 0 && !e.anis ? -mx : mx, my, mz);
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
                           uint64_t realization, int threads, double zeta, int comp, int zeroed,
                           fftw_complex *C)
{
    const int64_t rows = g->n[1] * (dim == 3 ? g->n[2] : 1);
    return tbrfi_fft_method_modes_rows(model, dim, g, seed, realization, threads, zeta, comp, zeroed,
                                       0, rows, C);
}

int tbrfi_fft_method_modes_rows(const tbrf_model *model, int dim, const grid_geom *g, uint64_t seed,
                                uint64_t realization, int threads, double zeta, int comp, int zeroed,
                                int64_t row0, int64_t nrows, fftw_complex *C)
{
    return tbrfi_fft_method_modes_polled(model, dim, g, seed, realization, threads, zeta, comp, zeroed,
                                         row0, nrows, NULL, C);
}

int tbrfi_fft_method_modes_polled(const tbrf_model *model, int dim, const grid_geom *g, uint64_t seed,
                                  uint64_t realization, int threads, double zeta, int comp, int zeroed,
                                  int64_t row0, int64_t nrows, const tbrfi_cancel *cancel,
                                  fftw_complex *C)
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

    const row_passes rp = row_passes_for(tbrfi_cpu_isa());
    /* modes 1 <= m_x < xend of a row are canonical and drawn in blocks
     * (normals_row); m_x = 0 by mode_normal; the Nyquist m_x is zero */
    const int64_t xend = nx % 2 == 0 ? nx / 2 : nh;
    /* blocks of rows between two polls of the hook (one block without
     * one); each row is its own, so the blocks give the rows' bits */
    const int64_t block = tbrfi_cancel_block(cancel, TBRFI_CANCEL_MODE * (double)nh, nrows);
    int st = TBRF_OK;
    for (int64_t b0 = row0; b0 < row0 + nrows && st == TBRF_OK; b0 += block) {
        const int64_t b1 = row0 + nrows - b0 < block ? row0 + nrows : b0 + block;
#pragma omp parallel for schedule(static) num_threads(nthreads)
        for (int64_t row = b0; row < b1; row++) {
            const int64_t iz = row / ny, iy = row % ny;
            const int64_t mz = dim == 3 ? idx_to_m(iz, nz) : 0, my = idx_to_m(iy, ny);
            fftw_complex *c = C + (row - row0) * nh;
            const int row_zero = (dim == 3 && is_nyquist(mz, nz)) || is_nyquist(my, ny);
            /* phase of the y and z parts, for +m and for -m (conjugate) */
            const double pyz_re = phy[2 * iy] * phz[2 * iz] - phy[2 * iy + 1] * phz[2 * iz + 1];
            const double pyz_im = phy[2 * iy] * phz[2 * iz + 1] + phy[2 * iy + 1] * phz[2 * iz];
            if (row_zero) {
                if (!zeroed)
                    memset(c, 0, sizeof(fftw_complex) * (size_t)nh);
                continue;
            }
            for (int64_t x0 = 0; x0 < nh; x0 += NORMAL_BLOCK) {
                const int nb = (int)(nh - x0 < NORMAL_BLOCK ? nh - x0 : NORMAL_BLOCK);
                double bre[NORMAL_BLOCK], bim[NORMAL_BLOCK];
                /* the block's canonical run [r0, r1) (offsets in the block) */
                const int64_t r0 = x0 == 0 ? 1 : 0;
                const int64_t r1 = xend - x0 < nb ? (xend - x0 > r0 ? xend - x0 : r0) : nb;
                if (comp < 0 && r1 > r0) {
                    double amp[NORMAL_BLOCK];
                    /* past the last non-zero table entry amp is 0: not looked up */
                    int64_t ra = r1;
                    if (e.table) {
                        const int64_t rest = e.s_hi - my * my - mz * mz;
                        ra = rest < 0 ? r0 : isqrt(rest) + 1 - x0;
                        ra = ra < r0 ? r0 : ra > r1 ? r1 : ra;
                    }
                    for (int64_t b = r0; b < ra; b++)
                        amp[b] = spec_value(&e, x0 + b, my, mz);
                    /* Modes of zero power (beyond k_max, below k_min: half of
                     * a cube's modes lie outside the inscribed sphere) are not
                     * drawn: each mode has its own counter, so skipping one
                     * changes no other, and its value is zero either way. */
                    int64_t lo = r0, hi = ra;
                    while (lo < hi && amp[lo] == 0.0)
                        lo++;
                    while (hi > lo && amp[hi - 1] == 0.0)
                        hi--;
                    if (!zeroed)
                        for (int64_t b = r0; b < r1; b++)
                            if (b < lo || b >= hi)
                                c[x0 + b][0] = c[x0 + b][1] = 0.0;
                    if (hi > lo) {
                        normals_row(&rp, seed, realization, x0 + lo, my, mz, (int)(hi - lo), bre + lo,
                                    bim + lo);
                        rp.store((int)(hi - lo), amp + lo, bre + lo, bim + lo, phx + 2 * (x0 + lo), pyz_re,
                                 pyz_im, (double *)(c + x0 + lo));
                    }
                }
                for (int64_t b = 0; b < nb; b++) {
                    const int64_t ix = x0 + b, mx = ix;
                    if (comp < 0 && b == r0 && r1 > r0) {
                        b = r1 - 1; /* [r0, r1) stored above */
                        continue;
                    }
                    if (is_nyquist(mx, nx) || (mx == 0 && my == 0 && mz == 0)) {
                        if (!zeroed)
                            c[ix][0] = c[ix][1] = 0.0;
                        continue;
                    }
                    const double amp = spec_value(&e, mx, my, mz);
                    if (amp == 0.0) { /* not drawn, as above */
                        if (!zeroed)
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
                    /* times e^{i k.o} = phx * pyz */
                    const double p_re = phx[2 * ix] * pyz_re - phx[2 * ix + 1] * pyz_im;
                    const double p_im = phx[2 * ix] * pyz_im + phx[2 * ix + 1] * pyz_re;
                    c[ix][0] = amp * (re * p_re - im * p_im);
                    c[ix][1] = amp * (re * p_im + im * p_re);
                }
            }
        }
        if (tbrfi_cancelled(cancel))
            st = TBRF_ERR_CANCELLED;
    }
    free(ph);
    free(e.table);
    return st;
}

/* The transform's array: fresh anonymous pages, which the kernel hands
 * out zeroed, so the fill writes only the modes it draws (half of a cube's
 * modes are zero). Its pages are made present up front by threads in
 * parallel (MADV_POPULATE_WRITE, Linux 5.14; else one write per page),
 * which costs less than a fault per page taken one at a time by the fill
 * (a third of its time at 256^3). fftw_malloc'd, and then not known to be
 * zero, where mmap fails. */
typedef struct fft_array {
    fftw_complex *C;
    size_t bytes; /* of the mapping; 0 for fftw_malloc */
} fft_array;

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static int fft_array_alloc(fft_array *a, size_t bytes, int nthreads)
{
    a->bytes = 0;
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        a->C = fftw_malloc(bytes);
        return a->C ? TBRF_OK : TBRF_ERR_NO_MEMORY;
    }
    a->C = m;
    a->bytes = bytes;
    const size_t page = 4096, pages = (bytes + page - 1) / page;
#pragma omp parallel num_threads(nthreads) if (pages >= 1024)
    {
        const size_t t = (size_t)omp_get_thread_num(), T = (size_t)omp_get_num_threads();
        const size_t p0 = pages * t / T, p1 = pages * (t + 1) / T;
        char *base = (char *)m + p0 * page;
        const size_t len = (p1 - p0) * page < bytes - p0 * page ? (p1 - p0) * page : bytes - p0 * page;
        if (p1 > p0 && madvise(base, len, MADV_POPULATE_WRITE) != 0)
            for (size_t q = 0; q < len; q += page)
                ((volatile char *)base)[q] = 0; /* still zero: a write of zero */
    }
    return TBRF_OK;
}

static void fft_array_free(fft_array *a)
{
    if (a->bytes)
        munmap(a->C, a->bytes);
    else
        fftw_free(a->C);
}

/* FFTW's own one-time thread setup; call under the library's FFTW lock.
 * 1 when its threads are ready. */
static int fftw_threads_ready(void)
{
    static int ready = 0;
    if (!ready)
        ready = fftw_init_threads();
    return ready;
}

/* Sets FFTW's planner to nthreads threads; call under the library's FFTW
 * lock, and fftw_threads_back() after planning. */
static void fftw_threads_for(int nthreads)
{
    fftw_plan_with_nthreads(fftw_threads_ready() ? nthreads : 1);
}

static void fftw_threads_back(void)
{
    fftw_plan_with_nthreads(1);
}

fftw_plan tbrfi_fft_plan_cube(int64_t n, fftw_complex *c, int forward, int nthreads)
{
    tbrfi_lines_fftw_lock();
    fftw_threads_for(nthreads);
    const int m = (int)n;
    fftw_plan f = forward ? fftw_plan_dft_r2c_3d(m, m, m, (double *)c, c, FFTW_ESTIMATE)
                          : fftw_plan_dft_c2r_3d(m, m, m, c, (double *)c, FFTW_ESTIMATE);
    fftw_threads_back();
    tbrfi_lines_fftw_unlock();
    return f;
}

int tbrfi_fft_cube_t_plan(tbrfi_fft_cube_t *t, int64_t n, fftw_complex *c, int forward,
                          int nthreads)
{
    const int m = (int)n, nh = m / 2 + 1, np = 2 * nh, n2[2] = {m, m};
    const int re[2] = {m, np}, ce[2] = {m, nh};
    t->n = n;
    t->nthreads = nthreads;
    t->forward = forward;
    tbrfi_lines_fftw_lock();
    fftw_threads_for(nthreads);
    t->planes = forward ? fftw_plan_many_dft_r2c(2, n2, m, (double *)c, re, 1, m * np, c, ce, 1,
                                                 m * nh, FFTW_ESTIMATE)
                        : fftw_plan_many_dft_c2r(2, n2, m, c, ce, 1, m * nh, (double *)c, re, 1,
                                                 m * np, FFTW_ESTIMATE);
    /* after the swap: 1-d transforms along the middle axis (stride nh),
     * looped over the slowest axis and the nh columns */
    fftw_iodim line = {m, nh, nh}, loops[2] = {{m, m * nh, m * nh}, {nh, 1, 1}};
    t->lines = fftw_plan_guru_dft(1, &line, 2, loops, c, c, forward ? FFTW_FORWARD : FFTW_BACKWARD,
                                  FFTW_ESTIMATE);
    fftw_threads_back();
    tbrfi_lines_fftw_unlock();
    if (t->planes && t->lines)
        return 1;
    tbrfi_fft_cube_t_destroy(t);
    return 0;
}

/* Row (i, j) <-> row (j, i) of the n x n rows of nh complex values of c,
 * in blocks of 8 x 8 rows for the cache; each pair of rows has one owner
 * thread, so the bits do not depend on the thread count. */
static void swap_rows(fftw_complex *c, int64_t n, int nthreads)
{
    const int64_t nh = n / 2 + 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads)
    for (int64_t ib = 0; ib < n; ib += 8)
        for (int64_t jb = ib; jb < n; jb += 8)
            for (int64_t i = ib; i < ib + 8 && i < n; i++)
                for (int64_t j = jb == ib ? i + 1 : jb; j < jb + 8 && j < n; j++) {
                    double *x = (double *)(c + (i * n + j) * nh);
                    double *y = (double *)(c + (j * n + i) * nh);
                    for (int64_t k = 0; k < 2 * nh; k++) {
                        const double v = x[k];
                        x[k] = y[k];
                        y[k] = v;
                    }
                }
}

void tbrfi_fft_cube_t_execute(const tbrfi_fft_cube_t *t, fftw_complex *c)
{
    if (t->forward) {
        fftw_execute_dft_r2c(t->planes, (double *)c, c);
        swap_rows(c, t->n, t->nthreads);
        fftw_execute_dft(t->lines, c, c);
    } else {
        fftw_execute_dft(t->lines, c, c);
        swap_rows(c, t->n, t->nthreads);
        fftw_execute_dft_c2r(t->planes, c, (double *)c);
    }
}

void tbrfi_fft_cube_t_destroy(tbrfi_fft_cube_t *t)
{
    if (t->planes)
        tbrfi_lines_fft_destroy(t->planes);
    if (t->lines)
        tbrfi_lines_fft_destroy(t->lines);
    t->planes = t->lines = NULL;
}

/* The transform's array and its plan (in place, or out of place into R),
 * made under the library's FFTW lock. */
static int fft_setup(int dim, const grid_geom *g, int nthreads, double *R, fft_array *A,
                     fftw_plan *plan)
{
    const int64_t nx = g->n[0], ny = g->n[1], nz = dim == 3 ? g->n[2] : 1;
    const int64_t nh = nx / 2 + 1;
    if (fft_array_alloc(A, sizeof(fftw_complex) * (size_t)(nh * ny * nz), nthreads))
        return TBRF_ERR_NO_MEMORY;
    tbrfi_lines_fftw_lock();
    fftw_threads_for(nthreads);
    if (!R)
        R = (double *)A->C;
    *plan = dim == 3 ? fftw_plan_dft_c2r_3d((int)nz, (int)ny, (int)nx, A->C, R, FFTW_ESTIMATE)
                     : fftw_plan_dft_c2r_2d((int)ny, (int)nx, A->C, R, FFTW_ESTIMATE);
    fftw_threads_back();
    tbrfi_lines_fftw_unlock();
    if (!*plan) {
        fft_array_free(A);
        return TBRF_ERR_FFT;
    }
    return TBRF_OK;
}

int tbrfi_fft_method_generate(const tbrf_model *model, int dim, const grid_geom *g, uint64_t seed,
                        uint64_t realization, int threads, int precision, int vector, double zeta,
                        const tbrfi_cancel *cancel, void *out)
{
    const int64_t nx = g->n[0], ny = g->n[1], nz = dim == 3 ? g->n[2] : 1;
    const int64_t nh = nx / 2 + 1;
    const int nthreads = tbrf_threads(threads);
    const int ncomp = vector ? dim : 1;
    /* scalar double output: out of place, straight into the caller's array;
     * float or vector: in place, then rounded or interleaved row by row */
    const int direct = precision == TBRF_DOUBLE && ncomp == 1;
    fft_array A;
    fftw_plan plan;
    int st = fft_setup(dim, g, nthreads, direct ? (double *)out : NULL, &A, &plan);
    if (st)
        return st;
    fftw_complex *C = A.C;
    const double *R = direct ? (const double *)out : (const double *)C;
    for (int c = 0; c < ncomp && !st; c++) {
        /* the array is zero before the first component only (the in-place
         * transform overwrites it) */
        st = tbrfi_fft_method_modes_polled(model, dim, g, seed, realization, threads, zeta,
                                           vector ? c : -1, c == 0 && A.bytes != 0, 0, ny * nz, cancel, C);
        if (st)
            break;
        fftw_execute(plan);
        if (tbrfi_cancelled(cancel))
            st = TBRF_ERR_CANCELLED;
        if (direct || st)
            break;
#pragma omp parallel for schedule(static) num_threads(nthreads)
        for (int64_t row = 0; row < nz * ny; row++) {
            const double *src = R + row * 2 * nh;
            if (precision == TBRF_FLOAT && ncomp == 1) { /* contiguous: vectorised */
                float *restrict dst = (float *)out + row * nx;
                for (int64_t i = 0; i < nx; i++)
                    dst[i] = (float)src[i];
            } else if (precision == TBRF_FLOAT) {
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
    fft_array_free(&A);
    return st;
}

/* Row `row` of the in-place transform R (padded rows of 2 nh doubles)
 * rounded into row `row` of the float array F that overlays it. Rows
 * from 1 on end below their own doubles (4 (r + 1) nx <= 8 r (nx + 2)
 * bytes); row 0 overlaps its own and goes through a small buffer. */
static void round_row(const double *R, float *F, int64_t nh, int64_t nx, int64_t row)
{
    const double *src = R + row * 2 * nh;
    float *dst = F + row * nx;
    if (row > 0) {
        const double *restrict s = src;
        float *restrict d = dst;
        for (int64_t i = 0; i < nx; i++)
            d[i] = (float)s[i];
        return;
    }
    float buf[512];
    for (int64_t i0 = 0; i0 < nx; i0 += 512) {
        const int64_t m = nx - i0 < 512 ? nx - i0 : 512;
        for (int64_t i = 0; i < m; i++)
            buf[i] = (float)src[i0 + i];
        memcpy(dst + i0, buf, sizeof(float) * (size_t)m);
    }
}

/* The rounding of an in-place transform's rows, in row order, by a
 * thread of its own: `done` rows are ready to push. */
typedef struct rounding {
    const double *R;
    float *F;
    int64_t nh, nx, rows;
    atomic_llong done;
    atomic_int stop;
} rounding;

static void *round_rows(void *arg)
{
    rounding *rd = arg;
    for (int64_t row = 0; row < rd->rows && !atomic_load_explicit(&rd->stop, memory_order_relaxed); row++) {
        round_row(rd->R, rd->F, rd->nh, rd->nx, row);
        atomic_store_explicit(&rd->done, (long long)row + 1, memory_order_release);
    }
    return NULL;
}

/* push(user, first, count, values); a non-zero return is kept in
 * *failed_at, *push_rc and makes TBRF_ERR_CALLBACK. */
static int push_piece(int (*push)(void *, int64_t, int64_t, const void *), void *user, int64_t first,
                      int64_t count, const void *values, int64_t *failed_at, int *push_rc)
{
    const int rc = push(user, first, count, values);
    if (!rc)
        return TBRF_OK;
    *failed_at = first;
    *push_rc = rc;
    return TBRF_ERR_CALLBACK;
}

/* The scalar double field, out of place into a second fresh array whose
 * pages are made present in parallel (as the transform's): pushed from it
 * in pieces once the transform is done. */
static int generate_push_double(const tbrf_model *model, int dim, const grid_geom *g, uint64_t seed,
                                uint64_t realization, int threads, int64_t step,
                                int (*push)(void *, int64_t, int64_t, const void *), void *user,
                                int64_t *failed_at, int *push_rc, const tbrfi_cancel *cancel)
{
    const int64_t nx = g->n[0], ny = g->n[1], nz = dim == 3 ? g->n[2] : 1;
    const int64_t total = nx * ny * nz;
    const int nthreads = tbrf_threads(threads);
    fft_array O;
    if (fft_array_alloc(&O, sizeof(double) * (size_t)total, nthreads))
        return TBRF_ERR_NO_MEMORY;
    fft_array A;
    fftw_plan plan;
    int st = fft_setup(dim, g, nthreads, (double *)O.C, &A, &plan);
    if (st) {
        fft_array_free(&O);
        return st;
    }
    st = tbrfi_fft_method_modes_polled(model, dim, g, seed, realization, threads, 0.0, -1, A.bytes != 0, 0,
                                       ny * nz, cancel, A.C);
    if (!st) {
        fftw_execute(plan);
        st = tbrfi_cancelled(cancel) ? TBRF_ERR_CANCELLED : TBRF_OK;
        const double *F = (const double *)O.C;
        for (int64_t first = 0; first < total && !st; first += step)
            st = push_piece(push, user, first, total - first < step ? total - first : step, F + first,
                            failed_at, push_rc);
    }
    tbrfi_lines_fft_destroy(plan);
    fft_array_free(&A);
    fft_array_free(&O);
    return st;
}

int tbrfi_fft_method_generate_push(const tbrf_model *model, int dim, const grid_geom *g, uint64_t seed,
                                   uint64_t realization, int threads, int precision, int64_t step,
                                   int (*push)(void *, int64_t, int64_t, const void *), void *user,
                                   int64_t *failed_at, int *push_rc, const tbrfi_cancel *cancel)
{
    if (precision == TBRF_DOUBLE)
        return generate_push_double(model, dim, g, seed, realization, threads, step, push, user,
                                    failed_at, push_rc, cancel);
    const int64_t nx = g->n[0], ny = g->n[1], nz = dim == 3 ? g->n[2] : 1;
    const int64_t nh = nx / 2 + 1, rows = ny * nz, total = nx * rows;
    const int nthreads = tbrf_threads(threads);
    fft_array A;
    fftw_plan plan;
    int st = fft_setup(dim, g, nthreads, NULL, &A, &plan);
    if (st)
        return st;
    fftw_complex *C = A.C;
    st = tbrfi_fft_method_modes_polled(model, dim, g, seed, realization, threads, 0.0, -1, A.bytes != 0, 0,
                                       rows, cancel, C);
    if (!st) {
        fftw_execute(plan);
        st = tbrfi_cancelled(cancel) ? TBRF_ERR_CANCELLED : TBRF_OK;
        /* Float row r lies at bytes [4 r nx, 4 (r + 1) nx), over doubles of
         * rows below r: rounded in row order, each row overwrites only rows
         * already rounded, so no second whole-grid array is needed (the
         * doubles are 2.1x the floats). With two or more threads one
         * thread rounds while the caller's thread pushes the pieces
         * already rounded (the push, an HDF5 write, is serial and as long
         * as the rounding); with one, each piece is pushed while it is
         * still in cache. */
        rounding rd = {(const double *)C, (float *)C, nh, nx, rows, 0, 0};
        atomic_init(&rd.done, 0);
        atomic_init(&rd.stop, 0);
        pthread_t rounder;
        /* a thread of our own, not an OpenMP team: push runs outside any
         * parallel region, so the caller's own OpenMP inside it keeps its
         * threads */
        const int two = nthreads >= 2 && pthread_create(&rounder, NULL, round_rows, &rd) == 0;
        for (int64_t first = 0; first < total && !st; first += step) {
            const int64_t count = total - first < step ? total - first : step;
            const int64_t need = (first + count) / nx;
            if (!two)
                for (int64_t row = first / nx; row < need; row++)
                    round_row(rd.R, rd.F, nh, nx, row);
            else
                for (int spins = 0; atomic_load_explicit(&rd.done, memory_order_acquire) < need; spins++)
                    if (spins > 64)
                        sched_yield(); /* a share of a busy machine: let the rounder run */
            st = push_piece(push, user, first, count, rd.F + first, failed_at, push_rc);
        }
        atomic_store(&rd.stop, 1);
        if (two)
            pthread_join(rounder, NULL);
    }
    tbrfi_lines_fft_destroy(plan);
    fft_array_free(&A);
    return st;
}
