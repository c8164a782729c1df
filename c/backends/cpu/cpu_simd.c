/* cpu_simd.c — AVX2 and AVX-512 versions of the projection's inner loops,
 * compiled with per-function target attributes and picked at run time
 * (tbrfi_cpu_isa), with the portable versions of backend_cpu.c as the fallback.
 *
 * Grid rows: along a row the line coordinate t = rb + i*sx advances by the
 * constant sx per cell, so the samples 8 adjacent cells read lie in a short
 * contiguous segment of the line. The AVX-512 kernel loads that segment
 * with two (or, for steeper lines, four) plain vector loads and picks each
 * cell's two samples with vpermt2pd, instead of two 8-way gathers; lines
 * too steep for that (|sx| > 13/3, i.e. oversampling above ~4 along x)
 * and points load each lane's sample pair (y[j], y[j+1]) with one 16-byte
 * load and transpose: twice as fast as two gathers on this Zen 5 class
 * CPU. The arithmetic is the portable version's, lane by lane (see
 * cpu_kernels.h), so the values are bitwise the same. */
#include "backends/cpu/cpu_kernels.h"

#include <stdlib.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define TBRF_X86 1
#include <immintrin.h>
#endif

#ifdef TBRF_X86

/* ------------------------------------------------------------- AVX2 */

#define AVX2 __attribute__((target("avx2,fma")))

/* Linear interpolation of one line at four positions t (t >= 0): each
 * lane's sample pair (y[j], y[j+1]) is one 16-byte load, which beats two
 * 4-way gathers here. Same IEEE operations as the portable kernel. */
