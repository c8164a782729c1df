/* cmd_generate.c — `tbrf generate`: one realization on a grid or at
 * points, written to HDF5 or netCDF.
 *
 *   tbrf generate --model MODEL ... (--grid NXxNY[xNZ] | --points FILE) --out OUT.h5
 *
 * This file only turns the command line into a request (request.h);
 * request_plan and request_run, shared with regenerate, do the rest. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "request.h"

enum {
    O_MODEL, O_INDEX, O_KMIN, O_KMAX, O_LENGTH, O_NU, O_TABLE, O_VARIANCE, O_AMPLITUDE,
    O_GRID, O_SPACING, O_ORIGIN, O_POINTS, O_RESOLUTION,
    O_LINES, O_OVERSAMPLING, O_LINE_METHOD, O_MAX_PADDING, O_SEED, O_REALIZATION,
    O_OUT, O_PRECISION, O_COMPRESS, O_THREADS, O_BACKEND, O_CHUNK, O_REPORT, O_FORMAT, O_QUIET,
    O_NO_XDMF, O_HELP, O_DEVICE, O_METHOD, O_PERIODIC, O_LINE_LENGTH_FACTOR, O_DOMAIN,
    O_BOX, O_BOX_ORIGIN, O_VECTOR, O_ZETA, O_ACCURACY,
    /* lognormal densities */
    O_LOGNORMAL, O_TARGET_SPECTRUM, O_MACH, O_FORCING_B,
    O_ANIS, O_ANGLES, O_ALPHA,
    O_COUNT
};

static const args_opt OPTS[O_COUNT] = {
    [O_MODEL] = {"--model", 1},         [O_INDEX] = {"--index", 1},
    [O_KMIN] = {"--kmin", 1},           [O_KMAX] = {"--kmax", 1},
    [O_LENGTH] = {"--length", 1},       [O_NU] = {"--nu", 1},
    [O_TABLE] = {"--table", 1},         [O_VARIANCE] = {"--variance", 1},
    [O_AMPLITUDE] = {"--amplitude", 1}, [O_GRID] = {"--grid", 1},
    [O_SPACING] = {"--spacing", 1},     [O_ORIGIN] = {"--origin", 1},
    [O_POINTS] = {"--points", 1},       [O_RESOLUTION] = {"--resolution", 1},
    [O_LINES] = {"--lines", 1},         [O_OVERSAMPLING] = {"--oversampling", 1},
    [O_LINE_METHOD] = {"--line-method", 1}, [O_MAX_PADDING] = {"--max-padding", 1},
    [O_SEED] = {"--seed", 1},           [O_REALIZATION] = {"--realization", 1},
    [O_OUT] = {"--out", 1},             [O_PRECISION] = {"--precision", 1},
    [O_COMPRESS] = {"--compress", 0},   [O_THREADS] = {"--threads", 1},
    [O_BACKEND] = {"--backend", 1},     [O_CHUNK] = {"--chunk", 1},
    [O_REPORT] = {"--report", 0},       [O_HELP] = {"--help", 0},
    [O_FORMAT] = {"--format", 1},       [O_QUIET] = {"--quiet", 0},
    [O_NO_XDMF] = {"--no-xdmf", 0},
    [O_DEVICE] = {"--device", 1},
    [O_LINE_LENGTH_FACTOR] = {"--line-length-factor", 1},
    [O_METHOD] = {"--method", 1},     [O_PERIODIC] = {"--periodic", 0},
    [O_DOMAIN] = {"--domain", 1},
    [O_BOX] = {"--box", 1},           [O_BOX_ORIGIN] = {"--box-origin", 1},
    [O_VECTOR] = {"--vector", 1},     [O_ZETA] = {"--zeta", 1},
    [O_ACCURACY] = {"--accuracy", 1},
    /* lognormal densities */
    [O_LOGNORMAL] = {"--lognormal", 0}, [O_TARGET_SPECTRUM] = {"--target-spectrum", 1},
    [O_MACH] = {"--mach", 1},           [O_FORCING_B] = {"--forcing-b", 1},
    [O_ANIS] = {"--anis", 1},         [O_ANGLES] = {"--angles", 1},
    [O_ALPHA] = {"--alpha", 1},
};

