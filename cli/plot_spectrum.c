/* plot_spectrum.c — the picture of `tbrf spectrum --plot`: the measured
 * shell-averaged P(k) (blue, with a marker per shell) under the model
 * (red, dashed, on a white edge so that it shows where the two agree,
 * which is where it matters), a vector's solenoidal (orange) and
 * compressive (purple) parts, on log-log axes whose decades are all labelled alike (10^n, and
 * m×10^n at 2 and 5 when fewer than two decades show), the fit range
 * shaded, the grid's Nyquist wavenumber marked, the fitted slopes in the
 * legend and the file and model in the title. */
#define _POSIX_C_SOURCE 200809L
#define PLOT_INTERNAL

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Colours, also looked for by tests/io/io_check.c. */
static const double C_MEAS[3] = {31 / 255.0, 119 / 255.0, 180 / 255.0};
static const double C_MODEL[3] = {214 / 255.0, 39 / 255.0, 40 / 255.0};
static const double C_NYQ[3] = {44 / 255.0, 160 / 255.0, 44 / 255.0};
static const double C_FIT[3] = {255 / 255.0, 236 / 255.0, 179 / 255.0};
static const double C_SOL[3] = {255 / 255.0, 127 / 255.0, 14 / 255.0};
static const double C_COMP[3] = {148 / 255.0, 103 / 255.0, 189 / 255.0};

enum { W = 860, H = 620 };

/* Log-log axes: (log10 k, log10 P) to pixels. */
typedef struct axes {
    double x0, y0, x1, y1; /* the plot area, y0 at the top */
    double lk0, lk1, lp0, lp1;
} axes;

static double ax_x(const axes *a, double k)
{
    return a->x0 + (log10(k) - a->lk0) / (a->lk1 - a->lk0) * (a->x1 - a->x0);
}

static double ax_y(const axes *a, double p)
{
    return a->y1 - (log10(p) - a->lp0) / (a->lp1 - a->lp0) * (a->y1 - a->y0);
}

static void rgb(cairo_t *cr, const double c[3])
{
    cairo_set_source_rgb(cr, c[0], c[1], c[2]);
}

/* The data's range, padded; at least one decade of P. 0 or -1 (nothing). */
static int ranges(const plot_spectrum_in *in, axes *a)
{
    double kmin = INFINITY, kmax = in->knyq, pmin = INFINITY, pmax = -INFINITY;
    for (int b = 0; b < in->n; b++) {
        if (!(in->k[b] > 0))
            continue;
        kmin = fmin(kmin, in->k[b]);
        kmax = fmax(kmax, in->k[b]);
        const double v[2] = {in->p[b], in->model_p[b]};
        for (int i = 0; i < 2; i++)
            if (v[i] > 0 && isfinite(v[i]))
                pmin = fmin(pmin, v[i]), pmax = fmax(pmax, v[i]);
    }
    if (!(pmax > 0) || !(kmax > kmin) || !isfinite(kmax))
        return -1;
    /* Shells beyond a band's edge hold rounding noise (1e-30 of the peak
     * and less), which would spread the axis over tens of decades: the
     * axis stops ten decades below the peak, their points off it. */
    pmin = fmax(pmin, 1e-10 * pmax);
    double lk = log10(kmax / kmin), lp = log10(pmax / pmin);
    a->lk0 = log10(kmin) - 0.04 * lk;
    a->lk1 = log10(kmax) + 0.08 * lk; /* the Nyquist mark off the frame */
    if (lp < 1.0)
        pmin /= pow(10.0, 0.5 * (1.0 - lp)), pmax *= pow(10.0, 0.5 * (1.0 - lp)), lp = 1.0;
    a->lp0 = log10(pmin) - 0.05 * lp;
    a->lp1 = log10(pmax) + 0.05 * lp;
    return 0;
}

