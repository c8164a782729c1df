/* preview.c — `tbrf preview FILE --axis z --index K --out slice.png`.
 *
 * Draws one plane of a grid file (HDF5 or netCDF-4) with a diverging
 * colour map symmetric about zero: red positive, blue negative, white
 * zero, saturating at +-max|value| of the plane, so the sign and the
 * relative amplitude read off at a glance and two slices of one field
 * compare fairly only when their scales (printed on the bar) agree. Only
 * the plane is read, so files larger than memory preview fine. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "canvas.h"
#include "cli.h"
#include "io/tbrf_io.h"

static void usage(void)
{
    printf("usage: tbrf preview FILE --out SLICE.png [--axis x|y|z] [--index K]\n"
           "\n"
           "Draws the plane K (default: the middle one) across the given axis (default z)\n"
           "of the grid in FILE as a PNG: red positive, blue negative, white zero, on a\n"
           "scale symmetric about zero (+-max|value| of the plane), with a colour bar.\n"
           "The first in-plane axis runs to the right, the second upwards.\n");
}

/* The command line: FILE, --out, --axis, --index (-1: the middle). */
typedef struct preview_args {
    const char *file, *out;
    int axis;
    int64_t index;
} preview_args;

/* The value options' slot, or NULL. */
static const char **value_slot(const char *o, const char **out, const char **axis_s,
                               const char **index_s)
{
    return strcmp(o, "--out") == 0     ? out
           : strcmp(o, "--axis") == 0  ? axis_s
           : strcmp(o, "--index") == 0 ? index_s
                                       : NULL;
}

/* Checks the axis and index words into *a. */
static int axis_index(const char *axis_s, const char *index_s, preview_args *a)
{
    a->axis = 2;
    if (axis_s) {
        if (strlen(axis_s) != 1 || !strchr("xyz", axis_s[0])) {
            cli_errline("--axis: '%.40s' is not x, y or z", axis_s);
            return EXIT_USAGE;
        }
        a->axis = axis_s[0] - 'x';
    }
    char err[1024], esc[2048];
    a->index = -1;
    if (index_s && args_int64("--index", index_s, 0, INT64_MAX, &a->index, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_USAGE;
    }
    return 0;
}

/* 0, 1 after --help, or EXIT_USAGE after one message. */
static int parse_preview(int argc, char **argv, preview_args *a)
{
    const char *out = NULL, *axis_s = NULL, *index_s = NULL;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            usage();
            return 1;
        }
        const char **dst = value_slot(o, &out, &axis_s, &index_s);
        if (dst) {
            if (i + 1 >= argc) {
                cli_errline("preview: %s needs a value", o);
                return EXIT_USAGE;
            }
            if (*dst) {
                cli_errline("preview: %s given twice", o);
                return EXIT_USAGE;
            }
            *dst = argv[++i];
        } else if (args_file("preview", o, &a->file)) {
            return EXIT_USAGE;
        }
    }
    if (!a->file || !out || !out[0]) {
        cli_errline("preview: usage: tbrf preview FILE --out SLICE.png [--axis z] [--index K]");
        return EXIT_USAGE;
    }
    a->out = out;
    return axis_index(axis_s, index_s, a);
}

/* The middle plane by default: needs the size first, from the dataset
 * (the attributes may disagree with it). */
