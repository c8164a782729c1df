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
 *  - two calls give the same bits.
 * And through the public API (tbrf_ic_cosmo_params lpt 3), Psi3 the
 * difference of an lpt 3 and an lpt 2 run of one seed (its values against
 * an independent numpy 3LPT and monofonIC: tests/cli/arepo_cosmo_lpt3.py,
 * doc/arepo.md):
 *  - Psi1 and Psi2 the lpt 2 run's bits; Psi3 non-zero, below Psi2;
 *    velocities u3 - u2 = 3 velocity_factor Psi3 (f3 = 3 f1) to rounding;
 *    7 chunks give one chunk's bits;
 *  - gas: both species move by the same Psi3;
 *  - paired: Psi3 -> -Psi3, so a pair still sums to 2 (q + Psi2);
 *  - a glass that is a coarser lattice tiled (NUFFT) gets the lattice's
 *    Psi3;
 *  - refusals: lpt 4, push_rows2, a slab's IC (make_slab: no potential
 *    of its own; slab_bytes above lpt 2's) by generate, and a budget between the 2LPT and 3LPT estimates (2LPT made, 3LPT
 *    refused naming 3LPT). */
#define _POSIX_C_SOURCE 200809L
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

/* ------------------------------------------------ the public API */

/* (support/ic_cosmo.h's icx_make and icx_dwrap: that header brings
 * complex.h, which would make fftw_complex C99's complex type here.) */
static tbrf_ic_cosmo *icx_make(const tbrf_ic_cosmo_params *p)
{
    tbrf_ic_cosmo *ic = NULL;
    int st = tbrf_ic_cosmo_make(p, &ic);
    CHECK(st == TBRF_OK, "make: %s", tbrf_ic_cosmo_message(ic));
    if (st != TBRF_OK) {
        tbrf_ic_cosmo_destroy(ic);
        return NULL;
    }
    return ic;
}

static double icx_dwrap(double d, double box)
{
    return d - box * floor(d / box + 0.5);
}

typedef struct sink {
    int64_t next;
    double *pos, *vel, *gas;
} sink;

static int collect(void *user, const tbrf_ic_chunk *ch)
{
    sink *s = user;
    if (ch->first != s->next || (s->gas && ch->count > 0 && !ch->gas_pos))
        return 1;
    memcpy(s->pos + 3 * ch->first, ch->pos, (size_t)ch->count * 24);
    memcpy(s->vel + 3 * ch->first, ch->vel, (size_t)ch->count * 24);
    if (s->gas)
        memcpy(s->gas + 3 * ch->first, ch->gas_pos, (size_t)ch->count * 24);
    s->next += ch->count;
    return 0;
}

static sink run_ic(tbrf_ic_cosmo *ic, int64_t n, int64_t chunks, int gas)
{
    sink s = {0, malloc((size_t)n * 24), malloc((size_t)n * 24),
              gas ? malloc((size_t)n * 24) : NULL};
    CHECK(tbrf_ic_cosmo_generate(ic, chunks, collect, &s) == TBRF_OK && s.next == n,
          "generate %lld chunks: %s", (long long)chunks, tbrf_ic_cosmo_message(ic));
    return s;
}

static void sink_free(sink *s)
{
    free(s->pos);
    free(s->vel);
    free(s->gas);
}

static double *disp(tbrf_ic_cosmo *ic, int64_t n, int order)
{
    double *d = malloc((size_t)n * 24);
    int st = order == 1 ? tbrf_ic_cosmo_displacements(ic, d) : tbrf_ic_cosmo_displacements2(ic, d);
    CHECK(st == TBRF_OK, "displacements %d: %s", order, tbrf_ic_cosmo_message(ic));
    return d;
}

/* Psi3 = the lpt 3 run's positions - the lpt 2 run's (minimal image). */
static double *psi3_of(const sink *s3, const sink *s2, int64_t n, double box)
{
    double *d = malloc((size_t)n * 24);
    for (int64_t i = 0; i < 3 * n; i++)
        d[i] = icx_dwrap(s3->pos[i] - s2->pos[i], box);
    return d;
}

