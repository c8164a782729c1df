/* cmd_arepo_cosmo.c — `tbrf arepo cosmo`: cosmological dark-matter initial
 * conditions by the Zel'dovich approximation (doc/arepo.md, "Cosmological
 * initial conditions").
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
#include "tbrf_arepo.h"
#include "io/tbrf_io.h"
#include "request.h"
#include "tbrf.h"


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
           "                    with --gas the gas takes its own displacement from the\n"
           "                    baryons' T (same phases); give it at the starting redshift\n"
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
           "                    --mu (default 1.22, neutral primordial gas), --gamma (5/3)\n"
           "  --seed S          random seed (default 1)\n"
           "  --precision P, --long-ids, --quiet   as for tbrf arepo gas\n"
           "  --files F         write F files (BASE.0.hdf5 ...), one at a time: memory is the\n"
           "                    displacement's plan plus one file's particles (checked\n"
           "                    against TBRF_MEMORY_BUDGET before anything is allocated)\n");
}

enum { C_OUT, C_BOX, C_PART, C_Z, C_OM, C_OL, C_OB, C_H, C_NS, C_S8, C_TABLE, C_NOWIG, C_LU,
       C_MU, C_SEED, C_PREC, C_LONGIDS, C_FILES, C_GAS, C_TEMP, C_GMU, C_GAMMA, C_UNITV, C_GLASS,
       C_QUIET, C_HELP,
       /* transfer files, amplitudes, gas masses (issue #28) */
       C_TRANSFER, C_VOLUMES, C_DIGEST,
       C_COUNT };
static const args_opt COPTS[C_COUNT] = {
    {"--out", 1},        {"--box", 1},       {"--particles", 1},   {"--redshift", 1},
    {"--omega-m", 1},    {"--omega-lambda", 1}, {"--omega-b", 1},  {"--hubble", 1},
    {"--ns", 1},         {"--sigma8", 1},    {"--table", 1},       {"--no-wiggles", 0},
    {"--length-unit", 1}, {"--mass-unit", 1}, {"--seed", 1},       {"--precision", 1},
    {"--long-ids", 0},   {"--files", 1},     {"--gas", 0},         {"--temperature", 1},
    {"--mu", 1},         {"--gamma", 1},     {"--unit-velocity", 1}, {"--glass", 1},
    {"--quiet", 0},      {"--help", 0},
    /* issue #28 */
    {"--transfer", 1},   {"--volumes", 1},   {"--input-digest", 1}};

