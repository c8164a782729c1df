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

#include "args.h"
#include "cli.h"
#include "tbrf_arepo.h"
#include "io/tbrf_io.h"
#include "request.h"
#include "tbrf.h"


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
           "  --seed S          random seed (default 1); the same seed at another\n"
           "                    --particles shares every common first-order mode\n"
           "  --lpt N           1: Zel'dovich; 2 (default): second order\n"
           "  --fixed-amplitude every first-order mode with |delta_k| set to its rms,\n"
           "                    the phases random (Angulo & Pontzen 2016)\n"
           "  --paired          the phase-flipped partner: delta -> -delta (Psi1 -> -Psi1;\n"
           "                    Psi2 is unchanged); a pair averages to q + D2 Psi2\n"
           "  --precision P, --long-ids, --quiet   as for tbrf arepo gas\n"
           "  --files F         write F files (BASE.0.hdf5 ...), one at a time: memory is the\n"
           "                    displacement's plan plus one file's particles (checked\n"
           "                    against TBRF_MEMORY_BUDGET before anything is allocated)\n");
}

enum { C_OUT, C_BOX, C_PART, C_Z, C_OM, C_OL, C_OB, C_H, C_NS, C_S8, C_TABLE, C_NOWIG, C_LU,
       C_MU, C_SEED, C_PREC, C_LONGIDS, C_FILES, C_GAS, C_TEMP, C_GMU, C_GAMMA, C_UNITV, C_GLASS,
       C_LPT, C_FIXED, C_PAIRED, C_QUIET, C_HELP, C_COUNT };
static const args_opt COPTS[C_COUNT] = {
    {"--out", 1},        {"--box", 1},       {"--particles", 1},   {"--redshift", 1},
    {"--omega-m", 1},    {"--omega-lambda", 1}, {"--omega-b", 1},  {"--hubble", 1},
    {"--ns", 1},         {"--sigma8", 1},    {"--table", 1},       {"--no-wiggles", 0},
    {"--length-unit", 1}, {"--mass-unit", 1}, {"--seed", 1},       {"--precision", 1},
    {"--long-ids", 0},   {"--files", 1},     {"--gas", 0},         {"--temperature", 1},
    {"--mu", 1},         {"--gamma", 1},     {"--unit-velocity", 1}, {"--glass", 1},
    {"--lpt", 1},        {"--fixed-amplitude", 0}, {"--paired", 0},
    {"--quiet", 0},      {"--help", 0}};

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
} cosmo_req;

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
    q->lpt = 2;
    if (val[C_LPT] && args_int64("--lpt", val[C_LPT], 1, 2, &q->lpt, err, sizeof err)) {
        cli_errline("arepo cosmo: %s", err);
        return -1;
    }
    q->fixed = val[C_FIXED] != NULL;
    q->paired = val[C_PAIRED] != NULL;
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
    tbrf_arepo_default_cosmo_file(&q->file);
    q->file.double_precision = p;
    q->file.long_ids = val[C_LONGIDS] != NULL;
    int64_t files = 1;
    if (val[C_FILES] && args_int64("--files", val[C_FILES], 1, 65536, &files, err, sizeof err)) {
        cli_errline("arepo cosmo: %s", err);
        return -1;
    }
    q->file.num_files = (int)files;
    return 0;
}

/* --unit-velocity, and --gas with its temperature: default T_CMB (1 + z),
 * the gas still coupled to the radiation (the library's 0); mu 1.22,
 * neutral primordial gas (Y = 0.24: 4 / (4 - 3Y)). */
