/* cmd_arepo_cosmo.c — `tbrf arepo cosmo`: cosmological dark-matter initial
 * conditions by the Zel'dovich approximation (doc/arepo.md, "Cosmological
 * initial conditions").
 *
 *   tbrf arepo cosmo --out BASE --box L --particles G --redshift Z
 *                    --omega-m W --omega-b W --hubble H --sigma8 S [...]
 *
 * Particles start on the lattice q = (i, j, k) L/G, which is the box
 * lattice of a periodic plan with G modes per axis: the displacement Psi
 * is that plan's compressive (curl-free) vector field, evaluated by the
 * FFT method, with the spectrum P(k) D(z)^2 / (3 k^2) per component so
 * that |Psi_k|^2 = P(k) D^2 / k^2 — the field whose divergence is -delta
 * (Psi_k = i k delta_k / k^2: displacement and density share their random
 * numbers by construction). Modes stop at the particle Nyquist frequency
 * pi G / L, as a sphere (N-GenIC's SphereMode = 1). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "io/tbrf_arepo.h"
#include "io/tbrf_io.h"
#include "request.h"
#include "tbrf.h"

/* rho_crit / h^2 in 10^10 M_sun / Mpc^3 (3 H0^2 / 8 pi G with H0 = 100 h
 * km/s/Mpc; Planck 2018's constants): 27.7536627. */
#define RHO_CRIT_MPC 27.7536627
#define PI 3.14159265358979323846

static void usage_cosmo(void)
{
    printf("usage: tbrf arepo cosmo --out BASE --box L --particles G --redshift Z\n"
           "                        --omega-m W --omega-b W --hubble H --sigma8 S [options]\n"
           "\n"
           "Dark-matter (and gas) initial conditions for AREPO/Gadget by the Zel'dovich\n"
           "approximation: G^3 particles on the lattice q = (i, j, k) L/G (or a tiled\n"
           "--glass), displaced by Psi, a periodic\n"
           "curl-free Gaussian field with |Psi_k|^2 = P(k) D(z)^2 / k^2 (Psi_k = i k delta_k\n"
           "/ k^2), modes cut at the particle Nyquist frequency pi G / L (a sphere), and\n"
           "moving with the peculiar velocity v = a H(a) f(a) Psi, written in Gadget's\n"
           "convention u = v / sqrt(a) (km/s, or --unit-velocity). Flat or curved LCDM\n"
           "without radiation.\n"
           "\n"
           "  --box L           box side in the length unit (default kpc/h: 50000 = 50 Mpc/h)\n"
           "  --particles G     G^3 particles (2 to 2048)\n"
           "  --redshift Z      starting redshift (Time = 1/(1+Z))\n"
           "  --omega-m W, --omega-lambda W (default 1 - omega-m), --omega-b W (the\n"
           "                    transfer function's baryons), --hubble H (h), --ns N\n"
           "                    (default 0.9667), --sigma8 S (at z = 0)\n"
           "  --table FILE      P(k) at z = 0 from CAMB/CLASS (\"k P\" rows, k in h/Mpc, P in\n"
           "                    (Mpc/h)^3) instead of Eisenstein & Hu (1998); normalised to\n"
           "                    --sigma8 too; it must cover 2 pi/L to the Nyquist frequency\n"
           "  --no-wiggles      Eisenstein & Hu's no-wiggle form\n"
           "  --length-unit U   kpc (default, Gadget's kpc/h) or mpc\n"
           "  --mass-unit M     in M_sun/h (default 1e10)\n"
           "  --glass FILE      particles on a glass instead of the lattice (N-GenIC's\n"
           "                    GlassFile): a Gadget/AREPO HDF5 file's PartType1 (else\n"
           "                    PartType0) Coordinates in its BoxSize, or HDF5 /points or\n"
           "                    text rows in the unit box; tiled T times per axis with\n"
           "                    G^3 = (glass particles) T^3 (GlassTileFac), Psi evaluated at\n"
           "                    the glass sites by the periodic plan's non-uniform FFT\n"
           "  --unit-velocity V the velocity unit in cm/s (default 1e5: km/s); velocities\n"
           "                    and u are written in it. The units go into the Header as\n"
           "                    UnitLength_in_cm, UnitMass_in_g, UnitVelocity_in_cm_per_s\n"
           "                    (AREPO reads its units from param.txt: set them the same)\n"
           "  --gas             gas too (PartType0): each lattice site splits into a gas and\n"
           "                    a dark-matter particle, masses in the ratio omega-b : omega-m\n"
           "                    - omega-b, shifted as N-GenIC does: gas by -(1/2)(1 - omega-b/\n"
           "                    omega-m) L/G and dark matter by +(1/2)(omega-b/omega-m) L/G on\n"
           "                    each axis, same displacement and velocity; gas IDs follow\n"
           "                    the dark matter's (N+1 .. 2N)\n"
           "  --temperature T   the gas's initial temperature in K (default 2.7255 (1 + z)):\n"
           "                    u = k_B T / ((gamma - 1) mu m_p) in the velocity unit squared,\n"
           "                    --mu (default 1.22, neutral primordial gas), --gamma (5/3)\n"
           "  --seed S          random seed (default 1)\n"
           "  --precision P, --long-ids, --quiet   as for tbrf arepo gas\n"
           "  --files F         write F files (BASE.0.hdf5 ...), one at a time: memory is the\n"
           "                    displacement's plan plus one file's particles (checked\n"
           "                    against TBRF_MEMORY_BUDGET before anything is allocated)\n");
}