static void test_particles(void)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.particles = 12;
    p.redshift = 9;
    tbrf_ic_cosmo *two = icx_make(&p);
    p.lpt = 3;
    tbrf_ic_cosmo *three = icx_make(&p);
    if (!two || !three)
        return;
    tbrf_ic_cosmo_info f;
    tbrf_ic_cosmo_get_info(three, &f);
    const int64_t n = f.particles;
    double *a1 = disp(two, n, 1), *a2 = disp(two, n, 2), *b1 = disp(three, n, 1),
           *b2 = disp(three, n, 2);
    CHECK(memcmp(a1, b1, (size_t)n * 24) == 0 && memcmp(a2, b2, (size_t)n * 24) == 0,
          "lpt 3: Psi1 and Psi2 the lpt 2 run's bits");
    sink s2 = run_ic(two, n, 1, 0), s3 = run_ic(three, n, 1, 0), s7 = run_ic(three, n, 7, 0);
    CHECK(memcmp(s3.pos, s7.pos, (size_t)n * 24) == 0 &&
          memcmp(s3.vel, s7.vel, (size_t)n * 24) == 0, "lpt 3: 7 chunks give 1 chunk's bits");
    double *d3 = psi3_of(&s3, &s2, n, p.box);
    double m2 = 0, m3 = 0, wv = 0, vmax = 0;
    for (int64_t i = 0; i < 3 * n; i++) {
        m2 = fmax(m2, fabs(a2[i]));
        m3 = fmax(m3, fabs(d3[i]));
        wv = fmax(wv, fabs(s3.vel[i] - s2.vel[i] - 3.0 * f.velocity_factor * d3[i]));
        vmax = fmax(vmax, fabs(s3.vel[i]));
    }
    printf("3LPT: max |Psi3| %.3g kpc/h (|Psi2| %.3g), |u3 - u2 - 3 vf Psi3| %.2e of %.3g\n", m3,
           m2, wv, vmax);
    /* Psi3 from positions of size L: rounding 2.3e-16 L each */
    CHECK(m3 > 1e3 * 2.3e-16 * p.box && m3 < m2, "Psi3 non-zero and below Psi2: %g, %g", m3, m2);
    CHECK(wv < 1e-13 * vmax + 4.0 * f.velocity_factor * 2.3e-16 * p.box,
          "velocities: u3 - u2 = 3 vf Psi3 (%g)", wv);
    sink_free(&s2), sink_free(&s3), sink_free(&s7);
    free(a1), free(a2), free(b1), free(b2), free(d3);
    tbrf_ic_cosmo_destroy(two);
    tbrf_ic_cosmo_destroy(three);
}

/* Gas (with or without pairing): both species move by the same Psi3;
 * paired: x_a + x_b = 2 (q + Psi2 + shift) with Psi3 odd. */
static sink run_three(int64_t g, int gas, int paired, int lpt, int64_t chunks, double **psi2)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.particles = g;
    p.redshift = 9;
    p.gas = gas;
    p.lpt = lpt;
    p.paired = paired;
    tbrf_ic_cosmo *ic = icx_make(&p);
    sink s = {0, NULL, NULL, NULL};
    if (!ic)
        return s;
    s = run_ic(ic, g * g * g, chunks, gas);
    if (psi2)
        *psi2 = disp(ic, g * g * g, 2);
    tbrf_ic_cosmo_destroy(ic);
    return s;
}