/* Grid lines, ticks and labels of one log axis (horizontal: k). */
static void log_axis(cairo_t *cr, const axes *a, int horizontal)
{
    double l0 = horizontal ? a->lk0 : a->lp0, l1 = horizontal ? a->lk1 : a->lp1;
    int decades = (int)floor(l1) - (int)ceil(l0) + 1; /* labelled decades */
    int every = decades > 8 ? (decades + 7) / 8 : 1;  /* at most about 8 labels */
    for (int e = (int)floor(l0); e <= (int)ceil(l1); e++)
        for (int m = 1; m <= 9; m++) {
            double v = m * pow(10.0, e), l = log10(v);
            if (l < l0 || l > l1)
                continue;
            int label = (m == 1 && e % every == 0) || (decades < 2 && (m == 2 || m == 5));
            double pos = horizontal ? floor(ax_x(a, v)) + 0.5 : floor(ax_y(a, v)) + 0.5;
            cairo_set_line_width(cr, 1);
            cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
            if (m == 1) { /* a grid line at each decade */
                if (horizontal)
                    cairo_move_to(cr, pos, a->y0), cairo_line_to(cr, pos, a->y1);
                else
                    cairo_move_to(cr, a->x0, pos), cairo_line_to(cr, a->x1, pos);
                cairo_stroke(cr);
            }
            cairo_set_source_rgb(cr, 0, 0, 0);
            double len = m == 1 ? 7 : 4;
            if (horizontal)
                cairo_move_to(cr, pos, a->y1), cairo_line_to(cr, pos, a->y1 - len);
            else
                cairo_move_to(cr, a->x0, pos), cairo_line_to(cr, a->x0 + len, pos);
            cairo_stroke(cr);
            if (!label)
                continue;
            if (horizontal)
                plot_pow10(cr, pos, a->y1 + 8, m, e, 13, 0.5, 0);
            else
                plot_pow10(cr, a->x0 - 8, pos, m, e, 13, 1, 0.5);
        }
}

/* The fit range shaded and the Nyquist wavenumber marked, under the curves. */
static void marks(cairo_t *cr, const axes *a, const plot_spectrum_in *in)
{
    double lo = fmax(in->klo, pow(10.0, a->lk0)), hi = fmin(in->khi, pow(10.0, a->lk1));
    if (in->klo < in->khi && lo < hi) { /* (fmax and fmin pass a NaN range by) */
        rgb(cr, C_FIT);
        cairo_rectangle(cr, ax_x(a, lo), a->y0, ax_x(a, hi) - ax_x(a, lo), a->y1 - a->y0);
        cairo_fill(cr);
    }
    if (isfinite(in->knyq) && in->knyq > 0) {
        double x = floor(ax_x(a, in->knyq)) + 0.5, dash[2] = {7, 4};
        rgb(cr, C_NYQ);
        cairo_set_line_width(cr, 2);
        cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, x, a->y0);
        cairo_line_to(cr, x, a->y1);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        char lab[64];
        snprintf(lab, sizeof lab, "Nyquist  k = %.4g", in->knyq);
        cairo_save(cr);
        cairo_translate(cr, x - 6, a->y0 + 8);
        cairo_rotate(cr, -M_PI / 2);
        plot_text(cr, 0, 0, lab, 12, 0, 1, 1);
        cairo_restore(cr);
    }
}

/* One curve; markers at the shells when `dots`. */
static void curve(cairo_t *cr, const axes *a, const plot_spectrum_in *in, const double *y,
                  const double c[3], double width, int dots)
{
    rgb(cr, c);
    cairo_set_line_width(cr, width);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    int have = 0;
    for (int b = 0; b < in->n; b++) {
        if (!(y[b] > 0 && isfinite(y[b]) && in->k[b] > 0)) {
            have = 0;
            continue;
        }
        double x = ax_x(a, in->k[b]), yy = ax_y(a, y[b]);
        if (have)
            cairo_line_to(cr, x, yy);
        else
            cairo_new_path(cr), cairo_move_to(cr, x, yy);
        have = 1;
    }
    cairo_stroke(cr);
    for (int b = 0; dots && b < in->n; b++)
        if (in->p[b] > 0 && isfinite(y[b]) && in->k[b] > 0) {
            cairo_arc(cr, ax_x(a, in->k[b]), ax_y(a, y[b]), 3.2, 0, 2 * M_PI);
            cairo_fill(cr);
        }
}

/* The model: dashed over a white edge, drawn over the measurement. */
static void model_curve(cairo_t *cr, const axes *a, const plot_spectrum_in *in)
{
    static const double white[3] = {1, 1, 1}, dash[2] = {9, 5};
    curve(cr, a, in, in->model_p, white, 4.4, 0);
    cairo_set_dash(cr, dash, 2, 0);
    curve(cr, a, in, in->model_p, C_MODEL, 2.2, 0);
    cairo_set_dash(cr, NULL, 0, 0);
}

