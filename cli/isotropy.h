/* isotropy.h — how far in k a turning-bands field on a grid is isotropic,
 * for the command's notes (generate's warning, tbrf info's line). The
 * measured limit and the default lines it gives are the library's
 * (tbrf_grid_isotropy, tbrf_default_lines: doc/method.md, "How many
 * lines"); this is only the command's view of them. */
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
 * (dim 2 or 3), by tbrf_grid_isotropy. */
void cli_isotropy_of(int dim, const int64_t n[3], const double h[3], int lines, cli_isotropy *out);

/* Whether generate warns about iso (computed by cli_isotropy_of): the
 * limit below half the grid's Nyquist. */
int cli_isotropy_short(const cli_isotropy *iso);

#endif
