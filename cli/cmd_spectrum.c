/* spectrum.c — `tbrf spectrum FILE [--plot spectrum.png]`.
 *
 * Measures the shell-averaged power spectrum of a grid file (FFTW, Hann
 * window; src/analysis/measure.h has the estimator and its bias) and compares it
 * with the model the file's attributes record, rebuilt through the
 * library so "the model" means exactly what generated the field. Prints a
 * table k, P measured, P model, ratio, modes, and the fitted log-log
 * slopes of both over the clean range (above 4 fundamentals, where the
 * window's bias is small; below half the grid Nyquist, where aliasing is
 * small; inside a power law's cut-offs). --plot draws both curves on
 * log-log axes into a PNG (plot_spectrum.c). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "analysis/measure.h"
#include "tbrf.h"
#include "io/tbrf_io.h"
#include "plot.h"
#include "request.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The whole grid is read for the FFT; beyond this it would not fit. */
#define SPECTRUM_MAX_CELLS ((int64_t)1 << 28)

static void usage(void)
{
    printf("usage: tbrf spectrum FILE [--plot SPECTRUM.png] [--quiet]\n"
           "\n"
           "Measures the shell-averaged power spectrum P(k) of the grid in FILE (HDF5 or\n"
           "netCDF-4 written by tbrf generate; Hann window, bins one fundamental wide) and\n"
           "prints it beside the model recorded in the file's attributes, with the\n"
           "log-log slopes of both fitted over max(4 k_f, 1.25 kmin) <= k <=\n"
           "min(k_Nyquist/2, kmax/1.25). --plot draws both on log-log axes as a PNG,\n"
           "with the fit range, the grid Nyquist and the slopes marked, and says on\n"
           "stderr 'wrote SPECTRUM.png: PNG WxH pixels' (not with --quiet).\n"
           "The grid is read whole, so it must fit in memory.\n");
}

/* The model of the file, rebuilt through the tool's one table of models
 * with the amplitude the plan used. NULL (message printed) on failure. */
static tbrf_model *file_model(tbrf_io_meta *meta, const char *file)
{
    tbrf_model *m = NULL;
    /* The amplitude the plan used, whatever normalization was asked. */
    meta->by_variance = 0;
    meta->amplitude = meta->info.amplitude;
    int st = cli_model_make(meta, &m);
    if (st != TBRF_OK) {
        char kind[128];
        cli_errline("%s: cannot rebuild model '%s' from the attributes%s%s", file,
                    tbrf_io_escape(meta->model_kind, kind, sizeof kind), m ? ": " : "",
                    m ? tbrf_model_message(m) : "");
        tbrf_model_destroy(m);
        return NULL;
    }
    return m;
}

/* FILE and --plot PNG; 0, 1 after --help, or EXIT_USAGE. */
static int parse_spectrum(int argc, char **argv, const char **file, const char **png,
                          int *quiet)
{
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            usage();
            return 1;
        }
        if (strcmp(o, "--plot") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0]) {
                cli_errline("spectrum: --plot needs a file name");
                return EXIT_USAGE;
            }
            if (*png) {
                cli_errline("spectrum: --plot given twice");
                return EXIT_USAGE;
            }
            *png = argv[++i];
        } else if (strcmp(o, "--quiet") == 0) {
            *quiet = 1;
        } else if (args_file("spectrum", o, file)) {
            return EXIT_USAGE;
        }
    }
    if (!*file) {
        cli_errline("spectrum: usage: tbrf spectrum FILE [--plot SPECTRUM.png]");
        return EXIT_USAGE;
    }
    return 0;
}

/* The measured spectrum of a file's grid and its model beside it. */
typedef struct spec {
    tbrf_io_meta meta;
    tbrf_model *model;
    double *field, *model_p;
    int64_t n[3];
    tbrf_spectrum s;
    int mdim;           /* the dimension measured */
    double klo, khi, knyq; /* fit range; grid Nyquist */
} spec;