AVX2 static inline __m256d interp4_avx2(const double *y, __m256d t)
{
    const __m256d jd = _mm256_round_pd(t, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m256d f = _mm256_sub_pd(t, jd);
    int32_t J[4];
    _mm_storeu_si128((__m128i *)J, _mm256_cvttpd_epi32(t));
    /* lanes 0 and 2 in one register, 1 and 3 in the other: the unpacks
     * then give lanes in order, with no cross-lane permute (the shuffle
     * port was this kernel's bottleneck) */
    const __m256d lo = _mm256_set_m128d(_mm_loadu_pd(y + J[2]), _mm_loadu_pd(y + J[0]));
    const __m256d hi = _mm256_set_m128d(_mm_loadu_pd(y + J[3]), _mm_loadu_pd(y + J[1]));
    const __m256d y0 = _mm256_unpacklo_pd(lo, hi);
    const __m256d y1 = _mm256_unpackhi_pd(lo, hi);
    return _mm256_fmadd_pd(f, _mm256_sub_pd(y1, y0), y0);
}

AVX2 static void grid_avx2(const double *lines, int64_t M, const double *rb, const double *sx,
                           int nl, int64_t lo, int64_t n, double *acc)
{
    const __m256d lane = _mm256_set_pd(3, 2, 1, 0);
    const __m256d last = _mm256_set1_pd((double)(lo + n - 1));
    int64_t v = 0;
    for (; v + 8 <= n; v += 8) {
        const __m256d iv0 = _mm256_add_pd(_mm256_set1_pd((double)(lo + v)), lane);
        const __m256d iv1 = _mm256_add_pd(_mm256_set1_pd((double)(lo + v + 4)), lane);
        __m256d a0 = _mm256_loadu_pd(acc + v), a1 = _mm256_loadu_pd(acc + v + 4);
        for (int l = 0; l < nl; l++) {
            const double *y = lines + (size_t)l * (size_t)M;
            const __m256d s = _mm256_set1_pd(sx[l]), r = _mm256_set1_pd(rb[l]);
            a0 = _mm256_add_pd(a0, interp4_avx2(y, _mm256_fmadd_pd(iv0, s, r)));
            a1 = _mm256_add_pd(a1, interp4_avx2(y, _mm256_fmadd_pd(iv1, s, r)));
        }
        _mm256_storeu_pd(acc + v, a0);
        _mm256_storeu_pd(acc + v + 4, a1);
    }
    for (; v < n; v += 4) {
        const int64_t rem = n - v;
        const __m256i mask = _mm256_cmpgt_epi64(_mm256_set1_epi64x(rem < 4 ? rem : 4),
                                                _mm256_set_epi64x(3, 2, 1, 0));
        /* lanes past the row repeat its last cell: valid addresses */
        const __m256d iv = _mm256_min_pd(_mm256_add_pd(_mm256_set1_pd((double)(lo + v)), lane), last);
        __m256d a = _mm256_maskload_pd(acc + v, mask);
        for (int l = 0; l < nl; l++) {
            const double *y = lines + (size_t)l * (size_t)M;
            const __m256d t = _mm256_fmadd_pd(iv, _mm256_set1_pd(sx[l]), _mm256_set1_pd(rb[l]));
            a = _mm256_add_pd(a, interp4_avx2(y, t));
        }
        _mm256_maskstore_pd(acc + v, mask, a);
    }
}

AVX2 static void points_avx2(const double *lines, int64_t M, const double *axis, double offset,
                             const double *shift, int nl, int64_t n, const double *dx, const double *dy,
                             const double *dz, double *acc)
{
    int64_t v = 0;
    for (; v + 8 <= n; v += 8) { /* two vectors per line: more independent work in flight */
        const __m256d x0 = _mm256_loadu_pd(dx + v), y0 = _mm256_loadu_pd(dy + v),
                      z0 = _mm256_loadu_pd(dz + v);
        const __m256d x1 = _mm256_loadu_pd(dx + v + 4), y1 = _mm256_loadu_pd(dy + v + 4),
                      z1 = _mm256_loadu_pd(dz + v + 4);
        __m256d a0 = _mm256_loadu_pd(acc + v), a1 = _mm256_loadu_pd(acc + v + 4);
        for (int l = 0; l < nl; l++) {
            const double *y = lines + (size_t)l * (size_t)M;
            const double *u = axis + 3 * l;
            const __m256d u0 = _mm256_set1_pd(u[0]), u1 = _mm256_set1_pd(u[1]), u2 = _mm256_set1_pd(u[2]);
            const __m256d off = _mm256_set1_pd(offset + shift[l]);
            __m256d t0 = _mm256_mul_pd(x0, u0), t1 = _mm256_mul_pd(x1, u0);
            t0 = _mm256_fmadd_pd(y0, u1, t0);
            t1 = _mm256_fmadd_pd(y1, u1, t1);
            t0 = _mm256_fmadd_pd(z0, u2, t0);
            t1 = _mm256_fmadd_pd(z1, u2, t1);
            a0 = _mm256_add_pd(a0, interp4_avx2(y, _mm256_add_pd(t0, off)));
            a1 = _mm256_add_pd(a1, interp4_avx2(y, _mm256_add_pd(t1, off)));
        }
        _mm256_storeu_pd(acc + v, a0);
        _mm256_storeu_pd(acc + v + 4, a1);
    }
    for (; v < n; v += 4) {
        const __m256d x = _mm256_loadu_pd(dx + v), yy = _mm256_loadu_pd(dy + v),
                      z = _mm256_loadu_pd(dz + v);
        __m256d a = _mm256_loadu_pd(acc + v);
        for (int l = 0; l < nl; l++) {
            const double *y = lines + (size_t)l * (size_t)M;
            const double *u = axis + 3 * l;
            __m256d t = _mm256_mul_pd(x, _mm256_set1_pd(u[0]));
            t = _mm256_fmadd_pd(yy, _mm256_set1_pd(u[1]), t);
            t = _mm256_fmadd_pd(z, _mm256_set1_pd(u[2]), t);
            t = _mm256_add_pd(t, _mm256_set1_pd(offset + shift[l]));
            a = _mm256_add_pd(a, interp4_avx2(y, t));
        }
        _mm256_storeu_pd(acc + v, a);
    }
}

/* ---------------------------------------------------------- AVX-512 */

#define AVX512 __attribute__((target("avx512f,avx512dq")))

enum { MODE_GATHER = 0, MODE_ONE = 1, MODE_TWO = 2 };
enum { MAX_BLOCK = 256 };


/* interp(y, t) for 8 lanes; the samples are fetched per `mode`. */
AVX512 static inline __m512d sample512(const double *y, int mode, int ascending, __m512d t)
{
    /* trunc(t) as the double of its integer: exact (t < 2^53), one uop
     * fewer than vrndscalepd */
    const __m512i j = _mm512_cvttpd_epi64(t);
    const __m512d f = _mm512_sub_pd(t, _mm512_cvtepi64_pd(j));
    const __m512i one = _mm512_set1_epi64(1);
    __m512d y0, y1;
    if (mode == MODE_ONE) {
        /* window base: the smallest index (lane 0 ascending, 7 descending) */
        const __m512i bv = _mm512_permutexvar_epi64(_mm512_set1_epi64(ascending ? 0 : 7), j);
        const int64_t b = _mm_cvtsi128_si64(_mm512_castsi512_si128(bv));
        const __m512i idx = _mm512_sub_epi64(j, bv);
        /* y1 from the window one sample on: two loads (ports 2, 3) instead
         * of an index add on the shuffle-bound ports */
        const __m512d w0 = _mm512_loadu_pd(y + b), w1 = _mm512_loadu_pd(y + b + 8);
        const __m512d v0 = _mm512_loadu_pd(y + b + 1), v1 = _mm512_loadu_pd(y + b + 9);
        y0 = _mm512_permutex2var_pd(w0, idx, w1);
        y1 = _mm512_permutex2var_pd(v0, idx, v1);
    } else if (mode == MODE_TWO) {
        const __m512i sel = ascending ? _mm512_set_epi64(4, 4, 4, 4, 0, 0, 0, 0)
                                      : _mm512_set_epi64(7, 7, 7, 7, 3, 3, 3, 3);
        const __m512i bv = _mm512_permutexvar_epi64(sel, j);
        const int64_t b0 = _mm_cvtsi128_si64(_mm512_castsi512_si128(bv));
        const int64_t b1 = _mm_cvtsi128_si64(_mm512_extracti64x2_epi64(bv, 2));
        const __m512i idx = _mm512_sub_epi64(j, bv), idx1 = _mm512_add_epi64(idx, one);
        const __m512d a0 = _mm512_loadu_pd(y + b0), a1 = _mm512_loadu_pd(y + b0 + 8);
        const __m512d c0 = _mm512_loadu_pd(y + b1), c1 = _mm512_loadu_pd(y + b1 + 8);
        y0 = _mm512_mask_blend_pd((__mmask8)0xF0, _mm512_permutex2var_pd(a0, idx, a1),
                                  _mm512_permutex2var_pd(c0, idx, c1));
        y1 = _mm512_mask_blend_pd((__mmask8)0xF0, _mm512_permutex2var_pd(a0, idx1, a1),
                                  _mm512_permutex2var_pd(c0, idx1, c1));
    } else { /* steep lines: one 16-byte load per lane, then a transpose */
        int64_t J[8];
        _mm512_storeu_si512((void *)J, j);
        const __m256d q0 = _mm256_set_m128d(_mm_loadu_pd(y + J[1]), _mm_loadu_pd(y + J[0]));
        const __m256d q1 = _mm256_set_m128d(_mm_loadu_pd(y + J[3]), _mm_loadu_pd(y + J[2]));
        const __m256d q2 = _mm256_set_m128d(_mm_loadu_pd(y + J[5]), _mm_loadu_pd(y + J[4]));
        const __m256d q3 = _mm256_set_m128d(_mm_loadu_pd(y + J[7]), _mm_loadu_pd(y + J[6]));
        const __m512d lo = _mm512_insertf64x4(_mm512_castpd256_pd512(q0), q1, 1);
        const __m512d hi = _mm512_insertf64x4(_mm512_castpd256_pd512(q2), q3, 1);
        y0 = _mm512_permutex2var_pd(lo, _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0), hi);
        y1 = _mm512_permutex2var_pd(lo, _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1), hi);
    }
    return _mm512_fmadd_pd(f, _mm512_sub_pd(y1, y0), y0);
}

