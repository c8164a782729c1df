/* canvas.h — a small RGB canvas drawn by hand and saved as PNG (libpng),
 * for `tbrf preview` and `tbrf spectrum --plot`: lines, rectangles and a
 * 5x7 bitmap font for tick labels, so the tool needs no plotting library. */
#ifndef TBRF_CLI_CANVAS_H
#define TBRF_CLI_CANVAS_H

#include <stddef.h>

typedef struct canvas {
    int w, h;
    unsigned char *rgb; /* w*h*3, row 0 at the top */
} canvas;

typedef struct rgb {
    unsigned char r, g, b;
} rgb;

int canvas_init(canvas *c, int w, int h, rgb background); /* 0 or -1 (memory) */
void canvas_free(canvas *c);
void canvas_pixel(canvas *c, int x, int y, rgb col);       /* clipped */
void canvas_rect(canvas *c, int x0, int y0, int x1, int y1, rgb col); /* filled, inclusive */
void canvas_line(canvas *c, double x0, double y0, double x1, double y1, int width, rgb col);
/* Text with the top-left corner at (x, y), each font pixel scale x scale.
 * Characters outside the font are drawn as blanks. Returns the width. */
int canvas_text(canvas *c, int x, int y, const char *s, int scale, rgb col);
int canvas_text_width(const char *s, int scale);
/* Writes the PNG through a temporary name and renames it (an interrupted
 * run leaves no half image). 0, or -1 with a message in err. */
int canvas_write_png(const canvas *c, const char *path, char *err, size_t errlen);

/* Diverging map for values in [-1, 1]: blue (negative) - white (0) - red
 * (positive), after ColorBrewer's RdBu, symmetric about zero. */
rgb diverging(double t);

#endif
