/* cmd_arepo_cosmo.c — `tbrf arepo cosmo`: cosmological dark-matter initial
 * conditions by second-order Lagrangian perturbation theory (2LPT) or the
 * Zel'dovich approximation (doc/arepo.md, "Cosmological initial
 * conditions").
 *
 *   tbrf arepo cosmo --out BASE --box L --particles G --redshift Z
 *                    --omega-m W --omega-b W --hubble H --sigma8 S [...]
 *
 * Parse, then the library (tbrf_ic_cosmo_*, tbrf.h "initial conditions":
 * the physics), then the writer (tbrf_arepo_write_cosmo, tbrf_arepo.h):
 * the same calls a program makes with the installed libraries
 * (examples/arepo/ic_from_c.c), hence the same file. */
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"
#include "cli.h"
#include "ngenic.h"
#include "tbrf_arepo.h"
#include "io/tbrf_io.h"
#include "request.h"
#include "tbrf.h"
#include "zoom.h"
#ifdef TBRF_CLI_MPI
#include <mpi.h>

#include "tbrf_mpi.h"
#endif

/* The command in messages: "arepo cosmo", or "arepo zoom" for the zoom
 * that shares this parse and run (arepo_cosmo_command sets it; one
 * command a process). */
static const char *cmd_name = "arepo cosmo";

static void usage_cosmo_order_output(void);

static void usage_cosmo(void)
{
    printf("usage: tbrf arepo cosmo --out BASE --box L --particles G --redshift Z\n"
           "                        --omega-m W --omega-b W --hubble H --sigma8 S [options]\n"
           "\n"
           "Dark-matter (and gas) initial conditions for AREPO/Gadget by second-order\n"
           "Lagrangian perturbation theory (2LPT; --lpt 1: the Zel'dovich approximation):\n"
           "G^3 particles on the lattice q = (i, j, k) L/G (or a tiled --glass), displaced\n"
           "by D1 Psi1 + D2 Psi2. D1 Psi1 is a periodic curl-free Gaussian field with\n"
           "|Psi_k|^2 = P(k) D(z)^2 / k^2 (Psi_k = i k delta_k / k^2), modes cut at the\n"
           "particle Nyquist frequency pi G / L (a sphere); Psi2 = grad phi2 with\n"
           "laplacian phi2 = sum_{i>j} [phi,ii phi,jj - phi,ij^2] of Psi1 = grad phi, its\n"
           "products formed on a 3/2-padded grid (no aliasing), and D2 ~ -(3/7) D1^2 from\n"
           "the growth equations. The particles move with v = a H (f1 D1 Psi1 + f2 D2\n"
           "Psi2), written in Gadget's convention u = v / sqrt(a) (km/s, or\n"
           "--unit-velocity). Flat or curved LCDM without radiation.\n"
           "\n"
           "  --box L           box side in the length unit (default kpc/h: 50000 = 50 Mpc/h)\n"
           "  --particles G     G^3 particles (2 to 65536, as the memory budget allows)\n"
           "  --redshift Z      starting redshift (Time = 1/(1+Z))\n"
           "  --omega-m W, --omega-lambda W (default 1 - omega-m), --omega-b W (the\n"
           "                    transfer function's baryons; 0: Eisenstein & Hu's\n"
           "                    zero-baryon form, dark matter only), --hubble H (h), --ns N\n"
           "                    (default 0.9667), --sigma8 S (at z = 0)\n"
           "  --table FILE      P(k) at z = 0 from CAMB/CLASS (\"k P\" rows, k in h/Mpc, P in\n"
           "                    (Mpc/h)^3) instead of Eisenstein & Hu (1998); normalised to\n"
           "                    --sigma8 too, or kept as written with --sigma8 table; it\n"
           "                    must cover 2 pi/L to pi G/L (and sigma8's integrand to\n"
           "                    normalise)\n"
           "  --transfer FILE   a CAMB transfer file or CLASS tk file (told by its header):\n"
           "                    P = A k^ns T^2 with the total matter's T, A from --sigma8;\n"
           "                    with --gas two fluids: the gas displaced by the baryons' T,\n"
           "                    the dark matter by CDM's (same phases), each moving with\n"
           "                    its velocity column (CAMB's v_b, v_CDM; CLASS's t_b, h',\n"
           "                    eta'), or in the growing mode where the file has none;\n"
           "                    the second order the total matter's; give it at the\n"
           "                    starting redshift\n"
           "  --input-digest H  the --table/--transfer file's digest: a file that differs is\n"
           "                    refused (recorded in the command, so regenerate checks it)\n"
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
           "  --volumes V       mean (default): equal gas masses; voronoi (with --gas\n"
           "                    --glass): each gas particle's mass in proportion to its\n"
           "                    glass point's periodic Voronoi volume (a uniform\n"
           "                    unperturbed density)\n"
           "  --temperature T   the gas's initial temperature in K (default 2.7255 (1 + z)):\n"
           "                    u = k_B T / ((gamma - 1) mu m_p) in the velocity unit squared,\n"
           "                    --mu (default 1.22, neutral primordial gas), --gamma (5/3)\n");
    usage_cosmo_order_output();
}

/* The second half of `arepo cosmo --help`: order, seed and output. */
static void usage_cosmo_order_output(void)
{
    printf("  --seed S          random seed (default 1); the same seed at another\n"
           "                    --particles shares every common first-order mode\n"
           "  --lpt N           1: Zel'dovich; 2 (default): second order; 3: third order\n"
           "                    (monofonIC's 3LPT: + D3a grad phi3a + D3b grad phi3b + D3c\n"
           "                    curl A3c, D3 = -1/3, 10/21, -1/7 D1^3, velocities 3 f1;\n"
           "                    split under mpirun as 2LPT is)\n"
           "  --fixed-amplitude every first-order mode with |delta_k| set to its rms,\n"
           "                    the phases random (Angulo & Pontzen 2016)\n"
           "  --paired          the phase-flipped partner: delta -> -delta (Psi1 -> -Psi1;\n"
           "                    Psi2 is unchanged, Psi3 -> -Psi3); a pair averages to\n"
           "                    q + D2 Psi2\n"
           "  --precision P, --long-ids, --quiet   as for tbrf arepo gas\n"
           "  --files F         write F files (BASE.0.hdf5 ...), one at a time: memory is the\n"
           "                    displacement's plan plus one file's particles (checked\n"
           "                    against TBRF_MEMORY_BUDGET before anything is allocated)\n"
           "  --format F        hdf5 (default: AREPO/Gadget format 3, BASE.hdf5), gadget1 or\n"
           "                    gadget2 (Gadget's binary SnapFormat/ICFormat 1 and 2: files\n"
           "                    BASE, or BASE.0 BASE.1 ... with --files; float32 unless\n"
           "                    --precision double; IDs uint64 past 2^32 - 1), with the side\n"
           "                    file BASE.tbrf.h5 holding the parameters (tbrf info, tbrf\n"
           "                    regenerate BASE.tbrf.h5)\n"
           "  --ngenic PARAM    run an N-GenIC parameter file (Nsample, Box, GlassFile and\n"
           "                    GlassTileFac, cosmology, Sigma8, WhichSpectrum 1 or 2, Seed,\n"
           "                    units, NumFiles) as N-GenIC would: Gadget format 1 to\n"
           "                    OutputDir/FileBase[.N]; keys tbrf cannot honour (WDM,\n"
           "                    SphereMode 0, a second species, ...) refused by name; beside\n"
           "                    it only --out, --files, --format, --precision, --long-ids\n"
           "                    and --quiet, which override the file (doc/arepo.md); the\n"
           "                    order is N-GenIC's (Zel'dovich) unless --lpt 2 is given\n");
}

