/* spectrum.c — `tbrf spectrum FILE [--plot spectrum.png]`.
 *
 * Measures the shell-averaged power spectrum of a grid file (FFTW, Hann
 * window; c/analysis/measure.h has the estimator and its bias) and compares it
 * with the model the file's attributes record, rebuilt through the
 * library so "the model" means exactly what generated the field, and
 * turned into what a shell holds (spectrum_model.h: an anisotropic
 * model's mean over the shell's directions, a lognormal file's density
 * spectrum). Prints a
 * table k, P measured, P model, ratio, modes, and the fitted log-log
 * slopes of both over the clean range (above 4 fundamentals, where the
 * window's bias is small; below half the grid Nyquist, where aliasing is
 * small; inside a power law's cut-offs). --plot draws both curves on
 * log-log axes into a PNG (plot_spectrum.c).
 *
 * A vector field is measured whole by default: the mean of its
 * components' spectra (each component has the model's spectrum) split
 * into solenoidal and compressive parts, whose share of the power is
 * compared with the one the recorded zeta gives, and the model's parts
 * beside them; --component measures one component. A particle file
 * (AREPO HDF5, Gadget) is deposited by cloud-in-cell and measured
 * against the linear spectrum it records (particles.c). A `tbrf drive` series is measured one frame at a time
 * (--frame or --time); its model (band, parabola, ...) is the driver's,
 * which this table does not rebuild, so only the measurement is shown.
 * A field periodic over the grid (a drive series, `generate --box` on
 * the box's lattice) is measured without a window, which keeps the
 * solenoidal and compressive parts exactly apart. */
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
#include "particles.h"
#include "pick.h"
#include "plot.h"
#include "request.h"
#include "spectrum_model.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The whole grid is read for the FFT; beyond this it would not fit. */
#define SPECTRUM_MAX_CELLS ((int64_t)1 << 28)

static void usage(void)
{
    printf("usage: tbrf spectrum FILE [--plot SPECTRUM.png] [--component x|y|z]\n"
           "                     [--frame N | --time T] [--grid G]\n"
           "                     [--shot-noise auto|poisson|none] [--quiet]\n"
           "\n"
           "Measures the shell-averaged power spectrum P(k) of the grid in FILE (HDF5 or\n"
           "netCDF-4 written by tbrf generate; Hann window, bins one fundamental wide) and\n"
           "prints it beside the file's own model (an anisotropic one averaged over each\n"
           "shell's directions, a lognormal file's density spectrum; a '# P_model:' line\n"
           "says which), with the\n"
           "log-log slopes of both fitted over max(4 k_f, 1.25 kmin) <= k <=\n"
           "min(k_Nyquist/2, kmax/1.25). --plot draws both on log-log axes as a PNG,\n"
           "with the fit range, the grid Nyquist and the slopes marked, and says on\n"
           "stderr 'wrote SPECTRUM.png: PNG WxH pixels' (not with --quiet).\n"
           "A vector file: the mean of the components' spectra with its solenoidal and\n"
           "compressive parts (columns P_sol, P_comp beside P_sol_model, P_comp_model;\n"
           "the plot draws the measured parts) and a\n"
           "line comparing the solenoidal share of the power with the one the recorded\n"
           "zeta gives; --component x|y|z measures one component instead. A `tbrf drive`\n"
           "series: one frame, --frame N or --time T (required), without a model.\n"
           "A field periodic over the grid is measured without a window.\n"
           "The grid is read whole, so it must fit in memory.\n"
           "A particle file (AREPO HDF5, Gadget format 1 or 2, a single file or a set:\n"
           "tbrf arepo cosmo / gas, or another code's): the density contrast of the mass\n"
           "deposited by cloud-in-cell on G^3 cells over the box, the CIC window divided\n"
           "out mode by mode, beside the linear P(k) the file records at its redshift\n"
           "(tbrf arepo cosmo's; a file that records none: the measurement alone, said\n"
           "in the header), and a line comparing them over k <= half the Nyquist\n"
           "frequencies of the grid and of the particles:\n"
           "  --grid G          cells a side (default twice the lattice's side, 16 .. 512)\n"
           "  --shot-noise auto|poisson|none  Poisson shot noise V sum m^2/(sum m)^2\n"
           "                    subtracted: auto, unless the file records a lattice or\n"
           "                    glass of tbrf's (which has none)\n");
}