static void test_gas_paired(void)
{
    const int64_t g = 10, n = g * g * g;
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    double *psi2 = NULL;
    sink s2 = run_three(g, 1, 0, 2, 1, NULL), s3 = run_three(g, 1, 0, 3, 3, NULL);
    sink a = run_three(g, 0, 0, 3, 1, &psi2), b = run_three(g, 0, 1, 3, 2, NULL);
    if (!s2.pos || !s3.pos || !a.pos || !b.pos || !psi2)
        return;
    double wg = 0, wx = 0, m3 = 0;
    for (int64_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            const int64_t k = 3 * i + c, ix[3] = {i % g, i / g % g, i / (g * g)};
            const double dm = icx_dwrap(s3.pos[k] - s2.pos[k], p.box);
            wg = fmax(wg, fabs(icx_dwrap(s3.gas[k] - s2.gas[k], p.box) - dm));
            m3 = fmax(m3, fabs(dm));
            const double q = (double)ix[c] * p.box / (double)g;
            wx = fmax(wx, fabs(icx_dwrap(a.pos[k] + b.pos[k] - 2 * (q + psi2[k]), p.box)));
        }
    printf("3LPT gas: gas - dark matter Psi3 %.2e of %.3g kpc/h; paired: x_a + x_b - 2 (q + "
           "Psi2) %.2e\n", wg, m3, wx);
    CHECK(m3 > 1e3 * 2.3e-16 * p.box && wg < 8 * 2.3e-16 * p.box,
          "gas moves by the dark matter's Psi3: %g (of %g)", wg, m3);
    CHECK(wx < 64 * 2.3e-16 * p.box, "3LPT pair sums to 2 (q + Psi2): %g", wx);
    free(psi2);
    sink_free(&s2), sink_free(&s3), sink_free(&a), sink_free(&b);
}

/* A glass of 4^3 points tiled twice per axis is the 8^3 lattice in
 * another row order: Psi3 at the glass sites (the NUFFT of its modes) is
 * the lattice's. */
static void test_glass(void)
{
    double glass[3 * 64];
    for (int j = 0; j < 64; j++) {
        glass[3 * j] = (j % 4) * 2.5;
        glass[3 * j + 1] = (j / 4 % 4) * 2.5;
        glass[3 * j + 2] = (j / 16) * 2.5;
    }
    tbrf_ic_cosmo *ic[4] = {NULL, NULL, NULL, NULL};
    sink s[4];
    for (int t = 0; t < 4; t++) { /* lattice 2, 3; glass 2, 3 */
        tbrf_ic_cosmo_params p;
        tbrf_ic_default_cosmo(&p);
        p.particles = 8;
        p.redshift = 9;
        p.lpt = 2 + t % 2;
        if (t >= 2) {
            p.glass = glass;
            p.glass_n = 64;
            p.glass_box = 10.0;
        }
        if (!(ic[t] = icx_make(&p)))
            return;
        s[t] = run_ic(ic[t], 512, t == 3 ? 5 : 1, 0);
    }
    const double box = 50000.0;
    double w = 0, m = 0;
    for (int64_t row = 0; row < 512; row++) {
        const int64_t j = row % 64, t = row / 64;
        const int64_t x = j % 4 + 4 * (t % 2), y = j / 4 % 4 + 4 * (t / 2 % 2), z = j / 16 + 4 * (t / 4);
        const int64_t i = x + 8 * (y + 8 * z);
        for (int c = 0; c < 3; c++) {
            const double lat = icx_dwrap(s[1].pos[3 * i + c] - s[0].pos[3 * i + c], box);
            const double gl = icx_dwrap(s[3].pos[3 * row + c] - s[2].pos[3 * row + c], box);
            w = fmax(w, fabs(gl - lat));
            m = fmax(m, fabs(lat));
        }
    }
    printf("3LPT glass: Psi3 %.2e of the lattice's max %.3g kpc/h\n", w / m, m);
    CHECK(m > 1e3 * 2.3e-16 * box && w < 1e-9 * m + 8 * 2.3e-16 * box,
          "glass = lattice with 3LPT: %g of %g", w, m);
    for (int t = 0; t < 4; t++) {
        sink_free(&s[t]);
        tbrf_ic_cosmo_destroy(ic[t]);
    }
}

