/* test_ic_lpt3.c — the third-order LPT potentials (cosmo_lpt3.c,
 * tbrfi_icc_lpt3_potentials; doc/ic.md) against the analytic terms of
 * plane-wave configurations, the expected modes worked out by hand here:
 *  - three waves phi1 = A cos kx + B cos ky + C cos kz: det(phi1,ij) =
 *    -ABC k^6 cx cy cz, so phi3a = ABC k^4/3 cx cy cz: mode (1,1,1) is
 *    ABC k^4/24 and (1,0,0) zero;
 *  - two waves (C = 0) with phi2 = -(AB k^2/2) cx cy: phi3b = (A^2B k^4/4)
 *    (cy + cos2kx cy/5) + (AB^2 k^4/4)(cx + cx cos2ky/5), modes (0,1,0)
 *    A^2B k^4/8, (2,1,0) A^2B k^4/80, (1,0,0) AB^2 k^4/8, (1,2,0)
 *    AB^2 k^4/80; A3c_z = (A^2B k^4/20) sin2kx sy - (AB^2 k^4/20) sx sin2ky,
 *    mode (2,1,0) -A^2B k^4/80, (1,2,0) +AB^2 k^4/80;
 *  - amplitudes x2 (phi2 x4): every term x8 (the D1^3 scaling);
 *  - phi1 = A cos k(x+y) and phi2 = B cos k(x+y) (one diagonal direction,
 *    off-diagonal Hessians): every term vanishes (the -2 phi1,ij phi2,ij
 *    of 3b cancels the diagonal products, the cross products of 3c are of
 *    parallel vectors);
 *  - two calls give the same bits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "tbrf.h"
#include "apps/ic/cosmo_internal.h"

#define G 8
#define NH (G / 2 + 1)
#define HC (G * G * NH)

static double *re(fftw_complex *a, int x, int y, int z)
{
    return &a[((size_t)((z + G) % G) * G + (size_t)((y + G) % G)) * NH + (size_t)x][0];
}

/* phi1 of amplitudes A B C (unnormalised c2r convention) and phi2 of the
 * A B pair. */
static void waves(double A, double B, double C, double k, fftw_complex *p1, fftw_complex *p2)
{
    memset(p1, 0, HC * sizeof *p1);
    memset(p2, 0, HC * sizeof *p2);
    *re(p1, 1, 0, 0) = A / 2;
    *re(p1, 0, 1, 0) = *re(p1, 0, -1, 0) = B / 2;
    *re(p1, 0, 0, 1) = *re(p1, 0, 0, -1) = C / 2;
    /* cx cy = (1/4) sum over the four sign pairs; stored x >= 0 only */
    *re(p2, 1, 1, 0) = *re(p2, 1, -1, 0) = -(A * B * k * k / 2) / 4;
}

static int run(double A, double B, double C, fftw_complex *out[5])
{
    fftw_complex *p1 = fftw_malloc(HC * sizeof *p1), *p2 = fftw_malloc(HC * sizeof *p2);
    const double k = 2 * 3.14159265358979323846;
    waves(A, B, C, k, p1, p2);
    int st = tbrfi_icc_lpt3_potentials(G, k, p1, p2, out);
    fftw_free(p1);
    fftw_free(p2);
    return st;
}

static void alloc5(fftw_complex *o[5])
{
    for (int i = 0; i < 5; i++)
        o[i] = fftw_malloc(HC * sizeof(fftw_complex));
}

static void free5(fftw_complex *o[5])
{
    for (int i = 0; i < 5; i++)
        fftw_free(o[i]);
}