enum { C_OUT, C_BOX, C_PART, C_Z, C_OM, C_OL, C_OB, C_H, C_NS, C_S8, C_TABLE, C_NOWIG, C_LU,
       C_MU, C_SEED, C_PREC, C_LONGIDS, C_FILES, C_GAS, C_TEMP, C_GMU, C_GAMMA, C_UNITV, C_GLASS,
       C_QUIET, C_HELP, C_COUNT };
static const args_opt COPTS[C_COUNT] = {
    {"--out", 1},        {"--box", 1},       {"--particles", 1},   {"--redshift", 1},
    {"--omega-m", 1},    {"--omega-lambda", 1}, {"--omega-b", 1},  {"--hubble", 1},
    {"--ns", 1},         {"--sigma8", 1},    {"--table", 1},       {"--no-wiggles", 0},
    {"--length-unit", 1}, {"--mass-unit", 1}, {"--seed", 1},       {"--precision", 1},
    {"--long-ids", 0},   {"--files", 1},     {"--gas", 0},         {"--temperature", 1},
    {"--mu", 1},         {"--gamma", 1},     {"--unit-velocity", 1}, {"--glass", 1},
    {"--quiet", 0},      {"--help", 0}};

typedef struct cosmo_req {
    const char *out, *table;
    char *command;
    double box, z, om, ol, ob, h, ns, s8, mpc; /* mpc: length units per Mpc/h */
    double mass_unit;
    double unit_v;              /* velocity unit in cm/s (1e5: km/s) */
    double temp, mu, gamma, u;  /* gas: temperature, mu, gamma, u in unit_v^2 */
    int64_t g;
    int wiggles, gas;
    const char *glass; /* --glass FILE: ng points gx in [0, gbox)^3, tiled tile^3 times */
    double *gx, gbox;
    int64_t ng, tile;
    uint64_t seed;
    tbrf_arepo_header hd;
} cosmo_req;

/* The spectrum per component of Psi in the run's units: P(k) D^2 / (3 k^2),
 * P from the sigma8-normalised z = 0 model in h/Mpc. */
typedef struct psi_spec {
    const tbrf_model *p0;
    double d2, mpc;
} psi_spec;

static double psi_spectrum(double k, int dim, void *user)
{
    const psi_spec *s = user;
    (void)dim;
    if (!(k > 0))
        return 0.0;
    double kk = k * s->mpc; /* h/Mpc */
    double p = tbrf_model_spectrum(s->p0, 3, kk) * s->mpc * s->mpc * s->mpc;
    return s->d2 * p / (3.0 * k * k);
}

static int need_num(const char *const *val, int o, double *v, int positive)
{
    char err[256];
    if (!val[o]) {
        cli_errline("arepo cosmo: %s is required (see tbrf arepo cosmo --help)", COPTS[o].name);
        return -1;
    }
    int rc = positive ? args_positive(COPTS[o].name, val[o], v, err, sizeof err)
                      : args_double(COPTS[o].name, val[o], v, err, sizeof err);
    if (rc)
        cli_errline("arepo cosmo: %s", err);
    return rc ? -1 : 0;
}

static int opt_num(const char *const *val, int o, double *v, int positive)
{
    return val[o] ? need_num(val, o, v, positive) : 0;
}

