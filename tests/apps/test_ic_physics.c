/* test_ic_physics.c — the physics of the initial conditions of the library
 * (tbrf.h "initial conditions", c/apps/ic; doc/ic.md), through the
 * public API:
 *  - Zel'dovich: Psi is curl-free to rounding on the lattice, so that
 *    delta_k = -i k.Psi_k gives back Psi_k = i k delta_k / k^2 (div Psi =
 *    -delta, spectrally), and <|delta_k|^2> is P(k) D^2 (the estimator's
 *    scatter over the ~ G^3/2 independent modes sets the tolerance);
 *  - velocities: u = vfac Psi bitwise, vfac = sqrt(a) f H (v = a H f Psi
 *    in Gadget's u = v / sqrt(a));
 *  - masses sum to Omega_m rho_crit L^3 (rho_crit from G and H0), the gas
 *    takes Omega_b / Omega_m of a site and the shifts keep the site's
 *    centre of mass;
 *  - chunks: any split gives the bits of one chunk;
 *  - glass: tile counts and refusals, sites, and a glass that is a
 *    coarser lattice gives the lattice's displacements (non-uniform FFT);
 *  - density transforms: moments of the lognormal and linear forms, the
 *    volume-normalised mean exact;
 *  - placement: pieces equal the whole, points inside the box, uniform
 *    moments, and no jitter number equal to a word of the field lines of
 *    the same seed or of seed XOR 0.4.0's key (where 0.4.0 drew them), nor
 *    of the public RNG;
 *  - the memory budget refuses a plan that does not fit. */
#define _POSIX_C_SOURCE 200809L
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "support/ic_cosmo.h"
#include "tbrf.h"

#define PI 3.14159265358979323846

/* P(k) D^2 in the run's units (kpc/h), k in h/kpc: the z = 0 Eisenstein &
 * Hu model normalised to sigma8, made here independently of the IC. */
static double pk_run(const tbrf_model *p0, double d, double k)
{
    const double mpc = 1000.0;
    return d * d * tbrf_model_spectrum(p0, 3, k * mpc) * mpc * mpc * mpc;
}