/* The second half of generate's help: method, output and execution. */
static void usage_method(const tbrf_opts *d)
{
    printf("method (all recorded in the file):\n"
           "  --lines N            turning-bands lines (default %d at points; on a grid\n"
           "                       those that make its spectrum isotropic up to its\n"
           "                       Nyquist, %d to %d and at most 1 GiB of lines:\n"
           "                       doc/statistics.md, \"The default lines\")\n"
           "  --oversampling Q     line samples per resolution length (default %d)\n"
           "  --line-method M      spectral (default) or circulant (3D covariance models)\n"
           "  --method M           tb (turning bands, default), fft (periodic grids: one\n"
           "                       inverse FFT) or auto (fft for a --periodic grid that\n"
           "                       fits in memory, tb otherwise)\n"
           "  --periodic           the grid is one period of the field (implies --method\n"
           "                       auto unless --method is given); with --box, the box is\n"
           "  --box LX[,LY[,LZ]]   the period: a field periodic over the box (implies\n"
           "                       --periodic), the same at any grid or points inside or\n"
           "                       outside it (positions wrap); its modes are the FFT\n"
           "                       method's on the lattice of spacing --resolution\n"
           "                       (default: the grid's spacing, or the points' mean\n"
           "                       spacing); a grid that is that lattice runs the FFT\n"
           "                       method, anything else a non-uniform FFT\n"
           "  --box-origin X,Y[,Z] the box's lower corner (default 0)\n"
           "  --accuracy E         non-uniform FFT relative accuracy (default 1e-12 for\n"
           "                       double values, 1e-6 for float)\n"
           "  --vector K           a vector field, dim values per position: solenoidal\n"
           "                       (divergence-free), compressive (curl-free) or mixed\n"
           "                       (--zeta Z, 0 <= Z <= 1: the weight of the solenoidal\n"
           "                       projection); every component has the model's variance\n"
           "  --anis S1,S2[,S3]    anisotropy: the model's correlation length times Si\n"
           "                       along principal axis i (one factor per axis; GSTools'\n"
           "                       anis (a, b) is 1,a,b); C(x) = C_iso(|S^-1 R^T x|)\n"
           "  --angles A1[,A2,A3]  rotation of the principal axes in radians (2D: one,\n"
           "                       3D: three, GSTools' angles convention; doc/method.md)\n"
           "  --max-padding P      circulant embedding may grow lines 2^P times (default %d)\n"
           "  --line-length-factor F  lines F times the minimal length (default %d): 2D\n"
           "                       fields with correlation lengths not small against the\n"
           "                       domain lose ~(length/line length)^2 of the variance\n"
           "  --seed S             random seed, 0 to 2^64-1 (default 1)\n"
           "  --realization R      realization number, 0 to 2^64-1 (default 0)\n"
           "output and execution:\n"
           "  --out OUT.h5         output file (required)\n"
           "  --precision P        double (default) or float values\n"
           "  --format F           hdf5 (default) or netcdf (netCDF-4, CF-1.8); an OUT\n"
           "                       name ending in .nc selects netcdf\n"
           "  --compress           shuffle + deflate the datasets\n"
           "  --no-xdmf            no OUT.xmf side file (written for HDF5 output so\n"
           "                       ParaView and VisIt open the file), and no yt layout\n"
           "                       (/gridded_data_format, for yt.load) in a grid file\n"
           "  --quiet              no progress bar (it is shown only on a terminal) and no\n"
           "                       'wrote ...' line on stderr\n"
           "  --threads T          OpenMP threads, at most 1024 (default 0: OpenMP's\n"
           "                       choice); at most 4 per processor are started\n"
           "  --backend B          cpu (default), opencl, cuda or auto\n"
           "  --device N           GPU backends: device index (default -1: first usable)\n"
           "  --chunk N            cells per streamed chunk (default 0: automatic)\n"
           "  --report             print the measured mean, variance and spectral slope\n"
           "lognormal density (doc/lognormal.md):\n"
           "  --lognormal          write rho/rho_mean = exp(g - s_g^2/2) of a Gaussian g\n"
           "  --target-spectrum density|gaussian  which has the model's spectrum and\n"
           "                       variance: the contrast rho/rho_mean - 1 (default; g's\n"
           "                       spectrum derived, refused if over 5%% of it is clipped)\n"
           "                       or g itself\n"
           "  --mach M --forcing-b B  the variance from a turbulent cloud: s_g^2 =\n"
           "                       ln(1 + B^2 M^2) (Federrath et al. 2008; B 1/3\n"
           "                       solenoidal .. 1 compressive), instead of --variance\n"
           "  --help               this text\n"
           "\n"
           "example:\n"
           "  tbrf generate --model powerlaw --index -3 --kmin 0.05 --kmax 3 \\\n"
           "                --grid 128x128x128 --seed 7 --out field.h5 --report\n",
           TBRF_DEFAULT_LINES_MIN, TBRF_DEFAULT_LINES_MIN, TBRF_DEFAULT_LINES_MAX, d->oversampling,
           d->max_padding, d->line_length_factor);
}