AVX512 static void grid_avx512(const double *lines, int64_t M, const double *rb, const double *sx,
                               int nl, int64_t lo, int64_t n, double *acc)
{
    /* How each line's samples are fetched for this row: one 16-sample
     * window per 8 cells (|sx| <= 13/7), one per 4 cells (|sx| <= 13/3),
     * or gathers; windows must also stay inside the line. */
    unsigned char mode[MAX_BLOCK];
    if (nl > MAX_BLOCK)
        nl = MAX_BLOCK; /* callers block lines by at most MAX_BLOCK */
    for (int l = 0; l < nl; l++) {
        const double s = sx[l] < 0 ? -sx[l] : sx[l];
        const double ta = rb[l] + (double)lo * sx[l], tb = rb[l] + (double)(lo + n - 1) * sx[l];
        const int64_t jmax = (int64_t)(ta > tb ? ta : tb);
        mode[l] = MODE_GATHER;
        if (jmax + 17 <= M) { /* MODE_ONE reads y[b .. b+16] */
            if (7.0 * s <= 13.0)
                mode[l] = MODE_ONE;
            else if (3.0 * s <= 13.0)
                mode[l] = MODE_TWO;
        }
    }
    const __m512d lane = _mm512_set_pd(7, 6, 5, 4, 3, 2, 1, 0);
    const __m512d last = _mm512_set1_pd((double)(lo + n - 1));
    int64_t v = 0;
    /* two vectors of 8 cells per pass: the per-line broadcasts are shared
     * and the two accumulation chains overlap */
    for (; v + 16 <= n; v += 16) {
        const __m512d iv0 = _mm512_add_pd(_mm512_set1_pd((double)(lo + v)), lane);
        const __m512d iv1 = _mm512_add_pd(_mm512_set1_pd((double)(lo + v + 8)), lane);
        __m512d a0 = _mm512_loadu_pd(acc + v), a1 = _mm512_loadu_pd(acc + v + 8);
        for (int l = 0; l < nl; l++) {
            const double *y = lines + (size_t)l * (size_t)M;
            const __m512d r = _mm512_set1_pd(rb[l]), s = _mm512_set1_pd(sx[l]);
            a0 = _mm512_add_pd(a0, sample512(y, mode[l], sx[l] >= 0, _mm512_fmadd_pd(iv0, s, r)));
            a1 = _mm512_add_pd(a1, sample512(y, mode[l], sx[l] >= 0, _mm512_fmadd_pd(iv1, s, r)));
        }
        _mm512_storeu_pd(acc + v, a0);
        _mm512_storeu_pd(acc + v + 8, a1);
    }
    for (; v < n; v += 8) {
        const int64_t rem = n - v;
        const __mmask8 m = rem >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << rem) - 1u);
        /* lanes past the row repeat its last cell: valid addresses */
        const __m512d iv = _mm512_min_pd(_mm512_add_pd(_mm512_set1_pd((double)(lo + v)), lane), last);
        __m512d a = _mm512_maskz_loadu_pd(m, acc + v);
        for (int l = 0; l < nl; l++) {
            const double *y = lines + (size_t)l * (size_t)M;
            const __m512d t = _mm512_fmadd_pd(iv, _mm512_set1_pd(sx[l]), _mm512_set1_pd(rb[l]));
            a = _mm512_add_pd(a, sample512(y, mode[l], sx[l] >= 0, t));
        }
        _mm512_mask_storeu_pd(acc + v, m, a);
    }
}

