/* cmd_arepo.c — `tbrf arepo`: initial conditions for the AREPO moving-mesh
 * code (doc/arepo.md).
 *
 *   tbrf arepo gas --out BASE --box L (--lattice G | --jittered G | --random N
 *                  | --points FILE) [density, field, energy, header options]
 *   tbrf arepo pk --out FILE --omega-m W --omega-b W --hubble H --sigma8 S [...]
 *
 * gas: mesh-generating points, a density field rho_mean (1 + delta) or
 * lognormal at them, masses from their periodic Voronoi volumes (or the
 * density itself for READ_MASS_AS_DENSITY_IN_INPUT builds), internal
 * energy from a temperature or sound speed, velocities zero or a random
 * field (--velocity), written as an
 * AREPO HDF5 set with every parameter in /tbrf. pk: the Eisenstein & Hu
 * linear P(k) normalised to sigma8 and scaled by D(z)^2 as a "k P" table
 * that `tbrf generate --model table` reads. */
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "cli.h"
#include "tbrf_arepo.h"
#include "io/tbrf_io.h"
#include "request.h"
#include "tbrf.h"

/* CODATA 2018, cgs: u = k_B T / ((gamma - 1) mu m_p). */
#define K_BOLTZMANN 1.380649e-16
#define M_PROTON 1.67262192369e-24

static void usage_gas(void)
{
    printf("usage: tbrf arepo gas --out BASE --box L (--lattice G | --jittered G | --random N |\n"
           "                      --points FILE) [options]\n"
           "\n"
           "Gas initial conditions for AREPO: mesh-generating points in the box [0, L)^3, a\n"
           "density field at them, masses that make AREPO's density (mass / Voronoi volume)\n"
           "the intended one, internal energy, and velocities (zero, or a random field\n"
           "with --velocity); written as BASE.hdf5 (or BASE.0.hdf5 ... with --files),\n"
           "AREPO's InitCondFile being BASE.\n"
           "\n"
           "points:\n"
           "  --lattice G       G^3 points at the centres of a cubic lattice\n"
           "  --jittered G      the same, each coordinate moved by a uniform offset in\n"
           "                    [-J, J] spacings (--jitter J, default 0.25)\n"
           "  --random N        N uniform random points\n"
           "  --points FILE     an AREPO/Gadget file's PartType0/Coordinates, HDF5 /points,\n"
           "                    or text \"x y z\" rows; all inside [0, L)\n"
           "  --seed S, --realization R   random numbers of the points and the field\n"
           "density (volume-weighted mean exactly --rho, default 1):\n"
           "  --density uniform | linear | lognormal   rho (1 + sigma g) or rho exp(sigma g)\n"
           "                    rescaled, g the unit-variance field (default uniform)\n"
           "  --sigma S         rms of delta (linear) or of ln rho (lognormal)\n"
           "  --lognormal       lognormal whose contrast rho/rho_mean - 1 has the model's\n"
           "                    spectrum and variance exp(S^2) - 1 (doc/lognormal.md);\n"
           "                    --target-spectrum gaussian: g has it, as --density lognormal\n"
           "  --forcing-b B     with --lognormal and --mach M: S^2 = ln(1 + B^2 M^2)\n"
           "  --model NAME and --index --kmin --kmax --length --nu --table as in generate;\n"
           "                    --resolution (default the mean point spacing)\n"
           "  --volumes voronoi | mean   Voronoi cell volumes (Qhull, default) or the\n"
           "                    fallback L^3/N (about 6-25%% wrong per cell off a lattice)\n"
           "  --mass-as-density write the density into Masses (READ_MASS_AS_DENSITY_IN_INPUT)\n"
           "energy (one of):\n"
           "  --temperature T   kelvin; u = k_B T / ((gamma - 1) mu m_p) in units of\n"
           "                    --unit-velocity (cm/s, default 1e5: u in (km/s)^2);\n"
           "                    --mu (default 0.6), --gamma (default 5/3)\n"
           "  --sound-speed C   u = C^2 / (gamma (gamma - 1)), C in the velocity unit\n"
           "velocities (default none: zero):\n"
           "  --velocity none | solenoidal | compressive | mixed   a periodic Gaussian vector\n"
           "                    field with the spectrum of --model (mixed: --zeta Z, the\n"
           "                    solenoidal weight, 0 <= Z <= 1)\n"
           "  --vrms V | --mach M  its rms speed (all three components) in the velocity\n"
           "                    unit, or M times the adiabatic sound speed sqrt(gamma\n"
           "                    (gamma - 1) u)\n"
           "  --keep-mean-velocity  keep the field's mass-weighted mean velocity sum m v /\n"
           "                    sum m; by default it is subtracted (recorded as\n"
           "                    velocity_mean_subtracted): the box does not move as a whole\n"
           "header: --time A (default 0) --redshift Z (0) --omega-m --omega-lambda\n"
           "  --omega-b (0) --hubble H (1) --precision float|double (double: must match\n"
           "  AREPO's INPUT_IN_DOUBLEPRECISION) --long-ids (uint64 IDs, AREPO's LONGIDS)\n"
           "  --files F (default 1)\n"
           "  --format hdf5|gadget1|gadget2: Gadget's binary formats 1 and 2 instead of\n"
           "  HDF5 (files BASE or BASE.0 ..., float32 unless --precision double, a MASS\n"
           "  block for the cells' masses; the side file BASE.tbrf.h5 holds the parameters)\n"
           "--quiet: no 'wrote FILE: ...' line on stderr\n"
           "\n"
           "The fields are periodic over the box (tbrf's periodic plans: the box's Fourier\n"
           "modes on a lattice of spacing --resolution, evaluated at the points by a\n"
           "non-uniform FFT), so AREPO's periodic box has no seam.\n");
}

enum { G_OUT, G_BOX, G_LATTICE, G_JITTERED, G_RANDOM, G_POINTS, G_JITTER, G_SEED, G_REAL,
       G_DENSITY, G_SIGMA, G_RHO, G_MODEL, G_INDEX, G_KMIN, G_KMAX, G_LENGTH, G_NU, G_TABLE,
       G_RES, G_VOLUMES, G_MASSDENS, G_TEMP, G_MU, G_GAMMA, G_CS, G_UNITV, G_VEL, G_TIME,
       G_Z, G_OM, G_OL, G_OB, G_H, G_PREC, G_LONGIDS, G_FILES, G_ZETA, G_VRMS, G_MACH, G_QUIET,
       G_HELP,
       /* lognormal densities */
       G_LOGNORMAL, G_TARGET, G_FORCING_B,
       /* the mean velocity kept */
       G_KEEPMEAN,
       /* the output layout (doc/arepo.md "Gadget binary files") */
       G_FORMAT,
       G_COUNT };