/* div Psi = -delta: curl-free to rounding, and the spectrum of delta. */
static void test_divergence(void)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.lpt = 1; /* the Zel'dovich approximation's relations (2LPT: test_ic_lpt.c) */
    p.particles = 32;
    p.seed = 11;
    tbrf_ic_cosmo *ic = icx_make(&p);
    if (!ic)
        return;
    tbrf_ic_cosmo_info info;
    tbrf_ic_cosmo_get_info(ic, &info);
    const int g = (int)p.particles;
    const int64_t n = info.particles;
    double *psi = malloc((size_t)n * 3 * sizeof *psi);
    double complex *f[3];
    REQUIRE(tbrf_ic_cosmo_displacements(ic, psi) == TBRF_OK, , "%s", tbrf_ic_cosmo_message(ic));
    for (int c = 0; c < 3; c++) {
        f[c] = malloc((size_t)n * sizeof *f[c]);
        for (int64_t i = 0; i < n; i++)
            f[c][i] = psi[3 * i + c];
        icx_dft3(g, f[c], -1);
    }
    tbrf_model *p0 = icx_reference_pk(&p);
    const double kf = 2 * PI / p.box, vol = p.box * p.box * p.box;
    double worst = 0, ratio = 0;
    int64_t modes = 0;
    for (int64_t i = 1; i < n; i++) {
        int m[3] = {(int)(i % g), (int)(i / g % g), (int)(i / ((int64_t)g * g))};
        double k[3], k2 = 0;
        int nyq = 0;
        for (int c = 0; c < 3; c++) {
            int mm = m[c] > g / 2 ? m[c] - g : m[c];
            nyq |= mm == g / 2; /* k and -k alias there: no direction */
            k[c] = kf * mm;
            k2 += k[c] * k[c];
        }
        /* beyond the sphere cut at pi G / L the modes are zero: rounding */
        if (nyq || sqrt(k2) > 0.99 * PI * g / p.box)
            continue;
        /* delta_k = -i k.Psi_k; Psi_k - i k delta_k / k^2 is Psi's curl part */
        double complex delta = -I * (k[0] * f[0][i] + k[1] * f[1][i] + k[2] * f[2][i]);
        double norm = 0, res = 0;
        for (int c = 0; c < 3; c++) {
            double complex back = I * k[c] * delta / k2;
            norm += creal(f[c][i] * conj(f[c][i]));
            res += creal((f[c][i] - back) * conj(f[c][i] - back));
        }
        if (norm > 0 && sqrt(res / norm) > worst)
            worst = sqrt(res / norm);
        if (sqrt(k2) < 0.9 * PI * g / p.box && norm > 0) {
            /* <|delta_k|^2> = P(k) D^2 n^2 / V for the DFT sum */
            ratio += creal(delta * conj(delta)) * vol / ((double)n * n * pk_run(p0, info.growth,
                                                                                sqrt(k2)));
            modes++;
        }
    }
    ratio /= (double)modes;
    /* the modes come in pairs k, -k: modes/2 independent exponentials */
    double se = 1.0 / sqrt(modes / 2.0);
    printf("div Psi = -delta: curl part %.2e of |Psi_k| at worst; <|delta_k|^2> / P D^2 = %.4f "
           "over %lld modes (SE %.4f)\n", worst, ratio, (long long)modes, se);
    CHECK(worst < 1e-12, "Psi is curl-free to rounding: %g", worst);
    CHECK_NEAR(ratio, 1.0, 4 * se, "delta's spectrum is P(k) D(z)^2");
    for (int c = 0; c < 3; c++)
        free(f[c]);
    free(psi);
    tbrf_model_destroy(p0);
    tbrf_ic_cosmo_destroy(ic);
}

/* Collects every chunk's particles into whole arrays, checking order. */
typedef struct sink {
    int64_t next, chunks_seen;
    double *pos, *vel, *gas, *u;
} sink;

static int collect(void *user, const tbrf_ic_chunk *ch)
{
    sink *s = user;
    if (ch->first != s->next || ch->chunk != s->chunks_seen)
        return 1;
    memcpy(s->pos + 3 * ch->first, ch->pos, (size_t)ch->count * 3 * sizeof(double));
    memcpy(s->vel + 3 * ch->first, ch->vel, (size_t)ch->count * 3 * sizeof(double));
    if (s->gas && ch->count > 0) {
        if (!ch->gas_pos || !ch->gas_u)
            return 1;
        memcpy(s->gas + 3 * ch->first, ch->gas_pos, (size_t)ch->count * 3 * sizeof(double));
        memcpy(s->u + ch->first, ch->gas_u, (size_t)ch->count * sizeof(double));
    }
    s->next += ch->count;
    s->chunks_seen++;
    return 0;
}

static sink run_chunks(tbrf_ic_cosmo *ic, int64_t n, int gas, int64_t chunks)
{
    sink s = {0, 0, malloc((size_t)n * 24), malloc((size_t)n * 24), NULL, NULL};
    if (gas) {
        s.gas = malloc((size_t)n * 24);
        s.u = malloc((size_t)n * 8);
    }
    int st = tbrf_ic_cosmo_generate(ic, chunks, collect, &s);
    CHECK(st == TBRF_OK && s.next == n && s.chunks_seen == chunks, "generate %lld chunks: %s",
          (long long)chunks, tbrf_ic_cosmo_message(ic));
    return s;
}

static void sink_free(sink *s)
{
    free(s->pos);
    free(s->vel);
    free(s->gas);
    free(s->u);
}