enum { C_OUT, C_BOX, C_PART, C_Z, C_OM, C_OL, C_OB, C_H, C_NS, C_S8, C_TABLE, C_NOWIG, C_LU,
       C_MU, C_SEED, C_PREC, C_LONGIDS, C_FILES, C_GAS, C_TEMP, C_GMU, C_GAMMA, C_UNITV, C_GLASS,
       C_LPT, C_FIXED, C_PAIRED,
       /* output layout and N-GenIC input (doc/arepo.md "Gadget binary files", "--ngenic") */
       C_FORMAT, C_NGENIC,
       C_QUIET, C_HELP,
       /* transfer files, amplitudes, gas masses */
       C_TRANSFER, C_VOLUMES, C_DIGEST,
       C_COUNT };
static const args_opt COPTS[C_COUNT] = {
    {"--out", 1},        {"--box", 1},       {"--particles", 1},   {"--redshift", 1},
    {"--omega-m", 1},    {"--omega-lambda", 1}, {"--omega-b", 1},  {"--hubble", 1},
    {"--ns", 1},         {"--sigma8", 1},    {"--table", 1},       {"--no-wiggles", 0},
    {"--length-unit", 1}, {"--mass-unit", 1}, {"--seed", 1},       {"--precision", 1},
    {"--long-ids", 0},   {"--files", 1},     {"--gas", 0},         {"--temperature", 1},
    {"--mu", 1},         {"--gamma", 1},     {"--unit-velocity", 1}, {"--glass", 1},
    {"--lpt", 1},        {"--fixed-amplitude", 0}, {"--paired", 0},
    {"--format", 1},     {"--ngenic", 1},
    {"--quiet", 0},      {"--help", 0},
    /* transfer files, amplitudes, gas volumes */
    {"--transfer", 1},   {"--volumes", 1},   {"--input-digest", 1}};

typedef struct cosmo_req {
    const char *out, *table;
    char *command;
    double box, z, om, ol, ob, h, ns, s8, mpc; /* mpc: length units per Mpc/h */
    double mass_unit;
    double unit_v;              /* velocity unit in cm/s (1e5: km/s) */
    double temp, mu, gamma;     /* gas: temperature (0: the library's default), mu, gamma */
    int64_t g, lpt;
    int wiggles, gas, fixed, paired;
    const char *glass; /* --glass FILE: ng points gx in [0, gbox)^3 */
    double *gx, gbox;
    int64_t ng;
    uint64_t seed;
    tbrf_arepo_cosmo_file file;
    /* --transfer FILE, --sigma8 table (keep), --volumes
     * voronoi, and the digest of the spectrum's file (--input-digest) */
    const char *transfer;
    int keep, volumes;
    char digest[17];
    char power_name[1100], gas_power_name[1300];
    /* --gas --transfer: the dark matter's CDM column and each species'
     * velocity column (NULL where the file has none), owned */
    tbrf_model *dm, *vdm, *vgas;
    /* --ngenic: the parameter file's tabulated P(k) (owned), the names
     * the file gives (OutputDir/FileBase, its glass) */
    tbrf_model *ngenic_power;
    char *ngenic_out;
    int64_t ngenic_tile;
    int files_given; /* --files given (under mpirun the default is a member a rank) */
    const cli_zoom *zoom; /* arepo zoom's region (cmd_arepo_zoom.c), or NULL */
    int quiet;
} cosmo_req;

static int need_num(const char *const *val, int o, double *v, int positive)
{
    char err[256];
    if (!val[o]) {
        cli_errline("%s: %s is required (see tbrf %s --help)", cmd_name, COPTS[o].name, cmd_name);
        return -1;
    }
    int rc = positive ? args_positive(COPTS[o].name, val[o], v, err, sizeof err)
                      : args_double(COPTS[o].name, val[o], v, err, sizeof err);
    if (rc)
        cli_errline("%s: %s", cmd_name, err);
    return rc ? -1 : 0;
}

static int opt_num(const char *const *val, int o, double *v, int positive)
{
    return val[o] ? need_num(val, o, v, positive) : 0;
}

/* --lpt N (val NULL: the command's default order dflt, 2 for arepo
 * cosmo, 1 for --ngenic) into *lpt: 0, or -1 after the message. */
static int parse_lpt(const char *val, int64_t dflt, int64_t *lpt)
{
    char err[256];
    *lpt = dflt;
    if (val && args_int64("--lpt", val, 1, 3, lpt, err, sizeof err)) {
        cli_errline("%s: %s", cmd_name, err);
        return -1;
    }
    return 0;
}

/* --sigma8 S, or --sigma8 table: the --table's own amplitude kept
 * (N-GenIC's ReNormalizeInputSpectrum = 0). */
static int parse_sigma8(const char *const *val, cosmo_req *q)
{
    if (val[C_S8] && strcmp(val[C_S8], "table") == 0) {
        if (!val[C_TABLE]) {
            cli_errline("%s: --sigma8 table keeps a --table's own amplitude: give "
                        "--table (a --transfer file has none: give --sigma8 S)", cmd_name);
            return -1;
        }
        q->keep = 1;
        return 0;
    }
    return need_num(val, C_S8, &q->s8, 1);
}

/* What the options leave out is the library's default
 * (tbrf_ic_default_cosmo; omega_lambda NaN: the library makes the
 * universe flat, 1 - omega_m); the gas's temperature 0 is T_CMB (1 + z),
 * the gas still coupled to the radiation, and mu 1.22 neutral primordial
 * gas (Y = 0.24: 4 / (4 - 3Y)). */
static void library_defaults(cosmo_req *q)
{
    tbrf_ic_cosmo_params d;
    tbrf_ic_default_cosmo(&d);
    q->ns = d.n_s;
    q->mass_unit = d.mass_unit;
    q->seed = d.seed;
    q->ol = d.omega_lambda;
    q->mpc = d.length_per_mpc; /* the kpc/h */
    q->lpt = d.lpt;
    q->unit_v = d.velocity_unit;
    q->temp = d.gas_temperature;
    q->mu = d.gas_mu;
    q->gamma = d.gas_gamma;
}