static void spec_free(spec *sp)
{
    tbrf_spectrum_free(&sp->s);
    tbrf_model_destroy(sp->model);
    tbrf_io_meta_free(&sp->meta);
    free(sp->field);
    free(sp->model_p);
}

/* Reads the file's parameters and grid, rebuilds its model. */
static int load(spec *sp, const char *file)
{
    char err[1024], esc[2048];
    tbrf_io_meta *m = &sp->meta;
    if (tbrf_io_read_meta(file, m, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return -1;
    }
    if (!m->is_grid) {
        cli_errline("%s holds values at points; the spectrum needs a grid", file);
        return -1;
    }
    if (!(sp->model = file_model(m, file)))
        return -1;
    /* The attributes may lie: the dataset's own shape must agree with
     * them, and fit the budgets, before a byte of it is read. */
    int64_t shape[3];
    if (tbrf_io_field_shape(file, shape, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return -1;
    }
    if (shape[0] != m->n[0] || shape[1] != m->n[1] || shape[2] != m->n[2]) {
        cli_errline("%s: /field is %lldx%lldx%lld but the attribute grid_counts says "
                    "%lldx%lldx%lld", file, (long long)shape[0], (long long)shape[1],
                    (long long)shape[2], (long long)m->n[0], (long long)m->n[1],
                    (long long)m->n[2]);
        return -1;
    }
    double cells = (double)shape[0] * (double)shape[1] * (double)shape[2];
    if (cells > (double)SPECTRUM_MAX_CELLS) {
        cli_errline("%s: %.3g cells are too many to read into memory for a spectrum (at most %lld)",
                    file, cells, (long long)SPECTRUM_MAX_CELLS);
        return -1;
    }
    /* The field, its transform (about as large again) and the shells. */
    if (tbrf_io_budget_check(file, "the spectrum of /field", 24.0 * cells, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return -1;
    }
    if (tbrf_io_read_field(file, sp->n, &sp->field, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return -1;
    }
    if (sp->n[0] < 2 || sp->n[1] < 2) {
        cli_errline("%s: the grid is too thin for a spectrum", file);
        return -1;
    }
    return 0;
}

/* Measures the spectrum, evaluates the model on its shells and sets the
 * clean fit range. */
static int measure(spec *sp, const char *file)
{
    const tbrf_io_meta *m = &sp->meta;
    const double *spacing = m->spacing;
    if (tbrf_measure_spectrum(sp->field, sp->n, spacing, TBRF_WINDOW_HANN, &sp->s)) {
        cli_errline("%s: measuring the spectrum failed (memory or FFTW)", file);
        return -1;
    }
    sp->model_p = malloc((size_t)sp->s.nbins * sizeof *sp->model_p);
    if (!sp->model_p) {
        cli_errline("out of memory");
        return -1;
    }
    /* A one-plane 3D grid is measured as a 2D field, whose spectrum is the
     * 3D one projected: compare with the model in the measured dimension
     * only when they agree. */
    sp->mdim = sp->n[2] > 1 ? 3 : 2;
    for (int b = 0; b < sp->s.nbins; b++)
        sp->model_p[b] =
            sp->mdim == m->dim ? tbrf_model_spectrum(sp->model, m->dim, sp->s.k[b]) : NAN;
    double kf = 0;
    sp->knyq = INFINITY;
    for (int c = 0; c < sp->mdim; c++) {
        if (sp->n[c] < 2)
            continue;
        kf = fmax(kf, 2 * M_PI / ((double)sp->n[c] * spacing[c]));
        sp->knyq = fmin(sp->knyq, M_PI / spacing[c]);
    }
    double kmin = isnan(m->kmin) ? 0.0 : m->kmin, kmax = isnan(m->kmax) ? INFINITY : m->kmax;
    sp->klo = fmax(4 * kf, 1.25 * kmin);
    sp->khi = fmin(0.5 * sp->knyq, kmax / 1.25);
    return 0;
}

static void print_spectrum(const spec *sp, const char *file, const char *desc)
{
    const tbrf_spectrum *s = &sp->s;
    const double *model_p = sp->model_p;
    printf("# tbrf spectrum %s\n# model: %s\n", file, desc);
    printf("# shell-averaged P(k), Hann window, bins of dk = %.6g; cosmology convention\n", s->dk);
    printf("# %-12s %-13s %-13s %-9s %s\n", "k", "P_measured", "P_model", "ratio", "modes");
    for (int b = 0; b < s->nbins; b++)
        printf("  %-12.6g %-13.6g %-13.6g %-9.4g %.0f\n", s->k[b], s->p[b], model_p[b],
               model_p[b] > 0 ? s->p[b] / model_p[b] : NAN, s->modes[b]);
    double slope, serr, mslope;
    int used;
    if (!(sp->klo < sp->khi) ||
        tbrf_spectrum_fit(s, sp->klo, sp->khi, &slope, &serr, NULL, &used)) {
        printf("slope: not measured (fewer than 3 shells in %.4g <= k <= %.4g)\n", sp->klo,
               sp->khi);
        return;
    }
    tbrf_spectrum ms = *s;
    ms.p = sp->model_p;
    if (sp->mdim != sp->meta.dim || tbrf_spectrum_fit(&ms, sp->klo, sp->khi, &mslope, NULL, NULL, NULL))
        mslope = NAN;
    printf("slope: measured %.4f +- %.4f, model %.4f over %.4g <= k <= %.4g (%d shells)\n", slope,
           serr, mslope, sp->klo, sp->khi, used);
}

/* The picture (plot_spectrum.c): the shells up to the grid Nyquist, the
 * fit range, the slopes the table's last line prints. 0 or EXIT_FAIL. */
static int plot(const spec *sp, const char *file, const char *png)
{
    const tbrf_spectrum *s = &sp->s;
    plot_spectrum_in in = {file, sp->meta.model, NULL, sp->mdim, s->k, s->p, sp->model_p, 0,
                           sp->knyq, sp->klo, sp->khi, NAN, NAN, NAN};
    while (in.n < s->nbins && s->k[in.n] <= sp->knyq * (1 + 1e-12))
        in.n++;
    tbrf_spectrum ms = *s;
    ms.p = sp->model_p;
    if (!(sp->klo < sp->khi) ||
        tbrf_spectrum_fit(s, sp->klo, sp->khi, &in.slope, &in.slope_err, NULL, NULL))
        in.slope = NAN; /* no slope measured: none for the model either */
    else if (sp->mdim != sp->meta.dim ||
             tbrf_spectrum_fit(&ms, sp->klo, sp->khi, &in.model_slope, NULL, NULL, NULL))
        in.model_slope = NAN;
    char *unit = plot_file_unit(file), err[1024], esc[2048];
    in.unit = unit;
    int rc = plot_spectrum(png, &in, err, sizeof err);
    free(unit);
    if (rc) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    return 0;
}

int cmd_spectrum(int argc, char **argv)
{
    const char *file = NULL, *png = NULL;
    int quiet = 0;
    int rc = parse_spectrum(argc, argv, &file, &png, &quiet);
    if (rc)
        return rc == 1 ? 0 : rc;
    spec sp;
    memset(&sp, 0, sizeof sp);
    tbrf_io_meta_init(&sp.meta);
    rc = EXIT_FAIL;
    if (load(&sp, file) == 0 && measure(&sp, file) == 0) {
        rc = 0;
        /* The image first: if it cannot be written, nothing went to stdout. */
        if (png)
            rc = plot(&sp, file, png);
        if (png && rc == 0 && !quiet)
            plot_say_wrote(png);
        if (rc == 0)
            print_spectrum(&sp, file, sp.meta.model ? sp.meta.model : "");
    }
    spec_free(&sp);
    return rc;
}
