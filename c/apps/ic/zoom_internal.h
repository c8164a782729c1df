/* zoom_internal.h — the region of a zoom IC (apps/ic/zoom.c) and the
 * object (apps/ic/zoom_make.c, doc/ic.md "Zoom"): internal. */
#ifndef TBRF_ZOOM_INTERNAL_H
#define TBRF_ZOOM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/message.h"
#include "tbrf.h"

/* Checks the region's parameters against the parent's (G, L), then marks
 * in mask (G^3 bytes, x fastest, zeroed by the caller) each parent cell's
 * level: L (z->levels, at least 1) for the region padded by z->pad cells
 * on every side (a cube, periodic), l < L for those within (L - l) more
 * pads of it and not in a finer level, 0 for the rest; cells[0 .. L] the
 * count of each level. TBRF_OK; TBRF_ERR_NULL, TBRF_ERR_INVALID (a
 * parameter, an ID outside 1 .. 2 G^3, an empty region, levels that cover
 * the box), TBRF_ERR_NO_MEMORY, with why (size bytes) saying why. */
int tbrfi_zoom_mask(const tbrf_ic_cosmo_params *p, const tbrf_ic_zoom_params *z,
                    unsigned char *mask, int64_t *cells, char *why, size_t size);

/* Grows the marked cells of mask (G^3, 0 or 1) by pad on every side, a
 * cube, periodically. TBRF_OK or TBRF_ERR_NO_MEMORY. */
int tbrfi_zoom_dilate(unsigned char *mask, int64_t g, int64_t pad);

/* The smallest periodic interval of each axis that holds every marked
 * cell of mask (G^3): lo in 0 .. G-1, width 1 .. G (the complement of the
 * longest run of unmarked planes). */
void tbrfi_zoom_extent(const unsigned char *mask, int64_t g, int64_t lo[3], int64_t width[3]);

/* The parent cell of fine index f (0 .. G r - 1) on one axis: fine site
 * (f + 1/2) L/(G r) lies in parent cell i, [i - 1/2, i + 1/2) L/G, when
 * (2 f + 1 + r) / (2 r) rounds down to i (mod G); r per cell. */
static inline int64_t tbrfi_zoom_cell(int64_t f, int64_t r, int64_t g)
{
    return ((2 * f + 1 + r) / (2 * r)) % g;
}

/* One particle type held by a zoom (mass: per particle, or NULL). */
typedef struct tbrfi_zoom_type {
    int64_t n, cap;
    double *pos, *vel, *u, *mass;
    int64_t *row;
} tbrfi_zoom_type;

struct tbrf_ic_zoom {
    tbrfi_message msg;
    int began, made;
    int hold;               /* holds every particle (tbrf_ic_zoom_begin's hold) */
    int level;              /* the level whose chunks take keeps (the last made), or -1 */
    tbrf_ic_cosmo_params p; /* the parent's: the caller's power tables until finished, then
                               NULL; omega_lambda resolved by level 0 */
    tbrf_ic_zoom_params z;  /* ids NULL */
    tbrf_ic_zoom_info info;
    unsigned char *mask;    /* G^3 parent cells, each its level 0 .. L */
    int64_t count[8];       /* each level's kept particles (cells[l] r_l^3) */
    int64_t coarse;         /* those of the levels below L */
    tbrf_ic_cosmo_info linfo[2]; /* level 0's and level L's, as their ICs derived them */
    double lmass[8];        /* each level's dark-matter particle mass, as its IC derived it */
    tbrfi_zoom_type type[3]; /* gas, fine, coarse */
};

#endif