/* Points of the curves inside a box. */
static int covered(const axes *a, const plot_spectrum_in *in, double bx, double by, double bw,
                   double bh)
{
    int n = 0;
    for (int b = 0; b < in->n; b++)
        for (int c = 0; c < 2; c++) {
            double y = c ? in->model_p[b] : in->p[b];
            if (!(y > 0 && isfinite(y) && in->k[b] > 0))
                continue;
            double x = ax_x(a, in->k[b]), yy = ax_y(a, y);
            n += x > bx - 8 && x < bx + bw + 8 && yy > by - 8 && yy < by + bh + 8;
        }
    return n;
}

/* The legend's corner: top right (left of the Nyquist mark) or bottom
 * left, whichever hides fewer points. */
static void legend_place(const axes *a, const plot_spectrum_in *in, double bw, double bh,
                         double *bx, double *by)
{
    double right = a->x1 - 10;
    if (isfinite(in->knyq) && ax_x(a, in->knyq) < a->x1)
        right = fmin(right, ax_x(a, in->knyq) - 26);
    double tx = right - bw, ty = a->y0 + 10, lx = a->x0 + 10, ly = a->y1 - 10 - bh;
    if (covered(a, in, lx, ly, bw, bh) < covered(a, in, tx, ty, bw, bh))
        *bx = lx, *by = ly;
    else
        *bx = tx, *by = ty;
}

/* A slope as "−3.083" (a real minus sign, as on the axes). */
static void signed_num(char *buf, size_t n, double v, int decimals)
{
    snprintf(buf, n, "%s%.*f", v < 0 ? "\xe2\x88\x92" : "", decimals, fabs(v));
}

/* One legend row: its text, colour and sample (0 line with a marker,
 * 1 dashed line, 2 a filled box, 3 a plain line). */
typedef struct legend_row {
    char text[160];
    const double *c;
    int style;
} legend_row;

/* The rows: the measurement, the model, the vector's parts, the fit
 * range and the Nyquist mark, as they apply. Returns the count. */
static int legend_rows(const plot_spectrum_in *in, legend_row r[6])
{
    char a1[32], a2[32];
    int n = 0;
    signed_num(a1, sizeof a1, in->slope, 3);
    signed_num(a2, sizeof a2, in->model_slope, 3);
    r[n] = (legend_row){"measured", C_MEAS, 0};
    if (isfinite(in->slope))
        snprintf(r[n].text, sizeof r[n].text, "measured (slope %s \xc2\xb1 %.3f)", a1,
                 in->slope_err);
    n++;
    int model = 0;
    for (int b = 0; b < in->n; b++)
        model |= in->model_p[b] > 0 && isfinite(in->model_p[b]);
    r[n] = (legend_row){"model", C_MODEL, 1};
    if (isfinite(in->model_slope))
        snprintf(r[n].text, sizeof r[n].text, "model (slope %s)", a2);
    n += model;
    if (in->sol_p && in->comp_p) {
        r[n] = (legend_row){"", C_SOL, 3};
        snprintf(r[n].text, sizeof r[n].text, "solenoidal part (%.1f%% of the power%s", 100 * in->sol_frac,
                 isfinite(in->sol_expected) ? "" : ")");
        if (isfinite(in->sol_expected))
            snprintf(r[n].text + strlen(r[n].text), sizeof r[n].text - strlen(r[n].text),
                     "; \xce\xb6 gives %.1f%%)", 100 * in->sol_expected);
        n++;
        r[n++] = (legend_row){"compressive part", C_COMP, 3};
    }
    if (in->klo < in->khi) {
        r[n] = (legend_row){"", C_FIT, 2};
        snprintf(r[n++].text, sizeof r[0].text, "fit range %.3g \xe2\x89\xa4 k \xe2\x89\xa4 %.3g",
                 in->klo, in->khi);
    }
    r[n++] = (legend_row){"grid Nyquist", C_NYQ, 1};
    return n;
}

