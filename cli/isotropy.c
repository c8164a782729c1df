/* isotropy.c — the command's view of the library's isotropy limit
 * (tbrf_grid_isotropy, c/engine/lines_default.c, where the measured
 * constants and the default lines' rule live). */
#include "isotropy.h"

#include <math.h>

#include "tbrf.h"

void cli_isotropy_of(int dim, const int64_t n[3], const double h[3], int lines, cli_isotropy *out)
{
    if (tbrf_grid_isotropy(dim, n, h, lines, &out->kf, &out->knyq, &out->kiso, &out->need) !=
        TBRF_OK)
        out->kf = out->knyq = out->kiso = out->need = NAN; /* no note: kiso < knyq/2 is false */
}

int cli_isotropy_short(const cli_isotropy *iso)
{
    return iso->kiso < 0.5 * iso->knyq;
}