static void test_refusals(void)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.particles = 16;
    double b[4] = {0};
    int64_t fewest = 0;
    for (int lpt = 1; lpt <= 3; lpt++) {
        p.lpt = lpt;
        CHECK(tbrf_ic_cosmo_bytes(&p, 1, &b[lpt], &fewest) == TBRF_OK, "bytes lpt %d", lpt);
    }
    CHECK(b[1] < b[2] && b[2] < b[3], "bytes grow with the order: %g %g %g", b[1], b[2], b[3]);
    p.lpt = 4;
    CHECK(tbrf_ic_cosmo_bytes(&p, 1, &b[0], &fewest) == TBRF_ERR_INVALID, "bytes: lpt 4");
    tbrf_ic_cosmo *ic = NULL;
    CHECK(tbrf_ic_cosmo_make(&p, &ic) == TBRF_ERR_INVALID &&
          strstr(tbrf_ic_cosmo_message(ic), "lpt 1, 2 or 3"), "lpt 4: %s",
          tbrf_ic_cosmo_message(ic));
    tbrf_ic_cosmo_destroy(ic);
    p.lpt = 3;
    ic = NULL;
    /* the slab form (libtbrf_mpi's driver makes the third order): no
     * potential of its own, so the serial calls refuse it */
    CHECK(tbrf_ic_cosmo_make_slab(&p, 4, 100, &ic) == TBRF_OK, "make_slab lpt 3: %s",
          tbrf_ic_cosmo_message(ic));
    CHECK(tbrf_ic_cosmo_generate(ic, 1, collect, NULL) == TBRF_ERR_UNSUPPORTED &&
          strstr(tbrf_ic_cosmo_message(ic), "3LPT"), "a slab's lpt 3 IC: generate refused: %s",
          tbrf_ic_cosmo_message(ic));
    tbrf_ic_cosmo_destroy(ic);
    double s2 = 0, s3 = 0;
    p.lpt = 2;
    CHECK(tbrf_ic_cosmo_slab_bytes(&p, 4, 100, &s2) == TBRF_OK, "slab_bytes lpt 2");
    p.lpt = 3;
    CHECK(tbrf_ic_cosmo_slab_bytes(&p, 4, 100, &s3) == TBRF_OK && s3 > s2,
          "slab_bytes lpt 3 (%g) above lpt 2's (%g): the twelve padded slabs", s3, s2);
    /* 16^3: the 2LPT estimate fits a budget halfway to 3LPT's, 3LPT not */
    char budget[64];
    snprintf(budget, sizeof budget, "%.0f", 0.5 * (b[2] + b[3]));
    setenv("TBRF_MEMORY_BUDGET", budget, 1);
    ic = NULL;
    CHECK(tbrf_ic_cosmo_make(&p, &ic) == TBRF_ERR_SIZE &&
          strstr(tbrf_ic_cosmo_message(ic), "3LPT"), "3LPT over budget %s: %s", budget,
          tbrf_ic_cosmo_message(ic));
    tbrf_ic_cosmo_destroy(ic);
    p.lpt = 2;
    ic = icx_make(&p);
    tbrf_ic_cosmo_destroy(ic);
    unsetenv("TBRF_MEMORY_BUDGET");
    p.lpt = 3;
    ic = icx_make(&p);
    if (!ic)
        return;
    double psi[3] = {0}, psi2[3] = {0};
    CHECK(tbrf_ic_cosmo_push_rows2(ic, 0, 0, 1, psi, psi2, collect, NULL) ==
              TBRF_ERR_UNSUPPORTED && strstr(tbrf_ic_cosmo_message(ic), "3LPT"),
          "push_rows2 lpt 3: %s", tbrf_ic_cosmo_message(ic));
    tbrf_ic_cosmo_destroy(ic);
}

int main(void)
{
    diagonal();
    three_waves();
    two_waves();
    test_particles();
    test_gas_paired();
    test_glass();
    test_refusals();
    return check_report("test_ic_lpt3");
}
