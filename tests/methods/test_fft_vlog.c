#define _POSIX_C_SOURCE 200809L
/* test_fft_vlog.c — the FFT method's logarithms (methods/fft/vlog.c)
 * bitwise the C library's log on every ISA level this CPU runs (portable,
 * AVX2, AVX-512, which runs the AVX2 kernel), which keeps the fields' bits (test_fft_modes_simd,
 * cli_fixtures_bitwise) whatever path draws them:
 *   - 2^24 values q = u^2 + v^2 < 1 distributed as the Marsaglia step's
 *     (u, v from Philox words as the FFT method maps them);
 *   - edge cases: q near 1 (1 - i 2^-53, log near 0, where relative error
 *     is hardest) and near 1/2, every chunk boundary of the table ±64 ulp,
 *     powers of two, the smallest q the step can make (~2^-63), random
 *     bit patterns over [2^-1000, 1), and 0, subnormals, 1, >1, inf, NaN
 *     (out of the vector range: log, or 0 for q >= 1);
 * in blocks of every length 1..37 at every offset, so the vector tails
 * are covered. Also: the SIMD paths call log for at most 15% of the
 * Marsaglia values (the filter keeps |L| <= 0.44 ulp: about 12%), so they
 * are not log by another name. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpu_isa.h"
#include "methods/fft/vlog.h"
#include "support/testutil.h"
#include "tbrf/rng/philox.h"

static double s11(uint32_t x)
{
    return ((double)x + 0.5) * (1.0 / 2147483648.0) - 1.0;
}

static double from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* n Marsaglia values q < 1 from Philox words of a fixed key. */
static int64_t marsaglia_inputs(double *q, int64_t n)
{
    int64_t k = 0;
    for (uint32_t c = 0; k < n; c++) {
        const philox4x32_ctr_t w = tbrf_philox(0x5EEDull, 3, c, 0x80000000u);
        for (int p = 0; p < 4 && k < n; p += 2) {
            const double u = s11(w.v[p]), v = s11(w.v[p + 1]), s = u * u + v * v;
            if (s < 1.0)
                q[k++] = s;
        }
    }
    return k;
}

/* The edge cases into q; returns how many. */
static int64_t edge_inputs(double *q, int64_t cap)
{
    int64_t k = 0;
    for (int64_t i = 1; i <= 65536 && k < cap; i++)
        q[k++] = 1.0 - (double)i * 0x1p-53;
    for (int64_t i = -4096; i <= 4096 && k < cap; i++)
        q[k++] = 0.5 + (double)i * 0x1p-53;
    /* the table's chunks start at bits 0x3FE6900000000000 + j 2^45 */
    for (int64_t j = 0; j <= 128; j++)
        for (int64_t e = -3; e <= 0; e++)
            for (int64_t d = -64; d <= 64 && k < cap; d++)
                q[k++] = ldexp(from_bits(0x3FE6900000000000ull + ((uint64_t)j << 45) + (uint64_t)d), (int)e);
    for (int e = -1074; e <= 2 && k < cap; e++)
        q[k++] = ldexp(1.0, e);
    const double u0 = s11(0x7FFFFFFFu), u1 = s11(0x80000000u); /* the |u| nearest 0 */
    q[k++] = u0 * u0 + u0 * u0;
    q[k++] = u1 * u1 + u0 * u0;
    q[k++] = u1 * u1 + u1 * u1;
    tu_rng r = {12345};
    for (int64_t i = 0; i < 1000000 && k < cap; i++) {
        const double x = ldexp(1.0 + tu_uniform(&r), -1 - (int)(tu_next(&r) % 999));
        q[k++] = x;
    }
    const double specials[] = {0.0, -0.0, 0x1p-1074, 0x1.8p-1030, 0x1p-1000, 0x1.fffffffffffffp-1001,
                               1.0, 1.5, 3.0, INFINITY, -1.0, NAN};
    for (size_t i = 0; i < sizeof specials / sizeof specials[0] && k < cap; i++)
        q[k++] = specials[i];
    return k;
}

/* log's bits (0 where q >= 1 or NaN), the contract of tbrfi_fft_log. */
static void reference(const double *q, int64_t n, double *want)
{
    for (int64_t i = 0; i < n; i++)
        want[i] = q[i] < 1.0 ? log(q[i]) : 0.0;
}

/* q[0..n) through tbrfi_fft_log(isa) in blocks of lengths 1..37 in turn
 * against want, bitwise. Returns the calls of log. */
static int64_t check_isa(int isa, const double *q, const double *want, int64_t n, double *got,
                         const char *what)
{
    int64_t calls = 0, bad = 0, first = -1;
    for (int64_t i = 0, len = 1; i < n; i += len, len = len % 37 + 1) {
        const int m = (int)(n - i < len ? n - i : len);
        calls += tbrfi_fft_log(isa, m, q + i, got + i);
    }
    for (int64_t i = 0; i < n; i++)
        if (bits_of(got[i]) != bits_of(want[i]) && bad++ == 0)
            first = i;
    CHECK(bad == 0, "%s, %s: %lld of %lld logs differ from log's bits (first: q = %a, log %a, got %a)",
          tbrfi_cpu_isa_name(isa), what, (long long)bad, (long long)n, first >= 0 ? q[first] : 0.0,
          first >= 0 ? want[first] : 0.0, first >= 0 ? got[first] : 0.0);
    return calls;
}

int main(void)
{
    unsetenv("TBRF_CPU_ISA");
    const int best = tbrfi_cpu_isa();
    printf("this CPU runs up to %s\n", tbrfi_cpu_isa_name(best));
    const int64_t nm = (int64_t)1 << 24, ne_cap = 2000000;
    double *q = tu_malloc(sizeof(double) * (size_t)(nm + ne_cap));
    double *want = tu_malloc(sizeof(double) * (size_t)(nm + ne_cap));
    double *got = tu_malloc(sizeof(double) * (size_t)(nm + ne_cap));
    marsaglia_inputs(q, nm);
    const int64_t ne = edge_inputs(q + nm, ne_cap);
    reference(q, nm + ne, want);
    for (int isa = CPU_ISA_PORTABLE; isa <= best; isa++) {
        const int64_t calls = check_isa(isa, q, want, nm, got, "Marsaglia q");
        check_isa(isa, q + nm, want + nm, ne, got + nm, "edge cases");
        const double share = (double)calls / (double)nm;
        printf("%s: log called for %.2f%% of the Marsaglia values\n", tbrfi_cpu_isa_name(isa),
               100.0 * share);
        if (isa == CPU_ISA_PORTABLE)
            CHECK(calls == nm, "portable: %lld calls of log for %lld values", (long long)calls, (long long)nm);
        else
            CHECK(share < 0.15, "%s calls log for %.1f%% of the values", tbrfi_cpu_isa_name(isa),
                  100.0 * share);
    }
    free(q);
    free(want);
    free(got);
    return check_report("test_fft_vlog");
}
