/* cmd_drive.c — `tbrf drive`: the forcing of a turbulence driver
 * (tbrf_driver_*, doc/driving.md) at a sequence of times, on a grid or at
 * points, written as one HDF5 series (/time, /field or /value; tbrf_io.h,
 * "Series") for inspection and tests. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "cli.h"
#include "request.h"
#ifdef TBRF_CLI_MPI
#include <mpi.h>

#include "io/tbrf_io_mpi.h"
#include "tbrf_mpi.h"
#endif

enum {
    D_BOX, D_MODEL, D_KMIN, D_KMAX, D_INDEX, D_LENGTH, D_NU, D_TABLE, D_ZETA, D_TCORR, D_RMS,
    D_SEED, D_TIMES, D_GRID, D_SPACING, D_POINTS, D_OUT, D_DT_UPDATE, D_EXACT, D_INTERP,
    D_INJECTION, D_DENSITY, D_EVAL, D_ACCURACY, D_THREADS, D_QUIET, D_DOMAIN, D_BACKEND, D_DEVICE,
    D_RMS_COMP, D_TURBGEN, D_AFAC, D_DIRS, D_COMPONENTS, D_HELP, D_COUNT
};

static const args_opt OPTS[D_COUNT] = {
    [D_BOX] = {"--box", 1},         [D_MODEL] = {"--model", 1},     [D_KMIN] = {"--kmin", 1},
    [D_KMAX] = {"--kmax", 1},       [D_INDEX] = {"--index", 1},     [D_LENGTH] = {"--length", 1},
    [D_NU] = {"--nu", 1},           [D_TABLE] = {"--table", 1},     [D_ZETA] = {"--zeta", 1},
    [D_TCORR] = {"--tcorr", 1},     [D_RMS] = {"--rms", 1},         [D_SEED] = {"--seed", 1},
    [D_TIMES] = {"--times", 1},     [D_GRID] = {"--grid", 1},       [D_SPACING] = {"--spacing", 1},
    [D_POINTS] = {"--points", 1},   [D_OUT] = {"--out", 1},         [D_DT_UPDATE] = {"--dt-update", 1},
    [D_EXACT] = {"--exact-rms", 0}, [D_INTERP] = {"--interpolate", 0},
    [D_INJECTION] = {"--injection", 1}, [D_DENSITY] = {"--density", 1}, [D_EVAL] = {"--eval", 1},
    [D_ACCURACY] = {"--accuracy", 1}, [D_THREADS] = {"--threads", 1}, [D_QUIET] = {"--quiet", 0},
    [D_DOMAIN] = {"--domain", 1},   [D_BACKEND] = {"--backend", 1}, [D_DEVICE] = {"--device", 1},
    [D_RMS_COMP] = {"--rms-per-component", 1}, [D_TURBGEN] = {"--turbgen", 1},
    [D_AFAC] = {"--amplitude-factor", 1}, [D_DIRS] = {"--directions", 1},
    [D_COMPONENTS] = {"--components", 1}, [D_HELP] = {"--help", 0},
};

/* Most time steps a series holds. */
#define MAX_TIMES 1000000

static void usage(void)
{
    printf("usage: tbrf drive (--box L|LX,LY[,LZ] | --domain X0,Y0[,Z0]:X1,Y1[,Z1])\n"
           "                  --model band|parabola|powerlaw|... [--kmin K]\n"
           "                  --kmax K --zeta Z --tcorr T --rms A [--seed S] --times T0:T1:DT\n"
           "                  (--grid NX[xNY[xNZ]] [--spacing D|DX,DY[,DZ]] | --points FILE)\n"
           "                  --out SERIES.h5 [options]\n"
           "\n"
           "Writes the forcing of a turbulence driver (doc/driving.md) at the times\n"
           "T0, T0 + DT, ... <= T1: an Ornstein-Uhlenbeck process of every Fourier mode\n"
           "2 pi m / L of the periodic box [0, L) with kmin <= |k| <= kmax (k in physical\n"
           "units: 2 pi / L is the box's fundamental), updated every --dt-update. The\n"
           "force at a time depends on nothing else, so a run started at T0 > 0 gives\n"
           "bitwise the values a run from 0 gives at the same times.\n"
           "  --domain LO:HI a non-periodic domain instead of a box: turning bands, each\n"
           "                 line's modes an OU process (--exact-rms and --eval nufft\n"
           "                 need a box); a grid starts at LO, spacing default (HI-LO)/N\n"
           "  --model M      band, parabola (shell spectra, TurbGen's), powerlaw (--index),\n"
           "                 or any generate model with --kmin/--kmax as its band\n"
           "  --zeta Z       solenoidal weight, 0 (compressive) .. 1 (solenoidal)\n"
           "  --tcorr T      autocorrelation time; --dt-update D (default T/10)\n"
           "  --rms A        target rms of the force vector, sqrt(<|f|^2>) (OU ensemble):\n"
           "                 each of the NC components has rms A/sqrt(NC) (their quadratic\n"
           "                 mean with --components 3 in 1D/2D, split by Z); --exact-rms:\n"
           "                 |f| has rms exactly A over the box at every update\n"
           "  --rms-per-component A  the same with each component's rms A (|f|'s is\n"
           "                 A sqrt(NC)), the convention of generate --vector --variance\n"
           "  --injection E [--density R]  instead of --rms: the rms that injects\n"
           "                 energy E per unit volume and time\n"
           "  --interpolate  linear in time between updates (default: constant)\n"
           "  --grid N...    cells at spacing*(i,j,k), spacing default L/N per axis; one\n"
           "                 count NX: a 1D box (with --components 3)\n"
           "  --points FILE  positions (as generate --points reads: 2D or 3D)\n"
           "  --components NC  force components: the dimension DIM (default), or 3 in a\n"
           "                 1D or 2D box (TurbGen's ndim = 1.5, 2.5: modes along the\n"
           "                 box's axes, three components each; doc/driving.md,\n"
           "                 \"Geometry\"); a 1D box needs 3. NC values per cell or point\n"
           "  --eval E       auto (default), direct or nufft; --accuracy EPS (nufft)\n"
           "  --backend B    cpu (default), opencl, cuda or auto: where the sums run (the\n"
           "                 nufft stays on the cpu; doc/driving.md); --device N (GPU)\n"
           "  --seed S (default 1), --threads T\n"
           "  --amplitude-factor A,B[,C]  per-component factors of the force, one or NC\n"
           "                 (its rms still sets the total; doc/driving.md, \"Amplitude\")\n"
           "  --directions D sparse directions for wide bands: about D s modes of each\n"
           "                 shell s, the spectrum exact in expectation (\"Wide bands\");\n"
           "                 with --turbgen a power law's default is TurbGen's count, 0 all\n"
           "  --turbgen FILE TurbGen's parameter file instead of --box, --model, --kmin,\n"
           "                 --kmax, --zeta, --tcorr, --dt-update, amplitude and --seed:\n"
           "                 its spectrum, sol_weight, t_decay, nsteps_per_t_turb and\n"
           "                 force rms (doc/driving.md, \"TurbGen's parameter files\")\n"
           "  --quiet        no progress bar (shown only on a terminal) and no 'wrote' line\n"
           "output (HDF5): /time (nt), /field (nt, [nz,] [ny,] nx, NC) or /points (N, DIM)\n"
           "and /value (nt, N, NC), float64, with the parameters as root attributes, and\n"
           "SERIES.xmf, an XDMF temporal collection (ParaView opens it as an animation).\n"
           "The series' size is checked against the free space of the output's folder\n"
           "and the memory budget before anything is computed; a non-finite force or\n"
           "coordinate is refused naming the option that causes it.\n"
           "example:\n"
           "  tbrf drive --box 1 --model band --kmin 6.283 --kmax 18.85 --zeta 1 --tcorr 1 \\\n"
           "             --rms 1 --times 0:2:0.1 --grid 32x32x32 --out series.h5\n");
}

