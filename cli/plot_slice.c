/* plot_slice.c — the picture of `tbrf preview`: one plane of a grid in
 * physical units (each cell drawn with its spacing, so the aspect is the
 * grid's), axes with ticks in the file's coordinates, the plane's
 * position in the title, the file and the model named, and a colour bar
 * with values and the quantity's name. The colours follow in's scale
 * (plot_scale: diverging red/blue symmetric about zero for signed data,
 * sequential viridis for positive data, or as asked, linear or log);
 * values beyond the range saturate, cells that are not finite are grey. */
#define _POSIX_C_SOURCE 200809L
#define PLOT_INTERNAL

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "io/tbrf_io.h"
#include "pick.h"
#include "plot.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The picture's layout in pixels. */
typedef struct slice_layout {
    int W, H;       /* the image */
    int px, py;     /* the plot area's top-left corner */
    int pw, ph;     /* its size: (extent x) : (extent y) as in space */
    int bx, by, bh; /* the colour bar's left, top and height (160 to 480) */
    double X0, X1, Y0, Y1; /* the plane's extent in the file's coordinates */
} slice_layout;

enum { TOP = 64, BOTTOM = 58, LEFT = 92, BAR_GAP = 22, BAR_W = 20, RIGHT = 96 };

/* Scale: the longer side about 560 px; the shorter at least 120 px
 * unless that would make the longer one over 1800 px. */
static void layout(const plot_slice_in *in, double title_w, slice_layout *L)
{
    L->X0 = in->x0 - 0.5 * in->dx;
    L->X1 = in->x0 + ((double)in->w - 0.5) * in->dx;
    L->Y0 = in->y0 - 0.5 * in->dy;
    L->Y1 = in->y0 + ((double)in->h - 0.5) * in->dy;
    double lx = L->X1 - L->X0, ly = L->Y1 - L->Y0;
    double big = fmax(lx, ly), small = fmin(lx, ly);
    double s = 560.0 / big;
    if (small * s < 120.0)
        s = fmin(120.0 / small, 1800.0 / big);
    L->pw = (int)lround(lx * s);
    L->ph = (int)lround(ly * s);
    if (L->pw < 1)
        L->pw = 1;
    if (L->ph < 1)
        L->ph = 1;
    L->bh = L->ph < 160 ? 160 : L->ph > 480 ? 480 : L->ph; /* a bar that reads */
    int body_h = L->ph > L->bh ? L->ph : L->bh;
    int body = LEFT + L->pw + BAR_GAP + BAR_W + RIGHT;
    L->W = body;
    if (L->W < title_w + 40)
        L->W = (int)ceil(title_w + 40);
    L->H = TOP + body_h + BOTTOM;
    L->px = (L->W - body) / 2 + LEFT;
    L->py = TOP + (body_h - L->ph) / 2;
    L->bx = L->px + L->pw + BAR_GAP;
    L->by = TOP + (body_h - L->bh) / 2;
}

/* Where value v falls on in's colour scale: 0 at vmin, 1 at vmax (a
 * value log cannot place, v <= 0, at the low end). */
static double scale_t(const plot_slice_in *in, double v)
{
    if (in->log)
        return v > 0 ? log(v / in->vmin) / log(in->vmax / in->vmin) : 0.0;
    return (v - in->vmin) / (in->vmax - in->vmin);
}

/* The plane as a w x h image, row h-1 at the top (the second axis up). */
static cairo_surface_t *plane_image(const plot_slice_in *in)
{
    cairo_surface_t *img =
        cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)in->w, (int)in->h);
    if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS)
        return img;
    unsigned char *data = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    for (int64_t j = 0; j < in->h; j++) {
        uint32_t *row = (uint32_t *)(data + (size_t)(in->h - 1 - j) * (size_t)stride);
        for (int64_t i = 0; i < in->w; i++) {
            double v = in->v[j * in->w + i], c[3] = {0.6, 0.6, 0.6};
            if (isfinite(v))
                plot_cmap(in->cmap, scale_t(in, v), c);
            row[i] = (uint32_t)lround(c[0] * 255) << 16 | (uint32_t)lround(c[1] * 255) << 8 |
                     (uint32_t)lround(c[2] * 255);
        }
    }
    cairo_surface_mark_dirty(img);
    return img;
}

/* The plane scaled into the plot area: sharp cells when magnified,
 * filtered when shrunk. */
