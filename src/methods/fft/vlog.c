/* vlog.c — log(q) for blocks of q, bitwise the C library's log, in SIMD.
 *
 * The FFT method's field is defined with the C library's log (one per
 * mode, in Marsaglia's polar step), so a vector logarithm may only be used
 * where it gives the same bits. It does by a rounding filter:
 *
 * 1. Each lane computes y = log q as a double-double H + L with
 *    |H + L - y| < 2^-60 |y| (the argument below), H the double nearest to
 *    H + L (so |L| <= ulp(H) / 2).
 * 2. Where |L| <= 0.44 ulp(H) and H is not a power of two, the exact y is
 *    within 0.44 + 2^-7 < 0.45 ulp of H, so every other double is more
 *    than 0.55 ulp from y, and any logarithm whose error is below 0.55 ulp
 *    returns H. glibc's log (the one the fixtures were made with) is
 *    documented, in its sysdeps/ieee754/dbl-64/e_log.c, to err by at most
 *    0.5 + 4.13/128 ulp plus its polynomial's error (about 0.533 ulp; 0.519
 *    measured) — below 0.55. A power of two H has a nearer neighbour below
 *    (half the ulp), so it is not kept.
 * 3. Every other lane (about 12% of them: |L| is spread evenly over
 *    [0, ulp/2]) calls log itself.
 * So the result is bitwise log's wherever log errs by less than 0.55 ulp,
 * which a C library whose log were worse would break (test_fft_vlog
 * compares against log bit for bit over 2^24 inputs).
 *
 * The double-double logarithm (own construction; Tang's table method):
 *   q = 2^k z with z in [Z0, 2 Z0), Z0 = 0.705..., cut into 128 chunks of
 *   equal bit width (j = the 7 bits of the representation below the
 *   exponent, after subtracting Z0's); c_j = 1/mid_j rounded, and c = 1
 *   exactly for the chunk around 1, which spans [1 - 2^-9, 1 + 2^-8).
 *   z c = p + pl exactly (product and FMA remainder), rh = p - 1 exactly
 *   (Sterbenz), r = rh + pl, |r| < 2^-8, and
 *     log q = k ln2 - log c + r + (log1p(r) - r)
 *           = [k LN2H + (-log c)_hi] + rh - rh^2/2 + small terms,
 *   each sum of big terms kept exact by TwoSum / Fast2Sum, -rh^2/2 split
 *   exactly by an FMA, -rh pl added (the rest of -r^2/2; pl^2 < 2^-108 is
 *   dropped), and log1p(r) - r + r^2/2 = r^3 (1/3 - r/4 + ... - r^5/8)
 *   (Taylor, next term < r^9/9 < 2^-75).
 * Error: outside the chunk around 1 with k = 0, |y| >= 2^-9 (k != 0:
 *   |y| >= ln2 - log(2 Z0) > 0.34), and the absolute errors are each below
 *   2^-70: the table (-log c in double-double, summed from the atanh
 *   series at first use: < 2^-100), ln2 split into LN2H (42 bits: k LN2H
 *   exact for |k| < 2^11) and LN2L (rounded: < 2^-95 |k|), the series'
 *   truncation and rounding (< 2^-75), r^3's use of r rounded to a double
 *   (< 2^-77), and the final sum of the small terms (< 2^-85); so the
 *   relative error is below 2^-61. In the chunk around 1 with k = 0 the
 *   table and ln2 terms are exactly 0, r = rh exactly, |y| > |r| (1 -
 *   2^-8), and the errors are relative to r: < 2^-64. ulp(H) > 2^-53 |y|,
 *   so 2^-60 |y| < 2^-7 ulp. Inputs outside [2^-1000, 1) take log (or 0). */
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
/* a lane keeps its own rounding where |L| <= VLOG_KEEP ulp(H) */
#define VLOG_KEEP 0.44