static const args_opt GOPTS[G_COUNT] = {
    {"--out", 1}, {"--box", 1}, {"--lattice", 1}, {"--jittered", 1}, {"--random", 1},
    {"--points", 1}, {"--jitter", 1}, {"--seed", 1}, {"--realization", 1}, {"--density", 1},
    {"--sigma", 1}, {"--rho", 1}, {"--model", 1}, {"--index", 1}, {"--kmin", 1}, {"--kmax", 1},
    {"--length", 1}, {"--nu", 1}, {"--table", 1}, {"--resolution", 1}, {"--volumes", 1},
    {"--mass-as-density", 0}, {"--temperature", 1}, {"--mu", 1}, {"--gamma", 1},
    {"--sound-speed", 1}, {"--unit-velocity", 1}, {"--velocity", 1}, {"--time", 1},
    {"--redshift", 1}, {"--omega-m", 1}, {"--omega-lambda", 1},
    {"--omega-b", 1}, {"--hubble", 1}, {"--precision", 1},
    {"--long-ids", 0}, {"--files", 1}, {"--zeta", 1},
    {"--vrms", 1}, {"--mach", 1}, {"--quiet", 0}, {"--help", 0},
    /* lognormal densities */
    {"--lognormal", 0}, {"--target-spectrum", 1}, {"--forcing-b", 1},
    /* the mean velocity */
    {"--keep-mean-velocity", 0},
    /* the output layout */
    {"--format", 1}};

enum { PTS_LATTICE, PTS_JITTERED, PTS_RANDOM, PTS_FILE };
enum { DENS_UNIFORM, DENS_LINEAR, DENS_LOGNORMAL };

/* One gas run, as parsed. */
typedef struct gas_req {
    const char *out, *points_file;
    char *command;
    double box, jitter, sigma, rho, resolution, u, temperature, sound_speed, mu, gamma, unit_v;
    int points, density, voronoi, mass_as_density;
    int velocity;            /* TBRF_SCALAR (none) or a tbrf_vector_kind */
    double zeta, vrms, mach; /* the velocity field's weight and rms (or Mach number) */
    int64_t g, n;
    uint64_t seed, realization;
    tbrf_io_meta model; /* model_kind and parameters, as generate takes them */
    tbrf_arepo_header h;
    int format; /* --format: TBRF_AREPO_FORMAT_* */
    /* lognormal densities: which has the model's spectrum (the
     * contrast, or g as --density lognormal always did), and the share of
     * the derived Gaussian's variance clipped */
    int ln_target;
    double clipped;
    /* the mass-weighted mean velocity, subtracted unless kept */
    int keep_mean;
    double vmean[3];
    char vmean_text[80];
} gas_req;

/* A number option when given (0 with *v unchanged when absent). */
static int num(const char *const *val, int o, double *v, int positive)
{
    char err[256];
    if (!val[o])
        return 0;
    int rc = positive ? args_positive(GOPTS[o].name, val[o], v, err, sizeof err)
                      : args_double(GOPTS[o].name, val[o], v, err, sizeof err);
    if (rc)
        cli_errline("arepo gas: %s", err);
    return rc ? -1 : 0;
}

static int parse_points(const char *const *val, gas_req *q)
{
    int given = 0;
    char err[256];
    for (int o = G_LATTICE; o <= G_POINTS; o++)
        if (val[o]) {
            given++;
            q->points = o - G_LATTICE;
        }
    if (given != 1) {
        cli_errline("arepo gas: give exactly one of --lattice, --jittered, --random, --points");
        return -1;
    }
    q->jitter = 0.25;
    if (num(val, G_BOX, &q->box, 1) || num(val, G_JITTER, &q->jitter, 0))
        return -1;
    if (!val[G_BOX] || !val[G_OUT]) {
        cli_errline("arepo gas: --out and --box are required (see tbrf arepo gas --help)");
        return -1;
    }
    if (q->jitter < 0 || q->jitter >= 0.5) {
        cli_errline("arepo gas: --jitter %g must lie in [0, 0.5) spacings", q->jitter);
        return -1;
    }
    if ((q->points <= PTS_JITTERED &&
         args_int64(GOPTS[G_LATTICE + q->points].name, val[G_LATTICE + q->points], 2, 1 << 20,
                    &q->g, err, sizeof err)) ||
        (q->points == PTS_RANDOM &&
         args_int64("--random", val[G_RANDOM], 2, INT64_MAX / 64, &q->n, err, sizeof err)) ||
        (val[G_SEED] && args_uint64("--seed", val[G_SEED], &q->seed, err, sizeof err)) ||
        (val[G_REAL] && args_uint64("--realization", val[G_REAL], &q->realization, err,
                                    sizeof err))) {
        cli_errline("arepo gas: %s", err);
        return -1;
    }
    if (q->points <= PTS_JITTERED)
        q->n = q->g * q->g * q->g;
    q->points_file = val[G_POINTS];
    q->out = val[G_OUT];
    return 0;
}

/* Lognormal densities: --lognormal (the contrast targeted, or g
 * with --target-spectrum gaussian: what --density lognormal, kept as it
 * was, makes) and sigma from --forcing-b and the velocities' --mach. */
static int parse_lognormal(const char *const *val, gas_req *q)
{
    static const char *const TS[] = {"density", "gaussian"};
    q->ln_target = 0; /* --density lognormal: recorded as before */
    if (!val[G_LOGNORMAL]) {
        if (val[G_TARGET] || val[G_FORCING_B]) {
            cli_errline("arepo gas: --target-spectrum and --forcing-b need --lognormal");
            return -1;
        }
        return 0;
    }
    if (val[G_DENSITY] && strcmp(val[G_DENSITY], "lognormal") != 0) {
        cli_errline("arepo gas: --lognormal makes a lognormal density, not --density %.60s",
                    val[G_DENSITY]);
        return -1;
    }
    int t = val[G_TARGET] ? args_choice("--target-spectrum", val[G_TARGET], TS, 2) : 0;
    if (t < 0)
        return -1;
    q->ln_target = t == 0 ? TBRF_IO_LOGNORMAL_DENSITY : TBRF_IO_LOGNORMAL_GAUSSIAN;
    if (!val[G_FORCING_B])
        return 0;
    double b = NAN, mach = NAN;
    if (!val[G_MACH] || val[G_SIGMA]) {
        cli_errline("arepo gas: --forcing-b takes sigma from --mach (not with --sigma)");
        return -1;
    }
    if (num(val, G_FORCING_B, &b, 1) || num(val, G_MACH, &mach, 1))
        return -1;
    q->sigma = sqrt(tbrf_lognormal_sigma2_mach(mach, b));
    return 0;
}