static int parse_cosmo(const char *const *val, cosmo_req *q)
{
    static const char *const LU[] = {"kpc", "mpc"}, *const PREC[] = {"float", "double"};
    char err[256];
    q->ns = 0.9667;
    q->mass_unit = 1e10;
    q->seed = 1;
    if (need_num(val, C_BOX, &q->box, 1) || need_num(val, C_Z, &q->z, 0) ||
        need_num(val, C_OM, &q->om, 1) || need_num(val, C_OB, &q->ob, 1) ||
        need_num(val, C_H, &q->h, 1) || need_num(val, C_S8, &q->s8, 1) ||
        opt_num(val, C_NS, &q->ns, 0) || opt_num(val, C_MU, &q->mass_unit, 1))
        return -1;
    q->ol = 1.0 - q->om;
    if (opt_num(val, C_OL, &q->ol, 0))
        return -1;
    if (!val[C_OUT] || !val[C_PART]) {
        cli_errline("arepo cosmo: --out and --particles are required");
        return -1;
    }
    if (args_int64("--particles", val[C_PART], 2, 2048, &q->g, err, sizeof err) ||
        (val[C_SEED] && args_uint64("--seed", val[C_SEED], &q->seed, err, sizeof err))) {
        cli_errline("arepo cosmo: %s", err);
        return -1;
    }
    int lu = val[C_LU] ? args_choice("--length-unit", val[C_LU], LU, 2) : 0;
    int p = val[C_PREC] ? args_choice("--precision", val[C_PREC], PREC, 2) : 1;
    if (lu < 0 || p < 0)
        return -1;
    q->mpc = lu == 0 ? 1000.0 : 1.0;
    if (!(q->z > -1 && q->z <= 1e4) || !(q->ob < q->om) || !(q->om <= 10) || !(q->ol >= 0) ||
        !(q->ol <= 10)) {
        cli_errline("arepo cosmo: need -1 < redshift <= 1e4, 0 < omega-b < omega-m <= 10 and "
                    "0 <= omega-lambda <= 10 (got z %g, omega-m %g, omega-b %g, omega-lambda %g)",
                    q->z, q->om, q->ob, q->ol);
        return -1;
    }
    q->out = val[C_OUT];
    q->table = val[C_TABLE];
    q->glass = val[C_GLASS];
    q->wiggles = val[C_NOWIG] == NULL;
    q->hd.double_precision = p;
    q->hd.long_ids = val[C_LONGIDS] != NULL;
    return 0;
}

/* CODATA 2018, cgs (as tbrf arepo gas): u = k_B T / ((gamma - 1) mu m_p). */
#define K_BOLTZMANN 1.380649e-16
#define M_PROTON 1.67262192369e-24

/* --unit-velocity, and --gas with its temperature: default T_CMB (1 + z),
 * the gas still coupled to the radiation; mu 1.22, neutral primordial
 * gas (Y = 0.24: 4 / (4 - 3Y)). */
static int parse_gas(const char *const *val, cosmo_req *q)
{
    q->unit_v = 1e5;
    q->temp = 2.7255 * (1.0 + q->z);
    q->mu = 1.22;
    q->gamma = 5.0 / 3.0;
    if (opt_num(val, C_UNITV, &q->unit_v, 1) || opt_num(val, C_TEMP, &q->temp, 1) ||
        opt_num(val, C_GMU, &q->mu, 1) || opt_num(val, C_GAMMA, &q->gamma, 1))
        return -1;
    q->gas = val[C_GAS] != NULL;
    if (!q->gas && (val[C_TEMP] || val[C_GMU] || val[C_GAMMA])) {
        cli_errline("arepo cosmo: --temperature, --mu and --gamma need --gas");
        return -1;
    }
    if (!(q->gamma > 1) || !(q->unit_v < 1e11)) {
        cli_errline("arepo cosmo: need --gamma > 1 and --unit-velocity below 1e11 cm/s (got %g, "
                    "%g)", q->gamma, q->unit_v);
        return -1;
    }
    q->u = K_BOLTZMANN * q->temp / ((q->gamma - 1) * q->mu * M_PROTON) / (q->unit_v * q->unit_v);
    return 0;
}

/* The header of the set: Time = a, the cosmology, the particle mass in
 * MassTable[1] (Omega_m rho_crit L^3 / G^3). */
static int cosmo_header(const char *const *val, cosmo_req *q)
{
    tbrf_arepo_header *h = &q->hd;
    int dp = h->double_precision, li = h->long_ids;
    tbrf_arepo_header_init(h);
    h->double_precision = dp;
    h->long_ids = li;
    h->time = 1.0 / (1.0 + q->z);
    h->redshift = q->z;
    h->box_size = q->box;
    h->omega0 = q->om;
    h->omega_lambda = q->ol;
    h->omega_baryon = q->ob;
    h->hubble_param = q->h;
    double side = q->box / q->mpc; /* Mpc/h */
    double m = q->om * RHO_CRIT_MPC * 1e10 / q->mass_unit * side * side * side /
               ((double)q->g * (double)q->g * (double)q->g);
    /* with gas, each lattice site's mass splits by Omega_b / Omega_m */
    h->mass_table[0] = q->gas ? m * (q->ob / q->om) : 0.0;
    h->mass_table[1] = q->gas ? m * ((q->om - q->ob) / q->om) : m;
    h->unit_length_cm = 3.085677581491367e24 / q->mpc; /* 1 Mpc (IAU 2015) per unit */
    h->unit_mass_g = 1.988409870698051e33 * q->mass_unit; /* M_sun (IAU 2015) */
    h->unit_velocity_cm_s = q->unit_v;
    int64_t files = 1;
    char err[512];
    if (val[C_FILES] && args_int64("--files", val[C_FILES], 1, 65536, &files, err, sizeof err)) {
        cli_errline("arepo cosmo: %s", err);
        return -1;
    }
    h->num_files = (int)files;
    if (tbrf_arepo_check_header(h, err, sizeof err)) {
        cli_errline("arepo cosmo: %s", err);
        return -1;
    }
    return 0;
}