/* Velocities, masses, the gas split and chunks. */
static void test_velocities_masses_gas(void)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.lpt = 1; /* the Zel'dovich approximation's relations (2LPT: test_ic_lpt.c) */
    p.particles = 12;
    p.redshift = 49;
    p.gas = 1;
    tbrf_ic_cosmo *ic = icx_make(&p);
    if (!ic)
        return;
    tbrf_ic_cosmo_info f;
    tbrf_ic_cosmo_get_info(ic, &f);
    const int64_t n = f.particles, g = p.particles;
    double *psi = malloc((size_t)n * 24);
    tbrf_ic_cosmo_displacements(ic, psi);
    sink one = run_chunks(ic, n, 1, 1), seven = run_chunks(ic, n, 1, 7);
    CHECK(memcmp(one.pos, seven.pos, (size_t)n * 24) == 0 &&
          memcmp(one.vel, seven.vel, (size_t)n * 24) == 0 &&
          memcmp(one.gas, seven.gas, (size_t)n * 24) == 0, "7 chunks give 1 chunk's bits");
    /* v = a H f Psi, written as Gadget's u = v / sqrt(a) */
    /* the default omega_lambda (NaN) is the IC's 1 - omega_m, a flat universe */
    tbrf_ic_cosmo_params held;
    tbrf_ic_cosmo_get_params(ic, &held);
    CHECK(isnan(p.omega_lambda) && held.omega_lambda == 1.0 - p.omega_m,
          "omega_lambda left at its default is 1 - omega_m (%.17g)", held.omega_lambda);
    double a = 1.0 / (1.0 + p.redshift), e, rate;
    tbrf_cosmo_hubble(p.omega_m, held.omega_lambda, a, &e);
    tbrf_cosmo_growth_rate(p.omega_m, held.omega_lambda, p.redshift, &rate);
    const double h_run = 100.0 * e / 1000.0; /* km/s per kpc/h */
    CHECK_NEAR(f.velocity_factor / (sqrt(a) * rate * h_run), 1, 1e-14, "vfac = sqrt(a) f H");
    CHECK_NEAR(f.hubble / h_run, 1, 1e-14, "H(a) in km/s per kpc/h");
    int bitwise = 1;
    double worst = 0;
    for (int64_t i = 0; i < 3 * n; i++) {
        bitwise &= one.vel[i] == psi[i] * f.velocity_factor;
        double v = a * h_run * rate * psi[i];
        worst = fmax(worst, fabs(one.vel[i] - v / sqrt(a)) / fmax(fabs(v / sqrt(a)), 1e-300));
    }
    CHECK(bitwise, "velocities are vfac Psi bitwise");
    CHECK(worst < 1e-13, "u = (a H f Psi) / sqrt(a): worst relative %g", worst);
    /* masses: Omega_m rho_crit L^3, rho_crit = 3 H0^2 / (8 pi G) with G =
     * 4.3009172706e-9 Mpc (km/s)^2 / M_sun, H0 = 100 h km/s/Mpc, in 10^10
     * M_sun/h per (Mpc/h)^3 */
    const double rho_crit = 3.0 * 1e4 / (8 * PI * 4.3009172706e-9) / 1e10, side = 50.0;
    double total = (double)n * (f.mass_dm + f.mass_gas);
    CHECK_NEAR(total / (p.omega_m * rho_crit * side * side * side), 1, 1e-7,
               "masses sum to Omega_m rho_crit V");
    CHECK_NEAR(f.mass_gas / (f.mass_gas + f.mass_dm), p.omega_b / p.omega_m, 1e-15,
               "the gas takes Omega_b / Omega_m of a site");
    /* N-GenIC's shifts: gas and dark matter half a cell apart on the
     * diagonal, their centre of mass at q + Psi */
    const double dx = p.box / (double)g;
    CHECK_NEAR(f.shift_dm - f.shift_gas, 0.5 * dx, 1e-12 * dx, "half a cell apart");
    CHECK_NEAR(f.mass_dm * f.shift_dm + f.mass_gas * f.shift_gas, 0, 1e-15 * f.mass_dm * dx,
               "centre of mass at q + Psi");
    double dev = 0;
    for (int64_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            int64_t ix[3] = {i % g, i / g % g, i / (g * g)};
            double q = (double)ix[c] * dx + psi[3 * i + c];
            dev = fmax(dev, fabs(icx_dwrap(one.pos[3 * i + c] - q - f.shift_dm, p.box)));
            dev = fmax(dev, fabs(icx_dwrap(one.gas[3 * i + c] - q - f.shift_gas, p.box)));
            CHECK(one.pos[3 * i + c] >= 0 && one.pos[3 * i + c] < p.box, "wrapped into [0, L)");
        }
    CHECK(dev < 1e-9 * p.box, "positions q + Psi + shift: off by %g", dev);
    double u = 1.380649e-16 * 2.7255 * 50 / ((5.0 / 3.0 - 1) * 1.22 * 1.67262192369e-24) / 1e10;
    CHECK_NEAR(one.u[0] / u, 1, 1e-14, "gas u = k_B T_CMB (1+z) / ((gamma-1) mu m_p)");
    sink_free(&one);
    sink_free(&seven);
    free(psi);
    tbrf_ic_cosmo_destroy(ic);
}