/* The density kind, sigma, mean, volumes, and the model of the field. */
static int parse_density(const char *const *val, gas_req *q)
{
    static const char *const KINDS[] = {"uniform", "linear", "lognormal"};
    static const char *const VOLS[] = {"voronoi", "mean"};
    q->density = val[G_DENSITY] ? args_choice("--density", val[G_DENSITY], KINDS, 3) : 0;
    if (val[G_LOGNORMAL])
        q->density = DENS_LOGNORMAL;
    int v = val[G_VOLUMES] ? args_choice("--volumes", val[G_VOLUMES], VOLS, 2) : 0;
    if (q->density < 0 || v < 0)
        return -1;
    q->voronoi = v == 0;
    q->mass_as_density = val[G_MASSDENS] != NULL;
    q->rho = 1;
    if (num(val, G_RHO, &q->rho, 1) || num(val, G_SIGMA, &q->sigma, 1) ||
        num(val, G_RES, &q->resolution, 1))
        return -1;
    tbrf_io_meta *m = &q->model;
    double *p = m->param;
    if (num(val, G_INDEX, &p[TBRF_IO_P_INDEX], 0) || num(val, G_KMIN, &p[TBRF_IO_P_KMIN], 0) ||
        num(val, G_KMAX, &p[TBRF_IO_P_KMAX], 1) || num(val, G_LENGTH, &p[TBRF_IO_P_LENGTH], 1) ||
        num(val, G_NU, &p[TBRF_IO_P_NU], 1))
        return -1;
    /* --model also gives the velocities their spectrum */
    int vel = val[G_VEL] && strcmp(val[G_VEL], "none") != 0;
    const int sigma = val[G_SIGMA] || val[G_FORCING_B];
    int field = sigma || (val[G_MODEL] && !vel);
    if (q->density == DENS_UNIFORM ? field : !(sigma && val[G_MODEL])) {
        cli_errline("arepo gas: --density linear or lognormal needs --sigma (or --forcing-b) "
                    "and --model; uniform takes neither (--model only with --velocity)");
        return -1;
    }
    m->model_kind = val[G_MODEL];
    m->table_file = val[G_TABLE];
    m->by_variance = 1;
    m->variance = 1;
    if (m->model_kind && !cli_model_find(m->model_kind)) {
        cli_errline("arepo gas: unknown model '%.100s' (%s)", m->model_kind, cli_model_names());
        return -1;
    }
    return 0;
}

/* Internal energy per unit mass in the velocity unit squared. */
static int parse_energy(const char *const *val, gas_req *q)
{
    q->mu = 0.6;
    q->gamma = 5.0 / 3.0;
    q->unit_v = 1e5;
    if (num(val, G_TEMP, &q->temperature, 1) || num(val, G_CS, &q->sound_speed, 1) ||
        num(val, G_MU, &q->mu, 1) || num(val, G_GAMMA, &q->gamma, 1) ||
        num(val, G_UNITV, &q->unit_v, 1))
        return -1;
    if (!val[G_TEMP] == !val[G_CS]) {
        cli_errline("arepo gas: give one of --temperature (K) and --sound-speed");
        return -1;
    }
    if (!(q->gamma > 1)) {
        cli_errline("arepo gas: --gamma %g must be > 1", q->gamma);
        return -1;
    }
    if (val[G_TEMP])
        q->u = K_BOLTZMANN * q->temperature / ((q->gamma - 1) * q->mu * M_PROTON) /
               (q->unit_v * q->unit_v);
    else
        q->u = q->sound_speed * q->sound_speed / (q->gamma * (q->gamma - 1));
    /* the float32 limit is checked with --precision (check_values) */
    if (!isfinite(q->u) || !(q->u > 0)) {
        cli_errline("arepo gas: the internal energy from %s and --unit-velocity %g is %g: "
                    "not a finite positive number; choose another unit", val[G_TEMP] ?
                    "--temperature" : "--sound-speed", q->unit_v, q->u);
        return -1;
    }
    return 0;
}

/* Values the file's precision cannot hold (float32: up to 3.4e38), named
 * by the option that makes them, once the points are known and before the
 * field: the energy, the rms speed (times a margin for the Gaussian
 * tail), the box and the mean mass of a cell (rho L^3 / N, or rho with
 * --mass-as-density). What a field's extremes make is the writer's to
 * refuse (io/arepo.c, check_type). */
static int check_values(const char *const *val, const gas_req *q)
{
    const double lim = q->h.double_precision ? DBL_MAX : FLT_MAX;
    const char *unit = q->h.double_precision ? "" : " (--precision float: 3.4e38 at most)";
    if (q->u > lim) {
        cli_errline("arepo gas: the internal energy %g from %s and --unit-velocity %g overflows "
                    "the file's values%s; choose a larger --unit-velocity", q->u,
                    val[G_TEMP] ? "--temperature" : "--sound-speed", q->unit_v, unit);
        return -1;
    }
    if (q->velocity && !(q->vrms * 100 <= lim)) {
        cli_errline("arepo gas: velocities of rms %g (%s) overflow the file's values%s",
                    q->vrms, val[G_MACH] ? "--mach" : "--vrms", unit);
        return -1;
    }
    double mass = q->mass_as_density ? q->rho : q->rho * q->box * q->box * q->box / (double)q->n;
    if (!(mass <= lim) || !(q->box <= lim)) {
        cli_errline("arepo gas: --rho %g in a --box %g with %lld cells makes masses (%g) or "
                    "coordinates the file's values cannot hold%s", q->rho, q->box,
                    (long long)q->n, mass, unit);
        return -1;
    }
    return 0;
}

/* --velocity KIND [--zeta Z] (--vrms V | --mach M): a periodic vector
 * field with the spectrum of --model. */