static int parse_gas(const char *const *val, cosmo_req *q)
{
    q->unit_v = 1e5;
    q->temp = 0;
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
        cli_errline("arepo cosmo: %s", rc ? err : "the glass must have 3 coordinates a point");
        return EXIT_USAGE;
    }
    /* two glass points at one site make coincident particles in every
     * tile (and coincident gas cells with --gas) */
    return cli_refuse_duplicates("arepo cosmo", "--glass", q->glass, q->ng, q->gx, 0.0);
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
        cli_errline("arepo cosmo: --unit-velocity %g makes %s the file cannot hold%s (%g per "
                    "length unit of displacement%s); choose a larger unit", q->unit_v,
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
        cli_errline("arepo cosmo: bad sizes (%lld particles, %d files)", (long long)n, files);
        return EXIT_FAIL;
    }
    if (tbrf_io_budget_check(NULL, "the particles", bytes, err, sizeof err) == 0)
        return 0;
    if (fewest > files)
        cli_errline("arepo cosmo: %lld particles in %d file%s: %s; --files %lld or more holds "
                    "one file's particles at a time", (long long)n, files, files > 1 ? "s" : "",
                    err, (long long)fewest);
    else
        cli_errline("arepo cosmo: %lld particles: %s (%s)", (long long)n, err,
                    p->lpt >= 2 || p->fixed_amplitude
                        ? "the displacement's periodic plan and the potentials of --lpt 2 or "
                          "--fixed-amplitude do not fit: no --files helps; --lpt 1 needs less"
                        : "the displacement's periodic plan alone does not fit: no --files "
                          "helps");
    return EXIT_FAIL;
}

/* The z = 0 P(k) of --table (checked and normalised by the library). */
static int load_table(const cosmo_req *q, tbrf_model **power)
{
    if (!q->table)
        return 0;
    int st = tbrf_model_table_file(q->table, power);
    if (st == TBRF_OK)
        return 0;
    cli_errline("arepo cosmo: %s", *power ? tbrf_model_message(*power) : tbrf_strerror(st));
    return EXIT_FAIL;
}

/* Budget, library, writer. */
static int run_cosmo(cosmo_req *q)
{
    tbrf_ic_cosmo_params p;
    ic_params(q, &p);
    if (cosmo_budget(q, &p))
        return EXIT_FAIL;
    tbrf_model *power = NULL;
    tbrf_ic_cosmo *ic = NULL;
    int rc = load_table(q, &power);
    p.power = power;
    int st = rc == 0 ? tbrf_ic_cosmo_make(&p, &ic) : TBRF_OK;
    if (rc == 0 && st != TBRF_OK) {
        cli_errline("arepo cosmo: %s", ic ? tbrf_ic_cosmo_message(ic) : tbrf_strerror(st));
        rc = st == TBRF_ERR_INVALID ? EXIT_USAGE : EXIT_FAIL;
    }
    if (rc == 0)
        rc = check_values(q, ic);
    q->file.command = q->command ? q->command : "tbrf arepo cosmo";
    q->file.power_name = q->table;
    q->file.glass_name = q->glass;
    char err[1024];
    if (rc == 0 && tbrf_arepo_write_cosmo(q->out, ic, &q->file, err, sizeof err)) {
        cli_errline("arepo cosmo: %s", err);
        rc = EXIT_FAIL;
    }
    tbrf_ic_cosmo_destroy(ic);
    tbrf_model_destroy(power);
    return rc;
}

/* The recorded command ("arepo cosmo ..."), with the default order made
 * explicit: regenerate then reruns the same order whatever a later
 * version's default, and reads a command without --lpt as one written
 * before the option, by the Zel'dovich approximation. */
static char *lpt_command(char *cmd, int given)
{
    if (!cmd || given)
        return cmd;
    const size_t n = strlen(cmd);
    char *more = realloc(cmd, n + sizeof " --lpt 2");
    if (!more) {
        free(cmd);
        return NULL;
    }
    memcpy(more + n, " --lpt 2", sizeof " --lpt 2");
    return more;
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
    if (parse_cosmo(val, &q) || parse_gas(val, &q))
        return EXIT_USAGE;
    const char *in[2] = {q.glass, q.table};
    const char *what[2] = {"the --glass input", "the --table input"};
    if (cli_refuse_set_inputs("arepo cosmo", q.out, q.file.num_files, in, what, 2))
        return EXIT_USAGE;
    int rc = q.glass ? load_glass(&q) : 0;
    q.command = lpt_command(request_command(argc + 1, argv - 1), val[C_LPT] != NULL);
    if (rc == 0)
        rc = run_cosmo(&q);
    free(q.command);
    if (rc == 0 && !val[C_QUIET])
        arepo_say_wrote(q.out, q.file.num_files, (q.gas ? 2 : 1) * q.g * q.g * q.g,
                        q.gas ? "dark-matter and gas particles (PartType1, PartType0)"
                              : "dark-matter particles (PartType1)",
                        q.file.double_precision);
    free(q.gx);
    return rc;
}