/* Tile counts, refusals and sites; a lattice-like glass gives the
 * lattice's displacements. */
static void test_glass(void)
{
    const int gg = 4;
    double glass[3 * 64];
    for (int j = 0; j < 64; j++)
        for (int c = 0; c < 3; c++)
            glass[3 * j + c] = 10.0 * ((c == 0 ? j % gg : c == 1 ? j / gg % gg : j / 16)) / gg;
    int64_t t = 0;
    char msg[256];
    CHECK(tbrf_ic_glass_tile(64, glass, 10.0, 8, &t, msg, sizeof msg) == TBRF_OK && t == 2,
          "64 glass points tile 8^3 twice per axis: %lld %s", (long long)t, msg);
    CHECK(tbrf_ic_glass_tile(64, glass, 10.0, 6, &t, msg, sizeof msg) == TBRF_ERR_INVALID &&
          strstr(msg, "does not tile"), "6^3 is no multiple of 64: %s", msg);
    CHECK(tbrf_ic_glass_tile(32, glass, 10.0, 8, &t, msg, sizeof msg) == TBRF_ERR_INVALID &&
          strstr(msg, "cubic"), "512 / 32 = 16 is no cube: %s", msg);
    double site[3];
    /* row 5 + 64 (1 + 2 (0 + 2 * 1)) is glass point 5 in tile (1, 0, 1) */
    tbrf_ic_glass_sites(64, glass, 10.0, 2, 100.0, 5 + 64 * 5, 1, site);
    CHECK(site[0] == (glass[15] / 10.0 + 1) * 50.0 && site[1] == (glass[16] / 10.0) * 50.0 &&
          site[2] == (glass[17] / 10.0 + 1) * 50.0, "site of a tiled row");
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.lpt = 1; /* the Zel'dovich approximation's relations (2LPT: test_ic_lpt.c) */
    p.particles = 8;
    tbrf_ic_cosmo *lat = icx_make(&p);
    p.glass = glass;
    p.glass_n = 64;
    p.glass_box = 10.0;
    tbrf_ic_cosmo *gl = icx_make(&p);
    if (!lat || !gl)
        return;
    tbrf_ic_cosmo_info info;
    tbrf_ic_cosmo_get_info(gl, &info);
    CHECK(info.glass_tile == 2, "tile recorded");
    double *a = malloc(512 * 24), *b = malloc(512 * 24), worst = 0, top = 0;
    tbrf_ic_cosmo_displacements(lat, a);
    tbrf_ic_cosmo_displacements(gl, b);
    for (int64_t r = 0; r < 512; r++) {
        int64_t j = r % 64, tt = r / 64;
        int64_t ix[3] = {j % gg + gg * (tt % 2), j / gg % gg + gg * (tt / 2 % 2),
                         j / 16 + gg * (tt / 4)};
        int64_t i = ix[0] + 8 * (ix[1] + 8 * ix[2]);
        for (int c = 0; c < 3; c++) {
            worst = fmax(worst, fabs(b[3 * r + c] - a[3 * i + c]));
            top = fmax(top, fabs(a[3 * i + c]));
        }
    }
    CHECK(worst < 1e-9 * top, "glass on the lattice sites: Psi off by %g of %g", worst, top);
    free(a);
    free(b);
    tbrf_ic_cosmo_destroy(lat);
    tbrf_ic_cosmo_destroy(gl);
}