static int parse_velocity(const char *const *val, gas_req *q)
{
    static const char *const K[] = {"none", "solenoidal", "compressive", "mixed"};
    q->velocity = val[G_VEL] ? args_choice("--velocity", val[G_VEL], K, 4) : 0;
    if (q->velocity < 0)
        return -1;
    if (num(val, G_ZETA, &q->zeta, 0) || num(val, G_VRMS, &q->vrms, 1) ||
        num(val, G_MACH, &q->mach, 1))
        return -1;
    q->keep_mean = val[G_KEEPMEAN] != NULL;
    if (q->velocity == TBRF_SCALAR) {
        if (val[G_ZETA] || val[G_VRMS] || val[G_MACH] || val[G_KEEPMEAN]) {
            cli_errline("arepo gas: --zeta, --vrms, --mach and --keep-mean-velocity need "
                        "--velocity");
            return -1;
        }
        return 0;
    }
    if (!val[G_MODEL] || !val[G_VRMS] == !val[G_MACH]) {
        cli_errline("arepo gas: --velocity %s needs --model (its spectrum) and one of --vrms "
                    "and --mach", K[q->velocity]);
        return -1;
    }
    if ((q->velocity == TBRF_VECTOR_MIXED) != (val[G_ZETA] != NULL) ||
        (val[G_ZETA] && !(q->zeta >= 0 && q->zeta <= 1))) {
        cli_errline("arepo gas: --velocity mixed needs --zeta Z with 0 <= Z <= 1 (and only it "
                    "takes --zeta)");
        return -1;
    }
    if (val[G_MACH])
        q->vrms = q->mach * sqrt(q->gamma * (q->gamma - 1) * q->u);
    return 0;
}