/* The legend, in a corner of the plot. */
static void legend(cairo_t *cr, const axes *a, const plot_spectrum_in *in)
{
    legend_row r[6];
    int rows = legend_rows(in, r);
    double tw = 0;
    for (int i = 0; i < rows; i++)
        tw = fmax(tw, plot_text_width(cr, r[i].text, 13, 0));
    double bw = 48 + tw + 12, bh = rows * 22 + 10, bx, by;
    legend_place(a, in, bw, bh, &bx, &by);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.92);
    cairo_rectangle(cr, bx, by, bw, bh);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    for (int i = 0; i < rows; i++) {
        double y = by + 16 + 22 * i, dash[2] = {7, 4};
        rgb(cr, r[i].c);
        if (r[i].style == 2) {
            cairo_rectangle(cr, bx + 8, y - 7, 32, 14);
            cairo_fill(cr);
        } else {
            cairo_set_line_width(cr, 2);
            cairo_set_dash(cr, dash, r[i].style == 1 ? 2 : 0, 0);
            cairo_move_to(cr, bx + 8, y), cairo_line_to(cr, bx + 40, y);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
            if (r[i].style == 0)
                cairo_arc(cr, bx + 24, y, 3.2, 0, 2 * M_PI), cairo_fill(cr);
        }
        cairo_set_source_rgb(cr, 0, 0, 0);
        plot_text(cr, bx + 48, y, r[i].text, 13, 0, 0, 0.5);
    }
}

/* Title, model line and the axis names. */
static void labels(cairo_t *cr, const axes *a, const plot_spectrum_in *in)
{
    const char *base = strrchr(in->file, '/') ? strrchr(in->file, '/') + 1 : in->file;
    char buf[600], m[512];
    snprintf(buf, sizeof buf, "Power spectrum of %s%s%s%s", base, in->what ? " (" : "",
             in->what ? in->what : "", in->what ? ")" : "");
    cairo_set_source_rgb(cr, 0, 0, 0);
    plot_text(cr, W / 2.0, 14, buf, 17, 1, 0.5, 0);
    if (in->model && in->model[0]) {
        snprintf(m, sizeof m, "model: %s", in->model);
        plot_ellipsize(cr, m, 12, W - 24, buf, sizeof buf);
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        plot_text(cr, W / 2.0, 38, buf, 12, 0, 0.5, 0);
        cairo_set_source_rgb(cr, 0, 0, 0);
    }
    if (in->unit)
        snprintf(buf, sizeof buf, "k [1/%s]", in->unit);
    else
        snprintf(buf, sizeof buf, "k");
    plot_text(cr, 0.5 * (a->x0 + a->x1), a->y1 + 36, buf, 15, 0, 0.5, 0);
    if (in->unit)
        snprintf(buf, sizeof buf, "P(k) [%s%s]", in->unit, in->dim == 2 ? "\xc2\xb2" : "\xc2\xb3");
    else
        snprintf(buf, sizeof buf, "P(k)");
    cairo_save(cr);
    cairo_translate(cr, a->x0 - 66, 0.5 * (a->y0 + a->y1));
    cairo_rotate(cr, -M_PI / 2);
    plot_text(cr, 0, 0, buf, 15, 0, 0.5, 0.5);
    cairo_restore(cr);
}

static int picture(const char *path, const plot_spectrum_in *in, char *err, size_t errlen)
{
    axes a = {96, 64, W - 24, H - 66, 0, 0, 0, 0};
    if (ranges(in, &a)) {
        snprintf(err, errlen, "nothing to plot (no positive power)");
        return -1;
    }
    cairo_surface_t *s;
    cairo_t *cr;
    if (plot_begin(W, H, &s, &cr)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    cairo_save(cr);
    cairo_rectangle(cr, a.x0, a.y0, a.x1 - a.x0, a.y1 - a.y0);
    cairo_clip(cr);
    marks(cr, &a, in);
    cairo_restore(cr);
    log_axis(cr, &a, 1);
    log_axis(cr, &a, 0);
    cairo_save(cr);
    cairo_rectangle(cr, a.x0, a.y0, a.x1 - a.x0, a.y1 - a.y0);
    cairo_clip(cr);
    if (in->sol_p && in->comp_p) {
        curve(cr, &a, in, in->sol_p, C_SOL, 1.4, 0);
        curve(cr, &a, in, in->comp_p, C_COMP, 1.4, 0);
    }
    curve(cr, &a, in, in->p, C_MEAS, 1.5, 1);
    model_curve(cr, &a, in);
    cairo_restore(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, a.x0 - 0.5, a.y0 - 0.5, a.x1 - a.x0 + 1, a.y1 - a.y0 + 1);
    cairo_stroke(cr);
    legend(cr, &a, in);
    labels(cr, &a, in);
    cairo_destroy(cr);
    int rc = plot_write_png(s, path, err, errlen);
    cairo_surface_destroy(s);
    return rc;
}

int plot_spectrum(const char *path, const plot_spectrum_in *in, char *err, size_t errlen)
{
    if (plot_load(err, errlen))
        return -1;
    int rc = picture(path, in, err, errlen);
    plot_release();
    return rc;
}