/* The z = 0 linear P(k) in h/Mpc, sigma8-normalised: Eisenstein & Hu, or
 * the --table, which must cover the box's fundamental to the Nyquist. */
static int linear_pk(const cosmo_req *q, tbrf_model **p0)
{
    double kf = 2 * PI / (q->box / q->mpc), kn = PI * (double)q->g / (q->box / q->mpc);
    int st;
    if (q->table) {
        st = tbrf_model_table_file(q->table, p0);
        size_t n = 0;
        if (st == TBRF_OK && tbrf_model_table_data(*p0, &n, NULL, NULL) == TBRF_OK && n > 0) {
            double *k = malloc(n * sizeof *k), *p = malloc(n * sizeof *p);
            int ok = k && p && tbrf_model_table_data(*p0, &n, k, p) == TBRF_OK;
            int covers = ok && k[0] <= kf && k[n - 1] >= sqrt(3.0) * kn;
            if (ok && !covers)
                cli_errline("arepo cosmo: %s covers k = %g to %g h/Mpc; this box needs %g (2 pi/L) "
                            "to %g (sqrt(3) pi G/L)", q->table, k[0], k[n - 1], kf,
                            sqrt(3.0) * kn);
            free(k);
            free(p);
            if (!covers)
                return ok ? EXIT_USAGE : EXIT_FAIL;
        }
    } else {
        st = tbrf_model_eisenstein_hu(q->om, q->ob, q->h, q->ns, 2.7255, q->wiggles, 1e-5, 1e3,
                                      p0);
    }
    if (st == TBRF_OK)
        st = tbrf_model_normalize_sigma(*p0, 8.0, q->s8);
    if (st != TBRF_OK) {
        cli_errline("arepo cosmo: %s", *p0 ? tbrf_model_message(*p0) : tbrf_strerror(st));
        return EXIT_FAIL;
    }
    return 0;
}

/* The tile factor T with G^3 = ng T^3 (N-GenIC's GlassTileFac: the same
 * on every axis), or -1 with a message: counts that do not tile, or a
 * quotient that is no cube. */
static int64_t glass_tile(const cosmo_req *q)
{
    const int64_t n = q->g * q->g * q->g;
    if (n % q->ng != 0) {
        cli_errline("arepo cosmo: --particles %lld (%lld particles) does not tile the glass %s "
                    "of %lld particles: G^3 must be a multiple of it", (long long)q->g,
                    (long long)n, q->glass, (long long)q->ng);
        return -1;
    }
    int64_t t = llround(cbrt((double)(n / q->ng)));
    if (t < 1 || t * t * t != n / q->ng) {
        cli_errline("arepo cosmo: %lld particles are %lld copies of the glass %s, not T^3 for an "
                    "integer T: the tiling must be cubic (the same factor on every axis)",
                    (long long)n, (long long)(n / q->ng), q->glass);
        return -1;
    }
    return t;
}

/* Reads the glass (a Gadget/AREPO file's PartType1 or PartType0
 * Coordinates in its BoxSize, else /points or text in a unit box) and
 * checks it: 3D, every point inside its box, a cubic tiling. */
static int load_glass(cosmo_req *q)
{
    char err[1024];
    int dim = 3;
    int rc = tbrf_arepo_read_glass(q->glass, &q->ng, &q->gx, &q->gbox, err, sizeof err);
    if (rc == 1) {
        q->gbox = 1.0;
        rc = tbrf_io_read_points(q->glass, &dim, &q->ng, &q->gx, err, sizeof err);
    }
    if (rc || dim != 3) {
        cli_errline("arepo cosmo: %s", rc ? err : "the glass must have 3 coordinates a point");
        return EXIT_USAGE;
    }
    for (int64_t i = 0; i < 3 * q->ng; i++)
        if (!(q->gx[i] >= 0 && q->gx[i] < q->gbox)) {
            cli_errline("arepo cosmo: glass %s point %lld: coordinate %g is outside [0, %g) (its "
                        "BoxSize, or the unit box without one)", q->glass, (long long)(i / 3),
                        q->gx[i], q->gbox);
            return EXIT_USAGE;
        }
    q->tile = glass_tile(q);
    return q->tile < 1 ? EXIT_USAGE : 0;
}

