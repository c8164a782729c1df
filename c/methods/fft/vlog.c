/* vlog.c — log(q) for blocks of q, bitwise the C library's log, in SIMD.
 *
 * The FFT method's field is defined with the C library's log (one per
 * mode, in Marsaglia's polar step), so a vector logarithm may only be used
 * where it gives the same bits. It does by a rounding filter:
 *
 * 1. Each lane computes y = log q as a double-double H + L with
 *    |H + L - y| < 2^-59.5 |y| < 0.011 ulp(H) (the argument below), H the
 *    double nearest to H + L (so |L| <= ulp(H) / 2).
 * 2. Where |L| <= 0.44 ulp(H) and H is not a power of two, the exact y is
 *    within 0.451 ulp of H, so every other double is more than 0.549 ulp
 *    from y, and any logarithm whose error is below 0.549 ulp returns H.
 *    glibc's log (the one the fixtures were made with) is documented, in
 *    its sysdeps/ieee754/dbl-64/e_log.c, to err by at most 0.5 + 4.13/128
 *    ulp plus its polynomial's error (about 0.533 ulp; 0.519 is the figure
 *    usually quoted). A power of two H has a nearer neighbour below (half
 *    the ulp), so it is never kept.
 * 3. Every other lane (about 12%: |L| is spread evenly over [0, ulp/2])
 *    calls log itself.
 * So the result is bitwise log's wherever log errs by less than 0.549 ulp;
 * a C library with a worse log would break it, and test_fft_vlog, which
 * compares 2^24 Marsaglia values and edge cases bit for bit, would fail
 * there. (With the filter at 0.49 instead of 0.44 it finds 122 lanes of
 * glibc 2.36 that differ; at 0.47, none.)
 *
 * The double-double logarithm (Tang's table method, our own constants):
 *   q = 2^k z with z in [Z0, 2 Z0), Z0 = 0.705..., cut into 128 chunks of
 *   equal bit width (j = the 7 bits of the representation below the
 *   exponent, after subtracting Z0's); c_j = 1/mid_j rounded, and c = 1
 *   exactly for the chunk around 1, which spans [1 - 2^-9, 1 + 2^-8).
 *   z c = p + pl exactly (product and FMA remainder), rh = p - 1 exactly
 *   (Sterbenz), r = rh + pl rounded (exact where c = 1), |r| < 2^-8, and
 *     log q = k LN2H + (-log c_j)_hi + rh                      (Fast2Sums: H)
 *           + [k LN2L + (-log c_j)_lo + pl + the two sums' errors
 *              + (log1p(r) - r)]                               (lo)
 *   with log1p(r) - r = -r^2/2 + r^3 (1/3 - r/4 + ... - r^5/8) in one FMA
 *   (Taylor; the first term left out is below r^9/9 < 2^-75), and
 *   (H, L) = Fast2Sum(the big sum, lo).
 * Error: |y| >= 2^-9 outside the chunk around 1 with k = 0 (k != 0: |y| >
 *   ln2 - log(2 Z0) > 0.34); in that chunk every term but r and the
 *   polynomial is exactly 0, and |y| > |r| (1 - 2^-8). The table (-log c
 *   in double-double from the atanh series, at first use) errs by < 2^-100,
 *   ln2 = LN2H (42 bits: k LN2H exact for |k| < 2^11) + LN2L by < 2^-95 |k|;
 *   relative to |y| the rounding of r costs < 2^-61 (|r| <= 2^-9 where
 *   |y| < 2^-8), the polynomial's rounding (r^2 and the FMA) < 2^-61, the
 *   final sum into lo < 2^-62, the rest < 2^-66: below 2^-59.5 |y| in all,
 *   and ulp(H) > 2^-53 |y|. Inputs outside [2^-1000, 1) take log (or 0). */
#include "methods/fft/vlog.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "core/cpu_isa.h"

enum { VLOG_BITS = 7, VLOG_N = 1 << VLOG_BITS };
/* bits(1.0) - 151 * 2^44: chunk 75 is [1 - 2^-9, 1 + 2^-8), 1.0 its middle
 * in bits, and Z0 = 0.7050... is near sqrt(1/2) */
