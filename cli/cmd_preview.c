/* preview.c — `tbrf preview FILE --axis z --index K --out slice.png`.
 *
 * Draws one plane of a grid file (HDF5 or netCDF-4) with a diverging
 * colour map symmetric about zero: red positive, blue negative, white
 * zero, saturating at +-max|value| of the plane, so the sign and the
 * relative amplitude read off at a glance and two slices of one field
 * compare fairly only when their scales (printed on the bar) agree. Only
 * the plane is read, so files larger than memory preview fine. The
 * picture (physical aspect, axes, title, bar) is drawn by plot_slice.c. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "io/tbrf_io.h"
#include "plot.h"

static void usage(void)
{
    printf("usage: tbrf preview FILE --out SLICE.png [--axis x|y|z] [--index K]\n"
           "                    [--quiet]\n"
           "\n"
           "Draws the plane K (default: the middle one) across the given axis (default z)\n"
           "of the grid in FILE as a PNG: red positive, blue negative, white zero, on a\n"
           "scale symmetric about zero (+-max|value| of the plane), with a colour bar.\n"
           "Cells are drawn with their spacing, on axes in the file's coordinates; the\n"
           "first in-plane axis runs to the right, the second upwards (a grid written by\n"
           "another program through libtbrf_writer, without tbrf's attributes: cell\n"
           "indices). A 2D file has\n"
           "only the plane --axis z --index 0. stderr gets one line 'wrote SLICE.png:\n"
           "PNG WxH pixels' unless --quiet.\n");
}

/* The command line: FILE, --out, --axis, --index (-1: the middle). */
typedef struct preview_args {
    const char *file, *out;
    int axis;
    int64_t index;
    int quiet;
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
        if (strcmp(o, "--quiet") == 0) {
            a->quiet = 1;
        } else if (dst) {
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

/* The largest plane side read and drawn: a plane is checked against it
 * before a byte of it is read. */
#define PREVIEW_MAX_SIDE 16000

/* Draws the w x h plane v where *in places it (plot_slice.c), writes the PNG. */
static int draw(const preview_args *a, plot_slice_in *in, const double *v, int64_t w, int64_t h)
{
    in->v = v, in->w = w, in->h = h;
    char err[1024], esc[2048];
    if (plot_slice(a->out, in, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    if (!a->quiet)
        plot_say_wrote(a->out);
    return 0;
}

int cmd_preview(int argc, char **argv)
{
    preview_args a = {NULL, NULL, 2, -1, 0};
    int rc = parse_preview(argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (a.index < 0 && (rc = middle_plane(&a)) != 0)
        return rc;
    /* Where the plane lies, and whether the file has it at all. */
    plot_slice_in in;
    memset(&in, 0, sizeof in);
    if ((rc = plot_slice_geometry(a.file, a.axis, &a.index, &in)) != 0)
        return rc;
    int64_t w, h;
    double *v = NULL;
    char err[1024], esc[2048];
    /* The plane's size from the dataset itself, refused before it is read
     * when it is too large to draw. */
    int64_t n[3];
    if (tbrf_io_field_shape(a.file, n, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        plot_slice_geometry_free(&in);
        return EXIT_FAIL;
    }
    w = a.axis == 0 ? n[1] : n[0];
    h = a.axis == 2 ? n[1] : n[2];
    if (w > PREVIEW_MAX_SIDE || h > PREVIEW_MAX_SIDE) {
        cli_errline("preview: a %lld x %lld slice is too large for an image (at most %d pixels "
                    "a side)", (long long)w, (long long)h, PREVIEW_MAX_SIDE);
        plot_slice_geometry_free(&in);
        return EXIT_FAIL;
    }
    if (tbrf_io_read_slice(a.file, a.axis, a.index, &w, &h, &v, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        plot_slice_geometry_free(&in);
        return EXIT_FAIL;
    }
    rc = draw(&a, &in, v, w, h);
    free(v);
    plot_slice_geometry_free(&in);
    return rc;
}
