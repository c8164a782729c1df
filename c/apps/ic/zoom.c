/* zoom.c — the layout of a zoom (multi-resolution) IC (doc/ic.md, Zoom):
 * a parent lattice of G^3 cells, an axis-aligned region of whole parent
 * cells lo[a] .. hi[a] - 1 (periodic, wrapping allowed) refined r times
 * per axis. Each parent cell inside the region is replaced by its r^3
 * fine particles (PartType1, mass m / r^3), the rest stay parent particles
 * (PartType2, mass m): the total mass is the parent's exactly. */
#include <stdio.h>

#include "apps/ic/ic_internal.h"
#include "apps/ic/zoom_internal.h"

int tbrfi_zoom_layout(int64_t g, int64_t r, const int64_t lo[3], const int64_t hi[3],
                      double parent_mass, tbrfi_zoom_counts *out, char *why, size_t size)
{
    if (!lo || !hi || !out)
        return tbrfi_ic_fail(why, size, TBRF_ERR_NULL, "zoom: lo, hi or out NULL");
    if (g < 2 || r < 1 || r > 64 || !(parent_mass > 0))
        return tbrfi_ic_fail(why, size, TBRF_ERR_INVALID,
                         "zoom: G %lld, refinement %lld (1 .. 64) or parent mass %g invalid",
                         (long long)g, (long long)r, parent_mass);
    int64_t cells = 1;
    for (int a = 0; a < 3; a++) {
        const int64_t w = hi[a] - lo[a];
        if (lo[a] < 0 || lo[a] >= g || w < 1 || w > g)
            return tbrfi_ic_fail(why, size, TBRF_ERR_INVALID,
                             "zoom: region axis %d cells %lld .. %lld outside 0 .. G + lo "
                             "(G %lld)", a, (long long)lo[a], (long long)hi[a], (long long)g);
        out->lo[a] = lo[a];
        out->width[a] = w;
        cells *= w;
    }
    out->refinement = r;
    out->region_cells = cells;
    out->fine = cells * r * r * r;
    out->coarse = g * g * g - cells;
    out->mass_fine = parent_mass / (double)(r * r * r);
    out->mass_coarse = parent_mass;
    return TBRF_OK;
}

int tbrfi_zoom_inside(const tbrfi_zoom_counts *z, int64_t g, int64_t i, int64_t j, int64_t k)
{
    const int64_t c[3] = {i, j, k};
    for (int a = 0; a < 3; a++)
        if (((c[a] - z->lo[a]) % g + g) % g >= z->width[a])
            return 0;
    return 1;
}