/* FILE, --plot PNG and the part (pick.h); 0, 1 after --help, or EXIT_USAGE. */
static int parse_spectrum(int argc, char **argv, const char **file, const char **png,
                          int *quiet, pick_args *pa, const char **grid, const char **shot)
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
        } else if (strcmp(o, "--grid") == 0 || strcmp(o, "--shot-noise") == 0) {
            const char **dst = o[2] == 'g' ? grid : shot;
            if (i + 1 >= argc || *dst) {
                cli_errline("spectrum: %s %s", o, *dst ? "given twice" : "needs a value");
                return EXIT_USAGE;
            }
            *dst = argv[++i];
        } else if (pick_slot(pa, o)) {
            const char **dst = pick_slot(pa, o);
            if (i + 1 >= argc || *dst) {
                cli_errline("spectrum: %s %s", o, *dst ? "given twice" : "needs a value");
                return EXIT_USAGE;
            }
            *dst = argv[++i];
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
    tbrf_model *model;  /* sm's model; NULL for a series (no model rebuilt) */
    spec_model sm;      /* the model line (spectrum_model.h) */
    double *field, *model_p;
    double *sol_model, *comp_model; /* a whole vector's parts of the model */
    int64_t n[3];
    tbrf_spectrum s;
    tbrf_spectrum sol, comp; /* a whole vector's parts (nbins 0 otherwise) */
    pick pk;            /* the part of the file measured */
    int window;         /* TBRF_WINDOW_HANN, or NONE for a field periodic over the grid */
    double zeta;        /* the recorded zeta (NaN: none) */
    char model_desc[512]; /* a series' recorded model */
    int mdim;           /* the dimension measured */
    double klo, khi, knyq; /* fit range; grid Nyquist */
} spec;

static void spec_free(spec *sp)
{
    tbrf_spectrum_free(&sp->s);
    tbrf_spectrum_free(&sp->sol);
    tbrf_spectrum_free(&sp->comp);
    spec_model_free(&sp->sm);
    tbrf_io_meta_free(&sp->meta);
    free(sp->field);
    free(sp->model_p);
    free(sp->sol_model);
    free(sp->comp_model);
}

/* A `tbrf drive` series' geometry and zeta from its attributes
 * (doc/driving.md); its model is recorded by name only. 0 or -1. */
static int series_meta(spec *sp, const char *file)
{
    char err[1024], esc[2048];
    tbrf_io_file *f = tbrf_io_open(file, err, sizeof err);
    if (!f) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return -1;
    }
    tbrf_io_meta *m = &sp->meta;
    int dim = sp->pk.L.dim, ok = 1;
    double box[3];
    m->is_grid = 1, m->dim = dim;
    for (int d = 0; d < 3; d++)
        m->n[d] = sp->pk.L.n[d], m->spacing[d] = 1.0;
    ok = tbrf_io_attr_f64(f, "grid_spacing", m->spacing, dim) == dim;
    if (tbrf_io_attr_f64(f, "zeta", &sp->zeta, 1) != 1)
        sp->zeta = NAN;
    /* Periodic over the grid: the box is the grid's extent. */
    m->box = tbrf_io_attr_f64(f, "box_length", box, dim) == dim;
    for (int d = 0; m->box && d < dim; d++)
        m->box_length[d] = box[d];
    if (tbrf_io_attr_str(f, "model", sp->model_desc, sizeof sp->model_desc) != 1)
        sp->model_desc[0] = '\0';
    tbrf_io_file_close(f);
    if (!ok) {
        cli_errline("%s: the series records no grid_spacing", file);
        return -1;
    }
    return 0;
}

/* The solenoidal share of the power zeta gives (doc/cli.md, --vector) to
 * nc components (3 also on a 2D grid: doc/driving.md, "Geometry"). */
static double zeta_fraction(double z, int nc)
{
    return nc == 3 ? 2 * z * z / (1 - 2 * z + 3 * z * z) : z * z / (z * z + (1 - z) * (1 - z));
}

