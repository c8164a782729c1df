/* isotropy.h — how far in k a turning-bands field on a grid is isotropic,
 * and how many lines a grid needs (doc/method.md, "How many lines"). */
#ifndef TBRF_CLI_ISOTROPY_H
#define TBRF_CLI_ISOTROPY_H

#include <stdint.h>

typedef struct cli_isotropy {
    double kf;   /* the grid's fundamental 2 pi / (longest side n h) */
    /* the grid's Nyquist pi / (coarsest spacing): shells are whole up to
     * it, the Nyquist tbrf spectrum and the variance warnings use */
    double knyq;
    double kiso; /* the shells' isotropy limit for the plan's lines */
    double need; /* the lines whose limit is the Nyquist */
} cli_isotropy;

/* The isotropy limit of L lines on a grid of n cells of spacing h per axis
 * (dim 2 or 3): shells of the grid's spectrum scatter like a Gaussian
 * field's, within 2%, up to kiso (measured by bench/bench_isotropy). */
void cli_isotropy_of(int dim, const int64_t n[3], const double h[3], int lines, cli_isotropy *out);

/* Whether generate warns about iso (computed by cli_isotropy_of): the
 * limit below half the grid's Nyquist. */
int cli_isotropy_short(const cli_isotropy *iso);

/* The lines generate uses on a grid when --lines is not given: those
 * whose isotropy limit is the grid's Nyquist (out->need), at least
 * CLI_LINES_FLOOR (the library's default, which small grids and points
 * keep) and at most CLI_LINES_CAP, the cost bound (the work per cell
 * grows as the lines; doc/statistics.md, "The default lines"). The
 * command also keeps the default lines' memory within CLI_LINES_MEMORY
 * bytes (request.c: every MPI rank holds them all, a vector field 1 + dim
 * sets). */
#define CLI_LINES_FLOOR 1024
#define CLI_LINES_CAP 16384
#define CLI_LINES_MEMORY 1073741824.0
int cli_isotropy_default_lines(int dim, const int64_t n[3], const double h[3]);

#endif