#define VLOG_OFF 0x3FE6900000000000ull
enum { VLOG_ONE = 75 };
/* values per pass of the kernel (a multiple of 4) */
enum { VLOG_CHUNK = 256 };
/* a lane keeps its own rounding where |L| <= VLOG_KEEP ulp(H) */
#define VLOG_KEEP 0.44

/* row j: c_j, and -log c_j = lh_j + ll_j (double-double), 0: one
 * aligned 32-byte load per lane */
static struct {
    _Alignas(32) double row[VLOG_N][4];
    double ln2h, ln2l;
} vlog_tab;
static pthread_once_t vlog_once = PTHREAD_ONCE_INIT;

/* ------------------------------ double-double arithmetic, for the table */
typedef struct dd {
    double h, l;
} dd;

static dd two_sum(double a, double b)
{
    const double s = a + b, bb = s - a;
    return (dd){s, (a - (s - bb)) + (b - bb)};
}

static dd dd_add(dd a, dd b)
{
    const dd s = two_sum(a.h, b.h);
    const double e = s.l + (a.l + b.l);
    const double h = s.h + e;
    return (dd){h, e - (h - s.h)};
}

static dd dd_mul(dd a, dd b)
{
    const double p = a.h * b.h;
    const double e = fma(a.h, b.h, -p) + (a.h * b.l + a.l * b.h);
    const double h = p + e;
    return (dd){h, e - (h - p)};
}

static dd dd_div(dd a, dd b)
{
    const double q1 = a.h / b.h;
    const dd p = dd_mul(b, (dd){q1, 0.0});
    const dd r = dd_add(a, (dd){-p.h, -p.l});
    const double q2 = r.h / b.h;
    const double h = q1 + q2;
    return (dd){h, q2 - (h - q1)};
}

/* log c (c in [1/2, 2]) in double-double: 2 atanh(s), s = (c - 1)/(c + 1),
 * |s| <= 1/3, by the series sum s^(2i+1) / (2i+1), 40 terms (9^-40 <
 * 2^-126: past double-double's precision). c - 1 is exact (Sterbenz). */
static dd log_dd(double c)
{
    const dd s = dd_div((dd){c - 1.0, 0.0}, two_sum(c, 1.0));
    const dd s2 = dd_mul(s, s);
    dd pw = s, sum = {0.0, 0.0};
    for (int i = 0; i < 40; i++) {
        sum = dd_add(sum, dd_div(pw, (dd){2.0 * i + 1.0, 0.0}));
        pw = dd_mul(pw, s2);
    }
    return (dd){2.0 * sum.h, 2.0 * sum.l};
}

static void vlog_init(void)
{
    const dd ln2 = log_dd(2.0);
    uint64_t b;
    memcpy(&b, &ln2.h, sizeof b);
    b &= ~(uint64_t)0x7FF; /* 42 significant bits */
    memcpy(&vlog_tab.ln2h, &b, sizeof b);
    vlog_tab.ln2l = (ln2.h - vlog_tab.ln2h) + ln2.l;
    for (int j = 0; j < VLOG_N; j++) {
        double *t = vlog_tab.row[j];
        t[3] = 0.0;
        if (j == VLOG_ONE) {
            t[0] = 1.0;
            t[1] = t[2] = 0.0;
            continue;
        }
        const uint64_t mb = VLOG_OFF + ((uint64_t)j << (52 - VLOG_BITS)) + ((uint64_t)1 << (51 - VLOG_BITS));
        double mid;
        memcpy(&mid, &mb, sizeof mid);
        t[0] = 1.0 / mid;
        const dd l = log_dd(t[0]);
        t[1] = -l.h;
        t[2] = -l.l;
    }
}

static int vlog_portable(int n, const double *restrict q, double *restrict out)
{
    int calls = 0;
    for (int i = 0; i < n; i++) {
        out[i] = q[i] < 1.0 ? log(q[i]) : 0.0;
        calls += q[i] < 1.0;
    }
    return calls;
}

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* The double-double logarithm of four lanes (comment at the top): from
 * z, c = c_j, (lh, ll) = -log c_j and kd = k, the rounded log H and the
 * rest L. Both sums of big terms are Fast2Sums: |k LN2H| > 0.69 > |lh|
 * unless k = 0, and |lh| > 1.9 |rh| unless lh = 0 (the chunks next to 1's
 * are as wide as their distance to 1). */