AVX512 static inline __m512d point_t512(const double *u, __m512d x, __m512d yy, __m512d z, __m512d off)
{
    __m512d t = _mm512_mul_pd(x, _mm512_set1_pd(u[0]));
    t = _mm512_fmadd_pd(yy, _mm512_set1_pd(u[1]), t);
    t = _mm512_fmadd_pd(z, _mm512_set1_pd(u[2]), t);
    return _mm512_add_pd(t, off);
}

/* interp(y, t) for 8 points' coordinates t on one line. */
AVX512 static inline __m512d pairs512(const double *y, __m512d t)
{
    const __m512i j = _mm512_cvttpd_epi64(t);
    const __m512d f = _mm512_sub_pd(t, _mm512_cvtepi64_pd(j)); /* as sample512 */
    /* each lane's sample pair (y[j], y[j+1]) is one 16-byte load: 8 loads
     * and a transpose cost half of two 8-way gathers */
    int64_t J[8];
    _mm512_storeu_si512((void *)J, j);
    const __m256d q0 = _mm256_set_m128d(_mm_loadu_pd(y + J[1]), _mm_loadu_pd(y + J[0]));
    const __m256d q1 = _mm256_set_m128d(_mm_loadu_pd(y + J[3]), _mm_loadu_pd(y + J[2]));
    const __m256d q2 = _mm256_set_m128d(_mm_loadu_pd(y + J[5]), _mm_loadu_pd(y + J[4]));
    const __m256d q3 = _mm256_set_m128d(_mm_loadu_pd(y + J[7]), _mm_loadu_pd(y + J[6]));
    const __m512d lo = _mm512_insertf64x4(_mm512_castpd256_pd512(q0), q1, 1);
    const __m512d hi = _mm512_insertf64x4(_mm512_castpd256_pd512(q2), q3, 1);
    const __m512d y0 = _mm512_permutex2var_pd(lo, _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0), hi);
    const __m512d y1 = _mm512_permutex2var_pd(lo, _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1), hi);
    return _mm512_fmadd_pd(f, _mm512_sub_pd(y1, y0), y0);
}