static void usage_generate(void)
{
    tbrf_opts d;
    tbrf_default_opts(&d);
    printf("usage: tbrf generate --model MODEL [model options]\n"
           "                     (--grid NXxNY[xNZ] [--spacing ...] [--origin ...] | --points FILE.h5)\n"
           "                     --out OUT.h5 [options]\n"
           "\n"
           "Generates one realization of a zero-mean Gaussian random field and writes\n"
           "it to OUT.h5: /field (nz, ny, nx) for a grid, /points and /value (N) for\n"
           "points (a --vector field: its components last), and root attributes\n"
           "recording every generating parameter. The file\n"
           "is written under a temporary name and renamed when complete.\n"
           "\n"
           "models (--model; the library's table of kinds, each with the options of\n"
           "its parameters):\n");
    cli_model_usage();
    printf("band (any model; a power law's own range):\n"
           "  --kmin K, --kmax K   cut the spectrum to kmin <= k <= kmax; the variance is\n"
           "                       that of the cut spectrum. Power above a grid's Nyquist\n"
           "                       pi/spacing is not cut unless asked: the grid samples\n"
           "                       the field, and a warning names the --kmax that would\n"
           "                       make its spectrum the model's\n"
           "amplitude:\n"
           "  --variance V         field variance s2 = C(0) (default 1)\n"
           "  --amplitude A        or the spectrum's amplitude: P(k) = A P0(k)\n"
           "geometry (one of):\n"
           "  --grid NXxNY[xNZ]    regular grid; two counts make a 2D field\n"
           "  --spacing D|DX,DY[,DZ]  cell spacing (default 1)\n"
           "  --origin X,Y[,Z]     position of the first cell (default 0); cell (i,j,k)\n"
           "                       is at origin + spacing*(i,j,k)\n"
           "  --points FILE        positions: HDF5 /points (N,3) or (N,2), netCDF x, y[, z]\n"
           "                       variables, or text lines \"x y z\" ('#' comments)\n"
           "  --domain X0,Y0[,Z0]:X1,Y1[,Z1]  the field's domain (default: the box of the\n"
           "                       grid's cell centres, or the points' bounding box); the\n"
           "                       field depends on it: give a grid and points inside it\n"
           "                       the same --domain and --resolution for the same field\n"
           "  --resolution R       smallest length to resolve (default: the smallest grid\n"
           "                       spacing; for points (domain volume / N)^(1/dim), kept\n"
           "                       between domain size/8192 and the domain size)\n");
    usage_method(&d);
}

/* The model options and the parameter each sets (request.h's MP_*). */
static const struct {
    int opt;
    unsigned param;
} MODEL_OPTS[] = {{O_INDEX, MP_INDEX}, {O_KMIN, MP_KMIN},     {O_KMAX, MP_KMAX},
                  {O_LENGTH, MP_LENGTH}, {O_NU, MP_NU}, {O_TABLE, MP_TABLE},
                  {O_ALPHA, MP_ALPHA}};
#define NMODEL_OPTS ((int)(sizeof MODEL_OPTS / sizeof MODEL_OPTS[0]))

/* Parses a number option into *v (untouched when absent); -1 after the
 * message. */