__attribute__((target("avx2,fma"))) static inline void vlog4(__m256d z, __m256d c, __m256d lh, __m256d ll,
                                                             __m256d kd, __m256d *H, __m256d *L)
{
    const __m256d p = _mm256_mul_pd(z, c), pl = _mm256_fmsub_pd(z, c, p);
    const __m256d rh = _mm256_sub_pd(p, _mm256_set1_pd(1.0));
    const __m256d t1 = _mm256_mul_pd(kd, _mm256_set1_pd(vlog_tab.ln2h));
    const __m256d s = _mm256_add_pd(t1, lh), se = _mm256_sub_pd(lh, _mm256_sub_pd(s, t1));
    const __m256d h = _mm256_add_pd(s, rh), e = _mm256_sub_pd(rh, _mm256_sub_pd(h, s));
    const __m256d r = _mm256_add_pd(rh, pl), r2 = _mm256_mul_pd(r, r);
    const __m256d b0 = _mm256_fmadd_pd(_mm256_set1_pd(-1.0 / 4), r, _mm256_set1_pd(1.0 / 3));
    const __m256d b1 = _mm256_fmadd_pd(_mm256_set1_pd(-1.0 / 6), r, _mm256_set1_pd(1.0 / 5));
    const __m256d b2 = _mm256_fmadd_pd(_mm256_set1_pd(-1.0 / 8), r, _mm256_set1_pd(1.0 / 7));
    const __m256d a = _mm256_fmadd_pd(_mm256_fmadd_pd(b2, r2, b1), r2, b0);
    /* log1p(r) - r = -r^2/2 + r^3 a, one rounding */
    const __m256d poly = _mm256_fmadd_pd(_mm256_mul_pd(r2, r), a, _mm256_mul_pd(r2, _mm256_set1_pd(-0.5)));
    __m256d lo = _mm256_add_pd(_mm256_add_pd(pl, ll), e);
    lo = _mm256_add_pd(lo, _mm256_fmadd_pd(kd, _mm256_set1_pd(vlog_tab.ln2l), se));
    lo = _mm256_add_pd(poly, lo);
    *H = _mm256_add_pd(h, lo);
    *L = _mm256_sub_pd(lo, _mm256_sub_pd(*H, h));
}

/* Appends i + l to bad[] for each lane l < 4 whose bit is set in m,
 * without branches (a branch per lane would be mispredicted: about half
 * of all vectors have a lane to fix). Returns the new count. Not in the
 * kernels' loops: a store whose address waits for the lane's whole
 * computation holds back the next vectors' loads (the loop then runs at
 * the latency of one vector, twice as slow as log). */
static inline int push_bad(int *bad, int nb, int i, unsigned m)
{
    for (int l = 0; l < 4; l++) {
        bad[nb] = i + l;
        nb += (int)(m >> l & 1u);
    }
    return nb;
}

/* out[i] for i < n (a multiple of 4) is the double-double log's rounding
 * where it is log's (comment at the top), 0 where q >= 1 or NaN; bit l of
 * bad[v] is set where lane l of vector v must call log instead (q < 1:
 * too near a midpoint, a power of two, or below 2^-1000). */
