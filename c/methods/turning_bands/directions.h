/* directions.h — turning-bands line directions for one realization. */
#ifndef TBRF_DIRECTIONS_H
#define TBRF_DIRECTIONS_H

#include <stdint.h>

/* Writes L unit vectors u[3*i + c] (u[3*i+2] = 0 in 2D).
 * 3D: a Fibonacci (golden-angle) lattice on the upper half sphere — equal
 * area per point, low discrepancy — turned by a uniform random rotation
 * drawn from (seed, realization). Half a sphere suffices because Y(-s) is
 * just another line.
 * 2D: angles pi (i + U) / L with one uniform offset U from (seed,
 * realization): evenly spaced on the half circle. */
void tbrfi_directions_make(int dim, int L, uint64_t seed, uint64_t realization, double *u);

/* The uniform random rotation used for (seed, realization), as a row-major
 * 3x3 matrix; exposed for tests. */
void tbrfi_directions_rotation(uint64_t seed, uint64_t realization, double R[9]);

#endif
