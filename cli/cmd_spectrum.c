/* spectrum.c — `tbrf spectrum FILE [--plot spectrum.png]`.
 *
 * Measures the shell-averaged power spectrum of a grid file (FFTW, Hann
 * window; cli/measure.h has the estimator and its bias) and compares it
 * with the model the file's attributes record, rebuilt through the
 * library so "the model" means exactly what generated the field. Prints a
 * table k, P measured, P model, ratio, modes, and the fitted log-log
 * slopes of both over the clean range (above 4 fundamentals, where the
 * window's bias is small; below half the grid Nyquist, where aliasing is
 * small; inside a power law's cut-offs). --plot draws both curves on
 * log-log axes, by hand, into a PNG. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "args.h"
#include "cli.h"
#include "analysis/measure.h"
#include "tbrf.h"
#include "io/tbrf_io.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The whole grid is read for the FFT; beyond this it would not fit. */
#define SPECTRUM_MAX_CELLS ((int64_t)1 << 28)

static void usage(void)
{
    printf("usage: tbrf spectrum FILE [--plot SPECTRUM.png]\n"
           "\n"
           "Measures the shell-averaged power spectrum P(k) of the grid in FILE (HDF5 or\n"
           "netCDF-4 written by tbrf generate; Hann window, bins one fundamental wide) and\n"
           "prints it beside the model recorded in the file's attributes, with the\n"
           "log-log slopes of both fitted over max(4 k_f, 1.25 kmin) <= k <=\n"
           "min(k_Nyquist/2, kmax/1.25). --plot draws both on log-log axes as a PNG.\n"
           "The grid is read whole, so it must fit in memory.\n");
}

/* The model of the file, rebuilt from its attributes with the amplitude
 * the plan used. NULL (message printed) on failure. */
static tbrf_model *file_model(tbrf_io_file *f, const char *file, int *dim)
{
    char kind[64];
    int64_t d = 0;
    double amp, index, kmin, kmax, length, nu;
    if (tbrf_io_attr_str(f, "model_kind", kind, sizeof kind) != 1 ||
        tbrf_io_attr_i64(f, "dim", &d, 1) != 1 || tbrf_io_attr_f64(f, "amplitude_used", &amp, 1) != 1) {
        cli_errline("%s was not written by tbrf generate (no model_kind/dim/amplitude_used)", file);
        return NULL;
    }
    *dim = (int)d;
    tbrf_model *m = NULL;
    int st = -1;
    int have_i = tbrf_io_attr_f64(f, "model_index", &index, 1) == 1;
    int have_kmin = tbrf_io_attr_f64(f, "model_kmin", &kmin, 1) == 1;
    int have_kmax = tbrf_io_attr_f64(f, "model_kmax", &kmax, 1) == 1;
    int have_l = tbrf_io_attr_f64(f, "model_length", &length, 1) == 1;
    int have_nu = tbrf_io_attr_f64(f, "model_nu", &nu, 1) == 1;
    if (strcmp(kind, "powerlaw") == 0 && have_i && have_kmax)
        st = tbrf_model_powerlaw(index, have_kmin ? kmin : 0.0, kmax, &m);
    else if (strcmp(kind, "gaussian") == 0 && have_l)
        st = tbrf_model_gaussian(length, &m);
    else if (strcmp(kind, "exponential") == 0 && have_l)
        st = tbrf_model_exponential(length, &m);
    else if (strcmp(kind, "matern") == 0 && have_l && have_nu)
        st = tbrf_model_matern(length, nu, &m);
    else if (strcmp(kind, "vonkarman") == 0 && have_l)
        st = tbrf_model_vonkarman(length, &m);
    else if (strcmp(kind, "table") == 0) {
        size_t n;
        double *k, *p;
        if (tbrf_io_read_table(f, &n, &k, &p) == 0) {
            st = tbrf_model_table(n, k, p, &m);
            free(k);
            free(p);
        }
    }
    if (st != TBRF_OK) {
        cli_errline("%s: cannot rebuild model '%s' from the attributes%s%s", file, kind,
                    m ? ": " : "", m ? tbrf_model_message(m) : "");
        tbrf_model_destroy(m);
        return NULL;
    }
    tbrf_model_set_amplitude(m, amp);
    return m;
}

