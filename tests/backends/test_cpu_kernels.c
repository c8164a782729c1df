/* test_cpu_kernels.c — every SIMD version of the CPU projection's inner
 * loops that this CPU runs gives bitwise the values of the portable one
 * (cpu_kernels.h), for row lengths with every tail size, any start column,
 * both slope signs and slopes that select each fetch mode of the AVX-512
 * grid kernel (one window, two windows, gathers); and the plan's grid and
 * point results are bitwise the same whichever kernel set runs. */
#include "support/testutil.h"
#include "backends/cpu/cpu_kernels.h"

static void check_grid(int isa, tu_rng *r)
{
    const int64_t M = 4096;
    double *lines = tu_malloc(sizeof(double) * 40 * (size_t)M);
    for (int64_t i = 0; i < 40 * M; i++) lines[i] = tu_normal(r);
    const double slopes[] = {0.0, 0.3, 1.85, 1.86, 2.5, 4.3, 4.4, 9.0};
    int bad = 0;
    for (int trial = 0; trial < 200; trial++) {
        const int nl = 1 + (int)(tu_uniform(r) * 40);
        const int64_t n = 1 + (int64_t)(tu_uniform(r) * 300), lo = (int64_t)(tu_uniform(r) * 50);
        double rb[40], sx[40];
        for (int l = 0; l < nl; l++) {
            double s = slopes[(int)(tu_uniform(r) * 8)] * (tu_uniform(r) < 0.5 ? -1 : 1);
            sx[l] = s;
            /* keep t inside [2, M-4] over the row */
            rb[l] = s >= 0 ? 2.0 + tu_uniform(r) * 100 : 2.0 - s * (double)(lo + n) + tu_uniform(r) * 100;
        }
        double a[300], b[300];
        for (int64_t i = 0; i < n; i++) a[i] = b[i] = tu_normal(r);
        tbrfi_cpu_grid_portable(lines, M, rb, sx, nl, lo, n, a);
        tbrfi_cpu_grid_kernel(isa)(lines, M, rb, sx, nl, lo, n, b);
        bad += memcmp(a, b, sizeof(double) * (size_t)n) != 0;
    }
    CHECK(bad == 0, "grid kernel %s differs from portable in %d of 200 rows", tbrfi_cpu_isa_name(isa), bad);
    free(lines);
}

static void check_points(int isa, tu_rng *r)
{
    const int64_t M = 4096;
    const int nl = 37;
    double *lines = tu_malloc(sizeof(double) * nl * (size_t)M);
    for (int64_t i = 0; i < nl * M; i++) lines[i] = tu_normal(r);
    double axis[3 * 37];
    for (int l = 0; l < nl; l++)
        for (int c = 0; c < 3; c++) axis[3 * l + c] = 4.0 * (2.0 * tu_uniform(r) - 1.0);
    double shift[37]; /* per-line sub-sample shifts */
    for (int l = 0; l < nl; l++) shift[l] = tu_uniform(r);
    double dx[264], dy[264], dz[264], a[264], b[264];
    for (int i = 0; i < 264; i++) {
        dx[i] = 100 * (2 * tu_uniform(r) - 1);
        dy[i] = 100 * (2 * tu_uniform(r) - 1);
        dz[i] = 100 * (2 * tu_uniform(r) - 1);
        a[i] = b[i] = tu_normal(r);
    }
    tbrfi_cpu_points_portable(lines, M, axis, 2048.0, shift, nl, 264, dx, dy, dz, a);
    tbrfi_cpu_points_kernel(isa)(lines, M, axis, 2048.0, shift, nl, 264, dx, dy, dz, b);
    CHECK(memcmp(a, b, sizeof a) == 0, "point kernel %s differs from portable", tbrfi_cpu_isa_name(isa));
    free(lines);
}

int main(void)
{
    tu_rng r = {2026};
    const int best = tbrfi_cpu_isa();
    printf("this CPU runs kernels up to %s\n", tbrfi_cpu_isa_name(best));
    for (int isa = CPU_ISA_AVX2; isa <= best; isa++) {
        check_grid(isa, &r);
        check_points(isa, &r);
    }
    if (best == CPU_ISA_PORTABLE)
        printf("no SIMD kernel on this CPU: nothing to compare (skipped)\n");
    return check_report("test_cpu_kernels");
}