static int parse_header(const char *const *val, gas_req *q)
{
    static const char *const PREC[] = {"float", "double"};
    tbrf_arepo_header *h = &q->h;
    tbrf_arepo_header_init(h);
    int p = val[G_PREC] ? args_choice("--precision", val[G_PREC], PREC, 2) : 1;
    if (p < 0)
        return -1;
    h->double_precision = p;
    h->long_ids = val[G_LONGIDS] != NULL;
    h->box_size = q->box;
    if (num(val, G_TIME, &h->time, 0) || num(val, G_Z, &h->redshift, 0) ||
        num(val, G_OM, &h->omega0, 0) || num(val, G_OL, &h->omega_lambda, 0) ||
        num(val, G_OB, &h->omega_baryon, 0) || num(val, G_H, &h->hubble_param, 1))
        return -1;
    int64_t files = 1;
    char err[256];
    if (val[G_FILES] && args_int64("--files", val[G_FILES], 1, 65536, &files, err, sizeof err)) {
        cli_errline("arepo gas: %s", err);
        return -1;
    }
    h->num_files = (int)files;
    if (arepo_parse_format(val[G_FORMAT], val[G_PREC], &q->format, &h->double_precision))
        return -1;
    /* Bad header values stop the run before any work. */
    char herr[512];
    if (tbrf_arepo_check_header(h, herr, sizeof herr)) {
        cli_errline("arepo gas: %s", herr);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ the run */

/* Lattice, jittered or random points from the library (tbrf_ic_points:
 * its own Philox stream, apart from every field's). */
static int points_placed(const gas_req *q, double *xyz)
{
    static const int KIND[] = {TBRF_IC_LATTICE, TBRF_IC_JITTERED, TBRF_IC_RANDOM};
    tbrf_ic_points_params p;
    tbrf_ic_default_points(&p);
    p.kind = KIND[q->points];
    p.per_axis = q->g;
    p.n = q->n;
    p.box = q->box;
    p.jitter = q->jitter;
    p.seed = q->seed;
    p.realization = q->realization;
    char err[1024];
    if (tbrf_ic_points(&p, 0, q->n, xyz, err, sizeof err) != TBRF_OK) {
        cli_errline("arepo gas: %s", err);
        return -1;
    }
    return 0;
}

/* The points of the run into *xyz (malloc'ed), after the budget check. */
static int make_points(gas_req *q, double **xyz)
{
    char err[1024];
    if (q->points == PTS_FILE) {
        int dim = 3;
        int rc = tbrf_arepo_read_coordinates(q->points_file, &q->n, xyz, err, sizeof err);
        if (rc == 1)
            rc = tbrf_io_read_points(q->points_file, &dim, &q->n, xyz, err, sizeof err);
        if (rc == 0 && dim != 3)
            snprintf(err, sizeof err, "%s: 2D points; AREPO ICs here are 3D", q->points_file);
        if (rc || dim != 3) {
            cli_errline("arepo gas: %s", err);
            return EXIT_FAIL;
        }
    }
    /* positions, field, volume, mass, energy; Qhull's Delaunay and the
     * periodic images take about 2 kB more per point */
    double bytes = (double)q->n * (56.0 + (q->voronoi ? 2048.0 : 0.0));
    if (tbrf_io_budget_check(NULL, "the gas cells", bytes, err, sizeof err)) {
        cli_errline("arepo gas: %lld points: %s", (long long)q->n, err);
        return EXIT_FAIL;
    }
    if (q->points == PTS_FILE)
        return 0;
    *xyz = malloc((size_t)q->n * 3 * sizeof **xyz);
    if (!*xyz) {
        cli_errline("arepo gas: out of memory for %lld points", (long long)q->n);
        return EXIT_FAIL;
    }
    return points_placed(q, *xyz) ? EXIT_FAIL : 0;
}

/* The plan of a field periodic over the box (AREPO's box is periodic: a
 * turning-bands field would have a seam on every face): the box's modes
 * on the lattice of spacing `resolution`, evaluated at the points by the
 * non-uniform FFT. vector: TBRF_SCALAR or the velocity's kind. */
static int field_plan(const gas_req *q, const tbrf_model *model, int vector, tbrf_plan **plan)
{
    const double origin[3] = {0, 0, 0}, length[3] = {q->box, q->box, q->box};
    double n = floor(q->box / q->resolution + 0.5);
    if (!(n >= 2 && n <= 1048576)) {
        cli_errline("arepo gas: --resolution %g gives %.3g modes per axis of the box: 2 to 2^20",
                    q->resolution, n);
        return TBRF_ERR_INVALID;
    }
    const int64_t nn[3] = {(int64_t)n, (int64_t)n, (int64_t)n};
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.vector = vector;
    o.zeta = vector == TBRF_VECTOR_MIXED ? q->zeta : 0.5;
    return tbrf_make_periodic_plan(model, 3, origin, length, nn, q->seed, &o, plan);
}

/* --lognormal with the contrast targeted: *model (the contrast's shape)
 * replaced by the Gaussian's derived spectrum (tbrf_model_lognormal) for
 * var(rho/rho_mean - 1) = exp(sigma^2) - 1, over k from min(pi/(4D),
 * kmin/2) to 2 pi sqrt(3)/resolution with xi_g exact to D, D the box's
 * diagonal, as generate does; over 5% clipped is refused. 0, or EXIT_FAIL
 * after the message (*model freed). */
static int lognormal_model(gas_req *q, tbrf_model **model)
{
    const double D = q->box * sqrt(3.0), pi = 3.14159265358979323846;
    double kmin = pi / (4.0 * D), lost = NAN;
    if (q->model.param[TBRF_IO_P_KMIN] > 0.0 && 0.5 * q->model.param[TBRF_IO_P_KMIN] < kmin)
        kmin = 0.5 * q->model.param[TBRF_IO_P_KMIN];
    tbrf_model *g = NULL;
    int st = tbrf_model_set_variance(*model, expm1(q->sigma * q->sigma));
    if (st == TBRF_OK)
        st = tbrf_model_lognormal(*model, 3, kmin, 2.0 * pi * sqrt(3.0) / q->resolution, 2.0 * D,
                                  0.05, &lost, &g);
    if (st != TBRF_OK) {
        cli_errline("arepo gas: --lognormal: %s",
                    g ? tbrf_model_message(g) : tbrf_model_message(*model));
        tbrf_model_destroy(g);
        tbrf_model_destroy(*model);
        *model = NULL;
        return EXIT_FAIL;
    }
    tbrf_model_destroy(*model);
    *model = g;
    q->clipped = lost;
    return 0;
}

/* The unit-variance field g at the points (divided by the square root of
 * the plan's resolved variance, so that sigma is the rms asked for). */
static int field_at(gas_req *q, const double *xyz, int vector, double *g, double *resolved)
{
    tbrf_model *model = NULL;
    tbrf_plan *plan = NULL;
    int st = cli_model_make(&q->model, &model);
    if (st != TBRF_OK) {
        cli_errline("arepo gas: %s", model ? tbrf_model_message(model) : tbrf_strerror(st));
        tbrf_model_destroy(model);
        return EXIT_USAGE;
    }
    if (!(q->resolution > 0))
        q->resolution = q->box / cbrt((double)q->n);
    if (!vector && q->density == DENS_LOGNORMAL && q->ln_target == TBRF_IO_LOGNORMAL_DENSITY &&
        lognormal_model(q, &model))
        return EXIT_FAIL;
    st = field_plan(q, model, vector, &plan);
    if (st == TBRF_ERR_INVALID && !plan) {
        tbrf_model_destroy(model);
        return EXIT_USAGE;
    }
    if (st == TBRF_OK)
        st = tbrf_set_points(plan, q->n, xyz);
    if (st == TBRF_OK)
        st = tbrf_execute(plan, q->realization, g);
    tbrf_plan_info info;
    if (st == TBRF_OK)
        st = tbrf_plan_get_info(plan, &info);
    if (st != TBRF_OK)
        cli_errline("arepo gas: %s", cli_plan_msg(plan, st));
    else {
        *resolved = info.variance_resolved;
        double s = 1 / sqrt(info.variance_resolved);
        for (int64_t i = 0; i < q->n * (vector ? 3 : 1); i++)
            g[i] *= s;
    }
    tbrf_destroy(plan);
    tbrf_model_destroy(model);
    return st == TBRF_OK ? 0 : EXIT_FAIL;
}

/* rho[i] from g (NULL: uniform) and the volumes, rescaled so that
 * sum rho V = rho_mean box^3: the volume-weighted mean is exact
 * (tbrf_ic_density_volumes). */
static int densities(const gas_req *q, const double *g, const double *vol, double *rho)
{
    tbrf_ic_density_params p;
    tbrf_ic_default_density(&p);
    p.kind = q->density == DENS_LOGNORMAL ? TBRF_DENSITY_LOGNORMAL : TBRF_DENSITY_LINEAR;
    p.rho_mean = q->rho;
    p.sigma = q->density == DENS_UNIFORM ? 0.0 : q->sigma;
    char err[1024];
    if (tbrf_ic_density_volumes(&p, q->n, g, vol, q->box * q->box * q->box, rho, err,
                                sizeof err)) {
        cli_errline("arepo gas: %s", err);
        return EXIT_FAIL;
    }
    return 0;
}

static int volumes(const gas_req *q, const double *xyz, double *vol)
{
    if (!q->voronoi) {
        for (int64_t i = 0; i < q->n; i++)
            vol[i] = q->box * q->box * q->box / (double)q->n;
        return 0;
    }
    char err[1024];
    if (tbrf_ic_voronoi_volumes(q->n, xyz, q->box, vol, err, sizeof err) != TBRF_OK) {
        cli_errline("arepo gas: %s", err);
        return EXIT_FAIL;
    }
    return 0;
}

/* Every parameter of the run, for /tbrf (tbrf info shows them). */
static size_t gas_params(const gas_req *q, double resolved, tbrf_arepo_param *p,
                         char seeds[2][24])
{
    static const char *const PTS[] = {"lattice", "jittered", "random", "file"};
    static const char *const DENS[] = {"uniform", "linear", "lognormal"};
    size_t k = 0;
    p[k++] = (tbrf_arepo_param){"command", q->command ? q->command : "tbrf arepo gas", 0};
    p[k++] = (tbrf_arepo_param){"kind", "arepo gas initial conditions", 0};
    p[k++] = (tbrf_arepo_param){"points", PTS[q->points], 0};
    if (q->points_file)
        p[k++] = (tbrf_arepo_param){"points_file", q->points_file, 0};
    p[k++] = (tbrf_arepo_param){"npoints", NULL, (double)q->n};
    if (q->points == PTS_JITTERED)
        p[k++] = (tbrf_arepo_param){"jitter", NULL, q->jitter};
    p[k++] = (tbrf_arepo_param){"box", NULL, q->box};
    /* as text: a double would round seeds above 2^53 */
    snprintf(seeds[0], 24, "%llu", (unsigned long long)q->seed);
    snprintf(seeds[1], 24, "%llu", (unsigned long long)q->realization);
    p[k++] = (tbrf_arepo_param){"seed", seeds[0], 0};
    p[k++] = (tbrf_arepo_param){"realization", seeds[1], 0};
    p[k++] = (tbrf_arepo_param){"density", DENS[q->density], 0};
    p[k++] = (tbrf_arepo_param){"rho_mean", NULL, q->rho};
    if (q->ln_target) /* which has the model's spectrum */
        p[k++] = (tbrf_arepo_param){"lognormal_target",
                                    q->ln_target == TBRF_IO_LOGNORMAL_DENSITY ? "density"
                                                                              : "gaussian", 0};
    if (q->density == DENS_LOGNORMAL && q->ln_target == TBRF_IO_LOGNORMAL_DENSITY)
        p[k++] = (tbrf_arepo_param){"lognormal_clipped", NULL, q->clipped};
    if (q->density != DENS_UNIFORM) {
        p[k++] = (tbrf_arepo_param){"sigma", NULL, q->sigma};
        p[k++] = (tbrf_arepo_param){"model_kind", q->model.model_kind, 0};
        p[k++] = (tbrf_arepo_param){"resolution", NULL, q->resolution};
        p[k++] = (tbrf_arepo_param){"variance_resolved", NULL, resolved};
        p[k++] = (tbrf_arepo_param){"field", "periodic over the box (non-uniform FFT)", 0};
    }
    p[k++] = (tbrf_arepo_param){"volumes", q->voronoi ? "voronoi (qhull)" : "mean", 0};
    p[k++] = (tbrf_arepo_param){"masses", q->mass_as_density ? "density" : "rho V", 0};
    p[k++] = (tbrf_arepo_param){"internal_energy", NULL, q->u};
    if (q->temperature > 0)
        p[k++] = (tbrf_arepo_param){"temperature", NULL, q->temperature};
    if (q->sound_speed > 0)
        p[k++] = (tbrf_arepo_param){"sound_speed", NULL, q->sound_speed};
    p[k++] = (tbrf_arepo_param){"mu", NULL, q->mu};
    p[k++] = (tbrf_arepo_param){"gamma", NULL, q->gamma};
    p[k++] = (tbrf_arepo_param){"unit_velocity_cm_s", NULL, q->unit_v};
    static const char *const VEL[] = {"none", "solenoidal", "compressive", "mixed"};
    p[k++] = (tbrf_arepo_param){"velocity", VEL[q->velocity], 0};
    if (q->velocity) {
        p[k++] = (tbrf_arepo_param){"velocity_rms", NULL, q->vrms};
        p[k++] = (tbrf_arepo_param){"velocity_zeta", NULL,
                                    q->velocity == TBRF_VECTOR_MIXED ? q->zeta
                                    : q->velocity == TBRF_VECTOR_SOLENOIDAL ? 1.0 : 0.0};
        if (q->mach > 0)
            p[k++] = (tbrf_arepo_param){"mach", NULL, q->mach};
        /* "vx vy vz", subtracted or kept */
        p[k++] = (tbrf_arepo_param){q->keep_mean ? "velocity_mean_kept"
                                                 : "velocity_mean_subtracted", q->vmean_text, 0};
        if (q->density == DENS_UNIFORM) {
            p[k++] = (tbrf_arepo_param){"model_kind", q->model.model_kind, 0};
            p[k++] = (tbrf_arepo_param){"resolution", NULL, q->resolution};
        }
    }
    return k;
}

/* The mass-weighted mean velocity sum m v / sum m (m = rho V: the cells'
 * masses whatever Masses holds), subtracted from every cell unless
 * --keep-mean-velocity (the chance correlation of independent
 * density and velocity fields moves the box as a whole otherwise). */
static void mean_velocity(gas_req *q, const double *rho, const double *vol, double *vel)
{
    double m = 0, mv[3] = {0, 0, 0};
    for (int64_t i = 0; i < q->n; i++) {
        const double mi = rho[i] * vol[i];
        m += mi;
        for (int c = 0; c < 3; c++)
            mv[c] += mi * vel[3 * i + c];
    }
    for (int c = 0; c < 3; c++)
        q->vmean[c] = mv[c] / m;
    snprintf(q->vmean_text, sizeof q->vmean_text, "%.17g %.17g %.17g", q->vmean[0], q->vmean[1],
             q->vmean[2]);
    if (q->keep_mean)
        return;
    for (int64_t i = 0; i < q->n; i++)
        for (int c = 0; c < 3; c++)
            vel[3 * i + c] -= q->vmean[c];
}

/* Field, volumes, densities, masses and the file. */
static int run_gas(gas_req *q, double *xyz)
{
    double *buf = malloc((size_t)q->n * (q->velocity ? 7 : 4) * sizeof *buf);
    if (!buf) {
        cli_errline("arepo gas: out of memory for %lld points", (long long)q->n);
        return EXIT_FAIL;
    }
    double *g = buf, *vol = buf + q->n, *rho = buf + 2 * q->n, *u = buf + 3 * q->n;
    double *vel = q->velocity ? buf + 4 * q->n : NULL;
    double resolved = NAN, vresolved = NAN;
    int rc = q->density == DENS_UNIFORM ? 0 : field_at(q, xyz, TBRF_SCALAR, g, &resolved);
    if (rc == 0 && vel) {
        /* unit-variance components: the rms speed of three is vrms */
        rc = field_at(q, xyz, q->velocity, vel, &vresolved);
        for (int64_t i = 0; rc == 0 && i < 3 * q->n; i++)
            vel[i] *= q->vrms / sqrt(3.0);
    }
    if (rc == 0)
        rc = volumes(q, xyz, vol);
    if (rc == 0)
        rc = densities(q, q->density == DENS_UNIFORM ? NULL : g, vol, rho);
    if (rc == 0 && vel)
        mean_velocity(q, rho, vol, vel);
    if (rc == 0) {
        /* rho becomes the Masses dataset: rho V, or rho itself. */
        for (int64_t i = 0; i < q->n; i++) {
            u[i] = q->u;
            if (!q->mass_as_density)
                rho[i] *= vol[i];
        }
        tbrf_arepo_particles t[6];
        memset(t, 0, sizeof t);
        t[0] = (tbrf_arepo_particles){q->n, xyz, vel, rho, u, 1};
        tbrf_arepo_param par[40];
        char seeds[2][24];
        size_t np = gas_params(q, resolved, par, seeds);
        char err[1024];
        if (tbrf_arepo_write_format(q->out, &q->h, t, par, np, q->format, err, sizeof err)) {
            cli_errline("arepo gas: %s", err);
            rc = EXIT_FAIL;
        }
    }
    free(buf);
    return rc;
}

/* The set's first member before the work (cli_check_output), against a
 * lower bound of the set's size: positions, velocities, 4-byte IDs. */
static int gas_check_out(const gas_req *q)
{
    char *first = tbrf_arepo_member_name(q->out, q->h.num_files, 0, q->format);
    if (!first) {
        cli_errline("arepo gas: out of memory");
        return EXIT_FAIL;
    }
    const double bytes = (double)q->n * (6.0 * (q->h.double_precision ? 8.0 : 4.0) + 4.0);
    int rc = cli_check_output("arepo gas", first, bytes, bytes / q->h.num_files);
    free(first);
    return rc;
}

static int cmd_arepo_gas(int argc, char **argv)
{
    const char *val[G_COUNT] = {0};
    int p = args_parse_options("arepo gas", GOPTS, G_COUNT, G_HELP, argc, argv, val);
    if (p == 1) {
        usage_gas();
        return 0;
    }
    if (p < 0)
        return EXIT_USAGE;
    /* Under mpirun the other ranks could only wait: the Voronoi volumes
     * and the densities' normalisation need every point at once, and the
     * field is one non-uniform FFT of the whole box's modes on one
     * process; refused rather than run on one rank with P - 1 idle. */
    if (cli_mpi_size() > 1) {
        if (cli_mpi_rank() == 0)
            cli_errline("arepo gas: not split over MPI ranks (its volumes and density "
                        "normalisation need every point, its field is one transform of the whole "
                        "box): run it without mpirun, as one process");
        return EXIT_USAGE;
    }
    gas_req q;
    memset(&q, 0, sizeof q);
    tbrf_io_meta_init(&q.model);
    if (parse_points(val, &q) || parse_lognormal(val, &q) || parse_density(val, &q) || parse_energy(val, &q) ||
        parse_velocity(val, &q) || parse_header(val, &q))
        return EXIT_USAGE;
    const char *in[2] = {q.points_file, q.model.table_file};
    const char *what[2] = {"the --points input", "the --table input"};
    if (arepo_refuse_format_inputs("arepo gas", q.out, q.h.num_files, q.format, in, what, 2))
        return EXIT_USAGE;
    double *xyz = NULL;
    int rc = make_points(&q, &xyz);
    if (rc == 0 && check_values(val, &q))
        rc = EXIT_USAGE;
    if (rc == 0)
        rc = gas_check_out(&q);
    if (rc == 0 && q.points == PTS_FILE)
        rc = cli_refuse_duplicates("arepo gas", "--points", q.points_file, q.n, xyz,
                                   q.h.double_precision ? 0.0 : q.box);
    if (rc == 0) {
        q.command = request_command(argc + 1, argv - 1); /* "arepo gas ..." */
        rc = run_gas(&q, xyz);
    }
    if (rc == 0 && !val[G_QUIET])
        arepo_say_wrote_format(q.out, q.h.num_files, q.format, q.n, "gas cells (PartType0)",
                               q.h.double_precision);
    free(q.command);
    free(xyz);
    return rc;
}

/* ------------------------------------------------------------ pk */

static void usage_pk(void)
{
    printf("usage: tbrf arepo pk --out FILE --omega-m W --omega-b W --hubble H --sigma8 S\n"
           "                     [--ns N] [--omega-lambda W] [--t-cmb T] [--redshift Z]\n"
           "                     [--kmin K] [--kmax K] [--no-wiggles] [--quiet]\n"
           "\n"
           "Writes the linear matter power spectrum P(k) = A k^n_s T(k)^2 D(z)^2 as text\n"
           "rows \"k P\" (k in h/Mpc, P in (Mpc/h)^3): T the Eisenstein & Hu (1998)\n"
           "transfer function (with baryon wiggles unless --no-wiggles), A such that\n"
           "sigma(8 Mpc/h) = S at z = 0, D the linear growth factor of the flat (unless\n"
           "--omega-lambda) LCDM model, D(0) = 1. The file is a table model for\n"
           "`tbrf generate --model table --table FILE`. Defaults: n_s 0.9667,\n"
           "omega-lambda 1 - omega-m, t-cmb 2.7255 K, z 0, k from 1e-4 to 100 h/Mpc.\n");
}

enum { K_OUT, K_OM, K_OB, K_H, K_S8, K_NS, K_OL, K_TCMB, K_Z, K_KMIN, K_KMAX, K_NOW, K_QUIET,
       K_HELP, K_COUNT };
static const args_opt KOPTS[K_COUNT] = {
    {"--out", 1}, {"--omega-m", 1}, {"--omega-b", 1},
    {"--hubble", 1}, {"--sigma8", 1}, {"--ns", 1}, {"--omega-lambda", 1},
    {"--t-cmb", 1}, {"--redshift", 1}, {"--kmin", 1},
    {"--kmax", 1}, {"--no-wiggles", 0}, {"--quiet", 0}, {"--help", 0}};

/* Values of the numeric options (defaults where absent). */
static int pk_numbers(const char *const *val, double *v)
{
    /* n_s, T_CMB and an unset omega_lambda (NaN: flat, 1 - omega_m) are
     * the library's defaults (tbrf_ic_default_cosmo) */
    tbrf_ic_cosmo_params lib;
    tbrf_ic_default_cosmo(&lib);
    const double DEF[K_COUNT] = {0, NAN, NAN, NAN, NAN, lib.n_s, lib.omega_lambda, lib.t_cmb, 0,
                                 1e-4, 100};
    char err[256];
    for (int o = K_OM; o <= K_KMAX; o++) {
        v[o] = DEF[o];
        if (!val[o] && isnan(DEF[o]) && o != K_OL) {
            cli_errline("arepo pk: %s is required (see tbrf arepo pk --help)", KOPTS[o].name);
            return -1;
        }
        if (val[o] && args_double(KOPTS[o].name, val[o], &v[o], err, sizeof err)) {
            cli_errline("arepo pk: %s", err);
            return -1;
        }
    }
    return 0;
}

/* The model normalised and scaled; 0 or an EXIT_* status. */
static int pk_model(const double *v, int wiggles, tbrf_model **m)
{
    double d = NAN;
    int st = tbrf_cosmo_growth(v[K_OM], v[K_OL], v[K_Z], &d);
    if (st != TBRF_OK) {
        cli_errline("arepo pk: no growth factor for omega-m %g, omega-lambda %g, z %g",
                    v[K_OM], v[K_OL], v[K_Z]);
        return EXIT_USAGE;
    }
    st = tbrf_model_eisenstein_hu(v[K_OM], v[K_OB], v[K_H], v[K_NS], v[K_TCMB], wiggles,
                                  v[K_KMIN], v[K_KMAX], m);
    /* sigma(8 Mpc/h) at z is sigma8 D(z): P scales as D^2 */
    if (st == TBRF_OK)
        st = tbrf_model_normalize_sigma(*m, 8, v[K_S8] * d);
    if (st != TBRF_OK) {
        cli_errline("arepo pk: %s", *m ? tbrf_model_message(*m) : tbrf_strerror(st));
        return EXIT_USAGE;
    }
    return 0;
}

/* The rows into a temporary beside FILE, renamed when complete. */
static int pk_write(const char *out, const tbrf_model *m, const char *command)
{
    size_t n = 0;
    tbrf_model_table_data(m, &n, NULL, NULL);
    char *tmp = malloc(strlen(out) + 32);
    if (!tmp)
        return EXIT_FAIL;
    snprintf(tmp, strlen(out) + 32, "%s.tmp-%ld", out, (long)getpid());
    cli_guard_temp(tmp);
    FILE *f = fopen(tmp, "w");
    int ok = f != NULL;
    if (ok) {
        fprintf(f, "# %s\n# %s\n# k [h/Mpc]  P(k) [(Mpc/h)^3]\n", command ? command : "",
                tbrf_model_describe(m));
        double *k = malloc(2 * n * sizeof *k);
        ok = k && tbrf_model_table_data(m, &n, k, k + n) == TBRF_OK;
        for (size_t i = 0; ok && i < n; i++)
            ok = fprintf(f, "%.17g %.17g\n", k[i], tbrf_model_spectrum(m, 3, k[i])) > 0;
        free(k);
        ok = (fflush(f) == 0) & ok & (fsync(fileno(f)) == 0);
        ok = (fclose(f) == 0) & ok;
    }
    if (!ok || rename(tmp, out) != 0) {
        cli_errline("arepo pk: cannot write %s", out);
        unlink(tmp);
        cli_unguard_temp();
        free(tmp);
        return EXIT_FAIL;
    }
    cli_unguard_temp();
    free(tmp);
    return 0;
}

static int cmd_arepo_pk(int argc, char **argv)
{
    const char *val[K_COUNT] = {0};
    int p = args_parse_options("arepo pk", KOPTS, K_COUNT, K_HELP, argc, argv, val);
    if (p == 1) {
        usage_pk();
        return 0;
    }
    if (p < 0)
        return EXIT_USAGE;
    double v[K_COUNT];
    if (!val[K_OUT]) {
        cli_errline("arepo pk: --out is required (see tbrf arepo pk --help)");
        return EXIT_USAGE;
    }
    if (pk_numbers(val, v))
        return EXIT_USAGE;
    tbrf_model *m = NULL;
    int rc = pk_model(v, val[K_NOW] ? 0 : 1, &m);
    if (rc == 0) {
        char *command = request_command(argc + 1, argv - 1);
        rc = pk_write(val[K_OUT], m, command);
        free(command);
    }
    if (rc == 0 && !val[K_QUIET]) {
        size_t rows = 0;
        char esc[1024];
        tbrf_model_table_data(m, &rows, NULL, NULL);
        fprintf(stderr, "wrote %s: P(k) table, %zu rows (k in h/Mpc, P in (Mpc/h)^3)\n",
                tbrf_io_escape(val[K_OUT], esc, sizeof esc), rows);
    }
    tbrf_model_destroy(m);
    return rc;
}

void arepo_say_wrote(const char *base, int files, int64_t n, const char *what, int dbl)
{
    double bytes = 0;
    for (int i = 0; i < files; i++) {
        char *name = tbrf_arepo_file_name(base, files, i);
        struct stat st;
        if (name && stat(name, &st) == 0)
            bytes += (double)st.st_size;
        free(name);
    }
    char *first = tbrf_arepo_file_name(base, files, 0);
    char *last = tbrf_arepo_file_name(base, files, files - 1);
    char size[32], e1[1024], e2[1024];
    cli_human_size(bytes, size, sizeof size);
    if (first && last && files > 1)
        fprintf(stderr, "wrote %s ... %s (%d files): AREPO initial conditions, %lld %s, %s, %s\n",
                tbrf_io_escape(first, e1, sizeof e1), tbrf_io_escape(last, e2, sizeof e2), files,
                (long long)n, what, dbl ? "float64" : "float32", size);
    else if (first)
        fprintf(stderr, "wrote %s: AREPO initial conditions, %lld %s, %s, %s\n",
                tbrf_io_escape(first, e1, sizeof e1), (long long)n, what,
                dbl ? "float64" : "float32", size);
    free(first);
    free(last);
}

static int arepo_commands(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "gas") == 0)
        return cmd_arepo_gas(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "pk") == 0)
        return cmd_arepo_pk(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "cosmo") == 0)
        return cmd_arepo_cosmo(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "glass") == 0)
        return cmd_arepo_glass(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "zoom") == 0)
        return cmd_arepo_zoom(argc - 1, argv + 1);
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: tbrf arepo gas|cosmo|zoom|glass|pk [options]   (tbrf arepo gas --help, ...)\n"
               "\n"
               "  gas   gas initial conditions at mesh-generating points (AREPO HDF5)\n"
               "  cosmo dark-matter (and gas) cosmological initial conditions (2LPT)\n"
               "  zoom  the same with a Lagrangian region refined (a zoom IC)\n"
               "  glass a glass particle load (for cosmo --glass)\n"
               "  pk    the Eisenstein & Hu linear P(k), sigma8-normalised, as a table\n");
        return 0;
    }
    cli_errline("arepo: give 'gas', 'cosmo', 'zoom', 'glass' or 'pk' (see tbrf arepo --help)");
    return EXIT_USAGE;
}

/* Under mpirun only arepo cosmo and arepo zoom split over the ranks
 * (cmd_arepo_cosmo.c says when they cannot); every other subcommand runs
 * on rank 0 alone. */
int cmd_arepo(int argc, char **argv)
{
    /* a signal while a set is written removes every member's temporary */
    tbrf_arepo_set_temp_hook(cli_guard_temps);
    const int splits = argc >= 2 && (strcmp(argv[1], "cosmo") == 0 || strcmp(argv[1], "zoom") == 0);
    if (cli_mpi_active() && cli_mpi_size() > 1 && !splits)
        return cli_rank0_only(arepo_commands, argc, argv, NULL);
    return arepo_commands(argc, argv);
}