static void three_waves(void)
{
    const double A = 0.3, B = -0.2, C = 0.5, k = 2 * 3.14159265358979323846;
    fftw_complex *o[5];
    alloc5(o);
    CHECK(run(A, B, C, o) == TBRF_OK, "3a run");
    const double want = A * B * C * pow(k, 4) / 24, tol = 1e-12 * fabs(want);
    CHECK_NEAR(*re(o[0], 1, 1, 1), want, tol, "phi3a (1,1,1)");
    CHECK_NEAR(*re(o[0], 1, -1, 1), want, tol, "phi3a (1,-1,1)");
    CHECK_NEAR(*re(o[0], 1, 0, 0), 0.0, tol, "phi3a (1,0,0)");
    free5(o);
}

static void two_waves(void)
{
    const double A = 0.3, B = -0.2, k = 2 * 3.14159265358979323846, k4 = pow(k, 4);
    fftw_complex *o[5], *o2[5], *o3[5];
    alloc5(o);
    alloc5(o2);
    alloc5(o3);
    CHECK(run(A, B, 0, o) == TBRF_OK, "3b run");
    const double tol = 1e-12 * A * A * fabs(B) * k4;
    CHECK_NEAR(*re(o[0], 1, 1, 0), 0.0, tol, "phi3a vanishes with two waves");
    CHECK_NEAR(*re(o[1], 0, 1, 0), A * A * B * k4 / 8, tol, "phi3b (0,1,0)");
    CHECK_NEAR(*re(o[1], 2, 1, 0), A * A * B * k4 / 80, tol, "phi3b (2,1,0)");
    CHECK_NEAR(*re(o[1], 1, 0, 0), A * B * B * k4 / 8, tol, "phi3b (1,0,0)");
    CHECK_NEAR(*re(o[1], 1, 2, 0), A * B * B * k4 / 80, tol, "phi3b (1,2,0)");
    CHECK_NEAR(*re(o[4], 2, 1, 0), -A * A * B * k4 / 80, tol, "A3c_z (2,1,0)");
    CHECK_NEAR(*re(o[4], 1, 2, 0), A * B * B * k4 / 80, tol, "A3c_z (1,2,0)");
    CHECK(run(2 * A, 2 * B, 0, o2) == TBRF_OK, "x2 run");
    for (int t = 0; t < 5; t++)
        for (size_t i = 0; i < HC; i++)
            for (int c = 0; c < 2; c++)
                if (fabs(o2[t][i][c] - 8 * o[t][i][c]) > 8 * tol) {
                    CHECK_FAIL("term %d mode %zu: %g not 8 x %g", t, i, o2[t][i][c], o[t][i][c]);
                    t = 5, i = HC, c = 2;
                }
    CHECK(run(A, B, 0, o3) == TBRF_OK, "rerun");
    int same = 1;
    for (int t = 0; t < 5; t++)
        same &= memcmp(o[t], o3[t], HC * sizeof(fftw_complex)) == 0;
    CHECK(same, "two calls give the same bits");
    free5(o);
    free5(o2);
    free5(o3);
}

static void diagonal(void)
{
    const double A = 0.3, B = -0.2, k = 2 * 3.14159265358979323846, k4 = pow(k, 4);
    fftw_complex *p1 = fftw_malloc(HC * sizeof *p1), *p2 = fftw_malloc(HC * sizeof *p2), *o[5];
    alloc5(o);
    memset(p1, 0, HC * sizeof *p1);
    memset(p2, 0, HC * sizeof *p2);
    *re(p1, 1, 1, 0) = A / 2;
    *re(p2, 1, 1, 0) = B / 2;
    CHECK(tbrfi_icc_lpt3_potentials(G, k, p1, p2, o) == TBRF_OK, "diagonal run");
    double worst = 0;
    for (int t = 0; t < 5; t++)
        for (size_t i = 0; i < HC; i++)
            worst = fmax(worst, fmax(fabs(o[t][i][0]), fabs(o[t][i][1])));
    CHECK(worst < 1e-12 * A * fabs(B) * k4, "one direction: terms vanish (largest %g)", worst);
    free5(o);
    fftw_free(p1);
    fftw_free(p2);
}

int main(void)
{
    diagonal();
    three_waves();
    two_waves();
    return check_report("test_ic_lpt3");
}