/* Lognormal and linear moments; the volume-normalised mean. */
static void test_density(void)
{
    const int64_t n = 400000;
    double *g = malloc((size_t)n * 8), *rho = malloc((size_t)n * 8), *vol = malloc((size_t)n * 8);
    tbrf_rng_double(TBRF_GEN_PHILOX, 5, 0, 0, n, TBRF_DIST_NORMAL, g);
    tbrf_ic_density_params p;
    tbrf_ic_default_density(&p);
    p.kind = TBRF_DENSITY_LOGNORMAL;
    p.rho_mean = 2.0;
    p.sigma = 0.5;
    char msg[256];
    REQUIRE(tbrf_ic_density(&p, n, g, rho, msg, sizeof msg) == TBRF_OK, , "%s", msg);
    double m = 0, ml = 0, vl = 0, m2 = 0;
    for (int64_t i = 0; i < n; i++) {
        m += rho[i] / n;
        m2 += rho[i] * rho[i] / n;
        ml += log(rho[i] / 2.0) / n;
    }
    for (int64_t i = 0; i < n; i++)
        vl += (log(rho[i] / 2.0) - ml) * (log(rho[i] / 2.0) - ml) / n;
    double se = sqrt((m2 - m * m) / n);
    CHECK_NEAR(m, 2.0, 4 * se, "lognormal mean rho_mean");
    CHECK_NEAR(ml, -0.125, 4 * 0.5 / sqrt((double)n), "<ln(rho/rho_mean)> = -sigma^2/2");
    CHECK_NEAR(vl, 0.25, 4 * 0.25 * sqrt(2.0 / n), "var ln rho = sigma^2");
    p.kind = TBRF_DENSITY_LINEAR;
    p.sigma = 0.9;
    p.rho_floor = 0.2;
    tbrf_ic_density(&p, n, g, rho, msg, sizeof msg);
    double lo = INFINITY;
    for (int64_t i = 0; i < n; i++) {
        lo = fmin(lo, rho[i]);
        if (1 + 0.9 * g[i] > 0.2 && rho[i] != 2.0 * (1 + 0.9 * g[i]))
            break;
    }
    CHECK(lo == 2.0 * 0.2, "linear: floored at rho_floor rho_mean: min %g", lo);
    /* with volumes: the mean is exact and the shape exp(sigma g) */
    p.kind = TBRF_DENSITY_LOGNORMAL;
    p.sigma = 0.7;
    uint64_t s = 3;
    double vt = 0;
    for (int64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        vol[i] = 0.5 + (double)(s >> 11) * 0x1p-53;
        vt += vol[i];
    }
    REQUIRE(tbrf_ic_density_volumes(&p, n, g, vol, vt, rho, msg, sizeof msg) == TBRF_OK, , "%s",
            msg);
    double mass = 0;
    for (int64_t i = 0; i < n; i++)
        mass += rho[i] * vol[i];
    CHECK_NEAR(mass / (2.0 * vt), 1, 1e-12, "sum rho V = rho_mean V_box");
    CHECK_NEAR(rho[1] / rho[0], exp(0.7 * (g[1] - g[0])), 1e-12, "shape exp(sigma g)");
    p.kind = TBRF_DENSITY_LINEAR;
    p.rho_floor = 0;
    p.sigma = 5;
    CHECK(tbrf_ic_density_volumes(&p, n, g, vol, vt, rho, msg, sizeof msg) == TBRF_ERR_INVALID &&
          strstr(msg, "1 + delta"), "1 + delta <= 0 with volumes refused: %s", msg);
    free(g);
    free(rho);
    free(vol);
}