static int parse_cosmo(const char *const *val, cosmo_req *q)
{
    static const char *const LU[] = {"kpc", "mpc"}, *const PREC[] = {"float", "double"};
    char err[256];
    library_defaults(q);
    if (need_num(val, C_BOX, &q->box, 1) || need_num(val, C_Z, &q->z, 0) ||
        need_num(val, C_OM, &q->om, 1) || need_num(val, C_OB, &q->ob, 0) ||
        need_num(val, C_H, &q->h, 1) || parse_sigma8(val, q) ||
        opt_num(val, C_NS, &q->ns, 0) || opt_num(val, C_MU, &q->mass_unit, 1))
        return -1;
    if (opt_num(val, C_OL, &q->ol, 0))
        return -1;
    if (!val[C_OUT] || !val[C_PART]) {
        cli_errline("%s: --out and --particles are required", cmd_name);
        return -1;
    }
    if (args_int64("--particles", val[C_PART], 2, 65536, &q->g, err, sizeof err) ||
        (val[C_SEED] && args_uint64("--seed", val[C_SEED], &q->seed, err, sizeof err))) {
        cli_errline("%s: %s", cmd_name, err);
        return -1;
    }
    int lu = val[C_LU] ? args_choice("--length-unit", val[C_LU], LU, 2) : 0;
    int p = val[C_PREC] ? args_choice("--precision", val[C_PREC], PREC, 2) : 1;
    if (lu < 0 || p < 0)
        return -1;
    if (lu == 1)
        q->mpc = 1.0;
    if (parse_lpt(val[C_LPT], q->lpt, &q->lpt))
        return -1;
    q->fixed = val[C_FIXED] != NULL;
    q->paired = val[C_PAIRED] != NULL;
    if (!(q->z > -1 && q->z <= 1e4) || !(q->ob >= 0) || !(q->ob < q->om) || !(q->om <= 10) ||
        (val[C_OL] && !(q->ol >= 0 && q->ol <= 10))) {
        cli_errline("%s: need -1 < redshift <= 1e4, 0 <= omega-b < omega-m <= 10 and "
                    "0 <= omega-lambda <= 10 (got z %g, omega-m %g, omega-b %g, omega-lambda %s)", cmd_name,
                    q->z, q->om, q->ob, val[C_OL] ? val[C_OL] : "1 - omega-m");
        return -1;
    }
    q->out = val[C_OUT];
    q->table = val[C_TABLE];
    q->glass = val[C_GLASS];
    q->wiggles = val[C_NOWIG] == NULL;
    tbrf_arepo_default_cosmo_file(&q->file);
    q->file.double_precision = p;
    q->file.long_ids = val[C_LONGIDS] != NULL;
    int64_t files = 1;
    if (val[C_FILES] && args_int64("--files", val[C_FILES], 1, 65536, &files, err, sizeof err)) {
        cli_errline("%s: %s", cmd_name, err);
        return -1;
    }
    q->file.num_files = (int)files;
    q->files_given = val[C_FILES] != NULL;
    return arepo_parse_format(val[C_FORMAT], val[C_PREC], &q->file.format,
                              &q->file.double_precision);
}

/* --unit-velocity, and --gas with its temperature, mu and gamma (the
 * defaults: library_defaults). */
static int parse_gas(const char *const *val, cosmo_req *q)
{
    if (opt_num(val, C_UNITV, &q->unit_v, 1) || opt_num(val, C_TEMP, &q->temp, 1) ||
        opt_num(val, C_GMU, &q->mu, 1) || opt_num(val, C_GAMMA, &q->gamma, 1))
        return -1;
    q->gas = val[C_GAS] != NULL;
    if (!q->gas && (val[C_TEMP] || val[C_GMU] || val[C_GAMMA])) {
        cli_errline("%s: --temperature, --mu and --gamma need --gas", cmd_name);
        return -1;
    }
    if (q->gas && !(q->ob > 0)) {
        cli_errline("%s: --gas needs --omega-b > 0 (0: dark matter only)", cmd_name);
        return -1;
    }
    if (!(q->gamma > 1) || !(q->unit_v < 1e11)) {
        cli_errline("%s: need --gamma > 1 and --unit-velocity below 1e11 cm/s (got %g, "
                    "%g)", cmd_name, q->gamma, q->unit_v);
        return -1;
    }
    return 0;
}

/* Reads the glass (a Gadget/AREPO file's PartType1 or PartType0
 * Coordinates in its BoxSize, else /points or text in a unit box); the
 * library checks it (inside its box, a cubic tiling). */
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
        cli_errline("%s: %s", cmd_name, rc ? err : "the glass must have 3 coordinates a point");
        return EXIT_USAGE;
    }
    /* N-GenIC's GlassTileFac: the tiling the library will find */
    if (q->ngenic_tile > 0 && (double)q->ng * (double)(q->ngenic_tile * q->ngenic_tile *
                                                      q->ngenic_tile) != (double)(q->g * q->g * q->g)) {
        cli_errline("%s: --ngenic: GlassTileFac %lld tiles the %lld points of GlassFile "
                    "%s into %.15g particles, not Nsample^3 = %lld: tbrf cuts the modes at the "
                    "particles' Nyquist, so they must agree", cmd_name, (long long)q->ngenic_tile,
                    (long long)q->ng, q->glass, (double)q->ng * pow((double)q->ngenic_tile, 3),
                    (long long)(q->g * q->g * q->g));
        return EXIT_USAGE;
    }
    /* two glass points at one site make coincident particles in every
     * tile (and coincident gas cells with --gas) */
    return cli_refuse_duplicates(cmd_name, "--glass", q->glass, q->ng, q->gx, 0.0);
}

/* Values the file cannot hold, named by the option that makes them:
 * velocities are velocity_factor times displacements, which stay below
 * the box; the gas energy is the library's. 0 or EXIT_USAGE. */
static int check_values(const cosmo_req *q, const tbrf_ic_cosmo *ic)
{
    tbrf_ic_cosmo_info f;
    if (tbrf_ic_cosmo_get_info(ic, &f) != TBRF_OK)
        return 0;
    const double lim = q->file.double_precision ? DBL_MAX : FLT_MAX;
    const char *prec = q->file.double_precision ? "" : " (--precision float: 3.4e38 at most)";
    if (!(fabs(f.velocity_factor) * q->box <= lim) ||
        (q->gas && !(f.internal_energy <= lim && f.internal_energy >= 0))) {
        cli_errline("%s: --unit-velocity %g makes %s the file cannot hold%s (%g per "
                    "length unit of displacement%s); choose a larger unit", cmd_name, q->unit_v,
                    q->gas ? "velocities or the gas energy" : "velocities", prec,
                    f.velocity_factor, q->gas ? ", or the energy" : "");
        return EXIT_USAGE;
    }
    return 0;
}

/* The library's parameters from the request. */
static void ic_params(const cosmo_req *q, tbrf_ic_cosmo_params *p)
{
    tbrf_ic_default_cosmo(p);
    p->box = q->box;
    p->particles = q->g;
    p->redshift = q->z;
    p->omega_m = q->om;
    p->omega_lambda = q->ol;
    p->omega_b = q->ob;
    p->hubble = q->h;
    p->n_s = q->ns;
    p->sigma8 = q->s8;
    p->length_per_mpc = q->mpc;
    p->mass_unit = q->mass_unit;
    p->velocity_unit = q->unit_v;
    p->wiggles = q->wiggles;
    p->gas = q->gas;
    p->seed = q->seed;
    p->lpt = (int32_t)q->lpt;
    p->fixed_amplitude = q->fixed;
    p->paired = q->paired;
    p->glass = q->gx;
    p->glass_n = q->ng;
    p->glass_box = q->gbox > 0 ? q->gbox : 1.0;
    p->gas_temperature = q->temp;
    p->gas_mu = q->mu;
    p->gas_gamma = q->gamma;
}

/* The budget check before anything is allocated: 0, or EXIT_FAIL with a
 * message that says how many --files would fit (if any would). */
static int cosmo_budget(const cosmo_req *q, const tbrf_ic_cosmo_params *p)
{
    char err[1024];
    const int64_t n = q->g * q->g * q->g;
    const int files = q->file.num_files;
    double bytes = 0;
    int64_t fewest = 0;
    if (tbrf_ic_cosmo_bytes(p, files, &bytes, &fewest) != TBRF_OK) {
        cli_errline("%s: bad sizes (%lld particles, %d files)", cmd_name, (long long)n, files);
        return EXIT_FAIL;
    }
    if (tbrf_io_budget_check(NULL, "the particles", bytes, err, sizeof err) == 0)
        return 0;
    if (fewest > files)
        cli_errline("%s: %lld particles in %d file%s: %s; --files %lld or more holds "
                    "one file's particles at a time", cmd_name, (long long)n, files, files > 1 ? "s" : "",
                    err, (long long)fewest);
    else
        cli_errline("%s: %lld particles: %s (%s)", cmd_name, (long long)n, err,
                    p->lpt >= 2 || p->fixed_amplitude
                        ? "the displacement's periodic plan and the potentials of --lpt 2 or "
                          "--fixed-amplitude do not fit: no --files helps; --lpt 1 needs less"
                        : "the displacement's periodic plan alone does not fit: no --files "
                          "helps");
    return EXIT_FAIL;
}