static int draw_plane(cairo_t *cr, const plot_slice_in *in, const slice_layout *L)
{
    cairo_surface_t *img = plane_image(in);
    if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(img);
        return -1;
    }
    cairo_save(cr);
    cairo_rectangle(cr, L->px, L->py, L->pw, L->ph);
    cairo_clip(cr);
    cairo_translate(cr, L->px, L->py);
    cairo_scale(cr, (double)L->pw / (double)in->w, (double)L->ph / (double)in->h);
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_pattern_t *pat = cairo_get_source(cr);
    cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
    cairo_pattern_set_filter(pat, (L->pw >= in->w && L->ph >= in->h) ? CAIRO_FILTER_NEAREST
                                                                      : CAIRO_FILTER_GOOD);
    cairo_paint(cr);
    cairo_restore(cr);
    cairo_surface_destroy(img);
    return 0;
}

/* An axis name with its unit: "x" or "x [m]". */
static void axis_name(char *buf, size_t n, char name, const char *unit)
{
    if (unit)
        snprintf(buf, n, "%c [%s]", name, unit);
    else
        snprintf(buf, n, "%c", name);
}

/* Ticks and labels on the bottom (horizontal) or left axis. */
static void axis_ticks(cairo_t *cr, const slice_layout *L, int horizontal)
{
    double lo = horizontal ? L->X0 : L->Y0, hi = horizontal ? L->X1 : L->Y1;
    int len = horizontal ? L->pw : L->ph;
    double first, step;
    int dec;
    plot_ticks(lo, hi, len < 240 ? 3 : len > 640 ? 8 : len / 80, &first, &step, &dec);
    cairo_set_line_width(cr, 1);
    for (double t = first; t <= hi + 1e-9 * step; t += step) {
        double f = (t - lo) / (hi - lo);
        char lab[64];
        plot_tick_label(lab, sizeof lab, t, step, dec);
        if (horizontal) {
            double x = floor(L->px + f * L->pw) + 0.5, y = L->py + L->ph;
            cairo_move_to(cr, x, y);
            cairo_line_to(cr, x, y + 5);
            cairo_stroke(cr);
            plot_text(cr, x, y + 9, lab, 12, 0, 0.5, 0);
        } else {
            double y = floor(L->py + L->ph - f * L->ph) + 0.5;
            cairo_move_to(cr, L->px - 5, y);
            cairo_line_to(cr, L->px, y);
            cairo_stroke(cr);
            plot_text(cr, L->px - 8, y, lab, 12, 0, 1, 0.5);
        }
    }
}

/* Frame, ticks and the two axis names (the vertical one turned). */
static void draw_axes(cairo_t *cr, const plot_slice_in *in, const slice_layout *L)
{
    char name[80];
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, L->px - 0.5, L->py - 0.5, L->pw + 1, L->ph + 1);
    cairo_stroke(cr);
    axis_ticks(cr, L, 1);
    axis_ticks(cr, L, 0);
    axis_name(name, sizeof name, in->xname, in->unit);
    plot_text(cr, L->px + 0.5 * L->pw, L->py + L->ph + 30, name, 14, 0, 0.5, 0);
    axis_name(name, sizeof name, in->yname, in->unit);
    cairo_save(cr);
    cairo_translate(cr, L->px - 58, L->py + 0.5 * L->ph);
    cairo_rotate(cr, -M_PI / 2);
    plot_text(cr, 0, 0, name, 14, 0, 0.5, 0.5);
    cairo_restore(cr);
}

/* One tick of the bar at value t, labelled lab. */
static void bar_tick(cairo_t *cr, const slice_layout *L, const plot_slice_in *in, double t,
                     const char *lab)
{
    double y = floor(L->by + L->bh * (1.0 - scale_t(in, t))) + 0.5;
    cairo_move_to(cr, L->bx + BAR_W, y);
    cairo_line_to(cr, L->bx + BAR_W + 5, y);
    cairo_stroke(cr);
    plot_text(cr, L->bx + BAR_W + 8, y, lab, 12, 0, 0, 0.5);
}

/* Ticks of a log bar: the powers of ten inside the range, with 2 and 5
 * times them when fewer than three powers fit. */
static void bar_log_ticks(cairo_t *cr, const slice_layout *L, const plot_slice_in *in)
{
    int e0 = (int)floor(log10(in->vmin)), e1 = (int)ceil(log10(in->vmax));
    int decades = e1 - e0, step = decades > 8 ? (decades + 7) / 8 : 1;
    static const double M[3] = {1, 2, 5};
    int nm = log10(in->vmax / in->vmin) < 2.5 ? 3 : 1;
    for (int e = e0; e <= e1; e += step)
        for (int k = 0; k < nm; k++) {
            double t = M[k] * pow(10.0, e);
            if (t < in->vmin * (1 - 1e-9) || t > in->vmax * (1 + 1e-9))
                continue;
            char lab[64];
            snprintf(lab, sizeof lab, "%g", t);
            bar_tick(cr, L, in, t, lab);
        }
}

/* The colour bar: vmax at the top, vmin at the bottom, ticks at nice
 * values between, the quantity's label beside it. */
