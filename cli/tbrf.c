/* tbrf.c — the `tbrf` command: generate fields into HDF5 files and
 * describe such files.
 *
 *   tbrf generate --model MODEL ... (--grid NXxNY[xNZ] | --points FILE) --out OUT.h5
 *   tbrf info FILE.h5
 *
 * Error policy: any bad argument or file gives exactly one line
 * "tbrf: ..." on stderr and a non-zero status (2 for usage errors, 1 for
 * failures while running), and never leaves an output file or temporary
 * behind. The library's own messages (tbrf_model_message,
 * tbrf_plan_message) are passed through because they name the offending
 * value precisely. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <hdf5.h>

#include "args.h"
#include "cli.h"
#include "analysis/measure.h"
#include "tbrf.h"
#include "io/tbrf_io.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif


/* Largest grid read back into memory for the --report spectrum. */
#define REPORT_MAX_CELLS ((int64_t)1 << 26)

/* ----------------------------------------------------------- messages */

/* The library's detailed message, or the status text when it has none. */
static const char *plan_msg(const tbrf_plan *plan, int status)
{
    const char *m = plan ? tbrf_plan_message(plan) : NULL;
    return (m && m[0]) ? m : tbrf_strerror(status);
}

static const char *model_msg(const tbrf_model *model, int status)
{
    const char *m = model ? tbrf_model_message(model) : NULL;
    return (m && m[0]) ? m : tbrf_strerror(status);
}

/* ------------------------------------------------ interrupted runs */

/* A run killed by Ctrl-C or the batch system's SIGTERM must not leave its
 * temporary behind either. The handler only calls async-signal-safe
 * unlink() on a path stored in advance, then re-raises the signal with the
 * default action so the exit status still says "killed". */
static char g_tmp[4096];
static volatile sig_atomic_t g_have_tmp = 0;