static int num_opt(const char *const *val, int o, int positive, double *v)
{
    char err[512];
    if (!val[o])
        return 0;
    int bad = positive ? args_positive(OPTS[o].name, val[o], v, err, sizeof err)
                       : args_double(OPTS[o].name, val[o], v, err, sizeof err);
    if (bad)
        cli_errline("%s", err);
    return bad ? -1 : 0;
}

/* The model, which of the model options apply to it, and the amplitude. */
static int parse_model(const char *const *val, tbrf_io_meta *m)
{
    if (!val[O_MODEL]) {
        cli_errline("generate: --model is required (%s)", cli_model_names());
        return -1;
    }
    const cli_model *k = cli_model_find(val[O_MODEL]);
    if (!k) {
        cli_errline("generate: unknown model '%.100s' (%s)", val[O_MODEL], cli_model_names());
        return -1;
    }
    m->model_kind = k->name;
    for (int i = 0; i < NMODEL_OPTS; i++) {
        const char *name = OPTS[MODEL_OPTS[i].opt].name;
        if (val[MODEL_OPTS[i].opt] && !(k->allowed & MODEL_OPTS[i].param)) {
            cli_errline("generate: %s does not apply to model %s", name, k->name);
            return -1;
        }
        if (!val[MODEL_OPTS[i].opt] && (k->required & MODEL_OPTS[i].param)) {
            cli_errline("generate: model %s needs %s", k->name, name);
            return -1;
        }
    }
    if (val[O_KMAX])
        m->param[TBRF_IO_P_KMIN] = 0.0;
    double *p = m->param;
    if (num_opt(val, O_INDEX, 0, &p[TBRF_IO_P_INDEX]) || num_opt(val, O_KMAX, 1, &p[TBRF_IO_P_KMAX]) ||
        num_opt(val, O_KMIN, 0, &p[TBRF_IO_P_KMIN]))
        return -1;
    if (val[O_KMIN] && m->param[TBRF_IO_P_KMIN] < 0) {
        cli_errline("--kmin: '%.60s' must be >= 0", val[O_KMIN]);
        return -1;
    }
    if (num_opt(val, O_LENGTH, 1, &p[TBRF_IO_P_LENGTH]) || num_opt(val, O_NU, 1, &p[TBRF_IO_P_NU]) ||
        num_opt(val, O_ALPHA, 1, &p[TBRF_IO_P_ALPHA]))
        return -1;
    if (val[O_TABLE] && !val[O_TABLE][0]) {
        cli_errline("--table needs a file name");
        return -1;
    }
    m->table_file = val[O_TABLE];
    if (val[O_VARIANCE] && val[O_AMPLITUDE]) {
        cli_errline("generate: give --variance or --amplitude, not both");
        return -1;
    }
    m->by_variance = !val[O_AMPLITUDE];
    m->variance = val[O_AMPLITUDE] ? NAN : 1.0;
    return num_opt(val, O_VARIANCE, 1, &m->variance) || num_opt(val, O_AMPLITUDE, 1, &m->amplitude);
}