static struct {
    double c[VLOG_N], lh[VLOG_N], ll[VLOG_N]; /* c_j and -log c_j = lh + ll */
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
        if (j == VLOG_ONE) {
            vlog_tab.c[j] = 1.0;
            vlog_tab.lh[j] = vlog_tab.ll[j] = 0.0;
            continue;
        }
        const uint64_t mb = VLOG_OFF + ((uint64_t)j << (52 - VLOG_BITS)) + ((uint64_t)1 << (51 - VLOG_BITS));
        double mid;
        memcpy(&mid, &mb, sizeof mid);
        vlog_tab.c[j] = 1.0 / mid;
        const dd l = log_dd(vlog_tab.c[j]);
        vlog_tab.lh[j] = -l.h;
        vlog_tab.ll[j] = -l.l;
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

/* The double-double logarithm of the lanes (comment at the top): from z,
 * c = c_j, (lh, ll) = -log c_j and kd = k, sets H (the rounded log) and L
 * (the rest). P is the intrinsics' prefix, V the vector type. */
#define VLOG_CORE(P, V, z, c, lh, ll, kd, H, L)                                                    \
    do {                                                                                           \
        const V p_ = P##_mul_pd(z, c), pl_ = P##_fmsub_pd(z, c, p_);                               \
        const V rh_ = P##_sub_pd(p_, P##_set1_pd(1.0));                                            \
        const V t1_ = P##_mul_pd(kd, P##_set1_pd(vlog_tab.ln2h));                                  \
        const V s_ = P##_add_pd(t1_, lh), se_ = P##_sub_pd(lh, P##_sub_pd(s_, t1_));               \
        const V hi_ = P##_add_pd(s_, rh_), b_ = P##_sub_pd(hi_, s_);                               \
        const V e2_ = P##_add_pd(P##_sub_pd(s_, P##_sub_pd(hi_, b_)), P##_sub_pd(rh_, b_));        \
        const V sq_ = P##_mul_pd(rh_, rh_), half_ = P##_set1_pd(-0.5);                             \
        const V m_ = P##_mul_pd(half_, sq_), ml_ = P##_mul_pd(half_, P##_fmsub_pd(rh_, rh_, sq_)); \
        const V r_ = P##_add_pd(rh_, pl_);                                                         \
        V a_ = P##_fmadd_pd(P##_set1_pd(-1.0 / 8), r_, P##_set1_pd(1.0 / 7));                      \
        a_ = P##_fmadd_pd(a_, r_, P##_set1_pd(-1.0 / 6));                                          \
        a_ = P##_fmadd_pd(a_, r_, P##_set1_pd(1.0 / 5));                                           \
        a_ = P##_fmadd_pd(a_, r_, P##_set1_pd(-1.0 / 4));                                          \
        a_ = P##_fmadd_pd(a_, r_, P##_set1_pd(1.0 / 3));                                           \
        const V q3_ = P##_mul_pd(P##_mul_pd(r_, P##_mul_pd(r_, r_)), a_);                          \
        const V h2_ = P##_add_pd(hi_, m_), e3_ = P##_sub_pd(m_, P##_sub_pd(h2_, hi_));             \
        V lo_ = P##_sub_pd(P##_add_pd(q3_, ml_), P##_mul_pd(rh_, pl_));                            \
        lo_ = P##_add_pd(lo_, P##_add_pd(pl_, ll));                                                \
        lo_ = P##_add_pd(lo_, P##_mul_pd(kd, P##_set1_pd(vlog_tab.ln2l)));                         \
        lo_ = P##_add_pd(lo_, P##_add_pd(se_, P##_add_pd(e2_, e3_)));                              \
        H = P##_add_pd(h2_, lo_);                                                                  \
        L = P##_sub_pd(lo_, P##_sub_pd(H, h2_));                                                   \
    } while (0)

/* The lanes of `keep` (bit l: lane l) hold log's bits in out[0..w); the
 * others call log (or are 0 where q >= 1). Returns the calls. */
static int vlog_fix(int w, unsigned keep, const double *q, double *out)
{
    int calls = 0;
    for (int l = 0; l < w; l++)
        if (!(keep >> l & 1u)) {
            out[l] = q[l] < 1.0 ? log(q[l]) : 0.0;
            calls += q[l] < 1.0;
        }
    return calls;
}

__attribute__((target("avx2,fma"))) static int vlog_avx2(int n, const double *restrict q,
                                                         double *restrict out)
{
    const __m256i off = _mm256_set1_epi64x((long long)VLOG_OFF);
    const __m256i top = _mm256_set1_epi64x((long long)0xFFF0000000000000ull);
    const __m256i jmask = _mm256_set1_epi64x(VLOG_N - 1), odd = _mm256_set_epi32(7, 5, 3, 1, 7, 5, 3, 1);
    const __m256i expo = _mm256_set1_epi64x(0x7FF0000000000000ll);
    const __m256i mant = _mm256_set1_epi64x(0x000FFFFFFFFFFFFFll);
    const __m256d sign = _mm256_set1_pd(-0.0), keep = _mm256_set1_pd(VLOG_KEEP * 0x1p-52);
    int calls = 0, i = 0;
    for (; i + 4 <= n; i += 4) {
        const __m256d qd = _mm256_loadu_pd(q + i);
        const __m256i x = _mm256_castpd_si256(qd), t = _mm256_sub_epi64(x, off);
        const __m256i j = _mm256_and_si256(_mm256_srli_epi64(t, 52 - VLOG_BITS), jmask);
        const __m256d z = _mm256_castsi256_pd(_mm256_sub_epi64(x, _mm256_and_si256(t, top)));
        /* k = t >> 52 (arithmetic): the high halves' top 12 bits */
        const __m256d kd = _mm256_cvtepi32_pd(
            _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_srai_epi32(t, 20), odd)));
        const __m256d c = _mm256_i64gather_pd(vlog_tab.c, j, 8);
        const __m256d lh = _mm256_i64gather_pd(vlog_tab.lh, j, 8);
        const __m256d ll = _mm256_i64gather_pd(vlog_tab.ll, j, 8);
        __m256d H, L;
        VLOG_CORE(_mm256, __m256d, z, c, lh, ll, kd, H, L);
        const __m256i hb = _mm256_castpd_si256(H);
        const __m256d ulp1 = _mm256_castsi256_pd(_mm256_and_si256(hb, expo)); /* 2^e: ulp 2^(e-52) */
        const __m256d pow2 = _mm256_castsi256_pd(
            _mm256_cmpeq_epi64(_mm256_and_si256(hb, mant), _mm256_setzero_si256()));
        __m256d ok = _mm256_cmp_pd(_mm256_andnot_pd(sign, L), _mm256_mul_pd(ulp1, keep), _CMP_LE_OQ);
        ok = _mm256_andnot_pd(pow2, ok);
        ok = _mm256_and_pd(ok, _mm256_cmp_pd(qd, _mm256_set1_pd(0x1p-1000), _CMP_GE_OQ));
        ok = _mm256_and_pd(ok, _mm256_cmp_pd(qd, _mm256_set1_pd(1.0), _CMP_LT_OQ));
        _mm256_storeu_pd(out + i, H);
        const unsigned m = (unsigned)_mm256_movemask_pd(ok);
        if (m != 15u)
            calls += vlog_fix(4, m, q + i, out + i);
    }
    return calls;
}

