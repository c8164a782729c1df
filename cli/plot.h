/* plot.h — the pictures of `tbrf preview` and `tbrf spectrum --plot`,
 * drawn with cairo (antialiased lines, real fonts, PNG output built in):
 * plot.c has what both share (colours, text, ticks, the safe PNG write),
 * plot_slice.c the slice and plot_spectrum.c the spectrum. */
#ifndef TBRF_CLI_PLOT_H
#define TBRF_CLI_PLOT_H

#include <stddef.h>
#include <stdint.h>

/* A plane of a grid file, placed in space: value v[j*w + i] is the cell
 * centred at (x0 + i*dx, y0 + j*dy) of the in-plane axes named xname
 * (right) and yname (up); the plane lies at sname = coord (cell `index`). */
typedef struct plot_slice_in {
    const char *file;  /* named in the title */
    const char *model; /* the model's description, or NULL */
    const char *unit;  /* length unit, or NULL when the file records none */
    const double *v;
    int64_t w, h;
    double x0, dx, y0, dy;
    char xname, yname, sname;
    double coord;
    int64_t index;
    int dim; /* 2: the plane is the whole file (no slice coordinate) */
    /* What is drawn and how (plot_scale fills the NaN/-1 entries). */
    const char *what;  /* the quantity in the title, e.g. "field x, t = 0.5" (NULL: none) */
    const char *label; /* the colour bar's label (NULL: "field value") */
    int cmap;          /* PLOT_CMAP_*, or -1: diverging for signed data, sequential else */
    int log;           /* 1: colours by log10 of the value (the range must be positive) */
    double vmin, vmax; /* the range of the colours (NaN: from the data) */
} plot_slice_in;

/* The colour maps: diverging red/blue about zero, and sequential ones for
 * positive data (viridis and magma are perceptually uniform, grey for
 * print). */
enum { PLOT_CMAP_RDBU = 0, PLOT_CMAP_VIRIDIS, PLOT_CMAP_MAGMA, PLOT_CMAP_GRAY, PLOT_CMAP_COUNT };

/* The map called name ("rdbu", "viridis", "magma", "gray"), or -1. */
int plot_cmap_by_name(const char *name);
/* The names of the maps, comma-separated, for messages. */
const char *plot_cmap_names(void);

/* Completes in's colour scale from its values: the map (-1: diverging
 * when a finite value is negative, else viridis), and each NaN end of
 * the range (a diverging map: symmetric, +-max|v|; a sequential one: the
 * smallest and largest finite values, the smallest positive one with
 * log). Returns 0, or -1 with a message in err when the range is empty
 * or inverted, or log has no positive range. */
int plot_scale(plot_slice_in *in, char *err, size_t errlen);

/* Writes the slice as a PNG at `path` (temporary + rename). 0, or -1 with
 * a message in err. */
int plot_slice(const char *path, const plot_slice_in *in, char *err, size_t errlen);

/* A measured spectrum beside its model (NaN where there is none). */
typedef struct plot_spectrum_in {
    const char *file, *model, *unit; /* unit: length unit or NULL */
    int dim;                          /* of the measured field, for P's unit */
    const double *k, *p, *model_p;
    int n;                      /* bins to draw (k > 0 and P > 0 are drawn) */
    double knyq;                /* the grid's Nyquist wavenumber */
    double klo, khi;            /* the fit range (klo >= khi: none) */
    double slope, slope_err;    /* the fitted slope of the measurement (NaN: none) */
    double model_slope;         /* ... of the model over the same range (NaN: none) */
    const char *what;           /* the part measured, for the title (NULL: the field) */
    const double *sol_p, *comp_p; /* a vector's solenoidal and compressive parts (NULL: none) */
    double sol_frac, sol_expected; /* the solenoidal fraction measured, and the one the
                                      recorded zeta gives (NaN: none) */
} plot_spectrum_in;

int plot_spectrum(const char *path, const plot_spectrum_in *in, char *err, size_t errlen);

/* Where a plane of `file` lies: checks that the grid has `axis` (a 2D file
 * has only z, plane 0), sets index to the middle plane when it is < 0, and
 * fills *in's geometry, names, file, model and unit (in->v, w, h left).
 * Returns 0, EXIT_USAGE for a slice the file cannot have, EXIT_FAIL when
 * the file cannot be read (one message printed either way). Release with
 * plot_slice_geometry_free. */
int plot_slice_geometry(const char *file, int axis, int64_t *index, plot_slice_in *in);
void plot_slice_geometry_free(plot_slice_in *in);

/* The length unit a file records (root attribute "length_units"), malloc'ed,
 * or NULL when it records none or "1" (dimensionless). */
char *plot_file_unit(const char *file);

/* One stderr line "wrote PATH: PNG WxH pixels" (the size read from the file). */
void plot_say_wrote(const char *path);

/* ------------------------------------------------ shared by the drawings */
#ifdef PLOT_INTERNAL
#include <cairo.h>
#include <fontconfig/fontconfig.h>

#include "cairo_load.h"

/* ColorBrewer RdBu for t in [-1, 1] (NaN and beyond clamp): blue
 * negative, near-white zero, red positive; rgb in [0, 1]. */
void plot_diverging(double t, double rgb[3]);
/* Colour map `map` at t in [0, 1] (beyond and NaN clamp). */
void plot_cmap(int map, double t, double rgb[3]);
/* Text at (x, y) aligned by ax (0 left, 0.5 centre, 1 right) and ay (0 top,
 * 0.5 middle, 1 baseline); size in pixels; bold or not. Returns the width. */
double plot_text(cairo_t *cr, double x, double y, const char *s, double size, int bold,
                 double ax, double ay);
double plot_text_width(cairo_t *cr, const char *s, double size, int bold);
/* "10" with e as a superscript, or "m×10" when m != 1, aligned like plot_text. */
double plot_pow10(cairo_t *cr, double x, double y, int m, int e, double size, double ax,
                  double ay);
/* Nice linear ticks over [lo, hi]: about `target` of them at first + i*step,
 * with `decimals` digits after the point to print them all alike. */
void plot_ticks(double lo, double hi, int target, double *first, double *step, int *decimals);
/* One tick label; "-0" printed as "0". */
void plot_tick_label(char *buf, size_t n, double v, double step, int decimals);
/* s cut with "..." to fit maxw pixels at size (into buf). */
void plot_ellipsize(cairo_t *cr, const char *s, double size, double maxw, char *buf, size_t n);
/* Writes the surface as PNG through a temporary name and renames it. */
int plot_write_png(cairo_surface_t *s, const char *path, char *err, size_t errlen);
/* Frees the font caches cairo and fontconfig keep for the process (so
 * the sanitizers' leak check sees nothing); call with every cairo object
 * destroyed, once a picture is done. */
void plot_release(void);
/* A fresh white RGB surface and its context; 0 or -1 (memory). */
int plot_begin(int w, int h, cairo_surface_t **s, cairo_t **cr);
#endif

#endif