/* ------------------------------------------- AVX-512 with gathers */

/* interp(y, t) for 8 lanes with the samples gathered (vgatherqpd): on
 * CPUs with fast gathers (CPU_ISA_AVX512_GATHER) two gathers beat the
 * windows and the pair loads, with no per-line fetch mode to choose. The
 * addresses must be valid in every lane (callers repeat the last cell or
 * point). */
AVX512 static inline __m512d gather512(const double *y, __m512d t)
{
    const __m512i j = _mm512_cvttpd_epi64(t);
    const __m512d f = _mm512_sub_pd(t, _mm512_cvtepi64_pd(j));
    const __m512d y0 = _mm512_i64gather_pd(j, y, 8), y1 = _mm512_i64gather_pd(j, y + 1, 8);
    return _mm512_fmadd_pd(f, _mm512_sub_pd(y1, y0), y0);
}

AVX512 static void grid_avx512g(const double *lines, int64_t M, const double *rb, const double *sx,
                                int nl, int64_t lo, int64_t n, double *acc)
{
    const __m512d lane = _mm512_set_pd(7, 6, 5, 4, 3, 2, 1, 0);
    const __m512d last = _mm512_set1_pd((double)(lo + n - 1));
    int64_t v = 0;
    for (; v + 16 <= n; v += 16) {
        const __m512d iv0 = _mm512_add_pd(_mm512_set1_pd((double)(lo + v)), lane);
        const __m512d iv1 = _mm512_add_pd(_mm512_set1_pd((double)(lo + v + 8)), lane);
        __m512d a0 = _mm512_loadu_pd(acc + v), a1 = _mm512_loadu_pd(acc + v + 8);
        for (int l = 0; l < nl; l++) {
            const double *y = lines + (size_t)l * (size_t)M;
            const __m512d r = _mm512_set1_pd(rb[l]), s = _mm512_set1_pd(sx[l]);
            a0 = _mm512_add_pd(a0, gather512(y, _mm512_fmadd_pd(iv0, s, r)));
            a1 = _mm512_add_pd(a1, gather512(y, _mm512_fmadd_pd(iv1, s, r)));
        }
        _mm512_storeu_pd(acc + v, a0);
        _mm512_storeu_pd(acc + v + 8, a1);
    }
    for (; v < n; v += 8) {
        const int64_t rem = n - v;
        const __mmask8 m = rem >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << rem) - 1u);
        /* lanes past the row repeat its last cell: valid addresses */
        const __m512d iv = _mm512_min_pd(_mm512_add_pd(_mm512_set1_pd((double)(lo + v)), lane), last);
        __m512d a = _mm512_maskz_loadu_pd(m, acc + v);
        for (int l = 0; l < nl; l++) {
            const __m512d t = _mm512_fmadd_pd(iv, _mm512_set1_pd(sx[l]), _mm512_set1_pd(rb[l]));
            a = _mm512_add_pd(a, gather512(lines + (size_t)l * (size_t)M, t));
        }
        _mm512_mask_storeu_pd(acc + v, m, a);
    }
}