/* The glass sites of rows first .. first + count - 1: row j + ng (a + T
 * (b + T c)) is glass point j in tile (a, b, c), scaled to L/T. */
static void glass_sites(const cosmo_req *q, int64_t first, int64_t count, double *site)
{
    const double cell = q->box / (double)q->tile;
    for (int64_t r = 0; r < count; r++) {
        const int64_t i = first + r, j = i % q->ng, t = i / q->ng;
        const int64_t tc[3] = {t % q->tile, t / q->tile % q->tile, t / (q->tile * q->tile)};
        for (int c = 0; c < 3; c++) {
            double x = (q->gx[3 * j + c] / q->gbox + (double)tc[c]) * cell;
            site[3 * r + c] = x < q->box ? x : 0.0;
        }
    }
}

/* The plan of Psi: the periodic plan over the box whose box lattice is
 * the particle lattice, evaluated by the FFT method. */
static int psi_plan(const cosmo_req *q, psi_spec *spec, double *d, tbrf_model **m,
                    tbrf_plan **plan)
{
    if (tbrf_cosmo_growth(q->om, q->ol, q->z, d) != TBRF_OK) {
        cli_errline("arepo cosmo: no growth factor for this cosmology at z = %g", q->z);
        return EXIT_USAGE;
    }
    spec->d2 = (*d) * (*d); /* the model keeps spec: it lives as long as the plan */
    spec->mpc = q->mpc;
    const double kn = PI * (double)q->g / q->box;
    int st = tbrf_model_callback(psi_spectrum, spec, 0.0, kn, m);
    if (st == TBRF_OK)
        st = tbrf_model_set_amplitude(*m, 1.0);
    const double origin[3] = {0, 0, 0}, length[3] = {q->box, q->box, q->box};
    const int64_t n[3] = {q->g, q->g, q->g};
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.vector = TBRF_VECTOR_COMPRESSIVE;
    if (st == TBRF_OK)
        st = tbrf_make_periodic_plan(*m, 3, origin, length, n, q->seed, &o, plan);
    if (st != TBRF_OK)
        cli_errline("arepo cosmo: %s", *plan ? cli_plan_msg(*plan, st)
                                       : *m  ? tbrf_model_message(*m)
                                             : tbrf_strerror(st));
    return st == TBRF_OK ? 0 : EXIT_FAIL;
}

/* Psi at count glass sites (the plan's non-uniform FFT, to 1e-12). */
static int psi_points(tbrf_plan *plan, int64_t count, const double *site, double *psi)
{
    int st = tbrf_set_points(plan, count, site);
    if (st == TBRF_OK)
        st = tbrf_execute(plan, 0, psi);
    if (st != TBRF_OK)
        cli_errline("arepo cosmo: %s", cli_plan_msg(plan, st));
    return st == TBRF_OK ? 0 : EXIT_FAIL;
}

/* Gadget's velocity per displacement, sqrt(a) f H, H in km/s per length
 * unit (100 E(a) km/s per Mpc/h). */
static int velocity_factor(const cosmo_req *q, double *vfac)
{
    double a = 1.0 / (1.0 + q->z), e, f;
    if (tbrf_cosmo_hubble(q->om, q->ol, a, &e) != TBRF_OK ||
        tbrf_cosmo_growth_rate(q->om, q->ol, q->z, &f) != TBRF_OK) {
        cli_errline("arepo cosmo: no H(a) or f(a) for this cosmology at z = %g", q->z);
        return EXIT_USAGE;
    }
    *vfac = sqrt(a) * f * 100.0 * e / q->mpc / (q->unit_v / 1e5);
    return 0;
}

static double wrap(double x, double box)
{
    x = fmod(x, box);
    x = x < 0 ? x + box : x;
    return x >= box ? 0.0 : x;
}

/* Particles first .. first + count - 1 from psi (planes from z0 on):
 * positions q + Psi wrapped into the box, and velocities vfac Psi written
 * over psi from its start (row i's Psi lies at or after row i's slot).
 * With gas (gpos), N-GenIC's split of each lattice site: the gas at
 * q + Psi - (1/2)(Omega_dm/Omega_m) d and the dark matter at q + Psi +
 * (1/2)(Omega_b/Omega_m) d on every axis (d = L/G), half a cell apart
 * along the diagonal with their centre of mass at q + Psi; both move
 * with the site's velocity. */