/* --spacing: one value for every axis or one per axis, all > 0. */
int generate_parse_spacing(const char *s, tbrf_io_meta *m)
{
    char err[512];
    double v[3];
    int k;
    if (args_doubles("--spacing", s, 3, v, &k, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    if (k != 1 && k != m->dim) {
        cli_errline("--spacing: give one value or %d (one per axis)", m->dim);
        return -1;
    }
    for (int c = 0; c < m->dim; c++) {
        m->spacing[c] = v[k == 1 ? 0 : c];
        if (!(m->spacing[c] > 0)) {
            cli_errline("--spacing: '%.60s' must be positive", s);
            return -1;
        }
    }
    return 0;
}

int generate_parse_origin(const char *s, tbrf_io_meta *m)
{
    char err[512];
    double v[3];
    int k;
    if (args_doubles("--origin", s, 3, v, &k, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    if (k != m->dim) {
        cli_errline("--origin: give %d values for a %dD grid", m->dim, m->dim);
        return -1;
    }
    for (int c = 0; c < m->dim; c++)
        m->origin[c] = v[c];
    return 0;
}

/* --domain X0,Y0[,Z0]:X1,Y1[,Z1] into meta.lo/hi; whether it is a box
 * that holds the geometry is checked once the geometry is known
 * (request_plan: a points file's dimension is read there). */
static int parse_domain(const char *s, request *r)
{
    char err[512], half[256];
    const char *colon = strchr(s, ':');
    int k0, k1;
    if (!colon || strchr(colon + 1, ':') || (size_t)(colon - s) >= sizeof half) {
        cli_errline("--domain: '%.60s' is not X0,Y0[,Z0]:X1,Y1[,Z1]", s);
        return -1;
    }
    snprintf(half, sizeof half, "%.*s", (int)(colon - s), s);
    if (args_doubles("--domain", half, 3, r->meta.lo, &k0, err, sizeof err) ||
        args_doubles("--domain", colon + 1, 3, r->meta.hi, &k1, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    if (k0 != k1 || k0 < 2) {
        cli_errline("--domain: '%.60s' needs 2 or 3 values on each side of ':', as many "
                    "on both", s);
        return -1;
    }
    for (int c = k0; c < 3; c++)
        r->meta.lo[c] = r->meta.hi[c] = 0.0;
    r->domain_dim = k0;
    return 0;
}

/* A grid (counts, spacing, origin) or a points file, and the resolution.
 * Points have no grid: origin, spacing and counts stay zero. */
static int parse_geometry(const char *const *val, request *r)
{
    tbrf_io_meta *m = &r->meta;
    char err[512];
    if (!!val[O_GRID] == !!val[O_POINTS]) {
        cli_errline("generate: give exactly one of --grid NXxNY[xNZ] and --points FILE.h5");
        return -1;
    }
    m->is_grid = val[O_GRID] != NULL;
    if (!m->is_grid && (val[O_SPACING] || val[O_ORIGIN])) {
        cli_errline("generate: --spacing and --origin apply to --grid only");
        return -1;
    }
    for (int c = 0; c < 3; c++) {
        m->origin[c] = 0.0;
        m->spacing[c] = m->is_grid ? 1.0 : 0.0;
    }
    if (m->is_grid) {
        if (args_grid("--grid", val[O_GRID], m->n, &m->dim, err, sizeof err)) {
            cli_errline("%s", err);
            return -1;
        }
        if ((val[O_SPACING] && generate_parse_spacing(val[O_SPACING], m)) ||
            (val[O_ORIGIN] && generate_parse_origin(val[O_ORIGIN], m)))
            return -1;
    } else if (!val[O_POINTS][0]) {
        cli_errline("--points needs a file name");
        return -1;
    }
    m->points_file = r->points_from = val[O_POINTS];
    if (val[O_DOMAIN] && parse_domain(val[O_DOMAIN], r))
        return -1;
    return num_opt(val, O_RESOLUTION, 1, &m->resolution);
}

/* An integer option into *v (untouched when absent); -1 after the
 * message. */
static int int_opt(const char *const *val, int o, int64_t lo, int64_t hi, int32_t *v)
{
    char err[512];
    int64_t x;
    if (!val[o])
        return 0;
    if (args_int64(OPTS[o].name, val[o], lo, hi, &x, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    *v = (int32_t)x;
    return 0;
}

/* A word option among names, stored as values[k]; -1 after the message. */
static int choice_opt(const char *const *val, int o, const char *const *names,
                      const int *values, int n, int32_t *v)
{
    if (!val[o])
        return 0;
    int k = args_choice(OPTS[o].name, val[o], names, n);
    if (k < 0)
        return -1;
    *v = values[k];
    return 0;
}

/* The options that change the mathematics, the seed and realization. */
static int parse_method(const char *const *val, tbrf_io_meta *m)
{
    static const char *const LM[] = {"spectral", "circulant"}, *const ME[] = {"tb", "fft", "auto"},
                              *const PR[] = {"double", "float"};
    static const int LMV[] = {TBRF_LINES_SPECTRAL, TBRF_LINES_CIRCULANT},
                     MEV[] = {TBRF_METHOD_TB, TBRF_METHOD_FFT, TBRF_METHOD_AUTO},
                     PRV[] = {TBRF_DOUBLE, TBRF_FLOAT};
    tbrf_opts *o = &m->opts;
    char err[512];
    if (int_opt(val, O_LINES, 1, INT32_MAX, &o->lines) ||
        int_opt(val, O_OVERSAMPLING, 1, INT32_MAX, &o->oversampling) ||
        choice_opt(val, O_LINE_METHOD, LM, LMV, 2, &o->line_method))
        return -1;
    if (val[O_PERIODIC]) {
        o->periodic = 1;
        o->method = TBRF_METHOD_AUTO;
    }
    if (choice_opt(val, O_METHOD, ME, MEV, 3, &o->method) ||
        int_opt(val, O_MAX_PADDING, 0, 30, &o->max_padding) ||
        int_opt(val, O_LINE_LENGTH_FACTOR, 1, 1024, &o->line_length_factor))
        return -1;
    m->seed = 1;
    m->realization = 0;
    if ((val[O_SEED] && args_uint64("--seed", val[O_SEED], &m->seed, err, sizeof err)) ||
        (val[O_REALIZATION] &&
         args_uint64("--realization", val[O_REALIZATION], &m->realization, err, sizeof err))) {
        cli_errline("%s", err);
        return -1;
    }
    return choice_opt(val, O_PRECISION, PR, PRV, 2, &o->precision);
}

/* Where it runs: backend and device (threads and chunk go with the
 * output options, which regenerate shares). */
static int parse_backend(const char *const *val, tbrf_opts *o)
{
    if (val[O_BACKEND]) {
        int b;
        for (b = TBRF_BACKEND_CPU; b <= TBRF_BACKEND_AUTO; b++)
            if (tbrf_backend_name(b) && strcmp(val[O_BACKEND], tbrf_backend_name(b)) == 0)
                break;
        if (b > TBRF_BACKEND_AUTO) {
            cli_errline("--backend: '%.60s' is not cpu, opencl, cuda or auto", val[O_BACKEND]);
            return -1;
        }
        o->backend = b;
    }
    return int_opt(val, O_DEVICE, -1, 4096, &o->device);
}

/* --box LX[,LY[,LZ]] [--box-origin X,Y[,Z]]: the period of a periodic
 * field. Its axis count is checked against the geometry's
 * dimension in request_plan (a points file's is known only there). */
static int parse_box(const char *const *val, request *r)
{
    tbrf_io_meta *m = &r->meta;
    char err[512];
    int k = 0;
    if (!val[O_BOX]) {
        if (val[O_BOX_ORIGIN] || val[O_ACCURACY]) {
            cli_errline("generate: --box-origin and --accuracy need --box");
            return -1;
        }
        if (m->opts.periodic && !m->is_grid) {
            cli_errline("generate: --periodic on points needs --box LX[,LY[,LZ]]: points have "
                        "no grid to be the period");
            return -1;
        }
        return 0;
    }
    if (args_doubles("--box", val[O_BOX], 3, m->box_length, &r->box_dim, err, sizeof err) ||
        (val[O_BOX_ORIGIN] &&
         args_doubles("--box-origin", val[O_BOX_ORIGIN], 3, m->box_origin, &k, err, sizeof err))) {
        cli_errline("%s", err);
        return -1;
    }
    r->box_origin_dim = val[O_BOX_ORIGIN] ? k : 0;
    for (int c = 0; c < r->box_dim; c++)
        if (!(m->box_length[c] > 0) || !isfinite(m->box_length[c])) {
            cli_errline("--box: '%.60s': every period must be positive and finite", val[O_BOX]);
            return -1;
        }
    m->box = 1;
    m->opts.periodic = 1;
    if (val[O_METHOD]) {
        cli_errline("generate: --method does not apply with --box (a box lattice grid runs the "
                    "FFT method, anything else the non-uniform FFT)");
        return -1;
    }
    if (val[O_ACCURACY] &&
        (args_positive("--accuracy", val[O_ACCURACY], &m->opts.accuracy, err, sizeof err))) {
        cli_errline("%s", err);
        return -1;
    }
    return 0;
}

/* --vector solenoidal|compressive|mixed [--zeta Z]. */
static int parse_vector(const char *const *val, tbrf_io_meta *m)
{
    static const char *const K[] = {"solenoidal", "compressive", "mixed"};
    static const int KV[] = {TBRF_VECTOR_SOLENOIDAL, TBRF_VECTOR_COMPRESSIVE, TBRF_VECTOR_MIXED};
    char err[512];
    if (choice_opt(val, O_VECTOR, K, KV, 3, &m->opts.vector))
        return -1;
    if (m->opts.vector == TBRF_SCALAR) {
        if (val[O_ZETA]) {
            cli_errline("generate: --zeta applies to --vector mixed only");
            return -1;
        }
        return 0;
    }
    m->vector_kind = K[m->opts.vector - 1];
    if ((m->opts.vector == TBRF_VECTOR_MIXED) != (val[O_ZETA] != NULL)) {
        cli_errline("generate: --vector mixed needs --zeta Z (0 <= Z <= 1), and --zeta only "
                    "applies to it");
        return -1;
    }
    m->zeta = m->opts.vector == TBRF_VECTOR_SOLENOIDAL ? 1.0
              : m->opts.vector == TBRF_VECTOR_COMPRESSIVE ? 0.0 : NAN;
    if (val[O_ZETA]) {
        if (args_double("--zeta", val[O_ZETA], &m->zeta, err, sizeof err)) {
            cli_errline("%s", err);
            return -1;
        }
        if (!(m->zeta >= 0.0 && m->zeta <= 1.0)) {
            cli_errline("--zeta: '%.60s' must be between 0 and 1", val[O_ZETA]);
            return -1;
        }
    }
    m->opts.zeta = m->zeta;
    return 0;
}

/* Lognormal densities: --lognormal, --target-spectrum, and the
 * variance from --mach and --forcing-b (the contrast's b^2 M^2 for a
 * density target, the Gaussian's ln(1 + b^2 M^2) for a Gaussian one). */
static int parse_lognormal(const char *const *val, tbrf_io_meta *m)
{
    static const char *const TS[] = {"density", "gaussian"};
    static const int TSV[] = {TBRF_IO_LOGNORMAL_DENSITY, TBRF_IO_LOGNORMAL_GAUSSIAN};
    int32_t target = TBRF_IO_LOGNORMAL_DENSITY;
    if (!val[O_LOGNORMAL] && (val[O_TARGET_SPECTRUM] || val[O_MACH] || val[O_FORCING_B])) {
        cli_errline("generate: --target-spectrum, --mach and --forcing-b need --lognormal");
        return -1;
    }
    if (!val[O_LOGNORMAL])
        return 0;
    if (choice_opt(val, O_TARGET_SPECTRUM, TS, TSV, 2, &target))
        return -1;
    m->lognormal = target;
    if (val[O_VECTOR]) {
        cli_errline("generate: --lognormal makes a scalar density; --vector does not apply");
        return -1;
    }
    if (!val[O_MACH] != !val[O_FORCING_B]) {
        cli_errline("generate: give --mach and --forcing-b together");
        return -1;
    }
    if (!val[O_MACH])
        return 0;
    if (val[O_VARIANCE] || val[O_AMPLITUDE]) {
        cli_errline("generate: --mach and --forcing-b set the variance: not with --variance "
                    "or --amplitude");
        return -1;
    }
    double mach = NAN, b = NAN;
    char err[512];
    if (args_positive("--mach", val[O_MACH], &mach, err, sizeof err) ||
        args_positive("--forcing-b", val[O_FORCING_B], &b, err, sizeof err)) {
        cli_errline("%s", err);
        return -1;
    }
    const double s2 = tbrf_lognormal_sigma2_mach(mach, b);
    m->by_variance = 1;
    m->variance = target == TBRF_IO_LOGNORMAL_DENSITY ? expm1(s2) : s2;
    if (!(m->variance > 0.0) || !isfinite(m->variance)) {
        cli_errline("generate: --mach %.60s --forcing-b %.60s give no finite variance",
                    val[O_MACH], val[O_FORCING_B]);
        return -1;
    }
    return 0;
}

/* --anis S1,S2[,S3] and --angles A1[,A2,A3]: the model's
 * per-axis length factors and rotation angles in radians (GSTools'
 * convention: tbrf_model_set_anisotropy), into meta.anis / meta.angles
 * (the unused third factor 1, the unused angles 0). Where the grid gives
 * the dimension, the counts must match it: dim factors, 1 angle in 2D and
 * 3 in 3D; points leave the check to the plan. */
static int parse_anisotropy(const char *const *val, tbrf_io_meta *m)
{
    char err[512];
    int k;
    if (val[O_ANIS]) {
        double v[3] = {1, 1, 1};
        if (args_doubles("--anis", val[O_ANIS], 3, v, &k, err, sizeof err)) {
            cli_errline("%s", err);
            return -1;
        }
        if (k < 2 || (m->dim && k != m->dim)) {
            cli_errline("--anis: give %s factors, one per axis", m->dim == 3 ? "3" : m->dim ? "2" : "2 or 3");
            return -1;
        }
        for (int c = 0; c < 3; c++) {
            if (!(v[c] > 0)) {
                cli_errline("--anis: factor %d is %g; each must be > 0", c + 1, v[c]);
                return -1;
            }
            m->anis[c] = v[c];
        }
    }
    if (val[O_ANGLES]) {
        double v[3] = {0, 0, 0};
        if (args_doubles("--angles", val[O_ANGLES], 3, v, &k, err, sizeof err)) {
            cli_errline("%s", err);
            return -1;
        }
        if (k == 2 || (m->dim == 2 && k != 1) || (m->dim == 3 && k != 3)) {
            cli_errline("--angles: give %s (radians)", m->dim == 2 ? "1 angle in 2D"
                        : m->dim == 3 ? "3 angles in 3D" : "1 angle (2D) or 3 (3D)");
            return -1;
        }
        for (int c = 0; c < 3; c++)
            m->angles[c] = v[c];
    }
    /* a file records both or neither */
    for (int c = 0; (val[O_ANIS] || val[O_ANGLES]) && c < 3; c++) {
        if (isnan(m->anis[c]))
            m->anis[c] = 1.0;
        if (isnan(m->angles[c]))
            m->angles[c] = 0.0;
    }
    return 0;
}

/* The whole command line into r; EXIT_USAGE after one message. */
static int parse_generate(const char *const *val, request *r)
{
    r->lines_auto = val[O_LINES] == NULL;
    if (parse_model(val, &r->meta) || parse_geometry(val, r) || parse_method(val, &r->meta) ||
        parse_box(val, r) || parse_vector(val, &r->meta) || parse_backend(val, &r->meta.opts) ||
        parse_lognormal(val, &r->meta) || parse_anisotropy(val, &r->meta))
        return EXIT_USAGE;
    output_args a = {val[O_OUT], val[O_FORMAT], val[O_THREADS], val[O_CHUNK],
                     val[O_COMPRESS] != NULL, val[O_QUIET] != NULL, val[O_NO_XDMF] != NULL,
                     val[O_REPORT] != NULL};
    return request_output(r, &a);
}

int cmd_generate(int argc, char **argv)
{
    const char *val[O_COUNT] = {0}; /* option values as given ("" for flags) */
    int parsed = args_parse_options("generate", OPTS, O_COUNT, O_HELP, argc, argv, val);
    if (parsed < 0)
        return EXIT_USAGE;
    if (parsed > 0) {
        usage_generate();
        return 0;
    }
    request r;
    request_init(&r);
    int rc = parse_generate(val, &r);
    if (rc == 0) {
        r.command = request_command(argc, argv);
        rc = request_plan(&r);
    }
    /* under mpirun every rank planned alike; one that failed (a file it
     * could not read, its memory budget) stops all before any writing */
    if (!cli_mpi_same(r.command) && rc == 0) {
        /* a field of mixed parameters would look like a result */
        cli_errline("the MPI ranks were given different command lines; nothing was written");
        rc = EXIT_USAGE;
    }
    if (!cli_mpi_agree(rc == 0) && rc == 0) {
        if (cli_mpi_rank() == 0)
            cli_errline("another rank failed; nothing was written");
        rc = EXIT_FAIL;
    }
    if (rc == 0)
        rc = request_run(&r);
    request_free(&r);
    return rc;
}