/* Word k of turning-bands line l of `seed` (realization 0) as tbrf_s11. */
static void line_words(uint64_t seed, uint32_t l, int64_t n, double *w)
{
    const uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    for (int64_t k = 0; k < n; k += 4) {
        uint32_t ctr[4] = {(uint32_t)(k / 4), l, 0, 0}, out[4];
        tbrf_rng_philox4x32(ctr, key, out);
        for (int j = 0; j < 4 && k + j < n; j++)
            w[k + j] = ((double)out[j] - 2147483648.0) * 0x1p-31;
    }
}

/* How many of a[i], b[i] agree to 1e-9 (the offsets are s11 words). */
static int64_t count_equal(const double *a, const double *b, int64_t n)
{
    int64_t same = 0;
    for (int64_t i = 0; i < n; i++)
        same += fabs(a[i] - b[i]) < 1e-9;
    return same;
}

/* Pieces equal the whole; inside the box; moments; streams apart. */
static void test_placement(void)
{
    tbrf_ic_points_params p;
    tbrf_ic_default_points(&p);
    p.kind = TBRF_IC_JITTERED;
    p.per_axis = 16;
    p.box = 3.0;
    p.jitter = 0.4;
    p.seed = 42;
    const int64_t n = tbrf_ic_points_count(&p);
    CHECK(n == 4096, "G^3 points");
    double *x = malloc((size_t)n * 24), *y = malloc((size_t)n * 24);
    char msg[256];
    REQUIRE(tbrf_ic_points(&p, 0, n, x, msg, sizeof msg) == TBRF_OK, , "%s", msg);
    tbrf_ic_points(&p, 0, 1000, y, msg, sizeof msg);
    tbrf_ic_points(&p, 1000, n - 1000, y + 3000, msg, sizeof msg);
    CHECK(memcmp(x, y, (size_t)n * 24) == 0, "two pieces give the whole placement");
    /* the offsets u in [-1, 1) back from the points */
    const double dx = p.box / 16;
    double *u = malloc((size_t)n * 24), *w = malloc((size_t)n * 24);
    for (int64_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            int64_t ix = c == 0 ? i % 16 : c == 1 ? i / 16 % 16 : i / 256;
            u[3 * i + c] = icx_dwrap(x[3 * i + c] - (ix + 0.5) * dx, p.box) / dx / p.jitter;
            CHECK(x[3 * i + c] >= 0 && x[3 * i + c] < p.box && fabs(u[3 * i + c]) <= 1 + 1e-9,
                  "jittered point %lld inside the box and its cell", (long long)i);
        }
    /* the field lines' words of this seed and of seed XOR 0.4.0's key
     * (word k of line l: word k%4 of philox(key = seed, ctr = (k/4, l, 0,
     * 0))), and the public stream: no offset is one of them. The 0.4.0
     * placement (line 0 of seed XOR the key) is found by the same count. */
    const uint64_t seeds[2] = {42, 42 ^ 0x9E3779B97F4A7C15ULL};
    for (int k = 0; k < 2; k++) {
        for (uint32_t l = 0; l < 3; l++) {
            line_words(seeds[k], l, 3 * n, w);
            CHECK(count_equal(u, w, 3 * n) == 0, "jitter apart from line %u of seed %d", l, k);
        }
        tbrf_rng_double(TBRF_GEN_PHILOX, seeds[k], 0, 0, 3 * n, TBRF_DIST_S11, w);
        CHECK(count_equal(u, w, 3 * n) == 0, "jitter apart from the public RNG of seed %d", k);
    }
    /* control: points placed with 0.4.0's numbers, read back the same
     * way, are found */
    line_words(seeds[1], 0, 3 * n, w);
    double *uo = malloc((size_t)n * 24);
    for (int64_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            int64_t ix = c == 0 ? i % 16 : c == 1 ? i / 16 % 16 : i / 256;
            double xo = fmod((ix + 0.5 + p.jitter * w[3 * i + c]) * dx + p.box, p.box);
            uo[3 * i + c] = icx_dwrap(xo - (ix + 0.5) * dx, p.box) / dx / p.jitter;
        }
    CHECK(count_equal(uo, w, 3 * n) == 3 * n, "the count finds 0.4.0's placement numbers");
    free(uo);
    p.kind = TBRF_IC_RANDOM;
    p.n = 50000;
    double *r = malloc(3 * 50000 * sizeof *r), mean = 0;
    REQUIRE(tbrf_ic_points(&p, 0, p.n, r, msg, sizeof msg) == TBRF_OK, , "%s", msg);
    for (int64_t i = 0; i < 3 * p.n; i++)
        mean += r[i] / (3.0 * p.n);
    CHECK_NEAR(mean, p.box / 2, 4 * p.box / sqrt(12.0 * 3 * p.n), "uniform points: mean L/2");
    p.n = 0;
    CHECK(tbrf_ic_points(&p, 0, 1, r, msg, sizeof msg) == TBRF_ERR_INVALID, "n = 0 refused");
    free(x);
    free(y);
    free(u);
    free(w);
    free(r);
}

