/* isotropy.h — how far in k a turning-bands field on a grid is isotropic,
 * and how many lines a grid needs (doc/method.md, "How many lines"). */
#ifndef TBRF_CLI_ISOTROPY_H
#define TBRF_CLI_ISOTROPY_H

#include <stdint.h>

typedef struct cli_isotropy {
    double kf;   /* the grid's fundamental 2 pi / (longest side n h) */
    double knyq; /* the grid's Nyquist pi / (finest spacing) */
    double kiso; /* the shells' isotropy limit for the plan's lines */
    double need; /* the lines whose limit is the Nyquist */
} cli_isotropy;

/* The isotropy limit of L lines on a grid of n cells of spacing h per axis
 * (dim 2 or 3): shells of the grid's spectrum scatter like a Gaussian
 * field's, within 2%, up to kiso (measured by bench/bench_isotropy). */
void cli_isotropy_of(int dim, const int64_t n[3], const double h[3], int lines, cli_isotropy *out);

#endif