static int middle_plane(preview_args *a)
{
    char err[1024], esc[2048];
    int64_t n[3];
    if (tbrf_io_field_shape(a->file, n, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    a->index = n[a->axis] / 2;
    return 0;
}

/* The colour bar right of the image: +vmax at the top, 0 in the middle,
 * -vmax at the bottom. */
static void colour_bar(canvas *c, int bx, int y0, int bh, int barw, const char *top,
                       const char *bot, int ts)
{
    rgb black = {0, 0, 0};
    for (int y = 0; y < bh; y++) {
        rgb col = diverging(1.0 - 2.0 * (y + 0.5) / bh);
        canvas_rect(c, bx, y0 + y, bx + barw - 1, y0 + y, col);
    }
    canvas_line(c, bx, y0, bx + barw - 1, y0, 1, black);
    canvas_line(c, bx, y0 + bh - 1, bx + barw - 1, y0 + bh - 1, 1, black);
    canvas_line(c, bx, y0, bx, y0 + bh - 1, 1, black);
    canvas_line(c, bx + barw - 1, y0, bx + barw - 1, y0 + bh - 1, 1, black);
    canvas_line(c, bx + barw, y0 + bh / 2, bx + barw + 4, y0 + bh / 2, 1, black);
    canvas_text(c, bx + barw + 8, y0, top, ts, black);
    canvas_text(c, bx + barw + 8, y0 + bh / 2 - 7 * ts / 2, "0", ts, black);
    canvas_text(c, bx + barw + 8, y0 + bh - 7 * ts, bot, ts, black);
}

/* The magnification of a w x h plane: integer, so that small grids are
 * visible, the larger side at most ~800 px. */
static int plane_scale(int64_t w, int64_t h)
{
    int64_t big = w > h ? w : h;
    int scale = big >= 400 ? 1 : (int)(800 / big);
    return scale < 1 ? 1 : scale;
}

/* The largest image side drawn, pixels. */
#define PREVIEW_MAX_SIDE 16000

/* Draws the w x h plane v and its colour bar, writes the PNG. */
static int draw(const preview_args *a, const double *v, int64_t w, int64_t h)
{
    double vmax = 0.0;
    for (int64_t i = 0; i < w * h; i++)
        if (isfinite(v[i]) && fabs(v[i]) > vmax)
            vmax = fabs(v[i]);
    if (!(vmax > 0))
        vmax = 1.0; /* an all-zero plane: white, and a bar that still reads */

    int scale = plane_scale(w, h);
    if (w * scale > PREVIEW_MAX_SIDE || h * scale > PREVIEW_MAX_SIDE) {
        cli_errline("preview: a %lld x %lld slice is too large for an image", (long long)w,
                    (long long)h);
        return EXIT_FAIL;
    }
    const int margin = 16, barw = 24, gap = 16, ts = 2;
    char top[32], bot[32];
    snprintf(top, sizeof top, "+%.3g", vmax);
    snprintf(bot, sizeof bot, "-%.3g", vmax);
    int labw = canvas_text_width(top, ts) > canvas_text_width(bot, ts) ? canvas_text_width(top, ts)
                                                                        : canvas_text_width(bot, ts);
    int iw = (int)(w * scale), ih = (int)(h * scale);
    int cw = margin + iw + gap + barw + 8 + labw + margin;
    int chh = margin + 7 * ts + 8 + (ih > 160 ? ih : 160) + margin;
    rgb white = {255, 255, 255}, black = {0, 0, 0};
    canvas c;
    if (canvas_init(&c, cw, chh, white)) {
        cli_errline("preview: out of memory");
        return EXIT_FAIL;
    }
    char title[64], err[1024], esc[2048];
    snprintf(title, sizeof title, "%c = %lld", 'x' + a->axis, (long long)a->index);
    canvas_text(&c, margin, margin, title, ts, black);
    int y0 = margin + 7 * ts + 8;
    /* Row 0 of the slice at the bottom: the second axis points up. */
    for (int64_t j = 0; j < h; j++)
        for (int64_t i = 0; i < w; i++) {
            rgb col = diverging(v[j * w + i] / vmax);
            int px = margin + (int)(i * scale), py = y0 + ih - (int)((j + 1) * scale);
            canvas_rect(&c, px, py, px + scale - 1, py + scale - 1, col);
        }
    colour_bar(&c, margin + iw + gap, y0, ih > 160 ? ih : 160, barw, top, bot, ts);
    int rc = canvas_write_png(&c, a->out, err, sizeof err);
    canvas_free(&c);
    if (rc) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    return 0;
}

int cmd_preview(int argc, char **argv)
{
    preview_args a = {NULL, NULL, 2, -1};
    int rc = parse_preview(argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (a.index < 0 && (rc = middle_plane(&a)) != 0)
        return rc;
    int64_t w, h;
    double *v = NULL;
    char err[1024], esc[2048];
    /* The plane's size from the dataset itself, refused before it is read
     * when it is too large to draw. */
    int64_t n[3];
    if (tbrf_io_field_shape(a.file, n, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    w = a.axis == 0 ? n[1] : n[0];
    h = a.axis == 2 ? n[1] : n[2];
    if (w > PREVIEW_MAX_SIDE || h > PREVIEW_MAX_SIDE) {
        cli_errline("preview: a %lld x %lld slice is too large for an image (at most %d pixels "
                    "a side)", (long long)w, (long long)h, PREVIEW_MAX_SIDE);
        return EXIT_FAIL;
    }
    if (tbrf_io_read_slice(a.file, a.axis, a.index, &w, &h, &v, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    rc = draw(&a, v, w, h);
    free(v);
    return rc;
}