static void on_signal(int sig)
{
    if (g_have_tmp)
        unlink(g_tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void guard_temp(const char *tmp)
{
    g_have_tmp = 0;
    if (!tmp || strlen(tmp) >= sizeof g_tmp)
        return;
    memcpy(g_tmp, tmp, strlen(tmp) + 1);
    g_have_tmp = 1;
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* ---------------------------------------------------------------- help */

static void print_version(void)
{
    unsigned maj = 0, min = 0, rel = 0;
    H5get_libversion(&maj, &min, &rel);
    printf("tbrf %s (libtbrf %s, HDF5 %u.%u.%u)\n", TBRF_VERSION_STRING, tbrf_version(), maj, min,
           rel);
}

static void usage_main(void)
{
    printf("usage: tbrf COMMAND [options]\n"
           "\n"
           "Gaussian random fields by the spectral turning-bands method.\n"
           "\n"
           "commands:\n"
           "  generate   make one realization on a grid or at points, write HDF5 or netCDF\n"
           "  regenerate reproduce a file's field bit for bit from its attributes\n"
           "  info       show what an HDF5 or netCDF-4 file holds and how it was generated\n"
           "  preview    draw a slice of a grid file as a PNG image\n"
           "  spectrum   measure a grid file's P(k) and compare it with its model\n"
           "  rng        write a generator's output words (raw or hex)\n"
           "  mc         Monte Carlo estimate of a test integral with its standard error\n"
           "\n"
           "  tbrf COMMAND --help   options of a command\n"
           "  tbrf --version        versions of the tool, the library and HDF5\n"
           "\n"
           "Exit status: 0 success, 1 a run or file failed, 2 bad command line.\n");
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
           "points, and root attributes recording every generating parameter. The file\n"
           "is written under a temporary name and renamed when complete.\n"
           "\n"
           "models (--model):\n"
           "  powerlaw     P(k) = A k^n on kmin <= k <= kmax:\n"
           "               --index n --kmax K [--kmin K (default 0; needs n > -dim)]\n"
           "  gaussian     C(r) = s2 exp(-(r/a)^2): --length a\n"
           "  exponential  C(r) = s2 exp(-r/a): --length a\n"
           "  matern       Matern covariance, spectrum ~ k^-(2 nu + dim): --length a --nu v\n"
           "  vonkarman    Matern with nu = 1/3 (k^-11/3 in 3D): --length a\n"
           "  table        tabulated P(k), lines \"k P\", '#' comments: --table FILE\n"
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
           "  --resolution R       smallest length to resolve (default: the smallest grid\n"
           "                       spacing; for points (box volume / N)^(1/dim), kept\n"
           "                       between box size/8192 and the box size)\n"
           "method (all recorded in the file):\n"
           "  --lines N            turning-bands lines (default %d)\n"
           "  --oversampling Q     line samples per resolution length (default %d)\n"
           "  --line-method M      spectral (default) or circulant (3D covariance models)\n"
           "  --method M           tb (turning bands, default), fft (periodic grids: one\n"
           "                       inverse FFT) or auto (fft for a --periodic grid that\n"
           "                       fits in memory, tb otherwise)\n"
           "  --periodic           the grid is one period of the field (implies --method\n"
           "                       auto unless --method is given)\n"
           "  --max-padding P      circulant embedding may grow lines 2^P times (default %d)\n"
           "  --seed S             random seed, 0 to 2^64-1 (default 1)\n"
           "  --realization R      realization number, 0 to 2^64-1 (default 0)\n"
           "output and execution:\n"
           "  --out OUT.h5         output file (required)\n"
           "  --precision P        double (default) or float values\n"
           "  --format F           hdf5 (default) or netcdf (netCDF-4, CF-1.11); an OUT\n"
           "                       name ending in .nc selects netcdf\n"
           "  --compress           shuffle + deflate the datasets\n"
           "  --no-xdmf            no OUT.xmf side file (written for HDF5 output so\n"
           "                       ParaView and VisIt open the file directly)\n"
           "  --quiet              no progress bar (it is shown only on a terminal)\n"
           "  --threads T          OpenMP threads (default 0: OpenMP's choice)\n"
           "  --backend B          cpu (default), opencl, cuda or auto\n"
           "  --device N           GPU backends: device index (default -1: first usable)\n"
           "  --chunk N            cells per streamed chunk (default 0: automatic)\n"
           "  --report             print the measured mean, variance and spectral slope\n"
           "  --help               this text\n"
           "\n"
           "example:\n"
           "  tbrf generate --model powerlaw --index -3 --kmin 0.05 --kmax 3 \\\n"
           "                --grid 128x128x128 --seed 7 --out field.h5 --report\n",
           d.lines, d.oversampling, d.max_padding);
}

static void usage_info(void)
{
    printf("usage: tbrf info FILE.h5\n"
           "\n"
           "Lists the datasets of FILE.h5 (shape, type, chunks, filters) and every\n"
           "attribute of its root group, which for files written by `tbrf generate`\n"
           "record the model, the method, the seed, the geometry and the plan.\n");
}

/* ------------------------------------------------- generate: options */

enum {
    O_MODEL, O_INDEX, O_KMIN, O_KMAX, O_LENGTH, O_NU, O_TABLE, O_VARIANCE, O_AMPLITUDE,
    O_GRID, O_SPACING, O_ORIGIN, O_POINTS, O_RESOLUTION,
    O_LINES, O_OVERSAMPLING, O_LINE_METHOD, O_MAX_PADDING, O_SEED, O_REALIZATION,
    O_OUT, O_PRECISION, O_COMPRESS, O_THREADS, O_BACKEND, O_CHUNK, O_REPORT, O_FORMAT, O_QUIET,
    O_NO_XDMF, O_HELP, O_DEVICE, O_METHOD, O_PERIODIC,
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
    [O_METHOD] = {"--method", 1},     [O_PERIODIC] = {"--periodic", 0},
};

#define BIT(o) (1ull << (o))
#define MODEL_OPTS (BIT(O_INDEX) | BIT(O_KMIN) | BIT(O_KMAX) | BIT(O_LENGTH) | BIT(O_NU) | BIT(O_TABLE))

/* Which model options each model takes and needs: an option that does not
 * apply is an error, since silently ignoring "--nu" on a Gaussian model
 * would hide a mistake. */
static const struct {
    const char *name;
    unsigned long long allowed, required;
} MODELS[] = {
    {"powerlaw", BIT(O_INDEX) | BIT(O_KMIN) | BIT(O_KMAX), BIT(O_INDEX) | BIT(O_KMAX)},
    {"gaussian", BIT(O_LENGTH), BIT(O_LENGTH)},
    {"exponential", BIT(O_LENGTH), BIT(O_LENGTH)},
    {"matern", BIT(O_LENGTH) | BIT(O_NU), BIT(O_LENGTH) | BIT(O_NU)},
    {"vonkarman", BIT(O_LENGTH), BIT(O_LENGTH)},
    {"table", BIT(O_TABLE), BIT(O_TABLE)},
};
#define NMODELS ((int)(sizeof MODELS / sizeof MODELS[0]))

/* Everything generate owns, released in one place. */
typedef struct gen {
    const char *val[O_COUNT]; /* option values as given ("" for flags) */
    char *command;
    int model_kind; /* index in MODELS */
    double index, kmin, kmax, length, nu, variance, amplitude;
    int by_variance;
    int dim, is_grid;
    int64_t n[3];
    double origin[3], spacing[3], lo[3], hi[3], resolution;
    uint64_t seed, realization;
    tbrf_opts opts;
    int compress, report;
    int netcdf, quiet, xdmf; /* output format, no progress bar, XDMF side file */
    progress prog;
    /* owned resources */
    tbrf_model *model;
    tbrf_plan *plan;
    tbrf_io_writer *w;
    double *xyz;
    int64_t npoints;
    void *values;
    size_t table_n;
    double *table_k, *table_p;
    /* running moments of the pushed grid values (for --report) */
    int64_t count;
    double mean, m2;
} gen;

static void gen_free(gen *g)
{
    g_have_tmp = 0;
    tbrf_io_close(g->w); /* removes the temporary unless committed */
    tbrf_destroy(g->plan);
    tbrf_model_destroy(g->model);
    free(g->xyz);
    free(g->values);
    free(g->table_k);
    free(g->table_p);
    free(g->command);
}

/* The command line, recorded in the file for humans. */
static char *join_args(int argc, char **argv)
{
    size_t len = sizeof "tbrf";
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 3;
    char *s = malloc(len);
    if (!s)
        return NULL;
    strcpy(s, "tbrf");
    for (int i = 0; i < argc; i++) {
        int quote = argv[i][0] == '\0' || strpbrk(argv[i], " \t'\"") != NULL;
        strcat(s, " ");
        if (quote)
            strcat(s, "'");
        strcat(s, argv[i]);
        if (quote)
            strcat(s, "'");
    }
    return s;
}

/* Fills g->val from argv (argv[0] is "generate"). Accepts "--opt VALUE"
 * and "--opt=VALUE"; rejects unknown, repeated and valueless options. */
static int parse_generate(gen *g, int argc, char **argv)
{
    int parsed = args_parse_options("generate", OPTS, O_COUNT, O_HELP, argc, argv, g->val);
    if (parsed > 0)
        g->val[O_HELP] = "";
    return parsed < 0 ? -1 : 0;
}

/* Parses, checks and combines the option values. */
static int check_generate(gen *g)
{
    char err[512];
#define NUM(call)                \
    do {                         \
        if (call) {              \
            cli_errline("%s", err);  \
            return -1;           \
        }                        \
    } while (0)

    if (!g->val[O_MODEL]) {
        cli_errline("generate: --model is required (powerlaw, gaussian, exponential, matern, "
                "vonkarman, table)");
        return -1;
    }
    g->model_kind = -1;
    for (int m = 0; m < NMODELS; m++)
        if (strcmp(g->val[O_MODEL], MODELS[m].name) == 0)
            g->model_kind = m;
    if (g->model_kind < 0) {
        cli_errline("generate: unknown model '%.100s' (powerlaw, gaussian, exponential, matern, "
                "vonkarman, table)",
                g->val[O_MODEL]);
        return -1;
    }
    for (int o = 0; o < O_COUNT; o++) {
        if (!(MODEL_OPTS & BIT(o)))
            continue;
        if (g->val[o] && !(MODELS[g->model_kind].allowed & BIT(o))) {
            cli_errline("generate: %s does not apply to model %s", OPTS[o].name,
                    MODELS[g->model_kind].name);
            return -1;
        }
        if (!g->val[o] && (MODELS[g->model_kind].required & BIT(o))) {
            cli_errline("generate: model %s needs %s", MODELS[g->model_kind].name, OPTS[o].name);
            return -1;
        }
    }
    g->index = g->kmin = g->kmax = g->length = g->nu = NAN;
    if (g->val[O_INDEX])
        NUM(args_double("--index", g->val[O_INDEX], &g->index, err, sizeof err));
    if (g->val[O_KMAX]) {
        g->kmin = 0.0;
        NUM(args_positive("--kmax", g->val[O_KMAX], &g->kmax, err, sizeof err));
    }
    if (g->val[O_KMIN]) {
        NUM(args_double("--kmin", g->val[O_KMIN], &g->kmin, err, sizeof err));
        if (g->kmin < 0) {
            cli_errline("--kmin: '%.60s' must be >= 0", g->val[O_KMIN]);
            return -1;
        }
    }
    if (g->val[O_LENGTH])
        NUM(args_positive("--length", g->val[O_LENGTH], &g->length, err, sizeof err));
    if (g->val[O_NU])
        NUM(args_positive("--nu", g->val[O_NU], &g->nu, err, sizeof err));
    if (g->val[O_TABLE] && !g->val[O_TABLE][0]) {
        cli_errline("--table needs a file name");
        return -1;
    }

    if (g->val[O_VARIANCE] && g->val[O_AMPLITUDE]) {
        cli_errline("generate: give --variance or --amplitude, not both");
        return -1;
    }
    g->by_variance = !g->val[O_AMPLITUDE];
    g->variance = 1.0;
    g->amplitude = NAN;
    if (g->val[O_VARIANCE])
        NUM(args_positive("--variance", g->val[O_VARIANCE], &g->variance, err, sizeof err));
    if (g->val[O_AMPLITUDE]) {
        g->variance = NAN;
        NUM(args_positive("--amplitude", g->val[O_AMPLITUDE], &g->amplitude, err, sizeof err));
    }

    /* Geometry. */
    if (!!g->val[O_GRID] == !!g->val[O_POINTS]) {
        cli_errline("generate: give exactly one of --grid NXxNY[xNZ] and --points FILE.h5");
        return -1;
    }
    g->is_grid = g->val[O_GRID] != NULL;
    if (!g->is_grid && (g->val[O_SPACING] || g->val[O_ORIGIN])) {
        cli_errline("generate: --spacing and --origin apply to --grid only");
        return -1;
    }
    if (g->is_grid) {
        NUM(args_grid("--grid", g->val[O_GRID], g->n, &g->dim, err, sizeof err));
        for (int c = 0; c < 3; c++) {
            g->origin[c] = 0.0;
            g->spacing[c] = 1.0;
        }
        if (g->val[O_SPACING]) {
            double v[3];
            int k;
            NUM(args_doubles("--spacing", g->val[O_SPACING], 3, v, &k, err, sizeof err));
            if (k != 1 && k != g->dim) {
                cli_errline("--spacing: give one value or %d (one per axis)", g->dim);
                return -1;
            }
            for (int c = 0; c < g->dim; c++) {
                g->spacing[c] = v[k == 1 ? 0 : c];
                if (!(g->spacing[c] > 0)) {
                    cli_errline("--spacing: '%.60s' must be positive", g->val[O_SPACING]);
                    return -1;
                }
            }
        }
        if (g->val[O_ORIGIN]) {
            double v[3];
            int k;
            NUM(args_doubles("--origin", g->val[O_ORIGIN], 3, v, &k, err, sizeof err));
            if (k != g->dim) {
                cli_errline("--origin: give %d values for a %dD grid", g->dim, g->dim);
                return -1;
            }
            for (int c = 0; c < g->dim; c++)
                g->origin[c] = v[c];
        }
    } else if (!g->val[O_POINTS][0]) {
        cli_errline("--points needs a file name");
        return -1;
    }
    g->resolution = NAN;
    if (g->val[O_RESOLUTION])
        NUM(args_positive("--resolution", g->val[O_RESOLUTION], &g->resolution, err, sizeof err));

    /* Method and execution. */
    tbrf_default_opts(&g->opts);
    int64_t v;
    if (g->val[O_LINES]) {
        NUM(args_int64("--lines", g->val[O_LINES], 1, INT32_MAX, &v, err, sizeof err));
        g->opts.lines = (int32_t)v;
    }
    if (g->val[O_OVERSAMPLING]) {
        NUM(args_int64("--oversampling", g->val[O_OVERSAMPLING], 1, INT32_MAX, &v, err, sizeof err));
        g->opts.oversampling = (int32_t)v;
    }
    if (g->val[O_LINE_METHOD]) {
        static const char *const NAMES[] = {"spectral", "circulant"};
        static const int VALUES[] = {TBRF_LINES_SPECTRAL, TBRF_LINES_CIRCULANT};
        int k = args_choice("--line-method", g->val[O_LINE_METHOD], NAMES, 2);
        if (k < 0)
            return -1;
        g->opts.line_method = VALUES[k];
    }
    if (g->val[O_PERIODIC]) {
        g->opts.periodic = 1;
        g->opts.method = TBRF_METHOD_AUTO;
    }
    if (g->val[O_METHOD]) {
        static const char *const NAMES[] = {"tb", "fft", "auto"};
        static const int VALUES[] = {TBRF_METHOD_TB, TBRF_METHOD_FFT, TBRF_METHOD_AUTO};
        int k = args_choice("--method", g->val[O_METHOD], NAMES, 3);
        if (k < 0)
            return -1;
        g->opts.method = VALUES[k];
    }
    if (g->val[O_MAX_PADDING]) {
        NUM(args_int64("--max-padding", g->val[O_MAX_PADDING], 0, 30, &v, err, sizeof err));
        g->opts.max_padding = (int32_t)v;
    }
    g->seed = 1;
    g->realization = 0;
    if (g->val[O_SEED])
        NUM(args_uint64("--seed", g->val[O_SEED], &g->seed, err, sizeof err));
    if (g->val[O_REALIZATION])
        NUM(args_uint64("--realization", g->val[O_REALIZATION], &g->realization, err, sizeof err));
    if (g->val[O_PRECISION]) {
        static const char *const NAMES[] = {"double", "float"};
        static const int VALUES[] = {TBRF_DOUBLE, TBRF_FLOAT};
        int k = args_choice("--precision", g->val[O_PRECISION], NAMES, 2);
        if (k < 0)
            return -1;
        g->opts.precision = VALUES[k];
    }
    if (g->val[O_THREADS]) {
        /* More threads than this is a typo, not a machine. */
        NUM(args_int64("--threads", g->val[O_THREADS], 0, 65536, &v, err, sizeof err));
        g->opts.threads = (int32_t)v;
    }
    if (g->val[O_BACKEND]) {
        int b;
        for (b = TBRF_BACKEND_CPU; b <= TBRF_BACKEND_AUTO; b++)
            if (tbrf_backend_name(b) && strcmp(g->val[O_BACKEND], tbrf_backend_name(b)) == 0)
                break;
        if (b > TBRF_BACKEND_AUTO) {
            cli_errline("--backend: '%.60s' is not cpu, opencl, cuda or auto", g->val[O_BACKEND]);
            return -1;
        }
        g->opts.backend = b;
    }
    if (g->val[O_DEVICE]) {
        NUM(args_int64("--device", g->val[O_DEVICE], -1, 4096, &v, err, sizeof err));
        g->opts.device = (int32_t)v;
    }
    if (g->val[O_CHUNK]) {
        NUM(args_int64("--chunk", g->val[O_CHUNK], 0, INT64_MAX, &v, err, sizeof err));
        g->opts.chunk = v;
    }
    if (!g->val[O_OUT]) {
        cli_errline("generate: --out OUT.h5 is required");
        return -1;
    }
    if (!g->val[O_OUT][0]) {
        cli_errline("--out needs a file name");
        return -1;
    }
    g->compress = g->val[O_COMPRESS] != NULL;
    g->report = g->val[O_REPORT] != NULL;
    g->quiet = g->val[O_QUIET] != NULL;
    /* netCDF when asked, or when the name says so; HDF5 otherwise. */
    size_t olen = strlen(g->val[O_OUT]);
    g->netcdf = olen > 3 && strcmp(g->val[O_OUT] + olen - 3, ".nc") == 0;
    if (g->val[O_FORMAT]) {
        static const char *const NAMES[] = {"hdf5", "netcdf"};
        int k = args_choice("--format", g->val[O_FORMAT], NAMES, 2);
        if (k < 0)
            return -1;
        g->netcdf = k;
    }
    /* ParaView/VisIt read CF netCDF themselves; XDMF describes HDF5. */
    g->xdmf = !g->netcdf && !g->val[O_NO_XDMF];
    if (g->netcdf && g->val[O_NO_XDMF]) {
        cli_errline("generate: --no-xdmf applies to HDF5 output only (netCDF gets no XDMF file)");
        return -1;
    }
    return 0;
#undef NUM
}

/* ------------------------------------------------- generate: running */

static int build_model(gen *g)
{
    int st;
    const char *kind = MODELS[g->model_kind].name;
    if (strcmp(kind, "powerlaw") == 0)
        st = tbrf_model_powerlaw(g->index, g->kmin, g->kmax, &g->model);
    else if (strcmp(kind, "gaussian") == 0)
        st = tbrf_model_gaussian(g->length, &g->model);
    else if (strcmp(kind, "exponential") == 0)
        st = tbrf_model_exponential(g->length, &g->model);
    else if (strcmp(kind, "matern") == 0)
        st = tbrf_model_matern(g->length, g->nu, &g->model);
    else if (strcmp(kind, "vonkarman") == 0)
        st = tbrf_model_vonkarman(g->length, &g->model);
    else
        st = tbrf_model_table_file(g->val[O_TABLE], &g->model);
    if (st != TBRF_OK) {
        cli_errline("model %s: %s", kind, model_msg(g->model, st));
        return -1;
    }
    st = g->by_variance ? tbrf_model_set_variance(g->model, g->variance)
                        : tbrf_model_set_amplitude(g->model, g->amplitude);
    if (st != TBRF_OK) {
        cli_errline("model %s: %s", kind, model_msg(g->model, st));
        return -1;
    }
    if (strcmp(kind, "table") == 0) {
        /* Keep the table itself so the file is regenerable without it. */
        char err[512];
        if (args_read_table(g->val[O_TABLE], &g->table_n, &g->table_k, &g->table_p, err,
                            sizeof err)) {
            cli_errline("%s", err);
            return -1;
        }
    }
    return 0;
}

/* Domain and resolution of a points run: the bounding box, and the mean
 * spacing (volume/N)^(1/dim) over the axes the points actually span. The
 * clamp keeps a tight cluster from asking for lines of absurd length
 * (box/8192 is already about 1 GiB of lines) and a lone point from
 * having no length scale at all. */
static void points_domain(gen *g)
{
    double ext_max = 0.0, vol = 1.0;
    int spanned = 0;
    for (int c = 0; c < 3; c++) {
        g->lo[c] = g->hi[c] = 0.0;
    }
    for (int c = 0; c < g->dim; c++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int64_t i = 0; i < g->npoints; i++) {
            double x = g->xyz[(size_t)g->dim * (size_t)i + (size_t)c];
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        g->lo[c] = lo;
        g->hi[c] = hi;
        double e = hi - lo;
        if (e > 0) {
            vol *= e;
            spanned++;
        }
        ext_max = e > ext_max ? e : ext_max;
    }
    if (!isnan(g->resolution))
        return; /* --resolution given */
    if (spanned == 0) {
        g->resolution = 1.0;
        return;
    }
    double r = pow(vol / (double)g->npoints, 1.0 / spanned);
    if (r < ext_max / 8192.0)
        r = ext_max / 8192.0;
    if (r > ext_max)
        r = ext_max;
    g->resolution = r;
}

/* Refuses a grid that cannot fit on the output's file system: the
 * library happily streams 10^15 cells, which would run for days and then
 * fail. (Skipped with --compress, whose ratio is unknown.) */
static int check_disk_space(const gen *g)
{
    if (g->compress)
        return 0;
    const char *out = g->val[O_OUT];
    char dir[4096];
    const char *slash = strrchr(out, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == out)
        strcpy(dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - out), out);
    struct statvfs sv;
    if (statvfs(dir, &sv) != 0)
        return 0; /* the writer will report an unusable directory */
    double cells = (double)g->n[0] * (double)g->n[1] * (double)g->n[2];
    double need = cells * (g->opts.precision == TBRF_FLOAT ? 4.0 : 8.0);
    double avail = (double)sv.f_bavail * (double)sv.f_frsize;
    if (need > avail) {
        cli_errline("grid %lldx%lldx%lld needs %.3g GB but only %.3g GB are free in %s",
                (long long)g->n[0], (long long)g->n[1], (long long)g->n[2], need / 1e9,
                avail / 1e9, dir);
        return -1;
    }
    return 0;
}

/* Chan et al.'s pairwise update of running mean and M2 with one chunk,
 * whose own moments are taken in two passes: stable for any grid size. */
static void moments_add(gen *g, const void *values, int64_t count)
{
    if (count <= 0)
        return;
    const double *vd = values;
    const float *vf = values;
    int isf = g->opts.precision == TBRF_FLOAT;
    double s = 0.0;
    for (int64_t i = 0; i < count; i++)
        s += isf ? (double)vf[i] : vd[i];
    double m = s / (double)count, q = 0.0;
    for (int64_t i = 0; i < count; i++) {
        double d = (isf ? (double)vf[i] : vd[i]) - m;
        q += d * d;
    }
    double na = (double)g->count, nb = (double)count, n = na + nb;
    double delta = m - g->mean;
    g->mean += delta * nb / n;
    g->m2 += q + delta * delta * na * nb / n;
    g->count += count;
}

static int push_cb(void *user, int64_t first, int64_t count, const void *values)
{
    gen *g = user;
    if (tbrf_io_grid_push(g->w, first, count, values))
        return 1;
    moments_add(g, values, count);
    progress_update(&g->prog, first + count);
    return 0;
}

static void fill_meta(const gen *g, const tbrf_plan_info *info, tbrf_io_meta *m)
{
    tbrf_io_meta_init(m);
    m->command = g->command;
    m->model = tbrf_model_describe(g->model);
    m->model_kind = MODELS[g->model_kind].name;
    m->index = g->index;
    m->kmin = g->kmin;
    m->kmax = g->kmax;
    m->length = g->length;
    m->nu = g->nu;
    m->by_variance = g->by_variance;
    m->variance = g->variance;
    m->amplitude = g->amplitude;
    m->table_file = g->val[O_TABLE];
    m->table_n = g->table_n;
    m->table_k = g->table_k;
    m->table_p = g->table_p;
    m->dim = g->dim;
    m->opts = g->opts;
    m->method_used = tbrf_plan_method(g->plan);
    m->opts.method = tbrf_plan_method(g->plan); /* the method that ran (AUTO resolved) */
    m->seed = g->seed;
    m->realization = g->realization;
    for (int c = 0; c < 3; c++) {
        m->lo[c] = g->lo[c];
        m->hi[c] = g->hi[c];
        m->origin[c] = g->origin[c];
        m->spacing[c] = g->spacing[c];
        m->n[c] = g->n[c];
    }
    m->resolution = g->resolution;
    m->is_grid = g->is_grid;
    m->npoints = g->npoints;
    m->points_file = g->val[O_POINTS];
    m->info = *info;
}

/* --report: where the file went and what it holds, measured. */
static void report(gen *g, const tbrf_plan_info *info)
{
    const char *out = g->val[O_OUT];
    const char *prec = g->opts.precision == TBRF_FLOAT ? "float32" : "float64";
    double mean = g->mean, var = g->count > 0 ? g->m2 / (double)g->count : NAN;
    if (g->is_grid) {
        if (g->dim == 3)
            printf("wrote %s: /field %lld x %lld x %lld (nx x ny x nz) %s\n", out,
                   (long long)g->n[0], (long long)g->n[1], (long long)g->n[2], prec);
        else
            printf("wrote %s: /field %lld x %lld (nx x ny) %s\n", out, (long long)g->n[0],
                   (long long)g->n[1], prec);
    } else {
        printf("wrote %s: /value at %lld points (%dD) %s\n", out, (long long)g->npoints, g->dim,
               prec);
    }

    /* The spectrum needs the whole grid; read it back from the file,
     * which also checks what was written. */
    tbrf_measurement meas;
    int have_slope = 0;
    const char *slope_note = NULL;
    char note[640];
    double klo = NAN, khi = NAN;
    if (g->is_grid) {
        int64_t cells = g->n[0] * g->n[1] * g->n[2];
        double kf = 0.0, knyq = INFINITY;
        for (int c = 0; c < g->dim; c++) {
            if (g->n[c] < 2)
                continue; /* a one-plane 3D grid is measured as 2D */
            double f = 2.0 * M_PI / ((double)g->n[c] * g->spacing[c]);
            kf = f > kf ? f : kf;
            double q = M_PI / g->spacing[c];
            knyq = q < knyq ? q : knyq;
        }
        /* Fit where the estimate is clean: above a few fundamentals (the
         * window's bias falls as (dk/k)^2), below half the grid Nyquist
         * (aliasing), and inside the model's own cut-offs. */
        klo = 4.0 * kf;
        khi = 0.5 * knyq;
        if (g->model_kind == 0) {
            klo = fmax(klo, 1.25 * g->kmin);
            khi = fmin(khi, g->kmax / 1.25);
        }
        if (cells > REPORT_MAX_CELLS) {
            slope_note = "not measured (grid too large to read back)";
        } else if (g->n[0] < 2 || g->n[1] < 2) {
            slope_note = "not measured (grid too thin)";
        } else if (!(klo < khi)) {
            snprintf(note, sizeof note, "not measured (no usable k range: %.4g > %.4g)", klo, khi);
            slope_note = note;
        } else {
            double *field = NULL;
            int64_t nn[3];
            char err[512];
            if (tbrf_io_read_field(out, nn, &field, err, sizeof err)) {
                snprintf(note, sizeof note, "not measured (%s)", err);
                slope_note = note;
            } else {
                double h[3] = {g->spacing[0], g->spacing[1], g->dim == 3 ? g->spacing[2] : 1.0};
                if (tbrf_measure_grid(field, nn, h, klo, khi, &meas) == 0) {
                    have_slope = 1;
                    mean = meas.mean;
                    var = meas.variance;
                } else {
                    slope_note = "not measured (fewer than 3 usable shells in the k range)";
                }
                free(field);
            }
        }
    }
    printf("  mean      %.6g   (target 0)\n", mean);
    printf("  variance  %.6g   (target %.6g; resolved %.6g)\n", var, info->variance,
           info->variance_resolved);
    if (!g->is_grid)
        return;
    if (!have_slope) {
        printf("  slope     %s\n", slope_note);
        return;
    }
    printf("  slope     %.4f +- %.4f over %.4g <= k <= %.4g (%d shells)", meas.slope,
           meas.slope_stderr, klo, khi, meas.bins_used);
    const char *kind = MODELS[g->model_kind].name;
    /* A 3D field sampled on one plane (or line) has the projected
     * spectrum: each thin axis integrated out adds one to the slope. */
    int thin = 0;
    for (int c = 0; c < g->dim; c++)
        thin += g->n[c] < 2;
    if (thin > 0 && g->model_kind == 0)
        printf("   (model index %g; %g expected in this thin slice of a 3D field)\n", g->index,
               g->index + thin);
    else if (g->model_kind == 0)
        printf("   (model index %g)\n", g->index);
    else if (strcmp(kind, "exponential") == 0)
        printf("   (model tends to k^%g at k >> 1/length)\n", -(1.0 + g->dim));
    else if (strcmp(kind, "matern") == 0)
        printf("   (model tends to k^%g at k >> 1/length)\n", -(2.0 * g->nu + g->dim));
    else if (strcmp(kind, "vonkarman") == 0)
        printf("   (model tends to k^%g at k >> 1/length)\n", -(2.0 / 3.0 + g->dim));
    else
        printf("\n");
}

static int run_generate(gen *g, int argc, char **argv)
{
    if (parse_generate(g, argc, argv))
        return EXIT_USAGE;
    if (g->val[O_HELP]) {
        usage_generate();
        return 0;
    }
    if (check_generate(g))
        return EXIT_USAGE;
    g->command = join_args(argc, argv);
    if (build_model(g))
        return EXIT_FAIL;

    char err[1024];
    if (g->is_grid) {
        for (int c = 0; c < 3; c++) {
            g->lo[c] = g->hi[c] = 0.0;
        }
        double rmin = INFINITY;
        for (int c = 0; c < g->dim; c++) {
            g->lo[c] = g->origin[c];
            /* The same expression the library uses for the last cell, so
             * the grid lies inside the domain bit for bit. */
            g->hi[c] = g->origin[c] + g->spacing[c] * (double)(g->n[c] - 1);
            if (!isfinite(g->hi[c])) {
                cli_errline("--grid/--spacing/--origin: axis %d reaches %g", c, g->hi[c]);
                return EXIT_USAGE;
            }
            rmin = g->spacing[c] < rmin ? g->spacing[c] : rmin;
        }
        if (isnan(g->resolution))
            g->resolution = rmin;
        if (check_disk_space(g))
            return EXIT_FAIL;
    } else {
        int dim;
        if (tbrf_io_read_points(g->val[O_POINTS], &dim, &g->npoints, &g->xyz, err, sizeof err)) {
            cli_errline("%s", err);
            return EXIT_FAIL;
        }
        g->dim = dim;
        points_domain(g);
    }

    int st = tbrf_make_plan(g->model, g->dim, g->lo, g->hi, g->resolution, g->seed, &g->opts,
                            &g->plan);
    if (st != TBRF_OK) {
        cli_errline("%s", plan_msg(g->plan, st));
        return EXIT_FAIL;
    }
    st = g->is_grid ? tbrf_set_grid(g->plan, g->origin, g->spacing, g->n)
                    : tbrf_set_points(g->plan, g->npoints, g->xyz);
    if (st != TBRF_OK) {
        cli_errline("%s", plan_msg(g->plan, st));
        return EXIT_FAIL;
    }
    tbrf_plan_info info;
    st = tbrf_plan_get_info(g->plan, &info);
    if (st != TBRF_OK) {
        cli_errline("%s", plan_msg(g->plan, st));
        return EXIT_FAIL;
    }
    if (info.variance_resolved < 0.99 * info.variance) {
        if (tbrf_plan_method(g->plan) == TBRF_METHOD_FFT)
            fprintf(stderr,
                    "tbrf: warning: the grid's modes carry only %.1f%% of the variance (power "
                    "above the grid's Nyquist or below its fundamental is lost)\n",
                    100.0 * info.variance_resolved / info.variance);
        else
            fprintf(stderr,
                    "tbrf: warning: the lines resolve only %.1f%% of the variance (power above the "
                    "line Nyquist or below the line's fundamental is lost); try a larger "
                    "--oversampling\n",
                    100.0 * info.variance_resolved / info.variance);
    }

    g->w = tbrf_io_create(g->val[O_OUT],
                          (g->compress ? TBRF_IO_COMPRESS : 0) | (g->netcdf ? TBRF_IO_NETCDF : 0),
                          err, sizeof err);
    if (!g->w) {
        cli_errline("%s", err);
        return EXIT_FAIL;
    }
    guard_temp(tbrf_io_temp_path(g->w));

    if (g->is_grid) {
        if (tbrf_io_grid_begin(g->w, g->dim, g->n, g->opts.precision)) {
            cli_errline("%s", tbrf_io_message(g->w));
            return EXIT_FAIL;
        }
        /* Cells stream from the library straight into the file: the grid
         * is never whole in memory. */
        progress_begin(&g->prog, g->n[0] * g->n[1] * g->n[2], "cells", g->quiet);
        st = tbrf_execute_grid_stream(g->plan, g->realization, push_cb, g);
        progress_end(&g->prog);
        if (st != TBRF_OK) {
            cli_errline("%s", st == TBRF_ERR_CALLBACK ? tbrf_io_message(g->w) : plan_msg(g->plan, st));
            return EXIT_FAIL;
        }
    } else {
        size_t elt = g->opts.precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
        g->values = malloc((size_t)g->npoints * elt);
        if (!g->values) {
            cli_errline("not enough memory for %lld values", (long long)g->npoints);
            return EXIT_FAIL;
        }
        st = tbrf_execute(g->plan, g->realization, g->values);
        if (st != TBRF_OK) {
            cli_errline("%s", plan_msg(g->plan, st));
            return EXIT_FAIL;
        }
        moments_add(g, g->values, g->npoints);
        if (tbrf_io_write_points(g->w, g->dim, g->npoints, g->xyz) ||
            tbrf_io_write_values(g->w, g->npoints, g->opts.precision, g->values)) {
            cli_errline("%s", tbrf_io_message(g->w));
            return EXIT_FAIL;
        }
    }
    tbrf_io_meta meta;
    fill_meta(g, &info, &meta);
    if (tbrf_io_write_meta(g->w, &meta) || tbrf_io_commit(g->w)) {
        cli_errline("%s", tbrf_io_message(g->w));
        return EXIT_FAIL;
    }
    g_have_tmp = 0;
    if (g->xdmf && tbrf_io_write_xdmf(g->val[O_OUT], &meta, err, sizeof err)) {
        cli_errline("%s", err);
        return EXIT_FAIL;
    }
    if (g->report)
        report(g, &info);
    return 0;
}

int cli_generate(int argc, char **argv)
{
    gen g;
    memset(&g, 0, sizeof g);
    int rc = run_generate(&g, argc, argv);
    gen_free(&g);
    return rc;
}

/* ------------------------------------------------------------- info */

static int run_info(int argc, char **argv)
{
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage_info();
            return 0;
        }
        if (strncmp(argv[i], "--", 2) == 0) {
            cli_errline("info: unknown option '%.100s' (see tbrf info --help)", argv[i]);
            return EXIT_USAGE;
        }
        if (file) {
            cli_errline("info: give one file (got '%.100s' and '%.100s')", file, argv[i]);
            return EXIT_USAGE;
        }
        file = argv[i];
    }
    if (!file) {
        cli_errline("info: no file given (usage: tbrf info FILE.h5)");
        return EXIT_USAGE;
    }
    char err[1024];
    if (tbrf_io_info(file, stdout, err, sizeof err)) {
        cli_errline("%s", err);
        return EXIT_FAIL;
    }
    return 0;
}