static void particles(const cosmo_req *q, double *psi, int64_t off, int64_t first, int64_t count,
                      double vfac, double *pos, double *gpos, const double *site)
{
    const double dx = q->box / (double)q->g;
    const double sdm = 0.5 * q->ob / q->om * dx, sgas = -0.5 * (q->om - q->ob) / q->om * dx;
    for (int64_t r = 0; r < count; r++) {
        const int64_t i = first + r, l = off + r;
        const int64_t ix[3] = {i % q->g, i / q->g % q->g, i / (q->g * q->g)};
        for (int c = 0; c < 3; c++) {
            double p = psi[3 * l + c];
            double x = (site ? site[3 * r + c] : (double)ix[c] * dx) + p;
            pos[3 * r + c] = wrap(gpos ? x + sdm : x, q->box);
            if (gpos)
                gpos[3 * r + c] = wrap(x + sgas, q->box);
            psi[3 * r + c] = p * vfac;
        }
    }
}

/* Every parameter of the run, for /tbrf (tbrf info shows them). */
static size_t cosmo_params(const cosmo_req *q, double d, double vfac, char seed[24],
                           tbrf_arepo_param *par)
{
    snprintf(seed, 24, "%llu", (unsigned long long)q->seed);
    const tbrf_arepo_param p[] = {
        {"command", q->command ? q->command : "tbrf arepo cosmo", 0},
        {"kind", "arepo cosmological initial conditions (Zel'dovich)", 0},
        {"particles_per_axis", NULL, (double)q->g}, {"box", NULL, q->box},
        {"redshift", NULL, q->z}, {"omega_m", NULL, q->om}, {"omega_lambda", NULL, q->ol},
        {"omega_b", NULL, q->ob}, {"hubble", NULL, q->h}, {"n_s", NULL, q->ns},
        {"sigma8", NULL, q->s8}, {"growth_factor", NULL, d}, {"velocity_factor", NULL, vfac},
        {"power_spectrum", q->table ? q->table : q->wiggles ? "eisenstein_hu" :
                                                              "eisenstein_hu_nowiggle", 0},
        {"length_unit_per_mpc_h", NULL, q->mpc}, {"mass_unit_msun_h", NULL, q->mass_unit},
        {"seed", seed, 0}, {"mode_cut", "sphere at the particle Nyquist pi G / L", 0},
        {"unit_velocity_cm_s", NULL, q->unit_v}};
    memcpy(par, p, sizeof p);
    size_t k = sizeof p / sizeof p[0];
    if (q->glass) {
        par[k++] = (tbrf_arepo_param){"glass_file", q->glass, 0};
        par[k++] = (tbrf_arepo_param){"glass_particles", NULL, (double)q->ng};
        par[k++] = (tbrf_arepo_param){"glass_box", NULL, q->gbox};
        par[k++] = (tbrf_arepo_param){"glass_tile", NULL, (double)q->tile};
    }
    if (q->gas) {
        par[k++] = (tbrf_arepo_param){"gas", "PartType0 split by omega_b (N-GenIC's shifts)", 0};
        par[k++] = (tbrf_arepo_param){"gas_temperature", NULL, q->temp};
        par[k++] = (tbrf_arepo_param){"mu", NULL, q->mu};
        par[k++] = (tbrf_arepo_param){"gamma", NULL, q->gamma};
        par[k++] = (tbrf_arepo_param){"internal_energy", NULL, q->u};
    }
    return k;
}

/* The periodic plan's memory as its own budget rule counts it: the
 * half-complex oversampled grids (2G per axis) of the three components
 * and the FFT method's grid (src/plan/plan.c, periodic_setup) — about 200
 * bytes a particle, for the whole lattice whatever --files is. */
static double plan_bytes(int64_t g)
{
    const double gg = (double)g;
    return 3.0 * 16.0 * (gg + 1) * (2 * gg) * (2 * gg) + 16.0 * (double)(g / 2 + 1) * gg * gg;
}

/* A file's bytes per particle: Psi (reused for the velocities) and the
 * positions, the gas's positions and u, the glass sites. */
static double cosmo_row_bytes(const cosmo_req *q)
{
    return 48.0 + (q->gas ? 32.0 : 0.0) + (q->glass ? 24.0 : 0.0);
}

/* The most rows a file holds, and the bytes a run holds at once: the plan
 * and the glass (24 bytes a glass point), plus one file's rows
 * (cosmo_row_bytes) and up to two partial lattice planes of Psi. */
static double cosmo_bytes(const cosmo_req *q, int64_t n, int files, int64_t *rows)
{
    *rows = n / files + (n % files != 0);
    return plan_bytes(q->g) + 24.0 * (double)q->ng + cosmo_row_bytes(q) * (double)*rows +
           48.0 * (double)(q->g * q->g);
}

/* The budget check before anything is allocated: 0, or EXIT_FAIL with a
 * message that says how many --files would fit (if any would). */