/* The budget: a plan that does not fit is refused before it is made, and
 * tbrf_ic_cosmo_bytes's fewest chunks fit. */
static void test_budget(void)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.lpt = 1; /* the Zel'dovich approximation's relations (2LPT: test_ic_lpt.c) */
    p.particles = 64;
    /* 64^3 in one chunk: 12.6 MB of particles beside the plan's 2.2 MB
     * transform and 5.2 MB of working set; in more, the FFT method's
     * stream holds the whole 6.3 MB field and each chunk its share */
    setenv("TBRF_MEMORY_BUDGET", "17M", 1);
    double bytes = 0;
    int64_t fewest = -1;
    CHECK(tbrf_ic_cosmo_bytes(&p, 1, &bytes, &fewest) == TBRF_OK && fewest > 1 &&
          bytes > 17.0 * 1048576, "one chunk of 64^3 over 17 MiB: fewest %lld", (long long)fewest);
    double at = 0, before = 0;
    int64_t dummy;
    tbrf_ic_cosmo_bytes(&p, fewest, &at, &dummy);
    tbrf_ic_cosmo_bytes(&p, fewest - 1, &before, &dummy);
    CHECK(at <= 17.0 * 1048576 && before > 17.0 * 1048576, "fewest is the least that fits");
    setenv("TBRF_MEMORY_BUDGET", "1M", 1);
    tbrf_ic_cosmo *ic = NULL;
    CHECK(tbrf_ic_cosmo_make(&p, &ic) == TBRF_ERR_SIZE &&
          strstr(tbrf_ic_cosmo_message(ic), "budget"), "1 MiB: %s", tbrf_ic_cosmo_message(ic));
    CHECK(tbrf_ic_cosmo_status(ic) == TBRF_ERR_BAD_PLAN, "a failed make stays failed");
    tbrf_ic_cosmo_destroy(ic);
    unsetenv("TBRF_MEMORY_BUDGET");
}

int main(void)
{
    test_divergence();
    test_velocities_masses_gas();
    test_glass();
    test_density();
    test_placement();
    test_budget();
    return check_report("test_ic_physics");
}