/* A generated file's parameters and model. 0 or -1. */
static int field_meta(spec *sp, const char *file)
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
    sp->zeta = m->zeta;
    if (m->vector_kind && isnan(sp->zeta))
        sp->zeta = strcmp(m->vector_kind, "solenoidal") == 0    ? 1.0
                   : strcmp(m->vector_kind, "compressive") == 0 ? 0.0
                                                                : NAN;
    /* the shells reach the smallest Nyquist; the correlations the grid's diagonal */
    double kmax = 0, d2 = 0;
    for (int c = 0; c < m->dim; c++) {
        const double e = m->box ? m->box_length[c] : (double)m->n[c] * m->spacing[c];
        kmax = fmax(kmax, 1.01 * M_PI / m->spacing[c]);
        d2 += e * e;
    }
    if (spec_model_make(&sp->sm, m, file, kmax, sqrt(d2)))
        return -1;
    sp->model = sp->sm.model;
    return 0;
}

/* Reads the file's parameters and grid, rebuilds its model. */
static int load(spec *sp, const char *file, const pick_args *pa)
{
    char err[1024], esc[2048];
    tbrf_io_meta *m = &sp->meta;
    /* A points file has no grid to pick from: say so first. */
    int points = tbrf_io_read_meta(file, m, err, sizeof err) == 0 && !m->is_grid;
    tbrf_io_meta_free(m);
    if (points) {
        cli_errline("%s holds values at points; the spectrum needs a grid", file);
        return -1;
    }
    if (pick_points_series("spectrum", file))
        return -1;
    int rc = pick_resolve("spectrum", file, pa, 1, 0, &sp->pk);
    if (rc)
        return rc;
    if (sp->pk.L.nt > 0 ? series_meta(sp, file) : field_meta(sp, file))
        return -1;
    /* The attributes may lie: the dataset's own shape must agree with
     * them, and fit the budgets, before a byte of it is read. */
    const int64_t *shape = sp->pk.L.n;
    if (shape[0] != m->n[0] || shape[1] != m->n[1] || shape[2] != m->n[2]) {
        cli_errline("%s: %s is %lldx%lldx%lld but the attribute grid_counts says "
                    "%lldx%lldx%lld", file, tbrf_io_field_object(file, &sp->pk.L), (long long)shape[0], (long long)shape[1],
                    (long long)shape[2], (long long)m->n[0], (long long)m->n[1],
                    (long long)m->n[2]);
        return -1;
    }
    int per = sp->pk.comp == TBRF_IO_ALL_COMPONENTS ? sp->pk.L.ncomp : 1;
    double cells = (double)shape[0] * (double)shape[1] * (double)shape[2];
    if (cells * per > (double)SPECTRUM_MAX_CELLS) {
        cli_errline("%s: %.3g cells are too many to read into memory for a spectrum (at most %lld)",
                    file, cells * per, (long long)SPECTRUM_MAX_CELLS);
        return -1;
    }
    /* The field, its transform (about as large again) and the shells. */
    char what[96];
    snprintf(what, sizeof what, "the spectrum of %s", tbrf_io_field_object(file, &sp->pk.L));
    if (tbrf_io_budget_check(file, what, 24.0 * cells * per, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return -1;
    }
    if (tbrf_io_read_grid_part(file, &sp->pk.L, sp->pk.frame, -1, 0, sp->pk.comp, &sp->field,
                               err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return -1;
    }
    for (int d = 0; d < 3; d++)
        sp->n[d] = shape[d];
    if (sp->n[0] < 2 || sp->n[1] < 2) {
        cli_errline("%s: the grid is too thin for a spectrum", file);
        return -1;
    }
    /* A field periodic over exactly the grid needs no window. */
    int periodic = m->box;
    for (int d = 0; periodic && d < m->dim; d++)
        periodic = fabs((double)sp->n[d] * m->spacing[d] - m->box_length[d]) <=
                   1e-9 * m->box_length[d];
    sp->window = periodic ? TBRF_WINDOW_NONE : TBRF_WINDOW_HANN;
    return 0;
}

/* One component of an anisotropic vector field: its share of a
 * direction's power depends on the direction (1 - n_i^2 of a solenoidal
 * one), so the shell's mean is not the model's; not computed here. */
static int anis_component(const spec *sp)
{
    return sp->sm.anis && sp->pk.L.ncomp > 1 && sp->pk.comp != TBRF_IO_ALL_COMPONENTS;
}

/* The model of every shell (spectrum_model.h) where the measurement is in
 * the file's dimension, and a whole vector's parts: the solenoidal share
 * zeta gives of it, the same in every direction. */
static void model_line(spec *sp)
{
    const int ok = sp->model && sp->mdim == sp->meta.dim && !anis_component(sp);
    const double f = isfinite(sp->zeta) ? zeta_fraction(sp->zeta, sp->pk.L.ncomp) : NAN;
    for (int b = 0; b < sp->s.nbins; b++) {
        const double p = ok ? spec_model_shell(&sp->sm, sp->meta.dim, sp->s.k[b]) : NAN;
        sp->model_p[b] = p;
        sp->sol_model[b] = f * p;
        sp->comp_model[b] = (1.0 - f) * p;
    }
}

/* Measures the spectrum, evaluates the model on its shells and sets the
 * clean fit range. */
static int measure(spec *sp, const char *file)
{
    const tbrf_io_meta *m = &sp->meta;
    const double *spacing = m->spacing;
    int failed = sp->pk.comp == TBRF_IO_ALL_COMPONENTS
                     ? tbrf_measure_helmholtz(sp->field, sp->pk.L.ncomp, sp->n, spacing,
                                              sp->window, &sp->s, &sp->sol, &sp->comp)
                     : tbrf_measure_spectrum(sp->field, sp->n, spacing, sp->window, &sp->s);
    if (failed) {
        cli_errline("%s: measuring the spectrum failed (memory or FFTW)", file);
        return -1;
    }
    size_t nb = (size_t)sp->s.nbins;
    sp->model_p = malloc(nb * sizeof *sp->model_p);
    sp->sol_model = malloc(nb * sizeof *sp->sol_model);
    sp->comp_model = malloc(nb * sizeof *sp->comp_model);
    if (!sp->model_p || !sp->sol_model || !sp->comp_model) {
        cli_errline("out of memory");
        return -1;
    }
    /* A one-plane 3D grid is measured as a 2D field, whose spectrum is the
     * 3D one projected: compare with the model in the measured dimension
     * only when they agree. */
    sp->mdim = sp->n[2] > 1 ? 3 : 2;
    model_line(sp);
    double kf = 0;
    sp->knyq = INFINITY;
    for (int c = 0; c < sp->mdim; c++) {
        if (sp->n[c] < 2)
            continue;
        kf = fmax(kf, 2 * M_PI / ((double)sp->n[c] * spacing[c]));
        sp->knyq = fmin(sp->knyq, M_PI / spacing[c]);
    }
    const double *p = m->param;
    double kmin = isnan(p[TBRF_IO_P_KMIN]) ? 0.0 : p[TBRF_IO_P_KMIN],
           kmax = isnan(p[TBRF_IO_P_KMAX]) ? INFINITY : p[TBRF_IO_P_KMAX];
    sp->klo = fmax(4 * kf, 1.25 * kmin);
    sp->khi = fmin(0.5 * sp->knyq, kmax / 1.25);
    if (!sp->model) /* a series: its band is not known here, so no range to fit */
        sp->klo = sp->khi = NAN;
    return 0;
}

/* The solenoidal share of a whole vector's power over the shells from
 * *klo (4 fundamentals with a window, whose gradient mixes the parts
 * below; all without) to the Nyquist: 0 with *f set, or -1 (no power). */
static int sol_fraction(const spec *sp, double *f, double *klo)
{
    const tbrf_spectrum *s = &sp->s;
    *klo = sp->window == TBRF_WINDOW_NONE ? 0.0 : 4 * s->dk;
    double ps = 0, pt = 0;
    for (int b = 0; b < s->nbins; b++)
        if (s->k[b] >= *klo && s->k[b] <= sp->knyq * (1 + 1e-12))
            ps += s->modes[b] * sp->sol.p[b], pt += s->modes[b] * s->p[b];
    *f = pt > 0 ? ps / pt : NAN;
    return pt > 0 ? 0 : -1;
}

/* The shells' quadrature over directions, said when there was one. */
static const char *qerr_text(const spec *sp, char *t, size_t tn)
{
    t[0] = '\0';
    if (sp->sm.anis)
        snprintf(t, tn, "; Gauss-Legendre over directions, relative error below %.1g",
                 fmax(sp->sm.qerr, 1e-16));
    return t;
}

/* The table's header lines. */
static void print_header(const spec *sp, const char *file, const char *desc, int parts)
{
    char qt[96];
    printf("# tbrf spectrum %s%s%s%s\n", file, sp->pk.what[0] ? " (" : "", sp->pk.what,
           sp->pk.what[0] ? ")" : "");
    if (sp->model) {
        printf("# model: %s\n", desc);
        if (anis_component(sp))
            printf("# P_model: nan (one component of an anisotropic vector field: its share of "
                   "each direction's power is not the shell's mean)\n");
        else if (sp->mdim != sp->meta.dim)
            printf("# P_model: nan (a %dD file measured as a %dD field)\n", sp->meta.dim, sp->mdim);
        else
            printf("# P_model: %s%s\n", sp->sm.label, qerr_text(sp, qt, sizeof qt));
    } else
        printf("# model: %s (a series: the driver's model is not rebuilt here, P_model is nan)\n",
               desc);
    printf("# shell-averaged P(k)%s, %s, bins of dk = %.6g; cosmology convention\n",
           parts ? " per component (the mean of the components' spectra)" : "",
           sp->window == TBRF_WINDOW_NONE ? "no window (periodic over the grid)" : "Hann window",
           sp->s.dk);
    if (parts)
        printf("# %-12s %-13s %-13s %-9s %-13s %-13s %-13s %-13s %s\n", "k", "P_measured",
               "P_model", "ratio", "P_sol", "P_sol_model", "P_comp", "P_comp_model", "modes");
    else
        printf("# %-12s %-13s %-13s %-9s %s\n", "k", "P_measured", "P_model", "ratio", "modes");
}

/* The solenoidal share against the recorded zeta's. */
static void print_parts(const spec *sp)
{
    double f, klo;
    if (sol_fraction(sp, &f, &klo)) {
        printf("solenoidal fraction: not measured (no power)\n");
        return;
    }
    printf("solenoidal fraction: measured %.4f over %.4g <= k <= %.4g", f, klo, sp->knyq);
    if (isfinite(sp->zeta))
        printf(", zeta = %.4g gives %.4f (%s)\n", sp->zeta, zeta_fraction(sp->zeta, sp->pk.L.ncomp),
               sp->pk.L.ncomp == 3 ? "2 zeta^2 / (1 - 2 zeta + 3 zeta^2)"
                             : "zeta^2 / (zeta^2 + (1 - zeta)^2)");
    else
        printf(" (the file records no zeta)\n");
}

static void print_spectrum(const spec *sp, const char *file, const char *desc)
{
    const tbrf_spectrum *s = &sp->s;
    const double *model_p = sp->model_p;
    int parts = sp->sol.nbins > 0;
    print_header(sp, file, desc, parts);
    for (int b = 0; b < s->nbins; b++) {
        printf("  %-12.6g %-13.6g %-13.6g %-9.4g ", s->k[b], s->p[b], model_p[b],
               model_p[b] > 0 ? s->p[b] / model_p[b] : NAN);
        if (parts)
            printf("%-13.6g %-13.6g %-13.6g %-13.6g ", sp->sol.p[b], sp->sol_model[b],
                   sp->comp.p[b], sp->comp_model[b]);
        printf("%.0f\n", s->modes[b]);
    }
    if (parts)
        print_parts(sp);
    double slope, serr, mslope;
    int used;
    if (!sp->model) {
        printf("slope: not fitted (a series: its model is not rebuilt here)\n");
        return;
    }
    if (!(sp->klo < sp->khi) ||
        tbrf_spectrum_fit(s, sp->klo, sp->khi, &slope, &serr, NULL, &used)) {
        printf("slope: not measured (fewer than 3 shells in %.4g <= k <= %.4g)\n", sp->klo,
               sp->khi);
        return;
    }
    tbrf_spectrum ms = *s;
    ms.p = sp->model_p;
    if (!sp->model || sp->mdim != sp->meta.dim ||
        tbrf_spectrum_fit(&ms, sp->klo, sp->khi, &mslope, NULL, NULL, NULL))
        mslope = NAN;
    printf("slope: measured %.4f +- %.4f, model %.4f over %.4g <= k <= %.4g (%d shells)\n", slope,
           serr, mslope, sp->klo, sp->khi, used);
}

/* The picture (plot_spectrum.c): the shells up to the grid Nyquist, the
 * fit range, the slopes the table's last line prints. 0 or EXIT_FAIL. */
static int plot(const spec *sp, const char *file, const char *png)
{
    const tbrf_spectrum *s = &sp->s;
    plot_spectrum_in in = {.file = file,
                           .model = sp->model ? sp->meta.model : sp->model_desc,
                           .dim = sp->mdim,
                           .k = s->k,
                           .p = s->p,
                           .model_p = sp->model_p,
                           .knyq = sp->knyq,
                           .klo = sp->klo,
                           .khi = sp->khi,
                           .slope = NAN,
                           .slope_err = NAN,
                           .model_slope = NAN,
                           .what = sp->pk.what[0] ? sp->pk.what : NULL,
                           .sol_frac = NAN,
                           .sol_expected = NAN};
    double klo;
    if (sp->sol.nbins > 0 && sol_fraction(sp, &in.sol_frac, &klo) == 0) {
        in.sol_p = sp->sol.p, in.comp_p = sp->comp.p;
        if (isfinite(sp->zeta))
            in.sol_expected = zeta_fraction(sp->zeta, sp->mdim);
    }
    while (in.n < s->nbins && s->k[in.n] <= sp->knyq * (1 + 1e-12))
        in.n++;
    tbrf_spectrum ms = *s;
    ms.p = sp->model_p;
    if (!(sp->klo < sp->khi) ||
        tbrf_spectrum_fit(s, sp->klo, sp->khi, &in.slope, &in.slope_err, NULL, NULL))
        in.slope = NAN; /* no slope measured: none for the model either */
    else if (!sp->model || sp->mdim != sp->meta.dim ||
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

/* A particle file (particles.h): its options checked, then measured. */
static int spectrum_particles(const char *file, io_psnap *ps, const char *png, int quiet,
                              const pick_args *pa, const char *grid_s, const char *shot_s)
{
    static const char *const SHOTS[] = {"auto", "poisson", "none"};
    char err[1024], esc[2048];
    int64_t grid = 0;
    int shot = PARTICLES_SHOT_AUTO, rc = 0;
    if (pa->component || pa->frame || pa->time) {
        cli_errline("spectrum: %s is a particle file: --component, --frame and --time are for "
                    "grids", file);
        rc = EXIT_USAGE;
    } else if (grid_s && args_int64("--grid", grid_s, 2, 1024, &grid, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        rc = EXIT_USAGE;
    } else if (shot_s && (shot = args_choice("--shot-noise", shot_s, SHOTS, 3)) < 0)
        rc = EXIT_USAGE;
    if (rc == 0)
        rc = particles_spectrum(file, ps, grid, shot, png, quiet);
    io_psnap_free(ps);
    return rc;
}

int cmd_spectrum(int argc, char **argv)
{
    const char *file = NULL, *png = NULL;
    int quiet = 0;
    pick_args pa = {NULL, NULL, NULL};
    const char *grid_s = NULL, *shot_s = NULL;
    int rc = parse_spectrum(argc, argv, &file, &png, &quiet, &pa, &grid_s, &shot_s);
    if (rc)
        return rc == 1 ? 0 : rc;
    io_psnap ps;
    int particles = cli_particles_open("spectrum", file, &ps);
    if (particles < 0)
        return EXIT_FAIL;
    if (particles)
        return spectrum_particles(file, &ps, png, quiet, &pa, grid_s, shot_s);
    if (grid_s || shot_s) {
        cli_errline("spectrum: --grid and --shot-noise are for particle files; %s is none",
                    file);
        return EXIT_USAGE;
    }
    spec sp;
    memset(&sp, 0, sizeof sp);
    tbrf_io_meta_init(&sp.meta);
    rc = load(&sp, file, &pa);
    if (rc < 0)
        rc = EXIT_FAIL;
    if (rc == 0 && measure(&sp, file) != 0)
        rc = EXIT_FAIL;
    if (rc == 0) {
        rc = 0;
        /* The image first: if it cannot be written, nothing went to stdout. */
        if (png)
            rc = plot(&sp, file, png);
        if (png && rc == 0 && !quiet)
            plot_say_wrote(png);
        if (rc == 0)
            print_spectrum(&sp, file, sp.model ? (sp.meta.model ? sp.meta.model : "")
                                               : sp.model_desc);
    }
    spec_free(&sp);
    return rc;
}