__attribute__((target("avx512f,avx512dq"))) static int vlog_avx512(int n, const double *restrict q,
                                                                   double *restrict out)
{
    const __m512i off = _mm512_set1_epi64((long long)VLOG_OFF);
    const __m512i top = _mm512_set1_epi64((long long)0xFFF0000000000000ull);
    const __m512i jmask = _mm512_set1_epi64(VLOG_N - 1);
    const __m512i expo = _mm512_set1_epi64(0x7FF0000000000000ll);
    const __m512i mant = _mm512_set1_epi64(0x000FFFFFFFFFFFFFll);
    const __m512d keep = _mm512_set1_pd(VLOG_KEEP * 0x1p-52);
    int calls = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m512d qd = _mm512_loadu_pd(q + i);
        const __m512i x = _mm512_castpd_si512(qd), t = _mm512_sub_epi64(x, off);
        const __m512i j = _mm512_and_si512(_mm512_srli_epi64(t, 52 - VLOG_BITS), jmask);
        const __m512d z = _mm512_castsi512_pd(_mm512_sub_epi64(x, _mm512_and_si512(t, top)));
        const __m512d kd = _mm512_cvtepi64_pd(_mm512_srai_epi64(t, 52));
        const __m512d c = _mm512_i64gather_pd(j, vlog_tab.c, 8);
        const __m512d lh = _mm512_i64gather_pd(j, vlog_tab.lh, 8);
        const __m512d ll = _mm512_i64gather_pd(j, vlog_tab.ll, 8);
        __m512d H, L;
        VLOG_CORE(_mm512, __m512d, z, c, lh, ll, kd, H, L);
        const __m512i hb = _mm512_castpd_si512(H);
        const __m512d ulp1 = _mm512_castsi512_pd(_mm512_and_si512(hb, expo));
        __mmask8 ok = _mm512_cmp_pd_mask(_mm512_abs_pd(L), _mm512_mul_pd(ulp1, keep), _CMP_LE_OQ);
        ok &= _mm512_test_epi64_mask(hb, mant); /* not a power of two */
        ok &= _mm512_cmp_pd_mask(qd, _mm512_set1_pd(0x1p-1000), _CMP_GE_OQ);
        ok &= _mm512_cmp_pd_mask(qd, _mm512_set1_pd(1.0), _CMP_LT_OQ);
        _mm512_storeu_pd(out + i, H);
        if (ok != 0xFF)
            calls += vlog_fix(8, ok, q + i, out + i);
    }
    return calls;
}
#endif

int tbrfi_fft_log(int isa, int n, const double *q, double *out)
{
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    if (isa >= CPU_ISA_AVX2) {
        pthread_once(&vlog_once, vlog_init);
        int (*const f)(int, const double *restrict, double *restrict) =
            isa >= CPU_ISA_AVX512 ? vlog_avx512 : vlog_avx2;
        const int w = isa >= CPU_ISA_AVX512 ? 8 : 4, body = n - n % w;
        int calls = f(body, q, out);
        if (body < n) { /* the tail as one vector, padded with 1 (log: 0, no call) */
            double qt[8] = {1, 1, 1, 1, 1, 1, 1, 1}, ot[8];
            memcpy(qt, q + body, sizeof(double) * (size_t)(n - body));
            calls += f(w, qt, ot);
            memcpy(out + body, ot, sizeof(double) * (size_t)(n - body));
        }
        return calls;
    }
#endif
    (void)isa;
    return vlog_portable(n, q, out);
}