typedef struct cosmo_req {
    const char *out, *table;
    char *command;
    double box, z, om, ol, ob, h, ns, s8, mpc; /* mpc: length units per Mpc/h */
    double mass_unit;
    double unit_v;              /* velocity unit in cm/s (1e5: km/s) */
    double temp, mu, gamma;     /* gas: temperature (0: the library's default), mu, gamma */
    int64_t g;
    int wiggles, gas;
    const char *glass; /* --glass FILE: ng points gx in [0, gbox)^3 */
    double *gx, gbox;
    int64_t ng;
    uint64_t seed;
    tbrf_arepo_cosmo_file file;
    /* issue #28: --transfer FILE, --sigma8 table (keep), --volumes
     * voronoi, and the digest of the spectrum's file (--input-digest) */
    const char *transfer;
    int keep, volumes;
    char digest[17];
    char power_name[1100], gas_power_name[1100];
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

/* --sigma8 S, or --sigma8 table: the --table's own amplitude kept
 * (N-GenIC's ReNormalizeInputSpectrum = 0). */
static int parse_sigma8(const char *const *val, cosmo_req *q)
{
    if (val[C_S8] && strcmp(val[C_S8], "table") == 0) {
        if (!val[C_TABLE]) {
            cli_errline("arepo cosmo: --sigma8 table keeps a --table's own amplitude: give "
                        "--table (a --transfer file has none: give --sigma8 S)");
            return -1;
        }
        q->keep = 1;
        return 0;
    }
    return need_num(val, C_S8, &q->s8, 1);
}

static int parse_cosmo(const char *const *val, cosmo_req *q)
{
    static const char *const LU[] = {"kpc", "mpc"}, *const PREC[] = {"float", "double"};
    char err[256];
    q->ns = 0.9667;
    q->mass_unit = 1e10;
    q->seed = 1;
    if (need_num(val, C_BOX, &q->box, 1) || need_num(val, C_Z, &q->z, 0) ||
        need_num(val, C_OM, &q->om, 1) || need_num(val, C_OB, &q->ob, 0) ||
        need_num(val, C_H, &q->h, 1) || parse_sigma8(val, q) ||
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
    if (!(q->z > -1 && q->z <= 1e4) || !(q->ob >= 0) || !(q->ob < q->om) || !(q->om <= 10) ||
        !(q->ol >= 0) || !(q->ol <= 10)) {
        cli_errline("arepo cosmo: need -1 < redshift <= 1e4, 0 <= omega-b < omega-m <= 10 and "
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
    if (q->gas && !(q->ob > 0)) {
        cli_errline("arepo cosmo: --gas needs --omega-b > 0 (0: dark matter only)");
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
        cli_errline("arepo cosmo: %lld particles: %s (the displacement's periodic plan alone "
                    "does not fit: no --files helps)", (long long)n, err);
    return EXIT_FAIL;
}

/* ------------------------------------------- transfer files (issue #28) */

/* --transfer FILE (not with --table), --volumes voronoi|mean (gas on a
 * glass), --input-digest HEX (what regenerate checks). */
static int parse_transfer(const char *const *val, cosmo_req *q)
{
    static const char *const VOLS[] = {"mean", "voronoi"};
    q->transfer = val[C_TRANSFER];
    if (q->transfer && q->table) {
        cli_errline("arepo cosmo: give one of --table (P(k)) and --transfer (a CAMB/CLASS "
                    "transfer file)");
        return -1;
    }
    q->volumes = val[C_VOLUMES] ? args_choice("--volumes", val[C_VOLUMES], VOLS, 2) : 0;
    if (q->volumes < 0)
        return -1;
    if (q->volumes && !(q->gas && q->glass)) {
        cli_errline("arepo cosmo: --volumes voronoi gives the gas cells of a --glass their "
                    "Voronoi volumes' masses: it needs --gas and --glass (lattice cells all have "
                    "one volume)");
        return -1;
    }
    if (val[C_DIGEST] && !q->table && !q->transfer) {
        cli_errline("arepo cosmo: --input-digest checks the --table or --transfer file");
        return -1;
    }
    return 0;
}

/* FNV-1a (64 bits) of the file's bytes as 16 hex digits into hex: a
 * check that a spectrum's file is the one a set was made from, not a
 * cryptographic digest. 0, or -1 when unreadable. */
static int file_digest(const char *path, char hex[17])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    uint64_t h = 0xcbf29ce484222325ULL;
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 0x100000001b3ULL;
    int bad = ferror(f);
    fclose(f);
    snprintf(hex, 17, "%016llx", (unsigned long long)h);
    return bad ? -1 : 0;
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
        cli_errline("arepo cosmo: --input-digest: %s is not a regular file", file);
        return EXIT_USAGE;
    }
    if (file_digest(file, q->digest)) {
        cli_errline("arepo cosmo: cannot read the %s file %s", opt, file);
        return EXIT_FAIL;
    }
    if (val[C_DIGEST] && strcmp(val[C_DIGEST], q->digest) != 0) {
        cli_errline("arepo cosmo: the %s file %s is not the one the set was made from (its "
                    "digest is %s, the recorded one %.40s): restore that file to remake it",
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

/* A transfer file's total matter (and with --gas its baryons) as the
 * z = 0 spectra, k^n_s T^2 (the library normalises them). */
static int load_transfer(cosmo_req *q, tbrf_model **power, tbrf_model **gas)
{
    static const char *const FMT[] = {"?", "CAMB", "CLASS"};
    char err[1024];
    int32_t format = 0;
    int st = tbrf_ic_transfer_power(q->transfer, TBRF_IC_TRANSFER_MATTER, q->ns, &format, power,
                                    err, sizeof err);
    if (st == TBRF_OK && q->gas)
        st = tbrf_ic_transfer_power(q->transfer, TBRF_IC_TRANSFER_BARYON, q->ns, NULL, gas, err,
                                    sizeof err);
    if (st != TBRF_OK) {
        cli_errline("arepo cosmo: --transfer: %s", err);
        return st == TBRF_ERR_NO_MEMORY ? EXIT_FAIL : EXIT_USAGE;
    }
    const char *f = FMT[format >= 1 && format <= 2 ? format : 0];
    snprintf(q->power_name, sizeof q->power_name, "%.1000s (%s transfer, total matter, k^n_s "
             "T^2)", q->transfer, f);
    snprintf(q->gas_power_name, sizeof q->gas_power_name, "%.1000s (%s transfer, baryons)",
             q->transfer, f);
    q->file.power_name = q->power_name;
    q->file.gas_power_name = q->gas ? q->gas_power_name : NULL;
    return 0;
}

/* The z = 0 P(k) of --table (checked and normalised by the library), or
 * of --transfer. */
static int load_table(cosmo_req *q, tbrf_model **power, tbrf_model **gas)
{
    if (q->transfer)
        return load_transfer(q, power, gas);
    if (!q->table)
        return 0;
    int st = tbrf_model_table_file(q->table, power);
    if (st == TBRF_OK) {
        q->file.power_name = q->table;
        return 0;
    }
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
    tbrf_model *power = NULL, *gas = NULL;
    tbrf_ic_cosmo *ic = NULL;
    int rc = load_table(q, &power, &gas);
    p.power = power;
    p.power_gas = gas;
    p.keep_amplitude = q->keep;
    /* --sigma8 table: the table's own sigma8, recorded (the library
     * takes the rows as written) */
    if (rc == 0 && q->keep && (tbrf_model_set_amplitude(power, 1.0) != TBRF_OK ||
                               tbrf_cosmo_sigma_r(power, 8.0, &p.sigma8) != TBRF_OK)) {
        cli_errline("arepo cosmo: --sigma8 table: %s", tbrf_model_message(power));
        rc = EXIT_USAGE;
    }
    p.gas_volumes = q->volumes;
    int st = rc == 0 ? tbrf_ic_cosmo_make(&p, &ic) : TBRF_OK;
    if (rc == 0 && st != TBRF_OK) {
        cli_errline("arepo cosmo: %s", ic ? tbrf_ic_cosmo_message(ic) : tbrf_strerror(st));
        rc = st == TBRF_ERR_INVALID ? EXIT_USAGE : EXIT_FAIL;
    }
    if (rc == 0)
        rc = check_values(q, ic);
    q->file.command = q->command ? q->command : "tbrf arepo cosmo";
    q->file.glass_name = q->glass;
    char err[1024];
    if (rc == 0 && tbrf_arepo_write_cosmo(q->out, ic, &q->file, err, sizeof err)) {
        cli_errline("arepo cosmo: %s", err);
        rc = EXIT_FAIL;
    }
    tbrf_ic_cosmo_destroy(ic);
    tbrf_model_destroy(power);
    tbrf_model_destroy(gas);
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
    if (parse_cosmo(val, &q) || parse_gas(val, &q) || parse_transfer(val, &q))
        return EXIT_USAGE;
    const char *in[3] = {q.glass, q.table, q.transfer};
    const char *what[3] = {"the --glass input", "the --table input", "the --transfer input"};
    if (cli_refuse_set_inputs("arepo cosmo", q.out, q.file.num_files, in, what, 3))
        return EXIT_USAGE;
    int rc = check_digest(val, &q);
    if (rc == 0 && q.glass)
        rc = load_glass(&q);
    /* "arepo cosmo ...", with the spectrum file's digest */
    q.command = with_digest(request_command(argc + 1, argv - 1), val, &q);
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
