/* test_isotropy_rule.c — the default lines of `tbrf generate` on a grid
 * (the library's tbrf_default_lines, which the command records, and
 * cli/isotropy.c's warning): the lines whose isotropy limit is the
 * grid's Nyquist, 1024 to 16384, and no isotropy warning for them on the
 * README's and scripts/demo.sh's grids (128^3 and 256^3, too slow to run
 * in a test: test_cli.sh readme_defaults runs the same options on 48^3
 * and checks that the rule computed here is the one the command records).
 * Prints the table doc/statistics.md quotes. */
#include <stdint.h>
#include <stdio.h>

#include "isotropy.h"
#include "tbrf.h"

static int failures;

static void check(int dim, int64_t n, double h, int want_lines, int want_short)
{
    const int64_t g[3] = {n, n, dim == 3 ? n : 1};
    const double s[3] = {h, h, h};
    const double lo[3] = {0, 0, 0}, hi[3] = {h * (double)(n - 1), h * (double)(n - 1),
                                             dim == 3 ? h * (double)(n - 1) : 0};
    int32_t lines = 0;
    if (tbrf_default_lines(dim, lo, hi, h, g, s, NULL, &lines) != TBRF_OK)
        failures++;
    cli_isotropy iso;
    cli_isotropy_of(dim, g, s, lines, &iso);
    printf("%dD %lld: default lines %d, isotropic to %.0f%% of the Nyquist, %s\n", dim,
           (long long)n, (int)lines, 100.0 * iso.kiso / iso.knyq,
           cli_isotropy_short(&iso) ? "warns" : "quiet");
    if (lines != want_lines || cli_isotropy_short(&iso) != want_short) {
        printf("  FAIL: expected %d lines, %s\n", want_lines, want_short ? "warns" : "quiet");
        failures++;
    }
}

int main(void)
{
    /* 3D: (n/2 / 0.63)^2 lines, at least 1024 (32^3 keeps the library's
     * default), at most 16384: quiet up to 2 * 0.63 * 128 = 161 cells
     * at the Nyquist and up to 322 at half of it; 512^3 warns */
    check(3, 32, 1.0, 1024, 0);
    check(3, 48, 1.0, 1452, 0);
    check(3, 64, 1.0, 2580, 0);
    check(3, 128, 1.0, 10320, 0); /* scripts/demo.sh, README */
    check(3, 128, 0.25, 10320, 0); /* spacing does not matter */
    check(3, 256, 1.0, 16384, 0); /* README, mpirun */
    check(3, 322, 1.0, 16384, 0);
    check(3, 512, 1.0, 16384, 1);
    /* 2D: (n/2) / 0.57 lines: the minimum 1024 up to 1167 cells */
    check(2, 256, 1.0, 1024, 0); /* README */
    check(2, 2048, 1.0, 1797, 0);
    /* 4096^2 would take 3593, but its lines are 2 x 5791 x 4 samples:
     * 1 GiB holds 2897 of them (the memory bound) */
    check(2, 4096, 1.0, 2897, 0);
    /* anisotropic spacing: the coarsest axis's Nyquist (tbrf spectrum's) */
    const int64_t g[3] = {64, 64, 32};
    const double s[3] = {1.0, 1.0, 2.0};
    cli_isotropy iso;
    cli_isotropy_of(3, g, s, 1024, &iso);
    if (!(iso.knyq > 1.5707 && iso.knyq < 1.5709)) {
        printf("FAIL: 64x64x32 spacing 1,1,2 Nyquist %g, not pi/2\n", iso.knyq);
        failures++;
    }
    if (failures)
        printf("%d failure(s)\n", failures);
    return failures != 0;
}