static void draw_bar(cairo_t *cr, const slice_layout *L, const plot_slice_in *in)
{
    cairo_pattern_t *g = cairo_pattern_create_linear(0, L->by + L->bh, 0, L->by);
    for (int s = 0; s <= 32; s++) { /* the maps are smooth at 32 steps */
        double c[3];
        plot_cmap(in->cmap, s / 32.0, c);
        cairo_pattern_add_color_stop_rgb(g, s / 32.0, c[0], c[1], c[2]);
    }
    cairo_rectangle(cr, L->bx, L->by, BAR_W, L->bh);
    cairo_set_source(cr, g);
    cairo_fill(cr);
    cairo_pattern_destroy(g);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, L->bx - 0.5, L->by - 0.5, BAR_W + 1, L->bh + 1);
    cairo_stroke(cr);
    if (in->log) {
        bar_log_ticks(cr, L, in);
    } else {
        double first, step;
        int dec;
        plot_ticks(in->vmin, in->vmax, 6, &first, &step, &dec);
        for (double t = first; t <= in->vmax + 1e-12 * (in->vmax - in->vmin); t += step) {
            char lab[64];
            plot_tick_label(lab, sizeof lab, t, step, dec);
            bar_tick(cr, L, in, t, lab);
        }
    }
    cairo_save(cr);
    cairo_translate(cr, L->bx + BAR_W + 66, L->by + 0.5 * L->bh);
    cairo_rotate(cr, -M_PI / 2);
    char lab[256];
    plot_ellipsize(cr, in->label ? in->label : "field value", 13, L->bh + 100, lab, sizeof lab);
    plot_text(cr, 0, 0, lab, 13, 0, 0.5, 0.5);
    cairo_restore(cr);
}

/* The title ("FILE: z = 2.5 (index 20)") and the model under it. */
static void title_text(const plot_slice_in *in, char *buf, size_t n)
{
    const char *base = strrchr(in->file, '/') ? strrchr(in->file, '/') + 1 : in->file;
    char file[600];
    snprintf(file, sizeof file, "%s%s%s%s", base, in->what ? " (" : "", in->what ? in->what : "",
             in->what ? ")" : "");
    if (in->dim == 2)
        snprintf(buf, n, "%s: the 2D grid (%lld \xc3\x97 %lld cells)", file, (long long)in->w,
                 (long long)in->h);
    else
        snprintf(buf, n, "%s: %c = %.6g%s%s (index %lld)", file, in->sname, in->coord,
                 in->unit ? " " : "", in->unit ? in->unit : "", (long long)in->index);
}

static void draw_titles(cairo_t *cr, const plot_slice_in *in, const slice_layout *L,
                        const char *title)
{
    cairo_set_source_rgb(cr, 0, 0, 0);
    plot_text(cr, L->W / 2.0, 14, title, 17, 1, 0.5, 0);
    if (in->model && in->model[0]) {
        char m[512], lab[600];
        snprintf(m, sizeof m, "model: %s", in->model);
        plot_ellipsize(cr, m, 12, L->W - 24, lab, sizeof lab);
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        plot_text(cr, L->W / 2.0, 38, lab, 12, 0, 0.5, 0);
        cairo_set_source_rgb(cr, 0, 0, 0);
    }
}

static int slice_picture(const char *path, const plot_slice_in *in, char *err, size_t errlen)
{
    if (in->w > 32767 || in->h > 32767) {
        snprintf(err, errlen, "preview: a %lld x %lld slice is too large for an image",
                 (long long)in->w, (long long)in->h);
        return -1;
    }
    char title[1200];
    title_text(in, title, sizeof title);
    cairo_surface_t *probe = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *pc = cairo_create(probe);
    double tw = plot_text_width(pc, title, 17, 1);
    cairo_destroy(pc);
    cairo_surface_destroy(probe);
    slice_layout L;
    layout(in, tw, &L);
    cairo_surface_t *s;
    cairo_t *cr;
    if (plot_begin(L.W, L.H, &s, &cr) || draw_plane(cr, in, &L)) {
        if (s)
            cairo_destroy(cr), cairo_surface_destroy(s);
        snprintf(err, errlen, "preview: out of memory");
        return -1;
    }
    draw_axes(cr, in, &L);
    draw_bar(cr, &L, in);
    draw_titles(cr, in, &L, title);
    cairo_destroy(cr);
    int rc = plot_write_png(s, path, err, errlen);
    cairo_surface_destroy(s);
    return rc;
}

int plot_slice(const char *path, const plot_slice_in *in, char *err, size_t errlen)
{
    if (plot_load(err, errlen))
        return -1;
    int rc = slice_picture(path, in, err, errlen);
    plot_release();
    return rc;
}

/* ------------------------------------------------ where the plane lies */