typedef struct drive_run {
    tbrf_io_meta m;          /* model parameters (cli_model_make) */
    tbrf_driver_params p;
    uint64_t seed;
    double t0, t1, dt;
    double k0;           /* T0 = k0 DT (to rounding): frames at fl((k0 + i) DT); else -1 */
    int64_t nt, n[3], npts;
    int dim, is_grid;
    int nc;              /* force components: dim, or 3 in a 1D or 2D box */
    int fixed_dim;       /* the dimension the box (its lengths) or --turbgen's file sets, 0: any */
    double spacing[3], *xyz;
    const char *out, *points_file;
    int quiet;
    int backend, device; /* tbrf_driver_set_backend */
    double rms_comp;     /* --rms-per-component */
    int per_comp;
    const char *amp_opt; /* the option setting the amplitude, for messages */
    int n_afac;          /* --amplitude-factor's count, checked against the geometry */
    /* Under mpirun, this rank's part of every frame: planes [plane0,
     * plane0 + nplanes) of the grid's slowest axis (cells in 1D), or
     * rows of the points; positions [first, first + count). */
    int mpi;
    int64_t plane0, nplanes, first, count;
} drive_run;

static int num(const char *const *val, int o, int positive, double *v)
{
    char err[512];
    if (!val[o])
        return 0;
    if (positive ? args_positive(OPTS[o].name, val[o], v, err, sizeof err)
                 : args_double(OPTS[o].name, val[o], v, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    return 0;
}

/* --times T0:T1:DT: T0 >= 0, T1 >= T0, DT > 0, at most MAX_TIMES times. */
static int parse_times(const char *s, drive_run *d)
{
    char buf[256], *a, *b, err[512];
    snprintf(buf, sizeof buf, "%s", s ? s : "");
    a = strchr(buf, ':');
    b = a ? strchr(a + 1, ':') : NULL;
    if (!s || !a || !b) {
        cli_errline("drive: --times T0:T1:DT is required (e.g. 0:2:0.1)");
        return -1;
    }
    *a++ = '\0';
    *b++ = '\0';
    if (args_double("--times T0", buf, &d->t0, err, sizeof err) ||
        args_double("--times T1", a, &d->t1, err, sizeof err) ||
        args_positive("--times DT", b, &d->dt, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    const double count = floor((d->t1 - d->t0) / d->dt * (1.0 + 1e-12)) + 1.0;
    if (!(d->t0 >= 0.0) || !(d->t1 >= d->t0) || !(count <= MAX_TIMES)) {
        cli_errline("drive: --times %.60s: need 0 <= T0 <= T1 and at most %d times", s, MAX_TIMES);
        return -1;
    }
    d->nt = (int64_t)count;
    /* A T0 on the lattice of DT (as written, to rounding) starts the frames
     * k0 + i, computed as a run from 0 computes them: fl(j DT) is the
     * double the driver takes as update j's start, where T0 + i DT may be
     * an ulp below it and fall in the update before. */
    const double k0 = nearbyint(d->t0 / d->dt);
    d->k0 = fabs(d->t0 - k0 * d->dt) <= 1e-12 * fmax(d->t0, d->dt) ? k0 : -1.0;
    return 0;
}

/* The time of frame i. */
static double frame_time(const drive_run *d, int64_t i)
{
    return d->k0 >= 0.0 ? (d->k0 + (double)i) * d->dt : d->t0 + (double)i * d->dt;
}

/* The model from the generate-style options. */
static int parse_model(const char *const *val, drive_run *d)
{
    const cli_model *k = val[D_MODEL] ? cli_model_find(val[D_MODEL]) : NULL;
    if (!k) {
        cli_errline("drive: --model %.60s: one of %s", val[D_MODEL] ? val[D_MODEL] : "(missing)",
                    cli_model_names());
        return -1;
    }
    d->m.model_kind = k->name;
    if (!val[D_KMAX]) {
        cli_errline("drive: --kmax is required (the driven band ends there)");
        return -1;
    }
    if ((val[D_INDEX] && !(k->allowed & MP_INDEX)) || (val[D_LENGTH] && !(k->allowed & MP_LENGTH)) ||
        (val[D_NU] && !(k->allowed & MP_NU)) || (val[D_TABLE] && !(k->allowed & MP_TABLE))) {
        cli_errline("drive: an option given does not apply to model %s", k->name);
        return -1;
    }
    d->m.param[TBRF_IO_P_KMIN] = 0.0;
    double *p = d->m.param;
    if (num(val, D_KMIN, 0, &p[TBRF_IO_P_KMIN]) || num(val, D_KMAX, 1, &p[TBRF_IO_P_KMAX]) ||
        num(val, D_INDEX, 0, &p[TBRF_IO_P_INDEX]) || num(val, D_LENGTH, 1, &p[TBRF_IO_P_LENGTH]) ||
        num(val, D_NU, 1, &p[TBRF_IO_P_NU]))
        return -1;
    if (((k->required & MP_INDEX) && !val[D_INDEX]) || ((k->required & MP_LENGTH) && !val[D_LENGTH]) ||
        ((k->required & MP_NU) && !val[D_NU]) || ((k->required & MP_TABLE) && !val[D_TABLE])) {
        cli_errline("drive: model %s needs more options (tbrf generate --help lists them)", k->name);
        return -1;
    }
    d->m.table_file = val[D_TABLE];
    d->m.by_variance = 1;
    d->m.variance = 1.0;
    return 0;
}

/* --domain X0,Y0[,Z0]:X1,Y1[,Z1] (as generate's) into origin and length,
 * periodic = 0; *nb the number of values per side. */
static int parse_domain(const char *s, tbrf_driver_params *p, int *nb)
{
    char err[512], half[256];
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    const char *colon = strchr(s, ':');
    int k1 = 0;
    if (!colon || strchr(colon + 1, ':') || (size_t)(colon - s) >= sizeof half) {
        cli_errline("drive: --domain '%.60s' is not X0,Y0[,Z0]:X1,Y1[,Z1]", s);
        return -1;
    }
    snprintf(half, sizeof half, "%.*s", (int)(colon - s), s);
    if (args_doubles("--domain", half, 3, lo, nb, err, sizeof err) ||
        args_doubles("--domain", colon + 1, 3, hi, &k1, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    if (*nb != k1 || *nb < 2) {
        cli_errline("drive: --domain '%.60s' needs 2 or 3 values on each side of ':', as many on "
                    "both", s);
        return -1;
    }
    for (int c = 0; c < *nb; c++) {
        if (!(hi[c] > lo[c])) {
            cli_errline("drive: --domain '%.60s': axis %d has X1 <= X0", s, c);
            return -1;
        }
        p->origin[c] = lo[c];
        p->length[c] = hi[c] - lo[c];
    }
    p->periodic = 0;
    return 0;
}

/* --backend cpu|opencl|cuda|auto and --device N (as generate's). */
static int parse_backend(const char *const *val, drive_run *d)
{
    char err[512];
    d->backend = TBRF_BACKEND_CPU;
    d->device = -1;
    if (val[D_BACKEND]) {
        static const char *const names[] = {"cpu", "opencl", "cuda", "auto"};
        static const int ids[] = {TBRF_BACKEND_CPU, TBRF_BACKEND_OPENCL, TBRF_BACKEND_CUDA,
                                  TBRF_BACKEND_AUTO};
        const int k = args_choice("--backend", val[D_BACKEND], names, 4);
        if (k < 0)
            return -1;
        d->backend = ids[k];
    }
    int64_t dev = -1;
    if (val[D_DEVICE] && args_int64("--device", val[D_DEVICE], -1, 4096, &dev, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    d->device = (int)dev;
    return 0;
}

/* The driver's parameters: box, zeta, tcorr, amplitude, options. */
static int parse_params(const char *const *val, drive_run *d)
{
    tbrf_driver_params *p = &d->p;
    char err[512];
    int nb = 0;
    if (!val[D_BOX] == !val[D_DOMAIN]) {
        cli_errline("drive: give --box L|LX,LY[,LZ] (periodic) or --domain X0,Y0[,Z0]:X1,Y1[,Z1], "
                    "one of them");
        return -1;
    }
    if (val[D_DOMAIN] ? parse_domain(val[D_DOMAIN], p, &nb)
                      : args_doubles("--box", val[D_BOX], 3, p->length, &nb, err, sizeof err)) {
        if (!val[D_DOMAIN])
            cli_errline("%s", err);
        return -1;
    }
    if (!val[D_TCORR] || !val[D_ZETA]) {
        cli_errline("drive: --tcorr and --zeta are required");
        return -1;
    }
    if (num(val, D_ZETA, 0, &p->zeta) || num(val, D_TCORR, 1, &p->tcorr) || num(val, D_RMS, 1, &p->rms) ||
        num(val, D_RMS_COMP, 1, &d->rms_comp) || num(val, D_DT_UPDATE, 1, &p->dt_update) ||
        num(val, D_INJECTION, 1, &p->injection) || num(val, D_DENSITY, 1, &p->density) ||
        num(val, D_ACCURACY, 1, &p->accuracy))
        return -1;
    const int by_rms = val[D_RMS] || val[D_RMS_COMP];
    if (!!val[D_RMS] + !!val[D_RMS_COMP] + !!val[D_INJECTION] != 1 || (val[D_EXACT] && !by_rms)) {
        cli_errline("drive: give --rms A or --rms-per-component A (optionally --exact-rms) or "
                    "--injection E, one of them");
        return -1;
    }
    d->per_comp = val[D_RMS_COMP] != NULL; /* p->rms follows from the dimension */
    d->amp_opt = val[D_RMS]       ? "--rms"
                 : d->per_comp    ? "--rms-per-component"
                 : val[D_DENSITY] ? "--injection with --density"
                                  : "--injection";
    p->normalization = val[D_INJECTION] ? TBRF_DRIVE_INJECTION
                       : val[D_EXACT]   ? TBRF_DRIVE_RMS_EXACT
                                        : TBRF_DRIVE_RMS_ENSEMBLE;
    p->interpolate = val[D_INTERP] != NULL;
    if (val[D_EVAL]) {
        static const char *const names[] = {"auto", "direct", "nufft"};
        if ((p->eval = args_choice("--eval", val[D_EVAL], names, 3)) < 0)
            return -1;
    }
    int64_t th = 0;
    if (val[D_THREADS] && args_int64("--threads", val[D_THREADS], 0, 1024, &th, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    p->threads = (int32_t)th;
    if (val[D_SEED] && args_uint64("--seed", val[D_SEED], &d->seed, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    d->dim = nb;
    d->fixed_dim = nb > 1 ? nb : 0; /* one length: every axis, the geometry's dimension */
    return 0;
}

/* The coordinates are finite (the grid's last cell, or the largest |x| of
 * the points), and in a domain (no wrapping) so are the phases kmax x:
 * beyond that the sums give NaN, so it is refused here naming the option. */
static int check_coordinates(const char *const *val, const drive_run *d)
{
    double far = 0.0;
    int axis = 0;
    for (int c = 0; c < d->dim && d->is_grid; c++) {
        const double x = fabs(d->p.origin[c]) + d->spacing[c] * (double)(d->n[c] - 1);
        if (!(x <= far))
            far = x, axis = c;
    }
    for (int64_t i = 0; !d->is_grid && i < d->npts * d->dim; i++)
        if (!(fabs(d->xyz[i]) <= far))
            far = fabs(d->xyz[i]), axis = (int)(i % d->dim);
    /* a box wraps every coordinate into [0, L) first: only finite is needed there */
    if (isfinite(far * (d->p.periodic ? 1.0 : d->m.param[TBRF_IO_P_KMAX])))
        return 0;
    const int o = !d->is_grid ? D_POINTS : val[D_SPACING] ? D_SPACING : val[D_DOMAIN] ? D_DOMAIN : D_BOX;
    cli_errline("drive: %s %.60s: coordinate %g along axis %d%s is not finite (the force would "
                "be NaN)", OPTS[o].name, val[o], far, axis, d->p.periodic ? "" : " times kmax");
    return -1;
}

/* --grid NX[xNY[xNZ]] (one count: a 1D box) or --points FILE: the
 * positions and their dimension *dim. 0 or -1 after one message. */
static int parse_positions(const char *const *val, drive_run *d, int *dim)
{
    char err[512];
    if (!!val[D_GRID] == !!val[D_POINTS] || (val[D_SPACING] && !val[D_GRID])) {
        cli_errline("drive: give --grid NX[xNY[xNZ]] [--spacing ...] or --points FILE");
        return -1;
    }
    if (val[D_GRID] && !strpbrk(val[D_GRID], "xX")) { /* a 1D box */
        if (args_int64("--grid", val[D_GRID], 1, INT64_MAX, &d->n[0], err, sizeof err)) {
            cli_errline("%s", err);
            return -1;
        }
        d->n[1] = d->n[2] = 1;
        *dim = d->is_grid = 1;
    } else if (val[D_GRID]) {
        if (args_grid("--grid", val[D_GRID], d->n, dim, err, sizeof err)) {
            cli_errline("%s", err);
            return -1;
        }
        d->is_grid = 1;
    } else if (tbrf_io_read_points(d->points_file = val[D_POINTS], dim, &d->npts, &d->xyz, err,
                                   sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    return 0;
}

/* The force's components against the geometry's dimension: dim itself,
 * or 3 in a 1D or 2D box (--components 3, or --turbgen's ndim = 1.5,
 * 2.5, which set d->nc before). 0 or -1 after one message. */
static int parse_components(const char *const *val, drive_run *d, int dim)
{
    char err[512];
    int64_t nc = d->nc ? d->nc : dim;
    if (val[D_COMPONENTS] &&
        args_int64("--components", val[D_COMPONENTS], 1, 3, &nc, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    if (dim == 1 && nc != 3) {
        cli_errline("drive: a 1D box (--grid NX) drives three force components: give "
                    "--components 3 (TurbGen's ndim = 1.5)");
        return -1;
    }
    if (nc != dim && nc != 3) {
        cli_errline("drive: --components %lld with a %dD geometry: the components are the "
                    "dimension (%d), or 3 in a 1D or 2D box", (long long)nc, dim, dim);
        return -1;
    }
    d->nc = (int)nc;
    d->p.components = nc == 3 && dim < 3 ? 3 : 0;
    return 0;
}

/* --grid with --spacing (default L/N), or --points; sets the dimension
 * (--box with one length takes it from the geometry) and the components. */
static int parse_geometry(const char *const *val, drive_run *d)
{
    char err[512];
    int dim = 0;
    if (parse_positions(val, d, &dim))
        return -1;
    if (d->fixed_dim && d->fixed_dim != dim) {
        if (val[D_TURBGEN])
            cli_errline("drive: --turbgen's file is a %dD box (ndim), but the geometry is %dD",
                        d->fixed_dim, dim);
        else
            cli_errline("drive: %s has %d lengths but the geometry is %dD",
                        val[D_DOMAIN] ? "--domain" : "--box", d->fixed_dim, dim);
        return -1;
    }
    if (!d->fixed_dim)
        for (int c = 1; c < 3; c++)
            d->p.length[c] = d->p.length[0];
    d->dim = d->p.dim = dim;
    if (parse_components(val, d, dim))
        return -1;
    if (d->n_afac > 1 && d->n_afac != d->nc) {
        cli_errline("drive: --amplitude-factor has %d values, the force has %d components (one "
                    "per component, or one for all)", d->n_afac, d->nc);
        return -1;
    }
    if (d->n_afac == 1)
        for (int c = 1; c < 3; c++)
            d->p.amplitude_factor[c] = d->p.amplitude_factor[0];
    int ns = 0;
    for (int c = 0; c < 3; c++)
        d->spacing[c] = c < dim && d->is_grid ? d->p.length[c] / (double)d->n[c] : 1.0;
    if (val[D_SPACING] && args_doubles("--spacing", val[D_SPACING], 3, d->spacing, &ns, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    if (ns == 1)
        d->spacing[1] = d->spacing[2] = d->spacing[0];
    /* per component A: |f|, the sum of nc independent components' squares */
    if (d->per_comp)
        d->p.rms = d->rms_comp * sqrt((double)d->nc);
    return check_coordinates(val, d);
}

/* The name of the backend the driver's sums run on. */
static const char *backend_name(const tbrf_driver *drv)
{
    const char *name = tbrf_backend_name(tbrf_driver_backend(drv));
    return name ? name : "cpu";
}

/* The series file's attributes: every parameter of the run. */
static int write_attrs(tbrf_io_writer *w, const drive_run *d, const tbrf_driver *drv,
                       const tbrf_model *model, const char *command)
{
    tbrf_driver_info info;
    tbrf_driver_get_info(drv, &info);
    const double times[3] = {d->t0, d->t1, d->dt};
    /* rms_ensemble is of |f|; each component's is 1/sqrt(nc) of it (with
     * three components in a 1D or 2D box, the components' quadratic mean) */
    const double rms_comp = info.rms_ensemble / sqrt((double)d->nc);
    const int64_t dirs = d->p.directions, nc = d->nc;
    const int64_t modes = info.modes, dim = d->dim, flags[3] = {d->p.normalization, d->p.interpolate, info.eval};
    int e = tbrf_io_series_attr_str(w, "tbrf_version", tbrf_version()) |
            tbrf_io_series_attr_str(w, "command", command) |
            tbrf_io_series_attr_str(w, "model", tbrf_model_describe(model)) |
            tbrf_io_series_attr_str(w, "model_kind", d->m.model_kind) |
            tbrf_io_series_attr_u64(w, "seed", d->seed) |
            tbrf_io_series_attr_str(w, "backend", backend_name(drv)) |
            tbrf_io_series_attr_i64(w, "dim", &dim, 1) |
            tbrf_io_series_attr_i64(w, "components", &nc, 1) |
            tbrf_io_series_attr_f64(w, d->p.periodic ? "box_length" : "domain_length", d->p.length, d->dim) |
            tbrf_io_series_attr_f64(w, "origin", d->p.origin, d->dim) |
            tbrf_io_series_attr_f64(w, "zeta", &d->p.zeta, 1) |
            tbrf_io_series_attr_f64(w, "tcorr", &d->p.tcorr, 1) |
            tbrf_io_series_attr_f64(w, "dt_update", &info.dt_update, 1) |
            tbrf_io_series_attr_f64(w, "rms_ensemble", &info.rms_ensemble, 1) |
            tbrf_io_series_attr_f64(w, "rms_component_ensemble", &rms_comp, 1) |
            tbrf_io_series_attr_f64(w, "times", times, 3) |
            tbrf_io_series_attr_i64(w, "modes", &modes, 1) |
            tbrf_io_series_attr_i64(w, "normalization_interpolate_eval", flags, 3) |
            tbrf_io_series_attr_f64(w, "amplitude_factor", d->p.amplitude_factor, d->nc) |
            tbrf_io_series_attr_i64(w, "directions", &dirs, 1);
    if (d->is_grid)
        e |= tbrf_io_series_attr_i64(w, "grid_counts", d->n, d->dim) |
             tbrf_io_series_attr_f64(w, "grid_spacing", d->spacing, d->dim);
    else
        e |= tbrf_io_series_attr_str(w, "points_file", d->points_file);
    return e ? -1 : 0;
}

/* Under mpirun: this rank's planes of the grid at time t into v, one
 * plane a call, each plane's origin along the slowest axis computed as
 * the whole grid computes its coordinate there (origin + spacing k), so
 * that every cell has the serial run's position, hence its bits: a
 * sub-grid from a shifted origin would round its positions otherwise. */
static int share_grid(const drive_run *d, tbrf_driver *drv, double t, double *v)
{
    const int s = d->dim - 1; /* the slowest axis: z, y, or x in 1D */
    int64_t n1[3] = {d->n[0], d->n[1], d->n[2]};
    n1[s] = 1;
    const int64_t plane = n1[0] * n1[1] * n1[2];
    int st = TBRF_OK;
    for (int64_t k = d->plane0; k < d->plane0 + d->nplanes && st == TBRF_OK; k++) {
        double o[3] = {d->p.origin[0], d->p.origin[1], d->p.origin[2]};
        o[s] = d->p.origin[s] + d->spacing[s] * (double)k;
        st = tbrf_driver_grid(drv, t, o, d->spacing, n1, v + (size_t)((k - d->plane0) * plane * d->nc));
    }
    return st;
}

/* The force at time t into v (this rank's part under mpirun): 0, or
 * EXIT_FAIL with the reason in why (a driver failure, or a value that is not
 * finite: the coordinates are checked before, so the amplitude option is
 * the cause). */
static int step(const drive_run *d, tbrf_driver *drv, double t, double *v, char *why, size_t len)
{
    int st;
    if (d->mpi)
        st = d->is_grid ? share_grid(d, drv, t, v)
                        : tbrf_driver_points(drv, t, d->count, d->xyz + (size_t)(d->first * d->dim), v);
    else
        st = d->is_grid ? tbrf_driver_grid(drv, t, d->p.origin, d->spacing, d->n, v)
                        : tbrf_driver_points(drv, t, d->npts, d->xyz, v);
    if (st && d->mpi && !d->is_grid) /* the driver numbers the rank's points from 0 */
        snprintf(why, len, "drive: this rank's points start at row %lld of --points: %s",
                 (long long)d->first, tbrf_driver_message(drv));
    else if (st)
        snprintf(why, len, "drive: %s", tbrf_driver_message(drv));
    if (st)
        return EXIT_FAIL;
    const int64_t nv = d->count * d->nc;
    for (int64_t i = 0; i < nv; i++)
        if (!isfinite(v[i])) {
            snprintf(why, len, "drive: %s: the force at t = %g, %s %lld, component %d, is %g: not "
                     "finite", d->amp_opt, t, d->is_grid ? "cell" : "point",
                     (long long)(d->first + i / d->nc), (int)(i % d->nc), v[i]);
            return EXIT_FAIL;
        }
    return 0;
}

/* Evaluates and writes every time; 0 or EXIT_FAIL after one message. */
static int write_series(drive_run *d, tbrf_driver *drv, tbrf_model *model, const char *command)
{
    const int64_t count = d->is_grid ? d->n[0] * d->n[1] * d->n[2] : d->npts;
    char err[1024];
    d->first = 0;
    d->count = count;
    if (tbrf_io_budget_check(d->out, "one time of the series", (double)count * d->nc * 8.0, err,
                             sizeof err)) {
        cli_errline("%s", err);
        return EXIT_FAIL;
    }
    double *v = malloc(sizeof(double) * (size_t)(count * d->nc));
    /* the temporary listed before it exists (cli_guard_new_temp) */
    const int listed = v && cli_guard_new_temp(d->out) == 0;
    tbrf_io_writer *w = listed ? tbrf_io_create(d->out, 0, err, sizeof err) : NULL;
    if (!w) {
        cli_unguard_temp();
        cli_errline("%s", listed ? err : "drive: out of memory");
        free(v);
        return EXIT_FAIL;
    }
    cli_guard_temp(tbrf_io_temp_path(w));
    /* series_begin checks the series' size against the free space and
     * attaches the side file, before the first time is computed */
    int rc = tbrf_io_series_begin(w, d->dim, d->nc, d->nt, d->is_grid ? d->n : NULL, d->npts,
                                  d->xyz) ||
                     write_attrs(w, d, drv, model, command)
                 ? -1
                 : 0;
    if (tbrf_io_side_temp_path(w))
        cli_guard_side_temp(tbrf_io_side_temp_path(w));
    progress bar;
    progress_begin(&bar, d->nt, "times", d->quiet);
    for (int64_t i = 0; i < d->nt && rc == 0; i++) {
        const double t = frame_time(d, i);
        char why[1536];
        if ((rc = step(d, drv, t, v, why, sizeof why)) != 0)
            cli_errline("%s", why);
        else if (tbrf_io_series_step(w, i, t, v))
            rc = -1;
        progress_update(&bar, i + 1);
    }
    progress_end(&bar);
    if (rc == 0 && tbrf_io_commit(w))
        rc = -1;
    if (rc < 0)
        cli_errline("%s", tbrf_io_message(w));
    cli_unguard_temp();
    tbrf_io_close(w);
    free(v);
    return rc ? EXIT_FAIL : 0;
}

#ifdef TBRF_CLI_MPI
/* FOR TESTS ONLY: set to 1, each rank says on stderr how many positions
 * it evaluated (its share of every time), so that a test sees every rank
 * work without timing anything. */
#define TEST_SHARES_ENV "TBRF_TEST_DRIVE_SHARES"

/* The lowest rank passing bad = 1, or the number of ranks when none
 * does: every rank learns it, and only that rank says why, once. A rank
 * done with its part of a time waits here for the others asleep, as
 * cli_mpi_agree_idle does (a blocking all-reduce would spin a core, or
 * take the others' turn on an oversubscribed node): a non-blocking
 * all-reduce tested between sleeps growing from 50 us to 5 ms, which
 * costs the frame at most about twice the ranks' imbalance. */
static int first_bad(int bad)
{
    int me = bad ? cli_mpi_rank() : cli_mpi_size(), low = me, done = 0;
    MPI_Request req;
    MPI_Iallreduce(&me, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &req);
    for (long ns = 50000; MPI_Test(&req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done;) {
        struct timespec nap = {0, ns};
        nanosleep(&nap, NULL);
        ns = ns < 2500000 ? 2 * ns : 5000000;
    }
    return low;
}

/* 0 when every rank passes bad = 0; else 1, the lowest failing rank
 * having said why (its reason in why). */
static int any_bad(int bad, const char *why)
{
    const int low = first_bad(bad);
    if (low == cli_mpi_rank())
        cli_errline("%s", why);
    return low < cli_mpi_size();
}

/* This rank's part (tbrf_mpi_split_points over the grid's planes or the
 * points: near-equal contiguous shares) and room for its values: 0, or
 * -1 with the reason in why. */
static int share_begin(drive_run *d, double **v, char *why, size_t len)
{
    const int64_t plane = d->is_grid ? (d->dim == 1 ? 1 : d->n[0] * (d->dim == 3 ? d->n[1] : 1)) : 1;
    const int64_t planes = d->is_grid ? d->n[d->dim - 1] : d->npts;
    if (tbrf_mpi_split_points(MPI_COMM_WORLD, planes, &d->plane0, &d->nplanes) != TBRF_OK) {
        snprintf(why, len, "drive: splitting the %s over the ranks failed", d->is_grid ? "grid" : "points");
        return -1;
    }
    d->mpi = 1;
    d->first = d->plane0 * plane;
    d->count = d->nplanes * plane;
    if (tbrf_io_budget_check(d->out, "this rank's part of one time of the series",
                             (double)d->count * d->nc * 8.0, why, len))
        return -1;
    *v = malloc(sizeof(double) * (size_t)(d->count > 0 ? d->count * d->nc : 1));
    if (!*v || cli_guard_new_temp(d->out)) { /* the temporary listed before it exists */
        snprintf(why, len, "drive: out of memory");
        return -1;
    }
    return 0;
}

/* The frames, each rank its part, every rank taking part in every
 * collective step: a failure on any rank (its evaluation, its write)
 * stops all at the agreement that follows it. 0, or -1 once the lowest
 * failing rank said why. */
static int frames_mpi(drive_run *d, tbrf_driver *drv, tbrf_io_writer *w, double *v)
{
    char why[1536] = "";
    int failed = 0, rc = 0;
    int64_t evaluated = 0; /* positions this rank evaluated, for the tests */
    progress bar;
    progress_begin(&bar, d->nt, "times", d->quiet);
    for (int64_t i = 0;; i++) {
        const double t = i < d->nt ? frame_time(d, i) : 0.0;
        if (i < d->nt && step(d, drv, t, v, why, sizeof why))
            failed = 1;
        else if (i < d->nt)
            evaluated += d->count;
        if (any_bad(failed, why)) {
            rc = -1;
            break;
        }
        if (i == d->nt)
            break;
        if (tbrf_io_series_step_part(w, i, t, d->first, d->count, v)) {
            snprintf(why, sizeof why, "%s", tbrf_io_message(w));
            failed = 1;
        }
        progress_update(&bar, i + 1);
    }
    progress_end(&bar);
    const char *test = getenv(TEST_SHARES_ENV);
    if (test && strcmp(test, "1") == 0)
        fprintf(stderr, "tbrf: test: rank %d evaluated %lld positions: %lld a time from %lld\n",
                cli_mpi_rank(), (long long)evaluated, (long long)d->count, (long long)d->first);
    return rc;
}

/* Under mpirun: one series written collectively (tbrf_io_create_mpi),
 * each rank evaluating and writing its part of every time; all or
 * nothing, as generate. 0 or EXIT_FAIL. */
static int write_series_mpi(drive_run *d, tbrf_driver *drv, tbrf_model *model, const char *command)
{
    char why[1536] = "";
    double *v = NULL;
    tbrf_io_writer *w = NULL;
    const int shared = !any_bad(share_begin(d, &v, why, sizeof why) != 0, why);
    if (shared && !(w = tbrf_io_create_mpi(d->out, 0, MPI_COMM_WORLD, why, sizeof why)) &&
        cli_mpi_rank() == 0) /* NULL on every rank, with rank 0's reason */
        cli_errline("%s", why);
    if (!w) {
        cli_unguard_temp();
        free(v);
        return EXIT_FAIL;
    }
    cli_guard_temp(tbrf_io_temp_path(w));
    int bad = tbrf_io_series_begin(w, d->dim, d->nc, d->nt, d->is_grid ? d->n : NULL, d->npts,
                                   d->xyz) || write_attrs(w, d, drv, model, command);
    if (tbrf_io_side_temp_path(w))
        cli_guard_side_temp(tbrf_io_side_temp_path(w));
    int rc = any_bad(bad, tbrf_io_message(w)) ? -1 : frames_mpi(d, drv, w, v);
    if (rc == 0 && tbrf_io_commit(w)) { /* collective: every rank's part of every time */
        rc = -1;
        if (cli_mpi_rank() == 0)
            cli_errline("%s", tbrf_io_message(w));
    }
    cli_unguard_temp();
    tbrf_io_close(w); /* collective; removes the temporary unless committed */
    free(v);
    return rc ? EXIT_FAIL : 0;
}
#endif

/* The series, split over the ranks under mpirun. */
static int series(drive_run *d, tbrf_driver *drv, tbrf_model *model, const char *command)
{
#ifdef TBRF_CLI_MPI
    if (cli_mpi_active())
        return write_series_mpi(d, drv, model, command);
#endif
    return write_series(d, drv, model, command);
}

/* The driver's force rms (from --rms or --injection) is a finite number:
 * an injection rate so large that the rms overflows is refused before
 * anything is computed. 0 or -1 after one message. */
static int check_amplitude(const drive_run *d, const tbrf_driver *drv)
{
    tbrf_driver_info info;
    tbrf_driver_get_info(drv, &info);
    if (isfinite(info.rms_ensemble))
        return 0;
    cli_errline("drive: %s gives a force rms of %g: not a finite force", d->amp_opt,
                info.rms_ensemble);
    return -1;
}

/* --turbgen FILE: TurbGen's parameter file gives the box, the model, zeta,
 * tcorr, dt_update, the rms and the seed (tbrf_driver_params_from_turbgen);
 * the options it replaces are refused beside it. 0, or -1 after one
 * message. */
static int parse_turbgen(const char *const *val, drive_run *d, tbrf_model **model)
{
    static const int replaced[] = {D_BOX, D_DOMAIN, D_MODEL, D_KMIN, D_KMAX, D_INDEX, D_LENGTH,
                                   D_NU, D_TABLE, D_ZETA, D_TCORR, D_DT_UPDATE, D_RMS, D_RMS_COMP,
                                   D_INJECTION, D_DENSITY, D_EXACT, D_SEED, D_COMPONENTS};
    for (size_t i = 0; i < sizeof replaced / sizeof replaced[0]; i++)
        if (val[replaced[i]]) {
            cli_errline("drive: %s is set by --turbgen's file: give one of them",
                        OPTS[replaced[i]].name);
            return -1;
        }
    cli_input(val[D_TURBGEN], "the --turbgen input");
    FILE *fp = fopen(val[D_TURBGEN], "rb");
    char *text = fp ? malloc(1 << 20) : NULL;
    const int open_err = fp ? 0 : errno;
    size_t len = text ? fread(text, 1, (1 << 20) - 1, fp) : 0;
    const int why = fp && ferror(fp) ? errno : open_err; /* a folder: EISDIR */
    const int full = !why && text && len == (1 << 20) - 1 && fgetc(fp) != EOF;
    if (fp)
        fclose(fp);
    const char *nul = text && !full ? memchr(text, '\0', len) : NULL;
    if (nul) { /* named by line and byte, as the library names other binary bytes */
        size_t line = 1, at = 0;
        for (const char *c = text; c < nul; c++)
            at = *c == '\n' ? (line++, 0) : at + 1;
        cli_errline("drive: --turbgen %.200s: line %zu, byte %zu: a NUL byte (binary data, not "
                    "a TurbGen parameter file)", val[D_TURBGEN], line, at + 1);
    } else if (!text || full || why)
        cli_errline("drive: --turbgen %.200s: %s%s", val[D_TURBGEN],
                    why ? "cannot be read: " : !text ? "out of memory"
                                                     : "larger than 1 MiB, not a parameter file",
                    why ? strerror(why) : "");
    if (!text || full || nul || why) {
        free(text);
        return -1;
    }
    text[len] = '\0';
    char msg[512];
    int st = tbrf_driver_params_from_turbgen(text, &d->p, &d->seed, model, msg, sizeof msg);
    free(text);
    if (st) {
        cli_errline("drive: --turbgen %.200s: %s", val[D_TURBGEN], msg);
        return -1;
    }
    /* ndim = 1.5, 2.5: three components of a 1D or 2D box */
    d->dim = d->fixed_dim = d->p.dim;
    d->nc = d->p.components == 3 ? 3 : d->p.dim;
    d->m.model_kind = "turbgen";
    d->amp_opt = "--turbgen";
    return 0;
}

/* --amplitude-factor A,B[,C] (one per axis of the box; --turbgen's file
 * sets them instead) and --directions D: 0 or -1 after one message. */
static int parse_shape_opts(const char *const *val, drive_run *d, int turbgen)
{
    char err[512];
    if (val[D_AFAC]) {
        int nf = 0;
        double g[3] = {1.0, 1.0, 1.0};
        if (turbgen) {
            cli_errline("drive: --amplitude-factor is set by --turbgen's file (ampl_factor)");
            return -1;
        }
        if (args_doubles("--amplitude-factor", val[D_AFAC], 3, g, &nf, err, sizeof err)) {
            cli_errline("%s", err);
            return -1;
        }
        for (int c = 0; c < 3; c++)
            d->p.amplitude_factor[c] = c < nf ? g[c] : 1.0;
        d->n_afac = nf;
    }
    int64_t dirs = 0;
    if (val[D_DIRS] && args_int64("--directions", val[D_DIRS], 0, 1 << 20, &dirs, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    if (val[D_DIRS] || !turbgen) /* --turbgen: the file's (TurbGen's angles) unless given */
        d->p.directions = (int32_t)dirs;
    return 0;
}

/* With --turbgen, the options the file leaves to the command line:
 * --interpolate, --eval, --accuracy, --threads. */
static int parse_tg_rest(const char *const *val, drive_run *d)
{
    char err[512];
    int64_t th = 0;
    d->p.interpolate = val[D_INTERP] != NULL;
    if (num(val, D_ACCURACY, 1, &d->p.accuracy))
        return -1;
    if (val[D_EVAL]) {
        static const char *const names[] = {"auto", "direct", "nufft"};
        if ((d->p.eval = args_choice("--eval", val[D_EVAL], names, 3)) < 0)
            return -1;
    }
    if (val[D_THREADS] && args_int64("--threads", val[D_THREADS], 0, 1024, &th, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    d->p.threads = (int32_t)th;
    return 0;
}

/* The command line into d and *model: 0, or EXIT_USAGE (or the output
 * check's status) after one message. */
static int prepare(const char *const *val, drive_run *d, tbrf_model **model)
{
    if (val[D_TURBGEN] ? parse_turbgen(val, d, model) || parse_tg_rest(val, d)
                       : parse_model(val, d) || parse_params(val, d))
        return EXIT_USAGE;
    if (parse_shape_opts(val, d, val[D_TURBGEN] != NULL))
        return EXIT_USAGE;
    if (parse_backend(val, d) || parse_times(val[D_TIMES], d) || parse_geometry(val, d))
        return EXIT_USAGE;
    if (!val[D_OUT] || !val[D_OUT][0]) {
        cli_errline("drive: --out SERIES.h5 is required");
        return EXIT_USAGE;
    }
    d->out = val[D_OUT];
    const char *in[2] = {val[D_POINTS], val[D_TABLE]};
    const char *what[2] = {"the --points input", "the --table input"};
    char *outs[1] = {(char *)d->out};
    /* the series' values (the file holds a little more: its points,
     * attributes), before any time is computed */
    const double one = (double)(d->is_grid ? d->n[0] * d->n[1] * d->n[2] : d->npts) * d->nc * 8.0;
    int bad = cli_refuse_inputs("drive", d->out, outs, 1, in, what, 2);
    if (bad || (bad = cli_check_output("drive", d->out, one * (double)d->nt,
                                       one * (double)d->nt)))
        return bad;
    d->quiet = val[D_QUIET] != NULL;
    return 0;
}

/* The model (unless --turbgen's file made it) and the driver on its
 * backend: 0, or EXIT_USAGE / EXIT_FAIL after one message. */
static int make_driver(drive_run *d, tbrf_model **model, tbrf_driver **drv)
{
    int st = *model ? TBRF_OK : cli_model_make(&d->m, model);
    if (st) {
        cli_errline("drive: model %s: %s", d->m.model_kind, *model ? tbrf_model_message(*model) : tbrf_strerror(st));
        return EXIT_USAGE;
    }
    if ((st = tbrf_driver_make(*model, d->seed, &d->p, drv))) {
        cli_errline("drive: %s", *drv ? tbrf_driver_message(*drv) : tbrf_strerror(st));
        return EXIT_USAGE;
    }
    if (check_amplitude(d, *drv))
        return EXIT_USAGE;
    if ((d->backend != TBRF_BACKEND_CPU || d->device != -1) &&
        (st = tbrf_driver_set_backend(*drv, d->backend, d->device))) {
        /* as generate: a backend not built or without a device is a run
         * that cannot be done here, not a bad command line */
        cli_errline("drive: %s", tbrf_driver_message(*drv));
        return EXIT_FAIL;
    }
    return 0;
}

/* Under mpirun every rank parsed and made its driver alike; one that
 * failed (a file it could not read, its memory budget), or ranks given
 * different command lines (a series of mixed seeds would look valid),
 * stop all before anything is written, as generate. */
static int ranks_agree(const drive_run *d, int rc, const char *command, const tbrf_driver *drv)
{
    if (!cli_mpi_active()) /* serial, or rank 0 alone (regenerate) */
        return rc;
    if (!cli_mpi_same(command) && rc == 0) {
        cli_errline("drive: the MPI ranks were given different command lines; nothing was written");
        rc = EXIT_USAGE;
    }
    if (!cli_mpi_agree(rc == 0) && rc == 0) {
        if (cli_mpi_rank() == 0)
            cli_errline("drive: another rank failed; nothing was written");
        rc = EXIT_FAIL;
    }
    /* --backend auto may resolve otherwise on another node: one series,
     * one backend (the attribute backend is written by all ranks) */
    if (rc == 0 && !cli_mpi_same(backend_name(drv))) {
        cli_errline("drive: the MPI ranks' drivers run on different backends (this one: %s); "
                    "nothing was written: give --backend", backend_name(drv));
        rc = EXIT_FAIL;
    }
    /* the same on every rank once they agreed */
    if (rc == 0 && d && d->is_grid && !d->p.periodic && cli_mpi_size() > 1) {
        if (cli_mpi_rank() == 0)
            cli_errline("drive: --domain with --grid is not split over MPI ranks: turning bands "
                        "project a part of a grid with other roundings than the whole grid, so "
                        "the series would not be the serial one; run it without mpirun, or give "
                        "the cells as --points (split, bitwise the serial values)");
        return EXIT_USAGE;
    }
    return rc;
}

static int run(const char *const *val, drive_run *d, const char *command)
{
    tbrf_model *model = NULL;
    tbrf_driver *drv = NULL;
    int rc = prepare(val, d, &model);
    if (rc == 0)
        rc = make_driver(d, &model, &drv);
    rc = ranks_agree(d, rc, command, drv);
    if (rc == 0 && (rc = series(d, drv, model, command)) == 0 && !d->quiet && cli_mpi_rank() == 0) {
        tbrf_driver_info info;
        tbrf_driver_get_info(drv, &info);
        char *side = tbrf_io_xdmf_name(d->out);
        fprintf(stderr, "wrote %s%s%s%s: %lld times of %s, %lld modes\n", d->out, side ? " (+ " : "",
                side ? side : "", side ? ")" : "", (long long)d->nt, d->is_grid ? "/field" : "/value",
                (long long)info.modes);
        free(side);
    }
    tbrf_driver_destroy(drv);
    tbrf_model_destroy(model);
    return rc;
}

int cmd_drive(int argc, char **argv)
{
    const char *val[D_COUNT] = {0};
    int parsed = args_parse_options("drive", OPTS, D_COUNT, D_HELP, argc, argv, val);
    if (parsed < 0) /* under mpirun the others learn it (or fail alike) */
        return ranks_agree(NULL, EXIT_USAGE, NULL, NULL);
    if (parsed > 0) {
        if (cli_mpi_rank() == 0)
            usage();
        return 0;
    }
    drive_run d;
    memset(&d, 0, sizeof d);
    tbrf_io_meta_init(&d.m);
    tbrf_driver_default_params(&d.p);
    d.seed = 1;
    char *command = request_command(argc, argv);
    int rc = run(val, &d, command ? command : "tbrf drive");
    free(command);
    free(d.xyz);
    return rc;
}

/* The most words a recorded drive command has (each option and value). */
#define MAX_WORDS 128

/* The recorded command's words for the run that remakes `file` into
 * `out`: its --out replaced, --points read from the series' own /points,
 * --quiet and --threads as regenerate's. n, or -1 after one message. */
static int regen_words(char *cmd, char **w, const char *file, const char *out,
                       const char *threads, int quiet)
{
    int n = request_split_command(cmd, w, MAX_WORDS - 4), o = -1;
    for (int i = 2; i < n; i++) {
        if (strcmp(w[i], "--quiet") == 0 ||
            (strcmp(w[i], "--threads") == 0 && threads && i + 1 < n)) {
            const int k = strcmp(w[i], "--quiet") == 0 ? 1 : 2;
            memmove(w + i, w + i + k, sizeof *w * (size_t)(n - i - k));
            n -= k, i--;
        } else if (strcmp(w[i], "--out") == 0 && i + 1 < n) {
            w[o = ++i] = (char *)out;
        } else if (strcmp(w[i], "--points") == 0 && i + 1 < n) {
            w[++i] = (char *)file; /* the positions as the series holds them */
        }
    }
    if (n < 3 || strcmp(w[0], "tbrf") != 0 || strcmp(w[1], "drive") != 0 || o < 0) {
        cli_errline("regenerate: %s: its command attribute is not a `tbrf drive ... --out "
                    "SERIES` command", file);
        return -1;
    }
    if (threads)
        w[n++] = (char *)"--threads", w[n++] = (char *)threads;
    if (quiet)
        w[n++] = (char *)"--quiet";
    return n;
}

/* After a remake of file into out: compares them (--check), removing
 * out and its side file when they differ. 0 or EXIT_FAIL. */
static int regen_check(const char *file, const char *out)
{
    char err[1024], esc[2048], v[64] = "";
    int64_t count = 0;
    const int c = tbrf_io_series_compare(file, out, &count, err, sizeof err);
    if (c == 0) {
        printf("check: %lld values of %s are bitwise equal to %s\n", (long long)count, out, file);
        return 0;
    }
    cli_errline("--check: %s", tbrf_io_escape(err, esc, sizeof esc));
    tbrf_io_file *f = tbrf_io_open(file, err, sizeof err);
    if (f && tbrf_io_attr_str(f, "tbrf_version", v, sizeof v) == 1 && strcmp(v, tbrf_version()))
        cli_errline("--check: %s was written by another version of tbrf (%s, this is %s): its "
                    "values are not this version's (doc/design.md, \"Versions\")", file,
                    tbrf_io_escape(v, esc, 256), tbrf_version());
    if (f)
        tbrf_io_file_close(f);
    char *side = tbrf_io_xdmf_name(out);
    unlink(out);
    if (side)
        unlink(side);
    free(side);
    return EXIT_FAIL;
}

int drive_regenerate(const char *file, const char *out, const char *threads, const char *refused,
                     int check, int quiet)
{
    char *cmd = NULL, err[1024], esc[2048], *w[MAX_WORDS];
    int st = tbrf_io_series_command(file, &cmd, err, sizeof err);
    if (st == 1)
        return -1;
    if (st < 0) {
        cli_errline("regenerate: %s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    /* a crafted file's command could carry terminal escapes: never run */
    for (const char *c = cmd; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            cli_errline("regenerate: %s: its command attribute holds control characters, which "
                        "no command of tbrf's writes: %s", file,
                        tbrf_io_escape(cmd, esc, sizeof esc));
            free(cmd);
            return EXIT_FAIL;
        }
    int rc = EXIT_USAGE, n = 0;
    const char *in[1] = {file}, *what[1] = {"the series being regenerated"};
    char *outs[1] = {(char *)out};
    if (refused)
        cli_errline("regenerate: %s is a `tbrf drive` series (HDF5, uncompressed, with its side "
                    "file): %s does not apply", file, refused);
    else if (cli_refuse_inputs("regenerate", out, outs, 1, in, what, 1))
        rc = EXIT_USAGE;
    else if ((n = regen_words(cmd, w, file, out, threads, quiet)) < 0)
        rc = EXIT_FAIL;
    else
        rc = cmd_drive(n - 1, w + 1);
    if (rc == 0 && check)
        rc = regen_check(file, out);
    free(cmd);
    return rc;
}
