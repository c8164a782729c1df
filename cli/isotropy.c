/* isotropy.c — the shells' isotropy limit of a turning-bands grid field.
 *
 * Each line puts its power along one direction, so a shell of radius k of
 * the grid's spectrum holds L spikes; once their spacing there exceeds
 * the estimator's resolution (about two fundamentals with tbrf's Hann
 * window) the shell power scatters more than a Gaussian field's. Measured
 * with bench/bench_isotropy (doc/method.md, "How many lines";
 * doc/statistics.md): the excess of the shell statistic p2/p^2 over the
 * FFT method's (an exactly isotropic Gaussian field, same spectrum and
 * modes) stays below 2% up to
 *   3D: k_iso = 0.63 sqrt(L) kf (0.626-0.672 over 64^3 and 128^3 grids
 *       with 256, 1024 and 4096 lines; independent of the grid size),
 *   2D: k_iso = 0.57 L kf (0.571-0.626 on a 512^2 grid with 64, 128 and
 *       256 lines; the 2D lines are evenly pi/L apart in angle),
 * with kf = 2 pi / (the grid's longest side). */
#include "isotropy.h"

#include <math.h>

#define ISO_C3 0.63
#define ISO_C2 0.57

void cli_isotropy_of(int dim, const int64_t n[3], const double h[3], int lines, cli_isotropy *out)
{
    const double pi = 3.14159265358979323846;
    double side = 0.0, hmax = 0.0;
    for (int c = 0; c < dim; c++) {
        const double s = (double)n[c] * h[c];
        side = s > side ? s : side;
        hmax = h[c] > hmax ? h[c] : hmax;
    }
    out->kf = 2.0 * pi / side;
    out->knyq = pi / hmax;
    const double r = out->knyq / out->kf; /* the Nyquist in fundamentals */
    if (dim == 3) {
        out->kiso = ISO_C3 * sqrt((double)lines) * out->kf;
        out->need = ceil((r / ISO_C3) * (r / ISO_C3));
    } else {
        out->kiso = ISO_C2 * (double)lines * out->kf;
        out->need = ceil(r / ISO_C2);
    }
}

int cli_isotropy_default_lines(int dim, const int64_t n[3], const double h[3])
{
    cli_isotropy iso;
    cli_isotropy_of(dim, n, h, CLI_LINES_FLOOR, &iso);
    if (!(iso.need > CLI_LINES_FLOOR)) /* NaN too: the floor */
        return CLI_LINES_FLOOR;
    return iso.need < CLI_LINES_CAP ? (int)iso.need : CLI_LINES_CAP;
}

int cli_isotropy_short(const cli_isotropy *iso)
{
    return iso->kiso < 0.5 * iso->knyq;
}
