/* geometry.h — a regular grid as the methods and backends see it. */
#ifndef TBRF_GEOMETRY_H
#define TBRF_GEOMETRY_H

#include <stdint.h>

/* A box of n cells per axis (n[2] = 1 in 2D) out of a global grid of
 * full[d] cells whose cell (0, 0, 0) is at origin: the box's cell (i, j, k)
 * is the global cell (start + (i, j, k)), at origin + (start + (i, j, k)) *
 * spacing. Every method computes a cell from its global index and the
 * global origin, never from the box's corner, so a cell's value does not
 * depend on the box (decomposition invariance, doc/decomposition.md). A
 * whole grid has start = 0 and full = n. */
typedef struct grid_geom {
    double origin[3], spacing[3];
    int64_t n[3];
    int64_t start[3];
    int64_t full[3];
} grid_geom;

#endif
