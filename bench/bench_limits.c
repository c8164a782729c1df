/* bench_limits.c — what this core can do for the grid projection (to
 * "state the machine's limit for this kernel and how far each path
 * is from it"), without hardware counters (virtual machines often have
 * none), on one thread:
 *   clock:   a chain of dependent 64-bit adds (one cycle each on every
 *            x86 core since the Pentium 4), so cycles = ns x GHz below;
 *   gather:  independent 8-lane vgatherqpd from L1 (AVX-512 CPUs), the
 *            fetch of the avx512-gather kernel (two per 8 cells);
 *   kernel:  each SIMD level of the library's grid kernel
 *            (tbrfi_cpu_grid_kernel) on rows of 64 cells and blocks of 16
 *            lines whose samples all sit in L1, the slopes |sx| of random
 *            directions (uniform on [0, 4], oversampling 4): its speed
 *            when memory costs nothing, the ceiling for the whole
 *            projection (bench_projection), which also reads lines from
 *            L2/L3 and runs the tiles around the kernel.
 * Prints ns and cycles per cell·line; asserts nothing.
 * Usage: bench_limits [repeats=5] */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "backends/cpu/cpu_kernels.h"
#include "core/cpu_isa.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define LIMITS_X86 1
#include <immintrin.h>
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* GHz from 10^9 dependent adds (best of reps). */
static double clock_ghz(int reps)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        uint64_t x = 1;
        const double t0 = now();
        for (long i = 0; i < 200000000L; i++) {
#ifdef LIMITS_X86
            __asm__ volatile("add $1, %0" : "+r"(x));
#else
            x = x * 3 + 1; /* not one cycle: the figure is then a lower bound */
#endif
        }
        const double t = now() - t0;
        best = t < best ? t : best;
        if (x == 0)
            puts("");
    }
    return 0.2 / best;
}

#ifdef LIMITS_X86
/* ns per 8-lane gather from L1 (four independent chains). */
__attribute__((target("avx512f"))) static double gather_ns(int reps)
{
    static double y[4096];
    for (int i = 0; i < 4096; i++)
        y[i] = (double)i;
    const __m512i j0 = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i j1 = _mm512_add_epi64(j0, _mm512_set1_epi64(13)), j2 = _mm512_add_epi64(j0, _mm512_set1_epi64(29)),
                  j3 = _mm512_add_epi64(j0, _mm512_set1_epi64(51));
    double best = 1e30, sink = 0;
    const long n = 20000000;
    for (int r = 0; r < reps; r++) {
        __m512d a0 = _mm512_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
        const double t0 = now();
        for (long i = 0; i < n; i++) {
            a0 = _mm512_add_pd(a0, _mm512_i64gather_pd(j0, y, 8));
            a1 = _mm512_add_pd(a1, _mm512_i64gather_pd(j1, y, 8));
            a2 = _mm512_add_pd(a2, _mm512_i64gather_pd(j2, y, 8));
            a3 = _mm512_add_pd(a3, _mm512_i64gather_pd(j3, y, 8));
        }
        const double t = now() - t0;
        best = t < best ? t : best;
        sink += _mm512_reduce_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)));
    }
    if (sink == 0.5)
        puts("");
    return best / (4.0 * (double)n) * 1e9;
}
#endif

/* ns per cell·line of one kernel level with its samples in L1. */
static double kernel_ns(int isa, int reps)
{
    enum { NL = 16, NX = 64, M = 320 };
    static double lines[NL * M], rb[NL], sx[NL], acc[NX];
    uint64_t s = 88172645463325252ull;
    for (int i = 0; i < NL * M; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        lines[i] = (double)(s >> 11) * 0x1p-53 - 0.5;
    }
    for (int l = 0; l < NL; l++) {
        /* |u_x| of a random direction is uniform on [0, 1] */
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        const double a = 4.0 * (double)(s >> 11) * 0x1p-53;
        sx[l] = (l % 2 ? a : -a);
        rb[l] = sx[l] >= 0 ? 8.0 + 0.37 * l : 8.0 + 4.0 * NX + 0.37 * l;
    }
    const cpu_grid_fn k = tbrfi_cpu_grid_kernel(isa);
    const long calls = 400000;
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < NX; i++)
            acc[i] = 0.0;
        const double t0 = now();
        for (long c = 0; c < calls; c++)
            k(lines, M, rb, sx, NL, 0, NX, acc);
        const double t = now() - t0;
        best = t < best ? t : best;
    }
    if (acc[3] == 0.123)
        puts("");
    return best / ((double)calls * NX * NL) * 1e9;
}

int main(int argc, char **argv)
{
    const int reps = argc > 1 && atoi(argv[1]) > 0 ? atoi(argv[1]) : 5;
    const double ghz = clock_ghz(reps);
    printf("# bench_limits: one thread, best of %d; CPU kernels up to %s\n", reps,
           tbrfi_cpu_isa_name(tbrfi_cpu_isa()));
    printf("%-44s %8.3f GHz\n", "clock (dependent adds)", ghz);
#ifdef LIMITS_X86
    if (tbrfi_cpu_isa() >= CPU_ISA_AVX512) {
        const double g = gather_ns(reps);
        printf("%-44s %8.3f ns  %6.2f cycles\n", "vgatherqpd zmm (8 doubles) from L1", g, g * ghz);
        printf("%-44s %8.3f ns  %6.2f cycles\n", "  two per 8 cells: gathers alone per cell.line", g / 4,
               g / 4 * ghz);
        printf("LIMIT gather_ns %.4f\n", g);
    }
#endif
    for (int isa = tbrfi_cpu_isa(); isa >= CPU_ISA_PORTABLE; isa--) {
        const double ns = kernel_ns(isa, reps);
        char what[64];
        snprintf(what, sizeof what, "grid kernel %s, samples in L1", tbrfi_cpu_isa_name(isa));
        printf("%-44s %8.3f ns  %6.2f cycles per cell.line\n", what, ns, ns * ghz);
        printf("LIMIT kernel_l1_%s_ns %.4f\n", tbrfi_cpu_isa_name(isa), ns);
    }
    printf("LIMIT clock_ghz %.3f\n", ghz);
    return 0;
}
