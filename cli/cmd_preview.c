/* preview.c — `tbrf preview FILE --out slice.png [--axis z] [--index K]`.
 *
 * Draws one plane of a grid file (HDF5 or netCDF-4; a scalar grid, a
 * vector grid's component or magnitude, a frame of a `tbrf drive`
 * series; pick.c chooses the part). Signed data gets a diverging colour
 * map symmetric about zero (red positive, blue negative, white zero,
 * saturating at +-max|value| of the plane), so the sign and the relative
 * amplitude read off at a glance; positive data (a magnitude, a density)
 * a sequential map over its range, which a diverging one would spend
 * half of on values that do not occur. --vmin/--vmax, --cmap and --log
 * override. Only the plane is read, so files larger than memory preview
 * fine. The picture (physical aspect, axes, title, labelled bar) is
 * drawn by plot_slice.c. A particle file's plane is its mass deposited
 * by cloud-in-cell (particles.c). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "particles.h"
#include "io/tbrf_io.h"
#include "pick.h"
#include "plot.h"

static void usage(void)
{
    printf("usage: tbrf preview FILE --out SLICE.png [--axis x|y|z] [--index K]\n"
           "                    [--component x|y|z|magnitude] [--frame N | --time T]\n"
           "                    [--vmin A] [--vmax B] [--cmap MAP] [--log] [--grid G] [--quiet]\n"
           "\n"
           "Draws the plane K (default: the middle one) across the given axis (default z)\n"
           "of the grid in FILE as a PNG with a colour bar labelled with the quantity\n"
           "(and its units when the file records them). Signed data: red positive, blue\n"
           "negative, white zero, on a scale symmetric about zero (+-max|value| of the\n"
           "plane); positive data (a magnitude, a density): the sequential viridis from\n"
           "the plane's smallest to largest value.\n"
           "Cells are drawn with their spacing, on axes in the file's coordinates; the\n"
           "first in-plane axis runs to the right, the second upwards (a grid written by\n"
           "another program through libtbrf_writer, without tbrf's attributes: cell\n"
           "indices). A 2D file has only the plane --axis z --index 0.\n"
           "  --component C  of a vector file (required there): x, y, z (3D) or magnitude\n"
           "  --frame N      of a `tbrf drive` series (required there, or --time): frame N\n"
           "  --time T       ... the frame at time T (the nearest, within half a step)\n"
           "  --vmin A, --vmax B  the colour range (values beyond saturate)\n"
           "  --cmap MAP     rdbu (diverging; white mid-range), viridis, magma or gray\n"
           "  --log          colours by log10 of the value (a sequential map; values <= 0\n"
           "                 take the lowest colour)\n"
           "A particle file (AREPO HDF5, Gadget format 1 or 2, a single file or a set:\n"
           "tbrf arepo cosmo / gas, or another code's): the mass density over its mean,\n"
           "deposited by cloud-in-cell on G^3 cells over the box, plane K of them:\n"
           "  --grid G       cells a side (default: the particle lattice's side, the cube\n"
           "                 root of the most numerous type's count)\n"
           "stderr gets one line 'wrote SLICE.png: PNG WxH pixels' unless --quiet (a\n"
           "particle file: after one saying what was deposited).\n");
}

/* The command line. */
typedef struct preview_args {
    const char *file, *out;
    int axis;
    int64_t index; /* -1: the middle */
    int64_t grid;  /* a particle file's deposit grid (0: the lattice's side) */
    int quiet, log, cmap;
    double vmin, vmax; /* NaN: from the data */
    pick_args pick;
} preview_args;

/* The value options' words. */
typedef struct preview_words {
    const char *out, *axis, *index, *vmin, *vmax, *cmap, *grid;
} preview_words;

/* The value options' slot, or NULL. */
static const char **value_slot(const char *o, preview_words *w, preview_args *a)
{
    const char **p = pick_slot(&a->pick, o);
    return p                              ? p
           : strcmp(o, "--out") == 0      ? &w->out
           : strcmp(o, "--axis") == 0     ? &w->axis
           : strcmp(o, "--index") == 0    ? &w->index
           : strcmp(o, "--vmin") == 0     ? &w->vmin
           : strcmp(o, "--vmax") == 0     ? &w->vmax
           : strcmp(o, "--cmap") == 0     ? &w->cmap
           : strcmp(o, "--grid") == 0     ? &w->grid
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

/* Checks the colour options into *a. */
static int colours(const preview_words *w, preview_args *a)
{
    char err[1024], esc[2048];
    a->vmin = a->vmax = NAN;
    if ((w->vmin && args_double("--vmin", w->vmin, &a->vmin, err, sizeof err)) ||
        (w->vmax && args_double("--vmax", w->vmax, &a->vmax, err, sizeof err))) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_USAGE;
    }
    if (w->vmin && w->vmax && !(a->vmin < a->vmax)) {
        cli_errline("preview: --vmin %g is not below --vmax %g", a->vmin, a->vmax);
        return EXIT_USAGE;
    }
    a->cmap = -1;
    if (w->cmap && (a->cmap = plot_cmap_by_name(w->cmap)) < 0) {
        cli_errline("preview: --cmap '%s' is not one of %s", tbrf_io_escape(w->cmap, esc, 64),
                    plot_cmap_names());
        return EXIT_USAGE;
    }
    if (a->log && a->cmap == PLOT_CMAP_RDBU) {
        cli_errline("preview: --log needs a sequential map (--cmap viridis, magma or gray), "
                    "not the diverging rdbu");
        return EXIT_USAGE;
    }
    return 0;
}

