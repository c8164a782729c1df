/* plot.c — what the slice and the spectrum pictures share; see plot.h. */
#define _POSIX_C_SOURCE 200809L
#define PLOT_INTERNAL

#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/tbrf_io.h"
#include "plot.h"

#define FONT "DejaVu Sans"

void plot_diverging(double t, double rgb[3])
{
    /* ColorBrewer RdBu (reversed so that red is positive), 7 stops. */
    static const double stops[7][3] = {
        {33, 102, 172}, {103, 169, 207}, {209, 229, 240}, {247, 247, 247},
        {253, 219, 199}, {239, 138, 98}, {178, 24, 43},
    };
    if (!(t >= -1.0))
        t = -1.0; /* also NaN */
    if (t > 1.0)
        t = 1.0;
    double u = (t + 1.0) * 3.0;
    int i = (int)floor(u);
    if (i >= 6)
        i = 5;
    double f = u - i;
    for (int c = 0; c < 3; c++)
        rgb[c] = (stops[i][c] + f * (stops[i + 1][c] - stops[i][c])) / 255.0;
}

/* Nine stops of a map at t = 0, 1/8, ..., 1, interpolated linearly. */
static void stops9(const unsigned char st[9][3], double t, double rgb[3])
{
    double u = t * 8.0;
    int i = (int)floor(u);
    if (i >= 8)
        i = 7;
    double f = u - i;
    for (int c = 0; c < 3; c++)
        rgb[c] = (st[i][c] + f * (st[i + 1][c] - st[i][c])) / 255.0;
}

void plot_cmap(int map, double t, double rgb[3])
{
    /* viridis and magma (van der Walt and Smith, matplotlib): sampled at
     * nine points, which keeps them monotonic in lightness. */
    static const unsigned char viridis[9][3] = {
        {68, 1, 84},    {71, 45, 123},  {59, 82, 139},  {44, 114, 142}, {33, 145, 140},
        {40, 174, 128}, {94, 201, 98},  {173, 220, 48}, {253, 231, 37}};
    static const unsigned char magma[9][3] = {
        {0, 0, 4},       {28, 16, 68},   {79, 18, 123},   {129, 37, 129}, {181, 54, 122},
        {229, 80, 100},  {251, 135, 97}, {254, 194, 135}, {252, 253, 191}};
    if (!(t >= 0.0))
        t = 0.0; /* also NaN */
    if (t > 1.0)
        t = 1.0;
    switch (map) {
    case PLOT_CMAP_VIRIDIS:
        stops9(viridis, t, rgb);
        break;
    case PLOT_CMAP_MAGMA:
        stops9(magma, t, rgb);
        break;
    case PLOT_CMAP_GRAY:
        rgb[0] = rgb[1] = rgb[2] = 0.08 + 0.9 * t; /* black and white stay apart from the frame */
        break;
    default:
        plot_diverging(2.0 * t - 1.0, rgb);
    }
}

static const char *const CMAP_NAMES[PLOT_CMAP_COUNT] = {"rdbu", "viridis", "magma", "gray"};

int plot_cmap_by_name(const char *name)
{
    for (int i = 0; i < PLOT_CMAP_COUNT; i++)
        if (strcmp(name, CMAP_NAMES[i]) == 0)
            return i;
    return -1;
}

const char *plot_cmap_names(void) { return "rdbu, viridis, magma, gray"; }