__attribute__((target("avx2,fma"))) static void vlog_avx2(int n, const double *restrict q,
                                                          double *restrict out, unsigned char *restrict bad)
{
    const __m256i off = _mm256_set1_epi64x((long long)VLOG_OFF);
    const __m256i top = _mm256_set1_epi64x((long long)0xFFF0000000000000ull);
    const __m256i jmask = _mm256_set1_epi64x(VLOG_N - 1), odd = _mm256_set_epi32(7, 5, 3, 1, 7, 5, 3, 1);
    const __m256i expo = _mm256_set1_epi64x(0x7FF0000000000000ll);
    const __m256i mant = _mm256_set1_epi64x(0x000FFFFFFFFFFFFFll);
    const __m256d sign = _mm256_set1_pd(-0.0), keep = _mm256_set1_pd(VLOG_KEEP * 0x1p-52);
    for (int i = 0; i + 4 <= n; i += 4) {
        const __m256d qd = _mm256_loadu_pd(q + i);
        const __m256i x = _mm256_castpd_si256(qd), t = _mm256_sub_epi64(x, off);
        const __m256i j = _mm256_and_si256(_mm256_srli_epi64(t, 52 - VLOG_BITS), jmask);
        const __m256d z = _mm256_castsi256_pd(_mm256_sub_epi64(x, _mm256_and_si256(t, top)));
        /* k = t >> 52 (arithmetic): the high halves' top 12 bits */
        const __m256d kd = _mm256_cvtepi32_pd(
            _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_srai_epi32(t, 20), odd)));
        /* the four rows, transposed (faster than three gathers on Zen 3) */
        int64_t ji[4];
        _mm256_storeu_si256((__m256i *)ji, j);
        const __m256d w0 = _mm256_load_pd(vlog_tab.row[ji[0]]), w1 = _mm256_load_pd(vlog_tab.row[ji[1]]);
        const __m256d w2 = _mm256_load_pd(vlog_tab.row[ji[2]]), w3 = _mm256_load_pd(vlog_tab.row[ji[3]]);
        /* u0 = c c ll ll, u1 = lh lh 0 0 of lanes 0 and 1; u2, u3 of 2 and 3 */
        const __m256d u0 = _mm256_unpacklo_pd(w0, w1), u1 = _mm256_unpackhi_pd(w0, w1);
        const __m256d u2 = _mm256_unpacklo_pd(w2, w3), u3 = _mm256_unpackhi_pd(w2, w3);
        const __m256d c = _mm256_permute2f128_pd(u0, u2, 0x20), ll = _mm256_permute2f128_pd(u0, u2, 0x31);
        const __m256d lh = _mm256_permute2f128_pd(u1, u3, 0x20);
        __m256d H, L;
        vlog4(z, c, lh, ll, kd, &H, &L);
        const __m256i hb = _mm256_castpd_si256(H);
        const __m256d ulp1 = _mm256_castsi256_pd(_mm256_and_si256(hb, expo)); /* 2^e: ulp 2^(e-52) */
        const __m256d pow2 = _mm256_castsi256_pd(
            _mm256_cmpeq_epi64(_mm256_and_si256(hb, mant), _mm256_setzero_si256()));
        const __m256d below1 = _mm256_cmp_pd(qd, _mm256_set1_pd(1.0), _CMP_LT_OQ);
        __m256d ok = _mm256_cmp_pd(_mm256_andnot_pd(sign, L), _mm256_mul_pd(ulp1, keep), _CMP_LE_OQ);
        ok = _mm256_andnot_pd(pow2, ok);
        ok = _mm256_and_pd(ok, _mm256_cmp_pd(qd, _mm256_set1_pd(0x1p-1000), _CMP_GE_OQ));
        _mm256_storeu_pd(out + i, _mm256_and_pd(H, below1));
        bad[i / 4] = (unsigned char)_mm256_movemask_pd(_mm256_andnot_pd(ok, below1));
    }
}

#endif

int tbrfi_fft_log(int isa, int n, const double *q, double *out)
{
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    /* AVX-512 machines run the AVX2 kernel too: an 8-lane one has not been
     * run on such a machine yet, and these bits must be right */
    if (isa >= CPU_ISA_AVX2) {
        pthread_once(&vlog_once, vlog_init);
        unsigned char masks[VLOG_CHUNK / 4];
        int bad[VLOG_CHUNK + 4], calls = 0;
        for (int i0 = 0; i0 < n; i0 += VLOG_CHUNK) {
            const int m = n - i0 < VLOG_CHUNK ? n - i0 : VLOG_CHUNK, body = m - m % 4;
            vlog_avx2(body, q + i0, out + i0, masks);
            if (body < m) { /* the tail as one vector, padded with 1 (log: 0, no call) */
                double qt[4] = {1, 1, 1, 1}, ot[4];
                memcpy(qt, q + i0 + body, sizeof(double) * (size_t)(m - body));
                vlog_avx2(4, qt, ot, masks + body / 4);
                memcpy(out + i0 + body, ot, sizeof(double) * (size_t)(m - body));
            }
            int nb = 0;
            for (int v = 0; v < (m + 3) / 4; v++)
                nb = push_bad(bad, nb, 4 * v, masks[v]);
            for (int b = 0; b < nb; b++)
                out[i0 + bad[b]] = log(q[i0 + bad[b]]);
            calls += nb;
        }
        return calls;
    }
#endif
    (void)isa;
    return vlog_portable(n, q, out);
}