/* 0, 1 after --help, or EXIT_USAGE after one message. */
static int parse_preview(int argc, char **argv, preview_args *a)
{
    preview_words w = {0};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            usage();
            return 1;
        }
        const char **dst = value_slot(o, &w, a);
        if (strcmp(o, "--quiet") == 0 || strcmp(o, "--log") == 0) {
            *(o[2] == 'q' ? &a->quiet : &a->log) = 1;
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
    if (!a->file || !w.out || !w.out[0]) {
        cli_errline("preview: usage: tbrf preview FILE --out SLICE.png [--axis z] [--index K]");
        return EXIT_USAGE;
    }
    a->out = w.out;
    char err[1024], esc[2048];
    if (w.grid && args_int64("--grid", w.grid, 2, 16000, &a->grid, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_USAGE;
    }
    int rc = axis_index(w.axis, w.index, a);
    return rc ? rc : colours(&w, a);
}

/* The largest plane side read and drawn: a plane is checked against it
 * before a byte of it is read. */
#define PREVIEW_MAX_SIDE 16000

/* Scales and draws the w x h plane v where *in places it (plot_slice.c),
 * writes the PNG. */
static int draw(const preview_args *a, plot_slice_in *in, const double *v, int64_t w, int64_t h)
{
    in->v = v, in->w = w, in->h = h;
    in->cmap = a->cmap, in->log = a->log, in->vmin = a->vmin, in->vmax = a->vmax;
    char err[1024], esc[2048];
    if (plot_scale(in, err, sizeof err) || plot_slice(a->out, in, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    if (!a->quiet)
        plot_say_wrote(a->out);
    return 0;
}

/* Reads the plane the pick and *a name and draws it. */
static int read_and_draw(const preview_args *a, const pick *p, plot_slice_in *in)
{
    const int64_t *n = p->L.n;
    int64_t w = a->axis == 0 ? n[1] : n[0], h = a->axis == 2 ? n[1] : n[2];
    if (w > PREVIEW_MAX_SIDE || h > PREVIEW_MAX_SIDE) {
        cli_errline("preview: a %lld x %lld slice is too large for an image (at most %d pixels "
                    "a side)", (long long)w, (long long)h, PREVIEW_MAX_SIDE);
        return EXIT_FAIL;
    }
    double *v = NULL;
    char err[1024], esc[2048];
    /* A 2D grid's one plane is the whole grid (no z axis to fix). */
    int axis = p->L.dim == 2 ? -1 : a->axis;
    if (tbrf_io_read_grid_part(a->file, &p->L, p->frame, axis, a->index, p->comp, &v, err,
                               sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    in->what = p->what[0] ? p->what : NULL;
    in->label = p->label;
    int rc = draw(a, in, v, w, h);
    free(v);
    return rc;
}

/* A particle file: the plane of its deposited density (particles.h). */
static int preview_particles(const preview_args *a, io_psnap *ps, plot_slice_in *in)
{
    int rc = 0;
    double *v = NULL;
    int64_t index = a->index;
    if (a->pick.component || a->pick.frame || a->pick.time) {
        cli_errline("preview: %s is a particle file: --component, --frame and --time are for "
                    "grids", a->file);
        rc = EXIT_USAGE;
    }
    if (rc == 0)
        rc = particles_slice(a->file, ps, a->axis, &index, a->grid, a->quiet, in, &v);
    if (rc == 0)
        rc = draw(a, in, v, in->w, in->h);
    free(v);
    io_psnap_free(ps);
    return rc;
}

int cmd_preview(int argc, char **argv)
{
    preview_args a;
    memset(&a, 0, sizeof a);
    a.index = -1;
    int rc = parse_preview(argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    /* Which part of the file (component, frame), then where the plane
     * lies and whether the file has it at all. */
    plot_slice_in in;
    memset(&in, 0, sizeof in);
    io_psnap ps;
    int particles = cli_particles_open("preview", a.file, &ps);
    if (particles < 0)
        return EXIT_FAIL;
    if (particles)
        return preview_particles(&a, &ps, &in);
    if (a.grid) {
        cli_errline("preview: --grid deposits the particles of a particle file; %s is none",
                    a.file);
        return EXIT_USAGE;
    }
    if ((rc = plot_slice_geometry(a.file, a.axis, &a.index, &in)) != 0)
        return rc;
    pick p;
    if ((rc = pick_resolve("preview", a.file, &a.pick, 0, 1, &p)) == 0)
        rc = read_and_draw(&a, &p, &in);
    plot_slice_geometry_free(&in);
    return rc;
}