/* ------------------------------------------- transfer files */

/* --transfer FILE (not with --table), --volumes voronoi|mean (gas on a
 * glass), --input-digest HEX (what regenerate checks). */
static int parse_transfer(const char *const *val, cosmo_req *q)
{
    static const char *const VOLS[] = {"mean", "voronoi"};
    q->transfer = val[C_TRANSFER];
    if (q->transfer && q->table) {
        cli_errline("%s: give one of --table (P(k)) and --transfer (a CAMB/CLASS "
                    "transfer file)", cmd_name);
        return -1;
    }
    q->volumes = val[C_VOLUMES] ? args_choice("--volumes", val[C_VOLUMES], VOLS, 2) : 0;
    if (q->volumes < 0)
        return -1;
    if (q->volumes && !(q->gas && q->glass)) {
        cli_errline("%s: --volumes voronoi gives the gas cells of a --glass their "
                    "Voronoi volumes' masses: it needs --gas and --glass (lattice cells all have "
                    "one volume)", cmd_name);
        return -1;
    }
    if (val[C_DIGEST] && !q->table && !q->transfer) {
        cli_errline("%s: --input-digest checks the --table or --transfer file", cmd_name);
        return -1;
    }
    return 0;
}

int cli_file_digest(const char *path, char hex[17])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    uint64_t h = 0xcbf29ce484222325ULL;
    unsigned char buf[65536];
    size_t n;
    int binary = 0;
    while (!binary && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        binary = memchr(buf, '\0', n) != NULL;
        for (size_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 0x100000001b3ULL;
    }
    int bad = ferror(f);
    fclose(f);
    snprintf(hex, 17, "%016llx", (unsigned long long)h);
    return bad ? -1 : binary ? -2 : 0;
}

/* The spectrum file's digest, checked against --input-digest when given
 * (regenerate runs the recorded command, which carries it). */