/* The points of both AVX-512 levels: `gathered` (a constant in each
 * caller, so the branch is compiled away) picks the samples' fetch, the
 * pair loads of pairs512 or the gathers of gather512. */
AVX512 static inline __attribute__((always_inline)) void
points_loop512(const double *lines, int64_t M, const double *axis, double offset, const double *shift,
               int nl, int64_t n, const double *dx, const double *dy, const double *dz, double *acc,
               const int gathered)
{
    int64_t v = 0;
    /* two vectors per pass: twice the loads in flight */
    for (; v + 16 <= n; v += 16) {
        const __m512d x0 = _mm512_loadu_pd(dx + v), y0 = _mm512_loadu_pd(dy + v),
                      z0 = _mm512_loadu_pd(dz + v);
        const __m512d x1 = _mm512_loadu_pd(dx + v + 8), y1 = _mm512_loadu_pd(dy + v + 8),
                      z1 = _mm512_loadu_pd(dz + v + 8);
        __m512d a0 = _mm512_loadu_pd(acc + v), a1 = _mm512_loadu_pd(acc + v + 8);
        for (int l = 0; l < nl; l++) {
            const double *y = lines + (size_t)l * (size_t)M;
            const double *u = axis + 3 * l;
            const __m512d off = _mm512_set1_pd(offset + shift[l]);
            const __m512d t0 = point_t512(u, x0, y0, z0, off), t1 = point_t512(u, x1, y1, z1, off);
            a0 = _mm512_add_pd(a0, gathered ? gather512(y, t0) : pairs512(y, t0));
            a1 = _mm512_add_pd(a1, gathered ? gather512(y, t1) : pairs512(y, t1));
        }
        _mm512_storeu_pd(acc + v, a0);
        _mm512_storeu_pd(acc + v + 8, a1);
    }
    for (; v < n; v += 8) { /* n is a multiple of 8 (cpu_kernels.h) */
        const __m512d x = _mm512_loadu_pd(dx + v), yy = _mm512_loadu_pd(dy + v),
                      z = _mm512_loadu_pd(dz + v);
        __m512d a = _mm512_loadu_pd(acc + v);
        for (int l = 0; l < nl; l++) {
            const double *y = lines + (size_t)l * (size_t)M;
            const __m512d t = point_t512(axis + 3 * l, x, yy, z, _mm512_set1_pd(offset + shift[l]));
            a = _mm512_add_pd(a, gathered ? gather512(y, t) : pairs512(y, t));
        }
        _mm512_storeu_pd(acc + v, a);
    }
}

AVX512 static void points_avx512(const double *lines, int64_t M, const double *axis, double offset,
                                 const double *shift, int nl, int64_t n, const double *dx, const double *dy,
                                 const double *dz, double *acc)
{
    points_loop512(lines, M, axis, offset, shift, nl, n, dx, dy, dz, acc, 0);
}

AVX512 static void points_avx512g(const double *lines, int64_t M, const double *axis, double offset,
                                  const double *shift, int nl, int64_t n, const double *dx,
                                  const double *dy, const double *dz, double *acc)
{
    points_loop512(lines, M, axis, offset, shift, nl, n, dx, dy, dz, acc, 1);
}

#endif /* TBRF_X86 */

cpu_grid_fn tbrfi_cpu_grid_kernel(int isa)
{
#ifdef TBRF_X86
    if (isa >= CPU_ISA_AVX512_GATHER)
        return grid_avx512g;
    if (isa >= CPU_ISA_AVX512)
        return grid_avx512;
    if (isa >= CPU_ISA_AVX2)
        return grid_avx2;
#endif
    (void)isa;
    return tbrfi_cpu_grid_portable;
}

cpu_points_fn tbrfi_cpu_points_kernel(int isa)
{
#ifdef TBRF_X86
    if (isa >= CPU_ISA_AVX512_GATHER)
        return points_avx512g;
    if (isa >= CPU_ISA_AVX512)
        return points_avx512;
    if (isa >= CPU_ISA_AVX2)
        return points_avx2;
#endif
    (void)isa;
    return tbrfi_cpu_points_portable;
}