int plot_scale(plot_slice_in *in, char *err, size_t errlen)
{
    double lo = INFINITY, hi = -INFINITY, pos = INFINITY, amax = 0;
    for (int64_t i = 0; i < in->w * in->h; i++) {
        double v = in->v[i];
        if (!isfinite(v))
            continue;
        lo = fmin(lo, v), hi = fmax(hi, v), amax = fmax(amax, fabs(v));
        if (v > 0)
            pos = fmin(pos, v);
    }
    if (in->cmap < 0)
        in->cmap = lo < 0 && !in->log ? PLOT_CMAP_RDBU : PLOT_CMAP_VIRIDIS;
    if (in->log && in->cmap == PLOT_CMAP_RDBU) {
        snprintf(err, errlen, "preview: --log needs a sequential map (--cmap viridis, magma "
                              "or gray), not the diverging rdbu");
        return -1;
    }
    if (in->cmap == PLOT_CMAP_RDBU && !in->log) {
        /* Symmetric about zero unless told otherwise: white is zero. */
        double m = amax > 0 ? amax : 1.0; /* an all-zero plane: white, a bar that reads */
        if (isnan(in->vmin))
            in->vmin = isnan(in->vmax) ? -m : -fabs(in->vmax);
        if (isnan(in->vmax))
            in->vmax = fabs(in->vmin);
    } else {
        if (isnan(in->vmin))
            in->vmin = in->log ? pos : lo;
        if (isnan(in->vmax))
            in->vmax = hi;
        if (!isfinite(in->vmin) || !isfinite(in->vmax)) {
            snprintf(err, errlen, "preview: the plane holds no %svalue to scale the colours by",
                     in->log ? "positive " : "finite ");
            return -1;
        }
        if (in->vmin == in->vmax) { /* a constant plane: a range around it */
            double d = in->vmin != 0 ? 0.5 * fabs(in->vmin) : 1.0;
            in->vmin -= in->log ? 0.5 * in->vmin : d;
            in->vmax += d;
        }
    }
    if (!(in->vmin < in->vmax)) {
        snprintf(err, errlen, "preview: the colour range %g .. %g is empty or inverted", in->vmin,
                 in->vmax);
        return -1;
    }
    if (in->log && !(in->vmin > 0)) {
        snprintf(err, errlen, "preview: --log needs a positive range, not %g .. %g", in->vmin,
                 in->vmax);
        return -1;
    }
    return 0;
}