/* Log-log axes: data (lk, lp) = (log10 k, log10 P) to pixels. */
typedef struct axes {
    int x0, y0, x1, y1; /* plot area, y0 at the top */
    double lk0, lk1, lp0, lp1;
} axes;

static double ax_x(const axes *a, double lk)
{
    return a->x0 + (lk - a->lk0) / (a->lk1 - a->lk0) * (a->x1 - a->x0);
}

static double ax_y(const axes *a, double lp)
{
    return a->y1 - (lp - a->lp0) / (a->lp1 - a->lp0) * (a->y1 - a->y0);
}

static void decade_label(char *buf, size_t n, int e)
{
    if (e >= -2 && e <= 3)
        snprintf(buf, n, "%g", pow(10.0, e));
    else
        snprintf(buf, n, "1e%d", e);
}

static int plot(const char *path, const tbrf_spectrum *s, const double *model, int lo, int hi,
                char *err, size_t errlen)
{
    const int W = 800, H = 600, ts = 2;
    rgb white = {255, 255, 255}, black = {0, 0, 0}, grey = {225, 225, 225};
    rgb cmeas = {31, 119, 180}, cmod = {214, 39, 40};
    canvas c;
    if (canvas_init(&c, W, H, white)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    axes a = {110, 44, W - 30, H - 80, 0, 0, 0, 0};
    double kmin = INFINITY, kmax = -INFINITY, pmin = INFINITY, pmax = -INFINITY;
    for (int b = lo; b < hi; b++) {
        kmin = fmin(kmin, s->k[b]);
        kmax = fmax(kmax, s->k[b]);
        if (s->p[b] > 0) {
            pmin = fmin(pmin, s->p[b]);
            pmax = fmax(pmax, s->p[b]);
        }
        if (model[b] > 0) {
            pmin = fmin(pmin, model[b]);
            pmax = fmax(pmax, model[b]);
        }
    }
    if (!(pmax > 0) || !(kmax > kmin)) {
        canvas_free(&c);
        snprintf(err, errlen, "nothing to plot (no positive power)");
        return -1;
    }
    a.lk0 = floor(log10(kmin) * 10) / 10 - 0.05;
    a.lk1 = ceil(log10(kmax) * 10) / 10 + 0.05;
    a.lp0 = floor(log10(pmin)) - 0.1;
    a.lp1 = ceil(log10(pmax)) + 0.1;
    /* Decade grid lines, minor ticks at 2..9, labels at decades. */
    for (int e = (int)floor(a.lk0); e <= (int)ceil(a.lk1); e++)
        for (int m = 1; m <= 9; m++) {
            double lk = e + log10((double)m);
            if (lk < a.lk0 || lk > a.lk1)
                continue;
            int x = (int)lround(ax_x(&a, lk));
            if (m == 1) {
                canvas_line(&c, x, a.y0, x, a.y1, 1, grey);
                char lab[16];
                decade_label(lab, sizeof lab, e);
                canvas_text(&c, x - canvas_text_width(lab, ts) / 2, a.y1 + 12, lab, ts, black);
            }
            canvas_line(&c, x, a.y1, x, a.y1 - (m == 1 ? 10 : 5), 1, black);
        }
    for (int e = (int)floor(a.lp0); e <= (int)ceil(a.lp1); e++)
        for (int m = 1; m <= 9; m++) {
            double lp = e + log10((double)m);
            if (lp < a.lp0 || lp > a.lp1)
                continue;
            int y = (int)lround(ax_y(&a, lp));
            if (m == 1) {
                canvas_line(&c, a.x0, y, a.x1, y, 1, grey);
                char lab[16];
                decade_label(lab, sizeof lab, e);
                canvas_text(&c, a.x0 - 12 - canvas_text_width(lab, ts), y - 7, lab, ts, black);
            }
            canvas_line(&c, a.x0, y, a.x0 + (m == 1 ? 10 : 5), y, 1, black);
        }
    canvas_line(&c, a.x0, a.y0, a.x0, a.y1, 2, black);
    canvas_line(&c, a.x0, a.y1, a.x1, a.y1, 2, black);
    canvas_line(&c, a.x1, a.y0, a.x1, a.y1, 1, black);
    canvas_line(&c, a.x0, a.y0, a.x1, a.y0, 1, black);
    canvas_text(&c, (a.x0 + a.x1) / 2, H - 36, "k", 3, black);
    canvas_text(&c, 10, 8, "P(k)", 3, black);
    /* The two curves: the model first, the measurement over it. */
    for (int pass = 0; pass < 2; pass++) {
        const double *y = pass ? s->p : model;
        rgb col = pass ? cmeas : cmod;
        int have = 0;
        double px = 0, py = 0;
        for (int b = lo; b < hi; b++) {
            if (!(y[b] > 0)) {
                have = 0;
                continue;
            }
            double x = ax_x(&a, log10(s->k[b])), yy = ax_y(&a, log10(y[b]));
            if (have)
                canvas_line(&c, px, py, x, yy, 2, col);
            if (pass)
                canvas_rect(&c, (int)x - 2, (int)yy - 2, (int)x + 2, (int)yy + 2, col);
            px = x, py = yy, have = 1;
        }
    }
    /* Legend, top right. */
    int lx = a.x1 - 200, ly = a.y0 + 16;
    canvas_rect(&c, lx - 10, ly - 8, a.x1 - 10, ly + 48, white);
    canvas_line(&c, lx, ly + 7, lx + 40, ly + 7, 2, cmeas);
    canvas_rect(&c, lx + 18, ly + 5, lx + 22, ly + 9, cmeas);
    canvas_text(&c, lx + 50, ly, "measured", ts, black);
    canvas_line(&c, lx, ly + 33, lx + 40, ly + 33, 2, cmod);
    canvas_text(&c, lx + 50, ly + 26, "model", ts, black);
    int rc = canvas_write_png(&c, path, err, errlen);
    canvas_free(&c);
    return rc;
}

int cmd_spectrum(int argc, char **argv)
{
    const char *file = NULL, *png = NULL;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            usage();
            return 0;
        }
        if (strcmp(o, "--plot") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0]) {
                cli_errline("spectrum: --plot needs a file name");
                return EXIT_USAGE;
            }
            if (png) {
                cli_errline("spectrum: --plot given twice");
                return EXIT_USAGE;
            }
            png = argv[++i];
        } else if (args_file("spectrum", o, &file)) {
            return EXIT_USAGE;
        }
    }
    if (!file) {
        cli_errline("spectrum: usage: tbrf spectrum FILE [--plot SPECTRUM.png]");
        return EXIT_USAGE;
    }
    char err[1024], geometry[16] = "", desc[512] = "";
    tbrf_io_file *f = tbrf_io_open(file, err, sizeof err);
    if (!f) {
        cli_errline("%s", err);
        return EXIT_FAIL;
    }
    int dim = 0, rc = EXIT_FAIL;
    double spacing[3] = {1, 1, 1}, kmin = 0, kmax = INFINITY;
    int64_t counts[3] = {1, 1, 1};
    double *field = NULL, *model_p = NULL;
    tbrf_spectrum s = {0};
    tbrf_model *m = NULL;
    if (tbrf_io_attr_str(f, "geometry", geometry, sizeof geometry) == 1 && strcmp(geometry, "grid") != 0) {
        cli_errline("%s holds values at points; the spectrum needs a grid", file);
        goto done;
    }
    m = file_model(f, file, &dim);
    if (!m)
        goto done;
    tbrf_io_attr_str(f, "model", desc, sizeof desc);
    if (tbrf_io_attr_f64(f, "grid_spacing", spacing, 3) != dim ||
        tbrf_io_attr_i64(f, "grid_counts", counts, 3) != dim) {
        cli_errline("%s: no grid_spacing/grid_counts attributes", file);
        goto done;
    }
    tbrf_io_attr_f64(f, "model_kmin", &kmin, 1);
    tbrf_io_attr_f64(f, "model_kmax", &kmax, 1);
    double cells = (double)counts[0] * (double)counts[1] * (double)counts[2];
    if (cells > (double)SPECTRUM_MAX_CELLS) {
        cli_errline("%s: %.3g cells are too many to read into memory for a spectrum (at most %lld)",
                    file, cells, (long long)SPECTRUM_MAX_CELLS);
        goto done;
    }
    int64_t n[3];
    if (tbrf_io_read_field(file, n, &field, err, sizeof err)) {
        cli_errline("%s", err);
        goto done;
    }
    if (n[0] < 2 || n[1] < 2) {
        cli_errline("%s: the grid is too thin for a spectrum", file);
        goto done;
    }
    if (tbrf_measure_spectrum(field, n, spacing, TBRF_WINDOW_HANN, &s)) {
        cli_errline("%s: measuring the spectrum failed (memory or FFTW)", file);
        goto done;
    }
    model_p = malloc((size_t)s.nbins * sizeof *model_p);
    if (!model_p) {
        cli_errline("out of memory");
        goto done;
    }
    /* A one-plane 3D grid is measured as a 2D field, whose spectrum is the
     * 3D one projected: compare with the model in the measured dimension
     * only when they agree. */
    int mdim = n[2] > 1 ? 3 : 2;
    for (int b = 0; b < s.nbins; b++)
        model_p[b] = mdim == dim ? tbrf_model_spectrum(m, dim, s.k[b]) : NAN;
    double kf = 0, knyq = INFINITY;
    for (int c = 0; c < mdim; c++) {
        if (n[c] < 2)
            continue;
        kf = fmax(kf, 2 * M_PI / ((double)n[c] * spacing[c]));
        knyq = fmin(knyq, M_PI / spacing[c]);
    }
    double klo = fmax(4 * kf, 1.25 * kmin), khi = fmin(0.5 * knyq, kmax / 1.25);

    /* The image first: if it cannot be written, nothing went to stdout. */
    if (png) {
        /* Plot the shells with power, up to the grid Nyquist. */
        int hi = 0;
        while (hi < s.nbins && s.k[hi] <= knyq)
            hi++;
        if (plot(png, &s, model_p, 0, hi, err, sizeof err)) {
            cli_errline("%s", err);
            goto done;
        }
    }
    printf("# tbrf spectrum %s\n# model: %s\n", file, desc);
    printf("# shell-averaged P(k), Hann window, bins of dk = %.6g; cosmology convention\n", s.dk);
    printf("# %-12s %-13s %-13s %-9s %s\n", "k", "P_measured", "P_model", "ratio", "modes");
    for (int b = 0; b < s.nbins; b++)
        printf("  %-12.6g %-13.6g %-13.6g %-9.4g %.0f\n", s.k[b], s.p[b], model_p[b],
               model_p[b] > 0 ? s.p[b] / model_p[b] : NAN, s.modes[b]);
    double slope, serr, mslope;
    int used;
    if (!(klo < khi) || tbrf_spectrum_fit(&s, klo, khi, &slope, &serr, NULL, &used)) {
        printf("slope: not measured (fewer than 3 shells in %.4g <= k <= %.4g)\n", klo, khi);
    } else {
        tbrf_spectrum ms = s;
        ms.p = model_p;
        if (mdim != dim || tbrf_spectrum_fit(&ms, klo, khi, &mslope, NULL, NULL, NULL))
            mslope = NAN;
        printf("slope: measured %.4f +- %.4f, model %.4f over %.4g <= k <= %.4g (%d shells)\n",
               slope, serr, mslope, klo, khi, used);
    }
    rc = 0;
done:
    tbrf_spectrum_free(&s);
    tbrf_model_destroy(m);
    tbrf_io_file_close(f);
    free(field);
    free(model_p);
    return rc;
}
