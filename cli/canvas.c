/* canvas.c — see canvas.h. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "canvas.h"

int canvas_init(canvas *c, int w, int h, rgb bg)
{
    c->w = w;
    c->h = h;
    c->rgb = (w > 0 && h > 0 && w < 20000 && h < 20000) ? malloc((size_t)w * (size_t)h * 3) : NULL;
    if (!c->rgb)
        return -1;
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        c->rgb[3 * i] = bg.r;
        c->rgb[3 * i + 1] = bg.g;
        c->rgb[3 * i + 2] = bg.b;
    }
    return 0;
}

void canvas_free(canvas *c)
{
    free(c->rgb);
    c->rgb = NULL;
}

void canvas_pixel(canvas *c, int x, int y, rgb col)
{
    if (x < 0 || y < 0 || x >= c->w || y >= c->h)
        return;
    unsigned char *p = c->rgb + 3 * ((size_t)y * (size_t)c->w + (size_t)x);
    p[0] = col.r, p[1] = col.g, p[2] = col.b;
}

void canvas_rect(canvas *c, int x0, int y0, int x1, int y1, rgb col)
{
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            canvas_pixel(c, x, y, col);
}

void canvas_line(canvas *c, double x0, double y0, double x1, double y1, int width, rgb col)
{
    double dx = x1 - x0, dy = y1 - y0;
    int steps = (int)ceil(fmax(fabs(dx), fabs(dy))) + 1;
    if (steps > 100000)
        steps = 100000;
    int r0 = -(width - 1) / 2, r1 = width / 2;
    for (int i = 0; i <= steps; i++) {
        double t = (double)i / steps;
        int x = (int)lround(x0 + t * dx), y = (int)lround(y0 + t * dy);
        for (int a = r0; a <= r1; a++)
            for (int b = r0; b <= r1; b++)
                canvas_pixel(c, x + a, y + b, col);
    }
}

/* 5x7 glyphs, one byte per row, bit 4 the leftmost pixel. */
static const struct {
    char ch;
    unsigned char rows[7];
} FONT[] = {
    {'0', {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}}, {'1', {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'2', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}}, {'3', {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E}},
    {'4', {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}}, {'5', {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}},
    {'6', {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}}, {'7', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
    {'8', {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}}, {'9', {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}},
    {'.', {0, 0, 0, 0, 0, 0x0C, 0x0C}},               {'-', {0, 0, 0, 0x1F, 0, 0, 0}},
    {'+', {0, 0x04, 0x04, 0x1F, 0x04, 0x04, 0}},      {'=', {0, 0, 0x1F, 0, 0x1F, 0, 0}},
    {'(', {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}}, {')', {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}},
    {'P', {0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10}}, {'a', {0, 0, 0x0E, 0x01, 0x0F, 0x11, 0x0F}},
    {'c', {0, 0, 0x0E, 0x10, 0x10, 0x11, 0x0E}},       {'d', {0x01, 0x01, 0x0D, 0x13, 0x11, 0x11, 0x0F}},
    {'e', {0, 0, 0x0E, 0x11, 0x1F, 0x10, 0x0E}},       {'i', {0x04, 0, 0x0C, 0x04, 0x04, 0x04, 0x0E}},
    {'k', {0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12}}, {'l', {0x0C, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'m', {0, 0, 0x1A, 0x15, 0x15, 0x11, 0x11}},       {'n', {0, 0, 0x16, 0x19, 0x11, 0x11, 0x11}},
    {'o', {0, 0, 0x0E, 0x11, 0x11, 0x11, 0x0E}},       {'r', {0, 0, 0x16, 0x19, 0x10, 0x10, 0x10}},
    {'s', {0, 0, 0x0E, 0x10, 0x0E, 0x01, 0x1E}},       {'t', {0x08, 0x08, 0x1C, 0x08, 0x08, 0x09, 0x06}},
    {'u', {0, 0, 0x11, 0x11, 0x11, 0x13, 0x0D}},       {'x', {0, 0, 0x11, 0x0A, 0x04, 0x0A, 0x11}},
    {'y', {0, 0, 0x11, 0x11, 0x0F, 0x01, 0x0E}},       {'z', {0, 0, 0x1F, 0x02, 0x04, 0x08, 0x1F}},
};

int canvas_text_width(const char *s, int scale)
{
    int n = (int)strlen(s);
    return n > 0 ? (6 * n - 1) * scale : 0;
}

int canvas_text(canvas *c, int x, int y, const char *s, int scale, rgb col)
{
    int x0 = x;
    for (; *s; s++, x += 6 * scale) {
        for (size_t g = 0; g < sizeof FONT / sizeof FONT[0]; g++) {
            if (FONT[g].ch != *s)
                continue;
            for (int r = 0; r < 7; r++)
                for (int b = 0; b < 5; b++)
                    if (FONT[g].rows[r] & (0x10 >> b))
                        canvas_rect(c, x + b * scale, y + r * scale, x + (b + 1) * scale - 1,
                                    y + (r + 1) * scale - 1, col);
            break;
        }
    }
    return x - x0;
}

rgb diverging(double t)
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
    rgb out;
    out.r = (unsigned char)lround(stops[i][0] + f * (stops[i + 1][0] - stops[i][0]));
    out.g = (unsigned char)lround(stops[i][1] + f * (stops[i + 1][1] - stops[i][1]));
    out.b = (unsigned char)lround(stops[i][2] + f * (stops[i + 1][2] - stops[i][2]));
    return out;
}

int canvas_write_png(const canvas *c, const char *path, char *err, size_t errlen)
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
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_bytep *rows = malloc((size_t)c->h * sizeof *rows);
    int ok = 0;
    if (png && info && rows) {
        /* libpng reports errors by longjmp; nothing here needs unwinding
         * but the handles closed below. */
        if (setjmp(png_jmpbuf(png)) == 0) {
            png_init_io(png, f);
            png_set_IHDR(png, info, (png_uint_32)c->w, (png_uint_32)c->h, 8, PNG_COLOR_TYPE_RGB,
                         PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
            png_write_info(png, info);
            for (int y = 0; y < c->h; y++)
                rows[y] = c->rgb + (size_t)y * (size_t)c->w * 3;
            png_write_image(png, rows);
            png_write_end(png, NULL);
            ok = 1;
        }
    }
    png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
    free(rows);
    int saved = errno;
    if (fflush(f) != 0 || ferror(f))
        ok = 0, saved = errno;
    if (fclose(f) != 0)
        ok = 0, saved = errno;
    if (!ok || rename(tmp, path) != 0) {
        if (ok)
            saved = errno;
        snprintf(err, errlen, "cannot write %s: %s", path, saved ? strerror(saved) : "PNG encoding failed");
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}
