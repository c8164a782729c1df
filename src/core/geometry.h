/* geometry.h — a regular grid as the methods and backends see it. */
#ifndef TBRF_GEOMETRY_H
#define TBRF_GEOMETRY_H

#include <stdint.h>

/* Cell (i, j, k) is at origin + (i, j, k) * spacing; n cells per axis
 * (n[2] = 1 in 2D). */
typedef struct grid_geom {
    double origin[3], spacing[3];
    int64_t n[3];
} grid_geom;

#endif