static int cosmo_budget(const cosmo_req *q, int64_t *rows)
{
    char err[1024];
    const int64_t n = q->g * q->g * q->g;
    double bytes = cosmo_bytes(q, n, q->hd.num_files, rows);
    if (tbrf_io_budget_check(NULL, "the particles", bytes, err, sizeof err) == 0)
        return 0;
    double spare = (double)tbrf_io_budget() - plan_bytes(q->g) - 24.0 * (double)q->ng -
                   48.0 * (double)(q->g * q->g);
    const double row = cosmo_row_bytes(q);
    double need = spare >= row ? ceil((double)n / floor(spare / row)) : INFINITY;
    if (need <= 65536 && need > q->hd.num_files)
        cli_errline("arepo cosmo: %lld particles in %d file%s: %s; --files %.0f or more holds "
                    "one file's particles at a time", (long long)n, q->hd.num_files,
                    q->hd.num_files > 1 ? "s" : "", err, need);
    else
        cli_errline("arepo cosmo: %lld particles: %s (the displacement's periodic plan alone "
                    "needs %.3g MiB: no --files helps)", (long long)n, err, plan_bytes(q->g) / 1048576.0);
    return EXIT_FAIL;
}

/* File by file: Psi on the planes that hold the file's rows, positions
 * and velocities, written, then the next file reuses the buffers. */
/* The set being written file by file: the current file f, its rows
 * first .. first + count - 1, how many of their Psi have arrived, and the
 * buffers of one file. */
typedef struct cosmo_out {
    const cosmo_req *q;
    tbrf_arepo_set *set;
    const tbrf_arepo_param *par;
    size_t np;
    double *psi, *pos, *gas, *site, vfac;
    int f;
    int64_t first, count, have;
    char err[1024];
} cosmo_out;

/* File o->f from its rows' Psi (o->psi, row r at r): positions and
 * velocities, written; then the next file's rows, files with none written
 * empty at once. 0 or EXIT_FAIL. */
static int emit_file(cosmo_out *o)
{
    const cosmo_req *q = o->q;
    const int64_t n = q->g * q->g * q->g;
    do {
        tbrf_arepo_particles t[6];
        memset(t, 0, sizeof t);
        if (o->count > 0) {
            particles(q, o->psi, 0, o->first, o->count, o->vfac, o->pos, o->gas,
                      q->glass ? o->site : NULL);
            t[1] = (tbrf_arepo_particles){o->count, o->pos, o->psi, NULL, NULL,
                                          1 + (uint64_t)o->first};
            if (o->gas)
                t[0] = (tbrf_arepo_particles){o->count, o->gas, o->psi, NULL, o->gas + 3 * o->count,
                                              1 + (uint64_t)(n + o->first)};
            for (int64_t r = 0; o->gas && r < o->count; r++)
                o->gas[3 * o->count + r] = q->u;
        }
        if (tbrf_arepo_set_write_file(o->set, o->f, t, o->par, o->np, o->err, sizeof o->err))
            return EXIT_FAIL;
        o->have = 0;
        if (++o->f < q->hd.num_files)
            tbrf_arepo_file_rows(n, q->hd.num_files, o->f, &o->first, &o->count);
    } while (o->f < q->hd.num_files && o->count == 0);
    return 0;
}

/* Push callback of the lattice's grid stream: Psi rows, in order, into the
 * current file's buffer; a full buffer is written as that file. */
static int push_rows(void *user, int64_t first, int64_t count, const void *values)
{
    cosmo_out *o = user;
    const double *v = values;
    (void)first; /* rows come in order: first is o->first + o->have */
    while (count > 0 && o->f < o->q->hd.num_files) {
        int64_t take = count < o->count - o->have ? count : o->count - o->have;
        memcpy(o->psi + 3 * o->have, v, (size_t)take * 3 * sizeof *v);
        o->have += take;
        v += 3 * take;
        count -= take;
        if (o->have == o->count && emit_file(o))
            return 1;
    }
    return 0;
}

/* Psi for every file: the lattice in one streamed pass of the plan's FFT
 * (cells pushed in x-fastest order, which is the particle order; one file
 * takes the whole grid directly), or the glass sites file by file by the
 * plan's non-uniform FFT. */