static void set_font(cairo_t *cr, double size, int bold)
{
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

double plot_text_width(cairo_t *cr, const char *s, double size, int bold)
{
    cairo_text_extents_t e;
    set_font(cr, size, bold);
    cairo_text_extents(cr, s, &e);
    return e.x_advance;
}

double plot_text(cairo_t *cr, double x, double y, const char *s, double size, int bold,
                 double ax, double ay)
{
    cairo_font_extents_t fe;
    double w = plot_text_width(cr, s, size, bold);
    cairo_font_extents(cr, &fe);
    /* ay: 0 puts the top of the capitals at y, 0.5 their middle, 1 the baseline. */
    double cap = 0.73 * size;
    cairo_move_to(cr, x - ax * w, y + (1.0 - ay) * cap);
    cairo_show_text(cr, s);
    return w;
}

double plot_pow10(cairo_t *cr, double x, double y, int m, int e, double size, double ax,
                  double ay)
{
    char base[32], ex[16];
    if (m == 1)
        snprintf(base, sizeof base, "10");
    else
        snprintf(base, sizeof base, "%d\xc3\x97" "10", m); /* m×10 */
    snprintf(ex, sizeof ex, "%d", e);
    if (e < 0)
        snprintf(ex, sizeof ex, "\xe2\x88\x92%d", -e); /* a real minus sign */
    double sup = 0.72 * size;
    double wb = plot_text_width(cr, base, size, 0), we = plot_text_width(cr, ex, sup, 0);
    double w = wb + we + 1, x0 = x - ax * w;
    plot_text(cr, x0, y, base, size, 0, 0, ay);
    /* The exponent's baseline half a capital above the base's. */
    double cap = 0.73 * size, base_y = y + (1.0 - ay) * cap;
    cairo_move_to(cr, x0 + wb + 1, base_y - 0.5 * cap);
    set_font(cr, sup, 0);
    cairo_show_text(cr, ex);
    return w;
}

void plot_ticks(double lo, double hi, int target, double *first, double *step, int *decimals)
{
    double span = hi - lo;
    if (!(span > 0))
        span = fabs(hi) > 0 ? fabs(hi) : 1.0;
    double raw = span / (target > 1 ? target : 1);
    double p = pow(10.0, floor(log10(raw))), f = raw / p;
    double m = f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10;
    *step = m * p;
    *first = ceil(lo / *step - 1e-9) * *step;
    int d = (int)-floor(log10(*step) + 1e-9);
    *decimals = d > 0 ? d : 0;
}

void plot_tick_label(char *buf, size_t n, double v, double step, int decimals)
{
    if (fabs(v) < 1e-9 * step)
        v = 0.0;
    double a = fabs(v) > fabs(step) ? fabs(v) : fabs(step);
    if (a >= 1e6 || a < 1e-4)
        snprintf(buf, n, "%.3g", v);
    else
        snprintf(buf, n, "%.*f", decimals, v);
    if (v < 0 && buf[0] == '-') { /* a real minus sign: U+2212 */
        char tmp[64];
        snprintf(tmp, sizeof tmp, "\xe2\x88\x92%s", buf + 1);
        snprintf(buf, n, "%s", tmp);
    }
}

void plot_ellipsize(cairo_t *cr, const char *s, double size, double maxw, char *buf, size_t n)
{
    snprintf(buf, n, "%s", s);
    size_t len = strlen(buf);
    while (len > 0 && plot_text_width(cr, buf, size, 0) > maxw) {
        /* Cut at a UTF-8 character boundary, then append "...". */
        do
            len--;
        while (len > 0 && ((unsigned char)buf[len] & 0xC0) == 0x80);
        if (len + 4 > n)
            continue;
        memcpy(buf + len, "...", 4);
    }
}

void plot_release(void)
{
    cairo_debug_reset_static_data();
    FcFini();
}

int plot_begin(int w, int h, cairo_surface_t **s, cairo_t **cr)
{
    *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    *cr = NULL;
    if (cairo_surface_status(*s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(*s);
        *s = NULL;
        return -1;
    }
    *cr = cairo_create(*s);
    cairo_set_source_rgb(*cr, 1, 1, 1);
    cairo_paint(*cr);
    cairo_set_source_rgb(*cr, 0, 0, 0);
    return 0;
}

static cairo_status_t write_file(void *closure, const unsigned char *data, unsigned int len)
{
    return fwrite(data, 1, len, (FILE *)closure) == len ? CAIRO_STATUS_SUCCESS
                                                        : CAIRO_STATUS_WRITE_ERROR;
}

int plot_write_png(cairo_surface_t *s, const char *path, char *err, size_t errlen)
{
    size_t tl = strlen(path) + 40;
    char *tmp = malloc(tl);
    if (!tmp) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    snprintf(tmp, tl, "%.*s.%s.tmp-%ld", (int)dl, path, path + dl, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    cairo_surface_flush(s);
    cairo_status_t st = cairo_surface_write_to_png_stream(s, write_file, f);
    int saved = errno, ok = st == CAIRO_STATUS_SUCCESS;
    if (fflush(f) != 0 || ferror(f))
        ok = 0, saved = errno;
    if (fclose(f) != 0)
        ok = 0, saved = errno;
    if (!ok || rename(tmp, path) != 0) {
        if (ok)
            saved = errno;
        snprintf(err, errlen, "cannot write %s: %s", path,
                 st != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(st) : strerror(saved));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

char *plot_file_unit(const char *file)
{
    char err[256], buf[64];
    tbrf_io_file *f = tbrf_io_open(file, err, sizeof err);
    if (!f)
        return NULL;
    int got = tbrf_io_attr_str(f, "length_units", buf, sizeof buf);
    tbrf_io_file_close(f);
    if (got != 1 || !buf[0] || strcmp(buf, "1") == 0)
        return NULL;
    return strdup(buf);
}

/* "wrote PATH: PNG WxH pixels" on stderr, the size read back
 * from the PNG's IHDR chunk (bytes 16..23, big-endian). */
void plot_say_wrote(const char *path)
{
    unsigned char b[24];
    char esc[1024];
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(b, 1, sizeof b, f) : 0;
    if (f)
        fclose(f);
    tbrf_io_escape(path, esc, sizeof esc);
    if (got < sizeof b || memcmp(b + 12, "IHDR", 4) != 0) {
        fprintf(stderr, "wrote %s: PNG\n", esc);
        return;
    }
    unsigned long w = (unsigned long)b[16] << 24 | (unsigned long)b[17] << 16 |
                      (unsigned long)b[18] << 8 | b[19];
    unsigned long h = (unsigned long)b[20] << 24 | (unsigned long)b[21] << 16 |
                      (unsigned long)b[22] << 8 | b[23];
    fprintf(stderr, "wrote %s: PNG %lux%lu pixels\n", esc, w, h);
}