/* A grid written by another program through tbrf's writer (libtbrf_writer,
 * a simulation's snapshots): /field and no tbrf attributes at all (neither
 * model_kind nor geometry). Drawn on axes of cell indices (origin 0,
 * spacing 1); 1 if the file is such a grid (m filled), else 0. */
static int plain_grid(const char *file, tbrf_io_meta *m)
{
    char err[1024], probe[16];
    tbrf_io_file *f = tbrf_io_open(file, err, sizeof err);
    if (!f)
        return 0;
    const int tbrf_attrs = tbrf_io_attr_str(f, "model_kind", probe, sizeof probe) != 0 ||
                           tbrf_io_attr_str(f, "geometry", probe, sizeof probe) != 0 ||
                           tbrf_io_attr_str(f, "tbrf_geometry", probe, sizeof probe) != 0;
    tbrf_io_file_close(f);
    int64_t n[3];
    if (tbrf_attrs || tbrf_io_field_shape(file, n, err, sizeof err))
        return 0;
    tbrf_io_meta_init(m);
    m->is_grid = 1;
    m->dim = n[2] == 1 ? 2 : 3;
    for (int d = 0; d < 3; d++) {
        m->n[d] = n[d];
        m->origin[d] = 0.0;
        m->spacing[d] = 1.0;
    }
    return 1;
}

/* A `tbrf drive` series on a grid (a /time dataset; attributes dim,
 * grid_counts, grid_spacing, origin and model, doc/driving.md): 1 with m
 * filled (its model in model_buf), else 0. */
static int series_grid(const char *file, tbrf_io_meta *m, char *model_buf, size_t len)
{
    char err[1024];
    tbrf_io_layout L;
    if (tbrf_io_grid_layout(file, &L, err, sizeof err) || L.nt < 1)
        return 0;
    tbrf_io_file *f = tbrf_io_open(file, err, sizeof err);
    if (!f)
        return 0;
    tbrf_io_meta_init(m);
    m->is_grid = 1;
    m->dim = L.dim;
    for (int d = 0; d < 3; d++)
        m->n[d] = L.n[d], m->origin[d] = 0.0, m->spacing[d] = 1.0;
    /* Without the attributes (another writer): cell indices, as plain_grid. */
    if (tbrf_io_attr_f64(f, "grid_spacing", m->spacing, L.dim) != L.dim ||
        tbrf_io_attr_f64(f, "origin", m->origin, L.dim) != L.dim)
        for (int d = 0; d < 3; d++)
            m->origin[d] = 0.0, m->spacing[d] = 1.0;
    if (tbrf_io_attr_str(f, "model", model_buf, len) == 1)
        m->model = model_buf;
    tbrf_io_file_close(f);
    return 1;
}

int plot_slice_geometry(const char *file, int axis, int64_t *index, plot_slice_in *in)
{
    char err[1024], model_buf[512];
    tbrf_io_meta m;
    tbrf_io_meta_init(&m);
    if (tbrf_io_read_meta(file, &m, err, sizeof err) && !plain_grid(file, &m) &&
        !series_grid(file, &m, model_buf, sizeof model_buf)) {
        if (pick_points_series("preview", file))
            return EXIT_FAIL;
        cli_errline("%s", err);
        return EXIT_FAIL;
    }
    int rc = 0;
    if (!m.is_grid) {
        cli_errline("%s holds values at points; preview needs a grid", file);
        rc = EXIT_FAIL;
    } else if (m.dim == 2 && axis != 2) {
        cli_errline("preview: %s is a 2D grid (x, y): it has no %c axis to cut across; "
                    "use --axis z (the only plane, index 0)", file, 'x' + axis);
        rc = EXIT_USAGE;
    } else if (*index < 0) {
        *index = m.n[axis] / 2;
    }
    if (rc == 0 && *index >= m.n[axis]) {
        cli_errline("preview: --index %lld is outside the %lld planes across %c of %s",
                    (long long)*index, (long long)m.n[axis], 'x' + axis, file);
        rc = EXIT_USAGE;
    }
    if (rc == 0) {
        int a = axis == 0 ? 1 : 0, b = axis == 2 ? 1 : 2; /* the in-plane axes */
        in->file = file;
        in->model = m.model ? strdup(m.model) : NULL;
        in->unit = plot_file_unit(file);
        in->x0 = m.origin[a], in->dx = m.spacing[a], in->xname = (char)('x' + a);
        in->y0 = m.origin[b], in->dy = m.spacing[b], in->yname = (char)('x' + b);
        in->sname = (char)('x' + axis);
        in->coord = m.origin[axis] + m.spacing[axis] * (double)*index;
        in->index = *index;
        in->dim = m.dim;
    }
    tbrf_io_meta_free(&m);
    return rc;
}

void plot_slice_geometry_free(plot_slice_in *in)
{
    free((char *)in->model);
    free((char *)in->unit);
    in->model = in->unit = NULL;
}