static int stream_psi(cosmo_out *o, tbrf_plan *plan)
{
    const cosmo_req *q = o->q;
    if (q->glass) {
        int rc = 0;
        while (rc == 0 && o->f < q->hd.num_files) {
            glass_sites(q, o->first, o->count, o->site);
            rc = psi_points(plan, o->count, o->site, o->psi);
            if (rc == 0 && emit_file(o))
                rc = EXIT_FAIL;
        }
        return rc;
    }
    const double dx = q->box / (double)q->g;
    const double origin[3] = {0, 0, 0}, spacing[3] = {dx, dx, dx};
    const int64_t n[3] = {q->g, q->g, q->g};
    int st = tbrf_set_grid(plan, origin, spacing, n);
    /* one file: straight into its buffer (a stream would copy the grid) */
    if (st == TBRF_OK && q->hd.num_files == 1) {
        st = tbrf_execute(plan, 0, o->psi);
        if (st == TBRF_OK && emit_file(o))
            return EXIT_FAIL;
    } else if (st == TBRF_OK)
        st = tbrf_execute_grid_stream(plan, 0, push_rows, o);
    if (st != TBRF_OK && st != TBRF_ERR_CALLBACK) /* a callback's error is in o->err */
        cli_errline("arepo cosmo: %s", cli_plan_msg(plan, st));
    return st == TBRF_OK ? 0 : EXIT_FAIL;
}

static int write_files(const cosmo_req *q, tbrf_plan *plan, double d, double *psi, double *pos,
                       double *gas, double *site)
{
    char seed[24];
    tbrf_arepo_param par[32];
    cosmo_out o = {q, NULL, par, 0, psi, pos, gas, site, NAN, 0, 0, 0, 0, ""};
    int rc = velocity_factor(q, &o.vfac);
    o.np = cosmo_params(q, d, o.vfac, seed, par);
    const int64_t n = q->g * q->g * q->g;
    int64_t counts[6] = {q->gas ? n : 0, n, 0, 0, 0, 0};
    uint64_t ids[6] = {1 + (uint64_t)n, 1, 1, 1, 1, 1}; /* gas after the dark matter */
    if (rc == 0 && tbrf_arepo_set_open(q->out, &q->hd, counts, ids, &o.set, o.err, sizeof o.err))
        rc = EXIT_FAIL;
    tbrf_arepo_file_rows(n, q->hd.num_files, 0, &o.first, &o.count);
    if (rc == 0 && o.count == 0 && emit_file(&o)) /* a first file with no rows */
        rc = EXIT_FAIL;
    if (rc == 0)
        rc = stream_psi(&o, plan);
    if (rc == 0 && tbrf_arepo_set_commit(o.set, o.err, sizeof o.err))
        rc = EXIT_FAIL;
    if (rc == EXIT_FAIL && o.err[0])
        cli_errline("arepo cosmo: %s", o.err);
    tbrf_arepo_set_close(o.set);
    return rc;
}

static int run_cosmo(cosmo_req *q)
{
    int64_t rows;
    if (cosmo_budget(q, &rows))
        return EXIT_FAIL;
    tbrf_model *p0 = NULL, *m = NULL;
    tbrf_plan *plan = NULL;
    double *psi = malloc((size_t)rows * 3 * sizeof(double)), *pos = malloc((size_t)rows * 3 * 8);
    double *gas = q->gas ? malloc((size_t)rows * 4 * 8) : NULL; /* positions and u */
    double *site = q->glass ? malloc((size_t)rows * 3 * 8) : NULL;
    double d = NAN;
    int ok = psi && pos && (gas || !q->gas) && (site || !q->glass);
    int rc = ok ? linear_pk(q, &p0) : EXIT_FAIL;
    if (!ok)
        cli_errline("arepo cosmo: out of memory for %lld particles", (long long)rows);
    psi_spec spec = {p0, 0, 0};
    if (rc == 0)
        rc = psi_plan(q, &spec, &d, &m, &plan);
    if (rc == 0)
        rc = write_files(q, plan, d, psi, pos, gas, site);
    tbrf_destroy(plan);
    tbrf_model_destroy(m);
    tbrf_model_destroy(p0);
    free(psi);
    free(pos);
    free(gas);
    free(site);
    return rc;
}

int cmd_arepo_cosmo(int argc, char **argv)
{
    const char *val[C_COUNT] = {0};
    int p = args_parse_options("arepo cosmo", COPTS, C_COUNT, C_HELP, argc, argv, val);
    if (p == 1) {
        usage_cosmo();
        return 0;
    }
    if (p < 0)
        return EXIT_USAGE;
    cosmo_req q;
    memset(&q, 0, sizeof q);
    if (parse_cosmo(val, &q) || parse_gas(val, &q) || cosmo_header(val, &q))
        return EXIT_USAGE;
    int rc = q.glass ? load_glass(&q) : 0;
    q.command = request_command(argc + 1, argv - 1); /* "arepo cosmo ..." */
    if (rc == 0)
        rc = run_cosmo(&q);
    free(q.command);
    if (rc == 0 && !val[C_QUIET])
        arepo_say_wrote(q.out, q.hd.num_files, (q.gas ? 2 : 1) * q.g * q.g * q.g,
                        q.gas ? "dark-matter and gas particles (PartType1, PartType0)"
                              : "dark-matter particles (PartType1)",
                        q.hd.double_precision);
    free(q.gx);
    return rc;
}
