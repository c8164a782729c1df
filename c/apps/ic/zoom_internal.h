/* zoom_internal.h — the layout of a zoom IC (apps/ic/zoom.c, doc/ic.md):
 * internal, used by the tests; not yet a public API. */
#ifndef TBRF_ZOOM_INTERNAL_H
#define TBRF_ZOOM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tbrf.h"

typedef struct tbrfi_zoom_counts {
    int64_t lo[3], width[3]; /* the region's parent cells per axis (periodic) */
    int64_t refinement;      /* r: fine particles per parent cell per axis */
    int64_t region_cells;    /* parent cells inside the region */
    int64_t fine;            /* PartType1: region_cells r^3 */
    int64_t coarse;          /* PartType2: G^3 - region_cells */
    double mass_fine;        /* parent mass / r^3 */
    double mass_coarse;      /* the parent's mass */
} tbrfi_zoom_counts;

/* The layout of a region of parent cells lo[a] .. hi[a] - 1 (0 <= lo < G,
 * 1 <= hi - lo <= G; hi past G wraps) refined r (1 .. 64) times per axis of
 * a G^3 parent whose particles weigh parent_mass. TBRF_OK;
 * TBRF_ERR_NULL, TBRF_ERR_INVALID with why (size bytes) saying why. */
int tbrfi_zoom_layout(int64_t g, int64_t r, const int64_t lo[3], const int64_t hi[3],
                      double parent_mass, tbrfi_zoom_counts *out, char *why, size_t size);

/* 1 when parent cell (i, j, k) lies inside z's region, else 0. */
int tbrfi_zoom_inside(const tbrfi_zoom_counts *z, int64_t g, int64_t i, int64_t j, int64_t k);

#endif