/* ------------------------------------------------------------- main */

int cmd_rng(int argc, char **argv); /* cmd_rng.c */
int cmd_mc(int argc, char **argv);  /* cmd_mc.c */

int main(int argc, char **argv)
{
    /* HDF5 1.10 crashes in its atexit clean-up when an H5Fclose failed
     * earlier (e.g. the disk filled while flushing): the failed file stays
     * registered half torn down. The tool closes every file it opens
     * itself, so it does without that clean-up. Must precede any other
     * HDF5 call. */
    H5dont_atexit();
    /* Our messages replace HDF5's stack dumps everywhere in the tool. */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    install_signals();
    if (argc < 2) {
        cli_errline("no command given; try 'tbrf --help'");
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    int rc;
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage_main();
        rc = 0;
    } else if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        print_version();
        rc = 0;
    } else if (strcmp(cmd, "generate") == 0) {
        rc = cli_generate(argc - 1, argv + 1);
    } else if (strcmp(cmd, "regenerate") == 0) {
        rc = cmd_regenerate(argc - 1, argv + 1);
    } else if (strcmp(cmd, "preview") == 0) {
        rc = cmd_preview(argc - 1, argv + 1);
    } else if (strcmp(cmd, "spectrum") == 0) {
        rc = cmd_spectrum(argc - 1, argv + 1);
    } else if (strcmp(cmd, "info") == 0) {
        rc = run_info(argc - 1, argv + 1);
    } else if (strcmp(cmd, "rng") == 0) {
        rc = cmd_rng(argc - 1, argv + 1);
    } else if (strcmp(cmd, "mc") == 0) {
        rc = cmd_mc(argc - 1, argv + 1);
    } else {
        cli_errline("unknown command '%.100s'; try 'tbrf --help'", cmd);
        rc = EXIT_USAGE;
    }
    /* A full disk or closed pipe on stdout is a failure too. */
    if (fflush(stdout) != 0 && rc == 0) {
        cli_errline("cannot write to standard output: %s", strerror(errno));
        rc = EXIT_FAIL;
    }
    return rc;
}