static int check_digest(const char *const *val, cosmo_req *q)
{
    const char *file = q->table ? q->table : q->transfer;
    const char *opt = q->table ? "--table" : "--transfer";
    struct stat st;
    if (!file)
        return 0;
    /* a pipe (--table <(...)) is read once, by the loader: no digest to
     * record, nothing regenerate could read again */
    if (stat(file, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (!val[C_DIGEST])
            return 0;
        cli_errline("%s: --input-digest: %s is not a regular file", cmd_name, file);
        return EXIT_USAGE;
    }
    /* a spectrum is text: a NUL byte stops the digest at once (the
     * reader would refuse the file at that byte anyway) */
    const int d = cli_file_digest(file, q->digest);
    if (d) {
        cli_errline("%s: %s %s: %s", cmd_name, opt, file, d == -2 ? "a NUL byte: binary data, "
                    "not a text file" : "cannot be read");
        return d == -2 ? EXIT_USAGE : EXIT_FAIL;
    }
    if (val[C_DIGEST] && strcmp(val[C_DIGEST], q->digest) != 0) {
        cli_errline("%s: the %s file %s is not the one the set was made from (its "
                    "digest is %s, the recorded one %.40s): restore that file to remake it", cmd_name,
                    opt, file, q->digest, val[C_DIGEST]);
        return EXIT_USAGE;
    }
    q->file.power_digest = q->digest;
    return 0;
}

/* The recorded command with --input-digest added (when the run has a
 * spectrum file and the command did not give it): malloc'ed, or NULL. */
static char *with_digest(char *command, const char *const *val, const cosmo_req *q)
{
    if (!command || val[C_DIGEST] || !q->digest[0])
        return command;
    size_t n = strlen(command) + 40;
    char *c = malloc(n);
    if (c)
        snprintf(c, n, "%s --input-digest %s", command, q->digest);
    free(command);
    return c;
}

/* The recorded command with the member count a split run chose (one a
 * rank that holds planes) made explicit, so that regenerate remakes a set
 * of the same members whatever the number of ranks it runs on. */
static char *with_files(char *command, const cosmo_req *q, int chosen)
{
    if (!command || !chosen)
        return command;
    size_t n = strlen(command) + 24;
    char *c = malloc(n);
    if (c)
        snprintf(c, n, "%s --files %d", command, q->file.num_files);
    free(command);
    return c;
}

/* The conformal Hubble rate a H in 1/Mpc at the run's redshift (c = 1):
 * what CLASS's velocity divergences are divided by (the file is taken
 * to be written at the run's redshift). */
static double conformal_hubble(const cosmo_req *q)
{
    const double a = 1.0 / (1.0 + q->z);
    double e = NAN;
    tbrf_cosmo_hubble(q->om, isnan(q->ol) ? 1.0 - q->om : q->ol, a, &e);
    return a * 100.0 * q->h * e / 299792.458;
}

/* --gas: the CDM column for the dark matter, and the velocity of each
 * species (none where the file has no velocity columns: the growing
 * mode then, said in the record and on stderr). 0, or the status. */
static int load_two_fluid(cosmo_req *q, const char *f, char *err, size_t es)
{
    int st = tbrf_ic_transfer_power(q->transfer, TBRF_IC_TRANSFER_CDM, q->ns, NULL, &q->dm, err,
                                    es);
    const double hc = conformal_hubble(q);
    int sv[2] = {TBRF_OK, TBRF_OK};
    if (st == TBRF_OK)
        st = sv[0] = tbrf_ic_transfer_velocity(q->transfer, TBRF_IC_TRANSFER_CDM, q->ns, hc,
                                               &q->vdm, err, es);
    if (st == TBRF_OK || st == TBRF_ERR_UNSUPPORTED)
        st = sv[1] = tbrf_ic_transfer_velocity(q->transfer, TBRF_IC_TRANSFER_BARYON, q->ns, hc,
                                               &q->vgas, err, es);
    if (st != TBRF_OK && st != TBRF_ERR_UNSUPPORTED)
        return st;
    const int vel = q->vdm && q->vgas;
    if (!vel) { /* one without the other: neither, the same growing mode for both */
        tbrf_model_destroy(q->vdm);
        tbrf_model_destroy(q->vgas);
        q->vdm = q->vgas = NULL;
        cli_errline("note: --transfer %s has no velocity columns (%s velocity): both species "
                    "move in the growing mode, u = sqrt(a) f H Psi of their own displacement",
                    q->transfer, sv[0] != TBRF_OK ? "CDM" : "baryon");
    }
    snprintf(q->gas_power_name, sizeof q->gas_power_name, "%.1000s (%s transfer, baryons; the "
             "dark matter from CDM; velocities %s)", q->transfer, f,
             vel ? "from the velocity columns, CDM's and the baryons'" : "in the growing mode: "
             "the file has no velocity columns");
    return TBRF_OK;
}

/* A transfer file's total matter (and with --gas its baryons, CDM and
 * velocities) as the z = 0 spectra, k^n_s T^2 (the library normalises
 * them). */
static int load_transfer(cosmo_req *q, tbrf_model **power, tbrf_model **gas)
{
    static const char *const FMT[] = {"?", "CAMB", "CLASS"};
    char err[1024];
    int32_t format = 0;
    int st = tbrf_ic_transfer_power(q->transfer, TBRF_IC_TRANSFER_MATTER, q->ns, &format, power,
                                    err, sizeof err);
    const char *f = FMT[format >= 1 && format <= 2 ? format : 0];
    if (st == TBRF_OK && q->gas)
        st = tbrf_ic_transfer_power(q->transfer, TBRF_IC_TRANSFER_BARYON, q->ns, NULL, gas, err,
                                    sizeof err);
    if (st == TBRF_OK && q->gas)
        st = load_two_fluid(q, f, err, sizeof err);
    if (st != TBRF_OK) {
        cli_errline("%s: --transfer: %s", cmd_name, err);
        return st == TBRF_ERR_NO_MEMORY ? EXIT_FAIL : EXIT_USAGE;
    }
    snprintf(q->power_name, sizeof q->power_name, "%.1000s (%s transfer, total matter, k^n_s "
             "T^2)", q->transfer, f);
    q->file.power_name = q->power_name;
    q->file.gas_power_name = q->gas ? q->gas_power_name : NULL;
    return 0;
}

/* The two fluids' models of --gas --transfer into p (NULL otherwise). */
static void two_fluid_params(const cosmo_req *q, tbrf_ic_cosmo_params *p)
{
    p->power_dm = q->dm;
    p->velocity_dm = q->vdm;
    p->velocity_gas = q->vgas;
}

/* The z = 0 P(k) of --table (checked and normalised by the library), or
 * of --transfer. */
static int load_table(cosmo_req *q, tbrf_model **power, tbrf_model **gas)
{
    if (q->transfer)
        return load_transfer(q, power, gas);
    if (q->ngenic_power) { /* --ngenic's table, converted already */
        *power = q->ngenic_power;
        q->ngenic_power = NULL;
        return 0;
    }
    if (!q->table)
        return 0;
    int st = tbrf_model_table_file(q->table, power);
    if (st == TBRF_OK) {
        q->file.power_name = q->table;
        return 0;
    }
    cli_errline("%s: %s", cmd_name, *power ? tbrf_model_message(*power) : tbrf_strerror(st));
    return EXIT_FAIL;
}

/* The zoom made: on this process alone (its budget checked first), or
 * under mpirun over the ranks (each level's IC a slab a rank, rank 0
 * holding the particles; tbrf_ic_zoom_make_mpi checks each rank's share).
 * 0, or an exit status after the message (on the rank that failed). */
static int make_zoom(const cosmo_req *q, const tbrf_ic_cosmo_params *p, tbrf_ic_zoom **z)
{
    int st;
#ifdef TBRF_CLI_MPI
    if (cli_mpi_active() && cli_mpi_size() > 1) {
        st = tbrf_ic_zoom_make_mpi(MPI_COMM_WORLD, p, &q->zoom->params, z);
        /* rank 0's message when it has one (a region every rank refuses
         * is said once), else those of the ranks that failed */
        int own = st != TBRF_OK && (!*z || tbrf_ic_zoom_status(*z) != TBRF_OK), first = own;
        MPI_Bcast(&first, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (own && (cli_mpi_rank() == 0 || !first))
            cli_errline("arepo zoom: %s", *z ? tbrf_ic_zoom_message(*z) : tbrf_strerror(st));
        return st == TBRF_OK ? 0 : st == TBRF_ERR_INVALID || st == TBRF_ERR_NULL ? EXIT_USAGE
                                                                                  : EXIT_FAIL;
    }
#endif
    char err[1024];
    double bytes = 0;
    st = tbrf_ic_zoom_bytes(p, &q->zoom->params, &bytes);
    if (st == TBRF_OK && tbrf_io_budget_check(NULL, "the zoom's ICs and particles", bytes, err,
                                              sizeof err)) {
        cli_errline("arepo zoom: %s (the whole box at the fine spacing is made: a smaller "
                    "--refine or --particles, or more ranks under mpirun, need less)", err);
        return EXIT_FAIL;
    }
    st = tbrf_ic_zoom_make(p, &q->zoom->params, z);
    if (st != TBRF_OK)
        cli_errline("arepo zoom: %s", *z ? tbrf_ic_zoom_message(*z) : tbrf_strerror(st));
    return st == TBRF_OK ? 0 : st == TBRF_ERR_INVALID || st == TBRF_ERR_NULL ? EXIT_USAGE
                                                                              : EXIT_FAIL;
}

/* arepo zoom: budget, library, writer (the spectrum's tables in p); under
 * mpirun rank 0 writes the set, the others wait for its status. */
static int run_zoom(cosmo_req *q, const tbrf_ic_cosmo_params *p)
{
    char err[1024];
    tbrf_ic_zoom *z = NULL;
    int rc = make_zoom(q, p, &z);
    if (rc) {
        tbrf_ic_zoom_destroy(z);
        return rc;
    }
    q->file.command = q->command ? q->command : "tbrf arepo zoom";
    if (cli_mpi_rank() == 0 && tbrf_arepo_write_zoom(q->out, z, &q->file, err, sizeof err)) {
        cli_errline("arepo zoom: %s", err);
        rc = EXIT_FAIL;
    }
#ifdef TBRF_CLI_MPI
    /* the others wait for rank 0's write asleep, not spinning a core */
    if (cli_mpi_active() && cli_mpi_size() > 1 && !cli_mpi_agree_idle(rc == 0))
        rc = EXIT_FAIL;
#endif
    tbrf_ic_zoom_info f;
    if (rc == 0 && !q->quiet && cli_mpi_rank() == 0 && tbrf_ic_zoom_get_info(z, &f) == TBRF_OK)
        arepo_say_wrote_format(q->out, q->file.num_files, q->file.format,
                               f.fine + f.coarse + f.gas,
                               f.gas ? "zoom particles (PartType1 fine, PartType2 parent, "
                                       "PartType0 fine gas)"
                                     : "zoom particles (PartType1 fine, PartType2 parent)",
                               q->file.double_precision);
    tbrf_ic_zoom_destroy(z);
    return rc;
}

/* Budget, library, writer. */
static int run_cosmo(cosmo_req *q)
{
    tbrf_ic_cosmo_params p;
    ic_params(q, &p);
    if (!q->zoom && cosmo_budget(q, &p))
        return EXIT_FAIL;
    tbrf_model *power = NULL, *gas = NULL;
    tbrf_ic_cosmo *ic = NULL;
    int rc = load_table(q, &power, &gas);
    p.power = power;
    p.power_gas = gas;
    two_fluid_params(q, &p);
    p.keep_amplitude = q->keep;
    /* --sigma8 table: the table's own sigma8, recorded (the library
     * takes the rows as written) */
    if (rc == 0 && q->keep && (tbrf_model_set_amplitude(power, 1.0) != TBRF_OK ||
                               tbrf_cosmo_sigma_r(power, 8.0, &p.sigma8) != TBRF_OK)) {
        cli_errline("%s: --sigma8 table: %s", cmd_name, tbrf_model_message(power));
        rc = EXIT_USAGE;
    }
    p.gas_volumes = q->volumes;
    if (q->zoom) {
#ifdef TBRF_CLI_MPI
        /* every rank makes the zoom, or none */
        if (cli_mpi_active() && cli_mpi_size() > 1 && !cli_mpi_agree(rc == 0))
            rc = rc ? rc : EXIT_FAIL;
#endif
        if (rc == 0)
            rc = run_zoom(q, &p);
        tbrf_model_destroy(power);
        tbrf_model_destroy(gas);
        return rc;
    }
    int st = rc == 0 ? tbrf_ic_cosmo_make(&p, &ic) : TBRF_OK;
    if (rc == 0 && st != TBRF_OK) {
        cli_errline("%s: %s", cmd_name, ic ? tbrf_ic_cosmo_message(ic) : tbrf_strerror(st));
        rc = st == TBRF_ERR_INVALID ? EXIT_USAGE : EXIT_FAIL;
    }
    if (rc == 0)
        rc = check_values(q, ic);
    q->file.command = q->command ? q->command : "tbrf arepo cosmo";
    q->file.glass_name = q->glass;
    char err[1024];
    if (rc == 0 && tbrf_arepo_write_cosmo(q->out, ic, &q->file, err, sizeof err)) {
        cli_errline("%s: %s", cmd_name, err);
        rc = EXIT_FAIL;
    }
    tbrf_ic_cosmo_destroy(ic);
    tbrf_model_destroy(power);
    tbrf_model_destroy(gas);
    return rc;
}

#ifdef TBRF_CLI_MPI
/* ------------------------------------------- split over the ranks (doc/mpi.md) */

/* What keeps a run from being split over the ranks, or NULL: any order
 * on the lattice, into any format, is (tbrf_ic_cosmo_generate_mpi);
 * the glass's sites come from the whole lattice. */
static const char *unsplit(const char *const *val)
{
    if (val[C_NGENIC])
        return "--ngenic is not split over ranks";
    if (val[C_GLASS])
        return "--glass is not split over ranks";
    return NULL;
}

/* What keeps a zoom from being split over the ranks, or NULL: a
 * refined level with fixed amplitudes is a glass of one site. */
static const char *zoom_unsplit(const char *const *val)
{
    if (val[C_FIXED])
        return "--fixed-amplitude with a zoom is not split over ranks";
    return unsplit(val);
}

/* The ranks that hold planes of the G^3 lattice (FFTW-MPI's blocks),
 * the default member count: one a rank. */
static int ranks_with_planes(int64_t g)
{
    const int64_t n[3] = {g, g, g};
    int64_t start[3], count[3], first;
    int mine = tbrf_mpi_fft_split_grid(MPI_COMM_WORLD, 3, n, start, count, &first) == TBRF_OK &&
               count[2] > 0;
    int all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

/* This rank's share and its memory against the budget (the per-rank
 * figure, tbrf_ic_cosmo_slab_bytes): 0, or EXIT_FAIL after the message. */
static int mpi_budget(const cosmo_req *q, const tbrf_ic_cosmo_params *p, int64_t *bounds,
                      int64_t *planes, int *member0, int *members, int64_t *rows)
{
    int64_t z0 = 0;
    int st = tbrf_mpi_ic_split(MPI_COMM_WORLD, q->g, q->file.num_files, &z0, planes, member0,
                               members, bounds);
    *rows = 0;
    for (int f = *member0; st == TBRF_OK && f < *member0 + *members; f++)
        *rows = bounds[f + 1] - bounds[f] > *rows ? bounds[f + 1] - bounds[f] : *rows;
    if (st != TBRF_OK) {
        cli_errline("%s: %d files for %lld particles a side under mpirun: %s", cmd_name,
                    q->file.num_files, (long long)q->g, st == TBRF_ERR_INVALID
                        ? "need at least one file a rank that holds planes of the lattice"
                        : tbrf_strerror(st));
        return EXIT_USAGE;
    }
    double bytes = 0;
    char err[1024];
    if (*planes > 0 && tbrf_ic_cosmo_slab_bytes(p, *planes, *rows, &bytes) == TBRF_OK &&
        tbrf_io_budget_check(NULL, "this rank's particles", bytes, err, sizeof err)) {
        cli_errline("%s: %lld planes of %lld^3 particles: %s; more ranks or --files "
                    "hold less a rank", cmd_name, (long long)*planes, (long long)q->g, err);
        return EXIT_FAIL;
    }
    return 0;
}

/* Every rank's member digests (sizes: the members' sizes) (members
 * each) into all (files), in member order: the ranks' members are
 * consecutive. */
static int gather_digests(tbrf_arepo_set *set, int members, int files, int sizes, uint64_t *all)
{
    int size = cli_mpi_size();
    uint64_t *mine = malloc(sizeof *mine * (size_t)(members > 0 ? members : 1));
    int *counts = malloc(sizeof *counts * (size_t)size), *at = malloc(sizeof *at * (size_t)size);
    int ok = mine && counts && at &&
             (members == 0 || (sizes ? tbrf_arepo_set_part_sizes(set, mine, 0)
                                     : tbrf_arepo_set_part_digests(set, mine)) == 0);
    if (cli_mpi_agree(ok)) {
        MPI_Allgather(&members, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
        for (int r = 0, sum = 0; r < size; sum += counts[r], r++)
            at[r] = sum;
        MPI_Allgatherv(mine, members, MPI_UINT64_T, all, counts, at, MPI_UINT64_T,
                       MPI_COMM_WORLD);
    } else
        ok = 0;
    (void)files;
    free(mine);
    free(counts);
    free(at);
    return ok;
}

/* The members staged, then published all or nothing: every rank renames
 * its members but member 0, then rank 0 member 0 (the file AREPO opens
 * first), each step agreed; a failure anywhere puts every rank's
 * replaced files back. 1 when the set is published. */
static int mpi_publish(tbrf_arepo_set *set, int members, int files)
{
    char err[1024] = "";
    uint64_t *all = malloc(sizeof *all * (size_t)files);
    int ok = cli_mpi_agree(all != NULL) && gather_digests(set, members, files, 1, all);
    if (ok && members > 0)
        tbrf_arepo_set_part_sizes(set, all, 1); /* a Gadget set's side file records them */
    ok = ok && gather_digests(set, members, files, 0, all);
    if (ok && members > 0 && tbrf_arepo_set_part_stage(set, all, err, sizeof err)) {
        cli_errline("%s: %s", cmd_name, err);
        ok = 0;
    }
    free(all);
    ok = cli_mpi_agree(ok);
    for (int step = 0; step < 2 && ok; step++) {
        if (members > 0 && tbrf_arepo_set_part_rename(set, step, err, sizeof err)) {
            cli_errline("%s: %s", cmd_name, err);
            ok = 0;
        }
        ok = cli_mpi_agree(ok);
    }
    if (members > 0 && tbrf_arepo_set_part_finish(set, ok) && !ok)
        cli_errline("%s: the previous set could not be put back as it was", cmd_name);
    return ok;
}

/* make_slab, generate over the ranks, write this rank's members. */
static int mpi_generate(cosmo_req *q, tbrf_ic_cosmo_params *p, const int64_t *bounds,
                        int64_t planes, int member0, int members, int64_t rows)
{
    tbrf_ic_cosmo *ic = NULL;
    tbrf_arepo_cosmo_part *part = NULL;
    char err[1024];
    int st = tbrf_ic_cosmo_make_slab(p, planes > 0 ? planes : 1, rows, &ic), rc = 0;
    if (st != TBRF_OK) {
        cli_errline("%s: %s", cmd_name, ic ? tbrf_ic_cosmo_message(ic) : tbrf_strerror(st));
        rc = st == TBRF_ERR_INVALID ? EXIT_USAGE : EXIT_FAIL;
    }
    if (rc == 0)
        rc = check_values(q, ic);
    q->file.command = q->command ? q->command : "tbrf arepo cosmo";
    if (rc == 0 && members > 0 &&
        tbrf_arepo_cosmo_part_open(q->out, ic, &q->file, member0, members, bounds, &part, err,
                                   sizeof err)) {
        cli_errline("%s: %s", cmd_name, err);
        rc = EXIT_FAIL;
    }
    if (!cli_mpi_agree(rc == 0)) {
        rc = rc ? rc : EXIT_FAIL;
    } else {
        st = tbrf_ic_cosmo_generate_mpi(MPI_COMM_WORLD, ic, q->file.num_files,
                                        tbrf_arepo_cosmo_part_push, part);
        if (st != TBRF_OK && tbrf_ic_cosmo_status(ic) != TBRF_OK)
            cli_errline("%s: %s", cmd_name, tbrf_ic_cosmo_message(ic));
        else if (st != TBRF_OK && part && tbrf_arepo_cosmo_part_message(part)[0])
            cli_errline("%s: %s", cmd_name, tbrf_arepo_cosmo_part_message(part));
        rc = st == TBRF_OK && mpi_publish(tbrf_arepo_cosmo_part_set(part), members,
                                          q->file.num_files) ? 0 : EXIT_FAIL;
    }
    tbrf_arepo_cosmo_part_close(part);
    tbrf_ic_cosmo_destroy(ic);
    return rc;
}

/* The run split over the ranks: each its slab of the lattice and its
 * members of the set, published together. */
static int run_cosmo_mpi(cosmo_req *q)
{
    tbrf_ic_cosmo_params p;
    ic_params(q, &p);
    int64_t *bounds = malloc(sizeof *bounds * ((size_t)q->file.num_files + 1));
    int64_t planes = 0, rows = 0;
    int member0 = 0, members = 0;
    int rc = bounds ? 0 : EXIT_FAIL;
    if (!cli_mpi_agree(rc == 0) ||
        !cli_mpi_agree((rc = mpi_budget(q, &p, bounds, &planes, &member0, &members, &rows)) == 0)) {
        free(bounds);
        return rc ? rc : EXIT_FAIL;
    }
    tbrf_model *power = NULL, *gas = NULL;
    rc = load_table(q, &power, &gas);
    p.power = power;
    p.power_gas = gas;
    two_fluid_params(q, &p);
    p.keep_amplitude = q->keep;
    if (rc == 0 && q->keep && (tbrf_model_set_amplitude(power, 1.0) != TBRF_OK ||
                               tbrf_cosmo_sigma_r(power, 8.0, &p.sigma8) != TBRF_OK)) {
        cli_errline("%s: --sigma8 table: %s", cmd_name, tbrf_model_message(power));
        rc = EXIT_USAGE;
    }
    if (!cli_mpi_agree(rc == 0))
        rc = rc ? rc : EXIT_FAIL;
    else
        rc = mpi_generate(q, &p, bounds, planes, member0, members, rows);
    tbrf_model_destroy(power);
    tbrf_model_destroy(gas);
    free(bounds);
    return rc;
}
#endif

/* The recorded command ("arepo cosmo ..."), with the default order made
 * explicit: regenerate then reruns the same order whatever a later
 * version's default, and reads a command without --lpt as one written
 * before the option, by the Zel'dovich approximation. */
static char *lpt_command(char *cmd, int given, int64_t order)
{
    if (!cmd || given)
        return cmd;
    const size_t n = strlen(cmd);
    char *more = realloc(cmd, n + sizeof " --lpt 2");
    if (!more) {
        free(cmd);
        return NULL;
    }
    memcpy(more + n, order == 1 ? " --lpt 1" : " --lpt 2", sizeof " --lpt 2");
    return more;
}

/* 0 when beside --ngenic only the options it lets override the file
 * are given; EXIT_USAGE (with the message) naming the first other one. */
static int ngenic_refuse_options(const char *const *val)
{
    static const int OUTPUT[] = {C_OUT, C_FILES, C_FORMAT, C_PREC, C_LONGIDS, C_QUIET, C_HELP,
                                 C_NGENIC, C_LPT, C_DIGEST};
    for (int o = 0; o < C_COUNT; o++) {
        int ok = 0;
        for (size_t i = 0; i < sizeof OUTPUT / sizeof OUTPUT[0]; i++)
            ok |= OUTPUT[i] == o;
        if (val[o] && !ok) {
            cli_errline("%s: %s cannot be given with --ngenic: the parameter file sets "
                        "what it would (doc/arepo.md, \"--ngenic\")", cmd_name, COPTS[o].name);
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* --ngenic PARAM (doc/arepo.md, "--ngenic"): the request from an N-GenIC
 * parameter file. Beside it only the output options may be given
 * (--out, --files, --format, --precision, --long-ids, --quiet: they
 * override OutputDir/FileBase, NumFiles, gadget1 and float32) and
 * --lpt (default 1, N-GenIC's order); every
 * other option is refused, the file setting it. 0 or EXIT_USAGE. */
static int parse_ngenic(const char *const *val, cosmo_req *q)
{
    if (ngenic_refuse_options(val))
        return EXIT_USAGE;
    const char *path = val[C_NGENIC];
    cli_input(path, "the --ngenic parameter file");
    ngenic_params n;
    int rc = ngenic_read(path, &n);
    if (rc == 0) {
        cli_input(n.GlassFile, "the --ngenic file's GlassFile");
        if (n.WhichSpectrum == 2)
            cli_input(n.FileWithInputSpectrum, "the --ngenic file's FileWithInputSpectrum");
    }
    if (rc == 0)
        rc = ngenic_check(path, &n);
    if (rc == 0)
        rc = ngenic_power(path, &n, &q->ngenic_power);
    if (rc)
        return rc;
    q->box = n.Box;
    q->g = (int64_t)n.Nsample;
    q->z = n.Redshift;
    q->om = n.Omega;
    q->ol = n.OmegaLambda;
    q->ob = n.OmegaBaryon;
    q->h = n.HubbleParam;
    q->ns = n.PrimordialIndex;
    q->s8 = n.Sigma8;
    q->mpc = 3.085678e24 / n.UnitLength_in_cm;
    /* kpc/h and Mpc/h are --length-unit's, whatever the division rounds */
    if (fabs(q->mpc - 1000.0) < 1e-9)
        q->mpc = 1000.0;
    else if (fabs(q->mpc - 1.0) < 1e-12)
        q->mpc = 1.0;
    q->mass_unit = n.UnitMass_in_g / 1.988409870698051e33; /* M_sun (IAU 2015) */
    q->unit_v = n.UnitVelocity_in_cm_per_s;
    q->temp = 0;
    q->mu = 1.22;
    q->gamma = 5.0 / 3.0;
    q->wiggles = 0; /* N-GenIC's Eisenstein & Hu is the no-wiggle fit */
    /* The LPT order: N-GenIC is Zel'dovich (first order), so 1 unless
     * --lpt asks for 2 (2LPTic's parameter files would map to 2). */
    if (parse_lpt(val[C_LPT], 1, &q->lpt))
        return EXIT_USAGE;
    q->seed = (uint64_t)n.Seed;
    /* ReNormalizeInputSpectrum 0: the table's own amplitude (--sigma8 table) */
    q->keep = n.WhichSpectrum == 2 && n.ReNormalizeInputSpectrum == 0;
    q->ngenic_tile = (int64_t)n.GlassTileFac;
    q->glass = strdup(n.GlassFile);
    q->table = n.WhichSpectrum == 2 ? strdup(n.FileWithInputSpectrum) : NULL;
    size_t len = strlen(n.OutputDir) + strlen(n.FileBase) + 2;
    q->ngenic_out = malloc(len);
    if (!q->glass || !q->ngenic_out || (n.WhichSpectrum == 2 && !q->table)) {
        cli_errline("%s: out of memory", cmd_name);
        return EXIT_FAIL;
    }
    const char *sep = n.OutputDir[0] && n.OutputDir[strlen(n.OutputDir) - 1] != '/' ? "/" : "";
    snprintf(q->ngenic_out, len, "%s%s%s", n.OutputDir, sep, n.FileBase);
    q->out = val[C_OUT] ? val[C_OUT] : q->ngenic_out;
    tbrf_arepo_default_cosmo_file(&q->file);
    q->file.long_ids = val[C_LONGIDS] != NULL;
    q->file.num_files = (int32_t)n.NumFiles;
    int64_t files = 1;
    char err[256];
    if (val[C_FILES]) {
        if (args_int64("--files", val[C_FILES], 1, 65536, &files, err, sizeof err)) {
            cli_errline("%s: %s", cmd_name, err);
            return EXIT_USAGE;
        }
        q->file.num_files = (int32_t)files;
    }
    static const char *const PREC[] = {"float", "double"};
    int p = val[C_PREC] ? args_choice("--precision", val[C_PREC], PREC, 2) : 0;
    if (p < 0 || arepo_parse_format(val[C_FORMAT] ? val[C_FORMAT] : "gadget1", "given",
                                    &q->file.format, &q->file.double_precision))
        return EXIT_USAGE;
    q->file.double_precision = p;
    return 0;
}

/* s as one word of a recorded command: in single quotes when it holds a
 * blank (cmd_arepo_regen.c's split_command reads them back). */
static const char *quote_word(const char *s, char *buf, size_t len)
{
    if (!strpbrk(s, " \t"))
        return s;
    snprintf(buf, len, "'%s'", s);
    return buf;
}

/* The command recorded for `tbrf regenerate`: the command line, with the
 * output and file count that --ngenic took from the parameter file
 * (regenerate replaces --out and reads --files). Malloc'ed. */
static char *ngenic_command(char *cmd, const cosmo_req *q, const char *const *val)
{
    if (!cmd || (val[C_OUT] && val[C_FILES]))
        return cmd;
    char esc[1100];
    size_t len = strlen(cmd) + strlen(q->out) + 64;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%s%s%s%s %d", cmd, val[C_OUT] ? "" : " --out ",
                 val[C_OUT] ? "" : quote_word(q->out, esc, sizeof esc),
                 val[C_FILES] ? "" : " --files", val[C_FILES] ? 0 : q->file.num_files);
    if (s && val[C_FILES]) /* no count to add: drop the trailing " 0" */
        s[strlen(s) - 2] = '\0';
    free(cmd);
    return s;
}

/* Frees what the request owns (every return after the parse). */
static void cosmo_free(cosmo_req *q, int ngenic)
{
    free(q->gx);
    tbrf_model_destroy(q->ngenic_power);
    tbrf_model_destroy(q->dm);
    tbrf_model_destroy(q->vdm);
    tbrf_model_destroy(q->vgas);
    free(q->ngenic_out);
    if (ngenic) {
        free((char *)q->glass);
        free((char *)q->table);
    }
}

/* The output against the inputs, and checked before the work: its
 * folder, the file-size limit and the free space, against a lower bound
 * of its size (positions, velocities, 4-byte IDs), so that no run that
 * fits is refused. 0 or an exit status. */
static int cosmo_check_out(const cosmo_req *q)
{
    if (!q->ngenic_out) { /* --ngenic recorded its file and what it names */
        cli_input(q->glass, "the --glass input");
        cli_input(q->table, "the --table input");
        cli_input(q->transfer, "the --transfer input");
    }
    int rc = arepo_refuse_format_inputs(cmd_name, q->out, q->file.num_files,
                                        q->file.format, NULL, NULL, 0);
    /* a zoom has more than G^3 particles, but its gas only in the region */
    const double n = (double)q->g * (double)q->g * (double)q->g * (q->gas && !q->zoom ? 2.0 : 1.0);
    const double bytes = n * (6.0 * (q->file.double_precision ? 8.0 : 4.0) + 4.0);
    char *first = rc ? NULL : tbrf_arepo_member_name(q->out, q->file.num_files, 0,
                                                       q->file.format);
    if (!rc && !first) {
        cli_errline("%s: out of memory", cmd_name);
        return EXIT_FAIL;
    }
    if (!rc)
        rc = cli_check_output(cmd_name, first, bytes, bytes / q->file.num_files);
    free(first);
    return rc;
}

/* What arepo zoom cannot take of arepo cosmo's options, or NULL. */
static const char *zoom_refused(const char *const *val)
{
    if (val[C_NGENIC])
        return "--ngenic";
    if (val[C_GLASS])
        return "--glass (a zoom's fine particles are the lattice's of G r a side)";
    if (val[C_VOLUMES])
        return "--volumes (gas masses of a glass)";
    return NULL;
}

int cmd_arepo_cosmo(int argc, char **argv)
{
    return arepo_cosmo_command(argc, argv, NULL);
}

int arepo_cosmo_command(int argc, char **argv, const cli_zoom *zoom)
{
    const char *val[C_COUNT] = {0};
    cmd_name = zoom ? "arepo zoom" : "arepo cosmo";
    int p = args_parse_options(cmd_name, COPTS, C_COUNT, C_HELP,
                               argc, argv, val);
    if (p == 1) {
        usage_cosmo();
        return 0;
    }
    if (p < 0)
        return EXIT_USAGE;
    if (zoom && zoom_refused(val)) {
        cli_errline("arepo zoom: %s is not for a zoom", zoom_refused(val));
        return EXIT_USAGE;
    }
#ifdef TBRF_CLI_MPI
    /* under mpirun: split, or rank 0 alone saying why (inside it the
     * command is serial: cli_mpi_active is 0) */
    if (cli_mpi_active() && cli_mpi_size() > 1 && zoom && zoom_unsplit(val))
        return cli_rank0_only(cmd_arepo_zoom, zoom->argc, zoom->argv, zoom_unsplit(val));
    if (cli_mpi_active() && cli_mpi_size() > 1 && !zoom && unsplit(val))
        return cli_rank0_only(cmd_arepo_cosmo, argc, argv, unsplit(val));
#endif
    cosmo_req q;
    memset(&q, 0, sizeof q);
    q.zoom = zoom;
    q.quiet = val[C_QUIET] != NULL;
    int ng = val[C_NGENIC] ? parse_ngenic(val, &q) : 0;
    if (ng || (!val[C_NGENIC] && (parse_cosmo(val, &q) || parse_gas(val, &q) ||
                                  parse_transfer(val, &q)))) {
        cosmo_free(&q, val[C_NGENIC] != NULL);
        return ng ? ng : EXIT_USAGE;
    }
    int split = 0;
#ifdef TBRF_CLI_MPI
    split = cli_mpi_active() && !unsplit(val) && !zoom;
    if (split && !q.files_given)
        q.file.num_files = ranks_with_planes(q.g); /* a member a rank */
#endif
    int rc = cosmo_check_out(&q);
    if (rc) {
        cosmo_free(&q, val[C_NGENIC] != NULL);
        return rc;
    }
    rc = check_digest(val, &q);
    if (rc == 0 && q.glass)
        rc = load_glass(&q);
    /* "arepo cosmo ...", with the spectrum file's digest and the order */
    q.command = with_digest(lpt_command(zoom ? strdup(zoom->command ? zoom->command : "")
                                             : request_command(argc + 1, argv - 1),
                                        val[C_LPT] != NULL, q.lpt),
                            val, &q);
    q.command = with_files(q.command, &q, split && !q.files_given);
    if (val[C_NGENIC])
        q.command = ngenic_command(q.command, &q, val);
#ifdef TBRF_CLI_MPI
    if (rc == 0 && split)
        rc = run_cosmo_mpi(&q);
#endif
    if (rc == 0 && !split)
        rc = run_cosmo(&q);
    free(q.command);
    if (rc == 0 && !val[C_QUIET] && cli_mpi_rank() == 0 && !zoom)
        arepo_say_wrote_format(q.out, q.file.num_files, q.file.format,
                               (q.gas ? 2 : 1) * q.g * q.g * q.g,
                        q.gas ? "dark-matter and gas particles (PartType1, PartType0)"
                              : "dark-matter particles (PartType1)",
                        q.file.double_precision);
    cosmo_free(&q, val[C_NGENIC] != NULL);
    return rc;
}
